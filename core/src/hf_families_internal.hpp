// hf_families_internal.hpp (internal): what the parts of the table-driven Hugging Face importer
// share: the field enum and the recording reader (hf_reader.cpp), the family row's schema and the
// tables (hf_rows.cpp), the layer plan, its expanders and the stack builders (hf_stack.cpp). The
// entry point (hf_families.cpp) and quantization_config (hf_quantization.cpp) build on them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/model.hpp"

namespace gpusizer::hf {

using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Field aliases (hf_rows.cpp)
// ---------------------------------------------------------------------------------------------

enum class F {
    n_layers, hidden, n_heads, n_kv_heads, head_dim, intermediate, vocab, max_pos,
    experts, experts_per_tok, moe_intermediate, shared_experts, shared_intermediate, mtp_layers, dtype,
};

// The spellings of `f`, in the order they are tried (transformers' `attribute_map`, reversed).
const std::vector<const char*>& spellings(F f);

// Keys no family's memory depends on; anything else left unread is named in a warning.
bool irrelevant_everywhere(std::string_view key);

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading a config object (hf_reader.cpp)
// ---------------------------------------------------------------------------------------------

// One config object (the top level or a text_config), read through checked accessors that
// record which keys were read; errors name the key with its prefix.
class Reader {
public:
    Reader(const json& j, std::string prefix) : j_(j), prefix_(std::move(prefix)) {}

    const json& object() const { return j_; }
    std::string key(const std::string& k) const { return prefix_ + k; }

    // The value of `k` (marked read), or null when absent or JSON null.
    const json* find(const char* k);
    bool has(const char* k) const;
    // The first spelling of `f` present, and which it was.
    // Every spelling present is marked read (gpt-oss writes num_experts_per_tok and
    // experts_per_token with the same value).
    const json* find(F f, const char** which = nullptr);

    // Sizes, counts and indices: whole numbers up to 2^24 (16,777,216, above any width or head
    // count in use), so that products of two of them stay exact in 64 bits; vocabularies and
    // context lengths up to 2^31 - 1.
    static constexpr long long kMaxDim = 1LL << 24;
    static constexpr long long kMaxLarge = 2147483647LL;

    long long integer(const char* k, long long fallback, long long max = kMaxDim) { return as_integer(find(k), k, fallback, max); }
    long long integer(F f, long long fallback, bool required = false);
    bool boolean(const char* k, bool fallback);
    std::string text(const char* k, const std::string& fallback);
    std::vector<long long> integers(const char* k);
    std::vector<std::string> strings(const char* k);
    void mark(const char* k) { used_.insert(k); }

    // HunYuan writes some MoE fields as one value per layer (moe_intermediate_size, moe_topk,
    // num_shared_expert): the list, checked to have n entries, or empty for a single value.
    // With modality lists allowed (rows read by their fields), a list of 2 or 3 entries that is
    // not one per layer is one value per modality (ERNIE-4.5-VL): empty here, the first entry
    // in single_or_first.
    std::vector<long long> per_layer(F f, int n);
    bool modality_lists = false;
    // A field that may be such a list: its single value, or the list's first entry.
    long long single_or_first(F f, long long fallback);

    // Keys neither read nor known not to change memory.
    std::vector<std::string> unread(const std::set<std::string>& also_irrelevant) const;

private:
    long long as_integer(const json* v, const char* k, long long fallback, long long max) const;

    const json& j_;
    std::string prefix_;   // "hf_config." or "hf_config.text_config."
    std::set<std::string> used_;
};

// The first of `names` holding a whole number in [0, 1e9] (or a list whose first entry does);
// anything else is skipped, never cast. For sub-configs read leniently (towers,
// quantization_config).
long long first_int(const json& j, std::initializer_list<const char*> names, long long fallback);

// ---------------------------------------------------------------------------------------------
// [SECTION] Family rows (hf_rows.cpp)
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
    indices,          // attention in the layers attn_layer_indices lists, the row's mixer elsewhere (Bamba)
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
    fields,        // read by its fields (hf_infer.cpp): explicit lists, first-k dense, a step or a
                   // frequency, else every layer; shared experts when a count or a width is given
};

// lightning: MiniMax's linear attention over the attention heads; short_conv: LFM2's gated
// convolution; rwkv: RWKV-4 time mixing.
enum class Mixer : std::uint8_t { none, mamba1, mamba2, gated_deltanet, lightning, short_conv, rwkv };

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
    kMlpBiasAlways = 1u << 20, // biases on the MLP projections whatever the config says (GPT-2, GPT-NeoX, BLOOM)
    kFfn4x = 1u << 21,         // the MLP width defaults to 4 x hidden when no key gives it (GPT-2 n_inner null, BLOOM)
    kLearnedPositions = 1u << 22,  // a learned absolute position table of max_position_embeddings rows (GPT-2)
    kEmbeddingNorm = 1u << 23, // a LayerNorm right after the token embedding (BLOOM word_embeddings_layernorm)
    kArchKeysOnly = 1u << 24,  // unread keys are named only when they look architectural (older families' configs
                               // carry many bookkeeping keys; rows read by their fields)
    kActiveNoInputEmbedding = 1u << 25,  // the publisher's "active" count leaves out the input embedding (gpt-oss)
    kActiveNoEmbeddings = 1u << 26,      // ... and the output head too (GLM-4.5, MiniMax-M2, Qwen3-Next)
    kNoMlp = 1u << 27,         // layers carry no MLP (MambaForCausalLM: the mixer is the whole block)
};

