// ui/view_local_models.cpp: models from their files. Opening a path (the desktop's command line,
// drop and "Open file..."), and the "Local models" tab: what the platform found in the Hugging
// Face cache and Ollama's and LM Studio's folders (native/app/local_models.cpp scans them, off the
// UI thread); choosing one makes it the configuration's model, read from its headers.
#include <algorithm>
#include <cstdio>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

bool App::open_path(const std::string& path) {
    const PathKind k = platform_.classify_path(path);
    switch (k.kind) {
        case PathKind::gguf: return open_model("gguf", k.path);
        case PathKind::hf_dir: return open_model("hf_dir", k.path);
        case PathKind::text: {
            std::string text, error;
            if (!platform_.read_file(k.path, text, error)) {
                notify_error(error);
                return false;
            }
            return open_file(k.path.substr(k.path.find_last_of("/\\") + 1), text);
        }
        case PathKind::missing:
        case PathKind::unusable: break;
    }
    notify_error(k.error.empty() ? strf(tr("%s: cannot be opened"), path.c_str()) : k.error);
    return false;
}

bool App::open_model(const std::string& key, const std::string& path) {
    const bool ok = open_model_file(s_, key, path, catalog_, platform_.model_opener());
    if (ok) set_gpu_count(s_, s_.config.gpus, current_arch(s_, catalog_));
    changed();
    return ok;
}

bool App::open_model_text(const std::string& name, const std::string& text, bool keep_weights) {
    const bool ok = gpusizer::ui::open_model_text(s_, name, text, catalog_, keep_weights);
    if (ok) set_gpu_count(s_, s_.config.gpus, current_arch(s_, catalog_));
    changed();
    return ok;
}

void App::draw_local_models() {
    platform_.scan_local_models(Platform::Scan::once);   // the first time the tab shows
    const LocalModels found = platform_.local_models();
    ImGui::PushID("local-models");
    if (ImGui::Button(tr_label("Rescan"))) platform_.scan_local_models(Platform::Scan::again);
    ImGui::SameLine();
    if (found.scanning) ImGui::TextDisabled("%s", tr("looking in the Hugging Face cache and Ollama's and LM Studio's folders..."));
    else if (found.scanned)
        ImGui::TextDisabled(found.models.size() == 1 ? tr("%d model; choose one to size it from its headers (the weights are not read)")
                                                     : tr("%d models; choose one to size it from its headers (the weights are not read)"),
                            int(found.models.size()));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
    ImGui::InputTextWithHint("##filter", tr("filter models"), &local_filter_);
    note_item("text field");

    const std::string& current =
        s_.source == ModelSource::file ? (s_.config.gguf.empty() ? s_.config.hf_dir : s_.config.gguf) : std::string();
    // The table as tall as its rows, leaving room below for where the scan looked and its notes.
    int matching = 0;
    for (const LocalModel& m : found.models) matching += filter_matches(local_filter_, m.name, m.where) ? 1 : 0;
    const float row = ImGui::GetFrameHeight();
    const float footer =
        ImGui::GetTextLineHeightWithSpacing() * float(found.places.size() + std::min<std::size_t>(found.notes.size(), 4) + 1);
    const float rows_h = std::max(row * 4.0f, std::min(row * (float(matching) + 1.5f), ImGui::GetContentRegionAvail().y - footer));
    int shown = 0;
    if (!found.models.empty() &&
        ImGui::BeginTable("models", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY,
                          ImVec2(0, rows_h))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn(tr("model"), ImGuiTableColumnFlags_WidthStretch, 3.0f);
        ImGui::TableSetupColumn(tr("format"), ImGuiTableColumnFlags_WidthStretch, 0.8f);
        ImGui::TableSetupColumn(tr("on disk"), ImGuiTableColumnFlags_WidthStretch, 0.8f);
        ImGui::TableSetupColumn(tr("found in"), ImGuiTableColumnFlags_WidthStretch, 1.1f);
        ImGui::TableHeadersRow();
        for (std::size_t i = 0; i < found.models.size(); ++i) {
            const LocalModel& m = found.models[i];
            if (!filter_matches(local_filter_, m.name, m.where)) continue;
            ++shown;
            ImGui::PushID(int(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (pick_selectable(m.name.c_str(), !current.empty() && m.path == current, ImGuiSelectableFlags_SpanAllColumns))
                open_model(m.format == "gguf" ? "gguf" : "hf_dir", m.path);
            note_item("local model row");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.path.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(m.format == "gguf" ? "GGUF" : "safetensors");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(m.bytes > 0 ? format_bytes_short(m.bytes).c_str() : "-");
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", m.where.c_str());
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos();
    if (found.scanned && found.models.empty())
        ImGui::TextUnformatted(tr("No models found. gpusizer looks in the Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub), Ollama's folder ($OLLAMA_MODELS, ~/.ollama/models) and LM Studio's (~/.lmstudio/models); a model elsewhere opens with Open file... or by dropping it on the window."));
    else if (found.scanned && shown == 0)
        ImGui::TextDisabled("%s", tr("No model matches the filter."));
    for (const std::string& p : found.places) ImGui::TextDisabled(tr("looked in %s"), p.c_str());
    for (const std::string& n : found.notes) ImGui::TextDisabled(tr("note: %s"), n.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopID();
}

}  // namespace gpusizer::ui
