// resolve.cpp: a configuration resolved: defaults filled in, checked, parallel degrees placed.
//
// [SECTION] Resolving the configuration (defaults, parallel degrees, runtime)
//
// resolve() ends by building the layer variants of the memory model (memory.cpp); the estimate
// itself is estimate.cpp's. Their shared declarations are in estimate_internal.hpp.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "estimate_internal.hpp"
#include "hub_model.hpp"
#include "gpusizer/compute.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/phrasing.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"
#include "cost/cost.hpp"
#include "power/wall_power.hpp"

namespace gpusizer::detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] Resolving the configuration
// ---------------------------------------------------------------------------------------------

namespace {

constexpr long long kDefaultContext = 8192;       // a typical chat/RAG window, not the model's max
constexpr int kMaxBatch = 1 << 20;
constexpr double kConfigDefaultGpuMemoryUtilization = 0.9;   // Config::gpu_memory_utilization's initializer (gpusizer/config.hpp)

bool is_training(Mode m) { return m != Mode::inference; }

void check_range(long long v, long long lo, long long hi, const char* key) {
    if (v < lo || v > hi)
        throw_error(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + std::to_string(v));
}

Runtime choose_runtime(const Config& c, const WeightFormat& wf, const KvFormat& kv) {
    if (c.runtime != Runtime::automatic) return c.runtime;
    if (is_training(c.mode)) return Runtime::pytorch;
    if (wf.family == WeightFamily::gguf || kv.llama_cpp_only) return Runtime::llama_cpp;
    return Runtime::pytorch;
}

void check_compatibility(const Config& c, const Resolved& r) {
    const bool train = is_training(c.mode);
    const WeightFamily fam = r.wf->family;
    // What the mode can train comes first: it is the more useful message.
    if (c.mode == Mode::train && is_quantized(*r.wf))
        throw_error("weights", "full training needs fp32, bf16 or fp16 weights, got '" + std::string(r.wf->id) +
                                   "'; use mode qlora to train adapters on a quantized base");
    if (c.mode == Mode::lora && is_quantized(*r.wf))
        throw_error("weights", "mode lora keeps a 16-bit base, got '" + std::string(r.wf->id) + "'; use mode qlora for a quantized base");
    if (c.mode == Mode::qlora && (!is_quantized(*r.wf) || fam == WeightFamily::gguf))
        throw_error("weights",
                    "mode qlora trains adapters on a quantized base: use nf4 (default), int4, int8 or fp8, "
                    "got '" +
                        std::string(r.wf->id) + "'");
    if (r.runtime == Runtime::llama_cpp) {
        if (train) throw_error("runtime", "llama.cpp runs inference only; training modes need pytorch (or none)");
        if (fam != WeightFamily::gguf && !(fam == WeightFamily::floating && r.wf->bits >= 16))
            throw_error("weights", "'" + std::string(r.wf->id) + "' does not run in llama.cpp; use a GGUF type (" + gguf_format_ids() +
                                       ") or fp32/fp16/bf16, or runtime pytorch/vllm");
    } else if (r.runtime == Runtime::none) {
        // `none` counts the model's own tensors only (docs/config.md): every weight and cache format is accepted.
    } else if (fam == WeightFamily::gguf) {
        throw_error("weights", "'" + std::string(r.wf->id) +
                                   "' is a GGUF type that only llama.cpp runs; set runtime "
                                   "to llama.cpp (or auto), or pick fp16/bf16/fp8/int8/int4/nf4");
    }
    if (r.kv->llama_cpp_only && r.runtime != Runtime::llama_cpp && r.runtime != Runtime::none)
        throw_error("kv_cache", "'" + std::string(r.kv->id) + "' is a llama.cpp cache type; with runtime " +
                                    std::string(to_string(r.runtime)) + " use fp16, bf16, fp8 or fp32");
    if ((r.runtime == Runtime::vllm || r.runtime == Runtime::sglang || r.runtime == Runtime::trt_llm) && train)
        throw_error("runtime", std::string(to_string(r.engine)) + " runs inference only; training modes need pytorch (or none)");
    if (r.engine == Runtime::ollama && train) throw_error("runtime", "ollama runs inference only; training modes need pytorch (or none)");
    if (!train) {
        if (c.zero != 0) throw_error("zero", "ZeRO shards training state; it applies to modes train, lora, qlora");
        if (c.offload != Offload::none) throw_error("offload", "optimizer offload applies to training modes only");
    }
    if (c.offload == Offload::optimizer && c.zero < 1) throw_error("offload", "'optimizer' offload (ZeRO-Offload) needs zero 1, 2 or 3");
    if (c.offload == Offload::optimizer_params && c.zero != 3)
        throw_error("offload", "'optimizer+params' offload (ZeRO-Infinity) needs zero 3");
}

// Does tensor parallelism of degree `tp` divide the heads of every layer kind (attention query
// and KV-sharing groups are split by heads; Mamba-2 and Gated DeltaNet layers by their heads)?
inline bool tp_divides_heads(const ModelArch& a, int tp) {
    if (a.n_heads % tp != 0) return false;
    for (const LayerSpec& l : a.kinds) {
        if (l.attn.kind != AttnKind::none && l.attn.n_heads % tp != 0) return false;
        const RecurrentSpec& rc = l.recurrent;
        if (rc.kind != RecurrentKind::none && rc.kind != RecurrentKind::mamba && rc.n_heads % tp != 0) return false;
        if (rc.kind == RecurrentKind::gated_deltanet && rc.n_k_heads % tp != 0) return false;
    }
    return true;
}

// The head counts tp must divide, for messages: "32" or "32 and 16".
std::string head_counts(const ModelArch& a) {
    std::vector<int> seen{a.n_heads};
    for (const LayerSpec& l : a.kinds) {
        if (l.attn.kind != AttnKind::none) seen.push_back(l.attn.n_heads);
        if (l.recurrent.kind != RecurrentKind::none && l.recurrent.kind != RecurrentKind::mamba) seen.push_back(l.recurrent.n_heads);
        if (l.recurrent.kind == RecurrentKind::gated_deltanet) seen.push_back(l.recurrent.n_k_heads);
    }
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    std::string out;
    for (std::size_t i = 0; i < seen.size(); ++i) out += (i == 0 ? "" : i + 1 == seen.size() ? " and " : ", ") + std::to_string(seen[i]);
    return out;
}

// Context parallelism (Megatron-LM docs/source/api-guide/context_parallel.rst): GPUs = tp x cp x
// pp x dp; the sequence is split into 2 x cp chunks, two per rank, so that causal attention
// balances (megatron/core/utils.py get_batch_on_this_cp_rank): 2 x cp divides the context. The
// K/V ring runs in TransformerEngine's flash / fused attention only (AttnFuncWithCPAndKVP2P).
void check_context_parallel(const Config& c, const Resolved& r) {
    if (c.cp <= 1) return;
    const char* why = nullptr;
    if (!is_training(c.mode)) why = "applies to training modes only";
    else if (c.gpus % c.cp != 0) why = "must divide gpus (gpus = tp x cp x pp x dp)";
    else if (c.context % (2LL * c.cp) != 0) why = "must divide the context twice over (2 x cp chunks of each sequence)";
    else if (!c.flash_attention) why = "needs flash_attention (the ring runs in flash / fused attention kernels)";
    for (const LayerSpec& l : r.arch->kinds)
        if (!why && l.is_recurrent()) why = "is not modelled for recurrent layers (their state runs along the sequence)";
    if (why) throw_error("cp", why);
}

}  // namespace

