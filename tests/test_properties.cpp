// test_properties.cpp: properties over random configurations. A seeded generator draws
// thousands of configurations over every key (models, custom models, modes, formats, parallel
// splits, runtimes, links, efficiencies, power settings); each one either estimates or is
// refused with an Error naming a key, and every estimate must be finite, non-negative where it
// is a size, consistent (totals equal the sum of their parts) and monotonic where physics says
// so. GPUSIZER_PROPERTY_SEED=N replays another draw; a failure prints the configuration.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <random>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

struct Draw {
    std::mt19937_64 rng;
    explicit Draw(std::uint64_t seed) : rng(seed) {}
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
    double log_real(double lo, double hi) { return std::exp(real(std::log(lo), std::log(hi))); }
    bool chance(double p) { return real(0, 1) < p; }
    template <typename T>
    const T& pick(const std::vector<T>& v) { return v[std::size_t(integer(0, int(v.size()) - 1))]; }
};

Config random_config(Draw& d) {
    const Catalog& cat = catalog();
    Config c;
    const double kind = d.real(0, 1);
    if (kind < 0.85) {
        c.model.id = cat.models[std::size_t(d.integer(0, int(cat.models.size()) - 1))].arch.id;
    } else if (kind < 0.93) {
        // A parameter count, as a configuration gives it.
        c = config_from_json("{\"model\": {\"num_parameters\": " + std::to_string(d.log_real(1e8, 2e12)) + "}}");
    } else {
        // A Llama- or Mixtral-shaped model from random numbers, through the importer.
        const int heads = 1 << d.integer(2, 7);
        const int kv = heads >> d.integer(0, 3);
        const int hidden = heads * (64 << d.integer(0, 1));
        std::string hf = "{\"model_type\": \"" + std::string(d.chance(0.5) ? "llama" : "mixtral") +
                         "\", \"num_hidden_layers\": " + std::to_string(d.integer(1, 96)) + ", \"hidden_size\": " + std::to_string(hidden) +
                         ", \"intermediate_size\": " + std::to_string(hidden * d.integer(2, 4)) +
                         ", \"num_attention_heads\": " + std::to_string(heads) +
                         ", \"num_key_value_heads\": " + std::to_string(std::max(kv, 1)) +
                         ", \"vocab_size\": " + std::to_string(d.integer(1000, 256000)) +
                         ", \"num_local_experts\": " + std::to_string(d.integer(2, 16)) + ", \"num_experts_per_tok\": 2}";
        c = config_from_json("{\"model\": {\"hf_config\": " + hf + "}}");
    }
    c.mode = d.pick(std::vector<Mode>{Mode::inference, Mode::inference, Mode::train, Mode::lora, Mode::qlora});
    std::vector<std::string> weights;
    for (const WeightFormat& f : weight_formats()) weights.emplace_back(f.id);
    if (c.mode == Mode::qlora) c.weights = d.chance(0.8) ? "nf4" : "int4";
    else if (c.mode != Mode::inference) c.weights = d.pick(std::vector<std::string>{"bf16", "fp16", "fp32"});
    else c.weights = d.pick(weights);
    if (d.chance(0.3)) {
        std::vector<std::string> kvs;
        for (const KvFormat& f : kv_formats()) kvs.emplace_back(f.id);
        c.kv_cache = d.pick(kvs);
    }
    c.batch = d.chance(0.5) ? 1 : d.integer(1, 64);
    c.context = d.chance(0.2) ? 0 : (long long)d.log_real(64, 262144);
    c.gpu = cat.gpus[std::size_t(d.integer(0, int(cat.gpus.size()) - 1))].id;
    c.gpus = d.chance(0.3) ? 1 : d.integer(1, 64);
    if (c.mode != Mode::inference) {
        c.optimizer = d.pick(std::vector<Optimizer>{Optimizer::adamw, Optimizer::adamw_8bit, Optimizer::sgd, Optimizer::adafactor});
        c.zero = d.integer(0, 3);
        if (c.zero >= 1 && d.chance(0.2)) c.offload = c.zero == 3 && d.chance(0.5) ? Offload::optimizer_params : Offload::optimizer;
        c.recompute = d.pick(std::vector<Recompute>{Recompute::automatic, Recompute::none, Recompute::selective, Recompute::full});
        c.sequence_parallel = d.chance(0.2);
        c.lora_rank = 1 << d.integer(0, 8);
        if (d.chance(0.2)) c.train_tokens = d.log_real(1e6, 1e13);
    }
    c.flash_attention = d.chance(0.8);
    c.runtime = d.pick(std::vector<Runtime>{Runtime::automatic, Runtime::automatic, Runtime::pytorch, Runtime::llama_cpp, Runtime::vllm});
    if (d.chance(0.2)) c.mfu = d.real(0.05, 1.0);
    if (d.chance(0.2)) c.bandwidth_efficiency = d.real(0.05, 1.0);
    c.utilization = d.real(0.05, 1.0);
    if (d.chance(0.3)) c.pue = d.real(1.0, 3.0);
    c.usd_per_kwh = d.real(0, 1);
    if (d.chance(0.2)) c.link = cat.links[std::size_t(d.integer(0, int(cat.links.size()) - 1))].id;
    if (d.chance(0.1)) c.host_memory_bandwidth_gb_per_s = d.log_real(10, 1000);
    if (d.chance(0.1)) c.quant_group_size = 32 << d.integer(0, 3);
    return c;
}

