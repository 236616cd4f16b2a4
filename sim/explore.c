/* The explorer.  A test is split into parts that share no location, no
 * workgroup and no fence.sc (they interact only through kernel order, which
 * cannot add an ordering inside a part), each part is explored alone, and
 * the parts' outcomes are combined as a product.  Inside a part: each
 * combination of thread paths, then a depth-first search over reads-from
 * that prunes a partial choice as soon as the path constraints or every
 * requested model rule out all its completions, then coherence orders that
 * respect what every model forces, each candidate checked by every model.
 * -j N workers take the (combination, first read) units round-robin.
 *
 * The files, one job each: explore.c (this driver and the verdicts),
 * parts.c (independent parts), combination.c (one combination of thread
 * paths as an execution skeleton), search.c (the reads-from search and its
 * pruning), candidate.c (coherence orders, each candidate checked),
 * outcomes.c (a part's outcomes and races), workers.c (worker threads),
 * merge.c (workers' results merged, parts combined). */
#include "explore_internal.h"

#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "pathfilter.h"

int explore(const test *t, const explore_opts *o, explore_result *res)
{
    int rc = explore_once(t, o, res);
    return rc == 0 ? check_coresidency(t, o, res) : rc;
}

typedef struct {
    const test *t;
    thread_paths *tp;
    char (*err)[1024];
    int *rc;
    bool all; /* in parallel every thread runs; in order, none after the first that fails */
} sym_job;

static void symexec_step(void *ctx, int th)
{
    sym_job *j = ctx;
    if (!j->all && th > 0 && j->rc[th - 1] != 0) {
        j->rc[th] = j->rc[th - 1];
        return;
    }
    j->rc[th] = symexec_thread(j->t, th, &j->tp[th], j->err[th], sizeof j->err[th]);
}

