// gpusizer/io.hpp: JSON at the edge. Configurations in, reports out, Hugging Face configs in.
// nlohmann_json stays behind this header (core/src/catalog_io.cpp, config_io.cpp, report_json.cpp, hf_import.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer {

// Parses a configuration JSON object. Unknown keys, wrong types and out-of-range values throw
// Error naming the key and what is allowed.
Config config_from_json(std::string_view json_text);
// Throws Error (codes too_large, too_deep, or bad_value for text that is not JSON) unless `text`
// is JSON within the limits every reader of the core holds (16 MiB, 64 levels). For front ends
// that read JSON files themselves before handing values to the core.
void check_json_text(std::string_view text, const std::string& what);
std::string config_to_json(const Config& config, int indent = 2);

std::string report_to_json(const Report& report, int indent = 2);
// The report as text for people (what `gpusizer estimate` prints; core/src/report_text.cpp).
std::string report_to_text(const Report& report);
// The report as CSV: a header line "key,value", then one line a value of report_to_json's object,
// its key dotted ("memory.per_gpu.total"), numbers as JSON writes them, lists as JSON text, text
// quoted where it holds a comma, a quote or a line break (RFC 4180).
std::string report_to_csv(const Report& report);
std::string fit_to_json(const FitReport& fit, int indent = 2);
std::string assumptions_to_json(const std::vector<Assumption>& items, int indent = 2);

// Lists for `gpusizer models` / `gpusizer gpus` / `gpusizer links --json` and the web API.
std::string models_to_json(const Catalog& catalog, int indent = 2);
std::string gpus_to_json(const Catalog& catalog, int indent = 2);
std::string links_to_json(const Catalog& catalog, int indent = 2);

// `gpusizer recommend --json`: the query, the recommended configurations and the rejected ones.
std::string recommend_to_json(const Recommendation& rec, int indent = 2);
// The query of a recommendation: a configuration and the constraints as the "query" object of
// recommend_to_json names them (budget_usd, power_cap_w, min_tokens_per_s, single_node,
// segments, max_gpus, sort; each optional; a limit null or 0 = none). Errors name "constraints: <key>".
RecommendQuery recommend_query_from_json(std::string_view config_json, std::string_view constraints_json);

// Reads the architecture from a Hugging Face config.json (the whole file or the fields that
// matter) into a stack of layers. Supported model_types: those of hf_import.cpp (llama,
// mistral, mixtral, qwen2, qwen2_moe, qwen3, gemma, gemma2, phi3, deepseek_v2, deepseek_v3,
// gpt_neox, bloom, opt, falcon, gpt2, gpt_bigcode, bert, t5) and one table row each in
// hf_rows.cpp (Qwen3-MoE / Next / 3.5, gpt-oss, Llama 4, Gemma 3 / 3n / 4, Mistral 3,
// DeepSeek V3.2, GLM-4 / 4.5 / 5, MiniMax-M2, Granite 4.0-H, Nemotron-H, Falcon-H1, Jamba,
// SmolLM3, OLMo 2 / 3, Cohere 2, ERNIE 4.5, PhiMoE, Phi-4-multimodal, Hunyuan, EXAONE 4,
// Seed-OSS; docs/config.md lists the model_type strings). The quantization_config is recorded
// as the checkpoint's native format (ModelArch::native_*). Fields that look architectural but
// are not understood go to `warnings`.
ModelArch arch_from_hf_config(std::string_view json_text, std::vector<std::string>* warnings = nullptr);

// ---------------------------------------------------------------------------------------------
// Models for Config::model, built without writing configuration JSON. Each returns what the
// configuration's "model" key reads, so that config_to_json and share links write it back:
//   model_from_catalog("llama-3-8b")        == {"model": "llama-3-8b"}
//   model_from_hf_config(text)              == {"model": {"hf_config": <text>}}
//   model_from_parameter_count(7e9)         == {"model": {"num_parameters": 7e9}}
//   model_from_shape(shape)                 == {"model": {"hf_config": <a llama / mixtral config.json>}}
// Each throws Error naming the key ("hf_config.num_hidden_layers", "model.num_parameters", ...).
// ---------------------------------------------------------------------------------------------

// A dense or mixture-of-experts model given by its numbers, read as a Llama (experts == 0) or
// Mixtral config.json with these fields.
struct ModelShape {
    int layers = 32;              // num_hidden_layers
    int hidden = 4096;            // hidden_size
    int intermediate = 14336;     // intermediate_size (per expert for MoE)
    int heads = 32;               // num_attention_heads
    int kv_heads = 8;             // num_key_value_heads
    int vocab = 128256;           // vocab_size
    bool tied = false;            // tie_word_embeddings
    int experts = 0;              // num_local_experts; 0 = dense
    int experts_per_token = 2;    // num_experts_per_tok (MoE only)
    int max_context = 131072;     // max_position_embeddings
};

ModelSpec model_from_catalog(std::string id);                 // checked against the catalog by estimate()
ModelSpec model_from_hf_config(std::string_view json_text);   // a Hugging Face config.json's text
ModelSpec model_from_parameter_count(double num_parameters);  // a Llama-3-shaped dense model, 5e7 to 1e13
ModelSpec model_from_shape(const ModelShape& shape);
// Any value the configuration's "model" key reads, as JSON text: a catalog id in quotes, or an
// object ({"hf_config": ...}, {"num_parameters": N}, a Hub model, or a GGUF file a page read from
// the reader's disk: {"file": "x.gguf", "gguf_headers": {...}}, core/src/hub_model.cpp).
ModelSpec model_spec_from_json(std::string_view json_text);
// Whether `text` is a Hugging Face config.json rather than a configuration: a JSON object with
// `model_type` or `architectures` and without the configuration's `model`. Front ends open such
// a file or paste as the model (QA E6: it was refused naming its first field as an unknown key).
bool looks_like_hf_config(std::string_view text);

// A GPU that is not in the catalog, for Config::custom_gpu (with Config::gpu = kCustomGpuId), from
// the text of the configuration's "gpu" object ({"base": "rtx-4090", "tdp_w": 500}), and back.
// Throws Error naming the field ("gpu.memory_gib"); build_custom_gpu (gpusizer/custom_gpu.hpp)
// checks what needs the catalog (the base) and the required fields.
CustomGpu custom_gpu_from_json(std::string_view json_text);
std::string custom_gpu_to_json(const CustomGpu& spec, int indent = -1);

}  // namespace gpusizer
