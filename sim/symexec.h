/* Symbolic execution of one thread: every control-flow path through its code,
 * with the value of each read left symbolic.  Branches, array indices and
 * awaits on read values fork the path and add a constraint; the explorer
 * later picks reads-from and keeps the paths whose constraints hold. */
#ifndef MEMSIM_SYMEXEC_H
#define MEMSIM_SYMEXEC_H

#include <stddef.h>
#include <stdint.h>

#include "../model/exec.h"
#include "../ir/ir.h"

typedef enum { S_CONST = 0, S_READ, S_BIN, S_UN, S_RMW } symkind_t;

typedef struct {
    uint8_t kind;
    uint8_t op;          /* binop_t for S_BIN, exprkind_t for S_UN */
    int32_t a, b;        /* operand nodes; read index for S_READ */
    int32_t origin;      /* an address: 1 + the heap variable it was taken from (&v, then
                            translate and +/- offsets keep it); 0: none */
    int64_t value;       /* S_CONST; the rmwop_t for S_RMW (a: old value, b: operand) */
    uint64_t deps;       /* reads of this thread the value depends on */
} symnode;

typedef struct {
    evkind_t kind;
    int cell;
    order_t ord;
    scope_t scope;
    int sym;             /* W: value; R: its S_READ node */
    int read;            /* R: index among the thread's reads */
    int partner;         /* RMW: index of the other half in this path, or -1 */
    uint64_t addr, data, ctrl;   /* reads this event depends on, by kind */
    bool implicit, await_hang;
    int bar;             /* BA/BW: which barrier of the thread (per name, for named barriers) */
    bool bar_named;      /* BA/BW: a named barrier, matched across threads by bar_key */
    int64_t bar_key;
    int bar_quorum;      /* BA/BW: threads that must arrive (Dat3M's quorum), 0: every participant */
    bool bar_nosync;     /* BA: a quorum barrier's arrival that is not among the synchronizing ones */
    scope_t bar_scope;   /* BA/BW: the execution scope whose instance takes part */
    const inst *src;
} pevent;

/* Whether an event of kind `kind` made by `src` completes the SHMEM updates its
 * thread has in flight (puts, non-fetching AMOs, signal_op): a quiet (also
 * barrier_all's), the release that a fence places, put_signal's release signal,
 * or a workgroup barrier -- the library's block pattern is put_block;
 * __syncthreads(); one thread quiets, and a quiet completes what its PE issued
 * before it, in any thread (docs/models.md §7, "Updates in flight"). */
static inline bool shmem_completes(const inst *src, evkind_t kind)
{
    if (!src)
        return false;
    if (kind == EV_BA)
        return true;
    if (kind == EV_F)
        return src->shmem_role == SHM_QUIET || src->shmem_role == SHM_FENCE;
    return kind == EV_R && src->shmem_role == SHM_SIGNAL && src->ord == ORD_RELEASE;
}

/* The event a path's access stands for in thread th, for the models' scope and placement
 * questions (scopes_include...) asked before an execution exists. */
event pevent_event(const test *t, int th, const pevent *pe);

typedef struct {
    pevent *ev;
    int nev;
    int *cons;           /* nodes that must evaluate to non-zero */
    int ncons;
    int *regs;           /* final register values (nodes) */
    int nreads;
    int nbar;
    bool hung;           /* stopped in an await that never succeeds */
    const inst *hung_loop;  /*   or in this while loop, whose iterations change nothing */
    const inst *cut_at;  /* stopped at a while loop's unrolling bound (its condition still held) */
    int cut_bound;       /*   after this many iterations */
    int *iter_ev;        /*   the cut loop's iterations: iteration i (1..cut_bound) is events
                              iter_ev[i-1] .. iter_ev[i]-1 (NULL: not known) */
    bool cut_early;      /*   stopped before the bound, still looping: only a livelock
                              (sim/livelock.c) keeps such a path; never a cut */
    bool cut_quiet;      /*   its last iteration changed nothing (then a path that hangs
                              there, hung_loop, stands for the repetition) */
    int *iter_regs;      /*   registers (nodes) at its entry (0) and after iteration i (i):
                              iter_regs[i * nregs + r] (sim/livelock.c) */
    const inst *error_at;   /* stopped by a run-time error (index, pointer) */
    char *error;
    const inst *warn_at;    /* went on after a problem: a translated address */
    char *warn;             /*   that lands in another variable, a dropped FP atomic */
} tpath;

typedef struct {
    tpath *v;
    int n, cap;
    symnode *pool;
    int npool, poolcap;
    int nregs;
} thread_paths;

/* Flag in an S_RMW node's value: min/max compare as unsigned. */
#define RMW_UNSIGNED 0x100

enum { MAX_PATHS_PER_THREAD = 1 << 14, MAX_READS_PER_THREAD = 64 };

/* Returns 0, or -1 with a message naming the thread and line in err. */
int symexec_thread(const test *t, int tid, thread_paths *out, char *err, size_t errsz);
void thread_paths_free(thread_paths *tp);
void tpath_free(tpath *p);

/* Evaluates node k given the values of the thread's reads (memo may be NULL). */
int64_t sym_eval(const thread_paths *tp, int k, const int64_t *reads);
int64_t apply_binop(binop_t op, int64_t a, int64_t b);
int64_t apply_rmw(rmwop_t op, int64_t old, int64_t operand);

#endif
