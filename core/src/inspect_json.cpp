// inspect_json.cpp: the JSON of `gpusizer inspect --json` (a GGUF or safetensors header) and of
// `gpusizer reconcile --json` (an engine log beside the estimate of the configuration it
// describes), shared by the CLI and the JavaScript API (gs.inspect, gs.reconcile).
//
// [SECTION] inspect
// [SECTION] reconcile
#include "gpusizer/inspect.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <nlohmann/json.hpp>

#include "gpusizer/config.hpp"
#include "gpusizer/engine_log.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/phrasing.hpp"
#include "gpusizer/precision.hpp"
#include "gpusizer/report.hpp"
#include "json_read.hpp"

namespace gpusizer {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] inspect
// ---------------------------------------------------------------------------------------------

// What both formats print: totals by type and by class. `elements` as stored, `params` by
// logical shape (model_file.hpp TensorTotals).
json totals_json(const TensorTotals& t) {
    json by_type = json::array();
    for (const auto& x : t.by_type)
        by_type.push_back({{"type", x.type}, {"tensors", x.tensors}, {"elements", x.elements}, {"params", x.params}, {"bytes", x.bytes}});
    json by_class = json::object();
    for (std::size_t c = 0; c < kWeightClassCount; ++c) {
        const ClassTotal& x = t.by_class[c];
        by_class[to_string(static_cast<WeightClass>(c))] = {
            {"tensors", x.tensors}, {"elements", x.elements}, {"params", x.params}, {"bytes", x.bytes}};
    }
    // Per layer: only the classes with bytes ({"attention": 119040, "dense_mlp": 254976, ...}).
    json by_layer = json::array();
    for (const auto& layer : t.by_layer) {
        json l = json::object();
        for (std::size_t c = 0; c < kWeightClassCount; ++c)
            if (layer[c]) l[to_string(static_cast<WeightClass>(c))] = layer[c];
        by_layer.push_back(l);
    }
    return {{"tensors", t.tensors}, {"elements", t.elements}, {"params", t.params},  {"bytes", t.bytes},
            {"by_type", by_type},   {"by_class", by_class},   {"by_layer", by_layer}};
}

// The parts of the checkpoint (text, vision, audio, MTP): tensors, parameters and bytes.
json parts_json(const std::array<ClassTotal, kTensorPartCount>& parts) {
    json j = json::object();
    for (std::size_t p = 0; p < kTensorPartCount; ++p)
        j[to_string(static_cast<TensorPart>(p))] = {{"tensors", parts[p].tensors}, {"params", parts[p].params}, {"bytes", parts[p].bytes}};
    return j;
}

json encoder_json(const GgufEncoderInfo& e) {
    return {{"block_count", e.block_count}, {"embedding_length", e.embedding_length}, {"feed_forward_length", e.feed_forward_length},
            {"head_count", e.head_count},   {"projection_dim", e.projection_dim},     {"image_size", e.image_size},
            {"patch_size", e.patch_size}};
}

// A projector file: its encoders and totals.
json projector_json(const GgufModel& p) {
    const GgufProjectorInfo& i = p.projector_info;
    return {{"files", p.files},
            {"projector_type", i.projector_type},
            {"has_vision_encoder", i.has_vision},
            {"has_audio_encoder", i.has_audio},
            {"vision", i.has_vision ? encoder_json(i.vision) : json(nullptr)},
            {"audio", i.has_audio ? encoder_json(i.audio) : json(nullptr)},
            {"totals", totals_json(p.totals)}};
}

json u64_list(const std::vector<std::uint64_t>& v) {
    if (v.size() == 1) return v[0];
    return json(v);
}

}  // namespace

namespace {

std::array<ClassTotal, kTensorPartCount> gguf_parts(const GgufModel& m, const GgufModel* projector) {
    auto parts = part_totals(m.totals, m.stack_layers);
    if (projector) {
        const auto extra = part_totals(projector->totals, -1);
        for (std::size_t p = 0; p < kTensorPartCount; ++p) {
            // A projector file's tensors are all encoder: what its names leave text is vision.
            ClassTotal& to = parts[p == static_cast<std::size_t>(TensorPart::text) ? static_cast<std::size_t>(TensorPart::vision) : p];
            to.tensors += extra[p].tensors, to.elements += extra[p].elements, to.params += extra[p].params, to.bytes += extra[p].bytes;
        }
    }
    return parts;
}

}  // namespace

