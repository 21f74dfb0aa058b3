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

}  // namespace gpusizer
