#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Only the first error is kept: later ones are usually consequences of it. */
void diag_error(diag *d, int line, int col, const char *fmt, ...)
{
    d->count++;
    if (d->msg)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);

    const char *p = d->source ? d->source : "";
    for (int l = 1; l < line && *p; l++) {
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    size_t len = strcspn(p, "\r\n");
    if (len > 300)
        len = 300;
    char caret[320];
    int c = col < 1 ? 1 : col;
    if (c > 300)
        c = 300;
    int k = 0;
    for (int i = 1; i < c && k < 310; i++)
        caret[k++] = (i - 1 < (int)len && p[i - 1] == '\t') ? '\t' : ' ';
    caret[k++] = '^';
    caret[k] = 0;

    size_t need = strlen(d->file) + strlen(text) + len + (size_t)k + 64;
    d->msg = malloc(need);
    snprintf(d->msg, need, "%s:%d:%d: error: %s\n  %.*s\n  %s\n", d->file, line, col, text, (int)len, p,
             caret);
}

void diag_free(diag *d)
{
    free(d->msg);
    d->msg = NULL;
}
