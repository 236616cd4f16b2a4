#ifndef MEMSIM_HWRUN_UNIT_H
#define MEMSIM_HWRUN_UNIT_H

#include "../../sim/explore.h"

void add_outcome_tests(void);
void add_stats_tests(void);
void add_plan_tests(void);
void add_codegen_tests(void);

/* Parses and explores text under ptx, src11 and sc; NULL on error. */
test *hw_parse(const char *text, explore_result *r);
/* The litmus library: every .lit file under dir (sorted), NULL-terminated. */
char **library_files(const char *dir);
void free_files(char **v);

#endif
