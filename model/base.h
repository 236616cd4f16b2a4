/* Event sets and relations that every model starts from (models.md §2),
 * derived once per candidate execution. */
#ifndef MEMSIM_BASE_H
#define MEMSIM_BASE_H

#include "exec.h"

typedef struct {
    const execution *x;
    set IW, Rd, Wr, F, BAR, M, A, PLAIN;
    set ACQ, REL, SC, FSC, IMPL, FACQ, FREL;   /* non-implicit unless named IMPL */
    R po, po_loc, sloc, rf, co, fr, rmw, dep, kb, bar;
    R incl;       /* each event's (effective) scope instance holds the other's thread */
    R conflict;   /* same cell, different threads, at least one write, no initial write */
    R cxg;        /* accesses to one coarse-grained cell from different GPUs */
    /* Which base_compute_static call the event-only part comes from: equal
     * in every copy of one such base (the explorer's candidates of one
     * combination of paths), so a model may keep what it derives from the
     * events alone under this key.  0: not to be kept (base_compute). */
    unsigned long skeleton;
} base;

void base_compute(base *b, const execution *x);

/* The same in two steps, for a search that changes only rf and co: the
 * event-only part once into storage that outlives the arena (4 relations),
 * then per candidate the rf/co-dependent part (po_loc, fr) in the arena. */
void base_compute_static(base *b, const execution *x, rel storage[4]);
void base_compute_dynamic(base *b);

/* Effective scope after granularity: coarse memory acts at most at agent. */
scope_t effective_scope(const execution *x, const event *e);
scope_t event_scope(const test *t, const event *e);

/* One pair of the incl relation: each event is in the other's (effective)
 * scope instance.  Needs kind, thread, cell, ord, scope, gpu, wg, wave. */
bool scopes_include(const test *t, const event *a, const event *b);

/* Do two accesses reach their cell the same way: the same proxy through the same
 * generic (virtual) address?  Always true in a test without PTX proxies.  The
 * explorer's shortcuts (a thread reads its own latest write, reads along po are
 * coherent, CoWR and CoRW) hold only for such pairs: under ptx-v7.5.cat, causality
 * between other pairs needs proxy fences (model/ptx75.c). */
bool same_access_path(const test *t, const event *a, const event *b);

#endif
