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

static bool counts(const struct bisect_point *p)
{
	return p->runs && p->runs->nr > 0 && (p->v == BISECT_GOOD || p->v == BISECT_BAD);
}

/*
 * Set j of a fit: point j's runs when it counts, NULL when not; j ==
 * t->nr is the step's (NULL when it has none).
 */
static const struct sample_set *set_of(const struct bisect_trend *t,
				       const struct sample_set *step, int j)
{
	if (j < t->nr)
		return counts(&t->pt[j]) ? t->pt[j].runs : NULL;
	return step && step->nr > 0 ? step : NULL;
}

/*
 * Every set's mean log and the squared deviations of its logs from it,
 * into y[j] and ss[j] (j as set_of; 0 for a NULL set), and the clipping
 * limit into *clip.  The logs are clipped (winsorized) about their set's
 * median at BISECT_CLIP_K robust scales first, as decide.c clips the runs
 * it compares: one run in a heavy tail would otherwise move a commit off
 * its line.  The scale is BISECT_MAD_TO_SD times the median of every
 * run's distance from its set's median, scaled by sqrt(n / (n - 1)) as
 * decide.c's is; sets of 2 are not clipped (their median is their mean).
 * False when a run is not positive: there is no log.
 */
static bool clipped_logs(const struct bisect_trend *t, const struct sample_set *step,
			 double *y, double *ss, double *clip)
{
	double *lg, *dev, *med;
	int n = 0, k = 0, off = 0;
	bool ok = false;

	for (int j = 0; j <= t->nr; j++)
		n += set_of(t, step, j) ? set_of(t, step, j)->nr : 0;
	lg = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	dev = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	med = xcalloc((size_t)t->nr + 1, sizeof(double));
	for (int j = 0; j <= t->nr; j++) {
		const struct sample_set *s = set_of(t, step, j);

		if (!s)
			continue;
		for (int i = 0; i < s->nr; i++) {
			if (!(s->v[i] > 0))
				goto out;
			lg[off + i] = log(s->v[i]);
		}
		if (s->nr > 1) {
			med[j] = median(lg + off, s->nr);
			for (int i = 0; i < s->nr; i++)
				dev[k++] = fabs(lg[off + i] - med[j]) * sqrt(s->nr / (s->nr - 1.0));
		}
		off += s->nr;
	}
	*clip = k ? BISECT_CLIP_K * BISECT_MAD_TO_SD * median(dev, k) : 0;
	off = 0;
	for (int j = 0; j <= t->nr; j++) {
		const struct sample_set *s = set_of(t, step, j);
		double sum = 0;

		y[j] = ss[j] = 0;
		if (!s)
			continue;
		for (int i = 0; i < s->nr; i++) {
			if (*clip > 0 && s->nr > 2)
				lg[off + i] = fmin(fmax(lg[off + i], med[j] - *clip), med[j] + *clip);
			sum += lg[off + i];
		}
		y[j] = sum / s->nr;
		for (int i = 0; i < s->nr; i++)
			ss[j] += (lg[off + i] - y[j]) * (lg[off + i] - y[j]);
		off += s->nr;
	}
	ok = true;
out:
	free(lg);
	free(dev);
	free(med);
	return ok;
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

static double row_x(const struct trend_fit *f, double x)
{
	return (x - f->x0) / f->scale;
}

static double fitted(const struct trend_fit *f, const struct bisect_point *p)
{
	return f->beta[0] + f->beta[1] * row_x(f, p->x) + f->beta[2] * (p->v == BISECT_BAD);
}

/*
 * The refit's mean log of a tested commit and the squared deviations of
 * its logs from it, into *y and *ss.  Sets of 3 or more keep their
 * clipping about the median (clipped_logs).  A set of 2 has no median to
 * tell its outlier by, but its line breaks the tie: when the two runs lie
 * more than TREND_PAIR_CLIP clips apart, the one farther from the line
 * at the commit's position (centre) is put that far from the other.  Two
 * runs that agree are kept wherever they lie, so that a commit off the
 * line (a second step) still shows in the lack of fit.  Unclipped, a
 * commit of 2 runs, one of them in a heavy tail, tilts both lines and
 * shrinks or swells their step, and with them the references of every
 * verdict the trend gives.  1.5, not 1: two runs of normal noise lie
 * 1.5 clips apart 0.2% of the time, 1 clip 4%, and clipping those pulls
 * the fit towards itself (bench/bisect-sim.sh, seeds 1-3: Student-t
 * noise on the drift 87.4-89.6% found in 112-120 mean runs unclipped,
 * 90.6-90.8% in 108-116; the drift itself, 99.0-99.1% unclipped, lost
 * up to 0.3 points at 1 clip and is 98.9-99.1% at 1.5; two steps
 * 98.8-99.4% either way).
 */
#define TREND_PAIR_CLIP 1.5

static bool line_clipped_logs(const struct sample_set *s, double clip, double centre,
			      double *y, double *ss)
{
	double a, b;

	if (s->nr != 2)
		return false;
	a = log(s->v[0]);
	b = log(s->v[1]);
	clip *= TREND_PAIR_CLIP;
	if (!(fabs(a - b) > clip))
		return false;
	if (fabs(a - centre) > fabs(b - centre))
		a = b + (a > b ? clip : -clip);
	else
		b = a + (b > a ? clip : -clip);
	*y = (a + b) / 2;
	*ss = (a - *y) * (a - *y) + (b - *y) * (b - *y);
	return true;
}

/* line_clipped_logs for every commit of t by f's lines; false when no
 * pair was clipped (nothing to refit). */
static bool clip_pairs(const struct bisect_trend *t, const struct trend_fit *f,
		       double *y, double *ss)
{
	bool any = false;

	if (!(f->clip > 0))
		return false;
	for (int k = 0; k < t->nr; k++)
		if (counts(&t->pt[k]))
			any |= line_clipped_logs(t->pt[k].runs, f->clip, fitted(f, &t->pt[k]),
						 &y[k], &ss[k]);
	return any;
}

bool trend_fit(const struct bisect_trend *t, const struct sample_set *step,
	       struct trend_fit *f)
{
	double a[3][3] = { { 0 } }, rhs[3] = { 0 }, ssum, rss = 0, *y, *ss;
	double xmin = INFINITY, xmax = -INFINITY, ymin = NAN, ymax = NAN;
	int k1, nb[2] = { -1, -1 };
	bool ok = false;

	memset(f, 0, sizeof(*f));
	if (!t)
		return false;
	y = xmalloc(sizeof(double) * ((size_t)t->nr + 1));
	ss = xmalloc(sizeof(double) * ((size_t)t->nr + 1));
	if (!clipped_logs(t, step, y, ss, &f->clip))
		goto out;
	if (step && step->nr > 0)
		f->ystep = y[t->nr];
	for (int k = 0; k < t->nr; k++) {
		if (!counts(&t->pt[k]))
			continue;
		xmin = fmin(xmin, t->pt[k].x);
		xmax = fmax(xmax, t->pt[k].x);
	}
	if (!(xmax > xmin))
		goto out;
	f->x0 = xmin;
	f->scale = xmax - xmin;
	/*
	 * The fit, then once more when the first fit's line told the
	 * outlier of a commit of 2 runs (clip_pairs).  A further pass
	 * changes next to nothing (bench/bisect-sim.sh: 0.1 mean runs).
	 */
	for (int pass = 0; pass < 2; pass++) {
		memset(a, 0, sizeof(a));
		memset(rhs, 0, sizeof(rhs));
		ssum = ss[t->nr];
		f->df = step && step->nr > 0 ? step->nr - 1 : 0;
		f->side_y[0] = f->side_y[1] = f->side_n[0] = f->side_n[1] = 0;
		f->side_pts[0] = f->side_pts[1] = 0;
		nb[0] = nb[1] = -1;
		for (int k = 0; k < t->nr; k++) {
			const struct bisect_point *p = &t->pt[k];
			int side = p->v == BISECT_BAD;
			double w, row[3];

			if (!counts(p))
				continue;
			ssum += ss[k];
			f->df += p->runs->nr - 1;
			w = p->runs->nr;
			row[0] = 1;
			row[1] = row_x(f, p->x);
			row[2] = side;
			for (int i = 0; i < 3; i++) {
				rhs[i] += w * row[i] * y[k];
				for (int j = 0; j < 3; j++)
					a[i][j] += w * row[i] * row[j];
			}
			if (p->x == xmin)
				ymin = y[k];
			if (p->x == xmax)
				ymax = y[k];
			f->side_y[side] += w * y[k];
			f->side_n[side] += w;
			f->side_pts[side]++;
			/* the step's neighbours: the good point nearest below it,
			 * the bad one nearest above */
			if (!side && p->x < t->x && (nb[0] < 0 || p->x > t->pt[nb[0]].x))
				nb[0] = k;
			if (side && p->x > t->x && (nb[1] < 0 || p->x < t->pt[nb[1]].x))
				nb[1] = k;
		}
		f->npts = f->side_pts[0] + f->side_pts[1];
		if (f->npts < TREND_MIN_POINTS || f->df < 1 || !invert3(a, f->inv))
			goto out;
		for (int i = 0; i < 3; i++)
			f->beta[i] = f->inv[i][0] * rhs[0] + f->inv[i][1] * rhs[1] +
				f->inv[i][2] * rhs[2];
		if (pass || !clip_pairs(t, f, y, ss))
			break;
	}
	f->s2 = ssum / f->df;
	f->total = ymax - ymin;
	for (int side = 0; side < 2; side++) {
		f->side_y[side] /= f->side_n[side];
		if (nb[side] >= 0) {
			f->nb_y[side] = y[nb[side]];
			f->nb_n[side] = t->pt[nb[side]].runs->nr;
		}
	}
	for (int k = 0; k < t->nr; k++) {
		double d;

		if (!counts(&t->pt[k]))
			continue;
		d = y[k] - fitted(f, &t->pt[k]);
		rss += t->pt[k].runs->nr * d * d;
	}
	/* F = (rss / k1) / s2 on k1 and df degrees: P(F' >= F) */
	k1 = f->npts - 3;
	f->lof_p = 1;
	/* three commits fit exactly: no degree is left to test the fit by */
	if (k1 > 0 && f->s2 > 0)
		f->lof_p = incbeta(f->df / 2.0, k1 / 2.0, f->df / (f->df + rss / f->s2));
	else if (k1 > 0 && rss > 0)
		f->lof_p = 0;
	ok = true;
out:
	free(y);
	free(ss);
	return ok;
}

bool trend_neighbours_moved(const struct trend_fit *f)
{
	for (int side = 0; side < 2; side++) {
		double var;

		if (!f->nb_n[side])
			return false;
		/* a neighbour's runs are among its side's */
		var = f->s2 * (1.0 / f->nb_n[side] - 1.0 / f->side_n[side]);
		if (!(var > 0) ||
		    fabs(f->nb_y[side] - f->side_y[side]) < TREND_NEIGHBOUR_Z * sqrt(var))
			return false;
	}
	return true;
}

bool trend_sloped(const struct trend_fit *f)
{
	double step_z = f->side_pts[0] > 1 && f->side_pts[1] > 1 ? TREND_STEP_Z : TREND_STEP_Z3;

	return fabs(f->beta[1]) >= TREND_SLOPE_Z * sqrt(f->s2 * f->inv[1][1]) &&
		f->lof_p >= TREND_LOF_P &&
		fabs(f->beta[2]) >= step_z * sqrt(f->s2 * f->inv[2][2]);
}

bool trend_decides(const struct bisect_trend *t, const struct sample_set *step, double sv,
		   struct trend_refs *out)
{
	struct trend_fit f;
	double u[3], vmid = 0;

	if (!step || step->nr < 1 || !trend_fit(t, step, &f) || !(f.s2 > 0))
		return false;
	if ((!trend_neighbours_moved(&f) && !trend_sloped(&f)) || !(f.beta[2] * f.total > 0))
		return false;
	out->d = f.beta[2];
	out->vd = f.s2 * f.inv[2][2];
	u[0] = 1;
	u[1] = row_x(&f, t->x);
	u[2] = 0.5;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			vmid += u[i] * f.inv[i][j] * u[j];
	out->x = f.ystep - (f.beta[0] + f.beta[1] * u[1] + f.beta[2] / 2);
	out->vx = f.s2 * sv / step->nr + f.s2 * vmid;
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
