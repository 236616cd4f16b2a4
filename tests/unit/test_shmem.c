/* SHMEM device calls (lit/parse_shmem.c): what each call desugars to, the
 * errors a wrong call gets (with file:line:col), and what each call does
 * when explored; the co-residency launch flag. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lit/parse.h"
#include "../../sim/diagnose.h"
#include "../../sim/explore.h"
#include "unit.h"

#define HEAP "test t\nheap { ranks 3; fine\n x: i32[4] = 0\n s: u64 = 0\n y: i64 = 0 }\n"

static test *parse_ok(const char *text)
{
    diag d = {0};
    test *t = lit_parse("t.lit", text, &d);
    if (!t)
        fprintf(stderr, "\n%s", d.msg);
    diag_free(&d);
    return t;
}

/* The first statement of thread 0 of HEAP + "thread P @gpu0.wg0 { BODY }". */
static test *one(const char *body)
{
    char text[1024];
    snprintf(text, sizeof text, HEAP "thread P @gpu0.wg0 {\n%s\n}\n", body);
    return parse_ok(text);
}

static const inst *first(const test *t) { return &t->threads[0].code.v[0]; }

static void test_desugar_rma(void)
{
    test *t = one("nvshmem_int_p(x[1], 5, 2)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const inst *in = first(t);
    CU_ASSERT_EQUAL(in->kind, I_ST);
    CU_ASSERT_EQUAL(in->ord, ORD_RELAXED);
    CU_ASSERT_EQUAL(in->scope, SCOPE_SYS);
    CU_ASSERT_EQUAL(in->shmem_role, SHM_PUT);
    CU_ASSERT_EQUAL(in->mem.peer->value, 2);
    CU_ASSERT_EQUAL_FATAL(t->nshmem_calls, 1);
    CU_ASSERT_STRING_EQUAL(t->shmem_calls[in->shmem - 1].name, "nvshmem_int_p");
    CU_ASSERT_EQUAL(t->shmem_calls[0].pos.line, 7);
    test_free(t);

    t = one("nvshmem_int_put_nbi(x[1], x[0], 2, 1)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    in = first(t);
    CU_ASSERT_EQUAL(in->kind, I_FOR);
    CU_ASSERT_EQUAL(in->val->kind, EX_CONST);
    CU_ASSERT_EQUAL(in->val2->value, 2);
    CU_ASSERT_EQUAL_FATAL(in->body.n, 2);
    CU_ASSERT_EQUAL(in->body.v[0].kind, I_LD);
    CU_ASSERT_EQUAL(in->body.v[0].shmem_role, SHM_SOURCE);
    CU_ASSERT_EQUAL(in->body.v[1].kind, I_ST);
    CU_ASSERT_EQUAL(in->body.v[1].shmem_role, SHM_PUT);
    test_free(t);

    /* The block form: this thread's round-robin share of the range. */
    t = one("nvshmemx_int_put_nbi_block(x, x[2], 2, 1)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    in = first(t);
    CU_ASSERT_EQUAL(in->val->kind, EX_GROUP);
    CU_ASSERT_EQUAL(in->val->value, GROUP_WG_RANK);
    CU_ASSERT_EQUAL(in->want->kind, EX_GROUP);
    CU_ASSERT_EQUAL(in->want->value, GROUP_WG_SIZE);
    test_free(t);

    t = one("rocshmem_int_get_wave(x, x[2], 2, 1)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    in = first(t);
    CU_ASSERT_EQUAL(in->val->value, GROUP_WAVE_RANK);
    CU_ASSERT_EQUAL(in->body.v[0].kind, I_LD);
    CU_ASSERT_EQUAL(in->body.v[0].ord, ORD_RELAXED);
    CU_ASSERT_EQUAL(in->body.v[0].shmem_role, SHM_GET);
    CU_ASSERT_EQUAL(in->body.v[1].ord, ORD_PLAIN);
    test_free(t);

    /* putmem counts bytes: 8 bytes of i32 are 2 elements. */
    t = one("nvshmem_putmem(x, x[2], 8, 1)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(first(t)->val2->kind, EX_BIN);
    CU_ASSERT_EQUAL(first(t)->val2->op, BIN_DIV);
    test_free(t);
}

static void test_desugar_amo_and_sync(void)
{
    struct {
        const char *body;
        instkind_t kind;
        rmwop_t rmw;
        order_t ord;
        int role;
    } cases[] = {
        {"nvshmem_uint64_atomic_inc(s, 1)", I_RMW, RMW_ADD, ORD_RELAXED, SHM_AMO},
        {"r = nvshmem_long_atomic_fetch_add(y, 3, 1)", I_RMW, RMW_ADD, ORD_RELAXED, SHM_AMO},
        {"nvshmem_int_atomic_set(x, 3, 1)", I_RMW, RMW_EXCH, ORD_RELAXED, SHM_AMO},
        {"r = nvshmem_int_atomic_swap(x, 3, 1)", I_RMW, RMW_EXCH, ORD_RELAXED, SHM_AMO},
        {"nvshmem_int_atomic_xor(x, 3, 1)", I_RMW, RMW_XOR, ORD_RELAXED, SHM_AMO},
        {"r = nvshmem_int_atomic_compare_swap(x, 0, 1, 1)", I_RMW, RMW_CAS, ORD_RELAXED, SHM_AMO},
        {"r = nvshmem_int_atomic_fetch(x, 1)", I_LD, RMW_ADD, ORD_RELAXED, SHM_AMO},
        {"r = nvshmem_int_g(x[3], 1)", I_LD, RMW_ADD, ORD_RELAXED, SHM_GET},
        {"nvshmem_fence()", I_FENCE, RMW_ADD, ORD_RELEASE, SHM_FENCE},
        {"nvshmem_quiet()", I_FENCE, RMW_ADD, ORD_ACQ_REL, SHM_QUIET},
        {"nvshmem_signal_op(s, 1, NVSHMEM_SIGNAL_SET, 1)", I_RMW, RMW_EXCH, ORD_RELAXED, SHM_SIGNAL},
        {"shmem_signal_op(s, 2, SHMEM_SIGNAL_ADD, 1)", I_RMW, RMW_ADD, ORD_RELAXED, SHM_SIGNAL},
        {"nvshmem_int_wait_until(x, NVSHMEM_CMP_GT, 2)", I_AWAIT, RMW_ADD, ORD_ACQUIRE, SHM_WAIT},
        {"r = nvshmem_signal_wait_until(s, NVSHMEM_CMP_NE, 0)", I_AWAIT, RMW_ADD, ORD_ACQUIRE, SHM_WAIT},
        {"r = nvshmem_int_wait_until_any(x, 4, NULL, NVSHMEM_CMP_EQ, 1)", I_AWAIT, RMW_ADD, ORD_ACQUIRE, SHM_WAIT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test *t = one(cases[i].body);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        const inst *in = first(t);
        if (in->kind != cases[i].kind || in->ord != cases[i].ord || in->shmem_role != cases[i].role)
            fprintf(stderr, "\ncase %zu (%s): kind %d ord %d role %d\n", i, cases[i].body, in->kind, in->ord,
                    in->shmem_role);
        CU_ASSERT_EQUAL(in->kind, cases[i].kind);
        CU_ASSERT_EQUAL(in->ord, cases[i].ord);
        CU_ASSERT_EQUAL(in->shmem_role, cases[i].role);
        if (in->kind == I_RMW)
            CU_ASSERT_EQUAL(in->rmw, cases[i].rmw);
        if (in->kind != I_FENCE)
            CU_ASSERT_EQUAL(in->scope, SCOPE_SYS);
        test_free(t);
    }
    /* Every comparison. */
    const char *cmps[] = {"EQ", "NE", "GT", "GE", "LT", "LE"};
    binop_t ops[] = {BIN_EQ, BIN_NE, BIN_GT, BIN_GE, BIN_LT, BIN_LE};
    for (int i = 0; i < 6; i++) {
        char body[128];
        snprintf(body, sizeof body, "rocshmem_int_wait_until(x, ROCSHMEM_CMP_%s, 1)", cmps[i]);
        test *t = one(body);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT_EQUAL(first(t)->await_op, ops[i]);
        test_free(t);
    }
    /* barrier_all: a quiet, then a counter every caller adds to and awaits. */
    test *t = one("nvshmem_barrier_all()");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const block *b = &t->threads[0].code;
    CU_ASSERT_EQUAL_FATAL(b->n, 4);
    CU_ASSERT_EQUAL(b->v[0].shmem_role, SHM_QUIET);
    CU_ASSERT_EQUAL(b->v[2].kind, I_RMW);
    CU_ASSERT_EQUAL(b->v[3].kind, I_AWAIT);
    CU_ASSERT_STRING_EQUAL(t->locs[b->v[2].mem.loc].name, "__shmem_barrier_all");
    test_free(t);
    /* put_signal: the data, then the signal as a release. */
    t = one("nvshmem_int_put_signal_nbi(x, x[1], 2, s, 1, NVSHMEM_SIGNAL_ADD, 1)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    b = &t->threads[0].code;
    CU_ASSERT_EQUAL_FATAL(b->n, 2);
    CU_ASSERT_EQUAL(b->v[0].kind, I_FOR);
    CU_ASSERT_EQUAL(b->v[1].kind, I_RMW);
    CU_ASSERT_EQUAL(b->v[1].ord, ORD_RELEASE);
    CU_ASSERT_EQUAL(b->v[1].shmem_role, SHM_SIGNAL);
    test_free(t);
    /* The launch flag. */
    t = parse_ok(HEAP "kernel K @gpu0 launch normal\nkernel L @gpu1 launch collective\n"
                      "thread P @gpu0.wg0 in K { nvshmem_quiet() }\nthread Q @gpu1.wg0 in L { nvshmem_quiet() }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_TRUE(t->kernels[0].not_coresident);
    CU_ASSERT_FALSE(t->kernels[1].not_coresident);
    test_free(t);
}

static void test_errors(void)
{
    struct {
        const char *body, *want;
    } bad[] = {
        {"nvshmem_int_frob(x, 1)", "t.lit:7:1: error: unknown SHMEM call 'nvshmem_int_frob'"},
        {"nvshmem_long_p(x, 1, 1)", "t.lit:7:16: error: nvshmem_long_p: its type has 8 bytes, but 'x' has 4-byte"},
        {"nvshmem_int_p(x@1, 1, 1)", "t.lit:7:15: error: nvshmem_int_p: write the destination as the calling PE names it"},
        {"r = 1; nvshmem_int_p(r, 1, 1)", "t.lit:7:22: error: nvshmem_int_p: the destination must be a variable of the symmetric heap"},
        {"nvshmem_int_wait_until(x, NVSHMEM_CMP_XX, 1)", "t.lit:7:27: error: nvshmem_int_wait_until: expected a comparison"},
        {"nvshmem_signal_op(s, 1, NVSHMEM_SIGNAL_OR, 1)", "t.lit:7:25: error: nvshmem_signal_op: expected the signal operation"},
        {"nvshmem_int_wait_until_all(x, 2, x, NVSHMEM_CMP_EQ, 1)", "status array is not supported: pass NULL"},
        {"nvshmem_int_atomic_inc_nbi(x, 1)", "only put, get and put_signal have a non-blocking (_nbi) form"},
        {"nvshmemx_int_atomic_inc_block(x, 1)", "only put, get and put_signal have block and warp forms"},
        {"r = nvshmem_quiet()", "t.lit:7:5: error: nvshmem_quiet returns nothing"},
        {"nvshmem_int_p(x, 1)", "t.lit:7:19: error: nvshmem_int_p: expected ',' and the next argument, found ')'"},
        {"nvshmem_putmem(x, x[1], 6, 1)", "6 bytes is not a whole number of 'x' elements (4 bytes)"},
        {"nvshmem_qiet()", "unknown SHMEM call 'nvshmem_qiet'"},
        {"nvshmem_foo_quiet()", "nvshmem_foo_quiet: 'quiet' takes no type name"},
        {"nvshmem_bogus_p(x, 1, 1)", "unknown type name 'bogus'"},
        {"nvshmemx_int_put_signal_warp(x, x, 1, s, 1, NVSHMEM_SIGNAL_SET, 1)", "warp form of put_signal is not supported"},
        {"nvshmem_int_put(x, x, 1, 1", "expected ')' to close the call"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, HEAP "thread P @gpu0.wg0 {\n%s\n}\n", bad[i].body);
        const char *msg = parse_error_of(text);
        CU_ASSERT_PTR_NOT_NULL(msg);
        if (!msg)
            continue;
        if (!strstr(msg, bad[i].want))
            fprintf(stderr, "\ncase %zu: wanted \"%s\" in:\n%s", i, bad[i].want, msg);
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, bad[i].want));
        CU_ASSERT_PTR_NOT_NULL(strchr(msg, '^'));
    }
    const char *msg = parse_error_of(HEAP "kernel K @gpu0 launch fast\nthread P @gpu0.wg0 in K { nvshmem_quiet() }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "t.lit:6:23: error: expected 'collective' or 'normal' after 'launch'"));
}

/* The verdict of text under model m (and its result, for the hang message). */
static verdict_t verdict_of(const char *text, const model *m, char *hang, size_t hangsz)
{
    test *t = parse_ok(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    explore_opts o = {.models = {m}, .nmodels = 1, .jobs = 1};
    explore_result r;
    CU_ASSERT_EQUAL_FATAL(explore(t, &o, &r), 0);
    verdict_t v = result_verdict(t, &r.mr[0]);
    if (hang)
        snprintf(hang, hangsz, "%s", r.mr[0].hang_msg);
    explore_result_free(&r);
    test_free(t);
    return v;
}

static void test_semantics(void)
{
    struct {
        const char *threads;
        verdict_t want;
    } cases[] = {
        /* g and atomic_fetch read the peer's value; fetch_add returns the old one. */
        {"thread P @gpu0.wg0 { r = nvshmem_int_g(x[2], 1); q = nvshmem_long_atomic_fetch_add(y, 5, 2) }\n"
         "thread Q @gpu1.wg0 { st.relaxed.sys x[2], 7 }\n"
         "forall ((P:r == 12 || P:r == 7) && P:q == 0 && y@2 == 5)\n",
         V_HOLDS},
        /* get copies the peer's elements into local memory. */
        {"thread P @gpu0.wg0 { nvshmem_int_get(x[0], x[1], 2, 1) }\n"
         "forall (x@0[0] == 11 && x@0[1] == 12)\n",
         V_HOLDS},
        /* compare_swap writes only on a match and returns the old value. */
        {"thread P @gpu0.wg0 { a = nvshmem_long_atomic_compare_swap(y, 0, 4, 1); b = nvshmem_long_atomic_compare_swap(y, 0, 9, 1) }\n"
         "forall (P:a == 0 && P:b == 4 && y@1 == 4)\n",
         V_HOLDS},
        /* wait_until_any returns the first index that satisfies the comparison. */
        {"thread P @gpu0.wg0 { i = nvshmem_int_wait_until_any(x, 4, NULL, NVSHMEM_CMP_GT, 10) }\n"
         "forall (P:i == 1)\n",
         V_HOLDS},
        /* wait_until_all waits for every element. */
        {"thread P @gpu0.wg0 { nvshmem_int_wait_until_all(x, 2, NULL, NVSHMEM_CMP_EQ, 1) }\n"
         "thread Q @gpu1.wg0 { nvshmem_int_p(x[0], 1, 0); nvshmem_int_p(x[1], 1, 0) }\n"
         "forall (x@0[0] == 1)\n",
         V_HOLDS},
        /* signal_wait_until returns the signal's value. */
        {"thread P @gpu0.wg0 { v = nvshmem_signal_wait_until(s, NVSHMEM_CMP_GE, 2) }\n"
         "thread Q @gpu1.wg0 { nvshmem_signal_op(s, 3, NVSHMEM_SIGNAL_ADD, 0) }\n"
         "forall (P:v == 3)\n",
         V_HOLDS},
        /* barrier_all completes puts and synchronizes every caller. */
        {"thread P @gpu0.wg0 { nvshmem_int_p(x[3], 9, 1); nvshmem_barrier_all() }\n"
         "thread Q @gpu1.wg0 { nvshmem_barrier_all(); v = ld x[3] }\n"
         "forall (Q:v == 9)\n",
         V_HOLDS},
        /* sync_all synchronizes but does not complete the put: the read races with it. */
        {"thread P @gpu0.wg0 { nvshmem_int_p(x[3], 9, 1); nvshmem_sync_all() }\n"
         "thread Q @gpu1.wg0 { nvshmem_sync_all(); v = ld x[3] }\n"
         "forall (Q:v == 9)\n",
         V_RACE},
        /* ... a quiet before it does. */
        {"thread P @gpu0.wg0 { nvshmem_int_p(x[3], 9, 1); nvshmem_quiet(); nvshmem_sync_all() }\n"
         "thread Q @gpu1.wg0 { nvshmem_sync_all(); v = ld x[3] }\n"
         "forall (Q:v == 9)\n",
         V_HOLDS},
        /* Two puts to one element without a fence arrive in either order. */
        {"thread P @gpu0.wg0 { nvshmem_int_p(x[3], 1, 1); nvshmem_int_p(x[3], 2, 1); nvshmem_quiet() }\n"
         "forall (x@1[3] == 2)\n",
         V_FAILS},
        /* A barrier_all that one caller skips never completes. */
        {"thread P @gpu0.wg0 { nvshmem_barrier_all(); nvshmem_barrier_all() }\n"
         "thread Q @gpu1.wg0 { nvshmem_barrier_all() }\n",
         V_HANG},
        /* wait_until on a value nobody writes hangs. */
        {"thread P @gpu0.wg0 { nvshmem_int_wait_until(x, NVSHMEM_CMP_LT, 0) }\n", V_HANG},
        /* fence orders puts to the same PE. */
        {"thread P @gpu0.wg0 { nvshmem_int_p(x, 5, 1); nvshmem_fence(); nvshmem_uint64_atomic_inc(s, 1) }\n"
         "thread Q @gpu1.wg0 { nvshmem_uint64_wait_until(s, NVSHMEM_CMP_EQ, 1); v = ld x }\n"
         "forall (Q:v == 5)\n",
         V_HOLDS},
        /* A block put split over the workgroup's two threads, then a barrier and a quiet. */
        {"thread P for t in 0..2 @gpu0.wg0 { nvshmemx_int_put_block(x, x[2], 2, 1); __syncthreads(); if t == 0 { nvshmem_quiet(); nvshmem_uint64_atomic_inc(s, 1) } }\n"
         "thread Q @gpu1.wg0 { nvshmem_uint64_wait_until(s, NVSHMEM_CMP_EQ, 1); a = ld x[0]; b = ld x[1] }\n"
         "forall (Q:a == 13 && Q:b == 14)\n",
         V_HOLDS},
        /* Without the quiet, the block's puts race with the reads. */
        {"thread P for t in 0..2 @gpu0.wg0 { nvshmemx_int_put_block(x, x[2], 2, 1); __syncthreads(); if t == 0 { nvshmem_uint64_atomic_inc(s, 1) } }\n"
         "thread Q @gpu1.wg0 { nvshmem_uint64_wait_until(s, NVSHMEM_CMP_EQ, 1); a = ld x[0]; b = ld x[1] }\n"
         "forall (Q:a == 13 && Q:b == 14)\n",
         V_RACE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "test t\nheap { ranks 3; fine\n x: i32[4] = {10, 11, 12, 13}\n s: u64 = 0\n y: i64 = 0 }\n%s",
                 cases[i].threads);
        /* The data of the block-put cases: x[2], x[3] hold 13 and 14 on gpu0. */
        if (strstr(cases[i].threads, "put_block"))
            snprintf(text, sizeof text, "test t\nheap { ranks 3; fine\n x: i32[4] = {0, 0, 13, 14}\n s: u64 = 0\n y: i64 = 0 }\n%s",
                     cases[i].threads);
        verdict_t v = verdict_of(text, &model_src11, NULL, 0);
        if (v != cases[i].want)
            fprintf(stderr, "\nsemantics case %zu: %s, wanted %s\n", i, verdict_name(v), verdict_name(cases[i].want));
        CU_ASSERT_EQUAL(v, cases[i].want);
    }
}

static const char *NORMAL =
    "test t\nheap { ranks 2; fine\n d: i32 = 0\n v: i32 = 42\n s: u64 = 0 }\n"
    "kernel K0 @gpu0 launch %s\nkernel K1 @gpu1 launch %s\n"
    "thread W0 @gpu0.wg0 in K0 { nvshmem_signal_wait_until(s, NVSHMEM_CMP_EQ, 1) }\n"
    "thread S0 @gpu0.wg1 in K0 { nvshmem_int_put_signal(d, v, 1, s, 1, NVSHMEM_SIGNAL_SET, 1) }\n"
    "thread W1 @gpu1.wg0 in K1 { nvshmem_signal_wait_until(s, NVSHMEM_CMP_EQ, 1) }\n"
    "thread S1 @gpu1.wg1 in K1 { nvshmem_int_put_signal(d, v, 1, s, 1, NVSHMEM_SIGNAL_SET, 0) }\n"
    "forall (d@0 == 42 && d@1 == 42)\n";

static void test_coresidency(void)
{
    char text[2048], hang[sizeof ((model_result *)0)->hang_msg];
    snprintf(text, sizeof text, NORMAL, "normal", "normal");
    CU_ASSERT_EQUAL(verdict_of(text, &model_ptx, hang, sizeof hang), V_HANG);
    CU_ASSERT_PTR_NOT_NULL(strstr(hang, "nvshmem_signal_wait_until keeps reading"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hang, "launch normal"));
    snprintf(text, sizeof text, NORMAL, "collective", "collective");
    CU_ASSERT_EQUAL(verdict_of(text, &model_ptx, NULL, 0), V_HOLDS);
    /* One normal kernel: its first block can always finish. */
    snprintf(text, sizeof text, NORMAL, "normal", "collective");
    CU_ASSERT_EQUAL(verdict_of(text, &model_ptx, NULL, 0), V_HOLDS);
}

/* Two normal kernels of 17 workgroups: 289 choices of first workgroups, more than memsim tries. It used to try
   the first 256 and report the rest as checked. */
static void test_too_many_schedules(void)
{
    char text[8192];
    int at = snprintf(text, sizeof text, "test t\nmemory { x: i32 }\nkernel K0 @gpu0 launch normal\nkernel K1 @gpu1 launch normal\n");
    for (int k = 0; k < 2; k++)
        for (int w = 0; w < 17; w++)
            at += snprintf(text + at, sizeof text - (size_t)at, "thread T%d_%d @gpu%d.wg%d in K%d { r = 1 }\n", k,
                           w, k, w, k);
    test *t = parse_ok(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    explore_opts o = {.models = {&model_ptx}, .nmodels = 1, .jobs = 1};
    explore_result r;
    CU_ASSERT_NOT_EQUAL(explore(t, &o, &r), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "give 289 choices of the workgroup each runs first"));
    explore_result_free(&r);
    test_free(t);
}

static void test_diagnoses(void)
{
    const char *text = "test t\nheap { ranks 3; fine\n x: i32 = 0\n s: u64 = 0 }\n"
                       "thread P @gpu0.wg0 {\n  nvshmem_int_p(x, 5, 1)\n  nvshmem_uint64_atomic_inc(s, 1)\n}\n"
                       "thread Q @gpu1.wg0 {\n  nvshmem_uint64_wait_until(s, NVSHMEM_CMP_EQ, 1)\n  v = ld x\n}\n"
                       "exists (Q:v != 5)\n";
    test *t = parse_ok(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    explore_opts o = {.models = {&model_src11}, .nmodels = 1, .jobs = 1};
    explore_result r;
    CU_ASSERT_EQUAL_FATAL(explore(t, &o, &r), 0);
    diagnosis dg;
    diagnose(t, &r.mr[0], &dg);
    bool found = false;
    for (int i = 0; i < dg.n; i++)
        found = found || strstr(dg.line[i], "nvshmem_int_p to x@1 at line 6 not completed by quiet before "
                                            "nvshmem_uint64_atomic_inc of s@1 (line 7)") != NULL;
    CU_ASSERT_TRUE(found);
    explore_result_free(&r);
    test_free(t);
}

void add_shmem_tests(void)
{
    CU_pSuite s = CU_add_suite("shmem", NULL, NULL);
    CU_add_test(s, "RMA calls desugar to relaxed stores and loads", test_desugar_rma);
    CU_add_test(s, "atomics, fence, quiet, barrier, signals, waits", test_desugar_amo_and_sync);
    CU_add_test(s, "error messages", test_errors);
    CU_add_test(s, "what each call does", test_semantics);
    CU_add_test(s, "normal and collective launches", test_coresidency);
    CU_add_test(s, "too many first workgroups is an error", test_too_many_schedules);
    CU_add_test(s, "diagnoses name the call", test_diagnoses);
}
