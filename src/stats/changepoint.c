/*
 * changepoint.c: E-Divisive change points with a fast energy profile,
 * seeded permutation tests and a local confirmation; the method and its
 * reasons are at the top of changepoint.h.  The points' weights, the
 * noise floor and the side test are changepoint_weights.c's, the energy
 * profile changepoint_energy.c's.
 */
#include "stats/changepoint.h"
#include "stats/changepoint_impl.h"
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/rng.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void cp_options_init(struct cp_options *opt)
{
	opt->pvalue = CP_DEFAULT_PVALUE;
	opt->min_change = CP_DEFAULT_MIN_CHANGE;
	opt->min_size = 3;
	opt->window = CP_DEFAULT_WINDOW;
	opt->max_permutations = 0;
	opt->seed = CP_DEFAULT_SEED;
}

void cp_result_init(struct cp_result *r)
{
	memset(r, 0, sizeof(*r));
}

void cp_result_release(struct cp_result *r)
{
	free(r->change);
	free(r->drift);
	cp_result_init(r);
}

/* after's change relative to before (before 0: 0 or an infinity). */
static double rel_change(double before, double after)
{
	if (before == 0)
		return after == 0 ? 0 : copysign(INFINITY, after);
	return (after - before) / fabs(before);
}

/* ---- splits, permutations, recursion -------------------------------------- */

static double max_in(const double *q, int from, int to, int *at)
{
	double best = -INFINITY;

	for (int t = from; t <= to; t++)
		if (q[t] > best) {
			best = q[t];
			if (at)
				*at = t;
		}
	return best;
}

/* The permutations a segment may take: enough for p_perm to reach pvalue / 2
 * with up to 4 exceedances (Monte Carlo error then costs little power). */
static long permutation_bound(const struct cp_options *opt)
{
	if (opt->max_permutations > 0)
		return opt->max_permutations;
	return (long)ceil(10 / opt->pvalue) - 1;
}

/*
 * p of the segment's max Q under random orders: (e + 1) / (r + 1) with e
 * of r permutations at or above q_obs.  Stops as soon as e exceeds what
 * p <= alpha / 2 allows.  Shuffling the previous order again gives a
 * uniformly random order each time.
 */
static double permutation_p(struct work *wk, int n, int nr, int m, double q_obs,
			    const struct cp_options *opt, uint64_t seed, long *done)
{
	long bound = permutation_bound(opt), e = 0, r;
	double allowed = opt->pvalue / 2 * (double)(bound + 1) - 1;
	double tol = 1e-9 * fabs(q_obs);
	struct spt *pp = wk->perm;
	struct rng rng;

	if (allowed < 0)
		return 1;
	rng_seed(&rng, seed);
	memcpy(pp, wk->pt, (size_t)n * sizeof(*pp));
	for (r = 1; r <= bound; r++) {
		for (int i = n - 1; i > 0; i--) {
			int j = (int)rng_below(&rng, (uint64_t)i + 1);
			struct spt t = pp[i];

			pp[i] = pp[j];
			pp[j] = t;
		}
		cp_profile(wk, pp, n, nr, wk->q);
		/* near-ties count: a reordering of equal values is the same split */
		if (max_in(wk->q, m, n - m, NULL) >= q_obs - tol)
			e++;
		(*done)++;
		if (e > allowed)
			return (double)(e + 1) / (double)(r + 1);
	}
	return (double)(e + 1) / (double)(bound + 1);
}

struct candidate {
	int index;
	double p_split;
	int lo, hi;             /* the window p_local was computed on */
	double p_local;
	int hi_used;            /* hi, or hi less the jumping tail (confirm) */
	bool drift;             /* a straight line explains the segment (is_drift) */
	int seg_lo, seg_hi;     /* the segment is_drift was computed on */
	int seg_lo2, seg_hi2;   /* and the one a candidate further out */
};

/*
 * The significance of the best split of [s, e) into *p, its place into
 * *tau; true when *p <= pvalue.  *tau is -1 and *p 1 when nothing divides
 * the segment (all values equal).
 */
