/* libFuzzer target for the Dat3M/herd GPU litmus importer: any bytes give a
 * test or an error message, never a crash, a hang or a leak.  Small tests
 * that parse are explored under every model, so the importer's IR goes
 * through symexec and the models too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    diag d = {0};
    test *t = litmus_parse("fuzz.litmus", text, &d, NULL);
    if (!t && !d.msg)
        abort(); /* a failure must say why */
    if (t) {
        int events = 0;
        for (int i = 0; i < t->nthreads; i++)
            events += t->threads[i].code.n;
        if (t->nthreads <= 3 && events <= 6) {
            explore_opts o = {.models = {&model_src11, &model_ptx, &model_sc, &model_vulkan}, .nmodels = 4};
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
