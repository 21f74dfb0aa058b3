// mcp.cpp (cli/): `gpusizer mcp`: a Model Context Protocol server over stdio, so that an AI
// assistant (Claude Desktop, Claude Code, ...) can call the estimate, fit, recommendation, plan,
// simulation, catalog lists and inspect as tools.
//
// The protocol (https://modelcontextprotocol.io/specification/2025-11-25, and the earlier
// revisions 2025-06-18, 2025-03-26, 2024-11-05 under the same path):
//   - basic/transports#stdio: one JSON-RPC 2.0 message per line (UTF-8, no embedded newline) on
//     stdin and stdout; nothing but messages on stdout; stderr may carry logs.
//   - basic/lifecycle#version-negotiation: the client's protocolVersion when this server
//     supports it, else the newest this server supports.
//   - server/tools: tools/list gives each tool's name, description and inputSchema (a JSON
//     Schema object); tools/call answers {"content": [{"type": "text", "text": ...}], "isError"}
//     and, from 2025-06-18 on, "structuredContent" (an object) beside the same JSON as text.
//   - JSON-RPC 2.0 (https://www.jsonrpc.org/specification): notifications (no "id") get no
//     response; errors -32700 (parse error, id null), -32600, -32601, -32602, -32603.
//
// Choices this server makes where the specification leaves room:
//   - Requests before `initialize` are served (lenient), answered as for the newest revision.
//   - A JSON-RPC batch (an array, 2025-03-26 and JSON-RPC 2.0) is answered with an array.
//   - A tool's bad argument (a configuration key out of range, an unknown argument) is a tool
//     result with isError true whose text is the gpusizer::Error message (it names the key), so
//     that the assistant can correct it; an unknown tool or arguments that are not an object are
//     JSON-RPC errors -32602.
//
// The tools take the configuration as an object under "config" (docs/config.md; its schema is
// generated from the configuration-key table, gpusizer/config_keys.hpp) and their own options
// beside it, as the JSON-in functions of the core and the JavaScript API do.
//
// [SECTION] Input schemas
// [SECTION] Tools
// [SECTION] JSON-RPC
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "cli_internal.hpp"
#include "gpusizer/custom_gpu.hpp"
#include "gpusizer/plan.hpp"
#include "gpusizer/simulate.hpp"
#include "inspect.hpp"

