/* The explorer.  A test is split into parts that share no location, no
 * workgroup and no fence.sc (they interact only through kernel order, which
 * cannot add an ordering inside a part), each part is explored alone, and
 * the parts' outcomes are combined as a product.  Inside a part: each
 * combination of thread paths, then a depth-first search over reads-from
 * that prunes a partial choice as soon as the path constraints or every
 * requested model rule out all its completions, then coherence orders that
 * respect what every model forces, each candidate checked by every model.
 * -j N workers take the (combination, first read) units round-robin. */
#include "explore.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pathfilter.h"
#include "symexec.h"

enum { MAX_THREADS = 64, MAX_SHOW = 256, MAX_EXAMPLES = 64, MAX_COMBINED = 1 << 20 };

/* What one part produced under one model. */
typedef struct {
    long consistent, hangs, errors, cuts;
    outcome *outs;          /* vals over the part's show items; cond unused */
    int nouts, capouts;
    execution **example;    /* one execution per outcome (the first MAX_EXAMPLES) */
    long *example_key;
    race_report *races;
    int nraces, capraces;
    execution *witness;     /* best race/hang execution */
    model_verdict witness_v;
    int witness_rank;
    long witness_key;
    char hang_msg[512], error_msg[512], cut_msg[512];
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
    long claimed;            /* the unit this worker will explore next */
    int split;               /* depth of the units */
    long key;                /* (unit, candidate within it): deterministic choices */
    long nodes;              /* search nodes visited */
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
    char hang_msg[512];
    const inst *cut_at;      /* a thread's path was cut at a loop bound */
    int cut_bound, cut_thread;
    const inst *error_at;
    const char *error;
    int error_thread;
    rel forced;              /* co edges every model forces */
    rel base_storage[4];     /* the event-only relations of the combination */
    base sbase;              /* ... and its sets, computed once per combination */
    bool prune;              /* every model offers a prune order */
    /* coherence enumeration */
    int ncells_w;
    int wcell[REL_MAX];
    int wlist[REL_MAX][REL_MAX];
    int nw[REL_MAX];
    int coperm[REL_MAX][REL_MAX];
} explorer;

static double elapsed(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) * 1e-9;
}

/* ---- show items and the final condition -------------------------------------- */

static void add_show(explore_result *r, show_item it)
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

static void collect_show(explore_result *r, const cond *c)
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
static bool cond_on_vals(const explore_result *r, const cond *c, const int64_t *vals)
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

