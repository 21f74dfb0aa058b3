// native/app/main.cpp: the desktop app, gpusizer-app. GLFW + OpenGL 3 around the UI in ui/.
// Set-up and tear-down follow Dear ImGui's example_glfw_opengl3.
//
//   gpusizer-app [LINK | CONFIG.json | REPORT.json | MODEL.gguf | MODEL-FOLDER | ENGINE.log ...] [--tab NAME]
//                [--search [--max-ttft-ms MS] [--max-tpot-ms MS]] [--simulate [--highest-rate]]
//                [--screenshot FILE.png [--size WxH] [--frames N] [--layout FILE.json] [--save-png]]
//
// Files open from the command line, from the "Open file..." button (a path) or when dropped on
// the window, by what they are (local_models.hpp classify_model_path): a model (a .gguf file, any
// part of a split one, or an Ollama blob; a .safetensors file or a model folder with config.json)
// is read by its headers only and becomes the configuration's model; a text file is a
// configuration, a gpusizer-cuda-bench report or an engine's startup log.
// With --screenshot it renders a few frames, writes the framebuffer as a PNG (and the window
// rectangles as JSON with --layout) and exits 0: the screenshot test runs it under xvfb-run.
// --save-png presses "Save PNG" on the last frame too (the results, into the working folder).
// --search presses the Plan tab's search button once (with --tab plan), a serving search with the
// latency targets given (the `gpusizer plan` flags of the same names). --simulate shows the Plan
// tab's request simulation instead (with --tab plan); --highest-rate presses its "highest rate"
// button once, the same flags its SLOs.
#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <string>
#include <vector>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb/stb_image_write.h>

#include "app.hpp"
#include "inspect.hpp"
#include "local_models.hpp"
#include "status.hpp"
#include "gpusizer/gpusizer.hpp"
#include "theme.hpp"
#include "view_plan.hpp"

namespace {

const char* const kUsage =
    "usage: gpusizer-app [LINK | CONFIG.json | REPORT.json | MODEL.gguf | MODEL-FOLDER | ENGINE.log ...]\n"
    "                    [--tab memory|speed|cost|plots|compare|recommend|measured|assumptions|local|log|plan]\n"
    "                    [--search [--max-ttft-ms MS] [--max-tpot-ms MS]]   (the Plan tab's search, pressed once)\n"
    "                    [--simulate [--highest-rate [--max-ttft-ms MS] [--max-tpot-ms MS]]]\n"
    "                    (the Plan tab's request simulation; its highest rate within those SLOs, pressed once)\n"
    "                    [--screenshot FILE.png [--size WxH] [--frames N] [--layout FILE.json] [--save-png]]\n";

// Reads a whole file; false with a message naming it when it cannot (or when it is not a
// plain file, or too large to be a configuration or a report).
bool read_text_file(const std::string& path, std::string& text, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open " + path;
        return false;
    }
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    constexpr std::streamoff kMaxBytes = 64 << 20;   // reports are kilobytes; refuse a mistaken video file
    if (size < 0 || size > kMaxBytes) {
        error = path + " is not a readable file of at most 64 MiB";
        return false;
    }
    in.seekg(0, std::ios::beg);
    text.assign(std::size_t(size), '\0');
    if (size > 0 && !in.read(&text[0], size)) {
        error = "cannot read " + path;
        return false;
    }
    return true;
}


