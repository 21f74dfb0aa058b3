// training/goodput.cpp: the run's goodput (docs/formulas.md, "The run's goodput").
//
// A synchronous training job stops at every interruption of any of its GPUs and restarts from its
// last checkpoint; it also stops to write checkpoints, to evaluate, and runs small steps while its
// batch ramps up. First-order model (Young 1974; Daly 2006, "A higher order estimate of the optimum
// checkpoint interval for restart dumps"), with interruptions a Poisson process over the wall time:
//   f  = failures_per_gpu_hour x GPUs / 3600         interruptions per second of the job
//   Ts = checkpoint bytes / (nodes x write rate)     every node writes its part at once
//   Tc = checkpoint_interval_s, or sqrt(2 Ts / f)    Young's optimum of Ts / Tc + f Tc / 2
//   L  = restart_s + Ts + (Tc + Ts) / 2              restart, read back, and half an interval redone
//   wall = work x (1 + Ts / Tc) / (1 - f L)          work: the steps, evaluation and ramp
// The run never finishes when f L >= 1: interruptions come faster than the work between them survives.
#include "training/goodput.hpp"

// The widget's module compiles this file with GPUSIZER_GOODPUT=0 (web/CMakeLists.txt): it shows
// no training run, and its download budget has no room for one.
#ifndef GPUSIZER_GOODPUT
#define GPUSIZER_GOODPUT 1
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpusizer::detail {

double optimizer_state_bytes_per_param(Optimizer o, double hidden) {
    switch (o) {
        case Optimizer::adamw:
            return 8.0;   // m, v in fp32
        case Optimizer::adamw_8bit:
            return 2.0;   // m, v in 8 bits (bitsandbytes, block-wise)
        case Optimizer::sgd:
            return 4.0;   // momentum in fp32
        case Optimizer::adafactor:
            // Factored second moment: rows + columns of each matrix in fp32, at most 2/h per
            // weight (every matrix has a side of hidden size); no momentum.
            return 4.0 * 2.0 / std::max(hidden, 1.0);
    }
    return 8.0;
}

double checkpoint_bytes(const Config& c, double params, double trainable, bool fp32, double hidden) {
    const double states = optimizer_state_bytes_per_param(c.optimizer, hidden);
    // Megatron-LM's distributed checkpoint holds the 16-bit weights, the fp32 master copy and the
    // optimizer states (2 + 4 + 8 = 14 bytes a parameter with AdamW); fp32 training has no copy.
    if (c.mode == Mode::train) return params * ((fp32 ? 4.0 : (2.0 + 4.0)) + states);
    return trainable * (4.0 + states);   // PEFT saves the fp32 adapters; the trainer, their states
}

#if GPUSIZER_GOODPUT
GoodputReport goodput(const GoodputInputs& in) {
    GoodputReport g;
    g.active = true;
    const double f = in.failures_per_gpu_hour * in.gpus / 3600.0;   // interruptions per second
    g.job_mtbf_s = f > 0 ? 1.0 / f : 0.0;
    g.checkpoint_bytes = in.checkpoint_bytes;
    const double ts = in.write_bytes_per_s_per_node > 0 ? in.checkpoint_bytes / (in.nodes * in.write_bytes_per_s_per_node) : 0.0;
    g.checkpoint_save_s = ts;
    // With no interruptions there is nothing to checkpoint against: the interval only matters when
    // given (it then costs its saves).
    double tc = in.checkpoint_interval_s;
    if (tc <= 0 && f > 0 && ts > 0) tc = std::sqrt(2.0 * ts / f);
    g.checkpoint_interval_s = tc;
    const double ckpt_share = tc > 0 ? ts / tc : 0.0;   // checkpoint time per second of work
    g.restart_s = in.restart_s + ts;   // reading it back takes as long as writing it
    g.lost_s_per_failure = f > 0 ? g.restart_s + (tc > 0 ? (tc + ts) / 2.0 : 0.0) : 0.0;
    // An evaluation runs eval_iters forward passes of a global batch: a third of a step's work
    // each (forward 2N of the 6N FLOPs a token of training costs).
    g.eval_s_per_step = in.eval_interval_steps > 0 ? in.eval_iters / in.eval_interval_steps * in.step_s / 3.0 : 0.0;

    // The work, over the run (or over one step when no run is asked).
    double steps_s = in.step_s, eval_s = g.eval_s_per_step, ramp_s = 0;
    if (in.train_tokens > 0 && in.tokens_per_step > 0) {
        const double steps = in.train_tokens / in.tokens_per_step;
        steps_s = steps * in.step_s;
        eval_s = steps * g.eval_s_per_step;
        // A linear ramp averages half the batch: twice the steps for its tokens, each paying the
        // step's fixed costs in full, while the math scales with the batch.
        const double ramp = std::min(in.ramp_tokens, in.train_tokens);
        ramp_s = ramp / in.tokens_per_step * in.step_fixed_s;
        g.ramp_extra_s = ramp_s;
    }
    const double work = steps_s + eval_s + ramp_s;
    const double lost_share = f * g.lost_s_per_failure;
    if (lost_share >= 1.0 || work <= 0) {
        g.never_finishes = lost_share >= 1.0;
        return g;
    }
    const double wall = work * (1.0 + ckpt_share) / (1.0 - lost_share);
    g.steps_fraction = steps_s / wall;
    g.eval_fraction = eval_s / wall;
    g.ramp_fraction = ramp_s / wall;
    g.checkpoint_fraction = work * ckpt_share / wall;
    g.failure_fraction = lost_share;
    if (in.train_tokens > 0) g.interruptions = f * wall;
    return g;
}

void train_goodput(const Config& c, bool fp32, double hidden, Report& rep) {
    SpeedReport& sp = rep.speed;
    if (sp.train_step_s <= 0) return;
    GoodputInputs in;
    in.gpus = c.gpus;
    in.nodes = std::max(1, rep.interconnect.nodes);
    in.checkpoint_bytes = checkpoint_bytes(c, rep.params, rep.trainable_params, fp32, hidden);
    in.step_s = sp.train_step_s;
    in.step_fixed_s = std::max(0.0, sp.train_step_s - sp.compute_s);
    in.tokens_per_step = sp.train_tokens_per_s * sp.train_step_s;
    in.train_tokens = c.train_tokens;
    in.failures_per_gpu_hour = c.failures_per_gpu_hour;
    in.restart_s = c.restart_s;
    in.write_bytes_per_s_per_node = c.checkpoint_write_gb_per_s * 1e9;
    in.checkpoint_interval_s = c.checkpoint_interval_s;
    in.eval_interval_steps = c.eval_interval_steps;
    in.eval_iters = c.eval_iters;
    in.ramp_tokens = c.batch_ramp_tokens;
    const GoodputReport& g = sp.goodput = goodput(in);
    sp.train_goodput_fraction = g.steps_fraction;
    if (c.train_tokens > 0 && sp.train_goodput_fraction > 0) sp.train_wall_time_s = sp.train_time_s / sp.train_goodput_fraction;
    char buf[400];
    if (g.never_finishes) {
        std::snprintf(buf, sizeof buf,
                      "the run never finishes: an interruption every %.0f s (failures_per_gpu_hour x %d GPUs), each losing %.0f s "
                      "(restart_s, reading the checkpoint back, half an interval redone); lower failures_per_gpu_hour or restart_s, "
                      "or raise checkpoint_write_gb_per_s",
                      g.job_mtbf_s, c.gpus, g.lost_s_per_failure);
        rep.warnings.emplace_back(buf);
    } else if (g.steps_fraction < 0.8) {
        // 0.8: below the ~90% effective training time Llama 3 reports at 16,384 GPUs, by a margin.
        std::snprintf(buf, sizeof buf,
                      "the run spends %.0f%% of its wall time beyond its steps: interruptions %.0f%%, checkpoints %.0f%%, "
                      "evaluation %.0f%%, batch ramp %.0f%% (speed.goodput)",
                      100.0 * (1.0 - g.steps_fraction), 100.0 * g.failure_fraction, 100.0 * g.checkpoint_fraction, 100.0 * g.eval_fraction,
                      100.0 * g.ramp_fraction);
        rep.warnings.emplace_back(buf);
    }
}
#else
GoodputReport goodput(const GoodputInputs&) { return {}; }
void train_goodput(const Config&, bool, double, Report&) {}
#endif

}   // namespace gpusizer::detail
