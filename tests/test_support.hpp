// test_support.hpp: the catalog from the source tree, and small helpers shared by the tests.
#pragma once

#include <string>

#include "gpusizer/gpusizer.hpp"

namespace gpusizer::test {

inline const Catalog& catalog() {
    static const Catalog c = load_catalog(GPUSIZER_TEST_ASSETS);
    return c;
}

inline Config config(const std::string& model, const std::string& gpu = "h100-sxm") {
    Config c;
    c.model.id = model;
    c.gpu = gpu;
    return c;
}

inline Report run(const Config& c) { return estimate(c, catalog()); }

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace gpusizer::test
