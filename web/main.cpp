// web/main.cpp: the browser app (index.html): the UI of ui/ on Emscripten's GLFW port and
// WebGL2. Set-up and tear-down mirror native/app/main.cpp; what is the browser's own:
// - the canvas fills the window at device pixels (window.devicePixelRatio) and the UI is scaled
//   by that ratio, so text is drawn at the screen's resolution; both follow resizes and zoom;
// - the URL fragment is the share link: read on load, on `hashchange` and `popstate`, written
//   back when the configuration changes (at most five times a second: Chromium ignores bursts
//   of history updates), one history entry per deliberate change (Back, Forward, Ctrl+Z);
// - the clipboard is JavaScript's: "Copy link" and ImGui's copy go to navigator.clipboard, and
//   a paste arrives as the page's `paste` event;
// - "Open file..." opens the browser's file picker, and a file dropped on the page opens too (a
//   gpusizer-cuda-bench report or a configuration JSON);
// - the font is DejaVu Sans compiled into the module (embedded_font.cpp, generated);
// - nothing is drawn while the app is idle: a frame is computed on input, on a change of data
//   and for a moment after (QA D18), and drawn only when its picture differs from the one on the
//   canvas (frame_bytes); window.gpusizerFramesDrawn counts the frames computed,
//   window.gpusizerFramesPainted the frames drawn;
// - the page and its tests see the app's state in `window.gpusizerApp` (link, message, report,
//   control rectangles in CSS pixels) and the message in the page's status line, and the
//   benchmark sees each frame's main-thread time in `window.gpusizerFrameCpuMs`;
// - a finger taps, drags and scrolls through ImGui's mouse and wheel (touch.cpp).
// The page's side of all this is page_bridge.cpp (every function imported from JavaScript), the
// Platform the UI calls is platform_web.cpp; this file keeps the frame loop.
//
// [SECTION] Fonts, scale and canvas size
// [SECTION] Status for the page
// [SECTION] Frame and main
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include "app.hpp"
#include "embedded.hpp"
#include "gpusizer/gpusizer.hpp"
#include "page_bridge.hpp"
#include "platform_web.hpp"
#include "status.hpp"
#include "theme.hpp"
#include "touch.hpp"

namespace gpusizer::web::data {
extern const unsigned char dejavu_sans_ttf[];
extern const std::size_t dejavu_sans_ttf_size;
}  // namespace gpusizer::web::data

namespace {

using gpusizer::web::imgui_get_clipboard;
using gpusizer::web::imgui_set_clipboard;
using gpusizer::web::location_hash;
using gpusizer::web::open_address;
using gpusizer::web::PlatformWeb;
using gpusizer::web::take_pending;

// ---------------------------------------------------------------------------------------------
// [SECTION] Fonts, scale and canvas size
// ---------------------------------------------------------------------------------------------

constexpr float kFontPixels = 15.0f;   // CSS pixels; the desktop's size at scale 1

void load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig cfg;
    cfg.FontDataOwnedByAtlas = false;   // the bytes are the module's static data
    std::snprintf(cfg.Name, sizeof cfg.Name, "DejaVu Sans");
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(gpusizer::web::data::dejavu_sans_ttf),
                                   int(gpusizer::web::data::dejavu_sans_ttf_size), kFontPixels * scale, &cfg);
}

struct Canvas {
    int width = 0, height = 0;   // device pixels
    float ratio = 0;             // devicePixelRatio
};

