// performance.cpp: speed, communication and power of a configuration.
//
// [SECTION] Model-side inputs: bytes read and FLOPs per token, communication volumes
// [SECTION] Inference: decode (memory-bound roofline), prefill, llama.cpp partial offload
// [SECTION] Training: FLOPs at the MFU, pipeline bubble, TP / PP / EP / DP communication
// (Power, energy and the draw at the wall: power/power.cpp.)
//
// Units: bytes, seconds, FLOP, watts, as double. Constants and their sources are in
// performance.hpp and interconnect.hpp; docs/formulas.md collects them.
#include "performance.hpp"
#include "power/power.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "runtime_profiles.hpp"
#include "training/frameworks.hpp"

namespace gpusizer::detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] Model-side inputs
// ---------------------------------------------------------------------------------------------

namespace {

// Average attended positions of a causal prefill of p tokens under a window w: the mean of
// min(t, w) for t in [1, p].
double causal_average(double p, double w) {
    if (p <= 0) return 0;
    if (w <= 0 || p <= w) return (p + 1.0) / 2.0;
    return w - (w * w - w) / (2.0 * p);   // (w(w+1)/2 + (p - w) w) / p
}

}  // namespace

PerfInputs perf_inputs(const Resolved& r) {
    const ModelArch& a = *r.arch;
    const Config& c = *r.config;
    PerfInputs in;
    const double scale = r.scale;
    const double ctx = double(c.context);
    in.prompt_tokens = c.prompt_tokens > 0 ? double(std::min<long long>(c.prompt_tokens, c.context)) : std::max(1.0, std::floor(ctx / 2.0));
    // Decode runs from the end of the prompt to the end of the context: its average KV length.
    in.decode_avg_len = (in.prompt_tokens + ctx) / 2.0;

    double matmul = 0, kv_per_seq = 0, attn_prefill = 0, attn_decode = 0, attn_train = 0, whole_bytes = 0, lora = 0, experts = 0;
    double moe_fwd = 0;   // a training forward's FLOPs per token in the MoE layers (2 x params + attention)
    for (const LayerVariant& v : r.variants) {
        const double n = v.count;
        const bool is_moe = a.kinds[std::size_t(v.kind)].is_moe();
        if (is_moe) moe_fwd += 2.0 * n * v.whole.active_params * scale;
        in.kv_act_bytes_per_token += n * v.kv_values_gpu * r.act_bytes;
        in.layer_weight_bytes += n * v.on_gpu.weight_bytes * scale;
        in.layer_expert_bytes += n * v.on_gpu.expert_weight_bytes * scale;
        whole_bytes += n * v.whole.weight_bytes * scale;
        matmul += n * v.whole.active_params * scale;
        experts += n * v.whole.expert_active_params * scale;
        lora += n * v.lora_params * scale;
        const LayerSpec& l = a.kinds[std::size_t(v.kind)];
        const AttentionSpec& at = l.attn;
        // Decode reads each sequence's cache: K/V (and indexer keys) at the average length, and
        // the recurrent layers' whole state, read and written once per token.
        kv_per_seq += n * (v.kv_values_gpu * r.kv->bytes + v.indexer_bytes) *
                      double(variant_cached_tokens(r, v, (long long)std::ceil(in.decode_avg_len)));
        kv_per_seq += n * 2.0 * v.state_bytes_gpu;
        // A recurrent layer's state update costs about 2 FLOPs per state element per token
        // (decay and rank-1 update, then the read-out), beside its 2 x params of projections.
        if (v.state_bytes_whole > 0) matmul += n * v.state_bytes_whole * scale / (r.fp32 || r.runtime == Runtime::llama_cpp ? 4.0 : 2.0);
        if (at.kind == AttnKind::none) continue;
        // Attention FLOPs per attended position: Q.K^T (2 H d_qk) and P.V (2 H d_v).
        const double d_qk = at.kind == AttnKind::mla ? double(at.qk_nope_head_dim + at.qk_rope_head_dim) : double(at.head_dim);
        double per_pos = 2.0 * at.n_heads * (d_qk + at.v_head_dim);
        // MLA decodes in its absorbed form: W_UK folded into the query and W_UV applied after, the
        // heads attend as MQA over the cached latent, QK head dim Lkv + R and V head dim Lkv (vLLM
        // mla_attention.py, "Data-Movement Friendly Approach (forward_mqa)", used for decode; SGLang's
        // forward_absorb and TensorRT-LLM's generation kernels alike); prompts decompress K and V
        // (forward_mha). transformers caches them decompressed and decodes that way too.
        const bool absorbed = at.kind == AttnKind::mla && at.kv_lora_rank > 0 && r.runtime != Runtime::pytorch;
        double per_pos_decode = absorbed ? 2.0 * at.n_heads * (2.0 * at.kv_lora_rank + at.qk_rope_head_dim) : per_pos;
        if (l.cross_attention) {   // + cross attention
            per_pos *= 2.0;
            per_pos_decode *= 2.0;
        }
        // Sliding layers attend to at most W positions; chunked layers to at most C (C/2 on average
        // over a long sequence, counted as W here: an upper bound).
        const double w = (at.kind == AttnKind::sliding || at.kind == AttnKind::chunked) ? double(at.window) : 0.0;
        in.attn_flops_per_position += n * per_pos;
        in.attn_decode_flops_per_position += n * per_pos_decode;
        attn_prefill += n * per_pos * causal_average(in.prompt_tokens, w);
        attn_decode += n * per_pos_decode * (w > 0 ? std::min(in.decode_avg_len, w) : in.decode_avg_len);
        attn_train += n * per_pos * (w > 0 ? std::min(ctx, w) : ctx);
        if (is_moe) moe_fwd += n * per_pos * (w > 0 ? std::min(ctx, w) : ctx);
    }
    // Outside the layers: the output head (or the tied table doing its job) and the final norm
    // are read for every token; the input embedding is a lookup of one row.
    const EdgeWeights& e = r.edges;
    const EdgeWeights& e1 = r.edges_whole;
    const bool has_head = a.kind != ArchKind::encoder;
    const bool tied_as_head = has_head && a.tied_embeddings && e.head_bytes == 0;
    in.edge_read_bytes = (e.head_bytes + e.other_bytes + (tied_as_head && !e.embedding_on_host ? e.embedding_bytes : 0.0)) * scale;
    const double head_params = has_head ? (e1.head_params > 0 ? e1.head_params : (a.tied_embeddings ? e1.embedding_params : 0.0)) : 0.0;
    matmul += head_params * scale;
    whole_bytes += (e1.embedding_bytes + e1.positions_bytes + (e1.head_is_duplicate ? 0.0 : e1.head_bytes) + e1.other_bytes) * scale;
    in.matmul_params = matmul;

    // A GPU reads the cache of its own sequences (under data-parallel attention, its group's).
    in.kv_read_bytes_decode = r.sequences_per_gpu() * kv_per_seq;
    const LayerMlpSpec* moe = nullptr;
    for (const LayerSpec& l : a.kinds)
        if (l.is_moe()) { moe = &l.mlp; break; }
    if (moe) {
        // A decode step routes `batch` tokens to k of E experts each: the expected share of experts
        // touched is 1 - (1 - k/E)^batch (one token: k/E, Mixtral 2 of 8).
        const double p = double(moe->experts_per_token) / moe->n_experts;
        in.expert_share = p;
        in.expert_touch_decode = 1.0 - std::pow(1.0 - p, double(c.batch));
        // Tokens each expert on one GPU gets per token of a forward: k / E, times the replicas
        // whose tokens reach it when the experts spread over data-parallel replicas (ep > tp).
        in.expert_tokens_share = p * (r.par.ep > r.par.tp ? double(r.par.ep) / r.par.tp : 1.0);
        in.expert_tile_by_batch = r.runtime == Runtime::llama_cpp;
    }
    for (double moved : r.cpu_moe_stage) in.cpu_moe_gpu_bytes += moved * scale;
    in.cpu_moe_host_bytes = r.cpu_moe_host * scale;
    in.expert_flops_per_token = 2.0 * experts;
    in.prefill_flops_per_token = 2.0 * matmul + attn_prefill;
    in.decode_flops_per_token = 2.0 * matmul + attn_decode;
    in.attn_prefill_flops_per_token = attn_prefill;
    in.attn_decode_flops_per_token = attn_decode;
    in.prefill_tokens = double(c.batch) * in.prompt_tokens;

    in.layers = a.total_layers();
    for (const LayerVariant& v : r.variants)
        if (a.kinds[std::size_t(v.kind)].is_moe()) in.moe_layers += v.count;
    in.experts_per_token = moe ? moe->experts_per_token : 0;
    in.routing = ExpertRouting{in.experts_per_token, a.expert_groups, a.expert_groups_per_token};
    in.hidden = double(a.hidden);
    in.act_bytes = r.act_bytes;
    in.act_bytes_per_token = in.hidden * r.act_bytes;
    if (moe) {
        // Copies of a token one GPU moves: k on a tensor-parallel rank (every expert a slice of it),
        // k / ep where the experts spread, times the replicas whose tokens reach them (ep > tp).
        const double copies = in.experts_per_token * (r.par.ep > r.par.tp ? double(r.par.ep) / r.par.tp : 1.0) / r.par.ep;
        in.moe_route_copies = in.moe_layers * copies;
    }
    in.dispatch_bytes_per_token = r.training && c.fp8_training == Fp8Training::blockwise ? double(a.hidden) * kFp8DispatchBytesPerElement
                                                                                         : in.act_bytes_per_token;

    if (r.training) {
        const Mode m = c.mode;
        in.tokens_per_step = double(c.global_batch) * ctx;
        in.micro_batches = double(r.micro_batches);
        // PaLM (Chowdhery et al. 2022, appendix B): 6N + 12 L H Q T per token, i.e. three times the
        // forward's 2N + attention. Frozen weights (LoRA, QLoRA) skip their weight gradients: 4N.
        const double fwd = 2.0 * matmul + attn_train;
        in.train_attn_flops_per_token = attn_train;
        const double weight_passes = m == Mode::train ? 6.0 : 4.0;
        in.train_model_flops_per_token = weight_passes * matmul + 3.0 * attn_train;
        double exec = in.train_model_flops_per_token;
        // Selective recomputation: Megatron's runs the attention core twice; PyTorch's op-level
        // policy (torchtitan) every second matmul of each block instead (memory.cpp op_sac).
        if (c.recompute == Recompute::selective) exec += op_sac_applies(r) ? 2.0 * op_sac_recomputed_params(r) : attn_train;
        if (c.recompute == Recompute::full) exec += fwd;               // a second forward: 8N for full training
        in.train_exec_flops_per_token = exec;
        // The gradient sync can overlap the backward pass (everything after the first forward);
        // ZeRO-3's gathers also prefetch during the forward.
        in.train_hide_fraction = c.zero == 3 ? 1.0 : (exec - fwd) / exec;
        in.train_fwd_fraction = fwd / exec;
        in.train_gemm_fraction = weight_passes * matmul / exec;   // the weight matmuls (not the attention core)
        // The MoE layers' share of a forward, taken as their share of the executed FLOPs: the
        // backward and the recomputation follow the forward's proportions to first order.
        in.train_moe_fraction = fwd > 0 ? moe_fwd / fwd : 0.0;
        in.tp_collectives_per_layer = c.recompute == Recompute::full ? 6 : 4;
        const double shards = double(r.par.tp) * r.par.pp;
        const double trainable = m == Mode::train ? r.total_params * scale : lora;
        const double grad_b = m == Mode::train ? (r.fp32 ? 4.0 : 2.0) : 4.0;   // LoRA adapters train in fp32 (PEFT)
        in.train_grad_bytes_per_gpu = trainable / shards * grad_b;
        in.grad_bytes_per_param = grad_b;
        in.train_weight_bytes_per_gpu = whole_bytes / shards;
        // The optimizer step on the GPU, before ZeRO shards it (train_step divides by dp x cp):
        // the bytes ZeRO-Offload's CPU step moves a parameter (kCpuOptimizerFixedBytes + 2 S, and
        // the 16-bit copy in mixed precision), which an Adam kernel on the GPU moves alike.
        const double copy16 = m == Mode::train && !r.fp32 ? 2.0 : 0.0;
        in.optimizer_bytes_per_step =
            trainable / shards * (kCpuOptimizerFixedBytes + 2.0 * optimizer_state_bytes(c.optimizer, a.hidden) + copy16);
        if (c.offload != Offload::none) {
            // ZeRO-Offload: each rank moves its shard of fp32 gradients to RAM and its 16-bit
            // parameters back every step, and the CPU updates the shard in between: 12 + 2 S
            // bytes per parameter (kCpuOptimizerFixedBytes, S the optimizer's states), and in
            // mixed precision the 16-bit copy it writes for the GPU (2 B; DeepSpeed's CPU-Adam
            // writes it chunk by chunk into the pinned buffer the copy to the GPU reads).
            const double shard = trainable / (shards * r.par.dp * r.par.cp);
            in.offload_grad_bytes_per_step = shard * 4.0;
            in.offload_bytes_per_step = shard * (4.0 + (r.fp32 ? 4.0 : 2.0));
            in.offload_host_bytes_per_step = in.optimizer_bytes_per_step / (r.par.dp * r.par.cp);
            // DeepSpeed copies each reduce bucket's gradients to RAM as the bucket is reduced
            // (reduce_bucket_size, kZeroReduceBucket elements, shared by the dp x cp ranks): the
            // last bucket's share comes after the backward.
            in.offload_last_grad_bytes = std::min(in.offload_grad_bytes_per_step, kZeroReduceBucket * 4.0 / (r.par.dp * r.par.cp));
            // ZeRO-Infinity keeps the 16-bit parameters in RAM too: each pass gathers them again,
            // each GPU copying its 1/(dp x cp) shard up over its own PCIe link before the
            // all-gather (Rajbhandari et al. 2021, "ZeRO-Infinity", arXiv:2104.07857, sec. 6.1,
            // bandwidth-centric partitioning).
            if (c.offload == Offload::optimizer_params) in.offload_param_fetch_bytes = in.train_weight_bytes_per_gpu / (r.par.dp * r.par.cp);
        }
    }
    return in;
}

