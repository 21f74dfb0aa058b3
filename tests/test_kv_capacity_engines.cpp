// test_kv_capacity_engines.cpp: the KV capacity the serving engines print at start-up (issue 26):
// vLLM's CUDA graphs inside its budget from 0.21, V0's whole-prompt profile with its context
// inside the budget, the `cuda_graphs` and `speculative` keys, and
// memory.kv_capacity_sensitivity, each derived by hand from the engine's formula.
#include <cmath>
#include <string>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/io.hpp"
#include "runtime_profiles.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Llama 3.1 8B: 32 layers x 8 KV heads x 128 x (K, V) x 2 bytes = 131,072 bytes per token.
constexpr double kKv8b = 32.0 * 8 * 128 * 2 * 2;

Config vllm_8b(const std::string& version) {
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm);
    c.weights = "bf16";
    c.runtime_version = version;
    return c;
}

}  // namespace

TEST_CASE("vLLM 0.21 takes the CUDA graphs out of gpu_memory_utilization", "[kv_capacity][vllm]") {
    // vLLM 0.10: pool = 0.9 x total - weights - activations - non-torch; the CUDA context and the
    // graphs sit in the 10% headroom. From 0.21 the graphs' 0.75 GiB come out of the pool:
    // 0.75 GiB / 131,072 B = 6,144 tokens fewer, at the same utilization.
    Config c10 = vllm_8b("0.10"), c21 = vllm_8b("0.21");
    c21.gpu_memory_utilization = std::nextafter(0.9, 1.0);   // 0.9 as given (0.9 itself reads as the version's default, 0.9 too)
    const Report r10 = run(c10), r21 = run(c21);
    REQUIRE(r10.kv_capacity_tokens > 0);
    CHECK(r10.kv_capacity_tokens - r21.kv_capacity_tokens == Approx(0.75 * kGiB / kKv8b).margin(1.0));
    // --enforce-eager on 0.21 gives them back: the capacity of 0.10.
    c21.cuda_graphs = false;
    CHECK(run(c21).kv_capacity_tokens == Approx(r10.kv_capacity_tokens).margin(1.0));
    // Before 0.21 turning graphs off frees nothing inside the budget.
    c10.cuda_graphs = false;
    CHECK(run(c10).kv_capacity_tokens == r10.kv_capacity_tokens);
}

TEST_CASE("vLLM V0: the context inside the budget and the whole prompt profiled", "[kv_capacity][vllm]") {
    // vllm issue 10517: Llama 3.1 8B on an RTX 3090 at --max-model-len 20000 and 29000, 0.9.
    // The profile runs the whole prompt (chunked prefill is off up to 32K), so the activation peak
    // grows with the context: 9,000 more tokens of the same per-token working set.
    Config c = serving("llama-3.1-8b", "rtx-3090", Runtime::vllm);
    c.weights = "bf16";
    c.runtime_version = "0.6.4";
    c.context = 20000;
    const Report a = run(c);
    c.context = 29000;
    const Report b = run(c);
    const double per_token = (b.per_gpu.activations - a.per_gpu.activations) / 9000.0;
    CHECK(per_token > 50e3);    // Llama 3.1 8B's forward: ~110 KB a token (17.98 - 17.06 GiB peak over 9,000 tokens)
    CHECK(per_token < 150e3);
    // The engine's formula on the report's own terms: 0.9 x total - weights - activation peak -
    // what the process held before (the CUDA context: V0's non_torch_memory), over 131,072 B.
    for (const Report* r : {&a, &b}) {
        const double pool = 0.9 * r->gpu_capacity - r->per_gpu.weights - r->per_gpu.activations - r->overhead_detail.cuda_context;
        CHECK(r->kv_capacity_tokens == Approx(std::floor(pool / kKv8b)).margin(1.0));
    }
    CHECK(b.kv_capacity_tokens < a.kv_capacity_tokens);
}

TEST_CASE("memory.kv_capacity_sensitivity: the fraction's 0.05 as tokens", "[kv_capacity][sensitivity]") {
    // vLLM's pool moves one for one with gpu_memory_utilization x total: 0.05 x 81,559 MiB (an H100
    // SXM's total) = 4,077.95 MiB, over 131,072 B (0.125 MiB) a token = 32,623.6 tokens either way.
    const Report r = run(vllm_8b("0.10"));
    const KvSensitivity& k = r.kv_capacity_sensitivity;
    REQUIRE(k.computed);
    CHECK(k.fraction_key == "gpu_memory_utilization");
    CHECK(k.fraction == 0.9);
    REQUIRE(k.fraction_down.computed);
    REQUIRE(k.fraction_up.computed);
    CHECK(k.fraction_down.change_tokens == Approx(-32623.6).margin(1.5));
    CHECK(k.fraction_up.change_tokens == Approx(32623.6).margin(1.5));
    CHECK(k.fraction_up.change_pct == Approx(32623.6 / r.kv_capacity_tokens * 100.0).epsilon(1e-3));
    // 0.10: graphs outside the budget, so flipping them does not move the pool; Llama 3.1 has no
    // MTP layers, so there is no speculative case.
    REQUIRE(k.cuda_graphs.computed);
    CHECK(k.cuda_graphs.change_tokens == 0);
    CHECK(k.cuda_graphs.setting == "cuda_graphs false");
    CHECK_FALSE(k.speculative.computed);
    // The budget is what the fraction gives: 0.9 x the GPU.
    CHECK(k.budget_bytes == Approx(0.9 * r.gpu_capacity));
    // llama.cpp sizes no pool from a fraction: no sensitivity.
    CHECK_FALSE(run(serving("llama-3.1-8b", "h100-sxm", Runtime::llama_cpp)).kv_capacity_sensitivity.computed);
}

