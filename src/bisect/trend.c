/*
 * trend.c: the line-plus-step model of a bisection's tested commits (see
 * trend.h), and when it, rather than the pooled sides, judges a step.
 */
#include "bisect/trend.h"
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The median of s's logs (all positive), tmp room for s->nr. */
static double median_log(const struct sample_set *s, double *tmp)
{
	for (int i = 0; i < s->nr; i++)
		tmp[i] = log(s->v[i]);
	qsort(tmp, (size_t)s->nr, sizeof(double), cmp_double);
	return s->nr % 2 ? tmp[s->nr / 2] : (tmp[s->nr / 2 - 1] + tmp[s->nr / 2]) / 2;
}

/*
 * Mean log of s's runs and their squared deviations from it into *ss;
 * NAN when a run is not positive.  With lim > 0 and more than 2 runs the
 * logs are clipped (winsorized) about their median at lim first, as
 * decide.c clips the runs it compares: one run in a heavy tail would
 * otherwise move a commit off its line.
 */
static double log_mean(const struct sample_set *s, double lim, double *ss)
{
	double sum = 0, m, med = 0, *tmp;

	*ss = 0;
	for (int i = 0; i < s->nr; i++)
		if (!(s->v[i] > 0))
			return NAN;
	tmp = xmalloc(sizeof(double) * (size_t)(s->nr > 0 ? s->nr : 1));
	if (lim > 0 && s->nr > 2)
		med = median_log(s, tmp);
	for (int i = 0; i < s->nr; i++) {
		tmp[i] = log(s->v[i]);
		if (lim > 0 && s->nr > 2)
			tmp[i] = fmin(fmax(tmp[i], med - lim), med + lim);
		sum += tmp[i];
	}
	m = sum / s->nr;
	for (int i = 0; i < s->nr; i++)
		*ss += (tmp[i] - m) * (tmp[i] - m);
	free(tmp);
	return m;
}

/*
 * The clipping limit of log_mean for every set of t and the step: 2.5
 * robust scales (1.4826 times the median absolute deviation of each run's
 * log from its own commit's median, scaled by sqrt(n / (n - 1)) as
 * decide.c's clipped() does); 0 when no set has 2 runs or a run is not
 * positive (the fit then refuses anyway).
 */
static double clip_limit(const struct bisect_trend *t, const struct sample_set *step)
{
	double *dev, *tmp, lim = 0;
	int n = step ? step->nr : 0, k = 0;

	for (int j = 0; j < t->nr; j++)
		n += t->pt[j].runs ? t->pt[j].runs->nr : 0;
	dev = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	tmp = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	for (int j = -1; j < t->nr; j++) {
		const struct sample_set *s = j < 0 ? step : t->pt[j].runs;
		double med;

		if (!s || s->nr < 2)
			continue;
		for (int i = 0; i < s->nr; i++)
			if (!(s->v[i] > 0))
				goto out;
		med = median_log(s, tmp);
		for (int i = 0; i < s->nr; i++)
			dev[k++] = fabs(log(s->v[i]) - med) * sqrt(s->nr / (s->nr - 1.0));
	}
	if (k) {
		qsort(dev, (size_t)k, sizeof(double), cmp_double);
		lim = 2.5 * 1.4826 * (k % 2 ? dev[k / 2] : (dev[k / 2 - 1] + dev[k / 2]) / 2);
	}
out:
	free(dev);
	free(tmp);
	return lim;
}

