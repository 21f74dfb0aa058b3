// test_ui_state.cpp: the UI's logic (state <-> configuration <-> link), no display needed.
#include <catch2/catch.hpp>

#include <algorithm>

#include "gpusizer/format.hpp"
#include "state.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::ui;
using gpusizer::test::catalog;

TEST_CASE("the app opens on the seed article's example, and its link reads back", "[ui]") {
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
    s.numbers = ModelShape{};   // Llama 3 8B's shape
    s.numbers.max_context = 8192;
    REQUIRE(apply_model_source(s));
    CHECK(estimate(s.config, catalog()).params == 8030261248.0);
    s.numbers.experts = 8;       // a Mixtral-style MoE of the same shape
    REQUIRE(apply_model_source(s));
    CHECK(estimate(s.config, catalog()).active_params < estimate(s.config, catalog()).params);

    s.source = ModelSource::hf_config;
    s.hf_text =
        "{\"model_type\": \"gpt2\", \"n_layer\": 12, \"n_embd\": 768, \"n_head\": 12, \"n_positions\": 1024, \"vocab_size\": 50257}";
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

// Context parallelism in the manual split (training): cp divides the GPUs left after tp, and
// 2 x cp divides the context (the estimate refuses the rest); every split the panel can reach
// estimates, and inference or a new GPU count that cp no longer divides sets it back to 1.
TEST_CASE("the manual split offers context parallelism for training", "[ui][parallel]") {
    const ModelArch& a = catalog().model("llama-3.1-70b").arch;   // 64 heads, 80 layers
    UiState s = default_state();
    s.config.model.id = "llama-3.1-70b";
    s.config.gpu = "h100-sxm";
    s.config.flash_attention = true;
    set_mode(s, Mode::train, &a);
    s.config.context = 32768;
    set_gpu_count(s, 32, &a);
    set_manual_parallel(s, true, &a);
    s.config.tp = 8;
    set_manual_parallel(s, true, &a);
    // 32 / 8 = 4 GPUs left: cp 1, 2 or 4 (32,768 is divisible by 2 x 4).
    CHECK(cp_choices(s.config) == std::vector<int>{1, 2, 4});
    s.config.context = 6;   // 2 x cp must divide the context: cp 1 only
    CHECK(cp_choices(s.config) == std::vector<int>{1});
    s.config.context = 32768;
    s.config.cp = 4;
    set_manual_parallel(s, true, &a);
    CHECK(s.config.cp == 4);
    CHECK(s.config.tp * s.config.cp * s.config.pp * s.config.dp == 32);
    CHECK_NOTHROW(estimate(s.config, catalog()));
    // Every GPU count keeps a split the estimate takes.
    for (int gpus = 1; gpus <= 64; ++gpus) {
        set_gpu_count(s, gpus, &a);
        INFO("gpus " << gpus << ": tp " << s.config.tp << " cp " << s.config.cp << " pp " << s.config.pp);
        CHECK(s.config.tp * s.config.cp * s.config.pp * s.config.dp == gpus);
        const auto cps = cp_choices(s.config);
        CHECK(std::find(cps.begin(), cps.end(), s.config.cp) != cps.end());
        CHECK_NOTHROW(estimate(s.config, catalog()));
    }
    // Inference has no cp; neither has the automatic split.
    set_gpu_count(s, 32, &a);
    set_mode(s, Mode::inference, &a);
    CHECK(s.config.cp == 1);
    CHECK(cp_choices(s.config) == std::vector<int>{1});
    set_mode(s, Mode::train, &a);
    s.config.cp = 2;
    set_manual_parallel(s, false, &a);
    CHECK(s.config.cp == 1);
}

TEST_CASE("switching the mode keeps the configuration valid, ZeRO bounds the offload", "[ui][workload]") {
    const ModelArch* a = &catalog().model("llama-3-70b").arch;
    UiState s = default_state();   // inference, Q4_K_M on 2 x RTX 4090
    s.config.runtime = Runtime::vllm;
    s.config.global_batch = 64;
    // Training: Q4_K_M cannot be trained, the weights become bf16; vLLM serves only, the runtime
    // goes back to automatic; the global batch is derived again.
    set_mode(s, Mode::train, a);
    CHECK(s.config.mode == Mode::train);
    CHECK(s.config.weights == "bf16");
    CHECK(s.config.runtime == Runtime::automatic);
    CHECK(s.config.global_batch == 0);
    CHECK_NOTHROW(estimate(s.config, catalog()));
    // ZeRO 3 with the parameters offloaded; stage 2 keeps the optimizer's offload only, stage 0 none.
    set_zero_stage(s.config, 3);
    s.config.offload = Offload::optimizer_params;
    CHECK_NOTHROW(estimate(s.config, catalog()));
    set_zero_stage(s.config, 2);
    CHECK(s.config.offload == Offload::optimizer);
    set_zero_stage(s.config, 0);
    CHECK(s.config.offload == Offload::none);
    CHECK(offload_allowed(Offload::none, 0));
    CHECK_FALSE(offload_allowed(Offload::optimizer, 0));
    CHECK(offload_allowed(Offload::optimizer, 1));
    CHECK_FALSE(offload_allowed(Offload::optimizer_params, 2));
    CHECK(offload_allowed(Offload::optimizer_params, 3));
    // QLoRA quantizes the base weights to NF4 (its paper's data type).
    set_mode(s, Mode::qlora, a);
    CHECK(s.config.weights == "nf4");
    // Back to inference: no ZeRO, no offload; bf16 stays, the estimate runs.
    set_zero_stage(s.config, 3);
    s.config.offload = Offload::optimizer_params;
    set_mode(s, Mode::inference, a);
    CHECK(s.config.zero == 0);
    CHECK(s.config.offload == Offload::none);
    CHECK(s.config.weights == "nf4");   // inference runs quantized weights as they are
    CHECK_NOTHROW(estimate(s.config, catalog()));
}

namespace {

// A one-device RTX 4090 report as gpusizer-cuda-bench writes it; the figures are test inputs.
std::string rtx4090_report_text() {
    MeasuredReport r;
    r.tool_version = "test";
    r.created_utc = "2026-01-01T00:00:00Z";
    r.mode = "quick";
    MeasuredDevice d;
    d.name = "NVIDIA GeForce RTX 4090";
    d.catalog_id = "rtx-4090";
    d.memory.total_bytes = 23.6 * 1024.0 * 1024.0 * 1024.0;
    d.memory.free_bytes = 23.0 * 1024.0 * 1024.0 * 1024.0;
    Measurement triad;
    triad.id = "memory.triad";
    triad.unit = "GB/s";
    triad.convention = "test";
    triad.stats.samples = 5;
    triad.stats.median = triad.stats.best = triad.stats.worst = triad.stats.mean = triad.stats.p05 = triad.stats.p95 = 907.0;
    d.measurements.push_back(triad);
    r.devices.push_back(d);
    return measured_report_to_json(r);
}

}  // namespace

TEST_CASE("opening a file: a benchmark report, a configuration, or a clear refusal", "[ui][files]") {
    UiState s = default_state();
    const std::string report = rtx4090_report_text();
    CHECK(looks_like_measured_report(report));
    CHECK_FALSE(looks_like_measured_report(R"({"model": "llama-3-8b", "gpu": "rtx-4090"})"));

    REQUIRE(open_file_text(s, "4090.json", report, catalog()));
    CHECK(s.measured.loaded);
    CHECK(s.measured.use);
    CHECK(s.measured.file == "4090.json");
    CHECK(s.message.find("1 device, 1 measurement ") != std::string::npos);
    // The state's overlay gives the measured bandwidth to the estimate's GPU, and only while in use.
    const GpuOverlay cal = measured_overlay_of(s, catalog());
    REQUIRE(cal.gpus.size() == 1);
    CHECK(cal.gpu(catalog(), "rtx-4090").memory_bandwidth_gb_per_s == Approx(907.0));
    const Report measured = estimate(s.config, catalog(), EstimateOptions{false, &cal});
    REQUIRE(measured.measured);
    CHECK(measured.measured->gpu_id == "rtx-4090");
    UiState unused = s;
    unused.measured.use = false;
    CHECK(measured_overlay_of(unused, catalog()).gpus.empty());

    // A configuration file opens like a pasted configuration, and keeps the report open.
    REQUIRE(open_file_text(s, "cfg.json", R"({"model": "llama-3-8b", "gpu": "rtx-4090", "gpus": 1})", catalog()));
    CHECK(s.config.model.id == "llama-3-8b");
    CHECK(s.measured.loaded);

    // Broken files: the state stays, the message names the file and the problem.
    const std::string before = link_of(s);
    std::string broken = report;
    broken.replace(broken.find("\"schema_version\": 1"), 19, "\"schema_version\": 7");
    for (const std::string& bad : {broken, std::string(R"({"schema_version": 1, "devices": "many"})"), std::string("{\"model\": 5}"),
                                   std::string("not json at all"), std::string()}) {
        INFO(bad.substr(0, 60));
        UiState t = s;
        CHECK_FALSE(open_file_text(t, "bad.json", bad, catalog()));
        CHECK(t.message_is_error);
        CHECK(link_of(t) == before);
        CHECK(t.measured.file == "4090.json");
    }
    UiState t = s;
    CHECK_FALSE(open_file_text(t, "bad.json", broken, catalog()));
    CHECK(t.message.find("bad.json") != std::string::npos);
    CHECK(t.message.find("schema_version") != std::string::npos);
}

TEST_CASE("a report of another GPU says which one it measured", "[ui][files]") {
    UiState s = default_state();
    REQUIRE(open_file_text(s, "4090.json", rtx4090_report_text(), catalog()));
    try {
        s.config.gpu = "h100-sxm";
        (void)measured_overlay_of(s, catalog());
        FAIL("a report of an RTX 4090 calibrated an H100");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("rtx-4090") != std::string::npos);
    }
}

