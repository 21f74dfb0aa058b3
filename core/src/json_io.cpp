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
#include "gpusizer/recommend.hpp"
#include "json_internal.hpp"
#include "measured_json.hpp"

namespace gpusizer {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading helpers
// ---------------------------------------------------------------------------------------------

json parse_json(std::string_view text, const std::string& what) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
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
        if (!v.is_string()) fail(k, "must be a string, got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
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
        if (!v.is_boolean()) fail(k, "must be true or false, got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
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
            if (!s.is_string()) fail(k, "must be an array of strings, found " + s.dump(-1, ' ', false, json::error_handler_t::replace));
            out.push_back(s.get<std::string>());
        }
        return out;
    }

private:
    double check_num(const char* k, const json& v, double lo, double hi) const {
        if (!v.is_number()) fail(k, "must be a number, got " + v.dump(-1, ' ', false, json::error_handler_t::replace));
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < lo || d > hi) {
            // %g is what an ostream prints by default; snprintf keeps iostreams (and their
            // locale tables, some 100 KB of WebAssembly) out of the browser build.
            char range[96];
            std::snprintf(range, sizeof range, "must be between %g and %g, got ", lo, hi);
            fail(k, range + v.dump(-1, ' ', false, json::error_handler_t::replace));
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
    for (auto it = root.begin(); it != root.end(); ++it)
        if (it.key() != "schema_version" && it.key() != list_key)
            throw Error(file + ": " + it.key(), "unknown field; a catalog file holds schema_version and " + std::string(list_key));
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
            "tensor_tflops_dense_fp16_accumulate", "tdp_w", "interconnect", "ecc", "p2p", "tensor_cores", "form_factor",
            "price_usd", "price_note", "note", "sources", "unverified"});
    Gpu g;
    g.id = o.str("id");
    if (!valid_id(g.id)) o.fail("id", "must be lower-case kebab-case (a-z, 0-9, '-', '.'), got '" + g.id + "'");
    g.name = o.str("name");
    g.vendor = o.str("vendor");
    if (g.vendor != "nvidia" && g.vendor != "amd" && g.vendor != "intel" && g.vendor != "apple")
        o.fail("vendor", "must be nvidia, amd, intel or apple");
    g.architecture = o.str("architecture");
    // The architectures compute.cpp has a whitepaper row for; Apple's by generation.
    if (const auto a = architecture_from_name(g.architecture)) g.arch = *a;
    else
        o.fail("architecture", "must be volta, turing, ampere, ada, hopper, blackwell, cdna2, cdna3, cdna4, rdna3, rdna3.5, "
                               "rdna4, xe2 or apple-mN, got '" + g.architecture + "'");
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
        if (const auto k = nvlink_kind_from_name(g.nvlink)) g.link = *k;
        else ic.fail("nvlink", "must be none, bridge, nvswitch, mesh or infinity-fabric, got '" + g.nvlink + "'");
        g.nvlink_gb_per_s = ic.num("nvlink_gb_per_s", 0, 1e5);
        g.pcie_gen = int(ic.num_or("pcie_gen", 0, 1, 7));
        g.pcie_lanes = int(ic.num_or("pcie_lanes", 0, 1, 32));
    }
    g.ecc = o.boolean("ecc");
    g.p2p = o.boolean("p2p");
    // Apple M-series GPUs expose no matrix units: their "tensor" figures are the ALU rate.
    g.tensor_cores = o.boolean("tensor_cores");
    g.form_factor = o.str("form_factor");
    o.need("price_usd");
    if (o.has("price_usd")) g.price_usd = o.num("price_usd", 0, 1e8);
    g.price_note = o.str_or("price_note", "");
    (void)o.str_or("note", "");   // prose for people; checked to be text
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
    (void)o.str_or("note", "");   // prose for people; checked to be text
    m.sources = o.strings_or_empty("sources");
    if (m.sources.empty()) o.fail("sources", "must name at least one source");
    m.unverified = o.strings_or_empty("unverified");
    return m;
}

