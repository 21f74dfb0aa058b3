// simulate.cpp: the request-level simulation of gpusizer/simulate.hpp. Each replica runs its
// requests as vLLM V1's scheduler does (vllm/v1/core/sched/scheduler.py, schedule()): every step
// it first gives the running requests their tokens (a decode token each, or the next chunk of a
// prompt) in order under the token budget, allocating their KV cache; when the pool cannot take a
// request's new tokens, the last-admitted running request is preempted (its blocks freed, its
// tokens recomputed when it is readmitted, first in the queue). Only a step that preempted none
// admits waiting requests, first come first served, while the sequence cap, the budget and the
// pool allow. The step's time is serving_step_seconds() on what it carries. Requests go to the
// replicas in turn (round robin).
//
// [SECTION] Setting up: the configuration, the serving model, the requests
// [SECTION] One replica's engine
// [SECTION] Statistics and the report
#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "estimate_internal.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/format.hpp"
#include "interconnect.hpp"
#include "performance.hpp"
#include "serving.hpp"
#include "simulation_internal.hpp"

namespace gpusizer {

namespace {

using detail::ServingModel;

// ---------------------------------------------------------------------------------------------
// [SECTION] Setting up: the configuration, the serving model, the requests
// ---------------------------------------------------------------------------------------------

constexpr int kDefaultRequests = 1000;   // benchmark_serving's --num-prompts default
constexpr int kMaxRequests = 1000000;
// A run that has not finished after this many engine steps is cut short (a warning says so):
// 10,000 requests of 100,000 output tokens one at a time would be 1e9 steps.
constexpr long long kMaxSteps = 50000000;

struct Request {
    double arrival = 0;
    long long in = 0, out = 0;   // prompt and output tokens
    long long cached = 0;   // prompt tokens found in the prefix cache: their KV is there, not computed
    long long to_compute = 0;   // tokens to prefill before the next token (the prompt; after a preemption, what it had)
    long long computed = 0;   // of to_compute
    long long generated = 0;
    long long kv = 0;   // tokens whose KV the request holds
    double first = -1, done = -1;
    bool rejected = false;
};

// One engine step's time series point, before the slices are averaged.
struct RawSample {
    double t = 0, dt = 0;
    int running = 0, waiting = 0;
    double kv_used = 0;   // fraction of the pool
};

// ---------------------------------------------------------------------------------------------
// [SECTION] One replica's engine
// ---------------------------------------------------------------------------------------------

struct ReplicaResult {
    long long steps = 0, preemptions = 0;
    bool cut_short = false;
};

// What a step gives one running request.
struct Scheduled {
    int req = 0;
    long long tokens = 0;
    bool prefill = false;
};

class Replica {
public:
    Replica(const ServingModel& m, std::vector<Request>& reqs, std::vector<int> mine, std::vector<RawSample>& samples, std::size_t limit)
        : m_(m), reqs_(reqs), mine_(std::move(mine)), samples_(samples), limit_(limit) {
        budget_ = m.token_budget > 0 ? (long long)m.token_budget : std::numeric_limits<long long>::max();
        max_seqs_ = m.max_sequences > 0 ? std::size_t(m.max_sequences) : std::numeric_limits<std::size_t>::max();
        pool_ = m.fixed_slots ? std::numeric_limits<double>::infinity() : m.kv_pool_bytes;
    }

