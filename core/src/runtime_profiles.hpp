// runtime_profiles.hpp (internal): what each inference/training runtime adds to the model's own
// tensors. Every constant names its source; docs/formulas.md collects them and
// docs/research/runtime-facts.md holds the measurements behind them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "gpusizer/config.hpp"
#include "gpusizer/gpu.hpp"

namespace gpusizer::detail {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

struct RuntimeProfile {
    Runtime id;
    const char* label;
    double cuda_context;          // bytes: driver context, kernels, library handles and workspaces
    double allocator_fraction;    // caching-allocator slack, fraction of the dynamic tensors
    double activation_bytes;      // bytes per activation element (0 = the compute dtype)
    double comm_buffers;          // bytes per communicator (NCCL) when the GPU talks to others
};

const RuntimeProfile& runtime_profile(Runtime r);

// llama.cpp: the micro-batch of one forward during prompt processing.
constexpr long long kLlamaCppUbatch = 512;   // common/common.h: n_ubatch = 512
// llama.cpp pads the KV cache length to a multiple of 256 (llama_kv_cache, with flash attention).
constexpr long long kLlamaCppKvPad = 256;

// vLLM V1 scheduler defaults for the OpenAI API server (vllm/engine/arg_utils.py
// get_batch_defaults): GPUs with >= 70 GiB other than the A100 get 8192 batched tokens and 1024
// sequences; the rest 2048 and 256.
constexpr long long kVllmBatchedTokensLarge = 8192;
constexpr long long kVllmBatchedTokensSmall = 2048;
constexpr long long kVllmMaxSeqsLarge = 1024;
constexpr long long kVllmMaxSeqsSmall = 256;
// vLLM "non_torch_memory" in its profiler log: 0.04-0.26 GiB on one GPU, 1.4-2.1 GiB with tensor
// parallelism (NCCL and custom all-reduce buffers). We take 0.15 GiB and 1.5 GiB.
constexpr double kVllmNonTorchSingle = 0.15 * kGiB;
constexpr double kVllmNonTorchParallel = 1.5 * kGiB;
// vLLM CUDA graph capture ("Graph capturing finished in X secs, took Y GiB"): 0.11-1.1 GiB seen;
// 0.73 GiB estimated for 51+35 captured sizes. It lives outside the gpu_memory_utilization
// budget (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 0). We take 0.75 GiB.
constexpr double kVllmCudaGraphs = 0.75 * kGiB;
// vLLM 0.10-0.11 (V1 engine): time per engine step beyond the GPU roofline, a fixed part and a part
// per decoding request: scheduling, input preparation, sampling and output handling that async
// scheduling does not hide, and the step's small kernels. Fitted to the ML.ENERGY Leaderboard v3.0
// runs (vLLM 0.11.1, --async-scheduling, ml-energy/leaderboard@0ea52b6a public/data/tasks/
// lm-arena-chat.json) on H100 at steady load (max_num_seqs <= 256 of 1,024 requests), output
// throughput against serving.output_tokens_per_s: 120 runs of 12 models (8B-405B, dense and MoE,
// 1-8 GPUs); a grid over 1.5-2.5 ms and 15-30 us put 2 ms + 20 us per request at mean error +0.5%,
// median |error| 6.9%, 113 within 25% (without it: +17.5% mean, 92 within).
// Checked on runs it was not fitted to, the same benchmark's gpqa task (short prompts, long
// reasoning outputs): 18 of its 21 H100 runs at 8 and 32 requests within 25% (13 without it).
// docs/research/vllm-step-mlenergy-v3.md has the fit and what it leaves.
constexpr double kVllmStepOverhead = 2e-3;
constexpr double kVllmSeqOverhead = 20e-6;

// ---------------------------------------------------------------------------------------------
// Serving engines by version: how each sizes its KV pool, and the scheduler defaults that the
// serving model (serving.cpp) and the KV capacity (estimate.cpp compute()) read.
// ---------------------------------------------------------------------------------------------

// How an engine decides the size of its KV cache.
enum class KvBudget {
    whole_gpu,        // none / pytorch: no pool; whatever the GPU has left
    fit_margin,       // llama.cpp / llama-server --fit: the device less a margin per device
    total_fraction,   // vLLM: gpu_memory_utilization x total holds weights, activation peak, non-torch and KV
    static_fraction,  // SGLang: mem_fraction_static x (memory free before loading) holds weights and the KV pool
    free_fraction,    // TensorRT-LLM: a fraction of what is free once weights and activations are placed
};

// Ollama's default context (num_ctx) when none is given.
enum class OllamaContext { none, fixed, vram_tiers };
// Ollama's num_ctx by the VRAM of all its GPUs (each GPU's driver-reported total less
// OLLAMA_GPU_OVERHEAD, 0 by default): 262,144 from 47 GiB, 32,768 from 23 GiB, else 4,096
// (server/routes.go, v0.15.5 and v0.30.0: "Use slightly lower thresholds (47/23 GiB vs. 48/24
// GiB) to account for small differences in the exact value"; docs/context-length.mdx states the
// tiers as < 24, 24-48, >= 48 GiB). An RTX 4090's 24,564 MiB is in the 32,768 tier.
constexpr double kOllamaVramLarge = 47 * kGiB;
constexpr double kOllamaVramMid = 23 * kGiB;
constexpr long long kOllamaContextLarge = 262144;
constexpr long long kOllamaContextMid = 32768;
constexpr long long kOllamaContextSmall = 4096;

// What llama.cpp caches for an MLA layer (DeepSeek V2/V3, Kimi K2, GLM-4.7-Flash, GLM-5), by build.
enum class MlaCache {
    engine_rule,    // not a llama.cpp row: the runtime's own rule (kv_values_per_token)
    per_head,       // before ggml-org/llama.cpp PR #12801 (Apr 2025): decompressed K (heads x (nope + rope)) and V (heads x v_head_dim)
    latent_and_v,   // PR #12801 to PR #19067: K = latent + rope key (576 for V3), V = a second copy of the latent (512)
    latent,         // from PR #19067 (2026-01-24, "kv-cache : support V-less cache"): K only
};

struct EngineVersion {
    Runtime engine;
    const char* version;           // the runtime_version label
    // The first release the row describes, as a version (parse_version): a numbered label's own
    // number; for "current" the first release known to carry what the row models. A version
    // without a row of its own reads as the newest row whose `since` is at or before it.
    const char* since;
    const char* summary;   // what sets the row apart, for people (help, docs/config.md, the app)
    const char* source;            // where its defaults come from (public docs or source file at a version)
    KvBudget budget;
    double fraction;               // vLLM gpu_memory_utilization / TensorRT-LLM free_gpu_memory_fraction default (0: n/a)
    double fit_margin;             // bytes llama.cpp's --fit keeps free per device
    OllamaContext ollama_context;
    long long fixed_context;       // Ollama's num_ctx when fixed
    MlaCache mla_cache = MlaCache::engine_rule;   // llama.cpp builds: how an MLA layer is cached
    double step_overhead_s = 0;    // seconds per engine step beyond the GPU's work (serving engines)
    double seq_overhead_s = 0;     // ... and per decoding request in the step
    // How the engine's start-up profile fills its budget (vLLM and TensorRT-LLM by version;
    // estimate.cpp compute(), "The engine's budget"):
    // vLLM V0 and V1 before 0.10: the memory in use before the profile (CUDA context, cuBLAS) counts
    // against gpu_memory_utilization (vllm/worker/worker.py @ v0.6.4 determine_num_available_blocks:
    // "non_torch_memory" is what the process holds beside torch's tensors, context included).
    bool context_in_budget = false;
    // vLLM V0: chunked prefill off up to a max_model_len of 32K, so the profile forward is the whole
    // prompt: max(max_model_len, max_num_batched_tokens) tokens (vllm/engine/arg_utils.py @ v0.6.4,
    // use_long_context = max_model_len > 32K turns chunked prefill on).
    bool profile_whole_prompt = false;
    // vLLM from 0.21: the CUDA graphs' memory is estimated in the profile and comes out of the
    // budget (gpu_worker.py @ 0.21 logs "CUDA graph memory profiling is enabled (default since
    // v0.21.0)"; VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 turns it off). Before: outside it.
    bool graphs_in_budget = false;
    // TensorRT-LLM before 1.0 ran TensorRT engines: no CUDA graphs by default (the executor's
    // ExtendedRuntimePerfKnobConfig cuda_graph_mode false), and their logits sized for the build's
    // max_batch_size (trtllm-build default 256, tensorrt_llm/builder.py BuildConfig).
    bool no_cuda_graphs = false;
    long long max_batch_default = 0;   // 0 = the engine's own (kTrtLlmMaxBatchSize for TensorRT-LLM 1.x)
    // SGLang from PR 10975 (the 0.5.3 row): mem_fraction_static from a reserve built of the chunked
    // prefill, the CUDA graphs' batch, the parallel size, DP attention and speculative decoding
    // (server_args.py _handle_gpu_memory_settings), not 0.4.8's buckets by GPU size.
    bool sglang_reserve_by_load = false;
};

// A version as people write it, reduced to its numbers: "0.30" -> 0.30; "v0.30.1" -> 0.30.1;
// "0.30.1-rc2" and "1.0.0rc3" -> the release's numbers, marked a pre-release; "b7539" and "7539"
// (llama.cpp builds) -> 7539; "+cu128" build metadata and ".post1" are the release itself.
struct VersionNumber {
    static constexpr int kMaxParts = 4;
    long long parts[kMaxParts] = {};   // missing trailing parts read 0 ("0.30" = "0.30.0")
    int count = 0;
    bool pre_release = false;   // -rc2, rc3, -beta, .dev0, ...
};
// nullopt when `text` is not a version ("banana", "-1", "", "1.2.3.4.5").
std::optional<VersionNumber> parse_version(std::string_view text);
// <0, 0, >0 as a is older than, the same release as, or newer than b (numbers only).
int compare_versions(const VersionNumber& a, const VersionNumber& b);

// What runtime_version reads as: the row of its own when there is one, else the nearest row
// (the newest at or before it; the oldest when it is older than every row), with a note for the
// report's warnings that names the version, the row and why.
struct EngineVersionReading {
    const EngineVersion* row = nullptr;
    std::string note;   // "" when the version is the row's own (or not given)
};
// `version` "" = the engine's default (its first row); "current" / "latest" = its newest row.
// Throws Error("runtime_version", ...) when `version` is not a version (saying what one looks
// like and listing the rows), or when the runtime has none (pytorch, none, auto).
EngineVersionReading read_engine_version(Runtime engine, std::string_view version);
// read_engine_version(engine, version).row: the row a label (or any version) reads as.
const EngineVersion& engine_version(Runtime engine, std::string_view version);
// Ollama's num_ctx when none is given, for a version and the VRAM of all the GPUs (bytes).
long long ollama_default_context(const EngineVersion& v, double vram_bytes);
// The versions of an engine, for messages and docs: "current, b7539, b4840".
std::string engine_versions(Runtime engine);
// Every row of the table, the default of each engine first among its engine's rows.
struct EngineVersionTable {
    const EngineVersion* first;
    std::size_t count;
    const EngineVersion* begin() const { return first; }
    const EngineVersion* end() const { return first + count; }
};
EngineVersionTable all_engine_versions();

// SGLang: mem_fraction_static from the GPU's memory (MiB as nvidia-smi reports it) and the tensor x
// pipeline parallel size (python/sglang/srt/server_args.py, v0.4.8, "reserved_mem" buckets).
double sglang_mem_fraction_static(double gpu_memory_mib, int parallel_size);
// SGLang: chunked_prefill_size from the GPU's memory (same file): < 35 GiB 2048, < 160 GiB 8192, else 16384.
long long sglang_chunked_prefill_size(double gpu_memory_mib);

// What SGLang's default mem_fraction_static reads, by version (the 0.4.8 row: GPU memory and
// tp x pp only).
struct SglangReserveInputs {
    double gpu_memory_mib = 0;       // nvidia-smi's memory.total (get_nvgpu_memory_capacity)
    int tp = 1, pp = 1;
    int dp_attention = 1;            // --dp with --enable-dp-attention; 1 = off
    long long chunked_prefill = 0;   // --chunked-prefill-size as given; 0 = the default by GPU memory
    enum class Draft { none, eagle, standalone } speculative = Draft::none;   // NEXTN / EAGLE; STANDALONE
};
double sglang_mem_fraction_static(const EngineVersion& v, const SglangReserveInputs& in);
// The inputs a configuration gives with its resolved tp and pp (speculative "mtp" is NEXTN, a draft
// model id STANDALONE).
SglangReserveInputs sglang_reserve_inputs(const Config& c, double gpu_memory_mib, int tp, int pp);
long long sglang_chunked_prefill_size(const EngineVersion& v, double gpu_memory_mib);
// From PR 10975: --cuda-graph-max-bs by GPU memory and tp.
int sglang_cuda_graph_max_bs(double gpu_memory_mib, int tp);

// TensorRT-LLM defaults (tensorrt_llm BuildConfig / LLM API, v1.0): max_batch_size 2048 requests,
// max_num_tokens 8192 tokens per iteration.
constexpr long long kTrtLlmMaxBatchSize = 2048;
constexpr long long kTrtLlmMaxNumTokens = 8192;
// llama-server: n_batch 2048 tokens per batch of the server loop (common/common.h).
constexpr long long kLlamaCppBatch = 2048;

// DeepSpeed ZeRO defaults (deepspeed/runtime/zero/config.py), in elements.
constexpr double kZeroReduceBucket = 5e8;          // reduce_bucket_size
constexpr double kZeroAllgatherBucket = 5e8;       // allgather_bucket_size (stages 1-2)
constexpr double kZero3PrefetchBucket = 5e7;       // stage3_prefetch_bucket_size
constexpr double kZero3MaxLiveParams = 1e9;        // stage3_max_live_parameters

}  // namespace gpusizer::detail
