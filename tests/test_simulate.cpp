// test_simulate.cpp: the request-level simulation (core/src/simulation/): requests' latencies
// worked out by hand on the hand-made step of serving_support.hpp, its agreement with the
// steady-state model where both apply, preemption, goodput, the draws, traces and bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

#include "cli_support.hpp"
#include "gpusizer/simulate.hpp"
#include "serving_support.hpp"
#include "simulation/simulation_internal.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// `n` requests of isl / osl tokens, arriving `gap` seconds apart (0: all at once).
std::vector<TraceRequest> requests(int n, long long isl, long long osl, double gap) {
    std::vector<TraceRequest> out;
    for (int i = 0; i < n; ++i) out.push_back({gap * i, isl, osl});
    return out;
}

SimulationReport run_model(const detail::ServingModel& m, const std::vector<TraceRequest>& reqs, int dp = 1, SimulationOptions o = {}) {
    SimulationReport out;
    detail::simulate_requests(m, dp, reqs, o, false, out);
    return out;
}

// The hand model's lone request of 1,000 + 11 tokens: its prompt in one step of 1,000 tokens (the
// weights term only: the hand model has no attention FLOPs), then 10 decode steps, each reading
// the weights for one token and the cache of 1,001 .. 1,010 tokens (the token it processes
// included) at 128 KiB per token and 2 TB/s.
struct LoneRequest {
    double ttft = hand_weights_s(1000);
    double decode = 0;   // the 10 decode steps
    LoneRequest() {
        for (int j = 0; j < 10; ++j) decode += hand_weights_s(1) + 131072.0 * (1001 + j) / 2e12;
    }
    double e2e() const { return ttft + decode; }
};

}   // namespace

TEST_CASE("simulate: a lone request, by hand", "[simulate]") {
    const LoneRequest lone;
    // 16 GFLOP x 1,000 at 1 PFLOP/s = 16 ms against 8 ms of reads: 16 x (1 + 0.5^2.5)^0.4 = 17.08 ms.
    CHECK(lone.ttft == Approx(17.0765e-3).epsilon(1e-4));
    // Three requests 100 s apart: each alone on the engine.
    const SimulationReport s = run_model(hand_model(), requests(3, 1000, 11, 100.0));
    CHECK(s.requests == 3);
    CHECK(s.completed == 3);
    CHECK(s.rejected == 0);
    CHECK(s.preemptions == 0);
    CHECK(s.steps == 3 * 11);
    CHECK(s.ttft_s.p50 == Approx(lone.ttft));
    CHECK(s.ttft_s.p99 == Approx(lone.ttft));
    CHECK(s.tpot_s.mean == Approx(lone.decode / 10));
    CHECK(s.e2e_s.mean == Approx(lone.e2e()));
    // The run: the first arrival to the last completion; 33 output tokens over it.
    CHECK(s.duration_s == Approx(200.0 + lone.e2e()));
    CHECK(s.output_tokens_per_s == Approx(33.0 / (200.0 + lone.e2e())));
    CHECK(s.goodput_rps == Approx(3.0 / s.duration_s));   // no objectives: every request counts
    CHECK(s.slo_attained_fraction == 1.0);
}

TEST_CASE("simulate: percentiles, goodput and replicas, by hand", "[simulate]") {
    // numpy.percentile's linear interpolation: 1..10 has p50 5.5, p90 9.1, p99 9.91.
    std::vector<double> v(10);
    std::iota(v.begin(), v.end(), 1.0);
    const LatencyStats l = detail::latency_stats(v);
    CHECK(l.mean == Approx(5.5));
    CHECK(l.p50 == Approx(5.5));
    CHECK(l.p90 == Approx(9.1));
    CHECK(l.p99 == Approx(9.91));
    CHECK(detail::latency_stats({}).p99 == 0);

    // One sequence at a time, four requests at once: request i waits for the i before it, so its
    // first token comes at i E + T (E a lone request's life, T its first token).
    const LoneRequest lone;
    const double T = lone.ttft, E = lone.e2e();
    detail::ServingModel one = hand_model();
    one.max_sequences = 1;
    SimulationOptions o;
    o.slo_ttft_ms = (T + 1.5 * E) * 1e3;   // requests 0 and 1 meet it
    o.slo_tpot_ms = 1e3;
    const SimulationReport s = run_model(one, requests(4, 1000, 11, 0.0), 1, o);
    CHECK(s.completed == 4);
    CHECK(s.duration_s == Approx(4 * E));
    CHECK(s.ttft_s.mean == Approx(T + 1.5 * E));
    CHECK(s.ttft_s.p50 == Approx(T + 1.5 * E));
    CHECK(s.ttft_s.p90 == Approx(T + 2.7 * E));
    CHECK(s.ttft_s.p99 == Approx(T + 2.97 * E));
    CHECK(s.tpot_s.p99 == Approx(lone.decode / 10));
    CHECK(s.slo_attained_fraction == Approx(0.5));
    CHECK(s.goodput_rps == Approx(2 / (4 * E)));
    CHECK(s.mean_running == Approx(1.0));

    // Two replicas take the requests in turn: eight requests run as two queues of four.
    const SimulationReport two = run_model(one, requests(8, 1000, 11, 0.0), 2, o);
    CHECK(two.replicas == 2);
    CHECK(two.completed == 8);
    CHECK(two.duration_s == Approx(4 * E));
    CHECK(two.ttft_s.p50 == Approx(T + 1.5 * E));
    CHECK(two.mean_running == Approx(2.0));
}

