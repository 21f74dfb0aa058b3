// test_activations.cpp: activation memory, inference and training.
#include <catch2/catch.hpp>

#include "estimate_internal.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// A GPT-3-style layer as Korthikanti et al. (2022) assume it: MHA, a 4h GeLU MLP, LayerNorm,
// dropout everywhere, 16-bit activations.
Config gpt3_like(int gpus, bool sequence_parallel, Recompute recompute) {
    Config c;
    c.model.custom = true;
    ModelArch& a = c.model.arch;
    a.model_type = "gpt2";
    a.n_layers = 96;
    a.hidden = 12288;
    a.intermediate = 4 * 12288;
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.n_heads = a.n_kv_heads = 96;
    a.head_dim = a.v_head_dim = 128;
    a.vocab = 50257;
    a.qkv_bias = a.o_bias = a.mlp_bias = true;
    a.dropout = true;
    c.mode = Mode::train;
    c.gpu = "h100-sxm";
    c.gpus = gpus;
    c.tp = gpus;
    c.context = 2048;
    c.batch = 1;
    c.flash_attention = false;
    c.sequence_parallel = sequence_parallel;
    c.recompute = recompute;
    c.runtime = Runtime::none;
    return c;
}

double layer_bytes(const Config& c) {
    const detail::Resolved r = detail::resolve(c, catalog());
    return detail::train_layer_bytes(r, 5, c.recompute);
}

}  // namespace

TEST_CASE("training activations per layer reproduce Korthikanti et al. 2022", "[activations][published]") {
    const double s = 2048, b = 1, h = 12288, a = 96;
    const double sbh = s * b * h;
    // Eq. 1: sbh (34 + 5as/h) with no parallelism.
    CHECK(layer_bytes(gpt3_like(1, false, Recompute::none)) == Approx(sbh * (34 + 5 * a * s / h)));
    // Eq. 2, tensor parallel t = 8: sbh (10 + 24/t + 5as/(ht)).
    CHECK(layer_bytes(gpt3_like(8, false, Recompute::none)) == Approx(sbh * (10 + 24.0 / 8 + 5 * a * s / (h * 8))));
    // Eq. 4, tensor + sequence parallel: sbh/t (34 + 5as/h).
    CHECK(layer_bytes(gpt3_like(8, true, Recompute::none)) == Approx(sbh / 8 * (34 + 5 * a * s / h)));
    // Selective recomputation drops the 5as^2b term: 34 sbh / t.
    CHECK(layer_bytes(gpt3_like(8, true, Recompute::selective)) == Approx(34 * sbh / 8));
    // Full recomputation keeps the layer input: 2 sbh (/t with sequence parallel).
    CHECK(layer_bytes(gpt3_like(1, false, Recompute::full)) == Approx(2 * sbh));
    CHECK(layer_bytes(gpt3_like(8, true, Recompute::full)) == Approx(2 * sbh / 8));
}

TEST_CASE("flash attention keeps only the fp32 log-sum-exp of the attention core", "[activations]") {
    Config c = gpt3_like(1, false, Recompute::none);
    c.flash_attention = true;
    const double s = 2048, h = 12288, a = 96;
    CHECK(layer_bytes(c) == Approx(s * h * 34 + 4.0 * a * s));
}

TEST_CASE("modern layers: GQA, SwiGLU, no dropout (Llama 3 8B)", "[activations]") {
    Config c = training("llama-3-8b", "h100-sxm");
    c.context = 4096;
    c.runtime = Runtime::none;
    const detail::Resolved r = detail::resolve(c, catalog());
    const double s = 4096, h = 4096, i = 14336;
    // Attention: norm in + qkv in (4sh) + q (2sh) + k, v (2 x 2 x s x 1024) + o in (2sh) + LSE (4 x 32 x s);
    // MLP: norm in + up in (4sh) + gate, up, product (3 x 2 x s x i).
    const double expected = 4 * s * h + 2 * s * h + 4 * s * 1024 + 2 * s * h + 4 * 32 * s + 4 * s * h + 6 * s * i;
    CHECK(detail::train_layer_bytes(r, 0, Recompute::none) == Approx(expected));
}