Link link_from_json(const json& e, const std::string& ctx) {
    Obj o(e, ctx);
    o.only({"id", "name", "kind", "scope", "bandwidth_gb_per_s", "bidirectional_gb_per_s", "latency_us", "latency_large_us",
            "gpus_per_node", "busbw_efficiency", "note", "sources", "unverified"});
    Link l;
    l.id = o.str("id");
    if (!valid_id(l.id)) o.fail("id", "must be lower-case kebab-case (a-z, 0-9, '-', '.'), got '" + l.id + "'");
    l.name = o.str("name");
    const std::string kind = o.str("kind");
    bool known_kind = false;
    for (LinkKind k : {LinkKind::pcie, LinkKind::nvlink, LinkKind::nvlink_bridge, LinkKind::infinity_fabric, LinkKind::infiniband,
                       LinkKind::ethernet})
        if (kind == kind_name(k)) {
            l.kind = k;
            known_kind = true;
        }
    if (!known_kind) o.fail("kind", "must be pcie, nvlink, nvlink-bridge, infinity-fabric, infiniband or ethernet, got '" + kind + "'");
    const std::string scope = o.str("scope");
    if (scope == "intra-node") l.scope = LinkScope::intra_node;
    else if (scope == "inter-node") l.scope = LinkScope::inter_node;
    else o.fail("scope", "must be intra-node or inter-node, got '" + scope + "'");
    l.bandwidth_gb_per_s = o.num("bandwidth_gb_per_s", 0.1, 1e5);
    l.bidirectional_gb_per_s = o.num("bidirectional_gb_per_s", 0.1, 2e5);
    if (l.bidirectional_gb_per_s < l.bandwidth_gb_per_s)
        o.fail("bidirectional_gb_per_s", "must be at least bandwidth_gb_per_s (one direction)");
    l.latency_us = o.num("latency_us", 0.001, 1e4);
    l.latency_large_us = o.num("latency_large_us", 0.001, 1e4);
    l.gpus_per_node = int(o.num("gpus_per_node", 1, 1e6));
    if (l.scope == LinkScope::inter_node && l.gpus_per_node != 1) o.fail("gpus_per_node", "must be 1 for an inter-node link");
    l.busbw_efficiency = o.num_or("busbw_efficiency", 0, 0.05, 1.0);
    l.note = o.str_or("note", "");
    l.sources = o.strings_or_empty("sources");
    if (l.sources.empty()) o.fail("sources", "must name at least one source");
    l.unverified = o.strings_or_empty("unverified");
    return l;
}

}  // namespace

Catalog catalog_from_json(std::string_view gpus_json, std::string_view models_json, std::string_view links_json) {
    Catalog c = catalog_from_json(gpus_json, models_json);
    const json l = parse_json(links_json, "links.json");
    check_schema(l, "links.json", "links");
    const auto& ll = l["links"];
    for (std::size_t i = 0; i < ll.size(); ++i) {
        Link link = link_from_json(ll[i], entry_ctx("links.json", ll[i], i));
        if (c.find_link(link.id)) throw Error("links.json: " + link.id, "duplicate id");
        c.links.push_back(std::move(link));
    }
    c.reindex();
    return c;
}

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
    const std::string links = read_file(d / "links.json");
    return catalog_from_json(gpus, models, links);
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

// Bytes and counts go out as integers (exact in a double up to 2^53).
json whole(double v) { return json(static_cast<long long>(std::llround(v))); }

json parts_json(const MemoryParts& p) {
    return json{{"weights", whole(p.weights)},         {"kv_cache", whole(p.kv_cache)},
                {"activations", whole(p.activations)}, {"gradients", whole(p.gradients)},
                {"optimizer", whole(p.optimizer)},     {"overhead", whole(p.overhead)},
                {"total", whole(p.total())}};
}

