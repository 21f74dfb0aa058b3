// ui/view_plan.cpp: the Plan tab: the layout searches of gpusizer/plan.hpp for the current model,
// GPU and GPU count, training layouts or serving layouts (with the Pareto front of tokens/s per
// GPU against tokens/s per user as a chart). Its fields, texts and the chart's axes are in
// plan_state.cpp (tested without ImGui); this file draws them. A search runs when its button is
// pressed, never per frame.
// (One file per view, as Tracy's server splits its View; the App and its frame are in app.cpp.)
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include <imgui.h>

#include "gpusizer/error.hpp"
#include "gpusizer/format.hpp"
#include "gpusizer/uncertainty.hpp"
#include "i18n.hpp"
#include "plan_state.hpp"
#include "theme.hpp"
#include "view_plan.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

namespace {

struct PlanView {
    PlanInputs inputs;
    bool kind_chosen = false;   // until the switch is used, the tab follows the configuration's mode
    bool has_result = false;
    PlanReport result;
    std::string error;
    std::string searched_for;   // the model, GPU and count the result is for
    // The serving search: its own result, kept while the tab shows the training one.
    bool has_serving = false;
    PlanReport serving;
    PlanRequest serving_request;   // what it searched (the load and targets shown with it)
    std::string serving_error;
    std::string serving_for;
    // Each search in brief (shown_plan_summary()), set when it runs.
    std::optional<PlanSummary> summary, serving_summary;
    // request_plan_search(): a press of the shown search's button, and targets to set before it.
    bool search_asked = false;
    double asked_ttft_ms = 0, asked_tpot_ms = 0;
};

PlanView& view() {
    static PlanView v;
    return v;
}

std::string model_name(const Config& c) { return c.model.custom ? tr("this model") : c.model.id; }

// A checkbox beside the fields before it while the line has room; `label` in English (its ID),
// shown in the app's language.
bool checkbox_beside(const char* label, bool* value) {
    beside_if_fits(checkbox_width(tr(label)));
    return ImGui::Checkbox(tr_label(label), value);
}

// What a search is for: "llama-3-8b on 8 x h100-sxm" (serving: "on up to"), and whether a
// benchmark report's figures stand in for the GPU's datasheet.
// The GPU a search is for: its catalog id, or a custom GPU's name.
std::string gpu_label(const Config& c) {
    if (c.gpu != kCustomGpuId) return c.gpu;
    const CustomGpu::Value* name = c.custom_gpu.find("name");
    return name && !name->text.empty() ? name->text : strf(tr("custom %s"), c.custom_gpu.base.c_str());
}

// `up_to`: the serving search's "on up to N x GPU", else "on N x GPU".
std::string searched_for(const Config& c, const GpuOverlay* measured, bool up_to) {
    std::string s = strf(up_to ? tr("%s on up to %d x %s") : tr("%s on %d x %s"), model_name(c).c_str(), c.gpus, gpu_label(c).c_str());
    if (measured && measured->find(c.gpu == kCustomGpuId ? c.custom_gpu.base : c.gpu)) s += tr(" (measured figures)");
    return s;
}

// A search that threw, in brief: its mode and the error.
PlanSummary failed(PlanMode mode, const std::string& error) {
    PlanSummary s;
    s.mode = mode;
    s.error = error;
    return s;
}

using Note = std::function<void(const char*)>;
// The search button at the end of the inputs' line, recorded in the layout as `name`; `label`
// in English (its ID), shown in the app's language.
bool search_button(const char* label, const char* name, const Note& note) {
    beside_if_fits(button_width(tr(label)), 18);
    const bool pressed = ImGui::Button(tr_label(label));
    note(name);
    return pressed;
}
void draw_training(PlanView& v, const Config& current, const Catalog& catalog, const GpuOverlay* measured, const Note& note);
void draw_serving(PlanView& v, const Config& current, const Catalog& catalog, const GpuOverlay* measured, const Note& note);

}  // namespace

