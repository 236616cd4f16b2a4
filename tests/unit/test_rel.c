/* The relation algebra against small hand-computed relations. */
#include <CUnit/CUnit.h>

#include "../../model/rel.h"
#include "unit.h"

#include <stdbool.h>
#include <string.h>

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


/* ---- incremental closure, against a closure computed here from scratch ---- */

static unsigned long rng_state;
static unsigned rnd(unsigned bound)
{
    rng_state = rng_state * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)(rng_state >> 33) % bound;
}

/* Warshall on a copy: the reference the library's closures must equal. */
static void closure_by_hand(R a, rel *out, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = a->row[i];
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (rel_has(out, i, k))
                for (int w = 0; w < REL_WORDS; w++)
                    out->row[i].w[w] |= out->row[k].w[w];
}

static bool same_rel(R a, R b, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (rel_has(a, i, j) != rel_has(b, i, j))
                return false;
    return true;
}

/* Random relations (forward edges only, or any edges: cycles), closed, then
 * edges added one at a time: after each, the closure equals a closure of
 * everything added so far; undoing to each mark gives that prefix's. */
static void test_closure_incremental(void)
{
    static const int sizes[] = {5, 40, 130};
    for (int si = 0; si < 3; si++)
        for (int cyclic = 0; cyclic < 2; cyclic++)
            for (int seed = 1; seed <= 4; seed++) {
                int n = sizes[si];
                rng_state = (unsigned long)(seed * 7919 + n * 31 + cyclic);
                rel_begin(n);
                rel *base = rel_new(), *acc = rel_new(), *want = rel_new(), *store = rel_new();
                for (int e = 0; e < n; e++) {
                    int a = (int)rnd((unsigned)n), b = (int)rnd((unsigned)n);
                    if (!cyclic && a >= b)
                        continue;
                    rel_add(base, a, b);
                }
                closure c;
                closure_start(&c, store, base);
                closure_by_hand(base, want, n);
                CU_ASSERT_TRUE(same_rel(c.closed, want, n));
                *acc = *base;
                enum { STEPS = 24 };
                int marks[STEPS];
                rel prefix[4];
                int saved = 0;
                for (int k = 0; k < STEPS; k++) {
                    marks[k] = closure_mark(&c);
                    if (k % 6 == 0 && saved < 4)
                        prefix[saved++] = *acc;
                    int a = (int)rnd((unsigned)n), b = (int)rnd((unsigned)n);
                    if (!cyclic && a >= b)
                        b = a + 1 < n ? a + 1 : a, a = a + 1 < n ? a : a - 1;
                    bool held = rel_has(c.closed, a, b);
                    CU_ASSERT_EQUAL(closure_add(&c, a, b), !held);
                    rel_add(acc, a, b);
                    closure_by_hand(acc, want, n);
                    CU_ASSERT_TRUE(same_rel(c.closed, want, n));
                }
                for (int k = STEPS - 1; k >= 0; k -= 6) {
                    /* marks[k] is the state before step k; prefix[k / 6] before step k - k % 6 */
                    int back = k - k % 6;
                    closure_undo(&c, marks[back]);
                    closure_by_hand(&prefix[back / 6], want, n);
                    CU_ASSERT_TRUE(same_rel(c.closed, want, n));
                }
                closure_free(&c);
            }
}

/* closure_add_acyclic as the search uses it (sim/search.c, rf | dep): a
 * depth-first walk over a few candidate edges per level, from an acyclic
 * relation; at every node the answer must equal "the union's closure from
 * scratch has no loop", and after an edge it accepts the closure must equal
 * the one from scratch -- also after undoing its siblings' edges. */
typedef struct {
    int n, depth, ncand;
    int cand[6][3][2];
    closure c;
    rel acc, want;
    int nodes, refused;
} acyclic_walk;

static bool loop_by_hand(acyclic_walk *w)
{
    closure_by_hand(&w->acc, &w->want, w->n);
    for (int i = 0; i < w->n; i++)
        if (rel_has(&w->want, i, i))
            return true;
    return false;
}

static void walk_acyclic(acyclic_walk *w, int level)
{
    if (level == w->depth)
        return;
    int mark = closure_mark(&w->c);
    for (int k = 0; k < w->ncand; k++) {
        int a = w->cand[level][k][0], b = w->cand[level][k][1];
        bool had = rel_has(&w->acc, a, b);
        rel_add(&w->acc, a, b);
        bool ok = closure_add_acyclic(&w->c, a, b);
        w->nodes++;
        w->refused += !ok;
        CU_ASSERT_EQUAL(ok, !loop_by_hand(w));
        if (ok) {
            CU_ASSERT_TRUE(same_rel(w->c.closed, &w->want, w->n));
            walk_acyclic(w, level + 1);
        }
        if (!had)
            w->acc.row[a].w[b / 64] &= ~(1ull << (b % 64));
        closure_undo(&w->c, mark);
        closure_by_hand(&w->acc, &w->want, w->n);
        CU_ASSERT_TRUE(same_rel(w->c.closed, &w->want, w->n));
    }
}

