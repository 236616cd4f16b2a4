#ifndef MEMSIM_NUMARG_H
#define MEMSIM_NUMARG_H

#include <stdbool.h>

/* A command-line value that must be a whole number from lo to hi ("4", not "4x", "" or "abc"):
 * true and *out set, or false for the caller to name the option. */
bool whole_arg(const char *v, long lo, long hi, long *out);

#endif
