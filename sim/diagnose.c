#include "diagnose.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void diag_say(diagnosis *d, const char *fmt, ...)
{
    if (d->n == DIAG_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->line[d->n], DIAG_LEN, fmt, ap);
    va_end(ap);
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->line[i], d->line[d->n]) == 0)
            return;
    d->n++;
}

static const char *who(const test *t, const event *e) { return e->thread >= 0 ? t->threads[e->thread].name : "init"; }
/* "line 12", or the kernel's "mp.hip:12"; a few rotating buffers serve one message. */
static const char *line_of_t(const test *t, const event *e)
{
    static _Thread_local char bufs[8][160];
    static _Thread_local int k;
    k = (k + 1) % 8;
    return test_line_name(t, e->src ? e->src->pos.line : 0, bufs[k], sizeof bufs[k]);
}
#define line_of(e) line_of_t(t, (e))

static bool releasing(const event *e)
{
    return e->ord == ORD_RELEASE || e->ord == ORD_ACQ_REL || e->ord == ORD_SEQ_CST;
}

static bool acquiring(const event *e)
{
    return e->ord == ORD_ACQUIRE || e->ord == ORD_ACQ_REL || e->ord == ORD_SEQ_CST;
}

/* The release side of a write: itself, or a release fence po-before it. */
static int release_of(const execution *x, int w)
{
    if (releasing(&x->ev[w]) && !x->ev[w].implicit)
        return w;
    for (int f = 0; f < x->n; f++)
        if (x->ev[f].kind == EV_F && !x->ev[f].implicit && releasing(&x->ev[f]) && rel_has(&x->po, f, w))
            return f;
    return -1;
}

/* The acquire side of a read: itself, or an acquire fence po-after it. */
static int acquire_of(const execution *x, int r)
{
    if (acquiring(&x->ev[r]))
        return r;
    for (int f = 0; f < x->n; f++)
        if (x->ev[f].kind == EV_F && !x->ev[f].implicit && acquiring(&x->ev[f]) && rel_has(&x->po, r, f))
            return f;
    return -1;
}

/* Why two synchronizing operations' scopes do not include each other. */
static void scope_reason(const test *t, const execution *x, const event *a, const event *b, char *buf, size_t size)
{
    scope_t sa = effective_scope(x, a), sb = effective_scope(x, b);
    scope_t narrow = sa < sb ? sa : sb;
    const event *n = sa <= sb ? a : b;
    bool coarse_a = a->cell >= 0 && t->locs[cell_loc(t, a->cell)].gran == GRAN_COARSE;
    bool coarse_b = b->cell >= 0 && t->locs[cell_loc(t, b->cell)].gran == GRAN_COARSE;
    /* On coarse memory, a wider scope would not help across GPUs. */
    if ((coarse_a || coarse_b) && (a->gpu != b->gpu || a->scope > SCOPE_AGENT || b->scope > SCOPE_AGENT)) {
        char cn[96];
        cell_name(t, a->cell >= 0 ? a->cell : b->cell, cn, sizeof cn);
        snprintf(buf, size,
                 "%s is coarse-grained memory, where atomics act at agent scope at most: put cross-GPU flags in "
                 "fine-grained memory",
                 cn);
    } else if (a->gpu != b->gpu) {
        snprintf(buf, size, "%s's scope %s stops at its GPU, and the two threads are on gpu%d and gpu%d: use sys",
                 who(t, n), scope_name(narrow), a->gpu, b->gpu);
    } else if (a->wg != b->wg) {
        snprintf(buf, size, "%s's scope %s stops at its workgroup, and the threads are in different workgroups: use agent",
                 who(t, n), scope_name(narrow));
    } else {
        snprintf(buf, size, "%s's scope %s does not reach the other thread", who(t, n), scope_name(narrow));
    }
}

/* A poll with a cache modifier before event e of its thread, taken for an acquire. */
static void cache_poll_note(const test *t, const execution *x, diagnosis *d, int e)
{
    for (int p = 0; p < x->n; p++) {
        const event *P = &x->ev[p];
        if (P->thread != x->ev[e].thread || !rel_has(&x->po, p, e) || !P->src || P->kind != EV_R || acquiring(P) ||
            (P->src->cache != CACHE_CV && P->src->cache != CACHE_VOLATILE))
            continue;
        char cn[96];
        cell_name(t, P->cell, cn, sizeof cn);
        diag_say(d,
            "cache modifier is not an acquire: %s polls %s with .%s at %s, which only bypasses caches; its later "
            "accesses are not ordered after the write it saw (follow the poll with an acquire, or poll with ld.acquire)",
            who(t, P), cn, P->src->cache == CACHE_CV ? "cv" : "volatile", line_of(P));
    }
}

