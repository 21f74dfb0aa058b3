// test_estimate.cpp: properties every estimate must have, over the whole catalog.
#include <catch2/catch.hpp>

#include <cmath>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

void check_sane(const Report& r) {
    const MemoryParts& m = r.per_gpu;
    for (double v : {m.weights, m.kv_cache, m.activations, m.gradients, m.optimizer, m.overhead, r.host, r.kv_capacity_tokens,
                     r.params, r.active_params, r.kv_bytes_per_token, r.gpu_usable}) {
        CHECK(std::isfinite(v));
        CHECK(v >= 0);
    }
    CHECK(std::isfinite(r.headroom));
    CHECK(m.total() == Approx(m.weights + m.kv_cache + m.activations + m.gradients + m.optimizer + m.overhead));
    CHECK(m.overhead == Approx(r.overhead_detail.cuda_context + r.overhead_detail.allocator_reserve + r.overhead_detail.runtime_buffers));
    CHECK(r.fits == (m.total() <= r.gpu_usable));
    CHECK(r.active_params <= r.params);
}

}  // namespace

TEST_CASE("every catalog model x mode x format gives a sane breakdown", "[estimate][property]") {
    for (const CatalogModel& m : catalog().models) {
        for (const char* weights : {"bf16", "fp8", "int4", "q4_k_m", "q8_0"}) {
            Config c = config(m.arch.id, "h100-sxm");
            c.weights = weights;
            c.gpus = 8;
            INFO(m.arch.id << " " << weights);
            check_sane(run(c));
        }
        for (Mode mode : {Mode::train, Mode::lora, Mode::qlora}) {
            Config c = config(m.arch.id, "h100-sxm");
            c.mode = mode;
            c.gpus = 8;
            c.zero = mode == Mode::train ? 3 : 0;
            c.context = 2048;
            INFO(m.arch.id << " " << to_string(mode));
            check_sane(run(c));
        }
    }
}

TEST_CASE("memory grows with batch, context and parameters", "[estimate][property]") {
    for (const char* model : {"llama-3-8b", "mixtral-8x7b", "gemma-2-9b", "deepseek-r1-distill-qwen-7b", "t5-small"}) {
        Config c = config(model, "h100-sxm");
        double prev = 0;
        for (long long ctx : {128LL, 512LL, 2048LL, 8192LL, 65536LL}) {
            c.context = ctx;
            const double t = run(c).per_gpu.total();
            INFO(model << " context " << ctx);
            CHECK(t >= prev);
            prev = t;
        }
        c.context = 4096;
        prev = 0;
        for (int b : {1, 2, 8, 32}) {
            c.batch = b;
            const double t = run(c).per_gpu.total();
            INFO(model << " batch " << b);
            CHECK(t >= prev);
            prev = t;
        }
    }
    double prev = 0;
    for (double n : {1e8, 1e9, 7e9, 13e9, 70e9, 400e9}) {
        Config c;
        c.model.custom = true;
        c.model.num_parameters = n;
        c.model.arch = arch_from_hf_config("{\"model_type\": \"llama\", \"num_hidden_layers\": 32, \"hidden_size\": 4096, "
                                           "\"intermediate_size\": 14336, \"num_attention_heads\": 32, \"vocab_size\": 32000, "
                                           "\"num_parameters\": " + std::to_string(n) + "}");
        c.gpu = "h100-sxm";
        const double t = run(c).per_gpu.weights;
        CHECK(t > prev);
        prev = t;
    }
}

TEST_CASE("splitting over more GPUs shrinks the weights per GPU", "[estimate][parallel]") {
    for (const char* model : {"llama-3-70b", "mixtral-8x7b", "deepseek-r1"}) {
        Config c = config(model, "h100-sxm");
        double prev = 1e300;
        for (int gpus : {1, 2, 4, 8}) {
            c.gpus = gpus;
            const double w = run(c).per_gpu.weights;
            INFO(model << " gpus " << gpus);
            CHECK(w < prev);
            prev = w;
        }
    }
}

