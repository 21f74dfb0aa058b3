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
// (Titanium only; 0 = not specified), 20%, 50% and 100% of the rated load.
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
// 230 V internal redundant (data-center supplies).
constexpr std::array<TierPoints, kPsuTierCount> kServerCurve = {{
    {0, 0.82, 0.85, 0.82},
    {0, 0.81, 0.85, 0.81},
    {0, 0.85, 0.89, 0.85},
    {0, 0.88, 0.92, 0.88},
    {0, 0.90, 0.94, 0.91},
    {0.90, 0.94, 0.96, 0.91},
}};

// A supply's loss as a share of its rating, L(x) = a + b x + c x^2 at output share x: a fixed
// part (the controller, fans, switching), one in proportion, and the resistive part that grows
// with the square of the current. The three coefficients pass exactly through the tier's lowest
// specified point (20%, or 10% for Titanium), 50% and 100%, where L = x / efficiency - x; below
// the lowest point the fixed part takes over and the efficiency falls, as supplies do at a few
// percent of their rating (a desktop idling on a 1,000 W supply).
struct Loss {
    double a, b, c;
};
Loss fit_loss(const TierPoints& p) {
    const double x1 = p.at10 > 0 ? 0.1 : 0.2, e1 = p.at10 > 0 ? p.at10 : p.at20;
    const double x2 = 0.5, x3 = 1.0;
    const double l1 = x1 / e1 - x1, l2 = x2 / p.at50 - x2, l3 = x3 / p.at100 - x3;
    // Divided differences of the three points.
    const double d12 = (l2 - l1) / (x2 - x1), d23 = (l3 - l2) / (x3 - x2);
    const double c = (d23 - d12) / (x3 - x1);
    const double b = d12 - c * (x1 + x2);
    const double a = l1 - b * x1 - c * x1 * x1;
    return {a, b, c};
}

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
    const TierPoints& p = (server ? kServerCurve : kDesktopCurve)[std::size_t(t)];
    const Loss l = fit_loss(p);
    // Past the rating the supply is out of its specification: held at the 100% point's loss curve.
    const double x = std::clamp(load, 1e-4, 1.2);
    const double loss = std::max(0.0, l.a + l.b * x + l.c * x * x);
    return x / (x + loss);
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

// A loaded, waiting GPU: the driver keeps the memory clock up while a context holds memory, so a
// card idles above its bare P8 figure. Shares of board power from nvidia-smi readings with a model
// loaded: consumer and workstation cards 7% (an RTX 4090 at 25-30 W of 450 W, an RTX 3090 at
// 20-30 W of 350 W); data-center boards 10% (an H100 SXM at 70 W of 700 W, an A100 SXM at 50-60 W
// of 400 W). A card with its own figure (gpus.json idle_w: the Tesla P40 stays in P0 at ~50 W
// with a model loaded) keeps it.
constexpr double kGpuIdleShareDesktop = 0.07;
constexpr double kGpuIdleShareDatacenter = 0.10;

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