bool finite_nonneg(double v) { return std::isfinite(v) && v >= 0; }

// Everything an estimate promises, whatever the configuration.
void check_report(const Report& r) {
    const MemoryParts& m = r.per_gpu;
    for (double v : {m.weights, m.kv_cache, m.activations, m.gradients, m.optimizer, m.overhead, r.overhead_detail.cuda_context,
                     r.overhead_detail.allocator_reserve, r.overhead_detail.runtime_buffers, r.host, r.params, r.active_params,
                     r.trainable_params, r.kv_bytes_per_token, r.kv_capacity_tokens, r.gpu_capacity, r.gpu_usable,
                     r.weights_bits_per_param, r.activations_per_layer})
        CHECK(finite_nonneg(v));
    CHECK(std::isfinite(r.headroom));
    CHECK(r.gpu_capacity > 0);
    CHECK(r.gpu_usable <= r.gpu_capacity * (1 + 1e-12));
    // Totals are the sum of their parts.
    CHECK(m.total() == Approx(m.weights + m.kv_cache + m.activations + m.gradients + m.optimizer + m.overhead));
    CHECK(m.overhead == Approx(r.overhead_detail.cuda_context + r.overhead_detail.allocator_reserve + r.overhead_detail.runtime_buffers));
    CHECK(r.headroom == Approx(r.gpu_usable - m.total()).margin(1.0));
    CHECK(r.fits == (m.total() <= r.gpu_usable));
    CHECK(r.active_params <= r.params * (1 + 1e-12));
    CHECK(r.parallel.tp * r.parallel.pp * r.parallel.dp == r.config.gpus);
    // Speed, communication and power.
    const SpeedReport& s = r.speed;
    for (double v : {s.peak_flops, s.mfu, s.bandwidth_efficiency, s.decode_tokens_per_s, s.decode_throughput_tokens_per_s, s.decode_step_s,
                     s.decode_bytes_per_step, s.prefill_tokens_per_s, s.ttft_s, s.train_flops_per_token, s.train_step_s,
                     s.train_tokens_per_s, s.train_time_s, s.effective_mfu, s.offload.host_bytes, s.offload.decode_tokens_per_s})
        CHECK(finite_nonneg(v));
    CHECK(s.mfu <= 1.0);
    CHECK(s.effective_mfu <= s.mfu * (1 + 1e-9));
    const InterconnectReport& ic = r.interconnect;
    for (double v : {ic.link_bandwidth_bytes_per_s, ic.allreduce_busbw_bytes_per_s, ic.tp_comm_s_per_token, ic.pp_comm_s_per_token,
                     ic.ep_comm_s_per_token, ic.tp_comm_s_per_step, ic.pp_comm_s_per_step, ic.ep_comm_s_per_step,
                     ic.dp_allreduce_s_per_step, ic.dp_exposed_s_per_step, ic.pp_bubble_fraction, ic.exposed_s_per_step,
                     ic.exposed_s_per_token})
        CHECK(finite_nonneg(v));
    CHECK(ic.pp_bubble_fraction < 1.0);
    CHECK(ic.dp_exposed_s_per_step <= ic.dp_allreduce_s_per_step * (1 + 1e-9) + 1e-15);
    const PowerReport& p = r.power;
    for (double v : {p.gpu_w, p.host_w, p.system_w, p.facility_w, p.psu_w, p.heat_w, p.heat_btu_h, p.energy_kwh, p.cost_usd,
                     p.energy_kwh_per_million_tokens, p.cost_usd_per_million_tokens, p.tokens_per_joule, p.hardware_usd})
        CHECK(finite_nonneg(v));
    CHECK(p.system_w == Approx(p.gpu_w + p.host_w));
    CHECK(p.facility_w == Approx(p.system_w * p.pue));
    CHECK(p.heat_btu_h == Approx(p.heat_w * 3.412).epsilon(0.001));
    CHECK(p.pue >= 1.0);
}

std::uint64_t seed() {
    if (const char* s = std::getenv("GPUSIZER_PROPERTY_SEED")) return std::strtoull(s, nullptr, 10);
    return 20261121;
}

}  // namespace

