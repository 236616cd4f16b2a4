/* Outcome indexing: the table is the union of the models' outcomes, the
 * device's dense lookup agrees with a linear search, and anything else goes
 * to the "other" bucket. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "../outcome.h"
#include "unit.h"

static const char *sb = "test SB\n"
                        "memory { x: i32 = 0 @gpu0 fine\n y: i32 = 0 @gpu0 fine }\n"
                        "thread P0 @gpu0.wg0 { st.relaxed.agent x, 1\n r0 = ld.relaxed.agent y }\n"
                        "thread P1 @gpu0.wg1 { st.relaxed.agent y, 1\n r0 = ld.relaxed.agent x }\n"
                        "exists (P0:r0 == 0 && P1:r0 == 0)\n";

static void test_union_and_models(void)
{
    explore_result r;
    test *t = hw_parse(sb, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    otab o;
    CU_ASSERT_EQUAL_FATAL(otab_build(&o, t, &r), 0);
    CU_ASSERT_EQUAL(o.nshow, 2);
    CU_ASSERT_EQUAL(o.n, 4); /* (0,0) (0,1) (1,0) (1,1) */
    int ptx = otab_model(&o, "ptx"), sc = otab_model(&o, "sc");
    CU_ASSERT(ptx >= 0 && sc >= 0);
    int64_t weak[2] = {0, 0};
    int e = otab_find(&o, weak, false, false);
    CU_ASSERT_FATAL(e >= 0);
    CU_ASSERT_TRUE(o.e[e].cond);
    CU_ASSERT_TRUE(o.e[e].allowed >> ptx & 1u);  /* PTX allows SB relaxed */
    CU_ASSERT_FALSE(o.e[e].allowed >> sc & 1u);  /* SC forbids it */
    for (int i = 0; i < o.n; i++)
        CU_ASSERT_EQUAL(o.e[i].cond, i == e);
    otab_free(&o);
    explore_result_free(&r);
    test_free(t);
}

static void test_classify_matches_search(void)
{
    explore_result r;
    test *t = hw_parse(sb, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    otab o;
    CU_ASSERT_EQUAL_FATAL(otab_build(&o, t, &r), 0);
    CU_ASSERT_PTR_NOT_NULL(o.lut);
    CU_ASSERT_EQUAL(o.codes, 4);
    for (int i = 0; i < o.n; i++) {
        CU_ASSERT_EQUAL(otab_classify(&o, o.e[i].vals, 0), i);
        CU_ASSERT_EQUAL(otab_find(&o, o.e[i].vals, false, false), i);
        /* The same values with the error bit are no entry of this test. */
        CU_ASSERT_EQUAL(otab_classify(&o, o.e[i].vals, ST_ERROR), ot_bucket_other(&o));
        /* A timed-out await wins over the values. */
        CU_ASSERT_EQUAL(otab_classify(&o, o.e[i].vals, ST_TIMEOUT), ot_bucket_timeout(&o));
    }
    int64_t odd[2] = {7, 0};
    CU_ASSERT_EQUAL(otab_classify(&o, odd, 0), ot_bucket_other(&o));
    CU_ASSERT_EQUAL(ot_nbuckets(&o), o.n + 3);
    /* An access outside the heap is its own class, whatever else the instance did. */
    CU_ASSERT_EQUAL(otab_classify(&o, o.e[0].vals, ST_OOH | ST_TIMEOUT | ST_ERROR), ot_bucket_ooh(&o));
    char buf[128];
    int64_t v[2] = {0, 1};
    otab_format(&o, v, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "P0:r0=0; P1:r0=1");
    CU_ASSERT_TRUE(otab_cond(&o, (int64_t[]){0, 0}));
    CU_ASSERT_FALSE(otab_cond(&o, (int64_t[]){0, 1}));
    otab_free(&o);
    explore_result_free(&r);
    test_free(t);
}

/* Without the lookup table (too many codes) classification falls back to the
 * linear search and must agree. */
static void test_linear_fallback(void)
{
    explore_result r;
    test *t = hw_parse(sb, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    otab o;
    CU_ASSERT_EQUAL_FATAL(otab_build(&o, t, &r), 0);
    free(o.lut);
    o.lut = NULL;
    o.codes = -1;
    for (int i = 0; i < o.n; i++)
        CU_ASSERT_EQUAL(otab_classify(&o, o.e[i].vals, 0), i);
    CU_ASSERT_EQUAL(otab_classify(&o, (int64_t[]){2, 2}, 0), ot_bucket_other(&o));
    otab_free(&o);
    explore_result_free(&r);
    test_free(t);
}

/* A hang outcome stays out of the device domains; an await timeout is its bucket. */
static void test_hang_entries(void)
{
    const char *src = "test hang\nmemory { x: i32 = 0 @gpu0 fine }\n"
                      "thread P0 @gpu0.wg0 { await ld.acquire.agent x == 1 }\n"
                      "exists (x == 0)\n";
    explore_result r;
    test *t = hw_parse(src, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    otab o;
    CU_ASSERT_EQUAL_FATAL(otab_build(&o, t, &r), 0);
    CU_ASSERT_EQUAL(o.n, 1);
    CU_ASSERT_TRUE(o.e[0].hang);
    CU_ASSERT_TRUE(o.model_hangs[0]);
    CU_ASSERT_EQUAL(otab_classify(&o, o.e[0].vals, ST_TIMEOUT), ot_bucket_timeout(&o));
    /* A completed instance cannot be in the hang entry. */
    CU_ASSERT_EQUAL(otab_classify(&o, o.e[0].vals, 0), ot_bucket_other(&o));
    otab_free(&o);
    explore_result_free(&r);
    test_free(t);
}

void add_outcome_tests(void)
{
    CU_pSuite s = CU_add_suite("hwrun outcome indexing", NULL, NULL);
    CU_add_test(s, "union of the models' outcomes", test_union_and_models);
    CU_add_test(s, "lookup table agrees with the search", test_classify_matches_search);
    CU_add_test(s, "linear fallback", test_linear_fallback);
    CU_add_test(s, "hangs and timeouts", test_hang_entries);
}
