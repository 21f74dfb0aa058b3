// report_text.cpp: the report as text for people: what `gpusizer estimate` prints, and what the
// app copies and downloads as text ("Report" in its bar). Numbers through format.hpp.
//
// [SECTION] Helpers
// [SECTION] The report
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "gpusizer/format.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/gpusizer.hpp"
#include "gpusizer/uncertainty.hpp"

namespace gpusizer {

namespace {

// The text being written, with `<<` as a stream has it but none of iostream's machinery (its
// locales and formatters are some 30 KB gzipped of the browser's app, which copies this text).
class TextOut {
public:
    TextOut& operator<<(std::string_view s) {
        text_.append(s);
        return *this;
    }
    TextOut& operator<<(const std::string& s) { return *this << std::string_view(s); }
    TextOut& operator<<(const char* s) { return *this << std::string_view(s); }
    TextOut& operator<<(char c) {
        text_ += c;
        return *this;
    }
    template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>>>
    TextOut& operator<<(T v) {
        text_ += std::to_string(v);
        return *this;
    }
    TextOut& operator<<(double v) {   // as a stream's default: 6 significant digits
        char b[32];
        std::snprintf(b, sizeof b, "%g", v);
        return *this << b;
    }
    const std::string& str() const { return text_; }

private:
    std::string text_;
};

// `s` in a column of `width` characters, on its left or its right (a stream's setw).
std::string left_in(std::string s, std::size_t width) { return s.size() < width ? s.append(width - s.size(), ' ') : s; }
std::string right_in(const std::string& s, std::size_t width) { return s.size() < width ? std::string(width - s.size(), ' ') + s : s; }


// ---------------------------------------------------------------------------------------------
// [SECTION] Helpers
// ---------------------------------------------------------------------------------------------

void print_row(TextOut& out, const char* name, double bytes, const std::string& note = {}) {
    out << "  " << left_in(name, 14) << right_in(format_gib(bytes), 12);
    if (!note.empty()) out << "   " << note;
    out << '\n';
}

// What a memory part's row adds after its size ("" for none).
std::string part_note(const Report& r, MemoryPart p) {
    if (p == MemoryPart::activations && r.activations_per_layer > 0) return format_gib(r.activations_per_layer) + " per layer";
    if (p == MemoryPart::overhead)
        return "context " + format_gib(r.overhead_detail.cuda_context) + ", allocator " + format_gib(r.overhead_detail.allocator_reserve) +
               ", buffers " + format_gib(r.overhead_detail.runtime_buffers);
    return {};
}

// Measured next to datasheet, for a report calibrated by --measured.
void print_measured(TextOut& out, const Calibration& m) {
    out << "\n  measured (" << m.file << ": " << m.device_name;
    if (!m.mode.empty()) out << ", " << m.mode;
    if (!m.created_utc.empty()) out << ", " << m.created_utc;
    out << ")\n";
    out << "  " << left_in("", 24) << right_in("datasheet", 16) << right_in("measured", 16)
        << '\n';
    for (const auto& f : m.figures) {
        out << "  " << left_in(measured_figure_label(f.key), 24)
            << right_in(f.datasheet > 0 ? format_measured(f.datasheet, f.unit) : std::string("-"), 16)
            << right_in(format_measured(f.measured, f.unit), 16);
        if (f.datasheet > 0) out << right_in(std::to_string(std::lround(100.0 * f.measured / f.datasheet)), 6) << '%';
        else if (f.key == "measured_cuda_context_bytes") out << "   in place of the runtime profile's constant";
        out << '\n';
    }
    if (!m.datasheet_only.empty()) {
        out << "  datasheet only:";
        for (std::size_t i = 0; i < m.datasheet_only.size(); ++i) out << (i ? ", " : " ") << m.datasheet_only[i];
        out << '\n';
    }
    for (const auto& n : m.notes) out << "  note: " << n << '\n';
}

// The shared formatters under the short names this file reads best with.
std::string fixed(double v, int decimals) { return format_fixed(v, decimals); }
std::string duration(double s) { return format_duration(s); }
std::string rate(double tokens_per_s) { return format_rate(tokens_per_s); }
// "on_demand" as words ("on-demand"), the other kinds as they are.
std::string rent_kind_text(const std::string& kind) { return kind == "on_demand" ? "on-demand" : kind; }
// A speed figure with its band (gpusizer/uncertainty.hpp): "~X (Y-Z)"; the plain figure when no
// accuracy row backs it.
std::string banded(double x, const SpeedBand& b) {
    if (!(x > 0) || b.rows == 0) return format_rate(x);
    return "~" + format_rate(x) + " (" + format_rate(x * b.lo) + "\u2013" + format_rate(x * b.hi) + ")";
}
std::string gb_per_s(double bytes_per_s) { return format_bandwidth(bytes_per_s); }
std::string watts(double w) { return format_watts(w); }

void print_performance(TextOut& out, const Report& r) {
    const Config& c = r.config;
    const SpeedReport& s = r.speed;
    const InterconnectReport& ic = r.interconnect;
    const PowerReport& p = r.power;
    const bool training = c.mode != Mode::inference;
    out << "\n  speed (roofline: " << fixed(s.mfu * 100, 0) << "% of " << fixed(s.peak_flops / 1e12, 1) << " TFLOPS "
        << s.compute_precision << (s.tensor_cores ? "" : " without tensor cores");
    if (!training) out << ", " << fixed(s.bandwidth_efficiency * 100, 0) << "% of memory bandwidth";
    out << ")\n";
    if (!training) {
        const SpeedBand db = speed_band(SpeedFigure::decode, r);
        out << "  decode        " << banded(s.decode_tokens_per_s, db) << " tokens/s per sequence";
        if (c.batch > 1 || r.parallel.dp > 1) out << ", " << banded(s.decode_throughput_tokens_per_s, db) << " tokens/s in all";
        out << (s.decode_compute_bound ? " (compute-bound)" : " (memory-bound)") << '\n';
        out << "  prefill       " << banded(s.prefill_tokens_per_s, speed_band(SpeedFigure::prefill, r))
            << " tokens/s; time to first token " << duration(s.ttft_s) << " for " << format_int(double(c.prompt_tokens)) << " prompt tokens"
            << (c.batch > 1 ? " x " + std::to_string(c.batch) : "") << '\n';
        if (s.offload.active)
            out << "  offload       " << s.offload.gpu_layers << " of " << s.offload.total_layers << " layers on the GPUs, "
                << format_gib(s.offload.host_bytes) << " in RAM: " << rate(s.offload.decode_tokens_per_s) << " tokens/s"
                << (s.offload.experts_on_host_decode_tokens_per_s > 0
                        ? "; experts in RAM: " + rate(s.offload.experts_on_host_decode_tokens_per_s) + " tokens/s"
                        : std::string())
                << '\n';
    } else {
        out << "  training      " << banded(s.train_tokens_per_s, speed_band(SpeedFigure::train_throughput, r)) << " tokens/s, "
            << duration(s.train_step_s) << " per step";
        if (s.train_time_s > 0) out << "; " << format_count(c.train_tokens) << " tokens in " << duration(s.train_time_s);
        out << "\n  effective MFU " << fixed(s.effective_mfu * 100, 1) << "% (bubble and exposed communication included)\n";
        const GoodputReport& g = s.goodput;
        if (g.never_finishes) {
            out << "  goodput       none: the run never finishes (see the warning)\n";
        } else if (g.active) {
            out << "  goodput       " << fixed(s.train_goodput_fraction * 100, 1) << "% of the wall time in steps";
            if (s.train_wall_time_s > 0) out << ": the run takes " << duration(s.train_wall_time_s) << " at the wall";
            out << "\n                interruptions " << fixed(g.failure_fraction * 100, 1) << "% (one every "
                << (g.job_mtbf_s > 0 ? duration(g.job_mtbf_s) : std::string("never")) << "), checkpoints "
                << fixed(g.checkpoint_fraction * 100, 1) << "% (" << format_gib(g.checkpoint_bytes) << " in "
                << duration(g.checkpoint_save_s) << " every " << (g.checkpoint_interval_s > 0 ? duration(g.checkpoint_interval_s) : "—")
                << "), evaluation " << fixed(g.eval_fraction * 100, 1) << "%";
            if (g.ramp_fraction > 0) out << ", batch ramp " << fixed(g.ramp_fraction * 100, 1) << "%";
            out << '\n';
        }
        if (s.optimizer_step_host_s > 0)
            out << "  CPU optimizer " << duration(s.optimizer_step_host_s) << " of each step (ZeRO-Offload: host RAM at "
                << gb_per_s(c.host_memory_bandwidth_gb_per_s * 1e9) << ", shared by " << ic.gpus_per_node << " GPUs a node)\n";
        if (s.optimizer_step_s + s.step_sync_s + s.step_overhead_s > 0) {
            out << "  per step      optimizer " << duration(s.optimizer_step_s) << " on the GPU";
            if (s.step_sync_s > 0) out << ", scalar syncs " << duration(s.step_sync_s);
            if (s.step_overhead_s > 0) out << ", step_overhead_s " << duration(s.step_overhead_s);
            out << '\n';
        }
    }
    if (c.gpus > 1 && !ic.link.empty()) {
        out << "\n  interconnect: " << ic.link << " (" << gb_per_s(ic.link_bandwidth_bytes_per_s) << " per direction)";
        if (ic.nodes > 1) out << ", " << ic.nodes << " nodes over " << ic.inter_node_link;
        if (ic.pods > 1) out << " in " << ic.pods << " pods (" << c.pod_oversubscription << ":1 between them)";
        out << '\n';
        if (ic.allreduce_busbw_bytes_per_s > 0) out << "  all-reduce bus bandwidth " << gb_per_s(ic.allreduce_busbw_bytes_per_s) << '\n';
        if (!training) {
            if (ic.tp_comm_s_per_token > 0) out << "  tensor parallel   " << duration(ic.tp_comm_s_per_token) << " per token\n";
            if (ic.pp_comm_s_per_token > 0) out << "  pipeline sends    " << duration(ic.pp_comm_s_per_token) << " per token\n";
            if (ic.ep_comm_s_per_token > 0) out << "  expert all-to-all " << duration(ic.ep_comm_s_per_token) << " per token\n";
        } else {
            if (ic.tp_comm_s_per_step > 0) out << "  tensor parallel   " << duration(ic.tp_comm_s_per_step) << " per step\n";
            if (ic.pp_comm_s_per_step > 0) out << "  pipeline sends    " << duration(ic.pp_comm_s_per_step) << " per step, bubble "
                                               << fixed(ic.pp_bubble_fraction * 100, 1) << "%\n";
            if (ic.ep_comm_s_per_step > 0) out << "  expert all-to-all " << duration(ic.ep_comm_s_per_step) << " per step\n";
            if (ic.cp_comm_s_per_step > 0)
                out << "  ring attention    " << duration(ic.cp_comm_s_per_step) << " per step (cp " << r.parallel.cp << "), "
                    << (ic.cp_exposed_s_per_step > 0 ? duration(ic.cp_exposed_s_per_step) + " not hidden by the attention blocks"
                                                     : std::string("hidden behind the attention blocks"))
                    << '\n';
            if (ic.dp_allreduce_s_per_step > 0)
                out << "  gradient sync     " << duration(ic.dp_allreduce_s_per_step) << " per step, "
                    << (ic.dp_exposed_s_per_step > 0 ? duration(ic.dp_exposed_s_per_step) + " not hidden by the backward pass"
                                                     : std::string("hidden behind the backward pass"))
                    << '\n';
        }
        const LinkTimes& a = ic.alternative;
        if (!a.link.empty()) {
            out << "  over " << a.link << (a.hypothetical ? " (hypothetical: this GPU has none)" : "") << ": ";
            if (!training)
                out << rate(a.decode_tokens_per_s) << " tokens/s decode, " << duration(a.exposed_s) << " communication per token\n";
            else
                out << rate(a.train_tokens_per_s) << " training tokens/s, " << duration(a.exposed_s) << " exposed communication per step\n";
        }
    }
    // Power as a wall meter reads it: the whole machine at the plug, by phase (power/wall_power.hpp).
    const std::string phase = p.wall_phase == "serving" ? "under this load" : p.wall_phase == "train" ? "training" : "generating";
    out << "\n  power at the wall (" << p.host_platform
        << (r.interconnect.nodes > 1 ? ", " + std::to_string(r.interconnect.nodes) + " nodes" : "") << "): " << watts(p.wall_w) << " "
        << phase;
    if (!training) {
        if (p.wall_phase == "serving") out << ", " << watts(p.decode_wall_w) << " generating one batch";
        out << ", " << watts(p.prefill_wall_w) << " on a prompt";
    }
    out << ", " << watts(p.idle_wall_w) << " idle with the model loaded\n";
    const double gpu_phase_w = p.wall_phase == "serving" ? r.serving.gpu_w : training ? p.train_gpu_w : p.decode_gpu_w;
    out << "    GPUs " << watts(gpu_phase_w) << " of " << watts(p.board_w) << " board power, host " << watts(p.host_active_w) << ", "
        << p.psu_tier << " supply at " << fixed(p.psu_efficiency * 100, 0) << "% (" << watts(p.psu_capacity_w)
        << (r.interconnect.nodes > 1 ? " per node" : "") << ")\n";
    if (p.pue > 1) out << "    facility " << watts(p.facility_wall_w) << " with cooling (PUE " << fixed(p.pue, 2) << ")\n";
    out << "  PSU to buy " << watts(p.psu_w) << (r.interconnect.nodes > 1 ? " per node" : "") << " (transients included); nameplate "
        << watts(p.nameplate_w) << " (ratings, not a draw); heat " << format_int(std::round(p.heat_btu_h)) << " BTU/h\n";
    if (p.energy_kwh_per_million_tokens_at_draw > 0 && !training)
        out << "  energy " << fixed(p.energy_kwh_per_million_tokens_at_draw, 3) << " kWh per million tokens at the wall's draw, "
            << fixed(p.tokens_per_joule > 0 ? 1e6 / (p.energy_kwh_per_million_tokens_at_draw * 3.6e6) : 0, 2) << " tokens/J\n";
    if (training && s.train_time_s > 0)
        out << "  training run " << format_int(std::round(p.train_energy_kwh_at_draw)) << " kWh at the wall's draw\n";
    // Cost, each way people decide it (cost/cost.cpp).
    const CostReport& k = r.cost;
    auto usd = [](double v) { return "$" + (v >= 100 ? format_int(std::round(v)) : fixed(v, v >= 1 ? 2 : 3)); };
    const bool per_run = training && s.train_time_s > 0;
    if (!training || per_run) {
        const char* unit = per_run ? " for the run" : " per million tokens";
        out << "  cost" << unit << ": electricity " << usd(per_run ? k.electricity_usd_per_run : k.electricity_usd_per_million_tokens)
            << " at $" << fixed(c.usd_per_kwh, 2) << "/kWh";
        if (k.gpu_price_known)
            out << "; owning " << usd(per_run ? k.own_usd_per_run : k.own_usd_per_million_tokens) << " ($" << format_int(k.hardware_usd)
                << (k.host_price_known ? "" : " for the GPUs alone") << " over "
                << fixed(k.lifetime_years, k.lifetime_years == std::round(k.lifetime_years) ? 0 : 1) << " years, busy "
                << fixed(k.duty_cycle * 100, 0) << "% of the time)";
        if (k.rent_known)
            out << "; renting " << usd(per_run ? k.rent_usd_per_run : k.rent_usd_per_million_tokens) << " ($"
                << fixed(k.rent_usd_per_gpu_hour, 2) << " per GPU-hour, "
                << (k.rent_rows > 0 ? "median of " + std::to_string(k.rent_rows) + " " + rent_kind_text(k.rent_kind) + " prices" +
                                          (k.rent_provider.empty() ? std::string() : " at " + k.rent_provider) + ", " + k.rent_date
                                    : std::string("as given"))
                << ")";
        out << '\n';
        if (k.buy_break_even_months > 0)
            out << "  buying pays for itself after " << fixed(k.buy_break_even_months, 1) << " months of renting at this duty cycle\n";
        else if (k.buy_never_pays_off)
            out << "  buying never pays off: renting costs less per hour than the electricity\n";
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The report
// ---------------------------------------------------------------------------------------------

std::string report_to_text(const Report& r) {
    TextOut out;
    const Config& c = r.config;
    const int gpus = c.gpus;
    out << r.model_name << " on " << gpus << " x " << r.gpu_name << '\n';
    if (!c.model.arch.file.empty())   // read from a file: its exact bytes size the weights
        out << "  model from " << (c.gguf.empty() ? c.hf_dir : c.gguf) << " (" << c.model.arch.source << ", "
            << format_gib(c.model.arch.file.total) << " of tensors)\n";
    out << "  " << to_string(c.mode) << ", weights " << c.weights << ", KV " << c.kv_cache << ", batch " << c.batch
        << ", context " << format_int(double(c.context)) << " tokens, runtime " << to_string(c.runtime)
        << (c.runtime_version.empty() ? "" : " " + c.runtime_version) << '\n';
    out << "  tp " << r.parallel.tp << ", pp " << r.parallel.pp << ", dp " << r.parallel.dp << ", ep " << r.parallel.ep;
    if (r.parallel.cp > 1) out << ", cp " << r.parallel.cp;
    if (c.dp_attention > 1) out << ", dp attention " << c.dp_attention;
    if (c.mode != Mode::inference)
        out << "; optimizer " << to_string(c.optimizer) << ", ZeRO " << c.zero << ", recompute " << to_string(c.recompute);
    out << "\n\n";
    out << "  memory per GPU (most loaded)\n";
    const MemoryParts& m = r.per_gpu;
    for (const MemoryPartInfo& p : kMemoryParts) print_row(out, p.key, m.*p.bytes, part_note(r, p.part));   // rows named by JSON key
    out << "  " << std::string(26, '-') << '\n';
    print_row(out, "total", m.total(), "of " + format_gib(r.gpu_usable) + " usable");
    out << '\n';
    if (r.fits) out << "  FITS, headroom " << format_gib(r.headroom) << '\n';
    else out << "  DOES NOT FIT: " << format_gib(-r.headroom) << " short per GPU\n";
    out << '\n';
    out << "  parameters " << format_count(r.params);
    if (r.active_params < r.params * 0.999) out << " (active " << format_count(r.active_params) << ")";
    if (r.trainable_params > 0) out << ", trainable " << format_count(r.trainable_params);
    out << ", " << format_fixed(r.weights_bits_per_param, 2) << " bits per parameter\n";
    if (r.kv_bytes_per_token > 0 && c.mode == Mode::inference)
        out << "  KV cache " << format_bytes_short(r.kv_bytes_per_token) << " per token; room for "
            << format_int(r.kv_capacity_tokens) << " tokens on this GPU ("
            << format_fixed(r.serving.max_concurrency, 2) << " requests of " << format_int(double(c.context))
            << (c.dp_attention > 1 ? " in its " + std::to_string(c.dp_attention) + " attention groups' pools" : std::string()) << ")\n";
    if (const KvSensitivity& k = r.kv_capacity_sensitivity; k.computed && r.kv_capacity_tokens > 0) {
        // The pool is a small difference of two large numbers: name both, then what moves it.
        out << "  KV room moves with (a pool of " << format_gib(k.pool_bytes) << " left of " << format_gib(k.budget_bytes) << " by "
            << k.fraction_key << " " << format_fixed(k.fraction, 3) << "):\n";
        for (const KvCapacityCase* e : {&k.fraction_down, &k.fraction_up, &k.cuda_graphs, &k.speculative}) {
            if (!e->computed) continue;
            std::string setting = e->setting;
            if (setting.size() < 32) setting.resize(32, ' ');
            out << "    " << setting << ' ' << format_int(e->tokens) << " tokens, " << (e->change_tokens >= 0 ? "+" : "-")
                << format_int(std::fabs(e->change_tokens)) << " (" << (e->change_pct >= 0 ? "+" : "-") << format_fixed(std::fabs(e->change_pct), 1)
                << "%)\n";
        }
    }
    if (r.host > 0 && r.host_experts > 0)
        out << "  host RAM " << format_gib(r.host) << ": the routed experts of the first " << c.n_cpu_moe << " layers ("
            << format_gib(r.host_experts) << ", --n-cpu-moe) and the token embeddings\n";
    else if (r.host > 0)
        out << "  host RAM " << format_gib(r.host)
            << (c.offload != Offload::none ? " in all (offloaded optimizer state)\n"
                                           : " (llama.cpp keeps the token embeddings on the CPU)\n");
    print_performance(out, r);
    if (r.serving.active) {
        // Serving under load: a short section (the figures are in `--json` under "serving").
        const ServingReport& sv = r.serving;
        out << "\n  serving " << format_int(double(c.isl)) << " in / " << format_int(double(c.osl)) << " out tokens per request, "
            << format_fixed(sv.concurrency, 0) << " in flight (bound: " << sv.bound << ")\n";
        const SpeedBand sb = speed_band(SpeedFigure::serving_throughput, r);
        out << "  output        " << banded(sv.output_tokens_per_s, sb) << " tokens/s (" << banded(sv.output_tokens_per_s_per_gpu, sb)
            << " per GPU), " << format_rate(sv.tokens_per_s_per_user) << " per user; " << format_fixed(sv.requests_per_s, 2)
            << " requests/s\n";
        out << "  latency       TTFT " << format_duration(sv.ttft_s) << ", TPOT " << format_duration(sv.tpot_s) << '\n';
        if (sv.gpu_w > 0)
            out << "  power         " << format_watts(sv.wall_w) << " at the wall, the GPUs " << format_watts(sv.gpu_w) << " ("
                << format_fixed(sv.draw_fraction * 100, 0) << "% of board power under this load); "
                << format_fixed(sv.energy_kwh_per_million_tokens, 3) << " kWh, $" << format_fixed(sv.cost_usd_per_million_tokens, 3)
                << " per million output tokens\n";
    }
    if (!r.warnings.empty()) {
        out << "\n  warnings:\n";
        for (const auto& w : r.warnings) out << "  - " << w << '\n';
    }
    if (r.measured) print_measured(out, *r.measured);
    return out.str();
}

}  // namespace gpusizer
