/*
 * lkp_rule.c: lkp-tests' changed-stat rule, reproduced exactly.
 *
 * This is lkp's _get_changed_stats(new, base) with __get_changed_stats and
 * StatCompare#process (lib/stats.rb) and ChangedStat#change?
 * (lib/changed_stat.rb), step by step:
 *
 *   keys      a's metrics in order, then b's metrics a lacks (as zeros);
 *   skip      incomplete runs, -m and the deny/allow lists, pass/fail
 *             pairing for function stats, fewer than 3 runs on both sides;
 *   summary   samples sorted, size >> 5 trimmed off each end (at most 3,
 *             0 for function stats, 1 when BASE has <= 3 runs), the
 *             middle element as "mean";
 *   changed?  max differs (function stats), the perf-profile threshold,
 *             or the variance / gap / distance / default variant;
 *   critical  --regression-only drops fixes, and kmsg.* after a dmesg fix;
 *   small     ratio > 1.01, > 1.05 unless a perf metric, lkp's per-family
 *             magnitude thresholds.
 *
 * What lkp keeps in its mutable options hash across stats (gap_distance
 * once a ChangedStat was made, has_boot_fix) lives in struct lkp_state,
 * local to one call.  Every number is computed in double, as Ruby's
 * Float does; whether lkp held an Integer is kept per sample, because it
 * changes two decisions (the distance variant's "differ by exactly 1"
 * test and the perf-profile threshold's class match), integer division by
 * gap_distance, and how records print.
 */
#include "result/change.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/lkp_regex.h"
#include "stats/lkp_tables.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#define MARGIN_SHIFT 5
#define MAX_RATIO 5
#define INCOMPLETE_KEY "last_state.is_incomplete_run"

struct sample {
	double v;
	bool is_int;
};

/* lkp's StatSummary: sorted, margin-trimmed samples and min/mean/max. */
struct summary {
	struct sample *s;       /* points into the caller's buffer */
	int n;
	double min, mean, max;
	bool mean_int, max_int, all_int;
};

/* One side as lkp sees it after filter_incomplete_run. */
struct side {
	const struct matrix *mx;
	int *cols;              /* the columns kept, in order */
	int ncols;              /* lkp's matrix_cols */
};

/* What lkp stores in its options hash while it runs. */
struct lkp_state {
	bool gap_distance;
	bool has_boot_fix;
};

struct pass {
	const struct change_options *opt;
	struct lkp_state *st;
	struct side a, b;
	bool is_incomplete_run;
	bool dropped_incomplete;        /* INCOMPLETE_KEY deleted from both */
	struct sample *buf_a, *buf_b;
	/* facts about b computed on first use (-1: not yet) */
	int b_has_lock_stat, b_has_perf_profile;
	const char **b_ewf;             /* b's keys ending .error .warn .fail */
	int nr_b_ewf;
	bool b_ewf_done;
	/* the name tables' pattern facts, derived once for all keys */
	struct lkp_tables_cache names;
};

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int side_cols(const struct matrix *mx, int kept)
{
	/* matrix_cols: 0 for an empty hash, else stats_source's size or the
	 * arrays' length */
	if (mx->nr == 0 && mx->nr_sources == 0)
		return 0;
	return kept;
}

static void side_init(struct side *sd, const struct matrix *mx)
{
	sd->mx = mx;
	sd->cols = xcalloc(mx->ncols ? (size_t)mx->ncols : 1, sizeof(int));
	for (int i = 0; i < mx->ncols; i++)
		sd->cols[i] = i;
	sd->ncols = side_cols(mx, mx->ncols);
}

/* filter_incomplete_run: drop the columns whose is_incomplete_run is 1. */
static void side_filter(struct side *sd)
{
	int k = matrix_find(sd->mx, INCOMPLETE_KEY), n = 0;

	if (k < 0)
		return;
	for (int i = 0; i < sd->ncols; i++)
		if (sd->mx->m[k].v[sd->cols[i]] != 1)
			sd->cols[n++] = sd->cols[i];
	sd->ncols = n;
}

/* Position of k in mx (trying position hint first), or -1. */
static int find_key_hint(const struct pass *p, const struct matrix *mx, const char *k, int hint)
{
	if (p->dropped_incomplete && !strcmp(k, INCOMPLETE_KEY))
		return -1;
	return matrix_find_hint(mx, k, hint);
}

static int find_key(const struct pass *p, const struct matrix *mx, const char *k)
{
	return find_key_hint(p, mx, k, -1);
}

