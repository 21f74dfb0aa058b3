// test_kv_cache.cpp: KV cache per token and in total.
//
// Per-token figures: layers x kv_heads x head_dim x 2 (K and V) x bytes, from
// docs/research/models.md note N2; MLA caches kv_lora_rank + qk_rope_head_dim values.
#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

Report kv_run(const char* model, long long context, int batch = 1, const char* runtime = "none", int gpus = 1,
              const char* kv = "fp16") {
    Config c = config(model, "h200");
    c.context = context;
    c.batch = batch;
    c.runtime = parse_runtime(runtime);
    c.gpus = gpus;
    c.kv_cache = kv;
    return run(c);
}

}  // namespace

TEST_CASE("KV bytes per token, fp16, whole model", "[kv]") {
    CHECK(kv_run("llama-3-8b", 4096).kv_bytes_per_token == 131072);      // 2 x 32 x 8 x 128 x 2
    CHECK(kv_run("llama-3-70b", 4096).kv_bytes_per_token == 327680);     // 2 x 80 x 8 x 128 x 2
    CHECK(kv_run("llama-3.1-405b", 4096).kv_bytes_per_token == 516096);  // 2 x 126 x 8 x 128 x 2
    CHECK(kv_run("gpt-neox-20b", 2048).kv_bytes_per_token == 2.0 * 44 * 64 * 96 * 2);   // MHA
    // DeepSeek-V3/R1 MLA: 61 layers x (512 + 64) x 2 B = 70,272 B (the absorbed latent).
    CHECK(kv_run("deepseek-r1", 4096, 1, "vllm").kv_bytes_per_token == 70272);
    // transformers caches the decompressed K (192) and V (128) of all 128 heads.
    CHECK(kv_run("deepseek-r1", 4096, 1, "pytorch").kv_bytes_per_token == 61.0 * 128 * (192 + 128) * 2);
}

TEST_CASE("KV total = bytes per token x context x batch", "[kv]") {
    const Report r = kv_run("llama-3-8b", 8192, 4);
    CHECK(r.per_gpu.kv_cache == 131072.0 * 8192 * 4);
}

TEST_CASE("KV precision scales the cache", "[kv]") {
    const double fp16 = kv_run("llama-3-8b", 8192).per_gpu.kv_cache;
    CHECK(kv_run("llama-3-8b", 8192, 1, "none", 1, "fp8").per_gpu.kv_cache == fp16 / 2);
    // llama.cpp block types: 34 B per 32 values (q8_0), 18 B per 32 (q4_0).
    CHECK(kv_run("llama-3-8b", 8192, 1, "llama.cpp", 1, "q8_0").per_gpu.kv_cache == fp16 * 34.0 / 64);
    CHECK(kv_run("llama-3-8b", 8192, 1, "llama.cpp", 1, "q4_0").per_gpu.kv_cache == fp16 * 18.0 / 64);
}

TEST_CASE("sliding-window layers cache at most the window", "[kv]") {
    // Mistral 7B v0.1: every layer slides over 4096 tokens.
    const double per_token = 131072;   // same KV shape as Llama 3 8B
    CHECK(kv_run("mistral-7b", 2048).per_gpu.kv_cache == per_token * 2048);
    CHECK(kv_run("mistral-7b", 32768).per_gpu.kv_cache == per_token * 4096);
    // Gemma 2 9B: 42 layers, even ones slide over 4096, odd ones are global; 8 KV heads x 256.
    const double layer_token = 2.0 * 8 * 256 * 2;
    CHECK(kv_run("gemma-2-9b", 8192).per_gpu.kv_cache == layer_token * (21 * 4096 + 21 * 8192));
    CHECK(kv_run("gemma-2-9b", 2048).per_gpu.kv_cache == layer_token * 42 * 2048);
}

TEST_CASE("llama.cpp pads the cache to 256 tokens and keeps window + ubatch for SWA layers", "[kv]") {
    CHECK(kv_run("llama-3-8b", 1000, 1, "llama.cpp").per_gpu.kv_cache == 131072.0 * 1024);
    CHECK(kv_run("mistral-7b", 32768, 1, "llama.cpp").per_gpu.kv_cache == 131072.0 * (4096 + 512));
}

