// counting.cpp: the benchmark's conventions (counting.hpp says where each comes from).
#include "counting.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpusizer::bench {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Counting bytes and operations
// ---------------------------------------------------------------------------------------------

double stream_bytes(StreamKernel kernel, std::size_t elements) {
    const double arrays = kernel == StreamKernel::copy ? 2.0 : 3.0;   // BabelStream: copy 2, triad 3
    return arrays * double(elements) * double(sizeof(double));
}

std::string_view stream_convention(StreamKernel kernel) {
    return kernel == StreamKernel::copy
               ? "BabelStream copy c[i] = a[i] on doubles: 2 arrays x elements x 8 bytes per repetition / kernel time (CUDA events)"
               : "BabelStream triad a[i] = b[i] + s * c[i] on doubles: 3 arrays x elements x 8 bytes per repetition / kernel time "
                 "(CUDA events)";
}

double gemm_flops(long long m, long long n, long long k) { return 2.0 * double(m) * double(n) * double(k); }

double busbw_factor(Collective c, int ranks) {
    if (ranks < 1) return 0.0;
    const double n = ranks;
    // nccl-tests doc/PERFORMANCE.md: the factor that makes bus bandwidth comparable to link speed.
    return c == Collective::all_reduce ? 2.0 * (n - 1.0) / n : (n - 1.0) / n;
}

double bus_bandwidth(Collective c, double algbw, int ranks) { return algbw * busbw_factor(c, ranks); }

// ---------------------------------------------------------------------------------------------
// [SECTION] Sizes and repetitions
// ---------------------------------------------------------------------------------------------

std::size_t stream_elements(double l2_bytes, double free_bytes) {
    constexpr double kBabelStreamDefault = double(1u << 25);   // BabelStream's default array size, elements
    const double floor_elements = std::max(kBabelStreamDefault, 4.0 * l2_bytes / 8.0);
    const double cap_elements = 0.40 * free_bytes / 3.0 / 8.0;   // three arrays within 40% of free memory
    const double min_elements = 4.0 * l2_bytes / 8.0;
    double e = std::min(floor_elements, cap_elements);
    if (e < min_elements || e < 1024.0) return 0;
    // A multiple of 1024 elements, so that every block of the kernels is full.
    return std::size_t(std::floor(e / 1024.0)) * 1024u;
}

std::size_t copy_bytes(bool quick, double free_bytes) {
    const double want = (quick ? 256.0 : 512.0) * kMiB;   // nvbandwidth's buffer is 512 MiB
    const double cap = 0.20 * free_bytes;
    const double b = std::min(want, cap);
    if (b < kMiB) return 0;
    return std::size_t(std::floor(b / kMiB)) * std::size_t(kMiB);
}

int gemm_rotations(double l2_bytes, double ab_bytes, double budget_bytes) {
    if (ab_bytes <= 0) return 1;
    int r = int(std::ceil(2.0 * l2_bytes / ab_bytes));
    r = std::clamp(r, 1, 8);
    while (r > 1 && double(r) * ab_bytes > budget_bytes) --r;
    return r;
}

namespace {

double element_bytes(Precision p, bool output) {
    switch (p) {
        case Precision::fp32:
        case Precision::tf32: return 4.0;
        case Precision::fp16:
        case Precision::bf16: return 2.0;
        case Precision::fp8: return output ? 2.0 : 1.0;    // FP8 inputs, BF16 output
        case Precision::int8: return output ? 4.0 : 1.0;   // INT8 inputs, INT32 output
        case Precision::fp4: return output ? 2.0 : 0.5;    // FP4 (E2M1) inputs, two per byte; BF16 output (block scales not counted)
    }
    return 4.0;
}

}  // namespace

double gemm_input_bytes(Precision p, long long m, long long n, long long k) {
    return element_bytes(p, false) * (double(m) * double(k) + double(k) * double(n));
}

double gemm_output_bytes(Precision p, long long m, long long n) { return element_bytes(p, true) * double(m) * double(n); }

std::vector<GemmShape> gemm_shapes(bool quick) {
    // Llama 3 8B: hidden 4096, intermediate 14336 (its config.json). The MLP's gate/up projection
    // over a 4096-token prefill is 14336 x 4096 x 4096; down, 4096 x 4096 x 14336; a decode step of
    // 16 sequences, 14336 x 16 x 4096 (memory-bound: it shows what decoding gets).
    if (quick) return {{"square_8192", 8192, 8192, 8192}, {"llm_mlp_up", 14336, 4096, 4096}};
    return {{"square_4096", 4096, 4096, 4096},
            {"square_8192", 8192, 8192, 8192},
            {"llm_mlp_up", 14336, 4096, 4096},
            {"llm_mlp_down", 4096, 4096, 14336},
            {"llm_decode_16", 14336, 16, 4096}};
}

