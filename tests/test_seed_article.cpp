// test_seed_article.cpp: the seed article's model -> VRAM table, checked against the derivation.
//
// Its rows are claims, not facts. Where they disagree, the test states why
// (docs/seed-article.md explains every row).
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("DeepSeek R1 at fp16: ~1,342 GB of weights", "[seed]") {
    // 671.03 B parameters x 2 bytes = 1,342 GB (decimal gigabytes).
    CHECK(model_weight_bytes("deepseek-r1", "fp16") / 1e9 == Approx(1342).epsilon(0.001));
    // The article's "A100 80GB x16": 1,342 GB over 16 GPUs is 78.1 GiB of weights per GPU before
    // any KV cache or CUDA context, more than an 80 GB A100 leaves. It does not fit at fp16.
    Config c = config("deepseek-r1", "a100-80gb-sxm");
    c.weights = "fp16";
    c.gpus = 16;
    const Report r = run(c);
    CHECK(r.per_gpu.weights / kGiB > 77.0);
    CHECK_FALSE(r.fits);
}

TEST_CASE("Llama 3 70B: ~140 GB at fp16", "[seed]") {
    CHECK(model_weight_bytes("llama-3-70b", "fp16") / 1e9 == Approx(141.1).epsilon(0.001));   // 70.55 B x 2
}

TEST_CASE("the distill rows are 4 bits x the name's count, in GiB, weights only", "[seed]") {
    // "~3.3GB" for 7B = 7e9 x 0.5 B = 3.26 GiB. Real 4-bit GGUF files are 4.5-4.9 bits per weight
    // over the real count (7.62 B), and a runtime adds the KV cache and its buffers.
    struct Row { const char* model; double name_params; double seed_gb; };
    const Row rows[] = {
        {"deepseek-r1-distill-qwen-1.5b", 1.5e9, 0.7},  {"deepseek-r1-distill-qwen-7b", 7e9, 3.3},
        {"deepseek-r1-distill-llama-8b", 8e9, 3.7},     {"deepseek-r1-distill-qwen-14b", 14e9, 6.5},
        {"deepseek-r1-distill-qwen-32b", 32e9, 14.9},   {"deepseek-r1-distill-llama-70b", 70e9, 32.7},
    };
    for (const Row& r : rows) {
        INFO(r.model);
        CHECK(r.name_params * 0.5 / kGiB == Approx(r.seed_gb).margin(0.15));   // how the article got its figure
        const double q4km = model_weight_bytes(r.model, "q4_k_m") / kGiB;
        CHECK(q4km > r.seed_gb * 1.15);   // the real Q4_K_M weights alone are larger
    }
}

TEST_CASE("GPT-NeoX-20B: 48 GB total on two RTX 3090s", "[seed]") {
    // fp16: 41.1 GB of weights, split over two 24 GB cards with the 2048-token context.
    Config c = config("gpt-neox-20b", "rtx-3090");
    c.weights = "fp16";
    c.gpus = 2;
    const Report r = run(c);
    CHECK(model_weight_bytes("gpt-neox-20b", "fp16") / 1e9 == Approx(41.1).epsilon(0.001));
    CHECK(r.fits);
}

TEST_CASE("BLOOM-176B: '40GB+ for training' is off by two orders of magnitude", "[seed]") {
    // Mixed-precision AdamW needs 16 bytes per parameter of model state in the ZeRO paper's
    // accounting (DeepSpeed): 2.82 TB; Megatron's fp32 main gradients make it 18 (3.17 TB).
    Config c = training("bloom-176b", "a100-80gb-sxm", 1, Runtime::none);
    c.context = 2048;
    Report r = run(c);
    CHECK((r.per_gpu.weights + r.per_gpu.gradients + r.per_gpu.optimizer) / 1e12 == Approx(3.17).epsilon(0.001));
    c.training_framework = TrainingFramework::deepspeed;
    r = run(c);
    CHECK((r.per_gpu.weights + r.per_gpu.gradients + r.per_gpu.optimizer) / 1e12 == Approx(2.82).epsilon(0.001));
}
