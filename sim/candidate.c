/* One complete reads-from: the coherence orders that respect what every
 * model forces, each candidate's final memory and hang check, and every
 * model's verdict on it. */
#include "explore_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- one candidate: values known, co chosen -------------------------------------- */

static void check_candidate(explorer *e)
{
    execution *x = e->x;
    const test *t = e->t;
    e->pr->candidates++;
    e->key++;
    budget_after_candidate(e);
    if (should_stop(e))
        return;
    /* Final memory: the value of each cell's co-last write. */
    int64_t mem[4096 + 64];
    int last[4096 + 64];
    for (int c = 0; c < t->ncells; c++) {
        const location *L = &t->locs[cell_loc(t, c)];
        mem[c] = L->init[c - L->first_cell];
        last[c] = e->iw_of_cell[c];
    }
    for (int k = 0; k < e->ncells_w; k++) {
        int c = e->wcell[k];
        if (e->nw[k]) {
            int w = e->coperm[k][e->nw[k] - 1];
            last[c] = w;
            mem[c] = x->ev[w].value;
        }
    }
    /* A hanging await must be reading the last value: a fair spin would
     * otherwise see the later write. */
    char await_msg[512];
    await_msg[0] = 0;
    for (int r = 0; r < e->nreads; r++) {
        int ev = e->read_ev[r];
        const event *R0 = &x->ev[ev];
        if (!R0->await_hang)
            continue;
        if (e->rf_of[ev] != last[R0->cell])
            return;
        if (!await_msg[0] && R0->src->kind != I_AWAIT) {
            /* A loop iteration that wrote nothing and read only final values
             * repeats for ever (sim/symexec.c, while_again). */
            char cn[96], val[48];
            cell_name(t, R0->cell, cn, sizeof cn);
            format_value(t, R0->cell, R0->value, val, sizeof val);
            snprintf(await_msg, sizeof await_msg,
                     "%s: thread %s loops forever: an iteration of its loop writes nothing and reads %s = %s, the "
                     "last value written there, and the loop's condition still holds",
                     test_pos_name(t, R0->src->pos, (char[512]){0}, 512), t->threads[R0->thread].name, cn, val);
        }
        if (!await_msg[0]) {
            char cn[96], val[48];
            cell_name(t, R0->cell, cn, sizeof cn);
            format_value(t, R0->cell, R0->value, val, sizeof val);
            snprintf(await_msg, sizeof await_msg,
                     "%s: thread %s waits forever: its %s keeps reading %s = %s, the last value written "
                     "there, and that value never satisfies the wait",
                     test_pos_name(t, R0->src->pos, (char[512]){0}, 512), t->threads[R0->thread].name,
                     R0->src->shmem > 0 && R0->src->shmem <= t->nshmem_calls ? t->shmem_calls[R0->src->shmem - 1].name
                                                                             : "await",
                     cn, val);
        }
    }
    if (await_msg[0])
        snprintf(e->hang_msg, sizeof e->hang_msg, "%s", await_msg);
    /* co: initial write first, then the chosen order per cell. */
    rel_begin(x->n);
    /* Only the rows in use: a whole relation is 8 KB, most executions small. */
    memset(x->co.row, 0, (size_t)x->n * sizeof x->co.row[0]);
    for (int k = 0; k < e->ncells_w; k++) {
        int c = e->wcell[k];
        int iw = e->iw_of_cell[c];
        for (int i = 0; i < e->nw[k]; i++) {
            rel_add(&x->co, iw, e->coperm[k][i]);
            for (int j = i + 1; j < e->nw[k]; j++)
                rel_add(&x->co, e->coperm[k][i], e->coperm[k][j]);
        }
    }
    base b = e->sbase;
    base_compute_dynamic(&b);
    for (int m = 0; m < e->o->nmodels; m++) {
        part_model *pm = &e->pr->pm[m];
        int mark = rel_mark();
        model_verdict v = {0};
        e->o->models[m]->check(&b, &v);
        if (v.consistent)
            record_candidate(e, pm, &v, mem);
        rel_release(mark);
    }
}

/* Permutations of each cell's writes that keep each thread's writes in po
 * order and every order all the models force. */
void enum_co(explorer *e, int k, int i, bool *used)
{
    if (should_stop(e))
        return;
    if (k == e->ncells_w) {
        check_candidate(e);
        return;
    }
    if (i == e->nw[k]) {
        bool nused[REL_MAX] = {0};
        enum_co(e, k + 1, 0, nused);
        return;
    }
    for (int j = 0; j < e->nw[k]; j++) {
        if (used[j])
            continue;
        int w = e->wlist[k][j];
        bool ok = true;
        for (int q = 0; q < e->nw[k] && ok; q++) {
            int w2 = e->wlist[k][q];
            if (!used[q] && q != j && (rel_has(&e->x->po, w2, w) || rel_has(&e->forced, w2, w)))
                ok = false;
        }
        if (!ok)
            continue;
        used[j] = true;
        e->coperm[k][i] = w;
        enum_co(e, k, i + 1, used);
        used[j] = false;
    }
}
