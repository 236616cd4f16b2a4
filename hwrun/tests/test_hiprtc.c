/* The HIP run-time compile path (what runs on an MI300X): hiprtc, loaded
 * with dlopen as on a GPU machine, compiles the generated kernels of a spread
 * of library tests for gfx90a (Debian's ROCm 5.2 comgr crashes on gfx940,
 * which its hipcc handles: gfx940 is covered by the hipcc test).  Registered
 * only where libamdhip64 was found at configure time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hwtest.h"
#include "unit.h"

int main(void)
{
    static const char *tests[] = {
        "mp_release_acquire.lit", "sb_fence_sc_agent_diff_wg.lit", "atom_cas_mutex_agent_diff_wg.lit",
        "await_mp_sys_diff_gpu.lit", "barrier_three_threads_same_wg.lit", "array_mp_addr_dep_relaxed.lit",
        "if_nested_registers.lit", "iriw_6thread.lit", "kernel_chain_three.lit", "mp_rel_acq_wave_same_wave.lit",
        "lb_false_data_deps_diff_wg.lit", "alloc_hiphostmalloc_noncoherent_atomicity.lit",
    };
    hw_gpu g;
    char why[1024];
    if (hip_open_compiler(&g, why, sizeof why) != 0) {
        printf("FAIL: libamdhip64 was found at configure time but hiprtc cannot be loaded now: %s\n", why);
        return 1;
    }
    printf("%s\n", g.compiler);
    hw_opts o;
    memset(&o, 0, sizeof o);
    o.models[0] = &model_src11;
    o.models[1] = &model_ptx;
    o.nmodels = 2;
    int bad = 0, n = 0;
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", LITMUS_DIR, tests[i]);
        hw_testresult r;
        if (hwtest_prepare(&r, path, BK_HIP, &o) != 0) {
            printf("FAIL %s: %s\n", tests[i], r.why);
            bad++;
            hwtest_free(&r);
            continue;
        }
        const char *archs[] = {"gfx90a"};
        for (int a = 0; a < 1; a++) {
            void *img = NULL;
            size_t sz = 0;
            char *log = NULL;
            if (g.compile(&g, archs[a], r.c.src, "memsim_test.hip", &img, &sz, NULL, &log) != 0 || sz < 1000) {
                printf("FAIL %s %s: %.2000s\n", tests[i], archs[a], g.err);
                bad++;
            } else {
                printf("ok   %s %s: %zu bytes of code object\n", tests[i], archs[a], sz);
                n++;
            }
            free(img);
            free(log);
        }
        hwtest_free(&r);
    }
    g.shutdown(&g);
    printf("hiprtc: %d compiles ok, %d failed\n", n, bad);
    return bad ? 1 : 0;
}
