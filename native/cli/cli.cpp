// cli.cpp: the gpusizer command line.
//
// [SECTION] Flags -> configuration JSON (one validation path: config_from_json)
// [SECTION] Human-readable output
// [SECTION] Commands
#include "cli.hpp"
#include "inspect.hpp"

#include <algorithm>
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

const char* const kUsage = R"(gpusizer: GPU memory, speed, interconnect and power for LLM inference and training.

Usage:
  gpusizer estimate [--config FILE.json] [KEY FLAGS] [--measured REPORT.json] [--json] [--assumptions] [--check]
  gpusizer fit      [--config FILE.json] [KEY FLAGS] [--measured REPORT.json] [--json]
  gpusizer recommend [--config FILE.json] [KEY FLAGS] [CONSTRAINTS] [--measured REPORT.json] [--json]
  gpusizer models   [--json]
  gpusizer gpus     [--json]
  gpusizer links    [--json]
  gpusizer formats
  gpusizer inspect PATH [--json]     what a GGUF (any split part), .safetensors or model folder holds
  gpusizer reconcile LOGFILE [--json]  what a llama.cpp / Ollama / vLLM / SGLang startup log says
  gpusizer --help | --version

  --share-link LINK       start from a share link (#v=1&m=...), as the app and the web page make
                          (--link takes one too: a value with '=' in it is a share link, not a link id)
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
  --prompt-tokens N       prompt length for prefill and time to first token (default: half the context)
  --train-tokens N        tokens to train on (e.g. 1e12), for the time, energy and cost of the run
  --mfu F                 fraction of the dense tensor peak reached (default 0.45 training, 0.5 prefill)
  --bandwidth-efficiency F   fraction of memory bandwidth decode reaches (default 0.9 llama.cpp, else 0.75 / 0.6 quantized)
  --utilization F         fraction of board power drawn on average (default 1)
  --pue F                 power usage effectiveness (default 1.58 data center GPUs, else 1)
  --usd-per-kwh F         electricity price (default 0.15)
  --link ID               GPU-to-GPU link inside a node (gpusizer links; default: the GPU's own)
  --inter-node-link ID    link between nodes (default: NDR/HDR InfiniBand for HGX-class GPUs, else 100 GbE)
  --host-memory-bandwidth F   host RAM GB/s for llama.cpp offload (default 76.8, dual-channel DDR5-4800)
  --layer-overhead-us F   fixed time per layer per forward (default 90 for llama.cpp, else 0)

Recommend constraints (gpusizer recommend):
  --budget USD            GPU prices x count at most
  --power-cap W           system power (GPUs + hosts) at most
  --min-tokens-per-s N    decode tokens/s of one sequence (training: training tokens/s) at least
  --single-node           only as many GPUs as one node holds
  --segment LIST          consumer,workstation,datacenter,apple (default: all)
  --max-gpus N            GPU counts tried: 1..N (default 8)
  --sort S                cost | speed | power (default cost)

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
    {"prompt-tokens", "prompt_tokens", Kind::integer},
    {"train-tokens", "train_tokens", Kind::number},
    {"mfu", "mfu", Kind::number},
    {"bandwidth-efficiency", "bandwidth_efficiency", Kind::number},
    {"utilization", "utilization", Kind::number},
    {"pue", "pue", Kind::number},
    {"usd-per-kwh", "usd_per_kwh", Kind::number},
    {"link", "link", Kind::text},
    {"inter-node-link", "inter_node_link", Kind::text},
    {"host-memory-bandwidth", "host_memory_bandwidth_gb_per_s", Kind::number},
    {"layer-overhead-us", "layer_overhead_us", Kind::number},
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
    RecommendQuery query;     // recommend: the constraints (query.base is filled from `config`)
};

double positive_number(const std::string& flag, const std::string& text, double max) {
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (...) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(v) || v < 0 || v > max) {
        char range[64];
        std::snprintf(range, sizeof range, "%g", max);
        throw Error(flag, "must be a number from 0 to " + std::string(range) + ", got '" + text + "'");
    }
    return v;
}

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
        if (o.command == "recommend") {
            if (name == "budget") { o.query.budget_usd = positive_number("--budget", next(), 1e12); continue; }
            if (name == "power-cap") { o.query.power_cap_w = positive_number("--power-cap", next(), 1e9); continue; }
            if (name == "min-tokens-per-s") { o.query.min_tokens_per_s = positive_number("--min-tokens-per-s", next(), 1e12); continue; }
            if (name == "single-node") { o.query.single_node = true; continue; }
            if (name == "sort") { o.query.sort = parse_recommend_sort(next()); continue; }
            if (name == "max-gpus") {
                const std::string v = next();
                const double n = positive_number("--max-gpus", v, 1024);
                if (n < 1 || n > 1024 || n != std::floor(n)) throw Error("--max-gpus", "must be an integer from 1 to 1024, got '" + v + "'");
                o.query.max_gpus = int(n);
                continue;
            }
            if (name == "segment") {
                std::stringstream ss(next());
                std::string item;
                while (std::getline(ss, item, ','))
                    if (!item.empty()) o.query.segments.push_back(parse_segment(item));
                continue;
            }
        }
        if (name == "config") { config_file = next(); continue; }
        if (name == "share-link") { link = next(); continue; }
        if (name == "link") {
            // `--link` is the configuration key `link` (an interconnect id: pcie4, nvlink4, ...);
            // a share link (#v=1&m=..., a URL) has '=' in it, which no link id has.
            const std::string v = next();
            if (v.find('=') != std::string::npos) link = v;
            else flags["link"] = v;
            continue;
        }
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
    if (!config_file.empty() && !link.empty()) throw Error("--share-link", "give either --config or a share link, not both");
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

