// test_custom_gpu.cpp: a GPU that is not in the catalog (gpusizer/custom_gpu.hpp): the
// configuration's "gpu" object, its defaults and their derivations, its errors, share links,
// an estimate derived by hand, and recommend, fit, plan and measured reports with one.
#include <catch2/catch.hpp>

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using nlohmann::json;

namespace {

// An announced 48 GB card: the required fields only.
constexpr const char* kNext48 = R"({"name": "Next 48G", "memory_gib": 48, "memory_bandwidth_gb_per_s": 1200,
    "tensor_tflops_dense": {"bf16": 300}, "tdp_w": 350})";

Config with_gpu(const std::string& gpu_json, const std::string& model = "llama-3-8b") {
    return config_from_json(R"({"model": ")" + model + R"(", "gpu": )" + gpu_json + "}");
}

std::string error_of(const std::string& config_json) {
    return thrown_message([&] { (void)estimate(config_from_json(config_json), catalog()); });
}

// The default the build took for `field` ("" when it was given or came from the base).
std::string default_of(const CustomGpuBuild& b, const std::string& field) {
    for (const GpuDefault& d : b.defaults)
        if (d.field == field) return d.value;
    return "";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The field table
// ---------------------------------------------------------------------------------------------

TEST_CASE("custom GPU: each field once by name, link key and flag, every Gpu field of gpus.json has a row", "[custom-gpu]") {
    std::set<std::string> names, links, flags;
    for (const GpuField& f : gpu_fields()) {
        INFO(f.name);
        CHECK(names.insert(f.name).second);
        CHECK(links.insert(f.link).second);
        CHECK(flags.insert(f.flag).second);
        CHECK(std::string(f.link) != "b");   // base's key in gc=
        CHECK(find_config_key(f.name) == nullptr);   // no clash with a configuration key ...
        CHECK(find_flag_key(f.flag) == nullptr);   // ... nor with its flag
        CHECK(std::string(f.flag).rfind("gpu-", 0) == 0);
        CHECK(find_gpu_field(f.name) == &f);
        CHECK(find_gpu_field_link(f.link) == &f);
        CHECK(find_gpu_field_flag(f.flag) == &f);
        CHECK((f.get != nullptr) == (f.set != nullptr));
        CHECK((f.get_text != nullptr) == (f.set_text != nullptr));
        CHECK((f.get != nullptr) != (f.get_text != nullptr));
        CHECK(std::string(f.default_doc).size() > 0);
        if (f.kind == GpuFieldKind::integer || f.kind == GpuFieldKind::number) CHECK(f.min < f.max);
        // Each field reads back what it set.
        Gpu g;
        if (f.get) {
            const double v = f.kind == GpuFieldKind::boolean ? 1.0 : f.kind == GpuFieldKind::integer ? f.min + 1 : (f.min + f.max) / 2;
            f.set(g, v);
            CHECK(f.get(g) == Approx(v));
        } else {
            const std::string v = f.kind == GpuFieldKind::choice ? gpu_field_choices(f).substr(0, gpu_field_choices(f).find(',')) : "x";
            f.set_text(g, v);
            CHECK(f.get_text(g) == v);
        }
    }
    // Every field a gpus.json entry holds, except the catalog's own (id, provenance), has a row:
    // an entry of the catalog, its id and provenance taken out, reads as a custom GPU.
    std::ifstream in(std::string(GPUSIZER_TEST_ASSETS) + "/gpus.json");
    const json entries = json::parse(in)["gpus"];
    for (const json& e : entries) {
        json fields = e;
        INFO(e["id"]);
        if (e["tdp_w"].is_null()) continue;   // the catalog allows no TDP for an Apple machine; a custom GPU needs one
        for (const char* k : {"id", "sources", "unverified", "note", "price_note"}) fields.erase(k);
        for (auto it = fields.begin(); it != fields.end();) it = it->is_null() ? fields.erase(it) : std::next(it);
        if (fields.contains("interconnect"))
            for (auto it = fields["interconnect"].begin(); it != fields["interconnect"].end();)
                it = it->is_null() ? fields["interconnect"].erase(it) : std::next(it);
        const CustomGpu spec = custom_gpu_from_json(fields.dump());
        // Built without a base, it is the catalog's entry figure for figure.
        const Gpu built = build_custom_gpu(spec, catalog()).gpu;
        const Gpu& cat = catalog().gpu(e["id"].get<std::string>());
        CHECK(built.memory_gib == cat.memory_gib);
        CHECK(built.capacity_bytes() == cat.capacity_bytes());
        CHECK(built.memory_bandwidth_gb_per_s == cat.memory_bandwidth_gb_per_s);
        CHECK(built.fp32_tflops == cat.fp32_tflops);
        CHECK(built.tensor_tflops_dense.bf16 == cat.tensor_tflops_dense.bf16);
        CHECK(built.tensor_tflops_dense.fp8 == cat.tensor_tflops_dense.fp8);
        CHECK(built.tensor_tflops_dense.fp4 == cat.tensor_tflops_dense.fp4);
        CHECK(built.segment == cat.segment);
        CHECK(built.arch == cat.arch);
        CHECK(built.link == cat.link);
        CHECK(built.p2p == cat.p2p);
        CHECK(built.tensor_cores == cat.tensor_cores);
        CHECK(built.unified_host_w == cat.unified_host_w);
        CHECK(built.llama_cpp_layer_overhead_s == cat.llama_cpp_layer_overhead_s);
    }
}

TEST_CASE("custom GPU: each number's range is the catalog reader's", "[custom-gpu][catalog]") {
    // One catalog entry with the field at each end of the table's range is read; just past either
    // end, the catalog reader refuses it, naming the field: the two readers take the same values.
    std::ifstream gin(std::string(GPUSIZER_TEST_ASSETS) + "/gpus.json"), min(std::string(GPUSIZER_TEST_ASSETS) + "/models.json");
    const json gpus = json::parse(gin), models = json::parse(min);
    json one_model = models;
    one_model["models"] = json::array({models["models"][0]});
    json entry;
    for (const json& e : gpus["gpus"])
        if (e["id"] == "rtx-4090") entry = e;
    REQUIRE(entry.is_object());
    int checked = 0;
    for (const GpuField& f : gpu_fields()) {
        if (f.kind != GpuFieldKind::number && f.kind != GpuFieldKind::integer) continue;
        INFO(f.name);
        const std::string name = f.name;
        const std::size_t dot = name.find('.');
        auto with = [&](double v) {
            json g = gpus;
            g["gpus"] = json::array({entry});
            json& e = g["gpus"][0];
            if (dot == std::string::npos)
                e[name] = v;
            else
                e[name.substr(0, dot)][name.substr(dot + 1)] = v;
            return thrown_message([&] { (void)catalog_from_json(g.dump(), one_model.dump()); });
        };
        const double step = f.kind == GpuFieldKind::integer ? 1.0 : 0.0;
        const double below = step > 0 ? f.min - step : std::nextafter(f.min, -1e300);
        const double above = step > 0 ? f.max + step : std::nextafter(f.max, 1e300);
        CHECK(with(f.min).empty());
        CHECK(with(f.max).empty());
        const std::string leaf = name.substr(dot == std::string::npos ? 0 : dot + 1);
        CHECK_THAT(with(below), Catch::Contains(leaf));
        CHECK_THAT(with(above), Catch::Contains(leaf));
        ++checked;
    }
    CHECK(checked == 21);
}

TEST_CASE("docs/config.md's custom GPU field reference is generated from the field table", "[custom-gpu][docs]") {
    std::ifstream in(std::string(GPUSIZER_TEST_DOCS) + "/config.md");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    const std::string begin = "<!-- gpu-fields:begin (generated: scripts/gen_config_docs.sh) -->\n";
    const auto a = doc.find(begin);
    const auto b = doc.find("<!-- gpu-fields:end -->");
    REQUIRE(a != std::string::npos);
    REQUIRE(b != std::string::npos);
    INFO("docs/config.md is out of date: run scripts/gen_config_docs.sh");
    CHECK(doc.substr(a + begin.size(), b - a - begin.size()) == gpu_fields_markdown());
}

// ---------------------------------------------------------------------------------------------
// The configuration JSON
// ---------------------------------------------------------------------------------------------

TEST_CASE("custom GPU: the configuration's gpu object reads, writes and round-trips", "[custom-gpu][config]") {
    const Config c = with_gpu(kNext48);
    CHECK(c.gpu == "custom");
    CHECK(c.custom_gpu.base.empty());
    REQUIRE(c.custom_gpu.find("memory_gib"));
    CHECK(c.custom_gpu.find("memory_gib")->number == 48);
    CHECK(c.custom_gpu.find("tensor_tflops_dense.bf16")->number == 300);
    CHECK(c.custom_gpu.find("name")->text == "Next 48G");
    CHECK_FALSE(c.custom_gpu.find("tensor_tflops_dense.fp16"));   // not given: a default, not written back

    // Written back as given: the fields as in gpus.json, nested where gpus.json nests them.
    const json back = json::parse(config_to_json(c))["gpu"];
    CHECK(back == json::parse(kNext48));
    CHECK(config_to_json(config_from_json(config_to_json(c))) == config_to_json(c));

    // A base with fields over it: an overclocked RTX 4090.
    const Config oc = with_gpu(R"({"base": "rtx-4090", "tdp_w": 500, "memory_bandwidth_gb_per_s": 1100,
                                   "interconnect": {"pcie_gen": 5}, "p2p": true})");
    CHECK(oc.custom_gpu.base == "rtx-4090");
    const json oc_back = json::parse(config_to_json(oc))["gpu"];
    CHECK(oc_back == json::parse(R"({"base": "rtx-4090", "tdp_w": 500, "memory_bandwidth_gb_per_s": 1100,
                                     "interconnect": {"pcie_gen": 5}, "p2p": true})"));

    // The report's configuration holds the object: fed back, it gives the same report.
    const Report r = estimate(oc, catalog());
    const json rj = json::parse(report_to_json(r));
    CHECK(rj["gpu"]["id"] == "custom");
    CHECK(rj["gpu"]["name"] == "NVIDIA GeForce RTX 4090 (custom)");
    CHECK(rj["gpu"]["source"] == "custom");
    CHECK(rj["gpu"]["base"] == "rtx-4090");
    CHECK(rj["gpu"]["figures"]["tdp_w"] == 500.0);
    CHECK(rj["gpu"]["figures"]["pcie_gen"] == 5);
    const Report again = estimate(config_from_json(rj["config"].dump()), catalog());
    CHECK(report_to_json(again) == report_to_json(r));
    // A catalog GPU says where it comes from too.
    CHECK(json::parse(report_to_json(run(config("llama-3-8b", "rtx-4090"))))["gpu"]["source"] == "catalog");
}

