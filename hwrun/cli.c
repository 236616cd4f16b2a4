/* Command line of memsim hwrun. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hwrun.h"
#include "report.h"
#include "tune.h"
#include "util.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: memsim hwrun [options] FILE.lit|DIR ...\n"
            "\n"
            "Generates each test's kernels from memsim's IR, compiles them at run time (NVRTC or hiprtc),\n"
            "runs many instances on the GPU(s), counts the outcomes on the device and prints each\n"
            "outcome's count next to the models' verdicts: allowed and seen, allowed and not seen,\n"
            "forbidden and seen (a bug in the model, the compiler or the hardware: exit status 1).\n"
            "\n"
            "options:\n"
            "  --backend cuda|hip|sim  runtime (default: CUDA if a CUDA GPU is there, else HIP);\n"
            "                     sim runs the kernels as host threads, to test hwrun itself (no GPU)\n"
            "  --model M[,M...]   models to compare with (default ptx,src11,sc)\n"
            "  --judge M          model whose \"forbidden\" counts (default ptx for CUDA, src11 for HIP)\n"
            "  --instances N      instances per test (default 1e7; 3e7 bounds a forbidden outcome below 1e-7)\n"
            "  --seconds S        at most S seconds per test (default 10)\n"
            "  --iterations N     launches per environment instead of --instances\n"
            "  --budget S         at most S seconds for all tests together (shared out per test)\n"
            "  --seed N           random seed (default 1)\n"
            "  --env \"k=v ...\"    testing environment: block m stress_blocks stress_iters stress_pattern\n"
            "                     stress_targets line_words pre_iters barrier spacing timeout bar_budget\n"
            "  --env-file FILE    read the environment (as --tune-out writes it)\n"
            "  --tune             search environments on relaxed controls first and use the best\n"
            "  --tune-controls F,...  the controls (default: MP, SB, LB relaxed of the library)\n"
            "  --tune-rounds N    environments to try (default 12)   --tune-seconds S  each (default 0.3)\n"
            "  --tune-out FILE    write the best environment there\n"
            "  --skew LIST        start-skew sweep in cycles for tests across GPUs (default 0,100,200,400,800,1600)\n"
            "  --control auto|none|FILE  relaxed control run in the same environment (default auto:\n"
            "                     the library's <shape>_relaxed test); an allowed outcome is called \"not seen\"\n"
            "                     with the control's result beside it\n"
            "  --control-seconds S  time for each control (default 1)\n"
            "  --devices LIST     physical devices that play test GPUs 0,1,... (default 0,1,...)\n"
            "  --fold-gpus        run all test GPUs (ranks) of a test on one device (the first of --devices):\n"
            "                     each rank's kernels and heap become kernels and memory of that device\n"
            "  --select all|single|multi  run all tests, or those on one GPU, or those across GPUs\n"
            "  --json FILE        everything to reproduce and report: devices, driver, source, parameters,\n"
            "                     seeds, counts, rates, intervals     --no-source  leave the source out\n"
            "  --jsonl FILE       append one JSON line per test as it finishes\n"
            "  --emit-source      print the generated kernels (CUDA, or HIP with --backend hip); run nothing\n"
            "  --emit-ptx         compile with NVRTC and print the PTX (no GPU needed)   --arch sm_90\n"
            "  -D NAME=VALUE      override a `const` of the test\n"
            "  -q, --quiet        one line per test      -v, --verbose\n"
            "  --text FILE        append the full text reports there (with -q, say)\n"
            "\n"
            "exit status: 0 no forbidden outcome seen, 1 one was, 2 bad input, 3 no GPU found,\n"
            "4 no test could run here, 5 a compile or runtime failure, 6 a kernel faulted and the GPU\n"
            "context is lost (the tests after it were not run)\n");
}

typedef struct {
    char **v;
    int n, cap;
} strlist;

static void push(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = strdup(s);
}

static void free_list(strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int add_path(strlist *l, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        push(l, path);
        return 0;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
        return -1;
    }
    strlist names = {0};
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char full[4096];
        snprintf(full, sizeof full, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
        struct stat s2, ls;
        size_t nl = strlen(de->d_name);
        /* A link to a directory is not followed: a link to a parent would never end. */
        bool dir_link = lstat(full, &ls) == 0 && S_ISLNK(ls.st_mode);
        if (stat(full, &s2) == 0 && (S_ISDIR(s2.st_mode) ? !dir_link : nl > 4 && strcmp(de->d_name + nl - 4, ".lit") == 0))
            push(&names, full);
    }
    closedir(d);
    if (names.n > 1)
        qsort(names.v, (size_t)names.n, sizeof *names.v, cmp_str);
    int rc = 0;
    for (int i = 0; i < names.n; i++) {
        if (add_path(l, names.v[i]) != 0)
            rc = -1;
        free(names.v[i]);
    }
    free(names.v);
    return rc;
}

