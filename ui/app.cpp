// ui/app.cpp: the calculator's views.
//
// [SECTION] Recomputing (only when an input changed)
// [SECTION] Layout: the setup panel on the left, the results on the right
// [SECTION] Setup: model, workload, hardware
// [SECTION] Results: headline, breakdown, inverse questions, plots, compare, assumptions
// [SECTION] Speed, interconnect and power; recommendations; measured figures; opening files
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

bool App::open_file(const std::string& name, const std::string& text) {
    const bool ok = open_file_text(s_, name, text, catalog_);
    if (ok && s_.measured.loaded && looks_like_measured_report(text)) select_tab("measured");
    calibrated_for_.clear();   // a new report (or the same file again) rebuilds the calibration
    changed();
    return ok;
}

namespace {
// The results tabs, in the order they are drawn; select_tab() takes these names.
const char* const kTabNames[] = {"memory", "speed", "plots", "compare", "recommend", "measured", "assumptions"};
constexpr int kTabCount = int(sizeof kTabNames / sizeof kTabNames[0]);
}  // namespace

bool App::select_tab(const std::string& name) {
    const char* const* names = kTabNames;
    for (int i = 0; i < kTabCount; ++i)
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
    ++revision_;
    link_ = link_of(s_);
    platform_.link_changed(link_);
    ok_ = false;
    fit_ok_ = false;
    error_.clear();
    recommend_dirty_ = true;
    alternative_ = LinkTimes{};

    // An opened benchmark report replaces the chosen GPU's datasheet figures with its measured
    // ones, when it measured that GPU (a report of another GPU says which one to choose).
    use_calibrated_ = false;
    measured_error_.clear();
    if (s_.measured.loaded && s_.measured.use) {
        const std::string key = s_.config.gpu + '\n' + s_.measured.file;
        try {
            if (calibrated_for_ != key) {
                calibrated_ = calibrated_catalog(catalog_, s_.measured.report, s_.config.gpu, s_.measured.file);
                calibrated_for_ = key;
            }
            use_calibrated_ = true;
        } catch (const Error& e) {
            calibrated_for_.clear();
            measured_error_ = e.what();
        }
    }
    const Catalog& cat = estimate_catalog();

    try {
        report_ = estimate(s_.config, cat);
        ok_ = true;
        assumptions_ = assumptions(report_);
    } catch (const Error& e) {
        error_ = e.what();
    }
    if (ok_ && report_.config.gpus > 1) {
        try {
            alternative_ = alternative_link(s_.config, cat);
        } catch (const Error&) {
            alternative_ = LinkTimes{};
        }
        report_.interconnect.alternative = alternative_;   // as `gpusizer estimate` reports it
    }
    if (ok_) {
        try {
            fit_ = fit(s_.config, cat);
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
                const Report r = estimate(c, cat);
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
                const Report r = estimate(c, cat);
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
            res.report = estimate(c, cat);
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
    if (ImGui::CollapsingHeader("Speed, power and cost")) draw_speed_inputs();
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
    // The links: the GPU's own unless the user picks another (what NVLink would change, say).
    if (!catalog_.links.empty()) {
        auto link_combo = [&](const char* label, const char* id, std::string& value, LinkScope scope, const std::string& resolved) {
            row_label(label);
            const Link* cur = value.empty() ? nullptr : catalog_.find_link(value);
            const Link* res = resolved.empty() ? nullptr : catalog_.find_link(resolved);
            std::string preview = cur ? cur->name : "auto" + (res ? " (" + res->name + ")" : std::string());
            if (ImGui::BeginCombo(id, preview.c_str())) {
                if (ImGui::Selectable("auto: the GPU's own", value.empty())) {
                    value.clear();
                    changed();
                }
                for (const Link& l : catalog_.links) {
                    if (l.scope != scope) continue;
                    char text[160];
                    std::snprintf(text, sizeof text, "%s  (%s per GPU)", l.name.c_str(), format_bandwidth(l.bytes_per_s()).c_str());
                    if (ImGui::Selectable(text, value == l.id)) {
                        value = l.id;
                        changed();
                    }
                }
                ImGui::EndCombo();
            }
        };
        link_combo("Link", "##link", c.link, LinkScope::intra_node, ok_ ? report_.interconnect.link : std::string());
        if ((ok_ && report_.interconnect.nodes > 1) || !c.inter_node_link.empty())
            link_combo("Between nodes", "##inter", c.inter_node_link, LinkScope::inter_node,
                       ok_ ? report_.interconnect.inter_node_link : std::string());
    }
    ImGui::PopID();
}

namespace {

// A slider over a setting whose 0 means "the default the core chooses": it shows the value in
// use, and "auto" puts the default back.
bool default_slider(const char* id, double& value, double in_use, float lo, float hi, const char* format, bool log = false) {
    ImGui::PushID(id);
    bool edited = false;
    float v = float(value > 0 ? value : in_use);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 3.2f);
    if (ImGui::SliderFloat("##v", &v, lo, hi, format, log ? ImGuiSliderFlags_Logarithmic : 0)) {
        value = std::clamp(double(v), double(lo), double(hi));
        edited = true;
    }
    ImGui::SameLine();
    if (value > 0) {
        if (ImGui::SmallButton("auto")) {
            value = 0;
            edited = true;
        }
    } else {
        ImGui::TextDisabled("auto");
    }
    ImGui::PopID();
    return edited;
}

}  // namespace

void App::draw_speed_inputs() {
    Config& c = s_.config;
    const Config& used = report_.config;   // the values the last estimate used (defaults resolved)
    ImGui::PushID("speed");
    const bool training = c.mode != Mode::inference;
    row_label("MFU");
    if (default_slider("mfu", c.mfu, ok_ ? used.mfu : 0.4, 0.05f, 1.0f, "%.2f")) changed();
    help_marker("Model FLOPs utilization: the fraction of the GPU's dense tensor peak that compute-bound work (prefill, "
                "training) reaches. Auto: the runtime's typical figure (Assumptions tab).");
    row_label("Bandwidth use");
    if (default_slider("bw", c.bandwidth_efficiency, ok_ ? used.bandwidth_efficiency : 0.8, 0.1f, 1.0f, "%.2f")) changed();
    help_marker("The fraction of the memory bandwidth that decoding reaches (it reads every weight once per token).");
    if (!training) {
        row_label("Prompt");
        double prompt = double(c.prompt_tokens);
        const double context = double(ok_ ? used.context : 8192);
        if (default_slider("prompt", prompt, ok_ ? double(used.prompt_tokens) : context / 2, 1.0f, float(context), "%.0f tokens", true)) {
            c.prompt_tokens = (long long)std::llround(std::min(prompt, context));
            changed();
        }
        if (ok_ && report_.config.runtime == Runtime::llama_cpp) {
            row_label("Host RAM bw");
            if (default_slider("hostbw", c.host_memory_bandwidth_gb_per_s, used.host_memory_bandwidth_gb_per_s, 10.0f, 1000.0f,
                               "%.0f GB/s", true))
                changed();
            help_marker("The host memory bandwidth llama.cpp reads offloaded layers with (dual-channel DDR5: ~60-80 GB/s).");
        }
    } else {
        row_label("Train on");
        float tokens_b = float(c.train_tokens / 1e9);
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 3.2f);
        if (ImGui::SliderFloat("##tt", &tokens_b, 0.0f, 20000.0f, tokens_b > 0 ? "%.2f B tokens" : "(not asked)",
                               ImGuiSliderFlags_Logarithmic)) {
            c.train_tokens = std::clamp(double(tokens_b), 0.0, 1e7) * 1e9;
            changed();
        }
        help_marker("Tokens of the training run, for its time, energy and electricity cost.");
    }
    row_label("Utilization");
    float u = float(c.utilization);
    if (ImGui::SliderFloat("##util", &u, 0.05f, 1.0f, "%.2f of board power")) {
        c.utilization = std::clamp(double(u), 0.05, 1.0);
        changed();
    }
    row_label("PUE");
    if (default_slider("pue", c.pue, ok_ ? used.pue : 1.0, 1.0f, 3.0f, "%.2f")) changed();
    help_marker("Power usage effectiveness: facility power / IT power (1.0 = no cooling overhead; data centers average ~1.5).");
    row_label("Electricity");
    float price = float(c.usd_per_kwh);
    if (ImGui::SliderFloat("##kwh", &price, 0.0f, 1.0f, "$%.3f per kWh")) {
        c.usd_per_kwh = std::clamp(double(price), 0.0, 10.0);
        changed();
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
        if (ImGui::BeginTabItem("Speed & power", nullptr, tab_flags(1))) {
            draw_speed();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Plots", nullptr, tab_flags(2))) {
            draw_plots();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Compare GPUs", nullptr, tab_flags(3))) {
            draw_compare();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Recommend", nullptr, tab_flags(4))) {
            draw_recommend();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem(s_.measured.loaded ? "Measured###measured" : "Measured (none)###measured", nullptr, tab_flags(5))) {
            draw_measured();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Assumptions", nullptr, tab_flags(6))) {
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
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 11.5f);
    const bool enter = ImGui::InputTextWithHint("##link", "paste a link (#v=1&m=...) or a configuration JSON", &s_.link_text,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open link") || enter) && !s_.link_text.empty()) {
        if (open(s_.link_text)) s_.link_text.clear();
    }
    ImGui::SameLine();
    draw_open_file();
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
    // Speed and power at a glance (the Speed & power tab has the rest).
    const SpeedReport& sp = r.speed;
    std::string line;
    if (r.config.mode == Mode::inference) {
        const bool offload = sp.offload.active && sp.offload.decode_tokens_per_s > 0;
        line = "~" + format_rate(offload ? sp.offload.decode_tokens_per_s : sp.decode_tokens_per_s) + " tokens/s per sequence" +
               (offload ? " (layers offloaded to RAM)" : "");
        if (r.config.batch > 1 || r.parallel.dp > 1) line += ", " + format_rate(sp.decode_throughput_tokens_per_s) + " in all";
        line += " - first token in " + format_duration(sp.ttft_s);
    } else {
        line = "~" + format_rate(sp.train_tokens_per_s) + " training tokens/s";
        if (sp.train_time_s > 0) line += ", " + format_duration(sp.train_time_s) + " for " + format_count(r.config.train_tokens) + " tokens";
    }
    line += " - " + format_watts(r.power.system_w) + " system power";
    if (r.power.hardware_price_known) line += " - GPUs $" + format_int(r.power.hardware_usd);
    ImGui::TextUnformatted(line.c_str());
    if (!sp.native) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f), "(%s computed as %s)", std::string(sp.compute_precision_requested).c_str(),
                           std::string(sp.compute_precision).c_str());
    }
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

