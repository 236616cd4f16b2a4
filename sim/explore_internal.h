/* What the explorer's files share: one part's results per model, the state
 * all workers share, and one worker's explorer over the current combination
 * of thread paths.  Not an interface for anything outside sim/. */
#ifndef MEMSIM_EXPLORE_INTERNAL_H
#define MEMSIM_EXPLORE_INTERNAL_H

#include <pthread.h>
#include <time.h>

#include "explore.h"
#include "symexec.h"

enum { MAX_THREADS = 64, MAX_SHOW = 256, MAX_EXAMPLES = 64, MAX_COMBINED = 1 << 20 };

/* What one part produced under one model. */
typedef struct {
    count_t consistent, hangs, errors, cuts;   /* executions, each candidate weighted (commute.c) */
    outcome *outs;          /* vals over the part's show items; cond unused; counts in exact */
    int nouts, capouts;
    int *hash;              /* open addressing over outs (index + 1, 0 empty): a
                             * test with 2^16 final states must not search them
                             * one by one per candidate; NULL: to be rebuilt */
    int hashcap;
    execution **example;    /* one execution per outcome (the first MAX_EXAMPLES) */
    long *example_key;
    race_report *races;
    int nraces, capraces;
    execution *witness;     /* best race/hang execution */
    model_verdict witness_v;
    int witness_rank;
    long witness_key;
    char hang_msg[1024], error_msg[512], cut_msg[512];
    long hang_key, error_key, cut_key;
} part_model;

typedef struct {
    long candidates;
    part_model pm[MAX_MODELS];
} part_result;

typedef struct {
    const test *t;
    const explore_opts *o;
    thread_paths *tp;
    int nparts;
    int part_of[MAX_THREADS];
    int *pshow[MAX_THREADS];        /* per part: indices into res->show */
    int npshow[MAX_THREADS];
    explore_result *res;
    int nworkers;
    part_result *results;           /* [part][worker] */
    volatile int failed;
    char err[1024];
    struct timespec start;
    long progress_candidates;
    long nodes;
    long next_unit[MAX_THREADS];    /* per part: the next unit a worker may claim */
    pthread_mutex_t lock;
    bool printed_progress;
    /* Stopping early (budget.c). */
    volatile int stop_part[MAX_THREADS];  /* this part has what --first needs */
    volatile int found[MAX_MODELS];       /* the model has its counterexample */
    volatile int found_all;
    bool error_paths;                     /* some thread path ends in an error */
    long total_candidates;                /* over all workers and parts */
    double last_progress;
} shared;

typedef struct {
    shared *sh;
    const test *t;
    const explore_opts *o;
    thread_paths *tp;        /* per thread */
    int choice[MAX_THREADS]; /* path chosen per thread */
    bool active[MAX_THREADS];
    int part, worker;
    part_result *pr;
    long unit;               /* units (search nodes at the split depth) walked */
    long combo_unit0;        /* unit at the start of the current combination */
    long claimed;            /* the unit (or, whole, the combination) this worker explores next */
    bool whole;              /* workers claim whole combinations, before building them */
    int split;               /* depth of the units */
    long key;                /* (combination, unit in it, candidate in it): deterministic choices */
    long nodes;              /* search nodes visited */
    long combo;              /* combinations of thread paths started in this part */
    int at[REL_MAX];         /* the source tried per decided read (progress estimate) */
    /* Per depth of the search, in this combination: the models' prune checks
     * made, those that cut, and those skipped (search.c). */
    long prune_tries[REL_MAX + 1], prune_hits[REL_MAX + 1], prune_skips[REL_MAX + 1];
    /* Per depth: the models' prune orders at the last node of that depth
     * that computed them (rows of n events per model), for its descendants. */
    bool order_have[REL_MAX + 1];
    set *order_rows;
    size_t order_cap;
    /* the current combination */
    execution *x;
    int nthreads;
    int first_ev[MAX_THREADS];
    int nev_of[MAX_THREADS];
    int nreads;
    int read_ev[REL_MAX];
    int read_index[MAX_THREADS][64];  /* thread, local read -> index in read_ev */
    int ncand[REL_MAX];
    int cand[REL_MAX][REL_MAX];
    bool settled[REL_MAX];   /* per read event: every source's value is known */
    int rf_of[REL_MAX];
    bool known[REL_MAX];     /* read's value known (search) */
    int64_t read_vals[MAX_THREADS][64];
    int iw_of_cell[4096 + 64];
    bool hang;
    char hang_msg[1024];
    count_t weight;          /* executions the current candidate stands for (commute.c) */
    const inst *cut_at;      /* a thread's path was cut at a loop bound */
    int cut_bound, cut_thread;
    const inst *error_at;
    const char *error;
    int error_thread;
    bool any_dep;            /* some dependency edge: without one, rf | dep has no cycle */
    /* (rf | dep)+ along the search path, one closure_add per decided read
     * (enum_rf) and undone on the way back, so a node asks "does rf | dep
     * have a cycle?" with one bit instead of a new closure.  Kept only with
     * any_dep. */
    closure rf_dep;
    rel rf_dep_rows;
    bool dep_cyclic;         /* dep alone (never, as dep follows po; kept exact) */
    bool rf_dep_cycle;       /* the current node's answer */
    rel forced;              /* co edges every model forces */
    rel base_storage[4];     /* the event-only relations of the combination */
    base sbase;              /* ... and its sets, computed once per combination */
    bool prune;              /* every model offers a prune order */
    /* commuting RMWs (commute.c) */
    bool reduce;             /* some group in this combination */
    int ngroups;
    int commute_group[REL_MAX];  /* per event: the group of a member RMW's read, or -1 */
    bool chain_read[REL_MAX];    /* per event: a read of a cell whose reads are all RMWs */
    /* coherence enumeration */
    int ncells_w;
    int wcell[REL_MAX];
    int wlist[REL_MAX][REL_MAX];
    int nw[REL_MAX];
    int coperm[REL_MAX][REL_MAX];
} explorer;

