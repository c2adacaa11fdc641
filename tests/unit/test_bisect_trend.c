/*
 * test_bisect_trend.c: the line-plus-step model of a bisection's tested
 * commits (src/bisect/trend.c): the fit against GSL's weighted least
 * squares and F distribution, when it may not be fitted, each trigger at
 * its threshold, the references it gives a verdict, and the final
 * pair's check against a drift (bisect_step_stands_out).
 */
#include "test_helpers.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <string.h>

#include "bisect/decide.h"
#include "bisect/trend.h"

/*
 * The thresholds are written out (4 standard errors, not
 * TREND_NEIGHBOUR_Z): a test that took them from the header would move
 * its boundary with them.
 *
 * Runs of one commit: n (even) runs at level * exp(+-e), so that their
 * mean log is log(level) exactly and their squared deviations n e^2.
 */
struct runs {
	double v[64];
	struct sample_set s;
};

static void runs_at(struct runs *r, double level, int n, double e)
{
	for (int i = 0; i < n; i++)
		r->v[i] = level * exp(i % 2 ? e : -e);
	r->s = (struct sample_set){ r->v, n, 0 };
}

/* A range: commit k at x[k] with verdict v[k], at level exp(y[k]). */
struct range {
	struct runs r[16];
	struct bisect_point pt[16];
	struct bisect_trend t;
};

static void range_init(struct range *g, int nr, const double *x, const int *bad,
		       const double *y, const int *n, double e, double step_x)
{
	for (int k = 0; k < nr; k++) {
		runs_at(&g->r[k], exp(y[k]), n[k], e);
		g->pt[k] = (struct bisect_point){ x[k], bad[k] ? BISECT_BAD : BISECT_GOOD,
						  &g->r[k].s };
	}
	g->t = (struct bisect_trend){ g->pt, nr, step_x };
}

/* A drift of slope per unit x with a step c at x >= at, seen at xs. */
static void drift_range(struct range *g, const double *xs, int nr, double slope, double c,
			double at, int runs, double e, double step_x)
{
	double y[16];
	int bad[16], n[16];

	for (int k = 0; k < nr; k++) {
		bad[k] = xs[k] >= at;
		y[k] = slope * xs[k] + (bad[k] ? c : 0);
		n[k] = runs;
	}
	range_init(g, nr, xs, bad, y, n, e, step_x);
}

/* ---- the fit ---------------------------------------------------------- */

static void test_fit_exact(void **state)
{
	static const double x[] = { 0, 2, 4, 6, 8, 10 };
	struct range g;
	struct trend_fit f;
	(void)state;

	/* log y = 0.5 - 0.01 x - 0.1 [bad], bad from 6 on */
	drift_range(&g, x, 6, -0.01, -0.1, 6, 4, 0.01, 5);
	for (int k = 0; k < 6; k++)
		g.r[k].s = (struct sample_set){ g.r[k].v, 4, 0 };
	for (int k = 0; k < 6; k++)
		for (int i = 0; i < 4; i++)
			g.r[k].v[i] *= exp(0.5);
	assert_true(trend_fit(&g.t, NULL, &f));
	/* x is scaled to 0..1 over the points: b is per 10 commits */
	assert_true(fabs(f.beta[0] - 0.5) < 1e-12);
	assert_true(fabs(f.beta[1] - -0.1) < 1e-12);
	assert_true(fabs(f.beta[2] - -0.1) < 1e-12);
	assert_true(f.x0 == 0 && f.scale == 10);
	assert_int_equal(f.npts, 6);
	/* the noise: 6 commits of 4 runs at +-0.01 */
	assert_int_equal(f.df, 18);
	assert_true(fabs(f.s2 - 24 * 1e-4 / 18) < 1e-15);
	assert_true(fabs(f.lof_p - 1) < 1e-12);
	assert_true(fabs(f.total - (-0.1 - 0.1)) < 1e-12);
	/* the step's runs count in the noise only */
	{
		struct runs step;

		runs_at(&step, 7, 2, 0.03);
		assert_true(trend_fit(&g.t, &step.s, &f));
		assert_int_equal(f.df, 19);
		assert_true(fabs(f.s2 - (24 * 1e-4 + 2 * 9e-4) / 19) < 1e-15);
		assert_true(fabs(f.beta[2] - -0.1) < 1e-12);
	}
}

