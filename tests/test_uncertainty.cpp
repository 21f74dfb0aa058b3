// test_uncertainty.cpp: the speed bands (gpusizer/uncertainty.hpp) cover the accuracy set's rows
// of their kind: each row of tests/validation/accuracy.json that measures a speed figure is run
// as gpusizer_validate runs it, and its measured / predicted ratio must lie in the band of that
// figure and runtime; the report's `_range` keys are the figure times the band.
#include <algorithm>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/uncertainty.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using nlohmann::json;

namespace {

json accuracy_rows() {
    std::ifstream in(std::string(GPUSIZER_TEST_DATA) + "/../validation/accuracy.json");
    json set;
    in >> set;
    return set["rows"];
}

}  // namespace

TEST_CASE("speed bands cover the accuracy rows of their kind", "[uncertainty]") {
    int checked[4] = {};
    int llama_cpp_rows[2][5] = {};   // llama.cpp's decode and prefill rows by GPU backend (Backend's order)
    for (const json& row : accuracy_rows()) {
        const std::string q = row.value("quantity", "");
        SpeedFigure figure;
        if (q == "decode_tokens_per_s") figure = SpeedFigure::decode;
        else if (q == "prefill_tokens_per_s") figure = SpeedFigure::prefill;
        else if (q == "serving.output_tokens_per_s" || q == "max_output_throughput_tokens_per_s") figure = SpeedFigure::serving_throughput;
        else if (q == "train_mfu" || q == "train_hfu" || q == "speed.train_tokens_per_s") figure = SpeedFigure::train_throughput;
        else continue;
        const Report r = run(config_from_json(row["config"].dump()));
        const double predicted = q == "decode_tokens_per_s"    ? r.speed.decode_tokens_per_s
                                 : q == "prefill_tokens_per_s" ? r.speed.prefill_tokens_per_s
                                 : q == "train_mfu"            ? r.speed.effective_mfu
                                 : q == "train_hfu"            ? r.speed.hfu
                                 : q == "speed.train_tokens_per_s" ? r.speed.train_tokens_per_s
                                 : q == "max_output_throughput_tokens_per_s" ? r.speed.decode_throughput_tokens_per_s
                                                                              : r.serving.output_tokens_per_s;
        const double measured = row["value"].get<double>();
        const SpeedBand b = speed_band(figure, r);   // as report_json.cpp picks it: runtime, model class, GPU backend
        INFO(row["id"].get<std::string>() << ": measured " << measured << ", predicted " << predicted << ", runtime "
                                          << to_string(r.config.runtime) << ", band " << b.lo << " - " << b.hi);
        REQUIRE(predicted > 0);
        CHECK(b.same_runtime);   // every row's runtime has its own band
        CHECK(measured / predicted >= b.lo);
        CHECK(measured / predicted <= b.hi);
        ++checked[int(figure)];
        if (r.config.runtime == Runtime::llama_cpp && figure != SpeedFigure::serving_throughput && figure != SpeedFigure::train_throughput)
            ++llama_cpp_rows[figure == SpeedFigure::decode ? 0 : 1][int(gpu_backend(r))];
        // The report's range around the figure contains the measured value (inference figures).
        const json j = json::parse(report_to_json(r));
        if (figure == SpeedFigure::decode) {
            CHECK(j["speed"]["decode_tokens_per_s_range"][0].get<double>() <= measured);
            CHECK(j["speed"]["decode_tokens_per_s_range"][1].get<double>() >= measured);
        } else if (figure == SpeedFigure::prefill) {
            CHECK(j["speed"]["prefill_tokens_per_s_range"][0].get<double>() <= measured);
            CHECK(j["speed"]["prefill_tokens_per_s_range"][1].get<double>() >= measured);
        } else if (figure == SpeedFigure::serving_throughput && q == "serving.output_tokens_per_s") {
            CHECK(j["serving"]["output_tokens_per_s_range"][0].get<double>() <= measured);
            CHECK(j["serving"]["output_tokens_per_s_range"][1].get<double>() >= measured);
        }
    }
    // Each band's row count is the rows it covers.
    CHECK(checked[int(SpeedFigure::decode)] ==
          speed_band(SpeedFigure::decode, Runtime::llama_cpp).rows + speed_band(SpeedFigure::decode, Runtime::vllm).rows);
    CHECK(checked[int(SpeedFigure::prefill)] == speed_band(SpeedFigure::prefill, Runtime::llama_cpp).rows);
    // llama.cpp's rows split by GPU backend: a backend with kMinRowsPerBackend rows or more has a
    // band of exactly its rows; one with fewer takes the rows of every backend.
    for (SpeedFigure figure : {SpeedFigure::decode, SpeedFigure::prefill}) {
        const int all = speed_band(figure, Runtime::llama_cpp).rows;
        for (Backend backend : {Backend::cuda, Backend::rocm, Backend::sycl, Backend::metal}) {
            const int rows = llama_cpp_rows[figure == SpeedFigure::decode ? 0 : 1][int(backend)];
            INFO("figure " << int(figure) << ", backend " << int(backend) << ": " << rows << " rows");
            CHECK(speed_band(figure, Runtime::llama_cpp, ModelClass::any, backend).rows == (rows >= kMinRowsPerBackend ? rows : all));
        }
    }
    // TensorRT-LLM's rows split by model class; asked without one, its band is both together.
    CHECK(speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm).rows ==
          speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm, ModelClass::dense).rows +
              speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm, ModelClass::moe).rows);
    CHECK(checked[int(SpeedFigure::serving_throughput)] == speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm).rows +
                                                               speed_band(SpeedFigure::serving_throughput, Runtime::vllm).rows +
                                                               speed_band(SpeedFigure::serving_throughput, Runtime::sglang).rows);
    CHECK(checked[int(SpeedFigure::train_throughput)] == speed_band(SpeedFigure::train_throughput, Runtime::pytorch).rows);
}

