// model_file_internal.hpp: pieces the GGUF and safetensors readers share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "checked_math.hpp"
#include "gpusizer/model_file.hpp"

namespace gpusizer::detail {

// One tensor as the totals count it.
struct TensorCount {
    const std::string& type;   // ggml type name or safetensors dtype
    WeightClass cls;
    TensorPart part;
    int layer;
    std::uint64_t elements, params, bytes;
};
// Adds one tensor to the totals by type, class, part and layer (by_type stays unsorted until finish).
void add_to_totals(TensorTotals& t, const TensorCount& c);
// Sorts by_type by bytes, largest first (ties by name).
void finish_totals(TensorTotals& t);

// Adds the `k`th file of a model split over files to the model: its name, its header's bytes and
// its tensors, each marked as the file's through `file_of` (the caller counts them).
template <typename Model, typename Header, typename Tensor>
void add_file(Model& m, Header& h, std::uint32_t k, std::uint32_t Tensor::*file_of) {
    m.files.push_back(h.file);
    m.header_bytes = checked_add(m.header_bytes, h.header_bytes, h.file);
    for (Tensor& t : h.tensors) {
        t.*file_of = k;
        m.tensors.push_back(std::move(t));
    }
}

// Sets each safetensors tensor's logical parameters and layout from the names, dtypes and shapes
// of it and its siblings (safetensors_layouts.cpp); throws Error naming the file and tensor when a packed
// tensor's shape disagrees with its siblings or with `quant`.
void set_logical_params(std::vector<SafetensorsTensor>& tensors, const std::vector<std::string>& files, const SafetensorsQuant& quant);

// "dir/name.ext" -> "dir/"; "name.ext" -> "".
std::string folder_of(const std::string& path);
// "dir/name.ext" -> "name.ext".
std::string file_name_of(const std::string& path);

}  // namespace gpusizer::detail
