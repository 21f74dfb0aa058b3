// gpusizer/engine_versions.hpp: the engine versions the estimate models (`runtime_version`), for
// help texts, docs/config.md and the app, read from the table the estimate itself uses
// (core/src/runtime_profiles.cpp), so that what they say cannot drift from what it does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/config.hpp"

namespace gpusizer {

// One modelled version of a serving engine.
struct EngineVersionInfo {
    Runtime engine = Runtime::automatic;
    std::string version;   // the runtime_version label: "current", "b7539", "0.30"
    std::string since;   // the first release it describes: "b7847", "0.30"
    // What sets it apart, in Markdown (`code` marks), written from its row: the KV budget
    // ("`gpu_memory_utilization` 0.92", "`--fit`: 1 GiB kept free per device"), Ollama's default
    // context, llama.cpp's MLA cache, the engine's own time per step.
    std::string about;
    double fraction = 0;   // the default vLLM gpu_memory_utilization / TensorRT-LLM free_gpu_memory_fraction (0: none)
    bool is_default = false;   // used when runtime_version is not given
    bool is_newest = false;   // what "current" / "latest" reads as
};

// The runtimes that have versions, in the table's order: llama.cpp, ollama, vllm, sglang, trt-llm.
std::vector<Runtime> versioned_runtimes();
// An engine's versions, its default first (empty for pytorch, none and auto).
std::vector<EngineVersionInfo> engine_version_infos(Runtime engine);
// The version used when runtime_version is not given (throws Error("runtime_version") for a
// runtime without versions).
EngineVersionInfo default_engine_version(Runtime engine);

// How runtime_version is read, in one sentence for docs and help ("A version without a profile of
// its own reads as ...").
std::string_view runtime_version_rule();

// Markdown to plain text: `code` marks dropped ("`--fit`" -> "--fit"), for the CLI and tooltips.
std::string plain_text(std::string_view markdown);

}   // namespace gpusizer
