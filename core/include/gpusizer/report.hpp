// gpusizer/report.hpp: what an estimate answers. Every size is in bytes.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/config.hpp"

namespace gpusizer {

struct Calibration;   // gpusizer/measured.hpp

// Memory of the most loaded GPU, by what it holds (kMemoryParts below names each part).
struct MemoryParts {
    double weights = 0;       // model weights resident on the GPU
    double kv_cache = 0;      // KV cache for batch x context
    double activations = 0;   // forward (and backward) working memory, logits included
    double gradients = 0;     // training only
    double optimizer = 0;     // training only: optimizer states and fp32 master weights
    double overhead = 0;      // cuda_context + allocator_reserve + runtime_buffers
    double total() const;     // the sum of the parts
};

// The memory parts in report order: the one list of them. The report JSON (memory.per_gpu),
// the CLI's rows, the app's bar, table and charts all read it; the web page and the widget
// keep copies in JavaScript that tests/test_memory_parts.cpp holds to it. Adding a part is
// a member above, an enumerator and a row here (and its colour in ui/theme.hpp).
enum class MemoryPart { weights, kv_cache, activations, gradients, optimizer, overhead };

struct MemoryPartInfo {
    MemoryPart part;
    const char* key;              // the report JSON key under memory.per_gpu (a public contract: never renamed)
    const char* label;            // for people: "KV cache"
    double MemoryParts::*bytes;   // its member
};

inline constexpr MemoryPartInfo kMemoryParts[] = {
    {MemoryPart::weights, "weights", "weights", &MemoryParts::weights},
    {MemoryPart::kv_cache, "kv_cache", "KV cache", &MemoryParts::kv_cache},
    {MemoryPart::activations, "activations", "activations", &MemoryParts::activations},
    {MemoryPart::gradients, "gradients", "gradients", &MemoryParts::gradients},
    {MemoryPart::optimizer, "optimizer", "optimizer", &MemoryParts::optimizer},
    {MemoryPart::overhead, "overhead", "overhead", &MemoryParts::overhead},
};
inline constexpr int kMemoryPartCount = int(sizeof kMemoryParts / sizeof kMemoryParts[0]);

// One row per member (MemoryParts holds doubles only), each row at its enumerator's index.
static_assert(kMemoryPartCount * sizeof(double) == sizeof(MemoryParts), "kMemoryParts: one row per MemoryParts member");
constexpr bool memory_parts_indexed_by_enum() {
    for (int i = 0; i < kMemoryPartCount; ++i)
        if (int(kMemoryParts[i].part) != i) return false;
    return true;
}
static_assert(memory_parts_indexed_by_enum(), "kMemoryParts: row i is MemoryPart(i)");

constexpr const MemoryPartInfo& memory_part(MemoryPart p) { return kMemoryParts[int(p)]; }
inline double part(const MemoryParts& m, MemoryPart p) { return m.*memory_part(p).bytes; }

// Summed in report order.
inline double MemoryParts::total() const {
    double sum = 0;
    for (const MemoryPartInfo& p : kMemoryParts) sum += this->*p.bytes;
    return sum;
}

struct OverheadDetail {
    double cuda_context = 0;        // driver context, kernels and library handles
    double allocator_reserve = 0;   // caching-allocator slack and fragmentation
    double runtime_buffers = 0;     // llama.cpp compute buffer, vLLM CUDA graphs, NCCL, ZeRO buckets
    double communicator_buffers = 0;   // of runtime_buffers: PyTorch's NCCL communicators (outside its allocator)
};

struct Parallelism {
    int tp = 1, pp = 1, dp = 1, ep = 1;
    int cp = 1;   // context parallel (training): GPUs = tp x cp x pp x dp
};

// What the GPUs say to each other, and how long it takes. Times are seconds on the wire for one
// GPU; "exposed" is the part that adds to the step or token time (the rest hides behind compute).
struct LinkTimes {
    std::string link;                        // intra-node link id ("" when a single GPU)
    bool hypothetical = false;               // the GPU cannot use this link (the alternative of a PCIe-only card)
    double tp_comm_s_per_token = 0;          // inference: tensor-parallel all-reduces of one decode step
    double dp_allreduce_s_per_step = 0;      // training: gradient all-reduce (ZeRO: reduce-scatter + all-gathers)
    double exposed_s = 0;                    // per decode step (inference) or per optimizer step (training)
    double decode_tokens_per_s = 0;          // the speed that results, per sequence
    double train_tokens_per_s = 0;
};

struct InterconnectReport {
    std::string link;                        // intra-node link id ("" when a single GPU and no offload)
    std::string inter_node_link;             // between nodes ("" when everything is in one node)
    int gpus_per_node = 1;                   // GPUs one node holds for this link
    int nodes = 1;
    int pods = 1;                            // network pods the GPUs span (Config::pod_gpus; 1 without pods)
    double link_bandwidth_bytes_per_s = 0;   // per GPU, per direction, of the intra-node link
    double allreduce_busbw_bytes_per_s = 0;  // bus bandwidth of the timed all-reduce's algorithm (nccl-tests busbw; allreduce_algorithm)
    // What NCCL would run for that group's all-reduce: ring, tree, nvls, hierarchical (static storage).
    std::string_view allreduce_algorithm = "none";
    double tp_comm_s_per_token = 0;          // inference: 2 all-reduces per layer per decode step
    double pp_comm_s_per_token = 0;          // inference: activations sent between pipeline stages per decode step
    double ep_comm_s_per_token = 0;          // inference: MoE dispatch + combine all-to-alls per decode step
    double tp_comm_s_per_step = 0;           // training, per step: 4 all-reduces per layer per micro-batch (6 with full recompute)
    double pp_comm_s_per_step = 0;           // training: activation and gradient sends between stages
    double ep_comm_s_per_step = 0;           // training: MoE all-to-alls
    double dp_allreduce_s_per_step = 0;      // training: gradient sync on the wire
    double dp_exposed_s_per_step = 0;        // training: the part of it not hidden behind the backward pass
    double tp_exposed_s_per_step = 0;        // training: the part of tp_comm_s_per_step that adds (all without tp_comm_overlap)
    double pp_exposed_s_per_step = 0;        // training: the part of pp_comm_s_per_step that adds (interleaved: overlapped)
    double ep_exposed_s_per_step = 0;        // training: the part of ep_comm_s_per_step that adds (dualpipe: overlapped)
    double cp_comm_s_per_step = 0;           // training with cp > 1: ring-attention K/V (and dK/dV) sends on the wire
    double cp_exposed_s_per_step = 0;        // training: the part of them the attention blocks do not cover
    double offload_s_per_step = 0;           // training with offload: gradients to host RAM and parameters back over PCIe
    double offload_exposed_s_per_step = 0;   // training: the part of them that adds (in exposed_s_per_step)
    double pp_bubble_fraction = 0;           // pipeline idle share of compute + bubble (1F1B: (p - 1) / (m + p - 1))
    std::string_view pp_schedule = "none";   // (static storage) training with pp > 1: 1f1b, interleaved, zero_bubble, dualpipe
    int virtual_stages = 1;                  // model chunks per stage (interleaved)
    double exposed_s_per_step = 0;           // training: all communication that adds to the step
    double exposed_s_per_token = 0;          // inference: all communication that adds to a decode step
    LinkTimes alternative;                   // the same configuration over the other kind of link (NVLink <-> PCIe):
                                             // filled by alternative_link(), empty from estimate()
};

// llama.cpp partial offload: what runs when the model does not fit in the GPUs.
struct OffloadReport {
    bool active = false;                     // the model does not fit and llama.cpp would offload
    int gpu_layers = 0;                      // layers that fit on the GPUs (llama.cpp -ngl)
    int total_layers = 0;
    double host_bytes = 0;                   // weights and KV cache left in host RAM
    double host_bandwidth_bytes_per_s = 0;   // host RAM bandwidth assumed
    double decode_tokens_per_s = 0;          // with the layers split between GPU and CPU
    double experts_on_host_decode_tokens_per_s = 0;   // MoE: every layer on the GPU, routed experts in RAM (0 when n/a)
};

// Training: what the run loses beyond its steps (core/src/training/goodput.cpp; docs/formulas.md,
// "The run's goodput"). Times in seconds; fractions of the wall time.
struct GoodputReport {
    bool active = false;                     // training
    double job_mtbf_s = 0;                   // mean time between interruptions of the whole job (0 = none)
    double checkpoint_bytes = 0;             // what a checkpoint holds: weights (training) and optimizer states
    double checkpoint_save_s = 0;            // the training stops this long for each checkpoint
    double checkpoint_interval_s = 0;        // training time between checkpoints (given, or the Young-Daly optimum)
    double restart_s = 0;                    // from an interruption to training again: restart_s + reading the checkpoint
    double lost_s_per_failure = 0;           // restart + the work since the last checkpoint, on average
    double eval_s_per_step = 0;              // evaluation, spread over the steps
    double ramp_extra_s = 0;                 // the batch-size ramp's extra time (whole run; 0 when train_tokens is 0)
    double interruptions = 0;                // expected over the run (0 when train_tokens is 0)
    // Shares of the wall time: the steps, checkpoints, lost work and restarts, evaluation, ramp.
    double steps_fraction = 0, checkpoint_fraction = 0, failure_fraction = 0, eval_fraction = 0, ramp_fraction = 0;
    bool never_finishes = false;             // interruptions come faster than the work between them survives
};

struct SpeedReport {
    std::string_view compute_precision;      // the precision the matrix math runs at on this GPU (static storage)
    std::string_view compute_precision_requested;   // what the weight format asks for (static storage)
    bool native = true;                      // the GPU runs the requested precision on its tensor cores
    bool tensor_cores = true;                // false: CUDA cores / ALUs (fp32 without TF32, Apple GPUs)
    double peak_flops = 0;                   // FLOP/s of one GPU at the compute precision (dense)
    double mfu = 0;                          // efficiency used for compute-bound work
    double bandwidth_efficiency = 0;         // efficiency used for memory-bound work
    double decode_tokens_per_s = 0;          // inference: tokens per second for one sequence
    double decode_throughput_tokens_per_s = 0;   // all sequences of the batch, all replicas
    double decode_step_s = 0;                // one decode step (a token for every sequence of the batch)
    double decode_bytes_per_step = 0;        // bytes read per decode step (all pipeline stages of one replica)
    double decode_host_bytes_per_step = 0;   // of them, read by the CPU from host RAM (llama.cpp n_cpu_moe experts)
    double prefill_host_copy_s = 0;          // of ttft_s, bringing n_cpu_moe experts from host RAM (over PCIe from 32 tokens)
    bool decode_compute_bound = false;
    double prefill_tokens_per_s = 0;         // inference: prompt tokens per second
    double ttft_s = 0;                       // time to first token: the prefill of the batch's prompts
    double train_flops_per_token = 0;        // training: executed FLOPs per token (6N + attention; 8N with full recompute)
    double train_step_s = 0;                 // one optimizer step
    double train_tokens_per_s = 0;
    double train_time_s = 0;                 // for train_tokens (0 when not asked): the steps' own time
    // The run's goodput: train_time_s / train_wall_time_s, the steps' share of the wall time once
    // interruptions, checkpoints, evaluations and the batch ramp are counted; 0 when the run never
    // finishes (goodput.never_finishes).
    double train_goodput_fraction = 0;
    double train_wall_time_s = 0;            // for train_tokens (0 when not asked, or never finishes)
    GoodputReport goodput;
    double effective_mfu = 0;                // training: model FLOPs / (step time x peak x GPUs), bubble and exposed communication included
    double mfu_effective = 0;                // the same figure under the name papers use: model FLOPs utilization (PaLM, Llama 3)
    // Training: hardware FLOPs utilization, executed FLOPs (recomputation counted) / (step x peak x GPUs).
    double hfu = 0;
    // Training: the step taken apart (train_step_s = compute_s + bubble_s + exposed_comm_s +
    // optimizer_step_host_s + optimizer_step_s + step_sync_s + step_overhead_s).
    double compute_s = 0;                    // the math of one step on one GPU at the kernel efficiency `mfu`
    double bubble_s = 0;                     // pipeline idle time of the schedule (interconnect.pp_schedule)
    double bubble_fraction = 0;              // bubble_s / (compute_s + bubble_s): 1F1B (p-1)/(m+p-1), interleaved /v, ZB-H1 /3
    double exposed_comm_s = 0;               // communication that adds to the step (interconnect.exposed_s_per_step)
    double optimizer_step_host_s = 0;        // training with offload: the optimizer step the CPU runs (ZeRO-Offload), on the critical path
    double optimizer_step_s = 0;             // training without offload: the optimizer step on the GPU, its shard at memory bandwidth
    double step_sync_s = 0;                  // training: the step's scalar all-reduces over every GPU (gradient norm, loss)
    double step_overhead_s = 0;              // training: the configuration's step_overhead_s, added to every step
    double gemm_peak_flops = 0;              // training: the dense peak the weight GEMMs run at (FP8 with fp8_training, else peak_flops)
    OffloadReport offload;
};

struct PowerReport {
    double gpu_w = 0;                        // board power x GPUs x utilization
    double host_w = 0;                       // CPUs, memory, fans, NICs, switches of the nodes, at the same utilization
    // The kind of machine host_w is for (performance.cpp, host_platform): "desktop", "workstation",
    // "pcie_server", "hgx_node", or "unified" (one chip for CPU and GPU: Apple, DGX Spark, Strix Halo).
    std::string_view host_platform;
    double system_w = 0;                     // gpu_w + host_w: ratings x utilization (the draw is wall_w)
    double facility_w = 0;                   // system_w x PUE: with cooling and power distribution
    double psu_w = 0;                        // power supply capacity one node needs, transients included
    double heat_w = 0;                       // heat into the room (= wall_w: every watt drawn ends as heat)
    double heat_btu_h = 0;                   // heat_w x 3.412
    double energy_kwh = 0;                   // training: the run of train_tokens; inference: per million generated tokens
    double cost_usd = 0;                     // electricity for energy_kwh
    double energy_kwh_per_million_tokens = 0;
    double cost_usd_per_million_tokens = 0;
    double tokens_per_joule = 0;             // at the facility
    bool hardware_price_known = false;
    double hardware_usd = 0;                 // GPU prices x count (GPUs only; 0 when a price is unknown)
    double pue = 1;                          // used
    double utilization = 1;                  // used
    // Draw by what bounds the work (the figures above take `utilization` as given): the share of
    // board power each phase draws from its compute and memory utilization (performance.cpp,
    // board_draw_fraction: memory-bound decode well below TDP on HBM, compute-bound prefill and
    // training near it), the GPUs' watts in that phase, and energy and cost per million tokens at
    // that draw (decode for inference, the step for training; host and PUE as above).
    double decode_draw_fraction = 0;         // inference: one decode step at the configuration's batch
    double prefill_draw_fraction = 0;        // inference: prefill of the prompt
    double train_draw_fraction = 0;          // training: one step, bubble and exposed communication averaged in
    double decode_gpu_w = 0;                 // board power x GPUs x decode_draw_fraction
    double prefill_gpu_w = 0;
    double train_gpu_w = 0;
    double energy_kwh_per_million_tokens_at_draw = 0;
    double cost_usd_per_million_tokens_at_draw = 0;
    double train_energy_kwh_at_draw = 0;     // training: the run of train_tokens at train_gpu_w (0 when not asked)
    // At the wall (core/src/power/wall_power.hpp): the whole machine at the plug, all nodes, by
    // phase: the GPUs at the phase's draw (above; idle: idle_gpu_w), the host by platform and by
    // what its CPU does (at rest, a core feeding each GPU, every core computing llama.cpp's CPU
    // layers or experts, data loaders), fans, and the supplies' losses at that load (the 80 PLUS
    // curve of psu_tier). PUE is not in them: facility_wall_w.
    double idle_wall_w = 0;                  // the model loaded, waiting
    double prefill_wall_w = 0;               // inference: processing the prompt
    double decode_wall_w = 0;                // inference: generating, at the configuration's batch
    double train_wall_w = 0;                 // training: a step
    double serving_wall_w = 0;               // under the serving load (isl and osl given; else 0)
    double wall_w = 0;                       // this job: serving_wall_w under a load, else decode_wall_w or train_wall_w
    std::string_view wall_phase;             // (static storage) "serving", "decode" or "train"
    double facility_wall_w = 0;              // wall_w x pue
    double idle_gpu_w = 0;                   // all GPUs' board draw at idle
    double host_idle_w = 0;                  // the hosts at rest, DC inside the supplies, all nodes
    double host_active_w = 0;                // the hosts in this job's phase, DC, all nodes (fans included)
    std::string_view psu_tier;               // (static storage) the supplies' 80 PLUS tier
    double psu_capacity_w = 0;               // per node: the supplies installed (psu_rating_w, else psu_w; servers N+N)
    double psu_efficiency = 0;               // in this job's phase
    double board_w = 0;                      // the GPUs' board power (tdp_w x GPUs): a rating
    double nameplate_w = 0;                  // GPUs' board power + hosts' peak: ratings, not a draw
};

// What the job costs, as people decide it (core/src/cost/cost.cpp): electricity at the wall's
// draw, owning (the hardware amortized over its lifetime at the duty cycle), or renting (the
// catalog's dated cloud prices), per million tokens (inference: output tokens of the serving
// load, else of the decode batch) or per run (training with train_tokens). 0 = not known.
struct CostReport {
    double usd_per_kwh = 0;
    double electricity_usd_per_hour = 0;            // power.facility_wall_w x usd_per_kwh
    double electricity_usd_per_million_tokens = 0;
    double electricity_usd_per_run = 0;             // training: the run of train_tokens
    // Owning: GPUs at their price (catalog price_usd, or gpu_usd), the machines around them
    // (host_usd, else prices.json's hosts by platform).
    bool gpu_price_known = false;
    bool host_price_known = false;
    double gpu_usd = 0;                             // one GPU
    double host_usd = 0;                            // all the machines around the GPUs
    double hardware_usd = 0;                        // GPUs + hosts (the GPUs alone when the host price is unknown)
    double lifetime_years = 0;
    double duty_cycle = 0;
    double hardware_usd_per_hour = 0;               // per hour of use: hardware / (lifetime hours x duty)
    double hardware_usd_per_million_tokens = 0;
    double hardware_usd_per_run = 0;
    double own_usd_per_million_tokens = 0;          // hardware + electricity
    double own_usd_per_run = 0;
    // Renting: per GPU-hour, the median of the catalog's rows for this GPU and kind (or rent_usd_per_gpu_hour).
    bool rent_known = false;
    double rent_usd_per_gpu_hour = 0;
    double rent_min_usd_per_gpu_hour = 0;           // the rows' range (= the figure when given)
    double rent_max_usd_per_gpu_hour = 0;
    int rent_rows = 0;                              // prices behind the figure (0: given by the configuration)
    std::string rent_kind;                          // on_demand, spot, community
    std::string rent_provider;                      // one provider's rows, or "" for all
    std::string rent_date;                          // the newest row's date
    double rent_usd_per_hour = 0;                   // all GPUs
    double rent_usd_per_million_tokens = 0;
    double rent_usd_per_run = 0;
    // Months of renting (at the duty cycle) that cost what buying does, the owner paying the
    // electricity; 0 with buy_never_pays_off when renting costs less per hour than the power.
    double buy_break_even_months = 0;
    bool buy_never_pays_off = false;
};

// A server under steady load (the configuration's isl, osl and concurrency): continuous batching
// in steady state, each engine step running the decode tokens of the requests in flight and a
// share of prefill tokens (core/src/serving.cpp; docs/formulas.md, "Serving").
struct ServingReport {
    bool active = false;                     // isl and osl were given: the figures below are computed
    double max_concurrency = 0;              // requests of `context` tokens the KV pool holds at once (one replica; always computed)
    double concurrency = 0;                  // requests the engines run at once, all replicas (capped by the pool and the engine)
    double output_tokens_per_s = 0;          // generated tokens per second, all replicas
    double output_tokens_per_s_per_gpu = 0;
    double tokens_per_s_per_user = 0;        // 1 / tpot_s
    double ttft_s = 0;                       // time to first token, queueing for a slot included
    double tpot_s = 0;                       // time per output token after the first (one engine step)
    double requests_per_s = 0;               // completed requests per second, all replicas
    double step_s = 0;                       // one engine step
    double decode_tokens_per_step = 0;       // on one replica
    double prefill_tokens_per_step = 0;
    // Power under the load (performance.cpp, board_draw_fraction): the step's mix of decode and
    // prefill sets its compute and memory utilization, hence the GPUs' draw.
    double draw_fraction = 0;                // share of board power the GPUs draw
    double gpu_w = 0;                        // all GPUs
    double wall_w = 0;                       // the whole machines at the plug under this load (power.serving_wall_w)
    double energy_kwh_per_million_tokens = 0;   // per million output tokens, at the facility (the wall draw x PUE)
    double cost_usd_per_million_tokens = 0;
    std::string_view bound = "none";         // (static storage) what limits throughput: kv_capacity, max_sequences,
                                             // memory_bandwidth, compute, communication, overhead
};

// The per-sequence cache of one GPU (MemoryParts::kv_cache) by layer kind, bytes: attention
// layers that grow with the context (full), are capped at a window (sliding) or a chunk
// (chunked), MLA latents, sparse-attention indexer keys, and the fixed state of recurrent layers
// (Mamba, Gated DeltaNet), which does not depend on the context.
struct CacheDetail {   // (the first four in this order: estimate.cpp indexes them by LayerVariant::cache_slot)
    double full = 0;
    double sliding = 0;
    double chunked = 0;
    double mla = 0;
    double indexer = 0;
    double recurrent_state = 0;
    double total() const { return full + sliding + chunked + mla + indexer + recurrent_state; }
};

// Parameters by part of the checkpoint (ParamParts scaled by a num_parameters override).
struct ParamsByPart {
    double text = 0, vision = 0, audio = 0, mtp = 0, embeddings = 0;
};

// How the weights are stored, class by class (report key weights_scheme).
struct WeightsSchemeReport {
    std::string source;          // "checkpoint": the checkpoint's own format (`weights` "native" or unset
                                 // on a quantized checkpoint); "config": the `weights` format on its default classes
    std::string format;          // weight format id of the converted classes ("mxfp4", "fp8", "bf16", "q4_k_m", ...)
    std::string method;          // checkpoint: its quant_method ("mxfp4", "fp8", "gptq", ...; "" when not quantized)
    bool class_bits = false;     // false for GGUF file types, whose bits go tensor by tensor
    double attention_bits = 0;   // attention, MLA and recurrent-mixer projections
    double mlp_bits = 0;         // dense MLP
    double shared_expert_bits = 0;
    double routed_expert_bits = 0;
    double router_bits = 0;
    double embedding_bits = 0;
    double lm_head_bits = 0;
    double other_bits = 0;       // norms, biases, conv kernels, learned positions
};

// A bit per Runtime, for sets of engines (Report::gpu_engines).
constexpr unsigned engine_bit(Runtime e) { return 1u << unsigned(e); }

// How a serving engine's KV capacity moves with what sets it (issue 26): the pool is what is
// left of a large budget after large terms, so a small change of the fraction moves it by many
// times its own share. Each case is the same configuration with one input changed.
struct KvCapacityCase {
    bool computed = false;
    std::string setting;        // the changed input as a key would give it: "gpu_memory_utilization 0.85", "cuda_graphs false"
    double tokens = 0;          // memory.kv_capacity_tokens with it
    double change_tokens = 0;   // tokens - the configuration's own
    double change_pct = 0;      // change_tokens / the configuration's own x 100 (0 when that is 0)
};
struct KvSensitivity {
    bool computed = false;      // vLLM, SGLang and TensorRT-LLM serving only
    std::string fraction_key;   // gpu_memory_utilization / mem_fraction_static / free_gpu_memory_fraction
    double fraction = 0;        // its value in the configuration
    double fraction_step = 0.05;
    double pool_bytes = 0;      // the KV pool of one GPU, bytes
    double budget_bytes = 0;    // what the engine's fraction gives one GPU, bytes (the large number the pool is left of)
    KvCapacityCase fraction_down, fraction_up, cuda_graphs, speculative;
};

struct Report {
    Report() = default;
    // The report of `c` before the estimate fills it: every figure at its initializer and the
    // configuration copied. A constructor, not aggregate initialization: that zero-fills the
    // whole report (2.7 KB, the configuration's bytes included) before copying the configuration
    // over it, 4% of an estimate's time.
    explicit Report(const Config& c) : config(c) {}

