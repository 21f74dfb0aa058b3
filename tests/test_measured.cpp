// test_measured.cpp: measured reports (gpusizer-cuda-bench) in the core: statistics, the JSON
// reader and writer (round trip, schema version, malformed files named by file and field), which
// catalog GPU a CUDA device is, PCIe rates, and the calibration that feeds estimates.
#include <catch2/catch.hpp>

#include <map>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

Measurement rate(const std::string& id, const std::string& unit, double median, double best) {
    Measurement m;
    m.id = id;
    m.unit = unit;
    m.convention = "test";
    m.stats.samples = 10;
    m.stats.median = median;
    m.stats.best = best;
    m.stats.worst = median * 0.9;
    m.stats.mean = median;
    m.stats.p05 = median * 0.95;
    m.stats.p95 = best;
    m.stats.cv = 0.01;
    return m;
}

Measurement gemm(const std::string& precision, const std::string& shape, double median) {
    Measurement m = rate("gemm." + precision + "." + shape, precision == "int8" ? "TOP/s" : "TFLOP/s", median, median * 1.01);
    m.precision = precision;
    m.m = m.n = m.k = 8192;
    return m;
}

// A report of an RTX 4090, as gpusizer-cuda-bench would write it. The figures are test inputs
// (invented for this test), not measurements.
MeasuredReport rtx4090_report() {
    MeasuredReport r;
    r.tool_version = "0.1.0";
    r.created_utc = "2025-01-31T12:00:00Z";
    r.mode = "quick";
    r.cuda_runtime_version = 13000;
    r.cuda_driver_version = 13000;
    r.nvidia_driver = "580.65.06";
    r.nvml = "loaded";
    r.nccl = "not loaded: needs two or more devices";
    MeasuredDevice d;
    d.index = 0;
    d.name = "NVIDIA GeForce RTX 4090";
    d.uuid = "GPU-00000000-0000-0000-0000-000000000000";
    d.pci_bus_id = "0000:01:00.0";
    d.compute_capability = "8.9";
    d.sm_count = 128;
    d.l2_bytes = 72.0 * 1024 * 1024;
    d.catalog_id = "rtx-4090";
    d.pcie_gen = 4;
    d.pcie_width = 16;
    d.sm_clock_max_mhz = 3105;
    d.memory_clock_max_mhz = 10501;
    d.power_limit_w = 450;
    d.memory.total_bytes = 25393692672.0;   // 23.65 GiB
    d.memory.free_bytes = 24900000000.0;
    d.memory.cuda_context_bytes = 300.0 * kMiB;
    d.memory.context_with_cublaslt_bytes = 350.0 * kMiB;
    d.memory.context_method = "nvml_used_delta";
    d.memory.largest_block_bytes = 24800000000.0;
    Measurement triad = rate("memory.triad", "GB/s", 910.0, 925.0);
    triad.bytes = 805306368;
    triad.warmup = 5;
    triad.datasheet = 1008;
    triad.fraction_of_datasheet = 925.0 / 1008.0;
    triad.has_energy = true;
    triad.energy = {380.0, 152.0, 910.0 / 380.0, 0.000835, "nvml_energy_counter"};
    triad.has_telemetry = true;
    triad.telemetry = {2520, 10501, 64, 381, 450, {"sw_power_cap"}};
    d.measurements.push_back(rate("memory.copy", "GB/s", 900.0, 915.0));
    d.measurements.push_back(triad);
    d.measurements.push_back(gemm("fp32", "square_8192", 70.0));
    d.measurements.push_back(gemm("bf16", "square_8192", 150.0));
    d.measurements.push_back(gemm("bf16", "llm_mlp_up", 155.0));   // the best shape
    d.measurements.push_back(gemm("fp8", "square_8192", 300.0));
    d.measurements.push_back(gemm("int8", "square_8192", 600.0));
    Measurement failed;
    failed.id = "gemm.tf32.square_8192";
    failed.unit = "TFLOP/s";
    failed.precision = "tf32";
    failed.m = failed.n = failed.k = 8192;
    failed.error = "cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED (15)";
    d.measurements.push_back(failed);
    d.measurements.push_back(rate("host.h2d.pinned", "GB/s", 25.5, 26.0));
    d.measurements.push_back(rate("host.d2h.pinned", "GB/s", 26.3, 26.5));
    d.targets.push_back({"triad", "memory.triad", 0.85, 925.0 / 1008.0, true});
    r.devices.push_back(d);
    r.notes.push_back("one device: no peer-to-peer or NCCL measurement");
    return r;
}

