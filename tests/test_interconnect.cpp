// test_interconnect.cpp: collective times against nccl-tests' definitions and NCCL's model, the
// communication of each parallel scheme, and monotonic properties.
#include <catch2/catch.hpp>

#include "interconnect.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

detail::Fabric fabric(const char* gpu, const char* intra = nullptr) {
    const Link* l = intra ? &catalog().link(intra) : nullptr;
    return detail::make_fabric(catalog().gpu(gpu), catalog(), l, nullptr);
}

constexpr double kEff = 0.78;   // achievable / nominal bus bandwidth (nccl-tests on 8x A100: 235 of 300 GB/s)
constexpr double kEffNvlink4 = 0.82;   // links.json nvlink4: ~370 GB/s ring busbw on 8x H100 (NCCL maintainer)
constexpr double us = 1e-6;

// Llama 3 70B trained on 8 H100 with tp 8 and full recomputation, `context`-token sequences.
Config llama70b_tp8_training(long long context) {
    Config c = training("llama-3-70b", "h100-sxm", 8);
    c.tp = 8;
    c.context = context;
    c.recompute = Recompute::full;
    return c;
}

}  // namespace

TEST_CASE("all-reduce follows nccl-tests' bus bandwidth definition", "[interconnect][published]") {
    // doc/PERFORMANCE.md: t = (S / B) x 2(n-1)/n for an all-reduce of S bytes at bus bandwidth B;
    // busbw = algbw x 2(n-1)/n. Eight H100 on NVSwitch: B = 450 GB/s x 0.82.
    const detail::Fabric f = fabric("h100-sxm");
    const detail::Span s = detail::span_of(f, 8, 1);
    CHECK(s.busbw == Approx(450e9 * kEffNvlink4));
    const double S = 1024.0 * 1024 * 1024;   // a 1 GiB buffer: bandwidth-bound
    // The ring alone (NCCL_ALGO=Ring); NCCL's default on this node is NVLS (see "Collectives" below).
    const double t = detail::ring_allreduce_seconds(s, S);
    // Simple protocol: 8.4 us base + 14 steps x 3.4 us + the bytes (NCCL tuning.cc).
    CHECK(t == Approx(8.4 * us + 14 * 3.4 * us + S * 2 * 7 / 8 / (450e9 * kEffNvlink4)));
    const double algbw = S / t;
    CHECK(algbw * 2 * 7 / 8 == Approx(450e9 * kEffNvlink4).epsilon(0.02));   // busbw recovered from the time
    // Reduce-scatter and all-gather move (n-1)/n of the array: half an all-reduce's bytes.
    CHECK(detail::reduce_scatter_seconds(s, S) == Approx(8.4 * us + 7 * 3.4 * us + S * 7 / 8 / (450e9 * kEffNvlink4)));
    // A tiny all-reduce is latency: the LL protocol's 3.6 us base + 14 steps x 0.47 us.
    CHECK(detail::allreduce_seconds(s, 8) == Approx(3.6 * us + 14 * 0.47 * us).epsilon(0.001));
}

TEST_CASE("8x A100: the bus bandwidth nccl-tests measures", "[interconnect][published]") {
    // nccl-tests all_reduce on an 8x A100 node reaches ~235 GB/s busbw of the 300 GB/s NVLink 3
    // per direction (stas00 ml-engineering, network/README.md); NCCL caps sm80 rings at 235.
    const detail::Span s = detail::span_of(fabric("a100-80gb-sxm"), 8, 1);
    CHECK(s.busbw / 1e9 == Approx(235).epsilon(0.01));
}

TEST_CASE("groups larger than a node use the network", "[interconnect]") {
    const detail::Fabric f = fabric("h100-sxm");
    // 16 GPUs, consecutive: two HGX nodes joined by 400 Gb/s NDR per GPU, one NIC per GPU.
    const detail::Span s16 = detail::span_of(f, 16, 1);
    // NCCL runs one ring channel per NIC, so the 8 GPUs of a node cross the network side by side:
    // the ring's bottleneck is min(NVSwitch 450 x 0.82, 8 x 50 GB/s x 0.78) = 312 GB/s.
    CHECK(s16.busbw == Approx(8 * 50e9 * kEff));
    CHECK(s16.units == 2);
    CHECK(s16.local == 8);
    CHECK(s16.rails);
    // The ring alone: NCCL counts 2(nodes - 1) of the 2(n - 1) steps on the network.
    const double t = detail::ring_allreduce_seconds(s16, 8);
    CHECK(t == Approx(3.6 * us + (30 - 2) * 0.47 * us + 2 * 2.7 * us).epsilon(0.001));
    // A data-parallel group with stride 8 (tp = 8 inside each node) has one GPU per node: one NIC.
    const detail::Span dp = detail::span_of(f, 4, 8);
    CHECK(dp.units == 4);
    CHECK(dp.local == 1);
    CHECK(dp.busbw == Approx(50e9 * kEff));
    // Within one node, the NVSwitch rate.
    CHECK(detail::span_of(f, 4, 2).busbw == Approx(450e9 * kEffNvlink4));
}

