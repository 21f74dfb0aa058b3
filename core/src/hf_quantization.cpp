// hf_quantization.cpp: the checkpoint's own storage format from a Hugging Face config.json:
// `dtype` / `torch_dtype` and `quantization_config` (MXFP4, FP8 blocks, compressed-tensors, GPTQ,
// AWQ, bitsandbytes, ModelOpt) into ModelArch::native_*.
//
// [SECTION] Native storage format: the helpers
// [SECTION] Native storage format (public): read_native_format, declared in hf_families.hpp
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "hf_families.hpp"
#include "hf_families_internal.hpp"

namespace gpusizer {

using nlohmann::json;
using hf::first_int;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Native storage format
// ---------------------------------------------------------------------------------------------

void take_modules(const json& qc, const char* key, ModelArch& a) {
    auto it = qc.find(key);
    if (it == qc.end() || !it->is_array()) return;
    for (const json& m : *it)
        if (m.is_string()) a.native_unquantized_modules.push_back(m.get<std::string>());
}

// compressed-tensors: config_groups.<g>.weights {num_bits, type, group_size, strategy}.
void read_compressed_tensors(const json& qc, ModelArch& a, std::vector<std::string>* warnings) {
    take_modules(qc, "ignore", a);
    auto groups = qc.find("config_groups");
    if (groups == qc.end() || !groups->is_object() || groups->empty()) {
        if (warnings) warnings->push_back("hf_config.quantization_config: compressed-tensors without config_groups: format not recorded");
        return;
    }
    const json& g = groups->begin().value();
    const json w = g.is_object() && g.contains("weights") ? g["weights"] : json::object();
    const long long bits = first_int(w, {"num_bits"}, 0);
    const std::string type = w.contains("type") && w["type"].is_string() ? w["type"].get<std::string>() : "int";
    const long long group = first_int(w, {"group_size"}, 0);
    a.native_group_size = int(group);
    if (type == "float" && bits == 8) a.native_format = "fp8";
    else if (type == "float" && bits == 4) a.native_format = group == 16 ? "nvfp4" : "mxfp4";   // NVFP4: groups of 16, MXFP4: 32
    else if (type == "int" && bits == 8) a.native_format = "int8";
    else if (type == "int" && bits == 4) a.native_format = "int4";
    else if (warnings)
        warnings->push_back("hf_config.quantization_config: compressed-tensors " + type + " " + std::to_string(bits) +
                            "-bit weights are not a format gpusizer sizes");
    if (groups->size() > 1 && warnings)
        warnings->push_back("hf_config.quantization_config: " + std::to_string(groups->size()) +
                            " config_groups; the first one's scheme is recorded");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Native storage format (public)
// ---------------------------------------------------------------------------------------------

void read_native_format(const json& config, ModelArch& a, std::vector<std::string>* warnings) {
    for (const char* k : {"dtype", "torch_dtype"}) {
        auto it = config.find(k);
        if (it != config.end() && it->is_string()) {
            a.native_dtype = it->get<std::string>();
            break;
        }
    }
    auto qit = config.find("quantization_config");
    if (qit == config.end()) qit = config.find("compression_config");
    if (qit == config.end() || qit->is_null()) return;
    if (!qit->is_object()) throw_error("hf_config.quantization_config", "must be an object, got " + qit->dump());
    const json& qc = *qit;
    std::string method = qc.contains("quant_method") && qc["quant_method"].is_string() ? qc["quant_method"].get<std::string>() : "";
    if (method.empty() && qc.contains("config_groups")) method = "compressed-tensors";
    a.native_method = method;
    if (method == "mxfp4") {
        // gpt-oss: FP4 E2M1 in blocks of 32 with one E8M0 scale (OCP MX spec): 4.25 bits.
        a.native_format = "mxfp4";
        a.native_group_size = 32;
        take_modules(qc, "modules_to_not_convert", a);
    } else if (method == "fp8") {
        // DeepSeek / Qwen FP8: e4m3 with one scale per weight_block_size tile ([128, 128]).
        a.native_format = "fp8";
        auto b = qc.find("weight_block_size");
        if (b != qc.end() && b->is_array() && b->size() == 2) {
            const json rows_cols = {{"r", (*b)[0]}, {"c", (*b)[1]}};
            a.native_group_size = int(first_int(rows_cols, {"r"}, 0) * first_int(rows_cols, {"c"}, 0) <= (1LL << 30)
                                          ? first_int(rows_cols, {"r"}, 0) * first_int(rows_cols, {"c"}, 0) : 0);
        }
        take_modules(qc, "modules_to_not_convert", a);
    } else if (method == "compressed-tensors") {
        read_compressed_tensors(qc, a, warnings);
    } else if (method == "gptq" || method == "awq") {
        // AutoGPTQ / AutoAWQ: bits (AWQ also w_bit) with group_size (AWQ q_group_size).
        const long long bits = first_int(qc, {"bits", "w_bit"}, 4);
        a.native_group_size = int(first_int(qc, {"group_size", "q_group_size"}, 128));
        if (bits == 4) a.native_format = "int4";
        else if (bits == 8) a.native_format = "int8";
        else if (warnings)
            warnings->push_back("hf_config.quantization_config: " + method + " with " + std::to_string(bits) +
                                " bits is not a format gpusizer sizes");
        take_modules(qc, "modules_to_not_convert", a);
    } else if (method == "bitsandbytes") {
        const bool four = qc.value("load_in_4bit", false);
        const bool eight = qc.value("load_in_8bit", false);
        if (four) {
            // bnb_4bit_quant_type "nf4" or "fp4", blocks of 64 (bitsandbytes quantize_4bit).
            const std::string t = qc.contains("bnb_4bit_quant_type") && qc["bnb_4bit_quant_type"].is_string()
                                      ? qc["bnb_4bit_quant_type"].get<std::string>() : "fp4";
            a.native_format = t == "nf4" ? "nf4" : "fp4";
            a.native_group_size = 64;
            a.native_double_quant = qc.value("bnb_4bit_use_double_quant", false);
        } else if (eight) {
            a.native_format = "int8";
        }
        take_modules(qc, "llm_int8_skip_modules", a);
    } else if (method == "modelopt") {
        // NVIDIA ModelOpt: quant_algo "NVFP4" (groups of 16) or "FP8".
        const std::string algo = qc.contains("quant_algo") && qc["quant_algo"].is_string() ? qc["quant_algo"].get<std::string>() : "";
        if (algo == "NVFP4") {
            a.native_format = "nvfp4";
            a.native_group_size = int(first_int(qc, {"group_size"}, 16));
        } else if (algo == "FP8") {
            a.native_format = "fp8";
        } else if (warnings) {
            warnings->push_back("hf_config.quantization_config: modelopt quant_algo '" + algo + "' is not a format gpusizer sizes");
        }
        take_modules(qc, "exclude_modules", a);
    } else if (warnings) {
        warnings->push_back("hf_config.quantization_config: quant_method '" + method +
                            "' is not understood; the weights are sized from the chosen format only");
    }
}

}  // namespace gpusizer
