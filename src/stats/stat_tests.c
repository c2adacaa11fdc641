/*
 * stat_tests.c: the two-sample tests behind `--rule stat` (Welch's t and
 * Mann-Whitney U), the special functions they need (regularized incomplete
 * beta, Student's t tail) and the Benjamini-Hochberg adjustment.
 *
 * Written here rather than taken from a library so that perfbot has no
 * numerical dependency; tests/unit/test_stat_tests.c holds it to GSL.
 */
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>

#define CF_MAX_ITER 20000       /* about sqrt(max(a, b)) steps are needed */
#define CF_EPS 1e-16
#define CF_TINY 1e-300          /* Lentz: stands in for a zero denominator */

/*
 * lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2) for x >= 10: the tail
 * of Stirling's series, sum of B_2k / (2k (2k-1) x^(2k-1)).  Eight terms
 * reach 1e-17 at x = 10, and the terms still decrease there.
 */
static double stirling_corr(double x)
{
	static const double c[] = {
		1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188,
		-691.0 / 360360, 1.0 / 156, -3617.0 / 122400,
	};
	double x2 = 1 / (x * x), s = 0;

	for (int i = (int)(sizeof(c) / sizeof(c[0])) - 1; i >= 0; i--)
		s = s * x2 + c[i];
	return s / x;
}

#define STIRLING_MIN 10.0
#define LOG_SQRT_2PI 0.91893853320467274178

/*
 * log B(a, b).  lgamma(a) + lgamma(b) - lgamma(a + b) loses about
 * eps * a log a to cancellation, 1e-7 relative for Student's t at
 * df = 1e8; with Stirling's series the large terms cancel analytically
 * (as R's nmath lbeta does):
 *   both >= 10:  log sqrt(2 pi) - log(a+b)/2 + (a - 1/2) log(a/(a+b))
 *                + (b - 1/2) log(b/(a+b)) + corr(a) + corr(b) - corr(a+b)
 *   only q >= 10: lgamma(p) - (q - 1/2) log1p(p/q) - p log(p+q) + p
 *                + corr(q) - corr(p+q)
 */
static double lbeta(double a, double b)
{
	double p = fmin(a, b), q = fmax(a, b);

	if (p >= STIRLING_MIN)
		return LOG_SQRT_2PI - 0.5 * log(p + q) + (p - 0.5) * log(p / (p + q))
			+ (q - 0.5) * log1p(-p / (p + q))
			+ stirling_corr(p) + stirling_corr(q) - stirling_corr(p + q);
	if (q >= STIRLING_MIN)
		return lgamma(p) - (q - 0.5) * log1p(p / q) - p * log(p + q) + p
			+ stirling_corr(q) - stirling_corr(p + q);
	return lgamma(p) + lgamma(q) - lgamma(p + q);
}

/*
 * The continued fraction of I_x(a, b) * a * B(a, b) / (x^a (1-x)^b),
 * evaluated by the modified Lentz method.  Its terms are
 *   d_{2m}   =  m (b - m) x / ((a + 2m - 1)(a + 2m))
 *   d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
 * and it converges quickly for x < (a + 1) / (a + b + 2).
 */
static double incbeta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1 / d;
	f = d;
	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double num, step;

		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		f *= d * c;

		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		step = d * c;
		f *= step;
		if (fabs(step - 1) < CF_EPS)
			return f;
	}
	return NAN;     /* did not converge: say so rather than guess */
}

/*
 * I_x(a, b) given x, y = 1 - x and their logarithms: t_pvalue computes
 * all four without cancellation or underflow, so that p-values near 1,
 * near 0 and beyond the smallest double's square stay accurate.
 */
static double incbeta_core(double a, double b, double x, double y, double lx, double ly)
{
	double front = exp(a * lx + b * ly - lbeta(a, b));

	if (x < (a + 1) / (a + b + 2))
		return front * incbeta_cf(a, b, x) / a;
	/* I_x(a, b) = 1 - I_{1-x}(b, a): the fraction converges on that side */
	return 1 - front * incbeta_cf(b, a, y) / b;
}

double incbeta(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1) || isinf(a) || isinf(b))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	return incbeta_core(a, b, x, 1 - x, log(x), log1p(-x));
}

double t_pvalue(double t, double df)
{
	double r, r2, x, y, lx, ly;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	if (t == 0)
		return 1;
	if (isinf(df))
		return erfc(fabs(t) / M_SQRT2);
	/*
	 * x = df / (df + t^2) and y = 1 - x, in terms of the ratio r of the
	 * smaller to the larger of sqrt(df) and |t|, so that t^2 never
	 * overflows, 1 - x never cancels and log x survives x underflowing
	 * (df = 1, t = 1e200 has p = 6e-201 while x = 1e-400)
	 */
	if (fabs(t) > sqrt(df)) {
		r = sqrt(df) / fabs(t);
		r2 = r * r;
		x = r2 / (1 + r2);
		y = 1 / (1 + r2);
		lx = 2 * log(r) - log1p(r2);
		ly = -log1p(r2);
	} else {
		r = fabs(t) / sqrt(df);
		r2 = r * r;
		x = 1 / (1 + r2);
		y = r2 / (1 + r2);
		lx = -log1p(r2);
		ly = 2 * log(r) - log1p(r2);
	}
	return incbeta_core(df / 2, 0.5, x, y, lx, ly);
}

