// estimate.cpp: per-GPU memory of a configuration.
//
// [SECTION] The estimate: per pipeline stage (its weights, KV cache, activations, training
//           state: gradients, optimizer, ZeRO, offload; runtime overhead), the most loaded
//           GPU, fits or not, warnings
//
// The configuration is resolved in resolve.cpp; the per-layer formulas (weights, KV cache,
// activations, LoRA adapters, llama.cpp's compute buffer) are in memory.cpp, declared in
// estimate_internal.hpp.
//
// Units: bytes, tokens, parameters, all as double. The formulas and their sources are
// collected in docs/formulas.md.
#include "gpusizer/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "estimate_internal.hpp"
#include "training/frameworks.hpp"
#include "performance.hpp"
#include "cost/cost.hpp"
#include "power/power.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"
#include "serving.hpp"
#include "training/goodput.hpp"

namespace gpusizer {

using detail::kGiB;
using detail::kMiB;
using detail::Resolved;

namespace detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] The estimate
// ---------------------------------------------------------------------------------------------

namespace {

// Everything on the GPUs of one pipeline stage.
struct Stage {
    MemoryParts parts;
    OverheadDetail overhead;
    double params = 0;          // parameters on one GPU of the stage (before ZeRO)
    double block_params = 0;    // parameters of one of the stage's transformer blocks on one GPU (their mean)
    double dtype_weights = 0;   // training: the weights' bytes in their dtype, before a framework lays them out
    double kv_rate = 0;         // KV bytes per token of one sequence, one GPU, uncapped
    double state = 0;           // recurrent layers' fixed state of the batch's sequences, one GPU
    double host = 0;
    double act_per_layer = 0;
    // vLLM: bytes outside gpu_memory_utilization (context, graphs); SGLang / TensorRT-LLM: activations and graphs.
    double outside_budget = 0;
    double non_torch = 0;       // SGLang / TensorRT-LLM: NCCL and all-reduce buffers
    double layer_bytes = 0;     // the stage's layer weights and KV cache
    double expert_bytes = 0;    // the stage's routed-expert weights
    double act_inflight = 0;    // training: activation bytes per micro-batch in flight
    double act_once = 0;        // training: activation bytes held once (loss, full recompute's layer)
};

// The CUDA graphs' pool on one GPU (kVllmCudaGraphs, vLLM's logged capture; SGLang's and
// TensorRT-LLM 1.x's graphs the same): none with cuda_graphs false, or on an engine version that
// captures none (TensorRT engines before 1.0).
double cuda_graph_bytes(const Resolved& r) {
    if (!r.config->cuda_graphs || (r.engine_version && r.engine_version->no_cuda_graphs)) return 0.0;
    return kVllmCudaGraphs;
}

bool is_large_vllm_gpu(const Gpu& g) {
    // vLLM's rule: >= 70 GiB and not an A100 gets the larger scheduler defaults.
    return vllm_large_scheduler_defaults(g);   // gpu.hpp: >= 70 GiB and not an A100
}

// The training state of a stage's GPU: weights as the framework keeps them, gradients, optimizer
// states, offload and the framework's buffers (out of line: stage_estimate is inlined thrice).
[[gnu::noinline]] void training_state(const Resolved& r, Stage& st, double trainable) {
    const ModelArch& a = *r.arch;
    const Config& c = *r.config;
    MemoryParts& m = st.parts;
    const bool fp32 = r.fp32;
    // The ranks that hold the same weights: dp x cp. Megatron Core reduces gradients and
    // shards its distributed optimizer over the data-parallel group with the context-parallel
    // ranks folded in (parallel_state.get_data_parallel_group(with_context_parallel=True)).
    const double dp = double(r.par.dp) * r.par.cp;
    // The optimizer's own states per trainable parameter (AdamW's m and v: 8); a framework adds
    // the fp32 master copy where it keeps one apart from the weights.
    const double states = optimizer_state_bytes_per_param(c.optimizer, a.hidden);   // per trainable parameter
    double count = 0;
    if (c.mode == Mode::train) {
        // As the framework lays them out (training/frameworks.cpp: Megatron's fp32 main
        // gradients, autocast's fp32 weights, FSDP's fp32 shards, DeepSpeed's ZeRO accounting).
        count = st.params;
        st.dtype_weights = m.weights;
        const TrainStates ts = train_states(c.training_framework, c.zero, r.wf->wid, states);
        m.weights *= ts.weights.at(dp) / (fp32 ? 4.0 : 2.0);
        m.gradients = count * ts.gradients.at(dp);
        m.optimizer = count * ts.optimizer.at(dp);
    } else {
        // LoRA adapters are fp32 (PEFT autocast_adapter_dtype=True): weights 4 B, gradients
        // 4 B, optimizer states without a separate master copy.
        count = trainable;
        m.weights += trainable * 4.0;
        m.gradients = count * 4.0 / (c.zero >= 2 ? dp : 1.0);
        m.optimizer = count * states / (c.zero >= 1 ? dp : 1.0);
        if (c.zero == 3) m.weights /= dp;
    }
    // Offloaded bytes of one GPU's shard; the stage's tp x dp x cp GPUs each offload theirs.
    const double gpus_in_stage = double(r.par.tp) * dp;
    if (c.offload != Offload::none) {
        // ZeRO-Offload: optimizer states, fp32 gradients and the optimizer step live in RAM.
        st.host += (m.optimizer + count * 4.0 / dp) * gpus_in_stage;
        m.optimizer = 0;
        m.gradients = 0;
    }
    if (c.offload == Offload::optimizer_params) {
        st.host += m.weights * gpus_in_stage;   // ZeRO-Infinity: the parameter shards too
        m.weights = 0;
    }
    // Communication buffers: the framework's (training/frameworks.cpp). LoRA trains through
    // PEFT under DDP or DeepSpeed: a copy of the fp32 adapter gradients, or DeepSpeed's buckets.
    if (r.runtime == Runtime::pytorch) {
        const bool full = c.mode == Mode::train;
        const TrainingFramework fw = full ? c.training_framework : c.zero == 0 ? TrainingFramework::hf_trainer : TrainingFramework::deepspeed;
        st.overhead.runtime_buffers += buffer_model(fw, c.zero, full ? r.wf->wid : fp32 ? WeightId::fp32 : WeightId::bf16)
                                           .bytes(dp, count, st.params, st.block_params);
    }
}

// Inlined into compute(), the hot loop of every estimate and sweep point (stage_sums() copies it).
[[gnu::always_inline]] inline Stage stage_estimate(const Resolved& r, int s, const std::array<double, kMaxVariants>& train_bytes,
                     const std::array<double, kMaxVariants>& train_full) {
    const ModelArch& a = *r.arch;
    const Config& c = *r.config;
    const RuntimeProfile& rt = *r.rt;
    const int pp = r.par.pp;
    // DualPipe (DeepSeek-V3 report, arXiv:2412.19437, sec. 3.2.1 and Table 2): each device holds
    // two chunks, stage s of the forward direction and stage pp - 1 - s of the reverse one, so 2x
    // the parameters, and the first and last devices both hold the embedding and the head.
    const bool dual = r.training && c.pp_schedule == PipeSchedule::dualpipe && pp > 1;
    const int mirror = dual ? pp - 1 - s : s;
    const bool first = s == 0 || mirror == 0, last = s == pp - 1 || mirror == pp - 1;
    const std::size_t nv = r.variants.size();
    const std::uint16_t* counts = r.stage_count(s);
    std::array<std::uint16_t, kMaxVariants> both;   // dualpipe: the two chunks' layers per variant
    if (dual) {
        const std::uint16_t* other = r.stage_count(mirror);
        for (std::size_t v = 0; v < nv; ++v) both[v] = std::uint16_t(counts[v] + other[v]);
        counts = both.data();
    }
    Stage st;
    MemoryParts& m = st.parts;

    // Weights, KV rate and the per-token working set, summed over the stage's layer variants.
    double trainable = 0, per_token = 0;
    const double gpu_seqs = r.sequences_per_gpu();
    for (std::size_t v = 0; v < nv; ++v) {
        if (counts[v] == 0) continue;
        const LayerVariant& lv = r.variants[v];
        const double n = counts[v];
        st.params += n * lv.on_gpu.params;
        st.block_params += n;   // (the layer count until the sum is divided by it below)
        m.weights += n * lv.on_gpu.weight_bytes;
        st.expert_bytes += n * lv.on_gpu.expert_weight_bytes;
        trainable += n * lv.lora_params / r.par.tp;
        per_token = std::max(per_token, lv.inference_elements);
        if (!r.training) {
            // Attention K/V (growing, or capped at a window or chunk), indexer keys, and the
            // fixed recurrent state of each sequence.
            const double bytes = lv.kv_values_gpu * r.kv->bytes + lv.indexer_bytes;
            st.kv_rate += n * bytes;
            // (cache_detail() splits the same sum by kind for the reported GPU.)
            const double tokens = double(variant_cached_tokens(r, lv, c.context));
            m.kv_cache += n * gpu_seqs * ((lv.kv_values_gpu * r.kv->bytes + lv.indexer_bytes) * tokens + lv.state_bytes_gpu);
            st.state += n * gpu_seqs * lv.state_bytes_gpu;
        }
    }
    // A model read from a file: its exact bytes (file_stage_weights) replace the formulas'.
    const bool from_file = !r.file_layers.empty();
    if (from_file) m.weights = r.file_layers[std::size_t(s)] + (dual ? r.file_layers[std::size_t(mirror)] : 0.0);
    if (!r.cpu_moe_stage.empty()) {
        // llama.cpp --n-cpu-moe: the first layers' routed experts stay in host RAM (cpu_moe_weights),
        // held there once, whole (counted with the first stage).
        const double moved = r.cpu_moe_stage[std::size_t(s)];
        m.weights -= moved;
        st.expert_bytes -= moved;
        if (first) st.host += r.cpu_moe_host * r.scale;
    }
    st.layer_bytes = m.weights * r.scale + m.kv_cache;
    st.block_params = st.block_params > 0 ? st.params * r.scale / st.block_params : 0.0;
    st.expert_bytes *= r.scale;
    const EdgeWeights& e = r.edges;
    if (first) {
        st.params += e.embedding_params + e.positions_params;
        if (e.embedding_on_host)
            st.host += from_file ? a.file.embeddings : r.edges_whole.embedding_bytes * r.scale;   // the whole table, once, in RAM
        else m.weights += from_file ? r.file_embedding : e.embedding_bytes;
        m.weights += e.positions_bytes;
    }
    if (last) {
        st.params += e.head_params + e.other_params;
        m.weights += from_file ? r.file_head : e.head_bytes + e.other_bytes;
    }
    st.params *= r.scale;
    m.weights *= r.scale;
    trainable *= r.scale;
    if (last && (r.spec_weights > 0 || r.spec_kv_rate > 0)) {
        // Speculative decoding (resolve.cpp speculative_terms): the MTP layers or the draft model
        // beside the target, with their KV cache for every token the target caches.
        m.weights += r.spec_weights;
        st.kv_rate += r.spec_kv_rate;
        m.kv_cache += double(c.batch) * double(c.context) * r.spec_kv_rate;
    }

    // Activations.
    if (!r.training) {
        const double V = double(a.vocab);
        switch (r.runtime) {
            case Runtime::llama_cpp:
                m.activations = llama_cpp_compute_buffer(r, last ? OutputHead::here : OutputHead::elsewhere);
                break;
            case Runtime::vllm: {
                // vLLM's profile run: one forward of max_num_batched_tokens, then the sampler on
                // min(max_num_seqs, max_num_batched_tokens) rows of fp32 logits (max_num_seqs the
                // key's when given: serving_max_sequences).
                // V0 (profile_whole_prompt): chunked prefill is off up to a 32K max_model_len, so
                // the profile forward is max(max_model_len, 2048) tokens (runtime_profiles.cpp).
                const bool large = is_large_vllm_gpu(*r.gpu);
                const bool v0 = r.engine_version && r.engine_version->profile_whole_prompt;
                const double small = double(kVllmBatchedTokensSmall);
                const double tokens = c.prefill_chunk            ? double(*c.prefill_chunk)
                                      : v0 && c.context <= 32768 ? std::max(double(c.context), small)
                                      : v0 || !large             ? small
                                                                 : double(kVllmBatchedTokensLarge);
                const double seqs = std::min<double>(double(serving_max_sequences(r)), tokens);
                m.activations = tokens * per_token * r.act_bytes;
                if (last) m.activations += seqs * V * 4.0;
                break;
            }
            case Runtime::sglang:
            case Runtime::trt_llm: {
                // One forward of the engine's token budget (SGLang chunked_prefill_size,
                // TensorRT-LLM max_num_tokens, which its engine plans activations for), and the
                // fp32 last-token logits of TensorRT-LLM's max_batch_size sequences (SGLang, whose
                // cap is its pool's by default, none: its max_running_requests sizes no buffer here).
                // Under TensorRT-LLM's attention DP the token budget is the replica's (each rank's
                // max_num_tokens together: its experts run on all of them after the gather), the
                // logits each rank's: min(max_batch_size, max_num_tokens) of that rank.
                const double tokens = double(serving_token_budget(r));
                double seqs = 0.0;
                if (r.runtime == Runtime::trt_llm) seqs = std::min(double(trt_rank_max_batch(r)), tokens / r.dp_attn);
                m.activations = tokens * per_token * r.act_bytes;
                if (last) m.activations += seqs * V * 4.0;
                break;
            }
            default: {
                // One prefill forward of the prompt (or of `prefill_chunk` tokens at a time).
                const double chunk = c.prefill_chunk ? std::min<double>(*c.prefill_chunk, double(c.context)) : double(c.context);
                const double tokens = double(c.batch) * chunk;
                m.activations = tokens * per_token * r.act_bytes;
                if (!c.flash_attention) {
                    // Eager attention materializes the scores of one layer: bf16 scores plus
                    // PyTorch's fp32 softmax (transformers eager_attention_forward).
                    const double score_bytes = r.act_bytes + (r.runtime == Runtime::pytorch ? 4.0 : 0.0);
                    m.activations += double(c.batch) * double(a.n_heads) / r.par.tp * chunk * double(c.context) * score_bytes;
                }
                // Logits of the last position of each sequence: compute dtype, then fp32 for
                // sampling (transformers generate() casts next-token logits to float32).
                if (last && a.kind != ArchKind::encoder)
                    m.activations += double(c.batch) * V * (r.runtime == Runtime::pytorch ? r.act_bytes + 4.0 : 4.0);
                break;
            }
        }
    } else {
        const double inflight = train_inflight_micro_batches(pp, s, r.micro_batches, r.virtual_stages, dual);
        const double sb = double(c.context) / r.par.cp * c.batch;   // this GPU's tokens of a micro-batch (1/cp of each sequence)
        const double rep = (c.sequence_parallel && r.par.tp > 1) ? 1.0 / r.par.tp : 1.0;
        // The LoRA branch keeps A*x (rank values per token) for each targeted module.
        int modules = 0;
        if (c.mode == Mode::lora || c.mode == Mode::qlora)
            for (unsigned bit = 1; bit <= kLoraDown; bit <<= 1) modules += (c.lora_targets & bit) ? 1 : 0;
        double stored = 0, biggest_full = 0;
        int layers = 0;
        for (std::size_t v = 0; v < nv; ++v) {
            if (counts[v] == 0) continue;
            stored += counts[v] * train_bytes[v];
            layers += counts[v];
            st.act_per_layer = std::max(st.act_per_layer, train_bytes[v]);
            if (c.recompute == Recompute::full) biggest_full = std::max(biggest_full, train_full[v]);
        }
        stored += layers * r.act_bytes * sb * c.lora_rank * modules;
        // Full recomputation rebuilds one layer at a time in backward; while it runs, that layer
        // holds its activations and their gradients, which are as large again.
        double per_mb = stored;          // held per micro-batch in flight
        double acts = 2.0 * biggest_full;   // held once
        acts += ring_attention_buffer_bytes(r, counts, nv);
        if (first) per_mb += r.act_bytes * sb * a.hidden * rep;   // embedding output
        if (last && a.kind != ArchKind::encoder) {
            // Final norm input and head input, then the loss over the logits, vocab-parallel
            // over tp: the head's output (compute dtype), its fp32 copy for the loss
            // (transformers ForCausalLMLoss: logits.float()), the fp32 log-softmax kept for
            // backward, and in backward its fp32 gradient and the logits' gradient:
            // 2 + 4 + 4 + 4 + 4 = 18 bytes per logit in bf16. Unsloth's published Hugging
            // Face + FA2 QLoRA limits for Llama 3.1 8B (932 to 28,454 tokens on 12 to 80 GB)
            // rise by 2.47 MB per token; this accounting gives 2.6 MB (tests/validation).
            acts += 2.0 * r.act_bytes * sb * a.hidden * rep;
            acts += sb * double(a.vocab) * (r.act_bytes + 16.0) / r.par.tp;
        }
        if (c.mode == Mode::qlora) {
            // bitsandbytes dequantizes one weight at a time to the compute dtype for the matmul.
            const LayerParams& p = r.counts->layer(a, r.variants[0].rep);
            const double biggest = std::max({p.attn_q, p.attn_o, p.mlp_up / 2.0, p.mlp_down, p.expert_up / 2.0});
            acts += biggest / r.par.tp * r.act_bytes;
        }
        st.act_inflight = per_mb;
        st.act_once = acts;
        m.activations = inflight * per_mb + acts;
    }

    if (r.training) training_state(r, st, trainable);

    // Runtime overhead.
    st.overhead.cuda_context = r.gpu->segment == Segment::apple ? 0.0 : rt.cuda_context;   // Metal has no CUDA context
    if (r.gpu->measured_cuda_context_bytes > 0 && rt.cuda_context > 0)
        st.overhead.cuda_context = r.gpu->measured_cuda_context_bytes;   // gpusizer-cuda-bench
    if (r.runtime == Runtime::pytorch) {
        // One NCCL communicator per group: tp, pp, dp (with cp folded in) and the cp ring.
        const int comms = (r.par.tp > 1) + (pp > 1) + (r.par.dp * r.par.cp > 1) + (r.par.cp > 1);
        st.overhead.communicator_buffers = comms * rt.comm_buffers;
        st.overhead.runtime_buffers += st.overhead.communicator_buffers;
        st.overhead.allocator_reserve = rt.allocator_fraction * (m.activations + m.kv_cache + m.gradients);
    } else if (r.runtime == Runtime::vllm) {
        // vLLM's budget (gpu_memory_utilization x total) holds the weights, the profiled activation
        // peak, the non-torch memory and the KV pool; what it does not hold sits in the headroom:
        // the CUDA context from 0.10 (measured before the profile's baseline; V0 counted it as its
        // non-torch memory: 0.35 GiB on one RTX 3090, vllm issue 10517, so no separate allowance
        // on one GPU there), and the CUDA graphs before 0.21.
        const bool parallel = r.par.tp > 1 || pp > 1 || r.par.dp > 1;
        const bool v0 = r.engine_version && r.engine_version->context_in_budget;
        const bool graphs_in = r.engine_version && r.engine_version->graphs_in_budget;
        const double graphs = cuda_graph_bytes(r);
        st.overhead.runtime_buffers += (parallel ? kVllmNonTorchParallel : (v0 ? 0.0 : kVllmNonTorchSingle)) + graphs;
        st.outside_budget = (v0 ? 0.0 : st.overhead.cuda_context) + (graphs_in ? 0.0 : graphs);
    } else if (r.runtime == Runtime::sglang || r.runtime == Runtime::trt_llm) {
        // The same NCCL / custom all-reduce buffers and CUDA graph pools as vLLM (its logged
        // figures, above); SGLang keeps activations and graphs in its (1 - mem_fraction_static)
        // reserve, TensorRT-LLM in the (1 - free_gpu_memory_fraction) of free memory.
        const bool parallel = r.par.tp > 1 || pp > 1 || r.par.dp > 1;
        const double graphs = cuda_graph_bytes(r);
        st.non_torch = parallel ? kVllmNonTorchParallel : kVllmNonTorchSingle;
        st.overhead.runtime_buffers += st.non_torch + graphs;
        st.outside_budget = m.activations + graphs;
    }
    m.overhead = st.overhead.cuda_context + st.overhead.allocator_reserve + st.overhead.runtime_buffers;
    return st;
}

}  // namespace

