// test_pods.cpp: the network's pods (pod_gpus, pod_oversubscription; docs/formulas.md "Pods"):
// what crosses a pod's oversubscribed uplinks, derived by hand on small cases of H100 SXM nodes
// (8 GPUs on NVLink 4, one NDR InfiniBand NIC per GPU between nodes).
#include <catch2/catch.hpp>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/io.hpp"
#include "interconnect.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

detail::Fabric h100(long long pod_gpus = 0, double oversubscription = 1, long long job_gpus = 0) {
    detail::Fabric f = detail::make_fabric(catalog().gpu("h100-sxm"), catalog(), nullptr, nullptr);
    detail::set_pods(f, pod_gpus, oversubscription, job_gpus);
    return f;
}

}  // namespace

TEST_CASE("an all-to-all across pods: what leaves the pod goes at 1 / oversubscription of the NIC", "[pods][interconnect]") {
    // 32 GPUs in 4 nodes; pods of 16 (2 nodes), 4:1 between them. Each GPU sends 1/32 of its
    // buffer to every GPU: 7/32 over NVLink to its node, 24/32 through its NIC, of which 16/32
    // to the other pod's GPUs through uplinks at 1/4 of the NIC.
    const detail::Span flat = detail::span_of(h100(), 32, 1);
    const detail::Span pod = detail::span_of(h100(16, 4, 32), 32, 1);
    REQUIRE(flat.rails);
    CHECK(pod.pods == 2);
    CHECK(pod.pod_members == Approx(16));
    CHECK(pod.pod_uplink_share == Approx(0.25));
    const double S = 1 << 30;
    const double in = S * 7 / 32 / flat.busbw_in, out = S * 24 / 32 / flat.busbw_out;
    const double cross = S * 16 / 32 / (flat.busbw_out * 0.25);
    const double lat = 28 * flat.lat_in_simple + 3 * flat.lat_out_simple;   // n - 1 - (units - 1) steps inside, units - 1 across
    CHECK(detail::all_to_all_seconds(flat, S) == Approx(detail::kNcclBaseLatencySimple + lat + std::max(in, out)));
    CHECK(detail::all_to_all_seconds(pod, S) == Approx(detail::kNcclBaseLatencySimple + lat + cross));
    // 16 / 32 / 0.25 = 2 NICs' worth against 24 / 32 = 0.75: the uplinks set the time, 2.67x.
    CHECK(detail::all_to_all_seconds(pod, S) / detail::all_to_all_seconds(flat, S) == Approx(2.0 / 0.75).epsilon(0.01));
    // Full bisection between pods changes nothing.
    CHECK(detail::all_to_all_seconds(detail::span_of(h100(16, 1, 32), 32, 1), S) == Approx(detail::all_to_all_seconds(flat, S)));
}

TEST_CASE("a ring crosses pods once per channel: it slows only when few of a group's GPUs share a pod", "[pods][interconnect]") {
    // Data-parallel groups 8 GPUs apart (one member per node, tensor parallelism inside it), 64
    // of them over 512 GPUs, pods of 256 at 7:1: each pod holds 32 members of a group and 8
    // groups; each group's ring leaves the pod by one flow, 8 flows against 256 / 7 = 36.6 NICs of
    // uplink. No slowdown: the Llama 3 paper's data-parallel rings across pods.
    const detail::Span flat_dp = detail::span_of(h100(), 64, 8);
    const detail::Span pod_dp = detail::span_of(h100(256, 7, 512), 64, 8);
    CHECK(pod_dp.pods == 2);
    CHECK(pod_dp.local == 1);
    CHECK(pod_dp.busbw == Approx(flat_dp.busbw));
    // 32 consecutive GPUs (8 per node, 8 rails) over pods of 16 at 4:1: each pod holds 16 members
    // of a group and one group, whose ring leaves by 8 channels against 16 / 4 = 4 NICs of
    // uplink: local x oversubscription / pod_members = 8 x 4 / 16 = 2, the ring's network half as fast.
    const detail::Span flat = detail::span_of(h100(), 32, 1);
    const detail::Span pod = detail::span_of(h100(16, 4, 32), 32, 1);
    const double out_flat = flat.busbw_out * double(flat.local);
    CHECK(flat.busbw == Approx(std::min(flat.busbw_in, out_flat)));
    CHECK(pod.busbw == Approx(std::min(flat.busbw_in, out_flat / 2.0)));
}

