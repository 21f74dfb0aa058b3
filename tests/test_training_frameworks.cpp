// test_training_frameworks.cpp: the training frameworks as profiles (training_framework) and the
// kernel efficiency from the GEMMs' shapes (core/src/training/frameworks.cpp). Each profile's
// effect derived by hand on a small case; the shape curve's monotonicity and its value at a named
// row; the fits of the constants recomputed from the accuracy set's rows; `megatron`, the
// default, leaving reports where they were.
#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "interconnect.hpp"
#include "performance.hpp"
#include "test_support.hpp"
#include "training/frameworks.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

nlohmann::json accuracy_row(const std::string& id) {
    std::ifstream f(std::string(GPUSIZER_TEST_DATA) + "/../validation/accuracy.json");
    REQUIRE(f.good());
    const auto set = nlohmann::json::parse(f);
    for (const auto& row : set["rows"])
        if (row["id"] == id) return row;
    FAIL("no accuracy row " << id);
    return {};
}

// The kernel efficiency (`mfu`) at which a row's configuration reproduces its published value
// (utilization or tokens/s rise with it): bisection, as tests/test_mfu_fit.cpp.
double implied_efficiency(const nlohmann::json& row) {
    Config c = config_from_json(row["config"].dump());
    const std::string q = row["quantity"].get<std::string>();
    const double published = row["value"].get<double>();
    double lo = 0.1, hi = 0.99;
    for (int i = 0; i < 40; ++i) {
        c.mfu = 0.5 * (lo + hi);
        const Report r = estimate(c, catalog());
        const double v = q == "train_hfu" ? r.speed.hfu : q == "train_mfu" ? r.speed.effective_mfu : r.speed.train_tokens_per_s;
        (v < published ? lo : hi) = c.mfu;
    }
    return 0.5 * (lo + hi);
}

// Llama 3 8B, 8 H100, FSDP (ZeRO-3) over all 8: the small case the profiles are derived on.
Config fsdp_case() {
    Config c = llama3_8b_training("h100-sxm", 8, 1, 1, 8);
    c.zero = 3;
    c.context = 8192;
    c.batch = 1;
    c.global_batch = 64;
    c.recompute = Recompute::selective;
    c.flash_attention = true;
    return c;
}

}  // namespace

TEST_CASE("megatron, the default, leaves training reports where they were", "[frameworks][training]") {
    // Figures of gpusizer at 679f3ad (before the profiles), `gpusizer estimate --json`, for three
    // layouts whose GEMMs are above the shape curve's saturation (1638, 745 and 1170 FLOP/B), as
    // the step's fixed costs and the kernel efficiency's refit (0.61 -> 0.62, docs/formulas.md "At
    // scale") left them; the profiles themselves changed nothing for megatron.
    struct Before {
        const char* json;
        double step_s, tokens_per_s, exposed_s;
    };
    const Before cases[] = {
        {R"({"model":"llama-3-8b","mode":"train","weights":"bf16","gpu":"h100-sxm","gpus":8,"dp":8,"zero":3,"batch":1,
             "global_batch":64,"context":8192,"recompute":"selective","flash_attention":true})",
         6.660592315907313, 78714.9213063014, 0.0024034737127371273},
        {R"({"model":"llama-3.1-70b","mode":"train","weights":"bf16","gpu":"h100-sxm","gpus":64,"tp":8,"pp":2,"dp":4,"zero":1,
             "batch":1,"global_batch":128,"context":4096,"recompute":"full","flash_attention":true,"sequence_parallel":true,
             "pp_schedule":"interleaved"})",
         10.389871602297939, 50461.45131226094, 2.2526649373203353},
        {R"({"model":"llama-3-8b","mode":"train","weights":"bf16","gpu":"a100-80gb-sxm","gpus":16,"tp":2,"dp":8,"zero":0,
             "batch":2,"global_batch":64,"context":4096,"recompute":"selective","flash_attention":true,"sequence_parallel":true})",
         4.775956443656742, 54888.27276642576, 0.15569252977777778},
    };
    for (const Before& b : cases) {
        INFO(b.json);
        const Config c = config_from_json(b.json);
        CHECK(c.training_framework == TrainingFramework::megatron);
        const Report r = run(c);
        CHECK(r.speed.mfu == Approx(0.62).epsilon(1e-12));
        CHECK(r.speed.train_step_s == Approx(b.step_s).epsilon(1e-12));
        CHECK(r.speed.train_tokens_per_s == Approx(b.tokens_per_s).epsilon(1e-12));
        CHECK(r.interconnect.exposed_s_per_step == Approx(b.exposed_s).epsilon(1e-12));
        CHECK(r.config.training_framework == TrainingFramework::megatron);   // echoed
    }
    // The first from 679f3ad's own figures: ZeRO-3 without a pipeline, whose sync was not touched
    // (6.757540 s step, 0.002403 s exposed): its math (6.755137 s) at 0.61 / 0.62, the same
    // exposed sync, plus the optimizer step and the scalar syncs.
    const Report first = run(config_from_json(cases[0].json));
    CHECK(first.speed.train_step_s == Approx((6.757540311165208 - 0.0024034737127371273) * 0.61 / 0.62 + 0.0024034737127371273 +
                                             first.speed.optimizer_step_s + first.speed.step_sync_s)
                                          .epsilon(1e-9));
}