    Config config;                  // the configuration with every default resolved
    Parallelism parallel;
    std::string model_name;
    std::string gpu_name;
    std::string gpu_vendor;   // gpus.json "vendor": nvidia, amd, intel, apple (picks the speed bands' backend)
    std::string hf_repo;   // a catalog model's Hugging Face repository (models.json hf_repo; "" for others)
    // The serving engines that run on this GPU (engine_bit() of llama_cpp, vllm, sglang, trt_llm,
    // ollama), by the checks the estimate makes of its own runtime: the launch commands' (launch.hpp).
    unsigned gpu_engines = 0;
    // The cap on sequences in flight the estimate took for its engine: max_num_seqs as given, else
    // the engine's default (vLLM 1024 / 256 by GPU, TensorRT-LLM 2048), llama.cpp's and PyTorch's
    // slots (the batch); 0 where the engine sizes it from its pool (SGLang) or has none.
    long long engine_max_sequences = 0;
    // The format of a quantized checkpoint as published (its quantization_config: "fp8" for
    // DeepSeek-R1, "mxfp4" for gpt-oss; static storage), "" when the checkpoint is not quantized.
    std::string_view checkpoint_format;

    double params = 0;              // total parameters (derived from the architecture)
    double active_params = 0;       // parameters a token passes through (MoE: routed top-k only), as the publisher counts them
    ActiveConvention active_convention = ActiveConvention::all;   // what active_params leaves out (model.hpp)
    double trainable_params = 0;    // 0 for inference; LoRA: adapter parameters
    double kv_bytes_per_token = 0;  // one token of one sequence, all attention layers, whole model (uncapped)
    double state_bytes_per_sequence = 0;   // fixed recurrent state of one sequence, whole model
    ParamsByPart params_by_part;    // text (== params), vision, audio, mtp, per-layer embeddings
    CacheDetail cache_detail;       // per_gpu.kv_cache by layer kind
    double weights_bits_per_param = 0;   // effective average over all parameters
    WeightsSchemeReport weights_scheme;  // which format each weight class is stored in

