/* memsim_bench: executions explored, consistent executions and time per test
 * and per model over a directory of .lit files, with totals and peak memory.
 * Speed targets live here as printed figures, not as timed tests. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../sim/explore.h"
#include "../lit/parse.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "litmus";
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (reps < 1)
        reps = 1;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "memsim_bench: cannot open %s\n", dir);
        return 2;
    }
    char **files = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l > 4 && strcmp(de->d_name + l - 4, ".lit") == 0) {
            files = realloc(files, (size_t)(n + 1) * sizeof *files);
            size_t len = strlen(dir) + l + 2;
            files[n] = malloc(len);
            snprintf(files[n++], len, "%s/%s", dir, de->d_name);
        }
    }
    closedir(d);
    qsort(files, (size_t)n, sizeof *files, cmp);

    printf("%-44s %-6s %3s %10s %11s %10s\n", "test", "model", "thr", "explored", "consistent", "ms (best)");
    double total[8] = {0}, worst4[8] = {0}, worst6[8] = {0};
    long explored[8] = {0};
    const char *worst4_name[8] = {0}, *worst6_name[8] = {0};
    int bad = 0;
    for (int f = 0; f < n; f++) {
        diag dg = {0};
        test *t = lit_parse_file(files[f], &dg);
        if (!t) {
            fputs(dg.msg, stderr);
            diag_free(&dg);
            bad++;
            continue;
        }
        const char *base = strrchr(files[f], '/') ? strrchr(files[f], '/') + 1 : files[f];
        for (int m = 0; all_models[m]; m++) {
            explore_opts o = {.models = {all_models[m]}, .nmodels = 1};
            double best = 1e9;
            explore_result r = {0};
            for (int k = 0; k < reps; k++) {
                explore_result_free(&r);
                double t0 = now();
                if (explore(t, &o, &r) != 0) {
                    fprintf(stderr, "%s\n", r.err);
                    bad++;
                    break;
                }
                double dt = now() - t0;
                if (dt < best)
                    best = dt;
            }
            printf("%-44.44s %-6s %3d %10ld %11ld %10.3f\n", base, all_models[m]->name, t->nthreads, r.candidates,
                   r.mr[0].consistent, best * 1e3);
            total[m] += best;
            explored[m] += r.candidates;
            if (t->nthreads <= 4 && best > worst4[m]) {
                worst4[m] = best;
                worst4_name[m] = base;
            }
            if (t->nthreads >= 6 && best > worst6[m]) {
                worst6[m] = best;
                worst6_name[m] = base;
            }
            explore_result_free(&r);
        }
        test_free(t);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\n%d tests\n", n - bad);
    for (int m = 0; all_models[m]; m++) {
        printf("model %-6s: whole library %8.1f ms, %ld candidate executions (%.0f/s); slowest <=4-thread test %.3f ms (%s)",
               all_models[m]->name, total[m] * 1e3, explored[m], total[m] > 0 ? (double)explored[m] / total[m] : 0.0,
               worst4[m] * 1e3, worst4_name[m] ? worst4_name[m] : "-");
        if (worst6_name[m])
            printf("; slowest >=6-thread test %.3f ms (%s)", worst6[m] * 1e3, worst6_name[m]);
        printf("\n");
    }
    printf("peak memory (max RSS): %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
    for (int f = 0; f < n; f++)
        free(files[f]);
    free(files);
    return bad ? 1 : 0;
}
