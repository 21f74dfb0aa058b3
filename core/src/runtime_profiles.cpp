// runtime_profiles.cpp: the constants of each runtime profile, with their sources.
#include "runtime_profiles.hpp"

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

    switch (r) {
        case Runtime::none: return kNone;
        case Runtime::pytorch: return kPytorch;
        case Runtime::llama_cpp: return kLlamaCpp;
        case Runtime::vllm: return kVllm;
        case Runtime::automatic: break;
    }
    return kPytorch;
}

}  // namespace gpusizer::detail
