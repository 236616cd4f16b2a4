/* The program-counter lowering of goto graphs that the structured
 * conversion refuses (import/litmus_dispatch.c): each shape's exact set of
 * final states, worked out by hand from the jumps, its cuts at the loop
 * bound and its hangs; and on shapes that both lowerings read, the same
 * states, hangs and cuts from both. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "../import.h"
#include "unit.h"

static test *parse_litmus(const char *text)
{
    diag d;
    memset(&d, 0, sizeof d);
    test *t = litmus_parse("t.litmus", text, &d, NULL);
    if (!t)
        fprintf(stderr, "%s", d.msg);
    diag_free(&d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

/* Whether thread th was lowered to the dispatch (it has the pc register). */
static bool dispatched(const test *t, int th)
{
    for (int r = 0; r < t->threads[th].nregs; r++)
        if (strcmp(t->threads[th].regs[r], "pc") == 0)
            return true;
    return false;
}

typedef struct {
    char states[512]; /* the distinct final states of the condition's registers, sorted: "0,1;1,1;" */
    long cuts, hangs, consistent;
} run_result;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static run_result run(test *t, int bound)
{
    t->loop_bound = bound;
    explore_opts o = {.models = {&model_ptx}, .nmodels = 1};
    explore_result r;
    run_result out = {.states = ""};
    CU_ASSERT_EQUAL_FATAL(explore(t, &o, &r), 0);
    const model_result *m = &r.mr[0];
    char **lines = calloc((size_t)m->nouts + 1, sizeof *lines);
    int n = 0;
    for (int i = 0; i < m->nouts; i++) {
        if (m->outs[i].hang || m->outs[i].error)
            continue;
        char line[128] = "";
        for (int s = 0; s < r.nshow; s++)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s%lld", s ? "," : "",
                     (long long)m->outs[i].vals[s]);
        lines[n++] = strdup(line);
    }
    qsort(lines, (size_t)n, sizeof *lines, cmp_str);
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(lines[i], lines[i - 1]) != 0)
            snprintf(out.states + strlen(out.states), sizeof out.states - strlen(out.states), "%s;", lines[i]);
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    out.cuts = m->cuts;
    out.hangs = m->hangs;
    out.consistent = m->consistent;
    explore_result_free(&r);
    return out;
}

/* Parses text, checks that thread 0 took the dispatch, and that at loop
 * bound `bound` the final states are exactly `states` (registers in the
 * order the condition names them) with or without cut executions. */
static void expect_states(const char *text, int bound, const char *states, bool cut)
{
    test *t = parse_litmus(text);
    CU_ASSERT_TRUE(dispatched(t, 0));
    run_result r = run(t, bound);
    if (strcmp(r.states, states) != 0)
        fprintf(stderr, "\nbound %d: states %s, expected %s\n", bound, r.states, states);
    CU_ASSERT_STRING_EQUAL(r.states, states);
    CU_ASSERT_EQUAL(r.cuts > 0, cut);
    CU_ASSERT_EQUAL(r.hangs, 0);
    test_free(t);
}

/* A loop that starts inside a branch and ends after it: P0 enters the loop
 * at its head when it reads y = 1 and at LC02, its middle, when it reads
 * 0 (the structured conversion refused: "the loop at LC01 ends outside the
 * branch that contains its start").  The middle entry is the loop's first
 * iteration (Dat3M's NormalizeLoops forwards it so), so at bound 2 r1 counts
 * at most one pass through LC01 after a middle entry, then the execution is
 * cut; at bound 3, two. */
static const char *MID_ENTRY = "PTX mid-entry\n{ y=0; }\n"
                               " P0@cta 0,gpu 0         | P1@cta 1,gpu 0      ;\n"
                               " ld.relaxed.gpu r0, y   | st.relaxed.gpu y, 1 ;\n"
                               " bne r0, 0, LC01        |                     ;\n"
                               " goto LC02              |                     ;\n"
                               " LC01:                  |                     ;\n"
                               " add r1, r1, 1          |                     ;\n"
                               " LC02:                  |                     ;\n"
                               " add r2, r2, 1          |                     ;\n"
                               " ld.relaxed.gpu r3, y   |                     ;\n"
                               " bne r3, 0, LC03        |                     ;\n"
                               " goto LC01              |                     ;\n"
                               " LC03:                  |                     ;\n"
                               "exists (P0:r0 == 0 /\\ P0:r1 == 0 /\\ P0:r2 == 0 /\\ P0:r3 == 0)\n";