/* The outcome with these values, appended (count 0, no example) if new. */
static int outcome_slot(part_model *pm, const int64_t *vals, int ns, bool hang, bool error, long key)
{
    for (int k = 0; k < pm->nouts; k++) {
        const outcome *o = &pm->outs[k];
        if (o->hang == hang && o->error == error && memcmp(o->vals, vals, (size_t)ns * sizeof *vals) == 0)
            return k;
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
    return pm->nouts++;
}

/* The report for r's instruction pair (threads in order), appended with
 * count 0 if new.  The events shown come from the execution with the lowest
 * key, so that -j N reports what -j 1 does. */
static race_report *race_slot(part_model *pm, const race_report *r)
{
    for (int j = 0; j < pm->nraces; j++) {
        race_report *q = &pm->races[j];
        if (q->a == r->a && q->b == r->b && q->ta == r->ta && q->tb == r->tb) {
            if (r->key < q->key) {
                long count = q->count;
                *q = *r;
                q->count = count;
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
    q->count = 0;
    return q;
}

/* ---- recording one consistent candidate of a part --------------------------------- */

static void record(explorer *e, part_model *pm, const model_verdict *v, const int64_t *mem)
{
    const test *t = e->t;
    const shared *sh = e->sh;
    if (e->cut_at) {
        /* An execution cut at a loop's bound is a prefix, not an execution:
         * it is counted and reported, and it shows no final state. */
        pm->cuts++;
        if (!pm->cut_msg[0] || e->key < pm->cut_key) {
            snprintf(pm->cut_msg, sizeof pm->cut_msg,
                     "%s:%d:%d: thread %s: the loop reached its unrolling bound (%d iterations) with its condition "
                     "still true; executions that go on were cut (raise the bound: --loop-bound N, or `bound N` on the loop)",
                     t->file, e->cut_at->pos.line, e->cut_at->pos.col, t->threads[e->cut_thread].name, e->cut_bound);
            pm->cut_key = e->key;
        }
        return;
    }
    pm->consistent++;
    if (e->hang) {
        pm->hangs++;
        if (!pm->hang_msg[0] || e->key < pm->hang_key) {
            snprintf(pm->hang_msg, sizeof pm->hang_msg, "%s", e->hang_msg);
            pm->hang_key = e->key;
        }
    }
    if (e->error_at) {
        pm->errors++;
        if (!pm->error_msg[0] || e->key < pm->error_key) {
            snprintf(pm->error_msg, sizeof pm->error_msg, "%s:%d:%d: thread %s: %s", t->file, e->error_at->pos.line,
                     e->error_at->pos.col, t->threads[e->error_thread].name, e->error);
            pm->error_key = e->key;
        }
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
    int k = outcome_slot(pm, vals, ns, e->hang, e->error_at != NULL, e->key);
    pm->outs[k].count++;
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
        race_report r = {.ea = swap ? *b : *a, .eb = swap ? *a : *b, .why = v->races[i].why, .key = e->key};
        r.ta = r.ea.thread;
        r.tb = r.eb.thread;
        r.a = r.ea.src;
        r.b = r.eb.src;
        race_slot(pm, &r)->count++;
    }
    int rank = witness_rank(v, e->hang);
    if (rank > pm->witness_rank || (rank == pm->witness_rank && e->key < pm->witness_key)) {
        if (!pm->witness)
            pm->witness = malloc(sizeof *pm->witness);
        exec_copy(pm->witness, e->x);
        pm->witness_v = *v;
        pm->witness_rank = rank;
        pm->witness_key = e->key;
    }
}

/* ---- one candidate: values known, co chosen -------------------------------------- */

static void check_candidate(explorer *e)
{
    execution *x = e->x;
    const test *t = e->t;
    e->pr->candidates++;
    e->key++;
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
    char await_msg[512] = "";
    for (int r = 0; r < e->nreads; r++) {
        int ev = e->read_ev[r];
        const event *R0 = &x->ev[ev];
        if (!R0->await_hang)
            continue;
        if (e->rf_of[ev] != last[R0->cell])
            return;
        if (!await_msg[0]) {
            char cn[96], val[48];
            cell_name(t, R0->cell, cn, sizeof cn);
            format_value(t, R0->cell, R0->value, val, sizeof val);
            snprintf(await_msg, sizeof await_msg,
                     "%s:%d:%d: thread %s waits forever: its await keeps reading %s = %s, the last value written "
                     "there, and that value never satisfies the wait",
                     t->file, R0->src->pos.line, R0->src->pos.col, t->threads[R0->thread].name, cn, val);
        }
    }
    if (await_msg[0])
        snprintf(e->hang_msg, sizeof e->hang_msg, "%s", await_msg);
    /* co: initial write first, then the chosen order per cell. */
    rel_begin(x->n);
    memset(&x->co, 0, sizeof x->co);
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
            record(e, pm, &v, mem);
        rel_release(mark);
    }
    shared *sh = e->sh;
    if (e->o->progress && e->worker == 0 && (e->pr->candidates & 1023) == 0 && elapsed(&sh->start) > 1.0) {
        fprintf(stderr, "\rmemsim: %s: part %d of %d, %ld candidate executions, %.1f s   ", t->name, e->part + 1,
                sh->nparts, e->pr->candidates, elapsed(&sh->start));
        sh->printed_progress = true;
    }
}

/* Permutations of each cell's writes that keep each thread's writes in po
 * order and every order all the models force. */
static void enum_co(explorer *e, int k, int i, bool *used)
{
    if (e->sh->failed)
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

/* ---- values and reads-from ---------------------------------------------------------- */

static int64_t write_value(const explorer *e, int th, const pevent *pw, int cell)
{
    int64_t v = sym_eval(&e->tp[th], pw->sym, e->read_vals[th]);
    return normalize_value(e->t->locs[cell_loc(e->t, cell)].type, v);
}

/* Are all of a thread's reads in this mask known?  A read the thread never
 * performed (it waits forever at an earlier barrier) is never known. */
static bool deps_known(const explorer *e, int th, uint64_t deps)
{
    while (deps) {
        int local = __builtin_ctzll(deps);
        deps &= deps - 1;
        int r = e->read_index[th][local];
        if (r < 0 || !e->known[r])
            return false;
    }
    return true;
}

/* Did the thread perform every read in this mask? */
static bool deps_performed(const explorer *e, int th, uint64_t deps)
{
    while (deps) {
        int local = __builtin_ctzll(deps);
        deps &= deps - 1;
        if (e->read_index[th][local] < 0)
            return false;
    }
    return true;
}

/* Settles every value the decided reads-from (the first `decided` reads)
 * determines, and checks each path constraint whose reads are all known.
 * False when a constraint fails: no completion follows this path. */
static bool settle_values(explorer *e, int decided)
{
    execution *x = e->x;
    for (int r = 0; r < e->nreads; r++)
        e->known[r] = false;
    bool progress = true;
    while (progress) {
        progress = false;
        for (int r = 0; r < decided; r++) {
            if (e->known[r])
                continue;
            int ev = e->read_ev[r];
            int w = e->rf_of[ev];
            const event *W = &x->ev[w];
            int64_t v;
            if (W->kind == EV_IW) {
                v = W->value;
            } else {
                int th = W->thread;
                const tpath *p = &e->tp[th].v[e->choice[th]];
                const pevent *pw = &p->ev[w - e->first_ev[th]];
                if (!deps_known(e, th, e->tp[th].pool[pw->sym].deps))
                    continue;
                v = write_value(e, th, pw, W->cell);
                x->ev[w].value = v;
            }
            int th = x->ev[ev].thread;
            const tpath *p = &e->tp[th].v[e->choice[th]];
            e->read_vals[th][p->ev[ev - e->first_ev[th]].read] = v;
            x->ev[ev].value = v;
            e->known[r] = true;
            progress = true;
        }
    }
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const tpath *p = &e->tp[th].v[e->choice[th]];
        for (int c = 0; c < p->ncons; c++) {
            uint64_t deps = e->tp[th].pool[p->cons[c]].deps;
            /* A branch after the point where the thread stopped was never taken. */
            if (!deps_performed(e, th, deps))
                continue;
            if (deps_known(e, th, deps) && !sym_eval(&e->tp[th], p->cons[c], e->read_vals[th]))
                return false;
        }
    }
    if (decided < e->nreads)
        return true;
    for (int r = 0; r < e->nreads; r++)
        if (!e->known[r])
            return false; /* values along an rf | data cycle: thin air */

    /* Writes nobody reads still need their values (final memory). */
    for (int i = 0; i < x->n; i++) {
        event *W = &x->ev[i];
        if (W->kind != EV_W)
            continue;
        int th = W->thread;
        const tpath *p = &e->tp[th].v[e->choice[th]];
        W->value = write_value(e, th, &p->ev[i - e->first_ev[th]], W->cell);
    }
    return true;
}

/* A hanging await reads its cell's last write: not the initial write when
 * the cell has other writes, nor a write that an RMW reads (its own write
 * comes after it; for PTX this needs the two to be morally strong). */
static bool hang_reads_can_be_last(explorer *e, int decided)
{
    const execution *x = e->x;
    for (int r = 0; r < decided; r++) {
        int ev = e->read_ev[r];
        if (!x->ev[ev].await_hang)
            continue;
        int w = e->rf_of[ev], c = x->ev[ev].cell;
        if (x->ev[w].kind == EV_IW) {
            for (int k = 0; k < e->ncells_w; k++)
                if (e->wcell[k] == c && e->nw[k] > 0)
                    return false;
            continue;
        }
        for (int q = 0; q < decided; q++) {
            int ev2 = e->read_ev[q];
            if (ev2 != ev && e->rf_of[ev2] == w && x->ev[ev2].rmw_partner >= 0 &&
                rel_has(e->sbase.incl, w, ev2))
                return false;
        }
    }
    return true;
}

/* Morally strong, as PTX needs for its per-location axiom: the same thread,
 * or two atomics whose scopes include each other. */
static bool strong_pair(const explorer *e, int a, int b)
{
    const event *A = &e->x->ev[a], *B = &e->x->ev[b];
    if (A->thread == B->thread)
        return true;
    return A->ord != ORD_PLAIN && B->ord != ORD_PLAIN && rel_has(e->sbase.incl, a, b);
}

/* Read-read coherence along program order, which every model here has for
 * morally strong accesses (src11: hb;eco, PTX: SC-per-Location, Vulkan:
 * locord | rf | fr, SC): when r1 is po-before r2 on one cell and r1 reads
 * w1, r2 cannot read a write that must be coherence-before w1 -- the
 * initial write, or one po-before w1 in w1's thread.  Without this a failing
 * CAS after a successful poll survives to the leaves of the search. */
static bool reads_coherent_along_po(const explorer *e, int decided)
{
    const execution *x = e->x;
    for (int j = 0; j < decided; j++) {
        int r2 = e->read_ev[j], w2 = e->rf_of[r2];
        for (int i = 0; i < decided; i++) {
            int r1 = e->read_ev[i], w1 = e->rf_of[r1];
            if (w1 == w2 || x->ev[r1].cell != x->ev[r2].cell || !rel_has(&x->po, r1, r2))
                continue;
            if (x->ev[w1].kind == EV_IW)
                continue;
            bool w2_before = x->ev[w2].kind == EV_IW || rel_has(&x->po, w2, w1);
            if (w2_before && strong_pair(e, w1, r1) && strong_pair(e, w1, r2))
                return false;
        }
    }
    return true;
}

/* May some completion of the first `decided` reads-from be consistent under
 * some model?  At a leaf, also records what co every model forces. */
static bool worth_exploring(explorer *e, int decided)
{
    e->nodes++;
    execution *x = e->x;
    rel_begin(x->n);
    /* Every model here forbids rf | dep cycles (thin air); values along such
     * a cycle could not be computed anyway. */
    if (!acyclic(U(&x->rf, &x->dep)))
        return false;
    if (!settle_values(e, decided))
        return false;
    if (!hang_reads_can_be_last(e, decided))
        return false;
    if (!reads_coherent_along_po(e, decided))
        return false;
    if (!e->prune) {
        if (decided == e->nreads)
            memset(&e->forced, 0, sizeof e->forced);
        return true;
    }
    base b = e->sbase;
    base_compute_dynamic(&b);
    set dec = set_empty();
    for (int r = 0; r < decided; r++)
        set_add(&dec, e->read_ev[r]);
    bool all_violate = true;
    rel *forced = decided == e->nreads ? rel_new() : NULL;
    for (int m = 0; m < e->o->nmodels; m++) {
        int mark = rel_mark();
        R order = e->o->models[m]->prune_order(&b);
        bool violates = violates_prune_order(&b, order, dec);
        all_violate = all_violate && violates;
        if (forced) {
            /* Writes to one cell that the order relates: co must agree. */
            for (int i = 0; i < x->n; i++)
                for (int j = 0; j < x->n; j++) {
                    bool f = set_has(b.Wr, i) && set_has(b.Wr, j) && rel_has(b.sloc, i, j) && rel_has(order, i, j);
                    if (m == 0 ? f : (rel_has(forced, i, j) && f)) {
                        if (m == 0)
                            rel_add(forced, i, j);
                    } else if (m > 0 && rel_has(forced, i, j)) {
                        forced->row[i].w[j / 64] &= ~(1ull << (j % 64));
                    }
                }
        }
        rel_release(mark);
        if (!violates && !forced)
            return true;
    }
    if (forced && !all_violate) {
        /* Coherence along reads-from, the same in every model here: a thread's
         * own earlier write is before what it reads (CoWR), and a write after
         * a read is after the write it read (CoRW; PTX needs the accesses to
         * be morally strong, hence incl). */
        for (int r = 0; r < x->n; r++) {
            if (x->ev[r].kind != EV_R)
                continue;
            int w = e->rf_of[r];
            if (x->ev[w].kind == EV_IW)
                continue;
            for (int w2 = 0; w2 < x->n; w2++) {
                if (w2 == w || x->ev[w2].kind != EV_W || x->ev[w2].cell != x->ev[r].cell)
                    continue;
                if (rel_has(&x->po, w2, r))
                    rel_add(forced, w2, w);
                else if (rel_has(&x->po, r, w2) && rel_has(b.incl, w, r) && rel_has(b.incl, w, w2))
                    rel_add(forced, w, w2);
            }
        }
        e->forced = *forced;
    }
    return !all_violate;
}

/* Workers walk the top of the search alike and claim its nodes at the split
 * depth from a shared counter, so a worker whose units die early takes more. */
static bool claim_unit(explorer *e)
{
    long u = e->unit++;
    if (u != e->claimed)
        return false;
    e->claimed = __atomic_fetch_add(&e->sh->next_unit[e->part], 1, __ATOMIC_RELAXED);
    e->key = u << 24;
    return true;
}

static void enum_rf(explorer *e, int r)
{
    execution *x = e->x;
    if (e->sh->failed)
        return;
    if (r == e->split && !claim_unit(e))
        return;
    if (r == e->nreads) {
        bool used[REL_MAX] = {0};
        enum_co(e, 0, 0, used);
        return;
    }
    int ev = e->read_ev[r];
    for (int i = 0; i < e->ncand[r]; i++) {
        int w = e->cand[r][i];
        e->rf_of[ev] = w;
        rel_add(&x->rf, w, ev);
        if (worth_exploring(e, r + 1))
            enum_rf(e, r + 1);
        x->rf.row[w].w[ev / 64] &= ~(1ull << (ev % 64));
    }
}

static int thread_of_event(const explorer *e, int ev) { return e->x->ev[ev].thread; }

/* ---- one combination of thread paths -------------------------------------------- */

/* Whether two threads share a named barrier's scope instance (import/). */
static bool same_bar_domain(scope_t s, int g1, int w1, int v1, int g2, int w2, int v2)
{
    switch (s) {
    case SCOPE_SYS: return true;
    case SCOPE_AGENT: return g1 == g2;
    case SCOPE_WAVE: return g1 == g2 && w1 == w2 && v1 == v2;
    default: return g1 == g2 && w1 == w2;
    }
}

/* When a read is decided.  0: atomic reads whose source can synchronize
 * (acquire, RMW, a fence after them) or are tied by coherence to another
 * access of their own thread to the cell, and hanging awaits (most combinations of paths
 * die on them); 1: plain reads, pruned by the synchronization that
 * class 0 settled; 2: the other relaxed reads -- a spinning thread's poll,
 * say -- whose choice of equal-valued sources multiplies the executions.
 * Deciding them last keeps that multiplication at the leaves of the search
 * instead of above every plain read.  The order changes the search's cost,
 * never what it finds. */
static int read_class(const execution *x, const bool *settled, int r)
{
    const event *R0 = &x->ev[r];
    if (R0->ord == ORD_PLAIN)
        return 1;
    if (R0->ord != ORD_RELAXED || R0->rmw_partner >= 0 || R0->await_hang || !settled[r])
        return 0;
    for (int i = r - 1; i >= 0 && x->ev[i].thread == R0->thread; i--)
        if (x->ev[i].cell == R0->cell)
            return 0;
    for (int i = r + 1; i < x->n && x->ev[i].thread == R0->thread; i++)
        if (x->ev[i].kind == EV_F || x->ev[i].cell == R0->cell)
            return 0;
    return 2;
}

static bool read_before(const execution *x, const bool *settled, int a, int b)
{
    int ca = read_class(x, settled, a), cb = read_class(x, settled, b);
    if (ca != cb)
        return ca < cb;
    if (x->ev[a].cell != x->ev[b].cell)
        return x->ev[a].cell < x->ev[b].cell;
    return a < b;
}

static int build_combination(explorer *e)
{
    const test *t = e->t;
    execution *x = e->x;
    memset(x, 0, sizeof *x);
    x->t = t;
    e->hang = false;
    e->hang_msg[0] = 0;
    e->error_at = NULL;
    e->error = NULL;
    e->cut_at = NULL;
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const tpath *p = &e->tp[th].v[e->choice[th]];
        e->nev_of[th] = p->nev;
        if (p->hung)
            e->hang = true;
        if (p->cut_at && !e->cut_at) {
            e->cut_at = p->cut_at;
            e->cut_bound = p->cut_bound;
            e->cut_thread = th;
        }
        if (p->error_at && !e->error_at) {
            e->error_at = p->error_at;
            e->error = p->error;
            e->error_thread = th;
        }
        if (p->warn_at && !e->error_at) {
            e->error_at = p->warn_at;
            e->error = p->warn;
            e->error_thread = th;
        }
    }
    /* Barriers: a thread that reaches more barriers than a workgroup peer
     * waits forever at the first one the peer never reaches. */
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const thread *T = &t->threads[th];
        int minbar = e->tp[th].v[e->choice[th]].nbar, who = th;
        for (int u = 0; u < e->nthreads; u++) {
            if (!e->active[u])
                continue;
            const thread *U2 = &t->threads[u];
            int nb = e->tp[u].v[e->choice[u]].nbar;
            if (U2->gpu == T->gpu && U2->wg == T->wg && nb < minbar) {
                minbar = nb;
                who = u;
            }
        }
        const tpath *p = &e->tp[th].v[e->choice[th]];
        if (minbar < p->nbar) {
            for (int k = 0; k < p->nev; k++)
                if (p->ev[k].kind == EV_BA && !p->ev[k].bar_named && p->ev[k].bar == minbar) {
                    e->nev_of[th] = k + 1;
                    e->hang = true;
                    if (!e->hang_msg[0])
                        snprintf(e->hang_msg, sizeof e->hang_msg,
                                 "%s:%d:%d: thread %s waits forever at this barrier: thread %s of the same workgroup "
                                 "never reaches it",
                                 t->file, p->ev[k].src->pos.line, p->ev[k].src->pos.col, T->name, t->threads[who].name);
                    break;
                }
        }
    }
    /* Named barriers (import/): the threads of the barrier's scope instance
     * (a CTA for bar.cta, a subgroup ... device for Vulkan's cbar) that use a
     * name take part in it; a thread that waits at more instances of a name
     * than a participant reaches waits forever at the first one it misses. */
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const thread *T = &t->threads[th];
        const tpath *p = &e->tp[th].v[e->choice[th]];
        for (int k = 0; k + 1 < e->nev_of[th]; k++) {
            const pevent *ba = &p->ev[k];
            if (ba->kind != EV_BA || !ba->bar_named || p->ev[k + 1].kind != EV_BW)
                continue;
            if (ba->bar_quorum > 0) {
                /* Dat3M's quorum (ProgramEncoder.encodeNamedBarrierCfQuorum): if at least q
                 * threads reach the barrier, at least q of them synchronize and all pass;
                 * with fewer, none passes.  Which arrivals synchronize is each path's choice:
                 * a combination with too few synchronizing ones is no execution. */
                int arrived = 0, syncing = 0;
                for (int u = 0; u < e->nthreads; u++) {
                    if (!e->active[u])
                        continue;
                    const thread *U2 = &t->threads[u];
                    if (u != th && !same_bar_domain(ba->bar_scope, T->gpu, T->wg, T->wave, U2->gpu, U2->wg, U2->wave))
                        continue;
                    const tpath *q = &e->tp[u].v[e->choice[u]];
                    for (int j = 0; j < q->nev; j++)
                        if (q->ev[j].kind == EV_BA && q->ev[j].bar_named && q->ev[j].bar_key == ba->bar_key &&
                            q->ev[j].bar == ba->bar) {
                            arrived++;
                            syncing += !q->ev[j].bar_nosync;
                            break;
                        }
                }
                if (arrived >= ba->bar_quorum && syncing < ba->bar_quorum)
                    return 1;
                if (arrived >= ba->bar_quorum)
                    continue;
                if (syncing < arrived)
                    return 1; /* the same hang, met once: every arrival counts as synchronizing */
                e->nev_of[th] = k + 1;
                e->hang = true;
                if (!e->hang_msg[0])
                    snprintf(e->hang_msg, sizeof e->hang_msg,
                             "%s:%d:%d: thread %s waits forever at this barrier: it needs %d threads and only %d of "
                             "its CTA reach it",
                             t->file, ba->src->pos.line, ba->src->pos.col, T->name, ba->bar_quorum, arrived);
                break;
            }
            int who = -1;
            for (int u = 0; u < e->nthreads && who < 0; u++) {
                if (!e->active[u])
                    continue;
                const thread *U2 = &t->threads[u];
                if (u == th || !same_bar_domain(ba->bar_scope, T->gpu, T->wg, T->wave, U2->gpu, U2->wg, U2->wave))
                    continue;
                const tpath *q = &e->tp[u].v[e->choice[u]];
                int cnt = 0;
                for (int j = 0; j < q->nev; j++)
                    cnt += q->ev[j].kind == EV_BA && q->ev[j].bar_named && q->ev[j].bar_key == ba->bar_key;
                if (cnt > 0 && cnt <= ba->bar)
                    who = u;
            }
            if (who < 0)
                continue;
            e->nev_of[th] = k + 1;
            e->hang = true;
            if (!e->hang_msg[0])
                snprintf(e->hang_msg, sizeof e->hang_msg,
                         "%s:%d:%d: thread %s waits forever at this barrier: thread %s of the same workgroup "
                         "never reaches it",
                         t->file, ba->src->pos.line, ba->src->pos.col, T->name, t->threads[who].name);
            break;
        }
    }
    /* Initial writes for every cell some event touches. */
    int n = 0;
    for (int c = 0; c < t->ncells; c++)
        e->iw_of_cell[c] = -1;
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const tpath *p = &e->tp[th].v[e->choice[th]];
        for (int k = 0; k < e->nev_of[th]; k++) {
            int c = p->ev[k].cell;
            if (c >= 0 && e->iw_of_cell[c] < 0) {
                if (n == REL_MAX)
                    return -1;
                e->iw_of_cell[c] = n;
                event *iw = &x->ev[n++];
                memset(iw, 0, sizeof *iw);
                iw->kind = EV_IW;
                iw->thread = -1;
                iw->cell = c;
                iw->ord = ORD_PLAIN;
                iw->scope = SCOPE_SYS;
                iw->rmw_partner = -1;
                iw->kernel = -1;
                const location *L = &t->locs[cell_loc(t, c)];
                iw->value = L->init[c - L->first_cell];
                iw->gpu = L->home < 0 ? 0 : L->home;
            }
        }
    }
    int niw = n;
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const thread *T = &t->threads[th];
        const tpath *p = &e->tp[th].v[e->choice[th]];
        e->first_ev[th] = n;
        if (n + e->nev_of[th] > REL_MAX)
            return -1;
        for (int k = 0; k < e->nev_of[th]; k++) {
            const pevent *pe = &p->ev[k];
            event *ev = &x->ev[n + k];
            memset(ev, 0, sizeof *ev);
            ev->kind = pe->kind;
            ev->thread = th;
            ev->cell = pe->cell;
            ev->ord = pe->ord;
            ev->scope = pe->scope;
            ev->rmw_partner = pe->partner >= 0 && pe->partner < e->nev_of[th] ? n + pe->partner : -1;
            ev->implicit = pe->implicit;
            ev->await_hang = pe->await_hang;
            ev->gpu = T->gpu;
            ev->wg = T->wg;
            ev->wave = T->wave;
            ev->kernel = T->kernel;
            ev->bar = pe->bar;
            ev->bar_named = pe->bar_named;
            ev->bar_key = pe->bar_key;
            ev->bar_quorum = pe->bar_quorum;
            ev->bar_nosync = pe->bar_nosync;
            ev->bar_scope = pe->bar_scope;
            ev->src = pe->src;
        }
        n += e->nev_of[th];
    }
    x->n = n;
    /* Reads not performed (cut off by a barrier hang) keep index -1 and read 0. */
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        for (int k = 0; k < 64; k++) {
            e->read_index[th][k] = -1;
            e->read_vals[th][k] = 0;
        }
    }
    /* Static relations. */
    e->nreads = 0;
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const tpath *p = &e->tp[th].v[e->choice[th]];
        int base = e->first_ev[th];
        int local_to_global[64];
        for (int k = 0; k < e->nev_of[th]; k++)
            if (p->ev[k].kind == EV_R)
                local_to_global[p->ev[k].read] = base + k;
        for (int k = 0; k < e->nev_of[th]; k++) {
            for (int j = k + 1; j < e->nev_of[th]; j++)
                rel_add(&x->po, base + k, base + j);
            const pevent *pe = &p->ev[k];
            if (pe->kind == EV_R && pe->partner > k && pe->partner < e->nev_of[th])
                rel_add(&x->rmw, base + k, base + pe->partner);
            uint64_t deps = pe->addr | pe->data | pe->ctrl;
            while (deps) {
                int r = __builtin_ctzll(deps);
                deps &= deps - 1;
                /* Dependencies on reads cut off by a barrier hang do not exist. */
                for (int q = 0; q < e->nev_of[th]; q++)
                    if (p->ev[q].kind == EV_R && p->ev[q].read == r && q < k)
                        rel_add(&x->dep, local_to_global[r], base + k);
            }
        }
    }
    /* Kernel and host order: initial writes first, then `after` chains. */
    int nk = t->nkernels;
    bool before[64][64] = {{0}};
    for (int k = 0; k < nk && k < 64; k++)
        for (int a = 0; a < t->kernels[k].nafter; a++)
            before[t->kernels[k].after[a]][k] = true;
    for (int m = 0; m < nk; m++)
        for (int i = 0; i < nk; i++)
            for (int j = 0; j < nk; j++)
                if (before[i][m] && before[m][j])
                    before[i][j] = true;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const event *a = &x->ev[i], *b = &x->ev[j];
            if (b->kind == EV_IW)
                continue;
            if (a->kind == EV_IW || (a->kernel >= 0 && b->kernel >= 0 && before[a->kernel][b->kernel]))
                rel_add(&x->kb, i, j);
            /* Barrier instance k: every arrive before every peer's wait. */
            if (a->kind == EV_BA && b->kind == EV_BW && a->thread != b->thread && !a->bar_nosync &&
                (a->bar_named ? same_bar_domain(a->bar_scope, a->gpu, a->wg, a->wave, b->gpu, b->wg, b->wave)
                              : a->gpu == b->gpu && a->wg == b->wg) &&
                a->bar == b->bar && a->bar_named == b->bar_named && a->bar_key == b->bar_key)
                rel_add(&x->bar, i, j);
        }
    /* Reads and their possible sources. */
    for (int i = niw; i < n; i++) {
        if (x->ev[i].kind != EV_R)
            continue;
        int r = e->nreads++;
        e->read_ev[r] = i;
        e->ncand[r] = 0;
        {
            int th = x->ev[i].thread;
            const tpath *p = &e->tp[th].v[e->choice[th]];
            e->read_index[th][p->ev[i - e->first_ev[th]].read] = r;
        }
        int c = x->ev[i].cell;
        /* The latest po-earlier write of the same thread to this cell, if any:
         * every model's coherence forbids reading anything older of its own. */
        int own = -1;
        for (int j = e->first_ev[x->ev[i].thread]; j < i; j++)
            if (x->ev[j].kind == EV_W && x->ev[j].cell == c)
                own = j;
        /* Sources whose value is known without the search and breaks a
         * constraint on this read alone are dropped here. */
        int th = x->ev[i].thread;
        const tpath *rp = &e->tp[th].v[e->choice[th]];
        int ri = rp->ev[i - e->first_ev[th]].read;
        e->settled[i] = true;
        if (own < 0 && satisfies(&e->tp[th], rp, ri, x->ev[e->iw_of_cell[c]].value))
            e->cand[r][e->ncand[r]++] = e->iw_of_cell[c];
        for (int j = niw; j < n; j++) {
            if (x->ev[j].kind != EV_W || x->ev[j].cell != c)
                continue;
            int wt = thread_of_event(e, j);
            if (wt == th && j != own)
                continue;
            const tpath *wp = &e->tp[wt].v[e->choice[wt]];
            int64_t v;
            if (!static_value(t, &e->tp[wt], &wp->ev[j - e->first_ev[wt]], &v))
                e->settled[i] = false;
            else if (!satisfies(&e->tp[th], rp, ri, v))
                continue;
            e->cand[r][e->ncand[r]++] = j;
        }
    }
    /* The search decides reads in read_class order, grouped by location, so
     * that an RMW chain is settled (atomicity, values) before anything else.
     * The read_index map follows the new order. */
    for (int a = 1; a < e->nreads; a++) {
        int ev = e->read_ev[a], nc = e->ncand[a], cand[REL_MAX];
        memcpy(cand, e->cand[a], (size_t)nc * sizeof *cand);
        int b = a;
        while (b > 0 && read_before(x, e->settled, ev, e->read_ev[b - 1])) {
            e->read_ev[b] = e->read_ev[b - 1];
            e->ncand[b] = e->ncand[b - 1];
            memcpy(e->cand[b], e->cand[b - 1], (size_t)e->ncand[b] * sizeof *cand);
            b--;
        }
        e->read_ev[b] = ev;
        e->ncand[b] = nc;
        memcpy(e->cand[b], cand, (size_t)nc * sizeof *cand);
    }
    for (int r = 0; r < e->nreads; r++) {
        int i = e->read_ev[r], th = x->ev[i].thread;
        const tpath *p = &e->tp[th].v[e->choice[th]];
        e->read_index[th][p->ev[i - e->first_ev[th]].read] = r;
    }
    /* Writes per cell, for co. */
    e->ncells_w = 0;
    for (int c = 0; c < t->ncells; c++) {
        if (e->iw_of_cell[c] < 0)
            continue;
        int k = e->ncells_w++;
        e->wcell[k] = c;
        e->nw[k] = 0;
        for (int j = niw; j < n; j++)
            if (x->ev[j].kind == EV_W && x->ev[j].cell == c)
                e->wlist[k][e->nw[k]++] = j;
    }
    return 0;
}