TEST_CASE("llama.cpp compute buffer matches logged sizes", "[activations][llama.cpp][published]") {
    // docs/research/runtime-facts.md sec. 1a: "CUDA0 compute buffer size" lines.
    auto buffer_mib = [](const Config& c) { return run(c).per_gpu.activations / kMiB; };
    Config c = config("llama-3.1-8b", "rtx-4090");
    c.weights = "q4_0";
    c.flash_attention = false;
    c.context = 8192;
    CHECK(buffer_mib(c) == Approx(560.00).margin(0.01));   // Tesla T4 log, n_ctx 8192
    c.context = 512;
    CHECK(buffer_mib(c) == Approx(258.50).margin(0.01));   // n_ctx 512: the logits dominate
    c.context = 16384;
    c.flash_attention = true;
    c.prefill_chunk = 1024;
    CHECK(buffer_mib(c) == Approx(613.00).margin(0.01));   // mainline Vulkan log, FA on, ubatch 1024

    // Llama 2 7B (vocab 32000, MHA): 164 / 296 / 2144 MiB at n_ctx 2048 / 4096 / 32768.
    Config l2;
    l2.model.custom = true;
    l2.model.arch = arch_from_hf_config(R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
        "intermediate_size": 11008, "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 32000,
        "max_position_embeddings": 4096})");
    l2.gpu = "v100-sxm2-16gb";
    l2.weights = "q4_k_m";
    l2.flash_attention = false;
    l2.context = 2048;
    CHECK(buffer_mib(l2) == Approx(164.00).margin(0.01));
    l2.context = 4096;
    CHECK(buffer_mib(l2) == Approx(296.00).margin(0.01));
    l2.context = 32768;
    l2.gpu = "h100-sxm";
    CHECK(buffer_mib(l2) == Approx(2144.00).margin(0.01));
}

TEST_CASE("inference working set of a prefill, by hand (Llama 3 8B, PyTorch)", "[activations]") {
    Config c = config("llama-3-8b");
    c.context = 8192;
    const Report r = run(c);
    // Per token: residual + normed input (2h) + the MLP block, the larger one:
    // gate, up, product (3 x 14336) + down output (4096) = 47104; 55296 values x 2 bytes.
    // Logits of the last position: bf16 then fp32, 128256 x 6 bytes.
    CHECK(r.per_gpu.activations == Approx(8192.0 * 55296 * 2 + 128256.0 * 6));
}

TEST_CASE("eager attention adds the quadratic scores", "[activations]") {
    Config c = config("llama-3-8b");
    c.context = 8192;
    const double flash = run(c).per_gpu.activations;
    c.flash_attention = false;
    // 32 heads x 8192 x 8192 scores, bf16 plus the fp32 softmax: 6 bytes each.
    CHECK(run(c).per_gpu.activations - flash == Approx(32.0 * 8192 * 8192 * 6));
}

TEST_CASE("activations grow with context and batch", "[activations][property]") {
    for (const char* runtime : {"pytorch", "llama.cpp", "none"}) {
        Config c = config("mistral-7b");
        c.runtime = parse_runtime(runtime);
        double prev = 0;
        for (long long ctx : {256LL, 1024LL, 4096LL, 32768LL}) {
            c.context = ctx;
            const double a = run(c).per_gpu.activations;
            INFO(runtime << " context " << ctx);
            CHECK(a >= prev);
            prev = a;
        }
    }
    Config t = training("llama-3-8b", "h100-sxm");
    double prev = 0;
    for (int b : {1, 2, 4, 8}) {
        t.batch = b;
        const double a = run(t).per_gpu.activations;
        CHECK(a > prev);
        prev = a;
    }
}
