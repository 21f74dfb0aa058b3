// test_ui_plan.cpp: the Plan tab's logic (ui/plan_state.cpp), no display needed: the request it
// builds from the current configuration, and the texts of its table rows.
#include <algorithm>

#include <catch2/catch.hpp>

#include "gpusizer/format.hpp"
#include "gpusizer/gpusizer.hpp"
#include "plan_state.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::ui;
using gpusizer::test::catalog;

TEST_CASE("plan tab: the request from the current configuration", "[ui][plan]") {
    Config c;
    c.model.id = "llama-3-8b";
    c.gpu = "h100-sxm";
    c.gpus = 8;
    c.batch = 2;
    c.context = 2048;   // an inference configuration: the tab plans its training
    PlanInputs in;
    PlanRequest q = plan_request(c, in);
    CHECK(q.mode == PlanMode::train);
    CHECK(q.base.mode == Mode::train);
    CHECK(q.base.global_batch == 16);   // no global batch given: batch 2 on each of 8 GPUs
    CHECK(q.tokens == 0);
    in.global_batch = 64;
    in.tokens_billions = 15000;   // Llama 3's 15T tokens
    in.top = 500;                 // held to the search's 100
    in.offload = false;
    q = plan_request(c, in);
    CHECK(q.base.global_batch == 64);
    CHECK(q.tokens == 15e12);
    CHECK(q.top == 100);
    CHECK_FALSE(q.offload);
}

TEST_CASE("plan tab: the rows it shows", "[ui][plan]") {
    Config c;
    c.model.id = "llama-3-8b";
    c.gpu = "h100-sxm";
    c.gpus = 8;
    c.context = 2048;
    PlanInputs in;
    in.global_batch = 16;
    in.tokens_billions = 1000;
    in.top = 3;
    const PlanReport p = plan(plan_request(c, in), catalog());
    REQUIRE(p.top.size() == 3);
    const PlanRowText t = plan_row_text(p.top[0]);
    const Config& l = p.top[0].config;
    CHECK(t.layout.rfind("tp " + std::to_string(l.tp) + " pp " + std::to_string(l.pp) + " dp " + std::to_string(l.dp), 0) == 0);
    CHECK(t.step == format_duration(p.top[0].report.speed.train_step_s));
    CHECK(t.memory == format_gib(p.top[0].report.per_gpu.total(), 1));
    CHECK(t.run.find("days") != std::string::npos);   // 1T tokens on 8 GPUs take days
    CHECK(t.run.find('$') != std::string::npos);      // the H100 has a catalog price
    // The memory parts: all five, largest first.
    const auto parts = plan_memory_parts(p.top[0]);
    REQUIRE(parts.size() == 5);
    const MemoryParts& m = p.top[0].report.per_gpu;
    const double largest = std::max({m.weights, m.gradients, m.optimizer, m.activations, m.overhead});
    CHECK(parts[0].second == format_gib(largest, 1));
}
