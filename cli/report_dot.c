/* A witness execution as a Graphviz picture: events grouped by GPU,
 * workgroup and thread; po, rf, co, fr and synchronizes-with edges; racing
 * pairs highlighted. Edges that do not constrain the layout (rf, co, fr,
 * races) carry their names as xlabels: a label on such an edge between
 * clusters becomes a virtual node that makes dot fail with "trouble in
 * init_rank" on the larger kernel graphs. */
#include <stdio.h>
#include <string.h>

#include "../model/base.h"
#include "report.h"

/* "st.release.sys flag\nline 12\nflag = 1" */
static void label(const test *t, const event *e, char *buf, int size)
{
    char what[160], val[48], cn[96] = "", line[200] = "", at[160];
    event_describe(t, e, what, sizeof what);
    if (e->src)
        snprintf(line, sizeof line, "\\n%s", test_line_name(t, e->src->pos.line, at, sizeof at));
    if (e->kind == EV_R || e->kind == EV_W || e->kind == EV_IW) {
        cell_name(t, e->cell, cn, sizeof cn);
        format_value(t, e->cell, e->value, val, sizeof val);
        snprintf(buf, (size_t)size, "%s%s\\n%s = %s%s", what, line, cn, val,
                 e->await_hang ? "\\n(await never satisfied)" : "");
    } else {
        snprintf(buf, (size_t)size, "%s%s", what, line);
    }
}

static bool is_sync(const execution *x, int w, int r)
{
    const event *a = &x->ev[w], *b = &x->ev[r];
    bool rel = a->ord == ORD_RELEASE || a->ord == ORD_ACQ_REL || a->ord == ORD_SEQ_CST;
    bool acq = b->ord == ORD_ACQUIRE || b->ord == ORD_ACQ_REL || b->ord == ORD_SEQ_CST;
    return a->kind == EV_W && rel && acq && a->thread != b->thread;
}

