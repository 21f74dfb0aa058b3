// test_links.cpp: the link catalog (assets/links.json), each GPU's default link, and bad link data.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "interconnect.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

const Link& link(const char* id) { return catalog().link(id); }

std::string links_error(const std::string& links_json) {
    try {
        (void)catalog_from_json(read_asset("gpus.json"), read_asset("models.json"), links_json);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("the link catalog holds every link the project promises", "[links]") {
    for (const char* id : {"pcie3", "pcie4", "pcie5", "nvlink-bridge", "nvlink3", "nvlink4", "nvlink5", "infiniband-hdr",
                           "infiniband-ndr", "ethernet-100g", "nvlink2", "nvlink5-nvl72", "infinity-fabric", "infiniband-xdr"}) {
        INFO(id);
        REQUIRE(catalog().find_link(id) != nullptr);
        const Link& l = link(id);
        CHECK(l.bidirectional_gb_per_s == Approx(2 * l.bandwidth_gb_per_s));   // full duplex: both directions at once
        CHECK(l.latency_us > 0);
        CHECK(l.latency_large_us >= l.latency_us);   // the bandwidth protocol pays more per step
        CHECK_FALSE(l.sources.empty());
    }
}

TEST_CASE("PCIe and NVLink bandwidths follow from their signalling", "[links][published]") {
    // PCIe 3.0: 8 GT/s per lane with 128b/130b encoding, 16 lanes, 8 bits per byte.
    CHECK(link("pcie3").bandwidth_gb_per_s == Approx(8.0 * 128 / 130 * 16 / 8).epsilon(0.001));   // 15.75 GB/s
    // Each PCIe generation doubles the rate (Gen4 16 GT/s, Gen5 32 GT/s); the catalog rounds to
    // the vendors' figures (31.5 and 63 GB/s per direction).
    CHECK(link("pcie4").bandwidth_gb_per_s == Approx(2 * link("pcie3").bandwidth_gb_per_s).epsilon(0.001));
    CHECK(link("pcie5").bandwidth_gb_per_s == Approx(2 * link("pcie4").bandwidth_gb_per_s).epsilon(0.001));
    // NVLink: links x GB/s per link per direction (stas00 ml-engineering, network/README.md).
    CHECK(link("nvlink2").bandwidth_gb_per_s == 6 * 25.0);    // V100
    CHECK(link("nvlink3").bandwidth_gb_per_s == 12 * 25.0);   // A100
    CHECK(link("nvlink4").bandwidth_gb_per_s == 18 * 25.0);   // H100
    CHECK(link("nvlink5").bandwidth_gb_per_s == 18 * 50.0);   // B200
    // InfiniBand 4x ports: HDR 4 x 50 Gb/s, NDR 4 x 100, XDR 4 x 200, / 8 bits per byte.
    CHECK(link("infiniband-hdr").bandwidth_gb_per_s == 4 * 50 / 8.0);
    CHECK(link("infiniband-ndr").bandwidth_gb_per_s == 4 * 100 / 8.0);
    CHECK(link("infiniband-xdr").bandwidth_gb_per_s == 4 * 200 / 8.0);
    CHECK(link("ethernet-100g").bandwidth_gb_per_s == 100 / 8.0);
    // NVSwitch domains: 8 GPUs per HGX board, 72 in a GB200 NVL72 rack; a bridge joins 2.
    CHECK(link("nvlink4").gpus_per_node == 8);
    CHECK(link("nvlink5-nvl72").gpus_per_node == 72);
    CHECK(link("nvlink-bridge").gpus_per_node == 2);
    CHECK(link("infiniband-ndr").scope == LinkScope::inter_node);
}

TEST_CASE("the seed article's NVLink and PCIe figures", "[links][seed]") {
    // "Largura de Banda: Até 600 GB/s total em versões recentes (ex: NVLink 4.0)": 600 GB/s total
    // is NVLink 3 (A100); NVLink 4 is 900.
    CHECK(link("nvlink3").bidirectional_gb_per_s == 600);
    CHECK(link("nvlink4").bidirectional_gb_per_s == 900);
    // "PCIe 4.0: ~64 GB/s total": 63 GB/s both directions (NVIDIA's sheets round to 64).
    CHECK(link("pcie4").bidirectional_gb_per_s == Approx(64).epsilon(0.02));
    // "Muito mais rápido": NVLink 3 carries 9.5x what PCIe 4.0 x16 does.
    CHECK(link("nvlink3").bidirectional_gb_per_s / link("pcie4").bidirectional_gb_per_s == Approx(9.52).epsilon(0.01));
}

TEST_CASE("each GPU's default link comes from its interconnect fields", "[links]") {
    struct Row { const char* gpu; const char* intra; double gb_per_s_per_direction; int node; const char* inter; };
    const Row rows[] = {
        {"rtx-4090", "pcie4", 31.5, 8, "ethernet-100g"},
        {"rtx-4060-ti-16gb", "pcie4", 31.5 / 2, 8, "ethernet-100g"},   // wired x8: half an x16 link
        {"rtx-5090", "pcie5", 63, 8, "ethernet-100g"},
        {"rtx-3090", "nvlink-bridge", 112.5 / 2, 8, "ethernet-100g"},   // a bridged pair inside a PCIe box
        {"rtx-a6000", "nvlink-bridge", 112.5 / 2, 8, "ethernet-100g"},
        {"a100-80gb-pcie", "nvlink-bridge", 600 / 2.0, 8, "ethernet-100g"},   // its own three-bridge figure
        {"a100-80gb-sxm", "nvlink3", 300, 8, "infiniband-hdr"},   // DGX A100: 8 x HDR
        {"h100-sxm", "nvlink4", 450, 8, "infiniband-ndr"},   // DGX H100: 8 x NDR
        {"b200", "nvlink5", 900, 8, "infiniband-ndr"},
        {"v100-sxm2-32gb", "nvlink2", 150, 8, "infiniband-hdr"},
        {"mi300x", "infinity-fabric", 896 / 2.0, 8, "infiniband-ndr"},
        {"t4", "pcie3", 15.75, 8, "ethernet-100g"},
        // NVSwitch parts with fewer links than their generation's: the link class is the
        // architecture's (NVLink 3 for Ampere, 4 for Hopper), the bandwidth the card's own 400 GB/s.
        {"a800-80gb-sxm", "nvlink3", 400 / 2.0, 8, "infiniband-hdr"},
        {"h800-sxm", "nvlink4", 400 / 2.0, 8, "infiniband-ndr"},
        // P100 SXM2: NVLink 1 hybrid cube mesh, the mesh link class at its own 160 GB/s.
        {"tesla-p100-sxm2-16gb", "nvlink2", 160 / 2.0, 8, "infiniband-hdr"},
        {"a40", "nvlink-bridge", 112.5 / 2, 8, "ethernet-100g"},
        {"mi100", "infinity-fabric", 276 / 2.0, 8, "infiniband-hdr"},
        {"gaudi3", "gaudi-roce", 1050 / 2.0, 8, "infiniband-hdr"},   // 21 x 200 GbE scale-up ports
        {"gaudi2", "gaudi-roce", 525 / 2.0, 8, "infiniband-hdr"},   // 21 x 100 GbE
        {"tesla-p40", "pcie3", 15.75, 8, "ethernet-100g"},
        {"arc-b580", "pcie4", 31.5 / 2, 8, "ethernet-100g"},   // PCIe 4.0 x8
        {"arc-pro-b50", "pcie5", 63 / 2.0, 8, "ethernet-100g"},   // PCIe 5.0 x8
    };
    for (const Row& r : rows) {
        INFO(r.gpu);
        const Gpu& g = catalog().gpu(r.gpu);
        const detail::Fabric f = detail::make_fabric(g, catalog(), nullptr, nullptr);
        REQUIRE(f.intra);
        CHECK(f.intra->id == r.intra);
        CHECK(f.level[0].bw == Approx(r.gb_per_s_per_direction * 1e9));
        CHECK(f.node_size == r.node);
        REQUIRE(f.inter);
        CHECK(f.inter->id == r.inter);
    }
    // Apple machines have one GPU and unified memory: no GPU-to-GPU link.
    CHECK(detail::make_fabric(catalog().gpu("m2-ultra-192gb"), catalog(), nullptr, nullptr).intra == nullptr);
}

TEST_CASE("the link key overrides the GPU's own link", "[links][config]") {
    Config c = config("llama-3-70b", "h100-sxm");
    c.gpus = 8;
    c.link = "pcie5";
    Report r = run(c);
    CHECK(r.interconnect.link == "pcie5");
    CHECK(r.interconnect.link_bandwidth_bytes_per_s == 63e9);
    c.link = "infiniband-ndr";   // a network link inside the "node": every GPU is its own node
    r = run(c);
    CHECK(r.interconnect.nodes == 8);
    c.link = "nvlink9";
    CHECK_THROWS_WITH(run(c), Catch::Contains("link") && Catch::Contains("nvlink4") && Catch::Contains("gpusizer links"));
    c.link.clear();
    c.inter_node_link = "token-ring";
    CHECK_THROWS_WITH(run(c), Catch::Contains("inter_node_link") && Catch::Contains("infiniband-ndr"));
}

TEST_CASE("malformed links.json is refused with file, entry and field", "[links][errors]") {
    const std::string good = read_asset("links.json");
    REQUIRE(links_error(good).empty());
    struct Bad { std::string from, to; const char* mentions; };
    const Bad cases[] = {
        {"\"id\": \"pcie4\"", "\"id\": \"PCIe 4\"", "kebab-case"},
        {"\"scope\": \"inter-node\",\n      \"bandwidth_gb_per_s\": 25,", "\"scope\": \"cluster\",\n      \"bandwidth_gb_per_s\": 25,",
         "infiniband-hdr: scope"},
        // The first inter-node Ethernet link (gaudi-roce, before it, is an intra-node one).
        {"\"kind\": \"ethernet\",\n      \"scope\": \"inter-node\"", "\"kind\": \"token-ring\",\n      \"scope\": \"inter-node\"",
         "ethernet-100g: kind"},
        {"\"bandwidth_gb_per_s\": 450,", "\"bandwidth_gb_per_s\": \"450\",", "nvlink4: bandwidth_gb_per_s"},
        {"\"bidirectional_gb_per_s\": 900,", "\"bidirectional_gb_per_s\": 400,", "nvlink4: bidirectional_gb_per_s"},
        {"\"latency_us\": 2.7,\n      \"latency_large_us\": 9.6,\n      \"gpus_per_node\": 1,\n      \"note\": \"4 lanes x 50",
         "\"latency_large_us\": 9.6,\n      \"gpus_per_node\": 1,\n      \"note\": \"4 lanes x 50", "infiniband-hdr: latency_us"},
        {"\"gpus_per_node\": 72,", "\"gpus_per_node\": 72, \"switches\": 18,", "nvlink5-nvl72: switches"},
        {"\"schema_version\": 1", "\"schema_version\": 2", "links.json: schema_version"},
    };
    for (const Bad& b : cases) {
        INFO(b.mentions);
        std::string text = good;
        const auto pos = text.find(b.from);
        REQUIRE(pos != std::string::npos);
        text.replace(pos, b.from.size(), b.to);
        const std::string err = links_error(text);
        CHECK(err.find(b.mentions) != std::string::npos);
    }
    CHECK(links_error("{").find("links.json") != std::string::npos);
    // An inter-node link spans nodes; it cannot claim a node size.
    std::string two = good;
    const std::string from = "\"gpus_per_node\": 1,\n      \"note\": \"4 lanes x 100";
    two.replace(two.find(from), from.size(), "\"gpus_per_node\": 2,\n      \"note\": \"4 lanes x 100");
    CHECK(links_error(two).find("infiniband-ndr: gpus_per_node") != std::string::npos);
}

TEST_CASE("a catalog without links.json still estimates, without the interconnect", "[links]") {
    const Catalog bare = catalog_from_json(read_asset("gpus.json"), read_asset("models.json"));
    Config c = config("llama-3-8b", "h100-sxm");
    c.gpus = 2;
    const Report r = estimate(c, bare);
    CHECK(r.interconnect.link.empty());
    CHECK(r.interconnect.tp_comm_s_per_token == 0);
    CHECK(r.speed.decode_tokens_per_s > 0);
    c.link = "pcie4";
    CHECK_THROWS_WITH(estimate(c, bare), Catch::Contains("link") && Catch::Contains("links.json"));
}
