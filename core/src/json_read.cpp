// json_read.cpp: the one entry point for JSON text in the core, with size and depth limits.
#include "json_read.hpp"

namespace gpusizer::detail {

json parse_json(std::string_view text, const std::string& what, int max_depth, std::size_t max_bytes) {
    if (text.size() > max_bytes)
        throw Error(what, "is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(max_bytes),
                    ErrorCode::too_large);
    // The callback sees every value with its depth before the parser descends into it; the
    // deepest path seen so far names where the limit was hit.
    std::string last_key;
    const auto limit = [&](int depth, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::key) last_key = parsed.is_string() ? parsed.get<std::string>() : std::string();
        if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start)) {
            if (depth >= max_depth) {
                std::string where = what;
                if (!last_key.empty()) where += " (at key '" + last_key.substr(0, 40) + "')";
                throw Error(where, "nests deeper than " + std::to_string(max_depth) + " levels", ErrorCode::too_deep);
            }
        }
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), limit);
    } catch (const json::exception& e) {
        // nlohmann's message carries the byte offset of the error.
        std::string msg = e.what();
        const auto pos = msg.find("parse error");
        throw Error(what, "is not valid JSON (" + (pos == std::string::npos ? msg : msg.substr(pos)) + ")");
    }
}

json object(std::initializer_list<JsonField> fields) {
    json j = json::object();
    for (const JsonField& f : fields) j[f.key] = f.value;
    return j;
}

}  // namespace gpusizer::detail
