/* libFuzzer target for the Dat3M/herd GPU litmus importer: any bytes give a
 * test or an error message, never a crash, a hang or a leak.  Small tests
 * that parse are explored under every model, so the importer's IR goes
 * through symexec and the models too. */
#include <stdint.h>
#include <stdlib.h>

#include "../../tests/fuzz/fuzz_input.h"

#include "../import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    diag d = {0};
    test *t = litmus_parse("fuzz.litmus", text, &d, NULL);
    if (!t && !d.msg)
        abort(); /* a failure must say why */
    if (t) {
        if (fuzz_small_enough(t)) {
            explore_opts o = {.models = {&model_src11, &model_ptx, &model_sc, &model_vulkan}, .nmodels = 4, .max_executions = 20000};
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
