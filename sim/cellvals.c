/* The values a cell can hold.  Every write's value is what started its
 * reads-from chain -- the initial value, or a store whose value is a
 * constant -- plus the deltas of the distinct read-modify-writes along the
 * chain (an RMW adding a constant; a CAS that writes the value it compared
 * with adds 0).  Reads-from with dependencies is acyclic in every model, so
 * each RMW occurs at most once on a chain, and the values are the starts
 * plus the subset sums of the RMWs that some combination of paths makes.
 * For a cell whose writes are all such RMWs, morally strong with each other,
 * atomicity makes them one chain in coherence order and the last value is
 * the initial one plus every delta of the execution: an await that hangs
 * reads it.
 *
 * Iris's epoch barrier adds 1 to its own counter once and CASes a peer's
 * counter from the target to itself: the counters hold 0 and 1 only, the
 * epoch is 1, a CAS that exits because the peer is ahead (> 1) and a spin
 * that hangs below 1 after the peer's add are impossible, and each rank
 * keeps one path of 15 at 4 ranks. */
#include "cellvals.h"
#include "pathfilter.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../model/base.h"

enum { MAX_VALUES = 256, MAX_ASSIGNMENTS = 1 << 16, MAX_SITES = 16 };

/* A cell's RMW writes, one per scope instance and order. */
typedef struct {
    event ev[MAX_SITES];
    int n;
} rmwsites;

typedef enum { EFFECT_UNKNOWN, EFFECT_ADD, EFFECT_STORE } effect_t;

static bool same_value(const thread_paths *tp, int a, int b)
{
    return a == b || (tp->pool[a].kind == S_CONST && tp->pool[b].kind == S_CONST && tp->pool[a].value == tp->pool[b].value);
}

/* What write k of path p does to its cell: adds *v to what its RMW read, or
 * stores *v whatever it read, or something else. */
static effect_t write_effect(const test *t, const thread_paths *tp, const tpath *p, int k, int64_t *v)
{
    const pevent *w = &p->ev[k];
    if (w->partner >= 0 && w->partner < k && p->ev[w->partner].kind == EV_R) {
        int rn = p->ev[w->partner].sym;
        const symnode *n = &tp->pool[w->sym];
        if (n->kind == S_RMW && n->a == rn && tp->pool[n->b].kind == S_CONST) {
            int op = (int)(n->value & ~RMW_UNSIGNED);
            int64_t c = tp->pool[n->b].value;
            if (op == RMW_ADD || op == RMW_SUB) {
                *v = op == RMW_ADD ? c : (int64_t)(0 - (uint64_t)c);
                return EFFECT_ADD;
            }
        }
        /* A CAS writes only when the value read equals the expected one: when
         * it writes that same value, it changes nothing. */
        for (int i = 0; i < p->ncons; i++) {
            const symnode *c = &tp->pool[p->cons[i]];
            if (c->kind == S_BIN && c->op == BIN_EQ &&
                ((c->a == rn && same_value(tp, c->b, w->sym)) || (c->b == rn && same_value(tp, c->a, w->sym)))) {
                *v = 0;
                return EFFECT_ADD;
            }
        }
    }
    if (static_value(t, tp, w, v))
        return EFFECT_STORE;
    return EFFECT_UNKNOWN;
}

static int first_barrier(const tpath *p)
{
    for (int k = 0; k < p->nev; k++)
        if (p->ev[k].kind == EV_BA || p->ev[k].kind == EV_BW)
            return k;
    return p->nev;
}


/* A set of at most MAX_VALUES values; false when it would grow beyond. */
static bool set_insert(int64_t *vals, int *n, int64_t v)
{
    for (int i = 0; i < *n; i++)
        if (vals[i] == v)
            return true;
    if (*n == MAX_VALUES)
        return false;
    vals[(*n)++] = v;
    return true;
}

