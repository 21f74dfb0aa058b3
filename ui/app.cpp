// ui/app.cpp: the App and its frame: opening links and files, recomputing when an input
// changed, the layout (setup panel, results tabs, link bar). Each view is its own file:
//   view_setup.cpp        model, workload, hardware, speed/power/cost inputs
//   view_memory.cpp       headline verdict, breakdown, inverse questions
//   view_speed.cpp        speed, interconnect, power at the wall
//   view_cost.cpp         cost: electricity, owning, renting, across GPUs
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
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

#include <imgui.h>
#include <imgui_internal.h>   // ImGui::TabItemCalcSize: a tab's width as the tab bar lays it out
#include <imgui_stdlib.h>

#include "gpusizer/format.hpp"
#include "theme.hpp"
#include "view_plan.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

App::App(const Catalog& catalog, Platform& platform, UiState state) : catalog_(catalog), platform_(platform), s_(std::move(state)) {
    phrasing_before_ = phrasing();
    set_phrasing(platform_.phrasing());
    // The reader's language (the browser's, the desktop's locale) unless the state names one.
    if (!s_.language_chosen)
        if (const std::optional<Language> lang = language_from_tag(platform_.preferred_language())) s_.language = *lang;
    // Now, not at the first frame: the message of a link opened before it ("Opened the link.") is
    // in the reader's language too.
    set_language(s_.language);
}

App::~App() { set_phrasing(phrasing_before_); }

bool App::open(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && text[first] == '{';
    const bool ok =
        json ? open_config_text(s_, text, catalog_, platform_.model_opener())
             : open_link(s_, text, catalog_, platform_.model_opener(), platform_.fetches_hub());
    changed();
    return ok;
}

void App::hub_failed(const std::string& repo, const std::string& message) {
    hub_failure_ = {repo, message};
    if (hub_waiting_ == repo) error_ = message;
    show_message(strf(tr("Could not load %s from the Hub: %s"), repo.c_str(), message.c_str()), true);
}

bool App::open_file(const std::string& name, const std::string& text) {
    // An engine's startup log (not JSON, with lines read_engine_log knows) goes to its tab.
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] != '{' && !read_engine_log(text).engine.empty()) {
        log_text_ = text;
        log_name_ = name;
        log_dirty_ = true;
        select_tab("log");
        notify(strf(tr("Opened the engine log %s."), name.c_str()));
        return true;
    }
    const bool ok = open_file_text(s_, name, text, catalog_, platform_.model_opener());
    if (ok && s_.measured.loaded && looks_like_measured_report(text)) select_tab("measured");
    changed();
    return ok;
}

void App::draw_language_button() {
    // The other language, named in its own words ("Português" reads as a way out to one who does
    // not read English; issue 28). A choice goes into the link.
    if (ImGui::Button(s_.language == Language::en ? "Português" : "English"))
        choose_language(s_.language == Language::en ? Language::pt_br : Language::en);
    note_item("language button");
}

void App::choose_language(Language lang) {
    s_.language = lang;
    s_.language_chosen = true;
    changed();
}

void App::set_theme(Theme theme) {
    theme_ = theme;
    apply_theme(theme);
}

bool App::take_export(WindowRect& rect) {
    if (!export_asked_) return false;
    export_asked_ = false;
    for (const WindowRect& w : layout_)
        if (w.name == "Results") {
            rect = w;
            const float top = std::clamp(export_top_, w.y, w.y + w.h);
            rect.h = w.y + w.h - top;
            rect.y = top;
            rect.name = "export";
            return rect.w >= 1 && rect.h >= 1;
        }
    return false;
}

std::string App::export_file_name(const char* extension) const {
    // gpusizer-<model>-<gpu>.png, from ids (letters, digits, '-', '.', '_': safe as a file name).
    std::string name = "gpusizer";
    const std::string model = s_.config.model.custom ? std::string("custom") : s_.config.model.id;
    for (const std::string& part : {model, s_.config.gpu}) {
        if (part.empty()) continue;
        name += '-';
        for (const char ch : part) name += std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' ? ch : '-';
    }
    return name + extension;
}

void App::export_report(ReportFormat format, bool download) {
    if (!ok_) return;
    const ReportExport e = report_export(report_, format);
    if (!download) {
        platform_.set_clipboard(e.text);
        const long lines = long(std::count(e.text.begin(), e.text.end(), '\n'));
        show_message(strf(tr("Report copied as %s (%s lines)"), tr(e.label), format_int(double(lines)).c_str()), false);
        return;
    }
    std::string where;
    const bool saved = platform_.save_text(export_file_name(e.extension), e.mime, e.text, where);
    show_message(strf(saved ? tr("Saved the report as %s") : tr("Could not save the report: %s"), where.c_str()), !saved);
}

