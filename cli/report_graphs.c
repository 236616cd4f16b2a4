/* Execution graphs for the report, drawn as `memsim --svg` draws them
 * (report_dot, then Graphviz's dot): the weak outcome's witness, and an
 * execution for each outcome the hardware showed that the judging model
 * forbids, under a model that allows it. A state no model produces has no
 * execution to draw; the note says so. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../import/import.h"
#include "report.h"
#include "report_out.h"

static char *slurp(FILE *f)
{
    size_t cap = 1 << 14, len = 0, got;
    char *s = malloc(cap);
    while ((got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap)
            s = realloc(s, cap *= 2);
    }
    s[len] = 0;
    return s;
}

/* Graphviz's SVG for model m's witness, without the XML prolog; NULL and a
 * note on failure. Graphviz's complaints count as errors. */
static char *render_svg(const test *t, const explore_result *r, int m, char *note, size_t nn, int *errors)
{
    char dotf[] = "/tmp/memsim-report-XXXXXX", errf[] = "/tmp/memsim-report-err-XXXXXX";
    int fd = mkstemp(dotf), fe = mkstemp(errf);
    if (fd < 0 || fe < 0) {
        snprintf(note, nn, "cannot make a temporary file: %s", strerror(errno));
        if (fd >= 0)
            close(fd), unlink(dotf);
        if (fe >= 0)
            close(fe), unlink(errf);
        return NULL;
    }
    close(fe);
    FILE *f = fdopen(fd, "w");
    report_dot(f, t, r, m);
    fclose(f);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "dot -Tsvg '%s' 2>'%s'", dotf, errf);
    FILE *p = popen(cmd, "r");
    char *svg = p ? slurp(p) : NULL;
    int rc = p ? pclose(p) : -1;
    FILE *ef = fopen(errf, "r");
    char *err = ef ? slurp(ef) : NULL;
    if (ef)
        fclose(ef);
    unlink(dotf);
    unlink(errf);
    if (rc != 0 || (err && *err) || !svg || !strstr(svg, "<svg")) {
        char *nl = err ? strchr(err, '\n') : NULL;
        if (nl)
            *nl = 0;
        snprintf(note, nn, "Graphviz failed (exit %d): %s", rc, err && *err ? err : "no SVG came out");
        fprintf(stderr, "memsim report: error: %s: %s\n", t->file, note);
        (*errors)++;
        free(svg);
        free(err);
        return NULL;
    }
    free(err);
    /* Graphviz's prolog, comments and indentation weigh a third of the page: drop them. */
    char *in = strstr(svg, "<svg"), *out = svg;
    while (*in) {
        if (strncmp(in, "<!--", 4) == 0) {
            char *end = strstr(in, "-->");
            in = end ? end + 3 : in + strlen(in);
        } else if (*in == '\n') {
            *out++ = '\n';
            while (*in == '\n' || *in == ' ')
                in++;
        } else {
            *out++ = *in++;
        }
    }
    *out = 0;
    return svg;
}

static void add(rp_graphs *g, const char *title, char *svg, const char *note)
{
    g->g = realloc(g->g, (size_t)(g->n + 1) * sizeof *g->g);
    g->g[g->n].title = strdup(title);
    g->g[g->n].svg = svg;
    g->g[g->n].note = note && *note ? strdup(note) : NULL;
    g->n++;
}

/* "x == 1 && P1:r0 == 0" as a condition over the test's shown items. */
static cond *cond_of_state(const test *t, const explore_result *r, const hr_outcome *o, char *why, size_t wn)
{
    cond *all = NULL;
    for (int v = 0; v < o->nvals; v++) {
        int at = -1;
        for (int s = 0; s < r->nshow && at < 0; s++) {
            char name[128];
            show_item_name(t, &r->show[s], name, sizeof name);
            if (strcmp(name, o->vname[v]) == 0)
                at = s;
        }
        if (at < 0) {
            snprintf(why, wn, "the run's item %s is not one the test shows: is the .lit file the one that ran?",
                     o->vname[v]);
            cond_free(all);
            return NULL;
        }
        cond *c = calloc(1, sizeof *c);
        c->kind = C_CMP;
        c->l.kind = r->show[at].is_mem ? OPND_MEM : OPND_REG;
        c->l.thread = r->show[at].thread;
        c->l.reg = r->show[at].reg;
        c->l.cell = r->show[at].cell;
        c->r.kind = OPND_CONST;
        c->r.value = (int64_t)o->vval[v];
        if (!all) {
            all = c;
        } else {
            cond *a = calloc(1, sizeof *a);
            a->kind = C_AND;
            a->a = all;
            a->b = c;
            all = a;
        }
    }
    return all;
}