/* vals := vals + every subset sum of `count` copies of delta. */
static bool add_copies(vtype_t ty, int64_t *vals, int *n, int64_t delta, int count)
{
    if (delta == 0)
        return true;
    for (int c = 0; c < count; c++) {
        int before = *n;
        for (int i = 0; i < before; i++)
            if (!set_insert(vals, n, normalize_value(ty, (int64_t)((uint64_t)vals[i] + (uint64_t)delta))))
                return false;
        if (*n == before)
            break;
    }
    return true;
}

static addcount *entry(cellvals *c, int th, int64_t delta, bool create)
{
    for (int i = 0; i < c->nadds; i++)
        if (c->adds[i].thread == th && c->adds[i].delta == delta)
            return &c->adds[i];
    if (!create)
        return NULL;
    c->adds = realloc(c->adds, (size_t)(c->nadds + 1) * sizeof *c->adds);
    c->adds[c->nadds] = (addcount){th, delta, INT_MAX, 0};
    return &c->adds[c->nadds++];
}

cellvals *cellvals_build(const test *t, const thread_paths *tp)
{
    int nc = t->ncells;
    cellvals *cv = calloc((size_t)nc + 1, sizeof *cv);
    rmwsites *sites = calloc((size_t)nc + 1, sizeof *sites);
    for (int c = 0; c < nc; c++) {
        const location *L = &t->locs[cell_loc(t, c)];
        cv[c].init = L->init[c - L->first_cell];
        cv[c].vals = malloc(MAX_VALUES * sizeof *cv[c].vals);
        cv[c].vals[0] = cv[c].init;
        cv[c].nvals = 1;
        cv[c].bounded = L->type != TY_F32;
        cv[c].chain = cv[c].bounded;
    }
    /* The writes: starts of chains, and each thread's adds. */
    for (int th = 0; th < t->nthreads; th++)
        for (int i = 0; i < tp[th].n; i++) {
            const tpath *p = &tp[th].v[i];
            for (int k = 0; k < p->nev; k++) {
                if (p->ev[k].kind != EV_W)
                    continue;
                cellvals *c = &cv[p->ev[k].cell];
                int64_t v;
                effect_t eff = write_effect(t, &tp[th], p, k, &v);
                if (eff == EFFECT_UNKNOWN) {
                    c->bounded = c->chain = false;
                } else if (eff == EFFECT_STORE) {
                    c->chain = false;
                    if (c->bounded && !set_insert(c->vals, &c->nvals,
                                                  normalize_value(t->locs[cell_loc(t, p->ev[k].cell)].type, v)))
                        c->bounded = false;
                } else {
                    entry(c, th, v, true);
                    /* Atomicity needs every pair of the RMWs morally strong:
                     * each new scope instance is checked against those seen. */
                    event ev = pevent_event(t, th, &p->ev[k]);
                    rmwsites *s = &sites[p->ev[k].cell];
                    bool seen = false;
                    for (int j = 0; j < s->n && !seen; j++)
                        seen = s->ev[j].scope == ev.scope && s->ev[j].gpu == ev.gpu && s->ev[j].wg == ev.wg &&
                               s->ev[j].wave == ev.wave && s->ev[j].ord == ev.ord;
                    if (seen)
                        continue;
                    if (ev.ord == ORD_PLAIN)
                        c->chain = false;
                    for (int j = 0; j < s->n; j++)
                        if (!scopes_include(t, &s->ev[j], &ev))
                            c->chain = false;
                    if (s->n < MAX_SITES)
                        s->ev[s->n++] = ev;
                    else
                        c->chain = false;
                }
            }
        }
    /* Each thread's adds per path: the most on some path, the fewest on
     * every path before its first barrier. */
    addcount **mine = malloc(sizeof *mine);
    int *mcell = malloc(sizeof *mcell);
    int nmine = 0;
    for (int th = 0; th < t->nthreads; th++) {
        nmine = 0;
        for (int c = 0; c < nc; c++)
            for (int a = 0; a < cv[c].nadds; a++)
                if (cv[c].adds[a].thread == th) {
                    mine = realloc(mine, (size_t)(nmine + 1) * sizeof *mine);
                    mcell = realloc(mcell, (size_t)(nmine + 1) * sizeof *mcell);
                    mcell[nmine] = c;
                    mine[nmine++] = &cv[c].adds[a];
                }
        if (nmine == 0)
            continue;
        int *all = calloc((size_t)nmine, sizeof *all), *before = calloc((size_t)nmine, sizeof *before);
        for (int i = 0; i < tp[th].n; i++) {
            const tpath *p = &tp[th].v[i];
            int fb = first_barrier(p);
            memset(all, 0, (size_t)nmine * sizeof *all);
            memset(before, 0, (size_t)nmine * sizeof *before);
            for (int k = 0; k < p->nev; k++) {
                int64_t v;
                if (p->ev[k].kind != EV_W || write_effect(t, &tp[th], p, k, &v) != EFFECT_ADD)
                    continue;
                for (int a = 0; a < nmine; a++)
                    if (mcell[a] == p->ev[k].cell && mine[a]->delta == v) {
                        all[a]++;
                        before[a] += k < fb;
                    }
            }
            for (int a = 0; a < nmine; a++) {
                if (all[a] > mine[a]->max)
                    mine[a]->max = all[a];
                if (before[a] < mine[a]->min_before_barrier)
                    mine[a]->min_before_barrier = before[a];
            }
        }
        free(all);
        free(before);
    }
    free(mine);
    free(mcell);
    for (int c = 0; c < nc; c++) {
        vtype_t ty = t->locs[cell_loc(t, c)].type;
        for (int a = 0; a < cv[c].nadds && cv[c].bounded; a++)
            if (!add_copies(ty, cv[c].vals, &cv[c].nvals, cv[c].adds[a].delta, cv[c].adds[a].max))
                cv[c].bounded = false;
        cv[c].chain = cv[c].chain && cv[c].bounded;
    }
    free(sites);
    return cv;
}