TEST_CASE("custom GPU: a base alone gives the catalog GPU's numbers, with its own name", "[custom-gpu]") {
    for (const char* id : {"h100-sxm", "rtx-4090", "m4-max-128gb", "mi300x"}) {
        INFO(id);
        Config cat = config("llama-3-70b", id);
        cat.gpus = 2;
        cat.weights = "q4_k_m";
        Config custom = cat;
        custom.gpu = "custom";
        custom.custom_gpu.base = id;
        const Report a = estimate(cat, catalog(), EstimateOptions{true, nullptr});
        const Report b = estimate(custom, catalog(), EstimateOptions{true, nullptr});
        CHECK(b.gpu_name == catalog().gpu(id).name + " (custom)");
        // Every figure the same: the reports differ only in the GPU's id, name and the custom GPU's part.
        json ja = json::parse(report_to_json(a)), jb = json::parse(report_to_json(b));
        for (json* j : {&ja, &jb}) {
            j->erase("gpu");
            (*j)["config"].erase("gpu");
        }
        // ... and renting: the cloud prices are the catalog GPU's, and nobody rents a custom one.
        CHECK(jb["cost"]["rent_usd_per_gpu_hour"].is_null());
        CHECK(jb["cost"]["buy_break_even_months"].is_null());
        for (json* j : {&ja, &jb}) {
            for (const char* k : {"rent_usd_per_gpu_hour", "rent_min_usd_per_gpu_hour", "rent_max_usd_per_gpu_hour", "rent_rows", "rent_date",
                                  "rent_usd_per_hour", "rent_usd_per_million_tokens", "buy_break_even_months"})
                (*j)["cost"].erase(k);
            (*j)["config"].erase("rent_usd_per_gpu_hour");
        }
        CHECK(ja == jb);
    }
}