namespace gpusizer::cli {

using nlohmann::json;

namespace {

// Newest first: the answer to a version this server does not know is the first.
constexpr const char* kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
// The first revision whose tool results carry structuredContent.
constexpr const char* kStructuredContentSince = "2025-06-18";

// The core's own limit on JSON text (gpusizer/io.hpp check_json_text): a longer line is refused
// without being kept whole.
constexpr std::size_t kMaxLineBytes = std::size_t(16) << 20;

// JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object).
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// ---------------------------------------------------------------------------------------------
// [SECTION] Input schemas
// ---------------------------------------------------------------------------------------------

// A whole number as JSON (1e16 stays a number; 131072 is written without a fraction).
json bound(double v, KeyKind kind) {
    if (kind == KeyKind::integer) return json(static_cast<long long>(v));
    return json(v);
}

// A key's description: what it means, its unit, what is allowed and its default, from the row.
std::string key_description(const ConfigKey& k) {
    std::string d = k.meaning;
    if (*k.unit) d += " [unit: " + std::string(k.unit) + "]";
    if (const std::string allowed = key_allowed_doc(k); !allowed.empty()) d += " Allowed: " + allowed + ".";
    if (const std::string def = key_default_doc(k); !def.empty()) d += " Default: " + def + ".";
    return d;
}

// The custom GPU object: "base" and the fields of gpu_fields() ("tensor_tflops_dense.bf16" nests).
json custom_gpu_schema() {
    json s = {{"type", "object"},
              {"description",
               "a GPU that is not in the catalog: the fields of a gpus.json entry, alone or over a catalog GPU (base); a field left "
               "out has a stated default (docs/config.md, \"Custom GPU\")"},
              {"properties", {{"base", {{"type", "string"}, {"description", "a catalog GPU id whose fields the others override"}}}}}};
    for (const GpuField& f : gpu_fields()) {
        json* props = &s["properties"];
        std::string name = f.name;
        for (std::size_t dot; (dot = name.find('.')) != std::string::npos; name = name.substr(dot + 1)) {
            json& parent = (*props)[name.substr(0, dot)];
            if (parent.is_null()) parent = {{"type", "object"}, {"properties", json::object()}};
            props = &parent["properties"];
        }
        json field;
        std::string d = f.meaning;
        if (*f.unit) d += " [unit: " + std::string(f.unit) + "]";
        switch (f.kind) {
            case GpuFieldKind::text:
                field["type"] = "string";
                break;
            case GpuFieldKind::choice:
                field["type"] = "string";
                d += " Allowed: " + gpu_field_choices(f) + ".";
                break;
            case GpuFieldKind::integer:
            case GpuFieldKind::number:
                field["type"] = f.kind == GpuFieldKind::integer ? "integer" : "number";
                field["minimum"] = f.kind == GpuFieldKind::integer ? json(static_cast<long long>(f.min)) : json(f.min);
                field["maximum"] = f.kind == GpuFieldKind::integer ? json(static_cast<long long>(f.max)) : json(f.max);
                break;
            case GpuFieldKind::boolean:
                field["type"] = "boolean";
                break;
        }
        field["description"] = d;   // the defaults' derivations: `gpusizer keys --gpu`, docs/config.md
        (*props)[name] = field;
    }
    return s;
}

// One configuration key's schema, from its row: the JSON type, the range, the closed set of a
// choice (allowed_values), the description. Any key may also be null (= its default); the schema
// leaves that out, as leaving the key out says the same.
json key_schema(const ConfigKey& k) {
    json s;
    switch (k.kind) {
        case KeyKind::model:
            s["anyOf"] =
                json::array({{{"type", "string"}, {"description", "a catalog model id (the models tool)"}},
                             {{"type", "object"}, {"description", "{\"hf_config\": {...config.json fields}} or {\"num_parameters\": N}"}}});
            break;
        case KeyKind::choice:
            s["type"] = "string";
            s["enum"] = split_names(allowed_values(k.name));
            break;
        case KeyKind::text:
            if (k.member.s == &Config::gpu)
                s["anyOf"] = json::array({{{"type", "string"}, {"description", "a catalog GPU id (the gpus tool)"}}, custom_gpu_schema()});
            else
                s["type"] = "string";
            break;
        case KeyKind::integer:
        case KeyKind::number: {
            s["type"] = k.kind == KeyKind::integer ? "integer" : "number";
            // 0 is a value a file may give for the keys whose 0 means "the default" (check_key_value).
            const bool zero_given = k.unset == KeyUnset::zero || k.unset == KeyUnset::null_zero;
            if (zero_given)
                s["minimum"] = 0;
            else if (k.min_open)
                s["exclusiveMinimum"] = bound(k.min, k.kind);
            else
                s["minimum"] = bound(k.min, k.kind);
            s["maximum"] = bound(k.max, k.kind);
            break;
        }
        case KeyKind::boolean:
            s["type"] = "boolean";
            break;
        case KeyKind::list:
            s["anyOf"] = json::array({{{"type", "string"}}, {{"type", "array"}, {"items", {{"type", "string"}}}}});
            break;
    }
    s["description"] = key_description(k);
    return s;
}

// Every "description" under `j`, removed.
void drop_descriptions(json& j) {
    if (!j.is_object() && !j.is_array()) return;
    if (j.is_object()) j.erase("description");
    for (json& v : j) drop_descriptions(v);
}

// The configuration object. Described in full once (estimate's); the other tools' copies keep
// the types, ranges and choices without the text, which would otherwise be most of tools/list
// five times over (about 18 KB each) in the assistant's context.
json config_schema(bool described) {
    json props = json::object();
    for (const ConfigKey& k : config_keys()) props[k.name] = key_schema(k);
    if (!described) drop_descriptions(props);
    return {{"type", "object"},
            {"description", std::string("the configuration (docs/config.md): model is required unless gguf or hf_dir names a file; every "
                                        "other key is optional (left out or null: its default)") +
                                (described ? "" : ". The keys are estimate's; their descriptions are in estimate's schema")},
            {"properties", props},
            {"additionalProperties", false}};
}

json prop(const char* type, const char* description) { return {{"type", type}, {"description", description}}; }
// A number from `lo`; to `hi` unless hi <= lo (no upper limit).
json ranged(const char* type, double lo, double hi, const char* description) {
    json p = prop(type, description);
    p["minimum"] = std::string_view(type) == "integer" ? json(static_cast<long long>(lo)) : json(lo);
    if (hi > lo) p["maximum"] = std::string_view(type) == "integer" ? json(static_cast<long long>(hi)) : json(hi);
    return p;
}
json one_of(std::vector<std::string> values, const char* description) {
    return {{"type", "string"}, {"enum", std::move(values)}, {"description", description}};
}
json object_of(json properties, const char* description) {
    return {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}, {"description", description}};
}

// The fields recommend_query_from_json reads (gpusizer/io.hpp); tests/test_mcp.cpp checks the
// list against the reader's.
json constraints_schema() {
    return object_of(
        {{"budget_usd", ranged("number", 0, 1e12, "GPU prices x count at most, USD (0: no limit)")},
         {"power_cap_w", ranged("number", 0, 1e9, "the machines' draw at the wall, doing the job, at most, W (0: no limit)")},
         {"min_tokens_per_s", ranged("number", 0, 1e12, "decode tokens/s of one sequence (training: training tokens/s) at least")},
         {"single_node", prop("boolean", "only as many GPUs as one node holds")},
         {"segments",
          {{"type", "array"},
           {"items", {{"type", "string"}, {"enum", {"consumer", "workstation", "datacenter", "apple"}}}},
           {"description", "GPU classes to consider (default: all)"}}},
         {"max_gpus", ranged("integer", 1, 1024, "GPU counts tried: 1..N (default 8)")},
         {"sort",
          one_of({"cost", "speed", "power", "own", "rent"}, "order: cost (GPU price), own or rent (per million tokens), speed, power")}},
        "the recommendation's constraints, each optional");
}

// The fields plan_request_from_json reads (gpusizer/plan.hpp).
json query_schema() {
    return object_of(
        {{"mode", one_of({"train", "inference"},
                         "the search: training layouts or serving layouts (default: inference when config.mode is "
                         "inference, else train)")},
         {"top", ranged("integer", 1, 100, "layouts to report (default 5)")},
         {"max_micro_batch", ranged("integer", 1, 4096, "training: the largest micro-batch tried")},
         {"max_virtual_stages", ranged("integer", 1, 64, "training: the most interleaved model chunks per stage tried")},
         {"tokens", ranged("number", 0, 0, "training: tokens D to train on, for the time and cost of the run")},
         {"offload", prop("boolean", "training: try ZeRO-Offload (default true)")},
         {"expert_parallel", prop("boolean", "try expert parallelism for MoE models (default true)")},
         {"context_parallel", prop("boolean", "training: try context parallelism (default true)")},
         {"max_ttft_ms", ranged("number", 0, 0, "inference: time-to-first-token target, ms (0: none)")},
         {"max_tpot_ms", ranged("number", 0, 0, "inference: time-per-output-token target, ms (0: none)")},
         {"disaggregated", prop("boolean", "inference: separate prefill and decode pools")},
         {"target_rps", ranged("number", 0, 0, "inference: the fewest GPUs meeting the targets at this request rate, simulated")},
         {"percentile", ranged("integer", 50, 99, "with target_rps: the percentile the targets hold at (default 90)")},
         {"cheapest_gpu", prop("boolean", "with target_rps: search every catalog GPU type and rank them by cost per million output tokens "
                                          "(target.by_gpu; the config's gpu is ignored)")}},
        "the search's own fields, each optional");
}

// The fields simulation_options_from_json reads (gpusizer/simulate.hpp).
json options_schema() {
    return object_of(
        {{"requests", ranged("integer", 0, 1e6, "requests to simulate (0: the default)")},
         {"seed", ranged("integer", 0, 9007199254740992.0, "random seed")},
         {"burstiness", ranged("number", 0.01, 100, "arrival burstiness (1: Poisson; below 1 burstier)")},
         {"lengths", one_of({"fixed", "uniform", "lognormal"}, "how request lengths vary around isl and osl")},
         {"length_spread", ranged("number", 0, 3, "the spread of the lengths")},
         {"prefix_hit_rate", ranged("number", 0, 0.999, "share of prompt tokens found in the prefix cache")},
         {"slo_ttft_ms", ranged("number", 0, 1e9, "TTFT objective for goodput, ms (0: none)")},
         {"slo_tpot_ms", ranged("number", 0, 1e9, "TPOT objective for goodput, ms (0: none)")},
         {"timeline_points", ranged("integer", 1, 10000, "samples of the run over time")},
         {"max_concurrency", ranged("integer", 0, double(1 << 24), "the engine's cap on requests in flight (0: as many as fit)")},
         {"max_rate", prop("boolean",
                           "instead of the configuration's request_rate, find the highest rate whose latencies at `percentile` "
                           "meet slo_ttft_ms / slo_tpot_ms (MLPerf's server scenario); the run reported is at that rate")},
         {"percentile", ranged("integer", 50, 99, "with max_rate: the percentile the objectives hold at, 50, 90 or 99 (default 99)")},
         {"trace", prop("string",
                        "a trace's text instead of generated requests: the Azure LLM inference CSV (header "
                        "TIMESTAMP,ContextTokens,GeneratedTokens) or JSON Lines of {arrival_s, input_tokens, output_tokens}")}},
        "the simulation's own fields, each optional");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Tools
// ---------------------------------------------------------------------------------------------

// A tool: its name, description, input schema (built once) and what it answers (JSON text).
struct Tool {
    const char* name;
    const char* description;
    json (*schema)();
    std::string (*run)(const json& args, const Catalog& catalog);
};

json with_config(json extra = json::object(), bool described = false) {
    json props = {{"config", config_schema(described)}};
    for (auto it = extra.begin(); it != extra.end(); ++it) props[it.key()] = it.value();
    return {{"type", "object"}, {"properties", props}, {"required", {"config"}}, {"additionalProperties", false}};
}

json no_arguments() { return {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}}; }

std::string config_text(const json& args) {
    const auto it = args.find("config");
    if (it == args.end()) throw Error("config", "is required: an object of configuration keys such as {\"model\": \"llama-3-8b\"}");
    if (!it->is_object()) throw Error("config", "must be an object of configuration keys such as {\"model\": \"llama-3-8b\"}");
    return dump(*it);
}

// An optional object argument as text ("" when absent).
std::string object_text(const json& args, const char* name) {
    const auto it = args.find(name);
    if (it == args.end() || it->is_null()) return "";
    if (!it->is_object()) throw Error(name, "must be an object");
    return dump(*it);
}

std::string run_estimate(const json& args, const Catalog& catalog) {
    Config c = config_from_json(config_text(args));
    read_model_files(c);   // gguf / hf_dir / mmproj: the headers, read here as the CLI does
    const Report r = estimate(c, catalog, EstimateOptions{true, nullptr});
    const auto a = args.find("assumptions");
    if (a != args.end() && !a->is_null() && !a->is_boolean()) throw Error("assumptions", "must be true or false, got " + dump(*a));
    if (a == args.end() || !a->is_boolean() || !a->get<bool>()) return report_to_json(r);
    json j = json::parse(report_to_json(r));
    j["assumptions"] = json::parse(assumptions_to_json(assumptions(r)));
    return dump(j);
}

std::string run_fit(const json& args, const Catalog& catalog) {
    Config c = config_from_json(config_text(args));
    read_model_files(c);
    return fit_to_json(fit(c, catalog));
}

std::string run_recommend(const json& args, const Catalog& catalog) {
    RecommendQuery q = recommend_query_from_json(config_text(args), object_text(args, "constraints"));
    read_model_files(q.base);
    return recommend_to_json(recommend(q, catalog));
}

std::string run_plan_tool(const json& args, const Catalog& catalog) {
    PlanRequest q = plan_request_from_json(config_text(args), object_text(args, "query"));
    read_model_files(q.base);
    return plan_to_json(plan(q, catalog));
}

std::string run_simulate_tool(const json& args, const Catalog& catalog) {
    Config c = config_from_json(config_text(args));
    read_model_files(c);
    return simulation_to_json(simulate(c, catalog, simulation_options_from_json(object_text(args, "options"))));
}

std::string run_models(const json&, const Catalog& catalog) { return models_to_json(catalog); }
std::string run_gpus(const json&, const Catalog& catalog) { return gpus_to_json(catalog); }

std::string run_inspect_tool(const json& args, const Catalog&) {
    const auto it = args.find("path");
    if (it == args.end() || !it->is_string() || it->get<std::string>().empty())
        throw Error("path", "is required: the path of a GGUF file, a .safetensors file or index, or a model folder");
    std::string path = it->get<std::string>();
    if (path[0] == '-') path = "./" + path;   // a file name, never a flag of `gpusizer inspect`
    std::ostringstream out;
    run_inspect({"inspect", path, "--json"}, out);
    return out.str();
}

json inspect_schema() {
    return {{"type", "object"},
            {"properties",
             {{"path", prop("string",
                            "a GGUF file (any split part), a .safetensors file or model.safetensors.index.json, or a "
                            "model folder (config.json + safetensors, or GGUF files); absolute, or relative to the "
                            "server's working directory")}}},
            {"required", {"path"}},
            {"additionalProperties", false}};
}

json estimate_schema() {
    return with_config({{"assumptions", prop("boolean", "also list the constants behind the estimate and their sources")}}, true);
}
json fit_schema() { return with_config(); }
json recommend_schema() { return with_config({{"constraints", constraints_schema()}}); }
json plan_schema() { return with_config({{"query", query_schema()}}); }
json simulate_schema() { return with_config({{"options", options_schema()}}); }

const Tool kTools[] = {
    {"estimate",
     "GPU memory (per GPU, by component), speed (prefill, decode, training step), interconnect, power and cost of running "
     "or training a model on given GPUs: `gpusizer estimate --json`. Arguments: {\"config\": {configuration keys}, "
     "\"assumptions\": bool}, e.g. {\"config\": {\"model\": \"llama-3-8b\", \"weights\": \"q4_k_m\", \"gpu\": \"rtx-4090\"}}. "
     "The answer's `fits` says whether it fits.",
     estimate_schema, run_estimate},
    {"fit",
     "The largest batch and context that fit the configuration's GPUs: `gpusizer fit --json`. Arguments: {\"config\": "
     "{configuration keys}}.",
     fit_schema, run_fit},
    {"recommend",
     "Which GPUs to buy or rent for a model: every catalog GPU and count that fits, cheapest (or as sorted) first, and why "
     "the others were rejected: `gpusizer recommend --json`. Arguments: {\"config\": {configuration keys; gpu and gpus are "
     "what is searched}, \"constraints\": {budget_usd, power_cap_w, min_tokens_per_s, single_node, segments, max_gpus, "
     "sort}}.",
     recommend_schema, run_recommend},
    {"plan",
     "The layout search: the fastest training layouts that fit (tp, cp, pp, dp, ZeRO, ep, micro-batch, schedule, "
     "recompute, offload), or serving layouts with the Pareto front of tokens/s per GPU against per user and the best "
     "under TTFT / TPOT targets: `gpusizer plan --json`. Arguments: {\"config\": {configuration keys: gpus is the most "
     "GPUs; training needs global_batch, serving isl and osl}, \"query\": {mode, top, ...}}.",
     plan_schema, run_plan_tool},
    {"simulate",
     "A request-level simulation of serving: requests through the engine's scheduler step by step, with TTFT, TPOT and "
     "E2E percentiles, throughput, preemptions and goodput: `gpusizer simulate --json`. Arguments: {\"config\": "
     "{configuration keys: an inference configuration with isl and osl, request_rate for arrivals}, \"options\": "
     "{requests, seed, ...; max_rate with slo_ttft_ms / slo_tpot_ms: the highest rate meeting them}}.",
     simulate_schema, run_simulate_tool},
    {"models",
     "The catalog's models (ids for config.model) with their parameter counts and trained context: `gpusizer models --json`. No arguments.",
     no_arguments, run_models},
    {"gpus",
     "The catalog's GPUs (ids for config.gpu) with memory, bandwidth, tensor rates, power and price: `gpusizer gpus --json`. No arguments.",
     no_arguments, run_gpus},
    {"inspect",
     "What a local model file holds, read from its headers: format, architecture, tensor types, parameters and bytes by "
     "class, layer and part: `gpusizer inspect PATH --json`. Arguments: {\"path\": \"...\"}. To size such a file, give "
     "its path as config.gguf or config.hf_dir to estimate.",
     inspect_schema, run_inspect_tool},
};

const Tool* find_tool(std::string_view name) {
    for (const Tool& t : kTools)
        if (name == t.name) return &t;
    return nullptr;
}

std::string tool_names() {
    std::string out;
    for (const Tool& t : kTools) out += (out.empty() ? "" : ", ") + std::string(t.name);
    return out;
}

// Every argument the tool's schema names; another is refused by name (the configuration keys go
// inside "config").
void check_arguments(const Tool& tool, const json& schema, const json& args) {
    const json& props = schema["properties"];
    for (auto it = args.begin(); it != args.end(); ++it) {
        if (props.contains(it.key())) continue;
        std::string known;
        for (auto p = props.begin(); p != props.end(); ++p) known += (known.empty() ? "" : ", ") + p.key();
        std::string msg = std::string("unknown argument of ") + tool.name + (known.empty() ? " (it takes none)" : "; arguments: " + known);
        if (find_config_key(it.key()) && props.contains("config")) msg += " (configuration keys go inside config)";
        throw Error(it.key(), msg);
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] JSON-RPC
// ---------------------------------------------------------------------------------------------

json error_response(const json& id, int code, const std::string& message) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}
json result_response(const json& id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

class Server {
public:
    Server(const Catalog& catalog, std::ostream& log) : catalog_(catalog), log_(log) {
        for (const Tool& t : kTools) {
            schemas_.push_back(t.schema());
            tools_.push_back({{"name", t.name}, {"description", t.description}, {"inputSchema", schemas_.back()}});
        }
    }

    // The response to one line, or null for none (a notification, a response, a blank line).
    json handle_line(const std::string& line) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) return nullptr;
        json msg;
        try {
            check_json_text(line, "message");   // the core's limits: 16 MiB, 64 levels
            msg = json::parse(line);
        } catch (const std::exception& e) {
            return error_response(nullptr, kParseError, std::string("Parse error: ") + e.what());
        }
        if (!msg.is_array()) return handle(msg);
        if (msg.empty()) return error_response(nullptr, kInvalidRequest, "Invalid Request: an empty batch");
        json out = json::array();
        for (const json& m : msg)
            if (json r = handle(m); !r.is_null()) out.push_back(std::move(r));
        return out.empty() ? json(nullptr) : out;
    }

private:
    json handle(const json& msg) {
        if (!msg.is_object()) return error_response(nullptr, kInvalidRequest, "Invalid Request: a message is a JSON object");
        const auto id_it = msg.find("id");
        const bool has_id = id_it != msg.end();
        if (has_id && !id_it->is_string() && !id_it->is_number())
            return error_response(nullptr, kInvalidRequest, "Invalid Request: id must be a string or a number");
        const json id = has_id ? *id_it : json(nullptr);
        const auto method_it = msg.find("method");
        if (method_it == msg.end() && has_id && (msg.contains("result") || msg.contains("error"))) {
            log_ << "gpusizer mcp: ignored a response to a request this server never sent (id " << dump(id) << ")\n";
            return nullptr;
        }
        if (msg.value("jsonrpc", json()) != "2.0")
            return has_id || method_it == msg.end() ? error_response(id, kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"")
                                                    : json(nullptr);
        if (method_it == msg.end() || !method_it->is_string())
            return error_response(id, kInvalidRequest, "Invalid Request: method must be a string");
        const std::string method = method_it->get<std::string>();
        const auto params_it = msg.find("params");
        if (params_it != msg.end() && !params_it->is_object())
            return has_id ? error_response(id, kInvalidParams, "Invalid params: params must be an object") : json(nullptr);
        const json params = params_it == msg.end() ? json::object() : *params_it;
        if (!has_id) {   // a notification: never answered
            if (method != "notifications/initialized" && method != "notifications/cancelled")
                log_ << "gpusizer mcp: ignored notification " << method.substr(0, 80) << '\n';
            return nullptr;
        }
        try {
            if (method == "initialize") return initialize(id, params);
            if (method == "ping") return result_response(id, json::object());
            if (method == "tools/list") return result_response(id, {{"tools", tools_}});
            if (method == "tools/call") return call_tool(id, params);
            return error_response(id, kMethodNotFound, "Method not found: " + method.substr(0, 200));
        } catch (const std::exception& e) {
            return error_response(id, kInternalError, std::string("Internal error: ") + e.what());
        }
    }

