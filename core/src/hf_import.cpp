// hf_import.cpp: a Hugging Face config.json -> ModelArch, for every family the calculator knows.
//
// [SECTION] Reading fields, with the names each family uses and a record of what was read
// [SECTION] Families
// [SECTION] A synthetic Llama-shaped architecture for a bare parameter count
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "hf_families.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"

namespace gpusizer {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading fields
// ---------------------------------------------------------------------------------------------

class Fields {
public:
    explicit Fields(const json& j) : j_(j) {}

    bool has(const char* key) const {
        auto it = j_.find(key);
        return it != j_.end() && !it->is_null();
    }

    // The first present key among `names` (a family's spellings), as a non-negative integer.
    long long integer(std::initializer_list<const char*> names, long long fallback, bool required = false) {
        for (const char* n : names) {
            auto it = j_.find(n);
            if (it == j_.end()) continue;
            used_.insert(n);
            if (it->is_null()) continue;
            if (!it->is_number()) throw Error(std::string("hf_config.") + n, "must be a number, got " + std::string(it->type_name()));
            const double v = it->get<double>();
            if (!std::isfinite(v) || v < 0 || v != std::floor(v) || v > 1e15)
                throw Error(std::string("hf_config.") + n, "must be a non-negative integer, got " + it->dump());
            return (long long)v;
        }
        if (required) {
            std::string list;
            for (const char* n : names) list += (list.empty() ? "" : " or ") + std::string(n);
            throw Error("hf_config", "missing " + list);
        }
        return fallback;
    }

    double number(const char* name, double fallback) {
        const json* v = given(name);
        if (!v) return fallback;
        if (!v->is_number()) throw Error(std::string("hf_config.") + name, "must be a number, got " + std::string(v->type_name()));
        const double d = v->get<double>();
        if (!std::isfinite(d)) throw Error(std::string("hf_config.") + name, "must be finite");
        return d;
    }

    bool boolean(const char* name, bool fallback) {
        const json* v = given(name);
        if (!v) return fallback;
        if (!v->is_boolean()) throw Error(std::string("hf_config.") + name, "must be true or false, got " + v->dump());
        return v->get<bool>();
    }

    std::string text(const char* name, const std::string& fallback) {
        const json* v = given(name);
        if (!v) return fallback;
        if (!v->is_string()) throw Error(std::string("hf_config.") + name, "must be a string, got " + v->dump());
        return v->get<std::string>();
    }

    // The value of `name`, null included, marked as read; nullptr when the config lacks the key.
    const json* raw(const char* name) {
        auto it = j_.find(name);
        if (it == j_.end()) return nullptr;
        used_.insert(name);
        return &*it;
    }

    // The value of `name` when the config gives one (null counts as none), marked as read.
    const json* given(const char* name) {
        const json* v = raw(name);
        return v && !v->is_null() ? v : nullptr;
    }

