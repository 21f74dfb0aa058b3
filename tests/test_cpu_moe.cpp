// test_cpu_moe.cpp: llama.cpp's --n-cpu-moe (`n_cpu_moe`): which bytes leave the GPU, where they
// go, and what decode and prefill pay for them, against hand derivations.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>

#include "gpusizer/model_file.hpp"
#include "model_fixtures.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Qwen3-30B-A3B (models.json: 48 layers, all MoE, 128 routed experts of width 768 on hidden 2048,
// 8 picked per token, no shared expert) as a Q8_0 GGUF under llama.cpp.
Config qwen3_30b(int n_cpu_moe, const char* gpu = "rtx-4090") {
    Config c = serving("qwen3-30b-a3b", gpu, Runtime::llama_cpp);
    c.weights = "q8_0";
    c.context = 4096;
    c.n_cpu_moe = n_cpu_moe;
    return c;
}

// One Qwen3-30B-A3B layer's routed experts: gate, up and down (ffn_{gate,up,down}_exps), each
// 2048 x 768 per expert, 128 experts: 3 x 2048 x 768 x 128 = 603,979,776 weights; Q8_0 stores 32
// weights in 34 bytes (an fp16 scale + 32 int8): 603,979,776 x 34 / 32 = 641,728,512 bytes.
constexpr double kQwen3LayerExpertBytes = 3.0 * 2048 * 768 * 128 * 34.0 / 32.0;

}  // namespace

TEST_CASE("n_cpu_moe moves the routed experts of the first N layers to host RAM", "[cpu_moe][memory]") {
    static_assert(kQwen3LayerExpertBytes == 641728512.0, "the derivation above");
    const Report base = run(qwen3_30b(0));
    const Report moved = run(qwen3_30b(12));
    // 12 layers x 641,728,512 = 7,700,742,144 bytes leave the GPU and sit in RAM, nothing else moves.
    const double expected = 12 * kQwen3LayerExpertBytes;
    CHECK(base.per_gpu.weights - moved.per_gpu.weights == Approx(expected).epsilon(1e-12));
    CHECK(moved.host - base.host == Approx(expected).epsilon(1e-12));
    CHECK(moved.host_experts == Approx(expected).epsilon(1e-12));
    CHECK(base.host_experts == 0);
    CHECK(moved.per_gpu.kv_cache == base.per_gpu.kv_cache);
    CHECK(moved.per_gpu.activations == base.per_gpu.activations);
    // --cpu-moe (all 48 layers): every routed expert, 48 x 641,728,512 = 30.8 GB; what stays is
    // attention, norms, routers, embedding table and head.
    const Report all = run(qwen3_30b(48));
    CHECK(all.host_experts == Approx(48 * kQwen3LayerExpertBytes).epsilon(1e-12));
    CHECK(all.per_gpu.weights == Approx(base.per_gpu.weights - 48 * kQwen3LayerExpertBytes).epsilon(1e-12));
}

TEST_CASE("n_cpu_moe: a dense layer among the first N has no experts to keep", "[cpu_moe][memory]") {
    // GLM-4.5-Air (models.json: 46 layers, first_k_dense_replace 1, 128 routed experts of width
    // 1408 on hidden 4096 and one shared expert). bf16: one MoE layer's routed experts are
    // 3 x 4096 x 1408 x 128 x 2 B = 4,429,185,024 bytes; the shared expert stays on the GPU.
    Config c = serving("glm-4.5-air", "rtx-pro-6000-blackwell", Runtime::llama_cpp);
    c.weights = "bf16";
    c.context = 4096;
    const Report base = run(c);
    c.n_cpu_moe = 1;   // layer 0 is dense: nothing moves
    const Report dense_only = run(c);
    CHECK(dense_only.host_experts == 0);
    CHECK(dense_only.per_gpu.weights == base.per_gpu.weights);
    c.n_cpu_moe = 2;   // layer 1 is the first MoE layer
    const Report one = run(c);
    const double layer_experts = 3.0 * 4096 * 1408 * 128 * 2.0;
    CHECK(one.host_experts == Approx(layer_experts).epsilon(1e-12));
    CHECK(base.per_gpu.weights - one.per_gpu.weights == Approx(layer_experts).epsilon(1e-12));
}

