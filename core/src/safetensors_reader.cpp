// safetensors_reader.cpp: safetensors headers and sharded checkpoints' indexes.
//
// [SECTION] Reading the header bytes (bounded)
// [SECTION] The header's JSON, through a SAX handler that never builds a document
// [SECTION] Offsets, sizes and the whole model
//
// Format (huggingface/safetensors, README "Format" and safetensors/src/tensor.rs): an 8-byte
// little-endian header length N, N bytes of JSON {"name": {"dtype", "shape", "data_offsets":
// [begin, end]}, "__metadata__": {str: str}}, then the byte buffer. Offsets are relative to the
// buffer; the tensors cover it without holes or overlaps, each exactly shape x dtype bits.
#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "checked_math.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"
#include "model_file_internal.hpp"

namespace gpusizer {

using detail::checked_add;
using detail::checked_mul;

namespace {

constexpr std::uint64_t kMaxMetadataValueBytes = 1u << 20;  // one __metadata__ string

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading the header bytes
// ---------------------------------------------------------------------------------------------

// Reads exactly n bytes at offset, growing the string only as bytes arrive (a header that
// claims 100 MB in a 1 KB file costs 1 KB).
std::string read_exact(ByteSource& src, std::uint64_t offset, std::uint64_t n, const std::string& key) {
    std::string out;
    constexpr std::size_t kChunk = 1 << 20;
    while (out.size() < n) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, n - out.size()));
        const std::size_t old = out.size();
        out.resize(old + want);
        const std::size_t got = src.read(offset + old, out.data() + old, want);
        out.resize(old + got);
        if (got == 0)
            throw_error(key, (src.size() ? "the file ends at byte " : "the bytes given end at byte ") +
                                 std::to_string(offset + out.size()) + ", inside the " + std::to_string(n) +
                                 (src.size() ? "-byte header (truncated)" : "-byte header: give more of the file's first bytes"));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The header's JSON
// ---------------------------------------------------------------------------------------------

using Json = nlohmann::json;

// Shared by both handlers: every event not handled below is a type error at that place.
struct SaxBase {
    std::string file;
    int depth = 0;
    std::string where() const { return file; }
    [[noreturn]] void fail(const std::string& field, const std::string& msg) const { throw_error(file + ": " + field, msg); }
    bool binary(Json::binary_t&) { fail("header", "binary values are not JSON"); }
    bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& ex) {
        fail("header", "invalid JSON near byte " + std::to_string(pos) + " (" + ex.what() + ")");
    }
};

struct HeaderSax : SaxBase {
    enum class In { top, metadata, tensor, shape, offsets, done };
    In in = In::top;
    SafetensorsHeader& out;
    std::string key;
    SafetensorsTensor cur;
    bool has_dtype = false, has_shape = false, has_offsets = false;
    std::vector<std::uint64_t> offsets;
    std::unordered_set<std::string> names;

    explicit HeaderSax(SafetensorsHeader& h) : out(h) { file = h.file; }

    std::string field() const { return in == In::metadata ? "__metadata__: " + key : cur.name.empty() ? key : cur.name + ": " + key; }