TEST_CASE("the recommendation query follows the state, and classes filter", "[ui][recommend]") {
    UiState s = default_state();
    s.config.tp = 2;
    s.config.link = "nvlink4";
    RecommendQuery q = recommend_query(s);
    CHECK(q.base.model.id == "llama-3-70b");
    CHECK(q.base.tp == 0);          // every count gets its own split
    CHECK(q.base.link.empty());     // every GPU its own link
    CHECK(q.segments.empty());      // all classes
    s.recommend.segments[0] = false;   // no consumer cards
    s.recommend.budget_usd = 50000;
    s.recommend.max_gpus = 4;
    q = recommend_query(s);
    CHECK(q.segments.size() == 3);
    CHECK(q.budget_usd == 50000);
    const Recommendation rec = recommend(q, catalog());
    for (const RecommendRow& r : rec.recommended) {
        CHECK(r.segment != Segment::consumer);
        CHECK(r.gpus <= 4);
        CHECK((!r.price_known || r.price_usd <= 50000));
    }
    for (bool& b : s.recommend.segments) b = false;
    CHECK_FALSE(any_segment(s.recommend));
}

TEST_CASE("recommendations sort by any column, unknown figures go last both ways", "[ui][recommend]") {
    auto row = [](const char* name, int gpus, double price, bool known, double tps, double w) {
        RecommendRow r;
        r.gpu_name = name;
        r.gpus = gpus;
        r.price_usd = price;
        r.price_known = known;
        r.tokens_per_s = tps;
        r.system_w = w;
        r.per_gpu_total = gpus;
        return r;
    };
    const std::vector<RecommendRow> rows = {row("B", 2, 3000, true, 20, 900), row("A", 1, 0, false, 40, 500),
                                            row("C", 4, 1000, true, 10, 1500)};
    auto names = [](const std::vector<RecommendRow>& v) {
        std::string out;
        for (const auto& r : v) out += r.gpu_name;
        return out;
    };
    std::vector<RecommendRow> v = rows;
    sort_recommendations(v, RecommendColumn::price, true);
    CHECK(names(v) == "CBA");
    sort_recommendations(v, RecommendColumn::price, false);
    CHECK(names(v) == "BCA");   // the unknown price stays last
    sort_recommendations(v, RecommendColumn::tokens_per_s, false);
    CHECK(names(v) == "ABC");
    sort_recommendations(v, RecommendColumn::power, true);
    CHECK(names(v) == "ABC");
    sort_recommendations(v, RecommendColumn::gpus, false);
    CHECK(names(v) == "CBA");
    sort_recommendations(v, RecommendColumn::gpu, true);
    CHECK(names(v) == "ABC");
}