double host_copy_bandwidth(const Gpu& g, const Fabric& f) {
    const double lanes = g.pcie_lanes > 0 ? std::min(1.0, g.pcie_lanes / 16.0) : 1.0;   // an x8 card gets half
    return f.defaults.pcie ? f.defaults.pcie->bytes_per_s() * lanes * kBusBandwidthEfficiency : 0.0;
}

Fabric fabric_of(const Resolved& r) {
    if (!r.catalog) return Fabric{};
    Fabric f = make_fabric(*r.gpu, *r.catalog, r.link, r.inter_node_link);
    const Config& c = *r.config;
    set_pods(f, c.pod_gpus, c.pod_oversubscription, c.gpus);
    return f;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Inference, training
// ---------------------------------------------------------------------------------------------

namespace {

bool large_vllm_gpu(const Gpu& g) {
    return vllm_large_scheduler_defaults(g);   // gpu.hpp: vLLM's >= 70 GiB, not-A100 rule
}

}  // namespace

double prefill_chunk_tokens(const Resolved& r, double total) {
    const Config& c = *r.config;
    if (c.prefill_chunk) return std::min<double>(*c.prefill_chunk, total);
    switch (r.runtime) {
        case Runtime::llama_cpp: return std::min<double>(double(kLlamaCppUbatch), total);
        case Runtime::vllm:
            return std::min<double>(large_vllm_gpu(*r.gpu) ? double(kVllmBatchedTokensLarge) : double(kVllmBatchedTokensSmall), total);
        default: return total;   // transformers runs the whole batch of prompts in one forward
    }
}

namespace {

// The all-reduce the step's communication was timed with: its bus bandwidth and NCCL algorithm.
void record_allreduce(InterconnectReport& ic, const StepComm& cm) {
    ic.allreduce_busbw_bytes_per_s = cm.busbw;
    ic.allreduce_algorithm = algorithm_name(cm.algorithm);
}

StepComm decode_comm(const Resolved& r, const PerfInputs& in, const Fabric& f, double s, Precision used) {
    const Parallelism& par = r.par;
    StepComm m;
    // Tensor-parallel all-reduces sit between the layer's matmuls, pipeline sends between stages,
    // all-to-alls around the experts: none of them overlaps a decode step.
    const bool gathered = moe_gathered(r, in.moe_layers);
    if (rank_local(r)) {
        // TensorRT-LLM's attention DP: the MoE layers' gather and scatter (ring, as NCCL's); on a
        // dense model nothing crosses the GPUs.
        if (gathered) {
            const Span sp = span_of(f, par.tp, 1);
            m.algorithm = CollectiveAlgorithm::ring;
            m.busbw = sp.busbw;
            m.tp = in.moe_layers * moe_gather_seconds(sp, s / in.act_bytes_per_token, in.hidden, in.act_bytes, used);
        }
    } else if (par.tp > 1) {
        const Span sp = span_of(f, par.tp, 1);
        const CollectiveTime ar = allreduce_time(sp, s);
        m.algorithm = ar.algorithm;
        m.busbw = algorithm_busbw(sp, ar.algorithm);   // the bandwidth of the algorithm the time took
        m.tp = 2.0 * in.layers * ar.seconds;   // after attention and after the MLP
    } else if (par.dp > 1) {
        m.busbw = span_of(f, par.dp, par.tp).busbw;
    }
    if (par.pp > 1) m.pp = (par.pp - 1) * p2p_seconds(f, (long long)par.tp * par.dp, s);
    if (par.ep > 1 && !rank_local(r))
        m.ep = 2.0 * in.moe_layers * expert_all_to_all_seconds(span_of(f, par.ep, 1), s, in.routing);   // dispatch + combine
    m.exposed = m.tp + m.pp + m.ep;
    return m;
}

// Context parallelism: the K/V ring of every attention layer (ring_attention_exposed_seconds),
// per step. Each GPU holds b x context / cp tokens; in each of cp - 1 steps it sends its K/V block
// on while attending to the one in hand, 1/cp of its attention. The forward moves K/V; the
// backward K/V and dK/dV (TransformerEngine AttnFuncWithCPAndKVP2P.backward) against twice the
// forward's attention FLOPs (PaLM's 3x: forward + 2x backward); recomputation runs the forward
// ring again. `rate`: the FLOP/s the attention core runs at (16-bit, at the kernel efficiency).
// Ranks: Megatron orders tp-cp-ep-dp-pp, so the cp ranks sit tp apart and the ring's widest hop
// spans tp x (cp - 1) GPUs: inside a node when tp x cp fits one, else over the network.
void ring_attention_comm(const Resolved& r, const PerfInputs& in, const Fabric& f, double rate, StepComm& m) {
    const Parallelism& par = r.par;
    if (par.cp <= 1 || in.layers <= 0) return;
    const Config& c = *r.config;
    const double per_layer_tokens = double(c.context) / par.cp * c.batch;
    const double kv = per_layer_tokens * in.kv_act_bytes_per_token / in.layers;
    const double block_fwd = per_layer_tokens * in.train_attn_flops_per_token / in.layers / par.tp / par.cp / rate;
    const long long distance = (long long)par.tp * (par.cp - 1);
    const double forwards = c.recompute == Recompute::none ? 1.0 : 2.0;
    const double steps = double(par.cp - 1);
    const double per_layer_wire = steps * (forwards * p2p_seconds(f, distance, kv) + p2p_seconds(f, distance, 2.0 * kv));
    const double per_layer_exposed = forwards * ring_attention_exposed_seconds(f, par.cp, distance, kv, block_fwd) +
                                     ring_attention_exposed_seconds(f, par.cp, distance, 2.0 * kv, 2.0 * block_fwd);
    const double layers = in.micro_batches * in.layers / double(par.pp);   // layer passes of one GPU per step
    m.cp = layers * per_layer_wire;
    m.cp_exposed = layers * per_layer_exposed;
}

// ZeRO-Offload's step (Ren et al. 2021, arXiv:2101.06840, sec. 4-5). The fp32 gradients go to
// RAM over PCIe bucket by bucket during the backward pass, hidden behind it but for the last
// bucket's (called after the gradient sync is timed, m.dp); then the CPU updates the shard
// (kCpuOptimizerBandwidthEfficiency of the host's bandwidth), while the updated 16-bit
// parameters go back chunk by chunk (CPU-Adam copies one chunk while it updates the next, sec.
// 5.1): the step waits for the slower of the two. The GPUs of a node share its host (one CPU
// process per GPU, each updating its own shard), so each gets host bandwidth / GPUs per node.
// The update is on the critical path: the paper's one-step delayed parameter update (sec. 5.2),
// which overlaps it with the next step's forward and backward, is not modelled (it changes the
// arithmetic: the GPUs compute with one-step-old weights).
[[gnu::noinline]] void offload_step(const Resolved& r, const PerfInputs& in, const Fabric& f, double t_pipe, StepComm& m) {
    const double pcie = f.defaults.pcie ? f.defaults.pcie->bytes_per_s() * kBusBandwidthEfficiency : 0.0;
    const int gpus = r.config->gpus;
    const double sharing = f.levels > 0 ? double(std::min(f.node_size, gpus)) : double(gpus);
    m.host_optimizer = in.offload_host_bytes_per_step * sharing / (host_memory_bandwidth(*r.config) * kCpuOptimizerBandwidthEfficiency);
    if (pcie <= 0) return;
    const double down = in.offload_grad_bytes_per_step / pcie;
    const double up = (in.offload_bytes_per_step - in.offload_grad_bytes_per_step) / pcie;
    // ZeRO-Infinity: the parameter shard comes up for every forward and backward pass of every
    // micro-batch (and the recomputed forward with full recomputation), prefetched while the
    // layers before compute (sec. 6.2, overlap-centric design); train_comm lets it hide behind
    // the rest of the step.
    const double passes = r.config->recompute == Recompute::full ? 3.0 : 2.0;
    m.offload_fetch = in.offload_param_fetch_bytes * passes * in.micro_batches / pcie;
    m.offload = down + up + m.offload_fetch;
    // DeepSpeed (stage_1_and_2.py) reduces a bucket and then copies its shard to RAM on the same
    // stream: the copies hide in what the gradient sync (m.dp) leaves of the backward.
    const double backward = std::max(0.0, (1.0 - in.train_fwd_fraction) * t_pipe - m.dp);
    m.offload_exposed = std::max(in.offload_last_grad_bytes / pcie, down - backward) + std::max(0.0, up - m.host_optimizer);
}

// t_comp: the step's math on one GPU; t_pipe: the same stretched by the bubble; rate: the
// attention core's FLOP/s (ring_attention_comm).
StepComm train_comm(const Resolved& r, const PerfInputs& in, const Fabric& f, double t_comp, double t_pipe, double rate) {
    const Parallelism& par = r.par;
    const Config& c = *r.config;
    const FrameworkProfile& fw = framework_profile(c.training_framework);
    StepComm m;
    const double mb = in.micro_batches;
    const double p = par.pp;
    // One micro-batch's activations on one GPU: 1/cp of each sequence's tokens.
    const double s = double(c.context) / par.cp * c.batch * in.act_bytes_per_token;
    const double per = in.tp_collectives_per_layer;
    const double fwd = in.train_fwd_fraction;   // share of the executed FLOPs in the first forward
    if (par.tp > 1) {
        const Span sp = span_of(f, par.tp, 1);
        const CollectiveTime ar = allreduce_time(sp, s);
        m.algorithm = ar.algorithm;
        m.busbw = algorithm_busbw(sp, ar.algorithm);
        m.tp = mb * (in.layers / p) * per * ar.seconds;
        // Between a layer's matmuls nothing else can run: exposed, unless the framework splits
        // the GEMMs and their all-gathers / reduce-scatters into chunks that overlap (Megatron-LM
        // --tp-comm-overlap, TransformerEngine userbuffers; needs sequence parallelism): then
        // only what outlasts the step's matmuls shows. NeMo's recipes turn it on with sequence
        // parallelism (frameworks.cpp).
        const bool overlap = c.tp_comm_overlap || (fw.tp_overlap_with_sp && c.sequence_parallel);
        m.tp_exposed = overlap ? std::max(0.0, m.tp - t_comp * in.train_gemm_fraction) : m.tp;
    }
    // Activations forward, gradients back, for each micro-batch at each of the v chunk boundaries
    // of a stage (interleaving multiplies the sends by v: Narayanan et al. 2021, sec. 2.2).
    if (par.pp > 1) {
        const double v = r.virtual_stages;
        const double send = p2p_seconds(f, (long long)par.tp * par.cp * par.dp, s);   // stages tp x cp x dp apart (tp-cp-ep-dp-pp)
        m.pp = 2.0 * mb * v * send;
        // 1F1B and ZB-H1 wait for each send; the interleaved schedule posts them asynchronously
        // and computes the next chunk meanwhile (Megatron-LM overlap_p2p_comm, on by default
        // for it): a send shows only beyond one chunk's forward (activations) or backward
        // (gradients) of one micro-batch.
        if (v > 1) {
            const double chunk = t_comp / (mb * v);
            m.pp_exposed = mb * v * (std::max(0.0, send - chunk * fwd) + std::max(0.0, send - chunk * (1.0 - fwd)));
        } else {
            m.pp_exposed = m.pp;
        }
    }
    if (par.ep > 1) {
        // Half of them dispatches (the forward's, and the backward's of the combine's gradients),
        // half combines: the dispatches in FP8 with block-scaled FP8 training
        // (kFp8DispatchBytesPerElement), the combines in the activations' type.
        const Span sp = span_of(f, par.ep, 1);
        const double copy = s / in.act_bytes_per_token;   // the micro-batch tokens one GPU holds
        m.ep = mb * (in.moe_layers / p) * (per / 2.0) *
               (expert_all_to_all_seconds(sp, copy * in.dispatch_bytes_per_token, in.routing) +
                expert_all_to_all_seconds(sp, s, in.routing));
        // Dispatch and combine sit between a MoE layer's attention and its experts: exposed, unless
        // DualPipe runs a forward and a backward chunk of two micro-batches together, each one's
        // all-to-alls beside the other's attention and MLP (DeepSeek-V3 technical report,
        // arXiv:2412.19437, sec. 3.2.1, Figure 4: "both all-to-all and PP communication can be fully
        // hidden"). Every MoE layer pairs alike, so over the step the all-to-alls hide behind the
        // MoE layers' compute (t_comp, already slowed by the SMs the kernels take) and only what
        // outlasts it shows. The chunks that run unpaired while the pipeline fills and drains are
        // not counted apart (p of 2m per step in DeepSeek-V3's layout). Megatron-LM's opt-in
        // --overlap-moe-expert-parallel-comm pairs micro-batches the same way in the 1F1B phase
        // ("Overlap EP A2A communications with independent computations of different
        // micro-batches", megatron/core/model_parallel_config.py); its NCCL / DeepEP kernels hold
        // no published share of the SMs, so the math is not slowed there.
        const bool paired = (c.pp_schedule == PipeSchedule::dualpipe && par.pp > 1) || c.ep_comm_overlap;
        m.ep_exposed = paired ? std::max(0.0, m.ep - t_comp * in.train_moe_fraction) : m.ep;
    }
    ring_attention_comm(r, in, f, rate, m);
    // The gradient sync runs over the ranks that hold the same weights: dp x cp (Megatron's
    // data-parallel group with context parallel), consecutive at stride tp (tp-cp-ep-dp-pp).
    if (par.dp * par.cp > 1) {
        const Span dp = span_of(f, (long long)par.dp * par.cp, par.tp);
        if (par.tp == 1) m.busbw = dp.busbw;
        // DualPipe: each GPU holds two pipeline stages (DeepSeek-V3 report, Table 2: 2x the
        // parameters), so it syncs and gathers two stages' worth.
        const double held = c.pp_schedule == PipeSchedule::dualpipe && par.pp > 1 ? 2.0 : 1.0;
        const double grads = held * in.train_grad_bytes_per_gpu;
        if (c.zero == 3) {
            // ZeRO-3: reduce-scatter the gradients, all-gather the parameters for the forward and
            // again for the backward: 1.5x the traffic of plain data parallelism (ZeRO paper).
            // Prefetched, the forward's gathers hide behind the forward compute, the backward's
            // gathers and the reduce-scatters behind the backward; the last reduce bucket waits
            // for the last gradients.
            const double gather = reduce_scatter_seconds(dp, held * in.train_weight_bytes_per_gpu);
            const double scatter = reduce_scatter_seconds(dp, grads);
            m.dp = scatter + 2.0 * gather;
            // FSDP reduce-scatters each transformer block's gradients as the backward leaves it
            // (fully_shard per block): the last block's shows; DeepSpeed sends reduce_bucket_size.
            const double bucket =
                fw.block_reduce_scatter && in.layers > 0 ? grads * p / in.layers : kZeroReduceBucket * (r.fp32 ? 4.0 : 2.0);
            const double last = reduce_scatter_seconds(dp, std::min(grads, bucket));
            m.dp_exposed = std::max(0.0, gather - fwd * t_pipe) + std::max(last, gather + scatter - (1.0 - fwd) * t_pipe);
        } else {
            // DDP all-reduce; ZeRO-1/2 reduce-scatter + all-gather move the same bytes. Bucketed
            // (DDP: 25 MB buckets, PyTorch bucket_cap_mb; DeepSpeed: reduce_bucket_size 5e8
            // elements), each bucket goes when its gradients are ready, behind the rest of the
            // backward; the last bucket's all-reduce always shows.
            const CollectiveTime ar = allreduce_time(dp, grads);
            // The report's algorithm and bus bandwidth describe the same all-reduce: the one timed.
            if (par.tp == 1) {
                m.algorithm = ar.algorithm;
                m.busbw = algorithm_busbw(dp, ar.algorithm);
            }
            m.dp = ar.seconds;
            const double layers_per_stage = in.layers / p;
            const double bucket =
                dp_last_bucket_bytes(fw, c.zero, double(par.dp) * par.cp, in.grad_bytes_per_param, grads, layers_per_stage);
            const double last = allreduce_time(dp, bucket).seconds;
            // With gradient accumulation the gradients are final only in the step's last
            // micro-batch: the frameworks sync there alone (PyTorch DDP's no_sync() around the
            // others, torch/nn/parallel/distributed.py; Megatron's no_sync_func,
            // megatron/core/pipeline_parallel/schedules.py @d98e8a6), so the buckets hide behind
            // that micro-batch's backward, not the step's: t_comp / m of this GPU's math (m = 1:
            // the whole backward, as before). The first pipeline stage runs it last.
            const double last_backward = in.train_hide_fraction * t_comp / std::max(1.0, mb);
            // DeepSpeed's ZeRO 0-2 reduce after the backward (overlap_comm off): all of it shows.
            m.dp_exposed = fw.dp_overlap_below_zero3 ? std::max(last, m.dp - last_backward) : m.dp;
        }
    }
    if (in.offload_bytes_per_step > 0) offload_step(r, in, f, t_pipe, m);
    m.exposed = m.tp_exposed + m.pp_exposed + m.ep_exposed + m.cp_exposed + m.dp_exposed + m.offload_exposed;
    if (m.offload_fetch > 0) {
        // ZeRO-Infinity's parameter reads go up the PCIe link, which nothing else uses then, all
        // through the step: only what outlasts the rest of it shows (so the step is the longer of the two).
        const double shows = std::max(0.0, m.offload_fetch - (t_pipe + m.exposed));
        m.offload_exposed += shows;
        m.exposed += shows;
    }
    return m;
}

}  // namespace

TrainStep train_step(const Resolved& r, const PerfInputs& in, const Fabric& f, double mu, double F) {
    // Training: executed FLOPs of the step spread over every GPU at the kernel efficiency,
    // stretched by the pipeline bubble, plus the communication that cannot hide.
    TrainStep t;
    t.compute_s = in.tokens_per_step * in.train_exec_flops_per_token / (double(r.config->gpus) * mu * F);
    if (r.config->fp8_training != Fp8Training::none) {
        // FP8 training: the weight GEMMs (train_gemm_fraction of the executed FLOPs) run at the
        // dense FP8 rate, the attention core and the rest at the 16-bit one (Transformer Engine /
        // torchtitan float8 keep attention in bf16). The FP8 GEMMs reach e8 of the kernel
        // efficiency there: their casts, amax reductions and transposes ride along, and FP8 GEMMs
        // reach less of their peak than 16-bit ones (kFp8GemmEfficiency, fitted on NeMo's runs).
        const double f8 = tensor_rate_tflops(*r.gpu, Precision::fp8) * 1e12;
        if (f8 > 0) {
            t.gemm_peak_flops = f8;
            const double g = in.train_gemm_fraction;
            const double e8 = r.config->fp8_gemm_efficiency > 0 ? r.config->fp8_gemm_efficiency : kFp8GemmEfficiency;
            t.compute_s *= g * F / (f8 * e8) + (1.0 - g);
        }
    }
    const double p = r.par.pp;
    // DualPipe hides the expert all-to-alls behind the math, whose kernels lose the SMs the
    // all-to-all kernels take (kDualPipeCommSmFraction): the math runs at the rest's share.
    if (p > 1 && r.config->pp_schedule == PipeSchedule::dualpipe && r.par.ep > 1) t.compute_s /= 1.0 - kDualPipeCommSmFraction;
    const double idle = p > 1 ? bubble_micro_batches(r.config->pp_schedule, r.virtual_stages, r.par.pp) : 0.0;
    t.bubble_fraction = idle / (in.micro_batches + idle);
    t.pipe_s = t.compute_s / (1.0 - t.bubble_fraction);
    t.comm = train_comm(r, in, f, t.compute_s, t.pipe_s, mu * F);
    t.host_optimizer_s = t.comm.host_optimizer;
    const Config& c = *r.config;
    if (in.offload_bytes_per_step <= 0) {
        // The optimizer step on the GPU (with offload the CPU runs it: host_optimizer_s): its
        // shard (ZeRO 1-3 split the states over dp x cp; a DualPipe GPU holds two stages) at the
        // bandwidth streaming kernels reach. (The offload bytes, not c.offload: the plan search
        // sets the inputs per candidate.)
        const double held = c.pp_schedule == PipeSchedule::dualpipe && p > 1 ? 2.0 : 1.0;
        const double shards = c.zero >= 1 ? double(r.par.dp) * r.par.cp : 1.0;
        const double bw = r.gpu->memory_bandwidth_gb_per_s * 1e9 * stream_bandwidth_efficiency(0.0);
        t.optimizer_s = bw > 0 ? held * in.optimizer_bytes_per_step / shards / bw : 0.0;
    }
    t.sync_s = in.step_sync_s >= 0 ? in.step_sync_s : step_sync_seconds(f, c.gpus);
    t.overhead_s = c.step_overhead_s;
    t.step_s = t.pipe_s + t.comm.exposed + t.host_optimizer_s + t.optimizer_s + t.sync_s + t.overhead_s;
    return t;
}

double step_sync_seconds(const Fabric& f, int gpus) {
    if (gpus <= 1) return 0.0;
    return kStepScalarAllReduces * allreduce_time(span_of(f, gpus, 1), 4.0).seconds;   // one fp32 value each
}

namespace {

void partial_offload(const Resolved& r, const PerfInputs& in, const Totals& t, PerfOut& out, double bytes, double weights,
                     double eff_bw, double per_forward, double route);

// Prefill and time to first token; llama.cpp's partial offload when the model does not fit.
// `route`: the decode step's MoE gather and weighted-sum seconds (moe_route_bytes_per_token).
void prefill_and_offload(const Resolved& r, const PerfInputs& in, const Totals& t, const Fabric& f, PerfOut& out, double bytes,
                         double weights, double eff_bw, double eff_flops, double per_forward, double route) {
    const Parallelism& par = r.par;
    const Gpu& g = *r.gpu;
    SpeedReport& sp = out.speed;
    // Prefill: the prompts of the batch, in forwards of the runtime's chunk.
    const double T = in.prefill_tokens;
    const double chunk = prefill_chunk_tokens(r, T);
    const double forwards = std::ceil(T / chunk);
    // The routed experts' matmuls run at expert_gemm_efficiency of the chunk's tokens per expert
    // (performance.hpp: half a tile of padding per expert); the rest at the dense efficiency.
    // (n_cpu_moe experts copied to the GPU for the forward run there the same way.)
    const double m = chunk * in.expert_tokens_share;
    const double eta_e = expert_gemm_efficiency(m, in.expert_tile_by_batch ? chunk : m);
    const double flops = in.prefill_flops_per_token - in.attn_prefill_flops_per_token + in.expert_flops_per_token * (1.0 / eta_e - 1.0);
    const double p_comp = T * (flops / eff_flops + in.attn_prefill_flops_per_token / out.attn_flops) / par.tp;
    const double p_mem = forwards * (in.layer_weight_bytes - in.cpu_moe_gpu_bytes + in.edge_read_bytes) / eff_bw;
    const double p_comm = par.tp * par.pp * par.ep > 1 ? decode_comm(r, in, f, chunk * in.act_bytes_per_token, out.compute.used).exposed : 0.0;
    // llama.cpp --n-cpu-moe: each forward brings the experts it routes to (1 - (1 - k/E)^chunk of
    // them) from host RAM. From 32 tokens on llama.cpp copies them to the GPU over PCIe
    // (kLlamaCppOpOffloadMinBatch; at kBusBandwidthEfficiency of the link, as ZeRO-Offload's
    // copies); below it the CPU reads them at the host's bandwidth. The copy waits for nothing
    // and nothing waits for it to overlap: it adds to each forward.
    double p_host = 0;
    if (in.cpu_moe_host_bytes > 0) {
        const double moved = in.cpu_moe_host_bytes * (1.0 - std::pow(1.0 - in.expert_share, chunk));
        const double pcie = host_copy_bandwidth(g, f);
        p_host = chunk >= kLlamaCppOpOffloadMinBatch && pcie > 0 ? moved / pcie : moved / host_read_bandwidth(out.host_bandwidth);
        sp.prefill_host_copy_s = forwards * p_host;
    }
    const double p_route = in.moe_route_copies > 0 ? T * moe_route_bytes_per_token(in.moe_route_copies, in.moe_layers, in.hidden, in.act_bytes,
                                                                                      out.compute.used) /
                                                         (stream_bandwidth_efficiency(out.bandwidth_efficiency) * g.memory_bandwidth_gb_per_s * 1e9)
                                                   : 0.0;
    sp.ttft_s = std::max(p_comp, p_mem) + p_route + forwards * (p_comm + per_forward + p_host);
    sp.prefill_tokens_per_s = T / sp.ttft_s;
    if (r.runtime == Runtime::llama_cpp && !t.fits && g.segment != Segment::apple && in.layers > 0)
        partial_offload(r, in, t, out, bytes, weights, eff_bw, per_forward, route);
}

// llama.cpp partial offload: the layers that do not fit stay in host RAM and the CPU runs them,
// reading their weights and KV cache at the host's bandwidth (-ngl). Out of line: it runs only
// for configurations that do not fit.
[[gnu::noinline]] void partial_offload(const Resolved& r, const PerfInputs& in, const Totals& t, PerfOut& out, double bytes,
                                       double weights, double eff_bw, double per_forward, double route) {
    const Parallelism& par = r.par;
    const double b = r.config->batch;
    SpeedReport& sp = out.speed;
    const InterconnectReport& ic = out.interconnect;
    OffloadReport& o = sp.offload;
    o.active = true;
    o.total_layers = in.layers;
    o.host_bandwidth_bytes_per_s = out.host_bandwidth;
    const double hb = host_read_bandwidth(out.host_bandwidth);
    const StageSums sums = stage_sums(r);
    const double avail = t.usable * double(par.tp) * par.pp;
    const double fixed = sums.total - sums.layer_bytes;
    const double per_layer = sums.layer_bytes / in.layers;
    const double fit_layers = per_layer > 0 ? std::floor((avail - fixed) / per_layer) : 0.0;
    o.gpu_layers = int(std::clamp(fit_layers, 0.0, double(in.layers)));
    const double host_layers = in.layers - o.gpu_layers;
    o.host_bytes = host_layers * per_layer;
    const double layer_read = (weights - in.edge_read_bytes + in.kv_read_bytes_decode) / in.layers;
    const double t_off = (in.edge_read_bytes + o.gpu_layers * layer_read) / eff_bw + host_layers * layer_read / hb;
    o.decode_tokens_per_s = 1.0 / (t_off + route + per_forward + ic.exposed_s_per_token);
    double best = o.decode_tokens_per_s;
    if (in.layer_expert_bytes > 0 && fixed + sums.layer_bytes - sums.expert_bytes <= avail) {
        // MoE with the routed experts in RAM (--cpu-moe): attention and shared parts on the
        // GPU, the experts a step touches read from RAM.
        const double experts = in.layer_expert_bytes * in.expert_touch_decode;
        const double t_moe = (bytes - experts) / eff_bw + experts / hb;
        o.experts_on_host_decode_tokens_per_s = 1.0 / (t_moe + route + per_forward + ic.exposed_s_per_token);
        best = std::max(best, o.experts_on_host_decode_tokens_per_s);
    }
    sp.decode_tokens_per_s = best;
    sp.decode_step_s = 1.0 / best;
    sp.decode_throughput_tokens_per_s = b * par.dp * best;
}

// The attention core's rate. Its matmuls (Q.K^T, P.V) run in the activations' type, not the
// weights': FP8 where the KV cache is FP8 and the engine has FP8 attention kernels (TensorRT-LLM's
// FP8 context FMHA, tensorrt_llm/_torch/attention_backend/trtllm.py with an FP8 KV cache; vLLM's
// FlashAttention quantizes the query to FP8 with an FP8 cache, vllm/v1/attention/backends/
// flash_attn.py; SGLang's FlashInfer / FA3 backends alike), at kFp8AttentionEfficiency of the FP8
// rate; else 16-bit. evaluate_performance calls it for 8- and 4-bit math only: wider weights run
// attention as the rest of their math.
double attention_flops(const Resolved& r, double mu16) {
    const Gpu& g = *r.gpu;
    const bool fp8_engine = r.runtime == Runtime::trt_llm || r.runtime == Runtime::vllm || r.runtime == Runtime::sglang;
    if (fp8_engine && r.kv->id == "fp8" && runs_natively(g, Precision::fp8))
        return mu16 * kFp8AttentionEfficiency * tensor_rate_tflops(g, Precision::fp8) * 1e12;
    static const WeightFormat& bf16 = weight_format("bf16");
    return mu16 * compute_choice(g, bf16, r.runtime).flops;
}

}  // namespace

[[gnu::noinline]] void evaluate_performance(const Resolved& r, const PerfInputs& in, const Totals& t, const Fabric& f, PerfOut& out,
                                            EvalLevel level, const ComputeChoice* choice, const Fabric* alt, LinkTimes* alt_out) {
    const bool detail = level == EvalLevel::full;
    const Gpu& g = *r.gpu;
    const Config& c = *r.config;
    const Parallelism& par = r.par;
    out.compute = choice ? *choice : compute_choice(g, *r.wf, r.runtime);
    const double F = out.compute.flops;
    const double B = g.memory_bandwidth_gb_per_s * 1e9;
    const bool llama = r.runtime == Runtime::llama_cpp;
    const double eta = c.bandwidth_efficiency > 0 ? c.bandwidth_efficiency
                       : llama                   ? kLlamaCppBandwidthEfficiency
                       : (is_quantized(*r.wf) ? kDecodeBandwidthEfficiencyQuant : kDecodeBandwidthEfficiency16);
    // Fixed time per layer per forward (kernel launches, synchronizations): measured for
    // llama.cpp; vLLM replays CUDA graphs and gpt-fast compiles them, so none is assumed there.
    // Divided by 1e6, not multiplied by 1e-6: the report writes the default back as 90 us, and only
    // 90 / 1e6 rounds to the default's 90e-6, so a report's config fed back gives the same figures.
    // A GPU whose llama.cpp backend is not CUDA may carry its own figure (gpus.json
    // llama_cpp_layer_overhead_us: Metal encodes each op into a command buffer).
    const double tau = c.layer_overhead_us ? *c.layer_overhead_us / 1e6
                       : llama             ? (g.llama_cpp_layer_overhead_s > 0 ? g.llama_cpp_layer_overhead_s : kLlamaCppLayerOverhead)
                                           : 0.0;
    out.layer_overhead = tau;
    const double per_forward = tau * in.layers;
    // Inference math in FP4 reaches kFp4GemmEfficiency of the 16-bit efficiency at its peak (the
    // default only: a given `mfu` is the efficiency at the precision the math runs in, and the
    // attention, which does not run in FP4, gets the 16-bit efficiency it implies).
    const double fp4 = !r.training && out.compute.used == Precision::fp4 ? kFp4GemmEfficiency : 1.0;
    // Training's default: kTrainMfu x the framework's kernel share x the GEMMs' shape share
    // (training/frameworks.cpp).
    const double mu = c.mfu > 0 ? c.mfu : (r.training ? train_kernel_efficiency(c, in.hidden, par.tp, par.cp) : kPrefillMfu * fp4);
    out.mfu = mu;
    const Precision used = out.compute.used;
    out.attn_flops = used == Precision::fp8 || used == Precision::int8 || used == Precision::fp4 ? attention_flops(r, mu / fp4) : mu * F;
    out.bandwidth_efficiency = eta;
    out.host_bandwidth = host_memory_bandwidth(c);

    SpeedReport& sp = out.speed;
    sp.compute_precision = to_string(out.compute.used);
    sp.compute_precision_requested = to_string(out.compute.requested);
    sp.native = out.compute.native;
    sp.tensor_cores = out.compute.tensor_cores;
    sp.peak_flops = F;
    sp.mfu = mu;
    sp.bandwidth_efficiency = eta;

    InterconnectReport& ic = out.interconnect;
    const int gpus = c.gpus;
    if (detail) set_link_id(ic.link, f.intra);
    ic.gpus_per_node = f.levels > 0 ? std::min(f.node_size, gpus) : gpus;
    ic.nodes = f.levels > 0 ? (gpus + f.node_size - 1) / f.node_size : 1;
    ic.pods = ic.nodes > 1 && f.pod_gpus > 0 ? int((gpus + f.pod_gpus - 1) / f.pod_gpus) : 1;
    if (detail) set_link_id(ic.inter_node_link, ic.nodes > 1 ? f.inter : nullptr);
    ic.link_bandwidth_bytes_per_s = f.levels > 0 ? f.level[0].bw : 0.0;

    if (!r.training) {
        // Decode: every step reads the weights (the experts the batch touches) and the KV cache
        // of every sequence once; roofline = the slower of bandwidth and compute.
        const double b = c.batch;
        const double weights = in.layer_weight_bytes - in.layer_expert_bytes * (1.0 - in.expert_touch_decode) + in.edge_read_bytes;
        const double bytes = weights + in.kv_read_bytes_decode;
        // llama.cpp --n-cpu-moe: the touched experts of the first N layers are read by the CPU from
        // host RAM, at the host's bandwidth (kHostBandwidthEfficiency, as partial offload reads
        // layers); the GPU reads the rest. The steps run one after the other, layer by layer.
        const double host_read = in.cpu_moe_host_bytes * in.expert_touch_decode;
        const double gpu_read = bytes - in.cpu_moe_gpu_bytes * in.expert_touch_decode;
        const double t_mem =
            gpu_read / (eta * B) + (host_read > 0 ? host_read / host_read_bandwidth(out.host_bandwidth) : 0.0);
        const double t_comp = b * ((in.decode_flops_per_token - in.attn_decode_flops_per_token) / (mu * F) +
                                   in.attn_decode_flops_per_token / out.attn_flops) / par.tp;
        const double s = b * in.act_bytes_per_token;
        const StepComm cm = decode_comm(r, in, f, s, out.compute.used);
        record_allreduce(ic, cm);
        ic.tp_comm_s_per_token = cm.tp;
        ic.pp_comm_s_per_token = cm.pp;
        ic.ep_comm_s_per_token = cm.ep;
        ic.exposed_s_per_token = cm.exposed;
        const double route = in.moe_route_copies > 0 ? b * moe_route_bytes_per_token(in.moe_route_copies, in.moe_layers, in.hidden, in.act_bytes,
                                                                                      out.compute.used) /
                                                           (stream_bandwidth_efficiency(eta) * B)
                                                     : 0.0;
        const double roof = std::max(t_mem, t_comp) + route + per_forward;
        if (alt && alt_out) {
            // The same step over the other link: only the communication changes.
            const StepComm ca = decode_comm(r, in, *alt, s, out.compute.used);
            alt_out->tp_comm_s_per_token = ca.tp;
            alt_out->exposed_s = ca.exposed;
            alt_out->decode_tokens_per_s = 1.0 / (roof + ca.exposed);
        }
        sp.decode_bytes_per_step = gpu_read + host_read;
        sp.decode_host_bytes_per_step = host_read;
        sp.decode_compute_bound = t_comp > t_mem;
        sp.decode_step_s = roof + ic.exposed_s_per_token;
        sp.decode_tokens_per_s = 1.0 / sp.decode_step_s;
        sp.decode_throughput_tokens_per_s = b * par.dp / sp.decode_step_s;

        if (detail) prefill_and_offload(r, in, t, f, out, bytes, weights, eta * B, mu * F, per_forward, route);
    } else {
        const double tokens = in.tokens_per_step;
        const TrainStep ts = train_step(r, in, f, mu, F);
        const StepComm& cm = ts.comm;
        const double t_comp = ts.compute_s, t_pipe = ts.pipe_s;
        ic.pp_bubble_fraction = ts.bubble_fraction;
        if (par.pp > 1) ic.pp_schedule = to_string(c.pp_schedule);
        ic.virtual_stages = r.virtual_stages;
        record_allreduce(ic, cm);
        ic.tp_comm_s_per_step = cm.tp;
        ic.pp_comm_s_per_step = cm.pp;
        ic.ep_comm_s_per_step = cm.ep;
        ic.dp_allreduce_s_per_step = cm.dp;
        ic.dp_exposed_s_per_step = cm.dp_exposed;
        ic.tp_exposed_s_per_step = cm.tp_exposed;
        ic.pp_exposed_s_per_step = cm.pp_exposed;
        ic.ep_exposed_s_per_step = cm.ep_exposed;
        ic.cp_comm_s_per_step = cm.cp;
        ic.cp_exposed_s_per_step = cm.cp_exposed;
        ic.exposed_s_per_step = cm.exposed;
        if (alt && alt_out) {
            const StepComm ca = train_comm(r, in, *alt, t_comp, t_pipe, mu * F);
            alt_out->dp_allreduce_s_per_step = ca.dp;
            alt_out->exposed_s = ca.exposed;
            const double fixed = ts.optimizer_s + step_sync_seconds(*alt, gpus) + ts.overhead_s;
            alt_out->train_tokens_per_s = tokens / (t_pipe + ca.exposed + ca.host_optimizer + fixed);
        }
        sp.train_flops_per_token = in.train_exec_flops_per_token;
        sp.optimizer_step_host_s = ts.host_optimizer_s;
        sp.optimizer_step_s = ts.optimizer_s;
        sp.step_sync_s = ts.sync_s;
        sp.step_overhead_s = ts.overhead_s;
        ic.offload_s_per_step = cm.offload;
        ic.offload_exposed_s_per_step = cm.offload_exposed;
        sp.train_step_s = ts.step_s;   // the pipelined compute, the exposed communication, the optimizer step, the syncs
        sp.compute_s = t_comp;
        sp.gemm_peak_flops = ts.gemm_peak_flops > 0 ? ts.gemm_peak_flops : F;
        sp.bubble_s = t_pipe - t_comp;
        sp.bubble_fraction = ic.pp_bubble_fraction;
        sp.exposed_comm_s = ic.exposed_s_per_step;
        sp.train_tokens_per_s = tokens / sp.train_step_s;
        sp.train_time_s = c.train_tokens > 0 ? c.train_tokens / sp.train_tokens_per_s : 0.0;
        sp.effective_mfu = tokens * in.train_model_flops_per_token / (sp.train_step_s * gpus * F);
        // As papers state them (Chowdhery et al. 2022, PaLM, appendix B): MFU counts the model's
        // FLOPs only, HFU also the recomputed forward passes; both over the whole step.
        sp.mfu_effective = sp.effective_mfu;
        sp.hfu = tokens * in.train_exec_flops_per_token / (sp.train_step_s * gpus * F);
    }

    evaluate_power(r, in, f, out);
}

void performance_warnings(const Resolved& r, Report& rep) {
    const SpeedReport& sp = rep.speed;
    const InterconnectReport& ic = rep.interconnect;
    const Gpu& g = *r.gpu;
    char buf[400];
    if (!sp.native) {
        std::snprintf(buf, sizeof buf,
                      "%s has no %s tensor cores: the weights stay %s in memory, the math runs at %s (%.0f TFLOPS%s)",
                      g.name.c_str(), std::string(sp.compute_precision_requested).c_str(), std::string(r.wf->id).c_str(),
                      std::string(sp.compute_precision).c_str(),
                      sp.peak_flops / 1e12, sp.tensor_cores ? "" : ", CUDA cores");
        rep.warnings.emplace_back(buf);
    }
    if (sp.offload.active) {
        if (sp.offload.experts_on_host_decode_tokens_per_s > 0 &&
            sp.offload.experts_on_host_decode_tokens_per_s >= sp.offload.decode_tokens_per_s)
            std::snprintf(buf, sizeof buf,
                          "does not fit in GPU memory: with the routed experts in host RAM (llama.cpp --cpu-moe) decode runs at "
                          "~%.1f tokens/s; splitting layers instead (-ngl %d of %d) gives ~%.1f",
                          sp.offload.experts_on_host_decode_tokens_per_s, sp.offload.gpu_layers, sp.offload.total_layers,
                          sp.offload.decode_tokens_per_s);
        else
            std::snprintf(buf, sizeof buf,
                          "does not fit in GPU memory: llama.cpp would keep %d of %d layers on the GPUs (-ngl %d) and run the rest "
                          "from host RAM (%.0f GB/s assumed), ~%.1f tokens/s",
                          sp.offload.gpu_layers, sp.offload.total_layers, sp.offload.gpu_layers,
                          sp.offload.host_bandwidth_bytes_per_s / 1e9, sp.offload.decode_tokens_per_s);
        rep.warnings.emplace_back(buf);
    }
    if (!r.cpu_moe_stage.empty() && rep.fits) {
        // n_cpu_moe where the experts would fit on the GPUs anyway: it only slows decode. (The most
        // loaded GPU plus the most any stage freed: an upper bound, so the warning is never wrong.)
        const double freed = *std::max_element(r.cpu_moe_stage.begin(), r.cpu_moe_stage.end()) * r.scale;
        const double whole = rep.per_gpu.total() + freed;
        if (freed > 0 && whole <= rep.gpu_usable) {
            std::snprintf(buf, sizeof buf,
                          "n_cpu_moe %d: the model fits with every routed expert on the GPU (%.2f GiB of %.2f GiB usable); keeping "
                          "them in host RAM only slows decode",
                          r.config->n_cpu_moe, whole / kGiB, rep.gpu_usable / kGiB);
            rep.warnings.emplace_back(buf);
        }
    }
    if (sp.optimizer_step_host_s > 0.3 * sp.train_step_s && sp.train_step_s > 0) {
        std::snprintf(buf, sizeof buf,
                      "offload: the CPU's optimizer step takes %.0f%% of each training step (%.3g s, host RAM at %.0f GB/s shared by %d "
                      "GPUs; set host_memory_bandwidth_gb_per_s to the server's)",
                      100.0 * sp.optimizer_step_host_s / sp.train_step_s, sp.optimizer_step_host_s,
                      host_memory_bandwidth(*r.config) / 1e9,
                      ic.gpus_per_node);
        rep.warnings.emplace_back(buf);
    }
    const double step = r.training ? sp.train_step_s : sp.decode_step_s;
    const double exposed = r.training ? ic.exposed_s_per_step : ic.exposed_s_per_token;
    if (step > 0 && exposed > 0.3 * step) {
        std::snprintf(buf, sizeof buf, "communication over %s takes %.0f%% of each %s step",
                      ic.link.empty() ? "the network" : ic.link.c_str(), 100.0 * exposed / step, r.training ? "training" : "decode");
        rep.warnings.emplace_back(buf);
    }
    // The link's kind from the catalog, not its id's spelling; the GPU's p2p field from gpus.json.
    // (The link is looked up only where the warning can apply: tensor parallelism without p2p.)
    const bool staged_tp = r.par.tp > 1 && !pcie_peer_to_peer(g);
    const Link* intra = !staged_tp || ic.link.empty() || !r.catalog ? nullptr : r.catalog->find_link(ic.link);
    if (intra && intra->kind == LinkKind::pcie)
        rep.warnings.emplace_back(g.name + " has PCIe peer-to-peer disabled in the stock driver: NCCL stages tensor-parallel traffic "
                                  "through host memory (the communication figures here include it)");
    if (g.tdp_w <= 0) rep.warnings.push_back("board power of " + g.name + " is not in the catalog: power figures leave the GPU out");
}

}  // namespace gpusizer::detail
