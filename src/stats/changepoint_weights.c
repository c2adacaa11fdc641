/*
 * changepoint_weights.c: what E-Divisive (changepoint.c) knows of each
 * point's noise: the points' weights from the runs behind them, the
 * series' noise floor, and the side test that a split's two sides differ
 * (changepoint.h says why each is so).
 */
#include "stats/changepoint.h"
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static bool has_runs_sd(const struct cp_point *p)
{
	return p->n >= 2 && isfinite(p->stddev) && p->stddev >= 0;
}

/*
 * The noise model of the series: s2, the within-commit variance of one run
 * pooled over every point with n >= 2 (0 when no point has runs to tell
 * it), and tau2, the variance between commits beyond it.  tau2 comes from
 * the successive differences, robust to the few steps and to the drift the
 * series may hold: MAD * 1.4826 estimates the sd of a difference (the
 * median difference, which a drift shifts, is taken out first), and a
 * difference has twice a point's variance.  Returns whether any point had
 * runs; *v is the whole point variance the differences show (0 below 3
 * points).
 */
static bool noise_model(const struct cp_point *pts, int n, double *s2, double *tau2,
			double *v)
{
	double num = 0, den = 0, inv_n = 0;

	*s2 = *tau2 = *v = 0;
	for (int i = 0; i < n; i++)
		if (has_runs_sd(&pts[i])) {
			num += (pts[i].n - 1) * pts[i].stddev * pts[i].stddev;
			den += pts[i].n - 1;
		}
	if (den > 0)
		*s2 = num / den;
	if (n >= 3) {
		double *d = xmalloc((size_t)(n - 1) * sizeof(double)), med, mad;

		for (int i = 0; i + 1 < n; i++)
			d[i] = pts[i + 1].mean - pts[i].mean;
		med = median(d, n - 1);
		for (int i = 0; i + 1 < n; i++)
			d[i] = fabs(d[i] - med);
		mad = median(d, n - 1);
		free(d);
		*v = (1.4826 * mad) * (1.4826 * mad) / 2;
		for (int i = 0; i < n; i++)
			inv_n += 1.0 / pts[i].n;
		*tau2 = fmax(0, *v - *s2 * inv_n / n);
	}
	return den > 0;
}

void cp_weights(const struct cp_point *pts, int n, double *w)
{
	double s2, tau2, v, sum = 0;
	bool same_n = true, runs;

	for (int i = 0; i < n; i++) {
		w[i] = 1;
		same_n = same_n && pts[i].n == pts[0].n;
	}
	/* equal runs everywhere: equal weights, exactly */
	if (same_n || n < 2)
		return;
	runs = noise_model(pts, n, &s2, &tau2, &v);
	if (!runs || s2 == 0)
		return;
	for (int i = 0; i < n; i++) {
		w[i] = 1 / (tau2 + s2 / pts[i].n);
		sum += w[i];
	}
	for (int i = 0; i < n; i++)
		w[i] *= n / sum;
}

/*
 * The floor of the side test: a point's variance as the whole series
 * shows it, tau2 + s2 / n_i (above).  Without it, three neighbouring
 * points that happen to agree make a side with almost no variance and a
 * p of 1e-9 on pure noise (a 3-point side has 2 degrees of freedom; its
 * sample variance is below a tenth of the true one 5% of the time).
 * Which estimate: the runs inside a point tell only the within-commit
 * part, and a history of one run a commit has none of it, so the floor
 * is what successive differences show (the between-commit part), with
 * the pooled runs' variance for each point's own count of runs on top.
 * Both come from the whole series, so they are stable where a side's own
 * spread is not; the MAD of the differences, not their sd, so that the
 * steps being looked for and a drift do not inflate it.  It is the full
 * estimate, not a fraction: a side whose spread is below the series' own
 * noise is luck, not precision.  The cost: a history whose noise varies
 * along it is tested at its typical noise in its quiet parts.
 */
void cp_noise(const struct cp_point *pts, int n, double *floor)
{
	double s2, tau2, v;

	noise_model(pts, n, &s2, &tau2, &v);
	for (int i = 0; i < n; i++)
		floor[i] = tau2 + s2 / pts[i].n;
}

/* One side of the side test: weighted mean, variance of that mean, its
 * degrees of freedom (NaN variance: nothing to estimate it from). */
struct side {
	double mean, var, df;
	double point_var;       /* the variance of one point of weight 1 */
	double sumsq_w;         /* sum of w^2 / W^2 */
	double floor;           /* the series' noise as the variance of the
	                         * mean (cp_noise), 0 without one */
};

static void side_stats(const struct cp_point *pts, const double *w, const double *floor,
		       int lo, int hi, struct side *s)
{
	double W = 0, wx = 0, ss = 0, sq = 0, v_in = 0, df_in = 0, fl = 0;
	int p = hi - lo;
	bool in_known = false;

	for (int i = lo; i < hi; i++) {
		W += w[i];
		wx += w[i] * pts[i].mean;
	}
	s->mean = wx / W;
	for (int i = lo; i < hi; i++) {
		double d = pts[i].mean - s->mean;

		ss += w[i] * w[i] * d * d;
		sq += w[i] * w[i];
		if (floor)
			fl += w[i] * w[i] * floor[i];
		if (has_runs_sd(&pts[i])) {
			v_in += w[i] * w[i] * pts[i].stddev * pts[i].stddev / pts[i].n;
			df_in += pts[i].n - 1;
			in_known = true;
		}
	}
	s->sumsq_w = sq / (W * W);
	s->floor = fl / (W * W);
	v_in /= W * W;
	s->var = NAN;
	s->df = NAN;
	if (p >= 2) {
		/* the spread of the points, as the variance of a weighted mean */
		s->var = ss / (W * W) * p / (p - 1);
		s->df = p - 1;
	}
	/* never below what the runs inside the points show */
	if (in_known && !(s->var >= v_in)) {
		s->var = v_in;
		s->df = df_in;
	}
	s->point_var = s->var / s->sumsq_w;
}

double cp_side_test(const struct cp_point *pts, const double *w, const double *floor,
		    int lo, int mid, int hi, double *before, double *after)
{
	struct side a, b;
	double v, t, df;

	side_stats(pts, w, floor, lo, mid, &a);
	side_stats(pts, w, floor, mid, hi, &b);
	if (before)
		*before = a.mean;
	if (after)
		*after = b.mean;
	/* a side with no estimate borrows the other's per-point variance */
	if (isnan(a.var) && !isnan(b.var) && hi - mid >= 2) {
		a.var = b.point_var * a.sumsq_w;
		a.df = b.df;
	} else if (isnan(b.var) && !isnan(a.var) && mid - lo >= 2) {
		b.var = a.point_var * b.sumsq_w;
		b.df = a.df;
	}
	if (isnan(a.var) || isnan(b.var))
		return 1;
	/* never below the series' noise (cp_noise); the degrees of freedom
	 * stay the side's, which keeps a short side's test conservative */
	a.var = fmax(a.var, a.floor);
	b.var = fmax(b.var, b.floor);
	v = a.var + b.var;
	if (v == 0)
		return a.mean == b.mean ? 1 : 0;
	t = (b.mean - a.mean) / sqrt(v);
	/* Satterthwaite; a side with zero variance adds no uncertainty */
	df = v * v / ((a.var > 0 ? a.var * a.var / a.df : 0) +
		      (b.var > 0 ? b.var * b.var / b.df : 0));
	return t_pvalue(t, df);
}