std::string gguf_model_json(const GgufModel& m, const GgufModel* projector) {
    const GgufArchInfo& a = m.arch;
    json hp = {{"block_count", a.block_count}, {"context_length", a.context_length}, {"embedding_length", a.embedding_length},
               {"vocab_size", a.vocab_size}, {"feed_forward_length", u64_list(a.feed_forward_length)},
               {"head_count", u64_list(a.head_count)}, {"head_count_kv", u64_list(a.head_count_kv)},
               {"key_length", a.key_length}, {"value_length", a.value_length}, {"key_length_mla", a.key_length_mla},
               {"value_length_mla", a.value_length_mla}, {"q_lora_rank", a.q_lora_rank}, {"kv_lora_rank", a.kv_lora_rank},
               {"rope_dimension_count", a.rope_dimension_count}, {"sliding_window", a.sliding_window},
               {"sliding_window_period", a.sliding_window_period}, {"sliding_window_layers", a.sliding_window_layers},
               {"full_attention_interval", a.full_attention_interval}, {"expert_count", a.expert_count},
               {"expert_used_count", a.expert_used_count}, {"expert_shared_count", a.expert_shared_count},
               {"expert_feed_forward_length", a.expert_feed_forward_length},
               {"expert_shared_feed_forward_length", a.expert_shared_feed_forward_length},
               {"leading_dense_block_count", a.leading_dense_block_count}, {"ssm_conv_kernel", a.ssm_conv_kernel},
               {"ssm_inner_size", a.ssm_inner_size}, {"ssm_state_size", a.ssm_state_size},
               {"ssm_time_step_rank", a.ssm_time_step_rank}, {"ssm_group_count", a.ssm_group_count}};
    json metadata = json::object();
    for (const auto& kv : m.metadata) {
        const GgufValue& v = kv.value;
        json j;
        if (v.type == GgufType::string) j = v.skipped ? json(nullptr) : json(v.s);
        else if (v.type == GgufType::array) j = {{"type", to_string(v.item_type)}, {"count", v.count}};
        else if (v.type == GgufType::boolean) j = v.u != 0;
        else if (v.type == GgufType::f32 || v.type == GgufType::f64) j = v.f;
        else if (v.negative) j = v.i;
        else j = v.u;
        metadata[kv.key] = j;
    }
    json tensors = json::array();
    for (const auto& t : m.tensors) {
        json shape = json::array();
        for (std::uint32_t d = 0; d < t.n_dims; ++d) shape.push_back(t.dims[d]);
        tensors.push_back({{"name", t.name}, {"type", t.type_name}, {"type_id", t.type}, {"shape", shape}, {"bytes", t.bytes},
                           {"offset", t.offset}, {"part", t.part}, {"class", to_string(t.cls)}, {"layer", t.layer}});
    }
    json j = {{"format", "gguf"},
              {"files", m.files},
              {"version", m.version},
              {"header_bytes", m.header_bytes},
              {"data_offsets", m.data_offsets},
              {"architecture", a.architecture},
              {"name", a.name},
              {"file_type", a.file_type},
              {"hyperparameters", hp},
              {"totals", totals_json(m.totals)},
              {"stack_layers", m.stack_layers},
              {"parts", parts_json(gguf_parts(m, projector))},
              {"metadata_used", a.keys_used},
              {"metadata", metadata},
              {"tensor_list", tensors}};
    // The projector: the file beside the model, or the file itself when it is one.
    if (projector)
        j["projector"] = projector_json(*projector);
    else if (m.projector)
        j["projector"] = projector_json(m);
    else
        j["projector"] = nullptr;
    return j.dump(2);
}

