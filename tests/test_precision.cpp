// test_precision.cpp: bits per weight of every format, and llama.cpp's per-tensor GGUF mix.
//
// GGUF totals are checked against llama.cpp's own "model size = X GiB (Y BPW)" log lines
// (docs/research/runtime-facts.md, sec. 6.1): the exact tensor bytes of a real file.
#include <catch2/catch.hpp>

#include "gpusizer/model_file.hpp"
#include "estimate_internal.hpp"
#include "gguf_layer_rules.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

double model_gib(const char* model, const char* weights) { return model_weight_bytes(model, weights) / kGiB; }

}  // namespace

TEST_CASE("ggml block types: bits per weight from their block layout", "[precision][gguf]") {
    CHECK(ggml_type_bits(GgmlType::q8_0) == 8.5);      // 34 B / 32
    CHECK(ggml_type_bits(GgmlType::q6_k) == 6.5625);   // 210 B / 256
    CHECK(ggml_type_bits(GgmlType::q5_k) == 5.5);      // 176 B / 256
    CHECK(ggml_type_bits(GgmlType::q4_k) == 4.5);      // 144 B / 256
    CHECK(ggml_type_bits(GgmlType::q3_k) == 3.4375);   // 110 B / 256
    CHECK(ggml_type_bits(GgmlType::q2_k) == 2.625);    // 84 B / 256
    CHECK(ggml_type_bits(GgmlType::q4_0) == 4.5);      // 18 B / 32
    CHECK(ggml_type_bits(GgmlType::q5_0) == 5.5);      // 22 B / 32
    CHECK(ggml_block_size(GgmlType::q4_k) == 256);
    CHECK(ggml_block_size(GgmlType::q8_0) == 32);
}

TEST_CASE("non-GGUF quantized linear layers: scales included", "[precision]") {
    QuantParams q;
    // GPTQ/AWQ: 4 bits + (fp16 scale + 4-bit zero) per group of 128 = 4 + 20/128.
    CHECK(linear_bits_per_weight(weight_format("int4"), q) == 4.15625);
    q.group_size = 32;
    CHECK(linear_bits_per_weight(weight_format("int4"), q) == 4.625);
    // NF4, QLoRA paper sec. 3: 0.5 bit of fp32 absmax per 64 weights, 0.127 with double quant.
    q.double_quant = false;
    CHECK(linear_bits_per_weight(weight_format("nf4"), q) == 4.5);
    q.double_quant = true;
    CHECK(linear_bits_per_weight(weight_format("nf4"), q) == Approx(4.127).epsilon(1e-3));
    CHECK(linear_bits_per_weight(weight_format("fp8"), q) == 8.0);
    CHECK(linear_bits_per_weight(weight_format("bf16"), q) == 16.0);
}

TEST_CASE("Q4_K_M gives Q6_K to half of attn_v and ffn_down (use_more_bits)", "[precision][gguf]") {
    const ModelArch& a = catalog().model("llama-3-8b").arch;   // 32 layers
    const WeightFormat& f = weight_format("q4_k_m");
    // use_more_bits(i, 32): i < 4, i >= 28, or (i - 4) % 3 == 2.
    CHECK(gguf_tensor_type(f, TensorClass::attn_v, a, 0, 4096) == GgmlType::q6_k);
    CHECK(gguf_tensor_type(f, TensorClass::attn_v, a, 4, 4096) == GgmlType::q4_k);
    CHECK(gguf_tensor_type(f, TensorClass::attn_v, a, 6, 4096) == GgmlType::q6_k);
    CHECK(gguf_tensor_type(f, TensorClass::attn_v, a, 31, 4096) == GgmlType::q6_k);
    CHECK(gguf_tensor_type(f, TensorClass::ffn_down, a, 7, 14336) == GgmlType::q4_k);
    CHECK(gguf_tensor_type(f, TensorClass::ffn_down, a, 9, 14336) == GgmlType::q6_k);
    CHECK(gguf_tensor_type(f, TensorClass::attn_q, a, 0, 4096) == GgmlType::q4_k);
    // The output head is Q6_K for every k-quant file type, Q8_0 stays Q8_0.
    CHECK(gguf_tensor_type(f, TensorClass::output, a, 0, 4096) == GgmlType::q6_k);
    CHECK(gguf_tensor_type(weight_format("q8_0"), TensorClass::output, a, 0, 4096) == GgmlType::q8_0);
    CHECK(gguf_tensor_type(weight_format("q4_0"), TensorClass::output, a, 0, 4096) == GgmlType::q6_k);
    // Q2_K: attn_v at Q4_K when n_gqa >= 4 (32/8), ffn_down and attn_output at Q3_K.
    CHECK(gguf_tensor_type(weight_format("q2_k"), TensorClass::attn_v, a, 10, 4096) == GgmlType::q4_k);
    CHECK(gguf_tensor_type(weight_format("q2_k"), TensorClass::ffn_down, a, 10, 14336) == GgmlType::q3_k);
    CHECK(gguf_tensor_type(weight_format("q2_k"), TensorClass::attn_output, a, 10, 4096) == GgmlType::q3_k);
}

