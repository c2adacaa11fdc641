/*
 * stat_rule.c: `--rule stat`, perfbot's default way of deciding which
 * metrics changed between a base matrix (b) and a new one (a).
 *
 * Where lkp-tests decides with heuristics on trimmed samples (lkp_rule.c),
 * this rule asks a two-sample test whether the runs of the two sides could
 * come from one distribution, and then keeps lkp's minimum-magnitude
 * filters so that a real but negligible shift in a huge counter does not
 * flood the report.  Everything around the decision follows lkp's
 * __get_changed_stats so that the two rules see the same metrics: hidden
 * families, incomplete runs, pass/fail ("function") stats, metrics that
 * exist on one side only.
 *
 * Differences from lkp's rule, on purpose:
 *   - samples are not trimmed, and mean_a/mean_b are arithmetic means
 *     (lkp: the median of margin-trimmed samples);
 *   - --gap, --distance, --variance and lkp's 3-run minimum ("whole") do
 *     not apply: the test replaces them, and latency stats are tested like
 *     any other metric;
 *   - record.too_few_samples means the rank test could not reach the
 *     metric's level at these sizes and Welch decided alone;
 *     list.too_few_samples means some reportable-looking metric had fewer
 *     than 2 runs a side and could not be tested at all.
 *
 * Many metrics at once.  A comparison tests thousands of metrics, so a
 * per-metric level of 0.05 would flag dozens of unchanged ones in every
 * table (bench/aa.sh measured 2.4-3.0% of them on A/A comparisons).  So:
 *   - key metrics (change_key_metric: a benchmark's throughput, ops,
 *     latency, elapsed time), which decide whether a commit regressed,
 *     are each tested alone at alpha / KEY_ALPHA_DIVISOR, whatever else
 *     the comparison holds;
 *   - every other metric takes part in one Benjamini-Hochberg adjustment
 *     over all the non-key metrics the comparison tests, and changed when
 *     its adjusted p (record.q) is below alpha: among the non-key rows of
 *     a table, the expected share of false ones is at most alpha.
 * BH counts every tested metric, before the magnitude filters: the filters
 * favour large observed differences, and p-values chosen that way would
 * no longer be uniform under no change.
 *
 * The rule is a pure function of the two matrices and the options.
 */
#include "result/change.h"
#include "stats/lkp_tables.h"
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#define INCOMPLETE_RUN "last_state.is_incomplete_run"
/* lkp's cap on ratio, and its value when the smaller mean is not positive */
#define MAX_RATIO 5.0
/*
 * perf-profile.* are percentages of cycles: a ratio means nothing there
 * (0.01% -> 0.05% is "5x"), the difference in percentage points does.
 * lkp's compare prints that difference with one decimal; a change that
 * would print as 0.0 is not worth a line.
 */
#define PERF_PROFILE_MIN_DELTA 0.1
/*
 * Key metrics are tested at alpha / 10 (0.005 at the default alpha): an
 * A/A comparison flags a given key metric half as often as the 1 in 100
 * that a maintainer can live with, so that the worst of the dozens of key
 * metrics of a job stays within it too (bench/aa.sh, "key metrics only").
 */
#define KEY_ALPHA_DIVISOR 10

struct prefix {
	const char *s;
	size_t len;
};
#define PREFIX(s) { s, sizeof(s) - 1 }
#define HAS_PREFIX(name, table) has_prefix((name), (table), ARRAY_SIZE(table))

static bool has_prefix(const char *name, const struct prefix *p, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!strncmp(name, p[i].s, p[i].len))
			return true;
	return false;
}

/*
 * Stats lkp still judges on every run when some runs were incomplete: a
 * run that died is exactly where its oops, last state and stderr matter.
 * Every other metric is judged on complete runs only.
 */
static const struct prefix whole_run_families[] = {
	PREFIX("dmesg."), PREFIX("last_state."), PREFIX("stderr."),
};

/*
 * Pass/fail stats of these families are compared as they are; for other
 * families lkp wants the counterpart in the base (x.fail needs x.pass in
 * b and the other way round), so that a sub-test the base never ran is
 * not reported as a new failure.
 */
static const struct prefix unpaired_function_families[] = {
	PREFIX("dmesg."), PREFIX("kmsg."), PREFIX("last_state."), PREFIX("stderr."),
};

/*
 * Monitors that leave out a metric whose count is zero: when the base ran
 * the monitor at all, a metric it lacks really was zero there.  Any other
 * metric missing from the base belongs to a monitor added since, and has
 * nothing to be compared with.
 */
