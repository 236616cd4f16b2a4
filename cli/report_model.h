/* `memsim report`: runs from hwrun side by side. A row is one test file, with
 * its outcomes (the union over the runs) and, per run, what that run saw; the
 * judging here says, per model and per outcome, which class a count falls in. */
#ifndef MEMSIM_REPORT_MODEL_H
#define MEMSIM_REPORT_MODEL_H

#include <stdio.h>

#include "hwresults.h"

typedef enum {
    CL_ALLOWED_SEEN = 0,
    CL_ALLOWED_UNSEEN,
    CL_FORBIDDEN_SEEN,
    CL_FORBIDDEN_UNSEEN,
    CL_RACY,        /* the model says the program races: every outcome is undefined */
    CL_HANG,        /* an await that never returns, which a model allows */
    CL_CAVEAT,      /* the platform does not give the atomicity the test assumes: not judged */
    CL_UNJUDGED,    /* timed-out awaits the models do not explain */
    CL_NONE,        /* an empty bucket (no other states, no timeouts) */
    CL_UNKNOWN,     /* a class or verdict letter this report does not know: shown as written */
    CL_COUNT
} rp_class;

const char *rp_class_css(rp_class c);     /* "as", "an", "fs", ... */
const char *rp_class_title(rp_class c);   /* "allowed, seen" ... */

/* The class under the run's judging model (hwrun's own class where it wrote one). */
rp_class rp_class_judged(const hr_test *t, const hr_outcome *o);
/* The class under `model`, from the outcome's letter for it and its count. */
rp_class rp_class_model(const hr_test *t, const hr_outcome *o, const char *model);
/* The outcome's letter under `model` (A, F, UB, hang), or "" when the run gives none. */
const char *rp_letter(const hr_outcome *o, const char *model);
/* A CSS class for a test verdict: allowed, forbidden, race, holds, fails, hang, error, or unknown. */
const char *rp_verdict_css(const char *verdict);

typedef struct {
    char *label;
    char *brief;               /* the label without the items every state of the row shares (owned) */
    hr_kind kind;
    bool cond;
    const hr_outcome *first;   /* the first run's copy: values, letters */
} rp_outkey;

typedef struct {
    const char *file, *name;
    const hr_test **per_run;   /* [nruns]; NULL where the run has no such test */
    rp_outkey *outs;
    int nouts;
    const char *models[HR_MAX_MODELS];
    const char *verdicts[HR_MAX_MODELS];   /* per model of the row, from the first run that gives one */
    int nmodels;
    bool kernel;               /* litmus/kernels/ or a run that says so (a `bug` field) */
    int ran;                   /* runs that ran it */
    bool forbidden_seen;       /* some run saw what its judging model forbids */
    bool contradicts[HR_MAX_MODELS];   /* some run saw an outcome this model forbids */
} rp_row;

typedef struct {
    hr_run *runs;
    int nruns;
    rp_row *rows;
    int nrows;
    const char *models[HR_MAX_MODELS];
    int nmodels;
} rp_report;

/* Groups the runs' tests by file. The runs stay owned by the caller. */
void rp_build(rp_report *r, hr_run *runs, int nruns);
void rp_free(rp_report *r);
/* The run's copy of the row's outcome k, or NULL. */
const hr_outcome *rp_find(const hr_test *t, const rp_outkey *k);
/* "H100 x1" style: the devices of a run, named once with a count. */
void rp_devices(const hr_run *run, char *buf, int size);
/* The command that reruns one test as the run did. */
void rp_repro(const hr_run *run, const hr_test *t, char *buf, int size);
/* A kernel run's bug count: "bug seen 224 of 2304, first after 0.356 s (2 launches)", or
 * "bug not seen in 2304 (95% bound 0.0013)"; "" when the run has none. */
void rp_bug_text(const hr_test *t, char *buf, int size);
/* A short human label for a run: its devices and file. */
void rp_run_title(const hr_run *run, char *buf, int size);

#endif
