// model_file.cpp: what the GGUF and safetensors readers share: byte sources, tensor classes
// from tensor names, the ggml and safetensors type tables, totals.
//
// [SECTION] MemorySource
// [SECTION] Tensor classes from names
// [SECTION] ggml type traits
// [SECTION] safetensors dtypes
// [SECTION] Totals
#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>

#include "checked_math.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"
#include "model_file_internal.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] MemorySource
// ---------------------------------------------------------------------------------------------

MemorySource::MemorySource(std::string name, std::vector<std::uint8_t> bytes, std::optional<std::uint64_t> file_size)
    : name_(std::move(name)), bytes_(std::move(bytes)), size_(file_size ? file_size : std::optional<std::uint64_t>(bytes_.size())) {}

MemorySource::MemorySource(std::string name, std::string_view bytes, std::optional<std::uint64_t> file_size)
    : MemorySource(std::move(name), std::vector<std::uint8_t>(bytes.begin(), bytes.end()), file_size) {}

MemorySource MemorySource::first_bytes(std::string name, std::string_view bytes) {
    MemorySource m(std::move(name), bytes);
    m.size_.reset();
    return m;
}

std::size_t MemorySource::read(std::uint64_t offset, void* out, std::size_t n) {
    if (offset >= bytes_.size()) return 0;
    const std::size_t avail = static_cast<std::size_t>(bytes_.size() - offset);
    const std::size_t k = std::min(n, avail);
    if (k > 0) std::memcpy(out, bytes_.data() + offset, k);
    return k;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Tensor classes from names
// ---------------------------------------------------------------------------------------------

const char* to_string(WeightClass c) {
    switch (c) {
        case WeightClass::embeddings: return "embeddings";
        case WeightClass::attention: return "attention";
        case WeightClass::dense_mlp: return "dense_mlp";
        case WeightClass::routed_experts: return "routed_experts";
        case WeightClass::shared_experts: return "shared_experts";
        case WeightClass::output: return "output";
        case WeightClass::norms: return "norms";
        case WeightClass::vision: return "vision";
        case WeightClass::other: return "other";
    }
    return "other";
}

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }
bool ends_with(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }

// The number right after `marker` ("blk." -> "12" in "blk.12.attn_q"), or -1.
int number_after(std::string_view name, std::string_view marker) {
    std::size_t pos = 0;
    while ((pos = name.find(marker, pos)) != std::string_view::npos) {
        // The marker must start the name or follow a '.'.
        if (pos == 0 || name[pos - 1] == '.') {
            std::size_t i = pos + marker.size();
            long v = 0;
            std::size_t digits = 0;
            while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && digits < 7) {
                v = v * 10 + (name[i] - '0');
                ++i;
                ++digits;
            }
            if (digits > 0 && (i == name.size() || name[i] == '.')) return static_cast<int>(v);
        }
        pos += marker.size();
    }
    return -1;
}

// The part of a GGUF name after "blk.N." ("attn_q.weight"), or the whole name.
std::string_view gguf_suffix(std::string_view name) {
    if (!starts_with(name, "blk.")) return name;
    const std::size_t dot = name.find('.', 4);
    return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

}  // namespace

const char* to_string(TensorPart p) {
    switch (p) {
        case TensorPart::text: return "text";
        case TensorPart::vision: return "vision";
        case TensorPart::audio: return "audio";
        case TensorPart::mtp: return "mtp";
    }
    return "text";
}

TensorPart gguf_tensor_part(std::string_view name) {
    // llama.cpp's mtmd projector files (gguf-py constants.py): audio encoder a.*, its projector
    // mm.a.* (A_MMPROJ); vision encoder v.*, projector mm.* / mm_* / resampler.* (V_*, V_MMPROJ*).
    if (starts_with(name, "a.") || starts_with(name, "mm.a.")) return TensorPart::audio;
    if (starts_with(name, "v.") || starts_with(name, "mm.") || starts_with(name, "mm_") || starts_with(name, "model.vision") ||
        starts_with(name, "resampler."))
        return TensorPart::vision;
    // The legacy unnumbered NextN tensors (NEXTN_* before they moved into blk.N.nextn.*).
    if (starts_with(name, "nextn.")) return TensorPart::mtp;
    return TensorPart::text;
}