TEST_CASE("GGUF fallbacks when a row is not a multiple of 256", "[precision][gguf]") {
    // Qwen2.5-72B's ffn_down rows have 29568 = 115.5 x 256 values: Q4_K falls back to Q5_0,
    // Q6_K to Q8_0 (llama.cpp "using fallback quantization").
    const ModelArch& a = catalog().model("qwen2.5-72b").arch;
    CHECK(gguf_tensor_type(weight_format("q4_k_m"), TensorClass::ffn_down, a, 10, 29568) == GgmlType::q5_0);
    CHECK(gguf_tensor_type(weight_format("q4_k_m"), TensorClass::ffn_down, a, 0, 29568) == GgmlType::q8_0);
    // Q2_K and Q3_K fall back to Q4_0 (tensor_type_fallback, llama.cpp 2026; IQ4_NL before).
    CHECK(gguf_tensor_type(weight_format("q2_k"), TensorClass::ffn_down, a, 10, 29568) == GgmlType::q4_0);
    // 256-block I-quants fall back to IQ4_NL.
    CHECK(gguf_tensor_type(weight_format("iq4_xs"), TensorClass::ffn_down, a, 20, 29568) == GgmlType::iq4_nl);
    CHECK(gguf_tensor_type(weight_format("iq2_xxs"), TensorClass::ffn_gate_up, a, 20, 29568) == GgmlType::iq4_nl);
    // A row that is not even a multiple of 32 ends in F16.
    CHECK(gguf_tensor_type(weight_format("q4_k_m"), TensorClass::ffn_gate_up, a, 20, 2900) == GgmlType::f16);
}

TEST_CASE("Mixtral (8 experts): attn_k and attn_v at Q8_0", "[precision][gguf]") {
    const ModelArch& a = catalog().model("mixtral-8x7b").arch;
    CHECK(gguf_tensor_type(weight_format("q4_k_m"), TensorClass::attn_v, a, 10, 4096) == GgmlType::q8_0);
    CHECK(gguf_tensor_type(weight_format("q4_k_m"), TensorClass::attn_k, a, 10, 4096) == GgmlType::q8_0);
    CHECK(gguf_tensor_type(weight_format("q4_k_m"), TensorClass::attn_output, a, 10, 4096) == GgmlType::q5_k);
}

TEST_CASE("GGUF model sizes match llama.cpp's logged model size", "[precision][gguf][published]") {
    // "model size = X GiB (Y BPW)" from llama.cpp logs; printed with 2 decimals, so the
    // tolerance is the rounding (0.005 GiB) plus 0.5% for metadata-free rounding of small tensors.
    struct Row { const char* model; const char* weights; double gib; };
    const Row rows[] = {
        {"llama-3.1-8b", "q8_0", 7.95},
        {"llama-3.1-8b", "q6_k", 6.14},
        {"llama-3.1-8b", "q4_k_m", 4.58},
        {"llama-3.1-8b", "q4_0", 4.33},
        {"deepseek-r1-distill-llama-70b", "q4_k_m", 39.59},
        {"llama-3.1-70b", "q4_0", 37.22},
        {"mistral-7b", "q5_k_m", 4.78},          // Mistral 7B Instruct v0.2: same tensor shapes
        {"qwen2.5-7b", "q4_k_m", 4.36},          // Qwen2.5-Coder 7B: same tensor shapes
        {"deepseek-r1-distill-qwen-14b", "q4_k_m", 8.37},
        {"qwen2.5-3b", "q5_k_m", 2.07},
    };
    for (const Row& r : rows) {
        INFO(r.model << " " << r.weights);
        CHECK(model_gib(r.model, r.weights) == Approx(r.gib).epsilon(0.005).margin(0.006));
    }
}

