// interconnect.hpp (internal): the links a configuration's GPUs talk over, and the time of each
// collective on them. Exposed to performance.cpp, catalog.cpp and the tests of the formulas.
//
// Time model: NCCL's own tuning model (src/graph/tuning.cc), reduced to what matters here:
//   t = base latency + steps x per-step latency + bytes moved per GPU / bus bandwidth,
// taking the faster of the low-latency (LL) and the bandwidth (Simple) protocol. Bus bandwidth
// is the nccl-tests definition (doc/PERFORMANCE.md): for an all-reduce over n GPUs each GPU
// moves 2(n-1)/n of the buffer, for reduce-scatter, all-gather and all-to-all (n-1)/n.
// An all-reduce takes the fastest of the algorithms the fabric offers, as NCCL's tuner does
// (ring, double binary tree, NVLink SHARP, hierarchical per-rail); docs/formulas.md, "Collectives".
#pragma once

#include <string>

#include "gpusizer/catalog.hpp"

namespace gpusizer::detail {

// NCCL ring base latencies (tuning.cc @01afd20a: baseLat[Ring] = {3.6, 10.0, 8.4} us for LL,
// LL128, Simple) and the LL protocol's share of the bus bandwidth (ring LL: busBw x 1/4).
constexpr double kNcclBaseLatencyLL = 3.6e-6;
constexpr double kNcclBaseLatencySimple = 8.4e-6;
constexpr double kNcclLLBandwidthShare = 0.25;
// Achievable bus bandwidth / link bandwidth, unless the link states its own (links.json
// busbw_efficiency): nccl-tests all_reduce on 8x A100 reaches 235 GB/s of 300 (stas00/ml-engineering
// network/README.md), and NCCL caps sm80 rings at 235.
constexpr double kBusBandwidthEfficiency = 0.78;
// Double binary tree (NCCL 2.2x src/graph/tuning.cc): baseLat[Tree] = {6.8, 14.0, 8.4} us (LL,
// LL128, Simple); hwLat[NET][Tree] = {5.0, 8.5, 14} us per hop between nodes; the tree's bus
// bandwidth is 0.92 of the ring's (busBw *= .92 for an all-reduce), LL 1/3.8 of it.
constexpr double kTreeBaseLatencyLL = 6.8e-6;
constexpr double kTreeBaseLatencySimple = 8.4e-6;
constexpr double kTreeNetHopLatencyLL = 5.0e-6;
constexpr double kTreeNetHopLatencySimple = 14e-6;
constexpr double kTreeBandwidthShare = 0.92;
constexpr double kTreeLLBandwidthShare = 1.0 / 3.8;
// NVLink SHARP (same file): Simple protocol only, latency hwLat[NVLINK][NVLS] = 25 us, no base.
constexpr double kNvlsLatency = 25e-6;
// NCCL picks NVLS from 5 GPUs up: nccl-tests on 8x H200 did not select it for 4 GPUs and did from
// 5 (stas00/ml-engineering network/README.md, NVLS GPU-count sweep).
constexpr int kNvlsMinGpus = 5;

// The algorithm an all-reduce runs (what NCCL's tuner would pick).
enum class CollectiveAlgorithm { none, ring, tree, nvls, hierarchical };
const char* algorithm_name(CollectiveAlgorithm a);   // "none", "ring", "tree", "nvls", "hierarchical"
struct CollectiveTime {
    double seconds = 0;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::none;
};

// One level of the topology: a link and the GPUs one of its domains holds.
struct LinkLevel {
    const Link* link = nullptr;
    double bw = 0;           // bytes/s per GPU per direction (nominal, before efficiency)
    double efficiency = 0;   // achievable bus bandwidth / bw
    double lat_ll = 0;       // seconds per ring step, LL protocol
    double lat_simple = 0;   // seconds per ring step, Simple protocol
    long long domain = 1;    // GPUs in one domain at this level (levels nest)
    double nvls_efficiency = 0;   // NVLink SHARP algorithm bandwidth / bw (0: no NVLS on this link)
    bool mesh = false;       // one link per GPU pair (Infinity Fabric): m GPUs of a domain use (m-1)/(domain-1) of bw
    bool host_staged = false;     // PCIe without peer-to-peer: traffic goes through host memory
    double staged_bw_factor = 1;  // and the share of bw it keeps then (bw stays the link's nominal figure)
};

// The links of a configuration, innermost first: e.g. NVSwitch (8) then InfiniBand; or an
// NVLink bridge (2), then PCIe (8), then the network.
struct Fabric {
    LinkLevel level[3];
    int levels = 0;
    int node_size = 1;              // GPUs one node holds
    const Link* intra = nullptr;    // the innermost link (report: interconnect.link)
    const Link* inter = nullptr;    // between nodes
    bool hypothetical = false;      // the GPU cannot use the innermost link (an alternative for comparison)
    GpuLinks defaults;              // the GPU's default links (catalog.default_links), looked up once
    // The network's pods (Config::pod_gpus, pod_oversubscription): non-blocking domains of
    // pod_gpus GPUs whose uplinks carry 1 / pod_oversubscription of what their GPUs' NICs can send.
    // 0: one non-blocking network. Llama 3 (arXiv:2407.21783, sec. 3.3.1): pods of 3,072 H100 with
    // full bisection, 1:7 oversubscribed between pods.
    long long pod_gpus = 0;
    double pod_oversubscription = 1;
    long long job_gpus = 0;   // the configuration's GPUs, for the sends that cross pods (p2p_seconds)
};

// The pods of a configuration's network and its GPU count, set on a fabric make_fabric built.
void set_pods(Fabric& f, long long pod_gpus, double oversubscription, long long job_gpus);

// What a group of n GPUs spaced `stride` apart uses: the bottleneck bandwidth and the
// latencies of the innermost and the outermost level it crosses.
struct Span {
    int n = 1;
    double busbw = 0;               // bytes/s, achievable
    double lat_in_ll = 0, lat_in_simple = 0;     // steps inside the lower domains
    double lat_out_ll = 0, lat_out_simple = 0;   // steps across the top level crossed
    long long units = 1;            // top-level domains the group spans (nodes, bridged pairs)
    // Per level, for the algorithms beyond the ring (all achievable, bytes/s per GPU):
    double busbw_in = 0;            // the lower levels the group uses (0: none, one level only)
    double busbw_out = 0;           // the top level, one GPU's share (one NIC per GPU on a network)
    long long local = 1;            // group members in one top-level domain (rails in use)
    bool rails = false;             // the top level is a network with one NIC per GPU (rail-optimized)
    double nvls_algbw = 0;          // NVLink SHARP all-reduce algorithm bandwidth; 0 when NCCL would not use it
    // Network pods the group spans (Fabric::pod_gpus), its members in one pod, and the share of a
    // NIC's rate that leaves a pod when every GPU of it sends out at once (1 / oversubscription).
    long long pods = 1;
    double pod_members = 0;
    double pod_uplink_share = 1;
    double pod_ring_slowdown = 1;   // how much slower a ring's (or a rail's ring's) network part runs across pods

};

// The catalog's default link ids for a GPU: its own intra-node link, its PCIe link, the network
// between nodes, and the other kind of intra-node link (NVLink <-> PCIe) for the comparison.
struct DefaultLinkIds {
    const char* intra;
    const char* pcie;
    const char* inter;
    const char* alternative;
    bool alternative_hypothetical;
    bool scale_out;   // HGX/OAM class: NVSwitch, NVLink mesh, Infinity Fabric or Gaudi RoCE
};
DefaultLinkIds default_link_ids(const Gpu& gpu);

// Builds the fabric for a GPU. `intra` / `inter` are overrides (nullptr = the GPU's defaults).
// Without links in the catalog the fabric is empty (no levels) and every collective costs 0.
Fabric make_fabric(const Gpu& gpu, const Catalog& catalog, const Link* intra, const Link* inter);

// `out` = the link's id, or "" without one (the reports' link fields; no temporary string).
inline void set_link_id(std::string& out, const Link* link) {
    if (link) out = link->id;
    else out.clear();
}
// The same GPUs over the other kind of intra-node link.
Fabric alternative_fabric(const Gpu& gpu, const Catalog& catalog, const Fabric& current);

Span span_of(const Fabric& f, long long n, long long stride);

// Seconds for one collective; `bytes` is the buffer each GPU holds (all-reduce), the whole
// array (reduce-scatter / all-gather, as nccl-tests counts it), or what each GPU sends in all
// (all-to-all).
double allreduce_seconds(const Span& s, double bytes);   // allreduce_time(s, bytes).seconds
CollectiveTime allreduce_time(const Span& s, double bytes);
// Each algorithm alone (0 when the fabric does not offer it; for the tests and the report).
double ring_allreduce_seconds(const Span& s, double bytes);
double tree_allreduce_seconds(const Span& s, double bytes);
double nvls_allreduce_seconds(const Span& s, double bytes);
double hierarchical_allreduce_seconds(const Span& s, double bytes);
// The bus bandwidth (nccl-tests: algbw x 2(n - 1)/n) algorithm `a` reaches on span `s`, latency
// aside: the figure its times use (ring: s.busbw; NVLS: its algorithm bandwidth; tree and
// hierarchical: their bandwidth terms); s.busbw for none.
double algorithm_busbw(const Span& s, CollectiveAlgorithm a);
double reduce_scatter_seconds(const Span& s, double bytes);   // all-gather costs the same
double all_to_all_seconds(const Span& s, double bytes);
// How a MoE layer routes a token: to `experts_per_token` routed experts and, with group-limited
// routing (DeepSeek-V2/V3: n_group, topk_group), only among the experts of its best
// `groups_per_token` of `groups` expert groups (0: no limit).
struct ExpertRouting {
    double experts_per_token = 0;
    int groups = 0;
    int groups_per_token = 0;
};
// The expert all-to-all (dispatch or combine) of `copy_bytes` per GPU: the tokens one GPU
// holds, one copy each (tokens x hidden x bytes per element), sent to the experts of `route`.
// Without a group limit every copy goes to its expert on its own (all_to_all_seconds of
// copy_bytes x experts_per_token). With one, over a rail-optimized network, a token crosses to
// each node it reaches once and its copies go on over the node's links (expert_routing_nodes).
double expert_all_to_all_seconds(const Span& s, double copy_bytes, const ExpertRouting& route);
// The most nodes of `units` (the expert-parallel group's, experts spread evenly and in order)
// one token reaches under `route`'s group limit; experts_per_token without one.
double expert_routing_nodes(const ExpertRouting& route, double units);
// One point-to-point send of `bytes` across the level that separates two GPUs `distance` apart.
double p2p_seconds(const Fabric& f, long long distance, double bytes);
// Context-parallel ring attention over `cp` GPUs `distance` apart: cp - 1 steps, each sending a
// KV block of `kv_bytes` to the next GPU while attending to the block in hand for
// `compute_seconds`; what the sends add to the step beyond the compute.
double ring_attention_exposed_seconds(const Fabric& f, long long cp, long long distance, double kv_bytes, double compute_seconds);
// Whether a GPU can write to its peers over PCIe (GeForce RTX 40/50 cannot: NCCL stages through host memory).
bool pcie_peer_to_peer(const Gpu& gpu);

}  // namespace gpusizer::detail
