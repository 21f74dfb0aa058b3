// validate.cpp: runs the core on every row of the accuracy set (accuracy.json) and reports the
// error against each published, measured or derived figure.
//
//   gpusizer_validate [--set accuracy.json] [--check] [--markdown docs/accuracy.md]
//
// --check exits 1 when a row is outside its tolerance without a stated known difference (the
// ctest runs this); --markdown writes the published table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/gpusizer.hpp"
#include "../../core/src/interconnect.hpp"   // nccl-tests rows: one collective on a fabric

using nlohmann::json;
using namespace gpusizer;

namespace {

struct Outcome {
    std::string id, kind, quantity, unit, source_title, source_url, measured_or_derived, known_difference, note;
    double reference = 0, predicted = 0, tolerance = 0, error = 0;
    enum class Status { ok, outside, known, not_modelled, failed } status = Status::ok;
};

double unit_scale(const std::string& u) {
    if (u == "GiB") return 1024.0 * 1024.0 * 1024.0;
    if (u == "MiB") return 1024.0 * 1024.0;
    if (u == "KiB") return 1024.0;
    if (u == "GB") return 1e9;
    if (u == "MB") return 1e6;
    if (u == "GB/s") return 1e9;
    if (u == "kW") return 1e3;
    if (u == "ms") return 1e-3;
    return 1.0;   // bytes, count, tokens, tokens/s, fraction, bool, W, J
}

// A value at a dotted path of a JSON object ("speed.decode_tokens_per_s"), or NaN.
double at_path(const json& j, const std::string& path) {
    const json* cur = &j;
    std::size_t pos = 0;
    while (pos <= path.size()) {
        const std::size_t dot = path.find('.', pos);
        const std::string key = path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
        if (!cur->is_object() || !cur->contains(key)) return std::nan("");
        cur = &(*cur)[key];
        if (dot == std::string::npos) break;
        pos = dot + 1;
    }
    if (cur->is_boolean()) return cur->get<bool>() ? 1.0 : 0.0;
    return cur->is_number() ? cur->get<double>() : std::nan("");
}

// nccl-tests all_reduce_perf on `config.gpus` GPUs (consecutive, over the configuration's links)
// with a buffer of `bytes`: busbw = bytes / t x 2(n-1)/n, t from the algorithm NCCL would pick.
double nccl_allreduce_busbw(const Config& config, const Catalog& catalog, double bytes) {
    const Link* intra = config.link.empty() ? nullptr : &catalog.link(config.link);
    const Link* inter = config.inter_node_link.empty() ? nullptr : &catalog.link(config.inter_node_link);
    const detail::Fabric f = detail::make_fabric(catalog.gpu(config.gpu), catalog, intra, inter);
    const int n = config.gpus;
    const double t = detail::allreduce_seconds(detail::span_of(f, n, 1), bytes);
    return t > 0 ? bytes / t * 2.0 * (n - 1) / n : std::nan("");
}

// Rows of models read from files (`gguf`, `hf_dir`) name folders beside the accuracy set
// (checkpoints/NAME): config.json and a checkpoint's header without its tensor data, read as the
// browser reads a file's first bytes (MemorySource::first_bytes: the data's end is not checked).
void load_row_files(Config& c, const std::string& root) {
    if (c.gguf.empty() && c.hf_dir.empty()) return;
    if (!c.gguf.empty()) c.gguf = root + "/" + c.gguf;
    if (!c.hf_dir.empty()) c.hf_dir = root + "/" + c.hf_dir;
    load_model_files(c, [](const std::string& path) -> std::unique_ptr<ByteSource> {
        std::ifstream in(path, std::ios::binary);
        if (!in) return nullptr;
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto ends = [&](const std::string& ext) {
            return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
        };
        if (ends(".safetensors") || ends(".gguf")) return std::make_unique<MemorySource>(MemorySource::first_bytes(path, bytes));
        return std::make_unique<MemorySource>(path, bytes);
    });
}

// The predicted value of `quantity` in base units (bytes, counts, tokens/s, ...).
// `simulation`: a row's request-level simulation options (simulate.hpp, as gs.simulate takes
// them), for the simulation.* quantities.
double predict(const std::string& q, const Config& config, const Catalog& catalog, double message_bytes, const json& simulation) {
    if (q == "nccl_allreduce_busbw_gb_per_s") return nccl_allreduce_busbw(config, catalog, message_bytes);
    // Request-level figures: the row's run simulated (its options: the arrivals, the client's
    // concurrency, the seed), read from the simulation's JSON by path.
    if (q.rfind("simulation.", 0) == 0) {
        const SimulationReport s = simulate(config, catalog, simulation_options_from_json(simulation.is_object() ? simulation.dump() : ""));
        return at_path(json::parse(simulation_to_json(s)), q);
    }
    if (q == "max_context") return double(fit(config, catalog).max_context);
    const Report r = estimate(config, catalog);
    const MemoryParts& m = r.per_gpu;
    if (q == "params") return r.params;
    // Every stored parameter of the checkpoint: the text stack (params) plus what is counted
    // apart (vision / audio towers and projectors, MTP layers, per-layer embedding tables), as a
    // Hub safetensors index's total_size counts them.
    if (q == "checkpoint_params") {
        const ParamsByPart& p = r.params_by_part;
        return p.text + p.vision + p.audio + p.mtp + p.embeddings;
    }
    if (q == "active_params") return r.active_params;
    if (q == "trainable_params") return r.trainable_params;
    if (q == "kv_bytes_per_token") return r.kv_bytes_per_token;
    if (q == "weights_bytes") return r.weights_bits_per_param * r.params / 8.0;
    if (q == "per_gpu.weights") return m.weights;
    if (q == "per_gpu.kv_cache") return m.kv_cache;
    if (q == "per_gpu.activations") return m.activations;
    if (q == "per_gpu.total") return m.total();
    if (q == "model_states_per_gpu") return m.weights + m.gradients + m.optimizer;
    if (q == "torch_max_allocated") return m.total() - m.overhead;   // what torch.cuda.max_memory_allocated() sees
    // What torch.cuda.max_memory_reserved() sees: everything in PyTorch's caching allocator, its
    // slack included, but the CUDA context and NCCL's communicator buffers.
    if (q == "torch_max_reserved") return m.total() - r.overhead_detail.cuda_context - r.overhead_detail.communicator_buffers;
    if (q == "activations_per_layer") return r.activations_per_layer;
    if (q == "fits") return r.fits ? 1.0 : 0.0;
    if (q == "kv_cache_total") {
        Config whole = config;   // the cache of all GPUs together: the same workload, unsplit
        whole.gpus = 1;
        whole.tp = whole.pp = whole.dp = whole.ep = 0;
        return estimate(whole, catalog).per_gpu.kv_cache;
    }
    // GPU-hours per trillion tokens trained: gpus x 10^12 / (tokens per second) / 3600.
    if (q == "train_gpu_hours_per_trillion_tokens")
        return r.speed.train_tokens_per_s > 0 ? r.config.gpus * 1e12 / r.speed.train_tokens_per_s / 3600.0 : std::nan("");
    // The same over the run's wall time (goodput included: interruptions, checkpoints,
    // evaluations, the batch ramp): gpus x speed.train_wall_time_s / 3600 per 10^12 of train_tokens.
    if (q == "train_wall_gpu_hours_per_trillion_tokens")
        return r.speed.train_wall_time_s > 0 && r.config.train_tokens > 0
                   ? r.config.gpus * r.speed.train_wall_time_s / 3600.0 / (r.config.train_tokens / 1e12)
                   : std::nan("");
    // Power: GPU energy per generated token under a serving load (the GPUs only, as NVML's energy
    // counter sees them: no host, no PUE) = serving.gpu_w / serving.output_tokens_per_s, J.
    if (q == "serving_gpu_joules_per_output_token")
        return r.serving.output_tokens_per_s > 0 ? r.serving.gpu_w / r.serving.output_tokens_per_s : std::nan("");
    // One training node's wall power at the step's draw: power.train_wall_w (all nodes') per node, W.
    if (q == "train_node_w_at_draw") {
        const double nodes = std::max(1, r.interconnect.nodes);
        return r.power.train_wall_w > 0 ? r.power.train_wall_w / nodes : std::nan("");
    }
    // Speed and interconnect quantities live in the report's speed / interconnect objects.
    std::string path = q;
    if (q == "decode_tokens_per_s" || q == "prefill_tokens_per_s") path = "speed." + q;
    else if (q == "max_output_throughput_tokens_per_s") path = "speed.decode_throughput_tokens_per_s";
    else if (q == "train_mfu") path = "speed.effective_mfu";
    else if (q == "train_hfu") path = "speed.hfu";
    else if (q == "busbw_gb_per_s") path = "interconnect.allreduce_busbw_bytes_per_s";
    // Anything else is read from the report JSON by its path (e.g. speed.ttft_s).
    const json j = json::parse(report_to_json(r));
    return at_path(j, path);
}

std::string fmt(double v, const std::string& unit) {
    char buf[64];
    if (!std::isfinite(v)) return "-";
    if (unit == "bool") return v > 0.5 ? "fits" : "does not fit";
    if (std::fabs(v) >= 1e5 || (std::fabs(v) > 0 && std::fabs(v) < 1e-2)) std::snprintf(buf, sizeof buf, "%.4g", v);
    else std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    if (unit != "count" && unit != "bool" && unit != "fraction") s += " " + unit;
    return s;
}

std::string md_escape(std::string s) {
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '|') s.replace(i++, 1, "\\|");
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    std::string set_path = GPUSIZER_VALIDATION_SET, markdown;
    bool check = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--check") check = true;
        else if (a == "--markdown" && i + 1 < argc) markdown = argv[++i];
        else if (a == "--set" && i + 1 < argc) set_path = argv[++i];
        else {
            std::fprintf(stderr, "usage: gpusizer_validate [--set accuracy.json] [--check] [--markdown FILE.md]\n");
            return 2;
        }
    }
    json set;
    try {
        std::ifstream in(set_path);
        in >> set;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpusizer_validate: %s: %s\n", set_path.c_str(), e.what());
        return 2;
    }
    const Catalog catalog = load_catalog(GPUSIZER_VALIDATION_ASSETS);

    std::vector<Outcome> rows;
    for (const json& r : set["rows"]) {
        Outcome o;
        o.id = r.value("id", "?");
        o.kind = r.value("kind", "");
        o.quantity = r.value("quantity", "");
        o.unit = r.value("unit", "");
        o.tolerance = r.value("tolerance", 0.0);
        o.measured_or_derived = r.value("measured_or_derived", "");
        o.known_difference = r.value("known_difference", "");
        o.source_title = r["source"].value("title", "");
        o.source_url = r["source"].value("url", "");
        o.reference = r.value("value", 0.0);
        try {
            Config c = config_from_json(r["config"].dump());
            const std::size_t slash = set_path.find_last_of("/\\");
            load_row_files(c, slash == std::string::npos ? std::string(".") : set_path.substr(0, slash));
            const double p = predict(o.quantity, c, catalog, r.value("message_bytes", 0.0), r.value("simulation", json()));
            if (!std::isfinite(p)) {
                o.status = Outcome::Status::not_modelled;
            } else {
                o.predicted = p / unit_scale(o.unit);
                o.error = o.unit == "bool" ? (o.predicted == o.reference ? 0.0 : 1.0)
                                           : (o.reference != 0 ? o.predicted / o.reference - 1.0 : o.predicted);
                const bool within = std::fabs(o.error) <= o.tolerance + 1e-12;
                o.status = within ? Outcome::Status::ok : (o.known_difference.empty() ? Outcome::Status::outside : Outcome::Status::known);
            }
        } catch (const Error& e) {
            o.status = Outcome::Status::failed;
            o.note = e.what();
        }
        rows.push_back(o);
    }

    int ok = 0, outside = 0, known = 0, not_modelled = 0, failed = 0;
    std::vector<double> abs_err;
    for (const Outcome& o : rows) {
        const char* tag = "ok";
        switch (o.status) {
            case Outcome::Status::ok: ++ok; tag = "ok"; break;
            case Outcome::Status::outside: ++outside; tag = "OUTSIDE"; break;
            case Outcome::Status::known: ++known; tag = "known difference"; break;
            case Outcome::Status::not_modelled: ++not_modelled; tag = "not modelled"; break;
            case Outcome::Status::failed: ++failed; tag = "FAILED"; break;
        }
        if (o.status == Outcome::Status::ok || o.status == Outcome::Status::outside || o.status == Outcome::Status::known)
            abs_err.push_back(std::fabs(o.error));
        std::printf("%-52s %-24s ref %-14s pred %-14s err %+8.2f%% tol %5.1f%%  %s%s%s\n", o.id.c_str(), o.quantity.c_str(),
                    fmt(o.reference, o.unit).c_str(), fmt(o.predicted, o.unit).c_str(), o.error * 100, o.tolerance * 100, tag,
                    o.note.empty() ? "" : ": ", o.note.c_str());
    }
    std::sort(abs_err.begin(), abs_err.end());
    const double median = abs_err.empty() ? 0.0 : abs_err[abs_err.size() / 2];
    std::printf("\n%zu rows: %d within tolerance, %d known differences, %d outside, %d not modelled, %d failed; median |error| %.2f%%\n",
                rows.size(), ok, known, outside, not_modelled, failed, median * 100);

    if (!markdown.empty()) {
        std::ofstream md(markdown);
        md << "# Accuracy\n\n"
           << "Generated by `build/native/gpusizer_validate --markdown docs/accuracy.md` from `tests/validation/accuracy.json`:\n"
           << "figures from sources outside this project (papers, framework documentation and printouts, runtime logs,\n"
           << "file sizes, benchmark tables), each with the configuration it applies to and a tolerance that says how exact\n"
           << "the figure is. The test suite runs the same command with `--check`: a row outside its tolerance fails the\n"
           << "build unless the row states a known difference.\n\n";
        char summary[256];
        std::snprintf(summary, sizeof summary,
                      "**%zu rows: %d within tolerance, %d known differences, %d outside, %d not modelled yet. Median |error| over the "
                      "rows with a prediction: %.2f%%.**\n\n",
                      rows.size(), ok, known, outside, not_modelled, median * 100);
        md << summary;
        md << "| row | quantity | reference | gpusizer | error | tolerance | status | source |\n|---|---|---|---|---|---|---|---|\n";
        for (const Outcome& o : rows) {
            char err[32], tol[32];
            std::snprintf(err, sizeof err, "%+.2f%%", o.error * 100);
            std::snprintf(tol, sizeof tol, "%.1f%%", o.tolerance * 100);
            std::string status;
            switch (o.status) {
                case Outcome::Status::ok: status = "within"; break;
                case Outcome::Status::outside: status = "**outside**"; break;
                case Outcome::Status::known: status = "known difference: " + o.known_difference; break;
                case Outcome::Status::not_modelled: status = "not modelled yet"; break;
                case Outcome::Status::failed: status = "cannot run: " + o.note; break;
            }
            const bool have = o.status != Outcome::Status::not_modelled && o.status != Outcome::Status::failed;
            md << "| " << o.id << " | " << o.quantity << " | " << fmt(o.reference, o.unit) << " | "
               << (have ? fmt(o.predicted, o.unit) : "-") << " | " << (have ? err : "-") << " | " << tol << " | " << md_escape(status)
               << " | " << md_escape(o.source_title) << (o.source_url.empty() ? "" : " (" + md_escape(o.source_url) + ")") << " ("
               << o.measured_or_derived << ") |\n";
        }
    }
    if (check && (outside > 0 || failed > 0)) return 1;
    return 0;
}
