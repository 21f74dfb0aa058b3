// plan_inference.cpp: the serving layout search (gpusizer/plan.hpp, PlanMode::inference).
//
// [SECTION] Enumeration: per (tp, pp, dp, ep) one resolve and one serving model, then loads
// [SECTION] The Pareto front and the best point under the latency targets
// [SECTION] Entry points and the JSON report
//
// For a model, a GPU type and a budget of `gpus`, the search tries every serving layout that
// uses at most that many GPUs: tensor parallel degrees in powers of two within a node, pipeline
// stages in powers of two, any number of data-parallel replicas, and for a mixture of experts
// expert-parallel degrees that divide tp x dp (vLLM's --enable-expert-parallel spreads the experts
// over the tp x dp ranks: docs.vllm.ai, "Expert Parallel Deployment"). Each layout that fits is
// evaluated at a range of requests in flight per replica, with serving.cpp's steady state of
// continuous batching (the same serving_model() and serving_at() estimate() reports through
// `serving.*`): one resolve per layout, then arithmetic per load.
//
// Every layout is evaluated with `gpus` = the GPUs it uses, so a layout's figures do not depend
// on the budget: a larger budget searches a superset and its best cannot be worse
// (tests/test_plan_inference.cpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include <nlohmann/json.hpp>

#include "estimate_internal.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/plan.hpp"
#include "performance.hpp"
#include "plan_internal.hpp"
#include "power/power.hpp"
#include "serving.hpp"