    ReplicaResult run(long long step_limit) {
        ReplicaResult res;
        std::size_t next = 0;   // the next of mine_ to arrive
        double now = 0;
        std::vector<Scheduled> step;
        step.reserve(256);
        while (next < mine_.size() || !waiting_.empty() || !running_.empty()) {
            if (waiting_.empty() && running_.empty())
                now = std::max(now, reqs_[std::size_t(mine_[next])].arrival);   // idle until the next arrival
            // Arrivals join the queue at their own time (a request that arrived during a step waits
            // for it, and that wait counts). A client that keeps at most `limit_` requests
            // outstanding (benchmark_serving's --max-concurrency semaphore) sends the next one when
            // a slot frees, at a step's end: a request held back that long is timed from then.
            while (next < mine_.size() && reqs_[std::size_t(mine_[next])].arrival <= now && waiting_.size() + running_.size() < limit_) {
                Request& r = reqs_[std::size_t(mine_[next])];
                r.arrival = std::max(r.arrival, slot_freed_);
                waiting_.push_back(mine_[next++]);
            }
            if (waiting_.size() + running_.size() >= limit_) full_ = true;
            if (res.steps >= step_limit) {
                res.cut_short = true;
                break;
            }
            step.clear();
            long long budget = budget_;
            // The running requests first, in the order they were admitted.
            for (std::size_t i = 0; i < running_.size() && budget > 0; ++i) {
                const int id = running_[i];
                Request& r = reqs_[std::size_t(id)];
                const bool prefill = r.computed < r.to_compute;
                const long long n = prefill ? std::min(r.to_compute - r.computed, budget) : 1;
                // Room in the pool for its new tokens, preempting from the back; when it is the last
                // one left to preempt, it goes itself (those before it already have their tokens).
                bool self = false;
                while (!fits(r.kv + n, r.kv) && !self) {
                    self = running_.size() - 1 == i;
                    preempt(running_.size() - 1);
                }
                if (self) break;
                grow(r, r.kv + n);
                step.push_back({id, n, prefill});
                budget -= n;
            }
            const bool preempted = preemptions_ > 0;
            res.preemptions += preemptions_;
            preemptions_ = 0;
            // Then the waiting ones, if no request was preempted: each with its cached prefix (the
            // prefix cache's blocks) and its first chunk.
            while (!preempted && !waiting_.empty() && running_.size() < max_seqs_ && budget > 0) {
                const int id = waiting_.front();
                Request& r = reqs_[std::size_t(id)];
                const long long n = std::min(r.to_compute, budget);
                if (!fits(r.cached + n, 0)) break;
                waiting_.pop_front();
                running_.push_back(id);
                grow(r, r.cached + n);
                step.push_back({id, n, true});
                budget -= n;
            }
            if (step.empty()) {
                // Nothing could run: a request alone larger than the pool (simulate() rejects those
                // before they arrive), kept from looping.
                if (!waiting_.empty() && running_.empty()) {
                    reqs_[std::size_t(waiting_.front())].rejected = true;
                    waiting_.pop_front();
                    continue;
                }
                if (waiting_.empty() && running_.empty()) continue;
                res.cut_short = true;
                break;
            }
            // The step's work: decoding sequences at their mean cache length, prompt tokens at the
            // mean position they attend to (a chunk from position a attends to a + (n + 1) / 2 on
            // average; serving_step_seconds takes it as (isl + 1) / 2).
            double decode = 0, prefill = 0, decode_len = 0, attend = 0;
            for (const Scheduled& s : step) {
                const Request& r = reqs_[std::size_t(s.req)];
                if (s.prefill) {
                    prefill += double(s.tokens);
                    const double start = double(r.kv - s.tokens);
                    attend += double(s.tokens) * (start + (double(s.tokens) + 1.0) / 2.0);
                } else {
                    decode += 1;
                    decode_len += double(r.kv);
                }
            }
            const double length = decode > 0 ? decode_len / decode : 0.0;
            const double isl_eff = prefill > 0 ? 2.0 * attend / prefill - 1.0 : 0.0;
            // A pipelined engine keeps pp batches in the stages: a step carries one through them
            // while each request still gets a token per step (serving_at's batch = running / pp).
            const double split = m_.pipelined ? double(m_.pp) : 1.0;
            const double dt = detail::serving_step_seconds(m_, decode / split, prefill / split, length, std::max(isl_eff, 1.0));
            samples_.push_back(
                {now, dt, int(running_.size()), int(waiting_.size()), pool_ > 0 && std::isfinite(pool_) ? used_ / pool_ : 0.0});
            now += dt;
            ++res.steps;
            // Tokens out: a prompt's last chunk gives its next token, a decode step one each.
            bool finished = false;
            for (const Scheduled& s : step) {
                Request& r = reqs_[std::size_t(s.req)];
                if (s.prefill) {
                    r.computed += s.tokens;
                    if (r.computed < r.to_compute) continue;
                }
                ++r.generated;
                if (r.first < 0) r.first = now;
                if (r.generated >= r.out) {
                    r.done = now;
                    release(r);
                    finished = true;
                }
            }
            if (finished)
                running_.erase(std::remove_if(running_.begin(), running_.end(), [&](int id) { return reqs_[std::size_t(id)].done >= 0; }),
                               running_.end());
            if (full_ && waiting_.size() + running_.size() < limit_) {   // a slot freed now
                full_ = false;
                slot_freed_ = now;
            }
        }
        return res;
    }

private:
    double bytes(long long tokens) const { return m_.fixed_slots ? 0.0 : m_.kv_pool_seq.at(double(tokens)); }
    // Can a request holding `from` tokens' cache grow to `to`? (Relative slack for rounding.)
    bool fits(long long to, long long from) const { return used_ + bytes(to) - bytes(from) <= pool_ * (1 + 1e-12); }
    void grow(Request& r, long long to) {
        used_ += bytes(to) - bytes(r.kv);
        r.kv = to;
    }
    void release(Request& r) {
        used_ = std::max(0.0, used_ - bytes(r.kv));
        r.kv = 0;
    }
    // vLLM V1 preemption by recomputation: the request's blocks are freed and it goes back to the
    // front of the queue; readmitted, it prefills its prompt and the tokens it had generated.
    void preempt(std::size_t index) {
        const int id = running_[index];
        Request& r = reqs_[std::size_t(id)];
        release(r);
        r.to_compute = r.in - r.cached + r.generated;
        r.computed = 0;
        running_.erase(running_.begin() + std::ptrdiff_t(index));
        waiting_.push_front(id);
        ++preemptions_;
    }

