/*
 * compare.c: the numbers behind `perfbot compare` (see compare.h).
 *
 * Which rows: the union over NEW columns of changed_stats(NEW, BASE), or
 * every metric with --all.  What they show: lkp's ncompare arithmetic —
 * the arithmetic mean of the complete runs, the population stddev (-1 when
 * fewer than 2 samples, so no "±" is printed), the change in percent of
 * BASE (BASE 0 counts as 1e-100, as ncompare does), or the absolute
 * difference for perf-profile.* and metrics ending in '%'.
 */
#include "report/compare.h"
#include "stats/lkp_tables.h"
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *label_of(const char *path)
{
	char real[PATH_MAX], *copy, *base, *res;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	copy = xstrdup(real);
	/* a matrix.json file is labelled by its directory, like a dir */
	if (!is_dir(real))
		base = basename(dirname(copy));
	else
		base = basename(copy);
	res = xstrdup(base);
	free(copy);
	return res;
}

/*
 * Loading the columns' matrices in threads, one per column up to the
 * online CPUs: parsing them is most of a compare's time at 30,000
 * metrics.  A worker prints nothing (matrix_load_quiet logs its
 * messages).  The columns are then taken in order, each log printed and
 * its error returned as the sequential load did, so the messages and the
 * exit are the same (a later column's are never printed after an
 * earlier one's error).
 */
struct col_load {
	const char *path;
	struct matrix *mx;
	struct strbuf log;
	int ret;
};

/* Columns first, first + step, ... of n: one thread's. */
struct load_share {
	struct col_load *cols;
	int n, first, step;
};

static void *load_share(void *arg)
{
	struct load_share *sh = arg;

	for (int i = sh->first; i < sh->n; i += sh->step)
		sh->cols[i].ret = matrix_load_quiet(sh->cols[i].mx, sh->cols[i].path, &sh->cols[i].log);
	return NULL;
}

static int spawn_pthread(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	return pthread_create(thread, NULL, fn, arg);
}

/* Load every column quietly, in up to opts->threads threads (the
 * calling one included); a thread that cannot be had leaves its share
 * to the calling thread. */
static void load_cols(struct col_load *cols, int n, const struct compare_load_opts *opts)
{
	int nt = opts->threads < n ? opts->threads : n;
	struct load_share *sh;
	pthread_t *thread;
	bool *started;

	if (nt < 1)
		nt = 1;
	sh = xcalloc((size_t)nt, sizeof(*sh));
	thread = xcalloc((size_t)nt, sizeof(*thread));
	started = xcalloc((size_t)nt, sizeof(*started));
	for (int k = 0; k < nt; k++) {
		sh[k] = (struct load_share){ cols, n, k, nt };
		if (k)
			started[k] = opts->spawn && opts->spawn(&thread[k], load_share, &sh[k]) == 0;
	}
	load_share(&sh[0]);
	for (int k = 1; k < nt; k++) {
		if (started[k])
			pthread_join(thread[k], NULL);
		else
			load_share(&sh[k]);
	}
	free(sh);
	free(thread);
	free(started);
}

int compare_load(struct compare *cmp, char *const *paths, int n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct compare_load_opts opts = { spawn_pthread, cpus > 0 && cpus < INT_MAX ? (int)cpus : 1 };

	return compare_load_opts(cmp, paths, n, &opts);
}

