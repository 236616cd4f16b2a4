#include "explore.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "symexec.h"

typedef struct {
    const test *t;
    const explore_opts *o;
    explore_result *res;
    thread_paths *tp;        /* per thread */
    int *choice;             /* path chosen per thread */
    /* the current combination */
    execution *x;
    int nthreads;
    int first_ev[64];        /* global id of each thread's first event */
    int nev_of[64];          /* events kept per thread (after barrier truncation) */
    int nreads;
    int read_ev[REL_MAX];    /* global ids of reads */
    int ncand[REL_MAX];
    int cand[REL_MAX][REL_MAX];
    int rf_of[REL_MAX];      /* per event: the write a read reads from */
    int64_t read_vals[64][64];
    int iw_of_cell[4096 + 64];
    bool hang;
    char hang_msg[512];
    const inst *error_at;
    const char *error;
    int error_thread;
    /* coherence enumeration */
    int ncells_w;
    int wcell[REL_MAX];
    int wlist[REL_MAX][REL_MAX];
    int nw[REL_MAX];
    int coperm[REL_MAX][REL_MAX];
    struct timespec start, last_progress;
    bool printed_progress;
} explorer;

static double elapsed(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) * 1e-9;
}

/* ---- the final condition ----------------------------------------------------- */

static int64_t operand_value(const explorer *e, const operand *o, const int64_t *mem)
{
    switch (o->kind) {
    case OPND_CONST: return o->value;
    case OPND_REG: {
        const tpath *p = &e->tp[o->thread].v[e->choice[o->thread]];
        return sym_eval(&e->tp[o->thread], p->regs[o->reg], e->read_vals[o->thread]);
    }
    default: return mem[o->cell];
    }
}

static bool cond_holds(const explorer *e, const cond *c, const int64_t *mem)
{
    switch (c->kind) {
    case C_TRUE: return true;
    case C_FALSE: return false;
    case C_AND: return cond_holds(e, c->a, mem) && cond_holds(e, c->b, mem);
    case C_OR: return cond_holds(e, c->a, mem) || cond_holds(e, c->b, mem);
    case C_NOT: return !cond_holds(e, c->a, mem);
    default: {
        bool eq = operand_value(e, &c->l, mem) == operand_value(e, &c->r, mem);
        return c->ne ? !eq : eq;
    }
    }
}

