// test_bench_driver.cpp: the benchmark driver against the fake backend: what it measures, how it
// counts, its statistics, its judgement against the datasheet, its time budget, and what it does
// when the driver, a device or a measurement fails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "bench.hpp"
#include "counting.hpp"
#include "fake_backend.hpp"
#include "gpusizer/gpusizer.hpp"

using namespace gpusizer;
using namespace gpusizer::bench;

namespace {

const Catalog& catalog() {
    static const Catalog c = load_catalog(GPUSIZER_TEST_ASSETS);
    return c;
}

struct Outcome {
    MeasuredReport report;
    std::vector<FakeCall> calls;
    std::string progress;
};

Outcome run(FakeScript script, bool quick = false, int device = -1, const Catalog* cat = &catalog()) {
    FakeBackend backend(std::move(script));
    BenchOptions o;
    o.quick = quick;
    o.device = device;
    o.out = "unused.json";
    std::ostringstream progress;
    BenchDriver driver(backend, cat, o, progress);
    driver.run();
    return {driver.report(), backend.calls(), progress.str()};
}

FakeScript steady_h100(int gpus) {
    FakeScript s = fake_h100_script(gpus);
    s.jitter = {1.0};   // every repetition takes the same time: medians equal the scripted rates
    return s;
}

const Measurement& find(const std::vector<Measurement>& list, const std::string& id) {
    for (const auto& m : list)
        if (m.id == id) return m;
    FAIL("no measurement " << id);
    return list.front();
}

const TargetCheck* target(const std::vector<TargetCheck>& list, const std::string& name) {
    for (const auto& t : list)
        if (t.name == name) return &t;
    return nullptr;
}

}  // namespace