// QA D1: JSON nested thousands deep (a 16 KB link's hf=, a pasted or dropped configuration,
// a pasted config.json) overflowed the core's recursive JSON writer in the browser and killed
// the page. Every input edge of the app refuses it first, naming the key.
TEST_CASE("deeply nested JSON at the app's inputs is refused, naming the key", "[ui][errors]") {
    const auto hf = [](int deep) {
        return "{\"model_type\":\"llama\",\"num_hidden_layers\":2,\"hidden_size\":256,\"intermediate_size\":512,"
               "\"num_attention_heads\":4,\"vocab_size\":1000,\"x\":" +
               std::string(std::size_t(deep), '[') + std::string(std::size_t(deep), ']') + "}";
    };
    UiState s = default_state();
    const std::string before = link_of(s);
    CHECK_FALSE(open_link(s, "#v=1&m=custom&hf=" + hf(8000), catalog()));   // the QA's 16 KB link
    CHECK(s.message == "Link not opened: hf.x: is nested more than 100 levels deep");
    // Percent-encoded: "[" is %5B.
    std::string encoded = "#v=1&m=custom&hf=%7B%22x%22%3A";
    for (int i = 0; i < 10000; ++i) encoded += "%5B";
    CHECK_FALSE(open_link(s, encoded, catalog()));
    CHECK(s.message == "Link not opened: hf.x: is nested more than 100 levels deep");
    CHECK_FALSE(open_config_text(s, "{\"model\":{\"hf_config\":" + hf(7000) + "},\"gpu\":\"l4\"}", catalog()));
    CHECK(s.message == "Configuration not opened: model.hf_config.x: is nested more than 100 levels deep");
    CHECK_FALSE(open_file_text(s, "deep.json", "{\"model\":" + std::string(1000000, '['), catalog()));
    CHECK(s.message.find("is nested more than 100 levels deep") != std::string::npos);
    CHECK(link_of(s) == before);
    s.source = ModelSource::hf_config;
    s.hf_text = hf(5000);
    CHECK_FALSE(apply_model_source(s));
    CHECK(s.model_error == "model.hf_config.x: is nested more than 100 levels deep");
    // Below this check's limit the core's own JSON limit (64 levels, core/src/json_read.hpp)
    // refuses it, also naming where; well below both, config.json's unknown keys are ignored.
    CHECK_FALSE(open_link(s, "#v=1&m=custom&hf=" + hf(99), catalog()));
    CHECK(s.message.find("nests deeper than 64 levels") != std::string::npos);
    CHECK(open_link(s, "#v=1&m=custom&hf=" + hf(20), catalog()));
    // Brackets inside strings do not count.
    CHECK_NOTHROW(check_json_nesting("{\"a\": \"" + std::string(500, '[') + "\"}", "", "configuration"));
}

// QA D11: with the automatic split, more GPUs turned "Fits" into "Does not fit": Llama 3.1 405B
// in BF16 on H100 SXM was tp 128 on 128 GPUs but dp 192 (a full 764 GiB replica per GPU) on 192,
// because tp must divide the 128 heads and pp is at most the 126 layers. Now the count is split
// tp x pp x dp (tp inside a node). Every count that tp x pp can use fits.
TEST_CASE("the automatic split: more GPUs do not turn Fits into Does not fit", "[ui][parallel]") {
    UiState s = default_state();
    s.config.model.id = "llama-3.1-405b";
    s.config.weights = "bf16";
    s.config.gpu = "h100-sxm";
    s.config.context = 8192;
    for (const int gpus : {128, 192, 256, 384, 1024, 65536}) {
        INFO(gpus);
        set_gpu_count(s, gpus, current_arch(s, catalog()));
        const Report r = estimate(s.config, catalog());
        CHECK(r.fits);
        CHECK((long long)r.config.tp * r.config.pp * r.config.dp == gpus);
    }
    // 192 = tp 8 (tensor parallelism stays inside a node of 8 H100) x pp 24 across the nodes.
    set_gpu_count(s, 192, current_arch(s, catalog()));
    const Report r = estimate(s.config, catalog());
    CHECK(r.config.tp == 8);
    CHECK(r.config.pp == 24);
    CHECK(r.config.dp == 1);
}