TEST_CASE("pipeline sends between stages in different pods share the pod's uplinks", "[pods][interconnect]") {
    // Stages 16 GPUs apart on 32 GPUs with pods of 16 at 4:1: every GPU of the first pod sends to
    // one in the second at once, through uplinks that carry a quarter of them: 4x the wire time.
    const double S = 64.0 * 1024 * 1024;
    const detail::Fabric flat = h100(), pod = h100(16, 4, 32);
    const double base = detail::p2p_seconds(flat, 16, 0.0);   // latencies alone
    CHECK(detail::p2p_seconds(pod, 16, S) - base == Approx(4.0 * (detail::p2p_seconds(flat, 16, S) - base)));
    // Stages 8 apart over pods of 32: a quarter of a pod's GPUs send out at once, 1/4 x 4 = 1: no slowdown.
    CHECK(detail::p2p_seconds(h100(32, 4, 64), 8, S) == Approx(detail::p2p_seconds(flat, 8, S)));
    // The whole job in one pod: nothing crosses.
    CHECK(detail::p2p_seconds(h100(32, 4, 32), 16, S) == Approx(detail::p2p_seconds(flat, 16, S)));
}

TEST_CASE("pods in the report: the keys, interconnect.pods, and a data-parallel sync across them", "[pods][training]") {
    // Mixtral 8x7B on 32 H100 (4 nodes), expert parallelism 8 inside each node, ZeRO-1 data
    // parallelism over all 32 GPUs.
    Config c = training("mixtral-8x7b", "h100-sxm", 32);
    c.tp = 1;
    c.pp = 1;
    c.ep = 8;
    c.zero = 1;
    c.context = 4096;
    c.global_batch = 256;
    const Report flat = estimate(c, catalog());
    CHECK(flat.interconnect.pods == 1);
    // Pods of 16 GPUs (2 nodes) at 8:1: the sync's 8 rails leave each pod against 16 / 8 = 2 NICs
    // of uplink, local x oversubscription / pod_members = 8 x 8 / 16 = 4: its network part 4x
    // slower (hierarchical: the per-rail rings), the expert all-to-alls untouched (one node).
    c.pod_gpus = 16;
    c.pod_oversubscription = 8;
    const Report pods = estimate(c, catalog());
    CHECK(pods.interconnect.pods == 2);
    CHECK(pods.interconnect.ep_comm_s_per_step == Approx(flat.interconnect.ep_comm_s_per_step));
    CHECK(pods.interconnect.dp_allreduce_s_per_step > 3.5 * flat.interconnect.dp_allreduce_s_per_step);
    CHECK(pods.interconnect.dp_allreduce_s_per_step < 4.0 * flat.interconnect.dp_allreduce_s_per_step);
    CHECK(pods.speed.train_step_s > flat.speed.train_step_s);
    // At 1:1 the pods change nothing.
    c.pod_oversubscription = 1;
    CHECK(estimate(c, catalog()).speed.train_step_s == Approx(flat.speed.train_step_s));
    const std::string json = report_to_json(pods, -1);
    CHECK(json.find("\"pods\":2") != std::string::npos);
    // The keys: JSON names, link codes, ranges.
    const ConfigKey* k = find_config_key("pod_gpus");
    REQUIRE(k != nullptr);
    CHECK(std::string(k->link) == "pod");
    const ConfigKey* o = find_config_key("pod_oversubscription");
    REQUIRE(o != nullptr);
    CHECK(std::string(o->link) == "pos");
    CHECK(o->min == 1);
}