// ---------------------------------------------------------------------------------------------
// Defaults and their derivations
// ---------------------------------------------------------------------------------------------

TEST_CASE("custom GPU: the defaults of the fields not given, each stated", "[custom-gpu]") {
    const CustomGpuBuild b = build_custom_gpu(custom_gpu_from_json(kNext48), catalog());
    const Gpu& g = b.gpu;
    CHECK(g.id == "custom");
    CHECK(g.name == "Next 48G");
    // The 16-bit rates: every catalog GPU with both lists them equal but CDNA 1 (MI100: AMD's
    // datasheet gives BF16 at half its FP16 rate), so the other one follows.
    for (const Gpu& c : catalog().gpus)
        if (c.tensor_tflops_dense.bf16 > 0 && c.tensor_tflops_dense.fp16 > 0 && c.arch != Architecture::cdna1) {
            INFO(c.id);
            CHECK(c.tensor_tflops_dense.bf16 == c.tensor_tflops_dense.fp16);
        }
    CHECK(g.tensor_tflops_dense.fp16 == 300);
    // FP32: the 16-bit rate / 32, at or below the FP32 share of every catalog GPU with tensor
    // cores but two: Gaudi (its matrix engines have no FP32 path; the vector engines' rate is
    // 1/80-1/128 of BF16) and Jetson AGX Thor (1/32.1).
    CHECK(g.fp32_tflops == Approx(300.0 / 32));
    for (const Gpu& c : catalog().gpus) {
        if (!c.tensor_cores || c.arch == Architecture::gaudi || c.id == "jetson-agx-thor") continue;
        INFO(c.id);
        CHECK(c.fp32_tflops / std::max(c.tensor_tflops_dense.bf16, c.tensor_tflops_dense.fp16) > 1.0 / 32);
    }
    // No precision beyond what was given: fp8, int8, fp4 and tf32 run on no tensor path.
    CHECK(g.tensor_tflops_dense.fp8 == 0);
    CHECK(g.tensor_tflops_dense.fp4 == 0);
    CHECK(g.tensor_tflops_dense.int8 == 0);
    CHECK(g.tensor_tflops_dense.tf32 == 0);
    CHECK(g.vendor == "unknown");
    CHECK(g.arch == Architecture::unknown);
    CHECK(g.segment == Segment::workstation);
    CHECK(g.tensor_cores);
    CHECK(g.pcie_gen == 4);
    CHECK(g.pcie_lanes == 16);
    CHECK_FALSE(g.p2p);   // the slower case: traffic between cards staged through host memory
    CHECK(g.link == NvlinkKind::none);
    CHECK(g.gpu_memory_fraction == 1);
    CHECK_FALSE(g.price_usd.has_value());
    CHECK(g.capacity_bytes() == 48 * kGiB);
    // Each default is named with its value, and the report lists them among its assumptions.
    CHECK(default_of(b, "tensor_tflops_dense.fp16") == "300 TFLOP/s");
    CHECK(default_of(b, "fp32_tflops") == "9.375 TFLOP/s");
    CHECK(default_of(b, "segment") == "workstation");
    CHECK(default_of(b, "p2p") == "false");
    CHECK(default_of(b, "memory_gib").empty());   // given
    const std::vector<Assumption> as = assumptions(estimate(with_gpu(kNext48), catalog()));
    auto find = [&](const std::string& name) {
        return std::find_if(as.begin(), as.end(), [&](const Assumption& a) { return a.name == name; });
    };
    REQUIRE(find("gpu") != as.end());
    CHECK(find("gpu")->value == "Next 48G (custom)");
    REQUIRE(find("gpu.fp32_tflops") != as.end());
    CHECK(find("gpu.fp32_tflops")->source.find("lowest FP32 share") != std::string::npos);
    CHECK(find("gpu.memory_gib") == as.end());

    // The architecture's whitepaper row: Volta and Turing have no BF16, so an fp16 rate alone stays alone.
    const Gpu volta = build_custom_gpu(custom_gpu_from_json(R"({"name": "V", "memory_gib": 32, "memory_bandwidth_gb_per_s": 900,
        "tensor_tflops_dense": {"fp16": 125}, "tdp_w": 300, "architecture": "volta"})"),
                                       catalog())
                          .gpu;
    CHECK(volta.tensor_tflops_dense.bf16 == 0);
    CHECK(volta.tensor_tflops_dense.fp16 == 125);
    const Gpu unknown_arch = build_custom_gpu(custom_gpu_from_json(R"({"name": "U", "memory_gib": 32, "memory_bandwidth_gb_per_s": 900,
        "tensor_tflops_dense": {"fp16": 125}, "tdp_w": 300})"),
                                              catalog())
                                 .gpu;
    CHECK(unknown_arch.tensor_tflops_dense.bf16 == 125);

    // Apple: no matrix units, Metal's working-set share, one machine, the ALU rate for FP32.
    const Gpu apple = build_custom_gpu(custom_gpu_from_json(R"({"name": "M9 Max", "vendor": "apple", "memory_gib": 256,
        "memory_bandwidth_gb_per_s": 800, "tensor_tflops_dense": {"fp16": 30}, "tdp_w": 200})"),
                                       catalog())
                          .gpu;
    CHECK(apple.segment == Segment::apple);
    CHECK_FALSE(apple.tensor_cores);
    // 0.75: Metal's working-set share above 36 GB under macOS 13-15, as most of the catalog's Apple entries have it.
    CHECK(apple.gpu_memory_fraction == 0.75);
    int apple_entries = 0, at_075 = 0;
    for (const Gpu& c : catalog().gpus)
        if (c.vendor == "apple") {
            ++apple_entries;
            at_075 += c.gpu_memory_fraction == 0.75;
        }
    CHECK(2 * at_075 > apple_entries);
    CHECK(apple.fp32_tflops == 30);
    CHECK(apple.pcie_gen == 0);
    CHECK(apple.llama_cpp_layer_overhead_s == Approx(190e-6));

    // A scale-out link: a data-center part with peer-to-peer, as every such catalog entry.
    const Gpu hgx = build_custom_gpu(custom_gpu_from_json(R"({"name": "X", "memory_gib": 192, "memory_bandwidth_gb_per_s": 8000,
        "tensor_tflops_dense": {"bf16": 2500}, "tdp_w": 1200, "interconnect": {"nvlink": "nvswitch", "nvlink_gb_per_s": 1800}})"),
                                     catalog())
                        .gpu;
    CHECK(hgx.segment == Segment::datacenter);
    CHECK(hgx.p2p);
    for (const Gpu& c : catalog().gpus)
        if (c.link == NvlinkKind::nvswitch || c.link == NvlinkKind::mesh || c.link == NvlinkKind::infinity_fabric) {
            CHECK(c.segment == Segment::datacenter);
            CHECK(c.p2p);
        }
}

