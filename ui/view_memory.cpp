// ui/view_memory.cpp: the Memory tab: headline verdict, breakdown table, inverse questions (largest context/batch)
// (One file per view, as Tracy's server splits its View; the App and its frame are in
// app.cpp, shared widgets in widgets.cpp.)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

void App::draw_headline() {
    const Report& r = report_;
    ImGui::Spacing();
    const ImU32 color = r.fits ? fits_color() : no_fit_color();
    ImGui::SetWindowFontScale(1.45f);
    ImGui::TextColored(to_vec4(color), "%s", r.fits ? tr("Fits") : tr("Does not fit"));
    ImGui::SetWindowFontScale(1.0f);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    // The headline wraps at the window's edge instead of being cut (QA D14 at 820 px, phones),
    // between words only, not inside a figure.
    ImGui::PushTextWrapPos(0.0f);
    if (r.fits)
        text_wrapped_at_spaces(strf(tr("%s of %s per GPU, %s to spare"), format_gib(r.per_gpu.total()).c_str(),
                                    format_gib(r.gpu_usable).c_str(), format_gib(r.headroom).c_str()));
    else
        text_wrapped_at_spaces(strf(tr("%s needed per GPU, %s usable: %s short"), format_gib(r.per_gpu.total()).c_str(),
                                    format_gib(r.gpu_usable).c_str(), format_gib(-r.headroom).c_str()));
    text_wrapped_at_spaces(
        strf(tr("%s on %d x %s, %s, %s weights, %s tokens x %d, %s"), r.model_name.c_str(), r.config.gpus, r.gpu_name.c_str(),
             tr(mode_label(r.config.mode)), r.config.weights.c_str(), format_int(double(r.config.context)).c_str(), r.config.batch,
             std::string(to_string(r.config.runtime)).c_str()),
        &ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    // Speed and power at a glance (the Speed & power tab has the rest).
    const SpeedReport& sp = r.speed;
    std::string line;
    if (r.config.mode == Mode::inference) {
        const bool offload = sp.offload.active && sp.offload.decode_tokens_per_s > 0;
        const std::string rate = format_rate(offload ? sp.offload.decode_tokens_per_s : sp.decode_tokens_per_s);
        line = strf(offload ? tr("~%s tokens/s per sequence (layers offloaded to RAM)") : tr("~%s tokens/s per sequence"), rate.c_str());
        if (r.config.batch > 1 || r.parallel.dp > 1) line += strf(tr(", %s in all"), format_rate(sp.decode_throughput_tokens_per_s).c_str());
        line += strf(tr(" - first token in %s"), format_duration(sp.ttft_s).c_str());
    } else {
        line = strf(tr("~%s training tokens/s"), format_rate(sp.train_tokens_per_s).c_str());
        if (sp.train_time_s > 0)
            line += strf(tr(", %s for %s tokens"), format_duration(sp.train_time_s).c_str(), format_count(r.config.train_tokens).c_str());
    }
    // What the machine draws at the plug doing this job (the nameplate is in the Speed & power
    // tab, what it costs in the Cost tab).
    const PowerReport& pw = r.power;
    line += strf(pw.wall_phase == "train"     ? tr(" - %s at the wall training")
                 : pw.wall_phase == "serving" ? tr(" - %s at the wall under load")
                                              : tr(" - %s at the wall generating"),
                 format_watts(pw.wall_w).c_str());
    if (r.power.hardware_price_known) line += strf(tr(" - GPUs $%s"), format_int(r.power.hardware_usd).c_str());
    // Phrase by phrase, each on the line while it fits: ImGui wraps after punctuation, which cut
    // a figure in two ("first token in 7," / "26 s" with Portuguese's decimal comma, on phones).
    for (std::size_t from = 0; from < line.size();) {
        const std::size_t dash = line.find(" - ", from);
        const std::string phrase = line.substr(from, dash == std::string::npos ? std::string::npos : dash - from);
        if (from == 0) {
            ImGui::TextUnformatted(phrase.c_str());
        } else {
            const std::string text = "- " + phrase;
            same_line_fitting(text.c_str());
            ImGui::TextUnformatted(text.c_str());
        }
        from = dash == std::string::npos ? line.size() : dash + 3;
    }
    if (!sp.native) {
        ImGui::SameLine();
        ImGui::TextColored(to_vec4(palette().warning), tr("(%s computed as %s)"), std::string(sp.compute_precision_requested).c_str(),
                           std::string(sp.compute_precision).c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    memory_bar(r.per_gpu, r.gpu_usable, ImGui::GetFontSize() * 2.2f);
    ImGui::Spacing();
}

void App::draw_breakdown() {
    const Report& r = report_;
    const MemoryParts& m = r.per_gpu;
    ImGui::Spacing();
    // Side by side; stacked where halves would cut them (phones, tablets: QA D3, D14).
    const bool stack = stacked_tables();
    const float half = stack ? ImGui::GetContentRegionAvail().x : ImGui::GetContentRegionAvail().x * 0.5f - 6;
    // The value columns are as wide as their widest value (QA D14: 9-digit GiB figures such as
    // "1406253.00 GiB" were cut), at most 60% of the table, where long values wrap; the names
    // take the rest and wrap.
    auto value_width = [&](const std::vector<const std::string*>& values, float least) {
        float w = least;
        for (const std::string* v : values) w = std::max(w, ImGui::CalcTextSize(v->c_str()).x);
        return std::min(w, half * 0.6f);
    };
    // A value cell: wraps in its column, and leaves its text's box and its cell's in the layout
    // ("cell text|..." then "cell box|...") for the browser test of QA D14.
    auto value_cell = [&](const std::string& v, bool dim) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float room = ImGui::GetContentRegionAvail().x;
        ImGui::PushTextWrapPos(0.0f);
        if (dim) ImGui::TextDisabled("%s", v.c_str());
        else ImGui::TextUnformatted(v.c_str());
        ImGui::PopTextWrapPos();
        const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
        layout_.push_back({"cell text|" + v, lo.x, lo.y, hi.x - lo.x, hi.y - lo.y});
        layout_.push_back({"cell box|" + v, at.x, at.y, room, hi.y - lo.y});
    };
    std::string texts[kMemoryPartCount];
    for (const MemoryPartInfo& p : kMemoryParts) texts[int(p.part)] = format_gib(m.*p.bytes);
    const std::string total = format_gib(m.total()), usable = format_gib(r.gpu_usable);
    std::vector<const std::string*> all = {&total, &usable};
    for (const std::string& t : texts) all.push_back(&t);
    ImGui::BeginGroup();
    if (ImGui::BeginTable("parts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(half, 0))) {
        ImGui::TableSetupColumn(tr("Per GPU (most loaded)"), ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn(tr("bytes"), ImGuiTableColumnFlags_WidthFixed,
                                value_width(all, ImGui::GetFontSize() * 6.5f));
        ImGui::TableHeadersRow();
        for (const MemoryPartInfo& p : kMemoryParts) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // A swatch in the part's color, the name in the text color (readable in both themes).
            {
                const ImVec2 c = ImGui::GetCursorScreenPos();
                const float sw = ImGui::GetTextLineHeight() * 0.7f;
                ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(c.x, c.y + sw * 0.2f), ImVec2(c.x + sw, c.y + sw * 1.2f),
                                                          part_color(p.part), 2.0f);
                ImGui::Dummy(ImVec2(sw, sw));
                ImGui::SameLine(0, 5);
            }
            ImGui::TextUnformatted(memory_part_label(p.part));
            ImGui::TableNextColumn();
            value_cell(texts[int(p.part)], false);
            if (p.part == MemoryPart::kv_cache) {
                // The cache by layer kind (report memory.cache_detail), when more than one kind
                // holds some or the one that does is not plain full attention.
                const CacheDetail& d = r.cache_detail;
                const std::pair<const char*, double> kinds[] = {{tr("full attention"), d.full},  {tr("sliding window"), d.sliding},
                                                                {tr("chunked"), d.chunked},        {tr("MLA latent"), d.mla},
                                                                {tr("indexer keys"), d.indexer},   {tr("recurrent state"), d.recurrent_state}};
                int held = 0;
                for (const auto& k : kinds) held += k.second > 0;
                if (held > 1 || (held == 1 && d.full <= 0)) {
                    std::string text;
                    for (const auto& k : kinds)
                        if (k.second > 0) text += std::string(text.empty() ? "   " : ", ") + k.first + " " + format_gib(k.second);
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::PushTextWrapPos(0.0f);
                    ImGui::TextDisabled("%s", text.c_str());
                    ImGui::PopTextWrapPos();
                    ImGui::TableNextColumn();
                }
            }
            if (p.part == MemoryPart::overhead) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                // Wrapped between its phrases, not inside a figure (QA D14: "buffers 2." / "25 GiB").
                const std::string parts[] = {"   " + strf(tr("CUDA context %s,"), format_gib(r.overhead_detail.cuda_context).c_str()),
                                             strf(tr("allocator %s,"), format_gib(r.overhead_detail.allocator_reserve).c_str()),
                                             strf(tr("buffers %s"), format_gib(r.overhead_detail.runtime_buffers).c_str())};
                for (const std::string& t : parts) {
                    if (&t != parts) {
                        ImGui::SameLine(0, ImGui::CalcTextSize(" ").x);
                        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(t.c_str()).x) ImGui::NewLine();
                    }
                    ImGui::TextDisabled("%s", t.c_str());
                }
                ImGui::TableNextColumn();
            }
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr("total"));
        ImGui::TableNextColumn();
        value_cell(total, false);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);   // long GPU names wrap (QA D14)
        ImGui::TextDisabled(tr("usable on %s"), r.gpu_name.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TableNextColumn();
        value_cell(usable, true);
        ImGui::EndTable();
    }
    ImGui::EndGroup();
    if (!stack) ImGui::SameLine(0, 12);
    else ImGui::Spacing();
    ImGui::BeginGroup();
    {
        // The rows first, then the table with its value column as wide as the widest value.
        std::vector<std::pair<const char*, std::string>> rows;
        auto row = [&](const char* name, const std::string& value) { rows.emplace_back(name, value); };
        row(tr("parameters"), format_count(r.params));
        // Weights stored beside the text model (report model.params_by_part).
        const ParamsByPart& parts = r.params_by_part;
        const std::pair<const char*, double> stored[] = {{tr("  + vision tower"), parts.vision},
                                                         {tr("  + audio tower"), parts.audio},
                                                         {tr("  + MTP layers"), parts.mtp},
                                                         {tr("  + per-layer embeddings"), parts.embeddings}};
        for (const auto& p : stored)
            if (p.second > 0) row(p.first, format_count(p.second));
        if (r.active_params < r.params * 0.999) row(tr("active per token"), format_count(r.active_params));
        if (r.trainable_params > 0) row(tr("trainable"), format_count(r.trainable_params));
        row(tr("bits per parameter"), format_fixed(r.weights_bits_per_param, 2));
        if (r.config.mode == Mode::inference) {
            row(tr("KV cache per token"), format_bytes_short(r.kv_bytes_per_token));
            row(tr("KV room on this GPU"), strf(tr("%s tokens"), format_int(r.kv_capacity_tokens).c_str()));
        } else {
            row(tr("activations per layer"), format_gib(r.activations_per_layer));
        }
        if (r.parallel.cp > 1)
            row(tr("split tp x cp x pp x dp"), std::to_string(r.parallel.tp) + " x " + std::to_string(r.parallel.cp) + " x " +
                                               std::to_string(r.parallel.pp) + " x " + std::to_string(r.parallel.dp));
        else
            row(tr("split tp x pp x dp"), std::to_string(r.parallel.tp) + " x " + std::to_string(r.parallel.pp) + " x " +
                                          std::to_string(r.parallel.dp));
        // SGLang's data-parallel attention: the groups attention runs in, each with its own KV pool.
        if (r.config.dp_attention > 1)
            row(tr("attention groups (DP attention)"),
                r.parallel.tp == r.config.dp_attention
                    ? strf(tr("%d groups of one GPU, a KV pool each"), r.config.dp_attention)
                    : strf(tr("%d groups of %d GPUs, a KV pool each"), r.config.dp_attention, r.parallel.tp / r.config.dp_attention));
        if (r.host > 0) row(tr("host RAM"), format_gib(r.host));
        float w = ImGui::GetFontSize() * 7.5f;
        for (const auto& x : rows) w = std::max(w, ImGui::CalcTextSize(x.second.c_str()).x);
        if (ImGui::BeginTable("facts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(half, 0))) {
            ImGui::TableSetupColumn(tr("Model and workload"), ImGuiTableColumnFlags_WidthStretch);
            ImGui::TableSetupColumn(tr("value"), ImGuiTableColumnFlags_WidthFixed, std::min(w, half * 0.6f));
            ImGui::TableHeadersRow();
            for (const auto& x : rows) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextUnformatted(x.first);
                ImGui::PopTextWrapPos();
                ImGui::TableNextColumn();
                value_cell(x.second, false);
            }
            ImGui::EndTable();
        }
    }
    ImGui::EndGroup();
    if (const KvSensitivity& k = r.kv_capacity_sensitivity; k.computed && r.kv_capacity_tokens > 0) {
        // How the KV room moves (issue 26): the pool is a small difference of two large numbers,
        // so the line above the table names both.
        ImGui::Spacing();
        ImGui::TextDisabled("%s", tr("KV room moves with"));
        ImGui::PushTextWrapPos();
        const ImVec4* grey = &ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
        if (r.config.runtime == Runtime::vllm && r.config.kv_cache_memory_bytes)   // the pool as given: no fraction sizes it
            text_wrapped_at_spaces(strf(tr("a pool of %s as given (kv_cache_memory_bytes)"), format_gib(k.pool_bytes).c_str()), grey);
        else
            text_wrapped_at_spaces(strf(tr("a pool of %s left of the %s that %s %.3f gives"), format_gib(k.pool_bytes).c_str(),
                                        format_gib(k.budget_bytes).c_str(), k.fraction_key.c_str(), k.fraction),
                                   grey);
        ImGui::PopTextWrapPos();
        if (ImGui::BeginTable("kv_moves", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(half, 0))) {
            ImGui::TableSetupColumn(tr("setting"), ImGuiTableColumnFlags_WidthStretch);
            ImGui::TableSetupColumn(tr("tokens"), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 6.0f);
            ImGui::TableSetupColumn(tr("change"), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 8.5f);
            ImGui::TableHeadersRow();
            for (const KvCapacityCase* e : {&k.fraction_down, &k.fraction_up, &k.cuda_graphs, &k.speculative}) {
                if (!e->computed) continue;
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(e->setting.c_str());
                ImGui::TableNextColumn();
                value_cell(format_int(e->tokens), false);
                ImGui::TableNextColumn();
                char change[64];
                std::snprintf(change, sizeof change, "%s%s (%+.1f%%)", e->change_tokens >= 0 ? "+" : "-",
                              format_int(std::fabs(e->change_tokens)).c_str(), e->change_pct);
                value_cell(change, false);
            }
            ImGui::EndTable();
        }
    }
    if (!r.warnings.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos();
        const ImVec4 warning = to_vec4(palette().warning);
        for (const auto& w : r.warnings) text_wrapped_at_spaces("! " + w, &warning);
        ImGui::PopTextWrapPos();
    }
}

