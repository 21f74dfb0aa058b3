// ui/plan_state.cpp: the Plan tab's request and row texts (plan_state.hpp).
#include "plan_state.hpp"

#include <algorithm>
#include <cstdio>

#include "gpusizer/format.hpp"

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
    const MemoryParts& m = l.report.per_gpu;
    std::vector<std::pair<double, const char*>> parts = {{m.weights, "weights"},   {m.gradients, "gradients"},
                                                         {m.optimizer, "optimizer"}, {m.activations, "activations"},
                                                         {m.overhead, "overhead"}};
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : parts) out.emplace_back(p.second, format_gib(p.first, 1));
    return out;
}

}  // namespace gpusizer::ui
