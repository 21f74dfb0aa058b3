// model_fixtures.hpp: writes small GGUF and safetensors files for the reader tests (and the
// cross-check against @huggingface/gguf). Sizes here come from this file's own type tables,
// written from the block structs in ggml/src/ggml-common.h and from safetensors' Dtype
// bitsize, independently of the core's tables, so that a test compares two derivations.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpusizer::fixtures {

using Bytes = std::vector<std::uint8_t>;

// Little-endian appenders.
void put_u8(Bytes& b, std::uint8_t v);
void put_u16(Bytes& b, std::uint16_t v);
void put_u32(Bytes& b, std::uint32_t v);
void put_u64(Bytes& b, std::uint64_t v);
void put_f32(Bytes& b, float v);
void put_f64(Bytes& b, double v);
void put_str(Bytes& b, const std::string& s);  // GGUF string: u64 length + bytes
// The start of a GGUF array value: the items' type id (u32) and their count (u64).
void put_array_header(Bytes& b, std::uint32_t item_type, std::uint64_t count);

// One ggml type as the test derives it from ggml-common.h.
struct TestGgmlType {
    std::uint32_t id;
    const char* name;
    std::uint64_t block;        // elements per block
    std::uint64_t block_bytes;  // bytes per block
};
const std::vector<TestGgmlType>& test_ggml_types();
const TestGgmlType& test_ggml_type(const std::string& name);

// GGUF value type ids (gguf.h).
enum : std::uint32_t { kU8 = 0, kI8, kU16, kI16, kU32, kI32, kF32, kBool, kStr, kArr, kU64, kI64, kF64 };

class GgufWriter {
public:
    std::uint32_t version = 3;
    std::uint64_t alignment = 32;     // what offsets are laid out with (general.alignment is a KV you add)
    bool write_data = true;           // zero-filled tensor data after the header
    std::optional<std::uint64_t> tensor_count_override, kv_count_override;

    // Metadata. `payload` is the value's encoding after its type id.
    void kv_raw(const std::string& key, std::uint32_t type, const Bytes& payload);
    void kv_u8(const std::string& k, std::uint8_t v);
    void kv_i8(const std::string& k, std::int8_t v);
    void kv_u16(const std::string& k, std::uint16_t v);
    void kv_i16(const std::string& k, std::int16_t v);
    void kv_u32(const std::string& k, std::uint32_t v);
    void kv_i32(const std::string& k, std::int32_t v);
    void kv_u64(const std::string& k, std::uint64_t v);
    void kv_i64(const std::string& k, std::int64_t v);
    void kv_f32(const std::string& k, float v);
    void kv_f64(const std::string& k, double v);
    void kv_bool(const std::string& k, bool v);
    void kv_str(const std::string& k, const std::string& v);
    void kv_arr_u32(const std::string& k, const std::vector<std::uint32_t>& v);
    void kv_arr_i32(const std::string& k, const std::vector<std::int32_t>& v);
    void kv_arr_bool(const std::string& k, const std::vector<bool>& v);
    void kv_arr_str(const std::string& k, const std::vector<std::string>& v);
    void kv_arr_f32(const std::string& k, const std::vector<float>& v);
    // general.architecture = `arch`, then each {key, value} as the u32 "<arch>.<key>" (llama.cpp's
    // LLM_KV_* hyperparameters: "block_count", "attention.head_count", ...).
    void kv_arch(const std::string& arch, std::initializer_list<std::pair<const char*, std::uint32_t>> keys);

    // A tensor; offsets are laid out back to back (aligned) unless `offset` is given.
    // `type` may be an id no table knows (then `bytes` must be given for the layout).
    void tensor(const std::string& name, const std::vector<std::uint64_t>& dims, const std::string& type);
    void tensor_raw(const std::string& name, const std::vector<std::uint64_t>& dims, std::uint32_t type_id,
                    std::uint64_t bytes, std::optional<std::uint64_t> offset = std::nullopt);

    Bytes bytes() const;
    std::uint64_t header_size() const;  // bytes before the padding to the data

    struct Tensor {
        std::string name;
        std::vector<std::uint64_t> dims;
        std::uint32_t type;
        std::uint64_t bytes;
        std::uint64_t offset;
    };
    const std::vector<Tensor>& tensors() const { return tensors_; }

private:
    Bytes kv_;
    std::uint64_t n_kv_ = 0;
    std::vector<Tensor> tensors_;
    std::uint64_t next_offset_ = 0;
};

