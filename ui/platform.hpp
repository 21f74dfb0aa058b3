// ui/platform.hpp: what the UI needs from the platform it runs on. One implementation per
// target: native/app/platform_glfw.cpp (desktop), web/ (browser). The UI calls nothing else
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
    // The user switched the color theme ("dark", "light"): the browser remembers it.
    virtual void theme_changed(const char* theme) { (void)theme; }
    // Saves a PNG picture of `width` x `height` RGBA pixels (rows from the top) under `name`
    // (the browser downloads it, the desktop writes it to the working folder). Returns false with
    // `where` set to why when it cannot; else true with `where` set to where it went.
    virtual bool save_png(const std::string& name, int width, int height, const unsigned char* rgba, std::string& where) {
        (void)name;
        (void)width;
        (void)height;
        (void)rgba;
        where = "this platform cannot save pictures";
        return false;
    }
    // A short name for messages: "desktop", "browser".
    virtual const char* name() const = 0;
};

}  // namespace gpusizer::ui
