// catalog_io.cpp: the catalog files (assets/gpus.json, models.json, links.json) and finding them.
//
// [SECTION] Reading helpers
// [SECTION] Catalog: assets/gpus.json, assets/models.json and assets/links.json
// [SECTION] Files: load_catalog, find_assets_dir
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/catalog.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"

namespace gpusizer {

using nlohmann::json;
using detail::Obj;
using detail::parse_json;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading helpers
// ---------------------------------------------------------------------------------------------

void check_schema(const json& root, const std::string& file, const char* list_key) {
    if (!root.is_object()) throw_error(file, "must be a JSON object with schema_version and " + std::string(list_key));
    if (!root.contains("schema_version") || !root["schema_version"].is_number_integer() || root["schema_version"].get<int>() != 1)
        throw_error(file + ": schema_version", "must be 1 (this build reads schema version 1)");
    if (!root.contains(list_key) || !(root[list_key].is_array() || root[list_key].is_object()) || root[list_key].empty())
        throw_error(file + ": " + list_key, "must be a non-empty array (or its columns: {\"columns\": {...}})");
    for (auto it = root.begin(); it != root.end(); ++it)
        if (it.key() != "schema_version" && it.key() != list_key)
            throw_error(file + ": " + it.key(), "unknown field; a catalog file holds schema_version and " + std::string(list_key));
}

// The entries of a list stored by columns, as the widget's slim catalog is (web/slim_catalog.mjs:
// the same entries, 2-3 KB less gzipped, as like values sit side by side): {"columns": {"id":
// [...], "tensor_tflops_dense.fp16": [...], ...}}, one value per entry in each column; a dotted
// name is a field of a nested object; a null is the field given as null, which the readers take
// as absent wherever null is allowed (Obj::has). Rebuilt here into the entries they read.
json entries_from_columns(const json& list, const std::string& ctx) {
    const auto columns = list.find("columns");
    const std::size_t n =
        list.size() == 1 && columns != list.end() && columns->is_object() && !columns->empty() && columns->begin()->is_array()
            ? columns->begin()->size()
            : 0;
    if (n == 0) throw_error(ctx, "must be an array of entries or {\"columns\": {field: [one value per entry], ...}}");
    json entries(n, json::object());
    for (auto it = columns->begin(); it != columns->end(); ++it) {
        const std::string& name = it.key();
        const std::size_t dot = name.find('.');
        const std::string outer = name.substr(0, dot);
        for (std::size_t i = 0; i < n; ++i) {
            json& e = entries[i];
            // One value per entry, and a field given either whole or by its fields, not both.
            if (!it->is_array() || it->size() != n || (e.contains(outer) && (dot == std::string::npos || !e[outer].is_object())))
                throw_error(ctx + ".columns: " + name, "must be an array of one value per entry, a field not also given by its fields");
            if (dot == std::string::npos)
                e[name] = (*it)[i];
            else
                e[outer][name.substr(dot + 1)] = (*it)[i];
        }
    }
    return entries;
}

// The entries of `file`'s `list_key` after its schema is checked: the array as given, or the
// entries rebuilt from its columns into `rebuilt`. One function for the three entry types
// (read_entries is a template), so the widget's module carries the column reader once.
const json& list_entries(const json& root, const char* file, const char* list_key, json& rebuilt) {
    check_schema(root, file, list_key);
    const json& given = root[list_key];
    if (given.is_array()) return given;
    rebuilt = entries_from_columns(given, std::string(file) + ": " + list_key);
    return rebuilt;
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

// The provenance every catalog entry carries: at least one source, and the fields that are
// derived or unverified. `note` is prose for people, checked to be text.
template <typename Entry>
void read_provenance(const Obj& o, Entry& e, std::string* note = nullptr) {
    const std::string n = o.str_or("note", "");
    if (note) *note = n;
    e.sources = o.strings_or_empty("sources");
    if (e.sources.empty()) o.fail("sources", "must name at least one source");
    e.unverified = o.strings_or_empty("unverified");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Catalog
// ---------------------------------------------------------------------------------------------

Gpu gpu_from_json(const json& e, const std::string& ctx) {
    Obj o(e, ctx);
    o.only({"id", "name", "vendor", "architecture", "chip", "year", "segment", "memory_gib", "memory_total_mib",
            "gpu_memory_fraction", "memory_type", "memory_bandwidth_gb_per_s", "fp32_tflops", "tensor_tflops_dense",
            "tensor_tflops_dense_fp16_accumulate", "tdp_w", "host_w", "idle_w", "llama_cpp_layer_overhead_us", "interconnect", "ecc", "p2p",
            "tensor_cores", "form_factor", "price_usd", "price_note", "note", "sources", "unverified"});
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
        o.fail("architecture", "must be one of " + architecture_names() + ", got '" + g.architecture + "'");
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
    if (o.has("host_w")) g.unified_host_w = o.num("host_w", 0, 1e4);
    if (o.has("idle_w")) g.idle_w = o.num("idle_w", 0, 1e4);
    g.llama_cpp_layer_overhead_s = o.num_or("llama_cpp_layer_overhead_us", 0, 1, 1e4) / 1e6;
    {
        Obj ic(o.need("interconnect"), ctx + ": interconnect");
        ic.only({"nvlink", "nvlink_gb_per_s", "pcie_gen", "pcie_lanes"});
        g.nvlink = ic.str("nvlink");
        if (const auto k = nvlink_kind_from_name(g.nvlink)) g.link = *k;
        else
            ic.fail("nvlink", "must be none, bridge, nvswitch, mesh, infinity-fabric or roce, got '" + g.nvlink + "'");
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
    read_provenance(o, g);
    return g;
}

CatalogModel model_from_json(const json& e, const std::string& ctx) {
    Obj o(e, ctx);
    o.only({"id", "name", "family", "hf_repo", "params_published", "active_params_published", "context_trained", "hf_config",
            "params_published_as", "active_params_published_as", "params_convention", "active_params_convention",
            "seed_article", "note", "sources", "unverified"});
    CatalogModel m;
    const std::string id = o.str("id");
    if (!valid_id(id)) o.fail("id", "must be lower-case kebab-case (a-z, 0-9, '-', '.'), got '" + id + "'");
    std::vector<std::string> not_understood;
    try {
        m.arch = arch_from_hf_json(o.need("hf_config"), nullptr, &not_understood);
    } catch (const Error& err) {
        throw err.prefixed(ctx);   // "models.json: llama-3-8b" + "hf_config: ..."
    }
    if (!not_understood.empty()) {   // the catalog must be fully understood
        std::string list;
        for (const auto& k : not_understood) list += (list.empty() ? "" : ", ") + k;
        throw Error(std::vector<std::string>{ctx, "hf_config"}, "not understood, ignored: " + list, ErrorCode::bad_value);
    }
    m.arch.id = id;
    m.arch.name = o.str("name");
    m.family = o.str("family");
    m.hf_repo = o.str("hf_repo");
    m.params_published = o.num("params_published", 1e5, 1e14);
    m.active_params_published = o.num_or("active_params_published", 0, 1e5, 1e14);
    if (m.arch.is_moe() && m.active_params_published == 0) o.fail("active_params_published", "is required for a mixture-of-experts model");
    // The figures as printed must say the same number as params_published (their rounding is the
    // tolerance test_params.cpp allows a derived count).
    auto printed = [&](const char* key, double published, std::string& out) {
        if (!o.has(key)) return;
        out = o.str(key);
        double v = 0;
        double half = 0;
        try {
            half = published_rounding(out, key, &v);
        } catch (const Error& err) {
            throw err.prefixed(ctx);
        }
        if (std::abs(v - published) > half * 1e-6) o.fail(key, "says " + out + ", not the published figure beside it");
    };
    printed("params_published_as", m.params_published, m.params_published_as);
    printed("active_params_published_as", m.active_params_published, m.active_params_published_as);
    m.params_convention = o.str_or("params_convention", "text");
    if (m.params_convention != "text" && m.params_convention != "text+mtp" && m.params_convention != "checkpoint")
        o.fail("params_convention", "must be text, text+mtp or checkpoint, got '" + m.params_convention + "'");
    // The family's own convention (hf_rows.cpp) unless the entry states the publisher's.
    if (o.has("active_params_convention")) {
        const std::string c = o.str("active_params_convention");
        if (c == "all") m.arch.active_convention = ActiveConvention::all;
        else if (c == "no_input_embedding") m.arch.active_convention = ActiveConvention::no_input_embedding;
        else if (c == "no_embeddings") m.arch.active_convention = ActiveConvention::no_embeddings;
        else o.fail("active_params_convention", "must be all, no_input_embedding or no_embeddings, got '" + c + "'");
    }
    m.active_params_convention = std::string(to_string(m.arch.active_convention));
    m.context_trained = int(o.num("context_trained", 1, 1e9));
    m.arch.max_context = m.context_trained;   // the published figure wins over max_position_embeddings
    if (o.has("seed_article")) {
        Obj s(o.at("seed_article"), ctx + ": seed_article");
        s.only({"params", "vram", "gpu"});
        m.seed.params = s.str("params");
        m.seed.vram = s.str("vram");
        m.seed.gpu = s.str("gpu");
    }
    read_provenance(o, m);
    return m;
}

Link link_from_json(const json& e, const std::string& ctx) {
    Obj o(e, ctx);
    o.only({"id", "name", "kind", "scope", "bandwidth_gb_per_s", "bidirectional_gb_per_s", "latency_us", "latency_large_us",
            "gpus_per_node", "busbw_efficiency", "nvls_efficiency", "no_p2p_bandwidth_factor", "no_p2p_latency_us", "note", "sources",
            "unverified"});
    Link l;
    l.id = o.str("id");
    if (!valid_id(l.id)) o.fail("id", "must be lower-case kebab-case (a-z, 0-9, '-', '.'), got '" + l.id + "'");
    l.name = o.str("name");
    const std::string kind = o.str("kind");
    bool known_kind = false;
    for (LinkKind k : {LinkKind::pcie, LinkKind::nvlink, LinkKind::nvlink_bridge, LinkKind::infinity_fabric, LinkKind::infiniband,
                       LinkKind::ethernet})
        if (kind == to_string(k)) {
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
    // NVLS algorithm bandwidth over the link's per-direction figure: 8x H200 reach 0.60 (links.json).
    l.nvls_efficiency = o.num_or("nvls_efficiency", 0, 0.05, 1.0);
    if (l.nvls_efficiency > 0 && l.kind != LinkKind::nvlink) o.fail("nvls_efficiency", "only an NVLink switch link reduces in the switch");
    l.no_p2p_bandwidth_factor = o.num_or("no_p2p_bandwidth_factor", 0, 0.01, 1.0);
    l.no_p2p_latency_us = o.num_or("no_p2p_latency_us", 0, 0.001, 1e4);
    if ((l.no_p2p_bandwidth_factor > 0 || l.no_p2p_latency_us > 0) && l.kind != LinkKind::pcie)
        o.fail(l.no_p2p_bandwidth_factor > 0 ? "no_p2p_bandwidth_factor" : "no_p2p_latency_us", "applies to a PCIe link only");
    read_provenance(o, l, &l.note);
    return l;
}


}  // namespace

namespace {

// Appends the entries of `file`'s `list_key` array to `out`, refusing a repeated id.
template <typename Entry, typename FromJson, typename IdOf>
void read_entries(std::string_view text, const char* file, const char* list_key, std::vector<Entry>& out, FromJson from_json,
                  IdOf id_of) {
    const json root = parse_json(text, file);
    json rebuilt;
    const json& entries = list_entries(root, file, list_key, rebuilt);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        Entry e = from_json(entries[i], entry_ctx(file, entries[i], i));
        for (const Entry& seen : out)
            if (id_of(seen) == id_of(e)) throw_error(std::string(file) + ": " + id_of(e), "duplicate id");
        out.push_back(std::move(e));
    }
}

}  // namespace

Catalog catalog_from_json(std::string_view gpus_json, std::string_view models_json, std::string_view links_json) {
    Catalog c = catalog_from_json(gpus_json, models_json);
    read_entries(links_json, "links.json", "links", c.links, link_from_json, [](const Link& l) { return l.id; });
    c.reindex();
    return c;
}

Catalog catalog_from_json(std::string_view gpus_json, std::string_view models_json) {
    Catalog c;
    read_entries(gpus_json, "gpus.json", "gpus", c.gpus, gpu_from_json, [](const Gpu& g) { return g.id; });
    read_entries(models_json, "models.json", "models", c.models, model_from_json, [](const CatalogModel& m) { return m.arch.id; });
    c.reindex();
    return c;
}

void read_prices(Catalog& c, std::string_view prices_json) {
    const json root = parse_json(prices_json, "prices.json");
    Obj top(root, "prices.json");
    top.only({"schema_version", "description", "rent", "hosts"});
    if (top.num("schema_version", 1, 1) != 1) top.fail("schema_version", "must be 1");
    // A date as the sources give it: a year, a month or a day (YYYY, YYYY-MM, YYYY-MM-DD).
    auto date_of = [](const Obj& o) {
        const std::string d = o.str("date");
        const bool ok = (d.size() == 4 || d.size() == 7 || d.size() == 10) &&
                        std::all_of(d.begin(), d.end(), [](char ch) { return (ch >= '0' && ch <= '9') || ch == '-'; }) &&
                        (d.size() < 7 || d[4] == '-') && (d.size() < 10 || d[7] == '-');
        if (!ok) o.fail("date", "must be YYYY, YYYY-MM or YYYY-MM-DD, got '" + d + "'");
        return d;
    };
    auto url_of = [](const Obj& o) {
        Obj src(o.need("source"), o.ctx() + ": source");
        src.only({"title", "url", "quote"});
        return src.str("url");
    };
    const json& rent = top.need("rent");
    if (!rent.is_array()) top.fail("rent", "must be an array");
    for (std::size_t i = 0; i < rent.size(); ++i) {
        Obj o(rent[i], "prices.json: rent[" + std::to_string(i) + "]");
        o.only({"gpu", "provider", "offering", "kind", "usd_per_gpu_hour", "gpus_in_offering", "region", "date", "source", "note"});
        RentPrice p;
        p.gpu = o.str("gpu");
        if (!c.find_gpu(p.gpu)) o.fail("gpu", "'" + p.gpu + "' is not a catalog GPU");
        p.provider = o.str("provider");
        p.offering = o.str_or("offering", "");
        p.kind = o.str("kind");
        if (p.kind != "on_demand" && p.kind != "spot" && p.kind != "community" && p.kind != "reserved_1y")
            o.fail("kind", "must be on_demand, spot, community or reserved_1y, got '" + p.kind + "'");
        p.usd_per_gpu_hour = o.num("usd_per_gpu_hour", 1e-3, 1e3);
        if (o.has("gpus_in_offering")) (void)o.num("gpus_in_offering", 1, 1024);
        p.date = date_of(o);
        p.source_url = url_of(o);
        c.rent_prices.push_back(std::move(p));
    }
    const json& hosts = top.need("hosts");
    if (!hosts.is_array()) top.fail("hosts", "must be an array");
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        Obj o(hosts[i], "prices.json: hosts[" + std::to_string(i) + "]");
        o.only({"platform", "usd", "gpus", "date", "source", "note"});
        HostPrice h;
        h.platform = o.str("platform");
        if (h.platform != "desktop" && h.platform != "workstation" && h.platform != "pcie_server" && h.platform != "hgx_node")
            o.fail("platform", "must be desktop, workstation, pcie_server or hgx_node, got '" + h.platform + "'");
        h.usd = o.num("usd", 1, 1e7);
        h.gpus = int(o.num("gpus", 1, 64));
        h.date = date_of(o);
        h.source_url = url_of(o);
        c.host_prices.push_back(std::move(h));
    }
    c.index_prices();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Files
// ---------------------------------------------------------------------------------------------

namespace {

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw_error(p.filename().string(), "cannot be read at " + p.string(), ErrorCode::unreadable);
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
    Catalog c = catalog_from_json(gpus, models, links);
    std::error_code ec;
    if (std::filesystem::exists(d / "prices.json", ec)) read_prices(c, read_file(d / "prices.json"));
    return c;
}

std::string find_assets_dir(const char* argv0) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("GPUSIZER_ASSETS"); env && *env) candidates.emplace_back(env);
    // The executable's folder: /proc/self/exe where there is one (a program found on PATH has
    // no folder in argv[0]), else argv[0].
    std::vector<fs::path> exes;
    {
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        if (!ec && !self.empty()) exes.push_back(self);
    }
    if (argv0 && *argv0) {
        std::error_code ec;
        const fs::path exe = fs::weakly_canonical(fs::path(argv0), ec);
        if (!ec) exes.push_back(exe);
    }
    for (const fs::path& exe : exes) {
        candidates.push_back(exe.parent_path() / "assets");   // a build tree (CMake links assets/ there)
        candidates.push_back(exe.parent_path().parent_path() / "share" / "gpusizer" / "assets");   // an install prefix
    }
    for (const auto& c : candidates) {
        std::error_code ec;
        if (fs::exists(c / "gpus.json", ec) && fs::exists(c / "models.json", ec)) return c.string();
    }
    throw_error("assets", "gpus.json and models.json not found; set GPUSIZER_ASSETS to the assets/ folder", ErrorCode::unreadable);
}

}  // namespace gpusizer
