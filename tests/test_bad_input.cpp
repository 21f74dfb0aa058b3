// test_bad_input.cpp: bad input everywhere a user can reach it, enumerated rather than sampled.
// Every configuration key, every share-link key, every CLI flag and every asset field gets a
// value of the wrong type, a value out of range and a missing value; each must be answered
// by an Error (or exit code 2) whose message names the key and says what is allowed, or, where
// the documentation says so, by the documented default.
//
// The lists come from the code itself (the configuration's keys from config_to_json, the
// flags from `gpusizer --help`, the fields from the asset files), so a key added later is
// covered without editing this file; one the checks cannot classify makes the test fail.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using nlohmann::json;

namespace {

// A configuration JSON text is refused when reading it or when estimating it.
std::string config_error(const json& config) {
    return thrown_message([&] { (void)estimate(config_from_json(config.dump()), catalog()); });
}

// What a message for a string key must show of what is allowed: one valid value.
const std::map<std::string, std::string> kAllowedHint = {
    {"mode", "qlora"},        {"weights", "q4_k_m"},     {"kv_cache", "fp8"},        {"optimizer", "adafactor"},
    {"offload", "optimizer"}, {"recompute", "selective"}, {"runtime", "llama.cpp"},  {"gpu", "gpusizer gpus"},
    {"link", "pcie4"},        {"inter_node_link", "infiniband-ndr"},                 {"lora_targets", "q_proj"},
    // A file key whose file the caller did not read (load_model_files) is refused by the core.
    {"gguf", "not read"},     {"hf_dir", "not read"},     {"mmproj", "goes with `gguf`"},
    {"runtime_version", "llama.cpp"},
    {"pp_schedule", "zero_bubble"},     {"fp8_training", "tensorwise"},     {"psu_tier", "titanium"},
    {"rent_kind", "on_demand"},         {"rent_provider", "RunPod"},       {"training_framework", "hf_trainer"},
    {"speculative", "mtp"},
};

// The configuration keys, each with a value of its type: the resolved configuration of a
// report (config_to_json of a default Config leaves the core-chosen defaults null).
json default_config() {
    Config c;
    c.model.id = "llama-3-8b";
    return json::parse(report_to_json(estimate(c, catalog())))["config"];
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Configuration keys
// ---------------------------------------------------------------------------------------------

TEST_CASE("every configuration key: wrong type, out of range, missing", "[bad-input][config]") {
    // The keys come from the key table; the resolved report writes each of them once.
    const json defaults = default_config();
    REQUIRE(defaults.size() == config_keys().size());
    for (const ConfigKey& k : config_keys()) {
        const std::string key = k.name;
        if (k.kind == KeyKind::model) continue;   // below
        INFO("key " << key);
        REQUIRE(defaults.contains(key));
        const json& def = defaults[key];
        auto with = [&](const json& v) { return json{{"model", "llama-3-8b"}, {key, v}}; };

        // Wrong type: the message names the key and the type it wants.
        std::vector<json> wrong;
        if (k.kind == KeyKind::boolean) wrong = {"yes", 1};
        else if (k.kind == KeyKind::integer || k.kind == KeyKind::number) wrong = {"5", json::array({5}), true};
        else wrong = {5, true, json::object()};
        for (const json& v : wrong) {
            INFO("value " << v.dump());
            const std::string e = config_error(with(v));
            CHECK(e.find(key) != std::string::npos);
            CHECK((e.find("must be") != std::string::npos || e.find("must name") != std::string::npos));
        }

        // Out of range: numbers far below and far above anything valid; for strings a value
        // that is not one of the allowed ones, answered with what is.
        if (k.kind == KeyKind::integer || k.kind == KeyKind::number) {
            // A std::optional key the estimate does not resolve stays null in the report.
            const bool optional = k.unset == KeyUnset::null || k.unset == KeyUnset::null_zero;
            CHECK((def.is_number() || (optional && def.is_null())));
            // Just outside the table's range (0 is "not given" for a zero / null_zero key), and far outside.
            const bool zero_unset = k.unset == KeyUnset::zero || k.unset == KeyUnset::null_zero;
            const double below = k.min_open ? k.min : (zero_unset && k.min == 1 ? -1 : k.min - 1);
            for (const json& v : {json(below), json(-1e9), json(k.max * 1.5 + 1), json(1e300)}) {
                INFO("value " << v.dump());
                const std::string e = config_error(with(v));
                CHECK(e.find(key) != std::string::npos);
                CHECK((e.find("between") != std::string::npos || e.find("must be") != std::string::npos));
            }
        } else if (k.kind != KeyKind::boolean) {
            const auto hint = kAllowedHint.find(key);
            if (hint == kAllowedHint.end()) FAIL("no allowed-value hint for the string key '" << key << "': add one above");
            const std::string e = config_error(with("no-such-value"));
            CHECK(e.find(key) != std::string::npos);
            CHECK(e.find(hint->second) != std::string::npos);
        }

        // Missing: absent or null means the documented default (docs/config.md: "A key given as
        // null takes its default"), which the report's configuration then names.
        const Report absent = estimate(config_from_json(R"({"model": "llama-3-8b"})"), catalog());
        const Report null = estimate(config_from_json(with(nullptr).dump()), catalog());
        CHECK(json::parse(report_to_json(null))["config"][key] == json::parse(report_to_json(absent))["config"][key]);
    }
}

TEST_CASE("the model key: missing, wrong type, unknown, malformed custom models", "[bad-input][config]") {
    const std::pair<json, const char*> cases[] = {
        {json::object(), "is required"},
        {json{{"model", nullptr}}, "catalog id"},
        {json{{"model", 7}}, "catalog id"},
        {json{{"model", ""}}, "empty"},
        {json{{"model", "llama-9-9000b"}}, "gpusizer models"},
        {json{{"model", json::object()}}, "hf_config"},
        {json{{"model", {{"num_parameters", "7B"}}}}, "must be a number"},
        {json{{"model", {{"num_parameters", -5}}}}, "between"},
        {json{{"model", {{"hf_config", {{"model_type", "llama"}}}}}}, "hf_config: missing num_hidden_layers"},
        {json{{"model", {{"hf_config", {{"model_type", "llama"}, {"num_hidden_layers", "32"}}}}}}, "num_hidden_layers"},
        {json{{"model", {{"hf_config", 5}}}}, "hf_config"},
    };
    for (const auto& [config, wants] : cases) {
        INFO(config.dump());
        const std::string e = config_error(config);
        CHECK((e.find("model") != std::string::npos || e.find("hf_config") != std::string::npos));
        CHECK(e.find(wants) != std::string::npos);
    }
}

// ---------------------------------------------------------------------------------------------
// Share-link keys
// ---------------------------------------------------------------------------------------------

TEST_CASE("every share-link key: wrong type, out of range, missing value", "[bad-input][link]") {
    int keys = 0;
    for (const ConfigKey& k : config_keys()) {
        const std::string key = k.name;
        const std::string short_key = k.link;
        REQUIRE(short_key == std::string(link_key_of(key)));
        if (k.kind == KeyKind::model || short_key == "g") continue;   // m and g: below
        ++keys;
        INFO("key " << key << " (" << short_key << "=)");
        const std::string base = "#v=1&m=llama-3-8b&";
        auto link_error = [&](const std::string& value) {
            return thrown_message([&] { (void)estimate(config_from_link(base + short_key + "=" + value), catalog()); });
        };
        // Missing value.
        std::string e = link_error("");
        CHECK(e.find(key) != std::string::npos);
        CHECK(e.find("has no value") != std::string::npos);
        // Wrong type, and out of range.
        if (k.kind == KeyKind::integer || k.kind == KeyKind::number) {
            e = link_error("abc");
            CHECK(e.find(key) != std::string::npos);
            CHECK(e.find("must be") != std::string::npos);
            e = link_error("-1000000000");
            CHECK(e.find(key) != std::string::npos);
            e = link_error("1e300");
            CHECK(e.find(key) != std::string::npos);
        } else if (k.kind == KeyKind::boolean) {
            e = link_error("maybe");
            CHECK(e.find(key) != std::string::npos);
            CHECK(e.find("0 or 1") != std::string::npos);
        } else {
            // Text: a value no list has, markup included, is refused with what is allowed.
            e = link_error("%3Cscript%3E");
            CHECK(e.find(key) != std::string::npos);
            CHECK(e.find(kAllowedHint.at(key)) != std::string::npos);
        }
    }
    CHECK(keys >= 30);
    // m and g.
    CHECK(thrown_message([] { (void)config_from_link("#v=1&m="); }).find("model") != std::string::npos);
    CHECK(thrown_message([] { (void)config_from_link("#v=1&m=llama-3-8b&g="); }).find("has no value") != std::string::npos);
    CHECK(thrown_message([] { (void)estimate(config_from_link("#v=1&m=llama-3-8b&g=rtx-4090xabc"), catalog()); }).find("gpu") !=
          std::string::npos);
    CHECK(thrown_message([] { (void)config_from_link("#v=1&m=llama-3-8b&g=rtx-4090x0"); }).find("gpus") != std::string::npos);
    CHECK(thrown_message([] { (void)estimate(config_from_link("#v=1&m=nope&g=rtx-4090"), catalog()); }).find("model") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// CLI flags
// ---------------------------------------------------------------------------------------------

namespace {

struct Flag {
    std::string name;      // without the dashes
    std::string metavar;   // "" for a switch
    bool recommend = false;   // a recommend constraint
};

// The flags `gpusizer --help` documents, with their value names.
std::vector<Flag> documented_flags() {
    const CliResult help = run_cli({"--help"}, false);
    REQUIRE(help.code == 0);
    std::vector<Flag> flags;
    std::set<std::string> seen;
    bool recommend = false;
    std::istringstream in(help.out);
    std::string line;
    const std::regex flag_line(R"(^\s+--([a-z0-9-]+)(?:\s([A-Z][A-Z0-9./_|-]*))?(?:\s{2,}.*)?$)");
    while (std::getline(in, line)) {
        if (line.find("Recommend constraints") != std::string::npos) recommend = true;
        if (line.rfind("Other flags", 0) == 0) recommend = false;
        std::smatch m;
        if (!std::regex_match(line, m, flag_line)) continue;
        if (!seen.insert(m[1]).second) continue;
        flags.push_back({m[1], m[2], recommend});
    }
    return flags;
}

}  // namespace

TEST_CASE("every CLI flag: missing value, wrong type, out of range", "[bad-input][cli]") {
    const std::vector<Flag> flags = documented_flags();
    REQUIRE(flags.size() >= 40);
    // Flags whose values are files, and flags without values.
    const std::set<std::string> file_flags = {"config", "hf-config", "measured", "assets", "gpu-json"};
    int checked = 0;
    for (const Flag& f : flags) {
        if (f.metavar.empty()) continue;   // a switch (--json, --check, --single-node, ...)
        INFO("--" << f.name << " " << f.metavar);
        const std::string command = f.recommend ? "recommend" : "estimate";
        // A custom GPU's field flag (--gpu-memory-gib) changes a field of the --gpu given: with a
        // catalog GPU as its base only its own value is at fault, and its errors name the field as
        // the configuration nests it (gpu.memory_gib).
        const GpuField* gpu_field = find_gpu_field_flag(f.name);
        const std::string key = f.name == "share-link" ? "link"
                                : gpu_field            ? "gpu." + std::string(gpu_field->name)
                                                       : [&] {
                                                  std::string k = f.name;
                                                  for (char& c : k)
                                                      if (c == '-') c = '_';
                                                  return k;
                                              }();
        const std::vector<std::string> base = gpu_field ? std::vector<std::string>{command, "--model", "llama-3-8b", "--gpu", "rtx-4090"}
                                                        : std::vector<std::string>{command, "--model", "llama-3-8b"};
        auto with = [&](std::vector<std::string> args) {
            std::vector<std::string> all = base;
            all.insert(all.end(), args.begin(), args.end());
            return all;
        };
        ++checked;

        // Missing value: the flag last on the line.
        CliResult r = run_cli(with({"--" + f.name}), false);
        CHECK(r.code == 2);
        CHECK(r.err.find("--" + f.name) != std::string::npos);
        CHECK(r.err.find("needs a value") != std::string::npos);
        if (gpu_field && gpu_field->kind == GpuFieldKind::text) continue;   // a name or a label: any text is one

        if (file_flags.count(f.name)) {
            r = run_cli({command, "--model", "llama-3-8b", "--" + f.name, "/no/such/file.json"}, f.name != "assets");
            INFO(r.code << " " << r.err << r.out.substr(0, 200));
            CHECK(r.code == 1);   // a file that cannot be read: not bad input (exit 2), ErrorCode::unreadable
            CHECK((r.err.find("/no/such/file.json") != std::string::npos || r.err.find("--" + f.name) != std::string::npos));
            continue;
        }
        // Wrong type: a word where a number goes, a value no list has where a name goes.
        r = run_cli(with({"--" + f.name, "not-a-value"}));
        CHECK(r.code == 2);
        const bool names_it = r.err.find("--" + f.name) != std::string::npos || r.err.find(key) != std::string::npos ||
                              (f.name == "model" && r.err.find("model") != std::string::npos);
        CHECK(names_it);
        CHECK(r.err.find('\n') == r.err.size() - 1);   // one line
        // Out of range: far negative and far positive numbers.
        for (const char* v : {"-99999999", "1e300"}) {
            r = run_cli(with({"--" + f.name, v}));
            if (f.name == "model" || f.name == "gpu" || f.name == "weights" || f.name == "kv-cache" || f.name == "link" ||
                f.name == "inter-node-link" || f.name == "mode" || f.name == "optimizer" || f.name == "offload" ||
                f.name == "recompute" || f.name == "runtime" || f.name == "lora-targets" || f.name == "segment" ||
                f.name == "sort" || f.name == "share-link") {
                CHECK(r.code == 2);   // not a name of anything
                continue;
            }
            INFO("value " << v);
            CHECK(r.code == 2);
            CHECK((r.err.find("--" + f.name) != std::string::npos || r.err.find(key) != std::string::npos));
        }
    }
    CHECK(checked >= 35);
    // An unknown flag and a flag of the other command.
    CliResult r = run_cli({"estimate", "--model", "llama-3-8b", "--batchsize", "4"});
    CHECK(r.code == 2);
    CHECK(r.err.find("--batchsize") != std::string::npos);
    r = run_cli({"estimate", "--model", "llama-3-8b", "--max-gpus", "4"});
    CHECK(r.code == 2);
    CHECK(r.err.find("--max-gpus") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Asset fields
// ---------------------------------------------------------------------------------------------

namespace {

struct AssetFile {
    const char* file;
    const char* list;                       // the array of entries
    std::set<std::string> optional;         // fields with a documented default (docs/assets.md)
    std::set<std::string> free_text;        // strings with no closed set of values
    std::set<std::string> skip_range;       // numbers whose range the nested reader owns
};

const AssetFile kAssets[] = {
    {"gpus.json", "gpus",
     {"chip", "memory_total_mib", "gpu_memory_fraction", "host_w", "idle_w", "llama_cpp_layer_overhead_us", "tensor_tflops_dense_fp16_accumulate", "price_note", "note", "unverified",
      "tensor_tflops_dense.tf32", "tensor_tflops_dense.fp16", "tensor_tflops_dense.bf16", "tensor_tflops_dense.fp8",
      "tensor_tflops_dense.int8", "tensor_tflops_dense.fp4", "interconnect.pcie_gen", "interconnect.pcie_lanes"},
     {"name", "chip", "memory_type", "form_factor", "price_note", "note"},
     {}},
    {"models.json", "models",
     // active_params_published: required for MoE models, the first that has it
     {"seed_article", "note", "unverified", "params_published_as", "active_params_published_as", "params_convention",
      "active_params_convention"},
     {"name", "family", "hf_repo", "note", "seed_article.params", "seed_article.vram", "seed_article.gpu"},
     {}},
    {"links.json", "links", {"busbw_efficiency", "nvls_efficiency", "no_p2p_bandwidth_factor", "no_p2p_latency_us", "note", "unverified"},
     {"name", "note"}, {}},
};

std::string load_error(const std::string& file, const json& doc) {
    std::string gpus = read_asset("gpus.json"), models = read_asset("models.json"), links = read_asset("links.json");
    const std::string text = doc.dump();
    if (file == "gpus.json") gpus = text;
    if (file == "models.json") models = text;
    if (file == "links.json") links = text;
    return thrown_message([&] { (void)catalog_from_json(gpus, models, links); });
}

json wrong_type_for(const json& v) {
    if (v.is_string()) return 5;
    if (v.is_number()) return "5";
    if (v.is_boolean()) return "yes";
    return 5;   // objects and arrays
}

}  // namespace

TEST_CASE("every asset field: wrong type, out of range, missing", "[bad-input][assets]") {
    for (const AssetFile& a : kAssets) {
        const json doc = json::parse(read_asset(a.file));
        REQUIRE(load_error(a.file, doc).empty());
        // The first entry that has each field (every field of every entry is visited once).
        std::map<std::string, std::size_t> where;
        for (std::size_t i = 0; i < doc[a.list].size(); ++i)
            for (auto it = doc[a.list][i].begin(); it != doc[a.list][i].end(); ++it) {
                where.emplace(it.key(), i);
                if (it.value().is_object() && it.key() != "hf_config")   // hf_config: the importer's own tests
                    for (auto jt = it.value().begin(); jt != it.value().end(); ++jt) where.emplace(it.key() + "." + jt.key(), i);
            }
        for (const auto& [field, index] : where) {
            const std::string entry = doc[a.list][index]["id"].get<std::string>();
            INFO(a.file << ": " << entry << ": " << field);
            const auto dot = field.find('.');
            const std::string outer = field.substr(0, dot);
            const std::string leaf = dot == std::string::npos ? field : field.substr(dot + 1);
            auto edited = [&](const std::function<void(json&, const std::string&)>& edit) {
                json d = doc;
                json& obj = dot == std::string::npos ? d[a.list][index] : d[a.list][index][outer];
                edit(obj, leaf);
                return load_error(a.file, d);
            };
            const json& value = dot == std::string::npos ? doc[a.list][index][field] : doc[a.list][index][outer][leaf];
            if (value.is_null()) continue;   // "unknown" cells (price_usd: null): the reader's own checks
            auto names_it = [&](const std::string& e) {
                CHECK(e.find(a.file) != std::string::npos);
                CHECK(e.find(leaf) != std::string::npos);
                if (field != "id") CHECK(e.find(entry) != std::string::npos);
            };

            // Wrong type.
            std::string e = edited([&](json& o, const std::string& k) { o[k] = wrong_type_for(value); });
            names_it(e);
            CHECK(e.find("must") != std::string::npos);

            // Out of range.
            if (value.is_number() && !a.skip_range.count(field)) {
                e = edited([&](json& o, const std::string& k) { o[k] = -1; });
                names_it(e);
                e = edited([&](json& o, const std::string& k) { o[k] = 1e300; });
                names_it(e);
            } else if (value.is_string() && !a.free_text.count(field)) {
                e = edited([&](json& o, const std::string& k) { o[k] = "not one of them"; });
                names_it(e);
            }

            // Missing: refused, unless the field is optional (then the file still loads).
            e = edited([&](json& o, const std::string& k) { o.erase(k); });
            if (a.optional.count(field)) {
                CHECK(e.empty());
            } else {
                names_it(e);
            }
        }
    }
}

TEST_CASE("asset files: not JSON, not an object, another schema, no entries", "[bad-input][assets]") {
    for (const char* file : {"gpus.json", "models.json", "links.json"}) {
        INFO(file);
        CHECK(load_error(file, json::array()).find(file) != std::string::npos);
        CHECK(load_error(file, json{{"schema_version", 2}}).find("schema_version") != std::string::npos);
        json doc = json::parse(read_asset(file));
        doc["extra"] = 1;
        CHECK(load_error(file, doc).find("extra") != std::string::npos);
    }
    std::string gpus = read_asset("gpus.json");
    CHECK(thrown_message([&] { (void)catalog_from_json("{", read_asset("models.json")); }).find("gpus.json") != std::string::npos);
    CHECK(thrown_message([&] { (void)catalog_from_json(gpus, "not json"); }).find("models.json") != std::string::npos);
}
