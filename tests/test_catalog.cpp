// test_catalog.cpp: the asset files load, hold the GPUs and models the project promises, and bad
// files are named.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <string>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

std::string load_error(const std::string& gpus, const std::string& models) {
    try {
        (void)catalog_from_json(gpus, models);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("the catalog holds the models and GPUs the product promises", "[catalog]") {
    for (const char* id : {"deepseek-r1", "deepseek-r1-distill-qwen-1.5b", "deepseek-r1-distill-qwen-7b",
                           "deepseek-r1-distill-llama-8b", "deepseek-r1-distill-qwen-14b", "deepseek-r1-distill-qwen-32b",
                           "deepseek-r1-distill-llama-70b", "llama-3-8b", "llama-3-70b", "llama-3.3-70b", "llama-3.2-1b",
                           "llama-3.2-3b", "gpt-neox-20b", "bloom-176b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b",
                           "gemma-2-9b", "phi-3-mini-4k", "llama-3.1-405b"}) {
        INFO(id);
        CHECK(catalog().find_model(id) != nullptr);
    }
    for (const char* id : {"rtx-3060", "rtx-3070", "rtx-3080", "rtx-3090", "rtx-4060-ti-16gb", "rtx-4070-ti", "rtx-4080",
                           "rtx-4090", "rtx-5090", "rtx-a6000", "rtx-6000-ada", "l4", "l40s", "a10", "a100-40gb-pcie",
                           "a100-80gb-pcie", "a100-40gb-sxm", "a100-80gb-sxm", "h100-pcie", "h100-sxm", "h200", "b200",
                           "v100-sxm2-16gb", "t4", "mi300x", "m2-ultra-192gb"}) {
        INFO(id);
        CHECK(catalog().find_gpu(id) != nullptr);
    }
}

TEST_CASE("GPU data: dense tensor rates, precisions each architecture has", "[catalog]") {
    for (const Gpu& g : catalog().gpus) {
        INFO(g.id);
        CHECK(g.capacity_bytes() > 0);
        CHECK(g.memory_bandwidth_gb_per_s > 0);
        const std::string& arch = g.architecture;
        if (arch == "pascal" || arch == "volta" || arch == "turing") CHECK(g.tensor_tflops_dense.bf16 == 0);   // BF16 from Ampere
        if (arch == "pascal" || arch == "volta" || arch == "turing" || arch == "ampere")
            CHECK(g.tensor_tflops_dense.fp8 == 0);   // FP8 from Ada/Hopper
        if (arch != "blackwell" && arch != "cdna4") CHECK(g.tensor_tflops_dense.fp4 == 0);   // FP4 from Blackwell / MI350
        if (g.vendor == "nvidia" && g.tensor_tflops_dense.bf16 > 0)
            CHECK(g.tensor_tflops_dense.bf16 >= g.fp32_tflops * 0.9);   // tensor cores beat CUDA cores
    }
    // The RTX 4090 is 165.2 dense BF16 TFLOPS with FP32 accumulate, not the 330 (sparse) of spec sheets.
    CHECK(catalog().gpu("rtx-4090").tensor_tflops_dense.bf16 == Approx(165.2));
    CHECK(catalog().gpu("h100-sxm").tensor_tflops_dense.bf16 == Approx(989).epsilon(0.001));
}

TEST_CASE("the 2024-2026 GPUs the issue lists, and at least 60 in all", "[catalog]") {
    CHECK(catalog().gpus.size() >= 60);
    for (const char* id : {"rtx-pro-6000-blackwell", "rtx-pro-6000-blackwell-server", "rtx-5090", "rtx-5080", "rtx-5070-ti",
                           "rtx-5060-ti-16gb", "b200", "b300", "gb200", "gb300", "h200-nvl", "mi325x", "mi355x", "dgx-spark",
                           "ryzen-ai-max-395", "arc-pro-b60", "rx-7900-xtx", "m3-ultra-512gb", "m4-max-128gb", "m5-32gb"}) {
        INFO(id);
        CHECK(catalog().find_gpu(id) != nullptr);
    }
}

TEST_CASE("every GPU has its required facts and a source", "[catalog]") {
    for (const Gpu& g : catalog().gpus) {
        INFO(g.id);
        CHECK(g.arch != Architecture::unknown);
        CHECK(architecture_from_name(g.architecture) == g.arch);
        CHECK(nvlink_kind_from_name(g.nvlink) == g.link);
        CHECK(g.memory_gib > 0);
        CHECK(g.fp32_tflops > 0);
        CHECK(g.tensor_tflops_dense.fp16 > 0);
        CHECK(!g.sources.empty());
        CHECK((g.segment == Segment::apple || g.tdp_w > 0));
        if (g.link != NvlinkKind::none) CHECK(g.nvlink_gb_per_s > 0);
        // Unified memory (Apple, DGX Spark, Strix Halo): the GPU gets a share of the machine's memory.
        if (g.segment == Segment::apple) CHECK(g.gpu_memory_fraction < 1.0);
    }
}

TEST_CASE("native precisions come from the tensor-rate table", "[catalog][precision]") {
    // Blackwell runs FP4 (RTX 5090: 1,676 dense, NVIDIA RTX Blackwell whitepaper; B200: 9,000).
    CHECK(runs_natively(catalog().gpu("rtx-5090"), Precision::fp4));
    CHECK(runs_natively(catalog().gpu("b200"), Precision::fp4));
    CHECK(runs_natively(catalog().gpu("rtx-pro-6000-blackwell"), Precision::fp4));
    // Ada and Hopper: FP8, no FP4.
    CHECK(runs_natively(catalog().gpu("rtx-4090"), Precision::fp8));
    CHECK_FALSE(runs_natively(catalog().gpu("rtx-4090"), Precision::fp4));
    CHECK(runs_natively(catalog().gpu("h100-sxm"), Precision::fp8));
    CHECK_FALSE(runs_natively(catalog().gpu("h200"), Precision::fp4));
    // Ampere: BF16 but no FP8. CDNA 4 (MI355X): FP8 and MXFP4.
    CHECK(runs_natively(catalog().gpu("a100-80gb-sxm"), Precision::bf16));
    CHECK_FALSE(runs_natively(catalog().gpu("a100-80gb-sxm"), Precision::fp8));
    CHECK(runs_natively(catalog().gpu("mi355x"), Precision::fp4));
    // Apple: no matrix units, none native (their fp16 figure is the ALU rate).
    for (const char* id : {"m2-ultra-192gb", "m4-max-128gb", "m3-ultra-512gb"}) {
        INFO(id);
        for (Precision p : {Precision::fp16, Precision::bf16, Precision::fp8, Precision::int8, Precision::fp4})
            CHECK_FALSE(runs_natively(catalog().gpu(id), p));
    }
    // The data decides: a table with no FP8 rate makes FP8 not native, whatever the architecture.
    Gpu g = catalog().gpu("h100-sxm");
    g.tensor_tflops_dense.fp8 = 0;
    CHECK_FALSE(runs_natively(g, Precision::fp8));
    // NVFP4 weights on a B200 run at its FP4 rate; on an H100 they dequantize to BF16.
    CHECK(compute_choice(catalog().gpu("b200"), weight_format("nvfp4"), Runtime::vllm).flops == 9000e12);
    const ComputeChoice h = compute_choice(catalog().gpu("h100-sxm"), weight_format("mxfp4"), Runtime::vllm);
    CHECK(h.used == Precision::bf16);
    CHECK_FALSE(h.native);
}

TEST_CASE("GeForce RTX 40/50 have no P2P; vLLM's large-GPU rule without id matching", "[catalog]") {
    for (const Gpu& g : catalog().gpus) {
        INFO(g.id);
        if (g.vendor == "nvidia" && g.segment == Segment::consumer && (g.arch == Architecture::ada || g.arch == Architecture::blackwell))
            CHECK_FALSE(g.p2p);
    }
    CHECK(catalog().gpu("rtx-pro-6000-blackwell").p2p);   // measured P2P over PCIe 5.0 (voipmonitor/rtx6kpro)
    // vLLM: >= 70 GiB and not an A100 -> larger scheduler defaults.
    CHECK_FALSE(vllm_large_scheduler_defaults(catalog().gpu("a100-80gb-sxm")));
    CHECK(vllm_large_scheduler_defaults(catalog().gpu("h100-sxm")));
    CHECK(vllm_large_scheduler_defaults(catalog().gpu("mi300x")));
    CHECK_FALSE(vllm_large_scheduler_defaults(catalog().gpu("rtx-4090")));
}

TEST_CASE("malformed asset files are refused with file, entry and field", "[catalog][errors]") {
    const std::string gpus = read_asset("gpus.json");
    const std::string models = read_asset("models.json");
    REQUIRE_NOTHROW(catalog_from_json(gpus, models));
    CHECK(load_error("{", models).find("gpus.json") != std::string::npos);
    CHECK(load_error(gpus, "[]").find("models.json") != std::string::npos);
    CHECK(load_error(R"({"schema_version": 2, "gpus": []})", models).find("schema_version") != std::string::npos);

    auto with = [](std::string text, const std::string& from, const std::string& to) {
        const auto pos = text.find(from);
        REQUIRE(pos != std::string::npos);
        return text.replace(pos, from.size(), to);
    };
    std::string e = load_error(with(gpus, "\"memory_gib\": 24,", "\"memory_gib\": \"24\","), models);
    CHECK(e.find("gpus.json") != std::string::npos);
    CHECK(e.find("memory_gib") != std::string::npos);
    CHECK(e.find("must be a number") != std::string::npos);
    e = load_error(with(gpus, "\"memory_bandwidth_gb_per_s\": 1008", "\"memory_bandwidth_gb_per_s\": -1"), models);
    CHECK(e.find("rtx-4090") != std::string::npos);
    CHECK(e.find("memory_bandwidth_gb_per_s") != std::string::npos);
    e = load_error(with(gpus, "\"segment\": \"consumer\"", "\"segment\": \"gaming\""), models);
    CHECK(e.find("segment") != std::string::npos);
    e = load_error(gpus, with(models, "\"num_hidden_layers\": 32", "\"num_hidden_layers\": \"many\""));
    CHECK(e.find("models.json") != std::string::npos);
    CHECK(e.find("num_hidden_layers") != std::string::npos);
    e = load_error(gpus, with(models, "\"id\": \"llama-3-70b\"", "\"id\": \"llama-3-8b\""));
    CHECK(e.find("duplicate") != std::string::npos);
    e = load_error(gpus, with(models, "\"id\": \"gpt2\"", "\"id\": \"GPT 2\""));
    CHECK(e.find("kebab-case") != std::string::npos);
    e = load_error(with(gpus, "\"memory_gib\": 24,", "\"memory_gb\": 24,"), models);
    CHECK(e.find("memory_gb") != std::string::npos);
    CHECK(e.find("unknown field") != std::string::npos);
    e = load_error(gpus, with(models, "\"context_trained\": 8192", "\"context_trained\": 8192, \"contxt\": 1"));
    CHECK(e.find("contxt") != std::string::npos);
}

TEST_CASE("a missing assets folder is reported", "[catalog][errors]") {
    CHECK_THROWS_WITH(load_catalog("/nonexistent/assets"), Catch::Contains("gpus.json") && Catch::Contains("cannot be read"));
}

TEST_CASE("a catalog is a value: a copy outlives its original", "[catalog]") {
    // The index holds positions, not views into the original's strings: copy, destroy the
    // original, and the copy's lookups still work (AddressSanitizer read freed memory here once).
    auto original = std::make_unique<Catalog>(catalog());
    Catalog copy = *original;
    original.reset();
    REQUIRE(copy.find_model("llama-3-8b") != nullptr);
    CHECK(copy.find_model("llama-3-8b")->arch.id == "llama-3-8b");
    CHECK(copy.find_gpu("h100-sxm")->id == "h100-sxm");
    CHECK(copy.find_model("no-such-model") == nullptr);
    Catalog moved = std::move(copy);
    CHECK(moved.find_gpu("rtx-4090") != nullptr);
    CHECK(estimate(config("llama-3-8b"), moved).fits);
    // Changed by hand without reindex(): found by a scan, not through a stale index.
    moved.gpus.push_back(moved.gpus.front());
    moved.gpus.back().id = "hand-made";
    CHECK(moved.find_gpu("hand-made") != nullptr);
}

TEST_CASE("the GPUs part A of the 150-GPU issue added: Pascal to Blackwell, laptops, Jetson", "[catalog]") {
    CHECK(catalog().gpus.size() >= 117);   // 65 before, plus these 52
    for (const char* id : {"gtx-1060-6gb",
                           "gtx-1070",
                           "gtx-1070-ti",
                           "gtx-1080",
                           "gtx-1080-ti",
                           "titan-x-pascal",
                           "titan-xp",
                           "gtx-1660-super",
                           "gtx-1660-ti",
                           "rtx-2060",
                           "rtx-2060-12gb",
                           "rtx-2060-super",
                           "rtx-2070",
                           "rtx-2070-super",
                           "rtx-2080",
                           "rtx-2080-super",
                           "rtx-2080-ti",
                           "titan-rtx",
                           "quadro-rtx-6000",
                           "quadro-rtx-8000",
                           "rtx-3050-8gb",
                           "rtx-3060-8gb",
                           "rtx-3060-ti",
                           "rtx-3070-ti",
                           "rtx-3080-12gb",
                           "rtx-3080-ti",
                           "rtx-4060",
                           "rtx-4090-d",
                           "rtx-5050",
                           "rtx-5060",
                           "rtx-4090-laptop",
                           "rtx-4080-laptop",
                           "rtx-4070-laptop",
                           "rtx-5090-laptop",
                           "rtx-5080-laptop",
                           "rtx-3080-ti-laptop",
                           "rtx-a2000-12gb",
                           "rtx-a4000",
                           "rtx-a4500",
                           "rtx-a5000",
                           "rtx-a5500",
                           "rtx-2000-ada",
                           "rtx-4000-sff-ada",
                           "rtx-4000-ada",
                           "rtx-4500-ada",
                           "rtx-pro-4000-blackwell",
                           "rtx-pro-4500-blackwell",
                           "rtx-pro-6000-blackwell-max-q",
                           "jetson-agx-orin-64gb",
                           "jetson-agx-orin-32gb",
                           "jetson-orin-nano-super-8gb",
                           "jetson-agx-thor"}) {
        INFO(id);
        REQUIRE(catalog().find_gpu(id) != nullptr);
        const Gpu& g = catalog().gpu(id);
        CHECK(g.memory_bandwidth_gb_per_s > 0);
        CHECK(g.tdp_w > 0);
        // A figure not re-read from a primary source is listed; the derived tensor rates always are
        // except where the entry quotes NVIDIA's own table.
        CHECK(g.sources.size() >= 1);
    }
}

TEST_CASE("Pascal: no tensor cores, FP16 at 1/64 of FP32, 16-bit math on the FP32 units", "[catalog][precision]") {
    CHECK(to_string(Architecture::pascal) == "pascal");
    CHECK(architecture_from_name("pascal") == Architecture::pascal);
    // The whitepaper table: no matrix unit for any precision; P100 SXM2 carries NVLink 1.
    for (Precision p : {Precision::fp16, Precision::bf16, Precision::tf32, Precision::int8, Precision::fp8, Precision::fp4})
        CHECK_FALSE(runs_natively(Architecture::pascal, p));
    CHECK(nvlink_generation(Architecture::pascal) == 1);
    for (const Gpu& g : catalog().gpus) {
        if (g.arch != Architecture::pascal) continue;
        INFO(g.id);
        CHECK_FALSE(g.tensor_cores);
        CHECK_FALSE(runs_natively(g, Precision::fp16));
        CHECK(g.tensor_tflops_dense.bf16 == 0);
        CHECK(g.tensor_tflops_dense.int8 == 0);
    }
    // GTX 1080 Ti: 11.3 TFLOPS FP32 (NVIDIA's Turing comparison table); CUDA programming guide:
    // 2 FP16 results per clock per SM on compute capability 6.1 against 128 FP32, so 11.3 / 64 = 0.177.
    const Gpu& ti = catalog().gpu("gtx-1080-ti");
    CHECK(ti.fp32_tflops == Approx(11.3));
    CHECK(ti.tensor_tflops_dense.fp16 == Approx(11.3 / 64).epsilon(0.01));
    // BF16 weights in PyTorch and F16 GGUF in llama.cpp both compute at the FP32 rate, not the
    // 1/64 FP16 rate: cuBLAS's 16-bit GEMMs accumulate in FP32, llama.cpp converts F16 to F32 on 6.1.
    for (Runtime rt : {Runtime::pytorch, Runtime::llama_cpp}) {
        const ComputeChoice c = compute_choice(ti, weight_format(rt == Runtime::pytorch ? "bf16" : "fp16"), rt);
        CHECK(c.used == Precision::fp32);
        CHECK_FALSE(c.tensor_cores);
        CHECK_FALSE(c.native);
        CHECK(c.flops == Approx(11.3e12));
    }
    // Apple keeps its ALU FP16 rate (equal to its FP32 rate): bf16 there is fp16-class ALU math.
    const ComputeChoice m = compute_choice(catalog().gpu("m4-max-128gb"), weight_format("bf16"), Runtime::pytorch);
    CHECK(m.used == Precision::fp16);
    CHECK(m.native);
    // TU116 (GTX 16 series): no tensor cores but FP16 units at 2 x FP32, which the ALU path uses.
    const Gpu& gtx16 = catalog().gpu("gtx-1660-super");
    CHECK_FALSE(gtx16.tensor_cores);
    CHECK(gtx16.tensor_tflops_dense.fp16 == Approx(2 * gtx16.fp32_tflops).epsilon(0.01));
    const ComputeChoice t = compute_choice(gtx16, weight_format("fp16"), Runtime::pytorch);
    CHECK(t.used == Precision::fp16);
    CHECK(t.flops == Approx(gtx16.tensor_tflops_dense.fp16 * 1e12));
}

TEST_CASE("Pascal is below the serving engines' compute-capability floor", "[catalog][errors]") {
    // vLLM's installation docs: "GPU: compute capability 7.0 or higher"; SGLang's quick start sm75;
    // TensorRT-LLM's support matrix starts at Ampere. llama.cpp and PyTorch run.
    for (Runtime rt : {Runtime::vllm, Runtime::sglang, Runtime::trt_llm}) {
        Config c = serving("llama-3-8b", "gtx-1080-ti", rt);
        c.weights = "int4";
        c.context = 2048;
        try {
            (void)run(c);
            FAIL("expected a refusal");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::gpu_unsupported);
            CHECK(std::string(e.what()).find("compute capability 7.0") != std::string::npos);
            CHECK(std::string(e.what()).find("Pascal") != std::string::npos);
        }
    }
    Config ok = serving("llama-3-8b", "gtx-1080-ti", Runtime::llama_cpp);
    ok.weights = "q4_k_m";
    ok.context = 2048;
    CHECK(run(ok).fits);
    // Turing, compute capability 7.5, is above it.
    Config turing = serving("llama-3-8b", "titan-rtx", Runtime::vllm);
    CHECK_NOTHROW(run(turing));
}

TEST_CASE("derived dense tensor rates are the vendor's figures as published or halved from sparse", "[catalog][precision]") {
    // NVIDIA's Turing table, RTX 2080 Ti at the reference clock: 53.8 FP16 with FP32 accumulate,
    // 107.6 with FP16 accumulate (GeForce: half rate with FP32 accumulate), 215.2 INT8; no BF16.
    const Gpu& ti = catalog().gpu("rtx-2080-ti");
    CHECK(ti.tensor_tflops_dense.fp16 == Approx(53.8));
    CHECK(ti.fp16_accumulate_tflops == Approx(107.6));
    CHECK(ti.tensor_tflops_dense.int8 == Approx(215.2));
    CHECK(ti.tensor_tflops_dense.bf16 == 0);
    // Quadro RTX 8000 / TITAN RTX: the same TU102 at 1,770 MHz, 130.5 with either accumulation (no
    // separate FP16-accumulate figure): professional cards do not halve FP32 accumulate.
    for (const char* id : {"quadro-rtx-8000", "titan-rtx"}) {
        INFO(id);
        CHECK(catalog().gpu(id).tensor_tflops_dense.fp16 == Approx(130.5));
        CHECK(catalog().gpu(id).fp16_accumulate_tflops == 0);
    }
    // RTX A4000 datasheet: 153.4 tensor TFLOPS with sparsity -> 76.7 dense FP16 = 4 x 19.17 FP32.
    CHECK(catalog().gpu("rtx-a4000").tensor_tflops_dense.fp16 == Approx(153.4 / 2).epsilon(0.002));
    // RTX 2000 Ada datasheet: 191.9 tensor TFLOPS (FP8, sparse) -> 96 dense FP8, FP16 half of it.
    const Gpu& ada2000 = catalog().gpu("rtx-2000-ada");
    CHECK(ada2000.tensor_tflops_dense.fp8 == Approx(191.9 / 2).epsilon(0.002));
    CHECK(ada2000.tensor_tflops_dense.fp16 == Approx(191.9 / 4).epsilon(0.002));
    // GeForce RTX 50 'AI TOPS' = FP4 with sparsity: RTX 5060 614 -> 307 dense FP4, BF16 = 614 / 16.
    const Gpu& r5060 = catalog().gpu("rtx-5060");
    CHECK(r5060.tensor_tflops_dense.fp4 == Approx(614.0 / 2).epsilon(0.001));
    CHECK(r5060.tensor_tflops_dense.bf16 == Approx(614.0 / 16).epsilon(0.003));
    // Jetson AGX Thor: 2,070 FP4 TFLOPS (sparse) -> 1,035 dense.
    CHECK(catalog().gpu("jetson-agx-thor").tensor_tflops_dense.fp4 == Approx(2070.0 / 2));
    // GeForce Ampere laptops and desktops: FP32 accumulate at half the FP16-accumulate rate.
    for (const char* id : {"rtx-3060-ti", "rtx-3080-ti", "rtx-3080-ti-laptop"}) {
        INFO(id);
        const Gpu& g = catalog().gpu(id);
        CHECK(g.tensor_tflops_dense.fp16 == Approx(g.fp16_accumulate_tflops / 2).epsilon(0.01));
        CHECK(g.tensor_tflops_dense.fp8 == 0);   // no FP8 on Ampere
    }
}

TEST_CASE("laptop GPUs: their own memory and the top of the TGP range", "[catalog]") {
    // NVIDIA: RTX 4090 Laptop 16 GB GDDR6, 80-150 W; RTX 5090 Laptop 24 GB GDDR7, 95-150 W;
    // RTX 4070 Laptop 8 GB, 35-115 W. The desktop cards of the same name: 24 / 32 / 12 GB.
    CHECK(catalog().gpu("rtx-4090-laptop").memory_gib == 16);
    CHECK(catalog().gpu("rtx-4090-laptop").tdp_w == 150);
    CHECK(catalog().gpu("rtx-5090-laptop").memory_gib == 24);
    CHECK(catalog().gpu("rtx-5090-laptop").tdp_w == 150);
    CHECK(catalog().gpu("rtx-4070-laptop").memory_gib == 8);
    CHECK(catalog().gpu("rtx-4070-laptop").tdp_w == 115);
    CHECK(catalog().gpu("rtx-4090-laptop").memory_gib < catalog().gpu("rtx-4090").memory_gib);
    // The 4090 Laptop is an AD103 (desktop RTX 4080 chip): 9,728 cores at 2,040 MHz = 39.69 TFLOPS.
    CHECK(catalog().gpu("rtx-4090-laptop").fp32_tflops == Approx(2 * 9728 * 2.040e9 / 1e12).epsilon(0.001));
}

TEST_CASE("Jetson modules are unified-memory machines, sized like the DGX Spark", "[catalog][power]") {
    // Thor: 109,671 MiB free of 128 GiB at llama.cpp's start (0.84); Orin Nano: ~5.2 of 8 GB (0.65).
    const Gpu& thor = catalog().gpu("jetson-agx-thor");
    CHECK(thor.capacity_bytes() == Approx(0.84 * 128 * kGiB));
    CHECK(thor.capacity_bytes() / kMiB == Approx(109671).epsilon(0.01));
    CHECK(catalog().gpu("jetson-orin-nano-super-8gb").capacity_bytes() == Approx(0.65 * 8 * kGiB));
    for (const char* id : {"jetson-agx-orin-64gb", "jetson-agx-orin-32gb", "jetson-orin-nano-super-8gb", "jetson-agx-thor"}) {
        INFO(id);
        const Gpu& g = catalog().gpu(id);
        CHECK(g.gpu_memory_fraction < 1.0);
        REQUIRE(g.unified_host_w);   // the module's tdp_w covers CPU and GPU; host_w is the rest
        CHECK(*g.unified_host_w < g.tdp_w);
        CHECK(g.pcie_gen == 0);   // no host link: the GPU is on the SoC
    }
    // Llama 3 8B Q4_K_M on an AGX Orin 64GB under llama.cpp: decode under the 204.8 GB/s roofline
    // (4.58 GB per token: < 45 tokens/s), the machine's power is the module plus host_w.
    Config c = serving("llama-3-8b", "jetson-agx-orin-64gb", Runtime::llama_cpp);
    c.weights = "q4_k_m";
    c.context = 512;
    const Report r = run(c);
    CHECK(r.fits);
    CHECK(r.speed.decode_tokens_per_s > 10);
    CHECK(r.speed.decode_tokens_per_s < 204.8e9 / 4.58e9);
    CHECK(std::isfinite(r.speed.prefill_tokens_per_s));
    CHECK(r.power.host_platform == "unified");
}

TEST_CASE("estimates on new GPUs run and stay under their rooflines", "[catalog][speed]") {
    // One sequence of Llama 3 8B decoding under llama.cpp reads the whole model (Q4_K_M: 4.58 GB)
    // each token: tokens/s < bandwidth / 4.58 GB on every GPU it fits, and more than a third of it.
    for (const char* id : {"gtx-1080-ti", "titan-xp", "gtx-1660-super", "rtx-2080-ti", "rtx-3060-ti", "rtx-4060", "rtx-5050", "rtx-5060",
                           "rtx-4090-laptop", "rtx-a4000", "rtx-4000-sff-ada", "rtx-pro-6000-blackwell-max-q"}) {
        INFO(id);
        const Gpu& g = catalog().gpu(id);
        Config c = serving("llama-3-8b", id, Runtime::llama_cpp);
        c.weights = "q4_k_m";
        c.context = 512;
        const Report r = run(c);
        REQUIRE(r.fits);
        const double roof = g.memory_bandwidth_gb_per_s * 1e9 / 4.58e9;
        CHECK(std::isfinite(r.speed.decode_tokens_per_s));
        CHECK(r.speed.decode_tokens_per_s < roof);
        CHECK(r.speed.decode_tokens_per_s > roof / 3);
        CHECK(r.speed.prefill_tokens_per_s > 0);
    }
    // Prefill on a GTX 1080 Ti is bounded by FP32 (11.3 TFLOPS: 2 x 8.03e9 FLOP a token -> < 704 t/s
    // at full efficiency), far below an RTX 2080 Ti's tensor cores.
    Config p = serving("llama-3-8b", "gtx-1080-ti", Runtime::llama_cpp);
    p.weights = "q4_k_m";
    p.context = 512;
    p.prompt_tokens = 512;
    const double pascal_pp = run(p).speed.prefill_tokens_per_s;
    CHECK(pascal_pp < 11.3e12 / (2 * 8.03e9));
    p.gpu = "rtx-2080-ti";
    CHECK(run(p).speed.prefill_tokens_per_s > 2 * pascal_pp);
}
