/* The depth-first search over reads-from: each read's source in turn, the
 * values the decided sources settle, and pruning of partial choices that
 * the path constraints or every requested model rule out. */
#include "explore_internal.h"

#include <stdlib.h>
#include <string.h>

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

/* Is some write to w's cell coherence-after w in every completion of the
 * first `decided` reads-from?  The rules the leaves force co with
 * (worth_exploring, enum_co), restricted to what is decided: a later write
 * of w's own thread (po), the write that a read po-after w reads (CoWR), and
 * a write po-after a read of w (CoRW, with incl as PTX needs).  A hanging
 * await must read the last write, so such a w cuts the branch here instead
 * of at every leaf below it. */
static bool some_write_coherence_after(const explorer *e, int decided, int w)
{
    const execution *x = e->x;
    int c = x->ev[w].cell;
    int k = 0;
    while (k < e->ncells_w && e->wcell[k] != c)
        k++;
    for (int a = 0; k < e->ncells_w && a < e->nw[k]; a++) {
        int w2 = e->wlist[k][a];
        if (w2 != w && rel_has(&x->po, w, w2))
            return true;
    }
    for (int q = 0; q < decided; q++) {
        int r = e->read_ev[q], src = e->rf_of[r];
        if (x->ev[r].cell != c)
            continue;
        if (src != w && x->ev[src].kind != EV_IW && rel_has(&x->po, w, r) &&
            same_access_path(x->t, &x->ev[w], &x->ev[r]) && same_access_path(x->t, &x->ev[src], &x->ev[r]))
            return true; /* CoWR: w is before the write r reads */
        if (src != w || k == e->ncells_w)
            continue;
        for (int a = 0; a < e->nw[k]; a++) {
            int w2 = e->wlist[k][a];
            if (w2 != w && rel_has(&x->po, r, w2) && same_access_path(x->t, &x->ev[w2], &x->ev[r]) &&
                same_access_path(x->t, &x->ev[w], &x->ev[r]) && rel_has(e->sbase.incl, w, r) &&
                rel_has(e->sbase.incl, w, w2))
                return true; /* CoRW */
        }
    }
    return false;
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
        if (some_write_coherence_after(e, decided, w))
            return false;
    }
    return true;
}

/* Morally strong, as PTX needs for its per-location axiom: the same thread,
 * or two atomics whose scopes include each other. */
