// gpusizer/model.hpp: a model's architecture and the parameter counts derived from it.
//
// [SECTION] Layer kinds: what one layer of the stack is (attention, recurrent mixer, MLP)
// [SECTION] ModelArch: global fields and the stack of layers
// [SECTION] Parameter counts by tensor class, per layer and in total
//
// A model is a stack of layers. Each layer is described by a LayerSpec (its attention kind,
// heads and head dims, its recurrent mixer if any, its MLP kind and widths); a model has a few
// distinct LayerSpecs (`kinds`) and a per-layer index into them (`layer_kind`), as llama.cpp's
// per-layer hyperparameter arrays (src/llama-hparams.h: n_head_kv_arr, swa_layers,
// recurrent_layer_arr) and transformers' `layer_types` do. Importers expand a family's pattern
// fields (every n-th layer full, first k dense, mlp_only_layers, ...) into this stack once;
// formulas then read the LayerSpec in hand and never the family.
//
// Counts are derived from the architecture alone (never looked up): embeddings, tied or
// untied head, attention (MHA / GQA / MQA / DeepSeek MLA), gated or plain MLPs, norms and
// biases, MoE with routed and shared experts and dense-first layers, encoder-decoder stacks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] Layer kinds
// ---------------------------------------------------------------------------------------------

// How a layer attends. The cache each kind keeps per sequence (T tokens):
//   full      K and V of every token: grows with T
//   sliding   K and V of the last `window` tokens (Mistral, Gemma 2/3, gpt-oss): min(T, W)
//   chunked   K and V since the start of the current chunk of `window` tokens (Llama 4's
//             local layers; llama.cpp LLAMA_SWA_TYPE_CHUNKED): at most C
//   mla       DeepSeek multi-head latent attention: the latent and the shared rope key in
//             absorbing engines (vLLM, SGLang, llama.cpp), full per-head K/V in transformers
//   none      no attention in this layer (a pure recurrent or MLP-only layer)
enum class AttnKind : std::uint8_t { none, full, sliding, chunked, mla };

// A layer's recurrent token mixer, which keeps a fixed-size state per sequence whatever T is.
//   mamba           Mamba-1 selective SSM (Jamba)
//   mamba2          Mamba-2 SSD (Granite 4.0-H, Nemotron-H, Falcon-H1, Zamba2)
//   gated_deltanet  Gated DeltaNet linear attention (Qwen3-Next, Qwen3.5)
//   lightning       Lightning (linear) attention (MiniMax-01 family)
//   short_conv      a gated short convolution (LFM2 "conv" layers: d_conv - 1 past tokens)
//   rwkv            RWKV-4 time mixing (transformers RwkvSelfAttention)
enum class RecurrentKind : std::uint8_t { none, mamba, mamba2, gated_deltanet, lightning, short_conv, rwkv };

enum class LayerMlpKind : std::uint8_t { none, dense, moe };

struct AttentionSpec {
    AttnKind kind = AttnKind::full;
    int window = 0;              // sliding: window W; chunked: chunk size C (tokens)
    int n_heads = 0;             // query heads
    int n_kv_heads = 0;          // key/value heads (== n_heads for MHA, 1 for MQA)
    int head_dim = 0;            // query/key head size (MLA: qk_nope + qk_rope)
    int v_head_dim = 0;          // value head size
    bool kv_shared = false;      // reuses an earlier layer's K/V (Gemma 3n / 4): no cache of its own
    bool gated_query = false;    // q_proj also outputs a per-head output gate, 2x the query width
                                 // (Qwen3-Next / Qwen3.5 full layers, attn_output_gate)
    bool k_eq_v = false;         // the key projection serves as value: no v_proj (Gemma 4 full
                                 // layers, attention_k_eq_v); the cache still keeps K and V
    // Multi-head latent attention (kind == mla); q_lora_rank 0 = queries not compressed. Other
    // kinds may compress the query too (DeepSeek-V4: q_a h -> r, norm, q_b r -> heads x dim).
    int q_lora_rank = 0;
    // A low-rank output projection in o_groups groups (DeepSeek-V4 o_lora_rank, o_groups): per
    // group (heads x v_dim / g) -> r, then g x r -> hidden; 0 = a full o_proj.
    int o_lora_rank = 0;
    int o_groups = 1;
    int kv_lora_rank = 0;
    int qk_rope_head_dim = 0;
    int qk_nope_head_dim = 0;
    // Sparse-attention indexer (DeepSeek V3.2 DSA, GLM-5): extra cached keys per token.
    int index_n_heads = 0;       // 0 = no indexer
    int index_head_dim = 0;
};

