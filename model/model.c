#include "model.h"
#include "vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const model *const all_models[] = {&model_src11, &model_ptx, &model_sc, &model_vulkan, NULL};

/* Variants that a name selects but `all` leaves out (they exist to compare with another tool). */
static const model *const variant_models[] = {&model_vulkan_dat3m, &model_ptx75, NULL};

const model *model_find(const char *name)
{
    for (int i = 0; all_models[i]; i++)
        if (strcmp(all_models[i]->name, name) == 0)
            return all_models[i];
    for (int i = 0; variant_models[i]; i++)
        if (strcmp(variant_models[i]->name, name) == 0)
            return variant_models[i];
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
/* The write r reads, or -1. */
static int source_of(const base *b, int r)
{
    for (int i = 0; i < rel_n(); i++)
        if (rel_has(b->rf, i, r))
            return i;
    return -1;
}

/* Does the order rule out read r's source alone: r before it, or a write to
 * the cell between them?  Only the cell's writes (sloc's row) are tried. */
static bool read_violates(const base *b, R order, int r)
{
    int w = source_of(b, r);
    if (w < 0)
        return false;
    if (rel_has(order, r, w))
        return true;
    bool w_is_init = set_has(b->IW, w);
    set others = set_and(b->sloc->row[r], b->Wr);
    for (int w2 = set_next(&others, 0); w2 >= 0; w2 = set_next(&others, w2 + 1)) {
        if (w2 == w || b->x->ev[r].rmw_partner == w2)
            continue;
        if ((w_is_init || rel_has(order, w, w2)) && rel_has(order, w2, r))
            return true;
    }
    return false;
}

/* Atomicity, in every model here: two RMWs whose scopes include each other
 * cannot both read the same write (one would have to be between the other's
 * read and write). */
static bool rmws_share_source(const base *b, int r1, int r2)
{
    if (b->x->ev[r1].rmw_partner < 0 || b->x->ev[r2].rmw_partner < 0 || !rel_has(b->incl, r1, r2))
        return false;
    int w = source_of(b, r1);
    return w >= 0 && rel_has(b->rf, w, r2);
}

bool violates_prune_order(const base *b, R order, set decided_reads)
{
    for (int r1 = 0; r1 < rel_n(); r1++) {
        if (!set_has(decided_reads, r1) || b->x->ev[r1].rmw_partner < 0)
            continue;
        for (int r2 = r1 + 1; r2 < rel_n(); r2++)
            if (set_has(decided_reads, r2) && rmws_share_source(b, r1, r2))
                return true;
    }
    for (int r = 0; r < rel_n(); r++)
        if (set_has(decided_reads, r) && read_violates(b, order, r))
            return true;
    return false;
}

bool violates_prune_order_at(const base *b, R order, set decided_reads, int r)
{
    if (b->x->ev[r].rmw_partner >= 0)
        for (int r2 = 0; r2 < rel_n(); r2++)
            if (r2 != r && set_has(decided_reads, r2) && rmws_share_source(b, r, r2))
                return true;
    return read_violates(b, order, r);
}

bool final_state_coherent(const base *b)
{
    for (int r = 0; r < rel_n(); r++) {
        if (!set_has(b->Rd, r))
            continue;
        int w = source_of(b, r);
        if (w < 0 || set_has(b->IW, w))
            continue;
        /* Only the cell's writes (sloc's row). */
        set others = set_and(b->sloc->row[r], b->Wr);
        for (int w2 = set_next(&others, 0); w2 >= 0; w2 = set_next(&others, w2 + 1)) {
            if (w2 == w || !same_access_path(b->x->t, &b->x->ev[w2], &b->x->ev[r]) ||
                !same_access_path(b->x->t, &b->x->ev[w], &b->x->ev[r]))
                continue;
            if (rel_has(b->po, w2, r) && !rel_has(b->co, w2, w))
                return false;
            if (rel_has(b->po, r, w2) && rel_has(b->incl, w, r) && rel_has(b->incl, w, w2) &&
                !rel_has(b->co, w, w2))
                return false;
        }
    }
    return true;
}

enum { MAX_ORDERED_FENCES = 64 };

typedef struct {
    const base *b;
    R pairs;
    order_axioms holds;
    const void *ctx;
    int nfences, fence[MAX_ORDERED_FENCES];
    int order[MAX_ORDERED_FENCES];
    bool placed[MAX_ORDERED_FENCES];
} fence_search;

/* The order so far: placed fences in order, each before every fence not yet placed. */
static R order_of_prefix(const fence_search *s, int k)
{
    rel *o = rel_new();
    for (int i = 0; i < k; i++) {
        for (int j = i + 1; j < k; j++)
            if (rel_has(s->pairs, s->order[i], s->order[j]))
                rel_add(o, s->order[i], s->order[j]);
        for (int u = 0; u < s->nfences; u++)
            if (!s->placed[u] && rel_has(s->pairs, s->order[i], s->fence[u]))
                rel_add(o, s->order[i], s->fence[u]);
    }
    return o;
}

static bool extend_order(fence_search *s, int k, model_verdict *v)
{
    int mark = rel_mark();
    model_verdict tmp = {0};
    bool ok = s->holds(s->ctx, order_of_prefix(s, k), &tmp);
    rel_release(mark);
    if (!ok) {
        v->failed = tmp.failed;
        return false;
    }
    if (k == s->nfences)
        return true;
    for (int u = 0; u < s->nfences; u++) {
        if (s->placed[u])
            continue;
        bool ready = true; /* a thread's fences go in program order */
        for (int w = 0; w < s->nfences && ready; w++)
            if (!s->placed[w] && w != u && rel_has(s->b->po, s->fence[w], s->fence[u]))
                ready = false;
        if (!ready)
            continue;
        s->placed[u] = true;
        s->order[k] = s->fence[u];
        bool found = extend_order(s, k + 1, v);
        s->placed[u] = false;
        if (found)
            return true;
    }
    return false;
}

bool fence_order_exists(const base *b, set fences, R pairs, order_axioms holds, const void *ctx, model_verdict *v)
{
    fence_search s = {.b = b, .pairs = pairs, .holds = holds, .ctx = ctx};
    for (int i = 0; i < rel_n(); i++)
        if (set_has(fences, i)) {
            if (s.nfences == MAX_ORDERED_FENCES) {
                fprintf(stderr, "memsim: error: more than %d fence.sc in one execution\n", MAX_ORDERED_FENCES);
                abort();
            }
            s.fence[s.nfences++] = i;
        }
    return extend_order(&s, 0, v);
}