TEST_CASE("training_framework: bad values are refused with the key and the allowed values", "[frameworks][bad_input]") {
    const BadInput cases[] = {
        {R"({"model":"llama-3-8b","mode":"train","training_framework":"pytorch"})", "training_framework",
         "megatron, nemo, torchtitan, fsdp, deepspeed, hf_trainer"},
        {R"({"model":"llama-3-8b","mode":"train","training_framework":"Megatron"})", "training_framework", "hf_trainer"}};
    expect_errors(cases, [](const std::string& s) { return config_from_json(s); });
    CHECK_THROWS_AS(parse_training_framework("accelerate"), Error);
    CHECK(parse_training_framework("hf_trainer") == TrainingFramework::hf_trainer);
    CHECK(to_string(TrainingFramework::torchtitan) == "torchtitan");
    // Serving has no training framework; the Trainer has no tensor or pipeline parallelism.
    Config inf = config("llama-3-8b", "h100-sxm");
    inf.training_framework = TrainingFramework::fsdp;
    CHECK(error_key(inf) == "training_framework");
    Config hf = llama3_8b_training("h100-sxm", 8, 2, 1, 4);
    hf.training_framework = TrainingFramework::hf_trainer;
    CHECK(error_key(hf) == "training_framework");
    const std::string msg = thrown_message([&] { (void)run(hf); });
    CHECK(msg.find("tp") != std::string::npos);
    hf.tp = 1;
    hf.dp = 8;
    CHECK(error_key(hf).empty());
}

TEST_CASE("fsdp, torchtitan, hf_trainer: their kernels' share of Megatron's", "[frameworks][training]") {
    // compute_s = tokens x executed FLOPs per token / (GPUs x mu x F): mu = 0.62 x share, so the
    // math takes 1 / share as long. Eager PyTorch: 0.59; torch.compile: 0.59 x 6667 / 5762.
    // Full recomputation: every profile recomputes the same (selective differs: op-level SAC).
    Config c = fsdp_case();
    c.recompute = Recompute::full;
    const Report meg = run(c);
    const double compile = 0.59 * 6667.0 / 5762.0;   // = 0.7290
    const std::pair<TrainingFramework, double> shares[] = {{TrainingFramework::fsdp, 0.59},
                                                           {TrainingFramework::hf_trainer, 0.59},
                                                           {TrainingFramework::deepspeed, 0.59},
                                                           {TrainingFramework::torchtitan, compile},
                                                           {TrainingFramework::nemo, 1.0}};
    for (const auto& [fw, share] : shares) {
        INFO(to_string(fw));
        c.training_framework = fw;
        const Report r = run(c);
        CHECK(r.speed.mfu == Approx(0.62 * share));
        CHECK(r.speed.compute_s == Approx(meg.speed.compute_s / share));
        CHECK(r.config.training_framework == fw);   // echoed
    }
    // A given `mfu` is the efficiency: the profile's share does not scale it again.
    c.training_framework = TrainingFramework::fsdp;
    c.mfu = 0.5;
    CHECK(run(c).speed.mfu == 0.5);
}

