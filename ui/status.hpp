// ui/status.hpp: the app's state as JSON, for whatever drives or watches it from outside: the
// browser page (window.gpusizerApp, the DOM mirror, the browser tests) and the desktop app's
// --layout file (the screenshot tests). One writer for both platforms.
#pragma once

#include <string>

#include "app.hpp"

namespace gpusizer::ui {

// {"link", "tab" (App::tab_name()), "message", "message_is_error", "has_report", "fits", "measured_open", "calibrated",
//  "scale", "report", "plan", "layout": [{name, x, y, w, h}], "windows": (the same)}
// "plan" is the Plan tab's search in brief (the one it shows; null before one ran):
// {"mode": "train" | "inference", "evaluated", "fitting", "meeting", "verdict" ("" or why there
// is no best), "best": {"tp", "cp", "pp", "dp", "ep", "gpus", serving: "disaggregated",
// "concurrency", "output_tokens_per_s_per_gpu", "tokens_per_s_per_user", "ttft_s", "tpot_s";
// training: "step_s", "tokens_per_s"; "memory_per_gpu"} | null}, or {"mode", "error"}.
// Rectangles are divided by `pixels_per_unit` (the browser's devicePixelRatio: CSS pixels).
// `report_json` is the report's JSON text when the caller keeps it (the browser caches it by
// App::revision()); null writes it here; "report" is null when there is no report. "fit" is the
// Memory tab's "What fits" ({"best_weights", "best_kv_cache", "max_context", "max_batch"}; null
// until that tab has computed it for this report).
std::string status_json(const App& app, float pixels_per_unit, const std::string* report_json = nullptr);

// s as a JSON string literal (quotes, backslashes and control characters escaped).
void append_json_string(std::string& out, const std::string& s);

}  // namespace gpusizer::ui
