// ui/charts.cpp: stacked memory bar and memory-versus-x line charts.
// Names and axis labels come in English (the callers mark theirs with tr_later) and are
// translated here, where they are drawn: tr() returns a name without a row (a GPU's) as it is.
#include "charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "gpusizer/format.hpp"
#include "i18n.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

namespace {

// The series names the memory charts are given (app.cpp memory_series: "total" and the core's
// memory parts, gpusizer/report.hpp kMemoryParts, whose labels are English), marked for the
// strings table; memory_bar() and memory_chart() show them through tr().
constexpr const char* kSeriesNames[] = {tr_later("total"),     tr_later("weights"),   tr_later("KV cache"), tr_later("activations"),
                                        tr_later("gradients"), tr_later("optimizer"), tr_later("overhead")};
constexpr bool same_text(const char* a, const char* b) {
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
}
constexpr bool series_names_cover_parts() {
    if (std::size(kSeriesNames) != std::size_t(kMemoryPartCount) + 1) return false;
    for (int i = 0; i < kMemoryPartCount; ++i)
        if (!same_text(kSeriesNames[i + 1], kMemoryParts[i].label)) return false;
    return true;
}
static_assert(series_names_cover_parts(), "kSeriesNames: \"total\" and kMemoryParts' labels, in order (a new part needs its row too)");

// A "nice" step for about `target` ticks over `range` (1, 2, 5 x 10^k).
double nice_step(double range, int target) {
    const double raw = range / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double n = raw / mag;
    return (n < 1.5 ? 1.0 : n < 3.5 ? 2.0 : n < 7.5 ? 5.0 : 10.0) * mag;
}

std::string short_count(double v) {
    char buf[32];
    if (v >= 1048576.0 && std::fmod(v, 1048576.0) == 0) std::snprintf(buf, sizeof buf, "%.0fM", v / 1048576.0);
    else if (v >= 1024.0 && std::fmod(v, 1024.0) == 0) std::snprintf(buf, sizeof buf, "%.0fk", v / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

ImU32 series_color(const Series& s) { return s.color == kForegroundSeries ? palette().total_series : s.color; }

}  // namespace

void memory_bar(const MemoryParts& parts, double usable, float height) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const double total = parts.total();
    const double scale_max = std::max(total, usable) * 1.04;
    if (!(scale_max > 0)) return;
    ImGui::InvisibleButton("##membar", ImVec2(width, height));
    const bool hovered = ImGui::IsItemHovered();
    dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), palette().chart_frame, 3.0f);
    float x = p0.x;
    const MemoryPartInfo* hovered_part = nullptr;
    for (const MemoryPartInfo& p : kMemoryParts) {
        const double v = parts.*p.bytes;
        if (v <= 0) continue;
        const float w = float(v / scale_max * width);
        dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(x + w, p0.y + height), part_color(p.part));
        if (hovered && ImGui::GetIO().MousePos.x >= x && ImGui::GetIO().MousePos.x < x + w) hovered_part = &p;
        const std::string label = format_gib(v, 1);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        if (ts.x + 8 < w)
            dl->AddText(ImVec2(x + (w - ts.x) * 0.5f, p0.y + (height - ts.y) * 0.5f), IM_COL32(255, 255, 255, 255), label.c_str());
        x += w;
    }
    // The usable-memory line, and its label above the bar's end.
    const float ux = p0.x + float(usable / scale_max * width);
    dl->AddLine(ImVec2(ux, p0.y - 4), ImVec2(ux, p0.y + height + 4), capacity_color(), 3.0f);
    if (hovered_part) {
        ImGui::BeginTooltip();
        ImGui::Text("%s: %s", tr(hovered_part->label), format_gib(parts.*hovered_part->bytes).c_str());
        ImGui::EndTooltip();
    } else if (hovered && std::fabs(ImGui::GetIO().MousePos.x - ux) < 6) {
        ImGui::SetTooltip(tr("usable: %s"), format_gib(usable).c_str());
    }
    // Legend: the parts, then the usable line, wrapping onto a new line when the next item would
    // not fit.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float s = ImGui::GetTextLineHeight() * 0.75f;
    for (int i = 0; i <= kMemoryPartCount; ++i) {
        const MemoryPartInfo* p = i < kMemoryPartCount ? &kMemoryParts[i] : nullptr;
        const double v = p ? parts.*p->bytes : usable;
        const std::string text = p ? std::string(tr(p->label)) + " " + (v > 0 ? format_gib(v) : std::string("0"))
                                   : strf(tr("usable %s"), format_gib(usable).c_str());
        const float w = s + 5 + ImGui::CalcTextSize(text.c_str()).x;
        if (i > 0) {
            ImGui::SameLine(0, 14);
            if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        }
        const ImVec2 c = ImGui::GetCursorScreenPos();
        if (p) dl->AddRectFilled(ImVec2(c.x, c.y + s * 0.2f), ImVec2(c.x + s, c.y + s * 1.2f), part_color(p->part), 2.0f);
        else dl->AddLine(ImVec2(c.x + s * 0.5f, c.y), ImVec2(c.x + s * 0.5f, c.y + s * 1.4f), capacity_color(), 3.0f);
        ImGui::Dummy(ImVec2(s, s));
        ImGui::SameLine(0, 5);
        if (!p) ImGui::TextColored(to_vec4(capacity_color()), "%s", text.c_str());
        else if (v > 0) ImGui::TextUnformatted(text.c_str());
        else ImGui::TextDisabled("%s", text.c_str());
    }
}

