// fuzz_common.hpp: shared by the libFuzzer targets. The rule every target checks: hostile input
// ends in a gpusizer::Error with a message, never a crash, a hang, another exception type, or a
// report with NaN, infinity or a negative size.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gpusizer/gpusizer.hpp"

namespace gpusizer::fuzz {

inline const Catalog& catalog() {
    static const Catalog c = load_catalog(GPUSIZER_FUZZ_ASSETS);
    return c;
}

inline std::string_view text(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

// A report that came back must be sane; anything else is a bug worth a crash.
inline void check_report(const Report& r) {
    const MemoryParts& m = r.per_gpu;
    for (double v : {m.weights, m.kv_cache, m.activations, m.gradients, m.optimizer, m.overhead, r.host, r.params,
                     r.kv_bytes_per_token, r.kv_capacity_tokens, r.gpu_usable}) {
        if (!std::isfinite(v) || v < 0) std::abort();
    }
    if (!std::isfinite(r.headroom)) std::abort();
}

// Estimates a configuration that parsed, and checks what comes back.
inline void estimate_checked(const Config& c) {
    try {
        check_report(estimate(c, catalog()));
    } catch (const Error&) {
        // An impossible configuration: a message, which is the expected answer.
    }
}

}  // namespace gpusizer::fuzz
