// ui/view_setup.cpp: the setup panel: model, workload, hardware, speed/power/cost inputs
// (One file per view, as Tracy's server splits its View; the App and its frame are in
// app.cpp, shared widgets in widgets.cpp.)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "help_text.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

void App::draw_setup() {
    ImGui::TextColored(to_vec4(palette().accent), "gpusizer");
    ImGui::SameLine();
    // Wrapped beside the name where the panel is narrower than the words (Portuguese's are longer).
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", tr("GPU memory for LLM inference and training"));
    ImGui::PopTextWrapPos();
    same_line_fitting(s_.language == Language::en ? "Português" : "English", ImGui::GetStyle().ItemSpacing.x);
    draw_language_button();
    ImGui::Separator();
    if (ImGui::CollapsingHeader(tr_label("Model"), ImGuiTreeNodeFlags_DefaultOpen)) draw_model();
    if (ImGui::CollapsingHeader(tr_label("Workload"), ImGuiTreeNodeFlags_DefaultOpen)) draw_workload();
    if (ImGui::CollapsingHeader(tr_label("Hardware"), ImGuiTreeNodeFlags_DefaultOpen)) draw_hardware();
    if (ImGui::CollapsingHeader(tr_label("Speed, power and cost"))) draw_speed_inputs();
}

namespace {

// A combo whose preview is cut to its box with "..." and shows the whole text as a tooltip (QA
// D14: long model, GPU and link names ran under the arrow, "auto (NVLink 4 + NVSwitch (H100/H").
// `text_box` and `room` receive the preview's box and the box it must fit (display pixels).
struct FittedCombo {
    ImVec2 text_min, text_max;   // the preview as drawn
    ImVec2 room_min, room_max;   // from the frame's padding to the arrow
};
bool begin_fitted_combo(const char* id, const std::string& preview, ImGuiComboFlags flags, FittedCombo& box) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float w = ImGui::CalcItemWidth();   // the width row_label set for it
    const float left = at.x + st.FramePadding.x, right = at.x + w - ImGui::GetFrameHeight() - st.FramePadding.x;
    const std::string shown = fit_to_width(preview, right - left);
    const bool open = ImGui::BeginCombo(id, shown.c_str(), flags);
    if (!open && shown != preview && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preview.c_str());
    const float top = at.y + st.FramePadding.y, h = ImGui::GetTextLineHeight();
    box.text_min = ImVec2(left, top);
    box.text_max = ImVec2(left + ImGui::CalcTextSize(shown.c_str()).x, top + h);
    box.room_min = ImVec2(left, top);
    box.room_max = ImVec2(right, top + h);
    return open;
}

// Phrases joined by ", " that wrap between phrases, never inside one (QA D14: ImGui breaks a
// line after a comma, and "131,072 context" read "131," / "072 context").
void text_phrases(const std::vector<std::string>& parts) {
    const float space = ImGui::CalcTextSize(" ").x;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string t = parts[i] + (i + 1 < parts.size() ? "," : "");
        if (i > 0) {
            ImGui::SameLine(0, space);
            if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(t.c_str()).x) ImGui::NewLine();
        }
        ImGui::TextDisabled("%s", t.c_str());
    }
}

// The preview's box and its room in the layout ("cell text|<name>", "cell box|<name>"), as the
// Memory tab's value cells, for the browser test of QA D14.
void note_fitted(std::vector<App::WindowRect>& layout, const std::string& name, const FittedCombo& f) {
    layout.push_back({"cell text|" + name, f.text_min.x, f.text_min.y, f.text_max.x - f.text_min.x, f.text_max.y - f.text_min.y});
    layout.push_back({"cell box|" + name, f.room_min.x, f.room_min.y, f.room_max.x - f.room_min.x, f.room_max.y - f.room_min.y});
}

// A heading of the GPU picker: the catalog's segment, in the language's words.
const char* segment_heading(Segment s) {
    switch (s) {
        case Segment::consumer: return tr("consumer");
        case Segment::datacenter: return tr("datacenter");
        case Segment::workstation:
        case Segment::apple: break;
    }
    return to_string(s).data();   // a literal's view: "workstation", "apple"
}

// The first model of m's family that the search shows (its family's heading goes above it).
const CatalogModel* first_of_family(const Catalog& catalog, const CatalogModel& m, const std::string& filter) {
    for (const CatalogModel& x : catalog.models)
        if (x.family == m.family &&
            (filter_matches(filter, x.arch.id, x.arch.name) || filter_matches(filter, x.family, x.family)))
            return &x;
    return nullptr;
}

}  // namespace

