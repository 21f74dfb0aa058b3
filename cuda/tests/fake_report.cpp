// fake_report.cpp: writes the report the benchmark driver produces against the fake backend's
// scripted H100s (fake_backend.hpp), for the tests of the programs that read reports (the
// desktop app's Measured view). The report says, in its version and its notes, that it is
// simulated: it is a fixture, never a measurement.
//   gpusizer_fake_report OUT.json [GPUS]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "bench.hpp"
#include "fake_backend.hpp"
#include "gpusizer/catalog.hpp"
#include "gpusizer/measured.hpp"

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: gpusizer_fake_report OUT.json [GPUS]\n");
        return 2;
    }
    const int gpus = argc == 3 ? std::atoi(argv[2]) : 1;
    if (gpus < 1 || gpus > 8) {
        std::fprintf(stderr, "gpusizer_fake_report: GPUS must be 1 to 8\n");
        return 2;
    }
    try {
        const gpusizer::Catalog catalog = gpusizer::load_catalog(GPUSIZER_TEST_ASSETS);
        gpusizer::bench::FakeBackend backend(gpusizer::bench::fake_h100_script(gpus));
        gpusizer::bench::BenchOptions options;
        options.quick = true;
        options.out = argv[1];
        std::ostringstream progress;
        gpusizer::bench::BenchDriver driver(backend, &catalog, options, progress);
        driver.run();
        gpusizer::MeasuredReport& report = driver.report();
        report.tool_version = "simulated (fake backend)";
        report.created_utc = "2026-01-01T00:00:00Z";   // fixed, so that the file is reproducible
        report.notes.insert(report.notes.begin(),
                            "SIMULATED: written by the tests' fake backend from scripted timings; not a measurement of any GPU");
        std::ofstream out(argv[1]);
        out << gpusizer::measured_report_to_json(report);
        if (!out) {
            std::fprintf(stderr, "gpusizer_fake_report: cannot write %s\n", argv[1]);
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpusizer_fake_report: %s\n", e.what());
        return 1;
    }
    return 0;
}
