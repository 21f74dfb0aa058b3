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
// widget (estimate, share links, models, gpus, formats; the catalog without its prose). The
// widget's module calls its functions without Embind, through plain exports (the end of this
// file) that web/api_lite.js turns into the same raw functions for api_post.js.
#include <exception>
#include <locale.h>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include <emscripten/emscripten.h>
#ifndef GPUSIZER_API_LITE
#include <emscripten/bind.h>
#include <emscripten/val.h>
#endif

#include "embedded.hpp"
#include "gpusizer/gpusizer.hpp"
#include "gpusizer/inspect.hpp"

namespace {

#ifndef GPUSIZER_API_LITE
using emscripten::val;
#endif
using namespace gpusizer;

// Errors never cross into JavaScript as exceptions. A JS exception thrown through wasm frames
// skips their epilogues: the wasm stack pointer they moved is never restored (a few dozen bytes
// per call, so the 5 MiB stack overflows into the heap after ~160,000 errors) and Embind's
// argument copies are never freed. Instead each function returns normally and leaves the error
// here; api_post.js (the module's JS side) reads it and throws the GpuSizerError from JS, after
// every wasm frame has returned.
struct LastError {
    bool set = false;
    std::string key, message;
};
LastError g_error;

// Runs f; a gpusizer::Error (or any C++ exception) is kept in g_error and "" returned.
template <typename F>
std::string guarded(F&& f) {
    g_error.set = false;
    try {
        return f();
    } catch (const Error& e) {
        g_error = {true, e.key(), e.what()};
    } catch (const std::exception& e) {
        g_error = {true, "", std::string("internal error: ") + e.what()};
    }
    return {};
}

#ifndef GPUSIZER_API_LITE
// The last call's error: {key, message}, or null when it succeeded.
val js_last_error() {
    if (!g_error.set) return val::null();
    val o = val::object();
    o.set("key", g_error.key);
    o.set("message", g_error.message);
    g_error.set = false;
    return o;
}
#endif

// The report as `gpusizer estimate --json` writes it: with the other-link comparison.
std::string report_text(const Config& c, const Catalog& catalog, const GpuOverlay* measured = nullptr) {
    return report_to_json(estimate(c, catalog, EstimateOptions{true, measured}));
}

std::string js_estimate(const std::string& config) {
    return guarded([&] { return report_text(config_from_json(config), web::embedded_catalog()); });
}

#ifndef GPUSIZER_API_LITE
// estimate() with a gpusizer-cuda-bench report's measured figures in place of the datasheet's
// (`gpusizer estimate --measured REPORT.json`). The report is its JSON text; with no "gpu" in
// the configuration, the report's GPU is used.
std::string js_estimate_measured(const std::string& config, const std::string& report_text_value) {
    return guarded([&] {
        const MeasuredReport report = measured_report_from_json(report_text_value, "report");
        const std::string text = config;
        Config c = config_from_json(text);   // checks the text first: JSON.parse below cannot throw
        const val given = val::global("JSON").call<val>("parse", text);
        if (given["gpu"].isUndefined() || given["gpu"].isNull())
            for (const MeasuredDevice& d : report.devices)
                if (!d.catalog_id.empty()) {
                    c.gpu = d.catalog_id;
                    break;
                }
        const GpuOverlay measured = measured_overlay(web::embedded_catalog(), report, "report", {measured_gpu_id(c, "report")});
        return report_text(c, web::embedded_catalog(), &measured);
    });
}

// `gpusizer recommend --json`: constraints as the "query" object of its answer names them.
std::string js_recommend(const std::string& config, const std::string& constraints) {
    return guarded([&] {
        const std::string limits = constraints.empty() ? std::string("{}") : constraints;
        return recommend_to_json(recommend(recommend_query_from_json(config, limits), web::embedded_catalog()));
    });
}

std::string js_links() { return guarded([] { return links_to_json(web::embedded_catalog()); }); }
#endif

#ifndef GPUSIZER_API_LITE
std::string js_fit(const std::string& config) {
    return guarded([&] { return fit_to_json(fit(config_from_json(config), web::embedded_catalog())); });
}

// `gpusizer inspect --json` of a header's bytes (a Uint8Array: the whole GGUF or safetensors
// file, or its first bytes, enough to hold the header). `file_size`: the size of the file the
// bytes begin (checked against where the tensors end), or -1 when not given (api_post.js has
// checked it is a whole number of bytes).
std::string js_inspect(const std::string& bytes, double file_size) {
    return guarded([&] {
        return inspect_bytes_json("header", bytes,
                                  file_size < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(file_size)));
    });
}