std::string safetensors_model_json(const SafetensorsModel& m, std::string_view config_json) {
    std::vector<std::string> warnings;
    ModelArch arch;
    const bool has_config = !config_json.empty();
    if (has_config) arch = arch_from_hf_config(config_json, &warnings);
    json dtypes = json::object();
    json meta = json::object();
    for (const auto& [k, v] : m.metadata) meta[k] = v;
    // Quantized layouts: how many tensors each packs, their parameters and bytes.
    json layouts = json::array();
    std::vector<std::string> seen;
    for (const SafetensorsTensor& t : m.tensors)
        if (!t.layout.empty() && std::find(seen.begin(), seen.end(), t.layout) == seen.end()) seen.push_back(t.layout);
    for (const std::string& l : seen) {
        std::uint64_t n = 0, params = 0, bytes = 0;
        for (const SafetensorsTensor& t : m.tensors)
            if (t.layout == l) ++n, params += t.params, bytes += t.bytes;
        layouts.push_back({{"layout", l}, {"tensors", n}, {"params", params}, {"bytes", bytes}});
    }
    const int stack = has_config ? arch.total_layers() : -1;
    json j = {{"format", "safetensors"},
              {"files", m.files},
              {"header_bytes", m.header_bytes},
              {"index_total_size", m.index_total_size},
              {"metadata", meta},
              {"totals", totals_json(m.totals)},
              {"layouts", layouts},
              {"stack_layers", stack},
              {"parts", parts_json(part_totals(m.totals, stack))}};
    if (has_config)
        j["config"] = {{"model_type", arch.model_type}, {"layers", arch.n_layers}, {"hidden", arch.hidden},
                       {"heads", arch.n_heads}, {"kv_heads", arch.n_kv_heads}, {"routed_experts", arch.n_routed_experts},
                       {"warnings", warnings}};
    return j.dump(2);
}

std::string inspect_bytes_json(const std::string& name, std::string_view bytes, std::optional<std::uint64_t> file_size) {
    if (file_size && *file_size < bytes.size())
        throw_error("fileSize", "the file's size (" + std::to_string(*file_size) + " bytes) is less than the " +
                                    std::to_string(bytes.size()) + " bytes given");
    MemorySource src = file_size ? MemorySource(name, bytes, file_size) : MemorySource::first_bytes(name, bytes);
    if (bytes.size() >= 4 && bytes.substr(0, 4) == "GGUF") return gguf_model_json(gguf_model_from_headers({read_gguf_header(src)}));
    return safetensors_model_json(safetensors_model_from_headers({read_safetensors_header(src)}), {});
}

// ---------------------------------------------------------------------------------------------
// [SECTION] reconcile
// ---------------------------------------------------------------------------------------------

namespace {

// llama.cpp's file-type description ("Q4_K - Medium", "MXFP4 MoE", "Q8_0": llama_model_ftype_name
// in src/llama-model-loader.cpp) -> a weight format id ("q4_k_m"), or "" when none matches.
std::string weights_of_log(const std::string& ft) {
    std::string id;
    for (char ch : ft) id += ch == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const auto& [from, to] : {std::pair<const char*, const char*>{"_-_medium", "_m"}, {"_-_small", "_s"}, {"_-_large", "_l"},
                                   {"_-_extra_small", "_xs"}, {"_-_extra_extra_small", "_xxs"}}) {
        const std::size_t at = id.find(from);
        if (at != std::string::npos) id = id.substr(0, at) + to;
    }
    if (id == "all_f32" || id == "f32") id = "fp32";
    if (id == "f16" || id == "mostly_f16") id = "fp16";
    for (const WeightFormat& f : weight_formats())
        if (f.id == id) return id;
    return "";
}

// A cache type as engines print it ("f16", "q8_0", "torch.float8_e4m3fn", "torch.bfloat16") -> a
// kv_cache id, or "".
std::string kv_of_log(std::string t) {
    if (t.rfind("torch.", 0) == 0) t = t.substr(6);
    if (t == "f16" || t == "float16") return "fp16";
    if (t == "bf16" || t == "bfloat16") return "bf16";
    if (t == "f32" || t == "float32") return "fp32";
    if (t == "q8_0" || t == "q4_0") return t;
    if (t.rfind("float8", 0) == 0 || t.rfind("fp8", 0) == 0) return "fp8";
    return "";
}

bool is_gpu_device(const std::string& d) {
    return d.find("CPU") == std::string::npos && d.find("Host") == std::string::npos && d.find("host") == std::string::npos;
}

