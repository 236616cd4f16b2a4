#include "stats.h"

#include <math.h>

interval wilson95(uint64_t k, uint64_t n)
{
    interval r = {0, 1};
    if (n == 0)
        return r;
    const double z = 1.959963984540054;
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double den = 1 + z2 / nn;
    double mid = (p + z2 / (2 * nn)) / den;
    double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / den;
    r.lo = k == 0 ? 0 : fmax(0, mid - half);
    r.hi = k == n ? 1 : fmin(1, mid + half);
    return r;
}

/* log of the binomial pmf, through lgamma so that n may be huge. */
static double log_pmf(uint64_t i, uint64_t n, double lp, double lq)
{
    double ni = (double)n, ii = (double)i;
    return lgamma(ni + 1) - lgamma(ii + 1) - lgamma(ni - ii + 1) + ii * lp + (ni - ii) * lq;
}

/* Sums pmf(i) for i in [a, b], starting from the term nearest the mode and
 * walking outwards with the ratio pmf(i+1)/pmf(i) = (n-i)/(i+1) * p/q until
 * terms stop mattering; everything relative to the largest term. */
static double tail_sum(uint64_t a, uint64_t b, uint64_t n, double p)
{
    if (a > b)
        return 0;
    double lp = log(p), lq = log1p(-p), r = p / (1 - p);
    double mode = floor(((double)n + 1) * p);
    uint64_t start = mode <= (double)a ? a : mode >= (double)b ? b : (uint64_t)mode;
    double lmax = log_pmf(start, n, lp, lq);
    double s = 1, t = 1;
    for (uint64_t i = start; i < b; i++) { /* upwards */
        t *= (double)(n - i) / (double)(i + 1) * r;
        s += t;
        if (t < 1e-17 * s)
            break;
    }
    t = 1;
    for (uint64_t i = start; i > a; i--) { /* downwards: pmf(i-1) = pmf(i) * i / (n-i+1) / r */
        t *= (double)i / (double)(n - i + 1) / r;
        s += t;
        if (t < 1e-17 * s)
            break;
    }
    return exp(lmax) * s;
}

double binom_cdf(uint64_t k, uint64_t n, double p)
{
    if (k >= n || p <= 0)
        return 1;
    if (p >= 1)
        return 0;
    /* Sum whichever side is shorter to the mode. */
    double mode = (double)n * p;
    if ((double)k <= mode)
        return fmin(1, tail_sum(0, k, n, p));
    return fmax(0, 1 - tail_sum(k + 1, n, n, p));
}

/* The p at which binom_cdf(k, n, p) equals target (decreasing in p). */
static double invert_cdf(uint64_t k, uint64_t n, double target)
{
    double lo = 0, hi = 1;
    for (int it = 0; it < 200; it++) {
        double mid = lo > 0 ? sqrt(lo * hi) : hi / 2; /* geometric once lo > 0: small p matter */
        if (lo == 0 && hi < 1e-300)
            break;
        if (binom_cdf(k, n, mid) > target)
            lo = mid;
        else
            hi = mid;
        if (hi - lo <= 1e-15 * hi)
            break;
    }
    return (lo + hi) / 2;
}

interval clopper_pearson95(uint64_t k, uint64_t n)
{
    interval r = {0, 1};
    if (n == 0)
        return r;
    /* Far from both ends the exact interval and Wilson's agree to many
     * digits; the exact sum would only cost time there. */
    if (k > 100000 && n - k > 100000)
        return wilson95(k, n);
    /* lo: P(X >= k | lo) = 0.025, i.e. cdf(k-1) = 0.975; hi: cdf(k) = 0.025. */
    r.lo = k == 0 ? 0 : invert_cdf(k - 1, n, 0.975);
    r.hi = k == n ? 1 : invert_cdf(k, n, 0.025);
    if (k == 0)
        r.hi = 1 - pow(0.025, 1.0 / (double)n);
    if (k == n)
        r.lo = pow(0.025, 1.0 / (double)n);
    return r;
}

double upper95_zero(uint64_t n) { return n ? -expm1(log(0.05) / (double)n) : 1; }

double rule_of_three(uint64_t n) { return n ? 3.0 / (double)n : 1; }

double reproducibility(uint64_t k) { return 1 - exp(-(double)k); }
