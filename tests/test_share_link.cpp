// test_share_link.cpp: the share link: short, versioned, readable, and only ever data.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("the documented example link", "[link]") {
    const Config c = config_from_link("#v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2&ctx=8192");
    CHECK(c.model.id == "llama-3-70b");
    CHECK(c.weights == "q4_k_m");
    CHECK(c.gpu == "rtx-4090");
    CHECK(c.gpus == 2);
    CHECK(c.context == 8192);
    // Written back: defaults left out, the GPU count folded into g.
    CHECK(link_from_config(c) == "#v=1&m=llama-3-70b&w=q4_k_m&ctx=8192&g=rtx-4090x2");
}

TEST_CASE("whole URLs, fragments and bare queries all read", "[link]") {
    for (const char* s : {"https://example.org/gpusizer/#v=1&m=mistral-7b&g=l4", "#v=1&m=mistral-7b&g=l4",
                          "v=1&m=mistral-7b&g=l4", "https://example.org/?v=1&m=mistral-7b&g=l4", "  #v=1&m=mistral-7b&g=l4\n"}) {
        INFO(s);
        const Config c = config_from_link(s);
        CHECK(c.model.id == "mistral-7b");
        CHECK(c.gpu == "l4");
        CHECK(c.gpus == 1);
    }
    CHECK(config_from_link("#v=1&m=llama-3-8b&g=mi300xx8").gpu == "mi300x");   // ids may end in x
    CHECK(config_from_link("#v=1&m=llama-3-8b&g=mi300xx8").gpus == 8);
    CHECK(config_from_link("#v=1&m=llama-3-8b&g=mi300x").gpus == 1);
}

TEST_CASE("every configuration survives a round trip", "[link]") {
    std::vector<Config> configs;
    configs.push_back(config_from_json(R"({"model": "llama-3-70b", "mode": "lora", "weights": "bf16", "kv_cache": "fp8",
        "batch": 4, "global_batch": 64, "context": 4096, "optimizer": "adamw_8bit", "zero": 2, "offload": "optimizer",
        "recompute": "full", "flash_attention": false, "sequence_parallel": true, "lora_rank": 64,
        "lora_targets": ["q_proj", "v_proj"], "gpu": "a100-80gb-sxm", "gpus": 16, "tp": 4, "pp": 1, "dp": 4,
        "runtime": "pytorch", "gpu_memory_utilization": 0.85, "quant_group_size": 64, "prefill_chunk": 2048})"));
    configs.push_back(config_from_json(R"({"model": {"num_parameters": 13e9}, "gpu": "rtx-3090", "gpus": 3})"));
    configs.push_back(config_from_json(R"({"model": {"hf_config": {"model_type": "llama", "num_hidden_layers": 2,
        "hidden_size": 256, "intermediate_size": 512, "num_attention_heads": 4, "vocab_size": 1000, "name": "a&b=c#d"}}})"));
    configs.push_back(config_from_json(R"({"model": "mixtral-8x7b", "weights": "q4_k_m", "runtime": "vllm"})"));
    configs.push_back(config_from_json(R"({"model": "llama-3-70b", "mode": "train", "gpu": "h100-sxm", "gpus": 32,
        "train_tokens": 1.5e12, "mfu": 0.45, "bandwidth_efficiency": 0.7, "utilization": 0.8, "pue": 1.3, "usd_per_kwh": 0.12,
        "link": "nvlink4", "inter_node_link": "infiniband-ndr", "layer_overhead_us": 12.5})"));
    configs.push_back(config_from_json(R"({"model": "qwen2.5-72b", "weights": "q4_k_m", "runtime": "llama.cpp",
        "prompt_tokens": 3000, "host_memory_bandwidth_gb_per_s": 83.2, "layer_overhead_us": 0})"));
    for (const Config& c : configs) {
        const std::string link = link_from_config(c);
        INFO(link);
        const Config back = config_from_link(link);
        CHECK(config_to_json(back) == config_to_json(c));
        CHECK(link_from_config(back) == link);
    }
}

TEST_CASE("every configuration key has a link key: a link is the whole configuration", "[link]") {
    const nlohmann::json keys = nlohmann::json::parse(config_to_json(Config{}));
    for (auto it = keys.begin(); it != keys.end(); ++it) {
        INFO(it.key());
        CHECK(!link_key_of(it.key()).empty());
    }
    CHECK(link_key_of("weights") == "w");
    CHECK(link_key_of("no_such_key").empty());
}

