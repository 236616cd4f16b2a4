/* The explorer on small programs: counts of executions and outcomes,
 * hangs, runtime errors, dependencies through registers. */
#include <CUnit/CUnit.h>
#include <limits.h>
#include <string.h>

#include "../../sim/explore.h"
#include "../../sim/parallel.h"
#include "../../lit/parse.h"
#include "unit.h"

static explore_result run(const char *text, const model *m, test **out)
{
    diag d = {0};
    test *t = lit_parse("e.lit", text, &d);
    if (!t)
        fprintf(stderr, "%s", d.msg);
    diag_free(&d);
    explore_result r;
    memset(&r, 0, sizeof r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    explore_opts o = {.models = {m}, .nmodels = 1};
    CU_ASSERT_EQUAL(explore(t, &o, &r), 0);
    *out = t;
    return r;
}

static const char *MP_RLX = "test mp\nmemory { x: i32\n y: i32 }\n"
                            "thread P0 @gpu0.wg0 { st.relaxed.agent x, 1; st.relaxed.agent y, 1 }\n"
                            "thread P1 @gpu0.wg1 { r0 = ld.relaxed.agent y; r1 = ld.relaxed.agent x }\n"
                            "exists (P1:r0 == 1 && P1:r1 == 0)\n";

static void test_mp_counts(void)
{
    test *t;
    explore_result r = run(MP_RLX, &model_sc, &t);
    CU_ASSERT_EQUAL(r.mr[0].nouts, 3);
    CU_ASSERT_EQUAL(r.mr[0].positive, 0);
    CU_ASSERT_TRUE(r.candidates >= 3 && r.candidates <= 4); /* pruning may skip the stale read */
    explore_result_free(&r);
    test_free(t);
    r = run(MP_RLX, &model_src11, &t);
    CU_ASSERT_EQUAL(r.mr[0].nouts, 4);
    CU_ASSERT_EQUAL(r.mr[0].positive, 1);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_ALLOWED);
    explore_result_free(&r);
    test_free(t);
}

/* Two atomic increments: 2 executions (either order), final x == 2. */
static void test_rmw(void)
{
    test *t;
    explore_result r = run("test inc\nmemory { x: i32 }\n"
                           "thread A @gpu0.wg0 { r = atom.add.relaxed.agent x, 1 }\n"
                           "thread B @gpu0.wg1 { r = atom.add.relaxed.agent x, 1 }\n"
                           "forall (x == 2)\n",
                           &model_src11, &t);
    CU_ASSERT_EQUAL(r.mr[0].consistent, 2);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    explore_result_free(&r);
    test_free(t);
}

/* Values flow through registers: B stores what it read plus one. */
static void test_data_flow(void)
{
    test *t;
    explore_result r = run("test flow\nmemory { x: i32 = 5\n y: i32 }\n"
                           "thread B @gpu0.wg0 { a = ld.relaxed.sys x; st.relaxed.sys y, a * 2 + 1 }\n"
                           "forall (y == 11)\n",
                           &model_src11, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    explore_result_free(&r);
    test_free(t);
}

/* if/else and a CAS that succeeds only on the expected value. */
static void test_branch_cas(void)
{
    test *t;
    explore_result r = run("test cas\nmemory { x: i32\n y: i32 }\n"
                           "thread A @gpu0.wg0 { o = atom.cas.acq_rel.agent x, 0, 7 }\n"
                           "thread B @gpu0.wg1 { p = atom.cas.acq_rel.agent x, 0, 9\n"
                           "  if p == 0 { st.relaxed.agent y, 1 } else { st.relaxed.agent y, 2 } }\n"
                           "forall ((x == 7 && y == 2 && A:o == 0) || (x == 9 && y == 1 && B:p == 0))\n",
                           &model_src11, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    CU_ASSERT_EQUAL(r.mr[0].consistent, 2);
    explore_result_free(&r);
    test_free(t);
}

static void test_await_hang(void)
{
    test *t;
    /* The flag is never set: every execution hangs. */
    explore_result r = run("test hang\nmemory { f: i32 }\n"
                           "thread W @gpu0.wg0 { await ld.acquire.agent f == 1 }\n",
                           &model_src11, &t);
    CU_ASSERT_EQUAL(r.mr[0].hangs, 1);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HANG);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.mr[0].hang_msg, "e.lit:3:"));
    explore_result_free(&r);
    test_free(t);
    /* The flag is set: no execution hangs (the spin eventually sees it). */
    r = run("test nohang\nmemory { f: i32 }\n"
            "thread S @gpu0.wg1 { st.release.agent f, 1 }\n"
            "thread W @gpu0.wg0 { await ld.acquire.agent f == 1 }\n",
            &model_src11, &t);
    CU_ASSERT_EQUAL(r.mr[0].hangs, 0);
    CU_ASSERT_EQUAL(r.mr[0].consistent, 1);
    explore_result_free(&r);
    test_free(t);
}