    bool start_object(std::size_t) {
        ++depth;
        if (depth == 1) return true;
        if (depth == 2) {
            if (key == "__metadata__") {
                in = In::metadata;
                return true;
            }
            if (out.tensors.size() >= kSafetensorsMaxTensors)
                fail("header", "more than " + std::to_string(kSafetensorsMaxTensors) + " tensors");
            if (!names.insert(key).second) fail(key, "duplicate tensor name");
            in = In::tensor;
            cur = SafetensorsTensor();
            cur.name = key;
            has_dtype = has_shape = has_offsets = false;
            return true;
        }
        fail(field(), "unexpected object (a tensor entry holds dtype, shape and data_offsets)");
    }
    bool end_object() {
        --depth;
        if (depth == 0) {
            in = In::done;
            return true;
        }
        if (in == In::tensor) {
            if (!has_dtype) fail(cur.name + ": dtype", "missing");
            if (!has_shape) fail(cur.name + ": shape", "missing");
            if (!has_offsets) fail(cur.name + ": data_offsets", "missing");
            out.tensors.push_back(std::move(cur));
            cur = SafetensorsTensor();
        }
        in = In::top;
        return true;
    }
    bool key_event(std::string& k) {
        key = k;
        if (in == In::metadata && out.metadata.size() >= kSafetensorsMaxMetadata)
            fail("__metadata__", "more than " + std::to_string(kSafetensorsMaxMetadata) + " entries");
        return true;
    }
    bool start_array(std::size_t) {
        ++depth;
        if (in == In::tensor && key == "shape") {
            if (has_shape) fail(field(), "given twice");
            in = In::shape;
            return true;
        }
        if (in == In::tensor && key == "data_offsets") {
            if (has_offsets) fail(field(), "given twice");
            in = In::offsets;
            offsets.clear();
            return true;
        }
        fail(depth <= 2 ? key : field(), "unexpected array");
    }
    bool end_array() {
        --depth;
        if (in == In::shape) {
            has_shape = true;
        } else if (in == In::offsets) {
            if (offsets.size() != 2) fail(cur.name + ": data_offsets", "must hold two numbers [begin, end]");
            cur.begin = offsets[0];
            cur.end = offsets[1];
            has_offsets = true;
        }
        in = In::tensor;
        return true;
    }
    bool number_unsigned(std::uint64_t v) {
        if (in == In::shape) {
            if (cur.shape.size() >= kSafetensorsMaxDims)
                fail(cur.name + ": shape", "more than " + std::to_string(kSafetensorsMaxDims) + " dimensions");
            cur.shape.push_back(v);
            return true;
        }
        if (in == In::offsets) {
            if (offsets.size() >= 2) fail(cur.name + ": data_offsets", "must hold two numbers [begin, end]");
            offsets.push_back(v);
            return true;
        }
        return scalar("a number");
    }
    bool number_integer(std::int64_t v) {
        if (v >= 0) return number_unsigned(static_cast<std::uint64_t>(v));
        if (in == In::shape || in == In::offsets) fail(field(), "negative number " + std::to_string(v));
        return scalar("a number");
    }
    bool number_float(double, const std::string&) {
        if (in == In::shape || in == In::offsets) fail(field(), "must hold whole numbers");
        return scalar("a number");
    }
    bool string(std::string& s) {
        if (in == In::metadata) {
            if (s.size() > kMaxMetadataValueBytes) fail(field(), "value longer than 1 MiB");
            out.metadata.emplace_back(key, s);
            return true;
        }
        if (in == In::tensor && key == "dtype") {
            if (has_dtype) fail(field(), "given twice");
            const SafetensorsDtype* d = safetensors_dtype(s);
            if (!d) {
                std::string allowed;
                for (const auto& x : safetensors_dtypes()) allowed += (allowed.empty() ? "" : ", ") + std::string(x.name);
                fail(field(), "unknown dtype \"" + s.substr(0, 32) + "\" (allowed: " + allowed + ")");
            }
            cur.dtype = d->name;
            has_dtype = true;
            return true;
        }
        return scalar("a string");
    }
    bool boolean(bool) { return scalar("a boolean"); }
    bool null() { return scalar("null"); }

    bool scalar(const char* what) {
        if (depth == 0) fail("header", "must be a JSON object");
        if (in == In::metadata) fail(field(), std::string("__metadata__ values must be strings, got ") + what);
        if (in == In::tensor) fail(field(), std::string("unexpected ") + what + " (allowed keys: dtype, shape, data_offsets)");
        if (in == In::shape || in == In::offsets) fail(field(), std::string("must hold whole numbers, got ") + what);
        fail(key, std::string("must be an object with dtype, shape and data_offsets, got ") + what);
    }
};


struct IndexSax : SaxBase {
    SafetensorsIndex& out;
    std::string section;  // "metadata", "weight_map" or another top-level key
    std::string key;
    std::unordered_set<std::string> tensors;
    std::unordered_map<std::string, std::size_t> files;

    IndexSax(SafetensorsIndex& i, std::string f) : out(i) { file = std::move(f); }

