// bench_estimate.cpp: the estimate's speed budget.
//   one estimate (Llama 3 70B, Q4_K_M, 2 x RTX 4090):         budget 1 us
//   a sweep: every catalog GPU x 1..8 GPUs x every weight format, one model: budget 1 ms
//     (BM_Sweep: the sweep() API; BM_SweepOfEstimates: the same points as estimate() calls)
// Run: build/native/bench_estimate --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "gpusizer/gpusizer.hpp"

namespace {

const gpusizer::Catalog& catalog() {
    static const gpusizer::Catalog c = gpusizer::load_catalog(GPUSIZER_BENCH_ASSETS);
    return c;
}

gpusizer::Config base_config(const char* model) {
    gpusizer::Config c;
    c.model.id = model;
    return c;
}

// The benchmark's loop: one estimate of `c` per iteration.
void estimate_each_iteration(benchmark::State& state, const gpusizer::Config& c) {
    for (auto _ : state) {
        gpusizer::Report r = gpusizer::estimate(c, catalog());
        benchmark::DoNotOptimize(r.per_gpu);
    }
}

void BM_EstimateOne(benchmark::State& state) {
    gpusizer::Config c = base_config("llama-3-70b");
    c.weights = "q4_k_m";
    c.gpu = "rtx-4090";
    c.gpus = 2;
    estimate_each_iteration(state, c);
}
BENCHMARK(BM_EstimateOne);

void BM_EstimateTraining(benchmark::State& state) {
    gpusizer::Config c = base_config("llama-3-70b");
    c.mode = gpusizer::Mode::train;
    c.gpu = "h100-sxm";
    c.gpus = 64;
    c.zero = 3;
    estimate_each_iteration(state, c);
}
BENCHMARK(BM_EstimateTraining);

void BM_Sweep(benchmark::State& state) {
    // The sweep API: the model side resolved once per format and GPU count.
    gpusizer::Config c = base_config("llama-3-70b");
    std::size_t n = 0;
    for (auto _ : state) {
        const auto points = gpusizer::sweep(c, catalog(), 8);
        n = points.size();
        benchmark::DoNotOptimize(points.data());
    }
    state.counters["estimates"] = double(n);
}
BENCHMARK(BM_Sweep)->Unit(benchmark::kMicrosecond);

void BM_SweepOfEstimates(benchmark::State& state) {
    // The same sweep as independent estimate() calls, for comparison.
    const gpusizer::Catalog& cat = catalog();
    long long n = 0;
    for (auto _ : state) {
        double sum = 0;
        for (const auto& gpu : cat.gpus) {
            for (int gpus = 1; gpus <= 8; ++gpus) {
                for (const auto& f : gpusizer::weight_formats()) {
                    gpusizer::Config c = base_config("llama-3-70b");
                    c.gpu = gpu.id;
                    c.gpus = gpus;
                    c.weights = std::string(f.id);
                    // A point the engine cannot run (llama.cpp on a Gaudi) is an error,
                    // as it is a point with `error` set in the sweep.
                    try {
                        sum += gpusizer::estimate(c, cat).per_gpu.total();
                    } catch (const gpusizer::Error&) {
                        sum += 1;
                    }
                    ++n;
                }
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["estimates"] = benchmark::Counter(double(n) / double(state.iterations()));
}
BENCHMARK(BM_SweepOfEstimates)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