namespace gpusizer::detail {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Enumeration
// ---------------------------------------------------------------------------------------------

// Requests in flight per replica that the search tries: 1, 2, 3, 4, 6, 8, 12, 16, ... (powers of
// two and 1.5 x powers of two: steps of at most 1.5x, so a point between two tried ones is within
// 50% in load), then the most the replica holds.
template <typename F>
void for_each_load(double cap, F&& f) {
    double last = 0;
    for (double p = 1; p <= cap; p *= 2) {
        f(p);
        last = p;
        if (p * 1.5 <= cap && p >= 2) {
            f(p * 1.5);
            last = p * 1.5;
        }
    }
    const double top = std::floor(cap);
    if (top > last) f(top);
}

// The most sequences per replica a fixed-slot engine (llama.cpp, transformers) is tried with:
// slots are allocated up front, so each slot count is its own layout.
bool is_fixed_slots(const Resolved& r) { return r.runtime == Runtime::llama_cpp || r.runtime == Runtime::pytorch; }

void check_inference_request(const PlanRequest& q) {
    const Config& b = q.base;
    if (b.mode != Mode::inference) throw_error("mode", "plan --mode inference searches serving layouts: set mode inference");
    if (b.isl <= 0 || b.osl <= 0)
        throw_error("isl", "plan --mode inference needs the load: isl and osl (input and output tokens per request)");
    if (b.offload != Offload::none) throw_error("offload", "plan searches layouts without offload");
    if (b.gpus < 1) throw_error("gpus", "must be at least 1, got " + std::to_string(b.gpus));
    if (!(q.max_ttft_ms >= 0) || !std::isfinite(q.max_ttft_ms))
        throw_error("max_ttft_ms", "must be a non-negative number of milliseconds (0: no limit)");
    if (!(q.max_tpot_ms >= 0) || !std::isfinite(q.max_tpot_ms))
        throw_error("max_tpot_ms", "must be a non-negative number of milliseconds (0: no limit)");
}

bool meets(const PlanRequest& q, const ServingReport& s) {
    if (q.max_ttft_ms > 0 && s.ttft_s * 1e3 > q.max_ttft_ms) return false;
    if (q.max_tpot_ms > 0 && s.tpot_s * 1e3 > q.max_tpot_ms) return false;
    return true;
}

// A figure to 10 significant digits, for comparisons: the same replica counted with more
// replicas gives the same figures up to rounding (855.9318760238959 against ...958), which must
// tie, not rank.
double key(double x) {
    if (!(x > 0) || !std::isfinite(x)) return x;
    const double unit = std::pow(10.0, std::floor(std::log10(x)) - 9.0);
    return std::round(x / unit) * unit;
}

// The best under the targets: the most output tokens/s per GPU; at equal speed per GPU, the
// layout with more of them (more tokens/s in all); then the faster per user.
bool better(const PlanPoint& a, const PlanPoint& b) {
    const ServingReport &x = a.serving, &y = b.serving;
    const double gx = key(x.output_tokens_per_s_per_gpu), gy = key(y.output_tokens_per_s_per_gpu);
    if (gx != gy) return gx > gy;
    const double tx = key(x.output_tokens_per_s), ty = key(y.output_tokens_per_s);
    if (tx != ty) return tx > ty;
    return key(x.tokens_per_s_per_user) > key(y.tokens_per_s_per_user);
}

// Disaggregated serving: a decode pool of dp_d replicas of tp_d GPUs at C requests in flight each,
// fed by the fewest prefill replicas of tp_p GPUs that keep up with it (their saturated rate times
// their count at least the decode pool's completions). Throughput is the decode pool's; TPOT its
// decode-only step; TTFT one prompt on a prefill replica plus its cache sent over (queueing at
// the prefill pool, below saturation, left out).
template <typename Pool, typename Visit>
long long disaggregated_search(const std::vector<Pool>& pools, int N, double isl, double osl, Visit&& visit) {
    long long evaluated = 0;
    std::vector<PrefillPool> prefill(pools.size());
    for (std::size_t i = 0; i < pools.size(); ++i) prefill[i] = serving_prefill_pool(pools[i].sm, isl);
    for (const Pool& d : pools) {
        const double cap = serving_decode_pool(d.sm, isl, osl, 0).concurrency;
        if (!(cap >= 1)) continue;
        for_each_load(cap, [&](double c) {
            const ServingReport dec = serving_decode_pool(d.sm, isl, osl, c);
            for (std::size_t i = 0; i < pools.size(); ++i) {
                const Pool& pf = pools[i];
                const PrefillPool& pre = prefill[i];
                if (!(pre.requests_per_s > 0)) continue;
                // TTFT and TPOT do not depend on the pools' sizes: of every dp_d that fits the
                // budget, the one with the most tokens/s per GPU (the prefill pool rounds up),
                // then the most in all.
                int best_dp = 0, best_dp_p = 0;
                double best_key = -1;
                for (int dp_d = 1; d.tp * dp_d + pf.tp <= N; ++dp_d) {
                    const double demand = dp_d * dec.requests_per_s;
                    const int dp_p = int(std::ceil(demand / pre.requests_per_s * (1.0 - 1e-12)));
                    const int gpus = d.tp * dp_d + pf.tp * dp_p;
                    if (gpus > N) break;   // more decode replicas only need more prefill ones
                    ++evaluated;
                    const double per_gpu = key(demand / gpus);
                    if (per_gpu >= best_key) {
                        best_key = per_gpu;
                        best_dp = dp_d;
                        best_dp_p = dp_p;
                    }
                }
                if (best_dp == 0) continue;
                {
                    const int dp_d = best_dp, dp_p = best_dp_p;
                    const double demand = dp_d * dec.requests_per_s;
                    const int gpus = d.tp * dp_d + pf.tp * dp_p;
                    PlanPoint p;
                    p.tp = d.tp;
                    p.dp = dp_d;
                    p.gpus = gpus;
                    p.concurrency = c * dp_d;
                    p.memory = std::max(d.memory, pf.memory);
                    p.prefill_tp = pf.tp;
                    p.prefill_dp = dp_p;
                    p.prefill_gpus = pf.tp * dp_p;
                    ServingReport& s = p.serving;
                    s = dec;
                    s.concurrency = c * dp_d;
                    s.requests_per_s = demand;
                    s.output_tokens_per_s = demand * osl;
                    s.output_tokens_per_s_per_gpu = s.output_tokens_per_s / gpus;
                    s.ttft_s = pre.ttft_s;
                    // Power: the decode pool at its step's draw; the prefill pool busy demand /
                    // capacity of the time at a saturated step's draw, idle at the floor otherwise.
                    const double busy = demand / (dp_p * pre.requests_per_s);
                    const double f_p = busy * pre.draw_fraction + (1.0 - busy) * kDrawFloor;
                    s.gpu_w = d.sm.board_w * (double(d.tp) * dp_d * dec.draw_fraction + double(pf.tp) * dp_p * f_p);
                    s.draw_fraction = d.sm.board_w > 0 ? s.gpu_w / (gpus * d.sm.board_w) : 0.0;
                    s.wall_w = wall_watts(d.sm.wall, gpus, s.gpu_w);
                    const double facility_w = s.wall_w * d.sm.pue;
                    s.energy_kwh_per_million_tokens = s.output_tokens_per_s > 0 ? facility_w * 1e6 / s.output_tokens_per_s / 3.6e6 : 0.0;
                    s.cost_usd_per_million_tokens = s.energy_kwh_per_million_tokens * d.sm.usd_per_kwh;
                    visit(p, true);
                }
            }
        });
    }
    return evaluated;
}

// Calls visit(point, fits) for every (layout, load) of the request; returns how many it evaluated.
// `measured`: the GPUs that stand in for the catalog's (plan()), taken by every resolve.
template <typename Visit>
long long inference_search(const PlanRequest& q, const Catalog& cat, const GpuOverlay* measured, Visit&& visit) {
    check_inference_request(q);
    const Config& base = q.base;
    const int N = base.gpus;
    // The engine is sized for the load when no context is given (vLLM --max-model-len,
    // llama-server -c per slot): the longest request is isl + osl tokens.
    const long long context = base.context > 0 ? base.context : base.isl + base.osl;
    Config probe = base;
    set_degrees(probe, Degrees{});   // serving layouts have no context parallelism (cp 1)
    probe.gpus = 1;
    probe.batch = 1;
    probe.concurrency = 0;
    probe.request_rate = 0;
    probe.context = context;
    // SGLang's attention groups divide each layout's tp (resolve() refuses the others, which the
    // search skips); the one-GPU probe has none to divide.
    probe.dp_attention = 0;
    const Resolved r0 = resolve(probe, cat, measured);   // the catalog, model, GPU and load checks, once
    probe.dp_attention = attention_dp_for(base, 1);   // TensorRT-LLM's: each layout sets its own
    const Fabric f0 = fabric_of(r0);
    const int node = f0.levels > 0 ? f0.node_size : N;
    const int layers = r0.arch->total_layers();
    int experts = 0;   // routed experts of the MoE layers (0: dense)
    for (const LayerSpec& l : r0.arch->kinds)
        if (l.is_moe()) experts = experts == 0 ? l.mlp.n_experts : std::min(experts, l.mlp.n_experts);
    const bool slots = is_fixed_slots(r0);
    // Slot counts tried on a fixed-slot engine: powers of two up to max_micro_batch, or the one
    // `max_num_seqs` names (the server's -np: resolve() makes it the batch). A pooled engine's
    // cap is in its serving model (serving_max_sequences), which bounds the loads tried below.
    const int given_slots = base.max_num_seqs.value_or(0);
    const int first_slots = slots && given_slots > 0 ? given_slots : 1;
    const int last_slots = slots ? (given_slots > 0 ? given_slots : q.max_micro_batch) : 1;
    const double isl = double(base.isl), osl = double(base.osl);
    long long evaluated = 0;
    // One replica of each tensor-parallel degree, for the disaggregated pools (pooled engines only:
    // llama.cpp and transformers do not hand caches over).
    struct PoolModel {
        int tp = 1;
        double memory = 0;
        ServingModel sm;
    };
    std::vector<PoolModel> pools;
    const bool disaggregate = q.disaggregated && !slots;

    for (int tp = 1; tp <= std::min(N, node); tp *= 2) {
        for (int pp = 1; tp * pp <= N && pp <= layers; pp *= 2) {
            for (int dp = 1; tp * pp * dp <= N; ++dp) {
                for (int ep = 1; ep <= tp * dp; ep *= 2) {
                    if (ep > 1 && (experts == 0 || (tp * dp) % ep != 0 || experts % ep != 0)) continue;
                    // Past one node, more replicas change no replica's figures (pipeline sends and
                    // expert all-to-alls already cross nodes; a replica's tp stays within one), only
                    // their count: of those layouts, the one with the most replicas this ep allows.
                    if (tp * pp * dp > node) {
                        int most = N / (tp * pp);
                        while (most > dp && (tp * most) % ep != 0) --most;
                        if (dp != most) continue;
                    }
                    for (int b = first_slots; b <= last_slots; b *= 2) {
                        Config cfg = probe;
                        set_degrees(cfg, Degrees{tp, pp, dp, ep, 1});
                        cfg.dp_attention = attention_dp_for(base, tp);
                        cfg.gpus = tp * pp * dp;
                        cfg.batch = b;
                        Resolved r;
                        try {
                            r = resolve(cfg, cat, measured);
                        } catch (const Error&) {
                            continue;   // a degree the model cannot take (tp not dividing the heads, pp the layers)
                        }
                        const Totals t = compute(r);
                        PlanPoint p;
                        p.tp = tp;
                        p.pp = pp;
                        p.dp = dp;
                        p.ep = ep;
                        p.gpus = cfg.gpus;
                        p.batch = b;
                        p.memory = t.per_gpu.total();
                        if (!t.fits) {
                            ++evaluated;
                            visit(p, false);
                            continue;
                        }
                        const PerfInputs in = perf_inputs(r);
                        const Fabric fabric = fabric_of(r);
                        PerfBuffers buf;
                        evaluate_performance(r, in, t, fabric, buf.out, EvalLevel::numbers);
                        const ServingModel sm = serving_model(r, in, t, fabric, buf.out);
                        if (disaggregate && pp == 1 && dp == 1 && ep == 1) pools.push_back({tp, p.memory, sm});
                        // As many as one replica holds (its slots, its sequence cap, its KV pool).
                        const double cap = serving_at(sm, isl, osl, 0).concurrency / dp;
                        auto at = [&](double per_replica) {
                            ++evaluated;
                            p.concurrency = per_replica * dp;
                            p.serving = serving_at(sm, isl, osl, p.concurrency);
                            visit(p, p.serving.concurrency > 0);
                        };
                        if (!(cap >= 1)) {
                            at(1);   // not one request fits its pool: evaluated, does not fit
                            continue;
                        }
                        if (slots) at(double(b));
                        else for_each_load(cap, at);
                    }
                }
            }
        }
    }
    if (disaggregate) evaluated += disaggregated_search(pools, N, isl, osl, visit);
    return evaluated;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The Pareto front and the best point
// ---------------------------------------------------------------------------------------------

// Points no other beats on both tokens/s per GPU and tokens/s per user; slowest per user first.
// Equal points keep one (the one with more tokens/s in all).
std::vector<PlanPoint> pareto_front(std::vector<PlanPoint> pts) {
    std::sort(pts.begin(), pts.end(), [](const PlanPoint& a, const PlanPoint& b) {
        const double ua = key(a.serving.tokens_per_s_per_user), ub = key(b.serving.tokens_per_s_per_user);
        if (ua != ub) return ua > ub;
        return better(a, b);
    });
    std::vector<PlanPoint> front;
    double best_y = -1;
    for (const PlanPoint& p : pts)
        if (key(p.serving.output_tokens_per_s_per_gpu) > best_y) {
            best_y = key(p.serving.output_tokens_per_s_per_gpu);
            front.push_back(p);
        }
    std::reverse(front.begin(), front.end());
    return front;
}

Config point_config(const Config& base, const PlanPoint& p) {
    Config cfg = base;
    set_degrees(cfg, Degrees{p.tp, p.pp, p.dp, p.ep, 1});
    cfg.dp_attention = attention_dp_for(base, p.tp);
    cfg.gpus = p.gpus;
    cfg.concurrency = int(std::lround(p.concurrency));
    cfg.request_rate = 0;
    if (cfg.context <= 0) cfg.context = base.isl + base.osl;
    cfg.batch = p.batch;
    return cfg;
}

std::string point_name(const PlanPoint& p) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "tp %d pp %d dp %d ep %d (%d GPUs), %g requests in flight", p.tp, p.pp, p.dp, p.ep, p.gpus,
                  p.concurrency);
    return buf;
}

}  // namespace

