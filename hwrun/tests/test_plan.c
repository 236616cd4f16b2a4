/* Placement: groups, waves and lanes from the scope tree, and the instance
 * mapping the kernels compute (mirrored here in C) is a bijection that keeps
 * each work-group of an instance in one block and each wave in one warp. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "../../lit/parse.h"
#include "../plan.h"
#include "unit.h"

static test *parse(const char *src)
{
    diag d = {0};
    test *t = lit_parse("t.lit", src, &d);
    diag_free(&d);
    return t;
}

#define MEM "memory { x: i32 = 0 @gpu0 fine\n y: i32 = 0 @gpu0 fine }\n"

static void test_groups_and_waves(void)
{
    test *t = parse("test a\n" MEM
                    "thread P0 @gpu0.wg0 { st.relaxed.agent x, 1 }\n"
                    "thread P1 @gpu0.wg0 { r0 = ld.relaxed.agent x }\n"
                    "thread P2 @gpu0.wg1 { r0 = ld.relaxed.agent y }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    hw_plan p;
    CU_ASSERT_EQUAL_FATAL(plan_build(&p, t), 0);
    CU_ASSERT_EQUAL(p.nk, 1);
    CU_ASSERT_EQUAL(p.k[0].ngroups, 2);
    CU_ASSERT_EQUAL(p.k[0].groups[0].nthreads, 2);
    CU_ASSERT_EQUAL(p.k[0].groups[0].nwaves, 2); /* no wave given: a wave (warp) each */
    CU_ASSERT_EQUAL(p.vmax, 2);
    CU_ASSERT_EQUAL(p.cmax, 1);
    CU_ASSERT_EQUAL(p.L, 32);
    CU_ASSERT_EQUAL(plan_rows(&p, 256), 4);
    CU_ASSERT_EQUAL(plan_rows(&p, 32), 0); /* two warps needed */
    CU_ASSERT_EQUAL(p.role[2].group, 1);
    plan_free(&p);
    test_free(t);
}