// Dimensions of a recurrent mixer. Which fields a kind reads is documented at its parameter and
// state formulas in model.cpp (one function per kind).
struct RecurrentSpec {
    RecurrentKind kind = RecurrentKind::none;
    int d_inner = 0;             // inner width (Mamba: expand x hidden; Mamba-2: n_heads x head_dim;
                                 // short_conv: hidden; RWKV: attention_hidden_size)
    int d_state = 0;             // SSM state size per channel (Mamba) or per head (Mamba-2)
    int d_conv = 0;              // causal conv kernel width
    int n_groups = 0;            // Mamba-2 B/C groups
    int n_heads = 0;             // Mamba-2 heads; Gated DeltaNet value heads
    int head_dim = 0;            // Mamba-2 head dim; Gated DeltaNet value head dim
    int n_k_heads = 0;           // Gated DeltaNet key heads
    int k_head_dim = 0;          // Gated DeltaNet key head dim
    int dt_rank = 0;             // Mamba-1 dt projection rank
    bool conv_bias = true;
    bool proj_bias = false;      // in/out projection biases
    int state_bytes = 0;         // bytes per state element when the config fixes it
                                 // (mamba_ssm_cache_dtype); 0 = the cache's dtype
};

struct LayerMlpSpec {
    LayerMlpKind kind = LayerMlpKind::dense;
    int intermediate = 0;        // dense: inner width
    int n_experts = 0;           // moe: routed experts
    int experts_per_token = 0;   // moe: k active routed experts
    int expert_intermediate = 0; // moe: one routed expert's inner width
    int n_shared = 0;            // moe: always-on shared experts
    int shared_intermediate = 0; // moe: one shared expert's inner width
    bool router_bias = false;    // per-expert score correction bias (DeepSeek-V3 noaux_tc)
    bool expert_bias = false;    // biases on expert projections (gpt-oss)
};

struct LayerSpec {
    AttentionSpec attn;
    RecurrentSpec recurrent;     // kind none for attention-only layers; Falcon-H1 has both
    LayerMlpSpec mlp;
    // A hidden x hidden linear map in place of the attention (DeciLM / Nemotron-NAS block_configs
    // replace_with_linear), and in place of the MLP: weights, no cache.
    bool attn_linear = false;
    bool mlp_linear = false;
    bool cross_attention = false;   // encoder-decoder decoder layers (also cache the encoder's K/V)
    bool encoder = false;           // a bidirectional encoder layer: keeps no cache while generating
    int norms = 2;                  // norm tensors of width hidden (Gemma 2/3: 4)

    bool has_kv() const { return attn.kind != AttnKind::none && !attn.kv_shared && !encoder; }
    bool is_moe() const { return mlp.kind == LayerMlpKind::moe; }
    bool is_recurrent() const { return recurrent.kind != RecurrentKind::none; }
};

// A tower outside the text stack whose weights are loaded with the model (vision or audio
// encoder and its projector): reported apart, in model.params_by_part.
struct TowerSpec {
    std::string part;            // "vision" or "audio"
    int n_layers = 0;
    int hidden = 0;
    int intermediate = 0;
    int n_heads = 0;
    int patch_size = 0;          // vision: patch edge in pixels
    int in_channels = 0;         // vision: 3
    int image_size = 0;          // vision: learned position table = (image/patch)^2
    double projector_params = 0; // the projector into the text model's width
    double params_override = 0;  // a published count used when the layout is not modelled
};

// ---------------------------------------------------------------------------------------------
// [SECTION] ModelArch
// ---------------------------------------------------------------------------------------------

enum class ArchKind { decoder, encoder, encoder_decoder };
// What a mixture-of-experts publisher counts as "active" (ParamCounts::active): everything a
// token passes through, embedding and head included (Mixtral's "12.9B", Qwen3-30B-A3B's
// "3.3B"); without the input embedding, a lookup rather than a matmul (OpenAI's gpt-oss
// "5.1B"); without embedding and head (Z.ai's GLM-4.5 "32B", MiniMax-M2 "10B").
enum class ActiveConvention { all, no_input_embedding, no_embeddings };
std::string_view to_string(ActiveConvention c);   // "all", "no_input_embedding", "no_embeddings"
enum class MlpKind { gated, plain };      // gated: gate+up+down (SwiGLU/GeGLU); plain: fc1+fc2
enum class NormKind { rms, layer };       // rms: weight only; layer: weight and bias

