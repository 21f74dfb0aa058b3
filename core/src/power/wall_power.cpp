// power/wall_power.cpp: the host by platform, the supply's efficiency, and the draw at the wall
// (power/wall_power.hpp).
#include "power/wall_power.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace gpusizer::detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] The supply
// ---------------------------------------------------------------------------------------------

namespace {

constexpr std::array<std::string_view, kPsuTierCount> kPsuTierNames = {"80plus", "bronze", "silver", "gold", "platinum", "titanium"};

// The 80 PLUS program's minimum efficiencies (CLEAResult, 80 PLUS certification levels), at 10%
// (Titanium only; 0 = not specified), 20%, 50% and 100% of the rated load, as the program's
// table gives them (Corsair's copy of the 115 V column agrees).
struct TierPoints {
    double at10, at20, at50, at100;
};
// 115 V internal non-redundant (desktop supplies).
constexpr std::array<TierPoints, kPsuTierCount> kDesktopCurve = {{
    {0, 0.80, 0.80, 0.80},      // 80 PLUS
    {0, 0.82, 0.85, 0.82},      // Bronze
    {0, 0.85, 0.88, 0.85},      // Silver
    {0, 0.87, 0.90, 0.87},      // Gold
    {0, 0.90, 0.92, 0.89},      // Platinum
    {0.90, 0.92, 0.94, 0.90},   // Titanium
}};
// 230 V internal redundant (data-center supplies). The program sets no plain 80 PLUS level on
// this curve: the 115 V one stands in.
constexpr std::array<TierPoints, kPsuTierCount> kServerCurve = {{
    {0, 0.80, 0.80, 0.80},
    {0, 0.81, 0.85, 0.81},
    {0, 0.85, 0.89, 0.85},
    {0, 0.88, 0.92, 0.88},
    {0, 0.90, 0.94, 0.91},
    {0.90, 0.94, 0.96, 0.91},
}};

// A supply's loss as a share of its rating, L(x) = a + b x + c x^2 at output share x: a fixed
// part (the controller, fans, switching), one in proportion, and the resistive part that grows
// with the square of the current. The fixed part is measured: Tom's Hardware's low-load test of
// an 80 PLUS Bronze 850 W supply (EVGA 850 BQ, 2016-12-18, 115 V) read 61.1% at 19.6 W, 71.8% at
// 39.7 W, 77.1% at 59.9 W and 80.5% at 79.8 W out: losses of 12.5, 15.6, 17.7 and 19.3 W, a line
// of 10.4 W + 0.12 x P, so a = 10.4 / 850 = 0.012 of the rating. b and c then pass exactly through
// the tier's 50% and 100% minimums (L = x / efficiency - x). The curve then meets the tier's 20%
// minimum, and gives the Bronze unit's own low-load readings back within 2 points
// (tests/test_wall_power.cpp); better tiers have smaller fixed losses than a Bronze unit, so at a
// few percent of the rating the figure is on the safe side.
constexpr double kPsuFixedLoss = 10.4 / 850.0;
struct Loss {
    double a, b, c;
};
constexpr Loss fit_loss(const TierPoints& p) {
    // Through the tier's three points: its lowest specified load, 50% and 100%.
    const double x1 = p.at10 > 0 ? 0.1 : 0.2, e1 = p.at10 > 0 ? p.at10 : p.at20;
    const double l1 = x1 / e1 - x1, l50 = 0.5 / p.at50 - 0.5, l100 = 1.0 / p.at100 - 1.0;
    const double d1 = (l50 - l1) / (0.5 - x1), d2 = (l100 - l50) / 0.5;
    const double c3 = (d2 - d1) / (1.0 - x1);
    const double b3 = d1 - c3 * (x1 + 0.5);
    const double a3 = l1 - b3 * x1 - c3 * x1 * x1;
    // A tier whose own points leave less fixed loss than the measured unit's (plain 80 PLUS's flat
    // 80%, Titanium's 90% at 10%) keeps its points; the others take the measured fixed part.
    if (a3 <= kPsuFixedLoss) return {a3, b3, c3};
    const double a = kPsuFixedLoss;
    // a + 0.5 b + 0.25 c = l50 and a + b + c = l100.
    const double c = (l100 - a - 2.0 * (l50 - a)) / 0.5;
    return {a, l100 - a - c, c};
}

// Each tier's curve and its best certified point, fitted at compile time (an estimate asks for
// the efficiency at several loads).
struct Curve {
    Loss loss;
    double best;
};
constexpr double max4(double a, double b, double c, double d) {
    const double ab = a > b ? a : b, cd = c > d ? c : d;
    return ab > cd ? ab : cd;
}
constexpr std::array<Curve, kPsuTierCount> curves(const std::array<TierPoints, kPsuTierCount>& t) {
    std::array<Curve, kPsuTierCount> out{};
    for (std::size_t i = 0; i < t.size(); ++i) out[i] = {fit_loss(t[i]), max4(t[i].at10, t[i].at20, t[i].at50, t[i].at100)};
    return out;
}
constexpr std::array<Curve, kPsuTierCount> kDesktopCurves = curves(kDesktopCurve);
constexpr std::array<Curve, kPsuTierCount> kServerCurves = curves(kServerCurve);

}  // namespace

