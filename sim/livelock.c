/* Livelocks: a consistent execution cut at a loop bound that can be extended
 * for ever.  This follows Dat3M's NonTerminationEncoder (docs/language.md
 * §11.4, "Livelocks"): each thread still looping splits its loop's iterations
 * into prefix, infix and suffix (the suffix runs to the cut, the infix is a
 * copy of the suffix's last iterations); the execution can repeat the suffix
 * for ever when the infix and its copy do the same (instructions, addresses,
 * values, registers, reads-from and coherence among themselves) and the suffix
 * only sees the latest writes (its writes come after every earlier write, only
 * it reads its writes, and what it reads from before is the last write).
 * Every other thread has ended, or hangs in an await or at a barrier: Dat3M's
 * fair progress model, under which no thread may simply stop. */
#include "explore_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum { LL_PREFIX = -1, LL_SUFFIX = -2, LL_MAX_CHOICES = 4096 };

typedef struct {
    const explorer *e;
    int cut[MAX_THREADS];      /* the threads cut at a loop bound */
    int ncut;
    int b[MAX_THREADS], m[MAX_THREADS]; /* per cut thread: the suffix starts at iteration b, m infix iterations */
    long tried;                /* decompositions tried for this candidate */
    int cls[REL_MAX];          /* per event: LL_PREFIX, LL_SUFFIX, or (infix) the suffix event that copies it */
    int copy_of[REL_MAX];      /* per suffix event: the infix event it copies, or -1 */
} lasso;

static const tpath *path_of(const explorer *e, int th) { return &e->tp[th].v[e->choice[th]]; }

/* Iterations i (infix) and j (suffix) of cut thread th do the same thing:
 * the same instructions on the same cells with the same values, and leave the
 * same registers.  Barriers are left out (Dat3M also asks that every barrier
 * that synchronizes with a suffix barrier be in the suffix; memsim does not
 * look for such lassos). */
static bool same_iteration(lasso *L, int th, int i, int j)
{
    const explorer *e = L->e;
    const execution *x = e->x;
    const tpath *p = path_of(e, th);
    int a0 = p->iter_ev[i - 1], n = p->iter_ev[i] - a0, b0 = p->iter_ev[j - 1];
    if (p->iter_ev[j] - b0 != n)
        return false;
    int base = e->first_ev[th];
    for (int k = 0; k < n; k++) {
        const event *a = &x->ev[base + a0 + k], *b = &x->ev[base + b0 + k];
        if (a->kind != b->kind || a->src != b->src || a->cell != b->cell)
            return false;
        if ((a->kind == EV_R || a->kind == EV_W) && a->value != b->value)
            return false;
        L->cls[base + a0 + k] = base + b0 + k;
        L->copy_of[base + b0 + k] = base + a0 + k;
    }
    const thread_paths *tp = &e->tp[th];
    for (int r = 0; r < tp->nregs; r++)
        if (sym_eval(tp, p->iter_regs[i * tp->nregs + r], e->read_vals[th]) !=
            sym_eval(tp, p->iter_regs[j * tp->nregs + r], e->read_vals[th]))
            return false;
    return true;
}

static bool co_last(const execution *x, int w)
{
    for (int v = 0; v < x->n; v++)
        if (rel_has(&x->co, w, v))
            return false;
    return true;
}

static bool is_write(const event *ev) { return ev->kind == EV_W || ev->kind == EV_IW; }

/* The decomposition in L->b, L->m: classes, then Dat3M's three conditions. */
static bool lasso_holds(lasso *L)
{
    const explorer *e = L->e;
    const execution *x = e->x;
    for (int v = 0; v < x->n; v++) {
        L->cls[v] = x->ev[v].await_hang ? LL_SUFFIX : LL_PREFIX;
        L->copy_of[v] = -1;
    }
    for (int c = 0; c < L->ncut; c++) {
        int th = L->cut[c], K = path_of(e, th)->cut_bound, base = e->first_ev[th];
        const tpath *p = path_of(e, th);
        for (int v = p->iter_ev[L->b[c] - 1]; v < p->iter_ev[K]; v++) {
            if (x->ev[base + v].kind == EV_BA || x->ev[base + v].kind == EV_BW)
                return false;
            L->cls[base + v] = LL_SUFFIX;
        }
    }
    /* (1) the infix iterations b-m .. b-1 are copies of the suffix's last m */
    for (int c = 0; c < L->ncut; c++) {
        int th = L->cut[c], K = path_of(e, th)->cut_bound;
        for (int i = 1; i <= L->m[c]; i++)
            if (!same_iteration(L, th, L->b[c] - i, K - i + 1))
                return false;
    }
    /* (2) reads-from and coherence among infix events are those among their copies */
    for (int r = 0; r < x->n; r++) {
        if (L->cls[r] < 0 || x->ev[r].kind != EV_R)
            continue;
        int w = e->rf_of[r], w2 = e->rf_of[L->cls[r]];
        if (L->cls[w] >= 0 ? w2 != L->cls[w] : L->copy_of[w2] >= 0)
            return false;
    }
    for (int a = 0; a < x->n; a++)
        for (int c = 0; c < x->n && L->cls[a] >= 0 && x->ev[a].kind == EV_W; c++)
            if (c != a && L->cls[c] >= 0 && x->ev[c].kind == EV_W && x->ev[c].cell == x->ev[a].cell &&
                rel_has(&x->co, a, c) != rel_has(&x->co, L->cls[a], L->cls[c]))
                return false;
    /* (3) the suffix sees only the latest writes: earlier writes are co-before
     * its writes, only it reads them, and it reads an earlier write only when
     * that write is the cell's last */
    for (int v = 0; v < x->n; v++) {
        const event *ev = &x->ev[v];
        if (L->cls[v] == LL_SUFFIX && ev->kind == EV_W)
            for (int p = 0; p < x->n; p++)
                if (L->cls[p] == LL_PREFIX && is_write(&x->ev[p]) && x->ev[p].cell == ev->cell &&
                    !rel_has(&x->co, p, v))
                    return false;
        if (ev->kind != EV_R)
            continue;
        int w = e->rf_of[v];
        if (L->cls[w] == LL_SUFFIX && L->cls[v] != LL_SUFFIX)
            return false;
        if (L->cls[v] == LL_SUFFIX && L->cls[w] == LL_PREFIX && !co_last(x, w))
            return false;
    }
    return true;
}