TEST_CASE("speed bands: a runtime without rows takes the figure's rows on other runtimes", "[uncertainty]") {
    // llama.cpp has no serving-throughput rows: it gets the union of TensorRT-LLM's, vLLM's and
    // SGLang's bands, marked as borrowed.
    const SpeedBand trt = speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm);
    const SpeedBand vllm = speed_band(SpeedFigure::serving_throughput, Runtime::vllm);
    const SpeedBand sglang = speed_band(SpeedFigure::serving_throughput, Runtime::sglang);
    const SpeedBand llama = speed_band(SpeedFigure::serving_throughput, Runtime::llama_cpp);
    CHECK(vllm.same_runtime);
    CHECK(sglang.same_runtime);
    CHECK(llama.rows == trt.rows + vllm.rows + sglang.rows);
    CHECK(llama.lo == std::min({trt.lo, vllm.lo, sglang.lo}));
    CHECK(llama.hi == std::max({trt.hi, vllm.hi, sglang.hi}));
    CHECK_FALSE(llama.same_runtime);
    // Ollama is llama-server underneath: llama.cpp's band, its own.
    CHECK(speed_band(SpeedFigure::decode, Runtime::ollama).same_runtime);
    // Every band contains the estimate itself.
    for (SpeedFigure f : {SpeedFigure::decode, SpeedFigure::prefill, SpeedFigure::serving_throughput, SpeedFigure::train_throughput}) {
        const SpeedBand b = speed_band(f, Runtime::automatic);
        CHECK(b.lo <= 1.0);
        CHECK(b.hi >= 1.0);
    }
    // In the report: decode on vLLM gets a range around its figure; times take it inversely.
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::vllm);
    const Report r = run(c);
    const json j = json::parse(report_to_json(r));
    const SpeedBand d = speed_band(SpeedFigure::decode, Runtime::vllm);
    CHECK(j["speed"]["decode_tokens_per_s_range"][0].get<double>() == Approx(r.speed.decode_tokens_per_s * d.lo));
    CHECK(j["speed"]["decode_tokens_per_s_range"][1].get<double>() == Approx(r.speed.decode_tokens_per_s * d.hi));
    const SpeedBand p = speed_band(SpeedFigure::prefill, Runtime::vllm);
    CHECK(j["speed"]["ttft_s_range"][0].get<double>() == Approx(r.speed.ttft_s / p.hi));
    CHECK(j["speed"]["ttft_s_range"][1].get<double>() == Approx(r.speed.ttft_s / p.lo));
    CHECK(j["speed"]["train_tokens_per_s_range"].is_null());
    CHECK(j["serving"]["output_tokens_per_s_range"].is_null());   // no load asked
}

