// model_fixtures.cpp: the GGUF and safetensors fixture writer (see model_fixtures.hpp).
#include "model_fixtures.hpp"

#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>

namespace gpusizer::fixtures {

void put_u8(Bytes& b, std::uint8_t v) { b.push_back(v); }
void put_u16(Bytes& b, std::uint16_t v) { for (int i = 0; i < 2; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i))); }
void put_u32(Bytes& b, std::uint32_t v) { for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i))); }
void put_u64(Bytes& b, std::uint64_t v) { for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i))); }
void put_f32(Bytes& b, float v) { std::uint32_t u; std::memcpy(&u, &v, 4); put_u32(b, u); }
void put_f64(Bytes& b, double v) { std::uint64_t u; std::memcpy(&u, &v, 8); put_u64(b, u); }
void put_str(Bytes& b, const std::string& s) { put_u64(b, s.size()); b.insert(b.end(), s.begin(), s.end()); }
void put_array_header(Bytes& b, std::uint32_t item_type, std::uint64_t count) {
    put_u32(b, item_type);
    put_u64(b, count);
}

// Bytes per block from each block struct's fields in ggml/src/ggml-common.h (QK_K = 256;
// ggml_half = 2 bytes): e.g. block_q4_K = { ggml_half d, dmin; uint8_t scales[12]; uint8_t qs[128]; }.
const std::vector<TestGgmlType>& test_ggml_types() {
    static const std::vector<TestGgmlType> t = {
        {0, "F32", 1, 4},
        {1, "F16", 1, 2},
        {2, "Q4_0", 32, 2 + 32 / 2},                  // d; qs[QK4_0/2]
        {3, "Q4_1", 32, 2 * 2 + 32 / 2},              // d, m; qs[16]
        {6, "Q5_0", 32, 2 + 4 + 32 / 2},              // d; qh[4]; qs[16]
        {7, "Q5_1", 32, 2 * 2 + 4 + 32 / 2},          // d, m; qh[4]; qs[16]
        {8, "Q8_0", 32, 2 + 32},                      // d; qs[32]
        {9, "Q8_1", 32, 2 * 2 + 32},                  // d, s; qs[32]
        {10, "Q2_K", 256, 256 / 16 + 256 / 4 + 2 * 2},           // scales[16]; qs[64]; d, dmin
        {11, "Q3_K", 256, 256 / 8 + 256 / 4 + 12 + 2},           // hmask[32]; qs[64]; scales[12]; d
        {12, "Q4_K", 256, 2 * 2 + 12 + 256 / 2},                 // d, dmin; scales[12]; qs[128]
        {13, "Q5_K", 256, 2 * 2 + 12 + 256 / 8 + 256 / 2},       // d, dmin; scales[12]; qh[32]; qs[128]
        {14, "Q6_K", 256, 256 / 2 + 256 / 4 + 256 / 16 + 2},     // ql[128]; qh[64]; scales[16]; d
        {15, "Q8_K", 256, 4 + 256 + 2 * (256 / 16)},             // float d; qs[256]; int16 bsums[16]
        {16, "IQ2_XXS", 256, 2 + 2 * (256 / 8)},                 // d; uint16 qs[32]
        {17, "IQ2_XS", 256, 2 + 2 * (256 / 8) + 256 / 32},       // d; uint16 qs[32]; scales[8]
        {18, "IQ3_XXS", 256, 2 + 3 * 256 / 8},                   // d; qs[96]
        {19, "IQ1_S", 256, 2 + 256 / 8 + 2 * (256 / 32)},        // d; qs[32]; uint16 qh[8]
        {20, "IQ4_NL", 32, 2 + 32 / 2},                          // d; qs[16]
        {21, "IQ3_S", 256, 2 + 256 / 4 + 256 / 32 + 256 / 8 + 256 / 64},  // d; qs[64]; qh[8]; signs[32]; scales[4]
        {22, "IQ2_S", 256, 2 + 256 / 4 + 256 / 32 + 256 / 32},   // d; qs[64]; qh[8]; scales[8]
        {23, "IQ4_XS", 256, 2 + 2 + 256 / 64 + 256 / 2},         // d; scales_h; scales_l[4]; qs[128]
        {24, "I8", 1, 1},
        {25, "I16", 1, 2},
        {26, "I32", 1, 4},
        {27, "I64", 1, 8},
        {28, "F64", 1, 8},
        {29, "IQ1_M", 256, 256 / 8 + 256 / 16 + 256 / 32},       // qs[32]; qh[16]; scales[8]
        {30, "BF16", 1, 2},
        {34, "TQ1_0", 256, (256 - 4 * 256 / 64) / 5 + 256 / 64 + 2},  // qs[48]; qh[4]; d
        {35, "TQ2_0", 256, 256 / 4 + 2},                         // qs[64]; d
        {39, "MXFP4", 32, 1 + 32 / 2},                           // e (E8M0); qs[16]
        {40, "NVFP4", 64, 64 / 16 + 64 / 2},                     // d[4] (UE4M3 per 16); qs[32]
        {41, "Q1_0", 128, 2 + 128 / 8},                          // d; qs[QK1_0 / 8]
        {42, "Q2_0", 64, 2 + 64 / 4},                            // d; qs[QK2_0 / 4] (QK2_0 = 64)
    };
    return t;
}