// ---------------------------------------------------------------------------------------------
// An estimate on a custom GPU, by hand
// ---------------------------------------------------------------------------------------------

TEST_CASE("custom GPU: decode speed is the bandwidth you set over the bytes a token reads", "[custom-gpu][speed]") {
    // Llama 3 8B, bf16, batch 1, PyTorch on one GPU: a decode step reads every weight but the input
    // embedding (one row of it per token) and the KV cache at the average length (prompt + context)
    // / 2 = (4,096 + 8,192) / 2 = 6,144 tokens, at 131,072 B per token (32 layers x 8 KV heads x
    // 128 x 2 (K, V) x 2 B). Weights: 2 B x (8,030,261,248 - 128,256 x 4,096 = 525,336,576) =
    // 15,009,849,344 B; KV 6,144 x 131,072 = 805,306,368 B; 15,815,155,712 B a token. At 75% of
    // 1,200 GB/s (PyTorch's bandwidth efficiency for 16-bit weights): 9e11 / 15,815,155,712 = 56.91 tokens/s.
    const Report r = estimate(with_gpu(kNext48), catalog());
    CHECK(r.gpu_name == "Next 48G");
    CHECK(r.params == 8030261248.0);
    CHECK(r.kv_bytes_per_token == 131072.0);
    CHECK(r.speed.bandwidth_efficiency == 0.75);
    CHECK(r.speed.decode_bytes_per_step == 15815155712.0);
    CHECK(r.speed.decode_tokens_per_s == Approx(9e11 / 15815155712.0).epsilon(1e-12));   // 56.907
    // Twice the bandwidth, twice the tokens (memory-bound); the memory figures do not move.
    const Report fast = estimate(with_gpu(R"({"name": "Next 48G", "memory_gib": 48, "memory_bandwidth_gb_per_s": 2400,
        "tensor_tflops_dense": {"bf16": 300}, "tdp_w": 350})"),
                                 catalog());
    CHECK(fast.speed.decode_tokens_per_s == Approx(2 * r.speed.decode_tokens_per_s).epsilon(1e-9));
    CHECK(fast.per_gpu.total() == r.per_gpu.total());
    // The capacity is the memory given: 48 GiB, all of it usable by PyTorch.
    CHECK(r.gpu_capacity == 48 * kGiB);
    CHECK(r.gpu_usable == 48 * kGiB);
    // Board power: the TDP given, 89% of it decoding (memory-bound at 0.75 of GDDR-class bandwidth).
    CHECK(r.power.gpu_w == 350);
}

