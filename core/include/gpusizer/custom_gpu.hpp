// gpusizer/custom_gpu.hpp: a GPU that is not in the catalog (announced and not yet sold, an
// overclocked card): the configuration's "gpu" given as an object with the fields of a gpus.json
// entry, on its own or over a catalog entry ("base").
//
//   {"gpu": {"name": "Next 48G", "memory_gib": 48, "memory_bandwidth_gb_per_s": 1200,
//            "tensor_tflops_dense": {"bf16": 300}, "tdp_w": 350}}
//   {"gpu": {"base": "rtx-4090", "tdp_w": 500, "memory_bandwidth_gb_per_s": 1100}}
//
// Config::gpu is then "custom" and Config::custom_gpu holds the fields as given; resolve builds
// the GPU (build_custom_gpu) with the stated default of every field neither the object nor its
// base gives. One row per field (gpu_fields(), in the manner of the configuration-key table,
// gpusizer/config_keys.hpp): the JSON name, the share-link key (inside gc=), the CLI flag, the
// range (the catalog reader's, core/src/catalog_io.cpp: tests/test_custom_gpu.cpp holds the two
// together), the default and its derivation. The JSON
// reader and writer, share links, the CLI's flags, the app's fields, the report's assumptions and
// the field reference of docs/config.md all read it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/gpu.hpp"

namespace gpusizer {

struct Catalog;
struct GpuOverlay;

enum class GpuFieldKind {
    text,   // free text (name, memory_type, chip, form_factor)
    choice,   // one of a closed set (vendor, architecture, segment, interconnect.nvlink)
    integer,   // a whole number in [min, max]
    number,   // a finite number in [min, max]
    boolean,
};

struct GpuField {
    const char* name;   // the gpus.json field, nested ones dotted: "tensor_tflops_dense.bf16", "interconnect.pcie_gen"
    const char* link;   // its key inside a share link's gc= ("mem")
    const char* flag;   // the CLI flag, without "--" ("gpu-memory-gib")
    const char* metavar;   // the CLI's name for the value
    GpuFieldKind kind;
    double min, max;   // integer and number fields: the range (inclusive), as the catalog reader checks it
    bool required;   // without a base: the object must give it (the 16-bit tensor rate: bf16 or fp16)
    const char* unit;   // docs: "GiB", "GB/s", ...
    const char* default_doc;   // what a field not given is, and why (docs/config.md and the report's assumptions)
    const char* meaning;   // docs and the CLI's usage line
    // The value in a Gpu, and setting it (numbers and booleans as double; choices and text as text).
    // set_text throws Error naming "gpu.<name>" for a choice it does not know.
    double (*get)(const Gpu&);
    void (*set)(Gpu&, double);
    std::string (*get_text)(const Gpu&);
    void (*set_text)(Gpu&, std::string_view);
};

struct GpuFieldTable {
    const GpuField* first;
    std::size_t count;
    const GpuField* begin() const { return first; }
    const GpuField* end() const { return first + count; }
    std::size_t size() const { return count; }
    const GpuField& operator[](std::size_t i) const { return first[i]; }
};

// Every field, in the order the configuration JSON and share links write them.
GpuFieldTable gpu_fields();
const GpuField* find_gpu_field(std::string_view name);   // by JSON name ("tensor_tflops_dense.bf16"); nullptr if none
const GpuField* find_gpu_field_link(std::string_view link);   // by share-link key
const GpuField* find_gpu_field_flag(std::string_view flag);   // by CLI flag (without "--")
// "must be between 0.25 and 100000 GiB, got 0" as Error("gpu.<name>"), unless `v` is in range (and
// whole, for an integer field; 0 or 1 for a boolean).
void check_gpu_field_value(const GpuField& f, double v);
// The allowed values of a choice field, for messages and UIs ("nvidia, amd, intel, apple").
std::string gpu_field_choices(const GpuField& f);

// The fields of a custom GPU as given. Each field appears at most once; `values` is kept in
// table order, so that two specs with the same fields compare (and write) alike.
struct CustomGpu {
    std::string base;   // a catalog id whose figures the given fields override; "" = none (the required fields are given)
    struct Value {
        std::size_t field = 0;   // its row in gpu_fields()
        double number = 0;   // integer, number and boolean fields (0 / 1)
        std::string text;   // text and choice fields
        bool operator==(const Value& o) const { return field == o.field && number == o.number && text == o.text; }
    };
    std::vector<Value> values;

    bool empty() const { return base.empty() && values.empty(); }
    const Value* find(std::string_view field_name) const;   // nullptr when not given
    // Set a field (unchecked here: build_custom_gpu and the readers check), or take it back out.
    void set(std::string_view field_name, double v);
    void set(std::string_view field_name, std::string v);
    void erase(std::string_view field_name);
    bool operator==(const CustomGpu& o) const { return base == o.base && values == o.values; }
    bool operator!=(const CustomGpu& o) const { return !(*this == o); }
};

// One field a custom GPU's fields and base did not give, with the value it took and why (the
// report's assumptions: "gpu.fp32_tflops = 9.4 TFLOP/s: ...").
struct GpuDefault {
    std::string field;   // "fp32_tflops"; "base" for the fields a base gave
    std::string value;
    std::string why;
};

// A custom GPU as the estimate uses it.
struct CustomGpuBuild {
    Gpu gpu;   // id "custom"
    std::string base_name;   // the base's name; "" = none
    std::vector<GpuDefault> defaults;   // what was not given, and what it was taken to be
};

// The GPU `spec` describes: its base's entry (`measured`'s, when a benchmark report calibrated it;
// else the catalog's), the given fields over it, and for a spec without a base the stated
// default of every field not given. Throws Error naming "gpu.<field>" (a value out of range, a
// required field missing, an unknown base: "gpu.base").
CustomGpuBuild build_custom_gpu(const CustomGpu& spec, const Catalog& catalog, const GpuOverlay* measured = nullptr);

// The custom GPU of `config` (config.gpu "custom"), built; nullptr for a catalog GPU. Throws
// Error("gpu") for "custom" without fields, and what build_custom_gpu throws.
struct Config;
std::shared_ptr<const CustomGpuBuild> custom_gpu_of(const Config& config, const Catalog& catalog, const GpuOverlay* measured = nullptr);
// The name a configuration's GPU is shown by: the catalog's, the custom GPU's (its name, or its
// base's with " (custom)"), or the id when neither is known. Throws nothing.
std::string gpu_display_name(const Config& config, const Catalog& catalog);

// What a build without custom GPUs answers one (the widget's module, GPUSIZER_CUSTOM_GPU=0).
constexpr const char* kNoCustomGpuHere = "the widget takes no custom GPU: open the link in the gpusizer app";

// The field reference of docs/config.md ("Custom GPU", a Markdown table) and the CLI's flag lines.
std::string gpu_fields_markdown();
std::string gpu_fields_usage();

}  // namespace gpusizer