TEST_CASE("simulate: a pool that fills preempts the last admitted, and every request completes", "[simulate]") {
    // The hand pool holds 100 requests of 2,001 tokens. 150 requests of 1,000 + 1,001 arrive at
    // once: their prompts are admitted while they fit (8 per 8,192-token step, up to 200 prompts'
    // worth), then growing caches preempt the last admitted, recomputed when readmitted.
    detail::ServingModel m = hand_model();
    const SimulationReport s = run_model(m, requests(150, 1000, 1001, 0.0));
    CHECK(s.completed == 150);
    CHECK(s.preemptions > 0);
    CHECK(s.peak_kv_used_fraction <= 1.0);
    CHECK(s.peak_kv_used_fraction > 0.95);
    CHECK(s.output_tokens_per_s * s.duration_s == Approx(150.0 * 1001));
    // A pool that holds every request at its final length never preempts.
    m.kv_pool_bytes = 150.0 * 2001 * 131072;
    const SimulationReport roomy = run_model(m, requests(150, 1000, 1001, 0.0));
    CHECK(roomy.preemptions == 0);
    CHECK(roomy.duration_s < s.duration_s);
    // A request whose cache no pool holds is refused, not run.
    m.kv_pool_bytes = 1000.0 * 131072;
    const SimulationReport small = run_model(m, requests(2, 1000, 100, 0.0));
    CHECK(small.rejected == 2);
    CHECK(small.completed == 0);
    CHECK(small.duration_s == 0);
}

TEST_CASE("simulate: agrees with the steady state at light load and at saturation", "[simulate][serving]") {
    // Llama 3.1 8B on an H100 (vLLM), requests of 1,000 + 200 tokens.
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm);
    c.isl = 1000;
    c.osl = 200;
    SimulationOptions o;
    SECTION("light load: every request alone, as one request in flight") {
        // A request every 50 s, each done in about 2 s.
        c.request_rate = 0.02;
        o.requests = 30;
        const SimulationReport s = simulate(c, catalog(), o);
        Config one = c;
        one.request_rate = 0;
        one.concurrency = 1;
        const Report r = run(one);
        REQUIRE(s.completed == 30);
        // TPOT: the decode step of one sequence (the steady state's mean step also carries the
        // prompt's share, 1,000 tokens over 200 steps, which the roofline hides under the reads).
        CHECK(s.tpot_s.p50 == Approx(r.serving.tpot_s).epsilon(0.03));
        // TTFT: the prompt's step; the steady state adds half a step of waiting for the step in
        // progress, which a request arriving at an idle engine does not wait.
        CHECK(s.ttft_s.p50 == Approx(r.serving.ttft_s - 0.5 * r.serving.step_s).epsilon(0.02));
        CHECK(s.e2e_s.p50 == Approx(r.serving.ttft_s - 0.5 * r.serving.step_s + 199 * r.serving.tpot_s).epsilon(0.03));
        CHECK(s.mean_running < 0.1);
    }
    SECTION("saturation: the steady state's throughput") {
        // Arrivals far past what the engine completes; 256 sequences in flight (the pool holds
        // more, so no preemption muddies it). The run's throughput is the steady state's.
        c.max_num_seqs = 256;
        c.request_rate = 1000;
        o.requests = 4000;
        const SimulationReport s = simulate(c, catalog(), o);
        c.request_rate = 0;
        const Report r = run(c);
        CHECK(s.preemptions == 0);
        CHECK(s.output_tokens_per_s == Approx(r.serving.output_tokens_per_s).epsilon(0.04));
        CHECK(s.tpot_s.p50 == Approx(r.serving.tpot_s).epsilon(0.04));
        CHECK(s.mean_running == Approx(256).epsilon(0.03));
        CHECK(s.max_concurrency == 256);
        CHECK(!s.warnings.empty());   // the queue grows: said
    }
}

