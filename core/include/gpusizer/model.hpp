// gpusizer/model.hpp: a model's architecture and the parameter counts derived from it.
//
// [SECTION] ModelArch: the architecture fields every family reduces to
// [SECTION] Parameter counts by tensor class, per layer and in total
//
// Counts are derived from the architecture alone (never looked up): embeddings, tied or
// untied head, attention (MHA / GQA / MQA / DeepSeek MLA), gated or plain MLPs, norms and
// biases, MoE with routed and shared experts and dense-first layers, encoder-decoder stacks.
#pragma once

#include <cstdint>
#include <string>

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] ModelArch
// ---------------------------------------------------------------------------------------------

enum class ArchKind { decoder, encoder, encoder_decoder };
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

    // Sliding-window attention: sliding layers attend to the last `sliding_window` tokens
    // only, so their KV cache never holds more than that. sliding_period 0: every layer slides
    // (Mistral 7B v0.1); p >= 2: layer i slides unless (i+1) % p == 0 (Gemma 2: p = 2, every
    // other layer global).
    int sliding_window = 0;
    int sliding_period = 0;

    // DeepSeek multi-head latent attention (q_lora_rank 0 = queries not compressed).
    bool mla = false;
    int q_lora_rank = 0;
    int kv_lora_rank = 0;
    int qk_rope_head_dim = 0;
    int qk_nope_head_dim = 0;

    // Mixture of experts. first_dense_layers are plain dense layers before the MoE layers.
    int n_routed_experts = 0;
    int n_shared_experts = 0;
    int experts_per_token = 0;
    int moe_intermediate = 0;            // one routed expert's inner size
    int shared_intermediate = 0;         // one shared expert's inner size (defaults to moe_intermediate)
    int first_dense_layers = 0;
    int moe_layer_period = 1;            // every n-th layer (after first_dense_layers) is MoE
    bool router_bias = false;            // per-expert score correction bias (DeepSeek-V3)

    int max_context = 0;                 // trained maximum context, tokens (0 = unknown)
    double num_parameters_override = 0;  // user override of the derived total (hf_config.num_parameters)

    bool is_moe() const { return n_routed_experts > 0; }
    // Layer indices run over the whole stack: encoder layers first, then decoder layers.
    int total_layers() const { return n_layers + n_decoder_layers; }
    // DeepSeek's rule: MoE when layer >= first_k_dense_replace and layer % moe_layer_freq == 0.
    bool layer_is_moe(int layer) const {
        if (n_routed_experts <= 0 || layer >= n_layers || layer < first_dense_layers) return false;
        return moe_layer_period <= 1 || layer % moe_layer_period == 0;
    }
    bool layer_is_sliding(int layer) const {
        if (sliding_window <= 0) return false;
        return sliding_period <= 1 || (layer + 1) % sliding_period != 0;
    }
    // Does the layer keep a KV cache while generating? (decoder self-attention layers)
    bool layer_has_self_kv(int layer) const;
};

// Checks the fields a derivation needs; throws Error naming the field.
void validate(const ModelArch& arch);

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
    double mlp_up = 0;       // dense MLP: gate + up, or fc1
    double mlp_down = 0;     // dense MLP: down, or fc2
    double shared_up = 0;    // all shared experts: gate + up
    double shared_down = 0;  // all shared experts: down
    double expert_up = 0;    // ONE routed expert: gate + up
    double expert_down = 0;  // ONE routed expert: down
    int n_experts = 0;       // routed experts in this layer (0 = dense layer)
    double router = 0;       // expert router (+ score bias)
    double small = 0;        // norms, biases and other 1-D tensors (never quantized)

    double attention() const { return attn_q + attn_k + attn_v + attn_o + cross_attn; }
    double routed() const { return (expert_up + expert_down) * n_experts; }
    double total() const {
        return attention() + mlp_up + mlp_down + shared_up + shared_down + routed() + router + small;
    }
};

struct ParamCounts {
    double embedding = 0;      // token embedding table, vocab x hidden
    double positions = 0;      // learned positions and token types
    double lm_head = 0;        // untied output projection (0 when tied)
    double other = 0;          // final norms, embedding norm, pooler, relative position bias
    LayerParams dense_layer;   // a dense layer (encoder layer for encoder_decoder)
    LayerParams moe_layer;     // an MoE layer, when the model has any
    LayerParams decoder_layer; // encoder_decoder: a decoder layer (with cross attention)
    int n_dense = 0, n_moe = 0, n_decoder = 0;

    // Layer `i` of the whole stack (encoder layers first).
    const LayerParams& layer(const ModelArch& arch, int i) const;

    double layers() const;                 // all layers
    double attention() const;              // all layers
    double routed_experts() const;         // all routed experts of all layers
    double total() const;
    // Parameters a token passes through: everything but the routed experts it is not sent to.
    // Embedding and head are included (the convention of Mixtral's "12.9B active").
    double active(const ModelArch& arch) const;
};

// Derives the counts from the architecture. `num_parameters_override` is not applied here, so
// that tests see the pure derivation; see override_scale.
ParamCounts count_params(const ModelArch& arch);

// The factor memory figures are scaled by when the user overrides the total parameter count
// (1 when there is no override).
double override_scale(const ModelArch& arch, const ParamCounts& counts);

}  // namespace gpusizer
