// ui/view_simulate.cpp: the Plan tab's request-level simulation (gpusizer/simulate.hpp) of the
// current configuration at the tab's load: requests arriving at a rate, run through the engine's
// scheduler step by step; the latency percentiles and the run over time (requests in flight,
// waiting, and the KV pool's use) as charts. A simulation of the tab's 1,000 requests takes a few
// milliseconds, so it runs again whenever the configuration or a field changes (never per frame:
// only when what it was run for differs).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include <imgui.h>

#include "charts.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/format.hpp"
#include "i18n.hpp"
#include "plan_state.hpp"
#include "theme.hpp"
#include "view_plan.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

namespace {

struct SimulationView {
    SimulationInputs inputs;
    bool shown = false;   // drawn this frame (the Plan tab shows the simulation)
    double rate = 0;   // the arrival rate of the result
    std::string config_for;   // what `config` was built for (inputs_key)
    Config config;   // the simulated configuration (simulation_config: an estimate for its default rate)
    std::string ran_for;   // the configuration and fields of the result (a key: link and fields)
    std::string pending_key;   // what the inputs are now, and since when (the settle delay)
    double pending_since = 0;
    bool has_result = false;
    SimulationReport result;
    std::string error;
    // The last "highest rate" search, shown while the inputs are what it left them (search_key).
    MaxRateSearch search;
    std::string search_key;
    // request_highest_rate(): a press of the button, and objectives to set before it.
    bool search_asked = false;
    double asked_ttft_ms = 0, asked_tpot_ms = 0;
};

SimulationView& sim_view() {
    static SimulationView v;
    return v;
}

// What the simulation depends on: the configuration (its share link, which the app keeps), the
// tab's load and the simulation's fields. Cheap to build each frame, unlike the configuration it
// keys (whose default rate takes an estimate) and the run.
std::string inputs_key(const std::string& link, const PlanInputs& plan, const SimulationInputs& in) {
    char buf[240];
    std::snprintf(buf, sizeof buf, "|%lld|%lld|%.9g|%d|%.9g|%d|%.9g|%.9g|%.9g|%u", plan.isl, plan.osl, in.request_rate, in.requests,
                  in.burstiness, int(in.lengths), in.length_spread, in.slo_ttft_ms, in.slo_tpot_ms, in.seed);
    return link + buf;
}

// The simulated configuration for the inputs as they are now, built again only when they changed.
const Config& current_config(SimulationView& v, const Config& current, const std::string& link, const Catalog& catalog,
                             const PlanInputs& plan) {
    const std::string key = inputs_key(link, plan, v.inputs);
    if (key != v.config_for) {
        v.config = simulation_config(current, catalog, plan, v.inputs);
        v.config_for = key;
    }
    return v.config;
}

}   // namespace

void request_highest_rate(double slo_ttft_ms, double slo_tpot_ms) {
    SimulationView& v = sim_view();
    v.search_asked = true;
    v.asked_ttft_ms = slo_ttft_ms;
    v.asked_tpot_ms = slo_tpot_ms;
}

const SimulationReport* shown_simulation(double* rate) {
    SimulationView& v = sim_view();
    const bool shown = v.shown;
    v.shown = false;   // set again by the next frame's draw
    if (!shown || !v.has_result) return nullptr;
    if (rate) *rate = v.rate;
    return &v.result;
}

