/* hw_gpu over the CUDA driver API (primary contexts, one per device) and
 * NVRTC, both loaded with dlopen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dl_cuda.h"
#include "gpu.h"

typedef struct {
    cuda_api cu;
    nvrtc_api rtc;
    bool have_driver;
    CUcontext ctx[GPU_MAX_DEV];
    CUdevice devh[GPU_MAX_DEV];
} cuda_impl;

#define IMPL(g) ((cuda_impl *)(g)->impl)

static int cu_fail(hw_gpu *g, CUresult r, const char *what)
{
    const char *name = NULL, *str = NULL;
    cuda_impl *c = IMPL(g);
    if (c->cu.cuGetErrorName)
        c->cu.cuGetErrorName(r, &name);
    if (c->cu.cuGetErrorString)
        c->cu.cuGetErrorString(r, &str);
    snprintf(g->err, sizeof g->err, "%s failed: %s (%d): %s", what, name ? name : "?", r, str ? str : "");
    /* Illegal address, launch timeout, hardware exceptions, launch failure: the context is lost. */
    if (r == 700 || r == 702 || (r >= 714 && r <= 719))
        g->broken = true;
    return -1;
}

#define CK(call, what)                                                                                                 \
    do {                                                                                                               \
        CUresult r_ = (call);                                                                                          \
        if (r_ != CUDA_SUCCESS)                                                                                        \
            return cu_fail(g, r_, what);                                                                               \
    } while (0)

static int cur(hw_gpu *g, int dev);

/* The body of most backend calls: make dev current, make one driver call. */
#define ON_DEVICE(call, what)                                                                                          \
    do {                                                                                                               \
        if (cur(g, dev))                                                                                               \
            return -1;                                                                                                 \
        CK(call, what);                                                                                                \
        return 0;                                                                                                      \
    } while (0)

static int cur(hw_gpu *g, int dev)
{
    cuda_impl *c = IMPL(g);
    CK(c->cu.cuCtxSetCurrent(c->ctx[dev]), "cuCtxSetCurrent");
    return 0;
}

static int c_compile(hw_gpu *g, const char *arch, const char *src, const char *fname, void **image, size_t *size,
                     char **text, char **log)
{
    cuda_impl *c = IMPL(g);
    nvrtc_api *n = &c->rtc;
    *image = NULL;
    *size = 0;
    if (text)
        *text = NULL;
    if (log)
        *log = NULL;
    nvrtcProgram prog;
    nvrtcResult r = n->nvrtcCreateProgram(&prog, src, fname, 0, NULL, NULL);
    if (r) {
        snprintf(g->err, sizeof g->err, "nvrtcCreateProgram: %s", n->nvrtcGetErrorString(r));
        return -1;
    }
    char archopt[96];
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    const char *opts[] = {archopt, "--std=c++17"};
    r = n->nvrtcCompileProgram(prog, 2, opts);
    size_t ls = 0;
    n->nvrtcGetProgramLogSize(prog, &ls);
    char *lg = malloc(ls + 1);
    lg[0] = 0;
    if (ls)
        n->nvrtcGetProgramLog(prog, lg);
    lg[ls] = 0;
    if (r) {
        snprintf(g->err, sizeof g->err, "NVRTC could not compile %s for %s: %s\n%s", fname, arch,
                 n->nvrtcGetErrorString(r), lg);
        if (log)
            *log = lg;
        else
            free(lg);
        n->nvrtcDestroyProgram(&prog);
        return -1;
    }
    if (log)
        *log = lg;
    else
        free(lg);
    size_t ps = 0;
    n->nvrtcGetPTXSize(prog, &ps);
    char *ptx = malloc(ps + 1);
    n->nvrtcGetPTX(prog, ptx);
    ptx[ps] = 0;
    size_t cs = 0;
    if (strncmp(arch, "sm_", 3) == 0 && n->nvrtcGetCUBINSize && n->nvrtcGetCUBINSize(prog, &cs) == 0 && cs > 0) {
        char *cubin = malloc(cs);
        n->nvrtcGetCUBIN(prog, cubin);
        *image = cubin;
        *size = cs;
        if (text)
            *text = ptx;
        else
            free(ptx);
    } else {
        /* PTX only: the driver JIT-compiles it at load. */
        *image = text ? strdup(ptx) : ptx;
        *size = ps + 1;
        if (text)
            *text = ptx;
    }
    n->nvrtcDestroyProgram(&prog);
    return 0;
}

static int c_load(hw_gpu *g, int dev, const void *image, size_t size, void **module)
{
    (void)size;
    ON_DEVICE(IMPL(g)->cu.cuModuleLoadData((CUmodule *)module, image), "cuModuleLoadData");
}

static int c_function(hw_gpu *g, void *module, const char *name, void **fn)
{
    CK(IMPL(g)->cu.cuModuleGetFunction((CUfunction *)fn, (CUmodule)module, name), name);
    return 0;
}

static void c_unload(hw_gpu *g, int dev, void *module)
{
    if (cur(g, dev) == 0)
        IMPL(g)->cu.cuModuleUnload((CUmodule)module);
}

