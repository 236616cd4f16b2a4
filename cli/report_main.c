/* memsim report RUN.json|DIR ... -o OUTDIR [--format html,md]: hwrun's runs,
 * any devices, side by side in one HTML page and a Markdown summary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "numarg.h"
#include "dirlist.h"
#include "report_out.h"

int memsim_report_main(int argc, char **argv);

static void usage(FILE *f)
{
    fprintf(f, "usage: memsim report RUN.json|DIR ... [-o OUTDIR] [options]\n"
               "\n"
               "Puts hwrun's JSON runs (any devices) side by side: OUTDIR/report.html, one self-contained page\n"
               "(a sortable, filterable table of every test with each model's verdict and each run's counts,\n"
               "histograms, execution graphs, environment and the command that reruns each test), and\n"
               "OUTDIR/SUMMARY.md for a pull request. A directory stands for its *.json runs, recursively.\n"
               "\n"
               "options:\n"
               "  -o OUTDIR          where to write (default report/); with one format, - writes to stdout\n"
               "  --format F[,F]     html, md, or both (default html,md)\n"
               "  --root DIR         where the runs' test files (litmus/...) are, for the graphs (default .)\n"
               "  --no-graphs        no execution graphs (no Graphviz needed)\n"
               "  --graph-seconds S  skip graphs of tests whose exploration took over S s in the run (default 30)\n"
               "  -j N               explore threads for the graphs (default 1)\n"
               "\n"
               "exit status: 0, 1 when Graphviz failed on a graph, 2 on bad input (the file and field named)\n");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct {
    char **v;
    int n;
    bool *from_dir;
} paths;

static void add(paths *p, const char *s, bool from_dir)
{
    p->v = realloc(p->v, (size_t)(p->n + 1) * sizeof *p->v);
    p->from_dir = realloc(p->from_dir, (size_t)(p->n + 1) * sizeof *p->from_dir);
    p->v[p->n] = strdup(s);
    p->from_dir[p->n++] = from_dir;
}


static int add_dir(paths *p, const char *dir)
{
    char **names;
    int n = dir_entries(dir, &names);
    if (n < 0)
        return -1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        size_t len = strlen(names[i]);
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (add_dir(p, names[i]) != 0)
                rc = -1;
        } else if (len > 5 && strcmp(names[i] + len - 5, ".json") == 0) {
            add(p, names[i], true);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Within a directory, JSON that says it comes from another tool is not a run. */
static bool other_tool(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char head[512];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    char *tool = strstr(head, "\"tool\"");
    return tool && !strstr(tool, "memsim hwrun");
}

static int tests_ran(const hr_run *r)
{
    int n = 0;
    for (int i = 0; i < r->ntests; i++)
        n += r->tests[i].nouts > 0 && r->tests[i].status && strcmp(r->tests[i].status, "skipped") != 0;
    return n;
}

static int cmp_runs(const void *a, const void *b)
{
    const hr_run *x = a, *y = b;
    int d = tests_ran(y) - tests_ran(x);
    if (d)
        return d;
    d = strcmp(x->date ? x->date : "", y->date ? y->date : "");
    return d ? d : strcmp(x->path, y->path);
}

static FILE *open_out(const char *dir, const char *name, bool to_stdout, char *path, size_t n)
{
    if (to_stdout)
        return stdout;
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "memsim report: error: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static int mkdirs(const char *dir)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(buf, 0777);
            *p = '/';
        }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "memsim report: error: cannot make %s: %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}

