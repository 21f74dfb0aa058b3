// test_catalog.cpp: the asset files load, hold the GPUs and models the project promises, and bad
// files are named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

std::string load_error(const std::string& gpus, const std::string& models) {
    try {
        (void)catalog_from_json(gpus, models);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("the catalog holds the models and GPUs the product promises", "[catalog]") {
    for (const char* id : {"deepseek-r1", "deepseek-r1-distill-qwen-1.5b", "deepseek-r1-distill-qwen-7b",
                           "deepseek-r1-distill-llama-8b", "deepseek-r1-distill-qwen-14b", "deepseek-r1-distill-qwen-32b",
                           "deepseek-r1-distill-llama-70b", "llama-3-8b", "llama-3-70b", "llama-3.3-70b", "llama-3.2-1b",
                           "llama-3.2-3b", "gpt-neox-20b", "bloom-176b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b",
                           "gemma-2-9b", "phi-3-mini-4k", "llama-3.1-405b"}) {
        INFO(id);
        CHECK(catalog().find_model(id) != nullptr);
    }
    for (const char* id : {"rtx-3060", "rtx-3070", "rtx-3080", "rtx-3090", "rtx-4060-ti-16gb", "rtx-4070-ti", "rtx-4080",
                           "rtx-4090", "rtx-5090", "rtx-a6000", "rtx-6000-ada", "l4", "l40s", "a10", "a100-40gb-pcie",
                           "a100-80gb-pcie", "a100-40gb-sxm", "a100-80gb-sxm", "h100-pcie", "h100-sxm", "h200", "b200",
                           "v100-sxm2-16gb", "t4", "mi300x", "m2-ultra-192gb"}) {
        INFO(id);
        CHECK(catalog().find_gpu(id) != nullptr);
    }
}

TEST_CASE("GPU data: dense tensor rates, precisions each architecture has", "[catalog]") {
    for (const Gpu& g : catalog().gpus) {
        INFO(g.id);
        CHECK(g.capacity_bytes() > 0);
        CHECK(g.memory_bandwidth_gb_per_s > 0);
        const std::string& arch = g.architecture;
        if (arch == "pascal" || arch == "volta" || arch == "turing") CHECK(g.tensor_tflops_dense.bf16 == 0);   // BF16 from Ampere
        if (arch == "pascal" || arch == "volta" || arch == "turing" || arch == "ampere")
            CHECK(g.tensor_tflops_dense.fp8 == 0);   // FP8 from Ada/Hopper
        if (arch != "blackwell" && arch != "cdna4") CHECK(g.tensor_tflops_dense.fp4 == 0);   // FP4 from Blackwell / MI350
        if (g.vendor == "nvidia" && g.tensor_tflops_dense.bf16 > 0)
            CHECK(g.tensor_tflops_dense.bf16 >= g.fp32_tflops * 0.9);   // tensor cores beat CUDA cores
    }
    // The RTX 4090 is 165.2 dense BF16 TFLOPS with FP32 accumulate, not the 330 (sparse) of spec sheets.
    CHECK(catalog().gpu("rtx-4090").tensor_tflops_dense.bf16 == Approx(165.2));
    CHECK(catalog().gpu("h100-sxm").tensor_tflops_dense.bf16 == Approx(989).epsilon(0.001));
}

TEST_CASE("the 2024-2026 GPUs the issue lists, and at least 60 in all", "[catalog]") {
    CHECK(catalog().gpus.size() >= 60);
    for (const char* id : {"rtx-pro-6000-blackwell", "rtx-pro-6000-blackwell-server", "rtx-5090", "rtx-5080", "rtx-5070-ti",
                           "rtx-5060-ti-16gb", "b200", "b300", "gb200", "gb300", "h200-nvl", "mi325x", "mi355x", "dgx-spark",
                           "ryzen-ai-max-395", "arc-pro-b60", "rx-7900-xtx", "m3-ultra-512gb", "m4-max-128gb", "m5-32gb"}) {
        INFO(id);
        CHECK(catalog().find_gpu(id) != nullptr);
    }
}

TEST_CASE("every GPU has its required facts and a source", "[catalog]") {
    for (const Gpu& g : catalog().gpus) {
        INFO(g.id);
        CHECK(g.arch != Architecture::unknown);
        CHECK(architecture_from_name(g.architecture) == g.arch);
        CHECK(nvlink_kind_from_name(g.nvlink) == g.link);
        CHECK(g.memory_gib > 0);
        CHECK(g.fp32_tflops > 0);
        CHECK(g.tensor_tflops_dense.fp16 > 0);
        CHECK(!g.sources.empty());
        CHECK((g.segment == Segment::apple || g.tdp_w > 0));
        if (g.link != NvlinkKind::none) CHECK(g.nvlink_gb_per_s > 0);
        // Unified memory (Apple, DGX Spark, Strix Halo): the GPU gets a share of the machine's memory.
        if (g.segment == Segment::apple) CHECK(g.gpu_memory_fraction < 1.0);
    }
}

TEST_CASE("native precisions come from the tensor-rate table", "[catalog][precision]") {
    // Blackwell runs FP4 (RTX 5090: 1,676 dense, NVIDIA RTX Blackwell whitepaper; B200: 9,000).
    CHECK(runs_natively(catalog().gpu("rtx-5090"), Precision::fp4));
    CHECK(runs_natively(catalog().gpu("b200"), Precision::fp4));
    CHECK(runs_natively(catalog().gpu("rtx-pro-6000-blackwell"), Precision::fp4));
    // Ada and Hopper: FP8, no FP4.
    CHECK(runs_natively(catalog().gpu("rtx-4090"), Precision::fp8));
    CHECK_FALSE(runs_natively(catalog().gpu("rtx-4090"), Precision::fp4));
    CHECK(runs_natively(catalog().gpu("h100-sxm"), Precision::fp8));
    CHECK_FALSE(runs_natively(catalog().gpu("h200"), Precision::fp4));
    // Ampere: BF16 but no FP8. CDNA 4 (MI355X): FP8 and MXFP4.
    CHECK(runs_natively(catalog().gpu("a100-80gb-sxm"), Precision::bf16));
    CHECK_FALSE(runs_natively(catalog().gpu("a100-80gb-sxm"), Precision::fp8));
    CHECK(runs_natively(catalog().gpu("mi355x"), Precision::fp4));
    // Apple: no matrix units, none native (their fp16 figure is the ALU rate).
    for (const char* id : {"m2-ultra-192gb", "m4-max-128gb", "m3-ultra-512gb"}) {
        INFO(id);
        for (Precision p : {Precision::fp16, Precision::bf16, Precision::fp8, Precision::int8, Precision::fp4})
            CHECK_FALSE(runs_natively(catalog().gpu(id), p));
    }
    // The data decides: a table with no FP8 rate makes FP8 not native, whatever the architecture.
    Gpu g = catalog().gpu("h100-sxm");
    g.tensor_tflops_dense.fp8 = 0;
    CHECK_FALSE(runs_natively(g, Precision::fp8));
    // NVFP4 weights on a B200 run at its FP4 rate; on an H100 they dequantize to BF16.
    CHECK(compute_choice(catalog().gpu("b200"), weight_format("nvfp4"), Runtime::vllm).flops == 9000e12);
    const ComputeChoice h = compute_choice(catalog().gpu("h100-sxm"), weight_format("mxfp4"), Runtime::vllm);
    CHECK(h.used == Precision::bf16);
    CHECK_FALSE(h.native);
}

TEST_CASE("GeForce RTX 40/50 have no P2P, vLLM's large-GPU rule without id matching", "[catalog]") {
    for (const Gpu& g : catalog().gpus) {
        INFO(g.id);
        if (g.vendor == "nvidia" && g.segment == Segment::consumer && (g.arch == Architecture::ada || g.arch == Architecture::blackwell))
            CHECK_FALSE(g.p2p);
    }
    CHECK(catalog().gpu("rtx-pro-6000-blackwell").p2p);   // measured P2P over PCIe 5.0 (voipmonitor/rtx6kpro)
    // vLLM: >= 70 GiB and not an A100 -> larger scheduler defaults.
    CHECK_FALSE(vllm_large_scheduler_defaults(catalog().gpu("a100-80gb-sxm")));
    CHECK(vllm_large_scheduler_defaults(catalog().gpu("h100-sxm")));
    CHECK(vllm_large_scheduler_defaults(catalog().gpu("mi300x")));
    CHECK_FALSE(vllm_large_scheduler_defaults(catalog().gpu("rtx-4090")));
}

TEST_CASE("malformed asset files are refused with file, entry and field", "[catalog][errors]") {
    const std::string gpus = read_asset("gpus.json");
    const std::string models = read_asset("models.json");
    REQUIRE_NOTHROW(catalog_from_json(gpus, models));
    CHECK(load_error("{", models).find("gpus.json") != std::string::npos);
    CHECK(load_error(gpus, "[]").find("models.json") != std::string::npos);
    CHECK(load_error(R"({"schema_version": 2, "gpus": []})", models).find("schema_version") != std::string::npos);

    auto with = [](std::string text, const std::string& from, const std::string& to) {
        const auto pos = text.find(from);
        REQUIRE(pos != std::string::npos);
        return text.replace(pos, from.size(), to);
    };
    std::string e = load_error(with(gpus, "\"memory_gib\": 24,", "\"memory_gib\": \"24\","), models);
    CHECK(e.find("gpus.json") != std::string::npos);
    CHECK(e.find("memory_gib") != std::string::npos);
    CHECK(e.find("must be a number") != std::string::npos);
    e = load_error(with(gpus, "\"memory_bandwidth_gb_per_s\": 1008", "\"memory_bandwidth_gb_per_s\": -1"), models);
    CHECK(e.find("rtx-4090") != std::string::npos);
    CHECK(e.find("memory_bandwidth_gb_per_s") != std::string::npos);
    e = load_error(with(gpus, "\"segment\": \"consumer\"", "\"segment\": \"gaming\""), models);
    CHECK(e.find("segment") != std::string::npos);
    e = load_error(gpus, with(models, "\"num_hidden_layers\": 32", "\"num_hidden_layers\": \"many\""));
    CHECK(e.find("models.json") != std::string::npos);
    CHECK(e.find("num_hidden_layers") != std::string::npos);
    e = load_error(gpus, with(models, "\"id\": \"llama-3-70b\"", "\"id\": \"llama-3-8b\""));
    CHECK(e.find("duplicate") != std::string::npos);
    e = load_error(gpus, with(models, "\"id\": \"gpt2\"", "\"id\": \"GPT 2\""));
    CHECK(e.find("kebab-case") != std::string::npos);
    e = load_error(with(gpus, "\"memory_gib\": 24,", "\"memory_gb\": 24,"), models);
    CHECK(e.find("memory_gb") != std::string::npos);
    CHECK(e.find("unknown field") != std::string::npos);
    e = load_error(gpus, with(models, "\"context_trained\": 8192", "\"context_trained\": 8192, \"contxt\": 1"));
    CHECK(e.find("contxt") != std::string::npos);
}

TEST_CASE("a catalog file stored by columns reads as the same entries", "[catalog]") {
    // The widget's slim catalog stores each list by columns (web/slim_catalog.mjs): one array per
    // field, an object field of flat values as "a.b" columns, null where an entry lacks the field.
    // The same conversion here, of the asset files as they are, must load to the same catalog.
    using nlohmann::json;
    auto by_columns = [](const std::string& text, const char* list_key) {
        json root = json::parse(text);
        const json& entries = root[list_key];
        json columns = json::object();
        auto flat = [](const json& v) {
            if (!v.is_object()) return false;
            for (const auto& x : v)
                if (x.is_structured()) return false;
            return true;
        };
        std::vector<std::string> names;
        for (const json& e : entries)
            for (auto it = e.begin(); it != e.end(); ++it)
                if (std::find(names.begin(), names.end(), it.key()) == names.end()) names.push_back(it.key());
        for (const std::string& k : names) {
            bool all_flat = true;
            for (const json& e : entries) all_flat = all_flat && e.contains(k) && flat(e[k]);
            if (all_flat) {
                for (std::size_t i = 0; i < entries.size(); ++i)
                    for (auto it = entries[i][k].begin(); it != entries[i][k].end(); ++it) {
                        json& column = columns[k + "." + it.key()];
                        if (column.is_null()) column = json(entries.size(), json(nullptr));
                        column[i] = *it;
                    }
            } else {
                json column = json::array();
                for (const json& e : entries) column.push_back(e.contains(k) ? e[k] : json(nullptr));
                columns[k] = column;
            }
        }
        root[list_key] = json{{"columns", columns}};
        return root.dump();
    };
    const std::string gpus = read_asset("gpus.json"), models = read_asset("models.json"), links = read_asset("links.json");
    const Catalog rows = catalog_from_json(gpus, models, links);
    const std::string gpus_c = by_columns(gpus, "gpus"), models_c = by_columns(models, "models"), links_c = by_columns(links, "links");
    CHECK(gpus_c.find("\"tensor_tflops_dense.fp16\":[") != std::string::npos);   // flattened, as the widget's file is
    const Catalog columns = catalog_from_json(gpus_c, models_c, links_c);
    CHECK(columns.gpus.size() == rows.gpus.size());
    CHECK(gpus_to_json(columns) == gpus_to_json(rows));
    CHECK(models_to_json(columns) == models_to_json(rows));
    CHECK(links_to_json(columns) == links_to_json(rows));
    // A column of another length, or a field given both whole and by its fields, is refused by name.
    auto error = [&](const std::string& g) {
        try {
            (void)catalog_from_json(g, models);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    json short_column = json::parse(gpus_c);
    short_column["gpus"]["columns"]["memory_gib"].erase(0);
    CHECK(error(short_column.dump()).find("gpus.json: gpus.columns: memory_gib") != std::string::npos);
    json twice = json::parse(gpus_c);
    twice["gpus"]["columns"]["interconnect"] = twice["gpus"]["columns"]["ecc"];
    CHECK(error(twice.dump()).find("gpus.json: gpus.columns: interconnect") != std::string::npos);
    CHECK(error(R"({"schema_version": 1, "gpus": {"rows": []}})").find("columns") != std::string::npos);
    // A field a GPU lacks is null in its column: absent, as in the row form (host_w: DGX Spark only).
    CHECK(columns.gpu("rtx-4090").unified_host_w == rows.gpu("rtx-4090").unified_host_w);
    CHECK(columns.gpu("dgx-spark").unified_host_w == rows.gpu("dgx-spark").unified_host_w);
}

TEST_CASE("a missing assets folder is reported", "[catalog][errors]") {
    CHECK_THROWS_WITH(load_catalog("/nonexistent/assets"), Catch::Contains("gpus.json") && Catch::Contains("cannot be read"));
}

TEST_CASE("a catalog is a value: a copy outlives its original", "[catalog]") {
    // The index holds positions, not views into the original's strings: copy, destroy the
    // original, and the copy's lookups still work (AddressSanitizer read freed memory here once).
    auto original = std::make_unique<Catalog>(catalog());
    Catalog copy = *original;
    original.reset();
    REQUIRE(copy.find_model("llama-3-8b") != nullptr);
    CHECK(copy.find_model("llama-3-8b")->arch.id == "llama-3-8b");
    CHECK(copy.find_gpu("h100-sxm")->id == "h100-sxm");
    CHECK(copy.find_model("no-such-model") == nullptr);
    Catalog moved = std::move(copy);
    CHECK(moved.find_gpu("rtx-4090") != nullptr);
    CHECK(estimate(config("llama-3-8b"), moved).fits);
    // Changed by hand without reindex(): found by a scan, not through a stale index.
    moved.gpus.push_back(moved.gpus.front());
    moved.gpus.back().id = "hand-made";
    CHECK(moved.find_gpu("hand-made") != nullptr);
}

TEST_CASE("the GPUs part A of the 150-GPU issue added: Pascal to Blackwell, laptops, Jetson", "[catalog]") {
    CHECK(catalog().gpus.size() >= 117);   // 65 before, plus these 52
    for (const char* id : {"gtx-1060-6gb",
                           "gtx-1070",
                           "gtx-1070-ti",
                           "gtx-1080",
                           "gtx-1080-ti",
                           "titan-x-pascal",
                           "titan-xp",
                           "gtx-1660-super",
                           "gtx-1660-ti",
                           "rtx-2060",
                           "rtx-2060-12gb",
                           "rtx-2060-super",
                           "rtx-2070",
                           "rtx-2070-super",
                           "rtx-2080",
                           "rtx-2080-super",
                           "rtx-2080-ti",
                           "titan-rtx",
                           "quadro-rtx-6000",
                           "quadro-rtx-8000",
                           "rtx-3050-8gb",
                           "rtx-3060-8gb",
                           "rtx-3060-ti",
                           "rtx-3070-ti",
                           "rtx-3080-12gb",
                           "rtx-3080-ti",
                           "rtx-4060",
                           "rtx-4090-d",
                           "rtx-5050",
                           "rtx-5060",
                           "rtx-4090-laptop",
                           "rtx-4080-laptop",
                           "rtx-4070-laptop",
                           "rtx-5090-laptop",
                           "rtx-5080-laptop",
                           "rtx-3080-ti-laptop",
                           "rtx-a2000-12gb",
                           "rtx-a4000",
                           "rtx-a4500",
                           "rtx-a5000",
                           "rtx-a5500",
                           "rtx-2000-ada",
                           "rtx-4000-sff-ada",
                           "rtx-4000-ada",
                           "rtx-4500-ada",
                           "rtx-pro-4000-blackwell",
                           "rtx-pro-4500-blackwell",
                           "rtx-pro-6000-blackwell-max-q",
                           "jetson-agx-orin-64gb",
                           "jetson-agx-orin-32gb",
                           "jetson-orin-nano-super-8gb",
                           "jetson-agx-thor"}) {
        INFO(id);
        REQUIRE(catalog().find_gpu(id) != nullptr);
        const Gpu& g = catalog().gpu(id);
        CHECK(g.memory_bandwidth_gb_per_s > 0);
        CHECK(g.tdp_w > 0);
        // A figure not re-read from a primary source is listed; the derived tensor rates always are
        // except where the entry quotes NVIDIA's own table.
        CHECK(g.sources.size() >= 1);
    }
}

TEST_CASE("Pascal: no tensor cores, FP16 at 1/64 of FP32, 16-bit math on the FP32 units", "[catalog][precision]") {
    CHECK(to_string(Architecture::pascal) == "pascal");
    CHECK(architecture_from_name("pascal") == Architecture::pascal);
    // The whitepaper table: no matrix unit for any precision; P100 SXM2 carries NVLink 1.
    for (Precision p : {Precision::fp16, Precision::bf16, Precision::tf32, Precision::int8, Precision::fp8, Precision::fp4})
        CHECK_FALSE(runs_natively(Architecture::pascal, p));
    CHECK(nvlink_generation(Architecture::pascal) == 1);
    for (const Gpu& g : catalog().gpus) {
        if (g.arch != Architecture::pascal) continue;
        INFO(g.id);
        CHECK_FALSE(g.tensor_cores);
        CHECK_FALSE(runs_natively(g, Precision::fp16));
        CHECK(g.tensor_tflops_dense.bf16 == 0);
        CHECK(g.tensor_tflops_dense.int8 == 0);
    }
    // GTX 1080 Ti: 11.3 TFLOPS FP32 (NVIDIA's Turing comparison table); CUDA programming guide:
    // 2 FP16 results per clock per SM on compute capability 6.1 against 128 FP32, so 11.3 / 64 = 0.177.
    const Gpu& ti = catalog().gpu("gtx-1080-ti");
    CHECK(ti.fp32_tflops == Approx(11.3));
    CHECK(ti.tensor_tflops_dense.fp16 == Approx(11.3 / 64).epsilon(0.01));
    // BF16 weights in PyTorch and F16 GGUF in llama.cpp both compute at the FP32 rate, not the
    // 1/64 FP16 rate: cuBLAS's 16-bit GEMMs accumulate in FP32, llama.cpp converts F16 to F32 on 6.1.
    for (Runtime rt : {Runtime::pytorch, Runtime::llama_cpp}) {
        const ComputeChoice c = compute_choice(ti, weight_format(rt == Runtime::pytorch ? "bf16" : "fp16"), rt);
        CHECK(c.used == Precision::fp32);
        CHECK_FALSE(c.tensor_cores);
        CHECK_FALSE(c.native);
        CHECK(c.flops == Approx(11.3e12));
    }
    // Apple keeps its ALU FP16 rate (equal to its FP32 rate): bf16 there is fp16-class ALU math.
    const ComputeChoice m = compute_choice(catalog().gpu("m4-max-128gb"), weight_format("bf16"), Runtime::pytorch);
    CHECK(m.used == Precision::fp16);
    CHECK(m.native);
    // TU116 (GTX 16 series): no tensor cores but FP16 units at 2 x FP32, which the ALU path uses.
    const Gpu& gtx16 = catalog().gpu("gtx-1660-super");
    CHECK_FALSE(gtx16.tensor_cores);
    CHECK(gtx16.tensor_tflops_dense.fp16 == Approx(2 * gtx16.fp32_tflops).epsilon(0.01));
    const ComputeChoice t = compute_choice(gtx16, weight_format("fp16"), Runtime::pytorch);
    CHECK(t.used == Precision::fp16);
    CHECK(t.flops == Approx(gtx16.tensor_tflops_dense.fp16 * 1e12));
}

TEST_CASE("Pascal is below the serving engines' compute-capability floor", "[catalog][errors]") {
    // vLLM's installation docs: "GPU: compute capability 7.0 or higher"; SGLang's quick start sm75;
    // TensorRT-LLM's support matrix starts at Ampere. llama.cpp and PyTorch run.
    for (Runtime rt : {Runtime::vllm, Runtime::sglang, Runtime::trt_llm}) {
        Config c = serving("llama-3-8b", "gtx-1080-ti", rt);
        c.weights = "int4";
        c.context = 2048;
        try {
            (void)run(c);
            FAIL("expected a refusal");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::gpu_unsupported);
            CHECK(std::string(e.what()).find("compute capability 7.0") != std::string::npos);
            CHECK(std::string(e.what()).find("Pascal") != std::string::npos);
        }
    }
    Config ok = serving("llama-3-8b", "gtx-1080-ti", Runtime::llama_cpp);
    ok.weights = "q4_k_m";
    ok.context = 2048;
    CHECK(run(ok).fits);
    // Turing, compute capability 7.5, is above it.
    Config turing = serving("llama-3-8b", "titan-rtx", Runtime::vllm);
    CHECK_NOTHROW(run(turing));
}

TEST_CASE("derived dense tensor rates are the vendor's figures as published or halved from sparse", "[catalog][precision]") {
    // NVIDIA's Turing table, RTX 2080 Ti at the reference clock: 53.8 FP16 with FP32 accumulate,
    // 107.6 with FP16 accumulate (GeForce: half rate with FP32 accumulate), 215.2 INT8; no BF16.
    const Gpu& ti = catalog().gpu("rtx-2080-ti");
    CHECK(ti.tensor_tflops_dense.fp16 == Approx(53.8));
    CHECK(ti.fp16_accumulate_tflops == Approx(107.6));
    CHECK(ti.tensor_tflops_dense.int8 == Approx(215.2));
    CHECK(ti.tensor_tflops_dense.bf16 == 0);
    // Quadro RTX 8000 / TITAN RTX: the same TU102 at 1,770 MHz, 130.5 with either accumulation (no
    // separate FP16-accumulate figure): professional cards do not halve FP32 accumulate.
    for (const char* id : {"quadro-rtx-8000", "titan-rtx"}) {
        INFO(id);
        CHECK(catalog().gpu(id).tensor_tflops_dense.fp16 == Approx(130.5));
        CHECK(catalog().gpu(id).fp16_accumulate_tflops == 0);
    }
    // RTX A4000 datasheet: 153.4 tensor TFLOPS with sparsity -> 76.7 dense FP16 = 4 x 19.17 FP32.
    CHECK(catalog().gpu("rtx-a4000").tensor_tflops_dense.fp16 == Approx(153.4 / 2).epsilon(0.002));
    // RTX 2000 Ada datasheet: 191.9 tensor TFLOPS (FP8, sparse) -> 96 dense FP8, FP16 half of it.
    const Gpu& ada2000 = catalog().gpu("rtx-2000-ada");
    CHECK(ada2000.tensor_tflops_dense.fp8 == Approx(191.9 / 2).epsilon(0.002));
    CHECK(ada2000.tensor_tflops_dense.fp16 == Approx(191.9 / 4).epsilon(0.002));
    // GeForce RTX 50 'AI TOPS' = FP4 with sparsity: RTX 5060 614 -> 307 dense FP4, BF16 = 614 / 16.
    const Gpu& r5060 = catalog().gpu("rtx-5060");
    CHECK(r5060.tensor_tflops_dense.fp4 == Approx(614.0 / 2).epsilon(0.001));
    CHECK(r5060.tensor_tflops_dense.bf16 == Approx(614.0 / 16).epsilon(0.003));
    // Jetson AGX Thor: 2,070 FP4 TFLOPS (sparse) -> 1,035 dense.
    CHECK(catalog().gpu("jetson-agx-thor").tensor_tflops_dense.fp4 == Approx(2070.0 / 2));
    // GeForce Ampere laptops and desktops: FP32 accumulate at half the FP16-accumulate rate.
    for (const char* id : {"rtx-3060-ti", "rtx-3080-ti", "rtx-3080-ti-laptop"}) {
        INFO(id);
        const Gpu& g = catalog().gpu(id);
        CHECK(g.tensor_tflops_dense.fp16 == Approx(g.fp16_accumulate_tflops / 2).epsilon(0.01));
        CHECK(g.tensor_tflops_dense.fp8 == 0);   // no FP8 on Ampere
    }
}

TEST_CASE("laptop GPUs: their own memory and the top of the TGP range", "[catalog]") {
    // NVIDIA: RTX 4090 Laptop 16 GB GDDR6, 80-150 W; RTX 5090 Laptop 24 GB GDDR7, 95-150 W;
    // RTX 4070 Laptop 8 GB, 35-115 W. The desktop cards of the same name: 24 / 32 / 12 GB.
    CHECK(catalog().gpu("rtx-4090-laptop").memory_gib == 16);
    CHECK(catalog().gpu("rtx-4090-laptop").tdp_w == 150);
    CHECK(catalog().gpu("rtx-5090-laptop").memory_gib == 24);
    CHECK(catalog().gpu("rtx-5090-laptop").tdp_w == 150);
    CHECK(catalog().gpu("rtx-4070-laptop").memory_gib == 8);
    CHECK(catalog().gpu("rtx-4070-laptop").tdp_w == 115);
    CHECK(catalog().gpu("rtx-4090-laptop").memory_gib < catalog().gpu("rtx-4090").memory_gib);
    // The 4090 Laptop is an AD103 (desktop RTX 4080 chip): 9,728 cores at 2,040 MHz = 39.69 TFLOPS.
    CHECK(catalog().gpu("rtx-4090-laptop").fp32_tflops == Approx(2 * 9728 * 2.040e9 / 1e12).epsilon(0.001));
}

TEST_CASE("Jetson modules are unified-memory machines, sized like the DGX Spark", "[catalog][power]") {
    // Thor: 109,671 MiB free of 128 GiB at llama.cpp's start (0.84); Orin Nano: ~5.2 of 8 GB (0.65).
    const Gpu& thor = catalog().gpu("jetson-agx-thor");
    CHECK(thor.capacity_bytes() == Approx(0.84 * 128 * kGiB));
    CHECK(thor.capacity_bytes() / kMiB == Approx(109671).epsilon(0.01));
    CHECK(catalog().gpu("jetson-orin-nano-super-8gb").capacity_bytes() == Approx(0.65 * 8 * kGiB));
    for (const char* id : {"jetson-agx-orin-64gb", "jetson-agx-orin-32gb", "jetson-orin-nano-super-8gb", "jetson-agx-thor"}) {
        INFO(id);
        const Gpu& g = catalog().gpu(id);
        CHECK(g.gpu_memory_fraction < 1.0);
        REQUIRE(g.unified_host_w);   // the module's tdp_w covers CPU and GPU; host_w is the rest
        CHECK(*g.unified_host_w < g.tdp_w);
        CHECK(g.pcie_gen == 0);   // no host link: the GPU is on the SoC
    }
    // Llama 3 8B Q4_K_M on an AGX Orin 64GB under llama.cpp: decode under the 204.8 GB/s roofline
    // (4.58 GB per token: < 45 tokens/s), the machine's power is the module plus host_w.
    Config c = serving("llama-3-8b", "jetson-agx-orin-64gb", Runtime::llama_cpp);
    c.weights = "q4_k_m";
    c.context = 512;
    const Report r = run(c);
    CHECK(r.fits);
    CHECK(r.speed.decode_tokens_per_s > 10);
    CHECK(r.speed.decode_tokens_per_s < 204.8e9 / 4.58e9);
    CHECK(std::isfinite(r.speed.prefill_tokens_per_s));
    CHECK(r.power.host_platform == "unified");
}

TEST_CASE("estimates on new GPUs run and stay under their rooflines", "[catalog][speed]") {
    // One sequence of Llama 3 8B decoding under llama.cpp reads the whole model (Q4_K_M: 4.58 GB)
    // each token: tokens/s < bandwidth / 4.58 GB on every GPU it fits, and more than a third of it.
    for (const char* id : {"gtx-1080-ti", "titan-xp", "gtx-1660-super", "rtx-2080-ti", "rtx-3060-ti", "rtx-4060", "rtx-5050", "rtx-5060",
                           "rtx-4090-laptop", "rtx-a4000", "rtx-4000-sff-ada", "rtx-pro-6000-blackwell-max-q"}) {
        INFO(id);
        const Gpu& g = catalog().gpu(id);
        Config c = serving("llama-3-8b", id, Runtime::llama_cpp);
        c.weights = "q4_k_m";
        c.context = 512;
        const Report r = run(c);
        REQUIRE(r.fits);
        const double roof = g.memory_bandwidth_gb_per_s * 1e9 / 4.58e9;
        CHECK(std::isfinite(r.speed.decode_tokens_per_s));
        CHECK(r.speed.decode_tokens_per_s < roof);
        CHECK(r.speed.decode_tokens_per_s > roof / 3);
        CHECK(r.speed.prefill_tokens_per_s > 0);
    }
    // Prefill on a GTX 1080 Ti is bounded by FP32 (11.3 TFLOPS: 2 x 8.03e9 FLOP a token -> < 704 t/s
    // at full efficiency), far below an RTX 2080 Ti's tensor cores.
    Config p = serving("llama-3-8b", "gtx-1080-ti", Runtime::llama_cpp);
    p.weights = "q4_k_m";
    p.context = 512;
    p.prompt_tokens = 512;
    const double pascal_pp = run(p).speed.prefill_tokens_per_s;
    CHECK(pascal_pp < 11.3e12 / (2 * 8.03e9));
    p.gpu = "rtx-2080-ti";
    CHECK(run(p).speed.prefill_tokens_per_s > 2 * pascal_pp);
}

TEST_CASE("the second batch of GPUs: data-center, AMD, Intel, Gaudi and Apple parts load with their architecture", "[catalog]") {
    struct Row {
        const char* id;
        Architecture arch;
    };
    const Row rows[] = {
        {"tesla-p100-pcie-16gb", Architecture::pascal},
        {"tesla-p100-sxm2-16gb", Architecture::pascal},
        {"tesla-p40", Architecture::pascal},
        {"v100-pcie-16gb", Architecture::volta},
        {"v100-pcie-32gb", Architecture::volta},
        {"v100s-pcie-32gb", Architecture::volta},
        {"a2", Architecture::ampere},
        {"a16", Architecture::ampere},
        {"a30", Architecture::ampere},
        {"a40", Architecture::ampere},
        {"a10g", Architecture::ampere},
        {"a800-40gb-pcie", Architecture::ampere},
        {"a800-80gb-pcie", Architecture::ampere},
        {"a800-80gb-sxm", Architecture::ampere},
        {"h800-sxm", Architecture::hopper},
        {"h100-nvl", Architecture::hopper},
        {"l20", Architecture::ada},
        {"b100", Architecture::blackwell},
        {"mi50-32gb", Architecture::gcn5},
        {"mi60", Architecture::gcn5},
        {"mi100", Architecture::cdna1},
        {"mi250", Architecture::cdna2},
        {"mi300a", Architecture::cdna3},
        {"mi350x", Architecture::cdna4},
        {"radeon-pro-w7900", Architecture::rdna3},
        {"rx-7900-xt", Architecture::rdna3},
        {"rx-7900-gre", Architecture::rdna3},
        {"rx-7800-xt", Architecture::rdna3},
        {"rx-7600-xt", Architecture::rdna3},
        {"rx-6900-xt", Architecture::rdna2},
        {"rx-6800-xt", Architecture::rdna2},
        {"rx-9070", Architecture::rdna4},
        {"radeon-ai-pro-r9700", Architecture::rdna4},
        {"arc-a770-16gb", Architecture::xe_hpg},
        {"arc-a750", Architecture::xe_hpg},
        {"arc-a580", Architecture::xe_hpg},
        {"arc-b580", Architecture::xe2},
        {"arc-b570", Architecture::xe2},
        {"arc-pro-b50", Architecture::xe2},
        {"gaudi2", Architecture::gaudi},
        {"gaudi3", Architecture::gaudi},
        {"m1-16gb", Architecture::apple},
        {"m1-pro-32gb", Architecture::apple},
        {"m1-max-64gb", Architecture::apple},
        {"m1-ultra-128gb", Architecture::apple},
        {"m2-24gb", Architecture::apple},
        {"m2-pro-32gb", Architecture::apple},
        {"m2-max-96gb", Architecture::apple},
        {"m3-24gb", Architecture::apple},
        {"m3-pro-36gb", Architecture::apple},
        {"m4-32gb", Architecture::apple},
        {"m4-max-36gb", Architecture::apple},
    };
    for (const Row& r : rows) {
        INFO(r.id);
        const Gpu* g = catalog().find_gpu(r.id);
        REQUIRE(g != nullptr);
        CHECK(g->arch == r.arch);
        CHECK(to_string(g->arch) == (r.arch == Architecture::apple ? std::string_view("apple") : std::string_view(g->architecture)));
        CHECK(g->sources.size() >= 2);   // every figure of these entries rests on more than one page
    }
    // The spellings of the new architectures (to_string and back).
    for (const char* name : {"pascal", "gcn5", "cdna1", "rdna2", "xe-hpg", "gaudi"}) {
        INFO(name);
        const auto a = architecture_from_name(name);
        REQUIRE(a);
        CHECK(to_string(*a) == name);
    }
    CHECK_FALSE(architecture_from_name("xe_hpg"));   // the kebab-case name only, as in gpus.json
}

TEST_CASE("dense rates of the second batch are the datasheets' sparse figures halved", "[catalog]") {
    // H100 NVL datasheet (with sparsity): TF32 835, FP16/BF16 1,671, FP8/INT8 3,341.
    const Gpu& nvl = catalog().gpu("h100-nvl");
    CHECK(nvl.tensor_tflops_dense.tf32 == Approx(835 / 2.0));
    CHECK(nvl.tensor_tflops_dense.bf16 == Approx(1671 / 2.0));
    CHECK(nvl.tensor_tflops_dense.fp8 == Approx(3341 / 2.0));
    CHECK(nvl.memory_bandwidth_gb_per_s ==
          Approx(2619e6 * 2 * 6016 / 8 / 1e9).epsilon(0.001));   // product brief: 2,619 MHz DDR on 6,016 bits
    // H800 = H100 SXM compute (FP16 1,979* -> 989.5, within NVIDIA's rounding to 989), NVLink 400 of 900.
    CHECK(catalog().gpu("h800-sxm").tensor_tflops_dense.bf16 == Approx(1979 / 2.0).epsilon(0.001));
    CHECK(catalog().gpu("h800-sxm").nvlink_gb_per_s == 400);
    CHECK(catalog().gpu("h100-sxm").nvlink_gb_per_s == 900);
    // A800 = A100 compute (624* -> 312), NVLink 400 of 600.
    for (const char* id : {"a800-40gb-pcie", "a800-80gb-pcie", "a800-80gb-sxm"}) {
        INFO(id);
        CHECK(catalog().gpu(id).tensor_tflops_dense.bf16 == 312);
        CHECK(catalog().gpu(id).nvlink_gb_per_s == 400);
    }
    // A2 datasheet: INT8 72* TOPS, FP16 36* TFLOPS.
    CHECK(catalog().gpu("a2").tensor_tflops_dense.int8 == Approx(72 / 2.0));
    CHECK(catalog().gpu("a2").tensor_tflops_dense.fp16 == Approx(36 / 2.0));
    // RX 9070: 1,156 AI TOPS (INT4 with sparsity) -> INT8 dense 1,156 / 4 = 289, FP16 half of it.
    CHECK(catalog().gpu("rx-9070").tensor_tflops_dense.int8 == Approx(1156 / 4.0));
    CHECK(catalog().gpu("rx-9070").tensor_tflops_dense.fp16 == Approx(1156 / 8.0));
    // MI350X = the MI355X at 2.2 of 2.4 GHz (same 256 CU): FP16 2,516.6 x 2.2 / 2.4.
    CHECK(catalog().gpu("mi350x").tensor_tflops_dense.fp16 ==
          Approx(catalog().gpu("mi355x").tensor_tflops_dense.fp16 * 2.2 / 2.4).epsilon(0.001));
    // MI300A = 228 of the MI300X's 304 CUs at the same clock.
    CHECK(catalog().gpu("mi300a").tensor_tflops_dense.fp8 ==
          Approx(catalog().gpu("mi300x").tensor_tflops_dense.fp8 * 228 / 304).epsilon(0.001));
    // Gaudi 3 (Hot Chips 2024): BF16 and FP8 matrix both 1,835 TFLOPS.
    CHECK(catalog().gpu("gaudi3").tensor_tflops_dense.bf16 == 1835);
    CHECK(catalog().gpu("gaudi3").tensor_tflops_dense.fp8 == 1835);
    // Arc A770 XMX: 32 Xe cores x 2,048 FP16 operations per clock x 2.1 GHz.
    CHECK(catalog().gpu("arc-a770-16gb").tensor_tflops_dense.fp16 == Approx(32 * 2048 * 2.1e9 / 1e12).epsilon(0.001));
    // Arc Pro B50: 16 Xe cores x 2,048 x 2.6 GHz.
    CHECK(catalog().gpu("arc-pro-b50").tensor_tflops_dense.fp16 == Approx(16 * 2048 * 2.6e9 / 1e12).epsilon(0.001));
}

TEST_CASE("GPUs without matrix units report no native 16-bit path and run at their ALU rates", "[catalog][precision]") {
    // Pascal (P100, P40), Vega 20 (MI50/MI60) and RDNA 2 (RX 6800/6900 XT) have no tensor/matrix cores.
    for (const char* id : {"tesla-p100-pcie-16gb", "tesla-p100-sxm2-16gb", "tesla-p40", "mi50-32gb", "mi60", "rx-6900-xt", "rx-6800-xt"}) {
        INFO(id);
        const Gpu& g = catalog().gpu(id);
        CHECK_FALSE(g.tensor_cores);
        for (Precision p : {Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8, Precision::int8, Precision::fp4})
            CHECK_FALSE(runs_natively(g, p));
        CHECK(g.tensor_tflops_dense.bf16 == 0);   // no BF16 on these ALUs
    }
    // GP100 runs FP16 at twice FP32 (P100 PCIe: 18.7 and 9.3 TFLOPS): 16-bit math at the FP16 rate.
    const ComputeChoice p100 = compute_choice(catalog().gpu("tesla-p100-pcie-16gb"), weight_format("fp16"), Runtime::pytorch);
    CHECK(p100.used == Precision::fp16);
    CHECK_FALSE(p100.tensor_cores);
    CHECK(p100.flops == 18.7e12);
    // GP102 runs FP16 at 1/64 of FP32 (P40: 183.7 GFLOPS against 11.76 TFLOPS): the engines compute
    // in FP32, so the estimate does too, at the FP32 rate; the 1/64 figure is never used for speed.
    const Gpu& p40 = catalog().gpu("tesla-p40");
    CHECK(p40.tensor_tflops_dense.fp16 == Approx(p40.fp32_tflops / 64).epsilon(0.01));
    for (const char* w : {"fp16", "q4_k_m", "bf16"}) {
        INFO(w);
        const ComputeChoice c = compute_choice(p40, weight_format(w), Runtime::llama_cpp);
        CHECK(c.used == Precision::fp32);
        CHECK(c.flops == 11.76e12);
        CHECK_FALSE(c.tensor_cores);
    }
    // Vega 20 has no BF16 ALUs: BF16 weights compute converted, at FP32 (13.41 TFLOPS), not native;
    // FP16 runs packed at 2x (26.82).
    const ComputeChoice mi50_bf16 = compute_choice(catalog().gpu("mi50-32gb"), weight_format("bf16"), Runtime::pytorch);
    CHECK(mi50_bf16.used == Precision::fp32);
    CHECK(mi50_bf16.flops == 13.41e12);
    CHECK_FALSE(mi50_bf16.native);
    CHECK(compute_choice(catalog().gpu("mi50-32gb"), weight_format("fp16"), Runtime::pytorch).flops == 26.82e12);
    // Apple GPUs keep their rule: bf16 runs as fp16-class ALU math, native.
    const ComputeChoice m2 = compute_choice(catalog().gpu("m2-max-96gb"), weight_format("bf16"), Runtime::pytorch);
    CHECK(m2.used == Precision::fp16);
    CHECK(m2.native);
    // CDNA 1 has matrix cores, BF16 at half the FP16 rate (MI100: 92.3 and 184.6).
    CHECK(runs_natively(catalog().gpu("mi100"), Precision::bf16));
    CHECK(compute_choice(catalog().gpu("mi100"), weight_format("bf16"), Runtime::pytorch).flops == 92.3e12);
    // Gaudi's MME runs FP8 at the BF16 rate (Gaudi 3) and twice it (Gaudi 2: 865 / 432).
    CHECK(compute_choice(catalog().gpu("gaudi3"), weight_format("fp8"), Runtime::vllm).flops == 1835e12);
    CHECK(compute_choice(catalog().gpu("gaudi2"), weight_format("fp8"), Runtime::vllm).flops == 865e12);
}

TEST_CASE("engines the new architectures cannot run are refused by name", "[catalog][runtime]") {
    auto refusal = [](const char* gpu, Runtime rt, const char* weights = "bf16") -> std::string {
        Config c = serving("llama-3-8b", gpu, rt);
        c.weights = weights;
        try {
            (void)run(c);
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::gpu_unsupported);
            return e.what();
        }
        return "";
    };
    // vLLM and SGLang need CUDA compute capability 7.0 (vLLM's GPU installation docs): not Pascal.
    CHECK(refusal("tesla-p40", Runtime::vllm).find("compute capability 7.0") != std::string::npos);
    CHECK(refusal("tesla-p100-sxm2-16gb", Runtime::sglang).find("Pascal") != std::string::npos);
    CHECK(refusal("v100-pcie-16gb", Runtime::vllm).empty());   // Volta is 7.0
    // vLLM's ROCm builds: gfx90a, gfx942, gfx950, gfx1100/1101, gfx1200/1201, gfx1150/1151.
    for (const char* gpu : {"mi50-32gb", "mi100", "rx-6800-xt"}) {
        INFO(gpu);
        CHECK(refusal(gpu, Runtime::vllm).find("ROCm") != std::string::npos);
    }
    for (const char* gpu : {"mi250", "mi300a", "rx-7900-xt", "rx-9070"}) {
        INFO(gpu);
        CHECK(refusal(gpu, Runtime::vllm).empty());
    }
    // llama.cpp runs on the old cards (its CUDA backend on Pascal, HIP or Vulkan on Vega 20 and RDNA 2).
    for (const char* gpu : {"tesla-p40", "mi50-32gb", "rx-6900-xt", "arc-a770-16gb"}) {
        INFO(gpu);
        CHECK(refusal(gpu, Runtime::llama_cpp, "q4_k_m").empty());
    }
    // Gaudi: vLLM through the vllm-gaudi plugin (with a warning), no llama.cpp or SGLang backend.
    CHECK(refusal("gaudi3", Runtime::llama_cpp, "q4_k_m").find("no Gaudi backend") != std::string::npos);
    CHECK(refusal("gaudi2", Runtime::sglang).find("vllm-gaudi") != std::string::npos);
    const Report g3 = run(serving("llama-3-8b", "gaudi3", Runtime::vllm));
    CHECK(has_warning(g3, "Gaudi software"));
}

TEST_CASE("estimates on the second batch run and give plausible figures", "[catalog][speed]") {
    // Decode of one sequence cannot beat reading the weights once per token at the card's bandwidth.
    for (const char* gpu : {"tesla-p40", "tesla-p100-pcie-16gb", "mi50-32gb", "mi100", "rx-6800-xt", "rx-7900-xt", "arc-a770-16gb",
                            "arc-b580", "a16", "l20", "m1-max-64gb", "m3-pro-36gb"}) {
        INFO(gpu);
        Config c = serving("llama-3-8b", gpu, Runtime::llama_cpp);
        c.weights = "q4_k_m";
        const Report r = run(c);
        CHECK(r.fits);
        const double bound = catalog().gpu(gpu).memory_bandwidth_gb_per_s * 1e9 / r.per_gpu.weights;
        CHECK(std::isfinite(r.speed.decode_tokens_per_s));
        CHECK(r.speed.decode_tokens_per_s > 0.3 * bound);
        CHECK(r.speed.decode_tokens_per_s < bound);
    }
    // Llama 3 70B in BF16 on one 8-card Gaudi 3 box (128 GB each) and one H800 node fits with vLLM;
    // eight A800 80GB fit it too.
    for (const char* gpu : {"gaudi3", "h800-sxm", "a800-80gb-sxm", "mi300a"}) {
        INFO(gpu);
        const Report r = run(serving("llama-3-70b", gpu, Runtime::vllm, 8));
        CHECK(r.fits);
        CHECK(std::isfinite(r.speed.decode_tokens_per_s));
        CHECK(r.speed.decode_tokens_per_s > 0);
    }
    // A Gaudi box is wired all-to-all: two of eight Gaudi 3 share 3 of 21 scale-up ports.
    const Report two = run(serving("llama-3-8b", "gaudi3", Runtime::vllm, 2));
    CHECK(two.interconnect.link == "gaudi-roce");
}