    bool start_object(std::size_t) {
        if (++depth > 2) fail(section + ": " + key, "unexpected nested object");
        if (depth == 2) section = key;
        return true;
    }
    bool end_object() {
        --depth;
        return true;
    }
    bool key_fn(std::string& k) {
        key = k;
        return true;
    }
    bool start_array(std::size_t) {
        // Arrays appear nowhere in an index that matters here; allow them one level deep in
        // metadata only by skipping their scalars.
        if (++depth == 1) fail("index", "must be a JSON object");
        if (depth > 3 || section != "metadata") fail(section.empty() ? key : section + ": " + key, "unexpected array");
        return true;
    }
    bool end_array() {
        --depth;
        return true;
    }
    void value(const char* what, std::uint64_t number, bool is_number) {
        if (depth == 0) fail("index", "must be a JSON object");
        if (depth == 1) {
            if (key == "weight_map" || key == "metadata") fail(key, std::string("must be an object, got ") + what);
            return;  // other top-level scalars: ignored
        }
        if (section == "weight_map") fail("weight_map: " + key, std::string("must name a file, got ") + what);
        if (section == "metadata" && key == "total_size" && depth == 2) {
            if (!is_number) fail("metadata: total_size", std::string("must be a number of bytes, got ") + what);
            out.total_size = number;
        }
    }
    bool null() { value("null", 0, false); return true; }
    bool boolean(bool) { value("a boolean", 0, false); return true; }
    bool number_integer(std::int64_t v) {
        if (v < 0 && section == "metadata" && key == "total_size") fail("metadata: total_size", "negative");
        value("a number", static_cast<std::uint64_t>(v < 0 ? 0 : v), true);
        return true;
    }
    bool number_unsigned(std::uint64_t v) { value("a number", v, true); return true; }
    bool number_float(double v, const std::string&) {
        // Some writers emit total_size as a float (e.g. 1.4e10).
        value("a number", v >= 0 && v < 1.8e19 ? static_cast<std::uint64_t>(v) : 0, true);
        return true;
    }
    bool string(std::string& s) {
        if (depth == 2 && section == "weight_map") {
            if (out.weight_map.size() >= kSafetensorsMaxTensors)
                fail("weight_map", "more than " + std::to_string(kSafetensorsMaxTensors) + " tensors");
            if (s.empty() || s.size() > 4096 || s.find('/') != std::string::npos || s.find('\\') != std::string::npos || s == "..")
                fail("weight_map: " + key, "must name a file in the same folder, got \"" + s.substr(0, 64) + "\"");
            if (!tensors.insert(key).second) fail("weight_map: " + key, "listed twice");
            if (files.emplace(s, out.files.size()).second) {
                if (out.files.size() >= kSafetensorsMaxShards)
                    fail("weight_map", "more than " + std::to_string(kSafetensorsMaxShards) + " files");
                out.files.push_back(s);
            }
            out.weight_map.emplace_back(key, s);
            return true;
        }
        value("a string", 0, false);
        return true;
    }
};

// nlohmann's SAX interface calls key(); HeaderSax has a member named `key` (the last key), so
// each handler names its key event.
template <class Sax, bool (Sax::*on_key)(std::string&)>
struct SaxAdapter {
    Sax& h;
    bool null() { return h.null(); }
    bool boolean(bool v) { return h.boolean(v); }
    bool number_integer(std::int64_t v) { return h.number_integer(v); }
    bool number_unsigned(std::uint64_t v) { return h.number_unsigned(v); }
    bool number_float(double v, const std::string& s) { return h.number_float(v, s); }
    bool string(std::string& s) { return h.string(s); }
    bool binary(Json::binary_t& b) { return h.binary(b); }
    bool start_object(std::size_t n) { return h.start_object(n); }
    bool key(std::string& k) { return (h.*on_key)(k); }
    bool end_object() { return h.end_object(); }
    bool start_array(std::size_t n) { return h.start_array(n); }
    bool end_array() { return h.end_array(); }
    bool parse_error(std::size_t p, const std::string& t, const nlohmann::detail::exception& e) { return h.parse_error(p, t, e); }
};
using HeaderSaxAdapter = SaxAdapter<HeaderSax, &HeaderSax::key_event>;
using IndexSaxAdapter = SaxAdapter<IndexSax, &IndexSax::key_fn>;

