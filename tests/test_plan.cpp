// test_plan.cpp: the layout search (gpusizer/plan.hpp): what it enumerates, that its inner loop
// agrees with estimate() on every layout it reports, and its errors.
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "plan_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Llama 3 8B (32 layers, 32 heads, 8 KV heads) on 8 H100 (one NVSwitch node), 16 sequences of
// 2048 tokens per step.
PlanRequest small_request() {
    PlanRequest q;
    q.base = llama3_8b_training("h100-sxm", 8, 0, 0, 0);   // the split is what the search chooses
    return q;
}

}  // namespace

TEST_CASE("plan enumerates every layout of the space", "[plan]") {
    // tp in {1, 2, 4, 8} (powers of two within the 8-GPU node), pp divides 8 / tp, dp = 8 / (tp pp);
    // micro-batch b divides 16 / dp (at most 64); ZeRO 0-3 when dp > 1, else 0; recompute none,
    // selective, full; with pp > 1: 1F1B, ZB-H1 and interleaving v = 2, 4, 8 while pp v <= 32, and
    // DualPipe where pp is even and the m = 16 / (dp b) micro-batches are even and at least 2 pp.
    //   tp 1: pp 1 (dp 8, b 1,2):       2 x 4 x 3 x 1 =  24
    //         pp 2 (dp 4, b 1,2,4):     3 x 4 x 3 x 5 + 1 x 4 x 3 = 192   (dualpipe: b 1, m 4)
    //         pp 4 (dp 2, b 1..8):      4 x 4 x 3 x 5 + 1 x 4 x 3 = 252   (v 8: 4 x 8 = 32 chunks, one layer each; dualpipe: m 8)
    //         pp 8 (dp 1, b 1..16):     5 x 1 x 3 x 4 + 1 x 1 x 3 =  63   (v 8: 64 chunks > 32 layers; dualpipe: m 16)
    //   tp 2: pp 1 (dp 4): 3 x 4 x 3 x 1 = 36; pp 2 (dp 2): 4 x 4 x 3 x 5 + 2 x 4 x 3 = 264 (dualpipe: m 8, 4);
    //         pp 4 (dp 1): 5 x 1 x 3 x 5 + 2 x 1 x 3 = 81 (dualpipe: m 16, 8)
    //   tp 4: pp 1 (dp 2): 4 x 4 x 3 x 1 = 48; pp 2 (dp 1): 5 x 1 x 3 x 5 + 3 x 1 x 3 = 84 (dualpipe: m 16, 8, 4)
    //   tp 8: pp 1 (dp 1): 5 x 1 x 3 x 1 = 15
    // 531 + 381 + 132 + 15 = 1059 (993 without DualPipe's 66).
    PlanRequest q = small_request();
    q.offload = false;   // the count with offload is the next test's
    double best = 0;
    CHECK(plan_count(q, catalog(), &best) == 1059);
    const PlanReport p = plan(q, catalog());
    CHECK(p.evaluated == 1059);
    CHECK(p.fitting > 0);
    CHECK(p.fitting <= p.evaluated);
    REQUIRE(p.top.size() == 5);
    CHECK(p.top[0].step_s == Approx(best));
    CHECK(p.seconds >= 0);
}

TEST_CASE("plan enumerates offload and expert parallelism", "[plan]") {
    // Offload doubles the ZeRO choices where dp > 1: ZeRO 0 (no offload), ZeRO 1 and 2 (none or the
    // optimizer), ZeRO 3 (none, the optimizer, the optimizer and the parameters) = 8 against 4.
    // Of the 1059 layouts above, those with dp > 1 are 24 + 192 + 252 + 36 + 264 + 48 = 816 and
    // those with dp = 1 are 63 + 81 + 84 + 15 = 243: 2 x 816 + 243 = 1875.
    PlanRequest q = small_request();
    CHECK(plan_count(q, catalog(), nullptr) == 1875);
    // A dense model has no expert parallelism to try: the switch changes nothing.
    q.expert_parallel = false;
    CHECK(plan_count(q, catalog(), nullptr) == 1875);
    // Mixtral 8x7B (8 experts) on 8 H100: ep 1, 2, 4, 8 where it divides tp x dp (8 at pp 1).
    PlanRequest moe = train_request("mixtral-8x7b", 8, 16, 4096);
    moe.offload = false;
    moe.expert_parallel = false;
    const long long without = plan_count(moe, catalog(), nullptr);
    moe.expert_parallel = true;
    const long long with = plan_count(moe, catalog(), nullptr);
    CHECK(with > without);
    moe.top = 30;
    const PlanReport p = plan(moe, catalog());
    REQUIRE(!p.top.empty());
    bool some_ep = false;
    for (const PlanLayout& l : p.top) {
        some_ep = some_ep || l.config.ep > 1;
        check_confirmed(l);
    }
    CHECK(some_ep);
    // Offloaded layouts agree with estimate() too: Llama 3 70B on 8 H100 fits only with ZeRO-3
    // and recomputation; the 30 best include the offloaded ones.
    PlanRequest big = small_request();
    big.base.model.id = "llama-3-70b";
    big.top = 40;
    const PlanReport b = plan(big, catalog());
    bool some_offload = false;
    for (const PlanLayout& l : b.top) {
        some_offload = some_offload || l.config.offload != Offload::none;
        check_confirmed(l);
    }
    CHECK(some_offload);
}

