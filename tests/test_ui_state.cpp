// test_ui_state.cpp: the UI's logic (state <-> configuration <-> link), no display needed.
#include <catch2/catch.hpp>

#include "state.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::ui;
using gpusizer::test::catalog;

TEST_CASE("the app opens on the issue's example, and its link reads back", "[ui]") {
    const UiState s = default_state();
    CHECK(link_of(s) == "#v=1&m=llama-3-70b&w=q4_k_m&ctx=8192&g=rtx-4090x2");
    UiState t;
    REQUIRE(open_link(t, link_of(s), catalog()));
    CHECK(t.config.model.id == "llama-3-70b");
    CHECK(t.config.gpus == 2);
    CHECK(t.source == ModelSource::catalog);
    CHECK(estimate(t.config, catalog()).per_gpu.total() == estimate(s.config, catalog()).per_gpu.total());
}

TEST_CASE("a bad link leaves the state as it was and says why", "[ui][errors]") {
    UiState s = default_state();
    const std::string before = link_of(s);
    for (const char* bad : {"#v=2&m=llama-3-8b", "#v=1&m=%3Cscript%3E", "#v=1&m=llama-3-8b&g=rtx-9999", "nonsense", ""}) {
        INFO(bad);
        CHECK_FALSE(open_link(s, bad, catalog()));
        CHECK(s.message_is_error);
        CHECK(s.message.rfind("Link not opened: ", 0) == 0);
        CHECK(link_of(s) == before);
    }
    CHECK_FALSE(open_config_text(s, "{\"model\": \"llama-3-8b\", \"batch\": -1}", catalog()));
    CHECK(s.message.find("batch") != std::string::npos);
    CHECK(link_of(s) == before);
}

TEST_CASE("custom models: parameter count, numbers, pasted config.json", "[ui]") {
    UiState s = default_state();
    s.source = ModelSource::parameters;
    s.custom_params_b = 13;
    REQUIRE(apply_model_source(s));
    CHECK(estimate(s.config, catalog()).params == Approx(13e9));

    s.source = ModelSource::numbers;
    s.numbers = ModelNumbers{};   // Llama 3 8B's shape
    s.numbers.max_context = 8192;
    REQUIRE(apply_model_source(s));
    CHECK(estimate(s.config, catalog()).params == 8030261248.0);
    s.numbers.experts = 8;       // a Mixtral-style MoE of the same shape
    REQUIRE(apply_model_source(s));
    CHECK(estimate(s.config, catalog()).active_params < estimate(s.config, catalog()).params);

    s.source = ModelSource::hf_config;
    s.hf_text = "{\"model_type\": \"gpt2\", \"n_layer\": 12, \"n_embd\": 768, \"n_head\": 12, \"n_positions\": 1024, \"vocab_size\": 50257}";
    REQUIRE(apply_model_source(s));
    CHECK(estimate(s.config, catalog()).params == 124439808.0);
    // The custom model travels in the link and comes back as a pasted config.
    UiState t;
    REQUIRE(open_link(t, link_of(s), catalog()));
    CHECK(t.source == ModelSource::hf_config);
    CHECK(estimate(t.config, catalog()).params == 124439808.0);

    // A broken paste keeps the previous model and says why.
    const std::string before = link_of(s);
    s.hf_text = "{\"model_type\": \"mamba\"}";
    CHECK_FALSE(apply_model_source(s));
    CHECK(s.model_error.find("mamba") != std::string::npos);
    CHECK(link_of(s) == before);
    s.hf_text = "   ";
    CHECK_FALSE(apply_model_source(s));
}

TEST_CASE("tensor / pipeline choices follow the GPU count and the model", "[ui][parallel]") {
    const ModelArch& a = catalog().model("llama-3-70b").arch;   // 64 heads, 80 layers
    CHECK(tp_choices(a, 8) == std::vector<int>{1, 2, 4, 8});
    CHECK(tp_choices(a, 6) == std::vector<int>{1, 2});
    CHECK(pp_choices(a, 8, 2) == std::vector<int>{1, 2, 4});
    UiState s = default_state();
    set_manual_parallel(s, true, &a);
    for (int gpus = 1; gpus <= 64; ++gpus) {
        set_gpu_count(s, gpus, &a);
        INFO("gpus " << gpus);
        CHECK(s.config.tp * s.config.pp * s.config.dp == gpus);
        CHECK(a.n_heads % s.config.tp == 0);
        CHECK_NOTHROW(estimate(s.config, catalog()));
    }
    set_manual_parallel(s, false, &a);
    CHECK(s.config.tp == 0);
    CHECK(s.config.pp == 0);
    CHECK(s.config.dp == 0);
}
