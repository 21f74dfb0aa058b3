// hub_model.cpp: a configuration's model on the Hugging Face Hub (format in hub_model.hpp).
//
// The browser fetches what sizing needs (web/site/hub.mjs): config.json, or a GGUF file's
// header read by HTTP Range requests. A GGUF header is mostly the tokenizer's vocabulary
// (4-8 MiB for 150k-260k tokens); what the model needs is its metadata and its tensor infos, so
// the header travels without the arrays longer than kGgufMaxKeptArrayItems (the vocabulary's
// tokens, scores, types and merges; their length is kept as {arch}.vocab_size) and base64
// encoded: some 65 bytes per tensor. The core reads it with the same GGUF reader as a file on
// disk (load_model_files), so the tensors' exact bytes and the per-layer model are the same.
//
// The widget's WebAssembly module reads no Hub models (its size budget): it compiles this file
// with GPUSIZER_HUB_FILES=0 (web/CMakeLists.txt), which refuses them with a message.
#include "hub_model.hpp"

#include <cctype>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/model_file.hpp"
#include "gpusizer/phrasing.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"

#ifndef GPUSIZER_HUB_FILES
#define GPUSIZER_HUB_FILES 1
#endif

namespace gpusizer {

using nlohmann::json;

#if !GPUSIZER_HUB_FILES
// The widget's module: no Hub models at all (a few hundred bytes it has no room for).
ModelSpec model_from_hub_value(const json&) {
    throw_error("model.hub", "the widget does not read Hugging Face repositories: open the link in the gpusizer app");
}
void check_hub_model_fetched(const ModelSpec&) {}
#else
namespace {

std::string shown(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 120); }

// The Hub's repository names: "org/name", each part 1 to 96 of letters, digits, '-', '_', '.',
// starting with a letter or digit (huggingface_hub's validate_repo_id: REPO_ID_REGEX).
bool valid_repo_part(const std::string& s) {
    if (s.empty() || s.size() > 96 || !std::isalnum(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
    return s.find("..") == std::string::npos;
}

bool valid_repo(const std::string& s) {
    const std::size_t slash = s.find('/');
    return slash != std::string::npos && valid_repo_part(s.substr(0, slash)) && valid_repo_part(s.substr(slash + 1));
}

// A revision (branch, tag or commit) or a file path in the repository: printable ASCII without
// spaces, no "..", at most `max` characters.
bool valid_path(const std::string& s, std::size_t max) {
    if (s.empty() || s.size() > max || s.find("..") != std::string::npos || s.front() == '/') return false;
    for (char c : s)
        if (c <= ' ' || c > '~' || c == '\\' || c == '?' || c == '#' || c == '%') return false;
    return true;
}

std::string string_field(const json& m, const char* field, std::size_t max, bool path) {
    if (!m.contains(field)) throw_error(std::string("model.") + field, "is missing");
    const json& v = m.at(field);
    if (!v.is_string()) throw_error(std::string("model.") + field, "must be a string, got " + shown(v));
    const std::string s = v.get<std::string>();
    if (path ? !valid_path(s, max) : !valid_repo(s))
        throw_error(std::string("model.") + field,
                    path ? "'" + s.substr(0, 80) + "' is not a repository path (printable, no spaces, no '..', at most " +
                               std::to_string(max) + " characters)"
                         : "'" + s.substr(0, 80) + "' is not a repository id: write it as org/name, e.g. Qwen/Qwen3-8B");
    return s;
}

// RFC 4648 base64 (the standard alphabet, '=' padding, no line breaks): what btoa() writes.
std::vector<std::uint8_t> base64_decode(const std::string& text, const std::string& key) {
    if (text.size() % 4 != 0) throw_error(key, "is not base64: its length " + std::to_string(text.size()) + " is not a multiple of 4");
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    std::vector<std::uint8_t> out;
    out.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = text[i + std::size_t(k)];
            if (c == '=' && i + 4 == text.size() && k >= 2) {
                v[k] = 0;
                ++pad;
            } else if (pad > 0 || (v[k] = value(c)) < 0) {
                throw_error(key, "is not base64: character " + std::to_string(i + std::size_t(k)) + " is not in its alphabet");
            }
        }
        const std::uint32_t n = std::uint32_t(v[0]) << 18 | std::uint32_t(v[1]) << 12 | std::uint32_t(v[2]) << 6 | std::uint32_t(v[3]);
        out.push_back(std::uint8_t(n >> 16));
        if (pad < 2) out.push_back(std::uint8_t(n >> 8));
        if (pad < 1) out.push_back(std::uint8_t(n));
    }
    return out;
}

// A header without the file it heads: its size is unknown (the tensor data is not there).
class HeaderSource : public ByteSource {
public:
    HeaderSource(std::string name, const std::vector<std::uint8_t>& bytes) : mem_(std::move(name), bytes) {}
    std::string name() const override { return mem_.name(); }
    std::optional<std::uint64_t> size() const override { return std::nullopt; }
    std::size_t read(std::uint64_t offset, void* out, std::size_t n) override { return mem_.read(offset, out, n); }

private:
    MemorySource mem_;
};

// The GGUF file's model through load_model_files, from the headers in the configuration.
void load_gguf_headers(ModelSpec& spec, const std::string& file, const json& headers) {
    const std::string key = "model.gguf_headers";
    if (!headers.is_object() || headers.empty())
        throw_error(key, "must be an object {\"<file>.gguf\": \"<base64 header>\"}, got " + shown(headers));
    if (headers.size() > kGgufMaxSplitParts) throw_error(key, "holds more than " + std::to_string(kGgufMaxSplitParts) + " files");
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> parts;
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        const std::string part_key = key + "." + it.key().substr(0, 120);
        if (!it->is_string()) throw_error(part_key, "must be base64 text, got " + shown(*it));
        // A reduced header is some 65 bytes per tensor; a whole one (vocabulary included) is
        // below 64 MiB (web/site/hub.mjs's kMaxHeaderBytes): base64 of that, at most.
        if (it->get_ref<const std::string&>().size() > (std::size_t(64) << 20) / 3 * 4 + 4)
            throw_error(part_key, "is longer than a 64 MiB header", ErrorCode::too_large);
        parts.emplace_back(it.key(), base64_decode(it->get<std::string>(), part_key));
    }
    Config c;
    c.gguf = file;
    load_model_files(c, [&parts](const std::string& name) -> std::unique_ptr<ByteSource> {
        for (const auto& [n, bytes] : parts)
            if (n == name) return std::make_unique<HeaderSource>(n, bytes);
        return nullptr;
    });
    spec.arch = std::move(c.model.arch);
    spec.import_warnings = std::move(c.model.import_warnings);
    spec.hub_weights = c.weights;
}

}  // namespace