const TestGgmlType& test_ggml_type(const std::string& name) {
    for (const auto& t : test_ggml_types())
        if (name == t.name) return t;
    throw std::runtime_error("fixture: no ggml type " + name);
}

std::uint64_t test_ggml_bytes(const std::string& type, const std::vector<std::uint64_t>& dims) {
    const TestGgmlType& t = test_ggml_type(type);
    std::uint64_t rows = 1;
    for (std::size_t i = 1; i < dims.size(); ++i) rows *= dims[i];
    return rows * (dims[0] / t.block) * t.block_bytes;
}

void GgufWriter::kv_raw(const std::string& key, std::uint32_t type, const Bytes& payload) {
    put_str(kv_, key);
    put_u32(kv_, type);
    kv_.insert(kv_.end(), payload.begin(), payload.end());
    ++n_kv_;
}
void GgufWriter::kv_u8(const std::string& k, std::uint8_t v) { Bytes b; put_u8(b, v); kv_raw(k, kU8, b); }
void GgufWriter::kv_i8(const std::string& k, std::int8_t v) { Bytes b; put_u8(b, static_cast<std::uint8_t>(v)); kv_raw(k, kI8, b); }
void GgufWriter::kv_u16(const std::string& k, std::uint16_t v) { Bytes b; put_u16(b, v); kv_raw(k, kU16, b); }
void GgufWriter::kv_i16(const std::string& k, std::int16_t v) { Bytes b; put_u16(b, static_cast<std::uint16_t>(v)); kv_raw(k, kI16, b); }
void GgufWriter::kv_u32(const std::string& k, std::uint32_t v) { Bytes b; put_u32(b, v); kv_raw(k, kU32, b); }
void GgufWriter::kv_i32(const std::string& k, std::int32_t v) { Bytes b; put_u32(b, static_cast<std::uint32_t>(v)); kv_raw(k, kI32, b); }
void GgufWriter::kv_u64(const std::string& k, std::uint64_t v) { Bytes b; put_u64(b, v); kv_raw(k, kU64, b); }
void GgufWriter::kv_i64(const std::string& k, std::int64_t v) { Bytes b; put_u64(b, static_cast<std::uint64_t>(v)); kv_raw(k, kI64, b); }
void GgufWriter::kv_f32(const std::string& k, float v) { Bytes b; put_f32(b, v); kv_raw(k, kF32, b); }
void GgufWriter::kv_f64(const std::string& k, double v) { Bytes b; put_f64(b, v); kv_raw(k, kF64, b); }
void GgufWriter::kv_bool(const std::string& k, bool v) { Bytes b; put_u8(b, v ? 1 : 0); kv_raw(k, kBool, b); }
void GgufWriter::kv_str(const std::string& k, const std::string& v) { Bytes b; put_str(b, v); kv_raw(k, kStr, b); }
void GgufWriter::kv_arr_u32(const std::string& k, const std::vector<std::uint32_t>& v) {
    Bytes b; put_u32(b, kU32); put_u64(b, v.size());
    for (auto x : v) put_u32(b, x);
    kv_raw(k, kArr, b);
}
void GgufWriter::kv_arr_i32(const std::string& k, const std::vector<std::int32_t>& v) {
    Bytes b; put_u32(b, kI32); put_u64(b, v.size());
    for (auto x : v) put_u32(b, static_cast<std::uint32_t>(x));
    kv_raw(k, kArr, b);
}
void GgufWriter::kv_arr_bool(const std::string& k, const std::vector<bool>& v) {
    Bytes b; put_u32(b, kBool); put_u64(b, v.size());
    for (bool x : v) put_u8(b, x ? 1 : 0);
    kv_raw(k, kArr, b);
}
void GgufWriter::kv_arr_str(const std::string& k, const std::vector<std::string>& v) {
    Bytes b; put_u32(b, kStr); put_u64(b, v.size());
    for (const auto& x : v) put_str(b, x);
    kv_raw(k, kArr, b);
}
void GgufWriter::kv_arr_f32(const std::string& k, const std::vector<float>& v) {
    Bytes b; put_u32(b, kF32); put_u64(b, v.size());
    for (float x : v) put_f32(b, x);
    kv_raw(k, kArr, b);
}

