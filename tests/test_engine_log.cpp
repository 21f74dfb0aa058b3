// test_engine_log.cpp: the engine-log reader on real startup-log excerpts (tests/data/logs/,
// each file's first line names the public thread it was quoted in).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "gpusizer/engine_log.hpp"

using namespace gpusizer;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

EngineLog read_log(const std::string& name) {
    std::ifstream f(std::string(GPUSIZER_TEST_DATA) + "/logs/" + name, std::ios::binary);
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    return read_engine_log(ss.str());
}

}  // namespace

TEST_CASE("llama.cpp 2024 log: weights, KV, output and compute buffers per device", "[engine_log]") {
    const EngineLog l = read_log("llama_cpp_two_gpus_pr8035.log");
    CHECK(l.engine == "llama.cpp");
    CHECK(l.n_ctx == 8192);
    CHECK(l.n_batch == 2048);
    CHECK(l.n_ubatch == 512);
    CHECK(l.buffer_bytes("model", "CPU") == Approx(22994.45 * kMiB));
    CHECK(l.buffer_bytes("model", "CUDA0") == Approx(12633.25 * kMiB));
    CHECK(l.buffer_bytes("model", "CUDA1") == Approx(8652.00 * kMiB));
    CHECK(l.buffer_bytes("kv", "CUDA0") == Approx(1472.00 * kMiB));
    CHECK(l.buffer_bytes("output", "CUDA_Host") == Approx(0.98 * kMiB));
    CHECK(l.buffer_bytes("compute", "CUDA0") == Approx(1108.50 * kMiB));
    // The KV buffers add up to the "KV self size" line: 64 + 1472 + 1024 = 2560 MiB, half K, half V.
    CHECK(l.buffer_bytes("kv") == Approx(2560.0 * kMiB));
    CHECK(l.kv_bytes == Approx(2560.0 * kMiB));
    CHECK(l.kv_k_bytes == Approx(1280.0 * kMiB));
    CHECK(l.kv_v_bytes == Approx(1280.0 * kMiB));
    CHECK(l.kv_type_k == "f16");
    CHECK(l.devices() == std::vector<std::string>{"CPU", "CUDA0", "CUDA1", "CUDA_Host"});
}

TEST_CASE("llama-server log: model buffers on 8 GPUs, n_ctx per sequence, quantized KV types", "[engine_log]") {
    const EngineLog l = read_log("llama_cpp_deepseek_8gpus_issue9390.log");
    CHECK(l.engine == "llama.cpp");
    CHECK(l.n_seq_max == 8);
    CHECK(l.n_ctx == 16384);
    CHECK(l.n_ctx_per_seq == 2048);  // 16384 / 8 sequences
    CHECK(l.n_ctx_per_seq * l.n_seq_max == l.n_ctx);
    CHECK(l.kv_type_k == "q4_0");
    CHECK(l.kv_type_v == "f16");
    CHECK(l.buffer_bytes("model", "CUDA7") == Approx(19728.83 * kMiB));
    CHECK(l.buffer_bytes("model") == Approx((25338.47 * 4 + 22171.16 + 19728.83) * kMiB));
    CHECK(l.buffer_bytes("kv", "CUDA3") == Approx(5096.00 * kMiB));
}

TEST_CASE("llama.cpp 2026 log: llama_kv_cache size lines, interleaved SWA, ANSI colours", "[engine_log]") {
    const EngineLog l = read_log("llama_cpp_dsv4_iswa_issue27680.log");
    CHECK(l.engine == "llama.cpp");
    CHECK(l.buffer_bytes("output", "CUDA_Host") == Approx(0.49 * kMiB));
    CHECK(l.buffer_bytes("kv", "CUDA0") == Approx(182.75 * kMiB));
    CHECK(l.kv_cells == 64000);
    CHECK(l.kv_type_k == "bf16");
}

TEST_CASE("llama.cpp print_info: the hyperparameters and the parameter count", "[engine_log]") {
    const EngineLog l = read_log("llama_cpp_gpt_oss_issue15125.log");
    CHECK(l.architecture == "gpt-oss");
    CHECK(l.model_name == "Gpt-Oss-120B");
    CHECK(l.n_ctx_train == 131072);
    CHECK(l.n_embd == 2880);
    CHECK(l.n_layer == 36);
    CHECK(l.n_head == 64);
    CHECK(l.n_head_kv == 8);
    CHECK(l.n_expert == 128);
    CHECK(l.n_expert_used == 4);
    CHECK(l.model_params == Approx(116.83e9));
    CHECK(l.buffers.empty());
}