static bool split_segment(struct work *wk, const struct cp_point *pts, const double *w,
			  int s, int e, const struct cp_options *opt,
			  struct cp_result *stats, int *tau, double *p)
{
	int n = e - s, m = opt->min_size, best = m, nr;
	double q_obs, p_bonf, p_perm;

	*tau = -1;
	*p = 1;
	/* q holds the means until the profile overwrites it */
	for (int i = 0; i < n; i++)
		wk->q[i] = pts[s + i].mean;
	nr = cp_load_segment(wk, wk->q, w + s, n);
	cp_profile(wk, wk->pt, n, nr, wk->q);
	q_obs = max_in(wk->q, m, n - m, &best);
	if (!(q_obs > 0))
		return false;
	stats->splits_tested++;
	*tau = s + best;
	p_bonf = fmin(1, cp_side_test(pts, w, wk->floor, s, s + best, e, NULL, NULL) * (n - 2 * m + 1));
	if (2 * p_bonf <= opt->pvalue) {
		*p = 2 * p_bonf;
		return true;
	}
	p_perm = permutation_p(wk, n, nr, m, q_obs, opt,
			       rng_derive(opt->seed, (uint64_t)s, (uint64_t)e),
			       &stats->permutations);
	*p = fmin(1, 2 * fmin(p_bonf, p_perm));
	return *p <= opt->pvalue;
}

/* A segment whose best split fails is cut at most this many times. */
#define DESCEND_MAX 3

/* Candidates found so far, and the segments searched at the full level. */
struct search {
	struct candidate *c;
	int nr;
	struct span {
		int s, e;
	} *seen;
	int nr_seen;
	size_t alloc_seen;
};

static bool searched(const struct search *sr, int s, int e)
{
	for (int i = 0; i < sr->nr_seen; i++)
		if (sr->seen[i].s == s && sr->seen[i].e == e)
			return true;
	return false;
}

/*
 * Candidate splits of [s, e), appended to sr.  A significant split is a
 * candidate and both sides are searched again.  A segment whose best split
 * is not significant is cut there anyway (up to DESCEND_MAX times) and
 * the parts searched at half the level: changes that cancel out (down,
 * then up again) leave one split of the whole segment weak, and show in a
 * part.  The best split, even a weak one, is at one of them, so the cut
 * does not fall inside a level as a midpoint would.  The levels of the
 * d-th cut add up to pvalue / 2^d over the series, so the false alarms of
 * all cuts stay a few times pvalue in total; the candidate's p_split is
 * scaled back by 2^d, comparable with pvalue.  An explicit stack: a
 * staircase history may split thousands of times.
 */
static void search(struct work *wk, const struct cp_point *pts, const double *w,
		   int s0, int e0, const struct cp_options *opt, struct cp_result *stats,
		   struct search *sr)
{
	struct seg {
		int s, e, depth;
	} *stack = xmalloc(sizeof(*stack) * (size_t)(e0 - s0));
	int top = 0;

	stack[top++] = (struct seg){ s0, e0, 0 };
	while (top > 0) {
		struct seg g = stack[--top];
		struct cp_options lvl = *opt;
		int tau;
		double p;

		if (g.e - g.s < 2 * opt->min_size)
			continue;
		if (g.depth == 0) {
			ALLOC_GROW(sr->seen, (size_t)sr->nr_seen + 1, sr->alloc_seen);
			sr->seen[sr->nr_seen++] = (struct span){ g.s, g.e };
		}
		lvl.pvalue = ldexp(opt->pvalue, -g.depth);
		if (!split_segment(wk, pts, w, g.s, g.e, &lvl, stats, &tau, &p)) {
			if (tau > 0 && g.e - g.s >= 2 * opt->min_size && g.depth < DESCEND_MAX) {
				stack[top++] = (struct seg){ g.s, tau, g.depth + 1 };
				stack[top++] = (struct seg){ tau, g.e, g.depth + 1 };
			}
			continue;
		}
		sr->c[sr->nr].index = tau;
		sr->c[sr->nr].lo = sr->c[sr->nr].hi = -1;
		sr->c[sr->nr].seg_lo = sr->c[sr->nr].seg_hi = -1;
		sr->c[sr->nr].seg_lo2 = sr->c[sr->nr].seg_hi2 = -1;
		sr->c[sr->nr++].p_split = fmin(1, ldexp(p, g.depth));
		stack[top++] = (struct seg){ g.s, tau, g.depth };
		stack[top++] = (struct seg){ tau, g.e, g.depth };
	}
	free(stack);
}

