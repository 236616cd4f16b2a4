/* Dropping thread paths that no execution can follow (pathfilter.c). */
#ifndef MEMSIM_PATHFILTER_H
#define MEMSIM_PATHFILTER_H

#include "symexec.h"

/* Removes from tp[0 .. t->nthreads) the paths that no consistent execution
 * under any model here can follow; returns how many it removed.  A thread
 * keeps all its paths when none is feasible. */
int pathfilter(const test *t, thread_paths *tp);
/* The same, judging the threads' paths on up to `jobs` threads. */
int pathfilter_jobs(const test *t, thread_paths *tp, int jobs);

/* The value a write stores when it does not depend on what its thread read:
 * constants, and the exchange or CAS whose new value is a constant. */
bool static_value(const test *t, const thread_paths *tp, const pevent *pw, int64_t *v);

/* Does v satisfy every constraint of path p that depends on read ri alone? */
bool satisfies(const thread_paths *tp, const tpath *p, int ri, int64_t v);

#endif
