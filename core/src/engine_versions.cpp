// engine_versions.cpp: the public view of the engine-version table (gpusizer/engine_versions.hpp):
// what help texts, docs/config.md and the app say of each version, written from its row in
// runtime_profiles.cpp. Apart from the estimate's code, so that builds without the help texts
// (the widget's WebAssembly module) leave it out.
#include "gpusizer/engine_versions.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime_profiles.hpp"

namespace gpusizer {

namespace {

using detail::EngineVersion;

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// What sets a row apart, from its columns: the KV budget, Ollama's context, llama.cpp's MLA
// cache and the engine's own time per step, after the row's hand-written qualifier.
std::string about_row(const EngineVersion& v) {
    std::vector<std::string> parts;
    if (*v.summary) parts.emplace_back(v.summary);
    switch (v.budget) {
        case detail::KvBudget::fit_margin:
            parts.push_back(v.fit_margin > 0 ? "`--fit`: " + number(v.fit_margin / detail::kGiB) + " GiB kept free per device"
                                             : std::string("nothing kept free"));
            break;
        case detail::KvBudget::total_fraction:
            parts.push_back("`gpu_memory_utilization` " + number(v.fraction));
            break;
        case detail::KvBudget::static_fraction:
            parts.emplace_back(v.sglang_reserve_by_load ? "`mem_fraction_static` from the reserve of the load (GPU memory, chunked prefill, CUDA graphs, "
                                                          "tp x pp, DP attention, speculative decoding)"
                                                        : "`mem_fraction_static` by GPU memory and tp x pp");
            break;
        case detail::KvBudget::free_fraction:
            parts.push_back("`free_gpu_memory_fraction` " + number(v.fraction) + " of what is free");
            break;
        case detail::KvBudget::whole_gpu:
            break;
    }
    if (v.ollama_context == detail::OllamaContext::vram_tiers)
        parts.push_back("default context by VRAM: " + std::to_string(detail::kOllamaContextSmall) + " under " +
                        number(detail::kOllamaVramMid / detail::kGiB) + " GiB, " + std::to_string(detail::kOllamaContextMid) + " under " +
                        number(detail::kOllamaVramLarge / detail::kGiB) + " GiB, else " + std::to_string(detail::kOllamaContextLarge));
    if (v.ollama_context == detail::OllamaContext::fixed) parts.push_back("default context " + std::to_string(v.fixed_context));
    switch (v.mla_cache) {
        case detail::MlaCache::latent:
            parts.emplace_back("MLA caches the latent only");
            break;
        case detail::MlaCache::latent_and_v:
            parts.emplace_back("MLA caches the latent and a second copy of it as V");
            break;
        case detail::MlaCache::per_head:
            parts.emplace_back("MLA as every head's K and V");
            break;
        case detail::MlaCache::engine_rule:
            break;
    }
    if (v.step_overhead_s > 0 || v.seq_overhead_s > 0)
        parts.push_back(number(v.step_overhead_s * 1e3) + " ms per step + " + number(v.seq_overhead_s * 1e6) +
                        " us per decoding request beyond the GPU's work");
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
    return out;
}

bool newer(const EngineVersion& a, const EngineVersion& b) {
    const auto va = detail::parse_version(a.since), vb = detail::parse_version(b.since);
    return va && vb && detail::compare_versions(*va, *vb) > 0;
}

}   // namespace

std::vector<Runtime> versioned_runtimes() {
    std::vector<Runtime> out;
    for (const EngineVersion& v : detail::all_engine_versions())
        if (std::find(out.begin(), out.end(), v.engine) == out.end()) out.push_back(v.engine);
    return out;
}

std::vector<EngineVersionInfo> engine_version_infos(Runtime engine) {
    std::vector<EngineVersionInfo> out;
    const EngineVersion* newest = nullptr;
    for (const EngineVersion& v : detail::all_engine_versions())
        if (v.engine == engine && (!newest || newer(v, *newest))) newest = &v;
    for (const EngineVersion& v : detail::all_engine_versions()) {
        if (v.engine != engine) continue;
        EngineVersionInfo i;
        i.engine = v.engine;
        i.version = v.version;
        i.since = v.since;
        i.about = about_row(v);
        i.fraction = v.fraction;
        i.is_default = out.empty();   // the first row of an engine (runtime_profiles.cpp)
        i.is_newest = &v == newest;
        out.push_back(std::move(i));
    }
    return out;
}

EngineVersionInfo default_engine_version(Runtime engine) {
    std::vector<EngineVersionInfo> all = engine_version_infos(engine);
    if (all.empty()) detail::engine_version(engine, "");   // throws: the runtime has no versions
    return all.front();
}

std::string_view runtime_version_rule() {
    return "A version without a profile of its own reads as the newest profile at or before it (one older than every "
           "profile as the oldest, a pre-release as its release): the report's `config.runtime_version` is the profile used, "
           "and a warning names the version given, the profile and why; `current` and `latest` read as the newest. Versions "
           "compare by their numbers: `0.30`, `v0.30.1`, `0.30.1-rc2`, `1.0.0rc3`, a llama.cpp build `b7539` or `7539`";
}

std::string plain_text(std::string_view markdown) {
    std::string out;
    out.reserve(markdown.size());
    for (char c : markdown)
        if (c != '`') out += c;
    return out;
}

}   // namespace gpusizer