static void test_barrier(void)
{
    test *t;
    /* With the barrier, B always sees A's plain store: no race. */
    explore_result r = run("test bar\nmemory { x: i32 }\n"
                           "thread A @gpu0.wg0 { st x, 1; barrier }\n"
                           "thread B @gpu0.wg0 { barrier; r = ld x }\n"
                           "forall (B:r == 1)\n",
                           &model_src11, &t);
    CU_ASSERT_EQUAL(r.mr[0].nraces, 0);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    explore_result_free(&r);
    test_free(t);
    /* A barrier only one thread reaches: a hang. */
    r = run("test div\nmemory { x: i32 }\n"
            "thread A @gpu0.wg0 { st x, 1; barrier }\n"
            "thread B @gpu0.wg0 { r = ld.relaxed.wg x }\n",
            &model_src11, &t);
    CU_ASSERT_TRUE(r.mr[0].hangs > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.mr[0].hang_msg, "never reaches it"));
    explore_result_free(&r);
    test_free(t);
}

static void test_index(void)
{
    test *t;
    /* A register index picks the element; one value is out of range. */
    explore_result r = run("test idx\nmemory { b: i32[2] = {10, 20}\n i: i32 }\n"
                           "thread S @gpu0.wg1 { st.relaxed.agent i, 5 }\n"
                           "thread A @gpu0.wg0 { k = ld.relaxed.agent i; v = ld.relaxed.agent b[k] }\n",
                           &model_src11, &t);
    CU_ASSERT_EQUAL(r.mr[0].errors, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.mr[0].error_msg, "out of range"));
    explore_result_free(&r);
    test_free(t);
}

/* Kernel order makes coarse data visible across GPUs. */
static void test_kernels(void)
{
    test *t;
    explore_result r = run("test kb\nmemory { x: i32 @gpu0 hipMalloc }\n"
                           "kernel K0 @gpu0\nkernel K1 @gpu1 after K0\n"
                           "thread A @gpu0.wg0 in K0 { st x, 1 }\n"
                           "thread B @gpu1.wg0 in K1 { r = ld x }\n"
                           "forall (B:r == 1)\n",
                           &model_src11, &t);
    CU_ASSERT_EQUAL(r.mr[0].nraces, 0);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    explore_result_free(&r);
    test_free(t);
}

/* An explicit pointer translated to a rank that allocates the heap in
 * another order lands in another variable: reported, naming both. */
