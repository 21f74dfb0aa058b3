// json_io.cpp: JSON at the edge of the core.
//
// [SECTION] Reading helpers: every error names the file / key and what is allowed
// [SECTION] Catalog: assets/gpus.json and assets/models.json
// [SECTION] Configuration JSON
// [SECTION] Report, fit and list JSON
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/catalog.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/precision.hpp"
#include "json_internal.hpp"

namespace gpusizer {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading helpers
// ---------------------------------------------------------------------------------------------

json parse_json(std::string_view text, const std::string& what) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // nlohmann's message carries the byte offset of the error.
        std::string msg = e.what();
        const auto pos = msg.find("parse error");
        throw Error(what, "is not valid JSON (" + (pos == std::string::npos ? msg : msg.substr(pos)) + ")");
    }
}

// One JSON object being read, with the context its errors name ("gpus.json: rtx-4090").
class Obj {
public:
    Obj(const json& j, std::string ctx) : j_(j), ctx_(std::move(ctx)) {
        if (!j_.is_object()) throw Error(ctx_, "must be a JSON object");
    }
    const std::string& ctx() const { return ctx_; }
    bool has(const char* k) const { return j_.contains(k) && !j_.at(k).is_null(); }
    const json& at(const char* k) const { return j_.at(k); }

    [[noreturn]] void fail(const char* k, const std::string& msg) const { throw Error(ctx_ + ": " + k, msg); }

    const json& need(const char* k) const {
        if (!j_.contains(k)) fail(k, "is missing");
        return j_.at(k);
    }
    std::string str(const char* k) const {
        const json& v = need(k);
        if (!v.is_string()) fail(k, "must be a string, got " + v.dump());
        return v.get<std::string>();
    }
    std::string str_or(const char* k, const std::string& def) const { return has(k) ? str(k) : def; }
    double num(const char* k, double lo, double hi) const {
        const json& v = need(k);
        return check_num(k, v, lo, hi);
    }
    double num_or(const char* k, double def, double lo, double hi) const { return has(k) ? check_num(k, at(k), lo, hi) : def; }
    bool boolean(const char* k) const {
        const json& v = need(k);
        if (!v.is_boolean()) fail(k, "must be true or false, got " + v.dump());
        return v.get<bool>();
    }
    // Refuses keys outside `known`: a typo in a data file must not pass silently.
    void only(std::initializer_list<const char*> known) const {
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            bool ok = false;
            for (const char* k : known) ok = ok || it.key() == k;
            if (!ok) {
                std::string list;
                for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
                throw Error(ctx_ + ": " + it.key(), "unknown field; known fields: " + list);
            }
        }
    }
    std::vector<std::string> strings_or_empty(const char* k) const {
        std::vector<std::string> out;
        if (!has(k)) return out;
        const json& v = at(k);
        if (!v.is_array()) fail(k, "must be an array of strings");
        for (const auto& s : v) {
            if (!s.is_string()) fail(k, "must be an array of strings, found " + s.dump());
            out.push_back(s.get<std::string>());
        }
        return out;
    }

private:
    double check_num(const char* k, const json& v, double lo, double hi) const {
        if (!v.is_number()) fail(k, "must be a number, got " + v.dump());
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < lo || d > hi) {
            // %g is what an ostream prints by default; snprintf keeps iostreams (and their
            // locale tables, some 100 KB of WebAssembly) out of the browser build.
            char range[96];
            std::snprintf(range, sizeof range, "must be between %g and %g, got ", lo, hi);
            fail(k, range + v.dump());
        }
        return d;
    }
    const json& j_;
    std::string ctx_;
};

void check_schema(const json& root, const std::string& file, const char* list_key) {
    if (!root.is_object()) throw Error(file, "must be a JSON object with schema_version and " + std::string(list_key));
    if (!root.contains("schema_version") || !root["schema_version"].is_number_integer() || root["schema_version"].get<int>() != 1)
        throw Error(file + ": schema_version", "must be 1 (this build reads schema version 1)");
    if (!root.contains(list_key) || !root[list_key].is_array() || root[list_key].empty())
        throw Error(file + ": " + list_key, "must be a non-empty array");
}

std::string entry_ctx(const std::string& file, const json& e, std::size_t index) {
    if (e.is_object() && e.contains("id") && e["id"].is_string()) return file + ": " + e["id"].get<std::string>();
    return file + ": entry " + std::to_string(index);
}

