// performance.hpp (internal): speed, communication and power of a resolved configuration.
// Roofline arithmetic on quantities the memory estimate has already resolved; no per-layer loops
// at evaluation time. Exposed to estimate.cpp, fit.cpp (sweep), recommend.cpp and the tests.
#pragma once

#include "estimate_internal.hpp"
#include "gpusizer/compute.hpp"
#include "interconnect.hpp"
#include "power/wall_power.hpp"

#include <algorithm>
#include <cmath>

namespace gpusizer::detail {

// Default efficiencies, each from published measurements (docs/formulas.md, "Speed"):
// decode reaches this fraction of the memory bandwidth...
constexpr double kDecodeBandwidthEfficiency16 = 0.75;    // PyTorch/vLLM, 16/32-bit weights: gpt-fast Llama-2-7B bf16 on A100-80GB,
                                                         // 1,397 GB/s = 69% of 2,039 (82% of the 1.7 TB/s its 330 W cap allows)
constexpr double kDecodeBandwidthEfficiencyQuant = 0.6;  // PyTorch/vLLM, quantized weights: gpt-fast int8 1,069 GB/s (52%), int4 863 (42%)
// llama.cpp: Llama 3 8B tg512 at Q4_K_M and F16 on an RTX 4090 (130.58, 54.84 t/s) and an RTX 3090
// (115.42, 47.40 t/s) fit t = bytes / (eta x bandwidth) + layers x tau with eta = 0.97 / 0.89 and
// tau = 91 / 97 us (XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, llama-bench, May 2024).
constexpr double kLlamaCppBandwidthEfficiency = 0.9;
constexpr double kLlamaCppLayerOverhead = 90e-6;   // seconds per layer per forward: kernel launches and syncs
// ...and compute-bound work this fraction of the dense tensor peak:
constexpr double kPrefillMfu = 0.5;      // llama.cpp F16 pp512: 46% (RTX 4090) and 50% (RTX 3090) of the FP16-accumulate peak
// A GEMM bound by neither its reads nor its math alone: near the ridge, where the two take about
// as long, a real kernel does not hide one entirely behind the other (its pipeline fills, the tail
// wave, the epilogue's writes), so time = (t_mem^p + t_comp^p)^(1/p), a smooth roofline, instead
// of max(t_mem, t_comp) (p -> infinity). p = 2.5: the best fit of XLA's measured matmul table for
// sm_90 (tensorflow/tensorflow matmul_interpolator_data.h, BF16, m, n, k 256-4,096; docs/research/
// gemm-efficiency-xla.md): rms log error 0.131 at 2.5, 0.132 at 2, 0.133 at 3, 0.145 for the
// max. At the ridge a GEMM takes 2^(1/2.5) = 1.32 times the roofline; at 4:1 either way 1.01.
constexpr double kGemmRooflineExponent = 2.5;
inline double gemm_roofline_seconds(double mem_s, double comp_s) {
    const double hi = std::max(mem_s, comp_s), lo = std::min(mem_s, comp_s);
    if (!(lo > 0)) return hi;   // one side alone (or nothing): no smoothing, no division by zero
    return hi * std::pow(1.0 + std::pow(lo / hi, kGemmRooflineExponent), 1.0 / kGemmRooflineExponent);
}
// FP4 (NVFP4 / MXFP4) GEMMs reach this share of the efficiency 16-bit GEMMs reach on the same GPU:
// vLLM's NVFP4 GEMM benchmark on Blackwell (benchmarks/kernels/bench_nvfp4_gemm.py, vllm-project/vllm
// pull 20578 and 20646; Llama-3.1-8B N = 6,144, K = 4,096), the GEMM alone ("nvfp4-noquant"):
// 3,646 / 3,779 / 3,904 TFLOPS of the 9,000 dense FP4 peak at M = 4,096 / 8,192 / 16,384 against
// torch BF16 1,365 / 1,421 / 1,360 of 2,250: 0.668, 0.665, 0.718 -> 0.68. The block scales do not
// scale with the doubled tensor rate. The GEMM alone, because TensorRT-LLM quantizes a layer's
// input inside the kernel that produces it (its attention writes NVFP4 for the output projection:
// tensorrt_llm/_torch/attention_backend/trtllm.py, use_nvfp4_output); an engine that runs the
// quantization as a kernel of its own pays it besides (the same benchmark with it: 0.54, not
// modelled). FP8 inference needs no such factor: TensorRT-LLM's FP8 rows on H100 and H200 land
// within tolerance at kPrefillMfu of the FP8 peak.
constexpr double kFp4GemmEfficiency = 0.68;
// FP8 attention reaches this share of the efficiency 16-bit attention reaches at its peak:
// FlashAttention-3 on H100 (Shah et al. 2024, arXiv:2407.08608, Figures 5 and 7: forward, head
// dim 128, 16k tokens per batch), FP8 against BF16: 918 / 638, 974 / 646, 1,008 / 648 TFLOPS at
// 4k, 8k, 16k tokens = 1.44, 1.51, 1.56 of BF16 for twice the peak -> 0.72, 0.75, 0.78; 0.75.
// (At 2k tokens it is 733 / 625, 0.59, where attention is a small part of a forward.) Softmax and
// its exponentials do not double with the tensor rate.
constexpr double kFp8AttentionEfficiency = 0.75;
// MoE expert GEMMs: a grouped GEMM gives each expert its own tiles of T token rows, so an expert
// with m tokens costs ceil(m / T) tiles; with the tokens routed at random the last tile is half
// empty on average, T / 2 rows of wasted math per expert, and the expert matmuls reach
// m / (m + T / 2) of the dense efficiency. The largest tile is 128 rows: llama.cpp's MMQ mmq_x
// (ggml/src/ggml-cuda/mmq.cuh), vLLM's fused_moe BLOCK_SIZE_M (16 to 128), TensorRT-LLM's CUTLASS
// MoE tiles. What T is below that: vLLM and TensorRT-LLM pick the tile by the tokens per expert
// (T ~ m, so m / (m + m / 2) = 2/3 at worst); llama.cpp's CUDA MMQ picks mmq_x by the whole
// batch's columns (ncols_max), so a 2,048-token ubatch gets 128-row tiles that are mostly empty
// when experts get 64 tokens (github.com/ggml-org/llama.cpp pull 24546, merged for RDNA3, and
// pull 26977 for NVIDIA, both moving to a per-expert pick). `tile_basis`: the rows the tile is
// chosen by (m, or the ubatch's tokens for llama.cpp). Derived, not fitted; docs/formulas.md
// (prefill) compares it with llama-bench's MoE rows and their dense controls.
constexpr double kGroupedGemmTileRows = 128.0;
inline double expert_gemm_efficiency(double tokens_per_expert, double tile_basis) {
    if (!(tokens_per_expert > 0)) return 1.0;
    const double pad = 0.5 * (tile_basis < kGroupedGemmTileRows ? tile_basis : kGroupedGemmTileRows);
    return tokens_per_expert / (tokens_per_expert + pad);
}
// MoE routing traffic: around the expert GEMMs, separate memory-bound kernels move each routed
// copy of a token: the gather (permute) writes it in expert order and the weighted sum (finalize)
// reads the expert's hidden-size output back, two passes of hidden x activation bytes per copy;
// each token is read once before and written once after (TensorRT-LLM's CUTLASS MoE:
// expandInputRows / finalizeMoeRouting; vLLM's fused_moe writes the down projection's output per
// copy and moe_sum reads it). On a tensor-parallel rank every expert is a slice, so the rank
// moves every copy in full while its GEMMs do 1 / tp of the math: with fine-grained experts at
// high tp (Qwen3-235B at tp 8: 192 of 1,536 columns) the copies cost as much as the GEMMs.
constexpr double kMoeRoutePassesPerCopy = 2.0;
// The gathered copy is in the expert GEMMs' input type: FP8 or INT8 GEMMs take 1-byte
// activations (quantized before the gather), FP4 ones 4 bits plus an FP8 scale per 16 (NVFP4:
// 4.5 bits; MXFP4's E8M0 scale per 32 is 4.25); the expert outputs come back in the activation type.
inline double gemm_input_bytes(Precision used, double act_bytes) {
    const double b = used == Precision::fp4 ? 4.5 / 8.0 : (used == Precision::fp8 || used == Precision::int8) ? 1.0 : act_bytes;
    return b < act_bytes ? b : act_bytes;
}
// TensorRT-LLM's attention DP (Resolved::dense_tp 1): no all-reduces; each MoE layer all-gathers
// its ranks' tokens in the experts' input type with their scales and reduce-scatters the output in
// the activation type (tensorrt_llm/_torch/modules/fused_moe/fused_moe_cutlass.py: with use_dp the
// input is quantized first, then allgather([x, x_sf, ...]), the output reducescatter). Its
// expert parallelism gathers the same way (no all-to-all).
inline bool moe_gathered(const Resolved& r, double moe_layers) {
    return r.runtime == Runtime::trt_llm && r.dp_attn > 1 && moe_layers > 0;
}
// ... and a dense model under it is every layer whole on every rank: plain data parallelism, no
// collective at all.
inline bool rank_local(const Resolved& r) { return r.runtime == Runtime::trt_llm && r.dp_attn > 1; }
// The gather and the scatter of `tokens` tokens over the tp ranks, one MoE layer (an all-gather
// moves what a reduce-scatter does).
inline double moe_gather_seconds(const Span& tp, double tokens, double hidden, double act_bytes, Precision used) {
    return reduce_scatter_seconds(tp, tokens * hidden * gemm_input_bytes(used, act_bytes)) + reduce_scatter_seconds(tp, tokens * hidden * act_bytes);
}
// Bytes one GPU's gather and weighted-sum kernels move per token of its replica.
inline double moe_route_bytes_per_token(double route_copies, double moe_layers, double hidden, double act_bytes, Precision used) {
    const double per_copy = gemm_input_bytes(used, act_bytes) + (kMoeRoutePassesPerCopy - 1.0) * act_bytes;
    return hidden * (route_copies * per_copy + 2.0 * moe_layers * act_bytes);
}
// Those kernels stream: they reach the 16-bit decode efficiency (dequantizing GEMVs reach less,
// copies do not), or the runtime's own where it is higher (llama.cpp).
inline double stream_bandwidth_efficiency(double runtime_eta) {
    return runtime_eta > kDecodeBandwidthEfficiency16 ? runtime_eta : kDecodeBandwidthEfficiency16;
}
// Data-parallel gradient buckets: PyTorch DDP bucket_cap_mb = 25 (MiB; torch.nn.parallel.
// DistributedDataParallel docs). DeepSpeed's reduce_bucket_size is kZeroReduceBucket (elements);
// Megatron-Core's and FSDP's: training/frameworks.cpp (dp_last_bucket_bytes).
constexpr double kDdpBucketBytes = 25.0 * 1024 * 1024;
// The cost of scale a step sees beyond its collectives (docs/formulas.md, "At scale"):
// The optimizer step is a few elementwise kernels over the GPU's shard (Adam: fp32 master and
// gradient read, master written, m and v read and written, the 16-bit copy written: the 12 + 2 S
// + 2 bytes a parameter ZeRO-Offload's CPU step moves, kCpuOptimizerFixedBytes): streams at the
// bandwidth stream_bandwidth_efficiency gives copies (the 16-bit decode efficiency).
// Every step also all-reduces scalars across the job, each a synchronisation of every GPU: the
// gradient norm for clipping (megatron/core/optimizer/clip_grads.py @d98e8a6, get_grad_norm_fp32:
// reduced "across the entire world for distributed optimizers") and the step's loss over the
// data-parallel group (megatron/training/training.py train_step; fp16's found-inf check is a
// third, not counted). Latency bound: NCCL's tree over all GPUs, log2(nodes) hops
// (interconnect.hpp), a fraction of a millisecond at 16,384 GPUs.
constexpr double kStepScalarAllReduces = 2.0;
double step_sync_seconds(const Fabric& f, int gpus);
// Training: the kernel efficiency of the math (the executed FLOPs' share of the dense peak), the
// bubble and exposed communication computed apart. A fit over published runs, each with its own
// layout (tests/validation/accuracy.json; tests/test_mfu_fit.cpp recomputes it): the efficiency
// at which gpusizer reproduces each run's published utilization, then their geometric mean
// (least squares on the relative error), 0.620 -> 0.62:
//   Megatron-LM on A100 (Narayanan et al. 2021, arXiv:2104.04473, Table 1; HFU): 18.4B 0.560,
//     145.6B 0.581, 310.1B 0.623, 1T 0.653;
//   torchtitan FSDP2 on 64 A100 (docs/performance.md @0413364; MFU): Llama 3 8B 0.627, 70B 0.690;
//   Llama 3 405B on H100 (arXiv:2407.21783, Table 4; MFU): 8,192 GPUs 0.579, 16,384 GPUs 0.656.
// (0.614 -> 0.61 while the data-parallel sync hid behind the whole step's backward: with gradient
// accumulation it hides behind the last micro-batch's alone, which Megatron's rows, 32 to 512
// micro-batches a step, show as 0.3 s more per step of 18.4B.)
// One figure for A100 and H100 in BF16/FP16: the two generations' rows overlap (0.56-0.69 and
// 0.58-0.66), so a split by generation would fit noise. FP8 training scales the weight GEMMs'
// peak, not this efficiency (train_step).
constexpr double kTrainMfu = 0.62;
// FP8 training (fp8_training): the FP8 weight GEMMs reach this share of kTrainMfu x the FP8 dense
// peak, casts and scaling included. The fit over NeMo 24.12's FP8 pretraining table on DGX H100
// (docs.nvidia.com/nemo-framework/user-guide/24.12, Performance Benchmarks: GPT3 5B, 20B, 175B on
// 128 and 512 GPUs, Llama 2 7B, 13B, 70B, Llama 3 8B, 70B, each with its published layout and
// TP overlap): the geometric mean of the per-run efficiencies that reproduce each run's tokens/s,
// recomputed by tests/test_mfu_fit.cpp: 0.61-0.76, 0.651 -> 0.65 (0.66 before the step's fixed costs and
// the 0.62 refit). MLPerf's FP8 LoRA and GPT-3 runs and DeepSeek-V3 are held out.
constexpr double kFp8GemmEfficiency = 0.65;
// Host RAM: dual-channel DDR5-4800 = 2 x 8 B x 4.8e9 = 76.8 GB/s (JEDEC DDR5 base speed), of
// which llama.cpp's CPU decode reaches 68% (13900K, DDR5-6400 = 102.4 GB/s: 7B Q4_0 at
// 18.27 t/s x 3.82 GB = 69.8 GB/s; llama.cpp issue #34).
constexpr double kHostMemoryBandwidth = 76.8e9;
constexpr double kHostBandwidthEfficiency = 0.68;
// The host RAM bandwidth of a configuration (host_memory_bandwidth_gb_per_s, else the default),
// and what a CPU's reads of it reach: the one place both are written.
inline double host_memory_bandwidth(const Config& c) {
    return c.host_memory_bandwidth_gb_per_s > 0 ? c.host_memory_bandwidth_gb_per_s * 1e9 : kHostMemoryBandwidth;
}
inline double host_read_bandwidth(double host_bandwidth) { return host_bandwidth * kHostBandwidthEfficiency; }
// Optimizer states per trainable parameter, as estimate.cpp counts them (ZeRO paper's K).
inline double optimizer_state_bytes(Optimizer o, double hidden) {
    switch (o) {
        case Optimizer::adamw: return 8.0;        // m, v in fp32
        case Optimizer::adamw_8bit: return 2.0;   // m, v in 8 bits
        case Optimizer::sgd: return 4.0;          // momentum in fp32
        case Optimizer::adafactor: return 4.0 * 2.0 / hidden;   // factored second moment
    }
    return 8.0;
}
// ZeRO-Offload's optimizer step on the CPU (Ren et al. 2021, "ZeRO-Offload: Democratizing
// Billion-Scale Model Training", arXiv:2101.06840, sec. 5.1): DeepSpeed's CPU-Adam streams every
// trainable parameter of the GPU's shard through host memory once, reading its fp32 master weight,
// gradient and optimizer states (4 + 4 + S bytes; S = 8 for Adam's m and v) and writing the
// master and the states back (4 + S), 28 bytes for Adam: a few FLOPs per byte, bound by memory
// bandwidth. The paper's Adam latency table (CPU-Adam, on its DGX-2 test machine, whose two Xeon
// Platinum 8168 have six DDR4-2666 channels each: 2 x 6 x 8 B x 2.666e9 = 255.9 GB/s): 1B
// parameters 0.22 s, 4B 1.03 s, 10B 2.57 s, i.e. 28 B x 10e9 / 2.57 s = 109 GB/s, 0.43 of the
// peak (4B: 0.42; 1B: 0.50). Below llama.cpp's 0.68 (kHostBandwidthEfficiency): the update writes
// as much as it reads.
constexpr double kCpuOptimizerBandwidthEfficiency = 0.43;
constexpr double kCpuOptimizerFixedBytes = 12.0;   // read fp32 master and gradient (4 + 4), write the master (4)
// FP8 training with block scaling dispatches the experts' inputs in FP8 with one fp32 scale per
// 1 x 128 tile (DeepSeek-V3 technical report, arXiv:2412.19437, sec. 3.3.3, low-precision
// communication: the activations before the MoE up-projections and the gradients before the
// down-projections in FP8, the combines in BF16; sec. 3.3.2: 1 x 128 tiles for activations):
// 1 + 4 / 128 bytes per element.
constexpr double kFp8DispatchBytesPerElement = 1.0 + 4.0 / 128.0;
// llama.cpp runs an operation whose weights sit in host RAM on the GPU when its batch reaches 32
// tokens (ggml-cuda.cu ggml_backend_cuda_device_offload_op: min_batch_size = 32; MUL_MAT_ID's
// batch is its token count): the scheduler copies the weights over PCIe for each such forward,
// only the experts the forward routes to (llama.cpp PR #15346, "sched : copy only the used
// experts when offloading prompt processing"). Below 32 the CPU computes them.
constexpr double kLlamaCppOpOffloadMinBatch = 32;
// Power, energy and the draw at the wall: power/power.hpp.

// The model-side quantities speed needs, resolved once per configuration (independent of which
// GPU runs it, so a sweep computes them once per format and GPU count).
struct PerfInputs {
    // Bytes on one tensor-parallel rank, summed over the pipeline stages of one replica:
    double layer_weight_bytes = 0;    // all layers, every routed expert included
    double layer_expert_bytes = 0;    // the routed experts' part
    double edge_read_bytes = 0;       // weights read per token outside the layers: output head, final norm
    double kv_read_bytes_decode = 0;  // KV read per decode step, all sequences, at the average length
    double expert_touch_decode = 1;   // fraction of routed experts one decode step touches
    double expert_share = 0;          // k / E: the share of a layer's routed experts one token picks
    // llama.cpp --n-cpu-moe (Resolved::cpu_moe_stage): the routed experts of the first N layers,
    double cpu_moe_gpu_bytes = 0;     // as the GPUs would hold them (one tensor-parallel rank, all stages): not there
    double cpu_moe_host_bytes = 0;    // whole, in host RAM, where the CPU reads them
    // FLOPs, whole model:
    double matmul_params = 0;         // parameters a token multiplies (active; head in, input embedding out)
    double attn_flops_per_position = 0;   // sum over layers of 2 x heads x (d_qk + d_v): x attended positions = attention FLOPs
    double attn_decode_flops_per_position = 0;   // the same for a decoding token: MLA in its absorbed form (d_qk = Lkv + R, d_v = Lkv)
    double prefill_flops_per_token = 0;   // 2N + attention at the prompt's average causal length
    double expert_flops_per_token = 0;    // the routed experts' part of 2N (2 x k of E experts' parameters)
    double expert_tokens_share = 0;       // tokens per expert on one GPU per token of a forward: k / E x max(1, ep / tp)
    bool expert_tile_by_batch = false;    // llama.cpp: the expert GEMMs' tile follows the forward's tokens, not m
    double decode_flops_per_token = 0;    // 2N + attention at the decode's average length
    double attn_prefill_flops_per_token = 0, attn_decode_flops_per_token = 0;   // the attention parts of the two above
    double train_model_flops_per_token = 0;   // 6N + 12 L H Q s (PaLM accounting); LoRA: 4N + ...
    double train_exec_flops_per_token = 0;    // with recomputation
    double train_hide_fraction = 2.0 / 3.0;   // share of the step the gradient sync can hide behind
    double train_fwd_fraction = 1.0 / 3.0;    // share of the executed FLOPs in the first forward
    double train_gemm_fraction = 1.0;         // share of the executed FLOPs in the weight matmuls
    double train_moe_fraction = 0;            // share of the executed FLOPs in the MoE layers (attention + MLP)
    // Workload:
    double prompt_tokens = 0, decode_avg_len = 0;
    double prefill_tokens = 0;        // batch x prompt
    double prefill_forwards = 1;      // forwards the prefill takes (chunks)
    double prefill_chunk_tokens = 0;  // tokens per forward
    double tokens_per_step = 0;       // training: global_batch x context
    double micro_batches = 1;
    // Communication volumes (bytes):
    double act_bytes_per_token = 0;   // hidden x activation bytes: what a TP all-reduce or PP send moves per token
    int layers = 0, moe_layers = 0;
    double experts_per_token = 0;
    ExpertRouting routing;                   // k and the model's group limit (n_group, topk_group), for the all-to-alls
    double moe_route_copies = 0;             // routed copies of a token one GPU gathers, summed over the MoE layers (kMoeRoutePassesPerCopy)
    double hidden = 0, act_bytes = 2;        // the residual stream's width and its bytes per element
    double dispatch_bytes_per_token = 0;     // what the dispatch all-to-all moves per token copy: act_bytes_per_token, or FP8 with its scales
    double train_grad_bytes_per_gpu = 0;     // gradients one GPU syncs per step
    double grad_bytes_per_param = 2;         // bytes of one gradient element as it is synced (fp32 training, LoRA adapters: 4)
    double optimizer_bytes_per_step = 0;     // what the optimizer step reads and writes for one GPU's stage and TP shard, unsharded
    double step_sync_s = -1;                 // the step's scalar syncs when already timed for the fabric (plan search); < 0: train_step times them
    double train_weight_bytes_per_gpu = 0;   // 16-bit parameters of one GPU's stage and TP shard (ZeRO-3 gathers)
    int tp_collectives_per_layer = 4;        // training: all-reduces per layer per micro-batch (6 with full recompute)
    double offload_bytes_per_step = 0;       // ZeRO-Offload: gradients down and parameters up over PCIe
    double offload_grad_bytes_per_step = 0;  // of them, the gradients down (one GPU's shard, fp32)
    double offload_host_bytes_per_step = 0;  // ZeRO-Offload: what the CPU's optimizer step reads and writes for one GPU's shard
    double offload_last_grad_bytes = 0;      // the gradients of the last reduce bucket, which no backward is left to hide
    double offload_param_fetch_bytes = 0;    // ZeRO-Infinity (optimizer+params): one GPU's 16-bit parameter shard, read from RAM per pass
    // Context parallelism (training):
    double train_attn_flops_per_token = 0;   // the attention core's forward FLOPs per token at the context, whole model
    double kv_act_bytes_per_token = 0;       // K and V of one token over all layers, one tensor-parallel rank, in the activation dtype
};

PerfInputs perf_inputs(const Resolved& r);
// Tokens per forward of a prefill of `total` tokens (the engine's chunk, or the configuration's).
double prefill_chunk_tokens(const Resolved& r, double total);

// llama.cpp --n-cpu-moe: bytes/s at which host experts reach the GPU when a forward of 32 tokens
// or more runs them there (the GPU's PCIe link and lanes at kBusBandwidthEfficiency); 0 when the
// GPU has no PCIe link in the catalog (then the CPU reads them).
double host_copy_bandwidth(const Gpu& g, const Fabric& f);

// Where evaluate_performance() writes: straight into a Report's parts, or into PerfBuffers.
struct PerfOut {
    InterconnectReport& interconnect;
    SpeedReport& speed;
    PowerReport& power;
    ComputeChoice compute;
    double mfu = 0, bandwidth_efficiency = 0, pue = 1;   // resolved defaults
    double attn_flops = 0;                               // FLOP/s of the attention core (attention_flops)
    double host_bandwidth = 0;
    double layer_overhead = 0;     // seconds per layer per forward
    WallModel wall;                // the machines as the wall sees them (power/power.cpp), for serving's draw
    PerfOut(InterconnectReport& i, SpeedReport& s, PowerReport& p) : interconnect(i), speed(s), power(p) {}
};

// Evaluates speed, communication and power on GPU `r.gpu` over `fabric`, llama.cpp's partial
// offload included when the model does not fit.
struct PerfBuffers {
    InterconnectReport interconnect;
    SpeedReport speed;
    PowerReport power;
    PerfOut out{interconnect, speed, power};
    PerfBuffers() = default;
    PerfBuffers(const PerfBuffers&) = delete;
    PerfBuffers& operator=(const PerfBuffers&) = delete;
};

// How much to evaluate: everything (estimate), or the numbers without strings and offload (sweeps).
enum class EvalLevel { full, numbers };
// `out` must point at freshly constructed parts. `choice` (optional) is compute_choice() already resolved
// for this GPU and format.
// With `alt`, also the communication and speed of the same configuration over that fabric.
void evaluate_performance(const Resolved& r, const PerfInputs& in, const Totals& t, const Fabric& fabric, PerfOut& out,
                          EvalLevel level = EvalLevel::full, const ComputeChoice* choice = nullptr, const Fabric* alt = nullptr,
                          LinkTimes* alt_out = nullptr);

// Pipeline bubble in micro-batch times per step for p > 1 stages: k (p - 1), against m of work.
// 1F1B: k = 1 (Narayanan et al. 2021, sec. 2.2.1); interleaved with v chunks per stage: k = 1/v
// (sec. 2.2.2); ZB-H1: (p - 1)(T_F + T_B - T_W) against 1F1B's (p - 1)(T_F + T_B + T_W), k = 1/3
// with T_F = T_B = T_W (Qi et al. 2023, "Zero Bubble Pipeline Parallelism", arXiv:2401.10241,
// sec. 3.1). DualPipe: (p/2 - 1)(F&B + B - 3W) (DeepSeek-V3 technical report, arXiv:2412.19437,
// Table 2; github.com/deepseek-ai/DualPipe README), where F&B, the overlapped forward and backward
// chunks of two micro-batches, costs F + B of compute (the overlap hides communication, not
// math); with F = W and B = 2W that is (p/2 - 1) 2F against a micro-batch's F + B = 3F.
inline double bubble_micro_batches(PipeSchedule s, int v, int p) {
    if (s == PipeSchedule::dualpipe) return std::max(0.0, p / 2.0 - 1.0) * 2.0 / 3.0;
    const double k = s == PipeSchedule::interleaved ? 1.0 / std::max(1, v) : s == PipeSchedule::zero_bubble ? 1.0 / 3.0 : 1.0;
    return k * (p - 1.0);
}

// DualPipe's all-to-all kernels run on 20 of the H800's 132 SMs (DeepSeek-V3 technical report,
// arXiv:2412.19437, sec. 3.2.2; 132 SMs: NVIDIA H100 whitepaper, H100 SXM5, whose compute the
// H800 keeps), taken from the math while it overlaps them. The catalog has no SM count, so the
// H800's share stands for every GPU.
constexpr double kDualPipeCommSmFraction = 20.0 / 132.0;

// Communication of one decode step (inference) or one optimizer step (training) on a fabric.
struct StepComm {
    double tp = 0, pp = 0, ep = 0;      // seconds on the wire
    double tp_exposed = 0, pp_exposed = 0;   // training: the part that adds to the step
    double ep_exposed = 0;              // the part of ep that adds (all of it unless pp_schedule dualpipe hides it)
    double dp = 0, dp_exposed = 0;      // training: gradient sync on the wire, and the part not hidden
    double cp = 0, cp_exposed = 0;      // training: ring-attention sends on the wire, and the part the attention blocks do not cover
    double offload = 0, offload_exposed = 0;   // training, ZeRO-Offload: PCIe copies on the wire, and the part that adds
    double offload_fetch = 0;           // of offload: ZeRO-Infinity's parameter reads from host RAM, every pass
    double host_optimizer = 0;          // training, ZeRO-Offload: the optimizer step on the CPU (adds to the step; not in exposed)
    double exposed = 0;                 // what adds to the step
    double busbw = 0;                   // of the widest all-reduce group
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::none;   // what NCCL would run for its all-reduce
};

// One training step of r over fabric f, at kernel efficiency mu of the per-GPU peak F (FLOP/s):
// evaluate_performance() reports it, plan.cpp ranks layouts by it (no allocation).
struct TrainStep {
    double compute_s = 0;          // the math at mu x F
    double pipe_s = 0;             // compute stretched by the bubble
    double bubble_fraction = 0;    // (pipe - compute) / pipe
    double gemm_peak_flops = 0;    // fp8_training: the FP8 dense rate the weight GEMMs run at (0 otherwise)
    StepComm comm;
    double host_optimizer_s = 0;   // ZeRO-Offload: the optimizer step on the CPU (comm.host_optimizer)
    double optimizer_s = 0;        // the optimizer step on the GPU: its shard's states at memory bandwidth (0 with offload)
    double sync_s = 0;             // the step's scalar all-reduces over every GPU (step_sync_seconds)
    double overhead_s = 0;         // the configuration's step_overhead_s
    double step_s = 0;             // pipe + exposed communication + both optimizer steps + sync + overhead
};
TrainStep train_step(const Resolved& r, const PerfInputs& in, const Fabric& f, double mu, double F);

// The fabric of a resolved configuration (its GPU, its link overrides).
Fabric fabric_of(const Resolved& r);

// Adds the warnings about precision, offload, communication and power that fire for `rep`.
void performance_warnings(const Resolved& r, Report& rep);

}  // namespace gpusizer::detail
