// nvml_loader.cpp: NVML through dlopen/dlsym (nvml_loader.hpp says why).
#include "nvml_loader.hpp"

#include <dlfcn.h>

#include <cstdlib>

#include "counting.hpp"
#include "nvml_api.hpp"

namespace gpusizer::bench {

struct Nvml::Api {
    decltype(&nvmlInit_v2) init = nullptr;
    decltype(&nvmlShutdown) shutdown = nullptr;
    decltype(&nvmlErrorString) error_string = nullptr;
    decltype(&nvmlSystemGetDriverVersion) driver_version = nullptr;
    decltype(&nvmlDeviceGetHandleByPciBusId_v2) by_pci = nullptr;
    decltype(&nvmlDeviceGetMemoryInfo) memory = nullptr;
    decltype(&nvmlDeviceGetMemoryInfo_v2) memory_v2 = nullptr;
    decltype(&nvmlDeviceGetPowerUsage) power = nullptr;
    decltype(&nvmlDeviceGetEnforcedPowerLimit) power_limit = nullptr;
    decltype(&nvmlDeviceGetTotalEnergyConsumption) energy = nullptr;
    decltype(&nvmlDeviceGetClockInfo) clock = nullptr;
    decltype(&nvmlDeviceGetMaxClockInfo) max_clock = nullptr;
    decltype(&nvmlDeviceGetTemperature) temperature = nullptr;
    decltype(&nvmlDeviceGetCurrentClocksEventReasons) event_reasons = nullptr;
    decltype(&nvmlDeviceGetCurrentClocksThrottleReasons) throttle_reasons = nullptr;
    decltype(&nvmlDeviceGetCurrPcieLinkGeneration) pcie_gen = nullptr;
    decltype(&nvmlDeviceGetCurrPcieLinkWidth) pcie_width = nullptr;
};

namespace {

template <typename Fn>
void find(void* handle, const char* name, Fn* out) {
    *out = reinterpret_cast<Fn>(dlsym(handle, name));
}

std::string describe(const Nvml::Api& api, nvmlReturn_t r) {
    const char* s = api.error_string ? api.error_string(r) : nullptr;
    return std::string(s ? s : "NVML error") + " (" + std::to_string(r) + ")";
}

}  // namespace

std::string Nvml::default_library() {
    if (const char* env = std::getenv("GPUSIZER_NVML_LIBRARY"); env && *env) return env;
    return "libnvidia-ml.so.1";   // the driver's soname; the unversioned .so comes with -dev packages only
}

std::unique_ptr<Nvml> Nvml::load(const std::string& library, std::string* why) {
    auto fail = [&](std::string msg) -> std::unique_ptr<Nvml> {
        if (why) *why = std::move(msg);
        return nullptr;
    };
    void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = dlerror();
        return fail(library + " not loaded: " + (e ? e : "dlopen failed"));
    }
    auto api = std::make_unique<Api>();
    find(h, "nvmlInit_v2", &api->init);
    find(h, "nvmlShutdown", &api->shutdown);
    find(h, "nvmlErrorString", &api->error_string);
    find(h, "nvmlDeviceGetHandleByPciBusId_v2", &api->by_pci);
    // The four above are required; the rest are used when present.
    for (auto [fn, name] : {std::pair<bool, const char*>{api->init != nullptr, "nvmlInit_v2"},
                            {api->shutdown != nullptr, "nvmlShutdown"},
                            {api->error_string != nullptr, "nvmlErrorString"},
                            {api->by_pci != nullptr, "nvmlDeviceGetHandleByPciBusId_v2"}})
        if (!fn) {
            dlclose(h);
            return fail(library + " lacks " + name + ": not a usable NVML");
        }
    find(h, "nvmlSystemGetDriverVersion", &api->driver_version);
    find(h, "nvmlDeviceGetMemoryInfo", &api->memory);
    find(h, "nvmlDeviceGetMemoryInfo_v2", &api->memory_v2);
    find(h, "nvmlDeviceGetPowerUsage", &api->power);
    find(h, "nvmlDeviceGetEnforcedPowerLimit", &api->power_limit);
    find(h, "nvmlDeviceGetTotalEnergyConsumption", &api->energy);
    find(h, "nvmlDeviceGetClockInfo", &api->clock);
    find(h, "nvmlDeviceGetMaxClockInfo", &api->max_clock);
    find(h, "nvmlDeviceGetTemperature", &api->temperature);
    find(h, "nvmlDeviceGetCurrentClocksEventReasons", &api->event_reasons);
    find(h, "nvmlDeviceGetCurrentClocksThrottleReasons", &api->throttle_reasons);
    find(h, "nvmlDeviceGetCurrPcieLinkGeneration", &api->pcie_gen);
    find(h, "nvmlDeviceGetCurrPcieLinkWidth", &api->pcie_width);

    const nvmlReturn_t r = api->init();
    if (r != NVML_SUCCESS) {
        const std::string msg = "nvmlInit_v2 failed: " + describe(*api, r);
        dlclose(h);
        return fail(msg);
    }
    std::unique_ptr<Nvml> n(new Nvml());
    n->handle_ = h;
    n->api_ = std::move(api);
    return n;
}

