// model_file_internal.hpp: pieces the GGUF and safetensors readers share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "checked_math.hpp"
#include "gpusizer/model_file.hpp"

namespace gpusizer::detail {

// Adds one tensor to the totals by type and by class (by_type stays unsorted until finish).
void add_to_totals(TensorTotals& t, const std::string& type, WeightClass cls, int layer, std::uint64_t elements, std::uint64_t bytes);
// Sorts by_type by bytes, largest first (ties by name).
void finish_totals(TensorTotals& t);

// Adds the `k`th file of a model split over files to the model: its name, its header's bytes and
// its tensors, each marked as the file's through `file_of` and counted under its `type_of`.
template <typename Model, typename Header, typename Tensor>
void add_file(Model& m, Header& h, std::uint32_t k, std::uint32_t Tensor::*file_of, std::string Tensor::*type_of) {
    m.files.push_back(h.file);
    m.header_bytes = checked_add(m.header_bytes, h.header_bytes, h.file);
    for (Tensor& t : h.tensors) {
        t.*file_of = k;
        add_to_totals(m.totals, t.*type_of, t.cls, t.layer, t.elements, t.bytes);
        m.tensors.push_back(std::move(t));
    }
}

// "dir/name.ext" -> "dir/"; "name.ext" -> "".
std::string folder_of(const std::string& path);
// "dir/name.ext" -> "name.ext".
std::string file_name_of(const std::string& path);

}  // namespace gpusizer::detail
