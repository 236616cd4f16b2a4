/* libFuzzer target for the report's reader of hwrun JSON: any bytes must give
 * a run or an error that names the file, never a crash, a hang or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/hwresults.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_run run;
    char err[1024] = "";
    if (hr_parse("fuzz.json", (const char *)data, size, &run, err, sizeof err) == 0) {
        hr_free(&run);
        return 0;
    }
    if (strncmp(err, "fuzz.json", 9) != 0 || !strstr(err, "error:"))
        abort(); /* a failure must name the file and say why */
    return 0;
}
