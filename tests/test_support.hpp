// test_support.hpp: the catalog from the source tree, and small helpers shared by the tests.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
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

// The text of a file in the source tree's assets/ ("gpus.json"), for tests that edit it.
inline std::string read_asset(const std::string& name) {
    std::ifstream in(std::string(GPUSIZER_TEST_ASSETS) + "/" + name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The message of the Error that `f` throws, or "" when it throws none.
template <typename F>
std::string thrown_message(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// Bad input that `parse` must refuse with an Error whose message holds both `mentions` (the key)
// and `also` (what is allowed).
struct BadInput {
    const char* input;
    const char* mentions;
    const char* also;
};

template <typename Parse, std::size_t N>
void expect_errors(const BadInput (&cases)[N], Parse parse) {
    for (const BadInput& b : cases) {
        INFO(b.input);
        const std::string msg = thrown_message([&] { (void)parse(std::string(b.input)); });
        CHECK(!msg.empty());
        CHECK(msg.find(b.mentions) != std::string::npos);
        CHECK(msg.find(b.also) != std::string::npos);
    }
}

}  // namespace gpusizer::test