TEST_CASE("plan: the time and cost to train on D tokens", "[plan]") {
    PlanRequest q = small_request();
    q.tokens = 1e12;
    q.top = 2;
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.top.size() == 2);
    CHECK(p.tokens == 1e12);
    for (const PlanLayout& l : p.top) {
        const PlanRun& run = l.run;
        // D / (tokens per second); GPU-hours = seconds x 8 GPUs / 3600.
        CHECK(run.seconds == Approx(1e12 / l.report.speed.train_tokens_per_s));
        CHECK(run.gpu_hours == Approx(run.seconds * 8 / 3600));
        // Electricity: the estimate's energy for the run at its usd_per_kwh.
        CHECK(l.report.config.train_tokens == 1e12);
        CHECK(run.energy_usd == Approx(l.report.power.energy_kwh * 0.15));
        // The H100 SXM's catalog price, $27,500, over 4 years of 365.25 x 24 hours, for the hours
        // the GPUs are held: the steps' GPU-hours over the run's goodput.
        CHECK(run.wall_gpu_hours == Approx(run.gpu_hours / l.report.speed.train_goodput_fraction));
        CHECK(run.hardware_usd == Approx(27500.0 * run.wall_gpu_hours / (4 * 365.25 * 24)));
        CHECK(run.cost_usd == Approx(run.energy_usd + run.hardware_usd));
    }
    // A GPU without a price (the B300 has none in the catalog): no cost, and the note says why.
    q.base.gpu = "b300";
    q.base.gpus = 4;
    q.base.global_batch = 8;
    const PlanReport g = plan(q, catalog());
    REQUIRE(!g.top.empty());
    CHECK(g.top[0].run.gpu_hours > 0);
    CHECK(g.top[0].run.cost_usd == 0);
    CHECK(g.top[0].run.cost_note.find("no cost") == 0);
    // Without tokens: no run.
    q = small_request();
    const PlanReport none = plan(q, catalog());
    CHECK(none.top[0].run.seconds == 0);
    // Context parallelism is searched now (tests/test_context_parallel.cpp): not listed as left out.
    for (const std::string& n : none.not_searched) CHECK(n.rfind("cp ", 0) != 0);
}

TEST_CASE("plan: the inner loop agrees with estimate() on every layout it reports", "[plan]") {
    // The 100 fastest layouts, each re-run through estimate(): the search's step time and memory
    // per GPU must be estimate()'s, layout by layout (they share train_step() and
    // train_stage_terms(); the ZeRO and buffer accounting is composed in plan.cpp).
    PlanRequest q = small_request();
    q.top = 100;
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.top.size() == 100);
    for (const PlanLayout& l : p.top) {
        CHECK(l.report.fits);
        check_confirmed(l);
    }
    // Ranked by step time, fastest first.
    for (std::size_t i = 1; i < p.top.size(); ++i) CHECK(p.top[i - 1].report.speed.train_step_s <= p.top[i].report.speed.train_step_s);
    // A 70B model on 64 GPUs: pipelines of 2 to 64 stages, three nodes' worth of layouts and more.
    PlanRequest big = train_request("llama-3-70b", 64, 512, 8192);
    big.top = 20;
    const PlanReport b = plan(big, catalog());
    REQUIRE(!b.top.empty());
    for (const PlanLayout& l : b.top) check_confirmed(l);
    // Every framework lays its states and buffers out its own way (training/frameworks.cpp): the
    // search's memory is estimate()'s for each.
    for (TrainingFramework fw : {TrainingFramework::deepspeed, TrainingFramework::fsdp, TrainingFramework::hf_trainer}) {
        INFO(to_string(fw));
        PlanRequest f = small_request();
        f.base.training_framework = fw;
        f.top = 40;
        for (const PlanLayout& l : plan(f, catalog()).top) check_confirmed(l);
    }
    // Why the best beats the next: the two step times and layouts first, memory last.
    REQUIRE(b.why.size() >= 2);
    CHECK(b.why.front().rfind("step ", 0) == 0);
    CHECK(b.why.back().rfind("memory per GPU", 0) == 0);
}

TEST_CASE("plan: requests it cannot search name the key", "[plan][bad_input]") {
    const auto key_of = plan_error_key;
    PlanRequest q = small_request();
    q.mode = PlanMode::inference;
    CHECK(key_of(q) == "mode");
    q = small_request();
    q.base.mode = Mode::lora;
    CHECK(key_of(q) == "mode");
    q = small_request();
    q.base.global_batch = 0;   // the search needs it
    CHECK(key_of(q) == "global_batch");
    q = small_request();
    q.top = 0;
    CHECK(key_of(q) == "top");
    q = small_request();
    q.tokens = -1;
    CHECK(key_of(q) == "tokens");
    q = small_request();
    q.base.model.id = "no-such-model";
    CHECK(key_of(q) == "model");
    // Too little memory for any layout: an empty list, not an error.
    q = small_request();
    q.base.gpu = "rtx-3060";
    q.base.gpus = 2;
    q.base.global_batch = 2;
    q.offload = false;
    const PlanReport none = plan(q, catalog());
    CHECK(none.top.empty());
    CHECK(none.fitting == 0);
    CHECK(none.evaluated > 0);
    // With offload, ZeRO-3 with the parameters in host memory (ZeRO-Infinity) fits: 8B x 2 bytes
    // of weights alone are 16 GB against 2 x 12 GB.
    q.offload = true;
    const PlanReport offloaded = plan(q, catalog());
    REQUIRE(!offloaded.top.empty());
    for (const PlanLayout& l : offloaded.top) CHECK(l.config.offload == Offload::optimizer_params);
}

