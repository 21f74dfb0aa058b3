// assumptions.cpp: the constants and choices behind a report, for "show assumptions" in the UI
// and `gpusizer estimate --assumptions`.
#include <cstdio>
#include <string>

#include "gpusizer/estimate.hpp"
#include "gpusizer/measured.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"
#include "training/frameworks.hpp"

namespace gpusizer {

namespace {

// What a training framework's profile implies (training/frameworks.cpp).
std::string framework_assumption(TrainingFramework f) {
    const char* text = "megatron: Megatron's kernels (the fit of mfu); DP sync behind the backward; fp32 main gradients";
    switch (f) {
        case TrainingFramework::nemo: text = "nemo: Megatron Core's kernels and fp32 main gradients; TP communication overlapped with sequence parallelism"; break;
        case TrainingFramework::torchtitan: text = "torchtitan: FSDP2 + torch.compile, kernels at %.2f of Megatron's; fp32 parameters and gradients"; break;
        case TrainingFramework::fsdp: text = "fsdp: eager FSDP2 / DDP, kernels at %.2f of Megatron's; fp32 parameters and gradients"; break;
        case TrainingFramework::deepspeed: text = "deepspeed: eager kernels at %.2f of Megatron's; ZeRO 0-2 sync after the backward; 2 + 2 + 12 bytes a parameter"; break;
        case TrainingFramework::hf_trainer: text = "hf_trainer: eager kernels at %.2f of Megatron's; data parallel only; autocast's 6 + 4 + 8 bytes a parameter"; break;
        case TrainingFramework::megatron: break;
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, text, detail::framework_profile(f).kernel_share);
    return buf;
}

}  // namespace

namespace {

std::string fmt(const char* f, double v) {
    char buf[160];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

}  // namespace

std::vector<Assumption> assumptions(const Report& r) {
    using namespace detail;
    const Config& c = r.config;
    const RuntimeProfile& rt = runtime_profile(c.runtime);
    std::vector<Assumption> out;
    auto add = [&](std::string name, std::string value, std::string source) {
        out.push_back({std::move(name), std::move(value), std::move(source)});
    };
    add("runtime", rt.label, "configuration; auto picks llama.cpp for GGUF weights or llama.cpp cache types, else PyTorch");
    add("parallelism", "tp " + std::to_string(r.parallel.tp) + ", pp " + std::to_string(r.parallel.pp) + ", dp " +
                           std::to_string(r.parallel.dp) + ", ep " + std::to_string(r.parallel.ep),
        "configuration; GPUs not assigned go to dp (training), pp (llama.cpp) or tp (other inference)");
    add("weights",
        (c.weights == kNativeWeights ? "checkpoint as published: " + r.weights_scheme.format
                                     : std::string(weight_format(c.weights).label)) +
            ", " + fmt("%.3f", r.weights_bits_per_param) + " bits per parameter on average",
        "GGUF: llama.cpp llama_tensor_get_type per tensor; GPTQ/AWQ: 4 + 20/group bits; NF4: QLoRA paper 4.127 bits; "
        "embeddings, head and norms stay 16-bit except in GGUF");
    add("kv_cache", c.kv_cache + ", " + fmt("%.4f", kv_format(c.kv_cache).bytes) + " bytes per value",
        "layers x kv heads x (k + v head dims) x bytes; MLA: kv_lora_rank + rope dims; KV heads replicated when tp > kv heads (vLLM)");
    add("context", std::to_string(c.context) + " tokens per sequence",
        "configuration (default: 8192, or the model's trained maximum if smaller)");
    // A custom GPU: what its fields did not say, and what was taken instead (custom_gpu.cpp).
    if (r.custom_gpu) {
        const CustomGpuBuild& b = *r.custom_gpu;
        add("gpu", b.gpu.name + (b.base_name.empty() ? std::string(" (custom)") : " (custom, from " + b.base_name + ")"),
            "configuration: a GPU not in the catalog, described by its fields (docs/config.md, \"Custom GPU\")");
        for (const GpuDefault& d : b.defaults)
            add("gpu." + d.field, d.value, d.field == "base" ? d.why : "not given; the default is " + d.why);
    }
    // Figures measured by gpusizer-cuda-bench (--measured) name the report instead of a publication.
    auto measured = [&](const char* key) -> const CalibratedFigure* { return r.measured ? r.measured->find(key) : nullptr; };
    auto measured_source = [&](const CalibratedFigure& f) { return "measured: " + f.from + " in " + r.measured->file; };
    if (const CalibratedFigure* f = measured("measured_cuda_context_bytes"); f && r.overhead_detail.cuda_context > 0)
        add("cuda_context", fmt("%.0f MiB", r.overhead_detail.cuda_context / kMiB), measured_source(*f));
    else
        add("cuda_context", fmt("%.0f MiB", r.overhead_detail.cuda_context / kMiB),
            c.runtime == Runtime::llama_cpp
                ? "llama.cpp: 107 MiB (RTX 4060 Ti) to 555 MiB (RTX PRO 6000) measured; 300 MiB taken"
                : "PyTorch lazy module loading: 287 MB measured (PR #86509), ~400 MB with cuBLAS (pytorch #109888)");
    if (c.runtime == Runtime::pytorch)
        add("allocator_reserve", fmt("%.0f%% of activations, KV cache and gradients", rt.allocator_fraction * 100.0),
            "allowance for the PyTorch caching allocator (no published typical figure)");
    if (c.runtime == Runtime::llama_cpp)
        add("compute_buffer", "ubatch " + std::to_string(c.prefill_chunk.value_or(kLlamaCppUbatch)) +
                                  ", f32: max(4*ub*(1+4*embd+n_ctx*(1+heads)), 4*ub*(embd+vocab)); flash attention drops the KQ term",
            "ollama fs/ggml/ggml.go GraphSize; matches llama.cpp logs (Llama 3.1 8B @8192: 560 MiB)");
    if (c.runtime == Runtime::vllm) {
        if (c.kv_cache_memory_bytes.value_or(0.0) > 0)
            add("vllm_budget", fmt("the KV pool as given: kv_cache_memory_bytes %.4g GiB a GPU", *c.kv_cache_memory_bytes / kGiB),
                "vllm CacheConfig.kv_cache_memory_bytes (--kv-cache-memory-bytes): the pool no longer left of gpu_memory_utilization");
        else
            add("vllm_budget", fmt("gpu_memory_utilization %.2f of capacity; CUDA context and graphs outside it", c.gpu_memory_utilization),
                "vllm/v1/worker/gpu_worker.py: requested_memory = total x utilization");
        add("vllm_profile",
            "max_num_batched_tokens 8192 and max_num_seqs 1024 on >= 70 GiB GPUs (not A100), else 2048 and 256" +
                (c.max_num_seqs.value_or(0) > 0 ? "; max_num_seqs " + std::to_string(*c.max_num_seqs) + " as given" : std::string()),
            "vllm/engine/arg_utils.py get_batch_defaults (API server)");
        add("vllm_non_torch",
            fmt("%.2f GiB single GPU", kVllmNonTorchSingle / kGiB) + fmt(", %.2f GiB with tensor parallel", kVllmNonTorchParallel / kGiB),
            "vLLM profiler logs: 0.04-0.26 GiB single, 1.4-2.1 GiB with TP");
        add("vllm_cuda_graphs", fmt("%.2f GiB", kVllmCudaGraphs / kGiB), "vLLM logs 0.11-1.1 GiB; PR #39559 estimate 0.73 GiB");
        const EngineVersion& v = engine_version(Runtime::vllm, c.runtime_version);
        add("vllm_step_overhead",
            v.step_overhead_s > 0 || v.seq_overhead_s > 0
                ? fmt("%.1f ms per engine step", v.step_overhead_s * 1e3) + fmt(" + %.0f us per decoding request, beyond the GPU's work, in the serving step (vllm ",
                                                                                  v.seq_overhead_s * 1e6) +
                      std::string(v.version) + ")"
                : "none beyond the GPU's work (vllm " + std::string(v.version) + ")",
            v.step_overhead_s > 0 || v.seq_overhead_s > 0
                ? "fitted to the ML.ENERGY Leaderboard v3.0 runs of vLLM 0.11.1 on H100 (120 runs, 12 models, up to 256 requests): "
                  "runtime_profiles.hpp kVllmStepOverhead, kVllmSeqOverhead"
                : "a vLLM 0.30.0 run on one H100 (silybench-data): median inter-token latency within -0.6..+1.4 ms of the GPU step");
    }
    // SGLang's and TensorRT-LLM's pools: the fraction used (the report's configuration holds it),
    // and whether it is the engine's default or the key's.
    if (c.runtime == Runtime::sglang) {
        const double used = c.mem_fraction_static.value_or(0.0);
        const EngineVersion& v = engine_version(Runtime::sglang, c.runtime_version);
        const double dflt = sglang_mem_fraction_static(v, sglang_reserve_inputs(c, r.gpu_capacity / kMiB, r.parallel.tp, r.parallel.pp));
        const char* rule = v.sglang_reserve_by_load
                               ? "this GPU's memory, its chunked prefill and CUDA graphs, tp x pp, DP attention and speculative decoding"
                               : "this GPU's memory and tp x pp";
        add("sglang_budget",
            fmt("mem_fraction_static %.3f of the memory free before loading holds the weights and the KV pool; ", used) +
                (used == dflt ? "SGLang's default for " + std::string(rule) + " (sglang " + v.version + ")"
                              : fmt("as given (SGLang's default here: %.3f)", dflt)),
            std::string(v.sglang_reserve_by_load ? "sglang python/sglang/srt/server_args.py _handle_gpu_memory_settings (PR 10975); "
                                                 : "sglang v0.4.8 python/sglang/srt/server_args.py (reserved memory by GPU size and tp x pp); ") +
                "model_executor/model_runner.py profile_max_num_token");
    }
    if (c.runtime == Runtime::trt_llm) {
        const EngineVersion& v = engine_version(Runtime::trt_llm, c.runtime_version);
        const double used = c.free_gpu_memory_fraction.value_or(0.0);
        add("trt_llm_budget",
            fmt("free_gpu_memory_fraction %.2f of the memory free after weights and activations holds the KV pool; ", used) +
                (used == v.fraction ? "the default of trt-llm " + std::string(v.version) : fmt("as given (the default: %.2f)", v.fraction)),
            v.source);
    }
    if (c.mode != Mode::inference) {
        add("training_bytes_per_param",
            c.mode == Mode::train
                ? (c.weights == "fp32" ? "fp32: 4 weights + 4 gradients + optimizer (AdamW 8)"
                                       : "mixed precision: 2 weights + 2 gradients + optimizer (AdamW 12 = fp32 master + m + v)")
                : "LoRA adapters in fp32: 4 weights + 4 gradients + optimizer (AdamW 8)",
            "ZeRO paper (Rajbhandari et al. 2019) K = 12; PEFT autocast_adapter_dtype=True");
        add("activations", std::string("per layer after Korthikanti et al. 2022, recompute ") + std::string(to_string(c.recompute)) +
                               (c.flash_attention ? ", flash attention" : ", eager attention (s^2 terms)") +
                               ", logits bf16 + fp32 upcast + fp32 gradient",
            "arXiv:2205.05198 sec. 4; transformers ForCausalLMLoss upcasts logits");
        if (c.zero > 0)
            add("zero_buckets", "reduce/allgather buckets 5e8 elements; stage 3: 1e9 live parameters, 5e7 prefetch",
                "DeepSpeed deepspeed/runtime/zero/config.py defaults");
    }
    if (const CalibratedFigure* f = measured("memory_total_mib"))
        add("gpu_capacity", fmt("%.2f GiB", r.gpu_capacity / kGiB), measured_source(*f));
    else
        add("gpu_capacity", fmt("%.2f GiB", r.gpu_capacity / kGiB),
            "nvidia-smi total where the catalog has it (CUDA sees a few hundred MiB less), else the nominal size; Apple: Metal working-set "
            "share");
    if (r.measured)
        for (const auto& f : r.measured->figures)
            if (f.key != "measured_cuda_context_bytes" && f.key != "memory_total_mib")
                add("measured " + f.key, fmt("%.4g ", f.measured) + f.unit + (f.datasheet > 0 ? fmt(" (datasheet %.4g)", f.datasheet) : ""),
                    measured_source(f));

    // Speed.
    const SpeedReport& sp = r.speed;
    add("compute_precision",
        std::string(sp.compute_precision) + (sp.native ? "" : " (" + std::string(sp.compute_precision_requested) + " not native)") +
            fmt(", %.1f TFLOPS dense", sp.peak_flops / 1e12) + (sp.tensor_cores ? "" : ", no tensor cores"),
        "tensor-core precisions per architecture (NVIDIA Volta..Blackwell and AMD CDNA whitepapers); weight-only formats compute in "
        "16-bit; llama.cpp's F16 GEMMs accumulate in FP16 (GeForce: the FP16-accumulate rate)");
    if (c.mode == Mode::inference) {
        add("bandwidth_efficiency", fmt("%.2f of memory bandwidth in decode", c.bandwidth_efficiency),
            c.runtime == Runtime::llama_cpp
                ? "llama.cpp: fitted to llama-bench tg512 of Llama 3 8B Q4_K_M and F16 on RTX 4090/3090 (XiongjieDai "
                  "GPU-Benchmarks-on-LLM-Inference): 0.89-0.97"
                : "gpt-fast Llama-2-7B on A100-80GB: bf16 1,397 GB/s (0.69 of 2,039; 0.82 of what its 330 W cap allows), int8 0.52, "
                  "int4 0.42: 0.75 for 16-bit weights, 0.6 quantized");
        add("layer_overhead", fmt("%.0f us per layer per forward", c.layer_overhead_us.value_or(0.0)),
            c.runtime == Runtime::llama_cpp
                ? "llama.cpp kernel launches and syncs, fitted with the bandwidth efficiency: 91-97 us on CUDA; a GPU whose backend "
                  "differs carries its own (gpus.json llama_cpp_layer_overhead_us: 190 us for Apple's Metal, from an M2 Ultra llama-bench row)"
                : "none assumed: vLLM replays CUDA graphs, gpt-fast compiles them (eager transformers is slower)");
        add("decode_kv_length", fmt("%.0f tokens on average", (double(c.prompt_tokens) + double(c.context)) / 2.0),
            "decode runs from the end of the prompt (prompt_tokens, default half the context) to the end of the context");
        add("prefill_mfu", fmt("%.2f of the dense tensor peak", c.mfu),
            "llama.cpp F16 pp512 on RTX 4090 / 3090: 0.46 / 0.50 of the FP16-accumulate peak (XiongjieDai)");
        if (sp.offload.active || c.n_cpu_moe > 0)
            add("host_memory_bandwidth", fmt("%.1f GB/s, 68%% reached", c.host_memory_bandwidth_gb_per_s),
                "dual-channel DDR5-4800 = 2 x 8 B x 4.8 GT/s; llama.cpp CPU decode reaches 68% (13900K, DDR5-6400, llama.cpp #34)");
        if (c.n_cpu_moe > 0) {
            add("n_cpu_moe_decode",
                fmt("%d layers' routed experts in host RAM (", c.n_cpu_moe) + fmt("%.2f GB); ", r.host_experts / 1e9) +
                    "the experts a token picks there are read by the CPU at the host's bandwidth, the rest by the GPU, one after the other",
                "llama.cpp --n-cpu-moe (PR #15077) overrides blk.N.ffn_(up|down|gate)_exps to the CPU; the CPU's compute and the "
                "per-layer GPU-CPU hand-offs are not modelled");
            add("n_cpu_moe_prefill",
                "from 32 tokens per forward the experts the forward routes to are copied to the GPU over PCIe (0.78 of the link), "
                "every forward; below 32 the CPU reads them",
                "ggml-cuda.cu ggml_backend_cuda_device_offload_op (min_batch_size 32); llama.cpp PR #15346 copies only the used experts");
            if (c.pp > 1)
                add("n_cpu_moe_layer_split",
                    "the layers stay split evenly over the GPUs; each GPU frees the experts of its own layers among the first N",
                    "llama.cpp's layer split (-ts) places layers in order and does not rebalance for tensor overrides");
        }
    } else {
        add("mfu", fmt("%.2f of the dense tensor peak on the executed FLOPs", c.mfu),
            "fit over Megatron-LM (A100), torchtitan (A100) and Llama 3 405B (H100) runs: 0.62 (0.56-0.69 per run), times the "
            "framework's kernel share, and lower for GEMMs under 512 FLOP/B per GPU (small hidden / tp, few tokens per micro-batch); "
            "bubble and exposed communication added on top");
        add("training_framework", framework_assumption(c.training_framework),
            "docs/formulas.md, \"Training frameworks\" and, for memory, \"Training state\"");
        add("training_flops", "6N + 12 L H Q s per token (LoRA 4N + ...); selective recompute + the attention core, full + a forward (8N)",
            "PaLM appendix B (Chowdhery et al. 2022); Korthikanti et al. 2022 for recomputation");
        add("step_fixed_costs",
            "the data-parallel sync hides behind the last micro-batch's backward only; " +
                fmt("optimizer step %.3g s; ", sp.optimizer_step_s) + fmt("scalar syncs %.3g s", sp.step_sync_s) +
                (c.step_overhead_s > 0 ? fmt("; step_overhead_s %.3g s", c.step_overhead_s) : std::string()),
            "gradients are final in the last micro-batch (PyTorch DDP no_sync, Megatron no_sync_func); the update streams the "
            "shard's states (12 + 2 x states + 2 bytes a parameter) at 0.75 of memory bandwidth; gradient norm and loss all-reduced "
            "over every GPU (NCCL tree); MLPerf Training v3.1 GPT-3 175B on 4,096 to 10,752 H100 shows no cost growing with the "
            "ranks (docs/formulas.md, \"At scale\")");
        if (c.offload != Offload::none)
            add("host_memory_bandwidth",
                fmt("%.1f GB/s per host, shared by its GPUs; the CPU's optimizer step reaches 43%%", c.host_memory_bandwidth_gb_per_s),
                "default: dual-channel DDR5-4800, a desktop's (set a server's: 2 sockets x 8 channels DDR5-4800 = 614 GB/s); "
                "ZeRO-Offload (arXiv:2101.06840): CPU-Adam updates 10B parameters in 2.57 s on a DGX-2 (255.9 GB/s), 28 B each; "
                "the update is not overlapped (no delayed parameter update)");
    }
    // Interconnect.
    const InterconnectReport& ic = r.interconnect;
    if (c.gpus > 1 && !ic.link.empty()) {
        add("link", ic.link + fmt(", %.1f GB/s per direction", ic.link_bandwidth_bytes_per_s / 1e9) +
                        (ic.nodes > 1 ? ", " + std::to_string(ic.nodes) + " nodes over " + ic.inter_node_link : std::string()),
            "assets/links.json; the GPU's own link unless `link` says otherwise");
        if (ic.pods > 1)
            add("pods",
                std::to_string(ic.pods) + " network pods of " + std::to_string(c.pod_gpus) + " GPUs" +
                    fmt(", %.3g:1 between them", c.pod_oversubscription),
                "pod_gpus, pod_oversubscription: what leaves a pod goes at 1 / oversubscription of the NIC when every GPU sends "
                "(all-to-alls, pipeline sends); rings slow only when few of a group's GPUs share a pod (Llama 3, arXiv:2407.21783 "
                "sec. 3.3.1: pods of 3,072 GPUs, 1:7 between them)");
        add("bus_bandwidth", "0.78 of the link's bandwidth per direction",
            "nccl-tests all_reduce on 8x A100: 235 of 300 GB/s (stas00 ml-engineering); NCCL caps sm80 rings at 235");
        add("collective_latency", "ring: 3.6 us (LL) / 8.4 us (Simple) + per-step link latency; the faster protocol",
            "NVIDIA/nccl src/graph/tuning.cc baseLat and hwLat (NVLink .47/3.4, PCIe 1.0/5.7, network 2.7/9.6 us)");
    }
    // Power.
    const PowerReport& pw = r.power;
    add("power",
        "at the wall: GPUs at their phase's draw + host (" + std::string(pw.host_platform) + ") + fans, through a " +
            std::string(pw.psu_tier) + fmt(" supply at %.0f%%", pw.psu_efficiency * 100) + fmt("; PUE %.2f on top", pw.pue),
        "host DC by platform: desktop 40 W at rest + 20 W per GPU fed (every core +90 W), workstation 90 + 15 (+260), PCIe server "
        "500 + 10 per GPU per 8 GPUs, HGX node 1,300 + 10 per GPU, fans 10-15% of the rise (ServeTheHome); GPU idle with a model "
        "resident 6% of board power (GeForce at P8), 15% data center, gpus.json idle_w where measured; supply: the 80 PLUS tier's "
        "curve with a measured 10.4 W fixed loss (Tom's Hardware, EVGA 850 BQ); PUE 1.58 in data centers (Uptime Institute 2023), "
        "else 1; docs/research/wall-power.md");
    add("cost",
        fmt("hardware over %.1f years", c.lifetime_years) + fmt(" at %.0f%% duty; rent: ", c.duty_cycle * 100) +
            (r.cost.rent_rows > 0 ? "median of " + std::to_string(r.cost.rent_rows) + " dated prices" : std::string("as given or unknown")),
        "assets/prices.json: cloud prices per GPU-hour, each with provider, date and source; hosts by platform; gpus.json price_usd");
    add("psu", "desktops and workstations: max(sustained, (3 x GPU + rest) / 2); servers: maximum system power; one-chip boxes: what they draw",
        "PCIe CEM 5.0: GPU excursions to 3x for 100 us; ATX 3.0: PSU carries 200% for 100 us (Intel: 300 W GPU -> 750 W PSU)");
    add("electricity", fmt("$%.3f per kWh", c.usd_per_kwh),
        "EIA Electricity Monthly Update: US residential average 15.45 c/kWh (January 2024)");
    return out;
}

}  // namespace gpusizer
