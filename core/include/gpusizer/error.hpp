// gpusizer/error.hpp: the one error type of the library.
//
// Every error names the key (configuration key, asset field, CLI flag) that caused it and,
// where there is a closed set, the values that are allowed. The CLI prints what(), the UI
// shows it, the JavaScript API throws it. Code that must decide something from an error reads
// code() and path(), never the message text.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusizer {

// What kind of failure an Error is (the CLI maps it to an exit status; see cli/cli.hpp).
enum class ErrorCode {
    bad_value,         // a value of the wrong type or out of range, a missing or unknown key
    unknown_id,        // a model, GPU or link id the catalog does not hold
    incompatible,      // values that are each valid but do not go together
    gpu_unsupported,   // the configuration is valid, but this GPU cannot run it (vLLM on Apple)
    unreadable,        // a file that cannot be read, or text that is not JSON
    too_large,         // input beyond a size limit
    too_deep,          // JSON nested beyond the depth limit
    internal,          // a broken invariant of the library itself
};

// "bad_value", "unknown_id", ...: for messages, logs and the JavaScript API.
inline std::string_view to_string(ErrorCode c) {
    switch (c) {
        case ErrorCode::bad_value: return "bad_value";
        case ErrorCode::unknown_id: return "unknown_id";
        case ErrorCode::incompatible: return "incompatible";
        case ErrorCode::gpu_unsupported: return "gpu_unsupported";
        case ErrorCode::unreadable: return "unreadable";
        case ErrorCode::too_large: return "too_large";
        case ErrorCode::too_deep: return "too_deep";
        case ErrorCode::internal: return "internal";
    }
    return "internal";
}

// `text` fit to show: a NUL, another control character (but tab and newline) or a
// bidirectional control (U+202A-202E, U+2066-2069) becomes U+FFFD. Error messages echo what the
// reader gave (a link's model id, a file's model name); a NUL would end them wherever they are
// read as C strings (what()), and a U+202E would show the rest of a message reversed.
std::string printable_text(std::string_view text);
// Whether printable_text(text) == text (nothing to replace): the common case, checked without a copy.
bool is_printable_text(std::string_view text);

class Error : public std::runtime_error {
public:
    // The message is kept as printable_text(message).
    Error(std::string key, const std::string& message, ErrorCode code = ErrorCode::bad_value);

    // The key as path segments: {"gpus.json", "rtx-4090", "memory_gib"}.
    Error(std::vector<std::string> path, const std::string& message, ErrorCode code);

    // The key the error is about ("context", "gpus.json: rtx-4090: memory_gib", ...); may be empty.
    const std::string& key() const { return key_; }
    // The same key as segments, outermost first.
    const std::vector<std::string>& path() const { return path_; }
    // what() without the key: "must be between 1 and 3, got 4".
    const std::string& message() const { return message_; }
    ErrorCode code() const { return code_; }

    // This error as seen from an enclosing context: the key gains `ctx` in front
    // ("hf_config" -> "models.json: llama-3-8b: hf_config"), message and code stay.
    Error prefixed(const std::string& ctx) const {
        std::vector<std::string> p;
        p.reserve(path_.size() + 1);
        p.push_back(ctx);
        p.insert(p.end(), path_.begin(), path_.end());
        return Error(std::move(p), message_, code_);
    }

private:
    std::vector<std::string> path_;
    std::string key_;
    std::string message_;
    ErrorCode code_;
};

// throw Error(key, message, code), out of line: one call where each throw site would build the
// two strings and the exception itself (the widget's module pays for every site).
[[noreturn]] void throw_error(std::string_view key, std::string_view message, ErrorCode code = ErrorCode::bad_value);

}  // namespace gpusizer
