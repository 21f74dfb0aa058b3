// config_io.cpp: the configuration as JSON (docs/config.md) and the recommend constraints.
//
// [SECTION] Reading the configuration
// [SECTION] Writing the configuration
// [SECTION] Recommend constraints
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/precision.hpp"
#include "gpusizer/recommend.hpp"
#include "hub_model.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"
#include "nearest.hpp"

namespace gpusizer {

using nlohmann::json;
using detail::dump_text;
using detail::object;
using detail::Obj;
using detail::parse_json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading the configuration
// ---------------------------------------------------------------------------------------------

namespace {

std::string shown(const json& v) { return dump_text(v); }

// {"hf_config": {...}}: the importer's architecture, with the text kept for round trips.
ModelSpec model_from_hf_value(const json& hf) {
    ModelSpec spec;
    spec.custom = true;
    spec.arch = arch_from_hf_json(hf, &spec.import_warnings);
    spec.hf_config_json = shown(hf);
    if (spec.arch.name.empty()) spec.arch.name = "custom " + spec.arch.model_type + " model";
    return spec;
}

// {"hf_config": {...}}, {"num_parameters": N} or a catalog id.
ModelSpec model_from_value(const json& m) {
    if (m.is_string()) {
        if (m.get<std::string>().empty()) throw_error("model", "must not be empty");
        return model_from_catalog(m.get<std::string>());
    } else if (m.is_object()) {
        if (m.contains("hub") || m.contains("gguf_headers")) {
            // {"hub": "org/name", ...}, or a GGUF file's header a page read from the reader's
            // disk ({"file", "gguf_headers"}): hub_model.cpp
            return model_from_hub_value(m);
        } else if (m.contains("hf_config")) {
            if (m.size() != 1) throw_error("model", "an object model holds exactly one of hf_config or num_parameters");
            return model_from_hf_value(m["hf_config"]);
        } else if (m.contains("num_parameters")) {
            if (m.size() != 1) throw_error("model", "an object model holds exactly one of hf_config or num_parameters");
            const json& n = m["num_parameters"];
            if (!n.is_number()) throw_error("model.num_parameters", "must be a number, got " + shown(n));
            return model_from_parameter_count(n.get<double>());
        } else {
            throw_error("model",
                        "an object model needs hf_config (the fields of a Hugging Face config.json), num_parameters or hub (a Hugging Face "
                        "repository)");
        }
    }
    throw_error("model", "must be a catalog id string or an object {\"hf_config\": {...}} / {\"num_parameters\": N}");
}

// One key's JSON value into the configuration, checked against the key's row.
void read_key(Config& c, const ConfigKey& k, const json& v) {
    switch (k.kind) {
        case KeyKind::model: c.model = model_from_value(v); return;
        case KeyKind::choice:
        case KeyKind::text:
            if (k.member.s == &Config::gpu && detail::read_custom_gpu(c, v)) return;   // an object: custom_gpu_json.cpp
            if (!v.is_string()) throw_error(k.name, "must be a string, got " + shown(v));
            set_key_text(c, k, v.get<std::string>());
            return;
        case KeyKind::integer:
        case KeyKind::number: {
            const char* what = k.kind == KeyKind::integer ? "must be an integer, got " : "must be a number, got ";
            if (!v.is_number()) throw_error(k.name, what + shown(v));
            const double d = v.get<double>();
            if (!std::isfinite(d) || (k.kind == KeyKind::integer && d != std::floor(d))) throw_error(k.name, what + shown(v));
            check_key_value(k, d, UnsetValue::refused);
            set_key_number(c, k, d);
            return;
        }
        case KeyKind::boolean:
            if (!v.is_boolean()) throw_error(k.name, "must be true or false, got " + shown(v));
            set_key_number(c, k, v.get<bool>() ? 1 : 0);
            return;
        case KeyKind::list:
            if (v.is_string()) {
                c.lora_targets = parse_lora_target(v.get<std::string>());
            } else if (v.is_array()) {
                if (v.empty()) throw_error(k.name, "must name at least one module");
                c.lora_targets = 0;
                for (const auto& t : v) {
                    if (!t.is_string()) throw_error(k.name, "must be strings, got " + shown(t));
                    c.lora_targets |= parse_lora_target(t.get<std::string>());
                }
            } else {
                throw_error(k.name, "must be \"all-linear\" or an array such as [\"q_proj\", \"v_proj\"]");
            }
            return;
    }
}

}  // namespace

ModelSpec model_from_catalog(std::string id) {
    ModelSpec spec;
    spec.id = std::move(id);
    return spec;
}

ModelSpec model_from_hf_config(std::string_view json_text) { return model_from_hf_value(parse_json(json_text, "hf_config")); }

bool looks_like_hf_config(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || text[first] != '{') return false;
    try {
        const json j = parse_json(text, "config");
        return j.is_object() && !j.contains("model") && (j.contains("model_type") || j.contains("architectures"));
    } catch (const Error&) {
        return false;   // not JSON within the limits: whichever reader takes it says why
    }
}