/* inv = a^-1 by cofactors; false when a is (nearly) singular. */
static bool invert3(const double a[3][3], double inv[3][3])
{
	double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
		a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
		a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);

	/* the entries are sums of runs (>= 1) times x in 0..1: a
	 * determinant this small means one side or one position only */
	if (!(fabs(det) > 1e-9))
		return false;
	inv[0][0] = (a[1][1] * a[2][2] - a[1][2] * a[2][1]) / det;
	inv[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
	inv[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
	inv[1][0] = (a[1][2] * a[2][0] - a[1][0] * a[2][2]) / det;
	inv[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
	inv[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
	inv[2][0] = (a[1][0] * a[2][1] - a[1][1] * a[2][0]) / det;
	inv[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
	inv[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
	return true;
}

static bool counts(const struct bisect_point *p)
{
	return p->runs && p->runs->nr > 0 && (p->v == BISECT_GOOD || p->v == BISECT_BAD);
}

static double row_x(const struct trend_fit *f, double x)
{
	return (x - f->x0) / f->scale;
}

static double fitted(const struct trend_fit *f, const struct bisect_point *p)
{
	return f->beta[0] + f->beta[1] * row_x(f, p->x) + f->beta[2] * (p->v == BISECT_BAD);
}

bool trend_fit(const struct bisect_trend *t, const struct sample_set *step,
	       struct trend_fit *f)
{
	double a[3][3] = { { 0 } }, rhs[3] = { 0 }, ss, ssum = 0, rss = 0;
	double xmin = INFINITY, xmax = -INFINITY, ymin = NAN, ymax = NAN;
	int k1;

	memset(f, 0, sizeof(*f));
	if (!t)
		return false;
	f->clip = clip_limit(t, step);
	if (step && step->nr > 0) {
		if (isnan(log_mean(step, f->clip, &ss)))
			return false;
		ssum = ss;
		f->df = step->nr - 1;
	}
	for (int k = 0; k < t->nr; k++) {
		if (!counts(&t->pt[k]))
			continue;
		xmin = fmin(xmin, t->pt[k].x);
		xmax = fmax(xmax, t->pt[k].x);
	}
	if (!(xmax > xmin))
		return false;
	f->x0 = xmin;
	f->scale = xmax - xmin;
	for (int k = 0; k < t->nr; k++) {
		const struct bisect_point *p = &t->pt[k];
		double y, w, row[3];

		if (!counts(p))
			continue;
		y = log_mean(p->runs, f->clip, &ss);
		if (isnan(y))
			return false;
		ssum += ss;
		f->df += p->runs->nr - 1;
		w = p->runs->nr;
		row[0] = 1;
		row[1] = row_x(f, p->x);
		row[2] = p->v == BISECT_BAD;
		for (int i = 0; i < 3; i++) {
			rhs[i] += w * row[i] * y;
			for (int j = 0; j < 3; j++)
				a[i][j] += w * row[i] * row[j];
		}
		if (p->x == xmin)
			ymin = y;
		if (p->x == xmax)
			ymax = y;
		f->npts++;
	}
	if (f->npts < TREND_MIN_POINTS || f->df < 1 || !invert3(a, f->inv))
		return false;
	for (int i = 0; i < 3; i++)
		f->beta[i] = f->inv[i][0] * rhs[0] + f->inv[i][1] * rhs[1] + f->inv[i][2] * rhs[2];
	f->s2 = ssum / f->df;
	f->total = ymax - ymin;
	for (int k = 0; k < t->nr; k++) {
		double q, d;

		if (!counts(&t->pt[k]))
			continue;
		d = log_mean(t->pt[k].runs, f->clip, &q) - fitted(f, &t->pt[k]);
		rss += t->pt[k].runs->nr * d * d;
	}
	/* F = (rss / k1) / s2 on k1 and df degrees: P(F' >= F) */
	k1 = f->npts - 3;
	f->lof_p = 1;
	if (f->s2 > 0)
		f->lof_p = incbeta(f->df / 2.0, k1 / 2.0, f->df / (f->df + rss / f->s2));
	else if (rss > 0)
		f->lof_p = 0;
	return true;
}

bool trend_neighbours_moved(const struct bisect_trend *t, const struct trend_fit *f)
{
	double sum[2] = { 0, 0 }, n[2] = { 0, 0 }, q;
	int nb[2] = { -1, -1 };

	for (int k = 0; k < t->nr; k++) {
		const struct bisect_point *p = &t->pt[k];
		int side = p->v == BISECT_BAD;

		if (!counts(p))
			continue;
		sum[side] += p->runs->nr * log_mean(p->runs, f->clip, &q);
		n[side] += p->runs->nr;
		if (!side && p->x < t->x && (nb[0] < 0 || p->x > t->pt[nb[0]].x))
			nb[0] = k;
		if (side && p->x > t->x && (nb[1] < 0 || p->x < t->pt[nb[1]].x))
			nb[1] = k;
	}
	for (int side = 0; side < 2; side++) {
		const struct sample_set *r;
		double var;

		if (nb[side] < 0)
			return false;
		r = t->pt[nb[side]].runs;
		var = f->s2 * (1.0 / r->nr - 1.0 / n[side]);
		if (!(var > 0) ||
		    fabs(log_mean(r, f->clip, &q) - sum[side] / n[side]) < TREND_NEIGHBOUR_Z * sqrt(var))
			return false;
	}
	return true;
}

bool trend_sloped(const struct trend_fit *f)
{
	return fabs(f->beta[1]) >= TREND_SLOPE_Z * sqrt(f->s2 * f->inv[1][1]) &&
		f->lof_p >= TREND_LOF_P &&
		fabs(f->beta[2]) >= TREND_STEP_Z * sqrt(f->s2 * f->inv[2][2]);
}

bool trend_decides(const struct bisect_trend *t, const struct sample_set *step,
		   struct trend_refs *out)
{
	struct trend_fit f;
	double u[3], vmid = 0, q, ym;

	if (!step || step->nr < 1 || !trend_fit(t, step, &f) || !(f.s2 > 0))
		return false;
	if ((!trend_neighbours_moved(t, &f) && !trend_sloped(&f)) || !(f.beta[2] * f.total > 0))
		return false;
	out->d = f.beta[2];
	out->vd = f.s2 * f.inv[2][2];
	u[0] = 1;
	u[1] = row_x(&f, t->x);
	u[2] = 0.5;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			vmid += u[i] * f.inv[i][j] * u[j];
	ym = log_mean(step, f.clip, &q);
	out->x = ym - (f.beta[0] + f.beta[1] * u[1] + f.beta[2] / 2);
	out->vx = f.s2 / step->nr + f.s2 * vmid;
	out->df = f.df;
	return true;
}

bool bisect_step_stands_out(const struct bisect_trend *all, const struct sample_set *lo,
			    const struct sample_set *hi)
{
	struct trend_fit f;
	double pair, se;

	if (!lo || !hi || lo->nr < 1 || hi->nr < 1 || !trend_fit(all, NULL, &f) ||
	    !(f.s2 > 0) || !(f.beta[2] * f.total > 0))
		return false;
	if (fabs(f.beta[2]) < BISECT_STEP_FIT_Z * sqrt(f.s2 * f.inv[2][2]))
		return false;
	if (!(mean(lo->v, lo->nr) > 0) || !(mean(hi->v, hi->nr) > 0))
		return false;
	pair = log(mean(hi->v, hi->nr) / mean(lo->v, lo->nr));
	se = sqrt(f.s2 * (1.0 / lo->nr + 1.0 / hi->nr));
	return (f.beta[2] > 0 ? pair : -pair) >= BISECT_STEP_PAIR_Z * se;
}
