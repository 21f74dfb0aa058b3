// test_config.cpp: the configuration JSON, the interface the CLI, the web API and links share.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include <functional>
#include <set>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("every key parses, with its unit and type", "[config]") {
    const Config c = config_from_json(R"({
        "model": "llama-3-70b", "mode": "lora", "weights": "bf16", "kv_cache": "fp8", "batch": 4,
        "global_batch": 64, "context": 4096, "optimizer": "adamw_8bit", "zero": 2, "offload": "optimizer",
        "recompute": "full", "flash_attention": false, "sequence_parallel": true, "lora_rank": 64,
        "lora_targets": ["q_proj", "v_proj"], "gpu": "a100-80gb-sxm", "gpus": 16, "tp": 4, "pp": 1, "dp": 4,
        "ep": 0, "runtime": "pytorch", "gpu_memory_utilization": 0.85, "quant_group_size": 64, "prefill_chunk": 2048})");
    CHECK(c.model.id == "llama-3-70b");
    CHECK(c.mode == Mode::lora);
    CHECK(c.kv_cache == "fp8");
    CHECK(c.batch == 4);
    CHECK(c.global_batch == 64);
    CHECK(c.context == 4096);
    CHECK(c.optimizer == Optimizer::adamw_8bit);
    CHECK(c.zero == 2);
    CHECK(c.offload == Offload::optimizer);
    CHECK(c.recompute == Recompute::full);
    CHECK_FALSE(c.flash_attention);
    CHECK(c.sequence_parallel);
    CHECK(c.lora_rank == 64);
    CHECK(c.lora_targets == (kLoraQ | kLoraV));
    CHECK(c.gpus == 16);
    CHECK(c.tp == 4);
    CHECK(c.dp == 4);
    CHECK(c.runtime == Runtime::pytorch);
    CHECK(c.gpu_memory_utilization == 0.85);
    CHECK(c.quant_group_size == 64);
    CHECK(c.prefill_chunk == 2048);
    const Report r = run(c);
    CHECK(r.parallel.tp == 4);
}

TEST_CASE("only model is required, defaults are documented values", "[config]") {
    const Config c = config_from_json(R"({"model": "llama-3-8b"})");
    const Report r = run(c);
    CHECK(r.config.mode == Mode::inference);
    CHECK(r.config.weights == "bf16");
    CHECK(r.config.kv_cache == "bf16");
    CHECK(r.config.batch == 1);
    CHECK(r.config.context == 8192);
    CHECK(r.config.gpu == "rtx-4090");
    CHECK(r.config.gpus == 1);
    CHECK(r.config.runtime == Runtime::pytorch);
}

TEST_CASE("configuration round trip: to JSON and back", "[config]") {
    const Config c = config_from_json(R"({"model": "mixtral-8x7b", "weights": "q4_k_m", "gpu": "rtx-3090", "gpus": 2,
        "context": 16384, "lora_targets": "all-linear"})");
    const Config d = config_from_json(config_to_json(c));
    CHECK(run(d).per_gpu.total() == run(c).per_gpu.total());
    const Config custom = config_from_json(R"({"model": {"hf_config": {"model_type": "llama", "num_hidden_layers": 2,
        "hidden_size": 256, "intermediate_size": 512, "num_attention_heads": 4, "vocab_size": 1000}}})");
    const Config custom2 = config_from_json(config_to_json(custom));
    CHECK(run(custom2).params == run(custom).params);
    const Config sized = config_from_json(R"({"model": {"num_parameters": 13e9}})");
    CHECK(run(config_from_json(config_to_json(sized))).params == Approx(13e9));
}

