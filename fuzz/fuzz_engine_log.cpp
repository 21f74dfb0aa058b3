// fuzz_engine_log.cpp: the engine-log reader. Any text gives a log summary (never an
// exception); every figure in it must be finite and non-negative.
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "gpusizer/engine_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    const EngineLog l = read_engine_log(std::string_view(reinterpret_cast<const char*>(data), size));
    for (double v : {l.model_params, l.model_file_bytes, l.kv_bytes, l.kv_k_bytes, l.kv_v_bytes, l.weights_bytes,
                     l.available_kv_bytes, l.activation_peak_bytes, l.non_torch_bytes, l.graph_bytes, l.gpu_memory_bytes,
                     l.gpu_memory_utilization, l.avail_after_pool_bytes, l.max_concurrency})
        if (!std::isfinite(v) || v < 0) std::abort();
    for (const auto& b : l.buffers)
        if (!std::isfinite(b.bytes) || b.bytes < 0 || b.line < 1) std::abort();
    for (std::int64_t v : {l.n_layer, l.n_ctx, l.kv_cells, l.kv_cache_tokens, l.kv_blocks})
        if (v < 0) std::abort();
    return 0;
}
