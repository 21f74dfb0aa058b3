// gpusizer/plan.hpp: the layout search. For a model, a GPU type and count, a global batch and a
// sequence length, which parallel layout runs fastest and fits?
//
// A search has a mode. `train` enumerates tp, cp (context parallelism), pp, dp (ZeRO stage), ep
// (expert parallelism, MoE models), the micro-batch, the pipeline schedule with its virtual stages, activation
// recomputation and optimizer offload (ZeRO-Offload, ZeRO-Infinity); keeps the layouts that fit;
// ranks them by step time; and re-runs the best through estimate() for the breakdowns it
// reports, with the time and cost to train on `tokens`. Another mode (`inference`: serving layouts) plugs in as one more search function
// behind plan(): the request, the ranked layouts and the search statistics stay the same.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer {

enum class PlanMode { train, inference };
std::string_view to_string(PlanMode m);
PlanMode parse_plan_mode(std::string_view s);   // throws Error naming "mode"

struct PlanRequest {
    PlanMode mode = PlanMode::train;
    // The fixed part: model, gpu, gpus, global_batch, context, weights, optimizer, links, mfu, ...
    // tp, cp, pp, dp, ep, batch, zero, offload, recompute, pp_schedule and virtual_stages are
    // what the search sets (their values here are ignored).
    Config base;
    int top = 5;                    // layouts to report (1 to 100)
    int max_micro_batch = 64;       // largest micro-batch tried (sequences)
    int max_virtual_stages = 8;     // largest interleaving tried
    // Inference (serving layouts): base.isl and base.osl give the load; the search sets tp, pp,
    // dp, ep and the concurrency. Latency targets for the best point (0: no limit).
    double max_ttft_ms = 0;         // time to first token, milliseconds
    double max_tpot_ms = 0;         // time per output token after the first, milliseconds
    bool disaggregated = false;     // also search prefill and decode on separate pools of GPUs
    // Sizing for a target (core/src/simulation/target.cpp): requests arriving at target_rps per
    // second, the fewest GPUs whose layout meets max_ttft_ms and max_tpot_ms at this percentile
    // (50, 90 or 99) of the requests, by request-level simulation. 0: the layout search above.
    double target_rps = 0;
    int percentile = 90;
    // With target_rps: the same search on every GPU type of the catalog (base.gpu is ignored), at
    // most base.gpus of each, ranked by cost per million output tokens (TargetReport::by_gpu).
    bool cheapest_gpu = false;
    double tokens = 0;              // D: tokens to train on, for the time and cost of the run; 0 = base.train_tokens (0: not asked)
    bool offload = true;            // also try optimizer offload (ZeRO-1/2/3) and optimizer + parameter offload (ZeRO-3)
    bool expert_parallel = true;    // MoE models: also try ep = 2, 4, ... (dividing tp x cp x dp and the routed experts)
    bool context_parallel = true;   // training: also try cp = 2, 4, ... (2 x cp dividing the context, >= 4,096 tokens per GPU)
};

// Inference: one serving layout at one load, as the search evaluated it (serving.cpp's figures).
struct PlanPoint {
    int tp = 1, pp = 1, dp = 1, ep = 1;
    int gpus = 1;                   // tp x pp x dp (at most the request's gpus)
    int batch = 1;                  // fixed-slot engines (llama.cpp, transformers): slots per replica
    double concurrency = 0;         // requests in flight, all replicas
    double memory = 0;              // bytes on the most loaded GPU
    ServingReport serving;          // output tokens/s (per GPU, per user), TTFT, TPOT, bound
    // Disaggregated (prefill_gpus > 0): tp, dp, concurrency and memory above are the decode
    // pool's, gpus both pools together; the prefill pool runs prefill_dp replicas of prefill_tp.
    int prefill_tp = 0, prefill_dp = 0, prefill_gpus = 0;
};

// The run of `tokens` on one layout. Cost = electricity (power.cost_usd at usd_per_kwh) + the
// GPUs' purchase price (gpus.json price_usd) amortized over kGpuAmortizationYears; without a
// price the cost is 0 and cost_note says why.
struct PlanRun {
    double tokens = 0;              // D
    double seconds = 0;             // D / tokens per second
    double gpu_hours = 0;           // seconds x gpus / 3600
    double wall_seconds = 0;        // seconds / goodput: interruptions, checkpoints, evaluation and ramp counted
    double wall_gpu_hours = 0;      // wall_seconds x gpus / 3600: the hours the GPUs are held
    double goodput_fraction = 0;    // seconds / wall_seconds (0: the run never finishes)
    double energy_usd = 0;          // electricity, facility power (PUE) included
    double hardware_usd = 0;        // the GPUs' amortized share (0: no price)
    double cost_usd = 0;            // energy_usd + hardware_usd (0: no price)
    std::string cost_note;          // what the cost counts, or why it is left out
};
// Leading AI chips are used about 4 years for frontier training (Epoch AI, "Leading AI chip
// designs are used for around 4 years in frontier training": median 3.9 years from release to the
// last frontier model trained on them; epoch.ai/data-insights/gpu-frontier-lifespan).
constexpr double kGpuAmortizationYears = 4.0;

