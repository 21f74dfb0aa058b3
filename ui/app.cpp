// ui/app.cpp: the calculator's views.
//
// [SECTION] Recomputing (only when an input changed)
// [SECTION] Layout: the setup panel on the left, the results on the right
// [SECTION] Setup: model, workload, hardware
// [SECTION] Results: headline, breakdown, inverse questions, plots, compare, assumptions
#include "app.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "gpusizer/format.hpp"
#include "theme.hpp"

namespace gpusizer::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* mode_label(Mode m) {
    switch (m) {
        case Mode::inference: return "Inference";
        case Mode::train: return "Full training";
        case Mode::lora: return "LoRA";
        case Mode::qlora: return "QLoRA";
    }
    return "?";
}

// A labelled row: label on the left at a fixed width, the widget filling the rest.
void row_label(const char* label) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(ImGui::GetFontSize() * 7.5f);
    ImGui::SetNextItemWidth(-1);
}

void help_marker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

bool filter_matches(const std::string& filter, const std::string& a, const std::string& b) {
    if (filter.empty()) return true;
    auto lower = [](std::string s) {
        for (char& c : s) c = char(std::tolower((unsigned char)c));
        return s;
    };
    const std::string f = lower(filter);
    return lower(a).find(f) != std::string::npos || lower(b).find(f) != std::string::npos;
}

}  // namespace

App::App(const Catalog& catalog, Platform& platform, UiState state) : catalog_(catalog), platform_(platform), s_(std::move(state)) {}

bool App::open(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && text[first] == '{';
    const bool ok = json ? open_config_text(s_, text, catalog_) : open_link(s_, text, catalog_);
    changed();
    return ok;
}

bool App::select_tab(const std::string& name) {
    const char* names[] = {"memory", "plots", "compare", "assumptions"};
    for (int i = 0; i < 4; ++i)
        if (name == names[i]) {
            select_tab_ = i;
            return true;
        }
    return false;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Recomputing
// ---------------------------------------------------------------------------------------------

void App::recompute() {
    dirty_ = false;
    link_ = link_of(s_);
    platform_.link_changed(link_);
    ok_ = false;
    fit_ok_ = false;
    error_.clear();
    try {
        report_ = estimate(s_.config, catalog_);
        ok_ = true;
        assumptions_ = assumptions(report_);
    } catch (const Error& e) {
        error_ = e.what();
    }
    if (ok_) {
        try {
            fit_ = fit(s_.config, catalog_);
            fit_ok_ = true;
        } catch (const Error&) {
            fit_ok_ = false;
        }
    }

    // Memory against context (log scale, 512 to 1M tokens) and against batch (1 to 256).
    ctx_x_.clear();
    batch_x_.clear();
    ctx_series_ = {{"total", {}, IM_COL32(235, 235, 235, 255)}, {"weights", {}, part_color(0)},
                   {"KV cache", {}, part_color(1)}, {"activations", {}, part_color(2)}};
    batch_series_ = ctx_series_;
    if (ok_) {
        auto add = [](std::vector<Series>& series, const Report* r) {
            series[0].y.push_back(r ? r->per_gpu.total() : kNaN);
            series[1].y.push_back(r ? r->per_gpu.weights : kNaN);
            series[2].y.push_back(r ? r->per_gpu.kv_cache : kNaN);
            series[3].y.push_back(r ? r->per_gpu.activations : kNaN);
        };
        Config c = s_.config;
        for (double e = 9; e <= 20.0001; e += 0.5) {
            c.context = (long long)std::llround(std::pow(2.0, e));
            ctx_x_.push_back(double(c.context));
            try {
                const Report r = estimate(c, catalog_);
                add(ctx_series_, &r);
            } catch (const Error&) {
                add(ctx_series_, nullptr);
            }
        }
        c = s_.config;
        for (int b : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}) {
            c.batch = b;
            if (c.mode != Mode::inference) c.global_batch = 0;
            batch_x_.push_back(b);
            try {
                const Report r = estimate(c, catalog_);
                add(batch_series_, &r);
            } catch (const Error&) {
                add(batch_series_, nullptr);
            }
        }
    }

    // The compare view: the same workload on each chosen GPU.
    compare_.clear();
    for (const CompareColumn& col : s_.compare) {
        CompareResult res;
        Config c = s_.config;
        c.gpu = col.gpu;
        c.gpus = col.gpus;
        c.tp = c.pp = c.dp = 0;   // each choice gets its own automatic split
        try {
            res.report = estimate(c, catalog_);
            res.ok = true;
        } catch (const Error& e) {
            res.error = e.what();
        }
        compare_.push_back(std::move(res));
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Layout
// ---------------------------------------------------------------------------------------------

void App::note_item(const char* name) {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    layout_.push_back({name, lo.x, lo.y, hi.x - lo.x, hi.y - lo.y});
}

void App::frame(float scale) {
    scale_ = scale;
    if (dirty_) recompute();
    layout_.clear();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float setup_w = std::min(vp->WorkSize.x * 0.45f, 390.0f * scale);
    const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(ImVec2(setup_w, vp->WorkSize.y));
    if (ImGui::Begin("Setup", nullptr, fixed)) draw_setup(setup_w, vp->WorkSize.y);
    layout_.push_back({"Setup", ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y});
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + setup_w, vp->WorkPos.y));
    ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x - setup_w, vp->WorkSize.y));
    if (ImGui::Begin("Results", nullptr, fixed)) draw_results(vp->WorkPos.x + setup_w, vp->WorkSize.x - setup_w, vp->WorkSize.y);
    layout_.push_back({"Results", ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y});
    ImGui::End();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Setup