void App::export_done(bool ok, const std::string& where_or_error) {
    s_.message = strf(ok ? tr("Saved the results as %s") : tr("Could not save the picture: %s"), where_or_error.c_str());
    s_.message_is_error = !ok;
}

namespace {
// The results tabs, in the order they are drawn; select_tab() takes these names.
const char* const kTabNames[] = {"memory", "speed", "plots", "compare", "recommend", "measured", "assumptions", "local", "log", "plan", "cost",
                                 "pinned"};
constexpr int kTabCount = int(sizeof kTabNames / sizeof kTabNames[0]);
}  // namespace

const char* App::tab_name() const { return kTabNames[tab_]; }

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
    if (s_.language != language() || !language_told_) {
        set_language(s_.language);
        platform_.language_changed(language_code(s_.language));
        language_told_ = true;
    }
    ok_ = false;
    fit_ok_ = false;
    error_.clear();
    launch_.clear();
    recommend_dirty_ = true;

    // An opened benchmark report replaces the chosen GPU's datasheet figures with its measured
    // ones, when it measured that GPU (a report of another GPU says which one to choose).
    measured_ = GpuOverlay{};
    measured_error_.clear();
    try {
        measured_ = measured_overlay_of(s_, catalog_);
    } catch (const Error& e) {
        measured_error_ = e.what();
    }
    const GpuOverlay* const overlay = measured();

    try {
        // With the other-link comparison, as `gpusizer estimate` reports it (one call, no patching).
        report_ = estimate(s_.config, catalog_, EstimateOptions{true, overlay});
        ok_ = true;
        assumptions_ = assumptions(report_);
        launch_ = launch_commands(report_);
    } catch (const Error& e) {
        error_ = e.what();
        // A Hub model the platform is fetching: said as such, not as the CLI's refusal.
        hub_waiting_ = e.key() == "model.hub" && platform_.fetches_hub() ? s_.config.model.hub : std::string();
        if (!hub_waiting_.empty() && hub_failure_.first == hub_waiting_) error_ = hub_failure_.second;
    }
    if (ok_) hub_waiting_.clear();
    // What only some views show is computed when one of them is drawn (ensure_*), once per
    // change: a slider drag on the Memory tab recomputes the report, the fit and the context
    // series, not the batch series nor the compare columns.
    fit_dirty_ = ctx_dirty_ = batch_dirty_ = compare_dirty_ = true;
    fit_ok_ = false;
    ctx_x_.clear();
    batch_x_.clear();
    ctx_series_.clear();
    batch_series_.clear();
    compare_.clear();
}

void App::ensure_fit() {
    if (!fit_dirty_) return;
    fit_dirty_ = false;
    fit_ok_ = false;
    if (!ok_) return;
    try {
        fit_ = fit(s_.config, catalog_, measured());
        fit_ok_ = true;
    } catch (const Error&) {
        fit_ok_ = false;
    }
}

namespace {
// One memory-against-x series set: total, weights, KV cache, activations per GPU (NaN where the
// configuration cannot run), for the configurations `vary` makes from `base` at each x.
template <class Vary>
void memory_series(const Config& base, const Catalog& cat, const GpuOverlay* overlay, const std::vector<double>& xs, Vary vary,
                   std::vector<Series>& series) {
    constexpr MemoryPart kParts[] = {MemoryPart::weights, MemoryPart::kv_cache, MemoryPart::activations};
    series = {{"total", {}, kForegroundSeries}};
    for (const MemoryPart p : kParts) series.push_back({memory_part(p).label, {}, part_color(p)});
    Config c = base;   // `vary` sets the same fields at every x
    for (const double x : xs) {
        vary(c, x);
        try {
            const Report r = estimate(c, cat, EstimateOptions{false, overlay});
            series[0].y.push_back(r.per_gpu.total());
            int i = 1;
            for (const MemoryPart p : kParts) series[i++].y.push_back(part(r.per_gpu, p));
        } catch (const Error&) {
            for (Series& s : series) s.y.push_back(kNaN);
        }
    }
}
}  // namespace

