#include "base.h"

#include <string.h>

static bool in_instance(const event *a, scope_t s, const event *b)
{
    switch (s) {
    case SCOPE_SYS: return true;
    case SCOPE_AGENT: return a->gpu == b->gpu;
    case SCOPE_WG: return a->gpu == b->gpu && a->wg == b->wg;
    case SCOPE_WAVE: return a->gpu == b->gpu && a->wg == b->wg && a->wave == b->wave;
    default: return a->thread == b->thread;
    }
}

scope_t event_scope(const test *t, const event *e)
{
    scope_t s = e->ord == ORD_PLAIN && e->kind != EV_F ? SCOPE_NONE : e->scope;
    if (e->cell >= 0) {
        const location *L = &t->locs[cell_loc(t, e->cell)];
        /* Coarse memory, and host memory on a platform without native host
         * atomics (models.md 3.4: load-op-store, device scope), act at agent. */
        bool agent_only = L->gran == GRAN_COARSE || (t->no_host_atomics && L->home == HOME_HOST);
        if (agent_only && s > SCOPE_AGENT)
            s = SCOPE_AGENT;
    }
    return s;
}

scope_t effective_scope(const execution *x, const event *e) { return event_scope(x->t, e); }

static bool include_each_other(const event *a, scope_t sa, const event *c, scope_t sc)
{
    return a->kind == EV_IW || c->kind == EV_IW || a->thread == c->thread ||
           (in_instance(a, sa, c) && in_instance(c, sc, a));
}

bool scopes_include(const test *t, const event *a, const event *b)
{
    return include_each_other(a, event_scope(t, a), b, event_scope(t, b));
}

static int generic_address_of(const test *t, const event *e)
{
    int l = e->src ? e->src->mem.loc : -1;
    if (l < 0 || l >= t->nlocs)
        return -1;
    return t->locs[l].generic_of ? t->locs[l].generic_of - 1 : l;
}

bool same_access_path(const test *t, const event *a, const event *b)
{
    if (!t->uses_proxies || a->kind == EV_IW || b->kind == EV_IW || !a->src || !b->src)
        return true;
    return a->src->proxy == b->src->proxy && generic_address_of(t, a) == generic_address_of(t, b);
}

void base_compute(base *b, const execution *x)
{
    rel *storage = rel_new();
    for (int i = 1; i < 4; i++)
        rel_new();
    base_compute_static(b, x, storage);
    b->skeleton = 0; /* the storage is the caller's arena: nothing to key on */
    base_compute_dynamic(b);
}

static unsigned long skeletons;

void base_compute_static(base *b, const execution *x, rel storage[4])
{
    int n = x->n;
    b->x = x;
    b->skeleton = __atomic_add_fetch(&skeletons, 1, __ATOMIC_RELAXED);
    b->IW = b->Rd = b->Wr = b->F = b->BAR = b->A = b->PLAIN = set_empty();
    b->ACQ = b->REL = b->SC = b->FSC = b->IMPL = b->FACQ = b->FREL = set_empty();
    for (int i = 0; i < n; i++) {
        const event *e = &x->ev[i];
        bool acq = e->ord == ORD_ACQUIRE || e->ord == ORD_ACQ_REL || e->ord == ORD_SEQ_CST;
        bool relo = e->ord == ORD_RELEASE || e->ord == ORD_ACQ_REL || e->ord == ORD_SEQ_CST;
        switch (e->kind) {
        case EV_IW: set_add(&b->IW, i); break;
        case EV_R: set_add(&b->Rd, i); break;
        case EV_W: set_add(&b->Wr, i); break;
        case EV_F: set_add(&b->F, i); break;
        default: set_add(&b->BAR, i); break;
        }
        if (e->implicit) {
            set_add(&b->IMPL, i);
            continue;
        }
        if (e->kind == EV_R || e->kind == EV_W) {
            if (e->ord == ORD_PLAIN)
                set_add(&b->PLAIN, i);
            else
                set_add(&b->A, i);
            /* An RMW's read half carries its acquire, its write half its release. */
            if (e->kind == EV_R && acq)
                set_add(&b->ACQ, i);
            if (e->kind == EV_W && relo)
                set_add(&b->REL, i);
            if (e->ord == ORD_SEQ_CST)
                set_add(&b->SC, i);
        }
        if (e->kind == EV_F) {
            if (acq)
                set_add(&b->FACQ, i);
            if (relo)
                set_add(&b->FREL, i);
            if (e->ord == ORD_SEQ_CST) {
                set_add(&b->FSC, i);
                set_add(&b->SC, i);
            }
        }
    }
    b->ACQ = set_or(b->ACQ, b->FACQ);
    b->REL = set_or(b->REL, b->FREL);
    b->Wr = set_or(b->Wr, set_empty());
    b->M = set_or(set_or(b->Rd, b->Wr), b->IW);

    rel *sloc = &storage[0], *incl = &storage[1], *conflict = &storage[2], *cxg = &storage[3];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < n; i++)
            memset(&storage[k].row[i], 0, sizeof storage[k].row[i]);
    /* Per event: its effective scope and whether its cell is coarse. */
    scope_t eff[REL_MAX];
    bool coarse[REL_MAX];
    for (int i = 0; i < n; i++) {
        eff[i] = effective_scope(x, &x->ev[i]);
        coarse[i] = x->ev[i].cell >= 0 && x->t->locs[cell_loc(x->t, x->ev[i].cell)].gran == GRAN_COARSE;
    }
    for (int i = 0; i < n; i++) {
        const event *a = &x->ev[i];
        scope_t sa = eff[i];
        for (int j = 0; j < n; j++) {
            const event *c = &x->ev[j];
            if (a->cell >= 0 && a->cell == c->cell)
                rel_add(sloc, i, j);
            if (i == j)
                continue;
            scope_t sc = eff[j];
            if (include_each_other(a, sa, c, sc))
                rel_add(incl, i, j);
            if (a->cell >= 0 && a->cell == c->cell && a->kind != EV_IW && c->kind != EV_IW) {
                if (a->thread != c->thread && (a->kind == EV_W || c->kind == EV_W))
                    rel_add(conflict, i, j);
                if (coarse[i] && a->gpu != c->gpu)
                    rel_add(cxg, i, j);
            }
        }
    }
    b->sloc = sloc;
    b->incl = incl;
    b->conflict = conflict;
    b->cxg = cxg;
    b->po = &x->po;
    b->rf = &x->rf;
    b->co = &x->co;
    b->rmw = &x->rmw;
    b->dep = &x->dep;
    b->kb = &x->kb;
    b->bar = &x->bar;
}

void base_compute_dynamic(base *b)
{
    b->po_loc = I(b->po, b->sloc);
    /* fr = rf^-1 ; co   (initial writes are co-first, so init reads are covered) */
    b->fr = S(inv(b->rf), b->co);
}

void exec_copy(execution *dst, const execution *src)
{
    int n = src->n;
    dst->t = src->t;
    dst->n = n;
    memcpy(dst->ev, src->ev, (size_t)n * sizeof *src->ev);
    const rel *from[] = {&src->po, &src->rf, &src->co, &src->rmw, &src->dep, &src->kb, &src->bar};
    rel *to[] = {&dst->po, &dst->rf, &dst->co, &dst->rmw, &dst->dep, &dst->kb, &dst->bar};
    for (int r = 0; r < 7; r++)
        memcpy(to[r]->row, from[r]->row, (size_t)n * sizeof from[r]->row[0]);
}