/* Samples of metric idx of a side (zeros when idx < 0), lkp's padding. */
static void side_samples(const struct side *sd, int idx, struct sample *out)
{
	for (int i = 0; i < sd->ncols; i++) {
		if (idx < 0) {
			out[i].v = 0;
			out[i].is_int = true;
		} else {
			out[i].v = sd->mx->m[idx].v[sd->cols[i]];
			out[i].is_int = sd->mx->m[idx].is_int[sd->cols[i]];
		}
	}
}

static int cmp_sample(const void *x, const void *y)
{
	double a = ((const struct sample *)x)->v, b = ((const struct sample *)y)->v;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/*
 * Sort by cmp_sample, stably, as glibc's qsort (a merge sort) does: equal
 * values keep their column order, which decides whether lkp's middle
 * element is an Integer.  A side mostly has a handful of runs, where an
 * insertion sort beats qsort's calls through a pointer several times.
 */
static void sort_samples(struct sample *s, int n)
{
	if (n > 32) {
		qsort(s, (size_t)n, sizeof(*s), cmp_sample);
		return;
	}
	for (int i = 1; i < n; i++) {
		struct sample x = s[i];
		int j = i;

		while (j > 0 && cmp_sample(&s[j - 1], &x) > 0) {
			s[j] = s[j - 1];
			j--;
		}
		s[j] = x;
	}
}

/* sort_remove_margin and min_mean_max.  False when nothing is left. */
static bool summarize(struct sample *s, int n, int max_margin, struct summary *sum)
{
	int margin = n >> MARGIN_SHIFT;

	if (n <= 0)
		return false;
	if (margin > max_margin)
		margin = max_margin;
	sort_samples(s, n);
	sum->s = s + margin;
	sum->n = n - 2 * margin;
	if (sum->n <= 0)
		return false;
	sum->min = sum->s[0].v;
	sum->mean = sum->s[sum->n / 2].v;
	sum->mean_int = sum->s[sum->n / 2].is_int;
	sum->max = sum->s[sum->n - 1].v;
	sum->max_int = sum->s[sum->n - 1].is_int;
	sum->all_int = true;
	for (int i = 0; i < sum->n; i++)
		sum->all_int &= sum->s[i].is_int;
	return true;
}

static double len(const struct summary *s)
{
	return s->max - s->min;
}

/* StatCompare#monitored_by_b?: does b have a stat of this family? */
static bool monitored_by_b(struct pass *p, const char *family)
{
	int *memo = !strcmp(family, "lock_stat") ? &p->b_has_lock_stat : &p->b_has_perf_profile;
	size_t n = strlen(family);

	if (*memo < 0) {
		*memo = 0;
		for (int i = 0; i < p->b.mx->nr && !*memo; i++) {
			const char *k = p->b.mx->m[i].name;
			if (!strncmp(k, family, n) && (k[n] == '.' || !k[n]) &&
			    find_key(p, p->b.mx, k) >= 0)
				*memo = 1;
		}
	}
	return *memo;
}

static const char *last_dot_suffix(const char *k)
{
	const char *dot = strrchr(k, '.');
	return dot ? dot + 1 : NULL;
}

static bool is_ewf(const char *suffix)
{
	return suffix && (!strcmp(suffix, "error") || !strcmp(suffix, "warn") ||
			  !strcmp(suffix, "fail"));
}

/* Only '.' is special in base: lkp's regexp is then a wildcard compare. */
static bool plain_or_dots(const char *base, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strchr("\\[](){}|*+?^$", base[i]))
			return false;
	return true;
}

/*
 * Does b hold a key matching /^#{stat_base}\.(error|warn|fail)$/?  lkp
 * interpolates the stat name into the regexp unescaped, so its dots match
 * any character; reproduced through lkp_regex_match.
 */
static bool b_has_failure_of(struct pass *p, const char *base, size_t n)
{
	struct strbuf re = STRBUF_INIT;
	bool found = false, plain = plain_or_dots(base, n);

	if (!p->b_ewf_done) {
		p->b_ewf_done = true;
		p->b_ewf = xcalloc((size_t)p->b.mx->nr + 1, sizeof(*p->b_ewf));
		for (int i = 0; i < p->b.mx->nr; i++) {
			const char *k = p->b.mx->m[i].name;
			if (is_ewf(last_dot_suffix(k)) && find_key(p, p->b.mx, k) >= 0)
				p->b_ewf[p->nr_b_ewf++] = k;
		}
	}
	if (!plain) {
		strbuf_addch(&re, '^');
		strbuf_add(&re, base, n);
		strbuf_addstr(&re, "\\.(error|warn|fail)$");
	}
	for (int i = 0; i < p->nr_b_ewf && !found; i++) {
		const char *k = p->b_ewf[i];
		const char *dot = strrchr(k, '.');

		if (!plain) {
			found = lkp_regex_match(re.buf, k, false);
		} else if ((size_t)(dot - k) == n) {
			found = true;
			for (size_t j = 0; j < n && found; j++)
				found = base[j] == '.' ? k[j] != '\n' : base[j] == k[j];
		}
	}
	strbuf_release(&re);
	return found;
}