/* Every decomposition of cut thread c onwards: the suffix starts at iteration
 * b (2..K) and m infix iterations (1..b-1, at most the suffix's length) copy
 * its last m. */
static bool choose(lasso *L, int c)
{
    if (c == L->ncut)
        return ++L->tried <= LL_MAX_CHOICES && lasso_holds(L);
    int K = path_of(L->e, L->cut[c])->cut_bound;
    for (int b = K; b >= 2; b--)
        for (int m = 1; m <= b - 1 && m <= K - b + 1; m++) {
            L->b[c] = b;
            L->m[c] = m;
            if (choose(L, c + 1))
                return true;
        }
    return false;
}

/* The cut thread's last iteration changed nothing here (no writes, or RMWs
 * that stored what they read, and registers as they were): the path that
 * hangs after it (symexec.c's hung_loop, Dat3M's side-effect-free spin loop)
 * is that execution already. */
static bool quiet_end(const explorer *e, int th)
{
    const tpath *p = path_of(e, th);
    if (!p->cut_quiet)
        return false;
    const execution *x = e->x;
    int base = e->first_ev[th];
    for (int v = base + p->iter_ev[p->cut_bound - 1]; v < base + p->iter_ev[p->cut_bound]; v++)
        if (x->ev[v].kind == EV_W && (x->ev[v].rmw_partner < 0 || x->ev[x->ev[v].rmw_partner].value != x->ev[v].value))
            return false;
    return true;
}

bool livelock_paths_only(const explorer *e)
{
    for (int th = 0; th < e->nthreads; th++)
        if (e->active[th] && path_of(e, th)->cut_early)
            return true;
    return false;
}

static void iterations_text(char *buf, size_t size, int from, int to)
{
    if (from == to)
        snprintf(buf, size, "iteration %d", from);
    else
        snprintf(buf, size, "iterations %d-%d", from, to);
}

bool livelock_find(const explorer *e, char *msg, size_t size)
{
    if (e->error_at)
        return false;
    static _Thread_local lasso L; /* cls and copy_of are filled per decomposition */
    memset(&L, 0, offsetof(lasso, cls));
    L.tried = 0; /* after cls in the struct: the memset leaves it, and one test's tries would count against the next */
    L.e = e;
    int quiet = 0; /* cut threads whose hang paths stand for this execution */
    for (int th = 0; th < e->nthreads; th++) {
        if (!e->active[th])
            continue;
        const tpath *p = path_of(e, th);
        if (!p->cut_at)
            continue;
        if (!p->iter_ev || e->nev_of[th] != p->nev || p->cut_bound < 2)
            return false;
        L.cut[L.ncut++] = th;
        quiet += quiet_end(e, th);
    }
    if (!L.ncut || quiet == L.ncut || !choose(&L, 0))
        return false;
    const test *t = e->t;
    char where[512], names[256];
    int k = 0;
    for (int c = 0; c < L.ncut && k < (int)sizeof names; c++)
        k += snprintf(names + k, sizeof names - (size_t)k, "%s%s", c == 0 ? "" : c == L.ncut - 1 ? " and " : ", ",
                      t->threads[L.cut[c]].name);
    int n = snprintf(msg, size, "%s: %s %s %s: ", test_pos_name(t, path_of(e, L.cut[0])->cut_at->pos, where, sizeof where),
                     L.ncut == 1 ? "thread" : "threads", names, L.ncut == 1 ? "loops forever (a livelock)" : "livelock");
    for (int c = 0; c < L.ncut && n < (int)size; c++) {
        const tpath *p = path_of(e, L.cut[c]);
        int K = p->cut_bound;
        char suffix[64], tail[64], infix[64];
        iterations_text(suffix, sizeof suffix, L.b[c], K);
        iterations_text(tail, sizeof tail, K - L.m[c] + 1, K);
        iterations_text(infix, sizeof infix, L.b[c] - L.m[c], L.b[c] - 1);
        n += snprintf(msg + n, size - (size_t)n, "%s%s's loop at line %d repeats %s (%s%sthe same as %s)",
                      c ? "; " : "", t->threads[L.cut[c]].name, p->cut_at->pos.line, suffix,
                      L.m[c] == K - L.b[c] + 1 ? "" : tail, L.m[c] == K - L.b[c] + 1 ? "" : " ", infix);
    }
    if (n < (int)size)
        snprintf(msg + n, size - (size_t)n,
                 " with the same values%s, reading only the latest writes, and the loop%s condition%s still "
                 "hold%s: a fair schedule can repeat %s for ever",
                 L.ncut > 1 ? " and the same reads-from between the threads" : "", L.ncut > 1 ? "s'" : "'s",
                 L.ncut > 1 ? "s" : "", L.ncut > 1 ? "" : "s", L.ncut > 1 ? "them" : "it");
    return true;
}