    // Keys that look architectural but were not read: the user should know they were ignored.
    std::vector<std::string> ignored_architecture_keys() const {
        static const char* kHints[] = {"layer", "head", "expert", "hidden", "size", "dim", "rank", "window",
                                       "vocab", "embed", "intermediate", "ffn", "kv", "lora", "moe", "inner"};
        static const std::set<std::string> kKnownIrrelevant = {"layer_norm_eps",
                                                               "layer_norm_epsilon",
                                                               "rms_norm_eps",
                                                               "norm_epsilon",
                                                               "initializer_range",
                                                               "hidden_act",
                                                               "hidden_activation",
                                                               "hidden_dropout",
                                                               "hidden_dropout_prob",
                                                               "embd_pdrop",
                                                               "embed_dropout",
                                                               "rope_scaling",
                                                               "head_dim_scale",
                                                               "pad_token_id",
                                                               "use_cache",
                                                               "output_hidden_states",
                                                               "attn_logit_softcapping",
                                                               "final_logit_softcapping",
                                                               "summary_first_dropout",
                                                               "summary_type",
                                                               "summary_proj_to_labels",
                                                               "summary_use_proj",
                                                               "summary_activation",
                                                               "layer_norm_type",
                                                               "layerdrop",
                                                               "encoder_layerdrop",
                                                               "decoder_layerdrop",
                                                               "norm_topk_prob",
                                                               "routed_scaling_factor",
                                                               "scoring_func",
                                                               "topk_method",
                                                               "n_group",
                                                               "topk_group",
                                                               "aux_loss_alpha",
                                                               "seq_aux",
                                                               "router_aux_loss_coef",
                                                               "router_jitter_noise",
                                                               "output_router_logits",
                                                               "ep_size",
                                                               "rope_interleave",
                                                               "pretraining_tp",
                                                               "partial_rotary_factor",
                                                               "rotary_pct",
                                                               "rotary_emb_base",
                                                               "rotary_dim",
                                                               "position_embedding_type",
                                                               "scale_attn_weights",
                                                               "scale_attn_by_inverse_layer_idx",
                                                               "reorder_and_upcast_attn",
                                                               "apply_residual_connection_post_layernorm",
                                                               "slow_but_exact",
                                                               "use_parallel_residual",
                                                               "alibi",
                                                               "classifier_dropout",
                                                               "num_nextn_predict_layers",
                                                               "query_pre_attn_scalar",
                                                               "relative_attention_max_distance",
                                                               "dense_act_fn",
                                                               "is_gated_act",
                                                               "layer_types",
                                                               "attention_chunk_size",
                                                               "head_dim_kv",
                                                               "use_qk_norm",
                                                               "original_max_position_embeddings",
                                                               "rope_theta",
                                                               "sliding_window_pattern",
                                                               "embedding_multiplier",
                                                               "tie_word_embeddings",
                                                               "bos_token_id",
                                                               "eos_token_id",
                                                               "keys_to_ignore_at_inference"};
        std::vector<std::string> out;
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            const std::string& k = it.key();
            if (used_.count(k) || kKnownIrrelevant.count(k)) continue;
            for (const char* hint : kHints) {
                if (k.find(hint) != std::string::npos) {
                    out.push_back(k);
                    break;
                }
            }
        }
        return out;
    }

private:
    const json& j_;
    std::set<std::string> used_;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Families
// ---------------------------------------------------------------------------------------------

const std::vector<std::string>& supported_types() {
    static const std::vector<std::string> kTypes = {
        "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "gemma", "gemma2", "phi3", "deepseek_v2",
        "deepseek_v3", "gpt_neox", "bloom", "opt", "falcon", "gpt2", "gpt_bigcode", "bert", "t5"};
    static const std::vector<std::string> kAll = [] {
        std::vector<std::string> all = kTypes;
        for (const auto& t : hf_family_types())
            if (std::find(all.begin(), all.end(), t) == all.end()) all.push_back(t);
        return all;
    }();
    return kAll;
}

bool any_dropout(Fields& f) {
    for (const char* k : {"resid_pdrop", "attn_pdrop", "attention_dropout", "hidden_dropout", "hidden_dropout_prob",
                          "attention_probs_dropout_prob", "dropout_rate", "dropout", "attention_dropout_prob"}) {
        if (f.has(k) && f.number(k, 0.0) > 0.0) return true;
    }
    return false;
}

// The layer pattern an old family's config states with scalar fields (expanded by
// old_family_stack at the end of the import, as each transformers config class does when
// `layer_types` is absent).
struct LayerPattern {
    int sliding_every = 0;        // Gemma 2: layer i slides unless (i + 1) % 2 == 0
    int sliding_from = 0;         // Qwen2/Qwen3: layers i >= max_window_layers slide
    int first_dense = 0;          // DeepSeek first_k_dense_replace
    int moe_every = 1;            // DeepSeek moe_layer_freq: MoE when i % freq == 0
    int sparse_step = 0;          // Qwen2-MoE decoder_sparse_step: MoE when (i + 1) % step == 0
    std::vector<int> mlp_only;    // Qwen2-MoE mlp_only_layers: dense whatever the step says
    std::vector<std::string> layer_types;   // transformers' explicit per-layer list, when given
};

// Fields every decoder family shares under (mostly) the Llama names.
void read_common(Fields& f, ModelArch& a) {
    a.n_layers = int(f.integer({"num_hidden_layers", "n_layer", "num_layers"}, 0, true));
    a.hidden = int(f.integer({"hidden_size", "n_embd", "n_embed", "d_model"}, 0, true));
    a.n_heads = int(f.integer({"num_attention_heads", "n_head", "num_heads"}, 0, true));
    a.n_kv_heads = int(f.integer({"num_key_value_heads", "num_kv_heads"}, a.n_heads));
    if (a.n_kv_heads == 0) a.n_kv_heads = a.n_heads;
    const long long default_head = a.n_heads > 0 ? a.hidden / a.n_heads : 0;
    a.head_dim = int(f.integer({"head_dim"}, default_head));
    if (a.head_dim == 0) a.head_dim = int(default_head);
    a.v_head_dim = a.head_dim;
    a.vocab = f.integer({"vocab_size"}, 0, true);
    a.max_context = int(f.integer({"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"}, 0));
    a.dropout = any_dropout(f);
}

void read_llama_like(Fields& f, ModelArch& a, const std::string& type, LayerPattern& pat) {
    read_common(f, a);
    a.mlp = MlpKind::gated;
    a.norm = NormKind::rms;
    a.intermediate = int(f.integer({"intermediate_size"}, 0));
    const bool tie_default = type == "gemma" || type == "gemma2";   // GemmaConfig / Gemma2Config default True
    a.tied_embeddings = f.boolean("tie_word_embeddings", tie_default);
    if (type == "qwen2" || type == "qwen2_moe") a.qkv_bias = true;   // Qwen2Attention: q/k/v with bias=True
    const bool attention_bias = f.boolean("attention_bias", false);    // LlamaConfig.attention_bias (q, k, v, o)
    if (attention_bias) a.qkv_bias = a.o_bias = true;
    a.mlp_bias = f.boolean("mlp_bias", false);
    if (type == "qwen3") a.qk_norm = true;
    if (type == "gemma2") a.norms_per_layer = 4;   // input, post_attention, pre_feedforward, post_feedforward

    // Sliding window.
    if (type == "qwen2" || type == "qwen2_moe" || type == "qwen3") {
        // Qwen2 configs carry a sliding_window value even when it is off; when it is on, only
        // layers from max_window_layers (default 28) on slide (transformers Qwen2Config,
        // Qwen2MoeConfig, Qwen3Config: "sliding_attention" if sliding_window is not None and
        // i >= max_window_layers).
        const bool use = f.boolean("use_sliding_window", false);
        const long long w = f.integer({"sliding_window"}, 0);
        const long long from = f.integer({"max_window_layers"}, 28);
        if (use) {
            a.sliding_window = int(w);
            pat.sliding_from = int(std::min<long long>(from, 1 << 20));
        }
    } else {
        a.sliding_window = int(f.integer({"sliding_window"}, 0));
    }
    if (type == "gemma2") pat.sliding_every = 2;          // Gemma2: even layers slide, odd layers global
    if (const json* lt = f.raw("layer_types"); lt && lt->is_array()) {
        for (const json& t : *lt) {
            if (!t.is_string()) throw Error("hf_config.layer_types", "must be a list of strings, got " + t.dump());
            pat.layer_types.push_back(t.get<std::string>());
        }
    }

    // Mixture of experts.
    if (type == "mixtral") {
        a.n_routed_experts = int(f.integer({"num_local_experts"}, 8));
        a.experts_per_token = int(f.integer({"num_experts_per_tok"}, 2));
        a.moe_intermediate = a.intermediate;               // every layer is MoE; experts use intermediate_size
    } else if (type == "qwen2_moe") {
        a.n_routed_experts = int(f.integer({"num_experts"}, 0, true));
        a.experts_per_token = int(f.integer({"num_experts_per_tok"}, 0, true));
        a.moe_intermediate = int(f.integer({"moe_intermediate_size"}, 0, true));
        a.shared_intermediate = int(f.integer({"shared_expert_intermediate_size"}, 0));
        a.n_shared_experts = a.shared_intermediate > 0 ? 1 : 0;
        // Qwen2MoeDecoderLayer: MoE when layer_idx not in mlp_only_layers and
        // (layer_idx + 1) % decoder_sparse_step == 0; otherwise a dense MLP of intermediate_size.
        pat.sparse_step = int(f.integer({"decoder_sparse_step"}, 1));
        if (pat.sparse_step == 0) throw Error("hf_config.decoder_sparse_step", "must be a positive integer");
        if (const json* only = f.raw("mlp_only_layers"); only && !only->is_null()) {
            if (!only->is_array()) throw Error("hf_config.mlp_only_layers", "must be a list of layer indices");
            for (const json& i : *only) {
                if (!i.is_number_integer() || i.get<long long>() < 0)
                    throw Error("hf_config.mlp_only_layers", "must be a list of non-negative layer indices, got " + i.dump());
                pat.mlp_only.push_back(int(std::min<long long>(i.get<long long>(), 1 << 20)));
            }
        }
    } else if (type == "deepseek_v2" || type == "deepseek_v3") {
        a.n_routed_experts = int(f.integer({"n_routed_experts"}, 0));
        a.n_shared_experts = int(f.integer({"n_shared_experts"}, 0));
        a.experts_per_token = int(f.integer({"num_experts_per_tok"}, 0));
        a.moe_intermediate = int(f.integer({"moe_intermediate_size"}, 0));
        pat.first_dense = int(std::min<long long>(f.integer({"first_k_dense_replace"}, 0), 1 << 20));
        pat.moe_every = int(std::min<long long>(f.integer({"moe_layer_freq"}, 1), 1 << 20));
        a.router_bias = f.text("topk_method", "") == "noaux_tc";   // e_score_correction_bias
        // Group-limited routing: DeepSeek-V2's topk_method group_limited_greedy, V3's noaux_tc
        // (DeepseekV3Config n_group 8, topk_group 4); greedy ignores the groups.
        const std::string method = f.text("topk_method", type == "deepseek_v3" ? "noaux_tc" : "greedy");
        const long long groups = f.integer({"n_group"}, type == "deepseek_v3" ? 8 : 0);
        const long long per_token = f.integer({"topk_group"}, type == "deepseek_v3" ? 4 : 0);
        if (method == "noaux_tc" || method == "group_limited_greedy") {
            a.expert_groups = int(groups);
            a.expert_groups_per_token = int(per_token);
        }
        // Multi-head latent attention.
        a.mla = true;
        a.q_lora_rank = int(f.integer({"q_lora_rank"}, 0));
        a.kv_lora_rank = int(f.integer({"kv_lora_rank"}, 0, true));
        a.qk_rope_head_dim = int(f.integer({"qk_rope_head_dim"}, 0, true));
        a.qk_nope_head_dim = int(f.integer({"qk_nope_head_dim"}, 0, true));
        a.v_head_dim = int(f.integer({"v_head_dim"}, a.qk_nope_head_dim));
        a.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
    }
}

// The stack of an old family: uniform_stack() with the family's pattern applied layer by layer.
std::vector<LayerSpec> old_family_stack(const ModelArch& a, const LayerPattern& pat) {
    std::vector<LayerSpec> layers = uniform_stack(a);
    if (a.kind != ArchKind::decoder) return layers;
    const int n = a.n_layers;
    for (int i = 0; i < n; ++i) {
        LayerSpec& l = layers[std::size_t(i)];
        if (l.attn.kind == AttnKind::sliding) {
            bool slides = true;
            if (pat.sliding_every > 1) slides = (i + 1) % pat.sliding_every != 0;
            if (i < pat.sliding_from) slides = false;
            if (!slides) { l.attn.kind = AttnKind::full; l.attn.window = 0; }
        }
        if (l.is_moe()) {
            bool moe = i >= pat.first_dense && (pat.moe_every <= 1 || i % pat.moe_every == 0);
            if (pat.sparse_step > 0) moe = moe && (i + 1) % pat.sparse_step == 0;
            for (int d : pat.mlp_only) moe = moe && d != i;
            if (!moe) {
                l.mlp = LayerMlpSpec{};
                l.mlp.kind = LayerMlpKind::dense;
                l.mlp.intermediate = a.intermediate;
            }
        }
    }
    if (!pat.layer_types.empty()) {
        // transformers: an explicit layer_types wins over the pattern fields.
        if (int(pat.layer_types.size()) != n)
            throw Error("hf_config.layer_types", "has " + std::to_string(pat.layer_types.size()) + " entries for " +
                                                     std::to_string(n) + " layers");
        for (int i = 0; i < n; ++i) {
            const std::string& t = pat.layer_types[std::size_t(i)];
            AttentionSpec& at = layers[std::size_t(i)].attn;
            if (at.kind == AttnKind::mla) continue;
            if (t == "full_attention") {
                at.kind = AttnKind::full;
                at.window = 0;
            } else if (t == "sliding_attention") {
                if (a.sliding_window <= 0)
                    throw Error("hf_config.layer_types",
                                "names sliding_attention layers but sliding_window is not set (or use_sliding_window is false)");
                at.kind = AttnKind::sliding;
                at.window = a.sliding_window;
            } else {
                throw Error("hf_config.layer_types", "'" + t + "' is not a layer type of model_type " + a.model_type +
                                                         " (full_attention or sliding_attention)");
            }
        }
    }
    return layers;
}

void read_gpt_neox(Fields& f, ModelArch& a) {
    read_common(f, a);
    a.intermediate = int(f.integer({"intermediate_size"}, 4LL * a.hidden));
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.tied_embeddings = f.boolean("tie_word_embeddings", false);   // GPTNeoXConfig default False
    const bool bias = f.boolean("attention_bias", true);             // GPTNeoXConfig.attention_bias default True
    a.qkv_bias = a.o_bias = bias;
    a.mlp_bias = true;
}

void read_bloom(Fields& f, ModelArch& a) {
    read_common(f, a);
    a.intermediate = 4 * a.hidden;   // BloomMLP: dense_h_to_4h, not a config key
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.embedding_norm = true;         // word_embeddings_layernorm
    a.tied_embeddings = f.boolean("tie_word_embeddings", true);
    a.qkv_bias = a.o_bias = a.mlp_bias = true;
    if (a.max_context == 0) a.max_context = 2048;   // ALiBi, trained at 2048 (model card)
}

void read_opt(Fields& f, ModelArch& a, std::vector<std::string>* warnings) {
    read_common(f, a);
    a.intermediate = int(f.integer({"ffn_dim"}, 4LL * a.hidden));
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.tied_embeddings = f.boolean("tie_word_embeddings", true);
    const bool bias = f.boolean("enable_bias", true);
    a.qkv_bias = a.o_bias = a.mlp_bias = bias;
    a.learned_positions = a.max_context + 2;   // OPTLearnedPositionalEmbedding has an offset of 2
    a.final_norm = f.boolean("do_layer_norm_before", true) && !f.boolean("_remove_final_layer_norm", false);
    const long long proj = f.integer({"word_embed_proj_dim"}, a.hidden);
    if (proj != a.hidden && warnings)
        warnings->push_back("hf_config.word_embed_proj_dim != hidden_size: the project_in/out matrices are not counted");
}

void read_falcon(Fields& f, ModelArch& a) {
    read_common(f, a);
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.intermediate = int(f.integer({"ffn_hidden_size"}, 4LL * a.hidden));
    a.tied_embeddings = f.boolean("tie_word_embeddings", true);   // FalconConfig: PretrainedConfig default
    const bool bias = f.boolean("bias", false);
    a.qkv_bias = a.o_bias = a.mlp_bias = bias;
    const bool new_arch = f.boolean("new_decoder_architecture", false);
    const bool multi_query = f.boolean("multi_query", true);
    const bool parallel = f.boolean("parallel_attn", true);
    if (new_arch) {
        a.n_kv_heads = int(f.integer({"num_kv_heads"}, a.n_heads));
        a.norms_per_layer = int(f.integer({"num_ln_in_parallel_attn"}, 2));   // ln_attn, ln_mlp
    } else {
        a.n_kv_heads = multi_query ? 1 : a.n_heads;
        a.norms_per_layer = parallel ? 1 : 2;
    }
    f.boolean("alibi", false);
    if (a.max_context == 0) a.max_context = 2048;
}

void read_gpt2(Fields& f, ModelArch& a) {
    read_common(f, a);
    a.intermediate = int(f.integer({"n_inner"}, 4LL * a.hidden));
    if (a.intermediate == 0) a.intermediate = 4 * a.hidden;
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.tied_embeddings = f.boolean("tie_word_embeddings", true);
    a.qkv_bias = a.o_bias = a.mlp_bias = true;
    a.learned_positions = a.max_context;
}

void read_bert(Fields& f, ModelArch& a) {
    read_common(f, a);
    a.kind = ArchKind::encoder;
    a.intermediate = int(f.integer({"intermediate_size"}, 4LL * a.hidden));
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.qkv_bias = a.o_bias = a.mlp_bias = true;
    a.learned_positions = a.max_context;
    a.token_types = f.integer({"type_vocab_size"}, 2);
    a.embedding_norm = true;
    a.final_norm = false;
    a.pooler = true;
    a.tied_embeddings = true;   // no LM head in BertModel
}

void read_t5(Fields& f, ModelArch& a) {
    a.kind = ArchKind::encoder_decoder;
    a.n_layers = int(f.integer({"num_layers"}, 0, true));
    a.n_decoder_layers = int(f.integer({"num_decoder_layers"}, a.n_layers));
    if (a.n_decoder_layers == 0) a.n_decoder_layers = a.n_layers;
    a.hidden = int(f.integer({"d_model"}, 0, true));
    a.intermediate = int(f.integer({"d_ff"}, 0, true));
    a.n_heads = int(f.integer({"num_heads"}, 0, true));
    a.n_kv_heads = a.n_heads;
    a.head_dim = a.v_head_dim = int(f.integer({"d_kv"}, a.n_heads ? a.hidden / a.n_heads : 0));
    a.vocab = f.integer({"vocab_size"}, 0, true);
    a.max_context = int(f.integer({"n_positions"}, 512));   // relative positions; trained at 512
    const std::string ff = f.text("feed_forward_proj", "relu");
    a.mlp = ff.rfind("gated-", 0) == 0 ? MlpKind::gated : MlpKind::plain;
    a.norm = NormKind::rms;                                  // T5LayerNorm: weight only
    a.tied_embeddings = f.boolean("tie_word_embeddings", true);
    a.relative_attention_buckets = int(f.integer({"relative_attention_num_buckets"}, 32));
    a.dropout = any_dropout(f);
}

}  // namespace

