// fake_backend.cpp: scripted timings and injected errors (fake_backend.hpp).
#include "fake_backend.hpp"

#include <numeric>
#include <stdexcept>

#include "counting.hpp"

namespace gpusizer::bench {

void FakeBackend::inject(const std::string& key, int device) const {
    const std::string scoped = std::to_string(device) + ":" + key;
    for (const std::string& k : {scoped, key}) {
        if (auto it = script_.bugs.find(k); it != script_.bugs.end()) throw std::logic_error(it->second);
        if (auto it = script_.errors.find(k); it != script_.errors.end()) throw BackendError(it->second);
    }
}

const FakeDevice& FakeBackend::dev(int device) const {
    if (device < 0 || std::size_t(device) >= script_.devices.size())
        throw BackendError("invalid device ordinal (cudaErrorInvalidDevice = 101)");
    return script_.devices[std::size_t(device)];
}

Timed FakeBackend::timed(const std::string& key, int device, double seconds_per_repetition, const Run& run, FakeCall call) {
    inject(key, device);
    Timed t;
    if (auto it = script_.replay.find(key); it != script_.replay.end()) {
        t.seconds = it->second;
        t.warmup = run.warmup;
    } else {
        if (!(seconds_per_repetition > 0)) throw BackendError("the fake has no rate scripted for " + key);
        t.warmup = 1 + plan_warmup(run, seconds_per_repetition);
        const int n = plan_iterations(run, seconds_per_repetition);
        for (int i = 0; i < n; ++i) {
            const double j = script_.jitter.empty() ? 1.0 : script_.jitter[jitter_at_++ % script_.jitter.size()];
            t.seconds.push_back(seconds_per_repetition * j);
        }
    }
    t.wall_s = std::accumulate(t.seconds.begin(), t.seconds.end(), 0.0);
    if (script_.power_w > 0) {
        t.has_telemetry = true;
        t.telemetry.power_w = script_.power_w;
        t.telemetry.sm_clock_mhz = 1980;       // fixture
        t.telemetry.memory_clock_mhz = 2619;   // fixture
        t.telemetry.temperature_c = 60;        // fixture
        t.telemetry.throttle_reasons = script_.throttle_reasons;
        if (script_.energy_counter) t.energy_j = script_.power_w * t.wall_s;
    }
    call.op = key;
    call.device = device;
    call.run = run;
    call.warmup = t.warmup;
    call.iterations = int(t.seconds.size());
    const double per = t.seconds.empty() ? 0.0 : t.wall_s / double(t.seconds.size());
    call.seconds = t.wall_s + per * t.warmup;
    calls_.push_back(call);
    return t;
}

InitResult FakeBackend::init() {
    inject("init", -1);
    return script_.init;
}

DeviceInfo FakeBackend::device_info(int device) {
    inject("device_info", device);
    return dev(device).info;
}

MemoryProbe FakeBackend::probe_memory(int device) {
    inject("probe_memory", device);
    return dev(device).memory;
}

Timed FakeBackend::stream(int device, StreamKernel kernel, std::size_t elements, const Run& run) {
    dev(device);
    const double rate = kernel == StreamKernel::copy ? script_.copy_bytes_per_s : script_.triad_bytes_per_s;
    const double bytes = stream_bytes(kernel, elements);
    FakeCall c;
    c.amount = double(elements);
    return timed(kernel == StreamKernel::copy ? "stream.copy" : "stream.triad", device, rate > 0 ? bytes / rate : 0.0, run, c);
}

Timed FakeBackend::gemm(int device, const GemmSpec& spec, const Run& run) {
    dev(device);
    const auto it = script_.gemm_per_s.find(spec.precision);
    const double rate = it == script_.gemm_per_s.end() ? 0.0 : it->second;
    const double flops = gemm_flops(spec.m, spec.n, spec.k);
    FakeCall c;
    c.amount = flops;
    c.gemm = spec;
    return timed("gemm." + std::string(precision_name(spec.precision)), device, rate > 0 ? flops / rate : 0.0, run, c);
}

Timed FakeBackend::host_copy(int device, Direction direction, bool pinned, std::size_t bytes, const Run& run) {
    dev(device);
    double rate = 0;
    if (direction == Direction::h2d) rate = pinned ? script_.h2d_pinned_bytes_per_s : script_.h2d_pageable_bytes_per_s;
    else rate = pinned ? script_.d2h_pinned_bytes_per_s : script_.d2h_pageable_bytes_per_s;
    const std::string key = std::string("host.") + (direction == Direction::h2d ? "h2d" : "d2h") + (pinned ? ".pinned" : ".pageable");
    FakeCall c;
    c.amount = double(bytes);
    return timed(key, device, rate > 0 ? double(bytes) / rate : 0.0, run, c);
}

bool FakeBackend::peer_access(int src, int dst) {
    dev(src);
    dev(dst);
    inject("peer_access", src);
    return script_.peer_access;
}

Timed FakeBackend::peer_copy(int src, int dst, std::size_t bytes, bool bidirectional, const Run& run) {
    dev(src);
    dev(dst);
    const std::string key = "p2p." + std::to_string(src) + "-" + std::to_string(dst) + (bidirectional ? ".bidirectional" : "");
    const double moved = double(bytes) * (bidirectional ? 2.0 : 1.0);
    const double rate = bidirectional ? script_.p2p_bidir_bytes_per_s : script_.p2p_bytes_per_s;
    FakeCall c;
    c.amount = moved;
    return timed(key, src, rate > 0 ? moved / rate : 0.0, run, c);
}

Timed FakeBackend::peer_latency(int src, int dst, const Run& run) {
    dev(src);
    dev(dst);
    FakeCall c;
    c.amount = 4;
    return timed("latency." + std::to_string(src) + "-" + std::to_string(dst), src, script_.p2p_latency_s, run, c);
}

Timed FakeBackend::allreduce(const std::vector<int>& devices, std::size_t bytes, const Run& run) {
    for (int d : devices) dev(d);
    FakeCall c;
    c.amount = double(bytes);
    const double rate = script_.allreduce_algbw_bytes_per_s;
    return timed("allreduce", devices.empty() ? -1 : devices.front(), rate > 0 ? double(bytes) / rate : 0.0, run, c);
}

FakeScript fake_h100_script(int gpus) {
    FakeScript s;
    s.init.status = InitStatus::ok;
    s.init.device_count = gpus;
    s.init.runtime_version = 13000;   // CUDA 13.0
    s.init.driver_version = 13000;
    s.init.nvidia_driver = "580.00";  // fixture
    s.init.nvml = "loaded";
    s.init.nccl = gpus > 1 ? "loaded 2.27.3" : "";   // fixture
    s.init.nccl_available = gpus > 1;
    for (int i = 0; i < gpus; ++i) {
        FakeDevice d;
        d.info.index = i;
        d.info.name = "NVIDIA H100 80GB HBM3";   // what CUDA calls the H100 SXM5
        d.info.uuid = "GPU-00000000-0000-0000-0000-00000000000" + std::to_string(i);
        d.info.pci_bus_id = "0000:1" + std::to_string(i) + ":00.0";
        d.info.cc_major = 9;
        d.info.cc_minor = 0;
        d.info.sm_count = 132;                     // H100 SXM5
        d.info.l2_bytes = 50.0 * 1024 * 1024;      // H100 SXM5: 50 MB L2
        d.info.total_bytes = 85030649856.0;        // fixture: 79.19 GiB, below nvidia-smi's 81,559 MiB
        d.info.pcie_gen = 5;
        d.info.pcie_width = 16;
        d.info.sm_clock_max_mhz = 1980;            // fixture
        d.info.memory_clock_max_mhz = 2619;        // fixture
        d.info.power_limit_w = 700;                // H100 SXM TDP
        d.memory.total_bytes = d.info.total_bytes;
        d.memory.free_bytes = d.info.total_bytes - 600.0 * 1024 * 1024;   // fixture
        d.memory.context_bytes = 287047680.0;      // PyTorch's measured lazy-loading context (PR #86509), as a fixture
        d.memory.context_with_cublaslt_bytes = 287047680.0 + 64.0 * 1024 * 1024;   // fixture
        d.memory.context_method = "nvml_used_delta";
        d.memory.largest_block_bytes = d.memory.free_bytes - 2.0 * 1024 * 1024;    // fixture
        s.devices.push_back(d);
    }
    // Published measurements (docs/research/cuda-bench-method.md) where there is one; the rest
    // are fixture values below the datasheet.
    s.triad_bytes_per_s = 2.97e12;                  // BabelStream triad, H100 SXM
    s.copy_bytes_per_s = 2.90e12;                   // fixture
    s.gemm_per_s[Precision::bf16] = 794.5e12;       // best BF16 GEMM, H100 SXM
    s.gemm_per_s[Precision::fp8] = 1402.6e12;       // best FP8 GEMM, H100 SXM
    s.gemm_per_s[Precision::fp16] = 790e12;         // fixture
    s.gemm_per_s[Precision::tf32] = 380e12;         // fixture
    s.gemm_per_s[Precision::fp32] = 51e12;          // fixture
    s.gemm_per_s[Precision::int8] = 1400e12;        // fixture
    s.h2d_pinned_bytes_per_s = 55.6e9;              // nvbandwidth host->device pinned, H100 PCIe 5 x16
    s.d2h_pinned_bytes_per_s = 55.0e9;              // fixture
    s.h2d_pageable_bytes_per_s = 20e9;              // fixture
    s.d2h_pageable_bytes_per_s = 18e9;              // fixture
    s.p2p_bytes_per_s = 375e9;                      // p2p unidirectional write, HGX H100 (371-377)
    s.p2p_bidir_bytes_per_s = 740e9;                // fixture
    s.p2p_latency_s = 2.5e-6;                       // fixture
    // NCCL ring busbw ~370 GB/s on 8 x H100: algbw = busbw / (2(n-1)/n).
    s.allreduce_algbw_bytes_per_s = gpus > 1 ? 370e9 / busbw_factor(Collective::all_reduce, gpus) : 0.0;
    s.jitter = {1.0, 1.01, 0.99, 1.02, 1.0};        // fixture: a 1-2% spread
    s.power_w = 650;                                 // fixture
    return s;
}

}  // namespace gpusizer::bench