// Seconds, rates and watts go out as numbers; a link id that does not apply as null.
json id_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json interconnect_json(const InterconnectReport& ic) {
    json alt = nullptr;
    if (!ic.alternative.link.empty())
        alt = json{{"link", ic.alternative.link},
                   {"hypothetical", ic.alternative.hypothetical},
                   {"tp_comm_s_per_token", ic.alternative.tp_comm_s_per_token},
                   {"dp_allreduce_s_per_step", ic.alternative.dp_allreduce_s_per_step},
                   {"exposed_s", ic.alternative.exposed_s},
                   {"decode_tokens_per_s", ic.alternative.decode_tokens_per_s},
                   {"train_tokens_per_s", ic.alternative.train_tokens_per_s}};
    return json{{"link", id_or_null(ic.link)},
                {"inter_node_link", id_or_null(ic.inter_node_link)},
                {"gpus_per_node", ic.gpus_per_node},
                {"nodes", ic.nodes},
                {"link_bandwidth_bytes_per_s", ic.link_bandwidth_bytes_per_s},
                {"allreduce_busbw_bytes_per_s", ic.allreduce_busbw_bytes_per_s},
                {"tp_comm_s_per_token", ic.tp_comm_s_per_token},
                {"pp_comm_s_per_token", ic.pp_comm_s_per_token},
                {"ep_comm_s_per_token", ic.ep_comm_s_per_token},
                {"tp_comm_s_per_step", ic.tp_comm_s_per_step},
                {"pp_comm_s_per_step", ic.pp_comm_s_per_step},
                {"ep_comm_s_per_step", ic.ep_comm_s_per_step},
                {"dp_allreduce_s_per_step", ic.dp_allreduce_s_per_step},
                {"dp_exposed_s_per_step", ic.dp_exposed_s_per_step},
                {"pp_bubble_fraction", ic.pp_bubble_fraction},
                {"exposed_s_per_step", ic.exposed_s_per_step},
                {"exposed_s_per_token", ic.exposed_s_per_token},
                {"alternative", alt}};
}

json speed_json(const SpeedReport& s) {
    const OffloadReport& o = s.offload;
    return json{{"compute_precision", std::string(s.compute_precision)},
                {"compute_precision_requested", std::string(s.compute_precision_requested)},
                {"native", s.native},
                {"tensor_cores", s.tensor_cores},
                {"peak_flops", s.peak_flops},
                {"mfu", s.mfu},
                {"bandwidth_efficiency", s.bandwidth_efficiency},
                {"decode_tokens_per_s", s.decode_tokens_per_s},
                {"decode_throughput_tokens_per_s", s.decode_throughput_tokens_per_s},
                {"decode_step_s", s.decode_step_s},
                {"decode_bytes_per_step", whole(s.decode_bytes_per_step)},
                {"decode_compute_bound", s.decode_compute_bound},
                {"prefill_tokens_per_s", s.prefill_tokens_per_s},
                {"ttft_s", s.ttft_s},
                {"train_flops_per_token", s.train_flops_per_token},
                {"train_step_s", s.train_step_s},
                {"train_tokens_per_s", s.train_tokens_per_s},
                {"train_time_s", s.train_time_s},
                {"effective_mfu", s.effective_mfu},
                {"offload", json{{"active", o.active},
                                 {"gpu_layers", o.gpu_layers},
                                 {"total_layers", o.total_layers},
                                 {"host_bytes", whole(o.host_bytes)},
                                 {"host_bandwidth_bytes_per_s", o.host_bandwidth_bytes_per_s},
                                 {"decode_tokens_per_s", o.decode_tokens_per_s},
                                 {"experts_on_host_decode_tokens_per_s", o.experts_on_host_decode_tokens_per_s}}}};
}

json power_json(const PowerReport& p) {
    return json{{"gpu_w", p.gpu_w},
                {"host_w", p.host_w},
                {"system_w", p.system_w},
                {"facility_w", p.facility_w},
                {"psu_w", p.psu_w},
                {"heat_w", p.heat_w},
                {"heat_btu_h", p.heat_btu_h},
                {"energy_kwh", p.energy_kwh},
                {"cost_usd", p.cost_usd},
                {"energy_kwh_per_million_tokens", p.energy_kwh_per_million_tokens},
                {"cost_usd_per_million_tokens", p.cost_usd_per_million_tokens},
                {"tokens_per_joule", p.tokens_per_joule},
                {"hardware_usd", p.hardware_price_known ? json(p.hardware_usd) : json(nullptr)},
                {"pue", p.pue},
                {"utilization", p.utilization}};
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
    j["interconnect"] = interconnect_json(r.interconnect);
    j["speed"] = speed_json(r.speed);
    j["power"] = power_json(r.power);
    j["warnings"] = r.warnings;
    if (r.measured) j["measured"] = calibration_json(*r.measured);
    return j;
}