/* The first of the row's models (the judge's first) with a witness of the condition. */
static int witness_model(const explore_result *r, const char *prefer)
{
    for (int pass = 0; pass < 2; pass++)
        for (int m = 0; m < r->nmodels; m++) {
            bool pref = prefer && strcmp(r->mr[m].m->name, prefer) == 0;
            if ((pass == 0) == pref && r->mr[m].witness && r->mr[m].witness_rank == 4)
                return m;
        }
    return -1;
}

static const char *judge_of(const rp_report *rep, const rp_row *row)
{
    for (int k = 0; k < rep->nruns; k++)
        if (row->per_run[k] && row->per_run[k]->judge)
            return row->per_run[k]->judge;
    return NULL;
}

static void draw_row(const rp_report *rep, const rp_row *row, const rp_graph_opts *o, rp_graphs *g, int *errors)
{
    char path[4096], note[8192] = "";
    if (o->root && row->file[0] != '/')
        snprintf(path, sizeof path, "%s/%s", o->root, row->file);
    else
        snprintf(path, sizeof path, "%s", row->file);
    struct stat st;
    /* A test kept beside its run (results/<run>/x.lit) rather than where it ran from. */
    for (int k = 0; k < rep->nruns && stat(path, &st) != 0; k++) {
        if (!row->per_run[k])
            continue;
        const char *run = rep->runs[k].path, *slash = strrchr(run, '/'), *base = strrchr(row->file, '/');
        snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - run + 1) : 0, run, base ? base + 1 : row->file);
    }
    if (stat(path, &st) != 0) {
        if (o->root && row->file[0] != '/')
            snprintf(path, sizeof path, "%s/%s", o->root, row->file);
        else
            snprintf(path, sizeof path, "%s", row->file);
        snprintf(note, sizeof note, "%s: not found here, so no execution graph (run memsim report from the "
                                    "repository the runs came from, or give --root)", path);
        add(g, "execution graphs", NULL, note);
        return;
    }
    double longest = 0;
    for (int k = 0; k < rep->nruns; k++)
        if (row->per_run[k] && row->per_run[k]->explore_seconds > longest)
            longest = row->per_run[k]->explore_seconds;
    if (o->max_explore_s > 0 && longest > o->max_explore_s) {
        snprintf(note, sizeof note, "not drawn: exploring this test took %.1f s in the run, over the report's "
                                    "limit of %.1f s (--graph-seconds)", longest, o->max_explore_s);
        add(g, "execution graphs", NULL, note);
        return;
    }
    diag d = {0};
    lit_options lo = {0};
    test *t = load_test_file(path, &d, &lo);
    if (!t) {
        snprintf(note, sizeof note, "%s", d.msg ? d.msg : "cannot parse");
        fprintf(stderr, "memsim report: warning: %s", d.msg ? d.msg : "cannot parse\n");
        diag_free(&d);
        add(g, "execution graphs", NULL, note);
        return;
    }
    explore_opts eo = {.jobs = o->jobs};
    for (int m = 0; m < row->nmodels && eo.nmodels < MAX_MODELS; m++) {
        const model *md = model_find(row->models[m]);
        if (md)
            eo.models[eo.nmodels++] = md;
    }
    if (!eo.nmodels)
        eo.models[eo.nmodels++] = &model_src11;
    explore_result r;
    if (explore(t, &eo, &r) != 0) {
        add(g, "execution graphs", NULL, r.err);
        explore_result_free(&r);
        test_free(t);
        return;
    }
    const char *judge = judge_of(rep, row);
    char title[8192];
    bool weak_drawn = false;
    if (t->cond) {
        char cs[300];
        cond_to_string(t, t->cond, cs, sizeof cs);
        int m = witness_model(&r, judge);
        if (m >= 0) {
            snprintf(title, sizeof title, "weak outcome (%s%s): %s under %s",
                     t->quant == Q_FORALL ? "forall " : t->quant == Q_NOT_EXISTS ? "~exists " : "exists ", cs,
                     t->quant == Q_FORALL ? "a counterexample" : "an execution", r.mr[m].m->name);
            note[0] = 0;
            char *svg = render_svg(t, &r, m, note, sizeof note, errors);
            weak_drawn = svg != NULL;
            add(g, title, svg, note);
        } else {
            snprintf(title, sizeof title, "weak outcome (%s)", cs);
            add(g, title, NULL, "no model here has an execution with this outcome: every one forbids it, so "
                                "there is no execution to draw");
        }
    }
    /* Outcomes the hardware showed that the judging model forbids. */
    for (int i = 0; i < row->nouts; i++) {
        const rp_outkey *k = &row->outs[i];
        const char *seen_on = NULL;
        for (int run = 0; run < rep->nruns && !seen_on; run++) {
            const hr_outcome *oc = rp_find(row->per_run[run], k);
            if (oc && rp_class_judged(row->per_run[run], oc) == CL_FORBIDDEN_SEEN)
                seen_on = rep->runs[run].label;
        }
        if (!seen_on)
            continue;
        if (k->kind != HR_STATE) {
            snprintf(title, sizeof title, "FORBIDDEN, SEEN on %s: %s", seen_on, k->label);
            snprintf(note, sizeof note, "a final state that no model produces%s%s: no execution of any model reaches "
                                        "it, so there is no graph to draw",
                     k->first->sample ? "; the run sampled " : "", k->first->sample ? k->first->sample : "");
            add(g, title, NULL, note);
            continue;
        }
        snprintf(title, sizeof title, "FORBIDDEN, SEEN on %s: %s", seen_on, k->label);
        if (k->cond && weak_drawn && t->quant == Q_EXISTS && t->cond->kind != C_OR) {
            /* The condition's one state: its witness is the graph above. */
            add(g, title, NULL, "this is the weak outcome: its execution is drawn above");
            continue;
        }
        cond *c = cond_of_state(t, &r, k->first, note, sizeof note);
        if (!c) {
            add(g, title, NULL, note);
            continue;
        }
        cond *saved = t->cond;
        quant_t q = t->quant;
        t->cond = c;
        t->quant = Q_EXISTS;
        explore_result r2;
        if (explore(t, &eo, &r2) == 0) {
            int m = witness_model(&r2, NULL);
            if (m >= 0) {
                size_t len = strlen(title);
                snprintf(title + len, sizeof title - len, ": an execution under %s, which allows it",
                         r2.mr[m].m->name);
                note[0] = 0;
                char *svg = render_svg(t, &r2, m, note, sizeof note, errors);
                add(g, title, svg, note);
            } else {
                add(g, title, NULL, "no model here has an execution with this state");
            }
        } else {
            add(g, title, NULL, r2.err);
        }
        explore_result_free(&r2);
        t->cond = saved;
        t->quant = q;
        cond_free(c);
    }
    explore_result_free(&r);
    test_free(t);
}

int rp_draw_graphs(const rp_report *r, const rp_graph_opts *o, rp_graphs *out)
{
    int errors = 0;
    if (o->graphs && system("command -v dot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "memsim report: warning: Graphviz's 'dot' is not installed (apt-get install graphviz): "
                        "the report has no execution graphs\n");
        for (int i = 0; i < r->nrows; i++)
            add(&out[i], "execution graphs", NULL, "not drawn: Graphviz's dot was not installed");
        return 0;
    }
    for (int i = 0; i < r->nrows; i++) {
        if (!o->graphs || r->rows[i].ran == 0)
            continue;
        draw_row(r, &r->rows[i], o, &out[i], &errors);
    }
    return errors;
}

void rp_graphs_free(rp_graphs *g, int n)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < g[i].n; k++) {
            free(g[i].g[k].title);
            free(g[i].g[k].svg);
            free(g[i].g[k].note);
        }
        free(g[i].g);
    }
}