/* ---- a part, explored by one worker ------------------------------------------------ */

static void explore_part(explorer *e)
{
    const test *t = e->t;
    shared *sh = e->sh;
    for (int th = 0; th < t->nthreads; th++) {
        e->active[th] = sh->part_of[th] == e->part;
        e->choice[th] = 0;
    }
    for (;;) {
        int built = build_combination(e);
        if (built < 0) {
            pthread_mutex_lock(&sh->lock);
            if (!sh->failed)
                snprintf(sh->err, sizeof sh->err,
                         "%s: error: an execution has more than %d events: too large to explore", t->file, REL_MAX);
            sh->failed = 1;
            pthread_mutex_unlock(&sh->lock);
            return;
        }
        if (built == 0) {
            rel_begin(e->x->n);
            base_compute_static(&e->sbase, e->x, e->base_storage);
        }
        e->split = e->nreads < 3 ? e->nreads : 3;
        if (built > 0)
            e->split = -1; /* not an execution: a quorum barrier with too few synchronizing arrivals */
        else if (e->split == 0 && !worth_exploring(e, 0))
            e->split = -1; /* nothing to claim: the combination is impossible */
        if (e->split >= 0)
            enum_rf(e, 0);
        /* Next combination of the part's thread paths (odometer). */
        int th = 0;
        while (th < t->nthreads && (!e->active[th] || ++e->choice[th] == e->tp[th].n)) {
            if (e->active[th])
                e->choice[th] = 0;
            th++;
        }
        if (th == t->nthreads || sh->failed)
            break;
    }
}