    MemoryParts per_gpu;
    OverheadDetail overhead_detail;
    double activations_per_layer = 0;    // training: one layer, one micro-batch, one GPU
    double kv_capacity_tokens = 0;       // tokens of KV cache that fit in what is left (all sequences)
    double memory_kv_pool_bytes = 0;     // the KV pool of the GPU that binds kv_capacity_tokens, bytes
    KvSensitivity kv_capacity_sensitivity;   // how kv_capacity_tokens moves with the engine's inputs (serving engines)
    double host = 0;                     // bytes in host RAM for the whole job (offload, llama.cpp's token embeddings)
    double host_experts = 0;             // of them, routed experts llama.cpp keeps there (n_cpu_moe), bytes
    double gpu_capacity = 0;             // bytes the GPU has
    double gpu_usable = 0;               // bytes the runtime may use (vLLM: utilization x capacity)
    bool fits = false;
    double headroom = 0;                 // gpu_usable - total (negative when it does not fit)
    InterconnectReport interconnect;
    SpeedReport speed;
    PowerReport power;
    CostReport cost;
    ServingReport serving;
    std::vector<std::string> warnings;
    std::shared_ptr<const Calibration> measured;   // the GPU's measured figures (--measured); null = datasheet
    // The configuration's custom GPU as the estimate built it (its figures, and the defaults it
    // took for what was not given: gpusizer/custom_gpu.hpp); null for a catalog GPU.
    std::shared_ptr<const CustomGpuBuild> custom_gpu;
};

// One assumption behind an estimate: a constant or a choice, with where it comes from.
struct Assumption {
    std::string name;
    std::string value;
    std::string source;
};

// The inverse questions: what is the most that fits?
struct FitRow {
    std::string format;          // weight or KV format id
    bool fits = false;
    double total = 0;            // bytes per GPU at the configuration's batch and context
    double headroom = 0;
    long long max_context = 0;   // at the configuration's batch (0: not even one token)
    std::string runtime;         // the engine this format runs on (an automatic runtime follows the format)
};

struct FitReport {
    Report base;                 // the configuration as given
    long long max_context = 0;   // longest context that fits at the given batch (memory alone)
    long long model_max_context = 0;   // the model's trained maximum (0 = unknown); max_context may exceed it
    long long max_batch = 0;     // largest batch that fits at the given context
    std::string best_weights;    // most precise weight format that fits ("" if none)
    // The engine best_weights runs on: with runtime automatic the format picks it, so it may not
    // be the configuration's (say, bf16 on vLLM where Q4_K_M ran on llama.cpp); shown with it.
    std::string best_weights_runtime;
    std::string best_kv_cache;   // most precise KV format that fits with the given weights
    std::vector<FitRow> by_weights;
    std::vector<FitRow> by_kv_cache;
};

}  // namespace gpusizer
