/* The Vulkan Alloy test importer (import/alloy.c) and its predicates. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "../import.h"
#include "unit.h"

static test *parse_ok(const char *text, alloy_expects *ex)
{
    diag d = {0};
    test *t = alloy_parse("dir/t.test", text, &d, ex);
    if (!t)
        fprintf(stderr, "%s", d.msg);
    diag_free(&d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static const char *MP = "// comment\n"
                        "NEWWG\nNEWSG\nNEWTHREAD\n"
                        "st.av.scopedev.sc0 x = 1\n"
                        "st.atom.rel.scopewg.sc0.semsc0 y = 1\n"
                        "NEWSG\nNEWTHREAD\n"
                        "ld.atom.acq.scopewg.sc0.semsc0 y = 1\n"
                        "ld.vis.scopedev.sc0 x = 0\n"
                        "NOSOLUTION consistent[X]\n"
                        "SATISFIABLE #dr=0\n";

static void test_structure(void)
{
    alloy_expects ex;
    test *t = parse_ok(MP, &ex);
    CU_ASSERT_STRING_EQUAL(t->name, "t");
    CU_ASSERT_EQUAL(t->nthreads, 2);
    CU_ASSERT_EQUAL(t->threads[0].wg, t->threads[1].wg);
    CU_ASSERT_NOT_EQUAL(t->threads[0].wave, t->threads[1].wave);
    CU_ASSERT_EQUAL(ex.n, 2);
    CU_ASSERT_FALSE(ex.v[0].satisfiable);
    CU_ASSERT_STRING_EQUAL(ex.v[0].pred, "consistent[X]");
    const inst *st = &t->threads[0].code.v[0];
    CU_ASSERT_EQUAL(st->kind, I_ST);
    CU_ASSERT_TRUE(st->vk & VK_AV);
    CU_ASSERT_EQUAL(st->scope, SCOPE_SYS);
    /* Pins: y == 1 (its write's value) and x == 0 (init). */
    CU_ASSERT_EQUAL(t->quant, Q_EXISTS);
    CU_ASSERT_EQUAL(t->cond->kind, C_AND);
    bool sat = true;
    char err[256];
    CU_ASSERT_EQUAL(alloy_check(t, &ex.v[0], 0, &sat, err, sizeof err), 0);
    CU_ASSERT_FALSE(sat); /* the stale read is inconsistent */
    CU_ASSERT_EQUAL(alloy_check(t, &ex.v[1], 0, &sat, err, sizeof err), 0);
    CU_ASSERT_TRUE(sat);  /* #dr=0 alone: some racefree candidate exists */
    /* A budget of one candidate: an error naming the budget, not a verdict. */
    CU_ASSERT_EQUAL(alloy_check(t, &ex.v[1], 1, &sat, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "stopped at the budget of 1 candidate executions") != NULL);
    alloy_expects_free(&ex);
    test_free(t);
}

static void test_predicates(void)
{
    alloy_expects ex;
    test *t = parse_ok("NEWWG\nNEWSG\nNEWTHREAD\n"
                       "st.atom.rel.scopewg.sc0.semsc0 y = 1\n"
                       "st.atom.scopewg.sc0 y = 3\n"
                       "NEWSG\nNEWTHREAD\n"
                       "rmw.scopewg.sc0 y = 1 2\n"
                       "SATISFIABLE consistent[X] && (#rs=2)\n"
                       "NOSOLUTION consistent[X] && #rs>2\n"
                       "SATISFIABLE NOCHAINS consistent[X] && racefree[X]\n"
                       "SATISFIABLE consistent[X] && !(#dr>0) || #rs<0\n",
                       &ex);
    CU_ASSERT_EQUAL_FATAL(ex.n, 4);
    CU_ASSERT_TRUE(ex.v[2].nochains);
    CU_ASSERT_EQUAL(t->threads[1].code.v[0].kind, I_RMW);
    for (int i = 0; i < ex.n; i++) {
        bool sat;
        char err[256];
        CU_ASSERT_EQUAL(alloy_check(t, &ex.v[i], 0, &sat, err, sizeof err), 0);
        CU_ASSERT_EQUAL(sat, ex.v[i].satisfiable);
    }
    alloy_expects_free(&ex);
    test_free(t);
}

