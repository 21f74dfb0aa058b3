// config_io.cpp: the configuration as JSON (docs/config.md) and the recommend constraints.
//
// [SECTION] Reading the configuration
// [SECTION] Writing the configuration
// [SECTION] Recommend constraints
#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/precision.hpp"
#include "gpusizer/recommend.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"

namespace gpusizer {

using nlohmann::json;
using detail::Obj;
using detail::parse_json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading the configuration
// ---------------------------------------------------------------------------------------------

namespace {

const char* const kConfigKeys[] = {
    "model", "mode", "weights", "kv_cache", "batch", "global_batch", "context", "optimizer", "zero", "offload",
    "recompute", "flash_attention", "sequence_parallel", "lora_rank", "lora_targets", "gpu", "gpus", "tp", "pp",
    "dp", "ep", "runtime", "gpu_memory_utilization", "quant_group_size", "prefill_chunk", "train_tokens", "mfu",
    "bandwidth_efficiency", "utilization", "pue", "usd_per_kwh", "link", "inter_node_link", "prompt_tokens",
    "host_memory_bandwidth_gb_per_s", "layer_overhead_us", "schema_version"};

long long config_int(const json& v, const char* key, long long lo, long long hi) {
    if (!v.is_number()) throw Error(key, "must be an integer, got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) throw Error(key, "must be an integer, got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
    if (d < double(lo) || d > double(hi))
        throw Error(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
    return (long long)d;
}

std::string config_str(const json& v, const char* key) {
    if (!v.is_string()) throw Error(key, "must be a string, got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
    return v.get<std::string>();
}

double config_num(const json& v, const char* key, double lo, double hi, const char* what) {
    if (!v.is_number())
        throw Error(key, std::string("must be a number (") + what + "), got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < lo || d > hi) {
        char range[96];   // snprintf, not an ostream: see check_num
        std::snprintf(range, sizeof range, ", between %g and %g, got ", lo, hi);
        throw Error(key, std::string("must be ") + what + range + v.dump(-1, ' ', false, json::error_handler_t::replace));
    }
    return d;
}

bool config_bool(const json& v, const char* key) {
    if (!v.is_boolean()) throw Error(key, "must be true or false, got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
    return v.get<bool>();
}

}  // namespace

Config config_from_json(std::string_view text) { return config_from_json_value(parse_json(text, "config")); }

Config config_from_json_value(const json& j) {
    if (!j.is_object()) throw Error("config", "must be a JSON object such as {\"model\": \"llama-3-8b\"}");
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char* k : kConfigKeys) known = known || it.key() == k;
        if (!known) {
            std::string list;
            for (const char* k : kConfigKeys) list += (list.empty() ? "" : ", ") + std::string(k);
            throw Error(it.key(), "unknown configuration key; known keys: " + list);
        }
    }
    Config c;
    if (!j.contains("model")) throw Error("model", "is required: a catalog id (see `gpusizer models`) or {\"hf_config\": {...}}");
    const json& m = j["model"];
    if (m.is_string()) {
        c.model.id = m.get<std::string>();
        if (c.model.id.empty()) throw Error("model", "must not be empty");
    } else if (m.is_object()) {
        c.model.custom = true;
        if (m.contains("hf_config")) {
            if (m.size() != 1) throw Error("model", "an object model holds exactly one of hf_config or num_parameters");
            c.model.arch = arch_from_hf_json(m["hf_config"], &c.model.import_warnings);
            c.model.hf_config_json = m["hf_config"].dump(-1, ' ', false, json::error_handler_t::replace);
            if (c.model.arch.name.empty()) c.model.arch.name = "custom " + c.model.arch.model_type + " model";
        } else if (m.contains("num_parameters")) {
            if (m.size() != 1) throw Error("model", "an object model holds exactly one of hf_config or num_parameters");
            const json& n = m["num_parameters"];
            if (!n.is_number()) throw Error("model.num_parameters", "must be a number, got " + n.dump(-1, ' ', false, json::error_handler_t::replace));
            c.model.num_parameters = n.get<double>();
            c.model.arch = synthesize_arch(c.model.num_parameters);
        } else {
            throw Error("model", "an object model needs hf_config (the fields of a Hugging Face config.json) or num_parameters");
        }
    } else {
        throw Error("model", "must be a catalog id string or an object {\"hf_config\": {...}} / {\"num_parameters\": N}");
    }
    auto get = [&](const char* k) -> const json* {
        auto it = j.find(k);
        return (it == j.end() || it->is_null()) ? nullptr : &*it;
    };
    if (auto v = get("schema_version"); v && config_int(*v, "schema_version", 1, 1) != 1) throw Error("schema_version", "must be 1");
    if (auto v = get("mode")) c.mode = parse_mode(config_str(*v, "mode"));
    if (auto v = get("weights")) c.weights = std::string(weight_format(config_str(*v, "weights")).id);
    if (auto v = get("kv_cache")) c.kv_cache = std::string(kv_format(config_str(*v, "kv_cache")).id);
    if (auto v = get("batch")) c.batch = int(config_int(*v, "batch", 1, 1 << 20));
    if (auto v = get("global_batch")) c.global_batch = int(config_int(*v, "global_batch", 0, 1LL << 30));
    if (auto v = get("context")) c.context = config_int(*v, "context", 0, 1LL << 27);
    if (auto v = get("optimizer")) c.optimizer = parse_optimizer(config_str(*v, "optimizer"));
    if (auto v = get("zero")) c.zero = int(config_int(*v, "zero", 0, 3));
    if (auto v = get("offload")) c.offload = parse_offload(config_str(*v, "offload"));
    if (auto v = get("recompute")) c.recompute = parse_recompute(config_str(*v, "recompute"));
    if (auto v = get("flash_attention")) c.flash_attention = config_bool(*v, "flash_attention");
    if (auto v = get("sequence_parallel")) c.sequence_parallel = config_bool(*v, "sequence_parallel");
    if (auto v = get("lora_rank")) c.lora_rank = int(config_int(*v, "lora_rank", 1, 1 << 16));
    if (auto v = get("lora_targets")) {
        c.lora_targets = 0;
        if (v->is_string()) {
            c.lora_targets = parse_lora_target(v->get<std::string>());
        } else if (v->is_array()) {
            if (v->empty()) throw Error("lora_targets", "must name at least one module");
            for (const auto& t : *v) {
                if (!t.is_string()) throw Error("lora_targets", "must be strings, got " + t.dump(-1, ' ', false, json::error_handler_t::replace));
                c.lora_targets |= parse_lora_target(t.get<std::string>());
            }
        } else {
            throw Error("lora_targets", "must be \"all-linear\" or an array such as [\"q_proj\", \"v_proj\"]");
        }
    }
    if (auto v = get("gpu")) c.gpu = config_str(*v, "gpu");
    if (auto v = get("gpus")) c.gpus = int(config_int(*v, "gpus", 1, 1 << 16));
    if (auto v = get("tp")) c.tp = int(config_int(*v, "tp", 0, 1 << 16));
    if (auto v = get("pp")) c.pp = int(config_int(*v, "pp", 0, 1 << 16));
    if (auto v = get("dp")) c.dp = int(config_int(*v, "dp", 0, 1 << 16));
    if (auto v = get("ep")) c.ep = int(config_int(*v, "ep", 0, 1 << 16));
    if (auto v = get("runtime")) c.runtime = parse_runtime(config_str(*v, "runtime"));
    if (auto v = get("gpu_memory_utilization")) {
        if (!v->is_number()) throw Error("gpu_memory_utilization", "must be a number in (0, 1], got " + v->dump());
        c.gpu_memory_utilization = v->get<double>();
        if (!(c.gpu_memory_utilization > 0.0 && c.gpu_memory_utilization <= 1.0))
            throw Error("gpu_memory_utilization", "must be in (0, 1], got " + v->dump());
    }
    if (auto v = get("quant_group_size")) c.quant_group_size = int(config_int(*v, "quant_group_size", 1, 1 << 20));
    if (auto v = get("prefill_chunk")) c.prefill_chunk = int(config_int(*v, "prefill_chunk", 0, 1LL << 27));
    if (auto v = get("train_tokens")) c.train_tokens = config_num(*v, "train_tokens", 0, 1e16, "tokens");
    if (auto v = get("mfu")) c.mfu = config_num(*v, "mfu", 1e-3, 1, "a fraction of the dense tensor peak");
    if (auto v = get("bandwidth_efficiency"))
        c.bandwidth_efficiency = config_num(*v, "bandwidth_efficiency", 1e-3, 1, "a fraction of the memory bandwidth");
    if (auto v = get("utilization")) c.utilization = config_num(*v, "utilization", 1e-3, 1, "a fraction of board power");
    if (auto v = get("pue")) c.pue = config_num(*v, "pue", 1, 3, "a power usage effectiveness");
    if (auto v = get("usd_per_kwh")) c.usd_per_kwh = config_num(*v, "usd_per_kwh", 0, 10, "USD per kWh");
    if (auto v = get("link")) c.link = config_str(*v, "link");
    if (auto v = get("inter_node_link")) c.inter_node_link = config_str(*v, "inter_node_link");
    if (auto v = get("prompt_tokens")) c.prompt_tokens = config_int(*v, "prompt_tokens", 0, 1LL << 27);
    if (auto v = get("host_memory_bandwidth_gb_per_s"))
        c.host_memory_bandwidth_gb_per_s = config_num(*v, "host_memory_bandwidth_gb_per_s", 0.1, 1e4, "GB/s");
    if (auto v = get("layer_overhead_us")) c.layer_overhead_us = config_num(*v, "layer_overhead_us", 0, 1e5, "microseconds per layer");
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Writing the configuration
// ---------------------------------------------------------------------------------------------

namespace {

json model_json(const ModelSpec& m) {
    if (!m.custom) return m.id;
    if (!m.hf_config_json.empty()) return json{{"hf_config", json::parse(m.hf_config_json)}};
    return json{{"num_parameters", m.num_parameters}};
}

json config_json(const Config& c) {
    json j;
    j["model"] = model_json(c.model);
    j["mode"] = std::string(to_string(c.mode));
    j["weights"] = c.weights.empty() ? json(nullptr) : json(c.weights);
    j["kv_cache"] = c.kv_cache.empty() ? json(nullptr) : json(c.kv_cache);
    j["batch"] = c.batch;
    j["global_batch"] = c.global_batch;
    j["context"] = c.context;
    j["optimizer"] = std::string(to_string(c.optimizer));
    j["zero"] = c.zero;
    j["offload"] = std::string(to_string(c.offload));
    j["recompute"] = std::string(to_string(c.recompute));
    j["flash_attention"] = c.flash_attention;
    j["sequence_parallel"] = c.sequence_parallel;
    j["lora_rank"] = c.lora_rank;
    j["lora_targets"] = c.lora_targets == kLoraAllLinear ? json("all-linear") : json(lora_target_names(c.lora_targets));
    j["gpu"] = c.gpu;
    j["gpus"] = c.gpus;
    j["tp"] = c.tp;
    j["pp"] = c.pp;
    j["dp"] = c.dp;
    j["ep"] = c.ep;
    j["runtime"] = std::string(to_string(c.runtime));
    j["gpu_memory_utilization"] = c.gpu_memory_utilization;
    j["quant_group_size"] = c.quant_group_size;
    j["prefill_chunk"] = c.prefill_chunk;
    j["train_tokens"] = c.train_tokens;
    j["mfu"] = c.mfu > 0 ? json(c.mfu) : json(nullptr);
    j["bandwidth_efficiency"] = c.bandwidth_efficiency > 0 ? json(c.bandwidth_efficiency) : json(nullptr);
    j["utilization"] = c.utilization;
    j["pue"] = c.pue > 0 ? json(c.pue) : json(nullptr);
    j["usd_per_kwh"] = c.usd_per_kwh;
    j["link"] = c.link.empty() ? json(nullptr) : json(c.link);
    j["inter_node_link"] = c.inter_node_link.empty() ? json(nullptr) : json(c.inter_node_link);
    j["prompt_tokens"] = c.prompt_tokens;
    j["host_memory_bandwidth_gb_per_s"] = c.host_memory_bandwidth_gb_per_s > 0 ? json(c.host_memory_bandwidth_gb_per_s) : json(nullptr);
    j["layer_overhead_us"] = c.layer_overhead_us >= 0 ? json(c.layer_overhead_us) : json(nullptr);
    return j;
}

}  // namespace

std::string config_to_json(const Config& c, int indent) { return config_json(c).dump(indent, ' ', false, json::error_handler_t::replace); }

json config_to_json_value(const Config& c) { return config_json(c); }

// ---------------------------------------------------------------------------------------------
// [SECTION] Recommend constraints
// ---------------------------------------------------------------------------------------------

RecommendQuery recommend_query_from_json(std::string_view config_json, std::string_view constraints_json) {
    RecommendQuery q;
    q.base = config_from_json(config_json);
    const json j = parse_json(constraints_json.empty() ? std::string_view("{}") : constraints_json, "constraints");
    const Obj o(j, "constraints");
    o.only({"budget_usd", "power_cap_w", "min_tokens_per_s", "single_node", "segments", "max_gpus", "sort"});
    q.budget_usd = o.num_or("budget_usd", 0.0, 0.0, 1e12);
    q.power_cap_w = o.num_or("power_cap_w", 0.0, 0.0, 1e9);
    q.min_tokens_per_s = o.num_or("min_tokens_per_s", 0.0, 0.0, 1e12);
    if (o.has("single_node")) q.single_node = o.boolean("single_node");
    for (const std::string& s : o.strings_or_empty("segments")) {
        try {
            q.segments.push_back(parse_segment(s));
        } catch (const Error& e) {
            throw Error("constraints: segments", e.what());
        }
    }
    const double max_gpus = o.num_or("max_gpus", 8.0, 1.0, 1024.0);
    if (max_gpus != std::floor(max_gpus)) o.fail("max_gpus", "must be an integer from 1 to 1024");
    q.max_gpus = int(max_gpus);
    if (o.has("sort")) {
        try {
            q.sort = parse_recommend_sort(o.str("sort"));
        } catch (const Error& e) {
            throw Error("constraints: sort", e.what());
        }
    }
    return q;
}

}  // namespace gpusizer
