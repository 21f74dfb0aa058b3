// power/power.cpp: power, energy and heat of a configuration (power/power.hpp).
//
// [SECTION] The GPUs' draw by what bounds the work
// [SECTION] The machines: platform, supply, nameplate
// [SECTION] By phase, at the wall
#include "power/power.hpp"

#include <algorithm>
#include <cmath>

namespace gpusizer::detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] The GPUs' draw by what bounds the work
// ---------------------------------------------------------------------------------------------

double board_draw_fraction(const Gpu& g, double u_compute, double u_memory, double u_kv) {
    if (g.segment == Segment::apple && g.idle_w && g.tdp_w > 0) {
        // A Mac: from its idle to its maximum, memory at Apple's own share (power.hpp).
        const double floor = std::clamp(*g.idle_w / g.tdp_w, 0.0, 1.0);
        const double a_c = std::clamp(u_compute / kDrawComputeSaturation, 0.0, 1.0);
        const double a_m = std::clamp(u_memory * kDrawPerBandwidthApple, 0.0, 1.0);
        return 1.0 - (1.0 - floor) * (1.0 - a_m) * (1.0 - a_c);
    }
    const bool hbm = std::string_view(g.memory_type).substr(0, 3) == "HBM";   // HBM2e, HBM3, ... (a prefix test, inline)
    // power.hpp: each unit's share of the dynamic headroom; the idle shares multiply.
    const double a_c = std::clamp(u_compute / kDrawComputeSaturation, 0.0, 1.0);
    const double kv = std::clamp(u_kv, 0.0, std::max(0.0, u_memory));
    const double dyn = hbm ? (u_memory - kv) * kDrawPerBandwidthHbm + kv * kDrawPerKvBandwidthHbm : u_memory * kDrawPerBandwidthOther;
    const double a_m = std::clamp(dyn / (1.0 - kDrawFloor), 0.0, 1.0);
    return 1.0 - (1.0 - kDrawFloor) * (1.0 - a_m) * (1.0 - a_c);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The machines: platform, supply, nameplate
// ---------------------------------------------------------------------------------------------

namespace {

// Servers' hosts are given per 8 GPUs (wall_power.cpp), as a cloud instance carries them.
constexpr double kServerHostGpus = 8.0;

bool server_platform(HostPlatform p) { return p == HostPlatform::pcie_server || p == HostPlatform::hgx_node; }

// The share of the node's host a platform's figures are for: servers per 8 GPUs, the rest whole.
double host_scale(HostPlatform p, int per_node) { return server_platform(p) ? per_node / kServerHostGpus : 1.0; }

// A desktop supply is bought in 50 W steps at or above what it must carry.
constexpr double kPsuStepW = 50.0;

}  // namespace

WallModel wall_model(const Resolved& r, HostPlatform platform, int gpus_per_node, double psu_w) {
    const Gpu& g = *r.gpu;
    const Config& c = *r.config;
    const HostProfile& h = host_profile(platform);
    WallModel m;
    m.platform = platform;
    m.gpus_per_node = std::max(1, gpus_per_node);
    const double share = host_scale(platform, m.gpus_per_node);
    m.host_idle_w = platform == HostPlatform::unified ? g.unified_host_w.value_or(0.0) : h.idle_w * share;
    m.feed_w_per_gpu = h.feed_w_per_gpu;
    m.fan_share = h.fan_share;
    m.tier = c.psu_tier.empty() ? h.tier : parse_psu_tier(c.psu_tier).value_or(h.tier);
    m.server_psu = h.server_psu;
    // Apple's figures (gpus.json tdp_w, idle_w) are the whole machine's, measured at the wall.
    m.wall_metered = g.segment == Segment::apple;
    if (c.psu_rating_w > 0) m.psu_capacity_w = c.psu_rating_w;
    else if (h.server_psu) m.psu_capacity_w = psu_w * kServerPsuRedundancy;
    else m.psu_capacity_w = std::ceil(psu_w / kPsuStepW) * kPsuStepW;
    return m;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] By phase, at the wall
// ---------------------------------------------------------------------------------------------

void evaluate_power(const Resolved& r, const PerfInputs& in, const Fabric& f, PerfOut& out) {
    const Gpu& g = *r.gpu;
    const Config& c = *r.config;
    const Parallelism& par = r.par;
    const SpeedReport& sp = out.speed;
    const InterconnectReport& ic = out.interconnect;
    const int gpus = c.gpus;
    const double F = out.compute.flops;
    const double B = g.memory_bandwidth_gb_per_s * 1e9;
    PowerReport& pw = out.power;
    const bool apple = g.segment == Segment::apple;
    const bool hgx = f.levels > 0 ? f.defaults.scale_out
                                  : (g.link == NvlinkKind::nvswitch || g.link == NvlinkKind::mesh ||
                                     g.link == NvlinkKind::infinity_fabric || g.link == NvlinkKind::roce);
    out.pue = c.pue > 0 ? c.pue : (g.segment == Segment::datacenter ? kPueDatacenter : 1.0);
    pw.pue = out.pue;
    pw.utilization = c.utilization;
    const double tdp = g.tdp_w;
    const int nodes = f.levels > 0 ? ic.nodes : 1;
    const int per_node = (gpus + nodes - 1) / nodes;
    // The platform class. One chip for CPU and GPU (Apple, DGX Spark, Strix Halo): the chip's
    // figure covers both, and the catalog gives the rest of the box (gpus.json host_w; Apple's
    // figure is the whole machine). A node of servers (HGX/OAM, or PCIe: data-center cards, or more
    // GPUs than a tower holds) carries the node's host in shares of 8 GPUs, as a cloud instance
    // does; a tower with 3-4 GPUs a workstation's; one or two GPUs a desktop's.
    const bool unified = apple || g.unified_host_w;
    HostPlatform platform = HostPlatform::desktop;
    if (unified) platform = HostPlatform::unified;
    else if (hgx) platform = HostPlatform::hgx_node;
    else if (g.segment == Segment::datacenter || per_node > kWorkstationMaxGpus) platform = HostPlatform::pcie_server;
    else if (per_node > kDesktopMaxGpus) platform = HostPlatform::workstation;
    const HostProfile& hp = host_profile(platform);
    pw.host_platform = to_string(platform);
    const double host_node_w = unified ? g.unified_host_w.value_or(0.0) : hp.peak_w * host_scale(platform, per_node);

    // Ratings: board power times `utilization` and the hosts' peak (the figures before the draw
    // by phase; kept for the scripts that read them).
    pw.gpu_w = gpus * tdp * c.utilization;
    pw.host_w = nodes * host_node_w * c.utilization;
    pw.system_w = pw.gpu_w + pw.host_w;
    pw.facility_w = pw.system_w * out.pue;
    pw.board_w = gpus * tdp;
    pw.nameplate_w = pw.board_w + nodes * host_node_w;
    if (unified || server_platform(platform)) {
        // The machine's own supply (one-chip boxes), or a server's, sized to the most it draws.
        pw.psu_w = per_node * tdp + host_node_w;
    } else {
        // ATX 3.0: the supply must carry the sustained load, and for 100 us the GPUs' 3x excursion
        // on top of the rest, which it may do at 200% of its rating.
        const double sustained = per_node * tdp + host_node_w;
        const double spike = kGpuTransientFactor * per_node * tdp + host_node_w;
        pw.psu_w = std::max(sustained, spike / kPsuExcursionFactor);
    }
    const double tps = r.training ? sp.train_tokens_per_s : sp.decode_throughput_tokens_per_s;
    if (tps > 0 && pw.facility_w > 0) {
        pw.tokens_per_joule = tps / pw.facility_w;
        pw.energy_kwh_per_million_tokens = pw.facility_w * 1e6 / tps / 3.6e6;
        pw.cost_usd_per_million_tokens = pw.energy_kwh_per_million_tokens * c.usd_per_kwh;
    }
    pw.energy_kwh = r.training ? pw.facility_w * sp.train_time_s / 3.6e6 : pw.energy_kwh_per_million_tokens;
    pw.cost_usd = pw.energy_kwh * c.usd_per_kwh;
    pw.hardware_price_known = g.price_usd.has_value();
    pw.hardware_usd = g.price_usd ? *g.price_usd * gpus : 0.0;

    // Draw by what bounds the work: each phase's utilization of compute and memory, per GPU.
    // Pipeline stages take turns, so one GPU is busy 1 / pp of a decode step or prefill.
    const double stages = par.pp;
    if (!r.training) {
        if (sp.decode_step_s > 0) {
            const double u_m = sp.offload.active || B <= 0
                                   ? 0.0
                                   : (sp.decode_bytes_per_step - sp.decode_host_bytes_per_step) / stages / (sp.decode_step_s * B);
            const double u_c = c.batch * in.decode_flops_per_token / par.tp / stages / (sp.decode_step_s * F);
            const double u_kv = u_m > 0 ? in.kv_read_bytes_decode / stages / (sp.decode_step_s * B) : 0.0;
            pw.decode_draw_fraction = board_draw_fraction(g, u_c, u_m, u_kv);
            pw.decode_gpu_w = gpus * tdp * pw.decode_draw_fraction;
        }
        if (sp.ttft_s > 0) {
            const double T = in.prefill_tokens;
            const double u_c = T * in.prefill_flops_per_token / par.tp / stages / (sp.ttft_s * F);
            const double u_m = B <= 0 ? 0.0
                                      : std::ceil(T / prefill_chunk_tokens(r, T)) * (in.layer_weight_bytes + in.edge_read_bytes) / stages /
                                            (sp.ttft_s * B);
            pw.prefill_draw_fraction = board_draw_fraction(g, u_c, u_m);
            pw.prefill_gpu_w = gpus * tdp * pw.prefill_draw_fraction;
        }
    } else if (sp.train_step_s > 0) {
        // hfu: executed FLOPs (recomputation counted) over the step and the peak of all GPUs.
        pw.train_draw_fraction = board_draw_fraction(g, sp.hfu, 0.0);
        pw.train_gpu_w = gpus * tdp * pw.train_draw_fraction;
    }

    // At the wall. The CPU's share of a decode step: llama.cpp reading layers (partial offload)
    // or experts (n_cpu_moe) from host RAM keeps every core busy for that time.
    out.wall = wall_model(r, platform, per_node, pw.psu_w);
    const WallModel& wm = out.wall;
    pw.psu_tier = to_string(wm.tier);
    pw.psu_capacity_w = wm.psu_capacity_w;
    pw.idle_gpu_w = gpus * gpu_idle_w(g);
    pw.idle_wall_w = wall_watts(wm, gpus, pw.idle_gpu_w, 0.0, false);
    pw.host_idle_w = nodes * wm.host_idle_w;
    double cpu_share = 0;
    const double host_bw = host_read_bandwidth(out.host_bandwidth);
    if (sp.offload.active && sp.offload.decode_tokens_per_s > 0 && host_bw > 0)
        cpu_share = sp.offload.host_bytes / host_bw * sp.offload.decode_tokens_per_s;
    else if (sp.decode_host_bytes_per_step > 0 && sp.decode_step_s > 0 && host_bw > 0)
        cpu_share = sp.decode_host_bytes_per_step / host_bw / sp.decode_step_s;
    const double cpu_w = hp.cpu_busy_w * std::clamp(cpu_share, 0.0, 1.0);
    double phase_gpu_w = 0, phase_extra_w = 0;
    if (!r.training) {
        // Partial offload: the GPU waits on the CPU for most of the step, near its floor.
        const double decode_gpu_w = sp.offload.active ? gpus * tdp * kDrawFloor : pw.decode_gpu_w;
        if (sp.decode_step_s > 0) pw.decode_wall_w = wall_watts(wm, gpus, decode_gpu_w, cpu_w);
        if (sp.ttft_s > 0) pw.prefill_wall_w = wall_watts(wm, gpus, pw.prefill_gpu_w);
        phase_gpu_w = decode_gpu_w;
        phase_extra_w = cpu_w;
        pw.wall_w = pw.decode_wall_w;
        pw.wall_phase = "decode";
    } else {
        phase_extra_w = hp.loader_w_per_gpu * per_node;
        if (sp.train_step_s > 0) pw.train_wall_w = wall_watts(wm, gpus, pw.train_gpu_w, phase_extra_w);
        phase_gpu_w = pw.train_gpu_w;
        pw.wall_w = pw.train_wall_w;
        pw.wall_phase = "train";
    }
    const double node_dc = node_dc_watts(wm, per_node, phase_gpu_w / nodes, phase_extra_w);
    pw.host_active_w = nodes * (node_dc - phase_gpu_w / nodes);
    pw.psu_efficiency = node_psu_efficiency(wm, node_dc);
    pw.facility_wall_w = pw.wall_w * out.pue;
    pw.heat_w = pw.wall_w;   // every watt the machines draw ends up as heat in the room
    pw.heat_btu_h = pw.heat_w * kBtuPerHourPerWatt;

    // Energy at the draw: the phase's wall draw and the facility around it.
    const double phase_facility_w = pw.facility_wall_w;
    if (tps > 0 && phase_facility_w > 0) {
        pw.energy_kwh_per_million_tokens_at_draw = phase_facility_w * 1e6 / tps / 3.6e6;
        pw.cost_usd_per_million_tokens_at_draw = pw.energy_kwh_per_million_tokens_at_draw * c.usd_per_kwh;
    }
    if (r.training) pw.train_energy_kwh_at_draw = phase_facility_w * sp.train_time_s / 3.6e6;
}

void serving_power(PerfOut& out, const ServingReport& s, int gpus) {
    PowerReport& pw = out.power;
    const WallModel& wm = out.wall;
    pw.serving_wall_w = s.wall_w;
    pw.wall_w = s.wall_w;
    pw.wall_phase = "serving";
    const int per_node = std::max(1, std::min(wm.gpus_per_node, gpus));
    const int nodes = (gpus + per_node - 1) / per_node;
    const double node_dc = node_dc_watts(wm, per_node, s.gpu_w / nodes, 0.0);
    pw.host_active_w = nodes * (node_dc - s.gpu_w / nodes);
    pw.psu_efficiency = node_psu_efficiency(wm, node_dc);
    pw.facility_wall_w = pw.wall_w * out.pue;
    pw.heat_w = pw.wall_w;
    pw.heat_btu_h = pw.heat_w * kBtuPerHourPerWatt;
    pw.energy_kwh_per_million_tokens_at_draw = s.energy_kwh_per_million_tokens;
    pw.cost_usd_per_million_tokens_at_draw = s.cost_usd_per_million_tokens;
}

}  // namespace gpusizer::detail