TEST_CASE("NVLink bridges join pairs, pairs talk over PCIe", "[interconnect]") {
    const detail::Fabric f = fabric("rtx-3090");
    CHECK(detail::span_of(f, 2, 1).busbw == Approx(56.25e9 * kEff));   // one bridged pair
    CHECK(detail::span_of(f, 4, 1).busbw == Approx(31.5e9 * kEff));    // two pairs: PCIe 4.0 between them
    CHECK(f.node_size == 8);
}

TEST_CASE("decode: 2 tensor-parallel all-reduces per layer per token", "[interconnect]") {
    // Llama 3 70B, vLLM, 8x H100, batch 1: each all-reduce carries 8192 x 2 B of activations.
    Config c = serving("llama-3-70b", "h100-sxm", Runtime::vllm, 8);
    const Report r = run(c);
    REQUIRE(r.parallel.tp == 8);
    const double s = 8192 * 2.0;
    // LL wins for 16 KiB: 3.6 us + 14 x 0.47 us + 16384 x 2 x 7/8 / (369 GB/s / 4).
    const double one = 3.6 * us + 14 * 0.47 * us + s * 2 * 7 / 8 / (450e9 * kEffNvlink4 * 0.25);
    CHECK(r.interconnect.tp_comm_s_per_token == Approx(2 * 80 * one));
    CHECK(r.interconnect.exposed_s_per_token == Approx(r.interconnect.tp_comm_s_per_token));
    CHECK(r.interconnect.allreduce_busbw_bytes_per_s == Approx(450e9 * kEffNvlink4));
    // A single GPU talks to nobody.
    c.gpus = 1;
    const Report one_gpu = run(c);
    CHECK(one_gpu.interconnect.tp_comm_s_per_token == 0);
    CHECK(one_gpu.interconnect.link.empty() == false);   // the GPU's link is still named
}

TEST_CASE("training: TP all-reduces, pipeline bubble, gradient sync", "[interconnect][training]") {
    // Llama 3 8B on 8 H100: tp 2, pp 2, dp 2, micro-batch 1 of 2048 tokens, global batch 16:
    // m = 16 / (1 x 2) = 8 micro-batches per step.
    Config c = llama3_8b_training("h100-sxm", 8, 2, 2, 2);
    const Report r = run(c);
    // 1F1B bubble: (p - 1) / (m + p - 1) = 1 / 9.
    CHECK(r.interconnect.pp_bubble_fraction == Approx(1.0 / 9));
    // 4 all-reduces per layer per micro-batch (2 forward, 2 backward) of s x b x h x 2 bytes, over
    // the stage's 16 layers, 8 micro-batches.
    const detail::Span tp = detail::span_of(fabric("h100-sxm"), 2, 1);
    const double s = 2048 * 4096 * 2.0;
    CHECK(r.interconnect.tp_comm_s_per_step == Approx(8 * 16 * 4 * detail::allreduce_seconds(tp, s)));
    // Full recomputation runs the forward twice: 6 all-reduces per layer.
    Config full = c;
    full.recompute = Recompute::full;
    CHECK(run(full).interconnect.tp_comm_s_per_step == Approx(1.5 * r.interconnect.tp_comm_s_per_step));
    // Pipeline: activations forward and gradients back, once per micro-batch, across tp x dp = 4 GPUs (same node).
    CHECK(r.interconnect.pp_comm_s_per_step == Approx(2 * 8 * detail::p2p_seconds(fabric("h100-sxm"), 4, s)));
    // DP all-reduce of the bf16 gradients of one GPU's shard: params / (tp x pp) x 2 bytes.
    const detail::Span dp = detail::span_of(fabric("h100-sxm"), 2, 2);
    CHECK(r.interconnect.dp_allreduce_s_per_step == Approx(detail::allreduce_seconds(dp, r.params / 4 * 2)).epsilon(1e-6));
    // 4 GB of gradients over NVLink hide behind the last micro-batch's backward but for the last
    // bucket, Megatron-Core's max(4e7, 1e6 x dp) = 4e7 parameters x 2 B = 80 MB, whose all-reduce
    // waits for the last gradients.
    CHECK(r.interconnect.dp_exposed_s_per_step == Approx(detail::allreduce_seconds(dp, 8e7)));
}