    json initialize(const json& id, const json& params) {
        const auto v = params.find("protocolVersion");
        if (v == params.end() || !v->is_string())
            return error_response(id, kInvalidParams, "Invalid params: initialize needs protocolVersion, a string such as \"2025-06-18\"");
        version_ = kProtocolVersions[0];
        for (const char* known : kProtocolVersions)
            if (*v == known) version_ = known;
        return result_response(id, {{"protocolVersion", version_},
                                    {"capabilities", {{"tools", {{"listChanged", false}}}}},
                                    {"serverInfo", {{"name", "gpusizer"}, {"version", GPUSIZER_VERSION}}}});
    }

    json call_tool(const json& id, const json& params) {
        const auto name = params.find("name");
        if (name == params.end() || !name->is_string())
            return error_response(id, kInvalidParams, "Invalid params: tools/call needs name, one of " + tool_names());
        const Tool* tool = find_tool(name->get<std::string>());
        if (!tool)
            return error_response(id, kInvalidParams,
                                  "Invalid params: unknown tool '" + name->get<std::string>().substr(0, 80) + "'; tools: " + tool_names());
        const auto args_it = params.find("arguments");
        if (args_it != params.end() && !args_it->is_object() && !args_it->is_null())
            return error_response(id, kInvalidParams, "Invalid params: arguments must be an object");
        const json args = args_it == params.end() || args_it->is_null() ? json::object() : *args_it;
        std::string text;
        bool is_error = true;
        try {
            check_arguments(*tool, schemas_[std::size_t(tool - kTools)], args);
            text = tool->run(args, catalog_);
            is_error = false;
        } catch (const Error& e) {
            text = e.what();
        } catch (const std::exception& e) {
            text = std::string("internal error: ") + e.what();
        }
        json result = {{"content", json::array({{{"type", "text"}, {"text", ""}}})}, {"isError", is_error}};
        if (is_error) {
            result["content"][0]["text"] = text;
            return result_response(id, std::move(result));
        }
        // The tool's JSON, compact (no indentation for the assistant to read past), and from
        // 2025-06-18 on the same value as structuredContent, which must be an object: the lists
        // of models and GPUs (arrays) are text only.
        json value = json::parse(text);
        result["content"][0]["text"] = dump(value);
        if (value.is_object() && (version_.empty() || version_ >= kStructuredContentSince)) result["structuredContent"] = std::move(value);
        return result_response(id, std::move(result));
    }

