// counting.hpp: the benchmark's conventions, as plain functions the tests check.
//
// [SECTION] Counting bytes and operations (BabelStream, nvbandwidth, nccl-tests, GEMM)
// [SECTION] Sizes and repetitions
// [SECTION] Devices: precisions by compute capability, CUDA errors, NVML reasons, names
//
// Sources: docs/research/cuda-bench-method.md collects them; docs/formulas.md, "Measured
// figures", repeats them for users.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backend.hpp"

namespace gpusizer::bench {

// ---------------------------------------------------------------------------------------------
// [SECTION] Counting bytes and operations
// ---------------------------------------------------------------------------------------------

// BabelStream: copy (c = a) moves 2 arrays, triad (a = b + s * c) 3 arrays, each read or
// written once, of `elements` doubles (8 bytes).
double stream_bytes(StreamKernel kernel, std::size_t elements);
std::string_view stream_convention(StreamKernel kernel);

// Dense GEMM: 2 * M * N * K operations (one multiply and one add per term).
double gemm_flops(long long m, long long n, long long k);

// nccl-tests: algbw = bytes / time; busbw = algbw * 2 (n - 1) / n for all-reduce, and
// algbw * (n - 1) / n for reduce-scatter, all-gather and all-to-all.
enum class Collective { all_reduce, reduce_scatter, all_gather, all_to_all };
double busbw_factor(Collective c, int ranks);
double bus_bandwidth(Collective c, double algbw, int ranks);

// One token through a model of 1e9 parameters costs 2e9 FLOP forward (2 FLOP per parameter per
// token, Kaplan et al. 2020), and a decode step of a 1e9-parameter bf16 model reads 2e9 bytes of
// weights: the "token-equivalent" of the energy figures, per billion parameters.
constexpr double kTokenEquivFlop = 2e9;
constexpr double kTokenEquivBytes = 2e9;

// ---------------------------------------------------------------------------------------------
// [SECTION] Sizes and repetitions
// ---------------------------------------------------------------------------------------------

// Elements (doubles) per BabelStream array: far above L2 (at least 4 x L2, and at least
// BabelStream's default 2^25 elements = 256 MiB), while the three arrays stay within 40% of
// the free memory. 0 when not even 4 x L2 fits.
std::size_t stream_elements(double l2_bytes, double free_bytes);

// Bytes of one host<->device or peer copy: nvbandwidth's 512 MiB (full) or 256 MiB (quick),
// at most 20% of free memory.
std::size_t copy_bytes(bool quick, double free_bytes);

// Copies of A and B to rotate so that one GEMM's inputs are not in L2 from the previous one:
// enough to cover 2 x L2, between 1 and 8, within `budget_bytes`.
int gemm_rotations(double l2_bytes, double ab_bytes, double budget_bytes);

// Bytes of A + B (+ C once) of a GEMM in a precision.
double gemm_input_bytes(Precision p, long long m, long long n, long long k);
double gemm_output_bytes(Precision p, long long m, long long n);

// The GEMM shapes of a run. Square ones and the matrix shapes of an LLM layer (Llama 3 8B:
// hidden 4096, MLP 14336) over a prefill of 4096 tokens and a decode batch of 16.
struct GemmShape {
    const char* name;
    long long m, n, k;
};
std::vector<GemmShape> gemm_shapes(bool quick);

// How a quick and a full run repeat (nvbandwidth warms up with 4 copies, nccl-tests with 1-5
// iterations, cuBLASLt benchmarks with 20-50: the full run takes 5 and 20).
Run stream_run(bool quick);
Run gemm_run(bool quick);
Run copy_run(bool quick);
Run pair_run(bool quick);        // peer copies: every ordered pair, so shorter than host copies
Run latency_run(bool quick);
Run collective_run(bool quick);

// Extra warm-up repetitions after the first, given how long one took: at most run.warmup - 1,
// and no more than fill run.warmup_seconds.
int plan_warmup(const Run& run, double seconds_per_iteration);
// Timed repetitions: enough to fill run.target_seconds, within [min, max].
int plan_iterations(const Run& run, double seconds_per_iteration);

// ---------------------------------------------------------------------------------------------
// [SECTION] Devices
// ---------------------------------------------------------------------------------------------

std::string_view precision_name(Precision p);   // "bf16"
// Whether cuBLASLt has the precision on a compute capability: tensor-core FP16 from 7.0, INT8
// (IMMA) from 7.5, TF32 and BF16 from 8.0 (Ampere), FP8 from 8.9 (Ada) and 9.0 (Hopper).
bool precision_supported(Precision p, int cc_major, int cc_minor);
// "TFLOP/s", or "TOP/s" for int8.
std::string_view gemm_unit(Precision p);

// A CUDA runtime error code of cudaGetDeviceCount, as the status of a run:
// 35 cudaErrorInsufficientDriver and 34 cudaErrorStubLibrary -> no_driver; 100 cudaErrorNoDevice
// -> no_device; 802 cudaErrorSystemNotReady -> system_not_ready; others -> cuda_error.
InitStatus init_status_for_cuda_error(int code);

// NVML clock-event ("throttle") reason bits, as names (NVML API reference,
// nvmlClocksEventReasons / nvmlClocksThrottleReasons): 0x1 gpu_idle, 0x2 applications_clocks_setting,
// 0x4 sw_power_cap, 0x8 hw_slowdown, 0x10 sync_boost, 0x20 sw_thermal_slowdown,
// 0x40 hw_thermal_slowdown, 0x80 hw_power_brake_slowdown, 0x100 display_clock_setting.
std::vector<std::string> throttle_reason_names(std::uint64_t mask);

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" from cudaDeviceProp::uuid's 16 bytes (nvidia-smi's form).
std::string format_uuid(const unsigned char bytes[16]);

// NCCL's version code (ncclGetVersion) as "2.27.3": major * 10000 + minor * 100 + patch from
// 2.9 on, major * 1000 + minor * 100 + patch before.
std::string nccl_version_string(int code);

}  // namespace gpusizer::bench