TEST_CASE("simulate: the draws", "[simulate]") {
    SimulationOptions o;
    o.seed = 7;
    // The same seed gives the same requests; another seed others.
    const auto a = detail::draw_requests(o, 100, 5.0, 1000, 200);
    const auto b = detail::draw_requests(o, 100, 5.0, 1000, 200);
    CHECK(a.back().arrival_s == b.back().arrival_s);
    o.seed = 8;
    CHECK(detail::draw_requests(o, 100, 5.0, 1000, 200).back().arrival_s != a.back().arrival_s);
    // Gaps: mean 1 / rate; a gamma of shape b has a squared coefficient of variation 1 / b
    // (Poisson: 1; burstiness 0.25: 4).
    auto gaps = [](const std::vector<TraceRequest>& r) {
        double sum = 0, sq = 0;
        for (std::size_t i = 1; i < r.size(); ++i) {
            const double g = r[i].arrival_s - r[i - 1].arrival_s;
            sum += g;
            sq += g * g;
        }
        const double n = double(r.size() - 1), mean = sum / n;
        return std::pair<double, double>{mean, (sq / n - mean * mean) / (mean * mean)};
    };
    const auto poisson = gaps(detail::draw_requests(o, 40001, 4.0, 100, 100));
    CHECK(poisson.first == Approx(0.25).epsilon(0.02));
    CHECK(poisson.second == Approx(1.0).epsilon(0.05));
    o.burstiness = 0.25;
    const auto bursty = gaps(detail::draw_requests(o, 40001, 4.0, 100, 100));
    CHECK(bursty.first == Approx(0.25).epsilon(0.03));
    CHECK(bursty.second == Approx(4.0).epsilon(0.08));
    // Rate 0: all at once. Lengths: uniform over [L(1 - s), L(1 + s)]; lognormal with mean L.
    o.burstiness = 1;
    o.lengths = LengthDistribution::uniform;
    o.length_spread = 0.5;
    const auto u = detail::draw_requests(o, 20000, 0.0, 1000, 200);
    double lo = 1e9, hi = 0, mean = 0;
    bool at_once = true;
    for (const TraceRequest& q : u) {
        at_once = at_once && q.arrival_s == 0;
        lo = std::min(lo, double(q.input_tokens));
        hi = std::max(hi, double(q.input_tokens));
        mean += double(q.input_tokens) / 20000;
    }
    CHECK(at_once);
    CHECK(lo == 500);
    CHECK(hi == 1500);
    CHECK(mean == Approx(1000).epsilon(0.01));
    o.lengths = LengthDistribution::lognormal;
    o.length_spread = 0.8;
    double lmean = 0;
    for (const TraceRequest& q : detail::draw_requests(o, 40000, 0.0, 1000, 200)) lmean += double(q.output_tokens) / 40000;
    CHECK(lmean == Approx(200).epsilon(0.03));
}

TEST_CASE("simulate: traces, Azure's CSV and JSON Lines", "[simulate][trace]") {
    const auto azure = parse_trace(
        "TIMESTAMP,ContextTokens,GeneratedTokens\n"
        "2023-11-16 18:15:46.6805900,374,44\r\n"
        "2023-11-16 18:15:50.9951690,396,109\n"
        "2023-11-16 18:15:45.0000000,879,20\n");
    REQUIRE(azure.size() == 3);
    // Sorted by arrival, relative to the first.
    CHECK(azure[0].arrival_s == 0);
    CHECK(azure[0].input_tokens == 879);
    CHECK(azure[1].arrival_s == Approx(1.68059));
    CHECK(azure[2].arrival_s == Approx(5.995169));
    CHECK(azure[2].output_tokens == 109);
    // Across midnight and a month's end.
    const auto midnight =
        parse_trace("TIMESTAMP,ContextTokens,GeneratedTokens\n2024-02-29 23:59:59.5,10,10\n2024-03-01 00:00:00.25,10,10\n");
    CHECK(midnight[1].arrival_s == Approx(0.75));
    const auto jsonl = parse_trace(
        "{\"arrival_s\": 0.5, \"input_tokens\": 100, \"output_tokens\": 10}\n\n"
        "{\"arrival_s\": 0.0, \"input_tokens\": 200, \"output_tokens\": 20}\n");
    REQUIRE(jsonl.size() == 2);
    CHECK(jsonl[0].input_tokens == 200);
    CHECK(jsonl[1].arrival_s == Approx(0.5));
    CHECK_THROWS_WITH(parse_trace("time,in,out\n1,2,3\n"), Catch::Contains("TIMESTAMP,ContextTokens,GeneratedTokens"));
    CHECK_THROWS_WITH(parse_trace("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,12x,4\n"),
                      Catch::Contains("line 2") && Catch::Contains("ContextTokens"));
    CHECK_THROWS_WITH(parse_trace("{\"arrival_s\": 1}\n"), Catch::Contains("line 1"));
    CHECK_THROWS_WITH(parse_trace("{\"arrival_s\": -1, \"input_tokens\": 1, \"output_tokens\": 1}"), Catch::Contains(">= 0"));
    CHECK_THROWS_WITH(parse_trace(""), Catch::Contains("no requests"));

    // A trace runs as given: its mean lengths and rate are the estimate's load.
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm);
    SimulationOptions o;
    o.trace = azure;
    const SimulationReport s = simulate(c, catalog(), o);
    CHECK(s.completed == 3);
    CHECK(s.report.config.isl == 550);   // (374 + 396 + 879) / 3
    CHECK(s.report.config.osl == 58);   // (44 + 109 + 20) / 3 = 57.7
    CHECK(s.request_rate == Approx(2 / 5.995169));
}

