// test_runtime_version.cpp: runtime_version as people write it: the forms it reads, the profile
// each version gets (its own, else the newest at or before it), the warning that says so, and
// the JSON, link and CLI forms. The profiles' boundaries are runtime_profiles.cpp's `since`.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "runtime_profiles.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using gpusizer::detail::compare_versions;
using gpusizer::detail::parse_version;
using gpusizer::detail::VersionNumber;

namespace {

// The numbers a version reads as, and whether it is a pre-release.
struct Read {
    std::vector<long long> parts;
    bool pre_release;
};

Read read(const char* text) {
    const std::optional<VersionNumber> v = parse_version(text);
    REQUIRE(v);
    return {std::vector<long long>(v->parts, v->parts + v->count), v->pre_release};
}

// The warnings of an estimate that speak of runtime_version.
std::vector<std::string> version_warnings(const Report& r) {
    std::vector<std::string> out;
    for (const std::string& w : r.warnings)
        if (w.rfind("runtime_version", 0) == 0) out.push_back(w);
    return out;
}

Config with_version(Runtime engine, const char* version) {
    Config c =
        engine == Runtime::ollama || engine == Runtime::llama_cpp ? config("llama-3.1-8b", "rtx-4090") : config("llama-3-8b", "h100-sxm");
    if (engine == Runtime::ollama || engine == Runtime::llama_cpp) c.weights = "q4_k_m";
    c.runtime = engine;
    c.runtime_version = version;
    return c;
}

// The profile a version reads as, and its warning ("" when none).
std::pair<std::string, std::string> profile_of(Runtime engine, const char* version) {
    const Report r = run(with_version(engine, version));
    const std::vector<std::string> w = version_warnings(r);
    REQUIRE(w.size() <= 1);
    return {r.config.runtime_version, w.empty() ? std::string() : w.front()};
}

}   // namespace

TEST_CASE("runtime_version: the forms people write read as their numbers", "[runtime_version]") {
    CHECK(read("0.30").parts == std::vector<long long>{0, 30});
    CHECK(read("v0.30.1").parts == std::vector<long long>{0, 30, 1});   // a git tag
    CHECK(read("b7539").parts == std::vector<long long>{7539});   // a llama.cpp build...
    CHECK(read("7539").parts == std::vector<long long>{7539});   // ...as llama-server --version prints it
    CHECK(read("1.1").parts == std::vector<long long>{1, 1});
    CHECK(read(" V0.30 ").parts == std::vector<long long>{0, 30});   // case and spaces do not matter
    // Pre-releases: the release's numbers, marked.
    CHECK(read("0.30.1-rc2").parts == std::vector<long long>{0, 30, 1});
    CHECK(read("0.30.1-rc2").pre_release);
    CHECK(read("1.0.0rc3").parts == std::vector<long long>{1, 0, 0});   // TensorRT-LLM's spelling
    CHECK(read("1.0.0rc3").pre_release);
    CHECK(read("0.11.0.dev0").pre_release);
    // Build metadata and post-releases are the release itself.
    CHECK(!read("0.10.1+cu128").pre_release);
    CHECK(!read("0.10.1.post1").pre_release);
    CHECK(read("0.10.1.post1").parts == std::vector<long long>{0, 10, 1});
    CHECK(!read("0.30").pre_release);
    // Not versions.
    for (const char* bad : {"banana", "-1", "-0.30", "", "v", "b", "1.2.3.4.5", "0.30x", "1..2", "0.30 beta", "9999999999", "current"}) {
        INFO(bad);
        CHECK(!parse_version(bad));
    }
    // Compared number by number, not as text or as a decimal: 0.9 < 0.10 < 0.30, 0.30 = 0.30.0.
    CHECK(compare_versions(*parse_version("0.9"), *parse_version("0.10")) < 0);
    CHECK(compare_versions(*parse_version("0.10"), *parse_version("0.30")) < 0);
    CHECK(compare_versions(*parse_version("0.30"), *parse_version("0.30.0")) == 0);
    CHECK(compare_versions(*parse_version("b7847"), *parse_version("7846")) > 0);
}

TEST_CASE("runtime_version: every profile's `since` is a version and numbered labels are their own since", "[runtime_version]") {
    for (const detail::EngineVersion& v : detail::all_engine_versions()) {
        INFO(to_string(v.engine) << " " << v.version);
        REQUIRE(parse_version(v.since));
        if (std::string_view(v.version) != "current") CHECK(std::string(v.version) == v.since);
        // A label reads as itself, without a warning.
        const detail::EngineVersionReading r = detail::read_engine_version(v.engine, v.version);
        CHECK(r.row == &v);
        CHECK(r.note.empty());
    }
}

