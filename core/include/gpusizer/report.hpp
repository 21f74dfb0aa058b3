// gpusizer/report.hpp: what an estimate answers. Every size is in bytes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpusizer/config.hpp"

namespace gpusizer {

struct Calibration;   // gpusizer/measured.hpp

// Memory of the most loaded GPU, by what it holds.
struct MemoryParts {
    double weights = 0;       // model weights resident on the GPU
    double kv_cache = 0;      // KV cache for batch x context
    double activations = 0;   // forward (and backward) working memory, logits included
    double gradients = 0;     // training only
    double optimizer = 0;     // training only: optimizer states and fp32 master weights
    double overhead = 0;      // cuda_context + allocator_reserve + runtime_buffers
    double total() const { return weights + kv_cache + activations + gradients + optimizer + overhead; }
};

struct OverheadDetail {
    double cuda_context = 0;        // driver context, kernels and library handles
    double allocator_reserve = 0;   // caching-allocator slack and fragmentation
    double runtime_buffers = 0;     // llama.cpp compute buffer, vLLM CUDA graphs, NCCL, ZeRO buckets
};

struct Parallelism {
    int tp = 1, pp = 1, dp = 1, ep = 1;
};

struct Report {
    Config config;                  // the configuration with every default resolved
    Parallelism parallel;
    std::string model_name;
    std::string gpu_name;

    double params = 0;              // total parameters (derived from the architecture)
    double active_params = 0;       // parameters a token passes through (MoE: routed top-k only)
    double trainable_params = 0;    // 0 for inference; LoRA: adapter parameters
    double kv_bytes_per_token = 0;  // one token of one sequence, all layers, whole model
    double weights_bits_per_param = 0;   // effective average over all parameters

    MemoryParts per_gpu;
    OverheadDetail overhead_detail;
    double activations_per_layer = 0;    // training: one layer, one micro-batch, one GPU
    double kv_capacity_tokens = 0;       // tokens of KV cache that fit in what is left (all sequences)
    double host = 0;                     // bytes in host RAM for the whole job (offload, llama.cpp's token embeddings)
    double gpu_capacity = 0;             // bytes the GPU has
    double gpu_usable = 0;               // bytes the runtime may use (vLLM: utilization x capacity)
    bool fits = false;
    double headroom = 0;                 // gpu_usable - total (negative when it does not fit)
    std::vector<std::string> warnings;
    std::shared_ptr<const Calibration> measured;   // the GPU's measured figures (--measured); null = datasheet
};

// One assumption behind an estimate: a constant or a choice, with where it comes from.
struct Assumption {
    std::string name;
    std::string value;
    std::string source;
};

// The inverse questions: what is the most that fits?
struct FitRow {
    std::string format;          // weight or KV format id
    bool fits = false;
    double total = 0;            // bytes per GPU at the configuration's batch and context
    double headroom = 0;
    long long max_context = 0;   // at the configuration's batch (0: not even one token)
};

struct FitReport {
    Report base;                 // the configuration as given
    long long max_context = 0;   // longest context that fits at the given batch
    long long max_batch = 0;     // largest batch that fits at the given context
    std::string best_weights;    // most precise weight format that fits ("" if none)
    std::string best_kv_cache;   // most precise KV format that fits with the given weights
    std::vector<FitRow> by_weights;
    std::vector<FitRow> by_kv_cache;
};

}  // namespace gpusizer
