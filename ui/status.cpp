// ui/status.cpp: see status.hpp.
#include "status.hpp"

#include <cstdio>

namespace gpusizer::ui {

void append_json_string(std::string& out, const std::string& s) {
    out += '"';
    for (const char ch : s) {
        const unsigned char u = static_cast<unsigned char>(ch);
        switch (ch) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (u < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", u);
                    out += buf;
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
}

std::string status_json(const App& app, float pixels_per_unit, const std::string* report_json) {
    const bool report = app.has_report();
    std::string out = "{\"link\":";
    append_json_string(out, app.link());
    out += ",\"message\":";
    append_json_string(out, app.state().message);
    out += app.state().message_is_error ? ",\"message_is_error\":true" : ",\"message_is_error\":false";
    out += report ? ",\"has_report\":true" : ",\"has_report\":false";
    if (report) out += app.report().fits ? ",\"fits\":true" : ",\"fits\":false";
    out += app.state().measured.loaded ? ",\"measured_open\":true" : ",\"measured_open\":false";
    out += report && app.report().measured ? ",\"calibrated\":true" : ",\"calibrated\":false";
    out += ",\"report\":";
    out += !report ? std::string("null") : report_json ? *report_json : report_to_json(app.report(), 0);
    char buf[160];
    std::snprintf(buf, sizeof buf, ",\"scale\":%g", double(pixels_per_unit));
    out += buf;
    std::string rects = "[";
    const double k = pixels_per_unit > 0 ? 1.0 / double(pixels_per_unit) : 1.0;
    bool first = true;
    for (const auto& r : app.layout()) {
        rects += first ? "{\"name\":" : ",{\"name\":";
        append_json_string(rects, r.name);
        std::snprintf(buf, sizeof buf, ",\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f}", r.x * k, r.y * k, r.w * k, r.h * k);
        rects += buf;
        first = false;
    }
    rects += "]";
    out += ",\"layout\":" + rects + ",\"windows\":" + rects + "}";
    return out;
}

}  // namespace gpusizer::ui
