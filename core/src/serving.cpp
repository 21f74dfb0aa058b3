// serving.cpp: a server under steady load (continuous batching in steady state).
//
// [SECTION] Engine scheduling defaults
// [SECTION] The model of one configuration (constants gathered once)
// [SECTION] One engine step
// [SECTION] The steady state of a load
//
// Units: bytes, seconds, FLOP, tokens, requests, as double. docs/formulas.md, "Serving", has the
// derivation; every scheduling default names its source here or in runtime_profiles.hpp.
#include "serving.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime_profiles.hpp"
#include "power/power.hpp"

namespace gpusizer::detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] Engine scheduling defaults
// ---------------------------------------------------------------------------------------------

long long serving_token_budget(const Resolved& r) {
    const Config& c = *r.config;
    if (c.prefill_chunk) return *c.prefill_chunk;
    // TensorRT-LLM under attention DP: max_num_tokens is each rank's, the replica's step the sum.
    if (r.runtime == Runtime::trt_llm && r.dp_attn > 1) return kTrtLlmMaxNumTokens * r.dp_attn;
    switch (r.runtime) {
        case Runtime::vllm:   // max_num_batched_tokens (vllm/engine/arg_utils.py get_batch_defaults)
            return vllm_large_scheduler_defaults(*r.gpu) ? kVllmBatchedTokensLarge : kVllmBatchedTokensSmall;
        case Runtime::sglang: return sglang_chunked_prefill_size(*r.engine_version, r.gpu->capacity_bytes() / kMiB);
        case Runtime::trt_llm: return kTrtLlmMaxNumTokens;
        case Runtime::llama_cpp: return kLlamaCppUbatch;   // each forward is one ubatch of the server's batch
        default: return 0;                                 // transformers: every prompt in one forward
    }
}

long long serving_max_sequences(const Resolved& r) {
    // The key, as the engine's own flag sets it (vLLM --max-num-seqs, SGLang
    // --max-running-requests, TensorRT-LLM max_batch_size; on llama.cpp and PyTorch resolve() made
    // it the batch, the slots); 0 reads as not given, as in a file.
    if (const int given = r.config->max_num_seqs.value_or(0); given > 0) return given;
    switch (r.runtime) {
        case Runtime::vllm:   // max_num_seqs (same function)
            return vllm_large_scheduler_defaults(*r.gpu) ? kVllmMaxSeqsLarge : kVllmMaxSeqsSmall;
        case Runtime::trt_llm:   // 1.x's max_batch_size, or the TensorRT engine's build default (0.x)
            return r.engine_version && r.engine_version->max_batch_default > 0 ? r.engine_version->max_batch_default
                                                                               : kTrtLlmMaxBatchSize;
        case Runtime::llama_cpp:   // llama-server's slots (-np), each with its own context
        case Runtime::pytorch:     // generate() over a static batch
            return r.config->batch;
        default: return 0;         // SGLang (its pool's cap: engine_sequence_cap), none: the KV pool alone
    }
}

// SGLang: python/sglang/srt/model_executor/model_runner.py sizes its request pool
// (req_to_token_pool) min(max(int(max_total_num_tokens / context_len * 512), 2048), 4096);
// managers/tp_worker.py caps running requests at min(max_total_num_tokens // 2, that pool).
double sglang_running_requests(double pool_tokens, double context_len) {
    if (!(pool_tokens > 0) || !(context_len > 0)) return 0.0;
    const double slots = std::min(std::max(std::floor(pool_tokens / context_len * 512.0), 2048.0), 4096.0);
    return std::min(std::floor(pool_tokens / 2.0), slots);
}

long long trt_rank_max_batch(const Resolved& r) {
    const long long cap = serving_max_sequences(r);
    return r.dp_attn > 1 && r.config->max_num_seqs.value_or(0) > 0 ? cap / r.dp_attn : cap;
}

