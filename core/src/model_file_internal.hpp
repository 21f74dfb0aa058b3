// model_file_internal.hpp: pieces the GGUF and safetensors readers share.
#pragma once

#include <algorithm>
#include <string>

#include "gpusizer/model_file.hpp"

namespace gpusizer::detail {

// Adds one tensor to the totals by type and by class (by_type stays unsorted until finish).
void add_to_totals(TensorTotals& t, const std::string& type, WeightClass cls, int layer, std::uint64_t elements, std::uint64_t bytes);
// Sorts by_type by bytes, largest first (ties by name).
void finish_totals(TensorTotals& t);

// "dir/name.ext" -> "dir/"; "name.ext" -> "".
std::string folder_of(const std::string& path);
// "dir/name.ext" -> "name.ext".
std::string file_name_of(const std::string& path);

}  // namespace gpusizer::detail
