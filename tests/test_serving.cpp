// test_serving.cpp: engine memory profiles by version (KV pools, max concurrency, defaults) and
// the steady-state serving model under load (core/src/serving.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include "gpusizer/engine_log.hpp"
#include "runtime_profiles.hpp"
#include "power/power.hpp"
#include "serving.hpp"
#include "serving_support.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Llama 3 8B: 32 layers x 8 KV heads x 128 x (K, V) x 2 bytes = 131,072 bytes of KV per token.
constexpr double kLlama8bKvPerToken = 32.0 * 8 * 128 * 2 * 2;

Config engine(const std::string& model, const std::string& gpu, Runtime rt, const std::string& weights = "") {
    Config c = config(model, gpu);
    c.runtime = rt;
    c.weights = weights;
    return c;
}

double non_kv(const Report& r) { return r.per_gpu.total() - r.per_gpu.kv_cache; }

EngineLog log_file(const std::string& name) {
    std::ifstream f(std::string(GPUSIZER_TEST_DATA) + "/logs/" + name, std::ios::binary);
    return read_engine_log(std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Engine memory profiles
// ---------------------------------------------------------------------------------------------

TEST_CASE("SGLang: mem_fraction_static from the GPU's memory", "[serving][sglang]") {
    // server_args.py (v0.4.8): reserved_mem by bucket, mem_fraction_static = round((gpu_mem - reserved) / gpu_mem, 3).
    // H100 SXM, 81,559 MiB, tp 1: reserved (9.5 + 1/2) x 1024 = 10,240 MiB -> 71,319 / 81,559 = 0.87445 -> 0.874.
    CHECK(detail::sglang_mem_fraction_static(81559, 1) == Approx(0.874));
    // tp 4: (9.5 + 2) x 1024 = 11,776 MiB -> 69,783 / 81,559 = 0.85561 -> 0.856.
    CHECK(detail::sglang_mem_fraction_static(81559, 4) == Approx(0.856));
    // RTX 4090, 24,564 MiB: (2.8 + 0.1) x 1024 = 2,969.6 MiB -> 21,594.4 / 24,564 = 0.87911 -> 0.879.
    CHECK(detail::sglang_mem_fraction_static(24564, 1) == Approx(0.879));
    // B200, 183,359 MiB: 32 GiB reserved -> 150,591 / 183,359 = 0.82129 -> 0.821.
    CHECK(detail::sglang_mem_fraction_static(183359, 8) == Approx(0.821));
    CHECK(detail::sglang_chunked_prefill_size(24564) == 2048);
    CHECK(detail::sglang_chunked_prefill_size(81559) == 8192);
    CHECK(detail::sglang_chunked_prefill_size(183359) == 16384);
}

TEST_CASE("SGLang: the pool is mem_fraction_static of the memory free before loading, less the weights", "[serving][sglang]") {
    Config c = engine("llama-3-8b", "h100-sxm", Runtime::sglang);
    c.runtime_version = "0.4.8";   // its buckets' 0.874 (the 0.5.3 reserve: the next test)
    const Report r = run(c);
    CHECK(r.config.runtime == Runtime::sglang);
    CHECK(r.config.runtime_version == "0.4.8");
    // model_runner.py: rest = available_after_load - total x (1 - f), total = free before loading
    // = capacity - CUDA context (400 MiB) - NCCL / all-reduce buffers (0.15 GiB on one GPU).
    const double before_load = r.gpu_capacity - 400 * kMiB - 0.15 * kGiB;
    const double pool = 0.874 * before_load - r.per_gpu.weights;
    CHECK(r.kv_capacity_tokens == std::floor(pool / kLlama8bKvPerToken));
    // 0.874 x (79.65 - 0.39 - 0.15) GiB - 14.96 GiB of weights = 54.2 GiB: about 444 k tokens.
    CHECK(r.kv_capacity_tokens == Approx(444000).epsilon(0.01));
}

TEST_CASE("SGLang 0.5.3: mem_fraction_static from the reserve PR 10975 builds", "[serving][sglang]") {
    const detail::EngineVersion& v = detail::engine_version(Runtime::sglang, "0.5.3");
    const detail::EngineVersion& old = detail::engine_version(Runtime::sglang, "0.4.8");
    CHECK(v.sglang_reserve_by_load);
    CHECK(std::string(detail::engine_version(Runtime::sglang, "").version) == "0.5.3");   // the default
    detail::SglangReserveInputs in;
    // H100 SXM, 81,559 MiB, tp 1: 512 + 1.5 x 8192 + 2 x 256 + 1024 / 8 = 13,440 MiB (above the
    // 10 GiB floor) -> (81,559 - 13,440) / 81,559 = 0.83521 -> 0.835.
    in.gpu_memory_mib = 81559;
    CHECK(detail::sglang_mem_fraction_static(v, in) == Approx(0.835));
    CHECK(detail::sglang_mem_fraction_static(old, in) == Approx(0.874));   // the 0.4.8 row keeps its buckets
    // + 2 GiB for MTP / EAGLE heads: 15,488 MiB -> 0.81010 -> 0.810; a draft model (STANDALONE) 6 GiB:
    // 19,584 -> 0.75988 -> 0.760.
    in.speculative = detail::SglangReserveInputs::Draft::eagle;
    CHECK(detail::sglang_mem_fraction_static(v, in) == Approx(0.810));
    in.speculative = detail::SglangReserveInputs::Draft::standalone;
    CHECK(detail::sglang_mem_fraction_static(v, in) == Approx(0.760));
    in.speculative = detail::SglangReserveInputs::Draft::none;
    // A chunked prefill given: 4096 -> 512 + 6144 + 512 + 128 = 7,296, under the 10 GiB floor:
    // 10,240 -> 0.87445 -> 0.874.
    in.chunked_prefill = 4096;
    CHECK(detail::sglang_mem_fraction_static(v, in) == Approx(0.874));
    in.chunked_prefill = 0;
    // RTX 4090, 24,564 MiB (no floor under 60 GiB): 512 + 1.5 x 2048 + 2 x 24 + 128 = 3,760 ->
    // 0.84693 -> 0.847.
    in.gpu_memory_mib = 24564;
    CHECK(detail::sglang_mem_fraction_static(v, in) == Approx(0.847));
    CHECK(detail::sglang_chunked_prefill_size(v, 24564) == 2048);
    CHECK(detail::sglang_chunked_prefill_size(v, 40960) == 4096);   // an A100 40GB: its own bucket now
    CHECK(detail::sglang_chunked_prefill_size(old, 40960) == 8192);
    // B200, 183,359 MiB, tp 8 with DP attention over 8 groups: 512 + 1.5 x 16,384 + 2 x 512 + 1024
    // + 3 x 512 x 8 + 1.5 x 512 x 8 (graphs above 300) = 45,568 MiB -> 0.75148 -> 0.751; without
    // DP attention 27,136 -> 0.852.
    in.gpu_memory_mib = 183359;
    in.tp = 8;
    CHECK(detail::sglang_mem_fraction_static(v, in) == Approx(0.852));
    in.dp_attention = 8;
    CHECK(detail::sglang_mem_fraction_static(v, in) == Approx(0.751));
    CHECK(detail::sglang_cuda_graph_max_bs(81559, 2) == 256);
    CHECK(detail::sglang_cuda_graph_max_bs(81559, 4) == 512);
    CHECK(detail::sglang_cuda_graph_max_bs(24564, 4) == 80);
}

TEST_CASE("SGLang's data-parallel attention: weights replicated over the groups, a pool per group", "[serving][sglang]") {
    // DeepSeek-V3.2-Exp FP8 on 8 B200 at tp 8, as PR 11309's logs ran it (--dp 8 --enable-dp-attention).
    Config c = engine("deepseek-v3.2-exp", "b200", Runtime::sglang);
    c.gpus = c.tp = 8;
    c.weights = "fp8";
    c.kv_cache = "fp8";
    c.isl = c.osl = 1000;
    c.concurrency = 512;
    const Report tp = run(c);
    c.dp_attention = 8;
    const Report dp = run(c);
    // The attention's projections: q_b (1536 x 128 x 192), kv_b (512 x 128 x 256) and o
    // (128 x 128 x 7168) of 61 layers, FP8 (1 B each, block scales aside): split over 8 under TP,
    // whole under DP attention; and the embedding (129,280 x 7168, BF16) whole on every GPU.
    const double attn = 61.0 * (1536.0 * 128 * 192 + 512.0 * 128 * 256 + 128.0 * 128 * 7168);
    const double embedding = 129280.0 * 7168 * 2;
    CHECK(dp.per_gpu.weights - tp.per_gpu.weights == Approx((attn + embedding) * 7.0 / 8.0).epsilon(0.01));
    // The MLA latent is one for all heads: a token's cache is the same on every GPU either way.
    // FP8 sparse MLA is FlashMLA's fp8_ds_mla record (512 + 16 + 128 = 656 B) with the indexer's
    // 132 B key: 61 x 788 = 48,068 B a token (PR 11309's log: 43.67 GiB for 975,424 tokens).
    CHECK(dp.kv_bytes_per_token == 61.0 * (656 + 132));
    CHECK(tp.kv_bytes_per_token == dp.kv_bytes_per_token);
    // SGLang's own fraction (0.751 against 0.852 without DP attention) and more weights: a smaller
    // pool on each GPU, but 8 of them in the replica.
    CHECK(dp.config.mem_fraction_static.value_or(0) == Approx(0.751));
    CHECK(dp.kv_capacity_tokens < tp.kv_capacity_tokens);
    CHECK(dp.serving.max_concurrency == Approx(8.0 * dp.kv_capacity_tokens / double(dp.config.context)).epsilon(0.01));
    // Decode reads 1/8 of the batch's cache on each GPU: at 512 requests the step is shorter.
    CHECK(dp.serving.output_tokens_per_s > tp.serving.output_tokens_per_s);
    // Llama 3 70B (GQA, 8 KV heads) at tp 8 in 2 groups of 4: q, k, v and o split over 4, the
    // embedding whole; a token's K/V over 4 GPUs (2 heads each) instead of 8 (1 each), so one GPU's
    // pool holds about half the tokens, and the replica two pools.
    Config g = engine("llama-3-70b", "h100-sxm", Runtime::sglang);
    g.gpus = g.tp = 8;
    const Report g8 = run(g);
    g.dp_attention = 2;
    const Report g2 = run(g);
    // Per layer: q 8192 x 8192, k and v 8192 x 1024 each, o 8192 x 8192 (bf16); 80 layers; the
    // embedding 128,256 x 8192.
    const double attn70 = 80.0 * (2.0 * 8192 * 8192 + 2.0 * 8192 * 1024) * 2;
    const double emb70 = 128256.0 * 8192 * 2;
    CHECK(g2.per_gpu.weights - g8.per_gpu.weights == Approx(attn70 * (1.0 / 4 - 1.0 / 8) + emb70 * (1 - 1.0 / 8)).epsilon(0.01));
    CHECK(g2.kv_capacity_tokens < 0.5 * g8.kv_capacity_tokens);   // twice the bytes a token, and less room beside more weights
    CHECK(g2.serving.max_concurrency == Approx(2.0 * g2.kv_capacity_tokens / double(g2.config.context)).epsilon(0.01));
    // --max-running-requests is the replica's, divided among the groups (model_runner.py:
    // max_running_requests // dp_size): 100 over 8 groups is 12 each, 96 in flight when no load is
    // asked; fewer than one a group is refused.
    Config capped = c;
    capped.isl = capped.osl = 0;
    capped.concurrency = 0;
    capped.max_num_seqs = 100;
    CHECK(run(capped).config.concurrency == 96);
    capped.max_num_seqs = 7;
    CHECK_THROWS_WITH(run(capped), Catch::Contains("dp_attention: exceeds max_num_seqs"));
    // The layout is SGLang's, for serving, and its groups divide tp.
    Config bad = c;
    bad.dp_attention = 3;
    CHECK_THROWS_WITH(run(bad), Catch::Contains("must divide tp"));
    bad = c;
    bad.runtime = Runtime::vllm;
    bad.runtime_version.clear();
    CHECK_THROWS_WITH(run(bad), Catch::Contains("applies to runtimes sglang and trt-llm only"));
}

TEST_CASE("TensorRT-LLM's attention DP: every rank its own attention and dense layers, the experts gathered", "[serving][trt]") {
    // Qwen1.5-MoE's shape with 12 dense MLP layers (mlp_only_layers): hidden 2048, 16 heads of
    // 128 (16 KV heads), dense MLPs and shared experts of 5632, 60 experts of 1408 (4 a token).
    const std::string model = R"({"hf_config": {"model_type": "qwen2_moe", "hidden_size": 2048, "intermediate_size": 5632,
        "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632, "num_experts": 60, "num_experts_per_tok": 4,
        "decoder_sparse_step": 1, "mlp_only_layers": [0,1,2,3,4,5,6,7,8,9,10,11], "num_hidden_layers": 24,
        "num_attention_heads": 16, "num_key_value_heads": 16, "vocab_size": 151936, "max_position_embeddings": 32768,
        "tie_word_embeddings": false, "torch_dtype": "bfloat16"}})";
    auto make = [&](int dp) {
        return config_from_json(R"({"model": )" + model + R"(, "runtime": "trt-llm", "gpu": "rtx-pro-6000-blackwell-server",
            "gpus": 4, "tp": 4, "isl": 1000, "osl": 1000)" + (dp ? R"(, "dp_attention": 4)" : "") + "}");
    };
    const Report tp = run(make(0));
    const Report dp = run(make(4));
    // Whole on every rank under attention DP, a quarter of it under TP: q, k, v, o (4 x 2048 x 2048
    // a layer, 24 layers), the dense MLPs (3 x 2048 x 5632, 12 layers; GatedMLP's
    // overridden_tp_size=1), the shared experts (the same, 12 layers) and the embedding (151,936 x
    // 2048); bf16. The routed experts split over tp either way.
    const double whole = 24.0 * 4 * 2048 * 2048 + 12.0 * 3 * 2048 * 5632 + 12.0 * 3 * 2048 * 5632 + 151936.0 * 2048;
    CHECK(dp.per_gpu.weights - tp.per_gpu.weights == Approx(whole * 2.0 * 3.0 / 4.0).epsilon(0.002));
    // Its step time is optimistic (the DeepSeek-R1 rows of the accuracy table): the report says so.
    CHECK(std::any_of(dp.warnings.begin(), dp.warnings.end(),
                      [](const std::string& w) { return w.find("attention DP: the throughput is optimistic") != std::string::npos; }));
    CHECK(std::none_of(tp.warnings.begin(), tp.warnings.end(),
                       [](const std::string& w) { return w.find("attention DP") != std::string::npos; }));
    // A rank's pool holds its own requests' whole K/V (16 heads): a token takes 4 x the bytes it
    // takes on a TP rank (4 heads), 24 x 2 x 2048 x 2 B.
    CHECK(dp.kv_bytes_per_token == tp.kv_bytes_per_token);
    CHECK(dp.kv_capacity_tokens == Approx(dp.memory_kv_pool_bytes / (24.0 * 2 * 2048 * 2)).epsilon(0.002));
    CHECK(tp.kv_capacity_tokens == Approx(tp.memory_kv_pool_bytes / (24.0 * 2 * 512 * 2)).epsilon(0.002));
    CHECK(dp.serving.max_concurrency == Approx(4.0 * dp.kv_capacity_tokens / double(dp.config.context)).epsilon(0.01));

    // The step's communication: no all-reduces; each of the 12 MoE layers gathers the step's
    // tokens in the experts' input type (bf16 here: 2 B a value) and scatters the output (2 B).
    const detail::ServingModel m = serving_model_of(dp.config);
    REQUIRE(m.moe_gather);
    detail::ServingModel quiet = m;
    quiet.fabric.levels = 0;   // the same step without its communication
    const double tokens = 512;
    const double comm = detail::serving_step_seconds(m, tokens, 0, 1000, 1000) - detail::serving_step_seconds(quiet, tokens, 0, 1000, 1000);
    CHECK(comm == Approx(12.0 * 2.0 * detail::reduce_scatter_seconds(m.tp_span, tokens * 2048 * 2.0)));
    // NVFP4 experts take their input in 4 bits and an FP8 scale per 16 values: the gather moves
    // 4.5 / 8 bytes a value, the scatter still 2.
    Config fp4 = dp.config;
    fp4.weights = "nvfp4";
    const detail::ServingModel m4 = serving_model_of(fp4);
    detail::ServingModel quiet4 = m4;
    quiet4.fabric.levels = 0;
    CHECK(detail::serving_step_seconds(m4, tokens, 0, 1000, 1000) - detail::serving_step_seconds(quiet4, tokens, 0, 1000, 1000) ==
          Approx(12.0 * (detail::reduce_scatter_seconds(m4.tp_span, tokens * 2048 * 4.5 / 8) +
                         detail::reduce_scatter_seconds(m4.tp_span, tokens * 2048 * 2.0))));

    // max_batch_size and max_num_tokens are each rank's: the replica holds tp x the default
    // (2048 each), and a given max_num_seqs is the replica's, floor-divided (100 over 4: 25 each).
    Config capped = make(4);
    capped.isl = capped.osl = 0;
    const Report d = run(capped);
    CHECK(serving_model_of(d.config).max_sequences == 4.0 * 2048);
    capped.max_num_seqs = 102;
    CHECK(serving_model_of(capped).max_sequences == 100);
    capped.max_num_seqs = 3;
    CHECK_THROWS_WITH(run(capped), Catch::Contains("dp_attention: exceeds max_num_seqs"));
    // A dense model under it is plain data parallelism: every layer whole on every rank, nothing
    // crosses the GPUs, the weights those of one GPU running it alone.
    Config dense = engine("llama-3.1-8b", "h100-sxm", Runtime::trt_llm);
    dense.gpus = dense.tp = dense.dp_attention = 2;
    dense.isl = dense.osl = 1000;
    const detail::ServingModel md = serving_model_of(dense);
    CHECK(md.rank_local);
    CHECK_FALSE(md.moe_gather);
    detail::ServingModel md_quiet = md;
    md_quiet.fabric.levels = 0;
    CHECK(detail::serving_step_seconds(md, 512, 0, 1000, 1000) == detail::serving_step_seconds(md_quiet, 512, 0, 1000, 1000));
    Config alone = dense;
    alone.gpus = alone.tp = 1;
    alone.dp_attention = 0;
    // (the output head, 128,256 x 4096 in bf16, stays split over tp, as under SGLang's)
    CHECK(run(dense).per_gpu.weights == Approx(run(alone).per_gpu.weights - 128256.0 * 4096 * 2 / 2).epsilon(1e-6));
    // Its attention DP has no size: every rank is a group.
    Config two = make(4);
    two.dp_attention = 2;
    CHECK_THROWS_WITH(run(two), Catch::Contains("must equal tp for trt-llm"));
    // Its experts split within the tp ranks (moe_tp x moe_ep = tp): no expert group across replicas.
    Config wide = make(4);
    wide.tp = wide.dp_attention = 2;
    wide.dp = 2;
    wide.ep = 4;
    CHECK_THROWS_WITH(run(wide), Catch::Contains("takes ep up to tp"));
    wide.ep = 2;
    CHECK_NOTHROW(run(wide));
}

