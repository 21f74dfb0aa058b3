// ui/theme.hpp: colors and style shared by every view, in a dark and a light theme (and by the
// browser widget's CSS, which uses the same part colors and the same text/background pairs).
#pragma once

#include <string_view>

#include <imgui.h>

#include "gpusizer/report.hpp"

namespace gpusizer::ui {

// Colors of the memory parts (gpusizer/report.hpp kMemoryParts, which names them), indexed by
// MemoryPart: a colour-blind-safe palette (Tableau 10), the same in both themes (fills with white
// labels, readable on either background). The widget's JavaScript repeats them
// (tests/test_memory_parts.cpp checks it).
inline constexpr ImU32 kPartColors[] = {IM_COL32(76, 120, 168, 255), IM_COL32(245, 133, 24, 255), IM_COL32(84, 162, 75, 255),
                                        IM_COL32(228, 87, 86, 255),  IM_COL32(178, 121, 162, 255), IM_COL32(157, 157, 157, 255)};
static_assert(sizeof kPartColors / sizeof kPartColors[0] == kMemoryPartCount, "kPartColors: one colour per memory part");
inline ImU32 part_color(MemoryPart p) { return kPartColors[int(p)]; }

enum class Theme { dark, light };

// "dark", "light"; theme_from_name() reads them back (false for anything else).
const char* theme_name(Theme theme);
bool theme_from_name(std::string_view name, Theme& theme);

// The colors of one theme that are not ImGui style colors: the background behind the panels,
// the charts' ink, and the meaning colors used as text (all readable on `background`).
struct Palette {
    float background[4];   // RGBA 0..1: the platform clears the framebuffer with it
    ImU32 text;            // chart labels and legends (ImGuiCol_Text's color)
    ImU32 text_muted;      // axis labels (ImGuiCol_TextDisabled's color)
    ImU32 chart_frame;     // the outline around a chart, the memory bar's track
    ImU32 grid;            // major grid lines
    ImU32 grid_minor;      // x grid lines
    ImU32 hover_line;      // the vertical line at the hovered x
    ImU32 total_series;    // the "total" line of the memory charts
    ImU32 fits, no_fit;    // the verdict
    ImU32 capacity;        // the GPU's usable memory (the red line)
    ImU32 warning;         // warnings and substitutions
    ImU32 accent;          // the app's name, the "now" marker
};
const Palette& palette(Theme theme);
// The theme applied last (apply_style / apply_theme) and its palette.
Theme current_theme();
inline const Palette& palette() { return palette(current_theme()); }

inline ImU32 fits_color() { return palette().fits; }
inline ImU32 no_fit_color() { return palette().no_fit; }
inline ImU32 capacity_color() { return palette().capacity; }

inline ImVec4 to_vec4(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

// The app's style: sizes scaled for the display, and the theme's colors.
void apply_style(float scale, Theme theme = current_theme());
// Switches the colors only (the sizes stay): the app's theme switch, between frames or within one.
void apply_theme(Theme theme);

// WCAG 2 contrast ratio of two opaque colors (1 to 21): (L1 + 0.05) / (L2 + 0.05) with the
// relative luminance L of sRGB (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio). Body text
// needs 4.5 (success criterion 1.4.3).
double contrast_ratio(ImVec4 a, ImVec4 b);

}  // namespace gpusizer::ui
