// test_power.cpp: board power, host, PUE, PSU sizing with transients, heat, energy and cost.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

TEST_CASE("system power: GPUs at their board power plus the host", "[power]") {
    // Two RTX 4090 (450 W TGP each) in one desktop; the host (CPU 300 W + 150 W for the rest of the
    // box, Intel's ATX 3.0 example) at full utilization.
    Config c = config("llama-3-70b", "rtx-4090");
    c.weights = "q4_k_m";
    c.gpus = 2;
    Report r = run(c);
    CHECK(r.power.gpu_w == 2 * 450);
    CHECK(r.power.host_w == 450);
    CHECK(r.power.system_w == 1350);
    CHECK(r.power.pue == 1.0);   // a room, not a data center: no cooling overhead counted
    CHECK(r.power.facility_w == 1350);
    // Those are ratings; the heat is what the machine draws at the wall doing the job (every
    // watt ends up in the room); 1 W = 3.412 BTU/h.
    CHECK(r.power.heat_w == r.power.wall_w);
    CHECK(r.power.heat_w < r.power.system_w);
    CHECK(r.power.heat_btu_h == Approx(r.power.wall_w * 3.412));
    CHECK(r.power.nameplate_w == 1350);
    // At 60% utilization both scale.
    c.utilization = 0.6;
    r = run(c);
    CHECK(r.power.gpu_w == Approx(0.6 * 900));
    CHECK(r.power.system_w == Approx(0.6 * 1350));
}

TEST_CASE("PSU sizing with transient headroom (ATX 3.0)", "[power][published]") {
    // Intel (PCWorld, via TweakTown 2022): "a 300 watt GPU on a properly designed ATX 3.0 could be
    // supported with a 750 watt power supply with 300 watts for the CPU and another 150 watts for
    // the rest". Our rule: PSU >= sustained load, and 2 x PSU (ATX 3.0 carries 200% for 100 us)
    // >= the GPU's 3x excursion (PCIe CEM 5.0) plus the rest: max(750, (900 + 450) / 2) = 750 W.
    Config c = config("llama-3-8b", "rtx-a6000");   // 300 W workstation card
    CHECK(run(c).power.psu_w == 750);
    // Four RTX 4090 in one box, a workstation (host 550 W): sustained 4 x 450 + 550 = 2,350 W, but
    // the excursion (3 x 1,800 + 550) / 2 = 2,975 W decides.
    c = config("llama-3-70b", "rtx-4090");
    c.weights = "q4_k_m";
    c.gpus = 4;
    CHECK(run(c).power.psu_w == 2975);
    // Data-center nodes are sized to their maximum system power: DGX H100, 8 x 700 W GPUs, 10.2 kW.
    c = config("llama-3-70b", "h100-sxm");
    c.gpus = 8;
    const Report dgx = run(c);
    CHECK(dgx.power.psu_w == 10200);
    CHECK(dgx.power.system_w == 10200);
    CHECK(dgx.power.pue == 1.58);   // Uptime Institute 2023 average
    CHECK(dgx.power.facility_w == Approx(10200 * 1.58));
    // Two nodes: hosts twice, the PSU is per node.
    c.gpus = 16;
    const Report two = run(c);
    CHECK(two.interconnect.nodes == 2);
    CHECK(two.power.system_w == 20400);
    CHECK(two.power.psu_w == 10200);
}

TEST_CASE("energy and cost per million tokens, tokens per joule", "[power][derivation]") {
    Config c = serving("llama-3-8b", "h100-sxm", Runtime::vllm);
    c.batch = 32;
    c.pue = 1.2;
    c.usd_per_kwh = 0.1;
    const Report r = run(c);
    const double tps = r.speed.decode_throughput_tokens_per_s;
    REQUIRE(tps > 0);
    // One H100 (700 W) and its share of an HGX host (4,600 W / 8), at a PUE of 1.2.
    CHECK(r.power.system_w == Approx(700 + 575));
    const double facility = (700 + 575) * 1.2;
    CHECK(r.power.facility_w == Approx(facility));
    CHECK(r.power.tokens_per_joule == Approx(tps / facility));
    const double kwh = facility * 1e6 / tps / 3.6e6;   // J per million tokens -> kWh
    CHECK(r.power.energy_kwh_per_million_tokens == Approx(kwh));
    CHECK(r.power.energy_kwh == Approx(kwh));         // inference: per million generated tokens
    CHECK(r.power.cost_usd == Approx(kwh * 0.1));
    CHECK(r.power.cost_usd_per_million_tokens == Approx(kwh * 0.1));
}

TEST_CASE("a training run: energy and electricity cost", "[power][training]") {
    Config c = training("llama-3-8b", "h100-sxm", 64);
    c.zero = 1;
    c.train_tokens = 1e11;
    c.usd_per_kwh = 0.08;
    const Report r = run(c);
    REQUIRE(r.speed.train_time_s > 0);
    // 8 nodes of 8 x 700 W + 4.6 kW, at the data-center PUE, for the whole run.
    CHECK(r.power.system_w == Approx(8 * 10200));
    const double kwh = 8 * 10200 * 1.58 * r.speed.train_time_s / 3.6e6;
    CHECK(r.power.energy_kwh == Approx(kwh));
    CHECK(r.power.cost_usd == Approx(kwh * 0.08));
    CHECK(r.power.energy_kwh_per_million_tokens == Approx(kwh / 1e5));
    // Without train_tokens there is no run to price.
    c.train_tokens = 0;
    CHECK(run(c).power.energy_kwh == 0);
}