static bool strong_pair(const explorer *e, int a, int b)
{
    const event *A = &e->x->ev[a], *B = &e->x->ev[b];
    if (!same_access_path(e->x->t, A, B))
        return false;
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
    /* The parent node checked every pair of the reads before the newest. */
    int newest = decided - 1;
    for (int j = 0; j < decided; j++) {
        int r2 = e->read_ev[j], w2 = e->rf_of[r2];
        for (int i = j == newest ? 0 : newest; i < decided; i++) {
            int r1 = e->read_ev[i], w1 = e->rf_of[r1];
            if (w1 == w2 || x->ev[r1].cell != x->ev[r2].cell || !rel_has(&x->po, r1, r2) ||
                !same_access_path(x->t, &x->ev[r1], &x->ev[r2]))
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

/* The prune orders computed at a node of each depth (worth_exploring). */
static void store_order(explorer *e, int depth, int m, R order)
{
    int n = e->x->n, nm = e->o->nmodels;
    size_t need = (size_t)(e->nreads + 1) * (size_t)nm * (size_t)n;
    if (need > e->order_cap) {
        free(e->order_rows);
        e->order_rows = malloc(need * sizeof *e->order_rows);
        e->order_cap = need;
    }
    memcpy(&e->order_rows[((size_t)depth * (size_t)nm + (size_t)m) * (size_t)n], order->row, (size_t)n * sizeof order->row[0]);
    e->order_have[depth] = true;
}

static R stored_order(explorer *e, int depth, int m)
{
    int n = e->x->n, nm = e->o->nmodels;
    rel *o = rel_new();
    memcpy(o->row, &e->order_rows[((size_t)depth * (size_t)nm + (size_t)m) * (size_t)n], (size_t)n * sizeof o->row[0]);
    return o;
}

/* May some completion of the first `decided` reads-from be consistent under
 * some model?  At a leaf, also records what co every model forces. */
bool worth_exploring(explorer *e, int decided)
{
    e->nodes++;
    budget_after_node(e);
    execution *x = e->x;
    rel_begin(x->n);
    /* Every model here forbids rf | dep cycles (thin air); values along such
     * a cycle could not be computed anyway.  rf only goes from writes to
     * reads: without a dependency there is no cycle. */
    if (e->any_dep && e->rf_dep_cycle)
        return false;
    if (!settle_values(e, decided))
        return false;
    if (!hang_reads_can_be_last(e, decided))
        return false;
    if (!reads_coherent_along_po(e, decided))
        return false;
    /* At a leaf whose cells have one write each, co has one choice: the
     * models' check of that one candidate decides what the prune orders
     * would, and there is nothing for them to force. */
    bool single_co = decided == e->nreads;
    for (int k = 0; k < e->ncells_w && single_co; k++)
        single_co = e->nw[k] <= 1;
    bool leaf = decided == e->nreads;
    e->order_have[decided] = false;
    if (!e->prune || single_co) {
        if (leaf)
            memset(e->forced.row, 0, (size_t)x->n * sizeof e->forced.row[0]);
        return true;
    }
    /* rf is the execution's own; po_loc and fr (base_compute_dynamic) wait
     * until a model's order is computed. */
    base b = e->sbase;
    set dec = set_empty();
    for (int r = 0; r < decided; r++)
        set_add(&dec, e->read_ev[r]);
    /* The orders of the nearest ancestor that computed them.  A prune order
     * only grows with rf (model.h), so what the ancestor's order rules out,
     * this node's would too: that check costs a scan, not a model.  In a
     * depth-first search the last node met at a smaller depth is an
     * ancestor, and each node clears its own depth's slot first.  The nodes
     * between passed the same orders (with one model; with several, a
     * missed cut is only less pruning), so only the newest read is checked. */
    int anc = decided - 1;
    while (anc >= 0 && !e->order_have[anc])
        anc--;
    R stale[MAX_MODELS];
    if (anc >= 0) {
        bool all = true;
        for (int m = 0; m < e->o->nmodels; m++) {
            stale[m] = stored_order(e, anc, m); /* every model's: a leaf may force co with them */
            all = all && violates_prune_order_at(&b, stale[m], dec, e->read_ev[decided - 1]);
        }
        if (all)
            return false;
    }
    /* Pruning only saves work: the models' own orders, where they never cut
     * more than the ancestor's at this depth, are computed once in 64 times
     * only (sampling again in case the part of the tree changes), so a test
     * whose partial choices all survive -- an SB ring, the plain reads of a
     * barrier test -- does not pay a model's prune order at every node.  A
     * leaf without them keeps the ancestor's orders for forcing co. */
    bool sample = e->prune_tries[decided] < 64 || e->prune_hits[decided] * 64 >= e->prune_tries[decided] ||
                  (e->prune_skips[decided]++ & 63) == 0;
    if (!sample && !(leaf && anc >= 0)) {
        if (leaf)
            memset(e->forced.row, 0, (size_t)x->n * sizeof e->forced.row[0]);
        return true;
    }
    if (sample)
        e->prune_tries[decided]++;
    base_compute_dynamic(&b);
    bool all_violate = true;
    rel *forced = leaf ? rel_new() : NULL;
    for (int m = 0; m < e->o->nmodels; m++) {
        int mark = rel_mark();
        R order = sample ? e->o->models[m]->prune_order(&b) : stale[m];
        if (sample)
            store_order(e, decided, m, order);
        bool violates = violates_prune_order(&b, order, dec);
        all_violate = all_violate && violates;
        if (forced) {
            /* Writes to one cell that the order relates: co must agree
             * (the first model's pairs, kept where every model has them).
             * Only pairs of a cell's writes: the rest of n x n never is. */
            for (int k = 0; k < e->ncells_w; k++)
                for (int a = 0; a < e->nw[k]; a++)
                    for (int c = 0; c < e->nw[k]; c++) {
                        int i = e->wlist[k][a], j = e->wlist[k][c];
                        bool f = i != j && rel_has(order, i, j);
                        if (m == 0 && f)
                            rel_add(forced, i, j);
                        else if (m > 0 && !f)
                            forced->row[i].w[j / 64] &= ~(1ull << (j % 64));
                    }
        }
        rel_release(mark);
        if (!violates && !forced) {
            /* The models after m keep no order at this depth. */
            if (sample && m + 1 < e->o->nmodels)
                e->order_have[decided] = false;
            return true;
        }
    }
    if (sample)
        e->order_have[decided] = !all_violate;
    if (forced && !all_violate) {
        /* Coherence along reads-from, the same in every model here: a thread's
         * own earlier write is before what it reads (CoWR), and a write after
         * a read is after the write it read (CoRW; PTX needs the accesses to
         * be morally strong, hence incl). */
        for (int q = 0; q < e->nreads; q++) {
            int r = e->read_ev[q];
            int w = e->rf_of[r];
            if (x->ev[w].kind == EV_IW)
                continue;
            int k = 0;
            while (k < e->ncells_w && e->wcell[k] != x->ev[r].cell)
                k++;
            for (int c = 0; k < e->ncells_w && c < e->nw[k]; c++) {
                int w2 = e->wlist[k][c];
                if (w2 == w || !same_access_path(x->t, &x->ev[w2], &x->ev[r]) ||
                    !same_access_path(x->t, &x->ev[w], &x->ev[r]))
                    continue;
                if (rel_has(&x->po, w2, r))
                    rel_add(forced, w2, w);
                else if (rel_has(&x->po, r, w2) && rel_has(b.incl, w, r) && rel_has(b.incl, w, w2))
                    rel_add(forced, w, w2);
            }
        }
        memcpy(e->forced.row, forced->row, (size_t)x->n * sizeof forced->row[0]);
    }
    if (all_violate && sample)
        e->prune_hits[decided]++;
    return !all_violate;
}

void enum_rf(explorer *e, int r)
{
    execution *x = e->x;
    if (should_stop(e))
        return;
    if (r == e->split && !claim_unit(e))
        return;
    if (r == e->nreads) {
        if (!commute_weight(e))
            return;
        bool used[REL_MAX] = {0};
        enum_co(e, 0, 0, used);
        return;
    }
    int ev = e->read_ev[r];
    int mark = e->any_dep ? closure_mark(&e->rf_dep) : 0;
    for (int i = 0; i < e->ncand[r]; i++) {
        int w = e->cand[r][i];
        e->at[r] = i;
        e->rf_of[ev] = w;
        rel_add(&x->rf, w, ev);
        /* The parent's rf | dep was acyclic (its node passed), so this one
         * is iff the new edge closes no cycle in the parent's closure. */
        if (e->any_dep)
            e->rf_dep_cycle = e->dep_cyclic || !closure_add_acyclic(&e->rf_dep, w, ev);
        if (commute_canonical(e, r) && worth_exploring(e, r + 1))
            enum_rf(e, r + 1);
        x->rf.row[w].w[ev / 64] &= ~(1ull << (ev % 64));
        if (e->any_dep)
            closure_undo(&e->rf_dep, mark);
    }
}
