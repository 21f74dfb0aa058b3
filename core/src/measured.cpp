// measured.cpp: statistics of repetitions, the CUDA-device-to-catalog mapping, PCIe link rates,
// and the calibration of a catalog GPU by a measured report. JSON lives in measured_io.cpp.
//
// [SECTION] Statistics
// [SECTION] Report lookups and status names
// [SECTION] CUDA device names -> catalog ids
// [SECTION] PCIe link rates
// [SECTION] Calibration
#include "gpusizer/measured.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <utility>

#include "gpusizer/error.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] Statistics
// ---------------------------------------------------------------------------------------------

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) throw_error("percentile", "needs at least one value");
    if (!(p >= 0.0 && p <= 100.0)) throw_error("percentile", "p must be between 0 and 100");
    // Definition 7 of Hyndman & Fan (1996), NumPy's default: h = (n - 1) p / 100, interpolate
    // between the values at floor(h) and floor(h) + 1.
    const double h = double(sorted.size() - 1) * p / 100.0;
    const std::size_t lo = std::size_t(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

Stats summarize(std::vector<double> values, Better better) {
    if (values.empty()) throw_error("samples", "a measurement needs at least one timed repetition");
    for (double v : values)
        if (!std::isfinite(v)) throw_error("samples", "a timed repetition is not a finite number");
    std::sort(values.begin(), values.end());
    Stats s;
    s.samples = int(values.size());
    s.median = percentile(values, 50.0);
    s.p05 = percentile(values, 5.0);
    s.p95 = percentile(values, 95.0);
    s.best = better == Better::higher ? values.back() : values.front();
    s.worst = better == Better::higher ? values.front() : values.back();
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    double ss = 0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    // Population standard deviation: the repetitions are all there is, not a sample of a larger set.
    const double sd = std::sqrt(ss / double(values.size()));
    s.cv = s.mean != 0.0 ? sd / std::fabs(s.mean) : 0.0;
    return s;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Report lookups and status names
// ---------------------------------------------------------------------------------------------

namespace {

// Every status with its name in the report (the schema's `status` values), in the schema's order.
constexpr std::pair<BenchStatus, std::string_view> kStatusNames[] = {
    {BenchStatus::ok, "ok"},
    {BenchStatus::partial, "partial"},
    {BenchStatus::no_driver, "no_driver"},
    {BenchStatus::no_device, "no_device"},
    {BenchStatus::system_not_ready, "system_not_ready"},
    {BenchStatus::cuda_error, "cuda_error"},
    {BenchStatus::internal_error, "internal_error"},
};

}  // namespace

std::string_view to_string(BenchStatus s) {
    for (const auto& [status, name] : kStatusNames)
        if (status == s) return name;
    return "internal_error";
}

BenchStatus parse_bench_status(std::string_view s) {
    std::string allowed;
    for (const auto& [status, name] : kStatusNames) {
        if (name == s) return status;
        allowed += (allowed.empty() ? "" : ", ") + std::string(name);
    }
    throw_error("status", "unknown status '" + std::string(s) + "'; allowed: " + allowed);
}

const Measurement* MeasuredDevice::find(std::string_view id) const {
    for (const auto& m : measurements)
        if (m.id == id) return &m;
    return nullptr;
}

const MeasuredDevice* MeasuredReport::find_device(std::string_view catalog_id) const {
    for (const auto& d : devices)
        if (!catalog_id.empty() && d.catalog_id == catalog_id) return &d;
    return nullptr;
}

const CalibratedFigure* Calibration::find(std::string_view key) const {
    for (const auto& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] CUDA device names -> catalog ids
// ---------------------------------------------------------------------------------------------

namespace {

// Lower case, every run of characters other than letters and digits made one space, trimmed:
// "NVIDIA A100-SXM4-80GB" -> "nvidia a100 sxm4 80gb".
std::string normalize_name(std::string_view s) {
    std::string out;
    bool space = false;
    for (char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (std::isalnum(c)) {
            if (space && !out.empty()) out += ' ';
            out += char(std::tolower(c));
            space = false;
        } else {
            space = true;
        }
    }
    return out;
}

// The names CUDA (cudaDeviceProp::name) and nvidia-smi give the catalog's NVIDIA GPUs, as listed
// in the NVIDIA Linux driver README, "Appendix A. Supported NVIDIA GPU Products" (e.g.
// "NVIDIA A100-PCIE-40GB 20F1 10DE 145F"), and as printed in public nvidia-smi logs. Names that
// equal the catalog's own `name` need no entry (L4, L40S, A10, RTX A6000, RTX 6000 Ada Generation).
struct DeviceAlias {
    const char* device_name;
    const char* catalog_id;
};
constexpr DeviceAlias kDeviceAliases[] = {
    {"NVIDIA GeForce RTX 3060", "rtx-3060"},            // 12 GB; the 8 GB card shares the name (memory check)
    {"NVIDIA GeForce RTX 3070", "rtx-3070"},
    {"NVIDIA GeForce RTX 3080", "rtx-3080"},            // 10 GB; the 12 GB card shares the name
    {"NVIDIA GeForce RTX 3090", "rtx-3090"},
    {"NVIDIA GeForce RTX 4060 Ti", "rtx-4060-ti-8gb"},  // 8 GB and 16 GB share the name
    {"NVIDIA GeForce RTX 4060 Ti", "rtx-4060-ti-16gb"},
    {"NVIDIA GeForce RTX 4070 Ti", "rtx-4070-ti"},
    {"NVIDIA GeForce RTX 4080", "rtx-4080"},
    {"NVIDIA GeForce RTX 4090", "rtx-4090"},
    {"NVIDIA GeForce RTX 5090", "rtx-5090"},
    {"NVIDIA A100-PCIE-40GB", "a100-40gb-pcie"},
    {"NVIDIA A100 80GB PCIe", "a100-80gb-pcie"},
    {"NVIDIA A100-SXM4-40GB", "a100-40gb-sxm"},
    {"NVIDIA A100-SXM4-80GB", "a100-80gb-sxm"},
    {"NVIDIA H100 PCIe", "h100-pcie"},
    {"NVIDIA H100 80GB HBM3", "h100-sxm"},              // the SXM5 board
    {"NVIDIA H200", "h200"},                            // SXM; "NVIDIA H200 NVL" is another board
    {"NVIDIA B200", "b200"},
    {"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
    {"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
    {"Tesla T4", "t4"},
    {"NVIDIA T4", "t4"},
};

// A device's memory may differ from the catalog's by this much and still be the same GPU: CUDA
// reports a few hundred MiB less than nvidia-smi (driver reserve; 0.5 GiB of 24 GiB on an
// RTX 4090 is 2%), while same-named variants differ by 33% or more (12 vs 8 GB, 16 vs 8 GB).
constexpr double kMemoryMatchTolerance = 0.15;

}  // namespace

std::string catalog_gpu_for_device(const Catalog& catalog, std::string_view device_name, double total_bytes) {
    const std::string name = normalize_name(device_name);
    if (name.empty()) return "";
    std::vector<const Gpu*> candidates;
    for (const auto& a : kDeviceAliases)
        if (normalize_name(a.device_name) == name)
            if (const Gpu* g = catalog.find_gpu(a.catalog_id)) candidates.push_back(g);
    if (candidates.empty())
        for (const auto& g : catalog.gpus)
            if (normalize_name(g.name) == name) candidates.push_back(&g);
    if (candidates.empty()) return "";
    if (total_bytes <= 0) return candidates.size() == 1 ? candidates.front()->id : "";
    // The candidate whose capacity is closest to what CUDA reports, if close enough.
    const Gpu* best = nullptr;
    double best_gap = 0;
    for (const Gpu* g : candidates) {
        const double gap = std::fabs(total_bytes - g->capacity_bytes()) / g->capacity_bytes();
        if (!best || gap < best_gap) {
            best = g;
            best_gap = gap;
        }
    }
    return best_gap <= kMemoryMatchTolerance ? best->id : "";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] PCIe link rates
// ---------------------------------------------------------------------------------------------

double pcie_gb_per_s_per_direction(int gen, int lanes) {
    // Per lane and direction, after line encoding (PCI-SIG base specifications):
    // gen 1: 2.5 GT/s, 8b/10b -> 0.25 GB/s; gen 2: 5 GT/s, 8b/10b -> 0.5 GB/s;
    // gen 3: 8 GT/s, 128b/130b -> 0.985 GB/s; gen 4: 16 GT/s -> 1.969 GB/s; gen 5: 32 GT/s -> 3.938 GB/s;
    // gen 6: 64 GT/s PAM4 in 256-byte FLITs of which 236 bytes carry TLPs -> 7.375 GB/s.
    // x16: gen 4 31.5 GB/s and gen 5 63 GB/s, the "~32" and "~63" of docs/research/cuda-bench-method.md.
    double lane = 0;
    switch (gen) {
        case 1: lane = 2.5 * 8.0 / 10.0 / 8.0; break;
        case 2: lane = 5.0 * 8.0 / 10.0 / 8.0; break;
        case 3: lane = 8.0 * 128.0 / 130.0 / 8.0; break;
        case 4: lane = 16.0 * 128.0 / 130.0 / 8.0; break;
        case 5: lane = 32.0 * 128.0 / 130.0 / 8.0; break;
        case 6: lane = 64.0 * 236.0 / 256.0 / 8.0; break;
        default: return 0.0;
    }
    return lanes > 0 ? lane * lanes : 0.0;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Calibration
// ---------------------------------------------------------------------------------------------

namespace {

// The median of the GEMM measurement with the highest median for a precision, or nullptr.
const Measurement* best_gemm(const MeasuredDevice& d, std::string_view precision) {
    const Measurement* best = nullptr;
    for (const auto& m : d.measurements)
        if (m.ok() && m.precision == precision && m.id.rfind("gemm.", 0) == 0 && (!best || m.stats.median > best->stats.median))
            best = &m;
    return best;
}

const Measurement* ok_measurement(const MeasuredDevice& d, std::string_view id) {
    const Measurement* m = d.find(id);
    return m && m->ok() ? m : nullptr;
}

}  // namespace

Gpu calibrated_gpu(const Gpu& datasheet, const MeasuredReport& report, const MeasuredDevice& device, const std::string& file) {
    Gpu g = datasheet;
    auto cal = std::make_shared<Calibration>();
    cal->file = file;
    cal->device_name = device.name;
    cal->device_index = device.index;
    cal->catalog_id = device.catalog_id;
    cal->gpu_id = datasheet.id;
    cal->created_utc = report.created_utc;
    cal->tool_version = report.tool_version;
    cal->mode = report.mode;
    auto replace = [&](double& field, const char* key, const char* unit, double value, std::string from) {
        cal->figures.push_back({key, unit, field, value, std::move(from)});
        field = value;
    };
    auto keep = [&](const char* key, double datasheet_value) {
        if (datasheet_value > 0) cal->datasheet_only.push_back(key);
    };

    if (const Measurement* m = ok_measurement(device, "memory.triad"))
        replace(g.memory_bandwidth_gb_per_s, "memory_bandwidth_gb_per_s", "GB/s", m->stats.median, m->id + " median");
    else keep("memory_bandwidth_gb_per_s", g.memory_bandwidth_gb_per_s);

    if (const Measurement* m = best_gemm(device, "fp32"))
        replace(g.fp32_tflops, "fp32_tflops", "TFLOP/s", m->stats.median, m->id + " median");
    else keep("fp32_tflops", g.fp32_tflops);

    struct Tensor {
        const char* precision;
        double TensorTflops::*field;
        const char* key;
        const char* unit;
    };
    const Tensor tensors[] = {
        {"tf32", &TensorTflops::tf32, "tensor_tflops_dense.tf32", "TFLOP/s"},
        {"fp16", &TensorTflops::fp16, "tensor_tflops_dense.fp16", "TFLOP/s"},
        {"bf16", &TensorTflops::bf16, "tensor_tflops_dense.bf16", "TFLOP/s"},
        {"fp8", &TensorTflops::fp8, "tensor_tflops_dense.fp8", "TFLOP/s"},
        {"int8", &TensorTflops::int8, "tensor_tflops_dense.int8", "TOP/s"},
    };
    for (const Tensor& t : tensors) {
        double& field = g.tensor_tflops_dense.*(t.field);
        if (const Measurement* m = best_gemm(device, t.precision)) replace(field, t.key, t.unit, m->stats.median, m->id + " median");
        else keep(t.key, field);
    }
    keep("tensor_tflops_dense.fp4", g.tensor_tflops_dense.fp4);                  // no FP4 GEMM is measured
    keep("tensor_tflops_dense_fp16_accumulate", g.fp16_accumulate_tflops);      // GEMMs accumulate in FP32

    if (device.memory.total_bytes > 0) {
        // What CUDA can use, a few hundred MiB below nvidia-smi's total (driver reserve).
        const double datasheet_mib = g.memory_total_mib > 0 ? g.memory_total_mib : g.memory_gib * 1024.0;
        const double measured_mib = device.memory.total_bytes / (1024.0 * 1024.0);
        cal->figures.push_back({"memory_total_mib", "MiB", datasheet_mib, measured_mib, "memory.total_bytes (cudaMemGetInfo)"});
        g.memory_total_mib = measured_mib;
    }

    {
        const Measurement* h2d = ok_measurement(device, "host.h2d.pinned");
        const Measurement* d2h = ok_measurement(device, "host.d2h.pinned");
        if (h2d || d2h) {
            const Measurement* slow = !d2h || (h2d && h2d->stats.median <= d2h->stats.median) ? h2d : d2h;
            const double datasheet_pcie = pcie_gb_per_s_per_direction(g.pcie_gen, g.pcie_lanes);
            cal->figures.push_back({"measured_pcie_gb_per_s", "GB/s", datasheet_pcie, slow->stats.median, slow->id + " median"});
            g.measured_pcie_gb_per_s = slow->stats.median;
        } else if (g.pcie_gen > 0) {
            cal->datasheet_only.push_back("pcie (gen " + std::to_string(g.pcie_gen) + " x" + std::to_string(g.pcie_lanes) + ")");
        }
    }

    {
        // NVLink: the bidirectional peer bandwidth of each pair this device belongs to. Only GPUs
        // with NVLink are calibrated this way; between PCIe-only GPUs the figure is PCIe's.
        std::vector<double> bidir;
        for (const auto& m : report.links)
            if (m.ok() && m.id.size() > 14 && m.id.compare(m.id.size() - 14, 14, ".bidirectional") == 0 &&
                std::find(m.devices.begin(), m.devices.end(), device.index) != m.devices.end())
                bidir.push_back(m.stats.median);
        if (!bidir.empty() && g.nvlink != "none") {
            std::sort(bidir.begin(), bidir.end());
            const double median = percentile(bidir, 50.0);
            replace(g.nvlink_gb_per_s, "nvlink_gb_per_s", "GB/s", median,
                    "p2p.*.bidirectional median over " + std::to_string(bidir.size()) + " pair(s)");
        } else if (g.nvlink != "none") {
            keep("nvlink_gb_per_s", g.nvlink_gb_per_s);
        } else if (!bidir.empty()) {
            cal->notes.push_back("peer-to-peer bandwidth was measured but " + g.name +
                                 " has no NVLink: it is shown, not used as a link speed");
        }
    }

    {
        const DeviceMemory& mem = device.memory;
        const double ctx = mem.context_with_cublaslt_bytes > 0 ? mem.context_with_cublaslt_bytes : mem.cuda_context_bytes;
        if (ctx > 0) {
            cal->figures.push_back({"measured_cuda_context_bytes", "bytes", 0.0, ctx,
                                    std::string(mem.context_with_cublaslt_bytes > 0 ? "memory.context_with_cublaslt_bytes"
                                                                                   : "memory.cuda_context_bytes") +
                                        " (" + mem.context_method + ")"});
            g.measured_cuda_context_bytes = ctx;
            if (mem.context_method == "total_minus_free")
                cal->notes.push_back("the CUDA context was measured as total minus free memory (NVML was not available): "
                                     "an upper bound that includes other processes' memory");
        } else {
            cal->datasheet_only.push_back("cuda_context (the runtime profile's constant)");
        }
    }

    if (device.catalog_id.empty())
        cal->notes.push_back("the measured device '" + device.name + "' is not in the catalog; its figures replace those of " +
                             datasheet.name);
    if (report.status == BenchStatus::partial)
        cal->notes.push_back("the report is partial: figures of the measurements that failed stay the datasheet's");
    g.calibration = std::move(cal);
    return g;
}

Gpu calibrated_catalog_gpu(const Catalog& catalog, const MeasuredReport& report, const std::string& gpu_id,
                           const std::string& file) {
    const Gpu& datasheet = catalog.gpu(gpu_id);   // throws for an unknown id, naming "gpu"
    if (datasheet.vendor != "nvidia") throw_error("measured", file + " measured CUDA devices; " + datasheet.name + " is not an NVIDIA GPU");
    if (report.status != BenchStatus::ok && report.status != BenchStatus::partial)
        throw_error("measured", file + " holds no measurements: status " + std::string(to_string(report.status)) +
                                    (report.status_detail.empty() ? "" : " (" + report.status_detail + ")"));
    auto usable = [](const MeasuredDevice& d) {
        for (const auto& m : d.measurements)
            if (m.ok()) return true;
        return d.memory.total_bytes > 0;
    };
    const MeasuredDevice* device = nullptr;
    for (const auto& d : report.devices)
        if (d.catalog_id == gpu_id && usable(d)) {
            device = &d;
            break;
        }
    if (!device) {
        std::string others;
        for (const auto& d : report.devices)
            if (!d.catalog_id.empty() && usable(d) && others.find(d.catalog_id) == std::string::npos)
                others += (others.empty() ? "" : ", ") + d.catalog_id;
        if (!others.empty())
            throw_error("measured", file + " measured " + others + ", not " + gpu_id + ": use --gpu " + others.substr(0, others.find(',')) +
                                        " (or a report of this GPU)");
        for (const auto& d : report.devices)
            if (usable(d)) {
                device = &d;
                break;
            }
    }
    if (!device) throw_error("measured", file + " holds no usable device measurement");
    return calibrated_gpu(datasheet, report, *device, file);
}

GpuOverlay measured_overlay(const Catalog& catalog, const MeasuredReport& report, const std::string& file,
                            const std::vector<std::string>& gpu_ids) {
    std::vector<std::string> ids = gpu_ids;
    if (ids.empty()) {
        for (const auto& d : report.devices)
            if (!d.catalog_id.empty() && catalog.find_gpu(d.catalog_id) && std::find(ids.begin(), ids.end(), d.catalog_id) == ids.end())
                ids.push_back(d.catalog_id);
        if (ids.empty()) throw_error("measured", file + " measured no catalog GPU: there is nothing to calibrate");
    }
    GpuOverlay out;
    for (const std::string& id : ids) out.gpus.push_back(calibrated_catalog_gpu(catalog, report, id, file));
    return out;
}

std::string measured_gpu_id(const Config& config, const std::string& file) {
    if (config.gpu != kCustomGpuId) return config.gpu;
    if (config.custom_gpu.base.empty())
        throw_error("measured", file +
                                    " calibrates a catalog GPU; the configuration's GPU is a custom one without a base, whose "
                                    "figures are the ones given. Give the custom GPU the base the report measured (\"base\": \"<id>\") "
                                    "to start from its measured figures, or leave the report out");
    return config.custom_gpu.base;
}

}  // namespace gpusizer