bool valid_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
    return true;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Catalog
// ---------------------------------------------------------------------------------------------

Gpu gpu_from_json(const json& e, const std::string& ctx) {
    Obj o(e, ctx);
    o.only({"id", "name", "vendor", "architecture", "chip", "year", "segment", "memory_gib", "memory_total_mib",
            "gpu_memory_fraction", "memory_type", "memory_bandwidth_gb_per_s", "fp32_tflops", "tensor_tflops_dense",
            "tensor_tflops_dense_fp16_accumulate", "tdp_w", "interconnect", "ecc", "form_factor", "price_usd", "price_note",
            "note", "sources", "unverified"});
    Gpu g;
    g.id = o.str("id");
    if (!valid_id(g.id)) o.fail("id", "must be lower-case kebab-case (a-z, 0-9, '-', '.'), got '" + g.id + "'");
    g.name = o.str("name");
    g.vendor = o.str("vendor");
    if (g.vendor != "nvidia" && g.vendor != "amd" && g.vendor != "apple") o.fail("vendor", "must be nvidia, amd or apple");
    g.architecture = o.str("architecture");
    g.chip = o.str_or("chip", "");
    g.year = int(o.num("year", 1990, 2100));
    const std::string seg = o.str("segment");
    if (seg == "consumer") g.segment = Segment::consumer;
    else if (seg == "workstation") g.segment = Segment::workstation;
    else if (seg == "datacenter") g.segment = Segment::datacenter;
    else if (seg == "apple") g.segment = Segment::apple;
    else o.fail("segment", "must be consumer, workstation, datacenter or apple, got '" + seg + "'");
    g.memory_gib = o.num("memory_gib", 0.25, 1e5);
    g.memory_total_mib = o.num_or("memory_total_mib", 0, 256, 1e8);
    g.gpu_memory_fraction = o.num_or("gpu_memory_fraction", 1.0, 0.05, 1.0);
    g.memory_type = o.str("memory_type");
    g.memory_bandwidth_gb_per_s = o.num("memory_bandwidth_gb_per_s", 1, 1e6);
    g.fp32_tflops = o.num("fp32_tflops", 0.01, 1e6);
    {
        Obj t(o.need("tensor_tflops_dense"), ctx + ": tensor_tflops_dense");
        t.only({"tf32", "fp16", "bf16", "fp8", "int8", "fp4"});
        g.tensor_tflops_dense.tf32 = t.num_or("tf32", 0, 0, 1e6);
        g.tensor_tflops_dense.fp16 = t.num_or("fp16", 0, 0, 1e6);
        g.tensor_tflops_dense.bf16 = t.num_or("bf16", 0, 0, 1e6);
        g.tensor_tflops_dense.fp8 = t.num_or("fp8", 0, 0, 1e6);
        g.tensor_tflops_dense.int8 = t.num_or("int8", 0, 0, 1e6);
        g.tensor_tflops_dense.fp4 = t.num_or("fp4", 0, 0, 1e6);
    }
    g.fp16_accumulate_tflops = o.num_or("tensor_tflops_dense_fp16_accumulate", 0, 0, 1e6);
    g.tdp_w = o.has("tdp_w") ? o.num("tdp_w", 1, 1e5) : 0.0;
    if (!o.has("tdp_w") && g.vendor != "apple") o.fail("tdp_w", "is required (null is allowed for Apple machines only)");
    {
        Obj ic(o.need("interconnect"), ctx + ": interconnect");
        ic.only({"nvlink", "nvlink_gb_per_s", "pcie_gen", "pcie_lanes"});
        g.nvlink = ic.str("nvlink");
        if (g.nvlink != "none" && g.nvlink != "bridge" && g.nvlink != "nvswitch" && g.nvlink != "mesh" && g.nvlink != "infinity-fabric")
            ic.fail("nvlink", "must be none, bridge, nvswitch, mesh or infinity-fabric, got '" + g.nvlink + "'");
        g.nvlink_gb_per_s = ic.num("nvlink_gb_per_s", 0, 1e5);
        g.pcie_gen = int(ic.num_or("pcie_gen", 0, 1, 7));
        g.pcie_lanes = int(ic.num_or("pcie_lanes", 0, 1, 32));
    }
    g.ecc = o.boolean("ecc");
    g.form_factor = o.str("form_factor");
    o.need("price_usd");
    if (o.has("price_usd")) g.price_usd = o.num("price_usd", 0, 1e8);
    g.price_note = o.str_or("price_note", "");
    g.sources = o.strings_or_empty("sources");
    if (g.sources.empty()) o.fail("sources", "must name at least one source");
    g.unverified = o.strings_or_empty("unverified");
    return g;
}