TEST_CASE("bad configurations: one message naming the key and what is allowed", "[config][errors]") {
    const BadInput cases[] = {
        {R"({"mode": "inference"})", "model", "required"},
        {R"({"model": 7})", "model", "catalog id"},
        {R"({"model": ""})", "model", "empty"},
        {R"({"model": {"weights": 1}})", "model", "hf_config"},
        {R"({"model": "llama-3-8b", "contxt": 4096})", "contxt", "nearest: context"},
        {R"({"model": "llama-3-8b", "mode": "serve"})", "mode", "inference, train, lora, qlora"},
        {R"({"model": "llama-3-8b", "weights": "q4_k_xl"})", "weights", "q4_k_m"},
        {R"({"model": "llama-3-8b", "kv_cache": 16})", "kv_cache", "string"},
        {R"({"model": "llama-3-8b", "batch": 2.5})", "batch", "integer"},
        {R"({"model": "llama-3-8b", "batch": 0})", "batch", "between 1"},
        {R"({"model": "llama-3-8b", "batch": "4"})", "batch", "integer"},
        {R"({"model": "llama-3-8b", "context": -1})", "context", "between"},
        {R"({"model": "llama-3-8b", "context": 1e12})", "context", "between"},
        {R"({"model": "llama-3-8b", "zero": 4})", "zero", "between 0 and 3"},
        {R"({"model": "llama-3-8b", "offload": "cpu"})", "offload", "optimizer+params"},
        {R"({"model": "llama-3-8b", "recompute": "partial"})", "recompute", "selective"},
        {R"({"model": "llama-3-8b", "recompute": 1})", "recompute", "string"},
        {R"({"model": "llama-3-8b", "flash_attention": "yes"})", "flash_attention", "true or false"},
        {R"({"model": "llama-3-8b", "lora_targets": ["q_proj", "qkv"]})", "lora_targets", "q_proj"},
        {R"({"model": "llama-3-8b", "lora_targets": []})", "lora_targets", "at least one"},
        {R"({"model": "llama-3-8b", "gpus": 0})", "gpus", "between 1"},
        {R"({"model": "llama-3-8b", "runtime": "tgi"})", "runtime", "llama.cpp"},
        {R"({"model": "llama-3-8b", "gpu_memory_utilization": 0})", "gpu_memory_utilization", "(0, 1]"},
        {R"({"model": "llama-3-8b", "optimizer": "lion"})", "optimizer", "adafactor"},
        {R"({"model": {"num_parameters": 1}})", "num_parameters", "between"},
        {R"({"model": {"num_parameters": "7B"}})", "num_parameters", "number"},
        {R"([1, 2])", "config", "object"},
        {R"({"model": "llama-3-8b",)", "config", "not valid JSON"},
        {"", "config", "not valid JSON"},
        {R"({"model": "llama-3-8b", "batch": 1E999999})", "config", "not valid JSON"},   // number overflow (fuzz_config)
    };
    expect_errors(cases, [](const std::string& text) { return config_from_json(text); });
}

TEST_CASE("speed, interconnect and power keys parse, resolve and round-trip", "[config]") {
    const nlohmann::json given = nlohmann::json::parse(R"({"model": "llama-3-70b", "mode": "train", "gpu": "h100-sxm",
        "gpus": 16, "train_tokens": 1e12, "mfu": 0.4, "bandwidth_efficiency": 0.8, "utilization": 0.7, "pue": 1.2,
        "usd_per_kwh": 0.09, "link": "nvlink4", "inter_node_link": "infiniband-hdr", "prompt_tokens": 1000,
        "host_memory_bandwidth_gb_per_s": 204.8, "layer_overhead_us": 5})");
    const Config c = config_from_json(given.dump());
    CHECK(c.train_tokens == 1e12);
    CHECK(c.layer_overhead_us == 5.0);
    // Every key comes back as given: the reader set its member and the writer read it.
    const nlohmann::json written = nlohmann::json::parse(config_to_json(c));
    for (const auto& [key, value] : given.items()) {
        INFO(key);
        CHECK(written.at(key) == value);
    }
    const Report r = run(c);
    CHECK(r.interconnect.inter_node_link == "infiniband-hdr");
    CHECK(r.speed.mfu == 0.4);
    CHECK(r.power.pue == 1.2);
    const Report again = run(config_from_json(config_to_json(r.config)));
    CHECK(again.speed.train_time_s == Approx(r.speed.train_time_s));
    CHECK(again.power.cost_usd == Approx(r.power.cost_usd));
    // null takes the default, which the report resolves.
    const Report d = run(config_from_json(R"({"model": "llama-3-8b", "mfu": null, "pue": null, "link": null})"));
    CHECK(d.config.mfu == 0.5);
    CHECK(d.config.pue == 1.0);
    CHECK(d.config.link == "pcie4");
    CHECK(d.config.usd_per_kwh == 0.15);
    CHECK(d.config.utilization == 1.0);
    CHECK(d.config.prompt_tokens == 4096);
    // The resolved defaults read back exactly: the report's config fed back is the same config.
    const Report l = run(config_from_json(R"({"model": "llama-3-70b", "weights": "q4_k_m", "gpus": 2})"));
    CHECK(l.config.layer_overhead_us == 90);  // llama.cpp's per-layer overhead, not 89.99999999999999
    CHECK(l.config.host_memory_bandwidth_gb_per_s == 76.8);
    CHECK(config_to_json(config_from_json(config_to_json(l.config))) == config_to_json(l.config));
}