void request_plan_search(double max_ttft_ms, double max_tpot_ms) {
    PlanView& v = view();
    v.search_asked = true;
    v.asked_ttft_ms = max_ttft_ms;
    v.asked_tpot_ms = max_tpot_ms;
}

void draw_load_fields(const Config& current, PlanInputs& in, float w) {
    const ServingLoad load = serving_load(current, in);
    long long isl = load.isl, osl = load.osl;
    const long long step = 128, fast = 1024;
    ImGui::SetNextItemWidth(stepper_item_width(w));
    if (ImGui::InputScalar(tr_label("input tokens"), ImGuiDataType_S64, &isl, &step, &fast)) in.isl = std::clamp(isl, 1LL, 100000000LL);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("per request: the prompt (isl)"));
    beside_if_fits(stepper_width(w, tr("output tokens")));
    ImGui::SetNextItemWidth(stepper_item_width(w));
    if (ImGui::InputScalar(tr_label("output tokens"), ImGuiDataType_S64, &osl, &step, &fast)) in.osl = std::clamp(osl, 1LL, 100000000LL);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("per request: the generated tokens (osl)"));
    const std::string source = "(" + std::string(tr(load.source)) + ")";
    beside_if_fits(ImGui::CalcTextSize(source.c_str()).x);
    ImGui::AlignTextToFramePadding();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", source.c_str());
    ImGui::PopTextWrapPos();
}

void draw_plan_tab(const Config& current, const std::string& link, const Catalog& catalog, const GpuOverlay* measured,
                   const Note& note_item) {
    PlanView& v = view();
    if (v.search_asked) {   // the targets first, so that the fields show what the search uses
        if (v.asked_ttft_ms > 0) v.inputs.max_ttft_ms = v.asked_ttft_ms;
        if (v.asked_tpot_ms > 0) v.inputs.max_tpot_ms = v.asked_tpot_ms;
        v.asked_ttft_ms = v.asked_tpot_ms = 0;
    }
    if (!v.kind_chosen) v.inputs.kind = current.mode == Mode::inference ? PlanKind::serving : PlanKind::training;
    int kind = int(v.inputs.kind);
    v.kind_chosen |= ImGui::RadioButton(tr_label("training layouts"), &kind, int(PlanKind::training));
    note_item("training layouts switch");
    beside_if_fits(checkbox_width(tr("serving layouts")));
    v.kind_chosen |= ImGui::RadioButton(tr_label("serving layouts"), &kind, int(PlanKind::serving));
    note_item("serving layouts switch");
    beside_if_fits(checkbox_width(tr("request simulation")));
    v.kind_chosen |= ImGui::RadioButton(tr_label("request simulation"), &kind, int(PlanKind::simulation));
    note_item("request simulation switch");
    v.inputs.kind = PlanKind(kind);
    if (v.inputs.kind == PlanKind::serving) draw_serving(v, current, catalog, measured, note_item);
    else if (v.inputs.kind == PlanKind::simulation) draw_simulation(current, link, catalog, v.inputs, note_item);
    else draw_training(v, current, catalog, measured, note_item);
}

void show_plan_kind(PlanKind kind) {
    view().inputs.kind = kind;
    view().kind_chosen = true;
}

const PlanSummary* shown_plan_summary() {
    const PlanView& v = view();
    if (v.inputs.kind == PlanKind::simulation) return nullptr;
    const std::optional<PlanSummary>& s = v.inputs.kind == PlanKind::serving ? v.serving_summary : v.summary;
    return s ? &*s : nullptr;
}