TEST_CASE("TensorRT-LLM: the pool is free_gpu_memory_fraction of what is free after weights and activations", "[serving][trt]") {
    const Report r = run(engine("llama-3-8b", "h100-sxm", Runtime::trt_llm));
    CHECK(r.config.runtime_version == "1.0");
    const double pool = 0.9 * (r.gpu_capacity - non_kv(r));
    CHECK(r.kv_capacity_tokens == std::floor(pool / kLlama8bKvPerToken));
    CHECK(r.gpu_usable == Approx(non_kv(r) + pool));
    // Activations: one forward of max_num_tokens 8192 (55,296 elements per token of Llama 3 8B
    // at its peak, bf16) and the fp32 logits of min(2048, 8192) sequences.
    CHECK(r.per_gpu.activations == Approx(8192.0 * 55296 * 2 + 2048.0 * 128256 * 4));
    // TensorRT-LLM builds CUDA engines: NVIDIA only.
    Config amd = engine("llama-3-8b", "mi300x", Runtime::trt_llm);
    CHECK(thrown_message([&] { run(amd); }).find("NVIDIA") != std::string::npos);
}

TEST_CASE("llama.cpp --fit keeps 1 GiB free per device (current, b7539), older builds keep nothing (b4840)", "[serving][llama.cpp]") {
    Config c = engine("llama-3-8b", "rtx-4090", Runtime::llama_cpp, "q4_k_m");
    const Report fit = run(c);
    CHECK(fit.config.runtime_version == "current");
    c.runtime_version = "b7539";
    CHECK(run(c).kv_capacity_tokens == fit.kv_capacity_tokens);   // the same margin; only MLA layers differ
    CHECK(fit.kv_capacity_tokens == std::floor((fit.gpu_capacity - 1024 * kMiB - non_kv(fit)) / kLlama8bKvPerToken));
    c.runtime_version = "b4840";
    const Report old = run(c);
    CHECK(old.kv_capacity_tokens == std::floor((old.gpu_capacity - non_kv(old)) / kLlama8bKvPerToken));
    // The margin is 1 GiB / 128 KiB per token = 8,192 tokens (give or take the floors).
    CHECK(old.kv_capacity_tokens - fit.kv_capacity_tokens == Approx(8192).margin(1));
    // What fits is the device's capacity either way.
    CHECK(fit.gpu_usable == old.gpu_usable);
}

