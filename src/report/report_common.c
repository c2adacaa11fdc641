/*
 * report_common.c: gathering what a report says (see report.h) — the
 * compares, the headline, the job's parameters, the machine, the perf
 * call graph — and the commit annotations.  What the renderers share
 * besides: report_words.c (wording), report_machine.c, report_plots.c.
 */
#include "report/report.h"
#include "job/axes.h"
#include "job/job.h"
#include "job/split.h"
#include "run/desc.h"
#include "stats/lkp_tables.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHORT_ID 10             /* "commit 9b17c62382", as lkp abbreviates */
#define PROFILE_LINES 60

void report_options_init(struct report_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->format = REPORT_TEXT;
	opt->rule = RULE_STAT;
	opt->plotter = PLOTTER_BUILTIN;
}

/* --- commits -------------------------------------------------------- */

void report_commit_note(struct report_commit *c, const char *note)
{
	for (int i = 0; i < c->nr_notes; i++)
		if (!strcmp(c->notes[i], note))
			return;
	ALLOC_GROW(c->notes, (size_t)c->nr_notes + 1, c->alloc_notes);
	c->notes[c->nr_notes++] = xstrdup(note);
}

void report_commit_notes(const struct report_commit *c, struct strbuf *sb)
{
	if (!c->nr_notes)
		return;
	strbuf_addstr(sb, " (");
	for (int i = 0; i < c->nr_notes; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", c->notes[i]);
	strbuf_addch(sb, ')');
}

bool report_commit_matches(const struct report_commit *c, const char *ref)
{
	size_t len = strlen(ref);

	if (!strcmp(c->id, ref))
		return true;
	return len >= 4 && !strncmp(c->id, ref, len);
}

static void commit_release(struct report_commit *c)
{
	free(c->id);
	free(c->subject);
	free(c->tag);
	for (int i = 0; i < c->nr_notes; i++)
		free(c->notes[i]);
	free(c->notes);
}

/* One report_commit per column of cmp: the bisect's commit whose result
 * root the column is, else the column's label (the result dir's name). */
static struct report_commit *commits_of(const struct report *r, const struct compare *cmp)
{
	struct report_commit *c = xcalloc((size_t)cmp->ncols + 1, sizeof(*c));

	for (int i = 0; i < cmp->ncols; i++) {
		const char *id = cmp->col[i].commit;
		for (int k = 0; r->bisect && k < r->bisect->nr_commits; k++) {
			const struct report_bisect_commit *bc = &r->bisect->commits[k];
			if (bc->result_root && !strcmp(bc->result_root, cmp->col[i].path))
				id = bc->sha;
		}
		c[i].id = xstrdup(id);
	}
	return c;
}

/* The notes every report gives: bisect roles, bisect tags, --tag. */
static void annotate(const struct report *r, struct report_commit *c, int n)
{
	const struct report_bisect *b = r->bisect;

	for (int i = 0; i < n; i++) {
		if (b) {
			const struct report_bisect_commit *bc = report_bisect_commit(b, c[i].id);
			if (b->good && report_commit_matches(&c[i], b->good))
				report_commit_note(&c[i], "good");
			if (report_commit_matches(&c[i], b->parent))
				report_commit_note(&c[i], "parent of first bad commit");
			if (report_commit_matches(&c[i], b->first_bad))
				report_commit_note(&c[i], "first bad commit");
			if (b->bad && report_commit_matches(&c[i], b->bad))
				report_commit_note(&c[i], "bad");
			if (bc) {
				for (int k = 0; k < bc->nr_tags; k++) {
					report_commit_note(&c[i], bc->tags[k]);
					if (!c[i].tag)
						c[i].tag = xstrdup(bc->tags[k]);
				}
				if (bc->subject && !c[i].subject)
					c[i].subject = xstrdup(bc->subject);
			}
			if (!c[i].subject && b->first_bad_subject &&
			    report_commit_matches(&c[i], b->first_bad))
				c[i].subject = xstrdup(b->first_bad_subject);
		}
		for (int k = 0; k < r->opt.nr_tags; k++)
			if (report_commit_matches(&c[i], r->opt.tags[k].commit)) {
				report_commit_note(&c[i], r->opt.tags[k].name);
				if (!c[i].tag)
					c[i].tag = xstrdup(r->opt.tags[k].name);
			}
	}
}

/* --- run dirs, the job, the machine ---------------------------------- */

/*
 * The first run dir of column c: where stats_source[0] lives, or the dir
 * of that name next to matrix.json (results copied elsewhere).
 */
static bool first_run_dir(const struct compare_col *c, struct strbuf *out)
{
	const char *src = c->mx.nr_sources ? c->mx.sources[0] : NULL;
	char *a, *b;
	bool ok = false;

	strbuf_reset(out);
	if (!src)
		return false;
	a = xstrdup(src);
	strbuf_addstr(out, dirname(a));
	free(a);
	if (is_dir(out->buf))
		return true;
	a = xstrdup(src);
	b = xstrdup(c->mx.path);
	char *run = basename(dirname(a));
	strbuf_reset(out);
	path_join(out, dirname(b), run);
	ok = is_dir(out->buf);
	free(a);
	free(b);
	if (!ok)
		strbuf_reset(out);
	return ok;
}

/* The file name in column c's first run dir, if it exists. */
static bool run_file(const struct compare_col *c, const char *name, struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT;
	bool ok = false;

	strbuf_reset(out);
	if (first_run_dir(c, &dir)) {
		path_join(out, dir.buf, name);
		ok = file_exists(out->buf);
		if (!ok)
			strbuf_reset(out);
	}
	strbuf_release(&dir);
	return ok;
}

static void load_job(struct report *r, const char *path)
{
	struct job *job = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct job_desc_keys keys;
	const char *tc;
	size_t alloc = 0;

	if (job_load_opts(path, &(struct job_load_opts){ .no_check = true }, &job) < 0) {
		warning("the report goes on without the job's parameters");
		return;
	}
	job_axes(job, &r->axes, &r->nr_axes, &alloc);
	job_desc_keys(job, &keys);
	tc = keys.testcase ? keys.testcase : keys.suite;
	if (tc) {
		strbuf_addf(&sb, "%s/", tc);
		job_result_params(job, &sb);
		r->testcase = strbuf_detach(&sb, NULL);
	}
	job_free(job);
}

static void load_machine(struct report *r, const struct compare *cmp, int prefer)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *proc = r->opt.proc_dir ? r->opt.proc_dir : "/proc";

	for (int k = -1; k < cmp->ncols; k++) {
		int i = k < 0 ? prefer : k;
		if (!run_file(&cmp->col[i], "machine", &path))
			continue;
		strbuf_reset(&text);
		if (read_file(&text, path.buf) == 0 &&
		    report_machine_parse(&r->machine, text.buf, path.buf) == 0) {
			r->machine.source = strbuf_detach(&path, NULL);
			goto out;
		}
		report_machine_release(&r->machine);
		warning("ignoring '%s'", path.buf);
	}
	/* no record in the results: describe this machine, and say so */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/cpuinfo", proc);
	strbuf_reset(&text);
	if (read_file(&text, path.buf) == 0)
		report_machine_cpuinfo(&r->machine, text.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/meminfo", proc);
	strbuf_reset(&text);
	if (read_file(&text, path.buf) == 0)
		report_machine_meminfo(&r->machine, text.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/cpuinfo and %s/meminfo of the machine that wrote this report, "
		    "as the results hold no record of theirs", proc, proc);
	r->machine.source = strbuf_detach(&path, NULL);
out:
	strbuf_release(&path);
	strbuf_release(&text);
}

static void load_profile(struct report *r, const struct compare *cmp, int col)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;

	if (col < cmp->ncols && run_file(&cmp->col[col], "perf-profile.txt", &path) &&
	    read_file(&text, path.buf) == 0) {
		r->profile_left_out = report_profile_excerpt(text.buf, PROFILE_LINES, &r->profile);
		if (r->profile.len) {
			r->profile_path = strbuf_detach(&path, NULL);
			r->profile_commit = cmp->col[col].label;
		}
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

/* --- rows ------------------------------------------------------------ */

void report_compare_view(const struct compare *cmp, const int *rows, int n,
			 struct compare *view)
{
	*view = *cmp;
	view->row = xcalloc((size_t)n + 1, sizeof(*view->row));
	for (int i = 0; i < n; i++)
		view->row[i] = cmp->row[rows[i]];
	view->nrows = n;
	view->too_few_samples = false;  /* the main table gives the footnote */
}

int report_samples(const struct compare *cmp, int col, const char *stat, double *out)
{
	const struct compare_col *c = &cmp->col[col];
	int pos = matrix_find(&c->mx, stat), n = 0;

	for (int k = 0; k < c->runs; k++)
		if (!c->incomplete[k])
			out[n++] = pos >= 0 ? c->mx.m[pos].v[k] : 0;
	return n;
}

static int find_row(const struct compare *cmp, const char *stat)
{
	for (int i = 0; i < cmp->nrows; i++)
		if (!strcmp(cmp->row[i].stat, stat))
			return i;
	return -1;
}

static double max_abs_change(const struct compare *cmp, const struct compare_row *row)
{
	double m = 0;

	for (int i = 0; i < cmp->ncols - 1; i++)
		if (fabs(row->change[i]) > m)
			m = fabs(row->change[i]);
	return m;
}

static enum report_kind kind_of(int direction, double change)
{
	if (!direction || change == 0)
		return CHANGE_UNKNOWN;
	return direction * change < 0 ? CHANGE_REGRESSION : CHANGE_IMPROVEMENT;
}

struct perf_sort {
	const struct compare *cmp;
};

static int cmp_perf_rows(const void *a, const void *b, void *arg)
{
	const struct perf_sort *s = arg;
	const struct compare_row *x = &s->cmp->row[*(const int *)a];
	const struct compare_row *y = &s->cmp->row[*(const int *)b];
	double dx = max_abs_change(s->cmp, x), dy = max_abs_change(s->cmp, y);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->stat, y->stat);
}

static void pick_perf_rows(struct report *r)
{
	const struct compare *cmp = &r->main;
	struct perf_sort s = { cmp };

	r->perf_rows = xcalloc((size_t)cmp->nrows + 1, sizeof(int));
	for (int i = 0; i < cmp->nrows; i++)
		if (cmp->row[i].changed && !strncmp(cmp->row[i].stat, "perf-profile.", 13))
			r->perf_rows[r->nr_perf_rows++] = i;
	qsort_r(r->perf_rows, (size_t)r->nr_perf_rows, sizeof(int), cmp_perf_rows, &s);
}

/* Rows of kpi to show: the headline first, then the key metrics that
 * changed in main, in kpi's order. */
static void pick_kpi_rows(struct report *r, const char *headline)
{
	const struct compare *k = &r->kpi;
	int h = headline ? find_row(k, headline) : -1;

	r->kpi_rows = xcalloc((size_t)k->nrows + 1, sizeof(int));
	if (h >= 0)
		r->kpi_rows[r->nr_kpi_rows++] = h;
	r->headline_kpi_row = h;
	for (int i = 0; i < k->nrows; i++) {
		const struct compare_row *row = &k->row[i];
		if (i == h || !lkp_kpi_stat(row->stat) || row->failure)
			continue;
		int m = find_row(&r->main, row->stat);
		if (m >= 0 && r->main.row[m].changed)
			r->kpi_rows[r->nr_kpi_rows++] = i;
	}
}

/* The job's testcase as the columns' job.yaml give it, or NULL. */
static const char *testcase_of(const struct compare *cmp)
{
	for (int i = 0; i < cmp->nr_common; i++)
		if (!strcmp(cmp->common[i].key, "testcase"))
			return cmp->common[i].value;
	return NULL;
}

/*
 * Is stat the test's own metric: "<testcase>.*" when the job names the
 * test case, else a test program's metric rather than a monitor's
 * (iostat, vmstat, ...)?
 */
static bool own_metric(const char *stat, const char *testcase)
{
	size_t len;

	if (!testcase)
		return lkp_test_stat(stat);
	len = strlen(testcase);
	return !strncmp(stat, testcase, len) && stat[len] == '.';
}

/*
 * The test's primary metric among the rows of cmp, or NULL: the test's
 * own metrics first (will-it-scale.per_process_ops, not the
 * iostat.vda.wkB/s that etc/index-perf.yaml lists before it), then
 * lkp's etc/index-perf.yaml order, the first listed wins.
 */
static const char *primary_metric(const struct compare *cmp)
{
	const char *best = NULL, *testcase = testcase_of(cmp);
	int best_rank = 0;

	for (int i = 0; i < cmp->nrows; i++) {
		const char *stat = cmp->row[i].stat;
		int rank = cmp->row[i].failure ? 0 : lkp_primary_rank(stat);
		if (rank && !own_metric(stat, testcase))
			rank += INT_MAX / 2;    /* after every own metric */
		if (rank && (!best || rank < best_rank)) {
			best = stat;
			best_rank = rank;
		}
	}
	return best;
}

/* The compare-mode headline: a changed key metric, regressions first,
 * then improvements, then unknown directions; the biggest change wins. */
static int pick_headline_row(const struct compare *cmp)
{
	int best = -1, best_rank = 0;
	double best_change = 0;

	for (int i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->row[i];
		if (!row->changed || row->failure || !lkp_kpi_stat(row->stat))
			continue;
		int rank = row->regression ? 3 : row->direction ? 2 : 1;
		double c = max_abs_change(cmp, row);
		if (rank > best_rank || (rank == best_rank && c > best_change)) {
			best = i;
			best_rank = rank;
			best_change = c;
		}
	}
	return best;
}

/* Key metrics other than the headline that regressed or improved in main. */
static void count_others(struct report *r, const char *headline)
{
	const struct compare *cmp = &r->main;

	for (int i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->row[i];
		if (!row->changed)
			continue;
		r->headline.changed++;
		if (row->failure || !lkp_kpi_stat(row->stat) || !row->direction ||
		    (headline && !strcmp(row->stat, headline)))
			continue;
		if (row->regression)
			r->headline.other_regressions++;
		else
			r->headline.other_improvements++;
	}
}

static char *short_id(const char *id)
{
	return xstrndup(id, SHORT_ID);
}

/* --- loading --------------------------------------------------------- */

static int build(struct compare *cmp, char *const *paths, int n, const struct report *r,
		 bool all)
{
	if (compare_load(cmp, paths, n) < 0 ||
	    (r->opt.axis && compare_label_by_axis(cmp, r->opt.axis) < 0))
		return -1;
	cmp->opt.rule = r->opt.rule;
	cmp->opt.more = r->opt.more;
	if (r->opt.rule == RULE_LKP) {
		/* ncompare's default perf-profile threshold, as `compare` */
		cmp->opt.has_perf_profile = true;
		cmp->opt.perf_profile = 5;
		cmp->opt.perf_profile_is_int = true;
	}
	cmp->all = all;
	return compare_build(cmp);
}

static void make_commits(struct report *r)
{
	r->main_commits = commits_of(r, &r->main);
	annotate(r, r->main_commits, r->main.ncols);
	r->kpi_commits = commits_of(r, &r->kpi);
	annotate(r, r->kpi_commits, r->kpi.ncols);
}

/* How the prose names a commit: its tag, else its id (abbreviated when
 * it is a bisect's sha). */
static char *display_name(const struct report *r, const struct report_commit *c)
{
	if (c->tag)
		return xstrdup(c->tag);
	return r->bisect ? short_id(c->id) : xstrdup(c->id);
}

/* The same for a bisect commit known only by its sha. */
static char *bisect_name(const struct report_bisect *b, const char *sha)
{
	const struct report_bisect_commit *bc = report_bisect_commit(b, sha);

	return bc && bc->nr_tags ? xstrdup(bc->tags[0]) : short_id(sha);
}

/* The headline's name for a bisect endpoint: as the user named it with
 * its short id, "v1 (8212c99b06)", when the bisect kept that name; else
 * `fallback`, which this takes. */
static char *endpoint_name(const struct report_bisect *b, const char *sha, char *fallback)
{
	const char *name = !sha ? NULL :
			   b->good && b->good_name && !strcmp(sha, b->good) ? b->good_name :
			   b->bad && b->bad_name && !strcmp(sha, b->bad) ? b->bad_name : NULL;
	struct strbuf sb = STRBUF_INIT;

	if (!name)
		return fallback;
	strbuf_addf(&sb, "%s (%.*s)", name, SHORT_ID, sha);
	free(fallback);
	return strbuf_detach(&sb, NULL);
}

/* What both modes do once main and kpi are built. */
static void finish(struct report *r, const char *job_hint)
{
	struct strbuf path = STRBUF_INIT;
	int newcol = r->main.ncols > 1 ? 1 : 0;

	/* the job that ran: the run dir's copy, else the one the bisect names */
	for (int i = 0; i < r->main.ncols && !r->job_path; i++)
		if (run_file(&r->main.col[i], "job.yaml", &path))
			r->job_path = strbuf_detach(&path, NULL);
	if (!r->job_path && job_hint && file_exists(job_hint))
		r->job_path = xstrdup(job_hint);
	if (r->job_path)
		load_job(r, r->job_path);
	/* to reproduce, the job the bisect ran is the one to give */
	if (job_hint && file_exists(job_hint) && strcmp(job_hint, r->job_path ? r->job_path : "")) {
		free(r->job_path);
		r->job_path = xstrdup(job_hint);
	}
	load_machine(r, &r->main, newcol);
	load_profile(r, &r->main, newcol);
	pick_perf_rows(r);

	r->headline.testcase = r->testcase;
	r->headline.base = r->headline_base;
	r->headline.new = r->headline_new;
	strbuf_release(&path);
}

int report_load_compare(struct report *r, char *const *paths, int n,
			const struct report_options *opt)
{
	const struct compare_row *row;
	int h;

	memset(r, 0, sizeof(*r));
	r->opt = *opt;
	r->headline_row = r->headline_kpi_row = -1;
	if (n < 2)
		return error("a report needs a BASE and at least one NEW result root");
	if (build(&r->main, paths, n, r, false) < 0 || build(&r->kpi, paths, n, r, true) < 0)
		return -1;
	make_commits(r);

	h = pick_headline_row(&r->main);
	/* the test's primary metric, where it has one, is the headline even
	 * when it did not change: not whichever key metric moved most */
	const char *primary = primary_metric(&r->kpi);
	if (primary) {
		int m = find_row(&r->main, primary);
		h = m >= 0 && r->main.row[m].changed ? m : -1;
	}
	r->headline_row = h;
	if (h >= 0) {
		pick_kpi_rows(r, r->main.row[h].stat);
		row = &r->main.row[h];
		r->headline.kind = row->regression ? CHANGE_REGRESSION :
				   row->direction ? CHANGE_IMPROVEMENT : CHANGE_UNKNOWN;
	} else {
		/* nothing changed, or not the primary metric: name it, else the
		 * first key metric with a direction */
		const char *name = primary;
		for (int i = 0; i < r->kpi.nrows && !name; i++)
			if (!r->kpi.row[i].failure && lkp_kpi_stat(r->kpi.row[i].stat) &&
			    r->kpi.row[i].direction)
				name = r->kpi.row[i].stat;
		for (int i = 0; i < r->kpi.nrows && !name; i++)
			if (!r->kpi.row[i].failure && lkp_kpi_stat(r->kpi.row[i].stat))
				name = r->kpi.row[i].stat;
		pick_kpi_rows(r, name);
		row = r->headline_kpi_row >= 0 ? &r->kpi.row[r->headline_kpi_row] : NULL;
		r->headline.kind = CHANGE_NONE;
	}
	if (row) {
		r->headline.metric = row->stat;
		r->headline.change = row->change[0];
		r->headline.abs_change = row->abs_change;
		r->more_labels = xcalloc((size_t)n, sizeof(char *));
		r->more_changes = xcalloc((size_t)n, sizeof(double));
		for (int i = 2; i < n && h >= 0; i++) {
			r->more_labels[i - 2] = display_name(r, &r->main_commits[i]);
			r->more_changes[i - 2] = row->change[i - 1];
		}
		r->headline.nr_more = h >= 0 ? n - 2 : 0;
		r->headline.more_labels = (const char *const *)r->more_labels;
		r->headline.more_changes = r->more_changes;
	}
	count_others(r, r->headline.metric);
	r->headline_base = display_name(r, &r->main_commits[0]);
	r->headline_new = display_name(r, &r->main_commits[1]);
	finish(r, NULL);
	return 0;
}

/* The result root of a bisect commit, or NULL when it has none on disk. */
static const char *bisect_root(const struct report_bisect *b, const char *sha)
{
	const struct report_bisect_commit *bc = sha ? report_bisect_commit(b, sha) : NULL;

	if (!bc || !bc->result_root || !is_dir(bc->result_root))
		return NULL;
	return bc->result_root;
}

int report_load_bisect(struct report *r, const char *state, const struct report_options *opt)
{
	struct strbuf path = STRBUF_INIT;
	struct report_bisect *b;
	const char *parent, *first_bad, *cols[4];
	char *kpaths[4];
	int nk = 0;

	memset(r, 0, sizeof(*r));
	r->opt = *opt;
	r->opt.more = true;     /* a bisect report shows every monitor */
	r->headline_row = r->headline_kpi_row = -1;
	if (report_bisect_find(state, &path) < 0)
		return -1;
	b = r->bisect = xcalloc(1, sizeof(*b));
	if (report_bisect_load(b, path.buf) < 0) {
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&path);
	parent = bisect_root(b, b->parent);
	first_bad = bisect_root(b, b->first_bad);
	if (!parent || !first_bad)
		return error("%s: no result root on disk for the %s commit '%s'", b->path,
			     parent ? "first bad" : "parent", parent ? b->first_bad : b->parent);
	char *mpaths[2] = { (char *)parent, (char *)first_bad };
	if (build(&r->main, mpaths, 2, r, false) < 0)
		return -1;

	/* the key metric from good to bad, through the pair found; or across
	 * the roots the caller gives (watch: the tags around the change) */
	cols[0] = bisect_root(b, b->good);
	cols[1] = parent;
	cols[2] = first_bad;
	cols[3] = bisect_root(b, b->bad);
	for (int i = 0; i < 4 && !opt->nr_kpi_roots; i++) {
		bool dup = !cols[i];
		for (int k = 0; k < nk && !dup; k++)
			dup = !strcmp(kpaths[k], cols[i]);
		if (!dup)
			kpaths[nk++] = (char *)cols[i];
	}
	if (build(&r->kpi, opt->nr_kpi_roots ? opt->kpi_roots : kpaths,
		  opt->nr_kpi_roots ? opt->nr_kpi_roots : nk, r, true) < 0)
		return -1;
	if (opt->nr_kpi_roots)
		nk = opt->nr_kpi_roots;
	make_commits(r);
	/* the caller's columns are named by their tags, as seed 001's are */
	for (int i = 0; opt->nr_kpi_roots && i < r->kpi.ncols; i++)
		if (r->kpi_commits[i].tag) {
			free(r->kpi.col[i].label);
			r->kpi.col[i].label = xstrdup(r->kpi_commits[i].tag);
		}
	pick_kpi_rows(r, b->metric);
	r->headline_row = find_row(&r->main, b->metric);

	/* the headline is the change from good to bad, as the bisect saw it */
	r->headline.metric = b->metric;
	r->headline.abs_change = false;
	if (r->headline_kpi_row >= 0 && opt->nr_kpi_roots > 1) {
		const struct compare_row *row = &r->kpi.row[r->headline_kpi_row];
		r->headline.change = row->change[0];
		r->headline.abs_change = row->abs_change;
		r->headline_base = display_name(r, &r->kpi_commits[0]);
		r->headline_new = display_name(r, &r->kpi_commits[1]);
	} else if (r->headline_kpi_row >= 0 && cols[0] && cols[3] && !opt->nr_kpi_roots) {
		const struct compare_row *row = &r->kpi.row[r->headline_kpi_row];
		r->headline.change = row->change[nk - 2];
		r->headline.abs_change = row->abs_change;
		r->headline_base = endpoint_name(b, b->good, display_name(r, &r->kpi_commits[0]));
		r->headline_new = endpoint_name(b, b->bad, display_name(r, &r->kpi_commits[nk - 1]));
	} else if (b->has_endpoints && isfinite(b->rel_shift)) {
		r->headline.change = 100 * b->rel_shift;
		r->headline_base = endpoint_name(b, b->good, bisect_name(b, b->good ? b->good : b->parent));
		r->headline_new = endpoint_name(b, b->bad, bisect_name(b, b->bad ? b->bad : b->first_bad));
	} else {
		const struct compare_row *row = r->headline_row >= 0 ?
			&r->main.row[r->headline_row] : NULL;
		r->headline.change = row ? row->change[0] : 0;
		r->headline_base = display_name(r, &r->main_commits[0]);
		r->headline_new = display_name(r, &r->main_commits[1]);
	}
	r->headline.kind = kind_of(lkp_kpi_direction(b->metric), r->headline.change);
	r->headline_bad_short = short_id(b->first_bad);
	r->headline.first_bad = r->headline_bad_short;
	r->headline.first_bad_subject = b->first_bad_subject;
	r->headline.where = opt->where;
	count_others(r, b->metric);
	finish(r, b->job);
	return 0;
}

void report_release(struct report *r)
{
	if (r->main_commits)
		for (int i = 0; i < r->main.ncols; i++)
			commit_release(&r->main_commits[i]);
	if (r->kpi_commits)
		for (int i = 0; i < r->kpi.ncols; i++)
			commit_release(&r->kpi_commits[i]);
	free(r->main_commits);
	free(r->kpi_commits);
	if (r->more_labels)
		for (int i = 0; i < r->main.ncols; i++)
			free(r->more_labels[i]);
	free(r->more_labels);
	free(r->more_changes);
	compare_release(&r->main);
	compare_release(&r->kpi);
	free(r->kpi_rows);
	free(r->perf_rows);
	free(r->headline_base);
	free(r->headline_new);
	free(r->headline_bad_short);
	free(r->testcase);
	axes_release(r->axes, r->nr_axes);
	free(r->job_path);
	report_machine_release(&r->machine);
	strbuf_release(&r->profile);
	free(r->profile_path);
	if (r->bisect) {
		report_bisect_release(r->bisect);
		free(r->bisect);
	}
	memset(r, 0, sizeof(*r));
}
