// cli.hpp: the `gpusizer` command line, as a function that tests can call.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "gpusizer/phrasing.hpp"

namespace gpusizer::cli {

// Exit codes (documented in `gpusizer --help` and README.md).
constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;       // a flag, key or value is wrong: one line names it
constexpr int kExitDoesNotFit = 3;     // only with --check: the configuration does not fit
constexpr int kExitInternal = 1;         // a file cannot be read (ErrorCode::unreadable), or an internal error

// Where the core's messages point a CLI user: its commands and flags (run() sets it).
Phrasing cli_phrasing();

// Runs the CLI with `args` (without the program name). `argv0` locates the assets.
int run(const std::vector<std::string>& args, const char* argv0, std::ostream& out, std::ostream& err);

}  // namespace gpusizer::cli
