// test_counting.cpp: the counting conventions, sizes and repetition plans of counting.hpp,
// against their sources (docs/research/cuda-bench-method.md) and hand calculations.
#include <catch2/catch.hpp>

#include "counting.hpp"

using namespace gpusizer::bench;

TEST_CASE("BabelStream counts copy as 2 arrays and triad as 3", "[counting]") {
    // BabelStream's default: 2^25 doubles per array = 268,435,456 bytes ("3 x 268 MB").
    const std::size_t n = std::size_t(1) << 25;
    CHECK(stream_bytes(StreamKernel::copy, n) == 2.0 * 268435456.0);
    CHECK(stream_bytes(StreamKernel::triad, n) == 3.0 * 268435456.0);
    CHECK(stream_convention(StreamKernel::triad).find("3 arrays") != std::string_view::npos);
}

TEST_CASE("a GEMM is 2 M N K operations", "[counting]") {
    CHECK(gemm_flops(8192, 8192, 8192) == 2.0 * 8192.0 * 8192.0 * 8192.0);   // 1.0995e12
    CHECK(gemm_flops(14336, 16, 4096) == 2.0 * 14336 * 16 * 4096);
    // 794.5 TFLOPS (H100 BF16, best shape) means one 8192^3 GEMM in 1.384 ms.
    CHECK(gemm_flops(8192, 8192, 8192) / 794.5e12 == Approx(1.3839e-3).epsilon(1e-3));
}

TEST_CASE("nccl-tests bus bandwidth factors", "[counting]") {
    // all-reduce 2(n-1)/n: 8 GPUs -> 1.75; 2 GPUs -> 1; others (n-1)/n: 8 GPUs -> 0.875.
    CHECK(busbw_factor(Collective::all_reduce, 8) == Approx(1.75));
    CHECK(busbw_factor(Collective::all_reduce, 2) == Approx(1.0));
    CHECK(busbw_factor(Collective::all_reduce, 1) == Approx(0.0));
    CHECK(busbw_factor(Collective::reduce_scatter, 8) == Approx(0.875));
    CHECK(busbw_factor(Collective::all_gather, 4) == Approx(0.75));
    CHECK(busbw_factor(Collective::all_to_all, 2) == Approx(0.5));
    // 8 x H100 ring: busbw ~370 GB/s <=> algbw 211.4 GB/s.
    CHECK(bus_bandwidth(Collective::all_reduce, 211.43e9, 8) == Approx(370e9).epsilon(1e-3));
}

TEST_CASE("stream arrays are far above L2 and fit in memory", "[counting]") {
    const double GiB = 1024.0 * 1024.0 * 1024.0, MiB = 1024.0 * 1024.0;
    // H100: 50 MB L2, 79 GiB free -> BabelStream's 2^25 doubles (256 MiB, 5 x L2).
    CHECK(stream_elements(50 * MiB, 79 * GiB) == std::size_t(1) << 25);
    // B200-like 126 MiB L2 -> 4 x L2 = 504 MiB per array.
    CHECK(double(stream_elements(126 * MiB, 170 * GiB)) * 8.0 >= 4.0 * 126 * MiB);
    // A small card: 4 GiB free, 32 MiB L2 -> capped to 40% of free over 3 arrays, still >= 4 x L2.
    const std::size_t e = stream_elements(32 * MiB, 1 * GiB);
    CHECK(double(e) * 8.0 * 3.0 <= 0.40 * GiB);
    CHECK(double(e) * 8.0 >= 4.0 * 32 * MiB);
    CHECK(e % 1024 == 0);
    // Not enough memory for 4 x L2 per array: none.
    CHECK(stream_elements(96 * MiB, 512 * MiB) == 0);
}

TEST_CASE("copy buffers follow nvbandwidth's 512 MiB within memory", "[counting]") {
    const double MiB = 1024.0 * 1024.0;
    CHECK(copy_bytes(false, 80e9) == std::size_t(512 * MiB));
    CHECK(copy_bytes(true, 80e9) == std::size_t(256 * MiB));
    CHECK(double(copy_bytes(false, 1e9)) <= 0.2e9);
    CHECK(copy_bytes(false, 1e6) == 0);
}

TEST_CASE("GEMM inputs rotate until they cover twice the L2", "[counting]") {
    const double MiB = 1024.0 * 1024.0;
    // bf16 4096^3: A + B = 64 MiB; H100's 50 MiB L2 -> 2 copies cover 100 MiB.
    const double ab = gemm_input_bytes(Precision::bf16, 4096, 4096, 4096);
    CHECK(ab == 2.0 * 2 * 4096.0 * 4096.0);
    CHECK(gemm_rotations(50 * MiB, ab, 10e9) == 2);
    CHECK(gemm_rotations(50 * MiB, gemm_input_bytes(Precision::fp32, 8192, 8192, 8192), 10e9) == 1);
    CHECK(gemm_rotations(50 * MiB, 1 * MiB, 10e9) == 8);           // capped
    CHECK(gemm_rotations(50 * MiB, ab, 1.5 * ab) == 1);            // within the memory budget
    CHECK(gemm_output_bytes(Precision::int8, 4, 4) == 4.0 * 16);   // INT32 output
    CHECK(gemm_output_bytes(Precision::fp8, 4, 4) == 2.0 * 16);    // BF16 output
}

