/* libFuzzer target for the .lit parser: any bytes must give a test or an
 * error message, never a crash, a hang or a leak.  Small tests that parse
 * are explored too, so the front end's output is fuzzed through symexec. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_input.h"

#include "../../sim/explore.h"
#include "../../lit/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    diag d = {0};
    test *t = lit_parse("fuzz.lit", text, &d);
    if (!t && !d.msg)
        abort(); /* a failure must say why */
    if (t) {
        if (fuzz_small_enough(t)) {
            explore_opts o = {.models = {&model_src11, &model_ptx, &model_sc}, .nmodels = 3, .max_executions = 20000};
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
