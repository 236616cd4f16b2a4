/* Scoped RC11 (models.md §4.4, after [PTX19] Fig. 10 and src11.als), the
 * semantics of HIP/CUDA C++ atomics and of LLVM's AMDGPU memory model.
 * Changes from the paper's model, as issue 2 requires:
 *   - RC11's acyclic(po | rf) is replaced by acyclic(rf | dep): GPUs show
 *     load buffering, so only dependency cycles (thin air) are forbidden;
 *   - kernel boundaries (kb) and workgroup barriers (bar) are part of hb;
 *   - granularity (§9.2): scopes on coarse memory are clamped to agent (in
 *     incl), and a conflict on coarse memory between GPUs is a race unless
 *     kernel boundaries order it.                                         */
#include "model.h"

/* hb = (po | (incl & sw) | kb | bar)+ */
static R src11_hb(const base *b)
{
    set W = b->Wr, Rd = b->Rd, A = b->A, F = b->F;
    R po = b->po, rf = b->rf, incl = b->incl;
    /* rs = [W] ; po_loc? ; [W & A] ; ((incl & rf) ; rmw)* */
    R rs = S(restr(W, opt(b->po_loc), set_and(W, A)), star(S(I(incl, rf), b->rmw)));
    /* sw = [REL] ; ([F] ; po)? ; rs ; (incl & rf) ; [R & A] ; (po ; [F])? ; [ACQ] */
    R sw = S(S(S(S(id(b->REL), opt(restr(F, po, set_all()))), rs), restr(set_all(), I(incl, rf), set_and(Rd, A))),
             S(opt(restr(set_all(), po, F)), id(b->ACQ)));
    return plus(U(U3(po, I(incl, sw), b->kb), b->bar));
}

/* The next j > after in row i of the conflict relation, or -1: conflicts
 * are few, and testing every pair was a sixth of an SB ring's check. */
static int next_conflict(R conflict, int i, int after)
{
    for (int j = after + 1; j < rel_n(); j = (j | 63) + 1) {
        uint64_t bits = conflict->row[i].w[j / 64] >> (j % 64);
        if (bits)
            return j + __builtin_ctzll(bits);
    }
    return -1;
}

static void src11_check(const base *b, model_verdict *v)
{
    R po = b->po, rf = b->rf, co = b->co, fr = b->fr, incl = b->incl;
    R hb = src11_hb(b);
    R eco = plus(U3(rf, co, fr));

    v->consistent = false;
    if (!irreflexive(hb)) {
        v->failed = "hb-irreflexive";
        return;
    }
    /* Coherence: irreflexive(hb ; eco?).  hb is irreflexive here, so this is
     * empty(hb & eco^-1), without composing two relations. */
    if (!is_empty(I(hb, inv(eco)))) {
        v->failed = "Coherence";
        return;
    }
    /* Atomicity: empty(rmw & (fr ; co)) */
    if (!is_empty(I(b->rmw, S(fr, co)))) {
        v->failed = "Atomicity";
        return;
    }
    /* SC: acyclic(incl & psc), psc = psc_base | psc_F; psc relates SC
     * events only, so without any it is empty. */
    if (!set_is_empty(b->SC)) {
        R po_nloc = D(po, b->sloc);
        R scb = U(U3(po, S(S(po_nloc, hb), po_nloc), I(hb, b->sloc)), U(co, fr));
        R sc_l = U(id(b->SC), S(id(b->FSC), opt(hb)));
        R sc_r = U(id(b->SC), S(opt(hb), id(b->FSC)));
        R psc_base = S(S(sc_l, scb), sc_r);
        /* [FSC] ; (hb | hb ; eco ; hb) ; [FSC], composed from the fences' rows
         * only (the same relation; most rows of hb ; eco are not fences'). */
        R hb_from_f = restr(b->FSC, hb, set_all());
        R psc_f = U(restr(b->FSC, hb, b->FSC), S(S(hb_from_f, eco), restr(set_all(), hb, b->FSC)));
        if (!acyclic(I(incl, U(psc_base, psc_f)))) {
            v->failed = "SC";
            return;
        }
    }
    /* No-Thin-Air (GPU form): acyclic(rf | dep) */
    if (!acyclic(U(rf, b->dep))) {
        v->failed = "No-Thin-Air";
        return;
    }
    v->consistent = true;

    /* Races: conflicting accesses unordered by hb where one is plain or the
     * scopes do not include each other; on coarse memory across GPUs, only
     * kernel boundaries order. */
    R kbo = NULL; /* computed at the first pair that needs it */
    for (int i = 0; i < rel_n(); i++)
        for (int j = next_conflict(b->conflict, i, i); j >= 0; j = next_conflict(b->conflict, i, j)) {
            if (rel_has(b->cxg, i, j)) {
                kbo = kbo ? kbo : kernel_ordered(hb, b->kb);
                if (!rel_has(kbo, i, j))
                    verdict_add_race(v, i, j, "coarse-grained memory accessed from two GPUs inside one kernel pair "
                                              "(only kernel boundaries make it coherent)");
                continue;
            }
            bool plain = set_has(b->PLAIN, i) || set_has(b->PLAIN, j);
            if (!plain && rel_has(incl, i, j))
                continue; /* atomics whose scopes include each other never race */
            /* sym(hb) read at one pair: two bits, not a new relation (it was
             * a seventh of a K3 candidate's check). */
            if (rel_has(hb, i, j) || rel_has(hb, j, i))
                continue;
            if (plain)
                verdict_add_race(v, i, j, "a plain (non-atomic) access, unordered by happens-before");
            else if (!rel_has(incl, i, j))
                verdict_add_race(v, i, j, "the scopes do not include each other, unordered by happens-before");
        }
}

const model model_src11 = {
    .name = "src11",
    .title = "scoped RC11 (HIP/CUDA C++, LLVM AMDGPU); races are undefined behaviour",
    .races_are_ub = true,
    .check = src11_check,
    .prune_order = src11_hb,
};