int tp_node_size(const Catalog& catalog, const Gpu& gpu, const Link* link) {
    const GpuLinks links = catalog.default_links(gpu);
    const Link* intra = link ? link : links.intra;
    if (!intra) return 0;                                    // no links: one machine, as many as asked
    if (intra->scope == LinkScope::inter_node) return 1;     // every GPU its own node
    // A bridge joins pairs inside a machine whose PCIe holds more: the machine is the node.
    const int pcie = links.pcie && links.pcie->scope != LinkScope::inter_node ? links.pcie->gpus_per_node : 0;
    return std::max({1, intra->gpus_per_node, pcie});
}

namespace {

void resolve_parallelism(const Config& c, Resolved& r) {
    const ModelArch& a = *r.arch;
    const int given[3] = {c.tp, c.pp, c.dp};
    const char* names[3] = {"tp", "pp", "dp"};
    const int cp = std::max(1, c.cp);   // check_context_parallel: it divides gpus
    const int gpus = c.gpus / cp;       // what tp x pp x dp share
    long long known = 1;
    for (int k = 0; k < 3; ++k) {
        if (given[k] < 0) throw_error(names[k], "must be 0 (automatic) or a positive integer");
        if (given[k] > 0) known *= given[k];
    }
    if (known > gpus || gpus % known != 0)
        throw_error("gpus", "tp x pp x dp given as " + std::to_string(known) + " does not divide gpus / cp = " + std::to_string(gpus));
    const int rest = int(gpus / known);
    int deg[3] = {std::max(given[0], 0), std::max(given[1], 0), std::max(given[2], 0)};
    // Which degree takes the GPUs not assigned explicitly: training shards data; llama.cpp
    // splits layers across GPUs; vLLM / PyTorch inference split heads (tensor parallel).
    int order[3];
    if (is_training(c.mode)) { order[0] = 2; order[1] = 0; order[2] = 1; }
    else if (r.runtime == Runtime::llama_cpp) { order[0] = 1; order[1] = 0; order[2] = 2; }
    else { order[0] = 0; order[1] = 1; order[2] = 2; }
    bool placed = rest == 1;
    for (int k : order) {
        if (deg[k] != 0) continue;
        if (!placed) {
            // Tensor parallelism must divide the heads and pipeline stages need a layer each;
            // data parallelism (replicas) takes any count.
            if (k == 0 && !tp_divides_heads(a, rest)) continue;
            if (k == 1 && rest > a.total_layers()) continue;
            deg[k] = rest;
            placed = true;
        }
    }
    // Inference with tp, pp and dp all automatic, where neither tp nor pp can take every GPU:
    // the loop above gave them all to dp, full replicas of the model, so adding GPUs could turn
    // "fits" into "does not fit" (Llama 3.1 405B on H100s: 128 GPUs are tp 128, 192 were dp 192).
    // Split the count instead: the runtime's model-splitting degree (pp for llama.cpp, tp
    // otherwise) takes its largest allowed divisor of the count, the other one the largest
    // allowed divisor of what is left, and dp the remainder (192 = tp 64 x pp 3).
    if (!is_training(c.mode) && rest > 1 && given[0] == 0 && given[1] == 0 && given[2] == 0 && deg[2] == rest) {
        auto largest = [&](int n, int k) {
            for (int d = n; d > 1; --d)
                if (n % d == 0 && (k == 0 ? tp_divides_heads(a, d) : d <= a.total_layers())) return d;
            return 1;
        };
        const int first = r.runtime == Runtime::llama_cpp ? 1 : 0, second = 1 - first;
        deg[first] = largest(rest, first);
        deg[second] = largest(rest / deg[first], second);
        deg[2] = rest / (deg[first] * deg[second]);
    }
    for (int k = 0; k < 3; ++k)
        if (deg[k] == 0) deg[k] = 1;
    // Automatic tensor parallelism stays inside a node, as engines keep it (vLLM and SGLang span
    // nodes with pipeline or data parallelism: tensor-parallel all-reduces on every layer would
    // cross the network). What it cannot hold goes to pipeline stages, else to replicas; a tp
    // the configuration gives is kept (told otherwise).
    if (given[0] == 0 && deg[0] > 1 && r.catalog) {
        const int node = tp_node_size(*r.catalog, *r.gpu, r.link);
        if (node > 0 && deg[0] > node) {
            int t = 1;
            for (int d = node; d > 1; --d)
                if (deg[0] % d == 0 && tp_divides_heads(a, d)) {
                    t = d;
                    break;
                }
            const int m = deg[0] / t;
            if (given[1] == 0 && (long long)deg[1] * m <= a.total_layers()) {
                deg[0] = t;
                deg[1] *= m;
            } else if (given[2] == 0) {
                deg[0] = t;
                deg[2] *= m;
            }
        }
    }
    if (!placed) {
        // Every free degree refused the GPUs (say only tp was free): pipeline, else replicas.
        if (c.pp == 0 && rest <= a.total_layers()) deg[1] *= rest;
        else if (c.dp == 0) deg[2] *= rest;
        else
            throw_error("gpus", "cannot place " + std::to_string(rest) + " GPUs: tp must divide the " + head_counts(a) +
                                    " attention heads and pp must not exceed the " + std::to_string(a.total_layers()) + " layers");
    }
    if ((long long)deg[0] * deg[1] * deg[2] != gpus)
        throw_error("gpus", "tp x pp x dp = " + std::to_string((long long)deg[0] * deg[1] * deg[2]) +
                                " must equal gpus / cp = " + std::to_string(gpus));
    r.par.tp = deg[0];
    r.par.pp = deg[1];
    r.par.dp = deg[2];
    r.par.cp = cp;
    if (!tp_divides_heads(a, r.par.tp))
        throw_error("tp", "tp = " + std::to_string(r.par.tp) + " must divide the model's " + head_counts(a) + " attention heads");
    if (r.par.pp > a.total_layers())
        throw_error("pp", "pp = " + std::to_string(r.par.pp) + " exceeds the model's " + std::to_string(a.total_layers()) + " layers");
    r.par.ep = c.ep > 0 ? c.ep : 1;
    if (c.ep < 0) throw_error("ep", "must be 0 (automatic) or a positive integer");
    if (r.par.ep > 1) {
        if (!a.is_moe()) throw_error("ep", "expert parallelism needs a mixture-of-experts model");
        for (const LayerSpec& l : a.kinds)
            if (l.is_moe() && l.mlp.n_experts % r.par.ep != 0)
                throw_error("ep", "ep = " + std::to_string(r.par.ep) + " must divide the model's " + std::to_string(l.mlp.n_experts) +
                                      " routed experts");
        // Megatron Core folds the expert groups into tp x cp x dp (MoE parallel folding): with
        // cp > 1 the experts spread over the context-parallel ranks too.
        const int stage = r.par.tp * r.par.cp * r.par.dp;
        if (stage % r.par.ep != 0)
            throw_error("ep", "ep = " + std::to_string(r.par.ep) + " must divide tp x cp x dp = " + std::to_string(stage) +
                                  " (experts spread over the GPUs of a stage)");
    }
}

}  // namespace