long long plan_inference_count(const PlanRequest& q, const Catalog& cat, double* best_per_gpu, const GpuOverlay* measured) {
    double best = 0;
    const long long n = inference_search(q, cat, measured, [&](const PlanPoint& p, bool fits) {
        if (fits && meets(q, p.serving)) best = std::max(best, p.serving.output_tokens_per_s_per_gpu);
    });
    if (best_per_gpu) *best_per_gpu = best;
    return n;
}

PlanReport plan_inference(const PlanRequest& q, const Catalog& cat, const GpuOverlay* measured) {
    const auto t0 = std::chrono::steady_clock::now();
    PlanReport out;
    out.mode = PlanMode::inference;
    std::vector<PlanPoint> fitting;
    // Per layout, its best point under the targets (the candidates for top[]).
    std::vector<PlanPoint> per_layout;
    out.evaluated = inference_search(q, cat, measured, [&](const PlanPoint& p, bool fits) {
        if (!fits) return;
        fitting.push_back(p);
        if (!meets(q, p.serving)) return;
        ++out.meeting;
        if (!out.has_best || better(p, out.best)) {
            out.best = p;
            out.has_best = true;
        }
        if (p.prefill_gpus > 0) return;   // estimate() does not model disaggregated pools: not in top[]
        PlanPoint* same = nullptr;
        if (!per_layout.empty()) {
            PlanPoint& last = per_layout.back();   // a layout's loads come one after the other
            if (last.tp == p.tp && last.pp == p.pp && last.dp == p.dp && last.ep == p.ep) same = &last;
        }
        if (!same) per_layout.push_back(p);
        else if (better(p, *same)) *same = p;
    });
    out.fitting = (long long)fitting.size();
    out.pareto = pareto_front(std::move(fitting));
    // The best layouts under the targets through estimate(): the breakdowns, and a check that
    // estimate() reports the figures the search ranked them by.
    // One entry per (tp, pp, ep): the same replica with fewer of them is not another layout.
    std::sort(per_layout.begin(), per_layout.end(), better);
    std::vector<PlanPoint> shown;
    for (const PlanPoint& p : per_layout) {
        if (int(out.top.size()) >= q.top) break;
        if (std::any_of(shown.begin(), shown.end(), [&](const PlanPoint& s) { return s.tp == p.tp && s.pp == p.pp && s.ep == p.ep; }))
            continue;
        PlanLayout l;
        l.config = point_config(q.base, p);
        l.report = estimate(l.config, cat, EstimateOptions{false, measured});
        l.step_s = p.serving.step_s;
        l.memory = p.memory;
        if (!l.report.fits) continue;
        shown.push_back(p);
        out.top.push_back(std::move(l));
    }
    if (out.has_best && out.top.size() >= 2) {
        const ServingReport& a = out.top[0].report.serving;
        const ServingReport& b = out.top[1].report.serving;
        char buf[400];
        std::snprintf(buf, sizeof buf, "%.4g output tokens/s per GPU against %.4g (%.1f%% more): %s against %s",
                      a.output_tokens_per_s_per_gpu, b.output_tokens_per_s_per_gpu,
                      100.0 * (a.output_tokens_per_s_per_gpu / std::max(b.output_tokens_per_s_per_gpu, 1e-30) - 1.0),
                      point_name(shown[0]).c_str(), point_name(shown[1]).c_str());
        out.why.emplace_back(buf);
        std::snprintf(buf, sizeof buf,
                      "engine step %.4g ms against %.4g ms, %.4g against %.4g requests in flight per replica; bound: %s against %s",
                      a.step_s * 1e3, b.step_s * 1e3, a.concurrency / out.top[0].config.dp, b.concurrency / out.top[1].config.dp,
                      std::string(a.bound).c_str(), std::string(b.bound).c_str());
        out.why.emplace_back(buf);
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The JSON report (plan_to_json() hands inference reports here)
// ---------------------------------------------------------------------------------------------

namespace {

nlohmann::json point_json(const PlanPoint& p) {
    const ServingReport& s = p.serving;
    nlohmann::json j{{"tp", p.tp},
                     {"pp", p.pp},
                     {"dp", p.dp},
                     {"ep", p.ep},
                     {"gpus", p.gpus},
                     {"concurrency", p.concurrency},
                     {"bound", std::string(s.bound)},
                     {"memory_per_gpu", std::llround(p.memory)},
                     {"disaggregated", p.prefill_gpus > 0},
                     {"prefill_tp", p.prefill_tp},
                     {"prefill_dp", p.prefill_dp},
                     {"prefill_gpus", p.prefill_gpus}};
    // The serving figures, one row each (a table of members rather than more initializer-list code).
    static constexpr std::pair<const char*, double ServingReport::*> kServing[] = {
        {"output_tokens_per_s", &ServingReport::output_tokens_per_s},
        {"output_tokens_per_s_per_gpu", &ServingReport::output_tokens_per_s_per_gpu},
        {"tokens_per_s_per_user", &ServingReport::tokens_per_s_per_user},
        {"ttft_s", &ServingReport::ttft_s},
        {"tpot_s", &ServingReport::tpot_s},
        {"requests_per_s", &ServingReport::requests_per_s},
        {"step_s", &ServingReport::step_s},
        {"draw_fraction", &ServingReport::draw_fraction},
        {"gpu_w", &ServingReport::gpu_w},
        {"energy_kwh_per_million_tokens", &ServingReport::energy_kwh_per_million_tokens},
    };
    for (const auto& [name, member] : kServing) j[name] = s.*member;
    return j;
}

}  // namespace

std::string plan_inference_to_json(const PlanReport& p, int indent) {
    using nlohmann::json;
    json j;
    j["schema_version"] = 1;
    j["mode"] = "inference";
    j["search"] = {{"evaluated", p.evaluated}, {"fitting", p.fitting}, {"meeting", p.meeting}, {"seconds", p.seconds}};
    j["best"] = p.has_best ? point_json(p.best) : json(nullptr);
    j["pareto"] = json::array();
    for (const PlanPoint& pt : p.pareto) j["pareto"].push_back(point_json(pt));
    j["top"] = json::array();
    for (const PlanLayout& l : p.top) {
        const Config& c = l.config;
        json layout = {
            {"tp", c.tp}, {"pp", c.pp}, {"dp", c.dp}, {"ep", l.report.parallel.ep}, {"gpus", c.gpus}, {"concurrency", c.concurrency}};
        // Parsed from a string_view, as every JSON text in the core is (json_read.cpp): one
        // instantiation of nlohmann's parser in the browser build, not a second for std::string.
        j["top"].push_back({{"layout", layout}, {"report", json::parse(std::string_view(report_to_json(l.report, -1)))}});
    }
    j["why"] = p.why;
    if (p.target.asked) {
        const TargetReport& t = p.target;
        j["target"] = {{"rps", t.rps},
                       {"percentile", t.percentile},
                       {"met", t.met},
                       {"gpus", t.met ? json(t.gpus) : json(nullptr)},
                       {"tp", t.tp},
                       {"pp", t.pp},
                       {"dp", t.dp},
                       {"ttft_s", t.ttft_s},
                       {"tpot_s", t.tpot_s},
                       {"output_tokens_per_s", t.output_tokens_per_s},
                       {"goodput_rps", t.goodput_rps},
                       {"simulations", t.simulations},
                       {"requests", t.requests},
                       {"shapes", t.shapes}};
        if (!t.by_gpu.empty()) {
            // The GPU type the answer is on (cheapest_gpu), and each type's answer.
            j["target"]["gpu"] = p.top.empty() ? json(nullptr) : json(p.top.front().config.gpu);
            json rows = json::array();
            for (const TargetGpuRow& r : t.by_gpu)
                rows.push_back({{"gpu", r.gpu},
                                {"name", r.name},
                                {"met", r.met},
                                {"gpus", r.met ? json(r.gpus) : json(nullptr)},
                                {"tp", r.tp},
                                {"pp", r.pp},
                                {"dp", r.dp},
                                {"ttft_s", r.met ? json(r.ttft_s) : json(nullptr)},
                                {"tpot_s", r.met ? json(r.tpot_s) : json(nullptr)},
                                {"own_usd_per_million_tokens", r.own_known ? json(r.own_usd_per_million_tokens) : json(nullptr)},
                                {"rent_usd_per_million_tokens", r.rent_known ? json(r.rent_usd_per_million_tokens) : json(nullptr)},
                                {"why", r.why}});
            j["target"]["by_gpu"] = std::move(rows);
        }
    }
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace gpusizer::detail
