/* libFuzzer target for the Vulkan Alloy test importer and its predicates:
 * any bytes give a test or an error message, never a crash, a hang or a
 * leak.  Small tests that parse have their expectation lines evaluated. */
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
    alloy_expects ex = {0};
    test *t = alloy_parse("fuzz.test", text, &d, &ex);
    if (!t && !d.msg)
        abort();
    if (t) {
        int events = 0;
        for (int i = 0; i < t->nthreads; i++)
            events += t->threads[i].code.n;
        for (int k = 0; k < ex.n && k < 4 && t->nthreads <= 3 && events <= 6; k++) {
            bool sat;
            char err[512];
            alloy_check(t, &ex.v[k], &sat, err, sizeof err);
        }
        test_free(t);
    }
    alloy_expects_free(&ex);
    diag_free(&d);
    free(text);
    return 0;
}
