// gpusizer/precision.hpp: how many bits each weight, cache entry and activation takes.
//
// [SECTION] Weight formats: float, int8/int4 (GPTQ/AWQ), bitsandbytes NF4, GGUF file types
// [SECTION] GGUF tensor types and llama.cpp's per-tensor choice for a file type
// [SECTION] KV cache formats
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusizer {

struct ModelArch;

// ---------------------------------------------------------------------------------------------
// [SECTION] Weight formats
// ---------------------------------------------------------------------------------------------

enum class WeightFamily {
    floating,   // fp32, fp16, bf16, fp8: every linear weight at `bits`
    grouped,    // int8 / int4 (GPTQ, AWQ): integer codes plus a scale (and zero) per group
    nf4,        // bitsandbytes 4-bit NormalFloat with block-wise absmax
    gguf,       // llama.cpp file types: a mix of ggml block types chosen per tensor
};

// The ggml tensor types that GGUF file types mix.
enum class GgmlType { f32, f16, q8_0, q6_k, q5_k, q4_k, q3_k, q2_k, q4_0, q4_1, q5_0, q5_1, iq4_nl };

enum class WeightId { fp32, bf16, fp16, q8_0, fp8, int8, q6_k, q5_k_m, q4_k_m, q4_0, int4, nf4, q3_k_m, q2_k };

struct WeightFormat {
    WeightId wid;
    std::string_view id;       // configuration value: "bf16", "int4", "q4_k_m", ...
    std::string_view label;    // for people: "GGUF Q4_K_M (llama.cpp)"
    WeightFamily family;
    double bits;               // bits per weight of the quantized linear layers (before overheads)
    GgmlType gguf_base;        // GGUF only: the file type's default tensor type
};

// Every weight format the calculator knows, in order from most to least precise.
const std::vector<WeightFormat>& weight_formats();
// Throws Error("weights", "... allowed: fp32, fp16, ...") when unknown.
const WeightFormat& weight_format(std::string_view id);
bool is_quantized(const WeightFormat& f);   // anything below 16 bits (fp8 included)

// Bits per weight of a ggml block type, from its block layout in ggml-common.h
// (e.g. Q4_K: 144 bytes per 256 weights = 4.5 bits).
double ggml_type_bits(GgmlType t);
int ggml_block_size(GgmlType t);
std::string_view ggml_type_name(GgmlType t);

// The tensor classes llama.cpp's quantizer treats differently.
enum class TensorClass {
    token_embd, output, attn_q, attn_k, attn_v, attn_output, attn_qkv_fused, attn_other,
    ffn_gate_up, ffn_down, other_2d,
};

// What llama.cpp's quantizer looks at in a model, reduced to numbers once per estimate.
struct GgufTraits {
    int n_layers = 0;
    int n_gqa = 1;            // query heads per KV head
    int n_expert = 0;         // routed experts (llama.cpp's n_expert)
    bool falcon = false;      // LLM_ARCH_FALCON has its own rules
    bool type_70b = false;    // llama.cpp's LLM_TYPE_70B (80-layer llama/qwen2 with GQA)
    bool fused_qkv = false;   // the GGUF stores one attn_qkv tensor (phi3, gpt2, bloom, falcon, gpt-neox)
};
GgufTraits gguf_traits(const ModelArch& arch);

// The ggml type llama.cpp's `llama_tensor_get_type` (src/llama-quant.cpp) gives a tensor of
// `cls` in layer `layer`, for the GGUF file type `format`, including the fallback when the row
// length `row` is not a multiple of the type's block size.
GgmlType gguf_tensor_type(const WeightFormat& format, TensorClass cls, const GgufTraits& model, int layer, long long row);
GgmlType gguf_tensor_type(const WeightFormat& format, TensorClass cls, const ModelArch& arch, int layer, long long row);

// Parameters of int4 / nf4 formats that a configuration can change.
struct QuantParams {
    int group_size = 128;      // GPTQ/AWQ group size (AutoGPTQ and AutoAWQ default: 128)
    bool double_quant = true;  // bitsandbytes: quantize the absmax constants (QLoRA paper)
};

// Bits per weight of a quantized linear layer in a non-GGUF format, scales included.
double linear_bits_per_weight(const WeightFormat& format, const QuantParams& q);

// ---------------------------------------------------------------------------------------------
// [SECTION] KV cache formats
// ---------------------------------------------------------------------------------------------

struct KvFormat {
    std::string_view id;       // "fp16", "bf16", "fp8", "q8_0", "q4_0", "fp32"
    double bytes;              // bytes per cached value, block scales included
    bool llama_cpp_only;       // ggml block types exist only in llama.cpp
};

const std::vector<KvFormat>& kv_formats();
const KvFormat& kv_format(std::string_view id);   // throws Error("kv_cache", ...)

}  // namespace gpusizer
