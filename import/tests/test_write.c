/* The writers (.lit, PTX litmus) and herd7's log format. */
#define _GNU_SOURCE /* open_memstream */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lit/parse.h"
#include "../import.h"
#include "unit.h"

static char *to_text(int (*w)(FILE *, const test *, char *, size_t), const test *t, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    char err[512] = "";
    *rc = w(f, t, err, sizeof err);
    fclose(f);
    if (*rc)
        fprintf(stderr, "%s\n", err);
    return buf;
}

static verdict_t verdict(const test *t, const model *m)
{
    explore_opts o = {.models = {m}, .nmodels = 1};
    explore_result r;
    CU_ASSERT_EQUAL_FATAL(explore(t, &o, &r), 0);
    verdict_t v = result_verdict(t, &r.mr[0]);
    explore_result_free(&r);
    return v;
}

static const char *LIT = "test MP+await, if\n"
                         "memory {\n  data: i32 = 0 @gpu0 fine\n  flag: i32 = 0 @gpu0 fine\n}\n"
                         "thread P0 @gpu0.wg0 {\n  st data, 5\n  st.release.agent flag, 1\n}\n"
                         "thread P1 @gpu0.wg1 {\n  r0 = await ld.acquire.agent flag != 0\n"
                         "  r1 = ld data\n  if r1 == 5 { r2 = r1 + 1 } else { r2 = 0 }\n"
                         "  r3 = atom.add.acq_rel.sys data, r2\n}\n"
                         "forall (P1:r2 == 6 && data == 11)\n"
                         "expect ptx: holds\n";

/* The .lit written for a litmus test holds `want` and parses back (0), or write_lit refuses it with
 * a message holding `want` (-1). */
static void lit_written(const char *litmus, int rc_want, const char *want)
{
    diag d = {0};
    test *t = litmus_parse("n.litmus", litmus, &d, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char *lit = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&lit, &len);
    CU_ASSERT_EQUAL(write_lit(f, t, err, sizeof err), rc_want);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(rc_want ? err : lit, want));
    if (rc_want == 0) {
        test *u = lit_parse("n.lit", lit, &d);
        if (!u)
            fprintf(stderr, "%s\n%s", d.msg, lit);
        CU_ASSERT_PTR_NOT_NULL(u);
        if (u)
            test_free(u);
    }
    free(lit);
    test_free(t);
    diag_free(&d);
}

