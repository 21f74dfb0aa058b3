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
// "max TTFT ms field", "max TPOT ms field", "search serving layouts button", and one "serving plan
// row" per layout of the serving result's table.
// `link`: the current configuration's share link (App::link()), which keys what the tab computed.
void draw_plan_tab(const Config& current, const std::string& link, const Catalog& catalog, const GpuOverlay* measured,
                   const std::function<void(const char*)>& note_item);

// The load fields the serving search and the simulation share: input and output tokens per
// request (`in`'s isl and osl, serving_load()'s when unset), `w` wide, and where the load comes from.
void draw_load_fields(const Config& current, PlanInputs& in, float w);

// Presses the shown search's button the next time the tab is drawn, a serving search with these
// latency targets set in its fields first (0: the field's own): the desktop app's --search, so a
// script or a screenshot gets a searched tab without a click.
void request_plan_search(double max_ttft_ms = 0, double max_tpot_ms = 0);

// Shows `kind` in the tab, as its switch does (the desktop app's --simulate).
void show_plan_kind(PlanKind kind);

// Presses the simulation's "highest rate" button the next time it is drawn, with these objectives
// set in its SLO fields first (0: the field's own): the desktop app's --simulate --highest-rate.
void request_highest_rate(double slo_ttft_ms = 0, double slo_tpot_ms = 0);

// The request-level simulation (view_simulate.cpp) of the current configuration at the tab's
// load (`plan`'s isl and osl, which its fields edit). `note` names "simulation rate field",
// "simulation new draw button", "simulation summary" or "simulation message", and the charts.
void draw_simulation(const Config& current, const std::string& link, const Catalog& catalog, PlanInputs& plan,
                     const std::function<void(const char*)>& note);

// The request simulation the tab shows, in brief, for window.gpusizerApp.simulation (status.cpp):
// null unless the tab shows one that ran; `rate` gets the arrival rate it ran at.
const SimulationReport* shown_simulation(double* rate);

// The search the tab shows (training or serving layouts), in brief; null before one ran.
const PlanSummary* shown_plan_summary();

}  // namespace gpusizer::ui
