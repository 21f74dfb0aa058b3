// test_overlap.cpp: what of a training step's communication hides behind its compute: tensor
// parallel with --tp-comm-overlap, interleaved pipeline sends, bucketed data-parallel sync,
// ZeRO-3 prefetch.
#include "interconnect.hpp"
#include "performance.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

detail::Fabric fabric(const std::string& gpu) {
    const Gpu& g = catalog().gpu(gpu);
    return detail::make_fabric(g, catalog(), nullptr, nullptr);
}


}  // namespace

TEST_CASE("tensor-parallel communication: exposed unless overlapped with the GEMMs", "[overlap][training]") {
    // 8 H100, tp 8: 4 all-reduces per layer per micro-batch, all on the critical path.
    Config c = llama3_8b_training("h100-sxm", 8, 8, 1, 1);
    c.sequence_parallel = true;
    c.mfu = 0.45;   // the overlap arithmetic at a fixed kernel efficiency, not the default's
    const Report plain = run(c);
    CHECK(plain.interconnect.tp_exposed_s_per_step == Approx(plain.interconnect.tp_comm_s_per_step));
    CHECK(plain.speed.exposed_comm_s == Approx(plain.interconnect.tp_comm_s_per_step));
    // --tp-comm-overlap: exposed = max(0, wire - compute x GEMM share). The GEMMs are 6N of
    // 6N + 3 x attention FLOPs: far more than the NVLink all-reduces take, so none shows.
    c.tp_comm_overlap = true;
    const Report over = run(c);
    CHECK(over.interconnect.tp_comm_s_per_step == Approx(plain.interconnect.tp_comm_s_per_step));   // same wire time
    CHECK(plain.interconnect.tp_comm_s_per_step < 0.5 * over.speed.compute_s);
    CHECK(over.interconnect.tp_exposed_s_per_step == 0);
    CHECK(over.speed.train_step_s == Approx(plain.speed.train_step_s - plain.interconnect.tp_comm_s_per_step));
    // Megatron-LM asserts sequence parallelism for it; inference has no such overlap.
    c.sequence_parallel = false;
    CHECK(error_key(c) == "tp_comm_overlap");
    Config inf = config("llama-3-8b", "h100-sxm");
    inf.tp_comm_overlap = true;
    CHECK(error_key(inf) == "tp_comm_overlap");
}

TEST_CASE("interleaved pipeline sends overlap the next chunk", "[overlap][training][schedules]") {
    // 8 RTX 4090 over PCIe (no peer-to-peer: staged through host memory), pp 4, dp 2: m = 8.
    Config c = llama3_8b_training("rtx-4090", 8, 1, 4, 2);
    c.runtime = Runtime::none;   // the memory does not matter here; only the times
    const Report one = run(c);
    CHECK(one.interconnect.pp_exposed_s_per_step == Approx(one.interconnect.pp_comm_s_per_step));   // 1F1B waits for each send
    c.pp_schedule = PipeSchedule::interleaved;
    c.virtual_stages = 2;
    const Report inter = run(c);
    // Sends of s = 2048 x 4096 x 2 bytes between GPUs tp x dp = 2 apart, 2 m v of them on the wire.
    const double send = detail::p2p_seconds(fabric("rtx-4090"), 2, 2048.0 * 4096 * 2);
    CHECK(inter.interconnect.pp_comm_s_per_step == Approx(2 * 8 * 2 * send));
    // Each shows only beyond one chunk's forward (1/3 of the executed FLOPs without
    // recomputation: 2N + A of 6N + 3A) or backward (2/3): chunk = compute / (m v).
    const double chunk = inter.speed.compute_s / (8 * 2);
    const double exposed = 8 * 2 * (std::max(0.0, send - chunk / 3) + std::max(0.0, send - chunk * 2 / 3));
    CHECK(inter.interconnect.pp_exposed_s_per_step == Approx(exposed));
    CHECK(inter.interconnect.pp_exposed_s_per_step < inter.interconnect.pp_comm_s_per_step);
}

