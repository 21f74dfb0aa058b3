// test_engine_fractions.cpp: the engines' memory fractions beside vLLM's gpu_memory_utilization:
// SGLang's `mem_fraction_static` (--mem-fraction-static) and TensorRT-LLM's
// `free_gpu_memory_fraction` (KvCacheConfig; trtllm-bench / trtllm-serve
// --kv_cache_free_gpu_mem_fraction). The KV pool each sizes, the figures that follow it
// (memory.kv_capacity_tokens, serving.max_concurrency, the serving model, the layout search), the
// JSON, link and command-line forms, bad values, the wrong runtime, a fraction too small for the
// weights, and SGLang's startup log.
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "cli_support.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/engine_log.hpp"
#include "gpusizer/inspect.hpp"
#include "plan_support.hpp"
#include "runtime_profiles.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// Llama 3.1 70B: 80 layers x 8 KV heads x 128 x (K, V) x 2 bytes (fp16 cache) = 327,680 bytes per token.
constexpr double kKv70b = 80.0 * 8 * 128 * 2 * 2;
// Llama 3 8B: 32 layers x 8 KV heads x 128 x (K, V) x 2 bytes = 131,072 bytes per token.
constexpr double kKv8b = 32.0 * 8 * 128 * 2 * 2;
constexpr double kContext = 8192;   // the default context (both models are trained on more)

// The value of the assumption `name`, or "" when the report has none.
std::string assumption(const Report& r, const std::string& name) {
    for (const Assumption& a : assumptions(r))
        if (a.name == name) return a.value;
    return "";
}

// TensorRT-LLM serving Llama 3.1 70B in FP8 on one H200.
Config trt_70b_fp8() {
    Config c = serving("llama-3.1-70b", "h200", Runtime::trt_llm);
    c.weights = "fp8";
    return c;
}

// SGLang serving Llama 3 8B (bf16) on one H100 SXM.
// SGLang 0.4.8: its buckets give the default these tests derive (0.874 on an H100 at tp 1); the
// 0.5.3 reserve has its own tests (test_serving.cpp).
Config sglang_8b() {
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::sglang);
    c.runtime_version = "0.4.8";
    return c;
}

// The bytes SGLang sees free before loading on one GPU: the capacity less the CUDA context (400 MiB,
// runtime_profiles.cpp) and the NCCL / all-reduce buffers of one GPU (0.15 GiB, kVllmNonTorchSingle).
double sglang_before_load(const Report& r) { return r.gpu_capacity - 400 * kMiB - 0.15 * kGiB; }

}  // namespace

TEST_CASE("free_gpu_memory_fraction: TensorRT-LLM's pool is that share of what is free", "[engine_fraction][trt]") {
    Config c = trt_70b_fp8();
    const Report d = run(c);
    REQUIRE(d.fits);
    // Not given: TensorRT-LLM 1.0's KvCacheConfig.free_gpu_memory_fraction, 0.9, which the resolved
    // configuration names; the assumptions say it is the default.
    CHECK(d.config.free_gpu_memory_fraction == 0.9);
    CHECK_FALSE(d.config.mem_fraction_static.has_value());
    CHECK(assumption(d, "trt_llm_budget").find("free_gpu_memory_fraction 0.90") != std::string::npos);
    CHECK(assumption(d, "trt_llm_budget").find("the default of trt-llm 1.0") != std::string::npos);
    // One sequence of the default context: 8,192 x 327,680 bytes.
    REQUIRE(d.per_gpu.kv_cache == kContext * kKv70b);

    // The pool is f x (capacity - everything but the KV cache); that rest does not depend on f.
    const double non_kv = d.per_gpu.total() - d.per_gpu.kv_cache;
    const double free = d.gpu_capacity - non_kv;
    c.free_gpu_memory_fraction = 0.9;
    const Report g90 = run(c);
    c.free_gpu_memory_fraction = 0.95;
    const Report g95 = run(c);
    CHECK(g90.kv_capacity_tokens == d.kv_capacity_tokens);   // the default, given
    CHECK(g95.per_gpu.total() - g95.per_gpu.kv_cache == Approx(non_kv).epsilon(1e-12));
    CHECK(d.kv_capacity_tokens == Approx(std::floor(0.9 * free / kKv70b)).margin(1));
    CHECK(g95.kv_capacity_tokens == Approx(std::floor(0.95 * free / kKv70b)).margin(1));
    // Sequences of 8,192 tokens the pool holds: 0.95 x free / (8,192 x 327,680), and at 0.95 over
    // 0.9 exactly 0.95 / 0.9 of them.
    CHECK(g95.serving.max_concurrency == Approx(0.95 * free / (kContext * kKv70b)).epsilon(1e-12));
    CHECK(g95.serving.max_concurrency / d.serving.max_concurrency == Approx(0.95 / 0.9).epsilon(1e-12));
    CHECK(g95.config.free_gpu_memory_fraction == 0.95);
    CHECK(assumption(g95, "trt_llm_budget").find("free_gpu_memory_fraction 0.95") != std::string::npos);
    CHECK(assumption(g95, "trt_llm_budget").find("as given (the default: 0.90)") != std::string::npos);
    // What the engine lets this GPU use: the rest plus the pool, f x free of the free memory.
    CHECK(g95.gpu_usable == Approx(non_kv + 0.95 * free).epsilon(1e-12));
}

