// ui/view_plots.cpp: the Plots tab
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
#include "i18n.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

void App::draw_plots() {
    const float h = std::max(ImGui::GetFontSize() * 11.0f, (ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 3.0f) * 0.5f);
    // The axes' names in English: memory_chart() draws them in the app's language.
    ImGui::TextDisabled(tr("Memory per GPU against context (batch %d)"), report_.config.batch);
    memory_chart("ctx", ctx_x_, ctx_series_, report_.gpu_usable, AxisScale::log2, tr_later("context (tokens)"), ImVec2(0, h),
                 double(report_.config.context));
    ImGui::TextDisabled(tr("Memory per GPU against batch (%s tokens each)"), format_int(double(report_.config.context)).c_str());
    memory_chart("batch", batch_x_, batch_series_, report_.gpu_usable, AxisScale::log2, tr_later("batch (sequences)"), ImVec2(0, h),
                 double(report_.config.batch));
}

}  // namespace gpusizer::ui
