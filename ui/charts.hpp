// ui/charts.hpp: the charts, drawn with ImGui draw lists (no plotting dependency).
// One function per chart, as ImPlot does; sizes in bytes, formatted with gpusizer/format.hpp.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "gpusizer/report.hpp"
#include "gpusizer/simulate.hpp"

namespace gpusizer::ui {

// One GPU's memory as a horizontal stacked bar (its parts in kMemoryParts' order) against what the
// runtime may use, with a legend underneath.
void memory_bar(const MemoryParts& parts, double usable, float height);

// A series' color that follows the theme: the foreground (palette().total_series).
constexpr ImU32 kForegroundSeries = 0;

struct Series {
    std::string name;        // in English (the chart shows it through tr(): marked where it is written)
    std::vector<double> y;   // bytes; NaN = no value (the configuration could not run)
    ImU32 color;             // kForegroundSeries: the theme's foreground
};

// A line chart of memory (GiB) against x, with the GPU's usable memory as a red line; log-x
// when asked. Hovering shows the values at the nearest x. `x_label` and the series' names in
// English: the chart draws them in the app's language (i18n.hpp tr()).
// A text the chart drew and its box (screen coordinates), for tests that check that no two
// labels overprint (QA D15).
struct ChartLabel {
    std::string text;
    ImVec2 min, max;
};

// How the x axis spaces its values: evenly, or by powers of two (context and batch sweeps).
enum class AxisScale { linear, log2 };

void memory_chart(const char* id, const std::vector<double>& x, const std::vector<Series>& series, double usable, AxisScale x_scale,
                  const char* x_label, ImVec2 size, double marker_x = 0,   // marker_x > 0: a vertical line at the current value
                  std::vector<ChartLabel>* labels = nullptr);              // when given: every text drawn, with its box

// The request-level simulation's run over time (gpusizer/simulate.hpp): requests in flight and
// waiting (left axis) and the share of the KV pools in use (a shaded band, right axis, 0-100%).
// Hovering shows the slice's values.
void timeline_chart(const char* id, const std::vector<SimulationSample>& samples, ImVec2 size);

// Latency percentiles of the simulation: one row per measure (TTFT, TPOT, E2E), a bar to p50,
// lighter to p90 and p99, the mean as a tick, each row on its own scale with its figures beside.
struct LatencyRow {
    const char* name;     // in English, shown through tr()
    LatencyStats stats;   // seconds
};
void latency_chart(const char* id, const std::vector<LatencyRow>& rows, ImVec2 size);

}  // namespace gpusizer::ui