GpuRefusal gpu_refusal(Runtime runtime, const Gpu& gpu) {
    const bool serving_engine = runtime == Runtime::vllm || runtime == Runtime::sglang;
    if (serving_engine && gpu.segment == Segment::apple) return GpuRefusal::apple;
    // Pascal (compute capability 6.0 P100, 6.1 P40 and GeForce) is below every serving engine's floor:
    // vLLM's CUDA builds need compute capability 7.0 or higher (docs.vllm.ai, GPU installation, v0.14:
    // "e.g., V100, T4, ..."; 7.5 from v0.21), SGLang's quick start sm75 (it builds on the same kernels),
    // and TensorRT-LLM's support matrix lists Ampere and newer.
    if ((serving_engine || runtime == Runtime::trt_llm) && gpu.arch == Architecture::pascal) return GpuRefusal::pascal;
    // TensorRT-LLM builds CUDA engines: NVIDIA GPUs only.
    if (runtime == Runtime::trt_llm && gpu.vendor != "nvidia") return GpuRefusal::not_nvidia;
    // vLLM's ROCm builds list MI200 (gfx90a), MI300 (gfx942), MI350 (gfx950), Radeon RX 7900 and
    // 9000 series (gfx1100/1101, gfx1200/1201) and Ryzen AI MAX (gfx1151/1150) (docs.vllm.ai, GPU
    // installation, ROCm requirements): not Vega 20 (MI50/MI60, gfx906), MI100 (gfx908) or RDNA 2
    // (gfx1030). SGLang's ROCm support is narrower still (MI300 / MI350).
    if (serving_engine && (gpu.arch == Architecture::gcn5 || gpu.arch == Architecture::cdna1 || gpu.arch == Architecture::rdna2))
        return GpuRefusal::rocm_arch;
    // Gaudi runs vLLM through its HPU plugin (vllm-gaudi; docs.vllm.ai lists Intel Gaudi among
    // "other AI accelerators") and PyTorch through Intel's Gaudi bridge; llama.cpp and SGLang
    // have no Gaudi backend.
    if (gpu.arch == Architecture::gaudi && (runtime == Runtime::llama_cpp || runtime == Runtime::sglang)) return GpuRefusal::gaudi;
    return GpuRefusal::none;
}

