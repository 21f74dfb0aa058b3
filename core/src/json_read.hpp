// json_read.hpp (internal): the checked JSON reading helpers shared by the core's readers
// (catalog_io.cpp, config_io.cpp, measured_io.cpp): every error names the file / key and what is
// allowed; and dump_text(), the one way the core turns a JSON value into text.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/error.hpp"

namespace gpusizer::detail {

using nlohmann::json;

// The limits every JSON text read by the core is held to, before any value is built: a 16 KB
// share link of "[[[[..." must get an Error, not a stack overflow in a recursive destructor or
// dump(). 64 levels is four times the deepest file the project reads (a measured report, ~6);
// 16 MiB is some 300 times assets/models.json.
constexpr int kMaxJsonDepth = 64;
constexpr std::size_t kMaxJsonBytes = std::size_t(16) << 20;

// The one entry point for JSON text in the core (json_read.cpp). `what` names the input in
// errors ("config", "gpus.json", "model.hf_config"). Throws Error with code unreadable (not
// JSON), too_large or too_deep; the depth is checked as the parser descends (json_read.cpp), so
// nothing deeper than the limit is ever built.
json parse_json(std::string_view text, const std::string& what, int max_depth = kMaxJsonDepth,
                std::size_t max_bytes = kMaxJsonBytes);

// A JSON value as text, for output and for quoting a bad value in an error: strings that are not
// valid UTF-8 come out with U+FFFD in place of the bad bytes instead of throwing (nlohmann's
// default). `Json` is json or ordered_json.
template <typename Json>
std::string dump_text(const Json& v, int indent = -1) {
    return v.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// Writing an object: object({{"key", value}, ...}) builds the same json as json{{"key", value},
// ...} (keys sorted either way), but nlohmann's initializer-list constructor builds each pair as
// a two-element array first and checks the shape of the whole list at every call site; here each
// field is one key pointer and one value, added by one out-of-line function. The report writers
// have ~300 fields: this keeps the widget's module within its download budget (README, "Sizes").
struct JsonField {
    const char* key;
    json value;
};
json object(std::initializer_list<JsonField> fields);

// One JSON object being read, with the context its errors name ("gpus.json: rtx-4090").
class Obj {
public:
    Obj(const json& j, std::string ctx) : j_(j), ctx_(std::move(ctx)) {
        if (!j_.is_object()) throw Error(ctx_, "must be a JSON object");
    }
    const std::string& ctx() const { return ctx_; }
    bool has(const char* k) const { return j_.contains(k) && !j_.at(k).is_null(); }
    const json& at(const char* k) const { return j_.at(k); }

    [[noreturn]] void fail(const char* k, const std::string& msg) const { throw Error(ctx_ + ": " + k, msg); }

    const json& need(const char* k) const {
        if (!j_.contains(k)) fail(k, "is missing");
        return j_.at(k);
    }
    std::string str(const char* k) const {
        const json& v = need(k);
        if (!v.is_string()) fail(k, "must be a string, got " + dump_text(v));
        return v.get<std::string>();
    }
    std::string str_or(const char* k, const std::string& def) const { return has(k) ? str(k) : def; }
    double num(const char* k, double lo, double hi) const {
        const json& v = need(k);
        return check_num(k, v, lo, hi);
    }
    double num_or(const char* k, double def, double lo, double hi) const { return has(k) ? check_num(k, at(k), lo, hi) : def; }
    bool boolean(const char* k) const {
        const json& v = need(k);
        if (!v.is_boolean()) fail(k, "must be true or false, got " + dump_text(v));
        return v.get<bool>();
    }
    // Refuses keys outside `known`: a typo in a data file must not pass silently.
    void only(std::initializer_list<const char*> known) const {
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            bool ok = false;
            for (const char* k : known) ok = ok || it.key() == k;
            if (!ok) {
                std::string list;
                for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
                throw Error(ctx_ + ": " + it.key(), "unknown field; known fields: " + list);
            }
        }
    }
    std::vector<std::string> strings_or_empty(const char* k) const {
        std::vector<std::string> out;
        if (!has(k)) return out;
        const json& v = at(k);
        if (!v.is_array()) fail(k, "must be an array of strings");
        for (const auto& s : v) {
            if (!s.is_string()) fail(k, "must be an array of strings, found " + dump_text(s));
            out.push_back(s.get<std::string>());
        }
        return out;
    }

private:
    double check_num(const char* k, const json& v, double lo, double hi) const {
        if (!v.is_number()) fail(k, "must be a number, got " + dump_text(v));
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < lo || d > hi) {
            // %g is what an ostream prints by default; snprintf keeps iostreams (and their
            // locale tables, some 100 KB of WebAssembly) out of the browser build.
            char range[96];
            std::snprintf(range, sizeof range, "must be between %g and %g, got ", lo, hi);
            fail(k, range + dump_text(v));
        }
        return d;
    }
    const json& j_;
    std::string ctx_;
};

}  // namespace gpusizer::detail