TEST_CASE("one H100: every measurement, counted by its convention", "[driver]") {
    const Outcome o = run(steady_h100(1));
    const MeasuredReport& r = o.report;
    REQUIRE(r.status == BenchStatus::ok);
    CHECK(exit_code_for(r.status) == 0);
    CHECK(r.mode == "full");
    REQUIRE(r.devices.size() == 1);
    const MeasuredDevice& d = r.devices[0];
    CHECK(d.name == "NVIDIA H100 80GB HBM3");
    CHECK(d.catalog_id == "h100-sxm");
    CHECK(d.compute_capability == "9.0");
    CHECK(d.memory.cuda_context_bytes == 287047680.0);
    CHECK(d.memory.context_method == "nvml_used_delta");

    // Memory bandwidth: triad moves 3 arrays; the scripted 2.97e12 B/s reads 2,970 GB/s.
    const Measurement& triad = d.measurements[1];
    CHECK(triad.id == "memory.triad");
    CHECK(triad.unit == "GB/s");
    CHECK(triad.stats.median == Approx(2970.0));
    CHECK(triad.bytes == Approx(3.0 * 8.0 * double(std::size_t(1) << 25)));
    CHECK(triad.bytes / 3.0 >= 4.0 * d.l2_bytes);                  // each array far above L2
    CHECK(triad.datasheet == 3350);                                 // catalog h100-sxm
    CHECK(triad.fraction_of_datasheet == Approx(2970.0 / 3350.0));  // 89%, as BabelStream published
    CHECK(find(d.measurements, "memory.copy").stats.median == Approx(2900.0));

    // GEMM: 2MNK per repetition; every precision of sm_90 at every shape of the full run.
    for (const char* p : {"fp32", "tf32", "fp16", "bf16", "fp8", "int8"})
        for (const auto& s : gemm_shapes(false)) {
            const Measurement& m = find(d.measurements, std::string("gemm.") + p + "." + s.name);
            CHECK(m.precision == p);
            CHECK((m.m == s.m && m.n == s.n && m.k == s.k));
        }
    const Measurement& bf16 = find(d.measurements, "gemm.bf16.square_8192");
    CHECK(bf16.unit == "TFLOP/s");
    CHECK(bf16.stats.median == Approx(794.5));
    CHECK(bf16.datasheet == Approx(989.4));
    CHECK(find(d.measurements, "gemm.int8.square_8192").unit == "TOP/s");
    CHECK(find(d.measurements, "gemm.fp32.square_4096").datasheet == 67);   // CUDA-core FP32

    // What the backend was asked: TN GEMMs, inputs rotated to cover 2 x L2 (bf16 4096^3: 2 copies).
    for (const auto& c : o.calls)
        if (c.op == "gemm.bf16" && c.gemm.m == 4096 && c.gemm.k == 4096) CHECK(c.gemm.rotations == 2);

    // Host copies: bytes counted once; PCIe 5 x16 = 63.0 GB/s per direction.
    const Measurement& h2d = find(d.measurements, "host.h2d.pinned");
    CHECK(h2d.stats.median == Approx(55.6));
    CHECK(h2d.datasheet == Approx(63.015).epsilon(1e-3));
    CHECK(h2d.bytes == 512.0 * 1024 * 1024);
    CHECK(find(d.measurements, "host.d2h.pageable").stats.median == Approx(18.0));

    // Energy: 650 W while the bf16 GEMM runs -> TFLOPS per watt, and J per 2e9 FLOP.
    REQUIRE(bf16.has_energy);
    CHECK(bf16.energy.avg_power_w == Approx(650.0));
    CHECK(bf16.energy.method == "nvml_energy_counter");
    CHECK(bf16.energy.per_watt == Approx(794.5 / 650.0));
    CHECK(bf16.energy.joules_per_token_equiv == Approx(650.0 / 794.5e12 * 2e9));
    CHECK(triad.energy.joules_per_token_equiv == Approx(650.0 / 2.97e12 * 2e9));   // J per 2e9 bytes
    CHECK(bf16.has_telemetry);

    // Targets: triad 89% >= 85%, pinned 88% >= 80%, best BF16 80.3% >= 80%.
    const TargetCheck* t = target(d.targets, "triad");
    REQUIRE(t);
    CHECK(t->met);
    REQUIRE(target(d.targets, "pcie_h2d_pinned"));
    CHECK(target(d.targets, "pcie_h2d_pinned")->met);
    REQUIRE(target(d.targets, "gemm_bf16_best"));
    CHECK(target(d.targets, "gemm_bf16_best")->fraction == Approx(794.5 / 989.4));
    CHECK(target(d.targets, "gemm_bf16_best")->met);

    // One device: no pairs, no NCCL, and the report says so.
    CHECK(r.links.empty());
    CHECK(r.collectives.empty());
    CHECK(o.progress.find("memory.triad") != std::string::npos);
    CHECK(o.progress.find("89% of datasheet") != std::string::npos);
}

TEST_CASE("statistics of replayed timings", "[driver][stats]") {
    FakeScript s = steady_h100(1);
    // Five triad repetitions: 3 arrays of 2^25 doubles = 805,306,368 bytes each.
    const double bytes = 3.0 * 8.0 * double(std::size_t(1) << 25);
    s.replay["stream.triad"] = {bytes / 2.0e12, bytes / 2.5e12, bytes / 3.0e12, bytes / 2.8e12, bytes / 2.9e12};
    const Outcome o = run(s);
    const Measurement& m = find(o.report.devices[0].measurements, "memory.triad");
    // Rates 2000, 2500, 3000, 2800, 2900 GB/s: sorted 2000 2500 2800 2900 3000.
    CHECK(m.stats.samples == 5);
    CHECK(m.stats.median == Approx(2800));
    CHECK(m.stats.best == Approx(3000));
    CHECK(m.stats.worst == Approx(2000));
    CHECK(m.stats.mean == Approx(2640));
    CHECK(m.stats.p05 == Approx(2100));   // h = 0.2: 2000 + 0.2 x 500
    CHECK(m.stats.p95 == Approx(2980));   // h = 3.8: 2900 + 0.8 x 100
    CHECK(m.fraction_of_datasheet == Approx(3000.0 / 3350.0));   // judged on the best repetition
}

