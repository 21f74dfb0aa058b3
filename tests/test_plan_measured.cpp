// test_plan_measured.cpp: the layout search with a benchmark report's measured GPU (plan()'s
// `measured` overlay, `gpusizer plan --measured`): a slower measured GPU gives slower layouts, and
// what the search reports is what estimate() reports for the same layout with the same overlay.
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "plan_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// The H100 SXM of the catalog (gpus.json: 3,350 GB/s, 989 dense BF16 TFLOP/s) as a benchmark
// might have measured it, with `bandwidth` GB/s and `bf16` TFLOP/s: test inputs, not measurements.
GpuOverlay measured_h100(double bandwidth, double bf16) {
    Gpu g = catalog().gpu("h100-sxm");
    g.memory_bandwidth_gb_per_s = bandwidth;
    g.tensor_tflops_dense.bf16 = bf16;
    GpuOverlay o;
    o.gpus.push_back(g);
    return o;
}

// Llama 3 8B in bf16 served by vLLM on up to 8 H100, requests of 1,024 input and 1,024 output
// tokens (the "1k/1k" serving shape).
PlanRequest serving_request() {
    PlanRequest q;
    q.mode = PlanMode::inference;
    q.base = config("llama-3-8b", "h100-sxm");
    q.base.runtime = Runtime::vllm;
    q.base.gpus = 8;
    q.base.isl = 1024;
    q.base.osl = 1024;
    return q;
}

// A one-device report of an H100 SXM whose triad ran at `triad` GB/s (median; invented for the
// test), as gpusizer-cuda-bench writes it: the one figure a quick run of the memory kernels gives.
MeasuredReport h100_report(double triad) {
    Measurement m;
    m.id = "memory.triad";
    m.unit = "GB/s";
    m.stats.samples = 10;
    m.stats.median = m.stats.best = triad;
    MeasuredDevice d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.catalog_id = "h100-sxm";
    d.memory.total_bytes = 79.2 * kGiB;   // what CUDA reports of the 80 GiB
    d.measurements = {m};
    MeasuredReport r;
    r.devices = {d};
    return r;
}

}  // namespace

TEST_CASE("plan with a measured GPU: a slower BF16 rate gives slower training steps, as estimate() says", "[plan][measured]") {
    // Llama 3 8B on 8 H100, 16 sequences of 2,048 tokens per step (test_plan.cpp's space). Training
    // is compute-bound: half the dense BF16 rate (494.5 of 989 TFLOP/s) makes every layout slower.
    PlanRequest q = train_request("llama-3-8b", 8, 16, 2048);
    q.top = 3;
    const GpuOverlay slow = measured_h100(3350, 989.0 / 2);
    const PlanReport datasheet = plan(q, catalog());
    const PlanReport measured = plan(q, catalog(), &slow);
    REQUIRE(!datasheet.top.empty());
    REQUIRE(!measured.top.empty());
    CHECK(measured.evaluated == datasheet.evaluated);   // the same space; the figures differ
    CHECK(measured.top[0].step_s > datasheet.top[0].step_s * 1.3);
    for (const PlanLayout& l : measured.top) {
        check_confirmed(l);
        // The same layout through estimate() with the same overlay: the same step; without it, faster.
        const Report again = estimate(l.config, catalog(), EstimateOptions{false, &slow});
        CHECK(l.report.speed.train_step_s == Approx(again.speed.train_step_s).epsilon(1e-12));
        CHECK(estimate(l.config, catalog()).speed.train_step_s < again.speed.train_step_s);
    }
    // plan_count() searches with the same figures: its best step is plan()'s best.
    double best = 0;
    CHECK(plan_count(q, catalog(), &best, &slow) == measured.evaluated);
    CHECK(best == Approx(measured.top[0].step_s).epsilon(1e-12));
}