void GgufWriter::kv_arch(const std::string& arch, std::initializer_list<std::pair<const char*, std::uint32_t>> keys) {
    kv_str("general.architecture", arch);
    for (const auto& [key, value] : keys) kv_u32(arch + "." + key, value);
}

void GgufWriter::tensor(const std::string& name, const std::vector<std::uint64_t>& dims, const std::string& type) {
    tensor_raw(name, dims, test_ggml_type(type).id, test_ggml_bytes(type, dims));
}

void GgufWriter::tensor_raw(const std::string& name, const std::vector<std::uint64_t>& dims, std::uint32_t type_id,
                            std::uint64_t bytes, std::optional<std::uint64_t> offset) {
    const std::uint64_t off = offset ? *offset : next_offset_;
    tensors_.push_back({name, dims, type_id, bytes, off});
    if (!offset) next_offset_ = (off + bytes + alignment - 1) / alignment * alignment;
}

std::uint64_t GgufWriter::header_size() const {
    std::uint64_t n = 4 + 4 + 8 + 8 + kv_.size();
    for (const auto& t : tensors_) n += 8 + t.name.size() + 4 + 8 * t.dims.size() + 4 + 8;
    return n;
}

Bytes GgufWriter::bytes() const {
    Bytes b{'G', 'G', 'U', 'F'};
    put_u32(b, version);
    put_u64(b, tensor_count_override ? *tensor_count_override : tensors_.size());
    put_u64(b, kv_count_override ? *kv_count_override : n_kv_);
    b.insert(b.end(), kv_.begin(), kv_.end());
    for (const auto& t : tensors_) {
        put_str(b, t.name);
        put_u32(b, static_cast<std::uint32_t>(t.dims.size()));
        for (auto d : t.dims) put_u64(b, d);
        put_u32(b, t.type);
        put_u64(b, t.offset);
    }
    if (write_data) {
        while (b.size() % alignment != 0) b.push_back(0);
        std::uint64_t end = 0;
        for (const auto& t : tensors_) end = std::max(end, t.offset + t.bytes);
        b.resize(b.size() + end, 0);
    }
    return b;
}

// Dtype::bitsize in huggingface/safetensors safetensors/src/tensor.rs.
std::uint32_t test_dtype_bits(const std::string& d) {
    if (d == "F4") return 4;
    if (d == "F6_E2M3" || d == "F6_E3M2") return 6;
    if (d == "BOOL" || d == "U8" || d == "I8" || d == "F8_E5M2" || d == "F8_E4M3" || d == "F8_E8M0") return 8;
    if (d == "I16" || d == "U16" || d == "F16" || d == "BF16") return 16;
    if (d == "I32" || d == "U32" || d == "F32") return 32;
    if (d == "I64" || d == "U64" || d == "F64" || d == "C64") return 64;
    throw std::runtime_error("fixture: no dtype " + d);
}

