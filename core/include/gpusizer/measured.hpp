// gpusizer/measured.hpp: measured GPU figures (gpusizer-cuda-bench reports) and the calibration
// that lets an estimate use them in place of the datasheet's.
//
// [SECTION] Statistics over repetitions
// [SECTION] The measured report (the in-memory form of report.json, docs/config.md)
// [SECTION] Reading and writing a report (core/src/measured_io.cpp)
// [SECTION] Which catalog GPU a CUDA device is
// [SECTION] Calibration: a catalog GPU with measured figures in place of the datasheet's
//
// Units: each measurement names its unit ("GB/s" = 1e9 bytes/s, "TFLOP/s" = 1e12 FLOP/s,
// "TOP/s" = 1e12 integer operations/s, "us" = microseconds), the same units as the catalog's
// fields, so that a measured figure replaces a datasheet figure without conversion. Sizes are
// bytes.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/gpu.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] Statistics over repetitions
// ---------------------------------------------------------------------------------------------

// Summary of the timed repetitions of one measurement, in the measurement's unit.
struct Stats {
    int samples = 0;
    double median = 0;
    double best = 0;     // the highest rate, or the lowest latency
    double worst = 0;
    double mean = 0;
    double p05 = 0;      // 5th and 95th percentiles (linear interpolation between ranks)
    double p95 = 0;
    double cv = 0;       // coefficient of variation: standard deviation / mean
};

enum class Better { higher, lower };   // rates: higher; latencies: lower

// Percentile p (0..100) of `sorted` (ascending), interpolating linearly between the closest
// ranks (Hyndman & Fan 1996 definition 7, NumPy's default). Throws Error on an empty list.
double percentile(const std::vector<double>& sorted, double p);

// median, best, worst, mean, p05, p95 and cv of `values`. Throws Error when empty or when a
// value is not finite.
Stats summarize(std::vector<double> values, Better better);

// ---------------------------------------------------------------------------------------------
// [SECTION] The measured report
// ---------------------------------------------------------------------------------------------

// Version 1 of the report format; a reader refuses other versions (docs/config.md).
constexpr int kMeasuredSchemaVersion = 1;

// How a benchmark run ended. Each value has its own exit code (cuda/README section of README.md).
enum class BenchStatus {
    ok,                 // every measurement ran
    partial,            // some measurements failed: each says why in its `error`
    no_driver,          // no NVIDIA driver, or one older than the CUDA runtime (cudaErrorInsufficientDriver)
    no_device,          // a driver but no CUDA device, or --device names one that is absent
    system_not_ready,   // the driver is not ready, e.g. fabric manager not running (cudaErrorSystemNotReady)
    cuda_error,         // another CUDA error before any measurement
    internal_error,     // a bug in the benchmark itself
};
std::string_view to_string(BenchStatus s);
BenchStatus parse_bench_status(std::string_view s);   // throws Error("status", ...)

// GPU telemetry (NVML) sampled while a measurement runs; a negative value was not available.
struct Telemetry {
    double sm_clock_mhz = -1;
    double memory_clock_mhz = -1;
    double temperature_c = -1;
    double power_w = -1;                  // NVML power usage (a 1 s average on Ampere and newer)
    double power_limit_w = -1;            // enforced power limit
    std::vector<std::string> throttle_reasons;   // NVML clock-event reasons, e.g. "sw_power_cap"
};

// Energy over the timed repetitions of a measurement.
struct Energy {
    double avg_power_w = 0;       // energy / wall time of the timed repetitions
    double energy_j = 0;
    double per_watt = 0;          // median rate / avg_power_w, in the measurement's unit per W
    double joules_per_token_equiv = 0;   // see docs/formulas.md "Measured figures": per 2e9 FLOP or 2e9 bytes
    std::string method;           // "nvml_energy_counter" or "nvml_power_samples"
};

// One measurement: how it counts, its statistics and its datasheet figure.
struct Measurement {
    std::string id;               // stable name: "memory.triad", "gemm.bf16.square_8192", "host.h2d.pinned", ...
    std::string unit;             // "GB/s", "TFLOP/s", "TOP/s" or "us"
    std::string convention;       // how bytes or operations are counted, in words
    std::string precision;        // GEMM only: fp32, tf32, fp16, bf16, fp8, int8
    long long m = 0, n = 0, k = 0;   // GEMM only
    double bytes = 0;             // bytes per repetition as counted (bandwidth), or the message size
    std::vector<int> devices;     // the devices involved (links and collectives; empty = the device it is listed under)
    int warmup = 0;               // untimed repetitions before the timed ones
    Stats stats;
    double datasheet = 0;         // the catalog's figure in the same unit; 0 = none
    double fraction_of_datasheet = 0;   // stats.best / datasheet; 0 when there is no datasheet figure
    bool has_energy = false;
    Energy energy;
    bool has_telemetry = false;
    Telemetry telemetry;
    std::string error;            // non-empty: the measurement failed and says why (stats are empty)