int compare_load_opts(struct compare *cmp, char *const *paths, int n,
		      const struct compare_load_opts *opts)
{
	struct col_load *cols = xcalloc((size_t)(n ? n : 1), sizeof(*cols));
	int ret = 0;

	memset(cmp, 0, sizeof(*cmp));
	change_options_init(&cmp->opt);
	cmp->col = xcalloc((size_t)n, sizeof(*cmp->col));
	cmp->ncols = n;
	for (int i = 0; i < n; i++) {
		struct compare_col *c = &cmp->col[i];
		matrix_init(&c->mx);
		c->path = xstrdup(paths[i]);
		c->label = label_of(paths[i]);
		c->commit = xstrdup(c->label);
		cols[i] = (struct col_load){ paths[i], &c->mx, STRBUF_INIT, 0 };
	}
	load_cols(cols, n, opts);
	for (int i = 0; i < n && !ret; i++) {
		struct compare_col *c = &cmp->col[i];
		matrix_print_log(&cols[i].log);
		if (cols[i].ret < 0) {
			ret = -1;
			break;
		}
		if (!c->mx.nr) {
			ret = error("%s: empty matrix: no metrics to compare", c->mx.path);
			break;
		}
		c->runs = c->mx.ncols;
		c->incomplete = xcalloc((size_t)(c->runs ? c->runs : 1), sizeof(bool));
		int pos = matrix_find(&c->mx, "last_state.is_incomplete_run");
		c->complete_runs = c->runs;
		if (pos >= 0)
			for (int r = 0; r < c->runs; r++)
				if (c->mx.m[pos].v[r] == 1) {
					c->incomplete[r] = true;
					c->complete_runs--;
				}
		compare_col_axes(c);
	}
	for (int i = 0; i < n; i++)
		strbuf_release(&cols[i].log);
	free(cols);
	if (ret < 0)
		return -1;
	compare_common_axes(cmp);
	/* columns of one commit (btrfs/base, xfs/base) would all be "base":
	 * label them by the first axis whose values tell them apart */
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++)
			if (!strcmp(cmp->col[i].label, cmp->col[k].label)) {
				const char *key = compare_differing_axis(cmp);
				return key ? compare_label_by_axis(cmp, key) : 0;
			}
	return 0;
}

void compare_release(struct compare *cmp)
{
	for (int i = 0; i < cmp->ncols; i++) {
		struct compare_col *c = &cmp->col[i];
		free(c->path);
		free(c->label);
		free(c->commit);
		matrix_release(&c->mx);
		free(c->incomplete);
		axes_release(c->axes, c->nr_axes);
	}
	free(cmp->col);
	for (int i = 0; i < cmp->nrows; i++) {
		struct compare_row *r = &cmp->row[i];
		free(r->avg);
		free(r->stddev);
		free(r->fails);
		free(r->change);
		free(r->p);
		free(r->sig);
		free(r->sort_key);
	}
	free(cmp->row);
	free(cmp->hidden);
	axes_release(cmp->common, cmp->nr_common);
	free(cmp->axis);
	memset(cmp, 0, sizeof(*cmp));
}

int compare_col_samples(const struct compare_col *c, const char *stat, bool all_runs, double *out)
{
	int pos = matrix_find(&c->mx, stat), n = 0;

	for (int r = 0; r < c->runs; r++) {
		if (!all_runs && c->incomplete[r])
			continue;
		out[n++] = pos >= 0 ? c->mx.m[pos].v[r] : 0;
	}
	return n;
}

static bool absolute_change(const char *stat)
{
	size_t len = strlen(stat);
	return !strncmp(stat, "perf-profile", 12) || (len && stat[len - 1] == '%');
}

static char *sort_key_of(const char *stat)
{
	/* perf-profile rows group by their first two components */
	if (!strncmp(stat, "perf-profile.", 13)) {
		const char *dot = strchr(stat + 13, '.');
		if (dot)
			return xstrndup(stat, (size_t)(dot - stat));
	}
	return xstrdup(stat);
}

/* A count of kernel messages (dmesg.WARNING:..., kmsg.*): lkp reports
 * one that appears or grows as a regression. */
static bool kernel_message_stat(const char *stat)
{
	return !strncmp(stat, "dmesg.", 6) || !strncmp(stat, "kmsg.", 5);
}