    const Catalog& catalog_;
    std::ostream& log_;
    std::vector<json> schemas_;
    json tools_ = json::array();
    std::string version_;   // negotiated; "" before initialize (answered as the newest)
};

// One line of `in` into `line` (without its '\n' and a '\r' before it), at most `limit` bytes
// kept: *too_long when there were more. False at the end of the input.
bool read_line(std::istream& in, std::string& line, std::size_t limit, bool* too_long) {
    line.clear();
    *too_long = false;
    std::streambuf* sb = in.rdbuf();
    bool any = false;
    for (;;) {
        const int c = sb->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            in.setstate(std::ios::eofbit);
            break;
        }
        any = true;
        if (c == '\n') break;
        if (line.size() < limit)
            line.push_back(static_cast<char>(c));
        else
            *too_long = true;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return any;
}

}   // namespace

int run_mcp(std::istream& in, std::ostream& out, std::ostream& err, const char* argv0, const std::string& assets) {
    std::optional<Catalog> catalog;
    try {
        catalog = load_catalog(assets.empty() ? find_assets_dir(argv0) : assets);
    } catch (const std::exception& e) {
        err << "gpusizer mcp: error: " << e.what() << '\n';
        return kExitInternal;
    }
    Server server(*catalog, err);
    std::string line;
    bool too_long = false;
    while (read_line(in, line, kMaxLineBytes, &too_long)) {
        json response;
        if (too_long) {
            response = error_response(nullptr, kParseError,
                                      "Parse error: a message longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB was skipped");
        } else {
            response = server.handle_line(line);
        }
        if (response.is_null()) continue;
        out << dump(response) << '\n' << std::flush;
    }
    return kExitOk;
}

}   // namespace gpusizer::cli