Nvml::~Nvml() {
    if (api_ && api_->shutdown) api_->shutdown();
    if (handle_) dlclose(handle_);
}

std::string Nvml::driver_version() const {
    if (!api_->driver_version) return "";
    char buf[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
    if (api_->driver_version(buf, sizeof buf) != NVML_SUCCESS) return "";
    buf[sizeof buf - 1] = '\0';
    return buf;
}

Nvml::Device Nvml::device_by_pci_bus_id(const std::string& bus_id) const {
    nvmlDevice_t d = nullptr;
    if (api_->by_pci(bus_id.c_str(), &d) != NVML_SUCCESS) return nullptr;
    return d;
}

bool Nvml::memory(Device d, NvmlMemory* out) const {
    auto dev = static_cast<nvmlDevice_t>(d);
    if (api_->memory_v2) {
        nvmlMemory_v2_t m{};
        m.version = nvmlMemory_v2;
        if (api_->memory_v2(dev, &m) == NVML_SUCCESS) {
            *out = {double(m.total), double(m.reserved), double(m.free), double(m.used)};
            return true;
        }
    }
    if (api_->memory) {
        nvmlMemory_t m{};
        if (api_->memory(dev, &m) == NVML_SUCCESS) {
            *out = {double(m.total), 0.0, double(m.free), double(m.used)};
            return true;
        }
    }
    return false;
}

namespace {

// One unsigned reading, or -1.
template <typename Fn, typename... Args>
double read_uint(Fn fn, Args... args) {
    if (!fn) return -1;
    unsigned int v = 0;
    if (fn(args..., &v) != NVML_SUCCESS) return -1;
    return double(v);
}

}  // namespace

double Nvml::power_w(Device d) const {
    const double mw = read_uint(api_->power, static_cast<nvmlDevice_t>(d));
    return mw < 0 ? -1 : mw / 1000.0;   // NVML reports milliwatts
}

double Nvml::power_limit_w(Device d) const {
    const double mw = read_uint(api_->power_limit, static_cast<nvmlDevice_t>(d));
    return mw < 0 ? -1 : mw / 1000.0;
}

double Nvml::energy_j(Device d) const {
    if (!api_->energy) return -1;
    unsigned long long mj = 0;
    if (api_->energy(static_cast<nvmlDevice_t>(d), &mj) != NVML_SUCCESS) return -1;
    return double(mj) / 1000.0;   // NVML reports millijoules since the driver loaded
}

double Nvml::sm_clock_mhz(Device d) const { return read_uint(api_->clock, static_cast<nvmlDevice_t>(d), NVML_CLOCK_SM); }
double Nvml::memory_clock_mhz(Device d) const { return read_uint(api_->clock, static_cast<nvmlDevice_t>(d), NVML_CLOCK_MEM); }
double Nvml::max_sm_clock_mhz(Device d) const { return read_uint(api_->max_clock, static_cast<nvmlDevice_t>(d), NVML_CLOCK_SM); }
double Nvml::max_memory_clock_mhz(Device d) const {
    return read_uint(api_->max_clock, static_cast<nvmlDevice_t>(d), NVML_CLOCK_MEM);
}
double Nvml::temperature_c(Device d) const {
    return read_uint(api_->temperature, static_cast<nvmlDevice_t>(d), NVML_TEMPERATURE_GPU);
}

bool Nvml::clock_event_reasons(Device d, std::uint64_t* mask) const {
    unsigned long long v = 0;
    auto dev = static_cast<nvmlDevice_t>(d);
    // The "event" name replaced the "throttle" one (NVML 12.2); older drivers export only the latter.
    if (api_->event_reasons && api_->event_reasons(dev, &v) == NVML_SUCCESS) {
        *mask = v;
        return true;
    }
    if (api_->throttle_reasons && api_->throttle_reasons(dev, &v) == NVML_SUCCESS) {
        *mask = v;
        return true;
    }
    return false;
}

int Nvml::pcie_gen(Device d) const {
    const double v = read_uint(api_->pcie_gen, static_cast<nvmlDevice_t>(d));
    return v < 0 ? 0 : int(v);
}

int Nvml::pcie_width(Device d) const {
    const double v = read_uint(api_->pcie_width, static_cast<nvmlDevice_t>(d));
    return v < 0 ? 0 : int(v);
}

Telemetry Nvml::telemetry(Device d) const {
    Telemetry t;
    t.sm_clock_mhz = sm_clock_mhz(d);
    t.memory_clock_mhz = memory_clock_mhz(d);
    t.temperature_c = temperature_c(d);
    t.power_w = power_w(d);
    t.power_limit_w = power_limit_w(d);
    std::uint64_t mask = 0;
    if (clock_event_reasons(d, &mask)) t.throttle_reasons = throttle_reason_names(mask);
    return t;
}

}  // namespace gpusizer::bench