static void test_same_wave(void)
{
    test *t = parse("test w\n" MEM
                    "thread P0 @gpu0.wg0.wave0 { st.release.wave x, 1 }\n"
                    "thread P1 @gpu0.wg0.wave0 { r0 = ld.acquire.wave x }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    hw_plan p;
    CU_ASSERT_EQUAL_FATAL(plan_build(&p, t), 0);
    CU_ASSERT_EQUAL(p.cmax, 2);
    CU_ASSERT_EQUAL(p.L, 16); /* two lanes per instance in one warp */
    CU_ASSERT_EQUAL(p.role[0].wave, p.role[1].wave);
    CU_ASSERT_NOT_EQUAL(p.role[0].lane, p.role[1].lane);
    plan_free(&p);
    test_free(t);
}

static void test_gpus_and_kernels(void)
{
    test *t = parse("test k\n"
                    "memory { x: i32 = 0 @gpu0 coarse\n y: i32 = 0 @gpu1 coarse }\n"
                    "kernel K0 @gpu0\nkernel K1 @gpu1 after K0\nkernel K2 @gpu0 after K1\n"
                    "thread P0 @gpu0.wg0 in K0 { st x, 1 }\n"
                    "thread P1 @gpu1.wg0 in K1 { r0 = ld x\n st y, r0 + 1 }\n"
                    "thread P2 @gpu0.wg1 in K2 { r0 = ld y }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    hw_plan p;
    CU_ASSERT_EQUAL_FATAL(plan_build(&p, t), 0);
    CU_ASSERT_EQUAL(p.ngpus, 2);
    CU_ASSERT_EQUAL(p.nk, 3);
    CU_ASSERT_EQUAL(p.nlevels, 3);
    CU_ASSERT_EQUAL(p.k[2].nafter, 2); /* K2 waits for K0 and K1 (transitively) */
    CU_ASSERT_EQUAL(p.k[1].dev, 1);
    plan_free(&p);
    test_free(t);
}

static void test_refusals(void)
{
    test *t = parse("test b\n" MEM
                    "thread P0 @gpu0.wg0 { r0 = ld.relaxed.agent x\n if r0 == 1 { barrier } }\n"
                    "thread P1 @gpu0.wg0 { barrier }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    hw_plan p;
    CU_ASSERT_EQUAL(plan_build(&p, t), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(p.why, "barrier inside if"));
    plan_free(&p);
    test_free(t);
    t = parse("test b2\n" MEM "thread P0 @gpu0.wg0 { barrier\n barrier }\nthread P1 @gpu0.wg0 { barrier }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(plan_build(&p, t), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(p.why, "different numbers of barriers"));
    plan_free(&p);
    test_free(t);
    /* A barrier in a loop whose bound is read from memory could deadlock: refused. */
    t = parse("test b3\n" MEM "thread P0 @gpu0.wg0 { r0 = ld x\n for i in 0..r0 { barrier } }\n"
              "thread P1 @gpu0.wg0 { barrier }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(plan_build(&p, t), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(p.why, "loop whose bounds are not known"));
    plan_free(&p);
    test_free(t);
}

/* What the kernel library needs: i8 locations, barriers in loops with static bounds (counted per
 * iteration, from the template's indices), heap operands, host steps as kernels of their own. */
static void test_kernel_constructs(void)
{
    test *t = parse("test i8\nmemory { lk: i8 }\nthread P0 @gpu0.wg0 { st lk, 1 }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    hw_plan p;
    CU_ASSERT_EQUAL(plan_build(&p, t), 0);
    CU_ASSERT_EQUAL(loc_size(&t->locs[0]), 1);
    plan_free(&p);
    test_free(t);
    t = parse("test loops\n" MEM "thread P for w in 0..2, t in 0..2 @gpu0.wg(w) {\n"
              "  for i in w..4 step 2 { st x, i\n barrier }\n}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(plan_build(&p, t), 0);
    CU_ASSERT_EQUAL(p.k[0].ngroups, 2);
    CU_ASSERT_EQUAL(p.k[0].groups[0].nbar, 2); /* i = 0, 2 */
    CU_ASSERT_EQUAL(p.k[0].groups[1].nbar, 2); /* i = 1, 3 */
    plan_free(&p);
    test_free(t);
    t = parse("test heap\nheap { ranks 2; size 256; fine\n d: i32[2]\n f: i32 }\n"
              "kernel A @gpu0\nkernel B @gpu1\n"
              "thread P @gpu0.wg0 in A { q = translate(&d[1], 0, 1)\n st [q], 1\n st f@1, 1 }\n"
              "thread C @gpu1.wg0 in B { r = ld d[1] }\n"
              "host { launch A, B\n sync\n fill f@1, 0\n launch A, B\n sync }\n"
              "forall (d@1[1] == 1)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(plan_build(&p, t), 0);
    CU_ASSERT_EQUAL(p.ngpus, 2);
    CU_ASSERT_EQUAL(p.nk, 5);
    int host = -1;
    for (int k = 0; k < p.nk; k++)
        if (p.k[k].host)
            host = k;
    CU_ASSERT_FATAL(host >= 0);
    CU_ASSERT_EQUAL(p.k[host].dev, 1);   /* it writes rank 1's f */
    CU_ASSERT_EQUAL(p.k[host].level, 1); /* after the first launches, before the second */
    plan_free(&p);
    test_free(t);
}

/* The generated kernels compute, for block vb = m*J + j, warp w and lane l:
 *   row = w / V_j, v = w % V_j, q = l / L, col = l % L,
 *   s = row*L + ((col*LMUL + LOFF) mod L), off = j ? h(j, s) mod M : 0 (any h will do),
 *   i = ((m + M - off) mod M) * R*L + s,
 * and the role is the thread of group j in wave v at lane slot q (if any,
 * and row < R).  Mirror that and check every (role, instance) once. */
static void check_bijection(const char *src, int block, int M, unsigned lmul, unsigned loff)
{
    test *t = parse(src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    hw_plan p;
    CU_ASSERT_EQUAL_FATAL(plan_build(&p, t), 0);
    int R = plan_rows(&p, block), L = p.L, nw = block / 32;
    CU_ASSERT_FATAL(R > 0);
    long N = (long)M * R * L;
    int nt = t->nthreads;
    int *seen = calloc((size_t)(N * nt), sizeof *seen);
    int *blk = calloc((size_t)(N * nt), sizeof *blk);
    int *wrp = calloc((size_t)(N * nt), sizeof *wrp);
    for (int k = 0; k < p.nk; k++) {
        const hw_kernel *K = &p.k[k];
        int J = K->ngroups;
        for (int vb = 0; vb < J * M; vb++) {
            int j = vb % J, m = vb / J;
            const hw_group *G = &K->groups[j];
            for (int w = 0; w < nw; w++)
                for (int l = 0; l < 32; l++) {
                    int row = w / G->nwaves, v = w % G->nwaves, q = l / L, col = l % L;
                    if (row >= R)
                        continue;
                    int role = -1;
                    for (int x = 0; x < G->nthreads; x++) {
                        int th = G->threads[x];
                        if (p.role[th].wave == v && p.role[th].lane == q)
                            role = th;
                    }
                    if (role < 0)
                        continue;
                    long s = (long)row * L + ((col * lmul + loff) & (unsigned)(L - 1));
                    long off = j ? (long)((unsigned long)(s * 2654435761ul + (unsigned long)j * 97) % (unsigned long)M) : 0;
                    long i = ((m + M - off) % M) * R * L + s;
                    CU_ASSERT_FATAL(i >= 0 && i < N);
                    seen[i * nt + role]++;
                    blk[i * nt + role] = k * 100000 + vb;
                    wrp[i * nt + role] = w;
                }
        }
    }
    for (long i = 0; i < N; i++)
        for (int a = 0; a < nt; a++) {
            CU_ASSERT_EQUAL(seen[i * nt + a], 1);
            for (int b = 0; b < a; b++) {
                bool same_wg = p.role[a].pk == p.role[b].pk && p.role[a].group == p.role[b].group;
                bool same_block = blk[i * nt + a] == blk[i * nt + b];
                CU_ASSERT_EQUAL(same_wg, same_block);
                if (same_wg)
                    CU_ASSERT_EQUAL(p.role[a].wave == p.role[b].wave, wrp[i * nt + a] == wrp[i * nt + b]);
            }
        }
    free(seen);
    free(blk);
    free(wrp);
    plan_free(&p);
    test_free(t);
}

static void test_bijection(void)
{
    check_bijection("test mp\n" MEM "thread P0 @gpu0.wg0 { st.relaxed.agent x, 1 }\n"
                    "thread P1 @gpu0.wg1 { r0 = ld.relaxed.agent x }\n",
                    256, 8, 7, 3);
    check_bijection("test mixed\n" MEM "thread P0 @gpu0.wg0.wave0 { st.relaxed.agent x, 1 }\n"
                    "thread P1 @gpu0.wg0.wave0 { r0 = ld.relaxed.agent x }\n"
                    "thread P2 @gpu0.wg0.wave1 { r0 = ld.relaxed.agent y }\n"
                    "thread P3 @gpu0.wg1 { st.relaxed.agent y, 1 }\n",
                    128, 4, 5, 9);
    check_bijection("test gpus\n" MEM "thread P0 @gpu0.wg0 { st.relaxed.sys x, 1 }\n"
                    "thread P1 @gpu1.wg0 { r0 = ld.relaxed.sys x }\n"
                    "thread P2 @gpu1.wg1 { r0 = ld.relaxed.sys y }\n",
                    96, 2, 1, 0);
}

void add_plan_tests(void)
{
    CU_pSuite s = CU_add_suite("hwrun placement", NULL, NULL);
    CU_add_test(s, "work-groups and waves", test_groups_and_waves);
    CU_add_test(s, "threads sharing a wave", test_same_wave);
    CU_add_test(s, "GPUs and kernel order", test_gpus_and_kernels);
    CU_add_test(s, "constructs that could hang a GPU are refused", test_refusals);
    CU_add_test(s, "kernel constructs: i8, barriers in static loops, heap, host steps", test_kernel_constructs);
    CU_add_test(s, "instance mapping is a bijection", test_bijection);
}
