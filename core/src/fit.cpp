// fit.cpp: the inverse questions. For a model on given GPUs: the longest context and the
// largest batch that fit, and the most precise weight and KV formats that fit.
//
// Each search reruns the estimate (a microsecond each): per-GPU memory never decreases as
// context or batch grow, so a binary search over the integer range finds the boundary.
#include <algorithm>
#include <string>

#include "estimate_internal.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"

namespace gpusizer {

namespace {

constexpr long long kContextCeiling = 1LL << 27;   // the configuration's own limit
constexpr long long kBatchCeiling = 1LL << 20;

// Largest v in [1, hi] with fits(v), or 0 when even 1 does not fit.
template <typename Fits>
long long largest_fitting(long long hi, Fits fits) {
    if (!fits(1)) return 0;
    long long lo = 1;
    while (lo < hi) {
        const long long mid = lo + (hi - lo + 1) / 2;
        if (fits(mid)) lo = mid; else hi = mid - 1;
    }
    return lo;
}

long long max_context_of(const detail::Resolved& base) {
    detail::Resolved r = base;
    return largest_fitting(kContextCeiling, [&](long long ctx) {
        r.config.context = ctx;
        return detail::estimate_resolved(r).fits;
    });
}

long long max_batch_of(const detail::Resolved& base) {
    detail::Resolved r = base;
    const long long dp = base.par.dp;
    return largest_fitting(kBatchCeiling, [&](long long b) {
        r.config.batch = int(b);
        if (r.training) {
            r.config.global_batch = int(std::min<long long>(b * dp, 1LL << 30));
            r.micro_batches = 1;
        }
        return detail::estimate_resolved(r).fits;
    });
}

}  // namespace

FitReport fit(const Config& config, const Catalog& catalog) {
    const detail::Resolved base = detail::resolve(config, catalog);
    FitReport out;
    out.base = detail::estimate_resolved(base);
    out.max_context = max_context_of(base);
    out.max_batch = max_batch_of(base);

    // Weight formats, most precise first (bf16 down; fp32 is listed but never "best":
    // checkpoints are published in 16 bits). A format the runtime cannot run is skipped.
    for (const WeightFormat& f : weight_formats()) {
        Config c = config;
        c.weights = std::string(f.id);
        c.kv_cache = base.config.kv_cache;
        if (config.runtime == Runtime::automatic) c.runtime = Runtime::automatic;
        detail::Resolved r;
        try {
            r = detail::resolve(c, catalog);
        } catch (const Error&) {
            continue;   // not runnable in this mode/runtime (e.g. GGUF for training, nf4 in llama.cpp)
        }
        const Report rep = detail::estimate_resolved(r);
        FitRow row{std::string(f.id), rep.fits, rep.per_gpu.total(), rep.headroom, max_context_of(r)};
        if (out.best_weights.empty() && rep.fits && f.id != "fp32") out.best_weights = row.format;
        out.by_weights.push_back(row);
    }
    // KV formats with the configuration's weights.
    for (const KvFormat& k : kv_formats()) {
        Config c = config;
        c.weights = base.config.weights;
        c.kv_cache = std::string(k.id);
        c.runtime = base.runtime;   // compare cache formats within the runtime in use
        detail::Resolved r;
        try {
            r = detail::resolve(c, catalog);
        } catch (const Error&) {
            continue;
        }
        const Report rep = detail::estimate_resolved(r);
        FitRow row{std::string(k.id), rep.fits, rep.per_gpu.total(), rep.headroom, max_context_of(r)};
        if (out.best_kv_cache.empty() && rep.fits && k.id != "fp32") out.best_kv_cache = row.format;
        out.by_kv_cache.push_back(row);
    }
    return out;
}

}  // namespace gpusizer
