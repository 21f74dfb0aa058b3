// cost/cost.cpp: what a job costs, as people decide it (cost/cost.hpp, gpusizer/report.hpp
// CostReport): electricity at the wall's draw, owning the hardware, renting it.
//
// Per hour of use, each way:
//   electricity = power.facility_wall_w / 1000 x usd_per_kwh
//   owning      = (GPUs x gpu_usd + hosts) / (lifetime_years x 8,766 h x duty_cycle) + electricity
//   renting     = GPUs x rent_usd_per_gpu_hour              (the provider pays the power)
// per million tokens: the hour's cost / (tokens per second x 3,600) x 10^6; per training run:
// the hour's cost x the run's hours. Buying pays off after
//   hardware / ((renting - electricity) x 730.5 h x duty_cycle) months.
#include "cost/cost.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "gpusizer/error.hpp"
#include "power/power.hpp"

// The widget's module compiles this file with GPUSIZER_COST=0 (web/CMakeLists.txt): no cost.
#ifndef GPUSIZER_COST
#define GPUSIZER_COST 1
#endif

namespace gpusizer::detail {

#if GPUSIZER_COST
namespace {

constexpr double kHoursPerYear = 8766.0;               // 365.25 days x 24 h
constexpr double kHoursPerMonth = kHoursPerYear / 12;  // 730.5 h

// The machines' price around the GPUs: the configuration's per machine, else the median of
// prices.json's hosts for the platform. Servers are priced per 8 GPUs (a share, as their power
// is); desktops and workstations per machine. Returns 0 when unknown.
double hosts_usd(const Config& c, const Catalog* cat, std::string_view platform, int gpus, int nodes) {
    const bool server = platform == "pcie_server" || platform == "hgx_node";
    if (platform == "unified") return 0.0;   // the price of a one-chip box is the chip's (price_usd)
    if (c.host_usd) return server ? *c.host_usd * gpus / 8.0 : *c.host_usd * nodes;
    if (!cat) return 0.0;
    // The median of the platform's rows (a handful: kept on the stack, no allocation per estimate).
    double per[16];   // per machine (desktops) or per GPU (servers)
    std::size_t n = 0;
    for (const HostPrice& h : cat->host_prices)
        if (h.platform == platform && n < std::size(per)) per[n++] = server ? h.usd / h.gpus : h.usd;
    if (n == 0) return 0.0;
    std::sort(per, per + n);
    const double median = n % 2 ? per[n / 2] : 0.5 * (per[n / 2 - 1] + per[n / 2]);
    return server ? median * gpus : median * nodes;
}

}  // namespace
#endif

void check_cost_keys(const Config& c, const Catalog& catalog) {
#if !GPUSIZER_COST
    (void)c;
    (void)catalog;
#else
    if (!c.rent_kind.empty() && c.rent_kind != "on_demand" && c.rent_kind != "spot" && c.rent_kind != "community")
        throw_error("rent_kind", "'" + c.rent_kind.substr(0, 40) + "' is not a kind of rental price: on_demand, spot or community");
    if (!c.rent_provider.empty()) {
        // A provider named in the price table (any GPU): another is a typo, not "no price".
        std::string names;
        bool found = false;
        for (const RentPrice& p : catalog.rent_prices) {
            found = found || p.provider == c.rent_provider;
            if (names.find(p.provider) == std::string::npos) names += (names.empty() ? "" : ", ") + p.provider;
        }
        if (!found)
            throw_error("rent_provider", "'" + c.rent_provider.substr(0, 40) + "' has no prices in assets/prices.json" +
                                             (names.empty() ? std::string(" (the catalog has no prices)") : "; its providers: " + names));
    }
#endif
}

void evaluate_cost(const Resolved& r, Report& rep) {
#if !GPUSIZER_COST
    (void)r;
    (void)rep;   // the widget's module (web/CMakeLists.txt): no cost figures
#else
    const Config& c = *r.config;
    const Gpu& g = *r.gpu;
    const PowerReport& pw = rep.power;
    CostReport& k = rep.cost;
    const int gpus = c.gpus;
    const int nodes = std::max(1, rep.interconnect.nodes);
    // The job's tokens per second: the serving load's output, else the decode batch's, or the
    // training throughput; and a training run's hours.
    const double tps = r.training            ? rep.speed.train_tokens_per_s
                       : rep.serving.active ? rep.serving.output_tokens_per_s
                                             : rep.speed.decode_throughput_tokens_per_s;
    // A run holds its machines for the wall time: the steps, and what interruptions, checkpoints,
    // evaluation and the batch ramp add (speed.train_wall_time_s, training/goodput.cpp).
    // A run that never finishes has no cost per run.
    const double run_h = r.training && !rep.speed.goodput.never_finishes
                             ? (rep.speed.train_wall_time_s > 0 ? rep.speed.train_wall_time_s : rep.speed.train_time_s) / 3600.0
                             : 0.0;
    auto per_million = [&](double usd_per_hour) { return tps > 0 ? usd_per_hour / (tps * 3600.0) * 1e6 : 0.0; };

    k.usd_per_kwh = c.usd_per_kwh;
    k.electricity_usd_per_hour = pw.facility_wall_w / 1000.0 * c.usd_per_kwh;
    if (!r.training) k.electricity_usd_per_million_tokens = per_million(k.electricity_usd_per_hour);
    k.electricity_usd_per_run = k.electricity_usd_per_hour * run_h;

    // Owning.
    k.lifetime_years = c.lifetime_years;
    k.duty_cycle = c.duty_cycle;
    k.gpu_price_known = c.gpu_usd || g.price_usd;
    k.gpu_usd = c.gpu_usd ? *c.gpu_usd : g.price_usd.value_or(0.0);
    k.host_usd = hosts_usd(c, r.catalog, pw.host_platform, gpus, nodes);
    k.host_price_known = c.host_usd || k.host_usd > 0 || pw.host_platform == "unified";
    if (k.gpu_price_known) {
        k.hardware_usd = gpus * k.gpu_usd + k.host_usd;
        k.hardware_usd_per_hour = k.hardware_usd / (c.lifetime_years * kHoursPerYear * c.duty_cycle);
        if (!r.training) {
            k.hardware_usd_per_million_tokens = per_million(k.hardware_usd_per_hour);
            k.own_usd_per_million_tokens = k.hardware_usd_per_million_tokens + k.electricity_usd_per_million_tokens;
        }
        k.hardware_usd_per_run = k.hardware_usd_per_hour * run_h;
        k.own_usd_per_run = k.hardware_usd_per_run + k.electricity_usd_per_run;
    }

    // Renting: the configuration's price, else the catalog's rows (one provider's or all of them,
    // of the kind asked; on-demand prices are summarized once per catalog).
    k.rent_kind = c.rent_kind.empty() ? "on_demand" : c.rent_kind;
    k.rent_provider = c.rent_provider;
    if (c.rent_usd_per_gpu_hour) {
        k.rent_known = true;
        k.rent_usd_per_gpu_hour = k.rent_min_usd_per_gpu_hour = k.rent_max_usd_per_gpu_hour = *c.rent_usd_per_gpu_hour;
    } else if (r.catalog && !r.own_gpu) {   // a custom GPU is rented nowhere
        RentSummary own;
        const RentSummary* s = nullptr;
        if (c.rent_kind.empty() && c.rent_provider.empty()) {
            s = r.catalog->on_demand_rent(g);
        } else {
            own = summarize_rent(r.catalog->rent_prices, g.id, k.rent_kind, c.rent_provider);
            if (own.rows > 0) s = &own;
        }
        if (s) {
            k.rent_known = true;
            k.rent_usd_per_gpu_hour = s->median;
            k.rent_min_usd_per_gpu_hour = s->min;
            k.rent_max_usd_per_gpu_hour = s->max;
            k.rent_rows = s->rows;
            k.rent_date = s->date;
        }
    }
    if (k.rent_known) {
        k.rent_usd_per_hour = gpus * k.rent_usd_per_gpu_hour;
        if (!r.training) k.rent_usd_per_million_tokens = per_million(k.rent_usd_per_hour);
        k.rent_usd_per_run = k.rent_usd_per_hour * run_h;
        if (k.gpu_price_known) {
            const double saved_per_hour = k.rent_usd_per_hour - k.electricity_usd_per_hour;
            if (saved_per_hour > 0) k.buy_break_even_months = k.hardware_usd / (saved_per_hour * kHoursPerMonth * c.duty_cycle);
            else k.buy_never_pays_off = true;
        }
    }
#endif
}

}  // namespace gpusizer::detail
