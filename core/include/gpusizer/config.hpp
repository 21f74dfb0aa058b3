// gpusizer/config.hpp: the configuration a user asks about.
//
// This struct is the in-memory form of the configuration JSON that the CLI, the web API and
// share links exchange; docs/config.md documents every key with its unit and default.
// "Not given: use the default" is std::nullopt for the fields converted so far
// (prefill_chunk, layer_overhead_us, seq_overhead_us, max_num_seqs, the engines' memory fractions) and 0 or "" for the others (the key table's `unset`
// column says which, gpusizer/config_keys.hpp); estimate() reports the resolved configuration
// it used.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/custom_gpu.hpp"
#include "gpusizer/model.hpp"

namespace gpusizer {

enum class Mode { inference, train, lora, qlora };
enum class Optimizer { adamw, adamw_8bit, sgd, adafactor };
enum class Offload { none, optimizer, optimizer_params };
enum class Recompute { automatic, none, selective, full };
// sglang, trt_llm (TensorRT-LLM) and ollama (llama-server underneath) are serving engines whose
// memory budgets and defaults follow runtime_version (core/src/runtime_profiles.cpp).
enum class Runtime { automatic, none, pytorch, llama_cpp, vllm, sglang, trt_llm, ollama };
// Pipeline schedule of training (docs/formulas.md, "Pipeline schedules").
// dualpipe: DeepSeek-V3's bidirectional schedule (arXiv:2412.19437, sec. 3.2.1), which also hides
// the expert-parallel all-to-alls behind the computation of a paired micro-batch.
enum class PipeSchedule { one_f_one_b, interleaved, zero_bubble, dualpipe };
// FP8 training of the weight GEMMs: scaling per tensor or per block (docs/formulas.md, "FP8 training").
enum class Fp8Training { none, tensorwise, blockwise };
// The training framework whose kernels, overlaps and buckets the step follows (docs/formulas.md,
// "Training frameworks"; core/src/training/frameworks.cpp). megatron = Megatron-LM / Megatron Core.
enum class TrainingFramework { megatron, nemo, torchtitan, fsdp, deepspeed, hf_trainer };

// LoRA target modules, as a bit set.
enum LoraTarget : unsigned {
    kLoraQ = 1u << 0, kLoraK = 1u << 1, kLoraV = 1u << 2, kLoraO = 1u << 3,
    kLoraGate = 1u << 4, kLoraUp = 1u << 5, kLoraDown = 1u << 6,
    kLoraAllLinear = 0x7fu,
};

// Which model: a catalog id, or a custom architecture (from a Hugging Face config.json or a
// bare parameter count).
struct ModelSpec {
    std::string id;                 // catalog id; empty when custom
    bool custom = false;
    ModelArch arch;                 // custom only
    std::string hf_config_json;     // custom only: the hf_config object as given (for round trips)
    double num_parameters = 0;      // custom only: {"num_parameters": N} form
    std::vector<std::string> import_warnings;   // what the hf_config importer ignored or assumed
    // A model on the Hugging Face Hub ({"hub": "org/name", ...}; core/src/hub_model.cpp):
    std::string hub;                // the repository id; empty when not a Hub model
    std::string hub_json;           // the model object as given: revision, file, what was fetched (round trips)
    bool hub_fetched = false;       // it holds what was fetched (config.json or the file's header)
    std::string hub_weights;        // the weight format the GGUF file names (general.file_type), "" = none
};

// Config::gpu of a GPU described by its fields (Config::custom_gpu), as "custom" is the model id
// of a custom model in reports and links.
constexpr std::string_view kCustomGpuId = "custom";

struct Config {
    ModelSpec model;
    Mode mode = Mode::inference;
    // Weight format id or "native"; "" = native for inference on a quantized checkpoint, else bf16 (qlora: nf4).
    std::string weights;
    std::string kv_cache;           // KV format id; "" = fp16 (bf16 when weights are bf16)
    int batch = 1;                  // sequences per forward pass on one data-parallel rank
    int global_batch = 0;           // sequences per optimizer step, all ranks; 0 = batch x dp
    long long context = 0;          // tokens per sequence; 0 = min(8192, model's trained maximum)
    Optimizer optimizer = Optimizer::adamw;
    int zero = 0;                   // ZeRO stage 0..3
    Offload offload = Offload::none;
    Recompute recompute = Recompute::automatic;   // qlora: full (PEFT's default), else none
    bool flash_attention = true;
    bool sequence_parallel = false;
    int lora_rank = 16;
    unsigned lora_targets = kLoraAllLinear;
    // A catalog id, or kCustomGpuId: the GPU custom_gpu describes ({"gpu": {...}} in the
    // configuration JSON, g=custom&gc=... in a link; gpusizer/custom_gpu.hpp). custom_gpu is read
    // only then; kept otherwise (the app returns to it).
    std::string gpu = "rtx-4090";
    CustomGpu custom_gpu;
    int gpus = 1;
    int tp = 0, pp = 0, dp = 0, ep = 0;   // 0 = chosen from gpus
    Runtime runtime = Runtime::automatic;
    double gpu_memory_utilization = 0.9;  // vLLM's default fraction
    // Extensions beyond the first set of keys:
    int quant_group_size = 128;     // int4 group size (GPTQ/AWQ)
    std::optional<int> prefill_chunk;   // tokens processed per forward in prefill; none = runtime default

