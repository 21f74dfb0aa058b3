// bench.cpp: the benchmark driver and the gpusizer-cuda-bench command line (bench.hpp).
//
// [SECTION] Command line
// [SECTION] Turning timings into measurements
// [SECTION] The suite: devices, pairs, collectives
// [SECTION] Judging against the datasheet
// [SECTION] main
#include "bench.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "counting.hpp"
#include "gpusizer/error.hpp"

#ifndef GPUSIZER_VERSION
#define GPUSIZER_VERSION "0.0.0"
#endif

namespace gpusizer::bench {

int exit_code_for(BenchStatus s) {
    switch (s) {
        case BenchStatus::ok: return kExitOk;
        case BenchStatus::partial: return kExitPartial;
        case BenchStatus::no_driver: return kExitNoDriver;
        case BenchStatus::no_device: return kExitNoDevice;
        case BenchStatus::system_not_ready: return kExitNotReady;
        case BenchStatus::cuda_error: return kExitCudaError;
        case BenchStatus::internal_error: return kExitInternal;
    }
    return kExitInternal;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Command line
// ---------------------------------------------------------------------------------------------

const char* const kBenchUsage = R"(gpusizer-cuda-bench: measure what gpusizer otherwise takes from datasheets.

Usage:
  gpusizer-cuda-bench [--quick] [--device N] [--assets DIR] --out REPORT.json

  --quick       a shorter run (under 30 s per GPU) instead of the full suite (under 3 min)
  --device N    measure CUDA device N only (default: every device, and every pair of them)
  --assets DIR  where gpus.json is, for the datasheet figures (default: found automatically)
  --out FILE    where the JSON report goes (written even when no GPU is found)

Measures: device memory bandwidth (BabelStream copy and triad), GEMM TFLOPS per precision
(cuBLASLt: fp32, tf32, fp16, bf16, fp8, int8), host<->device bandwidth (pinned, pageable),
peer-to-peer bandwidth and latency per pair, NCCL all-reduce, free/total memory, the CUDA
context's cost, the largest allocatable block, power and energy (NVML), clocks and throttling.
Use the report with: gpusizer estimate ... --measured REPORT.json

Exit codes: 0 done; 1 internal error; 2 bad command line; 3 no NVIDIA driver; 4 no CUDA device
(or --device N absent); 5 driver not ready (e.g. fabric manager); 6 other CUDA error at start;
7 some measurements failed (report status partial); 8 the report could not be written.
)";

BenchOptions parse_bench_args(const std::vector<std::string>& args) {
    BenchOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        std::string value;
        bool has_value = false;
        if (const auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = a.substr(eq + 1);
            a = a.substr(0, eq);
            has_value = true;
        }
        auto next = [&]() -> std::string {
            if (has_value) return value;
            if (i + 1 >= args.size()) throw Error(a, "needs a value");
            return args[++i];
        };
        if (a == "--help" || a == "-h") o.help = true;
        else if (a == "--quick") o.quick = true;
        else if (a == "--out" || a == "-o") {
            o.out = next();
            if (o.out.empty()) throw Error("--out", "needs a file name");
        } else if (a == "--assets") o.assets = next();
        else if (a == "--device") {
            const std::string v = next();
            int d = -1;
            const std::from_chars_result r = std::from_chars(v.data(), v.data() + v.size(), d);
            if (r.ec != std::errc() || r.ptr != v.data() + v.size() || d < 0 || d > 1023)
                throw Error("--device", "must be a CUDA device number (0, 1, ...), got '" + v + "'");
            o.device = int(d);
        } else {
            throw Error(a, "unknown argument; flags: --quick, --device N, --assets DIR, --out FILE (see --help)");
        }
    }
    if (!o.help && o.out.empty()) throw Error("--out", "is required: where the report goes, e.g. --out report.json");
    return o;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Turning timings into measurements
// ---------------------------------------------------------------------------------------------

namespace {

constexpr double kGB = 1e9;     // GB/s is decimal (STYLE: GB/s for bandwidth)
constexpr double kTera = 1e12;

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// A rate measurement: `amount` (bytes or operations) per repetition, divided by each repetition's
// seconds, in units of `scale` (1e9 for GB/s, 1e12 for TFLOP/s).
void fill_rate(Measurement& m, const Timed& t, double amount, double scale) {
    std::vector<double> rates;
    rates.reserve(t.seconds.size());
    for (double s : t.seconds) {
        if (!(s > 0)) throw BackendError("a timed repetition took " + std::to_string(s) + " s");
        rates.push_back(amount / s / scale);
    }
    m.stats = summarize(rates, Better::higher);
    m.warmup = t.warmup;
    if (t.has_telemetry) {
        m.has_telemetry = true;
        m.telemetry = t.telemetry;
    }
}

void fill_latency(Measurement& m, const Timed& t) {
    std::vector<double> us;
    for (double s : t.seconds) {
        if (!(s > 0)) throw BackendError("a timed repetition took " + std::to_string(s) + " s");
        us.push_back(s * 1e6);
    }
    m.stats = summarize(us, Better::lower);
    m.warmup = t.warmup;
}

// Energy over the timed repetitions: the NVML energy counter where it moved, else the power
// sampled while they ran times their wall time. `work` is bytes or operations per repetition,
// `token_equiv` the work of one token-equivalent (counting.hpp).
void fill_energy(Measurement& m, const Timed& t, double work, double token_equiv) {
    if (t.wall_s <= 0 || t.seconds.empty()) return;
    double energy = -1;
    std::string method;
    if (t.energy_j > 0) {
        energy = t.energy_j;
        method = "nvml_energy_counter";
    } else if (t.has_telemetry && t.telemetry.power_w > 0) {
        energy = t.telemetry.power_w * t.wall_s;
        method = "nvml_power_samples";
    }
    if (energy <= 0) return;
    m.has_energy = true;
    m.energy.energy_j = energy;
    m.energy.avg_power_w = energy / t.wall_s;
    m.energy.per_watt = m.stats.median / m.energy.avg_power_w;
    m.energy.joules_per_token_equiv = energy / (work * double(t.seconds.size())) * token_equiv;
    m.energy.method = method;
}

void set_datasheet(Measurement& m, double datasheet) {
    if (datasheet > 0 && m.ok()) {
        m.datasheet = datasheet;
        m.fraction_of_datasheet = m.stats.best / datasheet;
    } else if (datasheet > 0) {
        m.datasheet = datasheet;
    }
}

std::string fmt(double v, int decimals) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(decimals) << v;
    return os.str();
}

// What the one-line summary of a run that measured nothing says before the status detail.
const char* failure_words(BenchStatus s) {
    switch (s) {
        case BenchStatus::no_driver: return "no usable NVIDIA driver: ";
        case BenchStatus::no_device: return "no CUDA device: ";
        case BenchStatus::system_not_ready: return "the NVIDIA driver is not ready (is the fabric manager running?): ";
        case BenchStatus::cuda_error: return "CUDA error: ";
        default: return "";   // internal_error: the detail says it all
    }
}

}  // namespace

