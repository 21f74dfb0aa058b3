// test_native_weights.cpp: `weights` "native" (and unset on a quantized checkpoint) sizes the
// checkpoint as published, class by class, from its quantization_config.
//
// The configs are the real config.json files under tests/data/hf (SOURCES.md), with the
// quantization_config as published; the byte counts are derived by hand beside each check.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using gpusizer::test::catalog;
using gpusizer::test::kGiB;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(GPUSIZER_TEST_DATA) + "/hf/" + name, std::ios::binary);
    REQUIRE(in.good());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// An inference configuration of the model `hf_config` on one H200, runtime none (the model's
// own tensors only), with `extra` keys merged in.
Report run_hf(const nlohmann::json& hf_config, const nlohmann::json& extra = nlohmann::json::object()) {
    nlohmann::json c = {{"model", {{"hf_config", hf_config}}}, {"gpu", "h200"}, {"runtime", "none"}, {"context", 4096}};
    for (auto it = extra.begin(); it != extra.end(); ++it) c[it.key()] = it.value();
    return estimate(config_from_json(c.dump()), catalog());
}

double weight_bytes(const Report& r) { return r.weights_bits_per_param * r.params / 8.0; }

}  // namespace

TEST_CASE("gpt-oss-120b as published: MXFP4 routed experts, BF16 everything else", "[native][precision]") {
    const nlohmann::json hf = nlohmann::json::parse(fixture("gpt_oss__gpt-oss-120b.json"));
    const Report r = run_hf(hf);   // no `weights`: the checkpoint is quantized, so it is sized as published
    CHECK(r.config.weights == "native");
    CHECK(r.weights_scheme.source == "checkpoint");
    CHECK(r.weights_scheme.format == "mxfp4");
    CHECK(r.weights_scheme.method == "mxfp4");
    // modules_to_not_convert: self_attn, mlp.router, embed_tokens, lm_head stay BF16; the routed
    // experts are MXFP4, 32 E2M1 codes + one E8M0 scale = 4 + 8/32 bits (OCP MX v1.0).
    CHECK(r.weights_scheme.routed_expert_bits == 4.25);
    CHECK(r.weights_scheme.attention_bits == 16.0);
    CHECK(r.weights_scheme.router_bits == 16.0);
    CHECK(r.weights_scheme.embedding_bits == 16.0);
    CHECK(r.weights_scheme.lm_head_bits == 16.0);
    // Routed experts: 36 layers x 128 experts x (gate_up 2880 x 5760 + bias 5760 + down
    // 2880 x 2880 + bias 2880) = 4,608 x 24,891,840 = 114,701,598,720 parameters (the biases
    // counted with their expert, as the estimate does; the checkpoint keeps them BF16, 0.06 GB more).
    const double routed = 36.0 * 128 * (2880.0 * 5760 + 5760 + 2880.0 * 2880 + 2880);
    CHECK(routed == 114701598720.0);
    // The rest (about 2.13B: attention, router, embedding and head, norms, sinks) at 2 bytes;
    // the total is the model card's 116.83B.
    CHECK(r.params == Approx(116.83e9).epsilon(1e-4));
    const double expected = routed * 4.25 / 8 + (r.params - routed) * 2;   // 65.19 GB
    CHECK(weight_bytes(r) == Approx(expected).epsilon(1e-9));
    CHECK(expected / kGiB == Approx(60.712).epsilon(1e-4));
    // The KV cache follows the checkpoint's float dtype (not stated in this config.json: bf16).
    CHECK(r.config.kv_cache == "bf16");
}

TEST_CASE("a chosen weights format still applies to every linear layer", "[native][precision]") {
    const nlohmann::json hf = nlohmann::json::parse(fixture("gpt_oss__gpt-oss-120b.json"));
    const Report bf16 = run_hf(hf, {{"weights", "bf16"}});
    CHECK(bf16.weights_scheme.source == "config");
    CHECK(bf16.weights_scheme.routed_expert_bits == 16.0);
    CHECK(weight_bytes(bf16) == Approx(bf16.params * 2).epsilon(1e-12));
    // mxfp4 chosen by name converts every linear class, attention included (4.25 bits), and
    // leaves router, embeddings and head in BF16.
    const Report mx = run_hf(hf, {{"weights", "mxfp4"}});
    CHECK(mx.weights_scheme.source == "config");
    CHECK(mx.weights_scheme.attention_bits == 4.25);
    CHECK(mx.weights_scheme.router_bits == 16.0);
    CHECK(weight_bytes(mx) < weight_bytes(run_hf(hf)));
}