std::string error_of(const std::string& text) {
    return thrown_message([&] { (void)measured_report_from_json(text, "report.json"); });
}

// The report's JSON with one change.
std::string edited(const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = nlohmann::json::parse(measured_report_to_json(rtx4090_report()));
    edit(j);
    return j.dump();
}

}  // namespace

TEST_CASE("percentiles interpolate between ranks (NumPy's default)", "[measured][stats]") {
    const std::vector<double> v{1, 2, 3, 4, 5};
    CHECK(percentile(v, 0) == 1);
    CHECK(percentile(v, 50) == 3);
    CHECK(percentile(v, 100) == 5);
    CHECK(percentile(v, 5) == Approx(1.2));    // h = 0.2
    CHECK(percentile(v, 95) == Approx(4.8));   // h = 3.8
    CHECK(percentile({10, 20}, 50) == 15);
    CHECK(percentile({7}, 95) == 7);
    CHECK_THROWS_AS(percentile({}, 50), Error);
}

TEST_CASE("summaries: median, best for rates and latencies, spread", "[measured][stats]") {
    const Stats r = summarize({2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}, Better::higher);
    CHECK(r.samples == 8);
    CHECK(r.median == Approx(4.5));
    CHECK(r.best == 9);
    CHECK(r.worst == 2);
    CHECK(r.mean == 5);
    CHECK(r.cv == Approx(2.0 / 5.0));   // population standard deviation 2 (the textbook example)
    const Stats l = summarize({3.0, 1.0, 2.0}, Better::lower);
    CHECK(l.best == 1);
    CHECK(l.worst == 3);
    CHECK(l.median == 2);
    CHECK(summarize({5.0}, Better::higher).cv == 0);
    CHECK_THROWS_AS(summarize({}, Better::higher), Error);
    CHECK_THROWS_AS(summarize({1.0, std::numeric_limits<double>::infinity()}, Better::higher), Error);
}

TEST_CASE("a report survives writing and reading", "[measured][json]") {
    const MeasuredReport a = rtx4090_report();
    const std::string text = measured_report_to_json(a);
    const MeasuredReport b = measured_report_from_json(text, "report.json");
    CHECK(measured_report_to_json(b) == text);   // nothing lost, nothing changed
    CHECK(b.schema_version == 1);
    CHECK(b.status == BenchStatus::ok);
    CHECK(b.created_utc == a.created_utc);
    REQUIRE(b.devices.size() == 1);
    const MeasuredDevice& d = b.devices[0];
    CHECK(d.catalog_id == "rtx-4090");
    CHECK(d.memory.context_with_cublaslt_bytes == 350.0 * kMiB);
    const Measurement* t = d.find("memory.triad");
    REQUIRE(t);
    CHECK(t->stats.p05 == a.devices[0].measurements[1].stats.p05);
    CHECK(t->energy.method == "nvml_energy_counter");
    CHECK(t->telemetry.throttle_reasons == std::vector<std::string>{"sw_power_cap"});
    CHECK(t->fraction_of_datasheet == Approx(925.0 / 1008.0));
    CHECK(d.find("gemm.tf32.square_8192")->error == "cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED (15)");
    CHECK_FALSE(d.find("gemm.tf32.square_8192")->ok());
    CHECK(d.targets.size() == 1);
    // schema_version comes first, for people opening the file.
    CHECK(text.find("\"schema_version\": 1") < text.find("\"devices\""));
}