// The per-sequence cache of one GPU of stage `s` by layer kind (the sum stage_estimate puts in
// kv_cache, split out of the hot loop: sweeps and fits never ask for it).
CacheDetail cache_detail(const Resolved& r, int s) {
    CacheDetail d;
    if (r.training) return d;
    const std::uint16_t* counts = r.stage_count(s);
    const double seqs = r.sequences_per_gpu();   // as stage_estimate()
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
        if (counts[v] == 0) continue;
        const LayerVariant& lv = r.variants[v];
        const double n = counts[v];
        const double tokens = double(variant_cached_tokens(r, lv, r.config->context));
        const double kv = n * seqs * lv.kv_values_gpu * r.kv->bytes * tokens;
        double* by_kind[4] = {&d.full, &d.sliding, &d.chunked, &d.mla};
        *by_kind[lv.cache_slot] += kv;
        d.indexer += n * seqs * lv.indexer_bytes * tokens;
        d.recurrent_state += n * seqs * lv.state_bytes_gpu;
    }
    return d;
}

namespace {

// vLLM V1's hybrid KV cache manager: the tokens a pool of `pool` bytes holds for a stage whose
// layers are either attention (a K/V bytes a token, per layer) or recurrent (s bytes of state a
// sequence, per layer), at a max_model_len of `context`; the concurrency through `requests`.
// Every layer's page is one size (kv_cache_utils.py unify_kv_cache_spec_page_size): the attention
// block grows in steps of the kernel's 16 tokens until its page holds a state (config.py
// HybridAttentionMambaModelConfig), and the state's page is padded to it. Layers go into groups of
// the smaller type's count (the larger's when it is under 1.5x: _get_kv_cache_groups_uniform_page_size),
// one block of each group's tensors a page x group size. A request may take ceil(context / block)
// pages in an attention group and, with prefix caching on (V1's default: mamba_cache_mode "align"),
// 2 in a state group (kv_cache_interface.py MambaSpec.max_memory_usage_bytes); the log's "GPU KV cache
// size" is blocks / pages per request x max_model_len (_report_kv_cache_config). Checked to the token
// on two logs: Qwen3.6-35B-A3B on an RTX 5090 (299 blocks of 2,096 tokens, 69 a request: 567,978)
// and a Qwen3.5-shaped 27B at tp 2 (208 blocks of 1,568, 90 a request: 302,921).
constexpr double kVllmKernelBlockAlignment = 16;   // FlashAttention's block-size multiple
constexpr double kVllmAlignStatePages = 2;         // MambaSpec in "align" mode: the state and its cached copy
// _get_kv_cache_groups_uniform_page_size: the group takes the larger kind's count when it is under
// this many times the smaller's (fewer, larger groups with little padding), else the smaller's.
constexpr double kVllmGroupSizeRatio = 1.5;

// A stage's layers that cache K/V for every token and those that hold a fixed recurrent state.
// Per layer, one GPU: the K/V bytes a token adds, one sequence's state; -1 where the stage's layers
// of a kind differ (a window, an indexer, a layer with both), which leaves the plain division.
// Read only for a hybrid stack in vLLM V1, out of the estimate's hot loop.
struct HybridLayers {
    int kv_layers = 0, state_layers = 0;
    double kv_layer_rate = 0, state_layer_bytes = 0;
};

void same_or_mixed(double& slot, double value) {
    if (slot == 0) slot = value;
    else if (slot != value) slot = -1;
}

[[gnu::noinline]] HybridLayers hybrid_layers(const Resolved& r, int s) {
    HybridLayers h;
    const std::uint16_t* counts = r.stage_count(s);
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
        if (counts[v] == 0) continue;
        const LayerVariant& lv = r.variants[v];
        const double bytes = lv.kv_values_gpu * r.kv->bytes + lv.indexer_bytes;
        if (bytes > 0) {
            h.kv_layers += counts[v];
            same_or_mixed(h.kv_layer_rate, lv.kv_cap == 0 && lv.indexer_bytes == 0 && lv.state_bytes_gpu == 0 ? bytes : -1.0);
        }
        if (lv.state_bytes_gpu > 0) {
            h.state_layers += counts[v];
            same_or_mixed(h.state_layer_bytes, bytes == 0 ? lv.state_bytes_gpu : -1.0);
        }
    }
    return h;
}

