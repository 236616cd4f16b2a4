/* Writes the kernels of many tests into one translation unit (each test in a
 * namespace of its own, kernels prefixed t<N>), for the CI compile checks:
 *   gen_combined cuda|hip OUT.src FILE.lit...
 * Prints "t<N> FILE" per test generated and "NOT GENERATED FILE: why" per
 * test left out (constructs hwrun does not run); exits 1 on a generator
 * failure, never silently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen.h"
#include "../hwtest.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: gen_combined cuda|hip OUT FILE.lit...\n");
        return 2;
    }
    backend_t bk = strcmp(argv[1], "hip") == 0 ? BK_HIP : BK_CUDA;
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 2;
    }
    hw_opts o;
    hw_opts_default(&o);
    sbuf h = {0};
    codegen_header(&h, bk);
    fputs(h.s, out);
    sb_free(&h);
    int ngen = 0, nskip = 0, nfail = 0;
    for (int i = 3; i < argc; i++) {
        hw_testresult r;
        if (hwtest_prepare(&r, argv[i], bk, &o) != 0 && r.status != TR_SKIPPED) {
            printf("FAILED %s: %s\n", argv[i], r.why);
            nfail++;
            hwtest_free(&r);
            continue;
        }
        if (r.status == TR_SKIPPED) {
            printf("NOT GENERATED %s: %s\n", argv[i], r.why);
            nskip++;
            hwtest_free(&r);
            continue;
        }
        char pre[32], err[512];
        snprintf(pre, sizeof pre, "t%d", i - 3);
        hw_code c;
        if (codegen(&c, bk, &r.p, &r.o, pre, 0, err, sizeof err) != 0) {
            printf("FAILED %s: %s\n", argv[i], err);
            nfail++;
        } else {
            fputs(c.src, out);
            printf("%s %s\n", pre, argv[i]);
            ngen++;
            code_free(&c);
        }
        hwtest_free(&r);
    }
    fclose(out);
    fprintf(stderr, "gen_combined: %d generated, %d not generated (listed), %d failed\n", ngen, nskip, nfail);
    return nfail ? 1 : 0;
}