TEST_CASE("reports of every status round-trip, unknown values as null", "[measured][json]") {
    MeasuredReport r;
    r.status = BenchStatus::no_driver;
    r.status_detail = "cudaGetDeviceCount: CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver = 35)";
    r.exit_code = 3;
    const std::string text = measured_report_to_json(r);
    CHECK(text.find("\"nvidia_driver\": null") != std::string::npos);
    const MeasuredReport b = measured_report_from_json(text, "r.json");
    CHECK(b.status == BenchStatus::no_driver);
    CHECK(b.exit_code == 3);
    CHECK(b.devices.empty());
    for (BenchStatus s : {BenchStatus::ok, BenchStatus::partial, BenchStatus::no_driver, BenchStatus::no_device,
                          BenchStatus::system_not_ready, BenchStatus::cuda_error, BenchStatus::internal_error})
        CHECK(parse_bench_status(to_string(s)) == s);
}

TEST_CASE("schema versions other than 1 are refused, naming the file", "[measured][json]") {
    CHECK(error_of(edited([](nlohmann::json& j) { j["schema_version"] = 2; })) ==
          "report.json: schema_version: is 2; this build reads version 1 (a newer gpusizer reads it)");
    CHECK(error_of(edited([](nlohmann::json& j) { j["schema_version"] = 0; })) ==
          "report.json: schema_version: is 0; this build reads version 1");
    CHECK(error_of(edited([](nlohmann::json& j) { j.erase("schema_version"); })) ==
          "report.json: schema_version: is missing: not a gpusizer-cuda-bench report");
    CHECK(error_of(edited([](nlohmann::json& j) { j["schema_version"] = "1"; })) ==
          "report.json: schema_version: must be an integer, got \"1\"");
}

TEST_CASE("malformed reports: the error names the file and the field", "[measured][json]") {
    CHECK(error_of("{\"schema_version\": 1,") .rfind("report.json: is not valid JSON (parse error", 0) == 0);
    CHECK(error_of("[1, 2]") == "report.json: must be a JSON object (a gpusizer-cuda-bench report), got an array");
    CHECK(error_of(edited([](nlohmann::json& j) { j["status"] = "fine"; })) ==
          "report.json: status: unknown status 'fine'; allowed: ok, partial, no_driver, no_device, system_not_ready, cuda_error, "
          "internal_error");
    CHECK(error_of(edited([](nlohmann::json& j) { j.erase("devices"); })) == "report.json: devices: is missing");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"] = 3; })) == "report.json: devices: must be an array, got a number");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0]["memory"]["total_bytes"] = "24 GB"; })) ==
          "report.json: devices[0].memory.total_bytes: must be a number, got \"24 GB\"");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0].erase("memory"); })) == "report.json: devices[0].memory: is missing");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0]["measurements"][1]["stats"]["median"] = nullptr; })) ==
          "report.json: devices[0].measurements[1].stats.median: must be a number, got null");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0]["measurements"][1]["unit"] = "MB/s"; })) ==
          "report.json: devices[0].measurements[1].unit: must be GB/s, TFLOP/s, TOP/s or us, got 'MB/s'");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0]["measurements"][1].erase("stats"); })) ==
          "report.json: devices[0].measurements[1].stats: is missing (a measurement without stats must carry an error)");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0]["measurements"][0] = "triad"; })) ==
          "report.json: devices[0].measurements[0]: must be a JSON object, got a string");
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0]["targets"][0]["met"] = "yes"; })) ==
          "report.json: devices[0].targets[0].met: must be true or false, got \"yes\"");
    CHECK(error_of(edited([](nlohmann::json& j) { j["notes"] = {1}; })) == "report.json: notes[0]: must be a string, got 1");
    // Keys a later version adds are ignored: extend, never rename.
    CHECK(error_of(edited([](nlohmann::json& j) { j["devices"][0]["hbm_temperature_c"] = 70; })).empty());
    // A file that cannot be read names its path.
    CHECK_THROWS_WITH(load_measured_report("/nonexistent/report.json"), "measured: cannot read '/nonexistent/report.json'");
}

