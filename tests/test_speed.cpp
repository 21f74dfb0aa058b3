// test_speed.cpp: precision support, the roofline against hand derivations, and published
// tokens/s (llama.cpp's llama-bench, gpt-fast) within a stated tolerance.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "performance.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// llama-bench tgN: generate N tokens after a 1-token prompt, so the KV cache averages ~N/2.
Config tg(const char* model, const char* gpu, const char* weights, int gpus, int n) {
    Config c = config(model, gpu);
    c.weights = weights;
    c.runtime = Runtime::llama_cpp;
    c.gpus = gpus;
    c.context = n + 1;
    c.prompt_tokens = 1;
    return c;
}

}  // namespace

TEST_CASE("tensor-core precisions per architecture", "[speed][precision]") {
    // NVIDIA architecture whitepapers: Pascal none (no tensor cores); Volta FP16; Turing + INT8; Ampere + BF16, TF32; Ada and
    // Hopper + FP8; Blackwell + FP4. AMD CDNA2: FP16/BF16/INT8 matrix cores; CDNA3 + FP8, TF32.
    struct Row { const char* arch; bool fp16, int8, bf16, tf32, fp8, fp4; };
    const Row rows[] = {
        {"pascal", false, false, false, false, false, false}, {"volta", true, false, false, false, false, false},
        {"turing", true, true, false, false, false, false},   {"ampere", true, true, true, true, false, false},
        {"ada", true, true, true, true, true, false},         {"hopper", true, true, true, true, true, false},
        {"blackwell", true, true, true, true, true, true},    {"cdna2", true, true, true, false, false, false},
        {"cdna3", true, true, true, true, true, false},       {"apple-m2", false, false, false, false, false, false},
    };
    for (const Row& r : rows) {
        INFO(r.arch);
        CHECK(runs_natively(r.arch, Precision::fp16) == r.fp16);
        CHECK(runs_natively(r.arch, Precision::int8) == r.int8);
        CHECK(runs_natively(r.arch, Precision::bf16) == r.bf16);
        CHECK(runs_natively(r.arch, Precision::tf32) == r.tf32);
        CHECK(runs_natively(r.arch, Precision::fp8) == r.fp8);
        CHECK(runs_natively(r.arch, Precision::fp4) == r.fp4);
        CHECK_FALSE(runs_natively(r.arch, Precision::fp32));   // CUDA cores, not tensor cores
    }
}

TEST_CASE("the catalog's tensor rates agree with the architecture table", "[speed][precision][catalog]") {
    // A dense tensor rate in gpus.json is only possible for a precision the architecture runs.
    for (const Gpu& g : catalog().gpus) {
        INFO(g.id);
        const TensorTflops& t = g.tensor_tflops_dense;
        if (!g.tensor_cores) {
            // ALU rates (Apple; Pascal, Vega 20 and RDNA 2 have no matrix units): the whitepaper
            // table gives their architectures no matrix precision at all. TU116 (GeForce GTX 16) is
            // the one Turing chip built without the tensor cores of its architecture (Turing
            // whitepaper: TU102/104/106), so its architecture's row does not describe it.
            if (g.chip != "TU116")
                for (Precision p : {Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8, Precision::int8, Precision::fp4})
                    CHECK_FALSE(runs_natively(g.architecture, p));
            CHECK(t.fp16 > 0);
            continue;
        }
        if (t.tf32 > 0) CHECK(runs_natively(g.architecture, Precision::tf32));
        if (t.fp16 > 0) CHECK(runs_natively(g.architecture, Precision::fp16));
        if (t.bf16 > 0) CHECK(runs_natively(g.architecture, Precision::bf16));
        if (t.fp8 > 0) CHECK(runs_natively(g.architecture, Precision::fp8));
        if (t.int8 > 0) CHECK(runs_natively(g.architecture, Precision::int8));
        if (t.fp4 > 0) CHECK(runs_natively(g.architecture, Precision::fp4));
        CHECK(t.fp16 > 0);   // every GPU here has FP16 matrix math
    }
}

