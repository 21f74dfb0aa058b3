// gpusizer/simulate.hpp: request-level serving simulation. Requests arrive (a Poisson or gamma
// process at `request_rate`, or a trace); each replica's engine runs them as its scheduler does,
// step by step: continuous batching under the token budget and the cap on sequences, KV blocks
// admitted while the pool holds them, the last-admitted request preempted (recomputed) when it
// does not. Every step's time is serving.cpp's step model, the one the steady-state figures
// (Report::serving) come from, so the two agree where both apply: one request in flight at a
// light load, and the steady state's throughput at saturation. What the steady state cannot give
// comes out of the requests' own times: latency percentiles, queueing under bursts, preemptions,
// and goodput under a latency objective. docs/formulas.md, "Request-level simulation".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer {

// One request of a trace: when it arrives (seconds from the trace's start) and its lengths.
struct TraceRequest {
    double arrival_s = 0;
    long long input_tokens = 0;
    long long output_tokens = 0;
};

// A trace's text: the Azure LLM inference trace CSV (a header TIMESTAMP,ContextTokens,
// GeneratedTokens; timestamps "2023-11-16 18:15:46.6805900" or seconds) or JSON Lines of
// {"arrival_s", "input_tokens", "output_tokens"}. Arrivals are sorted and made relative to the
// first. Throws Error("trace", ...) naming the line that does not read.
std::vector<TraceRequest> parse_trace(std::string_view text);

enum class LengthDistribution { fixed, uniform, lognormal };
std::string_view to_string(LengthDistribution d);
LengthDistribution parse_length_distribution(std::string_view s);   // throws Error naming "lengths"

struct SimulationOptions {
    // Arrivals (without a trace): `requests` at the configuration's request_rate (0: all at once,
    // benchmark_serving's "inf"), the gaps drawn from a gamma distribution of shape `burstiness`
    // (1: Poisson; below 1 burstier), as vLLM's benchmark_serving --burstiness draws them.
    int requests = 0;   // 0: 1,000, or a trace's every request
    std::uint64_t seed = 0;   // the draws are the same for the same seed on every platform
    double burstiness = 1;
    // Lengths around the configuration's isl / osl: fixed; uniform over [L(1 - s), L(1 + s)]
    // (benchmark_serving's --random-range-ratio); lognormal of sigma s with mean L.
    LengthDistribution lengths = LengthDistribution::fixed;
    double length_spread = 0;
    double prefix_hit_rate = 0;   // the share of each prompt already in the prefix cache: not prefilled
    // A client that keeps at most this many requests outstanding (benchmark_serving's
    // --max-concurrency): the next is sent as one completes, its latencies timed from then. With
    // request_rate 0, a closed loop of this many users. 0: no limit.
    int max_concurrency = 0;
    // Latency objectives for goodput (0: none).
    double slo_ttft_ms = 0;
    double slo_tpot_ms = 0;
    std::vector<TraceRequest> trace;   // when not empty, the requests (isl, osl and the rate are not used)
    int timeline_points = 120;   // samples of the run for the charts
    // Instead of the configuration's request_rate, the highest rate whose latencies at `percentile`
    // (50, 90 or 99) meet the objectives above while the engines keep up (MLPerf Inference's server
    // scenario: the largest target QPS whose p99 TTFT and TPOT stay within its limits). The report is
    // the run at that rate; SimulationReport::max_rate says how it was found.
    bool max_rate = false;
    int percentile = 99;
};

// Latencies over the completed requests: numpy.percentile's linear interpolation, as
// benchmark_serving reports them.
struct LatencyStats {
    double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};

// The run over time, averaged over equal slices of it (all replicas).
struct SimulationSample {
    double t_s = 0;   // the slice's start
    double running = 0;   // requests in flight (mean)
    double waiting = 0;   // requests queued (mean)
    double kv_used_fraction = 0;   // share of the KV pools the running requests hold (mean over replicas)
};

// The search for the highest rate within the objectives (SimulationOptions::max_rate).
struct MaxRateSearch {
    bool asked = false;
    double rps = 0;   // the highest rate found within the objectives, all replicas (0: not even a light load meets them)
    double saturated_rps = 0;   // the steady state's completion rate at saturation: the search's upper bound
    int percentile = 99;
    int simulations = 0;   // runs the search took
    long long requests = 0;   // requests each run simulated
};

struct SimulationReport {
    long long requests = 0;   // simulated
    long long completed = 0;
    long long rejected = 0;   // longer than the engine's context, or than one replica's pool
    long long preemptions = 0;   // a running request evicted to free KV blocks (recomputed later)
    long long steps = 0;   // engine steps, all replicas
    double duration_s = 0;   // the first arrival to the last completion
    double requests_per_s = 0;   // completed / duration
    double output_tokens_per_s = 0;   // generated tokens / duration
    double input_tokens_per_s = 0;
    LatencyStats ttft_s;   // arrival to first token
    LatencyStats tpot_s;   // (e2e - ttft) / (output tokens - 1), requests of 2 tokens or more
    LatencyStats e2e_s;   // arrival to last token
    double slo_ttft_ms = 0, slo_tpot_ms = 0;
    double slo_attained_fraction = 0;   // of completed requests, those within both objectives (1 without objectives)
    double goodput_rps = 0;   // those requests per second of the run
    double mean_running = 0;   // requests in flight, time-averaged over the run, all replicas
    double peak_kv_used_fraction = 0;
    double max_concurrency = 0;   // the engine's cap on requests in flight, all replicas (sequences and pool at isl + osl)
    int replicas = 1;
    double request_rate = 0;   // the arrival rate simulated (0: all at once; a trace: its mean)
    // The estimate of the same configuration: the memory, and in report.serving the steady-state
    // figures for the same load (isl / osl the means, the same rate).
    Report report;
    std::vector<SimulationSample> timeline;
    MaxRateSearch max_rate;
    std::vector<std::string> warnings;
    double wall_s = 0;   // seconds the simulation took to run
};

// The options as JSON (simulation_io.cpp): {"requests", "seed", "burstiness", "lengths",
// "length_spread", "prefix_hit_rate", "slo_ttft_ms", "slo_tpot_ms", "timeline_points", "max_concurrency", "trace"
// (the trace's text), "max_rate", "percentile"}; "" = the defaults. Throws Error naming the field.
SimulationOptions simulation_options_from_json(std::string_view text);

// Simulates the configuration (an inference configuration with isl and osl, or a trace) and
// returns the requests' latencies and the engine's throughput. Throws Error naming the key for
// a configuration that cannot serve (training, no load, a model that does not fit).
SimulationReport simulate(const Config& config, const Catalog& catalog, const SimulationOptions& options);

// The simulation as the CLI's and the JS API's JSON: {"simulation": {...}, "report": estimate's}
// (report_json.cpp).
std::string simulation_to_json(const SimulationReport& s, int indent = 2);

}   // namespace gpusizer