double vllm_hybrid_tokens(double pool, const HybridLayers& st, double context, double* requests) {
    const double a = st.kv_layer_rate, s = st.state_layer_bytes;
    const double block = kVllmKernelBlockAlignment * std::ceil(s / (kVllmKernelBlockAlignment * a));
    const double page = std::max(block * a, s);
    const int fewer = std::min(st.kv_layers, st.state_layers), more = std::max(st.kv_layers, st.state_layers);
    const int group = double(more) < kVllmGroupSizeRatio * double(fewer) ? more : fewer;
    const double attention_groups = std::ceil(double(st.kv_layers) / group);
    const double state_groups = std::ceil(double(st.state_layers) / group);
    const double blocks = std::floor(std::max(0.0, pool) / (page * group));
    const double per_request = attention_groups * std::ceil(context / block) + state_groups * kVllmAlignStatePages;
    *requests = blocks / per_request;
    return std::floor(*requests * context);
}

}  // namespace

Totals compute(const Resolved& r) {
    const Config& c = *r.config;
    Totals t;

    // Training activations per variant (they depend on context and batch). Only the variants'
    // entries are read: they are the ones set (a 64-entry clear was 1% of an estimate).
    std::array<double, kMaxVariants> train_bytes, train_full;
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
        train_bytes[v] = r.training ? train_layer_bytes(r, r.variants[v].rep, c.recompute) : 0.0;
        train_full[v] = r.training && c.recompute == Recompute::full ? train_layer_bytes(r, r.variants[v].rep, Recompute::none) : 0.0;
    }

    // Stages: layers split evenly, the most loaded GPU reported.
    const int pp = r.par.pp;
    double worst_total = -1;
    double min_kv_room = -1;
    const double capacity = r.gpu->capacity_bytes();
    t.capacity = capacity;
    double usable = capacity;
    if (r.runtime == Runtime::vllm) usable = c.gpu_memory_utilization * capacity;
    double outside = 0;
    const KvBudget kv_budget = r.engine_version ? r.engine_version->budget : KvBudget::whole_gpu;
    // The engine's fraction: the key when given (resolve() refuses it on another engine), else the
    // default: SGLang's by GPU memory and tp x pp (computed here, from the GPU bound now: sweeps
    // rebind it), TensorRT-LLM's by version.
    double engine_fraction = 0;
    if (kv_budget == KvBudget::static_fraction)
        engine_fraction = c.mem_fraction_static.value_or(0.0) > 0
                              ? *c.mem_fraction_static
                              : sglang_mem_fraction_static(*r.engine_version, sglang_reserve_inputs(c, capacity / kMiB, r.par.tp, r.par.pp));
    else if (kv_budget == KvBudget::free_fraction)
        engine_fraction = c.free_gpu_memory_fraction.value_or(0.0) > 0 ? *c.free_gpu_memory_fraction : r.engine_version->fraction;
    t.engine_fraction = engine_fraction;
    double engine_usable = usable, worst_total_seen = -1;
    // vLLM with --kv-cache-memory-bytes: the pool given, not left of gpu_memory_utilization.
    const bool kv_given = kv_budget == KvBudget::total_fraction && c.kv_cache_memory_bytes.value_or(0.0) > 0;
    for (int s = 0; s < pp; ++s) {
        const Stage st = stage_estimate(r, s, train_bytes, train_full);
        const double total = st.parts.total();
        if (total > worst_total) {
            worst_total = total;
            t.per_gpu = st.parts;
            t.worst_stage = s;
            t.overhead = st.overhead;
            t.act_per_layer = st.act_per_layer;
        }
        t.host += st.host;
        outside = std::max(outside, st.outside_budget);
        // What the engine lets this stage's GPUs use, and of it the pool for the growing cache and
        // the recurrent state (everything but the KV cache placed first).
        const double non_kv = total - st.parts.kv_cache;
        double stage_usable = usable, pool = 0;
        switch (kv_budget) {
            case KvBudget::total_fraction:
                if (kv_given) {
                    // vLLM --kv-cache-memory-bytes: the pool as given (gpu_worker.py: the profile's
                    // budget is not computed); it sits beside the model, context and graphs, and
                    // what of it the GPU lacks is the shortfall.
                    pool = *c.kv_cache_memory_bytes;
                    const double room = capacity - non_kv - pool;
                    stage_usable = room >= 0 ? non_kv + pool : total + room;
                    break;
                }
                // vLLM's budget: utilization x capacity, plus the context and CUDA graphs it keeps
                // in the (1 - utilization) headroom.
                stage_usable = usable + std::min(st.outside_budget, (1.0 - c.gpu_memory_utilization) * capacity);
                pool = stage_usable - non_kv;
                break;
            case KvBudget::static_fraction: {
                // SGLang: mem_fraction_static of what is free before loading (capacity less the
                // context and NCCL) holds the weights and the pool (model_runner.py
                // profile_max_num_token: rest = available - total x (1 - mem_fraction_static));
                // activations and CUDA graphs live in the rest.
                const double before_load = capacity - st.overhead.cuda_context - st.non_torch;
                pool = engine_fraction * before_load - st.parts.weights;
                stage_usable = engine_fraction * before_load + st.overhead.cuda_context + st.non_torch +
                               std::min(st.outside_budget, (1.0 - engine_fraction) * before_load);
                break;
            }
            case KvBudget::free_fraction:
                // TensorRT-LLM: free_gpu_memory_fraction of what is free once the weights,
                // activations, context and buffers are placed.
                pool = engine_fraction * (capacity - non_kv);
                stage_usable = non_kv + pool;
                break;
            case KvBudget::fit_margin:
                // llama.cpp's --fit sizes the context to leave its margin free on each device; the
                // configuration still fits up to the device's capacity.
                pool = capacity - r.engine_version->fit_margin - non_kv;
                break;
            case KvBudget::whole_gpu: pool = usable - non_kv; break;
        }
        if (kv_budget == KvBudget::static_fraction || kv_budget == KvBudget::free_fraction || kv_given) {
            if (s == 0 || total > worst_total_seen) engine_usable = stage_usable;
        }
        worst_total_seen = std::max(worst_total_seen, total);
        if (st.kv_rate > 0) {
            // vLLM V1 pages a hybrid stack's recurrent state and K/V alike (vllm_hybrid_tokens); V0
            // (the versions that count the context inside the budget) kept the state apart.
            HybridLayers hybrid;
            if (st.state > 0 && r.runtime == Runtime::vllm && r.engine_version && !r.engine_version->context_in_budget)
                hybrid = hybrid_layers(r, s);
            const bool hybrid_pages = hybrid.state_layers > 0 && hybrid.kv_layer_rate > 0 && hybrid.state_layer_bytes > 0;
            double requests = 0;
            const double room =
                hybrid_pages ? vllm_hybrid_tokens(pool, hybrid, double(c.context), &requests) : (pool - st.state) / st.kv_rate;
            if (min_kv_room < 0 || room < min_kv_room) {
                min_kv_room = room;
                t.kv_pool_bytes = std::max(0.0, pool);
                t.kv_stage = s;
                // Sequences of `context` tokens the pool holds (vLLM: "Maximum concurrency for L
                // tokens per request"): the pool over one sequence's cache and state.
                const double per_seq = c.batch > 0 ? st.parts.kv_cache / c.batch : 0.0;
                t.max_concurrency = hybrid_pages ? requests : per_seq > 0 ? std::max(0.0, pool) / per_seq : 0.0;
            }
        }
    }
    if (r.runtime == Runtime::vllm) usable += std::min(outside, (1.0 - c.gpu_memory_utilization) * capacity);
    if (kv_budget == KvBudget::static_fraction || kv_budget == KvBudget::free_fraction || kv_given) usable = engine_usable;
    t.outside_budget = outside;
    t.usable = usable;
    t.headroom = usable - t.per_gpu.total();
    t.fits = t.headroom >= 0;
    t.kv_capacity_tokens = min_kv_room > 0 ? std::floor(min_kv_room) : 0.0;
    return t;
}

