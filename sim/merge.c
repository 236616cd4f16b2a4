/* Merging: each worker's results for a part added into the first worker's,
 * sorted so that output does not depend on the workers' order, then the
 * parts' outcomes combined into the test's final states per model, with
 * a witness execution drawn from the parts side by side. */
#include "explore_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- merging workers, combining parts --------------------------------------------------- */

void part_model_free(part_model *pm)
{
    for (int i = 0; i < pm->nouts; i++) {
        free(pm->outs[i].vals);
        free(pm->example[i]);
    }
    free(pm->outs);
    free(pm->example);
    free(pm->example_key);
    free(pm->races);
    free(pm->witness);
    free(pm->hash);
    memset(pm, 0, sizeof *pm);
}

/* Adds src (one worker's result for a part) into dst. */
void merge_part_model(part_model *dst, part_model *src, int ns)
{
    /* Each worker's counts are at most the part's, which record_candidate
     * kept within count.h's width: these sums fit. */
    count_add(&dst->consistent, src->consistent);
    count_add(&dst->hangs, src->hangs);
    count_add(&dst->errors, src->errors);
    count_add(&dst->cuts, src->cuts);
    if (src->cut_msg[0] && (!dst->cut_msg[0] || src->cut_key < dst->cut_key)) {
        memcpy(dst->cut_msg, src->cut_msg, sizeof dst->cut_msg);
        dst->cut_key = src->cut_key;
    }
    if (src->hang_msg[0] && (!dst->hang_msg[0] || src->hang_key < dst->hang_key)) {
        memcpy(dst->hang_msg, src->hang_msg, sizeof dst->hang_msg);
        dst->hang_key = src->hang_key;
    }
    if (src->error_msg[0] && (!dst->error_msg[0] || src->error_key < dst->error_key)) {
        memcpy(dst->error_msg, src->error_msg, sizeof dst->error_msg);
        dst->error_key = src->error_key;
    }
    for (int i = 0; i < src->nouts; i++) {
        const outcome *o = &src->outs[i];
        int k = outcome_slot(dst, o->vals, ns, o->hang, o->error, src->example_key[i]);
        count_add(&dst->outs[k].exact, o->exact);
        if (src->example[i] && (!dst->example[k] || src->example_key[i] < dst->example_key[k])) {
            free(dst->example[k]);
            dst->example[k] = src->example[i];
            dst->example_key[k] = src->example_key[i];
            src->example[i] = NULL;
        }
    }
    for (int i = 0; i < src->nraces; i++)
        count_add(&race_slot(dst, &src->races[i])->exact, src->races[i].exact);
    if (src->witness && (src->witness_rank > dst->witness_rank ||
                         (src->witness_rank == dst->witness_rank && src->witness_key < dst->witness_key))) {
        free(dst->witness);
        dst->witness = src->witness;
        src->witness = NULL;
        dst->witness_v = src->witness_v;
        dst->witness_rank = src->witness_rank;
        dst->witness_key = src->witness_key;
    }
    part_model_free(src);
}

/* Outcome order: by hang, error, then values (qsort has no context
 * argument, so the outcomes being sorted are reached through these). */
static const outcome *sort_outs;
static int sort_ns;

static int cmp_outcome_index(const void *a, const void *b)
{
    const outcome *x = &sort_outs[*(const int *)a], *y = &sort_outs[*(const int *)b];
    if (x->hang != y->hang)
        return x->hang - y->hang;
    if (x->error != y->error)
        return x->error - y->error;
    for (int i = 0; i < sort_ns; i++)
        if (x->vals[i] != y->vals[i])
            return x->vals[i] < y->vals[i] ? -1 : 1;
    return 0;
}

/* By the execution each race was first found in, then by its place in that
 * execution's verdict: two races of one execution have the same key, and
 * qsort alone left their order to the order the workers' lists were merged
 * in (mp_rel_acq_wg_diff_wg swapped its two races at -j 2 in about 1 run in
 * 75). */
static int cmp_race_key(const void *a, const void *b)
{
    const race_report *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->sub > y->sub) - (x->sub < y->sub);
}

/* Sorts a part's outcomes (and their examples) by value, so that output does
 * not depend on the order workers found them in. */
