// ui/view_engine_log.cpp: the "Engine log" tab. A llama.cpp / llama-server / Ollama, vLLM or
// SGLang startup log, pasted or opened, beside the estimate of the configuration it describes,
// component by component: the core's reconcile_json (gpusizer/inspect.hpp), the answer of
// `gpusizer reconcile --json` and gs.reconcile(), read here as the CLI reads it.
#include <cmath>
#include <cstdio>

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "gpusizer/inspect.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

using nlohmann::json;

void App::reconcile_log() {
    log_dirty_ = false;
    log_facts_.clear();
    log_rows_.clear();
    log_notes_.clear();
    log_error_.clear();
    log_estimate_error_.clear();
    log_model_.clear();
    log_config_.clear();
    if (log_text_.find_first_not_of(" \t\r\n") == std::string::npos) return;
    try {
        // The Setup panel's model stands in for the one the log names (a model the catalog does
        // not have, a GGUF file): its configuration's model keys win over the log. Asked for, or
        // when the log names no catalog model (most excerpts and vLLM / SGLang logs print no
        // hyperparameters), with a note saying so.
        auto reconcile = [&](bool setup_model) {
            json overrides = json::object();
            if (setup_model) {
                // Parsed from string_views, as the core parses: one instantiation of nlohmann's
                // parser in the browser build, not a second for std::string.
                const json cfg = json::parse(std::string_view(config_to_json(s_.config)));
                for (const char* k : {"model", "gguf", "hf_dir", "mmproj"})
                    if (cfg.contains(k) && !cfg[k].is_null()) overrides[k] = cfg[k];
            }
            return json::parse(std::string_view(reconcile_json(log_text_, &catalog_, overrides.dump(), platform_.model_opener())));
        };
        json j = reconcile(log_use_model_);
        if (!log_use_model_ && j.value("estimate_error_key", "") == "model" && j.value("estimate_error_code", "") == "unknown_id") {
            j = reconcile(true);
            log_notes_.push_back(
                tr("the log names no catalog model: the estimate uses the Setup panel's model (choose it there, or open its GGUF file)"));
        }
        // "engine: llama.cpp": the name in the language shown, the value as the log writes it.
        auto fact = [&](const char* label, const json& v) {
            if (v.is_string() && !v.get<std::string>().empty()) log_facts_.push_back(std::string(label) + ": " + v.get<std::string>());
            else if (v.is_number() && v.get<double>() > 0) log_facts_.push_back(std::string(label) + ": " + format_int(v.get<double>()));
        };
        fact(tr("engine"), j["engine"]);
        fact(tr("model"), j["model_name"]);
        fact(tr("architecture"), j["architecture"]);
        fact(tr("file type"), j["file_type"]);
        fact(tr("layers"), j["n_layer"]);
        fact(tr("context (per sequence)"), j["n_ctx_per_seq"].get<double>() > 0 ? j["n_ctx_per_seq"] : j["n_ctx"]);
        fact(tr("KV cache type"), j["kv_type_k"]);
        if (j["kv_cache_tokens"].get<double>() > 0) fact(tr("KV cache tokens"), j["kv_cache_tokens"]);
        for (const auto& n : j["notes"]) log_notes_.push_back(n.get<std::string>());
        if (j.contains("estimate_error")) log_estimate_error_ = j["estimate_error"].get<std::string>();
        const json& est = j["estimate"];
        if (est.is_object()) {
            log_model_ = est["model"].get<std::string>() + " (" + est["source"].get<std::string>() + ")";
            log_config_ = est["config"].dump();
            for (const auto& c : est["components"])
                log_rows_.push_back({c["name"].get<std::string>(), c["meaning"].get<std::string>(), c["log"].get<double>(),
                                     c["estimate"].get<double>(), c["name"] == "kv_tokens"});
            for (const auto& n : est["notes"]) log_notes_.push_back(n.get<std::string>());
        }
    } catch (const Error& e) {
        log_error_ = e.what();
    } catch (const json::exception& e) {
        log_error_ = strf(tr("cannot read the reconciliation: %s"), e.what());
    }
}

void App::draw_engine_log() {
    // The facts and the notes are words and numbers in the language they were read in: a change
    // of language reads the log again.
    static Language read_in = language();
    if (read_in != language()) {
        read_in = language();
        log_dirty_ = true;
    }
    ImGui::PushID("engine-log");
    ImGui::PushTextWrapPos();
    ImGui::TextDisabled("%s", tr("Paste the startup log of llama.cpp / llama-server / Ollama, vLLM or SGLang (or open the file): its buffers beside this estimate."));
    ImGui::PopTextWrapPos();
    ImGui::InputTextMultiline("##log", &log_text_, ImVec2(-1, ImGui::GetTextLineHeight() * 6));
    note_item("text field");
    if (ImGui::Button(tr_label("Compare with the estimate"))) log_dirty_ = true;
    ImGui::SameLine();
    if (ImGui::Checkbox(tr_label("with the Setup panel's model"), &log_use_model_)) log_dirty_ = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("For a log of a model the catalog does not have: open its GGUF file first."));
    if (!log_name_.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", log_name_.c_str());
    }
    if (log_dirty_) reconcile_log();

    ImGui::PushTextWrapPos();
    if (!log_error_.empty()) ImGui::TextColored(to_vec4(no_fit_color()), "%s", log_error_.c_str());
    if (!log_facts_.empty()) {
        std::string line;
        for (const std::string& f : log_facts_) line += (line.empty() ? "" : "  |  ") + f;
        ImGui::TextUnformatted(line.c_str());
    }
    if (!log_estimate_error_.empty())
        ImGui::TextColored(to_vec4(no_fit_color()), tr("No estimate beside the log: %s"), log_estimate_error_.c_str());
    if (!log_model_.empty()) ImGui::Text(tr("Estimate of %s for the configuration the log describes:"), log_model_.c_str());
    ImGui::PopTextWrapPos();
    if (!log_rows_.empty() &&
        begin_stretch_table("components",
                            {{tr("component"), 2.6f}, {tr("log"), 1.0f}, {tr("estimate"), 1.0f}, {tr("difference"), 1.0f},
                             {tr("estimate / log"), 0.9f}})) {
        for (const LogRow& r : log_rows_) {
            auto shown = [&](double v) { return r.count ? format_int(v) : format_gib(v); };
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            text_wrapped_at_spaces(r.meaning);
            note_item("log component row");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(shown(r.log).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(shown(r.estimate).c_str());
            ImGui::TableNextColumn();
            const double d = r.estimate - r.log;
            ImGui::TextUnformatted(((d >= 0 ? "+" : "-") + shown(std::fabs(d))).c_str());
            ImGui::TableNextColumn();
            if (r.log > 0) ImGui::TextUnformatted(format_fixed(r.estimate / r.log, 2).c_str());
            else ImGui::TextDisabled("-");
        }
        ImGui::EndTable();
    }
    if (!log_config_.empty() && ImGui::Button(tr_label("Use the log's configuration"))) {
        // The rest of the app then shows what the log ran: its model, context, GPUs and formats.
        open_config_text(s_, log_config_, catalog_, platform_.model_opener());
        changed();
    }
    ImGui::PushTextWrapPos();
    for (const std::string& n : log_notes_) ImGui::TextDisabled(tr("note: %s"), n.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopID();
}

}  // namespace gpusizer::ui
