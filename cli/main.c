/* memsim: exhaustive checking of GPU litmus tests under scoped memory models. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "numarg.h"
#include "../hwrun/hwrun.h"
#include "../import/import.h"
#include "../lit/parse.h"
#include "dirlist.h"
#include "report.h"

int memsim_report_main(int argc, char **argv); /* cli/report_main.c */

#define MEMSIM_VERSION "0.1.0"

int memsim_kernel_main(int argc, char **argv);

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD_INPUT = 2 };

typedef struct {
    explore_opts ex;
    bool json, quiet, herd_log;
    int first;              /* 1 --first, 0 --all, -1 the default */
    const char *dot, *svg, *png;
    char **files;
    int nfiles, capfiles;
    const char *define_names[64];
    char define_storage[64][64]; /* the names themselves: options live as long as the run */
    int64_t define_values[64];
    int loop_bound;          /* --loop-bound N: 0 unless given */
    lit_options lit;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: memsim [options] FILE.lit|FILE.litmus|FILE.test|DIR ...\n"
            "       memsim convert IN -o OUT.lit|OUT.litmus\n"
            "       memsim check-corpus DIR [--expected FILE.csv] [--model M]\n"
            "       memsim kernel LAUNCH.lit [--emit-lit] [options]   (check HIP, CUDA and Triton kernels; --help)\n"
            "       memsim hwrun [options] FILE.lit|DIR ...   (run the tests on a GPU; memsim hwrun --help)\n"
            "       memsim report RUN.json|DIR ... -o OUTDIR  (hwrun's runs side by side; memsim report --help)\n"
            "\n"
            "Enumerates every execution of each litmus test under a scoped GPU memory model,\n"
            "lists the final states, says whether the condition can happen, reports races and\n"
            "hangs, and checks the test's `expect` lines.\n"
            "\n"
            "options:\n"
            "  --model M[,M...]  models to check under: src11 (default), ptx, sc, vulkan, or all\n"
            "                    (vulkan-dat3m, ptx75: Dat3M's vulkan.cat and ptx-v7.5.cat with proxies; not in all)\n"
            "  --json            print JSON instead of text\n"
            "  --herd-log        print herd7's log format (for mcompare7; one model per log)\n"
            "  --dot FILE        write a witness execution (first model) as Graphviz dot\n"
            "  --svg FILE        ... rendered to SVG (needs Graphviz's dot)\n"
            "  --png FILE        ... rendered to PNG (needs Graphviz's dot)\n"
            "  -q, --quiet       print only the summary line per test\n"
            "  -D NAME=VALUE     override `const NAME` (ranks, blocks, threads, tiles...)\n"
            "  --loop-bound N    unroll `while` loops without their own `bound` N times (default %d); an\n"
            "                    execution whose loop would go on is reported as cut\n"
            "  -j N              worker threads (default: every core)\n"
            "  --first           stop at the first counterexample per model (a race, a hang, an error,\n"
            "                    or an execution that shows the condition) and print it with its\n"
            "                    execution; the states listed are those found until then.  With -q,\n"
            "                    the default where every model's `expect` is a race\n"
            "  --all             every execution, always (full outcome tables)\n"
            "  --no-reduce       explore every order of commuting read-modify-writes (by default src11\n"
            "                    explores one and counts the others: docs/kernels.md section 6)\n"
            "  --max-executions N  stop (no verdict) after N candidate executions\n"
            "  --max-memory SIZE   stop (no verdict) above SIZE of memory: 512M, 4G (default: 3/4 of RAM)\n"
            "  --list-models     describe the models\n"
            "  --version, -h, --help\n"
            "\n"
            "exit status: 0 every expectation holds, 1 one does not, 2 bad input\n",
            LOOP_BOUND_DEFAULT);
}

static void add_file(options *o, const char *path)
{
    if (o->nfiles == o->capfiles) {
        o->capfiles = o->capfiles ? o->capfiles * 2 : 16;
        o->files = realloc(o->files, (size_t)o->capfiles * sizeof *o->files);
    }
    o->files[o->nfiles++] = strdup(path);
}


