// fuzz_measured.cpp: the benchmark report reader (measured_report_from_json), then calibration
// of a catalog GPU (an overlay) with whatever loaded.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusizer;
    try {
        const MeasuredReport r = measured_report_from_json(fuzz::text(data, size), "fuzz.json");
        (void)measured_report_from_json(measured_report_to_json(r), "roundtrip.json");   // what we write we can read
        // Calibrate the GPU the report measured (or an H100 when it names none in the catalog).
        std::string gpu = "h100-sxm";
        for (const auto& d : r.devices)
            if (!d.catalog_id.empty() && fuzz::catalog().find_gpu(d.catalog_id)) {
                gpu = d.catalog_id;
                break;
            }
        try {
            const GpuOverlay cal = measured_overlay(fuzz::catalog(), r, "fuzz.json", {gpu});
            Config c;
            c.model.id = "llama-3-8b";
            c.gpu = gpu;
            fuzz::check_report(estimate(c, fuzz::catalog(), EstimateOptions{false, &cal}));
        } catch (const Error&) {
        }
    } catch (const Error&) {
    }
    return 0;
}
