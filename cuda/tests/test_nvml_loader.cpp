// test_nvml_loader.cpp: the NVML and NCCL loaders, against the fake libnvidia-ml.so.1 of this
// folder (fake_nvml.cpp), a missing library and a library that is not what it claims to be.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include "counting.hpp"
#include "nccl_loader.hpp"
#include "nvml_loader.hpp"

using namespace gpusizer::bench;

namespace {

// The fake's controls, from the same handle the loader gets (dlopen of one path is refcounted).
struct FakeNvml {
    void* h = dlopen(GPUSIZER_FAKE_NVML, RTLD_NOW | RTLD_LOCAL);
    template <typename Fn>
    Fn fn(const char* name) const {
        return reinterpret_cast<Fn>(dlsym(h, name));
    }
    FakeNvml() {
        REQUIRE(h != nullptr);
        fn<void (*)()>("fake_nvml_reset")();
    }
    ~FakeNvml() {
        if (h) dlclose(h);
    }
};

}  // namespace

TEST_CASE("NVML loads from the fake library and reads each quantity in SI units", "[nvml]") {
    FakeNvml fake;
    std::string why;
    auto nvml = Nvml::load(GPUSIZER_FAKE_NVML, &why);
    REQUIRE(nvml);
    CHECK(why.empty());
    CHECK(fake.fn<int (*)()>("fake_nvml_inits")() == 1);
    CHECK(nvml->driver_version() == "580.65.06");

    CHECK(nvml->device_by_pci_bus_id("0000:99:00.0") == nullptr);
    Nvml::Device d = nvml->device_by_pci_bus_id("0000:17:00.0");
    REQUIRE(d != nullptr);

    // NVML: power in milliwatts, energy in millijoules; the loader gives watts and joules.
    fake.fn<void (*)(unsigned, int)>("fake_nvml_set_power")(312500, 1);
    CHECK(nvml->power_w(d) == Approx(312.5));
    CHECK(nvml->power_limit_w(d) == Approx(700.0));
    CHECK(nvml->energy_j(d) == Approx(123456.789));
    const double e0 = nvml->energy_j(d);
    fake.fn<void (*)(unsigned long long)>("fake_nvml_add_energy_mj")(650000);   // 650 J
    CHECK(nvml->energy_j(d) - e0 == Approx(650.0));

    CHECK(nvml->sm_clock_mhz(d) == 1755);
    CHECK(nvml->memory_clock_mhz(d) == 2619);
    CHECK(nvml->max_sm_clock_mhz(d) == 1980);
    CHECK(nvml->temperature_c(d) == 61);
    CHECK(nvml->pcie_gen(d) == 5);
    CHECK(nvml->pcie_width(d) == 16);

    // Memory through the _v2 call (the struct version must match nvmlMemory_v2 or the fake refuses).
    fake.fn<void (*)(unsigned long long)>("fake_nvml_set_used_bytes")(300ull << 20);
    NvmlMemory m;
    REQUIRE(nvml->memory(d, &m));
    CHECK(m.used == Approx(double(300ull << 20)));
    CHECK(m.reserved == Approx(double(512ull << 20)));
    CHECK(m.total == Approx(85520809984.0));
    CHECK(m.free == Approx(m.total - m.reserved - m.used));

    // The reasons come through the older ...ThrottleReasons name (the fake has no ...EventReasons).
    fake.fn<void (*)(unsigned long long)>("fake_nvml_set_reasons")(0x4 | 0x20);
    std::uint64_t mask = 0;
    REQUIRE(nvml->clock_event_reasons(d, &mask));
    CHECK(mask == 0x24);
    const auto t = nvml->telemetry(d);
    CHECK(t.power_w == Approx(312.5));
    CHECK(t.throttle_reasons == std::vector<std::string>{"sw_power_cap", "sw_thermal_slowdown"});

    // Not supported: -1, never an exception.
    fake.fn<void (*)(unsigned, int)>("fake_nvml_set_power")(0, 0);
    CHECK(nvml->power_w(d) == -1);
    CHECK(nvml->energy_j(d) == -1);

    nvml.reset();
    CHECK(fake.fn<int (*)()>("fake_nvml_shutdowns")() == 1);   // nvmlShutdown on destruction
}

TEST_CASE("NVML that fails to initialise, or is absent, is reported, not fatal", "[nvml]") {
    FakeNvml fake;
    fake.fn<void (*)(int)>("fake_nvml_set_init_result")(9);   // NVML_ERROR_DRIVER_NOT_LOADED
    std::string why;
    CHECK_FALSE(Nvml::load(GPUSIZER_FAKE_NVML, &why));
    CHECK(why == "nvmlInit_v2 failed: Driver Not Loaded (9)");

    why.clear();
    CHECK_FALSE(Nvml::load("/nonexistent/libnvidia-ml.so.1", &why));
    CHECK(why.rfind("/nonexistent/libnvidia-ml.so.1 not loaded: ", 0) == 0);
}

TEST_CASE("a library that is not NCCL is refused, naming the missing function", "[nccl]") {
    std::string why;
    CHECK_FALSE(Nccl::load(GPUSIZER_FAKE_NVML, &why));
    CHECK(why.find("lacks ncclGetVersion") != std::string::npos);
    why.clear();
    CHECK_FALSE(Nccl::load("/nonexistent/libnccl.so.2", &why));
    CHECK(why.find("not loaded") != std::string::npos);
}

TEST_CASE("the system's NCCL, where there is one, loads and tells its version", "[nccl]") {
    std::string why;
    auto nccl = Nccl::load(Nccl::default_library(), &why);
    if (!nccl) {
        WARN("no libnccl.so.2 on this machine: " << why);
        return;
    }
    const std::string v = nccl_version_string(nccl->version());
    CHECK(v.rfind("2.", 0) == 0);
}
