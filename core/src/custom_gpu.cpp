// custom_gpu.cpp: a GPU that is not in the catalog (gpusizer/custom_gpu.hpp): the table of its
// fields, and the GPU built from the fields given, a base and the stated defaults.
//
// [SECTION] The field table
// [SECTION] Access and checks
// [SECTION] Building the GPU (defaults and their derivations)
// [SECTION] Documentation and usage text
#include "gpusizer/custom_gpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gpusizer/catalog.hpp"
#include "gpusizer/compute.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/measured.hpp"

namespace gpusizer {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] The field table
// ---------------------------------------------------------------------------------------------

// Documentation texts stay out of the widget's module as the key table's do
// (GPUSIZER_KEY_DOCS=0, web/CMakeLists.txt). The widget takes no custom GPU at all
// (GPUSIZER_CUSTOM_GPU=0): it refuses to build one, and the defaults' texts stay out too.
#ifndef GPUSIZER_KEY_DOCS
#define GPUSIZER_KEY_DOCS 1
#endif
#ifndef GPUSIZER_CUSTOM_GPU
#define GPUSIZER_CUSTOM_GPU 1
#endif

using Get = double (*)(const Gpu&);
using Set = void (*)(Gpu&, double);
using GetText = std::string (*)(const Gpu&);
using SetText = void (*)(Gpu&, std::string_view);

constexpr GpuField num(const char* name, const char* link, const char* flag, const char* metavar, GpuFieldKind kind, double min, double max,
                       bool required, const char* unit, const char* default_doc, const char* meaning, Get get, Set set) {
    if (!GPUSIZER_KEY_DOCS) meaning = "";
    if (!GPUSIZER_CUSTOM_GPU) default_doc = "";
    return GpuField{name, link, flag, metavar, kind, min, max, required, unit, default_doc, meaning, get, set, nullptr, nullptr};
}
constexpr GpuField text(const char* name, const char* link, const char* flag, const char* metavar, GpuFieldKind kind, bool required,
                        const char* default_doc, const char* meaning, GetText get, SetText set) {
    if (!GPUSIZER_KEY_DOCS) meaning = "";
    if (!GPUSIZER_CUSTOM_GPU) default_doc = "";
    return GpuField{name, link, flag, metavar, kind, 0, 0, required, "", default_doc, meaning, nullptr, nullptr, get, set};
}

[[noreturn]] void refuse(const char* field, const std::string& msg) { throw_error(std::string("gpu.") + field, msg); }

void set_vendor(Gpu& g, std::string_view v) {
    if (v != "nvidia" && v != "amd" && v != "intel" && v != "apple")
        refuse("vendor", "must be nvidia, amd, intel or apple, got '" + std::string(v.substr(0, 40)) + "'");
    g.vendor = std::string(v);
}
void set_architecture(Gpu& g, std::string_view v) {
    const auto a = architecture_from_name(v);
    if (!a && v != "unknown")
        refuse("architecture",
               "must be unknown, volta, turing, ampere, ada, hopper, blackwell, cdna2, cdna3, cdna4, rdna3, rdna3.5, "
               "rdna4, xe2 or apple-mN (apple-m1 .. apple-m9), got '" +
                   std::string(v.substr(0, 40)) + "'");
    g.architecture = std::string(v);
    g.arch = a.value_or(Architecture::unknown);
}
void set_segment(Gpu& g, std::string_view v) {
    if (v == "consumer")
        g.segment = Segment::consumer;
    else if (v == "workstation")
        g.segment = Segment::workstation;
    else if (v == "datacenter")
        g.segment = Segment::datacenter;
    else if (v == "apple")
        g.segment = Segment::apple;
    else
        refuse("segment", "must be consumer, workstation, datacenter or apple, got '" + std::string(v.substr(0, 40)) + "'");
}
void set_nvlink(Gpu& g, std::string_view v) {
    const auto k = nvlink_kind_from_name(v);
    if (!k)
        refuse("interconnect.nvlink",
               "must be none, bridge, nvswitch, mesh or infinity-fabric, got '" + std::string(v.substr(0, 40)) + "'");
    g.nvlink = std::string(v);
    g.link = *k;
}

