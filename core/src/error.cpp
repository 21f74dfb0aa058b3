// error.cpp: the Error type's constructors (out of line: one copy of their code for the
// library's hundreds of throw sites), the text they keep fit to show, and the phrasing of the
// messages that point to what the program offers (gpusizer/phrasing.hpp).
#include "gpusizer/error.hpp"

#include "gpusizer/phrasing.hpp"

namespace gpusizer {

bool is_printable_text(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        // The bytes that start what printable_text replaces: controls, DEL, and the lead bytes
        // of C1 controls (C2) and of the bidirectional controls (E2), looked at closely there.
        if ((c < 0x20 || c == 0x7F || c == 0xC2 || c == 0xE2) && printable_text(text.substr(i, 3)) != text.substr(i, 3)) return false;
    }
    return true;
}

std::string printable_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    static constexpr char kReplacement[] = "\xEF\xBF\xBD";   // U+FFFD in UTF-8
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const auto next = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0; };
        // U+202A-202E are E2 80 AA-AE, U+2066-2069 E2 81 A6-A9; C1 controls U+0080-009F C2 80-9F.
        const bool bidi = c == 0xE2 && ((next(1) == 0x80 && next(2) >= 0xAA && next(2) <= 0xAE) ||
                                        (next(1) == 0x81 && next(2) >= 0xA6 && next(2) <= 0xA9));
        const bool c1 = c == 0xC2 && next(1) >= 0x80 && next(1) <= 0x9F;
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F || bidi || c1) {
            out += kReplacement;
            i += bidi ? 2 : c1 ? 1 : 0;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

namespace {

std::vector<std::string> printable_path(std::vector<std::string> path) {
    for (std::string& s : path) s = printable_text(s);
    return path;
}

std::string joined(const std::vector<std::string>& path) {
    std::string out;
    for (const auto& s : path) {
        if (s.empty()) continue;
        if (!out.empty()) out += ": ";
        out += s;
    }
    return out;
}

std::string with_key(const std::vector<std::string>& path, const std::string& message) {
    const std::string key = joined(path);
    return key.empty() ? message : key + ": " + message;
}

}  // namespace

Error::Error(std::string key, const std::string& message, ErrorCode code)
    : Error(key.empty() ? std::vector<std::string>{} : std::vector<std::string>{std::move(key)}, message, code) {}

Error::Error(std::vector<std::string> path, const std::string& message, ErrorCode code)
    : std::runtime_error(with_key(printable_path(path), printable_text(message))),
      path_(printable_path(std::move(path))),
      key_(joined(path_)),
      message_(printable_text(message)),
      code_(code) {}

void throw_error(std::string_view key, std::string_view message, ErrorCode code) {
    throw Error(std::string(key), std::string(message), code);
}

namespace {
Phrasing g_phrasing;
}  // namespace

const Phrasing& phrasing() { return g_phrasing; }
void set_phrasing(const Phrasing& p) { g_phrasing = p; }

}  // namespace gpusizer