TEST_CASE("CUDA device names map to catalog GPUs, variants told apart by memory", "[measured][catalog]") {
    const Catalog& c = catalog();
    const double GiB = kGiB;
    CHECK(catalog_gpu_for_device(c, "NVIDIA H100 80GB HBM3", 79.2 * GiB) == "h100-sxm");
    CHECK(catalog_gpu_for_device(c, "NVIDIA H100 PCIe", 79.2 * GiB) == "h100-pcie");
    CHECK(catalog_gpu_for_device(c, "NVIDIA A100-SXM4-80GB", 79.1 * GiB) == "a100-80gb-sxm");
    CHECK(catalog_gpu_for_device(c, "NVIDIA A100-PCIE-40GB", 39.4 * GiB) == "a100-40gb-pcie");
    CHECK(catalog_gpu_for_device(c, "NVIDIA GeForce RTX 4090", 23.6 * GiB) == "rtx-4090");
    CHECK(catalog_gpu_for_device(c, "Tesla T4", 14.6 * GiB) == "t4");
    CHECK(catalog_gpu_for_device(c, "NVIDIA L40S", 44.4 * GiB) == "l40s");   // same name as the catalog's
    CHECK(catalog_gpu_for_device(c, "NVIDIA RTX 6000 Ada Generation", 47.5 * GiB) == "rtx-6000-ada");
    // One name, two cards: the memory decides; a far-off memory matches nothing.
    CHECK(catalog_gpu_for_device(c, "NVIDIA GeForce RTX 4060 Ti", 15.6 * GiB) == "rtx-4060-ti-16gb");
    CHECK(catalog_gpu_for_device(c, "NVIDIA GeForce RTX 4060 Ti", 7.6 * GiB) == "rtx-4060-ti-8gb");
    CHECK(catalog_gpu_for_device(c, "NVIDIA GeForce RTX 3060", 11.6 * GiB) == "rtx-3060");
    CHECK(catalog_gpu_for_device(c, "NVIDIA GeForce RTX 3060", 7.6 * GiB).empty());   // the 8 GB card is not in the catalog
    CHECK(catalog_gpu_for_device(c, "NVIDIA GeForce RTX 4090", 0) == "rtx-4090");      // memory unknown, one candidate
    CHECK(catalog_gpu_for_device(c, "NVIDIA GeForce RTX 4060 Ti", 0).empty());         // memory unknown, two candidates
    CHECK(catalog_gpu_for_device(c, "NVIDIA H100 NVL", 93 * GiB).empty());
    CHECK(catalog_gpu_for_device(c, "", 1).empty());
}

TEST_CASE("PCIe bandwidth per direction after encoding", "[measured]") {
    // 128b/130b from gen 3: gen 4 x16 = 31.5 GB/s, gen 5 x16 = 63.0 GB/s (the "~32" and "~63" of
    // the method notes); 8b/10b before: gen 2 x16 = 8 GB/s.
    CHECK(pcie_gb_per_s_per_direction(4, 16) == Approx(31.508).epsilon(1e-4));
    CHECK(pcie_gb_per_s_per_direction(5, 16) == Approx(63.015).epsilon(1e-4));
    CHECK(pcie_gb_per_s_per_direction(3, 16) == Approx(15.754).epsilon(1e-4));
    CHECK(pcie_gb_per_s_per_direction(2, 16) == Approx(8.0));
    CHECK(pcie_gb_per_s_per_direction(4, 8) == Approx(15.754).epsilon(1e-4));   // RTX 4060 Ti: x8
    CHECK(pcie_gb_per_s_per_direction(6, 16) == Approx(118.0));                 // 64 GT/s x 236/256
    CHECK(pcie_gb_per_s_per_direction(0, 16) == 0);
    CHECK(pcie_gb_per_s_per_direction(7, 16) == 0);
}