// ---------------------------------------------------------------------------------------------
// [SECTION] Speed, interconnect and power; recommendations; measured figures; opening files
// ---------------------------------------------------------------------------------------------

namespace {

// A two-column table of named figures, with an optional tooltip per row.
struct FigureTable {
    bool open = false;
    FigureTable(const char* id, const char* title, float width) {
        open = ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(width, 0));
        if (open) {
            ImGui::TableSetupColumn(title, ImGuiTableColumnFlags_WidthStretch, 1.1f);
            ImGui::TableSetupColumn("##value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            ImGui::TableHeadersRow();
        }
    }
    ~FigureTable() {
        if (open) ImGui::EndTable();
    }
    void row(const char* name, const std::string& value, const char* tip = nullptr, bool dim = false) const {
        if (!open) return;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);   // long names and values wrap inside their cells
        if (dim) ImGui::TextDisabled("%s", name);
        else ImGui::TextUnformatted(name);
        if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(value.c_str());
        ImGui::PopTextWrapPos();
    }
};

std::string percent(double f, int decimals = 0) { return format_fixed(f * 100.0, decimals) + "%"; }

}  // namespace

void App::draw_speed() {
    const Report& r = report_;
    const Config& c = r.config;
    const SpeedReport& sp = r.speed;
    const InterconnectReport& ic = r.interconnect;
    const PowerReport& p = r.power;
    const bool training = c.mode != Mode::inference;
    ImGui::BeginChild("speed", ImVec2(0, 0), false);
    const float third = (ImGui::GetContentRegionAvail().x - 24) / 3.0f;

    ImGui::BeginGroup();
    {
        FigureTable t("speed-figures", "Speed (roofline)", third);
        t.row("compute precision", std::string(sp.compute_precision) + (sp.tensor_cores ? ", tensor cores" : ", no tensor cores"),
              "The precision the matrix math runs at on this GPU; a precision it cannot run natively is computed at the next "
              "supported one.");
        if (!sp.native) t.row("  asked for", std::string(sp.compute_precision_requested) + " (not native here)", nullptr, true);
        t.row("peak per GPU", format_fixed(sp.peak_flops / 1e12, 1) + " TFLOPS", "Dense (no 2:4 sparsity) at the compute precision.");
        t.row("MFU used", percent(sp.mfu), "Fraction of the peak that compute-bound work reaches (Setup: Speed, power and cost).");
        if (!training) {
            t.row("bandwidth used", percent(sp.bandwidth_efficiency), "Fraction of the memory bandwidth decoding reaches.");
            t.row("decode, per sequence", format_rate(sp.decode_tokens_per_s) + " tok/s");
            t.row("decode, all sequences", format_rate(sp.decode_throughput_tokens_per_s) + " tok/s",
                  "Every sequence of the batch, every data-parallel replica.");
            t.row("one decode step", format_duration(sp.decode_step_s));
            t.row("read per step", format_gib(sp.decode_bytes_per_step), "Weights (active experts for MoE) and the KV cache.");
            t.row("decode is", sp.decode_compute_bound ? "compute-bound" : "memory-bound");
            t.row("prefill", format_rate(sp.prefill_tokens_per_s) + " tok/s");
            t.row("time to first token", format_duration(sp.ttft_s),
                  "The prefill of the batch's prompts (Setup: Speed, power and cost sets the prompt length).");
            if (sp.offload.active) {
                t.row("offload (llama.cpp)", std::to_string(sp.offload.gpu_layers) + " of " + std::to_string(sp.offload.total_layers) +
                                                 " layers on GPU",
                      "The model does not fit: llama.cpp keeps the other layers in host RAM and runs them on the CPU.");
                t.row("  in host RAM", format_gib(sp.offload.host_bytes), nullptr, true);
                t.row("  decode then", format_rate(sp.offload.decode_tokens_per_s) + " tok/s", nullptr, true);
                if (sp.offload.experts_on_host_decode_tokens_per_s > 0)
                    t.row("  experts in RAM instead", format_rate(sp.offload.experts_on_host_decode_tokens_per_s) + " tok/s",
                          "Every layer on the GPUs, the routed experts in host RAM (llama.cpp --override-tensor exps=CPU).", true);
            }
        } else {
            t.row("FLOPs per token", format_count(sp.train_flops_per_token),
                  "6 x parameters plus attention; 8 x with full recomputation.");
            t.row("training", format_rate(sp.train_tokens_per_s) + " tok/s");
            t.row("one optimizer step", format_duration(sp.train_step_s));
            t.row("effective MFU", percent(sp.effective_mfu, 1), "Pipeline bubble and exposed communication included.");
            if (sp.train_time_s > 0) t.row(("time for " + format_count(c.train_tokens) + " tokens").c_str(), format_duration(sp.train_time_s));
            else t.row("time to train", "set 'Train on'", nullptr, true);
        }
    }
    ImGui::EndGroup();
    ImGui::SameLine(0, 12);

    ImGui::BeginGroup();
    {
        FigureTable t("link-figures", "Interconnect", third);
        const Link* link = ic.link.empty() ? nullptr : catalog_.find_link(ic.link);
        if (c.gpus < 2) {
            t.row("GPUs", "one: nothing to exchange");
        } else {
            t.row("link", link ? link->name : (ic.link.empty() ? std::string("-") : ic.link));
            t.row("per GPU, per direction", format_bandwidth(ic.link_bandwidth_bytes_per_s));
            if (ic.allreduce_busbw_bytes_per_s > 0)
                t.row("all-reduce busbw", format_bandwidth(ic.allreduce_busbw_bytes_per_s),
                      "What nccl-tests would report as busbw for the widest all-reduce group.");
            t.row("GPUs per node", std::to_string(ic.gpus_per_node));
            if (ic.nodes > 1) {
                const Link* inter = catalog_.find_link(ic.inter_node_link);
                t.row("nodes", std::to_string(ic.nodes) + " over " + (inter ? inter->name : ic.inter_node_link));
            }
            if (!training) {
                if (ic.tp_comm_s_per_token > 0) t.row("tensor parallel", format_duration(ic.tp_comm_s_per_token) + " /token",
                                                      "Two all-reduces per layer per decode step.");
                if (ic.pp_comm_s_per_token > 0) t.row("pipeline sends", format_duration(ic.pp_comm_s_per_token) + " /token");
                if (ic.ep_comm_s_per_token > 0) t.row("expert all-to-all", format_duration(ic.ep_comm_s_per_token) + " /token");
                t.row("adds to each token", format_duration(ic.exposed_s_per_token),
                      "Communication that cannot hide behind compute in a decode step.");
            } else {
                if (ic.tp_comm_s_per_step > 0) t.row("tensor parallel", format_duration(ic.tp_comm_s_per_step) + " /step");
                if (ic.pp_comm_s_per_step > 0) t.row("pipeline sends", format_duration(ic.pp_comm_s_per_step) + " /step");
                if (ic.pp_bubble_fraction > 0) t.row("pipeline bubble", percent(ic.pp_bubble_fraction, 1), "1F1B: (p - 1) / (m + p - 1).");
                if (ic.ep_comm_s_per_step > 0) t.row("expert all-to-all", format_duration(ic.ep_comm_s_per_step) + " /step");
                if (ic.dp_allreduce_s_per_step > 0) {
                    t.row("gradient sync", format_duration(ic.dp_allreduce_s_per_step) + " /step",
                          "Ring all-reduce of the gradients (ZeRO: reduce-scatter plus all-gathers).");
                    t.row("  not hidden", format_duration(ic.dp_exposed_s_per_step), "The part the backward pass does not cover.", true);
                }
                t.row("adds to each step", format_duration(ic.exposed_s_per_step));
            }
        }
    }
    // What the other kind of link would change, for this very configuration.
    if (c.gpus > 1 && !alternative_.link.empty()) {
        const Link* alt = catalog_.find_link(alternative_.link);
        const std::string alt_name = alt ? alt->name : alternative_.link;
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + third);
        const double now = training ? r.speed.train_tokens_per_s : r.speed.decode_tokens_per_s;
        const double then = training ? alternative_.train_tokens_per_s : alternative_.decode_tokens_per_s;
        ImGui::TextDisabled("Over %s%s: %s %s tokens/s (now %s), %s of communication per %s.", alt_name.c_str(),
                            alternative_.hypothetical ? " (hypothetical: this GPU has none)" : "", format_rate(then).c_str(),
                            training ? "training" : "decode", format_rate(now).c_str(), format_duration(alternative_.exposed_s).c_str(),
                            training ? "step" : "token");
        ImGui::PopTextWrapPos();
    }
    ImGui::EndGroup();
    ImGui::SameLine(0, 12);

    ImGui::BeginGroup();
    {
        FigureTable t("power-figures", "Power and cost", third);
        t.row("GPUs", format_watts(p.gpu_w), "Board power x GPUs x utilization.");
        t.row("hosts", format_watts(p.host_w), "CPUs, memory, fans, NICs and switches of the nodes.");
        t.row("system", format_watts(p.system_w));
        if (p.pue > 1) t.row(("facility (PUE " + format_fixed(p.pue, 2) + ")").c_str(), format_watts(p.facility_w));
        t.row(ic.nodes > 1 ? "PSU per node" : "PSU", format_watts(p.psu_w), "Power supply capacity, with headroom for transients.");
        t.row("heat", format_int(std::round(p.heat_btu_h)) + " BTU/h");
        if (p.energy_kwh_per_million_tokens > 0) {
            t.row("energy / M tokens", format_fixed(p.energy_kwh_per_million_tokens, 3) + " kWh");
            t.row("electricity / M tokens", "$" + format_fixed(p.cost_usd_per_million_tokens, 3));
            t.row("tokens per joule", format_fixed(p.tokens_per_joule, p.tokens_per_joule < 1 ? 3 : 2));
        }
        if (training && sp.train_time_s > 0) {
            t.row("training run", format_int(std::round(p.energy_kwh)) + " kWh");
            t.row("  electricity", "$" + format_int(std::round(p.cost_usd)), nullptr, true);
        }
        t.row("GPU price", p.hardware_price_known ? "$" + format_int(p.hardware_usd) : std::string("unknown"),
              "Street or list price of the GPUs alone (assets/gpus.json names the source).");
    }
    ImGui::EndGroup();
    ImGui::EndChild();
}

