/* Drops the thread paths that no consistent execution can follow, before the
 * explorer combines them.  Each path is judged against every write that any
 * other thread might make on any of its paths, so what is dropped is dropped
 * under every choice of the other threads' paths and of reads-from:
 *
 *  (a) a read whose constraints (those that depend on its value alone) no
 *      possible source value satisfies;
 *  (b) read-read coherence: r1 po-before r2 on one cell, every source that
 *      satisfies r1 is a non-initial write morally strong with r1 and r2,
 *      and r2 can only be satisfied by the initial value (every model here
 *      forbids r2 reading what is coherence-before r1's source; the
 *      explorer's reads_coherent_along_po says why);
 *  (c) an await that hangs reading the cell's last value, when another
 *      thread writes the cell on every one of its paths and every possible
 *      write's value satisfies the await;
 *  (d) a path whose constraints no values of its reads satisfy, where each
 *      read ranges over what its cell can hold (cellvals.c: counters and
 *      flags changed only by adds of constants, value-preserving CASes and
 *      stores of constants hold few values) and a hanging await over the
 *      cell's possible final values.
 *
 * A spinning consumer that polls a flag and then acquires it with a CAS has
 * two paths per tile for the CAS (success, failure) and one more per tile for
 * a hang; without this filter their product is explored combination by
 * combination, each dying only inside the reads-from search. */
#include "pathfilter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../model/base.h"
#include "cellvals.h"
#include "parallel.h"

typedef struct {
    int thread;
    bool known;          /* value known without the thread's reads */
    int64_t value;
    event ev;            /* for scope checks */
} site;

typedef struct {
    const test *t;
    thread_paths *tp;
    int nthreads;
    site *sites;         /* writes of every path of every thread, by cell, each distinct write once */
    int *first;          /* [ncells + 1]: where a cell's sites start */
    int *nsites;         /* [ncells]: how many it has */
    bool *must;          /* [thread * ncells + cell]: written on every path */
    cellvals *cv;        /* [ncells]: the values each cell can hold */
} env;


bool static_value(const test *t, const thread_paths *tp, const pevent *pw, int64_t *v)
{
    const symnode *n = &tp->pool[pw->sym];
    int k = pw->sym;
    if (n->kind == S_RMW) {
        int op = (int)(n->value & ~RMW_UNSIGNED);
        if (op != RMW_EXCH && op != RMW_CAS)
            return false;
        k = n->b;
    }
    if (tp->pool[k].deps)
        return false;
    int64_t none[MAX_READS_PER_THREAD] = {0};
    *v = normalize_value(t->locs[cell_loc(t, pw->cell)].type, sym_eval(tp, k, none));
    return true;
}

/* A thread whose paths always run to their end: it and its workgroup never
 * hang or stop, and all reach the same barriers (otherwise the explorer cuts
 * a path at the barrier a peer never reaches). */
static bool runs_to_end(const env *E, int th)
{
    const thread *T = &E->t->threads[th];
    /* Alone in its workgroup, a thread never waits at a workgroup barrier
     * (K6 with one thread per rank), whatever its other paths do. */
    bool peers = false;
    for (int u = 0; u < E->nthreads && !peers; u++)
        peers = u != th && E->t->threads[u].gpu == T->gpu && E->t->threads[u].wg == T->wg;
    if (!peers) {
        for (int i = 0; i < E->tp[th].n; i++)
            for (int k = 0; k < E->tp[th].v[i].nev; k++)
                if ((E->tp[th].v[i].ev[k].kind == EV_BA || E->tp[th].v[i].ev[k].kind == EV_BW) &&
                    E->tp[th].v[i].ev[k].bar_named)
                    return false;
        return true;
    }
    int nbar = -1;
    for (int u = 0; u < E->nthreads; u++) {
        const thread *U = &E->t->threads[u];
        if (u != th && !(U->gpu == T->gpu && U->wg == T->wg))
            continue;
        for (int i = 0; i < E->tp[u].n; i++) {
            const tpath *p = &E->tp[u].v[i];
            if (p->hung || p->error_at || p->cut_at)
                return false;
            if (nbar < 0)
                nbar = p->nbar;
            if (p->nbar != nbar)
                return false;
            for (int k = 0; k < p->nev; k++)
                if ((p->ev[k].kind == EV_BA || p->ev[k].kind == EV_BW) && p->ev[k].bar_named)
                    return false;
        }
    }
    return true;
}

/* Sites that answer read_sources alike: one thread's write by one instruction, of one known value (or of
   values not known). The event's other fields come from the instruction and the thread. */
static bool same_site(const site *a, const site *b)
{
    return a->thread == b->thread && a->ev.src == b->ev.src && a->known == b->known &&
           (!a->known || a->value == b->value) && a->ev.ord == b->ev.ord && a->ev.scope == b->ev.scope &&
           a->ev.kind == b->ev.kind && a->ev.cell == b->ev.cell;
}

