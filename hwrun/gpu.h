/* What the harness needs from a GPU runtime, implemented over the CUDA
 * driver API + NVRTC (backend_cuda.c) and the HIP module API + hiprtc
 * (backend_hip.c).  Both load their libraries with dlopen at run time, so
 * memsim builds and runs without either toolkit. */
#ifndef MEMSIM_HWRUN_GPU_H
#define MEMSIM_HWRUN_GPU_H

#include <stddef.h>

#include "codegen.h"

enum { GPU_MAX_DEV = 16 };

/* Where a location lives. */
typedef enum {
    MEM_DEVICE = 0,      /* device memory, coarse-grained on AMD (hipMalloc) */
    MEM_DEVICE_FINE,     /* fine-grained device memory (hipExtMallocWithFlags(fine)); CUDA: device memory */
    MEM_HOST,            /* pinned, mapped, coherent host memory */
    MEM_HOST_NONCOHERENT,
    MEM_MANAGED,
    MEM_MALLOC,
} memkind_t;

typedef struct {
    char name[256];
    char arch[64];           /* sm_90, gfx942 */
    int sms;
    int max_threads_per_sm;
    int clock_khz;
    int pci_bus;
    size_t mem;
    int host_native_atomics; /* -1 unknown */
} hw_device;

typedef struct hw_gpu hw_gpu;
struct hw_gpu {
    backend_t kind;
    const char *name;        /* "cuda", "hip" */
    int ndev;
    hw_device dev[GPU_MAX_DEV];
    char driver[128];        /* "CUDA driver 13.0" */
    char compiler[128];      /* "NVRTC 13.0" */
    char err[2048];          /* the last failure, in words */
    bool broken;             /* a sticky error (a kernel faulted): nothing more can run in this process */
    void *impl;

    /* Compiles src for arch; *image is what load() takes, *text the PTX (CUDA) or NULL. */
    int (*compile)(hw_gpu *g, const char *arch, const char *src, const char *fname, void **image, size_t *size,
                   char **text, char **log);
    int (*load)(hw_gpu *g, int dev, const void *image, size_t size, void **module);
    int (*function)(hw_gpu *g, void *module, const char *name, void **fn);
    void (*unload)(hw_gpu *g, int dev, void *module);
    /* *how: the allocation call actually used, for the record. */
    int (*alloc)(hw_gpu *g, int dev, size_t bytes, memkind_t kind, unsigned long long *ptr, const char **how);
    void (*release)(hw_gpu *g, int dev, unsigned long long ptr, memkind_t kind);
    int (*memset_async)(hw_gpu *g, int dev, unsigned long long ptr, size_t bytes, void *stream);
    int (*to_host)(hw_gpu *g, int dev, void *dst, unsigned long long src, size_t bytes);
    int (*stream)(hw_gpu *g, int dev, void **s);
    void (*stream_free)(hw_gpu *g, int dev, void *s);
    int (*event)(hw_gpu *g, int dev, void **e);
    void (*event_free)(hw_gpu *g, int dev, void *e);
    int (*record)(hw_gpu *g, int dev, void *e, void *s);
    int (*wait)(hw_gpu *g, int dev, void *s, void *e);
    /* params: the ms_params words */
    int (*launch)(hw_gpu *g, int dev, void *fn, unsigned grid, unsigned block, void *stream, unsigned long long *params,
                  int nparams);
    int (*sync)(hw_gpu *g, int dev, void *stream);
    /* Resident blocks of fn per multiprocessor at this block size. */
    int (*occupancy)(hw_gpu *g, int dev, void *fn, int block, int *blocks);
    /* Lets dev access peer's memory; *native_atomics: -1 unknown. */
    int (*peer)(hw_gpu *g, int dev, int peer, int *native_atomics);
    void (*shutdown)(hw_gpu *g);
};

/* 0 when the runtime loaded and has at least one device; -1 with the reason
 * (library not loadable, no device, ...) in why. */
int cuda_open(hw_gpu *g, char *why, size_t whysz);
int hip_open(hw_gpu *g, char *why, size_t whysz);
/* Only the run-time compiler (no driver, no device): for --emit-ptx and CI. */
int cuda_open_compiler(hw_gpu *g, char *why, size_t whysz);
int hip_open_compiler(hw_gpu *g, char *why, size_t whysz);
/* The host simulator (backend_sim.c): runs the HIP kernels as host threads,
 * to test hwrun without a GPU.  Never evidence about a GPU. */
int sim_open(hw_gpu *g, int ngpus, char *why, size_t whysz);

#endif