TEST_CASE("unset weights keep bf16 where the checkpoint cannot be used as published", "[native][precision]") {
    const nlohmann::json hf = nlohmann::json::parse(fixture("gpt_oss__gpt-oss-120b.json"));
    // Training converts the weights on load: full training and LoRA default to bf16 as before.
    const Report lora = run_hf(hf, {{"mode", "lora"}, {"runtime", "pytorch"}});
    CHECK(lora.config.weights == "bf16");
    CHECK(lora.weights_scheme.source == "config");
    // llama.cpp reads GGUF files, not the checkpoint: a run bound to it keeps the bf16 default.
    const Report lc = run_hf(hf, {{"runtime", "llama.cpp"}});
    CHECK(lc.config.weights == "bf16");
    // Asking for native in full training is refused, naming the key and the format.
    CHECK_THROWS_WITH(run_hf(hf, {{"weights", "native"}, {"mode", "train"}, {"runtime", "pytorch"}}),
                      Catch::Contains("weights") && Catch::Contains("mxfp4"));
}

TEST_CASE("DeepSeek-V3 as published: FP8 e4m3 with one scale per 128 x 128 tile", "[native][precision]") {
    const nlohmann::json hf = nlohmann::json::parse(fixture("deepseek_v3__deepseek-v3.json"));
    REQUIRE(hf["quantization_config"]["weight_block_size"] == nlohmann::json::array({128, 128}));
    const Report r = run_hf(hf);
    CHECK(r.weights_scheme.source == "checkpoint");
    CHECK(r.weights_scheme.format == "fp8");
    // 8 bits + one fp32 scale per 16,384 weights = 8.001953125 bits on every linear layer
    // (attention and MLA projections, dense MLPs, shared and routed experts).
    const double fp8 = 8.0 + 32.0 / 16384;
    CHECK(r.weights_scheme.attention_bits == fp8);
    CHECK(r.weights_scheme.mlp_bits == fp8);
    CHECK(r.weights_scheme.shared_expert_bits == fp8);
    CHECK(r.weights_scheme.routed_expert_bits == fp8);
    // The router (mlp.gate), embeddings and head are BF16 in the checkpoint (no weight_scale_inv).
    CHECK(r.weights_scheme.router_bits == 16.0);
    CHECK(r.weights_scheme.embedding_bits == 16.0);
    CHECK(r.weights_scheme.lm_head_bits == 16.0);
    // What stays at 16 bits: embedding and head 2 x 129,280 x 7,168 = 1,853,358,080; routers
    // 58 MoE layers x (256 x 7,168 + 256 score bias) = 106,437,632; norms 61 x (2 x 7,168 + 1,536
    // q_a + 512 kv_a) + 7,168 final = 1,006,592 (other small vectors move the total by < 1e-7).
    // The rest (the linear layers) at fp8.
    const double rest = 1853358080.0 + 106437632.0 + 1006592.0;
    const double expected = (r.params - rest) * fp8 / 8 + rest * 2;
    CHECK(weight_bytes(r) == Approx(expected).epsilon(1e-7));
    // About 628 GiB, against 1250 GiB in bf16.
    CHECK(weight_bytes(r) / kGiB == Approx(626.6).epsilon(0.005));
}

// The catalog's DeepSeek V3 family is published in FP8 (each model's note says so): an inference
// run of a catalog id sizes what the Hub holds, the same bytes as the config.json fixture above.
TEST_CASE("the catalog's DeepSeek V3 family runs as published (FP8) without asking", "[native][precision][catalog]") {
    const Report fixture_run = run_hf(nlohmann::json::parse(fixture("deepseek_v3__deepseek-v3.json")));
    for (const char* id : {"deepseek-v3", "deepseek-r1", "deepseek-v3-0324", "deepseek-r1-0528", "deepseek-v3.1",
                           "deepseek-v3.1-terminus", "deepseek-v3.2", "deepseek-v3.2-exp"}) {
        INFO(id);
        Config c = gpusizer::test::config(id, "h200");
        c.runtime = Runtime::none;
        const Report r = estimate(c, catalog());
        CHECK(r.weights_scheme.source == "checkpoint");
        CHECK(r.weights_scheme.routed_expert_bits == Approx(8.0 + 32.0 / 16384).epsilon(0.001));
        // V3.2 adds the indexer (its own FP8 linear layers): at least the V3 body's bytes.
        if (std::string(id).rfind("deepseek-v3.2", 0) == 0) CHECK(weight_bytes(r) > weight_bytes(fixture_run));
        else CHECK(weight_bytes(r) == Approx(weight_bytes(fixture_run)).epsilon(1e-9));
    }
}