TEST_CASE("ZeRO-3 moves 1.5x the bytes of plain data parallelism", "[interconnect][training][published]") {
    // ZeRO paper (Rajbhandari et al. 2019), sec. 7: stage 3 communicates 3 x params (reduce-scatter
    // of gradients, all-gather of parameters in the forward and in the backward) against 2 x params
    // for DP's all-reduce. Over slow links the wire time shows the ratio.
    Config c = training("llama-3-8b", "rtx-4090", 8, Runtime::none);
    c.context = 512;
    const double dp0 = run(c).interconnect.dp_allreduce_s_per_step;
    c.zero = 3;
    const double dp3 = run(c).interconnect.dp_allreduce_s_per_step;
    CHECK(dp3 / dp0 == Approx(1.5).epsilon(0.01));
}

TEST_CASE("a faster link never makes communication or a step slower", "[interconnect][property]") {
    // The intra-node links in bandwidth order; the same 8-GPU configurations over each.
    const char* order[] = {"pcie3", "pcie4", "pcie5", "nvlink2", "nvlink3", "nvlink4", "nvlink5"};
    Config train = llama70b_tp8_training(4096);
    Config serve = serving("llama-3-70b", "h100-sxm", Runtime::vllm, 8);
    serve.batch = 32;
    double last_step = 1e30, last_comm = 1e30, last_decode = 0, last_token_comm = 1e30;
    for (const char* id : order) {
        INFO(id);
        train.link = id;
        serve.link = id;
        const Report t = run(train);
        const Report s = run(serve);
        CHECK(t.speed.train_step_s <= last_step);
        CHECK(t.interconnect.exposed_s_per_step <= last_comm);
        CHECK(s.speed.decode_tokens_per_s >= last_decode);
        CHECK(s.interconnect.tp_comm_s_per_token <= last_token_comm);
        last_step = t.speed.train_step_s;
        last_comm = t.interconnect.exposed_s_per_step;
        last_decode = s.speed.decode_tokens_per_s;
        last_token_comm = s.interconnect.tp_comm_s_per_token;
    }
    // And every collective is monotone in bandwidth for any size.
    for (double bytes : {8.0, 65536.0, 1e9}) {
        double last = 1e30;
        for (const char* id : order) {
            const double t = detail::allreduce_seconds(detail::span_of(fabric("h100-sxm", id), 8, 1), bytes);
            CHECK(t <= last);
            last = t;
        }
    }
}

TEST_CASE("expert parallelism: two all-to-alls per MoE layer", "[interconnect][moe]") {
    Config c = serving("mixtral-8x7b", "h100-sxm", Runtime::vllm, 8);
    c.ep = 8;
    c.tp = 8;
    const Report r = run(c);
    // Dispatch and combine of the token's k = 2 expert copies, 4096 x 2 B each, 32 MoE layers.
    const double s = 2 * 4096 * 2.0;
    CHECK(r.interconnect.ep_comm_s_per_token == Approx(2 * 32 * detail::all_to_all_seconds(detail::span_of(fabric("h100-sxm"), 8, 1), s)));
    c.ep = 1;
    CHECK(run(c).interconnect.ep_comm_s_per_token == 0);
}

TEST_CASE("the same configuration over the other kind of link", "[interconnect]") {
    // An NVLink machine is compared with its PCIe; a PCIe card with its generation's NVLink,
    // marked hypothetical.
    Config c = serving("llama-3-70b", "h100-sxm", Runtime::vllm, 8);
    LinkTimes alt = alternative_link(c, catalog());
    CHECK(alt.link == "pcie5");
    CHECK_FALSE(alt.hypothetical);
    const Report r = run(c);
    CHECK(alt.tp_comm_s_per_token > r.interconnect.tp_comm_s_per_token);
    CHECK(alt.decode_tokens_per_s < r.speed.decode_tokens_per_s);
    c.gpu = "rtx-4090";
    c.weights = "int4";
    alt = alternative_link(c, catalog());
    CHECK(alt.link == "nvlink4");
    CHECK(alt.hypothetical);
    c.gpu = "rtx-3090";
    CHECK(alternative_link(c, catalog()).link == "pcie4");
    // Training: the gradient sync over the alternative.
    Config t = training("llama-3-8b", "a100-80gb-sxm", 8);
    t.context = 1024;
    const LinkTimes ta = alternative_link(t, catalog());
    CHECK(ta.link == "pcie4");
    CHECK(ta.dp_allreduce_s_per_step > run(t).interconnect.dp_allreduce_s_per_step);
    // One GPU: nothing to compare.
    t.gpus = 1;
    CHECK(alternative_link(t, catalog()).link.empty());
}

