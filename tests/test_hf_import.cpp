// test_hf_import.cpp: Hugging Face config.json of every supported family.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("one config.json per family", "[hf_import]") {
    // Shapes of real checkpoints; the expected totals are each family's published or [calc] count.
    struct Row { const char* json; double params; };
    const Row rows[] = {
        // gpt2 (124M), learned positions, tied head.
        {R"({"model_type": "gpt2", "n_layer": 12, "n_embd": 768, "n_head": 12, "n_positions": 1024, "n_inner": null,
             "vocab_size": 50257, "resid_pdrop": 0.1})", 124439808.0},
        // gpt_bigcode (SantaCoder-like shape): multi-query attention.
        {R"({"model_type": "gpt_bigcode", "n_layer": 2, "n_embd": 256, "n_head": 4, "n_positions": 128,
             "vocab_size": 1000, "multi_query": true})",
         1000.0 * 256 + 128 * 256 + 2 * (2 * 512 + (256 * 384 + 384) + (256 * 256 + 256) + (256 * 1024 + 1024) + (1024 * 256 + 256)) + 512},
        // OPT-13B: ffn_dim, learned positions with an offset of 2.
        {R"({"model_type": "opt", "num_hidden_layers": 40, "hidden_size": 5120, "ffn_dim": 20480, "num_attention_heads": 40,
             "vocab_size": 50272, "max_position_embeddings": 2048, "word_embed_proj_dim": 5120, "do_layer_norm_before": true})",
         12853473280.0},
        // BERT base: encoder only, token types, pooler.
        {R"({"model_type": "bert", "num_hidden_layers": 12, "hidden_size": 768, "intermediate_size": 3072,
             "num_attention_heads": 12, "vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2})",
         109482240.0},
        // T5-small: encoder-decoder, relative position buckets, tied.
        {R"({"model_type": "t5", "num_layers": 6, "num_decoder_layers": 6, "d_model": 512, "d_ff": 2048, "d_kv": 64,
             "num_heads": 8, "vocab_size": 32128, "feed_forward_proj": "relu", "relative_attention_num_buckets": 32})",
         60506624.0},
        // Falcon-7B: multi-query, parallel attention with one LayerNorm.
        {R"({"model_type": "falcon", "num_hidden_layers": 32, "hidden_size": 4544, "num_attention_heads": 71,
             "vocab_size": 65024, "multi_query": true, "parallel_attn": true, "bias": false, "new_decoder_architecture": false})",
         6921720704.0},
        // Qwen2.5-0.5B: tied, q/k/v bias.
        {R"({"model_type": "qwen2", "num_hidden_layers": 24, "hidden_size": 896, "intermediate_size": 4864,
             "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936, "tie_word_embeddings": true,
             "sliding_window": 32768, "use_sliding_window": false})",
         494032768.0},
    };
    for (const Row& r : rows) {
        INFO(r.json);
        std::vector<std::string> warnings;
        const ModelArch a = arch_from_hf_config(r.json, &warnings);
        CHECK(count_params(a).total() == r.params);
    }
}

TEST_CASE("Qwen2 configs carry a window that is off unless use_sliding_window", "[hf_import]") {
    const ModelArch off = arch_from_hf_config(R"({"model_type": "qwen2", "num_hidden_layers": 2, "hidden_size": 64,
        "intermediate_size": 128, "num_attention_heads": 4, "vocab_size": 100, "sliding_window": 4096})");
    CHECK(off.sliding_window == 0);
    const ModelArch on = arch_from_hf_config(R"({"model_type": "mistral", "num_hidden_layers": 2, "hidden_size": 64,
        "intermediate_size": 128, "num_attention_heads": 4, "vocab_size": 100, "sliding_window": 4096})");
    CHECK(on.sliding_window == 4096);
}

TEST_CASE("multimodal configs: the language model under text_config", "[hf_import]") {
    std::vector<std::string> w;
    const ModelArch a = arch_from_hf_config(R"({"model_type": "llava", "text_config": {"model_type": "llama",
        "num_hidden_layers": 2, "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "vocab_size": 100}})", &w);
    CHECK(a.n_layers == 2);
    REQUIRE_FALSE(w.empty());
    CHECK(w[0].find("text_config") != std::string::npos);
}

TEST_CASE("unknown or incomplete configs are named", "[hf_import][errors]") {
    CHECK_THROWS_WITH(arch_from_hf_config(R"({"model_type": "mamba", "num_hidden_layers": 2})"),
                      Catch::Contains("mamba") && Catch::Contains("supported") && Catch::Contains("llama"));
    CHECK_THROWS_WITH(arch_from_hf_config(R"({"num_hidden_layers": 2})"), Catch::Contains("model_type"));
    CHECK_THROWS_WITH(arch_from_hf_config(R"({"model_type": "llama", "hidden_size": 64})"),
                      Catch::Contains("num_hidden_layers"));
    CHECK_THROWS_WITH(arch_from_hf_config(R"({"model_type": "llama", "num_hidden_layers": "32", "hidden_size": 64})"),
                      Catch::Contains("num_hidden_layers") && Catch::Contains("number"));
    CHECK_THROWS_WITH(arch_from_hf_config(R"({"model_type": "llama", "num_hidden_layers": -3})"), Catch::Contains("non-negative"));
    CHECK_THROWS_WITH(arch_from_hf_config("not json"), Catch::Contains("hf_config") && Catch::Contains("JSON"));
    CHECK_THROWS_WITH(arch_from_hf_config("[]"), Catch::Contains("object"));
}

TEST_CASE("architectural keys that are not understood are reported", "[hf_import]") {
    std::vector<std::string> w;
    (void)arch_from_hf_config(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
        "intermediate_size": 128, "num_attention_heads": 4, "vocab_size": 100, "num_experts_shared_big": 4,
        "torch_dtype": "bfloat16", "rms_norm_eps": 1e-5})", &w);
    REQUIRE(w.size() == 1);
    CHECK(w[0].find("num_experts_shared_big") != std::string::npos);
    CHECK(w[0].find("torch_dtype") == std::string::npos);
}

TEST_CASE("the importer reaches the report's warnings", "[hf_import]") {
    const Config c = config_from_json(R"({"model": {"hf_config": {"model_type": "llama", "num_hidden_layers": 2,
        "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "vocab_size": 100, "foo_layers": 3}}})");
    const Report r = run(c);
    bool found = false;
    for (const auto& w : r.warnings) found = found || w.find("foo_layers") != std::string::npos;
    CHECK(found);
}