TEST_CASE("speed bands: TensorRT-LLM's serving band follows the model's class", "[uncertainty]") {
    const SpeedBand dense = speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm, ModelClass::dense);
    const SpeedBand moe = speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm, ModelClass::moe);
    const SpeedBand both = speed_band(SpeedFigure::serving_throughput, Runtime::trt_llm);
    CHECK(dense.same_runtime);
    CHECK(moe.same_runtime);
    CHECK(moe.lo < dense.lo);   // the small-expert rows (Qwen3-30B-A3B) fall far below gpusizer
    CHECK(both.lo == std::min(dense.lo, moe.lo));
    CHECK(both.hi == std::max(dense.hi, moe.hi));
    // vLLM's rows do not split: either class gets the one band.
    CHECK(speed_band(SpeedFigure::serving_throughput, Runtime::vllm, ModelClass::moe).lo ==
          speed_band(SpeedFigure::serving_throughput, Runtime::vllm, ModelClass::dense).lo);
    // In the report: a dense and a mixture-of-experts model under load get their class's range.
    for (const char* model : {"llama-3.1-8b", "qwen3-30b-a3b"}) {
        Config c = serving(model, "h100-sxm", Runtime::trt_llm);
        c.isl = 1000;
        c.osl = 1000;
        const Report r = run(c);
        const json j = json::parse(report_to_json(r));
        const SpeedBand b = std::string(model) == "llama-3.1-8b" ? dense : moe;
        INFO(model);
        CHECK(j["serving"]["range_rows"]["lo"].get<double>() == b.lo);
        CHECK(j["serving"]["output_tokens_per_s_range"][0].get<double>() == Approx(r.serving.output_tokens_per_s * b.lo));
        // The two times take the band inversely: a faster engine than gpusizer's takes less time.
        REQUIRE(r.serving.ttft_s > 0);
        REQUIRE(r.serving.tpot_s > 0);
        CHECK(j["serving"]["ttft_s_range"][0].get<double>() == Approx(r.serving.ttft_s / b.hi));
        CHECK(j["serving"]["ttft_s_range"][1].get<double>() == Approx(r.serving.ttft_s / b.lo));
        CHECK(j["serving"]["tpot_s_range"][0].get<double>() == Approx(r.serving.tpot_s / b.hi));
        CHECK(j["serving"]["tpot_s_range"][1].get<double>() == Approx(r.serving.tpot_s / b.lo));
    }
}

