// gpusizer/compute.hpp: which precisions a GPU computes natively, and at what rate.
//
// A weight format asks for a compute precision (bf16 weights: bf16 matrix math; fp8: fp8;
// MXFP4/NVFP4: fp4; GPTQ/AWQ/NF4/GGUF dequantize to 16-bit activations). A GPU runs a precision
// natively when it has matrix units (Gpu::tensor_cores) and the catalog gives a dense rate for it
// (Gpu::tensor_tflops_dense): the data decides, not the architecture's name. A precision the GPU
// does not run is still stored as asked, but the math runs at the next precision the GPU does
// run: fp4 -> 16-bit (pre-Blackwell kernels dequantize FP4 weights), fp8 / int8 -> 16-bit,
// bf16 -> fp16 or fp32 on the CUDA cores (Volta and Turing have no BF16), tf32 -> fp32. GPUs
// without matrix units (Apple M1-M4) run everything 16-bit or narrower on the ALUs at the
// catalog's fp16 rate, or at the fp32 rate where that is faster (GeForce Pascal: FP16 at 1/64).
#pragma once

#include <string_view>

#include "gpusizer/config.hpp"
#include "gpusizer/gpu.hpp"
#include "gpusizer/precision.hpp"

namespace gpusizer {

// The one precision enum of the project (cuda/ uses it too). Order is part of no contract.
enum class Precision { fp32, tf32, fp16, bf16, fp8, int8, fp4 };

std::string_view to_string(Precision p);

// Dense tensor rate of the GPU for `p`, TFLOP/s (TOPS for int8); 0 for fp32 (not a tensor precision).
double tensor_rate_tflops(const Gpu& gpu, Precision p);

// Does the GPU run this precision on matrix units? True when it has them and its catalog entry
// gives a dense rate above zero. fp32 is never a tensor-core precision here.
bool runs_natively(const Gpu& gpu, Precision p);

// The vendors' whitepaper table of matrix-unit precisions per architecture, a cross-check of the
// catalog's rates (tests/test_speed.cpp): pascal none (no tensor cores); volta fp16; turing + int8; ampere + bf16, tf32; ada,
// hopper + fp8; blackwell + fp4; cdna2 fp16, bf16, int8; cdna3 + tf32, fp8; cdna4 + fp4;
// rdna3 / rdna3.5 (WMMA) fp16, bf16, int8; rdna4 + fp8; xe2 (XMX) fp16, bf16, int8; apple none.
bool runs_natively(Architecture architecture, Precision p);
bool runs_natively(std::string_view architecture, Precision p);   // by gpus.json name

// The precision a weight format's matrix math asks for, before the GPU's fallbacks.
Precision requested_precision(const WeightFormat& weights, const Gpu& gpu);

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
