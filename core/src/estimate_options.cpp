// estimate_options.cpp: estimate() with EstimateOptions, the whole report in one call.
#include "estimate_internal.hpp"
#include "gpusizer/estimate.hpp"

namespace gpusizer {

Report estimate(const Config& config, const Catalog& catalog, const EstimateOptions& options) {
    detail::Resolved r = detail::resolve(config, catalog, options.measured);
    LinkTimes alternative;
    if (options.alternative_link) alternative = detail::alternative_of(r);   // before estimate_resolved() takes r.config
    Report rep = detail::estimate_resolved(r, &r.config);
    rep.interconnect.alternative = std::move(alternative);
    return rep;
}

}  // namespace gpusizer
