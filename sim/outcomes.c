/* One part's results under one model: the show items (what the final state
 * shows), the condition over them, the outcomes and race reports found so
 * far, and the recording of one consistent candidate. */
#include "explore_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- show items and the final condition -------------------------------------- */

void add_show(explore_result *r, show_item it)
{
    for (int i = 0; i < r->nshow; i++) {
        show_item *s = &r->show[i];
        if (s->is_mem == it.is_mem && (it.is_mem ? s->cell == it.cell : (s->thread == it.thread && s->reg == it.reg)))
            return;
    }
    if (r->nshow == MAX_SHOW)
        return;
    r->show = realloc(r->show, (size_t)(r->nshow + 1) * sizeof *r->show);
    r->show[r->nshow++] = it;
}

void collect_show(explore_result *r, const cond *c)
{
    if (!c)
        return;
    collect_show(r, c->a);
    collect_show(r, c->b);
    if (c->kind != C_CMP)
        return;
    const operand *ops[2] = {&c->l, &c->r};
    for (int i = 0; i < 2; i++) {
        if (ops[i]->kind == OPND_REG)
            add_show(r, (show_item){.thread = ops[i]->thread, .reg = ops[i]->reg});
        else if (ops[i]->kind == OPND_MEM)
            add_show(r, (show_item){.is_mem = true, .cell = ops[i]->cell});
    }
}

static int show_index(const explore_result *r, const operand *o)
{
    for (int i = 0; i < r->nshow; i++) {
        const show_item *s = &r->show[i];
        if (o->kind == OPND_MEM ? (s->is_mem && s->cell == o->cell)
                                : (!s->is_mem && s->thread == o->thread && s->reg == o->reg))
            return i;
    }
    return -1;
}

/* The condition over a final state given as the values of the show items. */
bool cond_on_vals(const explore_result *r, const cond *c, const int64_t *vals)
{
    switch (c->kind) {
    case C_TRUE: return true;
    case C_FALSE: return false;
    case C_AND: return cond_on_vals(r, c->a, vals) && cond_on_vals(r, c->b, vals);
    case C_OR: return cond_on_vals(r, c->a, vals) || cond_on_vals(r, c->b, vals);
    case C_NOT: return !cond_on_vals(r, c->a, vals);
    default: {
        int64_t l = c->l.kind == OPND_CONST ? c->l.value : vals[show_index(r, &c->l)];
        int64_t rv = c->r.kind == OPND_CONST ? c->r.value : vals[show_index(r, &c->r)];
        return c->ne ? l != rv : l == rv;
    }
    }
}

static int witness_rank(const model_verdict *v, bool hang)
{
    if (v->nraces)
        return 3;
    if (hang)
        return 2;
    return 1;
}