/*
 * The weighted least squares fit to every commit's plain (unclipped)
 * mean log, by GSL: its estimates into beta, and when cov is not NULL
 * the unscaled covariance (X'WX)^-1 into cov and the weighted residual
 * sum of squares into *chisq.  What trend_fit gives when it clips
 * nothing.
 */
static void gsl_fit(const struct range *g, double *beta, double (*cov)[3], double *chisq)
{
	gsl_matrix *X = gsl_matrix_alloc((size_t)g->t.nr, 3), *c3 = gsl_matrix_alloc(3, 3);
	gsl_vector *w = gsl_vector_alloc((size_t)g->t.nr), *yv = gsl_vector_alloc((size_t)g->t.nr);
	gsl_vector *c = gsl_vector_alloc(3);
	gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc((size_t)g->t.nr, 3);
	double rss, x0 = g->pt[0].x, scale = g->pt[g->t.nr - 1].x - x0;

	for (int k = 0; k < g->t.nr; k++) {
		const struct sample_set *r = g->pt[k].runs;
		double y = 0;

		for (int i = 0; i < r->nr; i++)
			y += log(r->v[i]) / r->nr;
		gsl_matrix_set(X, (size_t)k, 0, 1);
		gsl_matrix_set(X, (size_t)k, 1, (g->pt[k].x - x0) / scale);
		gsl_matrix_set(X, (size_t)k, 2, g->pt[k].v == BISECT_BAD);
		gsl_vector_set(w, (size_t)k, r->nr);
		gsl_vector_set(yv, (size_t)k, y);
	}
	gsl_multifit_wlinear(X, w, yv, c, c3, &rss, work);
	for (int i = 0; i < 3; i++) {
		beta[i] = gsl_vector_get(c, (size_t)i);
		for (int j = 0; cov && j < 3; j++)
			cov[i][j] = gsl_matrix_get(c3, (size_t)i, (size_t)j);
	}
	if (chisq)
		*chisq = rss;
	gsl_matrix_free(X);
	gsl_matrix_free(c3);
	gsl_vector_free(w);
	gsl_vector_free(yv);
	gsl_vector_free(c);
	gsl_multifit_linear_free(work);
}

/* Uneven runs and scatter about the line: GSL's weighted least squares
 * and F distribution give the same estimates, covariance and lack of fit. */
static void test_fit_against_gsl(void **state)
{
	static const double x[] = { 0, 100, 300, 350, 500, 1023 };
	static const int bad[] = { 0, 0, 0, 1, 1, 1 };
	static const double y[] = { 0.0, -0.11, -0.29, -0.47, -0.58, -1.13 };
	static const int n[] = { 8, 2, 4, 6, 2, 10 };
	struct range g;
	struct trend_fit f;
	double beta[3], cov[3][3], chisq, s2 = 0;
	int df = 0;
	(void)state;

	range_init(&g, 6, x, bad, y, n, 0.02, 320);
	assert_true(trend_fit(&g.t, NULL, &f));
	for (int k = 0; k < 6; k++) {
		s2 += n[k] * 0.02 * 0.02;
		df += n[k] - 1;
	}
	s2 /= df;
	gsl_fit(&g, beta, cov, &chisq);
	for (int i = 0; i < 3; i++) {
		assert_true(fabs(f.beta[i] - beta[i]) < 1e-9);
		for (int j = 0; j < 3; j++)
			assert_true(fabs(f.inv[i][j] - cov[i][j]) < 1e-9);
	}
	assert_true(fabs(f.s2 - s2) < 1e-15);
	assert_true(chisq > 0);
	assert_true(fabs(f.lof_p - gsl_cdf_fdist_Q(chisq / 3 / s2, 3, df)) < 1e-9);
	assert_true(f.lof_p > 0 && f.lof_p < 1);
}

