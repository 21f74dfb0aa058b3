// simulation_internal.hpp (internal): what simulate.cpp and arrivals.cpp share.
#pragma once

#include <cstdint>
#include <vector>

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

// `n` requests at `rate` per second (0: all at t = 0), lengths around isl / osl as `o` says.
std::vector<TraceRequest> draw_requests(const SimulationOptions& o, int n, double rate, double isl, double osl);

}   // namespace gpusizer::detail
