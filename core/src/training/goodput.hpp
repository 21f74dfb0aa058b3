// training/goodput.hpp (internal to core/src): the run's goodput, what a training run loses beyond
// its steps: interruptions (the work since the last checkpoint and the restart), checkpoints,
// evaluations and the batch-size ramp. docs/formulas.md, "The run's goodput".
#pragma once

#include "gpusizer/config.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::detail {

// What the goodput is computed from, in SI units; filled from a report by train_goodput().
struct GoodputInputs {
    double gpus = 1, nodes = 1;
    double checkpoint_bytes = 0;   // the whole checkpoint (every rank's part)
    double step_s = 0;   // one optimizer step
    double step_fixed_s = 0;   // of it, what does not shrink with the batch: bubble, exposed communication, host
    double tokens_per_step = 0;
    double train_tokens = 0;   // 0: the shares per step, without the ramp or the run's totals
    double failures_per_gpu_hour = 0;
    double restart_s = 0;
    double write_bytes_per_s_per_node = 0;
    double checkpoint_interval_s = 0;   // 0 = the Young-Daly optimum
    double eval_interval_steps = 0, eval_iters = 0;
    double ramp_tokens = 0;
};

GoodputReport goodput(const GoodputInputs& in);

// Bytes per parameter of a checkpoint: what training saves to resume. Full training: the weights
// (fp32, or 16-bit with an fp32 master copy) and the optimizer states; LoRA / QLoRA: the adapters
// (fp32) and their states (the base model is not saved).
double checkpoint_bytes(const Config& c, double params, double trainable, bool fp32, double hidden);

// The optimizer's states per trainable parameter, bytes (the ZeRO paper's K without the master
// copy): AdamW m and v in fp32 8, 8-bit AdamW 2, SGD momentum 4, Adafactor's factored second
// moment 8 / hidden.
double optimizer_state_bytes_per_param(Optimizer o, double hidden);

// The report's speed.goodput, train_goodput_fraction and train_wall_time_s (training only).
void train_goodput(const Config& c, bool fp32, double hidden, Report& rep);

}   // namespace gpusizer::detail