// ---------------------------------------------------------------------------------------------

void App::draw_setup(float, float) {
    ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1.0f), "gpusizer");
    ImGui::SameLine();
    ImGui::TextDisabled("GPU memory for LLM inference and training");
    ImGui::Separator();
    if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) draw_model();
    if (ImGui::CollapsingHeader("Workload", ImGuiTreeNodeFlags_DefaultOpen)) draw_workload();
    if (ImGui::CollapsingHeader("Hardware", ImGuiTreeNodeFlags_DefaultOpen)) draw_hardware();
}

void App::draw_model() {
    ImGui::PushID("model");
    const char* sources[] = {"catalog", "a parameter count", "its numbers", "a pasted config.json"};
    row_label("From");
    if (ImGui::BeginCombo("##source", sources[int(s_.source)])) {
        for (int i = 0; i < 4; ++i) {
            if (ImGui::Selectable(sources[i], int(s_.source) == i)) {
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
            row_label("Model");
            if (ImGui::BeginCombo("##model", cur ? cur->arch.name.c_str() : s_.catalog_model.c_str(), ImGuiComboFlags_HeightLarge)) {
                if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
                ImGui::SetNextItemWidth(-1);
                ImGui::InputTextWithHint("##filter", "search models", &model_filter_);
                for (const CatalogModel& m : catalog_.models) {
                    if (!filter_matches(model_filter_, m.arch.id, m.arch.name)) continue;
                    char label[160];
                    std::snprintf(label, sizeof label, "%s  (%s)", m.arch.name.c_str(), format_count(m.counts.total()).c_str());
                    if (ImGui::Selectable(label, m.arch.id == s_.catalog_model)) {
                        s_.catalog_model = m.arch.id;
                        apply_model_source(s_);
                        set_gpu_count(s_, s_.config.gpus, &m.arch);
                        changed();
                    }
                }
                ImGui::EndCombo();
            }
            if (cur) {
                ImGui::PushTextWrapPos();
                ImGui::TextDisabled("%s parameters%s, %d layers, %d/%d heads, %s context", format_count(cur->counts.total()).c_str(),
                                    cur->arch.is_moe() ? (", " + format_count(cur->counts.active(cur->arch)) + " active").c_str() : "",
                                    cur->arch.total_layers(), cur->arch.n_heads, cur->arch.n_kv_heads,
                                    format_int(cur->context_trained).c_str());
                ImGui::PopTextWrapPos();
            }
            break;
        }
        case ModelSource::parameters: {
            row_label("Parameters");
            float b = float(s_.custom_params_b);
            if (ImGui::SliderFloat("##params", &b, 0.1f, 1000.0f, "%.2f B", ImGuiSliderFlags_Logarithmic)) {
                s_.custom_params_b = std::clamp(double(b), 0.05, 10000.0);
                apply_model_source(s_);
                changed();
            }
            ImGui::TextDisabled("A Llama-3-shaped dense model of this size.");
            break;
        }
        case ModelSource::numbers: {
            ModelNumbers& n = s_.numbers;
            bool edit = false;
            auto num = [&](const char* label, int* v, int lo, int hi) {
                row_label(label);
                ImGui::PushID(label);
                if (ImGui::InputInt("##v", v, 0, 0)) {
                    *v = std::clamp(*v, lo, hi);
                    edit = true;
                }
                ImGui::PopID();
            };
            num("Layers", &n.layers, 1, 1000);
            num("Hidden", &n.hidden, 64, 1 << 17);
            num("MLP inner", &n.intermediate, 64, 1 << 19);
            num("Heads", &n.heads, 1, 1024);
            num("KV heads", &n.kv_heads, 1, 1024);
            num("Vocabulary", &n.vocab, 256, 1 << 22);
            num("Experts", &n.experts, 0, 1024);
            if (n.experts > 0) num("Per token", &n.experts_per_token, 1, 64);
            edit |= ImGui::Checkbox("Tied embeddings", &n.tied);
            if (edit) {
                apply_model_source(s_);
                set_gpu_count(s_, s_.config.gpus, current_arch(s_, catalog_));
                changed();
            }
            break;
        }
        case ModelSource::hf_config: {
            ImGui::TextDisabled("Paste a Hugging Face config.json:");
            ImGui::InputTextMultiline("##hf", &s_.hf_text, ImVec2(-1, ImGui::GetTextLineHeight() * 7));
            if (ImGui::Button("Use this config")) {
                apply_model_source(s_);
                set_gpu_count(s_, s_.config.gpus, current_arch(s_, catalog_));
                changed();
            }
            break;
        }
    }
    if (!s_.model_error.empty() && s_.source != ModelSource::catalog) {
        ImGui::PushTextWrapPos();
        ImGui::TextColored(to_vec4(kNoFitColor), "%s", s_.model_error.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::PopID();
}

void App::draw_workload() {
    Config& c = s_.config;
    ImGui::PushID("workload");
    for (Mode m : {Mode::inference, Mode::train, Mode::lora, Mode::qlora}) {
        if (m != Mode::inference) ImGui::SameLine();
        if (ImGui::RadioButton(mode_label(m), c.mode == m)) {
            c.mode = m;
            if (m == Mode::qlora) c.weights = "nf4";
            else if (m != Mode::inference && !c.weights.empty() && is_quantized(weight_format(c.weights))) c.weights = "bf16";
            c.global_batch = 0;
            c.zero = m == Mode::inference ? 0 : c.zero;
            if (m == Mode::inference) c.offload = Offload::none;
            if (m != Mode::inference && (c.runtime == Runtime::llama_cpp || c.runtime == Runtime::vllm)) c.runtime = Runtime::automatic;
            set_gpu_count(s_, c.gpus, current_arch(s_, catalog_));
            changed();
        }
    }
    // Weights and KV cache.
    const std::string weights = c.weights.empty() ? (c.mode == Mode::qlora ? "nf4" : "bf16") : c.weights;
    row_label("Weights");
    if (ImGui::BeginCombo("##weights", weight_format(weights).label.data())) {
        for (const WeightFormat& f : weight_formats()) {
            if (ImGui::Selectable(f.label.data(), f.id == weights)) {
                c.weights = std::string(f.id);
                changed();
            }
        }
        ImGui::EndCombo();
    }
    const std::string kv = c.kv_cache.empty() ? "auto (16-bit)" : c.kv_cache;
    row_label("KV cache");
    if (ImGui::BeginCombo("##kv", kv.c_str())) {
        if (ImGui::Selectable("auto (16-bit)", c.kv_cache.empty())) {
            c.kv_cache.clear();
            changed();
        }
        for (const KvFormat& f : kv_formats()) {
            char label[64];
            std::snprintf(label, sizeof label, "%s%s", f.id.data(), f.llama_cpp_only ? "  (llama.cpp)" : "");
            if (ImGui::Selectable(label, c.kv_cache == f.id)) {
                c.kv_cache = std::string(f.id);
                changed();
            }
        }
        ImGui::EndCombo();
    }
    // Context (log scale) and batch.
    row_label("Context");
    int ctx = int(c.context > 0 ? c.context : (ok_ ? report_.config.context : 8192));
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 5.5f);
    if (ImGui::SliderInt("##ctx", &ctx, int(kContextMin), int(kContextMax), "%d tokens", ImGuiSliderFlags_Logarithmic)) {
        c.context = std::clamp<long long>(ctx, 1, 1LL << 27);
        changed();
    }
    note_item("context slider");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputInt("##ctxv", &ctx, 0, 0)) {
        c.context = std::clamp<long long>(ctx, 1, 1LL << 27);
        changed();
    }
    row_label("Batch");
    int batch = c.batch;
    if (ImGui::SliderInt("##batch", &batch, 1, 1024, batch == 1 ? "%d sequence" : "%d sequences", ImGuiSliderFlags_Logarithmic)) {
        c.batch = std::clamp(batch, 1, 1 << 20);
        c.global_batch = 0;
        changed();
    }
    note_item("batch slider");
    // Training.
    if (c.mode != Mode::inference) {
        row_label("Optimizer");
        if (ImGui::BeginCombo("##opt", std::string(to_string(c.optimizer)).c_str())) {
            for (Optimizer o : {Optimizer::adamw, Optimizer::adamw_8bit, Optimizer::sgd, Optimizer::adafactor})
                if (ImGui::Selectable(std::string(to_string(o)).c_str(), c.optimizer == o)) {
                    c.optimizer = o;
                    changed();
                }
            ImGui::EndCombo();
        }
        row_label("ZeRO stage");
        if (ImGui::SliderInt("##zero", &c.zero, 0, 3)) {
            if (c.zero < 3 && c.offload == Offload::optimizer_params) c.offload = Offload::optimizer;
            if (c.zero == 0) c.offload = Offload::none;
            changed();
        }
        row_label("Offload");
        if (ImGui::BeginCombo("##off", std::string(to_string(c.offload)).c_str())) {
            for (Offload o : {Offload::none, Offload::optimizer, Offload::optimizer_params}) {
                const bool allowed = o == Offload::none || (o == Offload::optimizer && c.zero >= 1) ||
                                     (o == Offload::optimizer_params && c.zero == 3);
                if (ImGui::Selectable(std::string(to_string(o)).c_str(), c.offload == o, allowed ? 0 : ImGuiSelectableFlags_Disabled)) {
                    c.offload = o;
                    changed();
                }
            }
            ImGui::EndCombo();
        }
        row_label("Recompute");
        if (ImGui::BeginCombo("##rc", std::string(to_string(c.recompute)).c_str())) {
            for (Recompute r : {Recompute::automatic, Recompute::none, Recompute::selective, Recompute::full})
                if (ImGui::Selectable(std::string(to_string(r)).c_str(), c.recompute == r)) {
                    c.recompute = r;
                    changed();
                }
            ImGui::EndCombo();
        }
        if (ImGui::Checkbox("Flash attention", &c.flash_attention)) changed();
        ImGui::SameLine();
        if (ImGui::Checkbox("Sequence parallel", &c.sequence_parallel)) changed();
        if (c.mode == Mode::lora || c.mode == Mode::qlora) {
            row_label("LoRA rank");
            if (ImGui::SliderInt("##lr", &c.lora_rank, 1, 512, "%d", ImGuiSliderFlags_Logarithmic)) {
                c.lora_rank = std::clamp(c.lora_rank, 1, 1 << 16);
                changed();
            }
            const char* names[] = {"q", "k", "v", "o", "gate", "up", "down"};
            ImGui::AlignTextToFramePadding();
            ImGui::TextUnformatted("Targets");
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
        if (ImGui::Checkbox("Flash attention", &c.flash_attention)) changed();
    }
    ImGui::PopID();
}

void App::draw_hardware() {
    Config& c = s_.config;
    const ModelArch* arch = current_arch(s_, catalog_);
    ImGui::PushID("hardware");
    const Gpu* gpu = catalog_.find_gpu(c.gpu);
    row_label("GPU");
    if (ImGui::BeginCombo("##gpu", gpu ? gpu->name.c_str() : c.gpu.c_str(), ImGuiComboFlags_HeightLarge)) {
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        ImGui::SetNextItemWidth(-1);
        ImGui::InputTextWithHint("##filter", "search GPUs", &gpu_filter_);
        Segment last = Segment::apple;
        bool first = true;
        for (const Gpu& g : catalog_.gpus) {
            if (!filter_matches(gpu_filter_, g.id, g.name)) continue;
            if (first || g.segment != last) {
                ImGui::TextDisabled("%s", std::string(segment_name(g.segment)).c_str());
                last = g.segment;
                first = false;
            }
            char label[160];
            std::snprintf(label, sizeof label, "%s  (%s)", g.name.c_str(), format_gib(g.capacity_bytes(), 0).c_str());
            if (ImGui::Selectable(label, g.id == c.gpu)) {
                c.gpu = g.id;
                changed();
            }
        }
        ImGui::EndCombo();
    }
    row_label("GPUs");
    int gpus = c.gpus;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 4.5f);
    if (ImGui::SliderInt("##gpus", &gpus, 1, 64)) {
        set_gpu_count(s_, gpus, arch);
        changed();
    }
    note_item("gpus slider");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputInt("##gpusv", &gpus, 0, 0)) {
        set_gpu_count(s_, std::clamp(gpus, 1, 1 << 16), arch);
        changed();
    }
    bool manual = s_.manual_parallel;
    if (ImGui::Checkbox("Set tensor / pipeline split", &manual)) {
        set_manual_parallel(s_, manual, arch);
        changed();
    }
    help_marker("Automatic: training spreads GPUs over data parallel, llama.cpp over layers (pipeline), other inference over "
                "attention heads (tensor parallel).");
    if (s_.manual_parallel && arch) {
        const auto tps = tp_choices(*arch, c.gpus);
        row_label("Tensor (tp)");
        if (ImGui::BeginCombo("##tp", std::to_string(c.tp).c_str())) {
            for (int t : tps)
                if (ImGui::Selectable(std::to_string(t).c_str(), t == c.tp)) {
                    c.tp = t;
                    c.pp = 1;
                    c.dp = c.gpus / c.tp;
                    changed();
                }
            ImGui::EndCombo();
        }
        const auto pps = pp_choices(*arch, c.gpus, c.tp);
        row_label("Pipeline (pp)");
        if (ImGui::BeginCombo("##pp", std::to_string(c.pp).c_str())) {
            for (int p : pps)
                if (ImGui::Selectable(std::to_string(p).c_str(), p == c.pp)) {
                    c.pp = p;
                    c.dp = c.gpus / (c.tp * c.pp);
                    changed();
                }
            ImGui::EndCombo();
        }
        ImGui::TextDisabled("data parallel (dp) = %d", c.dp);
    } else if (ok_) {
        ImGui::TextDisabled("tp %d, pp %d, dp %d", report_.parallel.tp, report_.parallel.pp, report_.parallel.dp);
    }
    row_label("Runtime");
    if (ImGui::BeginCombo("##rt", std::string(to_string(c.runtime)).c_str())) {
        for (Runtime r : {Runtime::automatic, Runtime::pytorch, Runtime::llama_cpp, Runtime::vllm, Runtime::none})
            if (ImGui::Selectable(std::string(to_string(r)).c_str(), c.runtime == r)) {
                c.runtime = r;
                set_gpu_count(s_, c.gpus, arch);
                changed();
            }
        ImGui::EndCombo();
    }
    if (c.runtime == Runtime::vllm) {
        row_label("GPU share");
        float u = float(c.gpu_memory_utilization);
        if (ImGui::SliderFloat("##gmu", &u, 0.3f, 1.0f, "%.2f")) {
            c.gpu_memory_utilization = std::clamp(double(u), 0.05, 1.0);
            changed();
        }
    }
    ImGui::PopID();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Results
// ---------------------------------------------------------------------------------------------

void App::draw_results(float, float, float) {
    draw_link_bar();
    ImGui::Separator();
    if (!ok_) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos();
        ImGui::TextColored(to_vec4(kNoFitColor), "Cannot estimate this configuration:");
        ImGui::TextUnformatted(error_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TextDisabled("Change the setting it names, or open another link.");
        return;
    }
    draw_headline();
    auto tab_flags = [&](int i) { return select_tab_ == i ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None; };
    if (ImGui::BeginTabBar("tabs")) {
        if (ImGui::BeginTabItem("Memory", nullptr, tab_flags(0))) {
            draw_breakdown();
            draw_inverse();
            // The context chart in the room left below, when there is room for one.
            const float room = ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 1.6f;
            if (room > ImGui::GetFontSize() * 9.0f) {
                ImGui::TextDisabled("Memory per GPU against context (batch %d)", report_.config.batch);
                memory_chart("ctx-memory", ctx_x_, ctx_series_, report_.gpu_usable, true, "context (tokens)", ImVec2(0, room),
                             double(report_.config.context));
            }
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Plots", nullptr, tab_flags(1))) {
            draw_plots();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Compare GPUs", nullptr, tab_flags(2))) {
            draw_compare();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Assumptions", nullptr, tab_flags(3))) {
            draw_assumptions();
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
        select_tab_ = -1;
    }
}

void App::draw_link_bar() {
    if (ImGui::Button("Copy link")) {
        platform_.set_clipboard(link_);
        s_.message = "Link copied: " + link_;
        s_.message_is_error = false;
    }
    note_item("copy link button");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 6.0f);
    const bool enter = ImGui::InputTextWithHint("##link", "paste a link (#v=1&m=...) or a configuration JSON", &s_.link_text,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open link") || enter) && !s_.link_text.empty()) {
        if (open(s_.link_text)) s_.link_text.clear();
    }
    if (!s_.message.empty()) {
        ImGui::PushTextWrapPos();
        if (s_.message_is_error) ImGui::TextColored(to_vec4(kNoFitColor), "%s", s_.message.c_str());
        else ImGui::TextDisabled("%s", s_.message.c_str());
        ImGui::PopTextWrapPos();
    }
}

void App::draw_headline() {
    const Report& r = report_;
    ImGui::Spacing();
    const ImU32 color = r.fits ? kFitsColor : kNoFitColor;
    ImGui::SetWindowFontScale(1.45f);
    ImGui::TextColored(to_vec4(color), r.fits ? "Fits" : "Does not fit");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    if (r.fits)
        ImGui::Text("%s of %s per GPU, %s to spare", format_gib(r.per_gpu.total()).c_str(), format_gib(r.gpu_usable).c_str(),
                    format_gib(r.headroom).c_str());
    else
        ImGui::Text("%s needed per GPU, %s usable: %s short", format_gib(r.per_gpu.total()).c_str(), format_gib(r.gpu_usable).c_str(),
                    format_gib(-r.headroom).c_str());
    ImGui::TextDisabled("%s on %d x %s, %s, %s weights, %s tokens x %d, %s", r.model_name.c_str(), r.config.gpus, r.gpu_name.c_str(),
                        mode_label(r.config.mode), r.config.weights.c_str(), format_int(double(r.config.context)).c_str(),
                        r.config.batch, std::string(to_string(r.config.runtime)).c_str());
    ImGui::Spacing();
    memory_bar(r.per_gpu, r.gpu_usable, ImGui::GetFontSize() * 2.2f);
    ImGui::Spacing();
}

void App::draw_breakdown() {
    const Report& r = report_;
    const MemoryParts& m = r.per_gpu;
    ImGui::Spacing();
    const float half = ImGui::GetContentRegionAvail().x * 0.5f - 6;
    ImGui::BeginGroup();
    if (ImGui::BeginTable("parts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(half, 0))) {
        ImGui::TableSetupColumn("Per GPU (most loaded)", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("bytes", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 6.5f);
        ImGui::TableHeadersRow();
        const double vals[] = {m.weights, m.kv_cache, m.activations, m.gradients, m.optimizer, m.overhead};
        for (int i = 0; i < 6; ++i) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(to_vec4(part_color(i)), "%s", part_name(i));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(vals[i]).c_str());
            if (i == 5) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextDisabled("   CUDA context %s, allocator %s, buffers %s", format_gib(r.overhead_detail.cuda_context).c_str(),
                                    format_gib(r.overhead_detail.allocator_reserve).c_str(),
                                    format_gib(r.overhead_detail.runtime_buffers).c_str());
                ImGui::PopTextWrapPos();
                ImGui::TableNextColumn();
            }
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted("total");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(format_gib(m.total()).c_str());
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("usable on %s", r.gpu_name.c_str());
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", format_gib(r.gpu_usable).c_str());
        ImGui::EndTable();
    }
    ImGui::EndGroup();
    ImGui::SameLine(0, 12);
    ImGui::BeginGroup();
    if (ImGui::BeginTable("facts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(half, 0))) {
        ImGui::TableSetupColumn("Model and workload", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 7.5f);
        ImGui::TableHeadersRow();
        auto row = [](const char* name, const std::string& value) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(value.c_str());
        };
        row("parameters", format_count(r.params));
        if (r.active_params < r.params * 0.999) row("active per token", format_count(r.active_params));
        if (r.trainable_params > 0) row("trainable", format_count(r.trainable_params));
        char bits[32];
        std::snprintf(bits, sizeof bits, "%.2f", r.weights_bits_per_param);
        row("bits per parameter", bits);
        if (r.config.mode == Mode::inference) {
            row("KV cache per token", format_bytes_short(r.kv_bytes_per_token));
            row("KV room on this GPU", format_int(r.kv_capacity_tokens) + " tokens");
        } else {
            row("activations per layer", format_gib(r.activations_per_layer));
        }
        row("split tp x pp x dp", std::to_string(r.parallel.tp) + " x " + std::to_string(r.parallel.pp) + " x " +
                                      std::to_string(r.parallel.dp));
        if (r.host > 0) row("host RAM", format_gib(r.host));
        ImGui::EndTable();
    }
    ImGui::EndGroup();
    if (!r.warnings.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos();
        for (const auto& w : r.warnings) ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f), "! %s", w.c_str());
        ImGui::PopTextWrapPos();
    }
}

