/* Exact execution counts wider than 64 bits.  With the reduction of
 * commuting read-modify-writes (sim/commute.c) one explored execution stands
 * for the product of factorials of its blocks of interchangeable RMWs: K6 at
 * 8 ranks has 7!^8 (about 4.3e29) executions.  A count is a fixed 256-bit
 * unsigned integer (C11 has no 128-bit type); an operation that would not fit
 * reports it, so a count is exact or the exploration fails -- never rounded,
 * never saturated. */
#ifndef MEMSIM_COUNT_H
#define MEMSIM_COUNT_H

#include <stdbool.h>
#include <stdint.h>

enum { COUNT_WORDS = 4, COUNT_DIGITS = 80 };

typedef struct {
    uint64_t w[COUNT_WORDS];   /* least significant word first */
} count_t;

static inline count_t count_of(uint64_t v) { return (count_t){{v, 0, 0, 0}}; }
static inline bool count_is_zero(count_t a)
{
    return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) == 0;
}
static inline bool count_is_one(count_t a) { return a.w[0] == 1 && (a.w[1] | a.w[2] | a.w[3]) == 0; }

/* *a += b; false (a unchanged) if the sum does not fit. */
bool count_add(count_t *a, count_t b);
/* *a *= b; false (a unchanged) if the product does not fit. */
bool count_mul(count_t *a, count_t b);
int count_cmp(count_t a, count_t b);
/* The value as a long, or LONG_MAX when it does not fit (for comparisons
 * with zero and small numbers only: every printer uses count_str). */
long count_long(count_t a);
double count_double(count_t a);
/* Decimal digits into buf (COUNT_DIGITS bytes); returns buf. */
char *count_str(count_t a, char *buf);
/* n! into *out; false if it does not fit. */
bool count_factorial(int n, count_t *out);

#endif