TEST_CASE("mem_fraction_static: SGLang's pool is that share of what is free before loading, less the weights",
          "[engine_fraction][sglang]") {
    Config c = sglang_8b();
    const Report d = run(c);
    // The H100 SXM's 81,559 MiB (nvidia-smi): sglang v0.4.8 server_args.py reserves (9.5 + 1 / 2)
    // GiB = 10,240 MiB on GPUs under 90 GiB at tp x pp = 1, so the default is
    // round((81,559 - 10,240) / 81,559, 3) = round(0.87445, 3) = 0.874.
    REQUIRE(d.gpu_capacity == 81559 * kMiB);
    CHECK(d.config.mem_fraction_static == 0.874);
    CHECK_FALSE(d.config.free_gpu_memory_fraction.has_value());
    CHECK(assumption(d, "sglang_budget").find("mem_fraction_static 0.874") != std::string::npos);
    CHECK(assumption(d, "sglang_budget").find("SGLang's default") != std::string::npos);
    REQUIRE(d.per_gpu.kv_cache == kContext * kKv8b);

    // pool = f x before_load - weights (model_runner.py profile_max_num_token: rest = available
    // after loading - before_load x (1 - f)).
    const double before_load = sglang_before_load(d);
    const double weights = d.per_gpu.weights;
    CHECK(d.kv_capacity_tokens == Approx(std::floor((0.874 * before_load - weights) / kKv8b)).margin(1));
    c.mem_fraction_static = 0.85;
    const Report r85 = run(c);
    c.mem_fraction_static = 0.7;
    const Report r70 = run(c);
    CHECK(r85.per_gpu.weights == weights);
    CHECK(r85.kv_capacity_tokens == Approx(std::floor((0.85 * before_load - weights) / kKv8b)).margin(1));
    // Between two fractions the pools differ by (f1 - f2) x before_load: in sequences of 8,192
    // tokens of 131,072 bytes each.
    CHECK((r85.serving.max_concurrency - r70.serving.max_concurrency) * kContext * kKv8b ==
          Approx((0.85 - 0.7) * before_load).epsilon(1e-9));
    CHECK(r70.config.mem_fraction_static == 0.7);
    CHECK(assumption(r70, "sglang_budget").find("as given (SGLang's default here: 0.874)") != std::string::npos);
    // The default given as a value changes nothing.
    c.mem_fraction_static = 0.874;
    CHECK(run(c).kv_capacity_tokens == d.kv_capacity_tokens);
}

namespace {
// `c` serving requests of `isl` + `osl` tokens.
Config with_requests(Config c, long long isl, long long osl) {
    c.isl = isl;
    c.osl = osl;
    return c;
}
}  // namespace

