// ui/view_speed.cpp: the Speed & power tab
// (One file per view, as Tracy's server splits its View; the App and its frame are in
// app.cpp, shared widgets in widgets.cpp.)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "gpusizer/uncertainty.hpp"
#include "i18n.hpp"
#include "plan_state.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

namespace {

// Setup's field labels that the tips name, in English: view_setup.cpp marks them for the strings
// table, and tr() shows them as Setup does.
constexpr const char* kHostRamBwLabel = "Host RAM bw";
constexpr const char* kTrainOnLabel = "Train on";

// "~X unit (lo-hi)": a figure and the band the accuracy set's rows of its kind put around it
// (gpusizer/uncertainty.hpp); the figure alone where no row backs it. ASCII hyphen: the UI font
// carries Latin-1 only.
// `format` prints one value; `unit` follows the figure ("" for none).
template <typename Format>
std::string banded(double x, const SpeedBand& b, Format format, const char* unit) {
    std::string out = "~" + format(x) + (*unit ? " " : "") + unit;
    if (b.rows > 0 && x > 0) out += " (" + format(x * b.lo) + "-" + format(x * b.hi) + ")";
    return out;
}
std::string banded_rate(double x, const SpeedBand& b, const char* unit) { return banded(x, b, format_rate, unit); }

// A time that a speed band scales inversely ("~X (X / hi - X / lo)"), as report_json.cpp writes
// the *_s_range keys: a figure that runs faster than gpusizer's takes less time.
std::string banded_time(double x, const SpeedBand& b) {
    std::string out = "~" + format_duration(x);
    if (b.rows > 0 && x > 0) {
        // "(209.1-654.9 ms)" where both ends print in the same unit, else "(45.2 ms-1.20 s)".
        std::string lo = format_duration(x / b.hi);
        const std::string hi = format_duration(x / b.lo);
        const std::size_t u = lo.rfind(' '), v = hi.rfind(' ');
        if (u != std::string::npos && v != std::string::npos && lo.substr(u) == hi.substr(v)) lo.erase(u);
        out += " (" + lo + "-" + hi + ")";
    }
    return out;
}

}  // namespace