static int all_finite(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

/*
 * Mean and sum of squared deviations of v[i] - shift.  The mean is a
 * compensated sum; the squares are corrected by the residual sum of
 * deviations (the "corrected two-pass" formula), which is exactly zero
 * in exact arithmetic and absorbs the mean's rounding otherwise.
 */
static void centered_moments(const double *v, int n, double shift, double *m, double *ss)
{
	double s = 0, c = 0, dev = 0, sq = 0;

	for (int i = 0; i < n; i++) {
		double y = (v[i] - shift) - c, t = s + y;
		c = (t - s) - y;
		s = t;
	}
	*m = s / n;
	for (int i = 0; i < n; i++) {
		double d = (v[i] - shift) - *m;
		dev += d;
		sq += d * d;
	}
	*ss = sq - dev * dev / n;
	if (*ss < 0)
		*ss = 0;
}

double welch_test(const double *a, int na, const double *b, int nb, double *t, double *df)
{
	double ma, mb, ssa, ssb, sa, sb, se2, diff, tt, dff;

	if (t)
		*t = NAN;
	if (df)
		*df = NAN;
	if (na < 2 || nb < 2 || !all_finite(a, na) || !all_finite(b, nb))
		return NAN;

	/* one common shift keeps the difference of means exact for big counters */
	centered_moments(a, na, a[0], &ma, &ssa);
	centered_moments(b, nb, a[0], &mb, &ssb);
	diff = ma - mb;
	sa = ssa / (na - 1) / na;
	sb = ssb / (nb - 1) / nb;
	se2 = sa + sb;

	if (se2 == 0) {
		if (t)
			*t = diff == 0 ? 0 : copysign(INFINITY, diff);
		if (df)
			*df = na + nb - 2;
		return diff == 0 ? 1 : 0;
	}
	tt = diff / sqrt(se2);
	dff = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
	if (t)
		*t = tt;
	if (df)
		*df = dff;
	return t_pvalue(tt, dff);
}

/* C(n, k) in a double: exact while it stays below 2^53 */
static double choose(int n, int k)
{
	double c = 1;

	if (k > n - k)
		k = n - k;
	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

double mann_whitney_exact_p(int na, int nb, double u)
{
	int m = na, n = nb, k;
	double *prev, *cur, lower, tot;
	size_t row;

	if (na < 1 || nb < 1 || !(u >= 0 && u <= (double)na * nb) || u != floor(u))
		return NAN;
	/* P(U >= u) = P(U <= na*nb - u): one tail of counts is enough */
	k = (int)fmin(u, (double)na * nb - u);

	/*
	 * cnt[i][j][v] = number of orderings of i a's and j b's with U = v,
	 * for v <= k only.  Rows over i are rolled: prev holds i - 1, cur
	 * holds i; within a row, j grows and reuses cur[j - 1].
	 */
	row = (size_t)k + 1;
	prev = xcalloc((size_t)(n + 1) * row, sizeof(double));
	cur = xcalloc((size_t)(n + 1) * row, sizeof(double));
	for (int j = 0; j <= n; j++)
		prev[(size_t)j * row] = 1;      /* i = 0: U is 0 */
	for (int i = 1; i <= m; i++) {
		double *tmp;

		for (int v = 0; v <= k; v++)
			cur[v] = v == 0;        /* j = 0: U is 0 */
		for (int j = 1; j <= n; j++) {
			double *c = cur + (size_t)j * row, *left = cur + (size_t)(j - 1) * row;
			const double *up = prev + (size_t)j * row;

			for (int v = 0; v <= k; v++)
				c[v] = left[v] + (v >= j ? up[v - j] : 0);
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	lower = 0;
	for (int v = 0; v <= k; v++)
		lower += prev[(size_t)n * row + v];
	free(prev);
	free(cur);

	tot = choose(na + nb, na);
	return fmin(1, 2 * lower / tot);
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_double(&((const struct ranked *)x)->v, &((const struct ranked *)y)->v);
}

double mann_whitney_exact_tied_p(const int *group_sizes, int nr_groups, int na, double u)
{
	int n = 0, smax, pos = 0;
	double *cnt, lower = 0, upper = 0, tot, s_obs;
	size_t row;

	for (int g = 0; g < nr_groups; g++) {
		if (group_sizes[g] < 1)
			return NAN;
		n += group_sizes[g];
	}
	if (na < 1 || na >= n || !(u >= 0 && u <= (double)na * (n - na)) ||
	    2 * u != floor(2 * u))
		return NAN;
	/*
	 * cnt[k][s]: ways to choose k a-values among the groups seen so far
	 * with doubled mid-rank sum s.  Rows over k are updated from the top
	 * down, so that each group's choices read the counts before it.
	 */
	smax = n * (n + 1);
	row = (size_t)smax + 1;
	cnt = xcalloc((size_t)(na + 1) * row, sizeof(double));
	cnt[0] = 1;
	for (int g = 0; g < nr_groups; g++) {
		int t = group_sizes[g], r2 = 2 * pos + t + 1;   /* doubled mid-rank */

		for (int k = na; k >= 1; k--) {
			double *dst = cnt + (size_t)k * row, ways = 1;

			for (int j = 1; j <= t && j <= k; j++) {
				const double *src = cnt + (size_t)(k - j) * row;
				int add = j * r2;

				ways = ways * (t - j + 1) / j;          /* C(t, j) */
				for (int s = 0; s + add <= smax; s++)
					if (src[s] != 0)
						dst[s + add] += ways * src[s];
			}
		}
		pos += t;
	}
	/* U = S/2 - na (na + 1) / 2, so U <= u is S <= 2u + na (na + 1) */
	s_obs = 2 * u + (double)na * (na + 1);
	for (int s = 0; s <= smax; s++) {
		double c = cnt[(size_t)na * row + s];

		if (s <= s_obs)
			lower += c;
		if (s >= s_obs)
			upper += c;
	}
	free(cnt);
	tot = choose(n, na);
	return fmin(1, 2 * fmin(lower, upper) / tot);
}

struct tie_groups {
	int *size;
	int nr;
};

double mann_whitney_test(const double *a, int na, const double *b, int nb,
			 struct mwu_result *res)
{
	int n = na + nb, i = 0;
	struct ranked *r;
	struct tie_groups groups = { NULL, 0 };
	double rank_sum_a = 0, ties = 0, ua, mu, var, z, p;

	if (res) {
		res->u = NAN;
		res->exact = false;
	}
	if (na < 1 || nb < 1 || !all_finite(a, na) || !all_finite(b, nb))
		return NAN;

	r = xmalloc(sizeof(*r) * (size_t)n);
	groups.size = xmalloc(sizeof(int) * (size_t)n);
	for (int k = 0; k < na; k++)
		r[k] = (struct ranked){ a[k], 1 };
	for (int k = 0; k < nb; k++)
		r[na + k] = (struct ranked){ b[k], 0 };
	qsort(r, (size_t)n, sizeof(*r), cmp_ranked);

	/* mid-ranks; t^3 - t summed over tie groups of size t */
	while (i < n) {
		int j = i;
		double mid, t;

		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		mid = (i + j) / 2.0 + 1;
		for (int k = i; k <= j; k++)
			if (r[k].from_a)
				rank_sum_a += mid;
		t = j - i + 1;
		ties += t * t * t - t;
		groups.size[groups.nr++] = j - i + 1;
		i = j + 1;
	}
	free(r);

	ua = rank_sum_a - (double)na * (na + 1) / 2;
	if (res)
		res->u = ua;
	p = NAN;
	if (groups.nr == 1) {
		p = 1;          /* every value tied: exactly no evidence */
	} else if (ties == 0 && na <= MWU_EXACT_MAX_N && nb <= MWU_EXACT_MAX_N) {
		p = mann_whitney_exact_p(na, nb, ua);
	} else if (ties != 0 && na <= MWU_EXACT_TIES_MAX_N && nb <= MWU_EXACT_TIES_MAX_N) {
		p = mann_whitney_exact_tied_p(groups.size, groups.nr, na, ua);
	}
	free(groups.size);
	if (!isnan(p)) {
		if (res)
			res->exact = true;
		return p;
	}

	mu = (double)na * nb / 2;
	var = (double)na * nb / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
	z = fmax(0, fabs(ua - mu) - 0.5) / sqrt(var);
	return fmin(1, erfc(z / M_SQRT2));
}

double mann_whitney(const double *a, int na, const double *b, int nb, double *u)
{
	struct mwu_result res;
	double p = mann_whitney_test(a, na, b, nb, &res);

	if (u)
		*u = res.u;
	return p;
}

double mann_whitney_min_p(int na, int nb)
{
	if (na < 1 || nb < 1)
		return 1;
	return fmin(1, 2 / choose(na + nb, na));
}

int mann_whitney_min_n(double alpha)
{
	if (!(alpha > 0 && alpha <= 1))
		return -1;
	/* 2 / C(2n, n) shrinks about 4-fold per step and reaches 0 (underflow)
	 * near n = 520, below any positive double alpha: the loop ends */
	for (int n = 1;; n++)
		if (mann_whitney_min_p(n, n) < alpha)
			return n;
}

static int cmp_pvalue_ptr(const void *x, const void *y)
{
	return cmp_double(*(const double *const *)x, *(const double *const *)y);
}

void bh_adjust(double *p, int n)
{
	double **ord = xmalloc(sizeof(*ord) * (size_t)(n ? n : 1)), run = 1;
	int m = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(p[i]))
			ord[m++] = &p[i];
	qsort(ord, (size_t)m, sizeof(*ord), cmp_pvalue_ptr);
	/* from the largest p down, keeping the running minimum of p * m / k */
	for (int k = m; k >= 1; k--) {
		double q = *ord[k - 1] * m / k;
		if (q < run)
			run = q;
		*ord[k - 1] = run;
	}
	free(ord);
}