// ---------------------------------------------------------------------------------------------
// Collectives per algorithm and message size
// ---------------------------------------------------------------------------------------------

namespace {

// nccl-tests' bus bandwidth of an all-reduce of `bytes` that took `t` seconds on n GPUs.
double busbw_of(double bytes, double t, int n) { return bytes / t * 2.0 * (n - 1) / n; }

}  // namespace

TEST_CASE("small all-reduces are latency-bound, large ones bandwidth-bound", "[interconnect][collectives]") {
    const detail::Span s = detail::span_of(fabric("h100-sxm"), 8, 1);
    // A 32 KB decode all-reduce on 8 H100: the ring with the LL protocol wins; its latency is
    // 3.6 us + 14 steps x 0.47 us = 10.18 us, its wire time 32768 x 2 x 7/8 / (369 GB/s / 4) = 0.62 us.
    const double small = 32768;
    const detail::CollectiveTime a = detail::allreduce_time(s, small);
    CHECK(a.algorithm == detail::CollectiveAlgorithm::ring);
    const double latency = 3.6 * us + 14 * 0.47 * us;
    CHECK(a.seconds == Approx(latency + small * 2 * 7 / 8 / (450e9 * kEffNvlink4 * 0.25)));
    CHECK(latency / a.seconds > 0.9);
    // NVLS would take its 25 us latency first (NCCL tuning.cc hwLat[NVLINK][NVLS]).
    CHECK(detail::nvls_allreduce_seconds(s, small) > a.seconds);
    // 1 GiB: NVLS, 25 us + 2^30 / (450 GB/s x 0.60) = 3.98 ms; the ring would take 56 us + 2^30 x 1.75 / 369 GB/s = 5.09 ms.
    const double big = 1024.0 * 1024 * 1024;
    const detail::CollectiveTime b = detail::allreduce_time(s, big);
    CHECK(b.algorithm == detail::CollectiveAlgorithm::nvls);
    CHECK(b.seconds == Approx(25 * us + big / (450e9 * 0.60)));
    CHECK(detail::ring_allreduce_seconds(s, big) == Approx(8.4 * us + 14 * 3.4 * us + big * 2 * 7 / 8 / (450e9 * kEffNvlink4)));
    CHECK(25 * us / b.seconds < 0.01);
    CHECK(std::string(detail::algorithm_name(b.algorithm)) == "nvls");
}

TEST_CASE("NVLink SHARP on 8x H100 reaches the published busbw", "[interconnect][collectives][published]") {
    // NVIDIA/nccl-tests issue 212 (maintainer): 'On 8 GPUs, you should reach a peak busBw of
    // ~480GB/s (algbw ~275GB/s)' with NVLS, ~370 with the ring. stas00/ml-engineering
    // network/README.md measures 480-482 GB/s on 8x H200 at 16 GiB (NVLink 4, like H100).
    const detail::Span s = detail::span_of(fabric("h100-sxm"), 8, 1);
    const double S = 16.0 * 1024 * 1024 * 1024;
    const double nvls = busbw_of(S, detail::allreduce_seconds(s, S), 8);
    CHECK(nvls / 1e9 == Approx(480).epsilon(0.05));   // model: 472 GB/s, 1.6% low
    const double ring = busbw_of(S, detail::ring_allreduce_seconds(s, S), 8);
    CHECK(ring / 1e9 == Approx(370).epsilon(0.02));
    CHECK(nvls / ring == Approx(480.0 / 370).epsilon(0.05));   // published gain 1.30x (GTC25 slide, stas00)
    // 4 GPUs: NCCL did not pick NVLS (the 8x H200 GPU-count sweep); from 5 it does.
    CHECK(detail::span_of(fabric("h100-sxm"), 4, 1).nvls_algbw == 0);
    CHECK(detail::allreduce_time(detail::span_of(fabric("h100-sxm"), 4, 1), S).algorithm == detail::CollectiveAlgorithm::ring);
    CHECK(detail::span_of(fabric("h100-sxm"), 5, 1).nvls_algbw > 0);
    // A100 (NVSwitch 2) has no NVLS.
    CHECK(detail::span_of(fabric("a100-80gb-sxm"), 8, 1).nvls_algbw == 0);
    // 8x B200: 838 GB/s published at 8 GiB (stas00); the model's 0.53 x 900 GB/s gives 834.
    const double S8 = 8.0 * 1024 * 1024 * 1024;
    const detail::Span b = detail::span_of(fabric("b200"), 8, 1);
    CHECK(busbw_of(S8, detail::allreduce_seconds(b, S8), 8) / 1e9 == Approx(838).epsilon(0.05));
}

