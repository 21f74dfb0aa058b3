// cli_support.hpp: the gpusizer command line run in-process, for the tests that drive it.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace gpusizer::test {

struct CliResult {
    int code;
    std::string out, err;
};

// Runs `gpusizer ARGS`, with the source tree's catalog (--assets) unless `assets` is false.
inline CliResult run_cli(std::vector<std::string> args, bool assets = true) {
    if (assets) {
        args.push_back("--assets");
        args.push_back(GPUSIZER_TEST_ASSETS);
    }
    std::ostringstream out, err;
    const int code = cli::run(args, "gpusizer", out, err);
    return {code, out.str(), err.str()};
}

// Lines in a program's output (its newlines).
inline int line_count(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

}  // namespace gpusizer::test