TEST_CASE("calibration replaces measured figures and keeps the datasheet's beside them", "[measured][calibration]") {
    const MeasuredReport r = rtx4090_report();
    const Gpu& ds = catalog().gpu("rtx-4090");
    const Gpu g = calibrated_gpu(ds, r, r.devices[0], "report.json");
    REQUIRE(g.calibration);
    const Calibration& c = *g.calibration;
    CHECK(g.memory_bandwidth_gb_per_s == 910);                   // triad median
    CHECK(c.find("memory_bandwidth_gb_per_s")->datasheet == 1008);
    CHECK(c.find("memory_bandwidth_gb_per_s")->from == "memory.triad median");
    CHECK(g.fp32_tflops == 70);
    CHECK(g.tensor_tflops_dense.bf16 == 155);                    // the best shape's median
    CHECK(c.find("tensor_tflops_dense.bf16")->from == "gemm.bf16.llm_mlp_up median");
    CHECK(g.tensor_tflops_dense.fp8 == 300);
    CHECK(g.tensor_tflops_dense.int8 == 600);
    CHECK(c.find("tensor_tflops_dense.int8")->unit == "TOP/s");
    // Failed or absent: the datasheet's stays, and the calibration says so.
    CHECK(g.tensor_tflops_dense.tf32 == ds.tensor_tflops_dense.tf32);
    CHECK(g.tensor_tflops_dense.fp16 == ds.tensor_tflops_dense.fp16);
    const auto& only = c.datasheet_only;
    CHECK(std::find(only.begin(), only.end(), "tensor_tflops_dense.tf32") != only.end());
    CHECK(std::find(only.begin(), only.end(), "tensor_tflops_dense.fp16") != only.end());
    CHECK(std::find(only.begin(), only.end(), "tensor_tflops_dense_fp16_accumulate") != only.end());
    // Memory: what CUDA reports; PCIe: the slower pinned direction; context: with cuBLASLt.
    CHECK(g.memory_total_mib == Approx(25393692672.0 / kMiB));
    CHECK(c.find("memory_total_mib")->datasheet == 24564);
    CHECK(g.measured_pcie_gb_per_s == 25.5);
    CHECK(c.find("measured_pcie_gb_per_s")->datasheet == Approx(31.508).epsilon(1e-4));
    CHECK(g.measured_cuda_context_bytes == 350.0 * kMiB);
    // No NVLink on a 4090, no peers measured: nvlink stays as it is and is not listed.
    CHECK(g.nvlink_gb_per_s == 0);
    CHECK(c.find("nvlink_gb_per_s") == nullptr);
    // The datasheet GPU itself is untouched.
    CHECK(ds.memory_bandwidth_gb_per_s == 1008);
    CHECK_FALSE(ds.calibration);
}

TEST_CASE("NVLink is calibrated from the bidirectional peer bandwidth of NVLink GPUs", "[measured][calibration]") {
    MeasuredReport r = rtx4090_report();
    r.devices[0].name = "NVIDIA H100 80GB HBM3";
    r.devices[0].catalog_id = "h100-sxm";
    r.devices[0].memory.total_bytes = 79.2 * kGiB;
    MeasuredDevice second = r.devices[0];
    second.index = 1;
    r.devices.push_back(second);
    for (double v : {740.0, 760.0}) {
        Measurement m = rate("p2p.0-1.bidirectional", "GB/s", v, v);
        m.devices = {0, 1};
        r.links.push_back(m);
    }
    Measurement uni = rate("p2p.0-1.unidirectional", "GB/s", 375.0, 377.0);
    uni.devices = {0, 1};
    r.links.push_back(uni);
    const Gpu g = calibrated_gpu(catalog().gpu("h100-sxm"), r, r.devices[0], "r.json");
    CHECK(g.nvlink_gb_per_s == Approx(750.0));   // the median over pairs
    CHECK(g.calibration->find("nvlink_gb_per_s")->datasheet == 900);

    // The measured figure (750 < 800 GB/s) keeps the GPU on its NVLink 4 fabric, at the measured speed.
    const GpuOverlay cal = measured_overlay(catalog(), r, "r.json", {"h100-sxm"});
    Config c;
    c.model.id = "llama-3-70b";
    c.gpu = "h100-sxm";
    c.gpus = 8;
    const Report measured = estimate(c, catalog(), EstimateOptions{false, &cal});
    const Report datasheet = estimate(c, catalog());
    CHECK(measured.interconnect.link == "nvlink4");
    CHECK(measured.interconnect.link_bandwidth_bytes_per_s == Approx(375e9));   // 750 / 2 per direction
    CHECK(datasheet.interconnect.link_bandwidth_bytes_per_s == Approx(450e9));
}