TEST_CASE("nemo overlaps tensor-parallel communication wherever sequence parallelism is on", "[frameworks][overlap]") {
    // NeMo's recipes: MegatronCommOverlapCallback(tp_comm_overlap=True): exposed = max(0, wire -
    // compute x GEMM share), the same as megatron with tp_comm_overlap set.
    Config c = llama3_8b_training("h100-sxm", 8, 8, 1, 1);
    c.sequence_parallel = true;
    const Report plain = run(c);
    CHECK(plain.interconnect.tp_exposed_s_per_step == Approx(plain.interconnect.tp_comm_s_per_step));
    c.training_framework = TrainingFramework::nemo;
    const Report nemo = run(c);
    c.training_framework = TrainingFramework::megatron;
    c.tp_comm_overlap = true;
    const Report over = run(c);
    CHECK(nemo.interconnect.tp_exposed_s_per_step == Approx(over.interconnect.tp_exposed_s_per_step));
    CHECK(nemo.interconnect.tp_exposed_s_per_step < plain.interconnect.tp_exposed_s_per_step);
    // Without sequence parallelism NeMo's overlap is off (userbuffers need it): all of it shows.
    c.tp_comm_overlap = false;
    c.sequence_parallel = false;
    c.training_framework = TrainingFramework::nemo;
    const Report no_sp = run(c);
    CHECK(no_sp.interconnect.tp_exposed_s_per_step == Approx(no_sp.interconnect.tp_comm_s_per_step));
}

TEST_CASE("deepspeed's ZeRO 0-2 reduce the gradients after the backward", "[frameworks][overlap]") {
    // overlap_comm is off below stage 3 (DeepSpeed v0.19.6 zero/config.py): the whole sync shows,
    // where Megatron's buckets hide behind the backward but for the last.
    Config c = fsdp_case();
    c.zero = 1;
    c.mfu = 0.45;   // the same math for both: only the overlap differs
    const Report meg = run(c);
    c.training_framework = TrainingFramework::deepspeed;
    const Report ds = run(c);
    CHECK(ds.interconnect.dp_allreduce_s_per_step == Approx(meg.interconnect.dp_allreduce_s_per_step));
    CHECK(ds.interconnect.dp_exposed_s_per_step == Approx(ds.interconnect.dp_allreduce_s_per_step));
    CHECK(meg.interconnect.dp_exposed_s_per_step < 0.5 * meg.interconnect.dp_allreduce_s_per_step);
    CHECK(ds.speed.train_step_s ==
          Approx(meg.speed.train_step_s + ds.interconnect.dp_allreduce_s_per_step - meg.interconnect.dp_exposed_s_per_step));
    // ZeRO-3 overlaps (overlap_comm true there): as Megatron's ZeRO-3.
    c.zero = 3;
    const Report ds3 = run(c);
    c.training_framework = TrainingFramework::megatron;
    CHECK(ds3.interconnect.dp_exposed_s_per_step == Approx(run(c).interconnect.dp_exposed_s_per_step));
}

TEST_CASE("FSDP reduce-scatters one transformer block at a time: the last block's shows", "[frameworks][overlap]") {
    // ZeRO-3 on 8 H100, compute long enough to hide the rest: exposed = the last bucket's
    // reduce-scatter. DeepSpeed's bucket: reduce_bucket_size 5e8 elements x 2 B = 1 GB; FSDP's:
    // one block's gradients, 1/32 of the 16-bit gradients of Llama 3 8B's parameters.
    Config c = fsdp_case();
    c.mfu = 0.45;
    const Report meg = run(c);
    c.training_framework = TrainingFramework::fsdp;
    const Report fsdp = run(c);
    const detail::Fabric f = detail::make_fabric(catalog().gpu("h100-sxm"), catalog(), nullptr, nullptr);
    const detail::Span dp = detail::span_of(f, 8, 1);
    const double grads = meg.params * 2.0;   // bf16 gradients of every parameter (tp = pp = 1)
    CHECK(meg.interconnect.dp_exposed_s_per_step == Approx(detail::reduce_scatter_seconds(dp, 1e9)));
    CHECK(fsdp.interconnect.dp_exposed_s_per_step == Approx(detail::reduce_scatter_seconds(dp, grads / 32.0)));
}

