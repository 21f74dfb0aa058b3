// test_cli.cpp: the gpusizer command line, run in-process.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "test_support.hpp"

using namespace gpusizer;

namespace {

using Result = gpusizer::test::CliResult;
using gpusizer::test::line_count;
using gpusizer::test::run_cli;

}  // namespace

TEST_CASE("estimate --json gives the report format", "[cli]") {
    const Result r = run_cli({"estimate", "--model", "llama-3-70b", "--weights", "q4_k_m", "--gpu", "rtx-4090", "--gpus", "2", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    for (const char* k : {"params", "active_params", "trainable_params", "kv_bytes_per_token", "memory", "fits", "warnings"})
        CHECK(j.contains(k));
    for (const char* k : {"weights", "kv_cache", "activations", "gradients", "optimizer", "overhead", "total"})
        CHECK(j["memory"]["per_gpu"].contains(k));
    for (const char* k : {"cuda_context", "allocator_reserve", "runtime_buffers"}) CHECK(j["memory"]["overhead_detail"].contains(k));
    for (const char* k : {"activations_per_layer", "kv_capacity_tokens", "host", "gpu_usable"}) CHECK(j["memory"].contains(k));
    CHECK(j["config"]["runtime"] == "llama.cpp");
    CHECK(j["parallel"]["pp"] == 2);
    // The same numbers as the library.
    Config c = config_from_json(R"({"model": "llama-3-70b", "weights": "q4_k_m", "gpu": "rtx-4090", "gpus": 2})");
    CHECK(j["memory"]["per_gpu"]["total"].get<double>() == Approx(estimate(c, gpusizer::test::catalog()).per_gpu.total()).margin(1));
}

TEST_CASE("a config file, overridden by flags", "[cli]") {
    const std::string path = "cli_test_config.json";
    {
        std::ofstream f(path);
        f << R"({"model": "llama-3-8b", "gpu": "rtx-3060", "context": 4096, "weights": "q8_0"})";
    }
    const Result r = run_cli({"estimate", "--config", path, "--context", "2048", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["config"]["context"] == 2048);
    CHECK(j["config"]["gpu"] == "rtx-3060");
    std::remove(path.c_str());
}

TEST_CASE("readable table, assumptions, fit, lists", "[cli]") {
    Result r = run_cli({"estimate", "--model", "llama-3-8b", "--assumptions"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("total") != std::string::npos);
    CHECK(r.out.find("FITS") != std::string::npos);
    CHECK(r.out.find("assumptions") != std::string::npos);
    r = run_cli({"fit", "--model", "llama-3-8b", "--weights", "q4_k_m", "--gpu", "rtx-3060", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["max_context"].get<long long>() > 0);
    CHECK(j.contains("best_weights"));
    CHECK(j["by_weights"].size() > 5);
    r = run_cli({"models"});
    CHECK(r.out.find("deepseek-r1") != std::string::npos);
    r = run_cli({"gpus", "--json"});
    CHECK(nlohmann::json::parse(r.out).size() == gpusizer::test::catalog().gpus.size());
}

namespace {

// Command lines that must exit 2 with one line on stderr naming `mentions`.
struct BadArgs {
    std::vector<std::string> args;
    const char* mentions;
};

template <std::size_t N>
void expect_bad_input(const BadArgs (&cases)[N]) {
    for (const BadArgs& b : cases) {
        const Result r = run_cli(b.args);
        INFO(b.args[b.args.size() > 1 ? 1 : 0] << " " << (b.args.size() > 3 ? b.args[3] : "") << " -> " << r.err);
        CHECK(r.code == cli::kExitBadInput);
        CHECK(line_count(r.err) == 1);
        CHECK(r.err.find(b.mentions) != std::string::npos);
        CHECK(r.out.empty());
    }
}

}  // namespace

TEST_CASE("a file that cannot be read: exit 1 and one line naming the flag", "[cli][errors]") {
    // Not the values' fault (exit 2) but the file system's: ErrorCode::unreadable.
    for (const char* flag : {"--config", "--hf-config", "--measured"}) {
        const Result r = run_cli({"estimate", "--model", "llama-3-8b", flag, "/nonexistent.json"});
        INFO(flag << " -> " << r.err);
        CHECK(r.code == cli::kExitInternal);
        CHECK(line_count(r.err) == 1);
        CHECK(r.err.find("/nonexistent.json") != std::string::npos);
    }
}

TEST_CASE("bad input: exit 2 and one line naming the key", "[cli][errors]") {
    const BadArgs cases[] = {
        {{"estimate", "--model", "llama-3-8b", "--batch", "lots"}, "--batch"},
        {{"estimate", "--model", "llama-3-8b", "--batchsize", "4"}, "--batchsize"},
        {{"estimate", "--model", "llama-3-8b", "--weights", "q9"}, "weights"},
        {{"estimate", "--model", "nope"}, "model"},
        {{"estimate", "--gpu", "rtx-4090"}, "model"},
        {{"estimate", "--model", "llama-3-8b", "--gpus"}, "--gpus"},
        {{"estimate", "--model", "llama-3-8b", "--flash-attention", "maybe"}, "--flash-attention"},
        {{"estimate", "--model", "llama-3-8b", "--gpu-memory-utilization", "nan"}, "--gpu-memory-utilization"},
        {{"launch"}, "launch"},
        {{"estimate", "stray"}, "stray"},
    };
    expect_bad_input(cases);
}

TEST_CASE("a share link on the command line", "[cli][link]") {
    const Result r = run_cli({"estimate", "--link", "#v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2&ctx=8192", "--gpus", "4", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["config"]["weights"] == "q4_k_m");
    CHECK(j["config"]["gpus"] == 4);   // flags override the link
    const Result bad = run_cli({"estimate", "--link", "#v=9&m=x"});
    CHECK(bad.code == cli::kExitBadInput);
    CHECK(bad.err.find("version") != std::string::npos);
    const Result table = run_cli({"estimate", "--model", "llama-3-8b", "--gpu", "l4"});
    CHECK(table.out.find("share link: #v=1&m=llama-3-8b&g=l4") != std::string::npos);
}

TEST_CASE("the check flag exits 3 when it does not fit", "[cli]") {
    CHECK(run_cli({"estimate", "--model", "llama-3.1-405b", "--gpu", "rtx-3060", "--check"}).code == cli::kExitDoesNotFit);
    CHECK(run_cli({"estimate", "--model", "llama-3.2-1b", "--gpu", "h100-sxm", "--check"}).code == 0);
}

TEST_CASE("estimate prints speed, interconnect and power, the JSON has them", "[cli]") {
    Result r = run_cli({"estimate", "--model", "llama-3-70b", "--runtime", "vllm", "--gpu", "h100-sxm", "--gpus", "8"});
    REQUIRE(r.code == 0);
    for (const char* s : {"decode", "prefill", "time to first token", "interconnect: nvlink4", "tensor parallel", "over pcie5",
                          "power at the wall", "PSU to buy", "BTU/h", "kWh per million tokens", "cost per million tokens"})
        CHECK(r.out.find(s) != std::string::npos);
    // The headline is what the machine draws at the plug; the ratings are called the nameplate.
    // (Llama 3.1 8B Q4_K_M on one RTX 4060 Ti 16GB used to read "GPUs 165 W + host 450 W = 615 W".)
    Result d = run_cli({"estimate", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--gpu", "rtx-4060-ti-16gb"});
    REQUIRE(d.code == 0);
    CHECK(d.out.find("power at the wall (desktop): ") != std::string::npos);
    CHECK(d.out.find("nameplate 615 W (ratings, not a draw)") != std::string::npos);
    CHECK(d.out.find("= 615 W") == std::string::npos);
    CHECK(d.out.find("615 W generating") == std::string::npos);
    r = run_cli(
        {"estimate", "--model", "llama-3-8b", "--mode", "train", "--gpu", "h100-sxm", "--gpus", "8", "--train-tokens", "1e10", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    for (const char* k : {"link", "tp_comm_s_per_token", "dp_allreduce_s_per_step", "allreduce_busbw_bytes_per_s", "pp_bubble_fraction"})
        CHECK(j["interconnect"].contains(k));
    for (const char* k : {"decode_tokens_per_s", "prefill_tokens_per_s", "ttft_s", "train_tokens_per_s", "train_time_s", "mfu"})
        CHECK(j["speed"].contains(k));
    for (const char* k : {"gpu_w", "system_w", "psu_w", "heat_btu_h", "energy_kwh", "cost_usd"}) CHECK(j["power"].contains(k));
    CHECK(j["speed"]["train_time_s"].get<double>() > 0);
    CHECK(j["interconnect"]["alternative"]["link"] == "pcie5");   // the CLI adds the comparison
    CHECK(j["config"]["train_tokens"] == 1e10);
}

TEST_CASE("the --link flag is the interconnect key, --share-link (or a value with =) a share link", "[cli][link]") {
    Result r = run_cli({"estimate", "--model", "llama-3-70b", "--gpu", "rtx-4090", "--gpus", "2", "--link", "nvlink-bridge", "--json"});
    REQUIRE(r.code == 0);
    nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["config"]["link"] == "nvlink-bridge");
    CHECK(j["interconnect"]["link"] == "nvlink-bridge");
    r = run_cli({"estimate", "--share-link", "#v=1&m=llama-3-8b&g=h100-sxmx2&l=pcie5&mfu=0.5", "--json"});
    REQUIRE(r.code == 0);
    j = nlohmann::json::parse(r.out);
    CHECK(j["config"]["link"] == "pcie5");
    CHECK(j["config"]["mfu"] == 0.5);
    r = run_cli({"estimate", "--share-link", "#v=1&m=llama-3-8b", "--config", "x.json"});
    CHECK(r.code == 2);
    CHECK(r.err.find("--share-link") != std::string::npos);
}

TEST_CASE("links lists the link catalog", "[cli]") {
    Result r = run_cli({"links"});
    REQUIRE(r.code == 0);
    for (const char* id : {"pcie4", "nvlink4", "infiniband-ndr", "ethernet-100g"}) CHECK(r.out.find(id) != std::string::npos);
    r = run_cli({"links", "--json"});
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.size() == gpusizer::test::catalog().links.size());
    CHECK(j[0].contains("bandwidth_gb_per_s"));
    CHECK(j[0].contains("latency_us"));
}

TEST_CASE("bad speed and power flags: exit 2, one line naming the flag", "[cli][errors]") {
    const BadArgs cases[] = {
        {{"estimate", "--model", "llama-3-8b", "--mfu", "high"}, "--mfu"},
        {{"estimate", "--model", "llama-3-8b", "--mfu", "3"}, "mfu"},
        {{"estimate", "--model", "llama-3-8b", "--link", "pcie9"}, "link"},
        {{"estimate", "--model", "llama-3-8b", "--pue", "0.5"}, "pue"},
        {{"estimate", "--model", "llama-3-8b", "--utilization", "-1"}, "utilization"},
        {{"estimate", "--model", "llama-3-8b", "--train-tokens", "lots"}, "--train-tokens"},
        {{"recommend", "--model", "llama-3-8b", "--budget", "cheap"}, "--budget"},
        {{"recommend", "--model", "llama-3-8b", "--segment", "gaming"}, "segment"},
        {{"recommend", "--model", "llama-3-8b", "--max-gpus", "0"}, "--max-gpus"},
        {{"estimate", "--model", "llama-3-8b", "--budget", "100"}, "--budget"},   // a recommend flag
    };
    expect_bad_input(cases);
}

TEST_CASE("a deeply nested --config file: exit 2 and the limit named", "[cli][errors][limits]") {
    const std::string path = "deep_config_test.json";
    {
        std::ofstream f(path);
        f << std::string(100000, '[') << std::string(100000, ']');
    }
    const Result r = run_cli({"estimate", "--config", path});
    std::remove(path.c_str());
    CHECK(r.code == cli::kExitBadInput);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find("--config") != std::string::npos);
    CHECK(r.err.find("nests deeper than 64 levels") != std::string::npos);
}

TEST_CASE("a custom GPU from the command line: a JSON object, a file, or field flags over --gpu", "[cli][custom-gpu]") {
    // Field flags alone: the required fields, as the app's link writes them.
    Result r = run_cli({"estimate", "--model", "llama-3-8b", "--gpu-name", "Next 48G", "--gpu-memory-gib", "48", "--gpu-memory-bandwidth",
                        "1200", "--gpu-bf16-tflops", "300", "--gpu-tdp-w", "350"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("Meta Llama 3 8B on 1 x Next 48G") != std::string::npos);
    CHECK(r.out.find("share link: #v=1&m=llama-3-8b&g=custom&gc=n:Next%2048G~mem:48~bw:1200~bf16:300~tdp:350") != std::string::npos);
    // The same GPU as an inline object and through its link: the same report.
    const Result inline_json = run_cli({"estimate", "--model", "llama-3-8b", "--json", "--gpu",
                                        R"({"name": "Next 48G", "memory_gib": 48, "memory_bandwidth_gb_per_s": 1200,
                                            "tensor_tflops_dense": {"bf16": 300}, "tdp_w": 350})"});
    const Result linked =
        run_cli({"estimate", "--json", "--share-link", "#v=1&m=llama-3-8b&g=custom&gc=n:Next%2048G~mem:48~bw:1200~bf16:300~tdp:350"});
    REQUIRE(inline_json.code == 0);
    REQUIRE(linked.code == 0);
    CHECK(inline_json.out == linked.out);
    const auto j = nlohmann::json::parse(inline_json.out);
    CHECK(j["gpu"]["id"] == "custom");
    CHECK(j["gpu"]["name"] == "Next 48G");
    CHECK(j["config"]["gpu"]["memory_gib"] == 48.0);

    // Field flags over a catalog --gpu: it becomes their base (an overclocked card).
    r = run_cli({"estimate", "--model", "llama-3-8b", "--gpu", "rtx-4090", "--gpu-tdp-w", "500", "--json"});
    REQUIRE(r.code == 0);
    auto oc = nlohmann::json::parse(r.out);
    CHECK(oc["config"]["gpu"] == nlohmann::json::parse(R"({"base": "rtx-4090", "tdp_w": 500.0})"));
    CHECK(oc["gpu"]["name"] == "NVIDIA GeForce RTX 4090 (custom)");

    // --gpu-json: a file, and flags over the file's fields.
    const std::string path = "cli_test_gpu.json";
    {
        std::ofstream f(path);
        f << R"({"base": "h100-sxm", "name": "H100 at 500 W", "tdp_w": 500})";
    }
    r = run_cli({"estimate", "--model", "llama-3-8b", "--gpu-json", path, "--gpu-memory-bandwidth", "3000", "--json"});
    std::remove(path.c_str());
    REQUIRE(r.code == 0);
    const auto f = nlohmann::json::parse(r.out);
    CHECK(f["gpu"]["name"] == "H100 at 500 W");
    CHECK(f["gpu"]["figures"]["memory_bandwidth_gb_per_s"] == 3000.0);
    CHECK(f["gpu"]["figures"]["tdp_w"] == 500.0);

    // Errors: one line naming the flag or the field; exit code 2 (an unknown base: an unknown id, also 2).
    r = run_cli({"estimate", "--model", "llama-3-8b", "--gpu-memory-gib", "lots"});
    CHECK(r.code == 2);
    CHECK(r.err == "gpusizer: error: --gpu-memory-gib: must be a number, got 'lots'\n");
    r = run_cli({"estimate", "--model", "llama-3-8b", "--gpu-memory-gib", "48"});
    CHECK(r.code == 2);
    CHECK(r.err.find("gpu: is missing name, memory_bandwidth_gb_per_s, tdp_w, tensor_tflops_dense") != std::string::npos);
    r = run_cli({"estimate", "--model", "llama-3-8b", "--gpu", "rtx-4090", "--gpu-vendor", "acme"});
    CHECK(r.code == 2);
    CHECK(r.err.find("gpu.vendor: must be nvidia, amd, intel or apple") != std::string::npos);
    r = run_cli({"estimate", "--model", "llama-3-8b", "--gpu-json", "{\"base\": "});
    CHECK(r.code == 2);   // not JSON: bad input, as a --config file that is not JSON
    CHECK(r.err.find("--gpu-json") != std::string::npos);

    // recommend ranks it among the catalog's GPUs, and says which row it is.
    r = run_cli({"recommend", "--model", "llama-3-8b", "--weights", "q4_k_m", "--segment", "consumer", "--max-gpus", "1", "--gpu",
                 "rtx-4090", "--gpu-name", "4090 at 1.2 TB/s", "--gpu-memory-bandwidth", "1200"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("custom = 4090 at 1.2 TB/s (the configuration's custom GPU)") != std::string::npos);

    // The keys list and the help name the fields and their flags.
    r = run_cli({"keys", "--gpu"});
    CHECK(r.out.find("gpu.memory_gib  link gc=mem:  --gpu-memory-gib") != std::string::npos);
    r = run_cli({"--help"}, false);
    CHECK(r.out.find("--gpu-json FILE|JSON") != std::string::npos);
    CHECK(r.out.find("--gpu-tdp-w W") != std::string::npos);
}
