// gpusizer/estimate.hpp: the estimation entry points. Pure functions: no I/O, no globals.
#pragma once

#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer {

// Per-GPU memory of a configuration, by part, and whether it fits. Throws Error for a
// configuration that cannot be evaluated (unknown id, tp not dividing the heads, ...).
Report estimate(const Config& config, const Catalog& catalog);

// The inverse questions: longest context, largest batch, best weight and KV precision.
FitReport fit(const Config& config, const Catalog& catalog);

// The constants and choices behind a report, with their sources, for "show assumptions".
std::vector<Assumption> assumptions(const Report& report);

// One point of a sweep: a GPU, a GPU count and a weight format for the same model and workload.
struct SweepPoint {
    int gpu = 0;                  // index into catalog.gpus
    int gpus = 1;
    int format = 0;               // index into weight_formats()
    bool valid = false;           // false: this combination cannot run; `error` says why
    bool fits = false;
    double total = 0;             // bytes on the most loaded GPU
    double headroom = 0;          // usable - total
    double kv_capacity_tokens = 0;
    MemoryParts per_gpu;
    Parallelism parallel;
    std::string error;
};

// Every catalog GPU x 1..max_gpus x every weight format, for the model and workload of `base`
// (its gpu, gpus and weights are replaced). The model side is resolved once per format and
// count, so a sweep costs far less than the same number of estimate() calls.
std::vector<SweepPoint> sweep(const Config& base, const Catalog& catalog, int max_gpus);

}  // namespace gpusizer