    // Speed, interconnect and power. 0 / "" = the default, which the report resolves.
    double train_tokens = 0;        // tokens to train on, for the time and energy of a run; 0 = not asked
    double mfu = 0;                 // fraction of the dense tensor peak that compute-bound work reaches
    double bandwidth_efficiency = 0;   // fraction of the memory bandwidth that decode reaches
    double utilization = 1.0;       // fraction of board power drawn on average
    double pue = 0;                 // power usage effectiveness of the room (>= 1)
    double usd_per_kwh = 0.15;      // electricity price
    // The power supply between the machine and the wall (core/src/power/wall_power.hpp): its
    // 80 PLUS tier ("" = by platform: gold desktops, platinum workstations and PCIe servers,
    // titanium HGX nodes) and its rating per node, W (0 = power.psu_w; servers twice it, N+N).
    std::string psu_tier;
    double psu_rating_w = 0;
    // Cost (core/src/cost/cost.cpp): owning over a lifetime at a duty cycle, or renting.
    // Years the hardware is paid off over: 4, the span leading AI chips stay in frontier
    // training (Epoch AI's median 3.9 years; plan.hpp kGpuAmortizationYears, the same figure).
    double lifetime_years = 4;
    double duty_cycle = 1;             // share of the hours it does this job
    std::optional<double> gpu_usd;                 // price of one GPU; none = the catalog's price_usd
    std::optional<double> host_usd;                // price of each machine around the GPUs; none = prices.json's hosts by platform
    std::optional<double> rent_usd_per_gpu_hour;   // none = the median of the catalog's prices for this GPU
    std::string rent_kind;             // "" = on_demand; spot, community
    std::string rent_provider;         // "" = every provider's rows
    std::string link;               // GPU-to-GPU link id inside a node ("" = the GPU's own)
    // Extensions beyond the first set of keys:
    std::string inter_node_link;    // link id between nodes ("" = by GPU class)
    long long prompt_tokens = 0;    // prompt length for prefill and time to first token; 0 = context / 2
    double host_memory_bandwidth_gb_per_s = 0;   // host RAM bandwidth for llama.cpp offload; 0 = default
    std::optional<double> layer_overhead_us;   // fixed time per layer per forward (kernel launches, syncs), us; none = runtime default
    std::optional<double> seq_overhead_us;     // serving: host time per decoding request per engine step, us; none = the engine version's
    // The model read from a checkpoint's headers (the CLI and the app read them: the core does
    // no I/O; load_model_files in model_file.hpp). "" = not given.
    std::string gguf;               // a GGUF file, any part of a split one
    std::string hf_dir;             // a local snapshot folder: config.json + *.safetensors
    std::string mmproj;             // with gguf: the multimodal projector file beside it (mmproj-*.gguf)

