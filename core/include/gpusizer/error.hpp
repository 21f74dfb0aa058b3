// gpusizer/error.hpp: the one error type of the library.
//
// Every error names the key (configuration key, asset field, CLI flag) that caused it and,
// where there is a closed set, the values that are allowed. The CLI prints what(), the UI
// shows it, the JavaScript API throws it.
#pragma once

#include <stdexcept>
#include <string>

namespace gpusizer {

class Error : public std::runtime_error {
public:
    Error(std::string key, const std::string& message)
        : std::runtime_error(key.empty() ? message : key + ": " + message), key_(std::move(key)) {}

    // The key the error is about ("context", "gpus.json: rtx-4090: memory_gib", ...); may be empty.
    const std::string& key() const { return key_; }

private:
    std::string key_;
};

}  // namespace gpusizer
