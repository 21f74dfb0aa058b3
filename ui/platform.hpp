// ui/platform.hpp: what the UI needs from the platform it runs on. One implementation per
// target: native/app/main.cpp (desktop, GLFW) and web/main.cpp (browser). The UI calls nothing else
// outside ImGui.
#pragma once

#include <string>

namespace gpusizer::ui {

class Platform {
public:
    virtual ~Platform() = default;
    // Puts text on the system clipboard (the browser's through JavaScript).
    virtual void set_clipboard(const std::string& text) = 0;
    // The current share link changed (the browser mirrors it into the URL fragment).
    virtual void link_changed(const std::string& link) { (void)link; }
    // Asks the user for a file (a benchmark report or a configuration). A platform with a file
    // picker (the browser) opens it, returns true and later hands the text to App::open_file();
    // one without (the desktop, which has no toolkit dialogs) returns false, and the app asks
    // for a path that read_file() reads.
    virtual bool pick_file() { return false; }
    // Reads the file at `path` into `text`; false with `error` set when it cannot (or when the
    // platform has no file system, like the browser).
    virtual bool read_file(const std::string& path, std::string& text, std::string& error) {
        (void)path;
        (void)text;
        error = "this platform opens files through its file picker";
        return false;
    }
    // A short name for messages: "desktop", "browser".
    virtual const char* name() const = 0;
};

}  // namespace gpusizer::ui
