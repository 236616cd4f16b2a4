/* hw_gpu over the HIP module API and hiprtc, both loaded with dlopen.  Not
 * run here (no AMD GPU is lent to this project); the host path builds and
 * its compile step runs wherever ROCm's hiprtc is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dl_hip.h"
#include "gpu.h"

typedef struct {
    hip_api h;
} hip_impl;

#define API(g) (&((hip_impl *)(g)->impl)->h)

static int hip_fail(hw_gpu *g, hipError_t r, const char *what)
{
    const char *s = API(g)->hipGetErrorString ? API(g)->hipGetErrorString(r) : "?";
    snprintf(g->err, sizeof g->err, "%s failed: %s (%d)", what, s ? s : "?", r);
    /* hipErrorIllegalAddress, hipErrorLaunchFailure and the like leave the device unusable. */
    if (r == 700 || r == 702 || r == 719 || r == 999)
        g->broken = true;
    return -1;
}

#define CK(call, what)                                                                                                 \
    do {                                                                                                               \
        hipError_t r_ = (call);                                                                                        \
        if (r_ != hipSuccess)                                                                                          \
            return hip_fail(g, r_, what);                                                                              \
    } while (0)

static int setdev(hw_gpu *g, int dev)
{
    CK(API(g)->hipSetDevice(dev), "hipSetDevice");
    return 0;
}

static int h_compile(hw_gpu *g, const char *arch, const char *src, const char *fname, void **image, size_t *size,
                     char **text, char **log)
{
    hip_api *a = API(g);
    *image = NULL;
    *size = 0;
    if (text)
        *text = NULL;
    if (log)
        *log = NULL;
    hiprtcProgram prog;
    hiprtcResult r = a->hiprtcCreateProgram(&prog, src, fname, 0, NULL, NULL);
    if (r) {
        snprintf(g->err, sizeof g->err, "hiprtcCreateProgram: %s", a->hiprtcGetErrorString(r));
        return -1;
    }
    char archopt[128];
    snprintf(archopt, sizeof archopt, "--offload-arch=%s", arch);
    const char *opts[] = {archopt, "-O3"};
    r = a->hiprtcCompileProgram(prog, 2, opts);
    size_t ls = 0;
    a->hiprtcGetProgramLogSize(prog, &ls);
    char *lg = malloc(ls + 1);
    lg[0] = 0;
    if (ls)
        a->hiprtcGetProgramLog(prog, lg);
    lg[ls] = 0;
    if (r) {
        snprintf(g->err, sizeof g->err, "hiprtc could not compile %s for %s: %s\n%s", fname, arch,
                 a->hiprtcGetErrorString(r), lg);
        free(lg);
        a->hiprtcDestroyProgram(&prog);
        return -1;
    }
    if (log)
        *log = lg;
    else
        free(lg);
    size_t cs = 0;
    a->hiprtcGetCodeSize(prog, &cs);
    char *code = malloc(cs ? cs : 1);
    a->hiprtcGetCode(prog, code);
    *image = code;
    *size = cs;
    a->hiprtcDestroyProgram(&prog);
    return 0;
}

static int h_load(hw_gpu *g, int dev, const void *image, size_t size, void **module)
{
    (void)size;
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipModuleLoadData((hipModule_t *)module, image), "hipModuleLoadData");
    return 0;
}

static int h_function(hw_gpu *g, void *module, const char *name, void **fn)
{
    CK(API(g)->hipModuleGetFunction((hipFunction_t *)fn, (hipModule_t)module, name), name);
    return 0;
}

static void h_unload(hw_gpu *g, int dev, void *module)
{
    if (setdev(g, dev) == 0)
        API(g)->hipModuleUnload((hipModule_t)module);
}

