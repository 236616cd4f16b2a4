/* A memory model: a consistency predicate over candidate executions and, for
 * models where racy programs are undefined, a race detector. */
#ifndef MEMSIM_MODEL_H
#define MEMSIM_MODEL_H

#include "base.h"

enum { MAX_RACES_PER_EXEC = 16 };

typedef struct {
    int a, b;            /* events */
    const char *why;     /* "plain access", "scopes do not include each other", ... */
} race_pair;

typedef struct {
    bool consistent;
    const char *failed;  /* the first axiom that failed */
    int nraces;
    race_pair races[MAX_RACES_PER_EXEC];
} model_verdict;

typedef struct model {
    const char *name;
    const char *title;
    bool races_are_ub;
    bool proxies;        /* reads PTX proxies (test.uses_proxies); the other models refuse such tests */
    void (*check)(const base *b, model_verdict *out);
    /* For pruning: an order that only grows as rf grows and that every
     * consistent completion respects: same-location writes it orders are in
     * that order in co, and no read may read a write that it orders after
     * the read or before another write to the location that it orders before
     * the read.  NULL: this model prunes nothing. */
    R (*prune_order)(const base *b);
} model;

extern const model model_src11, model_ptx, model_sc, model_vulkan, model_ptx75;
extern const model *const all_models[];   /* NULL-terminated */
const model *model_find(const char *name);

/* Shared by the DRF models: records a race with its reason. */
void verdict_add_race(model_verdict *v, int a, int b, const char *why);
/* Pairs ordered only through kernel boundaries: hb? ; kb ; hb?  (either way). */
R kernel_ordered(R hb, R kb);

/* For models whose co is partial (ptx, vulkan): the explorer's total co,
 * which gives the final state, is coherent with what each thread read --
 * its own earlier write is before the write it reads (CoWR), and a write
 * after a read is after the write read when incl relates them (CoRW).  The
 * explorer's pruning assumes exactly this, so verdicts do not depend on it. */
bool final_state_coherent(const base *b);

/* Whether some total order of the events in `fences` -- each thread's in program order -- makes
 * holds(ctx, order restricted to `pairs`) true.  The order is searched prefix by prefix, each
 * placed fence before every fence not yet placed; since the axioms only get harder as the order
 * grows, a prefix that already breaks one prunes every completion.  PTX's sc order (ptx.c) and
 * Dat3M's sync_fence (ptx75.c) are found this way.  On failure v->failed names the axiom. */
typedef bool (*order_axioms)(const void *ctx, R order, model_verdict *v);
bool fence_order_exists(const base *b, set fences, R pairs, order_axioms holds, const void *ctx, model_verdict *v);

/* Does the order rule out every completion of the rf decided so far? */
bool violates_prune_order(const base *b, R order, set decided_reads);
/* The same, for the rules that involve read r: what a search checks when r
 * is the one read decided since the order was last checked. */
bool violates_prune_order_at(const base *b, R order, set decided_reads, int r);

#endif
