// uncertainty.cpp: the bands of the speed figures (gpusizer/uncertainty.hpp).
//
// Each band is measured / predicted over the accuracy set's rows of that figure and runtime
// (tests/validation/accuracy.json; docs/accuracy.md lists each row's error e = predicted /
// measured - 1, so a row's ratio is 1 / (1 + e)), widened to include 1 (the estimate itself) and
// rounded outward to the next 0.01. Known differences are included: the band says where measured
// values have fallen, not where the model is right. tests/test_uncertainty.cpp re-runs the rows and
// checks that every one lies inside its band; when the model or the set changes, the table is
// re-derived from `gpusizer_validate` the same way.
#include "gpusizer/uncertainty.hpp"

#include "gpusizer/report.hpp"

namespace gpusizer {

namespace {

struct BandRow {
    SpeedFigure figure;
    Runtime runtime;
    ModelClass cls;   // any: the runtime's rows are not split by model
    Backend backend;   // any: the runtime's rows are not split by GPU backend
    SpeedBand band;
};

// clang-format off
constexpr BandRow kBands[] = {
    // llama.cpp decode, split by backend: the model's 0.9 of bandwidth and 90 us per layer were
    // fitted on CUDA, and the other backends' rows fall up to 40% below it (each a named known
    // difference), so one band for all would give a CUDA user a lower end that no CUDA row reaches.
    //
    // CUDA, 15 rows: llama-bench tg128 on an RTX 4090 (CodeLlama 7B f16, q8_0) and an RTX 3080
    // (Llama 3.1 8B Q4_K_M), tg32 on DGX Spark (gpt-oss-20b and 120b MXFP4 from an empty context,
    // at d16384 and d32768), tg512 on an RTX 3080 Ti (Llama 3 8B Q4_K_M) and an RTX 4000 Ada (8B
    // Q4_K_M and F16), an RTX 2080 (Llama 3.1 8B Q4_K_M, llmfit), tg128 on a Tesla P40 (LLaMA 7B
    // Q4_0; Pascal's reachable bandwidth, a known difference); llama-server with routed experts in
    // host RAM (n_cpu_moe), Qwen3.5-35B-A3B on an RTX 5080 with DDR5-4800 (Q8_0 all experts, Q4_K_M
    // all and 24 layers: known differences, the CPU's K-quant math): errors -6.9%, -5.4%, -7.7%,
    // -1.2%, +11.8%, -5.6%, +7.4%, +5.3%, -2.5%, -3.3%, -4.1%, +14.7%, +4.8%, +15.6%, +14.6% ->
    // measured / predicted 1.074, 1.057, 1.084, 1.012, 0.894, 1.060, 0.931, 0.950, 1.026, 1.034,
    // 1.042, 0.872, 0.954, 0.865, 0.872.
    {SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::cuda,
     {0.86, 1.09, 15, true, "llama.cpp CUDA decode rows: llama-bench tg (RTX 4090, RTX 3080 / 3080 Ti, RTX 2080, RTX 4000 Ada, "
                            "DGX Spark, Tesla P40), llama-server n_cpu_moe (RTX 5080)"}},
    // ROCm, 10 rows (every one a known difference but the Q8_0 and gpt-oss-20b Strix Halo rows:
    // ROCm spends 35-104 us more per layer than CUDA's 90, and its K- and I-quant kernels fall
    // behind the memory): llama-server n_cpu_moe, gpt-oss-20b on an RX 7900 XT; tg128 on a Ryzen AI
    // Max+ 395 (Llama 3.3 70B Q8_0, Q4_K_M and IQ2_S, gpt-oss-20b and 120b MXFP4); one-token
    // forwards on an MI100 (Llama 3.1 8B Q4_0, gpt-oss-20b MXFP4) and an MI50 (Llama 3.2 1B Q4_0);
    // tg128 on an RX 6800 XT (gpt-oss-20b): +23.3%, +2.6%, +17.3%, +27.2%, +6.7%, +10.1%, +44.8%,
    // +55.3%, +34.8%, +10.9% -> 0.811, 0.974, 0.853, 0.786, 0.937, 0.908, 0.691, 0.644, 0.742, 0.902.
    {SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::rocm,
     {0.64, 1.00, 10, true, "llama.cpp ROCm decode rows: llama-bench tg (Ryzen AI Max+ 395, RX 6800 XT), one-token forwards "
                            "(Instinct MI100 / MI50), llama-server n_cpu_moe (RX 7900 XT)"}},
    // Metal, 9 rows: llama-bench tg512 on Apple M2 Ultra (Llama 3 8B F16 and Q4_K_M, 70B Q4_K_M and
    // F16) and M3 Max (8B Q4_K_M and F16, 70B Q4_K_M); M1 Max (Llama 3.1 8B Q4_K_M tg128, Llama 3 8B
    // F16 tg512; known differences: it reaches 0.79 of its 400 GB/s): +0.3%, +0.8%, +8.8%, +0.8%,
    // +7.0%, -5.4%, -1.1%, +13.9%, +11.2% -> 0.997, 0.992, 0.919, 0.992, 0.935, 1.057, 1.011, 0.878,
    // 0.899.
    {SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::metal,
     {0.87, 1.06, 9, true, "llama.cpp Metal decode rows: llama-bench tg (Apple M1 Max / M2 Ultra / M3 Max)"}},
    // SYCL, 2 rows, known differences (the SYCL builds' kernels bound Arc): Arc A770 (Llama 2 7B
    // Q4_0, the backend's own record) +67.5%, Arc B580 (R1-Distill-Qwen-7B Q4_K_M tg128, IPEX-LLM)
    // +13.9% -> 0.597, 0.878. Under kMinRowsPerBackend: an Intel GPU gets llama.cpp's rows of every
    // backend, 0.59-1.09 (36 rows), these two among them.
    {SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::sycl,
     {0.59, 1.00, 2, true, "llama.cpp SYCL decode rows (Arc A770 / B580)"}},
    // vLLM, Llama 3.1 8B bf16 on one A100 40GB, one request at a time (johnmusgrave.com): error
    // +2.6% -> 0.974.
    {SpeedFigure::decode, Runtime::vllm, ModelClass::any, Backend::any, {0.97, 1.00, 1, true, "vLLM one-request decode row (A100 40GB)"}},
    // llama.cpp prefill, split by backend as decode is: Apple's rows run well above the estimate
    // (no published matrix rate; the FP32 ALU rate stands in) where CUDA's run at or below it.
    //
    // CUDA, 16 rows: llama-bench pp512 on an RTX 4090 (CodeLlama 7B f16), pp4096 on an RTX 4090
    // (Qwen3-30B-A3B Q4_0 in 64-token ubatches, gpt-oss-20b MXFP4 in 1,024-token ones) and pp2048
    // on DGX Spark (gpt-oss-20b MXFP4 in builds 6767 and 6918, gpt-oss-120b MXFP4, Qwen3-Coder-30B-A3B
    // Q8_0, and the dense controls Qwen2.5-Coder-7B Q8_0 and Gemma 3 4B Q4_0; gpt-oss on the 4090 and
    // the Spark rows are known differences), pp512 on an RTX 3080 Ti (Llama 3 8B Q4_K_M), an RTX
    // 4000 Ada (8B F16 and Q4_K_M) and an RTX 2080 Ti (Llama 2 13B Q4_K_M; the Q4_K_M rows are known
    // differences: llama.cpp's MMQ kernels): errors +4.7%, +7.7%, +36.8%, +84.0%, +75.7%, +70.4%,
    // +85.1%, +87.7%, +35.4%, +19.0%, +10.9%, +41.1%, +37.0% -> 0.955, 0.929, 0.731, 0.543, 0.569,
    // 0.587, 0.540, 0.533, 0.738, 0.840, 0.902, 0.709, 0.730; llama-server prompts of 85, 1400 and
    // 5500 tokens on an RTX 3090 with gpt-oss-120b's experts of 27 layers in host RAM (n_cpu_moe;
    // Hardware Corner): -7.2%, -4.0%, -5.4% -> 1.077, 1.042, 1.057.
    {SpeedFigure::prefill, Runtime::llama_cpp, ModelClass::any, Backend::cuda,
     {0.53, 1.08, 16, true, "llama.cpp CUDA prompt rows: llama-bench pp (RTX 4090, RTX 3080 Ti, RTX 2080 Ti, RTX 4000 Ada, "
                            "DGX Spark; MoE and dense), llama-server n_cpu_moe prompts (RTX 3090)"}},
    // Metal, 6 rows: llama-bench pp512 on Apple M2 Ultra (Llama 3 8B Q4_K_M and F16, 70B Q4_K_M),
    // M3 Max (8B Q4_K_M and F16) and M1 Max (8B Q4_K_M) (all but the first known differences: Apple
    // publishes no matrix rate): -10.6%, -24.4%, -18.3%, -32.8%, -39.4%, -16.2% -> 1.119, 1.323,
    // 1.224, 1.487, 1.651, 1.194. ROCm and SYCL have no prefill rows: their GPUs get llama.cpp's
    // rows of every backend, 0.53-1.66 (22 rows).
    {SpeedFigure::prefill, Runtime::llama_cpp, ModelClass::any, Backend::metal,
     {1.00, 1.66, 6, true, "llama.cpp Metal prompt rows: llama-bench pp (Apple M1 Max / M2 Ultra / M3 Max)"}},
    // TensorRT-LLM performance overview (trtllm-bench, v1.0, each row at trtllm-bench's own
    // max_batch_size and max_num_tokens), every pair of ISL/OSL of every column whose model and
    // GPU the catalog has, split by model class. Dense, 146 rows (Llama 3.1
    // 8B on H100 and H200; Llama 3.3 70B on B200, GB200, H200, 2 H100 and 1, 2, 4 and 8 RTX PRO
    // 6000 at pp 1 to 8; Llama 3.1 405B on 4 B200, 4 GB200, 8 H200, 8 H100 and 8 RTX PRO 6000 at
    // pp 8): errors -37.1% (70B on 2 RTX PRO 6000 at pp 2, 2048/128) to +87.7% (70B on 8 RTX PRO
    // 6000 at pp 8, 128/2048) -> 1.591 to 0.533; MLPerf Inference Offline, NVIDIA's TensorRT-LLM
    // harness, 4 rows (llama2-70b on 8 H100 v4.1 at tp 2, 8 H100 v5.0 at pp 2, 8 H200 and 8 B200
    // v5.0): +6.1%, -7.5%, -14.3%, -14.3% -> 0.942, 1.081, 1.167, 1.166, inside.
    {SpeedFigure::serving_throughput, Runtime::trt_llm, ModelClass::dense, Backend::any,
     {0.53, 1.60, 150, true, "TensorRT-LLM perf overview dense-model rows and MLPerf Inference Offline rows"}},
    // Mixture of experts, 129 rows (Qwen3-235B-A22B on 8 B200, 8 H200, 8 H100 and 8 RTX PRO 6000
    // at tp 2 x pp 4; Qwen3-30B-A3B on B200, GB200 and 1 to 8 RTX PRO 6000; Llama 4 Maverick on
    // 8 B200, 8 H200, 8 H100 and 8 RTX PRO 6000 at tp 4 x pp 2): errors -46.9% (Qwen3-30B-A3B on 8
    // RTX PRO 6000, 500/2000) to +504.7% (Qwen3-30B-A3B on GB200, 128/128; the small-expert model
    // on B200 and GB200 is a known difference at every pair, as Maverick on 8 H100) -> 1.882 to 0.166;
    // TensorRT-LLM's DeepSeek-R1 guide, attention DP with ep 8, 3 rows (R1-0528 FP4 and R1 FP4 on 8
    // B200, R1 FP8 on 8 H200; known differences): +106.5%, +90.3%, +60.0% -> 0.484, 0.526, 0.625, inside.
    {SpeedFigure::serving_throughput, Runtime::trt_llm, ModelClass::moe, Backend::any,
     {0.16, 1.89, 132, true, "TensorRT-LLM perf overview mixture-of-experts rows (Qwen3-235B-A22B, Qwen3-30B-A3B, Llama 4 Maverick) "
                             "and its DeepSeek-R1 guide's attention-DP rows"}},
    // vLLM, 145 rows, with the 0.10-0.11 line's per-step and per-request time (runtime_profiles.hpp):
    // one RTX 4090 (Mistral 7B, 256 in / ~100 out, 4-32 requests in flight; mushfiqrahman.dev);
    // v0.6.0 ShareGPT (5,000 prompts at once, sgl-project/sglang benchmark/benchmark_vllm_060),
    // Llama 3.1 8B on one A100 80GB and 70B on 4 H100; the ML.ENERGY Leaderboard v3.0 (vLLM 0.11.1):
    // lm-arena-chat, 92 runs at 8, 64 and up to 256 requests of 13 models on 1-8 H100 or B200 (the
    // H100 ones are the step time's fit), and gpqa, 47 runs at 8 and 32 requests of 9 models (not
    // fitted). Known differences: B200's floor, FP8 MoE at few requests, dense compute-bound steps
    // at 256. Errors -33.1% (Llama 3.1 70B on 4 H100 at 256) to +474.9% (Qwen3-8B on one B200 in
    // gpqa at 8, a 32 ms step where the GPU's work is 5.5 ms) -> 1.494 to 0.174; dense 0.17-1.50,
    // MoE 0.20-1.36, so one band.
    {SpeedFigure::serving_throughput, Runtime::vllm, ModelClass::any, Backend::any,
     {0.17, 1.50, 145, true, "vLLM serving rows: ML.ENERGY v3.0 chat and GPQA (vLLM 0.11.1, H100 / B200), RTX 4090 sweep, v0.6.0 ShareGPT (A100, 4x H100)"}},
    // SGLang, requests sent all at once: v0.3.0 ShareGPT (5,000 prompts, sgl-project/sglang
    // benchmark/benchmark_vllm_060) Llama 3.1 8B on one A100 80GB and 70B on 4 H100 (a known
    // difference): -0.7%, +37.0% -> 1.007, 0.730; v0.4.1-era runs on H200 (datacrunch-research/
    // h200-benchmarks): ShareGPT 70B on 4 and 8 (the second a known difference) and 405B on 8, +11.7%,
    // +33.7%, +8.9% -> 0.895, 0.748, 0.918; Llama 3.3
    // 70B on 4, uniform random lengths up to 1024/1024, 1024/512, 256/512, 4096/2048, 4096/1024 (the
    // last two known differences): +21.2%, +10.5%, +16.2%, +54.4%, +26.2% -> 0.825, 0.905, 0.861,
    // 0.648, 0.792.
    {SpeedFigure::serving_throughput, Runtime::sglang, ModelClass::any, Backend::any,
     {0.64, 1.01, 10, true, "SGLang bench_serving rows (A100, 4x H100, 4x / 8x H200; ShareGPT and random lengths)"}},
    // Training MFU and HFU: Llama 3 405B (8k and 16k H100, and the 131,072-token stage with
    // cp 16), Megatron-LM 18.4B-1T HFU on A100, torchtitan Llama 3 8B and 70B FSDP on 64 A100,
    // with the kernel efficiency 0.62 fitted on the eight without cp (performance.hpp): errors
    // +7.8% (Megatron 18.4B) to -10.2% (torchtitan 70B) -> 0.928 to 1.113; the cp row +6.9% ->
    // 0.935. Tokens per second scale as MFU for the same configuration. Training tokens/s rows,
    // FP8 on H100: NeMo 24.12's nine pretraining runs (GPT-3 5B to 175B, Llama 2 7B to 70B,
    // Llama 3 8B and 70B) +5.1% to -13.5% -> 0.952 to 1.156; MLPerf Training v4.0 Llama 2 70B LoRA
    // on 8 H100 and 8 H200 +0.8%, -12.3% -> 0.992, 1.141; MLPerf Training v3.1 GPT-3 175B on 512,
    // 4,096 and 10,752 H100 -3.0% to -4.3% -> 1.031 to 1.045. torchtitan's FSDP2 runs of Llama 3.1
    // 8B on 8 and 128 H100, eager and compiled (training_framework fsdp / torchtitan): +0.4% to
    // +3.7% -> 0.964 to 0.996. BLOOM 176B on 384 A100 +10.6% -> 0.904. Named known differences:
    // Megatron-Turing NLG 530B on 2,240 and 3,360 A100 (a fixed per-step cost of its engine, not
    // modelled) +20.3%, +26.8% -> 0.831, 0.789; OPT-175B on 992 A100 ("up to" 147 TFLOP/s) +17.5%
    // -> 0.851.
    {SpeedFigure::train_throughput, Runtime::pytorch, ModelClass::any, Backend::any,
     {0.78, 1.16, 31, true, "training MFU / HFU rows (Llama 3, Megatron-LM, MT-NLG, BLOOM, OPT, torchtitan), training tokens/s rows (NeMo, MLPerf, torchtitan)"}},
};
// clang-format on

SpeedBand union_of(SpeedBand a, const SpeedBand& b) {
    if (a.rows == 0) return b;
    a.lo = a.lo < b.lo ? a.lo : b.lo;
    a.hi = a.hi > b.hi ? a.hi : b.hi;
    a.rows += b.rows;
    return a;
}

}  // namespace

ModelClass model_class(const Report& r) {
    return r.active_params > 0 && r.active_params < r.params ? ModelClass::moe : ModelClass::dense;
}

Backend gpu_backend(const Report& r) {
    if (r.gpu_vendor == "nvidia") return Backend::cuda;
    if (r.gpu_vendor == "amd") return Backend::rocm;
    if (r.gpu_vendor == "intel") return Backend::sycl;
    if (r.gpu_vendor == "apple") return Backend::metal;
    return Backend::any;
}

SpeedBand speed_band(SpeedFigure figure, Runtime runtime, ModelClass cls, Backend backend) {
    if (runtime == Runtime::ollama) runtime = Runtime::llama_cpp;   // llama-server underneath
    // This runtime's band (of the model's class and the GPU's backend, where its rows split); a
    // class or backend not asked for, or a backend with too few rows, takes all the runtime's rows;
    // a runtime without rows, the union of the figure's rows on every runtime, marked as borrowed.
    SpeedBand own, all;
    const BandRow* match = nullptr;
    bool by_backend = false;
    for (const BandRow& b : kBands) {
        if (b.figure != figure) continue;
        all = union_of(all, b.band);
        if (b.runtime != runtime) continue;
        own = union_of(own, b.band);
        by_backend = by_backend || b.backend != Backend::any;
        if ((b.cls == ModelClass::any || b.cls == cls) && (b.backend == Backend::any || b.backend == backend)) match = &b;
    }
    if (match && (match->backend == Backend::any || match->band.rows >= kMinRowsPerBackend)) return match->band;
    if (own.rows > 0) {
        if (!by_backend)
            own.rows_from = "this runtime's rows of every model class";
        else if (backend == Backend::any)
            own.rows_from = "this runtime's rows on every GPU backend";
        else if (match)
            own.rows_from = "this runtime's rows on every GPU backend (this GPU's backend has too few for its own band)";
        else
            own.rows_from = "this runtime's rows on every GPU backend (none on this GPU's backend)";
        return own;
    }
    all.same_runtime = false;
    return all;
}

SpeedBand speed_band(SpeedFigure figure, const Report& r) { return speed_band(figure, r.config.runtime, model_class(r), gpu_backend(r)); }

}  // namespace gpusizer
