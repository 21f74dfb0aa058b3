// config_keys.cpp: the table of configuration keys (gpusizer/config_keys.hpp), access to a
// Config's value by key and the range checks. The texts written from the table (the CLI's key-flag
// lines, `gpusizer keys`, docs/config.md's key reference) are in config_keys_docs.cpp.
//
// [SECTION] The table
// [SECTION] Access and checks
#include "gpusizer/config_keys.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpusizer/engine_versions.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/precision.hpp"
#include "config_keys_internal.hpp"

namespace gpusizer {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] The table
// ---------------------------------------------------------------------------------------------

constexpr KeyMember m(int Config::*p) { KeyMember k; k.i = p; return k; }
constexpr KeyMember m(long long Config::*p) { KeyMember k; k.ll = p; return k; }
constexpr KeyMember m(double Config::*p) { KeyMember k; k.d = p; return k; }
constexpr KeyMember m(bool Config::*p) { KeyMember k; k.b = p; return k; }
constexpr KeyMember m(std::string Config::*p) { KeyMember k; k.s = p; return k; }
constexpr KeyMember m(std::optional<int> Config::*p) { KeyMember k; k.oi = p; return k; }
constexpr KeyMember m(std::optional<double> Config::*p) { KeyMember k; k.od = p; return k; }
constexpr KeyMember names(std::string (*get)(const Config&), void (*set)(Config&, std::string_view)) {
    KeyMember k;
    k.text = get;
    k.set_text = set;
    return k;
}

std::string lora_text(const Config& c) {
    if (c.lora_targets == kLoraAllLinear) return "all-linear";
    std::string out;
    for (const auto& n : lora_target_names(c.lora_targets)) out += (out.empty() ? "" : ",") + n;
    return out;
}
void set_lora(Config& c, std::string_view v) {
    unsigned t = 0;
    std::size_t p = 0;
    while (p <= v.size()) {
        const std::size_t comma = v.find(',', p);
        const std::string_view item = v.substr(p, comma == std::string_view::npos ? std::string_view::npos : comma - p);
        if (!item.empty()) t |= parse_lora_target(item);
        p = comma == std::string_view::npos ? v.size() + 1 : comma + 1;
    }
    if (t == 0) throw_error("lora_targets", "must name at least one module");
    c.lora_targets = t;
}

constexpr double kMaxContext = double(1LL << 27);   // 134M tokens: beyond any model, still finite
constexpr double kMaxDegree = double(1 << 16);      // GPUs and parallel degrees
// Requests in flight per replica: 32x TensorRT-LLM's default max_batch_size (2048) and 64x vLLM's
// largest max_num_seqs (1024); past it every model's KV pool binds first (65,536 requests of even
// 1,000 tokens at 16 KiB per token is 1 TB of cache per replica).
constexpr double kMaxSequences = double(1 << 16);
// The engines' memory fractions start at 0.001 like the other fractions (mfu): 0 reads as "not
// given", and a thousandth of a GPU holds no model's weights.
constexpr double kMinEngineFraction = 1e-3;

// One row of the table. The documentation texts (default, allowed values, meaning, usage line)
// serve `gpusizer keys`, docs/config.md and the CLI's usage, and the CLI alone reads the flags; a
// build that shows none of them (the widget's WebAssembly module) compiles this file with
// GPUSIZER_KEY_DOCS=0 and leaves them out (7 KB gzipped, and the flags 0.6 KB).
#ifndef GPUSIZER_KEY_DOCS
#define GPUSIZER_KEY_DOCS 1
#endif
// The usage lines, flags and their metavariables serve the CLI alone (`gpusizer --help`, its flag
// parser); the browser app shows a key's meaning, default and allowed values but no CLI usage, and
// compiles this file with GPUSIZER_KEY_USAGE=0 (web/CMakeLists.txt), which leaves those out.
#ifndef GPUSIZER_KEY_USAGE
#define GPUSIZER_KEY_USAGE 1
#endif
constexpr ConfigKey row(const char* name, const char* link, const char* flag, const char* metavar, KeyKind kind, double min,
                        double max, bool min_open, KeyUnset unset, const char* unit, const char* default_doc,
                        const char* allowed_doc, const char* meaning, const char* help, KeyMember member) {
    if (!GPUSIZER_KEY_DOCS) default_doc = allowed_doc = meaning = help = flag = metavar = "";
    if (!GPUSIZER_KEY_USAGE) help = flag = metavar = "";
    return ConfigKey{name, link, flag, metavar, kind, min, max, min_open, unset, unit, default_doc, allowed_doc, meaning, help, member};
}