TEST_CASE("data-parallel sync: buckets behind the backward, the last one exposed", "[overlap][training]") {
    // 8 H100, dp 8 (DDP): the gradient all-reduce (16 GB of bf16 gradients) hides behind the
    // backward of the last of 8 micro-batches (2,048 tokens each a GPU) but for its last bucket,
    // Megatron-Core's max(4e7, 1e6 x 8) = 4e7 parameters x 2 B = 80 MB.
    Config c = llama3_8b_training("h100-sxm", 8, 1, 1, 8);
    c.global_batch = 64;
    const Report r = run(c);
    const detail::Span dp = detail::span_of(fabric("h100-sxm"), 8, 1);
    const double last = detail::allreduce_seconds(dp, 8e7);
    REQUIRE(r.interconnect.dp_allreduce_s_per_step < 2.0 / 3.0 * r.speed.compute_s / 8.0);
    CHECK(r.interconnect.dp_exposed_s_per_step == Approx(last));
    CHECK(r.interconnect.dp_allreduce_s_per_step > 10 * last);
    // ZeRO-3 prefetch: the forward's gather hides behind the forward, the backward's gather and
    // the gradients' reduce-scatter behind the backward; the last reduce bucket (5e8 elements,
    // 1 GB in bf16, DeepSpeed reduce_bucket_size) shows.
    c.zero = 3;
    const Report z = run(c);
    const double last3 = detail::reduce_scatter_seconds(dp, std::min(5e8 * 2, z.params * 2));
    CHECK(z.interconnect.dp_exposed_s_per_step == Approx(last3));
}

TEST_CASE("FP8 training: the weight GEMMs at the FP8 rate", "[fp8][training]") {
    // Llama 3 8B on 8 H100, dp 8, no recomputation. The weight GEMMs are g = 6 N_matmul /
    // (6 N_matmul + 3 A) of the executed FLOPs (N_matmul: every parameter but the input
    // embedding, 128,256 x 4,096; its norms are 0.01% of it); with fp8_training they run at the
    // FP8 dense rate (1,979 TFLOPS on an H100 SXM, twice the BF16 989) at the FP8 GEMM efficiency
    // e8 (0.65 of the kernel efficiency, fitted on NeMo's FP8 runs), the rest stays BF16:
    // compute_s x (g / (2 e8) + 1 - g).
    Config c = llama3_8b_training("h100-sxm", 8, 1, 1, 8);
    const Report bf16 = run(c);
    c.fp8_training = Fp8Training::tensorwise;
    const Report fp8 = run(c);
    const double n_matmul = bf16.params - 128256.0 * 4096;
    const double g = 6 * n_matmul / bf16.speed.train_flops_per_token;
    CHECK(g > 0.9);   // 2048-token sequences: attention is a few percent of the FLOPs
    const double f8 = catalog().gpu("h100-sxm").tensor_tflops_dense.fp8 * 1e12;
    CHECK(fp8.speed.gemm_peak_flops == Approx(f8));
    CHECK(bf16.speed.gemm_peak_flops == Approx(bf16.speed.peak_flops));
    const double e8 = 0.65;
    CHECK(fp8.config.fp8_gemm_efficiency == e8);
    CHECK(fp8.speed.compute_s == Approx(bf16.speed.compute_s * (g * bf16.speed.peak_flops / (f8 * e8) + 1 - g)).epsilon(1e-3));
    // The key sets it: at 1.0 the GEMMs run at the full kernel efficiency of the FP8 peak.
    c.fp8_gemm_efficiency = 1.0;
    CHECK(run(c).speed.compute_s == Approx(bf16.speed.compute_s * (g * bf16.speed.peak_flops / f8 + 1 - g)).epsilon(1e-3));
    c.fp8_gemm_efficiency = 0;
    // MFU stays against the BF16 peak, as torchtitan and Llama 3 report it.
    CHECK(fp8.speed.mfu_effective > bf16.speed.mfu_effective);
    c.fp8_training = Fp8Training::blockwise;
    CHECK(run(c).speed.compute_s == Approx(fp8.speed.compute_s));
    // An A100 has no FP8 tensor cores; inference has no FP8 training.
    Config a100 = llama3_8b_training("a100-80gb-sxm", 8, 1, 1, 8);
    a100.fp8_training = Fp8Training::tensorwise;
    CHECK(error_key(a100) == "fp8_training");
    Config inf = config("llama-3-8b", "h100-sxm");
    inf.fp8_training = Fp8Training::blockwise;
    CHECK(error_key(inf) == "fp8_training");
}
