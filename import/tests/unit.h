#ifndef MEMSIM_IMPORT_UNIT_H
#define MEMSIM_IMPORT_UNIT_H
void add_litmus_tests(void);
void add_dispatch_tests(void);
void add_alloy_tests(void);
void add_write_tests(void);
#endif
