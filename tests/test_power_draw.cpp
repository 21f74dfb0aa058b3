// test_power_draw.cpp: GPU draw by what bounds the work (performance.cpp, board_draw_fraction):
// memory-bound decode well below board power on HBM, compute-bound prefill and training at it,
// GDDR boards near it in decode; energy and cost per million tokens at that draw; the draw of a
// server under load. The figures that take `utilization` as given keep their meaning.
#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("power at draw: memory-bound decode on HBM draws well below TDP", "[power][power_draw]") {
    // Llama 3 8B in bf16 on one H100 SXM (700 W, HBM3), vLLM, batch 1. The step reads the weights
    // and the one sequence's cache at the 16-bit bandwidth efficiency 0.75 (no per-layer overhead,
    // no communication), so the memory utilization is 0.75 of 3.35 TB/s, mostly weights: a_m =
    // (0.591 u_weights + 1.125 u_kv) / (1 - 137 / 700) (ML.ENERGY v3.0: Qwen3-14B decoding on an
    // H100 drew 443 W at 8 requests), and 2 x 8e9 FLOP per token over a ~6.4 ms step at 989 TFLOPS
    // is 0.25% of the peak: a_c = 0.005. The draw 1 - (1 - f)(1 - a_m)(1 - a_c) is about 0.65 of TDP.
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::vllm);
    const Report r = run(c);
    const double u_c = 2.0 * r.active_params / r.speed.decode_step_s / r.speed.peak_flops;
    const double u_m = r.speed.decode_bytes_per_step / (r.speed.decode_step_s * 3.35e12);
    const double u_kv = r.kv_bytes_per_token * double(r.config.context) * r.config.batch / (r.speed.decode_step_s * 3.35e12);   // the cache, read whole
    const double f = 137.0 / 700.0;
    CHECK(u_m == Approx(0.75).epsilon(0.01));
    CHECK(u_kv < 0.1 * u_m);
    CHECK(r.power.decode_draw_fraction ==
          Approx(1 - (1 - f) * (1 - (0.591 * (u_m - u_kv) + 1.125 * u_kv) / (1 - f)) * (1 - u_c / 0.5)).epsilon(0.01));
    CHECK(r.power.decode_draw_fraction == Approx(0.65).epsilon(0.03));
    CHECK(r.power.decode_draw_fraction < 0.7);
    CHECK(r.power.decode_gpu_w == Approx(700 * r.power.decode_draw_fraction));
    // The figure that takes utilization as given is unchanged: 700 W x 1 GPU x 1.0.
    CHECK(r.power.gpu_w == 700);
    // Energy per million tokens at that draw: the wall's draw x PUE over the tokens per second.
    const double facility = r.power.decode_wall_w * r.power.pue;
    CHECK(r.power.energy_kwh_per_million_tokens_at_draw == Approx(facility * 1e6 / r.speed.decode_throughput_tokens_per_s / 3.6e6));
    CHECK(r.power.cost_usd_per_million_tokens_at_draw == Approx(r.power.energy_kwh_per_million_tokens_at_draw * c.usd_per_kwh));
    CHECK(r.power.energy_kwh_per_million_tokens_at_draw < r.power.energy_kwh_per_million_tokens);
    // Prefill of a 4,096-token prompt at MFU 0.5: compute-bound, at board power (POLCA).
    CHECK(r.power.prefill_draw_fraction == Approx(1.0));
    CHECK(r.power.prefill_gpu_w == Approx(700));
    CHECK(r.power.train_draw_fraction == 0);
}

