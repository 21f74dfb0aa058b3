// hf_rows.cpp: the tables of the Hugging Face importer: what a new architecture adds a row to.
//
// [SECTION] Field aliases: one canonical field, the spellings families use for it; the keys no
//           family's memory depends on
// [SECTION] Family rows: one per model_type; class defaults that differ between families
//
// Sources: each row names the transformers files (github.com/huggingface/transformers,
// src/transformers/models/<type>/) whose class defaults and `__post_init__` derivations it
// reproduces. Where a derivation lives in the modeling file, the expander's comment quotes it
// (hf_stack.cpp). The row's schema (Attn, Moe, Mixer, the traits) is in hf_families_internal.hpp.
#include <cstring>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "hf_families_internal.hpp"

namespace gpusizer::hf {

// ---------------------------------------------------------------------------------------------
// [SECTION] Field aliases
// transformers' `attribute_map` of each class, in reverse: the first spelling present wins.
// ---------------------------------------------------------------------------------------------

namespace {

struct Alias {
    F field;
    std::vector<const char*> names;
};

const std::vector<Alias>& aliases() {
    static const std::vector<Alias> kAliases = {
        // OpenELM num_transformer_layers / model_dim / num_query_heads; ChatGLM
        // multi_query_group_num and kv_channels (the per-head width); MPT and DBRX kv_n_heads
        // (attn_config); Falcon-40B's first configs n_head_kv.
        {F::n_layers, {"num_hidden_layers", "n_layer", "num_layers", "n_layers", "num_transformer_layers"}},
        {F::hidden, {"hidden_size", "n_embd", "n_embed", "d_model", "model_dim"}},
        // XGLM (and fairseq-style decoders) attention_heads; Step-3 num_attention_groups (its K/V
        // heads: Step3TextConfig); CPM-Ant dim_head / dim_ff.
        {F::n_heads,
         {"num_attention_heads", "n_head", "num_heads", "n_heads", "num_query_heads", "num_attention_heads_per_layer", "attention_heads"}},
        {F::n_kv_heads,
         {"num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num", "kv_n_heads", "n_head_kv", "num_attention_groups"}},
        {F::head_dim, {"head_dim", "attention_head_dim", "kv_channels", "head_size", "dim_head"}},
        {F::intermediate,
         {"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim", "inner_hidden_size", "d_ff", "d_intermediate", "dim_ff"}},
        {F::vocab, {"vocab_size", "padded_vocab_size", "n_vocab"}},
        {F::max_pos,
         {"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length", "max_seq_len", "n_ctx", "max_seq_length"}},
        // Qwen3-MoE / gpt-oss attribute_map num_experts -> num_local_experts; DeepSeek, GLM,
        // Nemotron-H n_routed_experts; ERNIE 4.5 moe_num_experts.
        // DBRX moe_num_experts (ffn_config); others num_routed_experts, n_experts.
        {F::experts, {"num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts", "num_routed_experts", "n_experts"}},
        // ERNIE moe_k, Gemma 4 top_k_experts, gpt-oss experts_per_token, Hunyuan moe_topk.
        // DBRX moe_top_k; DeepSeek's own inference configs n_activated_experts; Megatron moe_router_topk.
        {F::experts_per_tok,
         {"num_experts_per_tok", "moe_k", "top_k_experts", "experts_per_token", "moe_topk", "moe_top_k", "n_activated_experts",
          "num_experts_per_token", "moe_router_topk", "num_selected_experts"}},
        // LongCat-Flash expert_ffn_hidden_size (its ffn_hidden_size is the dense MLP's).
        {F::moe_intermediate,
         {"moe_intermediate_size", "expert_intermediate_size", "moe_ffn_hidden_size", "expert_hidden_size", "expert_hidden_dim",
          "expert_ffn_hidden_size"}},
        {F::shared_experts, {"n_shared_experts", "num_shared_experts", "moe_num_shared_experts", "num_shared_expert", "n_shared_expert"}},
        // Step-3 share_expert_dim (Step3TextConfig: one shared expert of that width).
        {F::shared_intermediate,
         {"shared_expert_intermediate_size", "moe_shared_expert_intermediate_size", "shared_intermediate_size", "share_expert_dim"}},
        // DeepSeek/GLM/Nemotron num_nextn_predict_layers; Qwen3-Next/Qwen3.5 mtp_num_hidden_layers.
        {F::mtp_layers, {"num_nextn_predict_layers", "mtp_num_hidden_layers"}},
        // transformers v5 writes dtype; older files torch_dtype (configuration_utils.py).
        {F::dtype, {"dtype", "torch_dtype"}},
    };
    return kAliases;
}

}  // namespace

const std::vector<const char*>& spellings(F f) {
    for (const Alias& a : aliases())
        if (a.field == f) return a.names;
    static const std::vector<const char*> kNone;
    return kNone;
}

// Keys no family's memory depends on: token ids, norms' epsilons, RoPE, initialisation,
// routing and loss coefficients, bookkeeping. Anything else left unread is named in a warning.
bool irrelevant_everywhere(std::string_view key) {
    // Literals, not std::strings: 200 string constructions in line cost the widget's module 4 KB;
    // the lookup set is built from them once, by one loop.
    static constexpr std::string_view kKeys[] = {
        "architectures",
        "auto_map",
        "transformers_version",
        "model_type",
        "_name_or_path",
        "name_or_path",
        "bos_token_id",
        "eos_token_id",
        "pad_token_id",
        "sep_token_id",
        "unk_token_id",
        "eod_token_id",
        "decoder_start_token_id",
        "image_token_id",
        "image_token_index",
        "video_token_id",
        "audio_token_id",
        "boi_token_id",
        "eoi_token_id",
        "boi_token_index",
        "eoi_token_index",
        "boa_token_id",
        "eoa_token_id",
        "eoa_token_index",
        "vision_start_token_id",
        "vision_end_token_id",
        "vision_token_id",
        "rms_norm_eps",
        "layer_norm_eps",
        "layer_norm_epsilon",
        "norm_eps",
        "norm_epsilon",
        "initializer_range",
        "hidden_act",
        "hidden_activation",
        "mlp_hidden_act",
        "mamba_hidden_act",
        "activation_function",
        "use_cache",
        "rope_theta",
        "rope_scaling",
        "rope_parameters",
        "rope_local_base_freq",
        "partial_rotary_factor",
        "rope_interleave",
        "rope_type",
        "use_mrope",
        "mrope_section",
        "mrope_interleaved",
        "original_max_position_embeddings",
        "initial_context_length",
        "attention_dropout",
        "hidden_dropout",
        "resid_pdrop",
        "embd_pdrop",
        "attn_pdrop",
        "router_aux_loss_coef",
        "output_router_logits",
        "norm_topk_prob",
        "routed_scaling_factor",
        "scoring_func",
        "n_group",
        "topk_group",
        "aux_loss_alpha",
        "seq_aux",
        "router_jitter_noise",
        "router_z_loss_coef",
        "moe_norm_min",
        "moe_drop_tokens",
        "moe_random_routing_dropped_token",
        "ep_size",
        "pretraining_tp",
        "tie_word_embeddings",
        "torch_dtype",
        "dtype",
        "quantization_config",
        "compression_config",
        "keys_to_ignore_at_inference",
        "is_decoder",
        "is_encoder_decoder",
        "tokenizer_class",
        "use_return_dict",
        "output_attentions",
        "output_hidden_states",
        "return_dict",
        "attn_implementation",
        "_attn_implementation",
        "attn_logit_softcapping",
        "final_logit_softcapping",
        "query_pre_attn_scalar",
        "logits_scaling",
        "embedding_multiplier",
        "residual_multiplier",
        "attention_multiplier",
        "logit_scale",
        "num_logits_to_keep",
        "cache_implementation",
        "use_sliding_window",
        "max_window_layers",
        "sliding_window_pattern",
        "full_attention_interval",
        "no_rope_layers",
        "no_rope_layer_interval",
        "use_mamba_kernels",
        "swiglu_limit",
        "swiglu_alpha",
        "attn_temperature_tuning",
        "floor_scale",
        "attn_scale",
        "time_step_min",
        "time_step_max",
        "time_step_limit",
        "time_step_floor",
        "mamba_dt_min",
        "mamba_dt_max",
        "mamba_dt_limit",
        "mamba_dt_init_floor",
        "mamba_chunk_size",
        "chunk_size",
        "residual_in_fp32",
        "rescale_prenorm_residual",
        "index_topk",
        "layer_types",
        "layers_block_type",
        "mm_tokens_per_image",
        "spatial_merge_size",
        "vision_feature_layer",
        "vision_feature_select_strategy",
        "projector_hidden_act",
        "multimodal_projector_bias",
        "text_config",
        "vision_config",
        "audio_config",
        "thinker_config",
        "use_qk_norm",
        "qk_layernorm",
        "tie_word_embedding",
        "use_bidirectional_attention",
        "num_parameters",
        "_attn_implementation_autoset",
        "for_llm_compressor",
        "transformers.js_config",
        "unsloth_version",
        // The older families' bookkeeping and positions, and other rows' (LFM2, mamba_ssm) settings that
        // look architectural but size nothing.
        "layer_norm_type",
        "layerdrop",
        "encoder_layerdrop",
        "decoder_layerdrop",
        "summary_proj_to_labels",
        "summary_use_proj",
        "hidden_dropout_prob",
        "attention_probs_dropout_prob",
        "embed_dropout",
        "head_dim_scale",
        "rotary_dim",
        "scale_attn_weights",
        "scale_attn_by_inverse_layer_idx",
        "reorder_and_upcast_attn",
        "apply_residual_connection_post_layernorm",
        "n_ctx",
        "vocab_size_multiple",
        "embedding_dropout",
        "use_grouped_mm",
        "global_attn_every_n_layers",
        "block_norm_eps",
        "block_mlp_init_scale",
        "block_out_init_scale",
        "block_use_xavier_init",
        "conv_use_xavier_init",
        "block_use_swiglu",
        "block_dim",
        "block_ff_dim",
        "conv_dim",
        "conv_dim_out",
        "rotary_emb_dim",
        "qkv_proj_bias",
        "out_proj_bias",
        "d_conv",
        "moe_routed_scaling_factor",
        "_flash_attn_2_enabled",
        "position_embedding_type",
        "relative_attention_max_distance",
        // PretrainedConfig's generation and serialisation fields, which transformers writes into
        // nested text_configs (configuration_utils.py): none sizes a weight.
        "add_cross_attention",
        "chunk_size_feed_forward",
        "cross_attention_hidden_size",
        "encoder_no_repeat_ngram_size",
        "no_repeat_ngram_size",
        "num_beam_groups",
        "num_beams",
        "num_return_sequences",
        "tie_encoder_decoder",
        "finetuning_task",
        "pruned_heads",
        "task_specific_params",
        "tf_legacy_loss",
        "torchscript",
        // Clamps, multipliers and training-only terms of the families read by their fields (DBRX / MPT
        // / OLMo clip_qkv, DBRX's router jitter and loss weight, LongCat's MLA scales, fairseq's
        // scale_embedding, MPT's kernel choices).
        "clip_qkv",
        "moe_jitter_eps",
        "moe_loss_weight",
        "mla_scale_q_lora",
        "mla_scale_kv_lora",
        "scale_embedding",
        "attn_impl",
        "embedding_fraction",
    };
    static const std::set<std::string_view> kSet(std::begin(kKeys), std::end(kKeys));
    return kSet.count(key) > 0;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Family rows
// ---------------------------------------------------------------------------------------------

// clang-format off
const std::vector<FamilyRow>& rows() {
    static const std::vector<FamilyRow> kRows = {
        // --- The first open families -------------------------------------------------------
        // llama/configuration_llama.py (attention_bias on q, k, v, o; mlp_bias; a sliding_window slides every layer)
        {"llama", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, kArchKeysOnly, ""},
        // gemma/configuration_gemma.py (tie_word_embeddings True; GeGLU; head_dim given)
        {"gemma", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, kTie | kArchKeysOnly, ""},
        // gemma2/configuration_gemma2.py (sliding_window 4096; sliding if (i + 1) % 2; four norms per layer)
        {"gemma2", "", "", Attn::every_nth_full, 2, 4096, Moe::none, Mixer::none, kTie | kNorms4 | kArchKeysOnly, ""},
        // phi3/configuration_phi3.py, modeling_phi3.py (fused qkv_proj and gate_up_proj: the same counts)
        {"phi3", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, kArchKeysOnly, ""},
        // deepseek_v2/configuration_deepseek_v2.py (MLA; first_k_dense_replace, moe_layer_freq; greedy routing has no groups)
        {"deepseek_v2", "", "", Attn::mla, 0, 0, Moe::first_k_dense, Mixer::none, kArchKeysOnly, "topk_method"},
        // gpt_neox/configuration_gpt_neox.py (attention_bias True), modeling_gpt_neox.py (MLP biases; two norms per layer)
        {"gpt_neox", "", "", Attn::full, 0, 0, Moe::none, Mixer::none,
         kPlainMlp | kLayerNorm | kAttnBias | kMlpBiasAlways | kFfn4x | kArchKeysOnly, ""},
        // bloom/modeling_bloom.py (dense_h_to_4h: 4 x hidden, not a key; word_embeddings_layernorm; biases everywhere)
        {"bloom", "", "", Attn::full, 0, 0, Moe::none, Mixer::none,
         kPlainMlp | kLayerNorm | kTie | kAttnBias | kMlpBiasAlways | kFfn4x | kEmbeddingNorm | kArchKeysOnly, ""},
        // opt/configuration_opt.py, modeling_opt.py (enable_bias; learned positions + 2)
        {"opt", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kPlainMlp | kLayerNorm | kTie | kFfn4x | kArchKeysOnly, "", adjust_opt},
        // falcon/configuration_falcon.py, modeling_falcon.py (multi_query, new_decoder_architecture)
        {"falcon", "", "", Attn::full, 0, 0, Moe::none, Mixer::none,
         kPlainMlp | kLayerNorm | kTie | kFfn4x | kArchKeysOnly, "", adjust_falcon},
        // Falcon's first remote-code name (falcon/configuration_falcon.py reads it)
        {"RefinedWeb", "", "", Attn::full, 0, 0, Moe::none, Mixer::none,
         kPlainMlp | kLayerNorm | kTie | kFfn4x | kArchKeysOnly, "", adjust_falcon},
        // Falcon-7B's first remote-code name
        {"RefinedWebModel", "", "", Attn::full, 0, 0, Moe::none, Mixer::none,
         kPlainMlp | kLayerNorm | kTie | kFfn4x | kArchKeysOnly, "", adjust_falcon},
        // gpt2/configuration_gpt2.py (n_inner None = 4 x n_embd; learned positions; Conv1D with biases)
        {"gpt2", "", "", Attn::full, 0, 0, Moe::none, Mixer::none,
         kPlainMlp | kLayerNorm | kTie | kAttnBias | kMlpBiasAlways | kFfn4x | kLearnedPositions | kArchKeysOnly, ""},
        // gpt_bigcode/configuration_gpt_bigcode.py (GPT-2 with multi_query True)
        {"gpt_bigcode", "", "", Attn::full, 0, 0, Moe::none, Mixer::none,
         kPlainMlp | kLayerNorm | kTie | kAttnBias | kMlpBiasAlways | kFfn4x | kLearnedPositions | kArchKeysOnly, "", adjust_gpt_bigcode},
        // bert/configuration_bert.py, modeling_bert.py (encoder, token types, pooler, no LM head)
        {"bert", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kArchKeysOnly, "", nullptr, build_bert},
        // t5/configuration_t5.py, modeling_t5.py (encoder-decoder, relative position buckets)
        {"t5", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kArchKeysOnly, "", nullptr, build_t5},
        // RWKV-4 (rwkv/configuration_rwkv.py, modeling_rwkv.py): every block time mixing (the row's
        // mixer) and channel mixing (key and value: a plain squared-ReLU MLP of intermediate_size,
        // default 4 x hidden), LayerNorms, ln0 after the embedding; no heads, no biases.
        // rwkv/configuration_rwkv.py, modeling_rwkv.py
        {"rwkv", "", "", Attn::granite, 0, 0, Moe::none, Mixer::rwkv,
         kPlainMlp | kLayerNorm | kFfn4x | kEmbeddingNorm | kArchKeysOnly, "context_length rescale_every attention_hidden_size"},
        // BitNet b1.58 (bitnet/modeling_bitnet.py): a Llama stack whose gated MLP uses squared ReLU
        // (the fields would read relu2 as a plain MLP) with an extra RMSNorm before o_proj and
        // before down_proj (attn_sub_norm, ffn_sub_norm: counted as norms).
        // bitnet/configuration_bitnet.py, modeling_bitnet.py (relu2 gated MLP; attn_sub_norm, ffn_sub_norm)
        {"bitnet", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kArchKeysOnly, "", adjust_bitnet},
        // ChatGLM (THUDM/glm-4-9b-chat, chatglm3-6b remote code, modeling_chatglm.py): a Llama-like
        // stack whose output_layer is its own tensor while the config has no tie key.
        // THUDM modeling_chatglm.py (output_layer untied; add_qkv_bias; multi_query_group_num)
        {"chatglm", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kArchKeysOnly,
         "apply_query_key_layer_scaling attention_softmax_in_fp32 layernorm_epsilon rope_ratio", adjust_chatglm},
        // --- Qwen -------------------------------------------------------------------------
        // qwen2/configuration_qwen2.py (layer_types from use_sliding_window and max_window_layers)
        {"qwen2", "", "", Attn::max_window, 0, 4096, Moe::none, Mixer::none, kQkvBiasAlways, ""},
        // qwen2_moe/modeling_qwen2_moe.py (mlp_only_layers, decoder_sparse_step; shared expert + gate)
        {"qwen2_moe", "", "", Attn::max_window, 0, 4096, Moe::qwen_sparse, Mixer::none, kQkvBiasAlways, ""},
        // qwen3/configuration_qwen3.py
        {"qwen3", "", "", Attn::max_window, 0, 4096, Moe::none, Mixer::none, kQkNorm, ""},
        // qwen3_moe/configuration_qwen3_moe.py (num_experts <- num_local_experts; mlp_only_layers)
        {"qwen3_moe", "", "", Attn::max_window, 0, 4096, Moe::qwen_sparse, Mixer::none, kQkNorm, ""},
        // qwen3_next/configuration_qwen3_next.py (linear unless (i+1) % full_attention_interval == 0)
        {"qwen3_next", "", "", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery | kActiveNoEmbeddings, ""},
        // qwen3_5/configuration_qwen3_5.py
        {"qwen3_5", "text_config", "qwen3_5_text", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, ""},
        // qwen3_5/configuration_qwen3_5.py
        {"qwen3_5_text", "", "", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, ""},
        // qwen3_5_moe/configuration_qwen3_5_moe.py
        {"qwen3_5_moe", "text_config", "qwen3_5_moe_text", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, ""},
        // qwen3_5_moe/configuration_qwen3_5_moe.py
        {"qwen3_5_moe_text", "", "", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, ""},
        // qwen3_omni_moe/configuration_qwen3_omni_moe.py (thinker_config.text_config)
        {"qwen3_omni_moe", "thinker_config.text_config", "qwen3_moe", Attn::max_window, 0, 4096, Moe::qwen_sparse, Mixer::none,
         kQkNorm, ""},
        // --- OpenAI, Meta, Google ----------------------------------------------------------
        // gpt_oss/configuration_gpt_oss.py (sliding if (i+1) % 2 else full; attention_bias True); modeling_gpt_oss.py
        // GptOssTopKRouter keeps a bias of num_local_experts (the checkpoint's mlp.router.bias)
        {"gpt_oss", "", "", Attn::every_nth_full, 2, 128, Moe::all, Mixer::none,
         kAttnBias | kExpertBias | kRouterBias | kActiveNoInputEmbedding, ""},
        // llama4/configuration_llama4.py (Llama4TextConfig.__post_init__: no_rope_layers, moe_layers)
        {"llama4", "text_config", "llama4_text", Attn::llama4, 4, 0, Moe::llama4, Mixer::none, 0, ""},
        // llama4/configuration_llama4.py
        {"llama4_text", "", "", Attn::llama4, 4, 0, Moe::llama4, Mixer::none, 0, ""},
        // gemma3/configuration_gemma3.py, modular_gemma3.py (sliding_window_pattern 6)
        {"gemma3", "text_config", "gemma3_text", Attn::every_nth_full, 6, 4096, Moe::none, Mixer::none, kTie | kQkNorm | kNorms4, ""},
        // gemma3/configuration_gemma3.py
        {"gemma3_text", "", "", Attn::every_nth_full, 6, 4096, Moe::none, Mixer::none, kTie | kQkNorm | kNorms4, ""},
        // gemma3n/configuration_gemma3n.py, modeling_gemma3n.py (kv_shared_layer_index)
        {"gemma3n", "text_config", "gemma3n_text", Attn::every_nth_full, 5, 512, Moe::none, Mixer::none,
         kTie | kQkNorm | kNorms4 | kPle | kKvShare, ""},
        // gemma3n/configuration_gemma3n.py
        {"gemma3n_text", "", "", Attn::every_nth_full, 5, 512, Moe::none, Mixer::none, kTie | kQkNorm | kNorms4 | kPle | kKvShare, ""},
        // gemma4/configuration_gemma4.py (5:1, last layer full, per_layer_config global_head_dim)
        {"gemma4", "text_config", "gemma4_text", Attn::every_nth_full, 6, 512, Moe::gemma4, Mixer::none,
         kTie | kQkNorm | kNorms4 | kPle | kKvShare | kGlobalHeadDim | kLastFull, "vision_soft_tokens_per_image"},
        // gemma4/configuration_gemma4.py
        {"gemma4_text", "", "", Attn::every_nth_full, 6, 512, Moe::gemma4, Mixer::none,
         kTie | kQkNorm | kNorms4 | kPle | kKvShare | kGlobalHeadDim | kLastFull, ""},
        // --- Mistral --------------------------------------------------------------------------
        // mistral3/configuration_mistral3.py (text_config mistral or ministral3, vision pixtral)
        {"mistral3", "text_config", "mistral", Attn::window_all, 0, 0, Moe::none, Mixer::none, 0, ""},
        // mistral/configuration_mistral.py (every layer sliding when sliding_window is set)
        {"mistral", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, kArchKeysOnly, ""},
        // mixtral/configuration_mixtral.py (num_local_experts 8, num_experts_per_tok 2: every layer, intermediate_size each)
        {"mixtral", "", "", Attn::window_all, 0, 0, Moe::all, Mixer::none, kArchKeysOnly, ""},
        // ministral/configuration_ministral.py (every layer sliding when sliding_window is set)
        {"ministral", "", "", Attn::window_all, 0, 4096, Moe::none, Mixer::none, 0, ""},
        // ministral3/configuration_ministral3.py
        {"ministral3", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, 0, "llama_4_scaling_beta"},
        // --- DeepSeek, Zhipu, MiniMax ------------------------------------------------------------
        // deepseek_v3/configuration_deepseek_v3.py (first_k_dense_replace, moe_layer_freq)
        {"deepseek_v3", "", "", Attn::mla, 0, 0, Moe::first_k_dense, Mixer::none, 0, "topk_method"},
        // deepseek_v32/configuration_deepseek_v32.py (layer_types all deepseek_sparse_attention)
        {"deepseek_v32", "", "", Attn::mla_indexer, 0, 0, Moe::first_k_dense, Mixer::none, 0, "topk_method"},
        // glm4_moe/configuration_glm4_moe.py, modeling_glm4_moe.py (o_proj without bias)
        {"glm4_moe", "", "", Attn::full, 0, 0, Moe::first_k_dense, Mixer::none, kBiasQkvOnly | kRouterBias | kActiveNoEmbeddings, ""},
        // glm4/configuration_glm4.py (attention_bias True), modeling_glm4.py (post-attention/MLP norms)
        {"glm4", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kAttnBias | kBiasQkvOnly | kNorms4, ""},
        // glm_moe_dsa/configuration_glm_moe_dsa.py (mlp_layer_types, indexer_types)
        {"glm_moe_dsa", "", "", Attn::mla_indexer, 0, 0, Moe::first_k_dense, Mixer::none, kRouterBias | kActiveNoEmbeddings, ""},
        // minimax_m2/configuration_minimax_m2.py
        {"minimax_m2", "", "", Attn::full, 0, 0, Moe::all, Mixer::none,
         kQkNorm | kRouterBias | kActiveNoEmbeddings, "use_routing_bias qk_norm_type"},
        // --- Hybrids: IBM, NVIDIA, TII, AI21 -----------------------------------------------------
        // granitemoehybrid/configuration_granitemoehybrid.py (layers_block_type <- layer_types; absent: all mamba)
        {"granitemoehybrid", "", "", Attn::granite, 0, 0, Moe::granite, Mixer::mamba2, 0, "position_embedding_type"},
        // nemotron_h/configuration_nemotron_h.py (hybrid_override_pattern M * - E)
        {"nemotron_h", "", "", Attn::nemotron, 0, 0, Moe::nemotron, Mixer::mamba2,
         kPlainMlp | kOneBlock | kNorms1 | kRouterBias, "moe_shared_expert_overlap mtp_layers_block_type"},
        // falcon_h1/configuration_falcon_h1.py (layers_block_type: hybrid in every layer)
        {"falcon_h1", "", "", Attn::falcon_h1, 0, 0, Moe::none, Mixer::mamba2, 0,
         "lm_head_multiplier mlp_multipliers key_multiplier attention_out_multiplier attention_in_multiplier "
         "ssm_multipliers ssm_in_multiplier ssm_out_multiplier mamba_norm_before_gate mamba_use_mlp"},
        // jamba/configuration_jamba.py (layers_block_type, layers_num_experts)
        {"jamba", "", "", Attn::jamba, 0, 0, Moe::jamba, Mixer::mamba1, 0, ""},
        // --- Other 2025-2026 families -------------------------------------------------------------
        // smollm3/configuration_smollm3.py (NoPE every no_rope_layer_interval)
        {"smollm3", "", "", Attn::smollm3, 4, 0, Moe::none, Mixer::none, kTie, ""},
        // olmo2/configuration_olmo2.py
        {"olmo2", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kQkNorm, ""},
        // olmo3/configuration_olmo3.py (3 sliding : 1 full)
        {"olmo3", "", "", Attn::every_nth_full, 4, 4096, Moe::none, Mixer::none, kQkNorm, ""},
        // cohere2/configuration_cohere2.py (sliding_window_pattern 4; head_dim = hidden / heads)
        {"cohere2", "", "", Attn::every_nth_full, 4, 4096, Moe::none, Mixer::none, kTie | kHeadDimFromHidden | kNorms1, ""},
        // ernie4_5/configuration_ernie4_5.py
        {"ernie4_5", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kTie | kMlpBias, ""},
        // --- Microsoft Phi (phi3 itself is read by hf_import.cpp) --------------------------------
        // phimoe/configuration_phimoe.py (attention_bias True, num_local_experts 16, top-2), modeling_phimoe.py (LayerNorm)
        {"phimoe", "", "", Attn::window_all, 0, 0, Moe::all, Mixer::none, kAttnBias | kLayerNorm, "lm_head_bias input_jitter_noise"},
        // microsoft/Phi-4-multimodal-instruct configuration_phi4mm.py (Phi3Config fields; vision / speech LoRA and encoders in embd_layer,
        // not counted)
        {"phi4mm", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, kTie, ""},
        // ernie4_5_moe/configuration_ernie4_5_moe.py, modeling_ernie4_5_moe.py (moe_layer_start/end/interval)
        {"ernie4_5_moe", "", "", Attn::full, 0, 0, Moe::ernie, Mixer::none, kTie | kMlpBias | kRouterBias, ""},
        // hunyuan_v1_moe/configuration_hunyuan_v1_moe.py, modeling_hunyuan_v1_moe.py (shared_mlp)
        {"hunyuan_v1_moe", "", "", Attn::full, 0, 0, Moe::hunyuan, Mixer::none, kQkNorm, "use_cla cla_share_factor"},
        // hunyuan_v1_dense/configuration_hunyuan_v1_dense.py
        {"hunyuan_v1_dense", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kQkNorm, "use_cla cla_share_factor"},
        // exaone4/configuration_exaone4.py (sliding_window_pattern int or LLLG string)
        {"exaone4", "", "", Attn::exaone4, 4, 4096, Moe::none, Mixer::none, kQkNorm, ""},
        // seed_oss/configuration_seed_oss.py (attention_bias True, attention_out_bias False)
        {"seed_oss", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kAttnBias | kBiasQkvOnly, ""},
    };
    return kRows;
}
// clang-format on

namespace {

// Class defaults that differ between families, for configs that omit the key
// (configuration_<type>.py of each): the value transformers would use.
struct ClassDefault {
    const char* type;
    const char* key;
    long long value;
};

const std::vector<ClassDefault>& class_defaults() {
    static const std::vector<ClassDefault> kDefaults = {
        // num_experts_per_tok: GptOssConfig 4, Qwen3MoeConfig 8, Qwen3NextConfig 10, Ernie4_5_MoeConfig
        // moe_k 6, GraniteMoeHybridConfig / JambaConfig / NemotronHConfig 2, Llama4TextConfig 1,
        // DeepseekV32Config / GlmMoeDsaConfig / Glm4MoeConfig 8; Qwen3.5-MoE and MiniMax-M2 8.
        {"gpt_oss", "num_experts_per_tok", 4}, {"qwen3_moe", "num_experts_per_tok", 8},
        {"qwen3_next", "num_experts_per_tok", 10}, {"qwen3_5_moe", "num_experts_per_tok", 8},
        {"qwen3_5_moe_text", "num_experts_per_tok", 8}, {"ernie4_5_moe", "num_experts_per_tok", 6},
        {"granitemoehybrid", "num_experts_per_tok", 2}, {"jamba", "num_experts_per_tok", 2},
        {"nemotron_h", "num_experts_per_tok", 2}, {"llama4", "num_experts_per_tok", 1},
        {"llama4_text", "num_experts_per_tok", 1}, {"minimax_m2", "num_experts_per_tok", 8},
        {"deepseek_v3", "num_experts_per_tok", 8}, {"deepseek_v32", "num_experts_per_tok", 8},
        {"glm_moe_dsa", "num_experts_per_tok", 8}, {"glm4_moe", "num_experts_per_tok", 8},
        {"hunyuan_v1_moe", "num_experts_per_tok", 1},   // HunYuanMoEV1Config moe_topk default 1
        {"mixtral", "num_experts_per_tok", 2},          // MixtralConfig
        {"llama", "num_attention_heads", 32},            // LlamaConfig (a wrapper's text_config may leave it)
        // What a wrapper's text_config may leave to its class (used inside a wrapper only):
        // LlamaConfig 32 layers of 4096, MLP 11008, vocab 32000 (LLaVA-NeXT-Video's Vicuna-7B);
        // Qwen2Config 32 layers of 4096 with 32 heads, MLP 22016 (Qwen2-Audio's text_config).
        {"llama", "num_hidden_layers", 32}, {"llama", "hidden_size", 4096}, {"llama", "intermediate_size", 11008},
        {"qwen2", "num_hidden_layers", 32}, {"qwen2", "hidden_size", 4096}, {"qwen2", "intermediate_size", 22016},
        {"qwen2", "num_attention_heads", 32},
        {"aria_text", "n_shared_experts", 2},            // AriaTextConfig moe_num_shared_experts
        {"aria_text", "tie_word_embeddings", 0},         // AriaTextConfig: untied (Rhymes' config leaves the key out)
        // What each publisher counts as "active" (ActiveConvention: 1 no input embedding, 2 no
        // embedding and head), for types read by their fields:
        //   MiniMax-Text-01 / M1 "45.9B activated": 48.4B less 2 x 200,064 x 6,144;
        //   IBM PowerMoE-3B "800M": 0.883B less its tied 49,155 x 1,536 table;
        //   Z.ai GLM-4.5V "12B activation": GLM-4.5-Air's convention (glm4_moe).
        {"minimax", "active_convention", 2}, {"minimax_m1", "active_convention", 2}, {"granitemoe", "active_convention", 2},
        {"glm4v_moe", "active_convention", 2}, {"glm4v_moe_text", "active_convention", 2},
        //   Mistral-Small-4 "6B active parameters per token (8B including embedding and output layers)".
        {"mistral4", "active_convention", 2},
        // LongCat-Flash (modeling_longcat_flash.py LongcatFlashDecoderLayer): every one of
        // num_layers holds self_attn[0..1] and mlps[0..1] (dense, ffn_hidden_size) and one MoE
        // (expert_ffn_hidden_size) fed from the first attention block; the fields say one layer.
        {"longcat_flash", "blocks_per_layer", 2},
        // num_experts: MixtralConfig num_local_experts 8; HunYuanMoEV1Config num_experts 1.
        {"mixtral", "num_experts", 8}, {"hunyuan_v1_moe", "num_experts", 1},
        // max_position_embeddings: BLOOM and Falcon (ALiBi, RoPE) keep none; both trained at 2048.
        {"bloom", "max_position_embeddings", 2048}, {"falcon", "max_position_embeddings", 2048},
        {"RefinedWeb", "max_position_embeddings", 2048}, {"RefinedWebModel", "max_position_embeddings", 2048},
        // first_k_dense_replace: DeepseekV3Config / DeepseekV32Config / GlmMoeDsaConfig 3, Glm4MoeConfig 1.
        {"deepseek_v3", "first_k_dense_replace", 3}, {"deepseek_v32", "first_k_dense_replace", 3},
        {"glm_moe_dsa", "first_k_dense_replace", 3}, {"glm4_moe", "first_k_dense_replace", 1},
        // n_group / topk_group: DeepseekV3Config 8 / 4 (group-limited routing: 4 of 8 nodes).
        {"deepseek_v3", "n_group", 8}, {"deepseek_v3", "topk_group", 4},
        // n_shared_experts: 1 in the DeepSeek and GLM classes.
        {"deepseek_v3", "n_shared_experts", 1}, {"deepseek_v32", "n_shared_experts", 1},
        {"glm_moe_dsa", "n_shared_experts", 1}, {"glm4_moe", "n_shared_experts", 1},
        // MLA: DeepseekV3Config / DeepseekV32Config q_lora 1536, nope 128, v 128, indexer 64 heads;
        // GlmMoeDsaConfig q_lora 2048, nope 192, v 256, indexer 32 heads. Both: kv_lora 512, rope 64.
        {"deepseek_v3", "q_lora_rank", 1536}, {"deepseek_v32", "q_lora_rank", 1536}, {"glm_moe_dsa", "q_lora_rank", 2048},
        {"deepseek_v3", "qk_nope_head_dim", 128}, {"deepseek_v32", "qk_nope_head_dim", 128},
        {"glm_moe_dsa", "qk_nope_head_dim", 192}, {"glm_moe_dsa", "v_head_dim", 256},
        {"deepseek_v32", "index_n_heads", 64}, {"glm_moe_dsa", "index_n_heads", 32},
        // vocab_size of the classes read for this table (their `vocab_size` field).
        {"qwen2", "vocab_size", 151936}, {"qwen3_moe", "vocab_size", 151936}, {"qwen3_next", "vocab_size", 151936},
        {"qwen3_5", "vocab_size", 248320}, {"qwen3_5_text", "vocab_size", 248320}, {"gpt_oss", "vocab_size", 201088},
        {"llama4", "vocab_size", 202048}, {"llama4_text", "vocab_size", 202048}, {"gemma3_text", "vocab_size", 262208},
        {"gemma3", "vocab_size", 262208}, {"gemma4", "vocab_size", 262144}, {"gemma4_text", "vocab_size", 262144},
        {"granitemoehybrid", "vocab_size", 32000}, {"nemotron_h", "vocab_size", 131072}, {"falcon_h1", "vocab_size", 128000},
        {"jamba", "vocab_size", 65536}, {"smollm3", "vocab_size", 128256}, {"olmo3", "vocab_size", 50304},
        {"exaone4", "vocab_size", 102400}, {"ernie4_5_moe", "vocab_size", 103424}, {"hunyuan_v1_moe", "vocab_size", 290943},
        {"deepseek_v32", "vocab_size", 129280}, {"glm_moe_dsa", "vocab_size", 154880}, {"glm4_moe", "vocab_size", 151552},
    };
    return kDefaults;
}

}  // namespace

long long class_default(const std::string& type, const char* key, long long fallback) {
    for (const ClassDefault& d : class_defaults())
        if (type == d.type && std::strcmp(key, d.key) == 0) return d.value;
    return fallback;
}

const FamilyRow* find_row(const std::string& type) {
    for (const FamilyRow& r : rows())
        if (type == r.type) return &r;
    return nullptr;
}

}  // namespace gpusizer::hf
