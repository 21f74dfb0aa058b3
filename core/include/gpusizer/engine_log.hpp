// gpusizer/engine_log.hpp: what an inference engine's startup log says about memory.
//
// Reads the lines of a llama.cpp / llama-server / Ollama, vLLM or SGLang startup log that state
// the model, the context, each device buffer (weights, KV cache, compute, output, CUDA graphs)
// and the KV cache's token capacity. Pure: text in, struct out; lines it does not know are
// skipped. Sizes are bytes. Engines that print "GB" for 2^30 bytes (vLLM, SGLang: both divide
// by 2^30) are read as GiB, and a note says so.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer {

// One buffer a line reports.
struct LogBuffer {
    std::string kind;    // "model" (weights), "kv", "recurrent", "compute", "output", "graph"
    std::string device;  // "CUDA0", "CUDA_Host", "CPU_Mapped", "ROCm0", "Metal", or "TP0" (a rank), "GPU"
    double bytes = 0;
    int line = 0;        // 1-based line of the log
};

struct EngineLog {
    std::string engine;        // "llama.cpp", "ollama", "vllm", "sglang", or "" (nothing recognised)
    std::string model_name;    // general.name, or the model vLLM loads
    std::string architecture;  // llama.cpp arch, or SGLang's model class
    std::string model_type;    // llama.cpp "8B"
    std::string file_type;     // llama.cpp "Q4_K - Medium"
    double model_params = 0;   // llama.cpp "model params = 8.03 B"
    double model_file_bytes = 0;  // llama.cpp "model size = 4.58 GiB"

    // Hyperparameters llama.cpp prints (0 = absent).
    std::int64_t n_layer = 0, n_embd = 0, n_head = 0, n_head_kv = 0, n_ctx_train = 0, n_expert = 0, n_expert_used = 0;
    // The context as created: llama.cpp n_ctx / n_ctx_per_seq / n_seq_max / n_batch / n_ubatch,
    // SGLang context_len.
    std::int64_t n_ctx = 0, n_ctx_per_seq = 0, n_seq_max = 0, n_batch = 0, n_ubatch = 0;

    // KV cache: llama.cpp "KV self size" / "llama_kv_cache: size" lines (summed over caches: an
    // interleaved-SWA model has two), SGLang "K size" / "V size".
    std::string kv_type_k, kv_type_v;  // "f16", "q8_0", "torch.float8_e4m3fn"
    double kv_bytes = 0, kv_k_bytes = 0, kv_v_bytes = 0;
    std::int64_t kv_cells = 0;           // llama.cpp cells of the largest cache
    std::int64_t kv_cache_tokens = 0;    // vLLM "GPU KV cache size", SGLang "#tokens"
    std::int64_t kv_blocks = 0;          // vLLM "# GPU blocks" / "# cuda blocks"

    // vLLM / SGLang totals per GPU (one rank).
    double weights_bytes = 0;            // vLLM "Model loading took", SGLang "Load weight end ... mem usage"
    double available_kv_bytes = 0;       // vLLM "Available KV cache memory"
    double activation_peak_bytes = 0;    // vLLM V0 "PyTorch activation peak memory takes"
    double non_torch_bytes = 0;          // vLLM V0 "non_torch_memory takes"
    double graph_bytes = 0;              // vLLM "Graph capturing finished ... took", SGLang "Capture cuda graph end ... mem usage"
    double gpu_memory_bytes = 0;         // vLLM "total_gpu_memory (X)"
    double gpu_memory_utilization = 0;   // vLLM "gpu_memory_utilization (0.90)"
    double mem_fraction_static = 0;      // SGLang "server_args=ServerArgs(..., mem_fraction_static=0.87, ...)"
    int tp_size = 0;                     // SGLang ServerArgs tp_size
    int dp_attention = 0;                // SGLang ServerArgs dp_size, when enable_dp_attention=True
    double avail_after_pool_bytes = 0;   // SGLang "Memory pool end. avail mem="
    double max_concurrency = 0;          // vLLM "Maximum concurrency ...: 3.03x"
    std::int64_t concurrency_tokens_per_request = 0;
    std::int64_t max_running_requests = 0;  // SGLang

    std::vector<LogBuffer> buffers;      // every buffer line, in log order
    std::vector<std::string> notes;      // how figures were read ("GB read as GiB", ...)

    // Sum of the buffers of a kind, on one device ("" = every device).
    double buffer_bytes(std::string_view kind, std::string_view device = {}) const;
    // The devices that have buffers, in first-seen order.
    std::vector<std::string> devices() const;
};

// Lines longer than this are skipped (no log line is); the whole text may be any size.
inline constexpr std::size_t kEngineLogMaxLine = 1 << 16;

EngineLog read_engine_log(std::string_view text);

}  // namespace gpusizer