TEST_CASE("tensor parallelism splits KV heads, and replicates them past the head count", "[kv][parallel]") {
    const double whole = kv_run("llama-3-70b", 8192).per_gpu.kv_cache;
    CHECK(kv_run("llama-3-70b", 8192, 1, "none", 8).per_gpu.kv_cache == whole / 8);
    // tp 16 (given: automatic tensor parallelism stays inside a node of 8), 8 KV heads: each GPU
    // still holds one head (vLLM: max(1, kv_heads // tp)).
    Config c = config("llama-3-70b", "h200");
    c.context = 8192;
    c.runtime = Runtime::none;
    c.gpus = 16;
    c.tp = 16;
    CHECK(run(c).per_gpu.kv_cache == whole / 8);
    // Left automatic, 16 GPUs are two nodes: tp 8 inside each, two pipeline stages across them.
    c.tp = 0;
    const Report split = run(c);
    CHECK(split.parallel.tp == 8);
    CHECK(split.parallel.pp == 2);
    CHECK(split.per_gpu.kv_cache == whole / 16);
    // MLA's latent is the same on every rank: tensor parallelism does not shrink it.
    CHECK(kv_run("deepseek-r1", 8192, 1, "vllm", 8).per_gpu.kv_cache == kv_run("deepseek-r1", 8192, 1, "vllm", 1).per_gpu.kv_cache);
}

TEST_CASE("pipeline parallelism splits KV by layers", "[kv][parallel]") {
    Config c = serving("llama-3-70b", "h100-sxm", Runtime::none);
    c.context = 8192;
    c.gpus = 4;
    c.pp = 4;
    CHECK(run(c).per_gpu.kv_cache == 327680.0 * 8192 / 4);
}

TEST_CASE("encoder-only models keep no KV cache", "[kv]") {
    const Report r = kv_run("bert-base-uncased", 512);
    CHECK(r.kv_bytes_per_token == 0);
    CHECK(r.per_gpu.kv_cache == 0);
    CHECK(r.kv_capacity_tokens == 0);
}

TEST_CASE("encoder-decoder: decoder self- and cross-attention KV", "[kv]") {
    // T5-small: 6 decoder layers x 8 heads x 64 x (self + cross) x K,V x 2 B.
    CHECK(kv_run("t5-small", 512).kv_bytes_per_token == 6.0 * 8 * 64 * 2 * 2 * 2);
}

TEST_CASE("KV capacity: how many tokens fit in what is left", "[kv]") {
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::none);
    const Report r = run(c);
    const double left = r.gpu_usable - (r.per_gpu.total() - r.per_gpu.kv_cache);
    CHECK(r.kv_capacity_tokens == std::floor(left / 131072.0));
}

namespace {

// Llama 3 8B's global fields with a hand-made stack: attention layers like its own (8 KV heads
// of 128) and Mamba-2 layers (48 heads x 64 = d_inner 3072, one group, d_state 128, kernel 4).
ModelArch hybrid(int attention_layers, int mamba_layers, int state_bytes = 0) {
    ModelArch a = catalog().model("llama-3-8b").arch;
    LayerSpec att = a.layer(0);
    LayerSpec m;
    m.attn.kind = AttnKind::none;
    m.mlp = att.mlp;
    m.recurrent = mamba2_48x64();
    m.recurrent.state_bytes = state_bytes;
    std::vector<LayerSpec> layers(std::size_t(attention_layers), att);
    layers.insert(layers.end(), std::size_t(mamba_layers), m);
    a.n_layers = attention_layers + mamba_layers;
    set_stack(a, layers);
    return a;
}

Report custom_run(const ModelArch& a, long long context, const char* runtime, int batch = 1, const char* kv = "bf16") {
    Config c;
    c.model.custom = true;
    c.model.arch = a;
    c.gpu = "h200";
    c.context = context;
    c.batch = batch;
    c.runtime = parse_runtime(runtime);
    c.kv_cache = kv;
    return run(c);
}

}  // namespace