TEST_CASE("MoE GGUF: today's quantizer bumps the experts' ffn_down too", "[precision][gguf][published]") {
    // DeepSeek R1 Q4_K_M is listed at 404 GB by ollama (deepseek-r1:671b); the derivation,
    // with Q6_K for the ffn_down_exps of the use_more_bits layers, gives 404.5 GB.
    CHECK(model_gib("deepseek-r1", "q4_k_m") * kGiB / 1e9 == Approx(404).epsilon(0.003));
    // Mixtral 8x7B files published in early 2024 (llama.cpp log: Q4_K_M 24.62 GiB, 4.53 BPW;
    // Q5_K_M 30.02 GiB) predate that: their expert ffn_down tensors stayed at the base type.
    // Ours are larger by exactly the bump: half of the 32 x 8 x 14336 x 4096 expert ffn_down
    // weights moved from Q4_K (4.5 bits) / Q5_K (5.5 bits) to Q6_K (6.5625 bits).
    const double down = 32.0 * 8 * 14336 * 4096 / 2;
    CHECK(model_gib("mixtral-8x7b", "q4_k_m") - 24.62 == Approx(down * (6.5625 - 4.5) / 8 / kGiB).margin(0.07));
    CHECK(model_gib("mixtral-8x7b", "q5_k_m") - 30.02 == Approx(down * (6.5625 - 5.5) / 8 / kGiB).margin(0.03));
}

TEST_CASE("non-GGUF formats keep embeddings and the head at 16 bits", "[precision]") {
    // Llama 3 8B in NF4: 6.98 B linear weights at 4.127 bits, 1.05 B embedding + head at 16 bits.
    const ParamCounts c = count_params(catalog().model("llama-3-8b").arch);
    const double linear = c.layers() - 32 * c.dense_layer.small;
    const double expected_bytes = linear * 4.12695 / 8 + (c.embedding + c.lm_head) * 2.0 + (32 * c.dense_layer.small + c.other) * 2.0;
    Config cfg = config("llama-3-8b");
    cfg.weights = "nf4";
    const Report r = run(cfg);
    CHECK(r.weights_bits_per_param * r.params / 8.0 == Approx(expected_bytes).epsilon(1e-4));
    CHECK(r.per_gpu.weights == Approx(expected_bytes).epsilon(1e-4));
}

TEST_CASE("KV formats: bytes per value", "[precision]") {
    CHECK(kv_format("fp16").bytes == 2.0);
    CHECK(kv_format("fp8").bytes == 1.0);
    CHECK(kv_format("q8_0").bytes == 34.0 / 32);
    CHECK(kv_format("q4_0").bytes == 18.0 / 32);
    CHECK(kv_format("q8_0").llama_cpp_only);
    CHECK_THROWS_WITH(kv_format("int3"), Catch::Contains("kv_cache") && Catch::Contains("q4_0"));
    CHECK_THROWS_WITH(weight_format("q1_k"), Catch::Contains("weights") && Catch::Contains("q4_k_m"));
}