// Bytes of a tensor by the test's own table: rows x (row / block) x block bytes.
std::uint64_t test_ggml_bytes(const std::string& type, const std::vector<std::uint64_t>& dims);

// safetensors dtype bits (safetensors/src/tensor.rs Dtype::bitsize, copied by hand).
std::uint32_t test_dtype_bits(const std::string& dtype);
const std::vector<std::string>& test_dtypes();

class SafetensorsWriter {
public:
    std::vector<std::pair<std::string, std::string>> metadata;
    bool write_data = true;

    // Offsets laid out back to back.
    void tensor(const std::string& name, const std::string& dtype, const std::vector<std::uint64_t>& shape);
    // A tensor of little-endian int64 values (compressed-tensors' weight_shape), its data written.
    void i64_tensor(const std::string& name, const std::vector<std::uint64_t>& values);
    std::string header_json() const;
    Bytes bytes() const;  // 8-byte length + JSON + data (zeros but the i64 tensors')
    Bytes header_bytes() const { return safetensors_raw_header(header_json()); }   // the first bytes alone
    std::uint64_t data_bytes() const { return next_; }
    std::size_t tensor_count() const { return tensors_.size(); }

private:
    static Bytes safetensors_raw_header(const std::string& json);
    struct T {
        std::string name, dtype;
        std::vector<std::uint64_t> shape;
        std::uint64_t begin, end;
        std::vector<std::uint64_t> values;   // i64 data, when given
    };
    std::vector<T> tensors_;
    std::uint64_t next_ = 0;
};

// One linear layer `prefix` ("model.layers.0.self_attn.q_proj") of `out` x `in` weights as a
// quantizer stores it (shapes from each format's source, named in core/src/safetensors_layouts.cpp):
//   bf16       weight BF16 [out, in]
//   gptq4      AutoGPTQ 4-bit, group 128: qweight I32 [in / 8, out], qzeros I32 [in / 128, out / 8],
//              scales F16 [in / 128, out], g_idx I32 [in]
//   awq4       AutoAWQ GEMM 4-bit, group 128: qweight I32 [in, out / 8], qzeros I32 [in / 128, out / 8],
//              scales F16 [in / 128, out]
//   ct_w4a16   compressed-tensors pack-quantized W4A16 (symmetric, group 128): weight_packed I32
//              [out, in / 8], weight_scale BF16 [out, in / 128], weight_shape I64 [2] = {out, in}
//   nvfp4      ModelOpt NVFP4: weight U8 [out, in / 2], weight_scale F8_E4M3 [out, in / 16],
//              weight_scale_2 F32 [], input_scale F32 []
//   bnb_nf4    bitsandbytes 4-bit NF4 with double quantization (blocks of 64, nested blocks of 256):
//              weight U8 [out * in / 2, 1], weight.absmax U8 [out * in / 64], weight.quant_map F32 [16],
//              weight.nested_absmax F32 [out * in / 64 / 256], weight.nested_quant_map F32 [256],
//              weight.quant_state.bitsandbytes__nf4 U8 [kBnbStateBytes]
//   bnb_int8   bitsandbytes LLM.int8(): weight I8 [out, in], SCB F32 [out]
//   fp8_block  DeepSeek-V3 FP8: weight F8_E4M3 [out, in], weight_scale_inv F32 [out / 128, in / 128]
enum class Packing { bf16, gptq4, awq4, ct_w4a16, nvfp4, bnb_nf4, bnb_int8, fp8_block };
inline constexpr std::uint64_t kBnbStateBytes = 204;   // the JSON of one QuantState: any length
void add_hf_linear(SafetensorsWriter& w, const std::string& prefix, std::uint64_t out, std::uint64_t in, Packing packing);
// A Llama decoder layer as add_hf_llama_layer writes it, its seven projections stored in
// `packing` (norms F16 for the GPTQ / AWQ layouts, as AutoGPTQ and AutoAWQ save them, else BF16).
void add_hf_llama_layer_packed(SafetensorsWriter& w, int il, std::uint64_t hidden, std::uint64_t kv_dim, std::uint64_t ff,
                               Packing packing);

// gpt-oss-120b's safetensors header, tensor for tensor (openai/gpt-oss-120b: 687 tensors; its
// config.json: 36 layers, hidden 2880, 64 query heads and 8 KV heads of 64, 128 experts of
// width 2880, 4 per token, vocabulary 201088, untied head): BF16 everywhere but the experts'
// MXFP4 blocks and scales (U8). Data is not written (65 GB): read it with MemorySource::first_bytes.
SafetensorsWriter gpt_oss_120b_header();
// Its config.json (the fields the importer reads).
std::string gpt_oss_120b_config();