static void test_loop_entered_in_its_middle(void)
{
    /* (r0, r1, r2, r3): y = 1 at the first read: the head, one pass; else
     * one pass from the middle, then one more per 0 read, until y = 1. */
    expect_states(MID_ENTRY, 2, "0,0,1,1;0,1,2,1;1,1,1,1;", true);
    expect_states(MID_ENTRY, 3, "0,0,1,1;0,1,2,1;0,2,3,1;1,1,1,1;", true);
    /* With nothing to write y, every pass reads 0 and writes nothing: a hang,
     * not a cut or a pass (found on the second pass, which repeats). */
    test *t = parse_litmus("PTX mid-entry-hang\n{ y=0; }\n"
                           " P0@cta 0,gpu 0         ;\n"
                           " ld.relaxed.gpu r0, y   ;\n"
                           " bne r0, 0, LC01        ;\n"
                           " goto LC02              ;\n"
                           " LC01:                  ;\n"
                           " ld.relaxed.gpu r1, y   ;\n"
                           " LC02:                  ;\n"
                           " ld.relaxed.gpu r3, y   ;\n"
                           " beq r3, 0, LC01        ;\n"
                           "exists (P0:r0 == 0)\n");
    CU_ASSERT_TRUE(dispatched(t, 0));
    run_result r = run(t, 2);
    CU_ASSERT_TRUE(r.hangs > 0);
    CU_ASSERT_STRING_EQUAL(r.states, "");
    test_free(t);
}

/* A jump out of a branch into code after the branch's else part (refused
 * before: "a jump to LC02 out of the code that an enclosing branch skips").
 * y and x have writers of their own, so P0 may read any pair. */
static void test_jump_out_of_a_branch(void)
{
    const char *text = "PTX jump-out\n{ x=0; y=0; }\n"
                       " P0@cta 0,gpu 0         | P1@cta 1,gpu 0      | P2@cta 2,gpu 0      ;\n"
                       " ld.relaxed.gpu r0, y   | st.relaxed.gpu y, 1 | st.relaxed.gpu x, 1 ;\n"
                       " beq r0, 0, LC01        |                     |                     ;\n"
                       " ld.relaxed.gpu r1, x   |                     |                     ;\n"
                       " bne r1, 0, LC02        |                     |                     ;\n"
                       " add r2, r2, 1          |                     |                     ;\n"
                       " goto LC03              |                     |                     ;\n"
                       " LC01:                  |                     |                     ;\n"
                       " add r2, r2, 10         |                     |                     ;\n"
                       " LC02:                  |                     |                     ;\n"
                       " add r2, r2, 100        |                     |                     ;\n"
                       " LC03:                  |                     |                     ;\n"
                       "exists (P0:r0 == 0 /\\ P0:r1 == 0 /\\ P0:r2 == 0)\n";
    /* y = 0: the else part and LC02 (110); y = 1, x = 1: straight to LC02
     * (100); y = 1, x = 0: the branch's own end (1). */
    expect_states(text, 2, "0,0,110;1,0,1;1,1,100;", false);
}

/* A jump into code that a goto skips: the goto enters the loop LC01..beq at
 * LC02, its middle; the loop's second pass runs the skipped code and leaves
 * (refused before: "jumps into code that a goto skips"). */
static void test_jump_into_skipped_code(void)
{
    const char *text = "PTX goto-skips\n{ y=0; }\n"
                       " P0@cta 0,gpu 0         | P1@cta 1,gpu 0      ;\n"
                       " goto LC02              | st.relaxed.gpu y, 1 ;\n"
                       " LC01:                  |                     ;\n"
                       " add r1, r1, 1          |                     ;\n"
                       " goto LC03              |                     ;\n"
                       " LC02:                  |                     ;\n"
                       " ld.relaxed.gpu r0, y   |                     ;\n"
                       " beq r0, 1, LC01        |                     ;\n"
                       " LC03:                  |                     ;\n"
                       "exists (P0:r0 == 0 /\\ P0:r1 == 0)\n";
    expect_states(text, 2, "0,0;1,1;", false);
    /* At bound 1 the second pass is past the bound: reading 1 is cut. */
    expect_states(text, 1, "0,0;", true);
}

/* A backward jump that is not the innermost loop's own: from the loop LB
 * back to the head of the loop LA around it (refused as "a backward jump to
 * LA that is not a spin-wait loop" where LB needs a control register; where
 * it did not, LB's do-while went on looping after the jump: P0 could end
 * with r1 = 0, having read y = 0 and not gone back to LA).  Each entry of
 * LB counts its iterations afresh. */
static void test_backward_jump_to_an_outer_loop(void)
{
    const char *text = "PTX outer-continue\n{ x=0; y=0; }\n"
                       " P0@cta 0,gpu 0         | P1@cta 1,gpu 0      ;\n"
                       " LA:                    | st.relaxed.gpu y, 1 ;\n"
                       " add r5, r5, 1          | st.relaxed.gpu x, 1 ;\n"
                       " ld.relaxed.gpu r0, x   |                     ;\n"
                       " LB:                    |                     ;\n"
                       " add r6, r6, 1          |                     ;\n"
                       " ld.relaxed.gpu r1, y   |                     ;\n"
                       " beq r1, 0, LA          |                     ;\n"
                       " beq r0, 0, LB          |                     ;\n"
                       " goto LEND              |                     ;\n"
                       " goto LA                |                     ;\n"
                       " LEND:                  |                     ;\n"
                       "exists (P0:r5 == 0 /\\ P0:r6 == 0 /\\ P0:r0 == 0 /\\ P0:r1 == 0)\n";
    /* (r5, r6, r0, r1): leaving needs x = 1 and y = 1; reading y = 0 goes
     * back to LA, and x = 0 goes round LB until the bound. */
    expect_states(text, 2, "1,1,1,1;2,2,1,1;", true);
    expect_states(text, 3, "1,1,1,1;2,2,1,1;3,3,1,1;", true);
}

