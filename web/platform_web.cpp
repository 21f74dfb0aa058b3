// platform_web.cpp: the glue beside the browser's Platform (platform_web.hpp).
#include "platform_web.hpp"

#include "page_bridge.hpp"

namespace gpusizer::web {

void open_address(PlatformWeb& platform, ui::App& app, const std::string& fragment) {
    if (!app.open(fragment)) platform.keep_address(gpusizer::ui::link_of(app.state()));
}

namespace {
std::string g_clipboard;
}   // namespace

void imgui_set_clipboard(void*, const char* text) {
    g_clipboard = text;
    web_copy_text(text);
}
const char* imgui_get_clipboard(void*) { return g_clipboard.c_str(); }
void clipboard_pasted(const std::string& text) { g_clipboard = text; }

}   // namespace gpusizer::web
