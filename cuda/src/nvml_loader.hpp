// nvml_loader.hpp: NVML (libnvidia-ml.so.1) loaded at run time with dlopen/dlsym.
//
// The CUDA 13 toolkit has no nvml.h and no NVML stub library, and a binary linked to NVML could
// not start where the driver is absent. So the few NVML types and functions used are declared
// here from the NVML API reference, and the library is looked up when the benchmark starts:
// without it the benchmark still runs, without power, clocks or the context's exact cost.
//
// Plain C++ (no CUDA header): tested against a fake libnvidia-ml.so.1 built in cuda/tests/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gpusizer/measured.hpp"

namespace gpusizer::bench {

// Memory of a device as NVML reports it, bytes (nvmlDeviceGetMemoryInfo_v2, else _v1 where
// `reserved` is 0 and `used` includes it).
struct NvmlMemory {
    double total = 0, reserved = 0, free = 0, used = 0;
};

class Nvml {
public:
    using Device = void*;   // nvmlDevice_t, an opaque handle

    // dlopen(library) and nvmlInit_v2(). nullptr when it cannot, with the reason in *why
    // ("libnvidia-ml.so.1 not found: ...", "nvmlInit_v2 failed: Driver Not Loaded (9)").
    static std::unique_ptr<Nvml> load(const std::string& library, std::string* why);
    // The library to load: $GPUSIZER_NVML_LIBRARY, else "libnvidia-ml.so.1".
    static std::string default_library();

    ~Nvml();   // nvmlShutdown, dlclose
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    std::string driver_version() const;                      // "" when unavailable
    Device device_by_pci_bus_id(const std::string& bus_id) const;   // nullptr when unknown
    bool memory(Device d, NvmlMemory* out) const;
    double power_w(Device d) const;            // nvmlDeviceGetPowerUsage, mW -> W; -1 = unavailable
    double power_limit_w(Device d) const;      // nvmlDeviceGetEnforcedPowerLimit, mW -> W
    double energy_j(Device d) const;           // nvmlDeviceGetTotalEnergyConsumption, mJ -> J (Volta+)
    double sm_clock_mhz(Device d) const;       // nvmlDeviceGetClockInfo(NVML_CLOCK_SM)
    double memory_clock_mhz(Device d) const;   // nvmlDeviceGetClockInfo(NVML_CLOCK_MEM)
    double max_sm_clock_mhz(Device d) const;   // nvmlDeviceGetMaxClockInfo
    double max_memory_clock_mhz(Device d) const;
    double temperature_c(Device d) const;      // nvmlDeviceGetTemperature(NVML_TEMPERATURE_GPU)
    // nvmlDeviceGetCurrentClocksEventReasons, or its older name ...ThrottleReasons. false if neither.
    bool clock_event_reasons(Device d, std::uint64_t* mask) const;
    int pcie_gen(Device d) const;              // nvmlDeviceGetCurrPcieLinkGeneration; 0 = unknown
    int pcie_width(Device d) const;            // nvmlDeviceGetCurrPcieLinkWidth

    // Clocks, temperature, power and reasons in one sample.
    Telemetry telemetry(Device d) const;

    struct Api;   // the function pointers, nvml_loader.cpp

private:
    Nvml() = default;
    void* handle_ = nullptr;
    std::unique_ptr<Api> api_;
};

}  // namespace gpusizer::bench
