// ui/view_recommend.cpp: the Recommend tab
// (One file per view, as Tracy's server splits its View; the App and its frame are in
// app.cpp, shared widgets in widgets.cpp.)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

void App::ensure_recommendation() {
    if (!recommend_dirty_) return;
    recommend_dirty_ = false;
    recommend_ok_ = false;
    recommend_error_.clear();
    try {
        recommendation_ = recommend(recommend_query(s_), catalog_, measured());
        recommend_ok_ = true;
        sort_recommendations(recommendation_.recommended, recommend_sort_, recommend_ascending_);
    } catch (const Error& e) {
        recommend_error_ = e.what();
    }
}

void App::draw_recommend() {
    RecommendInputs& in = s_.recommend;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(tr("Which GPUs, and how many, for this model and workload (%s weights). Click a column to sort."),
                        report_.config.weights.c_str());
    ImGui::PopTextWrapPos();
    bool edit = false;
    const float w = ImGui::GetFontSize() * 8.0f;
    const ImGuiStyle& st = ImGui::GetStyle();
    auto field = [&](const char* label) { return w + st.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x; };
    auto box = [&](const char* label) { return ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x; };
    // The fields and boxes wrap onto the next line where they do not fit (QA D14 at 820 px).
    // (The widths from the words shown: tr(), the labels' IDs stay English: tr_label().)
    edit |= limit_drag(tr_label("budget $"), in.budget_usd, w, 100.0f, 1e8f, 1e9, tr("no limit"));
    beside_if_fits(field(tr("power cap W")));
    edit |= limit_drag(tr_label("power cap W"), in.power_cap_w, w, 10.0f, 1e7f, 1e8, tr("no limit"));
    beside_if_fits(field(tr("min tokens/s")));
    edit |= limit_drag(tr_label("min tokens/s"), in.min_tokens_per_s, w, 1.0f, 1e7f, 1e9, tr("any"));
    const char* segs[4] = {tr_later("consumer"), tr_later("workstation"), tr_later("datacenter"), tr_later("Apple")};
    for (int i = 0; i < 4; ++i) {
        if (i) beside_if_fits(box(tr(segs[i])));
        edit |= ImGui::Checkbox(tr_label(segs[i]), &in.segments[i]);
    }
    beside_if_fits(box(tr("one node")), 18);
    edit |= ImGui::Checkbox(tr_label("one node"), &in.single_node);
    beside_if_fits(ImGui::GetFontSize() * 6.0f + st.ItemInnerSpacing.x + ImGui::CalcTextSize(tr("max GPUs")).x, 18);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    if (ImGui::SliderInt(tr_label("max GPUs"), &in.max_gpus, 1, 64)) {
        in.max_gpus = std::clamp(in.max_gpus, 1, 1024);
        edit = true;
    }
    if (edit) recommend_dirty_ = true;
    if (!any_segment(in)) {
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", tr("Tick at least one GPU class."));
        return;
    }
    ensure_recommendation();
    if (!recommend_ok_) {
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", recommend_error_.c_str());
        return;
    }
    const Recommendation& rec = recommendation_;
    const char* speed_head = rec.training ? tr("train tok/s") : "tok/s";
    const float avail = ImGui::GetContentRegionAvail().y;
    const float table_h = rec.rejected.empty() ? avail - ImGui::GetFontSize() * 1.5f : std::max(avail * 0.62f, ImGui::GetFontSize() * 8);
    // Below 44 font sizes the table scrolls sideways rather than cutting its headers and figures
    // (QA D14 at 820 px: "c...", "pri...").
    const float inner = ImGui::GetFontSize() * 54.0f;
    const bool scroll_x = ImGui::GetContentRegionAvail().x < inner;
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp |
                                  (scroll_x ? ImGuiTableFlags_ScrollX : ImGuiTableFlags_None);
    ImGui::Text(tr("%d configurations fit and meet the constraints"), int(rec.recommended.size()));
    const char* own_head = rec.training ? tr("own /run") : tr("own /M tok");
    const char* rent_head = rec.training ? tr("rent /run") : tr("rent /M tok");
    if (ImGui::BeginTable("recommend", 9, flags, ImVec2(0, table_h), scroll_x ? inner : 0.0f)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        const ImGuiTableColumnFlags num = ImGuiTableColumnFlags_PreferSortAscending;
        ImGui::TableSetupColumn(tr("GPU"), ImGuiTableColumnFlags_WidthStretch, 2.6f, ImGuiID(RecommendColumn::gpu));
        ImGui::TableSetupColumn(tr("count"), num, 0.7f, ImGuiID(RecommendColumn::gpus));
        ImGui::TableSetupColumn(tr("per GPU"), num, 1.1f, ImGuiID(RecommendColumn::per_gpu));
        ImGui::TableSetupColumn(tr("price"), num | ImGuiTableColumnFlags_DefaultSort, 1.0f, ImGuiID(RecommendColumn::price));
        ImGui::TableSetupColumn(speed_head, ImGuiTableColumnFlags_PreferSortDescending, 1.0f, ImGuiID(RecommendColumn::tokens_per_s));
        ImGui::TableSetupColumn(tr("wall W"), num, 1.0f, ImGuiID(RecommendColumn::power));
        ImGui::TableSetupColumn(own_head, num, 1.1f, ImGuiID(RecommendColumn::own));
        ImGui::TableSetupColumn(rent_head, num, 1.1f, ImGuiID(RecommendColumn::rent));
        ImGui::TableSetupColumn(tr("link"), ImGuiTableColumnFlags_None, 1.1f, ImGuiID(RecommendColumn::link));
        ImGui::TableHeadersRow();
        if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
            if (specs->SpecsDirty && specs->SpecsCount > 0) {
                recommend_sort_ = RecommendColumn(specs->Specs[0].ColumnUserID);
                recommend_ascending_ = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
                sort_recommendations(recommendation_.recommended, recommend_sort_, recommend_ascending_);
                specs->SpecsDirty = false;
            }
        }
        for (std::size_t i = 0; i < rec.recommended.size(); ++i) {
            const RecommendRow& row = rec.recommended[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(int(i));
            // A long name is cut with "..." in its column; the tooltip has it whole (QA D14).
            const std::string label = fit_to_width(row.gpu_name, ImGui::GetContentRegionAvail().x);
            if (pick_selectable(label.c_str(), row.gpu == s_.config.gpu && row.gpus == s_.config.gpus,
                                ImGuiSelectableFlags_SpanAllColumns)) {
                // Choose it: the estimate, the link and every other view follow.
                s_.config.gpu = row.gpu;
                set_gpu_count(s_, row.gpus, current_arch(s_, catalog_));
                changed();
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip(tr("Click to use %d x %s"), row.gpus, row.gpu_name.c_str());
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::Text("%d", row.gpus);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(row.per_gpu_total, 1).c_str());
            ImGui::TableNextColumn();
            if (row.price_known) ImGui::TextUnformatted(format_usd(row.price_usd).c_str());
            else ImGui::TextDisabled("%s", tr("unknown"));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_rate(row.tokens_per_s).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_watts(row.wall_w).c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("What the machine draws at the wall doing this job."));
            ImGui::TableNextColumn();
            cell_or_dash(row.own_known, format_usd(row.own_usd));
            ImGui::TableNextColumn();
            cell_or_dash(row.rent_known, format_usd(row.rent_usd));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row.link.empty() ? "-" : row.link.c_str());
        }
        ImGui::EndTable();
    }
    if (!rec.rejected.empty() && ImGui::TreeNode("##rejected", tr("%d other GPUs, and why"), int(rec.rejected.size()))) {
        if (ImGui::BeginTable("rejected-table", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY,
                              ImVec2(0, ImGui::GetContentRegionAvail().y))) {
            // The count column as wide as its header in the language shown ("closest", "mais próxima").
            const char* closest = tr("closest");
            const float closest_w = std::max(ImGui::GetFontSize() * 4.0f, ImGui::CalcTextSize(closest).x);
            ImGui::TableSetupColumn(tr("GPU"), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 13.0f);
            ImGui::TableSetupColumn(closest, ImGuiTableColumnFlags_WidthFixed, closest_w);
            ImGui::TableSetupColumn(tr("why not"), ImGuiTableColumnFlags_WidthStretch);
            ImGui::TableHeadersRow();
            for (const RecommendRow& row : rec.rejected) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushTextWrapPos(0.0f);   // long GPU names wrap in their column (QA D14)
                ImGui::TextUnformatted(row.gpu_name.c_str());
                ImGui::PopTextWrapPos();
                ImGui::TableNextColumn();
                ImGui::Text(tr("x %d"), row.gpus);
                ImGui::TableNextColumn();
                std::string why;
                for (const std::string& reason : row.reasons) why += (why.empty() ? "" : "; ") + reason;
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextDisabled("%s", why.c_str());
                ImGui::PopTextWrapPos();
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

}  // namespace gpusizer::ui
