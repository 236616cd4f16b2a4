#include "model.h"

#include <string.h>

const model *const all_models[] = {&model_src11, &model_ptx, &model_sc, &model_vulkan, NULL};

const model *model_find(const char *name)
{
    for (int i = 0; all_models[i]; i++)
        if (strcmp(all_models[i]->name, name) == 0)
            return all_models[i];
    return NULL;
}

void verdict_add_race(model_verdict *v, int a, int b, const char *why)
{
    for (int i = 0; i < v->nraces; i++)
        if ((v->races[i].a == a && v->races[i].b == b) || (v->races[i].a == b && v->races[i].b == a))
            return;
    if (v->nraces < MAX_RACES_PER_EXEC)
        v->races[v->nraces++] = (race_pair){a, b, why};
}

R kernel_ordered(R hb, R kb)
{
    R through = S(S(opt(hb), kb), opt(hb));
    return sym(through);
}

/* With order O: a read r that reads w is impossible when O(r, w) (it reads
 * the future), or when another write w2 to the location has O(w, w2) and
 * O(w2, r) (w2 is coherence-after w and before r: r reads a stale value).
 * An initial write is before every other write. */
bool violates_prune_order(const base *b, R order, set decided_reads)
{
    for (int r = 0; r < rel_n(); r++) {
        if (!set_has(decided_reads, r))
            continue;
        int w = -1;
        for (int i = 0; i < rel_n() && w < 0; i++)
            if (rel_has(b->rf, i, r))
                w = i;
        if (w < 0)
            continue;
        if (rel_has(order, r, w))
            return true;
        bool w_is_init = set_has(b->IW, w);
        for (int w2 = 0; w2 < rel_n(); w2++) {
            if (w2 == w || !rel_has(b->sloc, w2, r) || !set_has(b->Wr, w2))
                continue;
            if (b->x->ev[r].rmw_partner == w2)
                continue;
            if ((w_is_init || rel_has(order, w, w2)) && rel_has(order, w2, r))
                return true;
        }
    }
    return false;
}