void diagnose(const test *t, const model_result *mr, diagnosis *d)
{
    d->n = 0;
    const execution *x = mr->witness;
    if (!x || x->n == 0)
        return;
    rel_begin(x->n);
    base b;
    base_compute(&b, x);
    /* The witness may have been assembled from parts: ask the model for its
     * races again. */
    model_verdict wv = {0};
    int mark = rel_mark();
    mr->m->check(&b, &wv);
    rel_release(mark);

    /* Release/acquire pairs that read from each other but whose scopes do
     * not include each other: synchronization that does not happen. */
    for (int w = 0; w < x->n; w++)
        for (int r = 0; r < x->n; r++) {
            if (!rel_has(&x->rf, w, r) || x->ev[w].kind == EV_IW || x->ev[w].thread == x->ev[r].thread)
                continue;
            int rel = release_of(x, w), acq = acquire_of(x, r);
            if (rel < 0 || acq < 0)
                continue;
            bool ok = rel_has(b.incl, rel, acq) && rel_has(b.incl, w, r);
            if (ok)
                continue;
            char why[300], cn[96];
            scope_reason(t, x, rel_has(b.incl, w, r) ? &x->ev[rel] : &x->ev[w],
                         rel_has(b.incl, w, r) ? &x->ev[acq] : &x->ev[r], why, sizeof why);
            cell_name(t, x->ev[w].cell, cn, sizeof cn);
            diag_say(d, "scope too narrow: %s's release (%s, %s) and %s's acquire of %s (%s, %s) do not synchronize: %s",
                who(t, &x->ev[rel]), line_of(&x->ev[rel]), scope_name(x->ev[rel].scope), who(t, &x->ev[acq]), cn,
                line_of(&x->ev[acq]), scope_name(x->ev[acq].scope), why);
        }

    /* Within a thread or through a workgroup barrier: what follows what. */
    R after = plus(U(&x->po, &x->bar));
    for (int i = 0; i < wv.nraces; i++) {
        int a = wv.races[i].a, c = wv.races[i].b;
        for (int side = 0; side < 2; side++) {
            int wr = side ? c : a, other = side ? a : c;
            const event *W = &x->ev[wr];
            if (W->kind != EV_W)
                continue;
            /* A workgroup peer released a flag that the other side acquired
             * before its access: the release does not cover this store. */
            for (int w = 0; w < x->n; w++)
                for (int r = 0; r < x->n; r++) {
                    if (!rel_has(&x->rf, w, r))
                        continue;
                    int rel = release_of(x, w), acq = acquire_of(x, r);
                    const event *Rl = rel >= 0 ? &x->ev[rel] : NULL;
                    if (!Rl || acq < 0 || Rl->thread == W->thread || Rl->gpu != W->gpu || Rl->wg != W->wg ||
                        !(rel_has(after, acq, other) || acq == other) || rel_has(after, wr, rel))
                        continue;
                    char cn[96], fl[96];
                    cell_name(t, W->cell, cn, sizeof cn);
                    cell_name(t, x->ev[w].cell, fl, sizeof fl);
                    diag_say(d,
                        "missing barrier: %s's store to %s (%s) is not ordered before %s's release of %s (%s): a "
                        "release covers only its own thread's earlier accesses; put a workgroup barrier between the "
                        "stores and the release",
                        who(t, W), cn, line_of(W), who(t, Rl), fl, line_of(Rl));
                }
        }
        /* A poll with a cache modifier, taken for an acquire. */
        cache_poll_note(t, x, d, a);
        cache_poll_note(t, x, d, c);
    }

    /* SHMEM calls (diagnose_shmem.c). */
    diagnose_shmem(t, x, &wv, mr->witness_rank == 4, d);

    /* Stale reads in a counterexample: the read saw a value that coherence
     * had already replaced. */
    if (mr->witness_rank == 4 && t->quant == Q_FORALL) {
        /* A write that follows the read (program order, barriers, kernels,
         * reads-from) is not one the read missed. */
        R causal = plus(U(U3(&x->po, &x->bar, &x->kb), &x->rf));
        for (int r = 0; r < x->n; r++) {
            if (x->ev[r].kind != EV_R || x->ev[r].await_hang || x->ev[r].rmw_partner >= 0)
                continue;
            int w = -1;
            for (int i = 0; i < x->n; i++)
                if (rel_has(&x->rf, i, r))
                    w = i;
            if (w < 0)
                continue;
            for (int w2 = 0; w2 < x->n; w2++) {
                if (!rel_has(&x->co, w, w2) || x->ev[w2].thread == x->ev[r].thread || x->ev[w2].value == x->ev[r].value ||
                    rel_has(causal, r, w2))
                    continue;
                char cn[96], v1[48], v2[48];
                cell_name(t, x->ev[r].cell, cn, sizeof cn);
                format_value(t, x->ev[r].cell, x->ev[r].value, v1, sizeof v1);
                format_value(t, x->ev[r].cell, x->ev[w2].value, v2, sizeof v2);
                diag_say(d, "stale read: %s read %s = %s at %s, while %s's write of %s (%s) comes later in %s's "
                       "coherence order and was not visible to it",
                    who(t, &x->ev[r]), cn, v1, line_of(&x->ev[r]), who(t, &x->ev[w2]), v2, line_of(&x->ev[w2]), cn);
                cache_poll_note(t, x, d, r);
                break;
            }
        }
    }
}
