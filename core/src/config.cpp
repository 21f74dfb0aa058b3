// config.cpp: names of the configuration's enum values, as JSON, links and the CLI spell them.
#include "gpusizer/config.hpp"

#include <array>
#include <string>
#include <utility>

#include "gpusizer/error.hpp"

namespace gpusizer {

namespace {

template <typename E, std::size_t N>
using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<Mode, 4> kModes{{{Mode::inference, "inference"}, {Mode::train, "train"}, {Mode::lora, "lora"}, {Mode::qlora, "qlora"}}};
constexpr Names<Optimizer, 4> kOptimizers{{{Optimizer::adamw, "adamw"}, {Optimizer::adamw_8bit, "adamw_8bit"},
                                           {Optimizer::sgd, "sgd"}, {Optimizer::adafactor, "adafactor"}}};
constexpr Names<Offload, 3> kOffloads{
    {{Offload::none, "none"}, {Offload::optimizer, "optimizer"}, {Offload::optimizer_params, "optimizer+params"}}};
constexpr Names<Recompute, 4> kRecomputes{
    {{Recompute::automatic, "auto"}, {Recompute::none, "none"}, {Recompute::selective, "selective"}, {Recompute::full, "full"}}};
constexpr Names<Runtime, 8> kRuntimes{{{Runtime::automatic, "auto"}, {Runtime::none, "none"}, {Runtime::pytorch, "pytorch"},
                                       {Runtime::llama_cpp, "llama.cpp"}, {Runtime::vllm, "vllm"}, {Runtime::sglang, "sglang"},
                                       {Runtime::trt_llm, "trt-llm"}, {Runtime::ollama, "ollama"}}};
constexpr Names<PipeSchedule, 4> kSchedules{{{PipeSchedule::one_f_one_b, "1f1b"}, {PipeSchedule::interleaved, "interleaved"},
                                            {PipeSchedule::zero_bubble, "zero_bubble"}, {PipeSchedule::dualpipe, "dualpipe"}}};
constexpr Names<Fp8Training, 3> kFp8Trainings{{{Fp8Training::none, "none"}, {Fp8Training::tensorwise, "tensorwise"},
                                               {Fp8Training::blockwise, "blockwise"}}};
constexpr Names<TrainingFramework, 6> kFrameworks{{{TrainingFramework::megatron, "megatron"},
                                                   {TrainingFramework::nemo, "nemo"},
                                                   {TrainingFramework::torchtitan, "torchtitan"},
                                                   {TrainingFramework::fsdp, "fsdp"},
                                                   {TrainingFramework::deepspeed, "deepspeed"},
                                                   {TrainingFramework::hf_trainer, "hf_trainer"}}};

template <typename E, std::size_t N>
std::string_view name_of(const Names<E, N>& names, E v) {
    for (const auto& [e, s] : names)
        if (e == v) return s;
    return "?";
}

template <typename E, std::size_t N>
std::string list_of(const Names<E, N>& names) {
    std::string out;
    for (const auto& [e, s] : names) out += (out.empty() ? "" : ", ") + std::string(s);
    return out;
}

template <typename E, std::size_t N>
E parse_of(const Names<E, N>& names, std::string_view s, const char* key) {
    for (const auto& [e, n] : names)
        if (n == s) return e;
    throw_error(key, "unknown value '" + std::string(s) + "'; allowed: " + list_of(names));
}

struct TargetName { unsigned bit; std::string_view short_name, hf_name; };
constexpr std::array<TargetName, 7> kTargets{{
    {kLoraQ, "q", "q_proj"}, {kLoraK, "k", "k_proj"}, {kLoraV, "v", "v_proj"}, {kLoraO, "o", "o_proj"},
    {kLoraGate, "gate", "gate_proj"}, {kLoraUp, "up", "up_proj"}, {kLoraDown, "down", "down_proj"},
}};

}  // namespace

std::string_view to_string(Mode v) { return name_of(kModes, v); }
std::string_view to_string(Optimizer v) { return name_of(kOptimizers, v); }
std::string_view to_string(Offload v) { return name_of(kOffloads, v); }
std::string_view to_string(Recompute v) { return name_of(kRecomputes, v); }
std::string_view to_string(Runtime v) { return name_of(kRuntimes, v); }
std::string_view to_string(PipeSchedule v) { return name_of(kSchedules, v); }

Mode parse_mode(std::string_view s) { return parse_of(kModes, s, "mode"); }
PipeSchedule parse_pp_schedule(std::string_view s) { return parse_of(kSchedules, s, "pp_schedule"); }
std::string_view to_string(Fp8Training v) { return name_of(kFp8Trainings, v); }
Fp8Training parse_fp8_training(std::string_view s) { return parse_of(kFp8Trainings, s, "fp8_training"); }
std::string_view to_string(TrainingFramework v) { return name_of(kFrameworks, v); }
TrainingFramework parse_training_framework(std::string_view s) { return parse_of(kFrameworks, s, "training_framework"); }
Optimizer parse_optimizer(std::string_view s) { return parse_of(kOptimizers, s, "optimizer"); }
Offload parse_offload(std::string_view s) { return parse_of(kOffloads, s, "offload"); }
Recompute parse_recompute(std::string_view s) { return parse_of(kRecomputes, s, "recompute"); }
Runtime parse_runtime(std::string_view s) {
    if (s == "llamacpp" || s == "llama_cpp") return Runtime::llama_cpp;   // spellings people type
    if (s == "tensorrt-llm" || s == "trtllm" || s == "trt_llm") return Runtime::trt_llm;
    return parse_of(kRuntimes, s, "runtime");
}

unsigned parse_lora_target(std::string_view s) {
    if (s == "all-linear" || s == "all_linear" || s == "all") return kLoraAllLinear;
    for (const auto& t : kTargets)
        if (s == t.short_name || s == t.hf_name) return t.bit;
    std::string allowed = "all-linear";
    for (const auto& t : kTargets) allowed += ", " + std::string(t.hf_name);
    throw_error("lora_targets", "unknown module '" + std::string(s) + "'; allowed: " + allowed);
}

std::vector<std::string> lora_target_names(unsigned targets) {
    std::vector<std::string> out;
    for (const auto& t : kTargets)
        if (targets & t.bit) out.emplace_back(t.hf_name);
    return out;
}

std::string allowed_values(std::string_view key) {
    if (key == "mode") return list_of(kModes);
    if (key == "optimizer") return list_of(kOptimizers);
    if (key == "offload") return list_of(kOffloads);
    if (key == "recompute") return list_of(kRecomputes);
    if (key == "runtime") return list_of(kRuntimes);
    if (key == "pp_schedule") return list_of(kSchedules);
    if (key == "fp8_training") return list_of(kFp8Trainings);
    if (key == "training_framework") return list_of(kFrameworks);
    return {};
}

std::vector<std::string> split_names(std::string_view list) {
    std::vector<std::string> out;
    for (std::size_t p = 0; p < list.size();) {
        const std::size_t comma = std::min(list.find(", ", p), list.size());
        out.emplace_back(list.substr(p, comma - p));
        p = comma + 2;
    }
    return out;
}

}  // namespace gpusizer
