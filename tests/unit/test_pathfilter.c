/* The path filter (sim/pathfilter.c) and the search's coherence pruning:
 * what they drop, and -- as important -- what they must keep. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "../../sim/explore.h"
#include "../../lit/parse.h"
#include "../../sim/pathfilter.h"
#include "unit.h"

typedef struct {
    test *t;
    thread_paths tp[8];
    int before[8];
    int dropped;
} filtered;

static void filter(const char *text, filtered *f)
{
    diag d = {0};
    memset(f, 0, sizeof *f);
    f->t = lit_parse("f.lit", text, &d);
    if (!f->t)
        fprintf(stderr, "%s", d.msg);
    diag_free(&d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->t);
    CU_ASSERT_FATAL(f->t->nthreads <= 8);
    char err[512];
    for (int th = 0; th < f->t->nthreads; th++) {
        CU_ASSERT_EQUAL_FATAL(symexec_thread(f->t, th, &f->tp[th], err, sizeof err), 0);
        f->before[th] = f->tp[th].n;
    }
    f->dropped = pathfilter(f->t, f->tp);
}

static void filtered_free(filtered *f)
{
    for (int th = 0; th < f->t->nthreads; th++)
        thread_paths_free(&f->tp[th]);
    test_free(f->t);
}

static explore_result explore_text(const char *text, const model *m, int jobs, test **out)
{
    diag d = {0};
    test *t = lit_parse("f.lit", text, &d);
    diag_free(&d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    explore_result r;
    memset(&r, 0, sizeof r);
    explore_opts o = {.models = {m}, .nmodels = 1, .jobs = jobs};
    CU_ASSERT_EQUAL(explore(t, &o, &r), 0);
    *out = t;
    return r;
}

/* A consumer polls a flag, then acquires it with a CAS (K3's pattern). */
#define POLL_THEN_CAS                                                                  \
    "test poll then cas\nmemory { f: i32\n d: i32 }\n"                                 \
    "thread P @gpu0.wg0 { st d, 42; atom.exch.release.agent f, 1 }\n"                 \
    "thread C @gpu0.wg1 { await ld.relaxed.agent f == 1\n"                             \
    "  r = atom.cas.acquire.agent f, 1, 1\n  v = ld d }\n"