void App::draw_model() {
    ImGui::PushID("model");
    const char* sources[] = {tr_later("catalog"), tr_later("a parameter count"), tr_later("its numbers"), tr_later("a pasted config.json"),
                             tr_later("a model file")};
    // "a model file" where the platform reads files (the desktop), or when a link opened one.
    const int source_count = platform_.model_opener() || s_.source == ModelSource::file ? 5 : 4;
    row_label(tr("From"));
    if (ImGui::BeginCombo("##source", tr(sources[int(s_.source)]))) {
        for (int i = 0; i < source_count; ++i) {
            if (pick_selectable(tr_label(sources[i]), int(s_.source) == i)) {
                s_.source = ModelSource(i);
                apply_model_source(s_);
                set_gpu_count(s_, s_.config.gpus, current_arch(s_, catalog_));
                changed();
            }
        }
        ImGui::EndCombo();
    }
    switch (s_.source) {
        case ModelSource::catalog: {
            const CatalogModel* cur = catalog_.find_model(s_.catalog_model);
            row_label(tr("Model"));
            FittedCombo fit;
            const bool open = begin_fitted_combo("##model", cur ? cur->arch.name : s_.catalog_model, ImGuiComboFlags_HeightLarge, fit);
            note_fitted(layout_, "model", fit);
            if (open) {
                const bool enter = search_field(tr("search models"), model_filter_);
                const CatalogModel* only = nullptr;   // the one model the search shows, if one
                const CatalogModel* picked = nullptr;   // clicked, or Enter
                int shown = 0;
                // Grouped by family (models.json `family`), families in the order they first
                // appear, models in catalog order within each; the search also matches a family.
                std::vector<const std::string*> families;
                for (const CatalogModel& m : catalog_.models)
                    if (std::find_if(families.begin(), families.end(), [&](const std::string* f) { return *f == m.family; }) ==
                        families.end())
                        families.push_back(&m.family);
                for (const std::string* family : families)
                for (const CatalogModel& m : catalog_.models) {
                    if (m.family != *family) continue;
                    if (!filter_matches(model_filter_, m.arch.id, m.arch.name) && !filter_matches(model_filter_, m.family, m.family))
                        continue;
                    only = &m;
                    ++shown;
                    if (&m == first_of_family(catalog_, m, model_filter_)) {
                        ImGui::Spacing();
                        ImGui::TextDisabled("%s", m.family.empty() ? tr("other") : m.family.c_str());
                    }
                    ImGui::Indent(ImGui::GetFontSize() * 0.6f);
                    char label[160];
                    std::snprintf(label, sizeof label, "%s  (%s)", m.arch.name.c_str(), format_count(m.counts.total()).c_str());
                    if (pick_selectable(label, m.arch.id == s_.catalog_model)) picked = &m;
                    ImGui::Unindent(ImGui::GetFontSize() * 0.6f);
                }
                if (shown == 0) ImGui::TextDisabled(tr("No model matches \"%s\"."), model_filter_.c_str());
                // Enter in the search with one model shown picks it (QA E7).
                if (enter && shown == 1) {
                    picked = only;
                    ImGui::CloseCurrentPopup();
                }
                if (picked) {
                    s_.catalog_model = picked->arch.id;
                    apply_model_source(s_);
                    set_gpu_count(s_, s_.config.gpus, &picked->arch);
                    changed();
                }
                ImGui::EndCombo();
            }
            if (cur) {
                std::vector<std::string> facts = {strf(tr("%s parameters"), format_count(cur->counts.total()).c_str())};
                if (cur->arch.is_moe()) facts.push_back(strf(tr("%s active"), format_count(cur->counts.active(cur->arch)).c_str()));
                facts.push_back(strf(tr("%d layers"), cur->arch.total_layers()));
                facts.push_back(strf(tr("%d/%d heads"), cur->arch.n_heads, cur->arch.n_kv_heads));
                facts.push_back(strf(tr("%s context"), format_int(cur->context_trained).c_str()));
                text_phrases(facts);
                ImGui::PushTextWrapPos();
                ImGui::TextDisabled("%s", stack_summary(cur->arch, cur->counts).c_str());
                ImGui::PopTextWrapPos();
            }
            break;
        }
        case ModelSource::parameters: {
            row_label(tr("Parameters"));
            float b = float(s_.custom_params_b);
            if (slider_float("##params", &b, 0.1f, 1000.0f, "%.2f B", ImGuiSliderFlags_Logarithmic)) {
                s_.custom_params_b = std::clamp(round_to_format(b, "%.2f"), 0.05, 10000.0);
                apply_model_source(s_);
                changed();
            }
            ImGui::TextDisabled("%s", tr("A Llama-3-shaped dense model of this size."));
            break;
        }
        case ModelSource::numbers: {
            ModelShape& n = s_.numbers;
            bool edit = false;
            auto num = [&](const char* label, int* v, int lo, int hi) {
                row_label(tr(label));
                ImGui::PushID(label);   // the English label: the same field in every language
                const bool typed = ImGui::InputInt("##v", v, 0, 0);
                note_item("text field");
                if (typed) {
                    *v = std::clamp(*v, lo, hi);
                    edit = true;
                }
                ImGui::PopID();
            };
            // "Hidden" and "Experts" are the words practitioners write in Portuguese too.
            num(tr_later("Layers"), &n.layers, 1, 1000);
            num("Hidden", &n.hidden, 64, 1 << 17);
            num(tr_later("MLP inner"), &n.intermediate, 64, 1 << 19);
            num(tr_later("Heads"), &n.heads, 1, 1024);
            num(tr_later("KV heads"), &n.kv_heads, 1, 1024);
            num(tr_later("Vocabulary"), &n.vocab, 256, 1 << 22);
            num("Experts", &n.experts, 0, 1024);
            if (n.experts > 0) num(tr_later("Per token"), &n.experts_per_token, 1, 64);
            edit |= ImGui::Checkbox(tr_label("Tied embeddings"), &n.tied);
            if (edit) {
                apply_model_source(s_);
                set_gpu_count(s_, s_.config.gpus, current_arch(s_, catalog_));
                changed();
            }
            break;
        }
        case ModelSource::file: {
            // A GGUF file or a safetensors snapshot, read by its headers (view_local_models.cpp).
            if (s_.file.loaded) {
                const ModelArch& a = s_.file.model.arch;
                const std::string& hub = s_.file.model.hub;
                const std::string& path = !hub.empty() ? hub : s_.file.gguf.empty() ? s_.file.hf_dir : s_.file.gguf;
                row_label(tr("Model"));
                ImGui::TextUnformatted(a.name.c_str());
                ImGui::PushTextWrapPos();
                if (a.file.total > 0)
                    ImGui::TextDisabled(tr("%s: %s of weights in its headers"), a.source == "safetensors" ? "safetensors" : "GGUF",
                                        format_bytes_short(a.file.total).c_str());
                else
                    ImGui::TextDisabled("%s", tr("its config.json"));
                ImGui::TextDisabled("%s%s", hub.empty() ? "" : "Hugging Face: ", path.c_str());
                for (const std::string& w : s_.file.model.import_warnings) ImGui::TextDisabled(tr("note: %s"), w.c_str());
                ImGui::PopTextWrapPos();
            }
            break;
        }
        case ModelSource::hf_config: {
            ImGui::TextDisabled("%s", tr("Paste a Hugging Face config.json:"));
            ImGui::InputTextMultiline("##hf", &s_.hf_text, ImVec2(-1, ImGui::GetTextLineHeight() * 7));
            note_item("text field");
            if (ImGui::Button(tr_label("Use this config"))) {
                apply_model_source(s_);
                set_gpu_count(s_, s_.config.gpus, current_arch(s_, catalog_));
                changed();
            }
            break;
        }
    }
    // A custom model's stack, as the catalog's is shown under the picker.
    if (s_.model_error.empty() && s_.source != ModelSource::catalog && s_.config.model.custom) {
        try {
            const std::string line = stack_summary(s_.config.model.arch, count_params(s_.config.model.arch));
            ImGui::PushTextWrapPos();
            ImGui::TextDisabled("%s", line.c_str());
            ImGui::PopTextWrapPos();
        } catch (const Error&) {
            // an architecture the estimate refuses says why in the report's place
        }
    }
    if (!s_.model_error.empty() && s_.source != ModelSource::catalog) {
        ImGui::PushTextWrapPos();
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", s_.model_error.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::PopID();
}

void App::draw_workload() {
    Config& c = s_.config;
    ImGui::PushID("workload");
    for (Mode m : {Mode::inference, Mode::train, Mode::lora, Mode::qlora}) {
        // On the line while it has room ("Treino completo" is longer), as the checkboxes below.
        if (m != Mode::inference) beside_if_fits(checkbox_width(mode_label(m)));
        ImGui::PushID(int(m));   // the same button in every language
        if (ImGui::RadioButton((std::string(mode_label(m)) + "###mode").c_str(), c.mode == m)) {
            set_mode(s_, m, current_arch(s_, catalog_));
            changed();
        }
        ImGui::PopID();
    }
    // Weights and KV cache.
    // Unset on inference: the checkpoint's own format when it is quantized (the report's
    // weights_scheme says which), else bf16. "native" asks for the checkpoint's format explicitly.
    const bool checkpoint = ok_ && report_.weights_scheme.source == "checkpoint";
    std::string weights_label;
    if (c.weights == "native" || (c.weights.empty() && checkpoint))
        weights_label = ok_ && !report_.weights_scheme.format.empty() ? strf(tr("as published (%s)"), report_.weights_scheme.format.c_str())
                                                                      : std::string(tr("as published"));
    else
        weights_label = std::string(weight_format(c.weights.empty() ? (c.mode == Mode::qlora ? "nf4" : "bf16") : c.weights).label);
    const std::string weights = c.weights.empty() ? (c.mode == Mode::qlora ? "nf4" : checkpoint ? "native" : "bf16") : c.weights;
    // The tooltips come from the format tables (help_text.hpp), as the CLI's help does.
    row_label(tr("Weights"));
    if (ImGui::BeginCombo("##weights", weights_label.c_str())) {
        if (c.mode == Mode::inference && pick_selectable(tr_label("as published (the checkpoint's format)"), weights == "native")) {
            c.weights = "native";
            changed();
        }
        for (const WeightFormat& f : weight_formats()) {
            if (pick_selectable(f.label.data(), f.id == weights)) {
                c.weights = std::string(f.id);
                changed();
            }
            if (ImGui::IsItemHovered()) wrapped_tooltip(weight_format_help(f));
        }
        ImGui::EndCombo();
    } else if (ImGui::IsItemHovered()) {
        wrapped_tooltip(weights_help());
    }
    const std::string kv = c.kv_cache.empty() ? tr("auto (16-bit)") : c.kv_cache;
    row_label(tr("KV cache"));
    if (ImGui::BeginCombo("##kv", kv.c_str())) {
        if (pick_selectable(tr_label("auto (16-bit)"), c.kv_cache.empty())) {
            c.kv_cache.clear();
            changed();
        }
        for (const KvFormat& f : kv_formats()) {
            char label[64];
            std::snprintf(label, sizeof label, "%s%s", f.id.data(), f.llama_cpp_only ? "  (llama.cpp)" : "");
            if (pick_selectable(label, c.kv_cache == f.id)) {
                c.kv_cache = std::string(f.id);
                changed();
            }
        }
        ImGui::EndCombo();
    } else if (ImGui::IsItemHovered()) {
        wrapped_tooltip(kv_cache_help());
    }
    // Context (log scale) and batch.
    row_label(tr("Context"));
    int ctx = int(c.context > 0 ? c.context : (ok_ ? report_.config.context : 8192));
    bool slid = false;
    if (slider_with_field("ctx", ctx, int(kContextMin), int(kContextMax), "%d tokens", ImGuiSliderFlags_Logarithmic, 5.5f, "context slider",
                          &slid)) {
        c.context = slid ? round_context(ctx) : (long long)clamp_to_key("context", ctx);
        changed();
    }
    row_label(tr("Batch"));
    int batch = c.batch;
    if (ImGui::SliderInt("##batch", &batch, 1, 1024, batch == 1 ? tr("%d sequence") : tr("%d sequences"), ImGuiSliderFlags_Logarithmic)) {
        c.batch = int(clamp_to_key("batch", batch));
        c.global_batch = 0;
        changed();
    }
    note_item("batch slider");
    // Training.
    if (c.mode != Mode::inference) {
        row_label(tr("Optimizer"));
        if (enum_combo("##opt", c.optimizer, {Optimizer::adamw, Optimizer::adamw_8bit, Optimizer::sgd, Optimizer::adafactor}))
            changed();
        row_label(tr("ZeRO stage"));
        int zero = c.zero;
        if (ImGui::SliderInt("##zero", &zero, 0, 3)) {
            set_zero_stage(c, zero);
            changed();
        }
        row_label(tr("Offload"));
        if (enum_combo("##off", c.offload, {Offload::none, Offload::optimizer, Offload::optimizer_params},
                       [&](Offload o) { return offload_allowed(o, c.zero); }))
            changed();
        row_label(tr("Recompute"));
        if (enum_combo("##rc", c.recompute, {Recompute::automatic, Recompute::none, Recompute::selective, Recompute::full}))
            changed();
        row_label(tr("Framework"));
        if (enum_combo("##fw", c.training_framework,
                       {TrainingFramework::megatron, TrainingFramework::nemo, TrainingFramework::torchtitan, TrainingFramework::fsdp,
                        TrainingFramework::deepspeed, TrainingFramework::hf_trainer}))
            changed();
        if (ImGui::Checkbox(tr_label("Flash attention"), &c.flash_attention)) changed();
        beside_if_fits(checkbox_width(tr("Sequence parallel")));   // longer in Portuguese: below when it does not fit
        if (ImGui::Checkbox(tr_label("Sequence parallel"), &c.sequence_parallel)) changed();
        if (c.mode == Mode::lora || c.mode == Mode::qlora) {
            row_label(tr("LoRA rank"));
            if (ImGui::SliderInt("##lr", &c.lora_rank, 1, 512, "%d", ImGuiSliderFlags_Logarithmic)) {
                c.lora_rank = int(clamp_to_key("lora_rank", c.lora_rank));
                changed();
            }
            const char* names[] = {"q", "k", "v", "o", "gate", "up", "down"};
            ImGui::AlignTextToFramePadding();
            ImGui::TextUnformatted(tr("Targets"));
            for (int i = 0; i < 7; ++i) {
                ImGui::SameLine();
                bool on = (c.lora_targets & (1u << i)) != 0;
                if (ImGui::Checkbox(names[i], &on)) {
                    const unsigned next = on ? (c.lora_targets | (1u << i)) : (c.lora_targets & ~(1u << i));
                    if (next != 0) c.lora_targets = next;
                    changed();
                }
            }
        }
    } else {
        if (ImGui::Checkbox(tr_label("Flash attention"), &c.flash_attention)) changed();
    }
    ImGui::PopID();
}

bool App::search_field(const char* hint, std::string& filter) {
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-1);
    const bool enter = ImGui::InputTextWithHint("##filter", hint, &filter, ImGuiInputTextFlags_EnterReturnsTrue);
    note_item("text field");
    return enter;
}