static void fill_row(struct compare *cmp, struct compare_row *r)
{
	int nc = cmp->ncols;
	bool kmsg = kernel_message_stat(r->stat);

	r->failure = lkp_function_stat(r->stat);
	r->abs_change = !r->failure && absolute_change(r->stat);
	r->avg = xcalloc((size_t)nc, sizeof(double));
	r->stddev = xcalloc((size_t)nc, sizeof(double));
	r->fails = xcalloc((size_t)nc, sizeof(double));
	r->change = xcalloc((size_t)nc, sizeof(double));
	r->p = xcalloc((size_t)nc, sizeof(double));
	r->sig = xcalloc((size_t)nc, sizeof(bool));
	r->direction = kmsg ? -1 : lkp_kpi_direction(r->stat);
	r->sort_key = sort_key_of(r->stat);

	double *base = NULL;
	int nbase = 0;
	for (int i = 0; i < nc; i++) {
		const struct compare_col *c = &cmp->col[i];
		double *s = xmalloc(sizeof(double) * (size_t)(c->runs ? c->runs : 1));
		int n = compare_col_samples(c, r->stat, r->failure, s);
		if (r->failure) {
			double sum = 0;
			for (int k = 0; k < n; k++)
				sum += s[k];
			r->fails[i] = sum;
			r->avg[i] = n ? sum / n : 0;
		} else {
			r->avg[i] = n ? mean(s, n) : 0;
			r->stddev[i] = n > 1 ? stddev_pop(s, n) : -1;
		}
		if (i == 0) {
			base = s;
			nbase = n;
			continue;
		}
		if (r->failure) {
			double rep0 = cmp->col[0].runs ? r->fails[0] / cmp->col[0].runs : 0;
			double rep = c->runs ? r->fails[i] / c->runs : 0;
			r->change[i - 1] = 100 * (rep - rep0);
			r->p[i - 1] = NAN;
		} else if (r->abs_change) {
			r->change[i - 1] = r->avg[i] - r->avg[0];
		} else {
			double a0 = r->avg[0] == 0 ? 1e-100 : r->avg[0];
			r->change[i - 1] = 100.0 * (r->avg[i] - r->avg[0]) / a0;
		}
		if (!r->failure)
			r->p[i - 1] = welch_test(s, n, base, nbase, NULL, NULL);
		if (r->changed && r->direction && (!r->failure || kmsg) &&
		    r->direction * (r->avg[i] - r->avg[0]) < 0)
			r->regression = true;
		free(s);
	}
	free(base);
}

/* ncompare's family counts: see the comment in compare.h. */
static void assign_families(struct compare *cmp)
{
	struct strmap fam;
	long *count = xcalloc((size_t)(cmp->nrows ? cmp->nrows : 1), sizeof(long));
	char **names = xcalloc((size_t)(cmp->nrows ? cmp->nrows : 1), sizeof(char *));
	int nfam = 0;

	strmap_init(&fam);
	for (int i = 0; i < cmp->nrows; i++) {
		const char *s = cmp->row[i].stat, *dot = strchr(s, '.');
		char *base = xstrndup(s, dot ? (size_t)(dot - s) : strlen(s));
		int f = strmap_get(&fam, base);
		if (f < 0) {
			f = nfam++;
			names[f] = base;
			strmap_put(&fam, names[f], f);
			count[f] = cmp->row[i].failure ? -10000 : 0;
		} else {
			free(base);
		}
		count[f]++;
		cmp->row[i].sort_family = f;
	}
	for (int f = 0; f < nfam; f++)
		if (count[f] > 0 && lkp_test_base(names[f], (int)strlen(names[f])))
			count[f] = 0;
	for (int i = 0; i < cmp->nrows; i++)
		cmp->row[i].sort_family = count[cmp->row[i].sort_family];
	for (int f = 0; f < nfam; f++)
		free(names[f]);
	free(names);
	free(count);
	strmap_release(&fam);
}

/* Rows tie on (family, key): then compare the change arrays as Ruby's
 * sort_by does, then the name, so the order never depends on qsort. */
struct row_sort_ctx {
	int nchanges;
};

static int cmp_rows_ctx(const void *pa, const void *pb, void *arg)
{
	const struct compare_row *a = pa, *b = pb;
	const struct row_sort_ctx *ctx = arg;

	if (a->sort_family != b->sort_family)
		return a->sort_family < b->sort_family ? -1 : 1;
	int c = strcmp(a->sort_key, b->sort_key);
	if (c)
		return c;
	for (int i = 0; i < ctx->nchanges; i++)
		if (a->change[i] != b->change[i])
			return a->change[i] < b->change[i] ? -1 : 1;
	return strcmp(a->stat, b->stat);
}

