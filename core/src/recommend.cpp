// recommend.cpp: the GPUs that fit a model and a workload under constraints, ranked.
//
// One sweep() over every catalog GPU x 1..max_gpus for the query's weight format; per GPU the
// smallest count that passes every constraint. Formats numbers into reasons, so it lives beside
// the core's arithmetic but does no estimating of its own.
#include "gpusizer/recommend.hpp"

#include <algorithm>
#include <cstdio>

#include "estimate_internal.hpp"
#include "interconnect.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/precision.hpp"

namespace gpusizer {

std::string_view to_string(RecommendSort s) {
    switch (s) {
        case RecommendSort::cost: return "cost";
        case RecommendSort::speed: return "speed";
        case RecommendSort::power: return "power";
        case RecommendSort::own:
            return "own";
        case RecommendSort::rent:
            return "rent";
    }
    return "?";
}

RecommendSort parse_recommend_sort(std::string_view s) {
    if (s == "cost" || s == "price") return RecommendSort::cost;
    if (s == "speed") return RecommendSort::speed;
    if (s == "power") return RecommendSort::power;
    if (s == "own") return RecommendSort::own;
    if (s == "rent") return RecommendSort::rent;
    throw_error("sort", "unknown value '" + std::string(s) + "'; allowed: cost, speed, power, own, rent");
}

Segment parse_segment(std::string_view s) {
    if (s == "consumer") return Segment::consumer;
    if (s == "workstation") return Segment::workstation;
    if (s == "datacenter") return Segment::datacenter;
    if (s == "apple") return Segment::apple;
    throw_error("segment", "unknown value '" + std::string(s) + "'; allowed: consumer, workstation, datacenter, apple");
}

namespace {

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

std::string num(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

RecommendRow row_of(const SweepPoint& p, const Gpu& g, const std::string& weights, bool training) {
    RecommendRow row;
    row.gpu = g.id;
    row.gpu_name = g.name;
    row.segment = g.segment;
    row.gpus = p.gpus;
    row.weights = weights;
    row.fits = p.valid && p.fits;
    row.per_gpu_total = p.total;
    row.headroom = p.headroom;
    row.gpu_usable = p.total + p.headroom;
    row.price_known = p.price_known;
    row.price_usd = p.price_usd;
    row.decode_tokens_per_s = p.decode_tokens_per_s;
    row.train_tokens_per_s = p.train_tokens_per_s;
    row.tokens_per_s = training ? p.train_tokens_per_s : p.decode_tokens_per_s;
    row.system_w = p.system_w;
    row.wall_w = p.wall_w;
    row.psu_w = p.psu_w;
    row.nodes = p.nodes;
    return row;
}

// Every constraint the point breaks, in words.
std::vector<std::string> failures(const RecommendQuery& q, const SweepPoint& p, bool training) {
    std::vector<std::string> why;
    if (!p.valid) {
        why.push_back(p.error);
        return why;
    }
    if (!p.fits)
        why.push_back("does not fit: needs " + gib(p.total) + " per GPU, " + gib(p.total + p.headroom) + " usable");
    if (q.single_node && p.nodes > 1)
        why.push_back(std::to_string(p.gpus) + " GPUs take " + std::to_string(p.nodes) + " nodes (one node holds " +
                      std::to_string(p.gpus_per_node) + ")");
    const double tps = training ? p.train_tokens_per_s : p.decode_tokens_per_s;
    if (q.min_tokens_per_s && tps < *q.min_tokens_per_s)
        why.push_back(num("%.1f", tps) + (training ? " training" : " decode") + " tokens/s, below the " +
                      num("%.1f", *q.min_tokens_per_s) + " asked");
    if (q.budget_usd) {
        if (!p.price_known) why.push_back("no price in the catalog to check the budget against");
        else if (p.price_usd > *q.budget_usd)
            why.push_back("GPUs cost " + num("$%.0f", p.price_usd) + ", over the " + num("$%.0f", *q.budget_usd) + " budget");
    }
    if (q.power_cap_w && p.wall_w > *q.power_cap_w)
        why.push_back("draws " + num("%.0f W", p.wall_w) + " at the wall, over the " + num("%.0f W", *q.power_cap_w) + " cap");
    return why;
}

}  // namespace

Recommendation recommend(const RecommendQuery& q, const Catalog& catalog, const GpuOverlay* measured) {
    if (q.max_gpus < 1 || q.max_gpus > 1024) throw_error("max_gpus", "must be between 1 and 1024, got " + std::to_string(q.max_gpus));
    auto positive = [](const std::optional<double>& v) { return !v || *v > 0; };   // NaN is refused too
    if (!positive(q.budget_usd)) throw_error("budget", "must be a positive amount in USD (none = no limit)");
    if (!positive(q.power_cap_w)) throw_error("power_cap", "must be a positive power in W (none = no limit)");
    if (!positive(q.min_tokens_per_s)) throw_error("min_tokens_per_s", "must be a positive rate (none = no limit)");
    // Resolve the base once on its own GPU: a bad model or workload is the user's error, not a row.
    const detail::Resolved base = detail::resolve(q.base, catalog, measured);
    Recommendation out;
    out.query = q;
    out.weights = base.config->weights;
    out.training = base.training;
    const std::vector<SweepPoint> points = sweep(q.base, catalog, q.max_gpus, {out.weights}, measured);
    // One GPU's rows: `point(n)` is its sweep point at n GPUs.
    auto consider = [&](const Gpu& gpu, auto point) {
        if (!q.segments.empty() && std::find(q.segments.begin(), q.segments.end(), gpu.segment) == q.segments.end()) {
            RecommendRow row = row_of(point(1), gpu, out.weights, out.training);
            row.reasons.push_back(std::string(to_string(gpu.segment)) + " GPU, not in the classes asked");
            row.other_segment = true;
            out.rejected.push_back(std::move(row));
            return;
        }
        const SweepPoint* chosen = nullptr;
        const SweepPoint* closest = nullptr;   // the smallest count that fits, else the largest tried
        for (int n = 1; n <= q.max_gpus; ++n) {
            const SweepPoint& p = point(n);
            if (failures(q, p, out.training).empty()) {
                chosen = &p;
                break;
            }
            if (!closest && p.valid && p.fits) closest = &p;
        }
        if (chosen) {
            out.recommended.push_back(row_of(*chosen, gpu, out.weights, out.training));
            return;
        }
        if (!closest) closest = &point(q.max_gpus);
        RecommendRow row = row_of(*closest, gpu, out.weights, out.training);
        row.reasons = failures(q, *closest, out.training);
        if (!closest->fits && closest->valid)
            row.reasons.front() = (q.max_gpus == 1 ? std::string("does not fit on one GPU")
                                                   : "does not fit on up to " + std::to_string(q.max_gpus) + " GPUs") +
                                  ": needs " + gib(closest->total) + " per GPU, " + gib(closest->total + closest->headroom) + " usable";
        out.rejected.push_back(std::move(row));
    };
    // sweep() orders points by format, count, GPU: index = (n - 1) x gpus + g.
    const std::size_t ng = catalog.gpus.size();
    for (std::size_t g = 0; g < ng; ++g)
        consider(gpu_at(catalog, measured, g), [&](int n) -> const SweepPoint& { return points[std::size_t(n - 1) * ng + g]; });
    // A custom GPU in the query (gpu "custom") is one more candidate, after the catalog's, so that
    // an announced card or an overclocked one is ranked against what can be bought.
    std::vector<SweepPoint> custom_points;
    if (base.own_gpu) {
        custom_points = detail::sweep_gpus(q.base, catalog, {&base.own_gpu->gpu}, q.max_gpus, {out.weights}, measured);
        consider(base.own_gpu->gpu, [&](int n) -> const SweepPoint& { return custom_points[std::size_t(n - 1)]; });
    }
    // Links for the rows (the same fabric rule as estimate()).
    for (auto* rows : {&out.recommended, &out.rejected})
        for (RecommendRow& row : *rows) {
            const Gpu& gpu = row.gpu == kCustomGpuId && base.own_gpu ? base.own_gpu->gpu
                             : measured                              ? measured->gpu(catalog, row.gpu)
                                                                     : catalog.gpu(row.gpu);
            const detail::Fabric f = detail::make_fabric(gpu, catalog, base.link, base.inter_node_link);
            row.link = row.gpus > 1 && f.intra ? f.intra->id : std::string();
        }
    // What the job costs on each recommendation: one estimate per row (a hundred-odd at most).
    for (RecommendRow& row : out.recommended) {
        Config c = q.base;
        c.gpu = row.gpu;
        c.gpus = row.gpus;
        c.weights = row.weights;
        c.tp = c.pp = c.dp = c.ep = 0;
        try {
            const Report rep = estimate(c, catalog, EstimateOptions{false, measured});
            const CostReport& k = rep.cost;
            const bool run = out.training;
            row.own_known = k.gpu_price_known && (!run || rep.speed.train_time_s > 0);
            row.rent_known = k.rent_known && (!run || rep.speed.train_time_s > 0);
            row.own_usd = run ? k.own_usd_per_run : k.own_usd_per_million_tokens;
            row.rent_usd = run ? k.rent_usd_per_run : k.rent_usd_per_million_tokens;
            row.electricity_usd = run ? k.electricity_usd_per_run : k.electricity_usd_per_million_tokens;
            row.buy_break_even_months = k.buy_break_even_months;
        } catch (const Error&) {
            // The sweep ran this point; an estimate that does not is left without costs.
        }
    }
    auto by = [&](const RecommendRow& a, const RecommendRow& b) {
        switch (q.sort) {
            case RecommendSort::cost:
                if (a.price_known != b.price_known) return a.price_known;   // unknown prices last
                if (a.price_usd != b.price_usd) return a.price_usd < b.price_usd;
                return a.tokens_per_s > b.tokens_per_s;
            case RecommendSort::speed:
                if (a.tokens_per_s != b.tokens_per_s) return a.tokens_per_s > b.tokens_per_s;
                return a.price_usd < b.price_usd;
            case RecommendSort::power:
                if (a.wall_w != b.wall_w) return a.wall_w < b.wall_w;
                return a.tokens_per_s > b.tokens_per_s;
            case RecommendSort::own:
                if (a.own_known != b.own_known) return a.own_known;
                if (a.own_usd != b.own_usd) return a.own_usd < b.own_usd;
                return a.tokens_per_s > b.tokens_per_s;
            case RecommendSort::rent:
                if (a.rent_known != b.rent_known) return a.rent_known;
                if (a.rent_usd != b.rent_usd) return a.rent_usd < b.rent_usd;
                return a.tokens_per_s > b.tokens_per_s;
        }
        return false;
    };
    std::stable_sort(out.recommended.begin(), out.recommended.end(), by);
    return out;
}

}  // namespace gpusizer
