/* hwrun's JSON runs, read back for `memsim report`: runs of tests on devices,
 * each test with its outcomes, their counts and the models' verdicts. Fields
 * this reader does not know (kernel runs add `bug`, `gpus_folded`, heap
 * information...) are kept as text so that the report shows them too. */
#ifndef MEMSIM_HWRESULTS_H
#define MEMSIM_HWRESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { HR_MAX_MODELS = 8, HR_MAX_DEVICES = 16 };

/* A field the reader does not interpret: its key and its value as compact JSON. */
typedef struct {
    char *key, *text;
} hr_extra;

/* A model's state, no model's state, timed-out awaits, accesses out of the symmetric heap (kernels). */
typedef enum { HR_STATE = 0, HR_OTHER, HR_TIMEOUT, HR_OUT_OF_HEAP } hr_kind;

typedef struct {
    hr_kind kind;
    char *label;              /* "P1:r0=1; P1:r1=0" or "(other state)" ... */
    int nvals;                /* HR_STATE: the state's items, in the JSON's order */
    char **vname;
    double *vval;
    bool cond, hang;          /* the test's condition holds here; an await never returns */
    int nm;                   /* per model: A, F, UB, hang (or what hwrun wrote) */
    char *mname[HR_MAX_MODELS], *letter[HR_MAX_MODELS];
    uint64_t count;
    bool has_ci;
    double lo, hi;            /* 95% Clopper-Pearson interval on count/instances */
    double first_seen_s;      /* < 0: never, or not recorded */
    char *cls;                /* hwrun's class for the judging model, or NULL */
    bool can_hang;            /* HR_TIMEOUT: some model says the test can hang */
    char *sample;             /* HR_OTHER: the sampled states, as text, or NULL */
} hr_outcome;

typedef struct {
    char *file, *name, *status, *reason, *result, *judge, *backend;
    int nverd;
    char *vmodel[HR_MAX_MODELS], *verdict[HR_MAX_MODELS];
    int ngpus, ndevmap;
    int devmap[HR_MAX_DEVICES];
    uint64_t instances, launches, per_launch, seed, barrier_timeouts, condition_count;
    bool has_condition;
    double seconds, explore_seconds;
    char *env;                /* "block=256 m=0 ..." */
    int nenvs;                /* environments (start skews) the count sums over */
    char *control_file;
    bool control_ran;
    uint64_t control_k, control_n;
    bool forbidden_seen, anomaly, caveat;
    char *caveat_reason;
    int nmissing;             /* intended instructions missing from the compiled code */
    bool folded;              /* kernels: ranks folded onto fewer GPUs than the test names */
    bool has_bug;             /* kernels: hwrun's count of instances that show the bug */
    bool bug_seen, bug_model_says;
    uint64_t bug_count, bug_n, bug_first_iter;
    double bug_first_s, bug_upper95;   /* < 0: not recorded */
    char *bug_verdict;        /* the judging model's verdict the bug count is read against */
    hr_outcome *outs;         /* states, then other, then timeouts */
    int nouts;
    hr_extra *extra;
    int nextra;
} hr_test;

typedef struct {
    char *name, *arch;
    int index;
    long long multiprocessors;
} hr_device;

typedef struct {
    char *path, *label;       /* label: the file name without directory and .json */
    char *tool, *date, *host, *command, *backend, *driver, *compiler, *env, *skews, *campaign;
    uint64_t seed, instances_per_test;
    double seconds_per_test;
    hr_device dev[HR_MAX_DEVICES];
    int ndev;
    hr_test *tests;
    int ntests;
    char *summary;            /* hwrun's own summary object, as compact JSON */
    hr_extra *extra;
    int nextra;
} hr_run;

/* Reads one run from a buffer (`path` names it in errors). Returns 0, or -1
 * with "PATH: error: ..." in err naming the field (tests[3].outcomes[1].count). */
int hr_parse(const char *path, const char *text, size_t len, hr_run *run, char *err, int errsize);
int hr_load(const char *path, hr_run *run, char *err, int errsize);
void hr_free(hr_run *run);

#endif
