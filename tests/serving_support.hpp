// serving_support.hpp: the serving models the serving and simulation tests share: one built from
// a configuration as estimate() builds it, and a hand-made one whose steps are worked out by hand.
#pragma once

#include <algorithm>
#include <cmath>

#include "estimate_internal.hpp"
#include "performance.hpp"
#include "serving.hpp"
#include "test_support.hpp"

namespace gpusizer::test {

// The serving model of a configuration, built as estimate() builds it.
inline detail::ServingModel serving_model_of(const Config& c) { return detail::serving_model_of(detail::resolve(c, catalog())); }

// The hand model's weights term: its GEMMs read 16e9 B at 2 TB/s (8 ms) and do 16 GFLOP per
// token at 1 PFLOP/s, on the smooth roofline (performance.hpp, gemm_roofline_seconds, tested
// alone in test_speed.cpp): max x (1 + (min / max)^2.5)^(1 / 2.5).
inline double hand_smooth_s(double mem, double comp) {
    const double hi = std::max(mem, comp), lo = std::min(mem, comp);
    return hi * std::pow(1.0 + std::pow(lo / hi, 2.5), 1.0 / 2.5);
}
inline double hand_weights_s(double tokens) { return hand_smooth_s(16e9 / 2e12, 16e9 * tokens / 1e15); }

// A hand-made step: 16 GB of weights at 2 TB/s (8 ms), 16 GFLOP per token at 1 PFLOP/s, 128 KiB
// of KV per token, no attention FLOPs, no sampling, no links, no per-forward overhead; a pool of
// exactly 100 requests of 2,001 tokens; a budget of 8,192 tokens per step.
inline detail::ServingModel hand_model() {
    detail::ServingModel m;
    m.dense_bytes = 16e9;
    m.eff_bandwidth = 2e12;
    m.flops_per_token = 16e9;
    m.eff_flops = 1e15;
    m.kv_read.full_rate = 131072;
    m.kv_pool_seq.full_rate = 131072;
    m.kv_pool_bytes = 100.0 * 2001 * 131072;
    m.token_budget = 8192;
    m.context = 2001;
    return m;
}

}   // namespace gpusizer::test
