// runtime_profiles.cpp: the constants of each runtime profile, with their sources.
#include "runtime_profiles.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "gpusizer/error.hpp"

namespace gpusizer::detail {

const RuntimeProfile& runtime_profile(Runtime r) {
    // none: the model's own tensors only: no context, no allocator slack, no extra buffers.
    static const RuntimeProfile kNone{Runtime::none, "none (model tensors only)", 0, 0, 0, 0};

    // PyTorch: Hugging Face transformers, PEFT, DeepSpeed.
    static const RuntimeProfile kPytorch{
        Runtime::pytorch, "PyTorch (transformers / PEFT / DeepSpeed)",
        // CUDA context with lazy module loading: 287,047,680 B measured (pytorch PR #86509);
        // "around 400MB ... with lazy module loading" (ptrblck, pytorch issue #109888), which
        // covers the cuBLAS workspace (32 MiB on Hopper, 8 MiB otherwise). We take 400 MiB.
        400 * kMiB,
        // Caching-allocator slack (freed blocks kept reserved, 2 MiB rounding of large blocks):
        // no published typical figure exists; an allowance of 5% of the dynamic tensors
        // (activations, KV cache, gradients), listed among the assumptions.
        0.05,
        0,   // activations in the compute dtype
        // NCCL per communicator: ring with 32 channels x 2 peers x 9.19 MiB per connection
        // (LL 512 KiB + LL128 4.69 MiB + Simple 4 MiB, NCCL src/init.cc defaults) = 588 MiB.
        32 * 2 * 9.19 * kMiB};

    // llama.cpp, CUDA backend.
    static const RuntimeProfile kLlamaCpp{
        Runtime::llama_cpp, "llama.cpp",
        // CUDA context + cuBLAS: 107 MiB on an RTX 4060 Ti, 555 MiB on an RTX PRO 6000 Blackwell
        // (docs/research/cuda-bench-method.md). We take 300 MiB.
        300 * kMiB,
        0,   // ggml-alloc plans static buffers: no allocator slack
        4,   // ggml keeps intermediate activations in F32
        0};  // layer split copies activations between devices; no NCCL

    // vLLM (V1 engine). Its own budget: see estimate.cpp, "vLLM budget".
    static const RuntimeProfile kVllm{
        Runtime::vllm, "vLLM",
        // CUDA context, created before vLLM's memory snapshot, so outside its budget: as PyTorch.
        400 * kMiB,
        0,   // fragmentation is inside vLLM's profiled budget
        0,
        0};  // see kVllmNonTorchParallel

    // SGLang: a PyTorch process like vLLM's; its pool is sized in estimate.cpp, "SGLang budget".
    static const RuntimeProfile kSglang{
        Runtime::sglang, "SGLang",
        400 * kMiB,   // CUDA context and cuBLAS, as PyTorch (above)
        0,            // fragmentation lives in the (1 - mem_fraction_static) reserve
        0,
        0};           // NCCL: kVllmNonTorch* figures (the same NCCL and custom all-reduce buffers)

    // TensorRT-LLM (PyTorch backend of the LLM API, v1.0).
    static const RuntimeProfile kTrtLlm{
        Runtime::trt_llm, "TensorRT-LLM",
        400 * kMiB,   // CUDA context and cuBLAS/cuBLASLt, as PyTorch (above)
        0,            // the KV pool takes a fraction of what is free; the rest absorbs fragmentation
        0,
        0};

    // Ollama runs llama-server (its "ollama runner" is llama.cpp's server loop): llama.cpp's profile.
    static const RuntimeProfile kOllama{Runtime::ollama, "Ollama (llama-server)", kLlamaCpp.cuda_context, 0, 4, 0};

    switch (r) {
        case Runtime::none: return kNone;
        case Runtime::pytorch: return kPytorch;
        case Runtime::llama_cpp: return kLlamaCpp;
        case Runtime::vllm: return kVllm;
        case Runtime::sglang: return kSglang;
        case Runtime::trt_llm: return kTrtLlm;
        case Runtime::ollama: return kOllama;
        case Runtime::automatic: break;
    }
    return kPytorch;
}

namespace {

// Every engine version, the default first among each engine's rows (the newest modelled but for
// vLLM, whose default is the line its step time was fitted to). `since` places a row among the
// releases: a version without a row of its own reads as the newest row at or before it.
const EngineVersion kEngineVersions[] = {
    // llama.cpp now: --fit as in b7539, and MLA layers cache the latent only (PR #19067, merged
    // 2026-01-24: "Support V-less KV cache ... for MLA models such as DeepSeek and GLM 4.7 Flash
    // ... almost x2 less memory"; a 2026 llama-server log of GLM-5.2 prints "K (f16): 65812.50 MiB,
    // V (f16): 0.00 MiB" for 768,000 cells x 78 layers x 576 values x 2 B). Since b7847: the first
    // build known here to carry it (Ollama vendored b7847 in ollama/ollama@9f62f63c, whose
    // llama/llama.cpp/src/llama-kv-cache.cpp allocates V only when !hparams.is_mla()); b7815
    // (NixOS/nixpkgs#482721, 2026-01-22) predates the merge. Builds 7816-7846 are not placed and
    // read as b7539.
    {Runtime::llama_cpp, "current", "b7847", "", "llama.cpp after PR #19067 (V-less MLA cache); --fit as in b7539", KvBudget::fit_margin, 0,
     1024 * kMiB, OllamaContext::none, 0, MlaCache::latent},
    // llama.cpp: builds from Dec 2025 fit unset parameters to free device memory (--fit on by
    // default), keeping 1024 MiB free per device (common/common.h @001d906a: fit_params = true,
    // margin 1024*1024*1024; issue ggml-org/llama.cpp#18376 shows build 7539 doing it). MLA
    // layers cache K (latent + rope key) and a separate V of the latent's width (PR #12801 until
    // PR #19067; a May 2025 DeepSeek-V3 log: "K (f16): 1098.00 MiB, V (f16): 976.00 MiB" at
    // 16,384 cells x 61 layers, n_embd_head_k 576, n_embd_head_v 512).
    {Runtime::llama_cpp, "b7539", "b7539", "", "llama.cpp common/common.h @001d906a (fit_params, 1 GiB margin per device)",
     KvBudget::fit_margin, 0, 1024 * kMiB, OllamaContext::none, 0, MlaCache::latent_and_v},
    // Builds before --fit (build 4840, Mar 2025, as logged in docs/research/runtime-facts.md R9):
    // the context is what -c says (4096 by default since PR #10136), nothing is kept back. MLA
    // models ran as plain multi-head attention (MLA came with PR #12801, Apr 2025): K and V of
    // every head cached, decompressed.
    {Runtime::llama_cpp, "b4840", "b4840", "before `--fit`",
     "llama.cpp before --fit: no margin (ggml-org/llama.cpp PR #10136: n_ctx 4096 by default)", KvBudget::fit_margin, 0, 0,
     OllamaContext::none, 0, MlaCache::per_head},
    // Ollama 0.30 (v0.30.0, 2026-06-01): GGUF models run on llama-server only, built from upstream
    // llama.cpp (ollama/ollama#16031, "runner: Remove CGO engines, use llama-server exclusively for
    // GGML models", first in v0.30.0-rc32; LLAMA_CPP_VERSION @ v0.30.0: b9452, after PR #19067).
    // Ollama passes -c (num_ctx x parallel) and -np but neither -ngl nor --fit
    // (llm/llama_server.go @ v0.30.0 startLlamaServer), so llama-server's default --fit places the
    // layers with its 1 GiB margin (the same file parses its "common_params_fit_impl" lines and
    // notes "llama-server --fit can select a text-layer placement"). num_ctx by VRAM tier as in
    // 0.15.5 (server/routes.go @ v0.30.0). Not modelled: a load that runs out of memory at the
    // automatic context is retried once a tier lower (server/sched.go reduceAutoNumCtxForLoadOOM).
    {Runtime::ollama, "0.30", "0.30", "llama-server underneath",
     "ollama v0.30.0: llama-server only (#16031), llm/llama_server.go, server/routes.go; llama.cpp b9452", KvBudget::fit_margin, 0,
     1024 * kMiB, OllamaContext::vram_tiers, 0, MlaCache::latent},
    // Ollama 0.15.5 (release notes, 2026-02-03; docs/context-length.mdx @948f6933): num_ctx by
    // VRAM tier (server/routes.go @ v0.15.5). Its own runner: nothing kept back.
    {Runtime::ollama, "0.15.5", "0.15.5", "its own runner",
     "Ollama v0.15.5 release notes; docs/context-length.mdx (VRAM tiers); server/routes.go", KvBudget::fit_margin, 0, 0,
     OllamaContext::vram_tiers, 0},
    // Ollama 0.5 and before: num_ctx 2048 (rick-github in ollama/ollama#6817, 2024).
    {Runtime::ollama, "0.5", "0.5", "", "ollama/ollama#6817: default num_ctx 2048", KvBudget::fit_margin, 0, 0, OllamaContext::fixed, 2048},
    // vLLM V1 (0.10): gpu_memory_utilization 0.9 of the total (vllm/engine/arg_utils.py); the
    // budget holds weights, the profiled activation peak and non-torch memory; CUDA graphs stay
    // outside it (vllm/v1/worker/gpu_worker.py @35d5cda, VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0).
    // Its step carries kVllmStepOverhead + kVllmSeqOverhead per decoding request (fitted to vLLM
    // 0.11.1 runs, runtime_profiles.hpp).
    {Runtime::vllm, "0.10", "0.10", "the 0.10-0.11 line", "vllm/v1/worker/gpu_worker.py @35d5cda; gpu_memory_utilization 0.9",
     KvBudget::total_fraction, 0.9, 0, OllamaContext::none, 0, MlaCache::engine_rule, kVllmStepOverhead, kVllmSeqOverhead},
    // vLLM as documented now: gpu_memory_utilization 0.92, a per-instance limit
    // (docs.vllm.ai stable, vllm/config/cache.py CacheConfig: Field(default=0.92)). No step
    // overhead: a vLLM 0.30.0 run on one H100 (silybench-data, Qwen3-8B) has its median
    // inter-token latency within -0.6..+1.4 ms of the GPU roofline step at 1-256 requests.
    // Since 0.25: the oldest release seen here with 0.92 (v0.25.0's CacheConfig as quoted in a
    // study of that release, index id 67514956263; v0.29.0's `vllm serve --help=all`, id
    // 68480202264). When between 0.11.1 (the 0.10 row's runs) and 0.25 the default moved was not
    // found: 0.12-0.24 read as 0.10.
    {Runtime::vllm, "current", "0.25", "", "docs.vllm.ai stable: vllm/config/cache.py CacheConfig gpu_memory_utilization = 0.92",
     KvBudget::total_fraction, 0.92, 0, OllamaContext::none, 0, MlaCache::engine_rule, 0, 0, false, false,
     true},   // graphs profiled in, as since 0.21
    // vLLM 0.21-0.24: as 0.10, but the CUDA graphs' memory is profiled at start-up and taken out of
    // gpu_memory_utilization (gpu_worker.py @ 0.21: "CUDA graph memory profiling is enabled
    // (default since v0.21.0). The current --gpu-memory-utilization=0.8800 is equivalent to
    // --gpu-memory-utilization=0.8592 without CUDA graph memory profiling", club-3090 issue 104).
    {Runtime::vllm, "0.21", "0.21", "CUDA graphs inside the budget",
     "vllm/v1/worker/gpu_worker.py @ v0.21.0 (CUDA graph memory profiling on by default); gpu_memory_utilization 0.9",
     KvBudget::total_fraction, 0.9, 0, OllamaContext::none, 0, MlaCache::engine_rule, kVllmStepOverhead, kVllmSeqOverhead, false, false,
     true},
    // vLLM V0 (0.6) and the V1 engine before 0.10: the budget holds what the process held before
    // the profile, CUDA context included ("non_torch_memory" of the profiling line, 0.35 GiB on an
    // RTX 3090: vllm/worker/worker.py @ v0.6.4 determine_num_available_blocks, vllm issue 10517),
    // and up to a max_model_len of 32K chunked prefill is off, so the profile runs the whole
    // prompt: max(max_model_len, 2048) tokens (vllm/config.py @ v0.6.4 SchedulerConfig,
    // _DEFAULT_MAX_NUM_BATCHED_TOKENS = 2048). Graphs outside the budget, as 0.10.
    {Runtime::vllm, "0.6", "0.6", "V0: context inside the budget, whole-prompt profile",
     "vllm/worker/worker.py and vllm/config.py @ v0.6.4; gpu_memory_utilization 0.9", KvBudget::total_fraction, 0.9, 0, OllamaContext::none,
     0, MlaCache::engine_rule, kVllmStepOverhead, kVllmSeqOverhead, true, true, false},
    // SGLang 0.5.3: mem_fraction_static = (gpu_mem - reserved_mem) / gpu_mem with the reserve built
    // from the load (PR 10975, "General heuristics for --mem-fraction-static"; server_args.py
    // _handle_gpu_memory_settings), sglang_mem_fraction_static() below. Checked against main of
    // 2025-10-07 (PR 11309's DeepSeek-V3.2 logs, tests/validation/accuracy.json); 0.5.3 is the
    // release of that month, the first taken to carry it (when between 0.4.8 and it the rule
    // changed was not found: 0.4.9-0.5.2 read as 0.4.8).
    {Runtime::sglang, "0.5.3", "0.5.3", "PR 10975's reserve",
     "sglang python/sglang/srt/server_args.py _handle_gpu_memory_settings (PR 10975)", KvBudget::static_fraction, 0, 0, OllamaContext::none,
     0, MlaCache::engine_rule, 0, 0, false, false, false, false, 0, true},
    // SGLang 0.4.8: mem_fraction_static = (gpu_mem - reserved_mem) / gpu_mem by GPU size
    // (python/sglang/srt/server_args.py); sglang_mem_fraction_static() below.
    {Runtime::sglang, "0.4.8", "0.4.8", "", "sglang v0.4.8 python/sglang/srt/server_args.py (mem_fraction_static buckets)",
     KvBudget::static_fraction, 0, 0, OllamaContext::none, 0},
    // TensorRT-LLM 1.0: KvCacheConfig.free_gpu_memory_fraction = 0.9 of the memory free after the
    // weights and activations (nvidia.github.io/TensorRT-LLM, llm-api KvCacheConfig; examples/kvcacheconfig).
    {Runtime::trt_llm, "1.0", "1.0", "", "TensorRT-LLM KvCacheConfig: free_gpu_memory_fraction = 0.9", KvBudget::free_fraction, 0.9, 0,
     OllamaContext::none, 0},
    // TensorRT-LLM 0.x: TensorRT engines run by the C++ executor. The KV pool is
    // free_gpu_memory_fraction (0.9 by default, KvCacheConfig) of what is free once the engine
    // (weights and the activations TensorRT planned) is loaded ("Memory usage when calculating max
    // tokens in paged kv cache: total ..., available ...": TensorRT-LLM issues 2268, 2671, 2789);
    // no CUDA graphs by default; the engine's logits sized for trtllm-build's max_batch_size 256.
    {Runtime::trt_llm, "0.5", "0.5", "TensorRT engines (C++ executor)",
     "TensorRT-LLM 0.x: KvCacheConfig free_gpu_memory_fraction 0.9; trtllm-build max_batch_size 256", KvBudget::free_fraction, 0.9, 0,
     OllamaContext::none, 0, MlaCache::engine_rule, 0, 0, false, false, false, true, 256},
};

constexpr std::size_t kEngineVersionCount = sizeof kEngineVersions / sizeof kEngineVersions[0];

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

std::string lowercase_trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

// The version a row starts at (its `since` always parses: tests/test_runtime_version.cpp).
VersionNumber since_of(const EngineVersion& v) { return parse_version(v.since).value_or(VersionNumber{}); }

bool same_numbers(const VersionNumber& a, const VersionNumber& b) { return compare_versions(a, b) == 0; }

// "read as 0.30 (why)"; a row named for being the newest says where it starts: "read as current
// (from b7847; why)".
std::string read_as(const EngineVersion& v, const char* why) {
    const bool newest = std::string_view(v.version) == "current";
    return "read as " + std::string(v.version) + " (" + (newest ? "from " + std::string(v.since) + "; " : std::string()) + why + ")";
}

}  // namespace

EngineVersionTable all_engine_versions() { return {kEngineVersions, kEngineVersionCount}; }

std::optional<VersionNumber> parse_version(std::string_view text) {
    const std::string s = lowercase_trimmed(text);
    if (s.empty() || s.size() > 64) return std::nullopt;
    std::size_t p = 0;
    // "v0.30.1" (a tag), "b7539" (a llama.cpp build): a prefix before the first digit.
    if ((s[0] == 'v' || s[0] == 'b') && s.size() > 1 && is_digit(s[1])) p = 1;
    VersionNumber v;
    while (true) {
        if (p >= s.size() || !is_digit(s[p])) return std::nullopt;
        if (v.count == VersionNumber::kMaxParts) return std::nullopt;   // "1.2.3.4.5"
        long long part = 0;
        int digits = 0;
        for (; p < s.size() && is_digit(s[p]); ++p, ++digits) {
            if (digits == 9) return std::nullopt;   // beyond any version: no overflow
            part = part * 10 + (s[p] - '0');
        }
        v.parts[v.count++] = part;
        if (p + 1 < s.size() && s[p] == '.' && is_digit(s[p + 1])) {
            ++p;
            continue;
        }
        break;
    }
    if (p == s.size()) return v;
    // What follows the numbers: build metadata ("+cu128") is the release itself; a tag ("-rc2",
    // "rc3", ".dev0", "-beta.1") marks a pre-release, ".post1" a release after it.
    std::string_view rest = std::string_view(s).substr(p);
    for (char c : rest)
        if (!is_lower(c) && !is_digit(c) && c != '.' && c != '-' && c != '_' && c != '+') return std::nullopt;
    if (rest[0] == '+') return v;
    if (rest[0] == '-' || rest[0] == '.' || rest[0] == '_') rest.remove_prefix(1);
    std::size_t word = 0;
    while (word < rest.size() && is_lower(rest[word])) ++word;
    const std::string_view tag = rest.substr(0, word);
    if (tag == "post") return v;
    if (tag == "rc" || tag == "alpha" || tag == "beta" || tag == "a" || tag == "b" || tag == "dev" || tag == "pre" || tag == "preview") {
        v.pre_release = true;
        return v;
    }
    return std::nullopt;
}

int compare_versions(const VersionNumber& a, const VersionNumber& b) {
    for (int i = 0; i < VersionNumber::kMaxParts; ++i)
        if (a.parts[i] != b.parts[i]) return a.parts[i] < b.parts[i] ? -1 : 1;
    return 0;
}

std::string engine_versions(Runtime engine) {
    std::string out;
    for (const EngineVersion& v : kEngineVersions)
        if (v.engine == engine) out += (out.empty() ? "" : ", ") + std::string(v.version);
    return out;
}

EngineVersionReading read_engine_version(Runtime engine, std::string_view version) {
    // The default and the labels first: every estimate comes here, and nearly all give one.
    const EngineVersion* first = nullptr;
    for (const EngineVersion& v : kEngineVersions) {
        if (v.engine != engine) continue;
        if (!first) {
            first = &v;
            if (version.empty()) return {first, ""};   // the default: the engine's first row
        }
        if (version == v.version) return {&v, ""};
    }
    if (!first)
        throw_error("runtime_version", "runtime " + std::string(to_string(engine)) +
                                           " has no versions; runtime_version applies to llama.cpp, ollama, vllm, sglang and trt-llm");
    if (version.empty()) return {first, ""};
    const EngineVersion* newest = nullptr;
    const EngineVersion* oldest = nullptr;
    for (const EngineVersion& v : kEngineVersions) {
        if (v.engine != engine) continue;
        if (!newest || compare_versions(since_of(v), since_of(*newest)) > 0) newest = &v;
        if (!oldest || compare_versions(since_of(v), since_of(*oldest)) < 0) oldest = &v;
    }
    const std::string given(version.substr(0, 40));
    const std::string word = lowercase_trimmed(version);
    if (word == "current" || word == "latest") {
        // The newest row; one not named "current" is only the newest modelled, which the note says.
        if (std::string_view(newest->version) == "current") return {newest, ""};
        return {newest, "runtime_version " + given + ": read as " + newest->version + ", the newest " + std::string(to_string(engine)) +
                            " profile"};
    }
    const std::optional<VersionNumber> asked = parse_version(version);
    if (!asked)
        throw_error("runtime_version",
                    "'" + given + "' is not a version of " + std::string(to_string(engine)) +
                        ": a version is numbers with dots (0.30, v0.30.1, 0.30.1-rc2, 1.0.0rc3), a llama.cpp build (b7539 or 7539), "
                        "or current / latest; " +
                        std::string(to_string(engine)) + "'s profiles: " + engine_versions(engine));
    // The newest row at or before the version; a row whose label is that very release is its own.
    const EngineVersion* at = nullptr;
    for (const EngineVersion& v : kEngineVersions) {
        if (v.engine != engine || compare_versions(since_of(v), *asked) > 0) continue;
        if (!at || compare_versions(since_of(v), since_of(*at)) > 0) at = &v;
    }
    if (!at)
        return {oldest, "runtime_version " + given + ": older than every " + std::string(to_string(engine)) + " profile; " +
                            read_as(*oldest, "the oldest")};
    const std::optional<VersionNumber> label = parse_version(at->version);
    if (label && same_numbers(*label, *asked)) {
        if (!asked->pre_release) return {at, ""};
        return {at, "runtime_version " + given + ": a pre-release; " + read_as(*at, "the profile of its release")};
    }
    return {at, "runtime_version " + given + ": no profile of its own; " + read_as(*at, "the newest profile at or before it")};
}

const EngineVersion& engine_version(Runtime engine, std::string_view version) { return *read_engine_version(engine, version).row; }

long long ollama_default_context(const EngineVersion& v, double vram_bytes) {
    if (v.ollama_context == OllamaContext::fixed) return v.fixed_context;
    return vram_bytes >= kOllamaVramLarge ? kOllamaContextLarge : vram_bytes >= kOllamaVramMid ? kOllamaContextMid : kOllamaContextSmall;
}

double sglang_mem_fraction_static(double gpu_memory_mib, int parallel_size) {
    // sglang v0.4.8 server_args.py: reserved_mem (MiB) by the GPU's memory; comments there name the
    // GPUs of each bucket (A10/L40/4090, H100/A100, H20, H200, B200/MI300).
    const double gpu_mem = gpu_memory_mib;
    const double ps = parallel_size;
    double reserved = 0;
    if (gpu_mem < 35 * 1024.0) reserved = (2.8 + ps / 10.0) * 1024.0;
    else if (gpu_mem < 90 * 1024.0) reserved = (9.5 + ps / 2.0) * 1024.0;
    else if (gpu_mem < 160 * 1024.0) reserved = (12.0 + ps / 2.0) * 1024.0;
    else reserved = 32.0 * 1024.0;
    // round(..., 3). Past about 2 x (GiB of the GPU - 9.5) ranks on an 80 GB part the reserve
    // outgrows the GPU and server_args.py's formula goes negative: no pool, so 0 (SGLang then stops
    // at startup, estimate.cpp's warning).
    return std::max(0.0, std::round((gpu_mem - reserved) / gpu_mem * 1000.0) / 1000.0);
}

namespace {

// server_args.py's chunked_prefill_size by GPU memory (MiB); PR 10975 (the 0.5.3 row) gave the
// GPUs under 60 GiB (A100 40GB, L40) a bucket of their own, 4k.
long long sglang_chunk_buckets(double gpu_memory_mib, bool under_60_gib_bucket) {
    if (gpu_memory_mib < 35 * 1024.0) return 2048;                             // A10, 4090, 5090
    if (under_60_gib_bucket && gpu_memory_mib < 60 * 1024.0) return 4096;      // A100 40GB, L40
    if (gpu_memory_mib < 160 * 1024.0) return 8192;                            // H100, A100 80GB, H20, H200
    return 16384;                                                              // B200, MI300
}

}  // namespace

long long sglang_chunked_prefill_size(double gpu_memory_mib) { return sglang_chunk_buckets(gpu_memory_mib, false); }

SglangReserveInputs sglang_reserve_inputs(const Config& c, double gpu_memory_mib, int tp, int pp) {
    SglangReserveInputs in;
    in.gpu_memory_mib = gpu_memory_mib;
    in.tp = std::max(1, tp);
    in.pp = std::max(1, pp);
    in.dp_attention = std::max(1, c.dp_attention);
    in.chunked_prefill = c.prefill_chunk.value_or(0);
    using Draft = SglangReserveInputs::Draft;
    in.speculative = c.speculative.empty() ? Draft::none : c.speculative == "mtp" ? Draft::eagle : Draft::standalone;
    return in;
}

long long sglang_chunked_prefill_size(const EngineVersion& v, double gpu_memory_mib) {
    return sglang_chunk_buckets(gpu_memory_mib, v.sglang_reserve_by_load);
}

int sglang_cuda_graph_max_bs(double gpu_memory_mib, int tp) {
    // server_args.py (PR 10975): by GPU memory, smaller below tp 4.
    if (gpu_memory_mib < 35 * 1024.0) return tp < 4 ? 24 : 80;     // A10, 4090, 5090
    if (gpu_memory_mib < 60 * 1024.0) return tp < 4 ? 32 : 160;    // A100 40GB, L40
    if (gpu_memory_mib < 160 * 1024.0) return tp < 4 ? 256 : 512;  // H100, A100 80GB, H20, H200
    return 512;                                                    // B200, MI300
}

double sglang_mem_fraction_static(const EngineVersion& v, const SglangReserveInputs& in) {
    if (!v.sglang_reserve_by_load) return sglang_mem_fraction_static(in.gpu_memory_mib, in.tp * in.pp);
    // server_args.py _handle_gpu_memory_settings (PR 10975), reserved_mem in MiB:
    const double gpu_mem = in.gpu_memory_mib;
    const double chunk = double(in.chunked_prefill > 0 ? in.chunked_prefill : sglang_chunked_prefill_size(v, gpu_mem));
    const double graphs = sglang_cuda_graph_max_bs(gpu_mem, in.tp);
    double reserved = 512;                                  // "constant meta data (e.g., from attention backend)"
    reserved += std::max(chunk, 2048.0) * 1.5;              // "activation during large prefill"
    reserved += graphs * 2;                                 // "cuda graphs"
    reserved += double(in.tp) * in.pp / 8.0 * 1024.0;       // "adjustments for large parallel size"
    if (in.dp_attention > 1) {
        reserved += graphs * in.dp_attention * 3.0;         // "DP attention needs more padding"
        if (graphs > 300) reserved += graphs * in.dp_attention * 1.5;   // "much more memory for large cuda graph max bs"
    }
    if (gpu_mem > 60 * 1024.0) reserved = std::max(reserved, 10 * 1024.0);
    if (in.speculative == SglangReserveInputs::Draft::standalone) reserved += 6 * 1024.0;   // a draft model and its graphs
    else if (in.speculative == SglangReserveInputs::Draft::eagle) reserved += 2 * 1024.0;   // EAGLE / NEXTN heads and graphs
    // round(..., 3); a reserve beyond the GPU leaves no pool (estimate.cpp warns).
    return std::max(0.0, std::round((gpu_mem - reserved) / gpu_mem * 1000.0) / 1000.0);
}

}  // namespace gpusizer::detail
