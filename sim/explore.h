/* Exhaustive exploration of a test's candidate executions under one or more
 * models: thread paths x reads-from x coherence order, each candidate checked
 * by every model, outcomes, races and hangs collected per model. */
#ifndef MEMSIM_EXPLORE_H
#define MEMSIM_EXPLORE_H

#include <stdio.h>

#include "count.h"
#include "../model/model.h"
#include "../ir/ir.h"

enum { MAX_MODELS = 8 };

/* When the search may stop before it has seen every execution. */
typedef enum {
    FIRST_NEVER = 0,        /* every execution: full outcome tables */
    FIRST_ALWAYS,           /* --first: once every model has a counterexample
                             * (a race where races are undefined, a hang, an
                             * error, or an execution showing the condition) */
    FIRST_IF_RACE,          /* the expectations ask for a race under models
                             * where races are undefined: the first race
                             * decides, unless some thread path can end in an
                             * error (then every execution is explored) */
} first_mode;

typedef struct {
    const model *models[MAX_MODELS];
    int nmodels;
    bool progress;          /* a progress line on stderr after a second */
    int jobs;               /* worker threads (0 or 1: one) */
    first_mode first;
    long max_executions;    /* candidate executions checked, 0: no limit */
    long max_memory_mb;     /* resident memory, 0: no limit */
    bool no_reduce;         /* --no-reduce: every order of commuting RMWs explored (sim/commute.c) */
} explore_opts;

/* What the final state shows: registers and cells of the condition, or every
 * register and cell when the test has none. */
typedef struct {
    bool is_mem;
    int thread, reg, cell;
} show_item;

typedef struct {
    int64_t *vals;
    bool hang, error, cond;
    long count;             /* executions: count_long(exact), for comparisons */
    count_t exact;          /* executions, exact (printers use this) */
} outcome;

typedef struct {
    int ta, tb;             /* threads */
    const inst *a, *b;      /* instructions */
    event ea, eb;
    const char *why;
    long count;             /* executions: count_long(exact) */
    count_t exact;
    long key;               /* the execution ea, eb came from (the lowest) */
    int sub;                /* its place among that execution's races: ties of key, ordered as -j 1 finds them */
} race_report;

typedef struct {
    const model *m;
    /* Executions, as longs for comparisons (count_long: LONG_MAX when a count
     * does not fit); the exact counts, which every printer uses, below. */
    long consistent, positive, negative, hangs, errors;
    struct {
        count_t consistent, positive, negative, hangs, errors, cuts;
    } exact;
    outcome *outs;
    int nouts, capouts;
    race_report *races;
    int nraces, capraces;
    execution *witness;     /* the execution to draw */
    model_verdict witness_v;
    int witness_rank;       /* how interesting the stored witness is */
    char hang_msg[1024];    /* the first hang, in the user's terms (with its co-residency advice) */
    long cuts;              /* consistent executions cut at a loop's unrolling bound (not in outs) */
    char cut_msg[512];      /* the first cut, in the user's terms */
    char error_msg[512];
} model_result;

typedef struct {
    const test *t;
    show_item *show;
    int nshow;
    long candidates;        /* complete candidate executions checked by the models */
    long nodes;             /* partial executions the search visited */
    double seconds;
    int nparts;             /* independent parts the test split into */
    bool stopped_first;     /* the search stopped at the first counterexample:
                             * states and counts are those found until then */
    int nmodels;
    model_result mr[MAX_MODELS];
    char err[1024];
} explore_result;

/* Returns 0, or -1 with a message in res->err (the test is too large, ...). */
int explore(const test *t, const explore_opts *o, explore_result *res);
void explore_result_free(explore_result *r);

/* The verdict a model gives the test: race, hang, or the condition's. */
verdict_t result_verdict(const test *t, const model_result *mr);
/* herd's "Ok": the condition as written (exists / ~exists / forall) holds. */
bool result_ok(const test *t, const model_result *mr);
/* Whether an expectation line matches the verdict. */
bool expectation_met(const test *t, const model_result *mr, verdict_t expected);

#endif