TEST_CASE("a precision the GPU lacks is stored as asked, computed at the next one", "[speed][precision]") {
    // FP8 weights on an A100 (Ampere, no FP8): 1 byte per weight in memory, BF16 math at 312 TFLOPS.
    Config c = config("llama-3-8b", "a100-80gb-sxm");
    c.weights = "fp8";
    c.runtime = Runtime::vllm;
    Report r = run(c);
    // Stored as fp8: 8 bits per linear weight, the 16-bit embedding and head (1.05 B of 8.03 B
    // parameters) bring the average to 8 + 8 x 1.05 / 8.03 = 9.05 bits.
    CHECK(r.weights_bits_per_param == Approx(8 + 8 * (2 * 128256.0 * 4096) / 8030261248.0).epsilon(0.001));
    CHECK(r.speed.compute_precision_requested == "fp8");
    CHECK(r.speed.compute_precision == "bf16");
    CHECK_FALSE(r.speed.native);
    CHECK(r.speed.peak_flops == 312e12);
    CHECK(has_warning(r, "no fp8 tensor cores"));
    // The same on an H100: native FP8 at 1,979 TFLOPS, no warning.
    c.gpu = "h100-sxm";
    r = run(c);
    CHECK(r.speed.compute_precision == "fp8");
    CHECK(r.speed.peak_flops == 1979e12);
    CHECK_FALSE(has_warning(r, "tensor cores"));
    // BF16 on a T4 (Turing: FP16/INT8 only): the next precision up is FP32 on the CUDA cores.
    c = config("llama-3.2-1b", "t4");
    r = run(c);
    CHECK(r.speed.compute_precision == "fp32");
    CHECK_FALSE(r.speed.tensor_cores);
    CHECK(r.speed.peak_flops == 8.1e12);
    CHECK(has_warning(r, "CUDA cores"));
    c.weights = "fp16";   // what a T4 user should do: native FP16
    CHECK(run(c).speed.compute_precision == "fp16");
    // INT8 (W8A8) on a V100 (Volta: FP16 only) falls back to FP16 (Volta has no BF16 either).
    c = config("llama-3.2-1b", "v100-sxm2-32gb");
    c.weights = "int8";
    CHECK(run(c).speed.compute_precision == "fp16");
    // Weight-only formats (GPTQ int4, NF4) compute in the 16-bit activations: no fallback.
    c = config("llama-3-8b", "h100-sxm");
    c.weights = "int4";
    r = run(c);
    CHECK(r.speed.compute_precision == "bf16");
    CHECK(r.speed.native);
    // Apple GPUs have no tensor cores: the ALU rate.
    c = config("llama-3-8b", "m2-ultra-192gb");
    r = run(c);
    CHECK_FALSE(r.speed.tensor_cores);
    CHECK(r.speed.peak_flops == 27.2e12);
    // llama.cpp accumulates its F16 GEMMs in FP16: a GeForce card's FP16-accumulate rate.
    c = config("llama-3-8b", "rtx-4090");
    c.weights = "q4_k_m";
    CHECK(run(c).speed.peak_flops == 330.3e12);
}

TEST_CASE("smooth GEMM roofline: (mem^2.5 + comp^2.5)^(1/2.5), by hand", "[speed][derivation]") {
    using detail::gemm_roofline_seconds;
    // At the ridge (reads and math equal) a GEMM takes 2^(1/2.5) = 1.3195 times either.
    CHECK(gemm_roofline_seconds(1e-3, 1e-3) == Approx(1.319508e-3).epsilon(1e-6));
    // At 4:1 either way: (1 + 0.25^2.5)^0.4 = 1.03125^0.4 = 1.012384 times the larger.
    CHECK(gemm_roofline_seconds(4e-3, 1e-3) == Approx(4.049537e-3).epsilon(1e-6));
    CHECK(gemm_roofline_seconds(1e-3, 4e-3) == gemm_roofline_seconds(4e-3, 1e-3));
    // One side alone is that side, exactly; nothing is nothing.
    CHECK(gemm_roofline_seconds(3e-3, 0) == 3e-3);
    CHECK(gemm_roofline_seconds(0, 3e-3) == 3e-3);
    CHECK(gemm_roofline_seconds(0, 0) == 0);
    // Between the plain roofline and the sum (p > 1), and growing with either side.
    for (double a : {1e-6, 1e-3, 0.5})
        for (double b : {1e-6, 2e-3, 0.7}) {
            const double t = gemm_roofline_seconds(a, b);
            CHECK(t >= std::max(a, b));
            CHECK(t <= a + b);
            CHECK(gemm_roofline_seconds(a * 1.01, b) >= t);
        }
}

