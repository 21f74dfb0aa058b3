// ui/view_pinned.cpp: the Pinned tab: a configuration pinned beside the current one, their
// memory, speed, power and cost in two columns with the differences (pinned_rows, report_state.cpp).
// The share link carries both (&pin=).
#include <string>

#include <imgui.h>

#include "app.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

void App::draw_pinned() {
    ImGui::PushTextWrapPos(0.0f);
    if (!s_.pinned) {
        ImGui::TextUnformatted(tr("Pin this configuration, then change anything (model, context, GPU, weights, runtime): this tab shows both side by side with what changed, and the link carries both."));
        if (ImGui::Button(tr_label("Pin this configuration"))) {
            s_.pinned = s_.config;
            changed();
        }
        note_item("pin button");
        ImGui::PopTextWrapPos();
        return;
    }
    // The pinned report and the rows, once for each link (the link holds both configurations)
    // and language (the rows are words and numbers in it).
    const std::string rows_for = link_ + "&rows=" + language_code(language());
    if (rows_for != pinned_link_) {
        pinned_link_ = rows_for;
        pinned_error_.clear();
        pinned_rows_.clear();
        try {
            pinned_rows_ = pinned_rows(estimate(*s_.pinned, catalog_), report_);
        } catch (const Error& e) {
            pinned_error_ = e.what();
        }
    }
    if (ImGui::Button(tr_label("Pin this instead"))) {
        s_.pinned = s_.config;
        changed();
    }
    note_item("repin button");
    ImGui::SameLine();
    if (ImGui::Button(tr_label("Unpin"))) {
        s_.pinned.reset();
        changed();
    }
    note_item("unpin button");
    if (!pinned_error_.empty()) {
        ImGui::TextColored(to_vec4(no_fit_color()), tr("The pinned configuration cannot be estimated: %s"), pinned_error_.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    ImGui::PopTextWrapPos();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    // Four columns (figure, pinned, now, difference); on a phone two, the figures one above the
    // other in the second, so that nothing is cut.
    const bool stacked = stacked_tables();
    if (!ImGui::BeginTable("pinned", stacked ? 2 : 4, flags)) return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.1f);
    if (stacked) {
        ImGui::TableSetupColumn(tr("pinned / now"), ImGuiTableColumnFlags_WidthStretch, 1.6f);
    } else {
        ImGui::TableSetupColumn(tr("pinned"), ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableSetupColumn(tr("now"), ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableSetupColumn(tr("difference"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    }
    ImGui::TableHeadersRow();
    const ImVec4 accent = to_vec4(palette().accent);
    for (const PinnedRow& r : pinned_rows_) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        if (r.heading) {
            ImGui::TextDisabled("%s", r.figure.c_str());
            ImGui::PopTextWrapPos();
            continue;
        }
        ImGui::TextUnformatted(r.figure.c_str());
        ImGui::PopTextWrapPos();
        if (stacked) {
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("%s", tr("pinned"));
            ImGui::SameLine();
            ImGui::TextUnformatted(r.pinned.c_str());
            ImGui::TextDisabled("%s", tr("now"));
            ImGui::SameLine();
            ImGui::TextUnformatted(r.now.c_str());
            if (!r.difference.empty()) ImGui::TextColored(accent, "%s", r.difference.c_str());
            ImGui::PopTextWrapPos();
            continue;
        }
        for (const std::string* cell : {&r.pinned, &r.now}) {
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(cell->c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        if (!r.difference.empty()) ImGui::TextColored(accent, "%s", r.difference.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
    note_item("pinned table");
}

}  // namespace gpusizer::ui
