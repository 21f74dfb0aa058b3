// inspect.cpp: `gpusizer inspect` and `gpusizer reconcile`.
//
// [SECTION] Files
// [SECTION] inspect: GGUF (any part of a split), .safetensors, or a model folder
// [SECTION] reconcile: an engine's startup log
#include "inspect.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_internal.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/engine_log.hpp"
#include "gpusizer/inspect.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/format.hpp"
#include "gpusizer/io.hpp"

namespace gpusizer::cli {

namespace fs = std::filesystem;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Files
// ---------------------------------------------------------------------------------------------

FileSource::FileSource(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    std::error_code ec;
    if (!in_ || fs::is_directory(path, ec)) throw Error(path, "cannot open the file");
    size_ = fs::file_size(path, ec);
    if (ec) throw Error(path, "cannot read the file's size");
}

std::size_t FileSource::read(std::uint64_t offset, void* out, std::size_t n) {
    if (offset >= size_) return 0;
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(static_cast<char*>(out), static_cast<std::streamsize>(std::min<std::uint64_t>(n, size_ - offset)));
    return static_cast<std::size_t>(in_.gcount());
}

SourceOpener file_opener() {
    return [](const std::string& path) -> std::unique_ptr<ByteSource> {
        std::error_code ec;
        if (!fs::is_regular_file(path, ec)) return nullptr;
        return std::make_unique<FileSource>(path);
    };
}

namespace {

std::string read_text(const std::string& path, std::uint64_t cap) {
    std::error_code ec;
    const std::uint64_t size = fs::file_size(path, ec);
    if (ec) throw Error(path, "cannot open the file");
    if (size > cap) throw Error(path, "file is larger than " + std::to_string(cap >> 20) + " MiB");
    std::ifstream f(path, std::ios::binary);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

struct Args {
    std::string path;
    bool json_out = false;
};

Args parse(const std::vector<std::string>& args, const char* what) {
    Args a;
    for (std::size_t k = 1; k < args.size(); ++k) {
        if (args[k] == "--json") a.json_out = true;
        else if (args[k] == "--assets" && k + 1 < args.size()) ++k;  // the shared flag: nothing to load here
        else if (!args[k].empty() && args[k][0] == '-')
            throw Error(args[k], std::string("unknown flag for ") + args[0] + " (allowed: --json)");
        else if (a.path.empty()) a.path = args[k];
        else throw Error(args[k], std::string("one ") + what + " only");
    }
    if (a.path.empty()) throw Error(args[0], std::string("needs a ") + what + ": gpusizer " + args[0] + " PATH [--json]");
    return a;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] inspect
// ---------------------------------------------------------------------------------------------

void print_totals(std::ostream& out, const TensorTotals& t) {
    out << "tensors: " << t.tensors << ", " << format_count(static_cast<double>(t.elements)) << " elements, "
        << format_bytes_short(static_cast<double>(t.bytes)) << " (" << format_int(static_cast<double>(t.bytes)) << " bytes)\n";
    out << "by type:\n";
    for (const auto& x : t.by_type) {
        char line[160];
        std::snprintf(
            line, sizeof line, "  %-10s %6llu tensors  %12s  %s\n", x.type.c_str(), static_cast<unsigned long long>(x.tensors),
            format_bytes_short(static_cast<double>(x.bytes)).c_str(),
            x.elements ? (format_fixed(8.0 * static_cast<double>(x.bytes) / static_cast<double>(x.elements), 3) + " bits/element").c_str()
                       : "");
        out << line;
    }
    out << "by class:\n";
    for (std::size_t c = 0; c < kWeightClassCount; ++c) {
        const ClassTotal& x = t.by_class[c];
        if (x.tensors == 0) continue;
        char line[160];
        std::snprintf(line, sizeof line, "  %-15s %6llu tensors  %12s\n", to_string(static_cast<WeightClass>(c)),
                      static_cast<unsigned long long>(x.tensors), format_bytes_short(static_cast<double>(x.bytes)).c_str());
        out << line;
    }
}

int inspect_gguf(const std::string& path, bool json_out, std::ostream& out) {
    const GgufModel m = read_gguf_model(path, file_opener());
    const GgufArchInfo& a = m.arch;
    if (json_out) {
        out << gguf_model_json(m) << '\n';
        return 0;
    }
    out << "file: " << path << " (GGUF v" << m.version << ", " << m.files.size() << (m.files.size() == 1 ? " part" : " parts")
        << ", header " << format_bytes_short(static_cast<double>(m.header_bytes)) << ")\n";
    out << "architecture: " << (a.architecture.empty() ? "(none stated)" : a.architecture);
    if (!a.name.empty()) out << "  \"" << a.name << "\"";
    if (!a.file_type.empty()) out << "  file type " << a.file_type;
    out << '\n';
    if (a.block_count) out << "layers: " << a.block_count << '\n';
    print_totals(out, m.totals);
    if (!a.keys_used.empty()) {
        out << "metadata that mattered:\n";
        for (const auto& k : a.keys_used) out << "  " << k << '\n';
    }
    return 0;
}

int inspect_safetensors(const SafetensorsModel& m, const std::string& path, const std::string& config_json, bool json_out,
                        std::ostream& out) {
    std::vector<std::string> warnings;
    ModelArch arch;
    const bool has_config = !config_json.empty();
    if (has_config) arch = arch_from_hf_config(config_json, &warnings);
    if (json_out) {
        out << safetensors_model_json(m, config_json) << '\n';
        return 0;
    }
    out << "path: " << path << " (safetensors, " << m.files.size() << (m.files.size() == 1 ? " file" : " files") << ", headers "
        << format_bytes_short(static_cast<double>(m.header_bytes)) << ")\n";
    if (has_config)
        out << "config.json: " << (arch.model_type.empty() ? "?" : arch.model_type) << ", " << arch.n_layers << " layers, hidden "
            << arch.hidden << ", " << arch.n_heads << " heads (" << arch.n_kv_heads << " KV)"
            << (arch.n_routed_experts ? ", " + std::to_string(arch.n_routed_experts) + " experts" : std::string()) << '\n';
    for (const auto& w : warnings) out << "  note: " << w << '\n';
    print_totals(out, m.totals);
    if (m.index_total_size && m.index_total_size != m.totals.bytes)
        out << "note: the index's metadata.total_size says " << format_int(static_cast<double>(m.index_total_size))
            << " bytes, the headers " << format_int(static_cast<double>(m.totals.bytes)) << '\n';
    if (!m.metadata.empty()) {
        out << "__metadata__:\n";
        for (const auto& [k, v] : m.metadata) out << "  " << k << " = " << v.substr(0, 80) << '\n';
    }
    return 0;
}

bool has_magic(const std::string& path, const char* magic) {
    std::ifstream f(path, std::ios::binary);
    char b[4] = {};
    f.read(b, 4);
    return f.gcount() == 4 && std::equal(b, b + 4, magic);
}

}  // namespace

int run_inspect(const std::vector<std::string>& args, std::ostream& out) {
    const Args a = parse(args, "GGUF file, .safetensors file or model folder");
    std::error_code ec;
    const fs::path p(a.path);
    if (!fs::exists(p, ec)) throw Error(a.path, "no such file or folder");
    const auto opener = file_opener();
    if (fs::is_directory(p, ec)) {
        const std::string config = fs::exists(p / "config.json", ec) ? read_text((p / "config.json").string(), 16u << 20) : "";
        const fs::path index = p / "model.safetensors.index.json";
        if (fs::exists(index, ec)) {
            SafetensorsIndex idx = parse_safetensors_index(read_text(index.string(), kSafetensorsMaxIndexBytes), index.string());
            for (auto& f : idx.files) f = (p / f).string();
            for (auto& [t, f] : idx.weight_map) f = (p / f).string();
            return inspect_safetensors(read_safetensors_model(idx, opener), a.path, config, a.json_out, out);
        }
        std::vector<std::string> st, gguf;
        for (const auto& e : fs::directory_iterator(p, ec)) {
            const std::string ext = e.path().extension().string();
            if (ext == ".safetensors") st.push_back(e.path().string());
            else if (ext == ".gguf") gguf.push_back(e.path().string());
        }
        std::sort(st.begin(), st.end());
        if (!st.empty()) {
            std::vector<SafetensorsHeader> headers;
            for (const auto& f : st) {
                FileSource src(f);
                headers.push_back(read_safetensors_header(src));
            }
            return inspect_safetensors(safetensors_model_from_headers(std::move(headers)), a.path, config, a.json_out, out);
        }
        if (gguf.size() == 1) return inspect_gguf(gguf[0], a.json_out, out);
        std::string list;
        for (const auto& g : gguf) list += "\n  " + g;
        throw Error(a.path, gguf.empty() ? "holds no .safetensors or .gguf file" : "holds several GGUF files: name one" + list);
    }
    const std::string ext = p.extension().string();
    if (ext == ".gguf" || has_magic(a.path, "GGUF")) return inspect_gguf(a.path, a.json_out, out);
    if (ext == ".json") {
        SafetensorsIndex idx = parse_safetensors_index(read_text(a.path, kSafetensorsMaxIndexBytes), a.path);
        const fs::path dir = p.parent_path();
        for (auto& f : idx.files) f = (dir / f).string();
        for (auto& [t, f] : idx.weight_map) f = (dir / f).string();
        return inspect_safetensors(read_safetensors_model(idx, opener), a.path, "", a.json_out, out);
    }
    FileSource src(a.path);
    return inspect_safetensors(safetensors_model_from_headers({read_safetensors_header(src)}), a.path, "", a.json_out, out);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] reconcile
// ---------------------------------------------------------------------------------------------

int run_reconcile(const std::vector<std::string>& args, std::ostream& out, const char* argv0) {
    // reconcile LOGFILE [--json] [KEY FLAGS: --model, --gguf, --hf-dir, --gpu, ...]: the log path,
    // then the flags estimate takes (they win over what the log says).
    std::string path;
    std::vector<std::string> rest = {"reconcile"};
    for (std::size_t k = 1; k < args.size(); ++k) {
        if (path.empty() && (args[k].empty() || args[k][0] != '-')) path = args[k];
        else rest.push_back(args[k]);
    }
    if (path.empty())
        throw Error("reconcile",
                    "needs a log file: gpusizer reconcile LOGFILE [--json] [--model ID | --gguf FILE | --hf-dir DIR] [--gpu ID]");
    const Options o = parse_args(rest);
    const std::string text = read_text(path, 256u << 20);
    const EngineLog l = read_engine_log(text);
    if (l.engine.empty())
        throw Error(path, "no line of a llama.cpp, Ollama, vLLM or SGLang startup log was recognised");
    // The estimate beside the log needs the catalog; without one the log is still shown.
    std::unique_ptr<Catalog> cat;
    try {
        cat = std::make_unique<Catalog>(load_catalog(o.assets.empty() ? find_assets_dir(argv0) : o.assets));
    } catch (const Error&) {
        cat.reset();
    }
    const json j = json::parse(reconcile_json(text, cat.get(), o.config.dump(), file_opener()));
    if (o.json_out) {
        out << j.dump(2) << '\n';
        return 0;
    }
    auto line = [&out](const char* label, const std::string& v) { if (!v.empty()) out << "  " << label << ": " << v << '\n'; };
    auto count = [&](const char* label, std::int64_t v) { if (v) line(label, format_int(static_cast<double>(v))); };
    auto bytes = [&](const char* label, double v) { if (v > 0) line(label, format_gib(v)); };
    out << "engine: " << l.engine << '\n';
    line("model", l.model_name);
    line("architecture", l.architecture);
    line("model type", l.model_type);
    line("file type", l.file_type);
    if (l.model_params > 0) line("parameters", format_count(l.model_params));
    bytes("model file", l.model_file_bytes);
    if (!l.kv_type_k.empty()) line("KV types", "K " + l.kv_type_k + ", V " + (l.kv_type_v.empty() ? "?" : l.kv_type_v));
    // Counts, then byte figures, in the order the engines print them; zero = not in the log.
    struct Figure { const char* label; std::int64_t EngineLog::*count; double EngineLog::*bytes; };
    static const Figure kFigures[] = {
        {"layers", &EngineLog::n_layer, nullptr}, {"trained context", &EngineLog::n_ctx_train, nullptr},
        {"context (n_ctx)", &EngineLog::n_ctx, nullptr}, {"context per sequence", &EngineLog::n_ctx_per_seq, nullptr},
        {"sequences", &EngineLog::n_seq_max, nullptr}, {"KV cache cells", &EngineLog::kv_cells, nullptr},
        {"KV cache tokens", &EngineLog::kv_cache_tokens, nullptr}, {"KV cache blocks", &EngineLog::kv_blocks, nullptr},
        {"KV cache", nullptr, &EngineLog::kv_bytes}, {"weights (per GPU)", nullptr, &EngineLog::weights_bytes},
        {"memory for the KV cache", nullptr, &EngineLog::available_kv_bytes},
        {"activation peak", nullptr, &EngineLog::activation_peak_bytes}, {"non-torch memory", nullptr, &EngineLog::non_torch_bytes},
        {"CUDA graphs", nullptr, &EngineLog::graph_bytes}, {"GPU memory", nullptr, &EngineLog::gpu_memory_bytes},
        {"free after the KV pool", nullptr, &EngineLog::avail_after_pool_bytes}};
    for (const Figure& f : kFigures) {
        if (f.count) count(f.label, l.*f.count);
        else bytes(f.label, l.*f.bytes);
    }
    if (l.max_concurrency > 0)
        line("max concurrency", format_fixed(l.max_concurrency, 2) + "x at " +
                                    format_int(static_cast<double>(l.concurrency_tokens_per_request)) + " tokens per request");
    count("max running requests", l.max_running_requests);
    if (!l.buffers.empty()) {
        out << "buffers by device:\n";
        for (const auto& d : l.devices()) {
            out << "  " << d << ":";
            for (const char* kind : {"model", "kv", "recurrent", "compute", "output", "graph"}) {
                const double b = l.buffer_bytes(kind, d);
                if (b > 0) out << "  " << kind << " " << format_gib(b);
            }
            out << '\n';
        }
    }
    for (const auto& n : l.notes) out << "note: " << n << '\n';
    const json& est = j["estimate"];
    if (!est.is_object()) {
        out << "estimate: none (" << j.value("estimate_error", std::string("?")) << ")\n";
        return 0;
    }
    out << "\nlog vs estimate (" << est["model"].get<std::string>() << ", " << est["config"]["gpu"].get<std::string>() << "):\n";
    for (const json& k : est["components"]) {
        const bool is_count = k["name"] == "kv_tokens";
        const double lv = k["log"].get<double>(), ev = k["estimate"].get<double>();
        char row[240];
        std::snprintf(row, sizeof row, "  %-14s %14s %14s  %+7.1f%%  %s\n", k["name"].get<std::string>().c_str(),
                      is_count ? format_int(lv).c_str() : format_gib(lv).c_str(),
                      is_count ? format_int(ev).c_str() : format_gib(ev).c_str(), lv > 0 ? 100.0 * (ev / lv - 1) : 0.0,
                      k["meaning"].get<std::string>().c_str());
        out << row;
    }
    for (const auto& n : est["notes"]) out << "note: " << n.get<std::string>() << '\n';
    return 0;
}

}  // namespace gpusizer::cli
