// gguf_reader.cpp: GGUF headers (versions 2 and 3, little-endian), read from a ByteSource.
//
// [SECTION] Cursor: bounded, buffered reads that name the field on failure
// [SECTION] Metadata values
// [SECTION] One file's header
// [SECTION] Architecture hyperparameters
// [SECTION] Split files and the whole model
//
// Layout (ggml/docs/gguf.md and ggml/src/gguf.cpp, ggml-org/llama.cpp): magic "GGUF", u32
// version, u64 tensor count, u64 metadata count (v2 and v3; v1 used u32 counts), metadata
// (string key, u32 type, value), tensor infos (string name, u32 n_dims, u64 ne[n_dims], u32
// ggml type, u64 offset from the data section), then padding to general.alignment (default 32)
// and the tensor data. Strings are u64 length + bytes, not NUL-terminated.
#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "checked_math.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"
#include "model_file_internal.hpp"

namespace gpusizer {

using detail::checked_add;
using detail::checked_align;
using detail::checked_mul;

// ---------------------------------------------------------------------------------------------
// [SECTION] Cursor
// ---------------------------------------------------------------------------------------------

namespace {

constexpr std::size_t kChunk = 64 * 1024;  // bytes asked of the source at a time

class Cursor {
public:
    Cursor(ByteSource& src, std::string file) : src_(src), file_(std::move(file)) { buf_.resize(kChunk); }

    std::uint64_t pos() const { return pos_; }
    const std::string& file() const { return file_; }
    // What is being read ("tensor 7 (blk.0.attn_q.weight)", a metadata key): errors name it
    // before the field. Field names are only assembled into a key when an error is thrown.
    std::string context;
    std::string key(std::string_view field) const {
        std::string k = file_ + ": " + context;
        if (!context.empty() && !field.empty()) k += ": ";
        k += field;
        return k;
    }

    // Copies n bytes at the cursor into dst and advances (dst may be null: skip).
    void read_into(void* dst, std::uint64_t n, std::string_view field) {
        if (n > kGgufMaxHeaderBytes || pos_ + n > kGgufMaxHeaderBytes)
            throw_error(key(field), "header is larger than the " + std::to_string(kGgufMaxHeaderBytes >> 20) +
                                        " MiB this reader accepts (a corrupt length?)");
        auto* out = static_cast<std::uint8_t*>(dst);
        while (n > 0) {
            if (pos_ < buf_start_ || pos_ >= buf_start_ + buf_len_) refill(field);
            const std::uint64_t in_buf = buf_start_ + buf_len_ - pos_;
            const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, in_buf));
            if (out) {
                std::memcpy(out, buf_.data() + (pos_ - buf_start_), k);
                out += k;
            }
            pos_ += k;
            n -= k;
        }
    }

    template <typename T>
    T read(std::string_view field) {
        unsigned char b[sizeof(T)];
        read_into(b, sizeof(T), field);
        // Little-endian on every host: assemble byte by byte.
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<std::uint64_t>(b[i]) << (8 * i);
        T out;
        if constexpr (sizeof(T) == 8) {
            std::memcpy(&out, &v, 8);
        } else if constexpr (sizeof(T) == 4) {
            const std::uint32_t w = static_cast<std::uint32_t>(v);
            std::memcpy(&out, &w, 4);
        } else if constexpr (sizeof(T) == 2) {
            const std::uint16_t w = static_cast<std::uint16_t>(v);
            std::memcpy(&out, &w, 2);
        } else {
            const std::uint8_t w = static_cast<std::uint8_t>(v);
            std::memcpy(&out, &w, 1);
        }
        return out;
    }

    // A GGUF string: u64 length, then bytes. Lengths above `cap` are an error; strings longer
    // than `keep_cap` are skipped (nullopt).
    std::optional<std::string> read_string(std::string_view field, std::uint64_t cap, std::uint64_t keep_cap) {
        const std::uint64_t len = read<std::uint64_t>(field);
        if (len > cap)
            throw_error(key(field),
                        "string of " + std::to_string(len) + " bytes is longer than the " + std::to_string(cap) + " this reader accepts");
        if (len > keep_cap) {
            read_into(nullptr, len, field);
            return std::nullopt;
        }
        std::string s(static_cast<std::size_t>(len), '\0');
        read_into(s.data(), len, field);
        return s;
    }

private:
    void refill(std::string_view field) {
        buf_start_ = pos_;
        buf_len_ = src_.read(pos_, buf_.data(), buf_.size());
        if (buf_len_ == 0)
            throw_error(key(field), src_.size() ? "the file ends at byte " + std::to_string(pos_) + " (truncated header)"
                                                : "the bytes given end at byte " + std::to_string(pos_) +
                                                      ", inside the header: give more of the file's first bytes");
    }

