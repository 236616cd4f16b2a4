/* libFuzzer target for the Vulkan Alloy test importer and its predicates:
 * any bytes give a test or an error message, never a crash, a hang or a
 * leak.  Small tests that parse have their expectation lines evaluated. */
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
    alloy_expects ex = {0};
    test *t = alloy_parse("fuzz.test", text, &d, &ex);
    if (!t && !d.msg)
        abort();
    if (t) {
        for (int k = 0; k < ex.n && k < 4 && fuzz_small_enough(t); k++) {
            bool sat;
            char err[512];
            /* A budget: the predicate model cannot prune, and a few RMWs on one location
             * make 7! coherence orders (a 114 s input once); 2000 candidates take 0.4 s. */
            alloy_check(t, &ex.v[k], 2000, &sat, err, sizeof err);
        }
        test_free(t);
    }
    alloy_expects_free(&ex);
    diag_free(&d);
    free(text);
    return 0;
}