static uint64_t site_hash(const site *s)
{
    uint64_t h = (uint64_t)s->thread * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)s->ev.src ^
                 (uint64_t)s->ev.cell * 0xC2B2AE3D27D4EB4Full;
    if (s->known)
        h ^= (uint64_t)s->value * 0x165667B19E3779F9ull + 1;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
}

static void env_build(env *E)
{
    const test *t = E->t;
    int nc = t->ncells;
    E->first = calloc((size_t)nc + 1, sizeof *E->first);
    E->must = calloc((size_t)E->nthreads * (size_t)nc + 1, sizeof *E->must);
    int *count = calloc((size_t)nc + 1, sizeof *count);
    long total = 0;
    for (int th = 0; th < E->nthreads; th++)
        for (int i = 0; i < E->tp[th].n; i++) {
            const tpath *p = &E->tp[th].v[i];
            for (int k = 0; k < p->nev; k++)
                if (p->ev[k].kind == EV_W) {
                    count[p->ev[k].cell]++;
                    total++;
                }
        }
    for (int c = 0; c < nc; c++)
        E->first[c + 1] = E->first[c] + count[c];
    E->sites = malloc((size_t)(total ? total : 1) * sizeof *E->sites);
    memset(count, 0, (size_t)nc * sizeof *count);
    size_t hcap = 16;
    while (hcap < 2 * (size_t)total)
        hcap *= 2;
    int *hash = calloc(hcap, sizeof *hash); /* index + 1 of a site, 0 for none */
    int *paths_writing = calloc((size_t)nc + 1, sizeof *paths_writing);
    for (int th = 0; th < E->nthreads; th++) {
        memset(paths_writing, 0, (size_t)nc * sizeof *paths_writing);
        for (int i = 0; i < E->tp[th].n; i++) {
            const tpath *p = &E->tp[th].v[i];
            for (int k = 0; k < p->nev; k++) {
                const pevent *pe = &p->ev[k];
                if (pe->kind != EV_W)
                    continue;
                /* The same write on many paths (511 paths of one K3 thread) is one site: read_sources only
                   asks whether some site, or every site, has a property of its own. */
                site w = {.thread = th};
                w.known = static_value(t, &E->tp[th], pe, &w.value);
                w.ev = pevent_event(t, th, pe);
                uint64_t h = site_hash(&w) & (hcap - 1);
                while (hash[h] && !same_site(&E->sites[hash[h] - 1], &w))
                    h = (h + 1) & (hcap - 1);
                if (!hash[h]) {
                    int at = E->first[pe->cell] + count[pe->cell]++;
                    E->sites[at] = w;
                    hash[h] = at + 1;
                }
                bool earlier = false;
                for (int j = 0; j < k && !earlier; j++)
                    earlier = p->ev[j].kind == EV_W && p->ev[j].cell == pe->cell;
                if (!earlier)
                    paths_writing[pe->cell]++;
            }
        }
        if (E->tp[th].n > 0 && runs_to_end(E, th))
            for (int c = 0; c < nc; c++)
                E->must[(size_t)th * (size_t)nc + (size_t)c] = paths_writing[c] == E->tp[th].n;
    }
    free(paths_writing);
    free(hash);
    E->nsites = count;
}

static void env_free(env *E)
{
    free(E->sites);
    free(E->first);
    free(E->nsites);
    free(E->must);
    cellvals_free(E->cv, E->t->ncells);
}

bool satisfies(const thread_paths *tp, const tpath *p, int ri, int64_t v)
{
    int64_t reads[MAX_READS_PER_THREAD] = {0};
    reads[ri] = v;
    for (int c = 0; c < p->ncons; c++)
        if (tp->pool[p->cons[c]].deps == 1ull << ri && !sym_eval(tp, p->cons[c], reads))
            return false;
    return true;
}

/* What a read at event k of path p of thread th may read, summarized. */
typedef struct {
    bool init;           /* the initial value satisfies */
    bool other;          /* some non-initial source may satisfy */
    bool own_write;      /* the thread wrote the cell before the read */
    bool strong_only;    /* every satisfying non-initial source is strong with both reads given */
    bool all_fail;       /* every possible write is known and fails the constraints */
} sources;

