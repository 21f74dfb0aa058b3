// frameworks.hpp: the training frameworks as profiles (the `training_framework` key), and the
// kernel efficiency of training from the shapes of the GEMMs it runs.
//
// A profile says how a framework's step differs from Megatron-LM's, the runs the default kernel
// efficiency (kTrainMfu) was fitted on: its kernels' share of Megatron's efficiency, what it
// overlaps (tensor-parallel collectives, the data-parallel gradient sync) and the buckets it
// sends. Every figure names its source beside it (frameworks.cpp); docs/formulas.md, "Training
// frameworks", collects them.
#pragma once

#include "gpusizer/config.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"

#include <algorithm>

namespace gpusizer::detail {

// How a framework groups the gradients it syncs below ZeRO-3 (frameworks.cpp names each source).
enum class GradBuckets {
    megatron_core,   // Megatron-Core's DDP: max(4e7, 1e6 x data-parallel size) parameters a bucket
    ddp,             // PyTorch DDP: bucket_cap_mb 25 MiB; ZeRO 1-2 through DeepSpeed (hf_trainer)
    deepspeed,       // DeepSpeed: reduce_bucket_size 5e8 elements
    block,           // FSDP: one reduce-scatter per transformer block (fully_shard per block)
};

struct FrameworkProfile {
    double kernel_share = 1.0;   // its kernels' efficiency over Megatron's (Transformer Engine's fused kernels)
    bool tp_overlap_with_sp = false;   // tensor-parallel collectives overlapped with the GEMMs wherever sequence parallel is on
    bool dp_overlap_below_zero3 = true;   // ZeRO 0-2: the gradient sync overlaps the backward (else it follows it)
    bool block_reduce_scatter = false;   // ZeRO-3 as FSDP: one reduce-scatter per transformer block (the last one shows)
    GradBuckets buckets = GradBuckets::megatron_core;   // ZeRO 0-2: the gradient buckets it sends
    bool op_sac = false;   // `recompute selective` is PyTorch's op-level selective checkpointing (memory.cpp op_sac)
};

const FrameworkProfile& framework_profile(TrainingFramework f);

// Bytes per parameter of one model state: `whole` on every GPU, `sharded` split over the dp ranks.
struct StateBytes {
    double whole = 0, sharded = 0;
    double at(double dp) const { return whole + sharded / dp; }
};

// The model states of full training as a framework lays them out (frameworks.cpp names each
// source): the weights as they sit on the GPU, the gradients, and the optimizer's states with the
// fp32 master copy where it is a separate tensor. `wid` the weights' dtype (fp32, bf16 or fp16),
// `optimizer_states` the optimizer's bytes per parameter (AdamW's m and v: 8).
struct TrainStates {
    StateBytes weights, gradients, optimizer;
};
TrainStates train_states(TrainingFramework f, int zero, WeightId wid, double optimizer_states);

// The buffers a framework allocates beside the model states of full training, bytes on one GPU:
// gradient buckets, gathered parameters, reduce-scatter inputs (buffer_model() names each source).
// bytes(): `count` the parameters on the GPU before sharding whose gradients it syncs, `gathered`
// those ZeRO 3 gathers (LoRA: the frozen ones too), `block` one transformer block's, `dp` the ranks
// that shard them. Its terms are set once per framework and stage (the plan search's inner loop).
struct BufferModel {
    double ddp_copy = 0;      // bytes per synced parameter, with dp > 1: DDP's bucket copy
    double per_block = 0;     // bytes per parameter of one transformer block: FSDP's units
    double buckets = 0;       // DeepSpeed: buckets of min(reduce_bucket_size, count) elements
    bool buckets_need_dp = false;   // ... allocated only with dp > 1 (the plain engine's all-reduce)
    bool gathers = false;     // DeepSpeed ZeRO 3: the live parameters and the prefetch bucket
    double element = 2;       // bytes of an element in the compute dtype
    double bytes(double dp, double count, double gathered, double block) const {
        double b = per_block * block + (dp > 1 ? ddp_copy * count : 0.0);
        if (buckets > 0 && (dp > 1 || !buckets_need_dp)) b += buckets * std::min(kZeroReduceBucket, count) * element;
        if (gathers) b += (std::min(kZero3MaxLiveParams, gathered) + std::min(kZero3PrefetchBucket, gathered)) * element;
        return b;
    }
};
BufferModel buffer_model(TrainingFramework f, int zero, WeightId wid);

// The bytes of the last gradient bucket a data-parallel sync below ZeRO-3 sends, the one no
// backward is left to hide: the framework's bucket (`zero` picks DDP's or ZeRO's where the
// framework has both), `dp` ranks in the group, `grad_bytes` per gradient element, at most
// `stage_grad_bytes` (a GPU's whole gradient) and, for `block`, one of `layers` transformer blocks.
double dp_last_bucket_bytes(const FrameworkProfile& fw, int zero, double dp, double grad_bytes, double stage_grad_bytes,
                            double layers_per_stage);

// The GEMMs' arithmetic intensity on one GPU, FLOP per byte of 16-bit operands: a GEMM of
// M x N x K moves 2 (MK + KN + MN) bytes for 2 MNK FLOPs, 1 / (1/M + 1/N + 1/K). The smallest of a
// transformer layer's (the attention output projection and the MLP's down projection of a
// tensor-parallel rank): M = tokens of a micro-batch on the GPU (batch x context / cp, all of them
// with sequence parallelism after the all-gather), N = hidden, K = hidden / tp.
double gemm_intensity(double tokens, double hidden, double tp);

// The share of the saturated kernel efficiency that GEMMs of intensity `ai` reach: 1 at and above
// kGemmSaturationIntensity (the shapes the default efficiency was fitted on), below it the
// additive roofline ai / (ai + kGemmHalfIntensity) relative to its value there.
double gemm_shape_share(double ai);

// The default kernel efficiency of a training step (the `mfu` key unset): kTrainMfu x the
// framework's kernel share x the shape share of its GEMMs.
double train_kernel_efficiency(const Config& c, double hidden, int tp, int cp);

}   // namespace gpusizer::detail