struct ModelArch {
    std::string id;            // catalog id, or "custom"
    std::string name;          // display name
    std::string model_type;    // Hugging Face model_type it was read from
    ArchKind kind = ArchKind::decoder;

    int n_layers = 0;          // decoder layers; for encoder_decoder: encoder layers
    int n_decoder_layers = 0;  // encoder_decoder only
    int hidden = 0;            // d_model
    int intermediate = 0;      // dense MLP inner size
    MlpKind mlp = MlpKind::gated;
    int n_heads = 0;           // query heads
    int n_kv_heads = 0;        // key/value heads (== n_heads for MHA, 1 for MQA)
    int head_dim = 0;          // query/key head size
    int v_head_dim = 0;        // value head size (== head_dim except MLA)
    std::int64_t vocab = 0;
    bool tied_embeddings = false;

    std::int64_t learned_positions = 0;  // rows of a learned absolute position table (0 = RoPE/ALiBi)
    std::int64_t token_types = 0;        // BERT segment embeddings
    NormKind norm = NormKind::rms;
    int norms_per_layer = 2;             // Gemma 2 has 4 (pre/post attention and MLP)
    bool embedding_norm = false;         // a norm right after the embedding (BLOOM, BERT)
    bool final_norm = true;
    bool qkv_bias = false;               // bias on q/k/v projections (Qwen2, GPT-2, BLOOM, ...)
    bool o_bias = false;                 // bias on the attention output projection
    bool mlp_bias = false;               // bias on MLP projections
    bool qk_norm = false;                // per-head RMSNorm on q and k (Qwen3)
    bool pooler = false;                 // BERT pooler (hidden x hidden + bias)
    int relative_attention_buckets = 0;  // T5 relative position bias (first layer of each stack)
    bool dropout = false;                // activations keep dropout masks in training (GPT-3 style)

    // Sliding-window attention window (tokens). Which layers slide is the stack's business; a
    // model described by its global fields alone slides in every layer (Mistral 7B v0.1).
    int sliding_window = 0;

    // DeepSeek multi-head latent attention (q_lora_rank 0 = queries not compressed).
    bool mla = false;
    int q_lora_rank = 0;
    int kv_lora_rank = 0;
    int qk_rope_head_dim = 0;
    int qk_nope_head_dim = 0;

    // Mixture of experts, as the config states it (which layers are MoE is the stack's business).
    int n_routed_experts = 0;
    int n_shared_experts = 0;
    int experts_per_token = 0;
    int moe_intermediate = 0;            // one routed expert's inner size
    int shared_intermediate = 0;         // one shared expert's inner size (defaults to moe_intermediate)
    bool router_bias = false;            // per-expert score correction bias (DeepSeek-V3)
    // Group-limited routing (DeepSeek-V2/V3 n_group, topk_group): the routed experts form
    // expert_groups groups, and a token picks its experts within its best expert_groups_per_token
    // of them; DeepSeek-V3 places one group per node, so a token reaches at most 4 of 8 nodes
    // (0 = no limit).
    int expert_groups = 0;
    int expert_groups_per_token = 0;

    ActiveConvention active_convention = ActiveConvention::all;   // the publisher's "active" (MoE only)
    int max_context = 0;                 // trained maximum context, tokens (0 = unknown)
    double num_parameters_override = 0;  // user override of the derived total (hf_config.num_parameters)

    // The stack (see the file header). Importers always build it; an architecture filled in by
    // code without one is read as uniform_stack() (count_params and resolve do that).
    std::vector<LayerSpec> kinds;            // distinct layer shapes, at most kMaxLayerKinds
    std::vector<std::uint16_t> layer_kind;   // per layer: index into kinds (encoder layers first)
    int n_mtp_layers = 0;                    // multi-token-prediction layers, stored outside the stack
    int mtp_kind = -1;                       // their shape (index into kinds; -1 = like the last layer)
    double per_layer_embedding_params = 0;   // Gemma 3n per-layer input embeddings (all layers)
    std::vector<TowerSpec> towers;           // vision / audio encoders loaded with the model