TEST_CASE("recurrent layers keep a fixed state per sequence, apart from the growing cache", "[kv][layers]") {
    // 4 attention layers x 2 x 8 x 128 x 2 B = 16,384 B per token; 28 Mamba-2 layers, each with a
    // conv state of (4 - 1) x (3072 + 2 x 128) = 9,984 values and an SSM state of 3072 x 128 =
    // 393,216 values per sequence (llama.cpp llama-hparams.cpp n_embd_r / n_embd_s).
    const double conv = 3.0 * 3328, ssm = 3072.0 * 128;
    const Report r = custom_run(hybrid(4, 28), 8192, "pytorch", 2);
    CHECK(r.kv_bytes_per_token == 4.0 * 2 * 8 * 128 * 2);
    CHECK(r.state_bytes_per_sequence == 28 * (conv + ssm) * 2);   // bf16, the model's dtype
    CHECK(r.cache_detail.full == 2 * 8192 * r.kv_bytes_per_token);
    CHECK(r.cache_detail.recurrent_state == 2 * r.state_bytes_per_sequence);
    CHECK(r.per_gpu.kv_cache == r.cache_detail.full + r.cache_detail.recurrent_state);
    // The state does not grow with the context.
    CHECK(custom_run(hybrid(4, 28), 65536, "pytorch", 2).cache_detail.recurrent_state == r.cache_detail.recurrent_state);
    // llama.cpp keeps both states in F32 (llama-model.cpp create_memory), whatever the KV type.
    CHECK(custom_run(hybrid(4, 28), 8192, "llama.cpp", 1, "q8_0").state_bytes_per_sequence == 28 * (conv + ssm) * 4);
    // vLLM: the SSM state in mamba_ssm_cache_dtype (float32 here), the conv state in bf16; an fp8
    // KV cache does not touch either.
    CHECK(custom_run(hybrid(4, 28, 4), 8192, "vllm", 1, "fp8").state_bytes_per_sequence == 28 * (conv * 2 + ssm * 4));
    // Tensor parallelism splits the state by heads.
    Config c;
    c.model.custom = true;
    c.model.arch = hybrid(4, 28);
    c.gpu = "h200";
    c.gpus = 4;
    c.tp = 4;
    c.context = 8192;
    c.runtime = Runtime::vllm;
    CHECK(run(c).cache_detail.recurrent_state == 28 * (conv + ssm) * 2 / 4);
}

TEST_CASE("Gated DeltaNet state: Qwen3-Next's linear layers", "[kv][layers]") {
    // Per linear layer: conv (4 - 1) x (2 x 16 x 128 + 32 x 128) = 24,576 values, recurrent
    // 32 value heads x 128 x 128 = 524,288 values (models-2026 worked example: 36 layers give
    // 19,759,104 values per sequence).
    ModelArch a = catalog().model("llama-3-8b").arch;
    LayerSpec l = a.layer(0);
    l.attn.kind = AttnKind::none;
    l.recurrent = qwen3_next_deltanet();   // conv1d has no bias: the state does not depend on it
    a.n_layers = 36;
    set_stack(a, std::vector<LayerSpec>(36, l));
    const Report r = custom_run(a, 4096, "pytorch");
    CHECK(r.state_bytes_per_sequence == 19759104.0 * 2);
    CHECK(r.kv_bytes_per_token == 0);
}

TEST_CASE("chunked layers cache at most one chunk, per runtime", "[kv][layers]") {
    // Llama 4's local layers: chunks of 8192 tokens. 1 chunked layer + 1 full layer, 8 KV heads
    // of 128: 4,096 B per token and layer in bf16.
    ModelArch a = catalog().model("llama-3-8b").arch;
    LayerSpec full = a.layer(0), chunked = full;
    chunked.attn.kind = AttnKind::chunked;
    chunked.attn.window = 8192;
    a.n_layers = 2;
    set_stack(a, {chunked, full});
    const double per_layer_token = 2.0 * 8 * 128 * 2;
    const Report t = custom_run(a, 32768, "pytorch");
    CHECK(t.cache_detail.chunked == per_layer_token * 8192);
    CHECK(t.cache_detail.full == per_layer_token * 32768);
    CHECK(t.kv_bytes_per_token == 2 * per_layer_token);   // uncapped, as for sliding windows
    // llama.cpp: the chunk plus one ubatch of 512 (llama-kv-cache-iswa.cpp).
    CHECK(custom_run(a, 32768, "llama.cpp").cache_detail.chunked == per_layer_token * (8192 + 512));
    // vLLM: cdiv(8192, 16) + 1 blocks of 16 tokens (SlidingWindowSpec / ChunkedLocalAttentionSpec).
    CHECK(custom_run(a, 32768, "vllm").cache_detail.chunked == per_layer_token * (512 + 1) * 16);
    // Shorter than a chunk: the whole context.
    CHECK(custom_run(a, 4096, "pytorch").cache_detail.chunked == per_layer_token * 4096);
}

TEST_CASE("vLLM keeps a sliding window in whole blocks, plus one", "[kv][layers]") {
    // Gemma 2 9B: 21 sliding layers (window 4096) and 21 global ones, 8 KV heads of 256.
    const double layer_token = 2.0 * 8 * 256 * 2;
    const Report r = kv_run("gemma-2-9b", 32768, 1, "vllm");
    CHECK(r.cache_detail.sliding == layer_token * 21 * (4096 + 16));
    CHECK(r.cache_detail.full == layer_token * 21 * 32768);
}

