// cuda_backend.cu: the Backend on a real GPU (cuda_backend.hpp).
//
// [SECTION] Errors and resources
// [SECTION] Kernels: BabelStream copy and triad, random fill, spin
// [SECTION] Timing: CUDA events on a non-blocking stream, host timers where events cannot see
// [SECTION] The backend: init, device facts, memory probe
// [SECTION] Bandwidth: device memory, host <-> device, peer to peer
// [SECTION] GEMM through cuBLASLt
// [SECTION] NCCL all-reduce
//
// The method follows docs/research/cuda-bench-method.md (nvbandwidth, BabelStream,
// cuda-samples, nccl-tests, cuBLASLt benchmarks); the code is this project's own.
#include "cuda_backend.hpp"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "counting.hpp"
#include "nccl_loader.hpp"
#include "nvml_loader.hpp"

namespace gpusizer::bench {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Errors and resources
// ---------------------------------------------------------------------------------------------

std::string cuda_error_text(cudaError_t e) {
    return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + " = " + std::to_string(int(e)) + ")";
}

void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    (void)cudaGetLastError();   // clear a non-sticky error so that the next measurement can run
    throw BackendError(std::string(what) + ": " + cuda_error_text(e));
}

void check_lt(cublasStatus_t s, const char* what) {
    if (s == CUBLAS_STATUS_SUCCESS) return;
    throw BackendError(std::string(what) + ": " + cublasLtGetStatusString(s) + " (" + std::to_string(int(s)) + ")");
}