double engine_sequence_cap(const Resolved& r, const Totals& t) {
    // Under TensorRT-LLM's attention DP each rank schedules its own requests up to max_batch_size.
    if (r.runtime == Runtime::trt_llm) return double(trt_rank_max_batch(r) * r.dp_attn);
    const long long cap = serving_max_sequences(r);   // the key, or the engine's fixed default
    if (r.runtime != Runtime::sglang) return double(cap);
    // SGLang's --max-running-requests is the replica's: under data-parallel attention each group's
    // scheduler takes its floor division by the groups (model_runner.py: max_running_requests //
    // dp_size), so 100 over 8 groups runs 12 each, 96 in all.
    if (cap > 0) return double(cap / r.dp_attn * r.dp_attn);
    // Under data-parallel attention each group's scheduler caps its own requests from its own pool.
    return sglang_running_requests(t.kv_capacity_tokens, double(r.config->context)) * r.dp_attn;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The model of one configuration
// ---------------------------------------------------------------------------------------------

namespace {

// Adds `rate` bytes per token for `layers` layers that keep at most `cap` tokens (0: all).
void add_rate(KvLengthCost& k, double rate, long long cap) {
    if (rate <= 0) return;
    if (cap <= 0) {
        k.full_rate += rate;
        return;
    }
    for (int i = 0; i < k.caps; ++i)
        if (k.cap_tokens[i] == double(cap)) {
            k.cap_rate[i] += rate;
            return;
        }
    if (k.caps < KvLengthCost::kMaxCaps) {
        k.cap_tokens[k.caps] = double(cap);
        k.cap_rate[k.caps++] = rate;
    } else {
        k.full_rate += rate;   // more distinct windows than kept: counted uncapped (an upper bound)
    }
}

}  // namespace

ServingModel serving_model_of(const Resolved& r) {
    const Totals t = compute(r);
    const PerfInputs in = perf_inputs(r);
    const Fabric fabric = fabric_of(r);
    PerfBuffers buf;
    evaluate_performance(r, in, t, fabric, buf.out);
    return serving_model(r, in, t, fabric, buf.out);
}

ServingModel serving_model(const Resolved& r, const PerfInputs& in, const Totals& t, const Fabric& f, const PerfOut& po) {
    const ModelArch& a = *r.arch;
    const Config& c = *r.config;
    ServingModel m;
    m.dense_bytes = in.layer_weight_bytes - in.layer_expert_bytes + in.edge_read_bytes;
    m.expert_bytes = in.layer_expert_bytes - in.cpu_moe_gpu_bytes;
    m.host_expert_bytes = in.cpu_moe_host_bytes;
    m.host_read_bandwidth = host_read_bandwidth(po.host_bandwidth);
    m.host_copy_bandwidth = host_copy_bandwidth(*r.gpu, f);
    for (const LayerSpec& l : a.kinds)
        if (l.is_moe()) {
            m.expert_share = double(l.mlp.experts_per_token) / l.mlp.n_experts;
            break;
        }
    m.tp = r.par.tp;
    m.pp = r.par.pp;
    m.ep = r.par.ep;
    m.dp = r.par.dp;
    // With ep > tp the expert group spans ep / tp replicas: each GPU's experts see all their
    // tokens (the FLOPs per GPU stay tokens x k x expert FLOPs / tp: ep / tp replicas' tokens over ep GPUs).
    m.expert_token_factor = m.ep > m.tp ? double(m.ep) / m.tp : 1.0;
    m.flops_per_token = 2.0 * in.matmul_params / m.tp;
    m.expert_flops_per_token = in.expert_flops_per_token / m.tp;
    m.expert_tile_by_batch = in.expert_tile_by_batch;
    m.attn_flops_per_position = in.attn_flops_per_position / m.tp;
    m.attn_decode_flops_per_position = in.attn_decode_flops_per_position / m.tp;
    const std::uint16_t* pool_counts = r.stage_count(t.kv_stage);
    // Data-parallel attention: the requests spread over dp_attn groups, each GPU reading the cache
    // of its own group's requests only, and the replica holding dp_attn pools.
    const double groups = r.dp_attn;
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
        const LayerVariant& lv = r.variants[v];
        const double per_token = lv.kv_values_gpu * r.kv->bytes + lv.indexer_bytes;
        // Decode reads every layer's cache on this rank (all stages, one after the other) and
        // reads and writes each recurrent state once (as the decode roofline, performance.cpp).
        add_rate(m.kv_read, lv.count * per_token / groups, lv.kv_cap);
        m.kv_read.state += lv.count * m.state_read_factor * lv.state_bytes_gpu / groups;
        // The pool of the tightest stage holds that stage's layers.
        const double n = pool_counts[v];
        add_rate(m.kv_pool_seq, n * per_token, lv.kv_cap);
        m.kv_pool_seq.state += n * lv.state_bytes_gpu;
    }
    // Sampling: the fp32 logits of every decoding sequence are written, then read by the sampler
    // (vLLM and SGLang gather the vocabulary-parallel logits before sampling).
    m.logits_bytes_per_seq = a.kind == ArchKind::encoder ? 0.0 : double(a.vocab) * 4.0 * 2.0;
    m.eff_bandwidth = po.bandwidth_efficiency * r.gpu->memory_bandwidth_gb_per_s * 1e9;
    m.eff_flops = po.mfu * po.compute.flops;
    m.attn_flops = po.attn_flops > 0 ? po.attn_flops : m.eff_flops;
    m.route_bytes_per_token = moe_route_bytes_per_token(in.moe_route_copies, in.moe_layers, in.hidden, in.act_bytes, po.compute.used);
    m.stream_bandwidth = stream_bandwidth_efficiency(po.bandwidth_efficiency) * r.gpu->memory_bandwidth_gb_per_s * 1e9;
    m.per_forward = po.layer_overhead * in.layers;
    // The engine version's own time per step and per decoding request (vLLM 0.10-0.11), for the
    // serving step only, where it was fitted (8-256 requests in flight); the one-stream roofline
    // (performance.cpp) does not carry it.
    if (r.engine_version) {
        m.step_overhead = r.engine_version->step_overhead_s;
        m.seq_overhead = r.engine_version->seq_overhead_s;
    }
    // The key replaces the version's time per decoding request (any engine: a host measured beside
    // a GPU, as TensorRT-LLM's pull request 10273 printed its iteration's).
    if (r.config->seq_overhead_us) m.seq_overhead = *r.config->seq_overhead_us / 1e6;
    m.fabric = f;
    if (f.levels > 0) {
        if (m.tp > 1) m.tp_span = span_of(f, m.tp, 1);
        if (m.ep > 1) m.ep_span = span_of(f, m.ep, 1);
    }
    m.pp_distance = (long long)m.tp * m.dp;
    m.moe_gather = moe_gathered(r, in.moe_layers);
    m.rank_local = rank_local(r);
    m.hidden = in.hidden;
    m.act_bytes = in.act_bytes;
    m.gemm_precision = po.compute.used;
    m.pipelined = m.pp > 1 && (r.runtime == Runtime::vllm || r.runtime == Runtime::sglang || r.runtime == Runtime::trt_llm);
    m.act_bytes_per_token = in.act_bytes_per_token;
    m.layers = in.layers;
    m.moe_layers = in.moe_layers;
    m.experts_per_token = in.experts_per_token;
    m.routing = in.routing;
    m.kv_pool_bytes = t.kv_pool_bytes * groups;
    m.max_sequences = engine_sequence_cap(r, t);
    m.fixed_slots = r.runtime == Runtime::llama_cpp || r.runtime == Runtime::pytorch;
    m.token_budget = double(serving_token_budget(r));
    m.context = double(c.context);
    m.gpu = r.gpu;
    m.peak_bandwidth = r.gpu->memory_bandwidth_gb_per_s * 1e9;
    m.peak_flops = po.compute.flops;
    m.board_w = r.gpu->tdp_w;
    m.host_w = po.power.host_w;
    m.wall = po.wall;
    m.pue = po.pue;
    m.usd_per_kwh = c.usd_per_kwh;
    return m;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] One engine step