CatalogModel model_from_json(const json& e, const std::string& ctx) {
    Obj o(e, ctx);
    o.only({"id", "name", "family", "hf_repo", "params_published", "active_params_published", "context_trained", "hf_config",
            "seed_article", "note", "sources", "unverified"});
    CatalogModel m;
    const std::string id = o.str("id");
    if (!valid_id(id)) o.fail("id", "must be lower-case kebab-case (a-z, 0-9, '-', '.'), got '" + id + "'");
    std::vector<std::string> ignored;
    try {
        m.arch = arch_from_hf_json(o.need("hf_config"), &ignored);
    } catch (const Error& err) {
        throw Error(ctx + ": " + err.key(), std::string(err.what()).substr(err.key().size() + 2));
    }
    for (const auto& w : ignored)
        if (w.find("not understood") != std::string::npos) throw Error(ctx, w);   // the catalog must be fully understood
    m.arch.id = id;
    m.arch.name = o.str("name");
    m.family = o.str("family");
    m.hf_repo = o.str("hf_repo");
    m.params_published = o.num("params_published", 1e5, 1e14);
    m.active_params_published = o.num_or("active_params_published", 0, 1e5, 1e14);
    if (m.arch.is_moe() && m.active_params_published == 0) o.fail("active_params_published", "is required for a mixture-of-experts model");
    m.context_trained = int(o.num("context_trained", 1, 1e9));
    m.arch.max_context = m.context_trained;   // the published figure wins over max_position_embeddings
    if (o.has("seed_article")) {
        Obj s(o.at("seed_article"), ctx + ": seed_article");
        s.only({"params", "vram", "gpu"});
        m.seed.params = s.str("params");
        m.seed.vram = s.str("vram");
        m.seed.gpu = s.str("gpu");
    }
    m.sources = o.strings_or_empty("sources");
    if (m.sources.empty()) o.fail("sources", "must name at least one source");
    m.unverified = o.strings_or_empty("unverified");
    return m;
}

}  // namespace

Catalog catalog_from_json(std::string_view gpus_json, std::string_view models_json) {
    Catalog c;
    const json g = parse_json(gpus_json, "gpus.json");
    check_schema(g, "gpus.json", "gpus");
    const auto& gl = g["gpus"];
    for (std::size_t i = 0; i < gl.size(); ++i) {
        Gpu gpu = gpu_from_json(gl[i], entry_ctx("gpus.json", gl[i], i));
        if (c.find_gpu(gpu.id)) throw Error("gpus.json: " + gpu.id, "duplicate id");
        c.gpus.push_back(std::move(gpu));
    }
    const json m = parse_json(models_json, "models.json");
    check_schema(m, "models.json", "models");
    const auto& ml = m["models"];
    for (std::size_t i = 0; i < ml.size(); ++i) {
        CatalogModel model = model_from_json(ml[i], entry_ctx("models.json", ml[i], i));
        if (c.find_model(model.arch.id)) throw Error("models.json: " + model.arch.id, "duplicate id");
        c.models.push_back(std::move(model));
    }
    c.reindex();
    return c;
}

namespace {

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw Error(p.filename().string(), "cannot be read at " + p.string());
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

Catalog load_catalog(const std::string& dir) {
    const std::filesystem::path d(dir);
    const std::string gpus = read_file(d / "gpus.json");
    const std::string models = read_file(d / "models.json");
    return catalog_from_json(gpus, models);
}

std::string find_assets_dir(const char* argv0) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("GPUSIZER_ASSETS"); env && *env) candidates.emplace_back(env);
    if (argv0 && *argv0) {
        std::error_code ec;
        fs::path exe = fs::weakly_canonical(fs::path(argv0), ec);
        if (!ec) {
            candidates.push_back(exe.parent_path() / "assets");
            candidates.push_back(exe.parent_path().parent_path() / "share" / "gpusizer" / "assets");
        }
    }