StageSums stage_sums(const Resolved& r) {
    std::array<double, kMaxVariants> train_bytes, train_full;   // the variants' entries are set, and read
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
        train_bytes[v] = r.training ? train_layer_bytes(r, r.variants[v].rep, r.config->recompute) : 0.0;
        train_full[v] =
            r.training && r.config->recompute == Recompute::full ? train_layer_bytes(r, r.variants[v].rep, Recompute::none) : 0.0;
    }
    StageSums out;
    for (int s = 0; s < r.par.pp; ++s) {
        const Stage st = stage_estimate(r, s, train_bytes, train_full);
        out.total += st.parts.total();
        out.layer_bytes += st.layer_bytes;
        out.expert_bytes += st.expert_bytes;
    }
    return out;
}

TrainStageTerms train_stage_terms(const Resolved& r, int s) {
    std::array<double, kMaxVariants> train_bytes{}, train_full{};
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
        train_bytes[v] = train_layer_bytes(r, r.variants[v].rep, r.config->recompute);
        train_full[v] = r.config->recompute == Recompute::full ? train_layer_bytes(r, r.variants[v].rep, Recompute::none) : 0.0;
    }
    const Stage st = stage_estimate(r, s, train_bytes, train_full);
    TrainStageTerms t;
    t.params = st.params;
    t.weights = st.dtype_weights;
    t.block_params = st.block_params;
    t.act_inflight = st.act_inflight;
    t.act_once = st.act_once;
    t.cuda_context = st.overhead.cuda_context;
    return t;
}

