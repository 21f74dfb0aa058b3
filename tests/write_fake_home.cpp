// write_fake_home.cpp: writes the fake home folder of fake_home.cpp (the Local models scan's
// test tree) for the desktop app's screenshot tests, replacing any earlier one.
//   gpusizer_write_fake_home DIR
#include <cstdio>
#include <exception>
#include <filesystem>

#include "fake_home.hpp"

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    if (argc != 2) {
        std::fprintf(stderr, "usage: gpusizer_write_fake_home DIR\n");
        return 2;
    }
    try {
        std::error_code ec;
        fs::permissions(fs::path(argv[1]) / ".lmstudio" / "models" / "locked", fs::perms::owner_all, ec);   // the last run's
        fs::remove_all(argv[1]);
        fs::create_directories(argv[1]);
        gpusizer::fixtures::write_fake_home(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpusizer_write_fake_home: %s\n", e.what());
        return 1;
    }
    return 0;
}