void sort_part(part_model *pm, int ns)
{
    /* The outcomes move: the hash table is rebuilt if anything is added. */
    free(pm->hash);
    pm->hash = NULL;
    pm->hashcap = 0;
    if (pm->nraces > 1)
        qsort(pm->races, (size_t)pm->nraces, sizeof *pm->races, cmp_race_key);
    size_t n = pm->nouts > 0 ? (size_t)pm->nouts : 0;
    if (n < 2)
        return;
    int *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = (int)i;
    sort_outs = pm->outs;
    sort_ns = ns;
    qsort(idx, n, sizeof *idx, cmp_outcome_index);
    outcome *o2 = malloc(n * sizeof *o2);
    execution **e2 = malloc(n * sizeof *e2);
    long *k2 = malloc(n * sizeof *k2);
    for (size_t i = 0; i < n; i++) {
        o2[i] = pm->outs[idx[i]];
        e2[i] = pm->example[idx[i]];
        k2[i] = pm->example_key[idx[i]];
    }
    memcpy(pm->outs, o2, n * sizeof *o2);
    memcpy(pm->example, e2, n * sizeof *e2);
    memcpy(pm->example_key, k2, n * sizeof *k2);
    free(o2);
    free(e2);
    free(k2);
    free(idx);
}

/* Appends src's events and relations to dst; false if they do not fit. */
static bool merge_exec(execution *dst, const execution *src, model_verdict *v, const model_verdict *sv)
{
    int off = dst->n;
    if (off + src->n > REL_MAX)
        return false;
    for (int i = 0; i < src->n; i++) {
        dst->ev[off + i] = src->ev[i];
        if (src->ev[i].rmw_partner >= 0)
            dst->ev[off + i].rmw_partner += off;
    }
    const rel *from[] = {&src->po, &src->rf, &src->co, &src->rmw, &src->dep, &src->kb, &src->bar};
    rel *to[] = {&dst->po, &dst->rf, &dst->co, &dst->rmw, &dst->dep, &dst->kb, &dst->bar};
    for (int r = 0; r < 7; r++)
        for (int i = 0; i < src->n; i++)
            for (int j = 0; j < src->n; j++)
                if ((from[r]->row[i].w[j / 64] >> (j % 64)) & 1)
                    to[r]->row[off + i].w[(off + j) / 64] |= 1ull << ((off + j) % 64);
    dst->n += src->n;
    for (int i = 0; sv && i < sv->nraces && v->nraces < MAX_RACES_PER_EXEC; i++)
        v->races[v->nraces++] = (race_pair){sv->races[i].a + off, sv->races[i].b + off, sv->races[i].why};
    return true;
}

static void add_final_outcome(model_result *mr, const int64_t *vals, int ns, bool hang, bool error, bool cond, count_t count)
{
    if (mr->nouts == mr->capouts) {
        mr->capouts = mr->capouts ? mr->capouts * 2 : 8;
        mr->outs = realloc(mr->outs, (size_t)mr->capouts * sizeof *mr->outs);
    }
    outcome *o = &mr->outs[mr->nouts++];
    o->vals = malloc((size_t)(ns ? ns : 1) * sizeof *vals);
    memcpy(o->vals, vals, (size_t)ns * sizeof *vals);
    o->hang = hang;
    o->error = error;
    o->cond = cond;
    o->exact = count;
    o->count = count_long(count);
}

/* The long copies of a model's exact counts (explore.h). */
void model_result_set_longs(model_result *mr)
{
    mr->consistent = count_long(mr->exact.consistent);
    mr->positive = count_long(mr->exact.positive);
    mr->negative = count_long(mr->exact.negative);
    mr->hangs = count_long(mr->exact.hangs);
    mr->errors = count_long(mr->exact.errors);
    mr->cuts = count_long(mr->exact.cuts);
}