static int h_alloc(hw_gpu *g, int dev, size_t bytes, memkind_t kind, unsigned long long *ptr, const char **how)
{
    hip_api *a = API(g);
    if (setdev(g, dev))
        return -1;
    void *p = NULL;
    switch (kind) {
    case MEM_DEVICE:
        *how = "hipMalloc (coarse-grained device memory)";
        CK(a->hipMalloc(&p, bytes), "hipMalloc");
        break;
    case MEM_DEVICE_FINE:
        *how = "hipExtMallocWithFlags(hipDeviceMallocFinegrained)";
        CK(a->hipExtMallocWithFlags(&p, bytes, hipDeviceMallocFinegrained), "hipExtMallocWithFlags");
        break;
    case MEM_MANAGED:
        *how = "hipMallocManaged(hipMemAttachGlobal)";
        CK(a->hipMallocManaged(&p, bytes, hipMemAttachGlobal), "hipMallocManaged");
        break;
    default: {
        unsigned fl = hipHostMallocPortable | hipHostMallocMapped |
                      (kind == MEM_HOST_NONCOHERENT ? HIP_HOST_MALLOC_NONCOHERENT : HIP_HOST_MALLOC_COHERENT);
        *how = kind == MEM_HOST_NONCOHERENT ? "hipHostMalloc(Portable|Mapped|NonCoherent)"
               : kind == MEM_MALLOC        ? "hipHostMalloc(Portable|Mapped|Coherent) standing in for malloc"
                                           : "hipHostMalloc(Portable|Mapped|Coherent)";
        void *h = NULL;
        CK(a->hipHostMalloc(&h, bytes, fl), "hipHostMalloc");
        memset(h, 0, bytes);
        CK(a->hipHostGetDevicePointer(&p, h, 0), "hipHostGetDevicePointer");
        if (p != h) {
            snprintf(g->err, sizeof g->err, "host memory is not at the same address on the device");
            a->hipHostFree(h);
            return -1;
        }
        break;
    }
    }
    *ptr = (unsigned long long)(size_t)p;
    return 0;
}

static void h_release(hw_gpu *g, int dev, unsigned long long ptr, memkind_t kind)
{
    if (!ptr || setdev(g, dev))
        return;
    if (kind == MEM_HOST || kind == MEM_HOST_NONCOHERENT || kind == MEM_MALLOC)
        API(g)->hipHostFree((void *)(size_t)ptr);
    else
        API(g)->hipFree((void *)(size_t)ptr);
}

static int h_memset(hw_gpu *g, int dev, unsigned long long ptr, size_t bytes, void *stream)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipMemsetD8Async((void *)(size_t)ptr, 0, bytes, (hipStream_t)stream), "hipMemsetD8Async");
    return 0;
}

static int h_to_host(hw_gpu *g, int dev, void *dst, unsigned long long src, size_t bytes)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipMemcpyDtoH(dst, (void *)(size_t)src, bytes), "hipMemcpyDtoH");
    return 0;
}

static int h_stream(hw_gpu *g, int dev, void **s)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipStreamCreateWithFlags((hipStream_t *)s, hipStreamNonBlocking), "hipStreamCreateWithFlags");
    return 0;
}

static void h_stream_free(hw_gpu *g, int dev, void *s)
{
    if (s && setdev(g, dev) == 0)
        API(g)->hipStreamDestroy((hipStream_t)s);
}

static int h_event(hw_gpu *g, int dev, void **e)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipEventCreateWithFlags((hipEvent_t *)e, hipEventDisableTiming), "hipEventCreateWithFlags");
    return 0;
}

static void h_event_free(hw_gpu *g, int dev, void *e)
{
    if (e && setdev(g, dev) == 0)
        API(g)->hipEventDestroy((hipEvent_t)e);
}

static int h_record(hw_gpu *g, int dev, void *e, void *s)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipEventRecord((hipEvent_t)e, (hipStream_t)s), "hipEventRecord");
    return 0;
}

static int h_wait(hw_gpu *g, int dev, void *s, void *e)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipStreamWaitEvent((hipStream_t)s, (hipEvent_t)e, 0), "hipStreamWaitEvent");
    return 0;
}

static int h_launch(hw_gpu *g, int dev, void *fn, unsigned grid, unsigned block, void *stream, unsigned long long *params,
                    int nparams)
{
    (void)nparams;
    if (setdev(g, dev))
        return -1;
    void *args[] = {params};
    CK(API(g)->hipModuleLaunchKernel((hipFunction_t)fn, grid, 1, 1, block, 1, 1, 0, (hipStream_t)stream, args, NULL),
       "hipModuleLaunchKernel");
    return 0;
}

static int h_sync(hw_gpu *g, int dev, void *stream)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipStreamSynchronize((hipStream_t)stream), "hipStreamSynchronize (a kernel failed or the GPU faulted)");
    return 0;
}

static int h_occupancy(hw_gpu *g, int dev, void *fn, int block, int *blocks)
{
    if (setdev(g, dev))
        return -1;
    CK(API(g)->hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (hipFunction_t)fn, block, 0),
       "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor");
    return 0;
}

static int h_peer(hw_gpu *g, int dev, int peer, int *native)
{
    hip_api *a = API(g);
    int can = 0;
    CK(a->hipDeviceCanAccessPeer(&can, dev, peer), "hipDeviceCanAccessPeer");
    if (!can) {
        snprintf(g->err, sizeof g->err, "device %d cannot access device %d's memory (no peer access)", dev, peer);
        return -1;
    }
    *native = -1;
    if (setdev(g, dev))
        return -1;
    hipError_t r = a->hipDeviceEnablePeerAccess(peer, 0);
    if (r != hipSuccess && r != hipErrorPeerAccessAlreadyEnabled)
        return hip_fail(g, r, "hipDeviceEnablePeerAccess");
    return 0;
}

