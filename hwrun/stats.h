/* Statistics of k observations in n independent instances: rates, 95%
 * intervals (Wilson score and exact Clopper-Pearson), the rule of three for
 * k = 0, and the reproducibility estimate 1 - e^-k of Kirkham et al. 2020. */
#ifndef MEMSIM_HWRUN_STATS_H
#define MEMSIM_HWRUN_STATS_H

#include <stdint.h>

typedef struct {
    double lo, hi;
} interval;

/* Two-sided 95% Wilson score interval for k/n (n > 0). */
interval wilson95(uint64_t k, uint64_t n);
/* Two-sided 95% Clopper-Pearson ("exact") interval for k/n (n > 0). */
interval clopper_pearson95(uint64_t k, uint64_t n);
/* One-sided 95% upper bound when nothing was seen: exact 1 - 0.05^(1/n),
 * and the rule of three 3/n that approximates it. */
double upper95_zero(uint64_t n);
double rule_of_three(uint64_t n);
/* P(seeing it at least once again in as many instances) ~ 1 - e^-k. */
double reproducibility(uint64_t k);
/* P(X <= k) for X ~ Binomial(n, p). */
double binom_cdf(uint64_t k, uint64_t n, double p);

#endif
