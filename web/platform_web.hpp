// platform_web.hpp: the browser's ui::Platform (clipboard, share address, files, downloads,
// theme and language through the page) and the glue main.cpp's frame loop calls around it.
#pragma once

#include <string>

#include "app.hpp"
#include "i18n.hpp"
#include "page_bridge.hpp"

namespace gpusizer::web {

class PlatformWeb : public ui::Platform {
public:
    void set_clipboard(const std::string& text) override { web_copy_text(text.c_str()); }
    bool fetches_hub() const override { return true; }   // hub-panel.js fetches a link's hf=org/name
    // The browser's Hub advice: the page fetches what the CLI cannot (QA E11).
    gpusizer::Phrasing phrasing() const override {
        gpusizer::Phrasing p = Platform::phrasing();
        p.hub_not_fetched =
            "the \"From the Hub\" panel fetches its config.json, or a GGUF file's header, and says why when "
            "it cannot";
        // A link's gguf= names a file on the disk of whoever made it (QA E6).
        p.file_not_read = "a link cannot carry a file from someone's disk: drop the file on the page, or pick it with Open file...";
        return p;
    }
    // #hub-toggle (web/site/app.css): 44 px tall, 12 px above the bottom, and 12 px more.
    float bottom_overlay_css() const override { return 44.0f + 2 * 12.0f; }
    std::string share_url(const std::string& fragment) override {
        const int n = web_page_address_length();
        std::string s(std::size_t(n) + 1, '\0');
        web_page_address(s.data(), n + 1);
        s.resize(std::size_t(n));
        return s + fragment;
    }
    // A link that could not be opened stays in the address bar (with the message on screen), so
    // that it can be reloaded or corrected there, until the view shows another configuration
    // than the one shown when it failed (QA D8).
    void link_changed(const std::string& link) override {
        if (keep_address_ && link == shown_when_kept_) return;
        keep_address_ = false;
        web_set_fragment(link.c_str());
    }
    void keep_address(const std::string& shown_link) {
        keep_address_ = true;
        shown_when_kept_ = shown_link;
    }
    bool pick_file() override {
        web_pick_file();
        return true;
    }
    void theme_changed(const char* theme) override { web_theme_changed(theme); }
    std::string preferred_language() const override {
        char buf[40] = {};
        web_preferred_language(buf, int(sizeof buf));
        return buf;
    }
    void language_changed(const char* code) override { web_language_changed(code); }
    bool save_png(const std::string& name, int width, int height, const unsigned char* rgba, std::string& where) override {
        web_save_png(name.c_str(), width, height, rgba);
        where = gpusizer::ui::strf(gpusizer::ui::tr("%s (downloaded)"), name.c_str());
        return true;
    }
    bool save_text(const std::string& name, const std::string& mime, const std::string& text, std::string& where) override {
        web_save_text(name.c_str(), mime.c_str(), text.data(), int(text.size()));
        where = gpusizer::ui::strf(gpusizer::ui::tr("%s (downloaded)"), name.c_str());
        return true;
    }
    bool accepts_dropped_files() const override { return true; }
    const char* name() const override { return "browser"; }

private:
    bool keep_address_ = false;
    std::string shown_when_kept_;
};

// Opens a link from the address bar (on load, or a hashchange); see PlatformWeb::link_changed.
void open_address(PlatformWeb& platform, ui::App& app, const std::string& fragment);

// What ImGui's own copy and paste (Ctrl+C / Ctrl+V in a text field) use; a paste arrives as the
// page's `paste` event, whose text clipboard_pasted() keeps for ImGui's next read.
void imgui_set_clipboard(void*, const char* text);
const char* imgui_get_clipboard(void*);
void clipboard_pasted(const std::string& text);

}   // namespace gpusizer::web
