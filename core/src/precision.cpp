// precision.cpp: bits per weight of every format, and llama.cpp's per-tensor type choice.
//
// [SECTION] ggml block types
// [SECTION] Weight formats
// [SECTION] GGUF file types: which ggml type each tensor gets
// [SECTION] KV cache formats
#include "gpusizer/precision.hpp"

#include <string>

#include "gpusizer/error.hpp"
#include "gpusizer/model.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] ggml block types
// Bits per weight = block bytes * 8 / weights per block, from the block structs in ggml's
// ggml-common.h (fp16 scale "d", fp16 min "dmin", packed quants "qs", high bits "qh").
// ---------------------------------------------------------------------------------------------

double ggml_type_bits(GgmlType t) {
    switch (t) {
        case GgmlType::f32: return 32.0;
        case GgmlType::f16: return 16.0;
        case GgmlType::q8_0: return 34.0 * 8 / 32;     // d + 32 x int8 = 34 B / 32 = 8.5
        case GgmlType::q6_k: return 210.0 * 8 / 256;   // ql[128] qh[64] scales[16] d = 210 B / 256 = 6.5625
        case GgmlType::q5_k: return 176.0 * 8 / 256;   // d dmin scales[12] qh[32] qs[128] = 176 B / 256 = 5.5
        case GgmlType::q4_k: return 144.0 * 8 / 256;   // d dmin scales[12] qs[128] = 144 B / 256 = 4.5
        case GgmlType::q3_k: return 110.0 * 8 / 256;   // hmask[32] qs[64] scales[12] d = 110 B / 256 = 3.4375
        case GgmlType::q2_k: return 84.0 * 8 / 256;    // scales[16] qs[64] d dmin = 84 B / 256 = 2.625
        case GgmlType::q4_0: return 18.0 * 8 / 32;     // d + 16 B = 18 B / 32 = 4.5
        case GgmlType::q4_1: return 20.0 * 8 / 32;     // d m + 16 B = 20 B / 32 = 5.0
        case GgmlType::q5_0: return 22.0 * 8 / 32;     // d qh[4] qs[16] = 22 B / 32 = 5.5
        case GgmlType::q5_1: return 24.0 * 8 / 32;     // d m qh[4] qs[16] = 24 B / 32 = 6.0
        case GgmlType::iq4_nl: return 18.0 * 8 / 32;   // d + 16 B = 18 B / 32 = 4.5
    }
    return 16.0;
}

int ggml_block_size(GgmlType t) {
    switch (t) {
        case GgmlType::f32: case GgmlType::f16: return 1;
        case GgmlType::q6_k: case GgmlType::q5_k: case GgmlType::q4_k: case GgmlType::q3_k: case GgmlType::q2_k:
            return 256;   // QK_K
        default: return 32;   // QK4_0, QK8_0, ...
    }
}

