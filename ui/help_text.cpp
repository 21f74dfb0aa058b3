// ui/help_text.cpp: see help_text.hpp.
#include "help_text.hpp"

#include <cstdio>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/engine_versions.hpp"

namespace gpusizer::ui {

namespace {

const ConfigKey& key(const char* name) { return *find_config_key(name); }

// A key's meaning, its allowed values and its default, as plain sentences.
std::string key_help(const char* name, bool allowed = true) {
    const ConfigKey& k = key(name);
    std::string out = plain_text(k.meaning);
    if (allowed) out += ".\n\nAllowed: " + plain_text(key_allowed_doc(k));
    const std::string dflt = key_default_doc(k);
    if (!dflt.empty()) out += ".\n\nDefault: " + plain_text(dflt);
    return out + ".";
}

}   // namespace

std::string weights_help() { return key_help("weights"); }

std::string weight_format_help(const WeightFormat& f) {
    char bits[64];
    std::snprintf(bits, sizeof bits, "%.4g bits per weight", f.bits);
    std::string out = std::string(f.id) + ": " + std::string(to_string(f.group)) + ", " + bits;
    if (f.family == WeightFamily::gguf)
        out += " in its main tensor type (llama.cpp gives some tensors more)";
    else if (f.bits < 16)
        out += " before scales";
    return out;
}

std::string kv_cache_help() { return key_help("kv_cache"); }

std::string runtime_help(Runtime selected) {
    std::string out = key_help("runtime", false);
    const std::vector<EngineVersionInfo> versions = engine_version_infos(selected);
    if (versions.empty()) return out;
    out += "\n\n" + std::string(to_string(selected)) +
           " versions (runtime_version; the app uses the default, a configuration or link "
           "may name any):";
    for (const EngineVersionInfo& v : versions)
        out += "\n- " + v.version + (v.is_default ? ", the default" : "") + (v.version == v.since ? "" : " (from " + v.since + ")") + ": " +
               plain_text(v.about);
    return out;
}

std::string gpu_share_help() { return "vLLM's gpu_memory_utilization: " + key_help("gpu_memory_utilization", false); }

std::string kv_share_help() {
    return "TensorRT-LLM free_gpu_memory_fraction (--kv_cache_free_gpu_mem_fraction): the KV pool's share of the memory free after "
           "the weights and activations. Auto: " +
           plain_text(key_default_doc(key("free_gpu_memory_fraction"))) + ".";
}

}   // namespace gpusizer::ui
