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
#include "gpusizer/config_keys.hpp"

namespace gpusizer::cli {

using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Usage
// ---------------------------------------------------------------------------------------------

namespace {

const char* const kUsageHead = R"(gpusizer: GPU memory, speed, interconnect and power for LLM inference and training.

Usage:
  gpusizer estimate [--config FILE.json] [KEY FLAGS] [--measured REPORT.json] [--json] [--assumptions] [--check]
                    [--emit vllm|llama-cpp|sglang|ollama|trt-llm]
  gpusizer fit      [--config FILE.json] [KEY FLAGS] [--measured REPORT.json] [--json]
  gpusizer recommend [--config FILE.json] [KEY FLAGS] [CONSTRAINTS] [--measured REPORT.json] [--json]
  gpusizer plan --mode train --gpus N --global-batch N [KEY FLAGS] [--top N] [--max-micro-batch N]
                    [--max-virtual-stages N] [--tokens D] [--no-offload] [--no-ep] [--no-cp]
                    [--measured REPORT.json] [--json]
                    the fastest training layouts that fit (tp, cp, pp, dp, ZeRO, ep, micro-batch,
                    schedule, recompute, offload) and the time and cost to train on D tokens
  gpusizer plan --mode inference --gpus N --isl N --osl N [KEY FLAGS] [--top N] [--max-ttft-ms MS]
                    [--max-tpot-ms MS] [--disaggregated] [--target-rps R [--percentile 50|90|99] [--cheapest-gpu]]
                    [--measured REPORT.json] [--json]
                    serving layouts (tp, pp, dp, ep, requests in flight): the Pareto front of
                    tokens/s per GPU against per user, the best under the TTFT and TPOT targets;
                    with --target-rps: the fewest GPUs meeting them at that percentile, simulated;
                    --cheapest-gpu: on every catalog GPU type, ranked by cost per million tokens
  gpusizer simulate --isl N --osl N [--request-rate R] [KEY FLAGS] [--requests N] [--seed S]
                    [--burstiness B] [--lengths fixed|uniform|lognormal] [--length-spread S]
                    [--prefix-hit-rate F] [--slo-ttft-ms MS] [--slo-tpot-ms MS] [--max-concurrency N]
                    [--trace FILE] [--max-rate [--percentile 50|90|99]] [--json]
                    requests through the engine's scheduler step by step: TTFT, TPOT and E2E
                    percentiles, throughput, preemptions and goodput; a trace is the Azure LLM
                    inference CSV or JSON Lines of {arrival_s, input_tokens, output_tokens};
                    --max-rate: the highest rate whose percentile TTFT and TPOT meet the SLOs
  gpusizer models   [--json]
  gpusizer gpus     [--json]
  gpusizer links    [--json]
  gpusizer formats
  gpusizer inspect PATH [--json]     what a GGUF (any split part), .safetensors or model folder holds
  gpusizer reconcile LOGFILE [--json]  what a llama.cpp / Ollama / vLLM / SGLang startup log says
  gpusizer keys     [--markdown | --dict json|link]   the configuration keys (docs/config.md's
                    table; a libFuzzer dictionary of the JSON or share-link keys)
  gpusizer keys --gpu [--markdown]   the fields of a custom GPU (docs/config.md, "Custom GPU")
  gpusizer mcp [--assets DIR]        a Model Context Protocol server on stdin / stdout for AI
                    assistants: the tools estimate, fit, recommend, plan, simulate, models, gpus
                    and inspect (README.md, "An MCP server for AI assistants")
  gpusizer --help | --version

  --share-link LINK       start from a share link (#v=1&m=...), as the app and the web page make
                          (--link takes one too: a value with '=' in it is a share link, not a link id)
Key flags (each is the configuration key of the same name; docs/config.md):
)";

// After --model: the two other ways to give a model.
const char* const kModelAlternatives = R"(  --hf-config FILE        a Hugging Face config.json for a custom model
  --num-parameters N      a custom dense model of N parameters (Llama-shaped)
)";

// Before the custom GPU's field flags (generated from its field table, gpusizer/custom_gpu.hpp).
const char* const kCustomGpuHead = R"(
A GPU that is not in the catalog (docs/config.md, "Custom GPU"):
  --gpu-json FILE|JSON    the GPU as a JSON object of gpus.json fields (--gpu takes an inline
                          object too)
  --gpu ID --gpu-FIELD V  a catalog GPU with fields changed (an overclocked card); without --gpu
                          the field flags describe a GPU on their own: name, memory, bandwidth, a
                          bf16 or fp16 rate and TDP are then required
)";

