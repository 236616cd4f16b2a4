/* What every fuzz target does with its input: bound it, make it a C string,
 * and decide whether the parsed test is small enough to explore (exploration
 * is exponential: only tiny programs). */
#ifndef MEMSIM_FUZZ_INPUT_H
#define MEMSIM_FUZZ_INPUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/ir.h"

/* A NUL-terminated copy of the input (free it), or NULL when too large. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return NULL;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    return text;
}

static inline int fuzz_small_enough(const test *t)
{
    int events = 0;
    for (int i = 0; i < t->nthreads; i++)
        events += t->threads[i].code.n;
    return t->nthreads <= 3 && events <= 6;
}

#endif