static const struct prefix zero_when_absent_families[] = {
	PREFIX("lock_stat."), PREFIX("perf-profile."),
};

static const struct prefix perf_profile_family[] = { PREFIX("perf-profile.") };

/* The columns of one side that take part in a comparison. */
struct columns {
	int *idx;
	int nr;
};

struct stat_ctx {
	const struct matrix *a, *b;
	const struct change_options *opt;
	struct columns all_a, all_b, complete_a, complete_b;
	bool has_incomplete;
	bool boot_fix;          /* regression_only: a dmesg.* failure went away */
	int monitored[ARRAY_SIZE(zero_when_absent_families)];  /* monitored_by(); -1: unknown */
	double *buf_a, *buf_b;  /* a metric's samples while it is compared */
	/* BH-adjusted p of each non-key metric: a's metrics by position, then
	 * b's (those only b has); NaN where not tested */
	double *q;
	int nr_tested;          /* the m of the adjustment */
	struct change_list *out;
};

static void columns_init(struct columns *c, const struct matrix *mx, bool complete_only)
{
	int pos = complete_only ? matrix_find(mx, INCOMPLETE_RUN) : -1;

	c->idx = xmalloc(sizeof(int) * (size_t)(mx->ncols ? mx->ncols : 1));
	c->nr = 0;
	for (int col = 0; col < mx->ncols; col++)
		if (pos < 0 || mx->m[pos].v[col] != 1)
			c->idx[c->nr++] = col;
}

/*
 * Sort n doubles into the order glibc's qsort(v, n, sizeof(double),
 * cmp_double) gives: its top-down merge sort, same split, same merge.
 * Inlined, it costs a fraction of qsort on the few runs of a metric, and
 * the order stays qsort's even where a NaN makes cmp_double inconsistent.
 * tmp has room for n doubles.
 */
static void sort_samples(double *v, int n, double *tmp)
{
	int n1 = n / 2, n2 = n - n1, i = 0, j = 0, k = 0;
	double *b = v + n1;

	if (n <= 1)
		return;
	sort_samples(v, n1, tmp);
	sort_samples(b, n2, tmp);
	while (i < n1 && j < n2) {
		if (!(v[i] > b[j]))     /* cmp_double(v + i, b + j) <= 0 */
			tmp[k++] = v[i++];
		else
			tmp[k++] = b[j++];
	}
	while (i < n1)
		tmp[k++] = v[i++];
	/* what is left of b is in place already */
	memcpy(v, tmp, sizeof(double) * (size_t)k);
}

/*
 * The samples of metric pos of mx over the columns cols, sorted, into v
 * (room for cols->nr); zeros when the metric is absent (pos < 0), as lkp
 * pads a missing metric.
 */
static void gather(const struct matrix *mx, int pos, const struct columns *cols,
		   double *v, bool *all_int)
{
	*all_int = true;
	for (int i = 0; i < cols->nr; i++) {
		if (pos < 0) {
			v[i] = 0;
			continue;
		}
		v[i] = mx->m[pos].v[cols->idx[i]];
		if (!mx->m[pos].is_int[cols->idx[i]])
			*all_int = false;
	}
	if (cols->nr <= 64) {
		double tmp[64];
		sort_samples(v, cols->nr, tmp);
	} else {
		double *tmp = xmalloc(sizeof(double) * (size_t)cols->nr);
		sort_samples(v, cols->nr, tmp);
		free(tmp);
	}
}

static double *copy_samples(const double *v, int n)
{
	double *c = xmalloc(sizeof(double) * (size_t)(n ? n : 1));

	memcpy(c, v, sizeof(double) * (size_t)n);
	return c;
}

/* mean, extremes, ratio, delta and ranges, from the sorted samples */
static void describe(struct change_record *r)
{
	double hi, lo;

	r->mean_a = mean(r->a, r->na);
	r->mean_b = mean(r->b, r->nb);
	r->min_a = r->a[0];
	r->max_a = r->a[r->na - 1];
	r->min_b = r->b[0];
	r->max_b = r->b[r->nb - 1];
	r->max = fmax(r->max_a, r->max_b);
	r->x = r->max_a - r->min_a;
	r->z = r->max_b - r->min_b;
	/* the gap between the two ranges; 0 when they overlap */
	r->y = fmax(0, fmax(r->min_a - r->max_b, r->min_b - r->max_a));
	r->delta = fabs(r->mean_a - r->mean_b);
	hi = fmax(r->mean_a, r->mean_b);
	lo = fmin(r->mean_a, r->mean_b);
	r->ratio = lo > 0 ? fmin(hi / lo, MAX_RATIO) : MAX_RATIO;
}

