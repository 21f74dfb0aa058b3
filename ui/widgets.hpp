// ui/widgets.hpp: small drawing helpers shared by the views (labelled rows, help markers,
// list filters, "auto" sliders, two-column figure tables).
#pragma once

#include <initializer_list>
#include <limits>
#include <optional>
#include <string>

#include <imgui.h>

#include "gpusizer/gpusizer.hpp"

namespace gpusizer::ui {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;   // the views' GiB (charts, sliders in GiB)

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* mode_label(Mode m);   // in the app's language ("Inference", "Inferência")
// A labelled row: label on the left at a fixed width, the widget filling the rest.
void row_label(const char* label);
// "(?)" with a tooltip.
void help_marker(const char* text);
// The next item's width: the row's room less a help marker's, so that the "(?)" after it stays on
// its line (a combo at row_label's full width pushed it onto a line of its own).
void width_before_help_marker();
// ImGui::SameLine(0, spacing) when `next` (a text drawn unwrapped) fits after the last item
// before the window's (or cell's) right edge, else nothing: it starts the next line instead of
// being cut there (QA E10). spacing < 0: the style's item spacing.
void same_line_fitting(const char* next, float spacing = -1.0f);
// `text` wrapped at the right edge of the window (or cell) at spaces only, line by line, in `color`
// when given: Dear ImGui 1.86 also breaks after '.', ',', ';', '!', '?', which cut a figure in
// two on phones ("8," / "192 tokens"; "10," / "29 GiB" with Portuguese's decimal comma). The first
// line starts where the cursor is (after SameLine or a bullet too), the others under it; a word
// wider than a line stands alone. The lines are one item (a group) for what follows.
void text_wrapped_at_spaces(const std::string& text, const ImVec4* color = nullptr);
// A tooltip wrapped as help_marker's; for the last item, call it when ImGui::IsItemHovered() (the
// text is then built only while it shows).
void wrapped_tooltip(const std::string& text);
// ImGui::SliderFloat with its number in the language's separators ("0,40 GB/s" in pt-BR): pass
// `format` through tr(); its words must hold no '.' or ',' (localized_number swaps them).
// default_slider and key_slider below draw theirs with it.
bool slider_float(const char* label, float* v, float lo, float hi, const char* format, ImGuiSliderFlags flags = 0);
// A slider over a setting whose 0 means "the default the core chooses": it shows the value in
// use, and "auto" puts the default back.
bool default_slider(const char* id, double& value, double in_use, float lo, float hi, const char* format, bool log = false);
// A slider over the value of the config key `key`, rounded to what `format` shows and kept in
// the key's range.
bool key_slider(const char* id, const char* key, double& value, float lo, float hi, const char* format);
// A whole-number drag `width` wide over an optional limit, shown as `none` when unset: it drags
// from 0 (unset) up to `drag_max`; a typed value is rounded and clamped to `most`, and 0 unsets.
bool limit_drag(const char* label, std::optional<double>& value, float width, float speed, float drag_max, double most,
                const char* none);
// The widths of a line's fields, for beside_if_fits(): a number field `w` wide with its - and +
// buttons and its label, one without them, a checkbox and a button, each with its label.
float stepper_width(float w, const char* label);
// The item width that leaves a number field with - and + buttons a box `w` wide: ImGui takes the
// buttons (a frame height square each) out of the item's width, and on a phone, where frames are
// tall for touch, 7 font sizes left the number a sliver.
float stepper_item_width(float w);
float field_width(float w, const char* label);
float checkbox_width(const char* label);
float button_width(const char* label);

// f as a percentage, in the language's separators ("42.5%", "42,5%").
std::string percent(double f, int decimals = 0);
// "$0.042", "$3.20", "$1,250": dollars with the cents a small figure needs ("US$ 1.250" in pt-BR).
std::string format_usd(double v);
// A table cell with `text` when `known`, else a greyed "-" (a figure the catalog cannot give).
void cell_or_dash(bool known, const std::string& text);

// ImGui::Selectable that Enter picks too, when keyboard navigation is on it (QA E7: Dear ImGui
// 1.86 activates with Space only; Enter is its "input" key, which a selectable ignores). A pick
// by Enter closes the popup the item is in, as a click does.
bool pick_selectable(const char* label, bool selected = false, ImGuiSelectableFlags flags = 0);

// A combo over enum values, each shown by its to_string() name: true when the user picked one.
// `enabled(v)` false greys a value out.
template <typename E, typename Enabled>
bool enum_combo(const char* id, E& value, std::initializer_list<E> options, Enabled enabled) {
    bool picked = false;
    if (ImGui::BeginCombo(id, std::string(to_string(value)).c_str())) {
        for (E v : options)
            if (pick_selectable(std::string(to_string(v)).c_str(), value == v, enabled(v) ? 0 : ImGuiSelectableFlags_Disabled)) {
                value = v;
                picked = true;
            }
        ImGui::EndCombo();
    }
    return picked;
}
template <typename E>
bool enum_combo(const char* id, E& value, std::initializer_list<E> options) {
    return enum_combo(id, value, options, [](E) { return true; });
}

// One column of a table: its header and its share of the width.
struct StretchColumn {
    const char* name;
    float weight;
};
// BeginTable with striped rows and inner lines, columns sharing the width by weight, and the
// header row drawn; true when the table is open (end it with ImGui::EndTable()).
bool begin_stretch_table(const char* id, std::initializer_list<StretchColumn> columns);

// A two-column table of named figures, with an optional tooltip per row.
struct FigureTable {
    bool open = false;
    FigureTable(const char* id, const char* title, float width) {
        open = ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(width, 0));
        if (open) {
            ImGui::TableSetupColumn(title, ImGuiTableColumnFlags_WidthStretch, 1.1f);
            ImGui::TableSetupColumn("##value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            ImGui::TableHeadersRow();
        }
    }
    ~FigureTable() {
        if (open) ImGui::EndTable();
    }
    void row(const char* name, const std::string& value, const char* tip = nullptr, bool dim = false) const {
        if (!open) return;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);   // long names and values wrap inside their cells
        if (dim) ImGui::TextDisabled("%s", name);
        else ImGui::TextUnformatted(name);
        if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
        ImGui::TableNextColumn();
        // A figure with its band, "~X unit (lo-hi)", too wide for the cell: the band goes on its
        // own line rather than wrapping inside a number at its thousands comma ("(72," / "207-...").
        const std::size_t bracket = value.rfind(" (");
        if (!value.empty() && value[0] == '~' && bracket != std::string::npos &&
            ImGui::CalcTextSize(value.c_str()).x > ImGui::GetContentRegionAvail().x) {
            ImGui::TextUnformatted(value.c_str(), value.c_str() + bracket);
            ImGui::TextUnformatted(value.c_str() + bracket + 1);
        } else {
            ImGui::TextUnformatted(value.c_str());
        }
        ImGui::PopTextWrapPos();
    }
};

// Rows of fields that wrap at narrow widths (QA D14: at 820 px fields ran off the window):
// beside the last item when `width` fits on the line, else below it.
void beside_if_fits(float width, float spacing = -1.0f);
// `text` cut to `width` (display pixels) with "...", at whole UTF-8 characters; as is when it fits.
std::string fit_to_width(const std::string& text, float width);

}  // namespace gpusizer::ui