TEST_CASE("n_cpu_moe = every layer is --cpu-moe: the experts-on-host figure", "[cpu_moe][speed]") {
    // gpt-oss-120b MXFP4 (65 GB) does not fit a 32 GB RTX 5090: llama.cpp's automatic offload
    // reports, beside -ngl, the --cpu-moe layout (all layers on the GPU, routed experts in RAM).
    // Asking for that layout (n_cpu_moe = 36, its layer count) must give the same decode speed.
    Config c = serving("gpt-oss-120b", "rtx-5090", Runtime::llama_cpp);
    c.weights = "mxfp4_moe";
    c.context = 8192;
    const Report automatic = run(c);
    REQUIRE_FALSE(automatic.fits);
    REQUIRE(automatic.speed.offload.experts_on_host_decode_tokens_per_s > 0);
    c.n_cpu_moe = 36;
    const Report cpu_moe = run(c);
    CHECK(cpu_moe.fits);
    CHECK_FALSE(cpu_moe.speed.offload.active);
    CHECK(cpu_moe.speed.decode_tokens_per_s == Approx(automatic.speed.offload.experts_on_host_decode_tokens_per_s).epsilon(1e-12));
}

TEST_CASE("n_cpu_moe decode: the touched experts at the host's bandwidth", "[cpu_moe][speed]") {
    // One token picks 8 of 128 experts per layer: the CPU reads 12 x 641,728,512 x 8 / 128 =
    // 481,296,384 bytes per step, at 0.68 of dual-channel DDR5-4800 (76.8 GB/s, the default).
    // On a 96 GB RTX PRO 6000 Blackwell, where the 32 GB model fits either way.
    const char* gpu = "rtx-pro-6000-blackwell";
    const Report base = run(qwen3_30b(0, gpu));
    const Report moved = run(qwen3_30b(12, gpu));
    REQUIRE(base.fits);
    const double host_read = 12 * kQwen3LayerExpertBytes * 8.0 / 128.0;
    CHECK(moved.speed.decode_host_bytes_per_step == Approx(host_read).epsilon(1e-12));
    CHECK(base.speed.decode_host_bytes_per_step == 0);
    // The step: those bytes leave the GPU's read (at 0.9 x 1792 GB/s) and come from RAM (at
    // 0.68 x 76.8 GB/s) instead; everything else is the same.
    const double gpu_bw = 0.9 * 1792e9, host_bw = 0.68 * 76.8e9;
    CHECK(moved.speed.decode_step_s - base.speed.decode_step_s == Approx(host_read / host_bw - host_read / gpu_bw).epsilon(1e-9));
    CHECK(moved.speed.decode_bytes_per_step == Approx(base.speed.decode_bytes_per_step).epsilon(1e-12));
    // More layers in RAM, slower decode; a faster host, faster decode.
    CHECK(run(qwen3_30b(24, gpu)).speed.decode_tokens_per_s < moved.speed.decode_tokens_per_s);
    Config fast = qwen3_30b(12, gpu);
    fast.host_memory_bandwidth_gb_per_s = 2 * 76.8;
    CHECK(run(fast).speed.decode_tokens_per_s > moved.speed.decode_tokens_per_s);
}

TEST_CASE("n_cpu_moe prefill: each forward copies the experts it routes to over PCIe", "[cpu_moe][speed]") {
    // A 2048-token prompt in llama.cpp's 512-token forwards (n_ubatch): 4 forwards. 512 tokens
    // picking 8 of 128 experts leave 1 - (120/128)^512 (all but ~5e-15) of them unused: each
    // forward copies 12 x 641,728,512 B x that share over the RTX PRO 6000's PCIe 5.0 x16
    // (63 GB/s x 0.78).
    Config c = qwen3_30b(12, "rtx-pro-6000-blackwell");
    c.prompt_tokens = 2048;
    const Report r = run(c);
    const double per_forward = 12 * kQwen3LayerExpertBytes * (1.0 - std::pow(120.0 / 128.0, 512)) / (63e9 * 0.78);
    CHECK(r.speed.prefill_host_copy_s == Approx(4 * per_forward).epsilon(1e-9));
    Config none = c;
    none.n_cpu_moe = 0;
    const Report base = run(none);
    CHECK(base.speed.prefill_host_copy_s == 0);
    // The copies add to the prefill; the GPU's own part reads less (the moved experts), so what
    // remains is no slower than the prefill without them.
    CHECK(r.speed.ttft_s > base.speed.ttft_s);
    CHECK(r.speed.ttft_s - r.speed.prefill_host_copy_s <= base.speed.ttft_s);
    // Forwards of fewer than 32 tokens stay on the CPU (ggml-cuda offload_op): 16-token chunks
    // touch 1 - (120/128)^16 = 64.4% of the experts, read at 0.68 x 76.8 GB/s, 128 times.
    c.prefill_chunk = 16;
    const Report small = run(c);
    const double per_small = 12 * kQwen3LayerExpertBytes * (1.0 - std::pow(120.0 / 128.0, 16)) / (0.68 * 76.8e9);
    CHECK(small.speed.prefill_host_copy_s == Approx(128 * per_small).epsilon(1e-9));
}