/* StatCompare#skip_function_stat?: pass and fail stats come in pairs. */
static bool skip_function_stat(struct pass *p, const char *k)
{
	const char *suffix = last_dot_suffix(k);
	size_t base_len;

	if (starts_with(k, "dmesg.") || starts_with(k, "kmsg.") ||
	    starts_with(k, "last_state.") || starts_with(k, "stderr."))
		return false;
	if (!suffix)
		return false;
	base_len = (size_t)(suffix - 1 - k);
	if (is_ewf(suffix)) {
		struct strbuf pass_key = STRBUF_INIT;
		bool has;

		strbuf_add(&pass_key, k, base_len);
		strbuf_addstr(&pass_key, ".pass");
		has = find_key(p, p->b.mx, pass_key.buf) >= 0;
		strbuf_release(&pass_key);
		if (!has)
			return true;
	}
	if (!strcmp(suffix, "pass") && !b_has_failure_of(p, k, base_len))
		return true;
	return false;
}

/*
 * StatCompare#skip_stat? (options lkp's changed command cannot set aside).
 * Sets *is_function to lkp_function_stat(k) unless it skips before needing
 * it: the name tables are the costly part of a key.
 */
static bool skip_stat(struct pass *p, const char *k, bool *is_function)
{
	const struct change_options *opt = p->opt;

	if (p->is_incomplete_run && !starts_with(k, "dmesg.") &&
	    !starts_with(k, "last_state.") && !starts_with(k, "stderr."))
		return true;
	if (!opt->more && !lkp_bisectable_stat_cached(&p->names, k) &&
	    !lkp_report_allowlisted_cached(&p->names, k))
		return true;
	*is_function = lkp_function_stat_cached(&p->names, k);
	if (*is_function)
		return skip_function_stat(p, k);
	/* skip_regular_stat?: at least one side needs 3 samples */
	return p->a.ncols < 3 && p->b.ncols < 3 && !opt->whole;
}

static bool gap(const struct summary *a, const struct summary *b, double g)
{
	if (b->min > a->max && b->min - a->max > (b->mean - a->mean) * g)
		return true;
	if (a->min > b->max && a->min - b->max > (a->mean - b->mean) * g)
		return true;
	return false;
}

static bool changed_latency_stat(const struct change_options *opt,
				 const struct summary *a, const struct summary *b)
{
	if (opt->has_distance) {
		/* auto start bisect only for big regression */
		double d = opt->distance;

		if (b->n <= 3 && a->n <= 3)
			return false;
		if (b->n <= 3 && a->min < 2 * d * b->max)
			return false;
		if (a->max < 2 * d * b->max)
			return false;
		if (a->mean < d * b->max)
			return false;
		return true;
	}
	if (opt->has_gap)
		return gap(a, b, opt->gap);
	return a->max > 3 * b->max || b->max > 3 * a->max;
}

/* (x) / gap_distance, where gap_distance is the Integer 2. */
static double div_gap_distance(double x, bool integer)
{
	return integer ? floor(x / 2) : x / 2;
}

/* LKP::ChangedStat#change? */
static bool changed_stat_change(const struct change_options *opt,
				const struct summary *a, const struct summary *b)
{
	if (!opt->has_distance)
		return (b->min > a->mean && b->mean > a->max) ||
		       (a->min > b->mean && a->mean > b->max);

	if (a->max_int && (a->min - b->max == 1 || b->min - a->max == 1))
		return false;
	if (a->n < 3 || b->n < 3) {
		double min_gap = fmax(len(a), len(b)) * opt->distance;
		return b->min - a->max > min_gap || a->min - b->max > min_gap;
	}
	bool ints = a->mean_int && b->mean_int;
	if (b->min > a->max && b->min - a->max > div_gap_distance(b->mean - a->mean, ints))
		return true;
	if (a->min > b->max && a->min - b->max > div_gap_distance(a->mean - b->mean, ints))
		return true;
	return false;
}

static bool changed_perf_stat(struct pass *p, const struct summary *a,
			      const struct summary *b)
{
	const struct change_options *opt = p->opt;

	if (opt->has_variance) {
		double v = opt->variance;
		return len(a) * b->mean > v * len(b) * a->mean ||
		       len(b) * a->mean > v * len(a) * b->mean;
	}
	if (opt->has_gap)
		return gap(a, b, opt->gap);
	/* LKP::ChangedStat.new sets options['gap_distance'] ||= 2 for good */
	p->st->gap_distance = true;
	return changed_stat_change(opt, a, b);
}

