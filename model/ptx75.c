/* ptx75: Dat3M's ptx-v7.5.cat (commit 30640123), the PTX 7.5 mixed-proxy memory model,
 * transcribed relation by relation; "cat N" below is that file's line N.  It exists
 * to read the tests that use proxies (texture, surface and constant accesses,
 * fence.proxy.*, `@ P aliases` virtual addresses).  Differences from `ptx` (model/ptx.c,
 * the ASPLOS'19 model): causality is restricted to pairs through one virtual address
 * (or one location through fence.proxy.alias), cause = observation? ; cause-base, and
 * there is no SC-per-Location axiom (import/DISAGREEMENTS.md §8).
 * vloc relates memory events whose operands have one generic address (location.generic_of),
 * loc those on one cell; an initial write is generic and on every virtual address of
 * its cell (it only starts cause, which never ends at it). */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>


typedef struct {
    const base *b;
    set GEN, SUR, TEX, CON, ALIAS, FSC;
    R vloc, scta, same_proxy, ms, observation, sync, fsc_pairs, co_req;
} ptx75_ctx;

static int generic_address(const test *t, const event *e)
{
    int l = e->src ? e->src->mem.loc : -1;
    if (l < 0)
        return -1;
    return t->locs[l].generic_of ? t->locs[l].generic_of - 1 : l;
}

/* cat 67: cause-base = (po? ; ((sync | sync_fence | sync_barrier) ; po?)+) | po.  Kernel
 * boundaries (kb) join sync as in `ptx` (a memsim addition; litmus tests have none). */
static R cause_base_of(const ptx75_ctx *c, R sync_fence)
{
    const base *b = c->b;
    R syncs = U(U3(c->sync, sync_fence, b->bar), b->kb);   /* cat 33: sync_barrier = syncbar & scta */
    return U(S(opt(b->po), plus(S(syncs, opt(b->po)))), b->po);
}

/* cat 72-83: proxy-preserved causality. */
static R cause_of(const ptx75_ctx *c, R sync_fence)
{
    const base *b = c->b;
    R cb = cause_base_of(c, sync_fence);
    set M = b->M, all = set_all();
    R pfo = restr(b->F, I(c->same_proxy, c->scta), M);            /* cat 72 */
    R cb_in = I(cb, inv(pfo));   /* cause-base & proxy-fence-ops^-1: into a proxy fence of the proxy */
    R cb_out = I(cb, pfo);       /* cause-base & proxy-fence-ops: out of one */
    R alias = id(set_and(b->F, c->ALIAS));
    R ppcb = restr(c->GEN, I(c->vloc, cb), c->GEN);                                   /* cat 74 */
    ppcb = U(ppcb, restr(M, I(I(I(c->same_proxy, c->scta), c->vloc), cb), M));       /* cat 75 */
    ppcb = U(ppcb, I(c->vloc, restr(all, S(cb_in, cb), c->GEN)));                     /* cat 76 */
    ppcb = U(ppcb, I(c->vloc, S(S(id(c->GEN), cb), cb_out)));                         /* cat 77 */
    ppcb = U(ppcb, I(c->vloc, S(S(cb_in, cb), cb_out)));                              /* cat 78 */
    R through_alias = S(S(cb, alias), cb);
    ppcb = U(ppcb, I(b->sloc, restr(c->GEN, through_alias, c->GEN)));                 /* cat 79 */
    ppcb = U(ppcb, I(b->sloc, restr(all, S(cb_in, through_alias), c->GEN)));          /* cat 80 */
    ppcb = U(ppcb, I(b->sloc, S(S(id(c->GEN), through_alias), cb_out)));              /* cat 81 */
    ppcb = U(ppcb, I(b->sloc, S(S(cb_in, through_alias), cb_out)));                   /* cat 82 */
    return S(opt(c->observation), ppcb);                                              /* cat 83 */
}

static bool axioms(const ptx75_ctx *c, R sync_fence, model_verdict *v)
{
    const base *b = c->b;
    R cause = cause_of(c, sync_fence);
    set W = set_or(b->Wr, b->IW);
    R wcw = I(restr(W, cause, W), b->sloc);
    /* cat 90: empty ((([W]; cause; [W]) & loc) \ co) */
    if (!subset(wcw, b->co)) {
        v->failed = "Coherence";
        return false;
    }
    /* cat 96: empty (([F & SC]; cause; [F & SC]) \ sync_fence) */
    if (!subset(restr(c->FSC, cause, c->FSC), sync_fence)) {
        v->failed = "Fence-SC";
        return false;
    }
    /* cat 37-38: co is partial (co+) and fr = rf^-1 ; co.  Of the explorer's total co keep
     * what cat 90 and cat 92 (morally strong writes are co-related) require, as `ptx` does. */
    R pco = plus(U(c->co_req, I(wcw, b->co)));
    R pfr = S(inv(b->rf), pco);
    /* cat 99: empty (((morally-strong & fr); (morally-strong & co)) & rmw) */
    if (!is_empty(I(b->rmw, S(I(c->ms, pfr), I(c->ms, pco))))) {
        v->failed = "Atomicity";
        return false;
    }
    /* cat 106: irreflexive ((rf | fr); cause) */
    if (!irreflexive(S(U(b->rf, pfr), cause))) {
        v->failed = "Causality";
        return false;
    }
    return true;
}

/* sync_fence is a total order of the fence.sc events whose pairs Dat3M orders (fence.sc whose scopes
 * include each other, WmmEncoder.visitSyncFence), searched by fence_order_exists (model.c). */
