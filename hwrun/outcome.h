/* Outcome indexing: the table of final states that the hardware histogram is
 * indexed by.  It is the union of the outcomes that explore() found under
 * every model asked for, each with the models that allow it; the device
 * buckets are the table's entries, then one for timed-out awaits, then one for
 * anything else ("other": a state no model produced).  To classify fast on
 * the GPU each shown value is mapped to its position in that item's domain
 * (the values it takes across the table) and the mixed-radix code indexes a
 * dense lookup table. */
#ifndef MEMSIM_HWRUN_OUTCOME_H
#define MEMSIM_HWRUN_OUTCOME_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/explore.h"

enum { OT_MAX_LUT = 16384 };

typedef struct {
    int64_t *vals;          /* one per shown item */
    bool hang, error, cond;
    unsigned allowed;       /* bit m: model m produced this state */
} ot_entry;

typedef struct {
    const test *t;
    int nshow;
    show_item *show;        /* a copy of explore's list */
    int n;                  /* entries */
    ot_entry *e;
    int nmodels;
    const model *models[MAX_MODELS];
    verdict_t verdict[MAX_MODELS];
    bool racy_ub[MAX_MODELS];   /* the model leaves this program undefined (race) */
    bool model_hangs[MAX_MODELS];
    /* Device classification. */
    int *ndom;              /* per shown item */
    int64_t **dom;
    long codes;             /* product of the domain sizes, or -1 when above OT_MAX_LUT */
    int *lut;               /* [2][codes]: [error][code] -> entry or -1 */
} otab;

/* Bucket numbers after the entries.  "Out of heap": an access whose address
 * (var@peer, translate, [ptr]) fell outside the instance's symmetric heaps;
 * the device skips it (never a fault) and stops that thread. */
static inline int ot_bucket_timeout(const otab *o) { return o->n; }
static inline int ot_bucket_other(const otab *o) { return o->n + 1; }
static inline int ot_bucket_ooh(const otab *o) { return o->n + 2; }
static inline int ot_nbuckets(const otab *o) { return o->n + 3; }

/* Builds the table from an exploration; returns 0 or -1 (out of memory). */
int otab_build(otab *o, const test *t, const explore_result *r);
void otab_free(otab *o);

/* The entry with these values and flags, or -1. */
int otab_find(const otab *o, const int64_t *vals, bool hang, bool error);
/* What the device computes: entry, timeout or other bucket for one instance. */
int otab_classify(const otab *o, const int64_t *vals, unsigned status);

/* "P1:r0=1; P1:r1=0" */
void otab_format(const otab *o, const int64_t *vals, char *buf, int size);
/* Whether the test's condition holds in a state given by its shown values
 * (every operand of the condition is shown); false without a condition. */
bool otab_cond(const otab *o, const int64_t *vals);
/* Index of a model in the table, or -1. */
int otab_model(const otab *o, const char *name);

/* Status bits the roles leave for an instance. */
enum { ST_TIMEOUT = 1, ST_ERROR = 2, ST_OOH = 4 };

#endif