static void test_closure_add_acyclic(void)
{
    static const int sizes[] = {4, 12, 40, 100};
    static acyclic_walk w;
    int refused = 0, nodes = 0;
    for (int si = 0; si < 4; si++)
        for (int seed = 1; seed <= 3; seed++) {
            int n = sizes[si];
            rng_state = (unsigned long)(seed * 104723 + n);
            rel_begin(n);
            memset(&w, 0, sizeof w);
            w.n = n;
            w.depth = 5;
            w.ncand = 3;
            rel *base = rel_new(), *store = rel_new();
            for (int e = 0; e < n; e++) {
                int a = (int)rnd((unsigned)n), b = (int)rnd((unsigned)n);
                if (a < b)
                    rel_add(base, a, b); /* forward only: acyclic, like dep */
            }
            /* Candidate edges in both directions, as reads-from is. */
            for (int l = 0; l < w.depth; l++)
                for (int k = 0; k < w.ncand; k++) {
                    w.cand[l][k][0] = (int)rnd((unsigned)n);
                    w.cand[l][k][1] = (int)rnd((unsigned)n);
                }
            w.acc = *base;
            closure_start(&w.c, store, base);
            walk_acyclic(&w, 0);
            closure_free(&w.c);
            refused += w.refused;
            nodes += w.nodes;
        }
    /* Both answers occur: the walk tests the refusal and the additions. */
    CU_ASSERT_TRUE(refused > 0 && refused < nodes);
}

/* plus() of a dense relation is remembered, and a later plus() of a superset
 * with a few more edges starts from it: the result must be the closure. */
static void test_plus_from_remembered(void)
{
    for (int seed = 1; seed <= 6; seed++) {
        int n = seed % 2 ? 50 : 100;
        rng_state = (unsigned long)seed * 104729ul;
        rel_begin(n);
        rel *a = rel_new(), *want = rel_new();
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (rnd(4) == 0)
                    rel_add(a, i, j);
        closure_by_hand(a, want, n);
        CU_ASSERT_TRUE(same_rel(plus(a), want, n));
        for (int round = 0; round < 5; round++) {
            rel *b = rel_new();
            *b = *a;
            for (int k = 0; k < 1 + round; k++) {
                int x = (int)rnd((unsigned)n), y = (int)rnd((unsigned)n);
                if (seed < 4 && x >= y)
                    continue; /* later seeds add back edges: cycles */
                rel_add(b, x, y);
            }
            closure_by_hand(b, want, n);
            CU_ASSERT_TRUE(same_rel(plus(b), want, n));
            a = b;
        }
    }
}

/* [s] ; r and r ; [s]: the same with id()'s relation (known diagonal) and
 * with a diagonal built by hand. */
static void test_seq_with_identity(void)
{
    rng_state = 99;
    int n = 70;
    rel_begin(n);
    rel *r = rel_new(), *d = rel_new();
    set s = set_empty();
    for (int i = 0; i < n; i++) {
        if (rnd(2))
            set_add(&s, i), rel_add(d, i, i);
        for (int j = 0; j < n; j++)
            if (rnd(5) == 0)
                rel_add(r, i, j);
    }
    CU_ASSERT_TRUE(same_rel(S(r, id(s)), S(r, d), n));
    CU_ASSERT_TRUE(same_rel(S(id(s), r), S(d, r), n));
    CU_ASSERT_TRUE(same_rel(S(r, id(s)), restr(set_all(), r, s), n));
}

void add_rel_tests(void)
{
    CU_pSuite s = CU_add_suite("relation algebra", NULL, NULL);
    CU_add_test(s, "transitive closure", test_closure);
    CU_add_test(s, "cycles", test_cycle);
    CU_add_test(s, "sequence, inverse, difference", test_seq_inv);
    CU_add_test(s, "sets and restriction", test_sets);
    CU_add_test(s, "more than 64 events", test_wide);
    CU_add_test(s, "incremental closure with undo", test_closure_incremental);
    CU_add_test(s, "incremental closure refuses the edges that close a cycle", test_closure_add_acyclic);
    CU_add_test(s, "closure from a remembered subset", test_plus_from_remembered);
    CU_add_test(s, "sequence with an identity", test_seq_with_identity);
}