static void test_sloc_ssw_cbar(void)
{
    alloy_expects ex;
    test *t = parse_ok("NEWWG\nNEWSG\nNEWTHREAD 0\nst.sc0 x = 1\n"
                       "NEWSG\nNEWTHREAD 1\navdevice\nvisdevice\n"
                       "NEWWG\nNEWSG\nNEWTHREAD 2\nld.sc1 y = 1\ncbar.acq.rel.scopewg.semsc0 4\n"
                       "SSW 0 1\nSSW 1 2\nSLOC x y\n"
                       "SATISFIABLE consistent[X] && #dr=0\n",
                       &ex);
    CU_ASSERT_EQUAL(t->nssw, 2);
    CU_ASSERT_EQUAL(t->ssw[1][0], 1);
    CU_ASSERT_EQUAL(t->ssw[1][1], 2);
    CU_ASSERT_EQUAL(t->locs[0].first_cell, t->locs[1].first_cell);
    CU_ASSERT_EQUAL(t->ncells, 1);
    CU_ASSERT_NOT_EQUAL(t->threads[2].wg, t->threads[0].wg);
    CU_ASSERT_TRUE(t->threads[1].code.v[0].vk & VK_AVDEVICE);
    CU_ASSERT_EQUAL(t->threads[2].code.v[1].kind, I_BARRIER);
    /* y = 1 names no write of y (x's write is another reference): the read is free. */
    CU_ASSERT_EQUAL(t->cond->kind, C_TRUE);
    bool sat;
    char err[256];
    CU_ASSERT_EQUAL(alloy_check(t, &ex.v[0], 0, &sat, err, sizeof err), 0);
    CU_ASSERT_TRUE(sat);
    alloy_expects_free(&ex);
    test_free(t);
}

static void test_alloy_errors(void)
{
    diag d = {0};
    alloy_expects ex;
    test *t = alloy_parse("e.test", "NEWTHREAD\nst.sc0.bogus x = 1\n", &d, &ex);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_TRUE(import_unsupported(&d));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "e.test:2:8: error: unsupported: Alloy test token 'bogus'"));
    diag_free(&d);
    t = alloy_parse("e.test", "NEWTHREAD\nst.atom.sc0 x = 1\n", &d, &ex);
    CU_ASSERT_PTR_NULL(t); /* an atomic without a scope */
    diag_free(&d);
    /* A value strtol would saturate, a variable name that is not an identifier. */
    t = alloy_parse("e.test", "NEWTHREAD\nst.sc0 x = 99999999999999999999\n", &d, &ex);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT(d.msg && strstr(d.msg, "e.test:2:11: error: expected a value after '='"));
    diag_free(&d);
    t = alloy_parse("e.test", "NEWTHREAD\nst.sc0 x# = 1\n", &d, &ex);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT(d.msg && strstr(d.msg, "e.test:2:8: error: expected a variable name"));
    diag_free(&d);
    /* Two threads numbered alike: an error, not two threads named P1 (which .lit refuses). */
    t = alloy_parse("e.test", "NEWTHREAD 1\nst.sc0 x = 1\nNEWTHREAD 1\nst.sc0 y = 1\n", &d, &ex);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT(d.msg && strstr(d.msg, "e.test:4:1: error: thread P1 is declared twice"));
    diag_free(&d);
    /* Thread numbers: atoi wrapped a long one, and the number after INT_MAX overflowed (UB). */
    t = alloy_parse("e.test", "NEWTHREAD 2147483647\nst.sc0 x = 1\nNEWTHREAD\nst.sc0 y = 1\n", &d, &ex);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT(d.msg && strstr(d.msg, "e.test:1:11: error: a thread number must be from 0 to 1000000"));
    diag_free(&d);
    t = alloy_parse("e.test", "NEWTHREAD 99999999999999999999\nst.sc0 x = 1\n", &d, &ex);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT(d.msg && strstr(d.msg, "a thread number must be from 0 to 1000000"));
    diag_free(&d);
    t = parse_ok("NEWTHREAD\nst.sc0 x = 1\nSATISFIABLE consistent[X] && #co=1\n", &ex);
    bool sat;
    char err[256];
    CU_ASSERT_EQUAL(alloy_check(t, &ex.v[0], 0, &sat, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unsupported"));
    alloy_expects_free(&ex);
    test_free(t);
}

void add_alloy_tests(void)
{
    CU_pSuite s = CU_add_suite("Alloy test importer", NULL, NULL);
    CU_add_test(s, "structure and pins", test_structure);
    CU_add_test(s, "predicates, #rs, NOCHAINS", test_predicates);
    CU_add_test(s, "SLOC, SSW, device operations, cbar", test_sloc_ssw_cbar);
    CU_add_test(s, "errors", test_alloy_errors);
}