static inline double elapsed(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) * 1e-9;
}

/* outcomes.c: show items, the condition over them, one part's outcomes and
 * race reports, and recording a consistent candidate. */
void add_show(explore_result *r, show_item it);
void collect_show(explore_result *r, const cond *c);
bool cond_on_vals(const explore_result *r, const cond *c, const int64_t *vals);
int outcome_slot(part_model *pm, const int64_t *vals, int ns, bool hang, bool error, long key);
race_report *race_slot(part_model *pm, const race_report *r);
void record_candidate(explorer *e, part_model *pm, const model_verdict *v, const int64_t *mem);
bool count_candidate(explorer *e, count_t *c);

/* livelock.c: whether the current candidate, cut at a loop bound, can repeat
 * its looping threads' last iterations for ever (a livelock: a hang); then
 * msg names the threads and iterations. */
bool livelock_find(const explorer *e, char *msg, size_t size);
/* Whether a thread's path stopped before its loop's bound (symexec.c): such a
 * combination is an execution only as a livelock. */
bool livelock_paths_only(const explorer *e);

/* candidate.c: coherence orders of a complete reads-from, each checked. */
void enum_co(explorer *e, int k, int i, bool *used);

/* search.c: the reads-from search and its pruning. */
bool worth_exploring(explorer *e, int decided);
void enum_rf(explorer *e, int r);

/* combination.c: the execution skeleton of one combination of thread paths. */
/* 0, or -1: too many events, or 1: not an execution (a quorum barrier with too few
 * synchronizing arrivals). */
int build_combination(explorer *e);

/* commute.c: orders of commuting RMWs explored once.  commute_setup after a
 * combination's static base; commute_canonical(e, r) false: read r's source
 * makes an order the search does not keep (or breaks atomicity);
 * commute_weight at a leaf sets e->weight (false: too many to count). */
void commute_setup(explorer *e);
bool commute_canonical(explorer *e, int r);
bool commute_weight(explorer *e);

/* workers.c: one worker over every part; claiming units of the search. */
typedef struct {
    shared *sh;
    int worker;
    bool own_thread;   /* a spawned thread: its arena goes with it */
} worker_arg;
void *worker_main(void *arg);
bool claim_unit(explorer *e);

/* budget.c: whether to stop (failure, budget, first counterexample), the
 * progress line, and the check of a recorded candidate for --first. */
/* The shared flags are set by one worker and read by the others while they run: atomic both ways (a plain read
   beside an atomic write is a data race; ThreadSanitizer found them). */
static inline int flag_get(volatile int *f) { return __atomic_load_n(f, __ATOMIC_RELAXED); }
static inline void flag_set(volatile int *f) { __atomic_store_n(f, 1, __ATOMIC_RELAXED); }
static inline bool should_stop(const explorer *e) { return flag_get(&e->sh->failed) || flag_get(&e->sh->stop_part[e->part]); }
void budget_after_candidate(explorer *e);
void budget_after_node(explorer *e);
void budget_after_record(explorer *e, int m, const model_verdict *v, const int64_t *vals);
void budget_fail(shared *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* parts.c: independent parts of the test. */
void split_parts(shared *sh);

/* merge.c: workers' results merged per part, parts combined per model. */
void part_model_free(part_model *pm);
void merge_part_model(part_model *dst, part_model *src, int ns);
void sort_part(part_model *pm, int ns);
int combine_parts(shared *sh, int m);
void model_result_set_longs(model_result *mr);

/* explore.c: one exploration of the test as it is. */
int explore_once(const test *t, const explore_opts *o, explore_result *res);
/* coresidency.c: hangs of kernels launched without a co-residency guarantee. */
int check_coresidency(const test *t, const explore_opts *o, explore_result *res);

#endif
