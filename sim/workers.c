/* Worker threads: each walks every part's combinations of thread paths and
 * claims units of the reads-from search (the nodes at the split depth) from
 * a shared counter, so -j N spreads a part's search over N workers. */
#include "explore_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- a part, explored by one worker ------------------------------------------------ */

static void explore_part(explorer *e)
{
    const test *t = e->t;
    shared *sh = e->sh;
    for (int th = 0; th < t->nthreads; th++) {
        e->active[th] = sh->part_of[th] == e->part;
        e->choice[th] = 0;
    }
    e->combo = 0;
    bool single = true;
    long ncombos = 1;
    for (int th = 0; th < t->nthreads; th++) {
        single = single && (!e->active[th] || e->tp[th].n == 1);
        if (e->active[th] && ncombos < (1L << 20))
            ncombos *= e->tp[th].n;
    }
    /* Many combinations (K6: 81 of a few small units each): a worker claims whole ones, so that it builds
       only its own and does not walk the top of every other's. Few: their search units are shared. */
    e->whole = sh->nworkers > 1 && ncombos >= 8L * sh->nworkers;
    for (;;) {
        e->combo++;
        e->combo_unit0 = e->unit;
        if (e->whole) {
            if (e->combo - 1 != e->claimed)
                goto next; /* another worker's */
            e->claimed = __atomic_fetch_add(&sh->next_unit[e->part], 1, __ATOMIC_RELAXED);
        }
        int built = build_combination(e);
        if (built < 0) {
            budget_fail(sh, "%s: error: an execution has more than %d events: too large to explore", t->file, REL_MAX);
            return;
        }
        e->reduce = false;
        if (built == 0) {
            rel_begin(e->x->n);
            base_compute_static(&e->sbase, e->x, e->base_storage);
            commute_setup(e);
            if (e->any_dep) {
                closure_free(&e->rf_dep);
                closure_start(&e->rf_dep, &e->rf_dep_rows, &e->x->dep);
                e->dep_cyclic = !irreflexive(e->rf_dep.closed);
                e->rf_dep_cycle = e->dep_cyclic;
            }
        }
        size_t depths = (size_t)(e->nreads + 1) * sizeof e->prune_tries[0];
        memset(e->prune_tries, 0, depths);
        memset(e->prune_hits, 0, depths);
        memset(e->prune_skips, 0, depths);
        memset(e->order_have, 0, (size_t)(e->nreads + 1) * sizeof e->order_have[0]);
        /* A part with one combination of paths (K8a once its paths are
         * filtered) often has its top reads forced: at depth 3 it would be
         * one unit, one worker's.  Deeper units there; with many
         * combinations each worker walks every combination's top, so the
         * top stays short. */
        int depth = single ? 8 : 3;
        e->split = e->nreads < depth ? e->nreads : depth;
        if (built > 0)
            e->split = -1; /* not an execution: a quorum barrier with too few synchronizing arrivals */
        else if (e->split == 0 && !worth_exploring(e, 0))
            e->split = -1; /* nothing to claim: the combination is impossible */
        if (e->split >= 0)
            enum_rf(e, 0);
    next:; /* a label before a declaration needs a statement in C11 (clang) */
        /* Next combination of the part's thread paths (odometer). */
        int th = 0;
        while (th < t->nthreads && (!e->active[th] || ++e->choice[th] == e->tp[th].n)) {
            if (e->active[th])
                e->choice[th] = 0;
            th++;
        }
        if (th == t->nthreads || should_stop(e))
            break;
    }
}

void *worker_main(void *arg)
{
    worker_arg *wa = arg;
    shared *sh = wa->sh;
    /* Most of the explorer is arrays filled before use: zeroing them all
     * (calloc) cost more than exploring a small test. */
    explorer *e = malloc(sizeof *e);
    memset(e, 0, offsetof(explorer, x));
    memset(&e->forced, 0, sizeof e->forced);
    e->sh = sh;
    e->t = sh->t;
    e->o = sh->o;
    e->tp = sh->tp;
    e->nthreads = sh->t->nthreads;
    e->worker = wa->worker;
    e->x = malloc(sizeof *e->x);
    e->rf_dep = (closure){0};
    e->prune = true;
    for (int m = 0; m < sh->o->nmodels; m++)
        e->prune = e->prune && sh->o->models[m]->prune_order;
    for (int p = 0; p < sh->nparts && !flag_get(&sh->failed); p++) {
        e->part = p;
        e->pr = &sh->results[p * sh->nworkers + wa->worker];
        e->unit = 0;
        e->key = 0;
        e->claimed = __atomic_fetch_add(&sh->next_unit[p], 1, __ATOMIC_RELAXED);
        explore_part(e);
    }
    __atomic_fetch_add(&sh->nodes, e->nodes, __ATOMIC_RELAXED);
    free(e->order_rows);
    closure_free(&e->rf_dep);
    free(e->x);
    free(e);
    /* The arena is per thread; the reports that follow use their own. */
    if (wa->own_thread)
        rel_end();
    return NULL;
}

/* Workers walk the top of the search alike and claim its nodes at the split
 * depth from a shared counter, so a worker whose units die early takes more. */
/* The key numbers units within their combination, so that it is the same whichever worker explores a unit and
   whether workers claim units or whole combinations: in the order of the search, as -j 1 meets them. */
bool claim_unit(explorer *e)
{
    long u = e->unit++;
    if (!e->whole && u != e->claimed)
        return false;
    if (!e->whole)
        e->claimed = __atomic_fetch_add(&e->sh->next_unit[e->part], 1, __ATOMIC_RELAXED);
    e->key = (long)(((unsigned long)e->combo << 40) + ((unsigned long)(u - e->combo_unit0) << 24));
    return true;
}
