/* The relation algebra against small hand-computed relations. */
#include <CUnit/CUnit.h>

#include "../../model/rel.h"
#include "unit.h"

static rel *chain(int n)
{
    rel *r = rel_new();
    for (int i = 0; i + 1 < n; i++)
        rel_add(r, i, i + 1);
    return r;
}

static void test_closure(void)
{
    rel_begin(5);
    R c = plus(chain(5));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            CU_ASSERT_EQUAL(rel_has(c, i, j), i < j);
    CU_ASSERT_TRUE(acyclic(c));
    CU_ASSERT_TRUE(irreflexive(c));
    R s = star(chain(5));
    CU_ASSERT_TRUE(rel_has(s, 3, 3));
    CU_ASSERT_FALSE(irreflexive(s));
}

static void test_cycle(void)
{
    rel_begin(4);
    rel *r = chain(4);
    CU_ASSERT_TRUE(acyclic(r));
    rel_add(r, 3, 1);
    CU_ASSERT_FALSE(acyclic(r));
    CU_ASSERT_TRUE(irreflexive(r));
    CU_ASSERT_FALSE(irreflexive(plus(r)));
}

static void test_seq_inv(void)
{
    rel_begin(4);
    rel *a = rel_new(), *b = rel_new();
    rel_add(a, 0, 1);
    rel_add(a, 2, 3);
    rel_add(b, 1, 2);
    R ab = S(a, b);
    CU_ASSERT_TRUE(rel_has(ab, 0, 2));
    CU_ASSERT_FALSE(rel_has(ab, 2, 2));
    R ia = inv(a);
    CU_ASSERT_TRUE(rel_has(ia, 1, 0));
    CU_ASSERT_TRUE(rel_has(ia, 3, 2));
    CU_ASSERT_FALSE(rel_has(ia, 0, 1));
    CU_ASSERT_TRUE(is_empty(I(a, b)));
    CU_ASSERT_TRUE(subset(a, U(a, b)));
    CU_ASSERT_FALSE(subset(U(a, b), a));
    R d = D(U(a, b), a);
    CU_ASSERT_TRUE(rel_has(d, 1, 2));
    CU_ASSERT_FALSE(rel_has(d, 0, 1));
}

static void test_sets(void)
{
    rel_begin(6);
    set even = set_empty();
    set_add(&even, 0);
    set_add(&even, 2);
    set_add(&even, 4);
    R all = cross(set_all(), set_all());
    R ev = restr(even, all, even);
    CU_ASSERT_TRUE(rel_has(ev, 2, 4));
    CU_ASSERT_FALSE(rel_has(ev, 1, 4));
    CU_ASSERT_TRUE(rel_has(id(even), 2, 2));
    CU_ASSERT_FALSE(rel_has(id(even), 3, 3));
    CU_ASSERT_TRUE(set_has(domain(ev), 0));
    CU_ASSERT_FALSE(set_has(range(ev), 5));
    CU_ASSERT_TRUE(set_is_empty(set_and(even, set_minus(set_all(), even))));
}

/* Relations wider than one 64-bit word. */
static void test_wide(void)
{
    rel_begin(REL_MAX);
    R c = plus(chain(REL_MAX));
    CU_ASSERT_TRUE(rel_has(c, 0, REL_MAX - 1));
    CU_ASSERT_TRUE(rel_has(c, 63, 64));
    CU_ASSERT_FALSE(rel_has(c, 64, 63));
    CU_ASSERT_TRUE(acyclic(c));
    rel *r = chain(REL_MAX);
    rel_add(r, REL_MAX - 1, 0);
    CU_ASSERT_FALSE(acyclic(r));
}

void add_rel_tests(void)
{
    CU_pSuite s = CU_add_suite("relation algebra", NULL, NULL);
    CU_add_test(s, "transitive closure", test_closure);
    CU_add_test(s, "cycles", test_cycle);
    CU_add_test(s, "sequence, inverse, difference", test_seq_inv);
    CU_add_test(s, "sets and restriction", test_sets);
    CU_add_test(s, "more than 64 events", test_wide);
}