TEST_CASE("the kernel efficiency falls for small GEMMs: the shape curve", "[frameworks][shape]") {
    using detail::gemm_intensity;
    using detail::gemm_shape_share;
    // Megatron's 18.4B (hidden 6144, TP 8, 2048 tokens): 1 / (1/2048 + 1/6144 + 8/6144) = 512,
    // the saturation point: the default efficiency there.
    CHECK(gemm_intensity(2048, 6144, 8) == Approx(512.0));
    CHECK(gemm_shape_share(512.0) == 1.0);
    CHECK(gemm_shape_share(2000.0) == 1.0);
    // Below it: (ai / (ai + 170)) / (512 / 682). At 256: 0.60094 / 0.75073 = 0.8005.
    CHECK(gemm_shape_share(256.0) == Approx(256.0 / 426.0 / (512.0 / 682.0)));
    CHECK(gemm_shape_share(256.0) == Approx(0.8005).epsilon(1e-3));
    // Monotone: more tokens or a wider model raise it, a higher TP degree lowers it.
    double last = 0;
    for (double tokens : {64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0}) {
        const double s = gemm_shape_share(gemm_intensity(tokens, 2048, 1));
        CHECK(s >= last);
        last = s;
    }
    last = 0;
    for (double hidden : {512.0, 768.0, 1024.0, 2048.0, 4096.0}) {
        const double s = gemm_shape_share(gemm_intensity(2048, hidden, 1));
        CHECK(s >= last);
        last = s;
    }
    last = 2;
    for (double tp : {1.0, 2.0, 4.0, 8.0, 16.0}) {
        const double s = gemm_shape_share(gemm_intensity(4096, 4096, tp));
        CHECK(s <= last);
        last = s;
    }
    // In a report: Llama 3.2 1B (hidden 2048) at TP 8, micro-batch 1 of 1024 tokens:
    // 1 / (1/1024 + 1/2048 + 8/2048) = 186.2 FLOP/B, 0.62 x (186.2 / 356.2) / (512 / 682).
    Config c = config("llama-3.2-1b", "h100-sxm");
    c.mode = Mode::train;
    c.gpus = 8;
    c.tp = 8;
    c.context = 1024;
    c.global_batch = 8;
    c.sequence_parallel = true;
    const double ai = 1.0 / (1.0 / 1024 + 9.0 / 2048);
    CHECK(run(c).speed.mfu == Approx(0.62 * ai / (ai + 170.0) / (512.0 / 682.0)));
}

TEST_CASE("the shape curve's half-intensity is the fit on Megatron's 18.4B and 1T rows", "[frameworks][shape][mfu_fit]") {
    // mu = e x ai / (ai + a0) through the two rows' implied efficiencies: their ratio
    // r = (ai2 / ai1) (ai1 + a0) / (ai2 + a0) solved for a0 = ai1 ai2 (r - 1) / (ai2 - r ai1).
    const double ai1 = detail::gemm_intensity(2048, 6144, 8);   // 18.4B: 512
    const double ai2 = detail::gemm_intensity(2048, 25600, 8);   // 1T: 1190.7
    const double e1 = implied_efficiency(accuracy_row("megatron-18.4b-hfu-256-a100"));
    const double e2 = implied_efficiency(accuracy_row("megatron-1t-hfu-3072-a100"));
    const double r = e2 / e1;
    const double a0 = (r * ai2 - ai2) * ai1 / (ai2 - r * ai1);
    CHECK(a0 == Approx(170.0).margin(10.0));   // kGemmHalfIntensity, rounded to 10
    // Held out: 145.6B and 310.1B, predicted from the 18.4B row along the curve within 8%.
    const auto predicted = [&](double ai) { return e1 * (ai / (ai + 170.0)) / (ai1 / (ai1 + 170.0)); };
    const double e3 = implied_efficiency(accuracy_row("megatron-145.6b-hfu-1536-a100"));
    const double e4 = implied_efficiency(accuracy_row("megatron-310.1b-hfu-1920-a100"));
    CHECK(predicted(detail::gemm_intensity(2048, 12288, 8)) == Approx(e3).epsilon(0.08));
    CHECK(predicted(detail::gemm_intensity(2048, 16384, 8)) == Approx(e4).epsilon(0.08));
}