    const ServingModel& m_;
    std::vector<Request>& reqs_;
    std::vector<int> mine_;
    std::vector<RawSample>& samples_;
    std::deque<int> waiting_;
    std::vector<int> running_;
    long long budget_ = 0;
    std::size_t max_seqs_ = 0;
    double pool_ = 0, used_ = 0;
    long long preemptions_ = 0;
    std::size_t limit_;   // requests outstanding at most (waiting and running)
    bool full_ = false;   // the client's slots were all taken ...
    double slot_freed_ = 0;   // ... until this step's end
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Statistics and the report
// ---------------------------------------------------------------------------------------------

// numpy.percentile's default (linear): the value at rank (n - 1) q / 100 of the sorted values,
// interpolated between its neighbours.
double percentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0.0;
    const double rank = (double(sorted.size()) - 1.0) * q / 100.0;
    const std::size_t lo = std::size_t(std::floor(rank));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - double(lo));
}

}   // namespace

LatencyStats detail::latency_stats(std::vector<double> v) {
    LatencyStats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += x;
    s.mean = sum / double(v.size());
    s.p50 = percentile(v, 50);
    s.p90 = percentile(v, 90);
    s.p99 = percentile(v, 99);
    return s;
}

namespace {

void check_options(const SimulationOptions& o) {
    if (o.requests < 0 || o.requests > kMaxRequests)
        throw_error("requests", "must be between 1 and " + format_int(kMaxRequests) + " (0: the default, 1,000)");
    if (!(o.burstiness >= 0.01 && o.burstiness <= 100))
        throw_error("burstiness", "must be between 0.01 and 100 (1: Poisson arrivals; below 1 burstier)");
    if (!(o.length_spread >= 0 && o.length_spread <= (o.lengths == LengthDistribution::uniform ? 1.0 : 3.0)))
        throw_error("length_spread", o.lengths == LengthDistribution::uniform
                                         ? "must be between 0 and 1 for uniform lengths (L(1 - s) to L(1 + s))"
                                         : "must be between 0 and 3 (the lognormal's sigma)");
    if (!(o.prefix_hit_rate >= 0 && o.prefix_hit_rate < 1)) throw_error("prefix_hit_rate", "must be at least 0 and below 1");
    if (!(o.slo_ttft_ms >= 0 && o.slo_ttft_ms <= 1e9)) throw_error("slo_ttft_ms", "must be a number of milliseconds >= 0 (0: none)");
    if (!(o.slo_tpot_ms >= 0 && o.slo_tpot_ms <= 1e9)) throw_error("slo_tpot_ms", "must be a number of milliseconds >= 0 (0: none)");
    if (o.max_concurrency < 0 || o.max_concurrency > (1 << 24))
        throw_error("max_concurrency", "must be between 0 (no limit) and 16,777,216 requests outstanding");
    if (o.timeline_points < 1 || o.timeline_points > 10000) throw_error("timeline_points", "must be between 1 and 10,000");
    if (o.percentile != 50 && o.percentile != 90 && o.percentile != 99) throw_error("percentile", "must be 50, 90 or 99");
}

}   // namespace