void cellvals_free(cellvals *cv, int ncells)
{
    if (!cv)
        return;
    for (int c = 0; c < ncells; c++) {
        free(cv[c].vals);
        free(cv[c].adds);
    }
    free(cv);
}

/* The last values of a chain cell when thread th hangs at read k of path p:
 * every other thread's adds that happen on each of its paths, th's own before
 * k, and any of the others' that some path makes. */
static bool final_values(const test *t, const cellvals *c, const thread_paths *tp, const tpath *p, int th, int k,
                         int64_t *vals, int *n)
{
    vtype_t ty = t->locs[cell_loc(t, p->ev[k].cell)].type;
    int64_t sure = c->init;
    for (int a = 0; a < c->nadds; a++)
        if (c->adds[a].thread != th)
            sure = (int64_t)((uint64_t)sure + (uint64_t)c->adds[a].delta * (uint64_t)c->adds[a].min_before_barrier);
    for (int j = 0; j < k; j++) {
        int64_t v;
        if (p->ev[j].kind == EV_W && p->ev[j].cell == p->ev[k].cell && write_effect(t, tp, p, j, &v) == EFFECT_ADD)
            sure = (int64_t)((uint64_t)sure + (uint64_t)v);
    }
    *n = 0;
    set_insert(vals, n, normalize_value(ty, sure));
    for (int a = 0; a < c->nadds; a++)
        if (c->adds[a].thread != th &&
            !add_copies(ty, vals, n, c->adds[a].delta, c->adds[a].max - c->adds[a].min_before_barrier))
            return false;
    return true;
}

/* What the path's constraints are checked with: a node that must be true,
 * or a write's value that must be one its cell can hold. */
typedef struct {
    int node;
    const cellvals *in;   /* NULL: truth */
    uint64_t deps;
} check;

static bool check_holds(const thread_paths *tp, const check *c, const int64_t *reads)
{
    int64_t v = sym_eval(tp, c->node, reads);
    if (!c->in)
        return v != 0;
    for (int i = 0; i < c->in->nvals; i++)
        if (c->in->vals[i] == v)
            return true;
    return false;
}

static int find_root(int *up, int a)
{
    while (up[a] != a)
        a = up[a] = up[up[a]];
    return a;
}

