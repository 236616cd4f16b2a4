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

enum { MAX_SC_PAIRS = 24 };

typedef struct {
    const base *b;
    R ms, obs, sync, bsync, fsc_pairs;
    set FSC;
    int nfences, fence[24];
} ptx_ctx;

/* Everything below sc: the axioms, given one orientation of fence.sc pairs. */
static bool ptx_axioms(const ptx_ctx *c, R sc, model_verdict *v)
{
    const base *b = c->b;
    /* cause_base = (po? ; (sync | sc | bsync | kb) ; po?)+ */
    R cause_base = plus(S(S(opt(b->po), U(U3(c->sync, sc, c->bsync), b->kb)), opt(b->po)));
    /* cause = cause_base | obs ; (po_loc | cause_base) */
    R cause = U(cause_base, S(c->obs, U(b->po_loc, cause_base)));
    /* Coarse memory across GPUs: only causality through kernel boundaries. */
    R through_kb = S(S(opt(cause), b->kb), opt(cause));
    cause = U(D(cause, b->cxg), I(I(cause, b->cxg), through_kb));

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
    /* A6 Causality: irreflexive(cause) and irreflexive((rf | fr) ; cause) */
    if (!irreflexive(cause) || !irreflexive(S(U(b->rf, b->fr), cause))) {
        v->failed = "Causality";
        return false;
    }
    return true;
}

static void ptx_check(const base *b, model_verdict *v)
{
    ptx_ctx c = {.b = b};
    set W = b->Wr, Rd = b->Rd;
    set all = set_all();
    /* Morally strong: po-related, or both strong with mutually inclusive scopes
     * (and, for memory operations, the same location, which every use below
     * already implies). */
    c.ms = U(sym(b->po), D(b->incl, U(id(b->PLAIN), U(cross(b->PLAIN, all), cross(all, b->PLAIN)))));
    R ms = c.ms;
    v->consistent = false;

    /* A4 No-Thin-Air: acyclic(rf | dep) */
    if (!acyclic(U(b->rf, b->dep))) {
        v->failed = "No-Thin-Air";
        return;
    }
    /* A5 SC-per-Location: acyclic((ms & (rf | co | fr)) | po_loc) */
    if (!acyclic(U(I(ms, U3(b->rf, b->co, b->fr)), b->po_loc))) {
        v->failed = "SC-per-Location";
        return;
    }
    /* A3 Atomicity: empty(rmw & ((ms & fr) ; (ms & co))) */
    if (!is_empty(I(b->rmw, S(I(ms, b->fr), I(ms, b->co))))) {
        v->failed = "Atomicity";
        return;
    }

    /* obs = (ms & rf) ; (rmw ; (ms & rf))*    (least fixpoint of Fig. 4) */
    R msrf = I(ms, b->rf);
    c.obs = S(msrf, star(S(b->rmw, msrf)));
    /* In PTX terms: strong acquire/release accesses (seq_cst included, with
     * its implicit fence) and fences; implicit fences are fence.sc. */
    set fences = set_or(b->F, set_empty());
    set frel = set_or(b->FREL, b->IMPL), facq = set_or(b->FACQ, b->IMPL);
    set rel_acc = set_minus(b->REL, fences), acq_acc = set_minus(b->ACQ, fences);
    /* prefix = [Rel] ; po_loc? ; [W]  |  [FRel] ; po ; [W] */
    R prefix = U(restr(rel_acc, opt(b->po_loc), W), restr(frel, b->po, W));
    /* suffix = [R] ; po_loc? ; [Acq]  |  [R] ; po ; [FAcq] */
    R suffix = U(restr(Rd, opt(b->po_loc), acq_acc), restr(Rd, b->po, facq));
    /* sync = ms & (prefix ; obs ; suffix) */
    c.sync = I(ms, S(S(prefix, c.obs), suffix));
    c.bsync = b->bar;

    /* sc: one orientation of every morally strong pair of fence.sc, acyclic. */
    set fsc = set_or(b->FSC, b->IMPL);
    int pairs[MAX_SC_PAIRS][2], npairs = 0;
    for (int i = 0; i < rel_n(); i++)
        for (int j = i + 1; j < rel_n(); j++)
            if (set_has(fsc, i) && set_has(fsc, j) && rel_has(ms, i, j) && !rel_has(b->po, i, j) &&
                !rel_has(b->po, j, i)) {
                if (npairs == MAX_SC_PAIRS) {
                    fprintf(stderr, "memsim: error: more than %d unordered fence.sc pairs: too many to orient\n", MAX_SC_PAIRS);
                    abort();
                }
                pairs[npairs][0] = i;
                pairs[npairs][1] = j;
                npairs++;
            }
    /* Fences of one thread are ordered by po already; orient them that way. */
    rel *base_sc = rel_new();
    for (int i = 0; i < rel_n(); i++)
        for (int j = 0; j < rel_n(); j++)
            if (set_has(fsc, i) && set_has(fsc, j) && rel_has(b->po, i, j))
                rel_add(base_sc, i, j);
    const char *failed = "Causality";
    int mark = rel_mark();
    for (unsigned long mask = 0; mask < (1ul << npairs); mask++) {
        rel_release(mark);
        rel *sc = rel_new();
        *sc = *base_sc;
        for (int k = 0; k < npairs; k++) {
            if (mask >> k & 1)
                rel_add(sc, pairs[k][1], pairs[k][0]);
            else
                rel_add(sc, pairs[k][0], pairs[k][1]);
        }
        if (!acyclic(sc))
            continue;
        model_verdict tmp = {0};
        if (ptx_axioms(&c, sc, &tmp)) {
            v->consistent = true;
            return;
        }
        failed = tmp.failed;
    }
    v->failed = failed;
}

const model model_ptx = {
    .name = "ptx",
    .title = "PTX (Lustig et al., ASPLOS 2019); racy programs are defined",
    .races_are_ub = false,
    .check = ptx_check,
};