TEST_CASE("hardware price from the catalog", "[power]") {
    Config c = config("llama-3-70b", "rtx-4090");
    c.weights = "q4_k_m";
    c.gpus = 2;
    Report r = run(c);
    CHECK(r.power.hardware_price_known);
    CHECK(r.power.hardware_usd == 2 * 1599);   // launch MSRP
    c = config("llama-3-8b", "l4");   // no citable purchase price
    r = run(c);
    CHECK_FALSE(r.power.hardware_price_known);
    const auto j = nlohmann::json::parse(report_to_json(r));
    CHECK(j["power"]["hardware_usd"].is_null());
    for (const char* k : {"gpu_w", "system_w", "psu_w", "heat_btu_h", "energy_kwh", "cost_usd"}) CHECK(j["power"].contains(k));
}

TEST_CASE("Apple machines: the catalog's figure is the whole machine", "[power]") {
    Config c = config("llama-3-8b", "m2-ultra-192gb");   // Mac Studio M2 Ultra: 295 W maximum
    Report r = run(c);
    CHECK(r.power.host_w == 0);
    CHECK(r.power.system_w == 295);
    c.gpu = "m3-max-128gb";   // no published maximum: the report says so instead of guessing
    r = run(c);
    CHECK(r.power.gpu_w == 0);
    CHECK(has_warning(r, "board power"));
}

TEST_CASE("host power by platform: desktop, workstation, PCIe server, HGX node, one-chip box", "[power]") {
    struct Case { const char* gpu; int gpus; const char* platform; double host_w; };
    const Case cases[] = {
        {"rtx-4090", 1, "desktop", 450},                  // Intel's ATX 3.0 example: CPU 300 W + 150 W
        {"rtx-4090", 2, "desktop", 450},
        {"rtx-4090", 4, "workstation", 550},              // a 350 W Threadripper PRO / Xeon W + 150 W, ~92% supply
        {"rtx-pro-6000-blackwell", 3, "workstation", 550},
        {"rtx-4090", 8, "pcie_server", 1800},             // more than a tower holds: a two-socket PCIe server, 1.8 kW per 8 GPUs
        {"l40s", 8, "pcie_server", 1800},
        {"l40s", 1, "pcie_server", 1800.0 / 8},           // a data-center card's share of its node, as a cloud instance
        {"h100-sxm", 8, "hgx_node", 4600},                // DGX H100: 10.2 kW - 8 x 700 W
        {"h100-sxm", 1, "hgx_node", 575},
        {"dgx-spark", 1, "unified", 30},                  // gpus.json host_w: the box beside the GB10
        {"dgx-spark", 2, "unified", 60},                  // two boxes over their ConnectX-7
        {"ryzen-ai-max-395", 1, "unified", 15},
        {"m2-ultra-192gb", 1, "unified", 0},              // Apple's figure is the whole machine
    };
    for (const Case& k : cases) {
        INFO(k.gpu << " x " << k.gpus);
        Config c = config("llama-3-8b", k.gpu);
        c.gpus = k.gpus;
        const Report r = run(c);
        CHECK(r.power.host_platform == k.platform);
        CHECK(r.power.host_w == Approx(k.host_w));
        CHECK(r.power.system_w == Approx(r.power.gpu_w + k.host_w));
        const auto j = nlohmann::json::parse(report_to_json(r));
        CHECK(j["power"]["host_platform"] == k.platform);
    }
    // A one-chip box's supply is what it draws: the chip and the rest (no desktop transients).
    Config spark = config("llama-3-8b", "dgx-spark");
    CHECK(run(spark).power.psu_w == Approx(140 + 30));
    // A workstation's supply carries the GPUs' 3x excursions beside its host (ATX 3.0): 4 x 450 W.
    Config tower = config("llama-3-8b", "rtx-4090");
    tower.gpus = 4;
    CHECK(run(tower).power.psu_w == Approx(std::max(4 * 450.0 + 550, (3 * 4 * 450.0 + 550) / 2)));
}

TEST_CASE("power keys: bad values name the key", "[power][errors]") {
    struct Bad { const char* json; const char* mentions; const char* also; };
    const Bad cases[] = {
        {R"({"model": "llama-3-8b", "utilization": 0})", "utilization", "between"},
        {R"({"model": "llama-3-8b", "utilization": 1.5})", "utilization", "between"},
        {R"({"model": "llama-3-8b", "utilization": "full"})", "utilization", "number"},
        {R"({"model": "llama-3-8b", "pue": 0.9})", "pue", "between 1 and 3"},
        {R"({"model": "llama-3-8b", "pue": true})", "pue", "number"},
        {R"({"model": "llama-3-8b", "usd_per_kwh": -0.1})", "usd_per_kwh", "between 0 and 10"},
        {R"({"model": "llama-3-8b", "usd_per_kwh": "15c"})", "usd_per_kwh", "number"},
    };
    for (const Bad& b : cases) {
        INFO(b.json);
        try {
            (void)config_from_json(b.json);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find(b.mentions) != std::string::npos);
            CHECK(std::string(e.what()).find(b.also) != std::string::npos);
        }
    }
    // The same checks guard estimate() for configurations built in code (the UI).
    Config c = config("llama-3-8b");
    c.pue = 0.5;
    CHECK_THROWS_WITH(run(c), Catch::Contains("pue"));
    c.pue = 0;
    c.utilization = std::nan("");
    CHECK_THROWS_WITH(run(c), Catch::Contains("utilization"));
}
