// web/bindings.cpp: the JavaScript API over the core (Embind), for documentation authors and
// the widget. Built as the ES module gpusizer.js (+ gpusizer.wasm):
//
//   import createGpuSizer from './gpusizer.js';
//   const gs = await createGpuSizer();
//   const report = JSON.parse(gs.estimate({model: 'llama-3-8b', weights: 'q4_k_m', gpu: 'rtx-4060-ti-16gb'}));
//
// Every function that takes a configuration takes it as JSON text or as a plain object (the
// keys of docs/config.md), and answers JSON text in the CLI's formats (`gpusizer ... --json`).
// A bad input throws a JavaScript Error (name "GpuSizerError") whose message names the key,
// with the key in `error.key`; the module stays usable.
//
// Built twice: gpusizer.js (everything) and, with GPUSIZER_API_LITE, gpusizer-lite.js for the
// widget (estimate, share links, models, gpus, formats; the catalog without its prose).
#include <exception>
#include <string>

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include "embedded.hpp"
#include "gpusizer/gpusizer.hpp"

namespace {

using emscripten::val;
using namespace gpusizer;

// Throws a JS Error. It is called outside any C++ catch block, so no C++ exception is left
// half-handled when JavaScript unwinds the stack.
EM_JS(void, gpusizer_throw_js_error, (const char* key, const char* message), {
    var e = new Error(UTF8ToString(message));
    e["name"] = "GpuSizerError";
    e["key"] = UTF8ToString(key);
    throw e;
});

// Runs f; a gpusizer::Error (or any C++ exception) becomes a JS exception.
template <typename F>
std::string guarded(F&& f) {
    static std::string key, message;   // static: they outlive the JS exception's unwinding
    try {
        return f();
    } catch (const Error& e) {
        key = e.key();
        message = e.what();
    } catch (const std::exception& e) {
        key.clear();
        message = std::string("internal error: ") + e.what();
    }
    gpusizer_throw_js_error(key.c_str(), message.c_str());
    return {};   // not reached
}

// A configuration given as JSON text or as an object.
std::string json_text(const val& v, const char* what) {
    if (v.isString()) return v.as<std::string>();
    if (!v.isNull() && !v.isUndefined() && v.typeOf().as<std::string>() == "object")
        return val::global("JSON").call<std::string>("stringify", v);
    throw Error(what, "must be JSON text or an object");
}

// The report as `gpusizer estimate --json` writes it: with the other-link comparison.
std::string report_text(const Config& c, const Catalog& catalog, const GpuOverlay* measured = nullptr) {
    return report_to_json(estimate(c, catalog, EstimateOptions{true, measured}));
}

std::string js_estimate(const val& config) {
    return guarded([&] { return report_text(config_from_json(json_text(config, "configuration")), web::embedded_catalog()); });
}

#ifndef GPUSIZER_API_LITE
// estimate() with a gpusizer-cuda-bench report's measured figures in place of the datasheet's
// (`gpusizer estimate --measured REPORT.json`). The report is its JSON text; with no "gpu" in
// the configuration, the report's GPU is used.
std::string js_estimate_measured(const val& config, const val& report_text_value) {
    return guarded([&] {
        if (!report_text_value.isString()) throw Error("measured", "must be the report's JSON text (a string)");
        const MeasuredReport report = measured_report_from_json(report_text_value.as<std::string>(), "report");
        const std::string text = json_text(config, "configuration");
        Config c = config_from_json(text);   // checks the text first: JSON.parse below cannot throw
        const val given = val::global("JSON").call<val>("parse", text);
        if (given["gpu"].isUndefined() || given["gpu"].isNull())
            for (const MeasuredDevice& d : report.devices)
                if (!d.catalog_id.empty()) {
                    c.gpu = d.catalog_id;
                    break;
                }
        const GpuOverlay measured = measured_overlay(web::embedded_catalog(), report, "report", {c.gpu});
        return report_text(c, web::embedded_catalog(), &measured);
    });
}

// `gpusizer recommend --json`: constraints as the "query" object of its answer names them.
std::string js_recommend(const val& config, const val& constraints) {
    return guarded([&] {
        const std::string limits = constraints.isUndefined() || constraints.isNull() ? std::string("{}") : json_text(constraints, "constraints");
        return recommend_to_json(recommend(recommend_query_from_json(json_text(config, "configuration"), limits), web::embedded_catalog()));
    });
}

std::string js_links() { return guarded([] { return links_to_json(web::embedded_catalog()); }); }
#endif

#ifndef GPUSIZER_API_LITE
std::string js_fit(const val& config) {
    return guarded([&] { return fit_to_json(fit(config_from_json(json_text(config, "configuration")), web::embedded_catalog())); });
}

std::string js_assumptions(const val& config) {
    return guarded([&] {
        return assumptions_to_json(assumptions(estimate(config_from_json(json_text(config, "configuration")), web::embedded_catalog())));
    });
}

#endif

std::string js_models() { return guarded([] { return models_to_json(web::embedded_catalog()); }); }
std::string js_gpus() { return guarded([] { return gpus_to_json(web::embedded_catalog()); }); }

// {"weights": [{"id", "label", "bits"}], "kv_cache": [{"id", "bytes", "llama_cpp_only"}]},
// most precise first.
std::string js_formats() {
    val out = val::object();
    val weights = val::array();
    for (const WeightFormat& f : weight_formats()) {
        val o = val::object();
        o.set("id", std::string(f.id));
        o.set("label", std::string(f.label));
        o.set("bits", f.bits);
        weights.call<void>("push", o);
    }
    val kv = val::array();
    for (const KvFormat& k : kv_formats()) {
        val o = val::object();
        o.set("id", std::string(k.id));
        o.set("bytes", k.bytes);
        o.set("llama_cpp_only", k.llama_cpp_only);
        kv.call<void>("push", o);
    }
    out.set("weights", weights);
    out.set("kv_cache", kv);
    return val::global("JSON").call<std::string>("stringify", out, val::null(), 2);
}

std::string js_link_from_config(const val& config) {
    return guarded([&] { return link_from_config(config_from_json(json_text(config, "configuration"))); });
}

std::string js_config_from_link(const val& link) {
    return guarded([&] {
        if (!link.isString()) throw Error("link", "must be a string such as \"#v=1&m=llama-3-8b\"");
        return config_to_json(config_from_link(link.as<std::string>()));
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(gpusizer) {
    emscripten::function("estimate", &js_estimate);
#ifndef GPUSIZER_API_LITE
    emscripten::function("estimateMeasured", &js_estimate_measured);
    emscripten::function("recommend", &js_recommend);
    emscripten::function("links", &js_links);
#endif
#ifndef GPUSIZER_API_LITE
    emscripten::function("fit", &js_fit);
    emscripten::function("assumptions", &js_assumptions);
#endif
    emscripten::function("models", &js_models);
    emscripten::function("gpus", &js_gpus);
    emscripten::function("formats", &js_formats);
    emscripten::function("linkFromConfig", &js_link_from_config);
    emscripten::function("configFromLink", &js_config_from_link);
}
