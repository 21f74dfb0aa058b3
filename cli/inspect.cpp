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
#include <optional>
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

std::string projector_beside(const std::string& gguf_path, std::vector<std::string>* others) {
    std::error_code ec;
    const fs::path p(gguf_path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file(ec) && e.path() != p) files.push_back((p.has_parent_path() ? e.path() : e.path().filename()).string());
    return find_gguf_projector(files, others);
}

void read_model_files(Config& c) {
    // A GGUF model with its projector beside it (llama.cpp's mtmd: --mmproj): the vision / audio
    // parts of the model, unless the file given is itself the projector.
    if (!c.gguf.empty() && c.mmproj.empty() && !is_gguf_projector_name(fs::path(c.gguf).filename().string()))
        c.mmproj = projector_beside(c.gguf);
    load_model_files(c, file_opener());
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
    out << "tensors: " << t.tensors << ", " << format_count(static_cast<double>(t.params)) << " parameters";
    if (t.elements != t.params) out << " (" << format_count(static_cast<double>(t.elements)) << " stored elements)";
    out << ", " << format_bytes_short(static_cast<double>(t.bytes)) << " (" << format_int(static_cast<double>(t.bytes)) << " bytes)\n";
    out << "by type:\n";
    for (const auto& x : t.by_type) {
        char line[160];
        // Bits per parameter where the type holds parameters (packed tensors: their values), else per element.
        const std::string bits =
            x.params     ? format_fixed(8.0 * static_cast<double>(x.bytes) / static_cast<double>(x.params), 3) + " bits/param"
            : x.elements ? format_fixed(8.0 * static_cast<double>(x.bytes) / static_cast<double>(x.elements), 3) + " bits/element"
                         : std::string();
        std::snprintf(line, sizeof line, "  %-10s %6llu tensors  %12s  %s\n", x.type.c_str(), static_cast<unsigned long long>(x.tensors),
                      format_bytes_short(static_cast<double>(x.bytes)).c_str(), bits.c_str());
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

// Parameters and bytes by part (text, vision, audio, MTP), from the inspect JSON's "parts".
void print_parts(std::ostream& out, const json& parts) {
    out << "by part:\n";
    for (const char* p : {"text", "vision", "audio", "mtp"}) {
        const json& x = parts[p];
        if (x["tensors"].get<std::uint64_t>() == 0) continue;
        char line[160];
        std::snprintf(line, sizeof line, "  %-7s %6llu tensors  %14s parameters  %12s\n", p,
                      static_cast<unsigned long long>(x["tensors"].get<std::uint64_t>()), format_count(x["params"].get<double>()).c_str(),
                      format_bytes_short(x["bytes"].get<double>()).c_str());
        out << line;
    }
}

void print_encoder(std::ostream& out, const char* which, const json& e) {
    if (e.is_null()) return;
    out << "  " << which << " encoder: " << e["block_count"].get<std::uint64_t>() << " blocks, width "
        << e["embedding_length"].get<std::uint64_t>() << ", " << e["head_count"].get<std::uint64_t>() << " heads, FFN "
        << e["feed_forward_length"].get<std::uint64_t>();
    if (e["patch_size"].get<std::uint64_t>()) out << ", patch " << e["patch_size"].get<std::uint64_t>();
    if (e["image_size"].get<std::uint64_t>()) out << ", image " << e["image_size"].get<std::uint64_t>();
    out << '\n';
}

int inspect_gguf(const std::string& path, bool json_out, std::ostream& out) {
    const GgufModel m = read_gguf_model(path, file_opener());
    // A model file finds its projector beside it; a projector file is described alone.
    std::vector<std::string> others;
    const std::string beside = m.projector ? std::string() : projector_beside(path, &others);
    std::optional<GgufModel> p;
    std::string projector_note;
    if (!beside.empty()) {
        GgufModel read = read_gguf_model(beside, file_opener());
        if (read.projector)
            p = std::move(read);
        else
            projector_note = beside + " is named like a projector but its general.architecture is '" + read.arch.architecture + "'";
    }
    const json j = json::parse(gguf_model_json(m, p ? &*p : nullptr));
    if (json_out) {
        out << j.dump(2) << '\n';
        return 0;
    }
    const GgufArchInfo& a = m.arch;
    out << "file: " << path << " (GGUF v" << m.version << ", " << m.files.size() << (m.files.size() == 1 ? " part" : " parts")
        << ", header " << format_bytes_short(static_cast<double>(m.header_bytes)) << ")\n";
    out << "architecture: " << (a.architecture.empty() ? "(none stated)" : a.architecture);
    if (!a.name.empty()) out << "  \"" << a.name << "\"";
    if (!a.file_type.empty()) out << "  file type " << a.file_type;
    out << '\n';
    if (m.projector)
        out << "a multimodal projector (mmproj): the vision / audio encoder loaded beside a language model, not a model alone\n";
    if (a.block_count) {
        out << "layers: " << a.block_count;
        if (m.stack_layers >= 0 && static_cast<std::uint64_t>(m.stack_layers) < a.block_count)
            out << " (" << m.stack_layers << " text + " << a.block_count - static_cast<std::uint64_t>(m.stack_layers) << " NextN / MTP)";
        out << '\n';
    }
    print_totals(out, m.totals);
    print_parts(out, j["parts"]);
    const json& pj = j["projector"];
    if (!pj.is_null()) {
        out << "projector: "
            << (pj["projector_type"].get<std::string>().empty() ? "(type not stated)" : pj["projector_type"].get<std::string>());
        if (p)
            out << " from " << beside << " (" << format_count(static_cast<double>(p->totals.params)) << " parameters, "
                << format_bytes_short(static_cast<double>(p->totals.bytes)) << ")";
        out << '\n';
        print_encoder(out, "vision", pj["vision"]);
        print_encoder(out, "audio", pj["audio"]);
    }
    if (!others.empty()) {
        out << "note: other projector files beside the model, not counted:";
        for (const auto& o : others) out << ' ' << fs::path(o).filename().string();
        out << '\n';
    }
    if (!projector_note.empty()) out << "note: " << projector_note << '\n';
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
    const json j = json::parse(safetensors_model_json(m, config_json));
    if (json_out) {
        out << j.dump(2) << '\n';
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
    if (!j["layouts"].empty()) {
        out << "packed and quantized layouts:\n";
        for (const json& l : j["layouts"]) {
            char line[200];
            std::snprintf(line, sizeof line, "  %-15s %6llu tensors  %14s parameters  %12s\n", l["layout"].get<std::string>().c_str(),
                          static_cast<unsigned long long>(l["tensors"].get<std::uint64_t>()),
                          format_count(l["params"].get<double>()).c_str(), format_bytes_short(l["bytes"].get<double>()).c_str());
            out << line;
        }
    }
    print_parts(out, j["parts"]);
    if (has_config) {
        // The architecture's count beside the files': they agree when config.json describes the tensors.
        ModelArch a = arch;
        a.file = file_weights(m.totals, arch.total_layers());
        out << "config.json's architecture: " << format_count(count_params(a).total()) << " text parameters\n";
    }
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
        // config.json's quantization_config settles what the packed tensors' shapes leave open.
        const SafetensorsQuant quant = config.empty() ? SafetensorsQuant{} : safetensors_quant_of(arch_from_hf_config(config));
        const fs::path index = p / "model.safetensors.index.json";
        if (fs::exists(index, ec)) {
            SafetensorsIndex idx = parse_safetensors_index(read_text(index.string(), kSafetensorsMaxIndexBytes), index.string());
            for (auto& f : idx.files) f = (p / f).string();
            for (auto& [t, f] : idx.weight_map) f = (p / f).string();
            return inspect_safetensors(read_safetensors_model(idx, opener, quant), a.path, config, a.json_out, out);
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
            return inspect_safetensors(safetensors_model_from_headers(std::move(headers), quant), a.path, config, a.json_out, out);
        }
        // GGUF: the models (a split model's parts count once), each with the projector beside it.
        std::sort(gguf.begin(), gguf.end());
        std::vector<std::string> models, projectors;
        for (const auto& g : gguf) {
            if (is_gguf_projector_name(fs::path(g).filename().string())) {
                projectors.push_back(g);
                continue;
            }
            const std::string first = gguf_split_part_names(g).front();
            if (std::find(models.begin(), models.end(), first) == models.end()) models.push_back(first);
        }
        if (models.size() == 1) return inspect_gguf(models[0], a.json_out, out);
        if (models.empty() && !projectors.empty()) return inspect_gguf(projectors[0], a.json_out, out);
        std::string list;
        for (const auto& g : models) list += "\n  " + g;
        throw Error(a.path, gguf.empty() ? "holds no .safetensors or .gguf file" : "holds several GGUF models: name one" + list);
    }
    const std::string ext = p.extension().string();
    if (ext == ".gguf" || has_magic(a.path, "GGUF")) return inspect_gguf(a.path, a.json_out, out);
    // An index or a shard alone: the quantization_config of the config.json beside it, if any.
    const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    const std::string config_beside = fs::exists(dir / "config.json", ec) ? read_text((dir / "config.json").string(), 16u << 20) : "";
    SafetensorsQuant quant;
    if (!config_beside.empty()) try {
            quant = safetensors_quant_of(arch_from_hf_config(config_beside));
        } catch (const Error&) {
            // A config.json the importer refuses: the shapes alone (inspect describes the file, not the model).
        }
    if (ext == ".json") {
        SafetensorsIndex idx = parse_safetensors_index(read_text(a.path, kSafetensorsMaxIndexBytes), a.path);
        for (auto& f : idx.files) f = (p.parent_path() / f).string();
        for (auto& [t, f] : idx.weight_map) f = (p.parent_path() / f).string();
        return inspect_safetensors(read_safetensors_model(idx, opener, quant), a.path, "", a.json_out, out);
    }
    FileSource src(a.path);
    return inspect_safetensors(safetensors_model_from_headers({read_safetensors_header(src)}, quant), a.path, "", a.json_out, out);
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