TEST_CASE("bad speed, interconnect and power values name the key", "[config][errors]") {
    const BadInput cases[] = {
        {R"({"model": "llama-3-8b", "train_tokens": -1})", "train_tokens", "between 0"},
        {R"({"model": "llama-3-8b", "train_tokens": "1T"})", "train_tokens", "number"},
        {R"({"model": "llama-3-8b", "train_tokens": 1e20})", "train_tokens", "between"},
        {R"({"model": "llama-3-8b", "mfu": 0})", "mfu", "between"},
        {R"({"model": "llama-3-8b", "mfu": 1.2})", "mfu", "between"},
        {R"({"model": "llama-3-8b", "mfu": "45%"})", "mfu", "number"},
        {R"({"model": "llama-3-8b", "bandwidth_efficiency": 2})", "bandwidth_efficiency", "between"},
        {R"({"model": "llama-3-8b", "bandwidth_efficiency": [0.8]})", "bandwidth_efficiency", "number"},
        {R"({"model": "llama-3-8b", "link": 4})", "link", "string"},
        {R"({"model": "llama-3-8b", "inter_node_link": false})", "inter_node_link", "string"},
        {R"({"model": "llama-3-8b", "prompt_tokens": -5})", "prompt_tokens", "between"},
        {R"({"model": "llama-3-8b", "prompt_tokens": 10.5})", "prompt_tokens", "integer"},
        {R"({"model": "llama-3-8b", "host_memory_bandwidth_gb_per_s": 0})", "host_memory_bandwidth_gb_per_s", "between"},
        {R"({"model": "llama-3-8b", "layer_overhead_us": -1})", "layer_overhead_us", "between"},
    };
    expect_errors(cases, [](const std::string& text) { return config_from_json(text); });
    // Checks that need the catalog or the resolved context happen in estimate().
    Config c = config("llama-3-8b");
    c.link = "pcie9";
    CHECK_THROWS_WITH(run(c), Catch::Contains("link") && Catch::Contains("pcie5"));
    c.link.clear();
    c.context = 2048;
    c.prompt_tokens = 4096;
    CHECK_THROWS_WITH(run(c), Catch::Contains("prompt_tokens") && Catch::Contains("2048"));
    c.prompt_tokens = 0;
    c.mfu = -0.5;
    CHECK_THROWS_WITH(run(c), Catch::Contains("mfu"));
    c.mfu = 0;
    c.bandwidth_efficiency = std::nan("");
    CHECK_THROWS_WITH(run(c), Catch::Contains("bandwidth_efficiency"));
    c.bandwidth_efficiency = 0;
    c.train_tokens = -3;
    CHECK_THROWS_WITH(run(c), Catch::Contains("train_tokens"));
    c.train_tokens = 0;
    c.host_memory_bandwidth_gb_per_s = -1;
    CHECK_THROWS_WITH(run(c), Catch::Contains("host_memory_bandwidth_gb_per_s"));
}

// ---------------------------------------------------------------------------------------------
// The key table (gpusizer/config_keys.hpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("docs/config.md's key reference is generated from the key table", "[config][docs]") {
    std::ifstream in(std::string(GPUSIZER_TEST_DOCS) + "/config.md");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    const std::string begin = "<!-- keys:begin (generated: scripts/gen_config_docs.sh) -->\n";
    const std::string end = "<!-- keys:end -->";
    const auto a = doc.find(begin);
    const auto b = doc.find(end);
    REQUIRE(a != std::string::npos);
    REQUIRE(b != std::string::npos);
    INFO("docs/config.md is out of date: run scripts/gen_config_docs.sh");
    CHECK(doc.substr(a + begin.size(), b - a - begin.size()) == config_keys_markdown());
}

TEST_CASE("each key row: unique JSON name, link key and flag, reachable by each", "[config]") {
    std::set<std::string> names, links, flags;
    for (const ConfigKey& k : config_keys()) {
        INFO(k.name);
        CHECK(names.insert(k.name).second);
        CHECK(flags.insert(k.flag).second);
        if (std::string(k.link) != "g") CHECK(links.insert(k.link).second);
        CHECK(find_config_key(k.name) == &k);
        CHECK(find_flag_key(k.flag) == &k);
        if (k.kind == KeyKind::integer || k.kind == KeyKind::number) CHECK(k.min < k.max);
        CHECK(!key_usage_help(k).empty());   // the row's line, or one written from the table it names
    }
}