// Order: the order share links write their keys in (links stay byte-identical).
// A default, allowed-values or usage text left "" is written from the table it describes (the
// weight and KV formats, the engine versions, a choice's names): key_default_doc() and the others
// below, so that `gpusizer --help`, `gpusizer keys` and docs/config.md cannot drift from it.
constexpr ConfigKey kKeys[] = {
    row("model", "m", "model", "ID", KeyKind::model, 0, 0, false, KeyUnset::value, "", "required",
     "a catalog id (`gpusizer models`), `{\"hf_config\": {...}}`, `{\"num_parameters\": N}` or `{\"hub\": \"org/name\", ...}`",
     "the model. `hf_config` holds the fields of a Hugging Face `config.json` (see below); `num_parameters` builds a "
     "Llama-3-shaped dense model of N parameters (5e7 to 1e13); `hub` names a Hugging Face repository, with `revision`, "
     "`file` (a GGUF file) and what the browser fetched from it: `hf_config` (its config.json) or `gguf_headers` (the "
     "file's header without the tokenizer's long arrays, base64, by file name; `model.source` `hub`). The CLI does not "
     "reach the Hub: a Hub model without them is refused (`model.hub`); use `gguf` or `hf_dir`",
     "catalog model (gpusizer models), or:", {}),
    row("mode", "mode", "mode", "M", KeyKind::choice, 0, 0, false, KeyUnset::value, "", "`inference`", "",
     "what runs: serving, full fine-tuning, LoRA on a 16-bit base, QLoRA on a quantized base",
     "",
     names([](const Config& c) { return std::string(to_string(c.mode)); }, [](Config& c, std::string_view v) { c.mode = parse_mode(v); })),
    row("weights", "w", "weights", "W", KeyKind::text, 0, 0, false, KeyUnset::empty, "",
     "`native` for inference on a quantized checkpoint, else `bf16` (`nf4` for `qlora`)", "",
     "how the weights are stored. `native` = the checkpoint as published (its quantization_config class by class, e.g. "
     "gpt-oss MXFP4 experts + BF16 rest, else its dtype); `int4` = GPTQ/AWQ (group-wise), `nf4` = bitsandbytes NF4 with "
     "double quantization, `q*` = GGUF file types (llama.cpp)",
     "",
     names([](const Config& c) { return c.weights; },
           [](Config& c, std::string_view v) { c.weights = v == kNativeWeights ? std::string(v) : std::string(weight_format(v).id); })),
    row("kv_cache", "kv", "kv-cache", "K", KeyKind::text, 0, 0, false, KeyUnset::empty, "",
     "`bf16` with bf16 weights, `fp32` with fp32 weights, else `fp16`", "",
     "KV cache precision; the ggml block types are llama.cpp's cache types (`--cache-type-k` / `--cache-type-v`)", "",
     names([](const Config& c) { return c.kv_cache; }, [](Config& c, std::string_view v) { c.kv_cache = std::string(kv_format(v).id); })),
    row("batch", "b", "batch", "N", KeyKind::integer, 1, double(1 << 20), false, KeyUnset::value, "sequences", "`1`", "",
     "sequences in one forward pass on one data-parallel rank (training: the micro-batch)",
     "sequences per forward pass (micro-batch)", m(&Config::batch)),
    row("global_batch", "gb", "global-batch", "N", KeyKind::integer, 1, double(1LL << 30), false, KeyUnset::zero, "sequences",
     "`batch` x `dp`", "a multiple of `batch` x `dp`; training only",
     "sequences per optimizer step across all ranks; `global_batch / (batch x dp)` micro-batches are accumulated (they "
     "fill the pipeline)",
     "sequences per optimizer step (training)", m(&Config::global_batch)),
    row("context", "ctx", "context", "N", KeyKind::integer, 1, kMaxContext, false, KeyUnset::zero, "tokens",
     "8192, or the model's trained maximum if smaller", "",
     "tokens per sequence (prompt + output). Beyond the model's trained maximum the report warns; it does not refuse",
     "tokens per sequence (default 8192)", m(&Config::context)),
    row("optimizer", "opt", "optimizer", "O", KeyKind::choice, 0, 0, false, KeyUnset::value, "", "`adamw`", "", "training optimizer",
     "",
     names([](const Config& c) { return std::string(to_string(c.optimizer)); },
           [](Config& c, std::string_view v) { c.optimizer = parse_optimizer(v); })),
    row("zero", "z", "zero", "N", KeyKind::integer, 0, 3, false, KeyUnset::value, "", "`0`", "0 to 3; training only",
     "DeepSpeed ZeRO stage: 1 shards optimizer states, 2 also gradients, 3 also weights, over `dp`", "ZeRO stage 0-3",
     m(&Config::zero)),
    row("offload", "off", "offload", "O", KeyKind::choice, 0, 0, false, KeyUnset::value, "", "`none`",
     "`none`, `optimizer` (needs `zero` >= 1), `optimizer+params` (needs `zero` 3)",
     "ZeRO-Offload / ZeRO-Infinity: state moved to host RAM (reported as `memory.host`)", "",
     names([](const Config& c) { return std::string(to_string(c.offload)); },
           [](Config& c, std::string_view v) { c.offload = parse_offload(v); })),
    row("recompute", "rc", "recompute", "R", KeyKind::choice, 0, 0, false, KeyUnset::value, "",
     "`auto`: `full` for `qlora` (PEFT's `prepare_model_for_kbit_training` turns gradient checkpointing on), else `none`", "",
     "activation recomputation: `selective` recomputes the attention core, `full` keeps only each layer's input (gradient "
     "checkpointing)",
     "",
     names([](const Config& c) { return std::string(to_string(c.recompute)); },
           [](Config& c, std::string_view v) { c.recompute = parse_recompute(v); })),
    row("flash_attention", "fa", "flash-attention", "B", KeyKind::boolean, 0, 1, false, KeyUnset::value, "", "`true`", "",
     "flash / memory-efficient attention (no s² score matrix)", "true | false", m(&Config::flash_attention)),
    row("sequence_parallel", "sp", "sequence-parallel", "B", KeyKind::boolean, 0, 1, false, KeyUnset::value, "", "`false`", "",
     "Megatron sequence parallelism: norms and dropout activations split over `tp` too", "true | false",
     m(&Config::sequence_parallel)),
    row("lora_rank", "lr", "lora-rank", "N", KeyKind::integer, 1, double(1 << 16), false, KeyUnset::value, "", "`16`", "",
     "LoRA rank r", "LoRA rank", m(&Config::lora_rank)),
    row("lora_targets", "lt", "lora-targets", "LIST", KeyKind::list, 0, 0, false, KeyUnset::value, "", "`\"all-linear\"`",
     "`\"all-linear\"` or a list of `q_proj`, `k_proj`, `v_proj`, `o_proj`, `gate_proj`, `up_proj`, `down_proj`",
     "modules that get adapters", "all-linear, or q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj",
     names(lora_text, set_lora)),
    row("gpu", "g", "gpu", "ID", KeyKind::text, 0, 0, false, KeyUnset::value, "", "`rtx-4090`",
     "a catalog id (`gpusizer gpus`), or an object of a GPU's fields (\"Custom GPU\" below)",
     "the GPU model; a GPU not in the catalog is an object with the fields of a `gpus.json` entry, on its own or over a "
     "catalog entry: `{\"base\": \"rtx-4090\", \"tdp_w\": 500}` (the report's `gpu.id` is then `custom`)",
     "catalog GPU (gpusizer gpus), or a custom GPU's JSON object", m(&Config::gpu)),
    row("gpus", "g", "gpus", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::value, "GPUs", "`1`", "", "how many",
     "number of GPUs", m(&Config::gpus)),
    row("tp", "tp", "tp", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::zero, "", "`0` (automatic)",
     "a divisor of the attention heads", "tensor-parallel degree", "tensor-parallel degree (0 = automatic)", m(&Config::tp)),
    row("pp", "pp", "pp", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::zero, "", "`0` (automatic)",
     "at most the layer count", "pipeline-parallel degree (llama.cpp's layer split)",
     "pipeline-parallel degree (0 = automatic)", m(&Config::pp)),
    row("dp", "dp", "dp", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::zero, "", "`0` (automatic)", "",
     "data-parallel degree (replicas)", "data-parallel degree (0 = automatic)", m(&Config::dp)),
    row("ep", "ep", "ep", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::zero, "", "`0` = 1",
     "divides the routed experts and `tp` x `cp` x `dp`", "expert-parallel degree for MoE models",
     "expert-parallel degree (0 = automatic)", m(&Config::ep)),
    row("runtime", "rt", "runtime", "R", KeyKind::choice, 0, 0, false, KeyUnset::value, "", "`auto`", "",
     "what runs the model. `auto`: llama.cpp for GGUF weights or llama.cpp cache types, else PyTorch. `none`: the model's "
     "own tensors only. `sglang`, `trt-llm` (TensorRT-LLM) and `ollama` (llama-server underneath) size their KV pools as "
     "those engines do (`runtime_version`)",
     "",
     names([](const Config& c) { return std::string(to_string(c.runtime)); },
           [](Config& c, std::string_view v) { c.runtime = parse_runtime(v); })),
    row("gpu_memory_utilization", "gmu", "gpu-memory-utilization", "F", KeyKind::number, 0, 1, true, KeyUnset::value, "fraction", "",
     "", "vLLM's share of GPU memory", "", m(&Config::gpu_memory_utilization)),
    row("quant_group_size", "qg", "quant-group-size", "N", KeyKind::integer, 1, double(1 << 20), false, KeyUnset::value, "weights",
     "`128`", "", "`int4` group size (GPTQ/AWQ)", "int4 group size (default 128)", m(&Config::quant_group_size)),
    row("prefill_chunk", "pc", "prefill-chunk", "N", KeyKind::integer, 1, kMaxContext, false, KeyUnset::null_zero, "tokens",
     "the runtime's (`0` = the same)", "",
     "tokens per prefill forward (llama.cpp's `n_ubatch`, 512; vLLM's `max_num_batched_tokens`, 8192/2048; PyTorch: the "
     "whole prompt)",
     "tokens per prefill forward (0 = runtime default)", m(&Config::prefill_chunk)),
    row("train_tokens", "tt", "train-tokens", "N", KeyKind::number, 0, 1e16, false, KeyUnset::value, "tokens", "`0` (no run)", "",
     "tokens to train on, for `speed.train_time_s` and the energy and cost of the run",
     "tokens to train on (e.g. 1e12), for the time, energy and cost of the run", m(&Config::train_tokens)),
    row("mfu", "mfu", "mfu", "F", KeyKind::number, 1e-3, 1, false, KeyUnset::zero_null, "fraction",
     "automatic: 0.62 for training, 0.5 for prefill", "",
     "kernel efficiency: the share of the dense tensor peak (at the precision the GPU computes in) the math reaches; "
     "the pipeline bubble and exposed communication are computed apart (the step's model FLOPs utilization is "
     "`speed.mfu_effective`, with recomputation `speed.hfu`)",
     "fraction of the dense tensor peak the math reaches (default 0.62 training, 0.5 prefill)", m(&Config::mfu)),
    row("bandwidth_efficiency", "bwe", "bandwidth-efficiency", "F", KeyKind::number, 1e-3, 1, false, KeyUnset::zero_null,
     "fraction", "automatic: 0.9 llama.cpp, 0.75 PyTorch/vLLM with 16/32-bit weights, 0.6 with quantized weights", "",
     "share of the memory bandwidth a decode step reaches",
     "fraction of memory bandwidth decode reaches (default 0.9 llama.cpp, else 0.75 / 0.6 quantized)",
     m(&Config::bandwidth_efficiency)),
    row("utilization", "u", "utilization", "F", KeyKind::number, 1e-3, 1, false, KeyUnset::value, "fraction", "`1`", "",
     "average share of board power the GPUs (and hosts) draw", "fraction of board power drawn on average (default 1)",
     m(&Config::utilization)),
    row("pue", "pue", "pue", "F", KeyKind::number, 1, 3, false, KeyUnset::zero_null, "", "automatic: 1.58 for data-center GPUs, else 1",
     "", "power usage effectiveness: facility power / IT power (1.0 = no cooling overhead, 1.58 = average data center)",
     "power usage effectiveness (default 1.58 data center GPUs, else 1)", m(&Config::pue)),
    row("usd_per_kwh", "kwh", "usd-per-kwh", "F", KeyKind::number, 0, 10, false, KeyUnset::value, "USD/kWh", "`0.15`", "",
     "electricity price", "electricity price (default 0.15)", m(&Config::usd_per_kwh)),
    row("psu_tier", "psu", "psu-tier", "TIER", KeyKind::text, 0, 0, false, KeyUnset::empty, "",
     "by platform: `gold` desktops, `platinum` workstations and PCIe servers, `titanium` HGX nodes",
     "`80plus`, `bronze`, `silver`, `gold`, `platinum`, `titanium`",
     "the power supplies' 80 PLUS tier: their efficiency at each load, hence the draw at the wall",
     "power supply's 80 PLUS tier (default by platform: gold desktops)", m(&Config::psu_tier)),
    row("psu_rating_w", "psuw", "psu-rating-w", "W", KeyKind::number, 0, 1e6, false, KeyUnset::zero_null, "W",
     "automatic: `power.psu_w` (servers: twice it, redundant supplies)", "",
     "the power supplies installed per node: a supply at a small share of its rating is less efficient",
     "power supply rating per node, W (default power.psu_w)", m(&Config::psu_rating_w)),
    row("lifetime_years", "life", "lifetime-years", "Y", KeyKind::number, 0.1, 30, false, KeyUnset::value, "years", "`4`", "",
     "the years the hardware is paid off over (4: leading AI chips stay in frontier training a median 3.9 years, Epoch AI)",
     "years the hardware is paid off over (default 4)", m(&Config::lifetime_years)),
    row("duty_cycle", "duty", "duty-cycle", "F", KeyKind::number, 1e-3, 1, false, KeyUnset::value, "fraction", "`1`", "",
     "the share of the hours the machine does this job: owning costs the same idle or busy, renting only when rented",
     "share of the hours the machine does this job (default 1)", m(&Config::duty_cycle)),
    row("gpu_usd", "gusd", "gpu-usd", "USD", KeyKind::number, 0, 1e7, false, KeyUnset::null, "USD",
     "the catalog's `price_usd`", "", "the price of one GPU, to own", "price of one GPU (default: the catalog's)",
     m(&Config::gpu_usd)),
    row("host_usd", "husd", "host-usd", "USD", KeyKind::number, 0, 1e7, false, KeyUnset::null, "USD",
     "`assets/prices.json` `hosts`, by platform (servers per 8 GPUs)", "",
     "the price of each machine around the GPUs (CPU, board, memory, supply, case; a server's share per 8 GPUs)",
     "price of each machine around the GPUs (default by platform)", m(&Config::host_usd)),
    row("rent_usd_per_gpu_hour", "rent", "rent-usd-per-gpu-hour", "USD", KeyKind::number, 0, 1e3, false, KeyUnset::null,
     "USD/GPU-hour", "the median of `assets/prices.json`'s rows for the GPU and `rent_kind`", "",
     "the price of renting one GPU for an hour", "rental price per GPU-hour (default: median of the catalog's)",
     m(&Config::rent_usd_per_gpu_hour)),
    row("rent_kind", "rk", "rent-kind", "KIND", KeyKind::text, 0, 0, false, KeyUnset::empty, "", "`on_demand`",
     "`on_demand`, `spot`, `community`", "which rental prices: on-demand, spot (may be taken back), community marketplaces",
     "rental prices: on_demand (default), spot or community", m(&Config::rent_kind)),
    row("rent_provider", "rp", "rent-provider", "NAME", KeyKind::text, 0, 0, false, KeyUnset::empty, "", "every provider",
     "a provider of `assets/prices.json` (AWS, RunPod, ...)", "one provider's rental prices instead of every provider's median",
     "one provider's rental prices (default: all)", m(&Config::rent_provider)),
    row("link", "l", "link", "ID", KeyKind::text, 0, 0, false, KeyUnset::empty, "",
     "the GPU's own: NVSwitch/NVLink/Infinity Fabric, NVLink bridge, else its PCIe generation and lanes",
     "a link id (`gpusizer links`)",
     "the link between GPUs inside a node; an inter-node id here puts every GPU in its own node",
     "GPU-to-GPU link inside a node (gpusizer links; default: the GPU's own)", m(&Config::link)),
    row("inter_node_link", "il", "inter-node-link", "ID", KeyKind::text, 0, 0, false, KeyUnset::empty, "",
     "`infiniband-ndr` for Hopper/Blackwell/CDNA3 HGX/OAM parts, `infiniband-hdr` for older ones, else `ethernet-100g`",
     "an inter-node link id", "the link between nodes",
     "link between nodes (default: NDR/HDR InfiniBand for HGX-class GPUs, else 100 GbE)", m(&Config::inter_node_link)),
    row("prompt_tokens", "pt", "prompt-tokens", "N", KeyKind::integer, 1, kMaxContext, false, KeyUnset::zero, "tokens",
     "half the context (`0` = the same)", "0 to the context",
     "prompt length for prefill speed and time to first token; decode reads the KV cache at the average length "
     "`(prompt + context) / 2`",
     "prompt length for prefill and time to first token (default: half the context)", m(&Config::prompt_tokens)),
    row("host_memory_bandwidth_gb_per_s", "hbw", "host-memory-bandwidth", "F", KeyKind::number, 0.1, 1e4, false,
     KeyUnset::zero_null, "GB/s", "76.8 (dual-channel DDR5-4800: 2 channels x 8 B x 4.8 GT/s)", "",
     "host RAM bandwidth of one node, for llama.cpp's partial offload (layers or experts in host RAM) and ZeRO-Offload's "
     "optimizer step on the CPU (`offload`; shared by the node's GPUs)",
     "host RAM GB/s for llama.cpp offload and ZeRO-Offload's CPU optimizer step (default 76.8, dual-channel DDR5-4800)",
     m(&Config::host_memory_bandwidth_gb_per_s)),
    row("layer_overhead_us", "lo", "layer-overhead-us", "F", KeyKind::number, 0, 1e5, false, KeyUnset::null, "µs",
     "automatic: 90 for llama.cpp, else 0", "", "fixed time per layer per forward (kernel launches and synchronisation)",
     "fixed time per layer per forward (default 90 for llama.cpp, else 0)", m(&Config::layer_overhead_us)),
    row("seq_overhead_us", "sqo", "seq-overhead-us", "US", KeyKind::number, 0, 1e5, false, KeyUnset::null, "µs",
     "automatic: the engine version's (20 for vllm 0.10, else 0)", "",
     "serving: time per decoding request in every engine step beyond the GPU's work (the host's scheduling, input "
     "preparation, sampling and output handling); TensorRT-LLM pull request 10273 measured about 29 µs a request at 1,536 "
     "requests a rank",
     "serving host time per decoding request per step (default: the engine version's)", m(&Config::seq_overhead_us)),
    // Models read from checkpoint headers (model_file.hpp load_model_files; the CLI and the app
    // read the files, the core does no I/O).
    row("gguf", "gguf", "gguf", "FILE", KeyKind::text, 0, 0, false, KeyUnset::empty, "", "none",
     "a path the CLI or app can read; any part of a split file (`-00001-of-00003.gguf`) finds the others",
     "the model from a GGUF file's header: the per-layer architecture and every tensor's exact bytes (`model.source` "
     "`gguf`); replaces `model`, and sets `weights` from `general.file_type` when `weights` is not given",
     "a GGUF file (any split part): the model and its exact weight bytes", m(&Config::gguf)),
    row("hf_dir", "hfd", "hf-dir", "DIR", KeyKind::text, 0, 0, false, KeyUnset::empty, "", "none",
     "a folder holding `config.json` and `model.safetensors` or `model.safetensors.index.json` with its shards",
     "the model from a local Hugging Face snapshot: `config.json` for the architecture, the safetensors headers for the "
     "exact weight bytes (`model.source` `safetensors`); replaces `model`",
     "a local Hugging Face snapshot folder (config.json + safetensors headers)", m(&Config::hf_dir)),
    row("mmproj", "mmp", "mmproj", "FILE", KeyKind::text, 0, 0, false, KeyUnset::empty, "",
     "none; the CLI takes the `mmproj-*.gguf` beside the `gguf` file when there is one",
     "a path the CLI or app can read, with `gguf`: a file whose `general.architecture` is `clip`",
     "the model's multimodal projector (llama.cpp's `mmproj` GGUF: the vision and / or audio encoder and its projector): "
     "its parameters are `model.params_by_part.vision` / `audio` and its bytes the file's vision weights, loaded beside the "
     "text model",
     "with --gguf: the multimodal projector GGUF (default: the mmproj-*.gguf beside it)", m(&Config::mmproj)),
    // Serving: the engine's version and a steady load (core/src/serving.cpp).
    // Default, allowed values and usage line: from the engine-version table (runtime_profiles.cpp).
    row("runtime_version", "rv", "runtime-version", "V", KeyKind::text, 0, 0, false, KeyUnset::empty, "", "", "",
     "the engine's version, where its memory defaults or its time per step changed between versions", "",
     m(&Config::runtime_version)),
    row("isl", "isl", "isl", "N", KeyKind::integer, 1, kMaxContext, false, KeyUnset::zero, "tokens", "`0`: no serving figures",
     "with `osl`; `isl + osl` at most the context",
     "input tokens per request, for the serving figures under load (`serving.*`)", "input tokens per request (serving under load)",
     m(&Config::isl)),
    row("osl", "osl", "osl", "N", KeyKind::integer, 1, kMaxContext, false, KeyUnset::zero, "tokens", "`0` (with `isl` 0)",
     "with `isl`", "output tokens per request", "output tokens per request (serving under load)", m(&Config::osl)),
    row("concurrency", "cc", "concurrency", "N", KeyKind::integer, 1, double(1 << 24), false, KeyUnset::zero_null, "requests",
     "as many as the engines hold (the report names the number)", "",
     "requests in flight over all replicas (a closed loop: a new request arrives as one finishes); more than the engines hold "
     "wait for a slot. Used with `isl` and `osl`",
     "requests in flight, all replicas (default: as many as fit)", m(&Config::concurrency)),
    // Training schedules and overlap (docs/formulas.md, "Pipeline schedules").
    row("pp_schedule", "ps", "pp-schedule", "S", KeyKind::choice, 0, 0, false, KeyUnset::value, "", "`1f1b`",
     "`1f1b`, `interleaved`, `zero_bubble`, `dualpipe`; training only; `dualpipe` needs an even `pp` and an even number of "
     "micro-batches, at least 2 x `pp`",
     "pipeline schedule: `1f1b` (PipeDream-Flush), `interleaved` 1F1B with `virtual_stages` model chunks per stage "
     "(Narayanan et al. 2021), `zero_bubble` = ZB-H1 (Qi et al. 2023: backward split into input and weight gradients), "
     "`dualpipe` = DeepSeek-V3's bidirectional schedule (arXiv:2412.19437, sec. 3.2.1): a forward and a backward chunk of two "
     "micro-batches run together, so the expert-parallel all-to-alls hide behind the other's computation",
     "",
     names([](const Config& c) { return std::string(to_string(c.pp_schedule)); },
           [](Config& c, std::string_view v) { c.pp_schedule = parse_pp_schedule(v); })),
    row("virtual_stages", "vs", "virtual-stages", "N", KeyKind::integer, 1, 1024, false, KeyUnset::zero, "",
     "`0`: 2 for `interleaved`, else 1", "at most layers / `pp`; above 1 only with `pp_schedule` `interleaved`",
     "model chunks per pipeline stage of the interleaved schedule (Megatron's virtual pipeline size)",
     "model chunks per pipeline stage (interleaved schedule)", m(&Config::virtual_stages)),
    row("tp_comm_overlap", "tco", "tp-comm-overlap", "B", KeyKind::boolean, 0, 1, false, KeyUnset::value, "", "`false`",
     "`true` needs `sequence_parallel` with `tp` > 1; training only",
     "tensor-parallel all-gathers / reduce-scatters split and overlapped with the GEMMs (Megatron-LM `--tp-comm-overlap`, "
     "TransformerEngine userbuffers): only what outlasts the matmuls adds to the step",
     "true | false", m(&Config::tp_comm_overlap)),
    row("ep_comm_overlap", "eco", "ep-comm-overlap", "B", KeyKind::boolean, 0, 1, false, KeyUnset::value, "", "`false`",
     "`true` needs `ep` > 1, `pp` 1 or `pp_schedule` `interleaved`, and no full recomputation; training only",
     "expert all-to-alls of one micro-batch overlapped with the computation of another in the 1F1B phase (Megatron-LM "
     "`--overlap-moe-expert-parallel-comm`, off by default): only what outlasts the MoE layers' compute adds to the step. "
     "`pp_schedule` `dualpipe` overlaps them anyway",
     "true | false", m(&Config::ep_comm_overlap)),
    row("fp8_training", "f8", "fp8-training", "S", KeyKind::choice, 0, 0, false, KeyUnset::value, "", "`none`",
     "`none`, `tensorwise`, `blockwise`; training on GPUs with FP8 tensor cores",
     "the weight matmuls of training in FP8 with bf16 master weights: one scale per tensor (`tensorwise`: Transformer "
     "Engine current scaling, torchtitan float8) or per block (`blockwise`: DeepSeek-V3's 1x128 / 128x128 tiles, MXFP8); "
     "attention and the rest stay 16-bit",
     "",
     names([](const Config& c) { return std::string(to_string(c.fp8_training)); },
           [](Config& c, std::string_view v) { c.fp8_training = parse_fp8_training(v); })),
    row("fp8_gemm_efficiency", "f8e", "fp8-gemm-efficiency", "F", KeyKind::number, 1e-3, 1, false, KeyUnset::zero_null, "fraction",
     "automatic: 0.65 with `fp8_training`", "",
     "FP8 training: what the FP8 weight GEMMs reach of `mfu` x the FP8 dense peak, their casts and scaling included (the "
     "16-bit math runs at `mfu` x the 16-bit peak); the default is the fit over NeMo's FP8 pretraining runs on H100 "
     "(docs/formulas.md, \"FP8 training\")",
     "FP8 weight GEMMs' share of mfu at the FP8 peak (default 0.65)", m(&Config::fp8_gemm_efficiency)),
    row("request_rate", "rr", "request-rate", "F", KeyKind::number, 1e-6, 1e7, false, KeyUnset::zero, "requests/s",
     "`0`: a closed loop at `concurrency`", "with `isl` and `osl`; not with `concurrency`",
     "requests per second arriving (an open loop): the requests in flight are what that rate keeps busy (Little's law, "
     "mean arrivals: bursts are not modelled); past what the engines sustain the queue grows without bound",
     "requests per second arriving, instead of concurrency", m(&Config::request_rate)),
    // Context parallelism (docs/formulas.md, "Context parallelism"): last, so that links written
    // before it stay byte-identical.
    row("cp", "cp", "cp", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::value, "", "`1`",
     "1 to 65,536; `2 x cp` divides the context, `tp x cp x pp x dp` = `gpus`; above 1 only for training with `flash_attention`",
     "context-parallel degree: each sequence's tokens split over `cp` GPUs, attention exchanging K/V blocks in a ring "
     "(Megatron-LM `--context-parallel-size`, TransformerEngine); activations per GPU shrink by `cp`, weights and "
     "optimizer states are replicated like `dp` (ZeRO shards over `dp` x `cp`)",
     "context-parallel degree (training; default 1)", m(&Config::cp)),
    // llama.cpp's expert offload (docs/formulas.md, "Expert offload"): after cp, so that links
    // written before it stay byte-identical.
    row("n_cpu_moe", "ncm", "n-cpu-moe", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::zero, "layers", "`0` (none)",
     "0 to the model's layer count; runtime `llama.cpp` or `ollama` with a mixture-of-experts model",
     "llama.cpp's `--n-cpu-moe N`: the routed-expert weights of the first N layers stay in host RAM (`memory.host`, "
     "`memory.host_experts`) and the CPU reads the experts each token picks at the host's bandwidth; attention, shared "
     "experts, router and norms stay on the GPU. The layer count is `--cpu-moe`; a dense layer among the first N has no "
     "experts to keep",
     "MoE layers whose routed experts stay in host RAM (llama.cpp --n-cpu-moe)", m(&Config::n_cpu_moe)),
    // The engine's cap on requests in flight (docs/formulas.md, "Serving under load"): after
    // n_cpu_moe, so that links written before it stay byte-identical.
    row("max_num_seqs", "mns", "max-num-seqs", "N", KeyKind::integer, 1, kMaxSequences, false, KeyUnset::null_zero, "requests",
     "the runtime's (`0` = the same): vLLM 1024 on GPUs of 70 GiB or more other than the A100, else 256; TensorRT-LLM "
     "2048; llama.cpp, Ollama and PyTorch `batch`; SGLang min(pool tokens / 2, 2,048 to 4,096 by the pool over the context)",
     "1 to 65,536; inference only (training ignores it)",
     "the most requests one replica runs at once, as the engine's own flag sets it: vLLM `--max-num-seqs`, SGLang "
     "`--max-running-requests`, TensorRT-LLM `max_batch_size`, llama.cpp `-np` (slots; Ollama `OLLAMA_NUM_PARALLEL`). "
     "The KV pool still caps the requests below it (`serving.bound` says which binds). On llama.cpp, Ollama and PyTorch "
     "the slots are allocated up front as `batch` sequences of `context` tokens: the key sets `batch` (a different "
     "`batch` beside it is refused). vLLM's profile run and TensorRT-LLM's engine size their logits for this many "
     "sequences",
     "requests in flight per replica (vLLM --max-num-seqs, SGLang --max-running-requests, TensorRT-LLM max_batch_size, "
     "llama.cpp -np; 0 = runtime default)",
     m(&Config::max_num_seqs)),
    // The SGLang and TensorRT-LLM memory fractions (docs/formulas.md, "Serving engines"): after
    // max_num_seqs, so that links written before them stay byte-identical.
    row("mem_fraction_static", "mfs", "mem-fraction-static", "F", KeyKind::number, kMinEngineFraction, 1, false, KeyUnset::null_zero,
     "fraction",
     "SGLang's by version: 0.5.3's reserve by GPU memory, chunked prefill, CUDA graphs, `tp` x `pp`, `dp_attention` and "
     "`speculative` (0.835 on an 80 GB H100 at tp 1, 0.847 on an RTX 4090); 0.4.8's by GPU memory and `tp` x `pp` (0.874, 0.879)",
     "0.001 to 1 (`0` = the default); runtime `sglang` only",
     "SGLang's `--mem-fraction-static`: the share of the memory free before loading (the GPU less the CUDA context and "
     "NCCL buffers) that holds the weights and the KV pool; activations and CUDA graphs live in the rest. Sets "
     "`memory.kv_capacity_tokens` and with it `serving.max_concurrency`",
     "SGLang --mem-fraction-static: weights + KV pool share of free memory (default by GPU memory and tp x pp)",
     m(&Config::mem_fraction_static)),
    row("free_gpu_memory_fraction", "fgm", "free-gpu-memory-fraction", "F", KeyKind::number, kMinEngineFraction, 1, false,
     KeyUnset::null_zero, "fraction", "",
     "0.001 to 1 (`0` = the default); runtime `trt-llm` only",
     "TensorRT-LLM's `KvCacheConfig.free_gpu_memory_fraction` (`trtllm-bench` / `trtllm-serve` "
     "`--kv_cache_free_gpu_mem_fraction`): the KV pool's share of the memory free once the weights, activations, CUDA "
     "context and buffers are placed. Sets `memory.kv_capacity_tokens` and with it `serving.max_concurrency`",
     "TensorRT-LLM KV pool share of free memory, --kv_cache_free_gpu_mem_fraction",
     m(&Config::free_gpu_memory_fraction)),
    // The run's goodput (training; core/src/training/goodput.cpp, docs/formulas.md "The run's goodput").
    row("failures_per_gpu_hour", "fph", "failures-per-gpu-hour", "F", KeyKind::number, 0, 0.1, false, KeyUnset::value,
     "per GPU-hour", "`2.195e-5`: Llama 3's 466 interruptions in 54 days on 16,384 GPUs", "",
     "training: job interruptions per GPU-hour; each stops the whole job, which restarts from its last checkpoint "
     "(`speed.train_goodput_fraction`). `0` = none",
     "training interruptions per GPU-hour (default 2.195e-5, Llama 3)", m(&Config::failures_per_gpu_hour)),
    row("restart_s", "rst", "restart-s", "S", KeyKind::number, 0, 86400, false, KeyUnset::value, "s", "`600`", "",
     "training: the time from an interruption to training again, before the checkpoint is read back (which is added): "
     "detection, rescheduling, start-up",
     "training restart time after an interruption, s (default 600)", m(&Config::restart_s)),
    row("checkpoint_write_gb_per_s", "ckw", "checkpoint-write-gb-per-s", "GB/S", KeyKind::number, 1e-3, 1e4, false,
     KeyUnset::value, "GB/s per node", "`1`: Llama 3's store, 2 TB/s sustained over 2,048 nodes", "",
     "training: the rate each node writes (and reads back) its part of a checkpoint: weights and optimizer states",
     "checkpoint write rate per node, GB/s (default 1)", m(&Config::checkpoint_write_gb_per_s)),
    row("checkpoint_interval_s", "cki", "checkpoint-interval-s", "S", KeyKind::number, 0, 1e7, false, KeyUnset::zero, "s",
     "automatic: the Young-Daly optimum, sqrt(2 x save time x mean time between interruptions)", "",
     "training: the training time between two checkpoints; the work since the last one is lost at an interruption",
     "training time between checkpoints, s (default: Young-Daly)", m(&Config::checkpoint_interval_s)),
    row("eval_interval_steps", "evi", "eval-interval-steps", "N", KeyKind::integer, 0, 1e9, false, KeyUnset::value, "steps",
     "`1000` (Megatron-LM `--eval-interval`)", "",
     "training: optimizer steps between two evaluations; `0` = no evaluation",
     "steps between evaluations (default 1000; 0 = none)", m(&Config::eval_interval_steps)),
    row("eval_iters", "evn", "eval-iters", "N", KeyKind::integer, 0, 1e6, false, KeyUnset::value, "batches",
     "`100` (Megatron-LM `--eval-iters`)", "",
     "training: global batches each evaluation runs forward (a third of a training step's work each)",
     "batches per evaluation (default 100)", m(&Config::eval_iters)),
    row("batch_ramp_tokens", "brt", "batch-ramp-tokens", "N", KeyKind::number, 0, 1e16, false, KeyUnset::value, "tokens",
     "`0` (no ramp)", "",
     "training: tokens trained while the global batch grows linearly to `global_batch` (GPT-3 ramped over its first 4 to 12 "
     "billion tokens); they take steps of half the batch on average, each with a full step's fixed costs",
     "tokens of the batch-size ramp (default 0)", m(&Config::batch_ramp_tokens)),
    // The cost of scale beyond the modelled step (docs/formulas.md, "At scale").
    row("step_overhead_s", "sov", "step-overhead-s", "S", KeyKind::number, 0, 1e4, false, KeyUnset::value, "s", "`0`", "",
     "training: seconds every optimizer step adds beyond what gpusizer models (the compute, the bubble, the exposed "
     "communication, the optimizer step and the step's scalar syncs): a framework's engine, data loading, stragglers. "
     "Megatron-Turing NLG 530B's DeepSpeed pipeline engine ran about 9 s a step above the model",
     "fixed seconds added to every training step (default 0)", m(&Config::step_overhead_s)),
    // The network's pods (core/src/interconnect.cpp span_of, p2p_seconds; docs/formulas.md "Pods").
    row("pod_gpus", "pod", "pod-gpus", "N", KeyKind::integer, 0, 1e7, false, KeyUnset::value, "GPUs",
     "`0`: one non-blocking network", "with `pod_oversubscription`",
     "the network's pods: non-blocking domains of this many GPUs, joined by uplinks `pod_oversubscription` times "
     "thinner (Llama 3's clusters: 3,072). Collectives whose groups span pods slow where the uplinks cannot carry "
     "them: all-to-alls, pipeline sends between stages in different pods, rings only when few of a group's GPUs "
     "share a pod",
     "GPUs per non-blocking network pod (default 0: one non-blocking network)", m(&Config::pod_gpus)),
    // vLLM's own pool size (after the pods: links written before it stay byte-identical).
    row("kv_cache_memory_bytes", "kvm", "kv-cache-memory-bytes", "BYTES", KeyKind::number, 1, 1e15, false, KeyUnset::null_zero,
     "bytes", "unset: `gpu_memory_utilization` sizes the pool", "1 to 10^15 (`0` = unset); runtime `vllm` (V1, not `0.6`) only",
     "vLLM's `--kv-cache-memory-bytes` (CacheConfig.kv_cache_memory_bytes): the KV pool of each GPU, which "
     "`gpu_memory_utilization` then no longer sizes (vLLM still checks at start-up that the GPU has that fraction free). "
     "Sets `memory.kv_capacity_tokens`; the configuration does not fit when the pool beside the model exceeds the GPU",
     "vLLM --kv-cache-memory-bytes: the KV pool per GPU in bytes", m(&Config::kv_cache_memory_bytes)),
    row("pod_oversubscription", "pos", "pod-oversubscription", "F", KeyKind::number, 1, 1000, false, KeyUnset::value, "x",
     "`1`: full bisection between pods", "with `pod_gpus`",
     "the ratio of what a pod's GPUs can send to what its uplinks to other pods carry (Llama 3's clusters: 7, "
     "arXiv:2407.21783 sec. 3.3.1)",
     "pod downlink : uplink ratio (default 1)", m(&Config::pod_oversubscription)),
    // The training framework's profile (core/src/training/frameworks.cpp, docs/formulas.md
    // "Training frameworks").
    row("training_framework", "tf", "training-framework", "S", KeyKind::choice, 0, 0, false, KeyUnset::value, "", "`megatron`",
     "`megatron`, `nemo`, `torchtitan`, `fsdp`, `deepspeed`, `hf_trainer`; training only; `hf_trainer` takes no `tp`, `pp`, "
     "`cp` or `ep` above 1",
     "the framework the step follows: its kernels, overlaps and gradient buckets (docs/formulas.md, \"Training "
     "frameworks\"); `fsdp` = FSDP2 / DDP without torch.compile",
     "",
     names([](const Config& c) { return std::string(to_string(c.training_framework)); },
           [](Config& c, std::string_view v) { c.training_framework = parse_training_framework(v); })),
    // What moves a serving engine's KV pool (issue 26; docs/formulas.md, "Serving engines"): last,
    // so that links written before them stay byte-identical.
    row("cuda_graphs", "cg", "cuda-graphs", "B", KeyKind::boolean, 0, 1, false, KeyUnset::value, "", "`true` (the engines' default)",
     "",
     "whether the serving engine captures CUDA graphs: `false` = vLLM `--enforce-eager`, SGLang `--disable-cuda-graph`, "
     "TensorRT-LLM without `cuda_graph_config`. Their pool (0.75 GiB per GPU) comes out of vLLM's "
     "`gpu_memory_utilization` from 0.21 (before, it sits outside it), out of SGLang's and TensorRT-LLM's reserve; "
     "llama.cpp, Ollama and TensorRT engines before 1.0 hold none",
     "serving engine CUDA graphs (false = --enforce-eager / --disable-cuda-graph)", m(&Config::cuda_graphs)),
    row("speculative", "spec", "speculative", "S", KeyKind::text, 0, 0, false, KeyUnset::empty, "", "`none`",
     "`none`, `mtp` (a model with multi-token-prediction layers) or a catalog model id (the draft model)",
     "speculative decoding as the engine loads it: `mtp` = the model's own multi-token-prediction layers (vLLM "
     "`--speculative-config '{\"method\": \"mtp\"}'`, SGLang `NEXTN`), their weights and one more attention layer's "
     "KV cache per token; a model id = a draft model on the same GPUs (split by `tp` like the target), its weights "
     "and KV cache beside the target's. Lowers `memory.kv_capacity_tokens`",
     "speculative decoding: none, mtp, or a draft model id",
     names([](const Config& c) { return c.speculative; },
           [](Config& c, std::string_view v) { c.speculative = v == "none" ? std::string() : std::string(v); })),
    // After the serving engine's keys: links written before it stay byte-identical.
    row("dp_attention", "dpa", "dp-attention", "N", KeyKind::integer, 1, kMaxDegree, false, KeyUnset::zero, "groups", "`0` (off)",
     "a divisor of `tp` (runtime `sglang`) or `tp` itself (runtime `trt-llm`); inference",
     "Data-parallel attention. SGLang's (`--enable-dp-attention --dp N`): the `tp` GPUs run attention as N groups of "
     "`tp` / N, each with its own requests and KV pool, the MLP and experts still split over `tp`. Attention weights and "
     "the embedding are replicated over the groups (more weights a GPU); an MLA cache is no longer repeated on every "
     "GPU, so the replica holds N pools (`memory.kv_capacity_tokens` is one GPU's); SGLang reserves more for it "
     "(`mem_fraction_static`). TensorRT-LLM's (`enable_attention_dp: true`, N = `tp`): every GPU runs attention, the "
     "dense MLPs and the shared experts whole for its own requests; each MoE layer gathers the routed experts' input "
     "from all GPUs (quantized to the experts' format) and scatters their output, with no all-reduce. Both engines divide "
     "`max_num_seqs` and `prefill_chunk` (the replica's) among the groups",
     "data-parallel attention groups: SGLang --enable-dp-attention --dp N, TensorRT-LLM enable_attention_dp (N = tp); 0 = off",
     m(&Config::dp_attention)),
};

