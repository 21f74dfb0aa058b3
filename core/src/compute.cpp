// compute.cpp: hardware facts as data: architectures, link kinds, native precisions (from the
// catalog's tensor-rate table) and the peak rate a weight format gets.
//
// The whitepaper table (runs_natively(Architecture, ...)) is the cross-check of the catalog:
//   pascal     none                     (Pascal whitepaper: no tensor cores; GP100 runs FP16 on its ALUs at
//                                        2x FP32, GP102/104/106 at 1/64 (Tesla P40: 183.7 GFLOPS); NVLink 1 on P100 SXM2)
//   volta      fp16                     (V100 whitepaper: first tensor cores, FP16 in, FP32 accumulate)
//   turing     fp16, int8               (Turing whitepaper: INT8/INT4 tensor ops added)
//   ampere     + tf32, bf16             (A100 whitepaper: TF32 and BF16 added)
//   ada        + fp8                    (Ada whitepaper: FP8 Transformer Engine)
//   hopper     + fp8                    (H100 whitepaper)
//   blackwell  + fp4                    (Blackwell: FP4 tensor cores; B200 9,000 dense FP4 TFLOPS)
//   gcn5       none                     (Vega 20, MI50/MI60: no matrix cores; packed FP16 at 2x FP32,
//                                        INT8 dot products on the ALUs)
//   cdna1      fp16, bf16, int8         (MI100: first matrix cores; BF16 at half the FP16 rate)
//   cdna2      fp16, bf16, int8         (MI200 matrix cores; no TF32, no FP8)
//   cdna3      + tf32, fp8              (MI300 matrix cores: TF32 653.7, FP8 2,614.9 dense)
//   cdna4      fp16, bf16, int8, fp8, fp4 (MI350 series: MXFP4/MXFP6 matrix rates; TF32 not published)
//   rdna2      none                     (RDNA 2: no WMMA; packed FP16 at 2x FP32 on the ALUs)
//   rdna3(.5)  fp16, bf16, int8         (RDNA 3 WMMA instructions)
//   rdna4      + fp8                    (RDNA 4 WMMA FP8/BF8)
//   xe-hpg     fp16, bf16, int8         (Alchemist XMX engines)
//   xe2        fp16, bf16, int8         (Xe2 XMX engines)
//   gaudi      fp16, bf16, fp8          (Gaudi 2/3 MME: BF16 and FP8 at the published matrix rates)
//   apple      none                     (no matrix units exposed to Metal on M1-M4; the ALUs run fp16)
#include "gpusizer/compute.hpp"

#include <optional>
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

unsigned bit(Precision p) { return 1u << unsigned(p); }

struct ArchInfo {
    Architecture arch;
    std::string_view name;
    unsigned native;   // whitepaper matrix-unit precisions
    int nvlink;        // NVLink generation of the architecture's data-center parts (0: none)
};

constexpr unsigned F16 = 1u << unsigned(Precision::fp16), I8 = 1u << unsigned(Precision::int8),
                   TF = 1u << unsigned(Precision::tf32), B16 = 1u << unsigned(Precision::bf16),
                   F8 = 1u << unsigned(Precision::fp8), F4 = 1u << unsigned(Precision::fp4);

const ArchInfo kArchs[] = {
    {Architecture::pascal, "pascal", 0, 1},   // no tensor cores; P100 SXM2: NVLink 1 (4 links, 160 GB/s)
    {Architecture::volta, "volta", F16, 2},
    {Architecture::turing, "turing", F16 | I8, 0},   // TU10x: 2-way NVLink bridge on a few cards only
    {Architecture::ampere, "ampere", F16 | I8 | TF | B16, 3},
    {Architecture::ada, "ada", F16 | I8 | TF | B16 | F8, 4},   // no Ada part has NVLink; its era's generation is 4
    {Architecture::hopper, "hopper", F16 | I8 | TF | B16 | F8, 4},
    {Architecture::blackwell, "blackwell", F16 | I8 | TF | B16 | F8 | F4, 5},
    {Architecture::gcn5, "gcn5", 0, 0},
    {Architecture::cdna1, "cdna1", F16 | I8 | B16, 0},
    {Architecture::cdna2, "cdna2", F16 | I8 | B16, 0},
    {Architecture::cdna3, "cdna3", F16 | I8 | TF | B16 | F8, 0},
    {Architecture::cdna4, "cdna4", F16 | I8 | B16 | F8 | F4, 0},
    {Architecture::rdna2, "rdna2", 0, 0},
    {Architecture::rdna3, "rdna3", F16 | I8 | B16, 0},
    {Architecture::rdna3_5, "rdna3.5", F16 | I8 | B16, 0},
    {Architecture::rdna4, "rdna4", F16 | I8 | B16 | F8, 0},
    {Architecture::xe_hpg, "xe-hpg", F16 | I8 | B16, 0},
    {Architecture::xe2, "xe2", F16 | I8 | B16, 0},
    {Architecture::gaudi, "gaudi", F16 | B16 | F8, 0},
    {Architecture::apple, "apple", 0, 0},
};