TEST_CASE("runtime_version: an exact profile has no warning, another version reads as the nearest", "[runtime_version][ollama]") {
    // Ollama's rows: 0.5, 0.15.5, 0.30 (runtime_profiles.cpp).
    CHECK(profile_of(Runtime::ollama, "0.30") == std::make_pair(std::string("0.30"), std::string()));
    CHECK(profile_of(Runtime::ollama, "v0.30.0") == std::make_pair(std::string("0.30"), std::string()));   // the same release
    CHECK(profile_of(Runtime::ollama, "") == std::make_pair(std::string("0.30"), std::string()));   // the default
    // Newer than every row: the newest at or before it, and the warning says which and why.
    CHECK(profile_of(Runtime::ollama, "0.31.2") ==
          std::make_pair(std::string("0.30"),
                         std::string("runtime_version 0.31.2: no profile of its own; read as 0.30 (the newest profile at or before it)")));
    // Between two rows: the older one. 0.29.9 is before 0.30, at or after 0.15.5.
    CHECK(profile_of(Runtime::ollama, "0.29.9").first == "0.15.5");
    CHECK(profile_of(Runtime::ollama, "0.15.5").second.empty());
    CHECK(profile_of(Runtime::ollama, "0.15.4").first == "0.5");
    CHECK(profile_of(Runtime::ollama, "0.6.8").first == "0.5");   // 6 < 15: numbers, not text
    // Older than every row: the oldest.
    CHECK(
        profile_of(Runtime::ollama, "0.4") ==
        std::make_pair(std::string("0.5"), std::string("runtime_version 0.4: older than every ollama profile; read as 0.5 (the oldest)")));
    // A pre-release of a profiled release reads as it, and says so.
    CHECK(profile_of(Runtime::ollama, "0.30.0-rc32") ==
          std::make_pair(std::string("0.30"),
                         std::string("runtime_version 0.30.0-rc32: a pre-release; read as 0.30 (the profile of its release)")));
    // "latest" is the newest row; Ollama's is numbered, so the note says it is only the newest modelled.
    CHECK(profile_of(Runtime::ollama, "latest") ==
          std::make_pair(std::string("0.30"), std::string("runtime_version latest: read as 0.30, the newest ollama profile")));
}

TEST_CASE("runtime_version: llama.cpp builds, vLLM, SGLang and TensorRT-LLM at their boundaries", "[runtime_version]") {
    // llama.cpp: b4840, b7539, current from b7847 (the first build known to cache MLA's latent only).
    CHECK(profile_of(Runtime::llama_cpp, "b7539") == std::make_pair(std::string("b7539"), std::string()));
    CHECK(profile_of(Runtime::llama_cpp, "7539") == std::make_pair(std::string("b7539"), std::string()));   // the same build
    CHECK(profile_of(Runtime::llama_cpp, "b7846").first == "b7539");
    CHECK(profile_of(Runtime::llama_cpp, "b7847") ==
          std::make_pair(std::string("current"),
                         std::string("runtime_version b7847: no profile of its own; read as current (from b7847; the newest profile "
                                     "at or before it)")));
    CHECK(profile_of(Runtime::llama_cpp, "b9452").first == "current");
    CHECK(profile_of(Runtime::llama_cpp, "b4839").first == "b4840");   // older than every row: the oldest
    CHECK(profile_of(Runtime::llama_cpp, "latest") == std::make_pair(std::string("current"), std::string()));
    CHECK(profile_of(Runtime::llama_cpp, "Current") == std::make_pair(std::string("current"), std::string()));
    // vLLM: 0.10 (the default, the 0.10-0.11 line), 0.21 (CUDA graphs profiled into the budget),
    // current from 0.25, and 0.6 (V0 and V1 before 0.10).
    CHECK(profile_of(Runtime::vllm, "") == std::make_pair(std::string("0.10"), std::string()));
    CHECK(profile_of(Runtime::vllm, "0.11.1").first == "0.10");
    CHECK(profile_of(Runtime::vllm, "0.20.2").first == "0.10");
    CHECK(profile_of(Runtime::vllm, "0.24.9").first == "0.21");
    CHECK(profile_of(Runtime::vllm, "0.25.0").first == "current");
    CHECK(profile_of(Runtime::vllm, "v0.30.0").first == "current");
    CHECK(profile_of(Runtime::vllm, "0.9.2").first == "0.6");
    CHECK(profile_of(Runtime::vllm, "0.5.4").first == "0.6");   // older than every row: the oldest
    // The profile read is the one used: vLLM 0.30.0 gets current's utilization, 0.92.
    CHECK(run(with_version(Runtime::vllm, "0.30.0")).config.gpu_memory_utilization == 0.92);
    CHECK(run(with_version(Runtime::vllm, "0.11.1")).config.gpu_memory_utilization == 0.9);
    // SGLang: 0.5.3 (PR 10975's reserve) and 0.4.8 before it. TensorRT-LLM: 1.0 and 0.5 (TensorRT engines).
    CHECK(profile_of(Runtime::sglang, "0.5.20").first == "0.5.3");
    CHECK(profile_of(Runtime::sglang, "0.5.2").first == "0.4.8");
    CHECK(profile_of(Runtime::trt_llm, "0.17.0.post1").first == "0.5");
    CHECK(profile_of(Runtime::trt_llm, "1.1") ==
          std::make_pair(std::string("1.0"),
                         std::string("runtime_version 1.1: no profile of its own; read as 1.0 (the newest profile at or before it)")));
    CHECK(profile_of(Runtime::trt_llm, "1.0.0rc3") ==
          std::make_pair(std::string("1.0"),
                         std::string("runtime_version 1.0.0rc3: a pre-release; read as 1.0 (the profile of its release)")));
}