namespace detail {

void simulate_requests(const ServingModel& m, int dp, const std::vector<TraceRequest>& requests, const SimulationOptions& o,
                       bool context_given, SimulationReport& out) {
    double mean_request = 0;   // tokens of the mean request, for the cap on requests in flight
    for (const TraceRequest& q : requests) mean_request += double(std::max(1LL, q.input_tokens) + std::max(1LL, q.output_tokens));
    mean_request /= double(std::max<std::size_t>(1, requests.size()));
    // The requests, each to a replica in turn; one longer than the engine's context, or whose
    // whole cache one replica's pool cannot hold, is refused (vLLM rejects a prompt past
    // max_model_len; a pool that cannot hold one request would never admit it).
    std::vector<Request> reqs(requests.size());
    std::vector<std::vector<int>> mine(static_cast<std::size_t>(dp));
    const double hit = o.prefix_hit_rate;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const TraceRequest& q = requests[i];
        Request& rq = reqs[i];
        rq.arrival = q.arrival_s;
        rq.in = std::max(1LL, q.input_tokens);
        rq.out = std::max(1LL, q.output_tokens);
        // At least the prompt's last token is computed (it yields the first output token).
        rq.cached = std::min(rq.in - 1, (long long)std::floor(double(rq.in) * hit));
        rq.to_compute = rq.in - rq.cached;
        const double whole = m.fixed_slots ? 0.0 : m.kv_pool_seq.at(double(rq.in + rq.out));
        if (double(rq.in + rq.out) > m.context || whole > m.kv_pool_bytes * (1 + 1e-12)) {
            rq.rejected = true;
            continue;
        }
        mine[i % std::size_t(dp)].push_back(int(i));
    }
    std::vector<std::vector<RawSample>> samples(static_cast<std::size_t>(dp));
    long long steps_left = kMaxSteps;
    bool cut_short = false;
    for (int k = 0; k < dp; ++k) {
        // A client's limit on requests outstanding, shared out over the replicas it sends to in turn.
        const std::size_t limit = o.max_concurrency > 0 ? std::size_t((o.max_concurrency + dp - 1 - k) / dp) : std::size_t(-1);
        Replica rep(m, reqs, std::move(mine[std::size_t(k)]), samples[std::size_t(k)], std::max<std::size_t>(1, limit));
        const ReplicaResult rr = rep.run(steps_left);
        out.steps += rr.steps;
        out.preemptions += rr.preemptions;
        steps_left -= rr.steps;
        cut_short = cut_short || rr.cut_short;
    }

