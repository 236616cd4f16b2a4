#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void sb_vprintf(sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s)
            abort();
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_puts(sbuf *b, const char *s) { sb_printf(b, "%s", s); }

char *sb_take(sbuf *b)
{
    char *s = b->s ? b->s : calloc(1, 1);
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void sb_free(sbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

double hw_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

unsigned long long rng_next(hw_rng *r)
{
    unsigned long long z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

unsigned long long rng_below(hw_rng *r, unsigned long long n)
{
    if (n <= 1)
        return 0;
    /* Rejection keeps it uniform. */
    unsigned long long lim = ~0ull - (~0ull % n);
    unsigned long long x;
    do
        x = rng_next(r);
    while (x >= lim);
    return x % n;
}