TEST_CASE("decode roofline: bytes read per token over the bandwidth", "[speed][derivation]") {
    // Llama 3 8B, bf16, one H100, no runtime overhead, 100% of the bandwidth, no per-layer cost.
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::none);
    c.bandwidth_efficiency = 1.0;
    c.layer_overhead_us = 0;
    const Report r = run(c);
    // Weights read per token: every parameter but the input embedding (a row lookup):
    // (8,030,261,248 - 128,256 x 4,096) x 2 bytes.
    const double weights = (8030261248.0 - 128256.0 * 4096) * 2;
    // KV read: prompt 4,096 (half the 8,192 context), decode to 8,192: average 6,144 tokens of
    // 32 layers x 8 KV heads x 128 x (K + V) x 2 bytes = 131,072 B.
    const double kv = 6144.0 * 131072;
    CHECK(r.config.prompt_tokens == 4096);
    CHECK(r.speed.decode_bytes_per_step == Approx(weights + kv).margin(1));
    CHECK(r.speed.decode_tokens_per_s == Approx(3350e9 / (weights + kv)).epsilon(1e-9));
    CHECK_FALSE(r.speed.decode_compute_bound);   // 15 GFLOP at 495 TFLOP/s: 30 us, far below 4.7 ms
    // Batch 64 multiplies the KV reads, not the weights; throughput rises, per-sequence speed falls.
    c.batch = 64;
    const Report b = run(c);
    CHECK(b.speed.decode_bytes_per_step == Approx(weights + 64 * kv).margin(64));
    CHECK(b.speed.decode_throughput_tokens_per_s == Approx(64 * b.speed.decode_tokens_per_s));
    CHECK(b.speed.decode_tokens_per_s < r.speed.decode_tokens_per_s);
    CHECK(b.speed.decode_throughput_tokens_per_s > r.speed.decode_throughput_tokens_per_s);
}

TEST_CASE("MoE decode reads the experts the batch touches: 1 - (1 - k/E)^batch", "[speed][moe][derivation]") {
    Config c = serving("mixtral-8x7b", "h100-sxm", Runtime::none);
    c.gpus = 2;   // 93 GB of bf16 weights
    c.context = 3;
    c.prompt_tokens = 1;
    const double b1 = run(c).speed.decode_bytes_per_step;
    c.batch = 4;
    const double b4 = run(c).speed.decode_bytes_per_step;
    // Routed experts per TP rank: 32 layers x 8 experts x 3 x 4,096 x 14,336 x 2 bytes / tp 2.
    const double experts = 32.0 * 8 * 3 * 4096 * 14336 * 2 / 2;
    // One token touches 2 of 8 experts; four tokens 1 - (6/8)^4 = 68.36% of them. The KV cache
    // (prompt 1 to context 3: 2 tokens on average, 65,536 B per token per GPU) is noise here but counted.
    const double kv = 2.0 * 32 * 8 * 128 * 2 * 2 / 2;
    CHECK(b4 - b1 == Approx(experts * ((1 - std::pow(0.75, 4)) - 0.25) + 3 * kv).epsilon(1e-6));
}

TEST_CASE("llama.cpp decode matches llama-bench within 10%", "[speed][published]") {
    // XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, llama-bench tg512, May 2024 build:
    // Llama 3 8B Q4_K_M / F16 and Llama 3 70B Q4_K_M split over two cards.
    struct Row { const char* model; const char* gpu; const char* weights; int gpus; double tokens_per_s; };
    const Row rows[] = {
        {"llama-3-8b", "rtx-4090", "q4_k_m", 1, 130.58}, {"llama-3-8b", "rtx-4090", "fp16", 1, 54.84},
        {"llama-3-8b", "rtx-3090", "q4_k_m", 1, 115.42}, {"llama-3-8b", "rtx-3090", "fp16", 1, 47.40},
        {"llama-3-70b", "rtx-4090", "q4_k_m", 2, 19.22}, {"llama-3-70b", "rtx-3090", "q4_k_m", 2, 16.57},
    };
    for (const Row& row : rows) {
        INFO(row.model << " " << row.weights << " on " << row.gpus << " x " << row.gpu);
        const Report r = run(tg(row.model, row.gpu, row.weights, row.gpus, 512));
        CHECK(r.speed.decode_tokens_per_s == Approx(row.tokens_per_s).epsilon(0.10));
    }
    // The same source at tg 8192 (average KV 4,096 tokens): the KV reads slow it down as measured
    // (4090 Q4_K_M: 130.58 -> 110.66).
    const Report longer = run(tg("llama-3-8b", "rtx-4090", "q4_k_m", 1, 8192));
    CHECK(longer.speed.decode_tokens_per_s == Approx(110.66).epsilon(0.10));
}