static void test_fit_refused(void **state)
{
	static const double x[] = { 0, 4, 6, 10 };
	struct range g;
	struct trend_fit f;
	(void)state;

	drift_range(&g, x, 4, -0.01, -0.1, 5, 2, 0.01, 5);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_false(trend_fit(NULL, NULL, &f));
	/* TREND_MIN_POINTS: three tested commits fit, exactly (no degree
	 * is left to test the fit by: lof_p is 1), and two cannot
	 * determine three parameters */
	assert_int_equal(TREND_MIN_POINTS, 3);
	g.t.nr = 3;
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_int_equal(f.npts, 3);
	assert_true(f.lof_p == 1);
	g.t.nr = 2;
	assert_false(trend_fit(&g.t, NULL, &f));
	g.t.nr = 3;
	/* a point that does not count (skipped, or no runs) is not one */
	g.pt[1].v = BISECT_UNKNOWN;
	assert_false(trend_fit(&g.t, NULL, &f));
	g.pt[1].v = BISECT_GOOD;
	g.r[1].s.nr = 0;
	assert_false(trend_fit(&g.t, NULL, &f));
	g.r[1].s.nr = 2;
	g.t.nr = 4;
	/* no log of a value that is not positive, in a point or the step */
	g.r[2].v[0] = 0;
	assert_false(trend_fit(&g.t, NULL, &f));
	g.r[2].v[0] = 1;
	{
		struct sample_set neg = { (double[]){ 1, -1 }, 2, 0 };

		assert_true(trend_fit(&g.t, NULL, &f));
		assert_false(trend_fit(&g.t, &neg, &f));
	}
	/* one position for all: nothing to scale x by */
	for (int k = 0; k < 4; k++)
		g.pt[k].x = 3;
	assert_false(trend_fit(&g.t, NULL, &f));
	/* every commit on one side: the step is not determined */
	for (int k = 0; k < 4; k++) {
		g.pt[k].x = x[k];
		g.pt[k].v = BISECT_GOOD;
	}
	assert_false(trend_fit(&g.t, NULL, &f));
	/* single runs: no noise to fit with */
	drift_range(&g, x, 4, -0.01, -0.1, 5, 1, 0.01, 5);
	assert_false(trend_fit(&g.t, NULL, &f));
}

/*
 * One run in a heavy tail (3x the level) moves its commit's mean log by
 * log(3) / 4 = 0.27 unclipped, more than the -0.1 step, and multiplies
 * the noise by 75; clipped at 2.5 robust scales about the commit's
 * median it moves the mean log by 0.03 and the noise by less than 2.
 */
