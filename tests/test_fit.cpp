// test_fit.cpp: the inverse questions, checked at their boundaries.
#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_internal.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("max context is the boundary: fits there, not one token more", "[fit]") {
    for (const char* gpu : {"rtx-4090", "rtx-3060", "h100-sxm"}) {
        Config c = config("llama-3.1-8b", gpu);
        c.weights = "q4_k_m";
        const FitReport f = fit(c, catalog());
        INFO(gpu << " max_context " << f.max_context);
        REQUIRE(f.max_context > 0);
        c.context = f.max_context;
        CHECK(run(c).fits);
        c.context = f.max_context + 1;
        CHECK_FALSE(run(c).fits);
    }
}

// Memory is one limit, the model's training another: Llama 3 8B (trained to 8,192 tokens) in
// bf16 on an H100 has room for far more. max_context stays what memory allows (the accuracy
// rows compare it so); model_max_context says where the model ends, and the CLI says both.
TEST_CASE("max context is memory's limit, the model's trained maximum is stated beside it", "[fit]") {
    const Config c = config("llama-3-8b", "h100-sxm");
    const FitReport f = fit(c, catalog());
    CHECK(f.model_max_context == 8192);
    CHECK(f.max_context > 8192);
    const nlohmann::json j = nlohmann::json::parse(fit_to_json(f));
    CHECK(j["model_max_context"] == 8192);
    CHECK(j["max_context"] == f.max_context);
    std::ostringstream out;
    cli::print_fit(out, f);
    CHECK_THAT(out.str(), Catch::Contains("of memory; the model is trained to 8,192"));
}

TEST_CASE("max batch is the boundary", "[fit]") {
    Config c = config("llama-3-8b", "h100-sxm");
    c.context = 4096;
    const FitReport f = fit(c, catalog());
    REQUIRE(f.max_batch > 1);
    c.batch = int(f.max_batch);
    CHECK(run(c).fits);
    c.batch = int(f.max_batch + 1);
    CHECK_FALSE(run(c).fits);
}

TEST_CASE("best weights: the most precise format that fits", "[fit]") {
    // Llama 3 70B on one 24 GB card: bf16 (141 GB) is far too big; some 2-3 bit GGUF may fit.
    Config c = config("llama-3-70b", "rtx-4090");
    c.context = 2048;
    const FitReport f = fit(c, catalog());
    bool seen_best = false;
    for (const FitRow& row : f.by_weights) {
        if (row.format == f.best_weights) seen_best = true;
        if (!seen_best && row.format != "fp32") CHECK_FALSE(row.fits);   // everything more precise does not fit
    }
    if (!f.best_weights.empty()) {
        c.weights = f.best_weights;
        CHECK(run(c).fits);
    }
    // Llama 3 8B on an H100: bf16 fits.
    const FitReport g = fit(config("llama-3-8b", "h100-sxm"), catalog());
    CHECK(g.best_weights == "bf16");
    CHECK(g.best_kv_cache == "bf16");
}

TEST_CASE("best KV format within the runtime in use", "[fit]") {
    Config c = config("llama-3.1-70b", "rtx-4090");
    c.gpus = 2;
    c.weights = "q4_k_m";
    c.context = 65536;
    const FitReport f = fit(c, catalog());
    // llama.cpp offers q8_0 and q4_0 caches; each row is a llama.cpp estimate.
    bool has_q4 = false;
    for (const FitRow& row : f.by_kv_cache) has_q4 = has_q4 || row.format == "q4_0";
    CHECK(has_q4);
    if (!f.best_kv_cache.empty()) {
        c.kv_cache = f.best_kv_cache;
        CHECK(run(c).fits);
    }
}

TEST_CASE("nothing fits: zeros and empty answers, no crash", "[fit]") {
    Config c = config("llama-3.1-405b", "rtx-3060");
    const FitReport f = fit(c, catalog());
    CHECK(f.max_context == 0);
    CHECK(f.max_batch == 0);
    CHECK(f.best_weights.empty());
}

TEST_CASE("sweep: every point equals the estimate of the same configuration", "[fit][sweep]") {
    Config base = config("mixtral-8x7b");
    base.context = 4096;
    const auto points = sweep(base, catalog(), 4);
    REQUIRE(points.size() == catalog().gpus.size() * 4 * weight_formats().size());
    int valid = 0, checked = 0;
    for (std::size_t i = 0; i < points.size(); i += 7) {   // a spread sample of the points
        const SweepPoint& p = points[i];
        Config c = base;
        c.gpu = catalog().gpus[p.gpu].id;
        c.gpus = p.gpus;
        c.weights = std::string(weight_formats()[p.format].id);
        INFO(c.gpu << " x" << c.gpus << " " << c.weights);
        if (p.valid) {
            ++valid;
            const Report r = run(c);
            CHECK(r.per_gpu.total() == Approx(p.total));
            CHECK(r.fits == p.fits);
            CHECK(r.parallel.tp == p.parallel.tp);
        } else {
            CHECK_THROWS(run(c));
            CHECK_FALSE(p.error.empty());
        }
        ++checked;
    }
    CHECK(valid > checked / 2);
    // vLLM refuses Apple GPUs point by point, not for the whole sweep.
    base.runtime = Runtime::vllm;
    const auto v = sweep(base, catalog(), 1);
    bool apple_refused = false, nvidia_ok = false;
    for (const SweepPoint& p : v) {
        if (weight_formats()[p.format].id != "bf16") continue;
        const Gpu& g = catalog().gpus[p.gpu];
        if (g.vendor == "apple") apple_refused = apple_refused || (!p.valid && p.error.find("vllm") != std::string::npos);
        if (g.id == "h100-sxm") nvidia_ok = p.valid;
    }
    CHECK(apple_refused);
    CHECK(nvidia_ok);
}

TEST_CASE("fit: the best weights name the engine they run on", "[fit]") {
    // Llama 3.1 8B in Q4_K_M on an RTX 4090, runtime automatic: llama.cpp runs the GGUF format,
    // and the most precise format that fits, bf16, runs on another engine. The fit says which,
    // rather than switching the runtime silently (the QA's last finding).
    Config c = config("llama-3.1-8b", "rtx-4090");
    c.weights = "q4_k_m";
    const FitReport f = fit(c, catalog());
    REQUIRE(f.base.config.runtime == Runtime::llama_cpp);
    REQUIRE(f.best_weights == "bf16");
    CHECK(f.best_weights_runtime != "llama.cpp");
    for (const FitRow& row : f.by_weights) {
        INFO(row.format);
        CHECK(!row.runtime.empty());
        if (row.format == "q4_k_m") CHECK(row.runtime == "llama.cpp");
    }
    const auto j = nlohmann::json::parse(fit_to_json(f));
    CHECK(j["best_weights_runtime"] == f.best_weights_runtime);
    CHECK(j["by_weights"][0].contains("runtime"));
    // A runtime the configuration names is kept for every format it can run.
    c.runtime = Runtime::llama_cpp;
    const FitReport kept = fit(c, catalog());
    for (const FitRow& row : kept.by_weights) CHECK(row.runtime == "llama.cpp");
}
