/* The report's rows: the runs' tests grouped by file, the union of their
 * outcomes, what each model is contradicted by; and, per run, its devices and
 * the command that reruns one of its tests. */
#include <stdlib.h>
#include <string.h>

#include "report_model.h"

static int cmp_row(const void *a, const void *b)
{
    const rp_row *x = a, *y = b;
    return strcmp(x->file, y->file);
}

static int find_row(const rp_report *r, const char *file)
{
    /* Linear: a few hundred tests, each looked up once per run. */
    for (int i = 0; i < r->nrows; i++)
        if (strcmp(r->rows[i].file, file) == 0)
            return i;
    return -1;
}

static void add_model(const char **list, int *n, const char *m)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i], m) == 0)
            return;
    if (*n < HR_MAX_MODELS)
        list[(*n)++] = m;
}

const hr_outcome *rp_find(const hr_test *t, const rp_outkey *k)
{
    if (!t)
        return NULL;
    for (int i = 0; i < t->nouts; i++)
        if (t->outs[i].kind == k->kind && strcmp(t->outs[i].label, k->label) == 0)
            return &t->outs[i];
    return NULL;
}

static void add_outcomes(rp_row *row, const hr_test *t)
{
    for (int i = 0; i < t->nouts; i++) {
        rp_outkey k = {t->outs[i].label, NULL, t->outs[i].kind, t->outs[i].cond, &t->outs[i]};
        bool have = false;
        for (int j = 0; j < row->nouts && !have; j++)
            have = row->outs[j].kind == k.kind && strcmp(row->outs[j].label, k.label) == 0;
        if (have)
            continue;
        row->outs = realloc(row->outs, (size_t)(row->nouts + 1) * sizeof *row->outs);
        /* States first, then the buckets, as hwrun orders them. */
        int at = row->nouts;
        while (at > 0 && row->outs[at - 1].kind > k.kind)
            at--;
        memmove(row->outs + at + 1, row->outs + at, (size_t)(row->nouts - at) * sizeof *row->outs);
        row->outs[at] = k;
        row->nouts++;
    }
}

static bool ran(const hr_test *t) { return t && t->status && strcmp(t->status, "skipped") != 0 && t->nouts > 0; }

/* A kernel's state names every tile; what tells two states apart is often one
 * item. The brief label drops the items whose value all the row's states share. */
static void brief_labels(rp_row *row)
{
    int nstates = 0;
    for (int i = 0; i < row->nouts; i++)
        nstates += row->outs[i].kind == HR_STATE;
    for (int i = 0; i < row->nouts; i++) {
        rp_outkey *k = &row->outs[i];
        const hr_outcome *o = k->first;
        if (k->kind != HR_STATE || nstates < 2 || o->nvals < 3) {
            k->brief = strdup(k->label);
            continue;
        }
        char buf[1024] = "";
        size_t len = 0;
        for (int v = 0; v < o->nvals; v++) {
            bool shared = true;
            for (int j = 0; j < row->nouts && shared; j++) {
                const hr_outcome *p = row->outs[j].first;
                if (row->outs[j].kind != HR_STATE)
                    continue;
                bool found = false;
                for (int w = 0; w < p->nvals && !found; w++)
                    found = strcmp(p->vname[w], o->vname[v]) == 0 && p->vval[w] == o->vval[v];
                shared = found;
            }
            if (!shared && len < sizeof buf - 1)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s=%.17g", len ? "; " : "", o->vname[v],
                                        o->vval[v]);
        }
        k->brief = strdup(len ? buf : k->label);
    }
}

void rp_build(rp_report *r, hr_run *runs, int nruns)
{
    memset(r, 0, sizeof *r);
    r->runs = runs;
    r->nruns = nruns;
    int cap = 0;
    for (int k = 0; k < nruns; k++)
        for (int i = 0; i < runs[k].ntests; i++) {
            const hr_test *t = &runs[k].tests[i];
            int at = find_row(r, t->file);
            if (at < 0) {
                if (r->nrows == cap) {
                    cap = cap ? cap * 2 : 64;
                    r->rows = realloc(r->rows, (size_t)cap * sizeof *r->rows);
                }
                at = r->nrows++;
                rp_row *row = &r->rows[at];
                memset(row, 0, sizeof *row);
                row->file = t->file;
                row->name = t->name;
                row->per_run = calloc((size_t)nruns, sizeof *row->per_run);
            }
            rp_row *row = &r->rows[at];
            /* A run that lists a file twice: keep the one that ran. */
            if (!row->per_run[k] || (ran(t) && !ran(row->per_run[k])))
                row->per_run[k] = t;
        }
    if (r->nrows > 1)
        qsort(r->rows, (size_t)r->nrows, sizeof *r->rows, cmp_row);
    for (int i = 0; i < r->nrows; i++) {
        rp_row *row = &r->rows[i];
        row->kernel = strstr(row->file, "kernels/") != NULL;
        for (int k = 0; k < nruns; k++) {
            const hr_test *t = row->per_run[k];
            if (!t)
                continue;
            for (int m = 0; m < t->nverd; m++) {
                int before = row->nmodels;
                add_model(row->models, &row->nmodels, t->vmodel[m]);
                if (row->nmodels > before)
                    row->verdicts[before] = t->verdict[m];
                add_model(r->models, &r->nmodels, t->vmodel[m]);
            }
            for (int e = 0; e < t->nextra; e++)
                row->kernel = row->kernel || strcmp(t->extra[e].key, "bug") == 0;
            if (!ran(t))
                continue;
            row->ran++;
            add_outcomes(row, t);
            row->forbidden_seen = row->forbidden_seen || t->forbidden_seen;
            for (int o = 0; o < t->nouts; o++)
                for (int m = 0; m < row->nmodels; m++)
                    if (rp_class_model(t, &t->outs[o], row->models[m]) == CL_FORBIDDEN_SEEN)
                        row->contradicts[m] = true;
        }
        brief_labels(row);
    }
}