TEST_CASE("a quick run stays within 30 s of device time per GPU, a full one within 3 minutes", "[driver][budget]") {
    // The fake's H100 rates (published measurements) and a 1-2% jitter; setup time comes on top.
    for (bool quick : {true, false}) {
        const Outcome o = run(fake_h100_script(1), quick);
        REQUIRE(o.report.status == BenchStatus::ok);
        double seconds = 0;
        for (const auto& c : o.calls) seconds += c.seconds;
        INFO((quick ? "quick " : "full ") << seconds << " s");
        CHECK(seconds < (quick ? 15.0 : 120.0));   // half the budget left for allocation and set-up
        std::size_t gemms = 0;
        for (const auto& m : o.report.devices[0].measurements) gemms += m.id.rfind("gemm.", 0) == 0;
        CHECK(gemms == 6 * gemm_shapes(quick).size());
    }
}

TEST_CASE("two GPUs: peers both ways, latency, and NCCL's bus bandwidth", "[driver]") {
    const Outcome o = run(steady_h100(2));
    const MeasuredReport& r = o.report;
    REQUIRE(r.status == BenchStatus::ok);
    // Ordered pairs (0-1, 1-0) one way each; the unordered pair both ways once; latency per ordered pair.
    std::vector<std::string> ids;
    for (const auto& m : r.links) ids.push_back(m.id);
    CHECK(ids == std::vector<std::string>{"p2p.0-1.unidirectional", "p2p.0-1.bidirectional", "p2p.0-1.latency",
                                          "p2p.1-0.unidirectional", "p2p.1-0.latency"});
    const Measurement& uni = find(r.links, "p2p.0-1.unidirectional");
    CHECK(uni.stats.median == Approx(375.0));
    CHECK(uni.datasheet == Approx(450.0));   // NVLink 900 GB/s bidirectional = 450 per direction
    CHECK(find(r.links, "p2p.0-1.bidirectional").datasheet == Approx(900.0));
    CHECK(find(r.links, "p2p.0-1.latency").stats.median == Approx(2.5));   // us
    CHECK(find(r.links, "p2p.0-1.latency").unit == "us");

    // busbw = algbw x 2(n-1)/n; n = 2 -> equal.
    const Measurement& alg = find(r.collectives, "nccl.allreduce.algbw");
    const Measurement& bus = find(r.collectives, "nccl.allreduce.busbw");
    CHECK(bus.stats.median == Approx(alg.stats.median * busbw_factor(Collective::all_reduce, 2)));
    CHECK(bus.stats.median == Approx(370.0));
    CHECK(bus.datasheet == Approx(450.0));
    const TargetCheck* t = target(r.targets, "nccl_allreduce_busbw");
    REQUIRE(t);
    CHECK(t->fraction == Approx(370.0 / 450.0));   // 82%, as published for 8 x H100 ring
    CHECK(t->met);
}

TEST_CASE("eight GPUs: every pair, and busbw = algbw x 1.75", "[driver]") {
    const Outcome o = run(steady_h100(8));
    // Device time of the pairs and the all-reduce: under a minute for 8 GPUs in a full run.
    double seconds = 0;
    for (const auto& c : o.calls)
        if (c.op.rfind("p2p.", 0) == 0 || c.op.rfind("latency.", 0) == 0 || c.op == "allreduce") seconds += c.seconds;
    CHECK(seconds < 60.0);
    CHECK(o.report.links.size() == 8 * 7 + 8 * 7 / 2 + 8 * 7);   // one-way, both-ways, latency
    const Measurement& alg = find(o.report.collectives, "nccl.allreduce.algbw");
    const Measurement& bus = find(o.report.collectives, "nccl.allreduce.busbw");
    CHECK(bus.stats.median / alg.stats.median == Approx(1.75));
    CHECK(bus.devices.size() == 8);
}