TEST_CASE("simulate: bad input names the key", "[simulate][errors]") {
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm);
    SimulationOptions o;
    CHECK_THROWS_WITH(simulate(c, catalog(), o), Catch::Contains("isl"));   // no load
    c.isl = 1000;
    c.osl = 100;
    o.requests = -1;
    CHECK_THROWS_WITH(simulate(c, catalog(), o), Catch::Contains("requests"));
    o.requests = 10;
    o.burstiness = 0;
    CHECK_THROWS_WITH(simulate(c, catalog(), o), Catch::Contains("burstiness"));
    o.burstiness = 1;
    o.prefix_hit_rate = 1;
    CHECK_THROWS_WITH(simulate(c, catalog(), o), Catch::Contains("prefix_hit_rate"));
    o.prefix_hit_rate = 0;
    CHECK_THROWS_WITH(parse_length_distribution("zipf"), Catch::Contains("fixed, uniform or lognormal"));
    Config train = c;
    train.mode = Mode::train;
    train.isl = train.osl = 0;
    CHECK_THROWS_WITH(simulate(train, catalog(), o), Catch::Contains("inference"));
    Config big = serving("llama-3.1-405b", "rtx-4090", Runtime::vllm);
    big.isl = 1000;
    big.osl = 100;
    CHECK_THROWS_WITH(simulate(big, catalog(), o), Catch::Contains("does not fit"));
    // A context set below the requests: they are refused, and the warning says to raise it.
    c.context = 1050;
    o.lengths = LengthDistribution::uniform;
    o.length_spread = 0.2;
    o.requests = 200;
    c.isl = 900;
    const SimulationReport s = simulate(c, catalog(), o);
    CHECK(s.rejected > 0);
    CHECK(s.completed + s.rejected == 200);
    REQUIRE(!s.warnings.empty());
    CHECK(s.warnings.front().find("raise context") != std::string::npos);
}

