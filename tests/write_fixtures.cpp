// write_fixtures.cpp: writes the GGUF fixtures of tests/model_fixtures.cpp into a folder, for
// the cross-check against @huggingface/gguf (tests/gguf_crosscheck.mjs).
//   gpusizer_write_fixtures DIR
#include <cstdio>
#include <exception>
#include <filesystem>

#include "model_fixtures.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: gpusizer_write_fixtures DIR\n");
        return 2;
    }
    try {
        std::filesystem::create_directories(argv[1]);
        gpusizer::fixtures::write_crosscheck_fixtures(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpusizer_write_fixtures: %s\n", e.what());
        return 1;
    }
    return 0;
}