const std::vector<std::string>& test_dtypes() {
    static const std::vector<std::string> d = {"BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
                                               "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"};
    return d;
}

void SafetensorsWriter::tensor(const std::string& name, const std::string& dtype, const std::vector<std::uint64_t>& shape) {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    const std::uint64_t bytes = n * test_dtype_bits(dtype) / 8;
    tensors_.push_back({name, dtype, shape, next_, next_ + bytes, {}});
    next_ += bytes;
}

void SafetensorsWriter::i64_tensor(const std::string& name, const std::vector<std::uint64_t>& values) {
    tensor(name, "I64", {values.size()});
    tensors_.back().values = values;
}

Bytes SafetensorsWriter::safetensors_raw_header(const std::string& json) { return safetensors_raw(json, 0); }

std::string SafetensorsWriter::header_json() const {
    std::string j = "{";
    bool first = true;
    if (!metadata.empty()) {
        j += "\"__metadata__\":{";
        for (std::size_t i = 0; i < metadata.size(); ++i)
            j += (i ? "," : "") + std::string("\"") + metadata[i].first + "\":\"" + metadata[i].second + "\"";
        j += "}";
        first = false;
    }
    for (const auto& t : tensors_) {
        j += first ? "" : ",";
        first = false;
        j += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) j += (i ? "," : "") + std::to_string(t.shape[i]);
        j += "],\"data_offsets\":[" + std::to_string(t.begin) + "," + std::to_string(t.end) + "]}";
    }
    j += "}";
    // safetensors pads the header with spaces to a multiple of 8 bytes.
    while (j.size() % 8 != 0) j += ' ';
    return j;
}

Bytes safetensors_raw(const std::string& json, std::uint64_t data) {
    Bytes b;
    put_u64(b, json.size());
    b.insert(b.end(), json.begin(), json.end());
    b.resize(b.size() + data, 0);
    return b;
}

Bytes SafetensorsWriter::bytes() const {
    const std::string json = header_json();
    Bytes b = safetensors_raw(json, write_data ? next_ : 0);
    if (write_data)
        for (const T& t : tensors_)
            for (std::size_t k = 0; k < t.values.size(); ++k)
                for (int i = 0; i < 8; ++i) b[8 + json.size() + t.begin + 8 * k + i] = static_cast<std::uint8_t>(t.values[k] >> (8 * i));
    return b;
}

void add_hf_linear(SafetensorsWriter& w, const std::string& p, std::uint64_t out, std::uint64_t in, Packing packing) {
    switch (packing) {
        case Packing::bf16: w.tensor(p + ".weight", "BF16", {out, in}); break;
        case Packing::gptq4:
            w.tensor(p + ".qweight", "I32", {in / 8, out});
            w.tensor(p + ".qzeros", "I32", {in / 128, out / 8});
            w.tensor(p + ".scales", "F16", {in / 128, out});
            w.tensor(p + ".g_idx", "I32", {in});
            break;
        case Packing::awq4:
            w.tensor(p + ".qweight", "I32", {in, out / 8});
            w.tensor(p + ".qzeros", "I32", {in / 128, out / 8});
            w.tensor(p + ".scales", "F16", {in / 128, out});
            break;
        case Packing::ct_w4a16:
            w.tensor(p + ".weight_packed", "I32", {out, in / 8});
            w.tensor(p + ".weight_scale", "BF16", {out, in / 128});
            w.i64_tensor(p + ".weight_shape", {out, in});
            break;
        case Packing::nvfp4:
            w.tensor(p + ".weight", "U8", {out, in / 2});
            w.tensor(p + ".weight_scale", "F8_E4M3", {out, in / 16});
            w.tensor(p + ".weight_scale_2", "F32", {});
            w.tensor(p + ".input_scale", "F32", {});
            break;
        case Packing::bnb_nf4:
            w.tensor(p + ".weight", "U8", {out * in / 2, 1});
            w.tensor(p + ".weight.absmax", "U8", {out * in / 64});
            w.tensor(p + ".weight.quant_map", "F32", {16});
            w.tensor(p + ".weight.nested_absmax", "F32", {out * in / 64 / 256});
            w.tensor(p + ".weight.nested_quant_map", "F32", {256});
            w.tensor(p + ".weight.quant_state.bitsandbytes__nf4", "U8", {kBnbStateBytes});
            break;
        case Packing::bnb_int8:
            w.tensor(p + ".weight", "I8", {out, in});
            w.tensor(p + ".SCB", "F32", {out});
            break;
        case Packing::fp8_block:
            w.tensor(p + ".weight", "F8_E4M3", {out, in});
            w.tensor(p + ".weight_scale_inv", "F32", {(out + 127) / 128, (in + 127) / 128});
            break;
    }
}

