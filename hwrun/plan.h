/* Placement of a test on real GPUs, shared by both code generators and the
 * harness.  The scope tree decides it:
 *   - each (kernel, work-group) of the test is a "group": its threads share a
 *     block; different groups run in different blocks (group j of a kernel
 *     gets the blocks whose shuffled index is j mod J);
 *   - inside a group each wave is a warp of its own (threads without a wave
 *     are each their own wave), threads of one wave are lanes of one warp;
 *   - kernels on different test GPUs run on different devices.
 * A launch runs N = M * R * L instances: M blocks per group, R rows of
 * instances per block (R = warps per block / most waves in a group, rounded
 * down to a power of two) and L instances per row (32 / most threads in one
 * wave, rounded down to a power of two).  Every hardware thread plays one
 * role of one instance. */
#ifndef MEMSIM_HWRUN_PLAN_H
#define MEMSIM_HWRUN_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "../ir/ir.h"

enum { PLAN_MAX_GPUS = 16, PLAN_MAX_REGS = 256 };

typedef struct {
    int nthreads;
    int *threads;        /* test thread indices, in test order */
    int nwaves;
    int *wave_size;      /* threads per wave */
    int nbar;            /* barriers every thread of the group passes */
    int wg;              /* the test's work-group number */
} hw_group;

typedef struct {
    int kernel;          /* index in test.kernels */
    int gpu;             /* test GPU */
    int dev;             /* rank of that GPU among the used ones: the device */
    int ngroups;
    hw_group *groups;
    int level;           /* 0 for kernels nothing runs before; kernels of a level run together */
    int nafter;
    int *after;          /* indices (in plan.k) of the kernels that must finish first (transitive) */
    bool host;           /* the host's writes between launches (a host block's st/fill step) */
} hw_kernel;

typedef struct {
    int pk;              /* index in plan.k */
    int group;
    int wave;            /* index of its wave inside the group */
    int lane;            /* position among the threads of its wave */
} hw_role;

typedef struct {
    const test *t;
    int nk;
    hw_kernel *k;        /* kernels that have threads, in a topological order */
    hw_role *role;       /* per test thread */
    int vmax, cmax;      /* most waves in a group, most threads in a wave */
    int L;               /* instances per row */
    int nlevels;
    int ngpus;           /* test GPUs used (threads, kernels, memory homes) */
    int gpu_of_dev[PLAN_MAX_GPUS];
    int dev_of_gpu[64];
    bool uses_host;      /* a location lives in host memory */
    char why[512];       /* why it cannot run on hardware, when plan_build fails */
} hw_plan;

/* 0, or -1 with the reason in p->why (a barrier under if, unequal barriers
 * in one work-group, too many GPUs, ...). */
int plan_build(hw_plan *p, const test *t);
void plan_free(hw_plan *p);

/* Rows of instances per block for a block size (threads), or 0 when the
 * block is too small for the largest group. */
int plan_rows(const hw_plan *p, int block);

/* The location's element size in bytes. */
int loc_size(const location *l);
/* The location a memory operand names without computing an address: a plain
 * location, or a heap variable of the thread's own rank (gpu); -1 for
 * var@peer and [ptr], which the device resolves through the heap-base table. */
int mem_static_loc(const test *t, int gpu, const memref *m);

/* Static values, for loops that hold barriers (the generator unrolls them):
 * e's value in thread T when it depends only on constants and registers that
 * are assigned once at the top level from such values (a template's indices),
 * or on registers given in ov (where ovs says so). */
bool thread_static_value(const thread *T, const expr *e, const int64_t *ov, const bool *ovs, int64_t *out);
/* A loop's bounds and step, known statically (step > 0, at most 4096 iterations). */
bool static_loop(const thread *T, const inst *in, const int64_t *ov, const bool *ovs, int64_t *lo, int64_t *hi,
                 int64_t *step);
bool block_has_barrier(const block *b);

#endif