    // The checkpoint's own storage, from config.json `dtype` / `torch_dtype` and
    // `quantization_config` (hf_quantization.cpp read_native_format). Recorded, not yet used by the
    // estimate: the user's `weights` format still sizes every tensor.
    std::string native_dtype;                // "bfloat16", "float16", ... ("" = not stated)
    std::string native_format;               // a weights id when quantized: "mxfp4", "nvfp4", "fp8",
                                             // "int8", "int4", "nf4", "fp4" ("" = native_dtype)
    std::string native_method;               // quant_method as written: "mxfp4", "fp8", "gptq", "awq",
                                             // "bitsandbytes", "compressed-tensors", "modelopt"
    int native_group_size = 0;               // weights per scale (MXFP4 32, NVFP4 16, GPTQ 128; FP8
                                             // blocks 128x128 = 16384; 0 = per channel or tensor)
    bool native_double_quant = false;        // bitsandbytes bnb_4bit_use_double_quant
    std::vector<std::string> native_unquantized_modules;   // kept in native_dtype (gpt-oss: attention,
                                                           // router, embeddings, lm_head)

    // Where the architecture came from: "catalog", "hf_config", "gguf", "safetensors", "hub"
    // ("" = filled in by code). Reported as model.source.
    std::string source;
    // Exact weight bytes read from the checkpoint's tensor list (GGUF: all split parts;
    // safetensors: all shards); empty when the model was not read from a file. When present,
    // memory.weights sums these instead of the formulas (estimate.cpp).
    struct FileWeights {
        double total = 0;               // every tensor in the file(s)
        std::vector<double> layer;      // per block of the stack (blk.N / model.layers.N), in stack order
        double embeddings = 0;          // token embedding table (the first pipeline stage)
        double head = 0;                // output head, final norm and every other tensor outside
                                        // the blocks, vision excepted (the last stage)
        double vision = 0;              // vision / audio towers and projectors (not on the text GPUs)
        double beyond_stack = 0;        // blocks past the stack (MTP / NextN layers, not loaded)
        // Parameters the files hold by part, by logical shape (packed tensors count the values
        // they pack, quantization metadata none: model_file.hpp part_totals). count_params takes
        // the vision, audio and MTP parts from here when the model was read from files.
        double params_text = 0, params_vision = 0, params_audio = 0, params_mtp = 0;
        bool empty() const { return layer.empty(); }
    };
    FileWeights file;

    const LayerSpec& layer(int i) const { return kinds[layer_kind[std::size_t(i)]]; }
    bool has_stack() const { return !layer_kind.empty(); }

    // Any MoE layer (the stack's, or the global fields' before a stack is built).
    bool is_moe() const {
        for (const LayerSpec& l : kinds)
            if (l.is_moe()) return true;
        return kinds.empty() && n_routed_experts > 0;
    }
    // Layer indices run over the whole stack: encoder layers first, then decoder layers.
    int total_layers() const { return n_layers + n_decoder_layers; }
};

// At most this many distinct layer shapes per model (most real stacks have two to four).
// (Heterogeneous stacks such as OpenELM or Nemotron-NAS have up to one shape per layer.)
constexpr int kMaxLayerKinds = 64;

// Checks the fields a derivation needs; throws Error naming the field.
void validate(const ModelArch& arch);

// Same shape, field by field (kinds are deduplicated by it).
bool same_shape(const LayerSpec& a, const LayerSpec& b);

// Sets the stack from one LayerSpec per layer (encoder layers first), keeping each distinct
// shape once in `kinds`. Throws Error when there are more than 65535 layers.
void set_stack(ModelArch& arch, const std::vector<LayerSpec>& per_layer);

// The stack a model described by its global fields alone has: every layer alike (sliding when
// sliding_window is set, MLA when mla is, MoE when n_routed_experts is); encoder_decoder: the
// encoder layers, then decoder layers with cross attention. Importers start from it and apply
// their family's layer pattern.
std::vector<LayerSpec> uniform_stack(const ModelArch& arch);

// The architecture with a stack: `arch` itself when it has one, else a copy holding
// uniform_stack(arch) in `storage`.
const ModelArch& with_stack(const ModelArch& arch, ModelArch& storage);

// ---------------------------------------------------------------------------------------------
// [SECTION] Parameter counts
// ---------------------------------------------------------------------------------------------