/* Found by round-trip fuzzing (litmus -> .lit -> parse): names litmus allows that .lit does not. */
static void test_litmus_names(void)
{
    /* A location and a register both named r1, a location named as thread P0: separate in
     * litmus, one namespace in .lit. */
    static const char *const names =
        "PTX MP\n{ x=0; r1=0; P0=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " st.relaxed.gpu x, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r1 == 1 /\\ P0 == 0)\n";
    lit_written(names, 0, "r1_: i32 = 0");
    lit_written(names, 0, "P0_: i32 = 0");
    /* A store wider than the initial value: the location is i64 (it was i32, and the load
     * read a truncated value, so the test's outcome was wrongly forbidden). */
    static const char *const wide =
        "PTX W\n{ y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " st.relaxed.gpu y, 5555555555 | ld.relaxed.gpu r0, y ;\nexists (P1:r0 == 5555555555)\n";
    diag d = {0};
    test *t = litmus_parse("w.litmus", wide, &d, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(verdict(t, &model_ptx), V_ALLOWED);
    test_free(t);
    diag_free(&d);
    lit_written(wide, 0, "y: i64 = 0");
    /* A test name with '#' and '//', which start comments in .lit. */
    lit_written("PTX #1 MP//x\n{ y=0; }\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu y, 1 ;\nexists (y == 1)\n", 0,
                "test _1 MP/_x\n");
    /* A thread named with a .lit reserved word: an error naming it, not a .lit that does not parse. */
    lit_written("PTX t\n{ y=0; }\n P0@cta 0,gpu 0 | in@cta 0,gpu 0 ;\n"
                " st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, y ;\nexists (in:r0 == 1)\n",
                -1, "thread 'in' has a name .lit reserves");
    /* Thread names that are not identifiers, a thread named twice, a location name of bytes. */
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"PTX t\n{}\n P | 1 ;\n | ;\nexists (0:r0 == 0)\n", "n.litmus:3:6: error: expected a thread name such as P0"},
        {"PTX t\n{ x=0 }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n | | ;\nexists (x == 0)\n",
         "thread P1 is named twice"},
        {"PTX t\n{\n\x7f\x7f\n}\n P0@cta 0,gpu 0 ;\n ;\nexists (P0:r1 == 0)\n", "expected a location name"},
        {"PTX t\n{ y=0; }\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu y, 18446744073709551617 ;\nexists (y == 1)\n",
         "n.litmus:4:20: error: expected a register (r0, r1, ...) or a constant, found '18446744073709551617'"},
        {"PTX t\n{ y=-9223372036854775808; }\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu y, 1 ;\nexists (y == 1)\n",
         "initial value '-9223372036854775808'"},
        {"PTX t\n{ y=0; }\n P0@cta 0,gpu 64 ;\n st.relaxed.gpu y, 1 ;\nexists (y == 1)\n",
         "n.litmus:3:4: error: unsupported: more than 64 GPUs"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        diag e = {0};
        test *v = litmus_parse("n.litmus", bad[i].text, &e, NULL);
        CU_ASSERT_PTR_NULL(v);
        CU_ASSERT(e.msg && strstr(e.msg, bad[i].msg));
        if (!e.msg || !strstr(e.msg, bad[i].msg))
            fprintf(stderr, "case %zu: %s\n", i, e.msg ? e.msg : "(no error)");
        if (v)
            test_free(v);
        diag_free(&e);
    }
}

static void test_lit_to_ptx_and_back(void)
{
    diag d = {0};
    test *t = lit_parse("mp.lit", LIT, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int rc;
    char *ptx = to_text(write_ptx_litmus, t, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ptx, "PTX MP+await, if"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ptx, "ld.acquire.gpu r0, flag"));
    test *u = litmus_parse("mp.litmus", ptx, &d, NULL);
    if (!u)
        fprintf(stderr, "%s\n%s", d.msg, ptx);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_EQUAL(verdict(t, &model_ptx), V_HOLDS);
    CU_ASSERT_EQUAL(verdict(u, &model_ptx), V_HOLDS);
    /* and to .lit again; a location named 'in' (a reserved word there) is renamed */
    char *ren = strdup(ptx);
    for (char *q = strstr(ren, "data"); q; q = strstr(q, "data"))
        memcpy(q, "in  ", 4);
    test_free(u);
    u = litmus_parse("mp.litmus", ren, &d, NULL);
    free(ren);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    char *lit = to_text(write_lit, u, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(lit, "in_: i32"));
    test *v = lit_parse("again.lit", lit, &d);
    if (!v)
        fprintf(stderr, "%s\n%s", d.msg, lit);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(verdict(v, &model_ptx), V_HOLDS);
    free(ptx);
    free(lit);
    test_free(t);
    test_free(u);
    test_free(v);
    diag_free(&d);
}

/* A condition of 2000 comparisons: the writers printed it into 8 KB, so the PTX litmus written was cut off
   mid-condition and did not parse (fuzz_convert, on its own seed). Both writers now write it whole. */
