// ui/recommend_state.cpp: the Recommend tab's query, filter and sort (state.hpp).
#include "state.hpp"

#include "gpusizer/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::ui {

bool any_segment(const RecommendInputs& in) {
    return in.segments[0] || in.segments[1] || in.segments[2] || in.segments[3];
}

RecommendQuery recommend_query(const UiState& s) {
    RecommendQuery q;
    q.base = s.config;
    q.base.tp = q.base.pp = q.base.dp = q.base.ep = 0;   // each GPU count gets its own split
    q.base.link.clear();                                 // each GPU its own link
    const RecommendInputs& in = s.recommend;
    q.budget_usd = in.budget_usd;   // limit_drag keeps each positive or none
    q.power_cap_w = in.power_cap_w;
    q.min_tokens_per_s = in.min_tokens_per_s;
    q.single_node = in.single_node;
    q.max_gpus = std::clamp(in.max_gpus, 1, 1024);
    const Segment segs[4] = {Segment::consumer, Segment::workstation, Segment::datacenter, Segment::apple};
    bool all = true;
    for (int i = 0; i < 4; ++i) all = all && in.segments[i];
    if (!all)
        for (int i = 0; i < 4; ++i)
            if (in.segments[i]) q.segments.push_back(segs[i]);
    return q;
}

bool filter_matches(const std::string& filter, const std::string& a, const std::string& b) {
    // Token by token (QA E13): "qwen2.5 7b" finds Qwen2.5-7B, "gpt oss" gpt-oss-20b. The search
    // splits at spaces and hyphens; every token must be in `a`, or every token in `b`, whatever
    // the case.
    auto lower = [](std::string s) {
        for (char& c : s) c = char(std::tolower((unsigned char)c));
        return s;
    };
    std::vector<std::string> tokens;
    std::string cur;
    for (char ch : filter) {
        if (ch == ' ' || ch == '-' || ch == '\t') {
            if (!cur.empty()) tokens.push_back(lower(cur));
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (!cur.empty()) tokens.push_back(lower(cur));
    if (tokens.empty()) return true;
    auto all_in = [&](const std::string& text) {
        const std::string t = lower(text);
        for (const std::string& k : tokens)
            if (t.find(k) == std::string::npos) return false;
        return true;
    };
    return all_in(a) || all_in(b);
}

void sort_recommendations(std::vector<RecommendRow>& rows, RecommendColumn column, bool ascending) {
    // The figure a row is sorted by, and whether it has one.
    auto key = [column](const RecommendRow& r, double& v) {
        switch (column) {
            case RecommendColumn::gpu: return false;   // by name, below
            case RecommendColumn::gpus: v = r.gpus; return true;
            case RecommendColumn::per_gpu: v = r.per_gpu_total; return true;
            case RecommendColumn::price: v = r.price_usd; return r.price_known;
            case RecommendColumn::tokens_per_s: v = r.tokens_per_s; return r.tokens_per_s > 0;
            case RecommendColumn::power: v = r.wall_w; return r.wall_w > 0;
            case RecommendColumn::link: return false;
            case RecommendColumn::own: v = r.own_usd; return r.own_known;
            case RecommendColumn::rent: v = r.rent_usd; return r.rent_known;
        }
        return false;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const RecommendRow& a, const RecommendRow& b) {
        if (column == RecommendColumn::gpu || column == RecommendColumn::link) {
            const std::string& x = column == RecommendColumn::gpu ? a.gpu_name : a.link;
            const std::string& y = column == RecommendColumn::gpu ? b.gpu_name : b.link;
            return ascending ? x < y : y < x;
        }
        double va = 0, vb = 0;
        const bool ha = key(a, va), hb = key(b, vb);
        if (ha != hb) return ha;   // rows with the figure first, whatever the direction
        if (!ha) return false;
        return ascending ? va < vb : vb < va;
    });
}

}  // namespace gpusizer::ui
