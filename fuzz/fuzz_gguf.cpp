// fuzz_gguf.cpp: the GGUF header reader (read_gguf_header, gguf_arch_info, the model's
// totals, the per-layer model arch_from_gguf), the input taken as a whole file and as part 1 of a 2-part split whose part 2 is the
// same bytes. Every outcome is a header or a gpusizer::Error; a header must be consistent.
#include <cstdlib>

#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    const std::vector<std::uint8_t> bytes(data, data + size);
    try {
        MemorySource src("fuzz.gguf", bytes);
        const GgufHeader h = read_gguf_header(src);
        if (h.data_offset < h.header_bytes || h.data_offset % h.alignment != 0 || h.data_offset + h.data_bytes > size) std::abort();
        for (const auto& t : h.tensors) {
            const GgmlTypeTraits* traits = ggml_type_traits(t.type);
            if (!traits || t.n_dims == 0 || t.n_dims > 4 || t.offset + t.bytes > h.data_bytes) std::abort();
            if (t.bytes != t.elements / traits->block_size * traits->type_size) std::abort();
        }
        const GgufModel m = gguf_model_from_headers({h});
        if (m.totals.tensors != h.tensors.size()) std::abort();
        // The per-layer model (arch_from_gguf): an architecture or an Error; the file's bytes,
        // split by where they sit, add up to the whole (integers below 2^53: exact in double).
        const ModelArch a = arch_from_gguf(m, nullptr);
        double sum = a.file.embeddings + a.file.head + a.file.vision + a.file.beyond_stack;
        for (double b : a.file.layer) sum += b;
        if (sum != a.file.total || a.file.total != double(m.totals.bytes)) std::abort();
    } catch (const Error&) {
    }
    try {
        auto open = [&bytes](const std::string& name) -> std::unique_ptr<ByteSource> {
            return std::make_unique<MemorySource>(name, bytes);
        };
        read_gguf_model("fuzz-00001-of-00002.gguf", open);
    } catch (const Error&) {
    }
    return 0;
}
