// ui/app.cpp: the App and its frame: opening links and files, recomputing when an input
// changed, the layout (setup panel, results tabs, link bar). Each view is its own file:
//   view_setup.cpp        model, workload, hardware, speed/power/cost inputs
//   view_memory.cpp       headline verdict, breakdown, inverse questions
//   view_speed.cpp        speed, interconnect, power and cost
//   view_plots.cpp        view_compare.cpp   view_recommend.cpp
//   view_measured.cpp     view_assumptions.cpp
//   view_local_models.cpp (opening model files, the desktop's Local models)
//   view_engine_log.cpp   (an engine's startup log beside the estimate)
//   view_plan.cpp         the training layout search (runs on its button)
// Shared widgets are in widgets.cpp.
//
// [SECTION] Recomputing (only when an input changed)
// [SECTION] Layout: the setup panel on the left, the results on the right
#include "app.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "gpusizer/format.hpp"
#include "theme.hpp"
#include "view_plan.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

App::App(const Catalog& catalog, Platform& platform, UiState state) : catalog_(catalog), platform_(platform), s_(std::move(state)) {}

bool App::open(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && text[first] == '{';
    const bool ok = json ? open_config_text(s_, text, catalog_, platform_.model_opener()) : open_link(s_, text, catalog_, platform_.model_opener());
    changed();
    return ok;
}

bool App::open_file(const std::string& name, const std::string& text) {
    // An engine's startup log (not JSON, with lines read_engine_log knows) goes to its tab.
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] != '{' && !read_engine_log(text).engine.empty()) {
        log_text_ = text;
        log_name_ = name;
        log_dirty_ = true;
        select_tab("log");
        notify("Opened the engine log " + name + ".", false);
        return true;
    }
    const bool ok = open_file_text(s_, name, text, catalog_, platform_.model_opener());
    if (ok && s_.measured.loaded && looks_like_measured_report(text)) select_tab("measured");
    calibrated_for_.clear();   // a new report (or the same file again) rebuilds the calibration
    changed();
    return ok;
}

namespace {
// The results tabs, in the order they are drawn; select_tab() takes these names.
const char* const kTabNames[] = {"memory", "speed", "plots", "compare", "recommend", "measured", "assumptions", "local", "log", "plan"};
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
        // With the other-link comparison, as `gpusizer estimate` reports it (one call, no patching).
        report_ = estimate(s_.config, cat, EstimateOptions{true});
        ok_ = true;
        assumptions_ = assumptions(report_);
    } catch (const Error& e) {
        error_ = e.what();
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
    const ScreenLayout screen = screen_layout(vp->WorkSize.x / scale);
    narrow_ = screen.one_column;
    const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (screen.one_column) {
        // Phones: one scrolling column, results first (the verdict and its numbers), then the
        // setup in collapsed sections, then the results' tabs.
        ImGui::SetNextWindowPos(vp->WorkPos);
        ImGui::SetNextWindowSize(vp->WorkSize);
        if (ImGui::Begin("Results", nullptr, fixed)) {
            draw_link_bar();
            ImGui::Separator();
            if (ok_) draw_headline();
            ImGui::PushID("setup");
            // Each section's header is in layout() as "<name> section" (tests tap it).
            auto section = [&](const char* name, const char* layout_name, void (App::*draw)()) {
                const bool open = ImGui::CollapsingHeader(name);
                note_item(layout_name);
                if (open) (this->*draw)();
            };
            section("Model", "model section", &App::draw_model);
            section("Workload", "workload section", &App::draw_workload);
            section("Hardware", "hardware section", &App::draw_hardware);
            section("Speed, power and cost", "speed section", &App::draw_speed_inputs);
            ImGui::PopID();
            ImGui::Spacing();
            draw_tabs();
        }
        layout_.push_back({"Results", ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y});
        ImGui::End();
        return;
    }
    const float setup_w = vp->WorkSize.x * screen.setup_fraction;
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
// [SECTION] Results: the link bar and the tabs (each tab's view is in its own file)
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
    draw_tabs();
}

bool App::stacked_tables() const { return narrow_ || ImGui::GetContentRegionAvail().x < 620.0f * scale_; }

void App::draw_tabs() {
    if (!ok_) return;
    auto tab_flags = [&](int i) { return select_tab_ == i ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None; };
    // Tabs keep their whole names and scroll when they do not fit (QA D3, D14: "Memo...").
    if (ImGui::BeginTabBar("tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
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
        if (platform_.has_local_models() && ImGui::BeginTabItem("Local models", nullptr, tab_flags(7))) {
            draw_local_models();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Engine log", nullptr, tab_flags(8))) {
            draw_engine_log();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Plan", nullptr, tab_flags(9))) {
            draw_plan_tab(s_.config, estimate_catalog());
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
    bool enter = false;
    // One line on wide screens; on phones the buttons first and the field the whole width.
    if (!narrow_) {
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 11.5f);
        enter = ImGui::InputTextWithHint("##link", "paste a link (#v=1&m=...) or a configuration JSON", &s_.link_text,
                                         ImGuiInputTextFlags_EnterReturnsTrue);
        note_item("link field");
        ImGui::SameLine();
    }
    if ((ImGui::Button("Open link") || enter) && !s_.link_text.empty()) {
        if (open(s_.link_text)) s_.link_text.clear();
    }
    ImGui::SameLine();
    draw_open_file();
    if (narrow_) {
        ImGui::SetNextItemWidth(-1);
        if (ImGui::InputTextWithHint("##link", "paste a link or a configuration JSON", &s_.link_text, ImGuiInputTextFlags_EnterReturnsTrue) &&
            !s_.link_text.empty() && open(s_.link_text))
            s_.link_text.clear();
        note_item("link field");
    }
    if (!s_.message.empty()) {
        ImGui::PushTextWrapPos();
        if (s_.message_is_error) ImGui::TextColored(to_vec4(kNoFitColor), "%s", s_.message.c_str());
        else ImGui::TextDisabled("%s", s_.message.c_str());
        ImGui::PopTextWrapPos();
    }
}


}  // namespace gpusizer::ui
