// cli.cpp: the gpusizer command line.
//
// [SECTION] Flags -> configuration JSON (one validation path: config_from_json)
// [SECTION] Human-readable output
// [SECTION] Commands
#include "cli.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/gpusizer.hpp"
#include "gpusizer/format.hpp"

namespace gpusizer::cli {

using nlohmann::json;

namespace {

const char* const kUsage = R"(gpusizer: GPU memory for LLM inference and training.

Usage:
  gpusizer estimate [--config FILE.json] [KEY FLAGS] [--measured REPORT.json] [--json] [--assumptions] [--check]
  gpusizer fit      [--config FILE.json] [KEY FLAGS] [--measured REPORT.json] [--json]
  gpusizer models   [--json]
  gpusizer gpus     [--json]
  gpusizer formats
  gpusizer --help | --version

  --link LINK             start from a share link (#v=1&m=...), as the app and the web page make
Key flags (each is the configuration key of the same name; docs/config.md):
  --model ID              catalog model (gpusizer models), or:
  --hf-config FILE        a Hugging Face config.json for a custom model
  --num-parameters N      a custom dense model of N parameters (Llama-shaped)
  --mode M                inference | train | lora | qlora
  --weights W             fp32 bf16 fp16 fp8 int8 int4 nf4 q8_0 q6_k q5_k_m q4_k_m q4_0 q3_k_m q2_k
  --kv-cache K            fp32 bf16 fp16 fp8 q8_0 q4_0
  --batch N               sequences per forward pass (micro-batch)
  --global-batch N        sequences per optimizer step (training)
  --context N             tokens per sequence (default 8192)
  --optimizer O           adamw | adamw_8bit | sgd | adafactor
  --zero N                ZeRO stage 0-3
  --offload O             none | optimizer | optimizer+params
  --recompute R           auto | none | selective | full
  --flash-attention B     true | false
  --sequence-parallel B   true | false
  --lora-rank N           LoRA rank
  --lora-targets LIST     all-linear, or q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj
  --gpu ID                catalog GPU (gpusizer gpus)
  --gpus N                number of GPUs
  --tp N --pp N --dp N --ep N   parallel degrees (0 = automatic)
  --runtime R             auto | none | pytorch | llama.cpp | vllm
  --gpu-memory-utilization F    vLLM's fraction (default 0.9)
  --quant-group-size N    int4 group size (default 128)
  --prefill-chunk N       tokens per prefill forward (0 = runtime default)

Other flags:
  --json                  machine-readable output (the report format of docs/config.md)
  --assumptions           list the constants behind the estimate and their sources
  --check                 exit 3 when the configuration does not fit
  --measured FILE         a gpusizer-cuda-bench report: its measured bandwidth, TFLOPS, link speeds,
                          CUDA context and memory replace the GPU's datasheet figures (without
                          --gpu, the report's GPU is used)
  --assets DIR            where gpus.json and models.json are (default: found automatically)

Exit codes: 0 done, 2 bad input (one line names the key), 3 does not fit (--check), 1 internal error.
)";

// ---------------------------------------------------------------------------------------------
// [SECTION] Flags -> configuration JSON
// ---------------------------------------------------------------------------------------------

enum class Kind { text, integer, number, boolean, list };

struct FlagSpec {
    const char* flag;   // without the leading "--", dashes
    const char* key;    // configuration key
    Kind kind;
};

constexpr FlagSpec kFlags[] = {
    {"model", "model", Kind::text},
    {"mode", "mode", Kind::text},
    {"weights", "weights", Kind::text},
    {"kv-cache", "kv_cache", Kind::text},
    {"batch", "batch", Kind::integer},
    {"global-batch", "global_batch", Kind::integer},
    {"context", "context", Kind::integer},
    {"optimizer", "optimizer", Kind::text},
    {"zero", "zero", Kind::integer},
    {"offload", "offload", Kind::text},
    {"recompute", "recompute", Kind::text},
    {"flash-attention", "flash_attention", Kind::boolean},
    {"sequence-parallel", "sequence_parallel", Kind::boolean},
    {"lora-rank", "lora_rank", Kind::integer},
    {"lora-targets", "lora_targets", Kind::list},
    {"gpu", "gpu", Kind::text},
    {"gpus", "gpus", Kind::integer},
    {"tp", "tp", Kind::integer},
    {"pp", "pp", Kind::integer},
    {"dp", "dp", Kind::integer},
    {"ep", "ep", Kind::integer},
    {"runtime", "runtime", Kind::text},
    {"gpu-memory-utilization", "gpu_memory_utilization", Kind::number},
    {"quant-group-size", "quant_group_size", Kind::integer},
    {"prefill-chunk", "prefill_chunk", Kind::integer},
};

std::string normalize_flag(std::string f) {
    for (char& c : f)
        if (c == '_') c = '-';
    return f;
}

json flag_value(const FlagSpec& spec, const std::string& text) {
    const std::string name = std::string("--") + spec.flag;
    switch (spec.kind) {
        case Kind::text: return text;
        case Kind::integer: {
            std::size_t used = 0;
            long long v = 0;
            try {
                v = std::stoll(text, &used);
            } catch (...) {
                used = 0;
            }
            if (used == 0 || used != text.size()) throw Error(name, "must be an integer, got '" + text + "'");
            return v;
        }
        case Kind::number: {
            std::size_t used = 0;
            double v = 0;
            try {
                v = std::stod(text, &used);
            } catch (...) {
                used = 0;
            }
            if (used == 0 || used != text.size() || !std::isfinite(v)) throw Error(name, "must be a number, got '" + text + "'");
            return v;
        }
        case Kind::boolean:
            if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
            if (text == "false" || text == "0" || text == "no" || text == "off") return false;
            throw Error(name, "must be true or false, got '" + text + "'");
        case Kind::list: {
            json arr = json::array();
            std::stringstream ss(text);
            std::string item;
            while (std::getline(ss, item, ','))
                if (!item.empty()) arr.push_back(item);
            if (arr.size() == 1) return arr[0];
            return arr;
        }
    }
    return text;
}

std::string read_text_file(const std::string& path, const char* flag) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(flag, "cannot read '" + path + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Options {
    std::string command;
    json config = json::object();
    bool json_out = false;
    bool show_assumptions = false;
    bool check = false;
    std::string assets;
    std::string measured;   // --measured: a gpusizer-cuda-bench report
};

Options parse_args(const std::vector<std::string>& args) {
    Options o;
    if (args.empty()) return o;
    o.command = args[0];
    json flags = json::object();
    std::string config_file, link;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("--", 0) != 0) throw Error(a, "unexpected argument; flags start with -- (see gpusizer --help)");
        std::string name = normalize_flag(a.substr(2));
        std::string value;
        bool has_value = false;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = a.substr(2 + eq + 1);
            name = name.substr(0, eq);
            has_value = true;
        }
        auto next = [&]() -> std::string {
            if (has_value) return value;
            if (i + 1 >= args.size()) throw Error("--" + name, "needs a value");
            return args[++i];
        };
        if (name == "json") { o.json_out = true; continue; }
        if (name == "assumptions") { o.show_assumptions = true; continue; }
        if (name == "check") { o.check = true; continue; }
        if (name == "no-flash-attention") { flags["flash_attention"] = false; continue; }
        if (name == "config") { config_file = next(); continue; }
        if (name == "link") { link = next(); continue; }
        if (name == "assets") { o.assets = next(); continue; }
        if (name == "measured") { o.measured = next(); continue; }
        if (name == "hf-config") {
            const std::string path = next();
            json hf;
            try {
                hf = json::parse(read_text_file(path, "--hf-config"));
            } catch (const json::exception& e) {
                throw Error("--hf-config", "'" + path + "' is not valid JSON: " + e.what());
            }
            flags["model"] = json{{"hf_config", hf}};
            continue;
        }
        if (name == "num-parameters") {
            const std::string v = next();
            std::size_t used = 0;
            double n = 0;
            try { n = std::stod(v, &used); } catch (...) { used = 0; }
            if (used == 0 || used != v.size() || !std::isfinite(n)) throw Error("--num-parameters", "must be a number such as 7e9, got '" + v + "'");
            flags["model"] = json{{"num_parameters", n}};
            continue;
        }
        const FlagSpec* spec = nullptr;
        for (const auto& f : kFlags)
            if (name == f.flag) spec = &f;
        if (!spec) throw Error("--" + name, "unknown flag (see gpusizer --help)");
        flags[spec->key] = flag_value(*spec, next());
    }
    if (!config_file.empty() && !link.empty()) throw Error("--link", "give either --config or --link, not both");
    if (!link.empty()) o.config = json::parse(config_to_json(config_from_link(link)));
    if (!config_file.empty()) {
        try {
            o.config = json::parse(read_text_file(config_file, "--config"));
        } catch (const json::exception& e) {
            throw Error("--config", "'" + config_file + "' is not valid JSON: " + e.what());
        }
        if (!o.config.is_object()) throw Error("--config", "'" + config_file + "' must hold a JSON object");
    }
    for (auto it = flags.begin(); it != flags.end(); ++it) o.config[it.key()] = it.value();   // flags override the file
    return o;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Human-readable output
// ---------------------------------------------------------------------------------------------

void print_row(std::ostream& out, const char* name, double bytes, const std::string& note = {}) {
    out << "  " << std::left << std::setw(14) << name << std::right << std::setw(12) << format_gib(bytes);
    if (!note.empty()) out << "   " << note;
    out << '\n';
}

// A measured figure with its unit, for people.
std::string format_measured(double v, const std::string& unit) {
    std::ostringstream os;
    if (unit == "bytes") return format_gib(v);
    if (unit == "MiB") return format_gib(v * 1024.0 * 1024.0);
    if (unit == "GB/s") os << format_int(std::round(v)) << " GB/s";
    else os << std::fixed << std::setprecision(1) << v << ' ' << unit;
    return os.str();
}

// A calibrated figure's name for people (the JSON keeps the Gpu field's name).
std::string figure_label(const std::string& key) {
    if (key == "memory_bandwidth_gb_per_s") return "memory bandwidth";
    if (key == "fp32_tflops") return "FP32 (CUDA cores)";
    if (key.rfind("tensor_tflops_dense.", 0) == 0) {
        std::string p = key.substr(20);
        for (char& ch : p) ch = char(std::toupper(static_cast<unsigned char>(ch)));
        return "tensor " + p;
    }
    if (key == "memory_total_mib") return "memory CUDA can use";
    if (key == "measured_pcie_gb_per_s") return "PCIe, per direction";
    if (key == "nvlink_gb_per_s") return "NVLink, both directions";
    if (key == "measured_cuda_context_bytes") return "CUDA context";
    return key;
}

// Measured next to datasheet, for a report calibrated by --measured.
void print_measured(std::ostream& out, const Calibration& m) {
    out << "\n  measured (" << m.file << ": " << m.device_name;
    if (!m.mode.empty()) out << ", " << m.mode;
    if (!m.created_utc.empty()) out << ", " << m.created_utc;
    out << ")\n";
    out << "  " << std::left << std::setw(24) << "" << std::right << std::setw(16) << "datasheet" << std::setw(16) << "measured"
        << '\n';
    for (const auto& f : m.figures) {
        out << "  " << std::left << std::setw(24) << figure_label(f.key) << std::right << std::setw(16)
            << (f.datasheet > 0 ? format_measured(f.datasheet, f.unit) : std::string("-")) << std::setw(16)
            << format_measured(f.measured, f.unit);
        if (f.datasheet > 0) out << std::setw(6) << int(std::lround(100.0 * f.measured / f.datasheet)) << '%';
        else if (f.key == "measured_cuda_context_bytes") out << "   in place of the runtime profile's constant";
        out << '\n';
    }
    if (!m.datasheet_only.empty()) {
        out << "  datasheet only:";
        for (std::size_t i = 0; i < m.datasheet_only.size(); ++i) out << (i ? ", " : " ") << m.datasheet_only[i];
        out << '\n';
    }
    for (const auto& n : m.notes) out << "  note: " << n << '\n';
}

void print_report(std::ostream& out, const Report& r) {
    const Config& c = r.config;
    const int gpus = c.gpus;
    out << r.model_name << " on " << gpus << " x " << r.gpu_name << '\n';
    out << "  " << to_string(c.mode) << ", weights " << c.weights << ", KV " << c.kv_cache << ", batch " << c.batch
        << ", context " << format_int(double(c.context)) << " tokens, runtime " << to_string(c.runtime) << '\n';
    out << "  tp " << r.parallel.tp << ", pp " << r.parallel.pp << ", dp " << r.parallel.dp << ", ep " << r.parallel.ep;
    if (c.mode != Mode::inference)
        out << "; optimizer " << to_string(c.optimizer) << ", ZeRO " << c.zero << ", recompute " << to_string(c.recompute);
    out << "\n\n";
    out << "  memory per GPU (most loaded)\n";
    const MemoryParts& m = r.per_gpu;
    print_row(out, "weights", m.weights);
    print_row(out, "kv_cache", m.kv_cache);
    print_row(out, "activations", m.activations, r.activations_per_layer > 0 ? format_gib(r.activations_per_layer) + " per layer" : "");
    print_row(out, "gradients", m.gradients);
    print_row(out, "optimizer", m.optimizer);
    print_row(out, "overhead", m.overhead,
              "context " + format_gib(r.overhead_detail.cuda_context) + ", allocator " + format_gib(r.overhead_detail.allocator_reserve) +
                  ", buffers " + format_gib(r.overhead_detail.runtime_buffers));
    out << "  " << std::string(26, '-') << '\n';
    print_row(out, "total", m.total(), "of " + format_gib(r.gpu_usable) + " usable");
    out << '\n';
    if (r.fits) out << "  FITS, headroom " << format_gib(r.headroom) << '\n';
    else out << "  DOES NOT FIT: " << format_gib(-r.headroom) << " short per GPU\n";
    out << '\n';
    out << "  parameters " << format_count(r.params);
    if (r.active_params < r.params * 0.999) out << " (active " << format_count(r.active_params) << ")";
    if (r.trainable_params > 0) out << ", trainable " << format_count(r.trainable_params);
    out << ", " << std::fixed << std::setprecision(2) << r.weights_bits_per_param << " bits per parameter\n";
    out.unsetf(std::ios::fixed);
    if (r.kv_bytes_per_token > 0 && c.mode == Mode::inference)
        out << "  KV cache " << format_bytes_short(r.kv_bytes_per_token) << " per token; room for "
            << format_int(r.kv_capacity_tokens) << " tokens on this GPU\n";
    if (r.host > 0)
        out << "  host RAM " << format_gib(r.host)
            << (c.offload != Offload::none ? " in all (offloaded optimizer state)\n" : " (llama.cpp keeps the token embeddings on the CPU)\n");
    if (!r.warnings.empty()) {
        out << "\n  warnings:\n";
        for (const auto& w : r.warnings) out << "  - " << w << '\n';
    }
    if (r.measured) print_measured(out, *r.measured);
}

void print_assumptions(std::ostream& out, const std::vector<Assumption>& items) {
    out << "\n  assumptions:\n";
    for (const auto& a : items) out << "  - " << a.name << ": " << a.value << "\n      source: " << a.source << '\n';
}

void print_fit(std::ostream& out, const FitReport& f) {
    print_report(out, f.base);
    out << "\n  longest context at batch " << f.base.config.batch << ": " << format_int(double(f.max_context)) << " tokens\n";
    out << "  largest batch at context " << format_int(double(f.base.config.context)) << ": " << format_int(double(f.max_batch)) << '\n';
    out << "  best weights that fit: " << (f.best_weights.empty() ? "none" : f.best_weights) << '\n';
    out << "  best KV cache that fits: " << (f.best_kv_cache.empty() ? "none" : f.best_kv_cache) << "\n\n";
    out << "  " << std::left << std::setw(10) << "weights" << std::right << std::setw(12) << "per GPU" << std::setw(8) << "fits"
        << std::setw(16) << "max context" << '\n';
    for (const auto& row : f.by_weights)
        out << "  " << std::left << std::setw(10) << row.format << std::right << std::setw(12) << format_gib(row.total)
            << std::setw(8) << (row.fits ? "yes" : "no") << std::setw(16) << format_int(double(row.max_context)) << '\n';
    out << '\n' << "  " << std::left << std::setw(10) << "KV cache" << std::right << std::setw(12) << "per GPU" << std::setw(8)
        << "fits" << std::setw(16) << "max context" << '\n';
    for (const auto& row : f.by_kv_cache)
        out << "  " << std::left << std::setw(10) << row.format << std::right << std::setw(12) << format_gib(row.total)
            << std::setw(8) << (row.fits ? "yes" : "no") << std::setw(16) << format_int(double(row.max_context)) << '\n';
}

void print_models(std::ostream& out, const Catalog& cat) {
    out << std::left << std::setw(32) << "id" << std::right << std::setw(11) << "params" << std::setw(11) << "active"
        << std::setw(10) << "context" << "  name\n";
    for (const auto& m : cat.models) {
        const ParamCounts pc = count_params(m.arch);
        out << std::left << std::setw(32) << m.arch.id << std::right << std::setw(11) << format_count(pc.total()) << std::setw(11)
            << format_count(pc.active(m.arch)) << std::setw(10) << format_int(m.context_trained) << "  " << m.arch.name << '\n';
    }
}

void print_gpus(std::ostream& out, const Catalog& cat) {
    out << std::left << std::setw(20) << "id" << std::right << std::setw(11) << "memory" << std::setw(10) << "GB/s"
        << std::setw(11) << "bf16 TF" << std::setw(8) << "W" << std::setw(10) << "USD" << "  name\n";
    for (const auto& g : cat.gpus) {
        std::ostringstream price;
        if (g.price_usd) price << std::fixed << std::setprecision(0) << *g.price_usd; else price << "-";
        std::ostringstream bf16;
        bf16 << std::fixed << std::setprecision(1) << (g.tensor_tflops_dense.bf16 > 0 ? g.tensor_tflops_dense.bf16 : g.tensor_tflops_dense.fp16);
        out << std::left << std::setw(20) << g.id << std::right << std::setw(11) << format_gib(g.capacity_bytes(), 1) << std::setw(10)
            << g.memory_bandwidth_gb_per_s << std::setw(11) << bf16.str() << std::setw(8) << (g.tdp_w > 0 ? std::to_string(int(g.tdp_w)) : "-")
            << std::setw(10) << price.str() << "  " << g.name << '\n';
    }
}

void print_formats(std::ostream& out) {
    out << "weights:\n";
    for (const auto& f : weight_formats()) out << "  " << std::left << std::setw(8) << f.id << "  " << f.label << '\n';
    out << "kv_cache:\n";
    for (const auto& k : kv_formats())
        out << "  " << std::left << std::setw(8) << k.id << "  " << k.bytes << " bytes per value" << (k.llama_cpp_only ? " (llama.cpp)" : "") << '\n';
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Commands
// ---------------------------------------------------------------------------------------------

Catalog load(const Options& o, const char* argv0) {
    return load_catalog(o.assets.empty() ? find_assets_dir(argv0) : o.assets);
}

}  // namespace

int run(const std::vector<std::string>& args, const char* argv0, std::ostream& out, std::ostream& err) {
    try {
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            out << kUsage;
            return args.empty() ? kExitBadInput : kExitOk;
        }
        if (args[0] == "--version") {
            out << "gpusizer 0.1.0\n";
            return kExitOk;
        }
        const Options o = parse_args(args);
        if (o.command == "models" || o.command == "gpus") {
            const Catalog cat = load(o, argv0);
            if (o.command == "models") { if (o.json_out) out << models_to_json(cat) << '\n'; else print_models(out, cat); }
            else { if (o.json_out) out << gpus_to_json(cat) << '\n'; else print_gpus(out, cat); }
            return kExitOk;
        }
        if (o.command == "formats") {
            print_formats(out);
            return kExitOk;
        }
        if (o.command == "estimate" || o.command == "fit") {
            Catalog cat = load(o, argv0);
            json config_json = o.config;
            if (!o.measured.empty()) {
                // The report's GPU is the default GPU; the datasheet figures of the configured GPU
                // are replaced by what the report measured (gpusizer/measured.hpp).
                const MeasuredReport measured = load_measured_report(o.measured);
                if (!config_json.contains("gpu") || config_json["gpu"].is_null())
                    for (const auto& d : measured.devices)
                        if (!d.catalog_id.empty()) {
                            config_json["gpu"] = d.catalog_id;
                            break;
                        }
                const Config probe = config_from_json(config_json.dump(-1, ' ', false, json::error_handler_t::replace));
                cat = calibrated_catalog(cat, measured, probe.gpu, o.measured);
            }
            const Config config = config_from_json(config_json.dump(-1, ' ', false, json::error_handler_t::replace));
            if (o.command == "estimate") {
                const Report r = estimate(config, cat);
                if (o.json_out) {
                    if (o.show_assumptions) {
                        json j = json::parse(report_to_json(r));
                        j["assumptions"] = json::parse(assumptions_to_json(assumptions(r)));
                        out << j.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
                    } else {
                        out << report_to_json(r) << '\n';
                    }
                } else {
                    print_report(out, r);
                    // The link of the configuration as given: defaults stay defaults ("auto" stays auto).
                    out << "\n  share link: " << link_from_config(config) << '\n';
                    if (o.show_assumptions) print_assumptions(out, assumptions(r));
                }
                return (o.check && !r.fits) ? kExitDoesNotFit : kExitOk;
            }
            const FitReport f = fit(config, cat);
            if (o.json_out) out << fit_to_json(f) << '\n'; else print_fit(out, f);
            return kExitOk;
        }
        throw Error(o.command, "unknown command; commands: estimate, fit, models, gpus, formats (see gpusizer --help)");
    } catch (const Error& e) {
        err << "gpusizer: error: " << e.what() << '\n';
        return kExitBadInput;
    } catch (const std::exception& e) {
        err << "gpusizer: internal error: " << e.what() << '\n';
        return kExitInternal;
    }
}

}  // namespace gpusizer::cli
