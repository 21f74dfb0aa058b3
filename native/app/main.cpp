// native/app/main.cpp: the desktop app, gpusizer-app. GLFW + OpenGL 3 around the UI in ui/.
// Set-up and tear-down follow Dear ImGui's example_glfw_opengl3.
//
//   gpusizer-app [LINK | CONFIG.json] [--screenshot FILE.png [--size WxH] [--frames N] [--layout FILE.json]]
//
// With --screenshot it renders a few frames, writes the framebuffer as a PNG (and the window
// rectangles as JSON with --layout) and exits 0: the screenshot test runs it under xvfb-run.
#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb/stb_image_write.h>

#include "app.hpp"
#include "gpusizer/gpusizer.hpp"
#include "theme.hpp"

namespace {

const char* const kUsage =
    "usage: gpusizer-app [LINK | CONFIG.json] [--tab memory|plots|compare|assumptions]\n"
    "                    [--screenshot FILE.png [--size WxH] [--frames N] [--layout FILE.json]]\n";

class PlatformGlfw : public gpusizer::ui::Platform {
public:
    explicit PlatformGlfw(GLFWwindow* w) : window_(w) {}
    void set_clipboard(const std::string& text) override { glfwSetClipboardString(window_, text.c_str()); }
    const char* name() const override { return "desktop"; }

private:
    GLFWwindow* window_;
};

struct Args {
    std::string open;           // link or config file
    std::string screenshot;
    std::string layout;
    int width = 1280, height = 800;
    int frames = 6;
    std::string tab;            // results tab to show: memory, plots, compare, assumptions
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
            a.open = s;
        }
    }
    return true;
}

// A positional argument: a configuration file when one exists at that path, else a link.
std::string read_argument(const std::string& arg) {
    std::ifstream in(arg, std::ios::binary);
    if (!in) return arg;
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
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

bool write_layout(const std::string& path, const gpusizer::ui::App& app) {
    std::ofstream out(path);
    if (!out) return false;
    out << "{\"windows\": [";
    bool first = true;
    for (const auto& w : app.layout()) {
        out << (first ? "" : ", ") << "{\"name\": \"" << w.name << "\", \"x\": " << w.x << ", \"y\": " << w.y << ", \"w\": " << w.w
            << ", \"h\": " << w.h << "}";
        first = false;
    }
    out << "], \"has_report\": " << (app.has_report() ? "true" : "false");
    out << ", \"message_is_error\": " << (app.state().message_is_error ? "true" : "false");
    if (app.has_report()) out << ", \"fits\": " << (app.report().fits ? "true" : "false");
    out << "}\n";
    return bool(out);
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
    float xscale = 1.0f, yscale = 1.0f;
    glfwGetWindowContentScale(window, &xscale, &yscale);
    float scale = std::max(1.0f, std::max(xscale, yscale));
    // GPUSIZER_SCALE overrides what the display reports (e.g. 1.5 on a 4K screen that says 1).
    if (const char* env = std::getenv("GPUSIZER_SCALE")) {
        const float forced = float(std::atof(env));
        if (forced >= 0.5f && forced <= 4.0f) scale = forced;
    }
    gpusizer::ui::apply_style(scale);
    load_fonts(scale);
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 130");

    PlatformGlfw platform(window);
    gpusizer::ui::App app(catalog, platform);
    if (!args.open.empty()) app.open(read_argument(args.open));
    if (!args.tab.empty() && !app.select_tab(args.tab)) {
        std::fprintf(stderr, "gpusizer-app: --tab must be memory, plots, compare or assumptions\n");
        return 2;
    }

    int frame = 0;
    int status = 0;
    while (!glfwWindowShouldClose(window)) {
        glfwPollEvents();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        if (!args.screenshot.empty()) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);   // no hover in screenshots
        ImGui::NewFrame();
        app.frame(scale);
        ImGui::Render();
        int fw = 0, fh = 0;
        glfwGetFramebufferSize(window, &fw, &fh);
        glViewport(0, 0, fw, fh);
        glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
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