constexpr std::size_t kKeyCount = sizeof kKeys / sizeof kKeys[0];

// ---------------------------------------------------------------------------------------------
// [SECTION] Access and checks
// ---------------------------------------------------------------------------------------------

constexpr bool is_numeric(const ConfigKey& k) { return k.kind == KeyKind::integer || k.kind == KeyKind::number; }

// The integer and number keys' rows, found at compile time: estimate() checks them on every
// call. `rows` in table order (the order errors are reported in); the same rows grouped by the
// type of their member, for the check that every value passes at a glance, which reads each
// member directly instead of asking the row which member it is.
constexpr std::size_t kNumericKeyCount = [] {
    std::size_t n = 0;
    for (const ConfigKey& k : kKeys) n += is_numeric(k);
    return n;
}();
struct NumericKeys {
    const ConfigKey* rows[kNumericKeyCount] = {};
};
constexpr NumericKeys kNumericKeys = [] {
    NumericKeys out;
    std::size_t n = 0;
    for (const ConfigKey& k : kKeys)
        if (is_numeric(k)) out.rows[n++] = &k;
    return out;
}();

constexpr int Config::*member_of(const KeyMember& m, int Config::*) { return m.i; }
constexpr long long Config::*member_of(const KeyMember& m, long long Config::*) { return m.ll; }
constexpr double Config::*member_of(const KeyMember& m, double Config::*) { return m.d; }
constexpr std::optional<int> Config::*member_of(const KeyMember& m, std::optional<int> Config::*) { return m.oi; }
constexpr std::optional<double> Config::*member_of(const KeyMember& m, std::optional<double> Config::*) { return m.od; }