TEST_CASE("the table's ranges are the ones estimate() enforces on a Config", "[config][errors]") {
    // Just past the top of each integer or number key's range, set on the struct directly (as the
    // app does), is refused by estimate() with the key's name.
    for (const ConfigKey& k : config_keys()) {
        if (k.kind != KeyKind::integer && k.kind != KeyKind::number) continue;
        INFO(k.name);
        Config c = config("llama-3-8b");
        set_key_number(c, k, k.max * 2 + 1);
        const std::string e = thrown_message([&] { (void)run(c); });
        CHECK(e.rfind(std::string(k.name) + ": must be", 0) == 0);
    }
}

TEST_CASE("errors carry a code and a key path", "[config][errors]") {
    try {
        (void)config_from_json(R"({"model": "llama-3-8b", "batch": 0})");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::bad_value);
        CHECK(e.key() == "batch");
        CHECK(e.message() == "must be between 1 and 1048576 sequences, got 0");
        const Error outer = e.prefixed("config.json");
        CHECK(outer.key() == "config.json: batch");
        CHECK(std::string(outer.what()) == "config.json: batch: must be between 1 and 1048576 sequences, got 0");
        CHECK(outer.path() == std::vector<std::string>{"config.json", "batch"});
        CHECK(outer.code() == ErrorCode::bad_value);
    }
    Config c = config("llama-3-8b", "no-such-gpu");
    try {
        (void)run(c);
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::unknown_id);
        CHECK(e.key() == "gpu");
    }
}

// ---------------------------------------------------------------------------------------------
// JSON limits: every JSON text the core reads goes through one parser with depth and size limits
// ---------------------------------------------------------------------------------------------

namespace {

std::string nested_arrays(int depth) { return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']'); }

std::string nested_objects(int depth) {
    std::string s;
    for (int i = 0; i < depth; ++i) s += "{\"a\":";
    s += "1";
    s += std::string(std::size_t(depth), '}');
    return s;
}

ErrorCode code_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.code();
    }
    return ErrorCode::internal;
}

}  // namespace

TEST_CASE("deeply nested JSON is refused before it is built, naming the input", "[config][errors][limits]") {
    // 8,000 levels: a 16 KB link of "[[[[..." (the browser's stack overflowed on such links).
    const std::string deep = nested_arrays(8000);
    CHECK(code_of([&] { (void)config_from_json(deep); }) == ErrorCode::too_deep);
    CHECK(thrown_message([&] { (void)config_from_json(deep); }).rfind("config: nests deeper than 64 levels", 0) == 0);
    const std::string deep_model = R"({"model": {"hf_config": )" + nested_objects(8000) + "}}";
    CHECK(thrown_message([&] { (void)config_from_json(deep_model); }).find("at key 'a'") != std::string::npos);

    std::string pct;   // the same nesting as a share link's hf= payload, %-encoded
    for (int i = 0; i < 4000; ++i) pct += "%7B%22a%22%3A";
    const std::string link = "#v=1&m=custom&hf=" + pct + "1" + std::string(4000, '}');
    CHECK(code_of([&] { (void)config_from_link(link); }) == ErrorCode::too_deep);
    CHECK(thrown_message([&] { (void)config_from_link(link); }).rfind("model.hf_config", 0) == 0);

    CHECK(code_of([&] { (void)arch_from_hf_config(nested_objects(5000)); }) == ErrorCode::too_deep);
    CHECK(code_of([&] { (void)catalog_from_json(nested_arrays(5000), read_asset("models.json")); }) == ErrorCode::too_deep);
    CHECK(code_of([&] { (void)measured_report_from_json(nested_arrays(5000)); }) == ErrorCode::too_deep);
    // 64 levels are allowed: the limit is on depth, not on nesting as such.
    CHECK(code_of([&] { (void)config_from_json(nested_arrays(64)); }) == ErrorCode::bad_value);   // parses, then "must be an object"
}

TEST_CASE("JSON text beyond the size limit is refused before parsing", "[config][errors][limits]") {
    const std::string huge = "{\"model\": \"" + std::string(std::size_t(17) << 20, 'a') + "\"}";   // 17 MiB > 16 MiB
    CHECK(code_of([&] { (void)config_from_json(huge); }) == ErrorCode::too_large);
    CHECK(thrown_message([&] { (void)config_from_json(huge); }).rfind("config: is ", 0) == 0);
}