std::string_view to_string(PsuTier t) { return kPsuTierNames[std::size_t(t)]; }

std::optional<PsuTier> parse_psu_tier(std::string_view s) {
    for (std::size_t i = 0; i < kPsuTierNames.size(); ++i)
        if (s == kPsuTierNames[i]) return PsuTier(i);
    if (s == "80-plus" || s == "standard") return PsuTier::plus80;
    return std::nullopt;
}

std::string psu_tier_names() {
    std::string out;
    for (std::string_view n : kPsuTierNames) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

double psu_efficiency(PsuTier t, bool server, double load) {
    const Curve& k = (server ? kServerCurves : kDesktopCurves)[std::size_t(t)];
    const Loss& l = k.loss;
    // Past the rating the supply is out of its specification: held at the 100% point's loss curve.
    const double x = std::clamp(load, 1e-4, 1.2);
    const double loss = std::max(0.0, l.a + l.b * x + l.c * x * x);
    // No better than the best point the tier certifies: between its points the curve through
    // them may bulge a point above (Titanium's 10-50-100% fit peaks at 96.8% near a third of the
    // rating), which no supply of the tier is credited with.
    return std::min(k.best, x / (x + loss));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The host by platform
// ---------------------------------------------------------------------------------------------

std::string_view to_string(HostPlatform p) {
    switch (p) {
        case HostPlatform::desktop: return "desktop";
        case HostPlatform::workstation: return "workstation";
        case HostPlatform::pcie_server: return "pcie_server";
        case HostPlatform::hgx_node: return "hgx_node";
        case HostPlatform::unified: return "unified";
    }
    return "desktop";
}

namespace {

// Desktop (one or two cards on a consumer CPU), DC inside the supply.
//   idle 40 W: a current desktop without its graphics card idles at 45-60 W at the wall through a
//   Gold supply at low load (~85%): 40-50 W inside it (see docs/formulas.md, "Power at the wall",
//   for the measurements).
//   feed 20 W per GPU: one core at full clock spinning on the GPU's stream (CUDA's default
//   synchronization spins while it has fewer contexts than cores) takes a desktop package from
//   its idle to about 20 W above it.
//   every core 90 W above idle: llama.cpp's CPU layers are bound by memory, not the cores' ALUs,
//   and keep a 105-125 W desktop CPU below its package limit.
//   loaders 15 W per GPU: two or three data-loader workers.
//   peak 450 W: Intel's ATX 3.0 design example (CPU 300 W + 150 W for the rest of the box), what
//   the supply is sized for.
constexpr HostProfile kDesktop = {40, 20, 90, 15, 450, 0.0, PsuTier::gold, false};
// Workstation (3-4 cards on a Threadripper PRO / Xeon W): a 350 W CPU idles near 90 W with its
// eight memory channels; every core computing adds the rest of its TDP (350 - 90 = 260 W). Peak
// 550 W: the CPU's 350 W + the desktop's 150 W through a ~92% supply (545 W), which a measured host
// agrees with (Puget Systems, 4 x RTX 3090 at 300 W, Xeon W-2255: 1,717 W at the wall, 1,580 W in
// the supply; thefpsreview.com, 2020-10-22). Platinum: workstation builders' 1,600 W supplies.
constexpr HostProfile kWorkstation = {90, 15, 260, 15, 550, 0.0, PsuTier::platinum, false};
// A two-socket PCIe server of 8 GPUs, per 8 GPUs. Peak 1.8 kW: ServeTheHome's rule of thumb
// (ASRock Rack 4U8G-TURIN2 review, p. 4): the CPUs at their TDP (2 x 350-500 W), memory and SSDs
// 250-300 W, NICs 15-100 W, then 10-20% for cooling. At rest: two sockets idling (2 x 100 W),
// memory, drives and NICs at their 300-400 W, fans at their floor: 500 W. Every core computing:
// the sockets' TDP above their idle, 2 x (350 - 100) = 500 W. Fans: the low end of ServeTheHome's
// 10-20% of what the node draws above its rest (the rest already holds the fans' floor).
constexpr HostProfile kPcieServer = {500, 10, 500, 20, 1800, 0.10, PsuTier::platinum, true};
// An HGX / OAM node, per 8 GPUs. Peak 4.6 kW: DGX H100's 10.2 kW maximum less 8 x 700 W GPUs
// (CPUs, NVSwitches, NICs, fans). At rest 1.3 kW: two 350 W Xeons idling (2 x 100 W), 2 TB of
// DDR5 (32 DIMMs at ~4 W), ten ConnectX-7 (~25 W each), four NVSwitch chips and the drives, the
// fans at their floor. Under load the fans take 15% of the rise (ServeTheHome's 10-20%), which
// puts a node of 8 H100 near board power at ~8 kW at the wall: Latif et al. (arXiv:2412.08602)
// measured at most 8.4 kW training Llama 2 13B on 8 H100 (the accuracy table's row).
constexpr HostProfile kHgxNode = {1300, 10, 500, 20, 4600, 0.15, PsuTier::titanium, true};
// One chip for CPU and GPU: the catalog's host_w is the rest of the box; the chip's board power
// covers its CPU cores, so feeding and computing on the CPU are in the chip's draw.
constexpr HostProfile kUnified = {0, 0, 0, 0, 0, 0.0, PsuTier::gold, false};

}  // namespace

const HostProfile& host_profile(HostPlatform p) {
    switch (p) {
        case HostPlatform::desktop: return kDesktop;
        case HostPlatform::workstation: return kWorkstation;
        case HostPlatform::pcie_server: return kPcieServer;
        case HostPlatform::hgx_node: return kHgxNode;
        case HostPlatform::unified: return kUnified;
    }
    return kDesktop;
}

// A loaded, waiting GPU, as nvidia-smi reads it with a model resident. GeForce and workstation
// cards fall to P8: two RTX 3090 holding a vLLM server read 16 and 31 W (noonghunna/club-3090
// issue #747, 2026-07-21), 23.5 W of 350 W each: 6%. Data-center boards hold a higher state while
// a context has memory: a V100 in a server reads 40 W of 250 W with a model and 27 W without
// (docs/research/wall-power.md, section 4): 15%. Boards whose own reading departs from their
// class's share carry it (gpus.json idle_w: the Tesla P40 ~50 W and the A40 ~90 W stay in P0 with
// anything in memory; two RTX 5090 at P8 read 12 and 22 W).
constexpr double kGpuIdleShareDesktop = 0.06;
constexpr double kGpuIdleShareDatacenter = 0.15;

double gpu_idle_w(const Gpu& g) {
    if (g.idle_w) return *g.idle_w;
    return g.tdp_w * (g.segment == Segment::datacenter ? kGpuIdleShareDatacenter : kGpuIdleShareDesktop);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] At the wall
// ---------------------------------------------------------------------------------------------

double node_dc_watts(const WallModel& m, int gpus_node, double gpu_w_node, double host_extra_w, bool feeding) {
    const double host = m.host_idle_w + (feeding ? m.feed_w_per_gpu * gpus_node : 0.0) + host_extra_w;
    // Fans spin up with the heat above the node's rest.
    const double rise = gpu_w_node + host - m.host_idle_w;
    return gpu_w_node + host + m.fan_share * std::max(0.0, rise);
}

double node_psu_efficiency(const WallModel& m, double dc_w_node) {
    if (m.wall_metered || m.psu_capacity_w <= 0) return 1.0;
    return psu_efficiency(m.tier, m.server_psu, dc_w_node / m.psu_capacity_w);
}

double wall_watts(const WallModel& m, int gpus, double gpu_w, double host_extra_w, bool feeding) {
    if (gpus < 1) return 0.0;
    const int per_node = std::max(1, m.gpus_per_node);
    // Full nodes, then the last one with what is left (its host whole: a node is a machine).
    const int full = gpus / per_node, rest = gpus % per_node;
    const double per_gpu = gpu_w / gpus;
    double wall = 0;
    const auto node = [&](int n) {
        const double dc = node_dc_watts(m, n, per_gpu * n, host_extra_w, feeding);
        return dc / node_psu_efficiency(m, dc);
    };
    if (full > 0) wall += full * node(per_node);
    if (rest > 0) wall += node(rest);
    return wall;
}

}  // namespace gpusizer::detail