TEST_CASE("every ggml type: weights and bytes per block from ggml-common.h", "[precision][gguf]") {
    // (type, QK, sizeof(block)) as the static_asserts of ggml/src/ggml-common.h state them
    // (ggml-org/llama.cpp commit 01243c5): QK_K = 256, ggml_half = 2 bytes.
    struct Row { GgmlType t; int block; int bytes; double bpw; };
    const Row rows[] = {
        {GgmlType::f32, 1, 4, 32.0},
        {GgmlType::f16, 1, 2, 16.0},
        {GgmlType::bf16, 1, 2, 16.0},
        {GgmlType::q4_0, 32, 2 + 16, 4.5},
        {GgmlType::q4_1, 32, 2 * 2 + 16, 5.0},
        {GgmlType::q5_0, 32, 2 + 4 + 16, 5.5},
        {GgmlType::q5_1, 32, 2 * 2 + 4 + 16, 6.0},
        {GgmlType::q8_0, 32, 2 + 32, 8.5},
        {GgmlType::q2_k, 256, 2 * 2 + 256 / 16 + 256 / 4, 2.625},
        {GgmlType::q3_k, 256, 2 + 256 / 4 + 256 / 8 + 12, 3.4375},
        {GgmlType::q4_k, 256, 2 * 2 + 12 + 256 / 2, 4.5},
        {GgmlType::q5_k, 256, 2 * 2 + 12 + 256 / 2 + 256 / 8, 5.5},
        {GgmlType::q6_k, 256, 2 + 256 / 16 + 3 * 256 / 4, 6.5625},
        {GgmlType::q8_k, 256, 4 + 256 + 256 / 16 * 2, 9.125},
        {GgmlType::iq2_xxs, 256, 2 + 256 / 8 * 2, 2.0625},
        {GgmlType::iq2_xs, 256, 2 + 256 / 8 * 2 + 256 / 32, 2.3125},
        {GgmlType::iq2_s, 256, 2 + 256 / 4 + 256 / 16, 2.5625},
        {GgmlType::iq3_xxs, 256, 2 + 3 * (256 / 8), 3.0625},
        {GgmlType::iq3_s, 256, 2 + 13 * (256 / 32) + 256 / 64, 3.4375},
        {GgmlType::iq1_s, 256, 2 + 256 / 8 + 256 / 16, 1.5625},
        {GgmlType::iq1_m, 256, 256 / 8 + 256 / 16 + 256 / 32, 1.75},
        {GgmlType::iq4_nl, 32, 2 + 16, 4.5},
        {GgmlType::iq4_xs, 256, 2 + 2 + 256 / 64 + 256 / 2, 4.25},
        {GgmlType::tq1_0, 256, 2 + 256 / 64 + (256 - 4 * 256 / 64) / 5, 1.6875},
        {GgmlType::tq2_0, 256, 2 + 256 / 4, 2.0625},
        {GgmlType::mxfp4, 32, 1 + 16, 4.25},
        {GgmlType::nvfp4, 64, 64 / 16 + 64 / 2, 4.5},
    };
    CHECK(all_ggml_types().size() == std::size(rows));
    for (const Row& r : rows) {
        INFO(to_string(r.t));
        CHECK(ggml_block_size(r.t) == r.block);
        CHECK(ggml_block_bytes(r.t) == r.bytes);
        CHECK(ggml_type_bits(r.t) == r.bpw);
    }
}

TEST_CASE("MXFP4, NVFP4 and bitsandbytes FP4: bits per weight", "[precision]") {
    QuantParams q;
    // OCP MX v1.0: 32 E2M1 values + one E8M0 scale = 4 + 8/32.
    CHECK(linear_bits_per_weight(weight_format("mxfp4"), q) == 4.25);
    // NVFP4: 16 E2M1 values + one E4M3 scale = 4 + 8/16 (the per-tensor FP32 scale is negligible).
    CHECK(linear_bits_per_weight(weight_format("nvfp4"), q) == 4.5);
    // bitsandbytes FP4 uses nf4's block layout: blocks of 64, fp32 absmax (or 8-bit double-quantized).
    CHECK(linear_bits_per_weight(weight_format("fp4"), q) == linear_bits_per_weight(weight_format("nf4"), q));
    q.double_quant = false;
    CHECK(linear_bits_per_weight(weight_format("fp4"), q) == 4.5);
    // compressed-tensors W4A16 (symmetric, bf16 scale per 128): 4 + 16/128.
    q.zero_point = false;
    CHECK(linear_bits_per_weight(weight_format("int4"), q) == 4.125);
    // DeepSeek FP8 with weight_block_size [128, 128]: one fp32 scale per tile.
    q.block_rows = q.block_cols = 128;
    CHECK(linear_bits_per_weight(weight_format("fp8"), q) == 8.0 + 32.0 / 16384);
}

TEST_CASE("a scheme quantizes some classes only (gpt-oss: MXFP4 on the experts)", "[precision]") {
    WeightScheme s = weight_scheme(weight_format("mxfp4"));
    CHECK(scheme_class_bits(s, SchemeClass::attention) == 4.25);   // default: every linear layer
    CHECK(scheme_class_bits(s, SchemeClass::embedding) == 16.0);
    s.classes = class_bit(SchemeClass::routed_expert);              // modules_to_not_convert: attention, router, embeddings, head
    CHECK(scheme_class_bits(s, SchemeClass::routed_expert) == 4.25);
    CHECK(scheme_class_bits(s, SchemeClass::attention) == 16.0);
    CHECK(scheme_class_bits(s, SchemeClass::router) == 16.0);
    CHECK(scheme_class_bits(weight_scheme(weight_format("fp32")), SchemeClass::attention) == 32.0);
}