TEST_CASE("NVL72: 72 GPUs in one NVLink domain", "[interconnect][collectives]") {
    // GB200 NVL72 (links.json nvlink5-nvl72): a 72-GPU group never touches the network.
    const detail::Fabric f = fabric("b200", "nvlink5-nvl72");
    const detail::Span s = detail::span_of(f, 72, 1);
    CHECK(s.units == 1);
    CHECK_FALSE(s.rails);
    CHECK(s.busbw == Approx(900e9 * kEff));
    const double S = 1024.0 * 1024 * 1024;
    CHECK(detail::allreduce_time(s, S).algorithm == detail::CollectiveAlgorithm::nvls);
    // The 73rd GPU is in the next rack: the group crosses the network.
    CHECK(detail::span_of(f, 144, 1).units == 2);
}

TEST_CASE("MI300X: one Infinity Fabric link per GPU pair", "[interconnect][collectives][published]") {
    // 7 links x 64 GB/s per direction; a pair of GPUs has one (stas00/ml-engineering network/README.md).
    // links.json busbw_efficiency 0.70: nccl/rccl all_reduce busbw 312.9 GB/s on 8 GPUs.
    const detail::Fabric f = fabric("mi300x");
    CHECK(detail::span_of(f, 8, 1).busbw == Approx(448e9 * 0.70));
    CHECK(detail::span_of(f, 8, 1).busbw / 1e9 == Approx(312.9).epsilon(0.02));
    // Two GPUs: one link, 64 GB/s x 0.70 = 44.8 GB/s against 47.7 measured.
    CHECK(detail::span_of(f, 2, 1).busbw == Approx(64e9 * 0.70));
    CHECK(detail::span_of(f, 2, 1).busbw / 1e9 == Approx(47.7).epsilon(0.1));
    // Four GPUs use 3 of the 7 links.
    CHECK(detail::span_of(f, 4, 1).busbw == Approx(3 * 64e9 * 0.70));
    // A point-to-point send between two of them: one link.
    const double S = 1e9;
    CHECK(detail::p2p_seconds(f, 1, S) == Approx(3.6 * us + 0.47 * us + S / (64e9 * kEff)));
}

TEST_CASE("GeForce over PCIe without peer-to-peer is slower than with", "[interconnect][collectives][published]") {
    // RTX 40/50 have PCIe P2P disabled; NCCL stages through host memory. 2x RTX 5090: ~30 vs
    // ~56 GB/s bidirectional (0.54), 14 us vs 0.48 us latency (links.json no_p2p_*).
    CHECK_FALSE(detail::pcie_peer_to_peer(catalog().gpu("rtx-4090")));
    CHECK_FALSE(detail::pcie_peer_to_peer(catalog().gpu("rtx-5090")));
    CHECK(detail::pcie_peer_to_peer(catalog().gpu("rtx-3090")));
    CHECK(detail::pcie_peer_to_peer(catalog().gpu("h100-sxm")));
    const detail::Span without = detail::span_of(fabric("rtx-4090"), 2, 1);   // PCIe 4.0 x16, no P2P
    const detail::Span with = detail::span_of(fabric("rtx-3090", "pcie4"), 2, 1);   // PCIe 4.0 x16, P2P
    CHECK(with.busbw == Approx(31.5e9 * kEff));
    CHECK(without.busbw == Approx(31.5e9 * kEff * 0.54));
    // A tiny all-reduce: 3.6 us + 2 steps x 14 us through the host, against 2 x 1.0 us with P2P.
    CHECK(detail::allreduce_seconds(without, 8) == Approx(3.6 * us + 2 * 14 * us).epsilon(0.001));
    CHECK(detail::allreduce_seconds(with, 8) == Approx(3.6 * us + 2 * 1.0 * us).epsilon(0.001));
    for (double bytes : {8.0, 1e6, 1e9}) CHECK(detail::allreduce_seconds(without, bytes) > detail::allreduce_seconds(with, bytes));
    // The report warns from the GPU's p2p field and the link's kind, not from ids: tensor
    // parallelism over PCIe on an RTX 4090 is staged through the host, on an RTX 3090 it is not.
    const auto p2p_warnings = [](const char* gpu) {
        Config c = config("llama-3-8b", gpu);
        c.gpus = c.tp = 2;
        c.link = "pcie4";
        int n = 0;
        for (const auto& w : run(c).warnings) n += w.find("peer-to-peer disabled") != std::string::npos;
        return n;
    };
    CHECK(p2p_warnings("rtx-4090") == 1);
    CHECK(p2p_warnings("rtx-3090") == 0);
}