#ifdef GPUSIZER_SOURCE_ASSETS
    candidates.emplace_back(GPUSIZER_SOURCE_ASSETS);
#endif
    for (const auto& c : candidates) {
        std::error_code ec;
        if (fs::exists(c / "gpus.json", ec) && fs::exists(c / "models.json", ec)) return c.string();
    }
    throw Error("assets", "gpus.json and models.json not found; set GPUSIZER_ASSETS to the assets/ folder");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Configuration JSON
// ---------------------------------------------------------------------------------------------

namespace {

const char* const kConfigKeys[] = {
    "model", "mode", "weights", "kv_cache", "batch", "global_batch", "context", "optimizer", "zero", "offload",
    "recompute", "flash_attention", "sequence_parallel", "lora_rank", "lora_targets", "gpu", "gpus", "tp", "pp",
    "dp", "ep", "runtime", "gpu_memory_utilization", "quant_group_size", "prefill_chunk", "schema_version"};

long long config_int(const json& v, const char* key, long long lo, long long hi) {
    if (!v.is_number()) throw Error(key, "must be an integer, got " + v.dump());
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) throw Error(key, "must be an integer, got " + v.dump());
    if (d < double(lo) || d > double(hi))
        throw Error(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + v.dump());
    return (long long)d;
}

std::string config_str(const json& v, const char* key) {
    if (!v.is_string()) throw Error(key, "must be a string, got " + v.dump());
    return v.get<std::string>();
}

bool config_bool(const json& v, const char* key) {
    if (!v.is_boolean()) throw Error(key, "must be true or false, got " + v.dump());
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
            c.model.hf_config_json = m["hf_config"].dump();
            if (c.model.arch.name.empty()) c.model.arch.name = "custom " + c.model.arch.model_type + " model";
        } else if (m.contains("num_parameters")) {
            if (m.size() != 1) throw Error("model", "an object model holds exactly one of hf_config or num_parameters");
            const json& n = m["num_parameters"];
            if (!n.is_number()) throw Error("model.num_parameters", "must be a number, got " + n.dump());
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
                if (!t.is_string()) throw Error("lora_targets", "must be strings, got " + t.dump());
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
    return c;
}

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
    return j;
}

// Bytes and counts go out as integers (exact in a double up to 2^53).
json whole(double v) { return json(static_cast<long long>(std::llround(v))); }

json parts_json(const MemoryParts& p) {
    return json{{"weights", whole(p.weights)},         {"kv_cache", whole(p.kv_cache)},
                {"activations", whole(p.activations)}, {"gradients", whole(p.gradients)},
                {"optimizer", whole(p.optimizer)},     {"overhead", whole(p.overhead)},
                {"total", whole(p.total())}};
}

json report_json(const Report& r) {
    json j;
    j["schema_version"] = 1;
    j["model"] = {{"id", r.config.model.custom ? std::string("custom") : r.config.model.id}, {"name", r.model_name}};
    j["gpu"] = {{"id", r.config.gpu}, {"name", r.gpu_name}};
    j["config"] = config_json(r.config);
    j["parallel"] = {{"tp", r.parallel.tp}, {"pp", r.parallel.pp}, {"dp", r.parallel.dp}, {"ep", r.parallel.ep}};
    j["params"] = whole(r.params);
    j["active_params"] = whole(r.active_params);
    j["trainable_params"] = whole(r.trainable_params);
    j["kv_bytes_per_token"] = whole(r.kv_bytes_per_token);
    j["weights_bits_per_param"] = std::round(r.weights_bits_per_param * 1000.0) / 1000.0;
    json mem;
    mem["per_gpu"] = parts_json(r.per_gpu);
    mem["overhead_detail"] = {{"cuda_context", whole(r.overhead_detail.cuda_context)},
                              {"allocator_reserve", whole(r.overhead_detail.allocator_reserve)},
                              {"runtime_buffers", whole(r.overhead_detail.runtime_buffers)}};
    mem["activations_per_layer"] = whole(r.activations_per_layer);
    mem["kv_capacity_tokens"] = whole(r.kv_capacity_tokens);
    mem["host"] = whole(r.host);
    mem["gpu_capacity"] = whole(r.gpu_capacity);
    mem["gpu_usable"] = whole(r.gpu_usable);
    mem["headroom"] = whole(r.headroom);
    j["memory"] = mem;
    j["fits"] = r.fits;
    j["warnings"] = r.warnings;
    return j;
}

