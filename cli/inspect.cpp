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
        else if (!args[k].empty() && args[k][0] == '-') throw Error(args[k], std::string("unknown flag for ") + args[0] + " (allowed: --json)");
        else if (a.path.empty()) a.path = args[k];
        else throw Error(args[k], std::string("one ") + what + " only");
    }
    if (a.path.empty()) throw Error(args[0], std::string("needs a ") + what + ": gpusizer " + args[0] + " PATH [--json]");
    return a;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] inspect
// ---------------------------------------------------------------------------------------------

// What both formats print: totals by type and by class.
json totals_json(const TensorTotals& t) {
    json by_type = json::array();
    for (const auto& x : t.by_type) by_type.push_back({{"type", x.type}, {"tensors", x.tensors}, {"elements", x.elements}, {"bytes", x.bytes}});
    json by_class = json::object();
    for (std::size_t c = 0; c < kWeightClassCount; ++c) {
        const ClassTotal& x = t.by_class[c];
        by_class[weight_class_name(static_cast<WeightClass>(c))] = {{"tensors", x.tensors}, {"elements", x.elements}, {"bytes", x.bytes}};
    }
    // Per layer: only the classes with bytes ({"attention": 119040, "dense_mlp": 254976, ...}).
    json by_layer = json::array();
    for (const auto& layer : t.by_layer) {
        json l = json::object();
        for (std::size_t c = 0; c < kWeightClassCount; ++c)
            if (layer[c]) l[weight_class_name(static_cast<WeightClass>(c))] = layer[c];
        by_layer.push_back(l);
    }
    return {{"tensors", t.tensors}, {"elements", t.elements}, {"bytes", t.bytes}, {"by_type", by_type}, {"by_class", by_class},
            {"by_layer", by_layer}};
}

void print_totals(std::ostream& out, const TensorTotals& t) {
    out << "tensors: " << t.tensors << ", " << format_count(static_cast<double>(t.elements)) << " elements, "
        << format_bytes_short(static_cast<double>(t.bytes)) << " (" << format_int(static_cast<double>(t.bytes)) << " bytes)\n";
    out << "by type:\n";
    for (const auto& x : t.by_type) {
        char line[160];
        std::snprintf(line, sizeof line, "  %-10s %6llu tensors  %12s  %s\n", x.type.c_str(), static_cast<unsigned long long>(x.tensors),
                      format_bytes_short(static_cast<double>(x.bytes)).c_str(),
                      x.elements ? (format_fixed(8.0 * static_cast<double>(x.bytes) / static_cast<double>(x.elements), 3) + " bits/element").c_str() : "");
        out << line;
    }
    out << "by class:\n";
    for (std::size_t c = 0; c < kWeightClassCount; ++c) {
        const ClassTotal& x = t.by_class[c];
        if (x.tensors == 0) continue;
        char line[160];
        std::snprintf(line, sizeof line, "  %-15s %6llu tensors  %12s\n", weight_class_name(static_cast<WeightClass>(c)),
                      static_cast<unsigned long long>(x.tensors), format_bytes_short(static_cast<double>(x.bytes)).c_str());
        out << line;
    }
}

json u64_list(const std::vector<std::uint64_t>& v) {
    if (v.size() == 1) return v[0];
    return json(v);
}

