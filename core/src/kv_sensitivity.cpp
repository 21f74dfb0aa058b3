// kv_sensitivity.cpp: memory.kv_capacity_sensitivity (issue 26), the KV capacity again with one
// input changed. Apart from estimate.cpp so that the widget's module, which shows none, compiles it
// empty (GPUSIZER_KV_SENSITIVITY=0, web/CMakeLists.txt): its report says null there.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "estimate_internal.hpp"
#include "gpusizer/error.hpp"

#ifndef GPUSIZER_KV_SENSITIVITY
#define GPUSIZER_KV_SENSITIVITY 1
#endif

namespace gpusizer {

#if GPUSIZER_KV_SENSITIVITY
namespace detail {
namespace {

// The KV capacity of `c` with one input changed: resolve and compute() only (no speed, serving,
// power or cost); nullopt when the changed configuration is refused.
std::optional<double> capacity_with(const Config& c, const Catalog& catalog, const GpuOverlay* measured) {
    try {
        return compute(resolve(c, catalog, measured)).kv_capacity_tokens;
    } catch (const Error&) {
        return std::nullopt;
    }
}

void set_case(KvCapacityCase& k, std::string setting, std::optional<double> tokens, double base) {
    if (!tokens) return;
    k.computed = true;
    k.setting = std::move(setting);
    k.tokens = *tokens;
    k.change_tokens = *tokens - base;
    k.change_pct = base > 0 ? k.change_tokens / base * 100.0 : 0.0;
}

std::string fraction_text(double f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", f);
    return buf;
}

}  // namespace

// memory.kv_capacity_sensitivity: the capacity at the engine's memory fraction -0.05 / +0.05, with
// CUDA graphs flipped, and with speculative decoding flipped (off when on; the model's MTP
// layers when it has them and it is off). Serving engines with a pool only: vLLM, SGLang,
// TensorRT-LLM. Four more resolve + compute() runs, once per estimate() (sweeps do not ask).
void kv_sensitivity(const Config& given, const Catalog& catalog, const GpuOverlay* measured, Report& rep) {
    const Runtime rt = rep.config.runtime;
    if (given.mode != Mode::inference || (rt != Runtime::vllm && rt != Runtime::sglang && rt != Runtime::trt_llm)) return;
    KvSensitivity& k = rep.kv_capacity_sensitivity;
    const double base = rep.kv_capacity_tokens;
    k.computed = true;
    k.pool_bytes = rep.kv_capacity_tokens > 0 ? rep.memory_kv_pool_bytes : 0.0;
    double Config::*vllm = &Config::gpu_memory_utilization;
    const double f = rt == Runtime::vllm     ? rep.config.gpu_memory_utilization
                     : rt == Runtime::sglang ? rep.config.mem_fraction_static.value_or(0.0)
                                             : rep.config.free_gpu_memory_fraction.value_or(0.0);
    k.fraction_key = rt == Runtime::vllm ? "gpu_memory_utilization" : rt == Runtime::sglang ? "mem_fraction_static" : "free_gpu_memory_fraction";
    k.fraction = f;
    // The budget the pool is left of: vLLM's fraction of the GPU; SGLang's of the memory free
    // before loading, which holds the weights and the pool (estimate.cpp, static_fraction);
    // TensorRT-LLM's fraction of what is free after the rest (the pool is all of it).
    k.budget_bytes = rt == Runtime::trt_llm  ? (f > 0 ? k.pool_bytes / f : 0.0)
                     : rt == Runtime::sglang ? k.pool_bytes + rep.per_gpu.weights
                                             : f * rep.gpu_capacity;
    // vLLM with --kv-cache-memory-bytes: the fraction sizes nothing, so it has no cases.
    const bool fraction_moves = !(rt == Runtime::vllm && given.kv_cache_memory_bytes.value_or(0.0) > 0);
    for (const double step : {-k.fraction_step, k.fraction_step}) {
        if (!fraction_moves) break;
        Config v = given;
        double moved = std::clamp(f + step, 1e-3, 1.0);
        if (rt == Runtime::vllm) {
            // 0.9 in Config reads as "not given" (the version's default): the next double above it is 0.9 given.
            if (moved == 0.9) moved = std::nextafter(0.9, 1.0);
            v.*vllm = moved;
        } else if (rt == Runtime::sglang) {
            v.mem_fraction_static = moved;
        } else {
            v.free_gpu_memory_fraction = moved;
        }
        set_case(step < 0 ? k.fraction_down : k.fraction_up, k.fraction_key + " " + fraction_text(moved), capacity_with(v, catalog, measured), base);
    }
    {
        Config v = given;
        v.cuda_graphs = !given.cuda_graphs;
        set_case(k.cuda_graphs, std::string("cuda_graphs ") + (v.cuda_graphs ? "true" : "false"), capacity_with(v, catalog, measured), base);
    }
    Config v = given;
    if (!given.speculative.empty()) v.speculative.clear();
    else v.speculative = "mtp";   // refused (left out) when the model has no MTP layers
    set_case(k.speculative, "speculative " + (v.speculative.empty() ? std::string("none") : v.speculative), capacity_with(v, catalog, measured), base);
}

}  // namespace detail
#else
namespace detail {
void kv_sensitivity(const Config&, const Catalog&, const GpuOverlay*, Report&) {}
}  // namespace detail
#endif

}  // namespace gpusizer
