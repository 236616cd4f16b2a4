/* The .lit front end: the IR it builds and the errors it gives. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/condprint.h"
#include "../../lit/parse.h"
#include "unit.h"

static const char *EXAMPLE =
    "test MP+rel.sys+acq.sys\n"
    "memory {\n"
    "  data: i32 = 0 @gpu0 fine\n"
    "  flag: i32 = 0 @gpu0 fine\n"
    "}\n"
    "thread P0 @gpu0.wg0 {\n"
    "  st.relaxed.sys data, 42\n"
    "  st.release.sys flag, 1\n"
    "}\n"
    "thread P1 @gpu1.wg0 {\n"
    "  r0 = ld.acquire.sys flag\n"
    "  r1 = ld.relaxed.sys data\n"
    "}\n"
    "exists (P1:r0 == 1 && P1:r1 == 0)\n"
    "expect forbidden\n";

static test *parse(const char *text)
{
    diag d = {0};
    test *t = lit_parse("t.lit", text, &d);
    diag_free(&d);
    return t;
}

static char last_error[1024];

const char *parse_error_of(const char *text)
{
    diag d = {0};
    test *t = lit_parse("t.lit", text, &d);
    if (t) {
        test_free(t);
        return NULL;
    }
    snprintf(last_error, sizeof last_error, "%s", d.msg ? d.msg : "(no message)");
    diag_free(&d);
    return last_error;
}

static void test_example(void)
{
    test *t = parse(EXAMPLE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->name, "MP+rel.sys+acq.sys");
    CU_ASSERT_EQUAL(t->nlocs, 2);
    CU_ASSERT_EQUAL(t->nthreads, 2);
    CU_ASSERT_EQUAL(t->ngpus, 2);
    CU_ASSERT_EQUAL(t->nkernels, 2); /* one implicit kernel per GPU */
    const inst *st = &t->threads[0].code.v[1];
    CU_ASSERT_EQUAL(st->kind, I_ST);
    CU_ASSERT_EQUAL(st->ord, ORD_RELEASE);
    CU_ASSERT_EQUAL(st->scope, SCOPE_SYS);
    CU_ASSERT_EQUAL(st->mem.loc, 1);
    const inst *ld = &t->threads[1].code.v[0];
    CU_ASSERT_EQUAL(ld->kind, I_LD);
    CU_ASSERT_EQUAL(ld->ord, ORD_ACQUIRE);
    CU_ASSERT_EQUAL(ld->dst, 0);
    CU_ASSERT_EQUAL(t->threads[1].gpu, 1);
    CU_ASSERT_EQUAL(t->quant, Q_EXISTS);
    CU_ASSERT_EQUAL(t->cond->kind, C_AND);
    CU_ASSERT_EQUAL(t->nexpects, 1);
    CU_ASSERT_PTR_NULL(t->expects[0].model);
    CU_ASSERT_EQUAL(t->expects[0].verdict, V_FORBIDDEN);
    test_free(t);
}