ModelArch arch_from_hf_json(const json& in, std::vector<std::string>* warnings, std::vector<std::string>* not_understood) {
    if (!in.is_object()) throw Error("hf_config", "must be a JSON object (the contents of config.json)");
    // The families of the table (hf_families.cpp) build their own stack, text_config included.
    if (auto t = in.find("model_type"); t != in.end() && t->is_string() && hf_family_known(t->get<std::string>()))
        return arch_from_hf_family(in, warnings, not_understood);
    // Multimodal configs keep the language model under text_config.
    const json* src = &in;
    if (!in.contains("num_hidden_layers") && in.contains("text_config") && in["text_config"].is_object()) {
        src = &in["text_config"];
        if (warnings) warnings->push_back("hf_config: read the language model from text_config; the vision tower is not counted");
    }
    Fields f(*src);
    std::string type = f.text("model_type", "");
    if (type.empty() && src != &in && in.contains("model_type") && in["model_type"].is_string()) type = in["model_type"].get<std::string>();
    if (type.empty()) throw Error("hf_config.model_type", "is missing; supported: " + [] {
        std::string s;
        for (const auto& t : supported_types()) s += (s.empty() ? "" : ", ") + t;
        return s;
    }());
    ModelArch a;
    LayerPattern pattern;
    a.model_type = type;
    a.id = "custom";
    if (type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2" || type == "qwen2_moe" || type == "qwen3" ||
        type == "gemma" || type == "gemma2" || type == "phi3" || type == "deepseek_v2" || type == "deepseek_v3") {
        read_llama_like(f, a, type, pattern);
    } else if (type == "gpt_neox") {
        read_gpt_neox(f, a);
    } else if (type == "bloom") {
        read_bloom(f, a);
    } else if (type == "opt") {
        read_opt(f, a, warnings);
    } else if (type == "falcon" || type == "RefinedWeb" || type == "RefinedWebModel") {
        a.model_type = "falcon";
        read_falcon(f, a);
    } else if (type == "gpt2") {
        read_gpt2(f, a);
    } else if (type == "gpt_bigcode") {
        // GPT-BigCode (StarCoder 1, SantaCoder): GPT-2 with one K/V head unless multi_query is false.
        read_gpt2(f, a);
        if (f.boolean("multi_query", true)) a.n_kv_heads = 1;
    } else if (type == "bert") {
        read_bert(f, a);
    } else if (type == "t5") {
        read_t5(f, a);
    } else {
        std::string list;
        for (const auto& t : supported_types()) list += (list.empty() ? "" : ", ") + t;
        throw Error("hf_config.model_type", "'" + type + "' is not supported; supported: " + list +
                                                ". Describe it with a supported type's fields, or give num_parameters");
    }
    a.num_parameters_override = f.number("num_parameters", 0.0);
    if (a.num_parameters_override < 0) throw Error("hf_config.num_parameters", "must be positive");
    if (const json* nxt = f.raw("num_nextn_predict_layers"); nxt && nxt->is_number_integer() && nxt->get<long long>() > 0 && warnings)
        warnings->push_back(
            "hf_config: the multi-token-prediction layers (num_nextn_predict_layers) are not counted; inference does not load them");
    if (warnings || not_understood) {
        const auto ignored = f.ignored_architecture_keys();
        if (not_understood) not_understood->insert(not_understood->end(), ignored.begin(), ignored.end());
        if (!ignored.empty() && warnings) {
            std::string list;
            for (const auto& k : ignored) list += (list.empty() ? "" : ", ") + k;
            warnings->push_back("hf_config: not understood, ignored: " + list);
        }
    }
    read_native_format(in, a, warnings);
    // Every model leaves the importer with its stack of layers.
    if (!a.has_stack()) {
        validate(a);   // the global fields first: their errors name the config keys
        set_stack(a, old_family_stack(a, pattern));
    }
    validate(a);
    return a;
}