class PlatformGlfw : public gpusizer::ui::Platform {
public:
    // `synchronous_scan`: the Local models scan runs on the UI thread (screenshots: the list is
    // complete in the frame that is written).
    PlatformGlfw(GLFWwindow* w, bool synchronous_scan)
        : window_(w), synchronous_(synchronous_scan), scanner_(gpusizer::native::default_local_model_roots()) {}
    void set_clipboard(const std::string& text) override { glfwSetClipboardString(window_, text.c_str()); }
    // The desktop's language as POSIX locales give it (LC_ALL, then LC_MESSAGES, then LANG:
    // "pt_BR.UTF-8"); "C" or none is English.
    std::string preferred_language() const override {
        for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"})
            if (const char* v = std::getenv(name); v && *v) return v;
        return "";
    }
    bool read_file(const std::string& path, std::string& text, std::string& error) override { return read_text_file(path, text, error); }
    // "Save PNG" writes into the working folder.
    bool save_png(const std::string& name, int width, int height, const unsigned char* rgba, std::string& where) override {
        std::error_code ec;
        const std::filesystem::path path = std::filesystem::absolute(name, ec);
        where = ec ? name : path.string();
        if (stbi_write_png(where.c_str(), width, height, 4, rgba, width * 4)) return true;
        where = gpusizer::ui::strf(gpusizer::ui::tr("cannot write %s"), where.c_str());
        return false;
    }
    bool save_text(const std::string& name, const std::string& mime, const std::string& text, std::string& where) override {
        (void)mime;
        std::error_code ec;
        const std::filesystem::path path = std::filesystem::absolute(name, ec);
        where = ec ? name : path.string();
        std::ofstream out(where, std::ios::binary);
        if (out.write(text.data(), std::streamsize(text.size())) && out.flush()) return true;
        where = gpusizer::ui::strf(gpusizer::ui::tr("cannot write %s"), where.c_str());
        return false;
    }
    gpusizer::ui::PathKind classify_path(const std::string& path) override { return gpusizer::native::classify_model_path(path); }
    gpusizer::SourceOpener model_opener() override { return gpusizer::cli::file_opener(); }
    bool has_local_models() const override { return true; }
    void scan_local_models(Scan how) override {
        if (!synchronous_) return scanner_.start(how == Scan::again);
        if (!found_.scanned || how == Scan::again)
            found_ = gpusizer::native::scan_local_models(gpusizer::native::default_local_model_roots());
    }
    gpusizer::ui::LocalModels local_models() override { return synchronous_ ? found_ : scanner_.snapshot(); }
    bool accepts_dropped_files() const override { return true; }
    const char* name() const override { return "desktop"; }
    // A Hub model: the desktop does not reach the Hub (QA E11: the CLI's flags are not the app's).
    gpusizer::Phrasing phrasing() const override {
        gpusizer::Phrasing p = Platform::phrasing();
        p.hub_not_fetched =
            "this app does not reach the Hub: download it, then open the GGUF file or the snapshot folder "
            "(Open file..., or drop it on the window)";
        return p;
    }

private:
    GLFWwindow* window_;
    bool synchronous_;
    gpusizer::native::LocalModelScanner scanner_;
    gpusizer::ui::LocalModels found_;
};

struct Args {
    std::vector<std::string> open;   // links, configuration files, benchmark reports
    std::string screenshot;
    std::string layout;
    int width = 1280, height = 800;
    int frames = 6;
    std::string tab;            // results tab to show: memory, plots, compare, assumptions
    bool save_png = false;      // with --screenshot: "Save PNG" on the last frame as well
    bool search = false;        // the Plan tab's search button, pressed once
    bool simulate = false;      // the Plan tab's request simulation shown
    bool highest_rate = false;  // its "highest rate" button pressed once (the SLOs: max_ttft_ms / max_tpot_ms)
    double max_ttft_ms = 0, max_tpot_ms = 0;   // its serving targets (0: the tab's own)
};

bool parse_args(int argc, char** argv, Args& a) {
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        auto next = [&](const char* flag) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "gpusizer-app: %s needs a value\n%s", flag, kUsage);
                return nullptr;
            }
            return argv[++i];
        };
        if (s == "--help" || s == "-h") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else if (s == "--screenshot") {
            const char* v = next("--screenshot");
            if (!v) return false;
            a.screenshot = v;
        } else if (s == "--save-png") {
            a.save_png = true;
        } else if (s == "--search") {
            a.search = true;
        } else if (s == "--simulate") {
            a.simulate = true;
        } else if (s == "--highest-rate") {
            a.simulate = a.highest_rate = true;
        } else if (s == "--max-ttft-ms" || s == "--max-tpot-ms") {
            const char* v = next(s.c_str());
            double ms = 0;
            if (!v || std::sscanf(v, "%lf", &ms) != 1 || !(ms > 0) || ms > 3.6e6) {
                std::fprintf(stderr, "gpusizer-app: %s must be milliseconds above 0, at most 3,600,000\n", s.c_str());
                return false;
            }
            (s == "--max-ttft-ms" ? a.max_ttft_ms : a.max_tpot_ms) = ms;
        } else if (s == "--tab") {
            const char* v = next("--tab");
            if (!v) return false;
            a.tab = v;
        } else if (s == "--layout") {
            const char* v = next("--layout");
            if (!v) return false;
            a.layout = v;
        } else if (s == "--size") {
            const char* v = next("--size");
            if (!v || std::sscanf(v, "%dx%d", &a.width, &a.height) != 2 || a.width < 320 || a.height < 240 || a.width > 8192 ||
                a.height > 8192) {
                std::fprintf(stderr, "gpusizer-app: --size must be WxH between 320x240 and 8192x8192\n");
                return false;
            }
        } else if (s == "--frames") {
            const char* v = next("--frames");
            if (!v || std::sscanf(v, "%d", &a.frames) != 1 || a.frames < 1 || a.frames > 1000) {
                std::fprintf(stderr, "gpusizer-app: --frames must be 1 to 1000\n");
                return false;
            }
        } else if (!s.empty() && s[0] == '-' && s.rfind("--", 0) == 0) {
            std::fprintf(stderr, "gpusizer-app: unknown flag %s\n%s", s.c_str(), kUsage);
            return false;
        } else {
            a.open.push_back(s);
        }
    }
    return true;
}

