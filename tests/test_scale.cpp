// test_scale.cpp: the cost of scale a training step sees (docs/formulas.md, "At scale"): the
// data-parallel sync hidden behind the last micro-batch's backward only, the optimizer step on the
// GPU, the step's scalar all-reduces over every GPU, the framework's gradient buckets and the
// step_overhead_s input. Each derived by hand on a small case.
#include "interconnect.hpp"
#include "performance.hpp"
#include "test_support.hpp"
#include "training/frameworks.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Llama 3 8B on 16 H100 SXM (2 HGX nodes, NVLink 4 inside, NDR InfiniBand between), pure data
// parallelism with ZeRO-1, sequences of 512 tokens, 1,024 of them a step (64 a rank) as
// micro-batches of `batch`, a fixed kernel efficiency so the math is the same in every case.
Config dp16_case(int batch) {
    Config c = llama3_8b_training("h100-sxm", 16, 1, 1, 16);
    c.zero = 1;
    c.context = 512;
    c.batch = batch;
    c.global_batch = 1024;
    c.recompute = Recompute::none;
    c.mfu = 0.5;
    return c;
}

detail::Fabric h100_fabric() { return detail::make_fabric(catalog().gpu("h100-sxm"), catalog(), nullptr, nullptr); }

}  // namespace

TEST_CASE("the data-parallel sync hides behind the last micro-batch's backward, not the step's", "[scale][training]") {
    // Gradients are final only in the step's last micro-batch (DDP's no_sync, Megatron's
    // no_sync_func): exposed = max(last bucket, sync - 2/3 x compute / m). Without recomputation
    // the backward is 2/3 of the executed FLOPs (4N + 2 attention of 6N + 3 attention).
    const detail::Span dp = detail::span_of(h100_fabric(), 16, 1);
    // Megatron-Core's bucket at dp 16: max(4e7, 1e6 x 16) = 4e7 parameters x 2 B = 80 MB.
    const double last = detail::allreduce_time(dp, 8e7).seconds;
    // The same 32,768 tokens a rank either way. In 64 micro-batches of one sequence, the last
    // one's backward is 1/64 of the step's 2/3 (about 0.03 s of 2.0 s), and the 16 GB bf16 sync
    // (about 0.1 s) outlasts it.
    const Report r = run(dp16_case(1));
    const InterconnectReport& ic = r.interconnect;
    const double hide = 2.0 / 3.0 * r.speed.compute_s / 64.0;
    REQUIRE(ic.dp_allreduce_s_per_step - hide > last);
    CHECK(ic.dp_allreduce_s_per_step == Approx(detail::allreduce_time(dp, r.trainable_params * 2.0).seconds));
    CHECK(ic.dp_exposed_s_per_step == Approx(ic.dp_allreduce_s_per_step - hide));
    // One micro-batch of 64 sequences: the whole backward (1.3 s) hides it, as before this term;
    // only the last bucket shows.
    const Report one = run(dp16_case(64));
    CHECK(one.speed.compute_s == Approx(r.speed.compute_s));
    CHECK(one.interconnect.dp_allreduce_s_per_step == Approx(ic.dp_allreduce_s_per_step));
    CHECK(one.interconnect.dp_exposed_s_per_step == Approx(last));
    CHECK(one.speed.train_step_s == Approx(r.speed.train_step_s - (ic.dp_allreduce_s_per_step - hide) + last));
    // DeepSpeed's ZeRO 1-2 do not overlap at all: the whole sync shows whatever the micro-batches.
    Config c = dp16_case(64);
    c.training_framework = TrainingFramework::deepspeed;
    const Report ds = run(c);
    CHECK(ds.interconnect.dp_exposed_s_per_step == Approx(ds.interconnect.dp_allreduce_s_per_step));
}

TEST_CASE("the frameworks' gradient buckets", "[scale][frameworks]") {
    using detail::dp_last_bucket_bytes;
    using detail::framework_profile;
    const double whole = 16e9;   // a GPU's bf16 gradients (8e9 parameters)
    // Megatron-Core (megatron, nemo): max(4e7, 1e6 x dp) parameters, 2 B each: 80 MB up to dp 40,
    // then 2 MB per rank: 256 MB at dp 128.
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::megatron), 1, 16, 2.0, whole, 32) == Approx(8e7));
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::nemo), 0, 128, 2.0, whole, 32) == Approx(2.56e8));
    // DeepSpeed: reduce_bucket_size 5e8 elements = 1 GB of bf16.
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::deepspeed), 2, 16, 2.0, whole, 32) == Approx(1e9));
    // PyTorch DDP (hf_trainer, and fsdp / torchtitan unsharded): 25 MiB; hf_trainer's ZeRO 1-2 go
    // through DeepSpeed; FSDP's sharded stages one transformer block: 16 GB / 32 = 500 MB.
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::hf_trainer), 0, 16, 2.0, whole, 32) == Approx(25.0 * 1024 * 1024));
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::hf_trainer), 1, 16, 2.0, whole, 32) == Approx(1e9));
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::fsdp), 0, 16, 2.0, whole, 32) == Approx(25.0 * 1024 * 1024));
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::torchtitan), 2, 16, 2.0, whole, 32) == Approx(5e8));
    // Never more than the gradients themselves.
    CHECK(dp_last_bucket_bytes(framework_profile(TrainingFramework::deepspeed), 1, 16, 2.0, 2e8, 32) == Approx(2e8));
}

