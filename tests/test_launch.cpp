// test_launch.cpp: the engines' launch commands for an estimated configuration (gpusizer/launch.hpp).
// Each expected command is written out by hand from the configuration, the engine's defaults the
// estimate resolves (core/src/runtime_profiles.cpp, serving.cpp) and the flag table with its
// sources (core/src/launch/launch_command.cpp, docs/launch.md).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using gpusizer::test::run;
using gpusizer::test::serving;

namespace {

// The engines run_cli / launch_commands listed, by report key.
bool has_engine(const std::vector<std::pair<Runtime, std::string>>& all, Runtime e) {
    for (const auto& [engine, command] : all)
        if (engine == e) return true;
    return false;
}

}   // namespace

TEST_CASE("vLLM: Llama 3.1 8B on two RTX 4090s, tensor parallel, every value the estimate took", "[launch]") {
    Config c = serving("llama-3.1-8b", "rtx-4090", Runtime::vllm, 2);
    c.context = 8192;
    const Report r = run(c);
    REQUIRE(r.parallel.tp == 2);   // vLLM splits heads: 32 heads over 2 GPUs
    // models.json hf_repo meta-llama/Llama-3.1-8B; weights bf16 (an unquantized checkpoint);
    // KV bf16 = vLLM's automatic dtype (not written); the default profile 0.10:
    // gpu_memory_utilization 0.9; max_num_seqs 256 (a GPU under 70 GiB: vllm/engine/arg_utils.py
    // get_batch_defaults).
    CHECK(launch_command(r, Runtime::vllm) ==
          "vllm serve meta-llama/Llama-3.1-8B --dtype bfloat16 --tensor-parallel-size 2 --max-model-len 8192 "
          "--gpu-memory-utilization 0.9 --max-num-seqs 256");
    // The current profile resolves 0.92 (vllm/config/cache.py), and the command follows it.
    c.runtime_version = "current";
    CHECK(launch_command(run(c), Runtime::vllm).find("--gpu-memory-utilization 0.92 ") != std::string::npos);
}

TEST_CASE("vLLM: FP8 weights quantized at load, an FP8 cache, the large-GPU cap", "[launch]") {
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm);
    c.context = 8192;
    c.weights = "fp8";
    c.kv_cache = "fp8";
    // A bf16 checkpoint served as FP8: --quantization fp8 (no --dtype); H100 80 GB (>= 70 GiB, not an
    // A100): 1024 sequences.
    CHECK(launch_command(run(c), Runtime::vllm) ==
          "vllm serve meta-llama/Llama-3.1-8B --quantization fp8 --max-model-len 8192 --gpu-memory-utilization 0.9 "
          "--max-num-seqs 1024 --kv-cache-dtype fp8");
    // SGLang spells the FP8 cache fp8_e4m3 (server_args.py choices auto, fp8_e5m2, fp8_e4m3).
    CHECK(launch_command(run(c), Runtime::sglang).find("--kv-cache-dtype fp8_e4m3") != std::string::npos);
    // llama.cpp and Ollama read GGUF files or 16/32-bit floats, and the ggml cache types have no FP8.
    CHECK(launch_command(run(c), Runtime::llama_cpp).empty());
    CHECK(launch_refusal(run(c), Runtime::ollama).find("not a GGUF type") != std::string::npos);
    c.weights = "bf16";
    CHECK(launch_refusal(run(c), Runtime::llama_cpp) == "llama.cpp has no KV cache type 'fp8'");
}

TEST_CASE("a quantized checkpoint: as published, no --quantization, another format is a copy of it", "[launch]") {
    // DeepSeek-R1 is published in FP8 (its quantization_config, models.json): weights fp8 is the
    // checkpoint itself, which vLLM reads as FP8 without being told. 8 x H200: tp 8, 1024 sequences.
    Config c = serving("deepseek-r1", "h200", Runtime::vllm, 8);
    c.weights = "fp8";
    c.context = 32768;
    CHECK(launch_command(run(c), Runtime::vllm) ==
          "vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --max-model-len 32768 --gpu-memory-utilization 0.9 "
          "--max-num-seqs 1024");
    // int4 of it: a GPTQ/AWQ-style checkpoint the engine is pointed at, explained in a comment.
    c.weights = "int4";
    CHECK(launch_command(run(c), Runtime::vllm).rfind("# MODEL-INT4: a checkpoint of deepseek-ai/DeepSeek-R1 in INT4 (", 0) == 0);
    // gpt-oss as published (MXFP4 experts): llama.cpp reads GGUF files, not that checkpoint.
    const Report oss = run(serving("gpt-oss-20b", "rtx-4090", Runtime::vllm));
    CHECK(launch_command(oss, Runtime::vllm) ==
          "vllm serve openai/gpt-oss-20b --max-model-len 8192 --gpu-memory-utilization 0.9 --max-num-seqs 256");
    CHECK(launch_refusal(oss, Runtime::llama_cpp) ==
          "llama.cpp runs GGUF files, not the checkpoint's own mxfp4 weights: choose a GGUF type");
}

