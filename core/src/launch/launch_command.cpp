// launch_command.cpp: the engine's own launch command for an estimated configuration
// (gpusizer/launch.hpp).
//
// [SECTION] The flags, by engine and version (with their sources)
// [SECTION] What an engine can run
// [SECTION] Building the command
#include "gpusizer/launch.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"

namespace gpusizer {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] The flags, by engine and version
// ---------------------------------------------------------------------------------------------

// What a flag sets.
// clang-format off
enum class Setting {
    program,          // the command itself
    model,            // a model repository or local folder (positional where `spelling` is "")
    model_file,       // a GGUF file
    model_hub,        // a GGUF repository on the Hub, REPO:QUANT
    mmproj,           // a multimodal projector file
    dtype,            // the weights' float type
    quantization,     // a format the engine quantizes to at load
    tp, pp, dp,       // parallel degrees
    context,          // tokens per sequence (llama.cpp: all slots together, context x slots)
    slots,            // sequences in flight (llama.cpp -np, Ollama OLLAMA_NUM_PARALLEL)
    max_sequences,    // the engine's cap on sequences in flight
    memory_fraction,  // the engine's memory share (vLLM, SGLang, TensorRT-LLM)
    kv_type,          // the KV cache type
    kv_type_v,        // llama.cpp: the V cache's type
    flash_on,         // flash attention on
    flash_off,        // flash attention off
    gpu_layers,       // llama.cpp -ngl
    cpu_moe,          // llama.cpp --n-cpu-moe
    tensor_split,     // llama.cpp -ts, a share per GPU
    split_rows,       // llama.cpp tensor parallel: rows split across GPUs
    backend,          // TensorRT-LLM's PyTorch backend
    extra_options,    // TensorRT-LLM: a YAML file of LLM API options (KV dtype, weights dtype)
    dp_attention,     // SGLang: --dp-size counts attention groups inside the tp GPUs
};
// clang-format on

// One flag of one engine from a version on. The row used is the newest of its engine and
// setting whose `since` is at or before the engine version the estimate used (the profile's
// `since`, core/src/runtime_profiles.cpp); a setting without a row at that version has no flag.
// `value` nullptr: the setting's own value follows; "" : a bare flag; else that fixed value.
// `spelling` "": the value alone, a positional argument (`value` nullptr), or nothing at all, the
// setting being the engine's default there (`value` "").
// Ollama's rows are environment variables (NAME=value before `ollama serve`).
struct LaunchFlag {
    Runtime engine;
    const char* since;
    Setting setting;
    const char* spelling;
    const char* value;
};