TEST_CASE("without NCCL the all-reduce is skipped and the report says why", "[driver]") {
    FakeScript s = steady_h100(2);
    s.init.nccl_available = false;
    s.init.nccl = "libnccl.so.2 not loaded: cannot open shared object file";
    const Outcome o = run(s);
    CHECK(o.report.status == BenchStatus::ok);
    CHECK(o.report.collectives.empty());
    bool noted = false;
    for (const auto& n : o.report.notes) noted = noted || n.find("libnccl.so.2 not loaded") != std::string::npos;
    CHECK(noted);
}

TEST_CASE("no driver, no device, driver not ready: a status, a detail, a distinct exit code", "[driver][errors]") {
    struct Case {
        InitStatus init;
        BenchStatus status;
        int code;
    };
    for (const Case c : {Case{InitStatus::no_driver, BenchStatus::no_driver, 3}, Case{InitStatus::no_device, BenchStatus::no_device, 4},
                         Case{InitStatus::system_not_ready, BenchStatus::system_not_ready, 5},
                         Case{InitStatus::cuda_error, BenchStatus::cuda_error, 6}}) {
        FakeScript s;
        s.init.status = c.init;
        s.init.detail = "cudaGetDeviceCount: something (cudaErrorSomething = 1)";
        s.init.runtime_version = 13000;
        const Outcome o = run(s);
        CHECK(o.report.status == c.status);
        CHECK(exit_code_for(o.report.status) == c.code);
        CHECK(o.report.status_detail == s.init.detail);
        CHECK(o.report.devices.empty());
        CHECK(o.report.cuda_runtime_version == 13000);
        CHECK(o.calls.empty());
    }
    // All codes differ, and only ok is 0.
    std::vector<int> codes;
    for (BenchStatus s : {BenchStatus::ok, BenchStatus::partial, BenchStatus::no_driver, BenchStatus::no_device,
                          BenchStatus::system_not_ready, BenchStatus::cuda_error, BenchStatus::internal_error})
        codes.push_back(exit_code_for(s));
    std::sort(codes.begin(), codes.end());
    CHECK(std::adjacent_find(codes.begin(), codes.end()) == codes.end());
    CHECK(codes.front() == 0);
    CHECK(exit_code_for(BenchStatus::partial) != 0);
}

TEST_CASE("an absent --device N is no_device, naming what is present", "[driver][errors]") {
    const Outcome o = run(steady_h100(2), false, 5);
    CHECK(o.report.status == BenchStatus::no_device);
    CHECK(o.report.status_detail == "--device 5 requested; 2 device(s) present (0 to 1)");
    const Outcome one = run(steady_h100(2), true, 1);
    CHECK(one.report.status == BenchStatus::ok);
    REQUIRE(one.report.devices.size() == 1);
    CHECK(one.report.devices[0].index == 1);
    CHECK(one.report.links.empty());
}

TEST_CASE("a failing measurement is recorded, the others run, the status is partial", "[driver][errors]") {
    FakeScript s = steady_h100(2);
    s.errors["gemm.fp8"] = "cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED (15)";
    s.errors["1:host.d2h.pinned"] = "cudaMemcpyAsync (pinned): an illegal memory access was encountered (cudaErrorIllegalAddress = 700)";
    s.errors["allreduce"] = "ncclCommInitAll: unhandled cuda error (1)";
    const Outcome o = run(s);
    const MeasuredReport& r = o.report;
    CHECK(r.status == BenchStatus::partial);
    CHECK(exit_code_for(r.status) == 7);
    for (const auto& d : r.devices)
        for (const auto& m : d.measurements) {
            INFO(d.index << " " << m.id);
            const bool should_fail = m.precision == "fp8" || (d.index == 1 && m.id == "host.d2h.pinned");
            CHECK(m.ok() != should_fail);
            if (should_fail) CHECK_FALSE(m.error.empty());
        }
    CHECK(find(r.devices[0].measurements, "host.d2h.pinned").ok());
    CHECK(find(r.collectives, "nccl.allreduce.busbw").error == "ncclCommInitAll: unhandled cuda error (1)");
    CHECK(target(r.targets, "nccl_allreduce_busbw") == nullptr);
    CHECK(o.progress.find("FAILED: cublasLtMatmul") != std::string::npos);
}