TEST_CASE("expert parallelism spreads whole experts", "[estimate][parallel][moe]") {
    Config c = serving("mixtral-8x7b", "h100-sxm", Runtime::none, 8);
    c.tp = 8;
    const Report tp_only = run(c);
    c.ep = 8;
    const Report with_ep = run(c);
    // Same bytes per GPU for the experts either way (1/8 of them), both below one GPU's worth.
    CHECK(with_ep.per_gpu.weights == Approx(tp_only.per_gpu.weights).epsilon(1e-9));
    c.ep = 3;
    CHECK_THROWS_WITH(run(c), Catch::Contains("ep"));
}

TEST_CASE("parallel degrees: resolved from gpus, checked against the model", "[estimate][parallel][errors]") {
    Config c = config("llama-3-70b", "h100-sxm");
    c.gpus = 8;
    Report r = run(c);
    CHECK((r.parallel.tp == 8 && r.parallel.pp == 1 && r.parallel.dp == 1));
    c.mode = Mode::train;
    r = run(c);
    CHECK((r.parallel.tp == 1 && r.parallel.dp == 8));
    c.mode = Mode::inference;
    c.weights = "q4_k_m";   // llama.cpp splits layers
    r = run(c);
    CHECK((r.parallel.pp == 8 && r.parallel.tp == 1));
    c.weights = "bf16";
    c.tp = 3;
    CHECK_THROWS_WITH(run(c), Catch::Contains("gpus"));
    c.gpus = 3;
    CHECK_THROWS_WITH(run(c), Catch::Contains("tp") && Catch::Contains("64 attention heads"));
    c.tp = 2;
    c.pp = 2;
    c.dp = 2;
    c.gpus = 4;
    CHECK_THROWS_WITH(run(c), Catch::Contains("gpus"));
    // 6 GPUs and 64 heads: tensor parallel cannot take 6, so pipeline does.
    c = config("llama-3-70b", "h100-sxm");
    c.gpus = 6;
    r = run(c);
    CHECK((r.parallel.tp == 1 && r.parallel.pp == 6));
}

TEST_CASE("bad values are refused with the key named", "[estimate][errors]") {
    Config c = config("llama-3-8b");
    c.batch = 0;
    CHECK_THROWS_WITH(run(c), Catch::Contains("batch"));
    c = config("llama-3-8b");
    c.context = -5;
    CHECK_THROWS_WITH(run(c), Catch::Contains("context"));
    c = config("llama-3-8b");
    c.gpu_memory_utilization = 1.5;
    CHECK_THROWS_WITH(run(c), Catch::Contains("gpu_memory_utilization"));
    c = config("no-such-model");
    CHECK_THROWS_WITH(run(c), Catch::Contains("model") && Catch::Contains("gpusizer models"));
    c = config("llama-3-8b", "rtx-9090");
    CHECK_THROWS_WITH(run(c), Catch::Contains("gpu") && Catch::Contains("rtx-"));
    c = config("llama-3-8b");
    c.zero = 2;
    CHECK_THROWS_WITH(run(c), Catch::Contains("zero"));
}

TEST_CASE("defaults: 8192 tokens, capped at the model's trained maximum", "[estimate]") {
    CHECK(run(config("llama-3.1-70b")).config.context == 8192);
    CHECK(run(config("gpt2")).config.context == 1024);
    Config c = config("llama-3-8b");
    c.context = 32768;
    const Report r = run(c);
    CHECK(has_warning(r, "trained maximum"));
}

TEST_CASE("extreme inputs stay finite", "[estimate][property]") {
    Config c = config("llama-3.1-405b", "t4");
    c.context = 1LL << 27;
    c.batch = 1 << 20;
    c.gpus = 1 << 16;
    c.tp = 128;
    check_sane(run(c));
    c = config("gpt2", "b200");
    c.context = 1;
    check_sane(run(c));
}