static int cmp_candidate(const void *a, const void *b)
{
	return ((const struct candidate *)a)->index - ((const struct candidate *)b)->index;
}

/*
 * Every candidate of the series: the search of the whole, then of each gap
 * between neighbouring candidates that no search has covered as a whole,
 * until none is left.  A cut that was not significant bounds segments that
 * hide a change of their own (1000 | 890 | 1010: found 1000 | 890 at the
 * cut's left, the 890 | 1010 is inside no searched segment until the gap
 * between the candidates is searched).
 */
static int find_candidates(struct work *wk, const struct cp_point *pts, const double *w,
			   int n, const struct cp_options *opt, struct cp_result *stats,
			   struct candidate *c)
{
	struct search sr = { c, 0, NULL, 0, 0 };
	int before;

	search(wk, pts, w, 0, n, opt, stats, &sr);
	do {
		before = sr.nr;
		qsort(c, (size_t)sr.nr, sizeof(*c), cmp_candidate);
		for (int k = 0; k <= before; k++) {
			int s = k > 0 ? c[k - 1].index : 0, e = k < before ? c[k].index : n;

			if (e - s >= 2 * opt->min_size && !searched(&sr, s, e))
				search(wk, pts, w, s, e, opt, stats, &sr);
		}
	} while (sr.nr > before);
	free(sr.seen);
	return sr.nr;
}

/* The most steps of one run of candidates the drift test fits together. */
#define DRIFT_RUN_MAX 16

/*
 * Least squares of the point means of [lo, hi) on a constant, the index
 * (centred) and a step [i >= step[j]] for each of the nstep steps.
 * Returns the residual sum of squares; *coef is column want's
 * coefficient (1: the slope, 2 + j: step j's) and *inv its diagonal
 * element of (X'X)^-1, so that its variance is inv times the residual
 * variance (INFINITY when the columns are not independent).
 */
static double lsq(const struct cp_point *pts, int lo, int hi, const int *step, int nstep,
		  int want, double *coef, double *inv)
{
	enum { MAXC = 2 + DRIFT_RUN_MAX };
	int nc = 2 + nstep, w = 2 * nc + 1;
	double a[MAXC][2 * MAXC + 1], x[MAXC], beta[MAXC], c = (lo + hi - 1) / 2.0, rss = 0;

	memset(a, 0, sizeof(a));
	for (int i = lo; i < hi; i++) {
		x[0] = 1;
		x[1] = i - c;
		for (int j = 0; j < nstep; j++)
			x[2 + j] = i >= step[j];
		for (int r = 0; r < nc; r++) {
			for (int q = 0; q < nc; q++)
				a[r][q] += x[r] * x[q];
			a[r][nc] += x[r] * pts[i].mean;
		}
	}
	/* Gauss-Jordan on [X'X | X'y | I], partial pivoting */
	for (int r = 0; r < nc; r++)
		a[r][nc + 1 + r] = 1;
	for (int col = 0; col < nc; col++) {
		int piv = col;

		for (int r = col + 1; r < nc; r++)
			if (fabs(a[r][col]) > fabs(a[piv][col]))
				piv = r;
		if (!(fabs(a[piv][col]) > 1e-9)) {
			*coef = 0;
			*inv = INFINITY;
			return 0;
		}
		for (int q = 0; q < w; q++) {
			double t = a[col][q];

			a[col][q] = a[piv][q];
			a[piv][q] = t;
		}
		for (int q = w - 1; q >= col; q--)
			a[col][q] /= a[col][col];
		for (int r = 0; r < nc; r++)
			if (r != col && a[r][col] != 0)
				for (int q = w - 1; q >= col; q--)
					a[r][q] -= a[r][col] * a[col][q];
	}
	for (int r = 0; r < nc; r++)
		beta[r] = a[r][nc];
	for (int i = lo; i < hi; i++) {
		double f = beta[0] + beta[1] * (i - c);

		for (int j = 0; j < nstep; j++)
			f += i >= step[j] ? beta[2 + j] : 0;
		rss += (pts[i].mean - f) * (pts[i].mean - f);
	}
	*coef = beta[want];
	*inv = a[want][nc + 1 + want];
	return rss;
}

