// simulation_io.cpp: the simulation's options from JSON (the JS API's gs.simulate(config,
// options), scripts): {"requests", "seed", "burstiness", "lengths", "length_spread",
// "prefix_hit_rate", "slo_ttft_ms", "slo_tpot_ms", "timeline_points", "trace", "max_concurrency",
// "max_rate", "percentile"}, the trace as its
// text (the Azure CSV or JSON Lines). Each field is checked where simulate() checks it; an
// unknown field is refused by name.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/error.hpp"
#include "gpusizer/simulate.hpp"
#include "json_read.hpp"

namespace gpusizer {

SimulationOptions simulation_options_from_json(std::string_view text) {
    SimulationOptions o;
    if (text.empty()) return o;
    // A trace of up to a million requests rides in it: 64 MB, depth 4.
    const nlohmann::json j = detail::parse_json(text, "options", 4, std::size_t(64) << 20);
    if (!j.is_object()) throw_error("options", "must be a JSON object of the simulation's fields");
    static constexpr const char* kKnown[] = {"requests",        "seed",        "burstiness",  "lengths",         "length_spread",
                                             "prefix_hit_rate", "slo_ttft_ms", "slo_tpot_ms", "timeline_points", "trace",
                                             "max_concurrency", "max_rate",        "percentile"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char* k : kKnown) known = known || it.key() == k;
        if (!known)
            throw_error(it.key().substr(0, 40),
                        "unknown simulation field; known: requests, seed, burstiness, lengths, length_spread, "
                        "prefix_hit_rate, slo_ttft_ms, slo_tpot_ms, timeline_points, trace, max_concurrency, max_rate, "
                        "percentile");
    }
    auto number = [&](const char* k, double def) {
        if (!j.contains(k)) return def;
        if (!j.at(k).is_number()) throw_error(k, "must be a number, got " + j.at(k).dump().substr(0, 40));
        return j.at(k).get<double>();
    };
    auto integer = [&](const char* k, double lo, double hi, double def) {
        const double v = number(k, def);
        if (v != std::floor(v) || v < lo || v > hi)
            throw_error(k, "must be a whole number from " + std::to_string((long long)lo) + " to " + std::to_string((long long)hi));
        return v;
    };
    o.requests = int(integer("requests", 0, 1e6, 0));
    o.seed = std::uint64_t(integer("seed", 0, 9007199254740992.0, 0));   // 2^53: exact in a JavaScript number
    o.burstiness = number("burstiness", o.burstiness);
    if (j.contains("lengths")) {
        if (!j.at("lengths").is_string()) throw_error("lengths", "must be \"fixed\", \"uniform\" or \"lognormal\"");
        o.lengths = parse_length_distribution(j.at("lengths").get<std::string>());
    }
    o.length_spread = number("length_spread", 0);
    o.prefix_hit_rate = number("prefix_hit_rate", 0);
    o.slo_ttft_ms = number("slo_ttft_ms", 0);
    o.slo_tpot_ms = number("slo_tpot_ms", 0);
    o.timeline_points = int(integer("timeline_points", 1, 10000, o.timeline_points));
    o.max_concurrency = int(integer("max_concurrency", 0, double(1 << 24), 0));
    if (j.contains("max_rate")) {
        if (!j.at("max_rate").is_boolean()) throw_error("max_rate", "must be true or false");
        o.max_rate = j.at("max_rate").get<bool>();
    }
    o.percentile = int(integer("percentile", 50, 99, o.percentile));   // 50, 90 or 99: simulate() checks which
    if (j.contains("trace")) {
        if (!j.at("trace").is_string()) throw_error("trace", "must be the trace's text (the Azure CSV or JSON Lines)");
        o.trace = parse_trace(j.at("trace").get<std::string>());
    }
    return o;
}

}   // namespace gpusizer
