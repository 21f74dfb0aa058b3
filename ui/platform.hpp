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
    // A short name for messages: "desktop", "browser".
    virtual const char* name() const = 0;
};

}  // namespace gpusizer::ui
