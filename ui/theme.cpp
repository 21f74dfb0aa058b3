// ui/theme.cpp: the app's look: ImGui's style, softened, in a dark and a light theme.
// The light theme's text and background pairs are the browser widget's (web/site/
// gpusizer-widget.js: #1d2330 and #5b6473 on white), the dark theme's too (#e6e8ec and #a0a8b6
// on #1b1d22), so that the widget and the app look alike on one page.
#include "theme.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace gpusizer::ui {

namespace {

Theme g_theme = Theme::dark;

ImVec4 rgb(int r, int g, int b, float a = 1.0f) { return ImVec4(float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f, a); }

// Meaning colors used as text are chosen for 4.5:1 against the background (WCAG 1.4.3); the
// browser test tests/browser/theme_export.test.mjs computes every pair.
const Palette kDark = {
    {0.105f, 0.115f, 0.135f, 1.0f},   // #1b1d22
    IM_COL32(230, 232, 236, 255),     // #e6e8ec
    IM_COL32(160, 168, 182, 255),     // #a0a8b6
    IM_COL32(52, 57, 68, 255),
    IM_COL32(255, 255, 255, 28),
    IM_COL32(255, 255, 255, 18),
    IM_COL32(255, 255, 255, 90),
    IM_COL32(235, 235, 235, 255),
    IM_COL32(64, 180, 96, 255),
    IM_COL32(240, 96, 86, 255),
    IM_COL32(240, 96, 86, 255),
    IM_COL32(255, 199, 89, 255),
    IM_COL32(140, 190, 255, 255),
};

const Palette kLight = {
    {0.953f, 0.957f, 0.965f, 1.0f},   // #f3f4f6
    IM_COL32(29, 35, 48, 255),        // #1d2330
    IM_COL32(91, 100, 115, 255),      // #5b6473
    IM_COL32(196, 202, 212, 255),
    IM_COL32(0, 0, 0, 30),
    IM_COL32(0, 0, 0, 16),
    IM_COL32(0, 0, 0, 90),
    IM_COL32(40, 44, 52, 255),
    IM_COL32(26, 127, 55, 255),       // #1a7f37
    IM_COL32(198, 40, 40, 255),       // #c62828
    IM_COL32(198, 40, 40, 255),
    IM_COL32(138, 90, 0, 255),        // #8a5a00
    IM_COL32(42, 99, 192, 255),       // #2a63c0
};

// A widget family's colours at rest, hovered and held: ImGui lists each family's three in that
// order (ImGuiCol_FrameBg, FrameBgHovered, FrameBgActive; Button..., Header..., and Tab,
// TabHovered, TabActive).
void states(ImVec4* c, ImGuiCol rest, ImVec4 at_rest, ImVec4 hovered, ImVec4 held) {
    c[rest] = at_rest;
    c[rest + 1] = hovered;
    c[rest + 2] = held;
}

void dark_colors(ImVec4* c) {
    ImGui::StyleColorsDark();
    const Palette& p = kDark;
    c[ImGuiCol_Text] = to_vec4(p.text);
    c[ImGuiCol_TextDisabled] = to_vec4(p.text_muted);
    c[ImGuiCol_WindowBg] = ImVec4(p.background[0], p.background[1], p.background[2], 0.0f);   // the clear colour shows
    c[ImGuiCol_ChildBg] = ImVec4(0.13f, 0.14f, 0.165f, 1.0f);
    states(c, ImGuiCol_FrameBg, ImVec4(0.18f, 0.20f, 0.24f, 1.0f), ImVec4(0.24f, 0.27f, 0.32f, 1.0f), ImVec4(0.28f, 0.32f, 0.38f, 1.0f));
    // Held buttons and headers one step past hovered, in the accent's hue (ImGui's own held
    // colour is a saturated #0f87fa that flashed on every click).
    states(c, ImGuiCol_Header, ImVec4(0.20f, 0.30f, 0.45f, 1.0f), ImVec4(0.26f, 0.38f, 0.55f, 1.0f), ImVec4(0.30f, 0.44f, 0.65f, 1.0f));
    states(c, ImGuiCol_Button, ImVec4(0.22f, 0.33f, 0.50f, 1.0f), ImVec4(0.28f, 0.42f, 0.62f, 1.0f), ImVec4(0.32f, 0.48f, 0.70f, 1.0f));
    states(c, ImGuiCol_Tab, ImVec4(0.16f, 0.19f, 0.24f, 1.0f), ImVec4(0.30f, 0.44f, 0.65f, 1.0f), ImVec4(0.25f, 0.37f, 0.56f, 1.0f));
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.17f, 0.20f, 0.25f, 1.0f);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(1.0f, 1.0f, 1.0f, 0.03f);
}