TEST_CASE("MXFP4_MOE: experts in MXFP4, every other tensor Q8_0", "[precision][gguf]") {
    GgufTraits m;
    m.n_layers = 24;   // gpt-oss-20b: 24 layers, 32 experts, hidden 2880 = 90 x 32
    m.n_expert = 32;
    m.n_gqa = 8;
    const WeightFormat& f = weight_format("mxfp4_moe");
    CHECK(gguf_tensor_type(f, TensorClass::ffn_gate_up_exps, m, 3, 2880) == GgmlType::mxfp4);
    CHECK(gguf_tensor_type(f, TensorClass::ffn_down_exps, m, 3, 2880) == GgmlType::mxfp4);
    CHECK(gguf_tensor_type(f, TensorClass::attn_q, m, 3, 2880) == GgmlType::q8_0);
    CHECK(gguf_tensor_type(f, TensorClass::ffn_down, m, 3, 2880) == GgmlType::q8_0);   // a dense or shared FFN
    CHECK(gguf_tensor_type(f, TensorClass::output, m, 0, 2880) == GgmlType::q8_0);
    CHECK(gguf_tensor_type(f, TensorClass::token_embd, m, 0, 2880) == GgmlType::q8_0);
}

TEST_CASE("K-quant _S/_L and I-quant mixes follow llama_tensor_get_type", "[precision][gguf]") {
    const ModelArch& a = catalog().model("llama-3-8b").arch;   // 32 layers, n_gqa 4
    auto type = [&](const char* f, TensorClass c, int layer, long long row = 4096) {
        return gguf_tensor_type(weight_format(f), c, a, layer, row);
    };
    // Q4_K_S: attn_v Q5_K for the first four, ffn_down Q5_K on the first eighth (4 layers).
    CHECK(type("q4_k_s", TensorClass::attn_v, 3) == GgmlType::q5_k);
    CHECK(type("q4_k_s", TensorClass::attn_v, 4) == GgmlType::q4_k);
    CHECK(type("q4_k_s", TensorClass::ffn_down, 3, 14336) == GgmlType::q5_k);
    CHECK(type("q4_k_s", TensorClass::ffn_down, 4, 14336) == GgmlType::q4_k);
    // Q5_K_S and Q3_K_S: no per-tensor rule but the output head.
    CHECK(type("q5_k_s", TensorClass::attn_v, 0) == GgmlType::q5_k);
    CHECK(type("q3_k_s", TensorClass::ffn_down, 0, 14336) == GgmlType::q3_k);
    CHECK(type("q3_k_s", TensorClass::output, 0) == GgmlType::q6_k);
    // Q3_K_L: attn_v, ffn_down and attn_output at Q5_K.
    CHECK(type("q3_k_l", TensorClass::attn_v, 20) == GgmlType::q5_k);
    CHECK(type("q3_k_l", TensorClass::ffn_down, 20, 14336) == GgmlType::q5_k);
    CHECK(type("q3_k_l", TensorClass::attn_output, 20) == GgmlType::q5_k);
    CHECK(type("q3_k_l", TensorClass::attn_q, 20) == GgmlType::q3_k);
    // Q2_K_S: attn_v Q4_K (n_gqa >= 4), ffn_down Q4_K on the first eighth.
    CHECK(type("q2_k_s", TensorClass::attn_v, 20) == GgmlType::q4_k);
    CHECK(type("q2_k_s", TensorClass::ffn_down, 2, 14336) == GgmlType::q4_k);
    CHECK(type("q2_k_s", TensorClass::ffn_down, 20, 14336) == GgmlType::q2_k);
    // IQ4_XS without an imatrix: attn_v Q5_K (n_gqa >= 4), ffn_down Q5_K on the first eighth.
    CHECK(type("iq4_xs", TensorClass::attn_v, 20) == GgmlType::q5_k);
    CHECK(type("iq4_xs", TensorClass::ffn_down, 0, 14336) == GgmlType::q5_k);
    CHECK(type("iq4_xs", TensorClass::ffn_down, 4, 14336) == GgmlType::iq4_xs);
    // IQ3_M: attn_v and attn_output Q4_K, ffn_down Q4_K on the first eighth, the rest IQ3_S.
    CHECK(type("iq3_m", TensorClass::attn_v, 20) == GgmlType::q4_k);
    CHECK(type("iq3_m", TensorClass::attn_output, 20) == GgmlType::q4_k);
    CHECK(type("iq3_m", TensorClass::ffn_gate_up, 20) == GgmlType::iq3_s);
    // IQ3_XXS (imatrix required): attn_v Q4_K, attn_q/attn_k IQ2_S, attn_output IQ3_S, token_embd IQ3_S.
    CHECK(type("iq3_xxs", TensorClass::attn_v, 20) == GgmlType::q4_k);
    CHECK(type("iq3_xxs", TensorClass::attn_q, 20) == GgmlType::iq2_s);
    CHECK(type("iq3_xxs", TensorClass::attn_output, 20) == GgmlType::iq3_s);
    CHECK(type("iq3_xxs", TensorClass::token_embd, 0) == GgmlType::iq3_s);
    CHECK(type("iq3_xxs", TensorClass::ffn_down, 0, 14336) == GgmlType::iq3_xxs);
    // IQ2_XXS: attn_v Q4_K (n_gqa >= 4), ffn_down Q2_K on the first eighth, output Q5_K, token_embd Q2_K.
    CHECK(type("iq2_xxs", TensorClass::attn_v, 20) == GgmlType::q4_k);
    CHECK(type("iq2_xxs", TensorClass::ffn_down, 3, 14336) == GgmlType::q2_k);
    CHECK(type("iq2_xxs", TensorClass::ffn_down, 4, 14336) == GgmlType::iq2_xxs);
    CHECK(type("iq2_xxs", TensorClass::output, 0) == GgmlType::q5_k);
    CHECK(type("iq2_xxs", TensorClass::token_embd, 0) == GgmlType::q2_k);
    // IQ2_M: default IQ2_S, first-eighth ffn_down and attn_output IQ3_S; IQ2_S: default IQ2_XS.
    CHECK(type("iq2_m", TensorClass::ffn_gate_up, 20) == GgmlType::iq2_s);
    CHECK(type("iq2_m", TensorClass::ffn_down, 0, 14336) == GgmlType::iq3_s);
    CHECK(type("iq2_m", TensorClass::attn_output, 20) == GgmlType::iq3_s);
    CHECK(type("iq2_s", TensorClass::attn_q, 20) == GgmlType::iq2_xs);
    // IQ1_S / IQ1_M: attn_output IQ2_XXS.
    CHECK(type("iq1_s", TensorClass::attn_output, 20) == GgmlType::iq2_xxs);
    CHECK(type("iq1_m", TensorClass::attn_q, 20) == GgmlType::iq1_m);
    // TQ1_0 / TQ2_0: token_embd Q4_K.
    CHECK(type("tq1_0", TensorClass::token_embd, 0) == GgmlType::q4_k);
    CHECK(type("tq2_0", TensorClass::attn_q, 0) == GgmlType::tq2_0);
    // Legacy types: no rule but the output head (Q4_1, Q5_1 without an imatrix).
    CHECK(type("q4_1", TensorClass::ffn_down, 0, 14336) == GgmlType::q4_1);
    CHECK(type("q5_1", TensorClass::output, 0) == GgmlType::q6_k);
}