TEST_CASE("speculative: MTP layers and a draft model come out of the pool", "[kv_capacity][speculative]") {
    // DeepSeek-V3 under vLLM: its one MTP layer loads beside the 61 and caches one more MLA record
    // a token (kv_lora_rank 512 + rope 64 = 576 values): the rate grows by 1/61.
    Config c = serving("deepseek-v3", "h200", Runtime::vllm, 8);
    c.weights = "fp8";
    c.tp = 8;
    const Report off = run(c);
    c.speculative = "mtp";
    const Report on = run(c);
    REQUIRE(on.kv_capacity_tokens > 0);
    CHECK(on.per_gpu.weights > off.per_gpu.weights);
    // tokens x rate = pool: (pool_on / pool_off) x (61 / 62) of the tokens.
    CHECK(on.kv_capacity_tokens ==
          Approx(off.kv_capacity_tokens * (on.memory_kv_pool_bytes / off.memory_kv_pool_bytes) * 61.0 / 62.0).epsilon(1e-4));
    // The sensitivity names the MTP case of the configuration without it.
    REQUIRE(off.kv_capacity_sensitivity.speculative.computed);
    CHECK(off.kv_capacity_sensitivity.speculative.setting == "speculative mtp");
    CHECK(off.kv_capacity_sensitivity.speculative.tokens == on.kv_capacity_tokens);
    // A draft model: Llama 3.2 1B beside Llama 3.1 8B (16 layers x 8 x 64 x 2 x 2 B = 32,768 B a
    // token): the rate is 131,072 + 32,768 B, and the draft's weights come out of the pool.
    Config d = vllm_8b("0.10");
    const Report plain = run(d);
    d.speculative = "llama-3.2-1b";
    const Report drafted = run(d);
    CHECK(drafted.per_gpu.weights > plain.per_gpu.weights + 2.0 * kGiB);   // 1.24B parameters in bf16
    CHECK(drafted.kv_capacity_tokens == Approx(std::floor(drafted.memory_kv_pool_bytes / (kKv8b + 32768.0))).margin(1.0));
    // What is refused names the key.
    d.speculative = "mtp";
    CHECK_THROWS_WITH(run(d), Catch::Contains("speculative") && Catch::Contains("multi-token-prediction"));
    d.speculative = "no-such-model";
    CHECK_THROWS_WITH(run(d), Catch::Contains("speculative"));
}

TEST_CASE("TensorRT-LLM 0.x engines hold no CUDA graphs", "[kv_capacity][trt]") {
    Config c = serving("llama-3.1-8b", "a100-80gb-sxm", Runtime::trt_llm);
    c.runtime_version = "0.17";
    const Report r = run(c);
    CHECK(r.config.runtime_version == "0.5");
    c.cuda_graphs = false;
    CHECK(run(c).kv_capacity_tokens == r.kv_capacity_tokens);
    // 1.0 captures them: turning them off frees 0.9 x 0.75 GiB of KV.
    c.runtime_version = "1.0";
    const double off = run(c).kv_capacity_tokens;
    c.cuda_graphs = true;
    CHECK(off - run(c).kv_capacity_tokens == Approx(0.9 * 0.75 * kGiB / kKv8b).margin(1.0));
}

TEST_CASE("cuda_graphs and speculative in JSON, links and flags", "[kv_capacity][keys]") {
    const ConfigKey* cg = find_config_key("cuda_graphs");
    const ConfigKey* sp = find_config_key("speculative");
    REQUIRE(cg);
    REQUIRE(sp);
    CHECK(std::string(cg->link) == "cg");
    CHECK(std::string(sp->link) == "spec");
    Config c = config_from_json(R"({"model": "llama-3.1-8b", "runtime": "vllm", "cuda_graphs": false, "speculative": "mtp"})");
    CHECK_FALSE(c.cuda_graphs);
    CHECK(c.speculative == "mtp");
    const std::string back = config_to_json(c, -1);
    CHECK(back.find("\"cuda_graphs\":false") != std::string::npos);
    CHECK(back.find("\"speculative\":\"mtp\"") != std::string::npos);
}

