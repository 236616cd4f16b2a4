#include "diag.h"

#include <errno.h>
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
    if (line < 1) {   /* about the file as a whole (it cannot be read): no line to show */
        size_t need = strlen(d->file) + strlen(text) + 16;
        d->msg = malloc(need);
        snprintf(d->msg, need, "%s: error: %s\n", d->file, text);
        return;
    }

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

/* Reads a whole text file; errors (cannot open, too large, NUL bytes) go to d. */
char *read_text_file(const char *path, diag *d)
{
    d->file = path;
    d->source = "";
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_error(d, 0, 0, "cannot open the file: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap) {
            if (cap > (64u << 20)) {
                fclose(f);
                free(buf);
                diag_error(d, 0, 0, "file too large");
                return NULL;
            }
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        diag_error(d, 1, 1, "the file contains a NUL byte: not a text file");
        return NULL;
    }
    return buf;
}