static void test_pointer_provenance(void)
{
    const char *text = "test prov\nheap { ranks 2; size 64; fine\n x: i32\n y: i32;\n order gpu1: y, x }\n"
                       "thread P @gpu0.wg0 { p = translate(&x, 0, 1); st [p + 0], 1 }\n"
                       "exists (x@1 == 1)\n";
    test *t;
    explore_result r = run(text, &model_src11, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.mr[0].error_msg, "a pointer taken from &x lands in y[0] of gpu1"));
    explore_result_free(&r);
    test_free(t);
    /* The same program with the same order on both ranks is fine. */
    const char *same = "test prov2\nheap { ranks 2; size 64; fine\n x: i32\n y: i32 }\n"
                       "thread P @gpu0.wg0 { p = translate(&x, 0, 1); st [p + 0], 1 }\n"
                       "forall (x@1 == 1)\n";
    r = run(same, &model_src11, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    explore_result_free(&r);
    test_free(t);
    /* &x[i] past one beyond the end is an error: 4 * 2^62 wrapped the address onto x[0] (and overflowed). */
    const char *wrap = "test wrap\nheap { ranks 2; fine\n x: i32[4] = {0, 0, 0, 0} }\n"
                       "thread P @gpu0.wg0 { p = &x[4611686018427387904]\n st [p], 1 }\n"
                       "exists (x@0[0] == 1)\n";
    r = run(wrap, &model_src11, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.mr[0].error_msg, "&x[4611686018427387904]: the index is out of range (4 elements)"));
    explore_result_free(&r);
    test_free(t);
}

/* A for loop whose counter would pass INT64_MAX ends there (the step overflowed: UB); an empty body's last
   value is computed without overflow too. */
static void test_for_near_int64_max(void)
{
    const char *text = "test big\nmemory { x: i64 }\n"
                       "thread P @gpu0.wg0 { for i in 9223372036854775800..9223372036854775807 step 5 { st x, i }\n"
                       " for j in -9223372036854775807..9223372036854775807 step 9223372036854775807 { }\n r = j }\n"
                       "forall (x == 9223372036854775805 && P:r == 0)\n";
    test *t;
    explore_result r = run(text, &model_src11, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    explore_result_free(&r);
    test_free(t);
}

/* Wide counts (sim/count.c): sums and products past 2^64, exact decimal
 * digits, and a product past 2^256 refused rather than wrapped. */
static void test_wide_counts(void)
{
    char buf[COUNT_DIGITS];
    count_t a = count_of(UINT64_MAX);
    CU_ASSERT_TRUE(count_add(&a, count_of(1)));
    CU_ASSERT_STRING_EQUAL(count_str(a, buf), "18446744073709551616");
    count_t f;
    CU_ASSERT_TRUE(count_factorial(7, &f));
    count_t p = count_of(1);
    for (int i = 0; i < 8; i++)
        CU_ASSERT_TRUE(count_mul(&p, f));
    CU_ASSERT_STRING_EQUAL(count_str(p, buf), "416336312719673760153600000000");
    CU_ASSERT_EQUAL(count_long(p), LONG_MAX);
    CU_ASSERT_EQUAL(count_long(f), 5040);
    CU_ASSERT_STRING_EQUAL(count_str(count_of(0), buf), "0");
    count_t big = p, keep = p;
    CU_ASSERT_TRUE(count_mul(&big, p));      /* about 1.7e59 */
    CU_ASSERT_FALSE(count_mul(&big, big));   /* about 3e118: more than 2^256, unchanged */
    CU_ASSERT_EQUAL(count_cmp(big, keep), 1);
    count_t max = {{UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX}};
    CU_ASSERT_FALSE(count_add(&max, count_of(1)));
    CU_ASSERT_TRUE(count_factorial(57, &f));
    CU_ASSERT_FALSE(count_factorial(58, &f)); /* 58! > 2^256 > 57! */
}

/* Ifs on a loaded value nested 100 deep: the parser allows 200 levels, a path's frame stack holds 64. The branch
   that the condition cannot decide pushed a frame unchecked and wrote past the stack (a crash); now an error at
   the if that goes too deep. 60 levels run. */
static void test_deep_blocks(void)
{
    for (int n = 60; n <= 100; n += 40) {
        char text[4096];
        int at = snprintf(text, sizeof text, "test t\nmemory { x: i32 }\nthread P @gpu0.wg0 {\n r = ld x\n");
        for (int i = 0; i < n; i++)
            at += snprintf(text + at, sizeof text - (size_t)at, " if r == 0 {\n");
        at += snprintf(text + at, sizeof text - (size_t)at, " st x, 1\n");
        for (int i = 0; i < n; i++)
            at += snprintf(text + at, sizeof text - (size_t)at, " }\n");
        snprintf(text + at, sizeof text - (size_t)at, "}\nexists (x == 1)\n");
        diag d = {0};
        test *t = lit_parse("e.lit", text, &d);
        diag_free(&d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        explore_opts o = {.models = {&model_src11}, .nmodels = 1};
        explore_result r;
        memset(&r, 0, sizeof r);
        int rc = explore(t, &o, &r);
        if (n == 60) {
            CU_ASSERT_EQUAL(rc, 0);
        } else {
            CU_ASSERT_NOT_EQUAL(rc, 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "e.lit:68:"));
            CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "thread P: blocks nested more than 64 deep"));
        }
        explore_result_free(&r);
        test_free(t);
    }
}