/*
 * Runs a side at which Welch's p of samples like a's and b's (same means,
 * same spreads) would go below level, 0 beyond MAX_RUNS_NEEDED.
 */
#define MAX_RUNS_NEEDED 50
static int runs_needed(const double *a, int na, const double *b, int nb, double level)
{
	double va = na > 1 ? pow(stddev_sample(a, na), 2) : 0;
	double vb = nb > 1 ? pow(stddev_sample(b, nb), 2) : 0;
	double d = fabs(mean(a, na) - mean(b, nb));
	int from = (na > nb ? na : nb) + 1;

	for (int n = from < 3 ? 3 : from; n <= MAX_RUNS_NEEDED; n++) {
		double se2 = (va + vb) / n, df;
		if (se2 <= 0)
			return d > 0 ? n : 0;
		df = se2 * se2 / ((va * va + vb * vb) / ((double)n * n * (n - 1)));
		if (t_pvalue(d / sqrt(se2), df) < level)
			return n;
	}
	return 0;
}

static void add_hidden(struct compare *cmp, size_t *alloc, int col, const struct change_record *rec)
{
	const struct compare_col *c = &cmp->col[col], *base = &cmp->col[0];
	double *a = xmalloc(sizeof(double) * (size_t)(c->runs + 1));
	double *b = xmalloc(sizeof(double) * (size_t)(base->runs + 1));
	struct compare_hidden *h;
	int na = compare_col_samples(c, rec->stat, false, a);
	int nb = compare_col_samples(base, rec->stat, false, b);
	double ma = mean(a, na), mb = mean(b, nb);

	ALLOC_GROW(cmp->hidden, (size_t)cmp->nhidden + 1, *alloc);
	h = &cmp->hidden[cmp->nhidden++];
	h->stat = rec->stat;
	h->col = col;
	h->abs_change = absolute_change(rec->stat);
	h->change = h->abs_change ? ma - mb : 100.0 * (ma - mb) / (mb == 0 ? 1e-100 : mb);
	h->key = rec->key;
	h->level = rec->key ? change_key_alpha(cmp->opt.alpha) : cmp->opt.alpha;
	h->p = rec->key ? rec->p_welch : rec->q;
	/* the rank test had a say too: the larger p decided */
	if (!rec->too_few_samples && rec->p_mwu > h->p)
		h->p = rec->p_mwu;
	h->na = na;
	h->nb = nb;
	/* a non-key p must clear BH's share of the level: p * (p/q) */
	h->runs_needed = runs_needed(a, na, b, nb,
				     rec->key || !(rec->q > 0) ? h->level : h->level * rec->p_welch / rec->q);
	free(a);
	free(b);
}

/*
 * Under lkp's rule, the hidden changes of NEW column col are the stat
 * rule's: its changes and its near misses (the shown ones are dropped
 * later).
 */
static int find_hidden_lkp(struct compare *cmp, int col, size_t *alloc)
{
	struct change_options o = cmp->opt;
	struct change_list cl = CHANGE_LIST_INIT;

	o.rule = RULE_STAT;
	o.near_misses = true;
	if (stat_changed_stats(&cmp->col[col].mx, &cmp->col[0].mx, &o, &cl) < 0) {
		change_list_release(&cl);
		return -1;
	}
	for (int k = 0; k < cl.nr; k++)
		if (!cl.r[k].is_function_stat)
			add_hidden(cmp, alloc, col, &cl.r[k]);
	change_list_release(&cl);
	return 0;
}

/* Key metrics first, then by p, then by name: the note's order. */
static int cmp_hidden(const void *pa, const void *pb)
{
	const struct compare_hidden *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key ? -1 : 1;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return strcmp(a->stat, b->stat);
}