TEST_CASE("the engine fractions carry through to the serving model and the layout search", "[engine_fraction][serving][plan]") {
    // Requests of 1,000 + 1,000 tokens at 327,680 bytes per token: 625 MiB each. On one H200 the
    // 70B model's pool holds about a hundred of them, far below TensorRT-LLM's max_batch_size of
    // 2,048, so the pool sets the requests in flight, and a larger fraction runs more of them.
    Config c = with_requests(trt_70b_fp8(), 1000, 1000);
    const Report d = run(c);
    c.free_gpu_memory_fraction = 0.95;
    const Report g95 = run(c);
    REQUIRE(d.serving.active);
    REQUIRE(d.serving.concurrency > 50);
    CHECK(d.serving.concurrency < 2048);
    CHECK(g95.serving.concurrency > d.serving.concurrency);
    CHECK(g95.config.concurrency > d.config.concurrency);
    // At ~100 requests the steps are compute-bound: the six more at 0.95 lengthen each step (the
    // time per output token) rather than add tokens per second. At 0.5 the ~55 that fit leave the
    // steps memory-bound, and fewer tokens come out.
    CHECK(g95.serving.tpot_s > d.serving.tpot_s);
    c.free_gpu_memory_fraction = 0.5;
    const Report g50 = run(c);
    CHECK(g50.serving.concurrency < d.serving.concurrency);
    CHECK(g50.serving.output_tokens_per_s < d.serving.output_tokens_per_s);

    // SGLang: its running-request cap comes from its pool too (min(pool / 2, 2,048..4,096)); a
    // smaller fraction holds fewer.
    Config s = with_requests(sglang_8b(), 1000, 1000);
    const Report sd = run(s);
    s.mem_fraction_static = 0.5;
    const Report s50 = run(s);
    CHECK(s50.kv_capacity_tokens < sd.kv_capacity_tokens);
    CHECK(s50.serving.concurrency < sd.serving.concurrency);

    // The layout search: every layout it confirms carries the key and sizes its pool with it.
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base = trt_70b_fp8();
    q.base.gpus = 2;
    q.base.isl = 1000;
    q.base.osl = 1000;
    const PlanReport open = plan(q, catalog());
    q.base.free_gpu_memory_fraction = 0.5;
    const PlanReport half = plan(q, catalog());
    REQUIRE(open.has_best);
    REQUIRE(half.has_best);
    REQUIRE_FALSE(half.top.empty());
    for (const PlanLayout& l : half.top) {
        INFO("tp " << l.config.tp << " pp " << l.config.pp << " dp " << l.config.dp);
        CHECK(l.config.free_gpu_memory_fraction == 0.5);
        CHECK(l.report.config.free_gpu_memory_fraction == 0.5);
        Config unset = l.config;
        unset.free_gpu_memory_fraction.reset();
        CHECK(l.report.kv_capacity_tokens < run(unset).kv_capacity_tokens);
    }
    // Fewer requests fit per replica at 0.5: the best layout serves fewer tokens per GPU.
    CHECK(half.best.serving.output_tokens_per_s_per_gpu < open.best.serving.output_tokens_per_s_per_gpu);
}