TEST_CASE("Ollama journal: llama.cpp lines behind a syslog prefix", "[engine_log]") {
    const EngineLog l = read_log("ollama_llama31_70b_pr6279.log");
    CHECK(l.engine == "ollama");
    CHECK(l.model_type == "70B");
    CHECK(l.file_type == "Q4_0");
    CHECK(l.model_params == Approx(70.55e9));
    CHECK(l.model_file_bytes == Approx(37.22 * kGiB));
    // 37.22 GiB x 8 / 70.55e9 = 4.53 bits per weight: Q4_0's 4.5 plus a few larger tensors.
    CHECK(l.model_file_bytes * 8 / l.model_params == Approx(4.53).epsilon(0.01));
}

TEST_CASE("vLLM V1: KV token capacity, concurrency and CUDA graph memory", "[engine_log]") {
    const EngineLog l = read_log("vllm_v1_windows_build_issue4.log");
    CHECK(l.engine == "vllm");
    CHECK(l.kv_cache_tokens == 396928);
    CHECK(l.concurrency_tokens_per_request == 131072);
    CHECK(l.max_concurrency == Approx(3.03));
    // vLLM's concurrency is the token capacity over the request length: 396,928 / 131,072 = 3.03.
    CHECK(static_cast<double>(l.kv_cache_tokens) / static_cast<double>(l.concurrency_tokens_per_request) ==
          Approx(l.max_concurrency).epsilon(0.002));
    CHECK(l.graph_bytes == Approx(0.11 * kGiB));
    CHECK(l.buffer_bytes("graph", "GPU") == Approx(0.11 * kGiB));
}

TEST_CASE("vLLM V0: the memory profile line, GB that means GiB, blocks", "[engine_log]") {
    const EngineLog l = read_log("vllm_v0_windows_issue6.log");
    CHECK(l.engine == "vllm");
    CHECK(l.weights_bytes == Approx(0.4678 * kGiB));
    CHECK(l.gpu_memory_bytes == Approx(16.0 * kGiB));
    CHECK(l.gpu_memory_utilization == Approx(0.90));
    CHECK(l.non_torch_bytes == Approx(0.03 * kGiB));
    CHECK(l.activation_peak_bytes == Approx(0.50 * kGiB));
    CHECK(l.available_kv_bytes == Approx(13.40 * kGiB));
    CHECK(l.kv_blocks == 12200);
    // 12,200 blocks x 16 tokens (vLLM's default block size) / 2048 tokens = 95.31 requests.
    CHECK(12200.0 * 16 / static_cast<double>(l.concurrency_tokens_per_request) == Approx(l.max_concurrency).epsilon(0.001));
    // The budget: 16 GiB x 0.90 = 14.40 GiB = weights 0.47 + non-torch 0.03 + activations 0.50 + KV 13.40.
    CHECK(0.47 + 0.03 + 0.50 + 13.40 == Approx(14.40));
    REQUIRE(!l.notes.empty());
    CHECK(l.notes[0].find("GiB") != std::string::npos);
}

TEST_CASE("vLLM with tensor-parallel workers: the rank names the device", "[engine_log]") {
    const EngineLog l = read_log("vllm_v1_tp2_issue38820.log");
    CHECK(l.weights_bytes == Approx(12.66 * kGiB));
    CHECK(l.buffer_bytes("model", "TP0") == Approx(12.66 * kGiB));
    const EngineLog k = read_log("vllm_qwen3_235b_issue21348.log");
    CHECK(k.engine == "vllm");
    CHECK(k.available_kv_bytes == Approx(8.11 * kGiB));
    CHECK(k.kv_cache_tokens == 178880);
}

