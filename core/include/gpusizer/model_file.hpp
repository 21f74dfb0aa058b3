// gpusizer/model_file.hpp: what a checkpoint's header says, read without its weights.
//
// [SECTION] ByteSource: bytes by offset and length (the caller does the I/O)
// [SECTION] Tensor classes: embeddings, attention, MLP, experts, output, norms, vision, other;
//           parts of the checkpoint: text, vision, audio, MTP
// [SECTION] ggml type traits: block size and bytes per block of every ggml type
// [SECTION] GGUF: metadata values, tensor infos, one file's header, a whole (split) model
// [SECTION] safetensors: one file's header, a sharded checkpoint's index, a whole model
//
// Both readers treat their input as hostile: every length, count and product is bounded and
// checked, and bad input ends in a gpusizer::Error whose key names the file and the field
// ("model-00001-of-00002.gguf: tensor 7 (blk.0.attn_q.weight): type"), never in a crash, a hang
// or an allocation larger than the caps below.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/config.hpp"
#include "gpusizer/model.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] ByteSource
// ---------------------------------------------------------------------------------------------

// Bytes of one file by offset. The core never opens files: the CLI and the app hand it a source
// backed by a file, the browser one backed by File.slice or HTTP Range requests.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // The name errors use (a file name or URL).
    virtual std::string name() const = 0;
    // The file's whole size when known (a header-only prefix may know the size of the file it
    // came from); nullopt when unknown.
    virtual std::optional<std::uint64_t> size() const = 0;
    // Copies up to `n` bytes at `offset` into `out`; returns how many were copied (fewer only
    // at the end of what the source has).
    virtual std::size_t read(std::uint64_t offset, void* out, std::size_t n) = 0;
};

// A source over bytes in memory (a whole file, or the first bytes of one).
class MemorySource : public ByteSource {
public:
    MemorySource(std::string name, std::vector<std::uint8_t> bytes, std::optional<std::uint64_t> file_size = std::nullopt);
    MemorySource(std::string name, std::string_view bytes, std::optional<std::uint64_t> file_size = std::nullopt);
    // The first bytes of a file whose size is not known (a header cut from a larger file):
    // size() is nullopt, so readers cannot check that the tensor data fits in the file.
    static MemorySource first_bytes(std::string name, std::string_view bytes);
    std::string name() const override { return name_; }
    std::optional<std::uint64_t> size() const override { return size_; }
    std::size_t read(std::uint64_t offset, void* out, std::size_t n) override;

private:
    std::string name_;
    std::vector<std::uint8_t> bytes_;
    std::optional<std::uint64_t> size_;
};

// Opens another file of the same model (a split part, a shard, the index) by name; returns
// nullptr when there is no such file.
using SourceOpener = std::function<std::unique_ptr<ByteSource>(const std::string& name)>;

// ---------------------------------------------------------------------------------------------
// [SECTION] Tensor classes
// ---------------------------------------------------------------------------------------------

// Where a tensor's bytes go. SSM / linear-attention mixers (Mamba, RWKV time mix, Gated
// DeltaNet) count as attention: they are the layer's sequence mixer. Routers count with the
// routed experts they choose among.
enum class WeightClass { embeddings, attention, dense_mlp, routed_experts, shared_experts, output, norms, vision, other };
inline constexpr std::size_t kWeightClassCount = 9;

// "embeddings", "attention", "dense_mlp", "routed_experts", "shared_experts", "output",
// "norms" (norms and other small tensors), "vision" (vision/audio towers and projectors), "other".
const char* to_string(WeightClass c);

// From GGUF tensor names (llama.cpp's naming: token_embd, blk.N.attn_*, blk.N.ffn_*_exps,
// blk.N.ffn_*_shexp, output, v.* / mm.* in projector files).
WeightClass classify_gguf_tensor(std::string_view name);
// From Hugging Face tensor names (embed_tokens, lm_head, self_attn.*, mlp.experts.*,
// shared_expert*, vision_tower / visual.* ...).
WeightClass classify_hf_tensor(std::string_view name);
// The transformer block a tensor belongs to ("blk.12.attn_q.weight" -> 12,
// "model.layers.3.mlp.up_proj.weight" -> 3), or -1.
int gguf_tensor_layer(std::string_view name);
int hf_tensor_layer(std::string_view name);

