/* Kernel generation from the shared IR.  codegen.c writes everything both
 * back ends share (placement of roles, the parallel testing environment,
 * bounded start barrier, start skew, memory stress, the check kernel that
 * classifies each instance into memsim's outcome table and resets memory);
 * codegen_cuda.c and codegen_hip.c supply the memory instructions. */
#ifndef MEMSIM_HWRUN_CODEGEN_H
#define MEMSIM_HWRUN_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>

#include "outcome.h"
#include "plan.h"
#include "util.h"

typedef enum { BK_CUDA = 0, BK_HIP } backend_t;

/* The kernel parameter block: one array of 64-bit words, the same layout in
 * the generated code (struct ms_params) and in the harness. */
enum {
    PI_N = 0,        /* instances per launch (a power of two) */
    PI_M,            /* testing blocks per group (a power of two) */
    PI_R,            /* rows of instances per block */
    PI_LAUNCH,       /* launch number since the buffers were set up */
    PI_ZERO,         /* always 0; the compiler cannot know it (keeps dependencies) */
    PI_BMUL,         /* block shuffle: vb = (blockIdx * BMUL + BOFF) mod gridDim */
    PI_BOFF,
    PI_LMUL,         /* lane shuffle inside a row: odd multiplier, offset */
    PI_LOFF,
    PI_SEED,         /* per-launch random word (partner blocks, stress lines) */
    PI_REGS,         /* i64 [nshow][N] registers out */
    PI_STATUS,       /* u32 [N] status bits (ST_TIMEOUT, ST_ERROR) */
    PI_HIST,         /* u64 [nbuckets + 1] histogram; the last word counts start-barrier timeouts */
    PI_EXTRA,        /* i64 [EXTRA_CAP][nshow] states no model produced */
    PI_EXTRA_N,      /* u32 count of them */
    PI_BAR,          /* u32 start-barrier counter of this kernel's level */
    PI_BAR_TARGET,   /* value the counter reaches once every block of the level arrived */
    PI_BAR_BUDGET,   /* clock cycles to wait at the start barrier; 0: no barrier */
    PI_SKEW_A,       /* start delay in cycles: SKEW_A + key * SKEW_B, key = warp-uniform 0..32 */
    PI_SKEW_B,
    PI_TIMEOUT,      /* clock cycles an await spins before giving up */
    PI_SCRATCH,      /* u32 stress memory of this kernel's device */
    PI_SCRATCH_LINES,
    PI_LINE_WORDS,
    PI_STRESS_ITERS,
    PI_STRESS_PATTERN, /* 0 st-st, 1 st-ld, 2 ld-st, 3 ld-ld */
    PI_STRESS_TARGETS, /* how many distinct lines the stressing blocks hit */
    PI_PRE_ITERS,    /* stress iterations by testing threads before the test */
    PI_MODE,         /* check kernel: 0 classify and reset, 1 reset only */
    PI_NTEST,        /* testing blocks in this kernel (groups * M) */
    PI_LOC0          /* then per location: base, slot multiplier, slot offset, spacing in bytes */
};
#define PI_LOC_BASE(l) (PI_LOC0 + 4 * (l))
#define PI_LOC_MUL(l) (PI_LOC0 + 4 * (l) + 1)
#define PI_LOC_OFF(l) (PI_LOC0 + 4 * (l) + 2)
#define PI_LOC_SPACE(l) (PI_LOC0 + 4 * (l) + 3)
#define PI_COUNT(nlocs) (PI_LOC0 + 4 * (nlocs))
/* Then, for a test with a symmetric heap: the bytes of one instance's heap
 * slice, and per rank the heap's base and its slot permutation (multiplier,
 * offset).  Instance i's heap on rank r starts at BASE(r) + slot_r(i) * SIZE:
 * the device builds Iris's heap-base table from these. */
#define PI_HEAP_SIZE(nlocs) (PI_LOC0 + 4 * (nlocs))
#define PI_HEAP_BASE(nlocs, r) (PI_LOC0 + 4 * (nlocs) + 1 + 3 * (r))
#define PI_HEAP_MUL(nlocs, r) (PI_LOC0 + 4 * (nlocs) + 2 + 3 * (r))
#define PI_HEAP_OFF(nlocs, r) (PI_LOC0 + 4 * (nlocs) + 3 + 3 * (r))
/* The parameter words of a test (with its heap's). */
int hw_nparams(const test *t);
/* Whether location l is rank *rank's copy of heap variable *var. */
bool heap_loc(const test *t, int l, int *rank, int *var);

enum { EXTRA_CAP = 1024 };

typedef struct {
    char *src;            /* the whole translation unit */
    int nkernels;
    char **kernel_names;  /* per plan kernel */
    char *check_name;
    int nparams;
    int nexpect;
    char **expect;        /* instruction spellings the compiled code must contain (CUDA: PTX) */
} hw_code;

/* The memory instructions of one back end. */
typedef struct {
    const char *name;
    void (*header)(sbuf *b);                 /* once per translation unit */
    void (*prelude)(sbuf *b);                /* helpers, inside the test's namespace */
    /* addr: a u64 expression; dst: an i64 lvalue */
    void (*load)(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *dst);
    void (*store)(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *val);
    /* val, val2: i64 expressions (val2 for cas only) */
    void (*rmw)(sbuf *b, const char *ind, vtype_t ty, const inst *in, const char *addr, const char *dst,
                const char *val, const char *val2);
    void (*fence)(sbuf *b, const char *ind, const inst *in);
    /* What the compiled code must contain for this instruction (NULL: nothing checked). */
    void (*expect)(sbuf *b, vtype_t ty, const inst *in);
} hw_emitter;

extern const hw_emitter emit_cuda, emit_hip;

/* Generates the translation unit.  prefix names the namespace and kernels so
 * that several tests can share one file (the CI compile checks); NULL means
 * "ms".  with_header: emit the #include lines too. */
int codegen(hw_code *c, backend_t b, const hw_plan *p, const otab *o, const char *prefix, int with_header,
            char *err, size_t errsz);
void code_free(hw_code *c);
/* Just the header lines of a back end (for combined files). */
void codegen_header(sbuf *b, backend_t bk);

/* Names shared by both emitters. */
const char *ptx_scope(scope_t s);
const char *hip_scope(scope_t s);

#endif
