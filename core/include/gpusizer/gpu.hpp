// gpusizer/gpu.hpp: one accelerator of the catalog (assets/gpus.json).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer {

struct Calibration;   // gpusizer/measured.hpp

enum class Segment { consumer, workstation, datacenter, apple };

// Dense (no 2:4 sparsity) tensor throughput per precision, TFLOP/s (TOPS for int8).
// 0 means the hardware has no tensor path for that precision.
struct TensorTflops {
    double tf32 = 0, fp16 = 0, bf16 = 0, fp8 = 0, int8 = 0, fp4 = 0;
};

struct Gpu {
    std::string id;                  // "rtx-4090"
    std::string name;                // "NVIDIA GeForce RTX 4090"
    std::string vendor;              // nvidia, amd, apple
    std::string architecture;        // ampere, ada, hopper, ..., apple-m2
    std::string chip;
    int year = 0;
    Segment segment = Segment::consumer;

    double memory_gib = 0;               // nominal, GiB
    double memory_total_mib = 0;         // what the driver reports as total, MiB (0 = unknown)
    double gpu_memory_fraction = 1;      // share of memory_gib the GPU may use (Apple unified memory)
    std::string memory_type;
    double memory_bandwidth_gb_per_s = 0;
    double fp32_tflops = 0;
    TensorTflops tensor_tflops_dense;
    double fp16_accumulate_tflops = 0;   // GeForce FP16-accumulate rate (0 = same as fp16)
    double tdp_w = 0;

    std::string nvlink = "none";         // none, bridge, nvswitch, mesh, infinity-fabric
    double nvlink_gb_per_s = 0;          // bidirectional per GPU
    int pcie_gen = 0;
    int pcie_lanes = 16;
    bool ecc = false;
    std::string form_factor;
    std::optional<double> price_usd;
    std::string price_note;
    std::vector<std::string> sources;
    std::vector<std::string> unverified;

    // Measured on this machine (gpusizer-cuda-bench, gpusizer/measured.hpp); 0 / null = datasheet only.
    double measured_cuda_context_bytes = 0;   // replaces the runtime profile's CUDA context
    double measured_pcie_gb_per_s = 0;        // host<->device, pinned, per direction
    std::shared_ptr<const Calibration> calibration;   // which figures were measured, datasheet values kept

    // Bytes the GPU has for everything: the driver-reported total when known, else the nominal
    // size, times the unified-memory fraction.
    double capacity_bytes() const;
};

std::string_view segment_name(Segment s);

}  // namespace gpusizer