TEST_CASE("SGLang: KV tokens and K/V sizes printed as GB that are GiB", "[engine_log]") {
    const EngineLog l = read_log("sglang_qwen3_235b_issue21348.log");
    CHECK(l.engine == "sglang");
    CHECK(l.kv_cache_tokens == 367404);
    CHECK(l.kv_k_bytes == Approx(8.23 * kGiB));
    CHECK(l.kv_v_bytes == Approx(8.23 * kGiB));
    CHECK(l.kv_bytes == Approx(16.46 * kGiB));
    REQUIRE(!l.notes.empty());
    CHECK(l.notes[0].find("SGLang") != std::string::npos);
    // Cross-check with the model (Qwen3-235B-A22B: 94 layers, 4 KV heads, head dim 128, FP8 -> bf16
    // KV, TP 4 -> 1 KV head per GPU): K per token = 94 x 1 x 128 x 2 B = 24,064 B; x 367,404 tokens
    // = 8.84e9 B = 8.23 GiB, as printed: SGLang's "GB" is GiB.
    CHECK(94.0 * 1 * 128 * 2 * 367404 / kGiB == Approx(8.23).epsilon(0.001));

    const EngineLog two = read_log("sglang_nvfp4_2x5090_club3090_1261.log");
    CHECK(two.kv_type_k == "torch.float8_e4m3fn");
    CHECK(two.kv_cache_tokens == 454112);
    CHECK(two.avail_after_pool_bytes == Approx(8.40 * kGiB));
    CHECK(two.devices() == std::vector<std::string>{"TP0", "TP1"});
    // Two pools per rank (the model's and the draft model's): 2 x 3.46 + 2 x 1.08 GiB.
    CHECK(two.buffer_bytes("kv", "TP0") == Approx((3.46 * 2 + 1.08 * 2) * kGiB));

    const EngineLog cap = read_log("sglang_max_tokens_issue29575.log");
    CHECK(cap.engine == "sglang");
    CHECK(cap.kv_cache_tokens == 2086558);
    CHECK(cap.max_running_requests == 33);
    CHECK(cap.n_ctx == 256000);
}

TEST_CASE("engine logs: text that is no log", "[engine_log]") {
    CHECK(read_engine_log("").engine.empty());
    const EngineLog l = read_engine_log("hello\nworld = 3\n\x01\x02 buffer size = lots\n");
    CHECK(l.engine.empty());
    CHECK(l.buffers.empty());
    // A line far longer than any log line is skipped; the next one still counts.
    std::string text(kEngineLogMaxLine + 10, 'x');
    text += "\nllama_context:      CUDA0 compute buffer size =   10.00 MiB\n";
    const EngineLog k = read_engine_log(text);
    CHECK(k.buffer_bytes("compute", "CUDA0") == Approx(10.0 * kMiB));
    CHECK(k.buffers.at(0).line == 2);
    // Numbers too long to be sizes are ignored, not overflowed.
    const EngineLog big = read_engine_log("llama_context: CUDA0 compute buffer size = 99999999999999999999999 MiB\n");
    CHECK(big.buffers.empty());
}

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

TEST_CASE("gpusizer reconcile: what a log says, text and JSON", "[engine_log][cli]") {
    const std::string log = std::string(GPUSIZER_TEST_DATA) + "/logs/llama_cpp_two_gpus_pr8035.log";
    const auto text = gpusizer::test::run_cli({"reconcile", log}, false);
    REQUIRE(text.code == 0);
    // Without the catalog (no --assets) there is no estimate, and the text says why.
    CHECK_THAT(text.out, Catch::Contains("engine: llama.cpp") && Catch::Contains("CUDA0:") && Catch::Contains("estimate: none"));
    const auto js = gpusizer::test::run_cli({"reconcile", log, "--json"}, false);
    REQUIRE(js.code == 0);
    const auto j = nlohmann::json::parse(js.out);
    CHECK(j["engine"] == "llama.cpp");
    CHECK(j["n_ctx"] == 8192);
    CHECK(j["kv_bytes"].get<double>() == Approx(2560.0 * kMiB));
    CHECK(j["buffers"].size() == 8);  // model on CPU, CUDA0, CUDA1; KV on CUDA_Host, CUDA0, CUDA1; output; compute
    CHECK(j["estimate"].is_null());
    // A file that is no log.
    const auto none = gpusizer::test::run_cli({"reconcile", std::string(GPUSIZER_TEST_DATA) + "/logs/SOURCES.md"}, false);
    CHECK(none.code == 2);
    CHECK_THAT(none.err, Catch::Contains("no line"));
}

