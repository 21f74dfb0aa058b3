// gpusizer/gpu.hpp: one accelerator of the catalog (assets/gpus.json).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer {

struct Calibration;   // gpusizer/measured.hpp

enum class Segment { consumer, workstation, datacenter, apple };

// The GPU architecture (gpus.json "architecture", spelled as to_string() gives it; Apple
// GPUs by generation "apple-m1".."apple-m5", all of them Architecture::apple). Gaudi is Intel's
// (Habana's) accelerator: not a GPU, but HBM, matrix engines and a scale-up fabric the model
// can express (gpus.json notes say what it cannot).
enum class Architecture {
    unknown,
    pascal,
    volta,
    turing,
    ampere,
    ada,
    hopper,
    blackwell,
    gcn5,
    cdna1,
    cdna2,
    cdna3,
    cdna4,
    rdna2,
    rdna3,
    rdna3_5,
    rdna4,
    xe_hpg,
    xe2,
    gaudi,
    apple
};
std::string_view to_string(Architecture a);   // "rdna3.5", "xe-hpg", "apple" for Apple
std::optional<Architecture> architecture_from_name(std::string_view name);   // nullopt when unknown
std::string architecture_names();   // every name architecture_from_name reads, for messages and help

// The GPU-to-GPU link a card has (gpus.json interconnect.nvlink). roce: Gaudi's on-chip RoCE
// ports wired all-to-all inside the box (HLS-Gaudi2/3: 21 of 24 ports, 3 to each of 7 peers).
enum class NvlinkKind { none, bridge, nvswitch, mesh, infinity_fabric, roce };
std::string_view to_string(NvlinkKind k);   // "none", "bridge", "nvswitch", "mesh", "infinity-fabric", "roce"
std::optional<NvlinkKind> nvlink_kind_from_name(std::string_view name);
// The NVLink generation an architecture's data-center parts carry (1 Pascal P100, 2 Volta, 3 Ampere,
// 4 Ada-era Hopper, 5 Blackwell; 0 for none), for the comparison of a PCIe-only card with its NVLink peer.
int nvlink_generation(Architecture a);

// Dense (no 2:4 sparsity) tensor throughput per precision, TFLOP/s (TOPS for int8).
// 0 means the hardware has no tensor path for that precision.
struct TensorTflops {
    double tf32 = 0, fp16 = 0, bf16 = 0, fp8 = 0, int8 = 0, fp4 = 0;
};

struct Gpu {
    std::string id;                  // "rtx-4090"
    std::string name;                // "NVIDIA GeForce RTX 4090"
    std::string vendor;              // nvidia, amd, apple
    std::string architecture;        // ampere, ada, hopper, ..., apple-m2 (as written in gpus.json)
    Architecture arch = Architecture::unknown;   // the same, as an enum (decisions use this)
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
    // One chip for CPU and GPU (DGX Spark, Strix Halo; gpus.json "host_w"): tdp_w covers both, and
    // this is the rest of the machine (SSD, NIC, fans, supply losses), W. Unset: a card in a host.
    std::optional<double> unified_host_w;
    // Board draw with a model loaded and nothing to do, W (gpus.json "idle_w"); unset: a share of
    // tdp_w by segment (power/wall_power.cpp, gpu_idle_w). Apple and one-chip boxes: the chip's.
    std::optional<double> idle_w;
    // llama.cpp's fixed time per layer per forward on this GPU's backend, seconds (gpus.json
    // "llama_cpp_layer_overhead_us"); 0 = the CUDA figure (kLlamaCppLayerOverhead, 90 us).
    double llama_cpp_layer_overhead_s = 0;

    std::string nvlink = "none";   // none, bridge, nvswitch, mesh, infinity-fabric, roce (as written)
    NvlinkKind link = NvlinkKind::none;  // the same, as an enum (decisions use this)
    double nvlink_gb_per_s = 0;          // bidirectional per GPU
    int pcie_gen = 0;
    int pcie_lanes = 16;
    bool ecc = false;
    // PCIe peer-to-peer between two cards of this model in the stock driver (gpus.json "p2p").
    // GeForce RTX 40/50 have none: GPU-to-GPU traffic is staged through host memory.
    bool p2p = true;
    // Matrix units (tensor cores, AMD matrix cores / WMMA, Intel XMX, Gaudi MME) run tensor_tflops_dense
    // (gpus.json "tensor_cores"; false for Apple, Pascal, Vega 20 and RDNA 2, whose "tensor"
    // figures are the ALU rates: FP16 packed or at 1/64, as the hardware has it).
    // A precision is native when this is true and its dense rate is above zero.
    bool tensor_cores = true;
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

std::string_view to_string(Segment s);

// vLLM's scheduler defaults (vllm/engine/arg_utils.py): GPUs with at least 70 GiB, except the
// A100, get the larger max_num_batched_tokens. vLLM matches "a100" in the device name; here the
// rule is memory >= 70 GiB and not Ampere (the only >= 70 GiB Ampere parts are the A100 80GB).
bool vllm_large_scheduler_defaults(const Gpu& g);

}  // namespace gpusizer
