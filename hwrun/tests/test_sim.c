/* The whole pipeline without a GPU: the host simulator (backend_sim.c) runs
 * the generated HIP kernels as host threads through the real harness.  This
 * checks placement, permutations, resets, the device histogram, timeouts and
 * multi-GPU/multi-kernel launch order; it is no evidence about any GPU.
 * Registered only where a host C++ compiler was found at configure time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hwtest.h"
#include "unit.h"

static int fails;
#define CHECK(c, ...)                                                                                                  \
    do {                                                                                                               \
        if (!(c)) {                                                                                                    \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #c);                                                        \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
            fails++;                                                                                                   \
        }                                                                                                              \
    } while (0)

static uint64_t sum(const hw_result *r)
{
    uint64_t s = 0;
    for (int i = 0; i < r->nbuckets; i++)
        s += r->hist[i];
    return s;
}

static void run(hw_gpu *g, const char *file, void (*check)(const hw_testresult *))
{
    hw_opts o;
    hw_opts_default(&o);
    o.env.block = 64;
    o.env.timeout = 200000000; /* ns in the simulator: host threads start slowly */
    o.env.bar_budget = 100000;
    o.env.stress_blocks = 1;
    o.env.stress_iters = 16;
    o.seed = 7;
    o.nskews = 2;
    o.skews[0] = 0;
    o.skews[1] = 1000;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", LITMUS_DIR, file);
    hw_testresult r;
    if (hwtest_prepare(&r, path, g->kind, &o) != 0) {
        CHECK(0, "%s: %s", file, r.why);
        hwtest_free(&r);
        return;
    }
    /* The instance count ends the run; the time limit is only a backstop
     * (under ASan on a busy 2-core machine a test needed more than 20 s). */
    int rc = hwtest_run(&r, g, &o, 300, 1500);
    CHECK(rc == 0 && r.status == TR_RAN, "%s: %s", file, r.why);
    if (rc == 0) {
        CHECK(r.total.instances >= 1500, "%s: %llu instances", file, (unsigned long long)r.total.instances);
        CHECK(sum(&r.total) == r.total.instances, "%s: histogram sums to %llu of %llu", file,
              (unsigned long long)sum(&r.total), (unsigned long long)r.total.instances);
        check(&r);
    }
    printf("%-45s %llu instances, %d launches; condition %llu\n", file, (unsigned long long)r.total.instances,
           (int)r.total.launches, (unsigned long long)weak_count(&r, &r.total));
    hwtest_free(&r);
}

static void none_forbidden(const hw_testresult *r)
{
    CHECK(!r->forbidden_seen, "%s: forbidden outcome seen in the simulator", r->file);
    CHECK(r->total.hist[ot_bucket_timeout(&r->o)] == 0, "%s: timeouts", r->file);
}

static void all_timeouts(const hw_testresult *r)
{
    CHECK(r->total.hist[ot_bucket_timeout(&r->o)] == r->total.instances, "%s: every instance should time out",
          r->file);
}

static void forall_holds(const hw_testresult *r)
{
    none_forbidden(r);
    CHECK(weak_count(r, &r->total) == r->total.instances, "%s: the forall condition must hold everywhere", r->file);
}

static void two_skews(const hw_testresult *r)
{
    none_forbidden(r);
    CHECK(r->nskew == 2, "%s: the start-skew sweep ran %d environments", r->file, r->nskew);
}

int main(void)
{
    hw_gpu g;
    char why[512];
    if (sim_open(&g, 3, why, sizeof why) != 0) {
        printf("FAIL: %s\n", why);
        return 1;
    }
    run(&g, "mp_rel_acq_agent_diff_wg.lit", none_forbidden);
    run(&g, "barrier_mp_same_wg.lit", none_forbidden);
    run(&g, "atom_cas_mutex_agent_diff_wg.lit", none_forbidden);
    run(&g, "mp_rel_acq_wave_same_wave.lit", none_forbidden);
    run(&g, "array_init_list_index_expr.lit", forall_holds);
    run(&g, "forall_atom_add_agent.lit", forall_holds);
    run(&g, "await_mp_rel_acq_agent_diff_wg.lit", none_forbidden);
    run(&g, "await_hang_never_written.lit", all_timeouts);
    run(&g, "kernel_chain_three.lit", none_forbidden);
    run(&g, "mp_release_acquire.lit", two_skews);
    g.shutdown(&g);
    printf("%s\n", fails ? "simulator end-to-end: FAILED" : "simulator end-to-end: all checks passed");
    return fails ? 1 : 0;
}
