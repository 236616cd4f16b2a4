/* Independent parts: threads that share no cell, workgroup, fence.sc or
 * Vulkan ssw are explored apart and their outcomes combined as a product. */
#include "explore_internal.h"

#include <stdlib.h>

/* ---- parts ---------------------------------------------------------------------------- */

static int find_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static void unite(int *parent, int a, int b) { parent[find_root(parent, a)] = find_root(parent, b); }

/* Threads that share a cell, a workgroup or a fence.sc (or a Vulkan ssw)
 * belong to one part. */
void split_parts(shared *sh)
{
    const test *t = sh->t;
    int n = t->nthreads, parent[MAX_THREADS];
    for (int i = 0; i < n; i++)
        parent[i] = i;
    int *owner = malloc((size_t)(t->ncells ? t->ncells : 1) * sizeof *owner);
    for (int c = 0; c < t->ncells; c++)
        owner[c] = -1;
    int sc_thread = -1;
    for (int th = 0; th < n; th++) {
        for (int p = 0; p < sh->tp[th].n; p++) {
            const tpath *pa = &sh->tp[th].v[p];
            for (int k = 0; k < pa->nev; k++) {
                const pevent *pe = &pa->ev[k];
                if (pe->cell >= 0) {
                    if (owner[pe->cell] < 0)
                        owner[pe->cell] = th;
                    else
                        unite(parent, th, owner[pe->cell]);
                }
                if ((pe->kind == EV_F && pe->ord == ORD_SEQ_CST) || pe->ord == ORD_SEQ_CST) {
                    if (sc_thread < 0)
                        sc_thread = th;
                    else
                        unite(parent, th, sc_thread);
                }
            }
        }
        for (int u = 0; u < th; u++)
            if (t->threads[u].gpu == t->threads[th].gpu && t->threads[u].wg == t->threads[th].wg)
                unite(parent, th, u);
    }
    for (int i = 0; i < t->nssw; i++)
        if (t->ssw[i][0] < n && t->ssw[i][1] < n)
            unite(parent, t->ssw[i][0], t->ssw[i][1]);
    /* A filter judges whole executions: one part. */
    for (int th = 1; t->filter && th < n; th++)
        unite(parent, 0, th);
    int id[MAX_THREADS];
    for (int i = 0; i < n; i++)
        id[i] = -1;
    sh->nparts = 0;
    for (int th = 0; th < n; th++) {
        int r = find_root(parent, th);
        if (id[r] < 0)
            id[r] = sh->nparts++;
        sh->part_of[th] = id[r];
    }
    /* Show items go with the part of their thread, or of their cell's users;
     * a cell nobody touches keeps its initial value (part -1). */
    explore_result *res = sh->res;
    for (int p = 0; p < sh->nparts; p++) {
        sh->pshow[p] = malloc((size_t)(res->nshow ? res->nshow : 1) * sizeof **sh->pshow);
        sh->npshow[p] = 0;
    }
    for (int i = 0; i < res->nshow; i++) {
        const show_item *s = &res->show[i];
        int p = s->is_mem ? (owner[s->cell] >= 0 ? sh->part_of[owner[s->cell]] : -1) : sh->part_of[s->thread];
        if (p >= 0)
            sh->pshow[p][sh->npshow[p]++] = i;
    }
    free(owner);
}
