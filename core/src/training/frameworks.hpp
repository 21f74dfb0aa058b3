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

namespace gpusizer::detail {

struct FrameworkProfile {
    double kernel_share = 1.0;   // its kernels' efficiency over Megatron's (Transformer Engine's fused kernels)
    bool tp_overlap_with_sp = false;   // tensor-parallel collectives overlapped with the GEMMs wherever sequence parallel is on
    bool dp_overlap_below_zero3 = true;   // ZeRO 0-2: the gradient sync overlaps the backward (else it follows it)
    bool block_reduce_scatter = false;   // ZeRO-3 as FSDP: one reduce-scatter per transformer block (the last one shows)
};

const FrameworkProfile& framework_profile(TrainingFramework f);

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