TEST_CASE("llama.cpp caches an MLA layer by build: latent only, latent and V, or every head", "[serving][llama.cpp]") {
    // DeepSeek-V3: 61 layers, kv_lora_rank 512, rope key 64, 128 heads of K (nope 128 + rope 64)
    // and V (128); fp16 cache, 2 bytes a value.
    Config c = engine("deepseek-v3", "rtx-4090", Runtime::llama_cpp, "q4_k_m");
    c.gpus = 8;
    auto per_token = [&](const char* version) {
        c.runtime_version = version;
        return run(c).kv_bytes_per_token;
    };
    // After PR #19067 (current): K only, 576 values: 61 x 576 x 2 = 70,272 bytes.
    CHECK(per_token("current") == 61.0 * 576 * 2);
    // PR #12801 to #19067 (b7539): K 576 and V 512, as the May 2025 log prints them (K 1098 MiB,
    // V 976 MiB at 16,384 cells): 61 x 1,088 x 2 = 132,736 bytes.
    CHECK(per_token("b7539") == 61.0 * (576 + 512) * 2);
    // Before MLA (b4840): every head's K (192) and V (128): 61 x 128 x 320 x 2 = 4,997,120 bytes.
    CHECK(per_token("b4840") == 61.0 * 128 * (192 + 128) * 2);
}

