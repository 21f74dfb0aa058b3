// test_goodput.cpp: the run's goodput (training/goodput.cpp), derived by hand: interruptions,
// checkpoints at the Young-Daly interval, evaluation and the batch ramp; the wall time, the run's
// cost on it, and the plan search ranked by it.
#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "training/goodput.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using json = nlohmann::json;

TEST_CASE("goodput of a 1,024-GPU run by hand: interruptions, Young-Daly checkpoints, evaluation", "[goodput]") {
    // An 80B-parameter model trained in bf16 with AdamW: 14 bytes a parameter checkpointed
    // (2 weights + 4 master + 8 moments) = 1.12 TB. 1,024 GPUs on 128 nodes, each writing 1 GB/s.
    detail::GoodputInputs in;
    in.gpus = 1024;
    in.nodes = 128;
    in.checkpoint_bytes = 80e9 * 14;
    in.step_s = 10;
    in.step_fixed_s = 2;
    in.tokens_per_step = 4e6;
    in.failures_per_gpu_hour = 2e-5;
    in.restart_s = 600;
    in.write_bytes_per_s_per_node = 1e9;
    in.eval_interval_steps = 1000;
    in.eval_iters = 100;
    const GoodputReport g = detail::goodput(in);

    // f = 2e-5 x 1,024 / 3,600 = 5.689e-6 interruptions a second: one every 175,781 s (48.8 h).
    const double f = 2e-5 * 1024 / 3600;
    CHECK(g.job_mtbf_s == Approx(175781.25));
    // Ts = 1.12e12 / (128 x 1e9) = 8.75 s; Young: Tc = sqrt(2 x 8.75 x 175,781.25) = 1,753.9 s.
    CHECK(g.checkpoint_save_s == Approx(8.75));
    CHECK(g.checkpoint_interval_s == Approx(std::sqrt(2 * 8.75 * 175781.25)));
    CHECK(g.checkpoint_interval_s == Approx(1753.9).epsilon(1e-4));
    // A restart: 600 s + reading the checkpoint back (8.75 s); then half an interval (and its
    // save) is redone: L = 608.75 + (1,753.9 + 8.75) / 2 = 1,490.1 s.
    const double tc = g.checkpoint_interval_s;
    CHECK(g.restart_s == Approx(608.75));
    CHECK(g.lost_s_per_failure == Approx(608.75 + (tc + 8.75) / 2));
    // Evaluation: 100 forward passes every 1,000 steps, a third of a 10 s step each: 0.333 s a step.
    CHECK(g.eval_s_per_step == Approx(100.0 / 1000 * 10 / 3));
    // One step's wall time: (10 + 0.333) x (1 + 8.75 / Tc) / (1 - f L) = 10.474 s; 95.5% of it steps.
    const double work = 10 + 10.0 / 30;
    const double wall = work * (1 + 8.75 / tc) / (1 - f * g.lost_s_per_failure);
    CHECK(wall == Approx(10.474).epsilon(1e-3));
    CHECK(g.steps_fraction == Approx(10 / wall));
    CHECK(g.eval_fraction == Approx(10.0 / 30 / wall));
    CHECK(g.checkpoint_fraction == Approx(work * 8.75 / tc / wall));
    CHECK(g.failure_fraction == Approx(f * g.lost_s_per_failure));
    CHECK(g.steps_fraction + g.eval_fraction + g.checkpoint_fraction + g.failure_fraction == Approx(1.0));
    CHECK_FALSE(g.never_finishes);
    CHECK(g.interruptions == 0);   // no run asked: shares per step only

    SECTION("over a run of 4e12 tokens with a ramp of 1e11") {
        in.train_tokens = 4e12;
        in.ramp_tokens = 1e11;
        const GoodputReport run = detail::goodput(in);
        // 1e6 steps of 10 s; the ramp's 25,000 steps of tokens take twice the steps at half the
        // batch, each paying the 2 s fixed: 25,000 x 2 = 50,000 s more.
        CHECK(run.ramp_extra_s == Approx(1e11 / 4e6 * 2));
        const double steps_s = 1e6 * 10, eval_s = 1e6 * 10.0 / 30, ramp_s = 50000;
        const double run_wall = (steps_s + eval_s + ramp_s) * (1 + 8.75 / tc) / (1 - f * run.lost_s_per_failure);
        CHECK(run.steps_fraction == Approx(steps_s / run_wall));
        CHECK(run.ramp_fraction == Approx(ramp_s / run_wall));
        CHECK(run.interruptions == Approx(f * run_wall));   // about 60 over 122 days
        CHECK(run.interruptions == Approx(59.9).epsilon(0.01));
    }
    SECTION("a given interval: its saves and half of it redone") {
        in.checkpoint_interval_s = 3600;
        const GoodputReport hourly = detail::goodput(in);
        CHECK(hourly.checkpoint_interval_s == 3600);
        CHECK(hourly.lost_s_per_failure == Approx(608.75 + (3600 + 8.75) / 2));
        // Young's interval is the optimum: an hourly one loses more.
        CHECK(hourly.steps_fraction < g.steps_fraction);
    }
    SECTION("no interruptions, no evaluation: every second is a step, no checkpoint needed") {
        in.failures_per_gpu_hour = 0;
        in.eval_interval_steps = 0;
        const GoodputReport none = detail::goodput(in);
        CHECK(none.steps_fraction == 1.0);
        CHECK(none.checkpoint_interval_s == 0);
        CHECK(none.job_mtbf_s == 0);
    }
    SECTION("interruptions faster than the work between them survives: the run never finishes") {
        in.failures_per_gpu_hour = 0.01;   // f = 2.84e-3 /s, one every 352 s, each losing over 608 s
        const GoodputReport never = detail::goodput(in);
        CHECK(never.never_finishes);
        CHECK(never.steps_fraction == 0);
    }
}

