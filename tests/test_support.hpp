// test_support.hpp: the catalog from the source tree, and small helpers shared by the tests.
#pragma once

#include <string>

#include "gpusizer/gpusizer.hpp"

namespace gpusizer::test {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

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

// Bytes of the whole model's weights (no parallel split) for a catalog model and a format.
inline double model_weight_bytes(const std::string& model, const std::string& weights) {
    Config c = config(model, "h200");
    c.weights = weights;
    const Report r = run(c);
    return r.weights_bits_per_param * r.params / 8.0;
}

}  // namespace gpusizer::test