/* The product of the parts' outcomes under model m. */
int combine_parts(shared *sh, int m)
{
    const test *t = sh->t;
    explore_result *res = sh->res;
    model_result *mr = &res->mr[m];
    part_model *pm[MAX_THREADS];
    long combos = 1;
    bool fits = true;
    mr->exact.consistent = count_of(1);
    for (int p = 0; p < sh->nparts; p++) {
        pm[p] = &sh->results[p * sh->nworkers].pm[m];
        combos *= pm[p]->nouts;
        fits = fits && count_mul(&mr->exact.consistent, pm[p]->consistent);
        if (combos > MAX_COMBINED) {
            snprintf(sh->err, sizeof sh->err,
                     "%s: error: the independent parts of this test combine into more than %d final states; "
                     "add to the condition or split the test",
                     t->file, MAX_COMBINED);
            return -1;
        }
    }
    for (int p = 0; p < sh->nparts; p++) {
        part_model *q = pm[p];
        fits = fits && count_add(&mr->exact.cuts, q->cuts);
        if (q->cut_msg[0] && !mr->cut_msg[0])
            memcpy(mr->cut_msg, q->cut_msg, sizeof mr->cut_msg);
        if (q->hang_msg[0] && !mr->hang_msg[0])
            memcpy(mr->hang_msg, q->hang_msg, sizeof mr->hang_msg);
        if (q->error_msg[0] && !mr->error_msg[0])
            memcpy(mr->error_msg, q->error_msg, sizeof mr->error_msg);
        for (int i = 0; i < q->nraces; i++) {
            if (mr->nraces == mr->capraces) {
                mr->capraces = mr->capraces ? mr->capraces * 2 : 4;
                mr->races = realloc(mr->races, (size_t)mr->capraces * sizeof *mr->races);
            }
            mr->races[mr->nraces] = q->races[i];
            mr->races[mr->nraces].count = count_long(q->races[i].exact);
            mr->nraces++;
        }
    }
    int ns = res->nshow;
    int64_t vals[MAX_SHOW];
    /* Show items no part touches keep their initial values. */
    for (int i = 0; i < ns; i++) {
        const show_item *s = &res->show[i];
        if (s->is_mem) {
            const location *L = &t->locs[cell_loc(t, s->cell)];
            vals[i] = L->init[s->cell - L->first_cell];
        } else {
            vals[i] = 0;
        }
    }
    int pick[MAX_THREADS] = {0};
    bool found_witness = false;
    int witness_pick[MAX_THREADS];
    for (long c = 0; c < combos && combos > 0; c++) {
        count_t count = count_of(1);
        bool hang = false, error = false;
        for (int p = 0; p < sh->nparts; p++) {
            const outcome *o = &pm[p]->outs[pick[p]];
            fits = fits && count_mul(&count, o->exact);
            hang = hang || o->hang;
            error = error || o->error;
            for (int i = 0; i < sh->npshow[p]; i++)
                vals[sh->pshow[p][i]] = o->vals[i];
        }
        bool cv = t->cond ? cond_on_vals(res, t->cond, vals) : true;
        fits = fits && count_add(cv ? &mr->exact.positive : &mr->exact.negative, count);
        if (hang)
            fits = fits && count_add(&mr->exact.hangs, count);
        if (error)
            fits = fits && count_add(&mr->exact.errors, count);
        add_final_outcome(mr, vals, ns, hang, error, cv, count);
        bool interesting = t->quant == Q_FORALL ? !cv : cv;
        if (interesting && !found_witness) {
            found_witness = true;
            memcpy(witness_pick, pick, sizeof pick);
        }
        for (int p = 0; p < sh->nparts; p++) {
            if (++pick[p] < pm[p]->nouts)
                break;
            pick[p] = 0;
        }
    }
    if (!fits) {
        snprintf(sh->err, sizeof sh->err,
                 "%s: error: the independent parts of this test combine into more than 2^%d executions: memsim's "
                 "counts would not be exact",
                 t->file, 64 * COUNT_WORDS);
        return -1;
    }
    model_result_set_longs(mr);
    /* The witness: a combination that shows the condition, else a race, a
     * hang, or any execution; the parts' executions drawn side by side. */
    int best_part = -1;
    for (int p = 0; p < sh->nparts; p++)
        if (pm[p]->witness && (best_part < 0 || pm[p]->witness_rank > pm[best_part]->witness_rank))
            best_part = p;
    if (combos == 0)
        return 0;
    execution *w = calloc(1, sizeof *w);
    w->t = t;
    model_verdict wv = {0};
    bool use_pick = found_witness || best_part < 0 || pm[best_part]->witness_rank <= 1;
    for (int p = 0; p < sh->nparts; p++) {
        const execution *part_exec;
        const model_verdict *pv = NULL;
        if (use_pick) {
            int k = found_witness ? witness_pick[p] : 0;
            part_exec = k < MAX_EXAMPLES ? pm[p]->example[k] : NULL;
            if (p == best_part && pm[p]->witness && pm[p]->witness_rank == 3)
                pv = NULL;
        } else if (p == best_part) {
            part_exec = pm[p]->witness;
            pv = &pm[p]->witness_v;
        } else {
            part_exec = pm[p]->example[0];
        }
        if (part_exec && !merge_exec(w, part_exec, &wv, pv) && p == best_part) {
            /* Too large to draw whole: the interesting part alone. */
            memset(w, 0, sizeof *w);
            w->t = t;
            wv.nraces = 0;
            merge_exec(w, part_exec, &wv, pv);
            break;
        }
    }
    mr->witness = w;
    mr->witness_v = wv;
    mr->witness_rank = found_witness ? 4 : best_part >= 0 ? pm[best_part]->witness_rank : 1;
    return 0;
}