static sources read_sources(const env *E, int th, const tpath *p, int k, const event *ra, const event *rb)
{
    const test *t = E->t;
    const thread_paths *tp = &E->tp[th];
    const pevent *r = &p->ev[k];
    int c = r->cell;
    sources s = {.strong_only = true, .all_fail = true};
    const location *L = &t->locs[cell_loc(t, c)];
    int64_t init = L->init[c - L->first_cell];
    s.init = satisfies(tp, p, r->read, init);
    /* The thread's own po-earlier writes. */
    for (int j = 0; j < k; j++) {
        const pevent *w = &p->ev[j];
        if (w->kind != EV_W || w->cell != c)
            continue;
        s.own_write = true;
        int64_t v;
        bool known = static_value(t, tp, w, &v);
        if (!known || satisfies(tp, p, r->read, v))
            s.other = true, s.all_fail = false;
    }
    for (int i = E->first[c]; i < E->first[c] + E->nsites[c]; i++) {
        const site *w = &E->sites[i];
        if (w->thread == th)
            continue;
        if (w->known && !satisfies(tp, p, r->read, w->value))
            continue;
        s.other = true;
        s.all_fail = false;
        if (ra && !(w->ev.ord != ORD_PLAIN && ra->ord != ORD_PLAIN && rb->ord != ORD_PLAIN &&
                    scopes_include(t, &w->ev, ra) && scopes_include(t, &w->ev, rb)))
            s.strong_only = false;
    }
    return s;
}

static bool someone_must_write(const env *E, int th, int cell)
{
    for (int u = 0; u < E->nthreads; u++)
        if (u != th && E->must[(size_t)u * (size_t)E->t->ncells + (size_t)cell])
            return true;
    return false;
}

static bool path_feasible(const env *E, int th, const tpath *p)
{
    const test *t = E->t;
    if (!cellvals_path_feasible(t, E->cv, &E->tp[th], p, th, runs_to_end(E, th)))
        return false;                                            /* (d) */
    for (int k = 0; k < p->nev; k++) {
        const pevent *r = &p->ev[k];
        if (r->kind != EV_R)
            continue;
        sources s = read_sources(E, th, p, k, NULL, NULL);
        if (!s.init && !s.other)
            return false;                                        /* (a) */
        if (r->await_hang && s.all_fail && someone_must_write(E, th, r->cell))
            return false;                                        /* (c) */
        /* (b): r is r2, which can only read the initial value; look for an
         * r1 before it that cannot. */
        if (s.own_write || !s.init || s.other)
            continue;
        event e2 = pevent_event(t, th, r);
        for (int j = 0; j < k; j++) {
            const pevent *r1 = &p->ev[j];
            if (r1->kind != EV_R || r1->cell != r->cell)
                continue;
            event e1 = pevent_event(t, th, r1);
            if (!same_access_path(t, &e1, &e2))
                continue; /* PTX proxies: no read-read coherence across proxies */
            sources s1 = read_sources(E, th, p, j, &e1, &e2);
            if (s1.other && !s1.init && s1.strong_only)
                return false;                                    /* (b) */
        }
    }
    return true;
}

typedef struct {
    const env *E;
    bool **keep;  /* [thread][path] */
    int *nkeep;   /* [thread] */
} judge_job;

/* One thread's paths against the environment, which no step changes. */
static void judge_thread(void *ctx, int th)
{
    judge_job *j = ctx;
    const thread_paths *T = &j->E->tp[th];
    bool *keep = malloc((size_t)(T->n ? T->n : 1) * sizeof *keep);
    int nkeep = 0;
    for (int i = 0; i < T->n; i++) {
        keep[i] = path_feasible(j->E, th, &T->v[i]);
        nkeep += keep[i];
    }
    j->keep[th] = keep;
    j->nkeep[th] = nkeep;
}

int pathfilter(const test *t, thread_paths *tp) { return pathfilter_jobs(t, tp, 1); }

int pathfilter_jobs(const test *t, thread_paths *tp, int jobs)
{
    int dropped = 0;
    int nt = t->nthreads ? t->nthreads : 1;
    for (int round = 0; round < 4; round++) {
        env E = {.t = t, .tp = tp, .nthreads = t->nthreads};
        env_build(&E);
        E.cv = cellvals_build(t, tp);
        judge_job j = {&E, calloc((size_t)nt, sizeof *j.keep), calloc((size_t)nt, sizeof *j.nkeep)};
        parallel_steps(t->nthreads, jobs, judge_thread, &j);
        int now = 0;
        for (int th = 0; th < t->nthreads; th++) {
            thread_paths *T = &tp[th];
            bool *keep = j.keep[th];
            int nkeep = j.nkeep[th];
            /* A thread with no feasible path: leave it whole, and the search
             * finds that nothing is consistent. */
            if (nkeep > 0 && nkeep < T->n) {
                int out = 0;
                for (int i = 0; i < T->n; i++) {
                    if (keep[i]) {
                        T->v[out++] = T->v[i];
                        continue;
                    }
                    tpath_free(&T->v[i]);
                }
                now += T->n - out;
                T->n = out;
            }
            free(keep);
        }
        free(j.keep);
        free(j.nkeep);
        env_free(&E);
        dropped += now;
        if (now == 0)
            break;
    }
    return dropped;
}
