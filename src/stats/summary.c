/* summary.c: mean, standard deviations, min/max, median. */
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double mean(const double *v, int n)
{
	/* Ruby's Array#sum, which lkp's averages use: Kahan-Babuska
	 * compensated summation.  Counters of 1e12 summed over many runs keep
	 * their low digits, and the means are lkp's to the last bit, which
	 * decides how a difference such as 0.33 - 0.48 prints */
	double s = 0, c = 0;
	for (int i = 0; i < n; i++) {
		double t = s + v[i];
		if (fabs(s) >= fabs(v[i]))
			c += (s - t) + v[i];
		else
			c += (v[i] - t) + s;
		s = t;
	}
	return n ? (s + c) / n : 0;
}

static double sum_sq_dev(const double *v, int n)
{
	double m = mean(v, n), s = 0;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s;
}

double stddev_pop(const double *v, int n)
{
	return n ? sqrt(sum_sq_dev(v, n) / n) : 0;
}

double stddev_sample(const double *v, int n)
{
	return n > 1 ? sqrt(sum_sq_dev(v, n) / (n - 1)) : 0;
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