// ---------------------------------------------------------------------------------------------
// Bad input: each message names the field
// ---------------------------------------------------------------------------------------------

TEST_CASE("custom GPU: errors name the field", "[custom-gpu][bad-input]") {
    const std::pair<const char*, const char*> cases[] = {
        {R"({"model": "llama-3-8b", "gpu": {}})", "gpu: an object GPU must name base"},
        {R"({"model": "llama-3-8b", "gpu": "custom"})", "gpu: 'custom' is a GPU described by its fields"},
        {R"({"model": "llama-3-8b", "gpu": {"name": "A"}})",
         "gpu: is missing memory_gib, memory_bandwidth_gb_per_s, tdp_w, tensor_tflops_dense"},
        {R"({"model": "llama-3-8b", "gpu": {"name": "A", "memory_gib": 48, "memory_bandwidth_gb_per_s": 1000, "tensor_tflops_dense": {"bf16": 100}}})",
         "gpu.tdp_w: is required"},
        {R"({"model": "llama-3-8b", "gpu": {"name": "A", "memory_gib": 48, "memory_bandwidth_gb_per_s": 1000, "tdp_w": 300}})",
         "gpu.tensor_tflops_dense: is required"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "memory_gib": 0}})",
         "gpu.memory_gib: must be between 0.25 and 100000 GiB, got 0"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "memory_gib": "48"}})", "gpu.memory_gib: must be a number"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "tdp_w": 1e9}})", "gpu.tdp_w: must be between 1 and 100000 W"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "interconnect": {"pcie_gen": 4.5}}})",
         "gpu.interconnect.pcie_gen: must be a whole number"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "interconnect": {"pcie": 4}}})", "gpu.interconnect.pcie: unknown field"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "tensor_tflops_dense": {"fp6": 4}}})",
         "gpu.tensor_tflops_dense.fp6: unknown precision; allowed: tf32, fp16, bf16, fp8, int8, fp4"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "tensor_tflops_dense": 300}})",
         "gpu.tensor_tflops_dense: must be an object"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "vendor": "nvdia"}})", "gpu.vendor: must be nvidia, amd, intel or apple"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "architecture": "rubin"}})", "gpu.architecture: must be unknown, volta"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "segment": "cloud"}})", "gpu.segment: must be consumer"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "p2p": 1}})", "gpu.p2p: must be true or false"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "name": ""}})", "gpu.name: must not be empty"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "clock_mhz": 2800}})",
         "gpu.clock_mhz: unknown field of a custom GPU; fields: base, name"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "id": "my-4090"}})", "gpu.id: a custom GPU has no catalog id"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "sources": ["me"]}})", "gpu.sources: is catalog provenance"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-9090"}})", "gpu.base: unknown GPU 'rtx-9090'"},
        {R"({"model": "llama-3-8b", "gpu": {"base": 4090}})", "gpu.base: must be a catalog GPU id"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "custom"}})", "gpu.base: must be a catalog GPU id, not 'custom'"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "tensor_tflops_dense": {"bf16": 0, "fp16": 0}}})",
         "gpu.tensor_tflops_dense: needs a bf16 or fp16 rate above 0"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "interconnect": {"nvlink": "nvswitch"}}})",
         "gpu.interconnect.nvlink_gb_per_s: must be above 0 with interconnect.nvlink nvswitch"},
        {R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "tensor_tflops_dense.bf16": 100}})",
         "gpu.tensor_tflops_dense.bf16: unknown field of a custom GPU (nested fields are objects"},
        {R"({"model": "llama-3-8b", "gpu": [1]})", "gpu: must be a string"},
    };
    for (const auto& [config, wants] : cases) {
        INFO(config);
        CHECK_THAT(error_of(config), Catch::Contains(wants));
    }
    // An unknown base is an unknown id (the CLI's exit code for it), the rest bad values.
    const std::optional<Error> e = thrown_error([] { (void)estimate(with_gpu(R"({"base": "rtx-9090"})"), catalog()); });
    REQUIRE(e);
    CHECK(e->code() == ErrorCode::unknown_id);
    CHECK(e->key() == "gpu.base");
    // TensorRT-LLM needs an NVIDIA GPU: a custom GPU's vendor is unknown until it says so (the
    // assumption gpu.vendor says why).
    CHECK_THAT(error_of(R"({"model": "llama-3-8b", "runtime": "trt-llm", "gpu": )" + std::string(kNext48) + "}"),
               Catch::Contains("runtime: trt-llm runs on NVIDIA GPUs only; on Next 48G use"));
    Config nvidia = with_gpu(kNext48);
    nvidia.runtime = Runtime::trt_llm;
    nvidia.custom_gpu.set("vendor", std::string("nvidia"));
    CHECK_NOTHROW(estimate(nvidia, catalog()));
    // A Config filled by code is checked when built, as a file is when read.
    Config code = config("llama-3-8b", "custom");
    code.custom_gpu.base = "rtx-4090";
    code.custom_gpu.set("memory_gib", 1e9);
    CHECK_THAT(thrown_message([&] { (void)estimate(code, catalog()); }), Catch::Contains("gpu.memory_gib: must be between"));
}