typedef struct {
    shared *sh;
    int worker;
    bool own_thread;   /* a spawned thread: its arena goes with it */
} worker_arg;

static void *worker_main(void *arg)
{
    worker_arg *wa = arg;
    shared *sh = wa->sh;
    /* Most of the explorer is arrays filled before use: zeroing them all
     * (calloc) cost more than exploring a small test. */
    explorer *e = malloc(sizeof *e);
    memset(e, 0, offsetof(explorer, x));
    memset(&e->forced, 0, sizeof e->forced);
    e->sh = sh;
    e->t = sh->t;
    e->o = sh->o;
    e->tp = sh->tp;
    e->nthreads = sh->t->nthreads;
    e->worker = wa->worker;
    e->x = malloc(sizeof *e->x);
    e->prune = true;
    for (int m = 0; m < sh->o->nmodels; m++)
        e->prune = e->prune && sh->o->models[m]->prune_order;
    for (int p = 0; p < sh->nparts && !sh->failed; p++) {
        e->part = p;
        e->pr = &sh->results[p * sh->nworkers + wa->worker];
        e->unit = 0;
        e->key = 0;
        e->claimed = __atomic_fetch_add(&sh->next_unit[p], 1, __ATOMIC_RELAXED);
        explore_part(e);
    }
    __atomic_fetch_add(&sh->nodes, e->nodes, __ATOMIC_RELAXED);
    free(e->x);
    free(e);
    /* The arena is per thread; the reports that follow use their own. */
    if (wa->own_thread)
        rel_end();
    return NULL;
}