bool App::slider_with_field(const char* id, int& value, int lo, int hi, const char* format, ImGuiSliderFlags flags, float field_em,
                            const char* slider_name, bool* slid_out) {
    const std::string slider = std::string("##") + id, field = slider + "v";
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * field_em);
    const bool slid = ImGui::SliderInt(slider.c_str(), &value, lo, hi, format, flags);
    note_item(slider_name);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    const bool typed = ImGui::InputInt(field.c_str(), &value, 0, 0);
    note_item("text field");
    if (slid_out) *slid_out = slid;
    return slid || typed;
}

void App::draw_hardware() {
    Config& c = s_.config;
    const ModelArch* arch = current_arch(s_, catalog_);
    ImGui::PushID("hardware");
    const Gpu* gpu = catalog_.find_gpu(c.gpu);
    const bool custom = c.gpu == kCustomGpuId;
    row_label(tr("GPU"));
    FittedCombo gpu_fit;
    const bool gpu_open = begin_fitted_combo("##gpu",
                                             custom ? strf(tr("Custom: %s"), gpu_display_name(c, catalog_).c_str())
                                             : gpu  ? gpu->name
                                                    : c.gpu,
                                             ImGuiComboFlags_HeightLarge, gpu_fit);
    note_fitted(layout_, "gpu", gpu_fit);
    if (gpu_open) {
        const bool enter = search_field(tr("search GPUs"), gpu_filter_);
        const Gpu* only = nullptr;   // the one GPU the search shows, if one
        const Gpu* picked = nullptr;   // clicked, or Enter
        int shown = 0;
        // A GPU the catalog does not have: its fields, prefilled from the GPU chosen now (view_custom_gpu.cpp).
        if (pick_selectable(tr_label("Custom GPU: edit its figures"), custom)) {
            use_custom_gpu(s_);
            changed();
        }
        Segment last = Segment::apple;
        bool first = true;
        for (const Gpu& g : catalog_.gpus) {
            if (!filter_matches(gpu_filter_, g.id, g.name)) continue;
            only = &g;
            ++shown;
            if (first || g.segment != last) {
                ImGui::TextDisabled("%s", segment_heading(g.segment));
                last = g.segment;
                first = false;
            }
            char label[160];
            std::snprintf(label, sizeof label, "%s  (%s)", g.name.c_str(), format_gib(g.capacity_bytes(), 0).c_str());
            if (pick_selectable(label, g.id == c.gpu)) picked = &g;
        }
        if (shown == 0) ImGui::TextDisabled(tr("No GPU matches \"%s\" (Custom GPU above takes any)."), gpu_filter_.c_str());
        if (enter && shown == 1) {   // Enter in the search with one GPU shown picks it (QA E7)
            picked = only;
            ImGui::CloseCurrentPopup();
        }
        if (picked) {
            c.gpu = picked->id;
            changed();
        }
        ImGui::EndCombo();
    }
    if (custom) draw_custom_gpu();
    row_label(tr("GPUs"));
    int gpus = c.gpus;
    if (slider_with_field("gpus", gpus, 1, 64, "%d", 0, 4.5f, "gpus slider")) {
        set_gpu_count(s_, int(clamp_to_key("gpus", gpus)), arch);
        changed();
    }
    bool manual = s_.manual_parallel;
    if (ImGui::Checkbox(tr_label("Set tensor / pipeline split"), &manual)) {
        set_manual_parallel(s_, manual, arch);
        changed();
    }
    help_marker(tr("Automatic: training spreads GPUs over data parallel, llama.cpp over layers (pipeline), other inference over attention heads (tensor parallel)."));
    if (s_.manual_parallel && arch) {
        // A degree a link left to the estimate (0) shows what the estimate chose.
        const auto shown = [&](int set, int resolved) {
            return set > 0 ? std::to_string(set) : strf("%s (%d)", tr("auto"), ok_ ? resolved : 1);
        };
        const int cp = std::max(1, c.cp);
        const auto tps = tp_choices(*arch, c.gpus / cp);
        row_label(tr("Tensor (tp)"));
        if (ImGui::BeginCombo("##tp", shown(c.tp, report_.parallel.tp).c_str())) {
            for (int t : tps)
                if (pick_selectable(std::to_string(t).c_str(), t == c.tp)) {
                    c.tp = t;
                    c.pp = 1;
                    set_manual_parallel(s_, true, arch);   // keeps cp where it still divides
                    changed();
                }
            ImGui::EndCombo();
        }
        if (c.mode != Mode::inference) {
            row_label(tr("Context (cp)"));
            if (ImGui::BeginCombo("##cp", std::to_string(cp).c_str())) {
                for (int d : cp_choices(c))
                    if (pick_selectable(std::to_string(d).c_str(), d == cp)) {
                        c.cp = d;
                        c.pp = 1;
                        set_manual_parallel(s_, true, arch);
                        changed();
                    }
                ImGui::EndCombo();
            }
            if (ImGui::IsItemHovered())
                wrapped_tooltip(tr("Context parallelism (ring attention): each GPU of a cp group holds 1/cp of every sequence and passes its K/V blocks around the ring. For long contexts whose activations do not fit."));
        }
        const auto pps = pp_choices(*arch, c.gpus / cp, c.tp);
        row_label(tr("Pipeline (pp)"));
        if (ImGui::BeginCombo("##pp", shown(c.pp, report_.parallel.pp).c_str())) {
            for (int p : pps)
                if (pick_selectable(std::to_string(p).c_str(), p == c.pp)) {
                    c.pp = p;
                    c.dp = c.gpus / (c.tp * cp * c.pp);
                    changed();
                }
            ImGui::EndCombo();
        }
        ImGui::TextDisabled(tr("data parallel (dp) = %s"), shown(c.dp, report_.parallel.dp).c_str());
    } else if (ok_) {
        if (report_.parallel.cp > 1)
            ImGui::TextDisabled(tr("tp %d, cp %d, pp %d, dp %d"), report_.parallel.tp, report_.parallel.cp, report_.parallel.pp,
                                report_.parallel.dp);
        else
            ImGui::TextDisabled(tr("tp %d, pp %d, dp %d"), report_.parallel.tp, report_.parallel.pp, report_.parallel.dp);
    }
    row_label(tr("Runtime"));
    Runtime runtime = c.runtime;
    if (enum_combo("##rt", runtime, {Runtime::automatic, Runtime::pytorch, Runtime::llama_cpp, Runtime::ollama, Runtime::vllm,
                                     Runtime::sglang, Runtime::trt_llm, Runtime::none})) {
        set_runtime(s_, runtime, arch);   // an engine's memory fraction goes with its engine
        changed();
    }
    if (ImGui::IsItemHovered()) wrapped_tooltip(runtime_help(c.runtime));
    if (c.runtime == Runtime::vllm) {
        row_label(tr("GPU share"));
        if (key_slider("##gmu", "gpu_memory_utilization", c.gpu_memory_utilization, 0.3f, 1.0f, "%.2f")) changed();
        if (ImGui::IsItemHovered()) wrapped_tooltip(gpu_share_help());
    }
    if (c.runtime == Runtime::vllm || c.kv_cache_memory_bytes) {
        // vLLM's --kv-cache-memory-bytes, in GiB: auto shows the pool the GPU share leaves.
        row_label(tr("KV pool"));
        double gib = c.kv_cache_memory_bytes.value_or(0.0) / kGiB;
        const double in_use = ok_ ? report_.memory_kv_pool_bytes / kGiB : 0.0;
        const float top = float(std::max(1.0, ok_ ? report_.gpu_capacity / kGiB : 80.0));
        if (default_slider("kvm", gib, in_use, 0.1f, top, "%.1f GiB", true)) {
            c.kv_cache_memory_bytes = gib > 0 ? std::optional<double>(gib * kGiB) : std::nullopt;
            changed();
        }
        help_marker(tr("vLLM --kv-cache-memory-bytes: the KV pool of each GPU as given, in place of what the GPU share leaves (V1 engines). Auto: the GPU share decides."));
    }
    // SGLang's and TensorRT-LLM's fractions: "auto" is the engine's default, which the last
    // estimate resolved (shown also while a value is set that the estimate refuses, to clear it).
    auto fraction_slider = [&](const char* id, std::optional<double>& key, const std::optional<double>& used, double fallback,
                               const char* format) {
        double v = key.value_or(0.0);
        if (!default_slider(id, v, ok_ && used ? *used : fallback, 0.3f, 1.0f, format)) return;
        key = v > 0 ? std::optional<double>(v) : std::nullopt;
        changed();
    };
    if (c.runtime == Runtime::sglang || c.mem_fraction_static) {
        row_label(tr("Static share"));
        fraction_slider("mfs", c.mem_fraction_static, report_.config.mem_fraction_static, 0.87, "%.3f");
        help_marker(tr("SGLang --mem-fraction-static: the share of the memory free before loading that holds the weights and the KV pool; activations and CUDA graphs use the rest. Auto: SGLang's default by GPU memory, chunked prefill, CUDA graphs, tp x pp, DP attention and speculative decoding."));
    }
    // Data-parallel attention: SGLang's off or a divisor (above 1) of the tp in use, TensorRT-LLM's
    // off or on (every rank a group: the tp in use); shown also while a value is set that the
    // estimate refuses (another runtime), so that it can be cleared.
    if (c.runtime == Runtime::sglang || c.runtime == Runtime::trt_llm || c.dp_attention > 1) {
        row_label(tr("DP attention"));
        const int tp = ok_ ? report_.parallel.tp : std::max(1, c.tp);
        const std::string shown = c.dp_attention > 1 ? strf(tr("%d groups"), c.dp_attention) : std::string(tr("off"));
        width_before_help_marker();
        if (ImGui::BeginCombo("##dpa", shown.c_str())) {
            if (ImGui::Selectable(tr("off"), c.dp_attention <= 1)) {
                c.dp_attention = 0;
                changed();
            }
            for (int g = 2; g <= tp; ++g) {
                if (tp % g != 0 || (c.runtime == Runtime::trt_llm && g != tp)) continue;
                if (ImGui::Selectable(strf(tr("%d groups"), g).c_str(), c.dp_attention == g)) {
                    c.dp_attention = g;
                    changed();
                }
            }
            ImGui::EndCombo();
        }
        help_marker(c.runtime == Runtime::trt_llm
                        ? tr("TensorRT-LLM enable_attention_dp: every GPU of tp runs attention and the dense layers whole for its own requests, with its own KV pool; the routed experts stay split over tp, their input gathered from all GPUs and their output scattered back.")
                        : tr("SGLang --enable-dp-attention --dp N: attention runs in N groups of tp / N GPUs, each with its own requests and KV pool; the MLP and experts stay split over tp. Attention weights and the embedding are copied to every group, and an MLA cache stops being repeated on every GPU: more requests fit."));
    }
    if (c.runtime == Runtime::trt_llm || c.free_gpu_memory_fraction) {
        row_label(tr("KV share"));
        fraction_slider("fgm", c.free_gpu_memory_fraction, report_.config.free_gpu_memory_fraction,
                        default_engine_version(Runtime::trt_llm).fraction, "%.2f");
        // The tables do not change while the app runs: one text per language.
        static std::string kv_share[std::size(kLanguages)];
        std::string& help = kv_share[int(language())];
        if (help.empty()) help = kv_share_help();
        help_marker(help.c_str());
    }
    // What moves a serving engine's KV pool (issue 26): its CUDA graphs and speculative decoding
    // (the model's MTP layers when it has them); shown also while a value is set that another
    // runtime would ignore, so that it can be cleared.
    const bool pooled = c.runtime == Runtime::vllm || c.runtime == Runtime::sglang || c.runtime == Runtime::trt_llm;
    if (pooled || !c.cuda_graphs) {
        row_label(tr("CUDA graphs"));
        if (ImGui::Checkbox("##cg", &c.cuda_graphs)) changed();
        help_marker(tr("Off = vLLM --enforce-eager, SGLang --disable-cuda-graph. vLLM 0.21 and later take the graphs' memory out of gpu_memory_utilization; before, it sits outside it."));
    }
    if (pooled || !c.speculative.empty()) {
        row_label(tr("Speculative"));
        const bool has_mtp = arch && arch->n_mtp_layers > 0;
        const std::string shown = c.speculative.empty() ? tr("none") : c.speculative == "mtp" ? tr("MTP layers") : c.speculative;
        width_before_help_marker();
        if (ImGui::BeginCombo("##spec", shown.c_str())) {
            if (ImGui::Selectable(tr("none"), c.speculative.empty())) {
                c.speculative.clear();
                changed();
            }
            if ((has_mtp || c.speculative == "mtp") && ImGui::Selectable(tr("MTP layers"), c.speculative == "mtp")) {
                c.speculative = "mtp";
                changed();
            }
            // Draft models: the catalog's models of under a tenth of the target's parameters.
            const double target = ok_ ? report_.params : 0.0;
            for (const CatalogModel& m : catalog_.models) {
                if (m.arch.id == c.model.id || !(target > 0) || m.counts.total() * 10.0 > target) continue;
                if (ImGui::Selectable(m.arch.id.c_str(), c.speculative == m.arch.id)) {
                    c.speculative = m.arch.id;
                    changed();
                }
            }
            ImGui::EndCombo();
        }
        help_marker(tr("Speculative decoding as the engine loads it: the model's own MTP layers, or a draft model on the same GPUs. Their weights and KV cache come out of the KV pool."));
    }
    // llama.cpp's --n-cpu-moe, for a mixture-of-experts model under llama.cpp or ollama (auto
    // included when it picked llama.cpp); shown also while a value is set that the estimate
    // refuses (another runtime, a dense model), so that it can be cleared.
    const bool llama = c.runtime == Runtime::llama_cpp || c.runtime == Runtime::ollama ||
                       (ok_ && report_.config.runtime == Runtime::llama_cpp);
    if (c.n_cpu_moe > 0 || (arch && arch->is_moe() && llama)) {
        row_label(tr("Experts in RAM"));
        const int layers = arch ? std::max(1, arch->total_layers()) : std::max(1, c.n_cpu_moe);
        int n = std::clamp(c.n_cpu_moe, 0, layers);
        if (slider_with_field("ncmoe", n, 0, layers, n > 0 ? tr("first %d layers") : tr("none"), 0, 3.2f, "n_cpu_moe slider")) {
            c.n_cpu_moe = std::clamp(n, 0, layers);
            changed();
        }
        help_marker(tr("llama.cpp --n-cpu-moe N: the routed experts of the first N layers stay in host RAM and the CPU runs them; attention, shared experts and the KV cache stay on the GPU. All layers = --cpu-moe. Frees GPU memory; decode reads the chosen experts at the host's bandwidth, prefill copies them over PCIe."));
    }
    // The links: the GPU's own unless the user picks another (what NVLink would change, say).
    if (!catalog_.links.empty()) {
        auto link_combo = [&](const char* label, const char* id, std::string& value, LinkScope scope, const std::string& resolved) {
            row_label(tr(label));
            const Link* cur = value.empty() ? nullptr : catalog_.find_link(value);
            const Link* res = resolved.empty() ? nullptr : catalog_.find_link(resolved);
            std::string preview = cur ? cur->name : res ? strf("%s (%s)", tr("auto"), res->name.c_str()) : std::string(tr("auto"));
            FittedCombo fit;
            const bool open = begin_fitted_combo(id, preview, 0, fit);
            note_fitted(layout_, label, fit);   // the English label: the tests' name
            if (open) {
                if (pick_selectable(tr_label("auto: the GPU's own"), value.empty())) {
                    value.clear();
                    changed();
                }
                for (const Link& l : catalog_.links) {
                    if (l.scope != scope) continue;
                    const std::string text = strf(tr("%s  (%s per GPU)"), l.name.c_str(), format_bandwidth(l.bytes_per_s()).c_str());
                    if (pick_selectable(text.c_str(), value == l.id)) {
                        value = l.id;
                        changed();
                    }
                }
                ImGui::EndCombo();
            }
        };
        link_combo(tr_later("Link"), "##link", c.link, LinkScope::intra_node, ok_ ? report_.interconnect.link : std::string());
        if ((ok_ && report_.interconnect.nodes > 1) || !c.inter_node_link.empty())
            link_combo(tr_later("Between nodes"), "##inter", c.inter_node_link, LinkScope::inter_node,
                       ok_ ? report_.interconnect.inter_node_link : std::string());
        // The network's pods (pod_gpus, pod_oversubscription): only where the GPUs span nodes.
        if ((ok_ && report_.interconnect.nodes > 1) || c.pod_gpus > 0) {
            row_label(tr("Pod size"));
            double pod = double(c.pod_gpus);
            if (key_slider("##pod", "pod_gpus", pod, 0.0f, 32768.0f, c.pod_gpus > 0 ? tr("%.0f GPUs") : tr("one network"))) {
                c.pod_gpus = int(std::lround(pod));
                changed();
            }
            help_marker(tr("GPUs in one non-blocking part of the network (a pod); pods are joined by thinner uplinks. Llama 3's clusters: pods of 3,072 GPUs, 7:1 between them. All-to-alls and pipeline sends that cross pods slow down; rings rarely do."));
            if (c.pod_gpus > 0) {
                row_label(tr("Between pods"));
                width_before_help_marker();
                if (key_slider("##pos", "pod_oversubscription", c.pod_oversubscription, 1.0f, 16.0f, "%.1f : 1")) changed();
                help_marker(tr("How much thinner the links between pods are than what the pod's GPUs can send (oversubscription). 1 : 1 is a full-bisection network."));
            }
        }
    }
    ImGui::PopID();
}