TEST_CASE("multi-node all-reduce: hierarchical over rail-optimized NICs", "[interconnect][collectives][published]") {
    // stas00/ml-engineering network/README.md: 4 nodes of 8x B200 (AWS p6-b200, 400 Gb/s per GPU)
    // reach 381.8 GB/s all-reduce busbw at 16 GiB. Model: reduce-scatter and all-gather in the
    // node at 900 x 0.78 GB/s, an all-reduce of 1/8 of the buffer across the 4 nodes on each rail
    // at 50 x 0.78 GB/s, pipelined: the rail phase, 2 x S/8 x 3/4 / 39 GB/s, sets the time, so
    // busbw = 2 x 31/32 / (0.1875 / 39 GB/s) = 403 GB/s (+5.5%).
    const detail::Span s = detail::span_of(fabric("b200"), 32, 1);
    REQUIRE(s.units == 4);
    REQUIRE(s.local == 8);
    const double S = 16.0 * 1024 * 1024 * 1024;
    const detail::CollectiveTime t = detail::allreduce_time(s, S);
    CHECK(t.algorithm == detail::CollectiveAlgorithm::hierarchical);
    const double rail = 2 * (S / 8) * 3 / 4 / (50e9 * kEff);
    CHECK(t.seconds == Approx(8.4 * us + 14 * 3.4 * us + 6 * 9.6 * us + rail));
    CHECK(busbw_of(S, t.seconds, 32) / 1e9 == Approx(381.8).epsilon(0.1));
    // The flat ring would be bound by 8 NICs (312 GB/s), the tree by 0.92 of that at half the rate.
    CHECK(detail::ring_allreduce_seconds(s, S) > t.seconds);
    CHECK(detail::tree_allreduce_seconds(s, S) > t.seconds);
    // Many nodes, one GPU each, tiny buffer: the tree's log2(nodes) hops beat the ring's 2(n-1) steps.
    const detail::Span wide = detail::span_of(fabric("h100-sxm"), 64, 8);
    CHECK(detail::allreduce_time(wide, 8).algorithm == detail::CollectiveAlgorithm::tree);
}

TEST_CASE("all-to-all across nodes leaves by each GPU's own NIC", "[interconnect][collectives]") {
    // 16 H100 in 2 nodes: each GPU keeps 1/16, sends 7/16 to its node's peers over NVSwitch and
    // 8/16 over its 50 GB/s NIC; the NIC share sets the time.
    const detail::Span s = detail::span_of(fabric("h100-sxm"), 16, 1);
    const double S = 1e9;
    const double wire = S * 8 / 16 / (50e9 * kEff);
    CHECK(detail::all_to_all_seconds(s, S) == Approx(8.4 * us + 14 * 3.4 * us + 1 * 9.6 * us + wire));
}

