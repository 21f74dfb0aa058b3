// test_plan_inference.cpp: the serving layout search (gpusizer/plan.hpp, PlanMode::inference):
// its Pareto front, its latency targets, its GPU budget, what it says when nothing qualifies,
// and that what it reports is what estimate() reports for the same layout and load.
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "plan_internal.hpp"
#include "plan_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Llama 3 70B in bf16 (140 GB of weights: at least two 80 GB H100) served by vLLM, requests of
// 1,000 input and 1,000 output tokens (TensorRT-LLM's perf overview uses the same pair).
PlanRequest request(int gpus, const std::string& model = "llama-3-70b") {
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base = config(model, "h100-sxm");
    q.base.runtime = Runtime::vllm;
    q.base.gpus = gpus;
    q.base.isl = 1000;
    q.base.osl = 1000;
    return q;
}

bool dominates(const PlanPoint& a, const PlanPoint& b) {
    const ServingReport &x = a.serving, &y = b.serving;
    return x.output_tokens_per_s_per_gpu >= y.output_tokens_per_s_per_gpu && x.tokens_per_s_per_user >= y.tokens_per_s_per_user &&
           (x.output_tokens_per_s_per_gpu > y.output_tokens_per_s_per_gpu || x.tokens_per_s_per_user > y.tokens_per_s_per_user);
}

}  // namespace

TEST_CASE("plan inference: the Pareto front is non-dominated and ends at the best point", "[plan][plan_inference]") {
    const PlanReport p = plan(request(16), catalog());
    CHECK(p.mode == PlanMode::inference);
    CHECK(p.evaluated > 0);
    CHECK(p.fitting <= p.evaluated);
    CHECK(p.meeting == p.fitting);   // no targets: every point that fits meets them
    CHECK(p.seconds >= 0);
    REQUIRE(p.pareto.size() >= 2);
    for (std::size_t i = 0; i < p.pareto.size(); ++i) {
        for (std::size_t j = 0; j < p.pareto.size(); ++j)
            if (i != j) CHECK_FALSE(dominates(p.pareto[i], p.pareto[j]));
        // Slowest per user first: along the front, per-user speed rises and per-GPU throughput falls.
        if (i > 0) {
            CHECK(p.pareto[i].serving.tokens_per_s_per_user > p.pareto[i - 1].serving.tokens_per_s_per_user);
            CHECK(p.pareto[i].serving.output_tokens_per_s_per_gpu < p.pareto[i - 1].serving.output_tokens_per_s_per_gpu);
        }
        CHECK(p.pareto[i].gpus == p.pareto[i].tp * p.pareto[i].pp * p.pareto[i].dp);
        CHECK(p.pareto[i].gpus <= 16);
    }
    // Without targets the best point is the front's most tokens/s per GPU (its first point).
    REQUIRE(p.has_best);
    CHECK(p.best.serving.output_tokens_per_s_per_gpu == p.pareto.front().serving.output_tokens_per_s_per_gpu);
    // A faster user costs throughput: the front's two ends differ on both figures.
    CHECK(p.pareto.back().serving.tokens_per_s_per_user > 2 * p.pareto.front().serving.tokens_per_s_per_user);
}

TEST_CASE("plan inference: estimate() reports the figures the search ranked by", "[plan][plan_inference]") {
    // Each reported layout, re-run through estimate() at its concurrency, gives the serving
    // figures the search computed (both call serving_model() and serving_at()).
    PlanRequest q = request(16);
    q.top = 10;
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.top.size() >= 2);
    CHECK(p.top[0].report.serving.output_tokens_per_s_per_gpu == Approx(p.best.serving.output_tokens_per_s_per_gpu).epsilon(1e-9));
    CHECK(p.top[0].report.serving.tpot_s == Approx(p.best.serving.tpot_s).epsilon(1e-9));
    CHECK(p.top[0].report.serving.ttft_s == Approx(p.best.serving.ttft_s).epsilon(1e-9));
    for (std::size_t i = 0; i < p.top.size(); ++i) {
        const PlanLayout& l = p.top[i];
        INFO("tp " << l.config.tp << " pp " << l.config.pp << " dp " << l.config.dp << " concurrency " << l.config.concurrency);
        CHECK(l.report.fits);
        CHECK(l.report.serving.active);
        CHECK(l.step_s == Approx(l.report.serving.step_s).epsilon(1e-9));
        CHECK(l.memory == Approx(l.report.per_gpu.total()).epsilon(1e-9));
        if (i > 0) CHECK(p.top[i - 1].report.serving.output_tokens_per_s_per_gpu >= p.top[i].report.serving.output_tokens_per_s_per_gpu);
    }
    REQUIRE(p.why.size() == 2);
}

