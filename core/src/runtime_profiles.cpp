// runtime_profiles.cpp: the constants of each runtime profile, with their sources.
#include "runtime_profiles.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "gpusizer/error.hpp"

namespace gpusizer::detail {

const RuntimeProfile& runtime_profile(Runtime r) {
    // none: the model's own tensors only: no context, no allocator slack, no extra buffers.
    static const RuntimeProfile kNone{Runtime::none, "none (model tensors only)", 0, 0, 0, 0};

    // PyTorch: Hugging Face transformers, PEFT, DeepSpeed.
    static const RuntimeProfile kPytorch{
        Runtime::pytorch, "PyTorch (transformers / PEFT / DeepSpeed)",
        // CUDA context with lazy module loading: 287,047,680 B measured (pytorch PR #86509);
        // "around 400MB ... with lazy module loading" (ptrblck, pytorch issue #109888), which
        // covers the cuBLAS workspace (32 MiB on Hopper, 8 MiB otherwise). We take 400 MiB.
        400 * kMiB,
        // Caching-allocator slack (freed blocks kept reserved, 2 MiB rounding of large blocks):
        // no published typical figure exists; an allowance of 5% of the dynamic tensors
        // (activations, KV cache, gradients), listed among the assumptions.
        0.05,
        0,   // activations in the compute dtype
        // NCCL per communicator: ring with 32 channels x 2 peers x 9.19 MiB per connection
        // (LL 512 KiB + LL128 4.69 MiB + Simple 4 MiB, NCCL src/init.cc defaults) = 588 MiB.
        32 * 2 * 9.19 * kMiB};

    // llama.cpp, CUDA backend.
    static const RuntimeProfile kLlamaCpp{
        Runtime::llama_cpp, "llama.cpp",
        // CUDA context + cuBLAS: 107 MiB on an RTX 4060 Ti, 555 MiB on an RTX PRO 6000 Blackwell
        // (docs/research/cuda-bench-method.md). We take 300 MiB.
        300 * kMiB,
        0,   // ggml-alloc plans static buffers: no allocator slack
        4,   // ggml keeps intermediate activations in F32
        0};  // layer split copies activations between devices; no NCCL

    // vLLM (V1 engine). Its own budget: see estimate.cpp, "vLLM budget".
    static const RuntimeProfile kVllm{
        Runtime::vllm, "vLLM",
        // CUDA context, created before vLLM's memory snapshot, so outside its budget: as PyTorch.
        400 * kMiB,
        0,   // fragmentation is inside vLLM's profiled budget
        0,
        0};  // see kVllmNonTorchParallel

    // SGLang: a PyTorch process like vLLM's; its pool is sized in estimate.cpp, "SGLang budget".
    static const RuntimeProfile kSglang{
        Runtime::sglang, "SGLang",
        400 * kMiB,   // CUDA context and cuBLAS, as PyTorch (above)
        0,            // fragmentation lives in the (1 - mem_fraction_static) reserve
        0,
        0};           // NCCL: kVllmNonTorch* figures (the same NCCL and custom all-reduce buffers)

    // TensorRT-LLM (PyTorch backend of the LLM API, v1.0).
    static const RuntimeProfile kTrtLlm{
        Runtime::trt_llm, "TensorRT-LLM",
        400 * kMiB,   // CUDA context and cuBLAS/cuBLASLt, as PyTorch (above)
        0,            // the KV pool takes a fraction of what is free; the rest absorbs fragmentation
        0,
        0};

    // Ollama runs llama-server (its "ollama runner" is llama.cpp's server loop): llama.cpp's profile.
    static const RuntimeProfile kOllama{Runtime::ollama, "Ollama (llama-server)", kLlamaCpp.cuda_context, 0, 4, 0};

    switch (r) {
        case Runtime::none: return kNone;
        case Runtime::pytorch: return kPytorch;
        case Runtime::llama_cpp: return kLlamaCpp;
        case Runtime::vllm: return kVllm;
        case Runtime::sglang: return kSglang;
        case Runtime::trt_llm: return kTrtLlm;
        case Runtime::ollama: return kOllama;
        case Runtime::automatic: break;
    }
    return kPytorch;
}

namespace {

// Every engine version, the default (newest modelled) first for each engine.
const EngineVersion kEngineVersions[] = {
    // llama.cpp now: --fit as in b7539, and MLA layers cache the latent only (PR #19067, merged
    // 2026-01-24: "Support V-less KV cache ... for MLA models such as DeepSeek and GLM 4.7 Flash
    // ... almost x2 less memory"; a 2026 llama-server log of GLM-5.2 prints "K (f16): 65812.50 MiB,
    // V (f16): 0.00 MiB" for 768,000 cells x 78 layers x 576 values x 2 B).
    {Runtime::llama_cpp, "current", "llama.cpp after PR #19067 (V-less MLA cache); --fit as in b7539", KvBudget::fit_margin, 0,
     1024 * kMiB, OllamaContext::none, 0, MlaCache::latent},
    // llama.cpp: builds from Dec 2025 fit unset parameters to free device memory (--fit on by
    // default), keeping 1024 MiB free per device (common/common.h @001d906a: fit_params = true,
    // margin 1024*1024*1024; issue ggml-org/llama.cpp#18376 shows build 7539 doing it). MLA
    // layers cache K (latent + rope key) and a separate V of the latent's width (PR #12801 until
    // PR #19067; a May 2025 DeepSeek-V3 log: "K (f16): 1098.00 MiB, V (f16): 976.00 MiB" at
    // 16,384 cells x 61 layers, n_embd_head_k 576, n_embd_head_v 512).
    {Runtime::llama_cpp, "b7539", "llama.cpp common/common.h @001d906a (fit_params, 1 GiB margin per device)",
     KvBudget::fit_margin, 0, 1024 * kMiB, OllamaContext::none, 0, MlaCache::latent_and_v},
    // Builds before --fit (build 4840, Mar 2025, as logged in docs/research/runtime-facts.md R9):
    // the context is what -c says (4096 by default since PR #10136), nothing is kept back. MLA
    // models ran as plain multi-head attention (MLA came with PR #12801, Apr 2025): K and V of
    // every head cached, decompressed.
    {Runtime::llama_cpp, "b4840", "llama.cpp before --fit: no margin (ggml-org/llama.cpp PR #10136: n_ctx 4096 by default)",
     KvBudget::fit_margin, 0, 0, OllamaContext::none, 0, MlaCache::per_head},
    // Ollama 0.15.5 (release notes, 2026-02-03; docs/context-length.mdx @948f6933): num_ctx by
    // VRAM, < 24 GiB 4096, 24-48 GiB 32768, >= 48 GiB 262144. It runs llama-server.
    {Runtime::ollama, "0.15.5", "Ollama v0.15.5 release notes; docs/context-length.mdx (VRAM tiers)", KvBudget::fit_margin, 0, 0,
     OllamaContext::vram_tiers, 0},
    // Ollama 0.5 and before: num_ctx 2048 (rick-github in ollama/ollama#6817, 2024).
    {Runtime::ollama, "0.5", "ollama/ollama#6817: default num_ctx 2048", KvBudget::fit_margin, 0, 0, OllamaContext::fixed, 2048},
    // vLLM V1 (0.10): gpu_memory_utilization 0.9 of the total (vllm/engine/arg_utils.py); the
    // budget holds weights, the profiled activation peak and non-torch memory; CUDA graphs stay
    // outside it (vllm/v1/worker/gpu_worker.py @35d5cda, VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0).
    // Its step carries kVllmStepOverhead + kVllmSeqOverhead per decoding request (fitted to vLLM
    // 0.11.1 runs, runtime_profiles.hpp).
    {Runtime::vllm, "0.10", "vllm/v1/worker/gpu_worker.py @35d5cda; gpu_memory_utilization 0.9", KvBudget::total_fraction, 0.9,
     0, OllamaContext::none, 0, MlaCache::engine_rule, kVllmStepOverhead, kVllmSeqOverhead},
    // vLLM as documented now: gpu_memory_utilization 0.92, a per-instance limit
    // (docs.vllm.ai stable, vllm/config/cache.py CacheConfig: Field(default=0.92)). No step
    // overhead: a vLLM 0.30.0 run on one H100 (silybench-data, Qwen3-8B) has its median
    // inter-token latency within -0.6..+1.4 ms of the GPU roofline step at 1-256 requests.
    {Runtime::vllm, "current", "docs.vllm.ai stable: vllm/config/cache.py CacheConfig gpu_memory_utilization = 0.92",
     KvBudget::total_fraction, 0.92, 0, OllamaContext::none, 0},
    // SGLang 0.4.8: mem_fraction_static = (gpu_mem - reserved_mem) / gpu_mem by GPU size
    // (python/sglang/srt/server_args.py); sglang_mem_fraction_static() below.
    {Runtime::sglang, "0.4.8", "sglang v0.4.8 python/sglang/srt/server_args.py (mem_fraction_static buckets)",
     KvBudget::static_fraction, 0, 0, OllamaContext::none, 0},
    // TensorRT-LLM 1.0: KvCacheConfig.free_gpu_memory_fraction = 0.9 of the memory free after the
    // weights and activations (nvidia.github.io/TensorRT-LLM, llm-api KvCacheConfig; examples/kvcacheconfig).
    {Runtime::trt_llm, "1.0", "TensorRT-LLM KvCacheConfig: free_gpu_memory_fraction = 0.9", KvBudget::free_fraction, 0.9, 0,
     OllamaContext::none, 0},
};

}  // namespace

std::string engine_versions(Runtime engine) {
    std::string out;
    for (const EngineVersion& v : kEngineVersions)
        if (v.engine == engine) out += (out.empty() ? "" : ", ") + std::string(v.version);
    return out;
}

const EngineVersion& engine_version(Runtime engine, std::string_view version) {
    const EngineVersion* first = nullptr;
    for (const EngineVersion& v : kEngineVersions) {
        if (v.engine != engine) continue;
        if (!first) first = &v;
        if (version == v.version) return v;
    }
    if (!first)
        throw Error("runtime_version", "runtime " + std::string(to_string(engine)) +
                                           " has no versions; runtime_version applies to llama.cpp, ollama, vllm, sglang and trt-llm");
    if (version.empty()) return *first;
    throw Error("runtime_version", "unknown version '" + std::string(version) + "' of " + std::string(to_string(engine)) +
                                       "; allowed: " + engine_versions(engine));
}

double sglang_mem_fraction_static(double gpu_memory_mib, int parallel_size) {
    // sglang v0.4.8 server_args.py: reserved_mem (MiB) by the GPU's memory; comments there name the
    // GPUs of each bucket (A10/L40/4090, H100/A100, H20, H200, B200/MI300).
    const double gpu_mem = gpu_memory_mib;
    const double ps = parallel_size;
    double reserved = 0;
    if (gpu_mem < 35 * 1024.0) reserved = (2.8 + ps / 10.0) * 1024.0;
    else if (gpu_mem < 90 * 1024.0) reserved = (9.5 + ps / 2.0) * 1024.0;
    else if (gpu_mem < 160 * 1024.0) reserved = (12.0 + ps / 2.0) * 1024.0;
    else reserved = 32.0 * 1024.0;
    // round(..., 3). Past about 2 x (GiB of the GPU - 9.5) ranks on an 80 GB part the reserve
    // outgrows the GPU and server_args.py's formula goes negative: no pool, so 0 (SGLang then stops
    // at startup, estimate.cpp's warning).
    return std::max(0.0, std::round((gpu_mem - reserved) / gpu_mem * 1000.0) / 1000.0);
}

long long sglang_chunked_prefill_size(double gpu_memory_mib) {
    if (gpu_memory_mib < 35 * 1024.0) return 2048;    // A10, L40, 4090
    if (gpu_memory_mib < 160 * 1024.0) return 8192;   // H100, H200, A100, H20
    return 16384;                                     // B200, MI300
}

}  // namespace gpusizer::detail
