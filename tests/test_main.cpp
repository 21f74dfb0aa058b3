// test_main.cpp: Catch2's main. In the core's tests the core's messages are phrased for the
// CLI, as `gpusizer` phrases them (cli::cli_phrasing): tests that call the core directly read
// the CLI's messages. The app's tests (GPUSIZER_TEST_UI) leave the phrasing to the App, which
// sets its platform's while it lives.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#ifndef GPUSIZER_TEST_UI
#include "cli.hpp"
#endif

int main(int argc, char* argv[]) {
#ifndef GPUSIZER_TEST_UI
    gpusizer::set_phrasing(gpusizer::cli::cli_phrasing());
#endif
    return Catch::Session().run(argc, argv);
}
