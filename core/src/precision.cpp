// precision.cpp: bits per weight of every format, and llama.cpp's per-tensor type choice.
//
// [SECTION] ggml block types
// [SECTION] Weight formats (and the class-by-class scheme of a checkpoint)
// [SECTION] GGUF file types: which ggml type each tensor gets
// [SECTION] KV cache formats
#include "gpusizer/precision.hpp"

#include <array>
#include <string>

#include "gpusizer/error.hpp"
#include "gpusizer/model.hpp"
#include "gguf_layer_rules.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] ggml block types
// Weights and bytes per block from the block structs and their static_asserts in ggml's
// ggml/src/ggml-common.h (ggml-org/llama.cpp, commit 01243c587feceaa5d6a6c2305535ef2f549c48b8):
// "d" an fp16 scale, "dmin"/"m" an fp16 min, "qs" packed quants, "qh" high bits, QK_K = 256.
// Bits per weight = bytes * 8 / weights.
// ---------------------------------------------------------------------------------------------

namespace {

struct GgmlInfo {
    GgmlType type;
    std::string_view name;
    int block;   // weights per block
    int bytes;   // bytes per block
    // Bits per weight, bytes * 8 / block, worked out at compile time (the same double as at run
    // time: one IEEE division of exact values); the estimate asks for it a dozen times.
    double bits = double(bytes) * 8.0 / double(block);
};

constexpr GgmlInfo kGgml[] = {
    {GgmlType::f32, "F32", 1, 4},
    {GgmlType::f16, "F16", 1, 2},
    {GgmlType::bf16, "BF16", 1, 2},
    {GgmlType::q8_0, "Q8_0", 32, 34},       // d + qs[32]                              = 8.5 bpw
    {GgmlType::q6_k, "Q6_K", 256, 210},     // ql[128] qh[64] scales[16] d             = 6.5625
    {GgmlType::q5_k, "Q5_K", 256, 176},     // d dmin scales[12] qh[32] qs[128]         = 5.5
    {GgmlType::q4_k, "Q4_K", 256, 144},     // d dmin scales[12] qs[128]                = 4.5
    {GgmlType::q3_k, "Q3_K", 256, 110},     // hmask[32] qs[64] scales[12] d            = 3.4375
    {GgmlType::q2_k, "Q2_K", 256, 84},      // scales[16] qs[64] d dmin                 = 2.625
    {GgmlType::q8_k, "Q8_K", 256, 292},     // float d, qs[256], int16 bsums[16]        = 9.125 (intermediate only)
    {GgmlType::q4_0, "Q4_0", 32, 18},       // d qs[16]                                 = 4.5
    {GgmlType::q4_1, "Q4_1", 32, 20},       // d m qs[16]                               = 5.0
    {GgmlType::q5_0, "Q5_0", 32, 22},       // d qh[4] qs[16]                           = 5.5
    {GgmlType::q5_1, "Q5_1", 32, 24},       // d m qh[4] qs[16]                         = 6.0
    {GgmlType::iq4_nl, "IQ4_NL", 32, 18},   // d qs[16]                                 = 4.5
    {GgmlType::iq4_xs, "IQ4_XS", 256, 136}, // d scales_h(u16) scales_l[4] qs[128]       = 4.25
    {GgmlType::iq3_s, "IQ3_S", 256, 110},   // d qs[64] qh[8] signs[32] scales[4]       = 3.4375
    {GgmlType::iq3_xxs, "IQ3_XXS", 256, 98},// d qs[96]                                 = 3.0625
    {GgmlType::iq2_s, "IQ2_S", 256, 82},    // d qs[64] qh[8] scales[8]                 = 2.5625
    {GgmlType::iq2_xs, "IQ2_XS", 256, 74},  // d qs(u16)[32] scales[8]                  = 2.3125
    {GgmlType::iq2_xxs, "IQ2_XXS", 256, 66},// d qs(u16)[32]                            = 2.0625
    {GgmlType::iq1_m, "IQ1_M", 256, 56},    // qs[32] qh[16] scales[8]                  = 1.75
    {GgmlType::iq1_s, "IQ1_S", 256, 50},    // d qs[32] qh(u16)[8]                      = 1.5625
    {GgmlType::tq2_0, "TQ2_0", 256, 66},    // qs[64] d                                 = 2.0625
    {GgmlType::tq1_0, "TQ1_0", 256, 54},    // qs[48] qh[4] d                           = 1.6875
    {GgmlType::mxfp4, "MXFP4", 32, 17},     // e (E8M0) qs[16]                          = 4.25
    {GgmlType::nvfp4, "NVFP4", 64, 36},     // d[4] (UE4M3, one per 16) qs[32]          = 4.5
};

// Row of each enumerator in kGgml, built at compile time: the estimate asks for a type's size a
// few dozen times (a linear search was 7% of an estimate's instructions under callgrind, and a
// table built on first use paid its guard on every call).
constexpr std::size_t kGgmlCount = std::size_t(GgmlType::nvfp4) + 1;   // nvfp4 is the last enumerator
struct GgmlIndex {
    std::array<unsigned char, kGgmlCount> row{};
};
constexpr GgmlIndex make_ggml_index() {
    GgmlIndex x{};
    for (std::size_t i = 0; i < kGgmlCount; ++i)
        x.row[i] = 1;   // unreachable default: every enumerator has a row (tests/test_precision.cpp checks)
    for (std::size_t i = 0; i < sizeof(kGgml) / sizeof(kGgml[0]); ++i) x.row[std::size_t(kGgml[i].type)] = static_cast<unsigned char>(i);
    return x;
}
constexpr GgmlIndex kGgmlIndex = make_ggml_index();

const GgmlInfo& info(GgmlType t) {
    const std::size_t i = std::size_t(t);
    return kGgml[kGgmlIndex.row[i < kGgmlCount ? i : 1]];
}

// The entry of a format table with id `id`, else Error(key) that lists the ids allowed.
template <typename Format>
const Format& find_format(const std::vector<Format>& table, std::string_view id, const char* key) {
    // The first letter before the whole id: most rows differ there or in length, and the
    // estimate looks up two formats per call (a full compare of each row was 2% of it).
    for (const Format& f : table)
        if (f.id.size() == id.size() && (id.empty() || f.id[0] == id[0]) && f.id == id) return f;
    std::string allowed;
    for (const Format& f : table) allowed += (allowed.empty() ? "" : ", ") + std::string(f.id);
    throw_error(key, "unknown format '" + std::string(id) + "'; allowed: " + allowed);
}

}  // namespace