// The catalog model a log describes: the hyperparameters llama.cpp prints (layers, width, heads,
// KV heads, experts) all equal, or (vLLM, SGLang) the Hugging Face repo it loads.
const CatalogModel* match_catalog(const EngineLog& l, const Catalog& cat) {
    auto lower = [](std::string s) {
        for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return s;
    };
    if (!l.model_name.empty()) {
        const std::string name = lower(l.model_name);
        for (const CatalogModel& m : cat.models)
            if (!m.hf_repo.empty() && (lower(m.hf_repo) == name || (name.size() > m.hf_repo.size() &&
                                       name.compare(name.size() - m.hf_repo.size() - 1, std::string::npos, "/" + lower(m.hf_repo)) == 0)))
                return &m;
    }
    if (l.n_layer == 0 || l.n_embd == 0 || l.n_head == 0) return nullptr;
    for (const CatalogModel& m : cat.models) {
        const ModelArch& a = m.arch;
        if (a.n_layers == l.n_layer && a.hidden == l.n_embd && a.n_heads == l.n_head &&
            (l.n_head_kv == 0 || a.n_kv_heads == l.n_head_kv) && a.n_routed_experts == l.n_expert &&
            (l.model_params <= 0 || std::fabs(m.counts.total() / l.model_params - 1) < 0.05))
            return &m;
    }
    return nullptr;
}

// One component: the log's figure, the estimate's, the difference and the ratio.
struct Component {
    const char* name;
    const char* meaning;
    double log = 0;
    double estimate = 0;
};

}  // namespace