// The part of the checkpoint a tensor belongs to, by its name: the language model, a vision
// tower and its projector, an audio tower and its projector, or multi-token-prediction (MTP /
// NextN) layers kept beside the text stack. MTP blocks numbered after the text stack's
// (DeepSeek-V3's model.layers.61, llama.cpp's blk.N past the stack) are told apart by their
// index once the stack's depth is known (part_totals).
enum class TensorPart { text, vision, audio, mtp };
inline constexpr std::size_t kTensorPartCount = 4;
const char* to_string(TensorPart p);  // "text", "vision", "audio", "mtp"
// GGUF: v.*, mm.* (vision); a.*, mm.a.* (audio, llama.cpp's mtmd names: gguf-py constants.py
// MODEL_TENSOR.V_* / A_* / A_MMPROJ); nextn.* (the legacy unnumbered NextN tensors).
TensorPart gguf_tensor_part(std::string_view name);
// Hugging Face: vision_tower, visual., vision_model, multi_modal_projector, ... (vision);
// audio_tower, audio_encoder, embed_audio, ... (audio); mtp.*, mtp_layers (MTP, Qwen3-Next /
// MiMo spelling).
TensorPart hf_tensor_part(std::string_view name);

// Totals over a model's tensors, by storage type and by class. `elements` counts what is
// stored (a GPTQ qweight counts its int32s, an MXFP4 block tensor its bytes); `params` counts
// the model's parameters by their logical shape: a packed tensor counts the values it packs,
// and quantization metadata (scales, zero points, group indices, absmax, quant_state) counts
// none (safetensors_layouts.cpp). In GGUF every tensor's shape is logical: params = elements.
struct TypeTotal {
    std::string type;            // ggml type name ("Q4_K") or safetensors dtype ("BF16")
    std::uint64_t tensors = 0;
    std::uint64_t elements = 0;  // stored elements (a packed int32 GPTQ tensor counts its int32s)
    std::uint64_t params = 0;    // logical parameters
    std::uint64_t bytes = 0;
};
struct ClassTotal {
    std::uint64_t tensors = 0;
    std::uint64_t elements = 0;
    std::uint64_t params = 0;
    std::uint64_t bytes = 0;
};
// Layers above this index are not tracked per layer (a name may claim any number).
inline constexpr int kMaxTrackedLayers = 65536;

struct TensorTotals {
    std::vector<TypeTotal> by_type;                      // sorted by bytes, largest first
    std::array<ClassTotal, kWeightClassCount> by_class{};  // indexed by WeightClass
    std::array<ClassTotal, kTensorPartCount> by_part{};    // indexed by TensorPart, by name alone
    // Bytes of each transformer block by class (tensors with a layer index: blk.N, layers.N;
    // vision / audio tower blocks and MTP-named tensors, which number their own blocks,
    // excluded); the per-layer model takes exact weight bytes from here.
    std::vector<std::array<std::uint64_t, kWeightClassCount>> by_layer;
    std::vector<ClassTotal> layer_totals;                 // the same blocks, all classes together
    // Bytes of the text part's tensors by class (by_class less the towers and MTP-named tensors).
    std::array<std::uint64_t, kWeightClassCount> text_class_bytes{};
    std::uint64_t tensors = 0;
    std::uint64_t elements = 0;
    std::uint64_t params = 0;
    std::uint64_t bytes = 0;
    const ClassTotal& of(WeightClass c) const { return by_class[static_cast<std::size_t>(c)]; }
    const ClassTotal& of(TensorPart p) const { return by_part[static_cast<std::size_t>(p)]; }
    std::uint64_t layer_bytes(int layer, WeightClass c) const {
        return layer >= 0 && static_cast<std::size_t>(layer) < by_layer.size()
                   ? by_layer[static_cast<std::size_t>(layer)][static_cast<std::size_t>(c)]
                   : 0;
    }
};