TEST_CASE("measured_overlay picks the report's device of the configured GPU", "[measured][calibration]") {
    const MeasuredReport r = rtx4090_report();
    const GpuOverlay cal = measured_overlay(catalog(), r, "report.json", {"rtx-4090"});
    REQUIRE(cal.gpus.size() == 1);
    CHECK(cal.gpu(catalog(), "rtx-4090").memory_bandwidth_gb_per_s == 910);
    CHECK(cal.gpu(catalog(), "h100-sxm").memory_bandwidth_gb_per_s == 3350);   // other GPUs: the catalog's
    // Another GPU than the report's: refused, naming both.
    CHECK_THROWS_WITH(measured_overlay(catalog(), r, "report.json", {"h100-sxm"}),
                      "measured: report.json measured rtx-4090, not h100-sxm: use --gpu rtx-4090 (or a report of this GPU)");
    // A device unknown to the catalog calibrates the configured GPU, with a note.
    MeasuredReport unknown = r;
    unknown.devices[0].catalog_id = "";
    unknown.devices[0].name = "NVIDIA GeForce RTX 4090 D";
    const GpuOverlay u = measured_overlay(catalog(), unknown, "report.json", {"rtx-4090"});
    REQUIRE(u.gpu(catalog(), "rtx-4090").calibration);
    CHECK(u.gpu(catalog(), "rtx-4090").calibration->notes.front().find("'NVIDIA GeForce RTX 4090 D' is not in the catalog") !=
          std::string::npos);
    // A report without measurements, or for an Apple GPU: refused.
    MeasuredReport none;
    none.status = BenchStatus::no_driver;
    none.status_detail = "cudaErrorInsufficientDriver = 35";
    CHECK_THROWS_WITH(measured_overlay(catalog(), none, "r.json", {"rtx-4090"}),
                      "measured: r.json holds no measurements: status no_driver (cudaErrorInsufficientDriver = 35)");
    CHECK_THROWS_WITH(measured_overlay(catalog(), r, "r.json", {"m2-ultra-192gb"}), Catch::Contains("is not an NVIDIA GPU"));
    CHECK_THROWS_WITH(measured_overlay(catalog(), r, "r.json", {"no-such-gpu"}), Catch::Contains("unknown GPU 'no-such-gpu'"));
}

TEST_CASE("an estimate with a calibrated GPU uses the measured context and capacity", "[measured][calibration]") {
    const MeasuredReport r = rtx4090_report();
    const GpuOverlay overlay = measured_overlay(catalog(), r, "report.json", {"rtx-4090"});
    const EstimateOptions cal{false, &overlay};
    Config c = config("llama-3-8b", "rtx-4090");
    c.weights = "q4_k_m";
    const Report plain = estimate(c, catalog());
    const Report measured = estimate(c, catalog(), cal);
    CHECK(plain.overhead_detail.cuda_context == 300 * kMiB);        // llama.cpp's profile constant
    CHECK(measured.overhead_detail.cuda_context == 350 * kMiB);     // the report's context with cuBLASLt
    CHECK(measured.gpu_capacity == Approx(25393692672.0));          // what CUDA reports
    CHECK(plain.gpu_capacity == Approx(24564 * kMiB));
    CHECK(measured.per_gpu.weights == plain.per_gpu.weights);      // the model does not change
    CHECK_FALSE(plain.measured);
    REQUIRE(measured.measured);
    CHECK(measured.measured->gpu_id == "rtx-4090");
    // runtime none keeps no context at all, measured or not.
    c.runtime = Runtime::none;
    c.weights = "bf16";
    CHECK(estimate(c, catalog(), cal).overhead_detail.cuda_context == 0);
    // The assumptions name the report.
    c.runtime = Runtime::automatic;
    const auto items = assumptions(estimate(c, catalog(), cal));
    bool named = false;
    for (const auto& a : items) named = named || (a.name == "cuda_context" && a.source.find("report.json") != std::string::npos);
    CHECK(named);
}