TensorPart hf_tensor_part(std::string_view name) {
    // Audio first: Gemma 3n's embed_audio and Qwen2.5-Omni's audio_tower sit beside vision ones.
    for (std::string_view a : {"audio_tower", "audio_encoder", "audio_model", "embed_audio", "audio_projector", "audio_embed"})
        if (contains(name, a)) return TensorPart::audio;
    if (classify_hf_tensor(name) == WeightClass::vision) return TensorPart::vision;
    // Qwen3-Next / Qwen3.5 "mtp.*" (mtp_num_hidden_layers), MiMo "model.mtp_layers.N.*".
    if (starts_with(name, "mtp.") || starts_with(name, "model.mtp.") || contains(name, "mtp_layers.")) return TensorPart::mtp;
    return TensorPart::text;
}

int gguf_tensor_layer(std::string_view name) {
    if (!starts_with(name, "blk.")) return -1;
    return number_after(name, "blk.");
}

int hf_tensor_layer(std::string_view name) {
    for (std::string_view m : {"layers.", "h.", "blocks.", "layer.", "block."}) {
        const int n = number_after(name, m);
        if (n >= 0) return n;
    }
    return -1;
}

WeightClass classify_gguf_tensor(std::string_view name) {
    // Projector files (mmproj): the vision / audio encoder and its projector. llama.cpp's
    // clip.cpp names them v.*, mm.*, mm_*, a.* (gguf-py constants.py, MODEL_TENSOR.V_* / A_*).
    if (starts_with(name, "v.") || starts_with(name, "mm.") || starts_with(name, "mm_") || starts_with(name, "a.") ||
        starts_with(name, "model.vision") || starts_with(name, "resampler."))
        return WeightClass::vision;
    const std::string_view s = gguf_suffix(name);
    if (starts_with(name, "token_embd_norm")) return WeightClass::norms;
    if (starts_with(name, "token_embd") || starts_with(name, "pos_embd") || starts_with(name, "token_types") ||
        starts_with(name, "per_layer_token_embd"))
        return WeightClass::embeddings;
    if (starts_with(name, "output_norm")) return WeightClass::norms;
    if (starts_with(name, "output.") || starts_with(name, "cls.") || starts_with(name, "cls_out")) return WeightClass::output;
    if (contains(s, "norm") || starts_with(name, "rope_freqs") || starts_with(s, "layer_output_scale") ||
        starts_with(s, "attn_sinks"))
        return WeightClass::norms;
    // Shared experts first: "ffn_up_shexp" also ends like a routed expert's name family.
    if (contains(s, "_shexp")) return WeightClass::shared_experts;
    if (contains(s, "_exps") || starts_with(s, "ffn_gate_inp") || starts_with(s, "ffn_exp_probs_b") ||
        starts_with(s, "exp_probs_b"))
        return WeightClass::routed_experts;
    if (starts_with(s, "ffn_") || starts_with(s, "channel_mix")) return WeightClass::dense_mlp;
    if (starts_with(s, "attn_") || starts_with(s, "ssm_") || starts_with(s, "time_mix") || starts_with(s, "shortconv") ||
        starts_with(s, "indexer"))
        return WeightClass::attention;
    return WeightClass::other;
}