TEST_CASE("gpusizer simulate: text and JSON", "[simulate][cli]") {
    const CliResult t = run_cli({"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--runtime", "vllm", "--isl", "500", "--osl",
                                 "100", "--request-rate", "4", "--requests", "200", "--slo-ttft-ms", "100", "--slo-tpot-ms", "20"});
    CHECK(t.code == 0);
    CHECK(t.out.find("TTFT") != std::string::npos);
    CHECK(t.out.find("goodput") != std::string::npos);
    CHECK(t.out.find("steady state") != std::string::npos);
    const CliResult j = run_cli({"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--isl", "500", "--osl", "100",
                                 "--request-rate", "4", "--requests", "200", "--seed", "3", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    const auto& s = doc["simulation"];
    CHECK(s["requests"] == 200);
    CHECK(s["completed"] == 200);
    for (const char* k : {"ttft_s", "tpot_s", "e2e_s"})
        for (const char* p : {"p50", "p90", "p99", "mean"}) CHECK(s[k][p].get<double>() > 0);
    CHECK(s["output_tokens_per_s"].get<double>() > 0);
    CHECK(s["goodput_rps"].get<double>() > 0);
    CHECK(s["preemptions"] == 0);
    CHECK(s["wall_s"].get<double>() >= 0);
    CHECK(s["timeline"].size() == 120);
    CHECK(doc["report"]["serving"]["output_tokens_per_s"].get<double>() > 0);   // the steady state beside it
    // The same seed, the same run.
    CHECK(run_cli({"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--isl", "500", "--osl", "100", "--request-rate", "4",
                   "--requests", "200", "--seed", "3", "--json"})
              .out.find(s["ttft_s"]["p99"].dump()) != std::string::npos);
    const CliResult bad = run_cli({"simulate", "--model", "llama-3.1-8b", "--isl", "500", "--osl", "100", "--lengths", "zipf"});
    CHECK(bad.code == 2);
    CHECK(bad.err.find("lengths") != std::string::npos);
    const CliResult missing = run_cli({"simulate", "--model", "llama-3.1-8b", "--trace", "/nonexistent/trace.csv"});
    CHECK(missing.code == 1);
    CHECK(missing.err.find("--trace") != std::string::npos);
}

TEST_CASE("simulate: the options as JSON (the JS API's)", "[simulate][json]") {
    const SimulationOptions o = simulation_options_from_json(
        R"({"requests": 500, "seed": 9, "burstiness": 0.5, "lengths": "lognormal", "length_spread": 0.6,
            "prefix_hit_rate": 0.25, "slo_ttft_ms": 300, "slo_tpot_ms": 40, "timeline_points": 60,
            "trace": "{\"arrival_s\": 0, \"input_tokens\": 10, \"output_tokens\": 5}\n"})");
    CHECK(o.requests == 500);
    CHECK(o.seed == 9);
    CHECK(o.burstiness == 0.5);
    CHECK(o.lengths == LengthDistribution::lognormal);
    CHECK(o.length_spread == 0.6);
    CHECK(o.prefix_hit_rate == 0.25);
    CHECK(o.slo_ttft_ms == 300);
    CHECK(o.slo_tpot_ms == 40);
    CHECK(o.timeline_points == 60);
    REQUIRE(o.trace.size() == 1);
    CHECK(o.trace[0].input_tokens == 10);
    CHECK(simulation_options_from_json("").requests == 0);   // the defaults
    CHECK_THROWS_WITH(simulation_options_from_json(R"({"request": 5})"), Catch::Contains("unknown simulation field"));
    CHECK_THROWS_WITH(simulation_options_from_json(R"({"requests": 2.5})"), Catch::Contains("requests"));
    CHECK_THROWS_WITH(simulation_options_from_json(R"({"seed": "x"})"), Catch::Contains("seed"));
    CHECK_THROWS_WITH(simulation_options_from_json(R"({"lengths": 3})"), Catch::Contains("lengths"));
    CHECK_THROWS_WITH(simulation_options_from_json(R"({"trace": ["a"]})"), Catch::Contains("trace"));
    CHECK_THROWS_WITH(simulation_options_from_json("[1]"), Catch::Contains("options"));
    CHECK_THROWS_WITH(simulation_options_from_json("{"), Catch::Contains("options"));
}

TEST_CASE("plan for a target rate: the fewest GPUs whose simulated percentile meets the targets", "[simulate][plan]") {
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm, 16);
    q.base.isl = 1000;
    q.base.osl = 200;
    q.target_rps = 40;
    q.max_ttft_ms = 300;
    q.max_tpot_ms = 40;
    q.percentile = 99;
    const PlanReport p = plan(q, catalog());
    const TargetReport& t = p.target;
    REQUIRE(t.met);
    REQUIRE(p.has_best);
    CHECK(p.best.gpus == t.gpus);
    CHECK(t.gpus == t.tp * t.pp * t.dp);
    CHECK(t.ttft_s * 1e3 <= 300);
    CHECK(t.tpot_s * 1e3 <= 40);
    // One replica fewer of the same shape misses: overloaded, or past a target at p99 (the run
    // the search made, repeated).
    if (t.dp > 1) {
        Config fewer = q.base;
        fewer.tp = t.tp;
        fewer.pp = t.pp;
        fewer.dp = t.dp - 1;
        fewer.gpus = t.tp * t.pp * (t.dp - 1);
        fewer.request_rate = 40;
        SimulationOptions o;
        o.requests = std::max(1000, 400 * (t.dp - 1));
        const SimulationReport s = simulate(fewer, catalog(), o);
        CHECK((s.report.serving.bound == "overloaded" || s.ttft_s.p99 * 1e3 > 300 || s.tpot_s.p99 * 1e3 > 40));
    }
    // Every shape is accounted for; the JSON carries the target.
    CHECK(!t.shapes.empty());
    const auto j = nlohmann::json::parse(plan_to_json(p));
    CHECK(j["target"]["gpus"] == t.gpus);
    CHECK(j["target"]["percentile"] == 99);
    CHECK(j["best"]["gpus"] == t.gpus);
    // A target no layout within the GPUs meets says so.
    q.base.gpus = 1;
    q.target_rps = 1000;
    const PlanReport none = plan(q, catalog());
    CHECK(!none.target.met);
    CHECK(!none.has_best);
    // Bad input names the key.
    q.percentile = 95;
    CHECK_THROWS_WITH(plan(q, catalog()), Catch::Contains("percentile"));
    q.percentile = 90;
    q.mode = PlanMode::train;
    CHECK_THROWS_WITH(plan(q, catalog()), Catch::Contains("target_rps"));
    const CliResult cli = run_cli(
        {"plan",  "--mode", "inference", "--model", "llama-3.1-8b", "--gpu", "h100-sxm",      "--runtime", "vllm",         "--gpus", "8",
         "--isl", "1000",   "--osl",     "200",     "--target-rps", "20",    "--max-tpot-ms", "40",        "--percentile", "90"});
    CHECK(cli.code == 0);
    CHECK(cli.out.find("fewest GPUs") != std::string::npos);
    CHECK(run_cli({"plan", "--mode", "inference", "--model", "llama-3.1-8b", "--isl", "100", "--osl", "10", "--target-rps", "0"}).code ==
          2);
}