void App::draw_recommend() {
    RecommendInputs& in = s_.recommend;
    ImGui::TextDisabled("Which GPUs, and how many, for this model and workload (%s weights). Click a column to sort.",
                        report_.config.weights.c_str());
    bool edit = false;
    const float w = ImGui::GetFontSize() * 8.0f;
    ImGui::SetNextItemWidth(w);
    float budget = float(in.budget_usd);
    if (ImGui::DragFloat("budget $", &budget, 100.0f, 0.0f, 1e8f, budget > 0 ? "%.0f" : "no limit")) {
        in.budget_usd = std::clamp(double(budget), 0.0, 1e9);
        edit = true;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    float cap = float(in.power_cap_w);
    if (ImGui::DragFloat("power cap W", &cap, 10.0f, 0.0f, 1e7f, cap > 0 ? "%.0f" : "no limit")) {
        in.power_cap_w = std::clamp(double(cap), 0.0, 1e8);
        edit = true;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    float speed = float(in.min_tokens_per_s);
    if (ImGui::DragFloat("min tokens/s", &speed, 1.0f, 0.0f, 1e7f, speed > 0 ? "%.0f" : "any")) {
        in.min_tokens_per_s = std::clamp(double(speed), 0.0, 1e9);
        edit = true;
    }
    const char* segs[4] = {"consumer", "workstation", "datacenter", "Apple"};
    for (int i = 0; i < 4; ++i) {
        if (i) ImGui::SameLine();
        edit |= ImGui::Checkbox(segs[i], &in.segments[i]);
    }
    ImGui::SameLine(0, 18);
    edit |= ImGui::Checkbox("one node", &in.single_node);
    ImGui::SameLine(0, 18);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    if (ImGui::SliderInt("max GPUs", &in.max_gpus, 1, 64)) {
        in.max_gpus = std::clamp(in.max_gpus, 1, 1024);
        edit = true;
    }
    if (edit) recommend_dirty_ = true;
    if (!any_segment(in)) {
        ImGui::TextColored(to_vec4(kNoFitColor), "Tick at least one GPU class.");
        return;
    }
    if (recommend_dirty_) {
        recommend_dirty_ = false;
        recommend_ok_ = false;
        recommend_error_.clear();
        try {
            recommendation_ = recommend(recommend_query(s_), estimate_catalog());
            recommend_ok_ = true;
            sort_recommendations(recommendation_.recommended, recommend_sort_, recommend_ascending_);
        } catch (const Error& e) {
            recommend_error_ = e.what();
        }
    }
    if (!recommend_ok_) {
        ImGui::TextColored(to_vec4(kNoFitColor), "%s", recommend_error_.c_str());
        return;
    }
    const Recommendation& rec = recommendation_;
    const char* speed_head = rec.training ? "train tok/s" : "tok/s";
    const float avail = ImGui::GetContentRegionAvail().y;
    const float table_h = rec.rejected.empty() ? avail - ImGui::GetFontSize() * 1.5f : std::max(avail * 0.62f, ImGui::GetFontSize() * 8);
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
    ImGui::Text("%d configurations fit and meet the constraints", int(rec.recommended.size()));
    if (ImGui::BeginTable("recommend", 7, flags, ImVec2(0, table_h))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        const ImGuiTableColumnFlags num = ImGuiTableColumnFlags_PreferSortAscending;
        ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthStretch, 2.6f, ImGuiID(RecommendColumn::gpu));
        ImGui::TableSetupColumn("count", num, 0.7f, ImGuiID(RecommendColumn::gpus));
        ImGui::TableSetupColumn("per GPU", num, 1.1f, ImGuiID(RecommendColumn::per_gpu));
        ImGui::TableSetupColumn("price", num | ImGuiTableColumnFlags_DefaultSort, 1.0f, ImGuiID(RecommendColumn::price));
        ImGui::TableSetupColumn(speed_head, ImGuiTableColumnFlags_PreferSortDescending, 1.0f, ImGuiID(RecommendColumn::tokens_per_s));
        ImGui::TableSetupColumn("system W", num, 1.0f, ImGuiID(RecommendColumn::power));
        ImGui::TableSetupColumn("link", ImGuiTableColumnFlags_None, 1.1f, ImGuiID(RecommendColumn::link));
        ImGui::TableHeadersRow();
        if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
            if (specs->SpecsDirty && specs->SpecsCount > 0) {
                recommend_sort_ = RecommendColumn(specs->Specs[0].ColumnUserID);
                recommend_ascending_ = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
                sort_recommendations(recommendation_.recommended, recommend_sort_, recommend_ascending_);
                specs->SpecsDirty = false;
            }
        }
        for (std::size_t i = 0; i < rec.recommended.size(); ++i) {
            const RecommendRow& row = rec.recommended[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(int(i));
            char label[160];
            std::snprintf(label, sizeof label, "%s", row.gpu_name.c_str());
            if (ImGui::Selectable(label, row.gpu == s_.config.gpu && row.gpus == s_.config.gpus, ImGuiSelectableFlags_SpanAllColumns)) {
                // Choose it: the estimate, the link and every other view follow.
                s_.config.gpu = row.gpu;
                set_gpu_count(s_, row.gpus, current_arch(s_, catalog_));
                changed();
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("Click to use %d x %s", row.gpus, row.gpu_name.c_str());
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::Text("%d", row.gpus);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(row.per_gpu_total, 1).c_str());
            ImGui::TableNextColumn();
            if (row.price_known) ImGui::Text("$%s", format_int(row.price_usd).c_str());
            else ImGui::TextDisabled("unknown");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_rate(row.tokens_per_s).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_watts(row.system_w).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row.link.empty() ? "-" : row.link.c_str());
        }
        ImGui::EndTable();
    }
    if (!rec.rejected.empty() && ImGui::TreeNode("rejected", "%d other GPUs, and why", int(rec.rejected.size()))) {
        if (ImGui::BeginTable("rejected-table", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY,
                              ImVec2(0, ImGui::GetContentRegionAvail().y))) {
            ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 13.0f);
            ImGui::TableSetupColumn("closest", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 4.0f);
            ImGui::TableSetupColumn("why not", ImGuiTableColumnFlags_WidthStretch);
            ImGui::TableHeadersRow();
            for (const RecommendRow& row : rec.rejected) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(row.gpu_name.c_str());
                ImGui::TableNextColumn();
                ImGui::Text("x %d", row.gpus);
                ImGui::TableNextColumn();
                std::string why;
                for (const std::string& reason : row.reasons) why += (why.empty() ? "" : "; ") + reason;
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextDisabled("%s", why.c_str());
                ImGui::PopTextWrapPos();
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

void App::draw_measured() {
    MeasuredInput& m = s_.measured;
    if (!m.loaded) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos();
        ImGui::TextUnformatted("No benchmark report is open.");
        ImGui::TextDisabled("gpusizer-cuda-bench measures what the calculator otherwise takes from datasheets (memory bandwidth, "
                            "TFLOPS per precision, PCIe and NVLink, the CUDA context) and writes a JSON report. Open it here to "
                            "see measured next to datasheet and to estimate with the measured figures:");
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        ImGui::TextUnformatted("  gpusizer-cuda-bench --quick --out report.json");
        ImGui::Spacing();
        draw_open_file();
        return;
    }
    const MeasuredReport& rep = m.report;
    ImGui::Text("%s", m.file.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%s %s, %s run, %s, status %s", rep.tool.c_str(), rep.tool_version.c_str(), rep.mode.c_str(),
                        rep.created_utc.c_str(), std::string(to_string(rep.status)).c_str());
    if (ImGui::Checkbox("Use the measured figures in the estimates", &m.use)) {
        calibrated_for_.clear();
        changed();
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Close report")) {
        m = MeasuredInput{};
        calibrated_for_.clear();
        changed();
        return;
    }
    ImGui::SameLine();
    draw_open_file();
    if (!rep.status_detail.empty()) ImGui::TextDisabled("%s", rep.status_detail.c_str());
    if (!measured_error_.empty()) {
        ImGui::PushTextWrapPos();
        ImGui::TextColored(to_vec4(kNoFitColor), "%s", measured_error_.c_str());
        ImGui::PopTextWrapPos();
        // Offer the GPU the report did measure.
        for (const MeasuredDevice& d : rep.devices)
            if (!d.catalog_id.empty() && d.catalog_id != s_.config.gpu && catalog_.find_gpu(d.catalog_id)) {
                const std::string label = "Choose " + catalog_.gpu(d.catalog_id).name;
                if (ImGui::Button(label.c_str())) {
                    s_.config.gpu = d.catalog_id;
                    changed();
                }
                break;
            }
    }
    // What the estimate uses: the calibrated figures, measured next to datasheet.
    const Calibration* cal = use_calibrated_ && report_.measured ? report_.measured.get() : nullptr;
    if (cal) {
        ImGui::Spacing();
        ImGui::Text("The estimates use these measured figures of %s (%s):", cal->device_name.c_str(), report_.gpu_name.c_str());
        if (ImGui::BeginTable("calibration", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
            ImGui::TableSetupColumn("figure", ImGuiTableColumnFlags_WidthStretch, 1.6f);
            ImGui::TableSetupColumn("datasheet", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            ImGui::TableSetupColumn("measured", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            ImGui::TableSetupColumn("of datasheet", ImGuiTableColumnFlags_WidthStretch, 0.8f);
            ImGui::TableHeadersRow();
            for (const CalibratedFigure& f : cal->figures) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(measured_figure_label(f.key).c_str());
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s, from %s", f.key.c_str(), f.from.c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(f.datasheet > 0 ? format_measured(f.datasheet, f.unit).c_str() : "-");
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_measured(f.measured, f.unit).c_str());
                ImGui::TableNextColumn();
                if (f.datasheet > 0) ImGui::Text("%d%%", int(std::lround(100.0 * f.measured / f.datasheet)));
                else ImGui::TextDisabled("replaces the constant");
            }
            ImGui::EndTable();
        }
        if (!cal->datasheet_only.empty()) {
            std::string list;
            for (const std::string& k : cal->datasheet_only) list += (list.empty() ? "" : ", ") + measured_figure_label(k);
            ImGui::PushTextWrapPos();
            ImGui::TextDisabled("Datasheet kept (not measured): %s", list.c_str());
            ImGui::PopTextWrapPos();
        }
        for (const std::string& n : cal->notes) ImGui::TextDisabled("note: %s", n.c_str());
    } else if (!m.use) {
        ImGui::TextDisabled("The estimates use datasheet figures.");
    }
    // Every measurement of the report, per device, with the targets.
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::BeginChild("measurements");
    for (std::size_t d = 0; d < rep.devices.size(); ++d) {
        const MeasuredDevice& dev = rep.devices[d];
        ImGui::PushID(int(d));
        char head[256];
        std::snprintf(head, sizeof head, "GPU %d: %s%s%s, %s of %s usable", dev.index, dev.name.c_str(),
                      dev.catalog_id.empty() ? " (not in the catalog)" : " = ", dev.catalog_id.c_str(),
                      format_gib(dev.memory.free_bytes).c_str(), format_gib(dev.memory.total_bytes).c_str());
        if (ImGui::CollapsingHeader(head, d == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
            if (ImGui::BeginTable("m", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
                ImGui::TableSetupColumn("measurement", ImGuiTableColumnFlags_WidthStretch, 2.0f);
                ImGui::TableSetupColumn("median", ImGuiTableColumnFlags_WidthStretch, 1.0f);
                ImGui::TableSetupColumn("best", ImGuiTableColumnFlags_WidthStretch, 1.0f);
                ImGui::TableSetupColumn("datasheet", ImGuiTableColumnFlags_WidthStretch, 1.0f);
                ImGui::TableSetupColumn("best / datasheet", ImGuiTableColumnFlags_WidthStretch, 0.9f);
                ImGui::TableHeadersRow();
                for (const Measurement& x : dev.measurements) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(x.id.c_str());
                    if (!x.convention.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", x.convention.c_str());
                    if (!x.ok()) {
                        ImGui::TableNextColumn();
                        ImGui::TextColored(to_vec4(kNoFitColor), "failed");
                        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", x.error.c_str());
                        continue;
                    }
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(format_measured(x.stats.median, x.unit).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(format_measured(x.stats.best, x.unit).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(x.datasheet > 0 ? format_measured(x.datasheet, x.unit).c_str() : "-");
                    ImGui::TableNextColumn();
                    if (x.fraction_of_datasheet > 0) ImGui::Text("%d%%", int(std::lround(100.0 * x.fraction_of_datasheet)));
                }
                ImGui::EndTable();
            }
            for (const TargetCheck& t : dev.targets)
                ImGui::TextColored(to_vec4(t.met ? kFitsColor : kNoFitColor), "%s %s: %d%% of datasheet (target %d%%)",
                                   t.met ? "met" : "missed", t.name.c_str(), int(std::lround(t.fraction * 100)),
                                   int(std::lround(t.target * 100)));
        }
        ImGui::PopID();
    }
    for (const Measurement& x : rep.collectives)
        if (x.ok()) ImGui::Text("%s: %s (median)", x.id.c_str(), format_measured(x.stats.median, x.unit).c_str());
    for (const std::string& n : rep.notes) ImGui::TextDisabled("note: %s", n.c_str());
    ImGui::EndChild();
}

void App::draw_open_file() {
    ImGui::PushID("open-file");
    if (ImGui::Button("Open file...")) {
        // The browser opens its file picker and calls open_file() later; the desktop asks here.
        if (!platform_.pick_file()) ImGui::OpenPopup("path");
    }
    note_item("open file button");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A gpusizer-cuda-bench report (measured figures) or a configuration JSON.%s",
                          std::string(platform_.name()) == "desktop" ? " You can also drop the file on the window." : "");
    if (ImGui::BeginPopup("path")) {
        ImGui::TextUnformatted("Open a benchmark report or a configuration file:");
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 26.0f);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter = ImGui::InputTextWithHint("##path", "/path/to/report.json", &file_path_, ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if ((ImGui::Button("Open") || enter) && !file_path_.empty()) {
            std::string text, error;
            if (platform_.read_file(file_path_, text, error)) {
                const std::string name = file_path_.substr(file_path_.find_last_of("/\\") + 1);
                if (open_file(name, text)) ImGui::CloseCurrentPopup();
            } else {
                s_.message = error;
                s_.message_is_error = true;
            }
        }
        if (!s_.message.empty() && s_.message_is_error) {
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
            ImGui::TextColored(to_vec4(kNoFitColor), "%s", s_.message.c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::EndPopup();
    }
    ImGui::PopID();
}

}  // namespace gpusizer::ui