/* Two-sided p of a least-squares coefficient with m points and nc
 * columns, the residual variance never below the mean floor of [lo, hi). */
static double coef_p(double coef, double inv, double rss, const double *floor, int lo,
		     int hi, int nc)
{
	int df = hi - lo - nc;
	double v, fl = 0;

	if (df < 1 || !isfinite(inv))
		return 1;
	for (int i = lo; floor && i < hi; i++)
		fl += floor[i] / (hi - lo);
	v = fmax(rss / df, fl);
	if (v == 0)
		return coef == 0 ? 1 : 0;
	return t_pvalue(coef / sqrt(v * inv), df);
}

/* Residual sum of squares of [lo, hi) about the means of its pieces
 * between the cuts cut[0..ncut) (ascending, inside it). */
static double rss_levels(const struct cp_point *pts, int lo, int hi, const int *cut, int ncut)
{
	double rss = 0;

	for (int j = 0; j <= ncut; j++) {
		int a = j > 0 ? cut[j - 1] : lo, b = j < ncut ? cut[j] : hi;
		double m = 0;

		for (int i = a; i < b; i++)
			m += pts[i].mean / (b - a);
		for (int i = a; i < b; i++)
			rss += (pts[i].mean - m) * (pts[i].mean - m);
	}
	return rss;
}

/*
 * Is candidate k a slow drift's rather than a step?  A drift shows as a
 * staircase of candidates that all go the same way, each of which looks
 * like a step between its neighbours; so the test takes the run of
 * neighbouring candidates that move the same way as k (at most
 * DRIFT_RUN_MAX), the segment [lo, hi) from the candidate before the run
 * to the one after it (or the ends), and fits a straight line plus a
 * step at each candidate of the run.  k is a step when its step stays
 * significant on top of the line: its coefficient's t (residual variance
 * never below the series' noise), times the places a split could take
 * between its neighbours (it was picked as the best one), at pvalue.  A
 * lone candidate is a step too when steps fit at least as well as a
 * line: the levels between k and its neighbours against a line with
 * steps at the neighbours only, over the segment one candidate further
 * out each side (or the ends).  Further out, because a step against the
 * drift bounds a lone drift candidate's segment, and over that short
 * stretch a step fits a drift about as often as a line does; beyond the
 * neighbour the line shows.  The segment, not the window: over a long
 * segment a drift's slope and a step on top of it tell apart far
 * better.  sign[j] is the direction of candidate j's step between its
 * neighbours, hi_n the end of the series (less a jumping tail).
 */
