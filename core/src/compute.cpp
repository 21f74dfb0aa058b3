// compute.cpp: tensor-core precisions per architecture and the peak rate a format gets.
//
// Native tensor-core precisions (NVIDIA architecture whitepapers, AMD CDNA whitepapers; the
// catalog's tensor_tflops_dense agrees, tests/test_speed.cpp checks it):
//   volta      fp16                     (V100 whitepaper: first tensor cores, FP16 in, FP32 accumulate)
//   turing     fp16, int8               (Turing whitepaper: INT8/INT4 tensor ops added)
//   ampere     + tf32, bf16             (A100 whitepaper: TF32 and BF16 added)
//   ada        + fp8                    (Ada whitepaper: FP8 Transformer Engine)
//   hopper     + fp8                    (H100 whitepaper)
//   blackwell  + fp4                    (Blackwell: FP4 tensor cores; B200 9,000 dense FP4 TFLOPS)
//   cdna2      fp16, bf16, int8         (MI200 matrix cores; no TF32, no FP8)
//   cdna3      + tf32, fp8              (MI300 matrix cores: TF32 653.7, FP8 2,614.9 dense)
//   apple-m*   none                     (no tensor cores; the GPU ALUs run fp16)
#include "gpusizer/compute.hpp"

#include <string>

namespace gpusizer {

std::string_view to_string(Precision p) {
    switch (p) {
        case Precision::fp32: return "fp32";
        case Precision::tf32: return "tf32";
        case Precision::fp16: return "fp16";
        case Precision::bf16: return "bf16";
        case Precision::fp8: return "fp8";
        case Precision::int8: return "int8";
        case Precision::fp4: return "fp4";
    }
    return "?";
}

namespace {

// Bit set of native precisions per architecture.
unsigned bit(Precision p) { return 1u << unsigned(p); }

unsigned native_set(std::string_view arch) {
    const unsigned f16 = bit(Precision::fp16), i8 = bit(Precision::int8), tf = bit(Precision::tf32),
                   b16 = bit(Precision::bf16), f8 = bit(Precision::fp8), f4 = bit(Precision::fp4);
    if (arch.empty()) return 0;
    switch (arch[0]) {   // one character decides between the known names; the compare confirms
        case 'v': return arch == "volta" ? f16 : 0;
        case 't': return arch == "turing" ? f16 | i8 : 0;
        case 'a': return arch == "ampere" ? f16 | i8 | tf | b16 : arch == "ada" ? f16 | i8 | tf | b16 | f8 : 0;
        case 'h': return arch == "hopper" ? f16 | i8 | tf | b16 | f8 : 0;
        case 'b': return arch == "blackwell" ? f16 | i8 | tf | b16 | f8 | f4 : 0;
        case 'c': return arch == "cdna2" ? f16 | i8 | b16 : arch == "cdna3" ? f16 | i8 | tf | b16 | f8 : 0;
        default: return 0;   // apple-m*, unknown: no tensor cores
    }
}

double tensor_rate(const Gpu& g, Precision p) {
    const TensorTflops& t = g.tensor_tflops_dense;
    switch (p) {
        case Precision::tf32: return t.tf32;
        case Precision::fp16: return t.fp16;
        case Precision::bf16: return t.bf16;
        case Precision::fp8: return t.fp8;
        case Precision::int8: return t.int8;
        case Precision::fp4: return t.fp4;
        case Precision::fp32: return 0;
    }
    return 0;
}

}  // namespace

bool runs_natively(std::string_view architecture, Precision p) {
    if (p == Precision::fp32) return false;
    return (native_set(architecture) & bit(p)) != 0;
}

Precision requested_precision(const WeightFormat& w, std::string_view arch) {
    switch (w.wid) {
        // PyTorch keeps TF32 off for matmuls by default (torch.backends.cuda.matmul.allow_tf32 = False since 1.12).
        case WeightId::fp32: return Precision::fp32;
        case WeightId::bf16: return Precision::bf16;
        case WeightId::fp16: return Precision::fp16;
        case WeightId::fp8: return Precision::fp8;      // W8A8 FP8 checkpoints (vLLM, TensorRT-LLM)
        case WeightId::int8: return Precision::int8;    // W8A8 INT8 (SmoothQuant-style kernels)
        default: break;
    }
    // Weight-only formats (GPTQ/AWQ int4, NF4, GGUF) dequantize to 16-bit activations: bf16 where
    // the GPU has it, fp16 otherwise (what inference on a T4 or V100 uses). llama.cpp works in F16.
    if (w.family == WeightFamily::gguf) return Precision::fp16;
    return runs_natively(arch, Precision::bf16) ? Precision::bf16 : Precision::fp16;
}

ComputeChoice compute_choice(const Gpu& g, const WeightFormat& w, Runtime runtime) {
    ComputeChoice c;
    const std::string_view arch = g.architecture;
    c.requested = requested_precision(w, arch);
    if (native_set(arch) == 0) {
        // No tensor cores (Apple): 16-bit and narrower run on the ALUs at the fp16 rate, fp32 at fp32.
        c.tensor_cores = false;
        c.used = c.requested == Precision::fp32 ? Precision::fp32 : Precision::fp16;
        c.flops = (c.used == Precision::fp32 ? g.fp32_tflops : g.tensor_tflops_dense.fp16) * 1e12;
        c.native = c.used == c.requested || c.requested == Precision::bf16;   // Apple GPUs run bf16 as fp16-class ALU math
        return c;
    }
    // Walk down to the next precision the tensor cores run (and the catalog has a rate for).
    Precision p = c.requested;
    for (int guard = 0; guard < 6; ++guard) {
        if (p == Precision::fp32) break;
        if (runs_natively(arch, p) && tensor_rate(g, p) > 0) break;
        switch (p) {
            case Precision::fp4: p = Precision::fp8; break;
            case Precision::fp8:
            case Precision::int8:
                p = runs_natively(arch, Precision::bf16) && tensor_rate(g, Precision::bf16) > 0 ? Precision::bf16 : Precision::fp16;
                break;
            case Precision::bf16:
            case Precision::tf32:
            case Precision::fp16: p = Precision::fp32; break;
            case Precision::fp32: break;
        }
    }
    c.used = p;
    c.native = p == c.requested;
    c.tensor_cores = p != Precision::fp32;
    c.flops = (p == Precision::fp32 ? g.fp32_tflops : tensor_rate(g, p)) * 1e12;
    // llama.cpp's 16-bit GEMMs accumulate in FP16: on GeForce (which halves the FP32-accumulate
    // rate) it gets the FP16-accumulate rate. Evidence: Llama 3 8B F16 pp512 on an RTX 3090 runs
    // at 4,444.65 t/s = 71.4 TFLOP/s (2 x 8.03e9 FLOP/token), above the 71 TFLOP/s FP32-accumulate
    // peak (XiongjieDai/GPU-Benchmarks-on-LLM-Inference README).
    if (runtime == Runtime::llama_cpp && p == Precision::fp16 && g.fp16_accumulate_tflops > 0)
        c.flops = g.fp16_accumulate_tflops * 1e12;
    return c;
}

}  // namespace gpusizer