// What every decoder row reads before its stack is built; a row's `adjust` hook changes it where
// the family's class says what its fields do not (Falcon's multi-query flag, OPT's bias switch).
struct Dims {
    int heads = 0;        // query heads
    int kv_heads = 0;     // key/value heads
    int head_dim = 0;     // per-head width
    int dense_width = 0;  // the dense MLP width when no key gives it (0 = none)
    bool dense_width_replaces = false;     // ... even when intermediate_size gives one (LFM2's auto-adjusted width)
    std::vector<long long> dense_widths;   // ... one per layer (OpenELM ffn_multipliers)
};

// A family's own reading beside the shared one (hf_family_hooks.cpp):
//   adjust  decoders: called after the common fields, before the layer plan
//   build   encoders and encoder-decoders (BERT, T5): the whole architecture, stack included
using AdjustFn = void (*)(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes);
using BuildFn = void (*)(Reader& f, ModelArch& a, std::vector<std::string>& notes);

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
    // (Each row's comment in hf_rows.cpp names the transformers files checked: defaults, derivations.)
    AdjustFn adjust = nullptr;
    BuildFn build = nullptr;
};

// The rows, one per model_type (kTextOnly rows are read only inside a wrapper).
const std::vector<FamilyRow>& rows();
// The class default of `key` for `type` where the families differ, else `fallback`.
long long class_default(const std::string& type, const char* key, long long fallback);
// The row of `type`, or null.
const FamilyRow* find_row(const std::string& type);

inline bool is_mla_row(const FamilyRow& r) { return r.attn == Attn::mla || r.attn == Attn::mla_indexer; }

// ---------------------------------------------------------------------------------------------
// [SECTION] Layer-pattern expanders (hf_stack.cpp)
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

// The attention (and mixer) pattern. `layer_types` wins when present, as in every config class;
// else the row's expander rebuilds it. Nemotron-H's pattern may change `n_layers`; facts that
// are assumed go to `notes`.
std::vector<Plan> attention_plan(const FamilyRow& row, Reader& f, int& n_layers, int window,
                                 std::vector<std::string>& notes);
// Which layers are MoE (the attention plan is already set).
void moe_plan(const FamilyRow& row, Reader& f, std::vector<Plan>& plan, long long experts);

// ---------------------------------------------------------------------------------------------
// [SECTION] Building the stack, towers (hf_stack.cpp)
// ---------------------------------------------------------------------------------------------

// The row's recurrent mixer (Mamba, Mamba-2, Gated DeltaNet) with its class defaults.
RecurrentSpec read_mixer(const FamilyRow& row, Reader& f, int hidden);
// The scalar knobs that best mirror the stack, for code still reading scalars.
void mirror_scalars(ModelArch& a, const std::vector<LayerSpec>& layers);
// A vision or audio encoder from its sub-config into a.towers (or a note why it is not counted).
void read_tower(const json& cfg, const char* part, int text_hidden, ModelArch& a, std::vector<std::string>& notes);

// ---------------------------------------------------------------------------------------------
// [SECTION] Family hooks (hf_family_hooks.cpp)
// ---------------------------------------------------------------------------------------------

void adjust_opt(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes);
void adjust_falcon(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes);
void adjust_gpt_bigcode(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes);
void adjust_chatglm(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes);
void adjust_bitnet(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes);
void build_bert(Reader& f, ModelArch& a, std::vector<std::string>& notes);
void build_t5(Reader& f, ModelArch& a, std::vector<std::string>& notes);

// ---------------------------------------------------------------------------------------------
// [SECTION] Rows read by their fields (hf_infer.cpp)
// ---------------------------------------------------------------------------------------------

// The row built for a model_type that has none: its strings live here.
struct InferredRow {
    FamilyRow row{};
    std::string type;
    std::string understood;   // the keys the inference read (the row's `irrelevant` list)
};

// Does the object name a layer count (any spelling, or a per-layer list that implies one)?
bool has_layer_count(const json& j);
// The text object with the keys of its attn_config / ffn_config / moe_config sub-objects merged
// in where the top level lacks them (DBRX, MPT).
json flattened_text(const json& text);
// The row for a model_type no row names, from the fields present: attention layout, MoE,
// recurrent mixer, MLP and norm kinds, biases. Throws naming every missing core field.
const FamilyRow& infer_row(Reader& f, const std::string& model_type, InferredRow& out, std::vector<std::string>& notes);
// The adjustments of a row read by its fields (biases, tying, widths as ratios, multi-query).
void adjust_by_fields(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes);
inline bool read_by_fields(const FamilyRow& r) { return r.adjust == adjust_by_fields; }
// A config key whose name says it shapes the network (unread ones are named in a warning).
bool looks_architectural(const std::string& key);
// An encoder-decoder under the BART family's names (encoder_layers, decoder_layers, d_model).
void build_seq2seq(Reader& f, ModelArch& a, std::vector<std::string>& notes);
// Moe::fields: which layers carry experts, by the fields that say so.
void fields_moe_plan(Reader& f, std::vector<Plan>& plan, long long experts);
// Experts of other modalities (a per-modality expert list) as a vision tower of their count.
void modality_experts(Reader& f, const std::vector<LayerSpec>& layers, ModelArch& a, std::vector<std::string>& notes);
// mamba_ssm's ssm_cfg (Mamba / Mamba2 with that package's defaults).
RecurrentSpec read_mamba_ssm(const FamilyRow& row, Reader& f, int hidden);
// DeciLM / Nemotron-NAS `block_configs`: per-layer attention and MLP replacements.
void apply_block_configs(Reader& f, int hidden, int heads, std::vector<LayerSpec>& layers, std::vector<std::string>& notes);

}  // namespace gpusizer::hf
