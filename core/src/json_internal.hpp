// json_internal.hpp (internal): the JSON-level entry points shared by the core's JSON files
// (catalog_io.cpp, config_io.cpp, report_json.cpp, hf_import.cpp, share_link.cpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/config.hpp"
#include "gpusizer/model.hpp"

namespace gpusizer {

// `warnings`: what the importer assumed or does not count. `not_understood`: the keys that change
// memory but were not read (also named in a warning); the catalog refuses a model with any.
ModelArch arch_from_hf_json(const nlohmann::json& config, std::vector<std::string>* warnings,
                            std::vector<std::string>* not_understood = nullptr);

// A Llama-shaped architecture with `params` parameters, for {"num_parameters": N} models.
ModelArch synthesize_arch(double params);

// The configuration as a JSON value and back (config_io.cpp); share_link.cpp builds on them.
nlohmann::json config_to_json_value(const Config& config);
Config config_from_json_value(const nlohmann::json& value);

namespace detail {
// A custom GPU's object as the configuration's "gpu" key holds it, and back (config_io.cpp;
// share_link.cpp writes the same fields into gc=).
nlohmann::json custom_gpu_json(const CustomGpu& spec);
CustomGpu custom_gpu_from_json_value(const nlohmann::json& value);
// The configuration's "gpu" value when it is a custom GPU: an object sets config.custom_gpu and
// gpu "custom" (true); the string "custom" alone is refused; a catalog id is left to the key (false).
bool read_custom_gpu(Config& config, const nlohmann::json& value);
// Writes the configuration's custom GPU into `out` as its object (true), or nothing for a catalog GPU (false).
bool write_custom_gpu(const Config& config, nlohmann::json& out);
}  // namespace detail

}  // namespace gpusizer