static bool is_drift(const struct cp_point *pts, const double *floor, struct candidate *c,
		     const int *sign, int nr, int k, int hi_n, const struct cp_options *opt)
{
	int first = k, last = k, lo, hi, lo2, hi2, step[DRIFT_RUN_MAX], ns = 0, places;
	double coef, inv, rss, p;

	while (first > 0 && sign[first - 1] == sign[k] && k - first + 1 < DRIFT_RUN_MAX / 2)
		first--;
	while (last + 1 < nr && sign[last + 1] == sign[k] && last - first + 1 < DRIFT_RUN_MAX)
		last++;
	lo = first > 0 ? c[first - 1].index : 0;
	hi = last + 1 < nr ? c[last + 1].index : hi_n;
	lo2 = first > 1 ? c[first - 2].index : 0;
	hi2 = last + 2 < nr ? c[last + 2].index : hi_n;
	/* the same segments hold the same candidates: the answer is cached */
	if (c[k].seg_lo == lo && c[k].seg_hi == hi && c[k].seg_lo2 == lo2 && c[k].seg_hi2 == hi2)
		return c[k].drift;
	c[k].seg_lo = lo;
	c[k].seg_hi = hi;
	c[k].seg_lo2 = lo2;
	c[k].seg_hi2 = hi2;
	c[k].drift = true;
	for (int j = first; j <= last; j++)
		step[ns++] = c[j].index;
	if (ns == 1) {
		int cut[3], nc = 0, nb[2], nnb = 0;

		if (k > 0)
			cut[nc++] = nb[nnb++] = c[k - 1].index;
		cut[nc++] = c[k].index;
		if (k + 1 < nr)
			cut[nc++] = nb[nnb++] = c[k + 1].index;
		if (rss_levels(pts, lo2, hi2, cut, nc) <= lsq(pts, lo2, hi2, nb, nnb, 1, &coef, &inv))
			return c[k].drift = false;
	}
	rss = lsq(pts, lo, hi, step, ns, 2 + (k - first), &coef, &inv);
	places = (k + 1 < nr ? c[k + 1].index : hi_n) - (k > 0 ? c[k - 1].index : 0) -
		2 * opt->min_size + 1;
	p = coef_p(coef, inv, rss, floor, lo, hi, 2 + ns) * (places > 1 ? places : 1);
	return c[k].drift = !(p <= opt->pvalue);
}

/*
 * The local test of candidate k between its neighbours: the split test
 * again, on at most `window` points each side.  Being a permutation test
 * of the best split in the window, it knows that the candidate was picked
 * as a maximum, which a plain two-sample test at the candidate would not
 * (it would confirm the largest wiggle of a drift).  Cached in c[k] while
 * the window stays the same.
 */
static void confirm(struct work *wk, const struct cp_point *pts, const double *w, int n,
		    struct candidate *c, int nr, int k, const struct cp_options *opt,
		    struct cp_result *stats, struct cp_change *out)
{
	int idx = c[k].index, tau;
	int left = k > 0 ? c[k - 1].index : 0, right = k + 1 < nr ? c[k + 1].index : n;

	out->index = idx;
	out->lo = idx - opt->window > left ? idx - opt->window : left;
	out->hi = idx + opt->window < right ? idx + opt->window : right;
	if (c[k].lo != out->lo || c[k].hi != out->hi) {
		split_segment(wk, pts, w, out->lo, out->hi, opt, stats, &tau, &c[k].p_local);
		c[k].lo = out->lo;
		c[k].hi = c[k].hi_used = out->hi;
		/* the window ends with points that jumped: the test without
		 * them too, the better of the tail + 1 tests (Bonferroni);
		 * the levels then come from the window without them, also
		 * on a tie with the whole window (permutations at their
		 * floor) when it leaves out just the points that jumped, so
		 * that the jump does not inflate the step's size */
		if (wk->tail > 0 && out->hi == n) {
			double best = c[k].p_local, pj;

			for (int j = 1; j <= wk->tail; j++) {
				if (n - j - idx < opt->min_size)
					break;
				split_segment(wk, pts, w, out->lo, n - j, opt, stats, &tau, &pj);
				if (pj < best || (pj == best && n - j == wk->end)) {
					best = pj;
					c[k].hi_used = n - j;
				}
			}
			c[k].p_local = fmin(1, best * (wk->tail + 1));
		}
	}
	out->hi = c[k].hi_used;
	out->p_split = c[k].p_split;
	out->p_local = c[k].p_local;
	cp_side_test(pts, w, wk->floor, out->lo, idx, out->hi, &out->before, &out->after);
	out->change = rel_change(out->before, out->after);
	out->p = fmax(out->p_split, out->p_local);
}

static bool passes(const struct cp_change *ch, const struct cp_options *opt)
{
	return ch->p <= opt->pvalue && fabs(ch->change) >= opt->min_change;
}