TEST_CASE("a device whose properties cannot be read is left out, the rest measured", "[driver][errors]") {
    FakeScript s = steady_h100(2);
    s.errors["0:device_info"] = "cudaGetDeviceProperties: unknown error (cudaErrorUnknown = 999)";
    const Outcome o = run(s);
    CHECK(o.report.status == BenchStatus::partial);
    REQUIRE(o.report.devices.size() == 1);
    CHECK(o.report.devices[0].index == 1);
}

TEST_CASE("a bug in the backend is not taken for a GPU problem", "[driver][errors]") {
    FakeScript s = steady_h100(1);
    s.bugs["gemm.bf16"] = "vector index out of range";
    FakeBackend backend(s);
    BenchOptions o;
    o.out = "unused.json";
    std::ostringstream progress;
    BenchDriver driver(backend, &catalog(), o, progress);
    CHECK_THROWS_AS(driver.run(), std::logic_error);
    // What was measured before it stays in the report.
    REQUIRE(driver.report().devices.size() == 1);
    CHECK(driver.report().devices[0].find("memory.triad") != nullptr);
}

TEST_CASE("a T4 measures only the precisions it has", "[driver]") {
    FakeScript s = steady_h100(1);
    s.devices[0].info.name = "Tesla T4";
    s.devices[0].info.cc_major = 7;
    s.devices[0].info.cc_minor = 5;
    s.devices[0].info.total_bytes = 15.56 * 1024 * 1024 * 1024;   // fixture: CUDA's total on a 16 GB T4
    s.devices[0].memory.total_bytes = s.devices[0].info.total_bytes;
    s.devices[0].memory.free_bytes = 15.0 * 1024 * 1024 * 1024;
    const Outcome o = run(s);
    const MeasuredDevice& d = o.report.devices[0];
    CHECK(d.catalog_id == "t4");
    std::vector<std::string> precisions;
    for (const auto& m : d.measurements)
        if (!m.precision.empty() && std::find(precisions.begin(), precisions.end(), m.precision) == precisions.end())
            precisions.push_back(m.precision);
    CHECK(precisions == std::vector<std::string>{"fp32", "fp16", "int8"});
    CHECK(find(d.measurements, "gemm.fp16.square_8192").datasheet == 65);
}

TEST_CASE("a device the catalog does not know is measured without datasheet figures", "[driver]") {
    FakeScript s = steady_h100(1);
    s.devices[0].info.name = "NVIDIA H100 NVL";
    const Outcome o = run(s);
    const MeasuredDevice& d = o.report.devices[0];
    CHECK(d.catalog_id.empty());
    CHECK(o.report.status == BenchStatus::ok);
    CHECK(find(d.measurements, "memory.triad").datasheet == 0);
    CHECK(d.targets.empty());
    const Outcome none = run(steady_h100(1), false, -1, nullptr);   // no catalog at all
    CHECK(none.report.status == BenchStatus::ok);
    CHECK(none.report.devices[0].catalog_id.empty());
}

TEST_CASE("without NVML power, energy comes from nothing and is left out", "[driver]") {
    FakeScript s = steady_h100(1);
    s.power_w = -1;
    const Outcome o = run(s);
    const Measurement& m = find(o.report.devices[0].measurements, "gemm.bf16.square_8192");
    CHECK_FALSE(m.has_energy);
    CHECK_FALSE(m.has_telemetry);
    // Power samples without an energy counter: energy = power x wall time.
    FakeScript p = steady_h100(1);
    p.energy_counter = false;
    const Outcome q = run(p);
    const Measurement& e = find(q.report.devices[0].measurements, "gemm.bf16.square_8192");
    REQUIRE(e.has_energy);
    CHECK(e.energy.method == "nvml_power_samples");
    CHECK(e.energy.avg_power_w == Approx(650.0));
}
