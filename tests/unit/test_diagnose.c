/* Each diagnosis kind on the smallest program that shows it. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "../../sim/diagnose.h"
#include "../../lit/parse.h"
#include "unit.h"

/* Runs text under src11 and says whether some diagnosis line holds want. */
static bool diagnosed_as(const char *text, const model *m, const char *want, bool expected)
{
    diag d = {0};
    test *t = lit_parse("d.lit", text, &d);
    if (!t)
        fprintf(stderr, "%s", d.msg);
    diag_free(&d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    explore_opts o = {.models = {m}, .nmodels = 1, .jobs = 1};
    explore_result r;
    CU_ASSERT_EQUAL_FATAL(explore(t, &o, &r), 0);
    diagnosis dg;
    diagnose(t, &r.mr[0], &dg);
    bool found = false;
    for (int i = 0; i < dg.n; i++)
        found = found || strstr(dg.line[i], want) != NULL;
    if (found != expected) {
        fprintf(stderr, "\nwanted \"%s\"; got %d lines:\n", want, dg.n);
        for (int i = 0; i < dg.n; i++)
            fprintf(stderr, "  %s\n", dg.line[i]);
    }
    explore_result_free(&r);
    test_free(t);
    return found;
}

#define diagnosed(text, m, want) diagnosed_as(text, m, want, true)
#define not_diagnosed(text, m, want) (!diagnosed_as(text, m, want, false))

static void test_scope_too_narrow(void)
{
    const char *mp = "test n\nmemory { d: i32 @gpu0 fine\n f: i32 @gpu0 %s }\n"
                     "thread P @gpu0.wg0 { st d, 1; st.release.%s f, 1 }\n"
                     "thread C @gpu1.wg0 { r = ld.acquire.%s f; if r == 1 { s = ld d } }\n"
                     "exists (C:r == 1)\n";
    char text[512];
    snprintf(text, sizeof text, mp, "fine", "agent", "agent");
    CU_ASSERT_TRUE(diagnosed(text, &model_src11, "scope too narrow: P's release (line 4, agent)"));
    CU_ASSERT_TRUE(diagnosed(text, &model_src11, "on gpu0 and gpu1: use sys"));
    snprintf(text, sizeof text, mp, "coarse", "sys", "sys");
    CU_ASSERT_TRUE(diagnosed(text, &model_src11, "f is coarse-grained memory, where atomics act at agent scope at most"));
    snprintf(text, sizeof text, mp, "fine", "sys", "sys");
    CU_ASSERT_TRUE(not_diagnosed(text, &model_src11, "scope too narrow"));
}

static void test_missing_barrier(void)
{
    const char *k = "test b\nmemory { d: i32[2] @gpu0\n f: i32 @gpu0 }\n"
                    "thread P for t in 0..2 @gpu0.wg0 { st d[t], 1; %s if t == 0 { st.release.agent f, 1 } }\n"
                    "thread C @gpu0.wg1 { await ld.acquire.agent f == 1; r0 = ld d[0]; r1 = ld d[1] }\n"
                    "forall (C:r0 == 1 && C:r1 == 1)\n";
    char text[512];
    snprintf(text, sizeof text, k, "");
    CU_ASSERT_TRUE(diagnosed(text, &model_src11, "missing barrier: P[1]'s store to d[1]"));
    snprintf(text, sizeof text, k, "barrier;");
    CU_ASSERT_TRUE(not_diagnosed(text, &model_src11, "missing barrier"));
}

static void test_cache_modifier(void)
{
    const char *text = "test cv\nmemory { d: i32\n f: i32 }\n"
                       "thread P @gpu0.wg0 { st d, 42; st.release.agent f, 1 }\n"
                       "thread C @gpu0.wg1 { await ld.cv f == 1; r = ld d }\n"
                       "forall (C:r == 42)\n";
    CU_ASSERT_TRUE(diagnosed(text, &model_src11, "cache modifier is not an acquire: C polls f with .cv at line 5"));
    CU_ASSERT_TRUE(diagnosed(text, &model_ptx, "stale read: C read d = 0 at line 5"));
}

void add_diagnose_tests(void)
{
    CU_pSuite s = CU_add_suite("diagnosis", NULL, NULL);
    CU_add_test(s, "scope too narrow, coarse flags", test_scope_too_narrow);
    CU_add_test(s, "missing barrier before a release", test_missing_barrier);
    CU_add_test(s, "cache modifiers and stale reads", test_cache_modifier);
}
