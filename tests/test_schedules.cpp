// test_schedules.cpp: training pipeline schedules (1F1B, interleaved, ZB-H1), the step taken
// apart (compute, bubble, exposed communication), and their activation memory.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "estimate_internal.hpp"
#include "interconnect.hpp"
#include "performance.hpp"
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

// Qwen3-30B-A3B (48 layers, all MoE, 128 experts) training on 32 H100 (4 nodes of 8): tp 1, ep 16
// (each all-to-all spans 2 nodes), sequences of 4096 tokens, global batch 64, no recomputation.
Config qwen3_moe_on_32_h100(int pp, int dp) {
    Config c = config("qwen3-30b-a3b", "h100-sxm");
    c.mode = Mode::train;
    c.gpus = 32;
    c.tp = 1;
    c.pp = pp;
    c.dp = dp;
    c.ep = 16;
    c.context = 4096;
    c.global_batch = 64;
    c.recompute = Recompute::none;
    return c;
}

}  // namespace

TEST_CASE("pipeline bubble per schedule", "[schedules][training]") {
    const Report a = run(pipeline(PipeSchedule::one_f_one_b));
    // 1F1B: (p - 1) / (m + p - 1) = 3 / 11 (Narayanan et al. 2021, sec. 2.2.1).
    CHECK(a.speed.bubble_fraction == Approx(3.0 / 11));
    CHECK(a.interconnect.pp_bubble_fraction == Approx(3.0 / 11));
    CHECK(a.interconnect.pp_schedule == "1f1b");
    // The step taken apart: compute + bubble + exposed communication + the optimizer step and the
    // scalar syncs (test_scale.cpp).
    CHECK(a.speed.train_step_s ==
          Approx(a.speed.compute_s + a.speed.bubble_s + a.speed.exposed_comm_s + a.speed.optimizer_step_s + a.speed.step_sync_s));
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

TEST_CASE("dualpipe: bubble, dense model", "[schedules][training][dualpipe]") {
    // DeepSeek-V3 technical report (arXiv:2412.19437), Table 2: DualPipe's bubble is
    // (PP/2 - 1)(F&B + B - 3W). F&B (a forward and a backward chunk overlapped) costs F + B of
    // compute; with F = W and B = 2W: (PP/2 - 1)(3F + 2F - 3F) = (PP/2 - 1) 2F against a
    // micro-batch's F + B = 3F. PP = 16: 7 x 2/3 = 14/3 micro-batch times (ZB-H1: 15/3 = 5,
    // 1F1B: 15); PP = 2: none.
    CHECK(detail::bubble_micro_batches(PipeSchedule::dualpipe, 1, 16) == Approx(14.0 / 3));
    CHECK(detail::bubble_micro_batches(PipeSchedule::zero_bubble, 1, 16) == Approx(5.0));
    CHECK(detail::bubble_micro_batches(PipeSchedule::dualpipe, 1, 2) == 0);

    // Llama 3 8B, pp 4, m = 8: (4/2 - 1) x 2/3 = 2/3 micro-batch times, 2/3 / (8 + 2/3) = 1/13.
    const Report a = run(pipeline(PipeSchedule::one_f_one_b));
    const Report z = run(pipeline(PipeSchedule::zero_bubble));
    const Report d = run(pipeline(PipeSchedule::dualpipe));
    CHECK(d.interconnect.pp_schedule == "dualpipe");
    CHECK(d.speed.bubble_fraction == Approx(1.0 / 13));
    CHECK(d.speed.bubble_s == Approx(d.speed.compute_s * (2.0 / 3) / 8));
    // A dense model has no all-to-all to hide, so no SMs go to communication: the same math as
    // 1F1B, the same pipeline sends as ZB-H1 (exposed); only the bubble differs.
    CHECK(d.speed.compute_s == Approx(a.speed.compute_s));
    CHECK(d.interconnect.ep_comm_s_per_step == 0);
    CHECK(d.interconnect.ep_exposed_s_per_step == 0);
    CHECK(d.interconnect.pp_exposed_s_per_step == Approx(z.interconnect.pp_exposed_s_per_step));
    CHECK(d.speed.train_step_s ==
          Approx(d.speed.compute_s + d.speed.bubble_s + d.speed.exposed_comm_s + d.speed.optimizer_step_s + d.speed.step_sync_s));
    // Each GPU holds two stages (DeepSeek-V3 report, Table 2: 2x the parameters), so it updates
    // twice the parameters; the bubble is what DualPipe saves, and here the larger update costs
    // more than it: compare the steps without their updates.
    CHECK(d.speed.optimizer_step_s == Approx(2.0 * z.speed.optimizer_step_s));
    CHECK(d.speed.train_step_s - d.speed.optimizer_step_s < z.speed.train_step_s - z.speed.optimizer_step_s);
}

TEST_CASE("dualpipe: 2x the parameters, p + 1 micro-batches of activations", "[schedules][training][memory][dualpipe]") {
    // DeepSeek-V3 technical report (arXiv:2412.19437), Table 2 (and the deepseek-ai/DualPipe
    // README): per device 1F1B and ZB1P hold 1x the parameters and PP micro-batches of
    // activations, DualPipe 2x and PP + 1: device s holds stage s and stage p - 1 - s.
    // Llama 3 8B: a layer is q 4096^2 + k, v 4096 x 1024 + o 4096^2 = 41,943,040, the MLP
    // 3 x 4096 x 14,336 = 176,160,768, two norms 8,192: 218,112,000. Embedding and head
    // 128,256 x 4096 = 525,336,576 each, final norm 4,096. pp 4: 8 layers a stage.
    const double layer = 218112000.0, table = 525336576.0;
    const Config zc = pipeline(PipeSchedule::zero_bubble);
    const Config dc = pipeline(PipeSchedule::dualpipe);
    const detail::Resolved zr = detail::resolve(zc, catalog());
    const detail::Resolved dr = detail::resolve(dc, catalog());
    detail::TrainStageTerms z[4], d[4];
    for (int s = 0; s < 4; ++s) {
        z[s] = detail::train_stage_terms(zr, s);
        d[s] = detail::train_stage_terms(dr, s);
    }
    // ZB-H1: stage 0 = 8 layers + embedding, stage 3 = 8 layers + final norm + head.
    CHECK(z[0].params == Approx(8 * layer + table));
    CHECK(z[3].params == Approx(8 * layer + 4096 + table));
    // DualPipe: devices 0 and 3 hold stages 0 and 3: 16 layers, both tables and the final norm,
    // 4,540,469,248 parameters; devices 1 and 2 hold stages 1 and 2: 16 layers, 3,489,792,000.
    CHECK(d[0].params == Approx(4540469248.0));
    CHECK(d[3].params == Approx(4540469248.0));
    CHECK(d[1].params == Approx(16 * layer));
    CHECK(d[1].params == Approx(2 * z[1].params));
    CHECK(d[0].weights == Approx(z[0].weights + z[3].weights));
    // Activations per micro-batch in flight: both chunks' layers (stage 1: 2 x 8 layers, no
    // embedding output); in flight min(p + 1, m) / 2 = 5 / 2 of those (p + 1 = 5 chunk-micro-
    // batches), against ZB-H1's min(p - s, m) = 4 on its first stage (Qi et al. 2023, sec. 3.1).
    CHECK(d[1].act_inflight == Approx(2 * z[1].act_inflight));
    CHECK(detail::train_inflight_micro_batches(4, 1, 8, 1, true) == Approx(2.5));
    CHECK(detail::train_inflight_micro_batches(4, 0, 8, 1) == 4);
    // So device 1 holds 2.5 x 16 = 40 layer-micro-batches, ZB-H1's stage 0 4 x 8 = 32 (and the
    // embedding output): (p + 1) / p = 5/4 of ZB-H1's peak, without the tables' terms.
    CHECK(2.5 * d[1].act_inflight == Approx(5.0 / 4 * 4 * z[1].act_inflight));
    // Fewer micro-batches than p + 1 would cap it at m (each passes a device once): m = 2 is one
    // pair of chunks. resolve asks for m >= 2p > p + 1, so estimate() never meets the cap. pp 1
    // has no second chunk (the 1F1B rule).
    CHECK(detail::train_inflight_micro_batches(4, 0, 2, 1, true) == 1);
    CHECK(detail::train_inflight_micro_batches(1, 0, 8, 1, true) == 1);

    // The report's most loaded GPU: a device with both tables. bf16 with AdamW, ZeRO 0 (Megatron:
    // 2 + 4 + 12 bytes a parameter, its main gradients fp32): 2 x 4,540,469,248 bytes of weights,
    // 4 x of gradients, 12 x of optimizer states; ZB-H1's most loaded GPU has 8 layers and one table.
    const Report zrep = run(zc), drep = run(dc);
    CHECK(drep.per_gpu.weights == Approx(2 * 4540469248.0));
    CHECK(drep.per_gpu.gradients == Approx(4 * 4540469248.0));
    CHECK(drep.per_gpu.optimizer == Approx(12 * 4540469248.0));
    CHECK(zrep.per_gpu.weights == Approx(2 * (8 * layer + 4096 + table)));
    // ZeRO 1 shards the optimizer states over dp = 2 (the existing ZeRO logic, unchanged).
    Config dz = dc;
    dz.zero = 1;
    CHECK(run(dz).per_gpu.optimizer == Approx(12 * 4540469248.0 / 2));
    // Device 0's activations: 5/2 x (16 layers + the embedding output) plus the loss held once.
    CHECK(drep.per_gpu.activations == Approx(2.5 * d[0].act_inflight + d[0].act_once));
    CHECK(d[0].act_once == Approx(z[3].act_once));
}

TEST_CASE("dualpipe syncs the gradients of the two stages a GPU holds", "[schedules][training][dualpipe]") {
    // Llama 3 8B, pp 4, dp 2: under ZB-H1 a GPU all-reduces a quarter of the model's gradients
    // (8.03e9 / 4 x 2 bytes = 4.0 GB over dp 2); under DualPipe it holds stages s and 3 - s, so
    // twice that. The ring's time is latency plus bytes over bandwidth: a little under twice.
    const Report z = run(pipeline(PipeSchedule::zero_bubble));
    const Report d = run(pipeline(PipeSchedule::dualpipe));
    CHECK(d.interconnect.dp_allreduce_s_per_step > 1.9 * z.interconnect.dp_allreduce_s_per_step);
    CHECK(d.interconnect.dp_allreduce_s_per_step <= 2.0 * z.interconnect.dp_allreduce_s_per_step);
}

TEST_CASE("dualpipe hides the expert all-to-alls behind the paired compute", "[schedules][training][dualpipe][overlap]") {
    // pp 2, dp 16: 4 micro-batches of one 4096-token sequence.
    Config c = qwen3_moe_on_32_h100(2, 16);
    c.pp_schedule = PipeSchedule::zero_bubble;
    const Report z = run(c);
    c.pp_schedule = PipeSchedule::dualpipe;
    const Report d = run(c);
    REQUIRE(z.interconnect.nodes == 4);
    const double a2a = z.interconnect.ep_comm_s_per_step;
    REQUIRE(a2a > 0);
    // Other schedules: the all-to-alls are all exposed.
    CHECK(z.interconnect.ep_exposed_s_per_step == Approx(a2a));
    // DualPipe: the same all-to-alls on the wire; the math runs on 112 of 132 SMs (20 go to the
    // all-to-all kernels, DeepSeek-V3 report sec. 3.2.2).
    CHECK(d.interconnect.ep_comm_s_per_step == Approx(a2a));
    const double compute = z.speed.compute_s * 132.0 / 112.0;
    CHECK(d.speed.compute_s == Approx(compute));
    // What hides them: the MoE layers' compute. Every layer is MoE, so it is all of the step's
    // math but the output head: without recomputation the executed FLOPs are three forwards, the
    // head's 2 x vocab x hidden per token a forward, so its share is 6 x 151936 x 2048 / FLOPs.
    const double moe_share = 1.0 - 6.0 * 151936.0 * 2048.0 / d.speed.train_flops_per_token;
    CHECK(moe_share > 0.9);
    CHECK(moe_share < 1.0);
    const double exposed = std::max(0.0, a2a - compute * moe_share);
    CHECK(d.interconnect.ep_exposed_s_per_step == Approx(exposed).margin(1e-12));
    CHECK(d.interconnect.ep_exposed_s_per_step < a2a);
    CHECK(d.speed.train_step_s ==
          Approx(d.speed.compute_s + d.speed.bubble_s + d.speed.exposed_comm_s + d.speed.optimizer_step_s + d.speed.step_sync_s));
    // The bubble: pp 2 has none under DualPipe.
    CHECK(d.speed.bubble_s == 0);
    // The report's JSON carries the exposed part beside the wire time.
    const nlohmann::json j = nlohmann::json::parse(report_to_json(d))["interconnect"];
    CHECK(j["ep_exposed_s_per_step"].get<double>() == Approx(exposed).margin(1e-12));
    CHECK(j["ep_comm_s_per_step"].get<double>() == Approx(a2a));

    // ep 8 inside one node: the all-to-alls run over NVLink, shorter than the MoE compute, so
    // DualPipe hides them whole (max(0, a2a - compute x share) = 0), while ZB-H1 shows them all.
    c.ep = 8;
    const Report d8 = run(c);
    c.pp_schedule = PipeSchedule::zero_bubble;
    const Report z8 = run(c);
    REQUIRE(z8.interconnect.ep_comm_s_per_step > 0);
    CHECK(z8.interconnect.ep_comm_s_per_step < d8.speed.compute_s * moe_share);
    CHECK(z8.interconnect.ep_exposed_s_per_step == Approx(z8.interconnect.ep_comm_s_per_step));
    CHECK(d8.interconnect.ep_exposed_s_per_step == 0);
}

TEST_CASE("dualpipe: bad layouts name pp_schedule", "[schedules][bad_input][dualpipe]") {
    // No pipeline: nothing to pair.
    Config c = pipeline(PipeSchedule::dualpipe);
    c.pp = 1;
    c.dp = 8;
    CHECK(error_key(c) == "pp_schedule");
    // An odd number of stages (6 GPUs: pp 3, dp 2).
    c = pipeline(PipeSchedule::dualpipe);
    c.gpus = 6;
    c.pp = 3;
    c.dp = 2;
    CHECK(error_key(c) == "pp_schedule");
    // An odd number of micro-batches: 14 / (1 x 2) = 7.
    c = pipeline(PipeSchedule::dualpipe);
    c.global_batch = 14;
    CHECK(error_key(c) == "pp_schedule");
    // Even but fewer than 2 pp = 8 (deepseek-ai/DualPipe's DualPipe.step asserts
    // num_chunks >= num_ranks * 2): 12 / 2 = 6.
    c.global_batch = 12;
    CHECK(error_key(c) == "pp_schedule");
    c.global_batch = 16;   // 8 = 2 pp: even and enough
    CHECK(error_key(c).empty());
    CHECK(parse_pp_schedule("dualpipe") == PipeSchedule::dualpipe);
    CHECK(to_string(PipeSchedule::dualpipe) == "dualpipe");
}

TEST_CASE("ep_comm_overlap: Megatron-LM's opt-in all-to-all overlap", "[schedules][training][overlap][dualpipe]") {
    // Without a pipeline: dp 32, 2 micro-batches of one 4096-token sequence per step.
    Config c = qwen3_moe_on_32_h100(1, 32);
    const Report plain = run(c);
    c.ep_comm_overlap = true;
    const Report over = run(c);
    const double a2a = plain.interconnect.ep_comm_s_per_step;
    REQUIRE(a2a > 0);
    CHECK(plain.interconnect.ep_exposed_s_per_step == Approx(a2a));   // off by default: all exposed
    // On: the same wire time, the same math (no SM share is published for NCCL's all-to-all),
    // and only what outlasts the MoE layers' compute shows: the head (6 x vocab x hidden per
    // token of the three-forward step) is the only non-MoE math.
    CHECK(over.interconnect.ep_comm_s_per_step == Approx(a2a));
    CHECK(over.speed.compute_s == Approx(plain.speed.compute_s));
    const double moe_share = 1.0 - 6.0 * 151936.0 * 2048.0 / over.speed.train_flops_per_token;
    CHECK(over.interconnect.ep_exposed_s_per_step == Approx(std::max(0.0, a2a - over.speed.compute_s * moe_share)).margin(1e-12));
    CHECK(over.speed.train_step_s < plain.speed.train_step_s);

    // Megatron Core's checks: expert parallelism, a virtual pipeline when pp > 1, no full
    // recomputation; training only.
    Config bad = c;
    bad.ep = 1;
    CHECK(error_key(bad) == "ep_comm_overlap");
    bad = c;
    bad.recompute = Recompute::full;
    CHECK(error_key(bad) == "ep_comm_overlap");
    bad = c;
    bad.pp = 2;
    bad.dp = 16;
    CHECK(error_key(bad) == "ep_comm_overlap");   // 1F1B
    bad.pp_schedule = PipeSchedule::interleaved;
    CHECK(error_key(bad).empty());
    Config inf = config("qwen3-30b-a3b", "h100-sxm");
    inf.ep_comm_overlap = true;
    CHECK(error_key(inf) == "ep_comm_overlap");
}