unsigned engines_on_gpu(const Gpu& gpu) {
    unsigned bits = 0;
    for (Runtime e : {Runtime::llama_cpp, Runtime::vllm, Runtime::sglang, Runtime::trt_llm, Runtime::ollama})
        if (gpu_refusal(e == Runtime::ollama ? Runtime::llama_cpp : e, gpu) == GpuRefusal::none) bits |= engine_bit(e);
    return bits;
}

void bind_gpu(Resolved& r, const Gpu& gpu) {
    r.gpu = &gpu;
    const GpuRefusal refusal = gpu_refusal(r.runtime, gpu);
    if (refusal == GpuRefusal::none) return;
    const std::string engine(to_string(r.engine));
    switch (refusal) {
        case GpuRefusal::none:
            return;
        case GpuRefusal::apple:
            throw_error("runtime", engine + " needs an NVIDIA or AMD GPU; on " + gpu.name + " use llama.cpp or pytorch",
                        ErrorCode::gpu_unsupported);
        case GpuRefusal::pascal:
            throw_error("runtime",
                        engine + " needs an NVIDIA GPU of compute capability 7.0 or newer; " + gpu.name +
                            " is Pascal (6.x): use llama.cpp or pytorch",
                        ErrorCode::gpu_unsupported);
        case GpuRefusal::not_nvidia:
            throw_error("runtime", "trt-llm runs on NVIDIA GPUs only; on " + gpu.name + " use vllm, sglang, llama.cpp or pytorch",
                        ErrorCode::gpu_unsupported);
        case GpuRefusal::rocm_arch:
            throw_error("runtime",
                        engine + "'s ROCm builds do not support the " + gpu.name + " (" + std::string(to_string(gpu.arch)) +
                            "; vLLM lists gfx90a, gfx942, gfx950, gfx1100/1101, gfx1200/1201, gfx1150/1151): use llama.cpp or pytorch",
                        ErrorCode::gpu_unsupported);
        case GpuRefusal::gaudi:
            throw_error("runtime", engine + " has no Gaudi backend; on " + gpu.name + " use vllm (the vllm-gaudi plugin) or pytorch",
                        ErrorCode::gpu_unsupported);
    }
}

