// ui/view_compare.cpp: the Compare tab
// (One file per view, as Tracy's server splits its View; the App and its frame are in
// app.cpp, shared widgets in widgets.cpp.)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

void App::draw_compare() {
    ImGui::PushTextWrapPos(0.0f);   // the texts above and under the table wrap (QA D14 at 820 px)
    ImGui::TextDisabled("%s", tr("The same model and workload on each GPU choice (the seed article's table, for your workload)."));
    ImGui::PopTextWrapPos();
    const int cols = int(s_.compare.size());
    const char* note = tr("Tensor TFLOPS are dense (no 2:4 sparsity); GeForce FP16/BF16 with FP32 accumulate.");
    const float fs = ImGui::GetFontSize();
    // Each GPU's column keeps 9 font sizes at least; where they do not fit the table scrolls
    // sideways instead of cutting its figures (QA D14: "8449244.82 G", a combo reading "rtx").
    const float avail = ImGui::GetContentRegionAvail().x;
    const float inner = std::max(avail, fs * 10.0f + float(cols) * fs * 9.0f);
    const float note_h = ImGui::CalcTextSize(note, nullptr, false, avail).y + ImGui::GetFrameHeightWithSpacing();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchSame |
                                  (inner > avail ? ImGuiTableFlags_ScrollX : ImGuiTableFlags_None);
    if (cols == 0 ||
        !ImGui::BeginTable("compare", cols + 1, flags, ImVec2(0, std::max(fs * 8.0f, ImGui::GetContentRegionAvail().y - note_h)),
                           inner > avail ? inner : 0.0f))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 10.0f);
    for (int i = 0; i < cols; ++i) ImGui::TableSetupColumn(s_.compare[i].gpu.c_str(), ImGuiTableColumnFlags_WidthStretch);
    // A column's GPU: the catalog's, or the state's custom GPU as built (null when it cannot be).
    const std::shared_ptr<const CustomGpuBuild> custom = custom_gpu_build(s_, catalog_);
    auto gpu_of = [&](const std::string& id) -> const Gpu* {
        if (id == kCustomGpuId) return custom ? &custom->gpu : nullptr;
        return catalog_.find_gpu(id);
    };
    // Header row: a GPU picker, the count and a remove button per column.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(tr("GPU"));
    int remove = -1;
    for (int i = 0; i < cols; ++i) {
        ImGui::TableNextColumn();
        ImGui::PushID(i);
        const Gpu* g = gpu_of(s_.compare[i].gpu);
        ImGui::SetNextItemWidth(-1);   // the whole column: the remove button sits beside the count
        const bool open = ImGui::BeginCombo("##g", g ? g->id.c_str() : "?", ImGuiComboFlags_HeightLarge);
        if (!open && g && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", g->name.c_str());
        if (open) {
            if (custom && pick_selectable(strf(tr("Custom: %s"), custom->gpu.name.c_str()).c_str(), s_.compare[i].gpu == kCustomGpuId)) {
                s_.compare[i].gpu = std::string(kCustomGpuId);
                changed();
            }
            for (const Gpu& cand : catalog_.gpus)
                if (pick_selectable(cand.name.c_str(), cand.id == s_.compare[i].gpu)) {
                    s_.compare[i].gpu = cand.id;
                    changed();
                }
            ImGui::EndCombo();
        }
        ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 2.4f);
        int n = s_.compare[i].gpus;
        if (ImGui::SliderInt("##n", &n, 1, 16, tr("x %d"))) {
            s_.compare[i].gpus = int(clamp_to_key("gpus", n));
            changed();
        }
        ImGui::SameLine();
        if (ImGui::SmallButton(tr_label("x##remove"))) remove = i;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Remove this GPU"));
        ImGui::PopID();
    }
    if (remove >= 0) {
        s_.compare.erase(s_.compare.begin() + remove);
        changed();
    }
    auto text_row = [&](const char* name, auto value_of) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", name);
        ImGui::PopTextWrapPos();
        for (int i = 0; i < cols && i < int(s_.compare.size()); ++i) {
            ImGui::TableNextColumn();
            const Gpu* g = gpu_of(s_.compare[i].gpu);
            if (g) text_wrapped_at_spaces(value_of(*g));
        }
    };
    auto tflops = [](double v) { return v > 0 ? format_fixed(v, 1) : std::string("-"); };
    // The workload's results first, then the datasheet.
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(tr("per GPU"));
    for (std::size_t i = 0; i < compare_.size() && int(i) < cols; ++i) {
        ImGui::TableNextColumn();
        if (compare_[i].ok) {
            const Report& r = compare_[i].report;
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextColored(to_vec4(r.fits ? fits_color() : no_fit_color()), r.fits ? tr("%s fits") : tr("%s no"),
                               format_gib(r.per_gpu.total()).c_str());
            ImGui::PopTextWrapPos();
        } else {
            ImGui::TextColored(to_vec4(no_fit_color()), "%s", tr("cannot run"));
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", compare_[i].error.c_str());
        }
    }
    // A row of the workload's results: `value_of` the text of a report (columns that cannot run stay empty).
    auto report_row = [&](const char* name, auto value_of) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(name);
        for (std::size_t i = 0; i < compare_.size() && int(i) < cols; ++i) {
            ImGui::TableNextColumn();
            if (compare_[i].ok) text_wrapped_at_spaces(value_of(compare_[i].report));
        }
    };
    report_row(tr("headroom"), [](const Report& r) { return format_gib(r.headroom); });
    report_row(tr("KV room"), [](const Report& r) { return format_int(r.kv_capacity_tokens) + " tok"; });
    text_row(tr("name"), [](const Gpu& g) { return g.name; });
    text_row(tr("architecture"), [](const Gpu& g) { return g.architecture + (g.chip.empty() ? "" : " (" + g.chip + ")"); });
    text_row(tr("year"), [](const Gpu& g) { return g.year > 0 ? std::to_string(g.year) : std::string("-"); });
    text_row(tr("memory"), [](const Gpu& g) { return format_gib(g.capacity_bytes()) + " " + g.memory_type; });
    text_row(tr("bandwidth"), [](const Gpu& g) { return format_int(g.memory_bandwidth_gb_per_s) + " GB/s"; });
    text_row("FP32 TFLOPS", [&](const Gpu& g) { return tflops(g.fp32_tflops); });
    text_row("TF32 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.tf32); });
    text_row("FP16 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.fp16); });
    text_row("BF16 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.bf16); });
    text_row("FP8 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.fp8); });
    text_row("INT8 tensor (TOPS)", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.int8); });
    text_row("FP4 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.fp4); });
    text_row("NVLink", [](const Gpu& g) {
        return g.nvlink == "none" ? std::string(tr("none")) : g.nvlink + " " + format_int(g.nvlink_gb_per_s) + " GB/s";
    });
    text_row("PCIe", [](const Gpu& g) {
        return g.pcie_gen > 0 ? "Gen" + std::to_string(g.pcie_gen) + " x" + std::to_string(g.pcie_lanes) : std::string("-");
    });
    text_row(tr("board power"), [](const Gpu& g) { return g.tdp_w > 0 ? format_int(g.tdp_w) + " W" : std::string("-"); });
    text_row("ECC", [](const Gpu& g) { return std::string(g.ecc ? tr("yes") : tr("no")); });
    text_row(tr("form factor"), [](const Gpu& g) { return g.form_factor; });
    text_row(tr("price"), [](const Gpu& g) { return g.price_usd ? format_usd(*g.price_usd) : std::string("-"); });
    ImGui::EndTable();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", note);
    ImGui::PopTextWrapPos();
    if (s_.compare.size() < 6) {
        if (ImGui::CalcTextSize(note).x + fs * 8.0f < avail) ImGui::SameLine();
        if (ImGui::SmallButton(tr_label("+ add a GPU"))) {
            s_.compare.push_back({s_.config.gpu, s_.config.gpus});
            changed();
        }
    }
}

}  // namespace gpusizer::ui