/* ---- parts ---------------------------------------------------------------------------- */

static int find_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static void unite(int *parent, int a, int b) { parent[find_root(parent, a)] = find_root(parent, b); }

/* Threads that share a cell, a workgroup or a fence.sc (or a Vulkan ssw)
 * belong to one part. */
static void split_parts(shared *sh)
{
    const test *t = sh->t;
    int n = t->nthreads, parent[MAX_THREADS];
    for (int i = 0; i < n; i++)
        parent[i] = i;
    int *owner = malloc((size_t)(t->ncells ? t->ncells : 1) * sizeof *owner);
    for (int c = 0; c < t->ncells; c++)
        owner[c] = -1;
    int sc_thread = -1;
    for (int th = 0; th < n; th++) {
        for (int p = 0; p < sh->tp[th].n; p++) {
            const tpath *pa = &sh->tp[th].v[p];
            for (int k = 0; k < pa->nev; k++) {
                const pevent *pe = &pa->ev[k];
                if (pe->cell >= 0) {
                    if (owner[pe->cell] < 0)
                        owner[pe->cell] = th;
                    else
                        unite(parent, th, owner[pe->cell]);
                }
                if ((pe->kind == EV_F && pe->ord == ORD_SEQ_CST) || pe->ord == ORD_SEQ_CST) {
                    if (sc_thread < 0)
                        sc_thread = th;
                    else
                        unite(parent, th, sc_thread);
                }
            }
        }
        for (int u = 0; u < th; u++)
            if (t->threads[u].gpu == t->threads[th].gpu && t->threads[u].wg == t->threads[th].wg)
                unite(parent, th, u);
    }
    for (int i = 0; i < t->nssw; i++)
        if (t->ssw[i][0] < n && t->ssw[i][1] < n)
            unite(parent, t->ssw[i][0], t->ssw[i][1]);
    int id[MAX_THREADS];
    for (int i = 0; i < n; i++)
        id[i] = -1;
    sh->nparts = 0;
    for (int th = 0; th < n; th++) {
        int r = find_root(parent, th);
        if (id[r] < 0)
            id[r] = sh->nparts++;
        sh->part_of[th] = id[r];
    }
    /* Show items go with the part of their thread, or of their cell's users;
     * a cell nobody touches keeps its initial value (part -1). */
    explore_result *res = sh->res;
    for (int p = 0; p < sh->nparts; p++) {
        sh->pshow[p] = malloc((size_t)(res->nshow ? res->nshow : 1) * sizeof **sh->pshow);
        sh->npshow[p] = 0;
    }
    for (int i = 0; i < res->nshow; i++) {
        const show_item *s = &res->show[i];
        int p = s->is_mem ? (owner[s->cell] >= 0 ? sh->part_of[owner[s->cell]] : -1) : sh->part_of[s->thread];
        if (p >= 0)
            sh->pshow[p][sh->npshow[p]++] = i;
    }
    free(owner);
}