static int parse_models(hw_opts *o, const char *spec)
{
    o->nmodels = 0;
    char *copy = strdup(spec), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0) {
            for (int i = 0; all_models[i] && o->nmodels < MAX_MODELS; i++)
                o->models[o->nmodels++] = all_models[i];
            continue;
        }
        const model *m = model_find(tok);
        if (!m) {
            fprintf(stderr, "memsim hwrun: error: unknown model '%s'\n", tok);
            free(copy);
            return -1;
        }
        if (o->nmodels < MAX_MODELS)
            o->models[o->nmodels++] = m;
    }
    free(copy);
    return o->nmodels ? 0 : -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    sbuf b = {0};
    char line[1024];
    while (fgets(line, sizeof line, f))
        if (line[0] != '#')
            sb_puts(&b, line);
    fclose(f);
    return sb_take(&b);
}

/* Output of one test as JSON (to memory, then to the files). */
static char *test_json(const hw_testresult *r, const hw_gpu *g, const hw_opts *o, bool source, bool pretty)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    jw w;
    jw_init(&w, m, pretty);
    hwreport_json(&w, r, g, o, source);
    fclose(m);
    return buf;
}

static void one_line(FILE *f, const hw_testresult *r)
{
    const char *name = r->t ? r->t->name : r->file;
    switch (r->status) {
    case TR_BAD_INPUT: fprintf(f, "%-56s bad input: %s\n", name, r->why); return;
    case TR_SKIPPED: fprintf(f, "%-56s not run: %s\n", name, r->why); return;
    case TR_ERROR: fprintf(f, "%-56s ERROR: %s\n", name, r->why); return;
    default: break;
    }
    uint64_t k = r->t->cond ? weak_count(r, &r->total) : 0;
    char bug[160] = "";
    uint64_t bk, bl;
    double bs;
    /* Kernels (a heap): how often the bug the models look for showed, and when first. */
    if (r->t->heap.present && hw_bug_stats(r, &r->total, &bk, &bs, &bl)) {
        if (bk)
            snprintf(bug, sizeof bug, "; bug states %llu, first after %.3g s (%llu launches)", (unsigned long long)bk,
                     bs, (unsigned long long)bl);
        else
            snprintf(bug, sizeof bug, "; no bug state");
    }
    if (r->t->heap.present && r->total.hist && r->total.hist[ot_bucket_ooh(&r->o)])
        snprintf(bug + strlen(bug), sizeof bug - strlen(bug), "; out of heap %llu",
                 (unsigned long long)r->total.hist[ot_bucket_ooh(&r->o)]);
    fprintf(f, "%-56s %s: %s; condition %llu of %llu (%.2g/s)%s; %.3g instances/s%s\n", name,
            r->o.models[r->judge]->name, verdict_name(r->o.verdict[r->judge]), (unsigned long long)k,
            (unsigned long long)r->total.instances, r->total.seconds > 0 ? (double)k / r->total.seconds : 0, bug,
            r->total.seconds > 0 ? (double)r->total.instances / r->total.seconds : 0,
            r->forbidden_seen ? (r->anomaly ? "  FORBIDDEN OUTCOME SEEN, HARNESS ANOMALY SUSPECTED" : "  FORBIDDEN OUTCOME SEEN")
            : r->platform_caveat ? "  PLATFORM CAVEAT (host atomics not native: not judged)"
                                 : "");
}

