// gpusizer/launch.hpp: the command that runs what an estimate sized, in the engine's own words
// (llama-server, vllm serve, SGLang's launch_server, ollama serve, trtllm-serve), with every value
// the estimate assumed: context, slots or sequences, parallel degrees, memory fraction, KV cache
// type, GPU layers. Pure functions of the Report; the flags by engine and version, with their
// sources, are the table in core/src/launch/launch_command.cpp (docs/launch.md lists them).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer {

// The engines that have a launch command, in report order: vllm, llama.cpp, sglang, ollama, trt-llm.
const std::vector<Runtime>& launch_engines();
// The report's key under "launch": vllm, llama_cpp, sglang, ollama, trt_llm (a public contract).
std::string_view launch_key(Runtime engine);
// `--emit ENGINE`: vllm, llama-cpp / llama_cpp / llama.cpp, sglang, ollama, trt-llm / trt_llm.
// Throws Error(key, ...) naming the allowed values (key: the flag or argument that gave it).
Runtime parse_launch_engine(std::string_view name, const char* key = "emit");

// The command for `engine` ("" when it cannot run the configuration: launch_refusal says why).
// The configuration's own engine takes every value the estimate resolved (its memory fraction,
// its cap on sequences); another engine takes the values the configuration shares (model, context,
// slots, parallel degrees, KV type) and leaves its own fraction and cap at the engine's default
// unless the configuration gives them, at that engine's default version. Placeholders (a GGUF file
// the catalog does not name, a quantized checkpoint) are explained in shell comments (`# ...`)
// on the lines before the command.
std::string launch_command(const Report& report, Runtime engine);
// Why `engine` cannot run the configuration, for messages ("" when it can).
std::string launch_refusal(const Report& report, Runtime engine);
// Every engine that can run it: the configuration's runtime first, then the others in
// launch_engines() order. Empty for the training modes (no serving engine trains).
std::vector<std::pair<Runtime, std::string>> launch_commands(const Report& report);

// `text` as one shell word: unchanged when it holds only characters no shell treats specially,
// else in single quotes (a quote inside written '\'').
std::string shell_quote(std::string_view text);

}   // namespace gpusizer