TEST_CASE("SGLang: data-parallel attention is --dp-size with --enable-dp-attention", "[launch]") {
    Config c = serving("deepseek-v3.2-exp", "b200", Runtime::sglang);
    c.gpus = c.tp = 8;
    c.weights = "fp8";
    c.context = 8192;
    c.dp_attention = 8;
    const std::string cmd = launch_command(run(c), Runtime::sglang);
    CHECK(cmd.find("--tp-size 8 --dp-size 8 --enable-dp-attention") != std::string::npos);
    CHECK(cmd.find("--mem-fraction-static 0.751") != std::string::npos);
}

TEST_CASE("SGLang: its resolved mem_fraction_static", "[launch]") {
    Config c = serving("llama-3.1-8b", "rtx-4090", Runtime::sglang);
    c.context = 8192;
    // sglang 0.5.3 server_args.py (PR 10975) on a 24 GiB GPU at tp x pp 1: reserved 512 + 1.5 x
    // 2048 (chunked prefill) + 2 x 24 (CUDA graph batch) + 1024 / 8 = 3,760 MiB of the RTX 4090's
    // 24,564: (24,564 - 3,760) / 24,564 = 0.8469 -> 0.847. No --max-running-requests: SGLang sizes
    // it from its pool, as the estimate does.
    CHECK(launch_command(run(c), Runtime::sglang) ==
          "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B --dtype bfloat16 --context-length 8192 "
          "--mem-fraction-static 0.847");
    c.max_num_seqs = 48;
    CHECK(launch_command(run(c), Runtime::sglang).find("--max-running-requests 48") != std::string::npos);
}

TEST_CASE("TensorRT-LLM: trtllm-serve with its defaults as the estimate took them", "[launch]") {
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::trt_llm, 2);
    c.context = 8192;
    // tp 2; max_batch_size 2048 and free_gpu_memory_fraction 0.9 (TensorRT-LLM 1.0 defaults,
    // runtime_profiles.hpp); bf16 left to the checkpoint's dtype.
    CHECK(launch_command(run(c), Runtime::trt_llm) ==
          "trtllm-serve meta-llama/Llama-3.1-8B --backend pytorch --tp_size 2 --max_seq_len 8192 --max_batch_size 2048 "
          "--kv_cache_free_gpu_memory_fraction 0.9");
    // An FP8 cache goes in the LLM API options file, written first.
    c.kv_cache = "fp8";
    CHECK(launch_command(run(c), Runtime::trt_llm) ==
          "printf 'kv_cache_config:\\n  dtype: fp8\\n' > gpusizer-trtllm.yaml\n"
          "trtllm-serve meta-llama/Llama-3.1-8B --backend pytorch --tp_size 2 --max_seq_len 8192 --max_batch_size 2048 "
          "--kv_cache_free_gpu_memory_fraction 0.9 --extra_llm_api_options gpusizer-trtllm.yaml");
    // Attention DP is an LLM API option; max_batch_size is then each rank's: the default as it is,
    // a given max_num_seqs (the replica's) over the tp ranks.
    c.dp_attention = 2;
    CHECK(launch_command(run(c), Runtime::trt_llm) ==
          "printf 'enable_attention_dp: true\\nkv_cache_config:\\n  dtype: fp8\\n' > gpusizer-trtllm.yaml\n"
          "trtllm-serve meta-llama/Llama-3.1-8B --backend pytorch --tp_size 2 --max_seq_len 8192 --max_batch_size 2048 "
          "--kv_cache_free_gpu_memory_fraction 0.9 --extra_llm_api_options gpusizer-trtllm.yaml");
    c.max_num_seqs = 512;
    CHECK(launch_command(run(c), Runtime::trt_llm).find("--max_batch_size 256 ") != std::string::npos);
}