TEST_CASE("the optimizer step on the GPU streams its shard's states", "[scale][training]") {
    // AdamW in mixed precision moves 30 B a parameter: fp32 master and gradient read, master
    // written (12), m and v read and written (2 x 8), the bf16 copy written (2). H100 SXM: 3,350
    // GB/s at 0.75 (streaming kernels). ZeRO-1 over 16 ranks: 8.03e9 / 16 x 30 B = 15.1 GB, 6.0 ms.
    Config c = dp16_case(1);
    const Report r = run(c);
    const double bw = 3350e9 * 0.75;
    CHECK(r.speed.optimizer_step_s == Approx(r.trainable_params / 16.0 * 30.0 / bw));
    CHECK(r.speed.optimizer_step_s == Approx(0.006).epsilon(0.01));
    // Unsharded (ZeRO 0): every rank updates all 8.03e9 parameters, 16 x longer: 96 ms.
    c.zero = 0;
    CHECK(run(c).speed.optimizer_step_s == Approx(16.0 * r.speed.optimizer_step_s));
    // 8-bit Adam: 12 + 2 x 2 + 2 = 18 B a parameter.
    c.zero = 1;
    c.optimizer = Optimizer::adamw_8bit;
    CHECK(run(c).speed.optimizer_step_s == Approx(r.trainable_params / 16.0 * 18.0 / bw));
    // ZeRO-Offload: the CPU runs it (optimizer_step_host_s), not the GPU.
    c.optimizer = Optimizer::adamw;
    c.offload = Offload::optimizer;
    const Report off = run(c);
    CHECK(off.speed.optimizer_step_s == 0);
    CHECK(off.speed.optimizer_step_host_s > 0);
}

TEST_CASE("the step's scalar all-reduces span every GPU: latency in log2 of the nodes", "[scale][collectives]") {
    const detail::Fabric f = h100_fabric();
    // 16 GPUs, 2 nodes, 4 bytes: NCCL's hierarchical LL is the fastest: 3.6 us base + 2 x 7
    // NVLink steps of 0.47 us + 2 x 1 network step of 2.7 us = 15.58 us (ring LL: 3.6 + 28 x 0.47
    // + 2 x 2.7 = 22.16; tree LL: 6.8 + 2 x (7 x 0.47 + 1 x 5.0) = 23.38). Two a step: 31.16 us.
    CHECK(detail::step_sync_seconds(f, 16) == Approx(2.0 * 15.58e-6).epsilon(1e-3));
    // 16,384 GPUs, 2,048 nodes: the tree, 11 hops up and down: 6.8 + 2 x (7 x 0.47 + 11 x 5.0) =
    // 123.38 us, twice: 247 us. A thousand times the GPUs, eight times the latency.
    CHECK(detail::step_sync_seconds(f, 16384) == Approx(2.0 * 123.38e-6).epsilon(1e-3));
    CHECK(detail::step_sync_seconds(f, 1) == 0);
    // In a report, as step_sync_s, inside the step.
    const Report r = run(dp16_case(1));
    CHECK(r.speed.step_sync_s == Approx(2.0 * 15.58e-6).epsilon(1e-3));
    CHECK(r.speed.train_step_s == Approx(r.speed.compute_s + r.speed.bubble_s + r.speed.exposed_comm_s + r.speed.optimizer_step_host_s +
                                         r.speed.optimizer_step_s + r.speed.step_sync_s + r.speed.step_overhead_s));
}

TEST_CASE("step_overhead_s adds to every step, and the run's goodput counts it as fixed", "[scale][training]") {
    Config c = dp16_case(1);
    const Report base = run(c);
    c.step_overhead_s = 7.0;
    const Report slow = run(c);
    CHECK(slow.speed.step_overhead_s == 7.0);
    CHECK(slow.speed.train_step_s == Approx(base.speed.train_step_s + 7.0));
    CHECK(slow.speed.train_tokens_per_s == Approx(1024.0 * 512.0 / (base.speed.train_step_s + 7.0)));
    CHECK(slow.speed.compute_s == Approx(base.speed.compute_s));
    // A batch ramp pays the step's fixed costs twice for its tokens (goodput.cpp): 1e9 tokens of
    // ramp at 524,288 tokens a step pay 1,907.3 steps' worth of them more, 7 s each more here.
    c.step_overhead_s = 0;
    c.train_tokens = 1e10;
    c.batch_ramp_tokens = 1e9;
    const double ramp = run(c).speed.goodput.ramp_extra_s;
    c.step_overhead_s = 7.0;
    CHECK(run(c).speed.goodput.ramp_extra_s == Approx(ramp + 1e9 / (1024.0 * 512.0) * 7.0));
    // Refused out of range, with the key named.
    c.step_overhead_s = -1.0;
    CHECK(error_key(c) == "step_overhead_s");
}
