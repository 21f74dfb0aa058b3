// ui/theme.cpp: the app's look.
#include "theme.hpp"

namespace gpusizer::ui {

void apply_style(float scale) {
    ImGuiStyle& st = ImGui::GetStyle();
    ImGui::StyleColorsDark(&st);
    st.WindowRounding = 0.0f;
    st.FrameRounding = 4.0f;
    st.GrabRounding = 4.0f;
    st.ChildRounding = 4.0f;
    st.PopupRounding = 4.0f;
    st.TabRounding = 4.0f;
    st.FramePadding = ImVec2(8, 4);
    st.ItemSpacing = ImVec2(8, 6);
    st.WindowPadding = ImVec2(12, 10);
    st.ScrollbarSize = 12.0f;
    ImVec4* c = st.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(kBackground[0], kBackground[1], kBackground[2], 0.0f);   // the clear colour shows
    c[ImGuiCol_ChildBg] = ImVec4(0.13f, 0.14f, 0.165f, 1.0f);
    c[ImGuiCol_FrameBg] = ImVec4(0.18f, 0.20f, 0.24f, 1.0f);
    c[ImGuiCol_FrameBgHovered] = ImVec4(0.24f, 0.27f, 0.32f, 1.0f);
    c[ImGuiCol_FrameBgActive] = ImVec4(0.28f, 0.32f, 0.38f, 1.0f);
    c[ImGuiCol_Header] = ImVec4(0.20f, 0.30f, 0.45f, 1.0f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.38f, 0.55f, 1.0f);
    c[ImGuiCol_Button] = ImVec4(0.22f, 0.33f, 0.50f, 1.0f);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.28f, 0.42f, 0.62f, 1.0f);
    c[ImGuiCol_Tab] = ImVec4(0.16f, 0.19f, 0.24f, 1.0f);
    c[ImGuiCol_TabActive] = ImVec4(0.25f, 0.37f, 0.56f, 1.0f);
    c[ImGuiCol_TabHovered] = ImVec4(0.30f, 0.44f, 0.65f, 1.0f);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.17f, 0.20f, 0.25f, 1.0f);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(1.0f, 1.0f, 1.0f, 0.03f);
    st.ScaleAllSizes(scale);
}

}  // namespace gpusizer::ui