typedef struct {
    char *file;
    hw_env env;
    uint64_t k, n;
    bool ran;
} control_cache;

static void run_control(hw_testresult *r, hw_gpu *g, const hw_opts *o, double secs, uint64_t inst,
                        control_cache **cache, int *ncache)
{
    for (int i = 0; i < *ncache; i++) {
        control_cache *c = &(*cache)[i];
        if (strcmp(c->file, r->control_file) == 0 && memcmp(&c->env, &o->env, sizeof c->env) == 0) {
            r->control_ran = c->ran;
            r->control_k = c->k;
            r->control_n = c->n;
            return;
        }
    }
    hw_testresult cr;
    hw_opts co = *o;
    co.nskews = 0;
    bool ran = false;
    if (hwtest_prepare(&cr, r->control_file, g->kind, &co) == 0 && hwtest_run(&cr, g, &co, secs, inst) == 0) {
        r->control_k = weak_count(&cr, &cr.total);
        r->control_n = cr.total.instances;
        ran = true;
    }
    r->control_ran = ran;
    hwtest_free(&cr);
    *cache = realloc(*cache, (size_t)(*ncache + 1) * sizeof **cache);
    (*cache)[(*ncache)++] = (control_cache){strdup(r->control_file), o->env, r->control_k, r->control_n, ran};
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static double parse_num(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    return end == s || *end ? -1 : v;
}

/* A number option in [lo, hi] (whole when `whole`), or an error naming it: never a cast of 1e30. */
static bool num_opt(const char *opt, const char *s, double lo, double hi, bool whole, double *out)
{
    double v = parse_num(s);
    if (!(v >= lo && v <= hi) || (whole && v != (double)(long long)v)) {
        fprintf(stderr, "memsim hwrun: error: %s needs a %snumber from %g to %g, not '%s'\n", opt,
                whole ? "whole " : "", lo, hi, s);
        return false;
    }
    *out = v;
    return true;
}

int hwrun_main(int argc, char **argv)
{
    hw_opts o;
    hw_opts_default(&o);
    o.seed = 1;
    o.instances = 10000000;
    o.seconds = 10;
    long long default_skews[] = {0, 100, 200, 400, 800, 1600};
    o.nskews = 6;
    memcpy(o.skews, default_skews, sizeof default_skews);
    o.control = "auto";
    const char *backend = NULL, *json = NULL, *jsonl = NULL, *textfile = NULL, *arch = "sm_90", *select = "all";
    const char *tune_out = NULL, *tune_controls = NULL;
    bool emit_source = false, emit_ptx = false, quiet = false, source = true, tune = false;
    double budget = 0, control_seconds = 1, tune_seconds = 0.3;
    long long iterations = 0;
    int tune_rounds = 12;
    int devmap[PLAN_MAX_GPUS];
    bool have_devmap = false;
    for (int d = 0; d < PLAN_MAX_GPUS; d++)
        devmap[d] = d;
    strlist files = {0};
    const char *dnames[64];
    int64_t dvals[64];
    int ndef = 0;
#define BAIL(code)                                                                                                     \
    do {                                                                                                               \
        free_list(&files);                                                                                             \
        for (int k_ = 0; k_ < ndef; k_++)                                                                              \
            free((char *)dnames[k_]);                                                                                  \
        return (code);                                                                                                 \
    } while (0)
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV()                                                                                                        \
    do {                                                                                                               \
        if (!v) {                                                                                                      \
            fprintf(stderr, "memsim hwrun: error: %s needs an argument\n", a);                                         \
            BAIL(HW_EXIT_BAD_INPUT);                                                                                  \
        }                                                                                                              \
        i++;                                                                                                           \
    } while (0)
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            BAIL(0);
        } else if (strcmp(a, "--backend") == 0) {
            NEEDV();
            backend = v;
            if (strcmp(v, "cuda") && strcmp(v, "hip") && strcmp(v, "sim")) {
                fprintf(stderr, "memsim hwrun: error: --backend is cuda, hip or sim\n");
                BAIL(HW_EXIT_BAD_INPUT);
            }
        } else if (strcmp(a, "--model") == 0 || strcmp(a, "-m") == 0) {
            NEEDV();
            if (parse_models(&o, v) != 0)
                BAIL(HW_EXIT_BAD_INPUT);
        } else if (strcmp(a, "--judge") == 0) {
            NEEDV();
            o.judge = v;
        } else if (strcmp(a, "--instances") == 0) {
            NEEDV();
            double x;
            if (!num_opt(a, v, 1, 1e15, false, &x))
                BAIL(HW_EXIT_BAD_INPUT);
            o.instances = (uint64_t)x;
        } else if (strcmp(a, "--seconds") == 0) {
            NEEDV();
            if (!num_opt(a, v, 1e-6, 1e6, false, &o.seconds))
                BAIL(HW_EXIT_BAD_INPUT);
        } else if (strcmp(a, "--iterations") == 0) {
            NEEDV();
            double x;
            if (!num_opt(a, v, 1, 1e15, false, &x))
                BAIL(HW_EXIT_BAD_INPUT);
            iterations = (long long)x;
        } else if (strcmp(a, "--budget") == 0) {
            NEEDV();
            if (!num_opt(a, v, 1e-3, 1e7, false, &budget))
                BAIL(HW_EXIT_BAD_INPUT);
        } else if (strcmp(a, "--seed") == 0) {
            NEEDV();
            double x;
            if (!num_opt(a, v, 0, 9e15, true, &x))
                BAIL(HW_EXIT_BAD_INPUT);
            o.seed = (uint64_t)x;
        } else if (strcmp(a, "--env") == 0 || strcmp(a, "--env-file") == 0) {
            NEEDV();
            char *text = strcmp(a, "--env") == 0 ? strdup(v) : read_file(v);
            char err[256];
            if (!text || env_parse(&o.env, text, err, sizeof err) != 0) {
                fprintf(stderr, "memsim hwrun: error: %s\n", text ? err : "cannot read the environment file");
                free(text);
                BAIL(HW_EXIT_BAD_INPUT);
            }
            free(text);
        } else if (strcmp(a, "--tune") == 0) {
            tune = true;
        } else if (strcmp(a, "--tune-rounds") == 0) {
            NEEDV();
            double x;
            if (!num_opt(a, v, 1, 100000, true, &x))
                BAIL(HW_EXIT_BAD_INPUT);
            tune_rounds = (int)x;
        } else if (strcmp(a, "--tune-seconds") == 0) {
            NEEDV();
            if (!num_opt(a, v, 1e-4, 1e5, false, &tune_seconds))
                BAIL(HW_EXIT_BAD_INPUT);
        } else if (strcmp(a, "--tune-out") == 0) {
            NEEDV();
            tune_out = v;
        } else if (strcmp(a, "--tune-controls") == 0) {
            NEEDV();
            tune_controls = v;
        } else if (strcmp(a, "--skew") == 0) {
            NEEDV();
            o.nskews = 0;
            char *copy = strdup(v), *save = NULL;
            bool ok = true;
            for (char *tok = strtok_r(copy, ",", &save); tok && o.nskews < 32 && ok; tok = strtok_r(NULL, ",", &save)) {
                double x;
                ok = num_opt(a, tok, 0, 1e9, true, &x);
                if (ok)
                    o.skews[o.nskews++] = (long long)x;
            }
            free(copy);
            if (!ok || !o.nskews) {
                if (ok)
                    fprintf(stderr, "memsim hwrun: error: --skew needs cycles, as in --skew 0,200,800\n");
                BAIL(HW_EXIT_BAD_INPUT);
            }
        } else if (strcmp(a, "--control") == 0) {
            NEEDV();
            o.control = strcmp(v, "none") == 0 ? NULL : v;
        } else if (strcmp(a, "--control-seconds") == 0) {
            NEEDV();
            if (!num_opt(a, v, 1e-4, 1e5, false, &control_seconds))
                BAIL(HW_EXIT_BAD_INPUT);
        } else if (strcmp(a, "--fold-gpus") == 0) {
            o.fold_gpus = true;
        } else if (strcmp(a, "--devices") == 0) {
            NEEDV();
            int n = 0;
            char *copy = strdup(v), *save = NULL;
            bool ok = true;
            for (char *tok = strtok_r(copy, ",", &save); tok && n < PLAN_MAX_GPUS && ok; tok = strtok_r(NULL, ",", &save)) {
                double x;
                ok = num_opt(a, tok, 0, 63, true, &x);
                if (ok)
                    devmap[n++] = (int)x;
            }
            free(copy);
            if (!ok)
                BAIL(HW_EXIT_BAD_INPUT);
            have_devmap = true;
        } else if (strcmp(a, "--select") == 0) {
            NEEDV();
            select = v;
            if (strcmp(v, "all") && strcmp(v, "single") && strcmp(v, "multi")) {
                fprintf(stderr, "memsim hwrun: error: --select is all, single or multi\n");
                BAIL(HW_EXIT_BAD_INPUT);
            }
        } else if (strcmp(a, "--json") == 0) {
            NEEDV();
            json = v;
        } else if (strcmp(a, "--jsonl") == 0) {
            NEEDV();
            jsonl = v;
        } else if (strcmp(a, "--text") == 0) {
            NEEDV();
            textfile = v;
        } else if (strcmp(a, "--no-source") == 0) {
            source = false;
        } else if (strcmp(a, "--emit-source") == 0) {
            emit_source = true;
        } else if (strcmp(a, "--emit-ptx") == 0) {
            emit_ptx = true;
        } else if (strcmp(a, "--arch") == 0) {
            NEEDV();
            arch = v;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o.verbose = 1;
        } else if (strncmp(a, "-D", 2) == 0) {
            const char *d = a[2] ? a + 2 : v;
            if (!a[2])
                NEEDV();
            const char *eq = d ? strchr(d, '=') : NULL;
            if (!eq || ndef == 64) {
                fprintf(stderr, "memsim hwrun: error: -D needs NAME=VALUE\n");
                BAIL(HW_EXIT_BAD_INPUT);
            }
            dnames[ndef] = strndup(d, (size_t)(eq - d));
            dvals[ndef++] = strtoll(eq + 1, NULL, 0);
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "memsim hwrun: error: unknown option '%s'\n", a);
            usage(stderr);
            BAIL(HW_EXIT_BAD_INPUT);
        } else if (add_path(&files, a) != 0) {
            BAIL(HW_EXIT_BAD_INPUT);
        }
    }
    o.defines_names = dnames;
    o.defines_values = dvals;
    o.ndefines = ndef;
    if (files.n == 0 && !tune) {
        usage(stderr);
        BAIL(HW_EXIT_BAD_INPUT);
    }
    /* Code generation only: no GPU needed. */
    if (emit_source || emit_ptx) {
        backend_t bk = backend && strcmp(backend, "cuda") ? BK_HIP : BK_CUDA;
        hw_gpu cc;
        char why[1024];
        if (emit_ptx && cuda_open_compiler(&cc, why, sizeof why) != 0) {
            fprintf(stderr, "memsim hwrun: %s\n", why);
            free_list(&files);
            return HW_EXIT_FAILED;
        }
        int status = 0;
        for (int i = 0; i < files.n; i++) {
            hw_testresult r;
            if (hwtest_prepare(&r, files.v[i], emit_ptx ? BK_CUDA : bk, &o) != 0) {
                fprintf(stderr, "%s: %s\n", files.v[i], r.why);
                status = r.status == TR_BAD_INPUT ? HW_EXIT_BAD_INPUT : HW_EXIT_NOT_RUN;
                hwtest_free(&r);
                continue;
            }
            if (emit_source) {
                fputs(r.c.src, stdout);
            } else {
                void *img;
                size_t sz;
                char *ptx = NULL, *log = NULL;
                if (cc.compile(&cc, arch, r.c.src, "memsim_test.cu", &img, &sz, &ptx, &log) != 0) {
                    fprintf(stderr, "%s: %s\n", files.v[i], cc.err);
                    status = HW_EXIT_FAILED;
                } else {
                    fputs(ptx, stdout);
                    for (int k = 0; k < r.c.nexpect; k++)
                        if (!strstr(ptx, r.c.expect[k])) {
                            fprintf(stderr, "%s: the PTX lacks %s\n", files.v[i], r.c.expect[k]);
                            status = HW_EXIT_FAILED;
                        }
                    free(img);
                }
                free(ptx);
                free(log);
            }
            hwtest_free(&r);
        }
        if (emit_ptx)
            cc.shutdown(&cc);
        free_list(&files);
        for (int i = 0; i < ndef; i++)
            free((char *)dnames[i]);
        return status;
    }
    /* A GPU. */
    hw_gpu g;
    char why_cuda[1024] = "not tried", why_hip[1024] = "not tried", why_sim[512] = "";
    bool ok = false;
    if (backend && strcmp(backend, "sim") == 0) {
        const char *n = getenv("MEMSIM_SIM_GPUS");
        ok = sim_open(&g, n ? atoi(n) : 2, why_sim, sizeof why_sim) == 0;
        if (!ok) {
            fprintf(stderr, "memsim hwrun: %s\n", why_sim);
            return HW_EXIT_FAILED;
        }
    } else {
        if (!backend || strcmp(backend, "cuda") == 0)
            ok = cuda_open(&g, why_cuda, sizeof why_cuda) == 0;
        if (!ok && (!backend || strcmp(backend, "hip") == 0))
            ok = hip_open(&g, why_hip, sizeof why_hip) == 0;
    }
    if (!ok) {
        printf("memsim hwrun: no CUDA or HIP GPU found (CUDA: %s; HIP: %s): nothing run\n", why_cuda, why_hip);
        fflush(stdout);
        free_list(&files);
        for (int i = 0; i < ndef; i++)
            free((char *)dnames[i]);
        return HW_EXIT_NO_GPU;
    }
    if (have_devmap)
        for (int d = 0; d < PLAN_MAX_GPUS; d++)
            if (devmap[d] >= g.ndev)
                devmap[d] = d < g.ndev ? d : g.ndev - 1;
    FILE *log = quiet ? stderr : stdout;
    if (!quiet) {
        fprintf(log, "memsim hwrun: %s, %s, %d device%s:", g.driver, g.compiler, g.ndev, g.ndev == 1 ? "" : "s");
        for (int d = 0; d < g.ndev; d++)
            fprintf(log, "%s %d = %s (%s, %d SMs)", d ? "," : "", d, g.dev[d].name, g.dev[d].arch, g.dev[d].sms);
        fprintf(log, "\n\n");
        fflush(log);
    }
    if (tune) {
        strlist ctl = {0};
        if (tune_controls) {
            char *copy = strdup(tune_controls), *save = NULL;
            for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
                push(&ctl, tok);
            free(copy);
        } else {
            const char *dflt[] = {"litmus/mp_relaxed_agent_diff_wg.lit", "litmus/sb_relaxed_diff_wg.lit",
                                  "litmus/lb_relaxed_diff_wg.lit"};
            for (int i = 0; i < 3; i++)
                if (access(dflt[i], R_OK) == 0)
                    push(&ctl, dflt[i]);
        }
        hw_env best;
        char err[512];
        if (tune_run(&g, &o, ctl.v, ctl.n, tune_rounds, tune_seconds, &best, log, err, sizeof err) != 0) {
            fprintf(stderr, "memsim hwrun: %s\n", err);
        } else {
            o.env = best;
            char text[512];
            env_format(&best, text, sizeof text);
            fprintf(log, "memsim hwrun: tuned environment: %s\n\n", text);
            if (tune_out) {
                FILE *f = fopen(tune_out, "w");
                if (f) {
                    fprintf(f, "# memsim hwrun --tune on %s (%s)\n%s\n", g.dev[0].name, g.compiler, text);
                    fclose(f);
                }
            }
        }
        free_list(&ctl);
        if (files.n == 0) {
            g.shutdown(&g);
            free_list(&files);
            return 0;
        }
    }
    FILE *jf = json ? fopen(json, "w") : NULL;
    FILE *jl = jsonl ? fopen(jsonl, "a") : NULL;
    FILE *tf = textfile ? fopen(textfile, "a") : NULL;
    if ((json && !jf) || (jsonl && !jl) || (textfile && !tf)) {
        fprintf(stderr, "memsim hwrun: error: cannot write %s\n", json && !jf ? json : jsonl && !jl ? jsonl : textfile);
        g.shutdown(&g);
        free_list(&files);
        return HW_EXIT_BAD_INPUT;
    }
    jw w;
    if (jf) {
        jw_init(&w, jf, true);
        jw_obj(&w, NULL);
        jw_str(&w, "tool", "memsim hwrun");
        time_t now = time(NULL);
        char date[64], host[256] = "";
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        gethostname(host, sizeof host - 1);
        jw_str(&w, "date", date);
        jw_str(&w, "host", host);
        sbuf cmd = {0};
        for (int i = 0; i < argc; i++)
            sb_printf(&cmd, "%s%s", i ? " " : "memsim ", argv[i]);
        jw_str(&w, "command", cmd.s);
        sb_free(&cmd);
        hwreport_json_devices(&w, &g);
        jw_u64(&w, "seed", o.seed);
        jw_u64(&w, "instances_per_test", o.instances);
        jw_bool(&w, "fold_gpus", o.fold_gpus);
        jw_num(&w, "seconds_per_test", o.seconds);
        char text[512];
        env_format(&o.env, text, sizeof text);
        jw_str(&w, "environment", text);
        jw_arr(&w, "skews");
        for (int i = 0; i < o.nskews; i++)
            jw_int(&w, NULL, o.skews[i]);
        jw_end_arr(&w);
        jw_arr(&w, "tests");
    }
    int nran = 0, nskip = 0, nerr = 0, nbad = 0, nforb = 0;
    bool broken = false;
    double t0 = hw_now();
    control_cache *cache = NULL;
    int ncache = 0;
    for (int i = 0; i < files.n; i++) {
        hw_testresult r;
        if (hwtest_prepare(&r, files.v[i], g.kind, &o) == 0) {
            memcpy(r.devmap, devmap, sizeof r.devmap);
            bool multi = r.p.ngpus > 1;
            if ((strcmp(select, "single") == 0 && multi) || (strcmp(select, "multi") == 0 && !multi)) {
                r.status = TR_SKIPPED;
                snprintf(r.why, sizeof r.why, "uses %d GPU%s (--select %s)", r.p.ngpus, multi ? "s" : "", select);
            } else {
                double secs = o.seconds;
                if (budget > 0) {
                    double left = budget - (hw_now() - t0);
                    double share = left / (double)(files.n - i);
                    if (share < secs)
                        secs = share > 0.05 ? share : 0.05;
                }
                uint64_t inst = o.instances;
                if (iterations > 0)
                    inst = (uint64_t)iterations * 1; /* scaled below */
                bool self_control = false;
                if (o.control && r.t->cond) {
                    r.control_file = strcmp(o.control, "auto") == 0 ? control_for(files.v[i], r.t) : strdup(o.control);
                    self_control = r.control_file && same_file(r.control_file, files.v[i]);
                    if (r.control_file && !self_control)
                        run_control(&r, &g, &o, control_seconds < secs ? control_seconds : secs, o.instances, &cache,
                                    &ncache);
                }
                if (iterations > 0) {
                    /* Launches, not instances: ask the harness how many one launch runs. */
                    hw_session *s = NULL;
                    char e2[256];
                    if (session_open(&s, &g, &r.p, &r.o, &r.c, r.devmap, NULL, NULL, e2, sizeof e2) == 0) {
                        inst = (uint64_t)iterations * session_per_launch(s, &o.env);
                        session_close(s);
                    }
                    secs = 1e9;
                }
                hwtest_run(&r, &g, &o, secs, inst);
                if (self_control && r.status == TR_RAN) {
                    /* The test is its own relaxed control. */
                    r.control_ran = true;
                    r.control_k = weak_count(&r, &r.total);
                    r.control_n = r.total.instances;
                }
            }
        }
        switch (r.status) {
        case TR_RAN: nran++; break;
        case TR_SKIPPED: nskip++; break;
        case TR_ERROR: nerr++; break;
        default: nbad++; break;
        }
        if (r.forbidden_seen)
            nforb++;
        if (quiet)
            one_line(stdout, &r);
        else
            hwreport_text(stdout, &r, &g, &o);
        fflush(stdout);
        if (tf) {
            hwreport_text(tf, &r, &g, &o);
            fflush(tf);
        }
        if (jf) {
            char *js = test_json(&r, &g, &o, source, true);
            jw_raw(&w, NULL, js);
            free(js);
            fflush(jf);
        }
        if (jl) {
            char *js = test_json(&r, &g, &o, source, false);
            fprintf(jl, "%s\n", js);
            free(js);
            fflush(jl);
        }
        hwtest_free(&r);
        if (g.broken) {
            fprintf(stderr,
                    "memsim hwrun: the GPU context is lost after %s (%s); the %d test%s after it were not run: run "
                    "them in a new process\n",
                    files.v[i], g.err, files.n - i - 1, files.n - i - 1 == 1 ? "" : "s");
            broken = true;
            break;
        }
    }
    double total = hw_now() - t0;
    printf("Summary: %d test%s ran, %d not run, %d failed, %d bad input, forbidden outcome seen in %d; %.1f s\n", nran,
           nran == 1 ? "" : "s", nskip, nerr, nbad, nforb, total);
    if (jf) {
        jw_end_arr(&w);
        jw_obj(&w, "summary");
        jw_int(&w, "ran", nran);
        jw_int(&w, "not_run", nskip);
        jw_int(&w, "failed", nerr);
        jw_int(&w, "bad_input", nbad);
        jw_int(&w, "forbidden_seen", nforb);
        jw_num(&w, "seconds", total);
        jw_end_obj(&w);
        jw_end_obj(&w);
        fputc('\n', jf);
        fclose(jf);
    }
    if (jl)
        fclose(jl);
    if (tf)
        fclose(tf);
    for (int i = 0; i < ncache; i++)
        free(cache[i].file);
    free(cache);
    free_list(&files);
    for (int i = 0; i < ndef; i++)
        free((char *)dnames[i]);
    if (broken)
        return HW_EXIT_BROKEN; /* no shutdown: the driver state is gone anyway */
    g.shutdown(&g);
    if (nforb)
        return HW_EXIT_FORBIDDEN;
    if (nbad)
        return HW_EXIT_BAD_INPUT;
    if (nerr)
        return HW_EXIT_FAILED;
    if (nran == 0)
        return HW_EXIT_NOT_RUN;
    return HW_EXIT_OK;
}
