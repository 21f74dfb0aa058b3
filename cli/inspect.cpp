// inspect.cpp: `gpusizer inspect` and `gpusizer reconcile`.
//
// [SECTION] Files
// [SECTION] inspect: GGUF (any part of a split), .safetensors, or a model folder
// [SECTION] reconcile: an engine's startup log
#include "inspect.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

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

int run_reconcile(const std::vector<std::string>& args, std::ostream& out) {
    const Args a = parse(args, "log file");
    const EngineLog l = read_engine_log(read_text(a.path, 256u << 20));
    if (l.engine.empty())
        throw Error(a.path, "no line of a llama.cpp, Ollama, vLLM or SGLang startup log was recognised");
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
                  {"estimate", nullptr}};
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
    out << "(the estimate beside these figures needs the per-layer model: not done yet)\n";
    return 0;
}

}  // namespace gpusizer::cli
