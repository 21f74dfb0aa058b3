// ui/help_text.hpp: the app's tooltips for the controls whose choices live in the core's tables
// (weight and KV formats, runtimes and their versions, vLLM's GPU share). Written from those
// tables through the public API (gpusizer/config_keys.hpp, precision.hpp, engine_versions.hpp),
// so that they list what the estimate accepts and the defaults it uses; plain text, no ImGui.
#pragma once

#include <string>

#include "gpusizer/config.hpp"
#include "gpusizer/precision.hpp"

namespace gpusizer::ui {

std::string weights_help();   // what `weights` means and every format, by group
std::string weight_format_help(const WeightFormat& f);   // one format: its group and bits per weight
std::string kv_cache_help();   // every KV format, and the default
std::string runtime_help(Runtime selected);   // what runs the model; the versions of `selected`
std::string gpu_share_help();   // vLLM's gpu_memory_utilization and its default by version
std::string kv_share_help();   // TensorRT-LLM's free_gpu_memory_fraction and its default

}   // namespace gpusizer::ui
