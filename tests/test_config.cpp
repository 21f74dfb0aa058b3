// test_config.cpp: the configuration JSON, the interface the CLI, the web API and links share.
#include <catch2/catch.hpp>

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
        {R"({"model": "llama-3-8b", "weights": "q4_k_s"})", "weights", "q4_k_m"},
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
