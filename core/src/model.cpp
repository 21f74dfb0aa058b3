// model.cpp: parameter counts derived from the architecture.
//
// Each count is a sum of matrix shapes and 1-D tensors, written the way the reference
// implementations (Hugging Face transformers modeling_*.py) lay them out. tests/test_params.cpp
// checks every catalog model against its published count.
#include "gpusizer/model.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "gpusizer/error.hpp"

namespace gpusizer {

namespace {

void require_positive(long long v, const char* field) {
    if (v <= 0) throw_error(std::string("model.") + field, "must be a positive integer, got " + std::to_string(v));
}

// One layer kind's fields (the global checks in validate() name the same config keys).
void validate_kind(const ModelArch& a, const LayerSpec& l) {
    const AttentionSpec& at = l.attn;
    if (at.kind != AttnKind::none) {
        require_positive(at.n_heads, "num_attention_heads");
        require_positive(at.n_kv_heads, "num_key_value_heads");
        require_positive(at.head_dim, "head_dim");
        require_positive(at.v_head_dim, "v_head_dim");
        if (at.n_kv_heads > at.n_heads)
            throw_error("model.num_key_value_heads",
                        "must not exceed num_attention_heads (" + std::to_string(at.n_heads) + "), got " + std::to_string(at.n_kv_heads));
        if (at.kind != AttnKind::mla && at.n_heads % at.n_kv_heads != 0)
            throw_error("model.num_key_value_heads",
                        "must divide num_attention_heads (" + std::to_string(at.n_heads) + "), got " + std::to_string(at.n_kv_heads));
        if ((at.kind == AttnKind::sliding || at.kind == AttnKind::chunked) && at.window <= 0)
            throw_error(at.kind == AttnKind::sliding ? "model.sliding_window" : "model.attention_chunk_size",
                        "must be a positive number of tokens for a " + std::string(at.kind == AttnKind::sliding ? "sliding" : "chunked") +
                            " layer, got " + std::to_string(at.window));
        if (at.kind == AttnKind::mla) {
            require_positive(at.kv_lora_rank, "kv_lora_rank");
            require_positive(at.qk_rope_head_dim, "qk_rope_head_dim");
            require_positive(at.qk_nope_head_dim, "qk_nope_head_dim");
        }
        if (at.o_lora_rank < 0 || at.o_groups < 1 || at.q_lora_rank < 0 || (at.o_lora_rank > 0 && at.n_heads % at.o_groups != 0))
            throw_error("model.o_groups", "must be at least 1 and divide num_attention_heads (o_lora_rank, q_lora_rank not negative)");
        if (at.index_n_heads < 0 || (at.index_n_heads > 0 && at.index_head_dim <= 0))
            throw_error("model.index_head_dim", "must be a positive integer when the layer has an indexer");
    }
    const RecurrentSpec& rc = l.recurrent;
    // The sizes each recurrent mixer needs, with the config.json key that gives each.
    struct Needed { RecurrentKind kind; int RecurrentSpec::*field; const char* key; };
    static constexpr Needed kNeeded[] = {
        {RecurrentKind::mamba, &RecurrentSpec::d_inner, "mamba_d_inner"},
        {RecurrentKind::mamba, &RecurrentSpec::d_state, "mamba_d_state"},
        {RecurrentKind::mamba, &RecurrentSpec::d_conv, "mamba_d_conv"},
        {RecurrentKind::mamba, &RecurrentSpec::dt_rank, "mamba_dt_rank"},
        {RecurrentKind::mamba2, &RecurrentSpec::n_heads, "mamba_n_heads"},
        {RecurrentKind::mamba2, &RecurrentSpec::head_dim, "mamba_d_head"},
        {RecurrentKind::mamba2, &RecurrentSpec::d_state, "mamba_d_state"},
        {RecurrentKind::mamba2, &RecurrentSpec::d_conv, "mamba_d_conv"},
        {RecurrentKind::mamba2, &RecurrentSpec::n_groups, "mamba_n_groups"},
        {RecurrentKind::gated_deltanet, &RecurrentSpec::n_heads, "linear_num_value_heads"},
        {RecurrentKind::gated_deltanet, &RecurrentSpec::head_dim, "linear_value_head_dim"},
        {RecurrentKind::gated_deltanet, &RecurrentSpec::n_k_heads, "linear_num_key_heads"},
        {RecurrentKind::gated_deltanet, &RecurrentSpec::k_head_dim, "linear_key_head_dim"},
        {RecurrentKind::gated_deltanet, &RecurrentSpec::d_conv, "linear_conv_kernel_dim"},
        {RecurrentKind::lightning, &RecurrentSpec::n_heads, "num_attention_heads"},
        {RecurrentKind::lightning, &RecurrentSpec::head_dim, "head_dim"},
        {RecurrentKind::short_conv, &RecurrentSpec::d_inner, "hidden_size"},
        {RecurrentKind::short_conv, &RecurrentSpec::d_conv, "conv_L_cache"},
        {RecurrentKind::rwkv, &RecurrentSpec::d_inner, "attention_hidden_size"},
    };
    for (const Needed& n : kNeeded)
        if (n.kind == rc.kind) require_positive(rc.*n.field, n.key);
    if (rc.state_bytes < 0 || rc.state_bytes > 8) throw_error("model.mamba_ssm_cache_dtype", "must be a 1- to 8-byte type");
    const LayerMlpSpec& m = l.mlp;
    if (m.kind == LayerMlpKind::dense) require_positive(m.intermediate, "intermediate_size");
    if (m.kind == LayerMlpKind::moe) {
        require_positive(m.n_experts, "n_routed_experts");
        require_positive(m.experts_per_token, "num_experts_per_tok");
        require_positive(m.expert_intermediate, "moe_intermediate_size");
        if (m.experts_per_token > m.n_experts)
            throw_error("model.num_experts_per_tok", "must not exceed the number of experts (" + std::to_string(m.n_experts) + ")");
        if (m.n_shared < 0) throw_error("model.n_shared_experts", "must not be negative");
        if (m.n_shared > 0) require_positive(m.shared_intermediate, "shared_expert_intermediate_size");
    }
    if (l.norms < 0 || l.norms > 16) throw_error("model.norms_per_layer", "must be between 0 and 16");
    (void)a;
}

}  // namespace

void validate(const ModelArch& a) {
    require_positive(a.n_layers, "num_hidden_layers");
    require_positive(a.hidden, "hidden_size");
    require_positive(a.vocab, "vocab_size");
    // A stack without any attention layer (MambaForCausalLM, FalconMamba, RWKV) has no heads.
    bool attention = !a.has_stack();
    for (const LayerSpec& l : a.kinds) attention = attention || l.attn.kind != AttnKind::none;
    if (!attention && a.n_heads == 0) {
        if (a.n_kv_heads != 0 || a.head_dim != 0) throw_error("model.num_attention_heads", "is 0 but head sizes are given");
    } else {
        require_positive(a.n_heads, "num_attention_heads");
        require_positive(a.n_kv_heads, "num_key_value_heads");
        require_positive(a.head_dim, "head_dim");
        require_positive(a.v_head_dim, "v_head_dim");
    }
    if (a.n_kv_heads > a.n_heads)
        throw_error("model.num_key_value_heads",
                    "must not exceed num_attention_heads (" + std::to_string(a.n_heads) + "), got " + std::to_string(a.n_kv_heads));
    if (!a.mla && a.n_kv_heads > 0 && a.n_heads % a.n_kv_heads != 0)
        throw_error("model.num_key_value_heads",
                    "must divide num_attention_heads (" + std::to_string(a.n_heads) + "), got " + std::to_string(a.n_kv_heads));
    if (!a.has_stack() && (a.n_routed_experts == 0 || a.kind != ArchKind::decoder)) require_positive(a.intermediate, "intermediate_size");
    if (a.kind == ArchKind::encoder_decoder) require_positive(a.n_decoder_layers, "num_decoder_layers");
    if (a.n_routed_experts < 0) throw_error("model.n_routed_experts", "must not be negative");
    if (a.n_routed_experts > 0) {
        require_positive(a.experts_per_token, "num_experts_per_tok");
        require_positive(a.moe_intermediate, "moe_intermediate_size");
        if (a.experts_per_token > a.n_routed_experts)
            throw_error("model.num_experts_per_tok", "must not exceed the number of experts (" + std::to_string(a.n_routed_experts) + ")");
    }
    if (a.expert_groups < 0) throw_error("model.n_group", "must not be negative");
    if (a.expert_groups_per_token < 0 || a.expert_groups_per_token > std::max(a.expert_groups, 0))
        throw_error("model.topk_group", "must be between 0 and n_group (" + std::to_string(a.expert_groups) + "), got " +
                                            std::to_string(a.expert_groups_per_token));
    if (a.expert_groups > 0 && a.n_routed_experts > 0) {
        // DeepseekV3TopkRouter views the scores as [n_group, n_routed_experts / n_group] and picks
        // num_experts_per_tok of the topk_group groups' experts.
        if (a.n_routed_experts % a.expert_groups != 0)
            throw_error("model.n_group", "must divide n_routed_experts (" + std::to_string(a.n_routed_experts) + "), got " +
                                             std::to_string(a.expert_groups));
        if (a.expert_groups_per_token > 0 && double(a.expert_groups_per_token) * (a.n_routed_experts / a.expert_groups) < a.experts_per_token)
            throw_error("model.topk_group", "leaves fewer experts (topk_group x n_routed_experts / n_group) than num_experts_per_tok (" +
                                                std::to_string(a.experts_per_token) + ")");
    }
    if (a.mla) {
        require_positive(a.kv_lora_rank, "kv_lora_rank");
        require_positive(a.qk_rope_head_dim, "qk_rope_head_dim");
        require_positive(a.qk_nope_head_dim, "qk_nope_head_dim");
    }
    if (a.sliding_window < 0) throw_error("model.sliding_window", "must not be negative");
    // Upper bounds keep every product well inside a double's exact integer range and stop a
    // pasted config from asking for absurd sizes (largest real models: ~16k-32k hidden, ~130 layers).
    if (a.total_layers() > 10000) throw_error("model.num_hidden_layers", "must be at most 10000");
    if (a.hidden > 1 << 20) throw_error("model.hidden_size", "must be at most 1048576");
    if (a.vocab > (1LL << 26)) throw_error("model.vocab_size", "must be at most 67108864");
    if (a.has_stack()) {
        if (int(a.layer_kind.size()) != a.total_layers())
            throw_error("model.layer_types",
                        "describes " + std::to_string(a.layer_kind.size()) + " layers, the model has " + std::to_string(a.total_layers()));
        if (a.kinds.empty() || int(a.kinds.size()) > kMaxLayerKinds)
            throw_error("model.layer_types", "must make 1 to " + std::to_string(kMaxLayerKinds) + " distinct layer shapes, got " +
                                                 std::to_string(a.kinds.size()));
        for (std::uint16_t k : a.layer_kind)
            if (k >= a.kinds.size()) throw_error("model.layer_types", "names a layer shape that does not exist");
        for (const LayerSpec& l : a.kinds) validate_kind(a, l);
    }
    if (a.n_mtp_layers < 0 || a.n_mtp_layers > 64) throw_error("model.num_nextn_predict_layers", "must be between 0 and 64");
    if (a.mtp_kind >= int(a.kinds.size())) throw_error("model.num_nextn_predict_layers", "names a layer shape that does not exist");
    if (!(a.per_layer_embedding_params >= 0 && a.per_layer_embedding_params < 1e13))
        throw_error("model.hidden_size_per_layer_input", "per-layer embeddings must be between 0 and 1e13 parameters");
    for (const TowerSpec& t : a.towers) {
        if (t.part != "vision" && t.part != "audio") throw_error("model.towers", "part must be vision or audio, got '" + t.part + "'");
        if (t.params_override < 0 || t.projector_params < 0) throw_error("model.towers", "parameter counts must not be negative");
        if (t.params_override == 0 && (t.n_layers < 0 || t.hidden < 0 || t.intermediate < 0 || t.patch_size < 0 || t.image_size < 0))
            throw_error("model.towers", "dimensions must not be negative");
    }
}

namespace {

double norm_params(const ModelArch& a, double width) {
    return a.norm == NormKind::layer ? 2.0 * width : width;   // LayerNorm: weight + bias
}

// Self-attention of one layer kind (standard or MLA), with the sparse-attention indexer.
void add_attention(const ModelArch& a, const AttentionSpec& at, LayerParams& p) {
    const double h = a.hidden;
    if (at.kind == AttnKind::mla) {
        // DeepSeek-V2/V3 (modeling_deepseek.py): q_a_proj, q_a_layernorm, q_b_proj;
        // kv_a_proj_with_mqa (latent + shared rope key), kv_a_layernorm, kv_b_proj; o_proj.
        const double qk_head = at.qk_nope_head_dim + at.qk_rope_head_dim;
        if (at.q_lora_rank > 0) {
            p.attn_q = h * at.q_lora_rank + double(at.q_lora_rank) * at.n_heads * qk_head;
            p.small += at.q_lora_rank;                      // q_a_layernorm
        } else {
            p.attn_q = h * at.n_heads * qk_head;
        }
        p.attn_k = h * (at.kv_lora_rank + at.qk_rope_head_dim);
        p.small += at.kv_lora_rank;                         // kv_a_layernorm
        p.attn_v = double(at.kv_lora_rank) * at.n_heads * (at.qk_nope_head_dim + at.v_head_dim);
        p.attn_o = double(at.n_heads) * at.v_head_dim * h;
    } else {
        const double q_width = double(at.n_heads) * at.head_dim;
        const double k_width = double(at.n_kv_heads) * at.head_dim;
        const double v_width = double(at.n_kv_heads) * at.v_head_dim;
        const double o_width = double(at.n_heads) * at.v_head_dim;
        // Qwen3NextAttention: q_proj h -> heads x head_dim x 2 (query and output gate).
        // Gemma4 attention_k_eq_v: no v_proj, the key projection is reused as value.
        const double q_out = at.gated_query ? 2.0 * q_width : q_width;
        const double v_out = at.k_eq_v ? 0.0 : v_width;
        p.attn_q = at.q_lora_rank > 0 ? h * at.q_lora_rank + double(at.q_lora_rank) * q_out : h * q_out;
        if (at.q_lora_rank > 0) p.small += at.q_lora_rank;   // q_a norm
        p.attn_k = h * k_width;
        p.attn_v = h * v_out;
        // Grouped low-rank o_proj: g groups of (o_width / g) x r, then (g x r) x h.
        p.attn_o = at.o_lora_rank > 0 ? o_width * at.o_lora_rank + double(at.o_groups) * at.o_lora_rank * h : o_width * h;
        if (a.qkv_bias) p.small += q_out + k_width + v_out;
        if (a.o_bias) p.small += h;
        if (a.qk_norm) p.small += 2.0 * at.head_dim;      // Qwen3 q_norm, k_norm
    }
    if (at.index_n_heads > 0) {
        // DeepSeek-V3.2 Indexer (deepseek-ai/DeepSeek-V3.2-Exp inference/model.py): wq_b
        // (q_lora_rank -> heads x dim; hidden when queries are not compressed), wk (hidden -> dim),
        // k_norm (LayerNorm: weight + bias), weights_proj (hidden -> heads).
        const double q_in = at.q_lora_rank > 0 ? at.q_lora_rank : h;
        p.indexer = q_in * at.index_n_heads * at.index_head_dim + h * at.index_head_dim + h * at.index_n_heads;
        p.small += 2.0 * at.index_head_dim;
    }
}

// The recurrent token mixer of one layer kind, as the reference implementations lay it out.
// Linear projections go to `mixer` (quantized like attention); conv kernels, A, D, dt biases
// and gated norms to `small` (quantizers leave them alone; GGUF keeps them F32).
void add_recurrent(const ModelArch& a, const RecurrentSpec& rc, LayerParams& p) {
    const double h = a.hidden;
    const double pb = rc.proj_bias ? 1.0 : 0.0;
    switch (rc.kind) {
        case RecurrentKind::none: return;
        case RecurrentKind::mamba: {
            // transformers MambaMixer (modeling_mamba.py; Jamba's JambaMambaMixer): in_proj
            // h -> 2 d_inner, conv1d d_inner x d_conv (+ bias), x_proj d_inner -> dt_rank + 2 d_state,
            // dt_proj dt_rank -> d_inner (+ bias), A_log d_inner x d_state, D d_inner, out_proj.
            const double di = rc.d_inner;
            p.mixer = h * 2.0 * di + di * (rc.dt_rank + 2.0 * rc.d_state) + double(rc.dt_rank) * di + di * h;
            p.small += pb * (2.0 * di + h) + di * rc.d_conv + (rc.conv_bias ? di : 0.0) + di /* dt_proj bias */ +
                       di * rc.d_state + di;
            return;
        }
        case RecurrentKind::mamba2: {
            // transformers MambaMixer2 (modeling_mamba2.py, GraniteMoeHybrid, NemotronH): in_proj
            // h -> d_inner + conv_dim + n_heads with conv_dim = d_inner + 2 n_groups d_state, conv1d
            // conv_dim x d_conv (+ bias), dt_bias / A_log / D per head, gated RMSNorm d_inner, out_proj.
            const double di = double(rc.n_heads) * rc.head_dim;
            const double conv_dim = di + 2.0 * rc.n_groups * rc.d_state;
            p.mixer = h * (di + conv_dim + rc.n_heads) + di * h;
            p.small += pb * (di + conv_dim + rc.n_heads + h) + conv_dim * rc.d_conv + (rc.conv_bias ? conv_dim : 0.0) +
                       3.0 * rc.n_heads + di;
            return;
        }
        case RecurrentKind::gated_deltanet: {
            // transformers Qwen3NextGatedDeltaNet (modeling_qwen3_next.py): in_proj_qkvz
            // h -> 2 nk dk + 2 nv dv, in_proj_ba h -> 2 nv, conv1d over conv_dim = 2 nk dk + nv dv
            // (bias=False there), dt_bias and A_log per value head, gated RMSNorm of dv, out_proj.
            const double key = double(rc.n_k_heads) * rc.k_head_dim, value = double(rc.n_heads) * rc.head_dim;
            const double conv_dim = 2.0 * key + value;
            p.mixer = h * (2.0 * key + 2.0 * value) + h * 2.0 * rc.n_heads + value * h;
            p.small += conv_dim * rc.d_conv + (rc.conv_bias ? conv_dim : 0.0) + 2.0 * rc.n_heads + rc.head_dim;
            return;
        }
        case RecurrentKind::lightning: {
            // MiniMax-Text-01 lightning attention (MiniMaxText01LightningAttention): qkv_proj
            // h -> 3 heads x dim, output_gate h -> heads x dim, norm heads x dim, out_proj.
            const double inner = double(rc.n_heads) * rc.head_dim;
            p.mixer = h * 3.0 * inner + h * inner + inner * h;
            p.small += inner;
            return;
        }
        case RecurrentKind::short_conv: {
            // transformers Lfm2ShortConv (modeling_lfm2.py): in_proj h -> 3 h (B, C, x), a
            // depthwise conv1d of h channels x L_cache, out_proj h -> h; biases when conv_bias.
            const double di = rc.d_inner;
            p.mixer = h * 3.0 * di + di * h;
            p.small += di * rc.d_conv + (rc.conv_bias ? 3.0 * di + di + h : 0.0);
            return;
        }
        case RecurrentKind::rwkv: {
            // transformers RwkvSelfAttention (modeling_rwkv.py): key, value, receptance h -> a and
            // output a -> h (a = attention_hidden_size); time_decay, time_first (a each) and the
            // three time_mix vectors (h each). The channel mixing's key and value are the layer's
            // plain MLP; its receptance (h -> h) and two time_mix vectors are counted here too.
            const double att = rc.d_inner;
            p.mixer = 3.0 * h * att + att * h + h * h;
            p.small += 2.0 * att + 3.0 * h + 2.0 * h;
            return;
        }
    }
}

// Dense MLP of inner size `inner`.
void add_mlp(const ModelArch& a, double inner, double& up, double& down, double& small, bool bias) {
    const double h = a.hidden;
    if (a.mlp == MlpKind::gated) {
        up += 2.0 * h * inner;                             // gate_proj + up_proj
        down += inner * h;                                 // down_proj
        if (bias) small += 2.0 * inner + h;
    } else {
        up += h * inner;                                   // fc1 / c_fc / dense_h_to_4h
        down += inner * h;                                 // fc2 / c_proj / dense_4h_to_h
        if (bias) small += inner + h;
    }
}

LayerParams kind_params(const ModelArch& a, const LayerSpec& l) {
    LayerParams p;
    const double h = a.hidden;
    if (l.attn.kind != AttnKind::none) add_attention(a, l.attn, p);
    if (l.attn_linear) p.attn_o += h * h;   // DeciLM replace_with_linear: one h x h linear, no cache
    if (l.mlp_linear) p.mlp_down += h * h;
    add_recurrent(a, l.recurrent, p);
    const LayerMlpSpec& m = l.mlp;
    if (m.kind == LayerMlpKind::dense) {
        add_mlp(a, m.intermediate, p.mlp_up, p.mlp_down, p.small, a.mlp_bias);
    } else if (m.kind == LayerMlpKind::moe) {
        // Routed experts: one expert's tensors (x n_experts in routed()); gpt-oss keeps biases
        // on them (GptOssExperts gate_up_proj_bias, down_proj_bias), stored with the expert.
        double expert_bias = 0;
        add_mlp(a, m.expert_intermediate, p.expert_up, p.expert_down, expert_bias, m.expert_bias);
        p.expert_up += expert_bias;
        p.n_experts = m.n_experts;
        p.experts_active = m.experts_per_token;
        for (int s = 0; s < m.n_shared; ++s) add_mlp(a, m.shared_intermediate, p.shared_up, p.shared_down, p.small, a.mlp_bias);
        p.router = h * m.n_experts;                        // gate.weight
        if (m.router_bias) p.router += m.n_experts;        // e_score_correction_bias (or the router's bias)
    }
    if (l.cross_attention) {
        // Encoder-decoder decoder layer: cross attention (q, k, v, o) beside self attention.
        const double inner = double(l.attn.n_heads) * l.attn.head_dim;
        p.cross_attn = h * inner + 2.0 * h * double(l.attn.n_kv_heads) * l.attn.head_dim + inner * h;
    }
    p.small += l.norms * norm_params(a, h);
    return p;
}

// A ViT-style tower (vision_config / audio_config) and its projector: per layer q, k, v, o
// (4 h^2 with biases), a plain MLP h -> i -> h with biases, two LayerNorms; a patch embedding
// (channels x patch^2 x h + bias), a learned position table of (image/patch)^2 rows, a
// post-LayerNorm. CLIP/SigLIP vision encoders (transformers modeling_siglip.py) have this layout.
double tower_params(const TowerSpec& t) {
    if (t.params_override > 0) return t.params_override + t.projector_params;
    const double h = t.hidden, i = t.intermediate;
    const double layer = 4.0 * h * h + 4.0 * h + 2.0 * h * i + i + h + 2.0 * 2.0 * h;
    double embed = 0;
    if (t.patch_size > 0) {
        const double side = double(t.image_size / t.patch_size);   // SiglipVisionEmbeddings: (image // patch)^2
        const double patches = side * side;
        embed = double(t.in_channels) * t.patch_size * t.patch_size * h + h + patches * h;
    }
    return t.n_layers * layer + embed + 2.0 * h + t.projector_params;
}

}  // namespace

const ModelArch& with_stack(const ModelArch& arch, ModelArch& storage) {
    if (arch.has_stack()) return arch;
    storage = arch;
    set_stack(storage, uniform_stack(storage));
    return storage;
}

const LayerParams& ParamCounts::layer(const ModelArch& arch, int i) const& {
    return per_kind[arch.layer_kind[std::size_t(i)]];
}

double ParamCounts::layers() const {
    double s = 0;
    for (std::size_t k = 0; k < per_kind.size(); ++k) s += kind_layers[k] * per_kind[k].total();
    return s;
}

double ParamCounts::attention() const {
    double s = 0;
    for (std::size_t k = 0; k < per_kind.size(); ++k) s += kind_layers[k] * per_kind[k].attention();
    return s;
}

double ParamCounts::routed_experts() const {
    double s = 0;
    for (std::size_t k = 0; k < per_kind.size(); ++k) s += kind_layers[k] * per_kind[k].routed();
    return s;
}

double ParamCounts::total() const { return embedding + positions + lm_head + other + layers(); }

double ParamCounts::active_all() const {
    double s = embedding + positions + lm_head + other;
    for (std::size_t k = 0; k < per_kind.size(); ++k) s += kind_layers[k] * per_kind[k].active();
    return s;
}

double ParamCounts::active(const ModelArch& arch) const {
    const double all = active_all();
    if (!arch.is_moe()) return all;
    switch (arch.active_convention) {
        case ActiveConvention::all: return all;
        // A tied table is one tensor: it stays as the head without the input embedding, and goes
        // with both.
        case ActiveConvention::no_input_embedding: return all - (arch.tied_embeddings ? 0.0 : embedding);
        case ActiveConvention::no_embeddings: return all - embedding - lm_head;
    }
    return all;
}

std::string_view to_string(ActiveConvention c) {
    switch (c) {
        case ActiveConvention::all: return "all";
        case ActiveConvention::no_input_embedding: return "no_input_embedding";
        case ActiveConvention::no_embeddings: return "no_embeddings";
    }
    return "all";
}

ParamCounts count_params(const ModelArch& arch) {
    ModelArch storage;
    const ModelArch& a = with_stack(arch, storage);
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

    // Sum over kinds x counts.
    c.per_kind.reserve(a.kinds.size());
    for (const LayerSpec& l : a.kinds) c.per_kind.push_back(kind_params(a, l));
    c.kind_layers.assign(a.kinds.size(), 0);
    for (std::uint16_t k : a.layer_kind) ++c.kind_layers[k];
    // The three classes reports and callers have always read: the first kind of each.
    bool seen_dense = false, seen_moe = false, seen_decoder = false;
    for (std::size_t k = 0; k < a.kinds.size(); ++k) {
        const LayerSpec& l = a.kinds[k];
        if (l.cross_attention) {
            if (!seen_decoder) c.decoder_layer = c.per_kind[k];
            seen_decoder = true;
            c.n_decoder += c.kind_layers[k];
        } else if (l.is_moe()) {
            if (!seen_moe) c.moe_layer = c.per_kind[k];
            seen_moe = true;
            c.n_moe += c.kind_layers[k];
        } else {
            if (!seen_dense) c.dense_layer = c.per_kind[k];
            seen_dense = true;
            c.n_dense += c.kind_layers[k];
        }
    }

    // The parts stored beside the text model.
    c.parts.text = c.total();
    if (a.n_mtp_layers > 0) {
        // DeepSeek-V3 multi-token prediction (DeepSeek-V3 technical report sec. 2.2; vLLM
        // deepseek_mtp.py DeepSeekMultiTokenPredictorLayer): per MTP layer a full decoder layer,
        // enorm and hnorm (RMSNorm of h each), eh_proj (2h -> h) and the shared head's norm; the
        // checkpoint stores the embedding and output head again with them (DeepSeek-V3's 671B main
        // + 14B MTP: 0.93B embedding + 0.93B head + 11.9B layer + 0.1B eh_proj).
        const LayerParams& l = a.mtp_kind >= 0 ? c.per_kind[std::size_t(a.mtp_kind)] : c.layer(a, a.total_layers() - 1);
        c.parts.mtp = a.n_mtp_layers * (l.total() + 2.0 * h * h + 3.0 * norm_params(a, h) + 2.0 * double(a.vocab) * h);
    }
    c.parts.embeddings = a.per_layer_embedding_params;
    for (const TowerSpec& t : a.towers) (t.part == "audio" ? c.parts.audio : c.parts.vision) += tower_params(t);
    // A model read from files: the towers, projector files and MTP layers its tensors hold,
    // counted by logical shape (model_file.hpp file_weights), replace the formulas' figures.
    if (!a.file.empty()) c.parts.vision = a.file.params_vision, c.parts.audio = a.file.params_audio, c.parts.mtp = a.file.params_mtp;
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
    return std::tie(a.kind, a.window, a.n_heads, a.n_kv_heads, a.head_dim, a.v_head_dim, a.kv_shared, a.gated_query, a.k_eq_v,
                    a.q_lora_rank, a.o_lora_rank, a.o_groups, a.kv_lora_rank, a.qk_rope_head_dim, a.qk_nope_head_dim, a.index_n_heads,
                    a.index_head_dim);
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
           mlp_tuple(a.mlp) == mlp_tuple(b.mlp) && a.cross_attention == b.cross_attention && a.encoder == b.encoder && a.norms == b.norms &&
           a.attn_linear == b.attn_linear && a.mlp_linear == b.mlp_linear;
}

void set_stack(ModelArch& arch, const std::vector<LayerSpec>& per_layer) {
    if (per_layer.size() > 65535) throw_error("model.num_hidden_layers", "must be at most 65535 layers");
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

std::vector<LayerSpec> uniform_stack(const ModelArch& a) {
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
    } else if (a.sliding_window > 0 && a.kind == ArchKind::decoder) {
        at.kind = AttnKind::sliding;
        at.window = a.sliding_window;
    }
    if (a.n_routed_experts > 0 && a.kind == ArchKind::decoder) {
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
    // Encoder layers (BERT, T5's encoder) keep no cache while generating.
    l.encoder = a.kind != ArchKind::decoder;
    std::vector<LayerSpec> out(std::size_t(std::max(0, a.n_layers)), l);
    if (a.kind == ArchKind::encoder_decoder) {
        LayerSpec d = l;
        d.encoder = false;
        d.cross_attention = true;
        d.norms = a.norms_per_layer + 1;   // + the cross-attention norm
        out.insert(out.end(), std::size_t(std::max(0, a.n_decoder_layers)), d);
    }
    return out;
}

}  // namespace gpusizer