TEST_CASE("vLLM V1 pages a hybrid model's recurrent state and K/V alike", "[kv_capacity][vllm][hybrid]") {
    // Qwen3.5-35B-A3B (40 layers: 10 full attention, 30 Gated DeltaNet) on one RTX 5090, FP8 KV,
    // max_model_len 131,072, as the club-3090 issue 612 log (vLLM 0.24). By hand, per layer:
    //   attention: 2 KV heads x 256 x (K, V) x 1 byte = 1,024 bytes a token;
    //   state: the conv's 3 columns of 2 x 16 x 128 + 32 x 128 = 8,192 channels in BF16 (49,152 B)
    //   and 32 matrices of 128 x 128 in the checkpoint's mamba_ssm_dtype float32 (2,097,152 B):
    //   2,146,304 bytes.
    // The attention block grows in steps of 16 tokens until its page holds a state:
    // 16 x ceil(2,146,304 / 16,384) = 2,096 tokens, a page of 2,146,304 bytes. Groups of 10 layers
    // (the attention's count; 30 / 10 = 3 state groups), a block = 10 pages. A request takes
    // ceil(131,072 / 2,096) = 63 attention pages and 2 per state group: 69.
    Config c = serving("qwen3.5-35b-a3b", "rtx-5090", Runtime::vllm);
    c.weights = "nvfp4";
    c.kv_cache = "fp8";
    c.runtime_version = "0.24.0";
    c.context = 131072;
    c.max_num_seqs = 1;
    const Report r = run(c);
    CHECK(r.state_bytes_per_sequence == Approx(30.0 * 2146304));
    const double pool = r.memory_kv_pool_bytes;
    REQUIRE(pool > 0);
    const double blocks = std::floor(pool / (10.0 * 2146304));
    CHECK(r.kv_capacity_tokens == std::floor(blocks / 69.0 * 131072));
    // The log's own pool, 5.98 GiB, given as vLLM's --kv-cache-memory-bytes: its 567,978 tokens,
    // 299 blocks / 69 x 131,072, and its "Maximum concurrency ... 4.33x".
    Config given = c;
    given.kv_cache_memory_bytes = 5.98 * kGiB;
    const Report g = run(given);
    CHECK(g.memory_kv_pool_bytes == Approx(5.98 * kGiB));
    CHECK(g.kv_capacity_tokens == 567978);
    CHECK(g.serving.max_concurrency == Approx(299.0 / 69.0));
    // Not a plain division: the pool less one state over the 10 layers' 1,024 bytes would hold about
    // 10% more (each request's 6 state pages and the last block's rounding are the difference).
    CHECK(r.kv_capacity_tokens < 0.93 * (pool - r.state_bytes_per_sequence) / 10240.0);
    // vLLM V0 kept the state apart: the plain division there.
    c.runtime_version = "0.6";
    const Report v0 = run(c);
    CHECK(v0.kv_capacity_tokens == std::floor((v0.memory_kv_pool_bytes - v0.state_bytes_per_sequence) / 10240.0));
}

TEST_CASE("kv_cache_memory_bytes: vLLM's pool as given, beside the model", "[kv_capacity][vllm][keys]") {
    // Llama 3.1 8B (131,072 bytes a token) on one H100: a 10 GiB pool holds 81,920 tokens whatever
    // gpu_memory_utilization says; the sensitivity has no fraction cases then.
    Config c = vllm_8b("0.21");
    c.kv_cache_memory_bytes = 10.0 * kGiB;
    const Report r = run(c);
    CHECK(r.kv_capacity_tokens == 81920);
    c.gpu_memory_utilization = 0.5;
    CHECK(run(c).kv_capacity_tokens == 81920);
    CHECK(!r.kv_capacity_sensitivity.fraction_down.computed);
    CHECK(r.fits);
    // A pool the GPU cannot hold beside the model: the shortfall is the headroom.
    c.kv_cache_memory_bytes = 75.0 * kGiB;
    const Report over = run(c);
    CHECK_FALSE(over.fits);
    bool named = false;
    for (const std::string& w : over.warnings) named = named || w.find("kv_cache_memory_bytes 75.00 GiB") != std::string::npos;
    CHECK(named);
    // Another runtime, or vLLM V0, refuses the key, naming it.
    Config sg = serving("llama-3.1-8b", "h100-sxm", Runtime::sglang);
    sg.kv_cache_memory_bytes = kGiB;
    CHECK_THROWS_WITH(estimate(sg, catalog()), Catch::Contains("kv_cache_memory_bytes"));
    Config v0 = vllm_8b("0.6");
    v0.kv_cache_memory_bytes = kGiB;
    CHECK_THROWS_WITH(estimate(v0, catalog()), Catch::Contains("V0"));
    // The key in links and JSON.
    const ConfigKey* k = find_config_key("kv_cache_memory_bytes");
    REQUIRE(k != nullptr);
    CHECK(std::string(k->link) == "kvm");
}
