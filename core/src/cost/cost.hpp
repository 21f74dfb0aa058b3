// cost/cost.hpp: what a job costs: electricity at the wall's draw, owning, renting (cost.cpp).
#pragma once

#include "estimate_internal.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::detail {

// Fills rep.cost from the power, speed and serving figures already in `rep`, the configuration's
// cost keys and the catalog's prices (assets/prices.json).
void evaluate_cost(const Resolved& r, Report& rep);

// The cost keys that name something (rent_kind, rent_provider): resolve() refuses a typo, naming
// what there is.
void check_cost_keys(const Config& c, const Catalog& catalog);

}  // namespace gpusizer::detail