// ---------------------------------------------------------------------------------------------
// Share links
// ---------------------------------------------------------------------------------------------

TEST_CASE("custom GPU: share links are short, round-trip exactly and refuse broken ones by name", "[custom-gpu][link]") {
    const Config c = with_gpu(kNext48);
    CHECK(link_from_config(c) == "#v=1&m=llama-3-8b&g=custom&gc=n:Next%2048G~mem:48~bw:1200~bf16:300~tdp:350");
    Config oc = with_gpu(R"({"base": "rtx-4090", "tdp_w": 500, "memory_bandwidth_gb_per_s": 1100})");
    oc.gpus = 2;
    CHECK(link_from_config(oc) == "#v=1&m=llama-3-8b&g=customx2&gc=b:rtx-4090~bw:1100~tdp:500");

    // link -> config -> link, for fields of every kind and names with the link's own characters.
    const char* gpus[] = {
        kNext48,
        R"({"base": "h100-sxm", "name": "a~b:c&d=e#f%g+h i/j,k", "tdp_w": 700.5})",
        R"({"name": "X", "memory_gib": 0.25, "memory_bandwidth_gb_per_s": 1e6, "tensor_tflops_dense": {"fp16": 12.345678901,
            "fp8": 24, "int8": 48, "fp4": 96, "tf32": 6}, "tdp_w": 1, "vendor": "amd", "architecture": "rdna3.5", "segment": "consumer",
            "chip": "Navi 99", "year": 2027, "memory_type": "GDDR7", "memory_total_mib": 256, "gpu_memory_fraction": 0.05,
            "fp32_tflops": 3.5, "tensor_tflops_dense_fp16_accumulate": 24.7, "host_w": 0, "llama_cpp_layer_overhead_us": 120,
            "interconnect": {"nvlink": "infinity-fabric", "nvlink_gb_per_s": 896, "pcie_gen": 7, "pcie_lanes": 32},
            "ecc": true, "p2p": false, "tensor_cores": true, "form_factor": "OAM", "price_usd": 0})",
    };
    for (const char* g : gpus) {
        INFO(g);
        Config in = with_gpu(g);
        in.gpus = 3;
        const std::string link = link_from_config(in);
        INFO(link);
        const Config back = config_from_link(link);
        CHECK(config_to_json(back) == config_to_json(in));
        CHECK(link_from_config(back) == link);
        // Percent-safe: nothing but unreserved characters, %-escapes and the link's own ~ : & = #.
        for (char ch : link)
            CHECK((std::isalnum(static_cast<unsigned char>(ch)) || std::string("-._~%:&=#,").find(ch) != std::string::npos));
    }

    // Broken links, each refused with the part it is about.
    const std::pair<const char*, const char*> broken[] = {
        {"#v=1&m=llama-3-8b&g=custom", "gpu: g=custom needs gc="},
        {"#v=1&m=llama-3-8b&g=rtx-4090&gc=tdp:500", "gpu: gc= holds a custom GPU's fields; it goes with g=custom"},
        {"#v=1&m=llama-3-8b&g=custom&gc=", "gpu: has no value in the link ('gc=')"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~tdp", "gpu: 'tdp' in the link's gc= is not field:value"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~zz:1", "gpu: unknown field 'zz' in the link's gc=; known: b, n, mem"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~mem:abc", "gpu.memory_gib: must be a number, got 'abc' in the link"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~mem:0", "gpu.memory_gib: must be between 0.25 and 100000 GiB"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~pg:4.5", "gpu.interconnect.pcie_gen: must be an integer"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~p2p:maybe", "gpu.p2p: must be 0 or 1"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~tdp:500~tdp:600", "gpu: field 'tdp' appears twice in the link's gc="},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~tdp:", "gpu.tdp_w: has no value in the link ('tdp:')"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-4090~n:%ZZ", "link: bad %-escape"},
        {"#v=1&m=llama-3-8b&g=custom&gc=n:A~mem:48", "gpu: is missing memory_bandwidth_gb_per_s, tdp_w, tensor_tflops_dense"},
        {"#v=1&m=llama-3-8b&g=custom&gc=b:rtx-9090", "gpu.base: unknown GPU 'rtx-9090'"},
        {"#v=1&m=llama-3-8b&g=customx2&gc=b:rtx-4090&gc=b:h100-sxm", "link: key 'gc' appears twice"},
    };
    for (const auto& [link, wants] : broken) {
        INFO(link);
        CHECK_THAT(thrown_message([&] { (void)estimate(config_from_link(link), catalog()); }), Catch::Contains(wants));
    }
    // gc without g: the custom GPU on its own (one of it).
    const Config alone = config_from_link("#v=1&m=llama-3-8b&gc=b:rtx-4090~tdp:500");
    CHECK(alone.gpu == "custom");
    CHECK(alone.gpus == 1);
}