TEST_CASE("runtime_version: garbage is refused with what a version looks like and the profiles", "[runtime_version][bad-input]") {
    for (const char* bad : {"banana", "-1", "0.30x", "llama.cpp"}) {
        INFO(bad);
        const std::string m = thrown_message([&] { run(with_version(Runtime::ollama, bad)); });
        CHECK(m.find("runtime_version") != std::string::npos);
        CHECK(m.find("is not a version of ollama") != std::string::npos);
        CHECK(m.find("v0.30.1") != std::string::npos);   // what one looks like
        CHECK(m.find("b7539") != std::string::npos);
        CHECK(m.find("0.30, 0.15.5, 0.5") != std::string::npos);   // the profiles
    }
    // A runtime without versions still refuses one.
    Config c = with_version(Runtime::vllm, "0.30");
    c.runtime = Runtime::pytorch;
    CHECK_THROWS_WITH(run(c), Catch::Contains("runtime_version") && Catch::Contains("has no versions"));
}

TEST_CASE("runtime_version: the report names the profile, the configuration keeps the text", "[runtime_version][link][cli]") {
    const Config c = config_from_json(
        R"({"model": "llama-3.1-8b", "gpu": "rtx-4090", "weights": "q4_k_m", "runtime": "ollama", "runtime_version": "0.31.2"})");
    CHECK(c.runtime_version == "0.31.2");
    const Report r = run(c);
    CHECK(r.config.runtime_version == "0.30");
    CHECK(version_warnings(r).size() == 1);
    // The report's JSON: config.runtime_version is the profile; its warnings carry the given text.
    const nlohmann::json j = nlohmann::json::parse(report_to_json(r));
    CHECK(j["config"]["runtime_version"] == "0.30");
    CHECK(j["warnings"].dump().find("runtime_version 0.31.2") != std::string::npos);
    // A share link carries the text as given and reads back to the same report.
    const std::string link = link_from_config(c);
    CHECK(link.find("rv=0.31.2") != std::string::npos);
    CHECK(report_to_json(run(config_from_link(link))) == report_to_json(r));
    // The report's configuration, given again, is the profile itself: same figures, no warning.
    const Report again = run(config_from_json(j["config"].dump()));
    CHECK(version_warnings(again).empty());
    CHECK(again.kv_capacity_tokens == r.kv_capacity_tokens);
    CHECK(again.config.context == r.config.context);
    // The CLI: the flag takes the same forms and prints the warning; --json names the profile.
    const CliResult text = run_cli({"estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090", "--weights", "q4_k_m", "--runtime",
                                    "ollama", "--runtime-version", "v0.31.2"});
    CHECK(text.code == 0);
    CHECK(text.out.find("runtime_version v0.31.2: no profile of its own; read as 0.30") != std::string::npos);
    const CliResult json_out = run_cli({"estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090", "--weights", "q4_k_m", "--runtime",
                                        "ollama", "--runtime-version", "0.30", "--json"});
    REQUIRE(json_out.code == 0);
    const nlohmann::json cli = nlohmann::json::parse(json_out.out);
    CHECK(cli["config"]["runtime_version"] == "0.30");
    CHECK(cli["warnings"].dump().find("runtime_version") == std::string::npos);
    const CliResult bad = run_cli({"estimate", "--model", "llama-3.1-8b", "--runtime", "ollama", "--runtime-version", "banana"});
    CHECK(bad.code == 2);   // bad input, one line naming the key
    CHECK(bad.err.find("runtime_version") != std::string::npos);
}
