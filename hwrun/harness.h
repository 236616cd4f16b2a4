/* Runs a generated test on real GPUs: allocation by the scope tree and the
 * locations' homes and granularities, many instances per launch, per-launch
 * random thread-to-instance and location permutations, stress blocks, a
 * bounded start barrier, start skew for roles on different GPUs, and the
 * on-device histogram indexed by memsim's outcome table. */
#ifndef MEMSIM_HWRUN_HARNESS_H
#define MEMSIM_HWRUN_HARNESS_H

#include <stdint.h>

#include "gpu.h"

/* One testing environment (the parameters --tune searches). */
typedef struct {
    int block;            /* threads per block (a multiple of 32) */
    int m;                /* testing blocks per work-group, a power of two; 0: as many as stay resident */
    int stress_blocks;    /* extra blocks per kernel that only stress memory */
    int stress_iters;     /* iterations of each stressing thread */
    int stress_pattern;   /* 0 st-st, 1 st-ld, 2 ld-st, 3 ld-ld */
    int stress_targets;   /* distinct scratch lines the stress hits */
    int line_words;       /* words per scratch line */
    int pre_iters;        /* stress by testing threads before the start barrier */
    int barrier;          /* bounded start barrier on/off */
    int spacing;          /* bytes between two instances' copies of a location */
    long long skew;       /* cycles: relative start of roles on different GPUs swept over [-16, 16] * skew */
    long long timeout;    /* cycles an await spins before it is counted as a timeout */
    long long bar_budget; /* cycles a block waits at the start barrier */
} hw_env;

void env_default(hw_env *e);
/* "block=256 m=0 stress_blocks=64 ..." and back; returns 0 or -1 on an unknown key. */
void env_format(const hw_env *e, char *buf, int size);
int env_parse(hw_env *e, const char *text, char *err, int errsz);

/* What one environment gave. */
typedef struct {
    hw_env env;
    uint64_t seed;
    uint64_t instances, launches, per_launch;
    double seconds;
    int nbuckets;             /* outcome table entries + timeout + other */
    uint64_t *hist;           /* nbuckets */
    uint64_t barrier_timeouts;/* blocks that left the start barrier on its budget */
    double *first_seen;       /* per bucket: seconds into the run of the batch that first showed it, or -1 */
    uint64_t *first_launches; /* per bucket: launches (host iterations of the test) done by then */
    bool folded;              /* several test GPUs (ranks) ran on one device (--fold-gpus) */
    char heap_alloc[256];     /* the symmetric heap's allocations as made, per rank */
    int nextra;
    int64_t *extra_vals;      /* nextra * nshow: states no model produced */
    uint64_t *extra_count;
    uint64_t extra_dropped;   /* seen but not sampled (more than EXTRA_CAP in one batch) */
} hw_result;

void result_free(hw_result *r);
/* Adds b's counts into a (same test). */
void result_add(hw_result *a, const hw_result *b, int nshow);

typedef struct hw_session hw_session;

/* Compiles the code for the devices and loads it.  devmap[d]: the physical
 * device that plays the plan's device d.  *compile_text gets the PTX
 * (CUDA) of the first device's architecture, when there is one. */
int session_open(hw_session **s, hw_gpu *g, const hw_plan *p, const otab *o, const hw_code *c, const int *devmap,
                 char **compile_text, double *compile_seconds, char *err, int errsz);
/* Runs one environment until max_instances or max_seconds, whichever first. */
int session_run(hw_session *s, const hw_env *env, uint64_t seed, uint64_t max_instances, double max_seconds,
                hw_result *out, char *err, int errsz);
/* The instances one launch runs in this environment (0 when it cannot run). */
uint64_t session_per_launch(hw_session *s, const hw_env *env);
void session_close(hw_session *s);

#endif
