// custom_gpu_json.cpp: a custom GPU's object in the configuration JSON (gpusizer/custom_gpu.hpp),
// read field by field against the field table and written back as given.
//
// The widget's module compiles this file with GPUSIZER_CUSTOM_GPU=0 (web/CMakeLists.txt): it has
// no room for custom GPUs, and refuses them with a message, as it refuses Hub models.
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "gpusizer/config.hpp"
#include "gpusizer/custom_gpu.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"

#ifndef GPUSIZER_CUSTOM_GPU
#define GPUSIZER_CUSTOM_GPU 1
#endif

namespace gpusizer {

using detail::dump_text;
using detail::parse_json;
using nlohmann::json;

#if !GPUSIZER_CUSTOM_GPU
namespace detail {
json custom_gpu_json(const CustomGpu&) { return json::object(); }   // no custom GPU gets this far
CustomGpu custom_gpu_from_json_value(const json&) { throw_error("gpu", kNoCustomGpuHere); }
// The gpu key takes a catalog id here: an object is refused as not one ("gpu: must be a string").
bool read_custom_gpu(Config&, const json&) { return false; }
bool write_custom_gpu(const Config&, json&) { return false; }
}  // namespace detail
#else
namespace {

std::string shown(const json& v) { return dump_text(v); }

// The fields a custom GPU object may hold, for messages: "base, name, memory_gib, ...".
std::string custom_gpu_field_list() {
    std::string out = "base";
    for (const GpuField& f : gpu_fields()) {
        const std::string_view n = f.name;
        if (n.rfind("tensor_tflops_dense.", 0) == 0 || n.rfind("interconnect.", 0) == 0) {
            const std::string group(n.substr(0, n.find('.')));
            if (out.find(group) == std::string::npos) out += ", " + group + " {...}";
            continue;
        }
        out += ", " + std::string(n);
    }
    return out;
}

// One field of a custom GPU object ("memory_gib", "tensor_tflops_dense.bf16"), checked against its
// row (gpusizer/custom_gpu.hpp); null leaves it to the default.
void read_gpu_field(CustomGpu& spec, const std::string& name, const json& v) {
    const GpuField* f = find_gpu_field(name);
    const std::string key = "gpu." + name.substr(0, 60);
    if (!f) {
        if (name == "id")
            throw_error(key,
                        "a custom GPU has no catalog id (its id is 'custom'); leave id out, or start from a catalog entry with "
                        "base");
        if (name == "sources" || name == "unverified" || name == "note" || name == "price_note")
            throw_error(key, "is catalog provenance (gpus.json); a custom GPU does not take it");
        throw_error(key, "unknown field of a custom GPU; fields: " + custom_gpu_field_list());
    }
    if (v.is_null()) return;
    switch (f->kind) {
        case GpuFieldKind::text:
        case GpuFieldKind::choice: {
            if (!v.is_string()) throw_error(key, "must be a string, got " + shown(v));
            std::string t = v.get<std::string>();
            if (t.size() > 200) throw_error(key, "must be at most 200 characters");
            if (t.empty()) throw_error(key, "must not be empty (leave it out for the default)");
            if (f->kind == GpuFieldKind::choice) {
                Gpu scratch;
                f->set_text(scratch, t);   // throws naming the field, with the allowed values
            }
            spec.set(f->name, std::move(t));
            return;
        }
        case GpuFieldKind::boolean:
            if (!v.is_boolean()) throw_error(key, "must be true or false, got " + shown(v));
            spec.set(f->name, v.get<bool>() ? 1.0 : 0.0);
            return;
        case GpuFieldKind::integer:
        case GpuFieldKind::number: {
            const char* what = f->kind == GpuFieldKind::integer ? "must be an integer, got " : "must be a number, got ";
            if (!v.is_number()) throw_error(key, what + shown(v));
            const double d = v.get<double>();
            check_gpu_field_value(*f, d);
            spec.set(f->name, d);
            return;
        }
    }
}

// {"base": "rtx-4090", <fields of a gpus.json entry>}: a GPU not in the catalog, as given.
CustomGpu custom_gpu_from_value(const json& o) {
    if (!o.is_object()) throw_error("gpu", "must be a catalog id string or an object of a GPU's fields");
    if (o.empty())
        throw_error("gpu",
                    "an object GPU must name base (a catalog id to start from) or give name, memory_gib, "
                    "memory_bandwidth_gb_per_s, tensor_tflops_dense and tdp_w");
    CustomGpu spec;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string& k = it.key();
        const json& v = it.value();
        if (k == "base") {
            if (v.is_null()) continue;
            if (!v.is_string() || v.get<std::string>().empty())
                throw_error("gpu.base", "must be a catalog GPU id (see `gpusizer gpus`), got " + shown(v));
            if (v.get<std::string>() == kCustomGpuId) throw_error("gpu.base", "must be a catalog GPU id, not 'custom'");
            spec.base = v.get<std::string>();
        } else if (k == "tensor_tflops_dense" || k == "interconnect") {
            if (v.is_null()) continue;
            if (!v.is_object())
                throw_error("gpu." + k,
                            "must be an object such as " + std::string(k == "interconnect" ? "{\"pcie_gen\": 5}" : "{\"bf16\": 300}"));
            for (auto f = v.begin(); f != v.end(); ++f) {
                if (!find_gpu_field(k + "." + f.key()))
                    throw_error("gpu." + k + "." + f.key().substr(0, 40),
                                k == "interconnect" ? "unknown field; allowed: nvlink, nvlink_gb_per_s, pcie_gen, pcie_lanes"
                                                    : "unknown precision; allowed: tf32, fp16, bf16, fp8, int8, fp4");
                read_gpu_field(spec, k + "." + f.key(), f.value());
            }
        } else if (k.find('.') != std::string::npos) {
            throw_error("gpu." + k.substr(0, 60),
                        "unknown field of a custom GPU (nested fields are objects, as in gpus.json: "
                        "\"tensor_tflops_dense\": {\"bf16\": 300})");
        } else {
            read_gpu_field(spec, k, v);
        }
    }
    if (spec.empty())
        throw_error("gpu",
                    "an object GPU must name base (a catalog id to start from) or give name, memory_gib, "
                    "memory_bandwidth_gb_per_s, tensor_tflops_dense and tdp_w");
    return spec;
}

}  // namespace

