/* libFuzzer target for the report's reader of hwrun JSON: any bytes must give
 * a run or an error that names the file, never a crash, a hang or a leak; and
 * a run that loads must render (HTML page and Markdown summary, without the
 * execution graphs, which need the test files) without one either. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/hwresults.h"
#include "../../cli/report_model.h"
#include "../../cli/report_out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    hr_run run;
    char err[1024] = "";
    if (hr_parse("fuzz.json", (const char *)data, size, &run, err, sizeof err) == 0) {
        rp_report rep;
        rp_build(&rep, &run, 1);
        rp_graphs *graphs = calloc((size_t)rep.nrows + 1, sizeof *graphs);
        rp_write_html(sink, &rep, graphs, "memsim report fuzz.json");
        rp_write_md(sink, &rep, "memsim report fuzz.json");
        rp_graphs_free(graphs, rep.nrows);
        free(graphs);
        rp_free(&rep);
        hr_free(&run);
        return 0;
    }
    if (strncmp(err, "fuzz.json", 9) != 0 || !strstr(err, "error:"))
        abort(); /* a failure must name the file and say why */
    return 0;
}