TEST_CASE("llama.cpp prefill matches llama-bench pp512 within 15%", "[speed][published]") {
    // Same source, pp512, Llama 3 8B F16: 9,382 t/s on an RTX 4090, 4,444.65 on an RTX 3090.
    for (const auto& [gpu, measured] : {std::pair<const char*, double>{"rtx-4090", 9382.0}, {"rtx-3090", 4444.65}}) {
        INFO(gpu);
        Config c = config("llama-3-8b", gpu);
        c.weights = "fp16";
        c.runtime = Runtime::llama_cpp;
        c.context = 512;
        c.prompt_tokens = 512;
        const Report r = run(c);
        CHECK(r.speed.prefill_tokens_per_s == Approx(measured).epsilon(0.15));
        CHECK(r.speed.ttft_s == Approx(512 / r.speed.prefill_tokens_per_s));
    }
}

TEST_CASE("PyTorch decode matches gpt-fast within 15%", "[speed][published]") {
    // pytorch-labs/gpt-fast README: Llama-2-7B, bf16, batch 1, one A100-80GB power-limited to
    // 330 W, 5-token prompt, 200 new tokens: 104.9 tokens/s.
    Config c = config_from_json(R"({"model": {"hf_config": {"model_type": "llama", "num_hidden_layers": 32,
        "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32, "num_key_value_heads": 32,
        "vocab_size": 32000, "max_position_embeddings": 4096}}, "gpu": "a100-80gb-sxm", "runtime": "pytorch",
        "context": 205, "prompt_tokens": 5})");
    CHECK(run(c).speed.decode_tokens_per_s == Approx(104.9).epsilon(0.15));
}

TEST_CASE("training FLOPs: 6N + 12 L H Q s, 8N with full recomputation", "[speed][training][derivation]") {
    Config c = training("llama-3-8b", "h100-sxm");
    c.context = 4096;
    c.runtime = Runtime::none;
    // N = parameters a token multiplies: all but the input embedding (untied head included).
    const double N = 8030261248.0 - 128256.0 * 4096;
    const double attn = 12.0 * 32 * 32 * 128 * 4096;   // PaLM appendix B: 12 x layers x heads x head dim x seq
    Report r = run(c);
    CHECK(r.speed.train_flops_per_token == Approx(6 * N + attn));
    // One GPU, no communication: the step = the math at MFU x peak (0.62: the default fit,
    // performance.hpp kTrainMfu, checked in test_mfu_fit.cpp) + the optimizer step, AdamW over all
    // 8.03e9 parameters at 30 B each (12 + 2 x 8 + 2) and 0.75 of the H100's 3,350 GB/s: 95.9 ms
    // against 4,096 tokens' 0.314 s of math. The effective MFU is the MFU x the math's share.
    CHECK(r.speed.mfu == 0.62);
    const double math_s = 4096.0 * (6 * N + attn) / (0.62 * 989.4e12);
    const double update_s = 8030261248.0 * 30.0 / (3350e9 * 0.75);
    CHECK(update_s == Approx(0.0959).epsilon(1e-3));
    CHECK(r.speed.optimizer_step_s == Approx(update_s));
    CHECK(r.speed.train_tokens_per_s == Approx(4096.0 / (math_s + update_s)));
    CHECK(r.speed.effective_mfu == Approx(0.62 * math_s / (math_s + update_s)));
    // Full recomputation runs the forward again: 8N + 16 L H Q s executed, 6N + 12 L H Q s useful.
    c.recompute = Recompute::full;
    r = run(c);
    CHECK(r.speed.train_flops_per_token == Approx(8 * N + attn * 4 / 3));
    const double full_math_s = 4096.0 * (8 * N + attn * 4 / 3) / (0.62 * 989.4e12);
    CHECK(r.speed.effective_mfu == Approx(0.62 * (6 * N + attn) / (8 * N + attn * 4 / 3) * full_math_s / (full_math_s + update_s)));
    // Selective recomputation repeats only the attention core.
    c.recompute = Recompute::selective;
    CHECK(run(c).speed.train_flops_per_token == Approx(6 * N + attn * 4 / 3));
    // LoRA: frozen weights need no weight gradients: 4N.
    c.mode = Mode::lora;
    c.recompute = Recompute::none;
    CHECK(run(c).speed.train_flops_per_token == Approx(4 * N + attn));
    // Time to train D tokens at the resulting rate; a chosen MFU scales it.
    c.mode = Mode::train;
    c.train_tokens = 1e9;
    r = run(c);
    CHECK(r.speed.train_time_s == Approx(1e9 / r.speed.train_tokens_per_s));
    c.mfu = 0.3;
    CHECK(run(c).speed.train_time_s == Approx(r.speed.train_time_s * (math_s * 0.62 / 0.3 + update_s) / (math_s + update_s)));
}