void App::draw_speed() {
    const Report& r = report_;
    const Config& c = r.config;
    const SpeedReport& sp = r.speed;
    const InterconnectReport& ic = r.interconnect;
    const PowerReport& p = r.power;
    const bool training = c.mode != Mode::inference;
    ImGui::BeginChild("speed", ImVec2(0, 0), false);
    // Three tables side by side where each gets 18 font sizes, else two, else one (QA D14: at
    // 820 px a third of the width wrapped figures inside their digits, "585938." / "91 GiB").
    const float avail = ImGui::GetContentRegionAvail().x;
    const float least = ImGui::GetFontSize() * 18.0f;
    const int per_row = avail >= 3 * least + 24 ? 3 : avail >= 2 * least + 12 ? 2 : 1;
    const float third = (avail - 12.0f * float(per_row - 1)) / float(per_row);
    // Before the i-th table (i > 0): beside the last one, or under the row.
    auto next_table = [&](int i) {
        if (i % per_row != 0) ImGui::SameLine(0, 12);
        else ImGui::Spacing();
    };

    ImGui::BeginGroup();
    {
        // The bands of the accuracy set's rows of each kind of figure for this runtime and GPU backend, as the
        // report's speed.*_range keys (report_json.cpp add_speed_ranges).
        FigureTable t("speed-figures", tr("Speed (roofline)"), third);
        t.row(
            tr("compute precision"),
            strf(sp.tensor_cores ? tr("%s, tensor cores") : tr("%s, no tensor cores"), std::string(sp.compute_precision).c_str()),
            tr("The precision the matrix math runs at on this GPU; a precision it cannot run natively is computed at the next supported one."));
        if (!sp.native)
            t.row(tr("  asked for"), strf(tr("%s (not native here)"), std::string(sp.compute_precision_requested).c_str()), nullptr, true);
        t.row(tr("peak per GPU"), format_fixed(sp.peak_flops / 1e12, 1) + " TFLOPS",
              tr("Dense (no 2:4 sparsity) at the compute precision."));
        t.row(tr("MFU used"), percent(sp.mfu), tr("Fraction of the peak that compute-bound work reaches (Setup: Speed, power and cost)."));
        if (!training) {
            t.row(tr("bandwidth used"), percent(sp.bandwidth_efficiency), tr("Fraction of the memory bandwidth decoding reaches."));
            const SpeedBand decode = speed_band(SpeedFigure::decode, r), prefill = speed_band(SpeedFigure::prefill, r);
            t.row(
                tr("decode, per sequence"), banded_rate(sp.decode_tokens_per_s, decode, "tok/s"),
                tr("In brackets the range the published measurements of this kind (llama-bench and the like) put around gpusizer's figure (Assumptions, docs/accuracy.md)."));
            note_item("decode per sequence");
            t.row(tr("decode, all sequences"), banded_rate(sp.decode_throughput_tokens_per_s, decode, "tok/s"),
                  tr("Every sequence of the batch, every data-parallel replica."));
            t.row(tr("one decode step"), format_duration(sp.decode_step_s));
            t.row(tr("read per step"), format_gib(sp.decode_bytes_per_step), tr("Weights (active experts for MoE) and the KV cache."));
            t.row(tr("decode is"), sp.decode_compute_bound ? tr("compute-bound") : tr("memory-bound"));
            t.row("prefill", banded_rate(sp.prefill_tokens_per_s, prefill, "tok/s"));   // the term stays
            t.row(tr("time to first token"), banded_time(sp.ttft_s, prefill),
                  tr("The prefill of the batch's prompts (Setup: Speed, power and cost sets the prompt length)."));
            if (sp.offload.active) {
                t.row("offload (llama.cpp)", strf(tr("%d of %d layers on GPU"), sp.offload.gpu_layers, sp.offload.total_layers),
                      tr("The model does not fit: llama.cpp keeps the other layers in host RAM and runs them on the CPU."));
                t.row(tr("  in host RAM"), format_gib(sp.offload.host_bytes), nullptr, true);
                t.row(tr("  decode then"), format_rate(sp.offload.decode_tokens_per_s) + " tok/s", nullptr, true);
                if (sp.offload.experts_on_host_decode_tokens_per_s > 0)
                    t.row(tr("  experts in RAM instead"), format_rate(sp.offload.experts_on_host_decode_tokens_per_s) + " tok/s",
                          tr("Every layer on the GPUs, the routed experts in host RAM (llama.cpp --override-tensor exps=CPU)."), true);
            }
        } else {
            t.row(tr("FLOPs per token"), format_count(sp.train_flops_per_token),
                  tr("6 x parameters plus attention; 8 x with full recomputation."));
            const SpeedBand train = speed_band(SpeedFigure::train_throughput, r);
            t.row(
                tr("training"), banded_rate(sp.train_tokens_per_s, train, "tok/s"),
                tr("In brackets the range the published training measurements (MFU and tokens/s rows) put around gpusizer's figure (Assumptions, docs/accuracy.md)."));
            note_item("training tokens");
            t.row(tr("one optimizer step"), banded_time(sp.train_step_s, train));
            if (sp.optimizer_step_host_s > 0) {
                const std::string tip = strf(
                    tr("ZeRO-Offload: the CPU updates the optimizer states in host RAM, at the host's memory bandwidth shared by the node's GPUs (set '%s' to your server's)."),
                    tr(kHostRamBwLabel));
                t.row(tr("  of it, the CPU's update"), format_duration(sp.optimizer_step_host_s), tip.c_str(), true);
            }
            if (sp.optimizer_step_s + sp.step_sync_s + sp.step_overhead_s > 0)
                t.row(tr("  of it, the fixed costs"), format_duration(sp.optimizer_step_s + sp.step_sync_s + sp.step_overhead_s),
                      tr("The optimizer step on the GPU (its ZeRO shard at memory bandwidth), the step's scalar all-reduces over every GPU and step_overhead_s: what a step costs whatever its batch (docs/formulas.md, \"At scale\")."),
                      true);
            t.row(tr("effective MFU"), percent(sp.effective_mfu, 1), tr("Pipeline bubble and exposed communication included."));
            if (sp.train_time_s > 0)
                t.row(strf(tr("time for %s tokens"), format_count(c.train_tokens).c_str()).c_str(), banded_time(sp.train_time_s, train));
            else t.row(tr("time to train"), strf(tr("set '%s'"), tr(kTrainOnLabel)), nullptr, true);
            // The run's goodput: what it loses beyond its steps (Setup: Interruptions, Restart, Checkpoint write).
            const GoodputReport& g = sp.goodput;
            const std::string why = strf(
                tr("The steps' share of the wall time. Interruptions %s (one every %s), checkpoints %s (%s every %s), evaluation %s, batch ramp %s."),
                percent(g.failure_fraction, 1).c_str(), g.job_mtbf_s > 0 ? format_duration(g.job_mtbf_s).c_str() : tr("never"),
                percent(g.checkpoint_fraction, 1).c_str(), format_gib(g.checkpoint_bytes).c_str(),
                g.checkpoint_interval_s > 0 ? format_duration(g.checkpoint_interval_s).c_str() : "-", percent(g.eval_fraction, 1).c_str(),
                percent(g.ramp_fraction, 1).c_str());
            if (g.never_finishes)
                t.row("goodput", tr("never finishes"), tr("Interruptions come faster than the work between them survives (Warnings)."));
            else if (g.active)
                t.row("goodput", percent(sp.train_goodput_fraction, 1), why.c_str());
            if (sp.train_wall_time_s > 0) t.row(tr("  run at the wall"), format_duration(sp.train_wall_time_s), why.c_str(), true);
        }
    }
    ImGui::EndGroup();
    next_table(1);

    ImGui::BeginGroup();
    {
        FigureTable t("link-figures", tr("Interconnect"), third);
        const Link* link = ic.link.empty() ? nullptr : catalog_.find_link(ic.link);
        // Per token and per step, after a time.
        auto per_token = [](double s) { return strf(tr("%s /token"), format_duration(s).c_str()); };
        auto per_step = [](double s) { return strf(tr("%s /step"), format_duration(s).c_str()); };
        if (c.gpus < 2) {
            t.row("GPUs", tr("one: nothing to exchange"));
        } else {
            t.row("link", link ? link->name : (ic.link.empty() ? std::string("-") : ic.link));
            t.row(tr("per GPU, per direction"), format_bandwidth(ic.link_bandwidth_bytes_per_s));
            if (ic.allreduce_busbw_bytes_per_s > 0)
                t.row("all-reduce busbw", format_bandwidth(ic.allreduce_busbw_bytes_per_s),
                      tr("What nccl-tests would report as busbw for the widest all-reduce group."));
            t.row(tr("GPUs per node"), std::to_string(ic.gpus_per_node));
            if (ic.nodes > 1) {
                const Link* inter = catalog_.find_link(ic.inter_node_link);
                t.row(tr("nodes"), strf(tr("%d over %s"), ic.nodes, (inter ? inter->name : ic.inter_node_link).c_str()));
            }
            if (!training) {
                if (ic.tp_comm_s_per_token > 0)
                    t.row("tensor parallel", per_token(ic.tp_comm_s_per_token), tr("Two all-reduces per layer per decode step."));
                if (ic.pp_comm_s_per_token > 0) t.row(tr("pipeline sends"), per_token(ic.pp_comm_s_per_token));
                if (ic.ep_comm_s_per_token > 0) t.row(tr("expert all-to-all"), per_token(ic.ep_comm_s_per_token));
                t.row(tr("adds to each token"), format_duration(ic.exposed_s_per_token),
                      tr("Communication that cannot hide behind compute in a decode step."));
            } else {
                if (ic.tp_comm_s_per_step > 0) t.row("tensor parallel", per_step(ic.tp_comm_s_per_step));
                if (ic.pp_comm_s_per_step > 0) t.row(tr("pipeline sends"), per_step(ic.pp_comm_s_per_step));
                if (ic.pp_bubble_fraction > 0)
                    t.row(tr("pipeline bubble"), percent(ic.pp_bubble_fraction, 1), "1F1B: (p - 1) / (m + p - 1).");
                if (ic.ep_comm_s_per_step > 0) t.row(tr("expert all-to-all"), per_step(ic.ep_comm_s_per_step));
                if (ic.cp_comm_s_per_step > 0) {
                    t.row("ring attention", per_step(ic.cp_comm_s_per_step),
                          tr("Context parallel: each GPU passes its K/V block around the ring of cp GPUs (and dK/dV in the backward)."));
                    t.row(tr("  not hidden"), format_duration(ic.cp_exposed_s_per_step),
                          tr("The part the attention compute does not cover."), true);
                }
                if (ic.dp_allreduce_s_per_step > 0) {
                    t.row(tr("gradient sync"), per_step(ic.dp_allreduce_s_per_step),
                          tr("Ring all-reduce of the gradients (ZeRO: reduce-scatter plus all-gathers)."));
                    t.row(tr("  not hidden"), format_duration(ic.dp_exposed_s_per_step), tr("The part the backward pass does not cover."),
                          true);
                }
                t.row(tr("adds to each step"), format_duration(ic.exposed_s_per_step));
            }
        }
    }
    // What the other kind of link would change, for this very configuration.
    const LinkTimes& alt_times = report_.interconnect.alternative;
    if (c.gpus > 1 && !alt_times.link.empty()) {
        const Link* alt = catalog_.find_link(alt_times.link);
        const std::string alt_name = alt ? alt->name : alt_times.link;
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + third);
        const double now = training ? r.speed.train_tokens_per_s : r.speed.decode_tokens_per_s;
        const double then = training ? alt_times.train_tokens_per_s : alt_times.decode_tokens_per_s;
        ImGui::TextDisabled(training ? tr("Over %s%s: %s training tokens/s (now %s), %s of communication per step.")
                                     : tr("Over %s%s: %s decode tokens/s (now %s), %s of communication per token."),
                            alt_name.c_str(), alt_times.hypothetical ? tr(" (hypothetical: this GPU has none)") : "",
                            format_rate(then).c_str(), format_rate(now).c_str(), format_duration(alt_times.exposed_s).c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndGroup();
    next_table(2);

    ImGui::BeginGroup();
    {
        // What a wall meter reads: the whole machine at the plug by phase (power/wall_power.hpp);
        // the ratings below it, called by their name.
        FigureTable t("power-figures", tr("Power at the wall"), third);
        const char* job = p.wall_phase == "serving" ? tr("under this load") : p.wall_phase == "train" ? tr("training") : tr("generating");
        t.row(
            job, format_watts(p.wall_w),
            tr("The whole machine at the plug doing this job: the GPUs at the draw their work sets, the host by platform and by what its CPU does, fans, and the power supply's losses at that load."));
        if (!training) {
            if (p.wall_phase == "serving") t.row(tr("generating one batch"), format_watts(p.decode_wall_w));
            t.row(tr("on a prompt"), format_watts(p.prefill_wall_w), tr("While it processes a prompt: compute-bound, near board power."));
        }
        t.row(tr("idle, model loaded"), format_watts(p.idle_wall_w), tr("Waiting for a request with the model in memory."));
        const double gpu_w = p.wall_phase == "serving" ? r.serving.gpu_w : training ? p.train_gpu_w : p.decode_gpu_w;
        t.row("  GPUs", strf(tr("%s of %s"), format_watts(gpu_w).c_str(), format_watts(p.board_w).c_str()),
              tr("Their draw in this job, of their board power."), true);
        t.row(
            ("  host (" + std::string(p.host_platform) + ")").c_str(), format_watts(p.host_active_w),   // the platform's key stays
            tr("CPU, memory, drives, fans and NICs, inside the supply: at rest, a core feeding each GPU, every core computing layers kept in RAM, data loaders in training."),
            true);
        const std::string supply_tip =
            strf(tr("80 PLUS tier of the power supply (psu_tier) and its efficiency at this load, of its %s rating."),
                 format_watts(p.psu_capacity_w).c_str());
        t.row(tr("  supply"), strf(tr("%s, %s efficient"), std::string(p.psu_tier).c_str(), percent(p.psu_efficiency, 0).c_str()),
              supply_tip.c_str(), true);
        if (p.pue > 1) t.row(strf(tr("facility (PUE %s)"), format_fixed(p.pue, 2).c_str()).c_str(), format_watts(p.facility_wall_w));
        t.row(ic.nodes > 1 ? tr("PSU to buy, per node") : tr("PSU to buy"), format_watts(p.psu_w),
              tr("Power supply capacity, with headroom for transients."));
        t.row(tr("nameplate"), format_watts(p.nameplate_w), tr("Board power plus the host's peak: ratings, not what it draws."));
        t.row(tr("heat"), format_int(std::round(p.heat_btu_h)) + " BTU/h");
        if (!training && p.energy_kwh_per_million_tokens_at_draw > 0)
            t.row(tr("energy / M tokens"), format_fixed(p.energy_kwh_per_million_tokens_at_draw, 3) + " kWh",
                  tr("At the wall's draw (and PUE)."));
        if (training && sp.train_time_s > 0) t.row(tr("training run"), format_int(std::round(p.train_energy_kwh_at_draw)) + " kWh");
        t.row(tr("cost"), tr("Cost tab"), tr("Electricity, owning and renting, compared across GPUs: the Cost tab."));
    }
    ImGui::EndGroup();
    if (!training) {
        next_table(3);
        draw_serving(third);
        draw_launch();
    }
    ImGui::EndChild();
}

// A server under a steady load of requests of `isl` prompt and `osl` output tokens (serving.cpp):
// the configuration's isl, osl and concurrency, set here; the figures with their bands.
void App::draw_serving(float width) {
    const Report& r = report_;
    const ServingReport& sv = r.serving;
    Config& c = s_.config;
    ImGui::BeginGroup();
    ImGui::PushItemWidth(stepper_item_width(ImGui::GetFontSize() * 6.0f));
    long long isl = c.isl, osl = c.osl, cc = c.concurrency;
    const long long step = 64, fast = 1024;
    bool edited = false;
    if (ImGui::InputScalar(tr_label("prompt tokens##serving"), ImGuiDataType_S64, &isl, &step, &fast)) {
        // 0 (the key's "no serving figures") or within the key's range.
        c.isl = isl <= 0 ? 0 : (long long)clamp_to_key("isl", double(isl));
        if (c.isl > 0 && c.osl <= 0) c.osl = 256;   // a load needs both; 256 until set
        if (c.isl == 0) c.osl = 0;
        edited = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Input tokens per request (isl); 0: no serving figures."));
    note_item("serving isl");
    if (ImGui::InputScalar(tr_label("output tokens##serving"), ImGuiDataType_S64, &osl, &step, &fast)) {
        c.osl = osl <= 0 ? 0 : (long long)clamp_to_key("osl", double(osl));
        if (c.osl > 0 && c.isl <= 0) c.isl = 1024;
        if (c.osl == 0) c.isl = 0;
        edited = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Output tokens per request (osl)."));
    const long long one = 1, many = 16;
    if (ImGui::InputScalar(tr_label("in flight##serving"), ImGuiDataType_S64, &cc, &one, &many)) {
        c.concurrency = cc <= 0 ? 0 : int(clamp_to_key("concurrency", double(cc)));
        edited = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Requests in flight, all replicas; 0: as many as the engines hold."));
    ImGui::PopItemWidth();
    if (edited) {
        // The key's rule: isl + osl fit the context. A context given below it is lifted; the
        // automatic one (0) is left, and a load past it gets the estimate's message.
        if (c.isl > 0 && c.osl > 0 && c.context > 0 && c.context < c.isl + c.osl) c.context = c.isl + c.osl;
        changed();
    }
    {
        FigureTable t("serving-figures", tr("Serving under load"), width);
        if (!sv.active) {
            t.row(
                tr("a steady load"), tr("set prompt and output tokens"),
                tr("Continuous batching in steady state: every request of isl prompt and osl output tokens, as many in flight as set (or as fit)."));
        } else {
            // The band of the accuracy set's serving rows for this engine and model class.
            const SpeedBand b = speed_band(SpeedFigure::serving_throughput, r);
            t.row(tr("requests in flight"), format_int(std::round(sv.concurrency)),
                  tr("All replicas: as many as set, or as the engines hold of requests of isl + osl tokens."));
            t.row(tr("  pool at full context"), strf(tr("%s requests"), format_int(std::floor(sv.max_concurrency)).c_str()),
                  tr("What one replica's KV pool holds of requests of the whole context (serving.max_concurrency)."), true);
            t.row(
                tr("output"), banded_rate(sv.output_tokens_per_s, b, "tok/s"),
                tr("Generated tokens per second, all replicas; in brackets the range the published serving measurements of this engine put around gpusizer's figure (Assumptions, docs/accuracy.md)."));
            note_item("serving output");
            t.row(tr("  per GPU"), banded_rate(sv.output_tokens_per_s_per_gpu, b, "tok/s"), nullptr, true);
            t.row(tr("  per user"), banded_rate(sv.tokens_per_s_per_user, b, "tok/s"), tr("1 / TPOT: one request's decode speed."), true);
            // Every part of both times is a number of engine steps (or of completions, for the
            // wait): they scale with the step, inversely to the throughput's band.
            t.row(
                tr("time to first token"), banded_time(sv.ttft_s, b),
                tr("Half a step, the steps that carry the prompt, and a wait for a slot if any (means: the Plan tab's request simulation gives percentiles)."));
            t.row(tr("time per output token"), banded_time(sv.tpot_s, b), tr("One engine step, prompt chunks mixed in."));
            t.row(tr("requests / s"), banded(sv.requests_per_s, b, [](double x) { return format_fixed(x, x < 10 ? 2 : 1); }, ""));
            t.row(tr("bound by"), bound_text(sv.bound), tr("What limits throughput at this load."));
            if (sv.gpu_w > 0)
                t.row(tr("GPU draw"), format_watts(sv.gpu_w), tr("The GPUs under this load (their utilization sets the draw)."));
            if (sv.energy_kwh_per_million_tokens > 0)
                t.row(tr("energy / M tokens"), format_fixed(sv.energy_kwh_per_million_tokens, 3) + " kWh",
                      tr("Per million output tokens, at the facility."));
        }
    }
    ImGui::EndGroup();
}

}  // namespace gpusizer::ui
