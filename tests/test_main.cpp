// test_main.cpp: Catch2's main. The core's messages are phrased for the CLI, as `gpusizer`
// phrases them (cli::cli_phrasing): tests that call the core directly read the CLI's messages.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "cli.hpp"

int main(int argc, char* argv[]) {
    gpusizer::set_phrasing(gpusizer::cli::cli_phrasing());
    return Catch::Session().run(argc, argv);
}