namespace {

// A chart's box: its id pushed, the cursor's place and the size (a width of 0: the space left),
// the hover, and the outline drawn. Each chart ends with ImGui::PopID().
struct ChartBox {
    ImDrawList* dl;
    ImVec2 p0, size;
    bool hovered;
    float lh;   // the text line's height
};
ChartBox begin_chart(const char* id, ImVec2 size) {
    ImGui::PushID(id);
    ChartBox c{ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), size, false, ImGui::GetTextLineHeight()};
    if (c.size.x <= 0) c.size.x = ImGui::GetContentRegionAvail().x;
    ImGui::InvisibleButton("##chart", c.size);
    c.hovered = ImGui::IsItemHovered();
    // An outline, not a fill: a fill this size is most of a frame's pixels on a software
    // rasterizer (theme.hpp, Palette::background), and the panel behind is nearly the same colour.
    c.dl->AddRect(c.p0, ImVec2(c.p0.x + c.size.x, c.p0.y + c.size.y), palette().chart_frame, 4.0f);
    return c;
}

}  // namespace

void memory_chart(const char* id, const std::vector<double>& x, const std::vector<Series>& series, double usable, AxisScale x_scale,
                  const char* x_label_en, ImVec2 size, double marker_x, std::vector<ChartLabel>* labels) {
    const bool log_x = x_scale == AxisScale::log2;
    const char* x_label = tr(x_label_en);
    const ChartBox box = begin_chart(id, size);
    ImDrawList* dl = box.dl;
    if (labels) labels->clear();
    // Draws a text and records its box.
    auto text = [&](ImVec2 at, ImU32 color, const char* s) {
        dl->AddText(at, color, s);
        if (labels) {
            const ImVec2 ts = ImGui::CalcTextSize(s);
            labels->push_back({s, at, ImVec2(at.x + ts.x, at.y + ts.y)});
        }
    };
    const ImVec2 p0 = box.p0;
    size = box.size;
    const bool hovered = box.hovered;
    const float lh = box.lh;
    // Plot area inside margins for the axis labels.
    // The top margin holds the unit ("GiB") above the top tick's label (QA D15: they overprinted).
    const ImVec2 a(p0.x + lh * 4.2f, p0.y + lh * 1.7f);
    // The bottom margin holds the x labels below the half line of the 0 tick's label (QA D15:
    // they met at the corner), and the axis name under them.
    const ImVec2 b(p0.x + size.x - lh * 0.8f, p0.y + size.y - lh * 2.9f);
    if (x.size() < 2 || b.x <= a.x || b.y <= a.y) {
        ImGui::PopID();
        return;
    }
    double ymax = usable;
    for (const Series& s : series)
        for (double v : s.y)
            if (std::isfinite(v)) ymax = std::max(ymax, v);
    ymax = ymax * 1.08 / kGiB;
    // About 5 ticks, fewer when the plot is short: the labels need 1.3 lines each or they
    // overprint (QA D15); each try takes the next nice step: 1 -> 2 -> 5 -> 10.
    double step = nice_step(ymax, 5);
    for (int i = 0; i < 8 && float(step / (std::ceil(ymax / step) * step)) * (b.y - a.y) < lh * 1.3f; ++i) {
        const double mag = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        const double n = step / mag;
        step = (n < 1.5 ? 2.0 : n < 3.5 ? 5.0 : 10.0) * mag;
    }
    ymax = std::ceil(ymax / step) * step;
    const double x0 = log_x ? std::log2(x.front()) : x.front();
    const double x1 = log_x ? std::log2(x.back()) : x.back();
    auto px = [&](double v) { return a.x + float(((log_x ? std::log2(v) : v) - x0) / (x1 - x0)) * (b.x - a.x); };
    auto py = [&](double bytes) { return b.y - float(bytes / kGiB / ymax) * (b.y - a.y); };

    // Grid and y labels (GiB).
    for (double g = 0; g <= ymax + 1e-9; g += step) {
        const float y = py(g * kGiB);
        dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), palette().grid);
        const std::string label = format_fixed(g, step < 1 ? 1 : 0);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        text(ImVec2(a.x - ts.x - 6, y - ts.y * 0.5f), palette().text_muted, label.c_str());
    }
    text(ImVec2(p0.x + 4, p0.y + 2), palette().text_muted, "GiB");
    // x ticks: powers of two on a log axis, else ~6 nice steps.
    std::vector<double> ticks;
    if (log_x) {
        for (double t = std::pow(2.0, std::ceil(x0)); t <= x.back() * 1.0001; t *= 2) ticks.push_back(t);
        while (ticks.size() > 8) {
            std::vector<double> thin;
            for (std::size_t i = 0; i < ticks.size(); i += 2) thin.push_back(ticks[i]);
            ticks = thin;
        }
    } else {
        const double xs = nice_step(x.back() - x.front(), 6);
        for (double t = std::ceil(x.front() / xs) * xs; t <= x.back() + 1e-9; t += xs) ticks.push_back(t);
    }
    for (double t : ticks) {
        const float xx = px(t);
        dl->AddLine(ImVec2(xx, a.y), ImVec2(xx, b.y), palette().grid_minor);
        const std::string label = short_count(t);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        // Centred under its tick, but no further right than the plot's right edge: the last
        // label ("256") centred on the edge touched the chart's frame at 820 px (QA D14).
        text(ImVec2(std::min(xx - ts.x * 0.5f, b.x - ts.x), b.y + lh * 0.5f + 3), palette().text_muted, label.c_str());
    }
    {
        const ImVec2 ts = ImGui::CalcTextSize(x_label);
        text(ImVec2((a.x + b.x - ts.x) * 0.5f, b.y + lh * 1.6f + 3), palette().text_muted, x_label);
    }
    // Usable memory.
    if (usable > 0) {
        const float y = py(usable);
        for (float xx = a.x; xx < b.x; xx += 10) dl->AddLine(ImVec2(xx, y), ImVec2(std::min(xx + 6, b.x), y), capacity_color(), 2.0f);
        text(ImVec2(a.x + 6, y - lh - 2), capacity_color(), strf(tr("usable %s"), format_gib(usable).c_str()).c_str());
    }
    // The current value.
    if (marker_x >= x.front() && marker_x <= x.back()) {
        const float mx = px(marker_x);
        dl->AddLine(ImVec2(mx, a.y), ImVec2(mx, b.y), (palette().accent & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 160), 1.5f);
        // At the top of the plot, on a patch of the background: at the bottom it sat on the
        // weights line (QA D15).
        const std::string label = strf(tr("now %s"), short_count(marker_x).c_str());
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        const ImVec2 at(std::min(mx + 4, b.x - ts.x - 2), a.y + lh + 10);   // below the legend
        dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), ImGui::GetColorU32(ImGuiCol_WindowBg));
        text(at, palette().accent, label.c_str());
    }
    // Series.
    dl->PushClipRect(a, ImVec2(b.x + 1, b.y + 1), true);
    for (const Series& s : series) {
        ImVec2 prev;
        bool have = false;
        for (std::size_t i = 0; i < x.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.y[i])) {
                have = false;
                continue;
            }
            const ImVec2 p(px(x[i]), py(s.y[i]));
            if (have) dl->AddLine(prev, p, series_color(s), 2.5f);
            prev = p;
            have = true;
        }
    }
    dl->PopClipRect();
    // Legend (top right).
    float lx = b.x - 8;
    for (auto it = series.rbegin(); it != series.rend(); ++it) {
        const char* name = tr(it->name);
        const ImVec2 ts = ImGui::CalcTextSize(name);
        lx -= ts.x + lh * 1.6f;
        dl->AddRectFilled(ImVec2(lx, a.y + 6 + lh * 0.25f), ImVec2(lx + lh * 0.7f, a.y + 6 + lh * 0.95f), series_color(*it), 2.0f);
        text(ImVec2(lx + lh * 0.95f, a.y + 6), palette().text, name);
    }
    // Hover: the nearest x and each series' value.
    if (hovered) {
        const float mx = ImGui::GetIO().MousePos.x;
        std::size_t best = 0;
        for (std::size_t i = 1; i < x.size(); ++i)
            if (std::fabs(px(x[i]) - mx) < std::fabs(px(x[best]) - mx)) best = i;
        dl->AddLine(ImVec2(px(x[best]), a.y), ImVec2(px(x[best]), b.y), palette().hover_line);
        ImGui::BeginTooltip();
        ImGui::Text("%s = %s", x_label, format_int(x[best]).c_str());
        for (const Series& s : series)
            if (best < s.y.size())
                ImGui::TextColored(to_vec4(series_color(s)), "%s: %s", tr(s.name),
                                   std::isfinite(s.y[best]) ? format_gib(s.y[best]).c_str() : tr("cannot run"));
        ImGui::EndTooltip();
    }
    ImGui::PopID();
}

