/* One combination of thread paths as an execution skeleton: events,
 * barrier hangs, initial writes, the static relations (po, rmw, dep, kernel
 * order, barriers), each read's possible sources and the order in which the
 * search decides them. */
#include "explore_internal.h"
#include "pathfilter.h"

#include <stdio.h>
#include <string.h>

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

/* A SHMEM remote update that the call does not complete: a put's store to the
 * destination PE, a non-fetching AMO, signal_op.  OpenSHMEM 1.5 and NVSHMEM
 * complete them only at quiet (or barrier_all, which quiets), order them at
 * fence, and put_signal delivers its signal after its data; sync_all
 * "does not ensure completion of remote memory updates" (shmem_sync_all). */
static bool shmem_pending(const pevent *pe)
{
    const inst *in = pe->src;
    if (!in || (pe->kind != EV_W && pe->kind != EV_R))
        return false;
    switch (in->shmem_role) {
    case SHM_PUT: return pe->kind == EV_W;
    case SHM_AMO: return in->kind == I_RMW && in->dst < 0;
    case SHM_SIGNAL: return in->kind == I_RMW && in->ord == ORD_RELAXED;
    default: return false;
    }
}

/* The first event after event k of a path that program order keeps after k:
 * for a pending SHMEM update, its completion point (shmem_completes), so its
 * delivery is unordered with everything the thread does in between. */
static int shmem_completion(const tpath *p, int k, int n)
{
    if (!shmem_pending(&p->ev[k]))
        return k + 1;
    for (int j = k + 1; j < n; j++)
        if (shmem_completes(p->ev[j].src, p->ev[j].kind))
            return j;
    return n;
}


int build_combination(explorer *e)
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
        if (p->hung_loop && !e->hang_msg[0]) /* a loop that reads something gets the reads' message instead */
            snprintf(e->hang_msg, sizeof e->hang_msg,
                     "%s: thread %s loops forever: an iteration of its loop changes nothing and its condition "
                     "still holds",
                     test_pos_name(t, p->hung_loop->pos, (char[512]){0}, 512), t->threads[th].name);
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
                                 "%s: thread %s waits forever at this barrier: thread %s of the same workgroup "
                                 "never reaches it",
                                 test_pos_name(t, p->ev[k].src->pos, (char[512]){0}, 512), T->name, t->threads[who].name);
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
                if (!e->hang_msg[0]) {
                    char where[256];
                    snprintf(e->hang_msg, sizeof e->hang_msg,
                             "%s: thread %s waits forever at this barrier: it needs %d threads and only %d of "
                             "its CTA reach it",
                             test_pos_name(t, ba->src->pos, where, sizeof where), T->name, ba->bar_quorum, arrived);
                }
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
                         "%s: thread %s waits forever at this barrier: thread %s of the same workgroup "
                         "never reaches it",
                         test_pos_name(t, ba->src->pos, (char[512]){0}, 512), T->name, t->threads[who].name);
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
            for (int j = shmem_completion(p, k, e->nev_of[th]); j < e->nev_of[th]; j++)
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
    e->any_dep = false;
    for (int i = 0; i < n && !e->any_dep; i++)
        for (int w = 0; w < REL_WORDS; w++)
            e->any_dep = e->any_dep || x->dep.row[i].w[w] != 0;
    /* Kernel and host order: initial writes first, then `after` chains. */
    bool before[64][64];
    test_kernel_order(t, before);
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
         * every model's coherence forbids reading anything older of its own
         * (or po-later) -- through the same proxy and address (same_access_path). */
        int own = -1;
        for (int j = e->first_ev[x->ev[i].thread]; j < i; j++)
            if (x->ev[j].kind == EV_W && x->ev[j].cell == c && same_access_path(t, &x->ev[j], &x->ev[i]))
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
            if (wt == th && j != own && same_access_path(t, &x->ev[j], &x->ev[i]))
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
