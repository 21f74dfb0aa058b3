// test_catalog.cpp: the asset files load, hold the GPUs and models the project promises, and bad
// files are named.
#include <catch2/catch.hpp>

#include <memory>

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
        if (arch == "volta" || arch == "turing") CHECK(g.tensor_tflops_dense.bf16 == 0);   // BF16 from Ampere
        if (arch == "volta" || arch == "turing" || arch == "ampere") CHECK(g.tensor_tflops_dense.fp8 == 0);   // FP8 from Ada/Hopper
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

TEST_CASE("GeForce RTX 40/50 have no P2P; vLLM's large-GPU rule without id matching", "[catalog]") {
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
