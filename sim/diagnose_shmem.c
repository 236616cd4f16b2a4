/* Diagnoses for SHMEM device calls (lit/parse_shmem.c): a put whose data a
 * peer reads stale or races with, explained by the call the user wrote --
 * no quiet before the signal, a fence where the signal goes to another PE, a
 * wait satisfied by an earlier epoch's signal, or a wait by one thread that
 * no barrier extends to its workgroup. */
#include <stdio.h>
#include <string.h>

#include "diagnose.h"
#include "symexec.h"

static int role(const event *e) { return e->src ? e->src->shmem_role : SHM_NONE; }

static const char *call_of(const test *t, const event *e)
{
    return e->src && e->src->shmem > 0 && e->src->shmem <= t->nshmem_calls ? t->shmem_calls[e->src->shmem - 1].name
                                                                          : "the access";
}

/* The quiet of the library the user calls: rocshmem_quiet for rocshmem_..., and so on. */
static void quiet_of(const char *call, char *buf, size_t size)
{
    size_t n = strcspn(call, "_");
    if (n > 0 && call[n - 1] == 'x' && n > 5)
        n--; /* nvshmemx_ -> nvshmem_ */
    snprintf(buf, size, "%.*s_quiet()", (int)n, call);
}

static const char *who(const test *t, const event *e) { return e->thread >= 0 ? t->threads[e->thread].name : "init"; }
static int line_of(const event *e) { return e->src ? e->src->pos.line : 0; }

/* Program order as the thread issued its calls.  x->po leaves a put's delivery
 * unordered until its completion (sim/combination.c), but the explanation is
 * about the order in which the user wrote the calls. */
static bool issued_before(const execution *x, int a, int b) { return x->ev[a].thread == x->ev[b].thread && a < b; }

/* The sync_all that W's thread reaches after the put W before anything completes
 * it (shmem_completes), or -1. */
static int sync_all_after(const test *t, const execution *x, int w)
{
    for (int k = w + 1; k < x->n && x->ev[k].thread == x->ev[w].thread; k++) {
        const event *E = &x->ev[k];
        if (shmem_completes(E->src, E->kind))
            return -1;
        if (role(E) == SHM_BARRIER && strstr(call_of(t, E), "sync_all"))
            return k;
    }
    return -1;
}

/* The write a read takes its value from, or -1. */
static int source_of(const execution *x, int r)
{
    for (int w = 0; w < x->n; w++)
        if (rel_has(&x->rf, w, r))
            return w;
    return -1;
}

/* A SHMEM fence call in block b between two lines (the fence emits no event
 * when it orders nothing that follows). */
static const inst *fence_between(const block *b, int from, int to)
{
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        if (in->shmem_role == SHM_FENCE && in->pos.line > from && in->pos.line < to)
            return in;
        const inst *f = fence_between(&in->body, from, to);
        if (!f)
            f = fence_between(&in->els, from, to);
        if (f)
            return f;
    }
    return NULL;
}

