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
/* One diagnosis line (a duplicate is dropped). */
void diag_say(diagnosis *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Puts that a peer reads stale or races with, explained by the SHMEM calls;
 * stale reads are looked for only in a witness of the condition. */
void diagnose_shmem(const test *t, const execution *x, const model_verdict *wv, bool cond_witness, diagnosis *d);

#endif