class DeviceBuffer {
public:
    DeviceBuffer(std::size_t bytes, const char* what) : bytes_(bytes) { check(cudaMalloc(&p_, bytes), what); }
    ~DeviceBuffer() {
        if (p_) cudaFree(p_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return p_; }
    template <typename T>
    T* as() const { return static_cast<T*>(p_); }
    std::size_t bytes() const { return bytes_; }

private:
    void* p_ = nullptr;
    std::size_t bytes_ = 0;
};

class PinnedBuffer {
public:
    explicit PinnedBuffer(std::size_t bytes) { check(cudaMallocHost(&p_, bytes), "cudaMallocHost (pinned host memory)"); }
    ~PinnedBuffer() {
        if (p_) cudaFreeHost(p_);
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    void* get() const { return p_; }

private:
    void* p_ = nullptr;
};

class Stream {
public:
    Stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
    ~Stream() {
        if (s_) cudaStreamDestroy(s_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

class Events {
public:
    explicit Events(std::size_t n) : e_(n, nullptr) {
        for (auto& e : e_) check(cudaEventCreate(&e), "cudaEventCreate");
    }
    ~Events() {
        for (auto e : e_)
            if (e) cudaEventDestroy(e);
    }
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;
    cudaEvent_t operator[](std::size_t i) const { return e_[i]; }
    double seconds(std::size_t from, std::size_t to) const {
        float ms = 0;
        check(cudaEventElapsedTime(&ms, e_[from], e_[to]), "cudaEventElapsedTime");
        return double(ms) / 1e3;
    }

private:
    std::vector<cudaEvent_t> e_;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Kernels
// ---------------------------------------------------------------------------------------------

constexpr int kThreads = 256;

unsigned int blocks_for(std::size_t n) {
    const std::size_t b = (n + kThreads - 1) / kThreads;
    return unsigned(std::min<std::size_t>(std::max<std::size_t>(b, 1), 0x7fffffffu));
}

// BabelStream's kernels (doubles): copy c = a; triad a = b + scalar * c.
__global__ void copy_kernel(const double* __restrict__ a, double* __restrict__ c, std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        c[i] = a[i];
}

__global__ void triad_kernel(double* __restrict__ a, const double* __restrict__ b, const double* __restrict__ c, double scalar,
                             std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        a[i] = b[i] + scalar * c[i];
}

__global__ void fill_kernel(double* p, double v, std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        p[i] = v;
}

// SplitMix64 (Steele, Lea and Flood 2014): a counter-based hash good enough for test data.
__device__ std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Uniform in [-1, 1) from the top 24 bits.
__device__ float uniform_pm1(std::uint64_t seed, std::size_t i) {
    const std::uint64_t h = splitmix64(seed * 0x100000001b3ULL + i);
    return float(h >> 40) * (1.0f / 16777216.0f) * 2.0f - 1.0f;
}

template <typename T>
__device__ T from_float(float v);
template <>
__device__ float from_float<float>(float v) { return v; }
template <>
__device__ __half from_float<__half>(float v) { return __float2half(v); }
template <>
__device__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16(v); }
template <>
__device__ __nv_fp8_e4m3 from_float<__nv_fp8_e4m3>(float v) { return __nv_fp8_e4m3(v); }
template <>
__device__ std::int8_t from_float<std::int8_t>(float v) { return std::int8_t(__float2int_rn(v * 63.0f)); }

// Random inputs, not zeros: a GEMM on zeros draws less power and runs faster than on real data
// (A100 8192^3: 295 vs 257 TFLOPS, docs/research/cuda-bench-method.md).
template <typename T>
__global__ void random_kernel(T* p, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        p[i] = from_float<T>(uniform_pm1(seed, i));
}

// Busy-waits `ns` nanoseconds of the GPU's global timer, so that work queued behind it starts
// back to back, without the host's launch cost in between (nvbandwidth's method).
__global__ void spin_kernel(unsigned long long ns) {
    unsigned long long start = 0, now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

template <typename T>
void fill_random(void* p, std::size_t n, std::uint64_t seed, cudaStream_t s) {
    random_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(static_cast<T*>(p), n, seed);
    check(cudaGetLastError(), "random_kernel launch");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Timing
// ---------------------------------------------------------------------------------------------

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct DeviceState {
    Nvml::Device nvml = nullptr;
    cublasLtHandle_t lt = nullptr;
    void* workspace = nullptr;
    std::size_t workspace_bytes = 0;
    int cc_major = 0, cc_minor = 0;
};

}  // namespace

class CudaBackend final : public Backend {
public:
    ~CudaBackend() override {
        for (std::size_t d = 0; d < devs_.size(); ++d) {
            if (!devs_[d].lt && !devs_[d].workspace) continue;
            cudaSetDevice(int(d));
            if (devs_[d].lt) cublasLtDestroy(devs_[d].lt);
            if (devs_[d].workspace) cudaFree(devs_[d].workspace);
        }
    }

    InitResult init() override;
    DeviceInfo device_info(int device) override;
    MemoryProbe probe_memory(int device) override;
    Timed stream(int device, StreamKernel kernel, std::size_t elements, const Run& run) override;
    Timed gemm(int device, const GemmSpec& spec, const Run& run) override;
    Timed host_copy(int device, Direction direction, bool pinned, std::size_t bytes, const Run& run) override;
    bool peer_access(int src, int dst) override;
    Timed peer_copy(int src, int dst, std::size_t bytes, bool bidirectional, const Run& run) override;
    Timed peer_latency(int src, int dst, const Run& run) override;
    Timed allreduce(const std::vector<int>& devices, std::size_t bytes, const Run& run) override;

private:
    DeviceState& state(int device) {
        if (device < 0 || std::size_t(device) >= devs_.size()) throw BackendError("no CUDA device " + std::to_string(device));
        return devs_[std::size_t(device)];
    }
    void use(int device) { check(cudaSetDevice(device), "cudaSetDevice"); }
    void ensure_lt(int device);
    double energy(int device) {
        const DeviceState& s = state(device);
        return nvml_ && s.nvml ? nvml_->energy_j(s.nvml) : -1.0;
    }

    // Runs launch(i) on `stream`: a first repetition that also measures, more warm-up, then the
    // timed repetitions, each between two CUDA events. Telemetry is sampled while they run, and
    // the NVML energy counter read before and after them.
    template <typename Launch>
    Timed time_with_events(int device, cudaStream_t stream, const Run& run, Launch&& launch) {
        Timed t;
        Events pilot(2);
        check(cudaEventRecord(pilot[0], stream), "cudaEventRecord");
        launch(std::size_t(0));
        check(cudaEventRecord(pilot[1], stream), "cudaEventRecord");
        check(cudaStreamSynchronize(stream), "warm-up");
        const double first = pilot.seconds(0, 1);
        const int extra = plan_warmup(run, first);
        for (int i = 0; i < extra; ++i) launch(std::size_t(i + 1));
        check(cudaStreamSynchronize(stream), "warm-up");
        t.warmup = 1 + extra;
        const int n = plan_iterations(run, first);
        Events ev(std::size_t(n) + 1);
        const double e0 = energy(device);
        const double w0 = now_s();
        check(cudaEventRecord(ev[0], stream), "cudaEventRecord");
        for (int i = 0; i < n; ++i) {
            launch(std::size_t(i));
            check(cudaEventRecord(ev[std::size_t(i) + 1], stream), "cudaEventRecord");
        }
        sample(device, &t);   // the GPU is busy with the queue now
        check(cudaStreamSynchronize(stream), "timed repetitions");
        t.wall_s = now_s() - w0;
        const double e1 = energy(device);
        if (e0 >= 0 && e1 > e0) t.energy_j = e1 - e0;
        for (int i = 0; i < n; ++i) t.seconds.push_back(ev.seconds(std::size_t(i), std::size_t(i) + 1));
        return t;
    }

    // The same with a host timer around each (synchronous) repetition: pageable copies, whose
    // staging the events do not see, and collectives over several devices.
    template <typename Op>
    Timed time_with_host(const Run& run, Op&& op) {
        Timed t;
        double w = now_s();
        op(std::size_t(0));
        const double first = now_s() - w;
        const int extra = plan_warmup(run, first);
        for (int i = 0; i < extra; ++i) op(std::size_t(i + 1));
        t.warmup = 1 + extra;
        const int n = plan_iterations(run, first);
        const double w0 = now_s();
        for (int i = 0; i < n; ++i) {
            w = now_s();
            op(std::size_t(i));
            t.seconds.push_back(now_s() - w);
        }
        t.wall_s = now_s() - w0;
        return t;
    }

    void sample(int device, Timed* t) {
        const DeviceState& s = state(device);
        if (!nvml_ || !s.nvml) return;
        t->has_telemetry = true;
        t->telemetry = nvml_->telemetry(s.nvml);
    }

    std::unique_ptr<Nvml> nvml_;
    std::unique_ptr<Nccl> nccl_;
    std::vector<DeviceState> devs_;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] The backend: init, device facts, memory probe
// ---------------------------------------------------------------------------------------------

InitResult CudaBackend::init() {
    InitResult r;
    r.nccl = "not loaded: needs two or more devices";
    cudaRuntimeGetVersion(&r.runtime_version);
    if (cudaDriverGetVersion(&r.driver_version) != cudaSuccess) r.driver_version = 0;   // 0: no driver
    std::string why;
    nvml_ = Nvml::load(Nvml::default_library(), &why);
    r.nvml = nvml_ ? "loaded" : why;
    if (nvml_) r.nvidia_driver = nvml_->driver_version();

    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        r.status = init_status_for_cuda_error(int(e));
        r.detail = "cudaGetDeviceCount: " + cuda_error_text(e);
        return r;
    }
    if (count <= 0) {
        r.status = InitStatus::no_device;
        r.detail = "cudaGetDeviceCount found no device";
        return r;
    }
    r.device_count = count;
    devs_.assign(std::size_t(count), DeviceState{});
    if (count >= 2) {
        nccl_ = Nccl::load(Nccl::default_library(), &why);
        r.nccl = nccl_ ? "loaded " + nccl_version_string(nccl_->version()) : why;
        r.nccl_available = nccl_ != nullptr;
    }
    return r;
}

DeviceInfo CudaBackend::device_info(int device) {
    DeviceState& st = state(device);
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    DeviceInfo info;
    info.index = device;
    info.name = prop.name;
    info.uuid = format_uuid(reinterpret_cast<const unsigned char*>(prop.uuid.bytes));
    info.cc_major = st.cc_major = prop.major;
    info.cc_minor = st.cc_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.l2_bytes = double(prop.l2CacheSize);
    info.total_bytes = double(prop.totalGlobalMem);
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, int(sizeof bus), device) == cudaSuccess) info.pci_bus_id = bus;
    else (void)cudaGetLastError();
    // CUDA 13's cudaDeviceProp has no clock fields: the attributes give the peak clocks in kHz.
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess && khz > 0) info.sm_clock_max_mhz = khz / 1000.0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess && khz > 0)
        info.memory_clock_max_mhz = khz / 1000.0;
    (void)cudaGetLastError();
    if (nvml_ && !info.pci_bus_id.empty()) {
        st.nvml = nvml_->device_by_pci_bus_id(info.pci_bus_id);
        if (st.nvml) {
            info.pcie_gen = nvml_->pcie_gen(st.nvml);
            info.pcie_width = nvml_->pcie_width(st.nvml);
            const double sm = nvml_->max_sm_clock_mhz(st.nvml), mem = nvml_->max_memory_clock_mhz(st.nvml);
            if (sm > 0) info.sm_clock_max_mhz = sm;
            if (mem > 0) info.memory_clock_max_mhz = mem;
            info.power_limit_w = nvml_->power_limit_w(st.nvml);
        }
    }
    return info;
}

void CudaBackend::ensure_lt(int device) {
    DeviceState& st = state(device);
    if (st.lt) return;
    use(device);
    check_lt(cublasLtCreate(&st.lt), "cublasLtCreate");
    // 32 MiB: the cuBLAS workspace NVIDIA recommends for Hopper (cuBLAS docs, cublasSetWorkspace).
    st.workspace_bytes = std::size_t(32) << 20;
    check(cudaMalloc(&st.workspace, st.workspace_bytes), "cudaMalloc (cuBLASLt workspace)");
}

MemoryProbe CudaBackend::probe_memory(int device) {
    DeviceState& st = state(device);
    MemoryProbe p;
    NvmlMemory before{};
    const bool nvml_before = nvml_ && st.nvml && nvml_->memory(st.nvml, &before);
    use(device);
    check(cudaFree(nullptr), "creating the CUDA context");   // cudaFree(0) creates the primary context
    std::size_t free_b = 0, total_b = 0;
    check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    p.total_bytes = double(total_b);
    p.free_bytes = double(free_b);
    NvmlMemory after{};
    if (nvml_before && nvml_->memory(st.nvml, &after)) {
        p.context_bytes = after.used - before.used;
        p.context_method = "nvml_used_delta";
    } else {
        p.context_bytes = double(total_b - free_b);   // includes other processes and the driver's reserve
        p.context_method = "total_minus_free";
    }

    // The context plus what a framework adds first: a cuBLASLt handle, its workspace, and the
    // kernels one small GEMM loads (modules load lazily, CUDA 12.2's Linux default).
    {
        ensure_lt(device);
        const Precision p16 = precision_supported(Precision::bf16, st.cc_major, st.cc_minor) ? Precision::bf16 : Precision::fp32;
        (void)gemm(device, GemmSpec{p16, 256, 256, 256, 1}, Run{1, 0.0, 1, 1, 0.0});
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
        if (p.context_method == "nvml_used_delta" && nvml_->memory(st.nvml, &after))
            p.context_with_cublaslt_bytes = after.used - before.used;
        else p.context_with_cublaslt_bytes = double(total_b - free_b);
        p.free_bytes = double(free_b);
    }

    // The largest single block: bisection on cudaMalloc to 16 MiB.
    std::size_t lo = 0, hi = free_b;
    const std::size_t step = std::size_t(16) << 20;
    while (hi - lo > step) {
        const std::size_t mid = lo + (hi - lo) / 2 / step * step;
        if (mid <= lo) break;
        void* ptr = nullptr;
        if (cudaMalloc(&ptr, mid) == cudaSuccess) {
            cudaFree(ptr);
            lo = mid;
        } else {
            (void)cudaGetLastError();   // cudaErrorMemoryAllocation is not sticky
            hi = mid;
        }
    }
    p.largest_block_bytes = double(lo);
    return p;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Bandwidth
// ---------------------------------------------------------------------------------------------

Timed CudaBackend::stream(int device, StreamKernel kernel, std::size_t elements, const Run& run) {
    state(device);
    use(device);
    const std::size_t bytes = elements * sizeof(double);
    DeviceBuffer a(bytes, "cudaMalloc (stream array a)"), b(bytes, "cudaMalloc (stream array b)"),
        c(bytes, "cudaMalloc (stream array c)");
    Stream s;
    // BabelStream's start values: a = 0.1, b = 0.2, c = 0.0; its scalar is 0.4.
    fill_kernel<<<blocks_for(elements), kThreads, 0, s.get()>>>(a.as<double>(), 0.1, elements);
    fill_kernel<<<blocks_for(elements), kThreads, 0, s.get()>>>(b.as<double>(), 0.2, elements);
    fill_kernel<<<blocks_for(elements), kThreads, 0, s.get()>>>(c.as<double>(), 0.0, elements);
    check(cudaGetLastError(), "fill_kernel launch");
    check(cudaStreamSynchronize(s.get()), "stream array initialisation");
    const unsigned int blocks = blocks_for(elements);
    return time_with_events(device, s.get(), run, [&](std::size_t) {
        if (kernel == StreamKernel::copy) copy_kernel<<<blocks, kThreads, 0, s.get()>>>(a.as<double>(), c.as<double>(), elements);
        else triad_kernel<<<blocks, kThreads, 0, s.get()>>>(a.as<double>(), b.as<double>(), c.as<double>(), 0.4, elements);
        check(cudaGetLastError(), "stream kernel launch");
    });
}

Timed CudaBackend::host_copy(int device, Direction direction, bool pinned, std::size_t bytes, const Run& run) {
    state(device);
    use(device);
    DeviceBuffer dev(bytes, "cudaMalloc (copy buffer)");
    check(cudaMemset(dev.get(), 1, bytes), "cudaMemset");
    const cudaMemcpyKind kind = direction == Direction::h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (pinned) {
        PinnedBuffer host(bytes);
        std::memset(host.get(), 1, bytes);
        void* dst = direction == Direction::h2d ? dev.get() : host.get();
        const void* src = direction == Direction::h2d ? host.get() : dev.get();
        Stream s;
        return time_with_events(device, s.get(), run, [&](std::size_t) {
            check(cudaMemcpyAsync(dst, src, bytes, kind, s.get()), "cudaMemcpyAsync (pinned)");
        });
    }
    std::unique_ptr<unsigned char[]> host(new unsigned char[bytes]);
    std::memset(host.get(), 1, bytes);   // touch every page before timing
    void* dst = direction == Direction::h2d ? dev.get() : static_cast<void*>(host.get());
    const void* src = direction == Direction::h2d ? static_cast<const void*>(host.get()) : dev.get();
    return time_with_host(run, [&](std::size_t) {
        check(cudaMemcpy(dst, src, bytes, kind), "cudaMemcpy (pageable)");
        // A pageable host->device copy may return once staged, before the DMA is done.
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    });
}

bool CudaBackend::peer_access(int src, int dst) {
    state(src);
    state(dst);
    int can = 0, back = 0;
    check(cudaDeviceCanAccessPeer(&can, src, dst), "cudaDeviceCanAccessPeer");
    check(cudaDeviceCanAccessPeer(&back, dst, src), "cudaDeviceCanAccessPeer");
    if (!can || !back) return false;
    for (auto [from, to] : {std::pair<int, int>{src, dst}, {dst, src}}) {
        use(from);
        const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
        else check(e, "cudaDeviceEnablePeerAccess");
    }
    return true;
}

Timed CudaBackend::peer_copy(int src, int dst, std::size_t bytes, bool bidirectional, const Run& run) {
    state(src);
    state(dst);
    use(dst);
    DeviceBuffer on_dst(bytes, "cudaMalloc (peer buffer)");
    std::unique_ptr<DeviceBuffer> back_on_dst;
    std::unique_ptr<Stream> s1;
    std::unique_ptr<Events> join;
    if (bidirectional) {
        back_on_dst = std::make_unique<DeviceBuffer>(bytes, "cudaMalloc (peer buffer)");
        s1 = std::make_unique<Stream>();
        join = std::make_unique<Events>(1);
    }
    use(src);
    DeviceBuffer on_src(bytes, "cudaMalloc (peer buffer)");
    std::unique_ptr<DeviceBuffer> back_on_src;
    if (bidirectional) back_on_src = std::make_unique<DeviceBuffer>(bytes, "cudaMalloc (peer buffer)");
    Stream s0;
    Events fork(1);
    return time_with_events(src, s0.get(), run, [&](std::size_t) {
        if (!bidirectional) {
            check(cudaMemcpyPeerAsync(on_dst.get(), dst, on_src.get(), src, bytes, s0.get()), "cudaMemcpyPeerAsync");
            return;
        }
        // Both directions at once: stream 1 (on dst) starts with stream 0 and stream 0 waits for it.
        check(cudaEventRecord(fork[0], s0.get()), "cudaEventRecord");
        check(cudaMemcpyPeerAsync(on_dst.get(), dst, on_src.get(), src, bytes, s0.get()), "cudaMemcpyPeerAsync");
        use(dst);
        check(cudaStreamWaitEvent(s1->get(), fork[0], 0), "cudaStreamWaitEvent");
        check(cudaMemcpyPeerAsync(back_on_src->get(), src, back_on_dst->get(), dst, bytes, s1->get()), "cudaMemcpyPeerAsync");
        check(cudaEventRecord((*join)[0], s1->get()), "cudaEventRecord");
        use(src);
        check(cudaStreamWaitEvent(s0.get(), (*join)[0], 0), "cudaStreamWaitEvent");
    });
}

Timed CudaBackend::peer_latency(int src, int dst, const Run& run) {
    state(src);
    state(dst);
    constexpr int kCopies = 100;   // copies per repetition
    constexpr unsigned long long kSpinNs = 2000000;   // 2 ms: longer than queueing 100 copies takes
    use(dst);
    DeviceBuffer on_dst(256, "cudaMalloc (latency buffer)");
    use(src);
    DeviceBuffer on_src(256, "cudaMalloc (latency buffer)");
    Stream s;
    auto repetition = [&](Events& ev, std::size_t i) {
        spin_kernel<<<1, 1, 0, s.get()>>>(kSpinNs);
        check(cudaGetLastError(), "spin_kernel launch");
        check(cudaEventRecord(ev[2 * i], s.get()), "cudaEventRecord");
        for (int c = 0; c < kCopies; ++c)
            check(cudaMemcpyPeerAsync(on_dst.get(), dst, on_src.get(), src, 4, s.get()), "cudaMemcpyPeerAsync");
        check(cudaEventRecord(ev[2 * i + 1], s.get()), "cudaEventRecord");
    };
    Events pilot(2);
    repetition(pilot, 0);
    check(cudaStreamSynchronize(s.get()), "latency warm-up");
    const double first = pilot.seconds(0, 1) / kCopies;
    Timed t;
    t.warmup = 1;
    const int n = plan_iterations(run, first * kCopies + kSpinNs * 1e-9);
    Events ev(2 * std::size_t(n));
    for (int i = 0; i < n; ++i) repetition(ev, std::size_t(i));
    check(cudaStreamSynchronize(s.get()), "latency repetitions");
    for (int i = 0; i < n; ++i) t.seconds.push_back(ev.seconds(2 * std::size_t(i), 2 * std::size_t(i) + 1) / kCopies);
    return t;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] GEMM through cuBLASLt
// ---------------------------------------------------------------------------------------------

namespace {

struct GemmTypes {
    cudaDataType_t ab, c, scale;
    cublasComputeType_t compute;
    std::size_t ab_size, c_size;
};

// FP32 accumulation everywhere (FP16 too: the catalog's GeForce fp16 figure is the
// FP32-accumulate rate), INT32 for int8; FP8 inputs write BF16.
GemmTypes gemm_types(Precision p) {
    switch (p) {
        case Precision::fp32: return {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4};
        case Precision::tf32: return {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4};
        case Precision::fp16: return {CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2};
        case Precision::bf16: return {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2};
        case Precision::fp8: return {CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1, 2};
        case Precision::int8: return {CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 1, 4};
        case Precision::fp4: break;   // not benchmarked: cuBLASLt FP4 GEMMs need block-scale tensors
    }
    return {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4};
}

void fill_inputs(Precision p, void* ptr, std::size_t n, std::uint64_t seed, cudaStream_t s) {
    switch (p) {
        case Precision::fp32:
        case Precision::tf32: fill_random<float>(ptr, n, seed, s); break;
        case Precision::fp16: fill_random<__half>(ptr, n, seed, s); break;
        case Precision::bf16: fill_random<__nv_bfloat16>(ptr, n, seed, s); break;
        case Precision::fp8: fill_random<__nv_fp8_e4m3>(ptr, n, seed, s); break;
        case Precision::int8: fill_random<std::int8_t>(ptr, n, seed, s); break;
        case Precision::fp4: break;   // not benchmarked (gemm_types)
    }
}

struct MatmulDesc {
    cublasLtMatmulDesc_t d = nullptr;
    ~MatmulDesc() {
        if (d) cublasLtMatmulDescDestroy(d);
    }
};
struct Layout {
    cublasLtMatrixLayout_t l = nullptr;
    ~Layout() {
        if (l) cublasLtMatrixLayoutDestroy(l);
    }
};
struct Preference {
    cublasLtMatmulPreference_t p = nullptr;
    ~Preference() {
        if (p) cublasLtMatmulPreferenceDestroy(p);
    }
};

}  // namespace

Timed CudaBackend::gemm(int device, const GemmSpec& spec, const Run& run) {
    DeviceState& st = state(device);
    ensure_lt(device);
    use(device);
    const GemmTypes t = gemm_types(spec.precision);
    const auto m = std::uint64_t(spec.m), n = std::uint64_t(spec.n), k = std::uint64_t(spec.k);
    const int rotations = std::max(spec.rotations, 1);
    Stream s;
    std::vector<std::unique_ptr<DeviceBuffer>> as, bs;
    for (int r = 0; r < rotations; ++r) {
        as.push_back(std::make_unique<DeviceBuffer>(std::size_t(k * m) * t.ab_size, "cudaMalloc (GEMM A)"));
        bs.push_back(std::make_unique<DeviceBuffer>(std::size_t(k * n) * t.ab_size, "cudaMalloc (GEMM B)"));
        fill_inputs(spec.precision, as.back()->get(), std::size_t(k * m), 2u * std::uint64_t(r) + 1u, s.get());
        fill_inputs(spec.precision, bs.back()->get(), std::size_t(k * n), 2u * std::uint64_t(r) + 2u, s.get());
    }
    DeviceBuffer c(std::size_t(m * n) * t.c_size, "cudaMalloc (GEMM C)");
    check(cudaMemsetAsync(c.get(), 0, c.bytes(), s.get()), "cudaMemsetAsync");
    check(cudaStreamSynchronize(s.get()), "GEMM input initialisation");

    // C (m x n) = A^T B with A stored k x m and B k x n, column-major ("TN", the layout FP8 and
    // INT8 tensor-core GEMMs require).
    MatmulDesc desc;
    check_lt(cublasLtMatmulDescCreate(&desc.d, t.compute, t.scale), "cublasLtMatmulDescCreate");
    const cublasOperation_t op_t = CUBLAS_OP_T, op_n = CUBLAS_OP_N;
    check_lt(cublasLtMatmulDescSetAttribute(desc.d, CUBLASLT_MATMUL_DESC_TRANSA, &op_t, sizeof op_t), "TRANSA");
    check_lt(cublasLtMatmulDescSetAttribute(desc.d, CUBLASLT_MATMUL_DESC_TRANSB, &op_n, sizeof op_n), "TRANSB");
    Layout la, lb, lc;
    check_lt(cublasLtMatrixLayoutCreate(&la.l, t.ab, k, m, std::int64_t(k)), "layout A");
    check_lt(cublasLtMatrixLayoutCreate(&lb.l, t.ab, k, n, std::int64_t(k)), "layout B");
    check_lt(cublasLtMatrixLayoutCreate(&lc.l, t.c, m, n, std::int64_t(m)), "layout C");
    Preference pref;
    check_lt(cublasLtMatmulPreferenceCreate(&pref.p), "cublasLtMatmulPreferenceCreate");
    check_lt(cublasLtMatmulPreferenceSetAttribute(pref.p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &st.workspace_bytes,
                                                  sizeof st.workspace_bytes),
             "workspace preference");
    cublasLtMatmulHeuristicResult_t heuristic{};
    int found = 0;
    check_lt(cublasLtMatmulAlgoGetHeuristic(st.lt, desc.d, la.l, lb.l, lc.l, lc.l, pref.p, 1, &heuristic, &found),
             "cublasLtMatmulAlgoGetHeuristic");
    if (found == 0)
        throw BackendError("cuBLASLt has no algorithm for " + std::string(precision_name(spec.precision)) + " " +
                           std::to_string(spec.m) + "x" + std::to_string(spec.n) + "x" + std::to_string(spec.k) + " on this device");

    const float alpha_f = 1.0f, beta_f = 0.0f;
    const std::int32_t alpha_i = 1, beta_i = 0;
    const bool integer = spec.precision == Precision::int8;
    const void* alpha = integer ? static_cast<const void*>(&alpha_i) : static_cast<const void*>(&alpha_f);
    const void* beta = integer ? static_cast<const void*>(&beta_i) : static_cast<const void*>(&beta_f);
    return time_with_events(device, s.get(), run, [&](std::size_t i) {
        const std::size_t r = i % std::size_t(rotations);
        check_lt(cublasLtMatmul(st.lt, desc.d, alpha, as[r]->get(), la.l, bs[r]->get(), lb.l, beta, c.get(), lc.l, c.get(), lc.l,
                                &heuristic.algo, st.workspace, st.workspace_bytes, s.get()),
                 "cublasLtMatmul");
    });
}

// ---------------------------------------------------------------------------------------------
// [SECTION] NCCL all-reduce
// ---------------------------------------------------------------------------------------------

Timed CudaBackend::allreduce(const std::vector<int>& devices, std::size_t bytes, const Run& run) {
    if (!nccl_) throw BackendError("NCCL is not loaded");
    const int n = int(devices.size());
    for (int d : devices) state(d);
    struct Comms {
        const Nccl* nccl;
        std::vector<Nccl::Comm> c;
        ~Comms() {
            for (auto x : c)
                if (x) nccl->comm_destroy(x);
        }
    } comms{nccl_.get(), std::vector<Nccl::Comm>(std::size_t(n), nullptr)};
    if (const int r = nccl_->comm_init_all(comms.c.data(), n, devices.data()); r != Nccl::kSuccess)
        throw BackendError("ncclCommInitAll: " + nccl_->error_string(r));
    const std::size_t count = bytes / sizeof(float);
    std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
    std::vector<std::unique_ptr<Stream>> streams;
    for (int d : devices) {
        use(d);
        send.push_back(std::make_unique<DeviceBuffer>(count * sizeof(float), "cudaMalloc (all-reduce send)"));
        recv.push_back(std::make_unique<DeviceBuffer>(count * sizeof(float), "cudaMalloc (all-reduce receive)"));
        streams.push_back(std::make_unique<Stream>());
        fill_random<float>(send.back()->get(), count, std::uint64_t(d) + 7u, streams.back()->get());
        check(cudaStreamSynchronize(streams.back()->get()), "all-reduce initialisation");
    }
    return time_with_host(run, [&](std::size_t) {
        if (const int r = nccl_->group_start(); r != Nccl::kSuccess) throw BackendError("ncclGroupStart: " + nccl_->error_string(r));
        for (std::size_t i = 0; i < devices.size(); ++i) {
            const int r = nccl_->all_reduce(send[i]->get(), recv[i]->get(), count, Nccl::kFloat32, Nccl::kSum, comms.c[i],
                                            streams[i]->get());
            if (r != Nccl::kSuccess) {
                nccl_->group_end();
                throw BackendError("ncclAllReduce: " + nccl_->error_string(r));
            }
        }
        if (const int r = nccl_->group_end(); r != Nccl::kSuccess) throw BackendError("ncclGroupEnd: " + nccl_->error_string(r));
        for (std::size_t i = 0; i < devices.size(); ++i) {
            use(devices[i]);
            check(cudaStreamSynchronize(streams[i]->get()), "all-reduce");
        }
    });
}

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace gpusizer::bench
