// test_cost.cpp: electricity at the wall's draw, owning, renting, and buying's break-even, by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using json = nlohmann::json;

TEST_CASE("cost of a desktop decoding: electricity, owning, renting and the break-even by hand", "[cost]") {
    // Llama 3.1 8B Q4_K_M on one RTX 4090 at home, with the prices given: the card $1,600, the
    // desktop around it $500, rented at $0.40 per GPU-hour, electricity $0.15/kWh, paid off over
    // 4 years, busy all the time.
    Config c = config("llama-3.1-8b", "rtx-4090");
    c.weights = "q4_k_m";
    c.gpu_usd = 1600;
    c.host_usd = 500;
    c.rent_usd_per_gpu_hour = 0.40;
    const Report r = run(c);
    const CostReport& k = r.cost;
    const double tps = r.speed.decode_throughput_tokens_per_s;   // one sequence: its decode speed
    const double per_million_h = 1e6 / (tps * 3600.0);           // hours to generate a million tokens
    // Electricity: the machine at the wall (PUE 1 at home) x the price.
    const double elec_h = r.power.wall_w / 1000.0 * 0.15;
    CHECK(k.electricity_usd_per_hour == Approx(elec_h));
    CHECK(k.electricity_usd_per_million_tokens == Approx(elec_h * per_million_h));
    // Owning: $2,100 over 4 x 8,766 hours.
    CHECK(k.hardware_usd == 2100);
    CHECK(k.hardware_usd_per_hour == Approx(2100.0 / (4 * 8766)));
    CHECK(k.hardware_usd_per_million_tokens == Approx(2100.0 / (4 * 8766) * per_million_h));
    CHECK(k.own_usd_per_million_tokens == Approx((2100.0 / (4 * 8766) + elec_h) * per_million_h));
    // Renting: $0.40 an hour, electricity included.
    CHECK(k.rent_usd_per_hour == Approx(0.40));
    CHECK(k.rent_usd_per_million_tokens == Approx(0.40 * per_million_h));
    // Buying pays off when the rent saved, less the power the owner pays, reaches the price:
    // 2,100 / ((0.40 - elec_h) x 730.5 h a month). With the wall's ~0.45 kW (6.7 cents an hour),
    // about 8.6 months.
    const double months = 2100.0 / ((0.40 - elec_h) * 730.5);
    CHECK(k.buy_break_even_months == Approx(months));
    CHECK(months > 8);
    CHECK(months < 10);
    // Busy half the time: owning costs twice as much per hour of use, and the rent saved per month
    // halves, so the break-even doubles.
    c.duty_cycle = 0.5;
    const Report half = run(c);
    CHECK(half.cost.hardware_usd_per_hour == Approx(2 * k.hardware_usd_per_hour));
    CHECK(half.cost.buy_break_even_months == Approx(2 * months));
    // Rent below the electricity: owning never pays off.
    c.duty_cycle = 1;
    c.rent_usd_per_gpu_hour = 0.01;
    const Report cheap = run(c);
    CHECK(cheap.cost.buy_never_pays_off);
    CHECK(cheap.cost.buy_break_even_months == 0);
    CHECK(json::parse(report_to_json(cheap))["cost"]["buy_break_even_months"].is_null());
}

TEST_CASE("cost: the catalog's prices by default, each with its date", "[cost]") {
    Config c = config("llama-3-70b", "h100-sxm");
    c.gpus = 2;
    const Report r = run(c);
    const CostReport& k = r.cost;
    // The GPU's price_usd and the median of the table's on-demand rows for an H100 SXM.
    std::vector<double> rows;
    for (const RentPrice& p : catalog().rent_prices)
        if (p.gpu == "h100-sxm" && p.kind == "on_demand") rows.push_back(p.usd_per_gpu_hour);
    REQUIRE(rows.size() >= 3);
    std::sort(rows.begin(), rows.end());
    const std::size_t n = rows.size();
    const double median = n % 2 ? rows[n / 2] : 0.5 * (rows[n / 2 - 1] + rows[n / 2]);
    CHECK(k.rent_known);
    CHECK(k.rent_rows == int(n));
    CHECK(k.rent_usd_per_gpu_hour == Approx(median));
    CHECK(k.rent_min_usd_per_gpu_hour == rows.front());
    CHECK(k.rent_max_usd_per_gpu_hour == rows.back());
    CHECK(k.rent_date.size() >= 4);
    CHECK(k.rent_usd_per_hour == Approx(2 * median));
    CHECK(k.gpu_usd == *catalog().gpu("h100-sxm").price_usd);
    // A data center: the facility's PUE is in the electricity.
    CHECK(k.electricity_usd_per_hour == Approx(r.power.wall_w * r.power.pue / 1000.0 * c.usd_per_kwh));
    // Spot prices are their own kind; one provider's rows its own median.
    c.rent_kind = "spot";
    const Report spot = run(c);
    CHECK(spot.cost.rent_kind == "spot");
    CHECK(spot.cost.rent_usd_per_gpu_hour <= k.rent_usd_per_gpu_hour);
    c.rent_kind = "";
    c.rent_provider = "Lambda-typo";
    CHECK_THROWS_WITH(run(c), Catch::Contains("rent_provider") && Catch::Contains("RunPod"));
}

TEST_CASE("cost: a training run, and prices that are not known", "[cost]") {
    Config c = hgx_h100_8b_training();
    c.train_tokens = 1e10;
    const Report r = run(c);
    // The run holds its machines for the wall time: the steps' time over the run's goodput.
    REQUIRE(r.speed.train_goodput_fraction > 0);
    const double hours = r.speed.train_time_s / r.speed.train_goodput_fraction / 3600.0;
    CHECK(r.cost.electricity_usd_per_run == Approx(r.cost.electricity_usd_per_hour * hours));
    CHECK(r.cost.rent_usd_per_run == Approx(8 * r.cost.rent_usd_per_gpu_hour * hours));
    CHECK(r.cost.own_usd_per_run == Approx((r.cost.hardware_usd_per_hour + r.cost.electricity_usd_per_hour) * hours));
    const json j = json::parse(report_to_json(r));
    CHECK(j["cost"]["rent_usd_per_million_tokens"].is_null());   // per run in training
    CHECK(j["cost"]["rent_usd_per_run"].is_number());
    // A GPU without a price and without rental rows: the figures are null, not zero.
    Config m = config("llama-3-8b", "m3-max-128gb");
    const json jm = json::parse(report_to_json(run(m)));
    CHECK(jm["cost"]["hardware_usd"].is_null());
    CHECK(jm["cost"]["rent_usd_per_gpu_hour"].is_null());
    CHECK(jm["cost"]["buy_break_even_months"].is_null());
    CHECK(jm["cost"]["electricity_usd_per_million_tokens"].is_number());
}