ModelArch arch_from_hf_config(std::string_view text, std::vector<std::string>* warnings) {
    return arch_from_hf_json(detail::parse_json(text, "hf_config"), warnings);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] A synthetic architecture for a bare parameter count
// ---------------------------------------------------------------------------------------------

ModelArch synthesize_arch(double params) {
    if (!(params >= 5e7 && params <= 1e13))
        throw Error("model.num_parameters", "must be between 5e7 and 1e13, got " + std::to_string(params));
    // A Llama-3-shaped dense model: head_dim 128, GQA with 8 KV heads (when the head count
    // allows), SwiGLU with intermediate = 3.5 x hidden, untied embeddings, and depth close to
    // hidden/128 as in Llama 3 (8B: 4096/32, 70B: 8192/80, 405B: 16384/126). One layer holds
    // h^2 (2 + 2 kv/heads) for attention plus 3 x 3.5 h^2 for the MLP. The shape closest to the
    // requested count is kept, and num_parameters scales the derived counts to the exact figure.
    ModelArch a;
    a.id = "custom";
    a.name = "custom dense model";
    a.model_type = "llama";
    a.vocab = params < 2e9 ? 32000 : 128256;   // small models: a Llama-2-sized vocabulary
    a.mlp = MlpKind::gated;
    a.norm = NormKind::rms;
    double best_err = 1e300;
    for (int heads = 2; heads <= 256; heads += 2) {
        const int h = heads * 128;
        const int kv = heads % 8 == 0 ? 8 : heads;
        const double per_layer = double(h) * h * (2.0 + 2.0 * kv / heads) + 3.0 * h * (3.5 * h);
        const double embed = 2.0 * double(a.vocab) * h;
        const int layers = std::max(1, int(std::lround((params - embed) / per_layer)));
        const double total = embed + layers * per_layer;
        const double aspect = std::fabs(std::log(double(layers) / (h / 128.0)));
        const double err = std::fabs(std::log(total / params)) + 0.25 * aspect;
        if (err < best_err) {
            best_err = err;
            a.hidden = h;
            a.n_heads = heads;
            a.n_kv_heads = kv;
            a.n_layers = layers;
        }
    }
    a.head_dim = a.v_head_dim = 128;
    a.intermediate = int(std::lround(3.5 * a.hidden / 256.0)) * 256;
    a.max_context = 131072;
    a.num_parameters_override = params;
    set_stack(a, uniform_stack(a));
    validate(a);
    return a;
}

}  // namespace gpusizer