TEST_CASE("shapes: square and Llama 3 8B's MLP", "[counting]") {
    const auto quick = gemm_shapes(true);
    const auto full = gemm_shapes(false);
    CHECK(quick.size() == 2);
    CHECK(full.size() == 5);
    bool up = false;
    for (const auto& s : full)
        if (std::string(s.name) == "llm_mlp_up") up = s.m == 14336 && s.n == 4096 && s.k == 4096;
    CHECK(up);
    for (const auto& s : full) CHECK((s.m % 16 == 0 && s.n % 16 == 0 && s.k % 16 == 0));   // FP8/INT8 alignment
}

TEST_CASE("repetitions fill the target time within their bounds", "[counting]") {
    const Run r{5, 0.2, 20, 1000, 0.4};
    CHECK(plan_iterations(r, 1e-3) == 400);      // 0.4 s / 1 ms
    CHECK(plan_iterations(r, 1.0) == 20);        // at least min
    CHECK(plan_iterations(r, 1e-7) == 1000);     // at most max
    CHECK(plan_iterations(r, 0.0) == 1000);
    CHECK(plan_warmup(r, 1e-3) == 4);            // warmup - 1 after the first
    CHECK(plan_warmup(r, 0.1) == 2);             // no more than 0.2 s
    CHECK(plan_warmup(r, 1.0) == 0);
    // Quick runs are bounded tighter than full ones.
    CHECK(gemm_run(true).max_iterations <= gemm_run(false).max_iterations);
    CHECK(gemm_run(false).warmup == 20);         // cuBLASLt benchmarks warm up with 20-50
    CHECK(copy_run(false).warmup == 4);          // nvbandwidth: 4 warm-up copies
}

TEST_CASE("precisions by compute capability", "[counting]") {
    // T4 (7.5): FP16 and INT8 tensor cores, no TF32/BF16/FP8.
    CHECK(precision_supported(Precision::fp16, 7, 5));
    CHECK(precision_supported(Precision::int8, 7, 5));
    CHECK_FALSE(precision_supported(Precision::bf16, 7, 5));
    CHECK_FALSE(precision_supported(Precision::tf32, 7, 5));
    // A100 (8.0): BF16/TF32, no FP8; RTX 4090 (8.9) and H100 (9.0): FP8.
    CHECK(precision_supported(Precision::bf16, 8, 0));
    CHECK_FALSE(precision_supported(Precision::fp8, 8, 6));
    CHECK(precision_supported(Precision::fp8, 8, 9));
    CHECK(precision_supported(Precision::fp8, 9, 0));
    CHECK(precision_supported(Precision::fp8, 12, 0));
    CHECK(gemm_unit(Precision::int8) == "TOP/s");
    CHECK(gemm_unit(Precision::bf16) == "TFLOP/s");
}

TEST_CASE("CUDA errors at start map to statuses", "[counting]") {
    CHECK(init_status_for_cuda_error(35) == InitStatus::no_driver);          // cudaErrorInsufficientDriver
    CHECK(init_status_for_cuda_error(34) == InitStatus::no_driver);          // cudaErrorStubLibrary
    CHECK(init_status_for_cuda_error(100) == InitStatus::no_device);         // cudaErrorNoDevice
    CHECK(init_status_for_cuda_error(802) == InitStatus::system_not_ready);  // cudaErrorSystemNotReady
    CHECK(init_status_for_cuda_error(999) == InitStatus::cuda_error);
    CHECK(init_status_for_cuda_error(0) == InitStatus::ok);
}

TEST_CASE("NVML throttle reasons, UUIDs and NCCL versions", "[counting]") {
    CHECK(throttle_reason_names(0).empty());
    CHECK(throttle_reason_names(0x1) == std::vector<std::string>{"gpu_idle"});
    CHECK(throttle_reason_names(0x4 | 0x40) == std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"});
    CHECK(throttle_reason_names(0x1000) == std::vector<std::string>{"other_0x1000"});
    const unsigned char b[16] = {0x8f, 0x0e, 0x2c, 0x3a, 0x01, 0x02, 0x03, 0x04, 0xa0, 0xb0, 0xc0, 0xd0, 0xe0, 0xf0, 0x00, 0x11};
    CHECK(format_uuid(b) == "GPU-8f0e2c3a-0102-0304-a0b0-c0d0e0f00011");
    CHECK(nccl_version_string(22703) == "2.27.3");   // NCCL_VERSION(2, 27, 3)
    CHECK(nccl_version_string(2804) == "2.8.4");     // before 2.9: X * 1000 + Y * 100 + Z
    CHECK(nccl_version_string(0) == "unknown");
}
