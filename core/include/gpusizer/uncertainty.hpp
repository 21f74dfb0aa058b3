// gpusizer/uncertainty.hpp: how far a speed figure may be off. Each band is where the measured
// value fell relative to gpusizer's over the rows of the accuracy set (tests/validation/
// accuracy.json, docs/accuracy.md) of that kind of figure and runtime: a figure X reads as
// "~X (lo X - hi X)". tests/test_uncertainty.cpp runs those rows and checks each band covers them.
#pragma once

#include <string_view>

#include "gpusizer/config.hpp"

namespace gpusizer {

enum class SpeedFigure {
    decode,               // speed.decode_tokens_per_s, decode_throughput_tokens_per_s (llama-bench tgN rows)
    prefill,              // speed.prefill_tokens_per_s (llama-bench ppN rows); ttft_s inversely
    serving_throughput,   // serving.output_tokens_per_s and its per-GPU and per-user forms (published engine tables)
    train_throughput,     // speed.train_tokens_per_s (MFU rows: tokens/s is proportional to MFU); train_step_s inversely
};

struct SpeedBand {
    double lo = 1;        // lowest measured / predicted among the rows
    double hi = 1;        // highest
    int rows = 0;         // rows it comes from; 0: none of this kind (no band)
    bool same_runtime = false;   // the rows ran this runtime (false: rows of the same figure on other runtimes)
    std::string_view rows_from;  // which rows, in words (static storage)
};

// Which models a band's rows ran: where a runtime's rows split by kind (TensorRT-LLM's serving
// rows: mixture-of-experts models fall much wider than dense ones), each kind has its band.
enum class ModelClass { any, dense, moe };

// Which GPU backend a band's rows ran on, where a runtime's rows split by it (llama.cpp's decode
// and prefill rows: its ROCm, SYCL and Metal builds fall far from an estimate that CUDA rows fit,
// and a CUDA user's band should not carry them). Each vendor's GPUs run one llama.cpp backend here:
// CUDA on NVIDIA, ROCm (HIP) on AMD, SYCL on Intel (Arc; Vulkan is its other build), Metal on Apple.
enum class Backend { any, cuda, rocm, sycl, metal };

struct Report;
// A report's model class: mixture of experts where a token passes through fewer parameters than
// the model has (the routed experts it is not sent to), else dense.
ModelClass model_class(const Report& r);
// A report's GPU backend, by the GPU's vendor (any for a vendor not listed above).
Backend gpu_backend(const Report& r);

// The band of `figure` for `runtime` (a resolved runtime; automatic picks the figure's rows of
// every runtime), the model's class and the GPU's backend: the class's or backend's own band where
// the runtime's rows split, else the runtime's band. A backend with fewer rows than
// kMinRowsPerBackend gets the runtime's rows of every backend, which its few rows are part of.
SpeedBand speed_band(SpeedFigure figure, Runtime runtime, ModelClass cls = ModelClass::any, Backend backend = Backend::any);
// The band of `figure` as a report's figures take it: its runtime, model class and GPU backend.
SpeedBand speed_band(SpeedFigure figure, const Report& r);

// The fewest rows of one backend that make its own band. For n measurements from one
// distribution, the chance that the next falls outside their range is 2 / (n + 1) (order
// statistics): 67% for 2 rows, 33% for 5, 20% for 9. From 5 rows a split band covers the next
// measurement at least two times in three; fewer cannot narrow the runtime's band honestly.
inline constexpr int kMinRowsPerBackend = 5;

}  // namespace gpusizer