// QA D13: sliders hold floats; 0.69 on the "GPU share" slider was 0.6899999976158142 in the
// link and a byte less usable memory when reopened. The value taken is the one shown.
TEST_CASE("slider values are rounded to the decimals they show", "[ui][links]") {
    CHECK(round_to_format(0.69f, "%.2f") == 0.69);
    CHECK(round_to_format(0.69f, "%.2f of board power") == 0.69);
    CHECK(round_to_format(0.123f, "$%.3f per kWh") == 0.123);
    CHECK(round_to_format(1234.6f, "%.0f") == 1235.0);
    CHECK(round_to_format(7.25f, "%.2f B") == 7.25);
    CHECK(round_to_format(0.5f, "no limit") == 0.5);   // no number shown: the float as it is
    // Through a link and back: the value is the one the slider showed.
    UiState s = default_state();
    s.config.runtime = Runtime::vllm;
    s.config.model.id = "llama-3-8b";
    s.config.weights = "bf16";
    s.config.gpu_memory_utilization = round_to_format(0.69f, "%.2f");
    const std::string link = link_of(s);
    CHECK(link.find("gmu=0.69") != std::string::npos);
    UiState t;
    REQUIRE(open_link(t, link, catalog()));
    CHECK(t.config.gpu_memory_utilization == 0.69);
    CHECK(estimate(t.config, catalog()).gpu_usable == estimate(s.config, catalog()).gpu_usable);
}

// The model line under the picker: the stack by layer kind, the experts, MTP layers and towers.
// Each expectation restates the model's config.json (assets/models.json hf_config).
TEST_CASE("the model line says what the stack is", "[ui][stack]") {
    const auto line = [](const char* id) {
        const CatalogModel* m = catalog().find_model(id);
        REQUIRE(m != nullptr);
        return stack_summary(m->arch, m->counts);
    };
    // Llama 3 8B: num_hidden_layers 32, no window, no experts.
    CHECK(line("llama-3-8b") == "32 layers, all full attention");
    // Mistral 7B v0.1: sliding_window 4096 in every layer.
    CHECK(line("mistral-7b") == "32 layers, all sliding 4k attention");
    // Gemma 2 9B: 42 layers alternating sliding (4096) and global, the first sliding
    // (modeling_gemma2.py: is_sliding = not bool(layer_idx % 2)).
    CHECK(line("gemma-2-9b") == "42 layers: 21 sliding 4k + 21 full");
    // DeepSeek-V3: 61 MLA layers, first_k_dense_replace 3, so MoE in 58: n_routed_experts 256,
    // num_experts_per_tok 8, n_shared_experts 1; num_nextn_predict_layers 1.
    CHECK(line("deepseek-v3") == "61 layers, all MLA attention; MoE in 58: 256 experts, 8 active + 1 shared; 1 MTP layer");
    // Mixtral 8x7B: 32 layers, num_local_experts 8, num_experts_per_tok 2, every layer MoE.
    CHECK(line("mixtral-8x7b").find("; 8 experts, 2 active") != std::string::npos);
    // T5-small: num_layers 6 encoder + num_decoder_layers 6 decoder.
    CHECK(line("t5-small") == "12 layers: 6 encoder + 6 decoder");

    // A hybrid built by hand: Mamba-2 layers with one full attention layer in four.
    ModelArch a = catalog().find_model("llama-3-8b")->arch;
    std::vector<LayerSpec> layers(8, a.kinds.at(0));
    for (int i = 0; i < 8; ++i)
        if (i % 4 != 3) {
            layers[std::size_t(i)].attn.kind = AttnKind::none;
            layers[std::size_t(i)].recurrent.kind = RecurrentKind::mamba2;
        }
    a.n_layers = 8;
    set_stack(a, layers);
    CHECK(stack_summary(a, ParamCounts{}) == "8 layers: 6 Mamba-2 + 2 full");   // no towers
}

// The UI's fields clamp to the key table's ranges (the ones estimate() checks), not to
// constants of their own: whatever a field is pushed to, the estimate takes it.
TEST_CASE("fields clamp to the configuration keys' ranges", "[ui][keys]") {
    for (const char* name : {"context", "batch", "lora_rank", "gpus", "gpu_memory_utilization", "train_tokens",
                             "utilization", "usd_per_kwh", "zero"}) {
        const ConfigKey* k = find_config_key(name);
        REQUIRE(k != nullptr);
        INFO(name);
        CHECK(clamp_to_key(name, 1e300) == k->max);
        const double low = clamp_to_key(name, -1e300);
        if (k->min_open) {
            CHECK(low > k->min);
            CHECK_NOTHROW(check_key_value(*k, low, UnsetValue::refused));
        } else {
            CHECK(low == k->min);
        }
        CHECK_NOTHROW(check_key_value(*k, clamp_to_key(name, 1e300), UnsetValue::refused));
    }
    CHECK(clamp_to_key("batch", 2.6) == 3);   // an integer key rounds
    CHECK(clamp_to_key("utilization", 0.5) == 0.5);
    CHECK_THROWS_AS(clamp_to_key("weights", 1), Error);   // not a number key
    CHECK_THROWS_AS(clamp_to_key("no_such_key", 1), Error);
}

