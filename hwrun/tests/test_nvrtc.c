/* Every library test through NVRTC (no GPU needed), checked for the intended
 * instructions in the PTX: once against the generator's own list, and once
 * against spellings derived here, independently, from the IR (the mapping of
 * the issue: wg->cta, agent->gpu, sys->sys, wave->cta; seq_cst as fence.sc
 * then ld.acquire / st.relaxed / atom.acquire; plain as .weak).
 * Registered only where libnvrtc was found at configure time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hwtest.h"
#include "unit.h"

static const char *sc(scope_t s)
{
    return s == SCOPE_AGENT ? "gpu" : s == SCOPE_SYS || s == SCOPE_NONE ? "sys" : "cta";
}

static int check_block(const char *file, const block *b, const char *ptx)
{
    int bad = 0;
    for (int i = 0; i < b->n; i++) {
        const inst *in = &b->v[i];
        char want[2][96] = {"", ""};
        const char *sem = NULL;
        switch (in->ord) {
        case ORD_RELAXED: sem = "relaxed"; break;
        case ORD_ACQUIRE: sem = "acquire"; break;
        case ORD_RELEASE: sem = "release"; break;
        case ORD_ACQ_REL: sem = "acq_rel"; break;
        default: break;
        }
        switch (in->kind) {
        case I_LD:
        case I_AWAIT:
            if (in->kind == I_AWAIT && in->await_rmw)
                snprintf(want[0], sizeof want[0], "atom.%s.%s.global.cas", in->ord == ORD_SEQ_CST ? "acquire" : sem,
                         sc(in->scope));
            else if (in->ord == ORD_PLAIN)
                snprintf(want[0], sizeof want[0], in->cache == CACHE_VOLATILE ? "ld.volatile.global" : "ld.weak.global");
            else
                snprintf(want[0], sizeof want[0], "ld.%s.%s.global", in->ord == ORD_SEQ_CST ? "acquire" : sem,
                         sc(in->scope));
            break;
        case I_ST:
            if (in->ord == ORD_PLAIN)
                snprintf(want[0], sizeof want[0], in->cache == CACHE_VOLATILE ? "st.volatile.global" : "st.weak.global");
            else
                snprintf(want[0], sizeof want[0], "st.%s.%s.global", in->ord == ORD_SEQ_CST ? "relaxed" : sem,
                         sc(in->scope));
            break;
        case I_RMW:
            snprintf(want[0], sizeof want[0], "atom.%s.%s.global.", in->ord == ORD_SEQ_CST ? "acquire" : sem,
                     sc(in->scope));
            break;
        case I_FENCE:
            if (in->ord == ORD_SEQ_CST)
                snprintf(want[0], sizeof want[0], "fence.sc.%s;", sc(in->scope));
            else if (in->ord != ORD_RELAXED && in->ord != ORD_PLAIN)
                snprintf(want[0], sizeof want[0], "fence.acq_rel.%s;", sc(in->scope));
            break;
        case I_IF:
        case I_FOR:
            bad += check_block(file, &in->body, ptx) + check_block(file, &in->els, ptx);
            break;
        default: break;
        }
        if (in->kind != I_FENCE && in->ord == ORD_SEQ_CST)
            snprintf(want[1], sizeof want[1], "fence.sc.%s;", sc(in->scope));
        for (int k = 0; k < 2; k++)
            if (want[k][0] && !strstr(ptx, want[k])) {
                printf("%s:%d: the PTX lacks %s\n", file, in->pos.line, want[k]);
                bad++;
            }
    }
    return bad;
}

int main(void)
{
    hw_gpu g;
    char why[1024];
    if (cuda_open_compiler(&g, why, sizeof why) != 0) {
        printf("FAIL: NVRTC was found at configure time but cannot be loaded now: %s\n", why);
        return 1;
    }
    printf("%s\n", g.compiler);
    hw_opts o;
    hw_opts_default(&o);
    char **files = library_files(LITMUS_DIR);
    int n = 0, compiled = 0, refused = 0, failed = 0, checked = 0;
    for (int i = 0; files[i]; i++, n++) {
        hw_testresult r;
        if (hwtest_prepare(&r, files[i], BK_CUDA, &o) != 0) {
            if (r.status == TR_SKIPPED) {
                printf("not generated: %s: %s\n", files[i], r.why);
                refused++;
            } else {
                printf("FAIL %s: %s\n", files[i], r.why);
                failed++;
            }
            hwtest_free(&r);
            continue;
        }
        void *img = NULL;
        size_t sz = 0;
        char *ptx = NULL, *log = NULL;
        if (g.compile(&g, "sm_90", r.c.src, "memsim_test.cu", &img, &sz, &ptx, &log) != 0) {
            printf("FAIL %s: %s\n", files[i], g.err);
            failed++;
        } else {
            compiled++;
            int bad = 0;
            for (int k = 0; k < r.c.nexpect; k++, checked++)
                if (!strstr(ptx, r.c.expect[k])) {
                    printf("%s: the PTX lacks %s (generator's list)\n", files[i], r.c.expect[k]);
                    bad++;
                }
            for (int t = 0; t < r.t->nthreads; t++)
                bad += check_block(files[i], &r.t->threads[t].code, ptx);
            if (sz < 1000) {
                printf("%s: NVRTC returned a suspiciously small image (%zu bytes)\n", files[i], sz);
                bad++;
            }
            if (bad) {
                printf("FAIL %s\n", files[i]);
                failed++;
            }
        }
        free(img);
        free(ptx);
        free(log);
        hwtest_free(&r);
    }
    free_files(files);
    g.shutdown(&g);
    printf("%d library tests: %d compiled to sm_90 by NVRTC and checked (%d intended instructions found in the PTX), %d "
           "not generated (listed), %d failed\n",
           n, compiled, checked, refused, failed);
    return failed || compiled == 0 ? 1 : 0;
}