// Sources, checked for each row at the version named:
// - llama.cpp llama-server: tools/server/README.md and common/arg.cpp (ggml-org/llama.cpp@145b628).
//   -c is the context of all slots together, each of -np slots getting c / np (llama-context.cpp
//   n_ctx_seq = n_ctx / n_seq_max unless --kv-unified, which llama-server turns on only when -np is
//   not given: ggml-org/llama.cpp#11681 at build 4621, PR #17767, janhq/jan#8534); Ollama 0.30
//   itself passes -c num_ctx x parallel with -np parallel (ollama/ollama llm/llama_server.go @ v0.30.0).
//   -ngl N is a maximum: min(N, layers + 1) are offloaded, the output layer the +1, so 999 is all.
//   -fa took a value (on|off|auto, default auto) from b6327 (PR "flash_attn_type", 2025-08-30:
//   mybigday/llama.node#102 syncing b6327, WasmEdge#4343 at b6343; containers/ramalama#1928
//   "--flash-attn requires an option in llama-server now"); before it a bare -fa turned it on and
//   off was the default. --n-cpu-moe N came with PR #15077 in b6089 (2025-08-04; oobabooga/textgen#7178).
// - vLLM `vllm serve`: docs.vllm.ai "Engine Arguments" and vllm/engine/arg_utils.py (0.10 and
//   vllm-project/vllm@99d7eb5): --tensor-parallel-size, --pipeline-parallel-size,
//   --data-parallel-size, --max-model-len, --gpu-memory-utilization, --max-num-seqs,
//   --kv-cache-dtype fp8, --quantization fp8 (weights quantized at load) or bitsandbytes, --dtype.
// - SGLang `python -m sglang.launch_server`: python/sglang/srt/server_args.py (v0.4.8 and
//   sgl-project/sglang@469c63e): --model-path, --tp-size, --pp-size, --dp-size (with
//   --enable-dp-attention: the attention groups), --context-length,
//   --mem-fraction-static, --max-running-requests, --kv-cache-dtype fp8_e4m3 (choices auto,
//   fp8_e5m2, fp8_e4m3), --quantization fp8, --dtype.
// - Ollama `ollama serve`: envconfig/config.go and docs/faq.mdx at v0.5.0, v0.5.13, v0.12.4,
//   v0.15.5 and v0.30.0 (ollama/ollama): OLLAMA_NUM_PARALLEL, OLLAMA_KV_CACHE_TYPE and
//   OLLAMA_FLASH_ATTENTION from 0.5 (and before); OLLAMA_CONTEXT_LENGTH from v0.5.13 (absent in
//   v0.5.12); OLLAMA_FLASH_ATTENTION=0 turns it off from v0.12.4 (BoolWithDefault: on by default
//   for the models that support it, ollama/ollama#12473), off being the default before.
// - TensorRT-LLM `trtllm-serve`: nvidia.github.io/TensorRT-LLM commands/trtllm-serve (0.18.2 and
//   1.0): --backend pytorch, --tp_size, --pp_size, --max_batch_size, --max_seq_len,
//   --kv_cache_free_gpu_memory_fraction, --extra_llm_api_options (a YAML of LLM API options:
//   kv_cache_config.dtype, dtype).
const LaunchFlag kLaunchFlags[] = {
    // llama.cpp
    {Runtime::llama_cpp, "b0", Setting::program, "llama-server", ""},
    {Runtime::llama_cpp, "b0", Setting::model_file, "-m", nullptr},
    {Runtime::llama_cpp, "b0", Setting::model_hub, "-hf", nullptr},
    {Runtime::llama_cpp, "b0", Setting::mmproj, "--mmproj", nullptr},
    {Runtime::llama_cpp, "b0", Setting::context, "-c", nullptr},
    {Runtime::llama_cpp, "b0", Setting::slots, "-np", nullptr},
    {Runtime::llama_cpp, "b0", Setting::gpu_layers, "-ngl", nullptr},
    {Runtime::llama_cpp, "b0", Setting::split_rows, "-sm", "row"},
    {Runtime::llama_cpp, "b0", Setting::tensor_split, "-ts", nullptr},
    {Runtime::llama_cpp, "b0", Setting::flash_on, "-fa", ""},
    {Runtime::llama_cpp, "b0", Setting::flash_off, "", ""},
    {Runtime::llama_cpp, "b6327", Setting::flash_on, "-fa", "on"},
    {Runtime::llama_cpp, "b6327", Setting::flash_off, "-fa", "off"},
    {Runtime::llama_cpp, "b0", Setting::kv_type, "--cache-type-k", nullptr},
    {Runtime::llama_cpp, "b0", Setting::kv_type_v, "--cache-type-v", nullptr},
    {Runtime::llama_cpp, "b6089", Setting::cpu_moe, "--n-cpu-moe", nullptr},
    // vLLM
    {Runtime::vllm, "0", Setting::program, "vllm serve", ""},
    {Runtime::vllm, "0", Setting::model, "", nullptr},
    {Runtime::vllm, "0", Setting::dtype, "--dtype", nullptr},
    {Runtime::vllm, "0", Setting::quantization, "--quantization", nullptr},
    {Runtime::vllm, "0", Setting::tp, "--tensor-parallel-size", nullptr},
    {Runtime::vllm, "0", Setting::pp, "--pipeline-parallel-size", nullptr},
    {Runtime::vllm, "0", Setting::dp, "--data-parallel-size", nullptr},
    {Runtime::vllm, "0", Setting::context, "--max-model-len", nullptr},
    {Runtime::vllm, "0", Setting::memory_fraction, "--gpu-memory-utilization", nullptr},
    {Runtime::vllm, "0", Setting::max_sequences, "--max-num-seqs", nullptr},
    {Runtime::vllm, "0", Setting::kv_type, "--kv-cache-dtype", nullptr},
    // SGLang
    {Runtime::sglang, "0", Setting::program, "python -m sglang.launch_server", ""},
    {Runtime::sglang, "0", Setting::model, "--model-path", nullptr},
    {Runtime::sglang, "0", Setting::dtype, "--dtype", nullptr},
    {Runtime::sglang, "0", Setting::quantization, "--quantization", nullptr},
    {Runtime::sglang, "0", Setting::tp, "--tp-size", nullptr},
    {Runtime::sglang, "0", Setting::pp, "--pp-size", nullptr},
    {Runtime::sglang, "0", Setting::dp, "--dp-size", nullptr},
    {Runtime::sglang, "0", Setting::dp_attention, "--enable-dp-attention", ""},
    {Runtime::sglang, "0", Setting::context, "--context-length", nullptr},
    {Runtime::sglang, "0", Setting::memory_fraction, "--mem-fraction-static", nullptr},
    {Runtime::sglang, "0", Setting::max_sequences, "--max-running-requests", nullptr},
    {Runtime::sglang, "0", Setting::kv_type, "--kv-cache-dtype", nullptr},
    // Ollama (environment of `ollama serve`)
    {Runtime::ollama, "0", Setting::program, "ollama serve", ""},
    {Runtime::ollama, "0.5.13", Setting::context, "OLLAMA_CONTEXT_LENGTH", nullptr},
    {Runtime::ollama, "0", Setting::slots, "OLLAMA_NUM_PARALLEL", nullptr},
    {Runtime::ollama, "0", Setting::kv_type, "OLLAMA_KV_CACHE_TYPE", nullptr},
    {Runtime::ollama, "0", Setting::flash_on, "OLLAMA_FLASH_ATTENTION", "1"},
    {Runtime::ollama, "0", Setting::flash_off, "", ""},
    {Runtime::ollama, "0.12.4", Setting::flash_off, "OLLAMA_FLASH_ATTENTION", "0"},
    // TensorRT-LLM
    {Runtime::trt_llm, "0", Setting::program, "trtllm-serve", ""},
    {Runtime::trt_llm, "0", Setting::model, "", nullptr},
    {Runtime::trt_llm, "0", Setting::backend, "--backend", "pytorch"},
    {Runtime::trt_llm, "0", Setting::tp, "--tp_size", nullptr},
    {Runtime::trt_llm, "0", Setting::pp, "--pp_size", nullptr},
    {Runtime::trt_llm, "0", Setting::context, "--max_seq_len", nullptr},
    {Runtime::trt_llm, "0", Setting::max_sequences, "--max_batch_size", nullptr},
    {Runtime::trt_llm, "0", Setting::memory_fraction, "--kv_cache_free_gpu_memory_fraction", nullptr},
    {Runtime::trt_llm, "0", Setting::extra_options, "--extra_llm_api_options", nullptr},
};

