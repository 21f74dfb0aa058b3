// fuzz_hf_config.cpp: Hugging Face config.json import (arch_from_hf_config), then the
// parameter count and an estimate of the imported architecture.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    try {
        std::vector<std::string> warnings;
        Config c;
        c.model.custom = true;
        c.model.arch = arch_from_hf_config(fuzz::text(data, size), &warnings);
        const ParamCounts pc = count_params(c.model.arch);
        if (!std::isfinite(pc.total()) || pc.total() < 0) std::abort();
        fuzz::estimate_checked(c);
    } catch (const Error&) {
    }
    return 0;
}
