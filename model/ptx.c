/* The PTX memory model of Lustig, Sahasrabuddhe and Giroux, ASPLOS 2019
 * (models.md §5; ptx.als).  Racy programs are defined: morally weak pairs
 * just get no coherence, atomicity or synchronization.  seq_cst accesses are
 * compiled as [PTX19] Fig. 11 does: fence.sc before an acquire load, release
 * store or acq_rel RMW (the explorer adds that fence as an implicit event).
 * Additions: kernel boundaries join the base causality order, and accesses to
 * coarse memory from different GPUs are ordered only through them (§9.2). */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>


typedef struct {
    const base *b;
    R ms, obs, sync, bsync;
    R co_req;     /* the pairs of co that PTX requires to be ordered (see ptx_check) */
    set fsc_set;
} ptx_ctx;

/* The causality order for one orientation sc of the fence.sc pairs. */
static R ptx_cause(const ptx_ctx *c, R sc)
{
    const base *b = c->b;
    /* cause_base = (po? ; (sync | sc | bsync | kb) ; po?)+ */
    R cause_base = plus(S(S(opt(b->po), U(U3(c->sync, sc, c->bsync), b->kb)), opt(b->po)));
    /* cause = cause_base | obs ; (po_loc | cause_base) */
    R cause = U(cause_base, S(c->obs, U(b->po_loc, cause_base)));
    /* Coarse memory across GPUs: only causality through kernel boundaries. */
    R through_kb = S(S(opt(cause), b->kb), opt(cause));
    return U(D(cause, b->cxg), I(I(cause, b->cxg), through_kb));
}

/* Everything below sc: the axioms, given one orientation of fence.sc pairs. */
static bool ptx_axioms(const ptx_ctx *c, R sc, model_verdict *v)
{
    const base *b = c->b;
    R cause = ptx_cause(c, sc);

    /* A1 Coherence: [W] ; cause ; [W] & sloc  in  co */
    set Wall = set_or(b->Wr, b->IW);
    if (!subset(I(restr(Wall, cause, Wall), b->sloc), b->co)) {
        v->failed = "Coherence";
        return false;
    }
    /* A2 Fence-SC: irreflexive(sc ; cause) */
    if (!irreflexive(S(sc, cause))) {
        v->failed = "Fence-SC";
        return false;
    }
    /* PTX's co is partial (import/DISAGREEMENTS.md, corpus tests Co-Total-*):
     * of the explorer's total order keep only what PTX requires, the
     * morally strong pairs (co_req) and what A1 adds, [W];cause;[W] & sloc;
     * fr follows.  Any partial co satisfying A1 is such a restriction of one
     * of its linear extensions, and a smaller co only weakens A3, A5, A6. */
    R pco = plus(U(c->co_req, I(I(restr(Wall, cause, Wall), b->sloc), b->co)));
    R pfr = S(inv(b->rf), pco);
    /* A5 SC-per-Location: acyclic((ms & (rf | co | fr)) | po_loc) */
    if (!acyclic(U(I(c->ms, U3(b->rf, pco, pfr)), b->po_loc))) {
        v->failed = "SC-per-Location";
        return false;
    }
    /* A3 Atomicity: empty(rmw & ((ms & fr) ; (ms & co))) */
    if (!is_empty(I(b->rmw, S(I(c->ms, pfr), I(c->ms, pco))))) {
        v->failed = "Atomicity";
        return false;
    }
    /* A6 Causality: irreflexive(cause) and irreflexive((rf | fr) ; cause) */
    if (!irreflexive(cause) || !irreflexive(S(U(b->rf, pfr), cause))) {
        v->failed = "Causality";
        return false;
    }
    return true;
}

static bool ptx_axioms_under(const void *ctx, R sc, model_verdict *v) { return ptx_axioms(ctx, sc, v); }

/* Moral strength, observation and synchronization (Fig. 4). */
static void ptx_setup(const base *b, ptx_ctx *c)
{
    set W = b->Wr, Rd = b->Rd;
    set all = set_all();
    c->b = b;
    /* Morally strong: po-related, or both strong with mutually inclusive scopes
     * (and, for memory operations, the same location, which every use below
     * already implies). */
    c->ms = U(sym(b->po), D(b->incl, U(id(b->PLAIN), U(cross(b->PLAIN, all), cross(all, b->PLAIN)))));
    /* obs = (ms & rf) ; (rmw ; (ms & rf))*    (least fixpoint of Fig. 4) */
    R msrf = I(c->ms, b->rf);
    c->obs = S(msrf, star(S(b->rmw, msrf)));
    /* In PTX terms: strong acquire/release accesses (seq_cst included, with
     * its implicit fence) and fences; implicit fences are fence.sc. */
    set fences = b->F;
    set frel = set_or(b->FREL, b->IMPL), facq = set_or(b->FACQ, b->IMPL);
    set rel_acc = set_minus(b->REL, fences), acq_acc = set_minus(b->ACQ, fences);
    /* prefix = [Rel] ; po_loc? ; [W]  |  [FRel] ; po ; [W] */
    R prefix = U(restr(rel_acc, opt(b->po_loc), W), restr(frel, b->po, W));
    /* suffix = [R] ; po_loc? ; [Acq]  |  [R] ; po ; [FAcq] */
    R suffix = U(restr(Rd, opt(b->po_loc), acq_acc), restr(Rd, b->po, facq));
    /* sync = ms & (prefix ; obs ; suffix) */
    c->sync = I(c->ms, S(S(prefix, c->obs), suffix));
    c->bsync = b->bar;
}

/* Causality without any fence.sc order: every sc only adds to it. */
static R ptx_prune_order(const base *b)
{
    ptx_ctx c;
    ptx_setup(b, &c);
    return ptx_cause(&c, rel_empty());
}

static void ptx_check(const base *b, model_verdict *v)
{
    ptx_ctx c;
    ptx_setup(b, &c);
    R ms = c.ms;
    v->consistent = false;

    /* A4 No-Thin-Air: acyclic(rf | dep) */
    if (!acyclic(U(b->rf, b->dep))) {
        v->failed = "No-Thin-Air";
        return;
    }
    /* co_req: initial writes first, and morally strong writes (same thread
     * included) -- ptx.als's co_per_scope.  A5 and A3 are checked with the
     * partial co, for each sc (ptx_axioms). */
    c.co_req = I(b->co, U(ms, cross(b->IW, set_all())));
    /* The final state is the co-last write of the explorer's total order;
     * with co partial it must still be coherent with what threads read. */
    if (!final_state_coherent(b)) {
        v->failed = "Coherence (final state)";
        return;
    }

    /* sc orders the morally strong pairs of fence.sc; every acyclic choice is
     * the restriction of a total order, so search total orders fence by
     * fence.  Causality only grows with sc, so a prefix that already breaks
     * an axiom (its edges are in every completion) prunes its subtree. */
    c.fsc_set = set_or(b->FSC, b->IMPL);
    v->failed = "Causality";
    v->consistent = fence_order_exists(b, c.fsc_set, c.ms, ptx_axioms_under, &c, v);
}

const model model_ptx = {
    .name = "ptx",
    .title = "PTX (Lustig et al., ASPLOS 2019); racy programs are defined",
    .races_are_ub = false,
    .check = ptx_check,
    .prune_order = ptx_prune_order,
};
