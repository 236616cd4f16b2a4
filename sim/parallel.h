/* Independent steps spread over threads (parallel.c): the work before the
 * search (each thread's paths, each thread's path filter) under -j N. */
#ifndef MEMSIM_PARALLEL_H
#define MEMSIM_PARALLEL_H

/* Calls step(ctx, i) once for each i in [0, n), on up to `jobs` threads, the
 * caller's among them.  The order is not fixed: step(ctx, i) may write only
 * what belongs to i.  jobs <= 1 runs them in order on the caller's thread. */
void parallel_steps(int n, int jobs, void (*step)(void *ctx, int i), void *ctx);

#endif
