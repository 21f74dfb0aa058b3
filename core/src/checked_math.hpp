// checked_math.hpp: unsigned arithmetic on sizes read from files. Every product and sum of
// values a file states goes through these, so that a hostile header ends in an Error naming
// the field instead of a wrapped-around size.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "gpusizer/error.hpp"

namespace gpusizer::detail {

inline std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, const std::string& key) {
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) throw Error(key, "size overflows 64 bits");
    return a * b;
}

inline std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, const std::string& key) {
    if (b > std::numeric_limits<std::uint64_t>::max() - a) throw Error(key, "size overflows 64 bits");
    return a + b;
}

// Rounds up to a multiple of `align` (> 0).
inline std::uint64_t checked_align(std::uint64_t v, std::uint64_t align, const std::string& key) {
    const std::uint64_t rem = v % align;
    return rem == 0 ? v : checked_add(v, align - rem, key);
}

}  // namespace gpusizer::detail
