// plan_support.hpp: helpers the layout-search tests share (test_plan.cpp, test_plan_inference.cpp,
// test_context_parallel.cpp).
#pragma once

#include <optional>
#include <string>

#include "gpusizer/plan.hpp"
#include "test_support.hpp"

namespace gpusizer::test {

// A training search of `model` on `gpus` H100 SXM: `global_batch` sequences of `context` tokens per step.
inline PlanRequest train_request(const std::string& model, int gpus, int global_batch, long long context) {
    PlanRequest q;
    q.base = config(model, "h100-sxm");
    q.base.mode = Mode::train;
    q.base.gpus = gpus;
    q.base.global_batch = global_batch;
    q.base.context = context;
    return q;
}

// The key of the Error that plan() throws for `q`, or "(no error)".
inline std::string plan_error_key(const PlanRequest& q) {
    const std::optional<Error> e = thrown_error([&] { (void)plan(q, catalog()); });
    return e ? e->key() : "(no error)";
}

// A training layout as the search ranked it equals estimate()'s report of its configuration:
// the step time and the memory of the most loaded GPU (they share train_step() and
// train_stage_terms(); the ZeRO and buffer accounting is composed in plan.cpp).
inline void check_confirmed(const PlanLayout& l) {
    INFO("tp " << l.config.tp << " cp " << l.config.cp << " pp " << l.config.pp << " dp " << l.config.dp << " ep " << l.config.ep
               << " b " << l.config.batch << " zero " << l.config.zero << " " << to_string(l.config.recompute) << " "
               << to_string(l.config.pp_schedule));
    CHECK(l.step_s == Approx(l.report.speed.train_step_s).epsilon(1e-9));
    CHECK(l.memory == Approx(l.report.per_gpu.total()).epsilon(1e-9));
}

}  // namespace gpusizer::test