TEST_CASE("gpusizer plan --mode train", "[plan][cli]") {
    const CliResult r = run_cli({"plan", "--mode", "train", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "8",
                                 "--global-batch", "16", "--context", "2048", "--top", "3", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["search"]["evaluated"] == 1875);   // the space of "plan enumerates offload and expert parallelism"
    CHECK(j["top"].size() == 3);
    // The step's parts: compute, bubble, exposed communication, the optimizer step (on the CPU
    // with offload, else on the GPU), the scalar syncs and step_overhead_s (test_scale.cpp).
    const auto& t = j["top"][0]["time"];
    CHECK(t["step_s"].get<double>() ==
          Approx(t["compute_s"].get<double>() + t["bubble_s"].get<double>() + t["exposed_comm_s"].get<double>() +
                 t["optimizer_step_host_s"].get<double>() + t["optimizer_step_s"].get<double>() + t["step_sync_s"].get<double>() +
                 t["step_overhead_s"].get<double>()));
    const CliResult text = run_cli({"plan", "--mode", "train", "--model", "llama-3-8b", "--gpus", "8", "--gpu", "h100-sxm",
                                    "--global-batch", "16", "--context", "2048"});
    CHECK(text.code == 0);
    CHECK(text.out.find("why #1 beats #2") != std::string::npos);
    const CliResult run = run_cli({"plan", "--mode", "train", "--model", "llama-3-8b", "--gpus", "8", "--gpu", "h100-sxm",
                                   "--global-batch", "16", "--context", "2048", "--tokens", "1T", "--no-offload", "--json"});
    REQUIRE(run.code == 0);
    const auto jr = nlohmann::json::parse(run.out);
    CHECK(jr["search"]["evaluated"] == 1059);   // --no-offload: the space of "plan enumerates every layout"
    CHECK(jr["tokens"] == 1e12);
    CHECK(jr["top"][0]["run"]["gpu_hours"].get<double>() > 0);
    CHECK(jr["top"][0]["run"]["cost_usd"].get<double>() > jr["top"][0]["run"]["energy_usd"].get<double>());
    CHECK(run_cli({"plan", "--mode", "train", "--model", "llama-3-8b", "--gpus", "8", "--global-batch", "16", "--tokens", "lots"}).code ==
          2);
    CHECK(run_cli({"plan", "--mode", "train", "--model", "llama-3-8b", "--gpus", "8", "--global-batch", "16", "--top", "0"}).code == 2);
    CHECK(run_cli({"plan", "--model", "llama-3-8b", "--gpus", "8", "--global-batch", "16"}).code == 2);   // no --mode
}

TEST_CASE("plan: dualpipe layouts are ones the estimate accepts, on their own memory", "[plan][dualpipe]") {
    // DualPipe is searched where resolve takes it: an even pp and an even number of micro-batches,
    // at least 2 pp (DeepSeek-V3 report, sec. 3.2.1; deepseek-ai/DualPipe's DualPipe.step). At pp 2 its bubble is (2/2 - 1) 2/3 = 0 micro-batch
    // times, so among Llama 3 8B's layouts on 8 H100 it leads every pp 2 layout that fits.
    PlanRequest q = small_request();
    q.top = 100;
    const PlanReport p = plan(q, catalog());
    int dual = 0;
    for (const PlanLayout& l : p.top) {
        if (l.config.pp_schedule != PipeSchedule::dualpipe) continue;
        ++dual;
        CHECK(l.config.pp % 2 == 0);
        const long long m = l.config.global_batch / (l.config.batch * l.config.dp);
        CHECK(m % 2 == 0);
        CHECK(m >= 2 * l.config.pp);
        CHECK(error_key(l.config).empty());   // estimate() accepts the layout as offered
        CHECK(l.report.fits);
        // The search's memory is estimate()'s: 2x the parameters, p + 1 micro-batches of a chunk.
        check_confirmed(l);
    }
    CHECK(dual > 0);
    // The same layout under ZB-H1 needs less memory (half the parameters; p of a stage's
    // micro-batches against p + 1 of a chunk's).
    for (const PlanLayout& l : p.top) {
        if (l.config.pp_schedule != PipeSchedule::dualpipe) continue;
        Config z = l.config;
        z.pp_schedule = PipeSchedule::zero_bubble;
        CHECK(run(z).per_gpu.total() < l.memory);
        break;
    }
}