TEST_CASE("estimate with options returns the whole report, the other link included", "[config][links]") {
    Config c = config("llama-3-70b", "h100-sxm");
    c.gpus = 4;
    const Report plain = run(c);
    CHECK(plain.interconnect.alternative.link.empty());   // the cheap call leaves it out
    const Report whole = estimate(c, catalog(), EstimateOptions{true});
    const LinkTimes alt = alternative_link(c, catalog());
    CHECK(!whole.interconnect.alternative.link.empty());
    CHECK(whole.interconnect.alternative.link == alt.link);
    CHECK(whole.interconnect.alternative.decode_tokens_per_s == alt.decode_tokens_per_s);
    CHECK(whole.per_gpu.total() == plain.per_gpu.total());
}

TEST_CASE("models built by model_from_* are the ones the configuration JSON describes", "[config][custom]") {
    // Llama 3 8B's numbers (meta-llama/Meta-Llama-3-8B config.json): 32 layers, hidden 4096,
    // intermediate 14336, 32 heads, 8 KV heads, vocabulary 128256, untied; ModelShape's defaults.
    Config by_shape = config("llama-3-8b");
    by_shape.model = model_from_shape(ModelShape{});
    Config by_text = config("llama-3-8b");
    by_text.model = model_from_hf_config(R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
        "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "tie_word_embeddings": false, "max_position_embeddings": 131072})");
    CHECK(by_shape.model.custom);
    CHECK(run(by_shape).params == run(by_text).params);
    CHECK(run(by_shape).params == run(config("llama-3-8b")).params);   // the catalog's Llama 3 8B
    // Written back as the configuration JSON's hf_config, so links and files carry it.
    CHECK(run(config_from_json(config_to_json(by_shape))).params == run(by_shape).params);
    // Experts make it a Mixtral: Mixtral 8x7B's numbers (mistralai/Mixtral-8x7B-v0.1 config.json).
    ModelShape moe;
    moe.hidden = 4096;
    moe.vocab = 32000;
    moe.experts = 8;
    moe.max_context = 32768;
    Config mixtral = config("mixtral-8x7b");
    const double catalog_params = run(mixtral).params;
    mixtral.model = model_from_shape(moe);
    CHECK(mixtral.model.arch.is_moe());
    CHECK(run(mixtral).params == catalog_params);
    // A parameter count, as {"num_parameters": 13e9} reads it.
    Config sized = config("llama-3-8b");
    sized.model = model_from_parameter_count(13e9);
    CHECK(run(sized).params == Approx(13e9));
    CHECK(model_from_catalog("llama-3-70b").id == "llama-3-70b");
    // Errors name the key, as the JSON path does.
    ModelShape empty;
    empty.layers = 0;
    CHECK(thrown_message([&] { (void)model_from_shape(empty); }).find("num_hidden_layers") != std::string::npos);
    CHECK(thrown_message([] { (void)model_from_parameter_count(1e3); }).find("model.num_parameters") != std::string::npos);
    CHECK(thrown_message([] { (void)model_from_hf_config("{"); }).find("hf_config") != std::string::npos);
}

TEST_CASE("optional keys: std::nullopt is \"not given\", written as null", "[config]") {
    const Config c = config_from_json(R"({"model": "llama-3-8b"})");
    CHECK_FALSE(c.prefill_chunk.has_value());
    CHECK_FALSE(c.layer_overhead_us.has_value());
    const std::string text = config_to_json(c, -1);
    CHECK(text.find("\"prefill_chunk\":null") != std::string::npos);
    CHECK(text.find("\"layer_overhead_us\":null") != std::string::npos);
    // 0 meant "the runtime's default" before prefill_chunk was optional: files that say so still read.
    CHECK_FALSE(config_from_json(R"({"model": "llama-3-8b", "prefill_chunk": 0})").prefill_chunk.has_value());
    // For layer_overhead_us, 0 is a value (no overhead), distinct from not given (the runtime's).
    const Config zero = config_from_json(R"({"model": "llama-3-8b", "layer_overhead_us": 0, "runtime": "llama.cpp"})");
    REQUIRE(zero.layer_overhead_us.has_value());
    CHECK(*zero.layer_overhead_us == 0);
    CHECK(*run(zero).config.layer_overhead_us == 0);
    Config llama = zero;
    llama.layer_overhead_us.reset();
    CHECK(*run(llama).config.layer_overhead_us == 90);   // llama.cpp's default, resolved into the report
}