BenchDriver::BenchDriver(Backend& backend, const Catalog* catalog, BenchOptions options, std::ostream& progress)
    : backend_(backend), catalog_(catalog), options_(std::move(options)), progress_(progress) {}

void BenchDriver::print(const std::string& where, const Measurement& m) {
    progress_ << "  [" << where << "] " << std::left << std::setw(34) << m.id << std::right;
    if (!m.ok()) {
        progress_ << "FAILED: " << m.error << '\n';
        return;
    }
    const int decimals = m.unit == "us" ? 2 : 1;
    progress_ << std::setw(10) << fmt(m.stats.median, decimals) << ' ' << m.unit << " median, best " << fmt(m.stats.best, decimals);
    if (m.datasheet > 0) progress_ << ", " << fmt(100.0 * m.fraction_of_datasheet, 0) << "% of datasheet";
    if (m.has_energy) progress_ << ", " << fmt(m.energy.avg_power_w, 0) << " W";
    progress_ << '\n' << std::flush;
}

const Gpu* BenchDriver::datasheet_gpu(const MeasuredDevice& dev) const {
    if (!catalog_ || dev.catalog_id.empty()) return nullptr;
    return catalog_->find_gpu(dev.catalog_id);
}

const MeasuredDevice* BenchDriver::device_entry(int index) const {
    for (const auto& d : report_.devices)
        if (d.index == index) return &d;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The suite
// ---------------------------------------------------------------------------------------------

void BenchDriver::run() {
    const auto started = std::chrono::steady_clock::now();
    report_ = MeasuredReport{};
    report_.tool_version = GPUSIZER_VERSION;
    report_.created_utc = now_utc();
    report_.mode = options_.quick ? "quick" : "full";
    try {
        init_ = backend_.init();
    } catch (const BackendError& e) {
        init_ = InitResult{};
        init_.status = InitStatus::cuda_error;
        init_.detail = e.what();
    }
    report_.cuda_runtime_version = init_.runtime_version;
    report_.cuda_driver_version = init_.driver_version;
    report_.nvidia_driver = init_.nvidia_driver;
    report_.nvml = init_.nvml;
    report_.nccl = init_.nccl;
    switch (init_.status) {
        case InitStatus::ok: break;
        case InitStatus::no_driver: report_.status = BenchStatus::no_driver; break;
        case InitStatus::no_device: report_.status = BenchStatus::no_device; break;
        case InitStatus::system_not_ready: report_.status = BenchStatus::system_not_ready; break;
        case InitStatus::cuda_error: report_.status = BenchStatus::cuda_error; break;
    }
    if (init_.status != InitStatus::ok) {
        report_.status_detail = init_.detail;
        return;
    }
    if (init_.device_count <= 0) {
        report_.status = BenchStatus::no_device;
        report_.status_detail = "the CUDA runtime found no device";
        return;
    }
    std::vector<int> selected;
    if (options_.device >= 0) {
        if (options_.device >= init_.device_count) {
            report_.status = BenchStatus::no_device;
            report_.status_detail = "--device " + std::to_string(options_.device) + " requested; " +
                                    std::to_string(init_.device_count) + " device(s) present (0 to " +
                                    std::to_string(init_.device_count - 1) + ")";
            return;
        }
        selected.push_back(options_.device);
    } else {
        for (int d = 0; d < init_.device_count; ++d) selected.push_back(d);
    }

    // Phase 1: every device's facts and memory, before any other work creates contexts on them
    // (the context's cost is the memory its creation takes).
    progress_ << "gpusizer-cuda-bench " << GPUSIZER_VERSION << ", " << report_.mode << " run, " << selected.size()
              << " device(s), CUDA runtime " << init_.runtime_version / 1000 << "." << (init_.runtime_version % 1000) / 10
              << ", NVML " << (init_.nvml == "loaded" ? "loaded" : "absent") << ", NCCL "
              << (init_.nccl_available ? "loaded" : "absent") << '\n';
    std::vector<DeviceInfo> infos;
    std::vector<double> free_bytes;
    std::vector<int> usable;
    for (int d : selected) {
        MeasuredDevice dev;
        dev.index = d;
        DeviceInfo info;
        try {
            info = backend_.device_info(d);
        } catch (const BackendError& e) {
            report_.notes.push_back("device " + std::to_string(d) + ": its properties could not be read: " + e.what());
            continue;
        }
        dev.name = info.name;
        dev.uuid = info.uuid;
        dev.pci_bus_id = info.pci_bus_id;
        dev.compute_capability = std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor);
        dev.sm_count = info.sm_count;
        dev.l2_bytes = info.l2_bytes;
        dev.pcie_gen = info.pcie_gen;
        dev.pcie_width = info.pcie_width;
        dev.sm_clock_max_mhz = info.sm_clock_max_mhz;
        dev.memory_clock_max_mhz = info.memory_clock_max_mhz;
        dev.power_limit_w = info.power_limit_w;
        dev.memory.total_bytes = info.total_bytes;
        double free_now = info.total_bytes;
        try {
            const MemoryProbe p = backend_.probe_memory(d);
            dev.memory.total_bytes = p.total_bytes;
            dev.memory.free_bytes = p.free_bytes;
            dev.memory.cuda_context_bytes = p.context_bytes;
            dev.memory.context_with_cublaslt_bytes = p.context_with_cublaslt_bytes;
            dev.memory.context_method = p.context_method;
            dev.memory.largest_block_bytes = p.largest_block_bytes;
            free_now = p.free_bytes;
        } catch (const BackendError& e) {
            report_.notes.push_back("device " + std::to_string(d) + ": memory probe failed: " + e.what());
        }
        if (catalog_) dev.catalog_id = catalog_gpu_for_device(*catalog_, dev.name, dev.memory.total_bytes);
        progress_ << "  [" << d << "] " << dev.name << " (sm_" << info.cc_major << info.cc_minor << ", "
                  << fmt(dev.memory.total_bytes / (1024.0 * 1024.0 * 1024.0), 1) << " GiB"
                  << (dev.catalog_id.empty() ? ", not in the catalog" : ", catalog " + dev.catalog_id) << ")";
        if (dev.memory.cuda_context_bytes >= 0)
            progress_ << ", CUDA context " << fmt(dev.memory.cuda_context_bytes / (1024.0 * 1024.0), 0) << " MiB";
        progress_ << '\n';
        report_.devices.push_back(dev);
        infos.push_back(info);
        free_bytes.push_back(free_now);
        usable.push_back(d);
    }
    if (report_.devices.empty()) {
        report_.status = BenchStatus::cuda_error;
        report_.status_detail = "no device could be read: " + (report_.notes.empty() ? std::string() : report_.notes.back());
        return;
    }

    // Phase 2: each device on its own.
    for (std::size_t i = 0; i < report_.devices.size(); ++i) run_device(report_.devices[i], infos[i], free_bytes[i]);
    // Phase 3 and 4: pairs and collectives.
    if (usable.size() >= 2) {
        run_pairs(usable);
        run_collectives(usable);
    } else if (options_.device < 0 && init_.device_count == 1) {
        report_.notes.push_back("one device: no peer-to-peer or NCCL measurement");
    } else if (options_.device >= 0) {
        report_.notes.push_back("--device: peer-to-peer and NCCL measurements need every device");
    }

    // Status: partial when any measurement failed or a device could not be read.
    bool failed = report_.devices.size() < selected.size();
    for (const auto& d : report_.devices)
        for (const auto& m : d.measurements) failed = failed || !m.ok();
    for (const auto& m : report_.links) failed = failed || !m.ok();
    for (const auto& m : report_.collectives) failed = failed || !m.ok();
    report_.status = failed ? BenchStatus::partial : BenchStatus::ok;
    if (failed) report_.status_detail = "some measurements failed; each says why in its error";
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress_ << "done in " << fmt(seconds, 1) << " s\n";
}

