// json_read.cpp: the one entry point for JSON text in the core, with size and depth limits.
#include "json_read.hpp"

namespace gpusizer::detail {

namespace {

// nlohmann's DOM builder, refusing to descend past max_depth: each object or array is checked
// with its depth before it is built, and the last key read names where the limit was hit.
// parse_json drives it through the parser's SAX interface, which instantiates one parser for it
// alone; json::parse with a callback instantiates the callback builder and the plain one beside it
// (their code and std::function's: 3.3 KB of the widget's gzipped download).
class DepthLimitedBuilder : public nlohmann::detail::json_sax_dom_parser<json> {
public:
    DepthLimitedBuilder(json& result, const std::string& what, int max_depth)
        : json_sax_dom_parser(result), what_(what), max_depth_(max_depth) {}
    bool key(std::string& k) {
        last_key_ = k;
        return json_sax_dom_parser::key(k);
    }
    bool start_object(std::size_t n) {
        descend();
        return json_sax_dom_parser::start_object(n);
    }
    bool start_array(std::size_t n) {
        descend();
        return json_sax_dom_parser::start_array(n);
    }
    bool end_object() {
        --depth_;
        return json_sax_dom_parser::end_object();
    }
    bool end_array() {
        --depth_;
        return json_sax_dom_parser::end_array();
    }

private:
    void descend() {
        if (depth_ >= max_depth_) {
            std::string where = what_;
            if (!last_key_.empty()) where += " (at key '" + last_key_.substr(0, 40) + "')";
            throw_error(where, "nests deeper than " + std::to_string(max_depth_) + " levels", ErrorCode::too_deep);
        }
        ++depth_;
    }
    const std::string& what_;
    const int max_depth_;
    int depth_ = 0;   // objects and arrays open
    std::string last_key_;
};

}  // namespace

json parse_json(std::string_view text, const std::string& what, int max_depth, std::size_t max_bytes) {
    if (text.size() > max_bytes)
        throw_error(what, "is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(max_bytes), ErrorCode::too_large);
    json result;
    DepthLimitedBuilder builder(result, what, max_depth);
    try {
        // json::parse's strict reading (the whole text, no comments), errors thrown: the same
        // parser and messages, through SAX.
        const char* begin = text.data();
        nlohmann::detail::parser<json, nlohmann::detail::iterator_input_adapter<const char*>>(
            nlohmann::detail::input_adapter(begin, begin + text.size()))
            .sax_parse(&builder, true);
    } catch (const json::exception& e) {
        // nlohmann's message carries the byte offset of the error.
        std::string msg = e.what();
        const auto pos = msg.find("parse error");
        throw_error(what, "is not valid JSON (" + (pos == std::string::npos ? msg : msg.substr(pos)) + ")");
    }
    return result;
}

json object(std::initializer_list<JsonField> fields) {
    json j = json::object();
    for (const JsonField& f : fields) j[f.key] = f.value;
    return j;
}

}  // namespace gpusizer::detail