TEST_CASE("plan for a target rate over the catalog: every GPU type, cheapest per million tokens first", "[simulate][plan]") {
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm, 8);
    q.base.isl = 1000;
    q.base.osl = 200;
    q.target_rps = 10;
    q.max_ttft_ms = 500;
    q.max_tpot_ms = 50;
    q.cheapest_gpu = true;
    const PlanReport p = plan(q, catalog());
    const std::vector<TargetGpuRow>& rows = p.target.by_gpu;
    CHECK(rows.size() == catalog().gpus.size());   // every type, met or not
    REQUIRE(p.target.met);
    REQUIRE(rows.front().met);
    // The answer is the first row's GPU and layout, and the same search on that GPU alone gives it.
    CHECK(p.top.front().config.gpu == rows.front().gpu);
    PlanRequest alone = q;
    alone.cheapest_gpu = false;
    alone.base.gpu = rows.front().gpu;
    const PlanReport single = plan(alone, catalog());
    CHECK(single.target.gpus == rows.front().gpus);
    CHECK(single.target.ttft_s == Approx(rows.front().ttft_s));
    // Its cost by hand: owning (the hardware's hours over its lifetime, and the electricity) over
    // the output tokens an hour of the load (10 requests/s x 200 tokens, as the engines emit them).
    const CostReport& k = single.top.front().report.cost;
    const double tokens_per_hour = single.top.front().report.serving.output_tokens_per_s * 3600.0;
    CHECK(tokens_per_hour == Approx(10 * 200 * 3600.0).epsilon(0.05));
    CHECK(rows.front().own_usd_per_million_tokens ==
          Approx((k.hardware_usd_per_hour + k.electricity_usd_per_hour) / tokens_per_hour * 1e6));
    // Met rows first, then cheapest first (owning, else renting); each unmet row says why.
    bool seen_unmet = false;
    double last = 0;
    for (const TargetGpuRow& r : rows) {
        if (!r.met) {
            seen_unmet = true;
            CHECK(!r.why.empty());
            continue;
        }
        CHECK_FALSE(seen_unmet);
        const double cost = r.own_known ? r.own_usd_per_million_tokens : r.rent_known ? r.rent_usd_per_million_tokens : HUGE_VAL;
        CHECK(cost >= last);
        last = cost;
        CHECK(r.gpus <= 8);
    }
    // Apple's GPUs do not run vLLM: unmet, with the reason.
    const auto apple = std::find_if(rows.begin(), rows.end(), [](const TargetGpuRow& r) { return r.gpu.rfind("m3-", 0) == 0; });
    REQUIRE(apple != rows.end());
    CHECK_FALSE(apple->met);
    const auto j = nlohmann::json::parse(plan_to_json(p));
    CHECK(j["target"]["gpu"] == rows.front().gpu);
    CHECK(j["target"]["by_gpu"].size() == rows.size());
    CHECK(j["target"]["by_gpu"][0]["own_usd_per_million_tokens"].get<double>() == Approx(rows.front().own_usd_per_million_tokens));
    // It compares GPU types at a rate: without target_rps it is refused by name.
    q.target_rps = 0;
    CHECK_THROWS_WITH(plan(q, catalog()), Catch::Contains("cheapest_gpu"));
    CHECK(plan_request_from_json(R"({"model": "llama-3.1-8b", "mode": "inference"})", R"({"cheapest_gpu": true})").cheapest_gpu);
}