TEST_CASE("a link reproduces the same report as the configuration", "[link]") {
    const Config c = config_from_json(R"({"model": "deepseek-r1", "weights": "fp8", "runtime": "vllm", "gpu": "h200", "gpus": 8,
        "context": 32768})");
    const Report a = run(c);
    const Report b = run(config_from_link(link_from_config(c)));
    CHECK(report_to_json(a) == report_to_json(b));
}

TEST_CASE("bad and hostile links: one clear message, never markup", "[link][errors]") {
    const BadInput cases[] = {
        {"", "empty", ""},
        {"#", "empty", ""},
        {"#m=llama-3-8b", "version", ""},
        {"#v=2&m=llama-3-8b", "version", ""},
        {"#v=1", "model", ""},
        {"#v=1&m=llama-3-8b&m=llama-3-70b", "twice", ""},
        {"#v=1&m=llama-3-8b&zz=1", "unknown key", ""},
        {"#v=1&m=llama-3-8b&ctx=lots", "context", ""},
        {"#v=1&m=llama-3-8b&ctx=99999999999999999999", "context", ""},
        {"#v=1&m=llama-3-8b&b=0", "batch", ""},
        {"#v=1&m=llama-3-8b&fa=maybe", "flash_attention", ""},
        {"#v=1&m=llama-3-8b&w=%ZZ", "escape", ""},
        {"#v=1&m=llama-3-8b&w=%4", "escape", ""},
        {"#v=1&m=llama-3-8b&w=q9", "weights", ""},
        {"#v=1&m=custom", "custom", ""},
        {"#v=1&m=custom&hf=%7Bnot%20json", "hf_config", ""},
        {"#v=1&m=llama-3-8b&np=7e9", "custom", ""},
        {"#v=1&m=llama-3-8b&gmu=2", "gpu_memory_utilization", ""},
        {"#v=1&m=llama-3-8b&=3", "key=value", ""},
        {"#v=1&m=llama-3-8b&justakey", "key=value", ""},
        {"#v=1&m=llama-3-8b&g=rtx-4090x0", "gpus", ""},
        // Found by fuzz_link: a number too large for a double in the pasted config.json.
        {"#v=1&m=custom&hf=%7B%22model_type%22%3A%22gpt2%22%2C%22n_layer%22%3A50257E350257%7D&g=t4", "hf_config", ""},
    };
    expect_errors(cases, [](const std::string& link) { return config_from_link(link); });
    // Markup in a link is just an unknown model id; the message quotes it as text.
    const std::string hostile = "#v=1&m=%3Cscript%3Ealert(1)%3C%2Fscript%3E&g=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E";
    const Config c = config_from_link(hostile);   // parses: values are data
    CHECK(c.model.id == "<script>alert(1)</script>");
    CHECK_THROWS_WITH(run(c), Catch::Contains("unknown model"));
    CHECK_THROWS_WITH(config_from_link(std::string(200000, 'a')), Catch::Contains("longer than"));
}

TEST_CASE("a link keeps every number exactly, in as few digits as that takes (QA D13)", "[link]") {
    // Doubles that ten significant digits do not hold (the QA's mfu 0.6631891369819641 became
    // 0.663189137), and values people type, which stay as typed.
    Config c;
    c.model.id = "llama-3-8b";
    for (const double mfu : {0.6631891369819641, 0.1 + 0.2, 1.0 / 3.0, 0.61, 0.5, 0.123456789012345}) {
        c.mfu = mfu;
        const std::string link = link_from_config(c);
        CHECK(config_from_link(link).mfu == mfu);
        if (mfu == 0.61) CHECK_THAT(link, Catch::Contains("&mfu=0.61&") || Catch::EndsWith("&mfu=0.61"));
        if (mfu == 0.1 + 0.2) CHECK_THAT(link, Catch::Contains("mfu=0.30000000000000004"));
    }
    c.usd_per_kwh = 0.1 * 3;   // 0.30000000000000004, a computed price
    CHECK(config_from_link(link_from_config(c)).usd_per_kwh == c.usd_per_kwh);
}