// Tensors, parameters and bytes by part once the text stack's depth is known: blocks at or past
// `stack_layers` are MTP / NextN layers (DeepSeek-V3 stores its MTP layer as model.layers.61 of
// 61; llama.cpp's GLM-4.5 files as the last nextn_predict_layers blocks). stack_layers < 0: every
// numbered block is the text model's. Indexed by TensorPart.
std::array<ClassTotal, kTensorPartCount> part_totals(const TensorTotals& t, int stack_layers);

// ---------------------------------------------------------------------------------------------
// [SECTION] ggml type traits
// ---------------------------------------------------------------------------------------------

// One ggml tensor type: `block_size` elements are stored in `type_size` bytes.
struct GgmlTypeTraits {
    std::uint32_t id;        // enum ggml_type in ggml.h
    const char* name;        // as gguf-py and llama.cpp print it ("Q4_K")
    std::uint32_t block_size;
    std::uint32_t type_size;
};

// Every ggml type a GGUF file can hold, by id (gaps are removed types).
const std::vector<GgmlTypeTraits>& ggml_types();
// The traits of a type id, or nullptr for an id no ggml release defines (the reader then
// refuses the tensor with an Error naming the id and the tensor).
const GgmlTypeTraits* ggml_type_traits(std::uint32_t id);
// Bytes of a tensor of `elements` elements of that type; throws Error (key) when the element
// count is not a whole number of blocks or the product overflows.
std::uint64_t ggml_tensor_bytes(const GgmlTypeTraits& t, std::uint64_t row_elements, std::uint64_t elements,
                                const std::string& key);

// ---------------------------------------------------------------------------------------------
// [SECTION] GGUF
// ---------------------------------------------------------------------------------------------

// Caps on what a header may claim. Real headers stay far below them (the largest tokenizer
// arrays hold ~260k strings; the largest models ~100k tensors over all split parts).
inline constexpr std::uint64_t kGgufMaxHeaderBytes = 256ull << 20;  // bytes read before tensor data
inline constexpr std::uint64_t kGgufMaxKeyBytes = 64ull << 10;      // one metadata key
inline constexpr std::uint64_t kGgufMaxStringBytes = 64ull << 20;   // one string value
inline constexpr std::uint64_t kGgufMaxKeptStringBytes = 1ull << 20; // longer strings are skipped, not kept
inline constexpr std::uint64_t kGgufMaxKeptTotalBytes = 32ull << 20; // all kept strings of one file
inline constexpr std::uint64_t kGgufMaxArrayLength = 1ull << 26;    // elements in one array
inline constexpr std::uint64_t kGgufMaxKeptArrayItems = 4096;       // items kept per array (the rest skipped)
inline constexpr std::uint64_t kGgufMaxKeyValues = 1ull << 16;      // metadata entries
inline constexpr std::uint64_t kGgufMaxTensors = 1ull << 18;        // tensors in one file
inline constexpr std::uint64_t kGgufMaxNameBytes = 256;             // a tensor name (ggml: GGML_MAX_NAME = 64)
inline constexpr std::uint32_t kGgufMaxDims = 4;                    // ggml: GGML_MAX_DIMS
inline constexpr int kGgufMaxArrayNesting = 4;                      // arrays of arrays of ...
inline constexpr std::uint32_t kGgufMaxSplitParts = 4096;

// GGUF metadata value types (gguf.h enum gguf_type).
enum class GgufType : std::uint32_t { u8 = 0, i8 = 1, u16 = 2, i16 = 3, u32 = 4, i32 = 5, f32 = 6, boolean = 7,
                                      string = 8, array = 9, u64 = 10, i64 = 11, f64 = 12 };
const char* to_string(GgufType t);  // "u8", ..., "str", "arr"