const ArchInfo* arch_info(Architecture a) {
    for (const ArchInfo& i : kArchs)
        if (i.arch == a) return &i;
    return nullptr;
}

}  // namespace

std::string_view to_string(Architecture a) {
    const ArchInfo* i = arch_info(a);
    return i ? i->name : "unknown";
}

std::string architecture_names() {
    std::string out;
    for (const ArchInfo& i : kArchs)
        if (i.arch != Architecture::apple && i.arch != Architecture::unknown) out += std::string(i.name) + ", ";
    return out + "or apple-mN (Apple by generation)";
}

std::optional<Architecture> architecture_from_name(std::string_view name) {
    // Apple GPUs are named by generation: "apple-m1" .. "apple-m9".
    if (name.size() == 8 && name.substr(0, 7) == "apple-m" && name[7] >= '1' && name[7] <= '9') return Architecture::apple;
    for (const ArchInfo& i : kArchs)
        if (i.arch != Architecture::apple && i.name == name) return i.arch;
    return std::nullopt;
}

std::string_view to_string(NvlinkKind k) {
    switch (k) {
        case NvlinkKind::none: return "none";
        case NvlinkKind::bridge: return "bridge";
        case NvlinkKind::nvswitch: return "nvswitch";
        case NvlinkKind::mesh: return "mesh";
        case NvlinkKind::infinity_fabric: return "infinity-fabric";
        case NvlinkKind::roce:
            return "roce";
    }
    return "none";
}

std::optional<NvlinkKind> nvlink_kind_from_name(std::string_view name) {
    for (NvlinkKind k :
         {NvlinkKind::none, NvlinkKind::bridge, NvlinkKind::nvswitch, NvlinkKind::mesh, NvlinkKind::infinity_fabric, NvlinkKind::roce})
        if (to_string(k) == name) return k;
    return std::nullopt;
}

int nvlink_generation(Architecture a) {
    const ArchInfo* i = arch_info(a);
    return i ? i->nvlink : 0;
}

bool vllm_large_scheduler_defaults(const Gpu& g) {
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    return g.capacity_bytes() >= 70.0 * kGiB && g.arch != Architecture::ampere;   // vLLM: >= 70 GiB and not "a100"
}

