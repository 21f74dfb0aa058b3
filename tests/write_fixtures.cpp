// write_fixtures.cpp: writes the GGUF fixtures of tests/model_fixtures.cpp into a folder, for
// the cross-check against @huggingface/gguf (tests/gguf_crosscheck.mjs), or the header-only
// checkpoints of the accuracy set (tests/validation/checkpoints).
//   gpusizer_write_fixtures DIR
//   gpusizer_write_fixtures --checkpoints tests/validation/checkpoints
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "model_fixtures.hpp"

int main(int argc, char** argv) {
    const bool checkpoints = argc == 3 && std::string(argv[1]) == "--checkpoints";
    if (argc != 2 && !checkpoints) {
        std::fprintf(stderr, "usage: gpusizer_write_fixtures DIR | --checkpoints DIR\n");
        return 2;
    }
    try {
        const std::filesystem::path dir = argv[argc - 1];
        if (checkpoints) {
            for (const auto& [name, bytes] : gpusizer::fixtures::validation_checkpoints()) {
                std::filesystem::create_directories((dir / name).parent_path());
                gpusizer::fixtures::write_file((dir / name).string(), bytes);
            }
            return 0;
        }
        std::filesystem::create_directories(dir);
        gpusizer::fixtures::write_crosscheck_fixtures(dir.string());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpusizer_write_fixtures: %s\n", e.what());
        return 1;
    }
    return 0;
}
