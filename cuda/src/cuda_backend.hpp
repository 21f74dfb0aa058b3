// cuda_backend.hpp: the real Backend (cuda_backend.cu): CUDA runtime (linked statically, so the
// program starts and says so on a machine without a driver), cuBLASLt for GEMMs, NVML and NCCL
// loaded at run time. Built only where CMake finds a CUDA compiler.
#pragma once

#include <memory>

#include "backend.hpp"

namespace gpusizer::bench {

std::unique_ptr<Backend> make_cuda_backend();

}  // namespace gpusizer::bench
