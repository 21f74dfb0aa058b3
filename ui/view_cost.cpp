// ui/view_cost.cpp: the Cost tab: what this job costs, as people decide it (electricity at the
// wall's draw, owning the machine, renting it; core/src/cost/cost.cpp), and the same for every
// GPU that can run it, cheapest to own first.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <imgui.h>

#include "app.hpp"
#include "gpusizer/format.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

namespace {

const char* const kPsuTiers[] = {"80plus", "bronze", "silver", "gold", "platinum", "titanium"};
const char* const kRentKinds[] = {"on_demand", "spot", "community"};
const char* const kRentKindLabels[] = {tr_later("on-demand"), tr_later("spot"), tr_later("community")};

// A price table's date, "2026-05-07", as the reader writes dates: "07/05/2026" in Portuguese.
std::string shown_date(const std::string& iso) {
    const bool ymd = iso.size() == 10 && iso[4] == '-' && iso[7] == '-';
    if (language() != Language::pt_br || !ymd) return iso;
    return iso.substr(8, 2) + "/" + iso.substr(5, 2) + "/" + iso.substr(0, 4);
}

}   // namespace

void App::draw_cost() {
    Config& c = s_.config;
    const Report& r = report_;
    const CostReport& k = r.cost;
    const bool training = c.mode != Mode::inference;
    const bool run = training && r.speed.train_time_s > 0;
    const bool stacked = stacked_tables();
    // Two columns (the inputs, this job's figures) side by side, one above the other on a phone.
    if (!ImGui::BeginTable("cost-top", stacked ? 1 : 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_PadOuterX)) return;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const float half = ImGui::GetContentRegionAvail().x;

    // The inputs: how the machine is paid for and powered.
    bool edit = false;
    ImGui::PushID("cost inputs");
    row_label(tr("Electricity"));
    edit |= key_slider("##kwh", "usd_per_kwh", c.usd_per_kwh, 0.0f, 1.0f, tr("$%.3f per kWh"));
    note_item("electricity price");
    row_label(tr("Paid off over"));
    width_before_help_marker();
    edit |= key_slider("##life", "lifetime_years", c.lifetime_years, 0.5f, 10.0f, tr("%.1f years"));
    help_marker(tr("The years the hardware is paid off over: GPU clouds depreciate GPUs over 4-6 years."));
    note_item("lifetime");
    row_label(tr("Busy"));
    width_before_help_marker();
    edit |= key_slider("##duty", "duty_cycle", c.duty_cycle, 0.01f, 1.0f, tr("%.2f of the hours"));
    help_marker(tr("The share of the hours the machine does this job. Owning costs the same idle or busy; renting only when rented."));
    note_item("duty cycle");
    row_label(tr("Power supply"));
    {
        const std::string tier = r.power.psu_tier.empty() ? std::string("gold") : std::string(r.power.psu_tier);
        // The 80 PLUS tiers keep their names (the config's values, and how supplies are sold).
        const std::string shown = c.psu_tier.empty() ? strf(tr("%s (by platform)"), tier.c_str()) : tier;
        width_before_help_marker();
        if (ImGui::BeginCombo("##psu", shown.c_str())) {
            if (pick_selectable(tr("by platform"), c.psu_tier.empty())) {
                c.psu_tier.clear();
                edit = true;
            }
            for (const char* t : kPsuTiers)
                if (pick_selectable(t, c.psu_tier == t)) {
                    c.psu_tier = t;
                    edit = true;
                }
            ImGui::EndCombo();
        }
        help_marker(tr("The supply's 80 PLUS tier sets its efficiency at each load, hence the draw at the wall."));
        note_item("power supply tier");
    }
    row_label(tr("Rent prices"));
    {
        int kind = 0;
        for (int i = 0; i < 3; ++i)
            if (c.rent_kind == kRentKinds[i]) kind = i;
        const char* kinds[3];
        for (int i = 0; i < 3; ++i) kinds[i] = tr(kRentKindLabels[i]);
        if (ImGui::Combo("##rentkind", &kind, kinds, 3)) {
            c.rent_kind = kind == 0 ? std::string() : std::string(kRentKinds[kind]);
            edit = true;
        }
        note_item("rent kind");
    }
    const float w = std::min(ImGui::GetFontSize() * 7.0f, half * 0.5f);
    edit |= limit_drag(tr_label("GPU price $"), c.gpu_usd, w, 10.0f, 1e6f, 1e7, tr("catalog"));
    note_item("gpu price");
    edit |= limit_drag(tr_label("host price $"), c.host_usd, w, 10.0f, 1e6f, 1e7, tr("by platform"));
    note_item("host price");
    {
        // The rent per GPU-hour; 0 puts the table's median back.
        double rent = c.rent_usd_per_gpu_hour.value_or(0.0);
        ImGui::SetNextItemWidth(w);
        if (ImGui::InputDouble(tr_label("rent $/GPU-hour"), &rent, 0.0, 0.0, rent > 0 ? "%.2f" : tr("median"))) {
            c.rent_usd_per_gpu_hour = rent > 0 ? std::optional<double>(clamp_to_key("rent_usd_per_gpu_hour", rent)) : std::nullopt;
            edit = true;
        }
        note_item("rent price");
    }
    if (edit) changed();
    ImGui::PopID();
    if (stacked) ImGui::TableNextRow();
    ImGui::TableNextColumn();

    // This configuration, each way.
    {
        FigureTable t("cost-figures", training ? tr("This job for the run") : tr("This job per million tokens"), half);
        if (training && !run) {
            t.row(tr("training run"), tr("set Train on (Setup)"), tr("A run's cost needs its tokens: Setup, Train on."));
        } else {
            t.row(tr("electricity"), format_usd(run ? k.electricity_usd_per_run : k.electricity_usd_per_million_tokens),
                  tr("The machine's draw at the wall (and the room's PUE) at the electricity price."));
            if (k.gpu_price_known) {
                t.row(tr("owning"), format_usd(run ? k.own_usd_per_run : k.own_usd_per_million_tokens),
                      tr("The hardware paid off over its lifetime at the duty cycle, plus the electricity."));
                const std::string hardware = format_usd(k.hardware_usd);
                t.row(tr("  hardware"), k.host_price_known ? hardware : strf(tr("%s (GPUs alone)"), hardware.c_str()),
                      tr("GPUs at their price and the machine around them."), true);
            } else {
                t.row(tr("owning"), tr("no price"), tr("The catalog has no price for this GPU: give one (GPU price)."));
            }
            if (k.rent_known) {
                t.row(tr("renting"), format_usd(run ? k.rent_usd_per_run : k.rent_usd_per_million_tokens),
                      tr("Cloud prices per GPU-hour; the provider pays the power."));
                const std::string per_hour = strf(tr("  %s per GPU-hour"), format_usd(k.rent_usd_per_gpu_hour).c_str());
                if (k.rent_rows > 0) {
                    t.row(per_hour.c_str(), strf(tr("median of %d prices"), k.rent_rows),
                          tr("assets/prices.json: dated prices, each with its provider and source."), true);
                    t.row(tr("  range"),
                          strf(tr("$%s to $%s"), format_fixed(k.rent_min_usd_per_gpu_hour, 2).c_str(),
                               format_fixed(k.rent_max_usd_per_gpu_hour, 2).c_str()),
                          nullptr, true);
                    t.row(tr("  newest price"), shown_date(k.rent_date), nullptr, true);
                } else {
                    t.row(per_hour.c_str(), tr("as given"), nullptr, true);
                }
            } else {
                t.row(tr("renting"), tr("no price"), tr("No cloud rents this GPU in the price table: give a price (rent $/GPU-h)."));
            }
            if (k.buy_break_even_months > 0)
                t.row(tr("buying pays off"), strf(tr("%s months"), format_fixed(k.buy_break_even_months, 1).c_str()),
                      tr("Months of renting at the duty cycle that cost what buying does, the owner paying the electricity."));
            else if (k.buy_never_pays_off)
                t.row(tr("buying pays off"), tr("never"), tr("Renting costs less per hour than the electricity alone."));
        }
        t.row(tr("draw at the wall"), format_watts(r.power.wall_w));
    }
    ImGui::EndTable();

    // Every GPU that runs this job (the Recommend tab's constraints), cheapest to own first.
    ImGui::Spacing();
    ensure_recommendation();
    if (!recommend_ok_) {
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", recommend_error_.c_str());
        return;
    }
    std::vector<const RecommendRow*> rows;
    for (const RecommendRow& row : recommendation_.recommended) rows.push_back(&row);
    std::stable_sort(rows.begin(), rows.end(), [](const RecommendRow* a, const RecommendRow* b) {
        if (a->own_known != b->own_known) return a->own_known;
        return a->own_usd < b->own_usd;
    });
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "%s", training
                  ? tr("GPUs for this job for the run, cheapest to own first (the Recommend tab's limits; click a row to use it):")
                  : tr("GPUs for this job per million tokens, cheapest to own first (the Recommend tab's limits; click a row to use it):"));
    ImGui::PopTextWrapPos();
    const float inner = ImGui::GetFontSize() * 40.0f;
    const bool scroll_x = ImGui::GetContentRegionAvail().x < inner;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingStretchProp | (scroll_x ? ImGuiTableFlags_ScrollX : ImGuiTableFlags_None);
    const float h = std::max(ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 0.5f, ImGui::GetFontSize() * 8);
    if (ImGui::BeginTable("cost-compare", 6, flags, ImVec2(0, h), scroll_x ? inner : 0.0f)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn(tr("GPU"), ImGuiTableColumnFlags_WidthStretch, 2.6f);
        ImGui::TableSetupColumn(tr("wall"), ImGuiTableColumnFlags_None, 0.9f);
        ImGui::TableSetupColumn(tr("electricity"), ImGuiTableColumnFlags_None, 1.0f);
        ImGui::TableSetupColumn(tr("own"), ImGuiTableColumnFlags_None, 1.0f);
        ImGui::TableSetupColumn(tr("rent"), ImGuiTableColumnFlags_None, 1.0f);
        ImGui::TableSetupColumn(tr("pays off"), ImGuiTableColumnFlags_None, 1.0f);
        ImGui::TableHeadersRow();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const RecommendRow& row = *rows[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(int(i));
            const std::string name = std::to_string(row.gpus) + " x " + row.gpu_name;
            if (pick_selectable(fit_to_width(name, ImGui::GetContentRegionAvail().x).c_str(), row.gpu == c.gpu && row.gpus == c.gpus,
                                ImGuiSelectableFlags_SpanAllColumns)) {
                c.gpu = row.gpu;
                set_gpu_count(s_, row.gpus, current_arch(s_, catalog_));
                changed();
            }
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_watts(row.wall_w).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_usd(row.electricity_usd).c_str());
            ImGui::TableNextColumn();
            cell_or_dash(row.own_known, format_usd(row.own_usd));
            ImGui::TableNextColumn();
            cell_or_dash(row.rent_known, format_usd(row.rent_usd));
            ImGui::TableNextColumn();
            cell_or_dash(row.buy_break_even_months > 0, strf(tr("%s mo"), format_fixed(row.buy_break_even_months, 1).c_str()));
        }
        ImGui::EndTable();
    }
    note_item("cost comparison table");
}

}   // namespace gpusizer::ui