TEST_CASE("plan inference with a measured GPU: less bandwidth gives fewer tokens/s per GPU, as estimate() says",
          "[plan][plan_inference][measured]") {
    // Decoding reads the weights and the KV cache once a step: at 2,000 of 3,350 GB/s every
    // layout's step is longer, so the best output tokens/s per GPU falls.
    const PlanRequest q = serving_request();
    const GpuOverlay slow = measured_h100(2000, 989);
    const PlanReport datasheet = plan(q, catalog());
    const PlanReport measured = plan(q, catalog(), &slow);
    REQUIRE(datasheet.has_best);
    REQUIRE(measured.has_best);
    CHECK(measured.best.serving.output_tokens_per_s_per_gpu < datasheet.best.serving.output_tokens_per_s_per_gpu);
    CHECK(measured.best.gpus <= 8);
    REQUIRE(!measured.top.empty());
    // top[0] is the best point (no targets, one pool) re-run through estimate(); the same layout
    // and load through estimate() with the same overlay gives the same tokens/s, the catalog's more.
    const PlanLayout& top = measured.top[0];
    CHECK(top.report.serving.output_tokens_per_s_per_gpu == Approx(measured.best.serving.output_tokens_per_s_per_gpu).epsilon(1e-9));
    const Report again = estimate(top.config, catalog(), EstimateOptions{false, &slow});
    CHECK(again.serving.output_tokens_per_s_per_gpu == Approx(measured.best.serving.output_tokens_per_s_per_gpu).epsilon(1e-9));
    CHECK(again.serving.tpot_s == Approx(measured.best.serving.tpot_s).epsilon(1e-9));
    CHECK(estimate(top.config, catalog()).serving.output_tokens_per_s_per_gpu > again.serving.output_tokens_per_s_per_gpu);
    double best = 0;
    CHECK(plan_count(q, catalog(), &best, &slow) == measured.evaluated);
    CHECK(best == Approx(measured.best.serving.output_tokens_per_s_per_gpu).epsilon(1e-12));
    // An overlay of another GPU changes nothing here.
    Gpu other = catalog().gpu("rtx-4090");
    other.memory_bandwidth_gb_per_s = 100;
    const GpuOverlay unrelated{{other}};
    CHECK(plan(q, catalog(), &unrelated).best.serving.output_tokens_per_s_per_gpu == datasheet.best.serving.output_tokens_per_s_per_gpu);
}

TEST_CASE("gpusizer plan --measured: the report's figures, its GPU without --gpu, errors naming the file", "[plan][measured][cli]") {
    const std::string path = "test_plan_measured_report.json";
    {
        std::ofstream f(path);
        f << measured_report_to_json(h100_report(2000));
    }
    const std::vector<std::string> args = {"plan", "--mode", "inference", "--model", "llama-3-8b", "--gpus", "8", "--runtime", "vllm",
                                           "--isl", "1024", "--osl", "1024", "--json"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = args;
        a.insert(a.end(), extra.begin(), extra.end());
        return run_cli(a);
    };
    const CliResult datasheet = with({"--gpu", "h100-sxm"});
    const CliResult measured = with({"--measured", path});   // no --gpu: the report's H100, not the default RTX 4090
    REQUIRE(datasheet.code == 0);
    REQUIRE(measured.code == 0);
    const auto d = nlohmann::json::parse(datasheet.out), m = nlohmann::json::parse(measured.out);
    REQUIRE(m["best"].is_object());
    CHECK(m["best"]["output_tokens_per_s_per_gpu"].get<double>() < d["best"]["output_tokens_per_s_per_gpu"].get<double>());
    // The layouts' reports say which figures were measured (2,000 GB/s in place of 3,350).
    REQUIRE(!m["top"].empty());
    const auto& cal = m["top"][0]["report"]["measured"];
    CHECK(cal["gpu_id"] == "h100-sxm");
    CHECK(cal["file"] == path);
    CHECK(m["top"][0]["report"]["gpu"]["id"] == "h100-sxm");
    CHECK_FALSE(d["top"][0]["report"].contains("measured"));
    // The text names the report.
    const CliResult text = run_cli({"plan", "--mode", "train", "--model", "llama-3-8b", "--gpus", "8", "--global-batch", "16", "--context",
                                    "2048", "--top", "1", "--measured", path});
    CHECK(text.code == 0);
    CHECK(text.out.find("h100-sxm: the figures measured in " + path + " in place of the datasheet's") == 0);
    // Another GPU than the report's: refused, naming both.
    const CliResult other = with({"--gpu", "rtx-4090", "--measured", path});
    CHECK(other.code == 2);
    CHECK(other.err ==
          "gpusizer: error: measured: " + path + " measured h100-sxm, not rtx-4090: use --gpu h100-sxm (or a report of this GPU)\n");
    // A broken report: one line naming the file and the field, exit 2; a missing one, exit 1.
    {
        std::ofstream f(path);
        f << "{\"schema_version\": 1, \"status\": \"ok\", \"devices\": [{\"index\": 0}]}";
    }
    const CliResult broken = with({"--measured", path});
    CHECK(broken.code == 2);
    CHECK(broken.err == "gpusizer: error: " + path + ": devices[0].name: is missing\n");
    std::remove(path.c_str());
    const CliResult missing = with({"--measured", path});
    CHECK(missing.code == 1);
    CHECK(missing.err.find(path) != std::string::npos);
    CHECK(with({"--measured"}).code == 2);   // the flag without its file
}
