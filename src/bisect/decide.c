/*
 * decide.c: the verdicts of a performance bisection (see decide.h) —
 * which side a commit's samples resemble, and how many more runs it
 * takes to tell.
 */
#include "bisect/decide.h"
#include "bisect/trend.h"
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sample_set_add(struct sample_set *s, double v)
{
	ALLOC_GROW(s->v, (size_t)s->nr + 1, s->alloc);
	s->v[s->nr++] = v;
}

void sample_set_append(struct sample_set *s, const struct sample_set *from)
{
	if (!from->nr)
		return;
	ALLOC_GROW(s->v, (size_t)s->nr + (size_t)from->nr, s->alloc);
	memcpy(s->v + s->nr, from->v, sizeof(*s->v) * (size_t)from->nr);
	s->nr += from->nr;
}

void sample_set_release(struct sample_set *s)
{
	free(s->v);
	s->v = NULL;
	s->nr = 0;
	s->alloc = 0;
}

const char *bisect_verdict_name(enum bisect_verdict v)
{
	switch (v) {
	case BISECT_GOOD:
		return "good";
	case BISECT_BAD:
		return "bad";
	case BISECT_UNKNOWN:
		break;
	}
	return "skip";
}

/*
 * A bisection of n commits makes about log2(n) verdicts, and one wrong
 * one anywhere sends it astray, so each gets an equal share of these
 * per-bisection levels.  bench/bisect-sim.sh tuned them: 5% noise, a 10%
 * shift, 64 and 1,024 commits, >= 99% found within 5 * (log2 n + 3) runs.
 * The search's is loose (0.4): a wrong verdict ends at the edge, where
 * the confirmation catches it, and each looser verdict saves runs.
 */
#define SEARCH_LEVEL 0.4
#define CONFIRM_LEVEL 0.003
/*
 * Three verdicts in a row that no number of runs up to max_runs could
 * make: git bisect skip moves to a neighbour of the skipped commit, which
 * the same noise blurs as much, so a fourth would most likely only spend
 * another max_runs.
 */
#define MAX_UNKNOWN_IN_ROW 3

void bisect_params_init(struct bisect_params *p, int nr_commits)
{
	double verdicts = log2(nr_commits > 2 ? nr_commits : 2);

	p->alpha = SEARCH_LEVEL / verdicts;
	p->confirm_alpha = CONFIRM_LEVEL / verdicts;
	p->tests = BISECT_TEST_SPRT;
	p->min_runs = 2;
	p->max_runs = 32;
	p->ref_min_runs = 4;
	p->ref_max_runs = 40;
	p->min_shift = 0;
	p->max_total_runs = bisect_default_budget(nr_commits);
	p->max_unknown_in_row = MAX_UNKNOWN_IN_ROW;
	p->paired = false;
}

int bisect_default_budget(int nr_commits)
{
	return (int)ceil(BISECT_BUDGET_FACTOR * 5 *
			 (log2(nr_commits > 2 ? nr_commits : 2) + 3));
}

int bisect_paired_budget(int nr_commits)
{
	return BISECT_PAIRED_COST * bisect_default_budget(nr_commits);
}

struct bisect_params bisect_confirm_params(const struct bisect_params *p)
{
	struct bisect_params c = *p;

	c.alpha = p->confirm_alpha;
	if (c.min_runs < BISECT_CONFIRM_MIN_RUNS)
		c.min_runs = BISECT_CONFIRM_MIN_RUNS < c.max_runs ?
			BISECT_CONFIRM_MIN_RUNS : c.max_runs;
	return c;
}

/* A p-value that is undefined carries no evidence of a difference. */
static double p_or_one(double p)
{
	return isnan(p) ? 1 : p;
}

/* Sum of squared deviations from the set's own mean. */
static double sum_sq(const struct sample_set *s, double *m)
{
	double ss = 0;

	*m = mean(s->v, s->nr);
	for (int i = 0; i < s->nr; i++)
		ss += (s->v[i] - *m) * (s->v[i] - *m);
	return ss;
}

/*
 * Student's t of a against b with the variance pooled over a, b and
 * extra (may be NULL): every run of one benchmark on one machine shares
 * a noise level, and 3 runs alone estimate it too poorly to trust.
 */
