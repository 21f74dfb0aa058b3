// page_bridge.hpp: what the browser app's module imports from its page (page_bridge.cpp, EM_JS)
// and the readers of what the page hands to the next frame. Used by main.cpp (the frame loop)
// and platform_web.cpp (the Platform the UI calls).
#pragma once

#include <string>

// The page's functions (page_bridge.cpp says what each does).
extern "C" {
void web_listen();
void web_model_opened(const char* name, int ok, const char* message);
int web_typed_length();
void web_take_typed(char* buf, int size);
void web_keyboard(int on);
void web_publish_choices(const char* gpus, const char* models, const char* weights);
int web_take_activity();
int web_pending_length(int kind);
void web_pending_take(int kind, char* buf, int size);
void web_pick_file();
int web_page_address_length();
void web_page_address(char* buf, int size);
int web_location_hash_length();
void web_location_hash(char* buf, int size);
void web_set_fragment(const char* text);
void web_change_done();
void web_typing(int on);
void web_copy_text(const char* utf8);
void web_publish(const char* json);
void web_frame_time(double ms, double ui_ms, double draw_ms, double publish_ms);
void web_nav_rect(int on, double x, double y, double w, double h);
void web_frame_painted();
void web_first_frame();
int web_initial_theme();
int web_take_theme();
void web_theme_changed(const char* name);
void web_preferred_language(char* buf, int size);
void web_language_changed(const char* code);
void web_publish_theme(const char* json);
void web_save_png(const char* name, int width, int height, const unsigned char* rgba);
void web_save_text(const char* name, const char* mime, const char* text, int length);
}

namespace gpusizer::web {

// The events the page hands over, by kind (web_listen's list): "" when there is none.
std::string take_pending(int kind);
// The address bar's fragment, "#..." or "".
std::string location_hash();

}   // namespace gpusizer::web