static void test_fit_clips(void **state)
{
	static const double x[] = { 0, 256, 512, 768, 1023 };
	struct range g;
	struct trend_fit f0, f1;
	double beta[3], pair;
	(void)state;

	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, 0.02, 640);
	assert_true(trend_fit(&g.t, NULL, &f0));
	/* every run 0.02 from its commit's median: the scale is 0.02 * sqrt(4/3) */
	assert_true(fabs(f0.clip - 2.5 * 1.4826 * 0.02 * sqrt(4 / 3.0)) < 1e-12);
	assert_true(fabs(f0.beta[2] - -0.1) < 1e-9);
	g.r[4].v[0] *= 3;
	assert_true(trend_fit(&g.t, NULL, &f1));
	assert_true(fabs(f1.clip - f0.clip) < 1e-12);
	assert_true(fabs(f1.beta[2] - f0.beta[2]) < 0.03);
	assert_true(f1.s2 < 2 * f0.s2);
	/*
	 * Two runs are not clipped about their median (it is their mean),
	 * but when they lie more than 1.5 clips apart the refit puts the
	 * one farther from the first fit's line that far from the other.
	 * The outlier is the last commit's, whose leverage tilts the
	 * unclipped fit (GSL's, on the plain mean logs) by 0.44 of its
	 * slope of -1.02 per range; refitted, each of intercept, slope and
	 * step moves by under a quarter of that, and the noise is exactly
	 * the other commits' and the clipped pair's, 1.5 clips apart.
	 */
	for (int which = 0; which < 4; which++) {
		/* either run, in either tail */
		drift_range(&g, x, 5, -0.001, -0.1, 600, 2, 0.02, 640);
		assert_true(trend_fit(&g.t, NULL, &f0));
		g.r[4].v[which / 2] *= which % 2 ? 1 / 3.0 : 3;
		assert_true(trend_fit(&g.t, NULL, &f1));
		assert_true(fabs(f1.clip - f0.clip) < 1e-12);
		pair = 1.5 * f1.clip;
		gsl_fit(&g, beta, NULL, NULL);
		assert_true(fabs(beta[1] - f0.beta[1]) > 0.4);
		for (int i = 0; i < 3; i++)
			assert_true(fabs(f1.beta[i] - f0.beta[i]) <=
				    0.25 * fabs(beta[i] - f0.beta[i]));
		assert_true(fabs(f1.s2 - (4 * 2 * 0.02 * 0.02 + pair * pair / 2) / 5) < 1e-12);
		/* exactly the fit with the outlier put 1.5 clips from the other run */
		g.r[4].v[which / 2] = g.r[4].v[1 - which / 2] * exp(which % 2 ? -pair : pair);
		gsl_fit(&g, beta, NULL, NULL);
		for (int i = 0; i < 3; i++)
			assert_true(fabs(f1.beta[i] - beta[i]) < 1e-9);
	}
	/* two runs that agree are kept wherever they lie: a commit off the
	 * line (a second step) must still show in the lack of fit */
	drift_range(&g, x, 5, -0.001, -0.1, 600, 2, 0.02, 640);
	g.r[2].v[0] *= exp(0.3);
	g.r[2].v[1] *= exp(0.3);
	assert_true(trend_fit(&g.t, NULL, &f1));
	gsl_fit(&g, beta, NULL, NULL);
	for (int i = 0; i < 3; i++)
		assert_true(fabs(f1.beta[i] - beta[i]) < 1e-9);
	assert_true(fabs(f1.s2 - f0.s2) < 1e-15);
}

/*
 * The pair's threshold: a commit of 2 runs d apart, 0.6 d above its line
 * and 0.4 d below, beside 4 commits whose runs set the clip (its own 2
 * deviations are not the median of 10).  At d = 1.49 clips both runs are
 * kept; at 1.51 the upper one is put 1.5 clips above the lower.
 */
static void test_fit_pair_boundary(void **state)
{
	static const double x[] = { 0, 256, 512, 768, 1023 };
	struct range g;
	struct trend_fit f0, f1;
	double clip, d, level;
	(void)state;

	drift_range(&g, x, 5, -0.001, -0.1, 600, 2, 0.02, 640);
	assert_true(trend_fit(&g.t, NULL, &f0));
	clip = 2.5 * 1.4826 * 0.02 * sqrt(2);
	assert_true(fabs(f0.clip - clip) < 1e-12);
	level = g.r[2].v[0] * exp(0.02);
	for (int k = 0; k < 2; k++) {
		double kept;

		d = (k ? 1.51 : 1.49) * clip;
		g.r[2].v[0] = level * exp(0.6 * d);
		g.r[2].v[1] = level * exp(-0.4 * d);
		assert_true(trend_fit(&g.t, NULL, &f1));
		assert_true(fabs(f1.clip - clip) < 1e-12);
		kept = 4 * 2 * 0.02 * 0.02 + d * d / 2;
		if (!k)
			assert_true(fabs(f1.s2 - kept / 5) < 1e-12);
		else
			assert_true(fabs(f1.s2 - (4 * 2 * 0.02 * 0.02 +
						  1.5 * clip * 1.5 * clip / 2) / 5) < 1e-12);
	}
}

/* ---- the triggers ------------------------------------------------------ */

/* z of a neighbour against the rest of its side, as trend.h defines it */
static double side_z(const struct range *g, const struct trend_fit *f, int nb, int bad)
{
	double sum = 0, n = 0, q = 0, yn = 0;

	for (int k = 0; k < g->t.nr; k++) {
		const struct sample_set *r = g->pt[k].runs;
		double y = 0;

		if ((g->pt[k].v == BISECT_BAD) != bad)
			continue;
		for (int i = 0; i < r->nr; i++)
			y += log(r->v[i]) / r->nr;
		sum += r->nr * y;
		n += r->nr;
		if (k == nb) {
			yn = y;
			q = r->nr;
		}
	}
	return fabs(yn - sum / n) / sqrt(f->s2 * (1 / q - 1 / n));
}