TEST_CASE("more bandwidth or efficiency never slows a step", "[speed][property]") {
    Config c = config("llama-3-70b", "h100-sxm");
    c.weights = "fp8";
    c.runtime = Runtime::vllm;
    c.gpus = 2;
    double last = 0;
    for (double eff : {0.3, 0.5, 0.75, 0.9, 1.0}) {
        c.bandwidth_efficiency = eff;
        const double tps = run(c).speed.decode_tokens_per_s;
        CHECK(tps >= last);
        last = tps;
    }
    // Across GPUs, decode tokens/s never falls as memory bandwidth rises (same model, same runtime,
    // bandwidth-bound): the PCIe Ampere cards ordered by GB/s.
    last = 0;
    for (const char* gpu : {"a10", "a100-40gb-pcie", "a100-80gb-pcie"}) {
        Config g = config("llama-3-8b", gpu);
        const double tps = run(g).speed.decode_tokens_per_s;
        CHECK(tps >= last);
        last = tps;
    }
    // Training: a higher MFU never lengthens a step.
    Config t = training("llama-3-8b", "h100-sxm", 8);
    double step = 1e30;
    for (double mfu : {0.2, 0.35, 0.5, 0.65}) {
        t.mfu = mfu;
        const double s = run(t).speed.train_step_s;
        CHECK(s <= step);
        step = s;
    }
}

TEST_CASE("partial offload as llama.cpp does it", "[speed][offload]") {
    // Mixtral 8x7B Q4_K_M (26 GB) on one 24 GB RTX 4090: some layers stay in host RAM.
    Config c = config("mixtral-8x7b", "rtx-4090");
    c.weights = "q4_k_m";
    Report r = run(c);
    REQUIRE_FALSE(r.fits);
    const OffloadReport& o = r.speed.offload;
    CHECK(o.active);
    CHECK(o.total_layers == 32);
    CHECK(o.gpu_layers > 0);
    CHECK(o.gpu_layers < 32);
    CHECK(o.host_bandwidth_bytes_per_s == 76.8e9);   // dual-channel DDR5-4800
    CHECK(o.host_bytes > 0);
    CHECK(o.experts_on_host_decode_tokens_per_s > 0);   // attention fits, the experts go to RAM
    CHECK(r.speed.decode_tokens_per_s == Approx(std::max(o.decode_tokens_per_s, o.experts_on_host_decode_tokens_per_s)));
    CHECK(has_warning(r, "-ngl"));
    // Faster host memory (8-channel DDR5-4800: 307.2 GB/s) makes the offloaded part faster.
    c.host_memory_bandwidth_gb_per_s = 307.2;
    const Report fast = run(c);
    CHECK(fast.speed.offload.decode_tokens_per_s > o.decode_tokens_per_s);
    CHECK(fast.speed.offload.gpu_layers == o.gpu_layers);
    // A model that fits does not offload.
    c = config("llama-3-8b", "rtx-4090");
    c.weights = "q4_k_m";
    CHECK_FALSE(run(c).speed.offload.active);
    // Not on Apple machines: the CPU and GPU share one memory.
    c = config("llama-3.1-405b", "m2-ultra-192gb");
    c.weights = "q4_k_m";
    CHECK_FALSE(run(c).speed.offload.active);
}

