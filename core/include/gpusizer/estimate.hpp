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

// What estimate() adds to the report beyond memory, speed and power.
struct EstimateOptions {
    bool alternative_link = false;   // fill Report::interconnect.alternative (one more estimate)
    const GpuOverlay* measured = nullptr;   // GPUs with measured figures in place of the catalog's
};

// estimate() with options: the whole report, so that callers never patch it afterwards.
Report estimate(const Config& config, const Catalog& catalog, const EstimateOptions& options);

// The same configuration over the other kind of intra-node link (NVLink <-> PCIe; for a card
// without NVLink, its generation's NVLink, marked hypothetical): communication and the speed that
// results. Report::interconnect.alternative is left empty by estimate(config, catalog), which
// stays cheap for sweeps; estimate(config, catalog, {true}) fills it. Empty for a single GPU.
LinkTimes alternative_link(const Config& config, const Catalog& catalog);

// The inverse questions: longest context, largest batch, best weight and KV precision.
// `measured`: GPUs that stand in for the catalog's (GpuOverlay), as in EstimateOptions.
FitReport fit(const Config& config, const Catalog& catalog, const GpuOverlay* measured = nullptr);

// The constants and choices behind a report, with their sources, for "show assumptions".
std::vector<Assumption> assumptions(const Report& report);

// One point of a sweep: a GPU, a GPU count and a weight format for the same model and workload.
struct SweepPoint {
    int gpu = 0;                  // index into catalog.gpus
    int gpus = 1;
    int format = 0;               // index into weight_formats(); -1 = `weights` "native" (the checkpoint's scheme)
    bool valid = false;           // false: this combination cannot run; `error` says why
    bool fits = false;
    double total = 0;             // bytes on the most loaded GPU
    double headroom = 0;          // usable - total
    double kv_capacity_tokens = 0;
    MemoryParts per_gpu;
    Parallelism parallel;
    // Speed and power at this point (the same formulas as Report::speed / Report::power):
    double decode_tokens_per_s = 0;    // inference, one sequence (as if it fit)
    double train_tokens_per_s = 0;     // training
    double system_w = 0;               // ratings x utilization (power.system_w)
    double wall_w = 0;                 // what the machines draw at the plug doing the job (power.wall_w)
    double psu_w = 0;                  // per node
    bool price_known = false;
    double price_usd = 0;              // GPU prices x count
    int nodes = 1;
    int gpus_per_node = 1;             // what one node of this GPU holds
    std::string error;
};

// Every catalog GPU x 1..max_gpus x every weight format (or the formats named in `formats`),
// for the model and workload of `base` (its gpu, gpus and weights are replaced). The model side
// is resolved once per format and count, so a sweep costs far less than the same number of
// estimate() calls.
std::vector<SweepPoint> sweep(const Config& base, const Catalog& catalog, int max_gpus,
                              const std::vector<std::string>& formats = {}, const GpuOverlay* measured = nullptr);

}  // namespace gpusizer