// The manual split restates the estimate's divisibility rules (tp_choices, cp_choices,
// pp_choices): it must offer exactly the splits the estimate accepts, no more and no fewer.
TEST_CASE("the manual split offers exactly the splits the estimate accepts", "[ui][parallel]") {
    for (const char* model : {"llama-3-8b", "qwen2.5-7b"}) {
        const ModelArch& a = catalog().model(model).arch;
        for (int gpus = 1; gpus <= 12; ++gpus)
            for (int cp = 1; cp <= gpus; cp *= 2)
                for (int tp = 1; tp <= gpus / cp; ++tp)
                    for (int pp = 1; tp * cp * pp <= gpus; ++pp) {
                        if (gpus % (tp * cp * pp) != 0) continue;
                        Config c = gpusizer::test::training(model, "h100-sxm", gpus);
                        c.context = 8192;
                        c.tp = tp;
                        c.cp = cp;
                        c.pp = pp;
                        c.dp = gpus / (tp * cp * pp);
                        const auto tps = tp_choices(a, gpus / cp);
                        const auto cps = cp_choices(c);
                        const auto pps = pp_choices(a, gpus / cp, tp);
                        const bool offered = std::count(tps.begin(), tps.end(), tp) && std::count(cps.begin(), cps.end(), cp) &&
                                             std::count(pps.begin(), pps.end(), pp);
                        const std::string key = gpusizer::test::error_key(c);
                        const bool accepted = key != "tp" && key != "cp" && key != "pp" && key != "dp";
                        INFO(model << " on " << gpus << ": tp " << tp << ", cp " << cp << ", pp " << pp << " (refused by `" << key << "`)");
                        CHECK(offered == accepted);
                    }
    }
}

// The results' tabs wrap into rows instead of scrolling. Widths are the desktop's tabs at
// 390 px as ImGui 1.86 lays them out (label + 2 x FramePadding.x + 1): Memory 70, Speed &
// power 116, Plots 49, Compare GPUs 114; ItemInnerSpacing.x 4 between neighbours.
TEST_CASE("tabs wrap into as few rows as fit, evened out", "[ui][tabs]") {
    const std::vector<float> w = {70, 116, 49, 114};
    // All in one row when there is room (70 + 4 + 116 + 4 + 49 + 4 + 114 = 361).
    CHECK(wrap_rows(w, 4, 361) == std::vector<int>{0});
    // 360 px: two rows. Filled in turn they would be 243 | 114 wide; the even split is after
    // Speed & power: 70 + 4 + 116 = 190 | 49 + 4 + 114 = 167 (after Memory: 70 | 287; after
    // Plots: 243 | 114).
    CHECK(wrap_rows(w, 4, 360) == std::vector<int>{0, 2});
    CHECK(wrap_rows(w, 4, 250) == std::vector<int>{0, 2});
    // 189 px: Memory and Speed & power no longer share a row: three rows, filled in turn
    // 70 | 116 + 4 + 49 = 169 | 114; evened out 70 | 116 | 49 + 4 + 114 = 167 (the widest row
    // 167 instead of 169).
    CHECK(wrap_rows(w, 4, 189) == std::vector<int>{0, 1, 2});
    // Five 100 px tabs in 400 px (spacing 0): 400 | 100 filled in turn, 300 | 200 evened out.
    CHECK(wrap_rows({100, 100, 100, 100, 100}, 0, 400) == std::vector<int>{0, 3});
    // A tab wider than the width takes a row of its own (ImGui shrinks it); none is dropped.
    CHECK(wrap_rows({300, 10, 20}, 4, 100) == std::vector<int>{0, 1});
    CHECK(wrap_rows({10, 300, 20}, 4, 100) == std::vector<int>{0, 1, 2});
    CHECK(wrap_rows({}, 4, 100).empty());
}

// SGLang's mem_fraction_static and TensorRT-LLM's free_gpu_memory_fraction belong to their engine
// (the estimate refuses them on another): switching the runtime, or a mode that leaves the serving
// engine, drops them, so the app never ends on a configuration it cannot estimate.
TEST_CASE("an engine's memory fraction goes with its engine", "[ui][keys]") {
    UiState s = default_state();
    s.config.model.id = "llama-3-8b";
    s.config.weights = "bf16";
    s.config.gpu = "h100-sxm";
    const ModelArch* arch = current_arch(s, catalog());
    set_runtime(s, Runtime::sglang, arch);
    s.config.mem_fraction_static = 0.8;
    const Report sg = estimate(s.config, catalog());
    CHECK(sg.config.mem_fraction_static == 0.8);
    // Through a link and back.
    const std::string link = link_of(s);
    CHECK(link.find("mfs=0.8") != std::string::npos);
    UiState t;
    REQUIRE(open_link(t, link, catalog()));
    CHECK(t.config.mem_fraction_static == 0.8);
    // To vLLM: the SGLang fraction is dropped and the estimate runs.
    set_runtime(s, Runtime::vllm, arch);
    CHECK_FALSE(s.config.mem_fraction_static.has_value());
    CHECK_NOTHROW(estimate(s.config, catalog()));
    // TensorRT-LLM's, then training (which leaves the serving engine for the automatic runtime).
    set_runtime(s, Runtime::trt_llm, arch);
    s.config.free_gpu_memory_fraction = 0.95;
    CHECK(estimate(s.config, catalog()).config.free_gpu_memory_fraction == 0.95);
    set_runtime(s, Runtime::trt_llm, arch);   // the same runtime keeps it
    CHECK(s.config.free_gpu_memory_fraction == 0.95);
    set_mode(s, Mode::train, arch);
    CHECK(s.config.runtime == Runtime::automatic);
    CHECK_FALSE(s.config.free_gpu_memory_fraction.has_value());
    CHECK_NOTHROW(estimate(s.config, catalog()));
    // vLLM's KV pool as given (the app's KV pool slider): through a link, then gone with vLLM.
    set_mode(s, Mode::inference, arch);
    set_runtime(s, Runtime::vllm, arch);
    s.config.kv_cache_memory_bytes = 20.0 * 1024 * 1024 * 1024;
    CHECK(estimate(s.config, catalog()).memory_kv_pool_bytes == Approx(20.0 * 1024 * 1024 * 1024));
    UiState u;
    REQUIRE(open_link(u, link_of(s), catalog()));
    CHECK(u.config.kv_cache_memory_bytes == s.config.kv_cache_memory_bytes);
    set_runtime(s, Runtime::sglang, arch);
    CHECK_FALSE(s.config.kv_cache_memory_bytes.has_value());
    CHECK_NOTHROW(estimate(s.config, catalog()));
}

