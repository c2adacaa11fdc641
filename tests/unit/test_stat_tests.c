/*
 * test_stat_tests.c: holds src/stats/stat_tests.c to independent answers:
 * GSL for the special functions and Welch's t, brute-force enumeration of
 * all splits for the exact Mann-Whitney distribution, and textbook values.
 */
#include "test_helpers.h"
#include "stats/stat_tests.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_statistics_double.h>

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static void assert_rel(double got, double want, double tol, const char *what)
{
	double err = want == 0 ? fabs(got) : fabs(got - want) / fabs(want);

	if (!(err <= tol))
		fail_msg("%s: got %.17g, want %.17g (relative error %.3g > %.3g)",
			 what, got, want, err, tol);
}

/* Deterministic standard normal samples: xorshift64* and Box-Muller. */
struct rng { uint64_t s; };

static double rng_uniform(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return ((r->s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_normal(struct rng *r)
{
	double u1 = rng_uniform(r), u2 = rng_uniform(r);

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* ---- incomplete beta and Student's t against GSL ---- */

static void test_incbeta_matches_gsl(void **state)
{
	static const double as[] = { 0.1, 0.5, 1, 1.5, 2.5, 5, 10, 50, 100, 500, 5000 };
	static const double xs[] = { 1e-8, 1e-3, 0.01, 0.1, 0.25, 0.4, 0.5, 0.6,
				     0.75, 0.9, 0.99, 0.999, 1 - 1e-8 };
	int compared = 0;

	for (size_t i = 0; i < ARRAY_SIZE(as); i++)
		for (size_t j = 0; j < ARRAY_SIZE(as); j++)
			for (size_t k = 0; k < ARRAY_SIZE(xs); k++) {
				double a = as[i], b = as[j], x = xs[k], want;
				char what[96];
				gsl_sf_result res;

				/* GSL reports underflow through its status */
				if (gsl_sf_beta_inc_e(a, b, x, &res) != GSL_SUCCESS)
					continue;
				want = res.val;
				if (want < 1e-290)
					continue;
				snprintf(what, sizeof(what), "incbeta(%g, %g, %g)", a, b, x);
				assert_rel(incbeta(a, b, x), want, 1e-9, what);
				compared++;
			}
	/* most of the grid must really have been compared */
	assert_true(compared > 1000);
}

static void test_incbeta_edges(void **state)
{
	assert_true(incbeta(2, 3, 0) == 0);
	assert_true(incbeta(2, 3, 1) == 1);
	assert_true(isnan(incbeta(0, 3, 0.5)));
	assert_true(isnan(incbeta(2, -1, 0.5)));
	assert_true(isnan(incbeta(2, 3, -0.1)));
	assert_true(isnan(incbeta(2, 3, 1.1)));
	assert_true(isnan(incbeta(NAN, 3, 0.5)));
	assert_true(isnan(incbeta(2, 3, NAN)));
	/* closed forms: I_x(1, 1) = x; I_x(a, 1) = x^a; symmetry */
	assert_rel(incbeta(1, 1, 0.3), 0.3, 1e-14, "I_0.3(1,1)");
	assert_rel(incbeta(3, 1, 0.5), 0.125, 1e-14, "I_0.5(3,1)");
	assert_rel(incbeta(2.5, 7, 0.2), 1 - incbeta(7, 2.5, 0.8), 1e-12, "symmetry");
}

/*
 * The reference for Student's t: GSL's gsl_cdf_tdist_Q is exact only up to
 * 30 degrees of freedom (past that it switches to an asymptotic series
 * good to ~1e-8), so larger df are held to the defining identity
 * p = I_{df/(df+t^2)}(df/2, 1/2) = 1 - I_{t^2/(df+t^2)}(1/2, df/2)
 * evaluated by GSL's own incomplete beta.
 */
static double t_pvalue_gsl(double t, double df)
{
	gsl_sf_result res;

	if (df <= 30)
		return 2 * gsl_cdf_tdist_Q(fabs(t), df);
	if (gsl_sf_beta_inc_e(df / 2, 0.5, df / (df + t * t), &res) != GSL_SUCCESS)
		return 0;
	/* near p = 1, df / (df + t^2) has rounded: use the complement's argument */
	if (res.val > 0.5)
		return 1 - gsl_sf_beta_inc(0.5, df / 2, t * t / (df + t * t));
	return res.val;
}

static void test_t_pvalue_matches_gsl(void **state)
{
	static const double dfs[] = { 0.5, 1, 1.5, 2, 3, 4.7, 5, 8, 10, 17.3, 29.9,
				      30, 31, 50, 100, 300, 1000, 1e4 };
	static const double ts[] = { 0, 1e-6, 1e-3, 0.1, 0.5, 1, 1.5, 1.96, 2.5,
				     3, 5, 8, 10, 30, 100, 1e3, 1e6 };
	int compared = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dfs); i++)
		for (size_t j = 0; j < ARRAY_SIZE(ts); j++) {
			double df = dfs[i], t = ts[j], want = t_pvalue_gsl(t, df);
			char what[96];

			if (want < 1e-290)
				continue;
			snprintf(what, sizeof(what), "t_pvalue(%g, %g)", t, df);
			assert_rel(t_pvalue(t, df), want, 1e-9, what);
			assert_rel(t_pvalue(-t, df), want, 1e-9, what);
			compared++;
		}
	assert_true(compared > 250);
}

/* 20-digit values from mpmath's betainc at 50 digits */
static void test_t_pvalue_high_precision(void **state)
{
	static const struct { double t, df, p; } ref[] = {
		{ 10, 31, 3.2047954918308862706e-11 },
		{ 2, 1000, 0.045770346493251640049 },
		{ 5, 1e6, 5.733997870890741569e-7 },
		{ 1e-3, 50, 0.99920609477550166131 },
		{ 40, 200, 2.2487396535202506658e-97 },
		{ 1.5, 1e8, 0.13361440569470752009 },
		{ 3, 2.5, 0.072576095549031843893 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ref); i++) {
		char what[64];

		snprintf(what, sizeof(what), "t_pvalue(%g, %g)", ref[i].t, ref[i].df);
		assert_rel(t_pvalue(ref[i].t, ref[i].df), ref[i].p, 1e-9, what);
	}
}

static void test_t_pvalue_edges(void **state)
{
	assert_true(t_pvalue(0, 5) == 1);
	assert_true(t_pvalue(INFINITY, 5) == 0);
	assert_true(t_pvalue(-INFINITY, 5) == 0);
	assert_true(isnan(t_pvalue(NAN, 5)));
	assert_true(isnan(t_pvalue(1, 0)));
	assert_true(isnan(t_pvalue(1, -2)));
	assert_true(isnan(t_pvalue(1, NAN)));
	/* the normal limit */
	assert_rel(t_pvalue(1.96, INFINITY), 2 * gsl_cdf_ugaussian_Q(1.96), 1e-12, "normal");
	/* df = 1 is Cauchy: p = 1 - 2 atan(t) / pi, here where t^2 would overflow */
	assert_rel(t_pvalue(1e200, 1), 2 / (M_PI * 1e200), 1e-9, "cauchy tail");
	/* textbook table: t(0.975; 10) = 2.228 */
	assert_true(fabs(t_pvalue(2.228139, 10) - 0.05) < 1e-6);
}

/* ---- Welch ---- */

static void welch_gsl(const double *a, int na, const double *b, int nb,
		      double *t, double *df, double *p)
{
	double va = gsl_stats_variance(a, 1, na) / na, vb = gsl_stats_variance(b, 1, nb) / nb;

	*t = (gsl_stats_mean(a, 1, na) - gsl_stats_mean(b, 1, nb)) / sqrt(va + vb);
	*df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
	*p = t_pvalue_gsl(*t, *df);
}

static void test_welch_matches_gsl(void **state)
{
	struct rng r = { 0x9e3779b97f4a7c15ULL };
	double a[40], b[40];

	for (int trial = 0; trial < 300; trial++) {
		int na = 2 + trial % 17, nb = 2 + (trial * 7) % 23;
		double sa = 0.5 + (trial % 5), sb = 0.5 + (trial % 3);
		double shift = (trial % 11) * 0.3, t, df, p, gt, gdf, gp;
		char what[64];

		for (int i = 0; i < na; i++)
			a[i] = 100 + shift + sa * rng_normal(&r);
		for (int i = 0; i < nb; i++)
			b[i] = 100 + sb * rng_normal(&r);
		p = welch_test(a, na, b, nb, &t, &df);
		welch_gsl(a, na, b, nb, &gt, &gdf, &gp);
		snprintf(what, sizeof(what), "welch trial %d", trial);
		assert_rel(t, gt, 1e-9, what);
		assert_rel(df, gdf, 1e-9, what);
		assert_rel(p, gp, 1e-9, what);
	}
}

static void test_welch_textbook(void **state)
{
	/* Wikipedia, "Welch's t-test", example 1 (equal sizes, unequal
	 * variances): t = -2.46, df = 25.0, p = 0.021 */
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	double t, df, p = welch_test(a1, 15, a2, 15, &t, &df);

	assert_true(fabs(t - -2.46) < 0.005);
	assert_true(fabs(df - 25.0) < 0.05);
	assert_true(fabs(p - 0.021) < 0.0005);
	/* swapping the samples flips t only */
	assert_rel(welch_test(a2, 15, a1, 15, &t, NULL), p, 1e-12, "swap");
	assert_true(t > 2.45);
}

static void test_welch_edges(void **state)
{
	static const double c10[] = { 10, 10, 10 }, c20[] = { 20, 20, 20 };
	static const double v[] = { 1, 2, 3 }, w[] = { 1, NAN, 3 }, inf[] = { 1, INFINITY, 3 };
	double t, df;

	assert_true(isnan(welch_test(v, 1, v, 3, &t, &df)));
	assert_true(isnan(t) && isnan(df));
	assert_true(isnan(welch_test(v, 3, v, 1, NULL, NULL)));
	assert_true(isnan(welch_test(v, 3, w, 3, &t, &df)));
	assert_true(isnan(welch_test(w, 3, v, 3, NULL, NULL)));
	assert_true(isnan(welch_test(inf, 3, v, 3, NULL, NULL)));

	/* both sides constant: the constants differ, or they do not */
	assert_true(welch_test(c10, 3, c20, 3, &t, &df) == 0);
	assert_true(isinf(t) && t < 0);
	assert_true(df == 4);
	assert_true(welch_test(c20, 3, c10, 3, &t, NULL) == 0);
	assert_true(isinf(t) && t > 0);
	assert_true(welch_test(c10, 3, c10, 3, &t, NULL) == 1);
	assert_true(t == 0);

	/* one side constant is an ordinary test */
	double p = welch_test(c10, 3, v, 3, &t, &df);
	assert_true(p > 0 && p < 0.05);
	assert_rel(df, 2, 1e-12, "df with one constant side");
}

static void test_welch_huge_counters(void **state)
{
	/* counters near 1e15 that differ by units: the naive sum of squares
	 * loses every digit of the variance */
	double a[5], b[5], sa[5], sb[5], t, ts, df, dfs;

	for (int i = 0; i < 5; i++) {
		sa[i] = i;
		sb[i] = i + 2 + (i % 2) * 0.5;
		a[i] = 1e15 + sa[i];
		b[i] = 1e15 + sb[i];
	}
	double p = welch_test(a, 5, b, 5, &t, &df), ps = welch_test(sa, 5, sb, 5, &ts, &dfs);
	assert_rel(p, ps, 1e-12, "p at 1e15");
	assert_rel(t, ts, 1e-12, "t at 1e15");
	assert_rel(df, dfs, 1e-12, "df at 1e15");
	assert_true(p < 0.1);
}

/* ---- Mann-Whitney ---- */

/* P(U <= u) and P(U >= u) by enumerating every split of ranks 1..na+nb */
static double brute_exact_p(int na, int nb, int u)
{
	int n = na + nb;
	double le = 0, ge = 0, tot = 0;

	for (unsigned mask = 0; mask < (1u << n); mask++) {
		int ranks = 0, uu;

		if (__builtin_popcount(mask) != na)
			continue;
		for (int i = 0; i < n; i++)
			if (mask & (1u << i))
				ranks += i + 1;
		uu = ranks - na * (na + 1) / 2;
		le += uu <= u;
		ge += uu >= u;
		tot++;
	}
	return fmin(1, 2 * fmin(le, ge) / tot);
}

static void test_mwu_exact_matches_enumeration(void **state)
{
	for (int na = 1; na <= 8; na++)
		for (int nb = 1; nb <= 8; nb++)
			for (int u = 0; u <= na * nb; u++) {
				char what[64];

				snprintf(what, sizeof(what), "exact p na=%d nb=%d u=%d", na, nb, u);
				assert_rel(mann_whitney_exact_p(na, nb, u),
					   brute_exact_p(na, nb, u), 1e-13, what);
			}
}

/* U of a by counting pairs, the definition */
static double pair_u(const double *a, int na, const double *b, int nb)
{
	double u = 0;

	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	return u;
}

static void test_mwu_on_data(void **state)
{
	struct rng r = { 12345 };
	double a[12], b[12], u;

	for (int trial = 0; trial < 200; trial++) {
		int na = 1 + trial % 9, nb = 1 + (trial / 9) % 12;
		double shift = (trial % 4) * 0.7, p;

		for (int i = 0; i < na; i++)
			a[i] = shift + rng_normal(&r);
		for (int i = 0; i < nb; i++)
			b[i] = rng_normal(&r);
		p = mann_whitney(a, na, b, nb, &u);
		assert_true(u == pair_u(a, na, b, nb));
		if (na + nb <= 16)
			assert_rel(p, brute_exact_p(na, nb, (int)u), 1e-13, "mwu on data");
		else
			assert_rel(p, mann_whitney_exact_p(na, nb, u), 1e-13, "mwu on data");
	}
}

static void test_mwu_textbook(void **state)
{
	/* complete separation: the smallest p of the exact test */
	static const double lo4[] = { 1, 2, 3, 4 }, hi4[] = { 5, 6, 7, 8 };
	static const double lo3[] = { 1, 2, 3 }, hi3[] = { 4, 5, 6 };
	/* 5 vs 5 with U = 2: 2 * (1 + 1 + 2) / C(10, 5) = 8 / 252 */
	static const double a5[] = { 1, 2, 3, 4, 7 }, b5[] = { 5, 6, 8, 9, 10 };
	/* R's ?wilcox.test example: W = 35, one-sided p = 0.1272 */
	static const double rx[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	static const double ry[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double u;

	assert_rel(mann_whitney(lo4, 4, hi4, 4, &u), 2.0 / 70, 1e-14, "4v4");
	assert_true(u == 0);
	assert_rel(mann_whitney(hi4, 4, lo4, 4, &u), 2.0 / 70, 1e-14, "4v4 swapped");
	assert_true(u == 16);
	assert_rel(mann_whitney(lo3, 3, hi3, 3, NULL), 0.1, 1e-14, "3v3");
	assert_rel(mann_whitney(a5, 5, b5, 5, &u), 8.0 / 252, 1e-14, "5v5 U=2");
	assert_true(u == 2);
	assert_true(fabs(mann_whitney(rx, 10, ry, 5, &u) - 2 * 0.1272) < 1e-4);
	assert_true(u == 35);
}

static void test_mwu_min_p(void **state)
{
	assert_rel(mann_whitney_min_p(4, 4), 2.0 / 70, 1e-15, "min p 4v4");
	assert_rel(mann_whitney_min_p(3, 3), 0.1, 1e-15, "min p 3v3");
	assert_rel(mann_whitney_min_p(5, 3), 2.0 / 56, 1e-15, "min p 5v3");
	assert_true(mann_whitney_min_p(1, 1) == 1);
	assert_true(mann_whitney_min_p(0, 5) == 1);
	/* it is what the exact test gives at total separation */
	for (int na = 1; na <= 9; na++)
		for (int nb = 1; nb <= 9; nb++)
			assert_rel(mann_whitney_min_p(na, nb), mann_whitney_exact_p(na, nb, 0),
				   1e-14, "min p = p(U=0)");

	assert_int_equal(mann_whitney_min_n(0.05), 4);
	assert_int_equal(mann_whitney_min_n(0.1), 4);        /* 3v3 gives exactly 0.1 */
	assert_int_equal(mann_whitney_min_n(0.2), 3);
	assert_int_equal(mann_whitney_min_n(0.01), 5);
	assert_int_equal(mann_whitney_min_n(1), 2);
	assert_true(mann_whitney_min_n(1e-300) > 100);
	assert_int_equal(mann_whitney_min_n(0), -1);
	assert_int_equal(mann_whitney_min_n(1.5), -1);
	assert_int_equal(mann_whitney_min_n(NAN), -1);
}

/* the tie-corrected normal approximation, written out from its definition */
static double normal_approx_p(const double *a, int na, const double *b, int nb)
{
	double pooled[2 * MWU_EXACT_MAX_N + 2], u = pair_u(a, na, b, nb), ties = 0, var;
	int n = na + nb;

	for (int i = 0; i < na; i++)
		pooled[i] = a[i];
	for (int i = 0; i < nb; i++)
		pooled[na + i] = b[i];
	for (int i = 0; i < n; i++) {
		int t = 0, first = 1;

		for (int j = 0; j < n; j++) {
			if (pooled[j] == pooled[i]) {
				t++;
				if (j < i)
					first = 0;
			}
		}
		if (first)
			ties += (double)t * t * t - t;
	}
	var = na * nb / 12.0 * (n + 1 - ties / ((double)n * (n - 1)));
	return fmin(1, 2 * gsl_cdf_ugaussian_Q(fmax(0, fabs(u - na * nb / 2.0) - 0.5) / sqrt(var)));
}

/*
 * The exact permutation p of data with ties, by brute force: every way of
 * choosing which na of the pooled values are a's, U counted by pairs.
 */
static double brute_tied_p(const double *a, int na, const double *b, int nb)
{
	double pooled[24], sub_a[24], sub_b[24], u = pair_u(a, na, b, nb), le = 0, ge = 0, tot = 0;
	int n = na + nb;

	for (int i = 0; i < na; i++)
		pooled[i] = a[i];
	for (int i = 0; i < nb; i++)
		pooled[na + i] = b[i];
	for (unsigned mask = 0; mask < (1u << n); mask++) {
		int ka = 0, kb = 0;
		double uu;

		if (__builtin_popcount(mask) != na)
			continue;
		for (int i = 0; i < n; i++) {
			if (mask & (1u << i))
				sub_a[ka++] = pooled[i];
			else
				sub_b[kb++] = pooled[i];
		}
		uu = pair_u(sub_a, na, sub_b, nb);
		le += uu <= u;
		ge += uu >= u;
		tot++;
	}
	return fmin(1, 2 * fmin(le, ge) / tot);
}

static void test_mwu_ties_exact(void **state)
{
	/* the example: the normal approximation said 0.0301 */
	static const double a[] = { 5, 5, 7, 9, 9 }, b[] = { 3, 3, 4, 5, 5 };
	static const double c[] = { 7, 7, 7, 7 }, d[] = { 7, 7, 7 };
	static const double lo[] = { 1, 1, 2, 2, 2 }, hi[] = { 5, 5, 6, 6, 6 };
	struct mwu_result res;
	struct rng r = { 4242 };
	double p, x[12], y[12];

	p = mann_whitney_test(a, 5, b, 5, &res);
	assert_rel(p, 2.0 / 42, 1e-13, "[5,5,7,9,9] vs [3,3,4,5,5]");
	assert_true(fabs(p - 0.0476) < 5e-5);
	assert_true(res.exact);
	assert_true(res.u == pair_u(a, 5, b, 5));
	assert_rel(p, brute_tied_p(a, 5, b, 5), 1e-13, "brute");
	/* all tied: no evidence either way, and that is exact */
	assert_true(mann_whitney_test(c, 4, d, 3, &res) == 1);
	assert_true(res.exact && res.u == 6);
	/* complete separation despite ties: the smallest p, 2 / C(10, 5) */
	assert_rel(mann_whitney(lo, 5, hi, 5, NULL), 2.0 / 252, 1e-13, "ties separated");

	/* integer data with many ties, every size to 8 + 8 and up to 12 + 4 */
	for (int trial = 0; trial < 400; trial++) {
		int na = 1 + trial % 8, nb = 1 + (trial / 8) % 8, levels = 2 + trial % 5;
		char what[64];

		if (trial >= 320) {
			na = 9 + trial % 4;
			nb = 4;
		}
		for (int i = 0; i < na; i++)
			x[i] = floor(rng_uniform(&r) * levels) + (trial % 3 == 0);
		for (int i = 0; i < nb; i++)
			y[i] = floor(rng_uniform(&r) * levels);
		p = mann_whitney_test(x, na, y, nb, &res);
		snprintf(what, sizeof(what), "tied trial %d (%d vs %d)", trial, na, nb);
		assert_rel(p, brute_tied_p(x, na, y, nb), 1e-12, what);
		assert_true(res.exact);
	}
}

static void test_mwu_ties_limit(void **state)
{
	/* ties up to MWU_EXACT_TIES_MAX_N a side are counted exactly; one
	 * more on either side, the tie-corrected normal approximation */
	enum { N = MWU_EXACT_TIES_MAX_N };
	double a[N + 1], b[N + 1];
	struct mwu_result res;
	int groups[2 * N + 2], ng = 0;
	double p;

	for (int i = 0; i <= N; i++) {
		a[i] = i / 3;           /* three of a kind */
		b[i] = i / 3 + 1;
	}
	p = mann_whitney_test(a, N, b, N, &res);
	assert_true(res.exact);
	/* the same through the group sizes of the pooled sorted sample */
	{
		double pooled[2 * N];
		for (int i = 0; i < N; i++) {
			pooled[i] = a[i];
			pooled[N + i] = b[i];
		}
		qsort(pooled, 2 * N, sizeof(double), cmp_dbl);
		for (int i = 0; i < 2 * N; ng++) {
			int j = i;
			while (j < 2 * N && pooled[j] == pooled[i])
				j++;
			groups[ng] = j - i;
			i = j;
		}
	}
	assert_rel(p, mann_whitney_exact_tied_p(groups, ng, N, res.u), 1e-14, "at the limit");
	assert_true(fabs(p - normal_approx_p(a, N, b, N)) > 1e-6);

	p = mann_whitney_test(a, N + 1, b, N, &res);
	assert_false(res.exact);
	assert_rel(p, normal_approx_p(a, N + 1, b, N), 1e-12, "past the limit (a)");
	p = mann_whitney_test(a, N, b, N + 1, &res);
	assert_false(res.exact);
	assert_rel(p, normal_approx_p(a, N, b, N + 1), 1e-12, "past the limit (b)");

	/* without ties the exact limit is MWU_EXACT_MAX_N */
	{
		double c[MWU_EXACT_MAX_N + 1], d[MWU_EXACT_MAX_N + 1];
		for (int i = 0; i <= MWU_EXACT_MAX_N; i++) {
			c[i] = 2 * i;
			d[i] = 2 * i + 1.5;
		}
		mann_whitney_test(c, MWU_EXACT_MAX_N, d, MWU_EXACT_MAX_N, &res);
		assert_true(res.exact);
		mann_whitney_test(c, MWU_EXACT_MAX_N + 1, d, MWU_EXACT_MAX_N, &res);
		assert_false(res.exact);
	}
	assert_int_equal(MWU_EXACT_TIES_MAX_N, 20);
	assert_int_equal(MWU_EXACT_MAX_N, 50);
}

static void test_mwu_tied_p_edges(void **state)
{
	static const int g[] = { 2, 1, 3 }, bad[] = { 2, 0, 3 };

	assert_true(isnan(mann_whitney_exact_tied_p(bad, 3, 2, 1)));
	assert_true(isnan(mann_whitney_exact_tied_p(g, 3, 0, 0)));
	assert_true(isnan(mann_whitney_exact_tied_p(g, 3, 6, 0)));
	assert_true(isnan(mann_whitney_exact_tied_p(g, 3, 2, 0.25)));
	assert_true(isnan(mann_whitney_exact_tied_p(g, 3, 2, 8.5)));
	assert_true(isnan(mann_whitney_exact_tied_p(g, 3, 2, -0.5)));
	/* untied groups give the untied distribution */
	{
		static const int ones[] = { 1, 1, 1, 1, 1, 1, 1 };
		for (int u = 0; u <= 12; u++)
			assert_rel(mann_whitney_exact_tied_p(ones, 7, 3, u),
				   mann_whitney_exact_p(3, 4, u), 1e-14, "no ties");
	}
}

static void test_mwu_large_normal(void **state)
{
	/* beyond MWU_EXACT_MAX_N a side, without ties, the normal
	 * approximation is used; it must agree with the exact count to the
	 * accuracy the header claims */
	enum { N = MWU_EXACT_MAX_N + 1 };
	double a[N], b[N];
	struct rng r = { 777 };

	for (int trial = 0; trial < 12; trial++) {
		double u, p, exact;

		for (int i = 0; i < N; i++) {
			a[i] = rng_normal(&r) + trial * 0.06;
			b[i] = rng_normal(&r);
		}
		p = mann_whitney(a, N, b, N, &u);
		assert_rel(p, normal_approx_p(a, N, b, N), 1e-12, "normal branch");
		exact = mann_whitney_exact_p(N, N, u);
		assert_true(fabs(p - exact) < 2e-3);
		if (exact > 0.01 && exact < 0.1)
			assert_true(fabs(p - exact) < 5e-4);
	}
}

static void test_mwu_edges(void **state)
{
	static const double v[] = { 1, 2, 3 }, w[] = { 1, NAN, 3 };
	double u;

	assert_true(isnan(mann_whitney(v, 0, v, 3, &u)));
	assert_true(isnan(u));
	assert_true(isnan(mann_whitney(v, 3, v, 0, NULL)));
	assert_true(isnan(mann_whitney(w, 3, v, 3, NULL)));
	assert_true(isnan(mann_whitney(v, 3, w, 3, NULL)));
	assert_true(isnan(mann_whitney_exact_p(3, 3, 9.5)));
	assert_true(isnan(mann_whitney_exact_p(3, 3, 1.5)));
	assert_true(isnan(mann_whitney_exact_p(3, 3, -1)));
	assert_true(isnan(mann_whitney_exact_p(0, 3, 0)));
	assert_true(isnan(mann_whitney_exact_p(3, 3, NAN)));
	/* the middle of the distribution */
	assert_true(mann_whitney_exact_p(3, 3, 4.5 - 0.5) == 1);
}

/* ---- Benjamini-Hochberg ---- */

static void test_bh_known(void **state)
{
	/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02 */
	double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double q[] = { 0.9, NAN, 0.5, 0.6 };

	bh_adjust(p, 4);
	assert_rel(p[0], 0.02, 1e-15, "bh 0");
	assert_rel(p[1], 0.04, 1e-15, "bh 1");
	assert_rel(p[2], 0.04, 1e-15, "bh 2");
	assert_rel(p[3], 0.02, 1e-15, "bh 3");

	/* NaN stays and is not counted: m = 3 */
	bh_adjust(q, 4);
	assert_rel(q[0], 0.9, 1e-15, "bh nan 0");
	assert_true(isnan(q[1]));
	assert_rel(q[2], 0.9, 1e-15, "bh nan 2");   /* min(0.5*3/1, 0.6*3/2, 0.9) */
	assert_rel(q[3], 0.9, 1e-15, "bh nan 3");

	bh_adjust(NULL, 0);
}

static void test_bh_definition(void **state)
{
	struct rng r = { 4242 };
	double p[50], orig[50];

	for (int trial = 0; trial < 20; trial++) {
		int n = 1 + trial * 2;

		for (int i = 0; i < n; i++)
			orig[i] = p[i] = trial % 3 ? pow(rng_uniform(&r), 3) : rng_uniform(&r);
		if (n > 4)
			orig[3] = p[3] = orig[1];       /* a tie */
		bh_adjust(p, n);
		for (int i = 0; i < n; i++) {
			/* min over every p_j >= p_i of p_j * n / rank(j), rank
			 * counting ties as their largest position */
			double want = 1;

			for (int j = 0; j < n; j++) {
				int rank = 0;

				if (orig[j] < orig[i])
					continue;
				for (int k = 0; k < n; k++)
					rank += orig[k] <= orig[j];
				want = fmin(want, orig[j] * n / rank);
			}
			assert_rel(p[i], want, 1e-13, "bh definition");
			/* never below the raw p (up to the rounding of p * n / n) */
			assert_true(p[i] >= orig[i] * (1 - 1e-15) && p[i] <= 1);
		}
	}
}

/* The normal approximation with continuity correction, written out from
 * its textbook definition (no ties: the variance is na nb (n + 1) / 12). */
static double mwu_normal_p(int na, int nb, double u)
{
	double mu = na * nb / 2.0, sd = sqrt(na * nb * (na + nb + 1) / 12.0);
	double z = fmax(0, fabs(u - mu) - 0.5) / sd;

	return fmin(1, erfc(z / M_SQRT2));
}

/* Exact up to MWU_EXACT_MAX_N values a side, inclusive; the normal
 * approximation one past it, on either side. */
static void test_mwu_exact_size_limit(void **state)
{
	static const int sizes[][2] = {
		{ MWU_EXACT_MAX_N, MWU_EXACT_MAX_N }, { MWU_EXACT_MAX_N, 3 }, { 3, MWU_EXACT_MAX_N },
		{ MWU_EXACT_MAX_N + 1, MWU_EXACT_MAX_N }, { MWU_EXACT_MAX_N, MWU_EXACT_MAX_N + 1 },
	};
	double a[MWU_EXACT_MAX_N + 1], b[MWU_EXACT_MAX_N + 1], u;

	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		int na = sizes[k][0], nb = sizes[k][1];
		bool exact = na <= MWU_EXACT_MAX_N && nb <= MWU_EXACT_MAX_N;
		char what[64];

		/* distinct values, a shifted up a little: a p far from 0 and 1 */
		for (int i = 0; i < na; i++)
			a[i] = 2 * i + 0.7 * nb / na;
		for (int i = 0; i < nb; i++)
			b[i] = 2.0 * i * na / nb + 1;
		double p = mann_whitney(a, na, b, nb, &u);
		assert_true(u == pair_u(a, na, b, nb));
		assert_true(p > 1e-6 && p < 1);
		snprintf(what, sizeof(what), "mwu %dv%d (%s)", na, nb, exact ? "exact" : "normal");
		assert_rel(p, exact ? mann_whitney_exact_p(na, nb, u) : mwu_normal_p(na, nb, u),
			   1e-12, what);
		/* the two differ here, so the test tells them apart */
		assert_true(fabs(mann_whitney_exact_p(na, nb, u) - mwu_normal_p(na, nb, u)) > 1e-9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incbeta_matches_gsl),
		cmocka_unit_test(test_incbeta_edges),
		cmocka_unit_test(test_t_pvalue_matches_gsl),
		cmocka_unit_test(test_t_pvalue_high_precision),
		cmocka_unit_test(test_t_pvalue_edges),
		cmocka_unit_test(test_welch_matches_gsl),
		cmocka_unit_test(test_welch_textbook),
		cmocka_unit_test(test_welch_edges),
		cmocka_unit_test(test_welch_huge_counters),
		cmocka_unit_test(test_mwu_exact_matches_enumeration),
		cmocka_unit_test(test_mwu_on_data),
		cmocka_unit_test(test_mwu_textbook),
		cmocka_unit_test(test_mwu_min_p),
		cmocka_unit_test(test_mwu_ties_exact),
		cmocka_unit_test(test_mwu_ties_limit),
		cmocka_unit_test(test_mwu_tied_p_edges),
		cmocka_unit_test(test_mwu_large_normal),
		cmocka_unit_test(test_mwu_edges),
		cmocka_unit_test(test_bh_known),
		cmocka_unit_test(test_bh_definition),
		cmocka_unit_test(test_mwu_exact_size_limit),
	};

	/* GSL's default handler aborts on underflow; we read the status */
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
