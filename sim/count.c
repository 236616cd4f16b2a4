/* Exact wide counts (count.h): schoolbook arithmetic on four 64-bit words. */
#include "count.h"

#include <limits.h>
#include <string.h>

bool count_add(count_t *a, count_t b)
{
    count_t r;
    uint64_t carry = 0;
    for (int i = 0; i < COUNT_WORDS; i++) {
        uint64_t s = a->w[i] + b.w[i];
        uint64_t c1 = s < a->w[i];
        uint64_t s2 = s + carry;
        uint64_t c2 = s2 < s;
        r.w[i] = s2;
        carry = c1 | c2;
    }
    if (carry)
        return false;
    *a = r;
    return true;
}

/* The 128-bit product of two words as (hi, lo), from 32-bit halves. */
static void mul_words(uint64_t x, uint64_t y, uint64_t *hi, uint64_t *lo)
{
    uint64_t x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
    uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (p00 & 0xffffffffu) | (mid << 32);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

bool count_mul(count_t *a, count_t b)
{
    uint64_t r[2 * COUNT_WORDS] = {0};
    for (int i = 0; i < COUNT_WORDS; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < COUNT_WORDS; j++) {
            uint64_t hi, lo;
            mul_words(a->w[i], b.w[j], &hi, &lo);
            uint64_t s = r[i + j] + lo;
            hi += s < lo;
            uint64_t s2 = s + carry;
            hi += s2 < s;
            r[i + j] = s2;
            carry = hi;
        }
        r[i + COUNT_WORDS] = carry;
    }
    for (int i = COUNT_WORDS; i < 2 * COUNT_WORDS; i++)
        if (r[i])
            return false;
    memcpy(a->w, r, sizeof a->w);
    return true;
}

int count_cmp(count_t a, count_t b)
{
    for (int i = COUNT_WORDS - 1; i >= 0; i--)
        if (a.w[i] != b.w[i])
            return a.w[i] < b.w[i] ? -1 : 1;
    return 0;
}

long count_long(count_t a)
{
    if (a.w[1] | a.w[2] | a.w[3] || a.w[0] > (uint64_t)LONG_MAX)
        return LONG_MAX;
    return (long)a.w[0];
}

double count_double(count_t a)
{
    double d = 0;
    for (int i = COUNT_WORDS - 1; i >= 0; i--)
        d = d * 18446744073709551616.0 + (double)a.w[i];
    return d;
}

char *count_str(count_t a, char *buf)
{
    char tmp[COUNT_DIGITS];
    int n = 0;
    do {
        /* a /= 10, remainder into the digit: long division word by word in 32-bit halves. */
        uint64_t rem = 0;
        for (int i = COUNT_WORDS - 1; i >= 0; i--) {
            uint64_t hi = (rem << 32) | (a.w[i] >> 32);
            uint64_t qhi = hi / 10;
            rem = hi % 10;
            uint64_t lo = (rem << 32) | (a.w[i] & 0xffffffffu);
            uint64_t qlo = lo / 10;
            rem = lo % 10;
            a.w[i] = (qhi << 32) | qlo;
        }
        tmp[n++] = (char)('0' + rem);
    } while (!count_is_zero(a));
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return buf;
}

bool count_factorial(int n, count_t *out)
{
    count_t f = count_of(1);
    for (int k = 2; k <= n; k++)
        if (!count_mul(&f, count_of((uint64_t)k)))
            return false;
    *out = f;
    return true;
}
