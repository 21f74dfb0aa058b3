// bench_cases.hpp: queries more than one benchmark times, defined once so that the native
// Google Benchmark figure, the std::chrono harness built natively and as WebAssembly
// (bench_portable.cpp) and the browser's gs.plan() call (web_budgets.mjs, which spells the same
// query in JSON) measure the same work.
#pragma once

#include "gpusizer/plan.hpp"

namespace gpusizer::bench {

// The inference layout search's budget case (issue: "a 70B model on up to 64 GPUs of one type
// under 100 ms natively and under 1 s in the browser"): Llama 3 70B served by vLLM on up to 64
// H100, requests of 1,000 + 1,000 tokens, TPOT at most 30 ms.
inline PlanRequest inference_plan_70b() {
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base.model.id = "llama-3-70b";
    q.base.gpu = "h100-sxm";
    q.base.runtime = Runtime::vllm;
    q.base.gpus = 64;
    q.base.isl = 1000;
    q.base.osl = 1000;
    q.max_tpot_ms = 30;
    return q;
}

// The simulation's budget case (issue: 10,000 requests under 100 ms natively, under 1 s in the
// browser): Llama 3.1 8B served by vLLM on one H100, requests of 1,000 + 200 tokens arriving as
// a Poisson process at 15 a second (near the 18 the engine sustains: queues form and drain).
inline Config simulation_config() {
    Config c;
    c.model.id = "llama-3.1-8b";
    c.gpu = "h100-sxm";
    c.runtime = Runtime::vllm;
    c.isl = 1000;
    c.osl = 200;
    c.request_rate = 15;
    return c;
}
constexpr int kSimulationRequests = 10000;

}  // namespace gpusizer::bench