TEST_CASE("the custom GPU: prefilled from the chosen GPU, edited field by field, carried by links", "[ui][custom-gpu]") {
    UiState s = default_state();   // 2 x RTX 4090
    const double before = estimate(s.config, catalog()).per_gpu.total();
    // "Custom GPU" in the picker: the chosen card is its base, every figure prefilled.
    use_custom_gpu(s);
    CHECK(s.config.gpu == "custom");
    CHECK(s.config.custom_gpu.base == "rtx-4090");
    CHECK(s.config.custom_gpu.values.empty());
    const Report same = estimate(s.config, catalog());
    CHECK(same.per_gpu.total() == before);
    CHECK(same.gpu_name == "NVIDIA GeForce RTX 4090 (custom)");
    CHECK(link_of(s) == "#v=1&m=llama-3-70b&w=q4_k_m&ctx=8192&g=customx2&gc=b:rtx-4090");

    // "Start from my card, change the clocks": +10% bandwidth and a 500 W limit.
    const GpuField& bw = *find_gpu_field("memory_bandwidth_gb_per_s");
    const GpuField& tdp = *find_gpu_field("tdp_w");
    set_custom_gpu_number(s, catalog(), bw, 1108.8);   // 1,008 GB/s + 10%, as typed
    set_custom_gpu_number(s, catalog(), tdp, 500);
    set_custom_gpu_text(s, catalog(), *find_gpu_field("name"), "My 4090 OC");
    CHECK(link_of(s) == "#v=1&m=llama-3-70b&w=q4_k_m&ctx=8192&g=customx2&gc=b:rtx-4090~n:My%204090%20OC~bw:1108.8~tdp:500");
    const Report oc = estimate(s.config, catalog());
    CHECK(oc.gpu_name == "My 4090 OC");
    CHECK(oc.per_gpu.total() == before);   // memory does not depend on bandwidth or power
    CHECK(oc.power.gpu_w == 2 * 500);
    // A value back at the base's is taken out: the link stays as short as what differs.
    set_custom_gpu_number(s, catalog(), tdp, 450);
    CHECK_FALSE(s.config.custom_gpu.find("tdp_w"));
    // Numbers are clamped into the field's range; an unknown choice is refused by name.
    set_custom_gpu_number(s, catalog(), *find_gpu_field("memory_gib"), -5);
    CHECK(s.config.custom_gpu.find("memory_gib")->number == 0.25);
    set_custom_gpu_number(s, catalog(), *find_gpu_field("interconnect.pcie_gen"), 4.6);
    CHECK(s.config.custom_gpu.find("interconnect.pcie_gen")->number == 5);
    CHECK_THROWS_WITH(set_custom_gpu_text(s, catalog(), *find_gpu_field("vendor"), "acme"), Catch::Contains("gpu.vendor"));
    reset_custom_gpu_field(s, *find_gpu_field("memory_gib"));
    CHECK_FALSE(s.config.custom_gpu.find("memory_gib"));

    // The state round-trips through its link, custom GPU and all.
    UiState t = default_state();
    REQUIRE(open_link(t, link_of(s), catalog()));
    CHECK(t.config.gpu == "custom");
    CHECK(t.config.custom_gpu == s.config.custom_gpu);
    CHECK(link_of(t) == link_of(s));

    // Choosing a catalog GPU keeps the custom one for later, as does opening a link of a catalog GPU.
    t.config.gpu = "h100-sxm";
    CHECK(link_of(t).find("gc=") == std::string::npos);
    REQUIRE(open_link(t, "#v=1&m=llama-3-8b&g=l4", catalog()));
    CHECK(t.config.gpu == "l4");
    use_custom_gpu(t);
    CHECK(t.config.custom_gpu == s.config.custom_gpu);

    // Starting from nothing: the fields a GPU without a base must give are written out as they are.
    set_custom_gpu_base(t, catalog(), "");
    CHECK(t.config.custom_gpu.base.empty());
    for (const char* f :
         {"name", "memory_gib", "memory_bandwidth_gb_per_s", "tensor_tflops_dense.bf16", "tensor_tflops_dense.fp16", "tdp_w"})
        CHECK(t.config.custom_gpu.find(f));
    std::string error;
    const auto built = custom_gpu_build(t, catalog(), &error);
    REQUIRE(built);
    CHECK(built->gpu.memory_bandwidth_gb_per_s == Approx(1108.8));
    CHECK(built->gpu.memory_gib == 24);
    CHECK(built->gpu.vendor == "unknown");   // no longer the base's: a stated default
    // Another base keeps the fields set.
    set_custom_gpu_base(t, catalog(), "rtx-5090");
    CHECK(t.config.custom_gpu.base == "rtx-5090");
    CHECK(custom_gpu_build(t, catalog())->gpu.memory_gib == 24);
    CHECK_THROWS_WITH(set_custom_gpu_base(t, catalog(), "rtx-9090"), Catch::Contains("gpu.base"));
}