TEST_CASE("gpusizer reconcile: the estimate column, component by component", "[engine_log][cli]") {
    using nlohmann::json;
    auto logs = [](const char* f) { return std::string(GPUSIZER_TEST_DATA) + "/logs/" + f; };
    auto component = [](const json& j, const std::string& name) {
        for (const auto& c : j["estimate"]["components"])
            if (c["name"] == name) return c;
        return json();
    };

    // Two GPUs, llama.cpp's layer split (pp 2), Llama 3 70B at n_ctx 8192 with f16 K and V.
    // One layer's cache: 8 KV heads x 128 x 2 (K, V) x 2 B x 8,192 tokens = 32 MiB. The log's
    // CUDA0 holds 46 layers (1,472 MiB); the estimate splits 80 layers evenly: 40 x 32 = 1,280 MiB.
    const auto two = gpusizer::test::run_cli({"reconcile", logs("llama_cpp_two_gpus_pr8035.log"), "--model", "llama-3-70b", "--json"});
    INFO(two.err);
    REQUIRE(two.code == 0);
    const json j = json::parse(two.out);
    REQUIRE(j["estimate"].is_object());
    CHECK(j["estimate"]["config"]["gpus"] == 2);
    CHECK(j["estimate"]["config"]["pp"] == 2);
    CHECK(j["estimate"]["config"]["runtime"] == "llama.cpp");
    CHECK(j["estimate"]["config"]["context"] == 8192);
    const json kv = component(j, "kv_cache");
    REQUIRE(kv.is_object());
    CHECK(kv["log"].get<double>() == Approx(1472.0 * kMiB));
    CHECK(kv["estimate"].get<double>() == Approx(1280.0 * kMiB));
    CHECK(kv["difference"].get<double>() == Approx(-192.0 * kMiB));
    // Model buffers on every device: 22,994.45 + 12,633.25 + 8,652.00 MiB = 44,279.70 MiB.
    CHECK(component(j, "weights_total")["log"].get<double>() == Approx(44279.70 * kMiB));

    // The text form: a row per component.
    const auto text = gpusizer::test::run_cli({"reconcile", logs("llama_cpp_two_gpus_pr8035.log"), "--model", "llama-3-70b"});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("log vs estimate") && Catch::Contains("kv_cache"));

    // Ollama, Llama 3.1 70B Q4_0 ("model ftype = Q4_0" -> weights q4_0): the file's 37.22 GiB
    // against the estimate's whole-model bytes.
    const auto ol = gpusizer::test::run_cli({"reconcile", logs("ollama_llama31_70b_pr6279.log"), "--model", "llama-3.1-70b", "--json"});
    REQUIRE(ol.code == 0);
    const json o = json::parse(ol.out);
    CHECK(o["estimate"]["config"]["weights"] == "q4_0");
    CHECK(component(o, "weights_total")["log"].get<double>() == Approx(37.22 * kGiB));

    // vLLM sizes a pool from the memory left: the log's pool beside the estimate's (the tokens
    // it says fit, times KV bytes per token per GPU), and the token counts, never the cache of
    // one batch. Qwen3-235B-A22B FP8 on 4 x H100 (the setup, given by flags).
    const auto vl = gpusizer::test::run_cli({"reconcile", logs("vllm_qwen3_235b_issue21348.log"), "--model",
                                             "qwen3-235b-a22b-instruct-2507", "--weights", "fp8", "--gpu", "h100-sxm", "--gpus", "4",
                                             "--tp", "4", "--json"});
    INFO(vl.err);
    REQUIRE(vl.code == 0);
    const json v = json::parse(vl.out);
    REQUIRE(v["estimate"].is_object());
    CHECK(v["estimate"]["config"]["runtime"] == "vllm");
    CHECK(component(v, "kv_pool")["log"].get<double>() == Approx(8.11 * kGiB));
    CHECK(component(v, "kv_pool")["estimate"].get<double>() > 0);
    CHECK(component(v, "kv_tokens")["log"] == 178880);
    CHECK(component(v, "kv_cache").is_null());

    // A log whose model is not in the catalog (a DeepSeek V4 GGUF): no estimate, and the reason names --model.
    const auto dsv4 = gpusizer::test::run_cli({"reconcile", logs("llama_cpp_dsv4_iswa_issue27680.log"), "--json"});
    REQUIRE(dsv4.code == 0);
    const json g = json::parse(dsv4.out);
    CHECK(g["estimate"].is_null());
    CHECK_THAT(g["estimate_error"].get<std::string>(), Catch::Contains("--model"));
    // The app decides from the key and the code, not the message: the Setup panel's model stands in.
    CHECK(g["estimate_error_key"] == "model");
    CHECK(g["estimate_error_code"] == "unknown_id");
    // gpt-oss-120b ("general.name = Gpt-Oss-120B") is in the catalog: the log finds it.
    const auto gpt = gpusizer::test::run_cli({"reconcile", logs("llama_cpp_gpt_oss_issue15125.log"), "--json"});
    REQUIRE(gpt.code == 0);
    CHECK(json::parse(gpt.out)["estimate"]["model"] == "gpt-oss-120b");
}
