#include "dl_cuda.h"

#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYM(api, field, name)                                                                                          \
    do {                                                                                                               \
        *(void **)&(api)->field = dlsym((api)->lib, name);                                                             \
        if (!(api)->field) {                                                                                           \
            snprintf(why, whysz, "%s lacks %s", libname, name);                                                        \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)

int cuda_api_load(cuda_api *a, char *why, size_t whysz)
{
    memset(a, 0, sizeof *a);
    const char *env = getenv("MEMSIM_LIBCUDA");
    const char *libname = env && *env ? env : "libcuda.so.1";
    a->lib = dlopen(libname, RTLD_NOW | RTLD_LOCAL);
    if (!a->lib) {
        const char *e = dlerror();
        snprintf(why, whysz, "%s not loadable (%s)", libname, e ? e : "unknown reason");
        return -1;
    }
    SYM(a, cuInit, "cuInit");
    SYM(a, cuDriverGetVersion, "cuDriverGetVersion");
    SYM(a, cuDeviceGetCount, "cuDeviceGetCount");
    SYM(a, cuDeviceGet, "cuDeviceGet");
    SYM(a, cuDeviceGetName, "cuDeviceGetName");
    SYM(a, cuDeviceGetAttribute, "cuDeviceGetAttribute");
    SYM(a, cuDeviceTotalMem, "cuDeviceTotalMem_v2");
    SYM(a, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    SYM(a, cuCtxSetCurrent, "cuCtxSetCurrent");
    SYM(a, cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
    SYM(a, cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute");
    SYM(a, cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
    SYM(a, cuModuleLoadData, "cuModuleLoadData");
    SYM(a, cuModuleGetFunction, "cuModuleGetFunction");
    SYM(a, cuModuleUnload, "cuModuleUnload");
    SYM(a, cuMemAlloc, "cuMemAlloc_v2");
    SYM(a, cuMemFree, "cuMemFree_v2");
    SYM(a, cuMemHostAlloc, "cuMemHostAlloc");
    SYM(a, cuMemFreeHost, "cuMemFreeHost");
    SYM(a, cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
    SYM(a, cuMemsetD8Async, "cuMemsetD8Async");
    SYM(a, cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    SYM(a, cuStreamCreate, "cuStreamCreate");
    SYM(a, cuStreamDestroy, "cuStreamDestroy_v2");
    SYM(a, cuStreamSynchronize, "cuStreamSynchronize");
    SYM(a, cuEventCreate, "cuEventCreate");
    SYM(a, cuEventDestroy, "cuEventDestroy_v2");
    SYM(a, cuEventRecord, "cuEventRecord");
    SYM(a, cuStreamWaitEvent, "cuStreamWaitEvent");
    SYM(a, cuLaunchKernel, "cuLaunchKernel");
    SYM(a, cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    SYM(a, cuGetErrorName, "cuGetErrorName");
    SYM(a, cuGetErrorString, "cuGetErrorString");
    return 0;
}

/* Where NVRTC may be: the loader's path first, then the usual toolkit folders. */
static void *open_nvrtc(char *path, size_t pathsz, char *tried, size_t triedsz)
{
    const char *env = getenv("MEMSIM_NVRTC");
    if (env && *env) {
        snprintf(path, pathsz, "%s", env);
        void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
        if (!h)
            snprintf(tried, triedsz, "%s", dlerror());
        return h;
    }
    static const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(path, pathsz, "%s", names[i]);
            return h;
        }
    }
    char pat[1024];
    const char *home = getenv("CUDA_HOME");
    if (!home)
        home = getenv("CUDA_PATH");
    const char *dirs[] = {home, "/usr/local/cuda", "/usr/local/cuda-*", "/opt/cuda", "/usr"};
    const char *subs[] = {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib",
                          "lib/x86_64-linux-gnu"};
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        if (!dirs[d])
            continue;
        for (size_t s = 0; s < sizeof subs / sizeof *subs; s++) {
            snprintf(pat, sizeof pat, "%s/%s/libnvrtc.so*", dirs[d], subs[s]);
            glob_t gl;
            if (glob(pat, 0, NULL, &gl) != 0)
                continue;
            /* The highest version sorts last; skip the alt/builtins libraries. */
            for (size_t k = gl.gl_pathc; k-- > 0;) {
                const char *p = gl.gl_pathv[k];
                if (strstr(p, "builtins") || strstr(p, ".alt."))
                    continue;
                void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
                if (h) {
                    snprintf(path, pathsz, "%s", p);
                    globfree(&gl);
                    return h;
                }
            }
            globfree(&gl);
        }
    }
    snprintf(tried, triedsz, "libnvrtc.so not found in the loader path, $CUDA_HOME or /usr/local/cuda*");
    return NULL;
}

int nvrtc_api_load(nvrtc_api *a, char *why, size_t whysz)
{
    memset(a, 0, sizeof *a);
    char tried[512] = "";
    a->lib = open_nvrtc(a->path, sizeof a->path, tried, sizeof tried);
    if (!a->lib) {
        snprintf(why, whysz, "NVRTC not loadable: %s (set MEMSIM_NVRTC=/path/to/libnvrtc.so)", tried);
        return -1;
    }
    const char *libname = a->path;
    SYM(a, nvrtcVersion, "nvrtcVersion");
    SYM(a, nvrtcGetErrorString, "nvrtcGetErrorString");
    SYM(a, nvrtcCreateProgram, "nvrtcCreateProgram");
    SYM(a, nvrtcCompileProgram, "nvrtcCompileProgram");
    SYM(a, nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize");
    SYM(a, nvrtcGetProgramLog, "nvrtcGetProgramLog");
    SYM(a, nvrtcGetPTXSize, "nvrtcGetPTXSize");
    SYM(a, nvrtcGetPTX, "nvrtcGetPTX");
    SYM(a, nvrtcDestroyProgram, "nvrtcDestroyProgram");
    *(void **)&a->nvrtcGetCUBINSize = dlsym(a->lib, "nvrtcGetCUBINSize");
    *(void **)&a->nvrtcGetCUBIN = dlsym(a->lib, "nvrtcGetCUBIN");
    return 0;
}