static bool changed(struct pass *p, const char *k, bool is_function, bool is_latency,
		    const struct summary *a, const struct summary *b)
{
	const struct change_options *opt = p->opt;

	/* options['perf-profile'].is_a?(a.mean.class) */
	if (opt->has_perf_profile && starts_with(k, "perf-profile.") &&
	    opt->perf_profile_is_int == a->mean_int)
		return a->mean > opt->perf_profile || b->mean > opt->perf_profile;
	if (is_function)
		return a->max != b->max;
	if (is_latency)
		return changed_latency_stat(opt, a, b);
	return changed_perf_stat(p, a, b);
}

/* StatCompare#skip_critical_stat? */
static bool skip_critical_stat(struct pass *p, const char *k, bool is_function,
			       const struct summary *a)
{
	if (!p->opt->regression_only || !is_function)
		return false;
	if (a->max == 0) {
		if (starts_with(k, "dmesg."))
			p->st->has_boot_fix = true;
		return true;
	}
	/* relies on dmesg.* coming ahead of kmsg.* */
	return p->st->has_boot_fix && starts_with(k, "kmsg.");
}

struct metrics {
	double max, x, y, z, delta, ratio;
};

/* StatCompare.calc_stats_metrics */
static void calc_stats_metrics(const struct summary *a, const struct summary *b,
			       struct metrics *m)
{
	const struct summary *high = a->mean > b->mean ? a : b;
	const struct summary *low = a->mean > b->mean ? b : a;

	m->max = a->max > b->max ? a->max : b->max;
	m->x = len(a);
	m->z = len(b);
	if (a->n <= 2 && m->x < m->z)
		m->x = m->z;
	m->y = high->min - low->max;
	m->delta = high->mean - low->mean;
	m->ratio = MAX_RATIO;
	if (low->mean > 0)
		m->ratio = high->mean / low->mean;
	if (m->y < 0)
		m->y = 0;
	if (m->ratio > MAX_RATIO)
		m->ratio = MAX_RATIO;
}

/* StatCompare#skip_small_change? */
static bool skip_small_change(struct pass *p, const char *k, const struct metrics *m)
{
	const struct change_options *opt = p->opt;

	if (opt->has_perf_profile && starts_with(k, "perf-profile."))
		return false;
	if (!(m->ratio > 1.01))         /* time.elapsed_time has 0.01s precision */
		return true;
	if (!(m->ratio > 1.05 || lkp_perf_metric_cached(&p->names, k)))
		return true;
	return !lkp_reasonable_perf_change_cached(&p->names, k, m->delta, m->max);
}

static double *copy_values(const struct summary *s)
{
	double *v = xmalloc(((size_t)s->n + 1) * sizeof(double));

	for (int i = 0; i < s->n; i++)
		v[i] = s->s[i].v;
	return v;
}

/*
 * Where a record of k goes: a fresh one, or the first pass's record of
 * the same stat, which the second pass replaces in place (Hash#merge!).
 */
static struct change_record *record_slot(struct change_list *out,
					 const struct strmap *first_pass, const char *k)
{
	int i = first_pass ? strmap_get(first_pass, k) : -1;
	struct change_record *r;

	if (i < 0)
		return change_list_add(out);
	r = &out->r[i];
	free(r->a);
	free(r->b);
	memset(r, 0, sizeof(*r));
	r->p_welch = NAN;
	r->p_mwu = NAN;
	return r;
}

/* StatCompare#process for one key. */
static void process(struct pass *p, const char *k, int ia, int ib,
		    struct change_list *out, const struct strmap *first_pass)
{
	const struct change_options *opt = p->opt;
	bool is_function = false, is_latency;
	struct summary sa, sb;
	struct metrics m;
	struct change_record *r;
	int max_margin;

	if (skip_stat(p, k, &is_function))
		return;
	is_latency = opt->lkp_latency && lkp_latency_stat_cached(&p->names, k);
	/* newly added monitors don't have values to compare in the base */
	if (ib < 0 && !is_function &&
	    !(starts_with(k, "lock_stat.") && monitored_by_b(p, "lock_stat")) &&
	    !(starts_with(k, "perf-profile.") && monitored_by_b(p, "perf-profile")))
		return;

