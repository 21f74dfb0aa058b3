// test_runtime.cpp: what each runtime adds: llama.cpp placement, vLLM's budget, PyTorch buffers.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("llama.cpp keeps token embeddings in host RAM", "[runtime][llama.cpp][published]") {
    // Log: "CPU buffer size = 281.81 MiB" (token_embd, Q4_K) and "CUDA0 model buffer size =
    // 4403.49 MiB" for Llama 3 8B Q4_K_M, fully offloaded.
    Config c = config("llama-3-8b", "rtx-4090");
    c.weights = "q4_k_m";
    const Report r = run(c);
    CHECK(r.host / kMiB == Approx(281.81).margin(0.01));
    CHECK(r.per_gpu.weights / kMiB == Approx(4403.49).epsilon(0.002));
}

TEST_CASE("llama.cpp pays a tied embedding twice: RAM for input, GPU for output", "[runtime][llama.cpp]") {
    Config c = config("llama-3.2-1b", "rtx-3060");
    c.weights = "q8_0";
    const Report r = run(c);
    const double table = 128256.0 * 2048;   // parameters of the one tied table
    // The tied table is quantized as the output (Q8_0 here) and sits in both places.
    CHECK(r.host == Approx(table * 8.5 / 8));
    c.runtime = Runtime::none;
    c.weights = "bf16";
    const Report none = run(c);
    CHECK(none.host == 0);
}

TEST_CASE("vLLM: utilization budget, context and graphs outside it", "[runtime][vllm]") {
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::vllm);
    const Report r = run(c);
    const double cap = r.gpu_capacity;
    // requested_memory = total x gpu_memory_utilization; the context (400 MiB) and CUDA graphs
    // (0.75 GiB) live in the remaining 10%.
    CHECK(r.gpu_usable == Approx(0.9 * cap + 400 * kMiB + 0.75 * kGiB));
    // Profile run on an H100: 8192 batched tokens, sampler on 1024 sequences of fp32 logits.
    CHECK(r.per_gpu.activations == Approx(8192.0 * 55296 * 2 + 1024.0 * 128256 * 4));
    // Everything not otherwise used goes to the KV pool.
    const double pool = r.gpu_usable - (r.per_gpu.total() - r.per_gpu.kv_cache);
    CHECK(r.kv_capacity_tokens == std::floor(pool / 131072.0));
    c.gpu_memory_utilization = 0.99;
    const Report tight = run(c);
    CHECK(has_warning(tight, "outside gpu_memory_utilization"));
}

TEST_CASE("vLLM's smaller defaults on GPUs under 70 GiB and on A100s", "[runtime][vllm]") {
    Config c = serving("llama-3-8b", "a100-80gb-sxm", Runtime::vllm);
    CHECK(run(c).per_gpu.activations == Approx(2048.0 * 55296 * 2 + 256.0 * 128256 * 4));
}

TEST_CASE("vLLM refuses GGUF, llama.cpp refuses NF4", "[runtime][errors]") {
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::vllm);
    c.weights = "q4_k_m";
    CHECK_THROWS_WITH(run(c), Catch::Contains("weights") && Catch::Contains("llama.cpp"));
    c.runtime = Runtime::llama_cpp;
    c.weights = "nf4";
    CHECK_THROWS_WITH(run(c), Catch::Contains("weights"));
    c.weights = "bf16";
    c.runtime = Runtime::pytorch;
    c.kv_cache = "q4_0";
    CHECK_THROWS_WITH(run(c), Catch::Contains("kv_cache"));
    c = config("llama-3-8b", "m2-ultra-192gb");
    c.runtime = Runtime::vllm;
    CHECK_THROWS_WITH(run(c), Catch::Contains("runtime"));
}

TEST_CASE("auto runtime: llama.cpp for GGUF, PyTorch otherwise", "[runtime]") {
    Config c = config("llama-3-8b");
    c.weights = "q5_k_m";
    CHECK(run(c).config.runtime == Runtime::llama_cpp);
    c.weights = "int4";
    CHECK(run(c).config.runtime == Runtime::pytorch);
}

TEST_CASE("PyTorch overheads: context, allocator slack, NCCL and DDP buckets", "[runtime][pytorch]") {
    Config c = config("llama-3-8b", "h100-sxm");
    const Report one = run(c);
    CHECK(one.overhead_detail.cuda_context == 400 * kMiB);
    CHECK(one.overhead_detail.allocator_reserve == Approx(0.05 * (one.per_gpu.activations + one.per_gpu.kv_cache)));
    CHECK(one.overhead_detail.runtime_buffers == 0);
    c.mode = Mode::train;
    c.gpus = 4;   // data parallel, ZeRO 0: one NCCL communicator; Megatron's grad buffer is its bucket
    const Report mcore = run(c);
    CHECK(mcore.overhead_detail.runtime_buffers == Approx(32 * 2 * 9.19 * kMiB));
    c.training_framework = TrainingFramework::hf_trainer;   // PyTorch DDP keeps a gradient-sized bucket copy
    const Report ddp = run(c);
    CHECK(ddp.overhead_detail.runtime_buffers == Approx(ddp.per_gpu.gradients + 32 * 2 * 9.19 * kMiB));
}

TEST_CASE("runtime none counts the model's tensors only", "[runtime]") {
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::none);
    const Report r = run(c);
    CHECK(r.per_gpu.overhead == 0);
}

TEST_CASE("Apple unified memory: the GPU's share of RAM, no CUDA context", "[runtime][apple]") {
    Config c = config("llama-3-70b", "m2-ultra-192gb");
    c.weights = "q4_k_m";
    const Report r = run(c);
    CHECK(r.gpu_capacity == Approx(192.0 * kGiB * catalog().gpu("m2-ultra-192gb").gpu_memory_fraction));
    CHECK(r.overhead_detail.cuda_context == 0);
    CHECK(r.fits);
}
