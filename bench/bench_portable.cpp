// bench_portable.cpp: the estimate and sweep timings of bench_estimate.cpp, with a plain
// std::chrono harness that builds both natively and as WebAssembly for Node.js, so that the
// two runs time the same code the same way and their ratio means something.
//
//   build/native/bench_portable [--repetitions N] [--json]
//   node build/wasm/bench/bench_wasm.js [--repetitions N] [--json]
//
// Each repetition runs the case for at least 0.2 s and divides by the calls made; the figure
// reported is the median over the repetitions (10 by default), with the minimum and maximum.
//   estimate: Llama 3 70B, Q4_K_M, 2 x RTX 4090 (one estimate() call)
//   sweep:    sweep() over every catalog GPU x 1..8 GPUs x every weight format, Llama 3 70B
//   plan:     the inference plan() of bench_plan.cpp's BM_PlanInference70B: Llama 3 70B served by
//             vLLM on up to 64 H100, requests of 1,000 + 1,000 tokens, TPOT <= 30 ms (issue
//             budget: under 100 ms natively, under 1 s in the browser, bench/web_budgets.mjs)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpusizer/gpusizer.hpp"
#include "gpusizer/plan.hpp"
#include "bench_cases.hpp"

#ifdef __EMSCRIPTEN__
#include "embedded.hpp"
#endif

namespace {

const gpusizer::Catalog& catalog() {
#ifdef __EMSCRIPTEN__
    return gpusizer::web::embedded_catalog();
#else
    static const gpusizer::Catalog c = gpusizer::load_catalog(GPUSIZER_BENCH_ASSETS);
    return c;
#endif
}

using Clock = std::chrono::steady_clock;

struct Timing {
    double median = 0, min = 0, max = 0;   // seconds per call
    long long calls = 0;                   // calls in one repetition (the last)
};

volatile double g_sink = 0;   // keeps the results alive

template <typename F>
Timing time_it(F&& f, int repetitions) {
    std::vector<double> per_call;
    Timing t;
    f();   // warm up: the catalog's lazy parts, caches
    for (int r = 0; r < repetitions; ++r) {
        long long n = 0;
        const auto start = Clock::now();
        double elapsed = 0;
        do {
            for (int i = 0; i < 16; ++i) f();
            n += 16;
            elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        } while (elapsed < 0.2);
        per_call.push_back(elapsed / double(n));
        t.calls = n;
    }
    std::sort(per_call.begin(), per_call.end());
    const std::size_t k = per_call.size();
    t.median = k % 2 ? per_call[k / 2] : 0.5 * (per_call[k / 2 - 1] + per_call[k / 2]);
    t.min = per_call.front();
    t.max = per_call.back();
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    int repetitions = 10;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (std::strcmp(argv[i], "--repetitions") == 0 && i + 1 < argc) {
            repetitions = std::atoi(argv[++i]);
            if (repetitions < 1 || repetitions > 1000) {
                std::fprintf(stderr, "bench: --repetitions must be 1 to 1000\n");
                return 2;
            }
        } else {
            std::fprintf(stderr, "usage: bench [--repetitions N] [--json]\n");
            return 2;
        }
    }
    try {
        const gpusizer::Catalog& cat = catalog();
        gpusizer::Config one;
        one.model.id = "llama-3-70b";
        one.weights = "q4_k_m";
        one.gpu = "rtx-4090";
        one.gpus = 2;
        gpusizer::Config sweep_base;
        sweep_base.model.id = "llama-3-70b";
        std::size_t points = 0;

        const Timing estimate = time_it([&] { g_sink = g_sink + gpusizer::estimate(one, cat).per_gpu.total(); }, repetitions);
        const Timing sweep = time_it(
            [&] {
                const auto p = gpusizer::sweep(sweep_base, cat, 8);
                points = p.size();
                g_sink = g_sink + double(p.size());
            },
            repetitions);
        const gpusizer::PlanRequest q = gpusizer::bench::inference_plan_70b();
        long long plan_points = 0;
        const Timing plan = time_it(
            [&] {
                const gpusizer::PlanReport p = gpusizer::plan(q, cat);
                plan_points = p.evaluated;
                g_sink = g_sink + double(p.pareto.size());
            },
            repetitions);
#ifdef __EMSCRIPTEN__
        const char* where = "wasm";
#else
        const char* where = "native";
#endif
        if (json) {
            std::printf("{\"where\": \"%s\", \"repetitions\": %d, \"estimate_s\": {\"median\": %.6e, \"min\": %.6e, \"max\": %.6e}, "
                        "\"sweep_s\": {\"median\": %.6e, \"min\": %.6e, \"max\": %.6e}, \"sweep_points\": %zu, "
                        "\"plan_inference_s\": {\"median\": %.6e, \"min\": %.6e, \"max\": %.6e}, \"plan_points\": %lld}\n",
                        where, repetitions, estimate.median, estimate.min, estimate.max, sweep.median, sweep.min, sweep.max, points,
                        plan.median, plan.min, plan.max, plan_points);
        } else {
            std::printf("%s, %d repetitions (median, min-max)\n", where, repetitions);
            std::printf("  one estimate  %8.3f us  (%.3f-%.3f)\n", estimate.median * 1e6, estimate.min * 1e6, estimate.max * 1e6);
            std::printf("  sweep (%zu)  %8.3f ms  (%.3f-%.3f)\n", points, sweep.median * 1e3, sweep.min * 1e3, sweep.max * 1e3);
            std::printf("  inference plan (%lld points)  %8.3f ms  (%.3f-%.3f)\n", plan_points, plan.median * 1e3, plan.min * 1e3,
                        plan.max * 1e3);
        }
    } catch (const gpusizer::Error& e) {
        std::fprintf(stderr, "bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