// The engine version a command is for: the profile the estimate used for its own engine, else
// the engine's default profile; its `since` places it among the flags' versions.
detail::VersionNumber version_of(const Report& r, Runtime engine) {
    const std::string_view label = engine == r.config.runtime ? std::string_view(r.config.runtime_version) : std::string_view();
    const detail::EngineVersion& row = detail::engine_version(engine, label);
    return detail::parse_version(row.since).value_or(detail::VersionNumber{});
}

const LaunchFlag* flag_of(Runtime engine, const detail::VersionNumber& at, Setting s) {
    const LaunchFlag* best = nullptr;
    detail::VersionNumber best_since;
    for (const LaunchFlag& f : kLaunchFlags) {
        if (f.engine != engine || f.setting != s) continue;
        const detail::VersionNumber since = detail::parse_version(f.since).value_or(detail::VersionNumber{});
        if (detail::compare_versions(since, at) > 0) continue;
        if (!best || detail::compare_versions(since, best_since) > 0) {
            best = &f;
            best_since = since;
        }
    }
    return best;
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// A comment's text on one line: a control character (a newline in a path or a model's name)
// would end the comment and run what follows it.
std::string one_line(std::string text) {
    for (char& ch : text)
        if ((unsigned char)ch < 0x20 || ch == 0x7f) ch = '?';
    return text;
}

bool is_safe_shell_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '/' ||
           c == ':' || c == ',' || c == '@' || c == '%' || c == '+' || c == '=';
}

