// ui/plan_state.cpp: the Plan tab's request and row texts (plan_state.hpp).
#include "plan_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/format.hpp"
#include "i18n.hpp"

namespace gpusizer::ui {

PlanRequest plan_request(const Config& current, const PlanInputs& in) {
    PlanRequest q;
    q.mode = PlanMode::train;
    q.base = current;
    q.base.mode = Mode::train;
    // The configuration's global batch, else its batch on every GPU (the estimate's own default).
    const int fallback = std::max(1, current.batch) * std::max(1, current.gpus);
    q.base.global_batch = in.global_batch > 0 ? in.global_batch : current.global_batch > 0 ? current.global_batch : fallback;
    q.top = std::clamp(in.top, 1, 100);
    q.tokens = std::max(0.0, in.tokens_billions) * 1e9;
    q.offload = in.offload;
    q.expert_parallel = in.expert_parallel;
    q.max_micro_batch = std::clamp(in.max_micro_batch, 1, 4096);
    return q;
}

PlanRowText plan_row_text(const PlanLayout& l) {
    const Config& c = l.config;
    const Report& r = l.report;
    PlanRowText t;
    char buf[200];
    std::snprintf(buf, sizeof buf, "tp %d pp %d dp %d", c.tp, c.pp, c.dp);
    t.layout = buf;
    if (c.cp > 1) t.layout += " cp " + std::to_string(c.cp);   // context parallel: ring attention
    if (c.ep > 1) t.layout += " ep " + std::to_string(c.ep);
    t.layout += ", mb " + std::to_string(c.batch) + ", ZeRO " + std::to_string(c.zero);
    if (c.offload != Offload::none) t.layout += ", offload " + std::string(to_string(c.offload));
    t.layout += ", " + std::string(to_string(c.recompute));
    if (c.pp > 1) {
        t.layout += ", " + std::string(to_string(c.pp_schedule));
        if (c.pp_schedule == PipeSchedule::interleaved) t.layout += " v" + std::to_string(r.config.virtual_stages);
    }
    t.step = format_duration(r.speed.train_step_s);
    t.compute = format_duration(r.speed.compute_s);
    t.bubble = format_duration(r.speed.bubble_s);
    t.exposed = format_duration(r.speed.exposed_comm_s);
    t.mfu = format_fixed(r.speed.mfu_effective, 2);
    t.hfu = format_fixed(r.speed.hfu, 2);
    t.memory = format_gib(r.per_gpu.total(), 1);
    if (l.run.tokens > 0) {
        t.run = format_duration(l.run.seconds);
        if (l.run.cost_usd > 0) {
            std::snprintf(buf, sizeof buf, ", $%s", format_count(l.run.cost_usd).c_str());
            t.run += buf;
        }
    }
    return t;
}

std::vector<std::pair<std::string, std::string>> plan_memory_parts(const PlanLayout& l) {
    std::vector<std::pair<double, const char*>> parts;
    for (const MemoryPartInfo& p : kMemoryParts)
        if (p.part != MemoryPart::kv_cache) parts.emplace_back(l.report.per_gpu.*p.bytes, p.label);   // training keeps no KV cache
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : parts) out.emplace_back(tr(p.second), format_gib(p.first, 1));   // the core's English name, translated
    return out;
}

// ---------------------------------------------------------------------------------------------
// Serving layouts
// ---------------------------------------------------------------------------------------------

ServingLoad serving_load(const Config& current, const PlanInputs& in) {
    ServingLoad l;
    const bool configured = current.isl > 0 && current.osl > 0;
    l.isl = in.isl > 0 ? in.isl : configured ? current.isl : kDefaultIsl;
    l.osl = in.osl > 0 ? in.osl : configured ? current.osl : kDefaultOsl;
    l.source = in.isl > 0 || in.osl > 0 ? tr_later("set here")
               : configured             ? tr_later("the configuration's isl and osl")
                                        : tr_later("a default: none configured");
    return l;
}

PlanRequest serving_plan_request(const Config& current, const PlanInputs& in) {
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base = current;
    Config& b = q.base;
    b.mode = Mode::inference;
    // What a training configuration carries and serving refuses or ignores.
    b.zero = 0;
    b.offload = Offload::none;
    b.recompute = Recompute::automatic;
    b.training_framework = TrainingFramework::megatron;
    b.global_batch = 0;
    b.train_tokens = 0;
    b.concurrency = 0;      // the search sets the load
    b.request_rate = 0;
    const ServingLoad load = serving_load(current, in);
    b.isl = load.isl;
    b.osl = load.osl;
    q.top = std::clamp(in.top, 1, 100);
    q.max_ttft_ms = std::max(0.0, in.max_ttft_ms);
    q.max_tpot_ms = std::max(0.0, in.max_tpot_ms);
    q.disaggregated = in.disaggregated;
    return q;
}

