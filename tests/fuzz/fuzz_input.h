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

/* Statements a block runs, loops unrolled: a for loop with constant bounds
 * counts its trip count, any other loop 8 iterations (the search grows with
 * the events a thread runs, not with the statements written). */
static inline long fuzz_block_size(const block *b)
{
    long n = 0;
    for (int i = 0; i < b->n && n < 1000; i++) {
        const inst *in = &b->v[i];
        long body = fuzz_block_size(&in->body) + fuzz_block_size(&in->els);
        long trips = 8;
        if (in->kind == I_FOR && in->val && in->val2 && in->val->kind == EX_CONST && in->val2->kind == EX_CONST)
            trips = in->val2->value > in->val->value ? (in->val2->value - in->val->value > 1000 ? 1000 : in->val2->value - in->val->value) : 0;
        n += 1 + (in->kind == I_FOR || in->kind == I_WHILE ? trips * body : body);
    }
    return n;
}

static inline int fuzz_small_enough(const test *t)
{
    long events = 0;
    for (int i = 0; i < t->nthreads; i++)
        events += fuzz_block_size(&t->threads[i].code);
    return t->nthreads <= 3 && events <= 6;
}

#endif
