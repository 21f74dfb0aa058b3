// ui/view_measured.cpp: the Measured tab and opening files (benchmark reports, configurations)
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

namespace {
// The benchmark's command line: a command, the same in every language.
constexpr const char* kBenchCommand = "  gpusizer-cuda-bench --quick --out report.json";
}   // namespace

void App::draw_measured() {
    MeasuredInput& m = s_.measured;
    if (!m.loaded) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos();
        ImGui::TextUnformatted(tr("No benchmark report is open."));
        ImGui::TextDisabled("%s", tr("gpusizer-cuda-bench measures what the calculator otherwise takes from datasheets (memory bandwidth, TFLOPS per precision, PCIe and NVLink, the CUDA context) and writes a JSON report. Open it here to see measured next to datasheet and to estimate with the measured figures:"));
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        ImGui::TextUnformatted(kBenchCommand);
        ImGui::Spacing();
        draw_open_file();
        return;
    }
    const MeasuredReport& rep = m.report;
    ImGui::Text("%s", m.file.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled(tr("%s %s, %s run, %s, status %s"), rep.tool.c_str(), rep.tool_version.c_str(), rep.mode.c_str(),
                        rep.created_utc.c_str(), std::string(to_string(rep.status)).c_str());
    if (ImGui::Checkbox(tr_label("Use the measured figures in the estimates"), &m.use)) {
        changed();
    }
    ImGui::SameLine();
    if (ImGui::SmallButton(tr_label("Close report"))) {
        m = MeasuredInput{};
        changed();
        return;
    }
    ImGui::SameLine();
    draw_open_file();
    if (!rep.status_detail.empty()) ImGui::TextDisabled("%s", rep.status_detail.c_str());
    if (!measured_error_.empty()) {
        ImGui::PushTextWrapPos();
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", measured_error_.c_str());
        ImGui::PopTextWrapPos();
        // Offer the GPU the report did measure.
        for (const MeasuredDevice& d : rep.devices)
            if (!d.catalog_id.empty() && d.catalog_id != s_.config.gpu && catalog_.find_gpu(d.catalog_id)) {
                const std::string label = strf(tr("Choose %s"), catalog_.gpu(d.catalog_id).name.c_str());
                if (ImGui::Button(label.c_str())) {
                    s_.config.gpu = d.catalog_id;
                    changed();
                }
                break;
            }
    }
    // What the estimate uses: the calibrated figures, measured next to datasheet.
    const Calibration* cal = measured() && report_.measured ? report_.measured.get() : nullptr;
    if (cal) {
        ImGui::Spacing();
        ImGui::Text(tr("The estimates use these measured figures of %s (%s):"), cal->device_name.c_str(), report_.gpu_name.c_str());
        if (begin_stretch_table("calibration",
                                {{tr("figure"), 1.6f}, {tr("datasheet"), 1.0f}, {tr("measured"), 1.0f}, {tr("of datasheet"), 0.8f}})) {
            for (const CalibratedFigure& f : cal->figures) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(measured_figure_label(f.key).c_str());
                if (ImGui::IsItemHovered()) ImGui::SetTooltip(tr("%s, from %s"), f.key.c_str(), f.from.c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(f.datasheet > 0 ? format_measured(f.datasheet, f.unit).c_str() : "-");
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_measured(f.measured, f.unit).c_str());
                ImGui::TableNextColumn();
                if (f.datasheet > 0) ImGui::Text("%d%%", int(std::lround(100.0 * f.measured / f.datasheet)));
                else ImGui::TextDisabled("%s", tr("replaces the constant"));
            }
            ImGui::EndTable();
        }
        if (!cal->datasheet_only.empty()) {
            std::string list;
            for (const std::string& k : cal->datasheet_only) list += (list.empty() ? "" : ", ") + measured_figure_label(k);
            ImGui::PushTextWrapPos();
            ImGui::TextDisabled(tr("Datasheet kept (not measured): %s"), list.c_str());
            ImGui::PopTextWrapPos();
        }
        for (const std::string& n : cal->notes) ImGui::TextDisabled(tr("note: %s"), n.c_str());
    } else if (!m.use) {
        ImGui::TextDisabled("%s", tr("The estimates use datasheet figures."));
    }
    // Every measurement of the report, per device, with the targets.
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::BeginChild("measurements");
    for (std::size_t d = 0; d < rep.devices.size(); ++d) {
        const MeasuredDevice& dev = rep.devices[d];
        ImGui::PushID(int(d));
        const std::string free_gib = format_gib(dev.memory.free_bytes), total_gib = format_gib(dev.memory.total_bytes);
        std::string head = dev.catalog_id.empty()
                               ? strf(tr("GPU %d: %s (not in the catalog), %s of %s usable"), dev.index, dev.name.c_str(), free_gib.c_str(),
                                      total_gib.c_str())
                               : strf(tr("GPU %d: %s = %s, %s of %s usable"), dev.index, dev.name.c_str(), dev.catalog_id.c_str(),
                                      free_gib.c_str(), total_gib.c_str());
        head += "###device";   // its ID (open or closed) stays when the language changes
        if (ImGui::CollapsingHeader(head.c_str(), d == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
            if (begin_stretch_table("m", {{tr("measurement"), 2.0f}, {tr("median"), 1.0f}, {tr("best"), 1.0f}, {tr("datasheet"), 1.0f},
                                          {tr("best / datasheet"), 0.9f}})) {
                for (const Measurement& x : dev.measurements) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(x.id.c_str());
                    if (!x.convention.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", x.convention.c_str());
                    if (!x.ok()) {
                        ImGui::TableNextColumn();
                        ImGui::TextColored(to_vec4(no_fit_color()), "%s", tr("failed"));
                        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", x.error.c_str());
                        continue;
                    }
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(format_measured(x.stats.median, x.unit).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(format_measured(x.stats.best, x.unit).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(x.datasheet > 0 ? format_measured(x.datasheet, x.unit).c_str() : "-");
                    ImGui::TableNextColumn();
                    if (x.fraction_of_datasheet > 0) ImGui::Text("%d%%", int(std::lround(100.0 * x.fraction_of_datasheet)));
                }
                ImGui::EndTable();
            }
            for (const TargetCheck& t : dev.targets)
                ImGui::TextColored(to_vec4(t.met ? fits_color() : no_fit_color()),
                                   t.met ? tr("met %s: %d%% of datasheet (target %d%%)") : tr("missed %s: %d%% of datasheet (target %d%%)"),
                                   t.name.c_str(), int(std::lround(t.fraction * 100)), int(std::lround(t.target * 100)));
        }
        ImGui::PopID();
    }
    for (const Measurement& x : rep.collectives)
        if (x.ok()) ImGui::Text(tr("%s: %s (median)"), x.id.c_str(), format_measured(x.stats.median, x.unit).c_str());
    for (const std::string& n : rep.notes) ImGui::TextDisabled(tr("note: %s"), n.c_str());
    ImGui::EndChild();
}

void App::draw_open_file() {
    ImGui::PushID("open-file");
    if (ImGui::Button(tr_label("Open file..."))) {
        // The browser opens its file picker and calls open_file() later; the desktop asks here.
        if (!platform_.pick_file()) ImGui::OpenPopup("path");
    }
    note_item("open file button");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(tr("A model (.gguf, .safetensors or a model folder: headers only), an engine's startup log, a gpusizer-cuda-bench report (measured figures) or a configuration JSON.%s"),
                          platform_.accepts_dropped_files() ? tr(" You can also drop the file on the app.") : "");
    if (ImGui::BeginPopup("path")) {
        ImGui::TextUnformatted(tr("Open a model (.gguf, .safetensors, a model folder), an engine log, a benchmark report or a configuration:"));
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 26.0f);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter =
            ImGui::InputTextWithHint("##path", tr("/path/to/model.gguf or report.json"), &file_path_, ImGuiInputTextFlags_EnterReturnsTrue);
        note_item("text field");
        ImGui::SameLine();
        if ((ImGui::Button(tr_label("Open")) || enter) && !file_path_.empty() && open_path(file_path_)) ImGui::CloseCurrentPopup();
        if (!s_.message.empty() && s_.message_is_error) {
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
            ImGui::TextColored(to_vec4(no_fit_color()), "%s", s_.message.c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::EndPopup();
    }
    ImGui::PopID();
}

}  // namespace gpusizer::ui
