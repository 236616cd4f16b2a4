/* Error reports in the form every compiler user knows:
 *   file:line:col: error: message
 *     the offending line
 *         ^                                                  */
#ifndef MEMSIM_DIAG_H
#define MEMSIM_DIAG_H

#include <stddef.h>

typedef struct {
    const char *file;
    const char *source;
    char *msg;       /* first error, formatted; NULL when none */
    int count;
} diag;

void diag_error(diag *d, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_free(diag *d);
/* Reads a whole text file (NULL and an error in d when it cannot). */
char *read_text_file(const char *path, diag *d);

#endif