int report_dot(FILE *out, const test *t, const explore_result *r, int m)
{
    const model_result *mr = &r->mr[m];
    const execution *x = mr->witness;
    fprintf(out, "digraph \"%s\" {\n  label=\"%s  (model %s", t->name, t->name, mr->m->name);
    if (!x) {
        fprintf(out, ": no consistent execution)\";\n}\n");
        return 0;
    }
    const char *kind = mr->witness_rank == 4 ? (t->quant == Q_FORALL ? "counterexample to the condition" : "witness of the condition")
                       : mr->witness_rank == 3 ? "an execution with a race"
                       : mr->witness_rank == 2 ? "an execution that hangs"
                                               : "a consistent execution";
    fprintf(out, ": %s)\";\n  labelloc=t; fontname=\"Helvetica\"; forcelabels=true;\n", kind);
    fprintf(out, "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n");
    bool racy[REL_MAX] = {0};
    for (int i = 0; i < mr->witness_v.nraces; i++) {
        racy[mr->witness_v.races[i].a] = true;
        racy[mr->witness_v.races[i].b] = true;
    }
    /* Initial writes, outside every GPU. */
    for (int i = 0; i < x->n; i++)
        if (x->ev[i].kind == EV_IW) {
            char l[400];
            label(t, &x->ev[i], l, sizeof l);
            fprintf(out, "  e%d [label=\"%s\", style=\"rounded,dashed\"];\n", i, l);
        }
    for (int g = 0; g < t->ngpus; g++) {
        bool any = false;
        for (int th = 0; th < t->nthreads; th++)
            any = any || t->threads[th].gpu == g;
        if (!any)
            continue;
        fprintf(out, "  subgraph cluster_gpu%d {\n    label=\"gpu%d\"; style=rounded; color=gray40;\n", g, g);
        int done_wg[64], ndone = 0;
        for (int th = 0; th < t->nthreads; th++) {
            const thread *T = &t->threads[th];
            if (T->gpu != g)
                continue;
            bool seen = false;
            for (int k = 0; k < ndone; k++)
                seen = seen || done_wg[k] == T->wg;
            if (seen || ndone == 64)
                continue;
            done_wg[ndone++] = T->wg;
            if (T->wg_label < 0)
                fprintf(out, "    subgraph cluster_g%d_wg%d {\n      label=\"own workgroup\"; style=dotted;\n", g, T->wg);
            else
                fprintf(out, "    subgraph cluster_g%d_wg%d {\n      label=\"wg%d (%s)\"; style=dotted;\n", g, T->wg,
                        T->wg_label, t->kernels[T->kernel].name);
            for (int u = th; u < t->nthreads; u++) {
                const thread *U2 = &t->threads[u];
                if (U2->gpu != g || U2->wg != T->wg)
                    continue;
                fprintf(out, "      subgraph cluster_t%d {\n        label=\"%s\"; style=solid; color=gray70;\n", u, U2->name);
                for (int i = 0; i < x->n; i++) {
                    if (x->ev[i].thread != u)
                        continue;
                    char l[400];
                    label(t, &x->ev[i], l, sizeof l);
                    fprintf(out, "        e%d [label=\"%s\"%s];\n", i, l,
                            racy[i] ? ", color=red, penwidth=2, style=\"rounded,filled\", fillcolor=mistyrose" : "");
                }
                fprintf(out, "      }\n");
            }
            fprintf(out, "    }\n");
        }
        fprintf(out, "  }\n");
    }
    /* po: consecutive events of a thread. */
    for (int i = 0; i < x->n; i++)
        for (int j = i + 1; j < x->n; j++)
            if (rel_has(&x->po, i, j)) {
                bool immediate = true;
                for (int k = i + 1; k < j && immediate; k++)
                    immediate = !(rel_has(&x->po, i, k) && rel_has(&x->po, k, j));
                if (immediate)
                    fprintf(out, "  e%d -> e%d [label=\"po\", color=black, weight=10];\n", i, j);
            }
    for (int i = 0; i < x->n; i++)
        for (int j = 0; j < x->n; j++) {
            if (rel_has(&x->rf, i, j)) {
                if (is_sync(x, i, j))
                    fprintf(out, "  e%d -> e%d [xlabel=\"rf, sw\", color=darkgreen, penwidth=2, constraint=false];\n", i, j);
                else
                    fprintf(out, "  e%d -> e%d [xlabel=\"rf\", color=red, constraint=false];\n", i, j);
            }
            if (rel_has(&x->co, i, j) && x->ev[i].kind != EV_IW) {
                bool immediate = true;
                for (int k = 0; k < x->n && immediate; k++)
                    immediate = !(rel_has(&x->co, i, k) && rel_has(&x->co, k, j));
                if (immediate)
                    fprintf(out, "  e%d -> e%d [xlabel=\"co\", color=blue, constraint=false];\n", i, j);
            }
            if (rel_has(&x->bar, i, j))
                fprintf(out, "  e%d -> e%d [xlabel=\"barrier\", color=darkgreen, style=dashed, constraint=false];\n", i, j);
        }
    /* fr: from each read to the writes co-after the one it reads. */
    for (int r2 = 0; r2 < x->n; r2++) {
        if (x->ev[r2].kind != EV_R)
            continue;
        for (int w = 0; w < x->n; w++) {
            if (!rel_has(&x->rf, w, r2))
                continue;
            for (int w2 = 0; w2 < x->n; w2++)
                if (rel_has(&x->co, w, w2) && w2 != x->ev[r2].rmw_partner) {
                    bool immediate = true;
                    for (int k = 0; k < x->n && immediate; k++)
                        immediate = !(rel_has(&x->co, w, k) && rel_has(&x->co, k, w2));
                    if (immediate)
                        fprintf(out, "  e%d -> e%d [xlabel=\"fr\", color=orange, style=dashed, constraint=false];\n", r2, w2);
                }
        }
    }
    for (int i = 0; i < mr->witness_v.nraces; i++)
        fprintf(out, "  e%d -> e%d [xlabel=\"race\", dir=both, color=red, penwidth=2.5, style=bold, constraint=false];\n",
                mr->witness_v.races[i].a, mr->witness_v.races[i].b);
    fprintf(out, "}\n");
    return 0;
}