TEST_CASE("random configurations: an estimate or a named refusal, and every estimate sane", "[property][random]") {
    Draw d(seed());
    int estimated = 0, refused = 0;
    for (int i = 0; i < 3000; ++i) {
        const Config c = random_config(d);
        INFO("seed " << seed() << ", draw " << i << ": " << config_to_json(c, -1));
        try {
            const Report r = run(c);
            ++estimated;
            check_report(r);
        } catch (const Error& e) {
            ++refused;
            CHECK_FALSE(e.key().empty());   // a refusal names what to change
        }
    }
    INFO(estimated << " estimated, " << refused << " refused");
    CHECK(estimated > 1500);   // the draw mostly makes configurations that run
}

TEST_CASE("random configurations: monotonic where physics says so", "[property][random]") {
    Draw d(seed() + 1);
    int compared = 0;
    for (int i = 0; i < 1500; ++i) {
        Config c = random_config(d);
        INFO("seed " << seed() + 1 << ", draw " << i << ": " << config_to_json(c, -1));
        Report base;
        try {
            base = run(c);
        } catch (const Error&) {
            continue;
        }
        auto variant = [&](const std::function<void(Config&)>& change, Report& out) {
            Config v = base.config;   // the resolved configuration: the same split, runtime, link
            change(v);
            try {
                out = run(v);
                return true;
            } catch (const Error&) {
                return false;
            }
        };
        Report r;
        // More context, or more sequences, never needs less memory per GPU.
        if (variant([](Config& v) { v.context = std::min<long long>(v.context * 2, 1LL << 27); v.prompt_tokens = 0; }, r))
            CHECK(r.per_gpu.total() >= base.per_gpu.total() * (1 - 1e-12));
        if (variant([](Config& v) { v.batch += 1; v.global_batch = 0; }, r))
            CHECK(r.per_gpu.total() >= base.per_gpu.total() * (1 - 1e-12));
        // More of the memory bandwidth never slows decoding; more of the tensor peak never slows
        // prefill or training.
        if (variant([](Config& v) { v.bandwidth_efficiency = std::min(1.0, v.bandwidth_efficiency * 1.25); }, r)) {
            CHECK(r.speed.decode_tokens_per_s >= base.speed.decode_tokens_per_s * (1 - 1e-9));
            CHECK(r.speed.offload.decode_tokens_per_s >= base.speed.offload.decode_tokens_per_s * (1 - 1e-9));
        }
        if (variant([](Config& v) { v.mfu = std::min(1.0, v.mfu * 1.25); }, r)) {
            CHECK(r.speed.prefill_tokens_per_s >= base.speed.prefill_tokens_per_s * (1 - 1e-9));
            CHECK(r.speed.train_tokens_per_s >= base.speed.train_tokens_per_s * (1 - 1e-9));
        }
        // A faster host never slows llama.cpp's offloaded layers, nor ZeRO-Offload's optimizer step.
        if (variant([](Config& v) { v.host_memory_bandwidth_gb_per_s *= 2; }, r)) {
            CHECK(r.speed.offload.decode_tokens_per_s >= base.speed.offload.decode_tokens_per_s * (1 - 1e-9));
            CHECK(r.speed.train_tokens_per_s >= base.speed.train_tokens_per_s * (1 - 1e-9));
        }
        // Drawing more power costs more energy; a worse room (PUE) costs more at the wall.
        if (variant([](Config& v) { v.utilization = std::min(1.0, v.utilization * 1.5); }, r))
            CHECK(r.power.system_w >= base.power.system_w * (1 - 1e-12));
        if (variant([](Config& v) { v.pue = std::min(3.0, v.pue + 0.3); }, r))
            CHECK(r.power.facility_w >= base.power.facility_w * (1 - 1e-12));
        // Fewer bits per weight never needs more weight memory.
        if (base.config.mode == Mode::inference && base.config.weights == "bf16" &&
            variant([](Config& v) { v.weights = "fp8"; v.runtime = Runtime::automatic; v.tp = v.pp = v.dp = v.ep = 0; }, r) &&
            r.parallel.tp == base.parallel.tp && r.parallel.pp == base.parallel.pp)
            CHECK(r.per_gpu.weights <= base.per_gpu.weights * (1 + 1e-12));
        // ZeRO-3: more data-parallel GPUs never raise the memory per GPU, once there is a
        // data-parallel group at all (from one rank to two, NCCL's communicator buffers arrive,
        // and with everything offloaded there is nothing on the GPU to shard against them).
        if (base.config.mode == Mode::train && base.config.zero == 3 && base.parallel.tp == 1 && base.parallel.pp == 1 &&
            base.parallel.dp >= 2 &&
            variant([](Config& v) { v.gpus *= 2; v.dp *= 2; v.global_batch = 0; }, r))
            CHECK(r.per_gpu.total() <= base.per_gpu.total() * (1 + 1e-12));
        ++compared;
    }
    CHECK(compared > 700);
}