TEST_CASE("plan inference: a tighter TPOT target never gives more throughput, and the best meets it", "[plan][plan_inference]") {
    // The points meeting a tighter target are a subset of those meeting a looser one, so the best
    // tokens/s per GPU can only fall; the best point's TPOT is within the target, so its per-user
    // speed is at least 1000 / max_tpot_ms tokens/s.
    double last_per_gpu = std::numeric_limits<double>::infinity();
    double last_per_user = 0;
    for (double tpot_ms : {200.0, 50.0, 30.0, 20.0, 15.0}) {
        PlanRequest q = request(16);
        q.max_tpot_ms = tpot_ms;
        q.top = 1;
        const PlanReport p = plan(q, catalog());
        INFO("max_tpot_ms " << tpot_ms);
        REQUIRE(p.has_best);
        CHECK(p.best.serving.tpot_s * 1e3 <= tpot_ms);
        CHECK(p.best.serving.tokens_per_s_per_user >= 1000.0 / tpot_ms);
        CHECK(p.best.serving.output_tokens_per_s_per_gpu <= last_per_gpu);
        CHECK(p.meeting <= p.fitting);
        last_per_gpu = p.best.serving.output_tokens_per_s_per_gpu;
        last_per_user = p.best.serving.tokens_per_s_per_user;
    }
    CHECK(last_per_user >= 1000.0 / 15.0);
    // The same with a TTFT target: within it.
    PlanRequest q = request(16);
    q.max_ttft_ms = 200;
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.has_best);
    CHECK(p.best.serving.ttft_s <= 0.2);
}

TEST_CASE("plan inference: more GPUs never make the best reachable throughput worse", "[plan][plan_inference]") {
    // A budget of N + k GPUs searches every layout of N (each is evaluated on the GPUs it uses),
    // so its best cannot be worse, per GPU or in all.
    double per_gpu = 0, total = 0;
    for (int gpus : {4, 6, 8, 12, 16, 32}) {
        PlanRequest q = request(gpus);
        q.max_tpot_ms = 40;
        q.top = 1;
        const PlanReport p = plan(q, catalog());
        INFO(gpus << " GPUs");
        REQUIRE(p.has_best);
        CHECK(p.best.gpus <= gpus);
        CHECK(p.best.serving.output_tokens_per_s_per_gpu >= per_gpu);
        CHECK(p.best.serving.output_tokens_per_s >= total * (1 - 1e-12));
        per_gpu = p.best.serving.output_tokens_per_s_per_gpu;
        total = p.best.serving.output_tokens_per_s;
    }
}

TEST_CASE("plan inference: impossible targets and models that fit nowhere give an empty answer, not an error",
          "[plan][plan_inference][bad_input]") {
    // 0.01 ms per output token: no GPU reads 140 GB (or a share of it) in 10 us.
    PlanRequest q = request(8);
    q.max_tpot_ms = 0.01;
    const PlanReport p = plan(q, catalog());
    CHECK_FALSE(p.has_best);
    CHECK(p.meeting == 0);
    CHECK(p.top.empty());
    CHECK(p.fitting > 0);
    CHECK_FALSE(p.pareto.empty());   // what each per-user speed costs, still
    const auto j = nlohmann::json::parse(plan_to_json(p));
    CHECK(j["best"].is_null());
    CHECK(j["top"].empty());
    // Llama 3.1 405B in bf16 (810 GB) on one 12 GB RTX 3060: nothing fits.
    PlanRequest big = request(1, "llama-3.1-405b");
    big.base.gpu = "rtx-3060";
    const PlanReport none = plan(big, catalog());
    CHECK(none.fitting == 0);
    CHECK(none.evaluated > 0);
    CHECK(none.pareto.empty());
    CHECK_FALSE(none.has_best);
}

TEST_CASE("plan inference: requests it cannot search name the key", "[plan][plan_inference][bad_input]") {
    const auto key_of = plan_error_key;
    PlanRequest q = request(8);
    q.base.isl = q.base.osl = 0;
    CHECK(key_of(q) == "isl");
    q = request(8);
    q.max_tpot_ms = -1;
    CHECK(key_of(q) == "max_tpot_ms");
    q = request(8);
    q.max_ttft_ms = std::numeric_limits<double>::quiet_NaN();
    CHECK(key_of(q) == "max_ttft_ms");
    q = request(8);
    q.base.mode = Mode::train;
    CHECK(key_of(q) == "mode");
    q = request(8);
    q.base.context = 1500;   // shorter than a request (isl + osl = 2,000)
    CHECK(key_of(q) == "isl");
}