void App::draw_inverse() {
    if (!fit_ok_) return;
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextDisabled("%s", tr("What fits"));
    const FitReport& f = fit_;
    const bool stack = stacked_tables();
    // Each label and value goes on the line while it fits, else starts the next (QA E10: cut at
    // 820 px and on phones); a note that is longer than the whole line wraps.
    // Each piece leaves its box and the line's room in the layout ("line text|...", "line
    // box|...") for the browser test of QA E10.
    const auto placed = [this](const std::string& text) {
        const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
        const float left = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMin().x;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        layout_.push_back({"line text|" + text, lo.x, lo.y, hi.x - lo.x, hi.y - lo.y});
        layout_.push_back({"line box|" + text, left, lo.y, right - left, hi.y - lo.y});
    };
    const auto part = [&placed](const std::string& text, const ImU32* color, float spacing = -1.0f) {
        same_line_fitting(text.c_str(), spacing);
        if (color)
            ImGui::TextColored(to_vec4(*color), "%s", text.c_str());
        else
            ImGui::TextUnformatted(text.c_str());
        placed(text);
    };
    const ImU32 fits = fits_color(), no_fit = no_fit_color();
    ImGui::TextUnformatted(strf(tr("Longest context at batch %d:"), report_.config.batch).c_str());
    part(strf(tr("%s tokens"), format_int(double(f.max_context)).c_str()), f.max_context > 0 ? &fits : &no_fit);
    if (f.model_max_context > 0 && f.max_context > f.model_max_context) {
        const std::string note = strf(tr("(memory; trained to %s)"), format_int(double(f.model_max_context)).c_str());
        same_line_fitting(note.c_str());
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", note.c_str());
        ImGui::PopTextWrapPos();
        placed(note);
    }
    const std::string batch_label = strf(tr("Largest batch at %s tokens:"), format_int(double(report_.config.context)).c_str());
    if (!stack)
        part(batch_label, nullptr, 24);
    else
        ImGui::TextUnformatted(batch_label.c_str());
    part(format_int(double(f.max_batch)), f.max_batch > 0 ? &fits : &no_fit);
    ImGui::TextUnformatted(tr("Most precise weights that fit:"));
    part(f.best_weights.empty() ? tr("none") : f.best_weights, f.best_weights.empty() ? &no_fit : &fits);
    // An automatic runtime follows the format: a best format on another engine says so.
    const std::string runs = std::string(to_string(report_.config.runtime));
    if (!f.best_weights.empty() && f.best_weights_runtime != runs) {
        const std::string note = strf(tr("(on %s, not %s)"), f.best_weights_runtime.c_str(), runs.c_str());
        same_line_fitting(note.c_str());
        ImGui::TextDisabled("%s", note.c_str());
        placed(note);
    }
    if (!stack)
        part(tr("KV cache:"), nullptr, 24);
    else
        ImGui::TextUnformatted(tr("KV cache:"));
    part(f.best_kv_cache.empty() ? tr("none") : f.best_kv_cache, f.best_kv_cache.empty() ? &no_fit : &fits);
    if (ImGui::TreeNode(tr_label("Every weight format"))) {
        if (ImGui::BeginTable("formats", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
            ImGui::TableSetupColumn(tr("weights"));
            ImGui::TableSetupColumn(tr("per GPU"));
            ImGui::TableSetupColumn(tr("fits"));
            ImGui::TableSetupColumn(tr("longest context"));
            ImGui::TableHeadersRow();
            for (const FitRow& row : f.by_weights) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                if (pick_selectable(row.format.c_str(), row.format == report_.config.weights, ImGuiSelectableFlags_SpanAllColumns)) {
                    s_.config.weights = row.format;
                    changed();
                }
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_gib(row.total).c_str());
                ImGui::TableNextColumn();
                ImGui::TextColored(to_vec4(row.fits ? fits_color() : no_fit_color()), "%s", row.fits ? tr("yes") : tr("no"));
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_int(double(row.max_context)).c_str());
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

}  // namespace gpusizer::ui
