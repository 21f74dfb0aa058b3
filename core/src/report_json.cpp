// report_json.cpp: the report, fit, assumptions, catalog-list and recommendation JSON writers.
//
// [SECTION] Report parts
// [SECTION] Report, fit and assumptions
// [SECTION] Catalog lists and recommendations
#include <cmath>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "gpusizer/catalog.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/launch.hpp"
#include "gpusizer/plan.hpp"
#include "gpusizer/simulate.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/uncertainty.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"
#include "measured_json.hpp"

// The widget's module (web/CMakeLists.txt) compiles this file with GPUSIZER_REPORT_RANGES=0: its
// reports leave out the speed bands (*_range, range_rows) and a measured report's calibration,
// which the widget neither shows nor can be given, to keep it within its download budget.
#ifndef GPUSIZER_REPORT_RANGES
#define GPUSIZER_REPORT_RANGES 1
#endif
// ... and with GPUSIZER_CUSTOM_GPU=0: the widget takes no custom GPU, so writes none.
#ifndef GPUSIZER_GOODPUT
#define GPUSIZER_GOODPUT 1
#endif
#ifndef GPUSIZER_CUSTOM_GPU
#define GPUSIZER_CUSTOM_GPU 1
#endif
// ... and with GPUSIZER_KV_SENSITIVITY=0: its module computes no KV capacity sensitivity
// (core/src/kv_sensitivity.cpp), so the writer of its cases goes too.
#ifndef GPUSIZER_KV_SENSITIVITY
#define GPUSIZER_KV_SENSITIVITY 1
#endif

