// test_ui_help.cpp: the app's tooltips for the format, KV, runtime and share controls list what
// the core's tables hold (ui/help_text.cpp), as --help and docs/config.md do (test_help_tables).
#include <catch2/catch.hpp>

#include "gpusizer/gpusizer.hpp"
#include "help_text.hpp"

using namespace gpusizer;

TEST_CASE("the weights tooltip names every format, each format's tooltip its bits", "[ui][help]") {
    const std::string help = ui::weights_help();
    CHECK(help.find("native") != std::string::npos);
    CHECK(help.find('`') == std::string::npos);   // plain text, no Markdown marks
    for (const WeightFormat& f : weight_formats()) {
        INFO(f.id);
        CHECK(help.find(std::string(f.id)) != std::string::npos);
        CHECK(ui::weight_format_help(f).rfind(std::string(f.id) + ": " + std::string(to_string(f.group)), 0) == 0);
    }
    // Q4_K_M: Q4_K's 144 bytes per 256 weights = 4.5 bits (ggml-common.h), more in some tensors.
    CHECK(ui::weight_format_help(weight_format("q4_k_m")) ==
          "q4_k_m: GGUF K-quants, 4.5 bits per weight in its main tensor type (llama.cpp gives some tensors more)");
    CHECK(ui::weight_format_help(weight_format("int4")) == "int4: GPTQ / AWQ, 4 bits per weight before scales");
}

TEST_CASE("the KV cache tooltip names every KV format and the default", "[ui][help]") {
    const std::string help = ui::kv_cache_help();
    for (const KvFormat& f : kv_formats()) {
        INFO(f.id);
        CHECK(help.find(std::string(f.id)) != std::string::npos);
    }
    CHECK(help.find("Default: bf16 with bf16 weights") != std::string::npos);
}

TEST_CASE("the runtime tooltip lists the chosen engine's versions, the shares their defaults", "[ui][help]") {
    for (Runtime engine : versioned_runtimes()) {
        const std::string help = ui::runtime_help(engine);
        for (const EngineVersionInfo& v : engine_version_infos(engine)) {
            INFO(v.version);
            CHECK(help.find("\n- " + v.version) != std::string::npos);
        }
        CHECK(help.find(default_engine_version(engine).version + ", the default") != std::string::npos);
    }
    CHECK(ui::runtime_help(Runtime::pytorch).find("versions") == std::string::npos);   // no versions to list
    // vLLM's share: 0.9 for the default 0.10, 0.92 for current (runtime_profiles.cpp).
    const std::string share = ui::gpu_share_help();
    for (const EngineVersionInfo& v : engine_version_infos(Runtime::vllm)) {
        char text[64];
        std::snprintf(text, sizeof text, "%g for ", v.fraction);
        CHECK(share.find(std::string(text)) != std::string::npos);
    }
    CHECK(share.find("0.9 for vllm 0.10 (the default), 0.92 for current") != std::string::npos);
    CHECK(ui::kv_share_help().find("Auto: the runtime_version's: 0.9 for trt-llm 1.0 (the default)") != std::string::npos);
}