/*
 * lkp's minimum-magnitude filters (skip_small_change?), on the arithmetic
 * means: a shift the test calls real may still be too small to matter.
 * perf-profile.* use the difference in percentage points instead of a
 * ratio.
 */
static bool small_change(const struct change_record *r)
{
	if (HAS_PREFIX(r->stat, perf_profile_family)) {
		if (r->delta < PERF_PROFILE_MIN_DELTA)
			return true;
	} else {
		if (!(r->ratio > 1.01))         /* time.elapsed_time has 0.01 s precision */
			return true;
		if (!(r->ratio > 1.05) && !lkp_perf_metric(r->stat))
			return true;
	}
	return !lkp_reasonable_perf_change(r->stat, r->delta, r->max);
}

bool change_key_metric(const char *stat)
{
	return (lkp_kpi_stat(stat) && lkp_kpi_direction(stat) != 0) ||
		!strcmp(stat, "time.elapsed_time");
}

double change_key_alpha(double alpha)
{
	return alpha / KEY_ALPHA_DIVISOR;
}

/*
 * Is the difference significant?  q is the metric's BH-adjusted p (NaN
 * when the first pass did not test it: it is then adjusted as if it had
 * the smallest p of all, p * m).
 *
 * Welch's t-test gives the power: at lkp's usual 3 runs a side the exact
 * Mann-Whitney cannot go below p = 0.1, so a rank test alone would never
 * report anything there, while Welch can.
 *
 * Mann-Whitney guards Welch where its normal assumption fails: a minority
 * of outlying runs (a bimodal metric, a run on a throttled CPU) moves a
 * mean far enough for t to come out significant while most runs did not
 * move at all.  Requiring the rank test too (at the metric's level:
 * alpha for the others, whose BH threshold the discrete rank test could
 * rarely reach) means most runs of one side must lie beyond most runs of
 * the other.  Where the sizes make the rank test unable to reach the
 * level (mann_whitney_min_p >= level), demanding it would veto every
 * change, so Welch decides alone and the record says so
 * (too_few_samples).
 */
static bool significant(const struct stat_ctx *c, struct change_record *r, double q)
{
	double alpha = c->opt->alpha, level, mwu_floor = mann_whitney_min_p(r->na, r->nb);
	struct mwu_result mw;
	bool pass;

	r->p_welch = welch_test(r->a, r->na, r->b, r->nb, NULL, NULL);
	r->p_mwu = mann_whitney_test(r->a, r->na, r->b, r->nb, &mw);
	r->mwu_exact = mw.exact;
	r->key = change_key_metric(r->stat);
	if (r->key) {
		level = change_key_alpha(alpha);
		r->q = NAN;
		pass = r->p_welch < level;
	} else {
		level = alpha;
		r->q = isnan(q) ? fmin(1, r->p_welch * (c->nr_tested > 0 ? c->nr_tested : 1)) : q;
		pass = r->q < alpha;
	}
	r->too_few_samples = mwu_floor >= level;
	return pass && (r->p_mwu < level || r->too_few_samples);
}

/* lkp's skip_critical_stat?: with --regression-only, a failure that went
 * away is a fix, and kmsg.* after a dmesg.* fix are its echo */
static bool skip_fixed_failure(struct stat_ctx *c, const struct change_record *r)
{
	if (!c->opt->regression_only || !r->is_function_stat)
		return false;
	if (r->max_a == 0) {
		if (!strncmp(r->stat, "dmesg.", 6))
			c->boot_fix = true;
		return true;
	}
	return c->boot_fix && !strncmp(r->stat, "kmsg.", 5);
}

/*
 * Compare metric `name` (position ia in a, ib in b, -1 when absent) over
 * the given columns; function: lkp_function_stat(name).  Returns true and
 * fills *r (its samples copied to the heap) when it changed.
 *
 * The cheap verdicts come first: the magnitude filter vetoes a change
 * whatever the tests say, so they run only on what it lets through.
 */
static bool compare_metric(struct stat_ctx *c, const char *name, bool function, int ia, int ib,
			   const struct columns *ca, const struct columns *cb, double q,
			   struct change_record *r)
{
	const struct change_options *opt = c->opt;
	bool changed, perf_profile_threshold;

	memset(r, 0, sizeof(*r));
	if (!ca->nr || !cb->nr)
		return false;
	r->stat = name;
	r->a = c->buf_a;
	r->b = c->buf_b;
	gather(c->a, ia, ca, r->a, &r->int_a);
	gather(c->b, ib, cb, r->b, &r->int_b);
	r->na = ca->nr;
	r->nb = cb->nr;
	r->nr_run = r->na;
	r->is_function_stat = function;
	r->p_welch = r->p_mwu = r->q = NAN;
	describe(r);

