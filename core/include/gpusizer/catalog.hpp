// gpusizer/catalog.hpp: the models and GPUs the calculator knows (assets/*.json).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusizer/gpu.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/precision.hpp"

namespace gpusizer {

struct SeedRow {                 // the seed article's table row for a model, verbatim
    std::string params, vram, gpu;
};

struct CatalogModel {
    ModelArch arch;
    ParamCounts counts;                    // count_params(arch), computed at load
    GgufTraits gguf;                       // gguf_traits(arch), computed at load
    std::string family;
    std::string hf_repo;
    double params_published = 0;
    double active_params_published = 0;   // MoE only
    int context_trained = 0;
    SeedRow seed;                          // empty when not in the seed article
    std::vector<std::string> sources;
    std::vector<std::string> unverified;
};

struct Catalog {
    std::vector<CatalogModel> models;
    std::vector<Gpu> gpus;

    // Builds the id indexes and the cached counts; catalog_from_json calls it. Call it again
    // after changing `models` or `gpus` by hand (lookups fall back to a scan until then).
    void reindex();

    const CatalogModel* find_model(std::string_view id) const;   // nullptr if absent
    const Gpu* find_gpu(std::string_view id) const;
    const CatalogModel& model(std::string_view id) const;       // throw Error("model"/"gpu", ...)
    const Gpu& gpu(std::string_view id) const;

private:
    std::unordered_map<std::string_view, std::size_t> model_index_;
    std::unordered_map<std::string_view, std::size_t> gpu_index_;
};

// Parses the two asset files; every error names the file, the entry and the field.
Catalog catalog_from_json(std::string_view gpus_json, std::string_view models_json);

// Reads <dir>/gpus.json and <dir>/models.json.
Catalog load_catalog(const std::string& assets_dir);

// Where the assets are: $GPUSIZER_ASSETS, else next to the executable (../share/gpusizer/assets,
// ./assets), else the source tree's assets/ compiled in. Throws Error if none is readable.
std::string find_assets_dir(const char* argv0);

}  // namespace gpusizer