// What a user should know about the memory figures (string building only when one fires).
[[gnu::noinline]] void memory_warnings(const Resolved& r, Report& rep, double capacity, double outside) {
    const ModelArch& a = *r.arch;
    const Config& c = rep.config;
    if (!c.model.import_warnings.empty()) rep.warnings = c.model.import_warnings;
    if (!r.engine_version_note.empty()) rep.warnings.push_back(r.engine_version_note);
    auto gib = [](double b) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f GiB", b / kGiB);
        return std::string(buf);
    };
    auto fmt_fraction = [](double f) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", f);
        return std::string(buf);
    };
    if (a.max_context > 0 && c.context > a.max_context)
        rep.warnings.push_back("context " + std::to_string(c.context) + " exceeds " + rep.model_name +
                               "'s trained maximum of " + std::to_string(a.max_context) +
                               " tokens: memory is estimated, quality past it is not guaranteed");
    if (a.kind == ArchKind::encoder) rep.warnings.push_back(rep.model_name + " is encoder-only: no KV cache");
    bool any_mla = false;
    for (const LayerSpec& l : a.kinds) any_mla = any_mla || l.attn.kind == AttnKind::mla;
    if (any_mla && r.runtime == Runtime::pytorch && !r.training)
        rep.warnings.push_back("transformers caches MLA keys and values decompressed (" +
                               gib(rep.kv_bytes_per_token * 1024.0) +
                               " per 1k tokens); vLLM, SGLang and llama.cpp cache the compressed latent");
    if (r.runtime == Runtime::vllm) {
        const double headroom = (1.0 - c.gpu_memory_utilization) * capacity;
        if (outside > headroom)
            rep.warnings.push_back("vLLM keeps the CUDA context and CUDA graphs (" + gib(outside) +
                                   ") outside gpu_memory_utilization, which leaves only " + gib(headroom) +
                                   ": lower gpu_memory_utilization or run with --enforce-eager");
        if (!c.flash_attention) rep.warnings.push_back("vLLM always uses its own paged/flash attention: flash_attention=false is ignored");
        if (!r.training && rep.kv_capacity_tokens < double(c.context))
            rep.warnings.push_back("vLLM refuses to start when its KV pool (" + std::to_string((long long)rep.kv_capacity_tokens) +
                                   " tokens) cannot hold one full context of " + std::to_string(c.context) + " tokens");
    }
    // TensorRT-LLM's attention DP: its memory is modelled from its code; its step time measures
    // 1.6-2.1x gpusizer's on the three published DeepSeek-R1 runs (accuracy rows trtllm-dsr1-*).
    if (r.runtime == Runtime::trt_llm && r.dp_attn > 1 && !r.training)
        rep.warnings.push_back("TensorRT-LLM attention DP: the throughput is optimistic (TensorRT-LLM's published DeepSeek-R1 runs "
                               "measured 1.6-2.1x gpusizer's step; docs/accuracy.md); the memory and KV pool are as the engine sizes them");
    // vLLM allocates a --kv-cache-memory-bytes pool as given: beside the model it can exceed the GPU.
    if (r.runtime == Runtime::vllm && !r.training && c.kv_cache_memory_bytes.value_or(0.0) > 0 && !rep.fits)
        rep.warnings.push_back("kv_cache_memory_bytes " + gib(*c.kv_cache_memory_bytes) + " of KV pool does not fit beside the model on the " +
                               gib(capacity) + " GPU: vLLM fails to allocate it; give a smaller kv_cache_memory_bytes");
    // SGLang refuses to start when its fraction holds no pool beside the weights
    // (python/sglang/srt/model_executor/model_runner.py: max_total_num_tokens <= 0 raises this).
    if (r.runtime == Runtime::sglang && !r.training && rep.kv_capacity_tokens <= 0)
        rep.warnings.push_back(
            "SGLang stops at startup (\"Not enough memory. Please try to increase --mem-fraction-static.\"): "
            "mem_fraction_static " +
            fmt_fraction(c.mem_fraction_static.value_or(0.0)) + " leaves no KV pool beside the " + gib(rep.per_gpu.weights) +
            " of weights per GPU");
    if (r.runtime == Runtime::none)
        rep.warnings.push_back(
            "runtime none counts the model's tensors only; a real runtime adds its CUDA context and buffers (0.3-2 GiB)");
    if (r.runtime == Runtime::pytorch && r.training && r.gpu->vendor == "apple")
        rep.warnings.push_back("training on Apple GPUs runs through PyTorch MPS: bitsandbytes and DeepSpeed are not available there");
    // Gaudi: the engines' figures are their CUDA builds' (context, reserves, step time); Intel's
    // Gaudi software (the vllm-gaudi plugin, the PyTorch bridge, HPU graphs) is not modelled.
    if (r.gpu->arch == Architecture::gaudi && r.runtime != Runtime::none)
        rep.warnings.push_back(std::string(to_string(r.engine)) + " on " + r.gpu->name +
                               " runs through Intel's Gaudi software (the vllm-gaudi plugin / the PyTorch Gaudi bridge): the "
                               "estimate applies the engine's CUDA-build memory reserves and speed model, with the Gaudi's "
                               "memory, bandwidth and MME rates");
    if (c.zero > 0 && r.par.dp * r.par.cp == 1)
        rep.warnings.push_back("ZeRO shards over data-parallel ranks; with dp = 1 it saves nothing");
}

