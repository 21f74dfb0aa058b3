// nccl_loader.hpp: NCCL (libnccl.so.2) loaded at run time with dlopen/dlsym.
//
// NCCL is optional: without it the benchmark skips the all-reduce and says so in the report. The
// few functions used are declared here with the signatures of nccl.h (NCCL 2.x); its opaque
// handles and enums are passed as void* and int, which is how nccl.h's C ABI lays them out.
// Plain C++ (no CUDA header): cudaStream_t travels as void*.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace gpusizer::bench {

class Nccl {
public:
    using Comm = void*;     // ncclComm_t
    using Stream = void*;   // cudaStream_t

    // From nccl.h: ncclFloat32 = 7, ncclSum = 0, ncclSuccess = 0.
    static constexpr int kFloat32 = 7;
    static constexpr int kSum = 0;
    static constexpr int kSuccess = 0;

    // dlopen(library); nullptr with the reason in *why when it cannot be loaded or lacks a function.
    static std::unique_ptr<Nccl> load(const std::string& library, std::string* why);
    // $GPUSIZER_NCCL_LIBRARY, else "libnccl.so.2".
    static std::string default_library();

    ~Nccl();
    Nccl(const Nccl&) = delete;
    Nccl& operator=(const Nccl&) = delete;

    int version() const;                   // ncclGetVersion's code, 0 if it fails
    std::string error_string(int result) const;

    // Thin wrappers; each returns the ncclResult_t.
    int comm_init_all(Comm* comms, int ndev, const int* devices) const;
    int comm_destroy(Comm comm) const;
    int group_start() const;
    int group_end() const;
    int all_reduce(const void* send, void* recv, std::size_t count, int datatype, int op, Comm comm, Stream stream) const;

    struct Api;

private:
    Nccl() = default;
    void* handle_ = nullptr;
    std::unique_ptr<Api> api_;
};

}  // namespace gpusizer::bench