struct GgufValue {
    GgufType type = GgufType::u8;
    std::uint64_t u = 0;      // unsigned integers and bool; non-negative signed ones too
    std::int64_t i = 0;       // signed view of any integer (u64 above INT64_MAX: not representable)
    double f = 0;             // every number, as double
    bool negative = false;    // a signed integer below zero
    std::string s;            // string (empty when skipped: see `skipped`)
    GgufType item_type = GgufType::u8;  // arrays: the items' type
    std::uint64_t count = 0;            // arrays: the length stated in the file
    std::vector<GgufValue> items;       // arrays: the first kGgufMaxKeptArrayItems items
    bool skipped = false;               // a string or array items not kept (too long); `count` stays exact

    bool is_integer() const;
    bool is_number() const { return is_integer() || type == GgufType::f32 || type == GgufType::f64; }
    // Short display text ("4096", "[32 x u32]", "\"llama\"").
    std::string display(std::size_t max_chars = 80) const;
};

struct GgufKeyValue {
    std::string key;
    GgufValue value;
};

struct GgufTensor {
    std::string name;
    std::uint32_t type = 0;                // ggml type id
    std::string type_name;                 // "Q4_K"
    std::uint32_t n_dims = 0;
    std::array<std::uint64_t, 4> dims{};   // ne[0..n_dims), ne[0] the row (contiguous) size
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;               // exact, from the type's block size and bytes per block
    std::uint64_t offset = 0;              // from the start of the file's tensor data
    WeightClass cls = WeightClass::other;
    TensorPart model_part = TensorPart::text;  // by name (gguf_tensor_part)
    int layer = -1;                        // blk.N
    std::uint32_t part = 0;                // which split part (0-based) holds it
};

// One file's header.
struct GgufHeader {
    std::string file;
    std::uint32_t version = 0;
    std::uint64_t alignment = 32;          // general.alignment, default 32 (GGUF_DEFAULT_ALIGNMENT)
    std::uint64_t header_bytes = 0;        // bytes up to the end of the tensor infos
    std::uint64_t data_offset = 0;         // where tensor data starts (header_bytes aligned up)
    std::uint64_t data_bytes = 0;          // end of the last tensor's data, from data_offset
    std::vector<GgufKeyValue> metadata;
    std::vector<GgufTensor> tensors;
    std::uint32_t split_no = 0;            // split.no (0-based), when the file is a part
    std::uint32_t split_count = 0;         // split.count, 0 when absent

    const GgufValue* find(std::string_view key) const;
};

// Reads one file's header: magic "GGUF", version 2 or 3, little-endian.
GgufHeader read_gguf_header(ByteSource& src);

// The hyperparameters an architecture needs, from general.architecture and {arch}.* keys.
// 0 / empty = absent from the file. Per-layer arrays have block_count entries; scalars one.
struct GgufArchInfo {
    std::string architecture;                 // general.architecture ("llama", "qwen3moe", ...)
    std::string name;                         // general.name
    std::string file_type;                    // general.file_type as llama.cpp names it (Q4_K_M ...)
    std::uint64_t block_count = 0;
    std::uint64_t context_length = 0;
    std::uint64_t embedding_length = 0;
    std::uint64_t vocab_size = 0;             // {arch}.vocab_size or the token list's length
    std::vector<std::uint64_t> feed_forward_length;
    std::vector<std::uint64_t> head_count;
    std::vector<std::uint64_t> head_count_kv;
    std::uint64_t key_length = 0;
    std::uint64_t value_length = 0;
    std::uint64_t key_length_mla = 0;
    std::uint64_t value_length_mla = 0;
    std::uint64_t q_lora_rank = 0;
    std::uint64_t kv_lora_rank = 0;
    std::uint64_t rope_dimension_count = 0;
    std::uint64_t sliding_window = 0;
    std::uint64_t sliding_window_period = 0;  // sliding_window_pattern as a number
    std::vector<std::uint8_t> sliding_window_layers;  // sliding_window_pattern as a per-layer array (1 = slides)
    std::uint64_t full_attention_interval = 0;
    std::uint64_t expert_count = 0;
    std::uint64_t expert_used_count = 0;
    std::uint64_t expert_shared_count = 0;
    std::uint64_t expert_feed_forward_length = 0;
    std::uint64_t expert_shared_feed_forward_length = 0;
    std::uint64_t leading_dense_block_count = 0;
    std::uint64_t ssm_conv_kernel = 0;
    std::uint64_t ssm_inner_size = 0;
    std::uint64_t ssm_state_size = 0;
    std::uint64_t ssm_time_step_rank = 0;
    std::uint64_t ssm_group_count = 0;
    // The keys read above that the file had, for display ("llama.block_count = 32").
    std::vector<std::string> keys_used;
};
GgufArchInfo gguf_arch_info(const GgufHeader& h);