// ---------------------------------------------------------------------------------------------
// [SECTION] What an engine can run
// ---------------------------------------------------------------------------------------------

bool is_llama_family(Runtime e) { return e == Runtime::llama_cpp || e == Runtime::ollama; }

// The weights are the checkpoint's as published: `weights` native, or the very format its
// quantization_config names (fp8 on DeepSeek-R1's FP8 checkpoint).
bool as_published(const Report& r) {
    return r.weights_scheme.source == "checkpoint" || (!r.checkpoint_format.empty() && r.checkpoint_format == r.weights_scheme.format);
}

const WeightFormat* weights_of(const Report& r) {
    for (const WeightFormat& f : weight_formats())
        if (f.id == r.weights_scheme.format) return &f;
    return nullptr;
}

// The engine's KV cache type for the configuration's ("" = the engine's automatic one, the
// model's dtype; nullopt-like "!" = it has none).
std::string kv_type_for(Runtime engine, const std::string& kv, bool fp32_weights) {
    if (is_llama_family(engine)) {
        if (kv == "fp16") return "f16";
        if (kv == "fp32") return engine == Runtime::llama_cpp ? "f32" : "!";
        if (kv == "bf16") return engine == Runtime::llama_cpp ? "bf16" : "f16";   // Ollama caches f16: the same 2 bytes
        if (kv == "fp8") return "!";   // ggml has no FP8 cache type
        if (engine == Runtime::ollama && kv != "q8_0" && kv != "q4_0") return "!";   // fs/ggml/ggml.go SupportsKVCacheType
        return kv;   // q8_0, q4_0, q5_1, ... as llama.cpp spells them
    }
    if (kv == "fp16" || kv == "bf16") return "";   // auto: the model's 16-bit dtype
    if (kv == "fp32") return fp32_weights ? "" : "!";
    if (kv == "fp8") return engine == Runtime::sglang ? "fp8_e4m3" : "fp8";
    return "!";   // the ggml block types are llama.cpp's
}

}   // namespace

