#ifndef MEMSIM_PARSE_H
#define MEMSIM_PARSE_H

#include "diag.h"
#include "ir.h"

/* Parses .lit text.  On error returns NULL and leaves the first error,
 * formatted as file:line:col: error: ..., in d->msg. */
test *lit_parse(const char *file, const char *text, diag *d);

/* Reads and parses a file; I/O errors are reported through d too. */
test *lit_parse_file(const char *path, diag *d);

/* Models the language knows by name (for `expect MODEL: ...`). */
extern const char *const lit_model_names[];

#endif