TEST_CASE("plan inference: a mixture of experts is searched with expert parallelism", "[plan][plan_inference]") {
    // Mixtral 8x7B (8 experts) on 8 H100: ep 2, 4, 8 divide both tp x dp and the 8 experts.
    PlanRequest q = request(8, "mixtral-8x7b");
    q.top = 100;
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.has_best);
    bool ep_tried = false;
    for (const PlanLayout& l : p.top) {
        if (l.report.parallel.ep > 1) ep_tried = true;
        CHECK(l.report.serving.output_tokens_per_s_per_gpu > 0);
    }
    CHECK(ep_tried);
}

TEST_CASE("gpusizer plan --mode inference", "[plan][plan_inference][cli]") {
    const CliResult r = run_cli({"plan", "--mode", "inference", "--model", "llama-3-70b", "--gpu", "h100-sxm", "--gpus", "8", "--runtime",
                                 "vllm", "--isl", "1000", "--osl", "1000", "--max-tpot-ms", "30", "--top", "2", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["mode"] == "inference");
    CHECK(j["search"]["evaluated"].get<long long>() > 0);
    CHECK(j["search"]["seconds"].get<double>() >= 0);
    REQUIRE(j["best"].is_object());
    CHECK(j["best"]["tpot_s"].get<double>() <= 0.030);
    CHECK(j["pareto"].size() >= 2);
    CHECK(j["top"].size() == 2);
    CHECK(j["top"][0]["report"]["serving"]["output_tokens_per_s_per_gpu"].get<double>() ==
          Approx(j["best"]["output_tokens_per_s_per_gpu"].get<double>()));
    const CliResult text = run_cli({"plan", "--mode", "inference", "--model", "llama-3-70b", "--gpu", "h100-sxm", "--gpus", "8", "--isl",
                                    "1000", "--osl", "1000", "--max-ttft-ms", "500"});
    CHECK(text.code == 0);
    CHECK(text.out.find("Pareto front") != std::string::npos);
    CHECK(text.out.find("best") != std::string::npos);
    CHECK(run_cli({"plan", "--mode", "inference", "--model", "llama-3-70b", "--gpus", "8", "--isl", "1000", "--osl", "1000",
                   "--max-tpot-ms", "-3"}).code == 2);
    // --disaggregated: the text names each split point's prefill pool.
    const CliResult split = run_cli({"plan", "--mode", "inference", "--model", "llama-3-70b", "--gpu", "h100-sxm", "--gpus", "16",
                                     "--runtime", "vllm", "--isl", "1000", "--osl", "1000", "--disaggregated"});
    CHECK(split.code == 0);
    CHECK(split.out.find("prefill pool tp ") != std::string::npos);
}

TEST_CASE("plan inference: disaggregated prefill and decode pools", "[plan][plan_inference]") {
    // The same request with disaggregation also tries a decode pool fed by the fewest prefill
    // replicas that keep up with it (DistServe, Splitwise). Those points carry both pools within
    // the budget, decode-only steps (no prompt chunks: a TPOT no longer than the colocated step
    // at the same tp and requests in flight), and the search is a superset of the colocated one.
    PlanRequest q = request(16);
    q.max_tpot_ms = 25;
    const PlanReport colocated = plan(q, catalog());
    q.disaggregated = true;
    const PlanReport p = plan(q, catalog());
    REQUIRE(colocated.has_best);
    REQUIRE(p.has_best);
    CHECK(p.evaluated > colocated.evaluated);
    CHECK(p.best.serving.output_tokens_per_s_per_gpu >= colocated.best.serving.output_tokens_per_s_per_gpu);
    int split = 0;
    for (const PlanPoint& pt : p.pareto) {
        if (pt.prefill_gpus == 0) continue;
        ++split;
        CHECK(pt.gpus == pt.tp * pt.dp + pt.prefill_tp * pt.prefill_dp);
        CHECK(pt.prefill_gpus == pt.prefill_tp * pt.prefill_dp);
        CHECK(pt.gpus <= 16);
        CHECK(pt.serving.prefill_tokens_per_step == 0);
        // The prefill pool keeps up: its replicas' saturated rate covers the completions.
        CHECK(pt.serving.output_tokens_per_s == Approx(pt.serving.requests_per_s * 1000));
        // The decode-only step is no longer than the colocated step with the same replica and load.
        Config c = config("llama-3-70b", "h100-sxm");
        c.runtime = Runtime::vllm;
        c.tp = pt.tp;
        c.gpus = pt.tp;
        c.isl = 1000;
        c.osl = 1000;
        c.context = 2000;
        c.concurrency = int(std::lround(pt.concurrency / pt.dp));
        const Report r = run(c);
        INFO("decode tp " << pt.tp << " x " << pt.dp << ", prefill tp " << pt.prefill_tp << " x " << pt.prefill_dp << ", "
                          << c.concurrency << " in flight per replica");
        CHECK(pt.serving.tpot_s <= r.serving.tpot_s * (1 + 1e-12));
        CHECK(pt.serving.draw_fraction > 0);
        CHECK(pt.serving.draw_fraction <= 1);
    }
    CHECK(split > 0);
    // In JSON, each point says which it is.
    const auto j = nlohmann::json::parse(plan_to_json(p));
    bool any = false;
    for (const auto& pt : j["pareto"]) any = any || pt["disaggregated"].get<bool>();
    CHECK(any);
}

TEST_CASE("plan inference: SGLang's attention groups keep the layouts whose tp they divide", "[plan][plan_inference][sglang]") {
    // DeepSeek-V3.2-Exp FP8 on up to 8 B200 with --dp 8 --enable-dp-attention: the one-GPU probe
    // has no tp to divide, and the layouts below tp 8 are skipped, not an error.
    PlanRequest q = request(8, "deepseek-v3.2-exp");
    q.base.gpu = "b200";
    q.base.runtime = Runtime::sglang;
    q.base.weights = "fp8";
    q.base.kv_cache = "fp8";
    q.base.dp_attention = 8;
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.has_best);
    CHECK(p.best.tp == 8);
    for (const PlanPoint& x : p.pareto) CHECK(x.tp % 8 == 0);
    // The same search for a target rate finds the tp 8 replica too.
    q.target_rps = 1;
    q.max_tpot_ms = 200;
    const PlanReport t = plan(q, catalog());
    REQUIRE(t.has_best);
    CHECK(t.best.tp == 8);
    CHECK(t.best.gpus == 8);
}