TEST_CASE("the eager kernel share is the fit on torchtitan's FSDP run on 8 H100", "[frameworks][mfu_fit]") {
    // The row's implied efficiency over kTrainMfu, rounded to two digits (its GEMMs are above the
    // shape curve's saturation: 1 / (1/16384 + 2/4096) = 1820 FLOP/B).
    const nlohmann::json row = accuracy_row("torchtitan-llama31-8b-8xh100-fsdp-tokens-per-s");
    CHECK(row["config"]["training_framework"] == "fsdp");
    const double share = implied_efficiency(row) / detail::kTrainMfu;
    CHECK(std::round(share * 100.0) / 100.0 == Approx(0.59));
    CHECK(detail::framework_profile(TrainingFramework::fsdp).kernel_share == Approx(0.59));
    // torch.compile: Table 1's 6,667 over 5,762 tokens/s per GPU.
    CHECK(detail::framework_profile(TrainingFramework::torchtitan).kernel_share == Approx(0.59 * 6667.0 / 5762.0));
}

TEST_CASE("each framework's model states, by hand, against its documented bytes per parameter", "[frameworks][memory]") {
    using detail::train_states;
    const auto bytes = [](TrainingFramework f, int zero, WeightId wid, double dp) {
        const detail::TrainStates s = train_states(f, zero, wid, 8.0);   // AdamW: m and v in fp32
        return s.weights.at(dp) + s.gradients.at(dp) + s.optimizer.at(dp);
    };
    const double d = 8;
    // Megatron-Core's distributed optimizer table (dist-optimizer.md): bf16 parameters with fp32
    // gradients 18, 6 + 12/d; fp16 with fp16 gradients 20, 4 + 16/d; fp32 16, 8 + 8/d.
    for (TrainingFramework f : {TrainingFramework::megatron, TrainingFramework::nemo}) {
        CHECK(bytes(f, 0, WeightId::bf16, d) == Approx(18.0));
        CHECK(bytes(f, 1, WeightId::bf16, d) == Approx(6.0 + 12.0 / d));
        CHECK(bytes(f, 0, WeightId::fp16, d) == Approx(20.0));
        CHECK(bytes(f, 1, WeightId::fp16, d) == Approx(4.0 + 16.0 / d));
        CHECK(bytes(f, 0, WeightId::fp32, d) == Approx(16.0));
        CHECK(bytes(f, 1, WeightId::fp32, d) == Approx(8.0 + 8.0 / d));
        CHECK(train_states(f, 0, WeightId::bf16, 8.0).gradients.whole == 4.0);   // the fp32 main gradients
    }
    // DeepSpeed, the ZeRO paper: 2 + 2 + 12, then 2 + 2 + 12/d, 2 + 14/d, 16/d.
    const auto ds = TrainingFramework::deepspeed;
    CHECK(bytes(ds, 0, WeightId::bf16, d) == Approx(16.0));
    CHECK(bytes(ds, 1, WeightId::bf16, d) == Approx(4.0 + 12.0 / d));
    CHECK(bytes(ds, 2, WeightId::bf16, d) == Approx(2.0 + 14.0 / d));
    CHECK(bytes(ds, 3, WeightId::bf16, d) == Approx(16.0 / d));
    // PyTorch DDP under autocast (Hugging Face's training anatomy): 6 of weights, 4 of gradients,
    // 8 of AdamW states; ZeroRedundancyOptimizer shards the 8.
    for (TrainingFramework f : {TrainingFramework::hf_trainer, TrainingFramework::fsdp, TrainingFramework::torchtitan}) {
        const detail::TrainStates s = train_states(f, 0, WeightId::bf16, 8.0);
        CHECK(s.weights.whole == 6.0);
        CHECK(s.gradients.whole == 4.0);
        CHECK(s.optimizer.whole == 8.0);
    }
    CHECK(bytes(TrainingFramework::fsdp, 1, WeightId::bf16, d) == Approx(10.0 + 8.0 / d));
    // FSDP2 with bf16 compute and fp32 reduce: fp32 shards are the master (4 + 4 + 8, all over d);
    // reshard_after_forward=False (ZeRO 2) keeps the bf16 unsharded parameters besides.
    for (TrainingFramework f : {TrainingFramework::fsdp, TrainingFramework::torchtitan}) {
        CHECK(bytes(f, 3, WeightId::bf16, d) == Approx(16.0 / d));
        CHECK(bytes(f, 2, WeightId::bf16, d) == Approx(2.0 + 16.0 / d));
        CHECK(train_states(f, 3, WeightId::bf16, 8.0).weights.sharded == 4.0);
    }
    // The Trainer's ZeRO 1-2 go through DeepSpeed, its ZeRO 3 through FSDP (accelerate).
    CHECK(bytes(TrainingFramework::hf_trainer, 2, WeightId::bf16, d) == bytes(ds, 2, WeightId::bf16, d));
    CHECK(bytes(TrainingFramework::hf_trainer, 3, WeightId::bf16, d) == bytes(TrainingFramework::fsdp, 3, WeightId::bf16, d));
}