namespace {

ImU32 with_alpha(ImU32 c, int alpha) { return (c & ~IM_COL32_A_MASK) | (ImU32(alpha) << IM_COL32_A_SHIFT); }

}  // namespace

void timeline_chart(const char* id, const std::vector<SimulationSample>& samples, ImVec2 size_asked) {
    const ChartBox box = begin_chart(id, size_asked);
    ImDrawList* dl = box.dl;
    const ImVec2 p0 = box.p0, size = box.size;
    const bool hovered = box.hovered;
    const float lh = box.lh;
    const ImVec2 a(p0.x + lh * 3.6f, p0.y + lh * 1.7f), b(p0.x + size.x - lh * 3.0f, p0.y + size.y - lh * 2.9f);
    if (samples.size() < 2 || b.x <= a.x || b.y <= a.y) {
        ImGui::PopID();
        return;
    }
    const double width = samples[1].t_s - samples[0].t_s;
    const double t1 = samples.back().t_s + width;
    double ymax = 1;
    for (const SimulationSample& s : samples) ymax = std::max({ymax, s.running, s.waiting});
    double step = nice_step(ymax * 1.05, 4);
    ymax = std::ceil(ymax * 1.05 / step) * step;
    auto px = [&](double t) { return a.x + float(t / t1) * (b.x - a.x); };
    auto py = [&](double n) { return b.y - float(n / ymax) * (b.y - a.y); };
    auto pk = [&](double f) { return b.y - float(std::clamp(f, 0.0, 1.0)) * (b.y - a.y); };
    for (double g = 0; g <= ymax + 1e-9; g += step) {
        dl->AddLine(ImVec2(a.x, py(g)), ImVec2(b.x, py(g)), palette().grid);
        const std::string label = short_count(g);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddText(ImVec2(a.x - ts.x - 6, py(g) - ts.y * 0.5f), palette().text_muted, label.c_str());
    }
    for (int pct = 0; pct <= 100; pct += 50) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%d%%", pct);
        dl->AddText(ImVec2(b.x + 6, pk(pct / 100.0) - lh * 0.5f), palette().text_muted, buf);
    }
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), palette().text_muted, tr("requests"));
    {
        const char* kv = tr("KV in use");
        dl->AddText(ImVec2(p0.x + size.x - ImGui::CalcTextSize(kv).x - 4, p0.y + 2), palette().text_muted, kv);
    }
    const double xs = nice_step(t1, 6);
    for (double t = 0; t <= t1 + 1e-9; t += xs) {
        const std::string tick = format_fixed(t, xs < 1 ? 1 : 0);
        const ImVec2 ts = ImGui::CalcTextSize(tick.c_str());
        dl->AddLine(ImVec2(px(t), a.y), ImVec2(px(t), b.y), palette().grid_minor);
        dl->AddText(ImVec2(std::min(px(t) - ts.x * 0.5f, b.x - ts.x), b.y + lh * 0.5f + 3), palette().text_muted, tick.c_str());
    }
    {
        const char* label = tr("time since the first request (s)");
        const ImVec2 ts = ImGui::CalcTextSize(label);
        dl->AddText(ImVec2((a.x + b.x - ts.x) * 0.5f, b.y + lh * 1.6f + 3), palette().text_muted, label);
    }
    const ImU32 kv_color = with_alpha(palette().accent, 60), running = palette().total_series, waiting = palette().warning;
    dl->PushClipRect(a, ImVec2(b.x + 1, b.y + 1), true);
    for (const SimulationSample& s : samples)   // the KV share as a band of bars, one per slice
        dl->AddRectFilled(ImVec2(px(s.t_s), pk(s.kv_used_fraction)), ImVec2(px(s.t_s + width), b.y), kv_color);
    auto line = [&](double SimulationSample::*field, ImU32 color) {
        for (std::size_t i = 1; i < samples.size(); ++i)
            dl->AddLine(ImVec2(px(samples[i - 1].t_s + width / 2), py(samples[i - 1].*field)),
                        ImVec2(px(samples[i].t_s + width / 2), py(samples[i].*field)), color, 2.0f);
    };
    line(&SimulationSample::running, running);
    line(&SimulationSample::waiting, waiting);
    dl->PopClipRect();
    // Legend (top, inside the plot).
    float lx = a.x + 8;
    for (const auto& [name, color] :
         {std::pair<const char*, ImU32>{tr("in flight"), running}, {tr("waiting"), waiting}, {tr("KV in use"), kv_color}}) {
        dl->AddRectFilled(ImVec2(lx, a.y + 6 + lh * 0.25f), ImVec2(lx + lh * 0.7f, a.y + 6 + lh * 0.95f),
                          color == kv_color ? with_alpha(palette().accent, 140) : color, 2.0f);
        dl->AddText(ImVec2(lx + lh * 0.95f, a.y + 6), palette().text, name);
        lx += lh * 1.6f + ImGui::CalcTextSize(name).x;
    }
    if (hovered) {
        const double t = (ImGui::GetIO().MousePos.x - a.x) / (b.x - a.x) * t1;
        const std::size_t i = std::size_t(std::clamp(int(t / width), 0, int(samples.size()) - 1));
        const SimulationSample& s = samples[i];
        dl->AddLine(ImVec2(px(s.t_s + width / 2), a.y), ImVec2(px(s.t_s + width / 2), b.y), palette().hover_line);
        ImGui::BeginTooltip();
        ImGui::TextUnformatted((format_fixed(s.t_s, 1) + " - " + format_fixed(s.t_s + width, 1) + " s").c_str());
        ImGui::Text(tr("in flight %s, waiting %s"), format_fixed(s.running, 1).c_str(), format_fixed(s.waiting, 1).c_str());
        ImGui::Text(tr("KV pool %s in use"), percent(s.kv_used_fraction).c_str());
        ImGui::EndTooltip();
    }
    ImGui::PopID();
}