namespace {

// llama.cpp's --n-cpu-moe: a tensor override of llama.cpp's (ollama runs llama-server), over the
// routed experts of a mixture-of-experts model, for at most every layer.
void check_cpu_moe(const Config& c, const Resolved& r) {
    if (c.n_cpu_moe == 0) return;
    if (r.runtime != Runtime::llama_cpp)
        throw_error("n_cpu_moe", "is llama.cpp's --n-cpu-moe: it applies to runtime llama.cpp or ollama, got runtime " +
                                     std::string(to_string(r.engine)) + " (runtime auto picks llama.cpp for GGUF weights)");
    if (!r.arch->is_moe())
        throw_error("n_cpu_moe", "keeps routed experts in host RAM: the model is not a mixture of experts (it has none to keep)");
    const int layers = r.arch->total_layers();
    if (c.n_cpu_moe < 0 || c.n_cpu_moe > layers)
        throw_error("n_cpu_moe", "must be between 0 and the model's " + std::to_string(layers) + " layers (that many = --cpu-moe), got " +
                                     std::to_string(c.n_cpu_moe));
}

// SGLang's --enable-dp-attention --dp N (server_args.py: dp_size divides tp_size; attention TP
// size = tp_size / dp_size, python/sglang/srt/layers/dp_attention.py compute_dp_attention_world_info).
// TensorRT-LLM's enable_attention_dp (LLM API option) has no size: every tensor-parallel rank is
// its own group (tensorrt_llm/mapping.py: dp_size = tp_size if enable_attention_dp else 1), so
// dp_attention must equal tp there.
void check_dp_attention(const Config& c, Resolved& r) {
    r.dp_attn = 1;
    r.attn_tp = r.par.tp;
    r.dense_tp = r.par.tp;
    if (c.dp_attention <= 1) return;
    // Fixed messages: the widget's module carries this function too.
    // (Training runs under pytorch: check_compatibility refuses both engines there before this.)
    // Both engines divide the replica's running requests among the groups (SGLang's
    // model_runner.py: // dp_size; TensorRT-LLM's max_batch_size is each rank's): fewer than one a
    // group leaves schedulers that admit nothing.
    const bool trt = r.engine == Runtime::trt_llm;
    const char* why = r.engine != Runtime::sglang && !trt                   ? "applies to runtimes sglang and trt-llm only"
                      : trt && c.dp_attention != r.par.tp                  ? "must equal tp for trt-llm (enable_attention_dp makes every tp rank its own group)"
                      : trt && r.par.ep > r.par.tp                         ? "with trt-llm takes ep up to tp (its experts split within the tp ranks, moe_tp x moe_ep = tp)"
                      : r.par.tp % c.dp_attention != 0                     ? "must divide tp"
                      : c.max_num_seqs.value_or(c.dp_attention) < c.dp_attention ? "exceeds max_num_seqs, which the engine divides among its groups"
                                                                            : nullptr;
    if (why) throw_error("dp_attention", why);
    r.dp_attn = c.dp_attention;
    r.attn_tp = r.par.tp / c.dp_attention;
    if (trt) r.dense_tp = 1;
}

// SGLang's mem_fraction_static and TensorRT-LLM's free_gpu_memory_fraction size those engines'
// pools only (estimate.cpp compute()); vLLM's share is gpu_memory_utilization.
void check_engine_fractions(const Config& c, const Resolved& r) {
    auto own_key = [&]() -> std::string {
        switch (r.engine) {
            case Runtime::vllm: return "; vllm's share is gpu_memory_utilization";
            case Runtime::sglang: return "; sglang's is mem_fraction_static";
            case Runtime::trt_llm: return "; trt-llm's is free_gpu_memory_fraction";
            default: return "";
        }
    };
    if (c.mem_fraction_static.value_or(0.0) != 0 && r.engine != Runtime::sglang)
        throw_error("mem_fraction_static", "is SGLang's --mem-fraction-static: it applies to runtime sglang, got runtime " +
                                               std::string(to_string(r.engine)) + own_key());
    if (c.kv_cache_memory_bytes.value_or(0.0) != 0 &&
        (r.engine != Runtime::vllm || (r.engine_version && r.engine_version->context_in_budget)))
        throw_error("kv_cache_memory_bytes",
                    r.engine == Runtime::vllm
                        ? "is vLLM V1's --kv-cache-memory-bytes: V0 (runtime_version 0.6) has none; use gpu_memory_utilization"
                        : "is vLLM's --kv-cache-memory-bytes: it applies to runtime vllm, got runtime " + std::string(to_string(r.engine)) +
                              own_key());
    if (c.free_gpu_memory_fraction.value_or(0.0) != 0 && r.engine != Runtime::trt_llm)
        throw_error("free_gpu_memory_fraction",
                    "is TensorRT-LLM's KvCacheConfig.free_gpu_memory_fraction: it applies to runtime trt-llm, got runtime " +
                        std::string(to_string(r.engine)) + own_key());
}

// Speculative decoding (`speculative`): what the engine loads beside the target, per GPU of the
// last pipeline stage (estimate.cpp stage_estimate adds it there).
// - mtp: the model's own multi-token-prediction layers. vLLM loads them as the draft
//   (vllm/model_executor/models/deepseek_mtp.py, qwen3_next_mtp.py) and shares the target's
//   embedding and head with it (vllm/v1/spec_decode/eagle.py load_model), so the weights are each
//   MTP layer's decoder layer, its eh_proj (2h x h) and norms; each MTP layer has an attention
//   layer of its own in the KV cache (its KV spec joins the target's groups), whatever the
//   number of speculative tokens (they reuse the layer).
// - a catalog model id: a draft model on the same GPUs, split by tp like the target (vLLM
//   --speculative-config {"model": ...}; TensorRT-LLM draft-target), with its own KV cache of
//   the same precision: its estimate at the target's context gives both.
void speculative_terms(Resolved& r, const Config& c, const Catalog& catalog, const GpuOverlay* measured) {
    r.spec_weights = r.spec_kv_rate = 0;
    if (c.speculative.empty()) return;
    if (r.training) throw_error("speculative", "speculative decoding applies to mode inference");
    const ModelArch& a = *r.arch;
    if (c.speculative == "mtp") {
        if (a.n_mtp_layers <= 0)
            throw_error("speculative", "mtp uses the model's multi-token-prediction layers, and " +
                                           (a.name.empty() ? std::string("this model") : a.name) +
                                           " has none (num_nextn_predict_layers / mtp_num_hidden_layers); name a draft model id instead");
        // The widest attention layer of the stack stands for the MTP layer's (a full-attention
        // layer: DeepSeek's MLA with its indexer, Qwen3.5's gated attention).
        double per_layer = 0;
        for (const LayerVariant& v : r.variants)
            per_layer = std::max(per_layer, v.kv_values_gpu * r.kv->bytes + v.indexer_bytes);
        r.spec_kv_rate = a.n_mtp_layers * per_layer;
        // ParamCounts::parts.mtp counts a head and an embedding per MTP layer (model.cpp); the
        // engines share the target's.
        const double shared = 2.0 * double(a.vocab) * double(a.hidden);
        const double own = std::max(0.0, r.counts->parts.mtp - a.n_mtp_layers * shared) * r.scale;
        r.spec_weights = own * r.lin_bits / 8.0 / r.par.tp;
        return;
    }
    if (!catalog.find_model(c.speculative))
        throw_error("speculative", "'" + c.speculative.substr(0, 60) + "' is neither none, mtp nor a catalog model id (gpusizer models)",
                    ErrorCode::unknown_id);
    Config d = *r.config;   // the draft on the same GPUs, format and context
    d.model = ModelSpec{};
    d.model.id = c.speculative;
    d.speculative.clear();
    d.batch = 1;
    d.isl = d.osl = 0;
    d.concurrency = 0;
    d.request_rate = 0;
    d.max_num_seqs.reset();
    d.pp = 1;
    d.dp = 1;
    d.ep = 0;
    d.gpus = r.par.tp;
    d.weights = c.weights == kNativeWeights ? std::string() : c.weights;
    const CatalogModel& dm = catalog.model(c.speculative);
    if (dm.arch.max_context > 0 && d.context > dm.arch.max_context) d.context = dm.arch.max_context;
    const Resolved dr = resolve(d, catalog, measured);
    const Totals t = compute(dr);
    r.spec_weights = t.per_gpu.weights;
    r.spec_kv_rate = d.context > 0 ? t.per_gpu.kv_cache / double(d.context) : 0.0;
}

// resolve() and resolve_in_place(): `c` is the configuration as given, r.config the one being
// resolved (the same object in place: each read of `c` below comes before the write of its key).
void resolve_into(Resolved& r, const Config& c, const Catalog& catalog, const GpuOverlay* measured) {
    Config& rc = *r.config;
    // gguf / hf_dir name files that load_model_files reads at the edge (the core does no I/O).
    if ((!c.gguf.empty() || !c.hf_dir.empty()) && c.model.arch.source != "gguf" && c.model.arch.source != "safetensors")
        throw_error(c.gguf.empty() ? "hf_dir" : "gguf",
                    "names a file that was not read: " + std::string(phrasing().file_not_read.empty()
                                                                         ? "read it with load_model_files before the estimate"
                                                                         : phrasing().file_not_read),
                    ErrorCode::unreadable);
    if (!c.mmproj.empty() && c.gguf.empty())
        throw_error("mmproj", "is a GGUF model's projector file: it goes with `gguf` (the model's file)");
    check_hub_model_fetched(c.model);   // {"hub": ...} without config.json or the header: hub_model.cpp
    if (c.model.custom) {
        r.arch = &c.model.arch;
    } else {
        if (c.model.id.empty()) throw_error("model", "is required: a catalog id (see `gpusizer models`) or {\"hf_config\": {...}}");
        r.catalog_model = &catalog.model(c.model.id);
        r.arch = &r.catalog_model->arch;
    }
    // Every formula reads the stack of layers: an architecture filled in by code without one
    // (tests, embedders) gets uniform_stack() in a copy.
    if (!r.arch->has_stack()) {
        auto own = std::make_shared<ModelArch>(*r.arch);
        set_stack(*own, uniform_stack(*own));
        r.own_arch = own;
        r.arch = own.get();
    }
    // Catalog models carry their counts and GGUF traits; a custom architecture gets them here.
    const bool cached = r.catalog_model && !r.catalog_model->counts.per_kind.empty() && !r.own_arch;
    if (cached) {
        r.counts = &r.catalog_model->counts;
    } else {
        r.own_counts = std::make_shared<const ParamCounts>(count_params(*r.arch));
        r.counts = r.own_counts.get();
    }
    r.gguf = cached ? r.catalog_model->gguf : gguf_traits(*r.arch);
    r.total_params = r.counts->total();
    r.scale = r.arch->num_parameters_override > 0 ? r.arch->num_parameters_override / r.total_params : 1.0;
    // A GPU not in the catalog is built from its fields (custom_gpu.cpp; nullptr for a catalog id).
    r.own_gpu = custom_gpu_of(c, catalog, measured);
    r.gpu = r.own_gpu ? &r.own_gpu->gpu : measured ? &measured->gpu(catalog, c.gpu) : &catalog.gpu(c.gpu);

    check_key_ranges(c);   // every integer and number key against its row in gpusizer/config_keys.hpp
    r.catalog = &catalog;
    if (!c.link.empty()) r.link = &catalog.link(c.link, "link");
    if (!c.inter_node_link.empty()) r.inter_node_link = &catalog.link(c.inter_node_link, "inter_node_link");

    // `weights` "native" sizes the checkpoint as published: its quantization_config class by class
    // (gpt-oss: MXFP4 routed experts, BF16 attention, router, embeddings and head), else its float
    // dtype. Left unset, an inference run of a quantized checkpoint gets it too, unless the run is
    // bound to llama.cpp (which reads GGUF files, not the checkpoint); training modes keep bf16
    // (qlora nf4), as their weights are converted on load.
    const std::optional<WeightScheme> native = native_weight_scheme(*r.arch);
    r.checkpoint_format = native ? native->format : nullptr;
    const bool to_llama_cpp = c.runtime == Runtime::llama_cpp || (!c.kv_cache.empty() && kv_format(c.kv_cache).llama_cpp_only);
    if (rc.weights.empty() && native && c.mode == Mode::inference && !to_llama_cpp) rc.weights = std::string(kNativeWeights);
    if (rc.weights.empty()) rc.weights = c.mode == Mode::qlora ? "nf4" : "bf16";
    r.native_weights = rc.weights == kNativeWeights;
    if (r.native_weights) r.scheme = native ? *native : weight_scheme(native_float_format(*r.arch));
    r.wf = r.native_weights ? r.scheme.format : &weight_format(rc.weights);
    // A native scheme's unquantized rest is the checkpoint's dtype: the cache takes it too.
    const WeightId kv_like = r.native_weights && native ? native_float_format(*r.arch).wid : r.wf->wid;
    if (rc.kv_cache.empty()) set_text(rc.kv_cache, kv_like == WeightId::fp32 ? "fp32" : kv_like == WeightId::bf16 ? "bf16" : "fp16");
    r.kv = &kv_format(rc.kv_cache);
    // The engine and its version: Ollama is llama-server underneath, so its formulas are llama.cpp's.
    r.engine = choose_runtime(c, *r.wf, *r.kv);
    r.runtime = r.engine == Runtime::ollama ? Runtime::llama_cpp : r.engine;
    rc.runtime = r.engine;
    if (r.engine != Runtime::pytorch && r.engine != Runtime::none) {
        // A version without a row of its own reads as the nearest row; the report names the row
        // it used (config.runtime_version) and warns why (the note).
        EngineVersionReading reading = read_engine_version(r.engine, c.runtime_version);
        r.engine_version = reading.row;
        r.engine_version_note = std::move(reading.note);
        set_text(rc.runtime_version, r.engine_version->version);
    } else if (!c.runtime_version.empty()) {
        engine_version(r.engine, c.runtime_version);   // throws: the runtime has no versions
    }
    // The other engines' memory fractions belong to their engine: on another they would be
    // silently ignored (the runtime in use names its own key).
    check_engine_fractions(c, r);
    if (!c.psu_tier.empty() && !parse_psu_tier(c.psu_tier))
        throw_error("psu_tier", "'" + c.psu_tier.substr(0, 40) + "' is not an 80 PLUS tier: " + psu_tier_names());
    check_cost_keys(c, catalog);
    // vLLM's default utilization is the version's (0.9, 0.92 now) unless the key says otherwise
    // (Config's default, 0.9, then means "not given").
    if (r.engine == Runtime::vllm && c.gpu_memory_utilization == kConfigDefaultGpuMemoryUtilization)
        rc.gpu_memory_utilization = r.engine_version->fraction;
    if (rc.context == 0) {
        const long long trained = r.arch->max_context > 0 ? r.arch->max_context : kDefaultContext;
        rc.context = std::min(
            r.engine == Runtime::ollama ? ollama_default_context(*r.engine_version, r.gpu->capacity_bytes() * c.gpus) : kDefaultContext,
            trained);
        // A serving load sizes the automatic context: the engines take the model's length by
        // default (vLLM's max_model_len), so a request of isl + osl tokens within it is served.
        if (c.isl > 0 && c.osl > 0 && c.isl + c.osl > rc.context) {
            if (r.arch->max_context > 0 && c.isl + c.osl > r.arch->max_context)
                throw_error("isl", "isl + osl = " + std::to_string(c.isl + c.osl) + " tokens exceeds " + r.arch->name +
                                       "'s trained context of " + std::to_string(r.arch->max_context) + " tokens");
            rc.context = c.isl + c.osl;
        }
    }
    if (c.prompt_tokens < 0 || c.prompt_tokens > rc.context)
        throw_error("prompt_tokens", "must be between 0 (default: half the context) and the context, " + std::to_string(rc.context) +
                                         " tokens, got " + std::to_string(c.prompt_tokens));
    if (rc.recompute == Recompute::automatic) {
        // PEFT's prepare_model_for_kbit_training turns gradient checkpointing on by default
        // (use_gradient_checkpointing=True); other modes start without recomputation.
        rc.recompute = c.mode == Mode::qlora ? Recompute::full : Recompute::none;
    }
    // max_num_seqs on an engine of fixed slots (llama-server -np, Ollama's OLLAMA_NUM_PARALLEL,
    // transformers' static batch): its slots are `batch` sequences of `context` tokens allocated up
    // front, so the key is the batch (serving.cpp caps the requests at it as at any engine's).
    if (c.max_num_seqs.value_or(0) > 0 && !is_training(c.mode) && (r.runtime == Runtime::llama_cpp || r.runtime == Runtime::pytorch)) {
        const int slots = *c.max_num_seqs;
        if (c.batch != 1 && c.batch != slots)
            throw_error("max_num_seqs", "is " + std::string(to_string(r.engine)) +
                                            "'s slots, which are the batch: " + std::to_string(slots) + " against batch " +
                                            std::to_string(c.batch) + "; give one of them, or the same number");
        rc.batch = slots;
    }
    r.rt = &runtime_profile(r.engine);
    check_compatibility(rc, r);
    check_context_parallel(rc, r);
    resolve_parallelism(rc, r);
    rc.tp = r.par.tp;
    rc.pp = r.par.pp;
    rc.dp = r.par.dp;
    rc.ep = r.par.ep;
    check_dp_attention(c, r);

    r.training = is_training(c.mode);
    // Serving load: isl and osl come together, for inference, within the context.
    if ((c.isl > 0) != (c.osl > 0))
        throw_error(c.isl > 0 ? "osl" : "isl", "isl and osl go together: give both (input and output tokens per request)");
    if (c.isl > 0 && is_training(c.mode)) throw_error("isl", "serving figures apply to mode inference");
    if (c.request_rate > 0 && c.concurrency > 0)
        throw_error("request_rate", "give concurrency (a closed loop) or request_rate (an open loop), not both");
    if (c.request_rate > 0 && c.isl == 0) throw_error("request_rate", "needs isl and osl (the tokens of each request)");
    if (c.isl > 0 && c.isl + c.osl > rc.context)
        throw_error("isl", "isl + osl = " + std::to_string(c.isl + c.osl) +
                               " tokens exceeds the context (the longest request the engine takes) of " + std::to_string(rc.context) +
                               " tokens; raise context");
    if (r.training) {
        const long long per_step = (long long)rc.batch * r.par.dp;
        if (rc.global_batch == 0) rc.global_batch = int(std::min<long long>(per_step, kMaxBatch));
        check_range(rc.global_batch, 1, 1LL << 30, "global_batch");
        if (rc.global_batch % per_step != 0)
            throw_error("global_batch",
                        "must be a multiple of batch x dp = " + std::to_string(per_step) + ", got " + std::to_string(rc.global_batch));
        r.micro_batches = rc.global_batch / per_step;
        // Interleaved 1F1B splits each stage's layers into v chunks (Megatron's virtual pipeline):
        // v = 2 unless given; every chunk needs a layer.
        if (c.virtual_stages > 1 && c.pp_schedule != PipeSchedule::interleaved)
            throw_error("virtual_stages", "applies to pp_schedule interleaved; got " + std::to_string(c.virtual_stages) +
                                              " with pp_schedule " + std::string(to_string(c.pp_schedule)));
        if (c.pp_schedule == PipeSchedule::interleaved) {
            r.virtual_stages = c.virtual_stages > 0 ? c.virtual_stages : 2;
            const long long chunks = (long long)r.virtual_stages * r.par.pp;
            if (chunks > r.arch->total_layers())
                throw_error("virtual_stages", "pp x virtual_stages = " + std::to_string(chunks) + " exceeds the model's " +
                                                  std::to_string(r.arch->total_layers()) + " layers");
            rc.virtual_stages = r.virtual_stages;
        }
        // DualPipe feeds micro-batches from both ends of the pipeline, half each way, and pairs
        // stage i with stage pp - 1 - i on one GPU: "DualPipe only requires that the pipeline
        // stages and micro-batches be divisible by 2" (DeepSeek-V3 technical report, sec. 3.2.1).
        if (c.pp_schedule == PipeSchedule::dualpipe) {
            if (r.par.pp < 2 || r.par.pp % 2 != 0)
                throw_error("pp_schedule",
                            "dualpipe needs an even number of pipeline stages (pp 2, 4, 6 ...); got pp " + std::to_string(r.par.pp));
            if (r.micro_batches % 2 != 0)
                throw_error("pp_schedule", "dualpipe needs an even number of micro-batches (global_batch / (batch x dp)); got " +
                                               std::to_string(r.micro_batches));
            // The reference implementation also wants two micro-batches per stage at least
            // (deepseek-ai/DualPipe, dualpipe/dualpipe.py, DualPipe.step: num_chunks >= num_ranks * 2):
            // with fewer there is no steady phase in which forward and backward chunks pair.
            if (r.micro_batches < 2LL * r.par.pp)
                throw_error("pp_schedule", "dualpipe needs at least 2 x pp micro-batches (global_batch / (batch x dp)); got " +
                                               std::to_string(r.micro_batches) + " with pp " + std::to_string(r.par.pp));
        }
        if (c.fp8_training != Fp8Training::none && !runs_natively(*r.gpu, Precision::fp8))
            throw_error("fp8_training",
                        r.gpu->name +
                            " has no FP8 tensor cores (the catalog gives it no dense FP8 rate); "
                            "FP8 training needs Hopper, Ada, Blackwell, CDNA3 or later",
                        ErrorCode::incompatible);
        // Megatron Core's checks for --overlap-moe-expert-parallel-comm (TransformerConfig):
        // expert parallelism, a virtual pipeline when pp > 1, no full recomputation.
        if (c.ep_comm_overlap) {
            if (r.par.ep <= 1) throw_error("ep_comm_overlap", "overlapping the expert all-to-alls needs expert parallelism (ep > 1)");
            if (r.par.pp > 1 && c.pp_schedule != PipeSchedule::interleaved && c.pp_schedule != PipeSchedule::dualpipe)
                throw_error("ep_comm_overlap",
                            "with pp > 1 Megatron-LM overlaps the expert all-to-alls only under the interleaved "
                            "schedule (virtual pipeline); set pp_schedule interleaved (or dualpipe)");
            if (rc.recompute == Recompute::full)
                throw_error("ep_comm_overlap", "Megatron-LM disables the all-to-all overlap with full recomputation");
        }
        if (c.tp_comm_overlap && r.par.tp > 1 && !c.sequence_parallel)
            throw_error("tp_comm_overlap",
                        "overlapping tensor-parallel communication with the GEMMs needs sequence_parallel "
                        "(Megatron-LM asserts it)");
        // The Hugging Face Trainer parallelizes over data only: DDP, or FSDP / DeepSpeed ZeRO
        // through accelerate (transformers TrainingArguments: `fsdp`, `deepspeed`).
        if (c.training_framework == TrainingFramework::hf_trainer && (r.par.tp > 1 || r.par.pp > 1 || r.par.cp > 1 || r.par.ep > 1))
            throw_error("training_framework",
                        "hf_trainer runs data parallelism only (DDP, FSDP or DeepSpeed ZeRO through "
                        "accelerate): set tp, pp, cp and ep to 1, or choose megatron, nemo, torchtitan, "
                        "fsdp or deepspeed");
    } else {
        if (c.global_batch != 0) throw_error("global_batch", "applies to training modes only");
        if (c.pp_schedule != PipeSchedule::one_f_one_b) throw_error("pp_schedule", "pipeline schedules apply to training modes only");
        if (c.virtual_stages > 1) throw_error("virtual_stages", "applies to training with pp_schedule interleaved");
        if (c.tp_comm_overlap) throw_error("tp_comm_overlap", "applies to training modes only");
        if (c.ep_comm_overlap) throw_error("ep_comm_overlap", "applies to training modes only");
        if (c.fp8_training != Fp8Training::none) throw_error("fp8_training", "applies to training modes only");
        if (c.training_framework != TrainingFramework::megatron) throw_error("training_framework", "applies to training modes only");
        rc.global_batch = 0;
    }
    // Activation element size: the compute dtype (bf16/fp16; fp32 only for fp32 weights), or the
    // runtime's own (llama.cpp keeps F32 activations).
    r.act_bytes = r.rt->activation_bytes > 0 ? r.rt->activation_bytes : (r.wf->wid == WeightId::fp32 ? 4.0 : 2.0);
    r.qp.group_size = rc.quant_group_size;
    // Tensors a quantizer leaves alone (embeddings, head, norms, routers): the checkpoint's
    // 16-bit dtype, or fp32 when the weights are fp32.
    r.fp32 = r.wf->wid == WeightId::fp32;
    r.float_bits = r.fp32 ? 32.0 : 16.0;
    if (r.native_weights) {
        // The checkpoint's own group size / FP8 tiles / double quantization, and its dtype for the rest.
        r.qp = r.scheme.params;
        r.float_bits = r.scheme.float_bits;
    } else {
        r.scheme = weight_scheme(*r.wf);   // the format on its default classes (linear layers)
        r.scheme.params = r.qp;
        r.scheme.float_bits = r.float_bits;
    }
    r.lin_bits = linear_bits_per_weight(*r.wf, r.qp);
    check_cpu_moe(c, r);
    build_variants(r);
    file_stage_weights(r);
    cpu_moe_weights(r);
    bind_gpu(r, *r.gpu);
    speculative_terms(r, c, catalog, measured);
}

}  // namespace

double Resolved::sequences_per_gpu() const { return std::ceil(double(config->batch) / dp_attn); }

Resolved resolve(const Config& c, const Catalog& catalog, const GpuOverlay* measured) {
    Resolved r(c);
    resolve_into(r, c, catalog, measured);
    return r;
}

Resolved resolve_in_place(Config& config, const Catalog& catalog, const GpuOverlay* measured) {
    Resolved r(&config);
    resolve_into(r, config, catalog, measured);
    return r;
}

}  // namespace gpusizer::detail