WeightClass classify_hf_tensor(std::string_view name) {
    // Vision and audio towers and their projectors (transformers' names: Qwen2-VL visual.*,
    // LLaVA / Gemma 3 vision_tower + multi_modal_projector, Idefics3 model.vision_model +
    // model.connector, Pixtral's vision_language_adapter, Gemma 3n embed_vision / embed_audio,
    // MiniCPM-V vpm + resampler, InternVL mlp1).
    for (std::string_view v : {"vision_tower", "visual.", "vision_model", "multi_modal_projector", "mm_projector", "vision_embed",
                               "audio_tower", "image_newline", "vision_encoder", "audio_encoder", "audio_model", "embed_vision",
                               "embed_audio", "vision_language_adapter", "audio_projector", "audio_embed"})
        if (contains(name, v)) return WeightClass::vision;
    for (std::string_view v : {"model.vision_", "model.connector.", "vpm.", "resampler.", "mlp1."})
        if (starts_with(name, v)) return WeightClass::vision;
    if (contains(name, "shared_expert")) return WeightClass::shared_experts;
    if (contains(name, ".experts.") || contains(name, "e_score_correction_bias") || ends_with(name, "mlp.gate.weight") ||
        ends_with(name, "block_sparse_moe.gate.weight") || contains(name, ".router."))
        return WeightClass::routed_experts;
    if (contains(name, "norm") || contains(name, ".ln_") || starts_with(name, "ln_") || contains(name, "layernorm"))
        return WeightClass::norms;
    if (contains(name, "embed_tokens") || contains(name, "word_embeddings") || contains(name, ".wte.") ||
        contains(name, ".wpe.") || contains(name, "embed_positions") || contains(name, "position_embeddings") ||
        contains(name, "token_type_embeddings") || starts_with(name, "wte.") || starts_with(name, "wpe."))
        return WeightClass::embeddings;
    if (starts_with(name, "lm_head") || contains(name, ".lm_head") || starts_with(name, "output.") ||
        contains(name, "embed_out"))
        return WeightClass::output;
    if (contains(name, "self_attn") || contains(name, ".attention.") || contains(name, ".attn.") ||
        contains(name, ".mixer.") || contains(name, "linear_attn") || contains(name, "cross_attn"))
        return WeightClass::attention;
    if (contains(name, ".mlp.") || contains(name, "feed_forward") || contains(name, ".ffn.") ||
        contains(name, ".intermediate.") || contains(name, ".output.dense"))
        return WeightClass::dense_mlp;
    return WeightClass::other;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] ggml type traits
// ---------------------------------------------------------------------------------------------