// Parameters of one transformer layer, by the tensor classes that quantizers and parallel
// schemes treat differently. Routed-expert figures are for one expert.
struct LayerParams {
    double attn_q = 0;       // query projection (MLA: q_a, q_a norm excluded, q_b)
    double attn_k = 0;       // key projection (MLA: kv_a with the rope key)
    double attn_v = 0;       // value projection (MLA: kv_b)
    double attn_o = 0;       // output projection
    double cross_attn = 0;   // encoder-decoder cross attention (q, k, v, o)
    double indexer = 0;      // sparse-attention indexer projections (DeepSeek V3.2 DSA)
    double mixer = 0;        // recurrent mixer projections (Mamba in/x/dt/out, Gated DeltaNet in/out)
    double mlp_up = 0;       // dense MLP: gate + up, or fc1
    double mlp_down = 0;     // dense MLP: down, or fc2
    double shared_up = 0;    // all shared experts: gate + up
    double shared_down = 0;  // all shared experts: down
    double expert_up = 0;    // ONE routed expert: gate + up
    double expert_down = 0;  // ONE routed expert: down
    int n_experts = 0;       // routed experts in this layer (0 = dense layer)
    int experts_active = 0;  // routed experts each token is sent to
    double router = 0;       // expert router (+ score bias)
    double small = 0;        // norms, biases, conv kernels and other tensors never quantized

    double attention() const { return attn_q + attn_k + attn_v + attn_o + cross_attn; }
    double routed() const { return (expert_up + expert_down) * n_experts; }
    double total() const {
        return attention() + indexer + mixer + mlp_up + mlp_down + shared_up + shared_down + routed() + router + small;
    }
    // What one token passes through: all but the routed experts it is not sent to.
    double active() const { return total() - (expert_up + expert_down) * (n_experts - experts_active); }
};

// Parameters by part of the checkpoint (model.params_by_part in the report). `text` is the
// language model that total() counts; the others are stored weights outside it.
struct ParamParts {
    double text = 0;         // embeddings, layers, head: ParamCounts::total()
    double vision = 0;       // vision towers and projectors
    double audio = 0;        // audio towers and projectors
    double mtp = 0;          // multi-token-prediction layers (DeepSeek-V3 style)
    double embeddings = 0;   // per-layer embedding tables (Gemma 3n)
    double all() const { return text + vision + audio + mtp + embeddings; }
};

struct ParamCounts {
    double embedding = 0;      // token embedding table, vocab x hidden
    double positions = 0;      // learned positions and token types
    double lm_head = 0;        // untied output projection (0 when tied)
    double other = 0;          // final norms, embedding norm, pooler, relative position bias
    LayerParams dense_layer;   // the first dense layer's kind (encoder layer for encoder_decoder)
    LayerParams moe_layer;     // the first MoE layer's kind, when the model has any
    LayerParams decoder_layer; // encoder_decoder: a decoder layer (with cross attention)
    int n_dense = 0, n_moe = 0, n_decoder = 0;   // layers of each of the three classes above
    // One entry per distinct layer kind (ModelArch::kinds): its parameters and its layer count.
    std::vector<LayerParams> per_kind;
    std::vector<int> kind_layers;
    ParamParts parts;          // text (== total()) and the weights stored beside it

    // Layer `i` of the whole stack (encoder layers first). A reference into these counts, so
    // it is refused on a temporary (count_params(a).layer(a, i) would dangle).
    const LayerParams& layer(const ModelArch& arch, int i) const&;
    const LayerParams& layer(const ModelArch& arch, int i) const&& = delete;

    double layers() const;                 // all layers
    double attention() const;              // all layers
    double routed_experts() const;         // all routed experts of all layers
    double total() const;                  // the text model (what parameter counts usually quote)
    // Parameters a token passes through: everything but the routed experts it is not sent to,
    // counted as the publisher counts "active" (arch.active_convention; a dense model's active
    // count is its total). active_all() keeps embedding and head whatever the convention.
    double active(const ModelArch& arch) const;
    double active_all() const;
};

// Derives the counts from the architecture. `num_parameters_override` is not applied here, so
// that tests see the pure derivation; see override_scale.
ParamCounts count_params(const ModelArch& arch);

// The factor memory figures are scaled by when the user overrides the total parameter count
// (1 when there is no override).
double override_scale(const ModelArch& arch, const ParamCounts& counts);

}  // namespace gpusizer