void App::draw_inverse() {
    if (!fit_ok_) return;
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextDisabled("What fits");
    const FitReport& f = fit_;
    ImGui::Text("Longest context at batch %d:", report_.config.batch);
    ImGui::SameLine();
    ImGui::TextColored(to_vec4(f.max_context > 0 ? kFitsColor : kNoFitColor), "%s tokens", format_int(double(f.max_context)).c_str());
    ImGui::SameLine(0, 24);
    ImGui::Text("Largest batch at %s tokens:", format_int(double(report_.config.context)).c_str());
    ImGui::SameLine();
    ImGui::TextColored(to_vec4(f.max_batch > 0 ? kFitsColor : kNoFitColor), "%s", format_int(double(f.max_batch)).c_str());
    ImGui::Text("Most precise weights that fit:");
    ImGui::SameLine();
    ImGui::TextColored(to_vec4(f.best_weights.empty() ? kNoFitColor : kFitsColor), "%s",
                       f.best_weights.empty() ? "none" : f.best_weights.c_str());
    ImGui::SameLine(0, 24);
    ImGui::Text("KV cache:");
    ImGui::SameLine();
    ImGui::TextColored(to_vec4(f.best_kv_cache.empty() ? kNoFitColor : kFitsColor), "%s",
                       f.best_kv_cache.empty() ? "none" : f.best_kv_cache.c_str());
    if (ImGui::TreeNode("Every weight format")) {
        if (ImGui::BeginTable("formats", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
            ImGui::TableSetupColumn("weights");
            ImGui::TableSetupColumn("per GPU");
            ImGui::TableSetupColumn("fits");
            ImGui::TableSetupColumn("longest context");
            ImGui::TableHeadersRow();
            for (const FitRow& row : f.by_weights) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                if (ImGui::Selectable(row.format.c_str(), row.format == report_.config.weights, ImGuiSelectableFlags_SpanAllColumns)) {
                    s_.config.weights = row.format;
                    changed();
                }
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_gib(row.total).c_str());
                ImGui::TableNextColumn();
                ImGui::TextColored(to_vec4(row.fits ? kFitsColor : kNoFitColor), row.fits ? "yes" : "no");
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_int(double(row.max_context)).c_str());
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

void App::draw_plots() {
    const float h = std::max(ImGui::GetFontSize() * 11.0f, (ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 3.0f) * 0.5f);
    ImGui::TextDisabled("Memory per GPU against context (batch %d)", report_.config.batch);
    memory_chart("ctx", ctx_x_, ctx_series_, report_.gpu_usable, true, "context (tokens)", ImVec2(0, h), double(report_.config.context));
    ImGui::TextDisabled("Memory per GPU against batch (%s tokens each)", format_int(double(report_.config.context)).c_str());
    memory_chart("batch", batch_x_, batch_series_, report_.gpu_usable, true, "batch (sequences)", ImVec2(0, h), double(report_.config.batch));
}

void App::draw_compare() {
    ImGui::TextDisabled("The same model and workload on each GPU choice (the seed article's table, for your workload).");
    const int cols = int(s_.compare.size());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchSame;
    if (cols == 0 || !ImGui::BeginTable("compare", cols + 1, flags, ImVec2(0, ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 2.2f)))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 10.0f);
    for (int i = 0; i < cols; ++i) ImGui::TableSetupColumn(s_.compare[i].gpu.c_str(), ImGuiTableColumnFlags_WidthStretch);
    // Header row: a GPU picker, the count and a remove button per column.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("GPU");
    int remove = -1;
    for (int i = 0; i < cols; ++i) {
        ImGui::TableNextColumn();
        ImGui::PushID(i);
        const Gpu* g = catalog_.find_gpu(s_.compare[i].gpu);
        ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 2.4f);
        if (ImGui::BeginCombo("##g", g ? g->id.c_str() : "?", ImGuiComboFlags_HeightLarge)) {
            for (const Gpu& cand : catalog_.gpus)
                if (ImGui::Selectable(cand.name.c_str(), cand.id == s_.compare[i].gpu)) {
                    s_.compare[i].gpu = cand.id;
                    changed();
                }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        if (ImGui::SmallButton("x")) remove = i;
        ImGui::SetNextItemWidth(-1);
        int n = s_.compare[i].gpus;
        if (ImGui::SliderInt("##n", &n, 1, 16, "x %d")) {
            s_.compare[i].gpus = std::clamp(n, 1, 1 << 16);
            changed();
        }
        ImGui::PopID();
    }
    if (remove >= 0) {
        s_.compare.erase(s_.compare.begin() + remove);
        changed();
    }
    auto text_row = [&](const char* name, auto value_of) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", name);
        for (int i = 0; i < cols && i < int(s_.compare.size()); ++i) {
            ImGui::TableNextColumn();
            const Gpu* g = catalog_.find_gpu(s_.compare[i].gpu);
            if (g) ImGui::TextWrapped("%s", value_of(*g).c_str());
        }
    };
    auto tflops = [](double v) {
        if (v <= 0) return std::string("-");
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", v);
        return std::string(buf);
    };
    // The workload's results first, then the datasheet.
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("per GPU");
    for (std::size_t i = 0; i < compare_.size() && int(i) < cols; ++i) {
        ImGui::TableNextColumn();
        if (compare_[i].ok) {
            const Report& r = compare_[i].report;
            ImGui::TextColored(to_vec4(r.fits ? kFitsColor : kNoFitColor), "%s %s", format_gib(r.per_gpu.total()).c_str(),
                               r.fits ? "fits" : "no");
        } else {
            ImGui::TextColored(to_vec4(kNoFitColor), "cannot run");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", compare_[i].error.c_str());
        }
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("headroom");
    for (std::size_t i = 0; i < compare_.size() && int(i) < cols; ++i) {
        ImGui::TableNextColumn();
        if (compare_[i].ok) ImGui::TextUnformatted(format_gib(compare_[i].report.headroom).c_str());
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("KV room");
    for (std::size_t i = 0; i < compare_.size() && int(i) < cols; ++i) {
        ImGui::TableNextColumn();
        if (compare_[i].ok) ImGui::Text("%s tok", format_int(compare_[i].report.kv_capacity_tokens).c_str());
    }
    text_row("name", [](const Gpu& g) { return g.name; });
    text_row("architecture", [](const Gpu& g) { return g.architecture + (g.chip.empty() ? "" : " (" + g.chip + ")"); });
    text_row("year", [](const Gpu& g) { return std::to_string(g.year); });
    text_row("memory", [](const Gpu& g) { return format_gib(g.capacity_bytes()) + " " + g.memory_type; });
    text_row("bandwidth", [](const Gpu& g) { return format_int(g.memory_bandwidth_gb_per_s) + " GB/s"; });
    text_row("FP32 TFLOPS", [&](const Gpu& g) { return tflops(g.fp32_tflops); });
    text_row("TF32 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.tf32); });
    text_row("FP16 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.fp16); });
    text_row("BF16 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.bf16); });
    text_row("FP8 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.fp8); });
    text_row("INT8 tensor (TOPS)", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.int8); });
    text_row("FP4 tensor", [&](const Gpu& g) { return tflops(g.tensor_tflops_dense.fp4); });
    text_row("NVLink", [](const Gpu& g) {
        return g.nvlink == "none" ? std::string("none") : g.nvlink + " " + format_int(g.nvlink_gb_per_s) + " GB/s";
    });
    text_row("PCIe", [](const Gpu& g) {
        return g.pcie_gen > 0 ? "Gen" + std::to_string(g.pcie_gen) + " x" + std::to_string(g.pcie_lanes) : std::string("-");
    });
    text_row("power", [](const Gpu& g) { return g.tdp_w > 0 ? format_int(g.tdp_w) + " W" : std::string("-"); });
    text_row("ECC", [](const Gpu& g) { return std::string(g.ecc ? "yes" : "no"); });
    text_row("form factor", [](const Gpu& g) { return g.form_factor; });
    text_row("price", [](const Gpu& g) { return g.price_usd ? "$" + format_int(*g.price_usd) : std::string("-"); });
    ImGui::EndTable();
    ImGui::TextDisabled("Tensor TFLOPS are dense (no 2:4 sparsity); GeForce FP16/BF16 with FP32 accumulate.");
    if (s_.compare.size() < 6) {
        ImGui::SameLine();
        if (ImGui::SmallButton("+ add a GPU")) {
            s_.compare.push_back({s_.config.gpu, s_.config.gpus});
            changed();
        }
    }
}

void App::draw_assumptions() {
    ImGui::TextDisabled("The constants and choices behind these numbers, with their sources (docs/formulas.md).");
    if (ImGui::BeginTable("assumptions", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                                ImGuiTableFlags_Resizable)) {
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 9.0f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch, 1.2f);
        ImGui::TableHeadersRow();
        for (const Assumption& a : assumptions_) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(a.name.c_str());
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(a.value.c_str());
            ImGui::PopTextWrapPos();
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("%s", a.source.c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::EndTable();
    }
}

}  // namespace gpusizer::ui