/* A directory stands for every .lit file under it, in name order. */
static int add_path(options *o, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        add_file(o, path);
        return 0;
    }
    char **all;
    int nall = dir_entries(path, &all);
    if (nall < 0)
        return -1;
    /* subdirectories and the files memsim reads; anything else in the folder is not a test */
    char **names = all;
    int n = 0;
    for (int i = 0; i < nall; i++) {
        struct stat s2;
        if (stat(all[i], &s2) == 0 && (S_ISDIR(s2.st_mode) || has_suffix(all[i], ".lit") ||
                                       has_suffix(all[i], ".litmus") || has_suffix(all[i], ".test")))
            names[n++] = all[i];
        else
            free(all[i]);
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (add_path(o, names[i]) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Whether the user named the models: if not, a test with PTX proxies runs under ptx75
 * (the one model that reads them) rather than the default src11. */
static bool models_named;

static int parse_models(options *o, const char *spec)
{
    models_named = true;
    o->ex.nmodels = 0;
    if (strcmp(spec, "all") == 0) {
        for (int i = 0; all_models[i] && i < MAX_MODELS; i++)
            o->ex.models[o->ex.nmodels++] = all_models[i];
        return 0;
    }
    char *copy = strdup(spec), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const model *m = model_find(tok);
        if (!m) {
            fprintf(stderr, "memsim: error: unknown model '%s' (models: src11 ptx sc vulkan, or all; variants: vulkan-dat3m ptx75)\n", tok);
            free(copy);
            return -1;
        }
        if (o->ex.nmodels < MAX_MODELS)
            o->ex.models[o->ex.nmodels++] = m;
    }
    free(copy);
    if (!o->ex.nmodels) {
        fprintf(stderr, "memsim: error: --model '%s' names no model (models: src11 ptx sc vulkan, or all)\n", spec);
        return -1;
    }
    return 0;
}

/* "512M", "4G", "100000K", or megabytes without a suffix. */
static long parse_megabytes(const char *s)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (!*s || end == s || v <= 0)
        return -1;
    double mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1.0 / 1024, end++;
    else if (*end == 'M' || *end == 'm')
        end++;
    else if (*end == 'G' || *end == 'g')
        mult = 1024, end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        return -1;
    long mb = (long)(v * mult);
    return mb > 0 ? mb : 1;
}

/* --first's default: under -q (verdicts only; with --json too), where every model asked
 * expects a race and races are undefined behaviour under it, the first race
 * decides the verdict. */
static first_mode first_for(const options *o, const test *t)
{
    if (o->first == 1)
        return FIRST_ALWAYS;
    if (o->first == 0 || !o->quiet || o->herd_log || o->dot || o->svg || o->png)
        return FIRST_NEVER;
    for (int m = 0; m < o->ex.nmodels; m++) {
        const expectation *ex = expectation_for(t, o->ex.models[m]->name);
        if (!ex || ex->verdict != V_RACE || !o->ex.models[m]->races_are_ub)
            return FIRST_NEVER;
    }
    return FIRST_IF_RACE;
}

static int render(const char *dotfile_tmp, const char *out, const char *fmt)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "dot -T%s -o '%s' '%s' 2>&1", fmt, out, dotfile_tmp);
    if (system("command -v dot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "memsim: error: Graphviz's 'dot' is not installed (apt-get install graphviz), so --%s cannot "
                        "be drawn; --dot FILE writes the Graphviz source\n", fmt);
        return -1;
    }
    int rc = system(cmd);
    if (rc != 0) {
        fprintf(stderr, "memsim: error: dot failed to render %s\n", out);
        return -1;
    }
    return 0;
}

static int write_pictures(const options *o, const test *t, const explore_result *r)
{
    int rc = 0;
    if (o->dot) {
        FILE *f = fopen(o->dot, "w");
        if (!f) {
            fprintf(stderr, "memsim: error: cannot write %s: %s\n", o->dot, strerror(errno));
            return -1;
        }
        report_dot(f, t, r, 0);
        fclose(f);
    }
    const char *fmts[2] = {"svg", "png"};
    const char *outs[2] = {o->svg, o->png};
    for (int i = 0; i < 2; i++) {
        if (!outs[i])
            continue;
        char tmp[] = "/tmp/memsim-dot-XXXXXX";
        int fd = mkstemp(tmp);
        if (fd < 0)
            return -1;
        FILE *f = fdopen(fd, "w");
        report_dot(f, t, r, 0);
        fclose(f);
        if (render(tmp, outs[i], fmts[i]) != 0)
            rc = -1;
        unlink(tmp);
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "hwrun") == 0)
        return hwrun_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "convert") == 0)
        return memsim_convert_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "check-corpus") == 0)
        return memsim_check_corpus_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "report") == 0)
        return memsim_report_main(argc - 1, argv + 1);
#ifdef MEMSIM_HAVE_INSTRUMENT
    if (argc > 1 && strcmp(argv[1], "kernel") == 0)
        return memsim_kernel_main(argc - 1, argv + 1);
#else
    if (argc > 1 && strcmp(argv[1], "kernel") == 0) {
        fprintf(stderr, "memsim: error: this memsim was built without LLVM 22 (apt-get install llvm-22-dev clang-22, "
                        "then rebuild), so memsim kernel is not available\n");
        return EXIT_BAD_INPUT;
    }