/* Explains why O (another thread's access) is not ordered after the put store W. */
static void explain_put(const test *t, const execution *x, R after, diagnosis *d, int w, int o)
{
    const event *W = &x->ev[w], *O = &x->ev[o];
    char cn[96];
    cell_name(t, W->cell, cn, sizeof cn);
    int sy = sync_all_after(t, x, w);
    if (sy >= 0) {
        char quiet[64];
        quiet_of(call_of(t, W), quiet, sizeof quiet);
        diag_say(d,
                 "sync_all does not complete puts: %s's %s to %s (line %d) may still be in flight after its %s (line "
                 "%d), which synchronizes the PEs but completes only local stores; %s's access at line %d can miss it: "
                 "use barrier_all, or call %s before the sync_all",
                 who(t, W), call_of(t, W), cn, line_of(W), call_of(t, &x->ev[sy]), line_of(&x->ev[sy]), who(t, O),
                 line_of(O), quiet);
        return;
    }
    for (int rw = 0; rw < x->n; rw++) {
        const event *Rw = &x->ev[rw];
        if (Rw->kind != EV_R || role(Rw) != SHM_WAIT || Rw->await_hang)
            continue;
        bool same_thread = Rw->thread == O->thread;
        bool same_wg = Rw->gpu == O->gpu && Rw->wg == O->wg;
        if (!same_thread && !same_wg)
            continue;
        if (!same_thread && !rel_has(after, rw, o)) {
            diag_say(d,
                     "wait without a barrier: %s's %s (line %d) orders only %s's own later accesses; %s's access to %s "
                     "at line %d is not ordered after it, so it may miss %s's %s (line %d); put __syncthreads() after "
                     "the wait",
                     who(t, Rw), call_of(t, Rw), line_of(Rw), who(t, Rw), who(t, O), cn, line_of(O), who(t, W),
                     call_of(t, W), line_of(W));
            continue;
        }
        if (same_thread && !issued_before(x, rw, o))
            continue;
        /* The signal: the put's thread's next atomic on the waited cell. */
        int s = -1;
        for (int k = 0; k < x->n && s < 0; k++) {
            const event *S = &x->ev[k];
            if (S->thread == W->thread && S->kind == EV_W && S->cell == Rw->cell && issued_before(x, w, k) &&
                (role(S) == SHM_AMO || role(S) == SHM_SIGNAL))
                s = k;
        }
        if (s < 0)
            continue;
        const event *S = &x->ev[s];
        char sn[96];
        cell_name(t, S->cell, sn, sizeof sn);
        bool ordered = S->ord == ORD_RELEASE || S->ord == ORD_ACQ_REL || S->ord == ORD_SEQ_CST;
        for (int f = 0; f < x->n && !ordered; f++) {
            const event *F = &x->ev[f];
            ordered = F->kind == EV_F && F->thread == W->thread && issued_before(x, w, f) && issued_before(x, f, s) &&
                      (F->ord == ORD_RELEASE || F->ord == ORD_ACQ_REL || F->ord == ORD_SEQ_CST);
        }
        if (!ordered) {
            char quiet[64];
            quiet_of(call_of(t, W), quiet, sizeof quiet);
            const inst *fence = fence_between(&t->threads[W->thread].code, line_of(W), line_of(S));
            if (fence)
                diag_say(d,
                         "fence where quiet is needed: %s's %s (line %d) orders delivery only to the same PE, but "
                         "%s (line %d) writes %s on gpu%d and %s (line %d) writes %s on gpu%d; %s (line %d) can see "
                         "the signal before the data: use %s",
                         who(t, W), t->shmem_calls[fence->shmem - 1].name, fence->pos.line, call_of(t, W), line_of(W), cn,
                         t->locs[cell_loc(t, W->cell)].home, call_of(t, S), line_of(S), sn,
                         t->locs[cell_loc(t, S->cell)].home, call_of(t, Rw), line_of(Rw), quiet);
            else
                diag_say(d,
                         "%s to %s at line %d not completed by quiet before %s of %s (line %d): %s's %s (line %d) can "
                         "see the signal while the put is in flight (a put returns before delivery; an atomic orders "
                         "nothing before it); call %s between them",
                         call_of(t, W), cn, line_of(W), call_of(t, S), sn, line_of(S), who(t, Rw), call_of(t, Rw),
                         line_of(Rw), quiet);
            continue;
        }
        int src = source_of(x, rw);
        if (src >= 0 && src != s && !rel_has(&x->co, s, src)) {
            char v[48];
            format_value(t, Rw->cell, Rw->value, v, sizeof v);
            diag_say(d,
                     "wait satisfied too early: %s's %s (line %d) accepted %s = %s, written before %s's %s (line %d) "
                     "that follows its %s to %s (line %d); the comparison value does not wait for this step's signal "
                     "(wrong epoch?)",
                     who(t, Rw), call_of(t, Rw), line_of(Rw), sn, v, who(t, S), call_of(t, S), line_of(S), call_of(t, W),
                     cn, line_of(W));
        }
    }
}

void diagnose_shmem(const test *t, const execution *x, const model_verdict *wv, bool cond_witness, diagnosis *d)
{
    if (!t->nshmem_calls)
        return;
    R after = plus(U(&x->po, &x->bar));
    /* Races with a put's store. */
    for (int i = 0; i < wv->nraces; i++) {
        int a = wv->races[i].a, b = wv->races[i].b;
        if (role(&x->ev[a]) == SHM_PUT && x->ev[a].kind == EV_W)
            explain_put(t, x, after, d, a, b);
        else if (role(&x->ev[b]) == SHM_PUT && x->ev[b].kind == EV_W)
            explain_put(t, x, after, d, b, a);
    }
    /* Reads that missed a put: they read a write coherence-before it. */
    for (int r = 0; cond_witness && r < x->n; r++) {
        if (x->ev[r].kind != EV_R || x->ev[r].await_hang)
            continue;
        int src = source_of(x, r);
        if (src < 0)
            continue;
        for (int w = 0; w < x->n; w++)
            if (x->ev[w].kind == EV_W && role(&x->ev[w]) == SHM_PUT && x->ev[w].thread != x->ev[r].thread &&
                rel_has(&x->co, src, w))
                explain_put(t, x, after, d, w, r);
    }
}