Run stream_run(bool quick) { return quick ? Run{2, 0.05, 5, 100, 0.08} : Run{5, 0.2, 20, 1000, 0.4}; }
Run gemm_run(bool quick) { return quick ? Run{3, 0.1, 5, 100, 0.12} : Run{20, 0.3, 20, 1000, 0.4}; }
Run copy_run(bool quick) { return quick ? Run{2, 0.1, 5, 50, 0.15} : Run{4, 0.3, 10, 200, 0.5}; }
Run pair_run(bool quick) { return quick ? Run{2, 0.05, 5, 50, 0.08} : Run{3, 0.1, 10, 100, 0.2}; }
Run latency_run(bool quick) { return quick ? Run{2, 0.02, 5, 50, 0.03} : Run{5, 0.05, 20, 200, 0.1}; }
Run collective_run(bool quick) { return quick ? Run{2, 0.1, 5, 50, 0.15} : Run{5, 0.3, 20, 200, 0.5}; }

int plan_warmup(const Run& run, double seconds_per_iteration) {
    const int most = std::max(run.warmup - 1, 0);
    if (!(seconds_per_iteration > 0)) return most;
    const double fill = std::floor(run.warmup_seconds / seconds_per_iteration);
    return int(std::clamp(fill, 0.0, double(most)));
}

int plan_iterations(const Run& run, double seconds_per_iteration) {
    const int lo = std::max(run.min_iterations, 1);
    const int hi = std::max(run.max_iterations, lo);
    if (!(seconds_per_iteration > 0)) return hi;
    const double want = std::ceil(run.target_seconds / seconds_per_iteration);
    return int(std::clamp(want, double(lo), double(hi)));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Devices
// ---------------------------------------------------------------------------------------------

std::string_view precision_name(Precision p) { return to_string(p); }   // the core's names: "bf16", "fp4"

bool precision_supported(Precision p, int cc_major, int cc_minor) {
    const int cc = cc_major * 10 + cc_minor;
    switch (p) {
        case Precision::fp32: return cc > 0;
        case Precision::fp16: return cc >= 70;
        case Precision::int8: return cc >= 75;
        case Precision::tf32:
        case Precision::bf16: return cc >= 80;
        case Precision::fp8: return cc >= 89;
        case Precision::fp4: return cc >= 100;   // FP4 tensor cores: Blackwell (sm_100, sm_120)
    }
    return false;
}

std::string_view gemm_unit(Precision p) { return p == Precision::int8 ? "TOP/s" : "TFLOP/s"; }

InitStatus init_status_for_cuda_error(int code) {
    switch (code) {
        case 0: return InitStatus::ok;
        case 34:    // cudaErrorStubLibrary: the libcuda found is the toolkit's stub
        case 35: return InitStatus::no_driver;   // cudaErrorInsufficientDriver
        case 100: return InitStatus::no_device;   // cudaErrorNoDevice
        case 802: return InitStatus::system_not_ready;   // cudaErrorSystemNotReady
        default: return InitStatus::cuda_error;
    }
}

std::vector<std::string> throttle_reason_names(std::uint64_t mask) {
    static const struct {
        std::uint64_t bit;
        const char* name;
    } kReasons[] = {
        {0x1, "gpu_idle"},
        {0x2, "applications_clocks_setting"},
        {0x4, "sw_power_cap"},
        {0x8, "hw_slowdown"},
        {0x10, "sync_boost"},
        {0x20, "sw_thermal_slowdown"},
        {0x40, "hw_thermal_slowdown"},
        {0x80, "hw_power_brake_slowdown"},
        {0x100, "display_clock_setting"},
    };
    std::vector<std::string> out;
    std::uint64_t known = 0;
    for (const auto& r : kReasons) {
        known |= r.bit;
        if (mask & r.bit) out.emplace_back(r.name);
    }
    if (mask & ~known) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "other_0x%llx", static_cast<unsigned long long>(mask & ~known));
        out.emplace_back(buf);
    }
    return out;
}

std::string format_uuid(const unsigned char b[16]) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
                  b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return buf;
}

std::string nccl_version_string(int code) {
    if (code <= 0) return "unknown";
    int major = 0, minor = 0, patch = 0;
    if (code >= 10000) {   // NCCL_VERSION(X, Y, Z) = X * 10000 + Y * 100 + Z from 2.9
        major = code / 10000;
        minor = (code % 10000) / 100;
        patch = code % 100;
    } else {               // X * 1000 + Y * 100 + Z up to 2.8
        major = code / 1000;
        minor = (code % 1000) / 100;
        patch = code % 100;
    }
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace gpusizer::bench
