// ui/plan_state.hpp: what the Plan tab asks and shows, without ImGui (tests/test_ui_plan.cpp).
// The search runs only when the tab's button asks for it (plan() takes tens of milliseconds to
// seconds), never per frame. The tab has two searches: training layouts (plan_request) and
// serving layouts (serving_plan_request), whose Pareto front the tab draws as a chart; the
// chart's axes and the mapping of its points are here (pareto_chart, ParetoChart::to_screen).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/plan.hpp"
#include "gpusizer/simulate.hpp"

namespace gpusizer::ui {

// What the tab shows: a search of training or serving layouts, or a request-level simulation of
// the current configuration (view_simulate.cpp).
enum class PlanKind { training, serving, simulation };

// The Plan tab's own fields; the model, GPU, GPU count, context and precision come from the
// current configuration.
struct PlanInputs {
    PlanKind kind = PlanKind::training;   // the view follows the configuration's mode until the switch is used
    int global_batch = 0;          // sequences per step; 0 = the configuration's (else 8 per GPU)
    int top = 5;
    double tokens_billions = 0;    // D in billions of tokens; 0 = no run figures
    bool offload = true;
    bool expert_parallel = true;
    int max_micro_batch = 16;      // the tab's default keeps a click under a second for large searches
    // Serving: the load per request, the latency targets of the best point, disaggregation.
    long long isl = 0, osl = 0;    // input and output tokens per request; 0 = the configuration's (serving_load)
    double max_ttft_ms = 0;        // time to first token, ms; 0 = no limit
    double max_tpot_ms = 0;        // time per output token, ms; 0 = no limit
    bool disaggregated = false;    // also prefill and decode on separate pools of GPUs
};

// The load the serving search uses: the tab's isl and osl, else the configuration's, else
// 1,024 input and 1,024 output tokens, the "1k/1k" shape of serving benchmarks (SemiAnalysis
// InferenceMAX's fixed-seq-len scenario isl 1024 / osl 1024: github.com/SemiAnalysisAI/InferenceX,
// .github/configs/nvidia-master.yaml).
struct ServingLoad {
    long long isl = 0, osl = 0;
    const char* source = "";       // "set here", "the configuration's isl and osl", "a default: none configured" (English)
};
constexpr long long kDefaultIsl = 1024, kDefaultOsl = 1024;
ServingLoad serving_load(const Config& current, const PlanInputs& in);

// The request for the current configuration: mode train, the tab's fields over it.
PlanRequest plan_request(const Config& current, const PlanInputs& in);

// The serving search for the current configuration: mode inference at serving_load(), the
// tab's targets; training settings of the configuration (ZeRO, offload, global batch) dropped.
PlanRequest serving_plan_request(const Config& current, const PlanInputs& in);

// The simulation's own fields (gpusizer/simulate.hpp); the load is serving_load()'s.
struct SimulationInputs {
    double request_rate = 0;       // requests per second; 0 = the configuration's, else kDefaultSimulationRate
    int requests = 1000;
    double burstiness = 1;         // 1: Poisson
    LengthDistribution lengths = LengthDistribution::fixed;
    double length_spread = 0.5;    // uniform: +-50%; lognormal: sigma 0.5
    double slo_ttft_ms = 0, slo_tpot_ms = 0;
    unsigned seed = 0;
};
// The rate the tab starts at when the configuration gives none: half of what the engines
// sustain at steady state (Report::serving at saturation), two significant digits, so that queues
// form and drain; 1 request/s when the model does not fit or the estimate has no serving figures.
double default_simulation_rate(const Config& serving, const Catalog& catalog);

// The simulation of the current configuration: inference at serving_load() (the Plan tab's
// load fields), the tab's rate (else the configuration's, else default_simulation_rate()), a
// serving configuration's concurrency dropped (a simulation's load is its arrivals); and its options.
Config simulation_config(const Config& current, const Catalog& catalog, const PlanInputs& plan, const SimulationInputs& in);
SimulationOptions simulation_options(const SimulationInputs& in);
// The same options searching the highest rate whose p99 TTFT and TPOT meet the tab's objectives
// (the "highest rate" button; at least one objective must be set).
SimulationOptions max_rate_options(const SimulationInputs& in);

// One table row's cells, as text (the same formatting natively and in the browser).
struct PlanRowText {
    std::string layout;     // "tp 8 pp 16 dp 128, ZeRO 1, selective, interleaved v2"
    std::string step;       // "16.0 s"
    std::string compute, bubble, exposed;
    std::string mfu, hfu;   // "0.43"
    std::string memory;     // per GPU, "61.2 GiB"
    std::string run;        // "54.2 days, $12.3 M" or "" without tokens
};
PlanRowText plan_row_text(const PlanLayout& l);

// The memory breakdown of a layout, largest first: {"optimizer", "20.1 GiB"}, ...
std::vector<std::pair<std::string, std::string>> plan_memory_parts(const PlanLayout& l);

// One serving layout's cells: a point of the search (the best, the Pareto front) or a layout of
// top[] as estimate() reports it.
struct ServingRowText {
    std::string tp, pp, dp, ep;
    std::string concurrency;        // requests in flight, all replicas: "96"
    std::string per_gpu, per_user;  // output tokens/s: "1,850", "23.4"
    std::string ttft, tpot;         // "412 ms", "42.7 ms"
    std::string memory;             // most loaded GPU: "61.2 GiB"
    std::string bound;              // "memory_bandwidth" (the core's word: bound_text() shows it)
    std::string note;               // disaggregated: "decode pool; prefill tp 2 x dp 3", else ""
};
ServingRowText serving_row_text(const PlanPoint& p);
// What limits a serving load (ServingReport::bound, the core's word: "memory_bandwidth") for
// people, in the app's language: "memory bandwidth" ("banda de memória").
std::string bound_text(std::string_view bound);
ServingRowText serving_row_text(const PlanLayout& l);

// A latency target in milliseconds as the tab writes it: "50 ms", "0.5 ms" ("0,5 ms" in pt-BR).
std::string ms_text(double ms);
// The targets as text: "TTFT <= 500 ms, TPOT <= 50 ms", or "no targets" (in the app's language).
std::string serving_targets_text(const PlanRequest& q);
// The search's line: "610 points evaluated, 412 fit, 97 meet the targets (TPOT <= 50 ms), 0.6 ms".
std::string serving_search_text(const PlanReport& p, const PlanRequest& q);
// Why there is no best point ("" when there is one): nothing fits, or nothing meets the targets.
std::string serving_verdict_text(const PlanReport& p, const PlanRequest& q);

// Why a training search has no layout to show ("" when it has one).
std::string training_verdict_text(const PlanReport& p);

// A search in brief, for the app's status (ui/status.cpp writes it as `plan` in
// window.gpusizerApp and the desktop's --layout file, named as plan_to_json names them): the
// counts, why there is no best, and the best layout's degrees and figures.
struct PlanSummary {
    PlanMode mode = PlanMode::train;
    long long evaluated = 0, fitting = 0;
    long long meeting = 0;                 // serving: the points that meet the targets
    std::string verdict;                   // serving_verdict_text / training_verdict_text ("" with a best)
    std::string error;                     // the search's Error when it threw (then nothing else is set)
    bool has_best = false;
    // The best: serving, the best point under the targets (PlanReport::best); training, top[0].
    int tp = 1, cp = 1, pp = 1, dp = 1, ep = 1, gpus = 1;
    bool disaggregated = false;            // serving: gpus counts the prefill pool too
    double concurrency = 0;                // serving: requests in flight, all replicas
    double output_tokens_per_s_per_gpu = 0, tokens_per_s_per_user = 0, ttft_s = 0, tpot_s = 0;   // serving
    double step_s = 0, tokens_per_s = 0;   // training: the step and the training tokens/s
    double memory_per_gpu = 0;             // bytes on the most loaded GPU
};
PlanSummary plan_summary(const PlanReport& p, const PlanRequest& q);

// The Pareto chart: x = output tokens/s per user, y = output tokens/s per GPU, both from 0 to a
// "nice" maximum (1, 2 or 5 x 10^k steps) above the largest point; the best point under the
// targets marked; the TPOT target as the per-user speed it asks, 1000 / max_tpot_ms tokens/s.
struct ChartAxis {
    double max = 1;                 // the axis runs from 0 to max
    double step = 1;                // between ticks
};
// An axis from 0 over `largest`, about `ticks` ticks.
ChartAxis nice_axis(double largest, int ticks);
struct ChartPoint {
    double x = 0, y = 0;            // tokens/s per user, tokens/s per GPU
};
struct ParetoChart {
    ChartAxis x, y;
    std::vector<ChartPoint> front;  // slowest per user first (the report's order)
    bool has_best = false;
    ChartPoint best;
    double min_per_user = 0;        // the TPOT target's speed per user (0: none)
    // A point's place in a plot area whose corners are (left, top) and (right, bottom), screen
    // coordinates (y grows downwards).
    ChartPoint to_screen(ChartPoint v, double left, double top, double right, double bottom) const;
};
ParetoChart pareto_chart(const PlanReport& p, const PlanRequest& q);
// A tick's label: "0", "250", "1.5 k", "20 k".
std::string axis_label(double v, double step);

}  // namespace gpusizer::ui
