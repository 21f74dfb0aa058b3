// main.cpp: the gpusizer command-line tool.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return gpusizer::cli::run(args, argv[0], std::cout, std::cerr);
}