static void test_cas_after_poll(void)
{
    filtered f;
    filter(POLL_THEN_CAS "forall (C:v == 42)\n", &f);
    /* C: CAS succeeds, CAS fails, await hangs.  Only 1 can be written, and P
     * always writes it: the failing CAS (it would read 0 after the poll read
     * 1) and the hang (the last value is 1) are both impossible. */
    CU_ASSERT_EQUAL(f.before[1], 3);
    CU_ASSERT_EQUAL(f.tp[1].n, 1);
    CU_ASSERT_EQUAL(f.dropped, 2);
    filtered_free(&f);
    test *t;
    explore_result r = explore_text(POLL_THEN_CAS "forall (C:v == 42)\n", &model_src11, 1, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    CU_ASSERT_EQUAL(r.mr[0].hangs, 0);
    explore_result_free(&r);
    test_free(t);
}

static void test_cas_failure_kept(void)
{
    /* A third thread can write 2: now the CAS can fail after the poll, and
     * the await can hang (2 last).  Nothing may be dropped. */
    const char *text = POLL_THEN_CAS "thread Q @gpu0.wg2 { atom.exch.relaxed.agent f, 2 }\n"
                                     "exists (C:r == 2)\n";
    filtered f;
    filter(text, &f);
    CU_ASSERT_EQUAL(f.dropped, 0);
    CU_ASSERT_EQUAL(f.tp[1].n, 3);
    filtered_free(&f);
    test *t;
    explore_result r = explore_text(text, &model_src11, 1, &t);
    CU_ASSERT_TRUE(r.mr[0].positive > 0); /* (and a race on d when the CAS fails) */
    CU_ASSERT_TRUE(r.mr[0].hangs > 0);
    explore_result_free(&r);
    test_free(t);
}

static void test_unreachable_branch(void)
{
    /* Nobody writes 5: the branch's path goes; with a writer of 5 it stays. */
    filtered f;
    filter("test br\nmemory { x: i32\n y: i32 }\n"
           "thread A @gpu0.wg0 { st.relaxed.agent x, 1 }\n"
           "thread B @gpu0.wg1 { r = ld.relaxed.agent x; if r == 5 { st y, 1 } }\n"
           "exists (y == 1)\n",
           &f);
    CU_ASSERT_EQUAL(f.before[1], 2);
    CU_ASSERT_EQUAL(f.tp[1].n, 1);
    filtered_free(&f);
    filter("test br\nmemory { x: i32\n y: i32 }\n"
           "thread A @gpu0.wg0 { r0 = ld.relaxed.agent y; st.relaxed.agent x, r0 + 5 }\n"
           "thread B @gpu0.wg1 { r = ld.relaxed.agent x; if r == 5 { st y, 1 } }\n"
           "exists (y == 1)\n",
           &f);
    CU_ASSERT_EQUAL(f.dropped, 0); /* A's value is not known without the search */
    filtered_free(&f);
}

static void test_hang_behind_barrier_kept(void)
{
    /* P0 writes the flag only after a barrier that its workgroup peer P1 never
     * reaches when P1's own await hangs: C's hang is then possible, so the
     * filter may not count P0 as always writing the flag. */
    const char *text = "test cut\nmemory { f: i32\n g: i32 }\n"
                       "thread P0 @gpu0.wg0 { barrier; st.relaxed.agent f, 1 }\n"
                       "thread P1 @gpu0.wg0 { await ld.relaxed.agent g == 1; barrier }\n"
                       "thread C @gpu0.wg1 { await ld.relaxed.agent f == 1 }\n"
                       "exists (f == 1)\n";
    filtered f;
    filter(text, &f);
    CU_ASSERT_EQUAL(f.tp[2].n, 2); /* C: success and hang */
    filtered_free(&f);
    test *t;
    explore_result r = explore_text(text, &model_src11, 1, &t);
    CU_ASSERT_TRUE(r.mr[0].hangs > 0);
    explore_result_free(&r);
    test_free(t);
}

static void test_read_read_coherence_pruned(void)
{
    /* Two relaxed reads of x after a write of 1: (1, 0) breaks read-read
     * coherence in every model, and the search now drops it before it
     * becomes a candidate. */
    const char *text = "test corr\nmemory { x: i32 }\n"
                       "thread A @gpu0.wg0 { st.relaxed.agent x, 1 }\n"
                       "thread B @gpu0.wg1 { r0 = ld.relaxed.agent x; r1 = ld.relaxed.agent x }\n"
                       "exists (B:r0 == 1 && B:r1 == 0)\n";
    const model *ms[] = {&model_src11, &model_ptx, &model_sc, &model_vulkan};
    for (int m = 0; m < 4; m++) {
        test *t;
        explore_result r = explore_text(text, ms[m], 1, &t);
        CU_ASSERT_EQUAL(r.mr[0].consistent, 3);
        CU_ASSERT_EQUAL(r.candidates, 3);
        CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_FORBIDDEN);
        explore_result_free(&r);
        test_free(t);
    }
}

static void test_races_same_under_jobs(void)
{
    /* Which execution represents a race must not depend on the workers. */
    const char *text = "test m\nmemory { lock: i32 }\n"
                       "thread P0 @gpu0.wg0 { r0 = atom.cas.acquire.wg lock, 0, 1 }\n"
                       "thread P1 @gpu0.wg1 { r0 = atom.cas.acquire.wg lock, 0, 1 }\n"
                       "exists (P0:r0 == 0 && P1:r0 == 0)\n";
    test *t;
    explore_result one = explore_text(text, &model_src11, 1, &t);
    CU_ASSERT_EQUAL_FATAL(one.mr[0].nraces, 1);
    for (int i = 0; i < 8; i++) {
        test *t2;
        explore_result two = explore_text(text, &model_src11, 2, &t2);
        CU_ASSERT_EQUAL_FATAL(two.mr[0].nraces, 1);
        CU_ASSERT_EQUAL(two.mr[0].races[0].ea.ord, one.mr[0].races[0].ea.ord);
        CU_ASSERT_EQUAL(two.mr[0].races[0].eb.ord, one.mr[0].races[0].eb.ord);
        explore_result_free(&two);
        test_free(t2);
    }
    explore_result_free(&one);
    test_free(t);
}

/* Four threads of three paths each: 81 combinations, which workers claim whole under -j 2 and -j 4 (each
   builds only its own). What memsim reports -- outcomes, counts, races and the witness drawn -- must be
   what -j 1 reports: the keys that pick them number units within their combination. */
