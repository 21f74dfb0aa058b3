// python/_core.cpp: the Python extension module gpusizer._core (pybind11), the thin layer under
// python/gpusizer/__init__.py. Every call takes JSON text and answers JSON text in the CLI's
// formats (`gpusizer ... --json`), made by the same functions, so that a Python result equals the
// CLI's value for value. The GIL is released while the core works; a gpusizer::Error becomes the
// package's gpusizer.Error (code, key, message) once the GIL is held again.
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/gpusizer.hpp"
#include "inspect.hpp"   // cli/: the file-backed readers `gpusizer inspect` uses

namespace py = pybind11;
using namespace gpusizer;

namespace {

// The catalog, loaded once by load() (the package calls it on import with its own assets).
std::shared_ptr<const Catalog> g_catalog;
std::mutex g_catalog_mutex;
// gpusizer.Error, handed over by the package (raise_error builds one).
py::object g_error_type;

std::shared_ptr<const Catalog> catalog() {
    std::lock_guard<std::mutex> lock(g_catalog_mutex);
    if (!g_catalog) throw Error("catalog", "not loaded: import gpusizer, which loads it", ErrorCode::internal);
    return g_catalog;
}

struct Failure {
    std::string code, key, message;
};

[[noreturn]] void raise_error(const Failure& f) {
    if (!g_error_type) throw std::runtime_error(f.message);
    PyErr_SetObject(g_error_type.ptr(), py::make_tuple(f.message, f.code, f.key).ptr());
    throw py::error_already_set();
}

// Runs f without the GIL; its gpusizer::Error (or any C++ exception) is raised as gpusizer.Error
// after the GIL is taken back. f must not touch Python objects.
template <typename F>
std::string released(F&& f) {
    std::string out;
    std::optional<Failure> failure;
    {
        py::gil_scoped_release nogil;
        try {
            out = f();
        } catch (const Error& e) {
            failure = Failure{std::string(to_string(e.code())), e.key(), e.what()};
        } catch (const std::exception& e) {
            failure = Failure{"internal", "", std::string("internal error: ") + e.what()};
        }
    }
    if (failure) raise_error(*failure);
    return out;
}

// A configuration's JSON text, with the model files its gguf / hf_dir / mmproj keys name read
// as the CLI reads them.
Config read_config(const std::string& text) {
    Config c = config_from_json(text);
    cli::read_model_files(c);
    return c;
}

// `gpusizer estimate --json`.
std::string estimate_json(const std::string& config) {
    return released([&] { return report_to_json(estimate(read_config(config), *catalog(), EstimateOptions{true, nullptr})); });
}

std::string fit_json(const std::string& config) {
    return released([&] { return fit_to_json(fit(read_config(config), *catalog())); });
}

// `gpusizer recommend --json`; `constraints` as the "query" object of its answer names them.
std::string recommend_json(const std::string& config, const std::string& constraints) {
    return released([&] {
        RecommendQuery q = recommend_query_from_json(config, constraints);
        cli::read_model_files(q.base);
        return recommend_to_json(recommend(q, *catalog()));
    });
}

// `gpusizer plan --json`; `query` holds the search's fields (mode, top, target_rps, ...).
std::string plan_json(const std::string& config, const std::string& query) {
    return released([&] {
        PlanRequest r = plan_request_from_json(config, query);
        cli::read_model_files(r.base);
        return plan_to_json(plan(r, *catalog()));
    });
}

// `gpusizer simulate --json`; `options` holds the simulation's fields (requests, seed, trace, ...).
std::string simulate_json(const std::string& config, const std::string& options) {
    return released([&] { return simulation_to_json(simulate(read_config(config), *catalog(), simulation_options_from_json(options))); });
}

std::string assumptions_json(const std::string& config) {
    return released([&] { return assumptions_to_json(assumptions(estimate(read_config(config), *catalog()))); });
}

// `gpusizer inspect PATH --json`: a GGUF file, a .safetensors file or index, or a model folder.
std::string inspect_json(const std::string& path) {
    return released([&] {
        std::ostringstream out;
        // A path that begins with '-' is a path, not one of inspect's flags.
        cli::run_inspect({"inspect", !path.empty() && path[0] == '-' ? "./" + path : path, "--json"}, out);
        return out.str();
    });
}

std::string models_json() {
    return released([] { return models_to_json(*catalog()); });
}
std::string gpus_json() {
    return released([] { return gpus_to_json(*catalog()); });
}
std::string link_json(const std::string& config) {
    return released([&] { return link_from_config(config_from_json(config)); });
}
std::string config_from_link_json(const std::string& link) {
    return released([&] { return config_to_json(config_from_link(link)); });
}

void load(const std::string& assets_dir) {
    std::shared_ptr<const Catalog> loaded;
    released([&] {
        loaded = std::make_shared<const Catalog>(load_catalog(assets_dir));
        return std::string();
    });
    std::lock_guard<std::mutex> lock(g_catalog_mutex);
    g_catalog = std::move(loaded);
}

const char* kind_name(KeyKind k) {
    switch (k) {
        case KeyKind::model:
            return "model";
        case KeyKind::choice:
            return "choice";
        case KeyKind::text:
            return "text";
        case KeyKind::integer:
            return "integer";
        case KeyKind::number:
            return "number";
        case KeyKind::boolean:
            return "boolean";
        case KeyKind::list:
            return "list";
    }
    return "text";
}

// The key table (gpusizer/config_keys.hpp) for docstrings and the type stubs: one dict a key.
py::list config_keys_list() {
    py::list out;
    for (const ConfigKey& k : config_keys()) {
        py::dict d;
        d["name"] = k.name;
        d["kind"] = kind_name(k.kind);
        d["link"] = k.link;
        d["flag"] = k.flag;
        d["unit"] = k.unit;
        d["min"] = k.min;
        d["max"] = k.max;
        d["nullable"] = k.unset != KeyUnset::value;
        d["default"] = key_default_doc(k);
        d["allowed"] = key_allowed_doc(k);
        d["choices"] = allowed_values(k.name);   // "" unless a closed set of names
        d["meaning"] = k.meaning;
        out.append(std::move(d));
    }
    return out;
}

}   // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "gpusizer's core (C++): JSON text in, JSON text out; use the gpusizer package instead";
    m.attr("version") = GPUSIZER_VERSION;
    m.def("_set_error_type", [](py::object t) { g_error_type = std::move(t); });
    m.def("load", &load, py::arg("assets_dir"));
    m.def("estimate", &estimate_json, py::arg("config"));
    m.def("fit", &fit_json, py::arg("config"));
    m.def("recommend", &recommend_json, py::arg("config"), py::arg("constraints"));
    m.def("plan", &plan_json, py::arg("config"), py::arg("query"));
    m.def("simulate", &simulate_json, py::arg("config"), py::arg("options"));
    m.def("assumptions", &assumptions_json, py::arg("config"));
    m.def("inspect", &inspect_json, py::arg("path"));
    m.def("models", &models_json);
    m.def("gpus", &gpus_json);
    m.def("link", &link_json, py::arg("config"));
    m.def("config_from_link", &config_from_link_json, py::arg("link"));
    m.def("config_keys", &config_keys_list);
    // The error type outlives the module's objects at exit: drop it before the interpreter goes.
    py::module_::import("atexit").attr("register")(py::cpp_function([] { g_error_type = py::object(); }));
}