std::string launch_refusal(const Report& r, Runtime engine) {
    const Config& c = r.config;
    const std::string name(to_string(engine));
    if (launch_key(engine).empty())
        return name + " has no launch command: the engines that do are vllm, llama-cpp, sglang, ollama, trt-llm";
    if (c.mode != Mode::inference) return "training modes have no serving engine's launch command";
    if (!(r.gpu_engines & engine_bit(engine))) return name + " does not run on " + r.gpu_name;
    const WeightFormat* wf = weights_of(r);
    const bool checkpoint = as_published(r);
    const bool gguf = wf && wf->family == WeightFamily::gguf;
    if (is_llama_family(engine)) {
        if (checkpoint && !r.checkpoint_format.empty())
            return name + " runs GGUF files, not the checkpoint's own " + std::string(r.checkpoint_format) + " weights: choose a GGUF type";
        if (!checkpoint && !(gguf || (wf && wf->family == WeightFamily::floating && wf->bits >= 16)))
            return name + " runs GGUF files: weights '" + c.weights + "' is not a GGUF type or a 16/32-bit float";
    } else if (gguf) {
        return name + " does not run the GGUF type '" + c.weights + "' (llama.cpp and Ollama do)";
    }
    if (!checkpoint && r.checkpoint_format.empty() && wf && wf->family == WeightFamily::nf4 && engine != Runtime::vllm)
        return name + ": bitsandbytes NF4 weights run on vLLM (--quantization bitsandbytes) and PyTorch";
    const bool fp32 = checkpoint ? false : wf && wf->wid == WeightId::fp32;
    if (kv_type_for(engine, c.kv_cache, fp32) == "!") return name + " has no KV cache type '" + c.kv_cache + "'";
    if (c.n_cpu_moe > 0 && engine != Runtime::llama_cpp) return name + " has no setting for n_cpu_moe (llama.cpp's --n-cpu-moe)";
    const detail::VersionNumber at = version_of(r, engine);
    if (c.n_cpu_moe > 0 && !flag_of(engine, at, Setting::cpu_moe))
        return "llama.cpp " + std::string(detail::engine_version(engine, engine == c.runtime ? c.runtime_version : "").version) +
               " has no --n-cpu-moe (from b6089)";
    if (is_llama_family(engine) && r.parallel.tp > 1 && r.parallel.pp > 1)
        return name + " splits a model by layers or by rows, not both (tp " + std::to_string(r.parallel.tp) + " x pp " +
               std::to_string(r.parallel.pp) + ")";
    if (engine == Runtime::ollama && r.parallel.tp > 1)
        return "ollama splits a model by layers only (tp " + std::to_string(r.parallel.tp) + ")";
    return "";
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Building the command
// ---------------------------------------------------------------------------------------------

struct Command {
    Runtime engine;
    detail::VersionNumber at;
    std::vector<std::string> comments;   // lines before the command, without "# "
    std::vector<std::string> env;   // NAME=value words before the program
    std::vector<std::string> words;   // the program and its arguments, quoted
    std::vector<std::string> before;   // whole lines to run first (a YAML file written)

    // The setting's flag at this version with `value` (ignored for fixed and bare flags); false
    // when the version has no flag for it.
    bool add(Setting s, const std::string& value = std::string()) {
        const LaunchFlag* f = flag_of(engine, at, s);
        if (!f) return false;
        if (s == Setting::program) {
            words.emplace_back(f->spelling);
            return true;
        }
        if (!*f->spelling) {
            if (!f->value) words.push_back(shell_quote(value));   // a positional argument
            return true;   // else the engine's default there: nothing to write
        }
        const std::string v = f->value ? std::string(f->value) : value;
        if (engine == Runtime::ollama) {
            env.push_back(std::string(f->spelling) + "=" + shell_quote(v));
            return true;
        }
        words.emplace_back(f->spelling);
        if (!f->value || *f->value) words.push_back(shell_quote(v));
        return true;
    }
    std::string text() const {
        std::string out;
        for (const std::string& line : comments) out += "# " + one_line(line) + "\n";
        for (const std::string& line : before) out += line + "\n";
        std::string cmd;
        for (const std::string& w : env) cmd += (cmd.empty() ? "" : " ") + w;
        for (const std::string& w : words) cmd += (cmd.empty() ? "" : " ") + w;
        return out + cmd;
    }
};

// The model as the engine names it; placeholders explained in a comment.
void add_model(Command& cmd, const Report& r) {
    const Config& c = r.config;
    const ModelSpec& m = c.model;
    const std::string quant = r.weights_scheme.format;
    std::string upper = quant;
    for (char& ch : upper)
        if (ch >= 'a' && ch <= 'z') ch = char(ch - 'a' + 'A');
    const std::string origin = !r.hf_repo.empty() ? r.hf_repo : !m.hub.empty() ? m.hub : r.model_name;
    const bool checkpoint = as_published(r);
    const bool quantized_checkpoint = !r.checkpoint_format.empty();
    const WeightFormat* wf = weights_of(r);
    if (cmd.engine == Runtime::llama_cpp || cmd.engine == Runtime::ollama) {
        const bool gguf_hub = !m.hub.empty() && !m.hub_weights.empty();
        if (cmd.engine == Runtime::ollama) {
            std::string tag = !c.gguf.empty() ? "a Modelfile with FROM " + shell_quote(c.gguf) + " (ollama create NAME -f Modelfile)"
                              : gguf_hub      ? "hf.co/" + m.hub + ":" + upper
                                              : "a build of " + origin + " in " + upper + " (the catalog names no Ollama tag)";
            cmd.comments.push_back("then: ollama run MODEL, MODEL being " + tag);
            cmd.add(Setting::program);
            return;
        }
        cmd.add(Setting::program);
        if (!c.gguf.empty()) {
            cmd.add(Setting::model_file, c.gguf);
        } else if (gguf_hub) {
            cmd.add(Setting::model_hub, m.hub + ":" + upper);
        } else {
            const std::string file = "MODEL-" + upper + ".gguf";
            cmd.comments.push_back(file + ": a GGUF file of " + origin + " in " + upper + " (the configuration names no GGUF file)");
            cmd.add(Setting::model_file, file);
        }
        if (!c.mmproj.empty()) cmd.add(Setting::mmproj, c.mmproj);
        return;
    }
    cmd.add(Setting::program);
    // Repositories and folders: the checkpoint itself when the estimate sized it as published or
    // the engine converts an unquantized one at load (a float dtype, FP8, bitsandbytes); else a
    // copy in the format (a quantized checkpoint is not converted to another format at load).
    const std::string source = !c.hf_dir.empty() ? c.hf_dir : origin;
    const bool converts = !quantized_checkpoint && (!wf || wf->family == WeightFamily::floating || wf->family == WeightFamily::nf4);
    const bool at_load = checkpoint || converts;
    const bool fp8_at_load = !checkpoint && converts && wf && wf->wid == WeightId::fp8;
    if (at_load && !(fp8_at_load && cmd.engine == Runtime::trt_llm)) {
        cmd.add(Setting::model, source);
    } else {
        const std::string placeholder = "MODEL-" + upper;
        if (wf && wf->family == WeightFamily::floating && wf->bits >= 16)
            cmd.comments.push_back(placeholder + ": a copy of " + source + " in " + upper + " (the checkpoint is " +
                                   std::string(r.checkpoint_format) + "; engines do not dequantize it at load)");
        else
            cmd.comments.push_back(placeholder + ": a checkpoint of " + source + " in " + upper +
                                   " (its quantization_config names the format; the engine reads it from there)");
        cmd.add(Setting::model, placeholder);
    }
    if (cmd.engine == Runtime::trt_llm) return;   // dtype and KV type go in its options file
    if (!checkpoint && wf && wf->family == WeightFamily::floating && wf->bits >= 16)
        cmd.add(Setting::dtype, wf->wid == WeightId::fp32 ? "float32" : wf->wid == WeightId::fp16 ? "float16" : "bfloat16");
    if (fp8_at_load) cmd.add(Setting::quantization, "fp8");
    if (!checkpoint && converts && wf && wf->family == WeightFamily::nf4) cmd.add(Setting::quantization, "bitsandbytes");
}

std::string build(const Report& r, Runtime engine) {
    const Config& c = r.config;
    const bool own = engine == c.runtime;   // the engine the estimate sized
    Command cmd{engine, version_of(r, engine), {}, {}, {}, {}};
    add_model(cmd, r);
    const Parallelism& p = r.parallel;
    const WeightFormat* wf = weights_of(r);
    const bool fp32 = r.weights_scheme.source != "checkpoint" && wf && wf->wid == WeightId::fp32;
    const std::string kv = kv_type_for(engine, c.kv_cache, fp32);
    const int stage_gpus = p.tp * p.pp;   // one replica's GPUs
    switch (engine) {
        case Runtime::llama_cpp: {
            // -c holds every slot's context: llama-server gives each of -np slots c / np.
            cmd.add(Setting::context, std::to_string(c.context * (long long)c.batch));
            cmd.add(Setting::slots, std::to_string(c.batch));
            // The layers the estimate placed on the GPUs (-ngl); all of them: 999 (a maximum).
            cmd.add(Setting::gpu_layers, r.speed.offload.active ? std::to_string(r.speed.offload.gpu_layers) : std::string("999"));
            if (c.n_cpu_moe > 0) cmd.add(Setting::cpu_moe, std::to_string(c.n_cpu_moe));
            if (stage_gpus > 1) {
                if (p.tp > 1) cmd.add(Setting::split_rows);
                std::string shares;   // an even split, as the estimate splits layers (or rows)
                for (int g = 0; g < stage_gpus; ++g) shares += g ? ",1" : "1";
                cmd.add(Setting::tensor_split, shares);
            }
            cmd.add(c.flash_attention ? Setting::flash_on : Setting::flash_off);
            cmd.add(Setting::kv_type, kv);
            cmd.add(Setting::kv_type_v, kv);
            break;
        }
        case Runtime::ollama: {
            if (!cmd.add(Setting::context, std::to_string(c.context)))
                cmd.comments.push_back("num_ctx " + std::to_string(c.context) +
                                       ": OLLAMA_CONTEXT_LENGTH came in 0.5.13; give PARAMETER num_ctx " + std::to_string(c.context) +
                                       " in the Modelfile (or options.num_ctx in each request)");
            cmd.add(Setting::slots, std::to_string(c.batch));
            cmd.add(Setting::kv_type, kv);
            cmd.add(c.flash_attention ? Setting::flash_on : Setting::flash_off);
            break;
        }
        case Runtime::vllm:
        case Runtime::sglang: {
            if (p.tp > 1) cmd.add(Setting::tp, std::to_string(p.tp));
            if (p.pp > 1) cmd.add(Setting::pp, std::to_string(p.pp));
            if (engine == Runtime::sglang && c.dp_attention > 1) {
                // SGLang's --dp-size then counts the attention groups inside the tp GPUs (one server);
                // replicas beyond it are more servers behind a router.
                cmd.add(Setting::dp, std::to_string(c.dp_attention));
                cmd.add(Setting::dp_attention);
                if (p.dp > 1)
                    cmd.comments.push_back("dp " + std::to_string(p.dp) + ": this command on each of " + std::to_string(p.dp) +
                                           " groups of " + std::to_string(p.tp * p.pp) + " GPUs, behind a router (sglang_router)");
            } else if (p.dp > 1) {
                cmd.add(Setting::dp, std::to_string(p.dp));
            }
            cmd.add(Setting::context, std::to_string(c.context));
            double fraction = 0;
            if (engine == Runtime::vllm)
                fraction = own || c.gpu_memory_utilization != 0.9 ? c.gpu_memory_utilization : 0;
            else
                fraction = c.mem_fraction_static.value_or(0.0);   // resolved when SGLang is the engine
            if (fraction > 0) cmd.add(Setting::memory_fraction, number(fraction));
            const long long seqs = own ? r.engine_max_sequences : c.max_num_seqs.value_or(0);
            if (seqs > 0) cmd.add(Setting::max_sequences, std::to_string(seqs));
            if (!kv.empty()) cmd.add(Setting::kv_type, kv);
            break;
        }
        case Runtime::trt_llm: {
            cmd.add(Setting::backend);
            if (p.tp > 1) cmd.add(Setting::tp, std::to_string(p.tp));
            if (p.pp > 1) cmd.add(Setting::pp, std::to_string(p.pp));
            cmd.add(Setting::context, std::to_string(c.context));
            // Under attention DP max_batch_size is each rank's: the replica's requests over its tp ranks.
            const bool attention_dp = own && c.dp_attention > 1;
            long long seqs = own ? r.engine_max_sequences : c.max_num_seqs.value_or(0);
            if (attention_dp && c.max_num_seqs.value_or(0) > 0) seqs /= c.dp_attention;   // (the default is each rank's already)
            if (seqs > 0) cmd.add(Setting::max_sequences, std::to_string(seqs));
            const double fraction = c.free_gpu_memory_fraction.value_or(0.0);   // resolved when TensorRT-LLM is the engine
            if (fraction > 0) cmd.add(Setting::memory_fraction, number(fraction));
            // The LLM API options trtllm-serve has no flag for: the KV dtype, a 16/32-bit weights
            // dtype other than the checkpoint's, and attention DP.
            std::string yaml;
            if (attention_dp) yaml += "enable_attention_dp: true\\n";
            if (!kv.empty()) yaml += "kv_cache_config:\\n  dtype: " + kv + "\\n";
            // (bf16 is left to "auto", the checkpoint's dtype: bf16 for nearly every checkpoint.)
            if (r.weights_scheme.source != "checkpoint" && wf && (wf->wid == WeightId::fp16 || wf->wid == WeightId::fp32))
                yaml += std::string("dtype: ") + (wf->wid == WeightId::fp32 ? "float32" : "float16") + "\\n";
            if (!yaml.empty()) {
                cmd.before.push_back("printf '" + yaml + "' > gpusizer-trtllm.yaml");
                cmd.add(Setting::extra_options, "gpusizer-trtllm.yaml");
            }
            break;
        }
        default:
            break;
    }
    // Replicas the engine does not start itself: one server per group of tp x pp GPUs.
    if (p.dp > 1 && engine != Runtime::vllm && engine != Runtime::sglang)
        cmd.comments.push_back("dp " + std::to_string(p.dp) + ": run " + std::to_string(p.dp) + " of these, each on its own " +
                               std::to_string(stage_gpus) + " GPU" + (stage_gpus > 1 ? "s" : ""));
    return cmd.text();
}

}   // namespace

