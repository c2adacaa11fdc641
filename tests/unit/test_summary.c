/*
 * test_summary.c: src/stats/summary.c against values worked out by hand
 * and GSL's descriptive statistics.
 */
#include "test_helpers.h"
#include "stats/summary.h"

#include <float.h>
#include <math.h>
#include <gsl/gsl_statistics_double.h>

static void test_mean(void **state)
{
	static const double v[] = { 1, 2, 3, 4 };
	/* 1e16 + 1 + 1 - 1e16: a plain sum loses both ones */
	static const double big[] = { 1e16, 1, 1, -1e16 };

	assert_true(mean(v, 4) == 2.5);
	assert_true(mean(v, 1) == 1);
	assert_true(mean(v, 0) == 0);
	assert_true(mean(big, 4) == 0.5);
	/* Ruby's Array#sum (Kahan-Babuska), as lkp averages: Kahan's own
	 * compensation gives 0.5266666666666667 here */
	static const double ruby[] = { 0.72, 0.16, 0.7 };
	assert_true(mean(ruby, 3) == 0.5266666666666666);
	/* a big term after a small sum: only Babuska's branch keeps the 1 */
	static const double late[] = { 1, 1e100, 1, -1e100 };
	assert_true(mean(late, 4) == 0.5);
}

static void test_stddev(void **state)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	/* the textbook example: population stddev 2, sample sqrt(32 / 7) */
	assert_true(stddev_pop(v, 8) == 2);
	assert_true(fabs(stddev_sample(v, 8) - sqrt(32.0 / 7)) < 1e-15);
	assert_true(fabs(stddev_sample(v, 8) - gsl_stats_sd(v, 1, 8)) < 1e-14);
	assert_true(fabs(stddev_pop(v, 5) - sqrt(gsl_stats_variance_with_fixed_mean(v, 1, 5, 3.8)))
		    < 1e-14);
	assert_true(stddev_pop(v, 1) == 0);
	assert_true(stddev_sample(v, 1) == 0);
	assert_true(stddev_pop(v, 0) == 0);
}

static void test_min_max_median(void **state)
{
	static const double v[] = { 3, -1, 7, 2 };
	double *s;

	assert_true(vmin(v, 4) == -1);
	assert_true(vmax(v, 4) == 7);
	assert_true(vmin(v + 2, 1) == 7 && vmax(v + 2, 1) == 7);
	assert_true(median(v, 4) == 2.5);      /* the middle two, 2 and 3 */
	assert_true(median(v, 3) == 3);
	assert_true(median(v, 1) == 3);
	s = sorted_copy(v, 4);
	assert_true(s[0] == -1 && s[1] == 2 && s[2] == 3 && s[3] == 7);
	assert_true(v[0] == 3);                 /* the input is left alone */
	free(s);
	assert_int_equal(cmp_double(&v[0], &v[1]), 1);
	assert_int_equal(cmp_double(&v[1], &v[0]), -1);
	assert_int_equal(cmp_double(&v[0], &v[0]), 0);
}

/* Finite values near DBL_MAX: their mean and deviation are finite and
 * right, not the NaN of an overflowed sum (README: sums are exact). */
static void test_near_dbl_max(void **state)
{
	double two[] = { 1.7e308, 1.7e308 };
	double three[] = { 1.7e308, 1.7e308, 1e308 };
	double cancel[] = { 1.7e308, 1.7e308, -1.7e308, -1.7e308 };
	double pm[] = { 1.7e308, -1.7e308 };
	double many[40];
	(void)state;

	assert_true(mean(two, 2) == 1.7e308);
	assert_true(fabs(mean(three, 3) / 1.4666666666666667e308 - 1) < 1e-15);
	assert_true(mean(cancel, 4) == 0);
	assert_true(stddev_pop(two, 2) == 0);
	assert_true(stddev_pop(pm, 2) == 1.7e308);
	pm[0] = 1e308, pm[1] = -1e308;
	assert_true(fabs(stddev_sample(pm, 2) / (1e308 * sqrt(2)) - 1) < 1e-15);
	for (int i = 0; i < 40; i++)
		many[i] = DBL_MAX;
	assert_true(fabs(mean(many, 40) / DBL_MAX - 1) < 1e-15);
	assert_true(stddev_pop(many, 40) < 1e-15 * DBL_MAX);     /* 0 but for the mean's last bit */
	/* an infinite value is no finite sum: not scaled (NaN, as before) */
	many[3] = INFINITY;
	assert_false(isfinite(mean(many, 40)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean),
		cmocka_unit_test(test_near_dbl_max),
		cmocka_unit_test(test_stddev),
		cmocka_unit_test(test_min_max_median),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