    // Latencies of the completed requests (benchmark_serving's definitions: TPOT excludes the first
    // token, over requests of more than one).
    std::vector<double> ttft, tpot, e2e;
    double first_arrival = std::numeric_limits<double>::infinity(), last_done = 0, out_tokens = 0, in_tokens = 0;
    long long good = 0;
    for (const Request& q : reqs) {
        ++out.requests;
        if (q.rejected) {
            ++out.rejected;
            continue;
        }
        first_arrival = std::min(first_arrival, q.arrival);
        if (q.done < 0) continue;
        ++out.completed;
        last_done = std::max(last_done, q.done);
        out_tokens += double(q.out);
        in_tokens += double(q.in);
        const double t1 = q.first - q.arrival, t2 = q.done - q.arrival;
        ttft.push_back(t1);
        e2e.push_back(t2);
        const double per = q.out > 1 ? (t2 - t1) / double(q.out - 1) : 0.0;
        if (q.out > 1) tpot.push_back(per);
        const bool ok = (o.slo_ttft_ms <= 0 || t1 * 1e3 <= o.slo_ttft_ms) && (o.slo_tpot_ms <= 0 || per * 1e3 <= o.slo_tpot_ms);
        good += ok ? 1 : 0;
    }
    out.duration_s = out.completed > 0 ? last_done - first_arrival : 0.0;
    if (out.duration_s > 0) {
        out.requests_per_s = double(out.completed) / out.duration_s;
        out.output_tokens_per_s = out_tokens / out.duration_s;
        out.input_tokens_per_s = in_tokens / out.duration_s;
        out.goodput_rps = double(good) / out.duration_s;
    }
    out.ttft_s = latency_stats(std::move(ttft));
    out.tpot_s = latency_stats(std::move(tpot));
    out.e2e_s = latency_stats(std::move(e2e));
    out.slo_ttft_ms = o.slo_ttft_ms;
    out.slo_tpot_ms = o.slo_tpot_ms;
    out.slo_attained_fraction = out.completed > 0 ? double(good) / double(out.completed) : 0.0;
    out.replicas = dp;
    {
        double cap = m.max_sequences > 0 ? m.max_sequences : std::numeric_limits<double>::infinity();
        if (!m.fixed_slots) {
            const double per = m.kv_pool_seq.at(mean_request);
            if (per > 0) cap = std::min(cap, std::floor(m.kv_pool_bytes / per));
        }
        out.max_concurrency = std::isfinite(cap) ? cap * dp : 0.0;
    }

    // The timeline: equal slices of the run, each step's state weighted by its time in the slice
    // it starts in; requests summed over the replicas, the KV share averaged.
    const int points = o.timeline_points;
    const double span = out.duration_s > 0 ? out.duration_s : 0.0;
    double busy = 0;
    if (span > 0) {
        out.timeline.resize(std::size_t(points));
        const double width = span / points;
        for (int k = 0; k < points; ++k) out.timeline[std::size_t(k)].t_s = width * k;
        for (const auto& list_k : samples)
            for (const RawSample& s : list_k) {
                const double at = s.t - first_arrival;
                const int b = std::clamp(int(at / width), 0, points - 1);
                SimulationSample& p = out.timeline[std::size_t(b)];
                p.running += s.running * s.dt / width;
                p.waiting += s.waiting * s.dt / width;
                p.kv_used_fraction += s.kv_used * s.dt / (width * dp);
                busy += s.running * s.dt;
                out.peak_kv_used_fraction = std::max(out.peak_kv_used_fraction, s.kv_used);
            }
        out.mean_running = busy / span;
    }

    if (out.rejected > 0)
        out.warnings.push_back(format_int(double(out.rejected)) + " of " + format_int(double(out.requests)) +
                               " requests were refused: longer than the engine's context (" + format_int(m.context) +
                               " tokens) or than one replica's KV pool" + (context_given ? "; raise context" : ""));
    if (cut_short)
        out.warnings.push_back("the run was cut short after " + format_int(double(out.steps)) +
                               " engine steps; fewer requests or shorter outputs simulate the rest");
}

}   // namespace detail

