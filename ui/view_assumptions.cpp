// ui/view_assumptions.cpp: the Assumptions tab
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

void App::draw_assumptions() {
    ImGui::PushTextWrapPos(0.0f);   // wraps at 820 px rather than being cut (QA D14)
    ImGui::TextDisabled("%s", tr("The constants and choices behind these numbers, with their sources (docs/formulas.md)."));
    ImGui::PopTextWrapPos();
    if (ImGui::BeginTable("assumptions", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                                ImGuiTableFlags_Resizable)) {
        ImGui::TableSetupColumn(tr("what"), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 9.0f);
        ImGui::TableSetupColumn(tr("value"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn(tr("source"), ImGuiTableColumnFlags_WidthStretch, 1.2f);
        ImGui::TableHeadersRow();
        for (const Assumption& a : assumptions_) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(a.name.c_str());
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(a.value.c_str());
            ImGui::PopTextWrapPos();
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("%s", a.source.c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::EndTable();
    }
}

}  // namespace gpusizer::ui