// compressed-tensors stores a packed weight's logical shape as the data of `<name>.weight_shape`
// (pack_quantized.py compress_weight: torch.tensor(weight.shape), int64; compression_param_info
// declares int32): a few bytes each, read when the source holds them (a file; not a header
// prefix, whose reads past the header return nothing). Values that are not a plausible shape
// are left unread: the packing is then counted from the bits alone.
void read_shape_values(ByteSource& src, SafetensorsHeader& h) {
    constexpr std::string_view kSuffix = ".weight_shape";
    for (SafetensorsTensor& t : h.tensors) {
        if (t.name.size() <= kSuffix.size() || t.name.compare(t.name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) continue;
        const std::size_t width = t.dtype == "I64" ? 8 : t.dtype == "I32" ? 4 : 0;
        if (width == 0 || t.shape.size() != 1 || t.shape[0] == 0 || t.shape[0] > 4) continue;
        unsigned char b[32];
        const std::size_t n = static_cast<std::size_t>(t.shape[0]) * width;
        if (t.begin > ~std::uint64_t(0) - h.header_bytes || src.read(h.header_bytes + t.begin, b, n) != n) continue;
        std::vector<std::uint64_t> v;
        for (std::size_t k = 0; k < t.shape[0]; ++k) {
            std::uint64_t x = 0;
            for (std::size_t i = 0; i < width; ++i) x |= static_cast<std::uint64_t>(b[k * width + i]) << (8 * i);
            const bool negative = width == 8 ? (x >> 63) != 0 : (x >> 31) != 0;
            if (negative || x == 0 || x > (1ull << 40)) {
                v.clear();
                break;
            }
            v.push_back(x);
        }
        t.values = std::move(v);
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Offsets, sizes and the whole model
// ---------------------------------------------------------------------------------------------

SafetensorsHeader read_safetensors_header(ByteSource& src) {
    SafetensorsHeader h;
    h.file = src.name();
    const std::string len_bytes = read_exact(src, 0, 8, h.file + ": header length");
    std::uint64_t n = 0;
    for (int k = 0; k < 8; ++k) n |= static_cast<std::uint64_t>(static_cast<unsigned char>(len_bytes[k])) << (8 * k);
    if (n < 2) throw_error(h.file + ": header length", "is " + std::to_string(n) + " (not a safetensors file)");
    if (n > kSafetensorsMaxHeaderBytes)
        throw_error(h.file + ": header length", std::to_string(n) + " bytes is more than the format's limit of " +
                                                    std::to_string(kSafetensorsMaxHeaderBytes) + " (not a safetensors file?)");
    if (auto size = src.size(); size && n > *size - std::min<std::uint64_t>(*size, 8))
        throw_error(h.file + ": header length",
                    std::to_string(n) + " bytes, but the file has " + std::to_string(*size) + " (truncated, or not a safetensors file)");
    const std::string json = read_exact(src, 8, n, h.file + ": header");
    if (json[0] != '{') throw_error(h.file + ": header", "does not start with '{' (not a safetensors file)");
    h.header_bytes = 8 + n;

    HeaderSax sax(h);
    HeaderSaxAdapter adapter{sax};
    // From a string_view, as every JSON text in the core is parsed (json_read.cpp, and the index
    // below): one instantiation of nlohmann's lexer in the browser build, not a second for std::string.
    Json::sax_parse(std::string_view(json), &adapter, nlohmann::detail::input_format_t::json, true);

    // Sizes: elements x bits / 8, exactly; then the offsets must tile the buffer.
    for (auto& t : h.tensors) {
        const std::string key = h.file + ": " + t.name;
        t.elements = 1;
        for (std::uint64_t d : t.shape) t.elements = checked_mul(t.elements, d, key + ": shape");
        const SafetensorsDtype* d = safetensors_dtype(t.dtype);
        const std::uint64_t bits = checked_mul(t.elements, d->bits, key + ": shape");
        if (bits % 8 != 0)
            throw_error(key + ": shape", std::to_string(t.elements) + " elements of " + t.dtype + " are not a whole number of bytes");
        t.bytes = bits / 8;
        if (t.end < t.begin) throw_error(key + ": data_offsets", "end before begin");
        if (t.end - t.begin != t.bytes)
            throw_error(key + ": data_offsets",
                        "span " + std::to_string(t.end - t.begin) + " bytes, but shape x dtype is " + std::to_string(t.bytes));
        t.cls = classify_hf_tensor(t.name);
        t.model_part = hf_tensor_part(t.name);
        t.layer = hf_tensor_layer(t.name);
    }
    std::sort(h.tensors.begin(), h.tensors.end(), [](const auto& a, const auto& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::uint64_t expected = 0;
    for (const auto& t : h.tensors) {
        if (t.begin != expected)
            throw_error(h.file + ": " + t.name + ": data_offsets",
                        t.begin < expected ? "overlaps the tensor before it" : "leaves a hole before it (the buffer must be covered)");
        expected = t.end;
    }
    h.data_bytes = expected;
    if (auto size = src.size()) {
        const std::uint64_t end = checked_add(h.header_bytes, h.data_bytes, h.file + ": data_offsets");
        if (end > *size)
            throw_error(h.file + ": data_offsets", "tensors end at byte " + std::to_string(end) + " but the file has " +
                                                       std::to_string(*size) + " bytes (truncated file?)");
    }
    read_shape_values(src, h);
    return h;
}

SafetensorsIndex parse_safetensors_index(std::string_view json_text, const std::string& file_name) {
    if (json_text.size() > kSafetensorsMaxIndexBytes)
        throw_error(file_name, "index larger than " + std::to_string(kSafetensorsMaxIndexBytes >> 20) + " MiB");
    SafetensorsIndex idx;
    IndexSax sax(idx, file_name);
    IndexSaxAdapter adapter{sax};
    Json::sax_parse(json_text, &adapter, nlohmann::detail::input_format_t::json, true);
    if (idx.weight_map.empty()) throw_error(file_name + ": weight_map", "missing or empty");
    return idx;
}

SafetensorsModel safetensors_model_from_headers(std::vector<SafetensorsHeader> files, const SafetensorsQuant& quant) {
    SafetensorsModel m;
    if (!files.empty()) m.metadata = files.front().metadata;
    for (std::uint32_t k = 0; k < files.size(); ++k) detail::add_file(m, files[k], k, &SafetensorsTensor::file);
    // Packed tensors and their scales may sit in different shards: the layouts are read over the
    // whole model's tensor list.
    detail::set_logical_params(m.tensors, m.files, quant);
    for (const SafetensorsTensor& t : m.tensors)
        detail::add_to_totals(m.totals, {t.dtype, t.cls, t.model_part, t.layer, t.elements, t.params, t.bytes});
    detail::finish_totals(m.totals);
    return m;
}

SafetensorsQuant safetensors_quant_of(const ModelArch& a) {
    SafetensorsQuant q;
    q.method = a.native_method;
    if (a.native_format == "int4")
        q.bits = 4;
    else if (a.native_format == "int8")
        q.bits = 8;
    return q;
}

SafetensorsModel read_safetensors_model(const SafetensorsIndex& index, const SourceOpener& open, const SafetensorsQuant& quant) {
    std::vector<SafetensorsHeader> headers;
    headers.reserve(index.files.size());
    std::unordered_map<std::string, std::unordered_set<std::string>> in_file;
    for (const std::string& f : index.files) {
        std::unique_ptr<ByteSource> src = open(f);
        if (!src) throw_error(f, "shard named by the index is missing");
        SafetensorsHeader h = read_safetensors_header(*src);
        auto& names = in_file[f];
        for (const auto& t : h.tensors) names.insert(t.name);
        headers.push_back(std::move(h));
    }
    for (const auto& [tensor, f] : index.weight_map)
        if (!in_file[f].count(tensor))
            throw_error(f + ": " + tensor, "the index places this tensor here, the file's header does not list it");
    SafetensorsModel m = safetensors_model_from_headers(std::move(headers), quant);
    m.index_total_size = index.total_size;
    return m;
}

}  // namespace gpusizer