std::string reconcile_json(std::string_view log_text, const Catalog* catalog, std::string_view config_json, const SourceOpener& open) {
    const EngineLog l = read_engine_log(log_text);
    if (l.engine.empty()) throw_error("log", "no line of a llama.cpp, Ollama, vLLM or SGLang startup log was recognised");
    const json overrides = config_json.empty() ? json::object() : detail::parse_json(config_json, "config");
    if (!overrides.is_object()) throw_error("config", "must be a JSON object of configuration keys");
    // The configuration the log describes; flags given win.
    std::vector<std::string> est_notes;
    json est = nullptr;
    std::vector<Component> comps;
    std::string est_error, est_error_key, est_error_code;
    try {
        if (!catalog) throw_error("catalog", "was not loaded: no estimate beside the log");
        const Catalog& cat = *catalog;
        const bool llama = l.engine == "llama.cpp" || l.engine == "ollama";
        json cfg = json::object();
        // Each engine's own runtime profile (Ollama runs llama.cpp's server: its profile).
        cfg["runtime"] = l.engine == "ollama" ? "ollama" : llama ? "llama.cpp" : l.engine == "sglang" ? "sglang" : "vllm";
        std::vector<std::string> gpu_devices;
        for (const auto& d : l.devices())
            if (is_gpu_device(d)) gpu_devices.push_back(d);
        // The GPUs: the devices the log names, else SGLang's tp_size (its ranks split the tensors).
        const int gpus = gpu_devices.empty() && l.tp_size > 1 ? l.tp_size : std::max<int>(1, static_cast<int>(gpu_devices.size()));
        cfg["gpus"] = gpus;
        // llama.cpp splits layers over GPUs (pipeline); vLLM and SGLang ranks split tensors.
        if (gpus > 1) cfg[llama ? "pp" : "tp"] = gpus;
        if (llama) {
            const std::int64_t per_seq = l.n_ctx_per_seq ? l.n_ctx_per_seq : l.n_ctx;
            if (per_seq > 0) cfg["context"] = per_seq;
            if (l.n_seq_max > 1) cfg["batch"] = l.n_seq_max;
            if (l.n_ubatch > 0) cfg["prefill_chunk"] = l.n_ubatch;
            const std::string w = weights_of_log(l.file_type);
            if (!w.empty()) cfg["weights"] = w;
            else if (!l.file_type.empty()) est_notes.push_back("file type '" + l.file_type + "' names no weight format here");
        } else {
            if (l.concurrency_tokens_per_request > 0) cfg["context"] = l.concurrency_tokens_per_request;
            if (l.gpu_memory_utilization > 0) cfg["gpu_memory_utilization"] = l.gpu_memory_utilization;
            if (l.mem_fraction_static > 0) cfg["mem_fraction_static"] = l.mem_fraction_static;   // SGLang's ServerArgs
            if (l.dp_attention > 1 && gpus % l.dp_attention == 0) cfg["dp_attention"] = l.dp_attention;   // its groups
        }
        if (const std::string kv = kv_of_log(l.kv_type_k); !kv.empty()) cfg["kv_cache"] = kv;
        // The GPU: the flag's, else the catalog GPU whose memory is nearest the log's total,
        // else an H100 (only the headroom depends on it for llama.cpp).
        std::string gpu = "h100-sxm";
        if (l.gpu_memory_bytes > 0) {
            double best = 1e300;
            for (const Gpu& g : cat.gpus) {
                const double d = std::fabs(g.memory_gib * double(1ull << 30) - l.gpu_memory_bytes);
                if (d < best) best = d, gpu = g.id;
            }
        }
        cfg["gpu"] = gpu;
        const bool model_given = overrides.contains("model") || overrides.contains("gguf") || overrides.contains("hf_dir");
        if (!model_given) {
            const CatalogModel* m = match_catalog(l, cat);
            if (!m)
                throw_error("model",
                            "the log names no catalog model" +
                                (phrasing().name_model.empty() ? std::string() : ": " + std::string(phrasing().name_model)),
                            ErrorCode::unknown_id);
            cfg["model"] = m->arch.id;
            est_notes.push_back("model " + m->arch.id + " (" + m->arch.name + ") matched from the log's " +
                                (l.n_layer ? "hyperparameters" : "model name"));
        }
        if (!overrides.contains("gpu"))
            est_notes.push_back("GPU " + gpu + (l.gpu_memory_bytes > 0 ? " (nearest the log's memory)" : " assumed: the log does not say"));
        for (auto it = overrides.begin(); it != overrides.end(); ++it) cfg[it.key()] = it.value();
        // The log's engine fraction sizes that engine's pool only: a runtime given instead drops it.
        if (!overrides.contains("mem_fraction_static") && cfg.contains("mem_fraction_static") && cfg["runtime"] != "sglang")
            cfg.erase("mem_fraction_static");
        if (!overrides.contains("dp_attention") && cfg.contains("dp_attention") && cfg["runtime"] != "sglang" &&
            cfg["runtime"] != "trt-llm")
            cfg.erase("dp_attention");
        Config c = config_from_json(cfg.dump());
        if (open) load_model_files(c, open);
        const Report r = estimate(c, cat);
        // Components, per GPU (the most loaded one) unless named "total".
        double log_w = 0, log_w_gpu = 0, log_kv_gpu = 0, log_compute = 0;
        for (const auto& d : l.devices()) {
            log_w += l.buffer_bytes("model", d);
            if (is_gpu_device(d)) {
                log_w_gpu = std::max(log_w_gpu, l.buffer_bytes("model", d));
                log_kv_gpu = std::max(log_kv_gpu, l.buffer_bytes("kv", d) + l.buffer_bytes("recurrent", d));
                log_compute = std::max(log_compute, l.buffer_bytes("compute", d));
            }
        }
        if (log_w == 0) log_w = l.model_file_bytes;
        if (l.weights_bytes > 0) log_w_gpu = l.weights_bytes;
        const double est_w = r.weights_bits_per_param * r.params / 8.0;
        if (log_w > 0)
            comps.push_back(
                {"weights_total", "the model's weights, all devices (llama.cpp: every model buffer, or the file size)", log_w, est_w});
        if (log_w_gpu > 0) comps.push_back({"weights", "weights on the most loaded GPU", log_w_gpu, r.per_gpu.weights});
        const double log_kv = l.kv_bytes > 0 ? l.kv_bytes : l.kv_k_bytes + l.kv_v_bytes;
        if (llama) {
            // llama.cpp allocates the cache of n_ctx cells: the estimate's cache for the context.
            if (log_kv > 0 && gpus == 1) comps.push_back({"kv_cache", "KV cache (and recurrent state)", log_kv, r.per_gpu.kv_cache});
            else if (log_kv_gpu > 0) comps.push_back({"kv_cache", "KV cache on the most loaded GPU", log_kv_gpu, r.per_gpu.kv_cache});
        } else {
            // vLLM and SGLang fill the memory left with a pool of KV blocks: the estimate's pool is
            // the tokens it says fit (kv_capacity_tokens) times one token's KV bytes on one GPU
            // (the whole model's, split over tp; replicated KV heads not counted).
            const double pool_log = l.available_kv_bytes > 0 ? l.available_kv_bytes : log_kv;
            const double per_token_gpu = r.kv_bytes_per_token / std::max(1, r.parallel.tp);
            if (pool_log > 0)
                comps.push_back({"kv_pool", "KV pool on one GPU (estimate: the tokens it holds x KV bytes per token per GPU)", pool_log,
                                 double(r.kv_capacity_tokens) * per_token_gpu});
        }
        if (log_compute > 0)
            comps.push_back({"compute", "llama.cpp compute buffer on the most loaded GPU", log_compute, r.per_gpu.activations});
        if (l.kv_cache_tokens > 0 && r.kv_capacity_tokens > 0)
            comps.push_back(
                {"kv_tokens", "tokens the KV pool holds (a count, not bytes)", double(l.kv_cache_tokens), double(r.kv_capacity_tokens)});
        if (l.graph_bytes > 0)
            comps.push_back({"graphs", "CUDA graphs (estimate: runtime buffers)", l.graph_bytes, r.overhead_detail.runtime_buffers});
        json cj = json::array();
        for (const Component& k : comps)
            cj.push_back({{"name", k.name}, {"meaning", k.meaning}, {"log", k.log}, {"estimate", k.estimate},
                          {"difference", k.estimate - k.log}, {"ratio", k.log > 0 ? json(k.estimate / k.log) : json(nullptr)}});
        // A string_view, as json_read.cpp parses: one instantiation of nlohmann's parser.
        est = {{"config", json::parse(std::string_view(config_to_json(c)))},
               {"model", r.model_name},
               {"source", c.model.custom ? (c.model.arch.source.empty() ? "hf_config" : c.model.arch.source) : "catalog"},
               {"components", cj},
               {"notes", est_notes}};
    } catch (const Error& e) {
        est_error = e.what();
        est_error_key = e.key();
        est_error_code = std::string(to_string(e.code()));
    }
    json buffers = json::array();
    for (const auto& b : l.buffers) buffers.push_back({{"kind", b.kind}, {"device", b.device}, {"bytes", b.bytes}, {"line", b.line}});
    json j = {{"engine", l.engine}, {"model_name", l.model_name}, {"architecture", l.architecture}, {"model_type", l.model_type},
              {"file_type", l.file_type}, {"model_params", l.model_params}, {"model_file_bytes", l.model_file_bytes},
              {"n_layer", l.n_layer}, {"n_embd", l.n_embd}, {"n_head", l.n_head}, {"n_head_kv", l.n_head_kv},
              {"n_ctx_train", l.n_ctx_train}, {"n_expert", l.n_expert}, {"n_expert_used", l.n_expert_used},
              {"n_ctx", l.n_ctx}, {"n_ctx_per_seq", l.n_ctx_per_seq}, {"n_seq_max", l.n_seq_max}, {"n_batch", l.n_batch},
              {"n_ubatch", l.n_ubatch}, {"kv_type_k", l.kv_type_k}, {"kv_type_v", l.kv_type_v}, {"kv_bytes", l.kv_bytes},
              {"kv_k_bytes", l.kv_k_bytes}, {"kv_v_bytes", l.kv_v_bytes}, {"kv_cells", l.kv_cells},
              {"kv_cache_tokens", l.kv_cache_tokens}, {"kv_blocks", l.kv_blocks}, {"weights_bytes", l.weights_bytes},
              {"available_kv_bytes", l.available_kv_bytes}, {"activation_peak_bytes", l.activation_peak_bytes},
              {"non_torch_bytes", l.non_torch_bytes}, {"graph_bytes", l.graph_bytes}, {"gpu_memory_bytes", l.gpu_memory_bytes},
              {"gpu_memory_utilization", l.gpu_memory_utilization}, {"mem_fraction_static", l.mem_fraction_static},
              {"tp_size", l.tp_size}, {"dp_attention", l.dp_attention}, {"avail_after_pool_bytes", l.avail_after_pool_bytes},
              {"max_concurrency", l.max_concurrency}, {"concurrency_tokens_per_request", l.concurrency_tokens_per_request},
              {"max_running_requests", l.max_running_requests}, {"buffers", buffers}, {"notes", l.notes},
              {"estimate", est}};
    if (!est_error.empty()) {
        j["estimate_error"] = est_error;
        j["estimate_error_key"] = est_error_key;     // the configuration key it is about ("model", ...)
        j["estimate_error_code"] = est_error_code;   // ErrorCode: "unknown_id" when no catalog model matches
    }
    return j.dump(2);
}

}  // namespace gpusizer