namespace {

void draw_training(PlanView& v, const Config& current, const Catalog& catalog, const GpuOverlay* measured, const Note& note) {
    PlanInputs& in = v.inputs;
    ImGui::PushTextWrapPos(0.0f);   // the texts of this tab wrap at the window's edge
    ImGui::TextDisabled(
        tr("The fastest training layouts of %s on %d x %s that fit: tp, pp, dp with ZeRO, ep, micro-batch, pipeline schedule, recomputation and offload."),
        model_name(current).c_str(), current.gpus, current.gpu.c_str());
    ImGui::PopTextWrapPos();
    const float w = ImGui::GetFontSize() * 7.0f;
    ImGui::SetNextItemWidth(stepper_item_width(w));
    ImGui::InputInt(tr_label("global batch"), &in.global_batch, 8, 64);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("sequences per optimizer step, all GPUs (0: the configuration's)"));
    in.global_batch = std::clamp(in.global_batch, 0, 1 << 24);
    beside_if_fits(stepper_width(w, tr("top")));
    ImGui::SetNextItemWidth(stepper_item_width(w));
    ImGui::InputInt(tr_label("top"), &in.top, 1, 5);
    in.top = std::clamp(in.top, 1, 100);
    beside_if_fits(stepper_width(w, tr("max micro-batch")));
    ImGui::SetNextItemWidth(stepper_item_width(w));
    ImGui::InputInt(tr_label("max micro-batch"), &in.max_micro_batch, 1, 8);
    in.max_micro_batch = std::clamp(in.max_micro_batch, 1, 4096);
    ImGui::SetNextItemWidth(w);
    float tokens = float(in.tokens_billions);
    if (ImGui::DragFloat(tr_label("tokens (billions)"), &tokens, 10.0f, 0.0f, 1e6f, tokens > 0 ? "%.0f" : tr("none")))
        in.tokens_billions = std::clamp(double(tokens), 0.0, 1e6);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("D: the tokens of the run, for its time and cost (0: not asked)"));
    checkbox_beside(tr_later("offload"), &in.offload);
    checkbox_beside(tr_later("expert parallel"), &in.expert_parallel);
    const bool search = search_button(tr_later("Search layouts"), "search layouts button", note) || std::exchange(v.search_asked, false);
    if (search) {
        v.error.clear();
        v.has_result = false;
        try {
            const PlanRequest q = plan_request(current, in);
            v.result = plan(q, catalog, measured);
            v.has_result = true;
            v.searched_for = searched_for(current, measured, false);
            v.summary = plan_summary(v.result, q);
        } catch (const Error& e) {
            v.error = e.what();
            v.summary = failed(PlanMode::train, v.error);
        }
    }
    if (!v.error.empty()) {
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", v.error.c_str());
        return;
    }
    if (!v.has_result) {
        ImGui::TextDisabled(tr("Press \"%s\" to run the search."), tr("Search layouts"));
        return;
    }
    const PlanReport& p = v.result;
    ImGui::Text(tr("%s: %s layouts evaluated, %s fit, %s s"), v.searched_for.c_str(), format_int(double(p.evaluated)).c_str(),
                format_int(double(p.fitting)).c_str(), format_fixed(p.seconds, 3).c_str());
    if (p.top.empty()) {
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", training_verdict_text(p).c_str());
        return;
    }
    const bool run = p.tokens > 0;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("plan", run ? 9 : 8, flags)) {
        ImGui::TableSetupColumn(tr("layout"), ImGuiTableColumnFlags_WidthStretch, 7.0f);   // the longest cell
        for (const char* h : {tr_later("step"), tr_later("compute"), tr_later("bubble"), tr_later("exposed comm"), "MFU", "HFU", "GiB/GPU"})
            ImGui::TableSetupColumn(tr(h), ImGuiTableColumnFlags_None, 1.0f);
        if (run) ImGui::TableSetupColumn(tr("run"), ImGuiTableColumnFlags_None, 1.6f);
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
                ImGui::TextDisabled(tr("memory per GPU: %s"), parts.c_str());
                ImGui::TreePop();
            }
            ImGui::PopID();   // after the tree node's own ID (TreePop) is off the stack
        }
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    if (!p.why.empty()) {
        ImGui::Separator();
        ImGui::TextUnformatted(tr("Why #1 beats #2"));
        for (const std::string& line : p.why) {
            ImGui::Bullet();
            text_wrapped_at_spaces(line);
        }
    }
    if (run && !p.top[0].run.cost_note.empty()) ImGui::TextDisabled(tr("cost: %s"), p.top[0].run.cost_note.c_str());
    for (const std::string& n : p.not_searched) ImGui::TextDisabled(tr("not searched: %s"), n.c_str());
    ImGui::PopTextWrapPos();
}

