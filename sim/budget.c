/* When the search stops before the end, and what the user sees meanwhile:
 * the budgets (--max-executions, --max-memory) end the run with a message
 * that names the test and what was explored; --first ends each part once
 * every model has its counterexample and the part has a consistent
 * execution per model (so that the parts still combine); the progress line
 * shows executions per second and, where the search tree allows one, an
 * estimate of the time left. */
#include "explore_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void budget_fail(shared *sh, const char *fmt, ...)
{
    pthread_mutex_lock(&sh->lock);
    if (!flag_get(&sh->failed)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sh->err, sizeof sh->err, fmt, ap);
        va_end(ap);
        flag_set(&sh->failed);
    }
    pthread_mutex_unlock(&sh->lock);
}

static long resident_mb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    long size = 0, res = 0;
    if (fscanf(f, "%ld %ld", &size, &res) != 2)
        res = 0;
    fclose(f);
    return res * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

/* What was explored so far, for the budget messages. */
static void explored_so_far(const explorer *e, char *buf, size_t size)
{
    const shared *sh = e->sh;
    long n = __atomic_load_n(&sh->total_candidates, __ATOMIC_RELAXED);
    if (e->o->max_executions > 0 && n > e->o->max_executions)
        n = e->o->max_executions; /* the one over the budget was not checked */
    snprintf(buf, size,
             "explored %ld candidate executions (%s consistent under %s in this worker) and %ld search nodes, "
             "in part %d of %d, in %.1f s",
             n, count_str(e->pr->pm[0].consistent, (char[COUNT_DIGITS]){0}),
             e->o->models[0]->name, e->nodes, e->part + 1, sh->nparts, elapsed(&sh->start));
}

/* The fraction of the current part's search done, read from the position
 * in the tree: combinations of thread paths, then the source tried at each
 * decided read.  It assumes subtrees of equal cost, hence "about". */
static double fraction_done(const explorer *e)
{
    double combos = 1;
    for (int th = 0; th < e->nthreads; th++)
        if (e->active[th])
            combos *= e->tp[th].n;
    double f = 0, w = 1;
    for (int d = 0; d < e->nreads && d < 24; d++) {
        if (e->ncand[d] <= 0)
            break;
        w /= e->ncand[d];
        f += e->at[d] * w;
    }
    return ((double)(e->combo - 1) + f) / combos;
}

static void progress(explorer *e)
{
    shared *sh = e->sh;
    double t = elapsed(&sh->start);
    if (t < 1.0 || t - sh->last_progress < 0.5)
        return;
    sh->last_progress = t;
    long n = __atomic_load_n(&sh->total_candidates, __ATOMIC_RELAXED);
    char est[64] = "";
    double f = fraction_done(e);
    if (f > 0.01 && f < 1.0)
        snprintf(est, sizeof est, ", about %.0f s left in this part", t * (1.0 - f) / f);
    fprintf(stderr, "\rmemsim: %s: part %d of %d, %ld executions, %.0f/s%s   ", e->t->name, e->part + 1, sh->nparts, n,
            n / t, est);
    sh->printed_progress = true;
}

/* Every 256 candidates or search nodes: memory and progress. */
static void tick(explorer *e)
{
    if (e->o->max_memory_mb > 0) {
        long mb = resident_mb();
        if (mb > e->o->max_memory_mb) {
            char so_far[256];
            explored_so_far(e, so_far, sizeof so_far);
            budget_fail(e->sh, "%s: error: test '%s' stopped at %ld MB of memory (--max-memory %ld MB): %s; no verdict",
                        e->t->file, e->t->name, mb, e->o->max_memory_mb, so_far);
        }
    }
    if (e->o->progress && e->worker == 0)
        progress(e);
}

void budget_after_candidate(explorer *e)
{
    shared *sh = e->sh;
    long n = __atomic_add_fetch(&sh->total_candidates, 1, __ATOMIC_RELAXED);
    if (e->o->max_executions > 0 && n > e->o->max_executions) {
        char so_far[256];
        explored_so_far(e, so_far, sizeof so_far);
        budget_fail(sh,
                    "%s: error: test '%s' stopped at the budget of %ld candidate executions (--max-executions): %s; "
                    "no verdict (raise the budget, or try --first for the first counterexample)",
                    e->t->file, e->t->name, e->o->max_executions, so_far);
        return;
    }
    if ((e->pr->candidates & 255) == 0)
        tick(e);
}

void budget_after_node(explorer *e)
{
    if ((e->nodes & 1023) == 0)
        tick(e);
}

/* Does this consistent candidate show the condition's interesting side?
 * Only a test of one part has its whole final state in one candidate. */
static bool shows_condition(const explorer *e, const int64_t *part_vals)
{
    const shared *sh = e->sh;
    const test *t = e->t;
    if (!t->cond || sh->nparts != 1)
        return false;
    int64_t vals[MAX_SHOW];
    const explore_result *res = sh->res;
    for (int i = 0; i < res->nshow; i++) {
        const show_item *s = &res->show[i];
        const location *L = s->is_mem ? &t->locs[cell_loc(t, s->cell)] : NULL;
        vals[i] = L ? L->init[s->cell - L->first_cell] : 0;
    }
    for (int i = 0; i < sh->npshow[0]; i++)
        vals[sh->pshow[0][i]] = part_vals[i];
    bool cv = cond_on_vals(res, t->cond, vals);
    return t->quant == Q_FORALL ? !cv : cv;
}

void budget_after_record(explorer *e, int m, const model_verdict *v, const int64_t *vals)
{
    shared *sh = e->sh;
    const explore_opts *o = e->o;
    if (o->first == FIRST_NEVER)
        return;
    if (!flag_get(&sh->found[m])) {
        bool ub_race = v->nraces > 0 && o->models[m]->races_are_ub;
        bool counter = o->first == FIRST_IF_RACE
                           ? ub_race && !sh->error_paths
                           : ub_race || e->hang || e->error_at || shows_condition(e, vals);
        if (counter) {
            flag_set(&sh->found[m]);
            bool all = true;
            for (int k = 0; k < o->nmodels; k++)
                all = all && flag_get(&sh->found[k]);
            if (all)
                flag_set(&sh->found_all);
        }
    }
    if (!flag_get(&sh->found_all))
        return;
    /* The part may stop once each model has a consistent execution in it. */
    for (int k = 0; k < o->nmodels; k++)
        if (count_is_zero(e->pr->pm[k].consistent))
            return;
    flag_set(&sh->stop_part[e->part]);
}