// A multimodal projector file (llama.cpp's mtmd: `mmproj-*.gguf`, general.architecture "clip"):
// a vision and / or audio encoder (v.*, a.*) and the projector into the language model (mm.*).
// Keys: tools/mtmd/clip-impl.h (KEY_PROJ_TYPE "clip.projector_type", KEY_HAS_VISION_ENC
// "clip.has_vision_encoder", KEY_N_BLOCK "clip.%s.block_count", ...).
struct GgufEncoderInfo {
    std::uint64_t block_count = 0;            // clip.{vision,audio}.block_count
    std::uint64_t embedding_length = 0;       // clip.{vision,audio}.embedding_length
    std::uint64_t feed_forward_length = 0;    // clip.{vision,audio}.feed_forward_length
    std::uint64_t head_count = 0;             // clip.{vision,audio}.attention.head_count
    std::uint64_t projection_dim = 0;         // clip.{vision,audio}.projection_dim
    std::uint64_t image_size = 0;             // clip.vision.image_size
    std::uint64_t patch_size = 0;             // clip.vision.patch_size
};
struct GgufProjectorInfo {
    std::string projector_type;               // clip.projector_type ("mlp", "qwen2.5vl_merger", "gemma3", ...)
    bool has_vision = false;                  // clip.has_vision_encoder
    bool has_audio = false;                   // clip.has_audio_encoder
    GgufEncoderInfo vision, audio;
};
// Whether the header is a projector file's (general.architecture "clip").
bool gguf_is_projector(const GgufHeader& h);
GgufProjectorInfo gguf_projector_info(const GgufHeader& h);

// A whole model: every part of a split file, tensors in file order.
struct GgufModel {
    std::vector<std::string> files;           // part names, in split order
    std::uint32_t version = 0;                // of the first part
    std::uint64_t header_bytes = 0;           // all parts' headers together
    std::vector<std::uint64_t> data_offsets;  // where each part's tensor data starts
    GgufArchInfo arch;
    std::vector<GgufKeyValue> metadata;       // the first part's
    std::vector<GgufTensor> tensors;
    TensorTotals totals;
    bool projector = false;                   // an mmproj file (gguf_is_projector)
    GgufProjectorInfo projector_info;         // its encoders, when `projector`
    // The text stack's depth: block_count less {arch}.nextn_predict_layers, or less the trailing
    // blocks holding blk.N.nextn.* tensors when the key is absent; -1 without block_count.
    int stack_layers = -1;
};

// A multimodal projector file beside the model (`mmproj-*.gguf` in the same folder; the name is
// llama.cpp's convention, the file's general.architecture "clip" is checked when read): the
// name, or "" when `files` (one folder's names) holds none. Several: the first by name, and
// `others` (may be null) gets the rest.
std::string find_gguf_projector(const std::vector<std::string>& files, std::vector<std::string>* others);
bool is_gguf_projector_name(std::string_view file_name);   // "mmproj" in the name, ".gguf" at its end

// "m-00002-of-00005.gguf" -> the five part names "m-00001-of-00005.gguf" ...; any other name ->
// itself. Keeps any folder prefix. Throws Error when the numbers are impossible (0, N > M).
std::vector<std::string> gguf_split_part_names(std::string_view path);

// Reads every part's header (opening parts by name through `open`) and joins them. `path` may
// name any part. Parts must agree (split.count, split.no, version, architecture).
GgufModel read_gguf_model(const std::string& path, const SourceOpener& open);
// One file already open (not split, or a single part read alone).
GgufModel gguf_model_from_headers(std::vector<GgufHeader> parts);