void BenchDriver::run_device(MeasuredDevice& dev, const DeviceInfo& info, double free_bytes) {
    const int d = dev.index;
    const bool quick = options_.quick;
    const std::string where = std::to_string(d);
    const Gpu* ds = datasheet_gpu(dev);

    // Device memory bandwidth: BabelStream copy and triad.
    const std::size_t elements = stream_elements(info.l2_bytes, free_bytes);
    for (StreamKernel k : {StreamKernel::copy, StreamKernel::triad}) {
        Measurement m;
        m.id = k == StreamKernel::copy ? "memory.copy" : "memory.triad";
        m.unit = "GB/s";
        m.convention = std::string(stream_convention(k)) + "; arrays of " + std::to_string(elements) + " doubles";
        m.bytes = stream_bytes(k, elements);
        try {
            if (elements == 0) throw BackendError("not enough free memory for arrays of 4 x L2 each");
            const Timed t = backend_.stream(d, k, elements, stream_run(quick));
            fill_rate(m, t, m.bytes, kGB);
            fill_energy(m, t, m.bytes, kTokenEquivBytes);
        } catch (const BackendError& e) {
            m.error = e.what();
        }
        set_datasheet(m, ds ? ds->memory_bandwidth_gb_per_s : 0);
        print(where, m);
        dev.measurements.push_back(m);
    }

    // GEMM per precision and shape, through cuBLASLt.
    for (Precision p : {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8, Precision::int8}) {
        if (!precision_supported(p, info.cc_major, info.cc_minor)) continue;
        double datasheet = 0;
        if (ds) {
            switch (p) {
                case Precision::fp32: datasheet = ds->fp32_tflops; break;
                case Precision::tf32: datasheet = ds->tensor_tflops_dense.tf32; break;
                case Precision::fp16: datasheet = ds->tensor_tflops_dense.fp16; break;
                case Precision::bf16: datasheet = ds->tensor_tflops_dense.bf16; break;
                case Precision::fp8: datasheet = ds->tensor_tflops_dense.fp8; break;
                case Precision::int8: datasheet = ds->tensor_tflops_dense.int8; break;
                case Precision::fp4: datasheet = ds->tensor_tflops_dense.fp4; break;
            }
        }
        for (const GemmShape& s : gemm_shapes(quick)) {
            Measurement m;
            m.precision = std::string(precision_name(p));
            m.id = "gemm." + m.precision + "." + s.name;
            m.unit = std::string(gemm_unit(p));
            m.m = s.m;
            m.n = s.n;
            m.k = s.k;
            GemmSpec spec{p, s.m, s.n, s.k, 1};
            const double ab = gemm_input_bytes(p, s.m, s.n, s.k);
            const double need = ab + gemm_output_bytes(p, s.m, s.n);
            spec.rotations = gemm_rotations(info.l2_bytes, ab, 0.5 * free_bytes - need);
            m.convention = "2*M*N*K per GEMM / time (CUDA events); cuBLASLt, A transposed (TN), FP32 accumulate "
                           "(INT32 for int8), uniform random inputs, " +
                           std::to_string(spec.rotations) + " rotating copies of A and B";
            try {
                if (need > 0.6 * free_bytes) throw BackendError("not enough free memory for this shape");
                const Timed t = backend_.gemm(d, spec, gemm_run(quick));
                const double flops = gemm_flops(s.m, s.n, s.k);
                fill_rate(m, t, flops, kTera);
                fill_energy(m, t, flops, kTokenEquivFlop);
            } catch (const BackendError& e) {
                m.error = e.what();
            }
            set_datasheet(m, datasheet);
            print(where, m);
            dev.measurements.push_back(m);
        }
    }

    // Host <-> device, pinned and pageable.
    const std::size_t bytes = copy_bytes(quick, free_bytes);
    const double pcie = ds ? pcie_gb_per_s_per_direction(ds->pcie_gen, ds->pcie_lanes) : 0.0;
    for (bool pinned : {true, false})
        for (Direction dir : {Direction::h2d, Direction::d2h}) {
            Measurement m;
            m.id = std::string("host.") + (dir == Direction::h2d ? "h2d" : "d2h") + (pinned ? ".pinned" : ".pageable");
            m.unit = "GB/s";
            m.bytes = double(bytes);
            m.convention = pinned ? "bytes copied once / time (nvbandwidth's convention); cudaMemcpyAsync from cudaMallocHost "
                                    "memory, CUDA events"
                                  : "bytes copied once / time; cudaMemcpy from malloc'ed memory (staged by the driver), host timer";
            try {
                if (bytes == 0) throw BackendError("not enough free memory for a copy buffer");
                const Timed t = backend_.host_copy(d, dir, pinned, bytes, copy_run(quick));
                fill_rate(m, t, double(bytes), kGB);
            } catch (const BackendError& e) {
                m.error = e.what();
            }
            set_datasheet(m, pcie);
            print(where, m);
            dev.measurements.push_back(m);
        }
    judge(dev);
}

