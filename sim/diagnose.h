/* Explains a model's witness execution in the user's terms: which release
 * was too narrow for which acquire, which stores a release does not cover
 * (a missing workgroup barrier), which cache modifier was used as if it
 * ordered, which reads were stale in a counterexample. */
#ifndef MEMSIM_DIAGNOSE_H
#define MEMSIM_DIAGNOSE_H

#include "explore.h"

enum { DIAG_MAX = 8, DIAG_LEN = 600 };

typedef struct {
    int n;
    char line[DIAG_MAX][DIAG_LEN];
} diagnosis;

void diagnose(const test *t, const model_result *mr, diagnosis *out);

#endif
