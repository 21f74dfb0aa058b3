// hf_families.cpp: Hugging Face config.json -> ModelArch for the 2025-2026 model types, as tables.
//
// [SECTION] Field aliases: one canonical field, the spellings families use for it
// [SECTION] Reading a config object, with a record of what was read
// [SECTION] Family rows: one per model_type
// [SECTION] Layer-pattern expanders: what each transformers config class does without layer_types
// [SECTION] Building the stack: dimensions per layer kind
// [SECTION] Towers, MTP layers, per-layer embeddings
// [SECTION] Native storage format (quantization_config)
// [SECTION] Entry point
//
// Sources: each row names the transformers files (github.com/huggingface/transformers,
// src/transformers/models/<type>/) whose class defaults and `__post_init__` derivations it
// reproduces. Where a derivation lives in the modeling file, the expander's comment quotes it.
#include "hf_families.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"

namespace gpusizer {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Field aliases
// transformers' `attribute_map` of each class, in reverse: the first spelling present wins.
// ---------------------------------------------------------------------------------------------

enum class F {
    n_layers, hidden, n_heads, n_kv_heads, head_dim, intermediate, vocab, max_pos,
    experts, experts_per_tok, moe_intermediate, shared_experts, shared_intermediate, mtp_layers, dtype,
};

struct Alias {
    F field;
    std::vector<const char*> names;
};

const std::vector<Alias>& aliases() {
    static const std::vector<Alias> kAliases = {
        {F::n_layers, {"num_hidden_layers", "n_layer", "num_layers", "n_layers"}},
        {F::hidden, {"hidden_size", "n_embd", "n_embed", "d_model"}},
        {F::n_heads, {"num_attention_heads", "n_head", "num_heads", "n_heads"}},
        {F::n_kv_heads, {"num_key_value_heads", "num_kv_heads", "n_kv_heads"}},
        {F::head_dim, {"head_dim", "attention_head_dim"}},
        {F::intermediate, {"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim"}},
        {F::vocab, {"vocab_size", "padded_vocab_size"}},
        {F::max_pos, {"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"}},
        // Qwen3-MoE / gpt-oss attribute_map num_experts -> num_local_experts; DeepSeek, GLM,
        // Nemotron-H n_routed_experts; ERNIE 4.5 moe_num_experts.
        {F::experts, {"num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts"}},
        // ERNIE moe_k, Gemma 4 top_k_experts, gpt-oss experts_per_token, Hunyuan moe_topk.
        {F::experts_per_tok, {"num_experts_per_tok", "moe_k", "top_k_experts", "experts_per_token", "moe_topk"}},
        {F::moe_intermediate, {"moe_intermediate_size", "expert_intermediate_size"}},
        {F::shared_experts, {"n_shared_experts", "num_shared_experts", "moe_num_shared_experts", "num_shared_expert"}},
        {F::shared_intermediate,
         {"shared_expert_intermediate_size", "moe_shared_expert_intermediate_size", "shared_intermediate_size"}},
        // DeepSeek/GLM/Nemotron num_nextn_predict_layers; Qwen3-Next/Qwen3.5 mtp_num_hidden_layers.
        {F::mtp_layers, {"num_nextn_predict_layers", "mtp_num_hidden_layers"}},
        // transformers v5 writes dtype; older files torch_dtype (configuration_utils.py).
        {F::dtype, {"dtype", "torch_dtype"}},
    };
    return kAliases;
}

const std::vector<const char*>& spellings(F f) {
    for (const Alias& a : aliases())
        if (a.field == f) return a.names;
    static const std::vector<const char*> kNone;
    return kNone;
}

// Keys no family's memory depends on: token ids, norms' epsilons, RoPE, initialisation,
// routing and loss coefficients, bookkeeping. Anything else left unread is named in a warning.
const std::set<std::string>& irrelevant_everywhere() {
    static const std::set<std::string> kKeys = {
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
    };
    return kKeys;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading a config object
// ---------------------------------------------------------------------------------------------

class Reader {
public:
    Reader(const json& j, std::string prefix) : j_(j), prefix_(std::move(prefix)) {}

    const json& object() const { return j_; }
    std::string key(const std::string& k) const { return prefix_ + k; }

    // The value of `k` (marked read), or null when absent or JSON null.
    const json* find(const char* k) {
        auto it = j_.find(k);
        if (it == j_.end()) return nullptr;
        used_.insert(k);
        return it->is_null() ? nullptr : &*it;
    }
    bool has(const char* k) const {
        auto it = j_.find(k);
        return it != j_.end() && !it->is_null();
    }
    // The first spelling of `f` present, and which it was.
    // Every spelling present is marked read (gpt-oss writes num_experts_per_tok and
    // experts_per_token with the same value).
    const json* find(F f, const char** which = nullptr) {
        const json* first = nullptr;
        for (const char* n : spellings(f)) {
            if (const json* v = find(n); v && !first) {
                if (which) *which = n;
                first = v;
            }
        }
        return first;
    }

    // Sizes, counts and indices: whole numbers up to 2^24 (16,777,216, above any width or head
    // count in use), so that products of two of them stay exact in 64 bits; vocabularies and
    // context lengths up to 2^31 - 1.
    static constexpr long long kMaxDim = 1LL << 24;
    static constexpr long long kMaxLarge = 2147483647LL;

    long long integer(const char* k, long long fallback, long long max = kMaxDim) { return as_integer(find(k), k, fallback, max); }
    long long integer(F f, long long fallback, bool required = false) {
        const char* which = nullptr;
        const json* v = find(f, &which);
        if (!v && required) {
            std::string list;
            for (const char* n : spellings(f)) list += (list.empty() ? "" : " or ") + std::string(n);
            throw Error(prefix_.substr(0, prefix_.size() - 1), "missing " + list);
        }
        return as_integer(v, which, fallback, f == F::vocab || f == F::max_pos ? kMaxLarge : kMaxDim);
    }
    bool boolean(const char* k, bool fallback) {
        const json* v = find(k);
        if (!v) return fallback;
        if (!v->is_boolean()) throw Error(key(k), "must be true or false, got " + v->dump());
        return v->get<bool>();
    }
    std::string text(const char* k, const std::string& fallback) {
        const json* v = find(k);
        if (!v) return fallback;
        if (!v->is_string()) throw Error(key(k), "must be a string, got " + v->dump());
        return v->get<std::string>();
    }
    std::vector<long long> integers(const char* k) {
        std::vector<long long> out;
        const json* v = find(k);
        if (!v) return out;
        if (!v->is_array()) throw Error(key(k), "must be a list of integers, got " + v->dump());
        for (const json& e : *v) out.push_back(as_integer(&e, k, 0, kMaxDim));
        return out;
    }
    std::vector<std::string> strings(const char* k) {
        std::vector<std::string> out;
        const json* v = find(k);
        if (!v) return out;
        if (!v->is_array()) throw Error(key(k), "must be a list of strings, got " + v->dump());
        for (const json& e : *v) {
            if (!e.is_string()) throw Error(key(k), "must be a list of strings, got " + e.dump());
            out.push_back(e.get<std::string>());
        }
        return out;
    }
    void mark(const char* k) { used_.insert(k); }

    // HunYuan writes some MoE fields as one value per layer (moe_intermediate_size, moe_topk,
    // num_shared_expert): the list, checked to have n entries, or empty for a single value.
    std::vector<long long> per_layer(F f, int n) {
        const char* which = nullptr;
        const json* v = find(f, &which);
        if (!v || !v->is_array()) return {};
        std::vector<long long> out = integers(which);
        if (int(out.size()) != n)
            throw Error(key(which), "has " + std::to_string(out.size()) + " entries for " + std::to_string(n) + " layers");
        return out;
    }
    // A field that may be such a list: its single value, or the list's first entry.
    long long single_or_first(F f, long long fallback) {
        const char* which = nullptr;
        const json* v = find(f, &which);
        if (v && v->is_array()) {
            const std::vector<long long> l = integers(which);
            return l.empty() ? fallback : l.front();
        }
        return integer(f, fallback);
    }

    // Keys neither read nor known not to change memory.
    std::vector<std::string> unread(const std::set<std::string>& also_irrelevant) const {
        std::vector<std::string> out;
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            const std::string& k = it.key();
            if (used_.count(k) || irrelevant_everywhere().count(k) || also_irrelevant.count(k)) continue;
            out.push_back(k);
        }
        return out;
    }

private:
    long long as_integer(const json* v, const char* k, long long fallback, long long max) const {
        if (!v) return fallback;
        if (!v->is_number()) throw Error(key(k), "must be a number, got " + v->dump());
        const double d = v->get<double>();
        if (!std::isfinite(d) || d < 0 || d != std::floor(d))
            throw Error(key(k), "must be a non-negative integer, got " + v->dump());
        if (d > double(max)) throw Error(key(k), "must be at most " + std::to_string(max) + ", got " + v->dump());
        return (long long)d;
    }

    const json& j_;
    std::string prefix_;   // "hf_config." or "hf_config.text_config."
    std::set<std::string> used_;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Family rows
// ---------------------------------------------------------------------------------------------

// How the attention kind of each layer is derived when `layer_types` is absent.
enum class Attn : std::uint8_t {
    full,             // every layer full attention
    window_all,       // every layer sliding when sliding_window is set (Mistral, Ministral)
    every_nth_full,   // sliding unless (i+1) % period == 0 (Gemma 3/3n/4, Cohere2, OLMo 3, gpt-oss: 2)
    max_window,       // Qwen2/Qwen3: sliding when use_sliding_window and i >= max_window_layers
    llama4,           // chunked on RoPE layers, full on NoPE layers (no_rope_layers)
    smollm3,          // full; NoPE layers slide when use_sliding_window
    exaone4,          // sliding_window_pattern as an int or an "LLLG" string
    linear_interval,  // Qwen3-Next/Qwen3.5: linear unless (i+1) % full_attention_interval == 0
    granite,          // layer_types / layers_block_type of mamba / attention; absent: all mamba
    nemotron,         // hybrid_override_pattern M * - E, or layers_block_type
    jamba,            // attention when i % attn_layer_period == attn_layer_offset, else Mamba
    falcon_h1,        // every layer attention and Mamba-2 side by side ("hybrid")
    mla,              // DeepSeek multi-head latent attention in every layer
    mla_indexer,      // MLA with the DSA indexer (DeepSeek-V3.2, GLM-5)
};

// Which layers carry a mixture of experts.
enum class Moe : std::uint8_t {
    none,
    all,           // every layer when experts > 0 (gpt-oss, MiniMax-M2, Qwen3.5-MoE)
    qwen_sparse,   // not in mlp_only_layers and (i+1) % decoder_sparse_step == 0
    first_k_dense, // i >= first_k_dense_replace and i % moe_layer_freq == 0 (DeepSeek, GLM)
    llama4,        // moe_layers, else range(interleave_moe_layer_step - 1, n, step)
    jamba,         // i % expert_layer_period == expert_layer_offset
    ernie,         // (i+1) % moe_layer_interval == 0 and start <= i <= end
    nemotron,      // the "moe" blocks of the pattern
    gemma4,        // enable_moe_block: experts beside the dense MLP in every layer
    granite,       // experts (num_local_experts > 0) beside a shared MLP in every layer
    hunyuan,       // every layer when num_experts > 1, with a shared MLP beside the experts
};

enum class Mixer : std::uint8_t { none, mamba1, mamba2, gated_deltanet };

// Traits: class defaults and fixed structure.
enum : unsigned {
    kTie = 1u << 0,            // tie_word_embeddings defaults to true
    kAttnBias = 1u << 1,       // attention_bias defaults to true
    kBiasQkvOnly = 1u << 2,    // attention_bias puts biases on q/k/v only, never on o
    kQkvBiasAlways = 1u << 3,  // q/k/v biases whatever the config says (Qwen2Attention)
    kQkNorm = 1u << 4,         // per-head RMSNorm on q and k
    kNorms4 = 1u << 5,         // pre/post attention and pre/post MLP norms
    kNorms1 = 1u << 6,         // one norm per layer (parallel block, or one block per layer)
    kPlainMlp = 1u << 7,       // up + down only (Nemotron-H relu2)
    kHeadDimFromHidden = 1u << 8,  // head_dim forced to hidden / heads (Cohere2)
    kGatedQuery = 1u << 9,     // full-attention q_proj twice as wide (query + gate)
    kOneBlock = 1u << 10,      // a layer is one block: attention, Mamba, MLP or MoE (Nemotron-H)
    kExpertBias = 1u << 11,    // biases on expert projections (gpt-oss)
    kRouterBias = 1u << 12,    // e_score_correction_bias per expert
    kPle = 1u << 13,           // per-layer input embeddings (Gemma 3n / 4)
    kKvShare = 1u << 14,       // num_kv_shared_layers (Gemma 3n / 4)
    kGlobalHeadDim = 1u << 15, // full layers: global_head_dim, num_global_key_value_heads (Gemma 4)
    kTextOnly = 1u << 16,      // read only as the text part of a wrapper (not dispatched at top level)
    kLastFull = 1u << 17,      // the last layer is forced to full attention (Gemma 4, EXAONE 4 strings)
    kMlpBias = 1u << 18,       // use_bias puts biases on every projection (ERNIE 4.5)
    kLayerNorm = 1u << 19,     // LayerNorm (weight and bias) instead of RMSNorm (PhiMoE)
};

struct FamilyRow {
    const char* type;
    const char* text_path;   // where the language model lives: "", "text_config", "thinker_config.text_config"
    const char* text_type;   // wrappers: the row for a text config that names no model_type
    Attn attn;
    int period;              // the class's default pattern period (0 = none)
    int window;              // the class's sliding_window default when the key is absent (0 = none)
    Moe moe;
    Mixer mixer;
    unsigned traits;
    const char* irrelevant;  // space-separated keys of this family known not to change memory
    const char* source;      // transformers files checked: defaults and derivations
};

// clang-format off
const std::vector<FamilyRow>& rows() {
    static const std::vector<FamilyRow> kRows = {
        // --- Qwen -------------------------------------------------------------------------
        {"qwen2", "", "", Attn::max_window, 0, 4096, Moe::none, Mixer::none, kQkvBiasAlways, "",
         "qwen2/configuration_qwen2.py (layer_types from use_sliding_window and max_window_layers)"},
        {"qwen2_moe", "", "", Attn::max_window, 0, 4096, Moe::qwen_sparse, Mixer::none, kQkvBiasAlways, "",
         "qwen2_moe/modeling_qwen2_moe.py (mlp_only_layers, decoder_sparse_step; shared expert + gate)"},
        {"qwen3", "", "", Attn::max_window, 0, 4096, Moe::none, Mixer::none, kQkNorm, "",
         "qwen3/configuration_qwen3.py"},
        {"qwen3_moe", "", "", Attn::max_window, 0, 4096, Moe::qwen_sparse, Mixer::none, kQkNorm, "",
         "qwen3_moe/configuration_qwen3_moe.py (num_experts <- num_local_experts; mlp_only_layers)"},
        {"qwen3_next", "", "", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, "",
         "qwen3_next/configuration_qwen3_next.py (linear unless (i+1) % full_attention_interval == 0)"},
        {"qwen3_5", "text_config", "qwen3_5_text", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, "mamba_ssm_dtype", "qwen3_5/configuration_qwen3_5.py"},
        {"qwen3_5_text", "", "", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, "mamba_ssm_dtype", "qwen3_5/configuration_qwen3_5.py"},
        {"qwen3_5_moe", "text_config", "qwen3_5_moe_text", Attn::linear_interval, 4, 0, Moe::qwen_sparse,
         Mixer::gated_deltanet, kQkNorm | kGatedQuery, "mamba_ssm_dtype", "qwen3_5_moe/configuration_qwen3_5_moe.py"},
        {"qwen3_5_moe_text", "", "", Attn::linear_interval, 4, 0, Moe::qwen_sparse, Mixer::gated_deltanet,
         kQkNorm | kGatedQuery, "mamba_ssm_dtype", "qwen3_5_moe/configuration_qwen3_5_moe.py"},
        {"qwen3_omni_moe", "thinker_config.text_config", "qwen3_moe", Attn::max_window, 0, 4096, Moe::qwen_sparse,
         Mixer::none, kQkNorm, "", "qwen3_omni_moe/configuration_qwen3_omni_moe.py (thinker_config.text_config)"},
        // --- OpenAI, Meta, Google ----------------------------------------------------------
        {"gpt_oss", "", "", Attn::every_nth_full, 2, 128, Moe::all, Mixer::none, kAttnBias | kExpertBias, "",
         "gpt_oss/configuration_gpt_oss.py (sliding if (i+1) % 2 else full; attention_bias True)"},
        {"llama4", "text_config", "llama4_text", Attn::llama4, 4, 0, Moe::llama4, Mixer::none, 0, "",
         "llama4/configuration_llama4.py (Llama4TextConfig.__post_init__: no_rope_layers, moe_layers)"},
        {"llama4_text", "", "", Attn::llama4, 4, 0, Moe::llama4, Mixer::none, 0, "",
         "llama4/configuration_llama4.py"},
        {"gemma3", "text_config", "gemma3_text", Attn::every_nth_full, 6, 4096, Moe::none, Mixer::none,
         kTie | kQkNorm | kNorms4, "", "gemma3/configuration_gemma3.py, modular_gemma3.py (sliding_window_pattern 6)"},
        {"gemma3_text", "", "", Attn::every_nth_full, 6, 4096, Moe::none, Mixer::none, kTie | kQkNorm | kNorms4, "",
         "gemma3/configuration_gemma3.py"},
        {"gemma3n", "text_config", "gemma3n_text", Attn::every_nth_full, 5, 512, Moe::none, Mixer::none,
         kTie | kQkNorm | kNorms4 | kPle | kKvShare, "",
         "gemma3n/configuration_gemma3n.py, modeling_gemma3n.py (kv_shared_layer_index)"},
        {"gemma3n_text", "", "", Attn::every_nth_full, 5, 512, Moe::none, Mixer::none,
         kTie | kQkNorm | kNorms4 | kPle | kKvShare, "", "gemma3n/configuration_gemma3n.py"},
        {"gemma4", "text_config", "gemma4_text", Attn::every_nth_full, 6, 512, Moe::gemma4, Mixer::none,
         kTie | kQkNorm | kNorms4 | kPle | kKvShare | kGlobalHeadDim | kLastFull, "",
         "gemma4/configuration_gemma4.py (5:1, last layer full, per_layer_config global_head_dim)"},
        {"gemma4_text", "", "", Attn::every_nth_full, 6, 512, Moe::gemma4, Mixer::none,
         kTie | kQkNorm | kNorms4 | kPle | kKvShare | kGlobalHeadDim | kLastFull, "", "gemma4/configuration_gemma4.py"},
        // --- Mistral --------------------------------------------------------------------------
        {"mistral3", "text_config", "mistral", Attn::window_all, 0, 0, Moe::none, Mixer::none, 0, "",
         "mistral3/configuration_mistral3.py (text_config mistral or ministral3, vision pixtral)"},
        {"mistral", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, kTextOnly, "",
         "mistral/configuration_mistral.py"},
        {"ministral", "", "", Attn::window_all, 0, 4096, Moe::none, Mixer::none, 0, "",
         "ministral/configuration_ministral.py (every layer sliding when sliding_window is set)"},
        {"ministral3", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, 0, "llama_4_scaling_beta",
         "ministral3/configuration_ministral3.py"},
        // --- DeepSeek, Zhipu, MiniMax ------------------------------------------------------------
        {"deepseek_v3", "", "", Attn::mla, 0, 0, Moe::first_k_dense, Mixer::none, 0, "topk_method",
         "deepseek_v3/configuration_deepseek_v3.py (first_k_dense_replace, moe_layer_freq)"},
        {"deepseek_v32", "", "", Attn::mla_indexer, 0, 0, Moe::first_k_dense, Mixer::none, 0, "topk_method",
         "deepseek_v32/configuration_deepseek_v32.py (layer_types all deepseek_sparse_attention)"},
        {"glm4_moe", "", "", Attn::full, 0, 0, Moe::first_k_dense, Mixer::none, kBiasQkvOnly | kRouterBias, "",
         "glm4_moe/configuration_glm4_moe.py, modeling_glm4_moe.py (o_proj without bias)"},
        {"glm4", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kAttnBias | kBiasQkvOnly | kNorms4, "",
         "glm4/configuration_glm4.py (attention_bias True), modeling_glm4.py (post-attention/MLP norms)"},
        {"glm_moe_dsa", "", "", Attn::mla_indexer, 0, 0, Moe::first_k_dense, Mixer::none, kRouterBias,
         "", "glm_moe_dsa/configuration_glm_moe_dsa.py (mlp_layer_types, indexer_types)"},
        {"minimax_m2", "", "", Attn::full, 0, 0, Moe::all, Mixer::none, kQkNorm | kRouterBias,
         "use_routing_bias qk_norm_type", "minimax_m2/configuration_minimax_m2.py"},
        // --- Hybrids: IBM, NVIDIA, TII, AI21 -----------------------------------------------------
        {"granitemoehybrid", "", "", Attn::granite, 0, 0, Moe::granite, Mixer::mamba2, 0, "position_embedding_type",
         "granitemoehybrid/configuration_granitemoehybrid.py (layers_block_type <- layer_types; absent: all mamba)"},
        {"nemotron_h", "", "", Attn::nemotron, 0, 0, Moe::nemotron, Mixer::mamba2,
         kPlainMlp | kOneBlock | kNorms1 | kRouterBias, "moe_shared_expert_overlap mtp_layers_block_type",
         "nemotron_h/configuration_nemotron_h.py (hybrid_override_pattern M * - E)"},
        {"falcon_h1", "", "", Attn::falcon_h1, 0, 0, Moe::none, Mixer::mamba2, 0,
         "lm_head_multiplier mlp_multipliers key_multiplier attention_out_multiplier attention_in_multiplier "
         "ssm_multipliers ssm_in_multiplier ssm_out_multiplier mamba_norm_before_gate mamba_use_mlp",
         "falcon_h1/configuration_falcon_h1.py (layers_block_type: hybrid in every layer)"},
        {"jamba", "", "", Attn::jamba, 0, 0, Moe::jamba, Mixer::mamba1, 0, "",
         "jamba/configuration_jamba.py (layers_block_type, layers_num_experts)"},
        // --- Other 2025-2026 families -------------------------------------------------------------
        {"smollm3", "", "", Attn::smollm3, 4, 0, Moe::none, Mixer::none, kTie, "",
         "smollm3/configuration_smollm3.py (NoPE every no_rope_layer_interval)"},
        {"olmo2", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kQkNorm, "", "olmo2/configuration_olmo2.py"},
        {"olmo3", "", "", Attn::every_nth_full, 4, 4096, Moe::none, Mixer::none, kQkNorm, "",
         "olmo3/configuration_olmo3.py (3 sliding : 1 full)"},
        {"cohere2", "", "", Attn::every_nth_full, 4, 4096, Moe::none, Mixer::none, kTie | kHeadDimFromHidden | kNorms1,
         "", "cohere2/configuration_cohere2.py (sliding_window_pattern 4; head_dim = hidden / heads)"},
        {"ernie4_5", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kTie | kMlpBias, "",
         "ernie4_5/configuration_ernie4_5.py"},
        // --- Microsoft Phi (phi3 itself is read by hf_import.cpp) --------------------------------
        {"phimoe", "", "", Attn::window_all, 0, 0, Moe::all, Mixer::none, kAttnBias | kLayerNorm, "lm_head_bias input_jitter_noise",
         "phimoe/configuration_phimoe.py (attention_bias True, num_local_experts 16, top-2), modeling_phimoe.py (LayerNorm)"},
        {"phi4mm", "", "", Attn::window_all, 0, 0, Moe::none, Mixer::none, kTie, "",
         "microsoft/Phi-4-multimodal-instruct configuration_phi4mm.py (Phi3Config fields; vision / speech LoRA and "
         "encoders in embd_layer, not counted)"},
        {"ernie4_5_moe", "", "", Attn::full, 0, 0, Moe::ernie, Mixer::none, kTie | kMlpBias | kRouterBias, "",
         "ernie4_5_moe/configuration_ernie4_5_moe.py, modeling_ernie4_5_moe.py (moe_layer_start/end/interval)"},
        {"hunyuan_v1_moe", "", "", Attn::full, 0, 0, Moe::hunyuan, Mixer::none, kQkNorm,
         "use_cla cla_share_factor", "hunyuan_v1_moe/configuration_hunyuan_v1_moe.py, modeling_hunyuan_v1_moe.py (shared_mlp)"},
        {"hunyuan_v1_dense", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kQkNorm, "use_cla cla_share_factor",
         "hunyuan_v1_dense/configuration_hunyuan_v1_dense.py"},
        {"exaone4", "", "", Attn::exaone4, 4, 4096, Moe::none, Mixer::none, kQkNorm, "",
         "exaone4/configuration_exaone4.py (sliding_window_pattern int or LLLG string)"},
        {"seed_oss", "", "", Attn::full, 0, 0, Moe::none, Mixer::none, kAttnBias | kBiasQkvOnly, "",
         "seed_oss/configuration_seed_oss.py (attention_bias True, attention_out_bias False)"},
    };
    return kRows;
}
// clang-format on

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
        // first_k_dense_replace: DeepseekV3Config / DeepseekV32Config / GlmMoeDsaConfig 3, Glm4MoeConfig 1.
        {"deepseek_v3", "first_k_dense_replace", 3}, {"deepseek_v32", "first_k_dense_replace", 3},
        {"glm_moe_dsa", "first_k_dense_replace", 3}, {"glm4_moe", "first_k_dense_replace", 1},
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

std::set<std::string> words(const char* s) {
    // Split by hand: an istringstream would pull the locale machinery (~50 KB) into the widget's
    // WebAssembly module.
    std::set<std::string> out;
    std::string w;
    for (const char* p = s;; ++p) {
        if (*p == ' ' || *p == '\0') {
            if (!w.empty()) out.insert(w);
            w.clear();
            if (*p == '\0') break;
        } else {
            w += *p;
        }
    }
    return out;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Layer-pattern expanders
// ---------------------------------------------------------------------------------------------

// One layer before its dimensions are known.
struct Plan {
    AttnKind attn = AttnKind::full;
    bool indexer = false;     // MLA with the DSA indexer
    bool recurrent = false;   // the row's mixer runs in this layer
    LayerMlpKind mlp = LayerMlpKind::dense;
    bool kv_shared = false;

    // A layer whose mixer is the row's recurrent one (Mamba, linear attention), with no attention.
    void set_recurrent() {
        attn = AttnKind::none;
        recurrent = true;
    }
    // An MLA layer with the DeepSeek sparse-attention indexer.
    void set_indexed_mla() {
        attn = AttnKind::mla;
        indexer = true;
    }
};

// Jamba's layer patterns: a layer is special when i % period == offset. The two keys, read with
// JambaConfig's defaults and checked.
struct LayerPeriod {
    long long period, offset;
};
LayerPeriod layer_period(Reader& f, const char* period_key, long long period, const char* offset_key, long long offset) {
    const LayerPeriod p{f.integer(period_key, period), f.integer(offset_key, offset)};
    if (p.period <= 0 || p.offset >= p.period) throw Error(f.key(offset_key), "must be smaller than " + std::string(period_key));
    return p;
}

bool is_mla_row(const FamilyRow& r) { return r.attn == Attn::mla || r.attn == Attn::mla_indexer; }

// A `layer_types` entry. Legacy names are remapped as configuration_utils.remap_legacy_layer_types
// does: mamba -> linear_attention, attention -> full_attention; deepseek_sparse_attention and
// qwen_sparse_attention are also spelled indexed_attention.
Plan plan_from_type(const std::string& t, const FamilyRow& row, const std::string& key) {
    Plan p;
    const bool one_block = row.traits & kOneBlock;
    if (t == "full_attention" || t == "attention") {
        p.attn = is_mla_row(row) ? AttnKind::mla : AttnKind::full;
        if (one_block) p.mlp = LayerMlpKind::none;
    } else if (t == "sliding_attention") {
        p.attn = AttnKind::sliding;
    } else if (t == "chunked_attention") {
        p.attn = AttnKind::chunked;
    } else if (t == "linear_attention" || t == "mamba") {
        if (row.mixer == Mixer::none)
            throw Error(key, "'" + t + "' in a " + std::string(row.type) + " model, which has no recurrent layers");
        p.set_recurrent();
        if (one_block) p.mlp = LayerMlpKind::none;
    } else if (t == "hybrid") {
        if (row.mixer == Mixer::none) throw Error(key, "'hybrid' in a " + std::string(row.type) + " model, which has no recurrent layers");
        p.recurrent = true;
    } else if (t == "deepseek_sparse_attention" || t == "indexed_attention" || t == "qwen_sparse_attention") {
        if (!is_mla_row(row)) throw Error(key, "'" + t + "' in a " + std::string(row.type) + " model, which has no MLA layers");
        p.set_indexed_mla();
    } else if (one_block && (t == "moe" || t == "mlp")) {
        p.attn = AttnKind::none;
        p.mlp = t == "moe" ? LayerMlpKind::moe : LayerMlpKind::dense;
    } else {
        throw Error(key, "'" + t +
                             "' is not a layer kind gpusizer models; known: full_attention, sliding_attention, "
                             "chunked_attention, linear_attention, hybrid, deepseek_sparse_attention (and mamba, "
                             "attention, moe, mlp where the family uses them)");
    }
    return p;
}

// The attention (and mixer) pattern. `layer_types` wins when present, as in every config class.
// no_rope_layers[i] (1 = the layer uses RoPE), or from no_rope_layer_interval as Llama4TextConfig
// and SmolLM3Config derive it: int((i+1) % interval != 0).
std::vector<long long> rope_layers(const FamilyRow& row, Reader& f, int n_layers) {
    std::vector<long long> rope = f.integers("no_rope_layers");
    const long long interval = f.integer("no_rope_layer_interval", row.period);
    if (rope.empty()) {
        if (interval <= 0) throw Error(f.key("no_rope_layer_interval"), "must be at least 1");
        for (int i = 0; i < n_layers; ++i) rope.push_back((i + 1) % interval != 0);
    }
    if (int(rope.size()) < n_layers)
        throw Error(f.key("no_rope_layers"), "has " + std::to_string(rope.size()) + " entries for " +
                                                 std::to_string(n_layers) + " layers");
    return rope;
}

std::vector<Plan> attention_plan(const FamilyRow& row, Reader& f, int& n_layers, int window,
                                 std::vector<std::string>& notes) {
    // Granite, Nemotron-H and Falcon-H1 spell the list layers_block_type (attribute_map).
    const char* list_key = f.has("layer_types") ? "layer_types" : (f.has("layers_block_type") ? "layers_block_type" : nullptr);
    if (row.attn == Attn::nemotron && !list_key && f.has("hybrid_override_pattern")) {
        // NemotronHConfig._pattern_to_list: M -> linear_attention, E -> moe, * -> full_attention, - -> mlp.
        const std::string pat = f.text("hybrid_override_pattern", "");
        std::vector<Plan> out;
        for (std::size_t i = 0; i < pat.size(); ++i) {
            const char c = pat[i];
            const char* t = c == 'M' ? "linear_attention" : c == 'E' ? "moe" : c == '*' ? "full_attention" : c == '-' ? "mlp" : nullptr;
            if (!t) throw Error(f.key("hybrid_override_pattern"), std::string("'") + c + "' at index " + std::to_string(i) +
                                                                     " is not one of M (Mamba-2), * (attention), - (MLP), E (MoE)");
            out.push_back(plan_from_type(t, row, f.key("hybrid_override_pattern")));
        }
        if (n_layers != int(out.size()))
            notes.push_back("num_hidden_layers (" + std::to_string(n_layers) + ") differs from hybrid_override_pattern (" +
                            std::to_string(out.size()) + " layers); the pattern wins, as in transformers");
        n_layers = int(out.size());
        return out;
    }
    if (list_key) {
        const std::vector<std::string> types = f.strings(list_key);
        if (row.attn == Attn::nemotron) {
            if (n_layers != int(types.size()) && n_layers != 0)
                notes.push_back("num_hidden_layers (" + std::to_string(n_layers) + ") differs from " + list_key + " (" +
                                std::to_string(types.size()) + " layers); the list wins, as in transformers");
            n_layers = int(types.size());
        } else if (int(types.size()) != n_layers) {
            throw Error(f.key(list_key), "has " + std::to_string(types.size()) + " entries for " + std::to_string(n_layers) +
                                             " layers (num_hidden_layers)");
        }
        std::vector<Plan> out;
        for (std::size_t i = 0; i < types.size(); ++i)
            out.push_back(plan_from_type(types[i], row, f.key(list_key) + "[" + std::to_string(i) + "]"));
        return out;
    }

    std::vector<Plan> out(std::size_t(std::max(0, n_layers)));
    auto set_all = [&](AttnKind k) {
        for (Plan& p : out) p.attn = k;
    };
    switch (row.attn) {
        case Attn::full:
            break;
        case Attn::window_all:
            if (window > 0) set_all(AttnKind::sliding);
            break;
        case Attn::every_nth_full: {
            // Gemma 3 modular_gemma3.py, Cohere2, OLMo 3, Gemma 4, gpt-oss (2):
            // "sliding_attention" if (i + 1) % pattern else "full_attention".
            const int p = int(f.integer("sliding_window_pattern", row.period));
            if (p <= 0) throw Error(f.key("sliding_window_pattern"), "must be at least 1");
            for (int i = 0; i < n_layers; ++i) out[std::size_t(i)].attn = (i + 1) % p ? AttnKind::sliding : AttnKind::full;
            break;
        }
        case Attn::max_window: {
            // Qwen2Config: sliding when sliding_window is not None (use_sliding_window) and
            // i >= max_window_layers.
            const long long mwl = f.integer("max_window_layers", 28);
            if (window > 0)
                for (int i = 0; i < n_layers; ++i)
                    if (i >= mwl) out[std::size_t(i)].attn = AttnKind::sliding;
            break;
        }
        case Attn::llama4: {
            // Llama4TextConfig: no_rope_layers[i] = int((i+1) % no_rope_layer_interval != 0);
            // layer_types = "chunked_attention" if no_rope_layers[i] (RoPE) else "full_attention".
            const std::vector<long long> rope = rope_layers(row, f, n_layers);
            for (int i = 0; i < n_layers; ++i) out[std::size_t(i)].attn = rope[std::size_t(i)] ? AttnKind::chunked : AttnKind::full;
            break;
        }
        case Attn::smollm3: {
            // SmolLM3Config: NoPE every no_rope_layer_interval-th layer; a NoPE layer slides
            // when use_sliding_window and sliding_window are set, every other layer is full.
            const std::vector<long long> rope = rope_layers(row, f, n_layers);
            const bool use = f.boolean("use_sliding_window", false);
            for (int i = 0; i < n_layers; ++i)
                if (use && window > 0 && !rope[std::size_t(i)]) out[std::size_t(i)].attn = AttnKind::sliding;
            break;
        }
        case Attn::exaone4: {
            // Exaone4Config: sliding_window None -> pattern 0 (all full); an int p -> sliding
            // unless (i+1) % p == 0; a string such as "LLLG" repeats from layer 0 and the last
            // layer is always global (the class docstring).
            const json* pat = f.find("sliding_window_pattern");
            if (window <= 0) break;
            if (pat && pat->is_string()) {
                const std::string s = pat->get<std::string>();
                if (s.empty()) throw Error(f.key("sliding_window_pattern"), "must not be empty");
                for (int i = 0; i < n_layers; ++i) {
                    const char c = s[std::size_t(i) % s.size()];
                    if (c != 'L' && c != 'G') throw Error(f.key("sliding_window_pattern"), "must be made of L and G, got " + s);
                    out[std::size_t(i)].attn = c == 'L' ? AttnKind::sliding : AttnKind::full;
                }
                if (n_layers > 0) out.back().attn = AttnKind::full;
            } else {
                const long long p = pat ? f.integer("sliding_window_pattern", row.period) : row.period;
                if (p <= 0) throw Error(f.key("sliding_window_pattern"), "must be at least 1");
                for (int i = 0; i < n_layers; ++i) out[std::size_t(i)].attn = (i + 1) % p ? AttnKind::sliding : AttnKind::full;
            }
            break;
        }
        case Attn::linear_interval: {
            // Qwen3NextConfig: "linear_attention" if (i + 1) % full_attention_interval else "full_attention".
            const long long p = f.integer("full_attention_interval", row.period);
            if (p <= 0) throw Error(f.key("full_attention_interval"), "must be at least 1");
            for (int i = 0; i < n_layers; ++i)
                if ((i + 1) % p) out[std::size_t(i)].set_recurrent();
            break;
        }
        case Attn::granite:
            // GraniteMoeHybridConfig.layers_block_type: layer_types, else ["mamba"] * n.
            for (Plan& p : out) p.set_recurrent();
            break;
        case Attn::nemotron: {
            // NemotronHConfig default: ["linear_attention", "moe", "full_attention", "mlp"].
            const char* kDefault[] = {"linear_attention", "moe", "full_attention", "mlp"};
            out.clear();
            for (const char* t : kDefault) out.push_back(plan_from_type(t, row, f.key("layers_block_type")));
            n_layers = int(out.size());
            break;
        }
        case Attn::jamba: {
            // JambaConfig.layers_block_type: "attention" if i % attn_layer_period == attn_layer_offset else "mamba".
            const LayerPeriod p = layer_period(f, "attn_layer_period", 8, "attn_layer_offset", 4);
            for (int i = 0; i < n_layers; ++i)
                if (i % p.period != p.offset) out[std::size_t(i)].set_recurrent();
            break;
        }
        case Attn::falcon_h1:
            // FalconH1Config.layers_block_type: ["hybrid"] * n.
            for (Plan& p : out) p.recurrent = true;
            break;
        case Attn::mla:
            set_all(AttnKind::mla);
            break;
        case Attn::mla_indexer:
            // DeepseekV32Config: layer_types default all "deepseek_sparse_attention".
            for (Plan& p : out) p.set_indexed_mla();
            break;
    }
    return out;
}

// Which layers are MoE (the attention plan is already set).
void moe_plan(const FamilyRow& row, Reader& f, std::vector<Plan>& plan, long long experts) {
    const int n = int(plan.size());
    auto mark = [&](int i, bool moe) { plan[std::size_t(i)].mlp = moe ? LayerMlpKind::moe : LayerMlpKind::dense; };
    switch (row.moe) {
        case Moe::none:
            break;
        case Moe::all:
        case Moe::gemma4:
        case Moe::granite:
            for (int i = 0; i < n; ++i) mark(i, experts > 0);
            break;
        case Moe::hunyuan:
            for (int i = 0; i < n; ++i) mark(i, experts > 1);
            break;
        case Moe::qwen_sparse: {
            // Qwen2MoeDecoderLayer / Qwen3MoeDecoderLayer: MoE when i not in mlp_only_layers and
            // num_experts > 0 and (i + 1) % decoder_sparse_step == 0.
            const std::vector<long long> dense = f.integers("mlp_only_layers");
            const long long step = f.integer("decoder_sparse_step", 1);
            if (step <= 0) throw Error(f.key("decoder_sparse_step"), "must be at least 1");
            for (long long d : dense)
                if (d >= n) throw Error(f.key("mlp_only_layers"), "names layer " + std::to_string(d) + " of " + std::to_string(n));
            for (int i = 0; i < n; ++i)
                mark(i, experts > 0 && std::find(dense.begin(), dense.end(), i) == dense.end() && (i + 1) % step == 0);
            break;
        }
        case Moe::first_k_dense: {
            // DeepseekV3DecoderLayer: MoE when layer_idx >= first_k_dense_replace (and, in
            // DeepSeek's own modeling code, layer_idx % moe_layer_freq == 0).
            // DeepseekV32Config / GlmMoeDsaConfig: mlp_layer_types ("dense" / "sparse"), when
            // present, lists them; its default is first_k_dense_replace x "dense" then "sparse".
            if (f.has("mlp_layer_types")) {
                const std::vector<std::string> t = f.strings("mlp_layer_types");
                if (int(t.size()) != n)
                    throw Error(f.key("mlp_layer_types"),
                                "has " + std::to_string(t.size()) + " entries for " + std::to_string(n) + " layers");
                for (int i = 0; i < n; ++i) {
                    if (t[std::size_t(i)] != "dense" && t[std::size_t(i)] != "sparse")
                        throw Error(f.key("mlp_layer_types") + "[" + std::to_string(i) + "]",
                                    "must be dense or sparse, got " + t[std::size_t(i)]);
                    mark(i, experts > 0 && t[std::size_t(i)] == "sparse");
                }
                break;
            }
            const long long k = f.integer("first_k_dense_replace", class_default(row.type, "first_k_dense_replace", 0));
            const long long freq = f.integer("moe_layer_freq", 1);
            if (freq <= 0) throw Error(f.key("moe_layer_freq"), "must be at least 1");
            for (int i = 0; i < n; ++i) mark(i, experts > 0 && i >= k && i % freq == 0);
            break;
        }
        case Moe::llama4: {
            // Llama4TextConfig: moe_layers, else list(range(step - 1, n, step)).
            std::vector<long long> moe = f.integers("moe_layers");
            const long long step = f.integer("interleave_moe_layer_step", 1);   // read either way: moe_layers overrides it
            if (!f.has("moe_layers")) {
                if (step <= 0) throw Error(f.key("interleave_moe_layer_step"), "must be at least 1");
                for (long long i = step - 1; i < n; i += step) moe.push_back(i);
            }
            for (int i = 0; i < n; ++i) mark(i, experts > 0 && std::find(moe.begin(), moe.end(), i) != moe.end());
            break;
        }
        case Moe::jamba: {
            // JambaConfig.layers_num_experts: num_experts if i % expert_layer_period ==
            // expert_layer_offset else 1 (one expert = a dense MLP).
            const LayerPeriod p = layer_period(f, "expert_layer_period", 2, "expert_layer_offset", 1);
            for (int i = 0; i < n; ++i) mark(i, experts > 1 && i % p.period == p.offset);
            break;
        }
        case Moe::ernie: {
            // Ernie4_5_MoeDecoderLayer: (i + 1) % moe_layer_interval == 0 and
            // moe_layer_start_index <= i <= moe_layer_end_index (-1: the last layer).
            const long long start = f.integer("moe_layer_start_index", 1);
            const json* end_v = f.find("moe_layer_end_index");
            long long end = n - 1;
            if (end_v) {
                if (!end_v->is_number_integer()) throw Error(f.key("moe_layer_end_index"), "must be an integer");
                end = end_v->get<long long>() < 0 ? n - 1 : end_v->get<long long>();
            }
            const long long interval = f.integer("moe_layer_interval", 1);
            if (interval <= 0) throw Error(f.key("moe_layer_interval"), "must be at least 1");
            for (int i = 0; i < n; ++i) mark(i, experts > 0 && (i + 1) % interval == 0 && i >= start && i <= end);
            break;
        }
        case Moe::nemotron:
            break;   // the pattern's own "moe" and "mlp" blocks
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Building the stack
// ---------------------------------------------------------------------------------------------

int state_bytes_of(const std::string& dtype, const std::string& key) {
    if (dtype == "float32") return 4;
    if (dtype == "bfloat16" || dtype == "float16") return 2;
    throw Error(key, "'" + dtype + "' is not one of float32, bfloat16, float16");
}

int checked_int(long long v, const std::string& key) {
    if (v > 2147483647LL) throw Error(key, "gives a width of " + std::to_string(v) + ", more than 2^31 - 1");
    return int(v);
}

RecurrentSpec read_mixer(const FamilyRow& row, Reader& f, int hidden) {
    RecurrentSpec r;
    switch (row.mixer) {
        case Mixer::none:
            break;
        case Mixer::mamba1: {
            // JambaConfig: d_inner = mamba_expand * hidden; mamba_dt_rank "auto" = ceil(hidden / 16).
            r.kind = RecurrentKind::mamba;
            r.d_inner = checked_int(f.integer("mamba_expand", 2) * hidden, f.key("mamba_expand"));
            r.d_state = int(f.integer("mamba_d_state", 16));
            r.d_conv = int(f.integer("mamba_d_conv", 4));
            const json* dt = f.find("mamba_dt_rank");
            r.dt_rank = dt && dt->is_number() ? int(f.integer("mamba_dt_rank", 0)) : (hidden + 15) / 16;
            r.conv_bias = f.boolean("mamba_conv_bias", true);
            r.proj_bias = f.boolean("mamba_proj_bias", false);
            break;
        }
        case Mixer::mamba2: {
            r.kind = RecurrentKind::mamba2;
            if (row.attn == Attn::nemotron) {
                // NemotronHConfig (legacy spellings popped in __post_init__: mamba_n_groups,
                // mamba_d_conv, mamba_conv_bias).
                r.n_heads = int(f.integer("mamba_num_heads", 128));
                r.head_dim = int(f.integer("mamba_head_dim", 64));
                r.d_state = int(f.integer("ssm_state_size", 128));
                r.n_groups = int(f.has("mamba_n_groups") ? f.integer("mamba_n_groups", 8) : f.integer("n_groups", 8));
                r.d_conv = int(f.has("mamba_d_conv") ? f.integer("mamba_d_conv", 4) : f.integer("conv_kernel", 4));
                r.conv_bias = f.has("mamba_conv_bias") ? f.boolean("mamba_conv_bias", true) : f.boolean("use_conv_bias", true);
                r.proj_bias = f.boolean("mamba_proj_bias", false);
                f.mark("expand");
                f.mark("mamba_expand");
                r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key("mamba_num_heads"));
                // mamba_ssm_cache_dtype defaults to "float32" in NemotronHConfig.
                r.state_bytes = state_bytes_of(f.text("mamba_ssm_cache_dtype", "float32"), f.key("mamba_ssm_cache_dtype"));
            } else {
                // GraniteMoeHybridConfig / FalconH1Config: d_inner = mamba_expand * hidden
                // (Falcon-H1: mamba_d_ssm when set); mamba_d_head "auto" = d_inner / mamba_n_heads.
                const long long expand = f.integer("mamba_expand", 2);
                long long d_inner = checked_int(expand * hidden, f.key("mamba_expand"));
                if (row.attn == Attn::falcon_h1 && f.has("mamba_d_ssm")) d_inner = f.integer("mamba_d_ssm", d_inner);
                r.n_heads = int(f.integer("mamba_n_heads", 128));
                if (r.n_heads <= 0) throw Error(f.key("mamba_n_heads"), "must be at least 1");
                const json* dh = f.find("mamba_d_head");
                r.head_dim = dh && dh->is_number() ? int(f.integer("mamba_d_head", 0)) : int(d_inner / r.n_heads);
                r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key("mamba_n_heads"));
                r.d_state = int(f.integer("mamba_d_state", 256));
                r.n_groups = int(f.integer("mamba_n_groups", 1));
                r.d_conv = int(f.integer("mamba_d_conv", 4));
                r.conv_bias = f.boolean("mamba_conv_bias", true);
                r.proj_bias = f.boolean("mamba_proj_bias", false);
                if (f.has("mamba_ssm_cache_dtype"))
                    r.state_bytes = state_bytes_of(f.text("mamba_ssm_cache_dtype", ""), f.key("mamba_ssm_cache_dtype"));
            }
            break;
        }
        case Mixer::gated_deltanet:
            // Qwen3NextConfig defaults: 16 key heads x 128, 32 value heads x 128, conv kernel 4.
            r.kind = RecurrentKind::gated_deltanet;
            r.n_k_heads = int(f.integer("linear_num_key_heads", 16));
            r.k_head_dim = int(f.integer("linear_key_head_dim", 128));
            r.n_heads = int(f.integer("linear_num_value_heads", 32));
            r.head_dim = int(f.integer("linear_value_head_dim", 128));
            r.d_conv = int(f.integer("linear_conv_kernel_dim", 4));
            r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key("linear_num_value_heads"));
            r.conv_bias = false;   // Qwen3NextGatedDeltaNet: nn.Conv1d(..., bias=False)
            if (f.has("mamba_ssm_cache_dtype"))
                r.state_bytes = state_bytes_of(f.text("mamba_ssm_cache_dtype", ""), f.key("mamba_ssm_cache_dtype"));
            break;
    }
    return r;
}

// The scalar knobs that best mirror the stack, for code still reading scalars.
void mirror_scalars(ModelArch& a, const std::vector<LayerSpec>& layers) {
    // Attention: the first full (else any) attention layer's heads.
    const LayerSpec* rep = nullptr;
    for (const LayerSpec& l : layers)
        if (l.attn.kind == AttnKind::full || l.attn.kind == AttnKind::mla) {
            rep = &l;
            break;
        }
    if (!rep)
        for (const LayerSpec& l : layers)
            if (l.attn.kind != AttnKind::none) {
                rep = &l;
                break;
            }
    if (rep) {
        a.n_heads = rep->attn.n_heads;
        a.n_kv_heads = rep->attn.n_kv_heads;
        a.head_dim = rep->attn.head_dim;
        a.v_head_dim = rep->attn.v_head_dim;
    }
    // Sliding window: the first sliding or chunked layer's (the stack says which layers).
    int window = 0;
    for (const LayerSpec& l : layers)
        if ((l.attn.kind == AttnKind::sliding || l.attn.kind == AttnKind::chunked) && !window) window = l.attn.window;
    a.sliding_window = window;
    // MLP: the first dense layer's width, the first MoE layer's experts.
    const LayerSpec* dense = nullptr;
    const LayerSpec* moe = nullptr;
    for (const LayerSpec& l : layers) {
        if (!dense && l.mlp.kind == LayerMlpKind::dense) dense = &l;
        if (!moe && l.mlp.kind == LayerMlpKind::moe) moe = &l;
    }
    if (dense) a.intermediate = dense->mlp.intermediate;
    if (moe) {
        a.n_routed_experts = moe->mlp.n_experts;
        a.experts_per_token = moe->mlp.experts_per_token;
        a.moe_intermediate = moe->mlp.expert_intermediate;
        a.n_shared_experts = moe->mlp.n_shared;
        a.shared_intermediate = moe->mlp.n_shared ? moe->mlp.shared_intermediate : 0;
        a.router_bias = moe->mlp.router_bias;
        if (!dense && a.intermediate == 0) a.intermediate = moe->mlp.expert_intermediate;
    } else {
        a.n_routed_experts = 0;
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Towers, MTP layers, per-layer embeddings
// ---------------------------------------------------------------------------------------------

// The first of `names` holding a whole number in [0, 1e9] (or a list whose first entry does:
// image_size [h, w]); anything else is skipped, never cast.
long long first_int(const json& j, std::initializer_list<const char*> names, long long fallback) {
    auto whole = [](const json& v, long long& out) {
        if (!v.is_number()) return false;
        const double d = v.get<double>();
        if (!(d >= 0 && d <= 1e9) || d != std::floor(d)) return false;
        out = (long long)d;
        return true;
    };
    for (const char* n : names) {
        auto it = j.find(n);
        if (it == j.end()) continue;
        long long v = 0;
        if (whole(*it, v)) return v;
        if (it->is_array() && !it->empty() && whole((*it)[0], v)) return v;
    }
    return fallback;
}

// A vision or audio encoder from its sub-config: layers, width, heads, patch and image size.
// The projector into the text model is counted as one linear map from the tower's output width
// (vision_output_dim / out_hidden_size / hidden) to the text width; families whose projector has
// more (Mistral 3's patch merger, Gemma 3's norm) are within its small size.
void read_tower(const json& cfg, const char* part, int text_hidden, ModelArch& a, std::vector<std::string>& notes) {
    TowerSpec t;
    t.part = part;
    t.n_layers = int(first_int(cfg, {"num_hidden_layers", "depth", "num_layers", "conf_num_hidden_layers", "encoder_layers"}, 0));
    t.hidden = int(first_int(cfg, {"hidden_size", "embed_dim", "d_model", "width"}, 0));
    t.intermediate = int(first_int(cfg, {"intermediate_size", "mlp_dim", "encoder_ffn_dim"}, 4LL * t.hidden));
    t.n_heads = int(first_int(cfg, {"num_attention_heads", "num_heads", "conf_num_attention_heads", "encoder_attention_heads"}, 0));
    t.patch_size = int(first_int(cfg, {"patch_size"}, 0));
    t.in_channels = int(first_int(cfg, {"num_channels", "in_channels", "in_chans"}, std::strcmp(part, "vision") == 0 ? 3 : 0));
    t.image_size = int(first_int(cfg, {"image_size"}, 0));
    const long long out = first_int(cfg, {"vision_output_dim", "out_hidden_size", "output_proj_dims"}, t.hidden);
    t.projector_params = double(out) * text_hidden;
    const std::string type = cfg.contains("model_type") && cfg["model_type"].is_string() ? cfg["model_type"].get<std::string>() : "";
    if (t.n_layers <= 0 || t.hidden <= 0) {
        notes.push_back(std::string(part) + "_config" + (type.empty() ? "" : " (" + type + ")") +
                        ": a tower without num_hidden_layers / hidden_size is not counted");
        return;
    }
    a.towers.push_back(t);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Native storage format
// ---------------------------------------------------------------------------------------------

void take_modules(const json& qc, const char* key, ModelArch& a) {
    auto it = qc.find(key);
    if (it == qc.end() || !it->is_array()) return;
    for (const json& m : *it)
        if (m.is_string()) a.native_unquantized_modules.push_back(m.get<std::string>());
}

// compressed-tensors: config_groups.<g>.weights {num_bits, type, group_size, strategy}.
void read_compressed_tensors(const json& qc, ModelArch& a, std::vector<std::string>* warnings) {
    take_modules(qc, "ignore", a);
    auto groups = qc.find("config_groups");
    if (groups == qc.end() || !groups->is_object() || groups->empty()) {
        if (warnings) warnings->push_back("hf_config.quantization_config: compressed-tensors without config_groups: format not recorded");
        return;
    }
    const json& g = groups->begin().value();
    const json w = g.is_object() && g.contains("weights") ? g["weights"] : json::object();
    const long long bits = first_int(w, {"num_bits"}, 0);
    const std::string type = w.contains("type") && w["type"].is_string() ? w["type"].get<std::string>() : "int";
    const long long group = first_int(w, {"group_size"}, 0);
    a.native_group_size = int(group);
    if (type == "float" && bits == 8) a.native_format = "fp8";
    else if (type == "float" && bits == 4) a.native_format = group == 16 ? "nvfp4" : "mxfp4";   // NVFP4: groups of 16, MXFP4: 32
    else if (type == "int" && bits == 8) a.native_format = "int8";
    else if (type == "int" && bits == 4) a.native_format = "int4";
    else if (warnings)
        warnings->push_back("hf_config.quantization_config: compressed-tensors " + type + " " + std::to_string(bits) +
                            "-bit weights are not a format gpusizer sizes");
    if (groups->size() > 1 && warnings)
        warnings->push_back("hf_config.quantization_config: " + std::to_string(groups->size()) +
                            " config_groups; the first one's scheme is recorded");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry point helpers
// ---------------------------------------------------------------------------------------------

const json* sub_object(const json& j, const std::string& path) {
    const json* cur = &j;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        auto it = cur->find(part);
        if (it == cur->end() || !it->is_object()) return nullptr;
        cur = &*it;
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return cur;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Native storage format (public)
// ---------------------------------------------------------------------------------------------

void read_native_format(const json& config, ModelArch& a, std::vector<std::string>* warnings) {
    for (const char* k : {"dtype", "torch_dtype"}) {
        auto it = config.find(k);
        if (it != config.end() && it->is_string()) {
            a.native_dtype = it->get<std::string>();
            break;
        }
    }
    auto qit = config.find("quantization_config");
    if (qit == config.end()) qit = config.find("compression_config");
    if (qit == config.end() || qit->is_null()) return;
    if (!qit->is_object()) throw Error("hf_config.quantization_config", "must be an object, got " + qit->dump());
    const json& qc = *qit;
    std::string method = qc.contains("quant_method") && qc["quant_method"].is_string() ? qc["quant_method"].get<std::string>() : "";
    if (method.empty() && qc.contains("config_groups")) method = "compressed-tensors";
    a.native_method = method;
    if (method == "mxfp4") {
        // gpt-oss: FP4 E2M1 in blocks of 32 with one E8M0 scale (OCP MX spec): 4.25 bits.
        a.native_format = "mxfp4";
        a.native_group_size = 32;
        take_modules(qc, "modules_to_not_convert", a);
    } else if (method == "fp8") {
        // DeepSeek / Qwen FP8: e4m3 with one scale per weight_block_size tile ([128, 128]).
        a.native_format = "fp8";
        auto b = qc.find("weight_block_size");
        if (b != qc.end() && b->is_array() && b->size() == 2) {
            const json rows_cols = {{"r", (*b)[0]}, {"c", (*b)[1]}};
            a.native_group_size = int(first_int(rows_cols, {"r"}, 0) * first_int(rows_cols, {"c"}, 0) <= (1LL << 30)
                                          ? first_int(rows_cols, {"r"}, 0) * first_int(rows_cols, {"c"}, 0) : 0);
        }
        take_modules(qc, "modules_to_not_convert", a);
    } else if (method == "compressed-tensors") {
        read_compressed_tensors(qc, a, warnings);
    } else if (method == "gptq" || method == "awq") {
        // AutoGPTQ / AutoAWQ: bits (AWQ also w_bit) with group_size (AWQ q_group_size).
        const long long bits = first_int(qc, {"bits", "w_bit"}, 4);
        a.native_group_size = int(first_int(qc, {"group_size", "q_group_size"}, 128));
        if (bits == 4) a.native_format = "int4";
        else if (bits == 8) a.native_format = "int8";
        else if (warnings)
            warnings->push_back("hf_config.quantization_config: " + method + " with " + std::to_string(bits) +
                                " bits is not a format gpusizer sizes");
        take_modules(qc, "modules_to_not_convert", a);
    } else if (method == "bitsandbytes") {
        const bool four = qc.value("load_in_4bit", false);
        const bool eight = qc.value("load_in_8bit", false);
        if (four) {
            // bnb_4bit_quant_type "nf4" or "fp4", blocks of 64 (bitsandbytes quantize_4bit).
            const std::string t = qc.contains("bnb_4bit_quant_type") && qc["bnb_4bit_quant_type"].is_string()
                                      ? qc["bnb_4bit_quant_type"].get<std::string>() : "fp4";
            a.native_format = t == "nf4" ? "nf4" : "fp4";
            a.native_group_size = 64;
            a.native_double_quant = qc.value("bnb_4bit_use_double_quant", false);
        } else if (eight) {
            a.native_format = "int8";
        }
        take_modules(qc, "llm_int8_skip_modules", a);
    } else if (method == "modelopt") {
        // NVIDIA ModelOpt: quant_algo "NVFP4" (groups of 16) or "FP8".
        const std::string algo = qc.contains("quant_algo") && qc["quant_algo"].is_string() ? qc["quant_algo"].get<std::string>() : "";
        if (algo == "NVFP4") {
            a.native_format = "nvfp4";
            a.native_group_size = int(first_int(qc, {"group_size"}, 16));
        } else if (algo == "FP8") {
            a.native_format = "fp8";
        } else if (warnings) {
            warnings->push_back("hf_config.quantization_config: modelopt quant_algo '" + algo + "' is not a format gpusizer sizes");
        }
        take_modules(qc, "exclude_modules", a);
    } else if (warnings) {
        warnings->push_back("hf_config.quantization_config: quant_method '" + method +
                            "' is not understood; the weights are sized from the chosen format only");
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry point
// ---------------------------------------------------------------------------------------------

bool hf_family_known(const std::string& model_type) {
    const FamilyRow* r = find_row(model_type);
    return r && !(r->traits & kTextOnly);
}

const std::vector<std::string>& hf_family_types() {
    static const std::vector<std::string> kTypes = [] {
        std::vector<std::string> v;
        for (const FamilyRow& r : rows())
            if (!(r.traits & kTextOnly)) v.push_back(r.type);
        return v;
    }();
    return kTypes;
}

ModelArch arch_from_hf_family(const json& root, std::vector<std::string>* warnings, std::vector<std::string>* not_understood) {
    std::vector<std::string> notes;   // become warnings
    const std::string top_type = root.at("model_type").get<std::string>();
    const FamilyRow* top = find_row(top_type);
    if (!top) throw Error("hf_config.model_type", "'" + top_type + "' has no row in the family table");

    // Where the language model lives, and which row reads it.
    const json* text = &root;
    std::string prefix = "hf_config.";
    const FamilyRow* row = top;
    if (*top->text_path) {
        text = sub_object(root, top->text_path);
        if (!text) {
            // Text-only copies ship the text fields at top level (Gemma3ForCausalLM & co).
            if (!root.contains("num_hidden_layers") && !root.contains("hybrid_override_pattern"))
                throw Error(std::string("hf_config.") + top->text_path,
                            "is missing: a " + top_type + " config keeps its language model there");
            text = &root;
        } else {
            prefix = std::string("hf_config.") + top->text_path + ".";
            std::string inner =
                text->contains("model_type") && (*text)["model_type"].is_string() ? (*text)["model_type"].get<std::string>() : "";
            row = find_row(inner.empty() ? top->text_type : inner);
            if (!row) {
                notes.push_back(std::string(top->text_path) + ".model_type '" + inner + "' is read as " + top->text_type);
                row = find_row(top->text_type);
            }
            if (!row) throw Error("hf_config.model_type", "internal: no row for " + std::string(top->text_type));
        }
    }
    Reader f(*text, prefix);
    f.mark("model_type");

    ModelArch a;
    a.id = "custom";
    a.model_type = top_type;
    a.kind = ArchKind::decoder;
    const unsigned tr = row->traits;
    a.norm = NormKind::rms;
    a.mlp = (tr & kPlainMlp) ? MlpKind::plain : MlpKind::gated;
    if (tr & kLayerNorm) a.norm = NormKind::layer;
    a.qk_norm = tr & kQkNorm;
    a.norms_per_layer = (tr & kNorms4) ? 4 : (tr & kNorms1) ? 1 : 2;

    int n_layers = int(f.integer(F::n_layers, 0, row->attn != Attn::nemotron));
    a.hidden = int(f.integer(F::hidden, 0, true));
    // vocab_size: the class default where this table knows it (transformers uses it silently; the
    // importer says so), else the key is required.
    if (const long long v = class_default(row->type, "vocab_size", 0); v > 0 && !f.find(F::vocab)) {
        a.vocab = v;
        notes.push_back("vocab_size is absent: the " + std::string(row->type) + " class default " + std::to_string(v) + " is used");
    } else {
        a.vocab = f.integer(F::vocab, 0, true);
    }
    a.max_context = int(f.integer(F::max_pos, 0));   // at most 2^31 - 1 (Reader)
    const int heads = int(f.integer(F::n_heads, 0, true));
    int kv_heads = int(f.integer(F::n_kv_heads, heads));
    if (kv_heads == 0) kv_heads = heads;
    int head_dim = heads > 0 ? a.hidden / heads : 0;
    if (tr & kHeadDimFromHidden) {
        f.mark("head_dim");   // Cohere2Config: head_dim = hidden_size // num_attention_heads, whatever is stored
    } else {
        head_dim = int(f.integer(F::head_dim, head_dim));
        if (head_dim == 0 && heads > 0) head_dim = a.hidden / heads;
    }

    // Tied embeddings: the text config's own key, else the wrapper's, else the class default.
    bool tie = tr & kTie;
    if (f.has("tie_word_embeddings")) tie = f.boolean("tie_word_embeddings", tie);
    else if (text != &root && root.contains("tie_word_embeddings") && root["tie_word_embeddings"].is_boolean())
        tie = root["tie_word_embeddings"].get<bool>();
    a.tied_embeddings = tie;

    // Biases.
    const bool attn_bias = f.boolean("attention_bias", tr & kAttnBias);
    a.qkv_bias = (tr & kQkvBiasAlways) || attn_bias;
    a.o_bias = attn_bias && !(tr & kBiasQkvOnly);
    if (f.has("attention_out_bias")) a.o_bias = f.boolean("attention_out_bias", a.o_bias);   // Seed-OSS
    // Some Hub configs (Qwen3-Coder) carry a qkv_bias key no transformers class reads: false
    // changes nothing; true is left to the not-understood warning.
    if (auto qb = text->find("qkv_bias"); qb != text->end() && qb->is_boolean() && !qb->get<bool>()) f.mark("qkv_bias");
    a.mlp_bias = f.boolean("mlp_bias", false);
    if (tr & kMlpBias) {
        const bool b = f.boolean("use_bias", false);   // ERNIE 4.5: every projection
        a.qkv_bias = a.qkv_bias || b;
        a.o_bias = a.o_bias || b;
        a.mlp_bias = a.mlp_bias || b;
    }
    if (row->attn == Attn::nemotron) {
        const bool b = f.boolean("use_bias", false);
        a.mlp_bias = a.mlp_bias || b;
    }
    if (f.has("use_qk_norm")) a.qk_norm = f.boolean("use_qk_norm", a.qk_norm) && !(row->attn == Attn::llama4);
    if (row->attn == Attn::llama4) f.mark("use_qk_norm");   // Llama 4: L2 norm without weights

    // Sliding window: Qwen2/Qwen3/SmolLM3 carry one that is off unless use_sliding_window.
    int window = row->window;
    if (f.has("sliding_window") || text->contains("sliding_window")) window = int(f.integer("sliding_window", 0));
    if (row->attn == Attn::max_window && !f.boolean("use_sliding_window", false)) window = 0;
    int chunk = 0;
    if (row->attn == Attn::llama4) chunk = text->contains("attention_chunk_size") ? int(f.integer("attention_chunk_size", 0)) : 8192;
    else if (f.has("attention_chunk_size")) chunk = int(f.integer("attention_chunk_size", 0));

    // Experts.
    long long experts = 0;
    if (row->moe != Moe::none) {
        // HunYuanMoEV1Config: num_experts "int or List" (one per layer); the layer pattern
        // reads the first, each layer its own below.
        experts = f.single_or_first(F::experts, row->moe == Moe::hunyuan ? 1 : 0);
        if (row->moe == Moe::gemma4 && !f.boolean("enable_moe_block", false)) experts = 0;
    }

    if (n_layers > 65535) throw Error(f.key("num_hidden_layers"), "must be at most 65535");
    std::vector<Plan> plan = attention_plan(*row, f, n_layers, window, notes);
    if (n_layers > 65535) throw Error(f.key("layers_block_type"), "must list at most 65535 layers");
    a.n_layers = n_layers;
    if (row->attn != Attn::nemotron) moe_plan(*row, f, plan, experts);
    if ((tr & kLastFull) && !plan.empty() && plan.back().attn == AttnKind::sliding) plan.back().attn = AttnKind::full;

    // KV-shared layers (Gemma 3n / 4): the last num_kv_shared_layers reuse the last earlier
    // layer of the same type (modeling_gemma3n.py kv_shared_layer_index) and cache nothing.
    if (tr & kKvShare) {
        // Class defaults: Gemma3nTextConfig 15 (E4B), Gemma4TextConfig 0.
        const long long shared = f.integer("num_kv_shared_layers", std::string(row->type).rfind("gemma3n", 0) == 0 ? 15 : 0);
        if (shared >= n_layers && shared > 0) throw Error(f.key("num_kv_shared_layers"), "must be smaller than num_hidden_layers");
        for (long long i = n_layers - shared; i < n_layers; ++i) plan[std::size_t(i)].kv_shared = true;
    }

    // Dimensions per kind.
    std::vector<long long> dense_widths;   // Gemma 3n: intermediate_size may be a per-layer list
    if (const json* iv = f.find("intermediate_size"); iv && iv->is_array()) dense_widths = f.integers("intermediate_size");
    const int dense_width = dense_widths.empty() ? int(f.integer(F::intermediate, 0)) : int(dense_widths.front());
    int dense_mlp = dense_width;
    if (row->attn == Attn::llama4) dense_mlp = int(f.integer("intermediate_size_mlp", 16384));
    if (row->moe == Moe::granite) dense_mlp = int(f.integer(F::shared_intermediate, 1024));
    int expert_width = int(f.single_or_first(F::moe_intermediate, 0));
    if (row->moe == Moe::all && expert_width == 0) expert_width = dense_width;   // gpt-oss, MiniMax-M2: intermediate_size per expert
    if (row->moe == Moe::llama4 || row->moe == Moe::jamba || row->moe == Moe::granite) expert_width = dense_width;
    if (row->moe == Moe::hunyuan && expert_width == 0) expert_width = dense_width;
    const int k_active = int(f.single_or_first(F::experts_per_tok, class_default(row->type, "num_experts_per_tok", 0)));
    int n_shared = 0, shared_width = 0;
    switch (row->moe) {
        case Moe::qwen_sparse:
            shared_width = int(f.integer(F::shared_intermediate, 0));
            n_shared = shared_width > 0 ? 1 : 0;   // Qwen2MoeSparseMoeBlock: one shared_expert + shared_expert_gate
            break;
        case Moe::first_k_dense:
        case Moe::ernie:
            // Ernie4_5_MoeConfig moe_num_shared_experts 2; DeepSeek / GLM classes n_shared_experts 1.
            n_shared = int(f.integer(F::shared_experts, row->moe == Moe::ernie ? 2 : class_default(row->type, "n_shared_experts", 0)));
            shared_width = expert_width;           // DeepSeek: n_shared x moe_intermediate_size
            break;
        case Moe::llama4:
            n_shared = 1;                           // Llama4TextMoe.shared_expert of intermediate_size
            shared_width = dense_width;
            break;
        case Moe::nemotron:
            n_shared = int(f.integer(F::shared_experts, 1));
            shared_width = int(f.integer(F::shared_intermediate, 7688));
            expert_width = int(f.integer(F::moe_intermediate, 7688));
            break;
        case Moe::gemma4:
            n_shared = 1;                           // the dense MLP runs beside the experts
            shared_width = dense_width;
            break;
        case Moe::granite:
            n_shared = 1;                           // shared_mlp beside block_sparse_moe
            shared_width = dense_mlp;
            break;
        case Moe::hunyuan:
            // modeling_hunyuan_v1_moe.py HunYuanMoEV1Moe: a shared_mlp of intermediate_size beside
            // the experts in every MoE layer, whatever use_mixed_mlp_moe says (read, not needed).
            f.boolean("use_mixed_mlp_moe", false);
            n_shared = int(f.single_or_first(F::shared_experts, 1));
            shared_width = dense_width;
            break;
        default:
            break;
    }
    const bool router_bias = (tr & kRouterBias) || (is_mla_row(*row) && f.text("topk_method", "") == "noaux_tc");

    // MLA and indexer.
    AttentionSpec mla;
    if (is_mla_row(*row)) {
        mla.kind = AttnKind::mla;
        mla.n_heads = heads;
        mla.n_kv_heads = kv_heads;
        // q_lora_rank null = queries not compressed (DeepSeek-V2-Lite); absent = the class default.
        mla.q_lora_rank = int(f.has("q_lora_rank") || !text->contains("q_lora_rank")
                                  ? f.integer("q_lora_rank", class_default(row->type, "q_lora_rank", 0)) : 0);
        f.mark("q_lora_rank");
        mla.kv_lora_rank = int(f.integer("kv_lora_rank", 512));
        mla.qk_rope_head_dim = int(f.integer("qk_rope_head_dim", 64));
        mla.qk_nope_head_dim = int(f.integer("qk_nope_head_dim", class_default(row->type, "qk_nope_head_dim", 128)));
        mla.v_head_dim = int(f.integer("v_head_dim", class_default(row->type, "v_head_dim", mla.qk_nope_head_dim)));
        mla.head_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim;
        f.mark("head_dim");   // MLA: q/k head = nope + rope
        if (row->attn == Attn::mla_indexer) {
            mla.index_n_heads = int(f.integer("index_n_heads", class_default(row->type, "index_n_heads", 64)));
            mla.index_head_dim = int(f.integer("index_head_dim", 128));
        }
    }

    // Gemma 4 full layers: global_head_dim (default 512) and, with attention_k_eq_v,
    // num_global_key_value_heads (Gemma4TextConfig.__post_init__ per_layer_config).
    int global_head_dim = head_dim, global_kv = kv_heads;
    bool global_k_eq_v = false;
    if (tr & kGlobalHeadDim) {
        global_head_dim = int(f.integer("global_head_dim", 512));
        const bool k_eq_v = f.boolean("attention_k_eq_v", false);
        if (k_eq_v && f.has("num_global_key_value_heads")) global_kv = int(f.integer("num_global_key_value_heads", kv_heads));
        else f.mark("num_global_key_value_heads");
        global_k_eq_v = k_eq_v;
    }
    // Qwen3-Next / Qwen3.5 full-attention layers: q_proj also produces the output gate
    // (attn_output_gate, default on in Qwen3_5TextConfig; Qwen3NextAttention always gates).
    const bool gated_query = (tr & kGatedQuery) && f.boolean("attn_output_gate", true);

    // GLM-5 indexer_types: "shared" layers reuse an earlier layer's top-k (GlmMoeDsaConfig,
    // from index_topk_pattern or index_topk_freq / index_skip_topk_offset). Whether they keep
    // indexer weights and keys is not modelled: every DSA layer is counted with its indexer.
    if (row->attn == Attn::mla_indexer) {
        int shared_idx = 0;
        if (f.has("indexer_types")) {
            for (const auto& t : f.strings("indexer_types")) shared_idx += t == "shared";
        } else if (f.has("index_topk_pattern")) {
            for (char c : f.text("index_topk_pattern", "")) shared_idx += c == 'S';
        } else {
            const long long freq = std::max(1LL, f.integer("index_topk_freq", 1));
            const long long offset = f.integer("index_skip_topk_offset", 2);
            for (long long i = 0; i < n_layers; ++i) shared_idx += std::max(i - offset + 1, 0LL) % freq != 0;
        }
        if (shared_idx)
            notes.push_back("indexer_types: " + std::to_string(shared_idx) +
                            " layers reuse an earlier layer's top-k; their indexer weights and keys are still counted");
    }

    RecurrentSpec mixer = read_mixer(*row, f, a.hidden);

    const int n_plan = int(plan.size());
    const std::vector<long long> experts_v = f.per_layer(F::experts, n_plan), k_v = f.per_layer(F::experts_per_tok, n_plan),
                                 width_v = f.per_layer(F::moe_intermediate, n_plan), shared_v = f.per_layer(F::shared_experts, n_plan);
    auto at_layer = [](const std::vector<long long>& v, std::size_t i, int single) { return v.empty() ? single : int(v[i]); };

    std::vector<LayerSpec> layers;
    layers.reserve(plan.size());
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const Plan& p = plan[i];
        LayerSpec l;
        l.norms = a.norms_per_layer;
        AttentionSpec& at = l.attn;
        if (p.attn == AttnKind::mla) {
            at = mla;
            if (!p.indexer) at.index_n_heads = at.index_head_dim = 0;
        } else {
            at.kind = p.attn;
            at.n_heads = heads;
            at.n_kv_heads = kv_heads;
            at.head_dim = at.v_head_dim = head_dim;
            if (p.attn == AttnKind::full && (tr & kGlobalHeadDim)) {
                at.head_dim = at.v_head_dim = global_head_dim;
                at.n_kv_heads = global_kv;
                at.k_eq_v = global_k_eq_v;
            }
            at.gated_query = gated_query && p.attn == AttnKind::full;
            if (p.attn == AttnKind::sliding) {
                at.window = window;
                if (window <= 0) {
                    at.kind = AttnKind::full;   // a sliding layer without a window attends to everything
                    notes.push_back("layer " + std::to_string(i) +
                                    " is sliding_attention but sliding_window is not set: read as full attention");
                }
            }
            if (p.attn == AttnKind::chunked) {
                at.window = chunk;
                if (chunk <= 0) at.kind = AttnKind::full;   // attention_chunk_size null: no chunking
            }
            if (p.attn == AttnKind::none) at.n_heads = at.n_kv_heads = at.head_dim = at.v_head_dim = 0;
        }
        at.kv_shared = p.kv_shared && at.kind != AttnKind::none;
        if (p.recurrent) l.recurrent = mixer;
        l.mlp.kind = p.mlp;
        if (p.mlp == LayerMlpKind::dense) {
            l.mlp.intermediate = dense_widths.empty() ? dense_mlp : int(dense_widths[std::min(i, dense_widths.size() - 1)]);
            if (row->moe == Moe::jamba || row->moe == Moe::hunyuan) l.mlp.intermediate = dense_width;
        } else if (p.mlp == LayerMlpKind::moe) {
            l.mlp.n_experts = at_layer(experts_v, i, int(experts));
            l.mlp.experts_per_token = at_layer(k_v, i, k_active);
            l.mlp.expert_intermediate = at_layer(width_v, i, expert_width);
            l.mlp.n_shared = n_shared ? at_layer(shared_v, i, n_shared) : 0;
            l.mlp.shared_intermediate = l.mlp.n_shared ? shared_width : 0;
            l.mlp.router_bias = router_bias;
            l.mlp.expert_bias = tr & kExpertBias;
        }
        layers.push_back(l);
    }
    if (!dense_widths.empty() && dense_widths.size() != plan.size())
        throw Error(f.key("intermediate_size"), "has " + std::to_string(dense_widths.size()) + " entries for " +
                                                   std::to_string(plan.size()) + " layers");
    set_stack(a, layers);
    mirror_scalars(a, layers);
    if (is_mla_row(*row)) {
        a.mla = true;
        a.q_lora_rank = mla.q_lora_rank;
        a.kv_lora_rank = mla.kv_lora_rank;
        a.qk_rope_head_dim = mla.qk_rope_head_dim;
        a.qk_nope_head_dim = mla.qk_nope_head_dim;
    }
    if (a.n_heads == 0) {   // no attention layer at all (a pure Mamba stack)
        a.n_heads = heads;
        a.n_kv_heads = kv_heads;
        a.head_dim = a.v_head_dim = head_dim;
    }
    if (a.intermediate == 0) a.intermediate = dense_width > 0 ? dense_width : dense_mlp;

    // Multi-token-prediction layers: stored in the checkpoint, outside num_hidden_layers.
    a.n_mtp_layers = int(f.integer(F::mtp_layers, 0));

    // Per-layer input embeddings (Gemma 3n / 4): one table of vocab_size_per_layer_input x
    // (num_hidden_layers x hidden_size_per_layer_input) (Gemma4TextConfig docstring).
    if (tr & kPle) {
        const long long ple_vocab = f.integer("vocab_size_per_layer_input", 262144);
        const long long ple_dim = f.integer("hidden_size_per_layer_input", 256);
        a.per_layer_embedding_params = double(ple_vocab) * double(n_layers) * double(ple_dim);
    }

    // Towers: vision_config / audio_config beside text_config (thinker_config for omni models).
    const json* tower_root = &root;
    if (std::string(top->text_path) == "thinker_config.text_config") tower_root = sub_object(root, "thinker_config");
    if (tower_root && text != &root) {
        for (const char* part : {"vision", "audio"}) {
            const std::string k = std::string(part) + "_config";
            auto it = tower_root->find(k);
            if (it != tower_root->end() && it->is_object()) read_tower(*it, part, a.hidden, a, notes);
        }
    }
    if (top_type == "qwen3_omni_moe" && root.contains("talker_config"))
        notes.push_back("talker_config / code2wav_config: the speech generator's weights are not counted");

    a.num_parameters_override = 0;
    if (const json* np = f.find("num_parameters")) {
        if (!np->is_number() || !(np->get<double>() > 0) || !std::isfinite(np->get<double>()))
            throw Error(f.key("num_parameters"), "must be a positive number");
        a.num_parameters_override = np->get<double>();
    }
    read_native_format(root, a, warnings);

    // Known effects on memory that the stack does not describe.
    if (tr & kPle)
        for (const char* k : {"altup_num_inputs", "laurel_rank", "altup_active_idx", "altup_coef_clip", "altup_correct_scale",
                              "activation_sparsity_pattern"})
            if (f.has(k)) {
                f.mark(k);
                notes.push_back(std::string(k) + ": AltUp / LAuReL / per-layer projection tensors are not counted");
                break;
            }
    if (row->moe == Moe::nemotron && f.has("moe_latent_size"))
        notes.push_back("moe_latent_size: experts working in a latent width are counted at hidden width");
    else f.mark("moe_latent_size");

    if (warnings || not_understood) {
        if (warnings)
            for (const auto& n : notes) warnings->push_back("hf_config: " + n);
        std::set<std::string> extra = words(row->irrelevant);
        for (const auto& w : words(top->irrelevant)) extra.insert(w);
        std::vector<std::string> ignored = f.unread(extra);
        if (text != &root) {
            Reader outer(root, "hf_config.");
            for (const char* k : {"text_config", "vision_config", "audio_config", "thinker_config", "model_type",
                                  "tie_word_embeddings", "talker_config", "code2wav_config"})
                outer.mark(k);
            for (const auto& k : outer.unread(extra)) ignored.push_back(k);
        }
        if (not_understood) not_understood->insert(not_understood->end(), ignored.begin(), ignored.end());
        if (!ignored.empty() && warnings) warnings->push_back("hf_config: not understood, ignored: " + join(ignored));
    }
    validate(a);
    return a;
}

}  // namespace gpusizer