	/* calculate_matrix_values */
	max_margin = is_function || is_latency ? 0 : 3;
	side_samples(&p->b, ib, p->buf_b);
	if (!summarize(p->buf_b, p->b.ncols, max_margin, &sb))
		return;
	if (p->b.ncols <= 3 && max_margin > 1)
		max_margin = 1;
	side_samples(&p->a, ia, p->buf_a);
	if (!summarize(p->buf_a, p->a.ncols, max_margin, &sa))
		return;

	if (!changed(p, k, is_function, is_latency, &sa, &sb))
		return;
	if (skip_critical_stat(p, k, is_function, &sa))
		return;
	calc_stats_metrics(&sa, &sb, &m);
	if (skip_small_change(p, k, &m))
		return;

	r = record_slot(out, first_pass, k);
	r->stat = k;
	r->a = copy_values(&sa);
	r->na = sa.n;
	r->int_a = sa.all_int;
	r->b = copy_values(&sb);
	r->nb = sb.n;
	r->int_b = sb.all_int;
	r->is_function_stat = is_function;
	r->is_latency = is_latency;
	r->ratio = m.ratio;
	r->delta = m.delta;
	r->mean_a = sa.mean;
	r->mean_b = sb.mean;
	r->x = m.x;
	r->y = m.y;
	r->z = m.z;
	r->min_a = sa.min;
	r->max_a = sa.max;
	r->min_b = sb.min;
	r->max_b = sb.max;
	r->max = m.max;
	r->nr_run = p->a.ncols;
	/* changed_stat.merge(options): the options as they are now */
	r->gap_distance = p->st->gap_distance;
	r->has_boot_fix = p->st->has_boot_fix;
}

/* __get_changed_stats */
static void run_pass(struct pass *p, struct change_list *out, const struct strmap *first_pass)
{
	const struct matrix *a = p->a.mx, *b = p->b.mx;

	if (p->opt->has_variance && (p->a.ncols < 10 || p->b.ncols < 10))
		return;
	p->buf_a = xcalloc((size_t)p->a.ncols + 1, sizeof(struct sample));
	p->buf_b = xcalloc((size_t)p->b.ncols + 1, sizeof(struct sample));

	for (int i = 0; i < a->nr; i++) {
		const char *k = a->m[i].name;
		if (!p->dropped_incomplete || strcmp(k, INCOMPLETE_KEY))
			process(p, k, i, find_key_hint(p, b, k, i), out, first_pass);
	}
	/* b's keys a lacks: a[k] = [0] * cols_a, appended in b's order */
	for (int j = 0; j < b->nr; j++) {
		const char *k = b->m[j].name;
		if (find_key_hint(p, b, k, j) >= 0 && matrix_find_hint(a, k, j) < 0)
			process(p, k, -1, j, out, first_pass);
	}

	free(p->buf_a);
	free(p->buf_b);
	free(p->b_ewf);
	p->buf_a = p->buf_b = NULL;
	p->b_ewf = NULL;
	p->nr_b_ewf = 0;
	p->b_ewf_done = false;
	p->b_has_lock_stat = p->b_has_perf_profile = -1;
}

int lkp_changed_stats(const struct matrix *a, const struct matrix *b,
		      const struct change_options *opt, struct change_list *out)
{
	struct lkp_state st = { false, false };
	struct pass p;
	struct strmap first_pass;
	int start = out->nr;

	memset(&p, 0, sizeof(p));
	p.opt = opt;
	p.st = &st;
	p.b_has_lock_stat = p.b_has_perf_profile = -1;
	side_init(&p.a, a);
	side_init(&p.b, b);

	/* _get_changed_stats: a present is_incomplete_run, even all zeros,
	 * limits the first pass to dmesg/last_state/stderr */
	p.is_incomplete_run = matrix_find(a, INCOMPLETE_KEY) >= 0 ||
			      matrix_find(b, INCOMPLETE_KEY) >= 0;
	run_pass(&p, out, NULL);

	/* then the incomplete runs go, and the rest is compared; lkp stops
	 * when a side has no stats_source at all */
	if (p.is_incomplete_run && a->nr_sources > 0 && b->nr_sources > 0) {
		side_filter(&p.a);
		side_filter(&p.b);
		p.a.ncols = side_cols(a, p.a.ncols);
		p.b.ncols = side_cols(b, p.b.ncols);
		p.is_incomplete_run = false;
		p.dropped_incomplete = true;
		strmap_init(&first_pass);
		for (int i = start; i < out->nr; i++)
			strmap_put(&first_pass, out->r[i].stat, i);
		run_pass(&p, out, &first_pass);
		strmap_release(&first_pass);
	}

	free(p.a.cols);
	free(p.b.cols);
	lkp_tables_cache_release(&p.names);
	return 0;
}