ModelSpec model_from_parameter_count(double num_parameters) {
    ModelSpec spec;
    spec.custom = true;
    spec.num_parameters = num_parameters;
    spec.arch = synthesize_arch(num_parameters);   // checks the range, naming model.num_parameters
    return spec;
}

ModelSpec model_from_shape(const ModelShape& s) {
    // The fields of a Llama config.json (transformers LlamaConfig), plus Mixtral's two expert
    // fields (MixtralConfig) for a mixture of experts.
    json hf = {{"model_type", s.experts > 0 ? "mixtral" : "llama"},
               {"num_hidden_layers", s.layers},
               {"hidden_size", s.hidden},
               {"intermediate_size", s.intermediate},
               {"num_attention_heads", s.heads},
               {"num_key_value_heads", s.kv_heads},
               {"vocab_size", s.vocab},
               {"tie_word_embeddings", s.tied},
               {"max_position_embeddings", s.max_context}};
    if (s.experts > 0) {
        hf["num_local_experts"] = s.experts;
        hf["num_experts_per_tok"] = s.experts_per_token;
    }
    return model_from_hf_value(hf);
}

void check_json_text(std::string_view text, const std::string& what) { (void)parse_json(text, what); }

Config config_from_json(std::string_view text) { return config_from_json_value(parse_json(text, "config")); }

Config config_from_json_value(const json& j) {
    if (!j.is_object()) throw_error("config", "must be a JSON object such as {\"model\": \"llama-3-8b\"}");
    if (!j.contains("model") && (j.contains("model_type") || j.contains("architectures")))
        throw_error("config",
                    "is a Hugging Face config.json, not a gpusizer configuration: it goes in one as the model, "
                    "{\"model\": {\"hf_config\": <its fields>}} (the CLI's --hf-config FILE; the app opens the file as the model)");
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "schema_version" || find_config_key(it.key())) continue;
        // The keys near it, not all of them (QA D16: a list of 60 keys over six lines).
        std::vector<std::string_view> names{"schema_version"};
        for (const ConfigKey& k : config_keys()) names.push_back(k.name);
        const std::string near = nearest_list(it.key(), names, 5);
        throw_error(it.key(), "unknown configuration key" + (near.empty() ? std::string() : "; nearest: " + near) +
                                  " (docs/config.md lists all " + std::to_string(names.size()) + ")");
    }
    // A model read from a file (gguf, hf_dir) stands in for `model` (load_model_files reads it).
    auto given = [&](const char* k) { const auto v = j.find(k); return v != j.end() && !v->is_null(); };
    const bool from_file = given("gguf") || given("hf_dir");
    if (!j.contains("model") && !from_file)
        throw_error("model", "is required: a catalog id (see `gpusizer models`) or {\"hf_config\": {...}}");
    if (const auto v = j.find("schema_version"); v != j.end() && !v->is_null() && !(v->is_number_integer() && v->get<long long>() == 1))
        throw_error("schema_version", "must be 1, got " + shown(*v));
    Config c;
    for (const ConfigKey& k : config_keys()) {
        const auto v = j.find(k.name);
        if (k.kind == KeyKind::model) {
            if (from_file && (v == j.end() || v->is_null())) continue;   // the file gives it
            read_key(c, k, *v);   // null included: refused there
        }
        else if (v != j.end() && !v->is_null()) read_key(c, k, *v);   // absent or null: the default
    }
    // A GGUF file from the Hub sets `weights` from its general.file_type when not given, as a
    // local file does (load_model_files).
    if (c.weights.empty() && !c.model.hub_weights.empty()) c.weights = c.model.hub_weights;
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Writing the configuration
// ---------------------------------------------------------------------------------------------