void BenchDriver::run_pairs(const std::vector<int>& devices) {
    const bool quick = options_.quick;
    double free_min = 0;
    for (const auto& d : report_.devices) free_min = free_min == 0 ? d.memory.free_bytes : std::min(free_min, d.memory.free_bytes);
    const std::size_t bytes = copy_bytes(quick, free_min);
    for (int a : devices)
        for (int b : devices) {
            if (a == b) continue;
            const std::string pair = std::to_string(a) + "-" + std::to_string(b);
            const MeasuredDevice* da = device_entry(a);
            const Gpu* ds = da ? datasheet_gpu(*da) : nullptr;
            const bool nvlink = ds && ds->nvlink != "none" && ds->nvlink_gb_per_s > 0;
            const double per_direction = !ds      ? 0.0
                                         : nvlink ? ds->nvlink_gb_per_s / 2.0
                                                  : pcie_gb_per_s_per_direction(ds->pcie_gen, ds->pcie_lanes);
            bool peer = false;
            try {
                peer = backend_.peer_access(a, b);
            } catch (const BackendError&) {
                peer = false;
            }
            const std::string how = peer ? "peer access enabled" : "no peer access: the driver stages copies through the host";
            std::vector<bool> directions = {false};
            if (a < b) directions.push_back(true);
            for (bool bidir : directions) {
                Measurement m;
                m.id = "p2p." + pair + (bidir ? ".bidirectional" : ".unidirectional");
                m.unit = "GB/s";
                m.devices = {a, b};
                m.bytes = double(bytes) * (bidir ? 2.0 : 1.0);
                m.convention = bidir ? "bytes copied in both directions at once (2 x buffer) / time, CUDA events; " + how
                                     : "bytes copied once / time (nvbandwidth's convention), cudaMemcpyPeerAsync, CUDA events; " + how;
                try {
                    if (bytes == 0) throw BackendError("not enough free memory for a copy buffer");
                    const Timed t = backend_.peer_copy(a, b, bytes, bidir, pair_run(quick));
                    fill_rate(m, t, m.bytes, kGB);
                } catch (const BackendError& e) {
                    m.error = e.what();
                }
                set_datasheet(m, per_direction * (bidir ? 2.0 : 1.0));
                print(pair, m);
                report_.links.push_back(m);
            }
            Measurement lat;
            lat.id = "p2p." + pair + ".latency";
            lat.unit = "us";
            lat.devices = {a, b};
            lat.bytes = 4;
            lat.convention = "time of one 4-byte cudaMemcpyPeerAsync in a queue of 100 behind a spin kernel, CUDA events; " + how;
            try {
                fill_latency(lat, backend_.peer_latency(a, b, latency_run(quick)));
            } catch (const BackendError& e) {
                lat.error = e.what();
            }
            print(pair, lat);
            report_.links.push_back(lat);
        }
}