/* Is a weaker than b: larger p, then smaller |change|, then later. */
static bool weaker(const struct cp_change *a, const struct cp_change *b)
{
	if (a->p != b->p)
		return a->p > b->p;
	if (fabs(a->change) != fabs(b->change))
		return fabs(a->change) < fabs(b->change);
	return a->index > b->index;
}

/* Drop the weakest failing candidate until all pass; the survivors go to out. */
/* Drop the weakest failing candidate until all pass; the survivors go to
 * out.  A candidate that is a drift's (is_drift) fails; their indexes go
 * to drift[0..*nr_drift). */
static void prune(struct work *wk, const struct cp_point *pts, const double *w, int n,
		  struct candidate *c, int nr, const struct cp_options *opt,
		  struct cp_result *out, int *drift, int *nr_drift)
{
	struct cp_change *ch = xcalloc((size_t)nr + 1, sizeof(*ch));

	double *sum = xmalloc(sizeof(*sum) * ((size_t)n + 1));
	int *sign = xmalloc(sizeof(*sign) * ((size_t)nr + 1));

	*nr_drift = 0;
	sum[0] = 0;
	for (int i = 0; i < n; i++)
		sum[i + 1] = sum[i] + pts[i].mean;
	qsort(c, (size_t)nr, sizeof(*c), cmp_candidate);
	for (;;) {
		int worst = -1;

		/* which way each candidate goes between its neighbours */
		for (int k = 0; k < nr; k++) {
			int a = k > 0 ? c[k - 1].index : 0, i = c[k].index;
			int b = k + 1 < nr ? c[k + 1].index : wk->end;
			double d = b > i ? (sum[b] - sum[i]) / (b - i) - (sum[i] - sum[a]) / (i - a) : 0;

			sign[k] = (d > 0) - (d < 0);
		}
		for (int k = 0; k < nr; k++) {
			confirm(wk, pts, w, n, c, nr, k, opt, out, &ch[k]);
			is_drift(pts, wk->floor, c, sign, nr, k, wk->end, opt);
			if ((!passes(&ch[k], opt) || c[k].drift) &&
			    (worst < 0 || weaker(&ch[k], &ch[worst])))
				worst = k;
		}
		if (worst < 0)
			break;
		if (c[worst].drift && ch[worst].p <= opt->pvalue)
			drift[(*nr_drift)++] = c[worst].index;
		memmove(c + worst, c + worst + 1, sizeof(*c) * (size_t)(nr - worst - 1));
		nr--;
	}
	free(sum);
	free(sign);
	out->change = ch;
	out->nr = nr;
}

/*
 * The drifts: each segment between the changes (and the ends; before the
 * latest points when they jumped) that held a candidate dropped as a
 * drift's, fitted with a straight line; said when its slope is
 * significant (t, residual variance never below the floor) and it moved
 * the level by min_change or more from the segment's first point to its
 * last.  drift[] comes in the order the candidates were dropped; sorted
 * here, so that the drifts come by lo and each segment's candidates are
 * neighbours, its drift said once.
 */
static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void drifts(const struct cp_point *pts, const double *floor, int n,
		   int *drift, int nr_drift, const struct cp_options *opt,
		   struct cp_result *out)
{
	int end = out->latest.index > 0 ? out->latest.index : n;

	qsort(drift, (size_t)nr_drift, sizeof(*drift), cmp_int);
	out->drift = xcalloc((size_t)nr_drift + 1, sizeof(*out->drift));
	for (int k = 0; k < nr_drift; k++) {
		int lo = 0, hi = end;
		double slope, inv, rss, c, level;
		struct cp_drift d;

		for (int j = 0; j < out->nr; j++) {
			if (out->change[j].index <= drift[k])
				lo = out->change[j].index;
			else if (out->change[j].index < hi)
				hi = out->change[j].index;
		}
		if (hi - lo < 2 * opt->min_size ||
		    (out->nr_drift > 0 && out->drift[out->nr_drift - 1].lo == lo))
			continue;
		rss = lsq(pts, lo, hi, NULL, 0, 1, &slope, &inv);
		c = (lo + hi - 1) / 2.0;
		level = 0;
		for (int i = lo; i < hi; i++)
			level += pts[i].mean / (hi - lo);
		d.lo = lo;
		d.hi = hi;
		d.from = level + slope * (lo - c);
		d.to = level + slope * (hi - 1 - c);
		d.change = rel_change(d.from, d.to);
		d.p = coef_p(slope, inv, rss, floor, lo, hi, 2);
		if (d.p <= opt->pvalue && fabs(d.change) >= opt->min_change)
			out->drift[out->nr_drift++] = d;
	}
}

