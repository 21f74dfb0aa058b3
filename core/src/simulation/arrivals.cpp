// arrivals.cpp: the requests a simulation runs. A trace's text read (the Azure LLM inference
// trace CSV, or JSON Lines), or requests drawn: gaps from a gamma distribution at the request
// rate, lengths fixed, uniform or lognormal around isl / osl. The draws use their own generator
// and transforms (SplitMix64, Box-Muller, Marsaglia-Tsang), not <random>'s distributions, whose
// algorithms differ between standard libraries: the same seed gives the same requests natively
// and in the browser.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/error.hpp"
#include "simulation_internal.hpp"

namespace gpusizer {

std::string_view to_string(LengthDistribution d) {
    switch (d) {
        case LengthDistribution::fixed:
            return "fixed";
        case LengthDistribution::uniform:
            return "uniform";
        case LengthDistribution::lognormal:
            return "lognormal";
    }
    return "fixed";
}

LengthDistribution parse_length_distribution(std::string_view s) {
    if (s == "fixed" || s.empty()) return LengthDistribution::fixed;
    if (s == "uniform") return LengthDistribution::uniform;
    if (s == "lognormal") return LengthDistribution::lognormal;
    throw_error("lengths", "'" + std::string(s.substr(0, 40)) + "' is not a length distribution: fixed, uniform or lognormal");
}

namespace detail {

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
// 2014; the constants of Vigna's reference code): 64 bits of state, every seed a full-period stream.
std::uint64_t SimRandom::next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double SimRandom::uniform() { return double(next() >> 11) * 0x1.0p-53; }   // [0, 1), 53 bits

double SimRandom::normal() {
    // Box-Muller: two uniforms give two independent standard normals; the second is kept.
    if (have_spare_) {
        have_spare_ = false;
        return spare_;
    }
    const double u = 1.0 - uniform();   // (0, 1]: log(u) finite
    const double v = uniform();
    const double r = std::sqrt(-2.0 * std::log(u));
    spare_ = r * std::sin(2.0 * M_PI * v);
    have_spare_ = true;
    return r * std::cos(2.0 * M_PI * v);
}

double SimRandom::gamma(double shape) {
    // Marsaglia and Tsang, "A simple method for generating gamma variables" (ACM TOMS 26(3), 2000):
    // for shape >= 1 a squeezed rejection from a cubed normal; below 1, gamma(shape + 1) x U^(1/shape).
    if (shape < 1.0) return gamma(shape + 1.0) * std::pow(1.0 - uniform(), 1.0 / shape);
    const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = 1.0 - uniform();
        if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
        if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
    }
}

namespace {

long long draw_length(SimRandom& rng, double mean, LengthDistribution dist, double spread) {
    double v = mean;
    switch (dist) {
        case LengthDistribution::fixed:
            break;
        case LengthDistribution::uniform: {
            // benchmark_serving's random dataset with --random-range-ratio r: integers in
            // [L(1 - r), L(1 + r)] (vllm/benchmarks/datasets.py, RandomDataset).
            const double lo = std::floor(mean * (1.0 - spread)), hi = std::ceil(mean * (1.0 + spread));
            v = lo + std::floor(rng.uniform() * (hi - lo + 1.0));
            break;
        }
        case LengthDistribution::lognormal:
            // exp(N(mu, s^2)) has mean exp(mu + s^2 / 2): mu = ln L - s^2 / 2 keeps the mean at L.
            v = mean * std::exp(spread * rng.normal() - 0.5 * spread * spread);
            break;
    }
    return std::max(1LL, (long long)std::llround(v));
}

}   // namespace

std::vector<TraceRequest> draw_requests(const SimulationOptions& o, int n, double rate, double isl, double osl) {
    SimRandom rng(o.seed);
    std::vector<TraceRequest> out(static_cast<std::size_t>(n));
    double t = 0;
    for (TraceRequest& q : out) {
        // Gaps of a gamma of shape b and mean 1 / rate: scale 1 / (rate b) (benchmark_serving's
        // get_request: np.random.gamma(shape=burstiness, scale=1 / (request_rate x burstiness));
        // b = 1 is the exponential gap of a Poisson process). Rate 0: all at once.
        q.arrival_s = t;
        if (rate > 0) t += rng.gamma(o.burstiness) / (rate * o.burstiness);
        q.input_tokens = draw_length(rng, isl, o.lengths, o.length_spread);
        q.output_tokens = draw_length(rng, osl, o.lengths, o.length_spread);
    }
    return out;
}

}   // namespace detail

