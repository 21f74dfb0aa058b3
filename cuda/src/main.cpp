// main.cpp: gpusizer-cuda-bench, the CUDA benchmark module's executable.
#include <iostream>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cuda_backend.hpp"

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return gpusizer::bench::bench_main(args, gpusizer::bench::make_cuda_backend, argv[0], std::cout, std::cerr);
}