// ---------------------------------------------------------------------------------------------
// Serving layouts
// ---------------------------------------------------------------------------------------------

ImU32 with_alpha(ImU32 c, int alpha) { return (c & ~IM_COL32_A_MASK) | (ImU32(alpha) << IM_COL32_A_SHIFT); }

std::string point_summary(const PlanPoint& p) {
    const ServingRowText t = serving_row_text(p);
    std::string s = strf(
        tr("tp %s pp %s dp %s ep %s, %s requests in flight\n%s tokens/s per GPU, %s tokens/s per user\nTTFT %s, TPOT %s, %s per GPU, bound: %s"),
        t.tp.c_str(), t.pp.c_str(), t.dp.c_str(), t.ep.c_str(), t.concurrency.c_str(), t.per_gpu.c_str(), t.per_user.c_str(),
        t.ttft.c_str(), t.tpot.c_str(), t.memory.c_str(), bound_text(t.bound).c_str());
    if (!t.note.empty()) s += "\n" + t.note;
    return s;
}

// The Pareto front as a chart: x = output tokens/s per user, y = output tokens/s per GPU (both
// from 0, pareto_chart() chooses the axes), the front as a line through its points, the best
// point under the targets ringed in the accent colour, the TPOT target as a dashed line at the
// speed per user it asks. Hovering a point shows its layout.
void pareto_chart_view(const PlanReport& p, const PlanRequest& q, float height) {
    const ParetoChart c = pareto_chart(p, q);
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 1.0f), height);
    ImGui::InvisibleButton("##pareto", size);
    const bool hovered = ImGui::IsItemHovered();
    const float lh = ImGui::GetTextLineHeight();
    // An outline, not a fill (as charts.cpp: a fill this size is costly on a software rasterizer).
    dl->AddRect(p0, ImVec2(p0.x + size.x, p0.y + size.y), pal.chart_frame, 4.0f);
    // The left margin holds the widest y label.
    float label_w = 0;
    for (int i = 0; i * c.y.step <= c.y.max * (1 + 1e-9); ++i)
        label_w = std::max(label_w, ImGui::CalcTextSize(axis_label(i * c.y.step, c.y.step).c_str()).x);
    // The top margin holds the y axis's name above the top tick's label; the bottom margin the x
    // labels and the x axis's name under them.
    const ImVec2 a(p0.x + label_w + lh * 0.9f, p0.y + lh * 1.9f);
    const ImVec2 b(p0.x + size.x - lh * 1.2f, p0.y + size.y - lh * 2.9f);
    if (b.x <= a.x + lh * 4 || b.y <= a.y + lh * 3) return;
    auto at = [&](ChartPoint v) {
        const ChartPoint s = c.to_screen(v, a.x, a.y, b.x, b.y);
        return ImVec2(float(s.x), float(s.y));
    };
    for (int i = 0; i * c.y.step <= c.y.max * (1 + 1e-9); ++i) {
        const double g = i * c.y.step;
        const float y = at({0, g}).y;
        dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), pal.grid);
        const std::string s = axis_label(g, c.y.step);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        dl->AddText(ImVec2(a.x - ts.x - 6, y - ts.y * 0.5f), pal.text_muted, s.c_str());
    }
    for (int i = 0; i * c.x.step <= c.x.max * (1 + 1e-9); ++i) {
        const double g = i * c.x.step;
        const float x = at({g, 0}).x;
        dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), pal.grid_minor);
        const std::string s = axis_label(g, c.x.step);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        dl->AddText(ImVec2(std::min(x - ts.x * 0.5f, p0.x + size.x - ts.x - 4), b.y + lh * 0.4f), pal.text_muted, s.c_str());
    }
    dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), pal.chart_frame);
    dl->AddLine(ImVec2(a.x, a.y), ImVec2(a.x, b.y), pal.chart_frame);
    dl->AddText(ImVec2(p0.x + 6, p0.y + 4), pal.text_muted, tr("output tokens/s per GPU"));
    {
        const char* name = tr("output tokens/s per user (1 / TPOT)");
        const ImVec2 ts = ImGui::CalcTextSize(name);
        dl->AddText(ImVec2((a.x + b.x - ts.x) * 0.5f, b.y + lh * 1.5f), pal.text_muted, name);
    }
    // The TPOT target: points left of the line are slower per user than it allows.
    if (c.min_per_user > 0 && c.min_per_user <= c.x.max) {
        const float x = at({c.min_per_user, 0}).x;
        for (float y = a.y; y < b.y; y += 9) dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 5, b.y)), pal.warning, 1.5f);
        const std::string target = "TPOT <= " + ms_text(q.max_tpot_ms);
        const char* s = target.c_str();
        const ImVec2 ts = ImGui::CalcTextSize(s);
        // At the bottom right of the line: the front is high where it is slow per user, so the
        // best point (often right at the line) and the front stay clear of the label.
        const float tx = x + 5 + ts.x <= b.x ? x + 5 : x - 5 - ts.x;
        dl->AddText(ImVec2(tx, b.y - ts.y - 4), pal.warning, s);
    }
    // The front.
    const ImU32 line = pal.total_series;
    for (std::size_t i = 1; i < c.front.size(); ++i) dl->AddLine(at(c.front[i - 1]), at(c.front[i]), line, 2.0f);
    for (const ChartPoint& f : c.front) dl->AddCircleFilled(at(f), 3.5f, line);
    // The best point under the targets, and its figures beside it.
    if (c.has_best) {
        const ImVec2 s = at(c.best);
        dl->AddCircle(s, 8.0f, pal.accent, 0, 2.5f);
        dl->AddCircleFilled(s, 4.0f, pal.accent);
        const std::string label =
            strf(tr("best: %s tokens/s per GPU at %s per user"), format_rate(c.best.y).c_str(), format_rate(c.best.x).c_str());
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        // Right of the point and above it, kept inside the plot; below it when the top is near.
        const float x = std::clamp(s.x + 12, a.x + 4, std::max(a.x + 4, b.x - ts.x - 4));
        const float y = s.y - ts.y - 10 >= a.y + 2 ? s.y - ts.y - 10 : s.y + 10;
        const float* bg = pal.background;
        dl->AddRectFilled(ImVec2(x - 3, y - 1), ImVec2(x + ts.x + 3, y + ts.y + 1),
                          ImGui::ColorConvertFloat4ToU32(ImVec4(bg[0], bg[1], bg[2], 0.85f)), 3.0f);
        dl->AddText(ImVec2(x, y), pal.accent, label.c_str());
    }
    // Hover: the nearest point within reach, its layout in a tooltip.
    if (hovered && !c.front.empty()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        int nearest = -1;
        float best_d = lh * lh * 1.5f;
        for (std::size_t i = 0; i < c.front.size(); ++i) {
            const ImVec2 s = at(c.front[i]);
            const float d = (s.x - m.x) * (s.x - m.x) + (s.y - m.y) * (s.y - m.y);
            if (d < best_d) {
                best_d = d;
                nearest = int(i);
            }
        }
        if (nearest >= 0) {
            dl->AddCircle(at(c.front[std::size_t(nearest)]), 6.0f, pal.hover_line, 0, 2.0f);
            ImGui::SetTooltip("%s", point_summary(p.pareto[std::size_t(nearest)]).c_str());
        }
    }
}