/*
 * The tail test: points [hi, n) against [lo, hi) with Student's t on
 * their plain means, the variance pooled over both (they are the same
 * noise, and a side of 1 or 2 points cannot estimate its own) and never
 * below the series' noise, the mean of floor over [lo, n).
 */
static double tail_p(const struct cp_point *pts, const double *floor, int lo, int hi, int n,
		     double *before, double *after)
{
	double a = 0, b = 0, ss = 0, fl = 0, v, t;
	int m = hi - lo, k = n - hi, df = m + k - 2;

	for (int i = lo; i < n; i++) {
		if (i < hi)
			a += pts[i].mean / m;
		else
			b += pts[i].mean / k;
		fl += floor ? floor[i] / (m + k) : 0;
	}
	for (int i = lo; i < n; i++) {
		double d = pts[i].mean - (i < hi ? a : b);

		ss += d * d;
	}
	*before = a;
	*after = b;
	v = fmax(ss / df, fl);
	if (v == 0)
		return a == b ? 1 : 0;
	t = (b - a) / sqrt(v * (1.0 / m + 1.0 / k));
	return t_pvalue(t, df);
}

/*
 * Did the last k points jump (k = 1 .. CP_TAIL_MAX, fewer than min_size)?
 * Each k's points against the `window` points before them, from ref_lo
 * on (tail_p); the smallest p, times the number of k tried (Bonferroni),
 * must pass pvalue and the change min_change, and the point before them
 * must not have jumped with them.  Returns that k into *out, or 0.
 */
static int tail_jump(struct work *wk, const struct cp_point *pts, int n, int ref_lo,
		     const struct cp_options *opt, struct cp_change *out)
{
	int kmax = opt->min_size - 1 < CP_TAIL_MAX ? opt->min_size - 1 : CP_TAIL_MAX, best = 0;

	for (int k = 1; k <= kmax; k++) {
		int hi = n - k, lo = hi - opt->window > ref_lo ? hi - opt->window : ref_lo;
		struct cp_change ch = { 0 };

		if (hi - lo < opt->min_size)
			continue;
		ch.index = hi;
		ch.lo = lo;
		ch.hi = n;
		ch.p = fmin(1, kmax * tail_p(pts, wk->floor, lo, hi, n, &ch.before, &ch.after));
		ch.p_split = ch.p_local = ch.p;
		ch.change = rel_change(ch.before, ch.after);
		/* the point before them must still be nearer the level than
		 * half-way to them: else the jump is longer than k (a change
		 * of min_size points or more is the search's, not a jump) */
		if (!(fabs(pts[hi - 1].mean - ch.before) < fabs(ch.after - ch.before) / 2))
			continue;
		if (passes(&ch, opt) && (!best || ch.p < out->p)) {
			*out = ch;
			best = k;
		}
	}
	return best;
}

/*
 * The candidates with the jumping tail left out too: the searches of
 * [0, n - j) for j = 1 .. tail added to c[0..nr), one candidate an index
 * (the smallest p_split), each p_split times the tail + 1 searches.
 */
static int candidates_without_tail(struct work *wk, const struct cp_point *pts,
				   const double *w, int n, int tail,
				   const struct cp_options *opt, struct cp_result *stats,
				   struct candidate *c, int nr)
{
	int u = 0;

