// power/power.hpp: power, energy and heat of a configuration: the GPUs' board draw by what
// bounds the work, the machine at the wall by phase (power/wall_power.hpp), the supply to buy,
// heat, and energy per token or per run.
#pragma once

#include "performance.hpp"
#include "power/wall_power.hpp"

namespace gpusizer::detail {

constexpr double kPueDatacenter = 1.58;       // Uptime Institute Global Data Center Survey 2023: average PUE 1.58
// The host by platform class, and its supply: power/wall_power.cpp (HostProfile).
// GPUs per machine by class, derived from the lanes and slots: a consumer CPU gives its graphics
// 16 PCIe lanes (Ryzen AM5 and Core LGA1700/1851 alike), two cards at x8; a Threadripper PRO / Xeon W
// board (128 / 112 lanes, 7 slots in a tower) holds four double-slot cards at x16; more is a server.
constexpr int kDesktopMaxGpus = 2;
constexpr int kWorkstationMaxGpus = 4;
constexpr double kGpuTransientFactor = 3.0;   // PCIe CEM 5.0: a GPU may spike to 3x its sustained power for 100 us
constexpr double kPsuExcursionFactor = 2.0;   // ATX 3.0: a PSU carries 200% of its rating for 100 us
constexpr double kBtuPerHourPerWatt = 3.412;  // 1 W = 3.412 BTU/h (1 BTU/h = 0.29307 W)
// GPU draw by what bounds the work: a share of board power from the compute utilization u_c
// (FLOP/s over the dense peak) and the memory utilization u_m (bytes/s over the bandwidth). The
// board draws a static floor f (leakage, clocks, fans: what an active GPU draws doing little) and
// a dynamic part on top, 1 - f of board power at most. Compute alone uses a_c = u_c / 0.5 of that
// headroom, memory alone a_m = u_m x k / (1 - f) (on HBM, weights and KV cache each at their own
// k); a step doing both leaves idle the product of what each leaves idle (the SM clocks and the L2
// traffic that a streaming kernel pays for are the ones the GEMMs use, so the two shares overlap
// rather than add):
//   draw = 1 - (1 - f)(1 - a_m)(1 - a_c),  a_m, a_c at most 1.
// Alone, each unit keeps its anchor below (f + k u_m; f + (1 - f) u_c / 0.5), the anchors are
// whole-board readings that each hold the floor once, and no mix passes board power. A sum of
// the two anchors counted the floor twice and the shared clocks twice, in exactly the step that
// both streams and computes: a serving step mixing prefill chunks into decode.
// The floor: Ma, Afzal, Eitzinger, Wellein, "The Illusion of Power Capping in LLM Decode"
// (arXiv:2605.11999): decode on an H200 (700 W) draws 137-300 W; its bottom (137 / 700 = 0.196)
// is the least an active GPU draws here.
constexpr double kDrawFloor = 137.0 / 700.0;
// Compute-bound work reaches board power: Patel et al., "POLCA: Power Oversubscription in LLM
// Cloud Providers" (arXiv:2308.12908, sec. 3) measure prompt phases spiking to and beyond TDP and
// training drawing more than inference on average; gpusizer's prefill runs at kPrefillMfu = 0.5
// of the dense peak, so 0.5 is taken as where the board reaches its power limit (the clocks
// then throttle to stay within it): a_c = 1 at u_c = 0.5.
constexpr double kDrawComputeSaturation = 0.5;
// Memory-bound decode on HBM draws well under board power, but more than the top of Ma et al.'s
// range (300 / 700 = 0.43) once an engine keeps the GPU busy, and a byte of KV cache costs more
// than a byte of weights (attention gathers the paged cache block by block and does its softmax
// on the CUDA cores, where a GEMM streams a weight matrix). Two runs of the ML.ENERGY Benchmark
// v3.0 (ml-energy/leaderboard, public/data/tasks/*.json; vLLM 0.11.1, Zeus/NVML energy), Qwen3-14B
// bf16 on one H100 SXM (3.35 TB/s, 989.4 TFLOP/s), each step reading 27.67e9 B of weights and
// requests x mean length x 163,840 B of cache, give the two shares k_w (weights) and k_kv (cache):
//   lm-arena-chat, 8 requests of 634 + 620 / 2 = 944 tokens, 12.54 ms median inter-token latency,
//   443.0 W (0.633): u_w = 0.659, u_kv = 0.0295, u_c = 0.019 (a_c = 0.038), so
//   a_m (1 - f) = (1 - f) - (1 - 0.633) / (1 - a_c) = 0.4226 = 0.659 k_w + 0.0295 k_kv;
//   gpqa, 32 requests of 224 + 6,939 / 2 = 3,694 tokens, 21.55 ms, 525.7 W (0.751): u_w = 0.383,
//   u_kv = 0.268, u_c = 0.049 with attention (a_c = 0.098): (1 - f) - (1 - 0.751) / (1 - a_c)
//   = 0.5284 = 0.383 k_w + 0.268 k_kv.
// Solved: k_w = 0.591 and k_kv = 1.125 of board power per unit of bandwidth utilization. (The
// files' other runs, other models, B200 and another benchmark are rows of the accuracy table,
// not inputs here.)
constexpr double kDrawPerBandwidthHbm = 0.591;
constexpr double kDrawPerKvBandwidthHbm = 1.125;
// GDDR and LPDDR boards spend a larger share of a smaller budget on memory: InventiveHQ, "I Capped
// My GPU to 150W" (inventivehq.com/blog/gpu-power-limit-tokens-per-watt): an RTX 5060 Ti (180 W,
// 448 GB/s) decoding Qwen2.5-Coder-7B in llama.cpp at 81.2 tokens/s drew 172.7 W (0.96 of its
// limit). Its bandwidth utilization is the run's own: 81.2 tokens/s x 4.55 GB read per token
// (Q4_K_M, gpusizer's decode bytes for that model) / 448 GB/s = 0.824, so (0.96 - f) / 0.824
// = 0.93 per unit of u_m.
constexpr double kDrawPerBandwidthOther = (0.96 - kDrawFloor) / (81.2 * 4.547e9 / 448e9);
// Apple's figures are the whole machine at the wall (gpus.json tdp_w: Apple's maximum, a
// compute-intensive test that loads the CPU cores as well; idle_w: idle). A Mac's floor is its
// idle, and decoding, which only streams memory through the GPU, spends a smaller share of the
// span to the maximum than a GDDR card of its board power: Jeff Geerling's Mac mini M4 (idle 4 W,
// maximum 65 W) drew 30.1 W at the wall generating with Llama 3.1 8B Q4_K_M under Ollama
// (geerlingguy/ai-benchmarks issue #2, 2024-11-20), (30.1 - 4) / (65 - 4) = 0.428 of the span,
// where gpusizer's decode reads 5.02 GB per token at 19.0 tokens/s of the M4's 120 GB/s
// (u_m = 0.796): 0.428 / 0.796 = 0.538 per unit of u_m. One machine, the accuracy table's row.
constexpr double kDrawPerBandwidthApple = ((30.1 - 4.0) / (65.0 - 4.0)) / (19.03 * 5.02e9 / 120e9);

// The share of `g`'s board power drawn at compute utilization `u_compute` and memory utilization
// `u_memory` (each 0 to 1; the constants above).
// `u_kv`: the part of `u_memory` that reads KV cache (HBM prices it apart; other memories alike).

double board_draw_fraction(const Gpu& g, double u_compute, double u_memory, double u_kv = 0.0);

// Fills out.power from the speed evaluate_performance() has just written into `out` (its last step).
void evaluate_power(const Resolved& r, const PerfInputs& in, const Fabric& f, PerfOut& out);

// Under a serving load: power.serving_wall_w, and this job's figures (wall_w, its phase, the
// host's and the supply's share, facility, heat, energy at the draw) become the load's.
void serving_power(PerfOut& out, const ServingReport& s, int gpus);

// The machines of configuration `r` as the wall sees them (platform, hosts, supplies), for `gpus`
// GPUs in nodes of `gpus_per_node`; `psu_w`: the supply one node needs (power.psu_w).
WallModel wall_model(const Resolved& r, HostPlatform platform, int gpus_per_node, double psu_w);

}  // namespace gpusizer::detail
