/* Subcommands:
 *   memsim convert IN -o OUT        .litmus/.test/.lit to .lit or to a PTX .litmus
 *   memsim check-corpus DIR [...]   run a corpus, compare with its expected results */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "import.h"

enum { RC_OK = 0, RC_MISMATCH = 1, RC_BAD = 2 };

/* ---- convert ---------------------------------------------------------------------------------- */

int memsim_convert_main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: memsim convert IN -o OUT\n\n"
                   "IN is a .lit test, a Dat3M/herd GPU .litmus test (PTX or VULKAN) or a Vulkan Alloy .test;\n"
                   "OUT ending in .lit gets memsim's language, OUT ending in .litmus a PTX litmus test.\n"
                   "-o - writes .lit to standard output.\n");
            return RC_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "memsim convert: error: unknown option '%s'\n", argv[i]);
            return RC_BAD;
        } else if (!in) {
            in = argv[i];
        } else {
            fprintf(stderr, "memsim convert: error: one input file\n");
            return RC_BAD;
        }
    }
    if (!in || !out) {
        fprintf(stderr, "usage: memsim convert IN -o OUT.lit|OUT.litmus\n");
        return RC_BAD;
    }
    bool to_litmus = has_suffix(out, ".litmus");
    if (!to_litmus && !has_suffix(out, ".lit") && strcmp(out, "-") != 0) {
        fprintf(stderr, "memsim convert: error: the output must end in .lit or .litmus\n");
        return RC_BAD;
    }
    diag d = {0};
    test *t = load_test_file(in, &d, NULL);
    if (!t) {
        fputs(d.msg ? d.msg : "memsim: error: cannot parse\n", stderr);
        diag_free(&d);
        return RC_BAD;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    char err[1024] = "";
    int rc = to_litmus ? write_ptx_litmus(mem, t, err, sizeof err) : write_lit(mem, t, err, sizeof err);
    fclose(mem);
    if (rc != 0) {
        fprintf(stderr, "%s: error: cannot convert: %s\n", in, err);
        free(buf);
        test_free(t);
        return RC_BAD;
    }
    FILE *f = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
    if (!f) {
        fprintf(stderr, "memsim convert: error: cannot write %s: %s\n", out, strerror(errno));
        free(buf);
        test_free(t);
        return RC_BAD;
    }
    fwrite(buf, 1, len, f);
    if (f != stdout)
        fclose(f);
    free(buf);
    test_free(t);
    return RC_OK;
}

/* ---- check-corpus -------------------------------------------------------------------------------- */

typedef struct {
    char **v;
    int n, cap;
} strs;

static void strs_add(strs *s, char *x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
    }
    s->v[s->n++] = x;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void collect(const char *path, strs *files)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        if (has_suffix(path, ".litmus") || has_suffix(path, ".test"))
            strs_add(files, strdup(path));
        return;
    }
    DIR *d = opendir(path);
    if (!d)
        return;
    strs names = {0};
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        size_t len = strlen(path) + strlen(de->d_name) + 2;
        char *full = malloc(len);
        snprintf(full, len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
        strs_add(&names, full);
    }
    closedir(d);
    if (names.n)
        qsort(names.v, (size_t)names.n, sizeof *names.v, cmp_str);
    for (int i = 0; i < names.n; i++) {
        /* A link to a directory is not followed: a link to a parent would never end. */
        struct stat ls, ds;
        if (!(lstat(names.v[i], &ls) == 0 && S_ISLNK(ls.st_mode) && stat(names.v[i], &ds) == 0 && S_ISDIR(ds.st_mode)))
            collect(names.v[i], files);
        free(names.v[i]);
    }
    free(names.v);
}

typedef struct {
    char *path; /* real path */
    int value;
} csv_row;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void first_line(const char *msg, char *buf, size_t n)
{
    size_t k = strcspn(msg, "\n");
    if (k >= n)
        k = n - 1;
    memcpy(buf, msg, k);
    buf[k] = 0;
}

