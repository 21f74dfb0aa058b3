// estimate_options.cpp: estimate() with EstimateOptions, the whole report in one call.
#include "estimate_internal.hpp"
#include "gpusizer/estimate.hpp"

namespace gpusizer {

Report estimate(const Config& config, const Catalog& catalog, const EstimateOptions& options) {
    Report rep = detail::report_for(config);   // the one copy of the configuration: resolved in place
    const detail::Resolved r = detail::resolve_in_place(rep.config, catalog, options.measured);
    LinkTimes alternative;
    if (options.alternative_link) alternative = detail::alternative_of(r);   // before fill_report() sets rep.config's defaults
    detail::fill_report(r, rep);
    detail::kv_sensitivity(config, catalog, options.measured, rep);
    rep.interconnect.alternative = std::move(alternative);
    return rep;
}

}  // namespace gpusizer