TEST_CASE("llama.cpp: -c is every slot's context, and -fa follows the build", "[launch]") {
    Config c = serving("llama-3.1-8b", "rtx-4090", Runtime::llama_cpp);
    c.weights = "q4_k_m";
    c.kv_cache = "q8_0";
    c.context = 8192;
    c.batch = 2;
    // 2 slots of 8,192 tokens: -c 16384 -np 2 (llama-server gives each slot c / np); the model fits,
    // so every layer: -ngl 999; the default profile is current (from b7847): -fa on.
    const std::string file_note =
        "# MODEL-Q4_K_M.gguf: a GGUF file of meta-llama/Llama-3.1-8B in Q4_K_M (the configuration names no GGUF file)\n";
    CHECK(launch_command(run(c), Runtime::llama_cpp) ==
          file_note + "llama-server -m MODEL-Q4_K_M.gguf -c 16384 -np 2 -ngl 999 -fa on --cache-type-k q8_0 --cache-type-v q8_0");
    // Build 4840 predates the on|off|auto value (b6327): a bare -fa.
    c.runtime_version = "b4840";
    CHECK(launch_command(run(c), Runtime::llama_cpp) ==
          file_note + "llama-server -m MODEL-Q4_K_M.gguf -c 16384 -np 2 -ngl 999 -fa --cache-type-k q8_0 --cache-type-v q8_0");
    // Flash attention off: nothing at b4840 (off was the default), -fa off once auto is.
    c.flash_attention = false;
    CHECK(launch_command(run(c), Runtime::llama_cpp).find("-fa") == std::string::npos);
    c.runtime_version = "";
    CHECK(launch_command(run(c), Runtime::llama_cpp).find(" -fa off ") != std::string::npos);
}

TEST_CASE("llama.cpp: several GPUs, partial offload, --n-cpu-moe by version", "[launch]") {
    Config two = serving("llama-3.1-8b", "rtx-4090", Runtime::llama_cpp, 2);
    two.weights = "q4_k_m";
    const Report split = run(two);
    REQUIRE(split.parallel.pp == 2);   // llama.cpp splits layers across GPUs
    CHECK(launch_command(split, Runtime::llama_cpp).find(" -ts 1,1 ") != std::string::npos);

    Config big = serving("llama-3-70b", "rtx-4090", Runtime::llama_cpp);
    big.weights = "q4_k_m";
    const Report off = run(big);
    REQUIRE(off.speed.offload.active);
    REQUIRE(off.speed.offload.gpu_layers < off.speed.offload.total_layers);
    CHECK(launch_command(off, Runtime::llama_cpp).find(" -ngl " + std::to_string(off.speed.offload.gpu_layers) + " ") != std::string::npos);

    Config moe = serving("qwen3-30b-a3b", "rtx-4090", Runtime::llama_cpp);
    moe.weights = "q4_k_m";
    moe.n_cpu_moe = 10;
    CHECK(launch_command(run(moe), Runtime::llama_cpp).find(" --n-cpu-moe 10 ") != std::string::npos);
    // --n-cpu-moe came in b6089; b4840 cannot keep the experts apart, and no other engine can.
    CHECK(launch_commands(run(moe)).size() == 1);
    moe.runtime_version = "b4840";
    CHECK(launch_command(run(moe), Runtime::llama_cpp).empty());
    CHECK(launch_refusal(run(moe), Runtime::llama_cpp).find("b6089") != std::string::npos);
    CHECK(launch_commands(run(moe)).empty());   // the estimate itself still runs
}

TEST_CASE("Ollama: the server's environment, OLLAMA_CONTEXT_LENGTH by version", "[launch]") {
    Config c = serving("llama-3.1-8b", "rtx-4090", Runtime::ollama);
    c.weights = "q4_k_m";
    c.context = 8192;
    const std::string tag_note =
        "# then: ollama run MODEL, MODEL being a build of meta-llama/Llama-3.1-8B in Q4_K_M (the catalog names no Ollama tag)\n";
    CHECK(launch_command(run(c), Runtime::ollama) ==
          tag_note + "OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_NUM_PARALLEL=1 OLLAMA_KV_CACHE_TYPE=f16 OLLAMA_FLASH_ATTENTION=1 ollama serve");
    // Ollama 0.5 had no OLLAMA_CONTEXT_LENGTH (it came in v0.5.13): num_ctx goes in the Modelfile.
    c.runtime_version = "0.5";
    const std::string old = launch_command(run(c), Runtime::ollama);
    CHECK(old.find("OLLAMA_CONTEXT_LENGTH=") == std::string::npos);
    CHECK(old.find("# num_ctx 8192: OLLAMA_CONTEXT_LENGTH came in 0.5.13; give PARAMETER num_ctx 8192") != std::string::npos);
}

