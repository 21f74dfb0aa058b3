// estimate.cpp: per-GPU memory of a configuration.
//
// [SECTION] Resolving the configuration (defaults, parallel degrees, runtime)
// [SECTION] Weights: bytes per tensor class, split over tensor / pipeline / expert parallel
// [SECTION] KV cache
// [SECTION] Activations: inference working set, training (Korthikanti et al. 2022)
// [SECTION] Training state: gradients, optimizer, ZeRO, offload, LoRA
// [SECTION] Runtime overhead
// [SECTION] The estimate: per pipeline stage, the most loaded GPU, fits or not
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
#include "hub_model.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/error.hpp"
#include "gguf_layer_rules.hpp"
#include "performance.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"
#include "serving.hpp"

namespace gpusizer {

using detail::kGiB;
using detail::kMiB;
using detail::Resolved;

namespace detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] Resolving the configuration
// ---------------------------------------------------------------------------------------------

namespace {

constexpr long long kDefaultContext = 8192;       // a typical chat/RAG window, not the model's max
constexpr int kMaxBatch = 1 << 20;
constexpr long long kVllmBlockSize = 16;           // vLLM CacheConfig.block_size default on CUDA
constexpr double kConfigDefaultGpuMemoryUtilization = 0.9;   // Config::gpu_memory_utilization's initializer (gpusizer/config.hpp)

bool is_training(Mode m) { return m != Mode::inference; }

void check_range(long long v, long long lo, long long hi, const char* key) {
    if (v < lo || v > hi)
        throw Error(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                             std::to_string(v));
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
        throw Error("weights", "full training needs fp32, bf16 or fp16 weights, got '" + std::string(r.wf->id) +
                                   "'; use mode qlora to train adapters on a quantized base");
    if (c.mode == Mode::lora && is_quantized(*r.wf))
        throw Error("weights", "mode lora keeps a 16-bit base, got '" + std::string(r.wf->id) +
                                   "'; use mode qlora for a quantized base");
    if (c.mode == Mode::qlora && (!is_quantized(*r.wf) || fam == WeightFamily::gguf))
        throw Error("weights", "mode qlora trains adapters on a quantized base: use nf4 (default), int4, int8 or fp8, "
                               "got '" + std::string(r.wf->id) + "'");
    if (r.runtime == Runtime::llama_cpp) {
        if (train) throw Error("runtime", "llama.cpp runs inference only; training modes need pytorch (or none)");
        if (fam != WeightFamily::gguf && !(fam == WeightFamily::floating && r.wf->bits >= 16))
            throw Error("weights", "'" + std::string(r.wf->id) + "' does not run in llama.cpp; use a GGUF type (" +
                                       gguf_format_ids() + ") or fp32/fp16/bf16, or runtime pytorch/vllm");
    } else if (r.runtime == Runtime::none) {
        // `none` counts the model's own tensors only (docs/config.md): every weight and cache format is accepted.
    } else if (fam == WeightFamily::gguf) {
        throw Error("weights", "'" + std::string(r.wf->id) + "' is a GGUF type that only llama.cpp runs; set runtime "
                               "to llama.cpp (or auto), or pick fp16/bf16/fp8/int8/int4/nf4");
    }
    if (r.kv->llama_cpp_only && r.runtime != Runtime::llama_cpp && r.runtime != Runtime::none)
        throw Error("kv_cache", "'" + std::string(r.kv->id) + "' is a llama.cpp cache type; with runtime " +
                                    std::string(to_string(r.runtime)) + " use fp16, bf16, fp8 or fp32");
    if ((r.runtime == Runtime::vllm || r.runtime == Runtime::sglang || r.runtime == Runtime::trt_llm) && train)
        throw Error("runtime", std::string(to_string(r.engine)) + " runs inference only; training modes need pytorch (or none)");
    if (r.engine == Runtime::ollama && train) throw Error("runtime", "ollama runs inference only; training modes need pytorch (or none)");
    if (!train) {
        if (c.zero != 0) throw Error("zero", "ZeRO shards training state; it applies to modes train, lora, qlora");
        if (c.offload != Offload::none) throw Error("offload", "optimizer offload applies to training modes only");
    }
    if (c.offload == Offload::optimizer && c.zero < 1)
        throw Error("offload", "'optimizer' offload (ZeRO-Offload) needs zero 1, 2 or 3");
    if (c.offload == Offload::optimizer_params && c.zero != 3)
        throw Error("offload", "'optimizer+params' offload (ZeRO-Infinity) needs zero 3");
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
    if (why) throw Error("cp", why);
}

void resolve_parallelism(const Config& c, Resolved& r) {
    const ModelArch& a = *r.arch;
    const int given[3] = {c.tp, c.pp, c.dp};
    const char* names[3] = {"tp", "pp", "dp"};
    const int cp = std::max(1, c.cp);   // check_context_parallel: it divides gpus
    const int gpus = c.gpus / cp;       // what tp x pp x dp share
    long long known = 1;
    for (int k = 0; k < 3; ++k) {
        if (given[k] < 0) throw Error(names[k], "must be 0 (automatic) or a positive integer");
        if (given[k] > 0) known *= given[k];
    }
    if (known > gpus || gpus % known != 0)
        throw Error("gpus", "tp x pp x dp given as " + std::to_string(known) + " does not divide gpus / cp = " + std::to_string(gpus));
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
    if (!placed) {
        // Every free degree refused the GPUs (say only tp was free): pipeline, else replicas.
        if (c.pp == 0 && rest <= a.total_layers()) deg[1] *= rest;
        else if (c.dp == 0) deg[2] *= rest;
        else throw Error("gpus", "cannot place " + std::to_string(rest) + " GPUs: tp must divide the " +
                                     head_counts(a) + " attention heads and pp must not exceed the " +
                                     std::to_string(a.total_layers()) + " layers");
    }
    if ((long long)deg[0] * deg[1] * deg[2] != gpus)
        throw Error("gpus", "tp x pp x dp = " + std::to_string((long long)deg[0] * deg[1] * deg[2]) + " must equal gpus / cp = " +
                                std::to_string(gpus));
    r.par.tp = deg[0];
    r.par.pp = deg[1];
    r.par.dp = deg[2];
    r.par.cp = cp;
    if (!tp_divides_heads(a, r.par.tp))
        throw Error("tp", "tp = " + std::to_string(r.par.tp) + " must divide the model's " +
                              head_counts(a) + " attention heads");
    if (r.par.pp > a.total_layers())
        throw Error("pp", "pp = " + std::to_string(r.par.pp) + " exceeds the model's " +
                              std::to_string(a.total_layers()) + " layers");
    r.par.ep = c.ep > 0 ? c.ep : 1;
    if (c.ep < 0) throw Error("ep", "must be 0 (automatic) or a positive integer");
    if (r.par.ep > 1) {
        if (!a.is_moe()) throw Error("ep", "expert parallelism needs a mixture-of-experts model");
        for (const LayerSpec& l : a.kinds)
            if (l.is_moe() && l.mlp.n_experts % r.par.ep != 0)
                throw Error("ep", "ep = " + std::to_string(r.par.ep) + " must divide the model's " +
                                      std::to_string(l.mlp.n_experts) + " routed experts");
        // Megatron Core folds the expert groups into tp x cp x dp (MoE parallel folding): with
        // cp > 1 the experts spread over the context-parallel ranks too.
        const int stage = r.par.tp * r.par.cp * r.par.dp;
        if (stage % r.par.ep != 0)
            throw Error("ep", "ep = " + std::to_string(r.par.ep) + " must divide tp x cp x dp = " + std::to_string(stage) +
                                  " (experts spread over the GPUs of a stage)");
    }
}

}  // namespace

void bind_gpu(Resolved& r, const Gpu& gpu) {
    r.gpu = &gpu;
    if ((r.runtime == Runtime::vllm || r.runtime == Runtime::sglang) && gpu.segment == Segment::apple)
        throw Error("runtime", std::string(to_string(r.engine)) + " needs an NVIDIA or AMD GPU; on " + gpu.name + " use llama.cpp or pytorch",
                    ErrorCode::gpu_unsupported);
    // TensorRT-LLM builds CUDA engines: NVIDIA GPUs only.
    if (r.runtime == Runtime::trt_llm && gpu.vendor != "nvidia")
        throw Error("runtime", "trt-llm runs on NVIDIA GPUs only; on " + gpu.name + " use vllm, sglang, llama.cpp or pytorch",
                    ErrorCode::gpu_unsupported);
}

namespace {

// Ollama's default num_ctx by the VRAM it sees (v0.15.5 release notes: < 24 GiB 4096, 24-48 GiB
// 32768, >= 48 GiB 262144), over the configuration's GPUs, at the driver-reported total: an RTX
// 4090's 24,564 MiB is under 24 GiB.
long long ollama_default_context(const EngineVersion& v, const Gpu& gpu, int gpus) {
    if (v.ollama_context == OllamaContext::fixed) return v.fixed_context;
    const double vram = gpu.capacity_bytes() * gpus;
    return vram < 24 * kGiB ? 4096 : vram < 48 * kGiB ? 32768 : 262144;
}

}  // namespace

