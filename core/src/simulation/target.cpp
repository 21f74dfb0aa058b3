// target.cpp: sizing for a target rate (`gpusizer plan --mode inference --target-rps R`). For each
// replica shape (tensor parallelism within a node, pipeline stages), the fewest replicas whose
// simulated latencies meet the targets at the percentile asked while the engines keep up; of
// those, the fewest GPUs. Replicas start at what the steady state says one sustains (a replica
// cannot complete more than its saturated rate), so most shapes take one or two simulations.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "estimate_internal.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/simulate.hpp"
#include "interconnect.hpp"
#include "performance.hpp"
#include "plan_internal.hpp"
#include "simulation_internal.hpp"

namespace gpusizer::detail {

namespace {

// Requests each run simulates: enough for a p99 of a few dozen requests per replica's share
// (1% of 1,000 is 10 requests), more with more replicas, bounded so a search stays under seconds.
int run_requests(int dp) { return std::clamp(400 * dp, 1000, 20000); }

}   // namespace

PlanReport plan_for_target(const PlanRequest& q, const Catalog& cat) {
    const auto t0 = std::chrono::steady_clock::now();
    PlanReport out;
    out.mode = PlanMode::inference;
    TargetReport& tr = out.target;
    tr.asked = true;
    tr.rps = q.target_rps;
    tr.percentile = q.percentile;
    const Config& base = q.base;
    if (base.isl <= 0 || base.osl <= 0) throw_error("isl", "sizing for a target rate needs isl and osl (the tokens of each request)");
    const int N = base.gpus;
    // The node a tensor-parallel group stays in, and the layers pipeline stages split.
    Config probe = base;
    set_degrees(probe, Degrees{});
    probe.gpus = 1;
    probe.concurrency = 0;
    probe.request_rate = 0;
    probe.dp_attention = 0;   // SGLang's attention groups divide each shape's tp, not the one-GPU probe's
    const Resolved r0 = resolve(probe, cat);
    const Fabric f0 = fabric_of(r0);
    const int node = f0.levels > 0 ? f0.node_size : N;
    const int layers = r0.arch->total_layers();
    SimulationOptions so;
    so.slo_ttft_ms = q.max_ttft_ms;
    so.slo_tpot_ms = q.max_tpot_ms;
    int best_gpus = N + 1;
    for (int tp = 1; tp <= std::min(N, std::max(node, 1)); tp *= 2) {
        for (int pp = 1; tp * pp <= N && pp <= layers; pp *= 2) {
            char name[64];
            std::snprintf(name, sizeof name, "tp %d x pp %d", tp, pp);
            Config c = base;
            c.mode = Mode::inference;
            set_degrees(c, Degrees{tp, pp, 1, 1, 1});
            c.dp_attention = attention_dp_for(base, tp);
            c.gpus = tp * pp;
            c.concurrency = 0;
            c.request_rate = 0;
            // One replica: does it fit, and what does it sustain at saturation?
            Report one;
            try {
                one = estimate(c, cat);
            } catch (const Error& e) {
                tr.shapes.push_back(std::string(name) + ": " + e.what());
                continue;
            }
            ++out.evaluated;
            if (!one.fits || !one.serving.active || !(one.serving.requests_per_s > 0)) {
                tr.shapes.push_back(std::string(name) + ": does not fit");
                continue;
            }
            ++out.fitting;
            int dp = std::max(1, int(std::ceil(q.target_rps / one.serving.requests_per_s)));
            if (tp * pp * dp >= best_gpus) {
                tr.shapes.push_back(std::string(name) + ": at least " + std::to_string(tp * pp * dp) + " GPUs at steady state, " +
                                    (best_gpus > N ? "more than " + std::to_string(N) : "not fewer than " + std::to_string(best_gpus)));
                continue;
            }
            bool found = false;
            for (; tp * pp * dp <= N && tp * pp * dp < best_gpus; ++dp) {
                set_degrees(c, Degrees{tp, pp, dp, 1, 1});
                c.gpus = tp * pp * dp;
                c.request_rate = q.target_rps;
                so.requests = run_requests(dp);
                const SimulationReport s = simulate(c, cat, so);
                ++tr.simulations;
                tr.requests = std::max(tr.requests, (long long)so.requests);
                if (!within_objectives(s, q.max_ttft_ms, q.max_tpot_ms, q.percentile)) continue;
                found = true;
                best_gpus = c.gpus;
                tr.met = true;
                tr.gpus = c.gpus;
                tr.tp = tp;
                tr.pp = pp;
                tr.dp = dp;
                tr.ttft_s = at_percentile(s.ttft_s, q.percentile);
                tr.tpot_s = at_percentile(s.tpot_s, q.percentile);
                tr.output_tokens_per_s = s.output_tokens_per_s;
                tr.goodput_rps = s.goodput_rps;
                out.has_best = true;
                out.best = PlanPoint{};
                out.best.tp = tp;
                out.best.pp = pp;
                out.best.dp = dp;
                out.best.gpus = c.gpus;
                out.best.concurrency = s.mean_running;
                out.best.memory = s.report.per_gpu.total();
                out.best.serving = s.report.serving;
                PlanLayout l;
                l.config = c;
                l.report = s.report;
                l.memory = out.best.memory;
                l.step_s = s.report.serving.step_s;
                out.top.assign(1, std::move(l));
                break;
            }
            if (found) {
                ++out.meeting;
                tr.shapes.push_back(std::string(name) + ": " + std::to_string(tr.gpus) + " GPUs (dp " + std::to_string(tr.dp) + ")");
            } else if (tp * pp * dp > N) {
                tr.shapes.push_back(std::string(name) + ": no replica count within " + std::to_string(N) + " GPUs meets the targets");
            } else {
                tr.shapes.push_back(std::string(name) + ": not within fewer GPUs than " + std::to_string(best_gpus));
            }
        }
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

PlanReport plan_for_target_over_catalog(const PlanRequest& q, const Catalog& cat) {
    const auto t0 = std::chrono::steady_clock::now();
    PlanReport out;
    std::vector<TargetGpuRow> rows;
    std::optional<PlanReport> cheapest;
    // What a row costs per million output tokens, for the ranking: owning where the catalog has a
    // price, else renting; none known ranks last.
    auto cost_of = [](const TargetGpuRow& r) {
        return r.own_known ? r.own_usd_per_million_tokens : r.rent_known ? r.rent_usd_per_million_tokens : HUGE_VAL;
    };
    for (const Gpu& g : cat.gpus) {
        PlanRequest one = q;
        one.cheapest_gpu = false;
        one.base.gpu = g.id;
        TargetGpuRow row;
        row.gpu = g.id;
        row.name = g.name;
        try {
            PlanReport p = plan_for_target(one, cat);
            const TargetReport& t = p.target;
            row.met = t.met;
            if (t.met && !p.top.empty()) {
                const CostReport& k = p.top.front().report.cost;
                row.gpus = t.gpus, row.tp = t.tp, row.pp = t.pp, row.dp = t.dp;
                row.ttft_s = t.ttft_s, row.tpot_s = t.tpot_s;
                row.own_known = k.gpu_price_known && k.own_usd_per_million_tokens > 0;
                row.own_usd_per_million_tokens = k.own_usd_per_million_tokens;
                row.rent_known = k.rent_known && k.rent_usd_per_million_tokens > 0;
                row.rent_usd_per_million_tokens = k.rent_usd_per_million_tokens;
            } else {
                row.why = t.shapes.empty() ? std::string("no shape fits") : t.shapes.back();
            }
            out.evaluated += p.evaluated;
            out.fitting += p.fitting;
            out.meeting += p.meeting;
            if (row.met) {
                p.target.by_gpu.assign(1, row);   // holds the row the cheapest report came from
                if (!cheapest || cost_of(row) < cost_of(cheapest->target.by_gpu.front())) cheapest = std::move(p);
            }
        } catch (const Error& e) {
            row.why = e.what();   // this GPU cannot run the configuration (an engine that does not run on it, ...)
        }
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const TargetGpuRow& a, const TargetGpuRow& b) {
        if (a.met != b.met) return a.met;
        return cost_of(a) < cost_of(b);
    });
    const long long evaluated = out.evaluated, fitting = out.fitting, meeting = out.meeting;
    if (cheapest) {
        out = std::move(*cheapest);   // the cheapest GPU's layout is the answer (best, top, target)
    } else {
        out.mode = PlanMode::inference;
        out.target.asked = true;
        out.target.rps = q.target_rps;
        out.target.percentile = q.percentile;
    }
    out.evaluated = evaluated;
    out.fitting = fitting;
    out.meeting = meeting;
    out.target.by_gpu = std::move(rows);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}   // namespace gpusizer::detail