static unsigned outcome_hash(const int64_t *vals, int ns, bool hang, bool error)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(hang * 2 + error);
    for (int i = 0; i < ns; i++) {
        h ^= (uint64_t)vals[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return (unsigned)(h ^ (h >> 32));
}

static void hash_insert(part_model *pm, int k, int ns)
{
    const outcome *o = &pm->outs[k];
    unsigned m = (unsigned)pm->hashcap - 1, i = outcome_hash(o->vals, ns, o->hang, o->error) & m;
    while (pm->hash[i])
        i = (i + 1) & m;
    pm->hash[i] = k + 1;
}

/* Keeps the table at most half full, rebuilding it when it grows or after
 * sort_part reordered the outcomes. */
static void hash_reserve(part_model *pm, int ns)
{
    if (pm->hash && 2 * (pm->nouts + 1) <= pm->hashcap)
        return;
    int cap = pm->hashcap ? pm->hashcap : 16;
    while (2 * (pm->nouts + 1) > cap)
        cap *= 2;
    free(pm->hash);
    pm->hash = calloc((size_t)cap, sizeof *pm->hash);
    pm->hashcap = cap;
    for (int k = 0; k < pm->nouts; k++)
        hash_insert(pm, k, ns);
}

/* The outcome with these values, appended (count 0, no example) if new. */
int outcome_slot(part_model *pm, const int64_t *vals, int ns, bool hang, bool error, long key)
{
    hash_reserve(pm, ns);
    unsigned m = (unsigned)pm->hashcap - 1;
    for (unsigned i = outcome_hash(vals, ns, hang, error) & m; pm->hash[i]; i = (i + 1) & m) {
        const outcome *o = &pm->outs[pm->hash[i] - 1];
        if (o->hang == hang && o->error == error && memcmp(o->vals, vals, (size_t)ns * sizeof *vals) == 0)
            return pm->hash[i] - 1;
    }
    if (pm->nouts == pm->capouts) {
        pm->capouts = pm->capouts ? pm->capouts * 2 : 8;
        pm->outs = realloc(pm->outs, (size_t)pm->capouts * sizeof *pm->outs);
        pm->example = realloc(pm->example, (size_t)pm->capouts * sizeof *pm->example);
        pm->example_key = realloc(pm->example_key, (size_t)pm->capouts * sizeof *pm->example_key);
    }
    outcome *o = &pm->outs[pm->nouts];
    memset(o, 0, sizeof *o);
    o->vals = malloc((size_t)(ns ? ns : 1) * sizeof *vals);
    memcpy(o->vals, vals, (size_t)ns * sizeof *vals);
    o->hang = hang;
    o->error = error;
    pm->example[pm->nouts] = NULL;
    pm->example_key[pm->nouts] = key;
    hash_insert(pm, pm->nouts, ns);
    return pm->nouts++;
}

/* The report for r's instruction pair (threads in order), appended with
 * count 0 if new.  The events shown come from the execution with the lowest
 * key, so that -j N reports what -j 1 does. */
race_report *race_slot(part_model *pm, const race_report *r)
{
    for (int j = 0; j < pm->nraces; j++) {
        race_report *q = &pm->races[j];
        if (q->a == r->a && q->b == r->b && q->ta == r->ta && q->tb == r->tb) {
            if (r->key < q->key) {
                count_t count = q->exact;
                *q = *r;
                q->exact = count;
            }
            return q;
        }
    }
    if (pm->nraces == pm->capraces) {
        pm->capraces = pm->capraces ? pm->capraces * 2 : 4;
        pm->races = realloc(pm->races, (size_t)pm->capraces * sizeof *pm->races);
    }
    race_report *q = &pm->races[pm->nraces++];
    *q = *r;
    q->exact = count_of(0);
    return q;
}

/* ---- recording one consistent candidate of a part --------------------------------- */

/* *c += the candidate's weight (the executions it stands for, commute.c);
 * a count past count.h's width stops the exploration rather than round. */
bool count_candidate(explorer *e, count_t *c)
{
    if (count_add(c, e->weight))
        return true;
    budget_fail(e->sh, "%s: error: more than 2^%d executions: memsim's counts would not be exact", e->t->file,
                64 * COUNT_WORDS);
    return false;
}

void record_candidate(explorer *e, part_model *pm, const model_verdict *v, const int64_t *mem)
{
    const test *t = e->t;
    const shared *sh = e->sh;
    /* A cut execution whose looping threads can repeat their last iterations
     * for ever is a hang (a livelock, sim/livelock.c). */
    char livelock_msg[1024];
    bool livelock = e->cut_at && livelock_find(e, livelock_msg, sizeof livelock_msg);
    bool hang = e->hang || livelock;
    const char *hang_msg = livelock ? livelock_msg : e->hang_msg;
    if (e->cut_at && !livelock && livelock_paths_only(e))
        return;
    if (e->cut_at && !livelock) {
        /* An execution cut at a loop's bound is a prefix, not an execution:
         * it is counted and reported, and it shows no final state. */
        count_candidate(e, &pm->cuts);
        if (!pm->cut_msg[0] || e->key < pm->cut_key) {
            char where[256];
            snprintf(pm->cut_msg, sizeof pm->cut_msg,
                     "%s: thread %s: the loop reached its unrolling bound (%d iterations) with its condition "
                     "still true; executions that go on were cut (raise the bound: --loop-bound N, or `bound N` on the loop)",
                     test_pos_name(t, e->cut_at->pos, where, sizeof where), t->threads[e->cut_thread].name, e->cut_bound);
            pm->cut_key = e->key;
        }
        return;
    }
    /* The final state over the part's show items. */
    int64_t vals[MAX_SHOW];
    int ns = sh->npshow[e->part];
    for (int i = 0; i < ns; i++) {
        const show_item *s = &sh->res->show[sh->pshow[e->part][i]];
        if (s->is_mem) {
            vals[i] = mem[s->cell];
        } else {
            const tpath *p = &e->tp[s->thread].v[e->choice[s->thread]];
            vals[i] = sym_eval(&e->tp[s->thread], p->regs[s->reg], e->read_vals[s->thread]);
        }
    }
    if (t->filter) {
        /* herd's `filter`: only executions whose final state satisfies it
         * exist.  A test with a filter is one part (parts.c), so every show
         * item is this part's or untouched (its initial value). */
        int64_t full[MAX_SHOW];
        for (int i = 0; i < sh->res->nshow; i++) {
            const show_item *s = &sh->res->show[i];
            full[i] = 0;
            if (s->is_mem) {
                const location *L = &t->locs[cell_loc(t, s->cell)];
                full[i] = L->init[s->cell - L->first_cell];
            }
        }
        for (int i = 0; i < ns; i++)
            full[sh->pshow[e->part][i]] = vals[i];
        if (!cond_on_vals(sh->res, t->filter, full))
            return;
    }
    if (!count_candidate(e, &pm->consistent))
        return;
    if (hang) {
        count_candidate(e, &pm->hangs);
        if (!pm->hang_msg[0] || e->key < pm->hang_key) {
            snprintf(pm->hang_msg, sizeof pm->hang_msg, "%s", hang_msg);
            pm->hang_key = e->key;
        }
    }
    if (e->error_at) {
        count_candidate(e, &pm->errors);
        if (!pm->error_msg[0] || e->key < pm->error_key) {
            snprintf(pm->error_msg, sizeof pm->error_msg, "%s: thread %s: %s",
                     test_pos_name(t, e->error_at->pos, (char[512]){0}, 512), t->threads[e->error_thread].name, e->error);
            pm->error_key = e->key;
        }
    }
    int k = outcome_slot(pm, vals, ns, hang, e->error_at != NULL, e->key);
    count_candidate(e, &pm->outs[k].exact);
    if (k < MAX_EXAMPLES && (!pm->example[k] || e->key <= pm->example_key[k])) {
        if (!pm->example[k])
            pm->example[k] = malloc(sizeof **pm->example);
        exec_copy(pm->example[k], e->x);
        pm->example_key[k] = e->key;
    }
    /* Races, merged by instruction pair, the lower-numbered thread first. */
    for (int i = 0; i < v->nraces; i++) {
        const event *a = &e->x->ev[v->races[i].a], *b = &e->x->ev[v->races[i].b];
        bool swap = a->thread > b->thread;
        race_report r = {.ea = swap ? *b : *a, .eb = swap ? *a : *b, .why = v->races[i].why, .key = e->key, .sub = i};
        r.ta = r.ea.thread;
        r.tb = r.eb.thread;
        r.a = r.ea.src;
        r.b = r.eb.src;
        count_candidate(e, &race_slot(pm, &r)->exact);
    }
    int rank = witness_rank(v, hang);
    if (rank > pm->witness_rank || (rank == pm->witness_rank && e->key < pm->witness_key)) {
        if (!pm->witness)
            pm->witness = malloc(sizeof *pm->witness);
        exec_copy(pm->witness, e->x);
        pm->witness_v = *v;
        pm->witness_rank = rank;
        pm->witness_key = e->key;
    }
    /* --first: a livelock is a counterexample as any hang is (e->hang is the
     * combination's, shared by its other candidates: restored after). */
    bool combination_hang = e->hang;
    e->hang = hang;
    budget_after_record(e, (int)(pm - e->pr->pm), v, vals);
    e->hang = combination_hang;
}