static void test_aliases_and_defaults(void)
{
    test *t = parse("test aliases\n"
                    "memory { x: i32 ; y: u64 = 7 @gpu1 coarse; buf: i32[4] = {1,2,3,4} @host }\n"
                    "thread A @gpu0.cta3.warp1 {\n"
                    "  st.relaxed.gpu x, 1; st.release.cta y, 2; st.seq_cst.device x, 3; st.relaxed.workgroup x, 4\n"
                    "  r = atom.add x, 1\n"
                    "  s = atom.cas.acq_rel.warp x, 0, 1\n"
                    "  fence.sc.system\n"
                    "  q = ld.acquire x\n"
                    "  w = ld buf[r + 1]\n"
                    "}\n"
                    "~exists (0:r = 1 /\\ ~(A:s = 0) \\/ buf[3] == 4)\n"
                    "expect ptx: allowed\nexpect src11: forbidden\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const thread *A = &t->threads[0];
    CU_ASSERT_EQUAL(A->wg_label, 3);
    CU_ASSERT_EQUAL(A->wave, 1);
    CU_ASSERT_EQUAL(A->code.v[0].scope, SCOPE_AGENT);
    CU_ASSERT_EQUAL(A->code.v[1].scope, SCOPE_WG);
    CU_ASSERT_EQUAL(A->code.v[2].ord, ORD_SEQ_CST);
    CU_ASSERT_EQUAL(A->code.v[3].scope, SCOPE_WG);
    CU_ASSERT_EQUAL(A->code.v[4].kind, I_RMW);
    CU_ASSERT_EQUAL(A->code.v[4].ord, ORD_RELAXED); /* atom defaults: relaxed, sys */
    CU_ASSERT_EQUAL(A->code.v[4].scope, SCOPE_SYS);
    CU_ASSERT_EQUAL(A->code.v[5].rmw, RMW_CAS);
    CU_ASSERT_EQUAL(A->code.v[5].scope, SCOPE_WAVE);
    CU_ASSERT_PTR_NOT_NULL(A->code.v[5].val2);
    CU_ASSERT_EQUAL(A->code.v[6].kind, I_FENCE);
    CU_ASSERT_EQUAL(A->code.v[6].ord, ORD_SEQ_CST);
    CU_ASSERT_EQUAL(A->code.v[7].scope, SCOPE_SYS); /* order without scope: sys */
    CU_ASSERT_PTR_NOT_NULL(A->code.v[8].mem.index);
    CU_ASSERT_EQUAL(t->locs[1].home, 1);
    CU_ASSERT_EQUAL(t->locs[1].gran, GRAN_COARSE);
    CU_ASSERT_EQUAL(t->locs[1].init[0], 7);
    CU_ASSERT_EQUAL(t->locs[2].home, HOME_HOST);
    CU_ASSERT_EQUAL(t->locs[2].len, 4);
    CU_ASSERT_EQUAL(t->locs[2].init[3], 4);
    CU_ASSERT_EQUAL(t->ncells, 6);
    CU_ASSERT_EQUAL(t->quant, Q_NOT_EXISTS);
    CU_ASSERT_EQUAL(t->cond->kind, C_OR);
    CU_ASSERT_EQUAL(t->nexpects, 2);
    test_free(t);
}

static void test_allocators(void)
{
    test *t = parse("test alloc\nmemory {\n"
                    " a: i32 @gpu1 hipMalloc\n b: i32 @gpu0 hipExtMallocWithFlags(fine)\n c: i32 hipHostMalloc\n"
                    " d: i32 hipMallocManaged\n e: i32 malloc\n f: i32 hipHostMalloc(noncoherent)\n"
                    " g: i32 @gpu2 hipExtMallocWithFlags(coarse)\n}\n"
                    "thread P @gpu0.wg0 { st a, 1 }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->locs[0].gran, GRAN_COARSE);
    CU_ASSERT_EQUAL(t->locs[0].home, 1);
    CU_ASSERT_EQUAL(t->locs[1].gran, GRAN_FINE);
    CU_ASSERT_EQUAL(t->locs[2].home, HOME_HOST);
    CU_ASSERT_EQUAL(t->locs[2].gran, GRAN_FINE);
    CU_ASSERT_EQUAL(t->locs[3].gran, GRAN_FINE);
    CU_ASSERT_EQUAL(t->locs[4].home, HOME_HOST);
    CU_ASSERT_EQUAL(t->locs[5].gran, GRAN_COARSE);
    CU_ASSERT_EQUAL(t->locs[6].gran, GRAN_COARSE);
    CU_ASSERT_EQUAL(t->locs[6].home, 2);
    CU_ASSERT_EQUAL(t->ngpus, 3);
    test_free(t);
}

static void test_kernels(void)
{
    test *t = parse("test k\nmemory { x: i32 @gpu0 hipMalloc }\n"
                    "kernel K0 @gpu0\nkernel K1 @gpu1 after K0\n"
                    "thread P0 @gpu0.wg0 in K0 { st x, 1 }\n"
                    "thread P1 @gpu1.wg0 { r0 = ld x }\n"
                    "forall (P1:r0 == 1)\nexpect holds\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nkernels, 2);
    CU_ASSERT_EQUAL(t->threads[1].kernel, 1); /* the one kernel on gpu1 */
    CU_ASSERT_EQUAL(t->kernels[1].nafter, 1);
    CU_ASSERT_EQUAL(t->kernels[1].after[0], 0);
    test_free(t);
}

/* Every malformed input names its line and column. */
static const struct {
    const char *text;
    const char *want;
} bad[] = {
    {"test t\nmemory { l: i8 }\nthread P @gpu0.wg0 { st l, 200 }\n", "t.lit:3:28: error: value 200 does not fit 'l' of type i8"},
    {"test t\nmemory { l: i16 }\n", "error: unknown type 'i16' (types: i8 i32 i64 u32 u64 f32)"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { await ld.relaxed.agent x 1 }\n",
     "error: expected a comparison (== != < <= > >=) and the awaited value"},
    {"test t\nthread P @gpu0.wg0 { r0 = ld y }\n", "t.lit:2:30: error: unknown location 'y'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, r9 }\n", "t.lit:3:28: error: unknown register 'r9'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st.relaxed.planet x, 1 }\n",
     "t.lit:3:33: error: unknown modifier 'planet'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.team0 { st x, 1 }\n", "error: undefined scope 'team0'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu99.wg0 { st x, 1 }\n", "error: GPU index 99 is out of range"},
    {"test t\nmemory { x: i32 = 1.5 }\nthread P @gpu0.wg0 { st x, 1 }\n", "t.lit:2:19: error: type mismatch"},
    {"test t\nmemory { x: i32 = 5000000000 }\nthread P @gpu0.wg0 { st x, 1 }\n", "does not fit 'x' of type i32"},
    {"test t\nmemory { b: i32[4] }\nthread P @gpu0.wg0 { st b[4], 1 }\n",
     "t.lit:3:27: error: index 4 is out of range for 'b' (4 elements)"},
    {"test t\nmemory { x: i32\n x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\n", "t.lit:3:2: error: duplicate location 'x'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nthread P @gpu0.wg1 { st x, 2 }\n",
     "t.lit:4:8: error: duplicate thread 'P'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { r = ld.release.sys x }\n", "a load cannot have release order"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nexists (Q:r0 == 1)\n", "unknown thread 'Q'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nexists (P:r0 == 1)\n", "thread 'P' has no register 'r0'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 \n", "missing '}'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nexpect maybe\n", "t.lit:4:8: error: expected allowed"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nexpect arm: allowed\n", "unknown model 'arm'"},
    {"test t\nmemory { x: i32 @gpu0 hipMalloc(fine) }\nthread P @gpu0.wg0 { st x, 1 }\n", "unknown granularity or allocator"},
    {"test t\nmemory { x: i32 @gpu0 hipHostMalloc }\nthread P @gpu0.wg0 { st x, 1 }\n", "allocates host memory"},
    {"test t\nmemory { x: i32 }\nkernel K @gpu1\nthread P @gpu0.wg0 in K { st x, 1 }\n", "kernel 'K' runs on gpu1"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { fence.relaxed.sys }\n", "a fence needs an order"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nforall (x == 1)\nexpect allowed\n",
     "a forall test expects holds or fails"},
    {"memory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\n", "missing 'test NAME' line"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, $ }\n", "t.lit:3:28: error: unexpected character '$'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { x = 1 }\n", "'x' is a memory location; a register cannot share its name"},
    {"test t\n", "the test has no threads"},
    /* A chain of operators is a tree as deep as it is long: the walks over it recurse per level. */
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { r = 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 }\n",
     "error: nested more than 200 deep (each block, else if, parenthesis, unary operator and operator of a chain is a level)"},
    /* The thread count of index ranges used to be a plain product: four ranges of 100000 overflowed it (UB). */
    {"test t\nmemory { x: i32 }\nthread P for a in 0..100000, b in 0..100000, c in 0..100000, d in 0..100000 @gpu0.wg(0) { st x, 1 }\n",
     "t.lit:3:8: error: too many threads (the index ranges give more than 4096)"},
    /* After an error in a range the bounds are unset; the product must not read them. */
    {"test t\nmemory { x: i32 }\nthread P for a in 0..100000, b in 0..z @gpu0.wg(0) { st x, 1 }\n", "error:"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { do { r0 = ld x } until r0 == 1 }\n",
     "expected 'while CONDITION' after the body of 'do { ... }'"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { bar.arrive 1 }\n", "bar.arrive needs a thread count"},
    {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { __syncthreads 1 }\n", "__syncthreads takes no operands"},
    {"test t\nconst A = 9223372036854775807 + 1\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\n",
     "t.lit:2:31: error: constant expression overflows 64 bits"},
    {"test t\nconst A = -9223372036854775807 - 1\nconst B = -A\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\n",
     "t.lit:3:11: error: constant expression overflows 64 bits"},
    /* The rank is parsed before the bad index: it must be freed (fuzz_lit found the leak). */
    {"test t\nheap { ranks 2; size 64; fine\n n: i32[2] }\nkernel K @gpu0\nthread P @gpu0.wg0 in K { st n[0], 1 }\n"
     "host {\n  st n@1[q], 1\n  launch K\n}\n",
     "t.lit:7:10: error: unknown register 'q'"},
};

/* General loops and named barriers with a thread count (docs/language.md §11.4, §11.7). */
static void test_loops_and_counted_barriers(void)
{
    test *t = parse("test w\nconst B = 3\nmemory { x: i32 }\nthread P @gpu0.wg0 {\n  r0 = 0\n"
                    "  while r0 == 0 bound B { r0 = ld.relaxed.sys x }\n"
                    "  do { r1 = ld x } while r1 != 2\n  bound = 1\n  bar.sync 2, 4\n  bar.arrive 3, 2\n  barrier\n}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const block *b = &t->threads[0].code;
    CU_ASSERT_EQUAL_FATAL(b->n, 7);
    CU_ASSERT_EQUAL(b->v[1].kind, I_WHILE);
    CU_ASSERT_FALSE(b->v[1].do_while);
    CU_ASSERT_PTR_NOT_NULL(b->v[1].val2); /* bound B */
    CU_ASSERT_EQUAL(b->v[2].kind, I_WHILE);
    CU_ASSERT_TRUE(b->v[2].do_while);
    CU_ASSERT_PTR_NULL(b->v[2].val2);     /* `bound = 1` on the next line is a statement */
    CU_ASSERT_EQUAL(b->v[3].kind, I_ASSIGN);
    CU_ASSERT_EQUAL(b->v[4].kind, I_BARRIER);
    CU_ASSERT_EQUAL(b->v[4].bar_id->value, 2);
    CU_ASSERT_EQUAL(b->v[4].bar_quorum->value, 4);
    CU_ASSERT_FALSE(b->v[4].bar_arrive);
    CU_ASSERT_TRUE(b->v[5].bar_arrive);
    CU_ASSERT_PTR_NULL(b->v[6].bar_id);   /* the workgroup barrier */
    CU_ASSERT_EQUAL(t->loop_bound, 0);
    test_free(t);
}

/* i8: one byte in the heap (the next i32 is aligned to 4), and await with
 * the ordering comparisons. */
static void test_i8_and_await_ops(void)
{
    test *t = parse("test b\nheap { ranks 2; size 64; fine\n lk: i8[3]\n n: i32 }\n"
                    "thread P for r in 0..2 @gpu(r).wg0 { st lk[2], -128; await ld.acquire.sys n@1 >= 2\n"
                    "  await ld.acquire.sys n@1 < 5; await ld.acquire.sys n@1 <= 5; await ld.acquire.sys n@1 > 0 }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->heap.offset[0][0], 0);
    CU_ASSERT_EQUAL(t->heap.offset[0][1], 4);
    const block *b = &t->threads[0].code;
    CU_ASSERT_EQUAL_FATAL(b->n, 6); /* r = 0 (the template's variable), st, 4 awaits */
    CU_ASSERT_EQUAL(b->v[2].await_op, BIN_GE);
    CU_ASSERT_EQUAL(b->v[3].await_op, BIN_LT);
    CU_ASSERT_EQUAL(b->v[4].await_op, BIN_LE);
    CU_ASSERT_EQUAL(b->v[5].await_op, BIN_GT);
    CU_ASSERT_EQUAL(normalize_value(TY_I8, 200), -56);
    CU_ASSERT_FALSE(t->no_host_atomics);
    test_free(t);
    t = parse("test h\ntarget h200 no_host_atomics\nmemory { x: i32 @host }\nthread P @gpu0.wg0 { atom.add.relaxed.sys x, 1 }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_TRUE(t->no_host_atomics);
    CU_ASSERT_STRING_EQUAL(t->target, "h200");
    CU_ASSERT_EQUAL(normalize_value(TY_I8, -129), 127);
    test_free(t);
}

/* Nesting deeper than the parser's bound is an error, not a stack overflow
 * (fuzz_lit found one with 3000 parentheses in a condition); 150 levels parse. */
static char *nested(const char *head, const char *open, const char *mid, const char *close, const char *tail, int n)
{
    size_t size = strlen(head) + strlen(mid) + strlen(tail) + (size_t)n * (strlen(open) + strlen(close)) + 1;
    char *s = malloc(size), *q = s;
    q += sprintf(q, "%s", head);
    for (int i = 0; i < n; i++)
        q += sprintf(q, "%s", open);
    q += sprintf(q, "%s", mid);
    for (int i = 0; i < n; i++)
        q += sprintf(q, "%s", close);
    sprintf(q, "%s", tail);
    return s;
}

static void test_deep_nesting(void)
{
    const char *head = "test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { ";
    struct {
        const char *head, *open, *mid, *close, *tail;
    } shapes[] = {
        {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { r = ", "(", "1", ")", " }\n"},
        {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { r = ", "- ", "1", "", " }\n"},
        {head, "if 1 == 1 { ", "st x, 1", " }", " }\n"},
        {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nexists ", "(", "x == 1", ")", "\n"},
        {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nexists ", "!", "x == 1", "", "\n"},
        /* chains: an else-if chain nests blocks, a chain of operators nests the expression's tree */
        {head, "if 1 == 1 { st x, 1 } else ", "if 1 == 1 { st x, 1 }", "", " }\n"},
        {"test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { r = ", "1 - ", "1", "", " }\n"},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char *deep = nested(shapes[i].head, shapes[i].open, shapes[i].mid, shapes[i].close, shapes[i].tail, 100000);
        const char *msg = parse_error_of(deep);
        CU_ASSERT(msg && strstr(msg, "nested more than 200 deep"));
        free(deep);
        char *ok = nested(shapes[i].head, shapes[i].open, shapes[i].mid, shapes[i].close, shapes[i].tail, 150);
        test *t = parse(ok);
        CU_ASSERT_PTR_NOT_NULL(t);
        if (t)
            test_free(t);
        free(ok);
    }
}

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *msg = parse_error_of(bad[i].text);
        CU_ASSERT_PTR_NOT_NULL(msg);
        if (!msg)
            continue;
        if (!strstr(msg, bad[i].want))
            fprintf(stderr, "\ncase %zu: wanted \"%s\" in:\n%s", i, bad[i].want, msg);
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, bad[i].want));
        /* The offending line and a caret follow the message. */
        CU_ASSERT_PTR_NOT_NULL(strchr(msg, '^'));
    }
}

static int cond_depth(const cond *c)
{
    if (!c)
        return 0;
    int a = cond_depth(c->a), b = cond_depth(c->b);
    return 1 + (a > b ? a : b);
}

static void name_operand(void *ctx, const operand *o, char *buf, size_t n)
{
    (void)ctx;
    snprintf(buf, n, "%lld", (long long)(o->kind == OPND_CONST ? o->value : -1));
}

/* A condition of 5000 comparisons used to be a chain 5000 deep, and the walks over it overflowed the stack. It
   is now a balanced tree with its comparisons in the written order, and means the same. */
static void test_long_condition(void)
{
    enum { N = 5000 };
    size_t cap = 64 + (size_t)N * 24;
    char *text = malloc(cap), *want = malloc(cap);
    int at = snprintf(text, cap, "test t\nmemory { x: i32 }\nthread P @gpu0.wg0 { st x, 1 }\nexists (");
    int w = 0;
    want[0] = 0;
    for (int i = 0; i < N; i++) {
        at += snprintf(text + at, cap - (size_t)at, "%s%d == %d", i ? (i % 7 ? " && " : " || ") : "", i, i);
        w += snprintf(want + w, cap - (size_t)w, "%s%d == %d", i ? (i % 7 ? " && " : " || ") : "", i, i);
    }
    snprintf(text + at, cap - (size_t)at, ")\n");
    test *t = parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT(cond_depth(t->cond) <= 16);
    char *printed = calloc(1, cap);
    cond_style st = {" && ", " || ", "!(", name_operand, NULL};
    cond_print(t->cond, &st, printed, cap);
    CU_ASSERT_STRING_EQUAL(printed, want);
    test_free(t);
    free(printed);
    free(text);
    free(want);
}

/* Truncations of a valid file never crash and always fail cleanly or parse. */
static void test_prefixes(void)
{
    size_t n = strlen(EXAMPLE);
    char *buf = malloc(n + 1);
    for (size_t k = 0; k < n; k++) {
        memcpy(buf, EXAMPLE, k);
        buf[k] = 0;
        diag d = {0};
        test *t = lit_parse("t.lit", buf, &d);
        CU_ASSERT(t != NULL || d.msg != NULL);
        test_free(t);
        diag_free(&d);
    }
    free(buf);
}

void add_parse_tests(void)
{
    CU_pSuite s = CU_add_suite("parser", NULL, NULL);
    CU_add_test(s, "the shipped example", test_example);
    CU_add_test(s, "aliases, defaults, herd spellings", test_aliases_and_defaults);
    CU_add_test(s, "allocators give home and granularity", test_allocators);
    CU_add_test(s, "kernels and host order", test_kernels);
    CU_add_test(s, "i8 and await comparisons", test_i8_and_await_ops);
    CU_add_test(s, "error messages", test_errors);
    CU_add_test(s, "a long condition is a shallow tree", test_long_condition);
    CU_add_test(s, "while loops and barriers with a count", test_loops_and_counted_barriers);
    CU_add_test(s, "every prefix of a file", test_prefixes);
    CU_add_test(s, "nesting deeper than the bound is an error", test_deep_nesting);
}
