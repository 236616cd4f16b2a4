#ifndef MEMSIM_UNIT_H
#define MEMSIM_UNIT_H

void add_rel_tests(void);
void add_parse_tests(void);
void add_model_tests(void);
void add_explore_tests(void);
void add_diagnose_tests(void);
void add_pathfilter_tests(void);
void add_shmem_tests(void);

/* Parses text as a .lit file named "t.lit"; NULL on error with the message in *err. */
struct test;
const char *parse_error_of(const char *text);

#endif
