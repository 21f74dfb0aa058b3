// ui/view_plan.cpp: the Plan tab: the training layout search (gpusizer/plan.hpp) for the current
// model, GPU and GPU count. Its fields and texts are in plan_state.cpp (tested without ImGui);
// this file draws them. The search runs when the button is pressed, never per frame.
// (One file per view, as Tracy's server splits its View; the App and its frame are in app.cpp.)
#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "gpusizer/error.hpp"
#include "plan_state.hpp"
#include "theme.hpp"
#include "view_plan.hpp"

namespace gpusizer::ui {

namespace {

struct PlanView {
    PlanInputs inputs;
    bool has_result = false;
    PlanReport result;
    std::string error;
    std::string searched_for;   // the model, GPU and count the result is for
};

PlanView& view() {
    static PlanView v;
    return v;
}

}  // namespace

void draw_plan_tab(const Config& current, const Catalog& catalog) {
    PlanView& v = view();
    PlanInputs& in = v.inputs;
    ImGui::PushTextWrapPos(0.0f);   // the texts of this tab wrap at the window's edge
    ImGui::TextDisabled("The fastest training layouts of %s on %d x %s that fit: tp, pp, dp with ZeRO, ep, micro-batch, "
                        "pipeline schedule, recomputation and offload.",
                        current.model.custom ? "this model" : current.model.id.c_str(), current.gpus, current.gpu.c_str());
    ImGui::PopTextWrapPos();
    const float w = ImGui::GetFontSize() * 7.0f;
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("global batch", &in.global_batch, 8, 64);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("sequences per optimizer step, all GPUs (0: the configuration's)");
    in.global_batch = std::clamp(in.global_batch, 0, 1 << 24);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("top", &in.top, 1, 5);
    in.top = std::clamp(in.top, 1, 100);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("max micro-batch", &in.max_micro_batch, 1, 8);
    in.max_micro_batch = std::clamp(in.max_micro_batch, 1, 4096);
    ImGui::SetNextItemWidth(w);
    float tokens = float(in.tokens_billions);
    if (ImGui::DragFloat("tokens (billions)", &tokens, 10.0f, 0.0f, 1e6f, tokens > 0 ? "%.0f" : "none"))
        in.tokens_billions = std::clamp(double(tokens), 0.0, 1e6);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("D: the tokens of the run, for its time and cost (0: not asked)");
    ImGui::SameLine();
    ImGui::Checkbox("offload", &in.offload);
    ImGui::SameLine();
    ImGui::Checkbox("expert parallel", &in.expert_parallel);
    ImGui::SameLine(0, 18);
    if (ImGui::Button("Search layouts")) {
        v.error.clear();
        v.has_result = false;
        try {
            v.result = plan(plan_request(current, in), catalog);
            v.has_result = true;
            char buf[200];
            std::snprintf(buf, sizeof buf, "%s on %d x %s", current.model.custom ? "custom model" : current.model.id.c_str(), current.gpus,
                          current.gpu.c_str());
            v.searched_for = buf;
        } catch (const Error& e) {
            v.error = e.what();
        }
    }
    if (!v.error.empty()) {
        ImGui::TextColored(to_vec4(kNoFitColor), "%s", v.error.c_str());
        return;
    }
    if (!v.has_result) {
        ImGui::TextDisabled("Press \"Search layouts\" to run the search.");
        return;
    }
    const PlanReport& p = v.result;
    ImGui::Text("%s: %lld layouts evaluated, %lld fit, %.3f s", v.searched_for.c_str(), p.evaluated, p.fitting, p.seconds);
    if (p.top.empty()) {
        ImGui::TextColored(to_vec4(kNoFitColor), "No layout fits: more GPUs, a smaller global batch or context.");
        return;
    }
    const bool run = p.tokens > 0;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("plan", run ? 9 : 8, flags)) {
        ImGui::TableSetupColumn("layout", ImGuiTableColumnFlags_WidthStretch, 7.0f);   // the longest cell
        for (const char* h : {"step", "compute", "bubble", "exposed comm", "MFU", "HFU", "GiB/GPU"})
            ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_None, 1.0f);
        if (run) ImGui::TableSetupColumn("run", ImGuiTableColumnFlags_None, 1.6f);
        ImGui::TableHeadersRow();
        for (std::size_t i = 0; i < p.top.size(); ++i) {
            const PlanRowText t = plan_row_text(p.top[i]);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(int(i));
            const bool open = ImGui::TreeNodeEx("##row", ImGuiTreeNodeFlags_SpanFullWidth, "%d. %s", int(i + 1), t.layout.c_str());
            for (const std::string* cell : {&t.step, &t.compute, &t.bubble, &t.exposed, &t.mfu, &t.hfu, &t.memory}) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(cell->c_str());
            }
            if (run) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(t.run.c_str());
            }
            if (open) {
                // The memory breakdown of this layout, largest first.
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                std::string parts;
                for (const auto& m : plan_memory_parts(p.top[i])) parts += (parts.empty() ? "" : ", ") + m.first + " " + m.second;
                ImGui::TextDisabled("memory per GPU: %s", parts.c_str());
                ImGui::TreePop();
            }
            ImGui::PopID();   // after the tree node's own ID (TreePop) is off the stack
        }
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    if (!p.why.empty()) {
        ImGui::Separator();
        ImGui::TextUnformatted("Why #1 beats #2");
        for (const std::string& line : p.why) {
            ImGui::Bullet();
            ImGui::TextWrapped("%s", line.c_str());
        }
    }
    if (run && !p.top[0].run.cost_note.empty()) ImGui::TextDisabled("cost: %s", p.top[0].run.cost_note.c_str());
    for (const std::string& n : p.not_searched) ImGui::TextDisabled("not searched: %s", n.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace gpusizer::ui
