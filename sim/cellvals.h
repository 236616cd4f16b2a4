/* The values a cell can hold, bounded from the writes every thread path
 * makes to it (pathfilter's rule (d)). */
#ifndef MEMSIM_CELLVALS_H
#define MEMSIM_CELLVALS_H

#include "symexec.h"

/* How often one thread's paths add one constant to a cell. */
typedef struct {
    int thread;
    int64_t delta;
    int min_before_barrier;   /* on every path, before its first barrier */
    int max;                  /* on some path */
} addcount;

typedef struct {
    bool bounded;        /* vals holds every value a write to the cell can have */
    int64_t *vals;
    int nvals;
    /* Every write is a read-modify-write that adds a constant to what it read
     * (0: a CAS writing what it compared with), all morally strong with each
     * other: atomicity makes them one chain, so the last value is the initial
     * one plus the deltas of the RMWs that ran. */
    bool chain;
    int64_t init;
    addcount *adds;
    int nadds;
} cellvals;

/* Per cell of the test, from every path of every thread. */
cellvals *cellvals_build(const test *t, const thread_paths *tp);
void cellvals_free(cellvals *cv, int ncells);

/* False when no values of the path's reads -- each within what its cell can
 * hold, a hanging await's within the cell's possible last values --
 * satisfy the path's constraints and put a value its cell can hold in each
 * of its writes.  Only events before the path's first barrier are judged
 * unless `whole` (the explorer may cut a path at a barrier a peer never
 * reaches, and what follows then never happens). */
bool cellvals_path_feasible(const test *t, const cellvals *cv, const thread_paths *tp, const tpath *p, int th,
                            bool whole);

#endif
