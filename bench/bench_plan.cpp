// bench_plan.cpp: the layout search's budget (issue: "at least 1 million layouts evaluated per
// second per core natively").
//   BM_PlanSearch405B: plan_count(), the search's inner loop alone, Llama 3.1 405B on 16,384
//     H100, 2,048 sequences of 8,192 tokens per step (Llama 3's 16M-token batch); one thread.
//   BM_PlanSearch405B128k: the same at 131,072 tokens, 128 sequences per step (Llama 3's
//     long-context stage), where context parallelism cp = 2 to 32 is searched too.
//   BM_Plan405B: the whole plan(): the search, then the 5 best through estimate().
//   BM_PlanSearch70B: Llama 3 70B on 64 H100, 512 x 8,192.
//   BM_PlanInference70B: the whole inference plan() (colocated layouts), Llama 3 70B served by vLLM on up to 64 H100,
//     requests of 1,000 + 1,000 tokens, TPOT <= 30 ms (issue budget: under 100 ms natively).
//   BM_Simulate10k: simulate(), 10,000 requests (bench_cases.hpp simulation_config; issue budget:
//     under 100 ms natively).
// Run: build/native/bench_plan --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// The counter layouts_per_s is evaluated layouts / CPU second.
#include <benchmark/benchmark.h>

#include "gpusizer/gpusizer.hpp"
#include "gpusizer/plan.hpp"
#include "bench_cases.hpp"

namespace {

const gpusizer::Catalog& catalog() {
    static const gpusizer::Catalog c = gpusizer::load_catalog(GPUSIZER_BENCH_ASSETS);
    return c;
}

gpusizer::PlanRequest request(const char* model, int gpus, int global_batch, long long context = 8192) {
    gpusizer::PlanRequest q;
    q.base.model.id = model;
    q.base.mode = gpusizer::Mode::train;
    q.base.gpu = "h100-sxm";
    q.base.gpus = gpus;
    q.base.global_batch = global_batch;
    q.base.context = context;
    return q;
}

void run_search(benchmark::State& state, const gpusizer::PlanRequest& q) {
    long long n = 0;
    double best = 0;
    for (auto _ : state) {
        n = gpusizer::plan_count(q, catalog(), &best);
        benchmark::DoNotOptimize(best);
    }
    state.counters["layouts"] = double(n);
    state.counters["layouts_per_s"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_PlanSearch405B(benchmark::State& state) { run_search(state, request("llama-3.1-405b", 16384, 2048)); }
BENCHMARK(BM_PlanSearch405B)->Unit(benchmark::kMillisecond);

void BM_PlanSearch405B128k(benchmark::State& state) { run_search(state, request("llama-3.1-405b", 16384, 128, 131072)); }
BENCHMARK(BM_PlanSearch405B128k)->Unit(benchmark::kMillisecond);

void BM_PlanSearch70B(benchmark::State& state) { run_search(state, request("llama-3-70b", 64, 512)); }
BENCHMARK(BM_PlanSearch70B)->Unit(benchmark::kMillisecond);

// The whole plan() of either mode; `counter` names what it counts (layouts or serving points).
void run_plan(benchmark::State& state, const gpusizer::PlanRequest& q, const char* counter) {
    long long n = 0;
    for (auto _ : state) {
        const gpusizer::PlanReport p = gpusizer::plan(q, catalog());
        n = p.evaluated;
        benchmark::DoNotOptimize(p.top.data());
        benchmark::DoNotOptimize(p.pareto.data());
    }
    state.counters[counter] = double(n);
}

void BM_Plan405B(benchmark::State& state) { run_plan(state, request("llama-3.1-405b", 16384, 2048), "layouts"); }
BENCHMARK(BM_Plan405B)->Unit(benchmark::kMillisecond);

void BM_PlanInference70B(benchmark::State& state) { run_plan(state, gpusizer::bench::inference_plan_70b(), "points"); }
BENCHMARK(BM_PlanInference70B)->Unit(benchmark::kMillisecond);

void BM_Simulate10k(benchmark::State& state) {
    gpusizer::SimulationOptions o;
    o.requests = gpusizer::bench::kSimulationRequests;
    o.seed = 1;
    const gpusizer::Config c = gpusizer::bench::simulation_config();
    double steps = 0;
    for (auto _ : state) {
        const gpusizer::SimulationReport s = gpusizer::simulate(c, catalog(), o);
        steps = double(s.steps);
        benchmark::DoNotOptimize(s.ttft_s.p99);
    }
    state.counters["requests"] = double(o.requests);
    state.counters["steps"] = steps;
}
BENCHMARK(BM_Simulate10k)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