TEST_CASE("Ollama: llama-server underneath, default context by VRAM tier", "[serving][ollama]") {
    // server/routes.go (v0.15.5, v0.30.0): the VRAM of all GPUs >= 47 GiB 262144, >= 23 GiB 32768,
    // else 4096 ("slightly lower thresholds (47/23 GiB vs. 48/24 GiB)" than the docs' tiers), capped
    // at the model's 131,072.
    Config c = engine("llama-3.1-8b", "rtx-4090", Runtime::ollama, "q4_k_m");
    const Report one = run(c);
    CHECK(one.config.runtime == Runtime::ollama);
    CHECK(one.config.context == 32768);   // 24,564 MiB = 23.99 GiB: at least 23 GiB
    // llama.cpp's formulas: its compute buffer (activations) and padded KV.
    Config same = c;
    same.runtime = Runtime::llama_cpp;
    same.context = 32768;
    CHECK(run(same).per_gpu.activations == one.per_gpu.activations);
    c.gpus = 2;
    CHECK(run(c).config.context == 131072);   // 2 x 23.99 GiB = 47.98 GiB: 262,144, past the model's 131,072
    c.gpus = 1;
    c.gpu = "rtx-3060";
    CHECK(run(c).config.context == 4096);   // 12 GiB
    c.gpu = "h100-sxm";
    CHECK(run(c).config.context == 131072);  // 262,144 past the model's trained 131,072
    c.runtime_version = "0.5";
    CHECK(run(c).config.context == 2048);
    c.context = 8192;                        // a given context stays
    CHECK(run(c).config.context == 8192);
}

TEST_CASE("vLLM: the utilization default follows the version", "[serving][vllm]") {
    Config c = engine("llama-3-8b", "h100-sxm", Runtime::vllm);
    CHECK(run(c).config.runtime_version == "0.10");
    CHECK(run(c).config.gpu_memory_utilization == 0.9);
    c.runtime_version = "current";
    const Report now = run(c);
    CHECK(now.config.gpu_memory_utilization == 0.92);
    // Since vLLM 0.21 the CUDA-graph memory is profiled inside gpu_memory_utilization (gpu_worker.py @
    // v0.21.0): it no longer adds to what the engine may use.
    CHECK(now.gpu_usable == Approx(0.92 * now.gpu_capacity + 400 * kMiB));
    c.gpu_memory_utilization = 0.8;   // given: kept
    CHECK(run(c).config.gpu_memory_utilization == 0.8);
}

TEST_CASE("max concurrency: the KV pool over one request of `context` tokens", "[serving][vllm]") {
    // vLLM prints "GPU KV cache size: N tokens" and "Maximum concurrency for L tokens per request:
    // N / L x": the pool over one request of L tokens, as serving.max_concurrency is defined.
    const EngineLog v1 = log_file("vllm_v1_windows_build_issue4.log");   // 396,928 / 131,072 = 3.028 -> "3.03x"
    CHECK(std::round(double(v1.kv_cache_tokens) / double(v1.concurrency_tokens_per_request) * 100) / 100 == Approx(v1.max_concurrency));
    // V0's profiler line splits the budget as compute() does: total x utilization - weights -
    // non-torch - activation peak = the KV pool (16 x 0.9 - 0.47 - 0.03 - 0.50 = 13.40 GiB), which
    // holds 12,200 blocks of 16 tokens = 195,200 tokens, 195,200 / 2,048 = 95.31 requests.
    const EngineLog v0 = log_file("vllm_v0_windows_issue6.log");
    const double pool_logged =
        v0.gpu_memory_bytes * v0.gpu_memory_utilization - v0.weights_bytes - v0.non_torch_bytes - v0.activation_peak_bytes;
    CHECK(pool_logged / kGiB == Approx(13.40).margin(0.01));   // the log's own rounding
    CHECK(std::round(double(v0.kv_blocks) * 16.0 / double(v0.concurrency_tokens_per_request) * 100) / 100 == Approx(v0.max_concurrency));
    Config c = engine("llama-3-8b", "h100-sxm", Runtime::vllm);
    const Report r = run(c);
    const double pool = r.gpu_usable - non_kv(r);
    CHECK(r.serving.max_concurrency == Approx(pool / (kLlama8bKvPerToken * 8192)));
    CHECK(r.serving.max_concurrency == Approx(r.kv_capacity_tokens / 8192.0).epsilon(1e-5));
    CHECK_FALSE(r.serving.active);   // no isl / osl: no load figures
    // The report names the concurrency that would run: what one replica holds.
    CHECK(r.config.concurrency == int(std::floor(r.serving.max_concurrency)));
}

// ---------------------------------------------------------------------------------------------
// The serving model
// ---------------------------------------------------------------------------------------------

TEST_CASE("serving: steady state of continuous batching, by hand", "[serving]") {
    const detail::ServingModel m = hand_model();
    // isl 1000, osl 1001: the pool holds 100 requests of 2,001 tokens. A request lives through
    // 1 prompt step (1000 <= 8192) and 1000 decode steps: 1001 steps, more than the budget needs
    // (100 x 2000 / 8192 = 24.4). Per step: 100 x 1000 / 1001 decoding sequences and as many
    // prompt tokens.
    const ServingReport s = detail::serving_at(m, 1000, 1001, 0);
    const double steps = 1001, decode = 100.0 * 1000 / 1001, prefill = decode;
    CHECK(s.concurrency == 100);
    CHECK(s.decode_tokens_per_step == Approx(decode));
    CHECK(s.prefill_tokens_per_step == Approx(prefill));
    // Weights: 16e9 / 2e12 = 8 ms of reads and 16e9 x 199.8 / 1e15 = 3.197 ms of math, 0.3996 of
    // it: 8 x (1 + 0.3996^2.5)^0.4 = 8 x 1.03921 = 8.314 ms (the plain roofline's max would be 8);
    // KV: every decoding sequence's cache at 1000 + 1001 / 2 = 1500.5 tokens, 131,072 B each, at 2 TB/s.
    CHECK(hand_weights_s(prefill + decode) == Approx(8.3137e-3).epsilon(1e-4));
    const double step = hand_weights_s(prefill + decode) + decode * 131072 * 1500.5 / 2e12;
    CHECK(step == Approx(18.1376e-3).epsilon(1e-4));
    CHECK(s.step_s == Approx(step));
    CHECK(s.tpot_s == Approx(step));
    CHECK(s.tokens_per_s_per_user == Approx(1 / step));
    const double rps = 100 / (steps * step);
    CHECK(s.requests_per_s == Approx(rps));
    CHECK(s.output_tokens_per_s == Approx(rps * 1001));   // about 5,513 tokens/s
    CHECK(s.output_tokens_per_s == Approx(5513).epsilon(1e-3));
    // First token: half a step in progress, then the step that carries the whole prompt (1,000
    // tokens <= the budget) beside the other 99 requests' decodes (99/100 of the mean's): its
    // weights term is compute-bound at 1,098.9 tokens (17.58 ms of math against 8 ms of reads).
    const double others = decode * 99 / 100;
    const double prompt_step = hand_weights_s(others + 1000) + others * 131072 * 1500.5 / 2e12;
    CHECK(prompt_step == Approx(28.2518e-3).epsilon(1e-4));
    CHECK(s.ttft_s == Approx(0.5 * step + prompt_step));
    CHECK(s.bound == "memory_bandwidth");

    // 150 asked, 100 run: the other 50 wait for a slot, 50 / rps (Little's law, closed loop).
    const ServingReport q = detail::serving_at(m, 1000, 1001, 150);
    CHECK(q.concurrency == 100);
    CHECK(q.output_tokens_per_s == Approx(s.output_tokens_per_s));
    CHECK(q.ttft_s == Approx(0.5 * step + prompt_step + 50 / rps));
    CHECK(q.bound == "kv_capacity");
}