TEST_CASE("speed bands: llama.cpp's decode and prefill bands follow the GPU's backend", "[uncertainty]") {
    // The CUDA-fitted decode model (0.9 of bandwidth, 90 us per layer) lands within -8% to +16% on
    // CUDA's 15 rows; ROCm's 10 fall to -36% (MI100's per-layer cost), SYCL's 2 to -40% (Arc A770).
    // One band for all would give a CUDA user a lower end (0.59) that no CUDA row comes near.
    const SpeedBand all = speed_band(SpeedFigure::decode, Runtime::llama_cpp);
    const SpeedBand cuda = speed_band(SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::cuda);
    const SpeedBand rocm = speed_band(SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::rocm);
    const SpeedBand metal = speed_band(SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::metal);
    const SpeedBand sycl = speed_band(SpeedFigure::decode, Runtime::llama_cpp, ModelClass::any, Backend::sycl);
    for (const SpeedBand& b : {cuda, rocm, metal}) {
        CHECK(b.same_runtime);
        CHECK(b.rows >= kMinRowsPerBackend);
        CHECK(b.rows < all.rows);
    }
    CHECK(cuda.lo > rocm.lo);
    CHECK(cuda.lo > all.lo);
    CHECK(all.lo == std::min({cuda.lo, rocm.lo, metal.lo, sycl.lo}));
    CHECK(all.hi == std::max({cuda.hi, rocm.hi, metal.hi, sycl.hi}));
    // SYCL's two rows are too few for a band of their own (2 / (2 + 1): two chances in three that
    // the next row falls outside them): an Intel GPU gets every backend's rows, its own among them.
    CHECK(sycl.rows == all.rows);
    CHECK(sycl.lo == all.lo);
    CHECK(sycl.same_runtime);
    CHECK(std::string(sycl.rows_from).find("too few") != std::string::npos);
    // Prefill: CUDA's rows run at or below the estimate, Metal's above it (Apple publishes no
    // matrix rate); ROCm has no prefill rows and gets every backend's.
    const SpeedBand pp_all = speed_band(SpeedFigure::prefill, Runtime::llama_cpp);
    const SpeedBand pp_cuda = speed_band(SpeedFigure::prefill, Runtime::llama_cpp, ModelClass::any, Backend::cuda);
    const SpeedBand pp_metal = speed_band(SpeedFigure::prefill, Runtime::llama_cpp, ModelClass::any, Backend::metal);
    const SpeedBand pp_rocm = speed_band(SpeedFigure::prefill, Runtime::llama_cpp, ModelClass::any, Backend::rocm);
    CHECK(pp_cuda.hi < pp_metal.hi);
    CHECK(pp_metal.lo == 1.0);   // every Metal prefill row ran faster than the estimate
    CHECK(pp_cuda.rows + pp_metal.rows == pp_all.rows);
    CHECK(pp_rocm.rows == pp_all.rows);
    CHECK(std::string(pp_rocm.rows_from).find("none on this GPU's backend") != std::string::npos);
    // Ollama is llama-server: the same split.
    CHECK(speed_band(SpeedFigure::decode, Runtime::ollama, ModelClass::any, Backend::cuda).lo == cuda.lo);
    // vLLM's rows do not split by backend: any backend gets its one band.
    CHECK(speed_band(SpeedFigure::decode, Runtime::vllm, ModelClass::any, Backend::rocm).rows ==
          speed_band(SpeedFigure::decode, Runtime::vllm).rows);
    // In the report: the GPU's vendor picks the backend, and the ranges are its band's.
    struct Row {
        const char* gpu;
        Backend backend;
        SpeedBand decode, prefill;
    };
    const Row rows[] = {
        {"rtx-4090", Backend::cuda, cuda, pp_cuda},
        {"rx-7900-xtx", Backend::rocm, rocm, pp_rocm},
        {"arc-b580", Backend::sycl, sycl, pp_all},
        {"m4-max-128gb", Backend::metal, metal, pp_metal},
    };
    for (const Row& row : rows) {
        INFO(row.gpu);
        Config c = serving("llama-3-8b", row.gpu, Runtime::llama_cpp);
        c.weights = "q4_k_m";
        const Report r = run(c);
        CHECK(gpu_backend(r) == row.backend);
        const json j = json::parse(report_to_json(r));
        CHECK(j["speed"]["range_rows"]["decode"]["rows"].get<int>() == row.decode.rows);
        CHECK(j["speed"]["range_rows"]["decode"]["lo"].get<double>() == row.decode.lo);
        CHECK(j["speed"]["decode_tokens_per_s_range"][0].get<double>() == Approx(r.speed.decode_tokens_per_s * row.decode.lo));
        CHECK(j["speed"]["decode_tokens_per_s_range"][1].get<double>() == Approx(r.speed.decode_tokens_per_s * row.decode.hi));
        CHECK(j["speed"]["range_rows"]["prefill"]["hi"].get<double>() == row.prefill.hi);
        CHECK(j["speed"]["prefill_tokens_per_s_range"][1].get<double>() == Approx(r.speed.prefill_tokens_per_s * row.prefill.hi));
        // Time to first token takes the prefill band inversely.
        CHECK(j["speed"]["ttft_s_range"][0].get<double>() == Approx(r.speed.ttft_s / row.prefill.hi));
    }
}
