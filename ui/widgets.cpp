// ui/widgets.cpp: see widgets.hpp.
#include "widgets.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <imgui_internal.h>   // ImGui::RenderTextClipped, TempInputIsActive: slider_float's text

#include "gpusizer/format.hpp"
#include "i18n.hpp"
#include "state.hpp"

namespace gpusizer::ui {

const char* mode_label(Mode m) {
    switch (m) {
        case Mode::inference: return tr("Inference");
        case Mode::train: return tr("Full training");
        case Mode::lora: return "LoRA";
        case Mode::qlora: return "QLoRA";
    }
    return "?";
}

bool pick_selectable(const char* label, bool selected, ImGuiSelectableFlags flags) {
    if (ImGui::Selectable(label, selected, flags)) return true;
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.NavVisible || !ImGui::IsItemFocused() || !ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_Enter], false) ||
        (flags & ImGuiSelectableFlags_Disabled))
        return false;
    if (!(flags & ImGuiSelectableFlags_DontClosePopups)) ImGui::CloseCurrentPopup();   // no-op outside a popup
    return true;
}

// A labelled row: label on the left at a fixed width, the widget filling the rest.
void row_label(const char* label) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(ImGui::GetFontSize() * 7.5f);
    ImGui::SetNextItemWidth(-1);
}

void width_before_help_marker() {
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("(?)").x - ImGui::GetStyle().ItemSpacing.x);
}

void same_line_fitting(const char* next, float spacing) {
    const float gap = spacing < 0 ? ImGui::GetStyle().ItemSpacing.x : spacing;
    // The cursor is at the start of the next line now: the line's right edge is as far as the
    // room from there.
    const float edge = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    if (ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(next).x <= edge + 0.5f) ImGui::SameLine(0, gap);
}

void help_marker(const char* text) {
    same_line_fitting("(?)");
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) wrapped_tooltip(text);
    // A touch screen has no hover: a tap opens the text until the next tap (QA E17: only a long
    // press, which nothing hints at, showed it).
    ImGui::PushID(text);
    if (ImGui::IsItemClicked()) ImGui::OpenPopup("help");
    if (ImGui::BeginPopup("help")) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndPopup();
    }
    ImGui::PopID();
}

void text_wrapped_at_spaces(const std::string& text, const ImVec4* color) {
    const auto width = [](std::string_view t) { return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x; };
    if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
    // One item (IsItemHovered, the layout's notes), its lines under the first as TextWrapped's are.
    ImGui::BeginGroup();
    // Every line starts at the group's x, where the cursor is (after SameLine or a bullet too): one
    // room for all of them.
    const float room = ImGui::GetContentRegionAvail().x;
    for (std::string_view line : lines_at_spaces(text, room, room, width)) ImGui::TextUnformatted(line.data(), line.data() + line.size());
    ImGui::EndGroup();
    if (color) ImGui::PopStyleColor();
}

void wrapped_tooltip(const std::string& text) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// A slider over a setting whose 0 means "the default the core chooses": it shows the value in
// use, and "auto" puts the default back.
bool default_slider(const char* id, double& value, double in_use, float lo, float hi, const char* format, bool log) {
    ImGui::PushID(id);
    bool edited = false;
    float v = float(value > 0 ? value : in_use);
    // Room after the slider for "auto" (a small button) and a help marker "(?)" (QA E10: the
    // marker was cut at the edge), each after the item spacing.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float after = ImGui::CalcTextSize(tr("auto")).x + style.FramePadding.x * 2 + ImGui::CalcTextSize("(?)").x + style.ItemSpacing.x * 2;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - after);
    if (slider_float("##v", &v, lo, hi, format, log ? ImGuiSliderFlags_Logarithmic : 0)) {
        value = std::clamp(round_to_format(v, format), double(lo), double(hi));
        edited = true;
    }
    ImGui::SameLine();
    if (value > 0) {
        if (ImGui::SmallButton(tr_label("auto"))) {
            value = 0;
            edited = true;
        }
    } else {
        ImGui::TextDisabled("%s", tr("auto"));
    }
    ImGui::PopID();
    return edited;
}