static void test_long_condition_written(void)
{
    enum { N = 2000 };
    char *text = malloc(64 + N * 8);
    int at = sprintf(text, "PTX long\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu.s32 [x], 1 ;\nexists (");
    for (int i = 0; i < N; i++)
        at += sprintf(text + at, "%sx=1", i ? " /\\ " : "");
    sprintf(text + at, ")\n");
    diag d = {0};
    test *t = litmus_parse("long.litmus", text, &d, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int rc;
    char *ptx = to_text(write_ptx_litmus, t, &rc);
    CU_ASSERT_EQUAL(rc, 0);
    test *u = litmus_parse("back.litmus", ptx, &d, NULL);
    CU_ASSERT_PTR_NOT_NULL(u);
    char *lit = to_text(write_lit, t, &rc);
    CU_ASSERT_EQUAL(rc, 0);
    test *v = lit_parse("back.lit", lit, &d);
    CU_ASSERT_PTR_NOT_NULL(v);
    if (u && v) {
        CU_ASSERT_EQUAL(verdict(u, &model_ptx), V_ALLOWED);
        CU_ASSERT_EQUAL(verdict(v, &model_ptx), V_ALLOWED);
    }
    test_free(u);
    test_free(v);
    test_free(t);
    free(ptx);
    free(lit);
    free(text);
    diag_free(&d);
}

/* An IR nested deeper than .lit reads (the litmus importer's goto structuring makes such nests): write_lit
   refuses it instead of writing a file that does not parse back (fuzz_convert). 150 levels are written. */
static void test_too_deep_for_lit(void)
{
    for (int levels = 150; levels <= 250; levels += 100) {
        diag d = {0};
        test *t = lit_parse("d.lit", "test deep\nmemory { x: i32 }\nthread P @gpu0.wg0 { r = ld x\n st x, 1 }\n", &d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        block *code = &t->threads[0].code;
        inst st = code->v[1];
        code->n = 1;
        block inner = {0};
        block_push(&inner, &st);
        for (int i = 0; i < levels; i++) {
            inst in = {0};
            in.kind = I_IF;
            in.dst = -1;
            in.val = expr_bin(BIN_GT, expr_reg(0, st.pos), expr_const(2, st.pos), st.pos);
            in.body = inner;
            inner = (block){0};
            block_push(&inner, &in);
        }
        block_push(code, &inner.v[0]);
        free(inner.v);
        int rc;
        char *lit = to_text(write_lit, t, &rc);
        if (levels == 150) {
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(lit, "if (r > 2) {"));
        } else {
            CU_ASSERT_EQUAL(rc, -1);
            CU_ASSERT_EQUAL(lit ? strlen(lit) : 0, 0); /* nothing half-written */
        }
        free(lit);
        test_free(t);
        diag_free(&d);
    }
}

/* A template's instances P[0], P[1] were written as `thread P[0] ...`, which .lit does not read (found when
   write_lit began parsing its text back: five library kernels). They are P_0 and P_1, in the condition too;
   a thread already named P_1 pushes the instance to P_1_. */
static void test_template_threads_written(void)
{
    const char *src = "test tmpl\nmemory { x: i32[2]\n y: i32 }\nthread P for i in 0..2 @gpu0.wg(i) {\n  st x[i], 1\n"
                      "  r = ld x[1 - i]\n}\nthread P_1 @gpu0.wg5 { st y, 1 }\n"
                      "exists (P[0]:r == 0 && P[1]:r == 0)\n";
    diag d = {0};
    test *t = lit_parse("tmpl.lit", src, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int rc;
    char *lit = to_text(write_lit, t, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(lit, "thread P_0 @gpu0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lit, "thread P_1_ @gpu0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lit, "thread P_1 @gpu0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lit, "exists (P_0:r == 0 && P_1_:r == 0)"));
    test *u = lit_parse("back.lit", lit, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_EQUAL(verdict(t, &model_src11), verdict(u, &model_src11));
    test_free(u);
    test_free(t);
    free(lit);
    diag_free(&d);
}

/* PTX proxies: .lit -> PTX litmus (sust, tld, fence.proxy) -> .lit, the same verdict under ptx75
 * each time (the fence makes the stale texture read impossible). */
static void test_proxies_round_trip(void)
{
    diag d = {0};
    test *t = lit_parse("p.lit",
                        "test P\nmemory {\n  x: i32 = 0 @gpu0 fine\n}\n"
                        "thread P0 @gpu0.wg0 {\n  st.surface x, 1\n  fence.proxy.surface\n  fence.proxy.texture\n"
                        "  r0 = ld.texture x\n}\nexists (P0:r0 == 0)\n",
                        &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_TRUE(t->uses_proxies);
    int rc;
    char *ptx = to_text(write_ptx_litmus, t, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ptx, "sust.weak x, 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ptx, "fence.proxy.texture"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ptx, "tld.weak r0, x"));
    test *u = litmus_parse("p.litmus", ptx, &d, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    char *lit = to_text(write_lit, u, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(lit, "r0 = ld.texture x"));
    test *v = lit_parse("again.lit", lit, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(verdict(t, &model_ptx75), V_FORBIDDEN);
    CU_ASSERT_EQUAL(verdict(u, &model_ptx75), V_FORBIDDEN);
    CU_ASSERT_EQUAL(verdict(v, &model_ptx75), V_FORBIDDEN);
    free(ptx);
    free(lit);
    test_free(t);
    test_free(u);
    test_free(v);
    diag_free(&d);
}

static void test_unwritable(void)
{
    diag d = {0};
    test *t = lit_parse("a.lit",
                        "test arr\nmemory { buf: i32[2] = 0 @gpu0 coarse }\n"
                        "thread P0 @gpu0.wg0.wave1 { st.relaxed.wave buf[1], 1 }\n",
                        &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int rc;
    char *s = to_text(write_ptx_litmus, t, &rc);
    CU_ASSERT_EQUAL(rc, -1);
    free(s);
    test_free(t);
    t = litmus_parse("v.litmus", "VULKAN v\n{ x=0; }\n P0@sg 0, wg 0, qf 0 ;\n st.av.dv.sc0 x, 1 ;\n", &d, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    s = to_text(write_lit, t, &rc);
    CU_ASSERT_EQUAL(rc, -1); /* Vulkan attributes have no .lit form */
    free(s);
    test_free(t);
    /* Locations PTX litmus would read as a type or a register (fuzz_convert). */
    static const char *const names[] = {"int", "r5"};
    for (int i = 0; i < 2; i++) {
        char text[256];
        snprintf(text, sizeof text, "test t\nmemory { %s: i32 = 0 @gpu0 fine }\nthread P0 @gpu0.wg0 { st %s, 1 }\n",
                 names[i], names[i]);
        t = lit_parse("n.lit", text, &d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        s = to_text(write_ptx_litmus, t, &rc);
        CU_ASSERT_EQUAL(rc, -1);
        free(s);
        test_free(t);
    }
}

static void test_herd_log(void)
{
    diag d = {0};
    test *t = litmus_parse("sb.litmus",
                           "PTX SB\n{ x=0; y=0; }\n"
                           " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                           " st.weak x, 1   | st.weak y, 1   ;\n"
                           " ld.weak r0, y  | ld.weak r1, x  ;\n"
                           "exists (P0:r0 == 0 /\\ P1:r1 != 1)\n",
                           &d, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    explore_opts o = {.models = {&model_ptx}, .nmodels = 1};
    explore_result r;
    CU_ASSERT_EQUAL_FATAL(explore(t, &o, &r), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    herd_log(f, t, &r, 0);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "Test SB Allowed\nStates 4\n0:r0=0; 1:r1=0;\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nOk\nWitnesses\nPositive: 1 Negative: 3\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "Condition exists (0:r0=0 /\\ ~(1:r1=1))\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "Observation SB Sometimes 1 3\nTime SB "));
    free(buf);
    explore_result_free(&r);
    test_free(t);
}

void add_write_tests(void)
{
    CU_pSuite s = CU_add_suite("writers and herd logs", NULL, NULL);
    CU_add_test(s, ".lit -> PTX litmus -> .lit", test_lit_to_ptx_and_back);
    CU_add_test(s, "a long condition written whole", test_long_condition_written);
    CU_add_test(s, "nesting .lit cannot read is refused", test_too_deep_for_lit);
    CU_add_test(s, "template threads written as identifiers", test_template_threads_written);
    CU_add_test(s, "litmus names .lit cannot take (fuzz_rt)", test_litmus_names);
    CU_add_test(s, "PTX proxies: .lit -> PTX litmus -> .lit", test_proxies_round_trip);
    CU_add_test(s, "what a format cannot say is an error", test_unwritable);
    CU_add_test(s, "herd7 log", test_herd_log);
}