    ByteSource& src_;
    std::string file_;
    std::vector<std::uint8_t> buf_;
    std::uint64_t buf_start_ = 0;
    std::size_t buf_len_ = 0;
    std::uint64_t pos_ = 0;
};

std::string hex_bytes(const unsigned char* b, std::size_t n) {
    std::string s;
    char tmp[4];
    for (std::size_t i = 0; i < n; ++i) {
        std::snprintf(tmp, sizeof tmp, "%02x", b[i]);
        s += tmp;
    }
    return s;
}

// Bytes of a tensor, or nullopt when a row is not a whole number of blocks or the size
// overflows (ggml_tensor_bytes then says which, with the field's name).
std::optional<std::uint64_t> tensor_bytes(const GgmlTypeTraits& t, std::uint64_t row, std::uint64_t elements) {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    if (row % t.block_size != 0) return std::nullopt;
    if (row == 0) return 0;
    const std::uint64_t blocks = row / t.block_size;
    if (blocks > kMax / t.type_size) return std::nullopt;
    const std::uint64_t row_bytes = blocks * t.type_size;
    const std::uint64_t rows = elements / row;
    if (rows != 0 && row_bytes > kMax / rows) return std::nullopt;
    return row_bytes * rows;
}

std::size_t fixed_size(GgufType t) {
    switch (t) {
        case GgufType::u8: case GgufType::i8: case GgufType::boolean: return 1;
        case GgufType::u16: case GgufType::i16: return 2;
        case GgufType::u32: case GgufType::i32: case GgufType::f32: return 4;
        case GgufType::u64: case GgufType::i64: case GgufType::f64: return 8;
        default: return 0;
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Metadata values
// ---------------------------------------------------------------------------------------------

const char* to_string(GgufType t) {
    switch (t) {
        case GgufType::u8: return "u8";
        case GgufType::i8: return "i8";
        case GgufType::u16: return "u16";
        case GgufType::i16: return "i16";
        case GgufType::u32: return "u32";
        case GgufType::i32: return "i32";
        case GgufType::f32: return "f32";
        case GgufType::boolean: return "bool";
        case GgufType::string: return "str";
        case GgufType::array: return "arr";
        case GgufType::u64: return "u64";
        case GgufType::i64: return "i64";
        case GgufType::f64: return "f64";
    }
    return "?";
}

bool GgufValue::is_integer() const {
    switch (type) {
        case GgufType::u8: case GgufType::i8: case GgufType::u16: case GgufType::i16: case GgufType::u32:
        case GgufType::i32: case GgufType::u64: case GgufType::i64: return true;
        default: return false;
    }
}

std::string GgufValue::display(std::size_t max_chars) const {
    std::string out;
    switch (type) {
        case GgufType::string:
            out = skipped ? "(long string, not kept)" : "\"" + s + "\"";
            break;
        case GgufType::array: {
            out = "[" + std::to_string(count) + " x " + to_string(item_type) + "]";
            if (!items.empty() && item_type != GgufType::array && count <= 64) {
                out += " ";
                for (std::size_t k = 0; k < items.size() && out.size() < max_chars; ++k)
                    out += (k ? "," : "") + items[k].display(max_chars);
            }
            break;
        }
        case GgufType::boolean: out = u ? "true" : "false"; break;
        case GgufType::f32:
        case GgufType::f64: {
            char b[32];
            std::snprintf(b, sizeof b, "%g", f);
            out = b;
            break;
        }
        default: out = negative ? std::to_string(i) : std::to_string(u); break;
    }
    if (out.size() > max_chars) out = out.substr(0, max_chars > 3 ? max_chars - 3 : 0) + "...";
    return out;
}

namespace {

struct ValueReader {
    Cursor& cur;
    std::uint64_t kept_total = 0;  // bytes of strings kept so far in this file

    GgufType read_type(std::string_view field) {
        const std::uint32_t t = cur.read<std::uint32_t>(field);
        if (t > static_cast<std::uint32_t>(GgufType::f64))
            throw_error(cur.key(field), "unknown value type " + std::to_string(t) + " (allowed: 0..12, gguf_type)");
        return static_cast<GgufType>(t);
    }

    void read_scalar(GgufValue& v, std::string_view field) {
        switch (v.type) {
            case GgufType::u8: v.u = cur.read<std::uint8_t>(field); break;
            case GgufType::boolean: v.u = cur.read<std::uint8_t>(field) != 0; break;
            case GgufType::u16: v.u = cur.read<std::uint16_t>(field); break;
            case GgufType::u32: v.u = cur.read<std::uint32_t>(field); break;
            case GgufType::u64: v.u = cur.read<std::uint64_t>(field); break;
            case GgufType::i8: v.i = cur.read<std::int8_t>(field); break;
            case GgufType::i16: v.i = cur.read<std::int16_t>(field); break;
            case GgufType::i32: v.i = cur.read<std::int32_t>(field); break;
            case GgufType::i64: v.i = cur.read<std::int64_t>(field); break;
            case GgufType::f32: v.f = cur.read<float>(field); break;
            case GgufType::f64: v.f = cur.read<double>(field); break;
            default: break;
        }
        switch (v.type) {
            case GgufType::u8: case GgufType::boolean: case GgufType::u16: case GgufType::u32: case GgufType::u64:
                v.i = v.u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ? 0 : static_cast<std::int64_t>(v.u);
                v.f = static_cast<double>(v.u);
                break;
            case GgufType::i8: case GgufType::i16: case GgufType::i32: case GgufType::i64:
                v.negative = v.i < 0;
                v.u = v.negative ? 0 : static_cast<std::uint64_t>(v.i);
                v.f = static_cast<double>(v.i);
                break;
            default: break;
        }
    }

    // Reads a value of type `t`. keep = false: checks and skips it.
    void read_value(GgufValue& v, GgufType t, int depth, std::string_view field, bool keep) {
        v.type = t;
        if (t == GgufType::string) {
            const std::uint64_t budget = kGgufMaxKeptTotalBytes - kept_total;
            auto s = cur.read_string(field, kGgufMaxStringBytes, keep ? std::min(kGgufMaxKeptStringBytes, budget) : 0);
            if (s) {
                kept_total += s->size();
                v.s = std::move(*s);
            } else {
                v.skipped = true;
            }
            return;
        }
        if (t != GgufType::array) {
            read_scalar(v, field);
            return;
        }
        v.item_type = read_type("array item type");
        v.count = cur.read<std::uint64_t>("array length");
        if (v.count > kGgufMaxArrayLength)
            throw_error(cur.key(field), "array of " + std::to_string(v.count) + " items is longer than the " +
                                            std::to_string(kGgufMaxArrayLength) + " this reader accepts");
        if (v.item_type == GgufType::array && depth + 1 >= kGgufMaxArrayNesting)
            throw_error(cur.key(field), "arrays nested deeper than " + std::to_string(kGgufMaxArrayNesting));
        const std::uint64_t kept = keep ? std::min(v.count, kGgufMaxKeptArrayItems) : 0;
        v.items.resize(static_cast<std::size_t>(kept));
        for (std::uint64_t k = 0; k < kept; ++k) read_value(v.items[static_cast<std::size_t>(k)], v.item_type, depth + 1, field, true);
        const std::uint64_t rest = v.count - kept;
        if (rest == 0) return;
        v.skipped = true;
        if (const std::size_t sz = fixed_size(v.item_type)) {
            cur.read_into(nullptr, checked_mul(rest, sz, cur.key(field)), field);
        } else {
            GgufValue scratch;
            for (std::uint64_t k = 0; k < rest; ++k) {
                scratch = GgufValue();
                read_value(scratch, v.item_type, depth + 1, field, false);
            }
        }
    }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] One file's header
// ---------------------------------------------------------------------------------------------

const GgufValue* GgufHeader::find(std::string_view key) const {
    for (const auto& kv : metadata)
        if (kv.key == key) return &kv.value;
    return nullptr;
}

GgufHeader read_gguf_header(ByteSource& src) {
    GgufHeader h;
    h.file = src.name();
    Cursor cur(src, h.file);

    unsigned char magic[4];
    cur.read_into(magic, 4, "magic");
    if (std::memcmp(magic, "GGUF", 4) != 0)
        throw_error(cur.key("magic"), "not a GGUF file (first bytes " + hex_bytes(magic, 4) + ", expected 47475546 \"GGUF\")");
    h.version = cur.read<std::uint32_t>("version");
    if (h.version == 1) throw_error(cur.key("version"), "GGUF version 1 (2023, 32-bit counts) is not supported: convert the file again");
    if ((h.version & 0xffff) == 0 && h.version != 0) throw_error(cur.key("version"), "big-endian GGUF files are not supported");
    if (h.version != 2 && h.version != 3)
        throw_error(cur.key("version"), "version " + std::to_string(h.version) + " is not supported (allowed: 2, 3)");

    const std::uint64_t n_tensors = cur.read<std::uint64_t>("tensor_count");
    if (n_tensors > kGgufMaxTensors)
        throw_error(cur.key("tensor_count"),
                    std::to_string(n_tensors) + " tensors is more than the " + std::to_string(kGgufMaxTensors) + " this reader accepts");
    const std::uint64_t n_kv = cur.read<std::uint64_t>("metadata_kv_count");
    if (n_kv > kGgufMaxKeyValues)
        throw_error(cur.key("metadata_kv_count"), std::to_string(n_kv) + " metadata entries is more than the " +
                                                      std::to_string(kGgufMaxKeyValues) + " this reader accepts");

    ValueReader values{cur};
    std::unordered_set<std::string> seen;
    h.metadata.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n_kv, 256)));
    for (std::uint64_t k = 0; k < n_kv; ++k) {
        cur.context = "metadata entry " + std::to_string(k);
        auto key = cur.read_string("key", kGgufMaxKeyBytes, kGgufMaxKeyBytes);
        if (!key || key->empty()) throw_error(cur.key(""), "empty key");
        cur.context = *key;
        if (!seen.insert(*key).second) throw_error(cur.key(""), "duplicate metadata key");
        GgufKeyValue kv;
        kv.key = std::move(*key);
        const GgufType t = values.read_type("type");
        values.read_value(kv.value, t, 0, "", true);
        h.metadata.push_back(std::move(kv));
    }
    cur.context.clear();

    if (const GgufValue* a = h.find("general.alignment")) {
        // gguf.cpp: general.alignment must be a u32, a non-zero power of two.
        if (a->type != GgufType::u32 || a->u == 0 || (a->u & (a->u - 1)) != 0)
            throw_error(cur.key("general.alignment"), "must be a u32 power of two, got " + a->display());
        h.alignment = a->u;
    }
    auto split_field = [&](const char* key) -> std::uint32_t {
        const GgufValue* v = h.find(key);
        if (!v) return 0;
        if (!v->is_integer() || v->negative || v->u > kGgufMaxSplitParts)
            throw_error(cur.key(key), "must be an integer from 0 to " + std::to_string(kGgufMaxSplitParts) + ", got " + v->display());
        return static_cast<std::uint32_t>(v->u);
    };
    h.split_no = split_field("split.no");
    h.split_count = split_field("split.count");

    std::unordered_set<std::string> names;
    h.tensors.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n_tensors, 4096)));
    static const char* const kDimField[4] = {"ne[0]", "ne[1]", "ne[2]", "ne[3]"};
    for (std::uint64_t k = 0; k < n_tensors; ++k) {
        GgufTensor t;
        cur.context = "tensor " + std::to_string(k);
        auto name = cur.read_string("name", kGgufMaxNameBytes, kGgufMaxNameBytes);
        if (!name || name->empty()) throw_error(cur.key("name"), "empty tensor name");
        t.name = std::move(*name);
        cur.context += " (";
        cur.context += t.name;
        cur.context += ")";
        if (!names.insert(t.name).second) throw_error(cur.key(""), "duplicate tensor name");
        t.n_dims = cur.read<std::uint32_t>("n_dims");
        if (t.n_dims == 0 || t.n_dims > kGgufMaxDims)
            throw_error(cur.key("n_dims"), std::to_string(t.n_dims) + " dimensions (allowed: 1 to 4)");
        t.elements = 1;
        for (std::uint32_t d = 0; d < t.n_dims; ++d) {
            t.dims[d] = cur.read<std::uint64_t>(kDimField[d]);
            if (t.dims[d] > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                throw_error(cur.key(kDimField[d]), "dimension above INT64_MAX");
            if (t.elements != 0 && t.dims[d] > std::numeric_limits<std::uint64_t>::max() / t.elements)
                throw_error(cur.key("shape"), "element count overflows 64 bits");
            t.elements *= t.dims[d];
        }
        for (std::uint32_t d = t.n_dims; d < 4; ++d) t.dims[d] = 1;
        t.type = cur.read<std::uint32_t>("type");
        const GgmlTypeTraits* traits = ggml_type_traits(t.type);
        if (!traits)
            throw_error(cur.key("type"), "unknown ggml type " + std::to_string(t.type) + " (this reader knows ids 0 to " +
                                             std::to_string(ggml_types().back().id) +
                                             " but the removed 4, 5, 31-33 and 36-38: a newer ggml, or a fork's own type)");
        t.type_name = traits->name;
        if (auto bytes = tensor_bytes(*traits, t.dims[0], t.elements))
            t.bytes = *bytes;
        else
            t.bytes = ggml_tensor_bytes(*traits, t.dims[0], t.elements, cur.key("shape"));  // throws, naming the field
        t.offset = cur.read<std::uint64_t>("offset");
        if (t.offset % h.alignment != 0)
            throw_error(cur.key("offset"),
                        "offset " + std::to_string(t.offset) + " is not a multiple of the alignment " + std::to_string(h.alignment));
        if (t.bytes > std::numeric_limits<std::uint64_t>::max() - t.offset)
            throw_error(cur.key("offset"), "offset + size overflows 64 bits");
        h.data_bytes = std::max(h.data_bytes, t.offset + t.bytes);
        t.cls = classify_gguf_tensor(t.name);
        t.model_part = gguf_tensor_part(t.name);
        t.layer = gguf_tensor_layer(t.name);
        h.tensors.push_back(std::move(t));
    }
    cur.context.clear();
    h.header_bytes = cur.pos();
    h.data_offset = checked_align(h.header_bytes, h.alignment, cur.key("tensor data offset"));

    // Tensors must not overlap (gguf.cpp lays them out back to back, each padded to the alignment).
    if (h.tensors.size() > 1) {
        std::vector<const GgufTensor*> by_offset;
        by_offset.reserve(h.tensors.size());
        for (const auto& t : h.tensors) by_offset.push_back(&t);
        std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
        for (std::size_t k = 1; k < by_offset.size(); ++k) {
            const GgufTensor& a = *by_offset[k - 1];
            const GgufTensor& b = *by_offset[k];
            if (a.offset + a.bytes > b.offset)
                throw_error(cur.key("tensor " + b.name + ": offset"), "its data overlaps tensor " + a.name + "'s");
        }
    }
    if (auto size = src.size()) {
        const std::uint64_t end = checked_add(h.data_offset, h.data_bytes, cur.key("tensor data"));
        if (end > *size)
            throw_error(cur.key("tensor data"), "tensors end at byte " + std::to_string(end) + " but the file has " +
                                                    std::to_string(*size) + " bytes (truncated file?)");
    }
    return h;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Architecture hyperparameters
// ---------------------------------------------------------------------------------------------

namespace {

// llama_ftype in include/llama.h (mirrored by LlamaFileType in gguf-py constants.py).
const char* file_type_name(std::uint64_t ft) {
    static const std::pair<std::uint64_t, const char*> names[] = {
        {0, "F32"}, {1, "F16"}, {2, "Q4_0"}, {3, "Q4_1"}, {7, "Q8_0"}, {8, "Q5_0"}, {9, "Q5_1"}, {10, "Q2_K"},
        {11, "Q3_K_S"}, {12, "Q3_K_M"}, {13, "Q3_K_L"}, {14, "Q4_K_S"}, {15, "Q4_K_M"}, {16, "Q5_K_S"},
        {17, "Q5_K_M"}, {18, "Q6_K"}, {19, "IQ2_XXS"}, {20, "IQ2_XS"}, {21, "Q2_K_S"}, {22, "IQ3_XS"},
        {23, "IQ3_XXS"}, {24, "IQ1_S"}, {25, "IQ4_NL"}, {26, "IQ3_S"}, {27, "IQ3_M"}, {28, "IQ2_S"},
        {29, "IQ2_M"}, {30, "IQ4_XS"}, {31, "IQ1_M"}, {32, "BF16"}, {36, "TQ1_0"}, {37, "TQ2_0"},
        {38, "MXFP4_MOE"}, {39, "NVFP4"}, {40, "Q1_0"}, {41, "Q2_0"},
    };
    for (const auto& [id, name] : names)
        if (id == ft) return name;
    return nullptr;
}

struct ArchReader {
    const GgufHeader& h;
    GgufArchInfo& out;

    const GgufValue* get(const std::string& key) {
        const GgufValue* v = h.find(key);
        if (v) out.keys_used.push_back(key + " = " + v->display(60));
        return v;
    }

    std::uint64_t as_uint(const GgufValue& v, const std::string& key) {
        if (!v.is_integer() || v.negative) throw_error(h.file + ": " + key, "must be a non-negative integer, got " + v.display());
        return v.u;
    }

    std::uint64_t scalar(const std::string& key) {
        const GgufValue* v = get(key);
        return v ? as_uint(*v, key) : 0;
    }

    // A scalar, or an array with one entry per layer.
    std::vector<std::uint64_t> per_layer(const std::string& key) {
        const GgufValue* v = get(key);
        if (!v) return {};
        if (v->type != GgufType::array) return {as_uint(*v, key)};
        if (v->item_type == GgufType::array || v->item_type == GgufType::string || v->skipped)
            throw_error(h.file + ": " + key,
                        "must be an integer or an array of at most " + std::to_string(kGgufMaxKeptArrayItems) + " integers");
        if (out.block_count != 0 && v->count != out.block_count)
            throw_error(h.file + ": " + key,
                        "has " + std::to_string(v->count) + " entries for " + std::to_string(out.block_count) + " layers (block_count)");
        std::vector<std::uint64_t> r;
        r.reserve(v->items.size());
        for (const auto& item : v->items) r.push_back(as_uint(item, key));
        return r;
    }
};

}  // namespace

GgufArchInfo gguf_arch_info(const GgufHeader& h) {
    GgufArchInfo a;
    ArchReader r{h, a};
    if (const GgufValue* v = r.get("general.architecture")) {
        if (v->type != GgufType::string || v->skipped || v->s.empty() || v->s.size() > 64)
            throw_error(h.file + ": general.architecture", "must be a short string, got " + v->display());
        a.architecture = v->s;
    }
    if (const GgufValue* v = r.get("general.name"); v && v->type == GgufType::string) a.name = v->s;
    if (const GgufValue* v = h.find("general.file_type"); v && v->is_integer() && !v->negative) {
        const char* n = file_type_name(v->u);
        a.file_type = n ? n : "file_type " + std::to_string(v->u);
        a.keys_used.push_back("general.file_type = " + std::to_string(v->u) + (n ? std::string(" (") + n + ")" : ""));
    }
    if (a.architecture.empty()) return a;
    const std::string p = a.architecture + ".";
    a.block_count = r.scalar(p + "block_count");
    if (a.block_count > 100000) throw_error(h.file + ": " + p + "block_count", "more than 100000 layers");
    a.context_length = r.scalar(p + "context_length");
    a.embedding_length = r.scalar(p + "embedding_length");
    a.vocab_size = r.scalar(p + "vocab_size");
    if (a.vocab_size == 0)
        if (const GgufValue* t = h.find("tokenizer.ggml.tokens"); t && t->type == GgufType::array) a.vocab_size = t->count;
    a.feed_forward_length = r.per_layer(p + "feed_forward_length");
    a.head_count = r.per_layer(p + "attention.head_count");
    a.head_count_kv = r.per_layer(p + "attention.head_count_kv");
    a.key_length = r.scalar(p + "attention.key_length");
    a.value_length = r.scalar(p + "attention.value_length");
    a.key_length_mla = r.scalar(p + "attention.key_length_mla");
    a.value_length_mla = r.scalar(p + "attention.value_length_mla");
    a.q_lora_rank = r.scalar(p + "attention.q_lora_rank");
    a.kv_lora_rank = r.scalar(p + "attention.kv_lora_rank");
    a.rope_dimension_count = r.scalar(p + "rope.dimension_count");
    a.sliding_window = r.scalar(p + "attention.sliding_window");
    if (const GgufValue* v = r.get(p + "attention.sliding_window_pattern")) {
        // Either a period (every n-th layer is global) or one bool per layer (true = sliding).
        if (v->type == GgufType::array) {
            GgufValue probe;
            probe.type = v->item_type;
            if (v->skipped || (v->item_type != GgufType::boolean && !probe.is_integer()))
                throw_error(h.file + ": " + p + "attention.sliding_window_pattern", "must be a number or an array of bools");
            if (a.block_count != 0 && v->count != a.block_count)
                throw_error(h.file + ": " + p + "attention.sliding_window_pattern",
                            "has " + std::to_string(v->count) + " entries for " + std::to_string(a.block_count) + " layers");
            for (const auto& item : v->items) a.sliding_window_layers.push_back(item.u != 0 ? 1 : 0);
        } else {
            a.sliding_window_period = r.as_uint(*v, p + "attention.sliding_window_pattern");
        }
    }
    a.full_attention_interval = r.scalar(p + "full_attention_interval");
    a.expert_count = r.scalar(p + "expert_count");
    a.expert_used_count = r.scalar(p + "expert_used_count");
    a.expert_shared_count = r.scalar(p + "expert_shared_count");
    a.expert_feed_forward_length = r.scalar(p + "expert_feed_forward_length");
    a.expert_shared_feed_forward_length = r.scalar(p + "expert_shared_feed_forward_length");
    a.leading_dense_block_count = r.scalar(p + "leading_dense_block_count");
    a.ssm_conv_kernel = r.scalar(p + "ssm.conv_kernel");
    a.ssm_inner_size = r.scalar(p + "ssm.inner_size");
    a.ssm_state_size = r.scalar(p + "ssm.state_size");
    a.ssm_time_step_rank = r.scalar(p + "ssm.time_step_rank");
    a.ssm_group_count = r.scalar(p + "ssm.group_count");
    return a;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Split files and the whole model
// ---------------------------------------------------------------------------------------------

bool is_gguf_projector_name(std::string_view file_name) {
    std::string lower;
    for (char ch : file_name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    constexpr std::string_view kExt = ".gguf";
    return lower.find("mmproj") != std::string::npos && lower.size() > kExt.size() &&
           lower.compare(lower.size() - kExt.size(), kExt.size(), kExt) == 0;
}

std::string find_gguf_projector(const std::vector<std::string>& files, std::vector<std::string>* others) {
    std::vector<std::string> found;
    for (const std::string& f : files)
        if (is_gguf_projector_name(detail::file_name_of(f))) found.push_back(f);
    if (found.empty()) return "";
    std::sort(found.begin(), found.end());
    if (others) others->assign(found.begin() + 1, found.end());
    return found.front();
}

std::vector<std::string> gguf_split_part_names(std::string_view path_view) {
    const std::string path(path_view);
    const std::string folder = detail::folder_of(path);
    const std::string name = detail::file_name_of(path);
    // llama.cpp's llama_split_path: "%s-%05d-of-%05d.gguf".
    constexpr std::string_view kSuffix = ".gguf";
    constexpr std::size_t kTail = 1 + 5 + 4 + 5;  // "-00001-of-00003"
    auto digits = [](std::string_view s) {
        return s.size() == 5 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (name.size() < kTail + kSuffix.size() || name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
        return {path};
    const std::string_view stem = std::string_view(name).substr(0, name.size() - kSuffix.size());
    const std::string_view tail = stem.substr(stem.size() - kTail);
    if (tail[0] != '-' || tail.substr(6, 4) != "-of-" || !digits(tail.substr(1, 5)) || !digits(tail.substr(10, 5))) return {path};
    const int no = std::stoi(std::string(tail.substr(1, 5)));
    const int count = std::stoi(std::string(tail.substr(10, 5)));
    if (no < 1 || count < 1 || no > count || count > static_cast<int>(kGgufMaxSplitParts))
        throw Error(path, "split file name says part " + std::to_string(no) + " of " + std::to_string(count) +
                              " (parts are numbered 1 to count, at most " + std::to_string(kGgufMaxSplitParts) + ")");
    const std::string prefix = folder + std::string(stem.substr(0, stem.size() - kTail));
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(count));
    char buf[32];
    for (int k = 1; k <= count; ++k) {
        std::snprintf(buf, sizeof buf, "-%05d-of-%05d.gguf", k, count);
        out.push_back(prefix + buf);
    }
    return out;
}

bool gguf_is_projector(const GgufHeader& h) {
    const GgufValue* v = h.find("general.architecture");
    return v && v->type == GgufType::string && v->s == "clip";
}

GgufProjectorInfo gguf_projector_info(const GgufHeader& h) {
    GgufProjectorInfo p;
    auto str = [&](const char* key) {
        const GgufValue* v = h.find(key);
        return v && v->type == GgufType::string ? v->s : std::string();
    };
    auto flag = [&](const char* key) {
        const GgufValue* v = h.find(key);
        return v && v->type == GgufType::boolean && v->u != 0;
    };
    auto uint = [&](const std::string& key) -> std::uint64_t {
        const GgufValue* v = h.find(key);
        if (!v) return 0;
        if (!v->is_integer() || v->negative) throw_error(h.file + ": " + key, "must be a non-negative integer, got " + v->display());
        return v->u;
    };
    p.projector_type = str("clip.projector_type");
    // Newer files with both encoders name each one's projector (clip.vision.projector_type).
    if (p.projector_type.empty()) p.projector_type = str("clip.vision.projector_type");
    p.has_vision = flag("clip.has_vision_encoder");
    p.has_audio = flag("clip.has_audio_encoder");
    for (const char* which : {"vision", "audio"}) {
        GgufEncoderInfo& e = std::string(which) == "vision" ? p.vision : p.audio;
        const std::string k = std::string("clip.") + which + ".";
        e.block_count = uint(k + "block_count");
        e.embedding_length = uint(k + "embedding_length");
        e.feed_forward_length = uint(k + "feed_forward_length");
        e.head_count = uint(k + "attention.head_count");
        e.projection_dim = uint(k + "projection_dim");
        e.image_size = uint(k + "image_size");
        e.patch_size = uint(k + "patch_size");
    }
    return p;
}

namespace {

// The text stack's depth (GgufModel::stack_layers): NextN / MTP blocks are counted in
// block_count and are its last blocks (llama.cpp's GLM-4.5 and Qwen3.5 converters add
// nextn_predict_layers to block_count; their blocks hold blk.N.nextn.* tensors).
int gguf_stack_layers(const GgufModel& m) {
    const std::uint64_t blocks = m.arch.block_count;
    if (blocks == 0 || blocks > 100000) return -1;
    std::uint64_t nextn = 0;
    for (const GgufKeyValue& kv : m.metadata)
        if (kv.key == m.arch.architecture + ".nextn_predict_layers" && kv.value.is_integer() && !kv.value.negative) nextn = kv.value.u;
    if (nextn == 0) {
        // No key: the trailing blocks that hold NextN tensors.
        std::vector<bool> has_nextn(static_cast<std::size_t>(blocks), false);
        for (const GgufTensor& t : m.tensors)
            if (t.layer >= 0 && static_cast<std::uint64_t>(t.layer) < blocks && t.name.find(".nextn.") != std::string::npos)
                has_nextn[static_cast<std::size_t>(t.layer)] = true;
        while (nextn < blocks && has_nextn[static_cast<std::size_t>(blocks - 1 - nextn)]) ++nextn;
    }
    return nextn < blocks ? static_cast<int>(blocks - nextn) : static_cast<int>(blocks);
}

}  // namespace

GgufModel gguf_model_from_headers(std::vector<GgufHeader> parts) {
    GgufModel m;
    if (parts.empty()) return m;
    m.version = parts.front().version;
    m.arch = gguf_arch_info(parts.front());
    m.metadata = parts.front().metadata;
    std::uint64_t expected_tensors = 0;
    if (const GgufValue* v = parts.front().find("split.tensors.count"); v && v->is_integer() && !v->negative) expected_tensors = v->u;
    m.projector = gguf_is_projector(parts.front());
    if (m.projector) m.projector_info = gguf_projector_info(parts.front());
    for (std::uint32_t k = 0; k < parts.size(); ++k) {
        GgufHeader& h = parts[k];
        m.data_offsets.push_back(h.data_offset);
        detail::add_file(m, h, k, &GgufTensor::part);
    }
    if (parts.size() > 1 && expected_tensors != 0 && expected_tensors != m.tensors.size())
        throw_error(parts.front().file + ": split.tensors.count",
                    "says " + std::to_string(expected_tensors) + " tensors, the parts hold " + std::to_string(m.tensors.size()));
    // GGUF shapes are logical (ggml packs within a row's blocks): parameters = elements.
    for (const GgufTensor& t : m.tensors)
        detail::add_to_totals(m.totals, {t.type_name, t.cls, t.model_part, t.layer, t.elements, t.elements, t.bytes});
    detail::finish_totals(m.totals);
    m.stack_layers = gguf_stack_layers(m);
    return m;
}

GgufModel read_gguf_model(const std::string& path, const SourceOpener& open) {
    const std::vector<std::string> names = gguf_split_part_names(path);
    std::vector<GgufHeader> parts;
    parts.reserve(names.size());
    for (std::size_t k = 0; k < names.size(); ++k) {
        std::unique_ptr<ByteSource> src = open(names[k]);
        if (!src)
            throw_error(names[k], names.size() > 1
                                      ? "split part " + std::to_string(k + 1) + " of " + std::to_string(names.size()) + " is missing"
                                      : "cannot open the file");
        GgufHeader h = read_gguf_header(*src);
        if (names.size() > 1) {
            if (h.split_count != 0 && h.split_count != names.size())
                throw_error(h.file + ": split.count",
                            "says " + std::to_string(h.split_count) + " parts, the file name " + std::to_string(names.size()));
            if (h.split_count != 0 && h.split_no != k)
                throw_error(h.file + ": split.no",
                            "says part " + std::to_string(h.split_no + 1) + ", the file name " + std::to_string(k + 1));
        } else if (h.split_count > 1) {
            throw_error(h.file + ": split.count", "the file is part " + std::to_string(h.split_no + 1) + " of " +
                                                      std::to_string(h.split_count) +
                                                      " of a split model, but its name does not end in -0000N-of-0000M.gguf, "
                                                      "so the other parts cannot be found");
        }
        parts.push_back(std::move(h));
    }
    return gguf_model_from_headers(std::move(parts));
}

}  // namespace gpusizer