TEST_CASE("a Qwen3 FP8 checkpoint and an NVFP4 one", "[native][precision]") {
    nlohmann::json hf = nlohmann::json::parse(fixture("qwen3__qwen3-8b.json"));
    // Qwen/Qwen3-8B-FP8 config.json: the Qwen3-8B config plus this quantization_config.
    hf["quantization_config"] = {{"activation_scheme", "dynamic"}, {"fmt", "e4m3"},   {"quant_method", "fp8"},
                                 {"modules_to_not_convert", nullptr}, {"weight_block_size", {128, 128}}};
    const Report fp8 = run_hf(hf);
    CHECK(fp8.weights_scheme.format == "fp8");
    CHECK(fp8.weights_scheme.mlp_bits == 8.0 + 32.0 / 16384);
    CHECK(fp8.weights_scheme.embedding_bits == 16.0);
    // compressed-tensors NVFP4 (llm-compressor's NVFP4 preset): float 4-bit weights in groups of
    // 16 with an FP8 scale, lm_head ignored: 4 + 8/16 = 4.5 bits on the linear layers.
    hf["quantization_config"] = {
        {"quant_method", "compressed-tensors"},
        {"ignore", {"lm_head"}},
        {"config_groups", {{"group_0", {{"targets", {"Linear"}}, {"weights", {{"num_bits", 4}, {"type", "float"}, {"group_size", 16}}}}}}}};
    const Report nv = run_hf(hf);
    CHECK(nv.weights_scheme.format == "nvfp4");
    CHECK(nv.weights_scheme.method == "compressed-tensors");
    CHECK(nv.weights_scheme.attention_bits == 4.5);
    CHECK(nv.weights_scheme.mlp_bits == 4.5);
    CHECK(nv.weights_scheme.lm_head_bits == 16.0);
    // Qwen3-8B: 8,190,735,360 parameters (expected.json), of which embedding and head
    // 2 x 151,936 x 4,096 = 1,244,659,712 and norms 36 x (2 x 4,096 + 2 x 128 q/k norms) + 4,096
    // = 308,224 stay BF16.
    const double rest = 1244659712.0 + 308224.0;
    CHECK(weight_bytes(nv) == Approx((nv.params - rest) * 4.5 / 8 + rest * 2).epsilon(1e-9));
}

TEST_CASE("native on a checkpoint that is not quantized is its dtype", "[native][precision]") {
    nlohmann::json hf = nlohmann::json::parse(fixture("qwen3__qwen3-8b.json"));
    // Unset weights on a float checkpoint: bf16 as before, chosen by the configuration.
    CHECK(run_hf(hf).weights_scheme.source == "config");
    const Report bf = run_hf(hf, {{"weights", "native"}});
    CHECK(bf.weights_scheme.source == "checkpoint");
    CHECK(bf.weights_scheme.format == "bf16");
    CHECK(bf.weights_scheme.method == "");
    hf["torch_dtype"] = "float32";
    hf.erase("dtype");
    const Report f32 = run_hf(hf, {{"weights", "native"}});
    CHECK(f32.weights_scheme.format == "fp32");
    CHECK(weight_bytes(f32) == Approx(f32.params * 4).epsilon(1e-12));
    // The report says so, and the value parses back.
    const nlohmann::json j = nlohmann::json::parse(report_to_json(bf));
    CHECK(j["config"]["weights"] == "native");
    CHECK(j["weights_scheme"]["source"] == "checkpoint");
    CHECK(j["weights_scheme"]["bits_by_class"]["attention"] == 16.0);
    CHECK(config_from_json(R"({"model": "llama-3-8b", "gpu": "h100-sxm", "weights": "native"})").weights == "native");
    CHECK_THROWS_WITH(config_from_json(R"({"model": "llama-3-8b", "gpu": "h100-sxm", "weights": "nativ"})"),
                      Catch::Contains("weights"));
}

TEST_CASE("GGUF file types report no class bits", "[native][precision]") {
    Config c = gpusizer::test::config("llama-3-8b");
    c.weights = "q4_k_m";
    const Report r = estimate(c, catalog());
    CHECK(r.weights_scheme.source == "config");
    CHECK_FALSE(r.weights_scheme.class_bits);
    CHECK(nlohmann::json::parse(report_to_json(r))["weights_scheme"]["bits_by_class"].is_null());
}