    bool ok() const { return error.empty() && stats.samples > 0; }
};

// A benchmark target as a fraction of datasheet (triad 85%, pinned PCIe 80%, best BF16 GEMM 80%,
// NCCL ring busbw 75% of NVLink), judged on a real GPU.
struct TargetCheck {
    std::string name;             // "triad", "pcie_h2d_pinned", "gemm_bf16_best", "nccl_allreduce_busbw"
    std::string from;             // the measurement id it judges
    double target = 0;            // fraction of datasheet
    double fraction = 0;          // measured fraction (best / datasheet)
    bool met = false;
};

struct DeviceMemory {
    double total_bytes = 0;                 // cudaMemGetInfo total (what CUDA can use)
    double free_bytes = 0;                  // free after the context was created
    double cuda_context_bytes = -1;         // memory the CUDA context itself takes; -1 = not measured
    double context_with_cublaslt_bytes = -1;   // the context plus a cuBLASLt handle and its loaded kernels
    std::string context_method;             // "nvml_used_delta" or "total_minus_free" (an upper bound)
    double largest_block_bytes = 0;         // the largest single cudaMalloc that succeeded
};

struct MeasuredDevice {
    int index = 0;                // CUDA device ordinal
    std::string name;             // cudaDeviceProp::name, e.g. "NVIDIA H100 80GB HBM3"
    std::string uuid;
    std::string pci_bus_id;
    std::string compute_capability;   // "9.0"
    int sm_count = 0;
    double l2_bytes = 0;
    std::string catalog_id;       // the catalog GPU it maps to; "" = not in the catalog
    int pcie_gen = 0;             // current link (NVML); 0 = unknown
    int pcie_width = 0;
    double sm_clock_max_mhz = -1;
    double memory_clock_max_mhz = -1;
    double power_limit_w = -1;
    DeviceMemory memory;
    std::vector<Measurement> measurements;
    std::vector<TargetCheck> targets;

    const Measurement* find(std::string_view id) const;   // nullptr if absent
};

struct MeasuredReport {
    int schema_version = kMeasuredSchemaVersion;
    std::string tool = "gpusizer-cuda-bench";
    std::string tool_version;
    std::string created_utc;      // ISO 8601, "2025-01-31T12:00:00Z"
    std::string mode;             // "quick" or "full"
    BenchStatus status = BenchStatus::ok;
    std::string status_detail;    // why, in one line (the CUDA error name and number where there is one)
    int exit_code = 0;            // the exit code the tool returned with this report
    int cuda_runtime_version = 0;    // e.g. 13000 for CUDA 13.0
    int cuda_driver_version = 0;     // the CUDA version the driver supports; 0 = no driver
    std::string nvidia_driver;       // NVML's driver version string; "" = unknown
    std::string nvml;                // "loaded" or why not
    std::string nccl;                // "loaded 2.27.3" or why not
    std::vector<MeasuredDevice> devices;
    std::vector<Measurement> links;          // peer-to-peer bandwidth and latency, per pair
    std::vector<Measurement> collectives;    // NCCL all-reduce
    std::vector<TargetCheck> targets;        // report-wide targets (NCCL)
    std::vector<std::string> notes;          // what was skipped and why