// QA E13: the search matched a plain substring, so "qwen2.5 7b", "deepseek r1" and "gpt oss" found
// nothing (the names are written with hyphens). Tokens now, split at spaces and hyphens.
TEST_CASE("search: tokens, whatever the spaces, hyphens and case", "[ui][search]") {
    CHECK(filter_matches("qwen2.5 7b", "qwen2.5-7b", "Qwen2.5 7B"));
    CHECK(filter_matches("deepseek r1", "deepseek-r1", "DeepSeek-R1"));
    CHECK(filter_matches("gpt oss", "gpt-oss-20b", "gpt-oss-20b"));
    CHECK(filter_matches("GPT-OSS", "gpt-oss-120b", ""));
    CHECK(filter_matches("4090", "rtx-4090", "NVIDIA GeForce RTX 4090"));
    CHECK(filter_matches("  ", "anything", ""));
    // Every token must be found, in the one text or the other.
    CHECK_FALSE(filter_matches("qwen 70b", "qwen2.5-7b", "Qwen2.5 7B"));
    CHECK_FALSE(filter_matches("llama mistral", "llama-3-8b", "Meta Llama 3 8B"));
}

TEST_CASE("a link naming a Hub model waits for the platform that fetches it (QA E5)", "[ui][links]") {
    UiState s = default_state();
    const std::string link = "#v=1&hf=Qwen/Qwen3-8B&ctx=4096&g=rtx-4090";
    // A platform that fetches the Hub: the link is taken, its other keys kept, and the message
    // says it is loading; the estimate waits (the core refuses an unfetched model by key).
    REQUIRE(open_link(s, link, catalog(), {}, true));
    CHECK(s.message == "Loading Qwen/Qwen3-8B from the Hugging Face Hub...");
    CHECK_FALSE(s.message_is_error);
    CHECK(s.config.gpu == "rtx-4090");
    CHECK(s.config.context == 4096);
    CHECK(s.config.model.hub == "Qwen/Qwen3-8B");
    CHECK(link_of(s).find("hf=Qwen/Qwen3-8B") != std::string::npos);
    CHECK_THROWS_WITH(estimate(s.config, catalog()), Catch::Contains("model.hub"));
    // Elsewhere (the desktop app, the CLI): refused with the core's message, the state unchanged.
    UiState d = default_state();
    CHECK_FALSE(open_link(d, link, catalog()));
    CHECK(d.message_is_error);
    CHECK(d.config.gpu == default_state().config.gpu);
}

TEST_CASE("Run it shows the engine last chosen while the report has it, else the runtime's", "[ui][launch]") {
    // Llama 3.1 8B bf16 on an H100 under vLLM: every engine runs it, vLLM's command first.
    Config c = gpusizer::test::serving("llama-3.1-8b", "h100-sxm", Runtime::vllm);
    const auto all = launch_commands(estimate(c, catalog()));
    REQUIRE(all.size() == 5);
    CHECK(launch_choice(all, Runtime::automatic) == 0);   // nothing chosen: the runtime's
    const int sglang = launch_choice(all, Runtime::sglang);
    REQUIRE(sglang > 0);
    CHECK(all[std::size_t(sglang)].first == Runtime::sglang);
    // GGUF weights: SGLang cannot run them, so the choice falls back to the runtime's command.
    c.runtime = Runtime::llama_cpp;
    c.weights = "q4_k_m";
    const auto gguf = launch_commands(estimate(c, catalog()));
    CHECK(launch_choice(gguf, Runtime::sglang) == 0);
    CHECK(gguf[0].first == Runtime::llama_cpp);
    // Training: nothing to show.
    CHECK(launch_choice(launch_commands(estimate(gpusizer::test::training("llama-3.1-8b", "h100-sxm"), catalog())), Runtime::vllm) == -1);
}

TEST_CASE("a pinned configuration: its link carries both, the rows compare them, a bad pin refuses the link", "[ui][pinned]") {
    UiState s = default_state();
    s.config = gpusizer::test::config("llama-3.1-8b", "rtx-4090");
    s.config.weights = "q8_0";
    s.pinned = s.config;
    s.config.gpu = "rtx-4060-ti-16gb";
    s.config.weights = "q4_k_m";
    s.config.context = 32768;
    // The pinned link's keys after "#v=1&", percent-encoded: '=' %3D, '&' %26.
    const std::string link = link_of(s);
    CHECK(link == "#v=1&m=llama-3.1-8b&w=q4_k_m&ctx=32768&g=rtx-4060-ti-16gb&pin=m%3Dllama-3.1-8b%26w%3Dq8_0%26g%3Drtx-4090");
    UiState t;
    REQUIRE(open_link(t, link, catalog()));
    REQUIRE(t.pinned);
    CHECK(t.pinned->gpu == "rtx-4090");
    CHECK(t.pinned->weights == "q8_0");
    CHECK(t.config.gpu == "rtx-4060-ti-16gb");
    CHECK(link_of(t) == link);
    // A link without a pin opens with none.
    REQUIRE(open_link(t, "#v=1&m=llama-3.1-8b&g=rtx-4090", catalog()));
    CHECK_FALSE(t.pinned);
    // A pinned configuration that cannot be read refuses the whole link, naming pin.
    const std::string before = link_of(t);
    CHECK_FALSE(open_link(t, "#v=1&m=llama-3.1-8b&pin=m%3Dno-such-model", catalog()));
    CHECK(t.message.find("pin") != std::string::npos);
    CHECK(link_of(t) == before);
    CHECK_FALSE(open_link(t, "#v=1&m=llama-3.1-8b&pin=m%3", catalog()));

    // The rows: the figures of both reports, and the difference now - pinned.
    const Report a = estimate(*s.pinned, catalog()), b = estimate(s.config, catalog());
    const std::vector<PinnedRow> rows = pinned_rows(a, b);
    auto row = [&](const std::string& name) {
        const auto it = std::find_if(rows.begin(), rows.end(), [&](const PinnedRow& r) { return r.figure == name && !r.heading; });
        REQUIRE(it != rows.end());
        return *it;
    };
    CHECK(row("GPUs").pinned == "1 x NVIDIA GeForce RTX 4090");
    CHECK(row("GPUs").difference == "changed");
    CHECK(row("model").difference.empty());
    CHECK(row("total").pinned == ui::format_gib(a.per_gpu.total()));
    CHECK(row("KV cache").now == ui::format_gib(b.per_gpu.kv_cache));
    // The default 8,192 tokens -> 32,768: four times the cache, +300%.
    CHECK(row("KV cache").difference == "+" + ui::format_gib(3 * a.per_gpu.kv_cache) + " (+300%)");
    CHECK(row("weights").difference.rfind("-", 0) == 0);   // q4_k_m is smaller than q8_0
    // A price the catalog lacks shows "-" and no difference (no rental rows for the 4060 Ti).
    if (!b.cost.rent_known) {
        CHECK(row("renting, per million tokens").now == "-");
        CHECK(row("renting, per million tokens").difference.empty());
    }
}