int memsim_check_corpus_main(int argc, char **argv)
{
    const char *dir = NULL, *csv = NULL, *model_name = NULL, *allow = NULL;
    bool verbose = false, races = false, liveness = false;
    int loop_bound = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--expected") == 0 && i + 1 < argc) {
            csv = argv[++i];
        } else if ((strcmp(a, "--model") == 0 || strcmp(a, "-m") == 0) && i + 1 < argc) {
            model_name = argv[++i];
        } else if (strcmp(a, "--allow-unsupported") == 0 && i + 1 < argc) {
            allow = argv[++i];
        } else if (strcmp(a, "--loop-bound") == 0 && i + 1 < argc) {
            char *end = NULL;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > LOOP_BOUND_MAX) {
                fprintf(stderr, "memsim check-corpus: error: --loop-bound needs 1 to %d\n", LOOP_BOUND_MAX);
                return RC_BAD;
            }
            loop_bound = (int)n;
        } else if (strcmp(a, "--races") == 0) {
            races = true;
        } else if (strcmp(a, "--liveness") == 0) {
            liveness = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            verbose = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf("usage: memsim check-corpus DIR [--expected FILE.csv] [--model M] [--allow-unsupported WORD]\n"
                   "                          [--loop-bound N] [--races | --liveness] [-v]\n\n"
                   "Runs every .litmus and .test file under DIR and compares memsim's verdict with the expected one:\n"
                   "  .litmus  FILE.csv has one line 'path,1|0' per test (the path relative to the csv's directory):\n"
                   "           1 where the condition holds as written (exists: some execution satisfies it; ~exists:\n"
                   "           none does; forall: every one does), over executions that terminate;\n"
                   "  .test    each SATISFIABLE/NOSOLUTION line of a Vulkan Alloy test is one expectation.\n"
                   "The model defaults to the test's architecture (PTX: ptx, VULKAN and .test: vulkan).\n"
                   "--races: the csv says whether the test is race-free instead (Dat3M's *-DR-expected.csv,\n"
                   "           property CAT_SPEC: 1 when no consistent execution that passes the filter races).\n"
                   "--liveness: the csv says whether every execution terminates (Dat3M's *-Liveness-*.csv):\n"
                   "           1 when memsim finds no hang (an await, a barrier, or a loop iteration that writes\n"
                   "           nothing and reads final values).\n"
                   "Loops that are not spin-waits are unrolled --loop-bound times (default %d); executions cut\n"
                   "at the bound are counted (cut) and left out, as Dat3M's unrolling leaves them out.\n"
                   "Unsupported constructs are counted apart; --allow-unsupported WORD tolerates those whose\n"
                   "message contains WORD (e.g. proxies).  Exit status: 0 everything agrees, 1 otherwise.\n",
                   LOOP_BOUND_DEFAULT);
            return RC_OK;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "memsim check-corpus: error: unknown option '%s'\n", a);
            return RC_BAD;
        } else if (!dir) {
            dir = a;
        } else {
            fprintf(stderr, "memsim check-corpus: error: one directory\n");
            return RC_BAD;
        }
    }
    if (!dir) {
        fprintf(stderr, "usage: memsim check-corpus DIR [--expected FILE.csv] [--model M]\n");
        return RC_BAD;
    }
    const model *forced = NULL;
    if (model_name && !(forced = model_find(model_name))) {
        fprintf(stderr, "memsim check-corpus: error: unknown model '%s'\n", model_name);
        return RC_BAD;
    }
    /* Expected results. */
    csv_row *rows = NULL;
    int nrows = 0;
    if (csv) {
        FILE *f = fopen(csv, "r");
        if (!f) {
            fprintf(stderr, "%s: error: %s\n", csv, strerror(errno));
            return RC_BAD;
        }
        char base[PATH_MAX];
        snprintf(base, sizeof base, "%s", csv);
        char *slash = strrchr(base, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(base, sizeof base, ".");
        char line[4096];
        int ln = 0;
        while (fgets(line, sizeof line, f)) {
            ln++;
            line[strcspn(line, "\r\n")] = 0;
            if (!line[0] || line[0] == '#')
                continue;
            char *comma = strrchr(line, ',');
            if (!comma || (strcmp(comma + 1, "0") != 0 && strcmp(comma + 1, "1") != 0)) {
                if (ln == 1)
                    continue; /* a header */
                fprintf(stderr, "%s:%d: error: expected 'path,0' or 'path,1'\n", csv, ln);
                fclose(f);
                return RC_BAD;
            }
            *comma = 0;
            char full[PATH_MAX * 2], real[PATH_MAX];
            snprintf(full, sizeof full, "%s/%s", base, line);
            rows = realloc(rows, (size_t)(nrows + 1) * sizeof *rows);
            rows[nrows].path = strdup(realpath(full, real) ? real : full);
            rows[nrows].value = comma[1] - '0';
            nrows++;
        }
        fclose(f);
    }
    strs files = {0};
    collect(dir, &files);
    if (files.n == 0) {
        fprintf(stderr, "memsim check-corpus: error: no .litmus or .test files under %s\n", dir);
        return RC_BAD;
    }
    /* Warm-up, untimed: the first exploration pays one-time costs (the
     * relation arena, page faults) that belong to no test. */
    {
        diag d = {0};
        char *text = read_text_file(files.v[0], &d);
        alloy_expects ex = {0};
        litmus_arch arch = LITMUS_PTX;
        test *t = !text ? NULL
                  : has_suffix(files.v[0], ".test") ? alloy_parse(files.v[0], text, &d, &ex)
                                                    : litmus_parse(files.v[0], text, &d, &arch);
        if (t) {
            explore_opts o = {.models = {forced ? forced : &model_sc}, .nmodels = 1};
            explore_result r;
            explore(t, &o, &r);
            explore_result_free(&r);
            test_free(t);
        }
        free(text);
        alloy_expects_free(&ex);
        diag_free(&d);
    }
    int agreed = 0, disagreed = 0, unsupported = 0, unsupported_allowed = 0, errors = 0, noexp = 0, ntests = 0;
    int cut_tests = 0;
    strs report = {0};
    double total = 0, slowest = -1;
    char slowest_name[PATH_MAX] = "";
    for (int fi = 0; fi < files.n; fi++) {
        const char *path = files.v[fi];
        char msg[2048];
        double t0 = now();
        diag d = {0};
        char *text = read_text_file(path, &d);
        test *t = NULL;
        bool is_alloy = has_suffix(path, ".test");
        alloy_expects ex = {0};
        litmus_arch arch = LITMUS_PTX;
        if (text) {
            t = is_alloy ? alloy_parse(path, text, &d, &ex) : litmus_parse(path, text, &d, &arch);
            free(text);
        }
        ntests++;
        if (!t) {
            char l[1024];
            first_line(d.msg ? d.msg : "cannot parse", l, sizeof l);
            if (import_unsupported(&d)) {
                bool ok = allow && strstr(l, allow);
                if (ok)
                    unsupported_allowed++;
                else
                    unsupported++;
                snprintf(msg, sizeof msg, "UNSUPPORTED%s %s", ok ? " (allowed)" : "", l);
            } else {
                errors++;
                snprintf(msg, sizeof msg, "ERROR %s", l);
            }
            strs_add(&report, strdup(msg));
            if (verbose)
                printf("%s\n", msg);
            diag_free(&d);
            continue;
        }
        diag_free(&d);
        if (loop_bound)
            t->loop_bound = loop_bound;
        const model *m = forced                                 ? forced
                         : (is_alloy || arch == LITMUS_VULKAN) ? &model_vulkan
                         : t->uses_proxies                     ? &model_ptx75
                                                               : &model_ptx;
        if (is_alloy && m == &model_vulkan) {
            for (int k = 0; k < ex.n; k++) {
                bool sat = false;
                char err[1024];
                if (alloy_check(t, &ex.v[k], 0, &sat, err, sizeof err) != 0) {
                    if (strstr(err, "unsupported:")) {
                        bool ok = allow && strstr(err, allow);
                        if (ok)
                            unsupported_allowed++;
                        else
                            unsupported++;
                        snprintf(msg, sizeof msg, "UNSUPPORTED%s %s", ok ? " (allowed)" : "", err);
                    } else {
                        errors++;
                        snprintf(msg, sizeof msg, "ERROR %s", err);
                    }
                    strs_add(&report, strdup(msg));
                    continue;
                }
                bool agree = sat == ex.v[k].satisfiable;
                snprintf(msg, sizeof msg, "%s %s:%d: %s%s %s: memsim %s", agree ? "agree" : "DISAGREE", path,
                         ex.v[k].line, ex.v[k].satisfiable ? "SATISFIABLE" : "NOSOLUTION",
                         ex.v[k].nochains ? " NOCHAINS" : "", ex.v[k].pred, sat ? "SATISFIABLE" : "NOSOLUTION");
                if (agree)
                    agreed++;
                else
                    disagreed++;
                if (!agree)
                    strs_add(&report, strdup(msg));
                if (verbose)
                    printf("%s\n", msg);
            }
        } else {
            explore_opts o = {.models = {m}, .nmodels = 1};
            explore_result r;
            if (explore(t, &o, &r) != 0) {
                if (strstr(r.err, "unsupported:")) {
                    bool ok = allow && strstr(r.err, allow);
                    if (ok)
                        unsupported_allowed++;
                    else
                        unsupported++;
                    snprintf(msg, sizeof msg, "UNSUPPORTED%s %s", ok ? " (allowed)" : "", r.err);
                } else {
                    errors++;
                    snprintf(msg, sizeof msg, "ERROR %s", r.err);
                }
                strs_add(&report, strdup(msg));
            } else {
                bool holds = races      ? r.mr[0].nraces == 0
                             : liveness ? r.mr[0].hangs == 0
                                        : result_holds_terminating(t, &r.mr[0]);
                if (r.mr[0].cuts) {
                    cut_tests++;
                    if (verbose)
                        printf("cut %s: %s executions at the loop bound\n", path, count_str(r.mr[0].exact.cuts, (char[COUNT_DIGITS]){0}));
                }
                char real[PATH_MAX];
                const char *key = realpath(path, real) ? real : path;
                int expv = -1;
                for (int k = 0; k < nrows; k++)
                    if (strcmp(rows[k].path, key) == 0)
                        expv = rows[k].value;
                if (is_alloy || expv < 0) {
                    noexp++;
                    snprintf(msg, sizeof msg, "no expectation %s: memsim %d (%s)", path, holds, m->name);
                } else {
                    bool agree = (expv == 1) == holds;
                    if (agree)
                        agreed++;
                    else
                        disagreed++;
                    snprintf(msg, sizeof msg, "%s %s: expected %d, memsim %d (model %s)", agree ? "agree" : "DISAGREE",
                             path, expv, holds, m->name);
                    if (!agree)
                        strs_add(&report, strdup(msg));
                }
                if (verbose)
                    printf("%s\n", msg);
            }
            explore_result_free(&r);
        }
        double dt = now() - t0;
        total += dt;
        if (dt > slowest) {
            slowest = dt;
            snprintf(slowest_name, sizeof slowest_name, "%s", path);
        }
        alloy_expects_free(&ex);
        test_free(t);
    }
    for (int i = 0; i < report.n; i++) {
        printf("%s\n", report.v[i]);
        free(report.v[i]);
    }
    free(report.v);
    printf("check-corpus %s (%s): %d files: agreed %d, disagreed %d, unsupported %d%s", dir,
           forced ? forced->name : "model by architecture", ntests, agreed, disagreed, unsupported + unsupported_allowed,
           "");
    if (unsupported_allowed)
        printf(" (%d allowed: %s)", unsupported_allowed, allow);
    if (errors)
        printf(", errors %d", errors);
    if (noexp)
        printf(", no expectation %d", noexp);
    if (cut_tests)
        printf(", %d with executions cut at the loop bound", cut_tests);
    printf("\n");
    printf("time: %.3f s for %d files (%.1f files/s); slowest: %s (%.3f s)\n", total, ntests,
           total > 0 ? ntests / total : 0.0, slowest_name, slowest < 0 ? 0.0 : slowest);
    for (int i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    for (int i = 0; i < nrows; i++)
        free(rows[i].path);
    free(rows);
    return disagreed || errors || unsupported ? RC_MISMATCH : RC_OK;
}
