#include "dl_hip.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *try_open(const char *env, const char *const *names, size_t n, char *got, size_t gotsz, char *why,
                      size_t whysz)
{
    const char *e = getenv(env);
    if (e && *e) {
        void *h = dlopen(e, RTLD_NOW | RTLD_LOCAL);
        if (!h)
            snprintf(why, whysz, "%s not loadable (%s)", e, dlerror());
        snprintf(got, gotsz, "%s", e);
        return h;
    }
    for (size_t i = 0; i < n; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(got, gotsz, "%s", names[i]);
            return h;
        }
    }
    const char *err = dlerror();
    snprintf(why, whysz, "%s not loadable (%s)", names[0], err ? err : "not found");
    return NULL;
}

#define SYM(h, field, name)                                                                                            \
    do {                                                                                                               \
        *(void **)&a->field = dlsym(h, name);                                                                          \
        if (!a->field) {                                                                                               \
            snprintf(why, whysz, "%s lacks %s", lib, name);                                                            \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)

int hip_api_load(hip_api *a, int runtime, int rtc, char *why, size_t whysz)
{
    memset(a, 0, sizeof *a);
    static const char *const hipnames[] = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5",
                                           "/opt/rocm/lib/libamdhip64.so", "libamdhip64.so.7"};
    char lib[512];
    a->lib = try_open("MEMSIM_LIBHIP", hipnames, sizeof hipnames / sizeof *hipnames, lib, sizeof lib, why, whysz);
    if (!a->lib)
        return -1;
    if (runtime) {
        SYM(a->lib, hipInit, "hipInit");
        SYM(a->lib, hipGetDeviceCount, "hipGetDeviceCount");
        SYM(a->lib, hipDeviceGetName, "hipDeviceGetName");
        SYM(a->lib, hipDeviceGetAttribute, "hipDeviceGetAttribute");
        *(void **)&a->hipGetDeviceProperties = dlsym(a->lib, "hipGetDevicePropertiesR0600");
        if (!a->hipGetDeviceProperties)
            SYM(a->lib, hipGetDeviceProperties, "hipGetDeviceProperties");
        SYM(a->lib, hipDeviceTotalMem, "hipDeviceTotalMem");
        SYM(a->lib, hipDriverGetVersion, "hipDriverGetVersion");
        SYM(a->lib, hipRuntimeGetVersion, "hipRuntimeGetVersion");
        SYM(a->lib, hipSetDevice, "hipSetDevice");
        SYM(a->lib, hipDeviceCanAccessPeer, "hipDeviceCanAccessPeer");
        SYM(a->lib, hipDeviceEnablePeerAccess, "hipDeviceEnablePeerAccess");
        SYM(a->lib, hipModuleLoadData, "hipModuleLoadData");
        SYM(a->lib, hipModuleGetFunction, "hipModuleGetFunction");
        SYM(a->lib, hipModuleUnload, "hipModuleUnload");
        SYM(a->lib, hipModuleLaunchKernel, "hipModuleLaunchKernel");
        SYM(a->lib, hipModuleOccupancyMaxActiveBlocksPerMultiprocessor,
            "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor");
        SYM(a->lib, hipMalloc, "hipMalloc");
        SYM(a->lib, hipExtMallocWithFlags, "hipExtMallocWithFlags");
        SYM(a->lib, hipHostMalloc, "hipHostMalloc");
        SYM(a->lib, hipMallocManaged, "hipMallocManaged");
        SYM(a->lib, hipHostGetDevicePointer, "hipHostGetDevicePointer");
        SYM(a->lib, hipFree, "hipFree");
        SYM(a->lib, hipHostFree, "hipHostFree");
        SYM(a->lib, hipMemsetD8Async, "hipMemsetD8Async");
        SYM(a->lib, hipMemcpyDtoH, "hipMemcpyDtoH");
        SYM(a->lib, hipStreamCreateWithFlags, "hipStreamCreateWithFlags");
        SYM(a->lib, hipStreamDestroy, "hipStreamDestroy");
        SYM(a->lib, hipStreamSynchronize, "hipStreamSynchronize");
        SYM(a->lib, hipEventCreateWithFlags, "hipEventCreateWithFlags");
        SYM(a->lib, hipEventDestroy, "hipEventDestroy");
        SYM(a->lib, hipEventRecord, "hipEventRecord");
        SYM(a->lib, hipStreamWaitEvent, "hipStreamWaitEvent");
        SYM(a->lib, hipGetErrorString, "hipGetErrorString");
    }
    if (rtc) {
        /* ROCm >= 6: a library of its own; ROCm 5: inside libamdhip64. */
        static const char *const rtcnames[] = {"libhiprtc.so", "libhiprtc.so.6", "libhiprtc.so.7",
                                               "/opt/rocm/lib/libhiprtc.so"};
        char why2[512], lib2[512];
        a->rtclib = try_open("MEMSIM_HIPRTC", rtcnames, sizeof rtcnames / sizeof *rtcnames, lib2, sizeof lib2, why2,
                             sizeof why2);
        void *h = a->rtclib && dlsym(a->rtclib, "hiprtcCreateProgram") ? a->rtclib : a->lib;
        if (h == a->lib)
            snprintf(lib2, sizeof lib2, "%s", lib);
        memcpy(lib, lib2, sizeof lib);
        SYM(h, hiprtcVersion, "hiprtcVersion");
        SYM(h, hiprtcGetErrorString, "hiprtcGetErrorString");
        SYM(h, hiprtcCreateProgram, "hiprtcCreateProgram");
        SYM(h, hiprtcCompileProgram, "hiprtcCompileProgram");
        SYM(h, hiprtcGetProgramLogSize, "hiprtcGetProgramLogSize");
        SYM(h, hiprtcGetProgramLog, "hiprtcGetProgramLog");
        SYM(h, hiprtcGetCodeSize, "hiprtcGetCodeSize");
        SYM(h, hiprtcGetCode, "hiprtcGetCode");
        SYM(h, hiprtcDestroyProgram, "hiprtcDestroyProgram");
    }
    return 0;
}