TEST_CASE("engine fractions: JSON, share links and the command line", "[engine_fraction][config][link]") {
    const Config c = config_from_json(R"({"model": "llama-3-8b", "runtime": "sglang", "mem_fraction_static": 0.85})");
    REQUIRE(c.mem_fraction_static.has_value());
    CHECK(*c.mem_fraction_static == 0.85);
    CHECK(config_from_json(config_to_json(c)).mem_fraction_static == 0.85);
    const std::string link = link_from_config(c);
    CHECK(link.find("&mfs=0.85") != std::string::npos);
    CHECK(config_from_link(link).mem_fraction_static == 0.85);
    CHECK(link_from_config(config_from_link(link)) == link);

    const Config t = config_from_json(R"({"model": "llama-3-8b", "runtime": "trt-llm", "free_gpu_memory_fraction": 0.95})");
    CHECK(t.free_gpu_memory_fraction == 0.95);
    CHECK(config_from_json(config_to_json(t)).free_gpu_memory_fraction == 0.95);
    const std::string tlink = link_from_config(t);
    CHECK(tlink.find("&fgm=0.95") != std::string::npos);
    CHECK(config_from_link(tlink).free_gpu_memory_fraction == 0.95);
    CHECK(link_from_config(config_from_link(tlink)) == tlink);

    // Not given: null in JSON, absent from links; 0 in a file or a link reads as not given.
    const Config unset = config_from_json(R"({"model": "llama-3-8b"})");
    CHECK_FALSE(unset.mem_fraction_static.has_value());
    CHECK_FALSE(unset.free_gpu_memory_fraction.has_value());
    CHECK(config_to_json(unset, -1).find("\"mem_fraction_static\":null") != std::string::npos);
    CHECK(config_to_json(unset, -1).find("\"free_gpu_memory_fraction\":null") != std::string::npos);
    CHECK(link_from_config(unset).find("mfs=") == std::string::npos);
    CHECK(link_from_config(unset).find("fgm=") == std::string::npos);
    CHECK_FALSE(config_from_json(R"({"model": "llama-3-8b", "mem_fraction_static": 0})").mem_fraction_static.has_value());
    CHECK_FALSE(config_from_link("#v=1&m=llama-3-8b&fgm=0").free_gpu_memory_fraction.has_value());
    // Each short link key is its own.
    int mfs = 0, fgm = 0;
    for (const ConfigKey& k : config_keys()) {
        mfs += std::string_view(k.link) == "mfs";
        fgm += std::string_view(k.link) == "fgm";
    }
    CHECK(mfs == 1);
    CHECK(fgm == 1);

    // The command line: --mem-fraction-static F, --free-gpu-memory-fraction F.
    const CliResult r = run_cli(
        {"estimate", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--runtime", "sglang", "--mem-fraction-static", "0.85", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["config"]["mem_fraction_static"] == 0.85);
    CHECK(j["config"]["free_gpu_memory_fraction"].is_null());
    Config same = sglang_8b();
    same.mem_fraction_static = 0.85;
    CHECK(j["memory"]["kv_capacity_tokens"].get<double>() == run(same).kv_capacity_tokens);
    const CliResult tr = run_cli(
        {"estimate", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--runtime", "trt-llm", "--free-gpu-memory-fraction", "0.95", "--json"});
    REQUIRE(tr.code == 0);
    CHECK(nlohmann::json::parse(tr.out)["config"]["free_gpu_memory_fraction"] == 0.95);
}

TEST_CASE("engine fractions: bad values name the key", "[engine_fraction][bad-input]") {
    auto key_of = [](const std::string& json) {
        const std::optional<Error> e = thrown_error([&] { (void)run(config_from_json(json)); });
        return e ? e->key() : std::string("(no error)");
    };
    auto message = [](const std::string& json) { return thrown_message([&] { (void)run(config_from_json(json)); }); };
    for (const char* rt_key : {R"("runtime": "sglang", "mem_fraction_static")", R"("runtime": "trt-llm", "free_gpu_memory_fraction")"}) {
        const std::string head = std::string(R"({"model": "llama-3-8b", )") + rt_key + ": ";
        const std::string key =
            std::string(rt_key).find("mem_fraction") != std::string::npos ? "mem_fraction_static" : "free_gpu_memory_fraction";
        INFO(key);
        CHECK(key_of(head + "-0.1}") == key);
        CHECK(key_of(head + "1.01}") == key);
        CHECK(key_of(head + "1e300}") == key);
        CHECK(key_of(head + "0.0005}") == key);   // below 0.001 (0 itself reads as not given)
        CHECK(key_of(head + "\"0.9\"}") == key);
        CHECK(message(head + "1.5}").find("between 0.001 and 1") != std::string::npos);
        CHECK(key_of(head + "1}") == "(no error)");   // the bound itself
        CHECK(key_of(head + "0}") == "(no error)");
    }
    // The same through a link, the C++ API (NaN, a negative value) and the command line.
    CHECK(thrown_error([] { (void)config_from_link("#v=1&m=llama-3-8b&rt=sglang&mfs=2"); })->key() == "mem_fraction_static");
    Config c = sglang_8b();
    c.mem_fraction_static = std::nan("");
    CHECK(error_key(c) == "mem_fraction_static");
    Config t = trt_70b_fp8();
    t.free_gpu_memory_fraction = -0.5;
    CHECK(error_key(t) == "free_gpu_memory_fraction");
    CHECK(run_cli({"estimate", "--model", "llama-3-8b", "--runtime", "sglang", "--mem-fraction-static", "x"}).code != 0);
}

TEST_CASE("engine fractions on another runtime are refused, naming the runtime they belong to", "[engine_fraction][bad-input]") {
    // gpu_memory_utilization has a value on every runtime (its default is 0.9) and only vLLM reads
    // it; these two are unset by default, so a value given to another engine is a mistake to name
    // rather than ignore (as n_cpu_moe is on a runtime other than llama.cpp).
    for (Runtime rt : {Runtime::vllm, Runtime::trt_llm, Runtime::pytorch, Runtime::llama_cpp, Runtime::automatic}) {
        Config c = serving("llama-3-8b", "h100-sxm", rt);
        c.mem_fraction_static = 0.8;
        INFO(to_string(rt));
        const std::string msg = thrown_message([&] { (void)run(c); });
        CHECK(error_key(c) == "mem_fraction_static");
        CHECK(msg.find("applies to runtime sglang") != std::string::npos);
    }
    Config v = serving("llama-3-8b", "h100-sxm", Runtime::vllm);
    v.mem_fraction_static = 0.8;
    CHECK(thrown_message([&] { (void)run(v); }).find("vllm's share is gpu_memory_utilization") != std::string::npos);
    for (Runtime rt : {Runtime::vllm, Runtime::sglang, Runtime::pytorch, Runtime::ollama}) {
        Config c = serving("llama-3-8b", "h100-sxm", rt);
        c.free_gpu_memory_fraction = 0.95;
        INFO(to_string(rt));
        CHECK(error_key(c) == "free_gpu_memory_fraction");
        CHECK(thrown_message([&] { (void)run(c); }).find("applies to runtime trt-llm") != std::string::npos);
    }
    Config s = sglang_8b();
    s.free_gpu_memory_fraction = 0.95;
    CHECK(thrown_message([&] { (void)run(s); }).find("sglang's is mem_fraction_static") != std::string::npos);
    // Unset (or 0) on any runtime is fine.
    Config p = serving("llama-3-8b", "h100-sxm", Runtime::vllm);
    p.mem_fraction_static = 0.0;
    p.free_gpu_memory_fraction = 0.0;
    CHECK(error_key(p).empty());
}

TEST_CASE("an engine fraction too small for the weights does not fit, with a clear message", "[engine_fraction][memory]") {
    // SGLang at 0.05 on one H200 with Llama 3.1 70B in FP8 (~68 GiB of weights): 0.05 x ~140 GiB
    // = ~7 GiB holds not even the weights. SGLang raises "Not enough memory. Please try to increase
    // --mem-fraction-static." (model_runner.py); the report does not fit, with no pool and that warning.
    Config s = serving("llama-3.1-70b", "h200", Runtime::sglang);
    s.weights = "fp8";
    s.mem_fraction_static = 0.05;
    s.isl = 1000;
    s.osl = 1000;
    REQUIRE(0.05 * sglang_before_load(run(serving("llama-3.1-70b", "h200", Runtime::sglang))) < 60 * kGiB);
    const Report r = run(s);
    CHECK_FALSE(r.fits);
    CHECK(r.headroom < 0);
    CHECK(r.kv_capacity_tokens == 0);
    CHECK(r.serving.max_concurrency == 0);
    CHECK(has_warning(r, "Not enough memory. Please try to increase --mem-fraction-static."));
    CHECK(has_warning(r, "mem_fraction_static 0.05"));
    // The figures that follow the pool are finite and none negative (no NaN, no negative pool).
    for (double x : {r.headroom, r.gpu_usable, r.serving.output_tokens_per_s, r.serving.concurrency, r.serving.requests_per_s,
                     r.serving.ttft_s, r.serving.tpot_s, double(r.config.concurrency)}) {
        CHECK(std::isfinite(x));
    }
    for (double x : {r.gpu_usable, r.serving.output_tokens_per_s, r.serving.concurrency, r.serving.requests_per_s}) CHECK(x >= 0);

    // TensorRT-LLM at 0.001: a pool of 0.001 x (free memory after the weights) holds a few
    // hundred tokens, not one sequence of 8,192: it does not fit either, and nothing is negative.
    Config t = trt_70b_fp8();
    t.free_gpu_memory_fraction = 0.001;
    const Report tr = run(t);
    const double free = tr.gpu_capacity - (tr.per_gpu.total() - tr.per_gpu.kv_cache);
    CHECK_FALSE(tr.fits);
    CHECK(tr.kv_capacity_tokens == Approx(std::floor(0.001 * free / kKv70b)).margin(1));
    CHECK(tr.kv_capacity_tokens < kContext);
    CHECK(tr.serving.max_concurrency >= 0);
    CHECK(tr.serving.max_concurrency < 1);
    CHECK(std::isfinite(tr.headroom));
}

TEST_CASE("SGLang's startup log: data-parallel attention from its ServerArgs", "[engine_fraction][engine_log]") {
    // PR 11309's launch (--tp 8 --dp 8 --enable-dp-attention) as ServerArgs prints it, abridged.
    const std::string log =
        "server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3.2-Exp', mem_fraction_static=0.751, tp_size=8, "
        "dp_size=8, enable_dp_attention=True, kv_cache_dtype='auto')\n";
    const EngineLog l = read_engine_log(log);
    CHECK(l.tp_size == 8);
    CHECK(l.dp_attention == 8);
    // dp_size without DP attention is replicas, not groups.
    CHECK(read_engine_log("server_args=ServerArgs(model_path='m', tp_size=2, dp_size=4, enable_dp_attention=False)\n").dp_attention == 0);
    const auto j = nlohmann::json::parse(reconcile_json(log, &catalog(), R"({"model": "deepseek-v3.2-exp", "gpu": "b200", "weights": "fp8"})", {}));
    CHECK(j["dp_attention"] == 8);
    REQUIRE(j["estimate"].is_object());
    CHECK(j["estimate"]["config"]["tp"] == 8);
    CHECK(j["estimate"]["config"]["dp_attention"] == 8);
    CHECK(j["estimate"]["config"]["mem_fraction_static"] == 0.751);
}

TEST_CASE("SGLang's startup log: mem_fraction_static from its ServerArgs", "[engine_fraction][engine_log]") {
    // The server_args line as an SGLang server prints it at startup (sgl-project/sglang issue
    // #1100, abridged after max_running_requests): the fraction in use, here 0.87.
    const std::string log =
        "server_args=ServerArgs(model_path='qwen/Qwen2-57B-A14B-Instruct-GPTQ-Int4', tokenizer_path="
        "'qwen/Qwen2-57B-A14B-Instruct-GPTQ-Int4', tokenizer_mode='auto', skip_tokenizer_init=False, load_format='auto', "
        "dtype='auto', trust_remote_code=False, context_length=None, quantization='gptq', served_model_name="
        "'qwen/Qwen2-57B-A14B-Instruct-GPTQ-Int4', chat_template=None, host='127.0.0.1', port=8000, additional_ports=[8001, "
        "8002, 8003, 8004], mem_fraction_static=0.87, max_running_requests=None)\n";
    const EngineLog l = read_engine_log(log);
    CHECK(l.engine == "sglang");
    CHECK(l.mem_fraction_static == 0.87);
    // A fraction not yet resolved ("None") is no figure.
    CHECK(read_engine_log("server_args=ServerArgs(model_path='m', mem_fraction_static=None, tp_size=1)\n").mem_fraction_static == 0);

    // reconcile builds the configuration the log describes: SGLang at 0.87.
    const auto j = nlohmann::json::parse(reconcile_json(log, &catalog(), R"({"model": "llama-3-8b", "gpu": "h100-sxm"})", {}));
    CHECK(j["mem_fraction_static"] == 0.87);
    REQUIRE(j["estimate"].is_object());
    CHECK(j["estimate"]["config"]["runtime"] == "sglang");
    CHECK(j["estimate"]["config"]["mem_fraction_static"] == 0.87);
    // A runtime given instead drops the log's SGLang fraction rather than refusing the estimate.
    const auto v = nlohmann::json::parse(reconcile_json(log, &catalog(), R"({"model": "llama-3-8b", "runtime": "vllm"})", {}));
    REQUIRE(v["estimate"].is_object());
    CHECK(v["estimate"]["config"]["mem_fraction_static"].is_null());
}

TEST_CASE("SGLang's default fraction at a tensor-parallel size past its reserve is 0: no pool, no negative usable memory",
          "[engine_fraction][memory]") {
    // server_args.py reserves (9.5 + tp x pp / 2) GiB on an 80 GB GPU: past ~140 ranks that is more
    // than the GPU, and the formula goes negative (a fuzz input, 2,000 H100 at tp 2,000, found it).
    CHECK(detail::sglang_mem_fraction_static(81559, 2000) == 0.0);
    CHECK(detail::sglang_mem_fraction_static(81559, 1) == Approx(0.874));
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::sglang, 2000);
    c.max_num_seqs = 32;
    c.runtime_version = "0.4.8";
    const Report r = run(c);
    CHECK(r.config.mem_fraction_static.value_or(-1) == 0.0);
    CHECK(r.kv_capacity_tokens == 0);
    CHECK(r.gpu_usable >= 0);
    CHECK(std::isfinite(r.headroom));
    CHECK_FALSE(r.fits);
}
