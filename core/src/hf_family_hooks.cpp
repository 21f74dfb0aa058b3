// hf_family_hooks.cpp: what a family's class says that its config.json fields do not.
//
// [SECTION] Decoders: adjustments after the shared fields (OPT, Falcon, GPT-BigCode)
// [SECTION] Encoders and encoder-decoders: the whole architecture (BERT, T5)
//
// Every family is a row of the one table (hf_rows.cpp) and is read through the shared path
// (hf_families.cpp). A row names a hook here only for structure its fields cannot say: a bias
// switch under a family's own name, a multi-query flag, a learned-position offset, an encoder.
// Sources: the transformers modeling / configuration files named at each hook
// (github.com/huggingface/transformers, src/transformers/models/<type>/).
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "hf_families_internal.hpp"

namespace gpusizer::hf {

// ---------------------------------------------------------------------------------------------
// [SECTION] Decoders
// ---------------------------------------------------------------------------------------------

// OPT (configuration_opt.py, modeling_opt.py): enable_bias switches every projection's bias;
// OPTLearnedPositionalEmbedding keeps 2 rows beyond max_position_embeddings (its offset);
// do_layer_norm_before false (OPT-350M) and _remove_final_layer_norm drop the final norm;
// word_embed_proj_dim != hidden_size adds project_in / project_out, not modelled.
void adjust_opt(Reader& f, Dims&, ModelArch& a, std::vector<std::string>& notes) {
    const bool bias = f.boolean("enable_bias", true);
    a.qkv_bias = a.o_bias = a.mlp_bias = bias;
    a.learned_positions = a.max_context + 2;
    a.final_norm = f.boolean("do_layer_norm_before", true) && !f.boolean("_remove_final_layer_norm", false);
    const long long proj = f.integer("word_embed_proj_dim", a.hidden);
    if (proj != a.hidden) notes.push_back("word_embed_proj_dim != hidden_size: the project_in/out matrices are not counted");
}

// Falcon (configuration_falcon.py, modeling_falcon.py): `bias` puts biases on every projection
// (default False). The new decoder architecture (Falcon-40B/180B) has num_kv_heads and
// num_ln_in_parallel_attn norms (ln_attn, ln_mlp: 2); the old one (Falcon-7B) is multi-query
// unless multi_query is false, with one LayerNorm when parallel_attn (the default).
void adjust_falcon(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>&) {
    a.model_type = "falcon";   // RefinedWeb / RefinedWebModel are its earlier names
    const bool bias = f.boolean("bias", false);
    a.qkv_bias = a.o_bias = a.mlp_bias = bias;
    const bool multi_query = f.boolean("multi_query", true);
    const bool parallel = f.boolean("parallel_attn", true);
    if (f.boolean("new_decoder_architecture", false)) {
        d.kv_heads = int(f.integer("num_kv_heads", d.heads));
        if (d.kv_heads == 0) d.kv_heads = d.heads;
        a.norms_per_layer = int(f.integer("num_ln_in_parallel_attn", 2));
    } else {
        d.kv_heads = multi_query ? 1 : d.heads;
        a.norms_per_layer = parallel ? 1 : 2;
    }
    f.boolean("alibi", false);   // positions only
}

// GPT-BigCode (StarCoder 1, SantaCoder; configuration_gpt_bigcode.py): GPT-2 with one K/V head
// unless multi_query is false.
void adjust_gpt_bigcode(Reader& f, Dims& d, ModelArch&, std::vector<std::string>&) {
    if (f.boolean("multi_query", true)) d.kv_heads = 1;
}

// ChatGLM (THUDM remote code: configuration_chatglm.py, modeling_chatglm.py): output_layer is
// a tensor of its own (the config has no tie key, which would read as tied); add_bias_linear
// (default False) and add_qkv_bias; multi_query_group_num K/V heads when
// multi_query_attention, else one per head; RMSNorm when rmsnorm (the default).
void adjust_chatglm(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>&) {
    a.tied_embeddings = f.boolean("tie_word_embeddings", false);
    const bool linear_bias = f.boolean("add_bias_linear", false);
    a.o_bias = a.mlp_bias = linear_bias;
    a.qkv_bias = f.boolean("add_qkv_bias", false) || linear_bias;
    if (!f.boolean("multi_query_attention", false)) d.kv_heads = d.heads;
    if (!f.boolean("rmsnorm", true)) a.norm = NormKind::layer;
    f.boolean("post_layer_norm", true);   // the final norm, which every decoder here has
}

// BitNet (bitnet/modeling_bitnet.py BitNetAttention, BitNetMLP): attn_sub_norm before o_proj
// and ffn_sub_norm before down_proj beside the two block norms. The second is intermediate_size
// wide; both are counted at hidden width (2,560 vs 6,912 in BitNet b1.58 2B: 0.1M of 2.4B).
void adjust_bitnet(Reader&, Dims&, ModelArch& a, std::vector<std::string>&) {
    a.mlp = MlpKind::gated;   // gate_proj, up_proj, down_proj with squared ReLU
    a.norms_per_layer = 4;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Encoders and encoder-decoders
// ---------------------------------------------------------------------------------------------

// BERT (configuration_bert.py, modeling_bert.py): an encoder with learned positions, token-type
// embeddings, an embedding LayerNorm, biases everywhere and a pooler; BertModel has no LM head.
void build_bert(Reader& f, ModelArch& a, std::vector<std::string>&) {
    a.kind = ArchKind::encoder;
    a.n_layers = int(f.integer(F::n_layers, 0, true));
    a.hidden = int(f.integer(F::hidden, 0, true));
    a.n_heads = int(f.integer(F::n_heads, 0, true));
    a.n_kv_heads = a.n_heads;
    a.head_dim = a.v_head_dim = a.n_heads > 0 ? a.hidden / a.n_heads : 0;
    a.vocab = f.integer(F::vocab, 0, true);
    a.max_context = int(f.integer(F::max_pos, 512));   // BertConfig default
    a.intermediate = int(f.integer(F::intermediate, 4LL * a.hidden));
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.qkv_bias = a.o_bias = a.mlp_bias = true;
    a.learned_positions = a.max_context;
    a.token_types = f.integer("type_vocab_size", 2);
    a.embedding_norm = true;
    a.final_norm = false;
    a.pooler = true;
    a.tied_embeddings = true;   // no LM head in BertModel
    f.mark("tie_word_embeddings");
    set_stack(a, uniform_stack(a));
}

// T5 (configuration_t5.py, modeling_t5.py): encoder and decoder stacks of num_layers /
// num_decoder_layers, d_kv per head, d_ff, "gated-" feed_forward_proj for T5 v1.1 / Flan-T5,
// weight-only norms, relative position buckets in the first layer of each stack; trained at 512.
void build_t5(Reader& f, ModelArch& a, std::vector<std::string>&) {
    a.kind = ArchKind::encoder_decoder;
    a.n_layers = int(f.integer("num_layers", 0));
    if (a.n_layers == 0) throw_error(f.key("num_layers"), "is missing (the encoder's layers)");
    a.n_decoder_layers = int(f.integer("num_decoder_layers", a.n_layers));
    if (a.n_decoder_layers == 0) a.n_decoder_layers = a.n_layers;
    a.hidden = int(f.integer("d_model", 0));
    if (a.hidden == 0) throw_error(f.key("d_model"), "is missing");
    a.intermediate = int(f.integer("d_ff", 0));
    if (a.intermediate == 0) throw_error(f.key("d_ff"), "is missing");
    a.n_heads = int(f.integer("num_heads", 0));
    if (a.n_heads == 0) throw_error(f.key("num_heads"), "is missing");
    a.n_kv_heads = a.n_heads;
    a.head_dim = a.v_head_dim = int(f.integer("d_kv", a.hidden / a.n_heads));
    a.vocab = f.integer(F::vocab, 0, true);
    a.max_context = int(f.integer("n_positions", 512));   // relative positions; trained at 512
    const std::string ff = f.text("feed_forward_proj", "relu");
    a.mlp = ff.rfind("gated-", 0) == 0 ? MlpKind::gated : MlpKind::plain;
    a.norm = NormKind::rms;   // T5LayerNorm: weight only
    a.tied_embeddings = f.boolean("tie_word_embeddings", true);
    a.relative_attention_buckets = int(f.integer("relative_attention_num_buckets", 32));
    set_stack(a, uniform_stack(a));
}

}   // namespace gpusizer::hf