/* Under -j N the threads' paths are built in parallel (sim/parallel.c); when several threads fail, the error
   must still name the first in the file, as with -j 1, whichever finished first. Q fails fast, P after its
   loop of 90000 iterations; each has a loop of more than 100000. */
static void test_parallel_errors_in_order(void)
{
    const char *text = "test t\nmemory { x: i32 }\n"
                       "thread P @gpu0.wg0 { for i in 0..90000 { r = i }\n for j in 0..100001 { r = j } }\n"
                       "thread Q @gpu0.wg1 { for k in 0..100001 { r = k } }\n"
                       "exists (x == 1)\n";
    for (int jobs = 1; jobs <= 4; jobs++)
        for (int rep = 0; rep < 5; rep++) {
            diag d = {0};
            test *t = lit_parse("e.lit", text, &d);
            diag_free(&d);
            CU_ASSERT_PTR_NOT_NULL_FATAL(t);
            explore_opts o = {.models = {&model_src11}, .nmodels = 1, .jobs = jobs};
            explore_result r;
            memset(&r, 0, sizeof r);
            int rc = explore(t, &o, &r);
            if (rc == 0 || !strstr(r.err, "thread P"))
                fprintf(stderr, "\n-j %d: rc %d: %s\n", jobs, rc, r.err);
            CU_ASSERT_NOT_EQUAL(rc, 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "thread P"));
            explore_result_free(&r);
            test_free(t);
        }
}

static void count_step(void *ctx, int i) { __atomic_fetch_add(&((int *)ctx)[i], 1, __ATOMIC_RELAXED); }

static void test_parallel_steps(void)
{
    int runs[300];
    for (int jobs = 0; jobs <= 8; jobs++)
        for (int n = 0; n <= 300; n += 37) {
            memset(runs, 0, sizeof runs);
            parallel_steps(n, jobs, count_step, runs);
            for (int i = 0; i < 300; i++)
                CU_ASSERT_EQUAL(runs[i], i < n ? 1 : 0);
        }
}

void add_explore_tests(void)
{
    CU_pSuite s = CU_add_suite("explorer", NULL, NULL);
    CU_add_test(s, "message passing counts", test_mp_counts);
    CU_add_test(s, "atomic increments", test_rmw);
    CU_add_test(s, "values through registers", test_data_flow);
    CU_add_test(s, "branches and CAS", test_branch_cas);
    CU_add_test(s, "await and hangs", test_await_hang);
    CU_add_test(s, "barriers", test_barrier);
    CU_add_test(s, "register indices", test_index);
    CU_add_test(s, "kernel boundaries", test_kernels);
    CU_add_test(s, "pointer provenance", test_pointer_provenance);
    CU_add_test(s, "a for loop near INT64_MAX", test_for_near_int64_max);
    CU_add_test(s, "wide counts", test_wide_counts);
    CU_add_test(s, "blocks deeper than a path's frames", test_deep_blocks);
    CU_add_test(s, "-j 2 names the first failing thread", test_parallel_errors_in_order);
    CU_add_test(s, "parallel steps run each step once", test_parallel_steps);
}