int inspect_gguf(const std::string& path, bool json_out, std::ostream& out) {
    const GgufModel m = read_gguf_model(path, file_opener());
    const GgufArchInfo& a = m.arch;
    if (json_out) {
        json hp = {{"block_count", a.block_count}, {"context_length", a.context_length}, {"embedding_length", a.embedding_length},
                   {"vocab_size", a.vocab_size}, {"feed_forward_length", u64_list(a.feed_forward_length)},
                   {"head_count", u64_list(a.head_count)}, {"head_count_kv", u64_list(a.head_count_kv)},
                   {"key_length", a.key_length}, {"value_length", a.value_length}, {"key_length_mla", a.key_length_mla},
                   {"value_length_mla", a.value_length_mla}, {"q_lora_rank", a.q_lora_rank}, {"kv_lora_rank", a.kv_lora_rank},
                   {"rope_dimension_count", a.rope_dimension_count}, {"sliding_window", a.sliding_window},
                   {"sliding_window_period", a.sliding_window_period}, {"sliding_window_layers", a.sliding_window_layers},
                   {"full_attention_interval", a.full_attention_interval}, {"expert_count", a.expert_count},
                   {"expert_used_count", a.expert_used_count}, {"expert_shared_count", a.expert_shared_count},
                   {"expert_feed_forward_length", a.expert_feed_forward_length},
                   {"expert_shared_feed_forward_length", a.expert_shared_feed_forward_length},
                   {"leading_dense_block_count", a.leading_dense_block_count}, {"ssm_conv_kernel", a.ssm_conv_kernel},
                   {"ssm_inner_size", a.ssm_inner_size}, {"ssm_state_size", a.ssm_state_size},
                   {"ssm_time_step_rank", a.ssm_time_step_rank}, {"ssm_group_count", a.ssm_group_count}};
        json metadata = json::object();
        for (const auto& kv : m.metadata) {
            const GgufValue& v = kv.value;
            json j;
            if (v.type == GgufType::string) j = v.skipped ? json(nullptr) : json(v.s);
            else if (v.type == GgufType::array) j = {{"type", gguf_type_name(v.item_type)}, {"count", v.count}};
            else if (v.type == GgufType::boolean) j = v.u != 0;
            else if (v.type == GgufType::f32 || v.type == GgufType::f64) j = v.f;
            else if (v.negative) j = v.i;
            else j = v.u;
            metadata[kv.key] = j;
        }
        json tensors = json::array();
        for (const auto& t : m.tensors) {
            json shape = json::array();
            for (std::uint32_t d = 0; d < t.n_dims; ++d) shape.push_back(t.dims[d]);
            tensors.push_back({{"name", t.name}, {"type", t.type_name}, {"type_id", t.type}, {"shape", shape}, {"bytes", t.bytes},
                               {"offset", t.offset}, {"part", t.part}, {"class", weight_class_name(t.cls)}, {"layer", t.layer}});
        }
        json j = {{"format", "gguf"}, {"files", m.files}, {"version", m.version}, {"header_bytes", m.header_bytes},
                  {"data_offsets", m.data_offsets}, {"architecture", a.architecture}, {"name", a.name}, {"file_type", a.file_type}, {"hyperparameters", hp},
                  {"totals", totals_json(m.totals)}, {"metadata_used", a.keys_used}, {"metadata", metadata}, {"tensor_list", tensors}};
        out << j.dump(2) << '\n';
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
        json dtypes = json::object();
        json meta = json::object();
        for (const auto& [k, v] : m.metadata) meta[k] = v;
        json j = {{"format", "safetensors"}, {"files", m.files}, {"header_bytes", m.header_bytes},
                  {"index_total_size", m.index_total_size}, {"metadata", meta}, {"totals", totals_json(m.totals)}};
        if (has_config)
            j["config"] = {{"model_type", arch.model_type}, {"layers", arch.n_layers}, {"hidden", arch.hidden},
                           {"heads", arch.n_heads}, {"kv_heads", arch.n_kv_heads}, {"routed_experts", arch.n_routed_experts},
                           {"warnings", warnings}};
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

namespace {

// llama.cpp's file-type description ("Q4_K - Medium", "MXFP4 MoE", "Q8_0": llama_model_ftype_name
// in src/llama-model-loader.cpp) -> a weight format id ("q4_k_m"), or "" when none matches.
std::string weights_of_log(const std::string& ft) {
    std::string id;
    for (char ch : ft) id += ch == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const auto& [from, to] : {std::pair<const char*, const char*>{"_-_medium", "_m"}, {"_-_small", "_s"}, {"_-_large", "_l"},
                                   {"_-_extra_small", "_xs"}, {"_-_extra_extra_small", "_xxs"}}) {
        const std::size_t at = id.find(from);
        if (at != std::string::npos) id = id.substr(0, at) + to;
    }
    if (id == "all_f32" || id == "f32") id = "fp32";
    if (id == "f16" || id == "mostly_f16") id = "fp16";
    for (const WeightFormat& f : weight_formats())
        if (f.id == id) return id;
    return "";
}

// A cache type as engines print it ("f16", "q8_0", "torch.float8_e4m3fn", "torch.bfloat16") -> a
// kv_cache id, or "".
std::string kv_of_log(std::string t) {
    if (t.rfind("torch.", 0) == 0) t = t.substr(6);
    if (t == "f16" || t == "float16") return "fp16";
    if (t == "bf16" || t == "bfloat16") return "bf16";
    if (t == "f32" || t == "float32") return "fp32";
    if (t == "q8_0" || t == "q4_0") return t;
    if (t.rfind("float8", 0) == 0 || t.rfind("fp8", 0) == 0) return "fp8";
    return "";
}

bool is_gpu_device(const std::string& d) {
    return d.find("CPU") == std::string::npos && d.find("Host") == std::string::npos && d.find("host") == std::string::npos;
}

// The catalog model a log describes: the hyperparameters llama.cpp prints (layers, width, heads,
// KV heads, experts) all equal, or (vLLM, SGLang) the Hugging Face repo it loads.
const CatalogModel* match_catalog(const EngineLog& l, const Catalog& cat) {
    auto lower = [](std::string s) {
        for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return s;
    };
    if (!l.model_name.empty()) {
        const std::string name = lower(l.model_name);
        for (const CatalogModel& m : cat.models)
            if (!m.hf_repo.empty() && (lower(m.hf_repo) == name || (name.size() > m.hf_repo.size() &&
                                       name.compare(name.size() - m.hf_repo.size() - 1, std::string::npos, "/" + lower(m.hf_repo)) == 0)))
                return &m;
    }
    if (l.n_layer == 0 || l.n_embd == 0 || l.n_head == 0) return nullptr;
    for (const CatalogModel& m : cat.models) {
        const ModelArch& a = m.arch;
        if (a.n_layers == l.n_layer && a.hidden == l.n_embd && a.n_heads == l.n_head &&
            (l.n_head_kv == 0 || a.n_kv_heads == l.n_head_kv) && a.n_routed_experts == l.n_expert &&
            (l.model_params <= 0 || std::fabs(m.counts.total() / l.model_params - 1) < 0.05))
            return &m;
    }
    return nullptr;
}

// One component: the log's figure, the estimate's, the difference and the ratio.
struct Component {
    const char* name;
    const char* meaning;
    double log = 0;
    double estimate = 0;
};

}  // namespace

int run_reconcile(const std::vector<std::string>& args, std::ostream& out, const char* argv0) {
    // reconcile LOGFILE [--json] [KEY FLAGS: --model, --gguf, --hf-dir, --gpu, ...]: the log path,
    // then the flags estimate takes (they win over what the log says).
    std::string path;
    std::vector<std::string> rest = {"reconcile"};
    for (std::size_t k = 1; k < args.size(); ++k) {
        if (path.empty() && (args[k].empty() || args[k][0] != '-')) path = args[k];
        else rest.push_back(args[k]);
    }
    if (path.empty()) throw Error("reconcile", "needs a log file: gpusizer reconcile LOGFILE [--json] [--model ID | --gguf FILE | --hf-dir DIR] [--gpu ID]");
    const Options o = parse_args(rest);
    Args a;
    a.path = path;
    a.json_out = o.json_out;
    const EngineLog l = read_engine_log(read_text(a.path, 256u << 20));
    if (l.engine.empty())
        throw Error(a.path, "no line of a llama.cpp, Ollama, vLLM or SGLang startup log was recognised");

    // The configuration the log describes; flags given win.
    std::vector<std::string> est_notes;
    json est = nullptr;
    std::vector<Component> comps;
    std::string est_error;
    try {
        const Catalog cat = load_catalog(o.assets.empty() ? find_assets_dir(argv0) : o.assets);
        const bool llama = l.engine == "llama.cpp" || l.engine == "ollama";
        json cfg = json::object();
        cfg["runtime"] = llama ? "llama.cpp" : "vllm";
        if (l.engine == "sglang") est_notes.push_back("SGLang is estimated with the vLLM profile (both size a KV pool from a memory fraction)");
        std::vector<std::string> gpu_devices;
        for (const auto& d : l.devices())
            if (is_gpu_device(d)) gpu_devices.push_back(d);
        const int gpus = std::max<int>(1, static_cast<int>(gpu_devices.size()));
        cfg["gpus"] = gpus;
        // llama.cpp splits layers over GPUs (pipeline); vLLM and SGLang ranks split tensors.
        if (gpus > 1) cfg[llama ? "pp" : "tp"] = gpus;
        if (llama) {
            const std::int64_t per_seq = l.n_ctx_per_seq ? l.n_ctx_per_seq : l.n_ctx;
            if (per_seq > 0) cfg["context"] = per_seq;
            if (l.n_seq_max > 1) cfg["batch"] = l.n_seq_max;
            if (l.n_ubatch > 0) cfg["prefill_chunk"] = l.n_ubatch;
            const std::string w = weights_of_log(l.file_type);
            if (!w.empty()) cfg["weights"] = w;
            else if (!l.file_type.empty()) est_notes.push_back("file type '" + l.file_type + "' names no weight format here");
        } else {
            if (l.concurrency_tokens_per_request > 0) cfg["context"] = l.concurrency_tokens_per_request;
            if (l.gpu_memory_utilization > 0) cfg["gpu_memory_utilization"] = l.gpu_memory_utilization;
        }
        if (const std::string kv = kv_of_log(l.kv_type_k); !kv.empty()) cfg["kv_cache"] = kv;
        // The GPU: the flag's, else the catalog GPU whose memory is nearest the log's total,
        // else an H100 (only the headroom depends on it for llama.cpp).
        std::string gpu = "h100-sxm";
        if (l.gpu_memory_bytes > 0) {
            double best = 1e300;
            for (const Gpu& g : cat.gpus) {
                const double d = std::fabs(g.memory_gib * double(1ull << 30) - l.gpu_memory_bytes);
                if (d < best) best = d, gpu = g.id;
            }
        }
        cfg["gpu"] = gpu;
        const bool model_given = o.config.contains("model") || o.config.contains("gguf") || o.config.contains("hf_dir");
        if (!model_given) {
            const CatalogModel* m = match_catalog(l, cat);
            if (!m) throw Error("model", "the log names no catalog model: give --model ID, --gguf FILE or --hf-dir DIR");
            cfg["model"] = m->arch.id;
            est_notes.push_back("model " + m->arch.id + " (" + m->arch.name + ") matched from the log's " +
                                (l.n_layer ? "hyperparameters" : "model name"));
        }
        if (!o.config.contains("gpu")) est_notes.push_back("GPU " + gpu + (l.gpu_memory_bytes > 0 ? " (nearest the log's memory)" : " assumed: the log does not say"));
        for (auto it = o.config.begin(); it != o.config.end(); ++it) cfg[it.key()] = it.value();
        Config c = config_from_json(cfg.dump());
        load_model_files(c, file_opener());
        const Report r = estimate(c, cat);
        // Components, per GPU (the most loaded one) unless named "total".
        double log_w = 0, log_w_gpu = 0, log_kv_gpu = 0, log_compute = 0;
        for (const auto& d : l.devices()) {
            log_w += l.buffer_bytes("model", d);
            if (is_gpu_device(d)) {
                log_w_gpu = std::max(log_w_gpu, l.buffer_bytes("model", d));
                log_kv_gpu = std::max(log_kv_gpu, l.buffer_bytes("kv", d) + l.buffer_bytes("recurrent", d));
                log_compute = std::max(log_compute, l.buffer_bytes("compute", d));
            }
        }
        if (log_w == 0) log_w = l.model_file_bytes;
        if (l.weights_bytes > 0) log_w_gpu = l.weights_bytes;
        const double est_w = r.weights_bits_per_param * r.params / 8.0;
        if (log_w > 0) comps.push_back({"weights_total", "the model's weights, all devices (llama.cpp: every model buffer, or the file size)", log_w, est_w});
        if (log_w_gpu > 0) comps.push_back({"weights", "weights on the most loaded GPU", log_w_gpu, r.per_gpu.weights});
        double log_kv = l.kv_bytes > 0 ? l.kv_bytes : l.kv_k_bytes + l.kv_v_bytes;
        if (log_kv > 0 && gpus == 1) comps.push_back({"kv_cache", "KV cache (and recurrent state)", log_kv, r.per_gpu.kv_cache});
        else if (log_kv_gpu > 0) comps.push_back({"kv_cache", "KV cache on the most loaded GPU", log_kv_gpu, r.per_gpu.kv_cache});
        if (l.available_kv_bytes > 0) comps.push_back({"kv_cache", "vLLM's KV pool on one GPU", l.available_kv_bytes, r.per_gpu.kv_cache});
        if (log_compute > 0) comps.push_back({"compute", "llama.cpp compute buffer on the most loaded GPU", log_compute, r.per_gpu.activations});
        if (l.kv_cache_tokens > 0 && r.kv_capacity_tokens > 0)
            comps.push_back({"kv_tokens", "tokens the KV pool holds (a count, not bytes)", double(l.kv_cache_tokens), double(r.kv_capacity_tokens)});
        if (l.graph_bytes > 0) comps.push_back({"graphs", "CUDA graphs (estimate: runtime buffers)", l.graph_bytes, r.overhead_detail.runtime_buffers});
        json cj = json::array();
        for (const Component& k : comps)
            cj.push_back({{"name", k.name}, {"meaning", k.meaning}, {"log", k.log}, {"estimate", k.estimate},
                          {"difference", k.estimate - k.log}, {"ratio", k.log > 0 ? json(k.estimate / k.log) : json(nullptr)}});
        est = {{"config", json::parse(config_to_json(c))}, {"model", r.model_name}, {"source", c.model.custom ? (c.model.arch.source.empty() ? "hf_config" : c.model.arch.source) : "catalog"},
               {"components", cj}, {"notes", est_notes}};
    } catch (const Error& e) {
        est_error = e.what();
    }
    if (a.json_out) {
        json buffers = json::array();
        for (const auto& b : l.buffers) buffers.push_back({{"kind", b.kind}, {"device", b.device}, {"bytes", b.bytes}, {"line", b.line}});
        json j = {{"engine", l.engine}, {"model_name", l.model_name}, {"architecture", l.architecture}, {"model_type", l.model_type},
                  {"file_type", l.file_type}, {"model_params", l.model_params}, {"model_file_bytes", l.model_file_bytes},
                  {"n_layer", l.n_layer}, {"n_embd", l.n_embd}, {"n_head", l.n_head}, {"n_head_kv", l.n_head_kv},
                  {"n_ctx_train", l.n_ctx_train}, {"n_expert", l.n_expert}, {"n_expert_used", l.n_expert_used},
                  {"n_ctx", l.n_ctx}, {"n_ctx_per_seq", l.n_ctx_per_seq}, {"n_seq_max", l.n_seq_max}, {"n_batch", l.n_batch},
                  {"n_ubatch", l.n_ubatch}, {"kv_type_k", l.kv_type_k}, {"kv_type_v", l.kv_type_v}, {"kv_bytes", l.kv_bytes},
                  {"kv_k_bytes", l.kv_k_bytes}, {"kv_v_bytes", l.kv_v_bytes}, {"kv_cells", l.kv_cells},
                  {"kv_cache_tokens", l.kv_cache_tokens}, {"kv_blocks", l.kv_blocks}, {"weights_bytes", l.weights_bytes},
                  {"available_kv_bytes", l.available_kv_bytes}, {"activation_peak_bytes", l.activation_peak_bytes},
                  {"non_torch_bytes", l.non_torch_bytes}, {"graph_bytes", l.graph_bytes}, {"gpu_memory_bytes", l.gpu_memory_bytes},
                  {"gpu_memory_utilization", l.gpu_memory_utilization}, {"avail_after_pool_bytes", l.avail_after_pool_bytes},
                  {"max_concurrency", l.max_concurrency}, {"concurrency_tokens_per_request", l.concurrency_tokens_per_request},
                  {"max_running_requests", l.max_running_requests}, {"buffers", buffers}, {"notes", l.notes},
                  {"estimate", est}};
        if (!est_error.empty()) j["estimate_error"] = est_error;
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
        line("max concurrency", format_fixed(l.max_concurrency, 2) + "x at " + format_int(static_cast<double>(l.concurrency_tokens_per_request)) + " tokens per request");
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
    if (!est_error.empty()) {
        out << "estimate: none (" << est_error << ")\n";
        return 0;
    }
    out << "\nlog vs estimate (" << est["model"].get<std::string>() << ", " << est["config"]["gpu"].get<std::string>() << "):\n";
    for (const Component& k : comps) {
        const bool is_count = std::string(k.name) == "kv_tokens";
        char row[200];
        std::snprintf(row, sizeof row, "  %-14s %14s %14s  %+7.1f%%  %s\n", k.name,
                      is_count ? format_int(k.log).c_str() : format_gib(k.log).c_str(),
                      is_count ? format_int(k.estimate).c_str() : format_gib(k.estimate).c_str(),
                      k.log > 0 ? 100.0 * (k.estimate / k.log - 1) : 0.0, k.meaning);
        out << row;
    }
    for (const auto& n : est_notes) out << "note: " << n << '\n';
    return 0;
}

}  // namespace gpusizer::cli