bool slider_float(const char* label, float* v, float lo, float hi, const char* format, ImGuiSliderFlags flags) {
    if (language() == Language::en || !std::strchr(format, '%')) return ImGui::SliderFloat(label, v, lo, hi, format, flags);
    // ImGui prints the value with printf's '.'. The slider draws its text in no colour, and the
    // language's ("0,40") goes where ImGui centres its own (SliderScalar: RenderTextClipped over
    // the frame, the label after it). All else stays ImGui's: rounding to `format`, keyboard
    // steps, Ctrl+click typing (whose field reads and shows '.', as every typed number field).
    const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
    const ImGuiID id = ImGui::GetID(label);
    if (window->SkipItems || ImGui::TempInputIsActive(id)) return ImGui::SliderFloat(label, v, lo, hi, format, flags);
    const float w = ImGui::CalcItemWidth();   // before the slider uses up SetNextItemWidth's
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));
    const bool edited = ImGui::SliderFloat(label, v, lo, hi, format, flags);
    ImGui::PopStyleColor();
    // Clipped, or typing from this frame on (its field shows from the next).
    if (!ImGui::IsItemVisible() || ImGui::TempInputIsActive(id)) return edited;
    const ImVec2 min = ImGui::GetItemRectMin(), max(min.x + w, min.y + ImGui::GetFrameHeight());
    const std::string shown = localized_number(strf(format, double(*v)));
    ImGui::RenderTextClipped(min, max, shown.c_str(), shown.c_str() + shown.size(), nullptr, ImVec2(0.5f, 0.5f));
    if (const char* end = ImGui::FindRenderedTextEnd(label); end != label) {
        const ImGuiStyle& st = ImGui::GetStyle();
        ImGui::RenderText(ImVec2(max.x + st.ItemInnerSpacing.x, min.y + st.FramePadding.y), label, end);
    }
    return edited;
}

bool key_slider(const char* id, const char* key, double& value, float lo, float hi, const char* format) {
    float v = float(value);
    if (!slider_float(id, &v, lo, hi, format)) return false;
    value = clamp_to_key(key, round_to_format(v, format));
    return true;
}

bool limit_drag(const char* label, std::optional<double>& value, float width, float speed, float drag_max, double most,
                const char* none) {
    ImGui::SetNextItemWidth(width);
    float v = float(value.value_or(0.0));
    if (!ImGui::DragFloat(label, &v, speed, 0.0f, drag_max, v > 0 ? "%.0f" : none)) return false;
    const double limit = std::clamp(round_to_format(v, "%.0f"), 0.0, most);
    value = limit > 0 ? std::optional<double>(limit) : std::nullopt;
    return true;
}

bool begin_stretch_table(const char* id, std::initializer_list<StretchColumn> columns) {
    if (!ImGui::BeginTable(id, int(columns.size()), ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) return false;
    for (const StretchColumn& c : columns) ImGui::TableSetupColumn(c.name, ImGuiTableColumnFlags_WidthStretch, c.weight);
    ImGui::TableHeadersRow();
    return true;
}

std::string format_usd(double v) {
    // Brazilian Portuguese writes dollars "US$ 1.250" ("$" alone would read as reais to some).
    const std::string n = std::fabs(v) >= 100 ? format_int(std::round(v)) : format_fixed(v, std::fabs(v) >= 1 ? 2 : 3);
    return strf(tr("$%s"), n.c_str());
}

void cell_or_dash(bool known, const std::string& text) {
    if (known)
        ImGui::TextUnformatted(text.c_str());
    else
        ImGui::TextDisabled("-");
}

// The widths of the tab's fields: a number field `w` wide with its - and + buttons, a field
// without them, a checkbox and a button, each with its label.
float stepper_item_width(float w) { return w + 2 * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x); }
float stepper_width(float w, const char* label) {
    return stepper_item_width(w) + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}
float field_width(float w, const char* label) { return w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x; }
float checkbox_width(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}
float button_width(const char* label) { return ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x; }

std::string percent(double f, int decimals) { return format_fixed(f * 100.0, decimals) + "%"; }

void beside_if_fits(float width, float spacing) {
    ImGui::SameLine(0, spacing);
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

std::string fit_to_width(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    const float dots = ImGui::CalcTextSize("...").x;
    std::size_t n = text.size();
    while (n > 0) {
        --n;
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;   // whole UTF-8 characters
        if (ImGui::CalcTextSize(text.data(), text.data() + n).x + dots <= width) break;
    }
    while (n > 0 && text[n - 1] == ' ') --n;
    return text.substr(0, n) + "...";
}

}  // namespace gpusizer::ui