static void h_shutdown(hw_gpu *g)
{
    free(g->impl);
    g->impl = NULL;
}

static void fill_ops(hw_gpu *g)
{
    g->kind = BK_HIP;
    g->name = "hip";
    g->compile = h_compile;
    g->load = h_load;
    g->function = h_function;
    g->unload = h_unload;
    g->alloc = h_alloc;
    g->release = h_release;
    g->memset_async = h_memset;
    g->to_host = h_to_host;
    g->stream = h_stream;
    g->stream_free = h_stream_free;
    g->event = h_event;
    g->event_free = h_event_free;
    g->record = h_record;
    g->wait = h_wait;
    g->launch = h_launch;
    g->sync = h_sync;
    g->occupancy = h_occupancy;
    g->peer = h_peer;
    g->shutdown = h_shutdown;
}

/* The gcnArchName inside a hipDeviceProp_t of either layout: the first "gfx..." string. */
static void find_arch(const unsigned char *p, size_t n, char *out, size_t outsz)
{
    for (size_t i = 256; i + 4 < n; i++)
        if (p[i] == 'g' && p[i + 1] == 'f' && p[i + 2] == 'x' && p[i + 3] >= '0' && p[i + 3] <= '9') {
            size_t k = 0;
            while (i + k < n && p[i + k] && k + 1 < outsz && p[i + k] > ' ' && p[i + k] < 127) {
                out[k] = (char)p[i + k];
                k++;
            }
            out[k] = 0;
            return;
        }
    snprintf(out, outsz, "unknown");
}

int hip_open_compiler(hw_gpu *g, char *why, size_t whysz)
{
    memset(g, 0, sizeof *g);
    g->impl = calloc(1, sizeof(hip_impl));
    fill_ops(g);
    if (hip_api_load(API(g), 0, 1, why, whysz) != 0) {
        h_shutdown(g);
        return -1;
    }
    int maj = 0, min = 0;
    API(g)->hiprtcVersion(&maj, &min);
    snprintf(g->compiler, sizeof g->compiler, "hiprtc %d.%d", maj, min);
    return 0;
}

int hip_open(hw_gpu *g, char *why, size_t whysz)
{
    memset(g, 0, sizeof *g);
    g->impl = calloc(1, sizeof(hip_impl));
    fill_ops(g);
    hip_api *a = API(g);
    if (hip_api_load(a, 1, 1, why, whysz) != 0) {
        h_shutdown(g);
        return -1;
    }
    hipError_t r = a->hipInit(0);
    int n = 0;
    if (r == hipSuccess)
        r = a->hipGetDeviceCount(&n);
    if (r != hipSuccess || n <= 0) {
        snprintf(why, whysz, "the HIP runtime sees no device (%s)",
                 r != hipSuccess ? a->hipGetErrorString(r) : "hipGetDeviceCount = 0");
        h_shutdown(g);
        return -1;
    }
    if (n > GPU_MAX_DEV)
        n = GPU_MAX_DEV;
    int dv = 0, rv = 0;
    a->hipDriverGetVersion(&dv);
    a->hipRuntimeGetVersion(&rv);
    snprintf(g->driver, sizeof g->driver, "HIP driver %d, runtime %d", dv, rv);
    for (int d = 0; d < n; d++) {
        hw_device *D = &g->dev[d];
        a->hipDeviceGetName(D->name, sizeof D->name, d);
        unsigned char *props = calloc(1, 16384);
        if (a->hipGetDeviceProperties(props, d) == hipSuccess)
            find_arch(props, 16384, D->arch, sizeof D->arch);
        else
            snprintf(D->arch, sizeof D->arch, "unknown");
        free(props);
        a->hipDeviceGetAttribute(&D->sms, hipDeviceAttributeMultiprocessorCount, d);
        a->hipDeviceGetAttribute(&D->max_threads_per_sm, hipDeviceAttributeMaxThreadsPerMultiProcessor, d);
        a->hipDeviceGetAttribute(&D->clock_khz, hipDeviceAttributeClockRate, d);
        if (D->sms <= 0 || D->sms > 4096)
            D->sms = 64; /* an enum that moved: a safe size, only the launch width depends on it */
        a->hipDeviceTotalMem(&D->mem, d);
        D->host_native_atomics = -1;
        D->pci_bus = -1;
    }
    g->ndev = n;
    int maj = 0, min = 0;
    a->hiprtcVersion(&maj, &min);
    snprintf(g->compiler, sizeof g->compiler, "hiprtc %d.%d", maj, min);
    return 0;
}