std::string_view ggml_type_name(GgmlType t) {
    switch (t) {
        case GgmlType::f32: return "F32";
        case GgmlType::f16: return "F16";
        case GgmlType::q8_0: return "Q8_0";
        case GgmlType::q6_k: return "Q6_K";
        case GgmlType::q5_k: return "Q5_K";
        case GgmlType::q4_k: return "Q4_K";
        case GgmlType::q3_k: return "Q3_K";
        case GgmlType::q2_k: return "Q2_K";
        case GgmlType::q4_0: return "Q4_0";
        case GgmlType::q4_1: return "Q4_1";
        case GgmlType::q5_0: return "Q5_0";
        case GgmlType::q5_1: return "Q5_1";
        case GgmlType::iq4_nl: return "IQ4_NL";
    }
    return "?";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Weight formats
// ---------------------------------------------------------------------------------------------

const std::vector<WeightFormat>& weight_formats() {
    // Ordered from most to least precise; fit() walks this order.
    static const std::vector<WeightFormat> kFormats = {
        {WeightId::fp32, "fp32", "FP32", WeightFamily::floating, 32.0, GgmlType::f32},
        {WeightId::bf16, "bf16", "BF16", WeightFamily::floating, 16.0, GgmlType::f16},
        {WeightId::fp16, "fp16", "FP16", WeightFamily::floating, 16.0, GgmlType::f16},
        {WeightId::q8_0, "q8_0", "GGUF Q8_0 (llama.cpp)", WeightFamily::gguf, 8.5, GgmlType::q8_0},
        {WeightId::fp8, "fp8", "FP8 (E4M3)", WeightFamily::floating, 8.0, GgmlType::q8_0},
        {WeightId::int8, "int8", "INT8 (W8A8 / LLM.int8)", WeightFamily::grouped, 8.0, GgmlType::q8_0},
        {WeightId::q6_k, "q6_k", "GGUF Q6_K (llama.cpp)", WeightFamily::gguf, 6.5625, GgmlType::q6_k},
        {WeightId::q5_k_m, "q5_k_m", "GGUF Q5_K_M (llama.cpp)", WeightFamily::gguf, 5.5, GgmlType::q5_k},
        {WeightId::q4_k_m, "q4_k_m", "GGUF Q4_K_M (llama.cpp)", WeightFamily::gguf, 4.5, GgmlType::q4_k},
        {WeightId::q4_0, "q4_0", "GGUF Q4_0 (llama.cpp)", WeightFamily::gguf, 4.5, GgmlType::q4_0},
        {WeightId::int4, "int4", "INT4 (GPTQ/AWQ, group-wise)", WeightFamily::grouped, 4.0, GgmlType::q4_0},
        {WeightId::nf4, "nf4", "NF4 (bitsandbytes)", WeightFamily::nf4, 4.0, GgmlType::q4_0},
        {WeightId::q3_k_m, "q3_k_m", "GGUF Q3_K_M (llama.cpp)", WeightFamily::gguf, 3.4375, GgmlType::q3_k},
        {WeightId::q2_k, "q2_k", "GGUF Q2_K (llama.cpp)", WeightFamily::gguf, 2.625, GgmlType::q2_k},
    };
    return kFormats;
}

const WeightFormat& weight_format(std::string_view id) {
    for (const auto& f : weight_formats())
        if (f.id == id) return f;
    std::string allowed;
    for (const auto& f : weight_formats()) allowed += (allowed.empty() ? "" : ", ") + std::string(f.id);
    throw Error("weights", "unknown format '" + std::string(id) + "'; allowed: " + allowed);
}

bool is_quantized(const WeightFormat& f) { return f.bits < 16.0; }

double linear_bits_per_weight(const WeightFormat& f, const QuantParams& q) {
    switch (f.family) {
        case WeightFamily::floating:
            // fp8: one fp32 scale per tensor (or per channel) is < 0.01 bit per weight: neglected.
            return f.bits;
        case WeightFamily::grouped:
            if (f.bits >= 8.0) {
                // INT8 W8A8: one scale per output channel, < 0.01 bit per weight: neglected.
                return f.bits;
            }
            // GPTQ/AWQ (AutoGPTQ, AutoAWQ checkpoints): an fp16 scale and a 4-bit zero point
            // (qzeros, packed 8 per int32) per group of `group_size` input weights:
            // 4 + (16 + 4) / 128 = 4.156 bits at the default group size.
            return f.bits + 20.0 / (q.group_size > 0 ? q.group_size : 128);
        case WeightFamily::nf4:
            // QLoRA paper (Dettmers et al. 2023, sec. 3): blocks of 64 with an fp32 absmax cost
            // 32/64 = 0.5 bit; double quantization stores the absmax as 8-bit with an fp32
            // constant per 256 blocks: 8/64 + 32/(64*256) = 0.127 bit.
            return q.double_quant ? 4.0 + 8.0 / 64 + 32.0 / (64.0 * 256.0) : 4.0 + 32.0 / 64;
        case WeightFamily::gguf:
            return ggml_type_bits(f.gguf_base);
    }
    return f.bits;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] GGUF file types
// A transcription of llama.cpp's llama_tensor_get_type() (src/llama-quant.cpp, 2025) for the
// file types offered here, without an importance matrix. The quantizer walks the tensors;
// attn_v tensors are counted by i_attention_wv (the layer index for models where every layer
// has attention), ffn_down tensors by layer.
// ---------------------------------------------------------------------------------------------

namespace {

// llama.cpp: "i_layer < n_layers/8 || i_layer >= 7*n_layers/8 || (i_layer - n_layers/8)%3 == 2"
bool use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

GgmlType fallback_for_row(GgmlType t, long long row) {
    // llama.cpp: a type whose block does not divide the row falls back to a 32-block type.
    if (row <= 0 || row % ggml_block_size(t) == 0) return t;
    GgmlType f;
    switch (t) {
        case GgmlType::q2_k: case GgmlType::q3_k: f = GgmlType::iq4_nl; break;
        case GgmlType::q4_k: f = GgmlType::q5_0; break;
        case GgmlType::q5_k: f = GgmlType::q5_1; break;
        case GgmlType::q6_k: f = GgmlType::q8_0; break;
        default: f = t; break;
    }
    if (row % ggml_block_size(f) != 0) f = GgmlType::f16;
    return f;
}

}  // namespace

GgufTraits gguf_traits(const ModelArch& a) {
    GgufTraits t;
    t.n_layers = a.n_layers;
    t.n_gqa = a.n_kv_heads > 0 ? a.n_heads / a.n_kv_heads : 1;
    t.n_expert = a.n_routed_experts;
    const std::string& m = a.model_type;
    t.falcon = m == "falcon";
    // llama.cpp's LLM_TYPE_70B: llama/qwen2-style models with 80 layers and grouped KV heads.
    t.type_70b = a.n_layers == 80 && a.n_kv_heads != a.n_heads && (m == "llama" || m == "mistral" || m == "qwen2");
    // llama.cpp's converter writes one attn_qkv tensor for these families.
    t.fused_qkv = m == "phi3" || m == "gpt2" || m == "gpt_bigcode" || m == "bloom" || m == "falcon" || m == "gpt_neox";
    return t;
}

GgmlType gguf_tensor_type(const WeightFormat& format, TensorClass cls, const ModelArch& a, int layer, long long row) {
    return gguf_tensor_type(format, cls, gguf_traits(a), layer, row);
}

GgmlType gguf_tensor_type(const WeightFormat& format, TensorClass cls, const GgufTraits& m, int layer, long long row) {
    const GgmlType base = format.gguf_base;
    if (format.family != WeightFamily::gguf) return base;
    const WeightId ft = format.wid;
    const int n = m.n_layers;
    GgmlType t = base;

    switch (cls) {
        case TensorClass::output:
            // The output head (or the tied token embedding that serves as output).
            if (m.falcon || row % ggml_block_size(base) != 0) return GgmlType::q8_0;
            return base == GgmlType::q8_0 ? GgmlType::q8_0 : GgmlType::q6_k;
        case TensorClass::token_embd:
            break;
        case TensorClass::attn_v:
            if (ft == WeightId::q2_k) t = m.n_gqa >= 4 ? GgmlType::q4_k : GgmlType::q3_k;
            else if (ft == WeightId::q3_k_m) t = layer < 2 ? GgmlType::q5_k : GgmlType::q4_k;
            else if ((ft == WeightId::q4_k_m || ft == WeightId::q5_k_m) && use_more_bits(layer, n)) t = GgmlType::q6_k;
            if (m.type_70b && (t == GgmlType::q3_k || t == GgmlType::q4_k)) t = GgmlType::q5_k;
            if (m.n_expert == 8) t = GgmlType::q8_0;   // "bumping this to Q8_0 trades just ~128MB"
            break;
        case TensorClass::attn_k:
            if (m.n_expert == 8) t = GgmlType::q8_0;
            break;
        case TensorClass::ffn_down:
            if (ft == WeightId::q2_k) t = GgmlType::q3_k;
            else if (ft == WeightId::q3_k_m)
                t = layer < n / 16 ? GgmlType::q5_k : (!m.falcon || use_more_bits(layer, n)) ? GgmlType::q4_k : GgmlType::q3_k;
            else if (ft == WeightId::q4_k_m) {
                if (m.falcon) t = layer < n / 16 ? GgmlType::q6_k : use_more_bits(layer, n) ? GgmlType::q5_k : GgmlType::q4_k;
                else if (use_more_bits(layer, n)) t = GgmlType::q6_k;
            } else if (ft == WeightId::q5_k_m && use_more_bits(layer, n)) t = GgmlType::q6_k;
            break;
        case TensorClass::attn_output:
            if (!m.falcon) {
                if (m.n_expert == 8) {
                    if (ft == WeightId::q2_k || ft == WeightId::q3_k_m || ft == WeightId::q4_k_m) t = GgmlType::q5_k;
                } else {
                    if (ft == WeightId::q2_k) t = GgmlType::q3_k;
                    else if (ft == WeightId::q3_k_m) t = GgmlType::q4_k;
                }
            }
            break;
        case TensorClass::attn_qkv_fused:
            if (ft == WeightId::q3_k_m) t = GgmlType::q4_k;
            else if (ft == WeightId::q4_k_m) t = GgmlType::q5_k;
            else if (ft == WeightId::q5_k_m) t = GgmlType::q6_k;
            break;
        case TensorClass::attn_q: case TensorClass::attn_other: case TensorClass::ffn_gate_up: case TensorClass::other_2d:
            break;
    }
    return fallback_for_row(t, row);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] KV cache formats
// ---------------------------------------------------------------------------------------------

const std::vector<KvFormat>& kv_formats() {
    static const std::vector<KvFormat> kFormats = {
        {"fp32", 4.0, false},
        {"bf16", 2.0, false},
        {"fp16", 2.0, false},
        {"fp8", 1.0, false},                 // vLLM kv_cache_dtype fp8 (e4m3 / e5m2)
        {"q8_0", 34.0 / 32, true},           // llama.cpp --cache-type-k/v q8_0: 34 B per 32 values
        {"q4_0", 18.0 / 32, true},           // llama.cpp q4_0: 18 B per 32 values
    };
    return kFormats;
}

const KvFormat& kv_format(std::string_view id) {
    for (const auto& f : kv_formats())
        if (f.id == id) return f;
    std::string allowed;
    for (const auto& f : kv_formats()) allowed += (allowed.empty() ? "" : ", ") + std::string(f.id);
    throw Error("kv_cache", "unknown format '" + std::string(id) + "'; allowed: " + allowed);
}

}  // namespace gpusizer
