/* A growable string, the only text utility the generators and reports need. */
#ifndef MEMSIM_HWRUN_UTIL_H
#define MEMSIM_HWRUN_UTIL_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
} sbuf;

void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(sbuf *b, const char *fmt, va_list ap);
void sb_puts(sbuf *b, const char *s);
/* Takes the text (never NULL) and leaves b empty. */
char *sb_take(sbuf *b);
void sb_free(sbuf *b);

/* Seconds on the monotonic clock. */
double hw_now(void);

/* splitmix64: the one seeded generator behind every random choice. */
typedef struct {
    unsigned long long s;
} hw_rng;
unsigned long long rng_next(hw_rng *r);
/* Uniform in [0, n). */
unsigned long long rng_below(hw_rng *r, unsigned long long n);

#endif
