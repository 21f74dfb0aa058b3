// nvml_api.hpp: the NVML types and functions gpusizer-cuda-bench uses, declared from the NVML
// API reference (docs.nvidia.com/deploy/nvml-api) because the CUDA 13 toolkit ships no nvml.h.
// Nothing links against these: nvml_loader.cpp looks them up with dlsym, and the test tree's fake
// libnvidia-ml.so.1 defines them (which checks that both sides agree on each signature).
#pragma once

extern "C" {

typedef int nvmlReturn_t;                       // enum nvmlReturn_enum
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_UNINITIALIZED = 1;
constexpr nvmlReturn_t NVML_ERROR_INVALID_ARGUMENT = 2;
constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
constexpr nvmlReturn_t NVML_ERROR_DRIVER_NOT_LOADED = 9;
constexpr nvmlReturn_t NVML_ERROR_NOT_FOUND = 6;

typedef struct nvmlDevice_st* nvmlDevice_t;

typedef int nvmlClockType_t;                    // enum nvmlClockType_enum
constexpr nvmlClockType_t NVML_CLOCK_GRAPHICS = 0;
constexpr nvmlClockType_t NVML_CLOCK_SM = 1;
constexpr nvmlClockType_t NVML_CLOCK_MEM = 2;

typedef int nvmlTemperatureSensors_t;           // enum nvmlTemperatureSensors_enum
constexpr nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU = 0;

typedef struct {
    unsigned long long total;                   // bytes
    unsigned long long free;
    unsigned long long used;                    // includes the driver's reserved memory
} nvmlMemory_t;

typedef struct {
    unsigned int version;                       // nvmlMemory_v2
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_v2_t;

// NVML_STRUCT_VERSION(Memory, 2): the struct's size with the version in the top byte.
constexpr unsigned int nvmlMemory_v2 = (unsigned int)(sizeof(nvmlMemory_v2_t) | (2u << 24));

constexpr unsigned int NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE = 80;

nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
const char* nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length);
nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* pciBusId, nvmlDevice_t* device);
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory);
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t* memory);
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* power);               // mW
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int* limit);       // mW
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long* energy);   // mJ
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* clock);  // MHz
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* clock);
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensor, unsigned int* temp);
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long* reasons);
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device, unsigned long long* reasons);
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int* gen);
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int* width);

}  // extern "C"