double default_simulation_rate(const Config& serving, const Catalog& catalog) {
    Config c = serving;
    c.request_rate = 0;
    c.concurrency = 0;
    double sustained = 0;
    try {
        const Report r = estimate(c, catalog);
        sustained = r.fits && r.serving.active ? r.serving.requests_per_s : 0.0;
    } catch (const Error&) {
        sustained = 0;   // simulate() says what is wrong with the configuration
    }
    if (!(sustained > 0) || !std::isfinite(sustained)) return 1.0;
    const double half = sustained / 2;
    const double mag = std::pow(10.0, std::floor(std::log10(half)) - 1);   // two significant digits
    return std::max(1e-3, std::round(half / mag) * mag);
}

Config simulation_config(const Config& current, const Catalog& catalog, const PlanInputs& plan, const SimulationInputs& in) {
    Config c = serving_plan_request(current, plan).base;   // inference at the tab's load, training settings dropped
    c.concurrency = 0;
    c.request_rate = in.request_rate > 0 ? in.request_rate : current.request_rate > 0 ? current.request_rate : default_simulation_rate(c, catalog);
    return c;
}

SimulationOptions simulation_options(const SimulationInputs& in) {
    SimulationOptions o;
    o.requests = in.requests;
    o.seed = in.seed;
    o.burstiness = in.burstiness;
    o.lengths = in.lengths;
    o.length_spread = in.lengths == LengthDistribution::fixed ? 0.0 : in.length_spread;
    o.slo_ttft_ms = in.slo_ttft_ms;
    o.slo_tpot_ms = in.slo_tpot_ms;
    return o;
}

SimulationOptions max_rate_options(const SimulationInputs& in) {
    SimulationOptions o = simulation_options(in);
    o.max_rate = true;
    o.percentile = 99;   // MLPerf's server scenario holds both limits at p99
    return o;
}

namespace {

ServingRowText serving_cells(int tp, int pp, int dp, int ep, const ServingReport& s, double memory) {
    ServingRowText t;
    t.tp = std::to_string(tp);
    t.pp = std::to_string(pp);
    t.dp = std::to_string(dp);
    t.ep = std::to_string(std::max(1, ep));
    t.concurrency = format_int(std::round(s.concurrency));
    t.per_gpu = format_rate(s.output_tokens_per_s_per_gpu);
    t.per_user = format_rate(s.tokens_per_s_per_user);
    t.ttft = format_duration(s.ttft_s);
    t.tpot = format_duration(s.tpot_s);
    t.memory = format_gib(memory, 1);
    t.bound = std::string(s.bound);
    return t;
}

}  // namespace

std::string ms_text(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", ms);
    return localized_number(buf) + " ms";   // "0,5 ms" in pt-BR
}

ServingRowText serving_row_text(const PlanPoint& p) {
    ServingRowText t = serving_cells(p.tp, p.pp, p.dp, p.ep, p.serving, p.memory);
    if (p.prefill_gpus > 0)
        t.note = strf(tr("decode pool; prefill pool tp %d x dp %d, %d GPUs in all"), p.prefill_tp, p.prefill_dp, p.gpus);
    return t;
}

ServingRowText serving_row_text(const PlanLayout& l) {
    const Config& c = l.config;
    return serving_cells(c.tp, c.pp, c.dp, l.report.parallel.ep, l.report.serving, l.report.per_gpu.total());
}

std::string bound_text(std::string_view bound) {
    // The words of core/src/serving.cpp's bounds.
    static constexpr std::pair<std::string_view, const char*> kBounds[] = {
        {"memory_bandwidth", tr_later("memory bandwidth")}, {"compute", tr_later("compute")},
        {"communication", tr_later("communication")},       {"overhead", tr_later("overhead")},
        {"host_memory", tr_later("host memory")},           {"kv_capacity", tr_later("KV capacity")},
        {"max_sequences", tr_later("max sequences")},       {"none", tr_later("none")}};
    for (const auto& [key, text] : kBounds)
        if (key == bound) return tr(text);
    std::string spaced(bound);   // a bound this list does not know yet: its key, spaced
    std::replace(spaced.begin(), spaced.end(), '_', ' ');
    return spaced;
}

std::string serving_targets_text(const PlanRequest& q) {
    std::string t;
    if (q.max_ttft_ms > 0) t += "TTFT <= " + ms_text(q.max_ttft_ms);
    if (q.max_tpot_ms > 0) t += (t.empty() ? "" : ", ") + std::string("TPOT <= ") + ms_text(q.max_tpot_ms);
    return t.empty() ? tr("no targets") : t;
}

std::string serving_search_text(const PlanReport& p, const PlanRequest& q) {
    return strf(tr("%s points evaluated, %s fit, %s meet the targets (%s), %s"), format_int(double(p.evaluated)).c_str(),
                format_int(double(p.fitting)).c_str(), format_int(double(p.meeting)).c_str(), serving_targets_text(q).c_str(),
                format_duration(p.seconds).c_str());
}