TEST_CASE("DeepSeek-V3's node-limited all-to-all crosses to each node once", "[interconnect][collectives][moe]") {
    // DeepSeek-V3 (arXiv:2412.19437): EP 64 over 8 nodes of 8 GPUs; 256 experts in 8 groups (one
    // per node), each token's 8 experts within 4 groups (sec. 2.1.2: at most 4 nodes). It crosses
    // by IB once per node it reaches, then over NVLink to its experts' GPUs (sec. 3.2.2).
    const detail::Span s = detail::span_of(fabric("h100-sxm"), 64, 1);
    REQUIRE(s.units == 8);
    REQUIRE(s.local == 8);
    const detail::ExpertRouting v3{8, 8, 4};
    CHECK(detail::expert_routing_nodes(v3, 8) == 4);
    // 16 nodes: a group spans 2 of them, 4 groups 8 nodes (then k = 8 caps it); 2 nodes: both.
    CHECK(detail::expert_routing_nodes(v3, 16) == 8);
    CHECK(detail::expert_routing_nodes(v3, 2) == 2);
    // No group limit (Mixtral; GLM-4.5's single group): each of the k copies on its own.
    CHECK(detail::expert_routing_nodes({8, 0, 0}, 8) == 8);
    CHECK(detail::expert_routing_nodes({8, 1, 1}, 8) == 8);
    // 1 GB of tokens, one copy each. Over IB: 4 nodes, 7/8 of them remote (its own node is one of
    // the 4 with chance 4/8): 3.5 GB at 50 x 0.78 GB/s. Over NVLink: 8 copies, 7/8 of them away
    // from the GPU that receives them: 7 GB at 450 x 0.82 GB/s, less than IB's: IB sets the time.
    const double S = 1e9;
    const double lat = 8.4 * us + 56 * 3.4 * us + 7 * 9.6 * us;   // 63 peers, 7 of them across nodes
    const double ib = S * 4 * 7 / 8 / (50e9 * kEff);
    CHECK(S * 8 * 7 / 8 / (450e9 * kEffNvlink4) < ib);
    CHECK(detail::expert_all_to_all_seconds(s, S, v3) == Approx(lat + ib));
    // Without the limit every copy goes straight to its expert: 8 GB, 7/8 across nodes, twice the IB time.
    CHECK(detail::expert_all_to_all_seconds(s, S, {8, 0, 0}) == Approx(detail::all_to_all_seconds(s, 8 * S)));
    CHECK(detail::all_to_all_seconds(s, 8 * S) == Approx(lat + 2 * ib));
    // Inside one node the limit changes nothing.
    const detail::Span node = detail::span_of(fabric("h100-sxm"), 8, 1);
    CHECK(detail::expert_all_to_all_seconds(node, S, v3) == Approx(detail::all_to_all_seconds(node, 8 * S)));
}

TEST_CASE("block-scaled FP8 training dispatches in FP8 and combines in BF16", "[interconnect][moe]") {
    // DeepSeek-V3 sec. 3.3.3: the dispatches (the forward's, and the backward's of the gradients
    // before the down-projections) in FP8 with one fp32 scale per 1 x 128 tile, 1 + 4/128 bytes an
    // element; the combines in BF16, 2 bytes. Qwen3-30B-A3B (128 experts, k = 8, no group limit)
    // on 16 H100 in 2 nodes, ep 16.
    Config c = training("qwen3-30b-a3b", "h100-sxm", 16, Runtime::none);
    c.ep = 16;
    c.batch = 1;
    c.global_batch = 16;
    c.context = 4096;
    const Report bf16 = run(c);
    c.fp8_training = Fp8Training::blockwise;
    const Report fp8 = run(c);
    const detail::Span s = detail::span_of(fabric("h100-sxm"), 16, 1);
    const double tokens = 4096, hidden = 2048;
    const double dispatch = detail::all_to_all_seconds(s, tokens * hidden * (1 + 4.0 / 128) * 8);
    const double combine = detail::all_to_all_seconds(s, tokens * hidden * 2 * 8);
    REQUIRE(bf16.interconnect.ep_comm_s_per_step > 0);
    CHECK(fp8.interconnect.ep_comm_s_per_step / bf16.interconnect.ep_comm_s_per_step == Approx((dispatch + combine) / (2 * combine)));
    // Per-tensor FP8 (Transformer Engine's recipe) quantizes inside the GEMMs: the all-to-alls stay BF16.
    c.fp8_training = Fp8Training::tensorwise;
    CHECK(run(c).interconnect.ep_comm_s_per_step == Approx(bf16.interconnect.ep_comm_s_per_step));
}

TEST_CASE("context-parallel ring attention hides KV sends behind compute", "[interconnect][collectives]") {
    // cp = 4 on one H100 node: 3 steps, each sending a 64 MB KV block over NVSwitch while
    // attending to the block in hand.
    const detail::Fabric f = fabric("h100-sxm");
    const double kv = 64e6;
    const double send = detail::p2p_seconds(f, 1, kv);
    CHECK(send == Approx(3.6 * us + 0.47 * us + kv / (450e9 * kEff)));
    CHECK(detail::ring_attention_exposed_seconds(f, 4, 1, kv, 2 * send) == 0);   // compute outlasts the send
    CHECK(detail::ring_attention_exposed_seconds(f, 4, 1, kv, 0.5 * send) == Approx(3 * 0.5 * send));
    CHECK(detail::ring_attention_exposed_seconds(f, 1, 1, kv, 0) == 0);
}

