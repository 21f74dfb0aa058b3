// estimate_options.cpp: estimate() with EstimateOptions, the whole report in one call.
#include "gpusizer/estimate.hpp"

namespace gpusizer {

Report estimate(const Config& config, const Catalog& catalog, const EstimateOptions& options) {
    Report r = estimate(config, catalog);
    if (options.alternative_link) r.interconnect.alternative = alternative_link(config, catalog);
    return r;
}

}  // namespace gpusizer
