// safetensors_layouts.cpp: the parameters a quantized safetensors checkpoint holds, by logical
// shape. A packed tensor stores several values in each element (a GPTQ qweight eight 4-bit values
// in each int32, an MXFP4 block two FP4 values in each byte); the scales, zero points and
// indices stored beside it are bytes of the checkpoint but no parameters of the model. Counting
// stored elements instead miscounts both ways: gpt-oss-120b holds 116.83B parameters
// (OpenAI's model card: 116.8B), but its U8 blocks are 58.4B elements and its U8 scales 3.6B more.
//
// [SECTION] Names: suffixes and siblings
// [SECTION] Quantization metadata: bytes, not parameters
// [SECTION] Packed weights: values per stored bit
// [SECTION] set_logical_params
//
// Each packing factor comes from the format's own definition, read in its source:
//   GPTQ     AutoGPTQ auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py QuantLinear: qweight int32
//            [in // 32 * bits, out], qzeros int32 [ceil(in / group), out // 32 * bits], scales
//            fp16 [ceil(in / group), out], g_idx int32 [in]
//   AWQ      AutoAWQ awq/modules/linear/gemm.py WQLinear_GEMM: qweight int32 [in, out // (32 //
//            w_bit)], qzeros int32 [in // group, out // (32 // w_bit)], scales fp16 [in // group, out]
//   compressed-tensors pack-quantized: compressed_tensors/compressors/quantized_compressors/
//            pack_quantized.py: weight_packed int32 [out, ceil(in / (32 // num_bits))] (pack_to_int32),
//            weight_shape = the unpacked weight's shape, weight_scale, weight_zero_point, weight_g_idx;
//            nvfp4_quantized.py: weight_packed uint8 [out, in // 2] (pack_fp4_to_uint8), weight_scale,
//            weight_global_scale
//   MXFP4    transformers src/transformers/integrations/mxfp4.py Mxfp4GptOssExperts:
//            *_blocks uint8 [experts, out, in // 32, 16] (two E2M1 values a byte, 32 a block),
//            *_scales uint8 [experts, out, in // 32] (one E8M0 exponent a block)
//   NVFP4    vLLM model_executor/layers/quantization/modelopt.py ModelOptNvFp4LinearMethod:
//            weight uint8 [out, in // 2], weight_scale float8_e4m3fn [out, in // 16],
//            weight_scale_2 and input_scale float32 (per tensor); MXFP4 linears (OCP MX, quark) the
//            same with uint8 E8M0 scales [out, in // 32]
//   bitsandbytes 4-bit: bitsandbytes/functional.py quantize_4bit: out [(n + 1) // (bytes of
//            quant_storage * 2), 1] (two 4-bit values a byte, whatever quant_storage), QuantState
//            saved as weight.absmax, weight.quant_map, weight.nested_absmax, weight.nested_quant_map
//            and weight.quant_state.bitsandbytes__nf4 / __fp4 (the shape, packed as JSON bytes)
//   bitsandbytes 8-bit: weight int8 [out, in] with SCB float32 [out] (and weight_format)
//   FP8      weight float8_e4m3fn [out, in] with weight_scale_inv (DeepSeek-V3 blocks of 128 x 128)
//            or weight_scale (compressed-tensors, FBGEMM), input_scale, k_scale / v_scale
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "checked_math.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"
#include "model_file_internal.hpp"

namespace gpusizer::detail {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Names: suffixes and siblings
// ---------------------------------------------------------------------------------------------

bool ends_with(std::string_view s, std::string_view p) { return s.size() > p.size() && s.substr(s.size() - p.size()) == p; }

// The name without `suffix` ("x.qweight" - ".qweight" -> "x").
std::string_view stem(std::string_view name, std::string_view suffix) { return name.substr(0, name.size() - suffix.size()); }

struct Tensors {
    std::vector<SafetensorsTensor>& list;
    const std::vector<std::string>& files;
    std::unordered_map<std::string_view, std::size_t> by_name;

