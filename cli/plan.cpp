// plan.cpp (cli/): `gpusizer plan --mode train|inference`: the layout search of
// gpusizer/plan.hpp, with the search's own flags (--top, --max-micro-batch, --max-virtual-stages,
// --tokens, --no-offload, --no-ep, --no-cp; inference: --max-ttft-ms, --max-tpot-ms, --disaggregated,
// --target-rps R with --percentile P: the fewest GPUs meeting the targets at that rate);
// every other flag is a configuration key, read as `estimate` reads it, and --measured REPORT.json
// (a benchmark report's calibrated GPU in place of the datasheet's).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "cli_internal.hpp"
#include "gpusizer/plan.hpp"

namespace gpusizer::cli {

namespace {

std::string fmt_g(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

int int_flag(const std::string& flag, const std::string& text, int lo, int hi) {
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (...) {
        used = 0;
    }
    if (used == 0 || used != text.size() || v < lo || v > hi)
        throw Error(flag, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" + text + "'");
    return int(v);
}

// `text` as a number >= 0, all of it; with `suffixes`, a last T, B, M or K multiplies it by 1e12,
// 1e9, 1e6 or 1e3. -1 when it does not read so.
double non_negative_number(const std::string& text, bool suffixes) {
    std::size_t used = 0;
    double v = -1;
    try {
        v = std::stod(text, &used);
    } catch (...) {
        used = 0;
    }
    if (suffixes && used > 0 && used + 1 == text.size()) {
        const char u = text.back();
        v *= u == 'T' ? 1e12 : u == 'B' ? 1e9 : u == 'M' ? 1e6 : u == 'K' ? 1e3 : -1.0;
        used = text.size();
    }
    return used > 0 && used == text.size() && v >= 0 && std::isfinite(v) ? v : -1.0;
}

double ms_flag(const std::string& flag, const std::string& text) {
    const double v = non_negative_number(text, false);
    if (v < 0) throw Error(flag, "must be a non-negative number of milliseconds (0: no limit), got '" + text + "'");
    return v;
}

void print_point(std::ostream& out, const char* label, const PlanPoint& p) {
    char buf[300];
    const ServingReport& s = p.serving;
    std::snprintf(buf, sizeof buf, "%-6s %3d %3d %4d %3d %5d %8.0f %10.1f %10.1f %9.1f %9.1f %9.2f  %s", label, p.tp, p.pp, p.dp, p.ep,
                  p.gpus, p.concurrency, s.output_tokens_per_s_per_gpu, s.output_tokens_per_s, s.tokens_per_s_per_user, s.ttft_s * 1e3,
                  s.tpot_s * 1e3, std::string(s.bound).c_str());
    out << buf;
    if (p.prefill_gpus > 0) out << " (decode pool; prefill pool tp " << p.prefill_tp << " x dp " << p.prefill_dp << ")";
    out << '\n';
}

void print_inference_plan(std::ostream& out, const PlanRequest& q, const PlanReport& p) {
    char buf[300];
    std::snprintf(buf, sizeof buf, "plan (inference): %s on up to %d x %s, requests of %lld input + %lld output tokens\n",
                  p.top.empty() ? q.base.model.id.c_str() : p.top[0].report.model_name.c_str(), q.base.gpus,
                  p.top.empty() ? q.base.gpu.c_str() : p.top[0].report.gpu_name.c_str(), q.base.isl, q.base.osl);
    out << buf;
    std::string targets;
    if (q.max_ttft_ms > 0) targets += "TTFT <= " + fmt_g(q.max_ttft_ms) + " ms";
    if (q.max_tpot_ms > 0) targets += std::string(targets.empty() ? "" : ", ") + "TPOT <= " + fmt_g(q.max_tpot_ms) + " ms";
    std::snprintf(buf, sizeof buf, "search: %lld points evaluated, %lld fit, %lld meet the targets (%s), %.4f s\n\n", p.evaluated,
                  p.fitting, p.meeting, targets.empty() ? "none given" : targets.c_str(), p.seconds);
    out << buf;
    if (p.fitting == 0) {
        out << "no layout fits: more GPUs, a GPU with more memory, a smaller weight format, or shorter requests\n";
        return;
    }
    const char* head = "        tp  pp   dp  ep  GPUs  in-flt  tok/s/GPU      tok/s  tok/s/usr   TTFT ms   TPOT ms  bound\n";
    if (p.has_best) {
        out << head;
        print_point(out, "best", p.best);
    } else {
        out << "no layout meets the targets: the Pareto front below shows what each per-user speed costs\n";
    }
    out << "\nPareto front (tokens/s per GPU against tokens/s per user, slowest per user first):\n" << head;
    for (const PlanPoint& pt : p.pareto) print_point(out, "", pt);
    if (!p.why.empty()) {
        out << "\nwhy the best layout beats the next:\n";
        for (const auto& w : p.why) out << "  " << w << '\n';
    }
}

void print_target_plan(std::ostream& out, const PlanRequest& q, const PlanReport& p) {
    const TargetReport& t = p.target;
    char buf[400];
    const bool by_gpu = !t.by_gpu.empty();
    const std::string gpu = by_gpu ? std::string("each catalog GPU") : q.base.gpu;
    std::snprintf(buf, sizeof buf, "plan (inference, target): %s on up to %d x %s, %g requests/s of %lld input + %lld output tokens\n",
                  q.base.model.id.c_str(), q.base.gpus, gpu.c_str(), t.rps, q.base.isl, q.base.osl);
    out << buf;
    std::string targets;
    if (q.max_ttft_ms > 0) targets += "TTFT <= " + fmt_g(q.max_ttft_ms) + " ms";
    if (q.max_tpot_ms > 0) targets += std::string(targets.empty() ? "" : ", ") + "TPOT <= " + fmt_g(q.max_tpot_ms) + " ms";
    std::snprintf(buf, sizeof buf, "targets at p%d: %s; %lld simulations of up to %lld requests, %.3f s\n\n", t.percentile,
                  targets.empty() ? "none (the engines keep up)" : targets.c_str(), t.simulations, t.requests, p.seconds);
    out << buf;
    if (t.met) {
        std::snprintf(buf, sizeof buf,
                      "%s%s%d GPUs (tp %d x pp %d x dp %d)\n  p%d TTFT %.1f ms, p%d TPOT %.1f ms, %.1f output tokens/s, goodput %.3g "
                      "requests/s\n",
                      by_gpu ? "cheapest: " : "fewest GPUs: ", by_gpu && !p.top.empty() ? (p.top.front().config.gpu + ", ").c_str() : "",
                      t.gpus, t.tp, t.pp, t.dp, t.percentile, t.ttft_s * 1e3, t.percentile, t.tpot_s * 1e3, t.output_tokens_per_s,
                      t.goodput_rps);
        out << buf;
    } else {
        out << "no layout within " << q.base.gpus << " GPUs" << (by_gpu ? " of any type" : "")
            << " meets the targets: more GPUs (--gpus), looser targets, or a lower rate\n";
    }
    if (!t.by_gpu.empty()) {
        // --cheapest-gpu: each GPU type's fewest GPUs and what a million output tokens cost on them.
        auto usd = [](bool known, double v) {
            char b[32];
            std::snprintf(b, sizeof b, "$%.3g", v);
            return known ? std::string(b) : std::string("-");
        };
        out << "\nby GPU type, cheapest per million output tokens first (owning; renting where no price is known):\n";
        std::snprintf(buf, sizeof buf, "  %-30s %5s  %-20s %8s %8s %9s %9s\n", "gpu", "gpus", "layout", "TTFT ms", "TPOT ms",
                      "own $/M", "rent $/M");
        out << buf;
        int shown = 0, not_met = 0;
        for (const TargetGpuRow& r : t.by_gpu) {
            if (!r.met) {
                ++not_met;
                continue;
            }
            if (++shown > 20) continue;
            std::snprintf(buf, sizeof buf, "  %-30s %5d  tp %d x pp %d x dp %-4d %8.1f %8.1f %9s %9s\n", r.gpu.c_str(), r.gpus, r.tp, r.pp,
                          r.dp, r.ttft_s * 1e3, r.tpot_s * 1e3, usd(r.own_known, r.own_usd_per_million_tokens).c_str(),
                          usd(r.rent_known, r.rent_usd_per_million_tokens).c_str());
            out << buf;
        }
        if (shown > 20) out << "  ... " << shown - 20 << " more (--json lists them all)\n";
        out << "  " << not_met << " GPU types cannot meet the targets within " << q.base.gpus << " GPUs (--json says why for each)\n";
        return;
    }
    out << "\nreplica shapes:\n";
    for (const std::string& s : t.shapes) out << "  " << s << '\n';
}

// D for --tokens: a plain number or one with a suffix, 15e12, 15T, 300B, 500M.
double tokens_flag(const std::string& text) {
    const double v = non_negative_number(text, true);
    if (v < 0) throw Error("--tokens", "must be a number of tokens >= 0 (15e12, 15T, 300B), got '" + text + "'");
    return v;
}

void print_plan(std::ostream& out, const PlanReport& p, const Config& base, bool q_offload) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "plan (%s): %s on %d x %s, global batch %d x %lld tokens\n", std::string(to_string(p.mode)).c_str(),
                  p.top.empty() ? base.model.id.c_str() : p.top[0].report.model_name.c_str(), base.gpus,
                  p.top.empty() ? base.gpu.c_str() : p.top[0].report.gpu_name.c_str(), base.global_batch,
                  p.top.empty() ? base.context : p.top[0].report.config.context);
    out << buf;
    std::snprintf(buf, sizeof buf, "search: %lld layouts evaluated, %lld fit, %.4f s\n\n", p.evaluated, p.fitting, p.seconds);
    out << buf;
    if (p.top.empty()) {
        out << (q_offload ? "no layout fits, offload included: more GPUs, or a smaller global batch or context\n"
                          : "no layout fits: more GPUs, a smaller global batch or context, or offload (without --no-offload)\n");
        return;
    }
    out << " #  tp  cp  pp   dp  ep  mb zero offload          recompute  schedule        step s  compute   bubble  exposed   MFU   HFU  "
           "GiB/GPU\n";
    int i = 0;
    for (const PlanLayout& l : p.top) {
        const Report& r = l.report;
        const Config& c = l.config;
        std::string sched(to_string(c.pp_schedule));
        if (c.pp == 1) sched = "-";
        else if (c.pp_schedule == PipeSchedule::interleaved) sched += " v" + std::to_string(r.config.virtual_stages);
        std::snprintf(buf, sizeof buf, "%2d %3d %3d %3d %4d %3d %3d %4d %-16s %-10s %-14s %7.3f %8.3f %8.3f %8.3f %5.2f %5.2f %8.1f\n", ++i,
                      c.tp, std::max(1, c.cp), c.pp, c.dp, std::max(1, c.ep), c.batch, c.zero, std::string(to_string(c.offload)).c_str(),
                      std::string(to_string(c.recompute)).c_str(), sched.c_str(), r.speed.train_step_s, r.speed.compute_s, r.speed.bubble_s,
                      r.speed.exposed_comm_s, r.speed.mfu_effective, r.speed.hfu, r.per_gpu.total() / double(1ull << 30));
        out << buf;
    }
    if (p.tokens > 0) {
        std::snprintf(buf, sizeof buf, "\nthe run of %.4g tokens:\n", p.tokens);
        out << buf;
        i = 0;
        for (const PlanLayout& l : p.top) {
            std::snprintf(buf, sizeof buf, "%2d %9.2f days %12.0f GPU-hours  electricity $%.0f", ++i, l.run.seconds / 86400.0,
                          l.run.gpu_hours, l.run.energy_usd);
            out << buf;
            if (l.run.cost_usd > 0) {
                std::snprintf(buf, sizeof buf, "  cost $%.0f", l.run.cost_usd);
                out << buf;
            }
            out << '\n';
        }
        if (!p.top.empty()) out << "   " << p.top[0].run.cost_note << '\n';
    }
    for (const auto& n : p.not_searched) out << "not searched: " << n << '\n';
    if (!p.why.empty()) {
        out << "\nwhy #1 beats #2:\n";
        for (const auto& w : p.why) out << "  " << w << '\n';
    }
}

}  // namespace

int run_plan(const std::vector<std::string>& args, const char* argv0, std::ostream& out) {
    PlanRequest q;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* flag) -> std::string {
            if (i + 1 >= args.size()) throw Error(flag, "needs a value");
            return args[++i];
        };
        if (a == "--top") q.top = int_flag("--top", value("--top"), 1, 100);
        else if (a == "--max-micro-batch") q.max_micro_batch = int_flag("--max-micro-batch", value("--max-micro-batch"), 1, 4096);
        else if (a == "--max-ttft-ms") q.max_ttft_ms = ms_flag("--max-ttft-ms", value("--max-ttft-ms"));
        else if (a == "--max-tpot-ms") q.max_tpot_ms = ms_flag("--max-tpot-ms", value("--max-tpot-ms"));
        else if (a == "--disaggregated") q.disaggregated = true;
        else if (a == "--target-rps") {
            q.target_rps = non_negative_number(value("--target-rps"), false);
            if (!(q.target_rps > 0)) throw Error("--target-rps", "must be a number of requests per second above 0");
        } else if (a == "--percentile") q.percentile = int_flag("--percentile", value("--percentile"), 50, 99);
        else if (a == "--cheapest-gpu") q.cheapest_gpu = true;
        else if (a == "--max-virtual-stages") q.max_virtual_stages = int_flag("--max-virtual-stages", value("--max-virtual-stages"), 1, 64);
        else if (a == "--tokens") q.tokens = tokens_flag(value("--tokens"));
        else if (a == "--no-offload") q.offload = false;
        else if (a == "--no-ep") q.expert_parallel = false;
        else if (a == "--no-cp") q.context_parallel = false;
        else rest.push_back(a);
    }
    const Options o = parse_args(rest);
    nlohmann::json cfg = o.config;
    if (!cfg.contains("mode"))
        throw Error("--mode", "plan needs --mode train (the search of training layouts) or --mode inference (serving layouts)");
    const Catalog cat = load_catalog(o.assets.empty() ? find_assets_dir(argv0) : o.assets);
    // --measured: the report's calibrated GPU stands in for the catalog's in every layout the
    // search evaluates (as for estimate, fit and recommend); without --gpu, the GPU it measured.
    MeasuredReport report;
    if (!o.measured.empty()) {
        report = load_measured_report(o.measured);
        if (!cfg.contains("gpu") || cfg["gpu"].is_null()) cfg["gpu"] = measured_overlay(cat, report, o.measured).gpus.front().id;
    }
    q.base = config_from_json(cfg.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    q.mode = q.base.mode == Mode::inference ? PlanMode::inference : PlanMode::train;
    GpuOverlay measured;
    if (!o.measured.empty()) measured = measured_overlay(cat, report, o.measured, {measured_gpu_id(q.base, o.measured)});
    const PlanReport p = plan(q, cat, &measured);
    if (o.json_out) {
        out << plan_to_json(p) << '\n';
        return kExitOk;
    }
    if (!o.measured.empty())
        out << (q.base.gpu == kCustomGpuId ? gpu_display_name(q.base, cat) : q.base.gpu) << ": the figures measured in " << o.measured
            << " in place of the datasheet's (--measured)\n";
    if (p.target.asked) print_target_plan(out, q, p);
    else if (p.mode == PlanMode::inference) print_inference_plan(out, q, p);
    else print_plan(out, p, q.base, q.offload);
    return kExitOk;
}

}  // namespace gpusizer::cli