TEST_CASE("MLA with an indexer: latent plus 132 bytes of indexer key per token and layer", "[kv][layers]") {
    // DeepSeek-V3.2: the MLA latent (512 + 64 values) plus an FP8 indexer key of 128 and one FP32
    // scale per 128 (DeepSeek-V3.2-Exp inference/model.py Indexer): 61 x 132 = 8,052 B per token.
    ModelArch a = catalog().model("deepseek-r1").arch;
    std::vector<LayerSpec> layers;
    for (int i = 0; i < a.n_layers; ++i) {
        LayerSpec l = a.layer(i);
        l.attn.index_n_heads = 64;
        l.attn.index_head_dim = 128;
        layers.push_back(l);
    }
    set_stack(a, layers);
    const Report r = custom_run(a, 4096, "vllm");
    CHECK(r.kv_bytes_per_token == 61.0 * 576 * 2 + 61.0 * 132);
    CHECK(r.cache_detail.indexer == 61.0 * 132 * 4096);
    CHECK(r.cache_detail.mla == 61.0 * 576 * 2 * 4096);
    // The indexer's projections are weights too: wq_b (1536 -> 64 x 128), wk (7168 -> 128),
    // weights_proj (7168 -> 64), k_norm (weight + bias, 256).
    const ParamCounts with = count_params(a), without = count_params(catalog().model("deepseek-r1").arch);
    CHECK(with.total() - without.total() == 61 * (1536.0 * 64 * 128 + 7168.0 * 128 + 7168.0 * 64 + 256));
}

TEST_CASE("KV-sharing layers keep no cache of their own", "[kv][layers]") {
    ModelArch a = catalog().model("llama-3-8b").arch;
    LayerSpec own = a.layer(0), shared = own;
    shared.attn.kv_shared = true;
    a.n_layers = 4;
    set_stack(a, {own, own, shared, shared});
    CHECK(custom_run(a, 4096, "pytorch").kv_bytes_per_token == 2 * 2.0 * 8 * 128 * 2);
}

TEST_CASE("the KV capacity in tokens leaves the recurrent state in place", "[kv][layers]") {
    // What is left for growing K/V = usable - (everything else, the fixed state included); the
    // state's bytes are not counted as room for tokens.
    const Report r = custom_run(hybrid(4, 28), 8192, "pytorch", 2);
    const double left = r.gpu_usable - (r.per_gpu.total() - r.per_gpu.kv_cache + r.cache_detail.recurrent_state);
    CHECK(r.kv_capacity_tokens == std::floor(left / r.kv_bytes_per_token));
}

TEST_CASE("the report carries the cache by kind, the fixed state and the parameters by part", "[kv][layers][json]") {
    const Report r = custom_run(hybrid(4, 28), 8192, "pytorch", 2);
    const auto j = nlohmann::json::parse(report_to_json(r));
    CHECK(j["memory"]["cache_detail"]["full"].get<double>() == r.cache_detail.full);
    CHECK(j["memory"]["cache_detail"]["recurrent_state"].get<double>() == r.cache_detail.recurrent_state);
    CHECK(j["memory"]["cache_detail"]["sliding"].get<double>() == 0);
    CHECK(j["state_bytes_per_sequence"].get<double>() == r.state_bytes_per_sequence);
    CHECK(j["kv_bytes_per_token"].get<double>() == 4.0 * 2 * 8 * 128 * 2);   // the growing part only
    CHECK(j["model"]["params_by_part"]["text"].get<double>() == j["params"].get<double>());
    CHECK(j["model"]["params_by_part"]["vision"].get<double>() == 0);
    // Gemma 2 9B under llama.cpp: sliding and full layers apart, summing to the cache.
    const Report g = kv_run("gemma-2-9b", 16384, 1, "llama.cpp");
    CHECK(g.cache_detail.sliding + g.cache_detail.full == g.per_gpu.kv_cache);
    CHECK(g.cache_detail.sliding == 2.0 * 8 * 256 * 2 * 21 * (4096 + 512));
}

TEST_CASE("tensor parallelism must divide the heads of every layer kind", "[parallel][layers]") {
    // 32 attention heads (Llama 3 8B's) and 48 Mamba-2 heads: tp 8 and 16 divide both, tp 32 only
    // the attention heads.
    Config c;
    c.model.custom = true;
    c.model.arch = hybrid(4, 28);
    c.gpu = "h200";
    c.runtime = Runtime::vllm;
    c.gpus = 16;
    c.tp = 16;
    CHECK(run(c).parallel.tp == 16);
    c.gpus = 32;
    c.tp = 32;
    CHECK_THROWS_WITH(run(c), Catch::Contains("32 and 48 attention heads"));
    // Automatic placement skips a tensor-parallel degree that does not divide them all.
    c.tp = 0;
    CHECK(run(c).parallel.tp != 32);
}
