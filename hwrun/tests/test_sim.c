/* The whole pipeline without a GPU: the host simulator (backend_sim.c) runs
 * the generated HIP kernels as host threads through the real harness.  This
 * checks placement, permutations, resets, the device histogram, timeouts and
 * multi-GPU/multi-kernel launch order; it is no evidence about any GPU.
 * Registered only where a host C++ compiler was found at configure time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hwtest.h"
#include "../report.h"
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

static bool fold;            /* the next runs fold every test GPU onto device 0 */
static uint64_t want_instances = 1500;

static void all_timeouts(const hw_testresult *r);
static void kernel_bad_translation(const hw_testresult *r);

static void run(hw_gpu *g, const char *file, void (*check)(const hw_testresult *))
{
    /* Awaits that must give up do so after 0.2 s; the others get 5 s, because host threads of a
     * loaded machine (ASan, a 2-core CI box running two tests) can stall longer than 0.2 s and a
     * correct kernel would then show timeouts. */
    bool wants_timeouts = check == all_timeouts || check == kernel_bad_translation;
    hw_opts o;
    hw_opts_default(&o);
    o.fold_gpus = fold;
    o.env.block = 64;
    o.env.timeout = wants_timeouts ? 200000000 : 5000000000; /* ns in the simulator */
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
    int rc = hwtest_run(&r, g, &o, 300, want_instances);
    CHECK(rc == 0 && r.status == TR_RAN, "%s: %s", file, r.why);
    if (rc == 0) {
        CHECK(r.total.instances >= want_instances, "%s: %llu instances", file, (unsigned long long)r.total.instances);
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

/* ---- the kernel skeletons (litmus/kernels/) ---------------------------------------------- */

static uint64_t bug_count(const hw_testresult *r)
{
    uint64_t k = 0, l;
    double s;
    CHECK(hw_bug_stats(r, &r->total, &k, &s, &l), "%s: no bug statistics for a forall test", r->file);
    return k;
}

/* A correct kernel: the forall holds in every instance; nothing out of the heap, no timeout. */
static void kernel_correct(const hw_testresult *r)
{
    forall_holds(r);
    CHECK(r->total.hist[ot_bucket_ooh(&r->o)] == 0, "%s: out of heap", r->file);
    CHECK(bug_count(r) == 0, "%s: a bug state in a correct kernel", r->file);
    CHECK(r->total.heap_alloc[0] != 0, "%s: the heap allocation is not recorded", r->file);
}

static void kernel_correct_folded(const hw_testresult *r)
{
    kernel_correct(r);
    CHECK(r->total.folded, "%s: not recorded as folded", r->file);
}

/* translate(p, 1, 0) on a rank-0 pointer: every instance's store goes out of the heap, counted
 * in its own class, never a fault; the model says error, so every instance shows the bug. */
static void kernel_out_of_heap(const hw_testresult *r)
{
    CHECK(r->total.hist[ot_bucket_ooh(&r->o)] == r->total.instances, "%s: %llu of %llu out of heap", r->file,
          (unsigned long long)r->total.hist[ot_bucket_ooh(&r->o)], (unsigned long long)r->total.instances);
    CHECK(bug_count(r) == r->total.instances, "%s: the bug is in every instance", r->file);
    CHECK(!r->forbidden_seen, "%s: out of heap is not a forbidden outcome", r->file);
}

/* Ranks allocating the heap in different orders: the flag lands in another variable (the device
 * computes where, as the hardware would), the consumer's bounded await gives up: every instance
 * shows the bug, none ends in a state no model has. */
static void kernel_bad_translation(const hw_testresult *r)
{
    CHECK(bug_count(r) == r->total.instances, "%s: %llu of %llu instances show the bug", r->file,
          (unsigned long long)bug_count(r), (unsigned long long)r->total.instances);
    CHECK(r->total.hist[ot_bucket_other(&r->o)] == 0, "%s: states no model produced", r->file);
    CHECK(r->total.hist[ot_bucket_ooh(&r->o)] == 0, "%s: the translation stays inside the heap", r->file);
}

static int kernels_main(hw_gpu *g)
{
    want_instances = 200;
    run(g, "kernels/k1_mp_fine.lit", kernel_correct);                 /* var@peer, CAS await, barrier */
    run(g, "kernels/k3_wgspec_barrier.lit", kernel_correct);          /* barriers in loops (unrolled) */
    run(g, "kernels/k4_prodcons_reset.lit", kernel_correct);          /* i8 locks, host steps, two launches */
    run(g, "kernels/k1_translate_swapped_ranks.lit", kernel_out_of_heap);
    run(g, "kernels/k1_heap_order_mismatch.lit", kernel_bad_translation);
    run(g, "kernels/k1_translate_order_mismatch.lit", kernel_bad_translation); /* [ptr] from translate(&x) */
    fold = true;
    run(g, "kernels/k8a_barrier_4r.lit", kernel_correct_folded);      /* 4 ranks on one device */
    run(g, "kernels/k6_oneshot.lit", kernel_correct_folded);
    g->shutdown(g);
    printf("%s\n", fails ? "simulator, kernels: FAILED" : "simulator, kernels: all checks passed");
    return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
    hw_gpu g;
    char why[512];
    if (sim_open(&g, 3, why, sizeof why) != 0) {
        printf("FAIL: %s\n", why);
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "kernels") == 0)
        return kernels_main(&g);
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