template <typename T>
struct MemberRows {
    const ConfigKey* rows[kNumericKeyCount] = {};
    T Config::*members[kNumericKeyCount] = {};
    std::size_t n = 0;
};
template <typename T>
constexpr MemberRows<T> member_rows() {
    MemberRows<T> out;
    for (const ConfigKey& k : kKeys) {
        T Config::*const p = member_of(k.member, static_cast<T Config::*>(nullptr));   // the overload for T
        if (is_numeric(k) && p) {
            out.rows[out.n] = &k;
            out.members[out.n] = p;
            ++out.n;
        }
    }
    return out;
}
constexpr MemberRows<int> kIntRows = member_rows<int>();
constexpr MemberRows<long long> kLongRows = member_rows<long long>();
constexpr MemberRows<double> kDoubleRows = member_rows<double>();
constexpr MemberRows<std::optional<int>> kOptionalIntRows = member_rows<std::optional<int>>();
constexpr MemberRows<std::optional<double>> kOptionalDoubleRows = member_rows<std::optional<double>>();
static_assert(kIntRows.n + kLongRows.n + kDoubleRows.n + kOptionalIntRows.n + kOptionalDoubleRows.n == kNumericKeyCount,
              "every integer and number key is an int, long long, double or optional member");

inline double as_number(int v) { return double(v); }
inline double as_number(long long v) { return double(v); }
inline double as_number(double v) { return v; }
inline double as_number(const std::optional<int>& v) { return double(v.value_or(0)); }
inline double as_number(const std::optional<double>& v) { return v.value_or(0.0); }

