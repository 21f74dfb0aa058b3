// ui/custom_gpu_state.cpp: the custom GPU's fields as the app edits them (state.hpp).
#include "state.hpp"

#include "gpusizer/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::ui {

// ---------------------------------------------------------------------------------------------
// A GPU that is not in the catalog
// ---------------------------------------------------------------------------------------------

void use_custom_gpu(UiState& s) {
    Config& c = s.config;
    if (c.gpu == kCustomGpuId) return;
    if (c.custom_gpu.empty()) c.custom_gpu.base = c.gpu;   // prefilled from the GPU chosen now
    c.gpu = std::string(kCustomGpuId);
}

namespace {

// The GPU the custom one is without `field`: its base's entry, or (no base) the same spec built
// without it, so that a value equal to what it would be anyway is not kept as given. nullptr when
// that cannot be built (a required field): the value is then kept.
std::optional<Gpu> custom_gpu_without(const CustomGpu& spec, const Catalog& catalog, const GpuField& field) {
    CustomGpu rest = spec;
    rest.erase(field.name);
    try {
        return build_custom_gpu(rest, catalog).gpu;
    } catch (const Error&) {
        return std::nullopt;
    }
}

}  // namespace

void set_custom_gpu_number(UiState& s, const Catalog& catalog, const GpuField& field, double value) {
    if (!std::isfinite(value)) return;
    double v = std::clamp(value, field.min, field.max);
    if (field.kind == GpuFieldKind::integer) v = std::round(v);
    if (field.kind == GpuFieldKind::boolean) v = value != 0 ? 1.0 : 0.0;
    CustomGpu& spec = s.config.custom_gpu;
    const std::optional<Gpu> without = custom_gpu_without(spec, catalog, field);
    // Only a value the GPU would not have anyway is kept, except the fields a GPU without a base
    // must give: those stay.
    if (without && field.get(*without) == v && !(spec.base.empty() && field.required))
        spec.erase(field.name);
    else
        spec.set(field.name, v);
}

void set_custom_gpu_text(UiState& s, const Catalog& catalog, const GpuField& field, const std::string& value) {
    if (value.empty()) {   // an emptied field: back to the base or the default
        reset_custom_gpu_field(s, field);
        return;
    }
    if (field.kind == GpuFieldKind::choice) {
        Gpu scratch;
        field.set_text(scratch, value);   // throws Error naming the field for a value it does not know
    }
    CustomGpu& spec = s.config.custom_gpu;
    const std::optional<Gpu> without = custom_gpu_without(spec, catalog, field);
    if (without && field.get_text(*without) == value && !(spec.base.empty() && field.required))
        spec.erase(field.name);
    else
        spec.set(field.name, value);
}

void reset_custom_gpu_field(UiState& s, const GpuField& field) { s.config.custom_gpu.erase(field.name); }

void set_custom_gpu_base(UiState& s, const Catalog& catalog, const std::string& base) {
    CustomGpu& spec = s.config.custom_gpu;
    if (!base.empty()) {
        if (!catalog.find_gpu(base)) throw Error("gpu.base", "unknown GPU '" + base + "'", ErrorCode::unknown_id);
        spec.base = base;
        return;
    }
    if (spec.base.empty()) return;
    const Gpu now = build_custom_gpu(spec, catalog).gpu;   // the figures as they are
    spec.base.clear();
    for (const GpuField& f : gpu_fields()) {
        if (!f.required) continue;
        if (f.get)
            spec.set(f.name, f.get(now));
        else
            spec.set(f.name, f.get_text(now));
    }
}

std::shared_ptr<const CustomGpuBuild> custom_gpu_build(const UiState& s, const Catalog& catalog, std::string* error) {
    if (s.config.custom_gpu.empty()) return nullptr;
    try {
        return std::make_shared<const CustomGpuBuild>(build_custom_gpu(s.config.custom_gpu, catalog));
    } catch (const Error& e) {
        if (error) *error = e.what();
        return nullptr;
    }
}

}  // namespace gpusizer::ui
