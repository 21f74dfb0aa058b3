// backend.hpp: what the benchmark driver asks of a GPU, as one small interface.
//
// The driver (bench.cpp) decides what to measure, at which sizes and how often, counts bytes and
// FLOPs, summarizes and judges; a Backend only runs timed repetitions and reports raw seconds.
// Two implementations: CudaBackend (cuda_backend.cu: CUDA runtime, cuBLASLt, NVML and NCCL loaded
// at run time), built only where a CUDA compiler exists, and FakeBackend (fake_backend.cpp), which
// replays scripted timings and injects errors so that the driver is tested on every CI run.
//
// Plain C++: no CUDA header may appear here (the tests build without a CUDA toolkit).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusizer/compute.hpp"
#include "gpusizer/measured.hpp"

namespace gpusizer::bench {

// A failure of one operation (a CUDA, cuBLASLt, NVML or NCCL error). The driver records it in the
// measurement that failed and goes on with the next; any other exception is a bug.
class BackendError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// How the CUDA runtime came up (cudaGetDeviceCount).
enum class InitStatus { ok, no_driver, no_device, system_not_ready, cuda_error };

struct InitResult {
    InitStatus status = InitStatus::ok;
    std::string detail;              // the CUDA error in words, name and number, when not ok
    int device_count = 0;
    int runtime_version = 0;         // cudaRuntimeGetVersion, e.g. 13000
    int driver_version = 0;          // cudaDriverGetVersion; 0 without a driver
    std::string nvidia_driver;       // NVML's driver version; "" when NVML is absent
    std::string nvml;                // "loaded" or why not
    std::string nccl;                // "loaded 2.27.3" or why not
    bool nccl_available = false;
};

struct DeviceInfo {
    int index = 0;
    std::string name;
    std::string uuid;                // "GPU-8f0e2c3a-..."
    std::string pci_bus_id;          // "0000:17:00.0"
    int cc_major = 0, cc_minor = 0;  // compute capability
    int sm_count = 0;
    double l2_bytes = 0;
    double total_bytes = 0;          // cudaDeviceProp::totalGlobalMem
    int pcie_gen = 0, pcie_width = 0;   // current link (NVML); 0 = unknown
    double sm_clock_max_mhz = -1, memory_clock_max_mhz = -1, power_limit_w = -1;   // -1 = unknown
};

// Memory facts, read before and after the device's CUDA context is created.
struct MemoryProbe {
    double total_bytes = 0;          // cudaMemGetInfo
    double free_bytes = 0;
    double context_bytes = -1;       // the context's own cost; -1 = not measured
    double context_with_cublaslt_bytes = -1;
    std::string context_method;      // "nvml_used_delta" or "total_minus_free"
    double largest_block_bytes = 0;  // largest single cudaMalloc that succeeded
};

enum class StreamKernel { copy, triad };          // BabelStream's kernels on double arrays
using Precision = gpusizer::Precision;   // the core's one enum (gpusizer/compute.hpp); fp4 is not benchmarked yet
enum class Direction { h2d, d2h };

struct GemmSpec {
    Precision precision = Precision::bf16;
    long long m = 0, n = 0, k = 0;   // C (m x n) = op(A) (m x k) x B (k x n), A transposed ("TN")
    int rotations = 1;               // copies of A and B used in turn, so that inputs do not sit in L2
};

// How many repetitions: `warmup` untimed (at most warmup_seconds of them), then enough timed ones
// to fill target_seconds, within [min_iterations, max_iterations] (counting.hpp plan_iterations).
struct Run {
    int warmup = 3;
    double warmup_seconds = 0.2;
    int min_iterations = 5;
    int max_iterations = 200;
    double target_seconds = 0.1;
};

// The timed repetitions of one operation.
struct Timed {
    std::vector<double> seconds;     // one per timed repetition
    double wall_s = 0;               // host wall time of all timed repetitions
    double energy_j = -1;            // NVML energy counter over them; -1 = not available
    bool has_telemetry = false;
    Telemetry telemetry;             // sampled while they ran
    int warmup = 0;                  // untimed repetitions that ran first
};

class Backend {
public:
    virtual ~Backend() = default;

    // Brings up the runtime; never throws for a missing driver or device (that is the status).
    virtual InitResult init() = 0;
    virtual DeviceInfo device_info(int device) = 0;
    // Creates the device's context; call it for every device before anything else touches them.
    virtual MemoryProbe probe_memory(int device) = 0;

    virtual Timed stream(int device, StreamKernel kernel, std::size_t elements, const Run& run) = 0;
    virtual Timed gemm(int device, const GemmSpec& spec, const Run& run) = 0;
    virtual Timed host_copy(int device, Direction direction, bool pinned, std::size_t bytes, const Run& run) = 0;

    virtual bool peer_access(int src, int dst) = 0;
    // src -> dst (bidirectional: and dst -> src at the same time), timed with CUDA events.
    virtual Timed peer_copy(int src, int dst, std::size_t bytes, bool bidirectional, const Run& run) = 0;
    // Seconds per 4-byte copy src -> dst, in a queue of copies behind a spin kernel.
    virtual Timed peer_latency(int src, int dst, const Run& run) = 0;

    // NCCL all-reduce (sum of float32) of `bytes` over `devices`, host-timed per repetition.
    virtual Timed allreduce(const std::vector<int>& devices, std::size_t bytes, const Run& run) = 0;
};

}  // namespace gpusizer::bench