// Copy-constructs the configuration (a default-constructed Report's Config, assigned, costs a
// third more); every other member takes its default member initializer (Report's constructor).
Report report_for(const Config& config) { return Report(config); }

Report estimate_resolved(const Resolved& r) {
    Report rep = report_for(*r.config);
    fill_report(r, rep);
    return rep;
}

void fill_report(const Resolved& r, Report& rep) {
    const ModelArch& a = *r.arch;
    // rep.config is r's configuration itself (estimate()) or a copy of it: the defaults set in
    // it below are set after the last formula that reads them through r.
    const Config& c = rep.config;
    rep.parallel = r.par;
    // Strings are assigned in place (a conditional of two kinds would copy into a temporary).
    if (!r.catalog_model && a.name.empty()) rep.model_name = "custom model";
    // Names come from files and links (a GGUF's general.name, a custom GPU's n=): no NUL or
    // bidirectional control reaches a page's title or status line (QA E11).
    else if (is_printable_text(a.name))
        rep.model_name = a.name;
    else
        rep.model_name = printable_text(a.name);
    if (is_printable_text(r.gpu->name)) rep.gpu_name = r.gpu->name;
    else rep.gpu_name = printable_text(r.gpu->name);
    rep.gpu_vendor = r.gpu->vendor;
    if (r.catalog_model) rep.hf_repo = r.catalog_model->hf_repo;
    rep.gpu_engines = engines_on_gpu(*r.gpu);
    if (r.checkpoint_format) rep.checkpoint_format = r.checkpoint_format->id;
    rep.measured = r.gpu->calibration;
    if (r.own_gpu && r.gpu == &r.own_gpu->gpu) rep.custom_gpu = r.own_gpu;

    const double scale = r.scale;
    rep.params = r.total_params * scale;
    rep.active_params = r.counts->active(a) * scale;
    rep.active_convention = a.is_moe() ? a.active_convention : ActiveConvention::all;
    const ParamParts& parts = r.counts->parts;
    rep.params_by_part = {parts.text * scale, parts.vision, parts.audio, parts.mtp * scale, parts.embeddings};

    // Whole-model figures (no parallel split).
    double model_bytes = 0, lora_total = 0, kv_values = 0, indexer_bytes = 0, state_bytes = 0;
    for (const LayerVariant& v : r.variants) {
        model_bytes += v.count * v.whole.weight_bytes;
        lora_total += v.count * v.lora_params;
        kv_values += v.count * v.kv_values_whole;
        indexer_bytes += v.count * v.indexer_bytes;
        state_bytes += v.count * v.state_bytes_whole;
    }
    const EdgeWeights& e1 = r.edges_whole;
    model_bytes += e1.embedding_bytes + e1.positions_bytes + (e1.head_is_duplicate ? 0.0 : e1.head_bytes) + e1.other_bytes;
    // A model read from a file: the bytes its text stack stores (vision and MTP blocks apart).
    if (!r.file_layers.empty()) model_bytes = a.file.total - a.file.vision - a.file.beyond_stack;
    rep.weights_bits_per_param = model_bytes * 8.0 / r.total_params;
    set_text(rep.weights_scheme.source, r.native_weights ? "checkpoint" : "config");
    set_text(rep.weights_scheme.format, r.wf->id);
    if (r.native_weights) rep.weights_scheme.method = a.native_method;
    if (r.wf->family != WeightFamily::gguf) {
        const WeightScheme& s = r.scheme;
        WeightsSchemeReport& w = rep.weights_scheme;
        w.class_bits = true;
        w.attention_bits = scheme_class_bits(s, SchemeClass::attention);
        w.mlp_bits = scheme_class_bits(s, SchemeClass::mlp);
        w.shared_expert_bits = scheme_class_bits(s, SchemeClass::shared_expert);
        w.routed_expert_bits = scheme_class_bits(s, SchemeClass::routed_expert);
        w.router_bits = scheme_class_bits(s, SchemeClass::router);
        w.embedding_bits = r.edges_whole.embedding_params > 0 ? r.edges_whole.embedding_bytes * 8.0 / r.edges_whole.embedding_params
                                                              : scheme_class_bits(s, SchemeClass::embedding);
        w.lm_head_bits = scheme_class_bits(s, SchemeClass::lm_head);
        w.other_bits = s.float_bits;
    }
    // Per token: what grows with the context (attention K/V, uncapped by windows, and indexer
    // keys); per sequence: the recurrent layers' fixed state.
    rep.kv_bytes_per_token = kv_values * r.kv->bytes + indexer_bytes;
    rep.state_bytes_per_sequence = r.training ? 0.0 : state_bytes;
    rep.trainable_params = c.mode == Mode::train ? rep.params : (c.mode == Mode::inference ? 0.0 : lora_total * scale);

    const Totals t = compute(r);
    rep.per_gpu = t.per_gpu;
    rep.cache_detail = cache_detail(r, t.worst_stage);
    rep.overhead_detail = t.overhead;
    rep.activations_per_layer = r.training ? t.act_per_layer : 0.0;
    rep.host = t.host;
    rep.host_experts = r.cpu_moe_host * r.scale;
    rep.gpu_capacity = t.capacity;
    rep.gpu_usable = t.usable;
    rep.headroom = t.headroom;
    rep.fits = t.fits;
    rep.kv_capacity_tokens = t.kv_capacity_tokens;
    rep.memory_kv_pool_bytes = t.kv_pool_bytes;
    const double capacity = t.capacity, outside = t.outside_budget;

    // Speed, communication and power: arithmetic on what is resolved above.
    // (The same configuration over the other kind of link is alternative_link()'s job: it costs a
    // second evaluation that an estimate, called thousands of times by sweeps and UIs, skips.)
    const PerfInputs in = perf_inputs(r);
    const Fabric fabric = fabric_of(r);
    PerfOut po{rep.interconnect, rep.speed, rep.power};
    evaluate_performance(r, in, t, fabric, po);
    // One replica: under data-parallel attention, its dp_attn groups each hold a pool like this GPU's.
    rep.serving.max_concurrency = t.max_concurrency * r.dp_attn;
    if (c.isl > 0 && !r.training) {
        const ServingModel sm = serving_model(r, in, t, fabric, po);
        const double keep = rep.serving.max_concurrency;
        rep.serving = c.request_rate > 0 ? serving_at_rate(sm, double(c.isl), double(c.osl), c.request_rate)
                                         : serving_at(sm, double(c.isl), double(c.osl), double(c.concurrency));
        rep.serving.max_concurrency = keep;
        if (rep.serving.active && rep.serving.wall_w > 0) serving_power(po, rep.serving, c.gpus);
    }
    // What the run loses beyond its steps, before the run's cost is priced on the wall time.
    if (r.training) train_goodput(c, r.fp32, a.hidden, rep);
    evaluate_cost(r, rep);
    // The concurrency that runs when none was asked: what the engines hold, their pools and their
    // caps on sequences (the report's configuration names every default it resolved; an open
    // loop's rate stays the question).
    if (c.concurrency == 0 && c.request_rate == 0 && !r.training) {
        const double cap = engine_sequence_cap(r, t);
        const double per_replica = std::floor(rep.serving.max_concurrency);
        const double held = rep.serving.active ? rep.serving.concurrency : (cap > 0 ? std::min(per_replica, cap) : per_replica) * r.par.dp;
        rep.config.concurrency = int(std::clamp(held, 0.0, double(1 << 24)));
    }
    rep.config.mfu = po.mfu;
    if (c.fp8_gemm_efficiency <= 0) rep.config.fp8_gemm_efficiency = kFp8GemmEfficiency;   // used by fp8_training only
    rep.config.bandwidth_efficiency = po.bandwidth_efficiency;
    rep.config.pue = po.pue;
    rep.config.psu_rating_w = rep.power.psu_capacity_w;
    set_text(rep.config.psu_tier, rep.power.psu_tier);
    // The GPU's price the costs used, as the key that gives it back (null: not known). The rent
    // stays as given: the catalog's median comes with its rows' range and date, which a price
    // written back would lose.
    if (rep.cost.gpu_price_known) rep.config.gpu_usd = rep.cost.gpu_usd;
    set_link_id(rep.config.link, fabric.intra);
    set_link_id(rep.config.inter_node_link, fabric.inter);
    rep.config.prompt_tokens = (long long)in.prompt_tokens;
    rep.config.host_memory_bandwidth_gb_per_s = po.host_bandwidth / 1e9;
    // The default goes back in whole nanoseconds so that 90e-6 s reads 90, not 89.99999999999999.
    if (!rep.config.layer_overhead_us) rep.config.layer_overhead_us = std::round(po.layer_overhead * 1e9) / 1e3;
    if (!rep.config.seq_overhead_us && !r.training)
        rep.config.seq_overhead_us = r.engine_version ? std::round(r.engine_version->seq_overhead_s * 1e9) / 1e3 : 0.0;
    // The engine's memory fraction as compute() used it: the key as given, else the engine's default.
    if (r.runtime == Runtime::sglang) rep.config.mem_fraction_static = t.engine_fraction;
    if (r.runtime == Runtime::trt_llm) rep.config.free_gpu_memory_fraction = t.engine_fraction;
    if (!r.training) rep.engine_max_sequences = serving_max_sequences(r);

    memory_warnings(r, rep, capacity, outside);
    performance_warnings(r, rep);
}

}  // namespace detail

