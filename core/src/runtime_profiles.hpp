// runtime_profiles.hpp (internal): what each inference/training runtime adds to the model's own
// tensors. Every constant names its source; docs/formulas.md collects them and
// docs/research/runtime-facts.md holds the measurements behind them.
#pragma once

#include "gpusizer/config.hpp"

namespace gpusizer::detail {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

struct RuntimeProfile {
    Runtime id;
    const char* label;
    double cuda_context;          // bytes: driver context, kernels, library handles and workspaces
    double allocator_fraction;    // caching-allocator slack, fraction of the dynamic tensors
    double activation_bytes;      // bytes per activation element (0 = the compute dtype)
    double comm_buffers;          // bytes per communicator (NCCL) when the GPU talks to others
};

const RuntimeProfile& runtime_profile(Runtime r);

// llama.cpp: the micro-batch of one forward during prompt processing.
constexpr long long kLlamaCppUbatch = 512;   // common/common.h: n_ubatch = 512
// llama.cpp pads the KV cache length to a multiple of 256 (llama_kv_cache, with flash attention).
constexpr long long kLlamaCppKvPad = 256;

// vLLM V1 scheduler defaults for the OpenAI API server (vllm/engine/arg_utils.py
// get_batch_defaults): GPUs with >= 70 GiB other than the A100 get 8192 batched tokens and 1024
// sequences; the rest 2048 and 256.
constexpr long long kVllmBatchedTokensLarge = 8192;
constexpr long long kVllmBatchedTokensSmall = 2048;
constexpr long long kVllmMaxSeqsLarge = 1024;
constexpr long long kVllmMaxSeqsSmall = 256;
// vLLM "non_torch_memory" in its profiler log: 0.04-0.26 GiB on one GPU, 1.4-2.1 GiB with tensor
// parallelism (NCCL and custom all-reduce buffers). We take 0.15 GiB and 1.5 GiB.
constexpr double kVllmNonTorchSingle = 0.15 * kGiB;
constexpr double kVllmNonTorchParallel = 1.5 * kGiB;
// vLLM CUDA graph capture ("Graph capturing finished in X secs, took Y GiB"): 0.11-1.1 GiB seen;
// 0.73 GiB estimated for 51+35 captured sizes. It lives outside the gpu_memory_utilization
// budget (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 0). We take 0.75 GiB.
constexpr double kVllmCudaGraphs = 0.75 * kGiB;

// DeepSpeed ZeRO defaults (deepspeed/runtime/zero/config.py), in elements.
constexpr double kZeroReduceBucket = 5e8;          // reduce_bucket_size
constexpr double kZeroAllgatherBucket = 5e8;       // allgather_bucket_size (stages 1-2)
constexpr double kZero3PrefetchBucket = 5e7;       // stage3_prefetch_bucket_size
constexpr double kZero3MaxLiveParams = 1e9;        // stage3_max_live_parameters

}  // namespace gpusizer::detail