double tensor_rate_tflops(const Gpu& g, Precision p) {
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

bool runs_natively(const Gpu& g, Precision p) {
    return p != Precision::fp32 && g.tensor_cores && tensor_rate_tflops(g, p) > 0;
}

bool runs_natively(Architecture a, Precision p) {
    const ArchInfo* i = arch_info(a);
    return p != Precision::fp32 && i && (i->native & bit(p)) != 0;
}

bool runs_natively(std::string_view architecture, Precision p) {
    const auto a = architecture_from_name(architecture);
    return a && runs_natively(*a, p);
}

Precision requested_precision(const WeightFormat& w, const Gpu& g) {
    switch (w.wid) {
        // PyTorch keeps TF32 off for matmuls by default (torch.backends.cuda.matmul.allow_tf32 = False since 1.12).
        case WeightId::fp32: return Precision::fp32;
        case WeightId::bf16: return Precision::bf16;
        case WeightId::fp16: return Precision::fp16;
        case WeightId::fp8: return Precision::fp8;      // W8A8 FP8 checkpoints (vLLM, TensorRT-LLM)
        case WeightId::int8: return Precision::int8;    // W8A8 INT8 (SmoothQuant-style kernels)
        // MXFP4 / NVFP4 checkpoints run FP4 tensor-core GEMMs where the GPU has them (vLLM's
        // CUTLASS / FlashInfer FP4 paths on Blackwell); elsewhere the fallback dequantizes.
        case WeightId::mxfp4: case WeightId::nvfp4: return Precision::fp4;
        default: break;
    }
    // Weight-only formats (GPTQ/AWQ int4, NF4, bitsandbytes FP4, GGUF) dequantize to 16-bit
    // activations: bf16 where the GPU has it, fp16 otherwise (what inference on a T4 or V100
    // uses). llama.cpp works in F16.
    if (w.family == WeightFamily::gguf) return Precision::fp16;
    return runs_natively(g, Precision::bf16) ? Precision::bf16 : Precision::fp16;
}

ComputeChoice compute_choice(const Gpu& g, const WeightFormat& w, Runtime runtime) {
    ComputeChoice c;
    c.requested = requested_precision(w, g);
    if (!g.tensor_cores) {
        // No matrix units (Apple M1-M4, Pascal, Vega 20, RDNA 2): 16-bit and narrower run on the
        // ALUs at the fp16 rate, fp32 at fp32. Apple GPUs run bf16 as fp16-class ALU math (their
        // table gives bf16 the fp16 rate); where the ALUs have no bf16 (Pascal, Vega 20, RDNA 2),
        // bf16 is converted and runs at fp32, as the tensor-core walk below does on a V100.
        c.tensor_cores = false;
        const TensorTflops& t = g.tensor_tflops_dense;
        c.used = c.requested == Precision::fp32 || (c.requested == Precision::bf16 && t.bf16 <= 0) ? Precision::fp32 : Precision::fp16;
        // Where the fp16 ALU rate is below fp32 (GeForce/TITAN/Tesla Pascal GP102/104/106, compute
        // capability 6.1: 1/64 of fp32; Tesla P40 183.7 GFLOPS against 11.76 TFLOPS), the engines
        // compute in fp32: cuBLAS's 16-bit GEMMs with FP32 compute run at the FP32 rate, and
        // llama.cpp's CUDA backend takes its F32 paths where the device lacks fast FP16
        // (ggml-cuda/common.cuh fast_fp16_available(): false for compute capability 6.1 alone).
        if (c.used == Precision::fp16 && t.fp16 < g.fp32_tflops) c.used = Precision::fp32;
        c.flops = (c.used == Precision::fp32 ? g.fp32_tflops : t.fp16) * 1e12;
        c.native = c.used == c.requested || (c.requested == Precision::bf16 && c.used == Precision::fp16);
        return c;
    }
    // Walk down to the next precision the GPU's table has a rate for.
    Precision p = c.requested;
    for (int guard = 0; guard < 6; ++guard) {
        if (p == Precision::fp32) break;
        if (runs_natively(g, p)) break;
        switch (p) {
            case Precision::fp4:   // FP4 weights without FP4 tensor cores: dequantized to 16-bit (W4A16 kernels)
            case Precision::fp8:
            case Precision::int8:
                p = runs_natively(g, Precision::bf16) ? Precision::bf16 : Precision::fp16;
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
    c.flops = (p == Precision::fp32 ? g.fp32_tflops : tensor_rate_tflops(g, p)) * 1e12;
    // llama.cpp's 16-bit GEMMs accumulate in FP16: on GeForce (which halves the FP32-accumulate
    // rate) it gets the FP16-accumulate rate. Evidence: Llama 3 8B F16 pp512 on an RTX 3090 runs
    // at 4,444.65 t/s = 71.4 TFLOP/s (2 x 8.03e9 FLOP/token), above the 71 TFLOP/s FP32-accumulate
    // peak (XiongjieDai/GPU-Benchmarks-on-LLM-Inference README).
    if (runtime == Runtime::llama_cpp && p == Precision::fp16 && g.fp16_accumulate_tflops > 0)
        c.flops = g.fp16_accumulate_tflops * 1e12;
    return c;
}

}  // namespace gpusizer