void BenchDriver::run_collectives(const std::vector<int>& devices) {
    if (!init_.nccl_available) {
        report_.notes.push_back("NCCL all-reduce skipped: " + (init_.nccl.empty() ? std::string("libnccl.so.2 not loaded") : init_.nccl));
        return;
    }
    const bool quick = options_.quick;
    const int n = int(devices.size());
    double free_min = 0;
    for (const auto& d : report_.devices) free_min = free_min == 0 ? d.memory.free_bytes : std::min(free_min, d.memory.free_bytes);
    // nccl-tests reports busbw at its largest sizes; 256 MiB (64 MiB quick) is on the plateau.
    std::size_t bytes = std::size_t(quick ? 64 : 256) << 20;
    while (bytes > (std::size_t(1) << 20) && 2.5 * double(bytes) > 0.5 * free_min) bytes /= 2;
    const MeasuredDevice* d0 = device_entry(devices.front());
    const Gpu* ds = d0 ? datasheet_gpu(*d0) : nullptr;
    const bool nvlink = ds && ds->nvlink != "none" && ds->nvlink_gb_per_s > 0;
    const double per_direction = !ds ? 0.0 : nvlink ? ds->nvlink_gb_per_s / 2.0 : pcie_gb_per_s_per_direction(ds->pcie_gen, ds->pcie_lanes);
    Measurement alg, bus;
    alg.id = "nccl.allreduce.algbw";
    bus.id = "nccl.allreduce.busbw";
    alg.unit = bus.unit = "GB/s";
    alg.devices = bus.devices = devices;
    alg.bytes = bus.bytes = double(bytes);
    alg.convention = "nccl-tests algbw: message bytes / time; float32 sum over " + std::to_string(n) + " GPUs, host timer";
    bus.convention = "nccl-tests busbw: algbw x 2(n-1)/n for all-reduce, n = " + std::to_string(n);
    try {
        const Timed t = backend_.allreduce(devices, bytes, collective_run(quick));
        fill_rate(alg, t, double(bytes), kGB);
        fill_rate(bus, t, bus_bandwidth(Collective::all_reduce, double(bytes), n), kGB);
    } catch (const BackendError& e) {
        alg.error = bus.error = e.what();
    }
    set_datasheet(bus, per_direction);
    const std::string where = "nccl";
    print(where, alg);
    print(where, bus);
    report_.collectives.push_back(alg);
    report_.collectives.push_back(bus);
    if (nvlink && bus.ok())
        report_.targets.push_back({"nccl_allreduce_busbw", bus.id, 0.75, bus.fraction_of_datasheet, bus.fraction_of_datasheet >= 0.75});
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Judging against the datasheet
// ---------------------------------------------------------------------------------------------

void BenchDriver::judge(MeasuredDevice& dev) {
    // The benchmark's targets, from the published fractions of docs/research/cuda-bench-method.md:
    // BabelStream triad 83-89%, pinned host->device 80-88%, best BF16 GEMM 80-87%.
    auto add = [&](const char* name, const Measurement* m, double target) {
        if (!m || !m->ok() || m->datasheet <= 0) return;
        dev.targets.push_back({name, m->id, target, m->fraction_of_datasheet, m->fraction_of_datasheet >= target});
    };
    add("triad", dev.find("memory.triad"), 0.85);
    add("pcie_h2d_pinned", dev.find("host.h2d.pinned"), 0.80);
    const Measurement* best = nullptr;
    for (const auto& m : dev.measurements)
        if (m.ok() && m.precision == "bf16" && m.datasheet > 0 && (!best || m.fraction_of_datasheet > best->fraction_of_datasheet))
            best = &m;
    add("gemm_bf16_best", best, 0.80);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] main
// ---------------------------------------------------------------------------------------------

int bench_main(const std::vector<std::string>& args, const BackendFactory& make_backend, const char* argv0, std::ostream& out,
               std::ostream& err) {
    BenchOptions opts;
    try {
        opts = parse_bench_args(args);
    } catch (const Error& e) {
        err << "gpusizer-cuda-bench: error: " << e.what() << '\n';
        return kExitUsage;
    }
    if (opts.help) {
        out << kBenchUsage;
        return kExitOk;
    }
    std::unique_ptr<Catalog> catalog;
    std::string catalog_problem;
    try {
        catalog = std::make_unique<Catalog>(load_catalog(opts.assets.empty() ? find_assets_dir(argv0) : opts.assets));
    } catch (const std::exception& e) {
        catalog_problem = e.what();
    }

    MeasuredReport report;
    std::unique_ptr<BenchDriver> driver;
    std::unique_ptr<Backend> backend;
    try {
        backend = make_backend();
        driver = std::make_unique<BenchDriver>(*backend, catalog.get(), opts, out);
        driver->run();
        report = driver->report();
    } catch (const std::exception& e) {
        if (driver) report = driver->report();
        report.status = BenchStatus::internal_error;
        report.status_detail = std::string("internal error: ") + e.what();
    }
    if (!catalog_problem.empty())
        report.notes.push_back("catalog not loaded (" + catalog_problem + "): no datasheet figures, fractions or targets");
    report.exit_code = exit_code_for(report.status);

    {
        std::ofstream f(opts.out, std::ios::binary | std::ios::trunc);
        f << measured_report_to_json(report) << '\n';
        f.close();
        if (!f) {
            err << "gpusizer-cuda-bench: error: cannot write the report to '" << opts.out << "' (status "
                << to_string(report.status) << ")\n";
            return kExitReportNotWritten;
        }
    }
    const std::string status(to_string(report.status));
    const std::string tail = "; report " + opts.out + " (status " + status + "), exit " + std::to_string(report.exit_code);
    switch (report.status) {
        case BenchStatus::ok: {
            std::size_t n = report.links.size() + report.collectives.size();
            for (const auto& d : report.devices) n += d.measurements.size();
            out << "gpusizer-cuda-bench: " << n << " measurements on " << report.devices.size() << " device(s)" << tail << '\n';
            break;
        }
        case BenchStatus::partial:
            err << "gpusizer-cuda-bench: some measurements failed (each says why in the report)" << tail << '\n';
            break;
        default:
            err << "gpusizer-cuda-bench: " << failure_words(report.status) << report.status_detail << tail << '\n';
            break;
    }
    return report.exit_code;
}

}  // namespace gpusizer::bench