// ---------------------------------------------------------------------------------------------
// recommend, fit, plan and measured reports
// ---------------------------------------------------------------------------------------------

TEST_CASE("custom GPU: recommend ranks it among the catalog's GPUs", "[custom-gpu][recommend]") {
    RecommendQuery q;
    q.base = with_gpu(R"({"name": "Big 1T", "memory_gib": 1024, "memory_bandwidth_gb_per_s": 8000,
        "tensor_tflops_dense": {"bf16": 2500}, "tdp_w": 1400, "price_usd": 50000})",
                      "llama-3.1-405b");
    q.base.weights = "bf16";
    q.max_gpus = 1;
    const Recommendation rec = recommend(q, catalog());
    // 405B in bf16 is 810 GB of weights: no catalog GPU holds it alone; the custom one does.
    REQUIRE(rec.recommended.size() == 1);
    CHECK(rec.recommended[0].gpu == "custom");
    CHECK(rec.recommended[0].gpu_name == "Big 1T");
    CHECK(rec.recommended[0].price_usd == 50000);
    CHECK(rec.rejected.size() == catalog().gpus.size());
    // Its row is the estimate's: the same memory per GPU.
    Config one = q.base;
    one.gpus = 1;
    CHECK(rec.recommended[0].per_gpu_total == Approx(estimate(one, catalog()).per_gpu.total()));
    CHECK(json::parse(recommend_to_json(rec))["recommended"][0]["gpu"] == "custom");
    // A catalog GPU in the query: no custom row, as before.
    Config cat = config("llama-3-8b", "rtx-4090");
    cat.custom_gpu = q.base.custom_gpu;   // kept (as the app keeps it) but not chosen
    RecommendQuery plain;
    plain.base = cat;
    plain.max_gpus = 1;
    const Recommendation r2 = recommend(plain, catalog());
    CHECK(r2.recommended.size() + r2.rejected.size() == catalog().gpus.size());
}