// Sizing for a target rate (PlanRequest::target_rps): the fewest GPUs found, their layout, and
// the simulated latencies at the percentile asked.
// One GPU type's answer to a target rate (PlanRequest::cheapest_gpu), its costs at that load.
struct TargetGpuRow {
    std::string gpu, name;
    bool met = false;
    int gpus = 0, tp = 1, pp = 1, dp = 1;
    double ttft_s = 0, tpot_s = 0;            // at the percentile
    bool own_known = false, rent_known = false;
    double own_usd_per_million_tokens = 0;    // owning (cost/cost.cpp: hardware over its lifetime + electricity)
    double rent_usd_per_million_tokens = 0;   // renting the GPUs at the catalog's median price
    std::string why;                          // not met: why (the last shape's reason, or the refusal)
};

struct TargetReport {
    bool asked = false;
    bool met = false;               // a layout within the request's GPUs meets the targets
    double rps = 0;
    int percentile = 90;
    int gpus = 0, tp = 1, pp = 1, dp = 1;
    double ttft_s = 0, tpot_s = 0;  // at the percentile
    double output_tokens_per_s = 0;
    double goodput_rps = 0;         // requests per second within both targets
    long long simulations = 0;      // runs simulated
    long long requests = 0;         // requests each run simulated (at most; more replicas, more)
    std::vector<std::string> shapes;   // each replica shape tried, and what it took or why it cannot
    // cheapest_gpu: every GPU type, those that meet the targets first, by the cost per million
    // output tokens of owning them (renting where no purchase price is known), cheapest first.
    std::vector<TargetGpuRow> by_gpu;
};

// One layout, as the search ranked it and as estimate() reports it.
struct PlanLayout {
    Config config;                  // the layout as a configuration (estimate(config) gives `report`)
    Report report;                  // memory and time breakdowns
    double step_s = 0;              // the search's figures (equal to report.speed.train_step_s
    double memory = 0;              // and report.per_gpu.total(): tests/test_plan.cpp)
    PlanRun run;                    // the run of the request's tokens (zeros when none were asked)
};

struct PlanReport {
    PlanMode mode = PlanMode::train;
    std::vector<PlanLayout> top;    // best first
    std::vector<std::string> why;   // why the best beats the next: the figures that differ, largest first
    long long evaluated = 0;        // layouts whose memory and time were computed
    long long fitting = 0;          // of those, the ones that fit
    double seconds = 0;             // wall time of the search
    // Inference only: the Pareto front of output tokens/s per GPU against tokens/s per user (no
    // point on it is beaten on both; slowest per user first), and the best point under the
    // request's max_ttft_ms and max_tpot_ms (the most tokens/s per GPU; has_best false: no layout
    // fits or none meets them). top[] holds the best points under the targets through estimate().
    std::vector<PlanPoint> pareto;
    bool has_best = false;
    PlanPoint best;
    long long meeting = 0;          // points that fit and meet the latency targets
    double tokens = 0;              // D the runs are for (0: not asked)
    TargetReport target;            // sizing for a target rate (inference with target_rps; asked false otherwise)
    // Dimensions the search does not enumerate, each with the reason (e.g. context parallelism).
    std::vector<std::string> not_searched;
};

// `measured`: GPUs that stand in for the catalog's (GpuOverlay, a benchmark report's calibrated
// GPU), as in EstimateOptions: every layout the search evaluates and every estimate() it confirms
// with uses them.
PlanReport plan(const PlanRequest& request, const Catalog& catalog, const GpuOverlay* measured = nullptr);

// The search's inner loop alone, for the benchmark: evaluates every layout of `request` without
// building reports, and returns how many it evaluated (the best step time in *best_step_s;
// inference: the best output tokens/s per GPU under the targets). `measured` as in plan().
long long plan_count(const PlanRequest& request, const Catalog& catalog, double* best_step_s, const GpuOverlay* measured = nullptr);

std::string plan_to_json(const PlanReport& p, int indent = 2);   // report_json.cpp

// A request from JSON text: `config` is a configuration (docs/config.md), `query` an object with
// the search's own fields, each optional: mode ("train" | "inference"; default: inference when
// the configuration's mode is inference and was given, else train), top, max_micro_batch,
// max_virtual_stages, tokens, offload, expert_parallel, context_parallel ("" = {}). Errors name the key.
PlanRequest plan_request_from_json(std::string_view config, std::string_view query);

}  // namespace gpusizer