/*
 * Heavy tails: a run far off (Student's t noise, a disturbed machine)
 * drags a mean, and a bisection of a dozen verdicts meets one in nearly
 * every history.  So the means compared are of values clipped
 * (winsorized) about their set's median at BISECT_CLIP_K times the noise's
 * robust scale: 1.4826 times the median absolute deviation of every run
 * from its own set's median, pooled over the sets like the variance.
 * The fixed-level tests keep the raw values' variance (an outlier
 * widens their doubt); the sequential verdict takes the clipped values'
 * (its tail correction covers the rest).  Normal noise is hardly touched
 * (1.2% of its runs lie beyond 2.5 standard deviations, and those only
 * by a little).
 */
static double median_of(const double *v, int n, double *tmp)
{
	memcpy(tmp, v, sizeof(double) * (size_t)n);
	qsort(tmp, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

#define MAX_SETS 5

/*
 * The clipped means of the sets (NULL or empty ones skipped) into m[],
 * and when ss is not NULL the sum of squares of the clipped values about
 * their set's clipped mean into ss[] (0 for a skipped set).  The scale
 * is of the first nr_scale sets only (the others may repeat their runs),
 * each run's deviation from its set's median scaled by sqrt(n / (n - 1)):
 * in a set of 2 both lie half-way, half as far as from the true centre
 * on average, and a scale that small would clip honest runs.  With
 * band, the first set (the step) is clipped as well to within the scale
 * of the span of the next two sets' medians (the sides): the median of 2
 * runs cannot tell which is the outlier, but a run beyond both levels is
 * one for either verdict, and this bounds how far it can carry the step.
 * So are the neighbours (sets 3 and on): a neighbour of 2 runs, one of
 * them far off, would otherwise look unlike its side and stand for it
 * (bisect_llr) with a level no commit has.
 */
static void clipped(const struct sample_set *const *in, int nr, int nr_scale, bool band,
		    double *m, double *ss)
{
	double med[MAX_SETS], *dev, *tmp, lim;
	int n = 0, k = 0;

	for (int i = 0; i < nr; i++)
		n += in[i] ? in[i]->nr : 0;
	dev = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	tmp = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	for (int i = 0; i < nr; i++) {
		if (!in[i] || !in[i]->nr)
			continue;
		med[i] = median_of(in[i]->v, in[i]->nr, tmp);
		for (int j = 0; i < nr_scale && in[i]->nr > 1 && j < in[i]->nr; j++)
			dev[k++] = fabs(in[i]->v[j] - med[i]) *
				sqrt(in[i]->nr / (in[i]->nr - 1.0));
	}
	lim = k ? BISECT_CLIP_K * BISECT_MAD_TO_SD * median_of(dev, k, tmp) : 0;
	for (int i = 0; i < nr; i++) {
		double sum = 0;

		if (ss)
			ss[i] = 0;
		m[i] = NAN;
		if (!in[i] || !in[i]->nr)
			continue;
		for (int j = 0; j < in[i]->nr; j++) {
			/* the median of 2 runs is their mean: clipping about
			 * it would only pull both in */
			tmp[j] = lim > 0 && in[i]->nr > 2 ?
				fmin(fmax(in[i]->v[j], med[i] - lim), med[i] + lim) : in[i]->v[j];
			if ((i == 0 || i >= 3) && band && lim > 0 && in[1] && in[1]->nr &&
			    in[2] && in[2]->nr)
				tmp[j] = fmin(fmax(tmp[j], fmin(med[1], med[2]) - lim),
					      fmax(med[1], med[2]) + lim);
			sum += tmp[j];
		}
		m[i] = sum / in[i]->nr;
		for (int j = 0; ss && j < in[i]->nr; j++)
			ss[i] += (tmp[j] - m[i]) * (tmp[j] - m[i]);
	}
	free(dev);
	free(tmp);
}

static void robust_means(const struct sample_set *const *in, int nr, double *m)
{
	clipped(in, nr, nr, false, m, NULL);
}

static double pooled_t(const struct sample_set *a, const struct sample_set *b,
		       const struct sample_set *extra)
{
	const struct sample_set *in[3] = { a, b, extra };
	double ma, mb, mx, ss, se, m[3];
	int df = a->nr + b->nr - 2;

	ss = sum_sq(a, &ma) + sum_sq(b, &mb);
	if (extra && extra->nr > 0) {
		ss += sum_sq(extra, &mx);
		df += extra->nr - 1;
	}
	if (df < 1)
		return NAN;
	robust_means(in, 3, m);
	se = sqrt(ss / df * (1.0 / a->nr + 1.0 / b->nr));
	if (se == 0)
		return m[0] == m[1] ? 1 : 0;
	return t_pvalue((m[0] - m[1]) / se, df);
}

/* The combined p of a vs b; extra only widens the pooled variance. */
static double combined_p(const struct sample_set *a, const struct sample_set *b,
			 const struct sample_set *extra,
			 const struct bisect_params *p)
{
	double worst = 0, q;

	if (a->nr < 1 || b->nr < 1)
		return 1;
	/* the largest p: "distinguishable" only if every test agrees */
	if (p->tests & BISECT_TEST_WELCH) {
		q = p_or_one(welch_test(a->v, a->nr, b->v, b->nr, NULL, NULL));
		worst = fmax(worst, q);
	}
	if (p->tests & BISECT_TEST_MWU) {
		q = p_or_one(mann_whitney(a->v, a->nr, b->v, b->nr, NULL));
		worst = fmax(worst, q);
	}
	if (p->tests & (BISECT_TEST_POOLED | BISECT_TEST_SPRT)) {
		q = p_or_one(pooled_t(a, b, extra));
		worst = fmax(worst, q);
	}
	return worst;
}

double bisect_pvalue(const struct sample_set *a, const struct sample_set *b,
		     const struct bisect_params *p)
{
	return combined_p(a, b, NULL, p);
}

/* The rule of decide.h on one pair of references: BAD when unlike good,
 * like bad and nearer bad; GOOD symmetrically. */
static enum bisect_verdict like_one_side(const struct sample_set *step,
					 const struct sample_set *good,
					 const struct sample_set *bad,
					 const struct bisect_params *p, double *pg, double *pb)
{
	const struct sample_set *in[3] = { step, good, bad };
	double m[3], dg, db;

	robust_means(in, 3, m);
	dg = fabs(m[0] - m[1]);
	db = fabs(m[0] - m[2]);
	*pg = combined_p(step, good, bad, p);
	*pb = combined_p(step, bad, good, p);
	/*
	 * Both halves of the rule matter: "unlike good" alone would call a
	 * step beyond both sides bad, and "like bad" alone is what too few
	 * samples always look like.  The distance guards against a noisy
	 * side that nothing is distinguishable from.
	 */
	if (*pg < p->alpha && *pb >= p->alpha && db < dg)
		return BISECT_BAD;
	if (*pb < p->alpha && *pg >= p->alpha && dg < db)
		return BISECT_GOOD;
	return BISECT_UNKNOWN;
}

/* How far apart two means are, relative: a drift compounds per commit,
 * so that on a trend the step sits halfway between its neighbours in
 * ratio, not in difference.  Plain difference when a mean is not
 * positive. */
static double distance(double x, double y)
{
	if (x > 0 && y > 0)
		return fabs(log(x / y));
	return fabs(x - y);
}

/* The neighbours' verdict: their one-side rule, else the nearer of the
 * two when the step is unlike both and lies between them. */
static enum bisect_verdict by_neighbours(const struct sample_set *step,
					 const struct sample_set *lo,
					 const struct sample_set *hi,
					 const struct bisect_params *p)
{
	const struct sample_set *in[3] = { step, lo, hi };
	enum bisect_verdict v;
	double pl, ph, ms, ml, mh, m[3];

	v = like_one_side(step, lo, hi, p, &pl, &ph);
	if (v != BISECT_UNKNOWN)
		return v;
	robust_means(in, 3, m);
	ms = m[0];
	ml = m[1];
	mh = m[2];
	if (pl < p->alpha && ph < p->alpha && ms > fmin(ml, mh) && ms < fmax(ml, mh))
		return distance(ms, ml) <= distance(ms, mh) ? BISECT_GOOD : BISECT_BAD;
	return BISECT_UNKNOWN;
}

/*
 * The sequential verdict (BISECT_TEST_SPRT).  Two hypotheses about the
 * step: it runs at the good reference's level, or at the bad one's.
 * With m the means (clipped as above), d = m_bad - m_good, mid their
 * midpoint in ratio, sqrt(m_good * m_bad) (a drift compounds per commit:
 * on a trend the step sits halfway between its neighbours in ratio, not
 * in difference), and V the variance of m_step - mid (the noise over the step's
 * runs, plus a quarter of each reference's own: a reference of 4 runs is
 * not exact), the log-likelihood ratio of bad to good is
 *
 *     L = d * (m_step - mid) / V,
 *
 * and the verdict is BAD at L >= log(1 / alpha), GOOD at L <= -log(1 /
 * alpha), else more runs: Wald's sequential test, whose chance of the
 * wrong verdict is at most alpha however often it looks, and which
 * stops as soon as the runs so far suffice — 3 or 4 runs at a shift of 2
 * noise scales instead of the fixed-level tests' 5 to 8.  It asks only
 * which level the step is nearer, in units of the doubt: a drift that
 * carries both sides away from the step still leaves it on its side of
 * the midpoint, where "distinguishable from good, not from bad" turns
 * every verdict unknown.
 */

static double normal_upper_quantile(double q);

/*
 * The references are the pooled sides, unless a neighbour is unlike the
 * rest of its side (|z| >= NEIGHBOUR_Z): a second step or a drift has
 * moved the side's level along the range, and mixed levels make the
 * pooled side look noisy too.  Then the neighbour alone stands for its
 * side.  Its runs are among the side's, so its mean differs from the
 * side's by noise of variance s2 (1/n_x - 1/n_side).  4 standard
 * errors: in a single step the pooled sides are much the better
 * references, and should not be given up by chance.
 */
#define NEIGHBOUR_Z 4.0

static bool unlike_its_side(double mx, int nx, double mside, int nside, double s2)
{
	double var = s2 * (1.0 / nx - 1.0 / nside);

	if (nx >= nside || !(var > 0))
		return false;
	return fabs(mx - mside) >= NEIGHBOUR_Z * sqrt(var);
}

/*
 * A step unlike both references by MIDPOINT_Z standard errors, and
 * between them, is at neither level: the sequential ratio's model (the
 * step runs at one of two levels) does not hold, and taking the
 * references' whole distance for the step's makes it far too sure.  On
 * a drift the first verdicts see endpoints that the drift carried 60%
 * apart, and a commit is 5% to one side of their midpoint: the ratio
 * called it after 2 runs, wrongly one time in ten.  Such a step is
 * judged instead by its side of the midpoint at the fixed level: its
 * "ratio" is log(1 / p), p the pooled t's for its distance from the
 * midpoint, so that a verdict at alpha is one at p < alpha.  Only until
 * the trend can be fitted (TREND_MIN_POINTS tested commits, the
 * endpoints among them: the first verdict only): from then on the trend
 * model, where it holds, gives the step's distance from the lines
 * instead; and between two steps, where a commit sits at the midpoint
 * and either verdict leads to a real step, it only costs runs
 * (bench/bisect-sim.sh: 4, not 6 or 10, standard errors keeps the
 * drift's first verdicts right, 2 runs more for two steps).
 */
#define MIDPOINT_Z 4.0

/*
 * The sequential ratio for a step x from the references' midpoint (in
 * units whose variance is v, on df degrees), the references d apart with
 * variance vd (see above sprt_classify).
 */
static double sequential_llr(double d, double vd, double x, double v, int df)
{
	double size, z;

	if (d == 0 || x == 0)
		return 0;
	if (v == 0)
		return d * x > 0 ? INFINITY : -INFINITY;
	/*
	 * The noise is estimated, from few runs at first: x / sqrt(v) is
	 * Student's t with df degrees, whose tails are heavier than the
	 * normal's the ratio assumes.  So it is replaced by the normal
	 * deviate of the same tail, and d by its size less one standard
	 * error (from 4 runs a side d is itself uncertain): the ratio as if
	 * the noise were known and the levels as close as they plausibly
	 * are.
	 */
	size = fmax(fabs(d) - sqrt(vd), 0);
	z = normal_upper_quantile(t_pvalue(fabs(x) / sqrt(v), df) / 2);
	return (d * x > 0 ? size : -size) * z / sqrt(v);
}

/*
 * bisect_llr, and which sets stood for good and bad into *gref, *bref;
 * sv is the variance of one of the step's runs in units of the noise
 * (BISECT_PAIRED_VAR for paired runs, else 1).
 */
static double llr_refs(const struct sample_set *step, const struct sample_set *good,
		       const struct sample_set *bad, const struct sample_set *lo,
		       const struct sample_set *hi, const struct bisect_trend *tr, double sv,
		       const struct sample_set **gref, const struct sample_set **bref)
{
	/* 0 the step, 1 good, 2 bad, 3 lo, 4 hi */
	const struct sample_set *in[MAX_SETS] = { step, good, bad, lo, hi };
	double m[MAX_SETS], ss[MAX_SETS], s2, d, x, v, mid;
	int g = 1, b = 2, df = step->nr + good->nr + bad->nr - 3;
	struct trend_refs t;

	*gref = good;
	*bref = bad;
	if (step->nr < 1 || good->nr < 1 || bad->nr < 1 || df < 1)
		return 0;
	clipped(in, MAX_SETS, 3, true, m, ss);
	s2 = (ss[0] + ss[1] + ss[2]) / df;
	if (lo && lo->nr > 1 && unlike_its_side(m[3], lo->nr, m[1], good->nr, s2))
		g = 3;
	if (hi && hi->nr > 1 && unlike_its_side(m[4], hi->nr, m[2], bad->nr, s2))
		b = 4;
	*gref = in[g];
	*bref = in[b];
	if (trend_decides(tr, step, sv, &t))
		return sequential_llr(t.d, t.vd, t.x, t.vx, t.df);
	df = step->nr + in[g]->nr + in[b]->nr - 3;
	s2 = (ss[0] + ss[g] + ss[b]) / df;
	d = m[b] - m[g];
	/* the midpoint in ratio: a drift compounds per commit (distance()) */
	mid = m[g] > 0 && m[b] > 0 ? sqrt(m[g] * m[b]) : (m[g] + m[b]) / 2;
	x = m[0] - mid;
	v = s2 * (sv / step->nr + (1.0 / in[g]->nr + 1.0 / in[b]->nr) / 4);
	if (v > 0 && x != 0 && (!tr || tr->nr < TREND_MIN_POINTS) &&
	    m[0] > fmin(m[g], m[b]) && m[0] < fmax(m[g], m[b]) &&
	    fabs(m[0] - m[g]) >= MIDPOINT_Z * sqrt(s2 * (sv / step->nr + 1.0 / in[g]->nr)) &&
	    fabs(m[0] - m[b]) >= MIDPOINT_Z * sqrt(s2 * (sv / step->nr + 1.0 / in[b]->nr)))
		return (d * x > 0 ? 1 : -1) * -log(t_pvalue(fabs(x) / sqrt(v), df));
	return sequential_llr(d, s2 * (1.0 / in[g]->nr + 1.0 / in[b]->nr), x, v, df);
}

double bisect_llr(const struct sample_set *step, const struct sample_set *good,
		  const struct sample_set *bad, const struct sample_set *lo,
		  const struct sample_set *hi, const struct bisect_trend *tr)
{
	const struct sample_set *g, *b;

	return llr_refs(step, good, bad, lo, hi, tr, 1, &g, &b);
}

static enum bisect_verdict sprt_classify(const struct sample_set *step,
					 const struct sample_set *good,
					 const struct sample_set *bad,
					 const struct sample_set *lo,
					 const struct sample_set *hi,
					 const struct bisect_trend *tr,
					 const struct bisect_params *p)
{
	const struct sample_set *g, *b;
	double llr = llr_refs(step, good, bad, lo, hi, tr, p->paired ? BISECT_PAIRED_VAR : 1,
			      &g, &b), a = -log(p->alpha);

	if (llr >= a)
		return BISECT_BAD;
	if (llr <= -a)
		return BISECT_GOOD;
	/*
	 * max_runs and still undecided: the step sits near the midpoint.
	 * When it is unlike both references it is at a level of its own
	 * (between two steps, or on a drift), and either side leads to a
	 * real change: the nearer, whose level it then stands for as a
	 * neighbour of max_runs runs (bisect_llr).  Skipping it instead
	 * leaves git only skipped commits to choose from.
	 */
	if (step->nr >= p->max_runs) {
		const struct sample_set *in[3] = { step, g, b };
		double m[3];

		clipped(in, 3, 3, false, m, NULL);
		if (pooled_t(step, g, b) < p->alpha && pooled_t(step, b, g) < p->alpha &&
		    m[0] > fmin(m[1], m[2]) && m[0] < fmax(m[1], m[2]))
			return distance(m[0], m[1]) <= distance(m[0], m[2]) ?
				BISECT_GOOD : BISECT_BAD;
	}
	return BISECT_UNKNOWN;
}

enum bisect_verdict bisect_confirm_verdict(enum bisect_verdict old,
					   const struct sample_set *step,
					   const struct sample_set *good,
					   const struct sample_set *bad,
					   const struct sample_set *lo,
					   const struct sample_set *hi,
					   const struct bisect_trend *tr,
					   const struct bisect_params *cp)
{
	enum bisect_verdict v = bisect_classify(step, good, bad, lo, hi, tr, cp);
	double llr;

	if (v != BISECT_UNKNOWN || step->nr < cp->max_runs)
		return v;
	llr = bisect_llr(step, good, bad, lo, hi, tr);
	if ((old == BISECT_BAD && llr > 0) || (old == BISECT_GOOD && llr < 0))
		return old;
	return BISECT_UNKNOWN;
}

enum bisect_verdict bisect_classify(const struct sample_set *step,
				    const struct sample_set *good,
				    const struct sample_set *bad,
				    const struct sample_set *lo,
				    const struct sample_set *hi,
				    const struct bisect_trend *tr,
				    const struct bisect_params *p)
{
	enum bisect_verdict v = BISECT_UNKNOWN;
	double pg, pb;

	if (step->nr < 1 || good->nr < 1 || bad->nr < 1)
		return BISECT_UNKNOWN;
	if (p->tests & BISECT_TEST_SPRT)
		return sprt_classify(step, good, bad, lo, hi, tr, p);
	/*
	 * The neighbours first: where they speak, they are right even when
	 * the pooled sides mix commits from all along a trend.  Where they
	 * cannot tell yet (few runs of their own), the pooled sides can.
	 */
	if (lo && hi && lo->nr >= 1 && hi->nr >= 1)
		v = by_neighbours(step, lo, hi, p);
	if (v == BISECT_UNKNOWN)
		v = like_one_side(step, good, bad, p, &pg, &pb);
	return v;
}

/*
 * The fewest samples, against a side of m, with which the selected tests
 * can give p < alpha at all: Welch needs 2; exact Mann-Whitney's smallest
 * p is 2 / C(n + m, n), which only enough samples bring under alpha.
 * Capped at cap, beyond which more runs are not allowed anyway.
 */
static int runs_to_reach_alpha(int m, int cap, const struct bisect_params *p)
{
	int n = 1;      /* the pooled t judges even one run */

	if (p->tests & BISECT_TEST_WELCH)
		n = 2;
	if (p->tests & BISECT_TEST_MWU)
		while (n < cap && mann_whitney_min_p(n, m) >= p->alpha)
			n++;
	return n < cap ? n : cap;
}

static int want_at_least(int have, int want)
{
	return have < want ? want - have : 0;
}

static int total(struct bisect_runs *more)
{
	return more->step + more->good + more->bad;
}

static int endpoint_runs_wanted(const struct sample_set *good,
				const struct sample_set *bad,
				const struct bisect_params *p,
				struct bisect_runs *more)
{
	struct bisect_endpoints ep;
	int floor = p->ref_min_runs;
	int reach = runs_to_reach_alpha(floor, p->ref_max_runs, p);

	if (reach > floor)
		floor = reach;
	more->good = want_at_least(good->nr, floor);
	more->bad = want_at_least(bad->nr, floor);
	if (total(more))
		return total(more);
	if (bisect_check_endpoints(good, bad, p, &ep))
		return 0;
	more->good = good->nr < p->ref_max_runs;
	more->bad = bad->nr < p->ref_max_runs;
	return total(more);
}

/* The side the step has to be told apart from: the one its mean is
 * farther from (good on a tie). */
static bool far_side_is_good(const struct sample_set *step,
			     const struct sample_set *good,
			     const struct sample_set *bad)
{
	double ms = mean(step->v, step->nr);

	return fabs(ms - mean(good->v, good->nr)) >= fabs(ms - mean(bad->v, bad->nr));
}

static int runs_wanted(const struct sample_set *step,
		       const struct sample_set *good,
		       const struct sample_set *bad,
		       const struct sample_set *lo,
		       const struct sample_set *hi,
		       const struct bisect_trend *tr,
		       const struct bisect_params *p,
		       struct bisect_runs *more)
{
	int floor, m;
	const struct sample_set *far;

	more->step = more->good = more->bad = 0;
	if (!step)
		return endpoint_runs_wanted(good, bad, p, more);

	more->good = want_at_least(good->nr, p->ref_min_runs);
	more->bad = want_at_least(bad->nr, p->ref_min_runs);
	m = good->nr < bad->nr ? good->nr : bad->nr;
	if (m < p->ref_min_runs)
		m = p->ref_min_runs;
	floor = runs_to_reach_alpha(m, p->max_runs, p);
	if (floor < p->min_runs)
		floor = p->min_runs;
	more->step = want_at_least(step->nr, floor);
	if (total(more))
		return total(more);

	if (bisect_classify(step, good, bad, lo, hi, tr, p) != BISECT_UNKNOWN ||
	    step->nr >= p->max_runs)
		return 0;
	more->step = 1;
	/*
	 * What keeps an undecided step from a verdict is telling it apart
	 * from the far side; that side's own noise counts as much as the
	 * step's once it has no more samples than the step.  Its extra run
	 * serves every later step too, while the near side will gain the
	 * step's own runs once the verdict pools them.
	 */
	if (p->tests & BISECT_TEST_SPRT)
		/* the ratio's doubt is the midpoint's as much as the step's:
		 * the side known less well */
		far = good->nr <= bad->nr ? good : bad;
	else
		far = far_side_is_good(step, good, bad) ? good : bad;
	if (far->nr <= step->nr && far->nr < p->ref_max_runs) {
		if (far == good)
			more->good = 1;
		else
			more->bad = 1;
	}
	return total(more);
}

int bisect_runs_wanted(const struct sample_set *step,
		       const struct sample_set *good,
		       const struct sample_set *bad,
		       const struct sample_set *lo,
		       const struct sample_set *hi,
		       const struct bisect_trend *tr,
		       const struct bisect_params *p,
		       struct bisect_runs *more)
{
	int n = runs_wanted(step, good, bad, lo, hi, tr, p, more);

	/* paired: whole turns of good, step and bad (decide.h) */
	if (n && step && p->paired) {
		n = more->step > more->good ? more->step : more->good;
		n = n > more->bad ? n : more->bad;
		more->step = more->good = more->bad = n;
		n *= 3;
	}
	return n;
}

double bisect_turn_mid(double good, double bad)
{
	return good > 0 && bad > 0 ? sqrt(good * bad) : (good + bad) / 2;
}

void bisect_paired_runs(const struct sample_set *runs, const struct sample_set *mids,
			const struct sample_set *good, const struct sample_set *bad,
			struct sample_set *out)
{
	double m = good->nr && bad->nr ?
		bisect_turn_mid(mean(good->v, good->nr), mean(bad->v, bad->nr)) : NAN;

	out->nr = 0;
	for (int i = 0; i < runs->nr; i++) {
		double v = runs->v[i], mid = i < mids->nr ? mids->v[i] : NAN;

		if (!isnan(mid) && !isnan(m))
			v = mid > 0 && m > 0 ? v * (m / mid) : v + (m - mid);
		sample_set_add(out, v);
	}
}

bool bisect_check_endpoints(const struct sample_set *good,
			    const struct sample_set *bad,
			    const struct bisect_params *p,
			    struct bisect_endpoints *out)
{
	bool big_enough;

	out->good_mean = good->nr ? mean(good->v, good->nr) : NAN;
	out->bad_mean = bad->nr ? mean(bad->v, bad->nr) : NAN;
	out->rel_shift = out->good_mean != 0 ?
		(out->bad_mean - out->good_mean) / fabs(out->good_mean) : NAN;
	out->p = bisect_pvalue(good, bad, p);
	/* a shift from exactly 0 has no relative size: any counts */
	big_enough = isnan(out->rel_shift) ? out->good_mean == 0 :
		fabs(out->rel_shift) >= p->min_shift;
	out->differ = out->p < p->alpha && big_enough &&
		good->nr > 0 && bad->nr > 0;
	return out->differ;
}

double bisect_normal_quantile(double q)
{
	double lo = -40, hi = 40;

	/* bisection on the CDF: 100 halvings reach a double's precision */
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (0.5 * erfc(-mid / sqrt(2)) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double bisect_min_detectable(const struct sample_set *good, const struct sample_set *bad,
			     double alpha)
{
	if (good->nr < 2 || bad->nr < 2)
		return NAN;
	double m = mean(good->v, good->nr);
	double sg = stddev_sample(good->v, good->nr), sb = stddev_sample(bad->v, bad->nr);
	double se = sqrt(sg * sg / good->nr + sb * sb / bad->nr);

	if (m == 0)
		return NAN;
	return (bisect_normal_quantile(1 - alpha / 2) + bisect_normal_quantile(0.8)) * se / fabs(m);
}

enum bisect_stop bisect_should_stop(const struct bisect_progress *pr, int more,
				    const struct bisect_params *p)
{
	if (p->max_total_runs > 0 && pr->runs + more > p->max_total_runs)
		return BISECT_STOP_BUDGET;
	if (p->max_unknown_in_row > 0 && pr->unknown_in_row >= p->max_unknown_in_row)
		return BISECT_STOP_NO_CONVERGENCE;
	return BISECT_GO_ON;
}

double bisect_noise(const struct sample_set *good, const struct sample_set *bad)
{
	double mg, mb, ss = sum_sq(good, &mg), df = good->nr - 1;

	if (bad->nr > 0) {
		ss += sum_sq(bad, &mb);
		df += bad->nr - 1;
	}
	if (good->nr < 1 || df < 1 || mg == 0)
		return NAN;
	return sqrt(ss / df) / fabs(mg);
}

/* z with P(Z > z) = q for a standard normal Z, by bisection on erfc */
static double normal_upper_quantile(double q)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / M_SQRT2) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* the power a verdict is planned for: 95% */
#define PLANNED_POWER_Z 1.6448536269514722

int bisect_runs_needed(double noise, double shift, double alpha)
{
	double z, n;

	if (!(noise > 0) || !isfinite(noise) || !(fabs(shift) > 0) || !isfinite(shift) ||
	    !(alpha > 0 && alpha < 1))
		return -1;
	z = normal_upper_quantile(alpha / 2) + PLANNED_POWER_Z;
	n = ceil(pow(z * noise / fabs(shift), 2));
	if (n > 1e6)
		return 1000000;
	return n < 1 ? 1 : (int)n;
}

/* The runs a verdict needs at this noise, at the strict level; 1 at no
 * noise (bisect_runs_needed: -1). */
static int noise_runs(double noise, double shift, const struct bisect_params *p)
{
	int n = bisect_runs_needed(noise, shift, p->confirm_alpha);

	return n < 1 ? 1 : n;
}

bool bisect_noise_moved(const struct sample_set *before_good,
			const struct sample_set *before_bad,
			const struct sample_set *after_good,
			const struct sample_set *after_bad,
			const struct bisect_params *p, struct bisect_noise_check *out)
{
	double gb, bb, ga, ba, change, ratio;
	bool moved = false;

	out->noise_before = out->noise_after = out->good_move = out->bad_move = NAN;
	out->moved = out->noise_rose = out->at_floor = false;
	if (before_good->nr < 2 || before_bad->nr < 2 || after_good->nr < 2 ||
	    after_bad->nr < 2)
		return false;
	out->noise_before = bisect_noise(before_good, before_bad);
	out->noise_after = bisect_noise(after_good, after_bad);
	gb = mean(before_good->v, before_good->nr);
	bb = mean(before_bad->v, before_bad->nr);
	ga = mean(after_good->v, after_good->nr);
	ba = mean(after_bad->v, after_bad->nr);
	if (gb != 0) {
		out->good_move = (ga - gb) / fabs(gb);
		out->bad_move = (ba - bb) / fabs(gb);
	}
	change = fabs(bb - gb);
	ratio = out->noise_after / out->noise_before;
	out->noise_rose = out->noise_after > 0 &&
		(out->noise_before == 0 || ratio >= NOISE_MOVE_RATIO);
	/* a deterministic guest's: nothing here to move (decide.h) */
	out->at_floor = out->noise_before <= BISECT_NOISE_FLOOR &&
			out->noise_after <= BISECT_NOISE_FLOOR;
	if (out->at_floor)
		return false;
	/*
	 * Less noise only makes the verdicts in between safer than planned,
	 * and more noise matters only when a verdict now needs more runs
	 * than at the start: the near-zero noise of an emulator doubling
	 * leaves a 1-run verdict a 1-run verdict.
	 */
	if (out->noise_rose && gb != 0 &&
	    noise_runs(out->noise_after, change / fabs(gb), p) >
	    noise_runs(out->noise_before, change / fabs(gb), p))
		moved = true;
	/* a move that could flip a verdict: half the distance between sides;
	 * paired verdicts took the endpoints' levels of their own turns */
	if (!p->paired && fabs(ga - gb) > change / 2 &&
	    pooled_t(after_good, before_good, NULL) < p->confirm_alpha)
		moved = true;
	if (!p->paired && fabs(ba - bb) > change / 2 &&
	    pooled_t(after_bad, before_bad, NULL) < p->confirm_alpha)
		moved = true;
	out->moved = moved;
	return moved;
}

bool bisect_partial_step(double step, double total)
{
	if (!isfinite(step) || !isfinite(total))
		return false;
	return fabs(step) < BISECT_PARTIAL_STEP * fabs(total);
}

bool bisect_real_step(double step, double total)
{
	if (!isfinite(step) || !isfinite(total))
		return false;
	return fabs(step) >= BISECT_MIN_STEP * fabs(total);
}