TEST_CASE("the context slider lands on the lengths engines use (QA E17)", "[ui]") {
    // The QA's taps: 1,937, 23,170 and 264,845 tokens went into links as they were.
    CHECK(round_context(1937) == 2048);
    CHECK(round_context(23170) == 24576);   // 1.5 x 16,384
    CHECK(round_context(264845) == 262144);
    CHECK(round_context(8192) == 8192);
    CHECK(round_context(5000) == 4096);   // log distance: ln(5000/4096) = 0.199 < ln(6144/5000) = 0.206
    CHECK(round_context(5200) == 6144);
    CHECK(round_context(1) == kContextMin);
    CHECK(round_context(1e9) == kContextMax);
}

TEST_CASE("a link's lang= sets the app's language, its messages speak it, and links carry a chosen one") {
    UiState s = default_state();
    CHECK(link_of(s).find("lang=") == std::string::npos);   // not chosen: the link stays as it was
    REQUIRE(open_link(s, "#v=1&m=llama-3.1-8b&g=rtx-4090&lang=pt-BR", catalog()));
    CHECK(s.language == Language::pt_br);
    CHECK(s.language_chosen);
    CHECK(s.message == "Link aberto.");
    CHECK(link_of(s).find("&lang=pt-BR") != std::string::npos);
    // The language changes no estimate: the core reads past the key.
    CHECK(config_from_link("#v=1&m=llama-3.1-8b&g=rtx-4090&lang=pt-BR").model.id == "llama-3.1-8b");
    // Back to English through a link; one the app does not have keeps the language and says so.
    REQUIRE(open_link(s, "#v=1&m=llama-3.1-8b&lang=en", catalog()));
    CHECK(s.language == Language::en);
    CHECK(s.message == "Opened the link.");
    REQUIRE(open_link(s, "#v=1&m=llama-3.1-8b&lang=de-DE", catalog()));
    CHECK(s.language == Language::en);
    CHECK(s.message.find("(lang=de-DE) is not one the app has") != std::string::npos);
    // A refused link leaves the language as it was.
    set_language(Language::en);
    CHECK_FALSE(open_link(s, "#v=1&m=no-such-model&lang=pt-BR", catalog()));
    CHECK(language() == Language::en);
    CHECK(s.language == Language::en);
    set_language(Language::en);
}

// The headline's lines break at spaces only: ImGui 1.86 also breaks after ',' and '.', which cut
// "8,192" in two on a phone. Widths here are one unit a character.
TEST_CASE("lines break at spaces only, never inside a figure", "[ui][wrap]") {
    const auto chars = [](std::string_view t) { return float(t.size()); };
    using L = std::vector<std::string_view>;
    // "8,192" stays whole although a break after its comma would fill the line better.
    CHECK(lines_at_spaces("Qwen3 on 8 x GPU, 8,192 tokens x 1", 20, 20, chars) == L{"Qwen3 on 8 x GPU,", "8,192 tokens x 1"});
    // The first line follows another item (less room); the rest take the whole width.
    CHECK(lines_at_spaces("10,29 GiB of 87,39 GiB per GPU", 10, 30, chars) == L{"10,29 GiB", "of 87,39 GiB per GPU"});
    // Exactly the room fits; one more character does not.
    CHECK(lines_at_spaces("abcd efgh", 9, 9, chars) == L{"abcd efgh"});
    CHECK(lines_at_spaces("abcd efgh", 8, 8, chars) == L{"abcd", "efgh"});
    // A word wider than the line stands alone; runs of spaces at a break belong to no line.
    CHECK(lines_at_spaces("a 1234567890 b", 5, 5, chars) == L{"a", "1234567890", "b"});
    CHECK(lines_at_spaces("  ab   cd  ", 4, 4, chars) == L{"ab", "cd"});
    CHECK(lines_at_spaces("", 10, 10, chars).empty());
    CHECK(lines_at_spaces("   ", 10, 10, chars).empty());
    // No room at all (a cell squeezed to nothing): a word a line, never an endless loop.
    CHECK(lines_at_spaces("x y", 0, 0, chars) == L{"x", "y"});
}
