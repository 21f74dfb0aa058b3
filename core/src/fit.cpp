// fit.cpp: the inverse questions. For a model on given GPUs: the longest context and the
// largest batch that fit, and the most precise weight and KV formats that fit.
//
// Each search reruns the estimate (a microsecond each): per-GPU memory never decreases as
// context or batch grow, so a binary search over the integer range finds the boundary.
#include <algorithm>
#include <string>

#include "estimate_internal.hpp"
#include "gpusizer/compute.hpp"
#include "performance.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"

namespace gpusizer {

namespace {

// The searches stop at the configuration's own limits (gpusizer/config_keys.hpp).
long long ceiling_of(const char* key) { return (long long)find_config_key(key)->max; }

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
    // Context parallelism cuts each sequence into 2 x cp chunks (resolve.cpp): the context grows
    // in steps of 2 x cp, so the answer is one the estimate accepts.
    const long long step = base.par.cp > 1 ? 2LL * base.par.cp : 1;
    return step * largest_fitting(ceiling_of("context") / step, [&](long long k) {
        r.config->context = k * step;
        return detail::compute(r).fits;
    });
}

long long max_batch_of(const detail::Resolved& base) {
    detail::Resolved r = base;
    const long long dp = base.par.dp;
    return largest_fitting(ceiling_of("batch"), [&](long long b) {
        r.config->batch = int(b);
        if (r.training) {
            r.config->global_batch = int(std::min<long long>(b * dp, 1LL << 30));
            r.micro_batches = 1;
        }
        return detail::compute(r).fits;
    });
}

}  // namespace

FitReport fit(const Config& config, const Catalog& catalog, const GpuOverlay* measured) {
    const detail::Resolved base = detail::resolve(config, catalog, measured);
    FitReport out;
    out.base = detail::estimate_resolved(base);
    out.max_context = max_context_of(base);
    out.model_max_context = base.arch ? base.arch->max_context : 0;
    out.max_batch = max_batch_of(base);

    // Weight formats, most precise first (bf16 down; fp32 is listed but never "best":
    // checkpoints are published in 16 bits). A format the runtime cannot run is skipped.
    for (const WeightFormat& f : weight_formats()) {
        Config c = config;
        c.weights = std::string(f.id);
        c.kv_cache = base.config->kv_cache;
        if (config.runtime == Runtime::automatic) c.runtime = Runtime::automatic;
        detail::Resolved r;
        try {
            r = detail::resolve(c, catalog, measured);
        } catch (const Error&) {
            continue;   // not runnable in this mode/runtime (e.g. GGUF for training, nf4 in llama.cpp)
        }
        const Report rep = detail::estimate_resolved(r);
        FitRow row{std::string(f.id), rep.fits, rep.per_gpu.total(), rep.headroom, max_context_of(r), std::string(to_string(r.engine))};
        if (out.best_weights.empty() && rep.fits && f.id != "fp32") {
            out.best_weights = row.format;
            out.best_weights_runtime = row.runtime;
        }
        out.by_weights.push_back(row);
    }
    // KV formats with the configuration's weights.
    for (const KvFormat& k : kv_formats()) {
        Config c = config;
        c.weights = base.config->weights;
        c.kv_cache = std::string(k.id);
        c.runtime = base.runtime;   // compare cache formats within the runtime in use
        detail::Resolved r;
        try {
            r = detail::resolve(c, catalog, measured);
        } catch (const Error&) {
            continue;
        }
        const Report rep = detail::estimate_resolved(r);
        FitRow row{std::string(k.id), rep.fits, rep.per_gpu.total(), rep.headroom, max_context_of(r), std::string(to_string(r.engine))};
        if (out.best_kv_cache.empty() && rep.fits && k.id != "fp32") out.best_kv_cache = row.format;
        out.by_kv_cache.push_back(row);
    }
    return out;
}

std::vector<SweepPoint> sweep(const Config& base, const Catalog& catalog, int max_gpus, const std::vector<std::string>& formats,
                              const GpuOverlay* measured) {
    if (catalog.gpus.empty()) throw_error("gpu", "the catalog has no GPUs");
    std::vector<const Gpu*> gpus;
    gpus.reserve(catalog.gpus.size());
    for (std::size_t g = 0; g < catalog.gpus.size(); ++g) gpus.push_back(&gpu_at(catalog, measured, g));
    return detail::sweep_gpus(base, catalog, gpus, max_gpus, formats, measured);
}