TEST_CASE("plan inference: TensorRT-LLM's attention DP follows each layout's tp", "[plan][plan_inference][trt]") {
    // enable_attention_dp has no size: every rank of a layout is a group, so the search sets it to
    // the layout's tp (off at tp 1) and no layout is skipped for it.
    PlanRequest q = request(4, "qwen3-30b-a3b");
    q.base.gpu = "h100-sxm";
    q.base.runtime = Runtime::trt_llm;
    q.base.dp_attention = 2;   // "on": any count above 1
    const PlanReport with = plan(q, catalog());
    q.base.dp_attention = 0;
    const PlanReport without = plan(q, catalog());
    REQUIRE(with.has_best);
    // Layouts of tp 4 are searched with it (a fixed 2 would refuse every tp but 2), and run it: the
    // same layout's figures differ from plain TP's.
    const PlanPoint* two = nullptr;
    for (const PlanPoint& x : with.pareto)
        if (x.tp == 4 && !two) two = &x;
    REQUIRE(two != nullptr);
    Config c = q.base;
    c.tp = two->tp;
    c.pp = two->pp;
    c.dp = two->dp;
    c.ep = two->ep;
    c.gpus = two->gpus;
    c.concurrency = int(std::lround(two->concurrency));
    c.dp_attention = 4;
    CHECK(estimate(c, catalog()).serving.output_tokens_per_s == Approx(two->serving.output_tokens_per_s));
    c.dp_attention = 0;
    CHECK(estimate(c, catalog()).serving.output_tokens_per_s != Approx(two->serving.output_tokens_per_s));
    CHECK(without.has_best);
    PlanRequest one = q;
    one.base.dp_attention = 4;
    one.base.tp = 2;
    one.base.gpus = 2;
    CHECK(detail::attention_dp_for(one.base, 2) == 2);
    CHECK(detail::attention_dp_for(one.base, 1) == 0);
    one.base.runtime = Runtime::sglang;
    CHECK(detail::attention_dp_for(one.base, 2) == 4);   // SGLang's groups as given
}