// `gpusizer reconcile --json` of a startup log's text; `config` holds keys that win over the
// log's (JSON text, "" = none). The browser reads no files: a gguf / hf_dir key is refused.
std::string js_reconcile(const std::string& text, const std::string& config) {
    return guarded([&] { return reconcile_json(text, &web::embedded_catalog(), config, SourceOpener()); });
}

// `gpusizer plan --json`: the layout search. `query` holds the search's fields (mode, top,
// max_micro_batch, max_virtual_stages, tokens, offload, expert_parallel, context_parallel; "" = {}).
std::string js_plan(const std::string& config, const std::string& query) {
    return guarded([&] { return plan_to_json(plan(plan_request_from_json(config, query), web::embedded_catalog())); });
}

// `gpusizer simulate --json`: the request-level simulation. `options` holds its fields (requests,
// seed, burstiness, lengths, length_spread, prefix_hit_rate, slo_ttft_ms, slo_tpot_ms,
// timeline_points, trace: the trace's text, max_concurrency, max_rate, percentile; "" = the
// defaults).
std::string js_simulate(const std::string& config, const std::string& options) {
    return guarded([&] {
        return simulation_to_json(simulate(config_from_json(config), web::embedded_catalog(), simulation_options_from_json(options)));
    });
}

// `gpusizer estimate --emit ENGINE`: the engine's launch command for the configuration
// (gpusizer/launch.hpp); an engine that cannot run it throws, naming why.
std::string js_launch(const std::string& config, const std::string& engine) {
    return guarded([&] {
        const Runtime e = parse_launch_engine(engine, "engine");
        const Report r = estimate(config_from_json(config), web::embedded_catalog(), EstimateOptions{true, nullptr});
        std::string command = launch_command(r, e);
        if (command.empty()) throw Error("engine", launch_refusal(r, e), ErrorCode::incompatible);
        return command;
    });
}

std::string js_assumptions(const std::string& config) {
    return guarded([&] {
        return assumptions_to_json(assumptions(estimate(config_from_json(config), web::embedded_catalog())));
    });
}

#endif

std::string js_models() { return guarded([] { return models_to_json(web::embedded_catalog()); }); }
std::string js_gpus() { return guarded([] { return gpus_to_json(web::embedded_catalog()); }); }

// {"weights": [{"id", "label", "bits"}], "kv_cache": [{"id", "bytes", "llama_cpp_only"}]},
// most precise first.
#ifndef GPUSIZER_API_LITE
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
#else
// The widget's module: the same lists as rows, [[id, label, bits], ...] and [[id, bytes,
// llama_cpp_only], ...], which web/api_lite.js builds into the objects above and writes with
// JSON.stringify(..., null, 2) as this function's other form does. A number is written with 17
// significant digits, which JSON.parse reads back as the same double.
std::string js_formats() {
    const auto text = [](std::string_view s) {
        std::string out = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        return out + '"';
    };
    const auto number = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        return std::string(buf);
    };
    std::string out = "[[";
    for (const WeightFormat& f : weight_formats())
        out += (out.size() > 2 ? ",[" : "[") + text(f.id) + "," + text(f.label) + "," + number(f.bits) + "]";
    out += "],[";
    bool first = true;
    for (const KvFormat& k : kv_formats()) {
        out += (first ? "[" : ",[") + text(k.id) + "," + number(k.bytes) + "," + (k.llama_cpp_only ? "true" : "false") + "]";
        first = false;
    }
    return out + "]]";
}
#endif