/* ---- merging workers, combining parts --------------------------------------------------- */

static void part_model_free(part_model *pm)
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
    memset(pm, 0, sizeof *pm);
}

/* Adds src (one worker's result for a part) into dst. */
static void merge_part_model(part_model *dst, part_model *src, int ns)
{
    dst->consistent += src->consistent;
    dst->hangs += src->hangs;
    dst->errors += src->errors;
    dst->cuts += src->cuts;
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
        dst->outs[k].count += o->count;
        if (src->example[i] && (!dst->example[k] || src->example_key[i] < dst->example_key[k])) {
            free(dst->example[k]);
            dst->example[k] = src->example[i];
            dst->example_key[k] = src->example_key[i];
            src->example[i] = NULL;
        }
    }
    for (int i = 0; i < src->nraces; i++)
        race_slot(dst, &src->races[i])->count += src->races[i].count;
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

static int cmp_race_key(const void *a, const void *b)
{
    long ka = ((const race_report *)a)->key, kb = ((const race_report *)b)->key;
    return (ka > kb) - (ka < kb);
}

/* Sorts a part's outcomes (and their examples) by value, so that output does
 * not depend on the order workers found them in. */
static void sort_part(part_model *pm, int ns)
{
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

static void add_final_outcome(model_result *mr, const int64_t *vals, int ns, bool hang, bool error, bool cond, long count)
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
    o->count = count;
}

