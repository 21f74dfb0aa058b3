// gpusizer/format.hpp: numbers for people, shared by the CLI and the UI. Memory in GiB
// (2^30 bytes), counts with B/M/k suffixes (10^9 ...), tokens with thousands separators.
#pragma once

#include <string>

namespace gpusizer {

std::string format_gib(double bytes, int decimals = 2);      // "19.93 GiB", "512 MiB" below 1 GiB
std::string format_count(double n);                          // "70.55 B", "124.4 M", "512 k"
std::string format_int(double n);                            // "131,072"
std::string format_bytes_short(double bytes);                // "320 KiB", "1.25 GiB"

}  // namespace gpusizer