static void test_whole_combinations_same_under_jobs(void)
{
    const char *text = "test many\nmemory { x: i32\n y: i32\n z: i32 }\n"
                       "thread W @gpu0.wg0 { st x, 1; st x, 2 }\n"
                       "thread A @gpu0.wg1 { r = ld x; if r == 1 { st y, 1 } else { if r == 2 { st z, 1 } } }\n"
                       "thread B @gpu0.wg2 { r = ld x; if r == 1 { st z, 2 } else { if r == 2 { st y, 2 } } }\n"
                       "thread C @gpu0.wg3 { r = ld x; if r == 2 { q = ld y } else { if r == 1 { q = ld z } } }\n"
                       "thread D @gpu0.wg4 { r = ld x; if r == 1 { q = ld y } else { if r == 2 { q = ld z } } }\n"
                       "exists (C:q == 2 && D:q == 1)\n";
    test *t;
    explore_result one = explore_text(text, &model_src11, 1, &t);
    CU_ASSERT_TRUE(one.mr[0].nraces > 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one.mr[0].witness);
    for (int jobs = 2; jobs <= 4; jobs += 2)
        for (int rep = 0; rep < 4; rep++) {
            test *t2;
            explore_result r = explore_text(text, &model_src11, jobs, &t2);
            const model_result *a = &one.mr[0], *b = &r.mr[0];
            CU_ASSERT_EQUAL(b->nouts, a->nouts);
            CU_ASSERT_EQUAL(b->consistent, a->consistent);
            CU_ASSERT_EQUAL(b->nraces, a->nraces);
            for (int i = 0; i < a->nouts && i < b->nouts; i++) {
                CU_ASSERT_EQUAL(b->outs[i].count, a->outs[i].count);
                CU_ASSERT_EQUAL(memcmp(b->outs[i].vals, a->outs[i].vals, (size_t)one.nshow * sizeof *a->outs[i].vals), 0);
            }
            for (int i = 0; i < a->nraces && i < b->nraces; i++) {
                CU_ASSERT_EQUAL(b->races[i].ta, a->races[i].ta);
                CU_ASSERT_EQUAL(b->races[i].tb, a->races[i].tb);
                /* each run parses its own test: the instructions by their place in the file */
                CU_ASSERT_EQUAL(b->races[i].a->pos.line, a->races[i].a->pos.line);
                CU_ASSERT_EQUAL(b->races[i].a->pos.col, a->races[i].a->pos.col);
                CU_ASSERT_EQUAL(b->races[i].b->pos.col, a->races[i].b->pos.col);
                CU_ASSERT_EQUAL(b->races[i].b->pos.line, a->races[i].b->pos.line);
            }
            CU_ASSERT_PTR_NOT_NULL_FATAL(b->witness);
            CU_ASSERT_EQUAL(b->witness->n, a->witness->n);
            for (int k = 0; k < a->witness->n && k < b->witness->n; k++)
                CU_ASSERT_EQUAL(b->witness->ev[k].value, a->witness->ev[k].value);
            explore_result_free(&r);
            test_free(t2);
        }
    explore_result_free(&one);
    test_free(t);
}