/*
 * The neighbours moved: on a drift both lie off their sides; the noise
 * that puts the nearer of the two at exactly 4 standard errors is the
 * boundary, and a neighbour that is the whole of its side is never off.
 */
static void test_neighbours_moved(void **state)
{
	static const double x[] = { 0, 256, 512, 768, 1023 };
	struct range g;
	struct trend_fit f;
	double z, e;
	(void)state;

	/* step at 600, the step under test at 640: neighbours 512 and 768 */
	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, 0.05, 640);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_true(trend_neighbours_moved(&f));
	z = fmin(side_z(&g, &f, 2, 0), side_z(&g, &f, 3, 1));
	/* z scales as 1 / e: put the smaller one just under, then just over */
	e = 0.05 * z / 4.0;
	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, e * 1.001, 640);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_false(trend_neighbours_moved(&f));
	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, e * 0.999, 640);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_true(trend_neighbours_moved(&f));
	/* flat sides: the neighbours are where their sides are */
	drift_range(&g, x, 5, 0, -0.1, 600, 4, 0.05, 640);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_false(trend_neighbours_moved(&f));
	/* the step under test beyond every bad point: no bad neighbour */
	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, 0.05, 2000);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_false(trend_neighbours_moved(&f));
	/* ... nor a good one below the first */
	g.t.x = -1;
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_false(trend_neighbours_moved(&f));
}

/* z of the fit's slope and step */
static double slope_z(const struct trend_fit *f)
{
	return fabs(f->beta[1]) / sqrt(f->s2 * f->inv[1][1]);
}

static double step_z(const struct trend_fit *f)
{
	return fabs(f->beta[2]) / sqrt(f->s2 * f->inv[2][2]);
}

/*
 * Commits at x (bad as given, n runs each) on log y = slope x + c [bad],
 * at the noise where the slope (on_slope) or else the step is just z
 * standard errors from 0, the other clear of other_z: 0.1% more noise
 * and trend_sloped says no, 0.1% less and it says yes (z scales as 1 / e).
 */
static void at_threshold(int nr, const double *x, const int *bad, const int *n,
			 double slope, double c, bool on_slope, double z, double other_z)
{
	struct range g;
	struct trend_fit f;
	double y[16], e;

	for (int k = 0; k < nr; k++)
		y[k] = slope * x[k] + c * bad[k];
	range_init(&g, nr, x, bad, y, n, 0.02, 600);
	assert_true(trend_fit(&g.t, NULL, &f));
	e = 0.02 * (on_slope ? slope_z(&f) : step_z(&f)) / z;
	assert_true((on_slope ? step_z(&f) : slope_z(&f)) * 0.02 / e > other_z);
	range_init(&g, nr, x, bad, y, n, e * 1.001, 600);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_false(trend_sloped(&f));
	range_init(&g, nr, x, bad, y, n, e * 0.999, 600);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_true(trend_sloped(&f));
}

/*
 * A neighbour alone on its side (the good endpoint, well measured) is
 * not "moved": the slope must show the drift by itself (trend_sloped).
 * Each of its thresholds at its boundary: z scales as 1 / e.
 */