// Order: the order the configuration JSON and share links write them in. The required fields
// come first, as a user writes them.
constexpr GpuField kFields[] = {
    text(
        "name", "n", "gpu-name", "TEXT", GpuFieldKind::text, true, "with `base`: the base's name followed by \" (custom)\"",
        "the name the report and the app show", [](const Gpu& g) { return g.name; },
        [](Gpu& g, std::string_view v) { g.name = std::string(v); }),
    num(
        "memory_gib", "mem", "gpu-memory-gib", "GIB", GpuFieldKind::number, 0.25, 1e5, true, "GiB", "required",
        "memory per GPU, nominal (a \"48 GB\" card: 48)", [](const Gpu& g) { return g.memory_gib; },
        [](Gpu& g, double v) { g.memory_gib = v; }),
    num(
        "memory_bandwidth_gb_per_s", "bw", "gpu-memory-bandwidth", "GB/S", GpuFieldKind::number, 1, 1e6, true, "GB/s", "required",
        "memory bandwidth, decimal GB/s (decode reads the weights and the cache at it)",
        [](const Gpu& g) { return g.memory_bandwidth_gb_per_s; }, [](Gpu& g, double v) { g.memory_bandwidth_gb_per_s = v; }),
    num(
        "tensor_tflops_dense.bf16", "bf16", "gpu-bf16-tflops", "TFLOPS", GpuFieldKind::number, 0, 1e6, true, "TFLOP/s",
        "the `fp16` rate: every catalog GPU with both lists them equal (A100 312, H100 989.4, MI300X 1,307.4); 0 where `architecture` "
        "is one without BF16 (volta, turing: their whitepapers)",
        "dense BF16 tensor rate, no 2:4 sparsity (FP32 accumulate)", [](const Gpu& g) { return g.tensor_tflops_dense.bf16; },
        [](Gpu& g, double v) { g.tensor_tflops_dense.bf16 = v; }),
    num(
        "tensor_tflops_dense.fp16", "fp16", "gpu-fp16-tflops", "TFLOPS", GpuFieldKind::number, 0, 1e6, true, "TFLOP/s",
        "the `bf16` rate (every catalog GPU with both lists them equal)", "dense FP16 tensor rate, no sparsity (FP32 accumulate)",
        [](const Gpu& g) { return g.tensor_tflops_dense.fp16; }, [](Gpu& g, double v) { g.tensor_tflops_dense.fp16 = v; }),
    num(
        "tdp_w", "tdp", "gpu-tdp-w", "W", GpuFieldKind::number, 1, 1e5, true, "W", "required",
        "board power (TDP / TBP), for power, energy and the supply", [](const Gpu& g) { return g.tdp_w; },
        [](Gpu& g, double v) { g.tdp_w = v; }),
    // Optional, in the order of a gpus.json entry.
    text(
        "vendor", "v", "gpu-vendor", "V", GpuFieldKind::choice, false,
        "`unknown`: TensorRT-LLM (NVIDIA only) and benchmark reports (CUDA devices) refuse the GPU until it says `nvidia`",
        "nvidia, amd, intel or apple (Apple: no matrix units, unified memory, Metal)", [](const Gpu& g) { return g.vendor; }, set_vendor),
    text(
        "architecture", "a", "gpu-architecture", "A", GpuFieldKind::choice, false,
        "`unknown`: no whitepaper row (the tensor rates given are the precisions it runs; scale-out parts get HDR InfiniBand "
        "between nodes, not NDR)",
        "a GPU architecture (gpusizer keys --gpu lists them), or unknown",
        [](const Gpu& g) { return g.architecture; }, set_architecture),
    text(
        "chip", "chip", "gpu-chip", "TEXT", GpuFieldKind::text, false, "none", "the die (shown only)", [](const Gpu& g) { return g.chip; },
        [](Gpu& g, std::string_view v) { g.chip = std::string(v); }),
    num(
        "year", "y", "gpu-year", "N", GpuFieldKind::integer, 1990, 2100, false, "", "unknown (0; shown only)", "year of release",
        [](const Gpu& g) { return double(g.year); }, [](Gpu& g, double v) { g.year = int(v); }),
    text(
        "segment", "s", "gpu-segment", "S", GpuFieldKind::choice, false,
        "`apple` for vendor apple; `datacenter` with `interconnect.nvlink` nvswitch, mesh or infinity-fabric (every such catalog "
        "part is one); else `workstation` (a card in a desktop or workstation: PUE 1, a desktop host; say `datacenter` for a "
        "server card: PUE 1.58, server hosts)",
        "consumer, workstation, datacenter or apple: the host platform, PUE and the recommend classes",
        [](const Gpu& g) { return std::string(to_string(g.segment)); }, set_segment),
    num(
        "memory_total_mib", "mib", "gpu-memory-total-mib", "MIB", GpuFieldKind::number, 256, 1e8, false, "MiB",
        "`memory_gib` x 1,024 (the driver reports a little less: an RTX 4090's 24 GiB is 24,564 MiB); with `base` and `memory_gib` "
        "given, the base's total scaled by the memory given (its driver reserve kept in proportion)",
        "what the driver reports as total memory", [](const Gpu& g) { return g.memory_total_mib; },
        [](Gpu& g, double v) { g.memory_total_mib = v; }),
    num(
        "gpu_memory_fraction", "gmf", "gpu-memory-fraction", "F", GpuFieldKind::number, 0.05, 1, false, "fraction",
        "1; 0.75 for vendor apple (Metal's recommendedMaxWorkingSetSize above 36 GB under macOS 13-15, 6 of the catalog's 8 "
        "Apple entries; 2/3 at 32 GB, about 0.84 under macOS 26)",
        "share of the memory the GPU may use (unified memory)", [](const Gpu& g) { return g.gpu_memory_fraction; },
        [](Gpu& g, double v) { g.gpu_memory_fraction = v; }),
    text(
        "memory_type", "mt", "gpu-memory-type", "TEXT", GpuFieldKind::text, false,
        "unknown: the board-power model takes it as GDDR / LPDDR, whose decode draws the larger share of board power (an HBM "
        "type, HBM2e, HBM3, ..., draws less per byte moved)",
        "GDDR6X, HBM3e, LPDDR5X, ...", [](const Gpu& g) { return g.memory_type; },
        [](Gpu& g, std::string_view v) { g.memory_type = std::string(v); }),
    num(
        "fp32_tflops", "fp32", "gpu-fp32-tflops", "TFLOPS", GpuFieldKind::number, 0.01, 1e6, false, "TFLOP/s",
        "the 16-bit tensor rate / 32, just below the lowest FP32 share in the catalog (GB200: 80 of 2,500, 1/31.25; B300: 75 of "
        "2,250, 1/30); for vendor apple the 16-bit rate (Apple's ALUs run FP16 at the FP32 rate)",
        "FP32 rate on the CUDA cores / ALUs (fp32 weights)", [](const Gpu& g) { return g.fp32_tflops; },
        [](Gpu& g, double v) { g.fp32_tflops = v; }),
    num(
        "tensor_tflops_dense.tf32", "tf32", "gpu-tf32-tflops", "TFLOPS", GpuFieldKind::number, 0, 1e6, false, "TFLOP/s",
        "0: no TF32 tensor path (PyTorch runs fp32 matmuls without TF32 by default)", "dense TF32 tensor rate",
        [](const Gpu& g) { return g.tensor_tflops_dense.tf32; }, [](Gpu& g, double v) { g.tensor_tflops_dense.tf32 = v; }),
    num(
        "tensor_tflops_dense.fp8", "fp8", "gpu-fp8-tflops", "TFLOPS", GpuFieldKind::number, 0, 1e6, false, "TFLOP/s",
        "0: no FP8 tensor path (fp8 weights are computed at the 16-bit rate, as on Ampere)", "dense FP8 tensor rate",
        [](const Gpu& g) { return g.tensor_tflops_dense.fp8; }, [](Gpu& g, double v) { g.tensor_tflops_dense.fp8 = v; }),
    num(
        "tensor_tflops_dense.int8", "int8", "gpu-int8-tops", "TOPS", GpuFieldKind::number, 0, 1e6, false, "TOP/s",
        "0: no INT8 tensor path (int8 weights are computed at the 16-bit rate)", "dense INT8 tensor rate",
        [](const Gpu& g) { return g.tensor_tflops_dense.int8; }, [](Gpu& g, double v) { g.tensor_tflops_dense.int8 = v; }),
    num(
        "tensor_tflops_dense.fp4", "fp4", "gpu-fp4-tflops", "TFLOPS", GpuFieldKind::number, 0, 1e6, false, "TFLOP/s",
        "0: no FP4 tensor path (MXFP4 / NVFP4 weights are dequantized to 16-bit, as before Blackwell)", "dense FP4 tensor rate",
        [](const Gpu& g) { return g.tensor_tflops_dense.fp4; }, [](Gpu& g, double v) { g.tensor_tflops_dense.fp4 = v; }),
    num(
        "tensor_tflops_dense_fp16_accumulate", "f16a", "gpu-fp16-accumulate-tflops", "TFLOPS", GpuFieldKind::number, 0, 1e6, false,
        "TFLOP/s", "0: the `fp16` rate (llama.cpp's FP16-accumulate GEMMs get no GeForce speed-up)",
        "FP16 tensor rate with FP16 accumulate (GeForce cards double it)", [](const Gpu& g) { return g.fp16_accumulate_tflops; },
        [](Gpu& g, double v) { g.fp16_accumulate_tflops = v; }),
    num(
        "host_w", "hw", "gpu-host-w", "W", GpuFieldKind::number, 0, 1e4, false, "W",
        "none: a card in a host (the host's power by platform class); give it for one chip with the CPU (DGX Spark: 30)",
        "one chip for CPU and GPU: the rest of the machine", [](const Gpu& g) { return g.unified_host_w.value_or(0.0); },
        [](Gpu& g, double v) { g.unified_host_w = v; }),
    num(
        "idle_w", "iw", "gpu-idle-w", "W", GpuFieldKind::number, 0, 1e4, false, "W",
        "7% of tdp_w (10% for data-center boards): what a card with a model loaded draws waiting",
        "board draw with a model loaded and nothing to do", [](const Gpu& g) { return g.idle_w.value_or(0.0); },
        [](Gpu& g, double v) { g.idle_w = v; }),
    num(
        "llama_cpp_layer_overhead_us", "llo", "gpu-llama-cpp-layer-overhead-us", "US", GpuFieldKind::number, 1, 1e4, false, "µs",
        "90, the CUDA figure; 190 for vendor apple (the catalog's Metal figure)", "llama.cpp's fixed time per layer per forward",
        [](const Gpu& g) { return g.llama_cpp_layer_overhead_s * 1e6; }, [](Gpu& g, double v) { g.llama_cpp_layer_overhead_s = v / 1e6; }),
    text(
        "interconnect.nvlink", "nvl", "gpu-nvlink", "K", GpuFieldKind::choice, false, "`none`: GPU-to-GPU traffic goes over PCIe",
        "none, bridge, nvswitch, mesh or infinity-fabric", [](const Gpu& g) { return g.nvlink; }, set_nvlink),
    num(
        "interconnect.nvlink_gb_per_s", "nvbw", "gpu-nvlink-gb-per-s", "GB/S", GpuFieldKind::number, 0, 1e5, false, "GB/s",
        "0; required above 0 with an `interconnect.nvlink` other than none", "NVLink / fabric bandwidth per GPU, bidirectional",
        [](const Gpu& g) { return g.nvlink_gb_per_s; }, [](Gpu& g, double v) { g.nvlink_gb_per_s = v; }),
    num(
        "interconnect.pcie_gen", "pg", "gpu-pcie-gen", "N", GpuFieldKind::integer, 1, 7, false, "",
        "4, the most common generation in the catalog and the slower of today's two; none for vendor apple (one machine)",
        "PCIe generation", [](const Gpu& g) { return double(g.pcie_gen); }, [](Gpu& g, double v) { g.pcie_gen = int(v); }),
    num(
        "interconnect.pcie_lanes", "pl", "gpu-pcie-lanes", "N", GpuFieldKind::integer, 1, 32, false, "", "16", "PCIe lanes",
        [](const Gpu& g) { return double(g.pcie_lanes); }, [](Gpu& g, double v) { g.pcie_lanes = int(v); }),
    num(
        "ecc", "ecc", "gpu-ecc", "B", GpuFieldKind::boolean, 0, 1, false, "", "`false` (shown only)", "ECC memory",
        [](const Gpu& g) { return g.ecc ? 1.0 : 0.0; }, [](Gpu& g, double v) { g.ecc = v != 0; }),
    num(
        "p2p", "p2p", "gpu-p2p", "B", GpuFieldKind::boolean, 0, 1, false, "",
        "`true` with an `interconnect.nvlink` other than none (every such catalog part has it); else `false`: PCIe traffic "
        "between two cards is staged through host memory, as on GeForce RTX 40/50 (the slower case)",
        "PCIe peer-to-peer between two cards in the stock driver", [](const Gpu& g) { return g.p2p ? 1.0 : 0.0; },
        [](Gpu& g, double v) { g.p2p = v != 0; }),
    num(
        "tensor_cores", "tc", "gpu-tensor-cores", "B", GpuFieldKind::boolean, 0, 1, false, "",
        "`true` (the tensor rates given are matrix-unit rates); `false` for vendor apple (its \"tensor\" rates are the ALU rate)",
        "matrix units run the tensor rates", [](const Gpu& g) { return g.tensor_cores ? 1.0 : 0.0; },
        [](Gpu& g, double v) { g.tensor_cores = v != 0; }),
    text(
        "form_factor", "ff", "gpu-form-factor", "TEXT", GpuFieldKind::text, false, "none (shown only)", "the board's form",
        [](const Gpu& g) { return g.form_factor; }, [](Gpu& g, std::string_view v) { g.form_factor = std::string(v); }),
    num(
        "price_usd", "usd", "gpu-price-usd", "USD", GpuFieldKind::number, 0, 1e8, false, "USD",
        "unknown: no hardware cost, and recommend's budget cannot pass it", "purchase price per GPU",
        [](const Gpu& g) { return g.price_usd.value_or(0.0); }, [](Gpu& g, double v) { g.price_usd = v; }),
};

