// print.cpp: the gpusizer command line's human-readable output (the report's own text is the
// core's report_to_text, core/src/report_text.cpp).
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>

#include "cli_internal.hpp"
#include "gpusizer/uncertainty.hpp"
#include "gpusizer/format.hpp"

namespace gpusizer::cli {

// ---------------------------------------------------------------------------------------------
// [SECTION] Human-readable output
// ---------------------------------------------------------------------------------------------

// The report as text: the core writes it (gpusizer/io.hpp report_to_text), for the app's "Copy
// as text" too.
void print_report(std::ostream& out, const Report& r) { out << report_to_text(r); }

void print_assumptions(std::ostream& out, const std::vector<Assumption>& items) {
    out << "\n  assumptions:\n";
    for (const auto& a : items) out << "  - " << a.name << ": " << a.value << "\n      source: " << a.source << '\n';
}

void print_fit(std::ostream& out, const FitReport& f) {
    print_report(out, f.base);
    out << "\n  longest context at batch " << f.base.config.batch << ": " << format_int(double(f.max_context)) << " tokens";
    // Memory is not the only limit: past its trained maximum a model needs RoPE scaling to stay useful.
    if (f.model_max_context > 0 && f.max_context > f.model_max_context)
        out << " of memory; the model is trained to " << format_int(double(f.model_max_context));
    out << '\n';
    out << "  largest batch at context " << format_int(double(f.base.config.context)) << ": " << format_int(double(f.max_batch)) << '\n';
    out << "  best weights that fit: " << (f.best_weights.empty() ? "none" : f.best_weights);
    // An automatic runtime follows the format: say when the best format runs on another engine.
    if (!f.best_weights.empty() && f.best_weights_runtime != to_string(f.base.config.runtime))
        out << " (on " << f.best_weights_runtime << "; this configuration runs " << to_string(f.base.config.runtime) << ")";
    out << '\n';
    out << "  best KV cache that fits: " << (f.best_kv_cache.empty() ? "none" : f.best_kv_cache) << "\n\n";
    out << "  " << std::left << std::setw(10) << "weights" << std::right << std::setw(12) << "per GPU" << std::setw(8) << "fits"
        << std::setw(16) << "max context" << '\n';
    for (const auto& row : f.by_weights)
        out << "  " << std::left << std::setw(10) << row.format << std::right << std::setw(12) << format_gib(row.total)
            << std::setw(8) << (row.fits ? "yes" : "no") << std::setw(16) << format_int(double(row.max_context)) << '\n';
    out << '\n' << "  " << std::left << std::setw(10) << "KV cache" << std::right << std::setw(12) << "per GPU" << std::setw(8)
        << "fits" << std::setw(16) << "max context" << '\n';
    for (const auto& row : f.by_kv_cache)
        out << "  " << std::left << std::setw(10) << row.format << std::right << std::setw(12) << format_gib(row.total)
            << std::setw(8) << (row.fits ? "yes" : "no") << std::setw(16) << format_int(double(row.max_context)) << '\n';
}

void print_models(std::ostream& out, const Catalog& cat) {
    out << std::left << std::setw(32) << "id" << std::right << std::setw(11) << "params" << std::setw(11) << "active"
        << std::setw(10) << "context" << "  name\n";
    for (const auto& m : cat.models) {
        const ParamCounts pc = count_params(m.arch);
        out << std::left << std::setw(32) << m.arch.id << std::right << std::setw(11) << format_count(pc.total()) << std::setw(11)
            << format_count(pc.active(m.arch)) << std::setw(10) << format_int(m.context_trained) << "  " << m.arch.name << '\n';
    }
}

void print_gpus(std::ostream& out, const Catalog& cat) {
    out << std::left << std::setw(20) << "id" << std::right << std::setw(11) << "memory" << std::setw(10) << "GB/s"
        << std::setw(11) << "bf16 TF" << std::setw(8) << "W" << std::setw(10) << "USD" << "  name\n";
    for (const auto& g : cat.gpus) {
        std::ostringstream price;
        if (g.price_usd) price << std::fixed << std::setprecision(0) << *g.price_usd; else price << "-";
        std::ostringstream bf16;
        bf16 << std::fixed << std::setprecision(1)
             << (g.tensor_tflops_dense.bf16 > 0 ? g.tensor_tflops_dense.bf16 : g.tensor_tflops_dense.fp16);
        out << std::left << std::setw(20) << g.id << std::right << std::setw(11) << format_gib(g.capacity_bytes(), 1) << std::setw(10)
            << g.memory_bandwidth_gb_per_s << std::setw(11) << bf16.str() << std::setw(8)
            << (g.tdp_w > 0 ? std::to_string(int(g.tdp_w)) : "-") << std::setw(10) << price.str() << "  " << g.name << '\n';
    }
}

void print_links(std::ostream& out, const Catalog& cat) {
    out << std::left << std::setw(16) << "id" << std::setw(12) << "scope" << std::right << std::setw(10) << "GB/s/dir" << std::setw(10)
        << "bidir" << std::setw(9) << "lat us" << std::setw(8) << "GPUs" << "  name\n";
    for (const auto& l : cat.links)
        out << std::left << std::setw(16) << l.id << std::setw(12) << to_string(l.scope) << std::right << std::setw(10)
            << l.bandwidth_gb_per_s << std::setw(10) << l.bidirectional_gb_per_s << std::setw(9) << l.latency_us << std::setw(8)
            << (l.scope == LinkScope::inter_node ? std::string("-") : std::to_string(l.gpus_per_node)) << "  " << l.name << '\n';
}

void print_recommendation(std::ostream& out, const Recommendation& rec, const Catalog& cat) {
    const std::string& model = rec.query.base.model.custom ? std::string("custom model") : cat.model(rec.query.base.model.id).arch.name;
    out << model << ", " << to_string(rec.query.base.mode) << ", weights " << rec.weights << ", GPU counts 1-" << rec.query.max_gpus
        << ", sorted by " << to_string(rec.query.sort) << '\n';
    const char* metric = rec.training ? "train tok/s" : "tok/s";
    // Costs per million tokens (training: per run): owning the machines, renting them.
    const char* per = rec.training ? "/run" : "/M tok";
    auto money = [](bool known, double v) {
        return known ? "$" + (v >= 100 ? format_int(std::round(v)) : format_fixed(v, v >= 1 ? 2 : 3)) : std::string("?");
    };
    out << '\n'
        << "  " << std::left << std::setw(20) << "gpu" << std::right << std::setw(5) << "n" << std::setw(12) << "USD" << std::setw(13)
        << metric << std::setw(10) << "wall" << std::setw(11) << (std::string("own") + per) << std::setw(12) << (std::string("rent") + per)
        << std::setw(12) << "per GPU"
        << "  link\n";
    for (const auto& r : rec.recommended)
        out << "  " << std::left << std::setw(20) << r.gpu << std::right << std::setw(5) << r.gpus << std::setw(12)
            << (r.price_known ? format_int(r.price_usd) : std::string("?")) << std::setw(13) << format_rate(r.tokens_per_s) << std::setw(10)
            << format_watts(r.wall_w) << std::setw(11) << money(r.own_known, r.own_usd) << std::setw(12) << money(r.rent_known, r.rent_usd)
            << std::setw(12) << format_gib(r.per_gpu_total, 1) << "  " << (r.link.empty() ? "-" : r.link) << '\n';
    if (rec.recommended.empty()) out << "  (no configuration meets every constraint)\n";
    if (!rec.rejected.empty()) {
        out << "\n  not recommended:\n";
        int other_classes = 0;
        for (const auto& r : rec.rejected) {
            if (r.other_segment) {
                ++other_classes;   // listed in --json; one line here
                continue;
            }
            out << "  - " << std::left << std::setw(18) << r.gpu << std::right << " x" << r.gpus << ": ";
            for (std::size_t i = 0; i < r.reasons.size(); ++i) out << (i ? "; " : "") << r.reasons[i];
            out << '\n';
        }
        if (other_classes > 0) out << "  - " << other_classes << " GPUs of other classes than --segment asks (listed with --json)\n";
    }
    // The configuration's custom GPU is ranked among the catalog's under the id "custom".
    for (const auto* rows : {&rec.recommended, &rec.rejected})
        for (const auto& r : *rows)
            if (r.gpu == kCustomGpuId) {
                out << "\n  custom = " << r.gpu_name << " (the configuration's custom GPU)\n";
                return;
            }
}

void print_formats(std::ostream& out) {
    out << "weights:\n";
    for (const auto& f : weight_formats()) out << "  " << std::left << std::setw(8) << f.id << "  " << f.label << '\n';
    out << "kv_cache:\n";
    for (const auto& k : kv_formats())
        out << "  " << std::left << std::setw(8) << k.id << "  " << k.bytes << " bytes per value"
            << (k.llama_cpp_only ? " (llama.cpp)" : "") << '\n';
}

}  // namespace gpusizer::cli
