// ui/view_plan.hpp: the Plan tab (view_plan.cpp), drawn by App::draw_tabs() for the current
// configuration and the catalog the estimate uses, with the opened benchmark report's calibrated
// GPU (App::measured(); null for none) in place of the catalog's.
#pragma once

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"

namespace gpusizer::ui {

void draw_plan_tab(const Config& current, const Catalog& catalog, const GpuOverlay* measured);

}  // namespace gpusizer::ui