// Metal encodes each op of a layer into a command buffer: llama.cpp's fixed time per layer is a
// GPU's own figure there (gpus.json llama_cpp_layer_overhead_us = 190 on Apple machines,
// docs/assets.md), not CUDA's 90 us; a configuration's layer_overhead_us still wins.
TEST_CASE("llama.cpp's per-layer time is the GPU's own where gpus.json gives one", "[speed][config][apple]") {
    Config c = config("llama-3-8b", "m2-ultra-192gb");
    c.runtime = Runtime::llama_cpp;
    c.weights = "fp16";
    const Report apple = run(c);
    CHECK(apple.config.layer_overhead_us == 190);
    c.layer_overhead_us = 90;
    const Report cuda_like = run(c);
    // 32 layers x (190 - 90) us = 3.2 ms more per token at 190.
    CHECK(1.0 / apple.speed.decode_tokens_per_s - 1.0 / cuda_like.speed.decode_tokens_per_s == Approx(32 * 100e-6).epsilon(1e-6));
    CHECK(run(config("llama-3-8b", "rtx-4090")).config.layer_overhead_us == 0);   // PyTorch: none
    Config g = config("llama-3-8b", "rtx-4090");
    g.runtime = Runtime::llama_cpp;
    CHECK(run(g).config.layer_overhead_us == 90);   // no figure in gpus.json: CUDA's
}

TEST_CASE("efficiencies are visible in the resolved configuration", "[speed][config]") {
    Config c = config("llama-3-8b", "rtx-4090");
    c.weights = "q4_k_m";
    Report r = run(c);
    CHECK(r.config.bandwidth_efficiency == 0.9);    // llama.cpp, fitted to llama-bench
    CHECK(r.config.layer_overhead_us == 90);
    CHECK(r.config.mfu == 0.5);                     // prefill
    c = config("llama-3-8b", "h100-sxm");
    r = run(c);
    CHECK(r.config.bandwidth_efficiency == 0.75);   // PyTorch, 16-bit (gpt-fast)
    CHECK(r.config.layer_overhead_us == 0);
    c.weights = "int4";
    CHECK(run(c).config.bandwidth_efficiency == 0.6);   // quantized
    c.mode = Mode::train;
    c.weights = "bf16";
    CHECK(run(c).config.mfu == 0.62);   // training: the fit of test_mfu_fit.cpp
    // The resolved configuration reproduces the report (JSON round trip).
    c = config("mixtral-8x7b", "a100-80gb-pcie");
    c.gpus = 2;
    c.runtime = Runtime::vllm;
    r = run(c);
    const Report again = run(config_from_json(config_to_json(r.config)));
    CHECK(again.speed.decode_tokens_per_s == Approx(r.speed.decode_tokens_per_s));
    CHECK(again.interconnect.tp_comm_s_per_token == Approx(r.interconnect.tp_comm_s_per_token));
    CHECK(again.power.system_w == Approx(r.power.system_w));
}

TEST_CASE("assumptions list the speed, link and power constants", "[speed][assumptions]") {
    Config c = serving("llama-3-70b", "h100-sxm", Runtime::vllm, 8);
    std::string names;
    for (const Assumption& a : assumptions(run(c))) {
        names += a.name + " ";
        CHECK_FALSE(a.source.empty());
    }
    for (const char* n : {"compute_precision", "bandwidth_efficiency", "layer_overhead", "prefill_mfu", "link", "bus_bandwidth",
                          "collective_latency", "power", "psu", "electricity"})
        CHECK(names.find(n) != std::string::npos);
    c.mode = Mode::train;
    c.weights = "bf16";
    c.runtime = Runtime::automatic;
    names.clear();
    for (const Assumption& a : assumptions(run(c))) names += a.name + " ";
    CHECK(names.find("mfu") != std::string::npos);
    CHECK(names.find("training_flops") != std::string::npos);
}

namespace {

// Four Qwen3-MoE-shaped layers (128 experts of 1,536, top-8), bf16 on one H100 under `runtime`,
// a 65,536-token prompt.
Config qwen3_moe_shaped(const std::string& runtime) {
    return config_from_json(R"({"model": {"hf_config": {"model_type": "qwen3_moe", "num_hidden_layers": 4,
        "hidden_size": 4096, "intermediate_size": 12288, "moe_intermediate_size": 1536, "num_experts": 128,
        "num_experts_per_tok": 8, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
        "vocab_size": 1000, "max_position_embeddings": 65536}},
        "gpu": "h100-sxm", "runtime": ")" + runtime + R"(", "weights": "bf16", "context": 65536, "prompt_tokens": 65536})");
}

}  // namespace