/* Shapes that the structured conversion reads (spin-waits, the do-while
 * forms, a loop with a control register, nested loops, if/else): the
 * dispatch gives the same final states, hangs and consistent executions. */
static void test_dispatch_agrees_with_structured(void)
{
    static const char *const shapes[] = {
        /* spin-waits (awaits in both), an if/else */
        "PTX s1\n{ x=0; f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.relaxed.gpu x, 1 | LC00: ;\n st.release.gpu f, 1 | ld.acquire.gpu r1, f ;\n"
        " | beq r1, 0, LC00 ;\n | ld.relaxed.gpu r2, x ;\n | bne r2, 0, LC01 ;\n | add r3, r3, 5 ;\n"
        " | goto LC02 ;\n | LC01: ;\n | add r3, r3, 6 ;\n | LC02: ;\n"
        " | LC03: ;\n | ld.relaxed.gpu r4, x ;\n | bne r4, 1, LC04 ;\n | goto LC03 ;\n | LC04: ;\n"
        "exists (P1:r1 == 1 /\\ P1:r2 == 0 /\\ P1:r3 == 0 /\\ P1:r4 == 0)\n",
        /* a lock by exchange (do-while), a loop with two exits (control register) */
        "PTX s2\n{ m=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " LC00: | st.relaxed.gpu y, 1 ;\n atom.relaxed.gpu.exch r0, m, 1 | atom.relaxed.gpu.exch r9, m, 1 ;\n"
        " bne r0, 0, LC00 | ;\n LC01: | ;\n ld.relaxed.gpu r1, m | ;\n bne r1, 1, LC02 | ;\n"
        " ld.relaxed.gpu r2, y | ;\n bne r2, 0, LC02 | ;\n goto LC01 | ;\n LC02: | ;\n"
        "exists (P0:r0 == 0 /\\ P0:r1 == 0 /\\ P0:r2 == 0 /\\ P1:r9 == 0)\n",
        /* nested loops: an inner exchange loop in an outer one, a counter */
        "PTX s3\n{ m=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " LC00: | atom.relaxed.gpu.exch r5, m, 0 ;\n add r3, r3, 1 | atom.relaxed.gpu.exch r6, m, 1 ;\n"
        " LC01: | ;\n atom.relaxed.gpu.exch r0, m, 1 | ;\n beq r0, 1, LC01 | ;\n"
        " ld.relaxed.gpu r1, m | ;\n beq r1, 0, LC00 | ;\n"
        "exists (P0:r0 == 0 /\\ P0:r1 == 0 /\\ P0:r3 == 0 /\\ P1:r5 == 0 /\\ P1:r6 == 0)\n",
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int bound = 1; bound <= 3; bound++) {
            litmus_always_dispatch = false;
            test *a = parse_litmus(shapes[k]);
            litmus_always_dispatch = true;
            test *b = parse_litmus(shapes[k]);
            litmus_always_dispatch = false;
            CU_ASSERT_FALSE(dispatched(a, 0));
            CU_ASSERT_TRUE(dispatched(b, 0));
            run_result ra = run(a, bound), rb = run(b, bound);
            if (strcmp(ra.states, rb.states) != 0)
                fprintf(stderr, "\nshape %zu bound %d: structured %s, dispatch %s\n", k, bound, ra.states, rb.states);
            CU_ASSERT_STRING_EQUAL(ra.states, rb.states);
            CU_ASSERT_EQUAL(ra.hangs, rb.hangs);
            CU_ASSERT_EQUAL(ra.consistent, rb.consistent);
            CU_ASSERT_EQUAL(ra.cuts > 0, rb.cuts > 0);
            test_free(a);
            test_free(b);
        }
}

void add_dispatch_tests(void)
{
    CU_pSuite s = CU_add_suite("litmus goto graphs (program-counter dispatch)", NULL, NULL);
    CU_add_test(s, "a loop entered in its middle", test_loop_entered_in_its_middle);
    CU_add_test(s, "a jump out of a branch", test_jump_out_of_a_branch);
    CU_add_test(s, "a jump into code that a goto skips", test_jump_into_skipped_code);
    CU_add_test(s, "a backward jump to an outer loop", test_backward_jump_to_an_outer_loop);
    CU_add_test(s, "the dispatch agrees with the structured forms", test_dispatch_agrees_with_structured);
}