TEST_CASE("each framework's buffers, by hand", "[frameworks][memory]") {
    const auto train_buffer_bytes = [](TrainingFramework f, int zero, WeightId wid, double dp, double count, double gathered,
                                       double block) { return detail::buffer_model(f, zero, wid).bytes(dp, count, gathered, block); };
    const double count = 1e9, block = 2e7, d = 8;
    const WeightId bf16 = WeightId::bf16;
    // Megatron: the main-grad buffer is the bucket; Megatron-FSDP's two units of fp32 gradients,
    // and at ZeRO 3 of bf16 parameters.
    CHECK(train_buffer_bytes(TrainingFramework::megatron, 0, bf16, d, count, count, block) == 0);
    CHECK(train_buffer_bytes(TrainingFramework::megatron, 1, bf16, d, count, count, block) == 0);
    CHECK(train_buffer_bytes(TrainingFramework::megatron, 2, bf16, d, count, count, block) == Approx(2 * block * 4));
    CHECK(train_buffer_bytes(TrainingFramework::megatron, 3, bf16, d, count, count, block) == Approx(2 * block * (4 + 2)));
    // FSDP2 the same units (reduce_dtype fp32); below ZeRO 2 DDP's bucket copy of the fp32 gradients.
    CHECK(train_buffer_bytes(TrainingFramework::fsdp, 3, bf16, d, count, count, block) == Approx(2 * block * 6));
    CHECK(train_buffer_bytes(TrainingFramework::fsdp, 2, bf16, d, count, count, block) == Approx(2 * block * 4));
    CHECK(train_buffer_bytes(TrainingFramework::torchtitan, 0, bf16, d, count, count, block) == Approx(4 * count));
    CHECK(train_buffer_bytes(TrainingFramework::hf_trainer, 0, bf16, 1, count, count, block) == 0);   // no DDP on one GPU
    // DeepSpeed: one 5e8-element all-reduce buffer (ZeRO 0), the reduce and all-gather buckets
    // (1-2), the live parameters, prefetch and reduce buckets (3).
    CHECK(train_buffer_bytes(TrainingFramework::deepspeed, 0, bf16, d, count, count, block) == Approx(5e8 * 2));
    CHECK(train_buffer_bytes(TrainingFramework::deepspeed, 1, bf16, d, count, count, block) == Approx(2 * 5e8 * 2));
    CHECK(train_buffer_bytes(TrainingFramework::deepspeed, 3, bf16, d, count, count, block) == Approx((1e9 + 5e7 + 5e8) * 2));
}