// The value of a number key; an unset optional reads 0 (key_number).
inline double number_of(const Config& c, const ConfigKey& k) {
    const KeyMember& p = k.member;
    if (p.i) return double(c.*p.i);
    if (p.ll) return double(c.*p.ll);
    if (p.d) return c.*p.d;
    if (p.b) return (c.*p.b) ? 1.0 : 0.0;
    if (p.oi) return double((c.*p.oi).value_or(0));
    if (p.od) return (c.*p.od).value_or(0.0);
    throw_error(k.name, "is not a number key", ErrorCode::internal);
}

// Whether check_key_value(k, v, UnsetValue::accepted) passes `v` at a glance: in range, or the 0 that a zero,
// zero_null or null_zero key reads as "not given". Anything else (out of range, NaN, an
// infinity) gets the full check, which names the key.
inline bool plainly_valid(const ConfigKey& k, double v) {
    if (v == 0 && (k.unset == KeyUnset::zero || k.unset == KeyUnset::zero_null || k.unset == KeyUnset::null_zero)) return true;
    return (k.min_open ? v > k.min : v >= k.min) && v <= k.max;   // false for NaN; min and max are finite
}

template <typename T>
bool all_plainly_valid(const Config& c, const MemberRows<T>& g) {
    for (std::size_t i = 0; i < g.n; ++i)
        if (!plainly_valid(*g.rows[i], as_number(c.*g.members[i]))) return false;
    return true;
}

}  // namespace

