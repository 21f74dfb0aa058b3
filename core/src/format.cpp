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

std::string format_fixed(double v, int decimals) {
    if (!std::isfinite(v)) return "?";
    return printf_str("%.*f", v, decimals);
}

std::string format_duration(double s) {
    if (!std::isfinite(s)) return "?";
    if (s <= 0) return "0";
    if (s < 1e-3) return format_fixed(s * 1e6, 1) + " us";
    if (s < 1) return format_fixed(s * 1e3, s < 0.01 ? 2 : 1) + " ms";
    if (s < 120) return format_fixed(s, 2) + " s";
    if (s < 7200) return format_fixed(s / 60, 1) + " min";
    if (s < 3 * 86400) return format_fixed(s / 3600, 1) + " h";
    if (s < 3 * 365.25 * 86400) return format_fixed(s / 86400, 1) + " days";
    return format_fixed(s / (365.25 * 86400), 1) + " years";
}

std::string format_rate(double per_s) {
    if (!std::isfinite(per_s)) return "?";
    if (per_s >= 1e6) return format_fixed(per_s / 1e6, 2) + " M";
    if (per_s >= 1e4) return format_int(std::round(per_s));
    return format_fixed(per_s, per_s >= 100 ? 0 : 1);
}

std::string format_bandwidth(double bytes_per_s) {
    return format_fixed(bytes_per_s / 1e9, bytes_per_s >= 1e11 ? 0 : 1) + " GB/s";
}

std::string format_watts(double w) { return w >= 10000 ? format_fixed(w / 1000, 1) + " kW" : format_fixed(w, 0) + " W"; }

std::string format_measured(double v, const std::string& unit) {
    if (unit == "bytes") return format_gib(v);
    if (unit == "MiB") return format_gib(v * 1024.0 * 1024.0);
    if (unit == "GB/s") return format_int(std::round(v)) + " GB/s";
    return format_fixed(v, 1) + " " + unit;
}

std::string measured_figure_label(const std::string& key) {
    if (key == "memory_bandwidth_gb_per_s") return "memory bandwidth";
    if (key == "fp32_tflops") return "FP32 (CUDA cores)";
    if (key.rfind("tensor_tflops_dense.", 0) == 0) {
        std::string p = key.substr(20);
        for (char& ch : p)
            if (ch >= 'a' && ch <= 'z') ch = char(ch - 'a' + 'A');
        return "tensor " + p;
    }
    if (key == "memory_total_mib") return "memory CUDA can use";
    if (key == "measured_pcie_gb_per_s") return "PCIe, per direction";
    if (key == "nvlink_gb_per_s") return "NVLink, both directions";
    if (key == "measured_cuda_context_bytes") return "CUDA context";
    return key;
}

}  // namespace gpusizer