    // Serving: the engine's version, and a steady load of requests (core/src/serving.cpp). The
    // serving figures are computed only when isl and osl are given.
    std::string runtime_version;    // "" = the runtime's default version (runtime_profiles.cpp lists them)
    long long isl = 0;              // input tokens per request; 0 = no serving figures
    long long osl = 0;              // output tokens per request
    int concurrency = 0;            // requests in flight, all replicas; 0 = as many as the engine holds
    // Training schedules and overlap:
    PipeSchedule pp_schedule = PipeSchedule::one_f_one_b;
    int virtual_stages = 0;         // interleaved 1F1B: model chunks per pipeline stage; 0 = 2 (interleaved), else 1
    bool tp_comm_overlap = false;   // tensor-parallel communication overlapped with the GEMMs (Megatron-LM --tp-comm-overlap)
    bool ep_comm_overlap = false;   // expert all-to-alls overlapped across micro-batches (Megatron-LM --overlap-moe-expert-parallel-comm)
    Fp8Training fp8_training = Fp8Training::none;   // weight GEMMs in FP8 (training, GPUs with FP8 tensor cores)
    double fp8_gemm_efficiency = 0;  // FP8 training: the FP8 GEMMs' share of `mfu` at the FP8 peak (0 = the default)
    TrainingFramework training_framework = TrainingFramework::megatron;   // whose kernels, overlaps and buckets
    double request_rate = 0;        // requests per second arriving (open loop), instead of concurrency; 0 = closed loop
    // Context parallelism (training): each sequence's tokens split over cp GPUs, attention as a
    // ring of K/V blocks (Megatron-LM context_parallel_size); gpus = tp x cp x pp x dp.
    int cp = 1;
    // llama.cpp's --n-cpu-moe N: the routed-expert weights (ffn_*_exps) of the first N layers stay
    // in host RAM and the CPU runs them; attention, shared experts, router and norms stay on the
    // GPU. The model's layer count = --cpu-moe. 0 = none. llama.cpp / ollama, MoE models only.
    int n_cpu_moe = 0;
    // Serving: the engine's cap on requests in flight per replica (vLLM --max-num-seqs, SGLang
    // --max-running-requests, TensorRT-LLM max_batch_size, llama.cpp -np slots). none = the
    // runtime's default (vLLM 1024 / 256, TensorRT-LLM 2048, llama.cpp and PyTorch `batch`, SGLang
    // one from its pool: serving.hpp sglang_running_requests). On llama.cpp, Ollama and PyTorch the
    // slots are the batch: it sets `batch`.
    std::optional<int> max_num_seqs;
    // The engines' memory fractions beside vLLM's gpu_memory_utilization; none (or 0, as in a file)
    // = the engine's default, which the resolved configuration holds (core/src/runtime_profiles.cpp
    // names the sources).
    // SGLang --mem-fraction-static: weights + KV pool as a share of the memory free before loading
    // (default by GPU memory and tp x pp). TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction
    // (trtllm-bench / trtllm-serve --kv_cache_free_gpu_mem_fraction): the KV pool's share of the
    // memory free after weights and activations (default 0.9 in 1.0). Each applies to its engine only.
    std::optional<double> mem_fraction_static;
    std::optional<double> free_gpu_memory_fraction;
    // vLLM's --kv-cache-memory-bytes (CacheConfig.kv_cache_memory_bytes): the KV pool of each GPU
    // in bytes, which gpu_memory_utilization then no longer sizes; unset = sized by the fraction.
    std::optional<double> kv_cache_memory_bytes;
    // Serving engines' CUDA graphs: true = as each engine runs by default (vLLM, SGLang and
    // TensorRT-LLM 1.x capture them; TensorRT engines before 1.0 and llama.cpp hold no pool for
    // them), false = vLLM --enforce-eager, SGLang --disable-cuda-graph, TensorRT-LLM without
    // cuda_graph_config. Their memory sits inside vLLM's budget from 0.21 (runtime_profiles.cpp).
    bool cuda_graphs = true;
    // Speculative decoding: "" = none; "mtp" = the model's own multi-token-prediction layers
    // (vLLM / SGLang --speculative-config method mtp / NEXTN), loaded with their own KV cache; a
    // catalog model id = a draft model on the same GPUs, its weights and KV cache beside the target's.
    std::string speculative;
    // SGLang's data-parallel attention (--enable-dp-attention --dp N): the tp GPUs of a replica
    // run attention as N groups of tp / N GPUs, each with its own requests and KV pool, while the
    // MLP and experts stay split over all tp. 0 or 1 = off. Attention weights (and SGLang's
    // embedding) are replicated over the groups (docs/formulas.md, "Data-parallel attention").
    int dp_attention = 0;
    // Training: what a run loses beyond its steps (core/src/training/goodput.cpp; docs/formulas.md,
    // "The run's goodput"). Defaults from published runs and frameworks, each named there.
    double failures_per_gpu_hour = 2.195e-5;   // job interruptions per GPU-hour (Llama 3: 466 in 54 days on 16,384 GPUs)
    double restart_s = 600;                    // detect, reschedule and restart after an interruption, before loading the checkpoint
    double checkpoint_write_gb_per_s = 1.0;    // per node, to the checkpoint store (Llama 3: 2 TB/s sustained over 2,048 nodes)
    double checkpoint_interval_s = 0;          // training time between checkpoints; 0 = the Young-Daly optimum
    int eval_interval_steps = 1000;            // steps between evaluations (Megatron-LM --eval-interval); 0 = none
    int eval_iters = 100;                      // batches per evaluation (Megatron-LM --eval-iters)
    double batch_ramp_tokens = 0;              // tokens trained while the global batch ramps up from small (GPT-3: 4e9 to 12e9)
    // Training: seconds every optimizer step adds beyond what the step model counts (a framework's
    // engine, data loading, stragglers); 0 = none (docs/formulas.md, "At scale").
    double step_overhead_s = 0;
    // The network's pods: non-blocking domains of pod_gpus GPUs, pod_oversubscription : 1 between
    // them (Llama 3: 3,072 and 7); 0 = one non-blocking network (docs/formulas.md, "Pods").
    int pod_gpus = 0;
    double pod_oversubscription = 1;
};

// Names used in JSON, links and the CLI for each enum value.
std::string_view to_string(Mode v);
std::string_view to_string(Optimizer v);
std::string_view to_string(Offload v);
std::string_view to_string(Recompute v);
std::string_view to_string(Runtime v);
std::string_view to_string(PipeSchedule v);
Mode parse_mode(std::string_view s);              // each throws Error naming the key and the
Optimizer parse_optimizer(std::string_view s);    // allowed values
Offload parse_offload(std::string_view s);
Recompute parse_recompute(std::string_view s);
Runtime parse_runtime(std::string_view s);
PipeSchedule parse_pp_schedule(std::string_view s);
std::string_view to_string(Fp8Training v);
Fp8Training parse_fp8_training(std::string_view s);
std::string_view to_string(TrainingFramework v);
TrainingFramework parse_training_framework(std::string_view s);
unsigned parse_lora_target(std::string_view s);   // "q_proj" or "q", ..., "all-linear"
std::vector<std::string> lora_target_names(unsigned targets);

// The allowed values of a key, for messages and UIs ("inference, train, lora, qlora").
std::string allowed_values(std::string_view key);
// A list as allowed_values() and the errors' "known: ..." write it, taken apart: "a, b, c" -> {a, b, c}.
std::vector<std::string> split_names(std::string_view list);

}  // namespace gpusizer
