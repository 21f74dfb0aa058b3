// simulation_internal.hpp (internal): what simulate.cpp and arrivals.cpp share.
#pragma once

#include <cstdint>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/simulate.hpp"

namespace gpusizer::detail {

// The simulation's random numbers (arrivals.cpp): the same sequence for a seed on every platform.
class SimRandom {
public:
    explicit SimRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    double uniform();   // [0, 1)
    double normal();   // standard normal
    double gamma(double shape);   // gamma of scale 1

private:
    std::uint64_t state_;
    double spare_ = 0;
    bool have_spare_ = false;
};

struct ServingModel;   // serving.hpp

// The engines of `dp` replicas of the serving model `m` run `requests` (each to a replica in
// turn); the figures go into `out` (all but out.report and out.request_rate). `context_given`:
// the configuration set the context (a refusal's warning says to raise it).
void simulate_requests(const ServingModel& m, int dp, const std::vector<TraceRequest>& requests, const SimulationOptions& o,
                       bool context_given, SimulationReport& out);

// The mean and numpy.percentile's linear p50 / p90 / p99 of `values` (zeros when empty).
LatencyStats latency_stats(std::vector<double> values);

// A latency's p50, p90 or p99 (`percentile` 50, 90 or 99).
inline double at_percentile(const LatencyStats& l, int percentile) {
    return percentile == 50 ? l.p50 : percentile == 90 ? l.p90 : l.p99;
}

// Whether a run met the objectives (ms; 0: none) at `percentile` with the engines keeping up: the
// steady state at its rate is not past saturation (a finite run past it only queues more and more).
bool within_objectives(const SimulationReport& s, double ttft_ms, double tpot_ms, int percentile);

// The run at the highest rate within the options' objectives (max_rate.cpp); simulate() calls it
// when options.max_rate is set, and it calls simulate() without it.
SimulationReport simulate_max_rate(const Config& config, const Catalog& catalog, const SimulationOptions& o);

// `n` requests at `rate` per second (0: all at t = 0), lengths around isl / osl as `o` says.
std::vector<TraceRequest> draw_requests(const SimulationOptions& o, int n, double rate, double isl, double osl);

}   // namespace gpusizer::detail
