/* libFuzzer target for the launch files of `memsim kernel`
 * (instrument/launch.c): any bytes must give launches or an error message,
 * never a crash, a hang or a leak; what parses has its .lit part parsed too,
 * as memsim kernel does.  The seeds are the launch files in instrument/tests. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_input.h"

#include "../../instrument/launch.h"
#include "../../lit/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    diag d = {0};
    const char *names[1] = {"N"};
    int64_t values[1] = {3};
    launch_defines defs = {names, values, 1};
    launch_file lf;
    if (launch_parse("fuzz.lit", text, &defs, &lf, &d) == 0) {
        diag d2 = {0};
        lit_options lo = {.threads_elsewhere = true};
        test *t = lit_parse_opts("fuzz.lit", lf.rest, &d2, &lo);
        if (!t && !d2.msg)
            abort(); /* a failure must say why */
        test_free(t);
        diag_free(&d2);
        launch_file_free(&lf);
    } else if (!d.msg) {
        abort();
    }
    diag_free(&d);
    free(text);
    return 0;
}
