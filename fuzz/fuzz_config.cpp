// fuzz_config.cpp: configuration JSON (config_from_json), then the estimate and the fit.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    try {
        const Config c = config_from_json(fuzz::text(data, size));
        (void)config_from_json(config_to_json(c));   // what we write we can read
        fuzz::estimate_checked(c);
        if (size % 7 == 0) {   // fit() runs hundreds of estimates: sample it
            try {
                (void)fit(c, fuzz::catalog());
            } catch (const Error&) {
            }
        }
    } catch (const Error&) {
    }
    return 0;
}