void add_hf_llama_layer_packed(SafetensorsWriter& w, int il, std::uint64_t hidden, std::uint64_t kv_dim, std::uint64_t ff,
                               Packing packing) {
    const std::string p = "model.layers." + std::to_string(il) + ".";
    const std::string norm = packing == Packing::gptq4 || packing == Packing::awq4 ? "F16" : "BF16";
    w.tensor(p + "input_layernorm.weight", norm, {hidden});
    add_hf_linear(w, p + "self_attn.q_proj", hidden, hidden, packing);
    add_hf_linear(w, p + "self_attn.k_proj", kv_dim, hidden, packing);
    add_hf_linear(w, p + "self_attn.v_proj", kv_dim, hidden, packing);
    add_hf_linear(w, p + "self_attn.o_proj", hidden, hidden, packing);
    w.tensor(p + "post_attention_layernorm.weight", norm, {hidden});
    add_hf_linear(w, p + "mlp.gate_proj", ff, hidden, packing);
    add_hf_linear(w, p + "mlp.up_proj", ff, hidden, packing);
    add_hf_linear(w, p + "mlp.down_proj", hidden, ff, packing);
}

SafetensorsWriter gpt_oss_120b_header() {
    SafetensorsWriter w;
    w.write_data = false;
    constexpr std::uint64_t h = 2880, q = 64 * 64, kv = 8 * 64, experts = 128, ff = 2880, vocab = 201088;
    w.tensor("model.embed_tokens.weight", "BF16", {vocab, h});
    for (int il = 0; il < 36; ++il) {
        const std::string p = "model.layers." + std::to_string(il) + ".";
        w.tensor(p + "input_layernorm.weight", "BF16", {h});
        // Experts: gate and up fused, 2 x ff outputs; in / 32 blocks of 16 bytes (32 FP4 values).
        w.tensor(p + "mlp.experts.down_proj_bias", "BF16", {experts, h});
        w.tensor(p + "mlp.experts.down_proj_blocks", "U8", {experts, h, ff / 32, 16});
        w.tensor(p + "mlp.experts.down_proj_scales", "U8", {experts, h, ff / 32});
        w.tensor(p + "mlp.experts.gate_up_proj_bias", "BF16", {experts, 2 * ff});
        w.tensor(p + "mlp.experts.gate_up_proj_blocks", "U8", {experts, 2 * ff, h / 32, 16});
        w.tensor(p + "mlp.experts.gate_up_proj_scales", "U8", {experts, 2 * ff, h / 32});
        w.tensor(p + "mlp.router.bias", "BF16", {experts});
        w.tensor(p + "mlp.router.weight", "BF16", {experts, h});
        w.tensor(p + "post_attention_layernorm.weight", "BF16", {h});
        w.tensor(p + "self_attn.k_proj.bias", "BF16", {kv});
        w.tensor(p + "self_attn.k_proj.weight", "BF16", {kv, h});
        w.tensor(p + "self_attn.o_proj.bias", "BF16", {h});
        w.tensor(p + "self_attn.o_proj.weight", "BF16", {h, q});
        w.tensor(p + "self_attn.q_proj.bias", "BF16", {q});
        w.tensor(p + "self_attn.q_proj.weight", "BF16", {q, h});
        w.tensor(p + "self_attn.sinks", "BF16", {64});
        w.tensor(p + "self_attn.v_proj.bias", "BF16", {kv});
        w.tensor(p + "self_attn.v_proj.weight", "BF16", {kv, h});
    }
    w.tensor("model.norm.weight", "BF16", {h});
    w.tensor("lm_head.weight", "BF16", {vocab, h});
    return w;
}