TEST_CASE("simulate: a client that keeps N requests outstanding (benchmark_serving --max-concurrency)", "[simulate]") {
    // One outstanding, three requests at once: each is sent as the one before completes, so each
    // runs alone and its first token comes one prompt step after its sending (not after t = 0).
    const LoneRequest lone;
    SimulationOptions o;
    o.max_concurrency = 1;
    const SimulationReport s = run_model(hand_model(), requests(3, 1000, 11, 0.0), 1, o);
    CHECK(s.completed == 3);
    CHECK(s.ttft_s.p99 == Approx(lone.ttft));
    CHECK(s.e2e_s.mean == Approx(lone.e2e()));
    CHECK(s.duration_s == Approx(3 * lone.e2e()));
    CHECK(s.mean_running == Approx(1.0));
    // Two outstanding over two replicas: one each, the same as one replica's lone requests.
    o.max_concurrency = 2;
    const SimulationReport two = run_model(hand_model(), requests(6, 1000, 11, 0.0), 2, o);
    CHECK(two.duration_s == Approx(3 * lone.e2e()));
    CHECK(two.ttft_s.p99 == Approx(lone.ttft));
    o.max_concurrency = -1;
    CHECK_THROWS_WITH(simulate(serving("llama-3.1-8b", "h100-sxm", Runtime::vllm), catalog(), o), Catch::Contains("max_concurrency"));
    CHECK(simulation_options_from_json(R"({"max_concurrency": 64})").max_concurrency == 64);
}

TEST_CASE("simulate: a request that arrives during a step waits for it, and the wait counts", "[simulate]") {
    // Request 1 arrives 1 ms into request 0's prompt step (T = 17.08 ms): it waits the rest of
    // that step, then its own prompt runs in a step at least as long (beside request 0's first
    // decode). Its first token: at least (T - 1 ms) + T after its arrival.
    const LoneRequest lone;
    std::vector<TraceRequest> two = {{0.0, 1000, 11}, {0.001, 1000, 11}};
    const SimulationReport s = run_model(hand_model(), two);
    CHECK(s.completed == 2);
    const double first = lone.ttft, second = 2 * s.ttft_s.mean - first;   // request 0 runs alone: T
    CHECK(s.ttft_s.p50 == Approx(s.ttft_s.mean));
    CHECK(second >= 2 * lone.ttft - 0.001 - 1e-9);
    CHECK(second == Approx(2 * lone.ttft - 0.001).epsilon(0.02));
}

TEST_CASE("simulate --max-rate: the highest rate whose percentile latencies meet the objectives", "[simulate][max_rate]") {
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm, 1);
    c.isl = 1000;
    c.osl = 200;
    SimulationOptions o;
    o.max_rate = true;
    o.requests = 2000;
    o.slo_ttft_ms = 500;
    o.slo_tpot_ms = 30;
    o.percentile = 90;
    const SimulationReport s = simulate(c, catalog(), o);
    REQUIRE(s.max_rate.asked);
    CHECK(s.max_rate.percentile == 90);
    CHECK(s.max_rate.requests == 2000);
    // The upper bound is the steady state's completion rate at saturation (no rate, no concurrency).
    CHECK(s.max_rate.saturated_rps == Approx(estimate(c, catalog()).serving.requests_per_s));
    // Found between a light load and saturation, and the report is the run at it, within the
    // objectives at p90.
    CHECK(s.max_rate.rps > 0.01 * s.max_rate.saturated_rps);
    CHECK(s.max_rate.rps < s.max_rate.saturated_rps);
    CHECK(s.request_rate == s.max_rate.rps);
    CHECK(s.ttft_s.p90 * 1e3 <= 500);
    CHECK(s.tpot_s.p90 * 1e3 <= 30);
    // A light load first, then ten halvings of the interval (0.1% of saturation): twelve runs. A
    // rate 1% of saturation higher misses (the same requests, their gaps shorter).
    CHECK(s.max_rate.simulations == 12);
    Config faster = c;
    faster.request_rate = s.max_rate.rps + 0.01 * s.max_rate.saturated_rps;
    SimulationOptions plain = o;
    plain.max_rate = false;
    CHECK_FALSE(detail::within_objectives(simulate(faster, catalog(), plain), 500, 30, 90));
    // Objectives loose enough hold up to saturation: the first probe, 2^-10 under it, meets them
    // and ends the search (a probe at saturation itself would be overloaded).
    SimulationOptions loose = o;
    loose.slo_ttft_ms = 1e6;
    loose.slo_tpot_ms = 1e6;
    const SimulationReport all = simulate(c, catalog(), loose);
    CHECK(all.max_rate.simulations == 1);
    CHECK(all.max_rate.rps == Approx(s.max_rate.saturated_rps * (1 - 1.0 / 1024)).epsilon(1e-12));
    CHECK(all.report.serving.bound != "overloaded");
    Config at_top = c;
    at_top.request_rate = s.max_rate.saturated_rps;
    CHECK_FALSE(detail::within_objectives(simulate(at_top, catalog(), plain), 1e6, 1e6, 90));
    // Objectives no load meets: rate 0, the run at the light load, and a warning that says so.
    SimulationOptions tight = o;
    tight.slo_tpot_ms = 0.5;
    const SimulationReport none = simulate(c, catalog(), tight);
    CHECK(none.max_rate.rps == 0);
    CHECK(none.request_rate == Approx(0.01 * none.max_rate.saturated_rps));
    REQUIRE(!none.warnings.empty());
    CHECK(none.warnings.front().find("no rate meets the objectives") != std::string::npos);
    // Bad input names the key: no objective, a trace, a percentile the runs do not give.
    SimulationOptions bad = o;
    bad.slo_ttft_ms = bad.slo_tpot_ms = 0;
    CHECK_THROWS_WITH(simulate(c, catalog(), bad), Catch::Contains("max_rate: needs slo_ttft_ms or slo_tpot_ms"));
    bad = o;
    bad.trace = {{0, 100, 10}, {1, 100, 10}};
    CHECK_THROWS_WITH(simulate(c, catalog(), bad), Catch::Contains("not with a trace"));
    bad = o;
    bad.percentile = 95;
    CHECK_THROWS_WITH(simulate(c, catalog(), bad), Catch::Contains("percentile: must be 50, 90 or 99"));
    // The JSON options and report (the JS API's, the Python package's, MCP's).
    const SimulationOptions j = simulation_options_from_json(R"({"max_rate": true, "percentile": 90, "slo_tpot_ms": 30})");
    CHECK(j.max_rate);
    CHECK(j.percentile == 90);
    CHECK_THROWS_WITH(simulation_options_from_json(R"({"max_rate": 1})"), Catch::Contains("max_rate: must be true or false"));
    const auto out = nlohmann::json::parse(simulation_to_json(s));
    CHECK(out["simulation"]["max_rate"]["rps"].get<double>() == s.max_rate.rps);
    CHECK(out["simulation"]["max_rate"]["percentile"] == 90);
    CHECK(!nlohmann::json::parse(simulation_to_json(simulate(faster, catalog(), plain)))["simulation"].contains("max_rate"));
    // The command line.
    const CliResult cli = run_cli({"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--runtime", "vllm", "--isl", "1000", "--osl",
                                   "200", "--requests", "1000", "--max-rate", "--slo-tpot-ms", "30", "--percentile", "90"});
    CHECK(cli.code == 0);
    CHECK(cli.out.find("max rate: ") != std::string::npos);
    CHECK(run_cli({"simulate", "--model", "llama-3.1-8b", "--isl", "100", "--osl", "10", "--max-rate"}).code == 2);
}