namespace detail {

json custom_gpu_json(const CustomGpu& spec) {
    json j = json::object();
    if (!spec.base.empty()) j["base"] = spec.base;
    for (const CustomGpu::Value& v : spec.values) {
        const GpuField& f = gpu_fields()[v.field];
        json value;
        switch (f.kind) {
            case GpuFieldKind::text:
            case GpuFieldKind::choice:
                value = v.text;
                break;
            case GpuFieldKind::boolean:
                value = v.number != 0;
                break;
            case GpuFieldKind::integer:
                value = (long long)v.number;
                break;
            case GpuFieldKind::number:
                value = v.number;
                break;
        }
        const std::string_view name = f.name;
        const std::size_t dot = name.find('.');
        if (dot == std::string_view::npos)
            j[std::string(name)] = std::move(value);
        else
            j[std::string(name.substr(0, dot))][std::string(name.substr(dot + 1))] = std::move(value);
    }
    return j;
}

CustomGpu custom_gpu_from_json_value(const json& value) { return custom_gpu_from_value(value); }

bool read_custom_gpu(Config& c, const json& v) {
    if (v.is_object()) {
        c.custom_gpu = custom_gpu_from_value(v);
        c.gpu = std::string(kCustomGpuId);
        return true;
    }
    if (v.is_string() && v.get<std::string>() == kCustomGpuId)
        throw_error("gpu",
                    "'custom' is a GPU described by its fields: give them as an object, {\"name\": ..., \"memory_gib\": ..., ...} "
                    "or {\"base\": \"rtx-4090\", ...} (docs/config.md, \"Custom GPU\")");
    return false;
}

bool write_custom_gpu(const Config& c, json& out) {
    if (c.gpu != kCustomGpuId || c.custom_gpu.empty()) return false;   // "custom" without fields: written as such, read back refused
    out = custom_gpu_json(c.custom_gpu);
    return true;
}

}  // namespace detail
#endif

CustomGpu custom_gpu_from_json(std::string_view json_text) { return detail::custom_gpu_from_json_value(parse_json(json_text, "gpu")); }

std::string custom_gpu_to_json(const CustomGpu& spec, int indent) { return dump_text(detail::custom_gpu_json(spec), indent); }

}  // namespace gpusizer