LinkTimes alternative_link(const Config& config, const Catalog& catalog) {
    return detail::alternative_of(detail::resolve(config, catalog));
}

LinkTimes detail::alternative_of(const detail::Resolved& r) {
    LinkTimes lt;
    const Catalog& catalog = *r.catalog;
    if (r.config->gpus < 2 || catalog.links.empty()) return lt;
    const detail::Fabric fabric = detail::fabric_of(r);
    const detail::Fabric alt = detail::alternative_fabric(*r.gpu, catalog, fabric);
    if (alt.levels == 0 || !alt.intra) return lt;
    const detail::Totals t = detail::compute(r);
    const detail::PerfInputs in = detail::perf_inputs(r);
    detail::PerfBuffers buf;
    detail::evaluate_performance(r, in, t, fabric, buf.out, detail::EvalLevel::numbers, nullptr, &alt, &lt);
    lt.link = alt.intra->id;
    lt.hypothetical = alt.hypothetical;
    return lt;
}

Report estimate(const Config& config, const Catalog& catalog) {
    Report rep = detail::report_for(config);   // the one copy of the configuration: resolved in place
    const detail::Resolved r = detail::resolve_in_place(rep.config, catalog);
    detail::fill_report(r, rep);
    detail::kv_sensitivity(config, catalog, nullptr, rep);
    return rep;
}

}  // namespace gpusizer