TEST_CASE("gguf_layer_key: layers with one key get the same types", "[precision][gguf]") {
    std::vector<GgufTraits> models;
    models.push_back(gguf_traits(catalog().model("llama-3-8b").arch));
    models.push_back(gguf_traits(catalog().model("mixtral-8x7b").arch));
    GgufTraits falcon = models[0];
    falcon.falcon = true;
    models.push_back(falcon);
    const TensorClass classes[] = {TensorClass::attn_q, TensorClass::attn_k, TensorClass::attn_v, TensorClass::attn_output,
                                   TensorClass::attn_qkv_fused, TensorClass::attn_kv_b, TensorClass::ffn_gate_up,
                                   TensorClass::ffn_down, TensorClass::ffn_gate_up_exps, TensorClass::ffn_down_exps};
    for (const WeightFormat& f : weight_formats()) {
        if (f.family != WeightFamily::gguf) continue;
        for (const GgufTraits& m : models) {
            for (int i = 0; i < m.n_layers; ++i) {
                for (int j = 0; j < m.n_layers; ++j) {
                    if (gguf_layer_key(f, m, i) != gguf_layer_key(f, m, j)) continue;
                    for (TensorClass c : classes) {
                        INFO(f.id << " layers " << i << ", " << j << " class " << int(c));
                        CHECK(gguf_tensor_type(f, c, m, i, 4096) == gguf_tensor_type(f, c, m, j, 4096));
                    }
                }
            }
            if (!gguf_has_layer_rules(f, m))
                for (int i = 0; i < m.n_layers; ++i) CHECK(gguf_layer_key(f, m, i) == 0u);
        }
    }
}

