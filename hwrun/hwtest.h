/* One test from .lit file to hardware verdicts: parse, explore under the
 * models, plan, generate, compile, run the environment(s), classify. */
#ifndef MEMSIM_HWRUN_HWTEST_H
#define MEMSIM_HWRUN_HWTEST_H

#include "harness.h"

typedef enum {
    TR_RAN = 0,
    TR_SKIPPED,   /* needs more GPUs than present, or a construct hwrun does not run */
    TR_ERROR,     /* compile or runtime failure */
    TR_BAD_INPUT, /* the file does not parse or explore */
} tr_status;

typedef struct {
    double skew_cycles;
    hw_result r;
} hw_skewrun;

typedef struct {
    char *file;
    test *t;
    explore_result er;
    bool have_er;
    otab o;
    bool have_o;
    hw_plan p;
    bool have_p;
    hw_code c;
    bool have_c;
    tr_status status;
    char why[4096];
    int judge;               /* model index in o that decides "forbidden" */
    hw_result total;         /* every environment summed */
    int nskew;
    hw_skewrun *skew;        /* per start skew (tests across GPUs), else one entry */
    double explore_s, compile_s;
    char *ptx;               /* what NVRTC made (CUDA) */
    int nmissing;
    char **missing;          /* intended instructions the PTX lacks */
    /* Relaxed control of the same shape, run in the same environment. */
    char *control_file;
    bool control_ran;
    uint64_t control_k, control_n;
    int devmap[PLAN_MAX_GPUS];
    bool forbidden_seen;
    /* The platform does not promise what the test assumes: a read-modify-write on a host-memory
     * location that threads on two or more devices access, where a device reports no native
     * host atomics (CUDA: CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED = 0; libcu++: system-
     * scope atomics on CPU memory are atomic only when hostNativeAtomicSupported is 1).  Outcomes
     * the judge forbids are then reported as not guaranteed by the platform, never as FORBIDDEN. */
    bool platform_caveat;
    char caveat[512];
    /* More than ANOMALY_FRACTION of the instances ended in states no model produced. */
    bool anomaly;
} hw_testresult;

/* Fraction of instances in states no model produced above which a harness fault is suspected. */
#define HW_ANOMALY_FRACTION 1e-3

typedef struct {
    const model *models[MAX_MODELS];
    int nmodels;
    const char *judge;       /* model name; NULL: ptx for CUDA, src11 for HIP */
    hw_env env;
    uint64_t seed;
    uint64_t instances;      /* per test */
    double seconds;          /* per test */
    int nskews;
    long long skews[32];     /* start-skew sweep (cycles) for tests across GPUs */
    const char *control;     /* NULL, "auto", or a file */
    bool fold_gpus;          /* run every test GPU (rank) of a test on one device: ranks become
                                different kernels/blocks and heaps of that device (--fold-gpus) */
    int verbose;
    const char **defines_names;
    const int64_t *defines_values;
    int ndefines;
} hw_opts;

/* Zeroed options that judge by ptx, src11 and sc, with the default
 * environment: what hwrun starts from before its command line. */
void hw_opts_default(hw_opts *o);

/* Loads, explores, plans and generates (no GPU needed).  Returns 0, or -1
 * with r->status and r->why set. */
int hwtest_prepare(hw_testresult *r, const char *file, backend_t bk, const hw_opts *o);
/* Compiles and runs on g.  seconds/instances: this test's budget. */
int hwtest_run(hw_testresult *r, hw_gpu *g, const hw_opts *o, double seconds, uint64_t instances);
void hwtest_free(hw_testresult *r);

/* The platform caveat above, for a plan placed on devmap's devices of g: true with the reason
 * in why when the platform gives no atomicity for some read-modify-write the test relies on. */
bool host_atomics_caveat(const hw_plan *p, const hw_gpu *g, const int *devmap, char *why, size_t whysz);

/* The control file for a test by its shape (mp_, sb_, lb_, ...), or NULL. */
char *control_for(const char *file, const test *t);
/* Weak (condition-positive) count of a finished run. */
uint64_t weak_count(const hw_testresult *r, const hw_result *res);

#endif