TEST_CASE("custom GPU: fit and plan use it as a single GPU model", "[custom-gpu][fit][plan]") {
    // Twice the memory of an RTX 4090 fits a longer context than the 4090 does. Its driver total
    // follows the memory given: 24,564 MiB x 48 / 24 = 49,128 MiB (the base's reserve in proportion).
    const CustomGpuBuild doubled = build_custom_gpu(custom_gpu_from_json(R"({"base": "rtx-4090", "memory_gib": 48})"), catalog());
    CHECK(doubled.gpu.memory_total_mib == 49128);
    CHECK(default_of(doubled, "memory_total_mib") == "49128 MiB");
    CHECK(build_custom_gpu(custom_gpu_from_json(R"({"base": "rtx-4090", "memory_gib": 48, "memory_total_mib": 49000})"), catalog())
              .gpu.memory_total_mib == 49000);   // given: as given
    const FitReport small = fit(config("llama-3-8b", "rtx-4090"), catalog());
    const FitReport big = fit(with_gpu(R"({"base": "rtx-4090", "memory_gib": 48})"), catalog());
    CHECK(big.base.gpu_capacity == 49128 * kMiB);
    CHECK(big.base.gpu_name == "NVIDIA GeForce RTX 4090 (custom)");
    CHECK(big.max_context > small.max_context);
    // The serving plan search over 4 of them.
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base = with_gpu(R"({"base": "h100-sxm", "memory_bandwidth_gb_per_s": 4000, "name": "H100 faster"})", "llama-3-70b");
    q.base.gpus = 4;
    q.base.weights = "fp8";
    q.base.runtime = Runtime::vllm;
    q.base.isl = 1000;
    q.base.osl = 1000;
    const PlanReport p = plan(q, catalog());
    REQUIRE_FALSE(p.top.empty());
    CHECK(p.top[0].report.gpu_name == "H100 faster");
    const json pj = json::parse(plan_to_json(p));
    CHECK(pj["top"][0]["report"]["gpu"]["name"] == "H100 faster");
    CHECK(pj["top"][0]["report"]["config"]["gpu"]["memory_bandwidth_gb_per_s"] == 4000.0);
}

TEST_CASE("custom GPU: a benchmark report calibrates its base, without a base it says why", "[custom-gpu][measured]") {
    // A report of an RTX 4090 (test inputs, not measurements): triad 910 GB/s, bf16 GEMM 150 TFLOP/s.
    MeasuredReport rep;
    rep.tool_version = "0.1.0";
    MeasuredDevice d;
    d.name = "NVIDIA GeForce RTX 4090";
    d.catalog_id = "rtx-4090";
    Measurement triad;
    triad.id = "memory.triad";
    triad.unit = "GB/s";
    triad.stats.samples = 10;
    triad.stats.median = 910;
    d.measurements.push_back(triad);
    rep.devices.push_back(d);
    rep.status = BenchStatus::ok;

    Config oc = with_gpu(R"({"base": "rtx-4090", "tdp_w": 500})");
    CHECK(measured_gpu_id(oc, "r.json") == "rtx-4090");
    const GpuOverlay overlay = measured_overlay(catalog(), rep, "r.json", {measured_gpu_id(oc, "r.json")});
    const Report r = estimate(oc, catalog(), EstimateOptions{false, &overlay});
    // The base's measured bandwidth, the TDP given.
    REQUIRE(r.custom_gpu);
    CHECK(r.custom_gpu->gpu.memory_bandwidth_gb_per_s == 910);
    CHECK(r.custom_gpu->gpu.tdp_w == 500);
    REQUIRE(r.measured);
    CHECK(r.measured->find("memory_bandwidth_gb_per_s"));
    // A field given over a measured one is the user's: the calibration no longer claims it.
    Config bw = with_gpu(R"({"base": "rtx-4090", "memory_bandwidth_gb_per_s": 1100})");
    const Report r2 = estimate(bw, catalog(), EstimateOptions{false, &overlay});
    CHECK(r2.custom_gpu->gpu.memory_bandwidth_gb_per_s == 1100);
    REQUIRE(r2.measured);
    CHECK_FALSE(r2.measured->find("memory_bandwidth_gb_per_s"));
    // No base: no catalog entry a report measured.
    CHECK_THAT(thrown_message([] { (void)measured_gpu_id(with_gpu(kNext48), "r.json"); }),
               Catch::Contains("measured: r.json calibrates a catalog GPU; the configuration's GPU is a custom one without a base"));
}