Resolved resolve(const Config& c, const Catalog& catalog, const GpuOverlay* measured) {
    Resolved r(c);
    Config& rc = r.config;
    // gguf / hf_dir name files that load_model_files reads at the edge (the core does no I/O).
    if ((!c.gguf.empty() || !c.hf_dir.empty()) && c.model.arch.source != "gguf" && c.model.arch.source != "safetensors")
        throw Error(c.gguf.empty() ? "hf_dir" : "gguf",
                    "names a file that was not read: the CLI and the app read it (load_model_files) before the estimate",
                    ErrorCode::unreadable);
    check_hub_model_fetched(c.model);   // {"hub": ...} without config.json or the header: hub_model.cpp
    if (c.model.custom) {
        r.arch = &c.model.arch;
    } else {
        if (c.model.id.empty()) throw Error("model", "is required: a catalog id (see `gpusizer models`) or {\"hf_config\": {...}}");
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
    r.gpu = measured ? &measured->gpu(catalog, c.gpu) : &catalog.gpu(c.gpu);

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
    const bool to_llama_cpp = c.runtime == Runtime::llama_cpp || (!c.kv_cache.empty() && kv_format(c.kv_cache).llama_cpp_only);
    if (rc.weights.empty() && native && c.mode == Mode::inference && !to_llama_cpp) rc.weights = std::string(kNativeWeights);
    if (rc.weights.empty()) rc.weights = c.mode == Mode::qlora ? "nf4" : "bf16";
    r.native_weights = rc.weights == kNativeWeights;
    if (r.native_weights) r.scheme = native ? *native : weight_scheme(native_float_format(*r.arch));
    r.wf = r.native_weights ? r.scheme.format : &weight_format(rc.weights);
    // A native scheme's unquantized rest is the checkpoint's dtype: the cache takes it too.
    const WeightId kv_like = r.native_weights && native ? native_float_format(*r.arch).wid : r.wf->wid;
    if (rc.kv_cache.empty()) rc.kv_cache = kv_like == WeightId::fp32 ? "fp32" : kv_like == WeightId::bf16 ? "bf16" : "fp16";
    r.kv = &kv_format(rc.kv_cache);
    // The engine and its version: Ollama is llama-server underneath, so its formulas are llama.cpp's.
    r.engine = choose_runtime(c, *r.wf, *r.kv);
    r.runtime = r.engine == Runtime::ollama ? Runtime::llama_cpp : r.engine;
    rc.runtime = r.engine;
    if (r.engine != Runtime::pytorch && r.engine != Runtime::none) {
        r.engine_version = &engine_version(r.engine, c.runtime_version);
        rc.runtime_version = r.engine_version->version;
    } else if (!c.runtime_version.empty()) {
        engine_version(r.engine, c.runtime_version);   // throws: the runtime has no versions
    }
    // vLLM's default utilization is the version's (0.9, 0.92 now) unless the key says otherwise
    // (Config's default, 0.9, then means "not given").
    if (r.engine == Runtime::vllm && c.gpu_memory_utilization == kConfigDefaultGpuMemoryUtilization)
        rc.gpu_memory_utilization = r.engine_version->fraction;
    if (rc.context == 0) {
        const long long trained = r.arch->max_context > 0 ? r.arch->max_context : kDefaultContext;
        rc.context = std::min(r.engine == Runtime::ollama ? ollama_default_context(*r.engine_version, *r.gpu, c.gpus) : kDefaultContext,
                              trained);
    }
    if (c.prompt_tokens < 0 || c.prompt_tokens > rc.context)
        throw Error("prompt_tokens", "must be between 0 (default: half the context) and the context, " + std::to_string(rc.context) +
                                         " tokens, got " + std::to_string(c.prompt_tokens));
    if (rc.recompute == Recompute::automatic) {
        // PEFT's prepare_model_for_kbit_training turns gradient checkpointing on by default
        // (use_gradient_checkpointing=True); other modes start without recomputation.
        rc.recompute = c.mode == Mode::qlora ? Recompute::full : Recompute::none;
    }
    r.rt = &runtime_profile(r.engine);
    check_compatibility(rc, r);
    check_context_parallel(rc, r);
    resolve_parallelism(rc, r);
    rc.tp = r.par.tp;
    rc.pp = r.par.pp;
    rc.dp = r.par.dp;
    rc.ep = r.par.ep;

    r.training = is_training(c.mode);
    // Serving load: isl and osl come together, for inference, within the context.
    if ((c.isl > 0) != (c.osl > 0))
        throw Error(c.isl > 0 ? "osl" : "isl", "isl and osl go together: give both (input and output tokens per request)");
    if (c.isl > 0 && is_training(c.mode)) throw Error("isl", "serving figures apply to mode inference");
    if (c.request_rate > 0 && c.concurrency > 0)
        throw Error("request_rate", "give concurrency (a closed loop) or request_rate (an open loop), not both");
    if (c.request_rate > 0 && c.isl == 0) throw Error("request_rate", "needs isl and osl (the tokens of each request)");
    if (c.isl > 0 && c.isl + c.osl > rc.context)
        throw Error("isl", "isl + osl = " + std::to_string(c.isl + c.osl) + " tokens exceeds the context (the longest request the engine takes) of " +
                               std::to_string(rc.context) + " tokens; raise context");
    if (r.training) {
        const long long per_step = (long long)rc.batch * r.par.dp;
        if (rc.global_batch == 0) rc.global_batch = int(std::min<long long>(per_step, kMaxBatch));
        check_range(rc.global_batch, 1, 1LL << 30, "global_batch");
        if (rc.global_batch % per_step != 0)
            throw Error("global_batch", "must be a multiple of batch x dp = " + std::to_string(per_step) + ", got " +
                                            std::to_string(rc.global_batch));
        r.micro_batches = rc.global_batch / per_step;
        // Interleaved 1F1B splits each stage's layers into v chunks (Megatron's virtual pipeline):
        // v = 2 unless given; every chunk needs a layer.
        if (c.virtual_stages > 1 && c.pp_schedule != PipeSchedule::interleaved)
            throw Error("virtual_stages", "applies to pp_schedule interleaved; got " + std::to_string(c.virtual_stages) +
                                              " with pp_schedule " + std::string(to_string(c.pp_schedule)));
        if (c.pp_schedule == PipeSchedule::interleaved) {
            r.virtual_stages = c.virtual_stages > 0 ? c.virtual_stages : 2;
            const long long chunks = (long long)r.virtual_stages * r.par.pp;
            if (chunks > r.arch->total_layers())
                throw Error("virtual_stages", "pp x virtual_stages = " + std::to_string(chunks) + " exceeds the model's " +
                                                  std::to_string(r.arch->total_layers()) + " layers");
            rc.virtual_stages = r.virtual_stages;
        }
        if (c.fp8_training != Fp8Training::none && !runs_natively(*r.gpu, Precision::fp8))
            throw Error("fp8_training", r.gpu->name + " has no FP8 tensor cores (the catalog gives it no dense FP8 rate); "
                                                      "FP8 training needs Hopper, Ada, Blackwell, CDNA3 or later",
                        ErrorCode::incompatible);
        if (c.tp_comm_overlap && r.par.tp > 1 && !c.sequence_parallel)
            throw Error("tp_comm_overlap", "overlapping tensor-parallel communication with the GEMMs needs sequence_parallel "
                                           "(Megatron-LM asserts it)");
    } else {
        if (c.global_batch != 0) throw Error("global_batch", "applies to training modes only");
        if (c.pp_schedule != PipeSchedule::one_f_one_b) throw Error("pp_schedule", "pipeline schedules apply to training modes only");
        if (c.virtual_stages > 1) throw Error("virtual_stages", "applies to training with pp_schedule interleaved");
        if (c.tp_comm_overlap) throw Error("tp_comm_overlap", "applies to training modes only");
        if (c.fp8_training != Fp8Training::none) throw Error("fp8_training", "applies to training modes only");
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
    build_variants(r);
    file_stage_weights(r);
    bind_gpu(r, *r.gpu);
    return r;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Weights
// ---------------------------------------------------------------------------------------------

double kv_head_fraction(int n_kv_heads, int tp) {
    // KV heads per GPU: n_kv/tp, at least one (vLLM and Megatron replicate KV heads when tp > n_kv).
    if (n_kv_heads <= 0) return 1.0 / tp;
    const int per_gpu = (n_kv_heads + tp - 1) / tp;
    return double(std::max(per_gpu, 1)) / n_kv_heads;
}

double kv_head_fraction(const ModelArch& a, int tp) { return kv_head_fraction(a.n_kv_heads, tp); }

namespace {

// Parameters of one layer by the classes that get their own bits, after a tp/ep split.
struct ClassParams {
    double q = 0, k = 0, v = 0, latent = 0, o = 0, cross = 0, mixer = 0, mlp_up = 0, mlp_down = 0, sh_up = 0, sh_down = 0,
           ex_up = 0, ex_down = 0, router = 0, small = 0;
    double total() const {
        return q + k + v + latent + o + cross + mixer + mlp_up + mlp_down + sh_up + sh_down + ex_up + ex_down + router + small;
    }
};

ClassParams split_params(const ModelArch& a, const LayerSpec& l, const LayerParams& p, int tp_degree, int ep_degree) {
    const double tp = tp_degree;
    const double kvf = kv_head_fraction(l.attn.n_kv_heads, tp_degree);
    // Routed experts: whole experts spread over the expert-parallel ranks, else sharded like
    // the dense MLP over the tensor-parallel ranks.
    const double expert_div = ep_degree > 1 ? double(ep_degree) : tp;
    ClassParams c;
    c.q = p.attn_q / tp;
    if (l.attn.kind == AttnKind::mla) {
        // MLA: q_b, kv_b and o split by heads; the down-projections q_a and kv_a are replicated.
        const double q_a = l.attn.q_lora_rank > 0 ? double(a.hidden) * l.attn.q_lora_rank : 0.0;
        c.latent = q_a + p.attn_k;
        c.q = (p.attn_q - q_a) / tp;
        c.v = p.attn_v / tp;
    } else {
        c.k = p.attn_k * kvf;
        c.v = p.attn_v * kvf;
    }
    c.latent += p.indexer;   // the indexer's projections: small, replicated like the latent
    c.o = p.attn_o / tp;
    c.cross = p.cross_attn / tp;
    c.mixer = p.mixer / tp;  // recurrent mixers split by heads (vLLM MambaMixer2, Qwen3-Next GDN)
    c.mlp_up = p.mlp_up / tp;
    c.mlp_down = p.mlp_down / tp;
    c.sh_up = p.shared_up / tp;
    c.sh_down = p.shared_down / tp;
    c.ex_up = p.expert_up * p.n_experts / expert_div;
    c.ex_down = p.expert_down * p.n_experts / expert_div;
    c.router = p.router;   // replicated
    c.small = p.small;     // norms, biases, conv kernels, replicated
    return c;
}

// Bits of each class for layer i (the same whatever the split).
struct ClassBits {
    double q, k, v, latent, o, cross, mixer, mlp_up, mlp_down, sh_up, sh_down, ex_up, ex_down, router, small;
};

// `same_kind`: the bits of another layer of the same shape (kind), when there is one: under GGUF
// only the classes whose type reads the layer index (gguf_class_reads_layer: attn_v, ffn_down)
// can differ, and the others are taken from it.
ClassBits class_bits(const Resolved& r, int i, const ClassBits* same_kind = nullptr) {
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const bool gguf = r.wf->family == WeightFamily::gguf;
    if (!gguf) {
        // Class by class (precision.hpp WeightScheme): a chosen format converts the linear layers;
        // a checkpoint's scheme may leave some in its dtype (gpt-oss: all but the routed experts).
        // Recurrent mixers and the MLA latent / indexer projections go with attention ("attn"
        // in their module names: self_attn, linear_attn).
        const WeightScheme& s = r.scheme;
        const double att = scheme_class_bits(s, SchemeClass::attention);
        const double mlp = scheme_class_bits(s, SchemeClass::mlp);
        const double sh = scheme_class_bits(s, SchemeClass::shared_expert);
        const double ex = scheme_class_bits(s, SchemeClass::routed_expert);
        const double router = scheme_class_bits(s, SchemeClass::router);
        return {att, att, att, att, att, att, att, mlp, mlp, sh, sh, ex, ex, router, s.float_bits};
    }
    ClassBits b = same_kind ? *same_kind : ClassBits{};
    auto bits = [&](TensorClass cls, long long row, double ClassBits::*field) {
        if (same_kind && !gguf_class_reads_layer(cls)) return b.*field;
        return ggml_type_bits(gguf_tensor_type(*r.wf, cls, r.gguf, i, row));
    };
    const long long h = a.hidden;
    if (l.attn.kind == AttnKind::mla) {
        b.q = b.k = b.v = b.latent = bits(TensorClass::attn_other, h, &ClassBits::q);
    } else if (r.gguf.fused_qkv) {
        b.q = b.k = b.v = bits(TensorClass::attn_qkv_fused, h, &ClassBits::q);
    } else {
        b.q = bits(TensorClass::attn_q, h, &ClassBits::q);
        b.k = bits(TensorClass::attn_k, h, &ClassBits::k);
        b.v = bits(TensorClass::attn_v, h, &ClassBits::v);
    }
    if (l.attn.kind != AttnKind::mla) b.latent = b.q;
    b.o = bits(TensorClass::attn_output, (long long)std::max(1, l.attn.n_heads) * std::max(1, l.attn.v_head_dim), &ClassBits::o);
    b.cross = bits(TensorClass::attn_other, h, &ClassBits::cross);
    b.mixer = l.is_recurrent() ? bits(TensorClass::other_2d, h, &ClassBits::mixer) : b.q;   // ssm_in / ssm_out: llama.cpp's default type
    b.mlp_up = bits(TensorClass::ffn_gate_up, h, &ClassBits::mlp_up);
    b.mlp_down = l.mlp.intermediate > 0 ? bits(TensorClass::ffn_down, l.mlp.intermediate, &ClassBits::mlp_down) : b.mlp_up;
    b.sh_up = b.mlp_up;
    b.sh_down = l.mlp.n_shared > 0 ? bits(TensorClass::ffn_down, l.mlp.shared_intermediate, &ClassBits::sh_down) : b.mlp_down;
    // Routed experts are 3-D tensors (ffn_*_exps), which MXFP4_MOE treats apart.
    b.ex_up = l.is_moe() ? bits(TensorClass::ffn_gate_up_exps, h, &ClassBits::ex_up) : b.mlp_up;
    b.ex_down = l.is_moe() ? bits(TensorClass::ffn_down_exps, l.mlp.expert_intermediate, &ClassBits::ex_down) : b.mlp_down;
    b.router = 32.0;   // GGUF keeps ffn_gate_inp unquantized (F32)
    b.small = 32.0;    // and every 1-D tensor in F32
    return b;
}

LayerSplit to_split(const LayerParams& p, const ClassParams& c, const ClassBits& b) {
    LayerSplit s;
    s.params = c.total();
    s.active_params = s.params - (p.n_experts > 0 ? (c.ex_up + c.ex_down) * (1.0 - double(p.experts_active) / p.n_experts) : 0.0);
    const double bits = c.q * b.q + c.k * b.k + c.v * b.v + c.latent * b.latent + c.o * b.o + c.cross * b.cross + c.mixer * b.mixer +
                        c.mlp_up * b.mlp_up + c.mlp_down * b.mlp_down + c.sh_up * b.sh_up + c.sh_down * b.sh_down +
                        c.ex_up * b.ex_up + c.ex_down * b.ex_down + c.router * b.router + c.small * b.small;
    s.weight_bytes = bits / 8.0;
    s.expert_weight_bytes = (c.ex_up * b.ex_up + c.ex_down * b.ex_down) / 8.0;
    return s;
}

}  // namespace

LayerSplit layer_on_gpu(const Resolved& r, int i, int tp_degree, int ep_degree) {
    const ModelArch& a = *r.arch;
    const LayerParams& p = r.counts->layer(a, i);
    return to_split(p, split_params(a, a.layer(i), p, tp_degree, ep_degree), class_bits(r, i));
}

// A context longer than any sliding window or chunk, so that kv_cached_tokens returns the cap itself.
constexpr long long kPastEveryWindow = 1LL << 40;

void build_variants(Resolved& r) {
    // The variant key of a layer: its kind (index into the stack's kinds) and (GGUF only) the
    // predicates of llama.cpp's per-layer type rules: use_more_bits, layer < 2, layer < n/16.
    const ModelArch& a = *r.arch;
    const int L = a.total_layers();
    const int pp = r.par.pp;
    // The file type's per-layer predicates (precision.hpp), looked up once: whether it has any,
    // and each layer's key without going back to the rules.
    const GgufLayerRules rules = gguf_layer_rules(*r.wf, r.gguf);
    const bool layer_rules = rules.any();
    r.variants.clear();
    r.variants.reserve(6);   // 6 x 152 B stays inside malloc's per-thread cache (<= 1032 B)
    r.reset_stage_counts(pp);
    const bool one_kind = a.kinds.size() == 1;
    // 0..7: which of llama.cpp's per-layer predicates hold (use_more_bits, i < 2 or 4, i < n/8 or n/16).
    auto gguf_bits = [&](int i) { return int(rules.key(i)); };
    std::array<int, kMaxLayerKinds * 8> slot;
    slot.fill(-1);
    auto add = [&](int st, int j, int k, int layers) {
        if (slot[std::size_t(k)] < 0) {
            if (int(r.variants.size()) == kMaxVariants)
                throw Error("model.layer_types", "has more distinct layer shapes than an estimate handles (" + std::to_string(kMaxVariants) + ")");
            slot[std::size_t(k)] = int(r.variants.size());
            for (int s = 0; s < pp; ++s) r.stage_count(s)[r.variants.size()] = 0;   // the new variant's column
            LayerVariant lv;
            lv.rep = j;
            lv.kind = a.layer_kind[std::size_t(j)];
            r.variants.push_back(lv);
        }
        r.variants[std::size_t(slot[std::size_t(k)])].count += layers;
        r.stage_count(st)[slot[std::size_t(k)]] += std::uint16_t(layers);
    };
    if (one_kind && !layer_rules) {
        // Every layer alike (most dense models outside GGUF k-quants): one variant.
        for (int s = 0; s < pp; ++s) add(s, 0, 0, int((long long)(s + 1) * L / pp - (long long)s * L / pp));
    } else if (one_kind) {
        // One kind, GGUF predicates: keys change only at the boundaries the file type's rules read
        // (layer `first`, n / frac, n/8 and 7n/8 for use_more_bits, the stage edges) and, between
        // them, with period 3 (use_more_bits). Each segment is evaluated over one period and its
        // counts multiplied out, instead of visiting every layer. Variants come out in the order of
        // the first layer of each key, as a visit of every layer would give them.
        const int period = 3, nr = rules.n_layers;
        int cuts[4];
        int n_cuts = 0;
        for (int c : {rules.first, rules.frac > 0 ? nr / rules.frac : 0, rules.more ? nr / 8 : 0, rules.more ? 7 * nr / 8 : 0})
            if (c > 0 && c < L) cuts[n_cuts++] = c;
        for (int i = 1; i < n_cuts; ++i)   // insertion sort of at most 4 values
            for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; --j) std::swap(cuts[j - 1], cuts[j]);
        for (int st = 0; st < pp; ++st) {
            const int lo = int((long long)st * L / pp), hi = int((long long)(st + 1) * L / pp);
            int x = lo, ci = 0;
            while (x < hi) {
                while (ci < n_cuts && cuts[ci] <= x) ++ci;
                const int y = ci < n_cuts ? std::min(cuts[ci], hi) : hi;
                for (int j = x; j < std::min(y, x + period); ++j)
                    add(st, j, gguf_bits(j), (y - 1 - j) / period + 1);   // i in [j, y) with i = j (mod period)
                x = y;
            }
        }
    } else {
        // Several kinds: one look at each layer's kind (a few ns a layer, once per resolve).
        const bool gguf_keys = layer_rules;
        for (int st = 0; st < pp; ++st) {
            const int lo = int((long long)st * L / pp), hi = int((long long)(st + 1) * L / pp);
            for (int j = lo; j < hi; ++j) add(st, j, a.layer_kind[std::size_t(j)] * 8 + (gguf_keys ? gguf_bits(j) : 0), 1);
        }
    }
    const bool lora = r.config.mode == Mode::lora || r.config.mode == Mode::qlora;
    // Without tensor or expert parallelism a GPU holds whole layers: one split serves both.
    const bool whole_layers = r.par.tp == 1 && r.par.ep == 1;
    std::array<ClassBits, kMaxVariants> variant_bits;
    for (std::size_t vi = 0; vi < r.variants.size(); ++vi) {
        LayerVariant& v = r.variants[vi];
        const LayerParams& p = r.counts->per_kind[std::size_t(v.kind)];
        const LayerSpec& l = a.kinds[std::size_t(v.kind)];
        // Variants of one kind differ only in their GGUF tensor types (the bits), and of those
        // only in the classes whose type reads the layer index: the rest of the bits, and the
        // parameter split, cache and state of an earlier variant of the same kind carry over.
        const LayerVariant* same = nullptr;
        std::size_t same_i = 0;
        for (std::size_t e = 0; e < vi && !same; ++e)
            if (r.variants[e].kind == v.kind) same = &r.variants[e], same_i = e;
        const ClassBits bits = class_bits(r, v.rep, same ? &variant_bits[same_i] : nullptr);
        variant_bits[vi] = bits;
        v.whole = to_split(p, split_params(a, l, p, 1, 1), bits);
        v.on_gpu = whole_layers ? v.whole : to_split(p, split_params(a, l, p, r.par.tp, r.par.ep), bits);
        if (same) {
            const int rep = v.rep, kind = v.kind, count = v.count;
            const LayerSplit whole = v.whole, on_gpu = v.on_gpu;
            v = *same;
            v.rep = rep;
            v.kind = kind;
            v.count = count;
            v.whole = whole;
            v.on_gpu = on_gpu;
            continue;
        }
        v.kv_values_whole = kv_values_per_token(r, v.rep, false);
        v.kv_values_gpu = r.par.tp == 1 ? v.kv_values_whole : kv_values_per_token(r, v.rep, true);
        v.indexer_bytes = indexer_bytes_per_token(r, v.rep);
        v.kv_cap = (l.attn.kind == AttnKind::sliding || l.attn.kind == AttnKind::chunked) ? kv_cached_tokens(r, v.rep, kPastEveryWindow) : 0;
        v.cache_slot = l.attn.kind == AttnKind::sliding ? 1 : l.attn.kind == AttnKind::chunked ? 2 : l.attn.kind == AttnKind::mla ? 3 : 0;
        v.state_bytes_whole = state_bytes_per_sequence(r, v.rep, false);
        v.state_bytes_gpu = r.par.tp == 1 ? v.state_bytes_whole : state_bytes_per_sequence(r, v.rep, true);
        v.inference_elements = inference_elements_per_token(r, v.rep);
        v.lora_params = lora ? lora_layer_params(r, v.rep) : 0.0;
    }
    r.edges_whole = edge_weights(r, 1);
    r.edges = r.par.tp == 1 ? r.edges_whole : edge_weights(r, r.par.tp);
}

void file_stage_weights(Resolved& r) {
    // Exact bytes win over formulas: a model read from a GGUF or safetensors file keeps its
    // stored bytes per block, embedding table and head. One GPU holds the share of a block that
    // the formulas give it under tp and ep (replicated norms and KV heads included), and the
    // blocks of its pipeline stage. Training modes size their own 16-bit copies: formulas.
    const ModelArch& a = *r.arch;
    const ModelArch::FileWeights& f = a.file;
    r.file_layers.clear();
    r.file_embedding = r.file_head = 0;
    const int L = a.total_layers();
    if (f.empty() || r.training || int(f.layer.size()) != L) return;
    const int pp = r.par.pp;
    const bool whole_layers = r.par.tp == 1 && r.par.ep == 1;
    r.file_layers.assign(std::size_t(pp), 0.0);
    for (int st = 0; st < pp; ++st) {
        const int lo = int((long long)st * L / pp), hi = int((long long)(st + 1) * L / pp);
        for (int j = lo; j < hi; ++j) {
            double share = 1;
            if (!whole_layers) {
                const double whole = layer_on_gpu(r, j, 1, 1).weight_bytes;
                share = whole > 0 ? layer_on_gpu(r, j, r.par.tp, r.par.ep).weight_bytes / whole : 1.0;
            }
            r.file_layers[std::size_t(st)] += f.layer[std::size_t(j)] * share;
        }
    }
    auto share = [](double part, double whole) { return whole > 0 ? part / whole : 1.0; };
    r.file_embedding = f.embeddings * share(r.edges.embedding_bytes, r.edges_whole.embedding_bytes);
    // A tied table also sits on the last stage when the formulas say so (head_is_duplicate:
    // llama.cpp's GPU-side copy of token_embd, Megatron's last-stage copy).
    const double head = f.head + (r.edges.head_is_duplicate ? f.embeddings : 0.0);
    r.file_head = head * share(r.edges.head_bytes + r.edges.other_bytes, r.edges_whole.head_bytes + r.edges_whole.other_bytes);
}

EdgeWeights edge_weights(const Resolved& r, int tp_degree) {
    const ModelArch& a = *r.arch;
    const ParamCounts& c = *r.counts;
    const double tp = tp_degree;
    const bool gguf = r.wf->family == WeightFamily::gguf;
    EdgeWeights e;
    // Token embedding: GGUF type per llama.cpp (a tied table takes the output's type); other
    // quantizers leave embeddings in the checkpoint dtype.
    double emb_bits = r.float_bits;
    double head_bits = r.float_bits;
    if (gguf) {
        const TensorClass emb_cls = a.tied_embeddings ? TensorClass::output : TensorClass::token_embd;
        emb_bits = ggml_type_bits(gguf_tensor_type(*r.wf, emb_cls, r.gguf, 0, a.hidden));
        head_bits = ggml_type_bits(gguf_tensor_type(*r.wf, TensorClass::output, r.gguf, 0, a.hidden));
    } else {
        // 16-bit and fp32 formats cover every class; quantized ones leave the embedding and head
        // in the checkpoint dtype unless the checkpoint's scheme converts them.
        emb_bits = scheme_class_bits(r.scheme, SchemeClass::embedding);
        head_bits = scheme_class_bits(r.scheme, SchemeClass::lm_head);
    }
    if (r.config.mode == Mode::qlora && r.runtime == Runtime::pytorch) {
        // PEFT's prepare_model_for_kbit_training casts every non-quantized parameter (embeddings,
        // norms, lm_head) to fp32.
        emb_bits = head_bits = 32.0;
    }
    const double small_bits = gguf ? 32.0 : r.float_bits;
    e.embedding_params = c.embedding / tp;                       // vocab-parallel embedding
    e.embedding_bytes = e.embedding_params * emb_bits / 8.0;
    e.positions_params = c.positions;
    e.positions_bytes = c.positions * r.float_bits / 8.0;   // never quantized (GGUF keeps them F16)
    const bool has_head = a.kind != ArchKind::encoder;
    if (has_head) {
        if (!a.tied_embeddings) {
            e.head_params = c.lm_head / tp;
            e.head_bytes = e.head_params * head_bits / 8.0;
        } else if (r.config.pp > 1 || r.runtime == Runtime::llama_cpp) {
            // A tied table is needed on the last stage too: Megatron keeps a copy there, and
            // llama.cpp duplicates token_embd as the GPU-side output while the table stays in RAM.
            e.head_params = c.embedding / tp;
            e.head_bytes = e.head_params * head_bits / 8.0;
            e.head_is_duplicate = true;
        }
    }
    e.other_params = c.other;
    e.other_bytes = c.other * small_bits / 8.0;
    // llama.cpp keeps token_embd.weight in host memory (the input lookup runs on the CPU).
    e.embedding_on_host = r.runtime == Runtime::llama_cpp;
    return e;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] KV cache
// ---------------------------------------------------------------------------------------------

double kv_values_per_token(const Resolved& r, int i, bool per_gpu) {
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    if (!l.has_kv()) return 0;   // encoder layers, KV-sharing layers (Gemma 3n), pure recurrent layers
    const AttentionSpec& at = l.attn;
    const int tp = per_gpu ? r.par.tp : 1;
    if (at.kind == AttnKind::mla) {
        if (r.runtime == Runtime::pytorch) {
            // transformers' DeepseekV3Attention caches the decompressed keys and values.
            return double(at.n_heads) / tp * (at.qk_nope_head_dim + at.qk_rope_head_dim + at.v_head_dim);
        }
        // Absorbed MLA (vLLM, SGLang, llama.cpp): the latent plus the shared rope key, the same on
        // every tensor-parallel rank.
        return double(at.kv_lora_rank) + at.qk_rope_head_dim;
    }
    const double heads = per_gpu ? at.n_kv_heads * kv_head_fraction(at.n_kv_heads, tp) : at.n_kv_heads;
    double values = heads * (at.head_dim + at.v_head_dim);
    if (l.cross_attention) values *= 2.0;   // + cross-attention K/V of the encoder output
    return values;
}

double indexer_bytes_per_token(const Resolved& r, int i) {
    const LayerSpec& l = r.arch->layer(i);
    if (!l.has_kv() || l.attn.index_n_heads <= 0) return 0;
    // DeepSeek-V3.2's Indexer caches one key of index_head_dim per token in FP8 (k_cache,
    // float8_e4m3fn) and one FP32 scale per 128 values (k_scale_cache, head_dim // 128)
    // (deepseek-ai/DeepSeek-V3.2-Exp inference/model.py): 128 + 4 = 132 bytes for dim 128,
    // whatever the KV cache's own type; one key for all heads, so the same on every TP rank.
    const double dim = l.attn.index_head_dim;
    return dim + 4.0 * std::ceil(dim / 128.0);
}

double state_bytes_per_sequence(const Resolved& r, int i, bool per_gpu) {
    const RecurrentSpec& rc = r.arch->layer(i).recurrent;
    if (rc.kind == RecurrentKind::none || r.arch->layer(i).encoder) return 0;
    // Elements of one sequence's state. The conv state keeps d_conv - 1 columns (the oldest is
    // shifted out: llama.cpp llama-hparams.cpp n_embd_r(); vLLM's conv_state_shape has
    // conv_kernel - 1 too); the SSM / recurrent state is one matrix per head (n_embd_s()).
    double conv = 0, ssm = 0;
    switch (rc.kind) {
        case RecurrentKind::none: break;
        case RecurrentKind::mamba:   // Mamba-1: conv over d_inner, d_state per channel
            conv = double(rc.d_conv - 1) * rc.d_inner;
            ssm = double(rc.d_inner) * rc.d_state;
            break;
        case RecurrentKind::mamba2: {   // conv over d_inner + 2 n_groups d_state; heads x head_dim x d_state
            const double di = double(rc.n_heads) * rc.head_dim;
            conv = double(rc.d_conv - 1) * (di + 2.0 * rc.n_groups * rc.d_state);
            ssm = di * rc.d_state;
            break;
        }
        case RecurrentKind::gated_deltanet:   // conv over 2 nk dk + nv dv; nv matrices of dk x dv
            conv = double(rc.d_conv - 1) * (2.0 * rc.n_k_heads * rc.k_head_dim + double(rc.n_heads) * rc.head_dim);
            ssm = double(rc.n_heads) * rc.k_head_dim * rc.head_dim;
            break;
        case RecurrentKind::lightning:   // one head_dim x head_dim key-value state per head
            ssm = double(rc.n_heads) * rc.head_dim * rc.head_dim;
            break;
    }
    // Element sizes. llama.cpp keeps both states in F32 (llama-model.cpp create_memory:
    // llama_memory_recurrent(..., GGML_TYPE_F32, GGML_TYPE_F32, ...)). vLLM and transformers
    // keep the conv state in the model's dtype and the SSM state in mamba_ssm_cache_dtype when
    // the config sets it (vLLM CacheConfig.mamba_ssm_cache_dtype; Nemotron-H ships "float32"),
    // else in the model's dtype too. The KV cache's own type (fp8, ...) does not apply.
    const double model_bytes = r.fp32 ? 4.0 : 2.0;
    const double conv_b = r.runtime == Runtime::llama_cpp ? 4.0 : model_bytes;
    const double ssm_b = r.runtime == Runtime::llama_cpp ? 4.0 : (rc.state_bytes > 0 ? double(rc.state_bytes) : model_bytes);
    const double bytes = conv * conv_b + ssm * ssm_b;
    // Tensor parallelism splits the mixer by heads, and its state with it (vLLM MambaMixer2).
    return per_gpu ? bytes / r.par.tp : bytes;
}

long long kv_cached_tokens(const Resolved& r, int i, long long context) {
    const AttentionSpec& at = r.arch->layer(i).attn;
    long long ctx = context;
    if (r.runtime == Runtime::llama_cpp) ctx = (ctx + kLlamaCppKvPad - 1) / kLlamaCppKvPad * kLlamaCppKvPad;
    if (at.kind == AttnKind::sliding || at.kind == AttnKind::chunked) {
        // A sliding layer attends to the last W tokens; a chunked layer (Llama 4) to the tokens
        // since the start of the current chunk of C, at most C. How each runtime keeps them:
        long long window = at.window;
        if (r.runtime == Runtime::llama_cpp) {
            // llama.cpp's SWA cache holds the window plus one micro-batch (n_ubatch, our
            // prefill_chunk), padded to 256 cells, for LLAMA_SWA_TYPE_STANDARD and
            // LLAMA_SWA_TYPE_CHUNKED alike (src/llama-kv-cache-iswa.cpp, the llama_kv_cache_iswa
            // constructor: size_swa = GGML_PAD(min(size_base, n_swa*(unified ? n_seq_max : 1) +
            // n_ubatch), 256)). Per sequence that is the non-unified form (llama-server's default);
            // ctx is a multiple of 256 already, so the min commutes with the padding.
            const long long ubatch = r.config.prefill_chunk.value_or(kLlamaCppUbatch);
            window = (window + ubatch + kLlamaCppKvPad - 1) / kLlamaCppKvPad * kLlamaCppKvPad;
        } else if (r.runtime == Runtime::vllm) {
            // vLLM's hybrid allocator keeps the blocks of the last W - 1 tokens plus the new one,
            // and one more block because the window need not start at a block boundary
            // (vllm/v1/kv_cache_interface.py SlidingWindowSpec: cdiv(num_tokens, block_size) + 1).
            window = ((window + kVllmBlockSize - 1) / kVllmBlockSize + 1) * kVllmBlockSize;
        }
        // transformers' sliding-window cache layers keep the window (DynamicSlidingWindowLayer).
        ctx = std::min(ctx, window);
    }
    return ctx;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Activations
// ---------------------------------------------------------------------------------------------

namespace {

// Widths (elements per token, one GPU) a layer kind's token mixers produce.
struct MixerWidths {
    double q = 0, k = 0, v = 0, latent = 0, o = 0;   // attention
    double rec_in = 0, rec_conv = 0, rec_out = 0;    // recurrent: in-projection output, conv output, scan output
};

MixerWidths mixer_widths(const ModelArch& a, const LayerSpec& l, int tp_degree) {
    const double t = tp_degree;
    MixerWidths m;
    const AttentionSpec& at = l.attn;
    if (at.kind == AttnKind::mla) {
        m.q = double(at.n_heads) * (at.qk_nope_head_dim + at.qk_rope_head_dim) / t;
        m.k = m.q;
        m.v = double(at.n_heads) * at.v_head_dim / t;
        m.latent = double(at.q_lora_rank) + at.kv_lora_rank + at.qk_rope_head_dim;   // replicated
    } else if (at.kind != AttnKind::none) {
        const double kvf = kv_head_fraction(at.n_kv_heads, tp_degree);
        m.q = double(at.n_heads) * at.head_dim / t;
        m.k = at.n_kv_heads * kvf * double(at.head_dim);
        m.v = at.n_kv_heads * kvf * double(at.v_head_dim);
    }
    if (at.kind != AttnKind::none) m.o = double(at.n_heads) * at.v_head_dim / t;
    const RecurrentSpec& rc = l.recurrent;
    switch (rc.kind) {
        case RecurrentKind::none: break;
        case RecurrentKind::mamba:
            m.rec_in = 2.0 * rc.d_inner / t;
            m.rec_conv = double(rc.d_inner) / t + (rc.dt_rank + 2.0 * rc.d_state);
            m.rec_out = double(rc.d_inner) / t;
            break;
        case RecurrentKind::mamba2: {
            const double di = double(rc.n_heads) * rc.head_dim;
            const double conv_dim = di + 2.0 * rc.n_groups * rc.d_state;
            m.rec_in = (di + conv_dim + rc.n_heads) / t;
            m.rec_conv = conv_dim / t;
            m.rec_out = di / t;
            break;
        }
        case RecurrentKind::gated_deltanet: {
            const double key = double(rc.n_k_heads) * rc.k_head_dim, value = double(rc.n_heads) * rc.head_dim;
            m.rec_in = (2.0 * key + 2.0 * value + 2.0 * rc.n_heads) / t;
            m.rec_conv = (2.0 * key + value) / t;
            m.rec_out = value / t;
            break;
        }
        case RecurrentKind::lightning:
            m.rec_in = 4.0 * rc.n_heads * rc.head_dim / t;
            m.rec_out = double(rc.n_heads) * rc.head_dim / t;
            break;
    }
    (void)a;
    return m;
}

}  // namespace

// Inference: elements live at the peak of one layer's forward, per token, on one GPU.
// residual + normed input + max(token-mixer block, MLP block). A layer with both attention and
// a recurrent mixer (Falcon-H1) runs them side by side: their widths add up.
double inference_elements_per_token(const Resolved& r, int i) {
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const double tp = r.par.tp;
    const double h = a.hidden;
    const MixerWidths w = mixer_widths(a, l, r.par.tp);
    double kv_w = w.k + w.v;
    // MLA: the latent and rope key, then the decompressed no-rope keys and values.
    if (l.attn.kind == AttnKind::mla)
        kv_w = double(l.attn.kv_lora_rank + l.attn.qk_rope_head_dim) + double(l.attn.n_heads) / tp * l.attn.qk_nope_head_dim + w.v;
    double mixer = 0;
    if (l.attn.kind != AttnKind::none) mixer += w.q + kv_w + w.o;   // q, k, v, attention output
    mixer += w.rec_in + w.rec_conv + w.rec_out;                      // in-projection, conv, scan output
    const double attn = mixer + h;                                   // + o_proj / out_proj output
    const double inner_factor = a.mlp == MlpKind::gated ? 3.0 : 2.0;   // gate, up, act(gate)*up | fc1, act
    const LayerMlpSpec& m = l.mlp;
    double mlp = 0;
    if (m.kind == LayerMlpKind::moe) {
        const double expert_div = r.par.ep > 1 ? double(r.par.ep) : tp;
        mlp = m.experts_per_token * (h + inner_factor * m.expert_intermediate / expert_div)   // permuted tokens
              + m.n_shared * inner_factor * m.shared_intermediate / tp + 2.0 * m.n_experts + h;
    } else if (m.kind == LayerMlpKind::dense) {
        mlp = inner_factor * m.intermediate / tp + h;
    }
    return h + h + std::max(attn, mlp);
}

// Context parallelism: the ring's K/V blocks beyond the layer's own, one layer at a time (held
// once). TransformerEngine's AttnFuncWithCPAndKVP2P (transformer_engine/pytorch/attention/
// dot_product_attention/context_parallel.py) receives the next block while attending to the
// one in hand, two buffers in turn in the forward; its backward keeps two buffers of
// (K/V, dK/dV) (`p2p_comm_buffers = [torch.empty((2, *kv.shape)), ...]`): four blocks at the
// peak, each this GPU's 1/cp of the micro-batch's tokens at its K/V heads after tp.
[[gnu::noinline]] double ring_attention_buffer_bytes(const Resolved& r, const std::uint16_t* counts, std::size_t nv) {
    if (r.par.cp <= 1) return 0;
    double kv_per_token = 0;   // the widest layer's K/V values of one token on one GPU
    for (std::size_t v = 0; v < nv; ++v)
        if (counts[v] > 0) kv_per_token = std::max(kv_per_token, r.variants[v].kv_values_gpu);
    const double tokens = double(r.config.context) / r.par.cp * r.config.batch;
    return 4.0 * tokens * kv_per_token * r.act_bytes;
}

// Training: bytes one layer keeps for backward, one micro-batch, one GPU (Korthikanti et al.
// 2022, "Reducing Activation Recomputation in Large Transformer Models", sec. 4, generalized to
// GQA, gated MLPs, MoE and flash attention). With dropout, an MHA layer with a 4h MLP gives the
// paper's s*b*h*(34 + 5*a*s/h); tests/test_activations.cpp checks that identity. A recurrent
// mixer keeps its in-projection, conv and scan outputs (the chunked scan's per-chunk states are
// small next to them).
double train_layer_bytes(const Resolved& r, int i, Recompute recompute) {
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const Config& c = r.config;
    // Context parallelism: every activation of a layer is per token, and a GPU holds 1/cp of
    // each sequence's tokens (Megatron-LM context_parallel.rst: "the activation memory footprint
    // per GPU is also CP times smaller"). The quadratic score matrix never appears: cp > 1 needs
    // flash attention (check_context_parallel).
    const double s = double(c.context) / r.par.cp, b = c.batch, h = a.hidden;
    const double t = r.par.tp;
    const double B = r.act_bytes;                         // 2 bytes for bf16/fp16 activations
    const double sb = s * b;
    // Pieces outside the tensor-parallel regions (norm inputs, the inputs of the first linear
    // of each block, dropout masks) are replicated on every TP rank unless sequence parallel.
    const double rep = (c.sequence_parallel && t > 1) ? 1.0 / t : 1.0;
    if (recompute == Recompute::full) return B * sb * h * rep;   // only the layer input is kept

    const MixerWidths w = mixer_widths(a, l, r.par.tp);
    double attn = 0;
    if (l.attn.kind != AttnKind::none) {
        const double heads = l.attn.n_heads / t;
        // Attention block: norm input, QKV input (norm output), Q, K, V, output-projection input.
        attn = B * sb * h * rep * 2.0 + B * sb * (w.q + w.k + w.v + w.o + w.latent);
        if (a.dropout) attn += sb * h * rep;              // output dropout mask, 1 byte
        // Core attention: softmax output (and with dropout its mask and output), quadratic in s.
        // Flash attention and selective recomputation keep only the fp32 log-sum-exp per row.
        const bool quadratic = !c.flash_attention && recompute == Recompute::none;
        if (quadratic) attn += heads * s * sb * (a.dropout ? 2.0 * B + 1.0 : B);
        else if (c.flash_attention) attn += 4.0 * heads * sb;
        if (l.cross_attention) attn *= 2.0;              // + cross attention
    }
    if (l.is_recurrent()) {
        attn += B * sb * h * rep * 2.0 + B * sb * (w.rec_in + w.rec_conv + w.rec_out);
        if (l.attn.kind != AttnKind::none) attn -= B * sb * h * rep * 2.0;   // one shared norm input (Falcon-H1)
    }

    // MLP block: norm input, first-linear input, then the inner activations.
    const double inner_factor = a.mlp == MlpKind::gated ? 3.0 : 2.0;   // gate, up, product | fc1 out, act out
    const LayerMlpSpec& m = l.mlp;
    double mlp = 0;
    if (m.kind != LayerMlpKind::none) {
        mlp = B * sb * h * rep * 2.0;
        if (m.kind == LayerMlpKind::moe) {
            const double expert_div = r.par.ep > 1 ? double(r.par.ep) : t;
            mlp += B * sb * m.experts_per_token * (h + inner_factor * m.expert_intermediate / expert_div);
            mlp += B * sb * m.n_shared * inner_factor * m.shared_intermediate / t;
            mlp += 4.0 * sb * m.n_experts;                 // fp32 router logits
        } else {
            mlp += B * sb * inner_factor * m.intermediate / t;
        }
        if (a.dropout) mlp += sb * h * rep;
    }
    // Norms beyond the two counted above (Gemma 2's post-attention and post-MLP norms).
    const double extra_norms = std::max(0, l.norms - 2 - (l.cross_attention ? 1 : 0)) * B * sb * h * rep;
    return attn + mlp + extra_norms;
}

double llama_cpp_compute_buffer(const Resolved& r, bool holds_output) {
    // ollama's closed form for llama.cpp's worst-case graph (ollama fs/ggml/ggml.go GraphSize,
    // "llama" branch), which reproduces logged "CUDA0 compute buffer size" lines exactly with
    // flash attention off (Llama 3.1 8B at n_ctx 8192: 560.00 MiB; Llama 2 7B at 2048 / 4096 /
    // 32768: 164 / 296 / 2144 MiB; docs/research/runtime-facts.md, sec. 1a):
    //   layer  = 4 * ub * (1 + 4*embd + n_ctx*(1 + n_head))   (f32 KQ and mask of one layer)
    //   output = 4 * ub * (embd + n_vocab)                    (f32 logits of every ubatch token)
    // With flash attention there is no KQ matrix; the f32 mask and its f16 copy remain
    // (6 B per n_ctx x ub element, which matches the mainline Llama 3.1 8B log at n_ctx 16384,
    // ub 1024: 613 MiB).
    const ModelArch& a = *r.arch;
    const double ub = double(r.config.prefill_chunk.value_or(kLlamaCppUbatch));
    // The longest KV any layer holds (sliding-window layers hold less).
    long long longest = 0;
    for (const LayerVariant& v : r.variants)
        longest = std::max(longest, variant_cached_tokens(r, v, (long long)r.config.batch * r.config.context));
    const double n_ctx = double(longest);
    const double embd = a.hidden;
    const double heads = double(a.n_heads) / r.par.tp;
    double layer, output = 0;
    if (r.config.flash_attention) {
        const double mask = 6.0 * ub * n_ctx;
        layer = 4.0 * ub * (1.0 + 4.0 * embd) + mask;
        if (holds_output) output = 4.0 * ub * (embd + double(a.vocab)) + mask;
    } else {
        layer = 4.0 * ub * (1.0 + 4.0 * embd + n_ctx * (1.0 + heads));
        if (holds_output) output = 4.0 * ub * (embd + double(a.vocab));
    }
    return std::max(layer, output);
}

double lora_layer_params(const Resolved& r, int i) {
    // LoRA adds A (r x in) and B (out x r) beside each targeted linear: r * (in + out).
    // Recurrent mixers' projections (in_proj, out_proj) are not among the target names.
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const AttentionSpec& at = l.attn;
    const unsigned t = r.config.lora_targets;
    const double rank = r.config.lora_rank;
    const double h = a.hidden;
    double n = 0;
    auto add = [&](unsigned bit, double in, double out, double copies = 1.0) {
        if (t & bit) n += copies * rank * (in + out);
    };
    if (at.kind == AttnKind::mla) {
        // DeepSeek names: q_a_proj/q_b_proj (q), kv_a_proj_with_mqa (k), kv_b_proj (v), o_proj.
        const double qk = at.qk_nope_head_dim + at.qk_rope_head_dim;
        if (at.q_lora_rank > 0) {
            add(kLoraQ, h, at.q_lora_rank);
            add(kLoraQ, at.q_lora_rank, double(at.n_heads) * qk);
        } else {
            add(kLoraQ, h, double(at.n_heads) * qk);
        }
        add(kLoraK, h, double(at.kv_lora_rank) + at.qk_rope_head_dim);
        add(kLoraV, at.kv_lora_rank, double(at.n_heads) * (at.qk_nope_head_dim + at.v_head_dim));
    } else if (at.kind != AttnKind::none) {
        add(kLoraQ, h, double(at.n_heads) * at.head_dim);
        add(kLoraK, h, double(at.n_kv_heads) * at.head_dim);
        add(kLoraV, h, double(at.n_kv_heads) * at.v_head_dim);
    }
    if (at.kind != AttnKind::none) add(kLoraO, double(at.n_heads) * at.v_head_dim, h);
    auto add_mlp = [&](double inner, double copies) {
        if (a.mlp == MlpKind::gated) {
            add(kLoraGate, h, inner, copies);
            add(kLoraUp, h, inner, copies);
        } else {
            add(kLoraUp, h, inner, copies);   // fc1
        }
        add(kLoraDown, inner, h, copies);
    };
    if (l.is_moe()) {
        add_mlp(l.mlp.expert_intermediate, l.mlp.n_experts);   // PEFT wraps every expert's linears
        add_mlp(l.mlp.shared_intermediate, l.mlp.n_shared);
    } else if (l.mlp.kind == LayerMlpKind::dense) {
        add_mlp(l.mlp.intermediate, 1.0);
    }
    return n;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The estimate
// ---------------------------------------------------------------------------------------------

namespace {

// Everything on the GPUs of one pipeline stage.
struct Stage {
    MemoryParts parts;
    OverheadDetail overhead;
    double params = 0;          // parameters on one GPU of the stage (before ZeRO)
    double kv_rate = 0;         // KV bytes per token of one sequence, one GPU, uncapped
    double state = 0;           // recurrent layers' fixed state of the batch's sequences, one GPU
    double host = 0;
    double act_per_layer = 0;
    double outside_budget = 0;  // vLLM: bytes outside gpu_memory_utilization (context, graphs); SGLang / TensorRT-LLM: activations and graphs
    double non_torch = 0;       // SGLang / TensorRT-LLM: NCCL and all-reduce buffers
    double layer_bytes = 0;     // the stage's layer weights and KV cache
    double expert_bytes = 0;    // the stage's routed-expert weights
    double act_inflight = 0;    // training: activation bytes per micro-batch in flight
    double act_once = 0;        // training: activation bytes held once (loss, full recompute's layer)
};

bool is_large_vllm_gpu(const Gpu& g) {
    // vLLM's rule: >= 70 GiB and not an A100 gets the larger scheduler defaults.
    return vllm_large_scheduler_defaults(g);   // gpu.hpp: >= 70 GiB and not an A100
}

// Inlined into compute(), the hot loop of every estimate and sweep point (stage_sums() copies it).
[[gnu::always_inline]] inline Stage stage_estimate(const Resolved& r, int s, const std::array<double, kMaxVariants>& train_bytes,
                     const std::array<double, kMaxVariants>& train_full) {
    const ModelArch& a = *r.arch;
    const Config& c = r.config;
    const RuntimeProfile& rt = *r.rt;
    const int pp = r.par.pp;
    const bool first = s == 0, last = s == pp - 1;
    const std::size_t nv = r.variants.size();
    const std::uint16_t* counts = r.stage_count(s);
    Stage st;
    MemoryParts& m = st.parts;

    // Weights, KV rate and the per-token working set, summed over the stage's layer variants.
    double trainable = 0, per_token = 0;
    for (std::size_t v = 0; v < nv; ++v) {
        if (counts[v] == 0) continue;
        const LayerVariant& lv = r.variants[v];
        const double n = counts[v];
        st.params += n * lv.on_gpu.params;
        m.weights += n * lv.on_gpu.weight_bytes;
        st.expert_bytes += n * lv.on_gpu.expert_weight_bytes;
        trainable += n * lv.lora_params / r.par.tp;
        per_token = std::max(per_token, lv.inference_elements);
        if (!r.training) {
            // Attention K/V (growing, or capped at a window or chunk), indexer keys, and the
            // fixed recurrent state of each sequence.
            const double bytes = lv.kv_values_gpu * r.kv->bytes + lv.indexer_bytes;
            st.kv_rate += n * bytes;
            const double seqs = double(c.batch);
            // (cache_detail() splits the same sum by kind for the reported GPU.)
            const double tokens = double(variant_cached_tokens(r, lv, c.context));
            m.kv_cache += n * seqs * ((lv.kv_values_gpu * r.kv->bytes + lv.indexer_bytes) * tokens + lv.state_bytes_gpu);
            st.state += n * seqs * lv.state_bytes_gpu;
        }
    }
    // A model read from a file: its exact bytes (file_stage_weights) replace the formulas'.
    const bool from_file = !r.file_layers.empty();
    if (from_file) m.weights = r.file_layers[std::size_t(s)];
    st.layer_bytes = m.weights * r.scale + m.kv_cache;
    st.expert_bytes *= r.scale;
    const EdgeWeights& e = r.edges;
    if (first) {
        st.params += e.embedding_params + e.positions_params;
        if (e.embedding_on_host) st.host += from_file ? a.file.embeddings : r.edges_whole.embedding_bytes * r.scale;   // the whole table, once, in RAM
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

    // Activations.
    if (!r.training) {
        const double V = double(a.vocab);
        switch (r.runtime) {
            case Runtime::llama_cpp:
                m.activations = llama_cpp_compute_buffer(r, last);
                break;
            case Runtime::vllm: {
                // vLLM's profile run: one forward of max_num_batched_tokens, then the sampler on
                // min(max_num_seqs, max_num_batched_tokens) rows of fp32 logits.
                const bool large = is_large_vllm_gpu(*r.gpu);
                const double tokens = c.prefill_chunk ? double(*c.prefill_chunk) : large ? kVllmBatchedTokensLarge : kVllmBatchedTokensSmall;
                const double seqs = std::min<double>(large ? kVllmMaxSeqsLarge : kVllmMaxSeqsSmall, tokens);
                m.activations = tokens * per_token * r.act_bytes;
                if (last) m.activations += seqs * V * 4.0;
                break;
            }
            case Runtime::sglang:
            case Runtime::trt_llm: {
                // One forward of the engine's token budget (SGLang chunked_prefill_size,
                // TensorRT-LLM max_num_tokens, which its engine plans activations for), and the
                // fp32 last-token logits of as many sequences.
                const double tokens = double(serving_token_budget(r));
                const double seqs = std::min<double>(double(serving_max_sequences(r)), tokens);
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
        const double inflight = train_inflight_micro_batches(pp, s, r.micro_batches, r.virtual_stages);
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

    // Training state.
    if (r.training) {
        const bool fp32 = r.fp32;
        // The ranks that hold the same weights: dp x cp. Megatron Core reduces gradients and
        // shards its distributed optimizer over the data-parallel group with the context-parallel
        // ranks folded in (parallel_state.get_data_parallel_group(with_context_parallel=True)).
        const double dp = double(r.par.dp) * r.par.cp;
        // Bytes per trainable parameter, after the ZeRO paper's accounting (mixed precision:
        // 2 weights + 2 gradients + K optimizer, with K = 12 for AdamW: fp32 master, m, v).
        double states = 0;   // optimizer states per trainable parameter
        switch (c.optimizer) {
            case Optimizer::adamw: states = 8.0; break;        // m, v in fp32
            case Optimizer::adamw_8bit: states = 2.0; break;   // m, v in 8 bits (bitsandbytes, block-wise)
            case Optimizer::sgd: states = 4.0; break;          // momentum in fp32
            case Optimizer::adafactor:
                // Factored second moment: rows + columns of each matrix in fp32, at most
                // 2/h per weight (every matrix has a side of hidden size); no momentum.
                states = 4.0 * 2.0 / a.hidden;
                break;
        }
        double grad_b = 0, optim_b = 0, count = 0;
        if (c.mode == Mode::train) {
            count = st.params;
            grad_b = fp32 ? 4.0 : 2.0;
            optim_b = states + (fp32 ? 0.0 : 4.0);   // + the fp32 master copy of 16-bit training
        } else {
            // LoRA adapters are fp32 (PEFT autocast_adapter_dtype=True): weights 4 B, gradients
            // 4 B, optimizer states without a separate master copy.
            count = trainable;
            m.weights += trainable * 4.0;
            grad_b = 4.0;
            optim_b = states;
        }
        m.gradients = count * grad_b / (c.zero >= 2 ? dp : 1.0);
        m.optimizer = count * optim_b / (c.zero >= 1 ? dp : 1.0);
        if (c.zero == 3) m.weights /= dp;
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
        // Communication buffers.
        const double wb = fp32 ? 4.0 : 2.0;
        // DDP only wraps a model that has other ranks; a DeepSpeed ZeRO engine allocates its
        // buckets and gathers parameters the same way at any world size, one rank included, so
        // its buffers do not wait for dp > 1 (nor does adding ranks ever add them).
        if (r.runtime == Runtime::pytorch && c.zero == 0 && dp > 1) {
            // DDP's gradient buckets are a second copy of the gradients by default
            // (gradient_as_bucket_view=False; torch.nn.parallel.DistributedDataParallel docs).
            st.overhead.runtime_buffers += count * grad_b;
        } else if (r.runtime == Runtime::pytorch && c.zero >= 1 && c.zero <= 2) {
            st.overhead.runtime_buffers += 2.0 * std::min(kZeroReduceBucket, count) * wb;   // reduce + allgather buckets
        }
        if (r.runtime == Runtime::pytorch && c.zero == 3) {
            // Gathered parameters (stage3_max_live_parameters) plus the prefetch and reduce buckets.
            const double whole = st.params;
            st.overhead.runtime_buffers += (std::min(kZero3MaxLiveParams, whole) + std::min(kZero3PrefetchBucket, whole) +
                                            std::min(kZeroReduceBucket, count)) * wb;
        }
    }

    // Runtime overhead.
    st.overhead.cuda_context = r.gpu->segment == Segment::apple ? 0.0 : rt.cuda_context;   // Metal has no CUDA context
    if (r.gpu->measured_cuda_context_bytes > 0 && rt.cuda_context > 0) st.overhead.cuda_context = r.gpu->measured_cuda_context_bytes;   // gpusizer-cuda-bench
    if (r.runtime == Runtime::pytorch) {
        // One NCCL communicator per group: tp, pp, dp (with cp folded in) and the cp ring.
        const int comms = (r.par.tp > 1) + (pp > 1) + (r.par.dp * r.par.cp > 1) + (r.par.cp > 1);
        st.overhead.runtime_buffers += comms * rt.comm_buffers;
        st.overhead.allocator_reserve = rt.allocator_fraction * (m.activations + m.kv_cache + m.gradients);
    } else if (r.runtime == Runtime::vllm) {
        const bool parallel = r.par.tp > 1 || pp > 1 || r.par.dp > 1;
        st.overhead.runtime_buffers += (parallel ? kVllmNonTorchParallel : kVllmNonTorchSingle) + kVllmCudaGraphs;
        st.outside_budget = st.overhead.cuda_context + kVllmCudaGraphs;
    } else if (r.runtime == Runtime::sglang || r.runtime == Runtime::trt_llm) {
        // The same NCCL / custom all-reduce buffers and CUDA graph pools as vLLM (its logged
        // figures, above); SGLang keeps activations and graphs in its (1 - mem_fraction_static)
        // reserve, TensorRT-LLM in the (1 - free_gpu_memory_fraction) of free memory.
        const bool parallel = r.par.tp > 1 || pp > 1 || r.par.dp > 1;
        st.non_torch = parallel ? kVllmNonTorchParallel : kVllmNonTorchSingle;
        st.overhead.runtime_buffers += st.non_torch + kVllmCudaGraphs;
        st.outside_budget = m.activations + kVllmCudaGraphs;
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
    const double seqs = double(r.config.batch);
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
        if (counts[v] == 0) continue;
        const LayerVariant& lv = r.variants[v];
        const double n = counts[v];
        const double tokens = double(variant_cached_tokens(r, lv, r.config.context));
        const double kv = n * seqs * lv.kv_values_gpu * r.kv->bytes * tokens;
        double* by_kind[4] = {&d.full, &d.sliding, &d.chunked, &d.mla};
        *by_kind[lv.cache_slot] += kv;
        d.indexer += n * seqs * lv.indexer_bytes * tokens;
        d.recurrent_state += n * seqs * lv.state_bytes_gpu;
    }
    return d;
}

Totals compute(const Resolved& r) {
    const Config& c = r.config;
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
    const double sglang_fraction =
        kv_budget == KvBudget::static_fraction ? sglang_mem_fraction_static(capacity / kMiB, r.par.tp * r.par.pp) : 0.0;
    double engine_usable = usable, worst_total_seen = -1;
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
                pool = sglang_fraction * before_load - st.parts.weights;
                stage_usable = sglang_fraction * before_load + st.overhead.cuda_context + st.non_torch +
                               std::min(st.outside_budget, (1.0 - sglang_fraction) * before_load);
                break;
            }
            case KvBudget::free_fraction:
                // TensorRT-LLM: free_gpu_memory_fraction of what is free once the weights,
                // activations, context and buffers are placed.
                pool = r.engine_version->fraction * (capacity - non_kv);
                stage_usable = non_kv + pool;
                break;
            case KvBudget::fit_margin:
                // llama.cpp's --fit sizes the context to leave its margin free on each device; the
                // configuration still fits up to the device's capacity.
                pool = capacity - r.engine_version->fit_margin - non_kv;
                break;
            case KvBudget::whole_gpu: pool = usable - non_kv; break;
        }
        if (kv_budget == KvBudget::static_fraction || kv_budget == KvBudget::free_fraction) {
            if (s == 0 || total > worst_total_seen) engine_usable = stage_usable;
        }
        worst_total_seen = std::max(worst_total_seen, total);
        if (st.kv_rate > 0) {
            const double room = (pool - st.state) / st.kv_rate;
            if (min_kv_room < 0 || room < min_kv_room) {
                min_kv_room = room;
                t.kv_pool_bytes = std::max(0.0, pool);
                t.kv_stage = s;
                // Sequences of `context` tokens the pool holds (vLLM: "Maximum concurrency for L
                // tokens per request"): the pool over one sequence's cache and state.
                const double per_seq = c.batch > 0 ? st.parts.kv_cache / c.batch : 0.0;
                t.max_concurrency = per_seq > 0 ? std::max(0.0, pool) / per_seq : 0.0;
            }
        }
    }
    if (r.runtime == Runtime::vllm) usable += std::min(outside, (1.0 - c.gpu_memory_utilization) * capacity);
    if (kv_budget == KvBudget::static_fraction || kv_budget == KvBudget::free_fraction) usable = engine_usable;
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
        train_bytes[v] = r.training ? train_layer_bytes(r, r.variants[v].rep, r.config.recompute) : 0.0;
        train_full[v] = r.training && r.config.recompute == Recompute::full ? train_layer_bytes(r, r.variants[v].rep, Recompute::none) : 0.0;
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
        train_bytes[v] = train_layer_bytes(r, r.variants[v].rep, r.config.recompute);
        train_full[v] = r.config.recompute == Recompute::full ? train_layer_bytes(r, r.variants[v].rep, Recompute::none) : 0.0;
    }
    const Stage st = stage_estimate(r, s, train_bytes, train_full);
    TrainStageTerms t;
    t.params = st.params;
    t.weights = st.parts.weights;
    t.act_inflight = st.act_inflight;
    t.act_once = st.act_once;
    t.cuda_context = st.overhead.cuda_context;
    return t;
}

// What a user should know about the memory figures (string building only when one fires).
[[gnu::noinline]] void memory_warnings(const Resolved& r, Report& rep, double capacity, double outside) {
    const ModelArch& a = *r.arch;
    const Config& c = rep.config;
    rep.warnings = c.model.import_warnings;
    auto gib = [](double b) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f GiB", b / kGiB);
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
    if (r.runtime == Runtime::none)
        rep.warnings.push_back("runtime none counts the model's tensors only; a real runtime adds its CUDA context and buffers (0.3-2 GiB)");
    if (r.gpu->vendor == "apple" && r.runtime == Runtime::pytorch && r.training)
        rep.warnings.push_back("training on Apple GPUs runs through PyTorch MPS: bitsandbytes and DeepSpeed are not available there");
    if (c.zero > 0 && r.par.dp * r.par.cp == 1)
        rep.warnings.push_back("ZeRO shards over data-parallel ranks; with dp = 1 it saves nothing");
}

Report estimate_resolved(const Resolved& r, Config* give) {
    const ModelArch& a = *r.arch;
    Report rep;
    // The report keeps the resolved configuration; read it from there from now on (`give` may be
    // r's own, moved out: nothing after resolve() reads r.config's strings).
    if (give) rep.config = std::move(*give);
    else rep.config = r.config;
    const Config& c = rep.config;
    rep.parallel = r.par;
    rep.model_name = r.catalog_model ? a.name : (a.name.empty() ? std::string("custom model") : a.name);
    rep.gpu_name = r.gpu->name;
    rep.measured = r.gpu->calibration;

    const double scale = r.scale;
    rep.params = r.total_params * scale;
    rep.active_params = r.counts->active(a) * scale;
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
    rep.weights_scheme.source = r.native_weights ? "checkpoint" : "config";
    rep.weights_scheme.format = std::string(r.wf->id);
    rep.weights_scheme.method = r.native_weights ? a.native_method : "";
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
    rep.gpu_capacity = t.capacity;
    rep.gpu_usable = t.usable;
    rep.headroom = t.headroom;
    rep.fits = t.fits;
    rep.kv_capacity_tokens = t.kv_capacity_tokens;
    const double capacity = t.capacity, outside = t.outside_budget;

    // Speed, communication and power: arithmetic on what is resolved above.
    // (The same configuration over the other kind of link is alternative_link()'s job: it costs a
    // second evaluation that an estimate, called thousands of times by sweeps and UIs, skips.)
    const PerfInputs in = perf_inputs(r);
    const Fabric fabric = fabric_of(r);
    PerfOut po{rep.interconnect, rep.speed, rep.power};
    evaluate_performance(r, in, t, fabric, po);
    rep.serving.max_concurrency = t.max_concurrency;
    if (c.isl > 0 && !r.training) {
        const ServingModel sm = serving_model(r, in, t, fabric, po);
        const double keep = rep.serving.max_concurrency;
        rep.serving = c.request_rate > 0 ? serving_at_rate(sm, double(c.isl), double(c.osl), c.request_rate)
                                         : serving_at(sm, double(c.isl), double(c.osl), double(c.concurrency));
        rep.serving.max_concurrency = keep;
    }
    // The concurrency that runs when none was asked: what the engines hold (the report's
    // configuration names every default it resolved; an open loop's rate stays the question).
    if (c.concurrency == 0 && c.request_rate == 0 && !r.training) {
        const double held = rep.serving.active ? rep.serving.concurrency : std::floor(rep.serving.max_concurrency) * r.par.dp;
        rep.config.concurrency = int(std::clamp(held, 0.0, double(1 << 24)));
    }
    rep.config.mfu = po.mfu;
    rep.config.bandwidth_efficiency = po.bandwidth_efficiency;
    rep.config.pue = po.pue;
    rep.config.link = fabric.intra ? fabric.intra->id : std::string();
    rep.config.inter_node_link = fabric.inter ? fabric.inter->id : std::string();
    rep.config.prompt_tokens = (long long)in.prompt_tokens;
    rep.config.host_memory_bandwidth_gb_per_s = po.host_bandwidth / 1e9;
    // The default goes back in whole nanoseconds so that 90e-6 s reads 90, not 89.99999999999999.
    if (!rep.config.layer_overhead_us) rep.config.layer_overhead_us = std::round(po.layer_overhead * 1e9) / 1e3;

    memory_warnings(r, rep, capacity, outside);
    performance_warnings(r, rep);
    return rep;
}

}  // namespace detail

LinkTimes alternative_link(const Config& config, const Catalog& catalog) { return detail::alternative_of(detail::resolve(config, catalog)); }

LinkTimes detail::alternative_of(const detail::Resolved& r) {
    LinkTimes lt;
    const Catalog& catalog = *r.catalog;
    if (r.config.gpus < 2 || catalog.links.empty()) return lt;
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
    detail::Resolved r = detail::resolve(config, catalog);
    return detail::estimate_resolved(r, &r.config);
}

}  // namespace gpusizer