TEST_CASE("measured figures as an overlay: the same answers as a calibrated copy, the catalog untouched", "[measured][calibration]") {
    const MeasuredReport r = rtx4090_report();
    const GpuOverlay overlay = measured_overlay(catalog(), r, "report.json");   // every catalog GPU it measured
    REQUIRE(overlay.gpus.size() == 1);
    CHECK(overlay.gpus[0].id == "rtx-4090");
    // The reference: a copy of the catalog whose RTX 4090 entry is the calibrated one.
    Catalog copy = catalog();
    for (Gpu& g : copy.gpus)
        if (g.id == "rtx-4090") g = overlay.gpus[0];
    copy.reindex();
    Config c = config("llama-3-8b", "rtx-4090");
    c.weights = "q4_k_m";
    c.gpus = 2;
    const Report over = estimate(c, catalog(), EstimateOptions{true, &overlay});
    const Report cal = estimate(c, copy, EstimateOptions{true});
    CHECK(over.overhead_detail.cuda_context == 350 * kMiB);   // the report's context with cuBLASLt
    CHECK(over.gpu_capacity == cal.gpu_capacity);
    CHECK(over.speed.decode_tokens_per_s == cal.speed.decode_tokens_per_s);
    CHECK(over.interconnect.alternative.decode_tokens_per_s == cal.interconnect.alternative.decode_tokens_per_s);
    REQUIRE(over.measured);
    CHECK(over.measured->gpu_id == "rtx-4090");
    CHECK_FALSE(catalog().gpu("rtx-4090").calibration);   // the catalog itself is not changed
    CHECK(fit(c, catalog(), &overlay).max_context == fit(c, copy).max_context);
    // recommend() sees the measured GPU in its row, the others with their datasheets.
    RecommendQuery q;
    q.base = c;
    q.max_gpus = 2;
    const Recommendation a = recommend(q, catalog(), &overlay), b = recommend(q, copy);
    REQUIRE(a.recommended.size() == b.recommended.size());
    for (std::size_t i = 0; i < a.recommended.size(); ++i) {
        CHECK(a.recommended[i].gpu == b.recommended[i].gpu);
        CHECK(a.recommended[i].tokens_per_s == b.recommended[i].tokens_per_s);
    }
    // A report that measured no catalog GPU has nothing to lay over it.
    MeasuredReport unknown = r;
    for (auto& d : unknown.devices) d.catalog_id.clear();
    CHECK_THROWS_WITH(measured_overlay(catalog(), unknown, "r.json"), Catch::Contains("measured no catalog GPU"));
}