// ---------------------------------------------------------------------------------------------

double serving_step_seconds(const ServingModel& m, double decode, double prefill, double length, double isl, std::string_view* bound,
                            StepWork* work) {
    const double tokens = decode + prefill;
    // Matmuls: the weights are read once per step, the routed experts as far as the step's tokens
    // touch them (1 - (1 - k/E)^tokens, as the decode roofline); the math runs at the MFU. The two
    // overlap inside the GEMMs, not wholly near the ridge (gemm_roofline_seconds).
    const double touched = m.expert_share > 0 ? 1.0 - std::pow(1.0 - m.expert_share, tokens * m.expert_token_factor) : 1.0;
    const double w_mem = (m.dense_bytes + m.expert_bytes * touched) / m.eff_bandwidth;
    // The routed experts' GEMMs get tokens x k / E rows per expert (x ep / tp where the experts
    // spread over replicas) and run at expert_gemm_efficiency of them (performance.hpp), as prefill.
    const double rows = tokens * m.expert_share * m.expert_token_factor;
    const double eta_e = m.expert_share > 0 ? expert_gemm_efficiency(rows, m.expert_tile_by_batch ? tokens : rows) : 1.0;
    const double w_comp = (m.flops_per_token + m.expert_flops_per_token * (1.0 / eta_e - 1.0)) * tokens / m.eff_flops;
    // Attention runs in its own kernels after the projections: decode reads each decoding
    // sequence's cache at the average length; prefill chunks attend causally to their prompt,
    // (isl + 1) / 2 positions on average.
    const double kv_mem = decode * m.kv_read.at(length) / m.eff_bandwidth;
    const double attn_rate = m.attn_flops > 0 ? m.attn_flops : m.eff_flops;   // 0: a model built without it runs attention as the rest
    const double kv_comp = decode * length * m.attn_decode_flops_per_position / attn_rate;
    const double prefill_attn = prefill * (isl + 1.0) / 2.0 * m.attn_flops_per_position / attn_rate;
    const double sampling = decode * m.logits_bytes_per_seq / m.eff_bandwidth;
    // MoE: the gather and weighted-sum kernels around the expert GEMMs, memory-bound, their own time.
    const double route = m.stream_bandwidth > 0 ? tokens * m.route_bytes_per_token / m.stream_bandwidth : 0.0;
    // Communication at the step's real message size (tokens x hidden x activation bytes): small,
    // so latency-bound (interconnect.cpp's collective times include each link's latency).
    const double s = tokens * m.act_bytes_per_token;
    double comm = 0;
    if (m.rank_local) {
        // TensorRT-LLM's attention DP: the experts' gather and scatter over the tp ranks, nothing else.
        if (m.moe_gather && m.fabric.levels > 0)
            comm += m.moe_layers * moe_gather_seconds(m.tp_span, tokens, m.hidden, m.act_bytes, m.gemm_precision);
    } else {
        if (m.tp > 1 && m.fabric.levels > 0) comm += 2.0 * m.layers * allreduce_time(m.tp_span, s).seconds;   // after attention and MLP
        if (m.ep > 1 && m.fabric.levels > 0) comm += 2.0 * m.moe_layers * expert_all_to_all_seconds(m.ep_span, s, m.routing);
    }
    if (m.pp > 1 && m.fabric.levels > 0) comm += (m.pp - 1) * p2p_seconds(m.fabric, m.pp_distance, s);
    // Fixed time per forward, and the engine's own per step and per decoding request: the GPU
    // waits (no work counted, so the step's draw falls toward the floor).
    const double overhead = m.per_forward + m.step_overhead + m.seq_overhead * decode;
    // llama.cpp --n-cpu-moe: the host experts, as the decode roofline and prefill bring them
    // (performance.cpp), counted apart for the step's two kinds of forward (this mean step mixes
    // them; the share touched is not linear in tokens): the decode tokens' experts read by the
    // CPU, and for the prompt tokens their share of a prompt chunk's (min(isl, token budget)
    // tokens) experts, copied over PCIe from 32 tokens on, else read by the CPU.
    double host = 0;
    if (m.host_expert_bytes > 0) {
        auto share = [&](double n) { return m.expert_share > 0 ? 1.0 - std::pow(1.0 - m.expert_share, n * m.expert_token_factor) : 1.0; };
        host = m.host_expert_bytes * share(decode) / m.host_read_bandwidth;
        if (prefill > 0) {
            const double chunk = std::max(1.0, m.token_budget > 0 ? std::min(isl, m.token_budget) : isl);
            const double bw = chunk >= kLlamaCppOpOffloadMinBatch && m.host_copy_bandwidth > 0 ? m.host_copy_bandwidth : m.host_read_bandwidth;
            host += prefill / chunk * m.host_expert_bytes * share(chunk) / bw;
        }
    }
    const double step =
        gemm_roofline_seconds(w_mem, w_comp) + std::max(kv_mem, kv_comp) + prefill_attn + sampling + route + comm + overhead + host;
    if (work) {   // the seconds above times the rates they were divided by
        work->bytes = (w_mem + kv_mem + sampling) * m.eff_bandwidth + route * m.stream_bandwidth;
        work->kv_bytes = kv_mem * m.eff_bandwidth;
        work->flops = w_comp * m.eff_flops + (kv_comp + prefill_attn) * attn_rate;
    }
    if (bound) {
        const double memory = (w_mem >= w_comp ? w_mem : 0.0) + (kv_mem >= kv_comp ? kv_mem : 0.0) + sampling + route;
        const double compute = (w_comp > w_mem ? w_comp : 0.0) + (kv_comp > kv_mem ? kv_comp : 0.0) + prefill_attn;
        *bound = "memory_bandwidth";
        double most = memory;
        if (compute > most) { most = compute; *bound = "compute"; }
        if (comm > most) { most = comm; *bound = "communication"; }
        if (overhead > most) { most = overhead; *bound = "overhead"; }
        if (host > most) *bound = "host_memory";
    }
    return step;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The steady state of a load
// ---------------------------------------------------------------------------------------------

ServingReport serving_at(const ServingModel& m, double isl, double osl, double concurrency) {
    ServingReport out;
    out.active = true;
    const double inf = std::numeric_limits<double>::infinity();
    const double dp = m.dp;
    // How many requests one replica runs at once: the engine's slots or sequence cap, and the
    // pool over one request's cache at its final length (isl + osl).
    double cap = m.max_sequences > 0 ? m.max_sequences : inf;
    bool kv_limited = false;
    bool pool_holds_more = false;   // the sequence cap binds below the pool (room left for more requests)
    if (!m.fixed_slots) {
        const double per_request = m.kv_pool_seq.at(isl + osl);
        const double by_kv = per_request > 0 ? std::floor(m.kv_pool_bytes / per_request) : inf;
        if (by_kv < cap) {
            cap = by_kv;
            kv_limited = true;
        }
        pool_holds_more = by_kv > cap;
    }
    const double asked = concurrency > 0 ? concurrency / dp : inf;
    // Not one request fits (or nothing bounds the load): nothing runs.
    if (!(cap >= 1.0) || !std::isfinite(std::min(asked, cap))) {
        out.bound = kv_limited || !std::isfinite(cap) ? "kv_capacity" : "max_sequences";
        return out;
    }
    // A mean over time: fractional below one request per replica (an open loop at a low rate).
    const double running = std::min(asked, cap);
    // A pipelined engine splits them into pp batches, one per stage at a time: a step carries one
    // batch through every stage (serving_step_seconds sums the stages), and every request gets a
    // token per step while the stages work on the pp batches side by side.
    const double batch = m.pipelined ? running / m.pp : running;
    // Steps one request lives through: its prompt in chunks of the token budget, then osl - 1
    // decode steps (the last prompt chunk yields the first token). When the budget cannot carry
    // every running request's tokens, steps stretch: C (isl + osl - 1) tokens over budget-sized steps.
    const double budget = m.token_budget > 0 ? m.token_budget : inf;
    const double chunks = std::isfinite(budget) ? std::ceil(isl / budget) : 1.0;
    const double decode_steps = osl - 1.0;
    const double steps = std::max(decode_steps + chunks, batch * (isl + decode_steps) / budget);
    const double decode = batch * decode_steps / steps;
    const double prefill = batch * isl / steps;
    const double length = isl + osl / 2.0;   // the average cache a decode step reads: the prompt plus half the output
    std::string_view step_bound;
    StepWork work;
    const double step = serving_step_seconds(m, decode, prefill, length, isl, &step_bound, &work);
    // The steps that carry this request's prompt carry at least a chunk of it (the whole prompt up
    // to the budget): a lone request's first token takes its prompt's step, not the mean step.
    // (The mean step spreads prompts over every step; the simulation, simulate.cpp, runs them as
    // the chunks they are: docs/formulas.md, "Request-level simulation", the difference.)
    const double chunk = std::isfinite(budget) ? std::min(isl, budget) : isl;
    // Beside it, the other requests' decodes (a lone request decodes nothing while it prefills).
    const double others = batch > 1 ? decode * (batch - 1) / batch : 0.0;
    const double prompt_step = serving_step_seconds(m, others, std::max(chunk, prefill), length, isl);
    const double cycle = steps * step;   // one request's life, prompt to last token
    const double rps = running / cycle;  // per replica
    out.concurrency = running * dp;
    out.step_s = step;
    out.decode_tokens_per_step = decode;
    out.prefill_tokens_per_step = prefill;
    out.requests_per_s = rps * dp;
    out.output_tokens_per_s = out.requests_per_s * osl;
    out.output_tokens_per_s_per_gpu = out.output_tokens_per_s / (dp * m.tp * m.pp);
    out.tpot_s = osl > 1 ? step : 0.0;
    out.tokens_per_s_per_user = out.tpot_s > 0 ? 1.0 / out.tpot_s : 0.0;
    // The first token: half a step of waiting for the step in progress, the steps of the prompt
    // (stretched when the budget binds), and a wait for a free slot when more are asked than run
    // (closed loop, Little's law: the extra requests over the completion rate).
    const double queue = std::isfinite(asked) && asked > running ? (asked - running) / rps : 0.0;
    out.ttft_s = 0.5 * step + (steps - decode_steps) * prompt_step + queue;
    // What limits: more asked than run wait on the pool or the cap; asked for as many as run (no
    // concurrency given), a cap below what the pool holds is the limit (max_num_seqs or the
    // engine's default: raising it runs more); else the step's largest part.
    if (std::isfinite(asked) && asked > running) out.bound = kv_limited ? "kv_capacity" : "max_sequences";
    else if (!std::isfinite(asked) && pool_holds_more) out.bound = "max_sequences";
    else out.bound = step_bound;
    // Power: the step's utilization of one GPU (pipeline stages take turns, 1 / pp of the step each,
    // or work side by side on a pipelined engine's batches: step_draw below), its draw, and
    // energy per million output tokens at the facility.
    if (m.gpu && step > 0 && m.peak_bandwidth > 0 && m.peak_flops > 0) {
        const double turns = m.pipelined ? 1.0 : m.pp;
        const double u_m = work.bytes / turns / (step * m.peak_bandwidth);
        const double u_c = work.flops / turns / (step * m.peak_flops);
        out.draw_fraction = board_draw_fraction(*m.gpu, u_c, u_m, work.kv_bytes / turns / (step * m.peak_bandwidth));
        out.gpu_w = dp * m.tp * m.pp * m.board_w * out.draw_fraction;
        out.wall_w = wall_watts(m.wall, int(dp * m.tp * m.pp), out.gpu_w);
        const double facility_w = out.wall_w * m.pue;
        if (out.output_tokens_per_s > 0) {
            out.energy_kwh_per_million_tokens = facility_w * 1e6 / out.output_tokens_per_s / 3.6e6;
            out.cost_usd_per_million_tokens = out.energy_kwh_per_million_tokens * m.usd_per_kwh;
        }
    }
    return out;
}

namespace {

double step_draw(const ServingModel& m, const StepWork& work, double step) {
    if (!m.gpu || !(step > 0) || !(m.peak_bandwidth > 0) || !(m.peak_flops > 0)) return 0.0;
    // Stages take turns (1 / pp of the step each), or work side by side on the pp batches of a
    // pipelined engine, each GPU its stage's share of every batch: the step's work for one batch.
    const double turns = m.pipelined ? 1.0 : m.pp;
    return board_draw_fraction(*m.gpu, work.flops / turns / (step * m.peak_flops), work.bytes / turns / (step * m.peak_bandwidth),
                               work.kv_bytes / turns / (step * m.peak_bandwidth));
}

}  // namespace

PrefillPool serving_prefill_pool(const ServingModel& m, double isl) {
    PrefillPool p;
    // Saturated: every step carries the token budget of prompt tokens (a whole prompt when the
    // engine has no budget).
    const double budget = m.token_budget > 0 ? m.token_budget : isl;
    StepWork work;
    p.step_s = serving_step_seconds(m, 0, budget, 0, isl, nullptr, &work);
    // A pipelined engine finishes a batch every step / pp (each stage a batch at a time).
    p.requests_per_s = p.step_s > 0 ? budget / isl / p.step_s * (m.pipelined ? m.pp : 1.0) : 0.0;
    p.draw_fraction = step_draw(m, work, p.step_s);
    // One prompt: its chunks, each at the step time of its own tokens; then its cache goes to
    // the decode replica over the fabric, each tensor-parallel rank its shard (a node apart: the
    // pools sit on different nodes or at least different GPUs; p2p_seconds picks the link).
    const double chunk = std::min(budget, isl);
    const double chunks = std::ceil(isl / chunk);
    const double cache = m.kv_pool_seq.at(isl);   // bytes one GPU holds of the prompt's cache
    const double send = m.fabric.levels > 0 ? p2p_seconds(m.fabric, m.fabric.node_size, cache) : 0.0;
    p.ttft_s = chunks * serving_step_seconds(m, 0, chunk, 0, isl) + send;
    return p;
}

ServingReport serving_decode_pool(const ServingModel& m, double isl, double osl, double concurrency) {
    ServingReport out;
    out.active = true;
    const double inf = std::numeric_limits<double>::infinity();
    double cap = m.max_sequences > 0 ? m.max_sequences : inf;
    if (!m.fixed_slots) {
        const double per_request = m.kv_pool_seq.at(isl + osl);
        cap = std::min(cap, per_request > 0 ? std::floor(m.kv_pool_bytes / per_request) : inf);
    }
    const double running = std::min(concurrency > 0 ? concurrency : inf, cap);
    if (!(running >= 1.0) || !std::isfinite(running) || osl <= 1) {
        out.bound = "kv_capacity";
        return out;
    }
    // Every step decodes every request in flight (the first token came from the prefill pool):
    // osl - 1 steps per request, at the average cache length; a pipelined engine's step carries
    // one of its pp batches through the stages while the others are in the other stages.
    std::string_view bound;
    StepWork work;
    const double batch = m.pipelined ? running / m.pp : running;
    const double step = serving_step_seconds(m, batch, 0, isl + osl / 2.0, isl, &bound, &work);
    out.concurrency = running;
    out.step_s = step;
    out.decode_tokens_per_step = batch;
    out.requests_per_s = running / ((osl - 1.0) * step);
    out.output_tokens_per_s = out.requests_per_s * osl;
    out.output_tokens_per_s_per_gpu = out.output_tokens_per_s / (m.tp * m.pp);
    out.tpot_s = step;
    out.tokens_per_s_per_user = 1.0 / step;
    out.draw_fraction = step_draw(m, work, step);
    out.bound = bound;
    return out;
}

ServingReport serving_at_rate(const ServingModel& m, double isl, double osl, double rate) {
    const ServingReport full = serving_at(m, isl, osl, 0);   // as many as the engines hold
    if (full.concurrency < 1 || rate >= full.requests_per_s) {
        ServingReport out = full;
        if (full.concurrency >= 1) out.bound = "overloaded";
        return out;
    }
    // Completions per second grow with the requests in flight: bisect on the concurrency (a real
    // number: a mean over time) until they match the arrivals. 50 halvings of [0, C]: below 1e-15 C.
    double lo = 0, hi = full.concurrency;
    ServingReport mid_report = full;
    for (int i = 0; i < 50; ++i) {
        const double mid = 0.5 * (lo + hi);
        mid_report = serving_at(m, isl, osl, mid);
        if (mid_report.requests_per_s < rate) lo = mid;
        else hi = mid;
    }
    return mid_report;
}

}  // namespace gpusizer::detail