void App::draw_speed_inputs() {
    Config& c = s_.config;
    const Config& used = report_.config;   // the values the last estimate used (defaults resolved)
    ImGui::PushID("speed");
    const bool training = c.mode != Mode::inference;
    row_label(tr("MFU"));
    if (default_slider("mfu", c.mfu, ok_ ? used.mfu : 0.4, 0.05f, 1.0f, "%.2f")) changed();
    help_marker(tr("Model FLOPs utilization: the fraction of the GPU's dense tensor peak that compute-bound work (prefill, training) reaches. Auto: the runtime's typical figure (Assumptions tab)."));
    row_label(tr("Bandwidth use"));
    if (default_slider("bw", c.bandwidth_efficiency, ok_ ? used.bandwidth_efficiency : 0.8, 0.1f, 1.0f, "%.2f")) changed();
    help_marker(tr("The fraction of the memory bandwidth that decoding reaches (it reads every weight once per token)."));
    if (!training) {
        row_label(tr("Prompt"));
        double prompt = double(c.prompt_tokens);
        const double context = double(ok_ ? used.context : 8192);
        if (default_slider("prompt", prompt, ok_ ? double(used.prompt_tokens) : context / 2, 1.0f, float(context), "%.0f tokens", true)) {
            c.prompt_tokens = (long long)std::llround(std::min(prompt, context));
            changed();
        }
        if (ok_ && report_.config.runtime == Runtime::llama_cpp) {
            row_label(tr("Host RAM bw"));
            if (default_slider("hostbw", c.host_memory_bandwidth_gb_per_s, used.host_memory_bandwidth_gb_per_s, 10.0f, 1000.0f,
                               "%.0f GB/s", true))
                changed();
            help_marker(tr("The host memory bandwidth llama.cpp reads offloaded layers with (dual-channel DDR5: ~60-80 GB/s)."));
        }
    } else {
        row_label(tr("Train on"));
        float tokens_b = float(c.train_tokens / 1e9);
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 3.2f);
        if (slider_float("##tt", &tokens_b, 0.0f, 20000.0f, tokens_b > 0 ? tr("%.2f B tokens") : tr("(not asked)"),
                         ImGuiSliderFlags_Logarithmic)) {
            c.train_tokens =
                clamp_to_key("train_tokens", std::round(round_to_format(tokens_b, "%.2f") * 100.0) * 1e7);   // 0.01 B steps, exactly
            changed();
        }
        help_marker(tr("Tokens of the training run, for its time, energy and electricity cost."));
        // What the run loses beyond its steps (Speed: goodput): interruptions, restarts, checkpoints.
        row_label(tr("Interruptions"));
        float per_million = float(c.failures_per_gpu_hour * 1e6);
        if (slider_float("##fph", &per_million, 0.0f, 1000.0f, tr("%.1f per million GPU-hours"), ImGuiSliderFlags_Logarithmic)) {
            c.failures_per_gpu_hour = clamp_to_key("failures_per_gpu_hour", round_to_format(per_million, "%.1f") / 1e6);
            changed();
        }
        help_marker(tr("Job interruptions per million GPU-hours: any GPU's failure stops the whole job, which restarts from its last checkpoint. Default 21.95: Llama 3's 466 interruptions in 54 days on 16,384 GPUs."));
        row_label(tr("Restart"));
        width_before_help_marker();
        if (key_slider("##rst", "restart_s", c.restart_s, 0.0f, 3600.0f, "%.0f s")) changed();
        help_marker(tr("From an interruption to training again (detection, rescheduling, start-up), before the checkpoint is read back."));
        row_label(tr("Checkpoint write"));
        width_before_help_marker();
        if (key_slider("##ckw", "checkpoint_write_gb_per_s", c.checkpoint_write_gb_per_s, 0.1f, 50.0f, tr("%.1f GB/s a node"))) changed();
        help_marker(tr("The rate each node writes its part of a checkpoint (weights and optimizer states). Default 1: Llama 3's store, 2 TB/s over 2,048 nodes. Checkpoints come at the Young-Daly interval unless a link sets checkpoint_interval_s."));
        row_label(tr("Step overhead"));
        width_before_help_marker();
        if (key_slider("##sov", "step_overhead_s", c.step_overhead_s, 0.0f, 60.0f, tr("%.1f s a step"))) changed();
        help_marker(tr("Seconds every optimizer step adds beyond what is modelled (a framework's engine, data loading, stragglers). Default 0; Megatron-Turing NLG's DeepSpeed pipeline engine ran about 9 s a step above the model."));
        if (ok_ && c.offload != Offload::none) {
            row_label(tr("Host RAM bw"));
            if (default_slider("hostbw", c.host_memory_bandwidth_gb_per_s, used.host_memory_bandwidth_gb_per_s, 10.0f, 1000.0f,
                               "%.0f GB/s", true))
                changed();
            help_marker(tr("The host memory bandwidth of one node, shared by its GPUs: ZeRO-Offload's optimizer step runs on the CPU at it (dual-channel DDR5: ~77 GB/s; two sockets of 8 DDR5-4800 channels: 614 GB/s)."));
        }
    }
    row_label(tr("Utilization"));
    if (key_slider("##util", "utilization", c.utilization, 0.05f, 1.0f, tr("%.2f of board power"))) changed();
    row_label(tr("PUE"));
    if (default_slider("pue", c.pue, ok_ ? used.pue : 1.0, 1.0f, 3.0f, "%.2f")) changed();
    help_marker(tr("Power usage effectiveness: facility power / IT power (1.0 = no cooling overhead; data centers average ~1.5)."));
    row_label(tr("Electricity"));
    if (key_slider("##kwh", "usd_per_kwh", c.usd_per_kwh, 0.0f, 1.0f, tr("$%.3f per kWh"))) changed();
    ImGui::PopID();
}

}  // namespace gpusizer::ui
