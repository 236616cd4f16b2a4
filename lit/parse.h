#ifndef MEMSIM_PARSE_H
#define MEMSIM_PARSE_H

#include "../ir/diag.h"
#include "../ir/ir.h"

/* Settings from the command line: -D NAME=VALUE overrides `const NAME`. */
typedef struct {
    const char **define_names;
    const int64_t *define_values;
    int ndefines;
    /* A launch file of `memsim kernel` (instrument/): the threads come from
     * compiled kernels, so a test without threads is not an error. */
    bool threads_elsewhere;
} lit_options;

/* Parses .lit text.  On error returns NULL and leaves the first error,
 * formatted as file:line:col: error: ..., in d->msg. */
/* Whether a name is one of .lit's reserved words (it cannot name a thread, a register or memory). */
bool lit_reserved_word(const char *s);

test *lit_parse(const char *file, const char *text, diag *d);
test *lit_parse_opts(const char *file, const char *text, diag *d, const lit_options *o);

/* Reads and parses a file; I/O errors are reported through d too. */
test *lit_parse_file(const char *path, diag *d);
test *lit_parse_file_opts(const char *path, diag *d, const lit_options *o);

/* Models the language knows by name (for `expect MODEL: ...`). */
extern const char *const lit_model_names[];

#endif
