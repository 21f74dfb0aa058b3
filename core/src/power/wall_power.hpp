// power/wall_power.hpp: what a machine draws at the plug, by phase.
//
// The GPUs' board draw comes from the utilization model (performance.hpp, board_draw_fraction);
// this file adds the rest of the machine and the supply between it and the wall:
//   wall = (GPUs + host + fans) / PSU efficiency at that load,   facility = wall x PUE.
// The host draws by platform and by what its CPU does (idle, one core feeding each GPU, every
// core computing llama.cpp's CPU layers or experts, data loaders in training); the supply's
// efficiency follows the 80 PLUS curve of its tier at the share of its rating in use.
// docs/formulas.md, "Power at the wall", collects the figures and their sources.
#pragma once

#include <optional>
#include <string_view>

#include "gpusizer/gpu.hpp"

namespace gpusizer::detail {

// ---------------------------------------------------------------------------------------------
// The power supply: 80 PLUS tiers
// ---------------------------------------------------------------------------------------------

enum class PsuTier : unsigned char { plus80, bronze, silver, gold, platinum, titanium };
constexpr int kPsuTierCount = 6;
std::string_view to_string(PsuTier t);
std::optional<PsuTier> parse_psu_tier(std::string_view s);   // "80plus", "bronze", ... "titanium"
std::string psu_tier_names();                                // "80plus, bronze, ..." for messages

// The efficiency of a supply of tier `t` delivering `load` (a share of its rating, > 0): the
// program's minimum at 20 / 50 / 100% load (and 10% for Titanium), joined by a loss curve
// (power_model.cpp, psu_efficiency). `server`: the 230 V internal redundant curve data-center
// supplies are certified on; else the 115 V internal curve of desktop supplies.
double psu_efficiency(PsuTier t, bool server, double load);

// ---------------------------------------------------------------------------------------------
// The host: the machine around the GPUs
// ---------------------------------------------------------------------------------------------

enum class HostPlatform : unsigned char { desktop, workstation, pcie_server, hgx_node, unified };
std::string_view to_string(HostPlatform p);

// DC watts inside the supply, per node (servers: per 8 GPUs, scaled to the GPUs in the node).
struct HostProfile {
    double idle_w;             // CPU idle, board, memory, drives, fans at rest, NICs
    double feed_w_per_gpu;     // one CPU core busy per GPU (the engine's thread launching kernels and polling)
    double cpu_busy_w;         // every core computing (llama.cpp's CPU layers, experts in host RAM), above idle
    double loader_w_per_gpu;   // training: data-loader workers per GPU
    double peak_w;             // the most it draws: what the supply is sized for (power.psu_w)
    double fan_share;          // servers: fans and their share of the heat, of the node's draw above idle
    PsuTier tier;              // the supply it has unless the configuration says (psu_tier)
    bool server_psu;           // 230 V redundant supplies, each carrying 1 / kServerPsuRedundancy of the load
};
const HostProfile& host_profile(HostPlatform p);

// Server supplies come in redundant sets: DGX H100 has six 3.3 kW supplies for a 10.2 kW maximum
// (NVIDIA DGX H100 user guide, "Power Specifications"), so each carries about half the load: N+N.
constexpr double kServerPsuRedundancy = 2.0;

// A GPU's board draw with a model loaded and nothing to do (gpus.json idle_w, else this share of
// its board power; power_model.cpp names the readings behind each).
double gpu_idle_w(const Gpu& g);

// The machines of a configuration, as the wall sees them.
struct WallModel {
    HostPlatform platform = HostPlatform::desktop;
    int gpus_per_node = 1;
    double host_idle_w = 0;      // per node, DC
    double feed_w_per_gpu = 0;   // DC: each GPU's feeding core
    double fan_share = 0;
    double psu_capacity_w = 0;   // per node: what the installed supplies carry together
    PsuTier tier = PsuTier::gold;
    bool server_psu = false;
    bool wall_metered = false;   // Apple: the catalog's figures are already at the wall
};

// The DC load of one node: its GPUs drawing `gpu_w_node` together, the host at rest, its feeding
// cores (`feeding`: not at idle) and `host_extra_w` more (CPU layers, loaders), fans on the rise.
double node_dc_watts(const WallModel& m, int gpus_node, double gpu_w_node, double host_extra_w, bool feeding = true);
// The whole machine at the plug, W: `gpus` GPUs drawing `gpu_w` together over as many nodes as
// they fill, each node's host `host_extra_w` above its rest and feeding cores.
double wall_watts(const WallModel& m, int gpus, double gpu_w, double host_extra_w = 0, bool feeding = true);
// The efficiency the supplies of one node run at under that load.
double node_psu_efficiency(const WallModel& m, double dc_w_node);

}  // namespace gpusizer::detail