std::string serving_verdict_text(const PlanReport& p, const PlanRequest& q) {
    if (p.fitting == 0) return tr("No layout fits: more GPUs, a GPU with more memory, a smaller weight format, or shorter requests.");
    if (!p.has_best)
        return strf(tr("No layout meets the targets (%s): the chart shows what each speed per user costs; loosen a target or add GPUs."),
                    serving_targets_text(q).c_str());
    return "";
}

std::string training_verdict_text(const PlanReport& p) {
    return p.top.empty() ? tr("No layout fits: more GPUs, a smaller global batch or context.") : "";
}

PlanSummary plan_summary(const PlanReport& p, const PlanRequest& q) {
    PlanSummary s;
    s.mode = p.mode;
    s.evaluated = p.evaluated;
    s.fitting = p.fitting;
    if (p.mode == PlanMode::inference) {
        s.meeting = p.meeting;
        s.verdict = serving_verdict_text(p, q);
        s.has_best = p.has_best;
        if (!p.has_best) return s;
        const PlanPoint& b = p.best;
        s.tp = b.tp;
        s.pp = b.pp;
        s.dp = b.dp;
        s.ep = b.ep;
        s.gpus = b.gpus;
        s.disaggregated = b.prefill_gpus > 0;
        s.concurrency = b.concurrency;
        s.memory_per_gpu = b.memory;
        s.output_tokens_per_s_per_gpu = b.serving.output_tokens_per_s_per_gpu;
        s.tokens_per_s_per_user = b.serving.tokens_per_s_per_user;
        s.ttft_s = b.serving.ttft_s;
        s.tpot_s = b.serving.tpot_s;
        return s;
    }
    s.meeting = p.fitting;   // training has no targets: every layout that fits meets them
    s.verdict = training_verdict_text(p);
    s.has_best = !p.top.empty();
    if (!s.has_best) return s;
    const PlanLayout& l = p.top[0];
    const Config& c = l.config;
    s.tp = c.tp;
    s.cp = std::max(1, c.cp);
    s.pp = c.pp;
    s.dp = c.dp;
    s.ep = std::max(1, c.ep);
    s.gpus = c.gpus;
    s.step_s = l.report.speed.train_step_s;
    s.tokens_per_s = l.report.speed.train_tokens_per_s;
    s.memory_per_gpu = l.report.per_gpu.total();
    return s;
}

ChartAxis nice_axis(double largest, int ticks) {
    ChartAxis a;
    if (!(largest > 0) || !std::isfinite(largest)) return a;   // 0 to 1: an empty chart's frame
    // A "nice" step, 1, 2 or 5 x 10^k, for about `ticks` ticks; the axis ends on the first tick
    // at least 4% above the largest value, so that no point sits on the frame.
    const double raw = largest / std::max(1, ticks);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double n = raw / mag;
    a.step = (n < 1.5 ? 1.0 : n < 3.5 ? 2.0 : n < 7.5 ? 5.0 : 10.0) * mag;
    a.max = std::ceil(largest * 1.04 / a.step) * a.step;
    return a;
}

ChartPoint ParetoChart::to_screen(ChartPoint v, double left, double top, double right, double bottom) const {
    return {left + v.x / x.max * (right - left), bottom - v.y / y.max * (bottom - top)};
}

ParetoChart pareto_chart(const PlanReport& p, const PlanRequest& q) {
    ParetoChart c;
    double mx = 0, my = 0;
    for (const PlanPoint& pt : p.pareto) {
        c.front.push_back({pt.serving.tokens_per_s_per_user, pt.serving.output_tokens_per_s_per_gpu});
        mx = std::max(mx, c.front.back().x);
        my = std::max(my, c.front.back().y);
    }
    if (p.has_best) {
        c.has_best = true;
        c.best = {p.best.serving.tokens_per_s_per_user, p.best.serving.output_tokens_per_s_per_gpu};
        mx = std::max(mx, c.best.x);
        my = std::max(my, c.best.y);
    }
    // TPOT <= t ms is a speed of at least 1000 / t tokens/s per user (tokens_per_s_per_user = 1 / tpot_s).
    if (q.max_tpot_ms > 0) {
        c.min_per_user = 1000.0 / q.max_tpot_ms;
        if (!c.front.empty()) mx = std::max(mx, c.min_per_user);
    }
    c.x = nice_axis(mx, 6);
    c.y = nice_axis(my, 5);
    return c;
}

std::string axis_label(double v, double step) {
    char buf[32];
    if (v >= 1000 && step >= 100) {
        // Thousands: as many decimals as the step needs ("1.5 k" with steps of 500).
        const int d = step >= 1000 ? 0 : step >= 100 ? 1 : 2;
        std::snprintf(buf, sizeof buf, "%.*f k", d, v / 1000);
        // "2.0 k" reads "2 k".
        std::string s = buf;
        const std::size_t dot = s.find(".0 k");
        if (dot != std::string::npos) s.erase(dot, 2);
        return localized_number(s);   // "1,5 k" in pt-BR
    }
    const int d = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    std::snprintf(buf, sizeof buf, "%.*f", d, v);
    return localized_number(buf);
}

}  // namespace gpusizer::ui