/* The product of the parts' outcomes under model m. */
static int combine(shared *sh, int m)
{
    const test *t = sh->t;
    explore_result *res = sh->res;
    model_result *mr = &res->mr[m];
    part_model *pm[MAX_THREADS];
    long combos = 1;
    mr->consistent = 1;
    for (int p = 0; p < sh->nparts; p++) {
        pm[p] = &sh->results[p * sh->nworkers].pm[m];
        combos *= pm[p]->nouts;
        mr->consistent *= pm[p]->consistent;
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
        mr->hangs += q->hangs ? 1 : 0;
        mr->cuts += q->cuts;
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
            mr->races[mr->nraces++] = q->races[i];
        }
    }
    mr->hangs = 0;
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
        long count = 1;
        bool hang = false, error = false;
        for (int p = 0; p < sh->nparts; p++) {
            const outcome *o = &pm[p]->outs[pick[p]];
            count *= o->count;
            hang = hang || o->hang;
            error = error || o->error;
            for (int i = 0; i < sh->npshow[p]; i++)
                vals[sh->pshow[p][i]] = o->vals[i];
        }
        bool cv = t->cond ? cond_on_vals(res, t->cond, vals) : true;
        if (cv)
            mr->positive += count;
        else
            mr->negative += count;
        if (hang)
            mr->hangs += count;
        if (error)
            mr->errors += count;
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

/* ---- driver ------------------------------------------------------------------------ */

int explore(const test *t, const explore_opts *o, explore_result *res)
{
    memset(res, 0, sizeof *res);
    res->t = t;
    res->nmodels = o->nmodels;
    for (int m = 0; m < o->nmodels; m++)
        res->mr[m].m = o->models[m];
    if (t->cond) {
        collect_show(res, t->cond);
    } else {
        for (int th = 0; th < t->nthreads; th++)
            for (int r = 0; r < t->threads[th].nregs; r++)
                add_show(res, (show_item){.thread = th, .reg = r});
        for (int c = 0; c < t->ncells; c++)
            add_show(res, (show_item){.is_mem = true, .cell = c});
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
    int rc = 0;
    for (int th = 0; th < t->nthreads && rc == 0; th++)
        rc = symexec_thread(t, th, &sh->tp[th], res->err, sizeof res->err);
    if (rc == 0)
        pathfilter(t, sh->tp);
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
            if (combine(sh, m) != 0) {
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
