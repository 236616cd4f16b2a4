#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void tune_candidate(hw_env *e, const hw_env *base, int round, uint64_t seed, int min_block)
{
    *e = *base;
    if (round == 0)
        return;
    hw_rng r = {seed * 0x9E3779B97F4A7C15ull + (uint64_t)round};
    static const int blocks[] = {64, 128, 256, 512, 1024};
    do
        e->block = blocks[rng_below(&r, 5)];
    while (e->block < min_block);
    static const int stress[] = {0, 0, 16, 64, 132, 264};
    e->stress_blocks = stress[rng_below(&r, 6)];
    static const int iters[] = {16, 64, 256, 1024};
    e->stress_iters = iters[rng_below(&r, 4)];
    e->stress_pattern = (int)rng_below(&r, 4);
    e->stress_targets = 1 + (int)rng_below(&r, 16);
    static const int lw[] = {8, 16, 32, 64};
    e->line_words = lw[rng_below(&r, 4)];
    static const int pre[] = {0, 0, 16, 64};
    e->pre_iters = pre[rng_below(&r, 4)];
    e->barrier = rng_below(&r, 4) != 0;
    static const int sp[] = {8, 16, 32, 64, 128, 256};
    e->spacing = sp[rng_below(&r, 6)];
    /* Testing blocks per work-group: as many as stay resident (0), or fewer (harnesses report
     * higher rates when only part of the running blocks test). */
    static const int ms[] = {0, 0, 16, 64, 256};
    e->m = ms[rng_below(&r, 5)];
}

int tune_run(hw_gpu *g, const hw_opts *o, char **files, int nfiles, int rounds, double seconds_each, hw_env *best,
             FILE *log, char *err, int errsz)
{
    hw_testresult *tr = calloc((size_t)nfiles, sizeof *tr);
    hw_session **ss = calloc((size_t)nfiles, sizeof *ss);
    int min_block = 32, n = 0, rc = 0;
    for (int i = 0; i < nfiles; i++) {
        if (hwtest_prepare(&tr[n], files[i], g->kind, o) != 0 || tr[n].p.ngpus > g->ndev) {
            fprintf(log, "memsim hwrun: tune: %s left out: %s\n", files[i],
                    tr[n].why[0] ? tr[n].why : "needs more GPUs than present");
            hwtest_free(&tr[n]);
            continue;
        }
        char e2[2048];
        if (session_open(&ss[n], g, &tr[n].p, &tr[n].o, &tr[n].c, tr[n].devmap, NULL, NULL, e2, sizeof e2) != 0) {
            fprintf(log, "memsim hwrun: tune: %s left out: %s\n", files[i], e2);
            hwtest_free(&tr[n]);
            continue;
        }
        if (32 * tr[n].p.vmax > min_block)
            min_block = 32 * tr[n].p.vmax;
        n++;
    }
    if (n == 0) {
        snprintf(err, (size_t)errsz, "tune: no control test could run");
        rc = -1;
        goto out;
    }
    double best_score = -1;
    for (int round = 0; round < rounds; round++) {
        hw_env env;
        tune_candidate(&env, &o->env, round, o->seed, min_block);
        double score = 0;
        char text[512];
        env_format(&env, text, sizeof text);
        fprintf(log, "tune %2d: %s\n", round, text);
        for (int i = 0; i < n; i++) {
            hw_result res;
            char e2[2048];
            if (session_run(ss[i], &env, o->seed + (uint64_t)round, ~0ull, seconds_each, &res, e2, sizeof e2) != 0) {
                fprintf(log, "         %-40s failed: %s\n", tr[i].t->name, e2);
                result_free(&res);
                score = -1;
                break;
            }
            uint64_t k = weak_count(&tr[i], &res);
            double rate = res.seconds > 0 ? (double)k / res.seconds : 0;
            fprintf(log, "         %-40s weak %10llu of %12llu  %.3g/s  (%.3g instances/s)\n", tr[i].t->name,
                    (unsigned long long)k, (unsigned long long)res.instances, rate,
                    res.seconds > 0 ? (double)res.instances / res.seconds : 0);
            score += log1p(rate);
            result_free(&res);
        }
        fprintf(log, "         score %.3f%s\n", score, score > best_score ? "  (best so far)" : "");
        fflush(log);
        if (score > best_score) {
            best_score = score;
            *best = env;
        }
    }
out:
    for (int i = 0; i < n; i++) {
        session_close(ss[i]);
        hwtest_free(&tr[i]);
    }
    free(ss);
    free(tr);
    return rc;
}