	for (int j = 1; j <= tail; j++)
		if (n - j >= 2 * opt->min_size)
			nr += find_candidates(wk, pts, w, n - j, opt, stats, c + nr);
	qsort(c, (size_t)nr, sizeof(*c), cmp_candidate);
	for (int k = 0; k < nr; k++) {
		if (u > 0 && c[u - 1].index == c[k].index) {
			c[u - 1].p_split = fmin(c[u - 1].p_split, c[k].p_split);
			continue;
		}
		c[u++] = c[k];
	}
	for (int k = 0; k < u; k++)
		c[k].p_split = fmin(1, c[k].p_split * (tail + 1));
	return u;
}

static int check_options(const struct cp_options *opt)
{
	if (!(opt->pvalue > 0 && opt->pvalue < 1))
		return error("change points: p-value threshold %g is not in (0, 1)", opt->pvalue);
	if (!(opt->min_change >= 0) || !isfinite(opt->min_change))
		return error("change points: minimum change %g is not a finite number >= 0",
			     opt->min_change);
	if (opt->min_size < 1)
		return error("change points: minimum segment size %d is below 1", opt->min_size);
	if (opt->window < opt->min_size)
		return error("change points: window %d is below the minimum segment size %d",
			     opt->window, opt->min_size);
	if (opt->max_permutations < 0)
		return error("change points: negative permutation bound %d",
			     opt->max_permutations);
	return 0;
}

int cp_detect(const struct cp_point *pts, int n, const struct cp_options *opt,
	      struct cp_result *out)
{
	struct candidate *c;
	struct work wk;
	struct cp_change latest = { 0 };
	double *w, *floor;
	int nr, k, *drift, nr_drift;

	cp_result_release(out);
	if (check_options(opt) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!isfinite(pts[i].mean))
			return error("change points: point %d has a non-finite value", i);
		if (pts[i].n < 1)
			return error("change points: point %d has %d runs", i, pts[i].n);
	}
	if (n < 2 * opt->min_size)
		return 0;
	w = xmalloc(sizeof(*w) * (size_t)n);
	floor = xmalloc(sizeof(*floor) * (size_t)n);
	c = xmalloc(sizeof(*c) * (size_t)n * (CP_TAIL_MAX + 1));
	cp_work_init(&wk, n);
	cp_weights(pts, n, w);
	cp_noise(pts, n, floor);
	wk.floor = floor;
	nr = find_candidates(&wk, pts, w, n, opt, out, c);
	/* a jump of the last points: everything also without them, so that
	 * it does not hide an earlier step (it inflates the variance of the
	 * step's right side) */
	k = tail_jump(&wk, pts, n, 0, opt, &latest);
	if (k > 0) {
		wk.tail = opt->min_size - 1 < CP_TAIL_MAX ? opt->min_size - 1 : CP_TAIL_MAX;
		wk.end = n - k;
		nr = candidates_without_tail(&wk, pts, w, n, wk.tail, opt, out, c, nr);
	}
	drift = xmalloc(sizeof(*drift) * (size_t)(nr + 1));
	prune(&wk, pts, w, n, c, nr, opt, out, drift, &nr_drift);
	if (k > 0) {
		/* said against the level since the last change before them */
		int ref = 0;

		for (int j = 0; j < out->nr; j++)
			if (out->change[j].index <= n - k - opt->min_size)
				ref = out->change[j].index;
		if (tail_jump(&wk, pts, n, ref, opt, &latest) > 0)
			out->latest = latest;
	}
	drifts(pts, floor, n, drift, nr_drift, opt, out);
	free(drift);
	/* a jump after a drift: from where the drift's line got to, not from
	 * the mean of the window, which lags behind a drift */
	if (out->latest.index > 0 && out->nr_drift > 0 &&
	    out->drift[out->nr_drift - 1].hi == out->latest.index) {
		out->latest.before = out->drift[out->nr_drift - 1].to;
		out->latest.change = rel_change(out->latest.before, out->latest.after);
	}
	cp_work_release(&wk);
	free(c);
	free(floor);
	free(w);
	return 0;
}