	/* -p N: lkp shows every perf-profile entry above N percent */
	perf_profile_threshold = opt->has_perf_profile &&
		HAS_PREFIX(name, perf_profile_family);

	if (r->is_function_stat) {
		/* pass/fail counts: what matters is whether it happened at all */
		changed = r->max_a != r->max_b && !skip_fixed_failure(c, r) &&
			  (perf_profile_threshold || !small_change(r));
	} else if (perf_profile_threshold) {
		changed = r->mean_a > opt->perf_profile || r->mean_b > opt->perf_profile;
		if (changed && r->na >= 2 && r->nb >= 2)
			significant(c, r, q);           /* p-values, for the reader */
	} else if (r->na < 2 || r->nb < 2) {
		/*
		 * No test is possible.  Say so, for the changes that would be
		 * big enough to report, rather than call them unchanged.
		 */
		if (r->mean_a != r->mean_b && !small_change(r)) {
			c->out->too_few_samples = true;
			c->out->min_samples_needed = mann_whitney_min_n(opt->alpha);
		}
		changed = false;
	} else {
		changed = !small_change(r) && significant(c, r, q);
		/* tested and big enough, but not significant */
		if (!changed && opt->near_misses && !isnan(r->p_welch))
			changed = r->near_miss = true;
	}

	if (!changed) {
		memset(r, 0, sizeof(*r));
		return false;
	}
	r->a = copy_samples(r->a, r->na);
	r->b = copy_samples(r->b, r->nb);
	r->is_latency = lkp_latency_stat(name);
	return true;
}

/* lkp's skip_function_stat?: does the base know this sub-test at all? */
static bool unpaired_function_stat(const struct matrix *b, const char *name)
{
	static const char *const failures[] = { "error", "warn", "fail" };
	const char *dot = strrchr(name, '.');
	struct strbuf other = STRBUF_INIT;
	bool is_failure = false, found = false;
	size_t stem;

	if (!dot || HAS_PREFIX(name, unpaired_function_families))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(failures); i++)
		if (!strcmp(dot + 1, failures[i]))
			is_failure = true;
	if (!is_failure && strcmp(dot + 1, "pass"))
		return false;   /* not one of a pass/fail pair */

	stem = (size_t)(dot - name) + 1;        /* "<sub-test>." */
	strbuf_add(&other, name, stem);
	if (is_failure) {
		strbuf_addstr(&other, "pass");
		found = matrix_find(b, other.buf) >= 0;
	}
	for (size_t i = 0; !is_failure && !found && i < ARRAY_SIZE(failures); i++) {
		strbuf_setlen(&other, stem);
		strbuf_addstr(&other, failures[i]);
		found = matrix_find(b, other.buf) >= 0;
	}
	strbuf_release(&other);
	return !found;
}

/* Did b run the monitor that produces name (same part before the first '.')?
 * name is of a zero_when_absent family; the answer is kept per family. */
static bool monitored_by(struct stat_ctx *c, const char *name)
{
	const struct matrix *b = c->b;
	size_t len = strcspn(name, "."), f = 0;

	while (f + 1 < ARRAY_SIZE(zero_when_absent_families) &&
	       strncmp(name, zero_when_absent_families[f].s, zero_when_absent_families[f].len))
		f++;
	if (c->monitored[f] < 0) {
		c->monitored[f] = 0;
		for (int i = 0; i < b->nr && !c->monitored[f]; i++)
			if (!strncmp(b->m[i].name, name, len) && b->m[i].name[len] == '.')
				c->monitored[f] = 1;
	}
	return c->monitored[f];
}

/*
 * Does the rule look at metric name at all (lkp's hidden families, the
 * pass/fail stats the base cannot pair, metrics of a monitor the base did
 * not run)?  Sets *function.
 */
static bool considered(struct stat_ctx *c, const char *name, int ib, bool *function)
{
	const struct change_options *opt = c->opt;

	if (!opt->more && !lkp_bisectable_stat(name) && !lkp_report_allowlisted(name))
		return false;
	*function = lkp_function_stat(name);
	if (*function && unpaired_function_stat(c->b, name))
		return false;
	if (ib < 0 && !*function &&
	    !(HAS_PREFIX(name, zero_when_absent_families) && monitored_by(c, name)))
		return false;
	return true;
}

/* The columns a metric is judged on first: complete runs when some runs
 * were incomplete (but for the incomplete-run flag itself). */