TEST_CASE("paths are quoted: a space or a quote cannot break or extend the command", "[launch]") {
    CHECK(shell_quote("meta-llama/Llama-3.1-8B") == "meta-llama/Llama-3.1-8B");
    CHECK(shell_quote("/models/my model.gguf") == "'/models/my model.gguf'");
    CHECK(shell_quote("it's; rm -rf ~") == "'it'\\''s; rm -rf ~'");
    CHECK(shell_quote("") == "''");
    // A report whose GGUF path has a quote and a command in it (set on the report: launch_command is
    // a function of the report alone; the CLI reads the file before the estimate).
    Config c = serving("llama-3.1-8b", "rtx-4090", Runtime::llama_cpp);
    c.weights = "q4_k_m";
    Report r = run(c);
    r.config.gguf = "/m/it's $(reboot).gguf";
    CHECK(launch_command(r, Runtime::llama_cpp).rfind("llama-server -m '/m/it'\\''s $(reboot).gguf' -c ", 0) == 0);
    // A newline in a name shown in a comment stays inside the comment.
    r.config.gguf.clear();
    r.hf_repo = "org/x\nreboot";
    std::istringstream lines(launch_command(r, Runtime::llama_cpp));
    std::string line;
    int commands = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("# ", 0) == 0) continue;
        ++commands;
        CHECK(line.rfind("llama-server ", 0) == 0);
    }
    CHECK(commands == 1);
}

TEST_CASE("an engine that cannot run the configuration is absent", "[launch]") {
    // bf16 on an Apple GPU: llama.cpp and Ollama run it; vLLM, SGLang and TensorRT-LLM do not run on
    // Apple GPUs (resolve.cpp gpu_refusal).
    Config apple = serving("llama-3.1-8b", "m3-max-128gb", Runtime::llama_cpp);
    const auto all = launch_commands(run(apple));
    REQUIRE(all.size() == 2);
    CHECK(all[0].first == Runtime::llama_cpp);   // the configuration's own first
    CHECK(all[1].first == Runtime::ollama);
    CHECK(launch_refusal(run(apple), Runtime::vllm) == "vllm does not run on " + run(apple).gpu_name);
    // GGUF weights: llama.cpp and Ollama only.
    Config gguf = serving("llama-3.1-8b", "h100-sxm", Runtime::llama_cpp);
    gguf.weights = "q4_k_m";
    const auto two = launch_commands(run(gguf));
    CHECK(two.size() == 2);
    CHECK_FALSE(has_engine(two, Runtime::vllm));
    // bf16 on an H100 under PyTorch (no launch command of its own): every engine.
    CHECK(launch_commands(run(serving("llama-3.1-8b", "h100-sxm", Runtime::pytorch))).size() == 5);
    // Training: no serving engine, no commands.
    CHECK(launch_commands(run(gpusizer::test::training("llama-3.1-8b", "h100-sxm"))).empty());
}

TEST_CASE("the report's launch object", "[launch][json]") {
    Config c = serving("llama-3.1-8b", "h100-sxm", Runtime::vllm);
    const auto j = nlohmann::json::parse(report_to_json(run(c)));
    REQUIRE(j.contains("launch"));
    for (const char* k : {"vllm", "llama_cpp", "sglang", "ollama", "trt_llm"}) CHECK(j["launch"].contains(k));
    CHECK(j["launch"]["vllm"] == launch_command(run(c), Runtime::vllm));
    const auto t = nlohmann::json::parse(report_to_json(run(gpusizer::test::training("llama-3.1-8b", "h100-sxm"))));
    CHECK(t["launch"] == nlohmann::json::object());
}

TEST_CASE("estimate --emit ENGINE prints the command alone", "[launch][cli]") {
    using gpusizer::test::run_cli;
    const auto r = run_cli({"estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090", "--gpus", "2", "--runtime", "vllm", "--context",
                            "8192", "--emit", "vllm"});
    REQUIRE(r.code == 0);
    CHECK(r.out ==
          "vllm serve meta-llama/Llama-3.1-8B --dtype bfloat16 --tensor-parallel-size 2 --max-model-len 8192 "
          "--gpu-memory-utilization 0.9 --max-num-seqs 256\n");
    // llama-cpp as the flag spells it, llama_cpp as the runtime key does.
    for (const char* name : {"llama-cpp", "llama_cpp"}) {
        const auto l = run_cli({"estimate", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--gpu", "rtx-4090", "--emit", name});
        CHECK(l.code == 0);
        CHECK(l.out.find("llama-server -m MODEL-Q4_K_M.gguf") != std::string::npos);
    }
    // An engine that cannot run it: exit 2 and one line that says why.
    const auto apple =
        run_cli({"estimate", "--model", "llama-3.1-8b", "--gpu", "m3-max-128gb", "--runtime", "llama.cpp", "--emit", "vllm"});
    CHECK(apple.code == 2);
    CHECK(apple.out.empty());
    CHECK(apple.err.find("emit") != std::string::npos);
    CHECK(apple.err.find("does not run on") != std::string::npos);
    // Not an engine: exit 2 naming the values.
    const auto bad = run_cli({"estimate", "--model", "llama-3.1-8b", "--emit", "tgi"});
    CHECK(bad.code == 2);
    CHECK(bad.err.find("vllm, llama-cpp, sglang, ollama, trt-llm") != std::string::npos);
}
