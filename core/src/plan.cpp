// plan.cpp: the layout search (gpusizer/plan.hpp).
//
// [SECTION] The training search: per (tp, pp) one resolve, then an inner loop without allocation
// [SECTION] Confirmation: the best layouts through estimate(), and why the best beats the next
// [SECTION] Entry points
//
// The inner loop composes a stage's memory from terms estimate.cpp computes per stage
// (train_stage_terms: weights, activations per micro-batch in flight and held once) with the
// ZeRO, gradient, optimizer and buffer accounting of estimate.cpp's training state, and times
// the step with performance.cpp's train_step() on a Resolved whose plain fields it sets per
// layout. tests/test_plan.cpp checks that both agree with estimate() for every layout of a search.
#include "gpusizer/plan.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "estimate_internal.hpp"
#include "training/frameworks.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/io.hpp"
#include "json_read.hpp"
#include "performance.hpp"
#include "plan_internal.hpp"
#include "runtime_profiles.hpp"

namespace gpusizer {

namespace {

using namespace detail;

// ---------------------------------------------------------------------------------------------
// [SECTION] The training search
// ---------------------------------------------------------------------------------------------

constexpr int kMaxTop = 100;
constexpr int kConfirmFactor = 4;   // layouts re-run through estimate() per layout reported
constexpr std::array<Recompute, 3> kRecomputes = {Recompute::none, Recompute::selective, Recompute::full};
// Context parallelism is tried in powers of two while each GPU keeps at least this many tokens
// of a sequence (a scope, not a law): the ring's K/V send per step is linear in the tokens a GPU
// holds, the attention block it hides behind quadratic, so short shares leave the sends exposed
// and only add GPUs to a group. Llama 3's long-context run keeps 8,192 (131,072 tokens over
// cp 16; Dubey et al. 2024, arXiv:2407.21783, Table 4).
constexpr long long kMinCpTokens = 4096;

// One layout as the inner loop sees it: plain numbers only.
struct Candidate {
    double step_s = 0;
    double memory = 0;   // bytes on the most loaded GPU
    Degrees deg;
    int batch = 1, zero = 0, virtual_stages = 1;
    Recompute recompute = Recompute::none;
    Offload offload = Offload::none;
    PipeSchedule schedule = PipeSchedule::one_f_one_b;
};

bool better(const Candidate& a, const Candidate& b) {
    if (a.step_s != b.step_s) return a.step_s < b.step_s;
    return a.memory < b.memory;   // the same speed with more headroom
}

// The best k candidates in a fixed array, best first (no allocation).
struct TopK {
    std::array<Candidate, kMaxTop * kConfirmFactor> items;
    int n = 0, k = 1;
    void offer(const Candidate& c) {
        if (n == k && !better(c, items[std::size_t(n - 1)])) return;
        int i = n < k ? n++ : n - 1;
        while (i > 0 && better(c, items[std::size_t(i - 1)])) {
            items[std::size_t(i)] = items[std::size_t(i - 1)];
            --i;
        }
        items[std::size_t(i)] = c;
    }
};

// Memory of stage `t` on one GPU for a layout (estimate.cpp's stage_estimate, training part).
struct MemoryModel {
    double capacity = 0;
    double comm_buffers = 0, allocator_fraction = 0;
    bool pytorch = true;
    // By ZeRO stage (training/frameworks.cpp); the weights' as a multiple of t.weights (counted in
    // the weights' dtype).
    std::array<TrainStates, 4> states{};
    std::array<BufferModel, 4> buffer_models{};
    // dp: the ranks that hold the same weights (dp x cp), over which ZeRO shards.
    double stage_total(const TrainStageTerms& t, double b, double inflight, int zero, double dp, Offload off) const {
        const double count = t.params;
        const TrainStates& s = states[std::size_t(zero)];
        const double shard = 1.0 / dp;
        // Offload (estimate.cpp): ZeRO-Offload moves the optimizer states and gradients to host
        // RAM, ZeRO-Infinity the parameter shards too.
        const double weights = off == Offload::optimizer_params ? 0.0 : t.weights * (s.weights.whole + s.weights.sharded * shard);
        const double grads = off != Offload::none ? 0.0 : count * (s.gradients.whole + s.gradients.sharded * shard);
        const double optim = off != Offload::none ? 0.0 : count * (s.optimizer.whole + s.optimizer.sharded * shard);
        const double acts = b * (inflight * t.act_inflight + t.act_once);
        double buffers = comm_buffers, alloc = 0;
        if (pytorch) {
            buffers += buffer_models[std::size_t(zero)].bytes(dp, count, count, t.block_params);
            alloc = allocator_fraction * (acts + grads);
        }
        return weights + grads + optim + acts + t.cuda_context + alloc + buffers;
    }
};

// Calls visit(candidate, fits) for every layout of the request; returns how many it evaluated.
// The Resolved of each (tp, pp) is the only allocation, outside the inner loops. `measured`: the
// GPUs that stand in for the catalog's (plan()), taken by every resolve.
template <typename Visit>
long long train_search(const PlanRequest& q, const Catalog& cat, const GpuOverlay* measured, Visit&& visit) {
    const Config& base = q.base;
    if (base.mode != Mode::train)
        throw_error("mode", "plan --mode train searches full training layouts: set mode train (LoRA and QLoRA layouts are not searched)");
    if (base.global_batch <= 0) throw_error("global_batch", "plan needs the global batch (sequences per optimizer step)");
    const int N = base.gpus;
    long long evaluated = 0;
    // Catalog, model and GPU checks (and the defaults) from one estimate of the smallest layout.
    Config probe = base;
    set_degrees(probe, Degrees{1, 1, N, 0, 1});
    probe.batch = 1;
    probe.zero = 0;
    probe.recompute = Recompute::full;
    probe.pp_schedule = PipeSchedule::one_f_one_b;
    probe.virtual_stages = 0;
    probe.offload = Offload::none;
    probe.global_batch = N;   // the probe checks the catalog, model and GPU; layouts take the request's batch
    const Resolved r0 = resolve(probe, cat, measured);
    const Fabric fabric = fabric_of(r0);
    // The step's scalar syncs span every GPU: the same for every layout (train_step reads it from
    // the inputs instead of timing the all-reduces again for each candidate).
    const double step_sync = step_sync_seconds(fabric, N);
    const int layers = r0.arch->total_layers();
    const bool moe = r0.arch->is_moe();
    const int max_tp = std::max(1, std::min(N, fabric.levels > 0 ? fabric.node_size : N));
    const ComputeChoice choice = compute_choice(*r0.gpu, *r0.wf, r0.runtime);
    const double F = choice.flops;
    const double hidden = double(r0.arch->hidden);

    MemoryModel mm;
    mm.capacity = r0.gpu->capacity_bytes();
    mm.pytorch = r0.runtime == Runtime::pytorch;
    for (int zero = 0; zero < 4; ++zero) {
        TrainStates& s = mm.states[std::size_t(zero)];
        s = train_states(base.training_framework, zero, r0.wf->wid, optimizer_state_bytes(base.optimizer, r0.arch->hidden));
        const double dtype = r0.fp32 ? 4.0 : 2.0;
        s.weights = StateBytes{s.weights.whole / dtype, s.weights.sharded / dtype};
        mm.buffer_models[std::size_t(zero)] = buffer_model(base.training_framework, zero, r0.wf->wid);
    }
    mm.allocator_fraction = r0.rt->allocator_fraction;

    const long long context = r0.config->context;
    for (int tp = 1; tp <= max_tp; tp *= 2) {
        if (N % tp != 0) continue;
        // Context parallelism (resolve checks the rest): 2 x cp divides the context, flash attention.
        for (int cp = 1; cp == 1 || (q.context_parallel && cp <= N / tp && context / cp >= kMinCpTokens); cp *= 2) {
            if (N % (tp * cp) != 0 || (cp > 1 && (context % (2LL * cp) != 0 || !base.flash_attention))) break;
            for (int pp = 1; pp <= N / (tp * cp) && pp <= layers; ++pp) {
                if ((N / (tp * cp)) % pp != 0) continue;
                const int dp = N / (tp * cp * pp);
                if (base.global_batch % dp != 0) continue;
                const long long per_replica = base.global_batch / dp;
                const int dp_cp = dp * cp;   // the ranks that hold the same weights (ZeRO shards over them)
                // Expert parallelism: powers of two dividing the stage's tp x cp x dp GPUs (resolve
                // checks that ep divides the routed experts too).
                for (int ep = 1; ep <= (moe && q.expert_parallel ? tp * dp_cp : 1); ep *= 2) {
                    if ((tp * dp_cp) % ep != 0) break;
                    const Degrees deg{tp, pp, dp, ep, cp};
                    Config cfg = probe;
                    set_degrees(cfg, deg);
                    cfg.global_batch = int(dp);
                    cfg.recompute = Recompute::none;
                    cfg.sequence_parallel = base.sequence_parallel || tp > 1;   // Megatron pairs TP with sequence parallelism
                    Resolved r;
                    try {
                        r = resolve(cfg, cat, measured);
                    } catch (const Error&) {
                        continue;   // a degree the model cannot take (tp not dividing the heads, cp with recurrent layers)
                    }
                    r.config->global_batch = base.global_batch;   // resolved at m = 1; the step's tokens are the request's
                    // What ZeRO-Offload moves over PCIe per step (perf_inputs: the same for every zero stage
                    // and recomputation).
                    r.config->zero = 1;
                    r.config->offload = Offload::optimizer;
                    const PerfInputs offload_in = perf_inputs(r);
                    r.config->zero = 3;
                    r.config->offload = Offload::optimizer_params;
                    const double param_fetch = perf_inputs(r).offload_param_fetch_bytes;   // ZeRO-Infinity's, per pass
                    r.config->offload = Offload::none;
                    r.config->zero = 0;
                    // Stage terms per recomputation (activations at micro-batch 1: they are linear in it).
                    std::vector<TrainStageTerms> terms(std::size_t(3 * pp));
                    // DualPipe's (resolve: an even pp): GPU s holds stages s and pp - 1 - s, so its
                    // terms are their own, and GPU pp - 1 - s's the same: the first pp / 2 are all.
                    const bool dual = pp >= 2 && pp % 2 == 0;
                    const int half = pp / 2;
                    std::vector<TrainStageTerms> dual_terms(dual ? std::size_t(3 * half) : 0);
                    std::array<PerfInputs, 6> inputs;
                    for (int k = 0; k < 3; ++k) {
                        r.config->recompute = kRecomputes[std::size_t(k)];
                        for (int s = 0; s < pp; ++s) terms[std::size_t(k * pp + s)] = train_stage_terms(r, s);
                        if (dual) {
                            r.config->pp_schedule = PipeSchedule::dualpipe;
                            for (int s = 0; s < half; ++s) dual_terms[std::size_t(k * half + s)] = train_stage_terms(r, s);
                            r.config->pp_schedule = PipeSchedule::one_f_one_b;
                        }
                        inputs[std::size_t(2 * k)] = perf_inputs(r);
                        r.config->zero = 3;
                        inputs[std::size_t(2 * k + 1)] = perf_inputs(r);
                        r.config->zero = 0;
                        inputs[std::size_t(2 * k)].step_sync_s = inputs[std::size_t(2 * k + 1)].step_sync_s = step_sync;
                    }
                    // One communicator per group, as estimate.cpp counts them: tp, pp, dp x cp and the cp ring.
                    mm.comm_buffers = mm.pytorch ? double((tp > 1) + (pp > 1) + (dp_cp > 1) + (cp > 1)) * r.rt->comm_buffers : 0.0;

                    // The inner loops: no allocation, no strings. The candidate fills in as they go deeper.
                    Candidate c;
                    c.deg = deg;
                    for (int b = 1; b <= q.max_micro_batch && b <= per_replica; ++b) {
                        if (per_replica % b != 0) continue;
                        const long long m = per_replica / b;
                        r.config->batch = c.batch = b;
                        r.micro_batches = m;
                        // The kernel efficiency follows the GEMMs' shapes: tp, the micro-batch, cp.
                        const double mu = base.mfu > 0 ? base.mfu : train_kernel_efficiency(*r.config, hidden, tp, cp);
                        for (int k = 0; k < 3; ++k) {
                            const TrainStageTerms* st = &terms[std::size_t(k * pp)];
                            const TrainStageTerms* dst = dual ? &dual_terms[std::size_t(k * half)] : nullptr;
                            r.config->recompute = c.recompute = kRecomputes[std::size_t(k)];
                            for (int zero = 0; zero <= (dp_cp > 1 ? 3 : 0); ++zero) {
                                PerfInputs& in = inputs[std::size_t(2 * k + (zero == 3 ? 1 : 0))];
                                in.micro_batches = double(m);
                                r.config->zero = c.zero = zero;
                                // Offload: none; the optimizer with ZeRO 1-3; the optimizer and the parameters with ZeRO 3.
                                const int offloads = !q.offload || zero == 0 ? 1 : zero == 3 ? 3 : 2;
                                for (int o = 0; o < offloads; ++o) {
                                    const Offload off = o == 0 ? Offload::none : o == 1 ? Offload::optimizer : Offload::optimizer_params;
                                    c.offload = off;
                                    const bool moved = off != Offload::none;
                                    in.offload_bytes_per_step = moved ? offload_in.offload_bytes_per_step : 0.0;
                                    in.offload_grad_bytes_per_step = moved ? offload_in.offload_grad_bytes_per_step : 0.0;
                                    in.offload_host_bytes_per_step = moved ? offload_in.offload_host_bytes_per_step : 0.0;
                                    in.offload_last_grad_bytes = moved ? offload_in.offload_last_grad_bytes : 0.0;
                                    in.offload_param_fetch_bytes = off == Offload::optimizer_params ? param_fetch : 0.0;
                                    // Schedules: 1F1B; with a pipeline also ZB-H1 and interleaving by 2, 4, 8...;
                                    // with an even pp and an even number of micro-batches, at least 2 pp
                                    // (what resolve requires: DeepSeek-V3 report, sec. 3.2.1, and
                                    // deepseek-ai/DualPipe's DualPipe.step) DualPipe, on its own memory
                                    // terms (2x the parameters, p + 1 micro-batches of a chunk: Table 2).
                                    const int schedules = pp == 1 ? 1 : dual && m % 2 == 0 && m >= 2LL * pp ? 4 : 3;
                                    for (int sched = 0; sched < schedules; ++sched) {
                                        const PipeSchedule ps = sched == 0   ? PipeSchedule::one_f_one_b
                                                                : sched == 1 ? PipeSchedule::zero_bubble
                                                                : sched == 2 ? PipeSchedule::interleaved
                                                                             : PipeSchedule::dualpipe;
                                        r.config->pp_schedule = c.schedule = ps;
                                        if (ps == PipeSchedule::dualpipe) {
                                            ++evaluated;
                                            double worst = 0;
                                            for (int s = 0; s < half; ++s)
                                                worst = std::max(worst, mm.stage_total(dst[s], b, train_inflight_micro_batches(pp, s, m, 1, true),
                                                                                       zero, dp_cp, off));
                                            c.memory = worst;
                                            c.virtual_stages = r.virtual_stages = 1;
                                            const bool fits = worst <= mm.capacity;
                                            c.step_s = fits ? train_step(r, in, fabric, mu, F).step_s : 0.0;
                                            visit(c, fits);
                                            continue;
                                        }
                                        for (int v = ps == PipeSchedule::interleaved ? 2 : 1;
                                             v <= (ps == PipeSchedule::interleaved ? q.max_virtual_stages : 1); v *= 2) {
                                            if ((long long)pp * v > layers) break;
                                            ++evaluated;
                                            double worst = 0;
                                            for (int s = 0; s < pp; ++s)
                                                worst = std::max(worst, mm.stage_total(st[s], b, train_inflight_micro_batches(pp, s, m, v),
                                                                                       zero, dp_cp, off));
                                            c.memory = worst;
                                            c.virtual_stages = r.virtual_stages = v;
                                            const bool fits = worst <= mm.capacity;
                                            c.step_s = fits ? train_step(r, in, fabric, mu, F).step_s : 0.0;
                                            visit(c, fits);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    return evaluated;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Confirmation
// ---------------------------------------------------------------------------------------------

Config layout_config(const Config& base, const Candidate& c) {
    Config cfg = base;
    set_degrees(cfg, c.deg);
    cfg.offload = c.offload;
    cfg.batch = c.batch;
    cfg.zero = c.zero;
    cfg.recompute = c.recompute;
    cfg.sequence_parallel = base.sequence_parallel || c.deg.tp > 1;
    cfg.pp_schedule = c.schedule;
    cfg.virtual_stages = c.schedule == PipeSchedule::interleaved ? c.virtual_stages : 0;
    return cfg;
}

std::string layout_name(const Config& c) {
    char buf[220];
    const std::string ep = (c.ep > 1 ? " ep " + std::to_string(c.ep) : "") + (c.cp > 1 ? " cp " + std::to_string(c.cp) : "");
    const std::string off = c.offload != Offload::none ? ", offload " + std::string(to_string(c.offload)) : "";
    std::snprintf(buf, sizeof buf, "tp %d pp %d dp %d%s, micro-batch %d, ZeRO %d%s, recompute %s, %s%s", c.tp, c.pp, c.dp, ep.c_str(),
                  c.batch, c.zero, off.c_str(), std::string(to_string(c.recompute)).c_str(), std::string(to_string(c.pp_schedule)).c_str(),
                  c.pp_schedule == PipeSchedule::interleaved ? (" v " + std::to_string(c.virtual_stages)).c_str() : "");
    return buf;
}

// The run of `tokens` on a confirmed layout (PlanRun in plan.hpp).
PlanRun run_of(const Report& r, double tokens, int gpus) {
    PlanRun run;
    run.tokens = tokens;
    if (tokens <= 0 || r.speed.train_tokens_per_s <= 0) return run;
    run.seconds = tokens / r.speed.train_tokens_per_s;
    run.gpu_hours = run.seconds * gpus / 3600.0;
    run.goodput_fraction = r.speed.train_goodput_fraction;
    run.wall_seconds = run.goodput_fraction > 0 ? run.seconds / run.goodput_fraction : 0.0;
    run.wall_gpu_hours = run.wall_seconds * gpus / 3600.0;
    run.energy_usd = r.power.energy_kwh * r.config.usd_per_kwh;
    const double per_gpu = r.power.hardware_usd / std::max(1, gpus);
    if (per_gpu > 0) {
        // The GPUs are held for the wall time (1 year = 365.25 days x 24 h).
        run.hardware_usd = per_gpu * run.wall_gpu_hours / (kGpuAmortizationYears * 365.25 * 24.0);
        run.cost_usd = run.energy_usd + run.hardware_usd;
        run.cost_note =
            "electricity of the steps at usd_per_kwh (facility power) + the GPUs' price amortized over 4 years for the wall time; "
            "servers, network and staff not counted";
    } else {
        run.cost_note =
            "no cost: the catalog has no purchase price for " + r.gpu_name + " (gpus.json price_usd); electricity alone is energy_usd";
    }
    return run;
}

// Why `a` beats `b`: the parts of the step that differ, largest first.
std::vector<std::string> explain(const Report& a, const Report& b) {
    struct Part { const char* name; double da, db; };
    const InterconnectReport &ia = a.interconnect, &ib = b.interconnect;
    const Part parts[] = {
        {"compute (recomputation, micro-batch)", a.speed.compute_s, b.speed.compute_s},
        {"pipeline bubble", a.speed.bubble_s, b.speed.bubble_s},
        {"exposed data-parallel sync", ia.dp_exposed_s_per_step, ib.dp_exposed_s_per_step},
        {"exposed tensor-parallel all-reduces", ia.tp_exposed_s_per_step, ib.tp_exposed_s_per_step},
        {"exposed pipeline sends", ia.pp_exposed_s_per_step, ib.pp_exposed_s_per_step},
        {"exposed expert all-to-alls", ia.ep_exposed_s_per_step, ib.ep_exposed_s_per_step},
        {"exposed ring-attention K/V sends (cp)", ia.cp_exposed_s_per_step, ib.cp_exposed_s_per_step},
        {"offload transfers over PCIe", ia.offload_exposed_s_per_step, ib.offload_exposed_s_per_step},
        {"optimizer step on the CPU (offload)", a.speed.optimizer_step_host_s, b.speed.optimizer_step_host_s},
        {"optimizer step on the GPU (ZeRO shards it)", a.speed.optimizer_step_s, b.speed.optimizer_step_s},
    };
    std::vector<std::pair<double, std::string>> lines;
    char buf[480];   // two layout names and four figures
    for (const Part& p : parts) {
        const double d = p.db - p.da;
        if (std::fabs(d) < 1e-4 * std::max(a.speed.train_step_s, 1e-9)) continue;
        std::snprintf(buf, sizeof buf, "%s: %.4g s %s (%.4g s against %.4g s)", p.name, std::fabs(d), d > 0 ? "shorter" : "longer", p.da,
                      p.db);
        lines.emplace_back(std::fabs(d), buf);
    }
    std::sort(lines.begin(), lines.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    std::vector<std::string> out;
    std::snprintf(buf, sizeof buf, "step %.4g s against %.4g s (%.1f%% faster): %s against %s", a.speed.train_step_s, b.speed.train_step_s,
                  100.0 * (b.speed.train_step_s / a.speed.train_step_s - 1.0), layout_name(a.config).c_str(),
                  layout_name(b.config).c_str());
    out.emplace_back(buf);
    for (auto& l : lines) out.push_back(std::move(l.second));
    std::snprintf(buf, sizeof buf, "memory per GPU: %.1f GiB against %.1f GiB", a.per_gpu.total() / double(1ull << 30),
                  b.per_gpu.total() / double(1ull << 30));
    out.emplace_back(buf);
    return out;
}

void check_request(const PlanRequest& q) {
    if (q.top < 1 || q.top > kMaxTop)
        throw_error("top", "must be between 1 and " + std::to_string(kMaxTop) + ", got " + std::to_string(q.top));
    if (q.max_micro_batch < 1 || q.max_micro_batch > 4096)
        throw_error("max_micro_batch", "must be between 1 and 4096, got " + std::to_string(q.max_micro_batch));
    if (q.max_virtual_stages < 1 || q.max_virtual_stages > 64)
        throw_error("max_virtual_stages", "must be between 1 and 64, got " + std::to_string(q.max_virtual_stages));
    if (!(q.tokens >= 0) || !std::isfinite(q.tokens)) throw_error("tokens", "must be a finite number of tokens >= 0");
    if (!(q.target_rps >= 0) || q.target_rps > 1e6)
        throw_error("target_rps", "must be a number of requests per second from 0 to 1,000,000");
    if (q.target_rps > 0 && q.mode != PlanMode::inference) throw_error("target_rps", "sizes serving: it needs mode inference");
    if (q.cheapest_gpu && !(q.target_rps > 0)) throw_error("cheapest_gpu", "compares GPU types at a target rate: it needs target_rps");
    if (q.percentile != 50 && q.percentile != 90 && q.percentile != 99)
        throw_error("percentile", "must be 50, 90 or 99, got " + std::to_string(q.percentile));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry points
// ---------------------------------------------------------------------------------------------

std::string_view to_string(PlanMode m) { return m == PlanMode::train ? "train" : "inference"; }

PlanMode parse_plan_mode(std::string_view s) {
    if (s == "train") return PlanMode::train;
    if (s == "inference") return PlanMode::inference;
    throw_error("mode", "unknown plan mode '" + std::string(s) + "'; allowed: train, inference");
}

PlanRequest plan_request_from_json(std::string_view config, std::string_view query) {
    PlanRequest q;
    q.base = config_from_json(config);
    const json cfg = parse_json(config, "config");
    const bool config_inference = cfg.is_object() && cfg.contains("mode") && q.base.mode == Mode::inference;
    q.mode = config_inference ? PlanMode::inference : PlanMode::train;
    const json j = parse_json(query.empty() ? std::string_view("{}") : query, "query");
    if (!j.is_object()) throw_error("query", "must be a JSON object of the search's fields");
    static constexpr const char* kKnown[] = {"mode",        "top",         "max_micro_batch", "max_virtual_stages",
                                             "tokens",      "offload",     "expert_parallel", "context_parallel",
                                             "max_ttft_ms", "max_tpot_ms", "disaggregated", "target_rps", "percentile",
                                             "cheapest_gpu"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char* k : kKnown) known = known || it.key() == k;
        if (!known)
            throw_error(it.key(),
                        "unknown plan field; known: mode, top, max_micro_batch, max_virtual_stages, tokens, offload, "
                        "expert_parallel, context_parallel, max_ttft_ms, max_tpot_ms, disaggregated, target_rps, percentile, "
                        "cheapest_gpu");
    }
    auto integer = [&](const char* k, int lo, int hi, int def) {
        if (!j.contains(k)) return def;
        const json& v = j.at(k);
        if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
            throw_error(k, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + v.dump());
        return int(v.get<long long>());
    };
    auto boolean = [&](const char* k, bool def) {
        if (!j.contains(k)) return def;
        if (!j.at(k).is_boolean()) throw_error(k, "must be true or false, got " + j.at(k).dump());
        return j.at(k).get<bool>();
    };
    if (j.contains("mode")) {
        if (!j.at("mode").is_string()) throw_error("mode", "must be \"train\" or \"inference\"");
        q.mode = parse_plan_mode(j.at("mode").get<std::string>());
    }
    // The search of training layouts runs on a training configuration: mode train unless the
    // configuration says lora / qlora (which the search then refuses by name).
    if (q.mode == PlanMode::train && q.base.mode == Mode::inference) q.base.mode = Mode::train;
    q.top = integer("top", 1, kMaxTop, q.top);
    q.max_micro_batch = integer("max_micro_batch", 1, 4096, q.max_micro_batch);
    q.max_virtual_stages = integer("max_virtual_stages", 1, 64, q.max_virtual_stages);
    if (j.contains("tokens")) {
        const json& v = j.at("tokens");
        if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
            throw_error("tokens", "must be a number of tokens >= 0, got " + v.dump());
        q.tokens = v.get<double>();
    }
    q.offload = boolean("offload", q.offload);
    q.expert_parallel = boolean("expert_parallel", q.expert_parallel);
    q.context_parallel = boolean("context_parallel", q.context_parallel);
    // The serving search's latency targets (milliseconds, 0: no limit) and pools.
    auto millis = [&](const char* k, double def) {
        if (!j.contains(k)) return def;
        const json& v = j.at(k);
        if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
            throw_error(k, std::string("must be a number of milliseconds >= 0 (0: no limit), got ") + v.dump());
        return v.get<double>();
    };
    q.max_ttft_ms = millis("max_ttft_ms", q.max_ttft_ms);
    q.max_tpot_ms = millis("max_tpot_ms", q.max_tpot_ms);
    q.disaggregated = boolean("disaggregated", q.disaggregated);
    if (j.contains("target_rps")) {
        const json& v = j.at("target_rps");
        if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
            throw_error("target_rps", "must be a number of requests per second >= 0, got " + v.dump());
        q.target_rps = v.get<double>();
    }
    q.percentile = integer("percentile", 50, 99, q.percentile);
    q.cheapest_gpu = boolean("cheapest_gpu", q.cheapest_gpu);
    return q;
}

long long plan_count(const PlanRequest& q, const Catalog& cat, double* best_step_s, const GpuOverlay* measured) {
    check_request(q);
    if (q.mode == PlanMode::inference) return plan_inference_count(q, cat, best_step_s, measured);
    double best = 0;
    const long long n = train_search(q, cat, measured, [&](const Candidate& c, bool fits) {
        if (fits && (best == 0 || c.step_s < best)) best = c.step_s;
    });
    if (best_step_s) *best_step_s = best;
    return n;
}

PlanReport plan(const PlanRequest& q, const Catalog& cat, const GpuOverlay* measured) {
    check_request(q);
    if (q.mode == PlanMode::inference && q.target_rps > 0)
        return q.cheapest_gpu ? plan_for_target_over_catalog(q, cat) : plan_for_target(q, cat);
    if (q.mode == PlanMode::inference) return plan_inference(q, cat, measured);
    const auto t0 = std::chrono::steady_clock::now();
    PlanReport out;
    out.mode = q.mode;
    TopK top;
    top.k = std::min(q.top * kConfirmFactor, kMaxTop * kConfirmFactor);
    out.evaluated = train_search(q, cat, measured, [&](const Candidate& c, bool fits) {
        if (!fits) return;
        ++out.fitting;
        top.offer(c);
    });
    out.tokens = q.tokens > 0 ? q.tokens : q.base.train_tokens;
    out.not_searched.emplace_back("activation offload to host memory: not modelled by estimate()");
    // The best layouts through the whole estimate: the breakdowns, and a check on the inner loop.
    for (int i = 0; i < top.n && int(out.top.size()) < q.top; ++i) {
        PlanLayout l;
        l.config = layout_config(q.base, top.items[std::size_t(i)]);
        l.config.train_tokens = out.tokens;
        l.report = estimate(l.config, cat, EstimateOptions{false, measured});
        l.run = run_of(l.report, out.tokens, l.config.gpus);
        l.step_s = top.items[std::size_t(i)].step_s;
        l.memory = top.items[std::size_t(i)].memory;
        if (!l.report.fits) continue;
        out.top.push_back(std::move(l));
    }
    // By wall time (the same GPUs, so by cost too): a step's time over the run's goodput, since
    // every layout takes the same tokens a step. A run that never finishes goes last.
    auto wall_per_step = [](const PlanLayout& l) {
        const SpeedReport& s = l.report.speed;
        return s.train_goodput_fraction > 0 ? s.train_step_s / s.train_goodput_fraction : std::numeric_limits<double>::infinity();
    };
    std::stable_sort(out.top.begin(), out.top.end(),
                     [&](const PlanLayout& a, const PlanLayout& b) { return wall_per_step(a) < wall_per_step(b); });
    if (out.top.size() >= 2) out.why = explain(out.top[0].report, out.top[1].report);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace gpusizer
