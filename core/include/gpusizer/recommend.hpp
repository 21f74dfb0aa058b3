// gpusizer/recommend.hpp: which GPUs to buy for a model and a workload, under constraints.
//
// Built on sweep(): every catalog GPU x 1..max_gpus for the query's model, workload and weight
// format. For each GPU the recommendation is the smallest count that fits and meets every
// constraint; a GPU that cannot is listed with the reasons, at the count that came closest. A
// custom GPU in the query's configuration (gpu "custom", gpusizer/custom_gpu.hpp) is one more
// candidate, after the catalog's: its row's gpu is "custom", its gpu_name the name it was given.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"

namespace gpusizer {

// cost: the GPUs' price; own / rent: what the job costs per million tokens (training: per run)
// owning the machines or renting them (gpusizer/report.hpp CostReport); unknown prices last.
enum class RecommendSort { cost, speed, power, own, rent };

struct RecommendQuery {
    Config base;                      // model, workload and weights; gpu and gpus are tried
    // The limits; none set means no limit. (The constraints JSON, the CLI flags and the app read a
    // 0 as none: limit_or_none.)
    std::optional<double> budget_usd;        // GPU prices x count must not exceed it
    std::optional<double> power_cap_w;       // the machines' draw at the wall doing the job (power.wall_w) must not exceed it
    std::optional<double> min_tokens_per_s;  // inference: decode tokens/s of one sequence; training: training tokens/s
    bool single_node = false;         // only as many GPUs as one node holds
    std::vector<Segment> segments;    // GPU classes to consider (empty = all)
    int max_gpus = 8;                 // counts tried: 1..max_gpus
    RecommendSort sort = RecommendSort::cost;
};

struct RecommendRow {
    std::string gpu;   // catalog id, or "custom" (the query's custom GPU)
    std::string gpu_name;
    Segment segment = Segment::consumer;
    int gpus = 1;
    std::string weights;
    bool fits = false;                // memory fits at this count
    double per_gpu_total = 0;         // bytes on the most loaded GPU
    double gpu_usable = 0;            // bytes usable per GPU
    double headroom = 0;
    bool price_known = false;
    double price_usd = 0;             // GPU prices x count (0 when unknown)
    double tokens_per_s = 0;          // the speed the constraint and the "speed" sort use
    double decode_tokens_per_s = 0;   // inference, one sequence
    double train_tokens_per_s = 0;    // training
    double system_w = 0;              // GPUs + hosts at the configuration's utilization (ratings)
    double wall_w = 0;                // the machines at the plug doing the job (power.wall_w)
    // What the job costs at this count (recommended rows only; CostReport): per million tokens,
    // per run in training; 0 with the *_known flag false when a price is missing.
    bool own_known = false, rent_known = false;
    double own_usd = 0;               // owning: hardware over its lifetime + electricity
    double rent_usd = 0;              // renting
    double electricity_usd = 0;
    double buy_break_even_months = 0; // 0: not known, or never
    double psu_w = 0;                 // per node
    std::string link;                 // intra-node link
    int nodes = 1;
    std::vector<std::string> reasons; // why it is rejected (empty for a recommendation)
    bool other_segment = false;       // rejected only because its class is not in query.segments
};

struct Recommendation {
    RecommendQuery query;
    std::string weights;              // the weight format tried
    bool training = false;            // tokens_per_s is training throughput
    std::vector<RecommendRow> recommended;   // sorted by query.sort
    std::vector<RecommendRow> rejected;      // every other GPU, with its reasons
};

// Throws Error for a base configuration that cannot be evaluated at all (unknown model, ...).
Recommendation recommend(const RecommendQuery& query, const Catalog& catalog, const GpuOverlay* measured = nullptr);

// A limit as the constraints JSON, the CLI and the app give it: 0 means no limit.
inline std::optional<double> limit_or_none(double v) { return v != 0 ? std::optional<double>(v) : std::nullopt; }

std::string_view to_string(RecommendSort s);
RecommendSort parse_recommend_sort(std::string_view s);   // cost | speed | power; throws Error("sort", ...)
Segment parse_segment(std::string_view s);                 // consumer | workstation | datacenter | apple; throws Error("segment", ...)

}  // namespace gpusizer