static void test_sloped(void **state)
{
	static const double x[] = { 0, 512, 640, 768, 1023 }, xs[] = { 0, 256, 512, 768, 1023 };
	static const int bad[] = { 0, 1, 1, 1, 1 }, bad2[] = { 0, 0, 0, 1, 1 };
	static const double xs4[] = { 0, 256, 768, 1023 };
	static const int bad4[] = { 0, 0, 1, 1 }, n4[] = { 4, 4, 4, 4, 4 };
	static const int bad1[] = { 0, 0, 0, 1 }, good1[] = { 0, 1, 1, 1 };
	double y[5];
	int n[5] = { 16, 4, 4, 4, 4 };
	struct range g;
	struct trend_fit f;
	(void)state;

	for (int k = 0; k < 5; k++)
		y[k] = -0.001 * x[k] - 0.1 * bad[k];
	range_init(&g, 5, x, bad, y, n, 0.01, 300);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_false(trend_neighbours_moved(&f));
	assert_true(trend_sloped(&f));
	assert_true(f.lof_p >= 0.01);
	{
		struct runs step;
		struct trend_refs r;

		runs_at(&step, exp(-0.3), 4, 0.01);
		assert_true(trend_decides(&g.t, &step.s, 1, &r));
	}
	/* the slope at 5 standard errors, the step clear of its own; the
	 * step at 3, the slope clear, with five commits and with four */
	at_threshold(5, xs, bad2, n4, -0.0002, -0.1, true, 5.0, 3.0);
	at_threshold(5, xs, bad2, n4, -0.001, -0.02, false, 3.0, 5.0);
	at_threshold(4, xs4, bad4, n4, -0.001, -0.02, false, 3.0, 5.0);
	/* a side of one commit, its endpoint, takes TREND_STEP_Z3 as three
	 * commits do, whichever side it is */
	at_threshold(4, xs4, bad1, n4, -0.001, -0.005, false, 1.0, 5.0);
	at_threshold(4, xs4, good1, n4, -0.001, -0.005, false, 1.0, 5.0);
}

/*
 * Three commits fit exactly (no lack of fit to test), and the step is
 * the bad endpoint's distance from the line through the other two,
 * extrapolated: it need only be 1 standard error (TREND_STEP_Z3), the
 * slope still 5.
 */
static void test_sloped_three(void **state)
{
	static const double x[] = { 0, 512, 1023 };
	static const int bad[] = { 0, 0, 1 };
	static const int n[] = { 6, 8, 6 };
	double y[3];
	struct range g;
	struct trend_fit f;
	(void)state;

	for (int k = 0; k < 3; k++)
		y[k] = -0.001 * x[k] - 0.05 * bad[k];
	range_init(&g, 3, x, bad, y, n, 0.02, 767);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_true(f.lof_p == 1);
	at_threshold(3, x, bad, n, -0.001, -0.05, false, 1.0, 5.0);
	at_threshold(3, x, bad, n, -0.0001, -0.1, true, 5.0, 1.0);
}

/*
 * A line that does not fit (one commit 5% off it, 8 runs each): the lack
 * of fit refuses it at p = 0.01, where the slope and the step would
 * pass.
 */
static void test_sloped_lack_of_fit(void **state)
{
	static const double x[] = { 0, 200, 400, 600, 800, 1023 };
	static const int bad[] = { 0, 0, 0, 1, 1, 1 };
	double y[6];
	int n[6] = { 8, 8, 8, 8, 8, 8 };
	struct range g;
	struct trend_fit f;
	double lo = 0.001, hi = 0.5;
	(void)state;

	for (int k = 0; k < 6; k++)
		y[k] = -0.001 * x[k] - 0.1 * bad[k];
	y[4] += 0.05;
	/* the noise where lof_p crosses 0.01 (it rises with e) */
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		range_init(&g, 6, x, bad, y, n, mid, 500);
		assert_true(trend_fit(&g.t, NULL, &f));
		if (f.lof_p < 0.01)
			lo = mid;
		else
			hi = mid;
	}
	range_init(&g, 6, x, bad, y, n, lo, 500);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_true(f.lof_p < 0.01);
	assert_true(slope_z(&f) >= 5.0 && step_z(&f) >= 3.0);
	assert_false(trend_sloped(&f));
	range_init(&g, 6, x, bad, y, n, hi, 500);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_true(f.lof_p >= 0.01);
	assert_true(trend_sloped(&f));
}

/* ---- the verdict's references ------------------------------------------ */

