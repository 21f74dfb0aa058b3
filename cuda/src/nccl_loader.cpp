// nccl_loader.cpp: NCCL through dlopen/dlsym (nccl_loader.hpp says why).
#include "nccl_loader.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace gpusizer::bench {

// nccl.h (NCCL 2.x) signatures, with ncclComm_t and cudaStream_t as void* and the enums as int.
struct Nccl::Api {
    int (*get_version)(int* version) = nullptr;
    const char* (*get_error_string)(int result) = nullptr;
    int (*comm_init_all)(void** comms, int ndev, const int* devlist) = nullptr;
    int (*comm_destroy)(void* comm) = nullptr;
    int (*group_start)() = nullptr;
    int (*group_end)() = nullptr;
    int (*all_reduce)(const void* sendbuff, void* recvbuff, std::size_t count, int datatype, int op, void* comm,
                      void* stream) = nullptr;
};

namespace {

template <typename Fn>
bool find(void* handle, const char* name, Fn* out) {
    *out = reinterpret_cast<Fn>(dlsym(handle, name));
    return *out != nullptr;
}

}  // namespace

std::string Nccl::default_library() {
    if (const char* env = std::getenv("GPUSIZER_NCCL_LIBRARY"); env && *env) return env;
    return "libnccl.so.2";
}

std::unique_ptr<Nccl> Nccl::load(const std::string& library, std::string* why) {
    void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = dlerror();
        if (why) *why = library + " not loaded: " + (e ? e : "dlopen failed");
        return nullptr;
    }
    auto api = std::make_unique<Api>();
    const char* missing = nullptr;
    if (!find(h, "ncclGetVersion", &api->get_version)) missing = "ncclGetVersion";
    else if (!find(h, "ncclGetErrorString", &api->get_error_string)) missing = "ncclGetErrorString";
    else if (!find(h, "ncclCommInitAll", &api->comm_init_all)) missing = "ncclCommInitAll";
    else if (!find(h, "ncclCommDestroy", &api->comm_destroy)) missing = "ncclCommDestroy";
    else if (!find(h, "ncclGroupStart", &api->group_start)) missing = "ncclGroupStart";
    else if (!find(h, "ncclGroupEnd", &api->group_end)) missing = "ncclGroupEnd";
    else if (!find(h, "ncclAllReduce", &api->all_reduce)) missing = "ncclAllReduce";
    if (missing) {
        dlclose(h);
        if (why) *why = library + " lacks " + missing + ": not a usable NCCL";
        return nullptr;
    }
    std::unique_ptr<Nccl> n(new Nccl());
    n->handle_ = h;
    n->api_ = std::move(api);
    return n;
}

Nccl::~Nccl() {
    if (handle_) dlclose(handle_);
}

int Nccl::version() const {
    int v = 0;
    return api_->get_version(&v) == kSuccess ? v : 0;
}

std::string Nccl::error_string(int result) const {
    const char* s = api_->get_error_string(result);
    return std::string(s ? s : "NCCL error") + " (" + std::to_string(result) + ")";
}

int Nccl::comm_init_all(Comm* comms, int ndev, const int* devices) const { return api_->comm_init_all(comms, ndev, devices); }
int Nccl::comm_destroy(Comm comm) const { return api_->comm_destroy(comm); }
int Nccl::group_start() const { return api_->group_start(); }
int Nccl::group_end() const { return api_->group_end(); }
int Nccl::all_reduce(const void* send, void* recv, std::size_t count, int datatype, int op, Comm comm, Stream stream) const {
    return api_->all_reduce(send, recv, count, datatype, op, comm, stream);
}

}  // namespace gpusizer::bench