namespace gpusizer {

using nlohmann::json;
using detail::dump_text;
using detail::object;

// ---------------------------------------------------------------------------------------------
// [SECTION] Report parts
// ---------------------------------------------------------------------------------------------

namespace {

json gpu_entry_json(const Gpu& g);   // one GPU as `gpusizer gpus --json` lists it (below)

// Bytes and counts go out as integers (exact in a double up to 2^53).
json whole(double v) { return json(static_cast<long long>(std::llround(v))); }

// memory.per_gpu: each part (kMemoryParts) under its key, and their total.
json parts_json(const MemoryParts& m) {
    json j = json::object();
    for (const MemoryPartInfo& p : kMemoryParts) j[p.key] = whole(m.*p.bytes);
    j["total"] = whole(m.total());
    return j;
}

// Seconds, rates and watts go out as numbers; a link id that does not apply as null.
json id_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json interconnect_json(const InterconnectReport& ic) {
    json alt = nullptr;
    if (!ic.alternative.link.empty())
        alt = object({{"link", ic.alternative.link},
                      {"hypothetical", ic.alternative.hypothetical},
                      {"tp_comm_s_per_token", ic.alternative.tp_comm_s_per_token},
                      {"dp_allreduce_s_per_step", ic.alternative.dp_allreduce_s_per_step},
                      {"exposed_s", ic.alternative.exposed_s},
                      {"decode_tokens_per_s", ic.alternative.decode_tokens_per_s},
                      {"train_tokens_per_s", ic.alternative.train_tokens_per_s}});
    return object({{"link", id_or_null(ic.link)},
                   {"inter_node_link", id_or_null(ic.inter_node_link)},
                   {"gpus_per_node", ic.gpus_per_node},
                   {"nodes", ic.nodes},
                   {"pods", ic.pods},
                   {"link_bandwidth_bytes_per_s", ic.link_bandwidth_bytes_per_s},
                   {"allreduce_busbw_bytes_per_s", ic.allreduce_busbw_bytes_per_s},
                   {"allreduce_algorithm", std::string(ic.allreduce_algorithm)},
                   {"tp_comm_s_per_token", ic.tp_comm_s_per_token},
                   {"pp_comm_s_per_token", ic.pp_comm_s_per_token},
                   {"ep_comm_s_per_token", ic.ep_comm_s_per_token},
                   {"tp_comm_s_per_step", ic.tp_comm_s_per_step},
                   {"pp_comm_s_per_step", ic.pp_comm_s_per_step},
                   {"ep_comm_s_per_step", ic.ep_comm_s_per_step},
                   {"dp_allreduce_s_per_step", ic.dp_allreduce_s_per_step},
                   {"dp_exposed_s_per_step", ic.dp_exposed_s_per_step},
                   {"pp_bubble_fraction", ic.pp_bubble_fraction},
                   {"pp_schedule", std::string(ic.pp_schedule)},
                   {"tp_exposed_s_per_step", ic.tp_exposed_s_per_step},
                   {"pp_exposed_s_per_step", ic.pp_exposed_s_per_step},
                   {"ep_exposed_s_per_step", ic.ep_exposed_s_per_step},
                   {"cp_comm_s_per_step", ic.cp_comm_s_per_step},
                   {"cp_exposed_s_per_step", ic.cp_exposed_s_per_step},
                   {"offload_s_per_step", ic.offload_s_per_step},
                   {"offload_exposed_s_per_step", ic.offload_exposed_s_per_step},
                   {"virtual_stages", ic.virtual_stages},
                   {"exposed_s_per_step", ic.exposed_s_per_step},
                   {"exposed_s_per_token", ic.exposed_s_per_token},
                   {"alternative", alt}});
}

// speed.goodput: what a training run loses beyond its steps; null for inference, and in the
// widget's module, which computes none (GPUSIZER_GOODPUT=0, web/CMakeLists.txt).
json goodput_json(const GoodputReport& g) {
    if (!GPUSIZER_GOODPUT || !g.active) return nullptr;
    return object({{"job_mtbf_s", g.job_mtbf_s > 0 ? json(g.job_mtbf_s) : json(nullptr)},
                   {"checkpoint_bytes", whole(g.checkpoint_bytes)},
                   {"checkpoint_save_s", g.checkpoint_save_s},
                   {"checkpoint_interval_s", g.checkpoint_interval_s > 0 ? json(g.checkpoint_interval_s) : json(nullptr)},
                   {"restart_s", g.restart_s},
                   {"lost_s_per_failure", g.lost_s_per_failure},
                   {"eval_s_per_step", g.eval_s_per_step},
                   {"ramp_extra_s", g.ramp_extra_s},
                   {"interruptions", g.interruptions},
                   {"steps_fraction", g.steps_fraction},
                   {"checkpoint_fraction", g.checkpoint_fraction},
                   {"failure_fraction", g.failure_fraction},
                   {"eval_fraction", g.eval_fraction},
                   {"ramp_fraction", g.ramp_fraction},
                   {"never_finishes", g.never_finishes}});
}

json speed_json(const SpeedReport& s) {
    const OffloadReport& o = s.offload;
    return object({{"compute_precision", std::string(s.compute_precision)},
                   {"compute_precision_requested", std::string(s.compute_precision_requested)},
                   {"native", s.native},
                   {"tensor_cores", s.tensor_cores},
                   {"peak_flops", s.peak_flops},
                   {"mfu", s.mfu},
                   {"bandwidth_efficiency", s.bandwidth_efficiency},
                   {"decode_tokens_per_s", s.decode_tokens_per_s},
                   {"decode_throughput_tokens_per_s", s.decode_throughput_tokens_per_s},
                   {"decode_step_s", s.decode_step_s},
                   {"decode_bytes_per_step", whole(s.decode_bytes_per_step)},
                   {"decode_host_bytes_per_step", whole(s.decode_host_bytes_per_step)},
                   {"decode_compute_bound", s.decode_compute_bound},
                   {"prefill_tokens_per_s", s.prefill_tokens_per_s},
                   {"ttft_s", s.ttft_s},
                   {"prefill_host_copy_s", s.prefill_host_copy_s},
                   {"train_flops_per_token", s.train_flops_per_token},
                   {"train_step_s", s.train_step_s},
                   {"train_tokens_per_s", s.train_tokens_per_s},
                   {"train_time_s", s.train_time_s},
                   {"train_goodput_fraction", s.goodput.active ? json(s.train_goodput_fraction) : json(nullptr)},
                   {"train_wall_time_s", s.train_wall_time_s > 0 ? json(s.train_wall_time_s) : json(nullptr)},
                   {"goodput", goodput_json(s.goodput)},
                   {"effective_mfu", s.effective_mfu},
                   {"mfu_effective", s.mfu_effective},
                   {"hfu", s.hfu},
                   {"compute_s", s.compute_s},
                   {"bubble_s", s.bubble_s},
                   {"bubble_fraction", s.bubble_fraction},
                   {"exposed_comm_s", s.exposed_comm_s},
                   {"optimizer_step_host_s", s.optimizer_step_host_s},
                   {"optimizer_step_s", s.optimizer_step_s},
                   {"step_sync_s", s.step_sync_s},
                   {"step_overhead_s", s.step_overhead_s},
                   {"gemm_peak_flops", s.gemm_peak_flops},
                   {"offload", object({{"active", o.active},
                                 {"gpu_layers", o.gpu_layers},
                                 {"total_layers", o.total_layers},
                                 {"host_bytes", whole(o.host_bytes)},
                                 {"host_bandwidth_bytes_per_s", o.host_bandwidth_bytes_per_s},
                                 {"decode_tokens_per_s", o.decode_tokens_per_s},
                                 {"experts_on_host_decode_tokens_per_s", o.experts_on_host_decode_tokens_per_s}})}});
}

json power_json(const PowerReport& p) {
    return object({{"gpu_w", p.gpu_w},
                   {"host_w", p.host_w},
                   {"host_platform", std::string(p.host_platform)},
                   {"system_w", p.system_w},
                   {"facility_w", p.facility_w},
                   {"psu_w", p.psu_w},
                   {"heat_w", p.heat_w},
                   {"heat_btu_h", p.heat_btu_h},
                   {"energy_kwh", p.energy_kwh},
                   {"cost_usd", p.cost_usd},
                   {"energy_kwh_per_million_tokens", p.energy_kwh_per_million_tokens},
                   {"cost_usd_per_million_tokens", p.cost_usd_per_million_tokens},
                   {"tokens_per_joule", p.tokens_per_joule},
                   {"hardware_usd", p.hardware_price_known ? json(p.hardware_usd) : json(nullptr)},
                   {"pue", p.pue},
                   {"utilization", p.utilization},
                   {"decode_draw_fraction", p.decode_draw_fraction},
                   {"prefill_draw_fraction", p.prefill_draw_fraction},
                   {"train_draw_fraction", p.train_draw_fraction},
                   {"decode_gpu_w", p.decode_gpu_w},
                   {"prefill_gpu_w", p.prefill_gpu_w},
                   {"train_gpu_w", p.train_gpu_w},
                   {"energy_kwh_per_million_tokens_at_draw", p.energy_kwh_per_million_tokens_at_draw},
                   {"cost_usd_per_million_tokens_at_draw", p.cost_usd_per_million_tokens_at_draw},
                   {"train_energy_kwh_at_draw", p.train_energy_kwh_at_draw},
                   {"idle_wall_w", p.idle_wall_w},
                   {"prefill_wall_w", p.prefill_wall_w},
                   {"decode_wall_w", p.decode_wall_w},
                   {"train_wall_w", p.train_wall_w},
                   {"serving_wall_w", p.serving_wall_w},
                   {"wall_w", p.wall_w},
                   {"wall_phase", std::string(p.wall_phase)},
                   {"facility_wall_w", p.facility_wall_w},
                   {"idle_gpu_w", p.idle_gpu_w},
                   {"host_idle_w", p.host_idle_w},
                   {"host_active_w", p.host_active_w},
                   {"psu_tier", std::string(p.psu_tier)},
                   {"psu_capacity_w", p.psu_capacity_w},
                   {"psu_efficiency", p.psu_efficiency},
                   {"board_w", p.board_w},
                   {"nameplate_w", p.nameplate_w}});
}

// The widget's module carries no cost (GPUSIZER_COST=0, web/CMakeLists.txt: no price table in its
// slim catalog, and no room in its budget); the app, the JS API and the CLI do.
#ifndef GPUSIZER_COST
#define GPUSIZER_COST 1
#endif
// Nor the launch commands (GPUSIZER_LAUNCH=0, web/CMakeLists.txt): the widget shows none, and
// its module then links none of core/src/launch/.
#ifndef GPUSIZER_LAUNCH
#define GPUSIZER_LAUNCH 1
#endif
#if GPUSIZER_COST
// Cost: null where a figure is not known (no price) or does not apply (per million tokens in
// training, per run without train_tokens).
json cost_json(const CostReport& k, bool training, bool run) {
    auto known = [](bool ok, double v) { return ok ? json(v) : json(nullptr); };
    const bool own = k.gpu_price_known, rent = k.rent_known;
    return object({{"usd_per_kwh", k.usd_per_kwh},
                   {"electricity_usd_per_hour", k.electricity_usd_per_hour},
                   {"electricity_usd_per_million_tokens", known(!training, k.electricity_usd_per_million_tokens)},
                   {"electricity_usd_per_run", known(run, k.electricity_usd_per_run)},
                   {"gpu_usd", known(own, k.gpu_usd)},
                   {"host_usd", known(k.host_price_known, k.host_usd)},
                   {"hardware_usd", known(own, k.hardware_usd)},
                   {"lifetime_years", k.lifetime_years},
                   {"duty_cycle", k.duty_cycle},
                   {"hardware_usd_per_hour", known(own, k.hardware_usd_per_hour)},
                   {"hardware_usd_per_million_tokens", known(own && !training, k.hardware_usd_per_million_tokens)},
                   {"hardware_usd_per_run", known(own && run, k.hardware_usd_per_run)},
                   {"own_usd_per_million_tokens", known(own && !training, k.own_usd_per_million_tokens)},
                   {"own_usd_per_run", known(own && run, k.own_usd_per_run)},
                   {"rent_usd_per_gpu_hour", known(rent, k.rent_usd_per_gpu_hour)},
                   {"rent_min_usd_per_gpu_hour", known(rent, k.rent_min_usd_per_gpu_hour)},
                   {"rent_max_usd_per_gpu_hour", known(rent, k.rent_max_usd_per_gpu_hour)},
                   {"rent_rows", k.rent_rows},
                   {"rent_kind", k.rent_kind},
                   {"rent_provider", k.rent_provider},
                   {"rent_date", rent && !k.rent_date.empty() ? json(k.rent_date) : json(nullptr)},
                   {"rent_usd_per_hour", known(rent, k.rent_usd_per_hour)},
                   {"rent_usd_per_million_tokens", known(rent && !training, k.rent_usd_per_million_tokens)},
                   {"rent_usd_per_run", known(rent && run, k.rent_usd_per_run)},
                   {"buy_break_even_months", known(k.buy_break_even_months > 0, k.buy_break_even_months)},
                   {"buy_never_pays_off", k.buy_never_pays_off}});
}

#endif

// Serving under load: max_concurrency always; the load's figures when isl and osl were given
// (null otherwise, so that a reader tells "not asked" from zero).
json serving_json(const ServingReport& s) {
    json j = object({{"max_concurrency", std::floor(s.max_concurrency * 100.0) / 100.0}});
    const char* keys[] = {"concurrency", "output_tokens_per_s", "output_tokens_per_s_per_gpu", "tokens_per_s_per_user", "ttft_s",
                          "tpot_s", "requests_per_s", "step_s", "decode_tokens_per_step", "prefill_tokens_per_step",
                          "draw_fraction", "gpu_w", "energy_kwh_per_million_tokens", "cost_usd_per_million_tokens", "wall_w"};
    const double values[] = {s.concurrency, s.output_tokens_per_s, s.output_tokens_per_s_per_gpu, s.tokens_per_s_per_user, s.ttft_s,
                             s.tpot_s, s.requests_per_s, s.step_s, s.decode_tokens_per_step, s.prefill_tokens_per_step,
                             s.draw_fraction, s.gpu_w, s.energy_kwh_per_million_tokens, s.cost_usd_per_million_tokens, s.wall_w};
    for (std::size_t i = 0; i < sizeof values / sizeof values[0]; ++i) j[keys[i]] = s.active ? json(values[i]) : json(nullptr);
    j["bound"] = s.active ? json(std::string(s.bound)) : json(nullptr);
    return j;
}

// The bands of the speed figures (gpusizer/uncertainty.hpp): [lo, hi] beside each figure as
// `<key>_range`, null when the figure is not computed or no accuracy row backs it; times take the
// band inversely. speed.range_rows says which rows each band comes from.
#if GPUSIZER_REPORT_RANGES
json band_range(double x, const SpeedBand& b, bool time = false) {
    if (!(x > 0) || b.rows == 0) return json(nullptr);
    return time ? json::array({x / b.hi, x / b.lo}) : json::array({x * b.lo, x * b.hi});
}

json band_source(const SpeedBand& b) {
    if (b.rows == 0) return json(nullptr);
    return object({{"rows", b.rows}, {"same_runtime", b.same_runtime}, {"from", std::string(b.rows_from)}, {"lo", b.lo}, {"hi", b.hi}});
}

void add_speed_ranges(json& j, const Report& r) {
    const SpeedReport& s = r.speed;
    json& sp = j["speed"];
    const SpeedBand decode = speed_band(SpeedFigure::decode, r), prefill = speed_band(SpeedFigure::prefill, r),
                    train = speed_band(SpeedFigure::train_throughput, r);
    const bool training = r.config.mode != Mode::inference;
    sp["decode_tokens_per_s_range"] = training ? json(nullptr) : band_range(s.decode_tokens_per_s, decode);
    sp["decode_throughput_tokens_per_s_range"] = training ? json(nullptr) : band_range(s.decode_throughput_tokens_per_s, decode);
    sp["prefill_tokens_per_s_range"] = training ? json(nullptr) : band_range(s.prefill_tokens_per_s, prefill);
    sp["ttft_s_range"] = training ? json(nullptr) : band_range(s.ttft_s, prefill, true);
    sp["train_tokens_per_s_range"] = training ? band_range(s.train_tokens_per_s, train) : json(nullptr);
    sp["train_step_s_range"] = training ? band_range(s.train_step_s, train, true) : json(nullptr);
    sp["train_time_s_range"] = training ? band_range(s.train_time_s, train, true) : json(nullptr);
    sp["range_rows"] =
        training ? object({{"train", band_source(train)}}) : object({{"decode", band_source(decode)}, {"prefill", band_source(prefill)}});
}

void add_serving_ranges(json& sv, const Report& r) {
    const SpeedBand b = speed_band(SpeedFigure::serving_throughput, r);
    const ServingReport& s = r.serving;
    const bool on = s.active;
    sv["output_tokens_per_s_range"] = on ? band_range(s.output_tokens_per_s, b) : json(nullptr);
    sv["output_tokens_per_s_per_gpu_range"] = on ? band_range(s.output_tokens_per_s_per_gpu, b) : json(nullptr);
    sv["tokens_per_s_per_user_range"] = on ? band_range(s.tokens_per_s_per_user, b) : json(nullptr);
    sv["requests_per_s_range"] = on ? band_range(s.requests_per_s, b) : json(nullptr);
    // Both times are counts of engine steps (the wait for a slot, of completions): they scale with
    // the step, so they take the band inversely, as speed.ttft_s_range does.
    sv["ttft_s_range"] = on ? band_range(s.ttft_s, b, true) : json(nullptr);
    sv["tpot_s_range"] = on ? band_range(s.tpot_s, b, true) : json(nullptr);
    sv["range_rows"] = on ? band_source(b) : json(nullptr);
}

#endif  // GPUSIZER_REPORT_RANGES

json report_json(const Report& r) {
    json j;
    j["schema_version"] = 1;
    j["model"] = object({{"id", r.config.model.custom ? std::string("custom") : r.config.model.id}, {"name", r.model_name}});
    {
        // Where the model came from, and the exact bytes of the file(s) it was read from.
        const ModelSpec& ms = r.config.model;
        j["model"]["source"] = !ms.custom ? std::string("catalog")
                               : !ms.arch.source.empty() ? ms.arch.source
                               : !ms.hf_config_json.empty() ? std::string("hf_config") : std::string("num_parameters");
        j["model"]["file_bytes"] = ms.arch.file.empty() ? json(nullptr) : json(ms.arch.file.total);
        // The parameters the file(s) hold by part, counted from the tensors by logical shape (a
        // packed tensor counts the values it packs; scales and zero points count none).
        const ModelArch::FileWeights& f = ms.arch.file;
        j["model"]["file_params"] = f.empty() ? json(nullptr)
                                              : object({{"text", whole(f.params_text)},
                                                        {"vision", whole(f.params_vision)},
                                                        {"audio", whole(f.params_audio)},
                                                        {"mtp", whole(f.params_mtp)}});
    }
    // Stored weights by part: text is what `params` counts; the others are loaded beside it.
    j["model"]["params_by_part"] = object({{"text", whole(r.params_by_part.text)},     {"vision", whole(r.params_by_part.vision)},
                                           {"audio", whole(r.params_by_part.audio)},   {"mtp", whole(r.params_by_part.mtp)},
                                           {"embeddings", whole(r.params_by_part.embeddings)}});
    j["gpu"] = object({{"id", r.config.gpu}, {"name", r.gpu_name}});
    j["gpu"]["source"] = GPUSIZER_CUSTOM_GPU && r.custom_gpu ? "custom" : "catalog";
#if GPUSIZER_CUSTOM_GPU
    if (r.custom_gpu) {
        // What the estimate used: the figures (as `gpusizer gpus --json` lists a catalog GPU) and
        // each field the configuration did not give, with the value it took and why.
        j["gpu"]["base"] = r.config.custom_gpu.base.empty() ? json(nullptr) : json(r.config.custom_gpu.base);
        j["gpu"]["figures"] = gpu_entry_json(r.custom_gpu->gpu);
        json defaults = json::array();
        for (const GpuDefault& d : r.custom_gpu->defaults)
            defaults.push_back(object({{"field", d.field}, {"value", d.value}, {"why", d.why}}));
        j["gpu"]["defaults"] = std::move(defaults);
    }
#endif
    j["config"] = config_to_json_value(r.config);
    j["parallel"] = object({{"tp", r.parallel.tp}, {"pp", r.parallel.pp}, {"dp", r.parallel.dp}, {"ep", r.parallel.ep},
                            {"cp", r.parallel.cp}});
    j["params"] = whole(r.params);
    j["active_params"] = whole(r.active_params);
    j["model"]["active_params_convention"] = std::string(to_string(r.active_convention));   // what "active" leaves out
    j["trainable_params"] = whole(r.trainable_params);
    j["kv_bytes_per_token"] = whole(r.kv_bytes_per_token);
    j["state_bytes_per_sequence"] = whole(r.state_bytes_per_sequence);
    j["weights_bits_per_param"] = std::round(r.weights_bits_per_param * 1000.0) / 1000.0;
    {
        const WeightsSchemeReport& w = r.weights_scheme;
        auto bits = [&](double b) { return w.class_bits ? json(std::round(b * 1000.0) / 1000.0) : json(nullptr); };
        j["weights_scheme"] = object({{"source", w.source},
                                      {"format", w.format},
                                      {"method", w.method},
                                      {"bits_by_class", w.class_bits ? object({{"attention", bits(w.attention_bits)},
                                                                               {"mlp", bits(w.mlp_bits)},
                                                                               {"shared_expert", bits(w.shared_expert_bits)},
                                                                               {"routed_expert", bits(w.routed_expert_bits)},
                                                                               {"router", bits(w.router_bits)},
                                                                               {"embedding", bits(w.embedding_bits)},
                                                                               {"lm_head", bits(w.lm_head_bits)},
                                                                               {"other", bits(w.other_bits)}})
                                                                     : json(nullptr)}});
    }
    json mem;
    mem["per_gpu"] = parts_json(r.per_gpu);
    const CacheDetail& cd = r.cache_detail;
    mem["cache_detail"] = object({{"full", whole(cd.full)},       {"sliding", whole(cd.sliding)}, {"chunked", whole(cd.chunked)},
                                  {"mla", whole(cd.mla)},         {"indexer", whole(cd.indexer)},
                                  {"recurrent_state", whole(cd.recurrent_state)}});
    mem["overhead_detail"] = object({{"cuda_context", whole(r.overhead_detail.cuda_context)},
                                     {"allocator_reserve", whole(r.overhead_detail.allocator_reserve)},
                                     {"runtime_buffers", whole(r.overhead_detail.runtime_buffers)},
                                     {"communicator_buffers", whole(r.overhead_detail.communicator_buffers)}});
    mem["activations_per_layer"] = whole(r.activations_per_layer);
    mem["kv_capacity_tokens"] = whole(r.kv_capacity_tokens);
    mem["kv_pool_bytes"] = whole(r.memory_kv_pool_bytes);
#if GPUSIZER_KV_SENSITIVITY
    if (const KvSensitivity& k = r.kv_capacity_sensitivity; k.computed) {
        // How the capacity moves (issue 26): each case the configuration with one input changed.
        auto one = [](const KvCapacityCase& c) -> json {
            if (!c.computed) return nullptr;
            return {{"setting", c.setting}, {"tokens", whole(c.tokens)}, {"change_tokens", whole(c.change_tokens)},
                    {"change_pct", c.change_pct}};
        };
        mem["kv_capacity_sensitivity"] = {{"fraction_key", k.fraction_key},   {"fraction", k.fraction},
                                          {"fraction_step", k.fraction_step}, {"budget_bytes", whole(k.budget_bytes)},
                                          {"pool_bytes", whole(k.pool_bytes)}, {"fraction_down", one(k.fraction_down)},
                                          {"fraction_up", one(k.fraction_up)}, {"cuda_graphs", one(k.cuda_graphs)},
                                          {"speculative", one(k.speculative)}};
    } else
#endif
    {
        mem["kv_capacity_sensitivity"] = nullptr;
    }
    mem["host"] = whole(r.host);
    mem["host_experts"] = whole(r.host_experts);
    mem["gpu_capacity"] = whole(r.gpu_capacity);
    mem["gpu_usable"] = whole(r.gpu_usable);
    mem["headroom"] = whole(r.headroom);
    j["memory"] = mem;
    j["fits"] = r.fits;
    j["interconnect"] = interconnect_json(r.interconnect);
    j["speed"] = speed_json(r.speed);
#if GPUSIZER_REPORT_RANGES
    add_speed_ranges(j, r);
#endif
    j["power"] = power_json(r.power);
#if GPUSIZER_COST
    j["cost"] = cost_json(r.cost, r.config.mode != Mode::inference,
                          r.config.mode != Mode::inference && r.speed.train_time_s > 0 && !r.speed.goodput.never_finishes);
#endif
    j["serving"] = serving_json(r.serving);
#if GPUSIZER_REPORT_RANGES
    add_serving_ranges(j["serving"], r);
#endif
    j["warnings"] = r.warnings;
#if GPUSIZER_LAUNCH
    // The engines' launch commands (gpusizer/launch.hpp): the runtime's and every other engine's
    // that can run the configuration; {} for the training modes.
    json launch = json::object();
    for (const auto& [engine, command] : launch_commands(r)) launch[std::string(launch_key(engine))] = command;
    j["launch"] = std::move(launch);
#endif
#if GPUSIZER_REPORT_RANGES
    if (r.measured) j["measured"] = calibration_json(*r.measured);
#endif
    return j;
}

json fit_row_json(const FitRow& row) {
    return object({{"format", row.format}, {"fits", row.fits}, {"total", whole(row.total)},
                   {"headroom", whole(row.headroom)}, {"max_context", row.max_context}, {"runtime", row.runtime}});
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Report, fit and assumptions
// ---------------------------------------------------------------------------------------------

std::string report_to_json(const Report& r, int indent) { return dump_text(report_json(r), indent); }

std::string fit_to_json(const FitReport& f, int indent) {
    json j;
    j["schema_version"] = 1;
    j["report"] = report_json(f.base);
    j["max_context"] = f.max_context;
    j["model_max_context"] = f.model_max_context > 0 ? json(f.model_max_context) : json(nullptr);
    j["max_batch"] = f.max_batch;
    j["best_weights"] = f.best_weights.empty() ? json(nullptr) : json(f.best_weights);
    j["best_weights_runtime"] = f.best_weights.empty() ? json(nullptr) : json(f.best_weights_runtime);
    j["best_kv_cache"] = f.best_kv_cache.empty() ? json(nullptr) : json(f.best_kv_cache);
    j["by_weights"] = json::array();
    for (const auto& row : f.by_weights) j["by_weights"].push_back(fit_row_json(row));
    j["by_kv_cache"] = json::array();
    for (const auto& row : f.by_kv_cache) j["by_kv_cache"].push_back(fit_row_json(row));
    return dump_text(j, indent);
}

namespace {
// One CSV line a leaf of `j`, under its dotted key.
void csv_rows(const json& j, const std::string& key, std::string& out) {
    if (j.is_object() && !j.empty()) {
        for (auto it = j.begin(); it != j.end(); ++it) csv_rows(it.value(), key.empty() ? it.key() : key + "." + it.key(), out);
        return;
    }
    std::string v = j.is_string() ? j.get<std::string>() : j.is_null() ? std::string() : j.dump(-1, ' ', false, json::error_handler_t::replace);
    if (v.find_first_of(",\"\r\n") != std::string::npos) {
        std::string q = "\"";
        for (char ch : v) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        v = q + "\"";
    }
    out += key + "," + v + "\n";
}
}  // namespace

std::string report_to_csv(const Report& r) {
    std::string out = "key,value\n";
    csv_rows(report_json(r), "", out);
    return out;
}

// The request-level simulation (gpusizer/simulate.hpp): simulation.* beside the estimate's report.
std::string simulation_to_json(const SimulationReport& s, int indent) {
    auto lat = [](const LatencyStats& l) { return json{{"mean", l.mean}, {"p50", l.p50}, {"p90", l.p90}, {"p99", l.p99}}; };
    json sim;
    sim["requests"] = s.requests;
    sim["completed"] = s.completed;
    sim["rejected"] = s.rejected;
    sim["preemptions"] = s.preemptions;
    sim["steps"] = s.steps;
    sim["replicas"] = s.replicas;
    sim["request_rate"] = s.request_rate;
    sim["duration_s"] = s.duration_s;
    sim["requests_per_s"] = s.requests_per_s;
    sim["output_tokens_per_s"] = s.output_tokens_per_s;
    sim["input_tokens_per_s"] = s.input_tokens_per_s;
    sim["ttft_s"] = lat(s.ttft_s);
    sim["tpot_s"] = lat(s.tpot_s);
    sim["e2e_s"] = lat(s.e2e_s);
    sim["slo_ttft_ms"] = s.slo_ttft_ms;
    sim["slo_tpot_ms"] = s.slo_tpot_ms;
    sim["slo_attained_fraction"] = s.slo_attained_fraction;
    sim["goodput_rps"] = s.goodput_rps;
    sim["mean_running"] = s.mean_running;
    sim["max_concurrency"] = s.max_concurrency;
    sim["peak_kv_used_fraction"] = s.peak_kv_used_fraction;
    if (s.max_rate.asked) {
        sim["max_rate"] = {{"rps", s.max_rate.rps},
                           {"saturated_rps", s.max_rate.saturated_rps},
                           {"percentile", s.max_rate.percentile},
                           {"simulations", s.max_rate.simulations},
                           {"requests", s.max_rate.requests}};
    }
    json tl = json::array();
    for (const SimulationSample& p : s.timeline)
        tl.push_back({{"t_s", p.t_s}, {"running", p.running}, {"waiting", p.waiting}, {"kv_used_fraction", p.kv_used_fraction}});
    sim["timeline"] = std::move(tl);
    sim["warnings"] = s.warnings;
    sim["wall_s"] = s.wall_s;
    json j;
    j["schema_version"] = 1;
    j["simulation"] = std::move(sim);
    j["report"] = report_json(s.report);
    return dump_text(j, indent);
}

// The layout search (gpusizer/plan.hpp): each layout's knobs, its step taken apart and its
// memory, then the whole report of estimate() for it.
namespace detail {
std::string plan_inference_to_json(const PlanReport& p, int indent);   // plan_inference.cpp
}

std::string plan_to_json(const PlanReport& p, int indent) {
    if (p.mode == PlanMode::inference) return detail::plan_inference_to_json(p, indent);
    json j;
    j["schema_version"] = 1;
    j["mode"] = std::string(to_string(p.mode));
    j["search"] = {{"evaluated", p.evaluated}, {"fitting", p.fitting}, {"seconds", p.seconds}};
    j["top"] = json::array();
    for (const PlanLayout& l : p.top) {
        const Report& r = l.report;
        const Config& c = l.config;
        json layout = {{"tp", c.tp},
                       {"pp", c.pp},
                       {"dp", c.dp},
                       {"ep", std::max(1, c.ep)},
                       {"cp", std::max(1, c.cp)},
                       {"micro_batch", c.batch},
                       {"micro_batches", c.global_batch / std::max(1, c.batch * c.dp)},
                       {"zero", c.zero},
                       {"recompute", std::string(to_string(c.recompute))},
                       {"offload", std::string(to_string(c.offload))},
                       {"sequence_parallel", c.sequence_parallel},
                       {"pp_schedule", std::string(to_string(c.pp_schedule))},
                       {"virtual_stages", r.config.virtual_stages > 0 ? r.config.virtual_stages : 1}};
        json time = {{"step_s", r.speed.train_step_s},
                     {"compute_s", r.speed.compute_s},
                     {"bubble_s", r.speed.bubble_s},
                     {"exposed_comm_s", r.speed.exposed_comm_s},
                     {"optimizer_step_host_s", r.speed.optimizer_step_host_s},
                     {"optimizer_step_s", r.speed.optimizer_step_s},
                     {"step_sync_s", r.speed.step_sync_s},
                     {"step_overhead_s", r.speed.step_overhead_s},
                     {"tp_comm_s", r.interconnect.tp_comm_s_per_step},
                     {"pp_comm_s", r.interconnect.pp_comm_s_per_step},
                     {"dp_exposed_s", r.interconnect.dp_exposed_s_per_step},
                     {"tokens_per_s", r.speed.train_tokens_per_s},
                     {"mfu_effective", r.speed.mfu_effective},
                     {"hfu", r.speed.hfu}};
        json memory = parts_json(r.per_gpu);
        memory["headroom"] = whole(r.headroom);
        json entry = {{"layout", layout}, {"time", time}, {"memory", memory}};
        if (l.run.tokens > 0) {
            json run = {{"tokens", l.run.tokens}, {"seconds", l.run.seconds}, {"days", l.run.seconds / 86400.0},
                        {"gpu_hours", l.run.gpu_hours}, {"energy_usd", l.run.energy_usd}, {"cost_note", l.run.cost_note},
                        {"goodput_fraction", l.run.goodput_fraction},
                        {"wall_seconds", l.run.wall_seconds > 0 ? json(l.run.wall_seconds) : json(nullptr)},
                        {"wall_days", l.run.wall_seconds > 0 ? json(l.run.wall_seconds / 86400.0) : json(nullptr)},
                        {"wall_gpu_hours", l.run.wall_gpu_hours}};
            if (l.run.cost_usd > 0) {
                run["hardware_usd"] = l.run.hardware_usd;
                run["cost_usd"] = l.run.cost_usd;
            }
            entry["run"] = run;
        }
        entry["report"] = report_json(r);
        j["top"].push_back(entry);
    }
    j["why"] = p.why;
    if (p.tokens > 0) j["tokens"] = p.tokens;
    j["not_searched"] = p.not_searched;
    return dump_text(j, indent);
}

std::string assumptions_to_json(const std::vector<Assumption>& items, int indent) {
    json j = json::array();
    for (const auto& a : items) j.push_back({{"name", a.name}, {"value", a.value}, {"source", a.source}});
    return dump_text(j, indent);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Catalog lists and recommendations
// ---------------------------------------------------------------------------------------------

std::string models_to_json(const Catalog& catalog, int indent) {
    json j = json::array();
    for (const auto& m : catalog.models) {
        const ParamCounts pc = count_params(m.arch);
        j.push_back(object({{"id", m.arch.id},
                            {"name", m.arch.name},
                            {"family", m.family},
                            {"hf_repo", m.hf_repo},
                            {"params", whole(pc.total())},
                            {"active_params", whole(pc.active(m.arch))},
                            {"params_published", m.params_published},
                            {"context_trained", m.context_trained},
                            {"layers", m.arch.total_layers()},
                            {"hidden_size", m.arch.hidden},
                            {"attention_heads", m.arch.n_heads},
                            {"kv_heads", m.arch.n_kv_heads},
                            {"moe", m.arch.is_moe()},
                            {"mla", m.arch.mla}}));
    }
    return dump_text(j, indent);
}

std::string links_to_json(const Catalog& catalog, int indent) {
    json j = json::array();
    for (const auto& l : catalog.links)
        j.push_back(object({{"id", l.id},
                            {"name", l.name},
                            {"kind", std::string(to_string(l.kind))},
                            {"scope", std::string(to_string(l.scope))},
                            {"bandwidth_gb_per_s", l.bandwidth_gb_per_s},
                            {"bidirectional_gb_per_s", l.bidirectional_gb_per_s},
                            {"latency_us", l.latency_us},
                            {"latency_large_us", l.latency_large_us},
                            {"gpus_per_node", l.gpus_per_node},
                            {"note", l.note},
                            {"sources", l.sources}}));
    return j.dump(indent);
}

std::string recommend_to_json(const Recommendation& rec, int indent) {
    auto row_json = [](const RecommendRow& r) {
        return object({{"gpu", r.gpu},
                       {"gpu_name", r.gpu_name},
                       {"segment", std::string(to_string(r.segment))},
                       {"gpus", r.gpus},
                       {"weights", r.weights},
                       {"fits", r.fits},
                       {"per_gpu_total", whole(r.per_gpu_total)},
                       {"gpu_usable", whole(r.gpu_usable)},
                       {"headroom", whole(r.headroom)},
                       {"price_usd", r.price_known ? json(r.price_usd) : json(nullptr)},
                       {"tokens_per_s", r.tokens_per_s},
                       {"decode_tokens_per_s", r.decode_tokens_per_s},
                       {"train_tokens_per_s", r.train_tokens_per_s},
                       {"system_w", r.system_w},
                       {"wall_w", r.wall_w},
                       {"own_usd", r.own_known ? json(r.own_usd) : json(nullptr)},
                       {"rent_usd", r.rent_known ? json(r.rent_usd) : json(nullptr)},
                       {"electricity_usd", r.electricity_usd},
                       {"buy_break_even_months", r.buy_break_even_months > 0 ? json(r.buy_break_even_months) : json(nullptr)},
                       {"psu_w", r.psu_w},
                       {"link", r.link.empty() ? json(nullptr) : json(r.link)},
                       {"nodes", r.nodes},
                       {"reasons", r.reasons}});
    };
    const RecommendQuery& q = rec.query;
    json segs = json::array();
    for (Segment sg : q.segments) segs.push_back(std::string(to_string(sg)));
    json j;
    j["schema_version"] = 1;
    j["config"] = config_to_json_value(q.base);
    auto limit = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    j["query"] = object({{"budget_usd", limit(q.budget_usd)},
                         {"power_cap_w", limit(q.power_cap_w)},
                         {"min_tokens_per_s", limit(q.min_tokens_per_s)},
                         {"single_node", q.single_node},
                         {"segments", segs},
                         {"max_gpus", q.max_gpus},
                         {"sort", std::string(to_string(q.sort))}});
    j["weights"] = rec.weights;
    j["tokens_per_s_means"] = rec.training ? "train_tokens_per_s" : "decode_tokens_per_s";
    j["recommended"] = json::array();
    for (const auto& r : rec.recommended) j["recommended"].push_back(row_json(r));
    j["rejected"] = json::array();
    for (const auto& r : rec.rejected) j["rejected"].push_back(row_json(r));
    return j.dump(indent);
}

std::string gpus_to_json(const Catalog& catalog, int indent) {
    json j = json::array();
    for (const auto& g : catalog.gpus) j.push_back(gpu_entry_json(g));
    return dump_text(j, indent);
}

namespace {

// One GPU as `gpusizer gpus --json` lists it (and a report its custom GPU).
json gpu_entry_json(const Gpu& g) {
    const json t = object({{"tf32", g.tensor_tflops_dense.tf32}, {"fp16", g.tensor_tflops_dense.fp16},
                           {"bf16", g.tensor_tflops_dense.bf16}, {"fp8", g.tensor_tflops_dense.fp8},
                           {"int8", g.tensor_tflops_dense.int8}, {"fp4", g.tensor_tflops_dense.fp4}});
    return object({{"id", g.id},
                   {"name", g.name},
                   {"vendor", g.vendor},
                   {"architecture", g.architecture},
                   {"segment", std::string(to_string(g.segment))},
                   {"year", g.year},
                   {"memory_gib", g.memory_gib},
                   {"capacity_bytes", whole(g.capacity_bytes())},
                   {"memory_type", g.memory_type},
                   {"memory_bandwidth_gb_per_s", g.memory_bandwidth_gb_per_s},
                   {"fp32_tflops", g.fp32_tflops},
                   {"tensor_tflops_dense", t},
                   {"tdp_w", g.tdp_w > 0 ? json(g.tdp_w) : json(nullptr)},
                   {"host_w", g.unified_host_w ? json(*g.unified_host_w) : json(nullptr)},
                   {"nvlink", g.nvlink},
                   {"nvlink_gb_per_s", g.nvlink_gb_per_s},
                   {"pcie_gen", g.pcie_gen > 0 ? json(g.pcie_gen) : json(nullptr)},
                   {"ecc", g.ecc},
                   {"p2p", g.p2p},
                   {"tensor_cores", g.tensor_cores},
                   {"form_factor", g.form_factor},
                   {"price_usd", g.price_usd ? json(*g.price_usd) : json(nullptr)},
                   {"price_note", g.price_note}});
}

}  // namespace

}  // namespace gpusizer