static void test_decides(void **state)
{
	static const double x[] = { 0, 256, 512, 768, 1023 };
	struct range g;
	struct trend_refs r;
	struct runs step;
	struct trend_fit f;
	double u1, vmid = 0, u[3];
	(void)state;

	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, 0.05, 640);
	/* at 640, after the step: on the bad line */
	runs_at(&step, exp(-0.001 * 640 - 0.1), 4, 0.05);
	assert_true(trend_decides(&g.t, &step.s, 1, &r));
	assert_true(trend_fit(&g.t, &step.s, &f));
	u1 = 640 / 1023.0;
	u[0] = 1;
	u[1] = u1;
	u[2] = 0.5;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			vmid += u[i] * f.inv[i][j] * u[j];
	assert_true(fabs(r.d - -0.1) < 1e-9);
	assert_true(fabs(r.vd - f.s2 * f.inv[2][2]) < 1e-15);
	/* half the step below the lines' midpoint */
	assert_true(fabs(r.x - -0.05) < 1e-9);
	assert_true(fabs(r.vx - (f.s2 / 4 + f.s2 * vmid)) < 1e-15);
	assert_int_equal(r.df, 18);
	/* nothing to decide without runs or a trend */
	step.s.nr = 0;
	assert_false(trend_decides(&g.t, &step.s, 1, &r));
	assert_false(trend_decides(&g.t, NULL, 1, &r));
	step.s.nr = 4;
	assert_false(trend_decides(NULL, &step.s, 1, &r));
	/* flat sides: the pooled sides judge */
	drift_range(&g, x, 5, 0, -0.1, 600, 4, 0.05, 640);
	assert_false(trend_decides(&g.t, &step.s, 1, &r));
	/* a step against the way from good to bad is no first bad commit:
	 * a drift down with a step up */
	drift_range(&g, x, 5, -0.001, 0.1, 600, 4, 0.05, 640);
	assert_true(trend_fit(&g.t, &step.s, &f) && trend_neighbours_moved(&f));
	assert_false(trend_decides(&g.t, &step.s, 1, &r));
	/* no noise at all: nothing to weigh the lines by */
	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, 0, 640);
	runs_at(&step, exp(-0.001 * 640 - 0.1), 4, 0);
	assert_false(trend_decides(&g.t, &step.s, 1, &r));
}

/* Through bisect_llr: on a drift the trend gives the verdict the pooled
 * sides cannot (their spread is the drift's), and leans the right way. */
static void test_llr_on_drift(void **state)
{
	static const double x[] = { 0, 256, 512, 768, 1023 };
	struct range g;
	struct runs before, after;
	struct sample_set good, bad;
	double gv[64], bv[64];
	(void)state;

	drift_range(&g, x, 5, -0.001, -0.1, 600, 4, 0.02, 590);
	good = (struct sample_set){ gv, 0, 0 };
	bad = (struct sample_set){ bv, 0, 0 };
	for (int k = 0; k < 5; k++) {
		struct sample_set *side = g.pt[k].v == BISECT_BAD ? &bad : &good;

		memcpy(side->v + side->nr, g.r[k].v, sizeof(double) * 4);
		side->nr += 4;
	}
	runs_at(&before, exp(-0.001 * 590), 4, 0.02);
	runs_at(&after, exp(-0.001 * 590 - 0.1), 4, 0.02);
	assert_true(bisect_llr(&before.s, &good, &bad, g.pt[2].runs, g.pt[3].runs, &g.t) < -3);
	assert_true(bisect_llr(&after.s, &good, &bad, g.pt[2].runs, g.pt[3].runs, &g.t) > 3);
	{
		struct bisect_params p;

		bisect_params_init(&p, 1024);
		assert_int_equal(bisect_classify(&before.s, &good, &bad, g.pt[2].runs,
						 g.pt[3].runs, &g.t, &p), BISECT_GOOD);
		assert_int_equal(bisect_classify(&after.s, &good, &bad, g.pt[2].runs,
						 g.pt[3].runs, &g.t, &p), BISECT_BAD);
	}
}

/* ---- the final pair ------------------------------------------------------ */