int memsim_report_main(int argc, char **argv)
{
    const char *outdir = "report";
    bool html = true, md = true;
    rp_graph_opts go = {.root = ".", .graphs = true, .jobs = 1, .max_explore_s = 30};
    paths in = {0};
    char command[4096];
    int clen = snprintf(command, sizeof command, "memsim report");
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (clen < (int)sizeof command)
            clen += snprintf(command + clen, sizeof command - (size_t)clen, " %s", a);
        bool has_value = strcmp(a, "-o") == 0 || strcmp(a, "--format") == 0 || strcmp(a, "--root") == 0 ||
                         strcmp(a, "--graph-seconds") == 0 || strcmp(a, "-j") == 0;
        const char *v = NULL;
        if (has_value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "memsim report: error: %s needs a value\n", a);
                rc = 2;
                goto out;
            }
            v = argv[++i];
            if (clen < (int)sizeof command)
                clen += snprintf(command + clen, sizeof command - (size_t)clen, " %s", v);
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            goto out;
        } else if (strcmp(a, "-o") == 0) {
            outdir = v;
        } else if (strcmp(a, "--format") == 0) {
            html = strstr(v, "html") != NULL;
            md = strstr(v, "md") != NULL;
            if (!html && !md) {
                fprintf(stderr, "memsim report: error: --format is html, md or html,md\n");
                rc = 2;
                goto out;
            }
        } else if (strcmp(a, "--root") == 0) {
            go.root = v;
        } else if (strcmp(a, "--graph-seconds") == 0) {
            char *end;
            go.max_explore_s = strtod(v, &end);
            if (end == v || *end || !(go.max_explore_s > 0 && go.max_explore_s <= 86400)) {
                fprintf(stderr, "memsim report: error: --graph-seconds needs a number of seconds from 0 to 86400, not '%s'\n", v);
                rc = 2;
                goto out;
            }
        } else if (strcmp(a, "-j") == 0) {
            long j;
            if (!whole_arg(v, 1, 256, &j)) {
                fprintf(stderr, "memsim report: error: -j needs a number of workers from 1 to 256, not '%s'\n", v);
                rc = 2;
                goto out;
            }
            go.jobs = (int)j;
        } else if (strcmp(a, "--no-graphs") == 0) {
            go.graphs = false;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "memsim report: error: unknown option '%s'\n", a);
            usage(stderr);
            rc = 2;
            goto out;
        } else {
            struct stat st;
            if (stat(a, &st) != 0) {
                fprintf(stderr, "%s: error: %s\n", a, strerror(errno));
                rc = 2;
                goto out;
            }
            if (S_ISDIR(st.st_mode) ? add_dir(&in, a) != 0 : (add(&in, a, false), 0)) {
                rc = 2;
                goto out;
            }
        }
    }
    if (!in.n) {
        fprintf(stderr, "memsim report: error: no runs given (hwrun's --json files, or directories of them)\n");
        usage(stderr);
        rc = 2;
        goto out;
    }
    bool to_stdout = strcmp(outdir, "-") == 0;
    if (to_stdout && html && md) {
        fprintf(stderr, "memsim report: error: -o - writes one format: add --format html or --format md\n");
        rc = 2;
        goto out;
    }
    double t0 = now();
    hr_run *runs = calloc((size_t)in.n, sizeof *runs);
    int nruns = 0;
    for (int i = 0; i < in.n; i++) {
        if (in.from_dir[i] && other_tool(in.v[i])) {
            fprintf(stderr, "memsim report: note: %s is not an hwrun run (its \"tool\" says otherwise): left out\n",
                    in.v[i]);
            continue;
        }
        char err[1024];
        if (hr_load(in.v[i], &runs[nruns], err, sizeof err) != 0) {
            fputs(err, stderr);
            rc = 2;
            continue;
        }
        nruns++;
    }
    if (rc) {
        for (int i = 0; i < nruns; i++)
            hr_free(&runs[i]);
        free(runs);
        goto out;
    }
    /* The big campaigns first: a control or a bench of two tests is a column at the right. */
    if (nruns > 1)
        qsort(runs, (size_t)nruns, sizeof *runs, cmp_runs);
    rp_report rep;
    rp_build(&rep, runs, nruns);
    double t1 = now();
    rp_graphs *graphs = calloc((size_t)rep.nrows + 1, sizeof *graphs);
    int gerr = html ? rp_draw_graphs(&rep, &go, graphs) : 0;
    double t2 = now();
    if (!to_stdout && mkdirs(outdir) != 0)
        rc = 2;
    char path[4096];
    if (!rc && html) {
        FILE *f = open_out(outdir, "report.html", to_stdout, path, sizeof path);
        if (f) {
            rp_write_html(f, &rep, graphs, command);
            if (f != stdout && fclose(f) != 0)
                rc = 2;
        } else {
            rc = 2;
        }
    }
    if (!rc && md) {
        FILE *f = open_out(outdir, "SUMMARY.md", to_stdout, path, sizeof path);
        if (f) {
            rp_write_md(f, &rep, command);
            if (f != stdout && fclose(f) != 0)
                rc = 2;
        } else {
            rc = 2;
        }
    }
    double t3 = now();
    fprintf(stderr, "memsim report: %d run%s, %d test%s: read %.3f s, graphs %.3f s, written %.3f s%s%s\n", nruns,
            nruns == 1 ? "" : "s", rep.nrows, rep.nrows == 1 ? "" : "s", t1 - t0, t2 - t1, t3 - t2,
            to_stdout ? "" : " -> ", to_stdout ? "" : outdir);
    if (!rc && gerr)
        rc = 1;
    rp_graphs_free(graphs, rep.nrows);
    free(graphs);
    rp_free(&rep);
    for (int i = 0; i < nruns; i++)
        hr_free(&runs[i]);
    free(runs);
out:
    for (int i = 0; i < in.n; i++)
        free(in.v[i]);
    free(in.v);
    free(in.from_dir);
    return rc;
}