TEST_CASE("a report's model states and buffers follow its framework", "[frameworks][memory]") {
    // Llama 3 8B on 8 H100, ZeRO 3 over all 8: one transformer block holds 218,112,000 parameters
    // (q, o 4096^2; k, v 4096 x 1024; gate, up, down 4096 x 14336; two norms of 4096).
    const double block = 2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336 + 2 * 4096;
    Config c = fsdp_case();
    c.zero = 0;
    const Report base = run(c);   // Megatron ZeRO 0: the communicators only
    const double comms = base.overhead_detail.runtime_buffers;
    c.zero = 3;
    c.training_framework = TrainingFramework::fsdp;
    const Report f = run(c);
    const double n = f.params;
    CHECK(f.per_gpu.weights == Approx(4.0 * n / 8));
    CHECK(f.per_gpu.gradients == Approx(4.0 * n / 8));
    CHECK(f.per_gpu.optimizer == Approx(8.0 * n / 8));
    CHECK(f.overhead_detail.runtime_buffers - comms == Approx(2 * block * (4 + 2)));
    c.training_framework = TrainingFramework::megatron;
    const Report m = run(c);
    CHECK(m.per_gpu.weights == Approx(2.0 * n / 8));
    CHECK(m.per_gpu.gradients == Approx(4.0 * n / 8));
    CHECK(m.per_gpu.optimizer == Approx(12.0 * n / 8));
    c.training_framework = TrainingFramework::deepspeed;
    const Report z = run(c);
    CHECK(z.per_gpu.gradients == Approx(2.0 * n / 8));
    CHECK(z.overhead_detail.runtime_buffers - comms == Approx((1e9 + 5e7 + 5e8) * 2));
    // The Hugging Face Trainer's DDP: 6 + 4 + 8 bytes, and the bucket copy of the fp32 gradients.
    c.zero = 0;
    c.training_framework = TrainingFramework::hf_trainer;
    const Report h = run(c);
    CHECK(h.per_gpu.weights == Approx(6.0 * n));
    CHECK(h.per_gpu.gradients == Approx(4.0 * n));
    CHECK(h.per_gpu.optimizer == Approx(8.0 * n));
    CHECK(h.overhead_detail.runtime_buffers - comms == Approx(4.0 * n));
}

TEST_CASE("torchtitan's op-level selective checkpointing: what a block keeps and recomputes, by hand", "[frameworks][memory]") {
    // Llama 3.1 8B (hidden 4096, 32 heads, 8 KV heads of 128, MLP 14336), 2 x 8,192 tokens a GPU.
    // Saved per token: the block's input (4096), the outputs of q (4096), v (1024), gate (14336)
    // and down (4096), the attention's output (4096), 2 bytes each, and its fp32 log-sum-exp per
    // head (4 x 32): 63,616 bytes. Megatron's selective keeps 2 x (2 x 4096 + 4096 + 1024 + 1024 +
    // 4096) + 4 x 32 of the attention and 2 x (2 x 4096 + 3 x 14336) of the MLP: 139,392.
    Config c = fsdp_case();
    c.model.id = "llama-3.1-8b";
    c.batch = 2;
    c.global_batch = 16;
    const double tokens = 2.0 * 8192;
    c.training_framework = TrainingFramework::fsdp;
    const Report op = run(c);
    CHECK(op.activations_per_layer == Approx(63616.0 * tokens));
    c.training_framework = TrainingFramework::megatron;
    const Report meg = run(c);
    CHECK(meg.activations_per_layer == Approx(139392.0 * tokens));
    // Recomputed: k (4096 x 1024), o (4096 x 4096) and up (4096 x 14336) of each of 32 blocks,
    // 2 FLOPs a weight, where Megatron runs the attention core's forward again.
    const double recomputed = 2.0 * 32 * (4096.0 * 1024 + 4096.0 * 4096 + 4096.0 * 14336);
    c.recompute = Recompute::none;
    const Report none = run(c);
    c.training_framework = TrainingFramework::fsdp;
    c.recompute = Recompute::selective;
    CHECK(run(c).speed.train_flops_per_token == Approx(none.speed.train_flops_per_token + recomputed));
    // A model with MoE blocks keeps Megatron's accounting under every profile.
    c.model.id = "mixtral-8x7b";
    c.training_framework = TrainingFramework::fsdp;
    const double moe_fsdp = run(c).activations_per_layer;
    c.training_framework = TrainingFramework::megatron;
    CHECK(run(c).activations_per_layer == Approx(moe_fsdp));
}