const char* const kUsageTail = R"(
Recommend constraints (gpusizer recommend):
  --budget USD            GPU prices x count at most
  --power-cap W           the machines' draw at the wall, doing the job, at most
  --min-tokens-per-s N    decode tokens/s of one sequence (training: training tokens/s) at least
  --single-node           only as many GPUs as one node holds
  --segment LIST          consumer,workstation,datacenter,apple (default: all)
  --max-gpus N            GPU counts tried: 1..N (default 8)
  --sort S                cost (GPU price) | own | rent (per million tokens) | speed | power

Other flags:
  --json                  machine-readable output (the report format of docs/config.md)
  --assumptions           list the constants behind the estimate and their sources
  --check                 exit 3 when the configuration does not fit
  --emit ENGINE           estimate: print only the engine's launch command for the configuration
                          (vllm, llama-cpp, sglang, ollama, trt-llm; docs/launch.md), exit 2 when
                          that engine cannot run it
  --measured FILE         a gpusizer-cuda-bench report: its measured bandwidth, TFLOPS, link speeds,
                          CUDA context and memory replace the GPU's datasheet figures (estimate,
                          fit, plan: without --gpu, the report's GPU is used; recommend: every
                          catalog GPU it measured)
  --assets DIR            where gpus.json and models.json are (default: found automatically)

Exit codes: 0 done, 2 bad input (one line names the key), 3 does not fit (--check),
            1 a file cannot be read or an internal error.
)";

}  // namespace

