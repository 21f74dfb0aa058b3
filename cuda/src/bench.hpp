// bench.hpp: the benchmark driver and the gpusizer-cuda-bench command line.
//
// The driver runs the suite against a Backend (the real CUDA one, or the fake of the tests),
// turns raw seconds into rates with the conventions of counting.hpp, summarizes them, compares
// them with the catalog's datasheet figures and builds the report (gpusizer/measured.hpp).
// Plain C++: it builds and is tested without a CUDA toolkit.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/measured.hpp"

namespace gpusizer::bench {

// Exit codes of gpusizer-cuda-bench (README.md, "The CUDA benchmark module"). Every code but 0
// and 2 comes with a report whose `status` says the same thing.
constexpr int kExitOk = 0;                 // status ok: every measurement ran
constexpr int kExitInternal = 1;           // status internal_error: a bug in the benchmark
constexpr int kExitUsage = 2;              // bad command line; no report
constexpr int kExitNoDriver = 3;           // status no_driver
constexpr int kExitNoDevice = 4;           // status no_device (none at all, or --device N absent)
constexpr int kExitNotReady = 5;           // status system_not_ready (e.g. fabric manager not running)
constexpr int kExitCudaError = 6;          // status cuda_error: another CUDA error before any measurement
constexpr int kExitPartial = 7;            // status partial: some measurements failed, each says why
constexpr int kExitReportNotWritten = 8;   // the report file could not be written

int exit_code_for(BenchStatus status);

struct BenchOptions {
    bool quick = false;
    int device = -1;          // -1 = every device
    std::string out;          // report path (required)
    std::string assets;       // catalog folder; "" = found as the gpusizer CLI finds it
    bool help = false;
};

// Parses the command line (without the program name). Throws Error naming the flag.
BenchOptions parse_bench_args(const std::vector<std::string>& args);
extern const char* const kBenchUsage;

class BenchDriver {
public:
    // `catalog` may be null: the report then has no datasheet figures.
    BenchDriver(Backend& backend, const Catalog* catalog, BenchOptions options, std::ostream& progress);

    // Runs the suite. A GPU problem never throws: it becomes the report's status or a
    // measurement's error. Any other exception is a bug and propagates; report() then holds what
    // was measured until then.
    void run();

    MeasuredReport& report() { return report_; }
    const MeasuredReport& report() const { return report_; }

private:
    void run_device(MeasuredDevice& dev, const DeviceInfo& info, double free_bytes);
    void run_pairs(const std::vector<int>& devices);
    void run_collectives(const std::vector<int>& devices);
    void judge(MeasuredDevice& dev);
    const Gpu* datasheet_gpu(const MeasuredDevice& dev) const;
    const MeasuredDevice* device_entry(int index) const;
    void print(const std::string& where, const Measurement& m);

    Backend& backend_;
    const Catalog* catalog_;
    BenchOptions options_;
    std::ostream& progress_;
    MeasuredReport report_;
    InitResult init_;
};

using BackendFactory = std::function<std::unique_ptr<Backend>()>;

// The whole tool: parse the flags, load the catalog, run, write the report, and say in one line
// how it ended. Returns the exit code (never 0 after an error).
int bench_main(const std::vector<std::string>& args, const BackendFactory& make_backend, const char* argv0,
               std::ostream& out, std::ostream& err);

}  // namespace gpusizer::bench
