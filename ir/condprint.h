/* Printing a final condition: one printer, the spellings and the way an
 * operand is named given by the caller (.lit text, reports, PTX litmus). */
#ifndef MEMSIM_CONDPRINT_H
#define MEMSIM_CONDPRINT_H

#include <stddef.h>

#include "ir.h"

typedef struct {
    const char *and_op, *or_op, *not_open;   /* " && ", " || ", "!(" */
    /* Writes o's name into buf (size n). */
    void (*operand)(void *ctx, const operand *o, char *buf, size_t n);
    void *ctx;
} cond_style;

/* Appends c to the NUL-terminated text in buf (size n), truncating if full. */
void cond_print(const cond *c, const cond_style *st, char *buf, size_t n);
/* The whole text, however long, in a new string for the caller to free (the writers: a condition cut short
   would be another test). */
char *cond_text(const cond *c, const cond_style *st);

#endif
