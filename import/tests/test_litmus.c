/* The Dat3M/herd GPU litmus importer (import/litmus.c). */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "../import.h"
#include "unit.h"

static test *parse(const char *text, diag *d)
{
    memset(d, 0, sizeof *d);
    return litmus_parse("t.litmus", text, d, NULL);
}

static test *parse_ok(const char *text)
{
    diag d;
    test *t = parse(text, &d);
    if (!t)
        fprintf(stderr, "%s", d.msg);
    diag_free(&d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

/* Whether the condition holds as written under model m (terminating executions). */
static bool holds(const test *t, const model *m)
{
    explore_opts o = {.models = {m}, .nmodels = 1};
    explore_result r;
    CU_ASSERT_EQUAL_FATAL(explore(t, &o, &r), 0);
    bool h = result_holds_terminating(t, &r.mr[0]);
    explore_result_free(&r);
    return h;
}

static const char *MP_CTA = "PTX MP-cta\n\"doc { with a brace\"\n{ x=0; y=0; P1:r1=0; P1:r2=0; }\n"
                            " P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;\n"
                            " st.weak x, 1           | ld.acquire.cta r1, y   ;\n"
                            " st.release.cta y, 1    | ld.weak r2, x          ;\n"
                            "exists\n(P1:r1 == 1 /\\ P1:r2 != 1)\n";

/* A condition nested deeper than the bound is an error, not a stack overflow. */
static void test_deep_condition(void)
{
    const char *head = "PTX deep\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu x, 1 ;\nexists ";
    for (int depth = 150; depth <= 300000; depth = depth == 150 ? 300000 : depth + 1) {
        size_t size = strlen(head) + 2 * (size_t)depth + 16;
        char *text = malloc(size), *q = text;
        q += sprintf(q, "%s", head);
        for (int i = 0; i < depth; i++)
            *q++ = '(';
        q += sprintf(q, "x == 1");
        for (int i = 0; i < depth; i++)
            *q++ = ')';
        sprintf(q, "\n");
        diag d;
        test *t = parse(text, &d);
        if (depth == 150) {
            CU_ASSERT_PTR_NOT_NULL(t);
        } else {
            CU_ASSERT_PTR_NULL(t);
            CU_ASSERT(d.msg && strstr(d.msg, "the condition is nested more than 200 deep"));
        }
        if (t)
            test_free(t);
        diag_free(&d);
        free(text);
    }
}

static void test_ptx_mp(void)
{
    test *t = parse_ok(MP_CTA);
    CU_ASSERT_STRING_EQUAL(t->name, "MP-cta");
    CU_ASSERT_EQUAL(t->nthreads, 2);
    CU_ASSERT_EQUAL(t->nlocs, 2);
    CU_ASSERT_EQUAL(t->threads[1].wg, 1);
    CU_ASSERT_EQUAL(t->threads[1].gpu, 0);
    const inst *st = &t->threads[0].code.v[0], *rel = &t->threads[0].code.v[1];
    CU_ASSERT_EQUAL(st->kind, I_ST);
    CU_ASSERT_EQUAL(st->ord, ORD_PLAIN);
    CU_ASSERT_EQUAL(rel->ord, ORD_RELEASE);
    CU_ASSERT_EQUAL(rel->scope, SCOPE_WG);
    const inst *ld = &t->threads[1].code.v[0];
    CU_ASSERT_EQUAL(ld->kind, I_LD);
    CU_ASSERT_EQUAL(ld->ord, ORD_ACQUIRE);
    CU_ASSERT_EQUAL(t->quant, Q_EXISTS);
    CU_ASSERT_EQUAL(t->cond->kind, C_AND);
    CU_ASSERT_TRUE(t->cond->b->ne);
    /* Different CTAs, .cta scope: not morally strong -> the stale read happens. */
    CU_ASSERT_TRUE(holds(t, &model_ptx));
    test_free(t);
    /* The same with .gpu: forbidden. */
    char *gpu = strdup(MP_CTA);
    for (char *p = strstr(gpu, "acquire.cta"); p; p = strstr(p, "acquire.cta"))
        memcpy(p + 8, "gpu", 3);
    for (char *p = strstr(gpu, "release.cta"); p; p = strstr(p, "release.cta"))
        memcpy(p + 8, "gpu", 3);
    t = parse_ok(gpu);
    CU_ASSERT_FALSE(holds(t, &model_ptx));
    test_free(t);
    free(gpu);
}

static void test_ptx_spin_loops(void)
{
    /* Pattern A: spin while r1 == 0; pattern B: spin until r2 == r1 (a register). */
    test *t = parse_ok("PTX spin\n{ x=0; f=0; }\n"
                       " P0@cta 0,gpu 0      | P1@cta 1,gpu 0        ;\n"
                       " st.relaxed.gpu x, 1 | LC00:                 ;\n"
                       " st.release.gpu f, 1 | ld.acquire.gpu r1, f  ;\n"
                       "                     | beq r1, 0, LC00       ;\n"
                       "                     | add r3, r1, 0         ;\n"
                       "                     | LC01:                 ;\n"
                       "                     | ld.relaxed.gpu r2, x  ;\n"
                       "                     | beq r2, r3, LC02      ;\n"
                       "                     | goto LC01             ;\n"
                       "                     | LC02:                 ;\n"
                       "forall (P1:r2 == 1)\n");
    const block *b = &t->threads[1].code;
    CU_ASSERT_EQUAL_FATAL(b->n, 3);
    CU_ASSERT_EQUAL(b->v[0].kind, I_AWAIT);
    CU_ASSERT_EQUAL(b->v[0].await_op, BIN_NE); /* spin while == 0: await != 0 */
    CU_ASSERT_EQUAL(b->v[0].want->kind, EX_CONST);
    CU_ASSERT_EQUAL(b->v[1].kind, I_ASSIGN);
    CU_ASSERT_EQUAL(b->v[2].kind, I_AWAIT);
    CU_ASSERT_EQUAL(b->v[2].await_op, BIN_EQ); /* exit when r2 == r3 */
    CU_ASSERT_EQUAL(b->v[2].want->kind, EX_REG);
    CU_ASSERT_TRUE(holds(t, &model_ptx));
    test_free(t);
    /* Ordering comparisons: spin while r < 2 is await >= 2; exit when 3 > r
     * (the value on the left) is await < 3. */
    t = parse_ok("PTX spin2\n{ f=0; }\n"
                 " P0@cta 0,gpu 0      | P1@cta 1,gpu 0        ;\n"
                 " st.relaxed.gpu f, 2 | LC00:                 ;\n"
                 "                     | ld.relaxed.gpu r1, f  ;\n"
                 "                     | blt r1, 2, LC00       ;\n"
                 "                     | LC01:                 ;\n"
                 "                     | ld.relaxed.gpu r2, f  ;\n"
                 "                     | bgt 3, r2, LC02       ;\n"
                 "                     | goto LC01             ;\n"
                 "                     | LC02:                 ;\n"
                 "forall (P1:r1 == 2)\n");
    b = &t->threads[1].code;
    CU_ASSERT_EQUAL_FATAL(b->n, 2);
    CU_ASSERT_EQUAL(b->v[0].await_op, BIN_GE);
    CU_ASSERT_EQUAL(b->v[1].await_op, BIN_LT);
    CU_ASSERT_TRUE(holds(t, &model_ptx));
    test_free(t);
}

static void test_ptx_branches(void)
{
    /* A forward branch is an if; bCC ..., LE; ...; goto LX; LE: ...; LX: an if/else. */
    test *t = parse_ok("PTX br\n{ x=0; }\n"
                       " P0@cta 0,gpu 0 ;\n"
                       " ld.weak r0, x  ;\n"
                       " bne r0, 0, LC00 ;\n"
                       " st.weak x, 5   ;\n"
                       " goto LC01      ;\n"
                       " LC00:          ;\n"
                       " st.weak x, 6   ;\n"
                       " LC01:          ;\n"
                       " beq r0, 7, LC02 ;\n"
                       " add r1, r0, 2  ;\n"
                       " LC02:          ;\n"
                       "forall (x == 5 /\\ P0:r1 == 2)\n");
    const block *b = &t->threads[0].code;
    CU_ASSERT_EQUAL_FATAL(b->n, 3);
    CU_ASSERT_EQUAL(b->v[1].kind, I_IF);
    CU_ASSERT_EQUAL(b->v[1].body.n, 1);
    CU_ASSERT_EQUAL(b->v[1].els.n, 1);
    CU_ASSERT_EQUAL(b->v[2].kind, I_IF);
    CU_ASSERT_TRUE(holds(t, &model_sc));
    test_free(t);
}

static void test_ptx_named_barriers(void)
{
    /* bar.cta.sync with different ids does not synchronize: SB stays allowed. */
    const char *sb = "PTX SB+bar\n{ x=0; y=0; P0:r2=%d; P1:r3=%d; }\n"
                     " P0@cta 0,gpu 0     | P1@cta 0,gpu 0     ;\n"
                     " st.weak x, 1       | st.weak y, 1       ;\n"
                     " bar.cta.sync 1, r2 | bar.cta.sync 1, r3 ;\n"
                     " ld.weak r0, y      | ld.weak r1, x      ;\n"
                     "forall (P0:r0 == 1 \\/ P1:r1 == 1)\n";
    char buf[512];
    snprintf(buf, sizeof buf, sb, 1, 2);
    test *t = parse_ok(buf);
    /* code: r2 = 1 (init block), st, bar.cta.sync, ld */
    CU_ASSERT_EQUAL_FATAL(t->threads[0].code.v[2].kind, I_BARRIER);
    CU_ASSERT_EQUAL(t->threads[0].code.v[2].bar_count->kind, EX_CONST); /* init-only register folded */
    CU_ASSERT_FALSE(holds(t, &model_ptx));
    test_free(t);
    snprintf(buf, sizeof buf, sb, 3, 3);
    t = parse_ok(buf);
    CU_ASSERT_TRUE(holds(t, &model_ptx));
    test_free(t);
    /* Barriers in opposite orders: deadlock, no execution at all. */
    t = parse_ok("PTX dead\n{ x=0; }\n"
                 " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                 " ld.weak r0, x  | bar.cta.sync 1 ;\n"
                 " bar.cta.sync 0 | st.weak x, 1   ;\n"
                 " bar.cta.sync 1 | bar.cta.sync 0 ;\n"
                 "~exists (P0:r0 == 0)\n");
    CU_ASSERT_TRUE(holds(t, &model_ptx));
    test_free(t);
}

static void test_vulkan(void)
{
    test *t = parse_ok("VULKAN mp\n{ x=0; y=0; z aliases x; }\n{ ssw 0 1; }\n"
                       " P0@sg 0, wg 0, qf 0             | P1@sg 1,wg 0, qf 1               ;\n"
                       " st.av.dv.sc0 x, 1               | ld.atom.acq.wg.sc1.semsc0 r0, y  ;\n"
                       " st.atom.rel.wg.sc1.semsc0 y, 1  | ld.vis.dv.sc0 r1, z              ;\n"
                       " cbar.acq_rel.sg.semsc0.semav 3  | avdevice                         ;\n"
                       "exists (P1:r0 == 1)\n");
    CU_ASSERT_EQUAL(t->threads[1].wave, 1);
    CU_ASSERT_EQUAL(t->threads[1].gpu, 1); /* queue family */
    CU_ASSERT_EQUAL(t->nssw, 1);
    CU_ASSERT_EQUAL(t->locs[2].first_cell, t->locs[0].first_cell); /* z aliases x */
    const inst *av = &t->threads[0].code.v[0];
    CU_ASSERT_EQUAL(av->ord, ORD_PLAIN);
    CU_ASSERT_EQUAL(av->scope, SCOPE_SYS);
    CU_ASSERT_TRUE(av->vk & VK_AV);
    CU_ASSERT_FALSE(av->vk & VK_SC1);
    const inst *rel = &t->threads[0].code.v[1];
    CU_ASSERT_EQUAL(rel->ord, ORD_RELEASE);
    CU_ASSERT_TRUE((rel->vk & (VK_SC1 | VK_SEMSC0)) == (VK_SC1 | VK_SEMSC0));
    const inst *cb = &t->threads[0].code.v[2];
    CU_ASSERT_EQUAL(cb->kind, I_BARRIER);
    CU_ASSERT_EQUAL(cb->scope, SCOPE_WAVE);
    CU_ASSERT_TRUE(cb->vk & VK_SEMAV);
    CU_ASSERT_TRUE(t->threads[1].code.v[2].vk & VK_AVDEVICE);
    test_free(t);
}

/* PTX proxies (Dat3M's LitmusPTX.g4 lines 41-50, 145-151, 265-285). */
static void test_proxies(void)
{
    diag d;
    test *t = parse("PTX proxy\n{ x = 0;\ny @ generic aliases x;\ns @ surface aliases y;\nt @ texture aliases x; }\n"
                    " P0@cta 0,gpu 0 ;\n sust.weak s, 2 ;\n fence.proxy.surface ;\n fence.proxy.alias ;\n"
                    " tld.weak r0, t ;\n ld.weak r1, y ;\nexists (P0:r0 == 0)\n", &d);
    CU_ASSERT_PTR_NOT_NULL(t);
    if (t) {
        CU_ASSERT_TRUE(t->uses_proxies);
        CU_ASSERT_EQUAL(t->ncells, 1);
        CU_ASSERT_EQUAL(t->locs[1].generic_of, 0);  /* y: a generic alias is its own generic address */
        CU_ASSERT_EQUAL(t->locs[2].generic_of, 2);  /* s: generic address y (1 + index 1) */
        CU_ASSERT_EQUAL(t->locs[3].generic_of, 1);  /* t: generic address x */
        const inst *c = t->threads[0].code.v;
        CU_ASSERT_EQUAL(c[0].kind, I_ST);
        CU_ASSERT_EQUAL(c[0].proxy, PROXY_SURFACE);
        CU_ASSERT_TRUE(c[1].kind == I_FENCE && c[1].proxy_fence && c[1].proxy == PROXY_SURFACE);
        CU_ASSERT_TRUE(c[2].kind == I_FENCE && c[2].proxy_alias && c[2].proxy == PROXY_NONE);
        CU_ASSERT_TRUE(c[3].kind == I_LD && c[3].proxy == PROXY_TEXTURE);
        CU_ASSERT_TRUE(c[4].kind == I_LD && c[4].proxy == PROXY_GENERIC);
        test_free(t);
    }
    diag_free(&d);
    t = parse("PTX plain\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n", &d);
    CU_ASSERT_TRUE(t && !t->uses_proxies);
    if (t)
        test_free(t);
    diag_free(&d);
}

static void test_errors(void)
{
    diag d;
    /* A proxy alias names a proxy that does not exist. */
    test *t = parse("PTX proxy\n{ x = 0;\ns @ sideways aliases x; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, s ;\n", &d);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_FALSE(import_unsupported(&d));
    CU_ASSERT(d.msg && strstr(d.msg, "t.litmus:3:5: error: expected generic, surface"));
    diag_free(&d);
    t = parse("PTX p\n{ x=0; }\n P0@cta 0,gpu 0 ;\n fence.proxy.sideways ;\n", &d);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT(d.msg && strstr(d.msg, "expected fence.proxy.texture"));
    diag_free(&d);
    /* bar.red: an operation it does not have, and one inside a branch. */
    t = parse("PTX r\n{ x=0; }\n P0@cta 0,gpu 0 ;\n bar.cta.red.xor.pred r0, 0, 1 ;\n", &d);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT(d.msg && strstr(d.msg, "bar.red takes .popc, .and or .or"));
    diag_free(&d);
    t = parse("PTX r\n{ x=0; }\n P0@cta 0,gpu 0 ;\n beq r1, 1, L ;\n bar.cta.red.popc.u32 r0, 0, 1 ;\n L: ;\n", &d);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_TRUE(import_unsupported(&d));
    CU_ASSERT(d.msg && strstr(d.msg, "bar.red inside a branch"));
    diag_free(&d);
    /* A loop that is not a spin-wait: a bounded do-while (I_WHILE). */
    t = parse("PTX loop\n{ x=0; }\n P0@cta 0,gpu 0 ;\n LC00: ;\n st.weak x, 1 ;\n goto LC00 ;\n", &d);
    CU_ASSERT_PTR_NOT_NULL(t);
    if (t) {
        CU_ASSERT_EQUAL(t->threads[0].code.n, 1);
        CU_ASSERT_EQUAL(t->threads[0].code.v[0].kind, I_WHILE);
        CU_ASSERT_TRUE(t->threads[0].code.v[0].do_while);
        test_free(t);
    }
    diag_free(&d);
    /* A loop that starts inside a branch and ends after it: read, as a
     * program-counter dispatch (test_dispatch.c checks its executions). */
    t = parse("PTX loop2\n{ x=0; }\n P0@cta 0,gpu 0 ;\n beq r0, 1, LC01 ;\n LC00: ;\n st.weak x, 1 ;\n LC01: ;\n"
              " goto LC00 ;\n", &d);
    CU_ASSERT_PTR_NOT_NULL(t);
    CU_ASSERT_PTR_NULL(d.msg);
    test_free(t);
    diag_free(&d);
    /* An unknown label is still an error, not an unsupported construct. */
    t = parse("PTX loop3\n{ x=0; }\n P0@cta 0,gpu 0 ;\n beq r0, 1, LC01 ;\n LC00: ;\n st.weak x, 1 ;\n LC01: ;\n"
              " goto LC00 ;\n goto LC09 ;\n", &d);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_FALSE(import_unsupported(&d));
    CU_ASSERT_TRUE(d.msg && strstr(d.msg, "unknown label 'LC09'") != NULL);
    diag_free(&d);
    /* Not unsupported: mistakes. */
    t = parse("PTX bad\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0 ;\n", &d);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_FALSE(import_unsupported(&d));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "t.litmus:4:2: error:"));
    diag_free(&d);
    t = parse("X86 SB\n{ }\n P0 ;\n", &d);
    CU_ASSERT_TRUE(import_unsupported(&d));
    diag_free(&d);
    t = parse("PTX b\n{ x=0; }\n P0@cta 0,gpu 0 ;\n bra LC9 ;\n", &d);
    CU_ASSERT_PTR_NOT_NULL(d.msg);
    CU_ASSERT_PTR_NULL(t);
    diag_free(&d);
    t = parse("PTX c\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (P0:r0 = 1 /\\ )\n", &d);
    CU_ASSERT_PTR_NULL(t);
    diag_free(&d);
}

void add_litmus_tests(void)
{
    CU_pSuite s = CU_add_suite("litmus importer", NULL, NULL);
    CU_add_test(s, "PTX message passing", test_ptx_mp);
    CU_add_test(s, "a condition nested too deep", test_deep_condition);
    CU_add_test(s, "spin loops become awaits", test_ptx_spin_loops);
    CU_add_test(s, "forward branches become ifs", test_ptx_branches);
    CU_add_test(s, "named barriers", test_ptx_named_barriers);
    CU_add_test(s, "Vulkan attributes", test_vulkan);
    CU_add_test(s, "PTX proxies", test_proxies);
    CU_add_test(s, "errors and unsupported constructs", test_errors);
}
