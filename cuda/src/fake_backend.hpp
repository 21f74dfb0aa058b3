// fake_backend.hpp: a Backend that replays scripted timings and injects errors, so that the
// benchmark driver, the report and the exit codes are tested on every CI run without a GPU.
//
// Timings follow scripted rates (seconds = bytes or FLOPs / rate), multiplied by a jitter pattern
// replayed in order, or are replayed verbatim per operation. Errors are injected per operation
// key: "stream.triad", "gemm.fp8", "host.h2d.pinned", "p2p.0-1", "p2p.0-1.bidirectional",
// "latency.0-1", "allreduce", "device_info", "probe_memory"; a key prefixed with "N:" applies to
// device N only ("1:gemm.bf16").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "backend.hpp"

namespace gpusizer::bench {

struct FakeDevice {
    DeviceInfo info;
    MemoryProbe memory;
};

struct FakeScript {
    InitResult init;                       // what init() answers (device_count included)
    std::vector<FakeDevice> devices;

    // Rates the timings follow: bytes/s, FLOP/s (operations/s for int8). 0 = "not scripted": the
    // operation fails with a BackendError saying so.
    double copy_bytes_per_s = 0;
    double triad_bytes_per_s = 0;
    std::map<Precision, double> gemm_per_s;
    double h2d_pinned_bytes_per_s = 0, d2h_pinned_bytes_per_s = 0;
    double h2d_pageable_bytes_per_s = 0, d2h_pageable_bytes_per_s = 0;
    double p2p_bytes_per_s = 0;            // one direction
    double p2p_bidir_bytes_per_s = 0;      // both directions together
    double p2p_latency_s = 0;
    bool peer_access = true;
    double allreduce_algbw_bytes_per_s = 0;

    std::vector<double> jitter{1.0};       // multiplies each repetition's seconds, in turn, across calls
    std::map<std::string, std::vector<double>> replay;   // key -> seconds per repetition, verbatim
    std::map<std::string, std::string> errors;           // key -> BackendError message
    std::map<std::string, std::string> bugs;             // key -> std::logic_error message (a bug)

    double power_w = -1;                   // > 0: telemetry and energy during timed repetitions
    bool energy_counter = true;            // false: only power samples (older GPUs)
    std::vector<std::string> throttle_reasons;
};

// What a call asked for, for the tests to check.
struct FakeCall {
    std::string op;          // "stream.triad", "gemm.bf16", "host.h2d.pinned", ...
    int device = -1;
    double amount = 0;       // elements, bytes, or FLOPs of one repetition
    GemmSpec gemm;           // gemm only
    Run run;
    int warmup = 0;          // what the fake "ran"
    int iterations = 0;
    double seconds = 0;      // device time of the whole call: (warmup + iterations) x one repetition
};

class FakeBackend : public Backend {
public:
    explicit FakeBackend(FakeScript script) : script_(std::move(script)) {}

    InitResult init() override;
    DeviceInfo device_info(int device) override;
    MemoryProbe probe_memory(int device) override;
    Timed stream(int device, StreamKernel kernel, std::size_t elements, const Run& run) override;
    Timed gemm(int device, const GemmSpec& spec, const Run& run) override;
    Timed host_copy(int device, Direction direction, bool pinned, std::size_t bytes, const Run& run) override;
    bool peer_access(int src, int dst) override;
    Timed peer_copy(int src, int dst, std::size_t bytes, bool bidirectional, const Run& run) override;
    Timed peer_latency(int src, int dst, const Run& run) override;
    Timed allreduce(const std::vector<int>& devices, std::size_t bytes, const Run& run) override;

    const std::vector<FakeCall>& calls() const { return calls_; }
    FakeScript& script() { return script_; }

private:
    void inject(const std::string& key, int device) const;
    Timed timed(const std::string& key, int device, double seconds_per_repetition, const Run& run, FakeCall call);
    const FakeDevice& dev(int device) const;

    FakeScript script_;
    std::vector<FakeCall> calls_;
    std::size_t jitter_at_ = 0;
};

// A test fixture shaped like `gpus` H100 SXM boards: the device name and sizes CUDA reports for
// one, and rates equal to the published measurements of docs/research/cuda-bench-method.md
// (BabelStream triad 2.97 TB/s, BF16 GEMM 794.5 TFLOPS, FP8 1402.6, pinned host->device 55.6 GB/s,
// p2p 375 GB/s, NCCL busbw 370 GB/s). These are the fake's inputs, not measurements of this project.
FakeScript fake_h100_script(int gpus);

}  // namespace gpusizer::bench