// Ids: enum ggml_type in ggml/include/ggml.h. Block sizes and bytes per block: the
// static_asserts on each block_* struct in ggml/src/ggml-common.h, mirrored by GGML_QUANT_SIZES
// in gguf-py/gguf/constants.py (ggml-org/llama.cpp, commit 0024aa74; Q2_0 from commit 37b53fd4,
// where the enum ends GGML_TYPE_Q2_0 = 42, GGML_TYPE_COUNT = 43). QK_K = 256.
// Ids 4, 5 (Q4_2, Q4_3) and 31-33, 36-38 (repacked Q4_0_x_y, IQ4_NL_x_y) were removed and are
// rejected, as is every id past the table (a newer ggml's, or a fork's: 100+ in ik_llama.cpp).
const std::vector<GgmlTypeTraits>& ggml_types() {
    static const std::vector<GgmlTypeTraits> t = {
        {0, "F32", 1, 4},
        {1, "F16", 1, 2},
        {2, "Q4_0", 32, 18},      // fp16 d + 16 B of nibbles
        {3, "Q4_1", 32, 20},      // fp16 d, m + 16 B
        {6, "Q5_0", 32, 22},      // fp16 d + 4 B high bits + 16 B
        {7, "Q5_1", 32, 24},      // fp16 d, m + 4 B + 16 B
        {8, "Q8_0", 32, 34},      // fp16 d + 32 B
        {9, "Q8_1", 32, 36},      // fp16 d, s + 32 B (ggml-common.h; gguf-py's table says 4 + 4 + 32, from
                                  // when d and s were floats; Q8_1 never appears in model files)
        {10, "Q2_K", 256, 84},    // 2 + 2 + QK_K/16 + QK_K/4
        {11, "Q3_K", 256, 110},   // 2 + QK_K/4 + QK_K/8 + 12
        {12, "Q4_K", 256, 144},   // 2 + 2 + QK_K/2 + 12
        {13, "Q5_K", 256, 176},   // 2 + 2 + QK_K/2 + QK_K/8 + 12
        {14, "Q6_K", 256, 210},   // 2 + QK_K/2 + QK_K/4 + QK_K/16
        {15, "Q8_K", 256, 292},   // 4 + QK_K + QK_K/8
        {16, "IQ2_XXS", 256, 66}, // 2 + QK_K/4
        {17, "IQ2_XS", 256, 74},  // 2 + QK_K/4 + QK_K/32
        {18, "IQ3_XXS", 256, 98}, // 2 + QK_K/4 + QK_K/8
        {19, "IQ1_S", 256, 50},   // 2 + QK_K/8 + QK_K/16
        {20, "IQ4_NL", 32, 18},   // 2 + 16
        {21, "IQ3_S", 256, 110},  // 2 + QK_K/4 + QK_K/8 + QK_K/32 + 4
        {22, "IQ2_S", 256, 82},   // 2 + QK_K/4 + QK_K/16
        {23, "IQ4_XS", 256, 136}, // 2 + 2 + QK_K/2 + QK_K/64
        {24, "I8", 1, 1},
        {25, "I16", 1, 2},
        {26, "I32", 1, 4},
        {27, "I64", 1, 8},
        {28, "F64", 1, 8},
        {29, "IQ1_M", 256, 56},   // QK_K/8 + QK_K/16 + QK_K/32
        {30, "BF16", 1, 2},
        {34, "TQ1_0", 256, 54},   // 2 + 4 * 13
        {35, "TQ2_0", 256, 66},   // 2 + 64
        {39, "MXFP4", 32, 17},    // 1 B shared E8M0 exponent + 16 B of E2M1 nibbles
        {40, "NVFP4", 64, 36},    // 4 + 32
        {41, "Q1_0", 128, 18},    // 2 + 16: fp16 d + 1 sign bit per weight (1.125 bits)
        {42, "Q2_0", 64, 18},     // 2 + 16: fp16 d + 2 bits per weight, QK2_0 = 64 (2.25 bits)
    };
    return t;
}

const GgmlTypeTraits* ggml_type_traits(std::uint32_t id) {
    static const auto by_id = [] {
        std::array<const GgmlTypeTraits*, 64> a{};
        for (const auto& t : ggml_types()) a[t.id] = &t;
        return a;
    }();
    return id < by_id.size() ? by_id[id] : nullptr;
}

std::uint64_t ggml_tensor_bytes(const GgmlTypeTraits& t, std::uint64_t row_elements, std::uint64_t elements,
                                const std::string& key) {
    // ggml stores a quantized tensor row by row; each row is a whole number of blocks.
    if (row_elements % t.block_size != 0)
        throw_error(key, "row of " + std::to_string(row_elements) + " elements is not a multiple of " + t.name + "'s block of " +
                             std::to_string(t.block_size));
    if (row_elements == 0) return 0;
    const std::uint64_t row_bytes = detail::checked_mul(row_elements / t.block_size, t.type_size, key);
    return detail::checked_mul(row_bytes, elements / row_elements, key);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] safetensors dtypes
// ---------------------------------------------------------------------------------------------

// Dtype and Dtype::bitsize in huggingface/safetensors safetensors/src/tensor.rs.
const std::vector<SafetensorsDtype>& safetensors_dtypes() {
    static const std::vector<SafetensorsDtype> t = {
        {"BOOL", 8},    {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"U8", 8},   {"I8", 8},   {"F8_E5M2", 8},
        {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"I16", 16},    {"U16", 16},    {"F16", 16}, {"BF16", 16}, {"I32", 32},
        {"U32", 32},    {"F32", 32},    {"C64", 64},    {"F64", 64},    {"I64", 64}, {"U64", 64},
    };
    return t;
}