SimulationReport simulate(const Config& config, const Catalog& catalog, const SimulationOptions& o) {
    const auto started = std::chrono::steady_clock::now();
    check_options(o);
    if (config.mode != Mode::inference) throw_error("mode", "simulate runs inference (serving) configurations");
    if (o.max_rate) return detail::simulate_max_rate(config, catalog, o);
    // The requests: the trace's (the first `requests` of it), or drawn around isl / osl at the
    // configuration's rate.
    std::vector<TraceRequest> drawn;
    Config c = config;
    if (o.trace.empty()) {
        if (c.isl <= 0 || c.osl <= 0) throw_error("isl", "simulate needs isl and osl (the tokens of each request), or a trace");
        drawn = detail::draw_requests(o, o.requests > 0 ? o.requests : kDefaultRequests, c.request_rate, double(c.isl), double(c.osl));
    } else {
        const std::size_t n = o.requests > 0 ? std::min(o.trace.size(), std::size_t(o.requests)) : o.trace.size();
        if (n > std::size_t(kMaxRequests))
            throw_error("trace", "has more than " + format_int(kMaxRequests) + " requests; simulate a part of it");
        drawn.assign(o.trace.begin(), o.trace.begin() + std::ptrdiff_t(n));
        // The estimate's load: the trace's mean lengths, its mean rate.
        double in = 0, out = 0;
        for (const TraceRequest& q : drawn) {
            in += double(std::max(1LL, q.input_tokens));
            out += double(std::max(1LL, q.output_tokens));
        }
        c.isl = std::max(1LL, (long long)std::llround(in / double(n)));
        c.osl = std::max(1LL, (long long)std::llround(out / double(n)));
        const double span = drawn.back().arrival_s - drawn.front().arrival_s;
        c.request_rate = n > 1 && span > 0 ? double(n - 1) / span : 0.0;
        c.concurrency = 0;
    }
    // The engine takes the longest request drawn when no context is given (vLLM's max_model_len
    // up to the model's trained length); one given is the engine's, and longer requests are refused.
    long long longest = 0;
    for (const TraceRequest& q : drawn) longest = std::max(longest, std::max(1LL, q.input_tokens) + std::max(1LL, q.output_tokens));
    const bool context_given = config.context > 0;
    if (!context_given) {
        Config probe = c;
        probe.request_rate = 0;
        const detail::Resolved r0 = detail::resolve(probe, catalog);
        const long long trained = r0.arch->max_context > 0 ? r0.arch->max_context : std::numeric_limits<long long>::max();
        if (longest > r0.config->context) c.context = std::min(longest, trained);
    }
    SimulationReport out;
    out.report = estimate(c, catalog);
    if (!out.report.fits)
        throw_error("gpus", out.report.model_name + " does not fit " + std::to_string(c.gpus) + " x " + out.report.gpu_name +
                                " with this context: nothing to simulate (gpusizer estimate says what takes the memory)");
    const detail::Resolved r = detail::resolve(c, catalog);
    const ServingModel m = detail::serving_model_of(r);

    detail::simulate_requests(m, std::max(1, r.par.dp), drawn, o, context_given, out);
    out.request_rate = c.request_rate;
    const ServingReport& steady = out.report.serving;
    if (c.request_rate > 0 && steady.active && steady.bound == "overloaded")
        out.warnings.push_back(
            "requests arrive faster than the engines complete them at steady state: the queue grows through the "
            "run, and the latencies grow with the number of requests simulated");
    if (out.preemptions > 0)
        out.warnings.push_back(format_int(double(out.preemptions)) +
                               " preemptions: the KV pool filled, and running requests were evicted and recomputed");
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

}   // namespace gpusizer