int explore_once(const test *t, const explore_opts *o, explore_result *res)
{
    memset(res, 0, sizeof *res);
    res->t = t;
    res->nmodels = o->nmodels;
    for (int m = 0; m < o->nmodels; m++)
        res->mr[m].m = o->models[m];
    if (t->cond) {
        collect_show(res, t->cond);
        collect_show(res, t->filter);
    } else {
        for (int th = 0; th < t->nthreads; th++)
            for (int r = 0; r < t->threads[th].nregs; r++)
                add_show(res, (show_item){.thread = th, .reg = r});
        for (int c = 0; c < t->ncells; c++)
            add_show(res, (show_item){.is_mem = true, .cell = c});
    }
    /* PTX proxies change what orders what: a model that does not read them would give a
     * verdict for another program. */
    for (int m = 0; m < o->nmodels && t->uses_proxies; m++)
        if (!o->models[m]->proxies) {
            snprintf(res->err, sizeof res->err,
                     "%s: error: unsupported: PTX proxies under model %s (only ptx75, Dat3M's ptx-v7.5.cat, "
                     "reads texture/surface/constant accesses, fence.proxy and proxy aliases)",
                     t->file, o->models[m]->name);
            return -1;
        }
    /* Every front end builds the IR: check what the condition names. */
    for (int i = 0; i < res->nshow; i++) {
        const show_item *sv = &res->show[i];
        bool bad = sv->is_mem ? (sv->cell < 0 || sv->cell >= t->ncells)
                              : (sv->thread < 0 || sv->thread >= t->nthreads || sv->reg < 0 ||
                                 sv->reg >= t->threads[sv->thread].nregs);
        if (bad) {
            snprintf(res->err, sizeof res->err,
                     "%s: error: internal: the condition names a register or location the test does not have", t->file);
            return -1;
        }
    }
    if (t->nthreads > MAX_THREADS || t->ncells > 4096) {
        snprintf(res->err, sizeof res->err, "%s: error: at most %d threads and 4096 memory cells can be explored", t->file,
                 MAX_THREADS);
        return -1;
    }
    shared *sh = calloc(1, sizeof *sh);
    sh->t = t;
    sh->o = o;
    sh->res = res;
    pthread_mutex_init(&sh->lock, NULL);
    clock_gettime(CLOCK_MONOTONIC, &sh->start);
    sh->tp = calloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *sh->tp);
    /* Each thread's paths on its own, under -j N in parallel; the first thread in order that fails names the
       error, as when they run one after another. */
    int jobs = o->jobs > 0 ? o->jobs : 1;
    sym_job sj = {t, sh->tp, calloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *sj.err),
                  calloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *sj.rc), jobs > 1};
    parallel_steps(t->nthreads, jobs, symexec_step, &sj);
    int rc = 0;
    for (int th = 0; th < t->nthreads && rc == 0; th++)
        if ((rc = sj.rc[th]) != 0)
            snprintf(res->err, sizeof res->err, "%s", sj.err[th]);
    free(sj.err);
    free(sj.rc);
    if (rc == 0)
        pathfilter_jobs(t, sh->tp, jobs);
    /* A path that ends in an error outranks a race: --first's default for
     * race expectations must then see every execution. */
    for (int th = 0; th < t->nthreads && rc == 0; th++)
        for (int p = 0; p < sh->tp[th].n; p++)
            if (sh->tp[th].v[p].error_at || sh->tp[th].v[p].warn_at)
                sh->error_paths = true;
    if (rc == 0) {
        split_parts(sh);
        res->nparts = sh->nparts;
        sh->nworkers = o->jobs > 0 ? o->jobs : 1;
        sh->results = calloc((size_t)(sh->nparts * sh->nworkers), sizeof *sh->results);
        if (sh->nworkers == 1) {
            worker_arg wa = {sh, 0, false};
            worker_main(&wa);
        } else {
            pthread_t tids[256];
            worker_arg wa[256];
            int n = sh->nworkers < 256 ? sh->nworkers : 256;
            for (int w = 0; w < n; w++) {
                wa[w] = (worker_arg){sh, w, true};
                pthread_create(&tids[w], NULL, worker_main, &wa[w]);
            }
            for (int w = 0; w < n; w++)
                pthread_join(tids[w], NULL);
        }
        for (int p = 0; p < sh->nparts; p++)
            if (sh->stop_part[p])
                res->stopped_first = true;
        if (sh->failed) {
            snprintf(res->err, sizeof res->err, "%s", sh->err);
            rc = -1;
        }
        for (int p = 0; p < sh->nparts; p++) {
            part_result *first = &sh->results[p * sh->nworkers];
            for (int w = 1; w < sh->nworkers; w++) {
                part_result *pr = &sh->results[p * sh->nworkers + w];
                first->candidates += pr->candidates;
                for (int m = 0; m < o->nmodels; m++)
                    merge_part_model(&first->pm[m], &pr->pm[m], sh->npshow[p]);
            }
            res->candidates += first->candidates;
            for (int m = 0; m < o->nmodels; m++)
                sort_part(&first->pm[m], sh->npshow[p]);
        }
        for (int m = 0; m < o->nmodels && rc == 0; m++)
            if (combine_parts(sh, m) != 0) {
                snprintf(res->err, sizeof res->err, "%s", sh->err);
                rc = -1;
            }
        for (int p = 0; p < sh->nparts * sh->nworkers; p++)
            for (int m = 0; m < o->nmodels; m++)
                part_model_free(&sh->results[p].pm[m]);
        for (int p = 0; p < sh->nparts; p++)
            free(sh->pshow[p]);
        free(sh->results);
    }
    res->seconds = elapsed(&sh->start);
    res->nodes = sh->nodes;
    if (sh->printed_progress)
        fprintf(stderr, "\r%*s\r", 100, "");
    for (int th = 0; th < t->nthreads; th++)
        thread_paths_free(&sh->tp[th]);
    free(sh->tp);
    pthread_mutex_destroy(&sh->lock);
    free(sh);
    return rc;
}

void explore_result_free(explore_result *r)
{
    for (int m = 0; m < r->nmodels; m++) {
        model_result *mr = &r->mr[m];
        for (int i = 0; i < mr->nouts; i++)
            free(mr->outs[i].vals);
        free(mr->outs);
        free(mr->races);
        free(mr->witness);
    }
    free(r->show);
    memset(r, 0, sizeof *r);
}

verdict_t result_verdict(const test *t, const model_result *mr)
{
    /* No consistent execution at all: every verdict would be vacuous. */
    if (mr->errors || mr->consistent == 0)
        return V_ERROR;
    if (mr->m->races_are_ub && mr->nraces)
        return V_RACE;
    if (mr->hangs)
        return V_HANG;
    if (t->quant == Q_FORALL)
        return mr->negative ? V_FAILS : V_HOLDS;
    return mr->positive ? V_ALLOWED : V_FORBIDDEN;
}

bool result_ok(const test *t, const model_result *mr)
{
    switch (t->quant) {
    case Q_EXISTS: return mr->positive > 0;
    case Q_NOT_EXISTS: return mr->positive == 0;
    default: return mr->negative == 0;
    }
}

bool expectation_met(const test *t, const model_result *mr, verdict_t expected)
{
    return result_verdict(t, mr) == expected;
}