TEST_CASE("serving: the engine's time per step and per decoding request adds to the step", "[serving][vllm]") {
    // The hand model's step (18.138 ms at 100 requests, above) plus 2 ms and 20 us for each of its
    // 100 x 1000 / 1001 decoding sequences: 18.138 + 2 + 1.998 = 22.136 ms. The prompt tokens pay
    // no per-request part (they decode nothing yet).
    detail::ServingModel m = hand_model();
    m.step_overhead = 2e-3;
    m.seq_overhead = 20e-6;
    const double decode = 100.0 * 1000 / 1001;
    const double step = hand_weights_s(2 * decode) + decode * 131072 * 1500.5 / 2e12 + 2e-3 + 20e-6 * decode;
    const ServingReport s = detail::serving_at(m, 1000, 1001, 0);
    CHECK(step == Approx(22.136e-3).epsilon(1e-4));
    CHECK(s.step_s == Approx(step));
    CHECK(s.output_tokens_per_s == Approx(100.0 / (1001 * step) * 1001));
    CHECK(s.bound == "memory_bandwidth");
}

TEST_CASE("vLLM 0.10-0.11 steps carry kVllmStepOverhead + kVllmSeqOverhead per decoding request, current vLLM none", "[serving][vllm]") {
    // The same load on the two versions, the pool's utilization given (0.9) so only the step
    // differs: 64 requests of Llama 3 8B on an H100.
    Config c = engine("llama-3-8b", "h100-sxm", Runtime::vllm);
    c.gpu_memory_utilization = 0.9;
    c.isl = 1000;
    c.osl = 200;
    c.context = 1200;
    c.concurrency = 64;
    c.runtime_version = "0.10";
    const Report old_line = run(c);
    c.runtime_version = "current";
    const Report now = run(c);
    REQUIRE(old_line.serving.concurrency == 64);
    REQUIRE(now.serving.concurrency == 64);
    REQUIRE(old_line.serving.decode_tokens_per_step == Approx(now.serving.decode_tokens_per_step));
    const double decode = now.serving.decode_tokens_per_step;
    CHECK(old_line.serving.step_s - now.serving.step_s == Approx(detail::kVllmStepOverhead + detail::kVllmSeqOverhead * decode).epsilon(1e-9));
    CHECK(old_line.serving.output_tokens_per_s < now.serving.output_tokens_per_s);
    // The one-stream roofline (speed.decode_step_s, speed.ttft_s) does not carry it: the fit's runs
    // had 8 to 256 requests in flight.
    CHECK(old_line.speed.decode_step_s == now.speed.decode_step_s);
    CHECK(old_line.speed.ttft_s == now.speed.ttft_s);
    // Said in the assumptions, with the version.
    bool said = false;
    for (const Assumption& a : assumptions(old_line))
        if (a.name == "vllm_step_overhead") said = a.value.find("2.0 ms per engine step + 20 us per decoding request") != std::string::npos;
    CHECK(said);
    for (const Assumption& a : assumptions(now))
        if (a.name == "vllm_step_overhead") CHECK(a.value.find("none") == 0);
    // Other engines carry none.
    Config t = c;
    t.runtime = Runtime::sglang;
    t.runtime_version.clear();
    t.gpu_memory_utilization = 0.9;   // Config's default: "not given"
    for (const Assumption& a : assumptions(run(t))) CHECK(a.name != "vllm_step_overhead");
}

TEST_CASE("serving: a pipelined engine keeps pp batches in flight, one per stage", "[serving][pp]") {
    // The hand model split over 2 pipeline stages (its bytes and FLOPs are the whole replica's:
    // a step sums the stages). Taking turns (llama.cpp, PyTorch), a step carries all 100 requests
    // through both stages, as the one-GPU model: 18.14 ms, ~5,513 tokens/s.
    detail::ServingModel m = hand_model();
    m.pp = 2;
    const ServingReport turns = detail::serving_at(m, 1000, 1001, 0);
    CHECK(turns.step_s == Approx(hand_weights_s(200.0 * 1000 / 1001) + 100.0 * 1000 / 1001 * 131072 * 1500.5 / 2e12));
    CHECK(turns.output_tokens_per_s == Approx(5513).epsilon(1e-3));
    // Pipelined (vLLM, SGLang, TensorRT-LLM): two batches of 50, each step carries one through
    // both stages while the other is in the other stage. Every request still gets a token per
    // step; the weights are read once per batch and stage (8 ms of reads against 1.6 ms of math: 8.05
    // ms on the smooth roofline), the caches are half.
    m.pipelined = true;
    const ServingReport piped = detail::serving_at(m, 1000, 1001, 0);
    const double step = hand_weights_s(100.0 * 1000 / 1001) + 50.0 * 1000 / 1001 * 131072 * 1500.5 / 2e12;   // 12.97 ms
    CHECK(piped.concurrency == 100);
    CHECK(piped.decode_tokens_per_step == Approx(50.0 * 1000 / 1001));
    CHECK(piped.step_s == Approx(step));
    CHECK(piped.tpot_s == Approx(step));
    CHECK(piped.requests_per_s == Approx(100 / (1001 * step)));
    CHECK(piped.output_tokens_per_s == Approx(7711).epsilon(1e-3));
    // A saturated prefill pool finishes a batch every step / pp: twice the prompts per second.
    detail::ServingModel pool = hand_model();
    pool.pp = 2;
    const double alone = detail::serving_prefill_pool(pool, 8192).requests_per_s;
    pool.pipelined = true;
    CHECK(detail::serving_prefill_pool(pool, 8192).requests_per_s == Approx(2 * alone));
    // Which engines pipeline: TensorRT-LLM at pp 2 does, llama.cpp does not.
    auto model_of = [](Runtime rt) {
        Config c = engine("llama-3.3-70b", "h100-sxm", rt, rt == Runtime::llama_cpp ? "q4_k_m" : "fp8");
        c.gpus = 2;
        c.pp = 2;
        return serving_model_of(c);
    };
    CHECK(model_of(Runtime::trt_llm).pipelined);
    CHECK_FALSE(model_of(Runtime::llama_cpp).pipelined);
}

TEST_CASE("SGLang: the default cap on running requests follows the pool", "[serving][sglang]") {
    // min(pool / 2, min(max(pool / context x 512, 2048), 4096)) (tp_worker.py, model_runner.py):
    // a pool of 10,000 tokens at 8,192 of context: min(10,000 / 2, min(max(625, 2,048), 4,096)) = 2,048.
    CHECK(detail::sglang_running_requests(10000, 8192) == 2048);
    // 40,000 tokens at 2,048: 40,000 / 2,048 x 512 = 10,000 slots, clamped to 4,096.
    CHECK(detail::sglang_running_requests(40000, 2048) == 4096);
    // A small pool: half of it (3,000 tokens hold at most 1,500 running requests).
    CHECK(detail::sglang_running_requests(3000, 2048) == 1500);
    CHECK(detail::sglang_running_requests(0, 2048) == 0);
    // Llama 3.1 70B on 8 H200 at tp 8, ShareGPT-sized requests: the pool holds more than 4,096 of
    // them, so the cap binds and says so; max_num_seqs given overrides it.
    Config c = engine("llama-3.1-70b", "h200", Runtime::sglang);
    c.gpus = 8;
    c.tp = 8;
    c.context = 2048;
    c.isl = 224;
    c.osl = 194;
    const Report r = run(c);
    CHECK(r.serving.concurrency == 4096);
    CHECK(r.serving.bound == "max_sequences");
    CHECK(r.config.concurrency == 4096);
    c.max_num_seqs = 1024;
    CHECK(run(c).serving.concurrency == 1024);
}