void draw_simulation(const Config& current, const std::string& link, const Catalog& catalog, PlanInputs& plan,
                     const std::function<void(const char*)>& note) {
    SimulationView& v = sim_view();
    SimulationInputs& in = v.inputs;
    v.shown = true;
    if (v.search_asked) {
        if (v.asked_ttft_ms > 0) in.slo_ttft_ms = v.asked_ttft_ms;
        if (v.asked_tpot_ms > 0) in.slo_tpot_ms = v.asked_tpot_ms;
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "%s",
        tr("Requests arriving at a rate, run through the engine's scheduler step by step (continuous batching, the token budget, KV admission and preemption): the latency percentiles people size for, and the run over time."));
    ImGui::PopTextWrapPos();
    const float w = ImGui::GetFontSize() * 7.0f;
    // The load: the Plan tab's (shared with the serving search).
    draw_load_fields(current, plan, w);
    const Config* c = &current_config(v, current, link, catalog, plan);
    double rate = c->request_rate;
    ImGui::SetNextItemWidth(w);
    // (The field's own number keeps C's decimal point in every language: ImGui reads what is typed with it.)
    if (ImGui::InputDouble(tr_label("requests / s"), &rate, 0, 0, "%.3g")) in.request_rate = std::clamp(rate, 1e-3, 1e5);
    note("simulation rate field");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Arrival rate, requests per second (the configuration's request_rate if it has one)."));
    beside_if_fits(stepper_width(w, tr("requests")));
    ImGui::SetNextItemWidth(stepper_item_width(w));
    int n = in.requests;
    if (ImGui::InputInt(tr_label("requests"), &n, 100, 1000)) in.requests = std::clamp(n, 1, 100000);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("How many requests the run simulates."));
    beside_if_fits(field_width(w, tr("burstiness")));
    ImGui::SetNextItemWidth(w);
    double burst = in.burstiness;
    if (ImGui::InputDouble(tr_label("burstiness"), &burst, 0, 0, "%.2g")) in.burstiness = std::clamp(burst, 0.01, 100.0);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s",
            tr("The gaps between arrivals are a gamma distribution of this shape: 1 is Poisson, below 1 burstier (vLLM benchmark_serving --burstiness)."));
    beside_if_fits(field_width(w, tr("lengths")));
    ImGui::SetNextItemWidth(w);
    const char* kinds[] = {tr("fixed"), tr("uniform"), tr("lognormal")};   // LengthDistribution's order
    int kind = int(in.lengths);
    if (ImGui::Combo(tr_label("lengths"), &kind, kinds, 3)) in.lengths = LengthDistribution(kind);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Request lengths around the input and output tokens: fixed, uniform (+-50%) or lognormal (sigma 0.5)."));
    std::optional<double> ttft = in.slo_ttft_ms > 0 ? std::optional<double>(in.slo_ttft_ms) : std::nullopt;
    if (limit_drag(tr_label("SLO TTFT ms"), ttft, w, 10.0f, 60000.0f, 1e9, tr("none"))) in.slo_ttft_ms = ttft.value_or(0.0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Goodput counts the requests whose time to first token is within this."));
    beside_if_fits(field_width(w, tr("SLO TPOT ms")));
    std::optional<double> tpot = in.slo_tpot_ms > 0 ? std::optional<double>(in.slo_tpot_ms) : std::nullopt;
    if (limit_drag(tr_label("SLO TPOT ms"), tpot, w, 1.0f, 1000.0f, 1e9, tr("none"))) in.slo_tpot_ms = tpot.value_or(0.0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("... and whose time per output token is within this."));
    beside_if_fits(button_width(tr("new draw")));
    if (ImGui::Button(tr_label("new draw"))) ++in.seed;
    note("simulation new draw button");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(tr("The same load with other random arrivals (seed %u)."), in.seed + 1);
    // The highest rate within the objectives: a search of a dozen runs (tens of milliseconds
    // natively, a few hundred in the browser), on a click only; the rate field takes what it finds.
    beside_if_fits(button_width(tr("highest rate")));
    const bool has_slo = in.slo_ttft_ms > 0 || in.slo_tpot_ms > 0;
    ImGui::BeginDisabled(!has_slo);
    const bool pressed = ImGui::Button(tr_label("highest rate")) || (v.search_asked && has_slo);
    v.search_asked = false;
    if (pressed) {
        try {
            const SimulationReport found = simulate(*c, catalog, max_rate_options(in));
            v.search = found.max_rate;
            if (found.max_rate.rps > 0) in.request_rate = found.max_rate.rps;
            v.search_key = inputs_key(link, plan, in);
        } catch (const Error& e) {
            v.search = MaxRateSearch{};
            v.error = e.what();
        }
    }
    ImGui::EndDisabled();
    note("simulation highest rate button");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", has_slo ? tr("The highest arrival rate whose p99 time to first token and time per output token meet the objectives while the engines keep up (MLPerf's server scenario); the rate field takes it.")
                                        : tr("Set an SLO first: the highest rate is the one that meets it."));

    // Run when what it was run for changed, once the change has settled: a run takes ~3 ms
    // natively and 15-20 ms in the browser (1,000 requests), more than a frame, so while a slider
    // is dragged the last result stays, marked as updating, until the input has been still for
    // kSettleSeconds (the first run, when the view opens, is at once).
    constexpr double kSettleSeconds = 0.12;
    const std::string key = inputs_key(link, plan, in);
    const double now = ImGui::GetTime();
    if (key != v.pending_key) {
        v.pending_key = key;
        v.pending_since = now;
    }
    const bool updating = key != v.ran_for && !v.ran_for.empty() && now - v.pending_since < kSettleSeconds;
    if (key != v.ran_for && !updating) {
        v.ran_for = key;
        v.error.clear();
        v.has_result = false;
        try {
            c = &current_config(v, current, link, catalog, plan);
            v.result = simulate(*c, catalog, simulation_options(in));
            v.rate = c->request_rate;
            v.has_result = true;
        } catch (const Error& e) {
            v.error = e.what();
        }
    }
    if (!v.error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(to_vec4(palette().warning), tr("Cannot simulate: %s"), v.error.c_str());
        ImGui::PopTextWrapPos();
        note("simulation message");
        return;
    }
    if (!v.has_result) return;
    const SimulationReport& s = v.result;
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    text_wrapped_at_spaces(
        strf(tr("%s requests of %s + %s tokens at %s/s on %d x %s: %s output tokens/s, %s requests/s, %s in flight on average"),
             format_int(double(s.completed)).c_str(), format_int(double(s.report.config.isl)).c_str(),
             format_int(double(s.report.config.osl)).c_str(), format_fixed(v.rate, v.rate < 10 ? 2 : 1).c_str(), current.gpus,
             s.report.gpu_name.c_str(), format_int(s.output_tokens_per_s).c_str(), format_fixed(s.requests_per_s, 2).c_str(),
             format_fixed(s.mean_running, 1).c_str()));
    note("simulation summary");
    if (updating) ImGui::TextDisabled("%s", tr("(updating: the figures below are for the settings before the change)"));
    if (v.search.asked && v.search_key == key) {
        if (v.search.rps > 0)
            ImGui::Text(tr("highest rate within the objectives at p99: %s/s (the engines saturate at %s/s; %d runs)"),
                        format_fixed(v.search.rps, v.search.rps < 10 ? 2 : 1).c_str(),
                        format_fixed(v.search.saturated_rps, v.search.saturated_rps < 10 ? 2 : 1).c_str(), v.search.simulations);
        else
            ImGui::TextColored(to_vec4(palette().warning), tr("no rate meets the objectives at p99: even %s/s (1%% of saturation) misses them"),
                               format_fixed(0.01 * v.search.saturated_rps, 3).c_str());
        note("simulation highest rate");
    }
    if (in.slo_ttft_ms > 0 || in.slo_tpot_ms > 0)
        ImGui::Text(tr("goodput %s requests/s: %s of the requests met the objectives"), format_fixed(s.goodput_rps, 2).c_str(),
                    percent(s.slo_attained_fraction, 1).c_str());
    if (s.report.serving.active)
        ImGui::TextDisabled(
            tr("steady state at the mean lengths: %s output tokens/s, TTFT %s, TPOT %s; %s preemptions, %s of the KV pool at most; simulated in %s"),
            format_int(s.report.serving.output_tokens_per_s).c_str(), format_duration(s.report.serving.ttft_s).c_str(),
            format_duration(s.report.serving.tpot_s).c_str(), format_int(double(s.preemptions)).c_str(),
            percent(s.peak_kv_used_fraction).c_str(), format_duration(s.wall_s).c_str());
    for (const std::string& wmsg : s.warnings) ImGui::TextColored(to_vec4(palette().warning), "%s", wmsg.c_str());
    ImGui::PopTextWrapPos();
    // The charts side by side where the window is wide, else one above the other.
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float room = std::max(ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y, lh * 7.5f);
    const bool beside = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 44;
    const float latency_w = beside ? ImGui::GetContentRegionAvail().x * 0.4f : 0.0f;
    latency_chart("sim-latency", {{"TTFT", s.ttft_s}, {"TPOT", s.tpot_s}, {"E2E", s.e2e_s}},
                  ImVec2(latency_w, beside ? std::min(room, lh * 9.0f) : lh * 7.5f));
    note("simulation latency chart");
    if (beside) ImGui::SameLine();
    const float left = beside ? room : ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y;
    timeline_chart("sim-timeline", s.timeline, ImVec2(0, std::max(left, lh * 8.0f)));
    note("simulation timeline chart");
}

}   // namespace gpusizer::ui