constexpr std::size_t kFieldCount = sizeof kFields / sizeof kFields[0];

std::string number_text(double v) {
    char buf[32];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%lld", (long long)v);
    else
        std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::size_t row_of(std::string_view name) {
    for (std::size_t i = 0; i < kFieldCount; ++i)
        if (name == kFields[i].name) return i;
    throw_error(std::string("gpu.") + std::string(name.substr(0, 60)), "is not a field of a custom GPU", ErrorCode::internal);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Access and checks
// ---------------------------------------------------------------------------------------------

GpuFieldTable gpu_fields() { return {kFields, kFieldCount}; }

const GpuField* find_gpu_field(std::string_view name) {
    for (const GpuField& f : kFields)
        if (name == f.name) return &f;
    return nullptr;
}

const GpuField* find_gpu_field_link(std::string_view link) {
    for (const GpuField& f : kFields)
        if (link == f.link) return &f;
    return nullptr;
}

const GpuField* find_gpu_field_flag(std::string_view flag) {
    for (const GpuField& f : kFields)
        if (flag == f.flag) return &f;
    return nullptr;
}

void check_gpu_field_value(const GpuField& f, double v) {
    const std::string key = std::string("gpu.") + f.name;
    if (f.kind == GpuFieldKind::boolean) {
        if (v != 0 && v != 1) throw_error(key, "must be true or false");
        return;
    }
    if (f.kind != GpuFieldKind::integer && f.kind != GpuFieldKind::number) return;
    std::string range = "must be between " + number_text(f.min) + " and " + number_text(f.max);
    if (*f.unit && std::string_view(f.unit) != "fraction") range += std::string(" ") + f.unit;
    if (!std::isfinite(v) || v < f.min || v > f.max) throw_error(key, range + ", got " + number_text(v));
    if (f.kind == GpuFieldKind::integer && v != std::floor(v)) throw_error(key, "must be a whole number, got " + number_text(v));
}

std::string gpu_field_choices(const GpuField& f) {
    const std::string_view n = f.name;
    if (n == "vendor") return "nvidia, amd, intel, apple";
    if (n == "architecture")
        return "unknown, volta, turing, ampere, ada, hopper, blackwell, cdna2, cdna3, cdna4, rdna3, rdna3.5, rdna4, xe2, apple-m1 .. "
               "apple-m9";
    if (n == "segment") return "consumer, workstation, datacenter, apple";
    if (n == "interconnect.nvlink") return "none, bridge, nvswitch, mesh, infinity-fabric";
    return "";
}

const CustomGpu::Value* CustomGpu::find(std::string_view field_name) const {
    const std::size_t row = row_of(field_name);
    for (const Value& v : values)
        if (v.field == row) return &v;
    return nullptr;
}

namespace {
CustomGpu::Value& slot(std::vector<CustomGpu::Value>& values, std::size_t row) {
    auto at = std::lower_bound(values.begin(), values.end(), row, [](const CustomGpu::Value& v, std::size_t r) { return v.field < r; });
    if (at == values.end() || at->field != row) {
        CustomGpu::Value v;
        v.field = row;
        at = values.insert(at, v);
    }
    return *at;
}
}  // namespace

void CustomGpu::set(std::string_view field_name, double v) {
    Value& s = slot(values, row_of(field_name));
    s.number = v;
    s.text.clear();
}

void CustomGpu::set(std::string_view field_name, std::string v) {
    Value& s = slot(values, row_of(field_name));
    s.number = 0;
    s.text = std::move(v);
}

void CustomGpu::erase(std::string_view field_name) {
    const std::size_t row = row_of(field_name);
    values.erase(std::remove_if(values.begin(), values.end(), [row](const Value& v) { return v.field == row; }), values.end());
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Building the GPU
// ---------------------------------------------------------------------------------------------

#if !GPUSIZER_CUSTOM_GPU
CustomGpuBuild build_custom_gpu(const CustomGpu&, const Catalog&, const GpuOverlay*) { throw_error("gpu", kNoCustomGpuHere); }
#else
namespace {

bool is_numeric(const GpuField& f) { return f.get != nullptr; }

// A value as the report shows it: 9.4, true, "unknown".
std::string shown(const GpuField& f, const Gpu& g) {
    if (!is_numeric(f)) {
        const std::string t = f.get_text(g);
        return t.empty() ? std::string("none") : t;
    }
    const double v = f.get(g);
    if (f.kind == GpuFieldKind::boolean) return v != 0 ? "true" : "false";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf) + (*f.unit && std::string_view(f.unit) != "fraction" ? std::string(" ") + f.unit : std::string());
}

// The measured figures of a calibrated base that the given fields replace: they are the user's now.
void drop_given_from_calibration(Gpu& g, const CustomGpu& spec) {
    if (!g.calibration) return;
    auto cal = std::make_shared<Calibration>(*g.calibration);
    bool changed = false;
    for (const CustomGpu::Value& v : spec.values) {
        const std::string key = kFields[v.field].name;
        const auto it = std::find_if(cal->figures.begin(), cal->figures.end(), [&](const CalibratedFigure& f) { return f.key == key; });
        if (it == cal->figures.end()) continue;
        cal->notes.push_back(key + " is the custom GPU's, as given, not the measured " + number_text(it->measured) + " " + it->unit);
        cal->figures.erase(it);
        changed = true;
    }
    if (changed) g.calibration = std::move(cal);
}

}  // namespace

CustomGpuBuild build_custom_gpu(const CustomGpu& spec, const Catalog& catalog, const GpuOverlay* measured) {
    CustomGpuBuild out;
    Gpu& g = out.gpu;
    const bool has_base = !spec.base.empty();
    double base_gib = 0, base_total_mib = 0;   // the base's memory and driver-reported total (0 = none)
    if (has_base) {
        const Gpu* base = measured ? measured->find(spec.base) : nullptr;
        if (!base) base = catalog.find_gpu(spec.base);
        if (!base) throw_error("gpu.base", "unknown GPU '" + spec.base.substr(0, 60) + "'; see `gpusizer gpus`", ErrorCode::unknown_id);
        g = *base;
        out.base_name = base->name;
        base_gib = base->memory_gib;
        base_total_mib = base->memory_total_mib;
    } else {
        // The defaults below read these; a given field replaces them.
        g.vendor = "unknown";
        g.architecture = "unknown";
        g.arch = Architecture::unknown;
    }
    // The catalog's provenance is the base's; the custom GPU's figures are the configuration's.
    g.sources.clear();
    g.unverified.clear();
    if (spec.find("price_usd")) g.price_note.clear();

    // The given fields, checked against their rows.
    for (const CustomGpu::Value& v : spec.values) {
        if (v.field >= kFieldCount) throw_error("gpu", "holds a field the table does not have", ErrorCode::internal);
        const GpuField& f = kFields[v.field];
        if (is_numeric(f)) {
            check_gpu_field_value(f, v.number);
            f.set(g, v.number);
        } else {
            f.set_text(g, v.text);
        }
    }
    drop_given_from_calibration(g, spec);
    g.id = "custom";
    auto given = [&](const char* name) { return spec.find(name) != nullptr; };
    // A field not given: its value as the report shows it, and its row's derivation (without the
    // Markdown quotes of docs/config.md).
    auto assumed = [&](const char* name, std::string value = {}) {
        const GpuField& f = kFields[row_of(name)];
        std::string why = f.default_doc;
        why.erase(std::remove(why.begin(), why.end(), '`'), why.end());
        out.defaults.push_back({f.name, value.empty() ? shown(f, g) : std::move(value), std::move(why)});
    };

    if (has_base) {
        std::string from = "every field not given is " + out.base_name + "'s (gpus.json " + spec.base + ")";
        if (g.calibration) from += ", with the figures the benchmark report measured";
        out.defaults.push_back({"base", spec.base, from});
        if (!given("name")) {
            g.name = out.base_name + " (custom)";
            assumed("name");
        }
        // Memory given without its driver total: the base's total would keep the capacity at the
        // base's size, so it scales with the memory given (a 48 GB RTX 4090: 49,128 MiB).
        if (given("memory_gib") && !given("memory_total_mib") && base_total_mib > 0 && base_gib > 0) {
            g.memory_total_mib = base_total_mib * g.memory_gib / base_gib;
            assumed("memory_total_mib");
        }
    } else {
        // Required: the figures no default can stand in for.
        std::string missing;
        const char* first = nullptr;
        for (const char* name : {"name", "memory_gib", "memory_bandwidth_gb_per_s", "tdp_w"})
            if (!given(name)) {
                missing += (missing.empty() ? "" : ", ") + std::string(name);
                if (!first) first = name;
            }
        if (!given("tensor_tflops_dense.bf16") && !given("tensor_tflops_dense.fp16")) {
            missing += std::string(missing.empty() ? "" : ", ") + "tensor_tflops_dense (a bf16 or fp16 rate)";
            if (!first) first = "tensor_tflops_dense";
        }
        if (!missing.empty()) {
            const bool one = missing.find(", ") == std::string::npos;
            throw_error(one ? std::string("gpu.") + first : std::string("gpu"),
                        (one ? std::string("is required") : "is missing " + missing) +
                            ": a custom GPU gives name, memory_gib, memory_bandwidth_gb_per_s, tensor_tflops_dense (bf16 or fp16) "
                            "and tdp_w, or starts from a catalog GPU with base");
        }
        const bool apple = g.vendor == "apple";
        if (!given("vendor")) assumed("vendor");
        if (!given("architecture")) assumed("architecture");
        const bool scale_out = g.link == NvlinkKind::nvswitch || g.link == NvlinkKind::mesh || g.link == NvlinkKind::infinity_fabric;
        if (!given("segment")) {
            g.segment = apple ? Segment::apple : scale_out ? Segment::datacenter : Segment::workstation;
            assumed("segment");
        }
        if (!given("tensor_cores")) {
            g.tensor_cores = !apple;
            assumed("tensor_cores");
        }
        // 16-bit rates: each from the other; BF16 only where the architecture has it.
        TensorTflops& t = g.tensor_tflops_dense;
        if (!given("tensor_tflops_dense.fp16")) {
            t.fp16 = t.bf16;
            assumed("tensor_tflops_dense.fp16");
        }
        if (!given("tensor_tflops_dense.bf16")) {
            const bool no_bf16 =
                g.arch != Architecture::unknown && g.arch != Architecture::apple && !runs_natively(g.arch, Precision::bf16);
            t.bf16 = no_bf16 ? 0.0 : t.fp16;
            assumed("tensor_tflops_dense.bf16");
        }
        for (const char* p : {"tensor_tflops_dense.tf32", "tensor_tflops_dense.fp8", "tensor_tflops_dense.int8", "tensor_tflops_dense.fp4"})
            if (!given(p)) assumed(p, "0 (none)");   // Gpu{}'s 0
        if (!given("fp32_tflops")) {
            // The lowest FP32 : 16-bit tensor share in the catalog is GB200's 80 / 2,500 = 1/31.25
            // (B300 75 / 2,250 = 1/30): 1/32 keeps the fp32 path no faster than any catalog GPU's.
            const double sixteen = std::max(t.bf16, t.fp16);
            g.fp32_tflops = std::max(0.01, apple || !g.tensor_cores ? sixteen : sixteen / 32.0);
            assumed("fp32_tflops");
        }
        if (!given("tensor_tflops_dense_fp16_accumulate")) assumed("tensor_tflops_dense_fp16_accumulate", "0 (the fp16 rate)");
        if (!given("memory_total_mib")) assumed("memory_total_mib", "none (" + number_text(g.memory_gib * 1024.0) + " MiB)");
        if (!given("gpu_memory_fraction")) {
            g.gpu_memory_fraction = apple ? 0.75 : 1.0;   // Metal's working-set limit above 36 GB (gpus.json's Apple notes)
            assumed("gpu_memory_fraction");
        }
        if (!given("memory_type")) assumed("memory_type", "unknown");
        if (!given("llama_cpp_layer_overhead_us")) {
            g.llama_cpp_layer_overhead_s = apple ? 190e-6 : 0.0;   // 0 = the CUDA figure, 90 us (performance.cpp)
            assumed("llama_cpp_layer_overhead_us", apple ? "190 µs" : "90 µs");
        }
        if (!given("interconnect.nvlink")) assumed("interconnect.nvlink");
        if (!given("interconnect.pcie_gen")) {
            g.pcie_gen = apple ? 0 : 4;
            assumed("interconnect.pcie_gen", apple ? "none" : "4");
        }
        if (!given("interconnect.pcie_lanes")) {
            g.pcie_lanes = apple ? 0 : 16;
            if (!apple) assumed("interconnect.pcie_lanes");
        }
        if (!given("p2p")) {
            g.p2p = g.link != NvlinkKind::none;
            assumed("p2p");
        }
        if (!given("ecc")) assumed("ecc");
        if (!given("price_usd")) assumed("price_usd", "unknown");
        if (!given("host_w")) assumed("host_w", "none");
        if (!given("idle_w")) assumed("idle_w", "7% of tdp_w (data center: 10%)");
    }
    // Whatever the source of each field, the GPU must be one the estimate can use.
    if (g.tensor_tflops_dense.bf16 <= 0 && g.tensor_tflops_dense.fp16 <= 0)
        throw_error("gpu.tensor_tflops_dense", "needs a bf16 or fp16 rate above 0: every weight format falls back to 16-bit math");
    if (g.link != NvlinkKind::none && g.nvlink_gb_per_s <= 0)
        throw_error("gpu.interconnect.nvlink_gb_per_s", "must be above 0 with interconnect.nvlink " + g.nvlink +
                                                            " (its bandwidth per GPU, "
                                                            "bidirectional), or set interconnect.nvlink to none");
    return out;
}
#endif

std::shared_ptr<const CustomGpuBuild> custom_gpu_of(const Config& config, const Catalog& catalog, const GpuOverlay* measured) {
    // Without custom GPUs (the widget), "custom" is no more than an id the catalog does not have.
    if (!GPUSIZER_CUSTOM_GPU || config.gpu != kCustomGpuId) return nullptr;
    if (config.custom_gpu.empty())
        throw_error("gpu",
                    "'custom' is a GPU described by its fields: give an object such as {\"name\": \"...\", \"memory_gib\": 48, "
                    "\"memory_bandwidth_gb_per_s\": 1200, \"tensor_tflops_dense\": {\"bf16\": 300}, \"tdp_w\": 350}, or "
                    "{\"base\": \"rtx-4090\", ...}");
    return std::make_shared<const CustomGpuBuild>(build_custom_gpu(config.custom_gpu, catalog, measured));
}

std::string gpu_display_name(const Config& config, const Catalog& catalog) {
    if (config.gpu != kCustomGpuId) {
        const Gpu* g = catalog.find_gpu(config.gpu);
        return g ? g->name : config.gpu;
    }
    if (const CustomGpu::Value* n = config.custom_gpu.find("name"); n && !n->text.empty()) return n->text;
    if (const Gpu* base = catalog.find_gpu(config.custom_gpu.base)) return base->name + " (custom)";
    return "custom GPU";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Documentation and usage text
// ---------------------------------------------------------------------------------------------

namespace {
const char* kind_name(GpuFieldKind k) {
    switch (k) {
        case GpuFieldKind::text:
            return "string";
        case GpuFieldKind::choice:
            return "string";
        case GpuFieldKind::integer:
            return "integer";
        case GpuFieldKind::number:
            return "number";
        case GpuFieldKind::boolean:
            return "bool";
    }
    return "";
}
}  // namespace

std::string gpu_fields_markdown() {
    std::string out =
        "| field | type | unit | allowed | default when not given (no `base`) | meaning | link (`gc=`) | CLI |\n"
        "|---|---|---|---|---|---|---|---|\n"
        "| `base` | string | | a catalog id (`gpusizer gpus`) | none | the catalog GPU whose figures the fields override | `b` | "
        "`--gpu ID` with field flags |\n";
    for (const GpuField& f : kFields) {
        std::string allowed = gpu_field_choices(f);
        if (f.kind == GpuFieldKind::integer || f.kind == GpuFieldKind::number) allowed = number_text(f.min) + " to " + number_text(f.max);
        if (f.kind == GpuFieldKind::boolean) allowed = "`true`, `false`";
        if (f.kind == GpuFieldKind::text) allowed = "text";
        const std::string def = f.required && std::string_view(f.name).rfind("tensor_tflops_dense.", 0) == 0
                                    ? std::string("**`bf16` or `fp16` required**; the other: ") + f.default_doc
                                : f.required ? std::string("**required**") +
                                                   (std::string_view(f.default_doc) == "required" ? "" : std::string("; ") + f.default_doc)
                                             : std::string(f.default_doc);
        out += std::string("| `") + f.name + "` | " + kind_name(f.kind) + " | " + f.unit + " | " + allowed + " | " + def + " | " +
               f.meaning + " | `" + f.link + "` | `--" + f.flag + "` |\n";
    }
    return out;
}

std::string gpu_fields_usage() {
    std::string out;
    for (const GpuField& f : kFields) {
        std::string head = std::string("  --") + f.flag + " " + f.metavar;
        head.resize(std::max<std::size_t>(head.size() + 2, 26), ' ');
        const bool sixteen = std::string_view(f.name).rfind("tensor_tflops_dense.", 0) == 0;
        // The architecture's names come from the architecture table (compute.cpp).
        const std::string meaning =
            std::string_view(f.name) == "architecture" ? architecture_names() + ", or unknown" : std::string(f.meaning);
        out += usage_line(head, meaning + (!f.required ? ""
                                           : sixteen   ? " (this or the other 16-bit rate is required without a catalog --gpu)"
                                                       : " (required without a catalog --gpu)"));
    }
    return out;
}

}  // namespace gpusizer