std::string key_number_text(double v) {
    char buf[32];
    if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%lld", (long long)v);
    else std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

ConfigKeyTable config_keys() { return {kKeys, kKeyCount}; }

const ConfigKey* find_config_key(std::string_view name) {
    for (const ConfigKey& k : kKeys)
        if (name == k.name) return &k;
    return nullptr;
}

const ConfigKey* find_link_key(std::string_view link) {
    if (link == "g") return nullptr;
    for (const ConfigKey& k : kKeys)
        if (link == k.link) return &k;
    return nullptr;
}

const ConfigKey* find_flag_key(std::string_view flag) {
    for (const ConfigKey& k : kKeys)
        if (flag == k.flag) return &k;
    return nullptr;
}

double key_number(const Config& c, const ConfigKey& k) { return number_of(c, k); }

void set_key_number(Config& c, const ConfigKey& k, double v) {
    const KeyMember& p = k.member;
    if (p.i) c.*p.i = int(v);
    else if (p.ll) c.*p.ll = (long long)v;
    else if (p.d) c.*p.d = v;
    else if (p.b) c.*p.b = v != 0;
    else if (k.unset == KeyUnset::null_zero && v == 0) reset_key(c, k);
    else if (p.oi) c.*p.oi = int(v);
    else if (p.od) c.*p.od = v;
    else
        throw_error(k.name, "is not a number key", ErrorCode::internal);
}

void reset_key(Config& c, const ConfigKey& k) {
    if (k.member.oi) (c.*k.member.oi).reset();
    else if (k.member.od) (c.*k.member.od).reset();
    else
        throw_error(k.name, "is not an optional key", ErrorCode::internal);
}

std::string key_text(const Config& c, const ConfigKey& k) {
    if (k.member.s) return c.*k.member.s;
    if (k.member.text) return k.member.text(c);
    if (k.kind == KeyKind::model) return c.model.custom ? "custom" : c.model.id;
    throw_error(k.name, "is not a text key", ErrorCode::internal);
}

void set_key_text(Config& c, const ConfigKey& k, std::string_view v) {
    if (k.member.s) c.*k.member.s = std::string(v);
    else if (k.member.set_text) k.member.set_text(c, v);
    else if (k.kind == KeyKind::model) c.model.id = std::string(v), c.model.custom = false;
    else
        throw_error(k.name, "is not a text key", ErrorCode::internal);
}

bool key_unset(const Config& c, const ConfigKey& k) {
    switch (k.unset) {
        case KeyUnset::value: return false;
        case KeyUnset::zero: case KeyUnset::zero_null: return key_number(c, k) == 0;
        case KeyUnset::null: case KeyUnset::null_zero:
            return k.member.oi ? !(c.*k.member.oi).has_value() : !(c.*k.member.od).has_value();
        case KeyUnset::empty: return key_text(c, k).empty();
    }
    return false;
}

void check_key_value(const ConfigKey& k, double v, UnsetValue unset) {
    const bool allow_unset = unset == UnsetValue::accepted;
    if (allow_unset) {
        if ((k.unset == KeyUnset::zero || k.unset == KeyUnset::zero_null) && v == 0) return;
    }
    if ((k.unset == KeyUnset::zero || k.unset == KeyUnset::null_zero) && v == 0) return;   // 0 is a value a file may give too
    const bool in_range = std::isfinite(v) && (k.min_open ? v > k.min : v >= k.min) && v <= k.max;
    if (in_range) return;
    std::string msg = k.min_open ? "must be in (" + key_number_text(k.min) + ", " + key_number_text(k.max) + "]"
                                 : "must be between " + key_number_text(k.min) + " and " + key_number_text(k.max);
    if (*k.unit && std::string_view(k.unit) != "fraction") msg += std::string(" ") + k.unit;
    if (k.unset == KeyUnset::zero || k.unset == KeyUnset::null_zero) msg += " (0 = the default)";
    if (allow_unset && k.unset == KeyUnset::zero_null) msg += " (0 = the default)";
    throw_error(k.name, msg + ", got " + key_number_text(v));
}

void check_key_ranges(const Config& c) {
    const bool plain = all_plainly_valid(c, kIntRows) && all_plainly_valid(c, kLongRows) && all_plainly_valid(c, kDoubleRows) &&
                       all_plainly_valid(c, kOptionalIntRows) && all_plainly_valid(c, kOptionalDoubleRows);
    if (!plain) {
        // A closer look, in table order: the first key out of range is the one reported.
        for (const ConfigKey* k : kNumericKeys.rows) {
            const double v = number_of(c, *k);
            if (!plainly_valid(*k, v) && !key_unset(c, *k)) check_key_value(*k, v, UnsetValue::accepted);
        }
    }
    if (c.lora_targets == 0) throw_error("lora_targets", "must name at least one module");
}

}   // namespace gpusizer
