// test_bench_cli.cpp: gpusizer-cuda-bench as a user runs it (with the fake backend): flags, the
// report file, one line and a distinct exit code when things go wrong, and the report feeding
// `gpusizer estimate --measured`.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "bench.hpp"
#include "cli_support.hpp"
#include "fake_backend.hpp"
#include "gpusizer/gpusizer.hpp"

using namespace gpusizer;
using namespace gpusizer::bench;

namespace {

using Result = test::CliResult;
using test::line_count;

Result run_bench(std::vector<std::string> args, const FakeScript& script) {
    args.push_back("--assets");
    args.push_back(GPUSIZER_TEST_ASSETS);
    std::ostringstream out, err;
    const int code = bench_main(args, [&] { return std::make_unique<FakeBackend>(script); }, "gpusizer-cuda-bench", out, err);
    return {code, out.str(), err.str()};
}


}  // namespace

TEST_CASE("flags", "[bench-cli]") {
    BenchOptions o = parse_bench_args({"--quick", "--device", "1", "--out", "r.json"});
    CHECK(o.quick);
    CHECK(o.device == 1);
    CHECK(o.out == "r.json");
    o = parse_bench_args({"--out=r.json", "--device=0"});
    CHECK_FALSE(o.quick);
    CHECK(o.device == 0);
    CHECK(parse_bench_args({"--help"}).help);
    CHECK_THROWS_WITH(parse_bench_args({"--quick"}), Catch::Contains("--out: is required"));
    CHECK_THROWS_WITH(parse_bench_args({"--out", "r.json", "--device", "one"}), Catch::Contains("--device: must be a CUDA device number"));
    CHECK_THROWS_WITH(parse_bench_args({"--out", "r.json", "--device", "-1"}), Catch::Contains("--device"));
    CHECK_THROWS_WITH(parse_bench_args({"--out", "r.json", "--fast"}), Catch::Contains("--fast: unknown argument"));
    CHECK_THROWS_WITH(parse_bench_args({"--out"}), Catch::Contains("--out: needs a value"));
}

TEST_CASE("bad flags exit 2 without a report, --help exits 0", "[bench-cli]") {
    const Result r = run_bench({"--quick"}, fake_h100_script(1));
    CHECK(r.code == kExitUsage);
    CHECK(line_count(r.err) == 1);
    const Result h = run_bench({"--help"}, fake_h100_script(1));
    CHECK(h.code == 0);
    CHECK(h.out.find("Exit codes") != std::string::npos);
}

TEST_CASE("a run writes a report that reads back the same", "[bench-cli]") {
    const std::string path = "bench_cli_report.json";
    std::remove(path.c_str());
    const Result r = run_bench({"--quick", "--out", path}, fake_h100_script(2));
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find("report " + path + " (status ok), exit 0") != std::string::npos);
    const MeasuredReport m = load_measured_report(path);
    CHECK(m.status == BenchStatus::ok);
    CHECK(m.exit_code == 0);
    CHECK(m.mode == "quick");
    CHECK(m.schema_version == 1);
    REQUIRE(m.devices.size() == 2);
    CHECK(m.devices[0].catalog_id == "h100-sxm");
    CHECK(m.devices[0].measurements.size() == 2 + 6 * 2 + 4);   // copy, triad; 6 precisions x 2 shapes; 4 host copies
    CHECK(m.links.size() == 5);
    CHECK(m.collectives.size() == 2);
    // Written again, the same text: nothing is lost or changed on the way.
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    CHECK(measured_report_to_json(m) + "\n" == text.str());
    std::remove(path.c_str());
}

TEST_CASE("no driver: one line, a report saying why, exit 3", "[bench-cli][errors]") {
    const std::string path = "bench_cli_no_driver.json";
    FakeScript s;
    s.init.status = InitStatus::no_driver;
    s.init.detail = "cudaGetDeviceCount: CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver = 35)";
    s.init.runtime_version = 13000;
    s.init.nvml = "libnvidia-ml.so.1 not loaded: libnvidia-ml.so.1: cannot open shared object file: No such file or directory";
    const Result r = run_bench({"--out", path}, s);
    CHECK(r.code == kExitNoDriver);
    CHECK(r.out.empty());
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find("no usable NVIDIA driver: cudaGetDeviceCount: CUDA driver version is insufficient") != std::string::npos);
    CHECK(r.err.find("(status no_driver), exit 3") != std::string::npos);
    const MeasuredReport m = load_measured_report(path);
    CHECK(m.status == BenchStatus::no_driver);
    CHECK(m.exit_code == 3);
    CHECK(m.status_detail == s.init.detail);
    CHECK(m.nvml == s.init.nvml);
    // The calculator refuses it with a clear line.
    const Result e = test::run_cli({"estimate", "--model", "llama-3-8b", "--measured", path});
    CHECK(e.code == 2);
    CHECK(e.err.find("holds no measurements: status no_driver") != std::string::npos);
    std::remove(path.c_str());
}