std::string js_link_from_config(const std::string& config) {
    return guarded([&] { return link_from_config(config_from_json(config)); });
}

std::string js_config_from_link(const std::string& link) {
    return guarded([&] {
        return config_to_json(config_from_link(link));
    });
}

}  // namespace

#ifdef GPUSIZER_API_LITE
// strtod for the widget's module: the browser's own number parser instead of musl's. musl's
// strtod works in 128-bit long double, which WebAssembly emulates in software (__addtf3,
// __multf3, __divtf3, fmodl, scalbnl: about 14 KB of code, 6 KB gzipped, for the parsing of
// JSON numbers and link values alone). JavaScript's Number() of a decimal string is the double
// nearest to it (ECMAScript 2023, 7.1.4.1.1 StringToNumber, "rounded as described in 6.1.6.1"),
// which is what musl's strtod gives too, so the numbers are the same. This strtod takes what its
// callers pass (nlohmann's validated number tokens, share link values): optional leading white
// space, a sign, digits with an optional point, an optional exponent, and inf/infinity/nan; a
// hexadecimal float ("0x1p4") stops after its "0", so a link holding one is refused as not a
// number (the CLI would read it).
EM_JS(double, gpusizer_js_number, (const char* text, int length), {
    var s = "";
    for (var i = 0; i < length; ++i) s += String.fromCharCode(HEAPU8[text + i]);
    return Number(s);
});

extern "C" double strtod(const char* text, char** end) {
    const char* p = text;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
    const char* start = p;
    if (*p == '+' || *p == '-') ++p;
    const auto word = [&p](const char* w) {   // case-insensitive prefix, advances past it
        const char* q = p;
        for (; *w; ++w, ++q)
            if ((*q | 0x20) != *w) return false;
        p = q;
        return true;
    };
    const bool negative = *start == '-';
    if (word("inf")) {
        word("inity");
        if (end) *end = const_cast<char*>(p);
        return negative ? -__builtin_inf() : __builtin_inf();
    }
    if (word("nan")) {
        if (end) *end = const_cast<char*>(p);
        return __builtin_nan("");
    }
    const auto digits = [&p] {
        const char* from = p;
        while (*p >= '0' && *p <= '9') ++p;
        return p != from;
    };
    bool any = digits();
    if (*p == '.') {
        ++p;
        any = digits() || any;
    }
    if (!any) {   // no number: nothing is read
        if (end) *end = const_cast<char*>(text);
        return 0;
    }
    if (*p == 'e' || *p == 'E') {
        const char* mark = p++;
        if (*p == '+' || *p == '-') ++p;
        if (!digits()) p = mark;   // "1e" or "1e+": the exponent is not part of the number
    }
    if (end) *end = const_cast<char*>(p);
    return gpusizer_js_number(start, static_cast<int>(p - start));
}

// musl defines these in strtod's object file, which libc++'s locale.o refers to: defining them
// here keeps that file (and its duplicate strtod) out of the link. Nothing in the module reads a
// float or a long double from text; the long double ones give the double's value.
extern "C" float strtof(const char* text, char** end) { return static_cast<float>(strtod(text, end)); }
extern "C" long double strtold(const char* text, char** end) { return strtod(text, end); }
extern "C" float strtof_l(const char* text, char** end, locale_t) { return strtof(text, end); }
extern "C" double strtod_l(const char* text, char** end, locale_t) { return strtod(text, end); }
extern "C" long double strtold_l(const char* text, char** end, locale_t) { return strtod(text, end); }