TEST_CASE("MoE prefill: the expert GEMMs lose half a 128-row tile per expert", "[speed][moe]") {
    // A grouped GEMM gives each expert tiles of 128 token rows; with m tokens per expert the last
    // tile is half empty on average, so the expert matmuls run at m / (m + 64) of the dense
    // efficiency (m / (m + m / 2) = 2/3 below 128 rows). Qwen3-MoE-shaped layers, 128 experts,
    // top-8, bf16 on one H100 under PyTorch (no per-forward overhead), a 65,536-token prompt: every
    // chunk size below is compute-bound, so the chunks change only the experts' efficiency.
    auto ttft = [&](int chunk) {
        Config c = qwen3_moe_shaped("pytorch");
        c.prefill_chunk = chunk;
        const Report r = run(c);
        CHECK(r.speed.peak_flops == Approx(989.4e12));   // H100 SXM dense BF16 (1,978.9 with sparsity / 2)
        CHECK(r.speed.mfu == 0.5);
        return r.speed.ttft_s;
    };
    // Routed-expert FLOPs per token: 2 x 4 layers x 8 experts x 3 matrices x 4096 x 1536.
    const double f_exp = 2.0 * 4 * 8 * 3 * 4096.0 * 1536.0;
    const double T = 65536, rate = 0.5 * 989.4e12;
    // Chunk 16,384: 16384 x 8 / 128 = 1,024 tokens per expert, efficiency 1024 / 1088.
    // Chunk 4,096: 256 per expert, 256 / 320 = 0.8. Chunk 2,048: 128 per expert, 2/3.
    const double t16k = ttft(16384), t4k = ttft(4096), t2k = ttft(2048);
    CHECK(t4k - t16k == Approx(T * f_exp * (320.0 / 256 - 1088.0 / 1024) / rate).epsilon(1e-6));
    CHECK(t2k - t4k == Approx(T * f_exp * (1.5 - 1.25) / rate).epsilon(1e-6));
    // A dense model of the same shape (the MLP 12,288 wide) is compute-bound at both chunk sizes
    // and does not change with them.
    Config dense = config_from_json(R"({"model": {"hf_config": {"model_type": "qwen3", "num_hidden_layers": 4,
        "hidden_size": 4096, "intermediate_size": 12288, "num_attention_heads": 32, "num_key_value_heads": 4,
        "head_dim": 128, "vocab_size": 1000, "max_position_embeddings": 65536}},
        "gpu": "h100-sxm", "runtime": "pytorch", "weights": "bf16", "context": 65536, "prompt_tokens": 65536})");
    dense.prefill_chunk = 16384;
    const double d16k = run(dense).speed.ttft_s;
    dense.prefill_chunk = 2048;
    CHECK(run(dense).speed.ttft_s == Approx(d16k).epsilon(1e-9));
}

TEST_CASE("MoE prefill under llama.cpp: 128-row tiles whatever the tokens per expert", "[speed][moe]") {
    // llama.cpp's CUDA MMQ picks its tile (mmq_x) by the ubatch's columns, so with a 1,024-token
    // ubatch an expert of 64 tokens still gets a 128-row tile: 64 / (64 + 64) = 0.5, where vLLM's
    // tile would follow m (2/3). Same Qwen3-MoE-shaped layers and prompt as above.
    Config c = qwen3_moe_shaped("llama.cpp");
    c.prefill_chunk = 4096;   // 256 tokens per expert: 256 / (256 + 64) = 0.8
    const Report r4k = run(c);
    c.prefill_chunk = 1024;   // 64 tokens per expert: 0.5
    const Report r1k = run(c);
    const double f_exp = 2.0 * 4 * 8 * 3 * 4096.0 * 1536.0;   // routed-expert FLOPs per token
    const double rate = r4k.speed.mfu * r4k.speed.peak_flops;
    // llama.cpp also pays 90 us per layer per forward: 64 forwards against 16, 4 layers.
    const double overhead = (64 - 16) * 4 * 90e-6;
    CHECK(r1k.speed.ttft_s - r4k.speed.ttft_s == Approx(65536 * f_exp * (2.0 - 1.25) / rate + overhead).epsilon(1e-6));
}
