/* libFuzzer target for the .lit parser: any bytes must give a test or an
 * error message, never a crash, a hang or a leak.  Small tests that parse
 * are explored too, so the front end's output is fuzzed through symexec. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/explore.h"
#include "../../sim/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    diag d = {0};
    test *t = lit_parse("fuzz.lit", text, &d);
    if (!t && !d.msg)
        abort(); /* a failure must say why */
    if (t) {
        int events = 0;
        for (int i = 0; i < t->nthreads; i++)
            events += t->threads[i].code.n;
        /* Exploration is exponential: only tiny programs without branches. */
        if (t->nthreads <= 3 && events <= 6) {
            explore_opts o = {.models = {&model_src11, &model_ptx, &model_sc}, .nmodels = 3};
            explore_result r;
            explore(t, &o, &r);
            explore_result_free(&r);
        }
        test_free(t);
    }
    diag_free(&d);
    free(text);
    return 0;
}
