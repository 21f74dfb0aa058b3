// ui/view_plan.hpp: the Plan tab (view_plan.cpp), drawn by App::draw_tabs() for the current
// configuration and the catalog the estimate uses, with the opened benchmark report's calibrated
// GPU (App::measured(); null for none) in place of the catalog's.
#pragma once

#include <functional>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "plan_state.hpp"

namespace gpusizer::ui {

// `note_item(name)` records the last widget's rectangle in App::layout() (tests click them):
// "training layouts switch", "serving layouts switch", "search layouts button" (training),
// "max TTFT ms field", "max TPOT ms field", "search serving layouts button".
void draw_plan_tab(const Config& current, const Catalog& catalog, const GpuOverlay* measured,
                   const std::function<void(const char*)>& note_item);

// The search the tab shows (training or serving layouts), in brief; null before one ran.
const PlanSummary* shown_plan_summary();

}  // namespace gpusizer::ui