TEST_CASE("MFU and HFU as papers state them", "[speed][training]") {
    // speed.mfu: the efficiency of the math kernels (a share of the dense peak), the bubble and
    // exposed communication computed apart. speed.mfu_effective: model FLOPs (6N + attention) over
    // the whole step (PaLM appendix B); speed.hfu: the same with the recomputed forward counted.
    Config c = training("llama-3-8b", "h100-sxm", 8);
    c.context = 2048;
    c.recompute = Recompute::none;
    const Report none = run(c);
    CHECK(none.speed.mfu_effective == none.speed.effective_mfu);
    CHECK(none.speed.hfu == Approx(none.speed.mfu_effective));   // nothing recomputed
    CHECK(none.speed.mfu_effective <= none.speed.mfu);
    // Full recomputation runs the forward (2N + a) twice: executed (8N + 4a) / model (6N + 3a) = 4/3.
    c.recompute = Recompute::full;
    const Report full = run(c);
    CHECK(full.speed.hfu / full.speed.mfu_effective == Approx(4.0 / 3.0));
    CHECK(full.speed.hfu <= full.speed.mfu * (1 + 1e-9));
    // Inference reports neither.
    Config serve = config("llama-3-8b", "h100-sxm");
    CHECK(run(serve).speed.hfu == 0);
}

TEST_CASE("the report names the all-reduce algorithm NCCL would run", "[interconnect][collectives]") {
    // Decode on 8 H100 (tp 8): 8192 x 2 B per all-reduce, latency-bound: the ring (LL).
    Config c = serving("llama-3-70b", "h100-sxm", Runtime::vllm, 8);
    CHECK(run(c).interconnect.allreduce_algorithm == "ring");
    // Training on 8 H100 with tp 8: 2048 x 8192 x 2 B = 32 MiB per all-reduce: 25 us + 32 MiB /
    // 270 GB/s = 149 us with NVLS against 56 us + 32 MiB x 1.75 / 369 GB/s = 215 us on the ring.
    CHECK(run(llama70b_tp8_training(2048)).interconnect.allreduce_algorithm == "nvls");
    // One GPU: no all-reduce.
    c.gpus = 1;
    CHECK(run(c).interconnect.allreduce_algorithm == "none");
}

TEST_CASE("automatic tensor parallelism stays inside a node", "[interconnect][parallel]") {
    // Llama 3.1 405B on 64 H100 SXM (8 per NVSwitch node): tp 8 in each node, 8 pipeline stages
    // across the nodes, as vLLM and SGLang run it; tp 64 would put every layer's all-reduce on
    // the network. The old split priced tp 64 as NVLink and warned of 67% communication.
    Config c = config("llama-3.1-405b", "h100-sxm");
    c.runtime = Runtime::vllm;
    c.gpus = 64;
    const Report r = run(c);
    CHECK(r.parallel.tp == 8);
    CHECK(r.parallel.pp == 8);
    CHECK(r.interconnect.nodes == 8);
    for (const std::string& w : r.warnings) CHECK(w.find("communication over nvlink4") == std::string::npos);
    // A tp the configuration gives is kept, across nodes (told otherwise).
    c.tp = 64;
    CHECK(run(c).parallel.tp == 64);
    // An NVLink bridge joins pairs inside a machine whose PCIe holds more: four bridged RTX A6000
    // in one workstation keep tp 4.
    Config w = config("llama-3-70b", "rtx-a6000");
    w.runtime = Runtime::vllm;
    w.gpus = 4;
    CHECK(run(w).parallel.tp == 4);
}

TEST_CASE("the report's all-reduce bus bandwidth is the algorithm it timed", "[interconnect]") {
    // 8 H100, dp 8, training: NCCL's NVLS (NVLink SHARP) wins the gradient all-reduce, and the
    // report's bus bandwidth is NVLS's (its algorithm bandwidth x 2(n - 1)/n), not the ring's
    // 369 GB/s beside an `nvls` algorithm (the QA's contradiction).
    Config c = config("llama-3-8b", "h100-sxm");
    c.mode = Mode::train;
    c.gpus = 8;
    c.zero = 1;
    const Report r = run(c);
    REQUIRE(r.parallel.dp == 8);
    REQUIRE(r.interconnect.allreduce_algorithm == "nvls");
    const detail::Span dp = detail::span_of(fabric("h100-sxm"), 8, 1);
    CHECK(r.interconnect.allreduce_busbw_bytes_per_s == Approx(dp.nvls_algbw * 2.0 * 7 / 8));
    CHECK(r.interconnect.allreduce_busbw_bytes_per_s > dp.busbw);
}
