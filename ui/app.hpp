// ui/app.hpp: the calculator's views, written once for the desktop and the browser.
//
// The platform creates an App, calls frame() between ImGui::NewFrame() and ImGui::Render(), and
// implements ui::Platform. The App owns its state, recomputes only when an input changed, and
// draws from the last report.
#pragma once

#include <string>
#include <vector>

#include "charts.hpp"
#include "gpusizer/gpusizer.hpp"
#include "platform.hpp"
#include "state.hpp"
#include "theme.hpp"

namespace gpusizer::ui {

class App {
public:
    // The core's messages take the platform's phrasing (Platform::phrasing) while the App lives.
    App(const Catalog& catalog, Platform& platform, UiState state = default_state());
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Opens a share link or a configuration JSON text (the command-line argument, the URL
    // fragment). Returns false (and shows the message) when it cannot be read.
    bool open(const std::string& link_or_json);

    // Opens a file the platform read (the browser's file picker, a file dropped on the desktop
    // window, a path typed in the app): a gpusizer-cuda-bench report or a configuration JSON.
    bool open_file(const std::string& name, const std::string& text);
    // Opens a path on the platform's file system (the desktop's command line, a drop, "Open
    // file..."): a model (a .gguf file, a .safetensors file, a model folder) becomes the
    // configuration's model, headers only; any other file opens as open_file() does.
    bool open_path(const std::string& path);
    // Makes a model file the configuration's model: key "gguf" or "hf_dir" (the Local models list).
    bool open_model(const std::string& key, const std::string& path);
    // Makes a model the page read the configuration's model (state.hpp's open_model_text): a GGUF
    // header from the reader's disk, or a Hub model; named `name` in the message.
    bool open_model_text(const std::string& name, const std::string& text, bool keep_weights);
    // Shows a message in the link bar: news, or an error (a platform's own: a file it could not read).
    void notify(const std::string& message) { show_message(message, false); }
    void notify_error(const std::string& message) { show_message(message, true); }
    // The platform could not fetch the Hub model `repo` a link named (Platform::fetches_hub): the
    // results say so in place of "Loading ...".
    void hub_failed(const std::string& repo, const std::string& message);
    // The Hub model the results wait for (a link's hf=org/name being fetched); "" when none.
    const std::string& hub_waiting() const { return hub_waiting_; }

    // Draws one frame. `scale` is the display's content scale (fonts are loaded at that scale).
    void frame(float scale = 1.0f);

    // Brings a results tab to the front on the next frame: "memory", "speed", "plots",
    // "compare", "recommend", "measured", "assumptions", "local" (Local models, where the
    // platform has them), "log" (Engine log). Returns false for an unknown name.
    bool select_tab(const std::string& name);
    // The results tab shown: select_tab()'s name.
    const char* tab_name() const;
    // The Memory tab's "What fits" for the report shown, once that tab has computed it (it does
    // when drawn after a change); null before, or when it cannot be computed.
    const FitReport* what_fits() const { return fit_ok_ && !fit_dirty_ ? &fit_ : nullptr; }

    // Rectangles of the last frame, in ImGui's display coordinates, for tests that look at or
    // drive the app: the windows ("Setup", "Results") and the controls that tests move
    // ("context slider", "batch slider", "gpus slider", "copy link button", "open file button"),
    // the text fields ("link field", "text field": the browser opens its on-screen keyboard for
    // a tap on one) and, in the one-column layout, the setup sections ("model section", ...),
    // and the Memory tab chart's texts ("chart label <text>").
    struct WindowRect {
        std::string name;
        float x = 0, y = 0, w = 0, h = 0;
    };
    const std::vector<WindowRect>& layout() const { return layout_; }
    const UiState& state() const { return s_; }
    bool has_report() const { return ok_; }
    const Report& report() const { return report_; }
    // The share link of the configuration that report() answers (both change on the frame
    // after an input changes).
    const std::string& link() const { return link_; }
    // The color theme: not part of the configuration nor of its link. The platform starts the
    // app with its own choice (the browser: the one saved, else the OS's preference); the
    // switch in the link bar changes it and tells the platform (Platform::theme_changed).
    void set_theme(Theme theme);
    // The language switch (and a link's lang=): the app's texts, the page's and the link follow.
    void choose_language(Language lang);
    void draw_language_button();   // "Português" / "English"
    Theme theme() const { return theme_; }

    // "Save PNG": after rendering the frame in which it was asked for, the platform reads the
    // results' rectangle (display pixels, from the top left) off the framebuffer, saves it as
    // export_file_name() (Platform::save_png) and reports with export_done().
    bool take_export(WindowRect& rect);
    void request_export() { export_asked_ = true; }   // what the button does (the desktop's --save-png too)
    std::string export_file_name(const char* extension = ".png") const;
    // "Report": the current report copied, or saved (Platform::save_text), as text, CSV or JSON.
    void export_report(ReportFormat format, bool download);
    void export_done(bool ok, const std::string& where_or_error);

    // Counts the recomputations: a report with the same link can still change (a benchmark
    // report opened or closed), so a platform caching the report's JSON keys it on this.
    unsigned revision() const { return revision_; }

private:
    void show_message(const std::string& message, bool is_error) {
        s_.message = message;
        s_.message_is_error = is_error;
    }
    struct CompareResult {
        bool ok = false;
        Report report;
        std::string error;
    };

    void recompute();
    // What some views show, computed on the first frame one of them is drawn after a change.
    void ensure_fit();
    void ensure_ctx_series();
    void ensure_batch_series();
    void ensure_compare();
    void note_item(const char* name);   // records the last item's rectangle in layout_
    void changed() { dirty_ = true; }
    // The search field atop a picker's list, focused when the list opens ("text field" in layout_).
    bool search_field(const char* hint, std::string& filter);   // true when Enter was pressed in it
    // An int slider leaving `field_em` font sizes for a field to type the value in ("##<id>" and
    // "##<id>v"; `slider_name` and "text field" in layout_). True when either changed `value`;
    // `slid` (when given) says whether the slider did.
    bool slider_with_field(const char* id, int& value, int lo, int hi, const char* format, ImGuiSliderFlags flags, float field_em,
                           const char* slider_name, bool* slid = nullptr);

    void draw_setup();
    void draw_model();
    void draw_workload();
    void draw_hardware();
    void draw_custom_gpu();   // view_custom_gpu.cpp
    void draw_results();
    void draw_tabs();
    // Two tables or figures side by side need 620 CSS px; below that they stack.
    bool stacked_tables() const;
    void draw_headline();
    void draw_breakdown();
    void draw_inverse();
    void draw_plots();
    void draw_compare();
    void draw_assumptions();
    void draw_speed_inputs();
    void draw_speed();
    void draw_serving(float width);
    void draw_launch();   // view_launch.cpp
    void draw_recommend();
    void ensure_recommendation();   // recommendation_ for the current inputs (view_recommend.cpp)
    void draw_cost();               // view_cost.cpp
    void draw_pinned();             // view_pinned.cpp: the pinned configuration beside the current one
    std::vector<PinnedRow> pinned_rows_;   // the Pinned tab's rows, for the link pinned_link_
    std::string pinned_link_;
    std::string pinned_error_;
    void draw_measured();
    void draw_open_file();
    void draw_local_models();   // view_local_models.cpp
    void draw_engine_log();     // view_engine_log.cpp
    void reconcile_log();
    // The opened report's calibrated GPU, for estimate(), fit() and recommend(); null for none.
    const GpuOverlay* measured() const { return measured_.gpus.empty() ? nullptr : &measured_; }
    void draw_link_bar();

    const Catalog& catalog_;
    Platform& platform_;
    bool language_told_ = false;   // the platform has heard the language (its page follows it)
    Phrasing phrasing_before_;   // the core's phrasing before this App set its platform's
    UiState s_;
    float scale_ = 1.0f;
    bool narrow_ = false;   // one column (screen_layout)
    // Phones: where the verdict's line ends on screen (display px, this frame); once it has
    // scrolled above the window, a bar pins the verdict at the top (draw_pinned_verdict).
    float headline_bottom_ = 0;
    void draw_pinned_verdict(const ImVec2& at, float width);
    void bottom_room();   // the end of a scrolled column: room to scroll clear of the platform's bottom overlay
    bool dirty_ = true;
    unsigned revision_ = 0;

    bool ok_ = false;
    Report report_;
    std::vector<std::pair<Runtime, std::string>> launch_;   // report_'s launch commands (launch_commands)
    Runtime launch_engine_ = Runtime::automatic;   // the engine "Run it" shows (automatic: the runtime's)
    std::string error_;
    std::string hub_waiting_;                          // the Hub model a link named, not fetched yet
    std::pair<std::string, std::string> hub_failure_;  // repo and why its fetch failed
    bool fit_ok_ = false;
    FitReport fit_;
    std::vector<Assumption> assumptions_;
    std::vector<double> ctx_x_, batch_x_;
    std::vector<Series> ctx_series_, batch_series_;
    std::vector<CompareResult> compare_;
    bool fit_dirty_ = true, ctx_dirty_ = true, batch_dirty_ = true, compare_dirty_ = true;
    // Recommendations: computed when their tab is open and an input changed.
    bool recommend_dirty_ = true;
    bool recommend_ok_ = false;
    Recommendation recommendation_;
    std::string recommend_error_;
    RecommendColumn recommend_sort_ = RecommendColumn::price;
    bool recommend_ascending_ = true;
    GpuOverlay measured_;                   // the opened benchmark report's calibrated GPU (see measured())
    std::string measured_error_;            // why the report cannot calibrate the chosen GPU
    std::string file_path_;                 // the desktop's "open a file" field
    std::string link_;
    std::string model_filter_, gpu_filter_, base_filter_;
    int select_tab_ = -1;                   // asked for by select_tab(), taken by the next frame
    int tab_ = 0;                           // the results tab shown (kTabNames' index)
    Theme theme_ = current_theme();
    bool export_asked_ = false;             // "Save PNG" pressed this frame
    float export_top_ = 0;                  // the results' top, below the link bar (display px)
    // Local models (view_local_models.cpp) and the engine log (view_engine_log.cpp).
    std::string local_filter_;
    struct LogRow {
        std::string name, meaning;
        double log = 0, estimate = 0;
        bool count = false;   // a token count, not bytes
    };
    std::string log_text_, log_name_;
    bool log_dirty_ = false;
    bool log_use_model_ = false;              // reconcile with the Setup panel's model
    std::vector<std::string> log_facts_;      // what the log says, one line each
    std::vector<LogRow> log_rows_;            // the log beside the estimate, component by component
    std::vector<std::string> log_notes_;
    std::string log_error_, log_estimate_error_, log_model_, log_config_;
    std::vector<WindowRect> layout_;
};

}  // namespace gpusizer::ui
