// frameworks.cpp: the training frameworks' profiles and the shape of the kernel efficiency
// (frameworks.hpp). tests/test_training_frameworks.cpp derives each profile's effect by hand and
// refits the constants below from the accuracy set's rows.
#include "training/frameworks.hpp"

#include <algorithm>

#include "performance.hpp"

namespace gpusizer::detail {

namespace {

// Eager PyTorch kernels' share of Megatron's: torchtitan's FSDP2 run of Llama 3.1 8B on 8 H100
// without torch.compile (benchmarks/llama3_h100_202412_torchtitan.md @b5bcd76, Table 1: 5,762
// tokens/s per GPU, local batch 2 of 8,192 tokens, selective activation checkpointing): the share
// of kTrainMfu at which gpusizer reproduces it with the run's own layout. Held out: Table 3, the
// same run on 128 GPUs (5,605). Unfused norms, RoPE, SwiGLU and residual adds, each a round trip
// through HBM, where Megatron runs Transformer Engine's fused kernels.
constexpr double kEagerKernelShare = 0.59;
// torch.compile fuses them: Table 1's FSDP + torch.compile row (6,667 tokens/s per GPU) over the
// eager row (5,762) is 1.157x; held out: Table 3's (6,514 / 5,605 = 1.162x).
constexpr double kCompileSpeedup = 6667.0 / 5762.0;

// Megatron-LM: the fit of kTrainMfu (performance.hpp), the reference. Its DDP overlaps the
// gradient reduce with the backward under --overlap-grad-reduce (off by default, on in its example
// scripts: examples/llama/train_llama3_8b_h100_fp8.sh, examples/mixtral/train_mixtral_8x7b_distributed.sh
// @d98e8a6), in buckets of max(40,000,000, 1,000,000 x data-parallel size) parameters
// (megatron/core/distributed/distributed_data_parallel.py @d98e8a6, Megatron-Core 0.15: "larger DP
// sizes need larger buckets"), and syncs only in the last micro-batch's backward (no_sync_func
// around the others: megatron/core/pipeline_parallel/schedules.py).
constexpr FrameworkProfile kMegatron{};
// NeMo runs Megatron Core with Transformer Engine (the same kernels, the same DDP buckets); its LLM
// recipes turn on the tensor-parallel communication overlap, with sequence parallelism (NeMo
// @8cfedd7, nemo/collections/llm/recipes/llama3_70b.py: sequence_parallelism True and, in
// pretrain_performance_optimizations, MegatronCommOverlapCallback(tp_comm_overlap=True); likewise
// gpt3_175b.py, llama31_8b / 70b / 405b.py). NeMo's performance tables are those recipes' runs.
constexpr FrameworkProfile kNemo{1.0, true, true, false, GradBuckets::megatron_core};
// torchtitan: FSDP2 (fully_shard per TransformerBlock: one reduce-scatter per block, the next
// block's all-gather prefetched) with torch.compile per block; without sharding, PyTorch DDP.
// Its selective activation checkpointing is op-level (activation_checkpoint.py _apply_op_sac, the
// 8B recipes' selective_ac_option "op"): memory.cpp op_sac.
constexpr FrameworkProfile kTorchtitan{kEagerKernelShare * kCompileSpeedup, false, true, true, GradBuckets::block, true};
// PyTorch FSDP2 (or DDP with zero 0) in eager mode: the same sharding, no compile.
constexpr FrameworkProfile kFsdp{kEagerKernelShare, false, true, true, GradBuckets::block, true};
// DeepSpeed's engine around an eager PyTorch model: ZeRO 0-2 reduce the gradients after the
// backward (deepspeed/runtime/zero/config.py @edaa722, v0.19.6: overlap_comm defaults to True
// for stage 3 only, `self.overlap_comm = self.stage == ZeroStageEnum.weights`; engine.py
// allreduce_gradients runs in _backward_epilogue with buffers of MEMORY_OPT_ALLREDUCE_SIZE = 5e8
// elements, reduce_bucket_size and allgather_bucket_size 5e8 for ZeRO: kZeroReduceBucket).
constexpr FrameworkProfile kDeepspeed{kEagerKernelShare, false, false, false, GradBuckets::deepspeed};
// The Hugging Face Trainer: the model's eager PyTorch code under DDP (bucket_cap_mb unset:
// PyTorch's 25 MiB, kDdpBucketBytes), FSDP or DeepSpeed through accelerate; no tensor or
// pipeline parallelism (resolve refuses them).
constexpr FrameworkProfile kHfTrainer{kEagerKernelShare, false, true, true, GradBuckets::ddp};

// Megatron-Core's default DDP bucket: max(kMcoreBucketMinParams, kMcoreBucketParamsPerRank x dp)
// parameters (distributed_data_parallel.py above).
constexpr double kMcoreBucketMinParams = 4e7;
constexpr double kMcoreBucketParamsPerRank = 1e6;

// The GEMM shapes the default efficiency was fitted on reach it: the smallest of the fit's rows,
// Megatron-LM's 18.4B on A100 (hidden 6,144, TP 8, micro-batch 1 of 2,048 tokens:
// 1 / (1/2048 + 1/6144 + 8/6144) = 512 FLOP/B), sets where the curve saturates.
constexpr double kGemmSaturationIntensity = 512.0;
// The additive roofline t = W / P + Q / B' (a GEMM's math and its operand traffic, not
// overlapped) gives an efficiency ai / (ai + a0). a0 fitted on Megatron-LM's Table 1
// (Narayanan et al. 2021, arXiv:2104.04473) rows at both ends of the fit: 18.4B (512 FLOP/B)
// and 1T (hidden 25,600, TP 8: 1,191 FLOP/B), whose implied kernel efficiencies (0.560, 0.653)
// rise as their intensity; held out: 145.6B (819) and 310.1B (964). Only the fall below the
// saturation point is applied: above it the cited runs scatter (0.56-0.69) around kTrainMfu
// without following the shapes across GPUs and frameworks. (230 while the data-parallel sync hid
// behind the whole step: 18.4B's implied efficiency was 0.536 then.)
constexpr double kGemmHalfIntensity = 170.0;

}  // namespace

const FrameworkProfile& framework_profile(TrainingFramework f) {
    switch (f) {
        case TrainingFramework::nemo:
            return kNemo;
        case TrainingFramework::torchtitan:
            return kTorchtitan;
        case TrainingFramework::fsdp:
            return kFsdp;
        case TrainingFramework::deepspeed:
            return kDeepspeed;
        case TrainingFramework::hf_trainer:
            return kHfTrainer;
        case TrainingFramework::megatron:
            break;
    }
    return kMegatron;
}

namespace {

// How a framework lays out the model states of full training, by ZeRO stage.
enum class StateLayout : unsigned char {
    // Megatron-Core: 16-bit parameters in one contiguous buffer, gradients accumulated and reduced
    // in a contiguous main-grad buffer that is also the bucket (param_and_grad_buffer.py; no copy),
    // fp32 main parameters and the optimizer's states in the (distributed, ZeRO 1) optimizer. The
    // Megatron-Core docs (dist-optimizer.md) give bytes per parameter: bf16 parameters with fp32
    // gradients 18 (6 + 12/d distributed), fp16 parameters and gradients 20 (4 + 16/d, the fp32
    // main gradient sits in the optimizer), fp32 16 (8 + 8/d). Gradients are fp32 for bf16 by
    // default: megatron/training/arguments.py @d98e8a6 sets accumulate_allreduce_grads_in_fp32
    // unless --grad-reduce-in-bf16. ZeRO 2 and 3 are Megatron-FSDP's optim_grads and
    // optim_grads_params (--data-parallel-sharding-strategy).
    megatron,
    // DeepSpeed: the ZeRO paper's accounting (arXiv:1910.02054, sec. 3: 2 + 2 + K bytes in mixed
    // precision, K = 12 for Adam with its fp32 master copy), sharded by stage.
    deepspeed,
    // PyTorch DDP under torch.autocast: fp32 parameters and gradients, the 16-bit copies autocast
    // keeps for the backward, and no separate master copy. Hugging Face's "Model training anatomy"
    // (transformers docs, model_memory_anatomy.md): 6 bytes of weights a parameter in mixed
    // precision, 4 of gradients ("always kept in fp32"), 8 of AdamW states. torchtitan without FSDP
    // (DDP or one GPU) applies mixed_precision_param through torch.autocast the same way
    // (torchtitan config: "it takes effect via torch.autocast ... under DDP or single-device
    // training"). ZeRO 1: torch.distributed.optim.ZeroRedundancyOptimizer shards the states.
    amp_ddp,
    // PyTorch FSDP2 (fully_shard) with MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32),
    // torchtitan's defaults (mixed_precision_param bfloat16, mixed_precision_reduce float32): the
    // sharded parameters are the fp32 master, their gradients fp32, the optimizer holds m and v
    // only. ZeRO 2 is reshard_after_forward=False: the unsharded 16-bit parameters stay between
    // the forward and the backward.
    fsdp,
};

StateLayout state_layout(TrainingFramework f, int zero) {
    switch (f) {
        case TrainingFramework::deepspeed:
            return StateLayout::deepspeed;
        case TrainingFramework::hf_trainer:   // DDP; DeepSpeed ZeRO 1-2 and FSDP through accelerate
            return zero == 0 ? StateLayout::amp_ddp : zero == 3 ? StateLayout::fsdp : StateLayout::deepspeed;
        case TrainingFramework::torchtitan:
        case TrainingFramework::fsdp:
            return zero <= 1 ? StateLayout::amp_ddp : StateLayout::fsdp;
        case TrainingFramework::megatron:
        case TrainingFramework::nemo:
            break;
    }
    return StateLayout::megatron;
}

}  // namespace

TrainStates train_states(TrainingFramework f, int zero, WeightId wid, double optimizer_states) {
    const bool fp32 = wid == WeightId::fp32;
    const double compute = fp32 ? 4.0 : 2.0;
    const StateLayout layout = state_layout(f, zero);
    // PyTorch's own mixed precision (autocast, FSDP2) keeps fp32 parameters, which are the master;
    // Megatron and DeepSpeed keep a separate fp32 master copy in the optimizer.
    const bool fp32_params = layout == StateLayout::amp_ddp || layout == StateLayout::fsdp;
    double w = compute, g = compute, o = optimizer_states + (fp32 || fp32_params ? 0.0 : 4.0);
    if (layout == StateLayout::megatron && wid == WeightId::fp16) o += 4.0;   // the fp32 main gradient: 20 = 2 + 2 + 4 + 12
    else if (layout != StateLayout::deepspeed) g = 4.0;                      // fp32 gradients
    if (layout == StateLayout::amp_ddp && !fp32) w = 4.0 + 2.0;              // fp32 parameters and autocast's 16-bit copies
    TrainStates s;
    // FSDP's fp32 shards, and at ZeRO 2 the unsharded compute copy kept for the backward.
    s.weights = layout == StateLayout::fsdp ? StateBytes{zero == 3 ? 0.0 : compute, 4.0}
                : zero == 3                 ? StateBytes{0, w}
                                            : StateBytes{w, 0};
    s.gradients = zero >= 2 ? StateBytes{0, g} : StateBytes{g, 0};
    s.optimizer = zero >= 1 ? StateBytes{0, o} : StateBytes{o, 0};
    return s;
}

BufferModel buffer_model(TrainingFramework f, int zero, WeightId wid) {
    BufferModel m;
    m.element = wid == WeightId::fp32 ? 4.0 : 2.0;
    const StateLayout layout = state_layout(f, zero);
    if (layout == StateLayout::amp_ddp) {
        // DDP's gradient buckets are a second copy of the (fp32) gradients by default
        // (gradient_as_bucket_view=False; torch.nn.parallel.DistributedDataParallel docs).
        m.ddp_copy = 4.0;
    } else if (layout != StateLayout::deepspeed) {
        // Megatron at ZeRO 0-1: the main-grad buffer is the bucket and the parameter buffer holds
        // the parameters themselves (the distributed optimizer gathers into it): nothing more.
        // Units of FSDP (a transformer block each): to overlap the next unit's all-gather and the
        // last one's reduce-scatter with compute, two units' unsharded gradients in the reduce
        // dtype and (ZeRO 3) two units' unsharded parameters are held at once (Megatron-FSDP docs,
        // docs/user-guide/features/megatron_fsdp.md @d98e8a6: "at least two FSDP units worth of
        // un-sharded weight memory ... of un-sharded gradient memory"; FSDP2's implicit prefetch,
        // PyTorch "FSDP Notes"). The reduce dtype: fp32 (FSDP2's reduce_dtype, Megatron's main
        // gradients; fp16 for Megatron's fp16 training).
        const double grad = layout == StateLayout::megatron && wid == WeightId::fp16 ? 2.0 : 4.0;
        if (zero >= 2) m.per_block = 2.0 * (grad + (zero == 3 ? m.element : 0.0));
    } else {
        // DeepSpeed. ZeRO 0: the engine flattens the gradients into all-reduce buffers of
        // MEMORY_OPT_ALLREDUCE_SIZE (5e8) elements (deepspeed/runtime/engine.py @edaa722), one at
        // a time, with dp > 1. ZeRO 1-2: the reduce and all-gather buckets (reduce_bucket_size,
        // allgather_bucket_size: 5e8 each; overlap_comm off below stage 3, whose doubled buffers
        // are not counted). ZeRO 3: the reduce bucket, the gathered parameters
        // (stage3_max_live_parameters) and the prefetch bucket. A ZeRO engine allocates these at
        // any world size.
        m.buckets = zero == 1 || zero == 2 ? 2.0 : 1.0;
        m.buckets_need_dp = zero == 0;
        m.gathers = zero == 3;
    }
    return m;
}

double dp_last_bucket_bytes(const FrameworkProfile& fw, int zero, double dp, double grad_bytes, double stage_grad_bytes,
                            double layers_per_stage) {
    double bucket = 0;
    switch (fw.buckets) {
        case GradBuckets::megatron_core:
            bucket = std::max(kMcoreBucketMinParams, kMcoreBucketParamsPerRank * dp) * grad_bytes;
            break;
        case GradBuckets::deepspeed:
            bucket = kZeroReduceBucket * grad_bytes;
            break;
        case GradBuckets::ddp:   // DDP; ZeRO 1-2 go through DeepSpeed
            bucket = zero == 0 ? kDdpBucketBytes : kZeroReduceBucket * grad_bytes;
            break;
        case GradBuckets::block:   // DDP (with ZeroRedundancyOptimizer at ZeRO 1); sharded, one transformer block
            bucket = zero <= 1 || layers_per_stage <= 0 ? kDdpBucketBytes : stage_grad_bytes / layers_per_stage;
            break;
    }
    return std::min(stage_grad_bytes, bucket);
}

double gemm_intensity(double tokens, double hidden, double tp) {
    if (tokens <= 0 || hidden <= 0 || tp <= 0) return 0.0;
    return 1.0 / (1.0 / tokens + 1.0 / hidden + tp / hidden);
}

double gemm_shape_share(double ai) {
    if (ai >= kGemmSaturationIntensity) return 1.0;
    if (ai <= 0) return 0.0;
    const double at_saturation = kGemmSaturationIntensity / (kGemmSaturationIntensity + kGemmHalfIntensity);
    return ai / (ai + kGemmHalfIntensity) / at_saturation;
}

double train_kernel_efficiency(const Config& c, double hidden, int tp, int cp) {
    const double tokens = double(c.batch) * double(c.context) / std::max(1, cp);
    return kTrainMfu * framework_profile(c.training_framework).kernel_share * gemm_shape_share(gemm_intensity(tokens, hidden, tp));
}

}   // namespace gpusizer::detail