#endif
    options o = {0};
    o.ex.models[0] = &model_src11;
    o.ex.nmodels = 1;
    o.ex.progress = isatty(2);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.ex.jobs = cores > 0 ? (int)(cores < 256 ? cores : 256) : 1;
    o.first = -1;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        o.ex.max_memory_mb = (long)((double)pages * (double)page * 0.75 / (1024.0 * 1024.0));
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("memsim %s\n", MEMSIM_VERSION);
            return 0;
        } else if (strcmp(a, "--list-models") == 0) {
            for (int m = 0; all_models[m]; m++)
                printf("%-6s %s\n", all_models[m]->name, all_models[m]->title);
            return 0;
        } else if (strcmp(a, "--herd-log") == 0) {
            o.herd_log = true;
        } else if (strcmp(a, "--json") == 0) {
            o.json = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o.quiet = true;
        } else if (strcmp(a, "--progress") == 0) {
            o.ex.progress = true;
        } else if (strcmp(a, "--first") == 0) {
            o.first = 1;
        } else if (strcmp(a, "--all") == 0) {
            o.first = 0;
        } else if (strcmp(a, "--no-reduce") == 0) {
            o.ex.no_reduce = true;
        } else if (strcmp(a, "--max-executions") == 0 || strcmp(a, "--max-memory") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (a[6] == 'e') {
                char *end = NULL;
                long n = strtol(v, &end, 10);
                if (!*v || *end || n < 1) {
                    fprintf(stderr, "memsim: error: --max-executions needs a positive number of executions\n");
                    return EXIT_BAD_INPUT;
                }
                o.ex.max_executions = n;
            } else {
                long mb = parse_megabytes(v);
                if (mb < 0) {
                    fprintf(stderr, "memsim: error: --max-memory needs a size such as 512M or 4G\n");
                    return EXIT_BAD_INPUT;
                }
                o.ex.max_memory_mb = mb;
            }
        } else if ((strcmp(a, "--model") == 0 || strcmp(a, "-m") == 0 || strcmp(a, "--dot") == 0 ||
                    strcmp(a, "--svg") == 0 || strcmp(a, "--png") == 0)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "memsim: error: %s needs an argument\n", a);
                return EXIT_BAD_INPUT;
            }
            const char *v = argv[++i];
            if (a[2] == 'm' || a[1] == 'm') {
                if (parse_models(&o, v) != 0)
                    return EXIT_BAD_INPUT;
            } else if (strcmp(a, "--dot") == 0) {
                o.dot = v;
            } else if (strcmp(a, "--svg") == 0) {
                o.svg = v;
            } else {
                o.png = v;
            }
        } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 || (strncmp(a, "-j", 2) == 0 && a[2])) {
            const char *v = a[2] && a[1] == 'j' ? a + 2 : (i + 1 < argc ? argv[++i] : "");
            long n;
            if (!whole_arg(v, 1, 256, &n)) {
                fprintf(stderr, "memsim: error: -j needs a number of workers from 1 to 256\n");
                return EXIT_BAD_INPUT;
            }
            o.ex.jobs = (int)n;
        } else if (strncmp(a, "-D", 2) == 0) {
            const char *def = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
            const char *eq = strchr(def, '=');
            char *end = NULL;
            long long v = eq ? strtoll(eq + 1, &end, 0) : 0;
            if (!eq || eq == def || eq - def >= 64 || !end || *end || o.lit.ndefines == 64) {
                fprintf(stderr, "memsim: error: -D needs NAME=INTEGER, as in -D RANKS=4\n");
                return EXIT_BAD_INPUT;
            }
            char *name = o.define_storage[o.lit.ndefines];
            memcpy(name, def, (size_t)(eq - def));
            name[eq - def] = 0;
            o.define_names[o.lit.ndefines] = name;
            o.define_values[o.lit.ndefines++] = v;
        } else if (strcmp(a, "--loop-bound") == 0 || strncmp(a, "--loop-bound=", 13) == 0) {
            const char *v = a[12] == '=' ? a + 13 : (i + 1 < argc ? argv[++i] : "");
            char *end = NULL;
            long n = strtol(v, &end, 10);
            if (!*v || *end || n < 1 || n > LOOP_BOUND_MAX) {
                fprintf(stderr, "memsim: error: --loop-bound needs a number of iterations from 1 to %d\n", LOOP_BOUND_MAX);
                return EXIT_BAD_INPUT;
            }
            o.loop_bound = (int)n;
        } else if (strncmp(a, "--model=", 8) == 0) {
            if (parse_models(&o, a + 8) != 0)
                return EXIT_BAD_INPUT;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "memsim: error: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_BAD_INPUT;
        } else if (add_path(&o, a) != 0) {
            return EXIT_BAD_INPUT;
        }
    }
    if (o.nfiles == 0) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if ((o.dot || o.svg || o.png) && o.nfiles != 1) {
        fprintf(stderr, "memsim: error: --dot, --svg and --png draw one test: give exactly one file\n");
        return EXIT_BAD_INPUT;
    }
    int status = EXIT_OK;
    int ntests = 0, nbad = 0, nexp = 0, nmet = 0;
    double total = 0;
    cJSON *all = o.json ? cJSON_CreateArray() : NULL;
    for (int f = 0; f < o.nfiles; f++) {
        diag d = {0};
        o.lit.define_names = o.define_names;
        o.lit.define_values = o.define_values;
        test *t = load_test_file(o.files[f], &d, &o.lit);
        if (!t) {
            fputs(d.msg ? d.msg : "memsim: error: cannot parse\n", stderr);
            diag_free(&d);
            nbad++;
            status = EXIT_BAD_INPUT;
            continue;
        }
        if (o.loop_bound)
            t->loop_bound = o.loop_bound;
        explore_result r;
        o.ex.first = first_for(&o, t);
        explore_opts ex = o.ex;
        if (t->uses_proxies && !models_named) {
            ex.models[0] = &model_ptx75;
            ex.nmodels = 1;
        }
        if (explore(t, &ex, &r) != 0) {
            fprintf(stderr, "%s\n", r.err);
            explore_result_free(&r);
            test_free(t);
            nbad++;
            status = EXIT_BAD_INPUT;
            continue;
        }
        ntests++;
        total += r.seconds;
        bool all_met = true;
        for (int m = 0; m < r.nmodels; m++) {
            const expectation *ex = expectation_for(t, r.mr[m].m->name);
            /* A run-time error fails the run unless the test expects it; an
             * error (a bad pointer, a vacuous test) belongs to the program, so
             * `expect error` for one model covers the models it names none for. */
            if (!ex) {
                bool expects_error = false;
                for (int k = 0; k < t->nexpects; k++)
                    expects_error = expects_error || t->expects[k].verdict == V_ERROR;
                if ((r.mr[m].errors || r.mr[m].consistent == 0) && !expects_error)
                    all_met = false;
                continue;
            }
            nexp++;
            if (expectation_met(t, &r.mr[m], ex->verdict))
                nmet++;
            else
                all_met = false;
        }
        if (!all_met && status == EXIT_OK)
            status = EXIT_MISMATCH;
        if (o.herd_log) {
            for (int m = 0; m < r.nmodels; m++)
                herd_log(stdout, t, &r, m);
        } else if (o.json) {
            cJSON_AddItemToArray(all, report_json(t, &r));
        } else if (o.quiet) {
            printf("%-50s", t->name);
            for (int m = 0; m < r.nmodels; m++) {
                const expectation *ex = expectation_for(t, r.mr[m].m->name);
                verdict_t v = result_verdict(t, &r.mr[m]);
                printf("  %s: %s%s", r.mr[m].m->name, verdict_name(v), ex ? (v == ex->verdict ? "" : " (MISMATCH)") : "");
                if (r.mr[m].cuts)
                    printf(" (%s cut at a loop bound)", count_str(r.mr[m].exact.cuts, (char[COUNT_DIGITS]){0}));
            }
            if (r.stopped_first)
                printf("  (first counterexample, %ld executions)", r.candidates);
            printf("\n");
        } else {
            report_text(stdout, t, &r);
        }
        if (write_pictures(&o, t, &r) != 0 && status == EXIT_OK)
            status = EXIT_BAD_INPUT;
        explore_result_free(&r);
        test_free(t);
    }
    if (o.json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddItemToObject(root, "tests", all);
        cJSON *sum = cJSON_AddObjectToObject(root, "summary");
        cJSON_AddNumberToObject(sum, "tests", ntests);
        cJSON_AddNumberToObject(sum, "bad_input", nbad);
        cJSON_AddNumberToObject(sum, "expectations", nexp);
        cJSON_AddNumberToObject(sum, "met", nmet);
        cJSON_AddNumberToObject(sum, "seconds", total);
        char *s = cJSON_Print(root);
        puts(s);
        free(s);
        cJSON_Delete(root);
    } else if (o.nfiles > 1 && !o.herd_log) {
        printf("Summary: %d test%s, %d of %d expectations met, %d mismatched, %d bad input, %.3f s\n", ntests,
               ntests == 1 ? "" : "s", nmet, nexp, nexp - nmet, nbad, total);
    }
    for (int i = 0; i < o.nfiles; i++)
        free(o.files[i]);
    free(o.files);
    return status;
}