void latency_chart(const char* id, const std::vector<LatencyRow>& rows, ImVec2 size_asked) {
    const ChartBox box = begin_chart(id, size_asked);
    ImDrawList* dl = box.dl;
    const ImVec2 p0 = box.p0, size = box.size;
    const float lh = box.lh;
    if (rows.empty()) {
        ImGui::PopID();
        return;
    }
    float name_w = 0;
    for (const LatencyRow& r : rows) name_w = std::max(name_w, ImGui::CalcTextSize(tr(r.name)).x);
    const float left = p0.x + lh * 0.6f + name_w + lh * 0.6f;
    const float right = p0.x + size.x - lh * 0.6f;
    const float row_h = (size.y - lh * 0.8f) / float(rows.size());
    const ImU32 c = palette().total_series;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const LatencyRow& r = rows[i];
        const float top = p0.y + lh * 0.4f + row_h * float(i);
        dl->AddText(ImVec2(p0.x + lh * 0.6f, top + lh * 0.1f), palette().text, tr(r.name));
        // One unit for the row (the p99's), the mean as the bar's tick and in the tooltip.
        const bool secs = r.stats.p99 >= 1.0;
        auto fig = [&](double v) { return secs ? format_fixed(v, 2) : format_fixed(v * 1e3, v >= 0.1 ? 0 : 1); };
        const std::string figures =
            "p50 " + fig(r.stats.p50) + "  p90 " + fig(r.stats.p90) + "  p99 " + fig(r.stats.p99) + (secs ? " s" : " ms");
        dl->AddText(ImVec2(left, top + lh * 0.1f), palette().text_muted, figures.c_str());
        // The bar under the figures, its row's p99 at 95% of the width.
        const float y0 = top + lh * 1.35f, y1 = std::min(top + row_h - lh * 0.3f, y0 + lh * 0.9f);
        if (!(r.stats.p99 > 0) || y1 <= y0) continue;
        auto x = [&](double v) { return left + float(v / (r.stats.p99 / 0.95)) * (right - left); };
        dl->AddRectFilled(ImVec2(left, y0), ImVec2(x(r.stats.p99), y1), with_alpha(c, 50), 2.0f);
        dl->AddRectFilled(ImVec2(left, y0), ImVec2(x(r.stats.p90), y1), with_alpha(c, 110), 2.0f);
        dl->AddRectFilled(ImVec2(left, y0), ImVec2(x(r.stats.p50), y1), with_alpha(c, 230), 2.0f);
        dl->AddLine(ImVec2(x(r.stats.mean), y0 - 3), ImVec2(x(r.stats.mean), y1 + 3), palette().accent, 2.0f);
    }
    if (box.hovered) {
        ImGui::BeginTooltip();
        for (const LatencyRow& r : rows)
            ImGui::Text(tr("%s: mean %s, p50 %s, p90 %s, p99 %s"), tr(r.name), format_duration(r.stats.mean).c_str(),
                        format_duration(r.stats.p50).c_str(), format_duration(r.stats.p90).c_str(), format_duration(r.stats.p99).c_str());
        ImGui::TextDisabled("%s", tr("bars: to p50, p90, p99; the tick: the mean"));
        ImGui::EndTooltip();
    }
    ImGui::PopID();
}

}  // namespace gpusizer::ui
