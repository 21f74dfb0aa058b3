// interconnect.cpp: the fabric of a configuration and the time of each collective on it.
// The formulas and constants are in interconnect.hpp and docs/formulas.md ("Interconnect").
#include "interconnect.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

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
        // MI50/MI60 (2 Infinity Fabric links), MI100 (3), MI200 and later: AMD's GPU-to-GPU fabric.
        case Architecture::gcn5:
        case Architecture::cdna1:
        case Architecture::cdna2:
        case Architecture::cdna3:
        case Architecture::cdna4:
            return "infinity-fabric";
        case Architecture::gaudi:
            return "gaudi-roce";   // Gaudi PCIe cards: the OAM parts' all-to-all RoCE
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
    v.nvls_efficiency = l.nvls_efficiency;
    // Infinity Fabric joins each pair of GPUs by one of its 7 links (MI300X: 64 of 448 GB/s); a
    // Gaudi box wires each pair by 3 of its 21 scale-up RoCE ports (Intel Gaudi network
    // configuration: 21/7 = 3 ports per peer), the same all-to-all shape.
    v.mesh = (l.kind == LinkKind::infinity_fabric || (l.kind == LinkKind::ethernet && l.scope == LinkScope::intra_node)) && domain > 2;
    return v;
}

// PCIe without peer-to-peer: NCCL copies through host memory (links.json no_p2p_*: 2x RTX 5090
// lose half their bandwidth and 0.48 -> 14 us of latency).
void stage_through_host(LinkLevel& v, const Link& l) {
    if (l.no_p2p_bandwidth_factor <= 0 && l.no_p2p_latency_us <= 0) return;
    v.host_staged = true;
    if (l.no_p2p_bandwidth_factor > 0) v.staged_bw_factor = l.no_p2p_bandwidth_factor;
    if (l.no_p2p_latency_us > 0) v.lat_ll = v.lat_simple = l.no_p2p_latency_us * 1e-6;
}

double lane_factor(const Gpu& g) { return g.pcie_lanes > 0 ? std::min(1.0, g.pcie_lanes / 16.0) : 1.0; }

}  // namespace

bool pcie_peer_to_peer(const Gpu& g) {
    // gpus.json's p2p field: false for GeForce RTX 40/50, whose stock driver disables PCIe
    // peer-to-peer (sources beside each entry).
    return g.p2p;
}

