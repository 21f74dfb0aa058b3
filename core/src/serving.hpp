// serving.hpp (internal): a server under steady load. Continuous batching in steady state: each
// engine step runs the decode tokens of the requests in flight and a share of prefill tokens
// (chunked, up to the engine's token budget); the KV pool caps how many requests are in flight.
//
// Two halves, so that a search can evaluate many loads cheaply: serving_model() gathers, once per
// configuration, every constant a step needs (bytes, FLOPs, links, the pool); serving_at() is
// arithmetic on it for one load (isl, osl, concurrency), with no allocation and no loop longer
// than the distinct window caps of the model. docs/formulas.md, "Serving", has the derivation.
#pragma once

#include "estimate_internal.hpp"
#include "interconnect.hpp"
#include "performance.hpp"

namespace gpusizer::detail {

// The engine's token budget per step (vLLM max_num_batched_tokens, SGLang chunked_prefill_size,
// TensorRT-LLM max_num_tokens, llama.cpp n_ubatch; `prefill_chunk` when given) and the most
// sequences it schedules at once (vLLM max_num_seqs, TensorRT-LLM max_batch_size, llama.cpp
// slots = batch; SGLang: engine_sequence_cap; `max_num_seqs` when given).
long long serving_token_budget(const Resolved& r);
long long serving_max_sequences(const Resolved& r);
// The same cap where it depends on the pool: SGLang, whose default is the pool's own
// (sglang_running_requests); the others as serving_max_sequences. 0: none.
double engine_sequence_cap(const Resolved& r, const Totals& t);
// TensorRT-LLM's max_batch_size as one rank schedules it: under attention DP a given max_num_seqs
// (the replica's) over the ranks, floor-divided, or the engine's default (each rank's); else the cap.
long long trt_rank_max_batch(const Resolved& r);
// SGLang's default max_running_requests for a pool of `pool_tokens` and a context of
// `context_len`: min(pool / 2, its request pool of min(max(pool / context_len x 512, 2048), 4096))
// (python/sglang/srt/managers/tp_worker.py max_running_requests; model_runner.py max_num_reqs).
double sglang_running_requests(double pool_tokens, double context_len);

// KV cache bytes of one sequence as a function of its length: a rate for the layers that keep
// every token plus, for sliding / chunked layers, a rate up to their cap; plus a fixed state.
struct KvLengthCost {
    static constexpr int kMaxCaps = 8;
    double full_rate = 0;                  // bytes per token, uncapped layers
    int caps = 0;
    double cap_tokens[kMaxCaps] = {};      // tokens a capped group keeps at most
    double cap_rate[kMaxCaps] = {};        // its bytes per token
    double state = 0;                      // fixed bytes per sequence (recurrent state)
    double at(double tokens) const {
        double b = full_rate * tokens + state;
        for (int i = 0; i < caps; ++i) b += cap_rate[i] * (tokens < cap_tokens[i] ? tokens : cap_tokens[i]);
        return b;
    }
};

struct ServingModel {
    // One engine step on one GPU (a tensor-parallel rank; pipeline stages run one after the other).
    double dense_bytes = 0;            // weights read every step: all but the routed experts, head included
    double expert_bytes = 0;           // routed experts on this GPU (read as far as the step's tokens touch them)
    double expert_share = 0;           // k / E: the share of experts one token visits (0: dense)
    // llama.cpp --n-cpu-moe: the routed experts kept in host RAM (not in expert_bytes), read by
    // the CPU for steps under 32 tokens, copied to the GPU over PCIe for larger ones (performance.hpp).
    double host_expert_bytes = 0;
    double host_read_bandwidth = 0;    // bytes/s the CPU reads them at (efficiency x host bandwidth)
    double host_copy_bandwidth = 0;    // bytes/s they cross PCIe at (0: the CPU reads them)
    double expert_token_factor = 1;    // replicas whose tokens reach this GPU's experts: ep / tp when the experts
                                       // spread over data-parallel replicas (vLLM's EP = tp x dp), else 1
    double flops_per_token = 0;        // 2 x matmul parameters / tp
    double expert_flops_per_token = 0; // the routed experts' part of flops_per_token
    bool expert_tile_by_batch = false; // llama.cpp: the expert GEMMs' tile follows the step's tokens (performance.hpp)
    double attn_flops_per_position = 0;   // per attended position, one GPU (a prompt's)
    double attn_decode_flops_per_position = 0;   // ... a decoding token's (MLA absorbed: performance.hpp)
    KvLengthCost kv_read;              // what decode attention reads per sequence (all stages, one rank)
    double state_read_factor = 2;      // a recurrent state is read and written each step
    double logits_bytes_per_seq = 0;   // sampling: fp32 logits written and read once per decoding sequence
    double eff_bandwidth = 0;          // bytes/s the step reaches (efficiency x bandwidth)
    double route_bytes_per_token = 0;  // MoE gather and weighted-sum traffic per token (performance.hpp kMoeRoutePassesPerCopy)
    double stream_bandwidth = 0;       // bytes/s those copy kernels reach
    double eff_flops = 0;              // FLOP/s (MFU x peak)
    double attn_flops = 0;             // FLOP/s of the attention core (performance.cpp attention_flops)
    double per_forward = 0;            // fixed seconds per forward (layers x per-layer overhead)
    double step_overhead = 0;          // the engine's seconds per step beyond the GPU's work
    double seq_overhead = 0;           // ... and per decoding request (runtime_profiles.hpp, vLLM 0.10-0.11)
    // Communication per step: all-reduces after attention and MLP, pipeline sends, MoE all-to-alls.
    Fabric fabric;
    Span tp_span, ep_span;
    int tp = 1, pp = 1, ep = 1, dp = 1;
    // vLLM, SGLang and TensorRT-LLM keep pp batches in flight across the pipeline stages, one per
    // stage (vLLM: vllm/v1/engine/core.py, a batch queue of max_concurrent_batches "required by
    // pipeline parallelism to eliminate pipeline bubbles"; TensorRT-LLM's PyTorch executor loops
    // over pp micro-batches); llama.cpp and PyTorch run a step through the stages one at a time.
    bool pipelined = false;
    long long pp_distance = 1;
    double act_bytes_per_token = 0;    // hidden x activation bytes
    // TensorRT-LLM's attention DP (performance.hpp moe_gathered): no all-reduces, each MoE layer's
    // gather and scatter instead, the input in the experts' GEMM input type.
    bool moe_gather = false;
    bool rank_local = false;   // ... on a dense model: no collective at all
    double hidden = 0, act_bytes = 2;
    Precision gemm_precision = Precision::fp16;
    double layers = 0, moe_layers = 0, experts_per_token = 0;
    ExpertRouting routing;   // k and the model's group limit, for the all-to-alls
    // Scheduling and the KV pool (the tightest pipeline stage).
    KvLengthCost kv_pool_seq;          // one sequence's cache on that stage, by length
    double kv_pool_bytes = 0;          // the pool, bytes
    double max_sequences = 0;          // the engine's cap on sequences in flight (per replica)
    bool fixed_slots = false;          // llama.cpp / Ollama: `batch` slots of `context` tokens, allocated up front
    double token_budget = 0;           // tokens per step
    double context = 0;                // the longest request the engine takes (max_model_len / n_ctx per slot)
    // Power under the load (performance.cpp's board_draw_fraction on the step's utilization).
    const Gpu* gpu = nullptr;
    double peak_bandwidth = 0;         // bytes/s, the datasheet's
    double peak_flops = 0;             // FLOP/s, the dense peak the math runs at
    double board_w = 0;                // one GPU's board power
    double host_w = 0;                 // the nodes' hosts' rating (power.host_w)
    WallModel wall;                    // the machines at the wall (power/wall_power.hpp)
    double pue = 1;
    double usd_per_kwh = 0;
};

// What one engine step moves and computes on one GPU (all pipeline stages of its rank).
struct StepWork {
    double bytes = 0;
    double kv_bytes = 0;   // the part of `bytes` that decode attention reads from the KV cache
    double flops = 0;
};

ServingModel serving_model(const Resolved& r, const PerfInputs& in, const Totals& t, const Fabric& f, const PerfOut& po);
// The same from a resolved configuration alone, built as estimate() builds it (its totals,
// inputs, fabric and performance figures): the simulation's model and the tests'.
ServingModel serving_model_of(const Resolved& r);

// The steady state of `concurrency` requests in flight over all replicas (0: as many as the
// engine holds), each with `isl` input and `osl` output tokens.
ServingReport serving_at(const ServingModel& m, double isl, double osl, double concurrency);

// The steady state of requests arriving at `rate` per second over all replicas (an open loop):
// the concurrency whose completion rate equals it (Little's law, found by bisection: completions
// grow with the requests in flight). Past what the engines sustain, the figures at saturation with
// bound "overloaded".
ServingReport serving_at_rate(const ServingModel& m, double isl, double osl, double rate);

// Disaggregated serving (prefill and decode on separate replicas, the KV cache handed over:
// DistServe, Zhong et al., OSDI 2024; Splitwise, Patel et al., ISCA 2024). A prefill replica runs
// prompts only, in steps of the engine's token budget; a decode replica runs decode steps only.
struct PrefillPool {
    double requests_per_s = 0;   // one replica, saturated: budget tokens per step over isl per request
    double ttft_s = 0;           // one prompt's chunks at the step time, plus its KV cache sent to a decode GPU
    double step_s = 0;           // one saturated step (budget tokens)
    double draw_fraction = 0;    // the share of board power a saturated step draws
};
PrefillPool serving_prefill_pool(const ServingModel& m, double isl);
// The steady state of a decode-only replica with `concurrency` requests in flight (its slots and
// pool capping it, as serving_at); figures of one replica (dp is ignored).
ServingReport serving_decode_pool(const ServingModel& m, double isl, double osl, double concurrency);

// The seconds of one engine step with `decode` decoding sequences at an average length `length`
// and `prefill` prompt tokens of prompts `isl` long; `bound` gets what takes longest.
double serving_step_seconds(const ServingModel& m, double decode, double prefill, double length, double isl,
                            std::string_view* bound = nullptr, StepWork* work = nullptr);

}  // namespace gpusizer::detail