static void add_show(explore_result *r, show_item it)
{
    for (int i = 0; i < r->nshow; i++) {
        show_item *s = &r->show[i];
        if (s->is_mem == it.is_mem && (it.is_mem ? s->cell == it.cell : (s->thread == it.thread && s->reg == it.reg)))
            return;
    }
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

/* ---- recording ---------------------------------------------------------------- */

static int witness_rank(const model_verdict *v, bool cond_pos, bool forall, bool hang)
{
    if (forall ? !cond_pos : cond_pos)
        return 4;
    if (v->nraces)
        return 3;
    if (hang)
        return 2;
    return 1;
}

static void record(explorer *e, model_result *mr, const model_verdict *v, const int64_t *mem)
{
    const test *t = e->t;
    explore_result *res = e->res;
    mr->consistent++;
    bool c = t->cond ? cond_holds(e, t->cond, mem) : true;
    if (c)
        mr->positive++;
    else
        mr->negative++;
    if (e->hang) {
        mr->hangs++;
        if (!mr->hang_msg[0])
            snprintf(mr->hang_msg, sizeof mr->hang_msg, "%s", e->hang_msg);
    }
    if (e->error_at) {
        mr->errors++;
        if (!mr->error_msg[0])
            snprintf(mr->error_msg, sizeof mr->error_msg, "%s:%d:%d: thread %s: %s", t->file, e->error_at->pos.line,
                     e->error_at->pos.col, t->threads[e->error_thread].name, e->error);
    }
    /* The final state. */
    int64_t vals[256];
    int ns = res->nshow < 256 ? res->nshow : 256;
    for (int i = 0; i < ns; i++) {
        const show_item *s = &res->show[i];
        if (s->is_mem) {
            vals[i] = mem[s->cell];
        } else {
            operand o = {.kind = OPND_REG, .thread = s->thread, .reg = s->reg};
            vals[i] = operand_value(e, &o, mem);
        }
    }
    int k;
    for (k = 0; k < mr->nouts; k++) {
        outcome *o = &mr->outs[k];
        if (o->hang == e->hang && o->error == (e->error_at != NULL) && memcmp(o->vals, vals, (size_t)ns * sizeof *vals) == 0)
            break;
    }
    if (k == mr->nouts) {
        if (mr->nouts == mr->capouts) {
            mr->capouts = mr->capouts ? mr->capouts * 2 : 8;
            mr->outs = realloc(mr->outs, (size_t)mr->capouts * sizeof *mr->outs);
        }
        outcome *o = &mr->outs[mr->nouts++];
        o->vals = malloc((size_t)(ns ? ns : 1) * sizeof *vals);
        memcpy(o->vals, vals, (size_t)ns * sizeof *vals);
        o->hang = e->hang;
        o->error = e->error_at != NULL;
        o->cond = c;
        o->count = 0;
    }
    mr->outs[k].count++;
    /* Races, merged by instruction pair. */
    for (int i = 0; i < v->nraces; i++) {
        const event *a = &e->x->ev[v->races[i].a], *b = &e->x->ev[v->races[i].b];
        int j;
        for (j = 0; j < mr->nraces; j++) {
            race_report *r = &mr->races[j];
            if ((r->a == a->src && r->b == b->src && r->ta == a->thread && r->tb == b->thread) ||
                (r->a == b->src && r->b == a->src && r->ta == b->thread && r->tb == a->thread))
                break;
        }
        if (j == mr->nraces) {
            if (mr->nraces == mr->capraces) {
                mr->capraces = mr->capraces ? mr->capraces * 2 : 4;
                mr->races = realloc(mr->races, (size_t)mr->capraces * sizeof *mr->races);
            }
            race_report *r = &mr->races[mr->nraces++];
            memset(r, 0, sizeof *r);
            bool swap = a->thread > b->thread;
            r->ea = swap ? *b : *a;
            r->eb = swap ? *a : *b;
            r->ta = r->ea.thread;
            r->tb = r->eb.thread;
            r->a = r->ea.src;
            r->b = r->eb.src;
            r->why = v->races[i].why;
        }
        mr->races[j].count++;
    }
    int rank = witness_rank(v, c, t->quant == Q_FORALL, e->hang);
    if (rank > mr->witness_rank) {
        if (!mr->witness)
            mr->witness = malloc(sizeof *mr->witness);
        *mr->witness = *e->x;
        mr->witness_v = *v;
        mr->witness_rank = rank;
    }
}

/* ---- one candidate: values known, co chosen -------------------------------------- */

static void check_candidate(explorer *e)
{
    execution *x = e->x;
    const test *t = e->t;
    e->res->candidates++;
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
    base b;
    base_compute(&b, x);
    for (int m = 0; m < e->res->nmodels; m++) {
        model_result *mr = &e->res->mr[m];
        int mark = rel_mark();
        model_verdict v = {0};
        mr->m->check(&b, &v);
        if (v.consistent)
            record(e, mr, &v, mem);
        rel_release(mark);
    }
    if (e->o->progress && (e->res->candidates & 1023) == 0 && elapsed(&e->last_progress) > 1.0) {
        clock_gettime(CLOCK_MONOTONIC, &e->last_progress);
        fprintf(stderr, "\rmemsim: %s: %ld candidate executions, %.1f s", t->name, e->res->candidates, elapsed(&e->start));
        e->printed_progress = true;
    }
}

/* Permutations of each cell's writes that keep each thread's writes in po order. */
static void enum_co(explorer *e, int k, int i, bool *used)
{
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
        /* Every earlier write of w's thread to this cell must already be placed. */
        bool ok = true;
        for (int q = 0; q < e->nw[k] && ok; q++) {
            int w2 = e->wlist[k][q];
            if (!used[q] && q != j && rel_has(&e->x->po, w2, w))
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

/* ---- reads-from ---------------------------------------------------------------- */

static int thread_of_event(const explorer *e, int ev) { return e->x->ev[ev].thread; }

static int64_t write_value(const explorer *e, int th, const pevent *pw, int cell)
{
    int64_t v = sym_eval(&e->tp[th], pw->sym, e->read_vals[th]);
    return normalize_value(e->t->locs[cell_loc(e->t, cell)].type, v);
}

/* Values flow along rf and data dependencies; with rf | dep acyclic (checked
 * before) a simple fixpoint settles every read. */
static bool evaluate_values(explorer *e)
{
    execution *x = e->x;
    bool done[REL_MAX] = {0};
    int remaining = e->nreads;
    for (int pass = 0; remaining && pass <= e->nreads; pass++) {
        for (int r = 0; r < e->nreads; r++) {
            int ev = e->read_ev[r];
            if (done[r])
                continue;
            int w = e->rf_of[ev];
            const event *W = &x->ev[w];
            int64_t v;
            if (W->kind == EV_IW) {
                v = W->value;
            } else {
                int th = W->thread;
                const tpath *p = &e->tp[th].v[e->choice[th]];
                const pevent *pw = &p->ev[w - e->first_ev[th]];
                /* Are the reads its value depends on settled? */
                uint64_t need = e->tp[th].pool[pw->sym].deps;
                bool ready = true;
                for (int q = 0; q < e->nreads && ready; q++) {
                    int qe = e->read_ev[q];
                    if (x->ev[qe].thread == th && !done[q]) {
                        int local = p->ev[qe - e->first_ev[th]].read;
                        if (need >> local & 1)
                            ready = false;
                    }
                }
                if (!ready)
                    continue;
                v = write_value(e, th, pw, W->cell);
                x->ev[w].value = v;
            }
            int th = x->ev[ev].thread;
            const tpath *p = &e->tp[th].v[e->choice[th]];
            e->read_vals[th][p->ev[ev - e->first_ev[th]].read] = v;
            x->ev[ev].value = v;
            done[r] = true;
            remaining--;
        }
    }
    if (remaining)
        return false;
    /* Writes nobody reads still need their values (final memory). */
    for (int i = 0; i < x->n; i++) {
        event *W = &x->ev[i];
        if (W->kind != EV_W)
            continue;
        int th = W->thread;
        const tpath *p = &e->tp[th].v[e->choice[th]];
        W->value = write_value(e, th, &p->ev[i - e->first_ev[th]], W->cell);
    }
    /* Each path's constraints must hold for this path to be the one taken. */
    for (int th = 0; th < e->nthreads; th++) {
        const tpath *p = &e->tp[th].v[e->choice[th]];
        for (int c = 0; c < p->ncons; c++)
            if (!sym_eval(&e->tp[th], p->cons[c], e->read_vals[th]))
                return false;
    }
    return true;
}

static void enum_rf(explorer *e, int r)
{
    execution *x = e->x;
    if (r == e->nreads) {
        rel_begin(x->n);
        /* Every model here forbids rf | dep cycles (thin air); values along
         * such a cycle could not be computed anyway. */
        if (!acyclic(U(&x->rf, &x->dep)))
            return;
        if (!evaluate_values(e))
            return;
        bool used[REL_MAX] = {0};
        enum_co(e, 0, 0, used);
        return;
    }
    int ev = e->read_ev[r];
    for (int i = 0; i < e->ncand[r]; i++) {
        int w = e->cand[r][i];
        e->rf_of[ev] = w;
        rel_add(&x->rf, w, ev);
        enum_rf(e, r + 1);
        x->rf.row[w].w[ev / 64] &= ~(1ull << (ev % 64));
    }
}

/* ---- one combination of thread paths -------------------------------------------- */

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
    for (int th = 0; th < e->nthreads; th++) {
        const tpath *p = &e->tp[th].v[e->choice[th]];
        e->nev_of[th] = p->nev;
        if (p->hung)
            e->hang = true;
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
        const thread *T = &t->threads[th];
        int minbar = e->tp[th].v[e->choice[th]].nbar, who = th;
        for (int u = 0; u < e->nthreads; u++) {
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
    /* Named barriers (import/): the threads of a workgroup that use a name
     * take part in it; a thread that waits at more instances of a name than
     * a participant reaches waits forever at the first one it misses. */
    for (int th = 0; th < e->nthreads; th++) {
        const thread *T = &t->threads[th];
        const tpath *p = &e->tp[th].v[e->choice[th]];
        for (int k = 0; k + 1 < e->nev_of[th]; k++) {
            const pevent *ba = &p->ev[k];
            if (ba->kind != EV_BA || !ba->bar_named || p->ev[k + 1].kind != EV_BW)
                continue;
            int who = -1;
            for (int u = 0; u < e->nthreads && who < 0; u++) {
                const thread *U2 = &t->threads[u];
                if (u == th || U2->gpu != T->gpu || U2->wg != T->wg)
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
            ev->src = pe->src;
        }
        n += e->nev_of[th];
    }
    x->n = n;
    /* Static relations. */
    e->nreads = 0;
    for (int th = 0; th < e->nthreads; th++) {
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
            if (a->kind == EV_BA && b->kind == EV_BW && a->thread != b->thread && a->gpu == b->gpu && a->wg == b->wg &&
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
        int c = x->ev[i].cell;
        /* The latest po-earlier write of the same thread to this cell, if any:
         * every model's coherence forbids reading anything older of its own. */
        int own = -1;
        for (int j = e->first_ev[x->ev[i].thread]; j < i; j++)
            if (x->ev[j].kind == EV_W && x->ev[j].cell == c)
                own = j;
        if (own < 0)
            e->cand[r][e->ncand[r]++] = e->iw_of_cell[c];
        for (int j = niw; j < n; j++) {
            if (x->ev[j].kind != EV_W || x->ev[j].cell != c)
                continue;
            if (thread_of_event(e, j) == x->ev[i].thread && j != own)
                continue;
            e->cand[r][e->ncand[r]++] = j;
        }
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
    if (t->nthreads > 64 || t->ncells > 4096) {
        snprintf(res->err, sizeof res->err, "%s: error: at most 64 threads and 4096 memory cells can be explored", t->file);
        return -1;
    }
    explorer *e = calloc(1, sizeof *e);
    e->t = t;
    e->o = o;
    e->res = res;
    e->nthreads = t->nthreads;
    e->tp = calloc((size_t)t->nthreads, sizeof *e->tp);
    e->choice = calloc((size_t)t->nthreads, sizeof *e->choice);
    e->x = malloc(sizeof *e->x);
    clock_gettime(CLOCK_MONOTONIC, &e->start);
    e->last_progress = e->start;
    int rc = 0;
    for (int th = 0; th < t->nthreads && rc == 0; th++)
        rc = symexec_thread(t, th, &e->tp[th], res->err, sizeof res->err);
    while (rc == 0) {
        if (build_combination(e) < 0) {
            snprintf(res->err, sizeof res->err, "%s: error: an execution has more than %d events: too large to explore",
                     t->file, REL_MAX);
            rc = -1;
            break;
        }
        enum_rf(e, 0);
        /* Next combination of paths (odometer). */
        int th = 0;
        while (th < t->nthreads && ++e->choice[th] == e->tp[th].n) {
            e->choice[th] = 0;
            th++;
        }
        if (th == t->nthreads)
            break;
    }
    res->seconds = elapsed(&e->start);
    if (e->printed_progress)
        fprintf(stderr, "\r%*s\r", 79, "");
    for (int th = 0; th < t->nthreads; th++)
        thread_paths_free(&e->tp[th]);
    free(e->tp);
    free(e->choice);
    free(e->x);
    free(e);
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
