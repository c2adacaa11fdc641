/* summary.c: mean, standard deviations, min/max, median. */
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Ruby's Array#sum, which lkp's averages use: Kahan-Babuska compensated
 * summation, of v[i] * 2^-shift. */
static double kb_sum(const double *v, int n, int shift)
{
	double s = 0, c = 0;
	for (int i = 0; i < n; i++) {
		double x = shift ? ldexp(v[i], -shift) : v[i];
		double t = s + x;
		if (fabs(s) >= fabs(x))
			c += (s - t) + x;
		else
			c += (x - t) + s;
		s = t;
	}
	return s + c;
}

/* A power of 2 past n: v[i] * 2^-k summed n times stays below DBL_MAX. */
static int overflow_shift(int n)
{
	int k = 1;
	while (k < 32 && (1L << k) < (long)n)
		k++;
	return k + 1;
}

static bool all_finite(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

double mean(const double *v, int n)
{
	/* Counters of 1e12 summed over many runs keep their low digits, and
	 * the means are lkp's to the last bit, which decides how a
	 * difference such as 0.33 - 0.48 prints */
	double m = n ? kb_sum(v, n, 0) / n : 0;

	/*
	 * Finite values whose sum passes DBL_MAX (1.7e308 + 1.7e308) made
	 * inf - inf = NaN of the compensation: sum them scaled by 2^-k
	 * instead, which is exact (a power of 2; only subnormals, far below
	 * the sum's last bit, lose bits), and scale the mean back.  Only
	 * then, so that every other mean stays lkp's, bit for bit.
	 */
	if (!isfinite(m) && all_finite(v, n)) {
		int k = overflow_shift(n);
		m = ldexp(kb_sum(v, n, k) / n, k);
	}
	return m;
}

static double sum_sq_dev(const double *v, int n)
{
	double m = mean(v, n), s = 0;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s;
}

/*
 * sqrt(sum_sq_dev / div) for finite values whose deviations or squares
 * pass DBL_MAX (1.7e308 and -1.7e308): the deviations of v * 2^-k (which
 * cannot overflow) divided by the largest of them, as hypot does, then
 * scaled back.
 */
static double scaled_stddev(const double *v, int n, int div)
{
	int k = overflow_shift(n);
	double m = ldexp(mean(v, n), -k), big = 0, s = 0;

	for (int i = 0; i < n; i++)
		big = fmax(big, fabs(ldexp(v[i], -k) - m));
	if (big == 0)
		return 0;
	for (int i = 0; i < n; i++) {
		double d = (ldexp(v[i], -k) - m) / big;
		s += d * d;
	}
	return ldexp(big * sqrt(s / div), k);
}

static double stddev_div(const double *v, int n, int div)
{
	double sd = sqrt(sum_sq_dev(v, n) / div);

	if (!isfinite(sd) && all_finite(v, n))
		sd = scaled_stddev(v, n, div);
	return sd;
}

double stddev_pop(const double *v, int n)
{
	return n ? stddev_div(v, n, n) : 0;
}

double stddev_sample(const double *v, int n)
{
	return n > 1 ? stddev_div(v, n, n - 1) : 0;
}

double vmin(const double *v, int n)
{
	double m = v[0];
	for (int i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double vmax(const double *v, int n)
{
	double m = v[0];
	for (int i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double *sorted_copy(const double *v, int n)
{
	double *s = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	if (n)
		memcpy(s, v, sizeof(double) * (size_t)n);
	qsort(s, (size_t)n, sizeof(double), cmp_double);
	return s;
}

double median(const double *v, int n)
{
	double *s = sorted_copy(v, n), m;
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}
