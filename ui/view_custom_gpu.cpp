// ui/view_custom_gpu.cpp: the GPU picker's "Custom GPU": a GPU the catalog does not have (an
// announced card, an overclocked one), edited field by field under the picker.
// (One file per view, as Tracy's server splits its View; the App and its frame are in
// app.cpp, shared widgets in widgets.cpp.)
//
// Each field shows what the GPU has now: the value given, its base's, or the stated default. A
// field given shows a reset button that gives it back. The fields are the custom GPU's table
// (gpusizer/custom_gpu.hpp); the state functions (ui/state.hpp) keep only what differs from the
// base, so the link stays short.
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace gpusizer::ui {

namespace {

// The values a choice field offers in its combo.
std::vector<std::string> choices_of(const GpuField& f) {
    if (std::string_view(f.name) == "architecture")
        return {"unknown", "volta",   "turing", "ampere", "ada",      "hopper",   "blackwell", "cdna2",    "cdna3",   "cdna4",
                "rdna3",   "rdna3.5", "rdna4",  "xe2",    "apple-m1", "apple-m2", "apple-m3",  "apple-m4", "apple-m5"};
    std::vector<std::string> out;
    const std::string list = gpu_field_choices(f);
    std::size_t p = 0;
    while (p < list.size()) {
        const std::size_t comma = list.find(", ", p);
        out.push_back(list.substr(p, comma == std::string::npos ? std::string::npos : comma - p));
        p = comma == std::string::npos ? list.size() : comma + 2;
    }
    return out;
}

}  // namespace

void App::draw_custom_gpu() {
    ImGui::PushID("custom gpu");
    CustomGpu& spec = s_.config.custom_gpu;
    std::string error;
    const std::shared_ptr<const CustomGpuBuild> built = custom_gpu_build(s_, catalog_, &error);
    const Gpu now = built ? built->gpu : Gpu{};

    // Where the figures start: a catalog GPU (every field prefilled from it), or none.
    row_label(tr("Start from"));
    const Gpu* base = catalog_.find_gpu(spec.base);
    const char* kNone = tr_later("nothing: every field given");
    width_before_help_marker();
    if (ImGui::BeginCombo("##base", base ? base->name.c_str() : tr(kNone), ImGuiComboFlags_HeightLarge)) {
        search_field(tr("search GPUs"), base_filter_);
        if (pick_selectable(tr_label(kNone), spec.base.empty())) {
            try {
                set_custom_gpu_base(s_, catalog_, "");
            } catch (const Error& e) {
                s_.message = e.what();
                s_.message_is_error = true;
            }
            changed();
        }
        for (const Gpu& g : catalog_.gpus) {
            if (!filter_matches(base_filter_, g.id, g.name)) continue;
            if (pick_selectable(g.name.c_str(), g.id == spec.base)) {
                set_custom_gpu_base(s_, catalog_, g.id);
                changed();
            }
        }
        ImGui::EndCombo();
    }
    help_marker(tr("A GPU the catalog does not have: one announced and not yet sold, or your own card overclocked. Start from a catalog GPU and change what differs; every field not given is the base's. With nothing to start from, name, memory, bandwidth, a BF16 or FP16 rate and TDP are needed, and the other fields take their stated defaults (the Assumptions tab lists them)."));
    if (!built) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(to_vec4(no_fit_color()), "%s", error.c_str());
        ImGui::PopTextWrapPos();
    }

    // One row per field: its label, its input, and a reset button when it was given. The field's
    // typed number keeps printf's '.' in every language: ImGui reads the field back with it.
    constexpr const char* kReset = "x";   // a sign, the same in every language
    auto field_row = [&](const char* label, const char* name, const char* format) {
        const GpuField* f = find_gpu_field(name);
        if (!f) return;
        const bool given = spec.find(name) != nullptr;
        // Without a base, a required field has nothing to go back to: no reset button.
        const bool resettable = given && !(spec.base.empty() && f->required);
        ImGui::PushID(name);
        row_label(tr(label));
        const float reset_w =
            resettable ? ImGui::CalcTextSize(kReset).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x : 0.0f;
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - reset_w);
        if (given) ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette().accent));
        switch (f->kind) {
            case GpuFieldKind::number:
            case GpuFieldKind::integer: {
                double v = f->get(now);
                if (ImGui::InputDouble("##v", &v, 0.0, 0.0, format)) {
                    set_custom_gpu_number(s_, catalog_, *f, v);
                    changed();
                }
                break;
            }
            case GpuFieldKind::boolean: {
                bool v = f->get(now) != 0;
                if (ImGui::Checkbox("##v", &v)) {
                    set_custom_gpu_number(s_, catalog_, *f, v ? 1.0 : 0.0);
                    changed();
                }
                break;
            }
            case GpuFieldKind::choice: {
                const std::string cur = f->get_text(now);
                if (ImGui::BeginCombo("##v", cur.c_str())) {
                    for (const std::string& option : choices_of(*f))
                        if (pick_selectable(option.c_str(), option == cur)) {
                            set_custom_gpu_text(s_, catalog_, *f, option);
                            changed();
                        }
                    ImGui::EndCombo();
                }
                break;
            }
            case GpuFieldKind::text: {
                std::string v = f->get_text(now);
                if (ImGui::InputTextWithHint("##v", tr("unknown"), &v)) {
                    if (v.size() > 200) v.resize(200);   // the reader's limit
                    if (v.empty())
                        reset_custom_gpu_field(s_, *f);
                    else
                        set_custom_gpu_text(s_, catalog_, *f, v);
                    changed();
                }
                break;
            }
        }
        if (given) ImGui::PopStyleColor();
        note_item("custom gpu field");
        if (ImGui::IsItemHovered() && *f->meaning) ImGui::SetTooltip("%s (%s)", f->meaning, f->name);
        if (resettable) {
            ImGui::SameLine();
            if (ImGui::SmallButton(kReset)) {
                reset_custom_gpu_field(s_, *f);
                changed();
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spec.base.empty() ? tr("back to the default") : tr("back to the base's value"));
        }
        ImGui::PopID();
    };
    field_row(tr_later("Name"), "name", "");
    field_row(tr_later("Memory"), "memory_gib", "%.6g GiB");
    field_row(tr_later("Bandwidth"), "memory_bandwidth_gb_per_s", "%.6g GB/s");
    field_row(tr_later("BF16 tensor"), "tensor_tflops_dense.bf16", "%.6g TFLOPS");
    field_row(tr_later("FP16 tensor"), "tensor_tflops_dense.fp16", "%.6g TFLOPS");
    field_row(tr_later("FP8 tensor"), "tensor_tflops_dense.fp8", "%.6g TFLOPS");
    field_row(tr_later("FP4 tensor"), "tensor_tflops_dense.fp4", "%.6g TFLOPS");
    field_row("TDP", "tdp_w", "%.6g W");   // TDP, FP32, PCIe P2P, Tensor cores: the same in Portuguese
    // Not indented: the labels keep the column the fields above them use.
    if (ImGui::TreeNodeEx(tr_label("More fields"), ImGuiTreeNodeFlags_NoTreePushOnOpen)) {
        field_row(tr_later("INT8 tensor"), "tensor_tflops_dense.int8", "%.6g TOPS");
        field_row(tr_later("TF32 tensor"), "tensor_tflops_dense.tf32", "%.6g TFLOPS");
        field_row("FP32", "fp32_tflops", "%.6g TFLOPS");
        field_row(tr_later("Vendor"), "vendor", "");
        field_row(tr_later("Architecture"), "architecture", "");
        field_row(tr_later("Class"), "segment", "");
        field_row(tr_later("Memory type"), "memory_type", "");
        field_row(tr_later("GPU link"), "interconnect.nvlink", "");
        field_row(tr_later("Link speed"), "interconnect.nvlink_gb_per_s", "%.6g GB/s");
        field_row(tr_later("PCIe gen"), "interconnect.pcie_gen", "%.0f");
        field_row(tr_later("PCIe lanes"), "interconnect.pcie_lanes", "%.0f");
        field_row("PCIe P2P", "p2p", "");
        field_row("Tensor cores", "tensor_cores", "");
        field_row(tr_later("Price"), "price_usd", "$%.8g");
    }
    if (built && !spec.base.empty()) {
        const int changed_fields = int(spec.values.size());
        ImGui::TextDisabled(changed_fields == 1 ? tr("%d field changed, the rest %s's") : tr("%d fields changed, the rest %s's"), changed_fields,
                            built->base_name.c_str());
    } else if (built) {
        ImGui::TextDisabled(tr("%d fields not given: stated defaults (Assumptions tab)"), int(built->defaults.size()));
    }
    ImGui::PopID();
}

}  // namespace gpusizer::ui
