// fuzz_link.cpp: share links (config_from_link), then the estimate of whatever parsed.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    try {
        const Config c = config_from_link(fuzz::text(data, size));
        // A link that parses must survive its own round trip.
        (void)config_from_link(link_from_config(c));
        fuzz::estimate_checked(c);
    } catch (const Error&) {
    }
    return 0;
}