TEST_CASE("serving power: a step mixing prefill into decode shares the board's headroom", "[serving][power]") {
    // The draw (performance.hpp): a floor f = 137 / 700 = 0.195714 (Ma et al. 2026), and a
    // dynamic headroom 1 - f of which compute alone uses a_c = u_c / 0.5 (POLCA: prefill at board
    // power) and HBM alone a_m = (0.591 u_weights + 1.125 u_kv) / (1 - f) (two ML.ENERGY v3.0 runs
    // of Qwen3-14B on an H100); together they leave idle (1 - a_m)(1 - a_c) of it.
    const Gpu& h100 = catalog().gpu("h100-sxm");   // HBM3, 700 W
    const double f = 137.0 / 700.0;
    CHECK(detail::board_draw_fraction(h100, 0.0, 0.75) == Approx(f + 0.591 * 0.75));   // streaming weights alone: 0.639
    CHECK(detail::board_draw_fraction(h100, 0.0, 0.75, 0.75) == Approx(1.0));          // reading cache alone: at the limit
    CHECK(detail::board_draw_fraction(h100, 0.5, 0.0) == Approx(1.0));                 // prefill alone: board power
    CHECK(detail::board_draw_fraction(h100, 0.0, 0.0) == Approx(f));
    // The two runs the shares come from give back their watts: 27.67e9 B of weights and
    // requests x mean length x 163,840 B of cache per step over its median inter-token latency.
    const double itl_a = 12.5355e-3;   // lm-arena-chat, 8 requests of ~944 tokens: 443.0 W
    CHECK(700 * detail::board_draw_fraction(h100, 8 * 2 * 14.768e9 / itl_a / 989.4e12, (27.672e9 + 1.2373e9) / itl_a / 3.35e12,
                                            1.2373e9 / itl_a / 3.35e12) == Approx(443.0).epsilon(2e-3));
    const double itl_b = 21.5485e-3;   // gpqa, 32 requests of ~3,694 tokens: 525.7 W
    CHECK(700 * detail::board_draw_fraction(h100, (32 * 2 * 14.768e9 + 32 * 3694 * 819200.0) / itl_b / 989.4e12,
                                            (27.672e9 + 19.367e9) / itl_b / 3.35e12, 19.367e9 / itl_b / 3.35e12) ==
          Approx(525.7).epsilon(2e-3));
    // GDDR: an RTX 5060 Ti at 81.2 tokens/s x 4.547 GB / 448 GB/s = 0.824 of its bandwidth drew
    // 0.96 of its limit (InventiveHQ).
    CHECK(detail::board_draw_fraction(catalog().gpu("rtx-5060-ti-16gb"), 0.0, 81.2 * 4.547e9 / 448e9) == Approx(0.96));

    // The hand model's step (above) on an H100: isl 1000, osl 1001, 100 requests; 99.9 decoding
    // sequences and 99.9 prompt tokens per 18.1376 ms step. It reads 16e9 B of weights and
    // 99.9 x 131,072 x 1500.5 = 19.648e9 B of cache in it, against a 2.6667 TB/s datasheet
    // bandwidth: cache 19.648e9 / (18.1376e-3 x 2.6667e12) = 0.406222 and weights 0.330805:
    // a_m = (0.591 x 0.330805 + 1.125 x 0.406222) / 0.804286 = 0.811286. It computes
    // 199.8 x 16e9 = 3.1968e12 FLOP, u_c = 3.1968e12 / (18.1376e-3 x 2e15) = 0.088127: a_c = 0.176253.
    // Draw = 1 - 0.804286 x (1 - 0.811286)(1 - 0.176253) = 0.874972 of board power (the anchors
    // added, f + 0.591 x 0.330805 + 1.125 x 0.406222 + 1.608571 x 0.088127 = 0.990, stay just under
    // the limit here; the product form is what keeps a busier step below it).
    detail::ServingModel m = hand_model();
    m.gpu = &h100;
    m.peak_bandwidth = 2e12 / 0.75;
    m.peak_flops = 2e15;
    m.board_w = 700;
    m.pue = 1;   // no host: energy is the GPU's alone
    const ServingReport s = detail::serving_at(m, 1000, 1001, 0);
    REQUIRE(s.step_s == Approx(18.1376e-3).epsilon(1e-4));
    const double kv = 100.0 * 1000 / 1001 * 131072 * 1500.5;
    const double u_kv = kv / (s.step_s * m.peak_bandwidth), u_w = 16e9 / (s.step_s * m.peak_bandwidth);
    const double u_c = 100.0 * 1000 / 1001 * 2 * 16e9 / (s.step_s * 2e15);
    CHECK(u_kv == Approx(0.406222).epsilon(1e-4));
    CHECK(u_w == Approx(0.330805).epsilon(1e-4));
    CHECK(u_c == Approx(0.088127).epsilon(1e-4));
    CHECK(s.draw_fraction == Approx(1 - (1 - f) * (1 - (0.591 * u_w + 1.125 * u_kv) / (1 - f)) * (1 - u_c / 0.5)));
    CHECK(s.draw_fraction == Approx(0.874972).epsilon(1e-4));
    CHECK(s.draw_fraction < 1.0);
    CHECK(s.gpu_w == Approx(700 * 0.874972).epsilon(1e-4));   // 612.5 W
    // Energy per million output tokens: 612.5 W over 5,513 tokens/s = 0.11109 J per token,
    // x 1e6 / 3.6e6 J per kWh = 0.03086 kWh.
    CHECK(s.energy_kwh_per_million_tokens == Approx(s.gpu_w / s.output_tokens_per_s * 1e6 / 3.6e6));
    CHECK(s.energy_kwh_per_million_tokens == Approx(0.03086).epsilon(2e-3));
}

TEST_CASE("serving: the token budget stretches the steps when prompts dominate", "[serving]") {
    detail::ServingModel m = hand_model();
    m.kv_pool_bytes = 100.0 * 8002 * 131072;   // 100 requests of 8,002 tokens
    // isl 8000, osl 2: one prompt step and one decode step would do, but 100 requests bring
    // 100 x (8000 + 1) tokens per life, 97.67 steps of 8,192 tokens.
    const ServingReport s = detail::serving_at(m, 8000, 2, 0);
    const double steps = 100.0 * 8001 / 8192;
    CHECK(s.prefill_tokens_per_step == Approx(100.0 * 8000 / steps));
    CHECK(s.decode_tokens_per_step == Approx(100.0 * 1 / steps));
    CHECK(s.prefill_tokens_per_step + s.decode_tokens_per_step == Approx(8192));
    // A full step is compute-bound: 8,192 x 16 GFLOP / 1 PFLOP/s = 131 ms against 8 ms of weights
    // (on the smooth roofline, 131.12 ms: reads of 0.061 of the math barely show).
    CHECK(s.bound == "compute");
    CHECK(s.step_s == Approx(hand_weights_s(8192) + s.decode_tokens_per_step * 131072 * 8001 / 2e12));
    CHECK(hand_weights_s(8192) == Approx(131.12e-3).epsilon(1e-4));
    CHECK(s.output_tokens_per_s == Approx(100 / (steps * s.step_s) * 2));
}