TEST_CASE("seq_overhead_us: the host's time per decoding request, added to every step that decodes it", "[simulate][serving]") {
    // One request at a time: each decode step carries one decoding request, so the TPOT grows by
    // the key's 100 us exactly; the prompt's step decodes none, so the TTFT stays.
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::trt_llm, 1);
    c.isl = 1000;
    c.osl = 100;
    c.request_rate = 0.01;   // 100 s apart: each alone on the engine
    SimulationOptions o;
    o.requests = 3;
    const SimulationReport base = simulate(c, catalog(), o);
    CHECK(base.report.config.seq_overhead_us.value_or(-1) == 0);   // TensorRT-LLM's versions carry none
    c.seq_overhead_us = 100;
    const SimulationReport slow = simulate(c, catalog(), o);
    CHECK(slow.report.config.seq_overhead_us.value_or(-1) == 100);
    CHECK(slow.tpot_s.mean - base.tpot_s.mean == Approx(100e-6).margin(1e-9));
    CHECK(slow.ttft_s.mean == Approx(base.ttft_s.mean).epsilon(1e-12));
    // vLLM 0.10's own 20 us a request is the default the report names, and the key replaces it.
    Config v = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm, 1);
    v.runtime_version = "0.10";
    v.isl = 1000;
    v.osl = 100;
    CHECK(estimate(v, catalog()).config.seq_overhead_us.value_or(-1) == 20);
    // A key like the others: JSON, links and the CLI flag.
    CHECK(config_from_link(link_from_config(c)).seq_overhead_us.value_or(-1) == 100);
    CHECK(config_from_json(R"({"model": "llama-3.1-8b", "seq_overhead_us": 29})").seq_overhead_us.value_or(-1) == 29);
    CHECK_THROWS_WITH(config_from_json(R"({"model": "llama-3.1-8b", "seq_overhead_us": -1})"), Catch::Contains("seq_overhead_us"));
    CHECK(run_cli({"estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--runtime", "trt-llm", "--isl", "100", "--osl", "10",
                   "--seq-overhead-us", "29", "--json"})
              .out.find("\"seq_overhead_us\": 29") != std::string::npos);
}