// Memory against context (log scale, 512 to 1M tokens).
void App::ensure_ctx_series() {
    if (!ctx_dirty_) return;
    ctx_dirty_ = false;
    ctx_x_.clear();
    if (!ok_) return;
    for (double e = 9; e <= 20.0001; e += 0.5) ctx_x_.push_back(double(std::llround(std::pow(2.0, e))));
    memory_series(s_.config, catalog_, measured(), ctx_x_, [](Config& c, double x) { c.context = (long long)x; }, ctx_series_);
}

// Memory against batch (1 to 256).
void App::ensure_batch_series() {
    if (!batch_dirty_) return;
    batch_dirty_ = false;
    batch_x_.clear();
    if (!ok_) return;
    batch_x_ = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
    memory_series(s_.config, catalog_, measured(), batch_x_, [](Config& c, double x) {
        c.batch = int(x);
        if (c.mode != Mode::inference) c.global_batch = 0;
    }, batch_series_);
}

// The compare view: the same workload on each chosen GPU.
void App::ensure_compare() {
    if (!compare_dirty_) return;
    compare_dirty_ = false;
    compare_.clear();
    for (const CompareColumn& col : s_.compare) {
        CompareResult res;
        Config c = s_.config;
        c.gpu = col.gpu;
        c.gpus = col.gpus;
        c.tp = c.pp = c.dp = 0;   // each choice gets its own automatic split
        try {
            res.report = estimate(c, catalog_, EstimateOptions{false, measured()});
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
        // setup in collapsed sections, then the results' tabs. Every control is a 44 CSS px touch
        // target (Apple's Human Interface Guidelines and Material's 48 dp; WCAG 2.5.5's 44 px):
        // the frame padding grows until a frame is that tall (QA E17: 23 px before).
        const float touch = 44.0f * scale;
        const ImVec2 pad = ImGui::GetStyle().FramePadding;
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(pad.x, std::max(pad.y, (touch - ImGui::GetFontSize()) * 0.5f)));
        ImGui::SetNextWindowPos(vp->WorkPos);
        ImGui::SetNextWindowSize(vp->WorkSize);
        if (ImGui::Begin("Results", nullptr, fixed)) {
            draw_link_bar();
            ImGui::Separator();
            export_top_ = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y * 0.5f;
            if (ok_) {
                // The verdict's line: the first of the headline, in its 1.45x font (drawn with the
                // usual padding: its text lines up with frames that have it).
                ImGui::PopStyleVar();
                headline_bottom_ = ImGui::GetCursorScreenPos().y + ImGui::GetStyle().ItemSpacing.y + ImGui::GetFontSize() * 1.45f;
                draw_headline();
                ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(pad.x, std::max(pad.y, (touch - ImGui::GetFontSize()) * 0.5f)));
            }
            ImGui::PushID("setup");
            // Each section's header is in layout() as "<name> section" (tests tap it).
            auto section = [&](const char* name, const char* layout_name, void (App::*draw)()) {
                const bool open = ImGui::CollapsingHeader(tr_label(name));
                note_item(layout_name);
                if (open) (this->*draw)();
            };
            section(tr_later("Model"), "model section", &App::draw_model);
            section(tr_later("Workload"), "workload section", &App::draw_workload);
            section(tr_later("Hardware"), "hardware section", &App::draw_hardware);
            section(tr_later("Speed, power and cost"), "speed section", &App::draw_speed_inputs);
            ImGui::PopID();
            ImGui::Spacing();
            draw_tabs();
            bottom_room();
        }
        layout_.push_back(
            {"Results", ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y});
        const float scrollbar = ImGui::GetScrollMaxY() > 0 ? ImGui::GetStyle().ScrollbarSize : 0.0f;
        ImGui::End();
        ImGui::PopStyleVar();
        // The verdict stays in sight while the controls below it scroll (QA: a phone's verdict
        // scrolled away with the first control moved).
        if (ok_ && headline_bottom_ < vp->WorkPos.y) draw_pinned_verdict(vp->WorkPos, vp->WorkSize.x - scrollbar);
        return;
    }
    const float setup_w = vp->WorkSize.x * screen.setup_fraction;
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(ImVec2(setup_w, vp->WorkSize.y));
    if (ImGui::Begin("Setup", nullptr, fixed)) {
        draw_setup();
        bottom_room();
    }
    layout_.push_back({"Setup", ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y});
    ImGui::End();
    // A control of the setup panel changed an input: the results drawn next show it in this
    // same frame (one frame sooner, and one frame fewer to draw while a slider is dragged).
    if (dirty_) recompute();

    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + setup_w, vp->WorkPos.y));
    ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x - setup_w, vp->WorkSize.y));
    if (ImGui::Begin("Results", nullptr, fixed)) {
        draw_results();
        bottom_room();
    }
    layout_.push_back({"Results", ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y});
    ImGui::End();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Results: the link bar and the tabs (each tab's view is in its own file)
// ---------------------------------------------------------------------------------------------

void App::draw_results() {
    draw_link_bar();
    ImGui::Separator();
    export_top_ = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y * 0.5f;
    if (!ok_ && !hub_waiting_.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos();
        if (hub_failure_.first == hub_waiting_) {
            ImGui::TextColored(to_vec4(no_fit_color()), tr("Could not load %s from the Hub:"), hub_waiting_.c_str());
            ImGui::TextUnformatted(hub_failure_.second.c_str());
            ImGui::TextDisabled("%s", tr("Try again from \"From the Hub\", paste its config.json, or open the model file."));
        } else {
            ImGui::Text(tr("Loading %s from the Hugging Face Hub..."), hub_waiting_.c_str());
            ImGui::TextDisabled("%s", tr("The figures appear when its config.json or file header arrives (the \"From the Hub\" panel shows the progress); the link's other settings are kept."));
        }
        ImGui::PopTextWrapPos();
        note_item("hub waiting message");
        return;
    }
    if (!ok_) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos();
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", tr("Cannot estimate this configuration:"));
        ImGui::TextUnformatted(error_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TextDisabled("%s", tr("Change the setting it names, or open another link."));
        return;
    }
    draw_headline();
    draw_tabs();
}

void App::bottom_room() {
    const float room = platform_.bottom_overlay_css() * scale_;
    if (room > 0) ImGui::Dummy(ImVec2(1.0f, room));
}

void App::draw_pinned_verdict(const ImVec2& at, float width) {
    const Report& r = report_;
    ImGui::SetNextWindowPos(at);
    ImGui::SetNextWindowSize(ImVec2(width, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.97f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("pinned verdict", nullptr, flags)) {
        ImGui::TextColored(to_vec4(r.fits ? fits_color() : no_fit_color()), "%s", r.fits ? tr("Fits") : tr("Does not fit"));
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled(tr("%s of %s per GPU - %s on %d x %s"), format_gib(r.per_gpu.total()).c_str(), format_gib(r.gpu_usable).c_str(),
                            r.model_name.c_str(), r.config.gpus, r.gpu_name.c_str());
        ImGui::PopTextWrapPos();
        layout_.push_back({"pinned verdict", ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x,
                           ImGui::GetWindowSize().y});
    }
    ImGui::End();
}

bool App::stacked_tables() const { return narrow_ || ImGui::GetContentRegionAvail().x < 620.0f * scale_; }

void App::draw_tabs() {
    if (!ok_) return;
    // The tabs, whole names kept (QA D3, D14: "Memo..."). Where one row does not hold them they
    // wrap into more rows rather than scroll: a scrolling bar hid the last tabs (Plan) past a
    // phone's edge, behind arrows a screen reader could not name. Each row is a tab bar of
    // TabItemButton()s, the shown tab in the selected tab's colors; its view is drawn below
    // the last row. layout() names every tab "<label> tab".
    struct Tab {
        int index;            // in kTabNames
        const char* label;    // as drawn
        const char* name;     // in layout()
    };
    const Tab all[] = {{0, tr_later("Memory"), "memory tab"},
                       {1, tr_later("Speed & power"), "speed & power tab"},
                       {10, tr_later("Cost"), "cost tab"},
                       {2, tr_later("Plots"), "plots tab"},
                       {3, tr_later("Compare GPUs"), "compare gpus tab"},
                       {4, tr_later("Recommend"), "recommend tab"},
                       // (Without a report the tab says so itself: "(none)" in its label took the room
                       // one row of tabs needs at 1280 px once Cost joined them.)
                       {5, tr_later("Measured"), "measured tab"},
                       {6, tr_later("Assumptions"), "assumptions tab"},
                       {7, tr_later("Local models"), "local models tab"},
                       {8, tr_later("Engine log"), "engine log tab"},
                       {9, tr_later("Plan"), "plan tab"},
                       {11, tr_later("Pinned"), "pinned tab"}};
    std::vector<const Tab*> shown;
    for (const Tab& t : all)
        if (t.index != 7 || platform_.has_local_models()) shown.push_back(&t);
    auto is_shown = [&](int index) { return std::any_of(shown.begin(), shown.end(), [&](const Tab* t) { return t->index == index; }); };
    if (select_tab_ >= 0 && is_shown(select_tab_)) tab_ = select_tab_;
    select_tab_ = -1;
    if (!is_shown(tab_)) tab_ = 0;

    // Rows as wide as the tab bar (BeginTabBar spans the cursor to the window's right edge),
    // each tab as wide as ImGui lays it out; a pixel spare against rounding.
    std::vector<float> widths;
    for (const Tab* t : shown) widths.push_back(ImGui::TabItemCalcSize(tr_label(t->label), false).x);
    const std::vector<int> rows = wrap_rows(widths, ImGui::GetStyle().ItemInnerSpacing.x, ImGui::GetContentRegionAvail().x - 1.0f);
    const ImVec4* colors = ImGui::GetStyle().Colors;
    const int shown_before = tab_;
    ImGui::PushID("tabs");
    for (size_t r = 0; r < rows.size(); ++r) {
        const int end = r + 1 < rows.size() ? rows[r + 1] : int(shown.size());
        ImGui::PushID(int(r));
        // ResizeDown acts only on a label wider than the window (shrunk, whole in its tooltip):
        // no row ever scrolls.
        if (ImGui::BeginTabBar("row", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
            for (int i = rows[r]; i < end; ++i) {
                const Tab& t = *shown[size_t(i)];
                const bool current = t.index == shown_before;
                if (current) {
                    ImGui::PushStyleColor(ImGuiCol_Tab, colors[ImGuiCol_TabActive]);
                    ImGui::PushStyleColor(ImGuiCol_TabUnfocused, colors[ImGuiCol_TabUnfocusedActive]);
                }
                if (ImGui::TabItemButton(tr_label(t.label))) tab_ = t.index;
                if (current) ImGui::PopStyleColor(2);
                note_item(t.name);
            }
            ImGui::EndTabBar();
        }
        ImGui::PopID();
    }
    ImGui::PopID();

    ImGui::PushID("tab view");
    ImGui::PushID(tab_);
    switch (tab_) {
        case 0: {
            ensure_fit();
            ensure_ctx_series();
            draw_breakdown();
            draw_inverse();
            // The context chart in the room left below, when there is room for one.
            const float room = ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 1.6f;
            if (room > ImGui::GetFontSize() * 9.0f) {
                ImGui::TextDisabled(tr("Memory per GPU against context (batch %d)"), report_.config.batch);
                std::vector<ChartLabel> labels;
                memory_chart("ctx-memory", ctx_x_, ctx_series_, report_.gpu_usable, AxisScale::log2, tr("context (tokens)"), ImVec2(0, room),
                             double(report_.config.context), &labels);
                for (const ChartLabel& l : labels)
                    layout_.push_back({"chart label " + l.text, l.min.x, l.min.y, l.max.x - l.min.x, l.max.y - l.min.y});
            }
            break;
        }
        case 1: draw_speed(); break;
        case 2:
            ensure_ctx_series();
            ensure_batch_series();
            draw_plots();
            break;
        case 3:
            ensure_compare();
            draw_compare();
            break;
        case 4: draw_recommend(); break;
        case 5: draw_measured(); break;
        case 6: draw_assumptions(); break;
        case 7: draw_local_models(); break;
        case 8: draw_engine_log(); break;
        case 9: draw_plan_tab(s_.config, link_, catalog_, measured(), [this](const char* name) { note_item(name); }); break;
        case 10: draw_cost(); break;
        case 11: draw_pinned(); break;
        default: break;
    }
    ImGui::PopID();
    ImGui::PopID();
}

void App::draw_link_bar() {
    const char* theme_label = theme_ == Theme::dark ? tr("Light theme") : tr("Dark theme");
    const char* other_language = s_.language == Language::en ? "Português" : "English";
    const ImGuiStyle& st = ImGui::GetStyle();
    auto button_w = [&](const char* label) { return ImGui::CalcTextSize(label).x + st.FramePadding.x * 2 + st.ItemSpacing.x; };
    // A button that would pass the right edge starts a new line (phones).
    auto same_line_if_room = [&](const char* label) {
        ImGui::SameLine();
        // (SameLine has put the spacing before it already.)
        if (ImGui::GetContentRegionAvail().x < button_w(label) - st.ItemSpacing.x) ImGui::NewLine();
    };
    auto copy_link = [&] {
        if (ImGui::Button(tr_label("Copy link"))) {
            const std::string url = platform_.share_url(link_);
            platform_.set_clipboard(url);
            s_.message = strf(tr("Link copied: %s"), url.c_str());
            s_.message_is_error = false;
        }
        note_item("copy link button");
    };
    auto link_field = [&](float width, const char* hint) {
        ImGui::SetNextItemWidth(width);
        const bool enter = ImGui::InputTextWithHint("##link", hint, &s_.link_text, ImGuiInputTextFlags_EnterReturnsTrue);
        note_item("link field");
        ImGui::SameLine();
        if ((ImGui::Button(tr_label("Open link")) || enter) && !s_.link_text.empty() && open(s_.link_text)) s_.link_text.clear();
    };
    // Open file..., Save PNG and the theme switch, each on the line while it has room.
    auto file_buttons = [&] {
        same_line_if_room(tr("Open file..."));
        draw_open_file();
        same_line_if_room(tr("Save PNG"));
        // A picture of the results below this bar (the verdict, the tab shown: the breakdown and
        // the chart on Memory), taken after this frame is drawn.
        if (ImGui::Button(tr_label("Save PNG")) && ok_) request_export();
        note_item("save png button");
        // The report's numbers, to paste or keep: as text, CSV or JSON (QA: copyable numbers).
        same_line_if_room(tr("Report"));
        if (ImGui::Button(tr_label("Report")) && ok_) ImGui::OpenPopup("report menu");
        note_item("report button");
        if (ImGui::BeginPopup("report menu")) {
            static constexpr struct { ReportFormat format; const char* copy; const char* save; const char* copy_id; const char* save_id; }
                kItems[] = {{ReportFormat::text, tr_later("Copy as text"), tr_later("Download as text (.txt)"), "report copy text", "report save text"},
                            {ReportFormat::csv, tr_later("Copy as CSV"), tr_later("Download as CSV (.csv)"), "report copy csv", "report save csv"},
                            {ReportFormat::json, tr_later("Copy as JSON"), tr_later("Download as JSON (.json)"), "report copy json", "report save json"}};
            for (const auto& item : kItems) {
                if (pick_selectable(tr_label(item.copy))) export_report(item.format, false);
                note_item(item.copy_id);
            }
            ImGui::Separator();
            for (const auto& item : kItems) {
                if (pick_selectable(tr_label(item.save))) export_report(item.format, true);
                note_item(item.save_id);
            }
            ImGui::EndPopup();
        }
        same_line_if_room(theme_label);
        if (ImGui::Button(theme_label)) {
            set_theme(theme_ == Theme::dark ? Theme::light : Theme::dark);
            platform_.theme_changed(theme_name(theme_));
        }
        note_item("theme button");
        // Phones: the language switch ends the bar (the setup panel's title line has it beside
        // the results; in the bar it moved the one-line bar's threshold at 1280 px).
        if (narrow_) {
            same_line_if_room(other_language);
            draw_language_button();
        }
    };
    // One line when the field keeps a whole hint (the long one, else the short) beside the buttons. Else (phones, and
    // desktop windows near 820 px, where the hint was cut to "paste a link (" and the theme
    // button ran off the window: QA D14) two: the field with its Open link button the whole
    // width, then Copy link and the file buttons (the theme button alone on a third line before).
    const char* hint = tr("paste a link (#v=1&m=...) or a configuration JSON");
    const char* short_hint = tr("paste a link or a configuration JSON");
    const float buttons =
        button_w(tr("Open link")) + button_w(tr("Open file...")) + button_w(tr("Save PNG")) + button_w(tr("Report")) + button_w(theme_label);
    const float field = ImGui::GetContentRegionAvail().x - button_w(tr("Copy link")) - buttons;
    auto fits = [&](const char* h) { return !narrow_ && field >= ImGui::CalcTextSize(h).x + st.FramePadding.x * 2; };
    if (fits(hint) || fits(short_hint)) {
        // One line; the shorter hint where the longer would be cut (the light theme's "Dark theme"
        // button is wider than "Light theme").
        copy_link();
        ImGui::SameLine();
        link_field(field, fits(hint) ? hint : short_hint);
        file_buttons();
    } else {
        link_field(ImGui::GetContentRegionAvail().x - button_w(tr("Open link")), narrow_ ? short_hint : hint);
        copy_link();
        file_buttons();
    }
    if (!s_.message.empty()) {
        ImGui::PushTextWrapPos();
        if (s_.message_is_error) ImGui::TextColored(to_vec4(no_fit_color()), "%s", s_.message.c_str());
        else ImGui::TextDisabled("%s", s_.message.c_str());
        ImGui::PopTextWrapPos();
    }
}


}  // namespace gpusizer::ui
