// test_kv_cache.cpp: KV cache per token and in total.
//
// Per-token figures: layers x kv_heads x head_dim x 2 (K and V) x bytes, from
// docs/research/models.md note N2; MLA caches kv_lora_rank + qk_rope_head_dim values.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

Report kv_run(const char* model, long long context, int batch = 1, const char* runtime = "none", int gpus = 1,
              const char* kv = "fp16") {
    Config c = config(model, "h200");
    c.context = context;
    c.batch = batch;
    c.runtime = parse_runtime(runtime);
    c.gpus = gpus;
    c.kv_cache = kv;
    return run(c);
}

}  // namespace

TEST_CASE("KV bytes per token, fp16, whole model", "[kv]") {
    CHECK(kv_run("llama-3-8b", 4096).kv_bytes_per_token == 131072);      // 2 x 32 x 8 x 128 x 2
    CHECK(kv_run("llama-3-70b", 4096).kv_bytes_per_token == 327680);     // 2 x 80 x 8 x 128 x 2
    CHECK(kv_run("llama-3.1-405b", 4096).kv_bytes_per_token == 516096);  // 2 x 126 x 8 x 128 x 2
    CHECK(kv_run("gpt-neox-20b", 2048).kv_bytes_per_token == 2.0 * 44 * 64 * 96 * 2);   // MHA
    // DeepSeek-V3/R1 MLA: 61 layers x (512 + 64) x 2 B = 70,272 B (the absorbed latent).
    CHECK(kv_run("deepseek-r1", 4096, 1, "vllm").kv_bytes_per_token == 70272);
    // transformers caches the decompressed K (192) and V (128) of all 128 heads.
    CHECK(kv_run("deepseek-r1", 4096, 1, "pytorch").kv_bytes_per_token == 61.0 * 128 * (192 + 128) * 2);
}

TEST_CASE("KV total = bytes per token x context x batch", "[kv]") {
    const Report r = kv_run("llama-3-8b", 8192, 4);
    CHECK(r.per_gpu.kv_cache == 131072.0 * 8192 * 4);
}

TEST_CASE("KV precision scales the cache", "[kv]") {
    const double fp16 = kv_run("llama-3-8b", 8192).per_gpu.kv_cache;
    CHECK(kv_run("llama-3-8b", 8192, 1, "none", 1, "fp8").per_gpu.kv_cache == fp16 / 2);
    // llama.cpp block types: 34 B per 32 values (q8_0), 18 B per 32 (q4_0).
    CHECK(kv_run("llama-3-8b", 8192, 1, "llama.cpp", 1, "q8_0").per_gpu.kv_cache == fp16 * 34.0 / 64);
    CHECK(kv_run("llama-3-8b", 8192, 1, "llama.cpp", 1, "q4_0").per_gpu.kv_cache == fp16 * 18.0 / 64);
}

TEST_CASE("sliding-window layers cache at most the window", "[kv]") {
    // Mistral 7B v0.1: every layer slides over 4096 tokens.
    const double per_token = 131072;   // same KV shape as Llama 3 8B
    CHECK(kv_run("mistral-7b", 2048).per_gpu.kv_cache == per_token * 2048);
    CHECK(kv_run("mistral-7b", 32768).per_gpu.kv_cache == per_token * 4096);
    // Gemma 2 9B: 42 layers, even ones slide over 4096, odd ones are global; 8 KV heads x 256.
    const double layer_token = 2.0 * 8 * 256 * 2;
    CHECK(kv_run("gemma-2-9b", 8192).per_gpu.kv_cache == layer_token * (21 * 4096 + 21 * 8192));
    CHECK(kv_run("gemma-2-9b", 2048).per_gpu.kv_cache == layer_token * 42 * 2048);
}

TEST_CASE("llama.cpp pads the cache to 256 tokens and keeps window + ubatch for SWA layers", "[kv]") {
    CHECK(kv_run("llama-3-8b", 1000, 1, "llama.cpp").per_gpu.kv_cache == 131072.0 * 1024);
    CHECK(kv_run("mistral-7b", 32768, 1, "llama.cpp").per_gpu.kv_cache == 131072.0 * (4096 + 512));
}

TEST_CASE("tensor parallelism splits KV heads, and replicates them past the head count", "[kv][parallel]") {
    const double whole = kv_run("llama-3-70b", 8192).per_gpu.kv_cache;
    CHECK(kv_run("llama-3-70b", 8192, 1, "none", 8).per_gpu.kv_cache == whole / 8);
    // 16 GPUs, 8 KV heads: each GPU still holds one head (vLLM: max(1, kv_heads // tp)).
    CHECK(kv_run("llama-3-70b", 8192, 1, "none", 16).per_gpu.kv_cache == whole / 8);
    // MLA's latent is the same on every rank: tensor parallelism does not shrink it.
    CHECK(kv_run("deepseek-r1", 8192, 1, "vllm", 8).per_gpu.kv_cache == kv_run("deepseek-r1", 8192, 1, "vllm", 1).per_gpu.kv_cache);
}

TEST_CASE("pipeline parallelism splits KV by layers", "[kv][parallel]") {
    Config c = config("llama-3-70b", "h100-sxm");
    c.runtime = Runtime::none;
    c.context = 8192;
    c.gpus = 4;
    c.pp = 4;
    CHECK(run(c).per_gpu.kv_cache == 327680.0 * 8192 / 4);
}

TEST_CASE("encoder-only models keep no KV cache", "[kv]") {
    const Report r = kv_run("bert-base-uncased", 512);
    CHECK(r.kv_bytes_per_token == 0);
    CHECK(r.per_gpu.kv_cache == 0);
    CHECK(r.kv_capacity_tokens == 0);
}

TEST_CASE("encoder-decoder: decoder self- and cross-attention KV", "[kv]") {
    // T5-small: 6 decoder layers x 8 heads x 64 x (self + cross) x K,V x 2 B.
    CHECK(kv_run("t5-small", 512).kv_bytes_per_token == 6.0 * 8 * 64 * 2 * 2 * 2);
}

TEST_CASE("KV capacity: how many tokens fit in what is left", "[kv]") {
    Config c = config("llama-3-8b", "h100-sxm");
    c.runtime = Runtime::none;
    const Report r = run(c);
    const double left = r.gpu_usable - (r.per_gpu.total() - r.per_gpu.kv_cache);
    CHECK(r.kv_capacity_tokens == std::floor(left / 131072.0));
}