SafetensorsWriter llama31_8b_header(Packing packing) {
    SafetensorsWriter w;
    w.write_data = false;
    const std::string dtype = packing == Packing::gptq4 || packing == Packing::awq4 ? "F16" : "BF16";
    w.tensor("model.embed_tokens.weight", dtype, {128256, 4096});
    for (int il = 0; il < 32; ++il) add_hf_llama_layer_packed(w, il, 4096, 1024, 14336, packing);
    w.tensor("model.norm.weight", dtype, {4096});
    w.tensor("lm_head.weight", dtype, {128256, 4096});
    return w;
}

std::vector<std::pair<std::string, Bytes>> validation_checkpoints() {
    return {{"gpt-oss-120b/model.safetensors", gpt_oss_120b_header().header_bytes()},
            {"llama-3.1-8b-gptq/model.safetensors", llama31_8b_header(Packing::gptq4).header_bytes()}};
}

std::string gpt_oss_120b_config() {
    // openai/gpt-oss-120b config.json (the fields that shape the tensors; rope scaling left out).
    return R"({"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 36,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 2880,
        "num_local_experts": 128, "num_experts_per_tok": 4, "experts_per_token": 4, "vocab_size": 201088,
        "tie_word_embeddings": false, "sliding_window": 128, "attention_bias": true, "max_position_embeddings": 131072,
        "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
            "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
            "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
            "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
            "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
            "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
            "full_attention"],
        "torch_dtype": "bfloat16",
        "quantization_config": {"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn",
            "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"]}})";
}

