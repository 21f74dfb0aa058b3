// fake_nvml.cpp: a stand-in libnvidia-ml.so.1 for the NVML loader's tests. It defines the NVML
// functions nvml_loader.cpp looks up, with the signatures of nvml_api.hpp (so that a mismatch
// fails to compile), answering from state the tests set through the fake_nvml_* functions. It
// exports only the older ...ClocksThrottleReasons name, to test the loader's fallback.
#include <cstring>

#include "nvml_api.hpp"

namespace {

struct State {
    nvmlReturn_t init_result = NVML_SUCCESS;
    int inits = 0, shutdowns = 0;
    bool power_supported = true;
    unsigned int power_mw = 250000;
    unsigned int limit_mw = 700000;
    unsigned long long energy_mj = 123456789;
    unsigned int sm_mhz = 1755, mem_mhz = 2619, max_sm_mhz = 1980, max_mem_mhz = 2619, temp_c = 61;
    unsigned long long reasons = 0;
    unsigned long long total = 85520809984ull, reserved = 512ull << 20, used = 0;
    unsigned int pcie_gen = 5, pcie_width = 16;
};
State g;
int g_device_tag = 0;   // its address is the one device handle

nvmlDevice_t device_handle() { return reinterpret_cast<nvmlDevice_t>(&g_device_tag); }
bool valid(nvmlDevice_t d) { return d == device_handle(); }

// The SM or the memory clock, as `t` asks (the others are not faked).
nvmlReturn_t clock_of(nvmlDevice_t d, nvmlClockType_t t, unsigned sm, unsigned mem, unsigned int* c) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    if (t == NVML_CLOCK_SM) *c = sm;
    else if (t == NVML_CLOCK_MEM) *c = mem;
    else return NVML_ERROR_NOT_SUPPORTED;
    return NVML_SUCCESS;
}

}  // namespace

extern "C" {

// --- NVML ---
nvmlReturn_t nvmlInit_v2(void) {
    ++g.inits;
    return g.init_result;
}
nvmlReturn_t nvmlShutdown(void) {
    ++g.shutdowns;
    return NVML_SUCCESS;
}
const char* nvmlErrorString(nvmlReturn_t r) {
    switch (r) {
        case NVML_SUCCESS: return "Success";
        case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
        case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
        case NVML_ERROR_NOT_FOUND: return "Not Found";
        default: return "Unknown Error";
    }
}
nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
    const char* v = "580.65.06";
    if (length < std::strlen(v) + 1) return NVML_ERROR_INVALID_ARGUMENT;
    std::strcpy(version, v);
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* bus, nvmlDevice_t* device) {
    if (std::strcmp(bus, "0000:17:00.0") != 0) return NVML_ERROR_NOT_FOUND;
    *device = device_handle();
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    m->total = g.total;
    m->used = g.used + g.reserved;
    m->free = g.total - m->used;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, nvmlMemory_v2_t* m) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    if (m->version != nvmlMemory_v2) return 25;   // NVML_ERROR_ARGUMENT_VERSION_MISMATCH
    m->total = g.total;
    m->reserved = g.reserved;
    m->used = g.used;
    m->free = g.total - g.reserved - g.used;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int* p) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    if (!g.power_supported) return NVML_ERROR_NOT_SUPPORTED;
    *p = g.power_mw;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int* p) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    *p = g.limit_mw;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long* e) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    if (!g.power_supported) return NVML_ERROR_NOT_SUPPORTED;
    *e = g.energy_mj;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, nvmlClockType_t t, unsigned int* c) {
    return clock_of(d, t, g.sm_mhz, g.mem_mhz, c);
}
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, nvmlClockType_t t, unsigned int* c) {
    return clock_of(d, t, g.max_sm_mhz, g.max_mem_mhz, c);
}
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, nvmlTemperatureSensors_t s, unsigned int* t) {
    if (!valid(d) || s != NVML_TEMPERATURE_GPU) return NVML_ERROR_INVALID_ARGUMENT;
    *t = g.temp_c;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long* r) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    *r = g.reasons;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int* v) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    *v = g.pcie_gen;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int* v) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    *v = g.pcie_width;
    return NVML_SUCCESS;
}

// --- controls for the tests ---
void fake_nvml_reset() { g = State{}; }
void fake_nvml_set_init_result(int r) { g.init_result = r; }
void fake_nvml_set_power(unsigned int mw, int supported) {
    g.power_mw = mw;
    g.power_supported = supported != 0;
}
void fake_nvml_add_energy_mj(unsigned long long mj) { g.energy_mj += mj; }
void fake_nvml_set_used_bytes(unsigned long long used) { g.used = used; }
void fake_nvml_set_reasons(unsigned long long mask) { g.reasons = mask; }
int fake_nvml_inits() { return g.inits; }
int fake_nvml_shutdowns() { return g.shutdowns; }

}  // extern "C"