ModelSpec model_from_hub_value(const json& m) {
    for (auto it = m.begin(); it != m.end(); ++it) {
        const std::string& k = it.key();
        if (k != "hub" && k != "revision" && k != "file" && k != "hf_config" && k != "gguf_headers")
            throw_error("model." + k.substr(0, 60), "unknown key of a Hub model; known: hub, revision, file, hf_config, gguf_headers");
    }
    ModelSpec spec;
    spec.custom = true;
    // Without `hub`: a GGUF file a page read from the reader's disk (a drop, "Open file..."): its
    // name and header, and nothing to fetch again.
    const bool local = !m.contains("hub");
    if (local && (!m.contains("gguf_headers") || m["gguf_headers"].is_null()))
        throw_error("model.hub", "is missing: a Hub model names its repository (org/name)");
    if (local && m.contains("revision"))
        throw_error("model.revision", "goes with `hub`: a file read from the reader's disk has no revision");
    if (local && m.contains("hf_config")) throw_error("model.hf_config", "goes with `hub`, or alone as {\"hf_config\": {...}}");
    if (!local) spec.hub = string_field(m, "hub", 0, false);
    if (m.contains("revision") && !m["revision"].is_null()) (void)string_field(m, "revision", 200, true);
    std::string file;
    if (m.contains("file") && !m["file"].is_null()) {
        file = string_field(m, "file", 400, true);
        const std::string& f = file;
        if (f.size() < 5 || f.compare(f.size() - 5, 5, ".gguf") != 0)
            throw_error(
                "model.file",
                "'" + f.substr(0, 80) + "' is not a GGUF file; a safetensors checkpoint is sized from its config.json (leave `file` out)");
    }
    const bool has_hf = m.contains("hf_config") && !m["hf_config"].is_null();
    const bool has_gguf = m.contains("gguf_headers") && !m["gguf_headers"].is_null();
    if (has_hf && !file.empty())
        throw_error("model.hf_config", "goes with no `file`: with a GGUF file, the file's header describes the model");
    if (has_gguf && file.empty()) throw_error("model.gguf_headers", "needs `file`, the GGUF file they are the header of");
    if (has_hf) {
        spec.arch = arch_from_hf_json(m["hf_config"], &spec.import_warnings);
        if (spec.arch.name.empty()) spec.arch.name = spec.hub;
        spec.hub_fetched = true;
    } else if (has_gguf) {
        load_gguf_headers(spec, file, m["gguf_headers"]);
        spec.hub_fetched = true;
    }
    // A local file is a GGUF model like one the CLI reads (its link names the file: gguf=).
    spec.arch.source = local ? "gguf" : "hub";
    spec.hub_json = m.dump(-1, ' ', false, json::error_handler_t::replace);
    return spec;
}

void check_hub_model_fetched(const ModelSpec& m) {
    if (m.hub.empty() || m.hub_fetched) return;
    const json j = detail::parse_json(m.hub_json, "model");
    const std::string file = j.contains("file") && j["file"].is_string() ? j["file"].get<std::string>() : "";
    throw_error("model.hub",
                m.hub + (file.empty() ? std::string() : " (" + file + ")") + " is on the Hugging Face Hub and was not fetched" +
                    (phrasing().hub_not_fetched.empty() ? std::string() : ": " + std::string(phrasing().hub_not_fetched)),
                ErrorCode::unreadable);
}
#endif

}  // namespace gpusizer