void light_colors(ImVec4* c) {
    ImGui::StyleColorsLight();
    const Palette& p = kLight;
    c[ImGuiCol_Text] = to_vec4(p.text);
    c[ImGuiCol_TextDisabled] = to_vec4(p.text_muted);
    c[ImGuiCol_WindowBg] = ImVec4(p.background[0], p.background[1], p.background[2], 0.0f);
    c[ImGuiCol_ChildBg] = rgb(255, 255, 255);
    c[ImGuiCol_PopupBg] = rgb(255, 255, 255, 0.98f);
    c[ImGuiCol_Border] = rgb(0, 0, 0, 0.14f);
    states(c, ImGuiCol_FrameBg, rgb(227, 231, 238), rgb(213, 220, 232), rgb(198, 210, 230));
    states(c, ImGuiCol_Button, rgb(207, 220, 242), rgb(185, 205, 239), rgb(163, 191, 236));
    states(c, ImGuiCol_Header, rgb(207, 220, 242), rgb(185, 205, 239), rgb(163, 191, 236));
    states(c, ImGuiCol_Tab, rgb(221, 226, 234), rgb(185, 205, 239), rgb(196, 212, 240));
    c[ImGuiCol_SliderGrab] = rgb(42, 99, 192);
    c[ImGuiCol_SliderGrabActive] = rgb(31, 78, 156);
    c[ImGuiCol_CheckMark] = rgb(42, 99, 192);
    c[ImGuiCol_TableHeaderBg] = rgb(227, 231, 238);
    c[ImGuiCol_TableBorderStrong] = rgb(0, 0, 0, 0.20f);
    c[ImGuiCol_TableBorderLight] = rgb(0, 0, 0, 0.10f);
    c[ImGuiCol_TableRowBgAlt] = rgb(0, 0, 0, 0.03f);
    c[ImGuiCol_Separator] = rgb(0, 0, 0, 0.15f);
    c[ImGuiCol_ScrollbarBg] = rgb(0, 0, 0, 0.03f);
    c[ImGuiCol_NavHighlight] = rgb(42, 99, 192);
    c[ImGuiCol_TextSelectedBg] = rgb(42, 99, 192, 0.30f);
}

double channel(float c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double luminance(ImVec4 c) { return 0.2126 * channel(c.x) + 0.7152 * channel(c.y) + 0.0722 * channel(c.z); }

}  // namespace

const char* theme_name(Theme theme) { return theme == Theme::light ? "light" : "dark"; }

bool theme_from_name(std::string_view name, Theme& theme) {
    if (name == "dark") theme = Theme::dark;
    else if (name == "light") theme = Theme::light;
    else return false;
    return true;
}

const Palette& palette(Theme theme) { return theme == Theme::light ? kLight : kDark; }
Theme current_theme() { return g_theme; }

void apply_theme(Theme theme) {
    g_theme = theme;
    ImGuiStyle& st = ImGui::GetStyle();
    // StyleColors* write the current style's colors; sizes are left alone.
    if (theme == Theme::light) light_colors(st.Colors);
    else dark_colors(st.Colors);
}

void apply_style(float scale, Theme theme) {
    ImGuiStyle& st = ImGui::GetStyle();
    st = ImGuiStyle();
    apply_theme(theme);
    st.WindowRounding = 0.0f;
    for (float* corner : {&st.FrameRounding, &st.GrabRounding, &st.ChildRounding, &st.PopupRounding, &st.TabRounding})
        *corner = 4.0f;   // one corner radius for every rounded widget
    st.FramePadding = ImVec2(8, 4);
    st.ItemSpacing = ImVec2(8, 6);
    st.WindowPadding = ImVec2(12, 10);
    st.ScrollbarSize = 12.0f;
    st.ScaleAllSizes(scale);
}

double contrast_ratio(ImVec4 a, ImVec4 b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace gpusizer::ui