/* Drop the hidden changes of metrics the table shows after all, and sort
 * the rest. */
static void drop_shown(struct compare *cmp, const struct strmap *chosen)
{
	int n = 0;

	for (int i = 0; i < cmp->nhidden; i++)
		if (strmap_get(chosen, cmp->hidden[i].stat) < 0)
			cmp->hidden[n++] = cmp->hidden[i];
	cmp->nhidden = n;
	if (n)
		qsort(cmp->hidden, (size_t)n, sizeof(*cmp->hidden), cmp_hidden);
}

int compare_build(struct compare *cmp)
{
	size_t hidden_alloc = 0;
	struct strmap chosen;
	const char **names = NULL;
	size_t alloc = 0;
	int nnames = 0, nchanged, ret = 0;

	bool explain = cmp->explain && !cmp->all;
	struct change_options o = cmp->opt;

	o.near_misses = explain && o.rule == RULE_STAT;
	strmap_init(&chosen);
	/* what each NEW column's rule called changed, for compare_row.sig */
	struct strmap *col_changed = xcalloc((size_t)cmp->ncols, sizeof(*col_changed));
	for (int i = 0; i < cmp->ncols; i++)
		strmap_init(&col_changed[i]);
	for (int i = 1; i < cmp->ncols; i++) {
		struct change_list cl = { 0 };
		if (changed_stats(&cmp->col[i].mx, &cmp->col[0].mx, &o, &cl) < 0) {
			change_list_release(&cl);
			ret = -1;
			goto out;
		}
		if (cl.too_few_samples) {
			cmp->too_few_samples = true;
			cmp->min_samples_needed = cl.min_samples_needed;
		}
		for (int k = 0; k < cl.nr; k++) {
			/* the record's name is borrowed from column i's matrix,
			 * which lives as long as the compare */
			const char *s = cl.r[k].stat;
			if (cl.r[k].near_miss) {
				if (!cl.r[k].is_function_stat)
					add_hidden(cmp, &hidden_alloc, i, &cl.r[k]);
				continue;
			}
			strmap_put(&col_changed[i], s, 1);
			if (strmap_get(&chosen, s) >= 0)
				continue;
			ALLOC_GROW(names, (size_t)nnames + 1, alloc);
			names[nnames] = s;
			strmap_put(&chosen, s, nnames++);
		}
		change_list_release(&cl);
	}
	for (int i = 1; i < cmp->ncols && explain && o.rule == RULE_LKP; i++)
		if (find_hidden_lkp(cmp, i, &hidden_alloc) < 0) {
			ret = -1;
			goto out;
		}
	drop_shown(cmp, &chosen);
	nchanged = nnames;
	if (cmp->all) {
		for (int i = 0; i < cmp->ncols; i++)
			for (int k = 0; k < cmp->col[i].mx.nr; k++) {
				const char *s = cmp->col[i].mx.m[k].name;
				if (strmap_get(&chosen, s) >= 0)
					continue;
				ALLOC_GROW(names, (size_t)nnames + 1, alloc);
				names[nnames] = s;
				strmap_put(&chosen, s, nnames++);
			}
	}

	cmp->row = xcalloc((size_t)(nnames ? nnames : 1), sizeof(*cmp->row));
	cmp->nrows = nnames;
	for (int i = 0; i < nnames; i++) {
		cmp->row[i].stat = names[i];
		cmp->row[i].changed = i < nchanged;
		fill_row(cmp, &cmp->row[i]);
		for (int k = 1; k < cmp->ncols; k++)
			cmp->row[i].sig[k - 1] = strmap_get(&col_changed[k], names[i]) >= 0;
	}
	assign_families(cmp);
	struct row_sort_ctx ctx = { cmp->ncols - 1 };
	qsort_r(cmp->row, (size_t)cmp->nrows, sizeof(*cmp->row), cmp_rows_ctx, &ctx);
out:
	free(names);
	strmap_release(&chosen);
	for (int i = 0; i < cmp->ncols; i++)
		strmap_release(&col_changed[i]);
	free(col_changed);
	return ret;
}