static void test_await_at_least(void)
{
    /* Spin until the counter reaches 2 (Iris's epoch barrier: flags >= target).
     * With two adds it does; with one the wait hangs, reading the last 1; an
     * i8 counter wraps like int8_t. */
    const char *two = "test ge\nmemory { n: i32\n d: i32 }\n"
                      "thread A @gpu0.wg0 { st d, 1; atom.add.release.agent n, 1 }\n"
                      "thread B @gpu0.wg1 { atom.add.release.agent n, 1 }\n"
                      "thread C @gpu0.wg2 { await ld.acquire.agent n >= 2; v = ld d }\n"
                      "forall (C:v == 1)\n";
    test *t;
    explore_result r = explore_text(two, &model_src11, 1, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    CU_ASSERT_EQUAL(r.mr[0].hangs, 0);
    explore_result_free(&r);
    test_free(t);
    const char *one = "test ge1\nmemory { n: i32 }\n"
                      "thread A @gpu0.wg0 { atom.add.release.agent n, 1 }\n"
                      "thread C @gpu0.wg2 { await ld.acquire.agent n > 1 }\n"
                      "exists (n == 1)\n";
    r = explore_text(one, &model_src11, 1, &t);
    CU_ASSERT_EQUAL(r.mr[0].hangs, r.mr[0].consistent);
    CU_ASSERT_TRUE(r.mr[0].hangs > 0);
    explore_result_free(&r);
    test_free(t);
    const char *wrap = "test i8\nmemory { c: i8 = 127 }\n"
                       "thread A @gpu0.wg0 { r = atom.add.relaxed.agent c, 1 }\n"
                       "forall (c == -128 && A:r == 127)\n";
    r = explore_text(wrap, &model_src11, 1, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    explore_result_free(&r);
    test_free(t);
}

/* Iris's epoch barrier (K8a) at 3 ranks: an add of 1 to my counter, then a
 * CAS spin on each peer's counter from the target to itself. */
#define EPOCH_BARRIER(SCOPE)                                                                     \
    "test epoch\nconst R = 3\nheap {\n  ranks R; size 4096; hipExtMallocWithFlags(fine)\n"      \
    "  flags: i32[R]\n  data: i32\n  seen: i32[R]\n}\n"                                          \
    "thread T for r in 0..R @gpu(r).wg0 {\n  st data, 42\n"                                      \
    "  old = atom.add.release." SCOPE " flags[r], 1\n  tgt = old + 1\n"                          \
    "  for p in 0..R {\n    if p != r { await atom.cas.acquire." SCOPE " flags@p[p], tgt, tgt >= tgt }\n  }\n" \
    "  for p in 0..R {\n    v = ld data@p\n    st seen[p], v\n  }\n}\n"                           \
    "forall (all q in 0..R: (all p in 0..R: seen@q[p] == 42))\n"

static void test_epoch_counters(void)
{
    /* Per rank and peer: the CAS succeeds, fails because the peer is ahead
     * (> target), or the spin hangs: 7 paths.  The counters only hold 0 and
     * 1 (one add each, CASes that write what they compared with), so the
     * epoch is 1, nobody is ahead, and the peer's add always comes: one
     * path is left per rank. */
    filtered f;
    filter(EPOCH_BARRIER("sys"), &f);
    for (int th = 0; th < 3; th++) {
        CU_ASSERT_EQUAL(f.before[th], 7);
        CU_ASSERT_EQUAL(f.tp[th].n, 1);
    }
    filtered_free(&f);
    test *t;
    explore_result r = explore_text(EPOCH_BARRIER("sys"), &model_src11, 1, &t);
    CU_ASSERT_EQUAL(result_verdict(t, &r.mr[0]), V_HOLDS);
    CU_ASSERT_EQUAL(r.mr[0].consistent, 8);
    CU_ASSERT_EQUAL(r.mr[0].hangs, 0);
    explore_result_free(&r);
    test_free(t);
}

static void test_epoch_counters_kept(void)
{
    /* At workgroup scope across GPUs the RMWs are not morally strong with each
     * other: no atomicity, so the last value is not the sum of the adds and
     * the hangs stay (the values still bound the epoch: no peer is ahead). */
    filtered f;
    filter(EPOCH_BARRIER("wg"), &f);
    for (int th = 0; th < 3; th++)
        CU_ASSERT_EQUAL(f.tp[th].n, 3);   /* both succeed; hang at either peer */
    filtered_free(&f);
    /* A second add per rank (a second epoch): counters reach 2, a CAS for
     * target 1 may find its peer ahead, and nothing above may be dropped
     * for that reason. */
    const char *two = "test ahead\nmemory { n: i32\n m: i32 }\n"
                      "thread A @gpu0.wg0 { atom.add.release.sys n, 1; atom.add.release.sys n, 1 }\n"
                      "thread C @gpu0.wg1 { await atom.cas.acquire.sys n, 1, 1 >= 1; st m, 1 }\n"
                      "exists (m == 1)\n";
    filter(two, &f);
    CU_ASSERT_EQUAL(f.tp[1].n, 2);   /* CAS succeeds on 1, fails on 2; the hang goes (last value 2) */
    filtered_free(&f);
    /* An add behind a barrier a peer may never reach: the hang stays. */
    const char *cut = "test cutadd\nmemory { n: i32\n g: i32 }\n"
                      "thread P0 @gpu0.wg0 { barrier; atom.add.relaxed.sys n, 1 }\n"
                      "thread P1 @gpu0.wg0 { await ld.relaxed.agent g == 1; barrier }\n"
                      "thread C @gpu0.wg1 { await atom.cas.relaxed.sys n, 1, 1 >= 1 }\n"
                      "exists (n == 1)\n";
    filter(cut, &f);
    CU_ASSERT_EQUAL(f.tp[2].n, 2);   /* C: succeeds, hangs */
    filtered_free(&f);
    test *t;
    explore_result r = explore_text(cut, &model_src11, 1, &t);
    CU_ASSERT_TRUE(r.mr[0].hangs > 0);
    explore_result_free(&r);
    test_free(t);
}

void add_pathfilter_tests(void)
{
    CU_pSuite s = CU_add_suite("pathfilter", NULL, NULL);
    CU_add_test(s, "a CAS after a poll", test_cas_after_poll);
    CU_add_test(s, "a CAS that can fail is kept", test_cas_failure_kept);
    CU_add_test(s, "branches on values nobody writes", test_unreachable_branch);
    CU_add_test(s, "a hang behind a barrier is kept", test_hang_behind_barrier_kept);
    CU_add_test(s, "read-read coherence in the search", test_read_read_coherence_pruned);
    CU_add_test(s, "race reports under -j", test_races_same_under_jobs);
    CU_add_test(s, "whole combinations under -j", test_whole_combinations_same_under_jobs);
    CU_add_test(s, "await >= and i8 values", test_await_at_least);
    CU_add_test(s, "epoch counters hold few values", test_epoch_counters);
    CU_add_test(s, "counters that may go further are kept", test_epoch_counters_kept);
}
