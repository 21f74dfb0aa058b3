// fuzz_assets.cpp: the asset loader (catalog_from_json). The input holds gpus.json and
// models.json separated by a NUL byte; without one, the input is gpus.json and models.json is
// the real file (and the other way round on odd sizes).
#include <cstring>
#include <fstream>
#include <iterator>

#include "fuzz_common.hpp"

namespace {

std::string real(const char* name) {
    std::ifstream in(std::string(GPUSIZER_FUZZ_ASSETS) + "/" + name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    static const std::string gpus = real("gpus.json"), models = real("models.json");
    const std::string_view in = fuzz::text(data, size);
    const auto nul = in.find('\0');
    try {
        Catalog c;
        if (nul != std::string_view::npos) c = catalog_from_json(in.substr(0, nul), in.substr(nul + 1));
        else if (size % 2) c = catalog_from_json(gpus, in);
        else c = catalog_from_json(in, models);
        // A catalog that loads must estimate its first model on its first GPU without trouble.
        Config cfg;
        cfg.model.id = c.models.front().arch.id;
        cfg.gpu = c.gpus.front().id;
        try {
            fuzz::check_report(estimate(cfg, c));
        } catch (const Error&) {
        }
    } catch (const Error&) {
    }
    return 0;
}