// Measured next to datasheet, for a report calibrated by --measured.
void print_measured(std::ostream& out, const Calibration& m) {
    out << "\n  measured (" << m.file << ": " << m.device_name;
    if (!m.mode.empty()) out << ", " << m.mode;
    if (!m.created_utc.empty()) out << ", " << m.created_utc;
    out << ")\n";
    out << "  " << std::left << std::setw(24) << "" << std::right << std::setw(16) << "datasheet" << std::setw(16) << "measured"
        << '\n';
    for (const auto& f : m.figures) {
        out << "  " << std::left << std::setw(24) << measured_figure_label(f.key) << std::right << std::setw(16)
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

// The shared formatters under the short names this file reads best with.
std::string fixed(double v, int decimals) { return format_fixed(v, decimals); }
std::string duration(double s) { return format_duration(s); }
std::string rate(double tokens_per_s) { return format_rate(tokens_per_s); }
std::string gb_per_s(double bytes_per_s) { return format_bandwidth(bytes_per_s); }
std::string watts(double w) { return format_watts(w); }

void print_performance(std::ostream& out, const Report& r) {
    const Config& c = r.config;
    const SpeedReport& s = r.speed;
    const InterconnectReport& ic = r.interconnect;
    const PowerReport& p = r.power;
    const bool training = c.mode != Mode::inference;
    out << "\n  speed (roofline: " << fixed(s.mfu * 100, 0) << "% of " << fixed(s.peak_flops / 1e12, 1) << " TFLOPS "
        << s.compute_precision << (s.tensor_cores ? "" : " without tensor cores");
    if (!training) out << ", " << fixed(s.bandwidth_efficiency * 100, 0) << "% of memory bandwidth";
    out << ")\n";
    if (!training) {
        out << "  decode        " << rate(s.decode_tokens_per_s) << " tokens/s per sequence";
        if (c.batch > 1 || r.parallel.dp > 1) out << ", " << rate(s.decode_throughput_tokens_per_s) << " tokens/s in all";
        out << (s.decode_compute_bound ? " (compute-bound)" : " (memory-bound)") << '\n';
        out << "  prefill       " << rate(s.prefill_tokens_per_s) << " tokens/s; time to first token " << duration(s.ttft_s) << " for "
            << format_int(double(c.prompt_tokens)) << " prompt tokens" << (c.batch > 1 ? " x " + std::to_string(c.batch) : "") << '\n';
        if (s.offload.active)
            out << "  offload       " << s.offload.gpu_layers << " of " << s.offload.total_layers << " layers on the GPUs, "
                << format_gib(s.offload.host_bytes) << " in RAM: " << rate(s.offload.decode_tokens_per_s) << " tokens/s"
                << (s.offload.experts_on_host_decode_tokens_per_s > 0
                        ? "; experts in RAM: " + rate(s.offload.experts_on_host_decode_tokens_per_s) + " tokens/s"
                        : std::string())
                << '\n';
    } else {
        out << "  training      " << rate(s.train_tokens_per_s) << " tokens/s, " << duration(s.train_step_s) << " per step";
        if (s.train_time_s > 0) out << "; " << format_count(c.train_tokens) << " tokens in " << duration(s.train_time_s);
        out << "\n  effective MFU " << fixed(s.effective_mfu * 100, 1) << "% (bubble and exposed communication included)\n";
    }
    if (c.gpus > 1 && !ic.link.empty()) {
        out << "\n  interconnect: " << ic.link << " (" << gb_per_s(ic.link_bandwidth_bytes_per_s) << " per direction)";
        if (ic.nodes > 1) out << ", " << ic.nodes << " nodes over " << ic.inter_node_link;
        out << '\n';
        if (ic.allreduce_busbw_bytes_per_s > 0) out << "  all-reduce bus bandwidth " << gb_per_s(ic.allreduce_busbw_bytes_per_s) << '\n';
        if (!training) {
            if (ic.tp_comm_s_per_token > 0) out << "  tensor parallel   " << duration(ic.tp_comm_s_per_token) << " per token\n";
            if (ic.pp_comm_s_per_token > 0) out << "  pipeline sends    " << duration(ic.pp_comm_s_per_token) << " per token\n";
            if (ic.ep_comm_s_per_token > 0) out << "  expert all-to-all " << duration(ic.ep_comm_s_per_token) << " per token\n";
        } else {
            if (ic.tp_comm_s_per_step > 0) out << "  tensor parallel   " << duration(ic.tp_comm_s_per_step) << " per step\n";
            if (ic.pp_comm_s_per_step > 0) out << "  pipeline sends    " << duration(ic.pp_comm_s_per_step) << " per step, bubble "
                                               << fixed(ic.pp_bubble_fraction * 100, 1) << "%\n";
            if (ic.ep_comm_s_per_step > 0) out << "  expert all-to-all " << duration(ic.ep_comm_s_per_step) << " per step\n";
            if (ic.dp_allreduce_s_per_step > 0)
                out << "  gradient sync     " << duration(ic.dp_allreduce_s_per_step) << " per step, "
                    << (ic.dp_exposed_s_per_step > 0 ? duration(ic.dp_exposed_s_per_step) + " not hidden by the backward pass"
                                                     : std::string("hidden behind the backward pass"))
                    << '\n';
        }
        const LinkTimes& a = ic.alternative;
        if (!a.link.empty()) {
            out << "  over " << a.link << (a.hypothetical ? " (hypothetical: this GPU has none)" : "") << ": ";
            if (!training) out << rate(a.decode_tokens_per_s) << " tokens/s decode, " << duration(a.exposed_s) << " communication per token\n";
            else out << rate(a.train_tokens_per_s) << " training tokens/s, " << duration(a.exposed_s) << " exposed communication per step\n";
        }
    }
    out << "\n  power: GPUs " << watts(p.gpu_w) << " + host " << watts(p.host_w) << " = " << watts(p.system_w);
    if (p.pue > 1) out << ", x PUE " << fixed(p.pue, 2) << " = " << watts(p.facility_w);
    out << "\n  PSU " << watts(p.psu_w) << (r.interconnect.nodes > 1 ? " per node" : "") << " (transients included); heat "
        << watts(p.heat_w) << " = "
        << format_int(std::round(p.heat_btu_h)) << " BTU/h\n";
    if (p.energy_kwh_per_million_tokens > 0)
        out << "  energy " << fixed(p.energy_kwh_per_million_tokens, 3) << " kWh per million tokens ($"
            << fixed(p.cost_usd_per_million_tokens, 3) << " at $" << fixed(c.usd_per_kwh, 2) << "/kWh), "
            << fixed(p.tokens_per_joule, p.tokens_per_joule < 1 ? 3 : 2) << " tokens/J\n";
    if (training && s.train_time_s > 0)
        out << "  training run " << format_int(std::round(p.energy_kwh)) << " kWh, $" << format_int(std::round(p.cost_usd)) << " of electricity\n";
    if (p.hardware_price_known) out << "  GPUs $" << format_int(p.hardware_usd) << '\n';
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
    print_performance(out, r);
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

void print_links(std::ostream& out, const Catalog& cat) {
    out << std::left << std::setw(16) << "id" << std::setw(12) << "scope" << std::right << std::setw(10) << "GB/s/dir" << std::setw(10)
        << "bidir" << std::setw(9) << "lat us" << std::setw(8) << "GPUs" << "  name\n";
    for (const auto& l : cat.links)
        out << std::left << std::setw(16) << l.id << std::setw(12) << scope_name(l.scope) << std::right << std::setw(10) << l.bandwidth_gb_per_s
            << std::setw(10) << l.bidirectional_gb_per_s << std::setw(9) << l.latency_us << std::setw(8)
            << (l.scope == LinkScope::inter_node ? std::string("-") : std::to_string(l.gpus_per_node)) << "  " << l.name << '\n';
}

void print_recommendation(std::ostream& out, const Recommendation& rec, const Catalog& cat) {
    const std::string& model = rec.query.base.model.custom ? std::string("custom model") : cat.model(rec.query.base.model.id).arch.name;
    out << model << ", " << to_string(rec.query.base.mode) << ", weights " << rec.weights << ", GPU counts 1-" << rec.query.max_gpus
        << ", sorted by " << to_string(rec.query.sort) << '\n';
    const char* metric = rec.training ? "train tok/s" : "tok/s";
    out << '\n' << "  " << std::left << std::setw(20) << "gpu" << std::right << std::setw(5) << "n" << std::setw(12) << "USD"
        << std::setw(13) << metric << std::setw(10) << "power" << std::setw(12) << "per GPU" << "  link\n";
    for (const auto& r : rec.recommended)
        out << "  " << std::left << std::setw(20) << r.gpu << std::right << std::setw(5) << r.gpus << std::setw(12)
            << (r.price_known ? format_int(r.price_usd) : std::string("?")) << std::setw(13) << rate(r.tokens_per_s) << std::setw(10)
            << watts(r.system_w) << std::setw(12) << format_gib(r.per_gpu_total, 1) << "  " << (r.link.empty() ? "-" : r.link) << '\n';
    if (rec.recommended.empty()) out << "  (no configuration meets every constraint)\n";
    if (!rec.rejected.empty()) {
        out << "\n  not recommended:\n";
        int other_classes = 0;
        for (const auto& r : rec.rejected) {
            if (r.reasons.size() == 1 && r.reasons.front().find("not in the classes asked") != std::string::npos) {
                ++other_classes;   // listed in --json; one line here
                continue;
            }
            out << "  - " << std::left << std::setw(18) << r.gpu << std::right << " x" << r.gpus << ": ";
            for (std::size_t i = 0; i < r.reasons.size(); ++i) out << (i ? "; " : "") << r.reasons[i];
            out << '\n';
        }
        if (other_classes > 0) out << "  - " << other_classes << " GPUs of other classes than --segment asks (listed with --json)\n";
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
        if (args[0] == "inspect") return run_inspect(args, out);
        if (args[0] == "reconcile") return run_reconcile(args, out);
        const Options o = parse_args(args);
        if (o.command == "models" || o.command == "gpus" || o.command == "links") {
            const Catalog cat = load(o, argv0);
            if (o.command == "models") { if (o.json_out) out << models_to_json(cat) << '\n'; else print_models(out, cat); }
            else if (o.command == "gpus") { if (o.json_out) out << gpus_to_json(cat) << '\n'; else print_gpus(out, cat); }
            else { if (o.json_out) out << links_to_json(cat) << '\n'; else print_links(out, cat); }
            return kExitOk;
        }
        if (o.command == "recommend") {
            Catalog cat = load(o, argv0);
            if (!o.measured.empty()) {
                // Every catalog GPU the report measured gets its measured figures; the others
                // keep their datasheets.
                const MeasuredReport measured = load_measured_report(o.measured);
                std::vector<std::string> ids;
                for (const auto& d : measured.devices)
                    if (!d.catalog_id.empty() && cat.find_gpu(d.catalog_id) &&
                        std::find(ids.begin(), ids.end(), d.catalog_id) == ids.end())
                        ids.push_back(d.catalog_id);
                if (ids.empty())
                    throw Error("measured", o.measured + " measured no catalog GPU: a recommendation has nothing to calibrate");
                for (const auto& id : ids) cat = calibrated_catalog(cat, measured, id, o.measured);
            }
            RecommendQuery q = o.query;
            q.base = config_from_json(o.config.dump());
            const Recommendation rec = recommend(q, cat);
            if (o.json_out) out << recommend_to_json(rec) << '\n'; else print_recommendation(out, rec, cat);
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
                Report r = estimate(config, cat);
                r.interconnect.alternative = alternative_link(config, cat);
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
        throw Error(o.command, "unknown command; commands: estimate, fit, recommend, models, gpus, links, formats (see gpusizer --help)");
    } catch (const Error& e) {
        err << "gpusizer: error: " << e.what() << '\n';
        return kExitBadInput;
    } catch (const std::exception& e) {
        err << "gpusizer: internal error: " << e.what() << '\n';
        return kExitInternal;
    }
}

}  // namespace gpusizer::cli