json fit_row_json(const FitRow& row) {
    return json{{"format", row.format}, {"fits", row.fits}, {"total", whole(row.total)},
                {"headroom", whole(row.headroom)}, {"max_context", row.max_context}};
}

}  // namespace

std::string config_to_json(const Config& c, int indent) { return config_json(c).dump(indent); }

json config_to_json_value(const Config& c) { return config_json(c); }

std::string report_to_json(const Report& r, int indent) { return report_json(r).dump(indent); }

std::string fit_to_json(const FitReport& f, int indent) {
    json j;
    j["schema_version"] = 1;
    j["report"] = report_json(f.base);
    j["max_context"] = f.max_context;
    j["max_batch"] = f.max_batch;
    j["best_weights"] = f.best_weights.empty() ? json(nullptr) : json(f.best_weights);
    j["best_kv_cache"] = f.best_kv_cache.empty() ? json(nullptr) : json(f.best_kv_cache);
    j["by_weights"] = json::array();
    for (const auto& row : f.by_weights) j["by_weights"].push_back(fit_row_json(row));
    j["by_kv_cache"] = json::array();
    for (const auto& row : f.by_kv_cache) j["by_kv_cache"].push_back(fit_row_json(row));
    return j.dump(indent);
}

std::string assumptions_to_json(const std::vector<Assumption>& items, int indent) {
    json j = json::array();
    for (const auto& a : items) j.push_back({{"name", a.name}, {"value", a.value}, {"source", a.source}});
    return j.dump(indent);
}

std::string models_to_json(const Catalog& catalog, int indent) {
    json j = json::array();
    for (const auto& m : catalog.models) {
        const ParamCounts pc = count_params(m.arch);
        json e{{"id", m.arch.id},
               {"name", m.arch.name},
               {"family", m.family},
               {"hf_repo", m.hf_repo},
               {"params", whole(pc.total())},
               {"active_params", whole(pc.active(m.arch))},
               {"params_published", m.params_published},
               {"context_trained", m.context_trained},
               {"layers", m.arch.total_layers()},
               {"hidden_size", m.arch.hidden},
               {"attention_heads", m.arch.n_heads},
               {"kv_heads", m.arch.n_kv_heads},
               {"moe", m.arch.is_moe()},
               {"mla", m.arch.mla}};
        j.push_back(e);
    }
    return j.dump(indent);
}

std::string gpus_to_json(const Catalog& catalog, int indent) {
    json j = json::array();
    for (const auto& g : catalog.gpus) {
        json t{{"tf32", g.tensor_tflops_dense.tf32}, {"fp16", g.tensor_tflops_dense.fp16}, {"bf16", g.tensor_tflops_dense.bf16},
               {"fp8", g.tensor_tflops_dense.fp8},   {"int8", g.tensor_tflops_dense.int8}, {"fp4", g.tensor_tflops_dense.fp4}};
        json e{{"id", g.id},
               {"name", g.name},
               {"vendor", g.vendor},
               {"architecture", g.architecture},
               {"segment", std::string(segment_name(g.segment))},
               {"year", g.year},
               {"memory_gib", g.memory_gib},
               {"capacity_bytes", whole(g.capacity_bytes())},
               {"memory_type", g.memory_type},
               {"memory_bandwidth_gb_per_s", g.memory_bandwidth_gb_per_s},
               {"fp32_tflops", g.fp32_tflops},
               {"tensor_tflops_dense", t},
               {"tdp_w", g.tdp_w > 0 ? json(g.tdp_w) : json(nullptr)},
               {"nvlink", g.nvlink},
               {"nvlink_gb_per_s", g.nvlink_gb_per_s},
               {"pcie_gen", g.pcie_gen > 0 ? json(g.pcie_gen) : json(nullptr)},
               {"ecc", g.ecc},
               {"form_factor", g.form_factor},
               {"price_usd", g.price_usd ? json(*g.price_usd) : json(nullptr)}};
        j.push_back(e);
    }
    return j.dump(indent);
}

}  // namespace gpusizer
