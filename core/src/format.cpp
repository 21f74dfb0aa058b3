// format.cpp: human-readable numbers (see gpusizer/format.hpp).
#include "gpusizer/format.hpp"

#include <cmath>
#include <cstdio>

namespace gpusizer {

namespace {

std::string printf_str(const char* f, double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, decimals, v);
    return buf;
}

}  // namespace

std::string format_gib(double bytes, int decimals) {
    if (!std::isfinite(bytes)) return "?";
    if (bytes == 0.0) return "0";
    const double gib = bytes / (1024.0 * 1024.0 * 1024.0);
    if (std::fabs(gib) < 1.0 && bytes != 0.0) return printf_str("%.*f MiB", bytes / (1024.0 * 1024.0), 0);
    return printf_str("%.*f GiB", gib, decimals);
}

std::string format_bytes_short(double bytes) {
    if (!std::isfinite(bytes)) return "?";
    const double a = std::fabs(bytes);
    if (a < 1024.0) return printf_str("%.*f B", bytes, 0);
    if (a < 1024.0 * 1024.0) return printf_str("%.*f KiB", bytes / 1024.0, a < 10 * 1024.0 ? 1 : 0);
    if (a < 1024.0 * 1024.0 * 1024.0) return printf_str("%.*f MiB", bytes / (1024.0 * 1024.0), 1);
    return printf_str("%.*f GiB", bytes / (1024.0 * 1024.0 * 1024.0), 2);
}

std::string format_count(double n) {
    if (!std::isfinite(n)) return "?";
    const double a = std::fabs(n);
    if (a >= 1e12) return printf_str("%.*f T", n / 1e12, 2);
    if (a >= 1e9) return printf_str("%.*f B", n / 1e9, 2);
    if (a >= 1e6) return printf_str("%.*f M", n / 1e6, 1);
    if (a >= 1e3) return printf_str("%.*f k", n / 1e3, 1);
    return printf_str("%.*f", n, 0);
}

std::string format_int(double n) {
    if (!std::isfinite(n)) return "?";
    const long long v = std::llround(n);
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return v < 0 ? "-" + out : out;
}

}  // namespace gpusizer
