// max_rate.cpp: the highest request rate a configuration serves within latency objectives at a
// percentile (`gpusizer simulate --max-rate`, the options' "max_rate"). This is what MLPerf
// Inference's server scenario reports: the largest target QPS of Poisson arrivals whose p99 TTFT
// and TPOT stay within the benchmark's limits. The search bisects the rate between a light load
// and the steady state's saturated rate (a replica cannot complete more), each probe one simulation
// of the same drawn requests, the gaps scaled by the rate (the same seed), so that a higher rate
// is the same run compressed in time.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/format.hpp"
#include "gpusizer/simulate.hpp"
#include "simulation_internal.hpp"

namespace gpusizer::detail {

namespace {

// Bisection steps between a light load and saturation: the rate to 1/2^10 of the saturated one
// (0.1%), finer than the percentiles of a run of thousands of requests resolve.
constexpr int kBisections = 10;
// The light load the objectives must hold at for any rate to: 1% of the saturated rate.
constexpr double kLightLoad = 0.01;
// Requests a probe simulates when the options give none: ten times what the engines hold at
// saturation, so that the run's steady middle outweighs its ramp up and its drain (the p99 of a
// run mostly at its full batch), within 1,000 and 20,000 (as plan --target-rps; a search of seconds).
constexpr double kRunsOfFullBatch = 10;
constexpr int kMinRequests = 1000, kMaxRequests = 20000;

}   // namespace

bool within_objectives(const SimulationReport& s, double ttft_ms, double tpot_ms, int percentile) {
    if (s.report.serving.active && s.report.serving.bound == "overloaded") return false;
    return (ttft_ms <= 0 || at_percentile(s.ttft_s, percentile) * 1e3 <= ttft_ms) &&
           (tpot_ms <= 0 || at_percentile(s.tpot_s, percentile) * 1e3 <= tpot_ms);
}

SimulationReport simulate_max_rate(const Config& config, const Catalog& catalog, const SimulationOptions& o) {
    const auto started = std::chrono::steady_clock::now();
    if (!o.trace.empty())
        throw_error("max_rate", "searches the arrival rate of drawn requests: not with a trace, whose arrivals are given");
    if (o.slo_ttft_ms <= 0 && o.slo_tpot_ms <= 0)
        throw_error("max_rate", "needs slo_ttft_ms or slo_tpot_ms: the objectives the rate must meet");
    if (config.isl <= 0 || config.osl <= 0) throw_error("isl", "simulate needs isl and osl (the tokens of each request), or a trace");
    // The upper bound: what the engines complete at saturation (no rate, no concurrency: as many
    // requests as they hold).
    Config c = config;
    c.request_rate = 0;
    c.concurrency = 0;
    const Report saturated = estimate(c, catalog);
    if (!saturated.fits)
        throw_error("gpus", saturated.model_name + " does not fit " + std::to_string(c.gpus) + " x " + saturated.gpu_name +
                                " with this context: nothing to simulate (gpusizer estimate says what takes the memory)");
    const double top = saturated.serving.requests_per_s;
    if (!(top > 0)) throw_error("max_rate", "the engines complete no requests at saturation: nothing to search");
    SimulationOptions probe = o;
    probe.max_rate = false;
    if (probe.requests == 0)
        probe.requests = int(std::clamp(std::ceil(kRunsOfFullBatch * saturated.config.concurrency), double(kMinRequests), double(kMaxRequests)));

    MaxRateSearch search;
    search.asked = true;
    search.saturated_rps = top;
    search.percentile = o.percentile;
    search.requests = probe.requests;
    auto run = [&](double rate) {
        c.request_rate = rate;
        ++search.simulations;
        return simulate(c, catalog, probe);
    };
    auto meets = [&](const SimulationReport& s) { return within_objectives(s, o.slo_ttft_ms, o.slo_tpot_ms, o.percentile); };

    // The first probe is just under saturation, the bisection's own resolution below it: at the
    // saturated rate itself the steady state is overloaded (serving.cpp), so a run there never
    // meets the objectives and would be spent. Loose objectives end the search in one run.
    std::optional<SimulationReport> best, light;
    double lo = kLightLoad * top, hi = top * (1 - std::ldexp(1.0, -kBisections));
    if (SimulationReport s = run(hi); meets(s)) {
        best = std::move(s);   // the objectives hold up to saturation
        lo = hi;
    } else if (light = run(lo); meets(*light)) {
        best = std::move(*light);
        for (int i = 0; i < kBisections; ++i) {
            const double mid = 0.5 * (lo + hi);
            SimulationReport at = run(mid);
            if (meets(at)) {
                lo = mid;
                best = std::move(at);
            } else {
                hi = mid;
            }
        }
    }
    SimulationReport out;
    if (best) {
        out = std::move(*best);
        search.rps = lo;
    } else {
        // Not even a light load meets them: the run at the light load says by how much.
        out = std::move(*light);
        search.rps = 0;
        char buf[160];
        std::snprintf(buf, sizeof buf, "no rate meets the objectives: at %.3g requests/s (1%% of saturation) the p%d TTFT is %.0f ms and TPOT %.1f ms",
                      lo, o.percentile, at_percentile(out.ttft_s, o.percentile) * 1e3, at_percentile(out.tpot_s, o.percentile) * 1e3);
        out.warnings.insert(out.warnings.begin(), buf);
    }
    out.max_rate = search;
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();   // the whole search
    return out;
}

}   // namespace gpusizer::detail