static void primary_columns(const struct stat_ctx *c, const char *name,
			    const struct columns **ca, const struct columns **cb)
{
	bool complete = c->has_incomplete && strcmp(name, INCOMPLETE_RUN);

	*ca = complete ? &c->complete_a : &c->all_a;
	*cb = complete ? &c->complete_b : &c->all_b;
}

/*
 * First pass: Welch's p of every non-key metric that compare_metric would
 * test, then their Benjamini-Hochberg adjustment into c->q.
 */
static void adjust_pvalues(struct stat_ctx *c)
{
	const struct matrix *a = c->a, *b = c->b;
	int n = a->nr + b->nr;

	c->q = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
	c->nr_tested = 0;
	for (int slot = 0; slot < n; slot++) {
		const char *name = slot < a->nr ? a->m[slot].name : b->m[slot - a->nr].name;
		int ia = slot < a->nr ? slot : -1;
		int ib = slot < a->nr ? matrix_find_hint(b, name, slot) : slot - a->nr;
		const struct columns *ca, *cb;
		bool function, ignored;

		c->q[slot] = NAN;
		if (slot >= a->nr && matrix_find_hint(a, name, ib) >= 0)
			continue;       /* compared as one of a's */
		if (!considered(c, name, ib, &function) || function || change_key_metric(name) ||
		    (c->opt->has_perf_profile && HAS_PREFIX(name, perf_profile_family)))
			continue;
		primary_columns(c, name, &ca, &cb);
		if (ca->nr < 2 || cb->nr < 2)
			continue;
		gather(a, ia, ca, c->buf_a, &ignored);
		gather(b, ib, cb, c->buf_b, &ignored);
		c->q[slot] = welch_test(c->buf_a, ca->nr, c->buf_b, cb->nr, NULL, NULL);
		c->nr_tested += !isnan(c->q[slot]);
	}
	bh_adjust(c->q, n);
}

static void consider(struct stat_ctx *c, const char *name, int ia, int ib, double q)
{
	bool function, changed = false;
	const struct columns *ca, *cb;
	struct change_record r;

	if (!considered(c, name, ib, &function))
		return;
	primary_columns(c, name, &ca, &cb);
	/*
	 * With incomplete runs, lkp compares twice and lets the complete-runs
	 * verdict win: first on complete runs only (the incomplete-run flag
	 * itself on every run), then the whole-run families on every run
	 */
	changed = compare_metric(c, name, function, ia, ib, ca, cb, q, &r);
	if (!changed && ca != &c->all_a && HAS_PREFIX(name, whole_run_families))
		changed = compare_metric(c, name, function, ia, ib,
					 &c->all_a, &c->all_b, q, &r);
	if (changed)
		*change_list_add(c->out) = r;
}

int stat_changed_stats(const struct matrix *a, const struct matrix *b,
		       const struct change_options *opt, struct change_list *out)
{
	struct stat_ctx c = { .a = a, .b = b, .opt = opt, .out = out };

	if (!(opt->alpha > 0 && opt->alpha < 1))
		return error("significance level %g out of range: expected 0 < alpha < 1",
			     opt->alpha);

	columns_init(&c.all_a, a, false);
	columns_init(&c.all_b, b, false);
	columns_init(&c.complete_a, a, true);
	columns_init(&c.complete_b, b, true);
	c.has_incomplete = matrix_find(a, INCOMPLETE_RUN) >= 0 ||
			   matrix_find(b, INCOMPLETE_RUN) >= 0;

	for (size_t f = 0; f < ARRAY_SIZE(c.monitored); f++)
		c.monitored[f] = -1;
	c.buf_a = xmalloc(sizeof(double) * (size_t)(a->ncols ? a->ncols : 1));
	c.buf_b = xmalloc(sizeof(double) * (size_t)(b->ncols ? b->ncols : 1));

	adjust_pvalues(&c);
	/* a's metrics in a's order, then those only b has (zeros in a) */
	for (int i = 0; i < a->nr; i++)
		consider(&c, a->m[i].name, i, matrix_find_hint(b, a->m[i].name, i), c.q[i]);
	for (int i = 0; i < b->nr; i++)
		if (matrix_find_hint(a, b->m[i].name, i) < 0)
			consider(&c, b->m[i].name, -1, i, c.q[a->nr + i]);

	free(c.q);
	free(c.buf_a);
	free(c.buf_b);
	free(c.all_a.idx);
	free(c.all_b.idx);
	free(c.complete_a.idx);
	free(c.complete_b.idx);
	return 0;
}