// The per-layer model a GGUF header describes (gguf_model.cpp), for the llama.cpp architectures
// of its table (llama, mistral3, qwen2, qwen2moe, qwen3, qwen3moe, gemma, gemma2, gemma3, phi3,
// granite, granitemoe, olmo2, gpt-oss, deepseek2, glm4moe, mamba, mamba2, granitehybrid,
// nemotron_h); source "gguf", `file` = the tensors' exact bytes by where they sit. Throws Error
// naming general.architecture and the supported list for any other. `warnings` (may be null)
// gets what was assumed.
ModelArch arch_from_gguf(const GgufModel& m, std::vector<std::string>* warnings);
// The exact bytes of a tensor list by where they sit: blocks 0..stack_layers-1, blocks past
// them and MTP-named tensors (beyond_stack), the embedding table, vision and audio towers, and
// the rest (head, final norm); and its parameters by part (part_totals).
ModelArch::FileWeights file_weights(const TensorTotals& totals, int stack_layers);
// Adds a projector file's tensors to a model read from files: its bytes to `vision` and `total`,
// its parameters to the vision and audio parts. Throws Error naming the file when it is not a
// projector (general.architecture must be "clip").
void add_projector(ModelArch& arch, const GgufModel& projector);
bool gguf_architecture_supported(const std::string& architecture);

// ---------------------------------------------------------------------------------------------
// [SECTION] safetensors
// ---------------------------------------------------------------------------------------------

// The format's own cap on the JSON header (safetensors: MAX_HEADER_SIZE = 100_000_000,
// huggingface/safetensors safetensors/src/tensor.rs).
inline constexpr std::uint64_t kSafetensorsMaxHeaderBytes = 100'000'000;
inline constexpr std::uint64_t kSafetensorsMaxTensors = 1ull << 20;
inline constexpr std::uint64_t kSafetensorsMaxDims = 16;
inline constexpr std::uint64_t kSafetensorsMaxMetadata = 4096;    // __metadata__ entries
inline constexpr std::uint64_t kSafetensorsMaxShards = 8192;      // files named by an index
inline constexpr std::uint64_t kSafetensorsMaxIndexBytes = 256ull << 20;

// One safetensors dtype: bits per element (huggingface/safetensors Dtype::bitsize).
struct SafetensorsDtype {
    const char* name;   // "BF16"
    std::uint32_t bits;
};
const std::vector<SafetensorsDtype>& safetensors_dtypes();
const SafetensorsDtype* safetensors_dtype(std::string_view name);

// How a checkpoint's weights are packed, from config.json's quantization_config (the Hugging
// Face importer's ModelArch::native_method / native_format): what the tensors' shapes cannot say
// alone. Empty: everything is read from the tensors' names, dtypes and shapes.
struct SafetensorsQuant {
    std::string method;   // quant_method: "gptq", "awq", "compressed-tensors", "mxfp4", "modelopt", "bitsandbytes", "fp8"
    int bits = 0;         // weight bits of integer formats (GPTQ / AWQ bits, compressed-tensors num_bits); 0 = unknown
};

struct SafetensorsTensor {
    std::string name;
    std::string dtype;
    std::vector<std::uint64_t> shape;
    std::uint64_t elements = 0;
    std::uint64_t begin = 0;   // data_offsets, relative to the end of the header
    std::uint64_t end = 0;
    std::uint64_t bytes = 0;   // end - begin == elements * bits / 8, checked
    // Logical parameters: `elements` for a plain tensor, the values a packed tensor holds, 0 for
    // quantization metadata (set when the model is assembled: safetensors_layouts.cpp).
    std::uint64_t params = 0;
    // How it is stored: "" (plain), "gptq", "awq", "pack-quantized" (compressed-tensors int),
    // "fp4" (NVFP4 / MXFP4 linears, two values a byte), "mxfp4-blocks" (gpt-oss experts),
    // "bnb-4bit", or "quant-metadata" (scales, zero points, group indices, absmax, quant_state).
    // A packed integer layout whose bits neither its neighbours nor config.json tell ends in
    // " (bits unknown)" and counts its stored elements.
    std::string layout;
    // The values of a small integer tensor whose data the header read could reach: only
    // compressed-tensors' `weight_shape` (the packed weight's logical shape) is read.
    std::vector<std::uint64_t> values;
    WeightClass cls = WeightClass::other;
    TensorPart model_part = TensorPart::text;   // by name (hf_tensor_part)
    int layer = -1;
    std::uint32_t file = 0;    // index into SafetensorsModel::files
};