namespace {

// "2023-11-16 18:15:46.6805900" as seconds since midnight plus days (enough for differences
// within a trace: days from a fixed epoch by the civil calendar), or a plain number of seconds.
bool trace_time(const std::string& text, double& seconds) {
    int y = 0, mo = 0, d = 0, h = 0, mi = 0;
    double s = 0;
    if (std::sscanf(text.c_str(), "%d-%d-%d %d:%d:%lf", &y, &mo, &d, &h, &mi, &s) == 6 ||
        std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%lf", &y, &mo, &d, &h, &mi, &s) == 6) {
        if (mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || !(s >= 0 && s < 61)) return false;
        // Days from civil (Hinnant's algorithm, proleptic Gregorian).
        const int yy = y - (mo <= 2);
        const int era = (yy >= 0 ? yy : yy - 399) / 400;
        const int yoe = yy - era * 400;
        const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        const double days = double(era) * 146097.0 + double(doe);
        seconds = days * 86400.0 + h * 3600.0 + mi * 60.0 + s;
        return true;
    }
    std::size_t used = 0;
    try {
        seconds = std::stod(text, &used);
    } catch (...) {
        return false;
    }
    return used == text.size() && std::isfinite(seconds);
}

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> out(1);
    for (char ch : line) {
        if (ch == ',')
            out.emplace_back();
        else if (ch != '\r' && ch != '"')
            out.back() += ch;
    }
    for (std::string& f : out) {
        while (!f.empty() && f.front() == ' ') f.erase(f.begin());
        while (!f.empty() && f.back() == ' ') f.pop_back();
    }
    return out;
}

long long token_count(const std::string& text, std::size_t line, const char* what) {
    std::size_t used = 0;
    long long v = -1;
    try {
        v = std::stoll(text, &used);
    } catch (...) {
        used = 0;
    }
    if (used == 0 || used != text.size() || v < 0 || v > (1LL << 27))
        throw_error("trace", "line " + std::to_string(line) + ": " + what + " '" + text.substr(0, 30) + "' is not a token count");
    return v;
}

constexpr std::size_t kMaxTraceRequests = 1000000;   // simulate()'s own limit on requests

}   // namespace

std::vector<TraceRequest> parse_trace(std::string_view text) {
    std::vector<TraceRequest> out;
    std::size_t pos = 0, line_no = 0;
    bool csv = false, first = true;
    int col_t = -1, col_in = -1, col_out = -1;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(pos, end - pos));
        pos = end + 1;
        ++line_no;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty()) continue;
        if (out.size() >= kMaxTraceRequests)
            throw_error("trace", "has more than " + std::to_string(kMaxTraceRequests) + " requests; simulate a part of it");
        if (first) {
            first = false;
            if (line.front() != '{') {   // a CSV: its header names the columns
                csv = true;
                const std::vector<std::string> head = split_csv(line);
                for (std::size_t i = 0; i < head.size(); ++i) {
                    if (head[i] == "TIMESTAMP")
                        col_t = int(i);
                    else if (head[i] == "ContextTokens")
                        col_in = int(i);
                    else if (head[i] == "GeneratedTokens")
                        col_out = int(i);
                }
                if (col_t < 0 || col_in < 0 || col_out < 0)
                    throw_error("trace",
                                "line 1: a CSV trace needs the header TIMESTAMP,ContextTokens,GeneratedTokens (the Azure LLM "
                                "inference trace); a JSON Lines trace has {\"arrival_s\", \"input_tokens\", \"output_tokens\"}");
                continue;
            }
        }
        TraceRequest q;
        if (csv) {
            const std::vector<std::string> f = split_csv(line);
            const std::size_t need = std::size_t(std::max({col_t, col_in, col_out}));
            if (f.size() <= need) throw_error("trace", "line " + std::to_string(line_no) + ": fewer columns than the header");
            if (!trace_time(f[std::size_t(col_t)], q.arrival_s))
                throw_error("trace", "line " + std::to_string(line_no) + ": TIMESTAMP '" + f[std::size_t(col_t)].substr(0, 40) +
                                         "' is neither 'YYYY-MM-DD hh:mm:ss.fff' nor seconds");
            q.input_tokens = token_count(f[std::size_t(col_in)], line_no, "ContextTokens");
            q.output_tokens = token_count(f[std::size_t(col_out)], line_no, "GeneratedTokens");
        } else {
            // A string_view, as json_read.cpp parses: one instantiation of nlohmann's parser.
            const nlohmann::json j = nlohmann::json::parse(std::string_view(line), nullptr, false);
            if (!j.is_object() || !j.contains("arrival_s") || !j.contains("input_tokens") || !j.contains("output_tokens") ||
                !j["arrival_s"].is_number() || !j["input_tokens"].is_number_integer() || !j["output_tokens"].is_number_integer())
                throw_error("trace", "line " + std::to_string(line_no) +
                                         ": not an object {\"arrival_s\": seconds, \"input_tokens\": N, \"output_tokens\": N}");
            q.arrival_s = j["arrival_s"].get<double>();
            q.input_tokens = j["input_tokens"].get<long long>();
            q.output_tokens = j["output_tokens"].get<long long>();
            if (!std::isfinite(q.arrival_s) || q.arrival_s < 0 || q.input_tokens < 0 || q.output_tokens < 0 ||
                q.input_tokens > (1LL << 27) || q.output_tokens > (1LL << 27))
                throw_error("trace", "line " + std::to_string(line_no) + ": arrival_s and the token counts must be >= 0");
        }
        out.push_back(q);
    }
    if (out.empty()) throw_error("trace", "has no requests");
    std::stable_sort(out.begin(), out.end(), [](const TraceRequest& a, const TraceRequest& b) { return a.arrival_s < b.arrival_s; });
    const double t0 = out.front().arrival_s;
    for (TraceRequest& q : out) q.arrival_s -= t0;
    return out;
}

}   // namespace gpusizer