static bool axioms_under(const void *ctx, R sync_fence, model_verdict *v) { return axioms(ctx, sync_fence, v); }

static void setup(const base *b, ptx75_ctx *c)
{
    const execution *x = b->x;
    const test *t = x->t;
    int n = x->n;
    c->b = b;
    c->GEN = c->SUR = c->TEX = c->CON = c->ALIAS = set_empty();
    set scoped = set_empty(); /* events with a scope tag: strong accesses and fence.sc/acq_rel */
    rel *vloc = rel_new(), *scta = rel_new();
    for (int i = 0; i < n; i++) {
        const event *e = &x->ev[i];
        int proxy = e->kind == EV_IW ? PROXY_GENERIC : e->src ? e->src->proxy : PROXY_GENERIC;
        if (e->kind == EV_BA || e->kind == EV_BW)
            proxy = PROXY_NONE; /* Dat3M's barriers carry no proxy tag (VisitorLitmusPTX.visitBarrier) */
        if (e->kind == EV_F && e->src && e->src->proxy_alias)
            set_add(&c->ALIAS, i);
        switch (proxy) {
        case PROXY_GENERIC: set_add(&c->GEN, i); break;
        case PROXY_SURFACE: set_add(&c->SUR, i); break;
        case PROXY_TEXTURE: set_add(&c->TEX, i); break;
        case PROXY_CONSTANT: set_add(&c->CON, i); break;
        default: break;
        }
        if (e->kind != EV_IW && !(e->kind == EV_F && e->src && e->src->proxy_fence))
            set_add(&scoped, i);
        for (int j = 0; j < n; j++) {
            const event *f = &x->ev[j];
            bool mi = e->kind == EV_IW || e->kind == EV_R || e->kind == EV_W;
            bool mj = f->kind == EV_IW || f->kind == EV_R || f->kind == EV_W;
            if (mi && mj && e->cell == f->cell &&
                (e->kind == EV_IW || f->kind == EV_IW || generic_address(t, e) == generic_address(t, f)))
                rel_add(vloc, i, j);
            if (e->thread >= 0 && f->thread >= 0 && e->gpu == f->gpu && e->wg == f->wg)
                rel_add(scta, i, j);
        }
    }
    c->vloc = vloc;
    c->scta = scta;
    /* cat 47: same-proxy */
    c->same_proxy = U(U(cross(c->GEN, c->GEN), cross(c->SUR, c->SUR)), U(cross(c->TEX, c->TEX), cross(c->CON, c->CON)));
    /* cat 41-44: strong operations: non-weak accesses and fences */
    set strong = set_or(set_minus(set_or(b->Rd, b->Wr), b->PLAIN), b->F);
    set strong_w = set_minus(b->Wr, b->PLAIN), strong_r = set_minus(b->Rd, b->PLAIN);
    /* cat 53-58: ms1 & ms2 & ms3 \ id; sr is memsim's incl (each scope holds the other's
     * thread), for the events that have a scope */
    R ms1 = U(sym(b->po), restr(set_and(strong, scoped), b->incl, set_and(strong, scoped)));
    R ms3 = U(I(cross(b->M, b->M), c->vloc), D(cross(set_all(), set_all()), cross(b->M, b->M)));
    c->ms = D(I(I(ms1, c->same_proxy), ms3), id(set_all()));
    /* cat 60: observation = (morally-strong & rf) | rmw */
    c->observation = U(I(c->ms, b->rf), b->rmw);
    /* cat 62-66: sync; fence.sc counts as acq_rel, as in `ptx` */
    set frel = set_or(b->FREL, b->IMPL), facq = set_or(b->FACQ, b->IMPL);
    set rel_w = set_and(b->REL, b->Wr), acq_r = set_and(b->ACQ, b->Rd);
    R po_vloc = I(b->po, c->vloc);
    R release = U(restr(rel_w, opt(po_vloc), strong_w), restr(frel, b->po, strong_w));
    R acquire = U(restr(strong_r, opt(po_vloc), acq_r), restr(strong_r, b->po, facq));
    c->sync = I(c->ms, S(S(release, plus(c->observation)), acquire));
    c->FSC = set_or(b->FSC, b->IMPL);
    c->fsc_pairs = restr(c->FSC, U(sym(b->po), b->incl), c->FSC);
}

static R ptx75_prune_order(const base *b)
{
    ptx75_ctx c;
    setup(b, &c);
    return cause_of(&c, rel_empty());
}

static void ptx75_check(const base *b, model_verdict *v)
{
    ptx75_ctx c;
    setup(b, &c);
    v->consistent = false;
    /* cat 102-103: acyclic (rf | dep) */
    if (!acyclic(U(b->rf, b->dep))) {
        v->failed = "No-Thin-Air";
        return;
    }
    /* cat 92: morally strong same-location writes are co-related; initial writes first */
    c.co_req = I(b->co, U(c.ms, cross(b->IW, set_all())));
    if (!final_state_coherent(b)) {
        v->failed = "Coherence (final state)";
        return;
    }
    v->failed = "Causality";
    v->consistent = fence_order_exists(b, c.FSC, c.fsc_pairs, axioms_under, &c, v);
}

const model model_ptx75 = {
    .name = "ptx75",
    .title = "PTX 7.5 with proxies (Dat3M's ptx-v7.5.cat); racy programs are defined",
    .races_are_ub = false,
    .proxies = true,
    .check = ptx75_check,
    .prune_order = ptx75_prune_order,
};