std::string usage() {
    // The key flags come from the configuration-key table, one line per key.
    std::string keys = config_keys_usage();
    const std::size_t after_model = keys.find('\n') + 1;
    keys.insert(after_model, kModelAlternatives);
    return kUsageHead + keys + kCustomGpuHead + gpu_fields_usage() + kUsageTail;
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Flags -> configuration JSON
// ---------------------------------------------------------------------------------------------

// A number as a flag gives it: the whole text must be read, and it must be finite.
bool read_number(const std::string& text, double* out) {
    std::size_t used = 0;
    try {
        *out = std::stod(text, &used);
    } catch (...) {
        return false;
    }
    return used > 0 && used == text.size() && std::isfinite(*out);
}

std::string normalize_flag(std::string f) {
    for (char& c : f)
        if (c == '_') c = '-';
    return f;
}

// A key flag's text as the JSON value of its key; config_from_json then checks the range.
json flag_value(const ConfigKey& key, const std::string& text) {
    const std::string name = std::string("--") + key.flag;
    switch (key.kind) {
        case KeyKind::model: case KeyKind::choice: case KeyKind::text: return text;
        case KeyKind::integer: {
            double v = 0;
            if (!read_number(text, &v) || v != std::floor(v) || text.find_first_of(".eExXpP") != std::string::npos)
                throw Error(name, "must be an integer, got '" + text + "'");
            return (long long)v;
        }
        case KeyKind::number: {
            double v = 0;
            if (!read_number(text, &v)) throw Error(name, "must be a number, got '" + text + "'");
            return v;
        }
        case KeyKind::boolean:
            if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
            if (text == "false" || text == "0" || text == "no" || text == "off") return false;
            throw Error(name, "must be true or false, got '" + text + "'");
        case KeyKind::list: {
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
    if (!in) throw Error(flag, "cannot read '" + path + "'", ErrorCode::unreadable);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A JSON file given by a flag, held to the core's size and depth limits before it is parsed.
json read_json_file(const std::string& path, const char* flag) {
    const std::string text = read_text_file(path, flag);
    check_json_text(text, std::string(flag) + " '" + path + "'");
    return json::parse(text);
}

// A custom GPU's field flag (--gpu-memory-gib 48) as the JSON value of its field; the core checks the range.
json gpu_field_value(const GpuField& f, const std::string& text) {
    const std::string name = std::string("--") + f.flag;
    double v = 0;
    switch (f.kind) {
        case GpuFieldKind::text:
        case GpuFieldKind::choice:
            return text;
        case GpuFieldKind::integer:
            if (!read_number(text, &v) || v != std::floor(v)) throw Error(name, "must be an integer, got '" + text + "'");
            return (long long)v;
        case GpuFieldKind::number:
            if (!read_number(text, &v)) throw Error(name, "must be a number, got '" + text + "'");
            return v;
        case GpuFieldKind::boolean:
            if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
            if (text == "false" || text == "0" || text == "no" || text == "off") return false;
            throw Error(name, "must be true or false, got '" + text + "'");
    }
    return text;
}

// --gpu and --gpu-json: a catalog id, or a JSON object (inline, or a file's) for a custom GPU.
json gpu_flag_value(const std::string& text, const char* flag, bool file_allowed) {
    if (text.find_first_not_of(" \t\r\n") != std::string::npos && text[text.find_first_not_of(" \t\r\n")] == '{') {
        check_json_text(text, flag);
        return json::parse(text);
    }
    if (!file_allowed) return text;
    const json j = read_json_file(text, flag);
    if (!j.is_object()) throw Error(flag, "'" + text + "' must hold a JSON object of the GPU's fields");
    return j;
}

double positive_number(const std::string& flag, const std::string& text, double max) {
    double v = 0;
    if (!read_number(text, &v) || v < 0 || v > max) {
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
    json gpu_fields_given = json::object();   // --gpu-FIELD flags, by field name
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
        if (name == "emit" && o.command == "estimate") {
            o.emit = next();
            parse_launch_engine(o.emit);   // refused here, before the catalog loads
            continue;
        }
        if (name == "markdown" && o.command == "keys") { o.markdown = true; continue; }
        if (name == "gpu" && o.command == "keys") {
            o.gpu_fields = true;
            continue;
        }
        if (name == "dict" && o.command == "keys") { o.dict = next(); continue; }
        if (name == "no-flash-attention") { flags["flash_attention"] = false; continue; }
        if (o.command == "recommend") {
            if (name == "budget") { o.query.budget_usd = limit_or_none(positive_number("--budget", next(), 1e12)); continue; }
            if (name == "power-cap") { o.query.power_cap_w = limit_or_none(positive_number("--power-cap", next(), 1e9)); continue; }
            if (name == "min-tokens-per-s") {
                o.query.min_tokens_per_s = limit_or_none(positive_number("--min-tokens-per-s", next(), 1e12));
                continue;
            }
            if (name == "single-node") { o.query.single_node = true; continue; }
            if (name == "sort") { o.query.sort = parse_recommend_sort(next()); continue; }
            if (name == "max-gpus") {
                const std::string v = next();
                const double n = positive_number("--max-gpus", v, 1024);
                if (n < 1 || n > 1024 || n != std::floor(n))
                    throw Error("--max-gpus", "must be an integer from 1 to 1024, got '" + v + "'");
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
            flags["model"] = json{{"hf_config", read_json_file(path, "--hf-config")}};
            continue;
        }
        if (name == "num-parameters") {
            const std::string v = next();
            double n = 0;
            if (!read_number(v, &n)) throw Error("--num-parameters", "must be a number such as 7e9, got '" + v + "'");
            flags["model"] = json{{"num_parameters", n}};
            continue;
        }
        if (name == "gpu") {
            flags["gpu"] = gpu_flag_value(next(), "--gpu", false);
            continue;
        }
        if (name == "gpu-json") {
            flags["gpu"] = gpu_flag_value(next(), "--gpu-json", true);
            continue;
        }
        if (const GpuField* f = find_gpu_field_flag(name)) {
            gpu_fields_given[f->name] = gpu_field_value(*f, next());
            continue;
        }
        const ConfigKey* key = find_flag_key(name);
        if (!key) throw Error("--" + name, "unknown flag (see gpusizer --help)");
        flags[key->name] = flag_value(*key, next());
    }
    if (!config_file.empty() && !link.empty()) throw Error("--share-link", "give either --config or a share link, not both");
    if (!link.empty()) o.config = json::parse(config_to_json(config_from_link(link)));
    if (!config_file.empty()) {
        o.config = read_json_file(config_file, "--config");
        if (!o.config.is_object()) throw Error("--config", "'" + config_file + "' must hold a JSON object");
    }
    for (auto it = flags.begin(); it != flags.end(); ++it) o.config[it.key()] = it.value();   // flags override the file
    // The custom GPU's field flags change the GPU given (a catalog id becomes their base), or, with
    // none given, describe one on their own.
    if (!gpu_fields_given.empty()) {
        json& gpu = o.config["gpu"];
        if (gpu.is_string())
            gpu = json{{"base", gpu.get<std::string>()}};
        else if (!gpu.is_object())
            gpu = json::object();
        for (auto it = gpu_fields_given.begin(); it != gpu_fields_given.end(); ++it) {
            const std::string& field = it.key();
            const std::size_t dot = field.find('.');
            if (dot == std::string::npos)
                gpu[field] = it.value();
            else
                gpu[field.substr(0, dot)][field.substr(dot + 1)] = it.value();
        }
    }
    return o;
}

}  // namespace gpusizer::cli
