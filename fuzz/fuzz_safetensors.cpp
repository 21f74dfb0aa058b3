// fuzz_safetensors.cpp: the safetensors header reader and the shard index parser. Every outcome
// is a header or a gpusizer::Error; a header's tensors must tile its buffer exactly.
#include <cstdlib>

#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    try {
        MemorySource src("fuzz.safetensors", std::vector<std::uint8_t>(data, data + size));
        const SafetensorsHeader h = read_safetensors_header(src);
        std::uint64_t end = 0;
        for (const auto& t : h.tensors) {
            if (t.begin != end || t.end - t.begin != t.bytes || !safetensors_dtype(t.dtype)) std::abort();
            end = t.end;
        }
        if (end != h.data_bytes || h.header_bytes + h.data_bytes > size) std::abort();
        safetensors_model_from_headers({h});
    } catch (const Error&) {
    }
    try {
        const SafetensorsIndex idx =
            parse_safetensors_index(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.index.json");
        if (idx.weight_map.empty() || idx.files.empty()) std::abort();
    } catch (const Error&) {
    }
    return 0;
}
