/* --tune: a random search over testing environments on relaxed control
 * tests (whose weak outcomes the models allow), keeping the environment in
 * which the weak outcomes appear most often per second (summed over the
 * controls as log(1 + rate)), as in MC Mutants / GPUHarbor. */
#ifndef MEMSIM_HWRUN_TUNE_H
#define MEMSIM_HWRUN_TUNE_H

#include <stdio.h>

#include "hwtest.h"

/* The environment to try for round i (round 0: base itself). */
void tune_candidate(hw_env *e, const hw_env *base, int round, uint64_t seed, int min_block);
/* Returns 0 and the best environment in *best, or -1 with a message in err. */
int tune_run(hw_gpu *g, const hw_opts *o, char **files, int nfiles, int rounds, double seconds_each, hw_env *best,
             FILE *log, char *err, int errsz);

#endif
