// test_ui_plan.cpp: the Plan tab's logic (ui/plan_state.cpp), no display needed: the request it
// builds from the current configuration, and the texts of its table rows; for serving layouts
// also the search's line, the messages when nothing fits or meets the targets, and the Pareto
// chart's axes and point mapping.
#include <algorithm>
#include <cmath>
#include <string>

#include <catch2/catch.hpp>

#include "gpusizer/format.hpp"
#include "gpusizer/gpusizer.hpp"
#include "plan_state.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::ui;
using gpusizer::test::catalog;

namespace {
// The configuration the tab's tests start from: Llama 3 8B on 8 H100 SXM.
Config llama_8b_on_8_h100() {
    Config c = gpusizer::test::config("llama-3-8b", "h100-sxm");
    c.gpus = 8;
    return c;
}
}  // namespace

TEST_CASE("plan tab: the request from the current configuration", "[ui][plan]") {
    Config c = llama_8b_on_8_h100();
    c.batch = 2;
    c.context = 2048;   // an inference configuration: the tab plans its training
    PlanInputs in;
    PlanRequest q = plan_request(c, in);
    CHECK(q.mode == PlanMode::train);
    CHECK(q.base.mode == Mode::train);
    CHECK(q.base.global_batch == 16);   // no global batch given: batch 2 on each of 8 GPUs
    CHECK(q.tokens == 0);
    in.global_batch = 64;
    in.tokens_billions = 15000;   // Llama 3's 15T tokens
    in.top = 500;                 // held to the search's 100
    in.offload = false;
    q = plan_request(c, in);
    CHECK(q.base.global_batch == 64);
    CHECK(q.tokens == 15e12);
    CHECK(q.top == 100);
    CHECK_FALSE(q.offload);
}

namespace {

// The Plan tab's training search for `model` on `gpus` H100s at `context` tokens.
PlanReport h100_training_plan(const char* model, int gpus, int context, int global_batch, int top, double tokens_billions = 0) {
    Config c;
    c.model.id = model;
    c.gpu = "h100-sxm";
    c.gpus = gpus;
    c.context = context;
    PlanInputs in;
    in.global_batch = global_batch;
    in.tokens_billions = tokens_billions;
    in.top = top;
    return plan(plan_request(c, in), catalog());
}

}  // namespace

TEST_CASE("plan tab: the rows it shows", "[ui][plan]") {
    const PlanReport p = h100_training_plan("llama-3-8b", 8, 2048, 16, 3, 1000);
    REQUIRE(p.top.size() == 3);
    const PlanRowText t = plan_row_text(p.top[0]);
    const Config& l = p.top[0].config;
    CHECK(t.layout.rfind("tp " + std::to_string(l.tp) + " pp " + std::to_string(l.pp) + " dp " + std::to_string(l.dp), 0) == 0);
    CHECK(t.step == format_duration(p.top[0].report.speed.train_step_s));
    CHECK(t.memory == format_gib(p.top[0].report.per_gpu.total(), 1));
    CHECK(t.run.find("days") != std::string::npos);   // 1T tokens on 8 GPUs take days
    CHECK(t.run.find('$') != std::string::npos);      // the H100 has a catalog price
    // The memory parts: all five, largest first.
    const auto parts = plan_memory_parts(p.top[0]);
    REQUIRE(parts.size() == 5);
    const MemoryParts& m = p.top[0].report.per_gpu;
    const double largest = std::max({m.weights, m.gradients, m.optimizer, m.activations, m.overhead});
    CHECK(parts[0].second == format_gib(largest, 1));
}