TempDir::TempDir(const std::string& tag) {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("gpusizer-" + tag + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
}
TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

void write_file(const std::string& path, const Bytes& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("fixture: cannot write " + path);
}
void write_text(const std::string& path, const std::string& text) { write_file(path, Bytes(text.begin(), text.end())); }
Bytes read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("fixture: cannot read " + path);
    return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void add_block(GgufWriter& w, int il, const BlockShape& s, const std::string& type, const std::string& v_down_type) {
    const std::string b = "blk." + std::to_string(il) + ".";
    const std::string& heavy = v_down_type.empty() ? type : v_down_type;
    w.tensor(b + "attn_norm.weight", {s.hidden}, "F32");
    w.tensor(b + "attn_q.weight", {s.hidden, s.heads * s.head_dim}, type);
    w.tensor(b + "attn_k.weight", {s.hidden, s.kv_heads * s.head_dim}, type);
    w.tensor(b + "attn_v.weight", {s.hidden, s.kv_heads * s.head_dim}, heavy);
    w.tensor(b + "attn_output.weight", {s.heads * s.head_dim, s.hidden}, type);
    if (s.qk_norm) {
        w.tensor(b + "attn_q_norm.weight", {s.head_dim}, "F32");
        w.tensor(b + "attn_k_norm.weight", {s.head_dim}, "F32");
    }
    if (s.gemma_norms) w.tensor(b + "post_attention_norm.weight", {s.hidden}, "F32");
    w.tensor(b + "ffn_norm.weight", {s.hidden}, "F32");
    if (s.gemma_norms) w.tensor(b + "post_ffw_norm.weight", {s.hidden}, "F32");
    if (s.experts) {
        w.tensor(b + "ffn_gate_inp.weight", {s.hidden, s.experts}, "F32");
        w.tensor(b + "ffn_gate_exps.weight", {s.hidden, s.expert_ff, s.experts}, type);
        w.tensor(b + "ffn_up_exps.weight", {s.hidden, s.expert_ff, s.experts}, type);
        w.tensor(b + "ffn_down_exps.weight", {s.expert_ff, s.hidden, s.experts}, heavy);
    } else {
        w.tensor(b + "ffn_gate.weight", {s.hidden, s.ff}, type);
        w.tensor(b + "ffn_up.weight", {s.hidden, s.ff}, type);
        w.tensor(b + "ffn_down.weight", {s.ff, s.hidden}, heavy);
    }
}

void add_ends(GgufWriter& w, std::uint64_t hidden, std::uint64_t vocab, bool tied) {
    w.tensor("token_embd.weight", {hidden, vocab}, "F16");
    w.tensor("output_norm.weight", {hidden}, "F32");
    if (!tied) w.tensor("output.weight", {hidden, vocab}, "Q8_0");
}

GgufWriter tiny_qwen3moe_q8() {
    GgufWriter w;
    w.kv_arch("qwen3moe", {{"block_count", 3}, {"embedding_length", 64}, {"feed_forward_length", 192},
                           {"attention.head_count", 4}, {"attention.head_count_kv", 2}, {"attention.key_length", 16},
                           {"attention.value_length", 16}, {"expert_count", 8}, {"expert_used_count", 2},
                           {"expert_feed_forward_length", 32}});
    w.kv_arr_str("tokenizer.ggml.tokens", std::vector<std::string>(64, "t"));
    BlockShape s{64, 4, 2, 16, 0};
    s.qk_norm = true;
    s.experts = 8;
    s.expert_ff = 32;
    for (int il = 0; il < 3; ++il) add_block(w, il, s, "Q8_0");
    add_ends(w, 64, 64, false);
    return w;
}

void add_hf_llama_layer(SafetensorsWriter& w, int il, std::uint64_t hidden, std::uint64_t kv_dim, std::uint64_t ff,
                        const std::string& dtype) {
    const std::string p = "model.layers." + std::to_string(il) + ".";
    w.tensor(p + "input_layernorm.weight", "F32", {hidden});
    w.tensor(p + "self_attn.q_proj.weight", dtype, {hidden, hidden});
    w.tensor(p + "self_attn.k_proj.weight", dtype, {kv_dim, hidden});
    w.tensor(p + "self_attn.v_proj.weight", dtype, {kv_dim, hidden});
    w.tensor(p + "self_attn.o_proj.weight", dtype, {hidden, hidden});
    w.tensor(p + "post_attention_layernorm.weight", "F32", {hidden});
    w.tensor(p + "mlp.gate_proj.weight", dtype, {ff, hidden});
    w.tensor(p + "mlp.up_proj.weight", dtype, {ff, hidden});
    w.tensor(p + "mlp.down_proj.weight", dtype, {hidden, ff});
}

GgufWriter tiny_mmproj() {
    GgufWriter w;
    w.kv_str("general.architecture", "clip");
    w.kv_str("general.type", "mmproj");
    w.kv_bool("clip.has_vision_encoder", true);
    w.kv_bool("clip.has_audio_encoder", true);
    w.kv_str("clip.projector_type", "mlp");
    for (const auto& [key, value] : std::vector<std::pair<const char*, std::uint32_t>>{
             {"clip.vision.block_count", 1}, {"clip.vision.embedding_length", 64}, {"clip.vision.feed_forward_length", 128},
             {"clip.vision.attention.head_count", 4}, {"clip.vision.projection_dim", 64}, {"clip.vision.image_size", 56},
             {"clip.vision.patch_size", 14}, {"clip.audio.block_count", 1}, {"clip.audio.embedding_length", 32},
             {"clip.audio.feed_forward_length", 64}, {"clip.audio.attention.head_count", 2}, {"clip.audio.projection_dim", 64}})
        w.kv_u32(key, value);
    w.tensor("v.patch_embd.weight", {14, 14, 3, 64}, "F16");
    w.tensor("v.position_embd.weight", {64, 16}, "F16");
    for (const char* t : {"attn_q", "attn_k", "attn_v", "attn_out"}) w.tensor(std::string("v.blk.0.") + t + ".weight", {64, 64}, "F16");
    w.tensor("v.blk.0.ln1.weight", {64}, "F32");
    w.tensor("v.blk.0.ln2.weight", {64}, "F32");
    w.tensor("v.blk.0.ffn_up.weight", {64, 128}, "F16");
    w.tensor("v.blk.0.ffn_down.weight", {128, 64}, "F16");
    w.tensor("v.post_ln.weight", {64}, "F32");
    w.tensor("mm.0.weight", {64, 64}, "F16");
    w.tensor("mm.0.bias", {64}, "F32");
    w.tensor("mm.2.weight", {64, 64}, "F16");
    w.tensor("mm.2.bias", {64}, "F32");
    w.tensor("a.blk.0.attn_q.weight", {32, 32}, "F16");
    w.tensor("mm.a.mlp.0.weight", {32, 64}, "F16");
    return w;
}

GgufWriter llama_like_gguf(std::uint32_t version) {
    GgufWriter w;
    w.version = version;
    w.kv_str("general.architecture", "llama");
    w.kv_str("general.name", "Tiny Llama Fixture");
    w.kv_u32("general.file_type", 15);  // MOSTLY_Q4_K_M
    w.kv_u32("llama.block_count", 2);
    w.kv_u64("llama.context_length", 8192);
    w.kv_u32("llama.embedding_length", 256);
    w.kv_arr_u32("llama.feed_forward_length", {512, 768});
    w.kv_arr_i32("llama.attention.head_count", {4, 4});
    w.kv_u16("llama.attention.head_count_kv", 2);
    w.kv_u8("llama.attention.key_length", 64);
    w.kv_i8("llama.attention.value_length", 64);
    w.kv_i16("llama.rope.dimension_count", 64);
    w.kv_i64("llama.attention.sliding_window", 4096);
    w.kv_arr_bool("llama.attention.sliding_window_pattern", {true, false});
    w.kv_f32("llama.rope.freq_base", 500000.0f);
    w.kv_f64("llama.attention.layer_norm_rms_epsilon", 1e-5);
    w.kv_bool("tokenizer.ggml.add_bos_token", true);
    w.kv_arr_str("tokenizer.ggml.tokens", {"<s>", "</s>", "a", "b"});
    w.kv_arr_f32("tokenizer.ggml.scores", {0.f, 0.f, -1.f, -2.f});
    // An array of arrays of strings (nesting depth 2), as no llama.cpp key uses but the format allows.
    Bytes nested;
    put_u32(nested, kArr);
    put_u64(nested, 2);
    for (int k = 0; k < 2; ++k) {
        put_u32(nested, kStr);
        put_u64(nested, 2);
        put_str(nested, "x" + std::to_string(k));
        put_str(nested, "y" + std::to_string(k));
    }
    w.kv_raw("fixture.nested", kArr, nested);
    // Tensors: 256-wide embedding, vocab 4 rounded to 32 rows for the block sizes.
    w.tensor("token_embd.weight", {256, 32}, "Q4_K");
    for (int l = 0; l < 2; ++l) add_block(w, l, BlockShape{256, 4, 2, 64, l == 0 ? 512u : 768u}, "Q4_K", "Q6_K");
    w.tensor("output_norm.weight", {256}, "F32");
    w.tensor("output.weight", {256, 32}, "Q6_K");
    return w;
}

void write_crosscheck_fixtures(const std::string& dir) {
    write_file(dir + "/llama-v3.gguf", llama_like_gguf(3).bytes());
    write_file(dir + "/llama-v2.gguf", llama_like_gguf(2).bytes());
    GgufWriter all;
    all.kv_str("general.architecture", "fixture");
    all.kv_u32("general.alignment", 64);
    all.alignment = 64;
    for (const auto& t : test_ggml_types()) {
        // Q8_1 (never in files); NVFP4, Q1_0, Q2_0: too new for most readers.
        if (t.id == 9 || t.id == 40 || t.id == 41 || t.id == 42) continue;
        all.tensor(std::string("t.") + t.name, {t.block * 2, 3}, t.name);
    }
    write_file(dir + "/every-type.gguf", all.bytes());
}

}  // namespace gpusizer::fixtures