double ggml_type_bits(GgmlType t) { return info(t).bits; }
int ggml_block_size(GgmlType t) { return info(t).block; }
int ggml_block_bytes(GgmlType t) { return info(t).bytes; }
std::string_view to_string(GgmlType t) { return info(t).name; }

const std::vector<GgmlType>& all_ggml_types() {
    static const std::vector<GgmlType> kTypes = [] {
        std::vector<GgmlType> v;
        for (const GgmlInfo& g : kGgml) v.push_back(g.type);
        return v;
    }();
    return kTypes;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Weight formats
// ---------------------------------------------------------------------------------------------

std::string_view to_string(WeightGroup g) {
    switch (g) {
        case WeightGroup::native: return "native";
        case WeightGroup::gptq_awq: return "GPTQ / AWQ";
        case WeightGroup::bitsandbytes: return "bitsandbytes";
        case WeightGroup::gguf_k: return "GGUF K-quants";
        case WeightGroup::gguf_i: return "GGUF I-quants";
    }
    return "?";
}

const std::vector<WeightFormat>& weight_formats() {
    using F = WeightFamily;
    using G = WeightGroup;
    using T = GgmlType;
    const ClassMask all = kAllClasses;
    // Ordered from most to least precise (by the bits of the bulk of the weights); fit() walks
    // this order. `bits` of a GGUF file type is its default tensor type's (llama.cpp
    // llama_ftype_get_default_type); the per-tensor mix adds to it.
    static const std::vector<WeightFormat> kFormats = {
        {WeightId::fp32, "fp32", "FP32", F::floating, 32.0, T::f32, G::native, all},
        {WeightId::bf16, "bf16", "BF16", F::floating, 16.0, T::f16, G::native, all},
        {WeightId::fp16, "fp16", "FP16", F::floating, 16.0, T::f16, G::native, all},
        {WeightId::q8_0, "q8_0", "GGUF Q8_0 (llama.cpp)", F::gguf, 8.5, T::q8_0, G::gguf_k, all},
        {WeightId::fp8, "fp8", "FP8 (E4M3)", F::floating, 8.0, T::q8_0, G::native},
        {WeightId::int8, "int8", "INT8 (W8A8 / LLM.int8)", F::grouped, 8.0, T::q8_0, G::gptq_awq},
        {WeightId::q6_k, "q6_k", "GGUF Q6_K (llama.cpp)", F::gguf, 6.5625, T::q6_k, G::gguf_k, all},
        {WeightId::q5_1, "q5_1", "GGUF Q5_1 (llama.cpp)", F::gguf, 6.0, T::q5_1, G::gguf_k, all},
        {WeightId::q5_k_m, "q5_k_m", "GGUF Q5_K_M (llama.cpp)", F::gguf, 5.5, T::q5_k, G::gguf_k, all},
        {WeightId::q5_k_s, "q5_k_s", "GGUF Q5_K_S (llama.cpp)", F::gguf, 5.5, T::q5_k, G::gguf_k, all},
        {WeightId::q5_0, "q5_0", "GGUF Q5_0 (llama.cpp)", F::gguf, 5.5, T::q5_0, G::gguf_k, all},
        {WeightId::q4_1, "q4_1", "GGUF Q4_1 (llama.cpp)", F::gguf, 5.0, T::q4_1, G::gguf_k, all},
        {WeightId::q4_k_m, "q4_k_m", "GGUF Q4_K_M (llama.cpp)", F::gguf, 4.5, T::q4_k, G::gguf_k, all},
        {WeightId::q4_k_s, "q4_k_s", "GGUF Q4_K_S (llama.cpp)", F::gguf, 4.5, T::q4_k, G::gguf_k, all},
        {WeightId::q4_0, "q4_0", "GGUF Q4_0 (llama.cpp)", F::gguf, 4.5, T::q4_0, G::gguf_k, all},
        {WeightId::iq4_nl, "iq4_nl", "GGUF IQ4_NL (llama.cpp)", F::gguf, 4.5, T::iq4_nl, G::gguf_i, all},
        {WeightId::nvfp4, "nvfp4", "NVFP4 (FP4, FP8 scale per 16)", F::microscaled, 4.0, T::nvfp4, G::native},
        {WeightId::mxfp4, "mxfp4", "MXFP4 (OCP, FP4, E8M0 scale per 32)", F::microscaled, 4.0, T::mxfp4, G::native},
        {WeightId::mxfp4_moe, "mxfp4_moe", "GGUF MXFP4_MOE (llama.cpp)", F::gguf, 4.25, T::mxfp4, G::gguf_k, all},
        {WeightId::iq4_xs, "iq4_xs", "GGUF IQ4_XS (llama.cpp)", F::gguf, 4.25, T::iq4_xs, G::gguf_i, all},
        {WeightId::int4, "int4", "INT4 (GPTQ/AWQ, group-wise)", F::grouped, 4.0, T::q4_0, G::gptq_awq},
        {WeightId::nf4, "nf4", "NF4 (bitsandbytes)", F::nf4, 4.0, T::q4_0, G::bitsandbytes},
        {WeightId::fp4, "fp4", "FP4 (bitsandbytes)", F::nf4, 4.0, T::q4_0, G::bitsandbytes},
        {WeightId::q3_k_l, "q3_k_l", "GGUF Q3_K_L (llama.cpp)", F::gguf, 3.4375, T::q3_k, G::gguf_k, all},
        {WeightId::q3_k_m, "q3_k_m", "GGUF Q3_K_M (llama.cpp)", F::gguf, 3.4375, T::q3_k, G::gguf_k, all},
        {WeightId::iq3_m, "iq3_m", "GGUF IQ3_M (llama.cpp)", F::gguf, 3.4375, T::iq3_s, G::gguf_i, all},
        {WeightId::q3_k_s, "q3_k_s", "GGUF Q3_K_S (llama.cpp)", F::gguf, 3.4375, T::q3_k, G::gguf_k, all},
        {WeightId::iq3_s, "iq3_s", "GGUF IQ3_S (llama.cpp)", F::gguf, 3.4375, T::iq3_s, G::gguf_i, all},
        {WeightId::iq3_xxs, "iq3_xxs", "GGUF IQ3_XXS (llama.cpp)", F::gguf, 3.0625, T::iq3_xxs, G::gguf_i, all},
        {WeightId::q2_k, "q2_k", "GGUF Q2_K (llama.cpp)", F::gguf, 2.625, T::q2_k, G::gguf_k, all},
        {WeightId::q2_k_s, "q2_k_s", "GGUF Q2_K_S (llama.cpp)", F::gguf, 2.625, T::q2_k, G::gguf_k, all},
        {WeightId::iq2_m, "iq2_m", "GGUF IQ2_M (llama.cpp)", F::gguf, 2.5625, T::iq2_s, G::gguf_i, all},
        {WeightId::iq2_s, "iq2_s", "GGUF IQ2_S (llama.cpp)", F::gguf, 2.3125, T::iq2_xs, G::gguf_i, all},
        {WeightId::iq2_xs, "iq2_xs", "GGUF IQ2_XS (llama.cpp)", F::gguf, 2.3125, T::iq2_xs, G::gguf_i, all},
        {WeightId::iq2_xxs, "iq2_xxs", "GGUF IQ2_XXS (llama.cpp)", F::gguf, 2.0625, T::iq2_xxs, G::gguf_i, all},
        {WeightId::tq2_0, "tq2_0", "GGUF TQ2_0 (llama.cpp, ternary)", F::gguf, 2.0625, T::tq2_0, G::gguf_i, all},
        {WeightId::iq1_m, "iq1_m", "GGUF IQ1_M (llama.cpp)", F::gguf, 1.75, T::iq1_m, G::gguf_i, all},
        {WeightId::tq1_0, "tq1_0", "GGUF TQ1_0 (llama.cpp, ternary)", F::gguf, 1.6875, T::tq1_0, G::gguf_i, all},
        {WeightId::iq1_s, "iq1_s", "GGUF IQ1_S (llama.cpp)", F::gguf, 1.5625, T::iq1_s, G::gguf_i, all},
    };
    return kFormats;
}

const WeightFormat& weight_format(std::string_view id) { return find_format(weight_formats(), id, "weights"); }

std::string gguf_format_ids() {
    std::string out;
    for (const auto& f : weight_formats())
        if (f.family == WeightFamily::gguf) out += (out.empty() ? "" : ", ") + std::string(f.id);
    return out;
}

bool is_quantized(const WeightFormat& f) { return f.bits < 16.0; }

double linear_bits_per_weight(const WeightFormat& f, const QuantParams& q) {
    switch (f.family) {
        case WeightFamily::floating:
            // fp8 with block-wise scales (DeepSeek V3 weight_block_size [128, 128]): one fp32 scale
            // per tile, 32 / 16384 = 0.002 bit. One scale per tensor or per channel: < 0.01 bit, neglected.
            if (f.bits < 16.0 && q.block_rows > 0 && q.block_cols > 0) return f.bits + 32.0 / (double(q.block_rows) * q.block_cols);
            return f.bits;
        case WeightFamily::grouped: {
            if (f.bits >= 8.0 && q.group_size <= 0) {
                // INT8 W8A8: one scale per output channel, < 0.01 bit per weight: neglected.
                return f.bits;
            }
            // GPTQ/AWQ (AutoGPTQ, AutoAWQ checkpoints): an fp16 scale and a 4-bit zero point
            // (qzeros, packed 8 per int32) per group of `group_size` input weights:
            // 4 + (16 + 4) / 128 = 4.156 bits at the default group size. compressed-tensors
            // W4A16 is symmetric (no zero): 4 + 16 / 128 = 4.125; W8A16: 8 + 16 / 128.
            if (f.bits >= 8.0) return f.bits;   // int8: per-channel scales (W8A8, LLM.int8)
            const double g = q.group_size > 0 ? q.group_size : 128;
            return f.bits + (16.0 + (q.zero_point ? f.bits : 0.0)) / g;
        }
        case WeightFamily::nf4:
            // bitsandbytes 4-bit, NF4 and FP4 codes alike (bnb.functional.quantize_4bit, blocksize
            // 64). QLoRA paper (Dettmers et al. 2023, sec. 3): blocks of 64 with an fp32 absmax
            // cost 32/64 = 0.5 bit; double quantization stores the absmax as 8-bit with an fp32
            // constant per 256 blocks: 8/64 + 32/(64*256) = 0.127 bit.
            return q.double_quant ? 4.0 + 8.0 / 64 + 32.0 / (64.0 * 256.0) : 4.0 + 32.0 / 64;
        case WeightFamily::microscaled:
            // OCP Microscaling v1.0: MXFP4 = 32 FP4 (E2M1) values sharing one E8M0 scale:
            // 4 + 8/32 = 4.25. NVFP4 (NVIDIA, compressed-tensors NVFP4 / ModelOpt): 16 FP4 values
            // sharing one FP8 E4M3 scale, 4 + 8/16 = 4.5, plus one FP32 scale per tensor (neglected).
            return f.wid == WeightId::nvfp4 ? 4.0 + 8.0 / 16 : 4.0 + 8.0 / 32;
        case WeightFamily::gguf:
            return ggml_type_bits(f.gguf_base);
    }
    return f.bits;
}

WeightScheme weight_scheme(const WeightFormat& f) {
    WeightScheme s;
    s.format = &f;
    s.classes = f.quantizes;
    s.float_bits = f.bits >= 16.0 ? f.bits : 16.0;
    return s;
}

double scheme_class_bits(const WeightScheme& s, SchemeClass c) {
    if (!s.format || !(s.classes & class_bit(c))) return s.float_bits;
    if (!is_quantized(*s.format)) return s.format->bits;
    return linear_bits_per_weight(*s.format, s.params);
}

std::optional<WeightScheme> native_weight_scheme(const ModelArch& a) {
    if (a.native_format.empty()) return std::nullopt;
    const WeightFormat* f = nullptr;
    for (const WeightFormat& w : weight_formats())
        if (w.id == a.native_format && w.family != WeightFamily::gguf) f = &w;
    if (!f) return std::nullopt;
    WeightScheme s = weight_scheme(*f);
    // The unquantized rest keeps the checkpoint dtype: 32 bits for float32 checkpoints, else 16.
    s.float_bits = a.native_dtype == "float32" ? 32.0 : 16.0;
    if (a.native_group_size > 0) {
        switch (f->family) {
            case WeightFamily::grouped: s.params.group_size = a.native_group_size; break;
            case WeightFamily::floating:   // FP8 weight_block_size tiles: one fp32 scale per tile
                s.params.block_rows = a.native_group_size;
                s.params.block_cols = 1;
                break;
            default: break;   // MXFP4 32, NVFP4 16, bitsandbytes 64: fixed by the format
        }
    }
    s.params.double_quant = a.native_double_quant;
    for (const std::string& m : a.native_unquantized_modules) {
        auto has = [&](const char* t) { return m.find(t) != std::string::npos; };
        if (has("self_attn") || has("attn")) s.classes &= ~class_bit(SchemeClass::attention);
        else if (has("router") || (has("mlp.gate") && !has("gate_proj"))) s.classes &= ~class_bit(SchemeClass::router);
        else if (has("shared_expert")) s.classes &= ~class_bit(SchemeClass::shared_expert);
        else if (has("experts")) s.classes &= ~class_bit(SchemeClass::routed_expert);
        else if (has("embed")) s.classes &= ~class_bit(SchemeClass::embedding);
        else if (has("lm_head")) s.classes &= ~class_bit(SchemeClass::lm_head);
        else if (has("mlp")) s.classes &= ~(class_bit(SchemeClass::mlp) | class_bit(SchemeClass::shared_expert));
    }
    return s;
}

const WeightFormat& native_float_format(const ModelArch& a) {
    if (a.native_dtype == "float32") return weight_format("fp32");
    if (a.native_dtype == "float16") return weight_format("fp16");
    return weight_format("bf16");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] GGUF file types
// A transcription of llama.cpp's llama_tensor_get_type_impl() and tensor_type_fallback()
// (src/llama-quant.cpp, ggml-org/llama.cpp commit 007dbbf3fd17eefe9b47fee45f48f7ba5e62b714)
// for the file types offered here. The quantizer walks the tensors in layer order; attn_v-like
// tensors are counted by i_attention_wv (the layer index for models where every layer has
// attention), ffn_down tensors by the layer parsed from their name. The IQ1/IQ2 rules count
// ffn_down tensors (i_ffn_down): with shared experts beside routed ones that counter runs ahead
// of the layer index; the layer index is used here.
// ---------------------------------------------------------------------------------------------

namespace {

// llama.cpp: "i_layer < n_layers/8 || i_layer >= 7*n_layers/8 || (i_layer - n_layers/8)%3 == 2"
bool use_more_bits(int i, int n) { return gguf_use_more_bits(i, n); }

GgmlType fallback_for_row(GgmlType t, long long row) {
    // tensor_type_fallback: a type whose block does not divide the row (ne[0]) falls back to a
    // 32-block type, and to F16 when even that does not divide it.
    if (row <= 0 || row % info(t).block == 0) return t;
    GgmlType f;
    switch (t) {
        case GgmlType::iq1_s: case GgmlType::iq1_m: case GgmlType::iq2_xxs: case GgmlType::iq2_xs:
        case GgmlType::iq2_s: case GgmlType::iq3_xxs: case GgmlType::iq3_s: case GgmlType::iq4_xs:
            f = GgmlType::iq4_nl; break;
        case GgmlType::q2_k: case GgmlType::q3_k: case GgmlType::tq1_0: case GgmlType::tq2_0:
            f = GgmlType::q4_0; break;
        case GgmlType::q4_k: f = GgmlType::q5_0; break;
        case GgmlType::q5_k: f = GgmlType::q5_1; break;
        case GgmlType::q6_k: f = GgmlType::q8_0; break;
        default: f = GgmlType::f16; break;   // llama.cpp throws "no tensor type fallback"; F16 keeps the tensor
    }
    if (row % info(f).block != 0) f = GgmlType::f16;
    return f;
}

bool is_iq12(WeightId ft) {
    switch (ft) {
        case WeightId::iq2_xxs: case WeightId::iq2_xs: case WeightId::iq1_s: case WeightId::iq2_s: case WeightId::iq2_m:
        case WeightId::iq1_m:
            return true;
        default: return false;
    }
}

// llama.cpp refuses to write IQ1_*, IQ2_* or IQ3_XXS tensors without an importance matrix.
bool needs_imatrix(WeightId ft) { return is_iq12(ft) || ft == WeightId::iq3_xxs; }

// Which per-layer predicates a file type's rules read (for gguf_layer_key).
struct LayerRules {
    bool more = false;   // use_more_bits(layer, n)
    int first = 0;       // layer < first (attn_v counted by i_attention_wv)
    int frac = 0;        // layer < n / frac (ffn_down)
};

LayerRules layer_rules(WeightId ft, const GgufTraits& m) {
    const bool imatrix = m.imatrix || needs_imatrix(ft);
    LayerRules r;
    switch (ft) {
        case WeightId::q4_k_m: r.more = true; if (m.falcon) r.frac = 16; break;
        case WeightId::q5_k_m: r.more = true; break;
        case WeightId::q3_k_m: r.first = 2; r.frac = 16; r.more = m.falcon; break;
        case WeightId::q4_k_s: r.first = 4; if (!m.falcon) r.frac = 8; break;
        case WeightId::q2_k_s: r.frac = 8; break;
        case WeightId::iq3_m: r.frac = 8; r.more = m.n_expert == 8; break;
        case WeightId::iq3_xxs: if (!imatrix) r.frac = 8; break;
        case WeightId::iq4_nl: case WeightId::iq4_xs: if (!imatrix) r.frac = 8; break;
        case WeightId::q4_0: case WeightId::q5_0: if (imatrix) r.frac = 8; break;
        default: if (is_iq12(ft)) r.frac = 8; break;
    }
    return r;
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

GgufLayerRules gguf_layer_rules(const WeightFormat& format, const GgufTraits& m) {
    GgufLayerRules g;
    if (format.family != WeightFamily::gguf) return g;
    const LayerRules r = layer_rules(format.wid, m);
    g.more = r.more;
    g.first = r.first;
    g.frac = r.frac;
    g.n_layers = m.n_layers;
    return g;
}

unsigned gguf_layer_key(const WeightFormat& format, const GgufTraits& m, int layer) { return gguf_layer_rules(format, m).key(layer); }

bool gguf_has_layer_rules(const WeightFormat& format, const GgufTraits& m) { return gguf_layer_rules(format, m).any(); }

GgmlType gguf_tensor_type(const WeightFormat& format, TensorClass cls, const GgufTraits& m, int layer, long long row) {
    const GgmlType base = format.gguf_base;
    if (format.family != WeightFamily::gguf) return base;
    using T = GgmlType;
    using W = WeightId;
    const WeightId ft = format.wid;
    const int n = m.n_layers;
    // (What only some rules read is worked out where they read it: an estimate asks for a
    // dozen tensor types.)
    const auto imatrix = [&] { return m.imatrix || needs_imatrix(ft); };
    const bool gqa4 = m.n_gqa >= 4;
    const bool attn_v_like = cls == TensorClass::attn_v || cls == TensorClass::attn_qkv_fused || cls == TensorClass::attn_kv_b;
    const bool down = cls == TensorClass::ffn_down || cls == TensorClass::ffn_down_exps;
    T t = base;

    if (cls == TensorClass::output) {
        // The output head (or the tied token embedding that serves as output).
        if (ft == W::mxfp4_moe) t = T::q8_0;
        else if (m.falcon || row % ggml_block_size(base) != 0) t = T::q8_0;
        else if (ft == W::iq2_xxs || ft == W::iq2_xs || ft == W::iq3_xxs || ft == W::iq1_s || ft == W::iq2_s || ft == W::iq2_m ||
                 ft == W::iq1_m)
            t = T::q5_k;
        else if (base != T::q8_0) t = T::q6_k;
        return fallback_for_row(t, row);
    }
    if (ft == W::mxfp4_moe) {
        // MoE tensors (3-D, stacked experts) -> MXFP4, every other quantized tensor -> Q8_0.
        t = (cls == TensorClass::ffn_gate_up_exps || cls == TensorClass::ffn_down_exps) ? T::mxfp4 : T::q8_0;
        return fallback_for_row(t, row);
    }
    if (cls == TensorClass::token_embd) {
        // An untied token embedding.
        if (ft == W::iq2_xxs || ft == W::iq2_xs || ft == W::iq1_s || ft == W::iq1_m) t = T::q2_k;
        else if (ft == W::iq2_s || ft == W::iq2_m || ft == W::iq3_xxs) t = T::iq3_s;
        else if (ft == W::tq1_0 || ft == W::tq2_0) t = T::q4_k;
        return fallback_for_row(t, row);
    }
    if (is_iq12(ft)) {
        const bool s_or_m = ft == W::iq2_s || ft == W::iq2_m;
        if (attn_v_like) {
            t = gqa4 || m.n_expert >= 4 ? T::q4_k : s_or_m ? T::iq3_s : T::q2_k;
        } else if (m.n_expert == 8 && cls == TensorClass::attn_k) {
            t = T::q4_k;
        } else if (down) {
            if (layer < n / 8) t = s_or_m ? T::iq3_s : T::q2_k;
        } else if (cls == TensorClass::attn_output) {
            if (m.n_expert == 8) t = T::q5_k;
            else if (ft == W::iq1_s || ft == W::iq1_m) t = T::iq2_xxs;
            else if (s_or_m) t = T::iq3_s;
        }
        return fallback_for_row(t, row);
    }
    if (attn_v_like) {
        const int i = layer;   // i_attention_wv
        const int n_v = m.n_attn_v > 0 ? m.n_attn_v : n;   // n_attention_wv
        if (ft == W::q2_k) t = gqa4 ? T::q4_k : T::q3_k;
        else if (ft == W::q2_k_s && gqa4) t = T::q4_k;
        else if (ft == W::iq3_xxs) t = gqa4 ? T::q4_k : !imatrix() ? T::iq3_s : T::iq3_xxs;
        else if (ft == W::iq3_s && gqa4) t = T::q4_k;
        else if (ft == W::iq3_m) t = T::q4_k;
        else if (ft == W::q3_k_m) t = i < 2 ? T::q5_k : T::q4_k;
        else if (ft == W::q3_k_l) t = T::q5_k;
        else if ((ft == W::iq4_nl || ft == W::iq4_xs) && gqa4) t = T::q5_k;
        else if ((ft == W::q4_k_m || ft == W::q5_k_m) && use_more_bits(i, n_v)) t = T::q6_k;
        else if (ft == W::q4_k_s && i < 4) t = T::q5_k;
        // "In the 70B model we have 8 heads sharing the same attn_v weights ... more bits".
        if (m.type_70b && (t == T::q3_k || t == T::q4_k)) t = T::q5_k;
        if (m.n_expert == 8) t = T::q8_0;   // "bumping this to Q8_0 trades just ~128MB"
    } else if (cls == TensorClass::attn_k) {
        if (m.n_expert == 8) t = T::q8_0;
        else if (ft == W::iq3_xxs) t = T::iq2_s;
    } else if (cls == TensorClass::attn_q) {
        if (ft == W::iq3_xxs) t = T::iq2_s;
    } else if (down) {
        const int i = layer;
        if (ft == W::q2_k) t = T::q3_k;
        else if (ft == W::q2_k_s) { if (i < n / 8) t = T::q4_k; }
        else if (ft == W::iq3_xxs && !imatrix()) t = i < n / 8 ? T::q4_k : T::q3_k;
        else if (ft == W::q3_k_m)
            t = i < n / 16 ? T::q5_k : (!m.falcon || use_more_bits(i, n)) ? T::q4_k : T::q3_k;
        else if (ft == W::iq3_m && (i < n / 8 || (m.n_expert == 8 && use_more_bits(i, n)))) t = T::q4_k;
        else if (ft == W::q3_k_l) t = m.falcon ? T::q4_k : T::q5_k;
        else if (ft == W::q4_k_m) {
            if (m.falcon) t = i < n / 16 ? T::q6_k : use_more_bits(i, n) ? T::q5_k : T::q4_k;
            else if (use_more_bits(i, n)) t = T::q6_k;
        } else if (i < n / 8 && (ft == W::iq4_nl || ft == W::iq4_xs) && !imatrix()) t = T::q5_k;
        else if (ft == W::q5_k_m && use_more_bits(i, n)) t = T::q6_k;
        else if (ft == W::q4_k_s && !m.falcon && i < n / 8) t = T::q5_k;
        else if ((ft == W::q4_0 || ft == W::q5_0) && imatrix() && i < n / 8) t = ft == W::q4_0 ? T::q4_1 : T::q5_1;
    } else if (cls == TensorClass::attn_output) {
        if (!m.falcon) {
            if (m.n_expert == 8) {
                if (ft == W::q2_k || ft == W::iq3_xxs || ft == W::q3_k_s || ft == W::q3_k_m || ft == W::iq4_nl ||
                    ft == W::q4_k_s || ft == W::q4_k_m || ft == W::iq3_s || ft == W::iq3_m || ft == W::iq4_xs)
                    t = T::q5_k;
            } else {
                if (ft == W::q2_k) t = T::q3_k;
                else if (ft == W::iq3_xxs) t = T::iq3_s;
                else if (ft == W::q3_k_m) t = T::q4_k;
                else if (ft == W::q3_k_l) t = T::q5_k;
                else if (ft == W::iq3_m) t = T::q4_k;
            }
        } else if (ft == W::q3_k_l) {
            t = T::q4_k;
        }
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
        // llama.cpp --cache-type-k/-v (common/arg.cpp kv_cache_types): ggml block types, bytes
        // per block / 32 values (ggml-common.h).
        {"q8_0", 34.0 / 32, true},
        {"q5_1", 24.0 / 32, true},
        {"q5_0", 22.0 / 32, true},
        {"q4_1", 20.0 / 32, true},
        {"iq4_nl", 18.0 / 32, true},
        {"q4_0", 18.0 / 32, true},
    };
    return kFormats;
}

const KvFormat& kv_format(std::string_view id) { return find_format(kv_formats(), id, "kv_cache"); }

}  // namespace gpusizer