static int c_alloc(hw_gpu *g, int dev, size_t bytes, memkind_t kind, unsigned long long *ptr, const char **how)
{
    cuda_impl *c = IMPL(g);
    if (cur(g, dev))
        return -1;
    if (kind == MEM_DEVICE || kind == MEM_DEVICE_FINE) {
        /* CUDA device memory has one kind; over NVLink a peer's memory is coherent. */
        *how = "cuMemAlloc (device memory)";
        CK(c->cu.cuMemAlloc((CUdeviceptr *)ptr, bytes), "cuMemAlloc");
        return 0;
    }
    /* Host memory of any kind: pinned, mapped into every context (portable). */
    *how = kind == MEM_HOST ? "cuMemHostAlloc(PORTABLE|DEVICEMAP) (pinned host memory)"
                            : "cuMemHostAlloc(PORTABLE|DEVICEMAP) (pinned host memory standing in for the test's host "
                              "allocator)";
    void *h = NULL;
    CK(c->cu.cuMemHostAlloc(&h, bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP), "cuMemHostAlloc");
    memset(h, 0, bytes);
    CUdeviceptr d = 0;
    CK(c->cu.cuMemHostGetDevicePointer(&d, h, 0), "cuMemHostGetDevicePointer");
    if (d != (CUdeviceptr)(size_t)h) {
        snprintf(g->err, sizeof g->err, "host memory is not at the same address on the device (no unified addressing)");
        c->cu.cuMemFreeHost(h);
        return -1;
    }
    *ptr = d;
    return 0;
}

static void c_release(hw_gpu *g, int dev, unsigned long long ptr, memkind_t kind)
{
    cuda_impl *c = IMPL(g);
    if (!ptr || cur(g, dev))
        return;
    if (kind == MEM_DEVICE || kind == MEM_DEVICE_FINE)
        c->cu.cuMemFree(ptr);
    else
        c->cu.cuMemFreeHost((void *)(size_t)ptr);
}

static int c_memset(hw_gpu *g, int dev, unsigned long long ptr, size_t bytes, void *stream)
{
    ON_DEVICE(IMPL(g)->cu.cuMemsetD8Async(ptr, 0, bytes, (CUstream)stream), "cuMemsetD8Async");
}

