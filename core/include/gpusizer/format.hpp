// gpusizer/format.hpp: numbers for people, shared by the CLI and the UI. Memory in GiB
// (2^30 bytes), counts with B/M/k suffixes (10^9 ...), tokens with thousands separators.
#pragma once

#include <string>

namespace gpusizer {

std::string format_gib(double bytes, int decimals = 2);      // "19.93 GiB", "512 MiB" below 1 GiB
std::string format_count(double n);                          // "70.55 B", "124.4 M", "512 k"
std::string format_int(double n);                            // "131,072"
std::string format_bytes_short(double bytes);                // "320 KiB", "1.25 GiB"
std::string format_fixed(double v, int decimals);            // "%.*f": "0.25"
std::string format_duration(double seconds);                 // "12.3 ms", "4.20 s", "3.1 days"
std::string format_rate(double per_s);                       // tokens/s: "23.4", "1,850", "1.25 M"
std::string format_bandwidth(double bytes_per_s);            // "25.0 GB/s", "450 GB/s" (10^9 B/s)
std::string format_watts(double w);                          // "900 W", "35.2 kW"
// A measured figure in its unit ("GB/s", "TFLOP/s", "TOP/s", "us", "bytes", "MiB").
std::string format_measured(double v, const std::string& unit);
// The name people read for a calibrated Gpu field ("memory_bandwidth_gb_per_s" -> "memory bandwidth").
std::string measured_figure_label(const std::string& key);

}  // namespace gpusizer