TEST_CASE("GGUF per-layer rules: resolved once they give gguf_layer_key, only attn_v and ffn_down read the layer", "[precision][gguf]") {
    // The estimate takes the types of the classes that do not read the layer (gguf_class_reads_layer)
    // from another layer of the same shape: for every file type, model traits (a 70B-type llama,
    // 8 experts, falcon, 48 layers) and class, such a type is the same in every layer.
    std::vector<GgufTraits> models;
    models.push_back(gguf_traits(catalog().model("llama-3-70b").arch));
    models.push_back(gguf_traits(catalog().model("mixtral-8x7b").arch));
    GgufTraits falcon = models[0];
    falcon.falcon = true;
    models.push_back(falcon);
    GgufTraits odd = models[1];
    odd.n_layers = 48;
    odd.imatrix = true;
    models.push_back(odd);
    const TensorClass classes[] = {TensorClass::token_embd, TensorClass::output, TensorClass::attn_q, TensorClass::attn_k,
                                   TensorClass::attn_v, TensorClass::attn_output, TensorClass::attn_qkv_fused,
                                   TensorClass::attn_other, TensorClass::ffn_gate_up, TensorClass::ffn_down,
                                   TensorClass::other_2d, TensorClass::attn_kv_b, TensorClass::ffn_gate_up_exps,
                                   TensorClass::ffn_down_exps};
    int layer_readers = 0;
    for (const WeightFormat& f : weight_formats()) {
        if (f.family != WeightFamily::gguf) continue;
        for (const GgufTraits& m : models) {
            const GgufLayerRules rules = gguf_layer_rules(f, m);
            CHECK(rules.any() == gguf_has_layer_rules(f, m));
            for (int i = 0; i < m.n_layers; ++i) CHECK(rules.key(i) == gguf_layer_key(f, m, i));
            for (TensorClass c : classes) {
                bool varies = false;
                for (long long row : {4096LL, 14336LL, 2880LL})
                    for (int i = 1; i < m.n_layers; ++i)
                        varies = varies || gguf_tensor_type(f, c, m, i, row) != gguf_tensor_type(f, c, m, 0, row);
                INFO(f.id << " class " << int(c));
                if (varies) CHECK(gguf_class_reads_layer(c));
                layer_readers += varies;
            }
        }
    }
    CHECK(layer_readers > 0);   // the check above has cases to look at (Q4_K_M's attn_v and ffn_down)
}

TEST_CASE("Llama 3.1 8B Q4_K_S and IQ2_XXS: the sum of llama.cpp's per-tensor types", "[precision][gguf]") {
    // Llama 3.1 8B (config.json): hidden 4096, 32 layers, 8 KV heads x 128, FFN 14336, vocab
    // 128256, untied head; norms (2 per layer + final) stay F32.
    const double h = 4096, kv = 1024, ffn = 14336, vocab = 128256, L = 32;
    const double q_o = 2 * h * h, k = h * kv, v = h * kv, gate_up = 2 * h * ffn, down = ffn * h;
    const double norms = (2 * L + 1) * h * 32;
    // Q4_K_S: attn_v of layers 0..3 and ffn_down of layers 0..3 (n/8) at Q5_K, the rest Q4_K;
    // output Q6_K; token_embd Q4_K.
    const double q4ks = L * (q_o + k + gate_up) * 4.5 + 4 * (v + down) * 5.5 + (L - 4) * (v + down) * 4.5 +
                        vocab * h * 6.5625 + vocab * h * 4.5 + norms;
    CHECK(model_weight_bytes("llama-3.1-8b", "q4_k_s") == Approx(q4ks / 8).epsilon(1e-9));
    // IQ2_XXS: attn_v Q4_K (n_gqa 4), ffn_down Q2_K on layers 0..3, output Q5_K, token_embd Q2_K.
    const double iq2 = L * (q_o + k + gate_up) * 2.0625 + L * v * 4.5 + 4 * down * 2.625 + (L - 4) * down * 2.0625 +
                       vocab * h * 5.5 + vocab * h * 2.625 + norms;
    CHECK(model_weight_bytes("llama-3.1-8b", "iq2_xxs") == Approx(iq2 / 8).epsilon(1e-9));
}

