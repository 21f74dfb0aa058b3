// ui/help_text.cpp: see help_text.hpp.
#include "help_text.hpp"

#include <cstdio>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/engine_versions.hpp"
#include "i18n.hpp"

namespace gpusizer::ui {

namespace {

const ConfigKey& key(const char* name) { return *find_config_key(name); }

// A key's meaning, its allowed values and its default, as plain sentences. The core's words (the
// key's meaning, values and default) stay English in every language: they name keys.
std::string key_help(const char* name, bool allowed = true) {
    const ConfigKey& k = key(name);
    std::string out = plain_text(k.meaning);
    if (allowed) out += ".\n\n" + strf(tr("Allowed: %s"), plain_text(key_allowed_doc(k)).c_str());
    const std::string dflt = key_default_doc(k);
    if (!dflt.empty()) out += ".\n\n" + strf(tr("Default: %s"), plain_text(dflt).c_str());
    return out + ".";
}

}   // namespace

std::string weights_help() { return key_help("weights"); }

std::string weight_format_help(const WeightFormat& f) {
    char bits[32];
    std::snprintf(bits, sizeof bits, "%.4g", f.bits);
    const char* line = f.family == WeightFamily::gguf ? tr("%s: %s, %s bits per weight in its main tensor type (llama.cpp gives some tensors more)")
                       : f.bits < 16                  ? tr("%s: %s, %s bits per weight before scales")
                                                      : tr("%s: %s, %s bits per weight");
    return strf(line, std::string(f.id).c_str(), std::string(to_string(f.group)).c_str(), localized_number(bits).c_str());
}

std::string kv_cache_help() { return key_help("kv_cache"); }

std::string runtime_help(Runtime selected) {
    std::string out = key_help("runtime", false);
    const std::vector<EngineVersionInfo> versions = engine_version_infos(selected);
    if (versions.empty()) return out;
    out += "\n\n" + strf(tr("%s versions (runtime_version; the app uses the default, a configuration or link may name any):"),
                         std::string(to_string(selected)).c_str());
    for (const EngineVersionInfo& v : versions) {
        const bool from = v.version != v.since;
        const char* line = v.is_default ? (from ? tr("%s, the default (from %s): %s") : tr("%s, the default: %s"))
                                        : (from ? tr("%s (from %s): %s") : "%s: %s");
        const std::string about = plain_text(v.about);
        out += "\n- " + (from ? strf(line, v.version.c_str(), v.since.c_str(), about.c_str()) : strf(line, v.version.c_str(), about.c_str()));
    }
    return out;
}

std::string gpu_share_help() { return strf(tr("vLLM's gpu_memory_utilization: %s"), key_help("gpu_memory_utilization", false).c_str()); }

std::string kv_share_help() {
    return strf(tr("TensorRT-LLM free_gpu_memory_fraction (--kv_cache_free_gpu_mem_fraction): the KV pool's share of the memory free after the weights and activations. Auto: %s."),
                plain_text(key_default_doc(key("free_gpu_memory_fraction"))).c_str());
}

}   // namespace gpusizer::ui