void rp_free(rp_report *r)
{
    for (int i = 0; i < r->nrows; i++) {
        free(r->rows[i].per_run);
        for (int k = 0; k < r->rows[i].nouts; k++)
            free(r->rows[i].outs[k].brief);
        free(r->rows[i].outs);
    }
    free(r->rows);
    memset(r, 0, sizeof *r);
}

void rp_devices(const hr_run *run, char *buf, int size)
{
    int len = 0;
    buf[0] = 0;
    for (int d = 0; d < run->ndev && len < size; d++) {
        const char *name = run->dev[d].name ? run->dev[d].name : "?";
        bool before = false;
        for (int e = 0; e < d && !before; e++)
            before = run->dev[e].name && strcmp(run->dev[e].name, name) == 0;
        if (before)
            continue;
        int n = 0;
        for (int e = d; e < run->ndev; e++)
            n += run->dev[e].name && strcmp(run->dev[e].name, name) == 0;
        len += snprintf(buf + len, (size_t)(size - len), "%s%dx %s", len ? ", " : "", n ? n : 1, name);
    }
    if (!run->ndev)
        snprintf(buf, (size_t)size, "(no devices recorded)");
}

void rp_run_title(const hr_run *run, char *buf, int size)
{
    char devs[256];
    rp_devices(run, devs, sizeof devs);
    snprintf(buf, (size_t)size, "%s - %s", devs, run->label);
}

/* hwrun options that take a value, and the ones a rerun of one test drops. */
static const char *const with_value[] = {"--backend", "--model", "-m", "--judge", "--instances", "--seconds",
                                         "--iterations", "--budget", "--seed", "--env", "--env-file",
                                         "--tune-rounds", "--tune-seconds", "--tune-out", "--tune-controls",
                                         "--skew", "--control", "--control-seconds", "--devices", "--select",
                                         "--json", "--jsonl", "--text", "--arch", NULL};
static const char *const dropped[] = {"--budget", "--env", "--env-file", "--seed", "--select", "--json",
                                      "--jsonl", "--text", "--tune-out", "-q", "--quiet", NULL};

static bool in(const char *s, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

void rp_repro(const hr_run *run, const hr_test *t, char *buf, int size)
{
    int len = snprintf(buf, (size_t)size, "memsim hwrun");
    bool have_devices = false;
    /* The run's own options, without its outputs, budget and list of tests. */
    char *cmd = strdup(run->command ? run->command : "");
    char *save = NULL;
    char *tok = strtok_r(cmd, " ", &save);
    while (tok && strcmp(tok, "hwrun") != 0)
        tok = strtok_r(NULL, " ", &save);
    for (tok = tok ? strtok_r(NULL, " ", &save) : NULL; tok && len < size; tok = strtok_r(NULL, " ", &save)) {
        if (tok[0] != '-')
            continue; /* a test file or directory */
        bool value = in(tok, with_value);
        char *v = value ? strtok_r(NULL, " ", &save) : NULL;
        if (in(tok, dropped))
            continue;
        have_devices = have_devices || strcmp(tok, "--devices") == 0;
        len += snprintf(buf + len, (size_t)(size - len), " %s%s%s", tok, v ? " " : "", v ? v : "");
    }
    free(cmd);
    if (len < size && t->env)
        len += snprintf(buf + len, (size_t)(size - len), " --env '%s'", t->env);
    if (len < size)
        len += snprintf(buf + len, (size_t)(size - len), " --seed %llu",
                        (unsigned long long)(t->seed ? t->seed : run->seed));
    if (!have_devices && t->ndevmap > 1 && len < size) {
        len += snprintf(buf + len, (size_t)(size - len), " --devices ");
        for (int d = 0; d < t->ndevmap && len < size; d++)
            len += snprintf(buf + len, (size_t)(size - len), "%s%d", d ? "," : "", t->devmap[d]);
    }
    if (len < size)
        snprintf(buf + len, (size_t)(size - len), " %s", t->file);
}

void rp_bug_text(const hr_test *t, char *buf, int size)
{
    buf[0] = 0;
    if (!t || !t->has_bug)
        return;
    if (t->bug_count) {
        int n = snprintf(buf, (size_t)size, "bug seen %llu of %llu", (unsigned long long)t->bug_count,
                         (unsigned long long)t->bug_n);
        if (t->bug_first_s >= 0 && n < size)
            snprintf(buf + n, (size_t)(size - n), ", first after %.3g s (%llu launches)", t->bug_first_s,
                     (unsigned long long)t->bug_first_iter);
    } else {
        int n = snprintf(buf, (size_t)size, "bug not seen in %llu", (unsigned long long)t->bug_n);
        if (t->bug_upper95 >= 0 && n < size)
            snprintf(buf + n, (size_t)(size - n), " (rate below %.2g, 95%%)", t->bug_upper95);
    }
}
