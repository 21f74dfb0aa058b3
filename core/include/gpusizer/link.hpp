// gpusizer/link.hpp: one GPU-to-GPU link of the catalog (assets/links.json).
//
// Bandwidths are per GPU, in GB/s (10^9 B/s) in the asset and bytes/s in the core; latencies
// are per ring step (one hop), in microseconds in the asset and seconds in the core.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusizer {

enum class LinkScope { intra_node, inter_node };
enum class LinkKind { pcie, nvlink, nvlink_bridge, infinity_fabric, infiniband, ethernet };

struct Link {
    std::string id;                    // "pcie4", "nvlink4", "infiniband-ndr", ...
    std::string name;                  // "PCIe 4.0 x16"
    LinkKind kind = LinkKind::pcie;
    LinkScope scope = LinkScope::intra_node;
    double bandwidth_gb_per_s = 0;     // per GPU, per direction (what one GPU can send while it receives as much)
    double bidirectional_gb_per_s = 0; // per GPU, both directions (the vendor's headline figure)
    double latency_us = 0;             // per ring step, small messages (NCCL's LL protocol)
    double latency_large_us = 0;       // per ring step, large messages (NCCL's Simple protocol)
    int gpus_per_node = 1;             // GPUs one such domain connects (NVSwitch: 8, NVL72: 72, bridge: 2); 1 for inter-node links
    double busbw_efficiency = 0;       // measured all-reduce bus bandwidth / bandwidth (0 = the default, see interconnect.hpp)
    double nvls_efficiency = 0;        // NVLink SHARP all-reduce algorithm bandwidth / bandwidth (0 = no NVLS on this link)
    double no_p2p_bandwidth_factor = 0;   // PCIe without peer-to-peer (staged through host memory): bandwidth x this (0 = not given)
    double no_p2p_latency_us = 0;      // and the latency of one step then
    std::string note;
    std::vector<std::string> sources;
    std::vector<std::string> unverified;

    double bytes_per_s() const { return bandwidth_gb_per_s * 1e9; }
};

std::string_view to_string(LinkScope s);   // "intra-node", "inter-node"
std::string_view to_string(LinkKind k);     // "pcie", "nvlink", "nvlink-bridge", "infinity-fabric", "infiniband", "ethernet"

}  // namespace gpusizer
