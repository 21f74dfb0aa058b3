// ui/report_state.cpp: the report as the app hands it on, no display needed: the Report menu's
// text, CSV and JSON, and the Pinned tab's rows (a pinned report against the current one).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpusizer/format.hpp"
#include "state.hpp"

namespace gpusizer::ui {

// (The labels are shown through tr(): "Report copied as texto", app.cpp.)
ReportExport report_export(const Report& r, ReportFormat format) {
    switch (format) {
        case ReportFormat::text: return {report_to_text(r), "text/plain", ".txt", tr_later("text")};
        case ReportFormat::csv: return {report_to_csv(r), "text/csv", ".csv", tr_later("CSV")};
        case ReportFormat::json: return {report_to_json(r), "application/json", ".json", tr_later("JSON")};
    }
    return {report_to_json(r), "application/json", ".json", tr_later("JSON")};
}

// The rows in the current language (figure names, words and numbers: the Pinned tab reads them
// again when the language changes); the tests read them in English.
std::vector<PinnedRow> pinned_rows(const Report& a, const Report& b) {
    std::vector<PinnedRow> rows;
    auto heading = [&](const char* title) { rows.push_back({title, "", "", "", true}); };
    auto text = [&](const char* figure, const std::string& x, const std::string& y) {
        rows.push_back({figure, x, y, x == y ? "" : tr("changed")});
    };
    // A figure with a unit: the difference as the figure's own unit (signed) and in percent.
    // A figure not known on one side (a price the catalog lacks: NaN here) shows "-" and no difference.
    auto figure = [&](const char* name, double x, double y, std::string (*fmt)(double), bool percent = true) {
        auto cell = [&](double v) { return std::isfinite(v) && (x > 0 || y > 0) ? fmt(v) : std::string("-"); };
        PinnedRow r{name, cell(x), cell(y), ""};
        if (std::isfinite(x) && std::isfinite(y) && std::fabs(y - x) > 1e-9 * std::max(std::fabs(x), std::fabs(y))) {
            r.difference = (y > x ? "+" : "-") + fmt(std::fabs(y - x));
            if (percent && x > 0) r.difference += " (" + std::string(y > x ? "+" : "") + format_fixed(100.0 * (y - x) / x, 0) + "%)";
        }
        rows.push_back(std::move(r));
    };
    auto gib = [](double v) { return format_gib(v); };
    auto rate = [](double v) { return format_rate(v); };
    auto duration = [](double v) { return format_duration(v); };
    auto watts = [](double v) { return format_watts(v); };
    auto usd = [](double v) { return strf(tr("$%s"), format_fixed(v, v >= 100 ? 0 : v >= 1 ? 2 : 3).c_str()); };
    auto gpus = [](const Report& r) { return std::to_string(r.config.gpus) + " x " + r.gpu_name; };
    // The mode as the configuration names it, in the reader's words ("inference" -> "inferência").
    auto mode = [](Mode m) -> std::string {
        if (m == Mode::inference) return tr("inference");
        if (m == Mode::train) return tr("train");
        return std::string(to_string(m));   // lora, qlora
    };
    auto workload = [&](const Report& r) {
        return strf(tr("%s, %s weights, KV %s, %s tokens x %d"), mode(r.config.mode).c_str(), r.config.weights.c_str(),
                    r.config.kv_cache.c_str(), format_int(double(r.config.context)).c_str(), r.config.batch);
    };
    auto runtime = [](const Report& r) {
        return std::string(to_string(r.config.runtime)) + (r.config.runtime_version.empty() ? "" : " " + r.config.runtime_version);
    };
    heading(tr("Configuration"));
    text(tr("model"), a.model_name, b.model_name);
    text(tr("GPUs"), gpus(a), gpus(b));
    text(tr("workload"), workload(a), workload(b));
    text(tr("runtime"), runtime(a), runtime(b));
    heading(tr("Memory per GPU"));
    text(tr("verdict"), a.fits ? tr("fits") : tr("does not fit"), b.fits ? tr("fits") : tr("does not fit"));
    figure(tr("total"), a.per_gpu.total(), b.per_gpu.total(), +gib);
    figure(tr("usable"), a.gpu_usable, b.gpu_usable, +gib);
    figure(tr("weights"), a.per_gpu.weights, b.per_gpu.weights, +gib);
    figure(tr("KV cache"), a.per_gpu.kv_cache, b.per_gpu.kv_cache, +gib);
    figure(tr("activations"), a.per_gpu.activations, b.per_gpu.activations, +gib);
    figure(tr("overhead"), a.per_gpu.overhead, b.per_gpu.overhead, +gib);
    const bool training = a.config.mode != Mode::inference || b.config.mode != Mode::inference;
    heading(tr("Speed"));
    if (!training) {
        figure(tr("decode, tokens/s per sequence"), a.speed.decode_tokens_per_s, b.speed.decode_tokens_per_s, +rate);
        figure(tr("decode, tokens/s in all"), a.speed.decode_throughput_tokens_per_s, b.speed.decode_throughput_tokens_per_s, +rate);
        figure(tr("prefill, tokens/s"), a.speed.prefill_tokens_per_s, b.speed.prefill_tokens_per_s, +rate);
        figure(tr("time to first token"), a.speed.ttft_s, b.speed.ttft_s, +duration);
    } else {
        figure(tr("training, tokens/s"), a.speed.train_tokens_per_s, b.speed.train_tokens_per_s, +rate);
        figure(tr("one step"), a.speed.train_step_s, b.speed.train_step_s, +duration);
        figure(tr("run at the wall"), a.speed.train_wall_time_s, b.speed.train_wall_time_s, +duration);
    }
    heading(tr("Power and cost"));
    figure(tr("at the wall"), a.power.wall_w, b.power.wall_w, +watts);
    const double unknown = std::nan("");
    auto own = [&](const Report& r) {
        return !r.cost.gpu_price_known ? unknown : training ? r.cost.own_usd_per_run : r.cost.own_usd_per_million_tokens;
    };
    auto rent = [&](const Report& r) {
        return !r.cost.rent_known ? unknown : training ? r.cost.rent_usd_per_run : r.cost.rent_usd_per_million_tokens;
    };
    figure(training ? tr("owning, the run") : tr("owning, per million tokens"), own(a), own(b), +usd);
    figure(training ? tr("renting, the run") : tr("renting, per million tokens"), rent(a), rent(b), +usd);
    return rows;
}

}  // namespace gpusizer::ui