    const MeasuredDevice* find_device(std::string_view catalog_id) const;   // first device mapped to it
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading and writing a report
// ---------------------------------------------------------------------------------------------

// JSON text of a report (docs/config.md, "Measured report").
std::string measured_report_to_json(const MeasuredReport& report, int indent = 2);

// Parses a report. `file` names it in errors: "report.json: devices[0].memory.total_bytes: must be
// a number, got \"x\"". Refuses a schema_version other than kMeasuredSchemaVersion; ignores keys
// it does not know (later versions of the tool may add keys, never rename them).
MeasuredReport measured_report_from_json(std::string_view json_text, const std::string& file = "report");

// Reads and parses a report file; errors name the file.
MeasuredReport load_measured_report(const std::string& path);

// ---------------------------------------------------------------------------------------------
// [SECTION] Which catalog GPU a CUDA device is
// ---------------------------------------------------------------------------------------------

// The catalog id of the GPU a CUDA device name denotes ("NVIDIA H100 80GB HBM3" -> "h100-sxm"), or
// "" when none does. `total_bytes` (cudaMemGetInfo total; 0 = unknown) separates variants that
// share a name (RTX 3060 8 GB / 12 GB, RTX 4060 Ti 8 GB / 16 GB) and refuses a match whose memory
// is far from the catalog's.
std::string catalog_gpu_for_device(const Catalog& catalog, std::string_view device_name, double total_bytes);

// PCIe bandwidth per direction of a link, GB/s, after line encoding (0 for an unknown generation).
double pcie_gb_per_s_per_direction(int gen, int lanes);

// ---------------------------------------------------------------------------------------------
// [SECTION] Calibration
// ---------------------------------------------------------------------------------------------

// One figure of a GPU that a measurement replaced, with the datasheet's value kept for display.
struct CalibratedFigure {
    std::string key;          // the Gpu field: "memory_bandwidth_gb_per_s", "tensor_tflops_dense.bf16", ...
    std::string unit;         // "GB/s", "TFLOP/s", "TOP/s", "bytes"
    double datasheet = 0;     // the catalog's value (0 = the catalog has none)
    double measured = 0;      // what replaced it
    std::string from;         // the measurement and statistic it comes from: "memory.triad median"
};

// What calibrated a GPU: the report, the device, and the figures measured versus datasheet.
struct Calibration {
    std::string file;                       // the report's path as given
    std::string device_name;
    int device_index = 0;
    std::string catalog_id;                 // the catalog GPU the device maps to ("" = none)
    std::string gpu_id;                     // the catalog GPU that was calibrated
    std::string created_utc;
    std::string tool_version;
    std::string mode;
    std::vector<CalibratedFigure> figures;  // replaced by measurements
    std::vector<std::string> datasheet_only;   // Gpu fields the report did not measure: datasheet values kept
    std::vector<std::string> notes;         // what a user should know (the device was not in the catalog, ...)

    const CalibratedFigure* find(std::string_view key) const;
};

// `datasheet` with the figures `device` measured in place of the datasheet's:
//   memory_bandwidth_gb_per_s    <- memory.triad median (BabelStream's headline kernel)
//   fp32_tflops                  <- the best shape's median of the fp32 GEMM (CUDA cores)
//   tensor_tflops_dense.{tf32, fp16, bf16, fp8, int8} <- the best shape's median per precision
//   memory_total_mib             <- the total CUDA reports (less than nvidia-smi's: driver reserve)
//   measured_pcie_gb_per_s       <- the slower of host.h2d.pinned and host.d2h.pinned medians
//   nvlink_gb_per_s              <- the median over pairs of p2p bidirectional bandwidth, for GPUs
//                                   with NVLink (PCIe-only peers calibrate nothing here)
//   measured_cuda_context_bytes  <- the context with cuBLASLt loaded, else the bare context
// The returned Gpu's `calibration` says which figures were measured and keeps the datasheet's.
Gpu calibrated_gpu(const Gpu& datasheet, const MeasuredReport& report, const MeasuredDevice& device,
                   const std::string& file);

// Catalog GPU `gpu_id` calibrated by the report's device of the same catalog GPU. A report whose
// only devices are not in the catalog calibrates `gpu_id` with a note saying so. Throws
// Error("measured", ...) naming the file when the report has no usable device, or when its
// devices are other catalog GPUs ("report.json measured rtx-4090, not h100-sxm: use --gpu rtx-4090").
Gpu calibrated_catalog_gpu(const Catalog& catalog, const MeasuredReport& report, const std::string& gpu_id,
                           const std::string& file);

// The measured figures as an overlay on the catalog (EstimateOptions::measured, fit(),
// recommend()): `gpu_ids` calibrated as calibrated_catalog_gpu() does, or, with no ids, every
// catalog GPU the report measured (Error("measured") when it measured none). The catalog is not
// copied; a report is one run on one machine, not catalog data.
GpuOverlay measured_overlay(const Catalog& catalog, const MeasuredReport& report, const std::string& file,
                            const std::vector<std::string>& gpu_ids = {});

// The catalog GPU a benchmark report calibrates for `config`: its gpu, or a custom GPU's base
// (whose measured figures the custom GPU's own fields then override: build_custom_gpu). A custom
// GPU without a base has no catalog entry a report could have measured: Error("measured") says so,
// naming `file`.
std::string measured_gpu_id(const Config& config, const std::string& file);

}  // namespace gpusizer