TEST_CASE("serving: a MoE step runs its expert GEMMs at the tile efficiency of its tokens per expert", "[serving][moe]") {
    // The hand model with half of its 16 GFLOP per token in routed experts, k / E = 8 / 128.
    // A compute-bound step of 8,192 tokens gives each expert 8192 x 8 / 128 = 512 rows: with tiles
    // picked by the rows (vLLM, TensorRT-LLM), half a tile of padding, 512 / (512 + 64) = 0.889, so
    // the expert half costs 1 / 0.889 = 1.125 times as much: 8,192 x (8 + 8 x 1.125) GFLOP / 1 PFLOP/s.
    detail::ServingModel m = hand_model();
    m.expert_share = 8.0 / 128;
    m.expert_flops_per_token = 8e9;
    const double step = detail::serving_step_seconds(m, 0, 8192, 0, 0);
    CHECK(step == Approx(hand_smooth_s(8e-3, 8192 * (8e9 + 8e9 * 576.0 / 512) / 1e15)));
    // llama.cpp picks the tile by the step's tokens: at 512 tokens (32 rows per expert) the tile is
    // still 128 rows, 32 / (32 + 64) = 1/3, against 32 / (32 + 16) = 2/3 with tiles picked by rows.
    // Both steps are compute-bound: 512 x (8 + 8 x 3) GFLOP / 1 PFLOP/s = 16.4 ms and
    // 512 x (8 + 8 x 1.5) GFLOP / 1 PFLOP/s = 10.2 ms, against 8 ms of weights (near the ridge,
    // where the smooth roofline adds 6% and 19%: 17.4 and 12.2 ms).
    m.expert_tile_by_batch = true;
    CHECK(detail::serving_step_seconds(m, 0, 512, 0, 0) == Approx(hand_smooth_s(8e-3, 512 * (8e9 + 8e9 * 3.0) / 1e15)));
    CHECK(detail::serving_step_seconds(m, 0, 512, 0, 0) == Approx(17.43e-3).epsilon(1e-3));
    m.expert_tile_by_batch = false;
    CHECK(detail::serving_step_seconds(m, 0, 512, 0, 0) == Approx(hand_smooth_s(8e-3, 512 * (8e9 + 8e9 * 1.5) / 1e15)));
    CHECK(detail::serving_step_seconds(m, 0, 512, 0, 0) == Approx(12.17e-3).epsilon(1e-3));
    // A dense model (no expert share): the math alone.
    CHECK(detail::serving_step_seconds(hand_model(), 0, 8192, 0, 0) == Approx(hand_weights_s(8192)));
}

TEST_CASE("serving: MoE gather and weighted-sum traffic per routed copy, by layout", "[serving][moe]") {
    // Qwen3-235B-A22B: 94 MoE layers, hidden 4,096, 8 of 128 experts per token. FP8 weights on
    // H200 under TensorRT-LLM: the GEMMs take FP8 inputs (1 byte), the outputs come back in bf16.
    auto route = [](int tp, int ep, int gpus) {
        Config c = engine("qwen3-235b-a22b-instruct-2507", "h200", Runtime::trt_llm, "fp8");
        c.kv_cache = "fp8";
        c.gpus = gpus;
        c.tp = tp;
        c.dp = gpus / tp;
        c.ep = ep;
        return serving_model_of(c);
    };
    // tp 8: every expert is a slice on every rank, so a rank gathers all 8 copies of a token:
    // per layer 8 x (1 + 2) bytes x 4,096 for the copies + 2 x 2 x 4,096 for the token's own read
    // and write, over 94 layers = 10.78 MB per token.
    const detail::ServingModel m8 = route(8, 1, 8);
    const double per_token = 4096.0 * 94 * (8 * (1 + 2) + 2 * 2);
    CHECK(m8.route_bytes_per_token == Approx(per_token));
    // The kernels stream at the 16-bit efficiency (0.75 of 4.8 TB/s), beside the GEMMs: a step of
    // 8,192 prompt tokens takes 8,192 x 10.78 MB / 3.6 TB/s = 24.5 ms more than without them.
    CHECK(m8.stream_bandwidth == Approx(0.75 * 4800e9));
    detail::ServingModel none = m8;
    none.route_bytes_per_token = 0;
    CHECK(detail::serving_step_seconds(m8, 0, 8192, 0, 2048) - detail::serving_step_seconds(none, 0, 8192, 0, 2048) ==
          Approx(8192 * per_token / (0.75 * 4800e9)));
    // tp 8 x ep 8: each rank holds 16 whole experts and gets 8 / 8 = 1 copy of a token.
    CHECK(route(8, 8, 8).route_bytes_per_token == Approx(4096.0 * 94 * (1 * 3 + 4)));
    // tp 1 x dp 8 x ep 8: the 8 replicas' tokens reach each rank's experts, 8 x 8 / 8 = 8 copies.
    CHECK(route(1, 8, 8).route_bytes_per_token == Approx(per_token));
    // A dense model moves none.
    Config d = engine("llama-3.1-8b", "h200", Runtime::trt_llm, "fp8");
    const detail::Resolved rd = detail::resolve(d, catalog());
    CHECK(detail::perf_inputs(rd).moe_route_copies == 0);
}

TEST_CASE("serving: MLA decodes in its absorbed form, prompts decompressed", "[serving][mla]") {
    // DeepSeek-V3: 61 MLA layers of 128 heads, P 128 + R 64 = 192 for Q.K and V 128 decompressed;
    // absorbed, MQA over the 512-wide latent: Q.K over Lkv + R = 576, P.V over Lkv = 512 (vLLM
    // mla_attention.py, the data-movement friendly approach for decode).
    const detail::Resolved r = detail::resolve(engine("deepseek-v3", "h200", Runtime::vllm, "fp8"), catalog());
    const detail::PerfInputs in = detail::perf_inputs(r);
    CHECK(in.attn_flops_per_position == Approx(61.0 * 2 * 128 * (192 + 128)));
    CHECK(in.attn_decode_flops_per_position == Approx(61.0 * 2 * 128 * (576 + 512)));
    // The serving step's decode attention counts the absorbed form, one GPU's share of the heads.
    Config c = engine("deepseek-v3", "h200", Runtime::vllm, "fp8");
    c.gpus = c.tp = 8;
    const detail::ServingModel m = serving_model_of(c);
    CHECK(m.attn_decode_flops_per_position == Approx(61.0 * 2 * 128 * (576 + 512) / 8));
    CHECK(m.attn_flops_per_position == Approx(61.0 * 2 * 128 * (192 + 128) / 8));
    // transformers caches and decodes them decompressed; a model without MLA is the same both ways.
    const detail::PerfInputs hf = detail::perf_inputs(detail::resolve(engine("deepseek-v3", "h200", Runtime::pytorch, "fp8"), catalog()));
    CHECK(hf.attn_decode_flops_per_position == hf.attn_flops_per_position);
    const detail::PerfInputs llama = detail::perf_inputs(detail::resolve(engine("llama-3.1-8b", "h200", Runtime::vllm), catalog()));
    CHECK(llama.attn_decode_flops_per_position == llama.attn_flops_per_position);
    CHECK(llama.attn_flops_per_position == Approx(32.0 * 2 * 32 * (128 + 128)));
}

TEST_CASE("serving: FP4 GEMMs at kFp4GemmEfficiency, attention in the KV cache's type", "[serving][fp4]") {
    auto perf = [](const std::string& gpu, Runtime rt, const std::string& weights, const std::string& kv, double mfu = 0) {
        Config c = engine("llama-3.3-70b", gpu, rt, weights);
        c.kv_cache = kv;
        c.mfu = mfu;
        const detail::ServingModel m = serving_model_of(c);
        return std::pair<double, double>{m.eff_flops / m.peak_flops, m.attn_flops};   // the MFU, the attention's FLOP/s
    };
    // NVFP4 on B200 (9,000 dense FP4 TFLOPS): the GEMMs at 0.5 x 0.68 of the FP4 peak; with an FP8
    // cache TensorRT-LLM's attention runs FP8 at 0.5 x 0.75 of 4,500 TFLOPS.
    auto [mu, attn] = perf("b200", Runtime::trt_llm, "nvfp4", "fp8");
    CHECK(mu == Approx(0.5 * 0.68));
    CHECK(attn == Approx(0.5 * 0.75 * 4500e12));
    // A given mfu is the FP4 efficiency; the attention gets the 16-bit efficiency it implies.
    auto [mu_given, attn_given] = perf("b200", Runtime::trt_llm, "nvfp4", "fp8", 0.34);
    CHECK(mu_given == 0.34);
    CHECK(attn_given == Approx(attn));
    // FP8 weights with a bf16 cache: the attention runs in bf16 (989.4 TFLOPS on H100) at 0.5.
    CHECK(perf("h100-sxm", Runtime::vllm, "fp8", "bf16").second == Approx(0.5 * 989.4e12));
    // ... and with an FP8 cache in FP8 at 0.75 of the doubled rate.
    CHECK(perf("h100-sxm", Runtime::vllm, "fp8", "fp8").second == Approx(0.5 * 0.75 * 1979e12));
    // 16-bit weights: attention as the rest, unchanged.
    auto [mu16, attn16] = perf("h100-sxm", Runtime::vllm, "bf16", "bf16");
    CHECK(mu16 == 0.5);
    CHECK(attn16 == Approx(0.5 * 989.4e12));
}