// No environment in the widget's module: getenv finds nothing, as musl's finds none of the core's
// variables among the few Emscripten makes up for a page (USER, HOME, LANG, ...). musl's getenv
// would bring Emscripten's set-up of those: a constructor that copies them in at start-up and its
// JavaScript side (0.5 KB gzipped), for the one caller linked in (the CLI's asset folder search,
// core/src/catalog_io.cpp find_assets_dir), which the module never runs.
extern "C" char* getenv(const char*) { return nullptr; }
#endif

#ifndef GPUSIZER_API_LITE
EMSCRIPTEN_BINDINGS(gpusizer) {
    // Messages point to what the API's caller has (QA E11), not to the CLI's commands. The
    // widget's module sets none: its messages end with their examples, and its Model and GPU
    // lists are in sight.
    Phrasing p;
    p.list_models = "gs.models() lists all";
    p.list_gpus = "gs.gpus() lists all";
    p.list_links = "gs.links() lists them";
    p.hub_not_fetched =
        "read it with gs.fromHub(), which fetches its config.json or a GGUF file's header, and pass the "
        "configuration it answers";
    p.name_model = "give it in the configuration, as gs.reconcile(log, {model: 'llama-3-8b'})";
    set_phrasing(p);
    // The raw functions; api_post.js wraps them into the object createGpuSizer() resolves to.
    emscripten::function("lastError", &js_last_error);
    emscripten::function("estimate", &js_estimate);
#ifndef GPUSIZER_API_LITE
    emscripten::function("estimateMeasured", &js_estimate_measured);
    emscripten::function("recommend", &js_recommend);
    emscripten::function("links", &js_links);
#endif
#ifndef GPUSIZER_API_LITE
    emscripten::function("fit", &js_fit);
    emscripten::function("plan", &js_plan);
    emscripten::function("simulate", &js_simulate);
    emscripten::function("assumptions", &js_assumptions);
    emscripten::function("launch", &js_launch);
    emscripten::function("inspect", &js_inspect);
    emscripten::function("reconcile", &js_reconcile);
#endif
    emscripten::function("models", &js_models);
    emscripten::function("gpus", &js_gpus);
    emscripten::function("formats", &js_formats);
    emscripten::function("linkFromConfig", &js_link_from_config);
    emscripten::function("configFromLink", &js_config_from_link);
}
#else
// The widget's module without Embind, whose JavaScript side (type registries, invokers, the
// std::string and emscripten::val conversions) is half of the module's JS: 3.6 KB gzipped, and
// 1.7 KB of WebAssembly. The same functions as plain exports over UTF-8 bytes: each takes its text
// as a pointer and a length (a U+0000 in it stays), keeps its answer in g_answer, and returns the
// answer's length; web/api_lite.js reads the answer at gs_answer() and wraps each export into
// the raw function api_post.js expects, as Embind did.
namespace {
std::string g_answer;
int answer(std::string text) {
    g_answer = std::move(text);
    return static_cast<int>(g_answer.size());
}
}   // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE const char* gs_answer() { return g_answer.data(); }
EMSCRIPTEN_KEEPALIVE int gs_estimate(const char* text, int size) { return answer(js_estimate(std::string(text, size))); }
EMSCRIPTEN_KEEPALIVE int gs_models() { return answer(js_models()); }
EMSCRIPTEN_KEEPALIVE int gs_gpus() { return answer(js_gpus()); }
EMSCRIPTEN_KEEPALIVE int gs_formats() { return answer(js_formats()); }
EMSCRIPTEN_KEEPALIVE int gs_link_from_config(const char* text, int size) { return answer(js_link_from_config(std::string(text, size))); }
EMSCRIPTEN_KEEPALIVE int gs_config_from_link(const char* text, int size) { return answer(js_config_from_link(std::string(text, size))); }
// The last call's error: -1 when it succeeded; else part 0 (its key) or 1 (its message, which
// clears it) as the answer.
EMSCRIPTEN_KEEPALIVE int gs_last_error(int part) {
    if (!g_error.set) return -1;
    if (part == 0) return answer(g_error.key);
    g_error.set = false;
    return answer(g_error.message);
}
}
#endif