    Tensors(std::vector<SafetensorsTensor>& l, const std::vector<std::string>& f) : list(l), files(f) {
        by_name.reserve(l.size());
        for (std::size_t k = 0; k < l.size(); ++k) by_name.emplace(l[k].name, k);
    }
    // The tensor named `stem` + `suffix`, or nullptr.
    const SafetensorsTensor* sibling(std::string_view stem_name, std::string_view suffix) const {
        std::string n(stem_name);
        n += suffix;
        auto it = by_name.find(n);
        return it == by_name.end() ? nullptr : &list[it->second];
    }
    std::string key(const SafetensorsTensor& t) const { return (t.file < files.size() ? files[t.file] + ": " : std::string()) + t.name; }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Quantization metadata
// ---------------------------------------------------------------------------------------------

// Names only quantizers write (see the file header for whose): metadata wherever they appear.
constexpr std::string_view kMetadata[] = {
    ".weight_scale",
    ".weight_scale_inv",
    ".weight_scale_2",
    ".weight_zero_point",
    ".weight_g_idx",
    ".weight_shape",
    ".weight_global_scale",
    ".weight.absmax",
    ".weight.quant_map",
    ".weight.nested_absmax",
    ".weight.nested_quant_map",
    ".weight.quant_state.bitsandbytes__nf4",
    ".weight.quant_state.bitsandbytes__fp4",
    ".SCB",
    ".weight_format",
};
// Activation and KV-cache scales (compressed-tensors, ModelOpt, FP8 checkpoints: input_scale,
// k_scale, v_scale, ...): metadata in a checkpoint that holds quantized weights; elsewhere a name
// like these is left a parameter.
constexpr std::string_view kActivationScales[] = {
    ".input_scale", ".input_global_scale", ".input_zero_point", ".output_scale", ".output_zero_point", ".k_scale", ".v_scale",
    ".q_scale",     ".prob_scale"};

bool is_metadata(const Tensors& ts, const SafetensorsTensor& t) {
    for (std::string_view s : kMetadata)
        if (ends_with(t.name, s)) return true;
    // GPTQ / AWQ: zeros, scales and act-order indices beside a qweight.
    for (std::string_view s : {".qzeros", ".scales", ".g_idx"})
        if (ends_with(t.name, s) && ts.sibling(stem(t.name, s), ".qweight")) return true;
    // MXFP4 experts: the E8M0 scales beside their blocks.
    if (ends_with(t.name, "_scales") && ts.sibling(stem(t.name, "_scales"), "_blocks")) return true;
    return false;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Packed weights
// ---------------------------------------------------------------------------------------------

// Parameters of a tensor whose stored bits hold values of `bits` bits each.
std::uint64_t values_in(const Tensors& ts, const SafetensorsTensor& t, std::uint64_t bits) {
    const std::uint64_t stored = checked_mul(t.bytes, 8, ts.key(t));
    if (bits == 0 || stored % bits != 0)
        throw_error(ts.key(t), std::to_string(t.bytes) + " bytes are not a whole number of " + std::to_string(bits) + "-bit values");
    return stored / bits;
}

std::string bits_text(std::uint64_t b) { return std::to_string(b) + "-bit"; }

// The layout's suffix when a packed tensor's bits are unknown: its stored elements are counted.
constexpr const char* kUnknownBits = " (bits unknown)";

// GPTQ and AWQ: the bits each value takes, from the shapes beside the qweight (and config.json).
// GPTQ packs along the input: qweight [in * bits / 32, out], scales [groups, out]; the input
// width is g_idx's length, or the bits come from qzeros [groups, out * bits / 32]. AWQ packs along
// the output: qweight [in, out * bits / 32], scales [groups, out].
void count_qweight(const Tensors& ts, SafetensorsTensor& t, const SafetensorsQuant& q) {
    if (t.elements == 0) return;   // nothing stored, nothing packed
    const std::string_view base = stem(t.name, ".qweight");
    const SafetensorsTensor* scales = ts.sibling(base, ".scales");
    const SafetensorsTensor* g_idx = ts.sibling(base, ".g_idx");
    const SafetensorsTensor* qzeros = ts.sibling(base, ".qzeros");
    const std::uint64_t word = checked_mul(t.bytes, 8, ts.key(t)) / std::max<std::uint64_t>(t.elements, 1);   // bits a stored element
    std::uint64_t bits = 0;
    std::string layout = q.method == "awq" ? "awq" : "gptq";
    std::string how;
    if (t.shape.size() == 2 && scales && scales->shape.size() == 2 && t.shape[0] > 0 && t.shape[1] > 0) {
        const std::uint64_t out = scales->shape[1];
        if (out == t.shape[1]) {
            layout = "gptq";
            if (g_idx && g_idx->shape.size() == 1 && g_idx->shape[0] > 0 && (t.shape[0] * word) % g_idx->shape[0] == 0) {
                bits = t.shape[0] * word / g_idx->shape[0];
                how = "g_idx's " + std::to_string(g_idx->shape[0]) + " input columns";
            } else if (qzeros && qzeros->shape.size() == 2 && out > 0 && checked_mul(qzeros->shape[1], word, ts.key(*qzeros)) % out == 0) {
                bits = qzeros->shape[1] * word / out;
                how = "qzeros' width";
            }
        } else if (out > t.shape[1] && checked_mul(t.shape[1], word, ts.key(t)) % out == 0) {
            layout = "awq";
            bits = t.shape[1] * word / out;
            how = "scales' " + std::to_string(out) + " output columns";
        }
    }
    if (bits != 0 && q.bits != 0 && bits != static_cast<std::uint64_t>(q.bits))
        throw_error(ts.key(t), "the shapes beside it (" + how + ") say " + bits_text(bits) + " values, config.json's quantization_config " +
                                   bits_text(static_cast<std::uint64_t>(q.bits)));
    if (bits == 0) bits = static_cast<std::uint64_t>(q.bits);
    if (bits == 0) {
        // Neither the tensors beside it nor a config.json say the bits (a header read alone):
        // counted as stored, and marked so (kUnknownBits).
        t.layout = layout + kUnknownBits;
        return;
    }
    if (bits > word)
        throw_error(ts.key(t), bits_text(bits) + " values cannot be packed in " + bits_text(word) + " " + t.dtype + " elements");
    t.params = values_in(ts, t, bits);
    t.layout = layout;
}

// compressed-tensors: weight_packed int32 [out, ceil(in / (32 / bits))], or uint8 [out, in / 2]
// for NVFP4; the logical shape is weight_shape's data when it was read.
void count_weight_packed(const Tensors& ts, SafetensorsTensor& t, const SafetensorsQuant& q) {
    const SafetensorsTensor* shape = ts.sibling(stem(t.name, ".weight_packed"), ".weight_shape");
    std::uint64_t logical = 0;
    if (shape && !shape->values.empty()) {
        logical = 1;
        for (std::uint64_t d : shape->values) logical = checked_mul(logical, d, ts.key(*shape));
    }
    if (t.dtype == "U8") {
        // nvfp4-pack-quantized: two E2M1 values a byte.
        t.params = values_in(ts, t, 4);
        t.layout = "fp4";
        if (logical != 0 && logical != t.params)
            throw_error(ts.key(t), "holds " + std::to_string(t.params) + " FP4 values, its weight_shape says " + std::to_string(logical));
        return;
    }
    t.layout = "pack-quantized";
    const std::uint64_t stored = checked_mul(t.bytes, 8, ts.key(t));
    if (logical != 0) {
        // Rows are padded to whole int32s: the packed bits hold at least the logical values.
        if (q.bits > 0 && checked_mul(logical, static_cast<std::uint64_t>(q.bits), ts.key(t)) > stored)
            throw_error(ts.key(t), "its weight_shape holds " + std::to_string(logical) + " values, more than " + std::to_string(stored) +
                                       " bits hold at " + bits_text(static_cast<std::uint64_t>(q.bits)));
        t.params = logical;
        return;
    }
    if (q.bits <= 0) {
        // A header read alone (weight_shape's data not there) without config.json's num_bits.
        t.layout += kUnknownBits;
        return;
    }
    t.params = values_in(ts, t, static_cast<std::uint64_t>(q.bits));
}

// A uint8 `weight` packing two 4-bit values a byte: bitsandbytes' Params4bit (with its
// QuantState beside it), or an NVFP4 / MXFP4 linear (weight_scale of one value per 16 or 32
// weights beside it). False: a plain uint8 tensor.
bool count_fp4_weight(const Tensors& ts, SafetensorsTensor& t) {
    const std::string_view base = stem(t.name, ".weight");
    for (std::string_view s :
         {".weight.absmax", ".weight.quant_map", ".weight.quant_state.bitsandbytes__nf4", ".weight.quant_state.bitsandbytes__fp4"})
        if (ts.sibling(base, s)) {
            t.params = values_in(ts, t, 4);
            t.layout = "bnb-4bit";
            return true;
        }
    const SafetensorsTensor* scale = ts.sibling(base, ".weight_scale");
    if (!scale || scale->shape.size() != 2 || t.shape.size() != 2 || scale->shape[0] != t.shape[0] || scale->shape[1] == 0) return false;
    // [out, in / 2] packed against [out, in / group] scales: a group of 16 (NVFP4) or 32 (MXFP4).
    const std::uint64_t in = checked_mul(t.shape[1], 2, ts.key(t));
    if (in % scale->shape[1] != 0) return false;
    const std::uint64_t group = in / scale->shape[1];
    if (group != 16 && group != 32) return false;
    t.params = values_in(ts, t, 4);
    t.layout = "fp4";
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] set_logical_params
// ---------------------------------------------------------------------------------------------

void set_logical_params(std::vector<SafetensorsTensor>& list, const std::vector<std::string>& files, const SafetensorsQuant& q) {
    Tensors ts(list, files);
    bool quantized = !q.method.empty();
    for (SafetensorsTensor& t : list) {
        t.params = t.elements;
        t.layout.clear();
        if (t.dtype.rfind("F8_", 0) == 0) quantized = true;
        if (is_metadata(ts, t)) {
            t.params = 0;
            t.layout = "quant-metadata";
            quantized = true;
        } else if (ends_with(t.name, ".qweight")) {
            count_qweight(ts, t, q);
            quantized = true;
        } else if (ends_with(t.name, ".weight_packed")) {
            count_weight_packed(ts, t, q);
            quantized = true;
        } else if (ends_with(t.name, "_blocks") && t.dtype == "U8") {
            // MXFP4 experts: blocks [..., G, 16] beside scales [..., G].
            const SafetensorsTensor* scales = ts.sibling(stem(t.name, "_blocks"), "_scales");
            if (scales && t.shape.size() >= 2 && scales->shape.size() + 1 == t.shape.size() &&
                std::equal(scales->shape.begin(), scales->shape.end(), t.shape.begin())) {
                t.params = values_in(ts, t, 4);
                t.layout = "mxfp4-blocks";
                quantized = true;
            }
        } else if (ends_with(t.name, ".weight") && t.dtype == "U8") {
            if (count_fp4_weight(ts, t)) quantized = true;
        }
    }
    if (!quantized) return;
    for (SafetensorsTensor& t : list)
        for (std::string_view s : kActivationScales)
            if (t.layout.empty() && ends_with(t.name, s)) {
                t.params = 0;
                t.layout = "quant-metadata";
            }
}

}  // namespace gpusizer::detail