TEST_CASE("serving: tensor-parallel all-reduces at the step's message size", "[serving][interconnect]") {
    Config c = engine("llama-3.3-70b", "h100-sxm", Runtime::trt_llm, "fp8");
    c.kv_cache = "fp8";
    c.gpus = 2;
    c.tp = 2;
    const detail::ServingModel m = serving_model_of(c);
    detail::ServingModel no_links = m;
    no_links.tp = 1;   // the same arithmetic without the all-reduces
    // One decoding sequence: 8,192 x 2 bytes = 16 KiB per all-reduce, 2 per layer x 80 layers.
    const double with = detail::serving_step_seconds(m, 1, 0, 1000, 1000);
    const double without = detail::serving_step_seconds(no_links, 1, 0, 1000, 1000);
    const double one = detail::allreduce_time(m.tp_span, 8192.0 * 2).seconds;
    CHECK(with - without == Approx(160 * one));
    // Latency-bound: twice the message costs far less than twice the time.
    CHECK(detail::allreduce_time(m.tp_span, 2 * 8192.0 * 2).seconds < 1.2 * one);
}

TEST_CASE("serving figures in the report and its JSON", "[serving]") {
    Config c = engine("llama-3.1-8b", "h100-sxm", Runtime::trt_llm, "fp8");
    c.kv_cache = "fp8";
    c.isl = 128;
    c.osl = 2048;
    c.context = 2176;
    const Report r = run(c);
    REQUIRE(r.serving.active);
    // As many requests as the pool holds at 2,176 tokens each (fp8 KV: 64 KiB per token).
    CHECK(r.serving.concurrency == std::floor(r.serving.max_concurrency));
    CHECK(r.config.concurrency == int(r.serving.concurrency));
    CHECK(r.serving.output_tokens_per_s_per_gpu == r.serving.output_tokens_per_s);
    CHECK(r.serving.output_tokens_per_s == Approx(r.serving.requests_per_s * 2048));
    const std::string j = report_to_json(r);
    for (const char* k : {"\"serving\"", "\"output_tokens_per_s\"", "\"ttft_s\"", "\"tpot_s\"", "\"bound\"", "\"max_concurrency\""})
        CHECK(j.find(k) != std::string::npos);
    // Feeding the report's configuration back gives the same figures.
    const Report again = run(r.config);
    CHECK(again.serving.output_tokens_per_s == Approx(r.serving.output_tokens_per_s));
}

TEST_CASE("serving: bad input names the key", "[serving][bad-input]") {
    auto error = [](const std::string& json) {
        return thrown_message([&] { run(config_from_json(json)); });
    };
    CHECK(error(R"({"model":"llama-3-8b","isl":128,"osl":128,"concurrency":0})").find("concurrency") != std::string::npos);
    CHECK(error(R"({"model":"llama-3-8b","isl":128})").find("osl") != std::string::npos);
    CHECK(error(R"({"model":"llama-3-8b","osl":128})").find("isl") != std::string::npos);
    CHECK(error(R"({"model":"llama-3-8b","isl":100000,"osl":10})").find("isl") != std::string::npos);      // past the context
    CHECK(error(R"({"model":"llama-3-8b","isl":1000000000,"osl":10})").find("isl") != std::string::npos);  // past the key's range
    CHECK(error(R"({"model":"llama-3-8b","mode":"lora","isl":128,"osl":128})").find("isl") != std::string::npos);
    // Not a version (9.9 is one: it reads as the newest profile, test_runtime_version.cpp).
    const std::string v = error(R"({"model":"llama-3-8b","runtime":"vllm","runtime_version":"nine"})");
    CHECK(v.find("runtime_version") != std::string::npos);
    CHECK(v.find("0.10, current, 0.21, 0.6") != std::string::npos);
    CHECK(error(R"({"model":"llama-3-8b","runtime":"pytorch","runtime_version":"1.0"})").find("runtime_version") != std::string::npos);
    CHECK(error(R"({"model":"llama-3-8b","runtime":"sglang","mode":"train"})").find("inference only") != std::string::npos);
}

TEST_CASE("serving: an open loop at a request rate", "[serving]") {
    const detail::ServingModel m = hand_model();
    const ServingReport full = detail::serving_at(m, 1000, 1001, 0);   // 100 requests: 5.60 requests/s
    // Half that rate keeps fewer requests busy; the bisection lands where completions = arrivals.
    const ServingReport half = detail::serving_at_rate(m, 1000, 1001, full.requests_per_s / 2);
    CHECK(half.requests_per_s == Approx(full.requests_per_s / 2).epsilon(1e-9));
    // Little's law: in flight = rate x the time a request spends, (S x step).
    CHECK(half.concurrency == Approx(half.requests_per_s * 1001 * half.step_s).epsilon(1e-9));
    CHECK(half.concurrency < 100);
    CHECK(half.tpot_s < full.tpot_s);   // fewer caches to read each step
    // Past the most the engine sustains: the saturated figures, named.
    const ServingReport over = detail::serving_at_rate(m, 1000, 1001, full.requests_per_s * 2);
    CHECK(over.bound == "overloaded");
    CHECK(over.output_tokens_per_s == Approx(full.output_tokens_per_s));
    // Keys: not with concurrency, and only with isl / osl.
    auto error = [](const std::string& json) { return thrown_message([&] { run(config_from_json(json)); }); };
    CHECK(error(R"({"model":"llama-3-8b","isl":128,"osl":128,"concurrency":4,"request_rate":2})").find("request_rate") !=
          std::string::npos);
    CHECK(error(R"({"model":"llama-3-8b","request_rate":2})").find("request_rate") != std::string::npos);
    CHECK(error(R"({"model":"llama-3-8b","isl":128,"osl":128,"request_rate":-1})").find("request_rate") != std::string::npos);
}

TEST_CASE("serving: the automatic context covers the requests, a context the user set is kept", "[serving][context]") {
    // isl 8,000 + osl 1,000 with no context: the engines take the model's length by default
    // (vLLM's max_model_len), so the load is served with a 9,000-token context, not refused.
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm, 1);
    c.isl = 8000;
    c.osl = 1000;
    const Report r = run(c);
    CHECK(r.config.context == 9000);
    CHECK(r.serving.active);
    // A context the user set below the requests is refused, naming the key to raise.
    c.context = 4096;
    CHECK_THROWS_WITH(run(c), Catch::Contains("isl") && Catch::Contains("raise context"));
    // Past the model's trained length (Llama 3.1: 131,072) even the automatic context cannot go.
    c.context = 0;
    c.isl = 130000;
    c.osl = 2000;
    CHECK_THROWS_WITH(run(c), Catch::Contains("trained context of 131072"));
    // The short loads keep the default window.
    c.isl = 1000;
    c.osl = 1000;
    CHECK(run(c).config.context == 8192);
}
