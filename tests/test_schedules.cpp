// test_schedules.cpp: training pipeline schedules (1F1B, interleaved, ZB-H1), the step taken
// apart (compute, bubble, exposed communication), and their activation memory.
#include "estimate_internal.hpp"
#include "interconnect.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Llama 3 8B (32 layers) on 8 H100: tp 1, pp 4, dp 2, micro-batch 1 of 2048 tokens, global batch
// 16: m = 16 / (1 x 2) = 8 micro-batches per step.
Config pipeline(PipeSchedule s, int v = 0) {
    Config c = llama3_8b_training("h100-sxm", 8, 1, 4, 2);
    c.pp_schedule = s;
    c.virtual_stages = v;
    return c;
}

}  // namespace

TEST_CASE("pipeline bubble per schedule", "[schedules][training]") {
    const Report a = run(pipeline(PipeSchedule::one_f_one_b));
    // 1F1B: (p - 1) / (m + p - 1) = 3 / 11 (Narayanan et al. 2021, sec. 2.2.1).
    CHECK(a.speed.bubble_fraction == Approx(3.0 / 11));
    CHECK(a.interconnect.pp_bubble_fraction == Approx(3.0 / 11));
    CHECK(a.interconnect.pp_schedule == "1f1b");
    // The step taken apart: compute + bubble + exposed communication.
    CHECK(a.speed.train_step_s == Approx(a.speed.compute_s + a.speed.bubble_s + a.speed.exposed_comm_s));
    CHECK(a.speed.exposed_comm_s == Approx(a.interconnect.exposed_s_per_step));
    // bubble_s = compute_s x (p - 1) / m = compute_s x 3 / 8.
    CHECK(a.speed.bubble_s == Approx(a.speed.compute_s * 3.0 / 8));

    // Interleaved, v = 2 (the default): the bubble is (p - 1) / v = 1.5 micro-batch times:
    // 1.5 / (8 + 1.5) = 3 / 19 (sec. 2.2.2); the same math, twice the pipeline sends.
    const Report b = run(pipeline(PipeSchedule::interleaved));
    CHECK(b.config.virtual_stages == 2);
    CHECK(b.interconnect.virtual_stages == 2);
    CHECK(b.speed.bubble_fraction == Approx(3.0 / 19));
    CHECK(b.speed.compute_s == Approx(a.speed.compute_s));
    CHECK(b.interconnect.pp_comm_s_per_step == Approx(2.0 * a.interconnect.pp_comm_s_per_step));
    // v = 4: 0.75 / 8.75 = 3 / 35.
    CHECK(run(pipeline(PipeSchedule::interleaved, 4)).speed.bubble_fraction == Approx(3.0 / 35));

    // ZB-H1: (p - 1)(T_F + T_B - T_W) against 1F1B's (p - 1)(T_F + T_B + T_W), a third with
    // T_F = T_B = T_W (Qi et al. 2023, sec. 3.1): 1 / (8 + 1) = 1 / 9.
    const Report z = run(pipeline(PipeSchedule::zero_bubble));
    CHECK(z.speed.bubble_fraction == Approx(1.0 / 9));
    CHECK(z.speed.bubble_s == Approx(a.speed.bubble_s / 3));
    CHECK(z.speed.train_step_s < a.speed.train_step_s);

    // Without a pipeline there is no bubble, whatever the schedule says.
    Config flat = pipeline(PipeSchedule::zero_bubble);
    flat.pp = 1;
    flat.dp = 8;
    flat.global_batch = 16;
    const Report f = run(flat);
    CHECK(f.speed.bubble_fraction == 0);
    CHECK(f.speed.bubble_s == 0);
    CHECK(f.interconnect.pp_schedule == "none");
}

TEST_CASE("activation memory per schedule", "[schedules][training][memory]") {
    // The first stage holds p = 4 micro-batches under 1F1B (and ZB-H1: same peak memory,
    // Qi et al. 2023). Interleaved with v = 2 (Megatron schedules.py): 2(p - 1) + (v - 1) p + 1
    // = 6 + 4 + 1 = 11 chunks of half a stage = 5.5 stage-micro-batches, i.e. p (1 + (p - 1) /
    // (p v)) = 4 x 11/8 (Korthikanti et al. 2022, sec. 4.2.3). Every activation term of stage 0
    // scales with it (no recompute, no LoRA): 5.5 / 4 = 1.375.
    const Report a = run(pipeline(PipeSchedule::one_f_one_b));
    const Report z = run(pipeline(PipeSchedule::zero_bubble));
    const Report b = run(pipeline(PipeSchedule::interleaved));
    CHECK(z.per_gpu.activations == Approx(a.per_gpu.activations));
    CHECK(b.per_gpu.activations == Approx(a.per_gpu.activations * 1.375));
    // Per stage (detail::train_inflight_micro_batches(p, s, m, v)): v = 4 on the first stage:
    // 6 + 12 + 1 = 19 chunks of a quarter stage = 4.75 = 4 x (1 + 3/16); on the last stage the
    // warm-up is (v - 1) p = 12 chunks, + 1 = 13 / 4 = 3.25 (1F1B: 1). With 32 layers and a
    // 128k vocabulary the last stage's loss then makes it the most loaded GPU.
    CHECK(detail::train_inflight_micro_batches(4, 0, 8, 4) == Approx(4.75));
    CHECK(detail::train_inflight_micro_batches(4, 3, 8, 4) == Approx(3.25));
    CHECK(detail::train_inflight_micro_batches(4, 3, 8, 1) == 1);
    CHECK(detail::train_inflight_micro_batches(4, 0, 8, 1) == 4);
    // Fewer micro-batches than the warm-up: m = 2 caps the chunks at m x v = 4, every forward
    // runs before the first backward: 2 stage-micro-batches on every stage (1F1B: min(p - s, 2)).
    CHECK(detail::train_inflight_micro_batches(4, 0, 2, 2) == 2);
    CHECK(detail::train_inflight_micro_batches(4, 3, 2, 2) == 2);
    CHECK(detail::train_inflight_micro_batches(4, 3, 2, 1) == 1);
}

TEST_CASE("schedule keys: bad values name the key", "[schedules][bad_input]") {
    Config c = pipeline(PipeSchedule::one_f_one_b, 2);   // chunks without interleaving
    CHECK(error_key(c) == "virtual_stages");
    c = pipeline(PipeSchedule::interleaved, 16);   // 4 x 16 = 64 chunks > 32 layers
    CHECK(error_key(c) == "virtual_stages");
    c = pipeline(PipeSchedule::interleaved, 8);    // 4 x 8 = 32: one layer a chunk
    CHECK(error_key(c).empty());
    Config inf = config("llama-3-8b", "h100-sxm");
    inf.pp_schedule = PipeSchedule::zero_bubble;
    CHECK(error_key(inf) == "pp_schedule");
    CHECK_THROWS_AS(parse_pp_schedule("gpipe"), Error);
}
