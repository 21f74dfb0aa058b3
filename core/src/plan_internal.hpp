// plan_internal.hpp (internal): what the training search (plan.cpp) and the serving search
// (plan_inference.cpp) share.
#pragma once

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/plan.hpp"

namespace gpusizer::detail {

// The parallel degrees of one layout (0 = automatic where the key allows it).
struct Degrees {
    int tp = 1, pp = 1, dp = 1, ep = 1, cp = 1;
};

// A layout's degrees written into a configuration, the one place both searches set them.
inline void set_degrees(Config& c, const Degrees& d) {
    c.tp = d.tp;
    c.pp = d.pp;
    c.dp = d.dp;
    c.ep = d.ep;
    c.cp = d.cp;
}

// The base's data-parallel attention in a layout of `tp`: SGLang's groups as given (a layout they
// do not divide is refused and skipped); TensorRT-LLM's is on or off, every rank a group, so it
// follows the layout's tp (off at tp 1).
inline int attention_dp_for(const Config& base, int tp) {
    if (base.runtime != Runtime::trt_llm || base.dp_attention <= 1) return base.dp_attention;
    return tp > 1 ? tp : 0;
}

// The serving layout search (plan_inference.cpp), behind plan() and plan_count().
// `measured` as in plan(): the overlay every resolve and estimate() of the search takes.
PlanReport plan_inference(const PlanRequest& q, const Catalog& cat, const GpuOverlay* measured);
long long plan_inference_count(const PlanRequest& q, const Catalog& cat, double* best_per_gpu, const GpuOverlay* measured);
// Sizing for a target rate (simulation/target.cpp): the fewest GPUs meeting the latency targets
// at the request's percentile, by request-level simulation.
PlanReport plan_for_target(const PlanRequest& q, const Catalog& cat);
// The same over every GPU type of the catalog (PlanRequest::cheapest_gpu): the cheapest's layout,
// and target.by_gpu.
PlanReport plan_for_target_over_catalog(const PlanRequest& q, const Catalog& cat);

}  // namespace gpusizer::detail