namespace {

json model_json(const ModelSpec& m) {
    if (!m.custom) return m.id;
    // As given: the repository and what was fetched, or a page's local file and its header.
    if (!m.hub_json.empty()) return parse_json(m.hub_json, "model");
    if (m.arch.source == "gguf" || m.arch.source == "safetensors") return nullptr;   // the gguf / hf_dir key names it
    if (!m.hf_config_json.empty()) return object({{"hf_config", parse_json(m.hf_config_json, "model.hf_config")}});
    return object({{"num_parameters", m.num_parameters}});
}

json config_json(const Config& c) {
    json j;
    for (const ConfigKey& k : config_keys()) {
        json& v = j[k.name];
        const bool unset = key_unset(c, k) && k.unset != KeyUnset::zero;   // zero-default keys are written as 0
        switch (k.kind) {
            case KeyKind::model: v = model_json(c.model); break;
            case KeyKind::choice:
            case KeyKind::text:
                if (k.member.s == &Config::gpu && detail::write_custom_gpu(c, v)) break;   // an object: custom_gpu_json.cpp
                v = unset ? json(nullptr) : json(key_text(c, k));
                break;
            case KeyKind::integer: v = unset ? json(nullptr) : json((long long)key_number(c, k)); break;
            case KeyKind::number: v = unset ? json(nullptr) : json(key_number(c, k)); break;
            case KeyKind::boolean: v = key_number(c, k) != 0; break;
            case KeyKind::list:
                v = c.lora_targets == kLoraAllLinear ? json("all-linear") : json(lora_target_names(c.lora_targets));
                break;
        }
    }
    return j;
}

}  // namespace

std::string config_to_json(const Config& c, int indent) { return dump_text(config_json(c), indent); }

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
    q.budget_usd = limit_or_none(o.num_or("budget_usd", 0.0, 0.0, 1e12));
    q.power_cap_w = limit_or_none(o.num_or("power_cap_w", 0.0, 0.0, 1e9));
    q.min_tokens_per_s = limit_or_none(o.num_or("min_tokens_per_s", 0.0, 0.0, 1e12));
    if (o.has("single_node")) q.single_node = o.boolean("single_node");
    for (const std::string& s : o.strings_or_empty("segments")) {
        try {
            q.segments.push_back(parse_segment(s));
        } catch (const Error& e) {
            throw Error(std::vector<std::string>{"constraints", "segments"}, e.message(), e.code());
        }
    }
    const double max_gpus = o.num_or("max_gpus", 8.0, 1.0, 1024.0);
    if (max_gpus != std::floor(max_gpus)) o.fail("max_gpus", "must be an integer from 1 to 1024");
    q.max_gpus = int(max_gpus);
    if (o.has("sort")) {
        try {
            q.sort = parse_recommend_sort(o.str("sort"));
        } catch (const Error& e) {
            throw Error(std::vector<std::string>{"constraints", "sort"}, e.message(), e.code());
        }
    }
    return q;
}

}  // namespace gpusizer