DefaultLinkIds default_link_ids(const Gpu& g) {
    DefaultLinkIds d{};
    d.pcie = g.pcie_gen > 0 ? pcie_id(g) : nullptr;
    if (g.segment == Segment::apple) {
        d.intra = nullptr;   // unified memory, one GPU per machine
    } else if (g.link == NvlinkKind::nvswitch) {
        // The generation is the architecture's where it has one: the A800 and H800 carry NVLink 3
        // and 4 with fewer links (400 GB/s), which the GPU's own figure then gives (build_fabric).
        // Otherwise it comes from the datasheet figure: a measured one (--measured) is lower (740
        // of 900 GB/s on an H100) and must not turn NVLink 4 into NVLink 3.
        double datasheet_bw = g.nvlink_gb_per_s;
        if (g.calibration)
            if (const CalibratedFigure* f = g.calibration->find("nvlink_gb_per_s"); f && f->datasheet > 0) datasheet_bw = f->datasheet;
        const int generation = nvlink_generation(g.arch);
        d.intra = generation >= 3 && generation <= 5 ? (generation == 3   ? "nvlink3"
                                                        : generation == 4 ? "nvlink4"
                                                                          : "nvlink5")
                                                     : nvlink_id_for_bandwidth(datasheet_bw);
    } else if (g.link == NvlinkKind::mesh) {
        d.intra = "nvlink2";
    } else if (g.link == NvlinkKind::infinity_fabric) {
        d.intra = "infinity-fabric";
    } else if (g.link == NvlinkKind::roce) {
        d.intra = "gaudi-roce";
    } else if (g.link == NvlinkKind::bridge) {
        d.intra = "nvlink-bridge";
    } else {
        d.intra = d.pcie;
    }
    // Between nodes: DGX H100/B200-class systems ship 400 Gb/s NDR per GPU, DGX A100-class 200 Gb/s
    // HDR; PCIe servers, workstations and desktops are assumed on 100 GbE.
    const bool scale_out =
        g.link == NvlinkKind::nvswitch || g.link == NvlinkKind::mesh || g.link == NvlinkKind::infinity_fabric || g.link == NvlinkKind::roce;
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
        if (intra->kind == LinkKind::pcie && !pcie_peer_to_peer(g)) stage_through_host(f.level[f.levels - 1], *intra);
        f.intra = intra;
        f.node_size = std::max(1, intra->gpus_per_node);
        if (intra->kind == LinkKind::nvlink_bridge && d.pcie) {
            // Bridged pairs talk to other pairs over PCIe inside the box.
            const Link& p = *d.pcie;
            const long long box = std::max<long long>(f.level[0].domain, p.gpus_per_node);
            f.level[f.levels++] = level_of(p, p.bandwidth_gb_per_s * lane_factor(g), box);
            if (!pcie_peer_to_peer(g)) stage_through_host(f.level[f.levels - 1], p);
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
    set_pods(f, current.pod_gpus, current.pod_oversubscription, current.job_gpus);
    return f;
}

namespace {

// Achievable bandwidth of a level for a group with `members` GPUs in one of its domains.
double level_busbw(const LinkLevel& l, long long members) {
    double bw = l.bw * l.efficiency * l.staged_bw_factor;
    // A mesh gives m GPUs of a domain m - 1 of its domain - 1 pair links each: 8 MI300X use all 7
    // links (448 GB/s), 2 of them one (64 GB/s).
    if (l.mesh && members < l.domain) bw *= double(std::max<long long>(1, members - 1)) / double(l.domain - 1);
    return bw;
}

}  // namespace

Span span_of(const Fabric& f, long long n, long long stride) {
    Span s;
    s.n = int(n);
    if (n <= 1 || f.levels == 0) return s;
    stride = std::max<long long>(1, stride);
    const long long reach = (n - 1) * stride;   // index distance from the first to the last GPU
    int top = f.levels - 1;
    for (int k = 0; k < f.levels; ++k)
        if (reach < f.level[k].domain) { top = k; break; }
    // Domains of the level below the top that the group spans (nodes, bridged pairs), and the
    // members in each.
    if (top > 0) {
        const long long per_unit = std::max<long long>(1, f.level[top - 1].domain / stride);
        s.units = (n + per_unit - 1) / per_unit;
    } else {
        s.units = 1;
    }
    s.local = (n + s.units - 1) / s.units;
    // Levels the group actually uses: the top one, and every lower one that holds two members.
    const LinkLevel& t = f.level[top];
    s.rails = t.link && t.link->scope == LinkScope::inter_node && s.units > 1;
    s.busbw_out = level_busbw(t, s.units > 1 ? s.units : n);
    int lowest = top;
    double inner = 0;
    for (int k = 0; k < top; ++k)
        if (stride < f.level[k].domain) {
            const long long members = std::min<long long>(n, (f.level[k].domain + stride - 1) / stride);
            const double b = level_busbw(f.level[k], members);
            inner = inner > 0 ? std::min(inner, b) : b;
            lowest = std::min(lowest, k);
        }
    s.busbw_in = inner;
    // The ring: the slowest level bounds it. Across a rail-optimized network NCCL runs one ring
    // channel per NIC, so the `local` GPUs of a node cross it side by side: `local` x one NIC.
    double out_ring = s.busbw_out * (s.rails ? double(s.local) : 1.0);
    // Network pods (Fabric::pod_gpus): a group whose GPUs lie in several pods crosses their
    // oversubscribed uplinks. Every group of its kind runs the same collective at the same moment
    // (all data-parallel replicas sync together), so a pod's uplinks serve all of its GPUs: what
    // each GPU sends out of its pod goes at pod_uplink_share of its NIC's rate. A ring leaves each
    // pod once per channel: each of the pod_gpus / pod_members groups with members in the pod sends
    // `local` flows (one per rail) through uplinks that carry pod_gpus / oversubscription NICs'
    // worth, so the ring slows by local x oversubscription / pod_members when that exceeds 1 (the
    // Llama 3 paper's point, sec. 3.3.1: rings and trees cross pods rarely; all-to-alls do not).
    if (t.link && t.link->scope == LinkScope::inter_node && s.units > 1 && f.pod_gpus > 0) {
        const long long extent = reach + 1;   // GPU indices from the group's first member to its last
        s.pods = std::min<long long>(n, (extent + f.pod_gpus - 1) / f.pod_gpus);
        if (s.pods > 1) {
            const double oversubscription = std::max(1.0, f.pod_oversubscription);
            s.pod_members = double(n) / double(s.pods);
            s.pod_uplink_share = 1.0 / oversubscription;
            const double flows_per_uplink = (s.rails ? double(s.local) : 1.0) * oversubscription / s.pod_members;
            s.pod_ring_slowdown = std::max(1.0, flows_per_uplink);
            out_ring /= s.pod_ring_slowdown;
        }
    }
    s.busbw = inner > 0 ? std::min(inner, out_ring) : out_ring;
    s.lat_in_ll = f.level[lowest].lat_ll;
    s.lat_in_simple = f.level[lowest].lat_simple;
    s.lat_out_ll = t.lat_ll;
    s.lat_out_simple = t.lat_simple;
    // NVLink SHARP: one switch domain (no lower level in use), an NVLS-capable switch, 5+ GPUs.
    if (t.nvls_efficiency > 0 && lowest == top && s.units == 1 && n >= kNvlsMinGpus) s.nvls_algbw = t.bw * t.nvls_efficiency;
    return s;
}

const char* algorithm_name(CollectiveAlgorithm a) {
    // In the enum's order (the report's `allreduce_algorithm` values).
    static constexpr const char* kNames[] = {"none", "ring", "tree", "nvls", "hierarchical"};
    static_assert(std::size(kNames) == std::size_t(CollectiveAlgorithm::hierarchical) + 1, "one name per algorithm");
    const auto i = std::size_t(a);
    return i < std::size(kNames) ? kNames[i] : "none";
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

double ring_allreduce_seconds(const Span& s, double bytes) {
    // nccl-tests: an all-reduce moves 2(n-1)/n of the buffer per GPU in 2(n-1) steps; NCCL
    // counts 2(nodes-1) of them on the network.
    const double n = s.n;
    return ring_seconds(s, 2.0 * (n - 1.0), 2.0 * double(s.units - 1), bytes * 2.0 * (n - 1.0) / n);
}

double tree_allreduce_seconds(const Span& s, double bytes) {
    // NCCL's double binary tree spans nodes: a chain inside each node (local - 1 hops up, as many
    // down) and log2(nodes) hops between nodes each way; its bus bandwidth is 0.92 of the ring's and
    // its algorithm bandwidth half of that (the buffer goes up the tree and back down).
    if (s.n <= 1 || s.busbw <= 0 || s.units < 2) return 0;
    const double hops = std::ceil(std::log2(double(s.units)));
    const double chain = double(s.local - 1);
    const double bw = s.busbw * kTreeBandwidthShare;
    const double ll = kTreeBaseLatencyLL + 2.0 * (chain * s.lat_in_ll + hops * kTreeNetHopLatencyLL) +
                      2.0 * bytes / (bw * kTreeLLBandwidthShare);
    const double simple = kTreeBaseLatencySimple + 2.0 * (chain * s.lat_in_simple + hops * kTreeNetHopLatencySimple) + 2.0 * bytes / bw;
    return std::min(ll, simple);
}

double nvls_allreduce_seconds(const Span& s, double bytes) {
    // NVLink SHARP: each GPU writes its buffer into the switch once and reads the sum once, so the
    // time is the buffer over the NVLS algorithm bandwidth (busbw = algbw x 2(n-1)/n, nccl-tests).
    if (s.nvls_algbw <= 0) return 0;
    return kNvlsLatency + bytes / s.nvls_algbw;
}

double hierarchical_allreduce_seconds(const Span& s, double bytes) {
    // Reduce-scatter inside each node, an all-reduce of the node's 1/local share across nodes on
    // each rail (one NIC per GPU, the rails side by side), all-gather inside the node. NCCL
    // pipelines the three in chunks, so the slowest phase sets the bandwidth term; the latencies add.
    if (s.n <= 1 || !s.rails || s.local < 2 || s.busbw_in <= 0 || s.busbw_out <= 0) return 0;
    const double k = double(s.local), u = double(s.units);
    const double intra_bytes = 2.0 * bytes * (k - 1.0) / k;           // reduce-scatter + all-gather
    // A ring all-reduce of 1/k of the buffer on each rail; across pods the k rails' rings leave a
    // pod as a ring's k channels do (span_of: pod_ring_slowdown).
    const double inter_bytes = 2.0 * (bytes / k) * (u - 1.0) / u * s.pod_ring_slowdown;
    const double intra_lat_simple = 2.0 * (k - 1.0) * s.lat_in_simple, intra_lat_ll = 2.0 * (k - 1.0) * s.lat_in_ll;
    const double inter_lat_simple = 2.0 * (u - 1.0) * s.lat_out_simple, inter_lat_ll = 2.0 * (u - 1.0) * s.lat_out_ll;
    const double simple = kNcclBaseLatencySimple + intra_lat_simple + inter_lat_simple +
                          std::max(intra_bytes / s.busbw_in, inter_bytes / s.busbw_out);
    const double ll = kNcclBaseLatencyLL + intra_lat_ll + inter_lat_ll +
                      std::max(intra_bytes / s.busbw_in, inter_bytes / s.busbw_out) / kNcclLLBandwidthShare;
    return std::min(ll, simple);
}

CollectiveTime allreduce_time(const Span& s, double bytes) {
    CollectiveTime best;
    if (s.n <= 1 || s.busbw <= 0) return best;
    auto consider = [&](double t, CollectiveAlgorithm a) {
        if (t > 0 && (best.algorithm == CollectiveAlgorithm::none || t < best.seconds)) {
            best.seconds = t;
            best.algorithm = a;
        }
    };
    consider(ring_allreduce_seconds(s, bytes), CollectiveAlgorithm::ring);
    consider(tree_allreduce_seconds(s, bytes), CollectiveAlgorithm::tree);
    consider(nvls_allreduce_seconds(s, bytes), CollectiveAlgorithm::nvls);
    consider(hierarchical_allreduce_seconds(s, bytes), CollectiveAlgorithm::hierarchical);
    return best;
}

double allreduce_seconds(const Span& s, double bytes) { return allreduce_time(s, bytes).seconds; }

double algorithm_busbw(const Span& s, CollectiveAlgorithm a) {
    if (s.n <= 1) return s.busbw;
    const double n = double(s.n), to_bus = 2.0 * (n - 1.0) / n;
    // A buffer so large the latencies vanish: the bandwidth term alone.
    constexpr double kHuge = 1099511627776.0;   // 2^40 bytes
    switch (a) {
        case CollectiveAlgorithm::ring: return s.busbw;
        case CollectiveAlgorithm::nvls: return s.nvls_algbw > 0 ? s.nvls_algbw * to_bus : s.busbw;
        case CollectiveAlgorithm::tree: {
            const double t = tree_allreduce_seconds(s, kHuge);
            return t > 0 ? kHuge / t * to_bus : s.busbw;
        }
        case CollectiveAlgorithm::hierarchical: {
            const double t = hierarchical_allreduce_seconds(s, kHuge);
            return t > 0 ? kHuge / t * to_bus : s.busbw;
        }
        default: return s.busbw;
    }
}

double reduce_scatter_seconds(const Span& s, double bytes) {
    const double n = s.n;
    return ring_seconds(s, n - 1.0, double(s.units - 1), bytes * (n - 1.0) / n);
}

double all_to_all_seconds(const Span& s, double bytes) {
    // Each GPU keeps 1/n of what it holds and sends the rest, one peer at a time. Across a
    // rail-optimized network each GPU's share for other nodes, (n - local)/n, leaves by its own
    // NIC while the (local - 1)/n for its node's peers crosses the node's links at the same time.
    const double n = s.n;
    if (s.rails && s.busbw_in > 0 && s.busbw_out > 0) {
        const double k = double(s.local);
        // Across pods: the share for other pods' GPUs, (n - pod_members)/n, through the uplinks
        // at pod_uplink_share of the NIC (span_of), while the NIC carries all that leaves the node.
        const double cross = s.pods > 1 ? bytes * (n - s.pod_members) / n / (s.busbw_out * s.pod_uplink_share) : 0.0;
        const double wire = std::max({bytes * (k - 1.0) / n / s.busbw_in, bytes * (n - k) / n / s.busbw_out, cross});
        const double lat = (n - 1.0 - double(s.units - 1)) * s.lat_in_simple + double(s.units - 1) * s.lat_out_simple;
        return kNcclBaseLatencySimple + lat + wire;
    }
    return ring_seconds(s, n - 1.0, double(s.units - 1), bytes * (n - 1.0) / n);
}

double expert_routing_nodes(const ExpertRouting& route, double units) {
    const double k = route.experts_per_token;
    if (route.groups <= 0 || route.groups_per_token <= 0 || route.groups_per_token >= route.groups) return k;
    // Groups are consecutive blocks of experts (the gate's group of expert e is e / (E / n_group))
    // and expert parallelism places experts in order, so a node holds n_group / units whole
    // groups, or a group spans units / n_group nodes: a token's groups_per_token groups lie on at
    // most groups_per_token x max(1, units / n_group) nodes, and never more than k or units.
    const double nodes = route.groups_per_token * std::max(1.0, units / route.groups);
    return std::min({nodes, k, units});
}

double expert_all_to_all_seconds(const Span& s, double copy_bytes, const ExpertRouting& route) {
    const double k = route.experts_per_token;
    const double units = double(s.units);
    const double nodes = expert_routing_nodes(route, units);
    if (!(s.rails && s.busbw_in > 0 && s.busbw_out > 0) || units <= 1 || nodes >= k) return all_to_all_seconds(s, copy_bytes * k);
    // Node-limited routing as DeepSeek-V3 runs it (technical report, arXiv:2412.19437, sec.
    // 2.1.2: each token goes to at most M = 4 nodes; sec. 3.2.2: it crosses by IB once to the GPU
    // of the same in-node index on each node it reaches, which forwards it over NVLink to the GPUs
    // of its experts there, the IB and NVLink transfers overlapped). Of the `nodes` it reaches,
    // taken uniformly among the group's, its own is one with probability nodes / units:
    // (units - 1) / units of them are remote, one copy each over the GPU's NIC. Over the node's
    // links go its k copies, but for those whose expert sits on the GPU that receives it:
    // (local - 1) / local of them.
    const double local = double(s.local);
    const double out = copy_bytes * nodes * (units - 1.0) / units;
    const double in = copy_bytes * k * (local - 1.0) / local;
    const double n = s.n;
    // Of the remote nodes, those in other pods (the group's units spread evenly over s.pods):
    // (units - units / pods) / (units - 1), through the uplinks at pod_uplink_share of the NIC.
    const double pods = double(s.pods);
    const double cross = s.pods > 1 ? out * (units - units / pods) / (units - 1.0) / (s.busbw_out * s.pod_uplink_share) : 0.0;
    const double lat = (n - 1.0 - double(s.units - 1)) * s.lat_in_simple + double(s.units - 1) * s.lat_out_simple;
    return kNcclBaseLatencySimple + lat + std::max({in / s.busbw_in, out / s.busbw_out, cross});
}

void set_pods(Fabric& f, long long pod_gpus, double oversubscription, long long job_gpus) {
    f.pod_gpus = std::max<long long>(0, pod_gpus);
    f.pod_oversubscription = std::max(1.0, oversubscription);
    f.job_gpus = std::max<long long>(0, job_gpus);
}

double p2p_seconds(const Fabric& f, long long distance, double bytes) {
    if (f.levels == 0 || distance <= 0) return 0;
    int k = f.levels - 1;
    for (int i = 0; i < f.levels; ++i)
        if (distance < f.level[i].domain) { k = i; break; }
    const LinkLevel& l = f.level[k];
    // A pair of GPUs on a mesh shares one link (MI300X: 64 GB/s per direction).
    const double bw = (l.mesh ? l.bw / double(l.domain - 1) : l.bw) * l.staged_bw_factor;
    // Across pods (Fabric::pod_gpus): GPU i sends to i + distance, so min(1, distance / pod_gpus)
    // of a pod's GPUs send into another pod at once, through uplinks that carry 1 / oversubscription
    // of its GPUs' NICs: those sends slow by that ratio when it exceeds 1, and the step waits for them.
    double slowdown = 1;
    if (k == f.levels - 1 && l.link && l.link->scope == LinkScope::inter_node && f.pod_gpus > 0 && f.job_gpus > f.pod_gpus)
        slowdown = std::max(1.0, std::min(1.0, double(distance) / double(f.pod_gpus)) * f.pod_oversubscription);
    return kNcclBaseLatencyLL + l.lat_ll + bytes * slowdown / (bw * kBusBandwidthEfficiency);
}

double ring_attention_exposed_seconds(const Fabric& f, long long cp, long long distance, double kv_bytes, double compute_seconds) {
    // Ring attention (Liu et al. 2023): with cp GPUs each holds 1/cp of the sequence; in each of
    // cp - 1 steps it sends its current KV block on while computing attention against it, so a
    // step costs max(send, compute) and the sends show only where they outlast the compute.
    if (cp <= 1) return 0;
    const double send = p2p_seconds(f, distance, kv_bytes);
    return double(cp - 1) * std::max(0.0, send - compute_seconds);
}

}  // namespace gpusizer::detail