// Llama 3.1 70B at 131,072 tokens on 32 H100: no layout fits without context parallelism
// (tests/test_context_parallel.cpp), so the best row names its cp degree.
TEST_CASE("plan tab: a long-context layout's row names its cp degree", "[ui][plan]") {
    const PlanReport p = h100_training_plan("llama-3.1-70b", 32, 131072, 32, 1);
    REQUIRE(!p.top.empty());
    const Config& l = p.top[0].config;
    REQUIRE(l.cp > 1);
    CHECK(plan_row_text(p.top[0]).layout.find(" cp " + std::to_string(l.cp)) != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Serving layouts
// ---------------------------------------------------------------------------------------------

TEST_CASE("plan tab: the serving request from the current configuration", "[ui][plan]") {
    Config c = llama_8b_on_8_h100();
    c.mode = Mode::train;   // a training configuration: the serving search drops what serving refuses
    c.zero = 3;
    c.offload = Offload::optimizer;
    c.global_batch = 64;
    PlanInputs in;
    PlanRequest q = serving_plan_request(c, in);
    CHECK(q.mode == PlanMode::inference);
    CHECK(q.base.mode == Mode::inference);
    CHECK(q.base.zero == 0);
    CHECK(q.base.offload == Offload::none);
    CHECK(q.base.global_batch == 0);
    // No isl and osl in the configuration: the 1k/1k default, said so.
    CHECK(q.base.isl == 1024);
    CHECK(q.base.osl == 1024);
    CHECK(std::string(serving_load(c, in).source) == "a default: none configured");
    CHECK(q.max_ttft_ms == 0);
    CHECK(q.max_tpot_ms == 0);
    CHECK_FALSE(q.disaggregated);
    // The configuration's load, then the tab's over it (each of the two on its own).
    c.isl = 2000;
    c.osl = 300;
    q = serving_plan_request(c, in);
    CHECK(q.base.isl == 2000);
    CHECK(q.base.osl == 300);
    CHECK(std::string(serving_load(c, in).source) == "the configuration's isl and osl");
    in.osl = 4096;
    in.max_ttft_ms = 500;
    in.max_tpot_ms = 50;
    in.disaggregated = true;
    in.top = 0;   // held to the search's 1
    q = serving_plan_request(c, in);
    CHECK(q.base.isl == 2000);
    CHECK(q.base.osl == 4096);
    CHECK(q.max_ttft_ms == 500);
    CHECK(q.max_tpot_ms == 50);
    CHECK(q.disaggregated);
    CHECK(q.top == 1);
    CHECK(serving_targets_text(q) == "TTFT <= 500 ms, TPOT <= 50 ms");
    in.max_ttft_ms = 0;
    CHECK(serving_targets_text(serving_plan_request(c, in)) == "TPOT <= 50 ms");
    in.max_tpot_ms = 0;
    CHECK(serving_targets_text(serving_plan_request(c, in)) == "no targets");
}

TEST_CASE("plan tab: the serving rows, search line and chart of a search", "[ui][plan]") {
    Config c = llama_8b_on_8_h100();
    c.isl = 1024;
    c.osl = 256;
    PlanInputs in;
    in.kind = PlanKind::serving;
    in.max_tpot_ms = 50;   // at least 1000 / 50 = 20 tokens/s per user
    in.top = 3;
    const PlanRequest q = serving_plan_request(c, in);
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.has_best);
    REQUIRE_FALSE(p.top.empty());
    REQUIRE(p.pareto.size() >= 2);
    CHECK(serving_verdict_text(p, q).empty());
    // The search's line: its three counts with thousands separators, the targets, the time.
    const std::string line = serving_search_text(p, q);
    CHECK(line.rfind(format_int(double(p.evaluated)) + " points evaluated, " + format_int(double(p.fitting)) + " fit, " +
                         format_int(double(p.meeting)) + " meet the targets (TPOT <= 50 ms), ",
                     0) == 0);
    // The best layout's row: its degrees and estimate()'s serving figures, formatted.
    const PlanLayout& l = p.top[0];
    const ServingRowText t = serving_row_text(l);
    CHECK(t.tp == std::to_string(l.config.tp));
    CHECK(t.dp == std::to_string(l.config.dp));
    CHECK(t.per_gpu == format_rate(l.report.serving.output_tokens_per_s_per_gpu));
    CHECK(t.per_user == format_rate(l.report.serving.tokens_per_s_per_user));
    CHECK(t.tpot == format_duration(l.report.serving.tpot_s));
    CHECK(t.memory == format_gib(l.report.per_gpu.total(), 1));
    CHECK(t.bound == std::string(l.report.serving.bound));
    CHECK(t.note.empty());
    // The best meets the TPOT target: at least 20 tokens/s per user.
    CHECK(p.best.serving.tokens_per_s_per_user >= 20.0);
    const ServingRowText b = serving_row_text(p.best);
    CHECK(b.concurrency == format_int(std::round(p.best.concurrency)));

    // The chart: every point of the front and the best inside both axes, the TPOT target's
    // speed per user 1000 / 50 = 20 tokens/s, and the best at its figures.
    const ParetoChart ch = pareto_chart(p, q);
    REQUIRE(ch.front.size() == p.pareto.size());
    CHECK(ch.min_per_user == Approx(20.0));
    REQUIRE(ch.has_best);
    CHECK(ch.best.x == p.best.serving.tokens_per_s_per_user);
    CHECK(ch.best.y == p.best.serving.output_tokens_per_s_per_gpu);
    for (const ChartPoint& f : ch.front) {
        CHECK(f.x > 0);
        CHECK(f.x <= ch.x.max);
        CHECK(f.y <= ch.y.max);
    }
    // The front runs from slow per user (most per GPU) to fast per user (least per GPU).
    CHECK(ch.front.front().x < ch.front.back().x);
    CHECK(ch.front.front().y > ch.front.back().y);
}

TEST_CASE("plan tab: serving searches that find nothing say why", "[ui][plan]") {
    // Llama 3.1 405B in BF16 is 405e9 x 2 bytes = 810 GB of weights; two RTX 4090s hold 48 GB.
    Config c;
    c.model.id = "llama-3.1-405b";
    c.weights = "bf16";
    c.gpu = "rtx-4090";
    c.gpus = 2;
    PlanInputs in;
    PlanRequest q = serving_plan_request(c, in);
    PlanReport p = plan(q, catalog());
    CHECK(p.fitting == 0);
    CHECK(serving_verdict_text(p, q) ==
          "No layout fits: more GPUs, a GPU with more memory, a smaller weight format, or shorter requests.");
    const ParetoChart empty = pareto_chart(p, q);
    CHECK(empty.front.empty());
    CHECK_FALSE(empty.has_best);
    CHECK(empty.x.max == 1);   // an empty chart keeps a frame from 0 to 1
    // Llama 3 8B fits one H100, but no engine step takes 0.01 ms (TPOT <= 0.01 ms asks for
    // 100,000 tokens/s per user).
    c.model.id = "llama-3-8b";
    c.weights = "";
    c.gpu = "h100-sxm";
    c.gpus = 1;
    in.max_tpot_ms = 0.01;
    q = serving_plan_request(c, in);
    p = plan(q, catalog());
    CHECK(p.fitting > 0);
    CHECK_FALSE(p.has_best);
    CHECK(p.top.empty());
    CHECK(serving_verdict_text(p, q) ==
          "No layout meets the targets (TPOT <= 0.01 ms): the chart shows what each speed per user costs; loosen a target or add GPUs.");
    const ParetoChart ch = pareto_chart(p, q);
    CHECK_FALSE(ch.has_best);
    CHECK(ch.min_per_user == Approx(100000.0));
    CHECK(ch.x.max >= 100000.0);   // the target's line stays on the chart
}

TEST_CASE("plan tab: the Pareto chart's axes and point mapping", "[ui][plan]") {
    // 1,850 tokens/s per GPU over about 5 ticks: 370 a tick, rounded up to the nice 500; the
    // axis ends at the first tick 4% above 1,850 (1,924): 2,000.
    ChartAxis y = nice_axis(1850, 5);
    CHECK(y.step == 500);
    CHECK(y.max == 2000);
    // 23.4 tokens/s per user over about 6 ticks: 3.9 -> 5; 24.3 -> 25.
    ChartAxis x = nice_axis(23.4, 6);
    CHECK(x.step == 5);
    CHECK(x.max == 25);
    // 96 exactly on a tick would sit on the frame: 96 x 1.04 = 99.8, so 100 with steps of 20.
    CHECK(nice_axis(96, 5).max == 100);
    CHECK(nice_axis(0, 5).max == 1);
    // The plot area from (100, 50) to (600, 350): x = 12.5 of 25 is halfway across, 250 px
    // right of 100; y = 1,000 of 2,000 halfway up from the bottom, 350 - 150 = 200.
    ParetoChart c;
    c.x = x;
    c.y = y;
    const ChartPoint s = c.to_screen({12.5, 1000}, 100, 50, 600, 350);
    CHECK(s.x == Approx(350));
    CHECK(s.y == Approx(200));
    const ChartPoint o = c.to_screen({0, 0}, 100, 50, 600, 350);   // the origin is the bottom left
    CHECK(o.x == Approx(100));
    CHECK(o.y == Approx(350));
    // Tick labels: thousands with k and as many decimals as the step needs.
    CHECK(axis_label(0, 500) == "0");
    CHECK(axis_label(250, 50) == "250");
    CHECK(axis_label(1500, 500) == "1.5 k");
    CHECK(axis_label(2000, 500) == "2 k");
    CHECK(axis_label(20000, 5000) == "20 k");
    CHECK(axis_label(0.5, 0.1) == "0.5");
}

TEST_CASE("plan tab: a search in brief, as the app's status publishes it", "[ui][plan]") {
    // Serving: Llama 3 8B on up to 8 H100, the 1k/1k default load, no targets: the summary is the
    // best point's degrees and figures, the counts are the search's.
    Config c = llama_8b_on_8_h100();
    PlanInputs in;
    PlanRequest q = serving_plan_request(c, in);
    PlanReport p = plan(q, catalog());
    REQUIRE(p.has_best);
    PlanSummary s = plan_summary(p, q);
    CHECK(s.mode == PlanMode::inference);
    CHECK(s.evaluated == p.evaluated);
    CHECK(s.fitting == p.fitting);
    CHECK(s.meeting == p.meeting);
    CHECK(s.verdict.empty());
    REQUIRE(s.has_best);
    CHECK(s.gpus == p.best.gpus);
    CHECK(s.gpus <= 8);
    CHECK(s.tp * s.pp * s.dp == s.gpus);
    CHECK(s.output_tokens_per_s_per_gpu == p.best.serving.output_tokens_per_s_per_gpu);
    CHECK(s.tpot_s == p.best.serving.tpot_s);
    CHECK(s.ttft_s == p.best.serving.ttft_s);
    CHECK(s.concurrency == p.best.concurrency);
    // TPOT <= 1 ms: the fastest step of 8 H100 is longer (tp 8's all-reduces alone), so nothing
    // meets it; the summary says so with the tab's message.
    in.max_tpot_ms = 1;
    q = serving_plan_request(c, in);
    p = plan(q, catalog());
    s = plan_summary(p, q);
    CHECK(s.fitting > 0);
    CHECK(s.meeting == 0);
    CHECK_FALSE(s.has_best);
    CHECK(s.verdict == serving_verdict_text(p, q));
    CHECK(s.verdict.rfind("No layout meets the targets (TPOT <= 1 ms)", 0) == 0);
    // Training: the best layout is top[0], as estimate() reports it.
    const PlanReport t = h100_training_plan("llama-3-8b", 8, 2048, 16, 2);
    REQUIRE_FALSE(t.top.empty());
    s = plan_summary(t, PlanRequest{});
    CHECK(s.mode == PlanMode::train);
    CHECK(s.meeting == t.fitting);
    REQUIRE(s.has_best);
    CHECK(s.step_s == t.top[0].report.speed.train_step_s);
    CHECK(s.tp * s.cp * s.pp * s.dp == 8);
    CHECK(s.verdict.empty());
    PlanReport none = t;
    none.top.clear();
    CHECK(plan_summary(none, PlanRequest{}).verdict == training_verdict_text(none));
    CHECK_FALSE(training_verdict_text(none).empty());
}

TEST_CASE("Plan tab, request simulation: its configuration, its default rate and its options", "[ui][plan][simulate]") {
    // A training configuration: the simulation serves the same model at the tab's load.
    Config c = gpusizer::test::config("llama-3.1-8b", "h100-sxm");
    c.mode = Mode::train;
    c.zero = 1;
    c.runtime = Runtime::vllm;
    PlanInputs plan;
    plan.isl = 1000;
    plan.osl = 200;
    SimulationInputs in;
    const Config s = simulation_config(c, catalog(), plan, in);
    CHECK(s.mode == Mode::inference);
    CHECK(s.zero == 0);
    CHECK(s.isl == 1000);
    CHECK(s.osl == 200);
    CHECK(s.concurrency == 0);
    // No rate given: half of what the engine sustains at steady state, two significant digits.
    Config full = s;
    full.request_rate = 0;
    const double sustained = estimate(full, catalog()).serving.requests_per_s;
    REQUIRE(sustained > 1);
    CHECK(s.request_rate == Approx(sustained / 2).epsilon(0.05));
    CHECK(s.request_rate == default_simulation_rate(s, catalog()));
    // The configuration's rate, then the tab's.
    c.request_rate = 3;
    CHECK(simulation_config(c, catalog(), plan, in).request_rate == 3);
    in.request_rate = 7;
    CHECK(simulation_config(c, catalog(), plan, in).request_rate == 7);
    // Fixed lengths carry no spread; a model that cannot serve falls back to 1 request/s (the
    // simulation then says why).
    in.length_spread = 0.4;
    CHECK(simulation_options(in).length_spread == 0);
    in.lengths = LengthDistribution::uniform;
    CHECK(simulation_options(in).length_spread == 0.4);
    Config big = gpusizer::test::config("llama-3.1-405b", "rtx-4090");
    big.isl = 1000;
    big.osl = 100;
    CHECK(default_simulation_rate(big, catalog()) == 1.0);
    // The "highest rate" button: the tab's options searching at p99 for the rate within its
    // objectives, below what the engine sustains, the tab's rate field aside.
    in.slo_tpot_ms = 30;
    const SimulationOptions o = max_rate_options(in);
    CHECK(o.max_rate);
    CHECK(o.percentile == 99);
    CHECK(o.slo_tpot_ms == 30);
    CHECK(o.requests == in.requests);
    const SimulationReport found = simulate(simulation_config(c, catalog(), plan, in), catalog(), o);
    CHECK(found.max_rate.rps > 0);
    CHECK(found.max_rate.rps < sustained);
    CHECK(found.tpot_s.p99 * 1e3 <= 30);
}
