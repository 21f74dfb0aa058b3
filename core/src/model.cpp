// model.cpp: parameter counts derived from the architecture.
//
// Each count is a sum of matrix shapes and 1-D tensors, written the way the reference
// implementations (Hugging Face transformers modeling_*.py) lay them out. tests/test_params.cpp
// checks every catalog model against its published count.
#include "gpusizer/model.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "gpusizer/error.hpp"

namespace gpusizer {

bool ModelArch::layer_has_self_kv(int layer) const {
    switch (kind) {
        case ArchKind::decoder: return layer < n_layers;
        case ArchKind::encoder: return false;
        case ArchKind::encoder_decoder: return layer >= n_layers;
    }
    return false;
}

namespace {

void require_positive(long long v, const char* field) {
    if (v <= 0) throw Error(std::string("model.") + field, "must be a positive integer, got " + std::to_string(v));
}

}  // namespace

void validate(const ModelArch& a) {
    require_positive(a.n_layers, "num_hidden_layers");
    require_positive(a.hidden, "hidden_size");
    require_positive(a.n_heads, "num_attention_heads");
    require_positive(a.n_kv_heads, "num_key_value_heads");
    require_positive(a.head_dim, "head_dim");
    require_positive(a.v_head_dim, "v_head_dim");
    require_positive(a.vocab, "vocab_size");
    if (a.n_kv_heads > a.n_heads)
        throw Error("model.num_key_value_heads", "must not exceed num_attention_heads (" +
                                                     std::to_string(a.n_heads) + "), got " + std::to_string(a.n_kv_heads));
    if (!a.mla && a.n_heads % a.n_kv_heads != 0)
        throw Error("model.num_key_value_heads", "must divide num_attention_heads (" + std::to_string(a.n_heads) +
                                                     "), got " + std::to_string(a.n_kv_heads));
    const bool has_dense = a.n_routed_experts == 0 || a.first_dense_layers > 0 || a.moe_layer_period > 1 ||
                           a.kind != ArchKind::decoder;
    if (has_dense) require_positive(a.intermediate, "intermediate_size");
    if (a.kind == ArchKind::encoder_decoder) require_positive(a.n_decoder_layers, "num_decoder_layers");
    if (a.n_routed_experts < 0) throw Error("model.n_routed_experts", "must not be negative");
    if (a.n_routed_experts > 0) {
        require_positive(a.experts_per_token, "num_experts_per_tok");
        require_positive(a.moe_intermediate, "moe_intermediate_size");
        if (a.experts_per_token > a.n_routed_experts)
            throw Error("model.num_experts_per_tok", "must not exceed the number of experts (" +
                                                         std::to_string(a.n_routed_experts) + ")");
    }
    if (a.mla) {
        require_positive(a.kv_lora_rank, "kv_lora_rank");
        require_positive(a.qk_rope_head_dim, "qk_rope_head_dim");
        require_positive(a.qk_nope_head_dim, "qk_nope_head_dim");
    }
    if (a.sliding_window < 0) throw Error("model.sliding_window", "must not be negative");
    // Upper bounds keep every product well inside a double's exact integer range and stop a
    // pasted config from asking for absurd sizes (largest real models: ~16k-32k hidden, ~130 layers).
    if (a.total_layers() > 10000) throw Error("model.num_hidden_layers", "must be at most 10000");
    if (a.hidden > 1 << 20) throw Error("model.hidden_size", "must be at most 1048576");
    if (a.vocab > (1LL << 26)) throw Error("model.vocab_size", "must be at most 67108864");
}

namespace {

double norm_params(const ModelArch& a, double width) {
    return a.norm == NormKind::layer ? 2.0 * width : width;   // LayerNorm: weight + bias
}

// Self-attention of one layer (standard or MLA).
void add_attention(const ModelArch& a, LayerParams& p) {
    const double h = a.hidden;
    if (a.mla) {
        // DeepSeek-V2/V3 (modeling_deepseek.py): q_a_proj, q_a_layernorm, q_b_proj;
        // kv_a_proj_with_mqa (latent + shared rope key), kv_a_layernorm, kv_b_proj; o_proj.
        const double qk_head = a.qk_nope_head_dim + a.qk_rope_head_dim;
        if (a.q_lora_rank > 0) {
            p.attn_q = h * a.q_lora_rank + double(a.q_lora_rank) * a.n_heads * qk_head;
            p.small += a.q_lora_rank;                       // q_a_layernorm
        } else {
            p.attn_q = h * a.n_heads * qk_head;
        }
        p.attn_k = h * (a.kv_lora_rank + a.qk_rope_head_dim);
        p.small += a.kv_lora_rank;                          // kv_a_layernorm
        p.attn_v = double(a.kv_lora_rank) * a.n_heads * (a.qk_nope_head_dim + a.v_head_dim);
        p.attn_o = double(a.n_heads) * a.v_head_dim * h;
        return;
    }
    const double q_width = double(a.n_heads) * a.head_dim;
    const double k_width = double(a.n_kv_heads) * a.head_dim;
    const double v_width = double(a.n_kv_heads) * a.v_head_dim;
    const double o_width = double(a.n_heads) * a.v_head_dim;
    p.attn_q = h * q_width;
    p.attn_k = h * k_width;
    p.attn_v = h * v_width;
    p.attn_o = o_width * h;
    if (a.qkv_bias) p.small += q_width + k_width + v_width;
    if (a.o_bias) p.small += h;
    if (a.qk_norm) p.small += 2.0 * a.head_dim;          // Qwen3 q_norm, k_norm
}

// Dense MLP of inner size `inner`.
void add_mlp(const ModelArch& a, double inner, double& up, double& down, double& small) {
    const double h = a.hidden;
    if (a.mlp == MlpKind::gated) {
        up += 2.0 * h * inner;                             // gate_proj + up_proj
        down += inner * h;                                 // down_proj
        if (a.mlp_bias) small += 2.0 * inner + h;
    } else {
        up += h * inner;                                   // fc1 / c_fc / dense_h_to_4h
        down += inner * h;                                 // fc2 / c_proj / dense_4h_to_h
        if (a.mlp_bias) small += inner + h;
    }
}

LayerParams dense_layer(const ModelArch& a) {
    LayerParams p;
    add_attention(a, p);
    add_mlp(a, a.intermediate, p.mlp_up, p.mlp_down, p.small);
    p.small += a.norms_per_layer * norm_params(a, a.hidden);
    return p;
}

LayerParams moe_layer(const ModelArch& a) {
    LayerParams p;
    add_attention(a, p);
    double unused_small = 0;
    add_mlp(a, a.moe_intermediate, p.expert_up, p.expert_down, unused_small);
    p.n_experts = a.n_routed_experts;
    const int shared_inner = a.shared_intermediate > 0 ? a.shared_intermediate : a.moe_intermediate;
    for (int s = 0; s < a.n_shared_experts; ++s) add_mlp(a, shared_inner, p.shared_up, p.shared_down, p.small);
    p.router = double(a.hidden) * a.n_routed_experts;     // gate.weight
    if (a.router_bias) p.router += a.n_routed_experts;    // e_score_correction_bias
    p.small += a.norms_per_layer * norm_params(a, a.hidden);
    return p;
}

// Encoder-decoder decoder layer: self attention, cross attention, MLP, three norms.
LayerParams decoder_layer(const ModelArch& a) {
    LayerParams p = dense_layer(a);
    const double h = a.hidden;
    const double inner = double(a.n_heads) * a.head_dim;
    p.cross_attn = h * inner + 2.0 * h * double(a.n_kv_heads) * a.head_dim + inner * h;
    p.small += norm_params(a, h);
    return p;
}

}  // namespace

const LayerParams& ParamCounts::layer(const ModelArch& arch, int i) const {
    if (arch.kind == ArchKind::encoder_decoder && i >= arch.n_layers) return decoder_layer;
    return arch.layer_is_moe(i) ? moe_layer : dense_layer;
}

double ParamCounts::layers() const {
    return n_dense * dense_layer.total() + n_moe * moe_layer.total() + n_decoder * decoder_layer.total();
}

double ParamCounts::attention() const {
    return n_dense * dense_layer.attention() + n_moe * moe_layer.attention() + n_decoder * decoder_layer.attention();
}

double ParamCounts::routed_experts() const { return n_moe * moe_layer.routed(); }

double ParamCounts::total() const { return embedding + positions + lm_head + other + layers(); }

double ParamCounts::active(const ModelArch& arch) const {
    if (n_moe == 0 || arch.n_routed_experts == 0) return total();
    const double per_expert = moe_layer.expert_up + moe_layer.expert_down;
    const double idle = double(arch.n_routed_experts - arch.experts_per_token) * per_expert * n_moe;
    return total() - idle;
}

ParamCounts count_params(const ModelArch& a) {
    validate(a);
    ParamCounts c;
    const double h = a.hidden;
    c.embedding = double(a.vocab) * h;
    c.positions = double(a.learned_positions + a.token_types) * h;
    const bool has_head = a.kind != ArchKind::encoder;     // BertModel has no LM head
    c.lm_head = (has_head && !a.tied_embeddings) ? double(a.vocab) * h : 0.0;
    if (a.embedding_norm) c.other += norm_params(a, h);
    if (a.final_norm) c.other += norm_params(a, h) * (a.kind == ArchKind::encoder_decoder ? 2 : 1);
    if (a.pooler) c.other += h * h + h;                      // BertPooler dense
    if (a.relative_attention_buckets > 0) {
        // T5: one relative-position bias table (buckets x heads) per stack, in its first layer.
        const int stacks = a.kind == ArchKind::encoder_decoder ? 2 : 1;
        c.other += double(stacks) * a.relative_attention_buckets * a.n_heads;
    }

    c.dense_layer = dense_layer(a);
    if (a.is_moe()) c.moe_layer = moe_layer(a);
    for (int i = 0; i < a.n_layers; ++i) {
        if (a.layer_is_moe(i)) ++c.n_moe; else ++c.n_dense;
    }
    if (a.kind == ArchKind::encoder_decoder) {
        c.decoder_layer = decoder_layer(a);
        c.n_decoder = a.n_decoder_layers;
    }
    return c;
}

double override_scale(const ModelArch& arch, const ParamCounts& counts) {
    if (arch.num_parameters_override <= 0) return 1.0;
    return arch.num_parameters_override / counts.total();
}

// ---------------------------------------------------------------------------------------------
// The stack of layers
// ---------------------------------------------------------------------------------------------

namespace {

auto attn_tuple(const AttentionSpec& a) {
    return std::tie(a.kind, a.window, a.n_heads, a.n_kv_heads, a.head_dim, a.v_head_dim, a.kv_shared, a.q_lora_rank,
                    a.kv_lora_rank, a.qk_rope_head_dim, a.qk_nope_head_dim, a.index_n_heads, a.index_head_dim);
}
auto recurrent_tuple(const RecurrentSpec& r) {
    return std::tie(r.kind, r.d_inner, r.d_state, r.d_conv, r.n_groups, r.n_heads, r.head_dim, r.n_k_heads, r.k_head_dim,
                    r.dt_rank, r.conv_bias, r.proj_bias, r.state_bytes);
}
auto mlp_tuple(const LayerMlpSpec& m) {
    return std::tie(m.kind, m.intermediate, m.n_experts, m.experts_per_token, m.expert_intermediate, m.n_shared,
                    m.shared_intermediate, m.router_bias, m.expert_bias);
}

}  // namespace

bool same_shape(const LayerSpec& a, const LayerSpec& b) {
    return attn_tuple(a.attn) == attn_tuple(b.attn) && recurrent_tuple(a.recurrent) == recurrent_tuple(b.recurrent) &&
           mlp_tuple(a.mlp) == mlp_tuple(b.mlp) && a.cross_attention == b.cross_attention && a.encoder == b.encoder && a.norms == b.norms;
}

void set_stack(ModelArch& arch, const std::vector<LayerSpec>& per_layer) {
    if (per_layer.size() > 65535) throw Error("model.num_hidden_layers", "must be at most 65535 layers");
    arch.kinds.clear();
    arch.layer_kind.clear();
    arch.layer_kind.reserve(per_layer.size());
    for (const LayerSpec& l : per_layer) {
        std::size_t k = 0;
        while (k < arch.kinds.size() && !same_shape(arch.kinds[k], l)) ++k;
        if (k == arch.kinds.size()) arch.kinds.push_back(l);
        arch.layer_kind.push_back(std::uint16_t(k));
    }
}

std::vector<LayerSpec> layers_from_scalars(const ModelArch& a) {
    std::vector<LayerSpec> out;
    out.reserve(std::size_t(std::max(0, a.total_layers())));
    for (int i = 0; i < a.total_layers(); ++i) {
        LayerSpec l;
        l.norms = a.norms_per_layer;
        AttentionSpec& at = l.attn;
        at.n_heads = a.n_heads;
        at.n_kv_heads = a.n_kv_heads;
        at.head_dim = a.head_dim;
        at.v_head_dim = a.v_head_dim;
        if (a.mla) {
            at.kind = AttnKind::mla;
            at.q_lora_rank = a.q_lora_rank;
            at.kv_lora_rank = a.kv_lora_rank;
            at.qk_rope_head_dim = a.qk_rope_head_dim;
            at.qk_nope_head_dim = a.qk_nope_head_dim;
        } else if (a.layer_is_sliding(i) && i < a.n_layers) {
            at.kind = AttnKind::sliding;
            at.window = a.sliding_window;
        }
        l.encoder = !a.layer_has_self_kv(i) && !(a.kind == ArchKind::encoder_decoder && i >= a.n_layers);
        if (a.kind == ArchKind::encoder_decoder && i >= a.n_layers) {
            l.cross_attention = true;
            l.norms = a.norms_per_layer + 1;   // + the cross-attention norm
        }
        if (a.layer_is_moe(i)) {
            l.mlp.kind = LayerMlpKind::moe;
            l.mlp.n_experts = a.n_routed_experts;
            l.mlp.experts_per_token = a.experts_per_token;
            l.mlp.expert_intermediate = a.moe_intermediate;
            l.mlp.n_shared = a.n_shared_experts;
            l.mlp.shared_intermediate = a.shared_intermediate > 0 ? a.shared_intermediate : a.moe_intermediate;
            l.mlp.router_bias = a.router_bias;
        } else {
            l.mlp.intermediate = a.intermediate;
        }
        out.push_back(l);
    }
    return out;
}

}  // namespace gpusizer
