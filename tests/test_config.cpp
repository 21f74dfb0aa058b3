// test_config.cpp: the configuration JSON, the interface the CLI, the web API and links share.
#include <catch2/catch.hpp>

#include <cmath>

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

TEST_CASE("only model is required; defaults are documented values", "[config]") {
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
    struct Bad { const char* json; const char* mentions; const char* also; };
    const Bad cases[] = {
        {R"({"mode": "inference"})", "model", "required"},
        {R"({"model": 7})", "model", "catalog id"},
        {R"({"model": ""})", "model", "empty"},
        {R"({"model": {"weights": 1}})", "model", "hf_config"},
        {R"({"model": "llama-3-8b", "contxt": 4096})", "contxt", "known keys"},
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
    for (const Bad& b : cases) {
        INFO(b.json);
        try {
            (void)config_from_json(b.json);
            FAIL("accepted");
        } catch (const Error& e) {
            const std::string msg = e.what();
            CHECK(msg.find(b.mentions) != std::string::npos);
            CHECK(msg.find(b.also) != std::string::npos);
        }
    }
}

TEST_CASE("speed, interconnect and power keys parse, resolve and round-trip", "[config]") {
    const Config c = config_from_json(R"({"model": "llama-3-70b", "mode": "train", "gpu": "h100-sxm", "gpus": 16,
        "train_tokens": 1e12, "mfu": 0.4, "bandwidth_efficiency": 0.8, "utilization": 0.7, "pue": 1.2,
        "usd_per_kwh": 0.09, "link": "nvlink4", "inter_node_link": "infiniband-hdr", "prompt_tokens": 1000,
        "host_memory_bandwidth_gb_per_s": 204.8, "layer_overhead_us": 5})");
    CHECK(c.train_tokens == 1e12);
    CHECK(c.mfu == 0.4);
    CHECK(c.bandwidth_efficiency == 0.8);
    CHECK(c.utilization == 0.7);
    CHECK(c.pue == 1.2);
    CHECK(c.usd_per_kwh == 0.09);
    CHECK(c.link == "nvlink4");
    CHECK(c.inter_node_link == "infiniband-hdr");
    CHECK(c.prompt_tokens == 1000);
    CHECK(c.host_memory_bandwidth_gb_per_s == 204.8);
    CHECK(c.layer_overhead_us == 5);
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
    struct Bad { const char* json; const char* mentions; const char* also; };
    const Bad cases[] = {
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
    for (const Bad& b : cases) {
        INFO(b.json);
        try {
            (void)config_from_json(b.json);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find(b.mentions) != std::string::npos);
            CHECK(std::string(e.what()).find(b.also) != std::string::npos);
        }
    }
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
