// cli_internal.hpp (internal to cli/): what the CLI's files share. args.cpp turns flags into an
// Options, print.cpp renders reports as text, commands.cpp runs a command.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/gpusizer.hpp"

namespace gpusizer::cli {

// `gpusizer --help` (args.cpp).
std::string usage();

// The command line, read (args.cpp).
struct Options {
    std::string command;
    nlohmann::json config = nlohmann::json::object();
    bool json_out = false;
    bool show_assumptions = false;
    bool check = false;
    std::string emit;   // estimate --emit ENGINE: that engine's launch command alone (gpusizer/launch.hpp)
    bool markdown = false;   // keys --markdown: the key reference of docs/config.md
    bool gpu_fields = false;   // keys --gpu: the custom GPU's fields instead (with --markdown, docs/config.md's table of them)
    std::string dict;        // keys --dict json|link: a libFuzzer dictionary of the keys
    std::string assets;
    std::string measured;   // --measured: a gpusizer-cuda-bench report
    RecommendQuery query;     // recommend: the constraints (query.base is filled from `config`)
};

// Reads the flags after the command; throws Error naming the flag or key.
Options parse_args(const std::vector<std::string>& args);

// `gpusizer plan ...` (plan.cpp): the layout search; args[0] is "plan".
int run_plan(const std::vector<std::string>& args, const char* argv0, std::ostream& out);

// `gpusizer simulate ...` (simulate.cpp): the request-level simulation; args[0] is "simulate".
int run_simulate(const std::vector<std::string>& args, const char* argv0, std::ostream& out);

// `gpusizer mcp` (mcp.cpp): a Model Context Protocol server, one JSON-RPC message per line of
// `in`, each response a line of `out` (flushed), until the end of `in`; logs go to `err`. The
// catalog is loaded once, from `assets` or found from argv0. Returns 0, or 1 when the catalog
// cannot be loaded.
int run_mcp(std::istream& in, std::ostream& out, std::ostream& err, const char* argv0, const std::string& assets = "");

// Text renderers (print.cpp).
void print_report(std::ostream& out, const Report& r);
void print_assumptions(std::ostream& out, const std::vector<Assumption>& items);
void print_fit(std::ostream& out, const FitReport& f);
void print_models(std::ostream& out, const Catalog& cat);
void print_gpus(std::ostream& out, const Catalog& cat);
void print_links(std::ostream& out, const Catalog& cat);
void print_recommendation(std::ostream& out, const Recommendation& rec, const Catalog& cat);
void print_formats(std::ostream& out);

}  // namespace gpusizer::cli
