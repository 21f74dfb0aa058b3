// ui/view_launch.cpp: "Run it", the engine's own command for the configuration (gpusizer/launch.hpp),
// under the Speed & power tab's figures: the runtime's command, the other engines that can run it,
// and a button that copies it.
#include <string>

#include <imgui.h>

#include "app.hpp"
#include "state.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

void App::draw_launch() {
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextUnformatted(tr("Run it"));
    if (ImGui::IsItemHovered())
        wrapped_tooltip(tr("The engine's launch command with every value this estimate assumed: context, slots or sequences, parallel degrees, memory fraction, KV cache type, GPU layers (docs/launch.md)."));
    const int shown = launch_choice(launch_, launch_engine_);
    if (shown < 0) {
        ImGui::TextDisabled("%s", tr("No serving engine runs this configuration."));
        return;
    }
    const auto& [engine, command] = launch_[std::size_t(shown)];
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
    if (ImGui::BeginCombo("##launch engine", std::string(to_string(engine)).c_str())) {
        for (const auto& [other, text] : launch_) {
            const bool own = other == report_.config.runtime;
            const std::string name(to_string(other));
            const std::string label = own ? strf(tr("%s (this runtime)"), name.c_str()) : name;
            if (pick_selectable(label.c_str(), other == engine)) launch_engine_ = other;
        }
        ImGui::EndCombo();
    }
    note_item("launch engine");
    ImGui::SameLine();
    if (ImGui::Button(tr_label("Copy"))) {
        platform_.set_clipboard(command);
        s_.message = strf(tr("Command copied (%s)"), std::string(to_string(engine)).c_str());
        s_.message_is_error = false;
    }
    note_item("copy command button");
    if (engine != report_.config.runtime) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr("its own memory fraction and cap at the engine's defaults"));
    }
    // Read-only and wrapped, on the frame colour of a text field.
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;   // the child's own padding, either side
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = ImGui::CalcTextSize(command.c_str(), nullptr, false, width - 2 * pad.x).y + 2 * pad.y;
    ImGui::BeginChild("launch command", ImVec2(width, height), false,
                      ImGuiWindowFlags_AlwaysUseWindowPadding | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(command.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopStyleColor();
    note_item("launch command");
}

}   // namespace gpusizer::ui