// The canvas's CSS size times devicePixelRatio: the framebuffer to draw at.
Canvas measure_canvas() {
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size("#canvas", &css_w, &css_h);
    Canvas c;
    c.ratio = float(std::clamp(emscripten_get_device_pixel_ratio(), 0.5, 4.0));
    c.width = std::max(1, int(std::lround(css_w * c.ratio)));
    c.height = std::max(1, int(std::lround(css_h * c.ratio)));
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Status for the page
// ---------------------------------------------------------------------------------------------

// ui::status_json (ui/status.cpp) writes it, the desktop app's --layout file too.

// ---------------------------------------------------------------------------------------------
// [SECTION] Frame and main
// ---------------------------------------------------------------------------------------------

// The theme's colors for the page's contrast test: the text colors, and the backgrounds they
// are drawn on.
void publish_theme() {
    using namespace gpusizer::ui;
    const ImGuiStyle& st = ImGui::GetStyle();
    const Palette& p = palette();
    std::string json = std::string("{\"theme\":\"") + theme_name(current_theme()) + "\"";
    auto add = [&](const char* key, ImVec4 c) {
        char buf[96];
        std::snprintf(buf, sizeof buf, ",\"%s\":[%d,%d,%d,%.3f]", key, int(std::lround(c.x * 255)), int(std::lround(c.y * 255)),
                      int(std::lround(c.z * 255)), double(c.w));
        json += buf;
    };
    add("background", ImVec4(p.background[0], p.background[1], p.background[2], 1.0f));
    add("text", st.Colors[ImGuiCol_Text]);
    add("text_disabled", st.Colors[ImGuiCol_TextDisabled]);
    add("child", st.Colors[ImGuiCol_ChildBg]);
    add("frame", st.Colors[ImGuiCol_FrameBg]);
    add("button", st.Colors[ImGuiCol_Button]);
    add("header", st.Colors[ImGuiCol_Header]);
    add("tab_active", st.Colors[ImGuiCol_TabActive]);
    add("popup", st.Colors[ImGuiCol_PopupBg]);
    add("table_header", st.Colors[ImGuiCol_TableHeaderBg]);
    add("fits", to_vec4(p.fits));
    add("no_fit", to_vec4(p.no_fit));
    add("capacity", to_vec4(p.capacity));
    add("warning", to_vec4(p.warning));
    add("accent", to_vec4(p.accent));
    add("chart_text", to_vec4(p.text));
    add("chart_text_muted", to_vec4(p.text_muted));
    web_publish_theme((json + "}").c_str());
}

// "Save PNG": the rectangle the app asked for, read off the framebuffer just drawn (before the
// browser composites it: the context keeps no drawing buffer), rows turned top-down.
void save_export(gpusizer::ui::App& app, gpusizer::ui::Platform& platform, const gpusizer::ui::App::WindowRect& r, int fb_w, int fb_h) {
    const int x0 = std::clamp(int(std::floor(r.x)), 0, fb_w), y0 = std::clamp(int(std::floor(r.y)), 0, fb_h);
    const int x1 = std::clamp(int(std::ceil(r.x + r.w)), 0, fb_w), y1 = std::clamp(int(std::ceil(r.y + r.h)), 0, fb_h);
    const int w = x1 - x0, h = y1 - y0;
    if (w <= 0 || h <= 0) return app.export_done(false, "nothing to save");
    std::vector<unsigned char> up(std::size_t(w) * std::size_t(h) * 4), down(up.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(x0, fb_h - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, up.data());
    const std::size_t row = std::size_t(w) * 4;
    for (int y = 0; y < h; ++y) std::copy_n(&up[std::size_t(h - 1 - y) * row], row, &down[std::size_t(y) * row]);
    for (std::size_t i = 3; i < down.size(); i += 4) down[i] = 255;   // opaque, whatever the framebuffer's alpha
    std::string where;
    const bool ok = platform.save_png(app.export_file_name(), w, h, down.data(), where);
    app.export_done(ok, where);
}

// The bytes that decide a frame's pixels: the clear color, the display, and each draw list's
// vertices, indices and commands. A frame whose bytes equal the last drawn frame's is not
// drawn again: the canvas keeps showing it, and the browser composites nothing new. While a
// slider is dragged, most frames are such repeats (the mouse moved within one step, or the
// frames ImGui gets to settle after an input), and on a software rasterizer (SwiftShader) the
// drawing, not the UI, is what limits the frame rate.
void frame_bytes(const ImDrawData* d, const float* clear, std::vector<unsigned char>& out) {
    out.clear();
    auto put = [&out](const void* p, std::size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        out.insert(out.end(), b, b + n);
    };
    put(clear, 4 * sizeof(float));
    put(&d->DisplayPos, sizeof d->DisplayPos);
    put(&d->DisplaySize, sizeof d->DisplaySize);
    put(&d->FramebufferScale, sizeof d->FramebufferScale);
    for (int i = 0; i < d->CmdListsCount; ++i) {
        const ImDrawList* list = d->CmdLists[i];
        put(&list->VtxBuffer.Size, sizeof list->VtxBuffer.Size);
        put(list->VtxBuffer.Data, std::size_t(list->VtxBuffer.Size) * sizeof(ImDrawVert));
        put(&list->IdxBuffer.Size, sizeof list->IdxBuffer.Size);
        put(list->IdxBuffer.Data, std::size_t(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            put(&cmd.ClipRect, sizeof cmd.ClipRect);
            put(&cmd.TextureId, sizeof cmd.TextureId);
            put(&cmd.VtxOffset, sizeof cmd.VtxOffset);
            put(&cmd.IdxOffset, sizeof cmd.IdxOffset);
            put(&cmd.ElemCount, sizeof cmd.ElemCount);
            const bool callback = cmd.UserCallback != nullptr;
            put(&callback, sizeof callback);
        }
    }
}

struct WebApp {
    GLFWwindow* window = nullptr;
    PlatformWeb platform;
    gpusizer::ui::App* app = nullptr;
    Canvas canvas;
    bool first_frame_done = false;
    std::string published;     // the last status JSON handed to the page
    unsigned report_revision = ~0u;   // the app's revision whose report report_json holds
    int frames_to_draw = 2;    // frames still to draw after the last input or change (QA D18)
    gpusizer::web::Touch touch;
    bool keyboard = false;     // the hidden input behind the on-screen keyboard is focused
    bool typing = false;       // a text field had the focus at the end of the last frame
    std::string report_json;
    int theme = -1;            // the theme last published to the page (publish_theme)
    std::vector<unsigned char> drawn, next;   // frame_bytes of the frame on the canvas, and of this one
    bool redraw = true;        // the canvas must be drawn whatever the bytes (new size, new font texture)
    bool nav_on = false;       // keyboard navigation's rectangle last published (web_nav_rect)
    ImRect nav;
    double next_blink_ms = 0;   // a focused text field's cursor turns on or off then (QA E18)
};

// Milliseconds until the focused text field's cursor next turns on or off. Dear ImGui 1.86
// (imgui_widgets.cpp, InputTextEx) shows it while CursorAnim <= 0 (just after a key) or
// fmod(CursorAnim, 1.2 s) <= 0.8 s, and adds each frame's DeltaTime to CursorAnim: a frame
// computed at each turn keeps the blink, where one every 16 ms kept the app computing about 60
// frames a second while a field had the focus (QA E18). 10 ms late, to land past the turn.
double ms_to_cursor_blink() {
    const float anim = GImGui->InputTextState.CursorAnim;
    const double phase = anim <= 0.0f ? double(anim) : std::fmod(double(anim), 1.2);
    return 1000.0 * (phase <= 0.8 ? 0.8 - phase : 1.2 - phase) + 10.0;
}

// The canvas took the DOM focus from the keyboard (`in`: Tab or Shift+Tab from the page's other
// controls) or lost it (QA E7). Taken, the focus ring goes on the first control of the first
// window, as ImGui shows it after an arrow key; lost, a text field being edited lets go and the
// ring goes, since the keys now go to the page's other controls.
void keyboard_focus(bool in) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    if (!in) {
        ImGui::ClearActiveID();
        g.NavDisableHighlight = true;
        return;
    }
    ImGuiWindow* first = ImGui::FindWindowByName("Setup");   // the one-column layout has "Results" alone
    if (!first || !first->WasActive) first = ImGui::FindWindowByName("Results");
    if (!first) return;
    ImGui::FocusWindow(first);
    ImGui::NavInitWindow(first, true);
    g.NavDisableHighlight = false;
    g.NavDisableMouseHover = true;
}

// The status JSON (ui::status_json) with rectangles in CSS pixels; the report's JSON is kept
// per App::revision(), not rewritten every frame.
std::string status_json(WebApp& w) {
    const gpusizer::ui::App& app = *w.app;
    if (app.has_report() && w.report_revision != app.revision()) {
        w.report_json = gpusizer::report_to_json(app.report(), 0);
        w.report_revision = app.revision();
    }
    return gpusizer::ui::status_json(app, w.canvas.ratio, &w.report_json);
}

void frame(void* arg) {
    WebApp& w = *static_cast<WebApp*>(arg);
    const double start_ms = emscripten_get_now();

    // Input the page collected since the last frame.
    const std::string fragment = take_pending(0);
    if (!fragment.empty() && fragment != "#") open_address(w.platform, *w.app, fragment);
    const std::string pasted = take_pending(1);
    if (!pasted.empty()) gpusizer::web::clipboard_pasted(pasted);   // ImGui reads it on this frame's Ctrl+V
    const std::string file_name = take_pending(2);
    if (!file_name.empty()) w.app->open_file(file_name, take_pending(3));
    const std::string file_error = take_pending(4);
    if (!file_error.empty()) w.app->notify_error(file_error);
    // The Hub panel could not fetch the model a link named (hub-panel.js): the results say so.
    const std::string hub_repo = take_pending(5);
    if (!hub_repo.empty()) w.app->hub_failed(hub_repo, take_pending(6));
    const std::string tab = take_pending(7);
    if (!tab.empty()) w.app->select_tab(tab);
    const std::string focus = take_pending(8);
    // A model the page read (hub-panel.js): a GGUF header from the reader's disk (QA E6), or a
    // model from the Hub; the app's own core reads it (no second module for the panel).
    const std::string model_name = take_pending(9);
    if (!model_name.empty()) {
        const std::string text = take_pending(10);
        const bool ok = w.app->open_model_text(model_name, text, take_pending(11) == "1");
        web_model_opened(model_name.c_str(), ok ? 1 : 0, w.app->state().message.c_str());
    }

    // Draw only on input, a change of data, or while ImGui settles after one (hover colours,
    // a closing popup), and when a focused field's text cursor turns on or off: an idle app
    // costs one measurement a frame, not a frame (QA D18, E18).
    const Canvas now = measure_canvas();
    const bool input = web_take_activity() != 0 || !fragment.empty() || !pasted.empty() || !file_name.empty() || !file_error.empty() ||
                       !hub_repo.empty() || !tab.empty() || !focus.empty() || !model_name.empty() || now.width != w.canvas.width ||
                       now.height != w.canvas.height || now.ratio != w.canvas.ratio;
    // 20 frames (a third of a second at 60 Hz) cover ImGui's reactions to one event.
    if (input) w.frames_to_draw = std::max(w.frames_to_draw, 20);
    if (w.first_frame_done && w.frames_to_draw <= 0 && (!ImGui::GetIO().WantTextInput || start_ms < w.next_blink_ms)) return;
    --w.frames_to_draw;

    // Follow the window's size and the device pixel ratio.
    if (now.ratio != w.canvas.ratio) {
        gpusizer::ui::apply_style(now.ratio, w.app->theme());
        load_fonts(now.ratio);
        if (w.first_frame_done) {
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
    }
    // The canvas's backing store is sized here, not with glfwSetWindowSize: the GLFW port
    // takes a window the size of the screen for a request to go full screen.
    if (now.width != w.canvas.width || now.height != w.canvas.height) emscripten_set_canvas_element_size("#canvas", now.width, now.height);
    if (now.width != w.canvas.width || now.height != w.canvas.height || now.ratio != w.canvas.ratio) w.redraw = true;
    w.canvas = now;

    // The OS switched between light and dark, and the reader never chose in the app.
    const int os_theme = web_take_theme();
    if (os_theme >= 0) {
        w.app->set_theme(os_theme ? gpusizer::ui::Theme::light : gpusizer::ui::Theme::dark);
        w.frames_to_draw = std::max(w.frames_to_draw, 2);
    }

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (gpusizer::web::apply_touch(w.touch, w.canvas.ratio, start_ms)) w.frames_to_draw = std::max(w.frames_to_draw, 2);
    const int typed_n = web_typed_length();
    if (typed_n > 0) {
        std::string typed(std::size_t(typed_n) + 1, '\0');
        web_take_typed(typed.data(), typed_n + 1);
        ImGui::GetIO().AddInputCharactersUTF8(typed.c_str());
    }
    // ImGui works in the canvas's device pixels (the GLFW port's window keeps its first size);
    // the port reports the mouse in the same pixels.
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(w.canvas.width), float(w.canvas.height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    ImGui::NewFrame();
    if (!focus.empty()) keyboard_focus(focus == "in");
    const double ui_start_ms = emscripten_get_now();
    w.app->frame(w.canvas.ratio);
    const double ui_ms = emscripten_get_now() - ui_start_ms;
    // The on-screen keyboard follows ImGui's text focus once a finger is in use (opened by the
    // tap itself where the browser requires a gesture, see the touchend listener).
    {
        // Where keyboard navigation is (imgui_internal: the nav window's rectangle of the nav item).
        const ImGuiContext& g = *ImGui::GetCurrentContext();
        const bool on = g.NavWindow && g.NavId && !g.NavDisableHighlight;
        ImRect r = on ? ImGui::WindowRectRelToAbs(g.NavWindow, g.NavWindow->NavRectRel[g.NavLayer]) : ImRect();
        const float k = 1.0f / w.canvas.ratio;
        if (on != w.nav_on ||
            (on && (r.Min.x != w.nav.Min.x || r.Min.y != w.nav.Min.y || r.Max.x != w.nav.Max.x || r.Max.y != w.nav.Max.y))) {
            web_nav_rect(on, r.Min.x * k, r.Min.y * k, (r.Max.x - r.Min.x) * k, (r.Max.y - r.Min.y) * k);
            w.nav_on = on;
            w.nav = r;
        }
    }
    // A change ends when no control is held: the next one gets its own history entry.
    if (!ImGui::IsAnyItemActive()) web_change_done();
    if (io.WantTextInput) w.next_blink_ms = emscripten_get_now() + ms_to_cursor_blink();
    if (io.WantTextInput != w.typing) {
        web_typing(io.WantTextInput);
        w.typing = io.WantTextInput;
    }
    const bool want_keyboard = w.touch.used && io.WantTextInput;
    if (want_keyboard != w.keyboard) {
        web_keyboard(want_keyboard);
        w.keyboard = want_keyboard;
    }
    const double draw_start_ms = emscripten_get_now();
    ImGui::Render();
    glViewport(0, 0, w.canvas.width, w.canvas.height);
    const float* bg = gpusizer::ui::palette().background;
    gpusizer::ui::App::WindowRect export_rect;
    const bool exporting = w.app->take_export(export_rect);   // reads this frame's pixels: draw it
    frame_bytes(ImGui::GetDrawData(), bg, w.next);
    if (w.redraw || exporting || w.next != w.drawn) {
        glClearColor(bg[0], bg[1], bg[2], 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        w.drawn.swap(w.next);
        w.redraw = false;
        web_frame_painted();
    }
    if (exporting) save_export(*w.app, w.platform, export_rect, w.canvas.width, w.canvas.height);
    if (w.theme != int(w.app->theme())) {
        w.theme = int(w.app->theme());
        publish_theme();
    }

    const double publish_start_ms = emscripten_get_now();
    std::string status = status_json(w);
    if (status != w.published) {
        w.frames_to_draw = std::max(w.frames_to_draw, 2);   // the data changed: show it
        web_publish(status.c_str());
        w.published = std::move(status);
    }
    if (!w.first_frame_done) {
        w.first_frame_done = true;
        web_first_frame();
    }
    const double end_ms = emscripten_get_now();
    web_frame_time(end_ms - start_ms, ui_ms, publish_start_ms - draw_start_ms, end_ms - publish_start_ms);
}

}  // namespace

int main() {
    static WebApp w;   // lives as long as the page: the main loop outlives main()

    const gpusizer::Catalog* catalog = nullptr;
    try {
        catalog = &gpusizer::web::embedded_catalog();
    } catch (const gpusizer::Error& e) {
        std::fprintf(stderr, "gpusizer: the built-in catalog cannot be read: %s\n", e.what());
        return 1;
    }

    glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "gpusizer: GLFW error %d: %s\n", code, text); });
    if (!glfwInit()) {
        std::fprintf(stderr, "gpusizer: GLFW could not start\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);   // WebGL2
    glfwWindowHint(GLFW_ALPHA_BITS, 0);              // an opaque canvas
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    w.canvas = measure_canvas();
    w.window = glfwCreateWindow(w.canvas.width, w.canvas.height, "gpusizer: GPU memory for LLMs", nullptr, nullptr);
    if (!w.window) {
        std::fprintf(stderr, "gpusizer: no WebGL2 context\n");
        return 1;
    }
    glfwMakeContextCurrent(w.window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;   // the layout is computed, not saved
    // Keyboard users (QA D9): arrows move between controls, Space/Enter activate, Escape leaves.
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    const gpusizer::ui::Theme theme = web_initial_theme() ? gpusizer::ui::Theme::light : gpusizer::ui::Theme::dark;
    gpusizer::ui::apply_style(w.canvas.ratio, theme);
    load_fonts(w.canvas.ratio);
    ImGui_ImplGlfw_InitForOpenGL(w.window, true);
    // The wheel (QA E1): Emscripten 3.1.6's GLFW hands the DOM event's deltaX / deltaY to the
    // scroll callback as they are (library_glfw.js onMouseWheel: pixels, lines or pages by
    // deltaMode, down positive), where GLFW and ImGui take notches, up positive: one notch down
    // jumped a tab to its end, upward. Here they become notches: Chromium reports 100 px a notch
    // (deltaMode 0; the QA's reproduction), Firefox 3 lines (deltaMode 1), a page is one notch.
    // The mode comes from a capturing listener (web_listen) that sees the event first.
    glfwSetScrollCallback(w.window, [](GLFWwindow* window, double dx, double dy) {
        const int mode = EM_ASM_INT({ return Module["gpusizerWheelMode"] | 0; });
        const double per_notch = mode == 0 ? 100.0 : mode == 1 ? 3.0 : 1.0;
        ImGui_ImplGlfw_ScrollCallback(window, -dx / per_notch, -dy / per_notch);
    });
    ImGui_ImplOpenGL3_Init("#version 300 es");
    io.SetClipboardTextFn = imgui_set_clipboard;   // after the GLFW backend set its own
    io.GetClipboardTextFn = imgui_get_clipboard;

    static gpusizer::ui::App app(*catalog, w.platform);
    w.app = &app;
    const std::string hash = location_hash();
    if (!hash.empty() && hash != "#") open_address(w.platform, *w.app, hash);
    web_listen();
    // The choices as lines of tab-separated fields, from the catalog as read (its embedded text is
    // stored by columns, web/slim_catalog.mjs): "id\tname\tsegment" (GPUs), "id\tname\tfamily"
    // (models), "id\tlabel" (weight formats).
    std::string gpus, models, weights;
    const auto line = [](std::string& out, std::string_view a, std::string_view b, std::string_view c) {
        out.append(a).append(1, '\t').append(b).append(1, '\t').append(c).append(1, '\n');
    };
    for (const gpusizer::Gpu& g : catalog->gpus) line(gpus, g.id, g.name, gpusizer::to_string(g.segment));
    for (const gpusizer::CatalogModel& m : catalog->models) line(models, m.arch.id, m.arch.name, m.family);
    for (const gpusizer::WeightFormat& f : gpusizer::weight_formats())
        weights.append(f.id.data(), f.id.size()).append(1, '\t').append(f.label.data(), f.label.size()).append(1, '\n');
    web_publish_choices(gpus.c_str(), models.c_str(), weights.c_str());

    emscripten_set_main_loop_arg(frame, &w, 0, false);   // requestAnimationFrame; main returns
    return 0;
}