// One row of the serving table; `label` in the first column ("best", "1", ...). Cells wrap at
// their column's edge rather than being cut (QA D14), unless the table scrolls sideways.
void serving_row(const char* label, const ServingRowText& t, bool highlight, bool wrap) {
    ImGui::TableNextRow();
    if (highlight) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, with_alpha(palette().accent, 40));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    const std::string bound = bound_text(t.bound);   // "memory bandwidth": it wraps at its space
    for (const std::string* cell :
         {&t.tp, &t.pp, &t.dp, &t.ep, &t.concurrency, &t.per_gpu, &t.per_user, &t.ttft, &t.tpot, &t.memory, &bound}) {
        ImGui::TableNextColumn();
        if (wrap) ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(cell->c_str());
        if (wrap) ImGui::PopTextWrapPos();
    }
    if (!t.note.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.note.c_str());
}

void draw_serving(PlanView& v, const Config& current, const Catalog& catalog, const GpuOverlay* measured, const Note& note) {
    PlanInputs& in = v.inputs;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        tr("Serving layouts of %s on up to %d x %s: tp, pp, dp, ep and the requests in flight; the Pareto front of output tokens/s per GPU against tokens/s per user, and the best layout under the TTFT and TPOT targets."),
        model_name(current).c_str(), current.gpus, gpu_label(current).c_str());
    ImGui::PopTextWrapPos();
    const float w = ImGui::GetFontSize() * 7.0f;
    draw_load_fields(current, in, w);
    std::optional<double> ttft = in.max_ttft_ms > 0 ? std::optional<double>(in.max_ttft_ms) : std::nullopt;
    if (limit_drag(tr_label("max TTFT ms"), ttft, w, 10.0f, 60000.0f, 3.6e6, tr("no limit"))) in.max_ttft_ms = ttft.value_or(0.0);
    note("max TTFT ms field");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("time to first token of the best layout, milliseconds (0: no limit)"));
    beside_if_fits(field_width(w, tr("max TPOT ms")));
    std::optional<double> tpot = in.max_tpot_ms > 0 ? std::optional<double>(in.max_tpot_ms) : std::nullopt;
    if (limit_drag(tr_label("max TPOT ms"), tpot, w, 1.0f, 1000.0f, 3.6e6, tr("no limit"))) in.max_tpot_ms = tpot.value_or(0.0);
    note("max TPOT ms field");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("time per output token after the first, milliseconds (0: no limit); 50 ms is 20 tokens/s per user"));
    ImGui::SetNextItemWidth(stepper_item_width(w));
    ImGui::InputInt(tr_label("top"), &in.top, 1, 5);
    in.top = std::clamp(in.top, 1, 100);
    checkbox_beside(tr_later("disaggregated"), &in.disaggregated);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("also prefill and decode on separate pools of GPUs (vLLM, SGLang, TensorRT-LLM)"));
    const bool search =
        search_button(tr_later("Search serving layouts"), "search serving layouts button", note) || std::exchange(v.search_asked, false);
    if (search) {
        v.serving_error.clear();
        v.has_serving = false;
        try {
            v.serving_request = serving_plan_request(current, in);
            v.serving = plan(v.serving_request, catalog, measured);
            v.has_serving = true;
            v.serving_for =
                strf(tr("%s, %s input + %s output tokens"), searched_for(current, measured, true).c_str(),
                     format_int(double(v.serving_request.base.isl)).c_str(), format_int(double(v.serving_request.base.osl)).c_str());
            v.serving_summary = plan_summary(v.serving, v.serving_request);
        } catch (const Error& e) {
            v.serving_error = e.what();
            v.serving_summary = failed(PlanMode::inference, v.serving_error);
        }
    }
    ImGui::PushTextWrapPos(0.0f);
    if (!v.serving_error.empty()) {
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", v.serving_error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    if (!v.has_serving) {
        ImGui::TextDisabled(tr("Press \"%s\" to run the search."), tr("Search serving layouts"));
        ImGui::PopTextWrapPos();
        return;
    }
    const PlanReport& p = v.serving;
    const PlanRequest& q = v.serving_request;
    ImGui::TextUnformatted((v.serving_for + ": " + serving_search_text(p, q)).c_str());
    const std::string verdict = serving_verdict_text(p, q);
    if (!verdict.empty()) ImGui::TextColored(to_vec4(no_fit_color()), "%s", verdict.c_str());
    ImGui::PopTextWrapPos();
    if (p.fitting == 0) return;
    // The best point, then the best layouts under the targets as estimate() reports them. The
    // best point is top[0] unless it is disaggregated (estimate() models one pool).
    const bool best_apart = p.has_best && p.best.prefill_gpus > 0;
    if (p.has_best && (best_apart || !p.top.empty())) {
        // Where the window is narrower than 50 font sizes (820 px) the table scrolls sideways
        // rather than wrapping its figures inside their cells (QA D14).
        const float avail = ImGui::GetContentRegionAvail().x, inner = ImGui::GetFontSize() * 50.0f;
        const bool scroll = avail < inner;
        ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
        ImVec2 outer(0, 0);
        if (scroll) {
            flags |= ImGuiTableFlags_ScrollX;
            const int rows = int(p.top.size()) + (best_apart ? 1 : 0) + 1;   // and the header
            outer.y =
                float(rows) * (ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y) + ImGui::GetStyle().ScrollbarSize + 4;
        }
        if (ImGui::BeginTable("serving", 12, flags, outer, scroll ? inner : 0.0f)) {
            // The headers in English, shown through tr() (the terms and units have no row: they stay).
            static constexpr std::pair<const char*, float> kColumns[] = {{"#", 0.8f},         {"tp", 0.45f},
                                                                         {"pp", 0.45f},       {"dp", 0.45f},
                                                                         {"ep", 0.45f},       {tr_later("in flight"), 1.0f},
                                                                         {"tok/s/GPU", 1.2f}, {tr_later("tok/s/user"), 1.2f},
                                                                         {"TTFT", 1.1f},      {"TPOT", 1.1f},
                                                                         {"GiB/GPU", 1.1f},   {tr_later("bound"), 2.0f}};
            for (const auto& [name, weight] : kColumns) ImGui::TableSetupColumn(tr(name), ImGuiTableColumnFlags_None, weight);
            ImGui::TableHeadersRow();
            if (best_apart) serving_row(tr("best"), serving_row_text(p.best), true, !scroll);
            for (std::size_t i = 0; i < p.top.size(); ++i) {
                const std::string label = i == 0 && !best_apart ? tr("1 best") : std::to_string(i + 1);
                serving_row(label.c_str(), serving_row_text(p.top[i]), i == 0 && !best_apart, !scroll);
                note("serving plan row");
            }
            ImGui::EndTable();
        }
        if (best_apart) ImGui::TextDisabled(tr("best: %s"), serving_row_text(p.best).note.c_str());
        // The band every figure of the table carries (one engine, one model: the same for each
        // row), as the Speed & power tab shows it beside each figure.
        if (!p.top.empty()) {
            const Report& r0 = p.top.front().report;
            const SpeedBand b = speed_band(SpeedFigure::serving_throughput, r0);
            if (b.rows > 0) {
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextDisabled(
                    tr("Each figure is ~X: published serving measurements of this engine (%d rows) fell between %s and %s times gpusizer's tokens/s (TTFT and TPOT inversely; docs/accuracy.md)."),
                    b.rows, format_fixed(b.lo, 2).c_str(), format_fixed(b.hi, 2).c_str());
                ImGui::PopTextWrapPos();
                note("serving plan band");
            }
        }
    }
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(tr("Pareto front: no layout beats a point on both tokens/s per GPU and tokens/s per user"));
    ImGui::PopTextWrapPos();
    const float h = std::clamp(ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y, ImGui::GetFontSize() * 14.0f,
                               ImGui::GetFontSize() * 22.0f);
    pareto_chart_view(p, q, h);
    ImGui::PushTextWrapPos(0.0f);
    if (!p.why.empty()) {
        ImGui::TextUnformatted(tr("Why #1 beats #2"));
        for (const std::string& line : p.why) {
            ImGui::Bullet();
            text_wrapped_at_spaces(line);
        }
    }
    ImGui::PopTextWrapPos();
}

}  // namespace

}  // namespace gpusizer::ui