TEST_CASE("checkpoint bytes: weights, master copy and optimizer states, adapters only for LoRA", "[goodput]") {
    Config c;
    c.mode = Mode::train;
    CHECK(detail::checkpoint_bytes(c, 8e9, 8e9, false, 4096) == Approx(8e9 * 14));   // bf16 + fp32 master + m, v
    CHECK(detail::checkpoint_bytes(c, 8e9, 8e9, true, 4096) == Approx(8e9 * 12));   // fp32: no master copy
    c.optimizer = Optimizer::adamw_8bit;
    CHECK(detail::checkpoint_bytes(c, 8e9, 8e9, false, 4096) == Approx(8e9 * 8));
    c.mode = Mode::lora;
    c.optimizer = Optimizer::adamw;
    CHECK(detail::checkpoint_bytes(c, 8e9, 42e6, false, 4096) == Approx(42e6 * 12));   // fp32 adapters + m, v
}

TEST_CASE("goodput through the estimate: the report's keys, the wall time and the run's cost on it", "[goodput]") {
    Config c = hgx_h100_8b_training();
    c.train_tokens = 1e10;
    c.rent_usd_per_gpu_hour = 2.0;
    const Report r = run(c);
    const SpeedReport& s = r.speed;
    REQUIRE(s.goodput.active);
    // 8 GPUs on one node: checkpoint 8.03e9 x 14 bytes at 1 GB/s.
    CHECK(s.goodput.checkpoint_bytes == Approx(r.params * 14));
    CHECK(s.goodput.checkpoint_save_s == Approx(r.params * 14 / 1e9));
    CHECK(s.goodput.job_mtbf_s == Approx(3600 / (2.195e-5 * 8)));
    CHECK(s.train_wall_time_s == Approx(s.train_time_s / s.train_goodput_fraction));
    CHECK(s.train_goodput_fraction > 0.9);   // eight GPUs rarely stop; evaluation costs 3.3%
    CHECK(s.train_goodput_fraction < 0.97);
    // Renting is paid for the wall time.
    CHECK(r.cost.rent_usd_per_run == Approx(2.0 * 8 * s.train_wall_time_s / 3600));
    const json j = json::parse(report_to_json(r));
    CHECK(j["speed"]["train_goodput_fraction"].get<double>() == Approx(s.train_goodput_fraction));
    CHECK(j["speed"]["train_wall_time_s"].get<double>() == Approx(s.train_wall_time_s));
    CHECK(j["speed"]["goodput"]["checkpoint_interval_s"].get<double>() == Approx(s.goodput.checkpoint_interval_s));

    // Inference has none.
    const json inf = json::parse(report_to_json(run(config("llama-3-8b", "h100-sxm"))));
    CHECK(inf["speed"]["goodput"].is_null());
    CHECK(inf["speed"]["train_goodput_fraction"].is_null());

    // A run that never finishes: a warning, no wall time, no cost per run.
    c.failures_per_gpu_hour = 0.1;
    c.restart_s = 86400;
    const Report never = run(c);
    CHECK(never.speed.goodput.never_finishes);
    CHECK(has_warning(never, "never finishes"));
    const json jn = json::parse(report_to_json(never));
    CHECK(jn["speed"]["train_wall_time_s"].is_null());
    CHECK(jn["cost"]["rent_usd_per_run"].is_null());
}

TEST_CASE("the goodput keys travel in links and are checked", "[goodput][links]") {
    Config c = hgx_h100_8b_training();
    c.failures_per_gpu_hour = 1e-4;
    c.restart_s = 120;
    c.checkpoint_write_gb_per_s = 5;
    c.checkpoint_interval_s = 1800;
    c.eval_interval_steps = 0;
    c.batch_ramp_tokens = 1e9;
    const Config back = config_from_link(link_from_config(c));
    CHECK(back.failures_per_gpu_hour == 1e-4);
    CHECK(back.restart_s == 120);
    CHECK(back.checkpoint_write_gb_per_s == 5);
    CHECK(back.checkpoint_interval_s == 1800);
    CHECK(back.eval_interval_steps == 0);
    CHECK(back.batch_ramp_tokens == 1e9);
    CHECK_THROWS_WITH(config_from_json(R"({"model": "llama-3-8b", "restart_s": -1})"), Catch::Contains("restart_s"));
}

TEST_CASE("the training plan ranks layouts by wall time, and its run carries it", "[goodput][plan]") {
    PlanRequest q;
    q.base = hgx_h100_8b_training();
    q.base.train_tokens = 1e10;
    q.top = 4;
    const PlanReport p = plan(q, catalog());
    REQUIRE(p.top.size() >= 2);
    for (std::size_t i = 0; i < p.top.size(); ++i) {
        const PlanLayout& l = p.top[i];
        CHECK(l.run.goodput_fraction == Approx(l.report.speed.train_goodput_fraction));
        CHECK(l.run.wall_seconds == Approx(l.run.seconds / l.run.goodput_fraction));
        CHECK(l.run.wall_gpu_hours == Approx(l.run.wall_seconds * 8 / 3600));
        if (i > 0)
            CHECK(p.top[i - 1].report.speed.train_step_s / p.top[i - 1].run.goodput_fraction <=
                  l.report.speed.train_step_s / l.run.goodput_fraction);
    }
}