// A positional argument: a file or folder when one exists at that path (App::open_path: a model,
// a configuration, a report, a log), else a link.
void open_argument(gpusizer::ui::App& app, const std::string& arg) {
    std::error_code ec;
    if (std::filesystem::exists(arg, ec)) app.open_path(arg);
    else app.open(arg);
}

void load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    // DejaVu Sans from Debian's fonts-dejavu-core; ImGui's built-in font when it is missing.
    const char* candidates[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"};
    for (const char* path : candidates) {
        if (std::FILE* f = std::fopen(path, "rb")) {
            std::fclose(f);
            if (io.Fonts->AddFontFromFileTTF(path, 15.0f * scale)) return;
        }
    }
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    io.Fonts->AddFontDefault(&cfg);
}

// The app's state and the rectangles of its windows and controls (ui::status_json, the same
// JSON the browser page publishes), for the screenshot tests.
bool write_layout(const std::string& path, const gpusizer::ui::App& app) {
    std::ofstream out(path);
    if (!out) return false;
    out << gpusizer::ui::status_json(app, 1.0f) << "\n";
    return bool(out);
}

// "Save PNG": the rectangle the app asked for, read off the back buffer just drawn, rows
// turned top-down (web/main.cpp does the same in the browser).
void save_export(gpusizer::ui::App& app, gpusizer::ui::Platform& platform, const gpusizer::ui::App::WindowRect& r, int fb_w, int fb_h) {
    const int x0 = std::clamp(int(r.x), 0, fb_w), y0 = std::clamp(int(r.y), 0, fb_h);
    const int x1 = std::clamp(int(r.x + r.w + 0.999f), 0, fb_w), y1 = std::clamp(int(r.y + r.h + 0.999f), 0, fb_h);
    const int w = x1 - x0, h = y1 - y0;
    if (w <= 0 || h <= 0) return app.export_done(false, "nothing to save");
    std::vector<unsigned char> pixels(std::size_t(w) * std::size_t(h) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(x0, fb_h - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    const std::size_t row = std::size_t(w) * 4;
    std::vector<unsigned char> top_down(pixels.size());
    for (int y = 0; y < h; ++y) std::copy_n(&pixels[std::size_t(h - 1 - y) * row], row, &top_down[std::size_t(y) * row]);
    for (std::size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;
    std::string where;
    const bool ok = platform.save_png(app.export_file_name(), w, h, top_down.data(), where);
    app.export_done(ok, where);
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    if (!parse_args(argc, argv, args)) return 2;

    gpusizer::Catalog catalog;
    try {
        catalog = gpusizer::load_catalog(gpusizer::find_assets_dir(argv[0]));
    } catch (const gpusizer::Error& e) {
        std::fprintf(stderr, "gpusizer-app: %s\n", e.what());
        return 2;
    }

    glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "gpusizer-app: GLFW error %d: %s\n", code, text); });
    if (!glfwInit()) {
        std::fprintf(stderr,
                     "gpusizer-app: no display (DISPLAY is %s). Run it on a desktop session, or headless with\n"
                     "  xvfb-run -a build/native/gpusizer-app --screenshot out.png\n"
                     "or use the command line: build/native/gpusizer estimate --model llama-3-70b --gpu rtx-4090\n",
                     std::getenv("DISPLAY") ? std::getenv("DISPLAY") : "not set");
        return 2;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    if (!args.screenshot.empty()) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(args.width, args.height, "gpusizer: GPU memory for LLMs", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "gpusizer-app: could not open an OpenGL 3 window\n");
        glfwTerminate();
        return 2;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;   // the layout is computed, not saved
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;   // arrows, Space, Enter, Escape reach every control
    float xscale = 1.0f, yscale = 1.0f;
    glfwGetWindowContentScale(window, &xscale, &yscale);
    float scale = std::max(1.0f, std::max(xscale, yscale));
    // GPUSIZER_SCALE overrides what the display reports (e.g. 1.5 on a 4K screen that says 1).
    if (const char* env = std::getenv("GPUSIZER_SCALE")) {
        const float forced = float(std::atof(env));
        if (forced >= 0.5f && forced <= 4.0f) scale = forced;
    }
    // The theme: dark unless GPUSIZER_THEME=light (the switch in the app changes it for the session).
    gpusizer::ui::Theme theme = gpusizer::ui::Theme::dark;
    if (const char* env = std::getenv("GPUSIZER_THEME")) gpusizer::ui::theme_from_name(env, theme);
    gpusizer::ui::apply_style(scale, theme);
    load_fonts(scale);
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 130");

    PlatformGlfw platform(window, !args.screenshot.empty());
    gpusizer::ui::App app(catalog, platform);
    for (const std::string& arg : args.open) open_argument(app, arg);
    if (!args.tab.empty() && !app.select_tab(args.tab)) {
        std::fprintf(stderr,
                     "gpusizer-app: --tab must be memory, speed, plots, compare, recommend, measured, assumptions, local, log or plan\n");
        return 2;
    }
    if (args.search) gpusizer::ui::request_plan_search(args.max_ttft_ms, args.max_tpot_ms);
    if (args.simulate) gpusizer::ui::show_plan_kind(gpusizer::ui::PlanKind::simulation);
    if (args.highest_rate) gpusizer::ui::request_highest_rate(args.max_ttft_ms, args.max_tpot_ms);
    // Files dropped on the window open like "Open file...".
    glfwSetWindowUserPointer(window, &app);
    glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
        auto* target = static_cast<gpusizer::ui::App*>(glfwGetWindowUserPointer(w));
        for (int i = 0; i < count; ++i) target->open_path(paths[i]);
    });

    int frame = 0;
    int status = 0;
    while (!glfwWindowShouldClose(window)) {
        glfwPollEvents();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        if (!args.screenshot.empty()) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);   // no hover in screenshots
        ImGui::NewFrame();
        if (args.save_png && frame + 1 == args.frames) app.request_export();
        app.frame(scale);
        ImGui::Render();
        int fw = 0, fh = 0;
        glfwGetFramebufferSize(window, &fw, &fh);
        glViewport(0, 0, fw, fh);
        const float* bg = gpusizer::ui::palette().background;
        glClearColor(bg[0], bg[1], bg[2], 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        gpusizer::ui::App::WindowRect shot;
        if (app.take_export(shot)) save_export(app, platform, shot, fw, fh);
        if (!args.screenshot.empty() && ++frame >= args.frames) {
            std::vector<unsigned char> pixels(std::size_t(fw) * std::size_t(fh) * 4);
            glPixelStorei(GL_PACK_ALIGNMENT, 1);
            glReadBuffer(GL_BACK);
            glReadPixels(0, 0, fw, fh, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
            stbi_flip_vertically_on_write(1);
            if (!stbi_write_png(args.screenshot.c_str(), fw, fh, 4, pixels.data(), fw * 4)) {
                std::fprintf(stderr, "gpusizer-app: cannot write %s\n", args.screenshot.c_str());
                status = 1;
            } else if (!args.layout.empty() && !write_layout(args.layout, app)) {
                std::fprintf(stderr, "gpusizer-app: cannot write %s\n", args.layout.c_str());
                status = 1;
            } else {
                std::printf("gpusizer-app: wrote %s (%dx%d)\n", args.screenshot.c_str(), fw, fh);
            }
            break;
        }
        glfwSwapBuffers(window);
    }

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return status;
}