TEST_CASE("n_cpu_moe: bad values name the key", "[cpu_moe][errors]") {
    auto message = [](const Config& c) -> std::string {
        try {
            run(c);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    // More layers than the model has: the range names the layer count.
    const std::string over = message(qwen3_30b(49));
    CHECK(over.find("n_cpu_moe") != std::string::npos);
    CHECK(over.find("48") != std::string::npos);
    CHECK(message(qwen3_30b(-1)).find("n_cpu_moe") != std::string::npos);
    // Other runtimes keep no tensor overrides.
    Config vllm = serving("qwen3-30b-a3b", "h100-sxm", Runtime::vllm);
    vllm.n_cpu_moe = 4;
    const std::string rt = message(vllm);
    CHECK(rt.find("n_cpu_moe") != std::string::npos);
    CHECK(rt.find("vllm") != std::string::npos);
    // A dense model has no routed experts.
    Config dense = serving("llama-3-8b", "rtx-4090", Runtime::llama_cpp);
    dense.weights = "q4_k_m";
    dense.n_cpu_moe = 4;
    CHECK(message(dense).find("n_cpu_moe") != std::string::npos);
    // Ollama runs llama-server: the key applies.
    Config ollama = serving("qwen3-30b-a3b", "rtx-4090", Runtime::ollama);
    ollama.weights = "q4_k_m";
    ollama.n_cpu_moe = 8;
    CHECK(run(ollama).host_experts > 0);
}

TEST_CASE("n_cpu_moe travels through JSON and share links", "[cpu_moe][config]") {
    const Config c = qwen3_30b(20);
    const Config back = config_from_json(config_to_json(c));
    CHECK(back.n_cpu_moe == 20);
    const std::string link = link_from_config(c);
    CHECK(link.find("ncm=20") != std::string::npos);
    CHECK(config_from_link(link).n_cpu_moe == 20);
    // The default (0) stays out of links, so links written before the key read the same.
    CHECK(link_from_config(qwen3_30b(0)).find("ncm") == std::string::npos);
    // The report echoes it.
    CHECK(run(c).config.n_cpu_moe == 20);
}

TEST_CASE("n_cpu_moe under load: the engine step reads the host experts too", "[cpu_moe][serving]") {
    // One request at a time (llama-server, 512 in, 128 out). The steady state's mean step
    // (serving.cpp) spreads the request's 128 steps (one 512-token prompt chunk, 127 decode
    // steps) evenly: 127/128 decode tokens and 512/128 = 4 prompt tokens a step. The experts of
    // 12 layers (12 x 641,728,512 B) leave the GPU's read (which the step's ~5 tokens touch as
    // 1 - (15/16)^4.99 of them); the CPU reads the decode tokens' share, 1 - (15/16)^(127/128),
    // at 0.68 x 76.8 GB/s, and each step carries 4/512 of the prompt chunk's copy of all of them
    // over PCIe 5.0 x16 (0.78 x 63 GB/s).
    auto load = [](int n) {
        Config c = qwen3_30b(n, "rtx-pro-6000-blackwell");
        c.isl = 512;
        c.osl = 128;
        c.concurrency = 1;
        return run(c);
    };
    const Report base = load(0), moved = load(12);
    REQUIRE(base.serving.active);
    const double experts = 12 * kQwen3LayerExpertBytes;
    const double decode = 127.0 / 128.0, prompt = 4.0;
    auto share = [](double tokens) { return 1.0 - std::pow(15.0 / 16.0, tokens); };
    const double gpu_bw = 0.9 * 1792e9, host_bw = 0.68 * 76.8e9, pcie = 0.78 * 63e9;
    const double delta = experts * share(decode) / host_bw + prompt / 512.0 * experts * share(512) / pcie -
                         experts * share(decode + prompt) / gpu_bw;
    // The GPU's reads and math meet on the smooth roofline (performance.hpp, gemm_roofline_seconds):
    // with ~5 tokens' math a few per cent of the reads, fewer reads shift that term by ~5 us of
    // the 9 ms difference, under 1e-3 of it.
    CHECK(moved.serving.step_s - base.serving.step_s == Approx(delta).epsilon(1e-3));
    CHECK(moved.serving.ttft_s > base.serving.ttft_s);   // the prompt's forwards copy the experts over PCIe
}

TEST_CASE("n_cpu_moe with a layer split: each GPU frees the experts of its own first layers", "[cpu_moe][memory]") {
    // Two RTX 4090s, llama.cpp's layer split (pp 2): layers 0-23 on the first, 24-47 and the
    // output head on the second. llama.cpp does not rebalance the split for the override, so
    // n_cpu_moe 36 takes 24 layers' experts off the first GPU and 12 off the second; the second
    // (with the head) stays the most loaded, 12 x 641,728,512 B lighter. Host RAM holds all 36.
    Config c = qwen3_30b(0);
    c.gpus = 2;
    const Report base = run(c);
    REQUIRE(base.parallel.pp == 2);
    c.n_cpu_moe = 36;
    const Report moved = run(c);
    CHECK(moved.host_experts == Approx(36 * kQwen3LayerExpertBytes).epsilon(1e-12));
    CHECK(base.per_gpu.weights - moved.per_gpu.weights == Approx(12 * kQwen3LayerExpertBytes).epsilon(1e-12));
    // n_cpu_moe 12 frees only the first GPU: the most loaded one does not change.
    c.n_cpu_moe = 12;
    CHECK(run(c).per_gpu.weights == Approx(base.per_gpu.weights).epsilon(1e-12));
}

TEST_CASE("n_cpu_moe on a model read from a GGUF file: the file's expert bytes", "[cpu_moe][gguf]") {
    // tiny_qwen3moe_q8() (tests/model_fixtures.hpp) marked a Q8_0 file (general.file_type 7): 3 blocks
    // of hidden 64, 8 experts of width 32. A block's routed experts: gate, up and down, 8 x 64 x
    // 32 = 16,384 weights each, 49,152 in Q8_0's 34 bytes per 32: 52,224 bytes. n_cpu_moe 2
    // moves two blocks' worth, 104,448 bytes, from the GPU to host RAM.
    using namespace gpusizer::fixtures;
    GgufWriter w = tiny_qwen3moe_q8();
    w.kv_u32("general.file_type", 7);
    const std::map<std::string, Bytes> files = {{"moe.gguf", w.bytes()}};
    Config c;
    c.gguf = "moe.gguf";
    c.gpu = "rtx-4090";
    load_model_files(c, [&files](const std::string& name) -> std::unique_ptr<ByteSource> {
        auto it = files.find(name);
        return it == files.end() ? nullptr : std::make_unique<MemorySource>(name, it->second);
    });
    REQUIRE(c.weights == "q8_0");
    const Report base = run(c);
    REQUIRE(base.config.runtime == Runtime::llama_cpp);
    c.n_cpu_moe = 2;
    const Report moved = run(c);
    constexpr double kBlockExperts = 3.0 * 8 * 64 * 32 * 34.0 / 32.0;
    static_assert(kBlockExperts == 52224.0, "the derivation above");
    CHECK(moved.host_experts == Approx(2 * kBlockExperts).epsilon(1e-12));
    CHECK(base.per_gpu.weights - moved.per_gpu.weights == Approx(2 * kBlockExperts).epsilon(1e-12));
    CHECK(moved.host - base.host == Approx(2 * kBlockExperts).epsilon(1e-12));
}

TEST_CASE("n_cpu_moe where every expert fits on the GPU: a warning says it only slows decode", "[cpu_moe][warnings]") {
    // Qwen3-30B-A3B Q8_0 (~32 GB) fits a 96 GB RTX PRO 6000 whole: moving experts gains nothing.
    CHECK(has_warning(run(qwen3_30b(12, "rtx-pro-6000-blackwell")), "only slows decode"));
    // On a 24 GB RTX 4090 it does not fit whole: 24 layers' experts in RAM are what make it fit
    // (32 GB less 24 x 0.64 GB), no warning.
    const Report r = run(qwen3_30b(24));
    REQUIRE(r.fits);
    CHECK_FALSE(has_warning(r, "only slows decode"));
    CHECK_FALSE(has_warning(run(qwen3_30b(0, "rtx-pro-6000-blackwell")), "n_cpu_moe"));
}