const SafetensorsDtype* safetensors_dtype(std::string_view name) {
    for (const auto& d : safetensors_dtypes())
        if (name == d.name) return &d;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Totals
// ---------------------------------------------------------------------------------------------

namespace detail {

namespace {

// Sums of sizes each below 2^64 over at most a few hundred thousand tensors: checked all the same.
template <typename Total>
void add_count(Total& x, const TensorCount& c) {
    x.tensors += 1;
    x.elements = checked_add(x.elements, c.elements, "tensor totals");
    x.params = checked_add(x.params, c.params, "tensor totals");
    x.bytes = checked_add(x.bytes, c.bytes, "tensor totals");
}

}  // namespace

void add_to_totals(TensorTotals& t, const TensorCount& c) {
    auto it = std::find_if(t.by_type.begin(), t.by_type.end(), [&](const TypeTotal& x) { return x.type == c.type; });
    if (it == t.by_type.end()) {
        t.by_type.push_back({c.type, 0, 0, 0, 0});
        it = t.by_type.end() - 1;
    }
    add_count(*it, c);
    add_count(t.by_class[static_cast<std::size_t>(c.cls)], c);
    add_count(t.by_part[static_cast<std::size_t>(c.part)], c);
    // Vision / audio towers and MTP-named tensors number their own blocks: they are not the
    // language model's layers.
    if (c.part == TensorPart::text) {
        auto& b = t.text_class_bytes[static_cast<std::size_t>(c.cls)];
        b = checked_add(b, c.bytes, "tensor totals");
    }
    if (c.layer >= 0 && c.layer < kMaxTrackedLayers && c.part == TensorPart::text && c.cls != WeightClass::vision) {
        const auto il = static_cast<std::size_t>(c.layer);
        if (il >= t.by_layer.size()) t.by_layer.resize(il + 1), t.layer_totals.resize(il + 1);
        auto& l = t.by_layer[il][static_cast<std::size_t>(c.cls)];
        l = checked_add(l, c.bytes, "tensor totals");
        add_count(t.layer_totals[il], c);
    }
    t.tensors += 1;
    t.elements = checked_add(t.elements, c.elements, "tensor totals");
    t.params = checked_add(t.params, c.params, "tensor totals");
    t.bytes = checked_add(t.bytes, c.bytes, "tensor totals");
}

}  // namespace detail

std::array<ClassTotal, kTensorPartCount> part_totals(const TensorTotals& t, int stack_layers) {
    std::array<ClassTotal, kTensorPartCount> p = t.by_part;
    if (stack_layers < 0) return p;
    ClassTotal& text = p[static_cast<std::size_t>(TensorPart::text)];
    ClassTotal& mtp = p[static_cast<std::size_t>(TensorPart::mtp)];
    for (std::size_t il = static_cast<std::size_t>(stack_layers); il < t.layer_totals.size(); ++il) {
        const ClassTotal& l = t.layer_totals[il];
        // Every layer total is part of the text total it is moved out of: no underflow.
        text.tensors -= l.tensors, text.elements -= l.elements, text.params -= l.params, text.bytes -= l.bytes;
        mtp.tensors += l.tensors, mtp.elements += l.elements, mtp.params += l.params, mtp.bytes += l.bytes;
    }
    return p;
}

namespace detail {

void finish_totals(TensorTotals& t) {
    std::sort(t.by_type.begin(), t.by_type.end(), [](const TypeTotal& a, const TypeTotal& b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.type < b.type;
    });
}

std::string folder_of(const std::string& path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string file_name_of(const std::string& path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace detail
}  // namespace gpusizer
