// simulate.cpp (cli/): `gpusizer simulate`: the request-level simulation of gpusizer/simulate.hpp,
// with its own flags (--requests, --seed, --burstiness, --lengths, --length-spread,
// --prefix-hit-rate, --slo-ttft-ms, --slo-tpot-ms, --max-concurrency, --trace FILE, --max-rate,
// --percentile); every other flag is a
// configuration key, read as `estimate` reads it (--request-rate is the arrival rate).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "cli_internal.hpp"
#include "gpusizer/simulate.hpp"
#include "inspect.hpp"

namespace gpusizer::cli {

namespace {

double number_flag(const std::string& flag, const std::string& text, double lo, double hi) {
    std::size_t used = 0;
    double v = std::nan("");
    try {
        v = std::stod(text, &used);
    } catch (...) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !(v >= lo && v <= hi)) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "must be a number from %g to %g, got '", lo, hi);
        throw Error(flag, buf + text.substr(0, 40) + "'");
    }
    return v;
}

std::string ms(double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", seconds * 1e3);
    return buf;
}

void print_simulation(std::ostream& out, const SimulationReport& s) {
    const Report& r = s.report;
    char buf[320];
    std::snprintf(buf, sizeof buf, "simulate: %s on %d x %s (%s), %d replica%s, %lld requests", r.model_name.c_str(), r.config.gpus,
                  r.gpu_name.c_str(), std::string(to_string(r.config.runtime)).c_str(), s.replicas, s.replicas == 1 ? "" : "s", s.requests);
    out << buf;
    if (s.max_rate.asked) {
        out << '\n';
        if (s.max_rate.rps > 0)
            std::snprintf(buf, sizeof buf, "max rate: %.3g req/s within the objectives at p%d (saturation %.3g req/s; %d runs of %lld requests)\n",
                          s.max_rate.rps, s.max_rate.percentile, s.max_rate.saturated_rps, s.max_rate.simulations, s.max_rate.requests);
        else
            std::snprintf(buf, sizeof buf, "max rate: none meets the objectives at p%d (the run below is at 1%% of saturation, %.3g req/s)\n",
                          s.max_rate.percentile, s.request_rate);
        out << buf;
        std::snprintf(buf, sizeof buf, "the run at %.3g req/s:\n", s.request_rate);
        out << buf;
    } else if (s.request_rate > 0) {
        std::snprintf(buf, sizeof buf, " at %.3g req/s\n", s.request_rate);
        out << buf;
    } else {
        out << " all at once\n";
    }
    std::snprintf(buf, sizeof buf, "completed %lld, refused %lld, preemptions %lld, %lld engine steps in %.3f s of simulated %.1f s\n\n",
                  s.completed, s.rejected, s.preemptions, s.steps, s.wall_s, s.duration_s);
    out << buf;
    out << "              mean      p50      p90      p99\n";
    auto row = [&](const char* name, const LatencyStats& l) {
        std::snprintf(buf, sizeof buf, "%-9s %8s %8s %8s %8s  ms\n", name, ms(l.mean).c_str(), ms(l.p50).c_str(), ms(l.p90).c_str(),
                      ms(l.p99).c_str());
        out << buf;
    };
    row("TTFT", s.ttft_s);
    row("TPOT", s.tpot_s);
    row("E2E", s.e2e_s);
    std::snprintf(buf, sizeof buf, "\nthroughput  %.1f output tokens/s, %.3f requests/s, %.1f in flight on average (at most %.0f)\n",
                  s.output_tokens_per_s, s.requests_per_s, s.mean_running, s.max_concurrency);
    out << buf;
    if (s.slo_ttft_ms > 0 || s.slo_tpot_ms > 0) {
        std::snprintf(buf, sizeof buf, "goodput     %.3f requests/s within TTFT <= %g ms and TPOT <= %g ms (%.1f%% of requests)\n",
                      s.goodput_rps, s.slo_ttft_ms, s.slo_tpot_ms, s.slo_attained_fraction * 100.0);
        out << buf;
    }
    std::snprintf(buf, sizeof buf, "KV pool     at most %.1f%% used\n", s.peak_kv_used_fraction * 100.0);
    out << buf;
    if (r.serving.active) {
        std::snprintf(buf, sizeof buf,
                      "steady state (gpusizer estimate, mean lengths): %.1f output tokens/s, TTFT %s ms, TPOT %s ms (%s)\n",
                      r.serving.output_tokens_per_s, ms(r.serving.ttft_s).c_str(), ms(r.serving.tpot_s).c_str(),
                      std::string(r.serving.bound).c_str());
        out << buf;
    }
    for (const std::string& w : s.warnings) out << "warning: " << w << '\n';
}

}   // namespace

int run_simulate(const std::vector<std::string>& args, const char* argv0, std::ostream& out) {
    SimulationOptions so;
    std::string trace_path;
    std::vector<std::string> rest;
    for (std::size_t i = 1; i < args.size(); ++i) {   // args[0] is "simulate"
        const std::string& a = args[i];
        auto value = [&](const char* flag) -> std::string {
            if (i + 1 >= args.size()) throw Error(flag, "needs a value");
            return args[++i];
        };
        if (a == "--requests")
            so.requests = int(number_flag("requests", value("--requests"), 1, 1e6));
        else if (a == "--seed")
            so.seed = std::uint64_t(number_flag("seed", value("--seed"), 0, 9007199254740992.0));
        else if (a == "--burstiness")
            so.burstiness = number_flag("burstiness", value("--burstiness"), 0.01, 100);
        else if (a == "--lengths")
            so.lengths = parse_length_distribution(value("--lengths"));
        else if (a == "--length-spread")
            so.length_spread = number_flag("length_spread", value("--length-spread"), 0, 3);
        else if (a == "--prefix-hit-rate")
            so.prefix_hit_rate = number_flag("prefix_hit_rate", value("--prefix-hit-rate"), 0, 0.999);
        else if (a == "--slo-ttft-ms")
            so.slo_ttft_ms = number_flag("slo_ttft_ms", value("--slo-ttft-ms"), 0, 1e9);
        else if (a == "--slo-tpot-ms")
            so.slo_tpot_ms = number_flag("slo_tpot_ms", value("--slo-tpot-ms"), 0, 1e9);
        else if (a == "--trace")
            trace_path = value("--trace");
        else if (a == "--max-rate")
            so.max_rate = true;
        else if (a == "--percentile")
            so.percentile = int(number_flag("percentile", value("--percentile"), 50, 99));
        else if (a == "--max-concurrency")
            so.max_concurrency = int(number_flag("max_concurrency", value("--max-concurrency"), 1, 1 << 24));
        else
            rest.push_back(a);
    }
    rest.insert(rest.begin(), "estimate");   // the rest reads as estimate's flags
    const Options o = parse_args(rest);
    const Catalog cat = load_catalog(o.assets.empty() ? find_assets_dir(argv0) : o.assets);
    Config config = config_from_json(o.config.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (!o.config.contains("mode")) config.mode = Mode::inference;
    read_model_files(config);
    if (!trace_path.empty()) {
        std::ifstream in(trace_path, std::ios::binary);
        if (!in) throw Error("--trace", "cannot read '" + trace_path + "'", ErrorCode::unreadable);
        std::ostringstream text;
        text << in.rdbuf();
        so.trace = parse_trace(text.str());
    }
    const SimulationReport s = simulate(config, cat, so);
    if (o.json_out)
        out << simulation_to_json(s) << '\n';
    else
        print_simulation(out, s);
    return kExitOk;
}

}   // namespace gpusizer::cli
