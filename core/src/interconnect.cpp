// interconnect.cpp: the fabric of a configuration and the time of each collective on it.
// The formulas and constants are in interconnect.hpp and docs/formulas.md ("Interconnect").
#include "interconnect.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "gpusizer/measured.hpp"

namespace gpusizer::detail {

namespace {

constexpr long long kUnbounded = 1LL << 40;   // the network: as many GPUs as there are

const char* pcie_id(const Gpu& g) {
    switch (g.pcie_gen) {
        case 3: return "pcie3";
        case 4: return "pcie4";
        case 5: return "pcie5";
        default: return g.pcie_gen > 5 ? "pcie5" : "pcie4";
    }
}

const char* nvlink_id_for_bandwidth(double bidirectional_gb_per_s) {
    // NVSwitch runs at its NVLink generation's rate: 600 GB/s NVLink 3, 900 NVLink 4, 1800 NVLink 5.
    if (bidirectional_gb_per_s >= 1500) return "nvlink5";
    if (bidirectional_gb_per_s >= 800) return "nvlink4";
    if (bidirectional_gb_per_s >= 500) return "nvlink3";
    return "nvlink2";
}

// The NVLink of an architecture's generation, for the comparison of a PCIe-only card.
const char* nvlink_id_for_architecture(Architecture arch) {
    switch (arch) {
        case Architecture::turing: return "nvlink-bridge";   // TU102 cards: 2-way bridge only
        case Architecture::cdna2: case Architecture::cdna3: case Architecture::cdna4: return "infinity-fabric";
        default: break;
    }
    switch (nvlink_generation(arch)) {
        case 2: return "nvlink2";
        case 3: return "nvlink3";
        case 4: return "nvlink4";
        case 5: return "nvlink5";
        default: return nullptr;
    }
}

LinkLevel level_of(const Link& l, double bw_gb_per_s, long long domain) {
    LinkLevel v;
    v.link = &l;
    v.bw = bw_gb_per_s * 1e9;
    v.efficiency = l.busbw_efficiency > 0 ? l.busbw_efficiency : kBusBandwidthEfficiency;
    v.lat_ll = l.latency_us * 1e-6;
    v.lat_simple = l.latency_large_us * 1e-6;
    v.domain = domain;
    return v;
}

constexpr double kNoP2pExtraLatency = (14.0 - 0.48) * 1e-6;  // seconds per transfer, measured (build_fabric)

double lane_factor(const Gpu& g) { return g.pcie_lanes > 0 ? std::min(1.0, g.pcie_lanes / 16.0) : 1.0; }

}  // namespace

DefaultLinkIds default_link_ids(const Gpu& g) {
    DefaultLinkIds d{};
    d.pcie = g.pcie_gen > 0 ? pcie_id(g) : nullptr;
    if (g.segment == Segment::apple) {
        d.intra = nullptr;   // unified memory, one GPU per machine
    } else if (g.link == NvlinkKind::nvswitch) {
        // The generation comes from the datasheet figure: a measured one (--measured) is lower
        // (740 of 900 GB/s on an H100) and must not turn NVLink 4 into NVLink 3.
        double datasheet_bw = g.nvlink_gb_per_s;
        if (g.calibration)
            if (const CalibratedFigure* f = g.calibration->find("nvlink_gb_per_s"); f && f->datasheet > 0) datasheet_bw = f->datasheet;
        d.intra = nvlink_id_for_bandwidth(datasheet_bw);
    } else if (g.link == NvlinkKind::mesh) {
        d.intra = "nvlink2";
    } else if (g.link == NvlinkKind::infinity_fabric) {
        d.intra = "infinity-fabric";
    } else if (g.link == NvlinkKind::bridge) {
        d.intra = "nvlink-bridge";
    } else {
        d.intra = d.pcie;
    }
    // Between nodes: DGX H100/B200-class systems ship 400 Gb/s NDR per GPU, DGX A100-class 200 Gb/s
    // HDR; PCIe servers, workstations and desktops are assumed on 100 GbE.
    const bool scale_out = g.link == NvlinkKind::nvswitch || g.link == NvlinkKind::mesh || g.link == NvlinkKind::infinity_fabric;
    d.scale_out = scale_out;
    if (g.segment == Segment::datacenter && scale_out &&
        (g.arch == Architecture::hopper || g.arch == Architecture::blackwell || g.arch == Architecture::cdna3 ||
         g.arch == Architecture::cdna4))
        d.inter = "infiniband-ndr";
    else if (g.segment == Segment::datacenter && scale_out)
        d.inter = "infiniband-hdr";
    else
        d.inter = "ethernet-100g";
    // The other kind of link for the comparison: NVLink-class cards against their PCIe, PCIe cards
    // against their generation's NVLink (hypothetical when the card has none).
    if (d.intra && d.pcie && std::strncmp(d.intra, "pcie", 4) != 0) {
        d.alternative = d.pcie;
        d.alternative_hypothetical = false;
    } else {
        d.alternative = nvlink_id_for_architecture(g.arch);
        d.alternative_hypothetical = true;
    }
    return d;
}

namespace {

Fabric build_fabric(const Gpu& g, const GpuLinks& d, const Link* intra, const Link* inter) {
    Fabric f;
    f.defaults = d;
    // The GPU's own link, whether left to the default or named explicitly (a resolved
    // configuration names it: the round trip must give the same numbers).
    const bool default_intra = intra == nullptr || intra == d.intra;
    if (!intra) intra = d.intra;
    if (!inter) inter = d.inter;
    f.inter = inter;
    if (intra && intra->scope == LinkScope::inter_node) {
        // Every GPU in its own node, all traffic over this network link.
        f.level[0] = level_of(*intra, intra->bandwidth_gb_per_s, kUnbounded);
        f.levels = 1;
        f.intra = intra;
        f.inter = intra;
        f.node_size = 1;
        return f;
    }
    if (intra) {
        double bw = intra->bandwidth_gb_per_s;
        // A GPU's own NVLink bridge / Infinity Fabric / NVLink mesh figure is more precise than
        // the generic link's (A100 PCIe and H100 PCIe bridges: 600 GB/s, MI250X: 700).
        if (default_intra && intra->kind != LinkKind::pcie && g.nvlink_gb_per_s > 0) bw = g.nvlink_gb_per_s / 2.0;
        if (intra->kind == LinkKind::pcie) bw *= lane_factor(g);   // an x8 card (RTX 4060 Ti) gets half
        f.level[f.levels++] = level_of(*intra, bw, std::max(1, intra->gpus_per_node));
        if (intra->kind == LinkKind::pcie && !g.p2p) {
            // No PCIe peer-to-peer (GeForce RTX 40/50 in the stock driver): NCCL stages each
            // transfer through host memory. Measured on 2x RTX 5090 at PCIe 5.0 x8 with and without
            // the patched P2P driver: 24 vs 28 GB/s per direction, 14 vs 0.48 us latency
            // (wumeicn.com, "NVIDIA RTX 5090 P2P Support Enabled by Patched Driver", Dec 2025).
            // The latency is what changes; the bandwidth stays the link's (within 15% there).
            LinkLevel& l = f.level[f.levels - 1];
            l.lat_ll += kNoP2pExtraLatency;
            l.lat_simple += kNoP2pExtraLatency;
        }
        f.intra = intra;
        f.node_size = std::max(1, intra->gpus_per_node);
        if (intra->kind == LinkKind::nvlink_bridge && d.pcie) {
            // Bridged pairs talk to other pairs over PCIe inside the box.
            const Link& p = *d.pcie;
            const long long box = std::max<long long>(f.level[0].domain, p.gpus_per_node);
            f.level[f.levels++] = level_of(p, p.bandwidth_gb_per_s * lane_factor(g), box);
            f.node_size = int(box);
        }
    }
    if (inter) f.level[f.levels++] = level_of(*inter, inter->bandwidth_gb_per_s, kUnbounded);
    else if (f.levels > 0) f.level[f.levels - 1].domain = kUnbounded;
    return f;
}

}  // namespace

Fabric make_fabric(const Gpu& g, const Catalog& cat, const Link* intra, const Link* inter) {
    if (cat.links.empty()) return Fabric{};
    return build_fabric(g, cat.default_links(g), intra, inter);
}

Fabric alternative_fabric(const Gpu& g, const Catalog& cat, const Fabric& current) {
    if (cat.links.empty()) return Fabric{};
    const GpuLinks& d = current.defaults;
    const Link* alt = nullptr;
    bool hypothetical = false;
    if (current.intra && current.intra->kind == LinkKind::pcie) {
        // A PCIe fabric: compare with the GPU's own NVLink, or (hypothetically) its generation's.
        if (d.intra && d.intra->kind != LinkKind::pcie) {
            alt = d.intra;
        } else {
            alt = d.alternative;
            hypothetical = true;
        }
    } else if (current.intra && current.intra->scope == LinkScope::intra_node) {
        alt = d.pcie;
    } else {
        alt = d.intra;   // a network-only choice: compare with the GPU's own
    }
    if (!alt) return Fabric{};
    Fabric f = build_fabric(g, d, alt, current.inter);
    f.hypothetical = hypothetical;
    return f;
}

Span span_of(const Fabric& f, long long n, long long stride) {
    Span s;
    s.n = int(n);
    if (n <= 1 || f.levels == 0) return s;
    stride = std::max<long long>(1, stride);
    const long long reach = (n - 1) * stride;   // index distance from the first to the last GPU
    int top = f.levels - 1;
    for (int k = 0; k < f.levels; ++k)
        if (reach < f.level[k].domain) { top = k; break; }
    // Levels the group actually uses: the top one, and every lower one that holds two members.
    double busbw = f.level[top].bw * f.level[top].efficiency;
    int lowest = top;
    for (int k = 0; k < top; ++k)
        if (stride < f.level[k].domain) {
            busbw = std::min(busbw, f.level[k].bw * f.level[k].efficiency);   // the slowest level bounds the ring
            lowest = std::min(lowest, k);
        }
    s.busbw = busbw;
    s.lat_in_ll = f.level[lowest].lat_ll;
    s.lat_in_simple = f.level[lowest].lat_simple;
    s.lat_out_ll = f.level[top].lat_ll;
    s.lat_out_simple = f.level[top].lat_simple;
    if (top > 0) {
        // Domains of the level below the top that the group spans (nodes, bridged pairs).
        const long long per_unit = std::max<long long>(1, f.level[top - 1].domain / stride);
        s.units = (n + per_unit - 1) / per_unit;
    } else {
        s.units = 1;
    }
    return s;
}

namespace {

// NCCL's ring time for `steps` steps, `outer` of which cross the top level, moving
// `wire_bytes` per GPU; the faster of LL and Simple.
double ring_seconds(const Span& s, double steps, double outer, double wire_bytes) {
    if (s.n <= 1 || s.busbw <= 0) return 0;
    const double inner = steps - outer;
    const double ll = kNcclBaseLatencyLL + inner * s.lat_in_ll + outer * s.lat_out_ll +
                      wire_bytes / (s.busbw * kNcclLLBandwidthShare);
    const double simple = kNcclBaseLatencySimple + inner * s.lat_in_simple + outer * s.lat_out_simple + wire_bytes / s.busbw;
    return std::min(ll, simple);
}

}  // namespace

double allreduce_seconds(const Span& s, double bytes) {
    // nccl-tests: an all-reduce moves 2(n-1)/n of the buffer per GPU in 2(n-1) steps; NCCL
    // counts 2(nodes-1) of them on the network.
    const double n = s.n;
    return ring_seconds(s, 2.0 * (n - 1.0), 2.0 * double(s.units - 1), bytes * 2.0 * (n - 1.0) / n);
}

double reduce_scatter_seconds(const Span& s, double bytes) {
    const double n = s.n;
    return ring_seconds(s, n - 1.0, double(s.units - 1), bytes * (n - 1.0) / n);
}

double all_to_all_seconds(const Span& s, double bytes) {
    // Each GPU keeps 1/n of what it holds and sends the rest, one peer at a time.
    const double n = s.n;
    return ring_seconds(s, n - 1.0, double(s.units - 1), bytes * (n - 1.0) / n);
}

double p2p_seconds(const Fabric& f, long long distance, double bytes) {
    if (f.levels == 0 || distance <= 0) return 0;
    int k = f.levels - 1;
    for (int i = 0; i < f.levels; ++i)
        if (distance < f.level[i].domain) { k = i; break; }
    const LinkLevel& l = f.level[k];
    return kNcclBaseLatencyLL + l.lat_ll + bytes / (l.bw * kBusBandwidthEfficiency);
}

}  // namespace gpusizer::detail
