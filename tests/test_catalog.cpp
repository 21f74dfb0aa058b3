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
        if (arch != "blackwell") CHECK(g.tensor_tflops_dense.fp4 == 0);
        if (g.vendor == "nvidia" && g.tensor_tflops_dense.bf16 > 0)
            CHECK(g.tensor_tflops_dense.bf16 >= g.fp32_tflops * 0.9);   // tensor cores beat CUDA cores
    }
    // The RTX 4090 is 165.2 dense BF16 TFLOPS with FP32 accumulate, not the 330 (sparse) of spec sheets.
    CHECK(catalog().gpu("rtx-4090").tensor_tflops_dense.bf16 == Approx(165.2));
    CHECK(catalog().gpu("h100-sxm").tensor_tflops_dense.bf16 == Approx(989).epsilon(0.001));
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
