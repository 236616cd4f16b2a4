/* Statistics against values computed independently (a separate exact
 * summation of the binomial in Python, and closed forms). */
#include <CUnit/CUnit.h>
#include <math.h>

#include "../stats.h"
#include "unit.h"

#define NEAR(a, b, rel) CU_ASSERT(fabs((a) - (b)) <= (rel) * fabs(b) + 1e-300)

static void test_wilson(void)
{
    interval w = wilson95(5, 10);
    NEAR(w.lo, 0.2365931, 1e-5);
    NEAR(w.hi, 0.7634069, 1e-5);
    w = wilson95(0, 100);
    CU_ASSERT_EQUAL(w.lo, 0);
    NEAR(w.hi, 0.03699, 1e-3);
    w = wilson95(100, 100);
    CU_ASSERT_EQUAL(w.hi, 1);
}

static void test_clopper_pearson(void)
{
    interval c = clopper_pearson95(5, 10);
    NEAR(c.lo, 0.1870860, 1e-5);
    NEAR(c.hi, 0.8129140, 1e-5);
    c = clopper_pearson95(0, 10);
    CU_ASSERT_EQUAL(c.lo, 0);
    NEAR(c.hi, 0.3084971, 1e-6);
    c = clopper_pearson95(1, 10000000);
    NEAR(c.lo, 2.531780e-9, 1e-4);
    NEAR(c.hi, 5.571643e-7, 1e-4);
    c = clopper_pearson95(3, 1000);
    NEAR(c.lo, 0.0006191, 1e-3);
    NEAR(c.hi, 0.0087420, 1e-3);
    c = clopper_pearson95(10, 10);
    NEAR(c.lo, 0.6915029, 1e-6);
    CU_ASSERT_EQUAL(c.hi, 1);
    /* Large counts: Wilson's interval (documented), consistent bounds. */
    c = clopper_pearson95(500000000, 1000000000);
    CU_ASSERT(c.lo < 0.5 && c.hi > 0.5 && c.hi - c.lo < 1e-4);
}

static void test_zero_bounds(void)
{
    NEAR(rule_of_three(30000000), 1e-7, 1e-12);
    NEAR(upper95_zero(30000000), 9.985774e-8, 1e-5);
    CU_ASSERT(upper95_zero(30000000) < 1e-7); /* the target: 3e7 instances, none seen */
    NEAR(reproducibility(3), 0.9502129, 1e-6);
    CU_ASSERT_EQUAL(reproducibility(0), 0);
}

static void test_binom_cdf(void)
{
    NEAR(binom_cdf(5, 10, 0.5), 0.623046875, 1e-9);
    NEAR(binom_cdf(0, 10, 0.1), pow(0.9, 10), 1e-9);
    NEAR(binom_cdf(2, 1000000, 1e-6), 0.9196986, 1e-5); /* ~Poisson(1) */
    CU_ASSERT_EQUAL(binom_cdf(10, 10, 0.3), 1);
}

void add_stats_tests(void)
{
    CU_pSuite s = CU_add_suite("hwrun statistics", NULL, NULL);
    CU_add_test(s, "Wilson score interval", test_wilson);
    CU_add_test(s, "Clopper-Pearson interval", test_clopper_pearson);
    CU_add_test(s, "bounds when nothing is seen", test_zero_bounds);
    CU_add_test(s, "binomial distribution function", test_binom_cdf);
}