TEST_CASE("runtime none accepts every weight and cache format", "[precision][runtime]") {
    for (const WeightFormat& f : weight_formats()) {
        Config c = config("llama-3-8b");
        c.weights = std::string(f.id);
        c.runtime = Runtime::none;
        c.kv_cache = "q4_0";
        INFO(f.id);
        CHECK_NOTHROW(run(c));
    }
    // llama.cpp names every GGUF file type of the table when it refuses a format.
    Config c = config("llama-3-8b");
    c.weights = "nf4";
    c.runtime = Runtime::llama_cpp;
    CHECK_THROWS_WITH(run(c), Catch::Contains("iq4_xs") && Catch::Contains("mxfp4_moe") && Catch::Contains("q4_k_m"));
}

TEST_CASE("KV formats: the llama.cpp cache types q5_0, q5_1, q4_1, iq4_nl", "[precision]") {
    CHECK(kv_format("q5_1").bytes == 24.0 / 32);
    CHECK(kv_format("q5_0").bytes == 22.0 / 32);
    CHECK(kv_format("q4_1").bytes == 20.0 / 32);
    CHECK(kv_format("iq4_nl").bytes == 18.0 / 32);
    CHECK(kv_format("iq4_nl").llama_cpp_only);
}

TEST_CASE("weight groups for a picker", "[precision]") {
    CHECK(weight_format("bf16").group == WeightGroup::native);
    CHECK(weight_format("mxfp4").group == WeightGroup::native);
    CHECK(weight_format("int4").group == WeightGroup::gptq_awq);
    CHECK(weight_format("fp4").group == WeightGroup::bitsandbytes);
    CHECK(weight_format("q4_k_s").group == WeightGroup::gguf_k);
    CHECK(weight_format("iq2_m").group == WeightGroup::gguf_i);
    CHECK(to_string(WeightGroup::gguf_i) == "GGUF I-quants");
}

TEST_CASE("a checkpoint's quantization_config becomes a scheme", "[precision]") {
    // gpt-oss config.json: quant_method mxfp4, modules_to_not_convert = attention, router,
    // embeddings, head (as hf_quantization.cpp records them).
    ModelArch a;
    a.native_dtype = "bfloat16";
    a.native_format = "mxfp4";
    a.native_group_size = 32;
    a.native_unquantized_modules = {"model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"};
    const auto s = native_weight_scheme(a);
    REQUIRE(s);
    CHECK(scheme_class_bits(*s, SchemeClass::routed_expert) == 4.25);
    CHECK(scheme_class_bits(*s, SchemeClass::attention) == 16.0);
    CHECK(scheme_class_bits(*s, SchemeClass::router) == 16.0);
    CHECK(scheme_class_bits(*s, SchemeClass::embedding) == 16.0);
    // GPTQ 4-bit, group 32: 4 + 20/32.
    ModelArch g;
    g.native_format = "int4";
    g.native_group_size = 32;
    CHECK(scheme_class_bits(*native_weight_scheme(g), SchemeClass::mlp) == 4.625);
    // DeepSeek FP8, weight_block_size [128, 128] = 16384 weights per fp32 scale.
    ModelArch d;
    d.native_format = "fp8";
    d.native_group_size = 16384;
    CHECK(scheme_class_bits(*native_weight_scheme(d), SchemeClass::routed_expert) == 8.0 + 32.0 / 16384);
    // bitsandbytes NF4 without double quantization: 4.5.
    ModelArch b;
    b.native_format = "nf4";
    b.native_group_size = 64;
    CHECK(scheme_class_bits(*native_weight_scheme(b), SchemeClass::attention) == 4.5);
    CHECK_FALSE(native_weight_scheme(ModelArch{}));   // not quantized
}

TEST_CASE("the sizing table agrees with the GGUF reader's type table", "[precision][gguf]") {
    // Two transcriptions of ggml-common.h (precision.cpp for sizing, model_file.cpp for reading
    // GGUF files): every type the sizing knows has the same block and bytes in the reader's.
    for (GgmlType t : all_ggml_types()) {
        INFO(to_string(t));
        const GgmlTypeTraits* found = nullptr;
        for (const GgmlTypeTraits& r : ggml_types())
            if (to_string(t) == r.name) found = &r;
        REQUIRE(found != nullptr);
        CHECK(int(found->block_size) == ggml_block_size(t));
        CHECK(int(found->type_size) == ggml_block_bytes(t));
    }
}