static int c_to_host(hw_gpu *g, int dev, void *dst, unsigned long long src, size_t bytes)
{
    ON_DEVICE(IMPL(g)->cu.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

static int c_stream(hw_gpu *g, int dev, void **s)
{
    ON_DEVICE(IMPL(g)->cu.cuStreamCreate((CUstream *)s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
}

static void c_stream_free(hw_gpu *g, int dev, void *s)
{
    if (s && cur(g, dev) == 0)
        IMPL(g)->cu.cuStreamDestroy((CUstream)s);
}

static int c_event(hw_gpu *g, int dev, void **e)
{
    ON_DEVICE(IMPL(g)->cu.cuEventCreate((CUevent *)e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
}

static void c_event_free(hw_gpu *g, int dev, void *e)
{
    if (e && cur(g, dev) == 0)
        IMPL(g)->cu.cuEventDestroy((CUevent)e);
}

static int c_record(hw_gpu *g, int dev, void *e, void *s)
{
    ON_DEVICE(IMPL(g)->cu.cuEventRecord((CUevent)e, (CUstream)s), "cuEventRecord");
}

static int c_wait(hw_gpu *g, int dev, void *s, void *e)
{
    ON_DEVICE(IMPL(g)->cu.cuStreamWaitEvent((CUstream)s, (CUevent)e, 0), "cuStreamWaitEvent");
}

static int c_launch(hw_gpu *g, int dev, void *fn, unsigned grid, unsigned block, void *stream, unsigned long long *params,
                    int nparams)
{
    (void)nparams;
    if (cur(g, dev))
        return -1;
    void *args[] = {params};
    CK(IMPL(g)->cu.cuLaunchKernel((CUfunction)fn, grid, 1, 1, block, 1, 1, 0, (CUstream)stream, args, NULL),
       "cuLaunchKernel");
    return 0;
}

static int c_sync(hw_gpu *g, int dev, void *stream)
{
    if (cur(g, dev))
        return -1;
    CK(IMPL(g)->cu.cuStreamSynchronize((CUstream)stream), "cuStreamSynchronize (a kernel failed or the GPU faulted)");
    return 0;
}

static int c_occupancy(hw_gpu *g, int dev, void *fn, int block, int *blocks)
{
    if (cur(g, dev))
        return -1;
    CK(IMPL(g)->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (CUfunction)fn, block, 0),
       "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    return 0;
}

static int c_peer(hw_gpu *g, int dev, int peer, int *native)
{
    cuda_impl *c = IMPL(g);
    int can = 0;
    CK(c->cu.cuDeviceCanAccessPeer(&can, c->devh[dev], c->devh[peer]), "cuDeviceCanAccessPeer");
    if (!can) {
        snprintf(g->err, sizeof g->err, "device %d cannot access device %d's memory (no peer access)", dev, peer);
        return -1;
    }
    *native = -1;
    int v = 0;
    if (c->cu.cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, c->devh[dev], c->devh[peer]) ==
        CUDA_SUCCESS)
        *native = v;
    if (cur(g, dev))
        return -1;
    CUresult r = c->cu.cuCtxEnablePeerAccess(c->ctx[peer], 0);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
        return cu_fail(g, r, "cuCtxEnablePeerAccess");
    return 0;
}

static void c_shutdown(hw_gpu *g)
{
    free(g->impl);
    g->impl = NULL;
}

static void fill_ops(hw_gpu *g)
{
    g->kind = BK_CUDA;
    g->name = "cuda";
    g->compile = c_compile;
    g->load = c_load;
    g->function = c_function;
    g->unload = c_unload;
    g->alloc = c_alloc;
    g->release = c_release;
    g->memset_async = c_memset;
    g->to_host = c_to_host;
    g->stream = c_stream;
    g->stream_free = c_stream_free;
    g->event = c_event;
    g->event_free = c_event_free;
    g->record = c_record;
    g->wait = c_wait;
    g->launch = c_launch;
    g->sync = c_sync;
    g->occupancy = c_occupancy;
    g->peer = c_peer;
    g->shutdown = c_shutdown;
}

int cuda_open_compiler(hw_gpu *g, char *why, size_t whysz)
{
    memset(g, 0, sizeof *g);
    cuda_impl *c = calloc(1, sizeof *c);
    g->impl = c;
    fill_ops(g);
    if (nvrtc_api_load(&c->rtc, why, whysz) != 0) {
        c_shutdown(g);
        return -1;
    }
    int maj = 0, min = 0;
    c->rtc.nvrtcVersion(&maj, &min);
    snprintf(g->compiler, sizeof g->compiler, "NVRTC %d.%d (%.90s)", maj, min, c->rtc.path);
    return 0;
}

int cuda_open(hw_gpu *g, char *why, size_t whysz)
{
    memset(g, 0, sizeof *g);
    cuda_impl *c = calloc(1, sizeof *c);
    g->impl = c;
    fill_ops(g);
    if (cuda_api_load(&c->cu, why, whysz) != 0) {
        c_shutdown(g);
        return -1;
    }
    CUresult r = c->cu.cuInit(0);
    if (r != CUDA_SUCCESS) {
        const char *nm = NULL;
        c->cu.cuGetErrorName(r, &nm);
        snprintf(why, whysz, "cuInit failed: %s (%d)%s", nm ? nm : "?", r, r == CUDA_ERROR_NO_DEVICE ? ": no CUDA device" : "");
        c_shutdown(g);
        return -1;
    }
    int n = 0;
    c->cu.cuDeviceGetCount(&n);
    if (n <= 0) {
        snprintf(why, whysz, "the CUDA driver sees no device");
        c_shutdown(g);
        return -1;
    }
    if (n > GPU_MAX_DEV)
        n = GPU_MAX_DEV;
    int ver = 0;
    c->cu.cuDriverGetVersion(&ver);
    snprintf(g->driver, sizeof g->driver, "CUDA driver API %d.%d", ver / 1000, ver % 1000 / 10);
    for (int d = 0; d < n; d++) {
        hw_device *D = &g->dev[d];
        c->cu.cuDeviceGet(&c->devh[d], d);
        c->cu.cuDeviceGetName(D->name, sizeof D->name, c->devh[d]);
        int maj = 0, min = 0;
        c->cu.cuDeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c->devh[d]);
        c->cu.cuDeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c->devh[d]);
        snprintf(D->arch, sizeof D->arch, "sm_%d%d", maj, min);
        c->cu.cuDeviceGetAttribute(&D->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, c->devh[d]);
        c->cu.cuDeviceGetAttribute(&D->max_threads_per_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                                   c->devh[d]);
        c->cu.cuDeviceGetAttribute(&D->clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, c->devh[d]);
        c->cu.cuDeviceGetAttribute(&D->pci_bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, c->devh[d]);
        D->host_native_atomics = -1;
        c->cu.cuDeviceGetAttribute(&D->host_native_atomics, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, c->devh[d]);
        c->cu.cuDeviceTotalMem(&D->mem, c->devh[d]);
        if (maj < 7) {
            snprintf(why, whysz, "device %d (%s) is %s: hwrun needs sm_70 or newer (PTX .relaxed/.acquire/.release)",
                     d, D->name, D->arch);
            c_shutdown(g);
            return -1;
        }
        r = c->cu.cuDevicePrimaryCtxRetain(&c->ctx[d], c->devh[d]);
        if (r != CUDA_SUCCESS) {
            snprintf(why, whysz, "cuDevicePrimaryCtxRetain(%d) failed (%d)", d, r);
            c_shutdown(g);
            return -1;
        }
    }
    g->ndev = n;
    c->have_driver = true;
    if (nvrtc_api_load(&c->rtc, why, whysz) != 0) {
        c_shutdown(g);
        return -1;
    }
    int maj = 0, min = 0;
    c->rtc.nvrtcVersion(&maj, &min);
    snprintf(g->compiler, sizeof g->compiler, "NVRTC %d.%d (%.90s)", maj, min, c->rtc.path);
    return 0;
}
