// args.cpp: the gpusizer command line's usage text and flags -> configuration JSON (one
// validation path: config_from_json).
//
// [SECTION] Usage
// [SECTION] Flags -> configuration JSON
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_internal.hpp"

namespace gpusizer::cli {

using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Usage
// ---------------------------------------------------------------------------------------------

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

namespace {

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

}  // namespace

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

}  // namespace gpusizer::cli