TEST_CASE("power at draw: GDDR boards draw near their limit in decode", "[power][power_draw]") {
    // Llama 3 8B Q4_K_M on one RTX 4090 (GDDR6X, 450 W) in llama.cpp: the step reads at the
    // bandwidth efficiency 0.9 but llama.cpp's fixed per-layer time (kernel launches) leaves the
    // memory idle for part of it. The draw is the active floor (137 / 700, Ma et al.) plus that
    // utilization times GDDR's dynamic share: (0.96 - floor) / 0.824 (InventiveHQ: an RTX 5060 Ti
    // drew 0.96 of its limit decoding a 7B in llama.cpp at 0.824 of its bandwidth), the compute's
    // share of what is left on top. Above an HBM board's 0.64 streaming weights at full bandwidth.
    Config c = config("llama-3-8b", "rtx-4090");
    c.weights = "q4_k_m";
    c.runtime = Runtime::llama_cpp;
    const Report r = run(c);
    const double u_m = r.speed.decode_bytes_per_step / (r.speed.decode_step_s * 1008e9);   // RTX 4090: 1,008 GB/s
    const double u_c = 2.0 * r.active_params / r.speed.decode_step_s / r.speed.peak_flops;   // ~1%
    const double floor = 137.0 / 700.0;
    CHECK(u_m < 0.9);
    CHECK(r.power.decode_draw_fraction ==
          Approx(1 - (1 - floor) * (1 - std::min(1.0, u_m * (0.96 - floor) / (81.2 * 4.547e9 / 448e9) / (1 - floor))) * (1 - u_c / 0.5))
              .epsilon(0.02));
    CHECK(r.power.decode_draw_fraction > 0.6);
}

TEST_CASE("power at draw: training follows its hardware FLOPs utilization", "[power][power_draw]") {
    // Llama 3 8B full training on 8 H100 (no memory term): draw = floor + (1 - floor) x
    // min(1, HFU / 0.5) with the active floor 137 / 700.
    Config c = training("llama-3-8b", "h100-sxm", 8);
    c.context = 4096;
    c.global_batch = 64;
    c.train_tokens = 1e9;
    const Report r = run(c);
    REQUIRE(r.speed.hfu > 0);
    const double floor = 137.0 / 700.0;
    CHECK(r.power.train_draw_fraction == Approx(std::min(1.0, floor + r.speed.hfu * (1 - floor) / 0.5)));
    CHECK(r.power.train_gpu_w == Approx(8 * 700 * r.power.train_draw_fraction));
    CHECK(r.power.decode_draw_fraction == 0);
    // The run's energy at that draw: the wall's draw x PUE x time.
    CHECK(r.power.train_energy_kwh_at_draw == Approx(r.power.train_wall_w * r.power.pue * r.speed.train_time_s / 3.6e6));
    CHECK(r.power.train_energy_kwh_at_draw <= r.power.energy_kwh);
}

TEST_CASE("power under load: more requests in flight draw more, and cost less per token", "[power][power_draw][serving]") {
    // Llama 3 70B bf16 on 4 H100 (vLLM, tp 4), 1,000 + 1,000 tokens: one request reads the
    // weights per token; 64 share each read, so the step does more work per watt.
    Config c = serving("llama-3-70b", "h100-sxm", Runtime::vllm, 4);
    c.isl = 1000;
    c.osl = 1000;
    double last_draw = 0, last_energy = 1e300;
    for (int n : {1, 8, 64}) {
        c.concurrency = n;
        const Report r = run(c);
        INFO(n << " requests");
        REQUIRE(r.serving.active);
        CHECK(r.serving.draw_fraction >= last_draw);
        CHECK(r.serving.draw_fraction <= 1.0);
        CHECK(r.serving.gpu_w == Approx(4 * 700 * r.serving.draw_fraction));
        CHECK(r.serving.energy_kwh_per_million_tokens < last_energy);
        CHECK(r.serving.energy_kwh_per_million_tokens ==
              Approx(r.serving.wall_w * r.power.pue * 1e6 / r.serving.output_tokens_per_s / 3.6e6));
        // The whole machine under the load is this job's draw at the wall.
        CHECK(r.power.serving_wall_w == r.serving.wall_w);
        CHECK(r.power.wall_w == r.serving.wall_w);
        CHECK(r.power.wall_phase == "serving");
        CHECK(r.serving.wall_w > r.serving.gpu_w);
        CHECK(r.serving.cost_usd_per_million_tokens == Approx(r.serving.energy_kwh_per_million_tokens * c.usd_per_kwh));
        last_draw = r.serving.draw_fraction;
        last_energy = r.serving.energy_kwh_per_million_tokens;
    }
    const auto j = nlohmann::json::parse(report_to_json(run(c)));
    CHECK(j["serving"]["gpu_w"].get<double>() > 0);
    CHECK(j["power"]["decode_draw_fraction"].get<double>() > 0);
}
