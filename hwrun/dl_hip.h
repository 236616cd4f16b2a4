/* The few HIP runtime (module API) and hiprtc entry points memsim calls, with
 * our own minimal types: the HIP headers are never included, so memsim
 * builds without ROCm.  hiprtc lives in libhiprtc.so on ROCm >= 6 and inside
 * libamdhip64.so on ROCm 5. */
#ifndef MEMSIM_HWRUN_DL_HIP_H
#define MEMSIM_HWRUN_DL_HIP_H

#include <stddef.h>

typedef int hipError_t;
typedef int hiprtcResult;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct _hiprtcProgram *hiprtcProgram;

enum {
    hipSuccess = 0,
    hipErrorNoDevice = 100,
    hipErrorPeerAccessAlreadyEnabled = 704,
    /* hipDeviceAttribute_t, ROCm 5 and 6 */
    hipDeviceAttributeClockRate = 5,
    hipDeviceAttributeMaxThreadsPerMultiProcessor = 57,
    hipDeviceAttributeMultiprocessorCount = 63,
    hipDeviceMallocDefault = 0,
    hipDeviceMallocFinegrained = 1,
    hipHostMallocPortable = 1,
    hipHostMallocMapped = 2,
    hipMemAttachGlobal = 1,
    hipStreamNonBlocking = 1,
    hipEventDisableTiming = 2,
};
#define HIP_HOST_MALLOC_COHERENT 0x40000000u
#define HIP_HOST_MALLOC_NONCOHERENT 0x80000000u

typedef struct {
    void *lib, *rtclib;
    hipError_t (*hipInit)(unsigned);
    hipError_t (*hipGetDeviceCount)(int *);
    hipError_t (*hipDeviceGetName)(char *, int, int);
    hipError_t (*hipDeviceGetAttribute)(int *, int, int);
    hipError_t (*hipGetDeviceProperties)(void *, int); /* R0600 where present; only name/gcnArchName are read */
    hipError_t (*hipDeviceTotalMem)(size_t *, int);
    hipError_t (*hipDriverGetVersion)(int *);
    hipError_t (*hipRuntimeGetVersion)(int *);
    hipError_t (*hipSetDevice)(int);
    hipError_t (*hipDeviceCanAccessPeer)(int *, int, int);
    hipError_t (*hipDeviceEnablePeerAccess)(int, unsigned);
    hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
    hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t, const char *);
    hipError_t (*hipModuleUnload)(hipModule_t);
    hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, hipStream_t, void **, void **);
    hipError_t (*hipModuleOccupancyMaxActiveBlocksPerMultiprocessor)(int *, hipFunction_t, int, size_t);
    hipError_t (*hipMalloc)(void **, size_t);
    hipError_t (*hipExtMallocWithFlags)(void **, size_t, unsigned);
    hipError_t (*hipHostMalloc)(void **, size_t, unsigned);
    hipError_t (*hipMallocManaged)(void **, size_t, unsigned);
    hipError_t (*hipHostGetDevicePointer)(void **, void *, unsigned);
    hipError_t (*hipFree)(void *);
    hipError_t (*hipHostFree)(void *);
    hipError_t (*hipMemsetD8Async)(void *, unsigned char, size_t, hipStream_t);
    hipError_t (*hipMemcpyDtoH)(void *, void *, size_t);
    hipError_t (*hipStreamCreateWithFlags)(hipStream_t *, unsigned);
    hipError_t (*hipStreamDestroy)(hipStream_t);
    hipError_t (*hipStreamSynchronize)(hipStream_t);
    hipError_t (*hipEventCreateWithFlags)(hipEvent_t *, unsigned);
    hipError_t (*hipEventDestroy)(hipEvent_t);
    hipError_t (*hipEventRecord)(hipEvent_t, hipStream_t);
    hipError_t (*hipStreamWaitEvent)(hipStream_t, hipEvent_t, unsigned);
    const char *(*hipGetErrorString)(hipError_t);
    hiprtcResult (*hiprtcVersion)(int *, int *);
    const char *(*hiprtcGetErrorString)(hiprtcResult);
    hiprtcResult (*hiprtcCreateProgram)(hiprtcProgram *, const char *, const char *, int, const char **, const char **);
    hiprtcResult (*hiprtcCompileProgram)(hiprtcProgram, int, const char **);
    hiprtcResult (*hiprtcGetProgramLogSize)(hiprtcProgram, size_t *);
    hiprtcResult (*hiprtcGetProgramLog)(hiprtcProgram, char *);
    hiprtcResult (*hiprtcGetCodeSize)(hiprtcProgram, size_t *);
    hiprtcResult (*hiprtcGetCode)(hiprtcProgram, char *);
    hiprtcResult (*hiprtcDestroyProgram)(hiprtcProgram *);
} hip_api;

/* runtime: the HIP runtime (needed to run); rtc: hiprtc (needed to compile).
 * MEMSIM_LIBHIP / MEMSIM_HIPRTC name the libraries explicitly. */
int hip_api_load(hip_api *a, int runtime, int rtc, char *why, size_t whysz);

#endif
