/* hwrun's output: each outcome's count next to the models' verdicts, as text
 * and as JSON (everything needed to reproduce and report a run). */
#ifndef MEMSIM_HWRUN_REPORT_H
#define MEMSIM_HWRUN_REPORT_H

#include <stdio.h>

#include "hwtest.h"
#include "json.h"

/* The verdict class of a bucket against the judging model. */
const char *outcome_class(const hw_testresult *r, int bucket);

void hwreport_text(FILE *f, const hw_testresult *r, const hw_gpu *g, const hw_opts *o);
/* For a forall test (every kernel): the instances that showed the bug the models look for (the
 * condition broken, an error or hang state, out of heap, a timeout where the model says hang or error), and when the first one was
 * seen (seconds, launches; -1/0 when never).  false for exists tests. */
bool hw_bug_stats(const hw_testresult *r, const hw_result *R, uint64_t *k, double *first_s, uint64_t *first_launch);
void hwreport_json(jw *w, const hw_testresult *r, const hw_gpu *g, const hw_opts *o, bool with_source);
/* Device, driver and compiler, for the top of a JSON document. */
void hwreport_json_devices(jw *w, const hw_gpu *g);

#endif
