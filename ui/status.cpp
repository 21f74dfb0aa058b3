// ui/status.cpp: see status.hpp.
#include "status.hpp"

#include "gpusizer/format.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

#include "view_plan.hpp"

namespace gpusizer::ui {

void append_json_string(std::string& out, const std::string& s) {
    out += '"';
    for (const char ch : s) {
        const unsigned char u = static_cast<unsigned char>(ch);
        switch (ch) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (u < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", u);
                    out += buf;
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
}

namespace {

// `,"key":value`, a double to 17 significant digits (it reads back as the same double); null
// for a value that is not finite.
void append_number(std::string& out, const char* key, double v) {
    char buf[96];
    if (std::isfinite(v)) std::snprintf(buf, sizeof buf, ",\"%s\":%.17g", key, v);
    else std::snprintf(buf, sizeof buf, ",\"%s\":null", key);
    out += buf;
}

// The Plan tab's search in brief (PlanSummary; null before one ran), with plan_to_json's names:
// {"mode", "evaluated", "fitting", "meeting", "verdict", "best": {...} | null} or {"mode", "error"}.
std::string plan_json(const PlanSummary* s) {
    if (!s) return "null";
    std::string out = "{\"mode\":";
    append_json_string(out, std::string(to_string(s->mode)));
    if (!s->error.empty()) {
        out += ",\"error\":";
        append_json_string(out, s->error);
        return out + "}";
    }
    append_number(out, "evaluated", double(s->evaluated));
    append_number(out, "fitting", double(s->fitting));
    append_number(out, "meeting", double(s->meeting));
    out += ",\"verdict\":";
    append_json_string(out, s->verdict);
    if (!s->has_best) return out + ",\"best\":null}";
    out += ",\"best\":{\"tp\":" + std::to_string(s->tp);
    const std::pair<const char*, int> degrees[] = {{"cp", s->cp}, {"pp", s->pp}, {"dp", s->dp}, {"ep", s->ep}, {"gpus", s->gpus}};
    for (const auto& [key, v] : degrees) append_number(out, key, double(v));
    if (s->mode == PlanMode::inference) {
        out += s->disaggregated ? ",\"disaggregated\":true" : ",\"disaggregated\":false";
        append_number(out, "concurrency", s->concurrency);
        append_number(out, "output_tokens_per_s_per_gpu", s->output_tokens_per_s_per_gpu);
        append_number(out, "tokens_per_s_per_user", s->tokens_per_s_per_user);
        append_number(out, "ttft_s", s->ttft_s);
        append_number(out, "tpot_s", s->tpot_s);
    } else {
        append_number(out, "step_s", s->step_s);
        append_number(out, "tokens_per_s", s->tokens_per_s);
    }
    append_number(out, "memory_per_gpu", s->memory_per_gpu);
    return out + "}}";
}

}  // namespace

std::string status_json(const App& app, float pixels_per_unit, const std::string* report_json) {
    const bool report = app.has_report();
    std::string out = "{\"link\":";
    append_json_string(out, app.link());
    out += ",\"tab\":";
    append_json_string(out, app.tab_name());
    // The app's language ("en", "pt-BR"): its texts, and the figures below, are in it.
    out += ",\"lang\":";
    append_json_string(out, language_code(app.state().language));
    out += ",\"message\":";
    // Messages echo links and files (a model's name): no NUL or bidirectional control reaches
    // the page's status line (QA E11).
    append_json_string(out, printable_text(app.state().message));
    out += app.state().message_is_error ? ",\"message_is_error\":true" : ",\"message_is_error\":false";
    out += report ? ",\"has_report\":true" : ",\"has_report\":false";
    if (report) out += app.report().fits ? ",\"fits\":true" : ",\"fits\":false";
    out += app.state().measured.loaded ? ",\"measured_open\":true" : ",\"measured_open\":false";
    out += report && app.report().measured ? ",\"calibrated\":true" : ",\"calibrated\":false";
    out += ",\"report\":";
    out += !report ? std::string("null") : report_json ? *report_json : report_to_json(app.report(), 0);
    // The memory figures as the canvas writes them (format_gib of the unrounded bytes), for the
    // page's text mirror: the report's JSON rounds to whole bytes, and a figure at a half MiB then
    // rounded the other way (QA E12: 362 MiB drawn, 363 MiB read aloud and printed).
    if (report) {
        const Report& r = app.report();
        out += ",\"shown\":{\"total\":";
        append_json_string(out, format_gib(r.per_gpu.total()));
        out += ",\"usable\":";
        append_json_string(out, format_gib(r.gpu_usable));
        out += ",\"headroom\":";
        append_json_string(out, format_gib(std::fabs(r.headroom)));
        for (const MemoryPartInfo& p : kMemoryParts) {
            out += ",\"";
            out += p.key;
            out += "\":";
            append_json_string(out, format_gib(r.per_gpu.*p.bytes));
        }
        out += "}";
    } else {
        out += ",\"shown\":null";
    }
    // The Memory tab's "What fits" (FitReport's names), for the page's mirror; null until that
    // tab computed it for this report.
    if (const FitReport* f = report ? app.what_fits() : nullptr) {
        out += ",\"fit\":{\"best_weights\":";
        append_json_string(out, f->best_weights);
        out += ",\"best_kv_cache\":";
        append_json_string(out, f->best_kv_cache);
        append_number(out, "max_context", double(f->max_context));
        append_number(out, "max_batch", double(f->max_batch));
        out += "}";
    } else {
        out += ",\"fit\":null";
    }
    out += ",\"plan\":" + plan_json(shown_plan_summary());
    // The Plan tab's request simulation in brief (simulation_to_json's names), or null.
    double rate = 0;
    if (const SimulationReport* s = shown_simulation(&rate)) {
        out += ",\"simulation\":{\"completed\":" + std::to_string(s->completed);
        append_number(out, "request_rate", rate);
        append_number(out, "output_tokens_per_s", s->output_tokens_per_s);
        append_number(out, "ttft_p50_s", s->ttft_s.p50);
        append_number(out, "ttft_p99_s", s->ttft_s.p99);
        append_number(out, "tpot_p50_s", s->tpot_s.p50);
        append_number(out, "tpot_p99_s", s->tpot_s.p99);
        out += "}";
    } else {
        out += ",\"simulation\":null";
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, ",\"scale\":%g", double(pixels_per_unit));
    out += buf;
    std::string rects = "[";
    const double k = pixels_per_unit > 0 ? 1.0 / double(pixels_per_unit) : 1.0;
    bool first = true;
    for (const auto& r : app.layout()) {
        rects += first ? "{\"name\":" : ",{\"name\":";
        append_json_string(rects, r.name);
        std::snprintf(buf, sizeof buf, ",\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f}", r.x * k, r.y * k, r.w * k, r.h * k);
        rects += buf;
        first = false;
    }
    rects += "]";
    out += ",\"layout\":" + rects + ",\"windows\":" + rects + "}";
    return out;
}

}  // namespace gpusizer::ui
