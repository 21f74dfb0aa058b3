// ui/plan_state.hpp: what the Plan tab asks and shows, without ImGui (tests/test_ui_plan.cpp).
// The search runs only when the tab's button asks for it (plan() takes tens of milliseconds to
// seconds), never per frame.
#pragma once

#include <string>
#include <vector>

#include "gpusizer/plan.hpp"

namespace gpusizer::ui {

// The Plan tab's own fields; the model, GPU, GPU count, context and precision come from the
// current configuration.
struct PlanInputs {
    int global_batch = 0;          // sequences per step; 0 = the configuration's (else 8 per GPU)
    int top = 5;
    double tokens_billions = 0;    // D in billions of tokens; 0 = no run figures
    bool offload = true;
    bool expert_parallel = true;
    int max_micro_batch = 16;      // the tab's default keeps a click under a second for large searches
};

// The request for the current configuration: mode train, the tab's fields over it.
PlanRequest plan_request(const Config& current, const PlanInputs& in);

// One table row's cells, as text (the same formatting natively and in the browser).
struct PlanRowText {
    std::string layout;     // "tp 8 pp 16 dp 128, ZeRO 1, selective, interleaved v2"
    std::string step;       // "16.0 s"
    std::string compute, bubble, exposed;
    std::string mfu, hfu;   // "0.43"
    std::string memory;     // per GPU, "61.2 GiB"
    std::string run;        // "54.2 days, $12.3 M" or "" without tokens
};
PlanRowText plan_row_text(const PlanLayout& l);

// The memory breakdown of a layout, largest first: {"optimizer", "20.1 GiB"}, ...
std::vector<std::pair<std::string, std::string>> plan_memory_parts(const PlanLayout& l);

}  // namespace gpusizer::ui