// Llama 3.1 8B (hidden 4096, 32 layers, 8 KV heads of 128, FFN 14336, vocabulary 128256, untied)
// with its seven projections in `packing`, the embedding, head and norms 16-bit. Data not written.
SafetensorsWriter llama31_8b_header(Packing packing);

// The header-only checkpoints the accuracy set reads (tests/validation/checkpoints/NAME/
// model.safetensors: the 8-byte length and the JSON header, no tensor data), written by
// `gpusizer_write_fixtures --checkpoints DIR`; test_safetensors.cpp checks the committed files
// are these bytes.
std::vector<std::pair<std::string, Bytes>> validation_checkpoints();

// One Llama decoder layer in transformers' names ("model.layers.<il>."): F32 norms, the
// projections in `dtype`, shaped [out, in] as torch stores them; `kv_dim` = KV heads x head size.
void add_hf_llama_layer(SafetensorsWriter& w, int il, std::uint64_t hidden, std::uint64_t kv_dim, std::uint64_t ff,
                        const std::string& dtype = "BF16");

// A safetensors file from a header text as given (for hostile headers), with `data` zero bytes.
Bytes safetensors_raw(const std::string& json, std::uint64_t data = 0);

// A fresh folder under the system temp folder, removed by the destructor.
class TempDir {
public:
    explicit TempDir(const std::string& tag);
    ~TempDir();
    const std::filesystem::path& path() const { return path_; }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

void write_file(const std::string& path, const Bytes& bytes);
void write_text(const std::string& path, const std::string& text);
Bytes read_file(const std::string& path);

// One decoder block in llama.cpp's tensor names (ggml dims: ne0 = input width, ne1 = output):
// attn_norm, q, k, v, output, ffn_norm, then gate, up, down (or the router and stacked experts).
struct BlockShape {
    std::uint64_t hidden, heads, kv_heads, head_dim, ff;
    bool qk_norm = false;
    bool gemma_norms = false;   // post_attention_norm and post_ffw_norm as well (Gemma 2/3)
    std::uint64_t experts = 0, expert_ff = 0;
};
// Norms are F32; the weights `type`, except attn_v and ffn_down in `v_down_type` when given (as
// llama.cpp's Q4_K_M gives them Q6_K).
void add_block(GgufWriter& w, int il, const BlockShape& s, const std::string& type = "F16",
               const std::string& v_down_type = "");
// token_embd (F16), output_norm and, unless tied, the output head (Q8_0).
void add_ends(GgufWriter& w, std::uint64_t hidden, std::uint64_t vocab, bool tied);
// A small qwen3moe file: 3 blocks of hidden 64 in Q8_0, 4 heads of 16, 2 KV heads, qk norms, 8
// routed experts of width 32 (2 per token), an untied head over a 64-token vocabulary. The
// feed_forward_length 192 is a dense width the checkpoint never uses.
GgufWriter tiny_qwen3moe_q8();

// A small multimodal projector file as llama.cpp's convert_hf_to_gguf.py --mmproj writes one
// (general.architecture "clip", clip.* keys, tools/mtmd/clip-impl.h): a one-block vision encoder
// of width 64 (patch 14, image 56: 16 positions) with a two-layer MLP projector to width 64, and
// a one-block audio encoder of width 32 with its projector (mm.a.*). Parameters by hand: vision
// patch 14 x 14 x 3 x 64 = 37,632 + positions 1,024 + q, k, v, o 4 x 4,096 + ln1, ln2 2 x 64 +
// FFN 2 x 8,192 + post_ln 64 + projector 2 x (4,096 + 64) = 79,936; audio 32 x 32 + 32 x 64 = 3,072.
// Bytes: F16 weights, F32 norms and biases: vision 79,616 x 2 + 320 x 4 = 160,512; audio 6,144.
GgufWriter tiny_mmproj();
inline constexpr std::uint64_t kMmprojVisionParams = 79936, kMmprojAudioParams = 3072, kMmprojBytes = 160512 + 6144;

// A small Llama-like GGUF: 2 layers, GQA, per-layer arrays, every metadata value type.
GgufWriter llama_like_gguf(std::uint32_t version = 3);

// Writes every fixture the Node cross-check reads into `dir` (gguf v2/v3, every type, a split).
void write_crosscheck_fixtures(const std::string& dir);

}  // namespace gpusizer::fixtures