bool cellvals_path_feasible(const test *t, const cellvals *cv, const thread_paths *tp, const tpath *p, int th,
                            bool whole)
{
    int limit = whole ? p->nev : first_barrier(p);
    const int64_t *dom[MAX_READS_PER_THREAD] = {0};
    int ndom[MAX_READS_PER_THREAD] = {0};
    int64_t *owned[MAX_READS_PER_THREAD] = {0};
    uint64_t performed = 0, bounded = 0;
    for (int k = 0; k < limit; k++) {
        const pevent *r = &p->ev[k];
        if (r->kind != EV_R || r->read < 0 || r->read >= MAX_READS_PER_THREAD)
            continue;
        performed |= 1ull << r->read;
        const cellvals *c = &cv[r->cell];
        if (!c->bounded)
            continue;
        dom[r->read] = c->vals;
        ndom[r->read] = c->nvals;
        if (r->await_hang && c->chain) {
            int64_t *fin = malloc(MAX_VALUES * sizeof *fin);
            int n;
            if (final_values(t, c, tp, p, th, k, fin, &n)) {
                owned[r->read] = fin;
                dom[r->read] = fin;
                ndom[r->read] = n;
            } else {
                free(fin);
            }
        }
        bounded |= 1ull << r->read;
    }
    check *checks = malloc((size_t)(p->ncons + limit + 1) * sizeof *checks);
    int nchecks = 0;
    for (int i = 0; i < p->ncons; i++) {
        uint64_t d = tp->pool[p->cons[i]].deps;
        /* The explorer checks a constraint once its reads are performed. */
        if ((d & ~performed) == 0 && (d & ~bounded) == 0)
            checks[nchecks++] = (check){p->cons[i], NULL, d};
    }
    for (int k = 0; k < limit; k++) {
        const pevent *w = &p->ev[k];
        uint64_t d;
        if (w->kind != EV_W || !cv[w->cell].bounded || ((d = tp->pool[w->sym].deps) & ~bounded) != 0)
            continue;
        checks[nchecks++] = (check){w->sym, &cv[w->cell], d};
    }
    /* Reads tied by a check are judged together, a group at a time. */
    int up[MAX_READS_PER_THREAD];
    for (int r = 0; r < MAX_READS_PER_THREAD; r++)
        up[r] = r;
    for (int i = 0; i < nchecks; i++) {
        uint64_t d = checks[i].deps;
        int first = d ? __builtin_ctzll(d) : -1;
        for (; d; d &= d - 1)
            up[find_root(up, __builtin_ctzll(d))] = find_root(up, first);
    }
    bool feasible = true;
    uint64_t done = 0;
    for (int i = 0; i < nchecks && feasible; i++) {
        int root = checks[i].deps ? find_root(up, __builtin_ctzll(checks[i].deps)) : -1;
        if (root >= 0 && (done >> root & 1))
            continue;
        int reads[MAX_READS_PER_THREAD], nr = 0;
        long total = 1;
        for (int r = 0; r < MAX_READS_PER_THREAD && root >= 0; r++)
            if ((bounded >> r & 1) && find_root(up, r) == root) {
                reads[nr++] = r;
                total *= ndom[r];
                if (total > MAX_ASSIGNMENTS)
                    break;
            }
        if (root >= 0)
            done |= 1ull << root;
        if (total > MAX_ASSIGNMENTS)
            continue;
        int64_t vals[MAX_READS_PER_THREAD] = {0};
        int at[MAX_READS_PER_THREAD] = {0};
        bool some = false;
        for (long a = 0; a < total && !some; a++) {
            for (int j = 0; j < nr; j++)
                vals[reads[j]] = dom[reads[j]][at[j]];
            some = true;
            for (int c = 0; c < nchecks && some; c++) {
                int cr = checks[c].deps ? find_root(up, __builtin_ctzll(checks[c].deps)) : -1;
                if (cr == root)
                    some = check_holds(tp, &checks[c], vals);
            }
            for (int j = 0; j < nr && ++at[j] == ndom[reads[j]]; j++)
                at[j] = 0;
        }
        feasible = some;
    }
    free(checks);
    for (int r = 0; r < MAX_READS_PER_THREAD; r++)
        free(owned[r]);
    return feasible;
}