TEST_CASE("the report JSON gains a `measured` object, and only with --measured", "[measured][json]") {
    const GpuOverlay cal = measured_overlay(catalog(), rtx4090_report(), "report.json", {"rtx-4090"});
    const Config c = config("llama-3-8b", "rtx-4090");
    const auto plain = nlohmann::json::parse(report_to_json(estimate(c, catalog())));
    CHECK_FALSE(plain.contains("measured"));
    const auto j = nlohmann::json::parse(report_to_json(estimate(c, catalog(), EstimateOptions{false, &cal})));
    REQUIRE(j.contains("measured"));
    const auto& m = j["measured"];
    CHECK(m["file"] == "report.json");
    CHECK(m["device"] == "NVIDIA GeForce RTX 4090");
    CHECK(m["gpu_id"] == "rtx-4090");
    bool bandwidth = false;
    for (const auto& f : m["figures"])
        if (f["key"] == "memory_bandwidth_gb_per_s") bandwidth = f["datasheet"] == 1008 && f["measured"] == 910 && f["unit"] == "GB/s";
    CHECK(bandwidth);
    CHECK(m["datasheet_only"].is_array());
    // Every key of the report stays where it was.
    for (auto it = plain.begin(); it != plain.end(); ++it) CHECK(j.contains(it.key()));
}

TEST_CASE("gpusizer estimate --measured: table and errors", "[measured][cli]") {
    const std::string path = "test_measured_report.json";
    {
        std::ofstream f(path);
        f << measured_report_to_json(rtx4090_report());
    }
    std::ostringstream out, err;
    int code = cli::run({"estimate", "--model", "llama-3-8b", "--measured", path, "--assets", GPUSIZER_TEST_ASSETS}, "gpusizer", out, err);
    REQUIRE(code == 0);
    const std::string text = out.str();
    CHECK(text.find("NVIDIA GeForce RTX 4090") != std::string::npos);   // the report's GPU without --gpu
    CHECK(text.find("measured (" + path + ": NVIDIA GeForce RTX 4090, quick, 2025-01-31T12:00:00Z)") != std::string::npos);
    CHECK(text.find("1,008 GB/s") != std::string::npos);
    CHECK(text.find("910 GB/s") != std::string::npos);
    CHECK(text.find("90%") != std::string::npos);   // 910 / 1008
    CHECK(text.find("datasheet only:") != std::string::npos);
    // fit takes it too.
    std::ostringstream fout, ferr;
    CHECK(cli::run({"fit", "--model", "llama-3-8b", "--measured", path, "--json", "--assets", GPUSIZER_TEST_ASSETS}, "gpusizer", fout,
                   ferr) == 0);
    CHECK(fout.str().find("\"measured\"") != std::string::npos);
    // recommend takes it too: the measured GPU's row uses its measured bandwidth (910 of 1,008
    // GB/s), the others their datasheets.
    auto recommend_rows = [&](bool measured) {
        std::vector<std::string> args = {"recommend", "--model", "llama-3-8b", "--json", "--assets", GPUSIZER_TEST_ASSETS};
        if (measured) {
            args.push_back("--measured");
            args.push_back(path);
        }
        std::ostringstream o, e;
        REQUIRE(cli::run(args, "gpusizer", o, e) == 0);
        std::map<std::string, double> speed;
        const nlohmann::json answer = nlohmann::json::parse(o.str());
        for (const auto& row : answer["recommended"])
            speed[row["gpu"].get<std::string>() + "x" + std::to_string(row["gpus"].get<int>())] = row["decode_tokens_per_s"];
        return speed;
    };
    const auto datasheet = recommend_rows(false), calibrated = recommend_rows(true);
    REQUIRE(datasheet.count("rtx-4090x1"));
    CHECK(calibrated.at("rtx-4090x1") == Approx(datasheet.at("rtx-4090x1") * 910.0 / 1008.0).epsilon(0.02));
    CHECK(calibrated.at("h100-sxmx1") == datasheet.at("h100-sxmx1"));
    // A broken report: one line naming the file and the field, exit 2.
    {
        std::ofstream f(path);
        f << "{\"schema_version\": 1, \"status\": \"ok\", \"devices\": [{\"index\": 0}]}";
    }
    std::ostringstream out2, err2;
    code = cli::run({"estimate", "--model", "llama-3-8b", "--measured", path, "--assets", GPUSIZER_TEST_ASSETS}, "gpusizer", out2, err2);
    CHECK(code == 2);
    CHECK(err2.str() == "gpusizer: error: " + path + ": devices[0].name: is missing\n");
    std::remove(path.c_str());
}
