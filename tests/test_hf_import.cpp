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
    // A model_type without a row is read by its fields; missing core fields are all named at once.
    CHECK_THROWS_WITH(arch_from_hf_config(R"({"model_type": "mamba", "num_hidden_layers": 2})"),
                      Catch::Contains("'mamba'") && Catch::Contains("core fields are missing") && Catch::Contains("hidden_size") &&
                          Catch::Contains("vocab_size"));
    CHECK_THROWS_WITH(arch_from_hf_config(R"({"num_hidden_layers": 2})"), Catch::Contains("hidden_size") && Catch::Contains("vocab_size"));
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
    CHECK(has_warning(r, "foo_layers"));
}

namespace {

// Qwen1.5-MoE-A2.7B's shape (Qwen/Qwen1.5-MoE-A2.7B config.json): 24 layers, hidden 2048,
// 60 routed experts of 1408 and a shared expert of 5632, dense width 5632.
std::string qwen2_moe(const std::string& extra) {
    return R"({"model_type": "qwen2_moe", "num_hidden_layers": 24, "hidden_size": 2048, "intermediate_size": 5632,
               "num_attention_heads": 16, "num_key_value_heads": 16, "vocab_size": 151936, "num_experts": 60,
               "num_experts_per_tok": 4, "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632,
               "tie_word_embeddings": false)" + extra + "}";
}

// A Qwen2-7B-shaped config (Qwen/Qwen2-7B: 28 layers, 4 KV heads of 128).
std::string qwen2_7b(const std::string& extra) {
    return R"({"model_type": "qwen2", "num_hidden_layers": 28, "hidden_size": 3584, "intermediate_size": 18944,
               "num_attention_heads": 28, "num_key_value_heads": 4, "vocab_size": 152064, "sliding_window": 4096,
               "use_sliding_window": true)" + extra + "}";
}

Report kv_of_custom(const ModelArch& a, long long context) {
    Config c;
    c.model.custom = true;
    c.model.arch = a;
    c.gpu = "h200";
    c.context = context;
    c.runtime = Runtime::pytorch;
    c.kv_cache = "bf16";
    return run(c);
}

}  // namespace

TEST_CASE("Qwen2-MoE: mlp_only_layers and decoder_sparse_step make dense layers", "[hf_import][layers]") {
    const ModelArch all_moe = arch_from_hf_config(qwen2_moe(""));
    const ModelArch half = arch_from_hf_config(qwen2_moe(R"(, "mlp_only_layers": [0,1,2,3,4,5,6,7,8,9,10,11])"));
    CHECK(count_params(all_moe).total() == 14315735040.0);   // the figure the importer gave before
    for (int i = 0; i < 24; ++i) CHECK(half.layer(i).is_moe() == (i >= 12));
    // Each of the 12 dense layers trades 60 experts (3 x 2048 x 1408 each), the shared expert
    // (3 x 2048 x 5632) and the router (2048 x 60) for one dense MLP (3 x 2048 x 5632).
    const double per_layer = 60.0 * 3 * 2048 * 1408 + 2048.0 * 60;
    CHECK(count_params(all_moe).total() - count_params(half).total() == 12 * per_layer);
    // transformers Qwen2MoeDecoderLayer: MoE when (layer_idx + 1) % decoder_sparse_step == 0.
    const ModelArch step2 = arch_from_hf_config(qwen2_moe(R"(, "decoder_sparse_step": 2)"));
    CHECK_FALSE(step2.layer(0).is_moe());
    CHECK(step2.layer(1).is_moe());
    CHECK(count_params(step2).n_moe == 12);
    CHECK_THROWS_WITH(arch_from_hf_config(qwen2_moe(R"(, "mlp_only_layers": [-1])")), Catch::Contains("mlp_only_layers"));
}

TEST_CASE("Qwen2: only layers from max_window_layers on slide", "[hf_import][layers][kv]") {
    // use_sliding_window with max_window_layers 28 on a 28-layer model slides no layer
    // (transformers Qwen2Config: sliding when i >= max_window_layers): every layer caches all
    // 32k tokens, 28 layers x 2 (K, V) x 4 heads x 128 x 2 B x 32768 = 1.75 GiB.
    const ModelArch none = arch_from_hf_config(qwen2_7b(R"(, "max_window_layers": 28)"));
    for (int i = 0; i < 28; ++i) CHECK(none.layer(i).attn.kind == AttnKind::full);
    CHECK(kv_of_custom(none, 32768).per_gpu.kv_cache == 28.0 * 2 * 4 * 128 * 2 * 32768);
    CHECK(kv_of_custom(none, 32768).per_gpu.kv_cache == 1.75 * kGiB);
    // max_window_layers 14: 14 full layers at 32768 tokens, 14 sliding ones at the 4096 window.
    const ModelArch half = arch_from_hf_config(qwen2_7b(R"(, "max_window_layers": 14)"));
    CHECK(kv_of_custom(half, 32768).per_gpu.kv_cache == 2.0 * 4 * 128 * 2 * (14.0 * 32768 + 14.0 * 4096));
    // The default (Qwen2Config: 28) applies when the key is absent.
    CHECK(arch_from_hf_config(qwen2_7b("")).layer(27).attn.kind == AttnKind::full);
}

TEST_CASE("an explicit layer_types wins over the pattern fields", "[hf_import][layers]") {
    const ModelArch a = arch_from_hf_config(qwen2_7b(
        R"(, "max_window_layers": 28, "layer_types": ["full_attention", "sliding_attention", "full_attention", "sliding_attention",
        "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
        "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
        "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
        "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention"])"));
    CHECK(a.layer(0).attn.kind == AttnKind::full);
    CHECK(a.layer(1).attn.kind == AttnKind::sliding);
    CHECK(a.layer(1).attn.window == 4096);
    CHECK(a.kinds.size() == 2);
    CHECK_THROWS_WITH(arch_from_hf_config(qwen2_7b(R"(, "layer_types": ["full_attention"])")), Catch::Contains("layer_types"));
    CHECK_THROWS_WITH(arch_from_hf_config(qwen2_7b(R"(, "layer_types": [1])")), Catch::Contains("layer_types"));
}