struct SafetensorsHeader {
    std::string file;
    std::uint64_t header_bytes = 0;  // 8 + the JSON's length
    std::uint64_t data_bytes = 0;    // the byte buffer after the header (the last data_offsets end)
    std::vector<std::pair<std::string, std::string>> metadata;  // __metadata__
    std::vector<SafetensorsTensor> tensors;                      // in data order
};

// Reads one file's header: 8-byte little-endian length, then that many bytes of JSON.
SafetensorsHeader read_safetensors_header(ByteSource& src);

// model.safetensors.index.json: which shard holds each tensor.
struct SafetensorsIndex {
    std::uint64_t total_size = 0;                                 // metadata.total_size, 0 if absent
    std::vector<std::pair<std::string, std::string>> weight_map;  // tensor -> file, as listed
    std::vector<std::string> files;                               // distinct files, first-seen order
};
SafetensorsIndex parse_safetensors_index(std::string_view json_text, const std::string& file_name);

struct SafetensorsModel {
    std::vector<std::string> files;
    std::uint64_t header_bytes = 0;
    std::uint64_t index_total_size = 0;  // the index's metadata.total_size (0: no index)
    std::vector<std::pair<std::string, std::string>> metadata;  // the first file's __metadata__
    std::vector<SafetensorsTensor> tensors;
    TensorTotals totals;
};

// Reads every shard an index names (each tensor must be in the shard the index says), or the
// one file given. `quant` (config.json's quantization_config) settles what the shapes leave open
// (a GPTQ qweight without g_idx or qzeros, a compressed-tensors weight whose weight_shape data was
// not read); a shape that disagrees with it is an Error naming the tensor.
SafetensorsModel read_safetensors_model(const SafetensorsIndex& index, const SourceOpener& open, const SafetensorsQuant& quant = {});
SafetensorsModel safetensors_model_from_headers(std::vector<SafetensorsHeader> files, const SafetensorsQuant& quant = {});
// The packing config.json states (ModelArch::native_method, native_format "int4" / "int8").
SafetensorsQuant safetensors_quant_of(const ModelArch& arch);

// ---------------------------------------------------------------------------------------------
// [SECTION] Models from files, for a configuration
// ---------------------------------------------------------------------------------------------

// Reads the headers `c.gguf` or `c.hf_dir` names through `open` (the caller's I/O: files, File
// slices, HTTP ranges) and makes them the configuration's model: the per-layer architecture
// (GGUF: arch_from_gguf; hf_dir: config.json through the Hugging Face importer) with the
// file's exact bytes (ModelArch::file) and model.source "gguf" / "safetensors". A GGUF file
// with a file type the calculator names (general.file_type Q4_K_M -> q4_k_m) sets `weights`
// when it is not given. Does nothing when neither key is set; throws Error naming the key
// when both are, when a file is missing or unreadable, or when `model` is given as well.
// hf_dir reads config.json, then model.safetensors.index.json and the shards it names, or
// else model.safetensors; quantized layouts count their parameters by logical shape
// (config.json's quantization_config settles what the shapes leave open). `c.mmproj` (with gguf
// only) adds a projector file's encoders as the model's vision / audio parts.
void load_model_files(Config& c, const SourceOpener& open);
// The whole content of a small text file through a source (config.json, an index), at most
// `cap` bytes; throws Error naming the file when it is larger or cannot be read.
std::string read_source_text(ByteSource& src, std::uint64_t cap);

}  // namespace gpusizer
