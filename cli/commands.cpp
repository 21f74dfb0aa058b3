// commands.cpp: the gpusizer command line's commands: load the catalog, run the estimate, fit or
// recommendation, write text or JSON, and map errors to exit codes.
#include <algorithm>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "cli_internal.hpp"
#include "inspect.hpp"

namespace gpusizer::cli {

using nlohmann::json;

namespace {

Catalog load(const Options& o, const char* argv0) {
    return load_catalog(o.assets.empty() ? find_assets_dir(argv0) : o.assets);
}

}  // namespace

int run(const std::vector<std::string>& args, const char* argv0, std::ostream& out, std::ostream& err) {
    try {
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            out << kUsage;
            return args.empty() ? kExitBadInput : kExitOk;
        }
        if (args[0] == "--version") {
            out << "gpusizer 0.1.0\n";
            return kExitOk;
        }
        if (args[0] == "inspect") return run_inspect(args, out);
        if (args[0] == "reconcile") return run_reconcile(args, out);
        const Options o = parse_args(args);
        if (o.command == "models" || o.command == "gpus" || o.command == "links") {
            const Catalog cat = load(o, argv0);
            if (o.command == "models") { if (o.json_out) out << models_to_json(cat) << '\n'; else print_models(out, cat); }
            else if (o.command == "gpus") { if (o.json_out) out << gpus_to_json(cat) << '\n'; else print_gpus(out, cat); }
            else { if (o.json_out) out << links_to_json(cat) << '\n'; else print_links(out, cat); }
            return kExitOk;
        }
        if (o.command == "recommend") {
            Catalog cat = load(o, argv0);
            if (!o.measured.empty()) {
                // Every catalog GPU the report measured gets its measured figures; the others
                // keep their datasheets.
                const MeasuredReport measured = load_measured_report(o.measured);
                std::vector<std::string> ids;
                for (const auto& d : measured.devices)
                    if (!d.catalog_id.empty() && cat.find_gpu(d.catalog_id) &&
                        std::find(ids.begin(), ids.end(), d.catalog_id) == ids.end())
                        ids.push_back(d.catalog_id);
                if (ids.empty())
                    throw Error("measured", o.measured + " measured no catalog GPU: a recommendation has nothing to calibrate");
                for (const auto& id : ids) cat = calibrated_catalog(cat, measured, id, o.measured);
            }
            RecommendQuery q = o.query;
            q.base = config_from_json(o.config.dump());
            const Recommendation rec = recommend(q, cat);
            if (o.json_out) out << recommend_to_json(rec) << '\n'; else print_recommendation(out, rec, cat);
            return kExitOk;
        }
        if (o.command == "formats") {
            print_formats(out);
            return kExitOk;
        }
        if (o.command == "estimate" || o.command == "fit") {
            Catalog cat = load(o, argv0);
            json config_json = o.config;
            if (!o.measured.empty()) {
                // The report's GPU is the default GPU; the datasheet figures of the configured GPU
                // are replaced by what the report measured (gpusizer/measured.hpp).
                const MeasuredReport measured = load_measured_report(o.measured);
                if (!config_json.contains("gpu") || config_json["gpu"].is_null())
                    for (const auto& d : measured.devices)
                        if (!d.catalog_id.empty()) {
                            config_json["gpu"] = d.catalog_id;
                            break;
                        }
                const Config probe = config_from_json(config_json.dump(-1, ' ', false, json::error_handler_t::replace));
                cat = calibrated_catalog(cat, measured, probe.gpu, o.measured);
            }
            const Config config = config_from_json(config_json.dump(-1, ' ', false, json::error_handler_t::replace));
            if (o.command == "estimate") {
                Report r = estimate(config, cat);
                r.interconnect.alternative = alternative_link(config, cat);
                if (o.json_out) {
                    if (o.show_assumptions) {
                        json j = json::parse(report_to_json(r));
                        j["assumptions"] = json::parse(assumptions_to_json(assumptions(r)));
                        out << j.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
                    } else {
                        out << report_to_json(r) << '\n';
                    }
                } else {
                    print_report(out, r);
                    // The link of the configuration as given: defaults stay defaults ("auto" stays auto).
                    out << "\n  share link: " << link_from_config(config) << '\n';
                    if (o.show_assumptions) print_assumptions(out, assumptions(r));
                }
                return (o.check && !r.fits) ? kExitDoesNotFit : kExitOk;
            }
            const FitReport f = fit(config, cat);
            if (o.json_out) out << fit_to_json(f) << '\n'; else print_fit(out, f);
            return kExitOk;
        }
        throw Error(o.command, "unknown command; commands: estimate, fit, recommend, models, gpus, links, formats, inspect, reconcile (see gpusizer --help)");
    } catch (const Error& e) {
        err << "gpusizer: error: " << e.what() << '\n';
        return kExitBadInput;
    } catch (const std::exception& e) {
        err << "gpusizer: internal error: " << e.what() << '\n';
        return kExitInternal;
    }
}

}  // namespace gpusizer::cli