json fit_row_json(const FitRow& row) {
    return json{{"format", row.format}, {"fits", row.fits}, {"total", whole(row.total)},
                {"headroom", whole(row.headroom)}, {"max_context", row.max_context}};
}

}  // namespace

std::string config_to_json(const Config& c, int indent) { return config_json(c).dump(indent, ' ', false, json::error_handler_t::replace); }

json config_to_json_value(const Config& c) { return config_json(c); }

std::string report_to_json(const Report& r, int indent) { return report_json(r).dump(indent, ' ', false, json::error_handler_t::replace); }

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
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string assumptions_to_json(const std::vector<Assumption>& items, int indent) {
    json j = json::array();
    for (const auto& a : items) j.push_back({{"name", a.name}, {"value", a.value}, {"source", a.source}});
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
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
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string links_to_json(const Catalog& catalog, int indent) {
    json j = json::array();
    for (const auto& l : catalog.links)
        j.push_back(json{{"id", l.id},
                         {"name", l.name},
                         {"kind", std::string(kind_name(l.kind))},
                         {"scope", std::string(scope_name(l.scope))},
                         {"bandwidth_gb_per_s", l.bandwidth_gb_per_s},
                         {"bidirectional_gb_per_s", l.bidirectional_gb_per_s},
                         {"latency_us", l.latency_us},
                         {"latency_large_us", l.latency_large_us},
                         {"gpus_per_node", l.gpus_per_node},
                         {"note", l.note},
                         {"sources", l.sources}});
    return j.dump(indent);
}

std::string recommend_to_json(const Recommendation& rec, int indent) {
    auto row_json = [](const RecommendRow& r) {
        return json{{"gpu", r.gpu},
                    {"gpu_name", r.gpu_name},
                    {"segment", std::string(segment_name(r.segment))},
                    {"gpus", r.gpus},
                    {"weights", r.weights},
                    {"fits", r.fits},
                    {"per_gpu_total", whole(r.per_gpu_total)},
                    {"gpu_usable", whole(r.gpu_usable)},
                    {"headroom", whole(r.headroom)},
                    {"price_usd", r.price_known ? json(r.price_usd) : json(nullptr)},
                    {"tokens_per_s", r.tokens_per_s},
                    {"decode_tokens_per_s", r.decode_tokens_per_s},
                    {"train_tokens_per_s", r.train_tokens_per_s},
                    {"system_w", r.system_w},
                    {"psu_w", r.psu_w},
                    {"link", r.link.empty() ? json(nullptr) : json(r.link)},
                    {"nodes", r.nodes},
                    {"reasons", r.reasons}};
    };
    const RecommendQuery& q = rec.query;
    json segs = json::array();
    for (Segment sg : q.segments) segs.push_back(std::string(segment_name(sg)));
    json j;
    j["schema_version"] = 1;
    j["config"] = config_json(q.base);
    j["query"] = json{{"budget_usd", q.budget_usd > 0 ? json(q.budget_usd) : json(nullptr)},
                      {"power_cap_w", q.power_cap_w > 0 ? json(q.power_cap_w) : json(nullptr)},
                      {"min_tokens_per_s", q.min_tokens_per_s > 0 ? json(q.min_tokens_per_s) : json(nullptr)},
                      {"single_node", q.single_node},
                      {"segments", segs},
                      {"max_gpus", q.max_gpus},
                      {"sort", std::string(to_string(q.sort))}};
    j["weights"] = rec.weights;
    j["tokens_per_s_means"] = rec.training ? "train_tokens_per_s" : "decode_tokens_per_s";
    j["recommended"] = json::array();
    for (const auto& r : rec.recommended) j["recommended"].push_back(row_json(r));
    j["rejected"] = json::array();
    for (const auto& r : rec.rejected) j["rejected"].push_back(row_json(r));
    return j.dump(indent);
}

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
               {"p2p", g.p2p},
               {"tensor_cores", g.tensor_cores},
               {"form_factor", g.form_factor},
               {"price_usd", g.price_usd ? json(*g.price_usd) : json(nullptr)},
               {"price_note", g.price_note}};
        j.push_back(e);
    }
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace gpusizer
