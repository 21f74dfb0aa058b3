// gpusizer/compute.hpp: which precisions a GPU computes natively, and at what rate.
//
// A weight format asks for a compute precision (bf16 weights: bf16 matrix math; fp8: fp8;
// GPTQ/AWQ/NF4/GGUF dequantize to 16-bit activations). A precision the architecture's tensor
// cores do not run is still stored as asked, but the math runs at the next precision the GPU
// does run: fp4 -> fp8 -> 16-bit, int8 -> 16-bit, bf16 -> fp32 on the CUDA cores (Volta and
// Turing have no BF16), tf32 -> fp32. Apple GPUs have no tensor cores: everything 16-bit or
// narrower runs on the ALUs at the catalog's fp16 rate.
#pragma once

#include <string_view>

#include "gpusizer/config.hpp"
#include "gpusizer/gpu.hpp"
#include "gpusizer/precision.hpp"

namespace gpusizer {

enum class Precision { fp32, tf32, fp16, bf16, fp8, int8, fp4 };

std::string_view to_string(Precision p);

// Does the architecture (Gpu::architecture: volta, turing, ampere, ada, hopper, blackwell,
// cdna2, cdna3, apple-m*) run this precision on tensor cores (matrix cores for AMD)?
// fp32 is never a tensor-core precision here (it runs on the CUDA cores / vector units).
bool runs_natively(std::string_view architecture, Precision p);

// The precision a weight format's matrix math asks for, before the GPU is considered.
Precision requested_precision(const WeightFormat& weights, std::string_view architecture);

struct ComputeChoice {
    Precision requested = Precision::bf16;
    Precision used = Precision::bf16;
    bool native = true;          // used == requested
    bool tensor_cores = true;    // false: CUDA cores (fp32) or ALUs (Apple)
    double flops = 0;            // dense FLOP/s (OP/s for int8) of one GPU at `used`
};

// Resolves the precision and the peak rate for a weight format on a GPU. llama.cpp computes
// its 16-bit GEMMs with FP16 accumulation, so on GeForce cards it gets the FP16-accumulate rate.
ComputeChoice compute_choice(const Gpu& gpu, const WeightFormat& weights, Runtime runtime);

}  // namespace gpusizer