static void test_step_stands_out(void **state)
{
	static const double x[] = { 0, 256, 512, 599, 600, 768, 1023 };
	struct range g;
	struct trend_fit f;
	double z, e;
	(void)state;

	/* drift -0.1% a commit, a -10% step at 600: the pair 599, 600 */
	drift_range(&g, x, 7, -0.001, -0.1, 600, 4, 0.02, 0);
	assert_true(bisect_step_stands_out(&g.t, g.pt[3].runs, g.pt[4].runs));
	/* a pure drift: the pair differs by about nothing */
	drift_range(&g, x, 7, -0.001, 0, 600, 4, 0.02, 0);
	assert_false(bisect_step_stands_out(&g.t, g.pt[3].runs, g.pt[4].runs));
	/* a step against the change from good to bad */
	drift_range(&g, x, 7, -0.001, 0.1, 600, 4, 0.02, 0);
	assert_false(bisect_step_stands_out(&g.t, g.pt[3].runs, g.pt[4].runs));
	/* no pair, no fit */
	drift_range(&g, x, 7, -0.001, -0.1, 600, 4, 0.02, 0);
	assert_false(bisect_step_stands_out(&g.t, NULL, g.pt[4].runs));
	assert_false(bisect_step_stands_out(NULL, g.pt[3].runs, g.pt[4].runs));
	/* the fit's step at 4 standard errors: all 7 points at 2 runs, the
	 * pair's own step (the whole step, 2 runs a side) far clearer */
	drift_range(&g, x, 7, -0.001, -0.1, 600, 2, 0.05, 0);
	assert_true(trend_fit(&g.t, NULL, &f));
	z = fabs(f.beta[2]) / sqrt(f.s2 * f.inv[2][2]);
	e = 0.05 * z / 4.0;
	assert_true(0.1 / (e * sqrt(2.0)) > 2.0);
	drift_range(&g, x, 7, -0.001, -0.1, 600, 2, e * 1.001, 0);
	assert_false(bisect_step_stands_out(&g.t, g.pt[3].runs, g.pt[4].runs));
	drift_range(&g, x, 7, -0.001, -0.1, 600, 2, e * 0.999, 0);
	assert_true(bisect_step_stands_out(&g.t, g.pt[3].runs, g.pt[4].runs));
}

/* The pair's own step at 2 standard errors: the fit's clear, the pair
 * (whose runs are not the fit's here) given a step of its own. */
static void test_step_pair_boundary(void **state)
{
	static const double x[] = { 0, 256, 512, 599, 600, 768, 1023 };
	struct range g;
	struct trend_fit f;
	struct runs lo, hi;
	double se, pair;
	(void)state;

	drift_range(&g, x, 7, -0.001, -0.1, 600, 8, 0.01, 0);
	assert_true(trend_fit(&g.t, NULL, &f));
	assert_true(fabs(f.beta[2]) >= 4.0 * sqrt(f.s2 * f.inv[2][2]));
	se = sqrt(f.s2 * (1 / 4.0 + 1 / 4.0));
	/* runs of the pair whose means put log(hi / lo) at pair */
	pair = -2.0 * se;
	runs_at(&lo, 1, 4, 0);
	runs_at(&hi, exp(pair * 1.001), 4, 0);
	assert_true(bisect_step_stands_out(&g.t, &lo.s, &hi.s));
	runs_at(&hi, exp(pair * 0.999), 4, 0);
	assert_false(bisect_step_stands_out(&g.t, &lo.s, &hi.s));
	/* the other way it is against the step */
	runs_at(&hi, exp(-pair * 1.5), 4, 0);
	assert_false(bisect_step_stands_out(&g.t, &lo.s, &hi.s));
	/* a pair mean that is not positive has no ratio */
	lo.v[0] = -3;
	lo.v[1] = -3;
	lo.v[2] = -3;
	lo.v[3] = -3;
	assert_false(bisect_step_stands_out(&g.t, &lo.s, &hi.s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_exact),
		cmocka_unit_test(test_fit_against_gsl),
		cmocka_unit_test(test_fit_refused),
		cmocka_unit_test(test_fit_clips),
		cmocka_unit_test(test_fit_pair_boundary),
		cmocka_unit_test(test_neighbours_moved),
		cmocka_unit_test(test_sloped),
		cmocka_unit_test(test_sloped_three),
		cmocka_unit_test(test_sloped_lack_of_fit),
		cmocka_unit_test(test_decides),
		cmocka_unit_test(test_llr_on_drift),
		cmocka_unit_test(test_step_stands_out),
		cmocka_unit_test(test_step_pair_boundary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
