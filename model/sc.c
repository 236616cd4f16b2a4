/* Sequential consistency (Lamport), ignoring scopes: the reference point.
 * One total order over all events explains every read, RMWs are atomic, and
 * kernel boundaries and barriers are part of the order.  The only races are
 * the granularity ones (§9.2): coarse memory touched by two GPUs with no
 * kernel boundary between.                                                */
#include "model.h"

/* Everything SC orders before co and fr are chosen. */
static R sc_order(const base *b) { return plus(U(U3(b->po, b->rf, b->kb), b->bar)); }

static void sc_check(const base *b, model_verdict *v)
{
    R order = U(U3(b->po, b->rf, b->co), U3(b->fr, b->kb, b->bar));
    v->consistent = false;
    /* SC: acyclic(po | rf | co | fr | kb | bar) */
    if (!acyclic(order)) {
        v->failed = "SC";
        return;
    }
    /* Atomicity: empty(rmw & (fr ; co)) */
    if (!is_empty(I(b->rmw, S(b->fr, b->co)))) {
        v->failed = "Atomicity";
        return;
    }
    v->consistent = true;
    R kbo = kernel_ordered(plus(b->po), b->kb);
    for (int i = 0; i < rel_n(); i++)
        for (int j = i + 1; j < rel_n(); j++)
            if (rel_has(b->conflict, i, j) && rel_has(b->cxg, i, j) && !rel_has(kbo, i, j))
                verdict_add_race(v, i, j, "coarse-grained memory accessed from two GPUs inside one kernel pair "
                                          "(only kernel boundaries make it coherent)");
}

const model model_sc = {
    .name = "sc",
    .title = "sequential consistency, scopes ignored",
    .races_are_ub = true,
    .check = sc_check,
    .prune_order = sc_order,
};
