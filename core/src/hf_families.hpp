// hf_families.hpp (internal): what the Hugging Face importer shares with the rest of the core.
// The importer itself (arch_from_hf_json, json_internal.hpp) is one table-driven reader: one row
// per model_type (hf_rows.cpp) names what a family's class says beyond its fields; a
// model_type with no row is read by its fields (hf_infer.cpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/model.hpp"

namespace gpusizer {

// The checkpoint's own storage: `dtype` / `torch_dtype` and `quantization_config` (MXFP4,
// FP8 blocks, compressed-tensors, GPTQ, AWQ, bitsandbytes, ModelOpt) into arch.native_*.
// A quant_method it does not know is named in `warnings`.
void read_native_format(const nlohmann::json& config, ModelArch& arch, std::vector<std::string>* warnings);

}  // namespace gpusizer