std::vector<SweepPoint> detail::sweep_gpus(const Config& base, const Catalog& catalog, const std::vector<const Gpu*>& gpus, int max_gpus,
                                           const std::vector<std::string>& formats, const GpuOverlay* measured) {
    if (max_gpus < 1 || max_gpus > 4096) throw_error("max_gpus", "must be between 1 and 4096");
    if (gpus.empty()) throw_error("gpu", "no GPUs to sweep");
    const auto& all = weight_formats();
    std::vector<std::size_t> chosen;
    const std::size_t kNativeSlot = all.size();   // `weights` "native": the format is the checkpoint's
    if (formats.empty()) {
        for (std::size_t f = 0; f < all.size(); ++f) chosen.push_back(f);
    } else {
        for (const std::string& id : formats) {
            if (id == kNativeWeights) {   // the checkpoint as published (resolve.cpp)
                chosen.push_back(kNativeSlot);
                continue;
            }
            const WeightFormat& wf = weight_format(id);   // throws Error("weights", ...) for an unknown id
            chosen.push_back(std::size_t(&wf - all.data()));
        }
    }
    std::vector<SweepPoint> out;
    out.reserve(gpus.size() * std::size_t(max_gpus) * chosen.size());
    // The fabric of each GPU depends only on the GPU and the configuration's link choice.
    std::vector<detail::Fabric> fabrics;
    std::vector<ComputeChoice> choices(gpus.size());   // per GPU, for the current format and runtime
    // One set of report buffers for every point: evaluate_performance() writes each number read
    // below on every call (the mode, hence the branch it takes, is the same for the whole sweep).
    detail::PerfBuffers buf;
    detail::PerfOut& po = buf.out;
    for (std::size_t f : chosen) {
        bool have_choices = false;
        Runtime choices_runtime = Runtime::automatic;
        for (int n = 1; n <= max_gpus; ++n) {
            Config c = base;
            c.weights = f == kNativeSlot ? std::string(kNativeWeights) : std::string(all[f].id);
            c.gpus = n;
            c.gpu = gpus.front()->id;   // a custom GPU ("custom") keeps base.custom_gpu
            detail::Resolved r;
            std::string model_error;
            bool gpu_refused = false;   // the first GPU cannot run this runtime: resolve on each GPU instead
            try {
                r = detail::resolve(c, catalog, measured);
            } catch (const Error& e) {
                model_error = e.what();
                gpu_refused = e.code() == ErrorCode::gpu_unsupported;
            }
            detail::PerfInputs in;
            if (model_error.empty()) in = detail::perf_inputs(r);
            detail::Resolved own;   // a GPU that splits this count its own way (below)
            detail::PerfInputs own_in;
            for (std::size_t g = 0; g < gpus.size(); ++g) {
                SweepPoint p;
                p.gpu = int(g);
                p.gpus = n;
                p.format = f == kNativeSlot ? -1 : int(f);
                if (!model_error.empty() && !gpu_refused) {
                    p.error = model_error;
                    out.push_back(std::move(p));
                    continue;
                }
                try {
                    if (gpu_refused) {   // the first GPU refused the runtime: resolve on this one
                        c.gpu = gpus[g]->id;
                        r = detail::resolve(c, catalog, measured);
                        in = detail::perf_inputs(r);
                        model_error.clear();
                        gpu_refused = false;
                    }
                    // Automatic tensor parallelism stays inside a node (resolve.cpp): a GPU whose
                    // node holds fewer of this count than the first GPU's splits it otherwise, so it
                    // is resolved on its own (its own layout, as estimate() gives it).
                    detail::Resolved* cur = &r;
                    const detail::PerfInputs* cur_in = &in;
                    if (base.tp == 0 && g > 0) {
                        const int node_g = detail::tp_node_size(catalog, *gpus[g], r.link);
                        const int node_0 = detail::tp_node_size(catalog, *gpus.front(), r.link);
                        const auto caps = [n](int node) { return node > 0 && node < n; };
                        if (node_g != node_0 && (caps(node_g) || caps(node_0))) {
                            Config cg = c;
                            cg.gpu = gpus[g]->id;
                            own = detail::resolve(cg, catalog, measured);
                            own_in = detail::perf_inputs(own);
                            cur = &own;
                            cur_in = &own_in;
                        }
                    }
                    detail::Resolved& rr = *cur;
                    detail::bind_gpu(rr, *gpus[g]);
                    if (fabrics.empty()) {
                        fabrics.reserve(gpus.size());
                        for (std::size_t k = 0; k < gpus.size(); ++k)
                            fabrics.push_back(detail::make_fabric(*gpus[k], catalog, r.link, r.inter_node_link));
                    }
                    const detail::Totals t = detail::compute(rr);
                    p.valid = true;
                    p.fits = t.fits;
                    p.total = t.per_gpu.total();
                    p.headroom = t.headroom;
                    p.kv_capacity_tokens = t.kv_capacity_tokens;
                    p.per_gpu = t.per_gpu;
                    p.parallel = rr.par;
                    if (!have_choices || choices_runtime != rr.runtime) {
                        for (std::size_t k = 0; k < gpus.size(); ++k) choices[k] = compute_choice(*gpus[k], *rr.wf, rr.runtime);
                        have_choices = true;
                        choices_runtime = rr.runtime;
                    }
                    detail::set_pods(fabrics[g], c.pod_gpus, c.pod_oversubscription, n);
                    detail::evaluate_performance(rr, *cur_in, t, fabrics[g], po, detail::EvalLevel::numbers, &choices[g]);
                    p.decode_tokens_per_s = po.speed.decode_tokens_per_s;
                    p.train_tokens_per_s = po.speed.train_tokens_per_s;
                    p.system_w = po.power.system_w;
                    p.wall_w = po.power.wall_w;
                    p.psu_w = po.power.psu_w;
                    p.price_known = po.power.hardware_price_known;
                    p.price_usd = po.power.hardware_usd;
                    p.nodes = po.interconnect.nodes;
                    p.gpus_per_node = fabrics[g].levels > 0 ? fabrics[g].node_size : n;
                } catch (const Error& e) {
                    p.error = e.what();
                }
                out.push_back(std::move(p));
            }
        }
    }
    return out;
}

}  // namespace gpusizer