const std::vector<Runtime>& launch_engines() {
    static const std::vector<Runtime> kEngines{Runtime::vllm, Runtime::llama_cpp, Runtime::sglang, Runtime::ollama, Runtime::trt_llm};
    return kEngines;
}

std::string_view launch_key(Runtime engine) {
    switch (engine) {
        case Runtime::vllm:
            return "vllm";
        case Runtime::llama_cpp:
            return "llama_cpp";
        case Runtime::sglang:
            return "sglang";
        case Runtime::ollama:
            return "ollama";
        case Runtime::trt_llm:
            return "trt_llm";
        default:
            return "";
    }
}

Runtime parse_launch_engine(std::string_view name, const char* key) {
    if (name == "vllm") return Runtime::vllm;
    if (name == "llama-cpp" || name == "llama_cpp" || name == "llama.cpp" || name == "llamacpp") return Runtime::llama_cpp;
    if (name == "sglang") return Runtime::sglang;
    if (name == "ollama") return Runtime::ollama;
    if (name == "trt-llm" || name == "trt_llm" || name == "trtllm" || name == "tensorrt-llm") return Runtime::trt_llm;
    throw_error(
        key, "'" + std::string(name.substr(0, 40)) + "' is not an engine with a launch command: vllm, llama-cpp, sglang, ollama, trt-llm");
}

std::string launch_command(const Report& report, Runtime engine) {
    if (launch_key(engine).empty() || !launch_refusal(report, engine).empty()) return "";
    return build(report, engine);
}

std::vector<std::pair<Runtime, std::string>> launch_commands(const Report& report) {
    std::vector<std::pair<Runtime, std::string>> out;
    if (report.config.mode != Mode::inference) return out;
    const Runtime own = report.config.runtime;
    if (!launch_key(own).empty()) {
        std::string cmd = launch_command(report, own);
        if (!cmd.empty()) out.emplace_back(own, std::move(cmd));
    }
    for (Runtime e : launch_engines()) {
        if (e == own) continue;
        std::string cmd = launch_command(report, e);
        if (!cmd.empty()) out.emplace_back(e, std::move(cmd));
    }
    return out;
}

std::string shell_quote(std::string_view text) {
    bool safe = !text.empty();
    for (char ch : text) safe = safe && is_safe_shell_char(ch);
    if (safe) return std::string(text);
    std::string out = "'";
    for (char ch : text) {
        if (ch == '\'')
            out += "'\\''";
        else
            out += ch;
    }
    return out + "'";
}

}   // namespace gpusizer