TEST_CASE("an unwritable report path exits 8, a bug exits 1 with a report", "[bench-cli][errors]") {
    const Result r = run_bench({"--out", "/nonexistent-dir/report.json"}, fake_h100_script(1));
    CHECK(r.code == kExitReportNotWritten);
    CHECK(r.err.find("cannot write the report to '/nonexistent-dir/report.json'") != std::string::npos);

    const std::string path = "bench_cli_bug.json";
    FakeScript s = fake_h100_script(1);
    s.bugs["gemm.bf16"] = "vector index out of range";
    const Result b = run_bench({"--quick", "--out", path}, s);
    CHECK(b.code == kExitInternal);
    CHECK(b.err.find("internal error: vector index out of range") != std::string::npos);
    const MeasuredReport m = load_measured_report(path);
    CHECK(m.status == BenchStatus::internal_error);
    CHECK(m.exit_code == 1);
    CHECK(m.devices.size() == 1);   // what was measured before the bug
    std::remove(path.c_str());
}

TEST_CASE("partial: exit 7, and the report still calibrates what was measured", "[bench-cli][errors]") {
    const std::string path = "bench_cli_partial.json";
    FakeScript s = fake_h100_script(1);
    s.errors["gemm.fp8"] = "cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED (15)";
    const Result r = run_bench({"--quick", "--out", path}, s);
    CHECK(r.code == kExitPartial);
    CHECK(line_count(r.err) == 1);
    const MeasuredReport m = load_measured_report(path);
    const Catalog cat = load_catalog(GPUSIZER_TEST_ASSETS);
    const GpuOverlay cal = measured_overlay(cat, m, path, {"h100-sxm"});
    const Gpu& g = cal.gpu(cat, "h100-sxm");
    CHECK(g.tensor_tflops_dense.fp8 == 1979);   // the failed measurement leaves the datasheet's
    CHECK(g.tensor_tflops_dense.bf16 < 989.4);  // the others are measured
    std::remove(path.c_str());
}

TEST_CASE("the report feeds gpusizer estimate --measured", "[bench-cli][calibration]") {
    const std::string path = "bench_cli_calibrate.json";
    REQUIRE(run_bench({"--quick", "--out", path}, fake_h100_script(1)).code == 0);
    // Without --gpu, the report's GPU is used; the readable output shows measured next to datasheet.
    const Result r = test::run_cli({"estimate", "--model", "llama-3-8b", "--measured", path});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("on 1 x NVIDIA H100 SXM5 80GB") != std::string::npos);
    CHECK(r.out.find("measured (" + path + ": NVIDIA H100 80GB HBM3, quick") != std::string::npos);
    CHECK(r.out.find("memory bandwidth") != std::string::npos);
    CHECK(r.out.find("3,350 GB/s") != std::string::npos);
    // JSON: the `measured` object, and the CUDA context the report measured.
    const Result j = test::run_cli({"estimate", "--model", "llama-3-8b", "--measured", path, "--json"});
    REQUIRE(j.code == 0);
    const MeasuredReport m = load_measured_report(path);
    CHECK(j.out.find("\"measured\"") != std::string::npos);
    CHECK(j.out.find("\"cuda_context\": " + std::to_string((long long)m.devices[0].memory.context_with_cublaslt_bytes)) !=
          std::string::npos);
    // Another GPU than the report's is refused, naming both.
    const Result other = test::run_cli({"estimate", "--model", "llama-3-8b", "--gpu", "rtx-4090", "--measured", path});
    CHECK(other.code == 2);
    CHECK(other.err.find("measured h100-sxm, not rtx-4090: use --gpu h100-sxm") != std::string::npos);
    std::remove(path.c_str());
}
