/*
 * report_common.c: gathering what a report says (see report.h) — the
 * compares, the headline, the job's parameters, the machine, the perf
 * call graph — and the small pieces both renderers share: wording of the
 * first paragraph, commit annotations, plots.
 */
#include "report/report.h"
#include "job/axes.h"
#include "job/job.h"
#include "job/split.h"
#include "stats/lkp_tables.h"
#include "stats/summary.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRAP_WIDTH 72           /* the seeds' paragraphs wrap about here */
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

/* --- the machine ---------------------------------------------------- */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "128G", "512M", "16384 kB", "1.5T" -> kB; -1 when not a size. */
static long double size_kb(const char *s)
{
	char *end;
	long double v;

	errno = 0;
	v = strtold(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	while (*end == ' ')
		end++;
	switch (toupper((unsigned char)*end)) {
	case 'T': v *= 1024; /* fall through */
	case 'G': v *= 1024; /* fall through */
	case 'M': v *= 1024; /* fall through */
	case 'K': end++; break;
	case '\0': return v;    /* a bare number is in kB, as /proc says */
	default: return -1;
	}
	if (toupper((unsigned char)*end) == 'B')
		end++;
	return *end ? -1 : v;
}

int report_machine_parse(struct report_machine *m, const char *text, const char *name)
{
	int lineno = 0, ret = 0;

	for (const char *p = text; *p && !ret; ) {
		const char *eol = strchrnul(p, '\n');
		char *line = xstrndup(p, (size_t)(eol - p)), *key, *val, *colon;

		lineno++;
		p = *eol ? eol + 1 : eol;
		key = trim(line);
		if (!*key || *key == '#') {
			free(line);
			continue;
		}
		colon = strchr(key, ':');
		if (!colon) {
			ret = error("%s:%d: expected 'key: value', got '%s'", name, lineno, key);
			free(line);
			break;
		}
		*colon = '\0';
		key = trim(key);
		val = trim(colon + 1);
		if (!strcmp(key, "qemu_accel")) {
			/* written by perfbot run --kernel (kernel/vm.h) */
			free(m->accel);
			m->accel = xstrdup(val);
		} else if (!strcmp(key, "model") || !strcmp(key, "model name")) {
			free(m->model);
			m->model = xstrdup(val);
		} else if (!strcmp(key, "nr_cpu")) {
			char *end;
			long n = strtol(val, &end, 10);
			if (end == val || *end || n <= 0)
				ret = error("%s:%d: 'nr_cpu' expected a positive integer, got '%s'",
					    name, lineno, val);
			else
				m->nr_cpu = n;
		} else if (!strcmp(key, "memory")) {
			long double kb = size_kb(val);
			if (kb <= 0)
				ret = error("%s:%d: 'memory' expected a size like 16G, got '%s'",
					    name, lineno, val);
			else
				m->memory_kb = (unsigned long long)kb;
		}
		free(line);
	}
	return ret;
}

void report_machine_cpuinfo(struct report_machine *m, const char *text)
{
	const char *p = text;
	long n = 0;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t)(eol - p);
		const char *colon = memchr(p, ':', len);
		if (colon) {
			size_t klen = (size_t)(colon - p);
			while (klen && isspace((unsigned char)p[klen - 1]))
				klen--;
			if (klen == 9 && !strncmp(p, "processor", 9))
				n++;
			else if (klen == 10 && !strncmp(p, "model name", 10) && !m->model) {
				char *v = xstrndup(colon + 1, (size_t)(eol - colon - 1));
				m->model = xstrdup(trim(v));
				free(v);
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	if (n)
		m->nr_cpu = n;
}

void report_machine_meminfo(struct report_machine *m, const char *text)
{
	const char *p = strstr(text, "MemTotal:");
	unsigned long long kb;

	if ((p == text || (p && p[-1] == '\n')) &&
	    sscanf(p, "MemTotal: %llu", &kb) == 1)
		m->memory_kb = kb;
}

void report_memory_size(unsigned long long kb, struct strbuf *sb)
{
	static const char units[] = "KMGT";
	long double v = (long double)kb;
	int u = 0;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	/* lkp writes whole units ("128G"); keep one decimal otherwise */
	if (fabsl(v - roundl(v)) < 0.05 || v >= 100)
		strbuf_addf(sb, "%.0Lf%c", roundl(v), units[u]);
	else
		strbuf_addf(sb, "%.1Lf%c", v, units[u]);
}

void report_machine_release(struct report_machine *m)
{
	free(m->model);
	free(m->accel);
	free(m->source);
	memset(m, 0, sizeof(*m));
}

/* --- wording -------------------------------------------------------- */

void report_wrap(struct strbuf *out, const char *text, int width, const char *indent)
{
	const char *p = text;
	size_t col = 0, ilen = strlen(indent);

	while (*p) {
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		size_t wlen = strcspn(p, " \n");
		if (col && col + 1 + wlen > (size_t)width) {
			strbuf_addch(out, '\n');
			col = 0;
		}
		if (!col) {
			strbuf_addstr(out, indent);
			col = ilen;
		} else {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, wlen);
		col += wlen;
		p += wlen;
	}
	if (col)
		strbuf_addch(out, '\n');
}

static void add_change(struct strbuf *sb, double change, bool abs_change)
{
	if (abs_change)
		strbuf_addf(sb, "%+.2f", change);
	else
		strbuf_addf(sb, "%+.1f%%", change);
}

static const char *kind_word(enum report_kind k)
{
	switch (k) {
	case CHANGE_REGRESSION: return "regression";
	case CHANGE_IMPROVEMENT: return "improvement";
	default: return "change";
	}
}

void report_headline_text(const struct report_headline *h, struct strbuf *out)
{
	struct strbuf para = STRBUF_INIT;

	if (h->kind == CHANGE_NONE) {
		strbuf_addf(&para, "We compared %s and %s", h->base, h->new);
		if (h->testcase) {
			strbuf_addstr(&para, " in test case");
			report_wrap(out, para.buf, WRAP_WIDTH, "");
			strbuf_addf(out, "\n        %s\n\n", h->testcase);
			strbuf_reset(&para);
			strbuf_addstr(&para, "and");
		} else {
			strbuf_addstr(&para, " and");
		}
		if (h->metric && (h->other_regressions || h->other_improvements)) {
			/* the primary metric held; others moved */
			strbuf_addf(&para, " noticed no significant change of %s (", h->metric);
			add_change(&para, h->change, h->abs_change);
			strbuf_addstr(&para, "), but of the other key metrics,");
			if (h->other_regressions)
				strbuf_addf(&para, " %d regressed", h->other_regressions);
			if (h->other_regressions && h->other_improvements)
				strbuf_addstr(&para, " and");
			if (h->other_improvements)
				strbuf_addf(&para, " %d improved", h->other_improvements);
		} else {
			strbuf_addstr(&para, " noticed no significant change of the key metrics");
			if (h->metric) {
				strbuf_addf(&para, " (%s: ", h->metric);
				add_change(&para, h->change, h->abs_change);
				strbuf_addch(&para, ')');
			}
		}
		strbuf_addstr(&para, ".");
		if (h->changed)
			strbuf_addf(&para, " %d other metric%s changed.", h->changed,
				    h->changed == 1 ? "" : "s");
		report_wrap(out, para.buf, WRAP_WIDTH, "");
		strbuf_addch(out, '\n');
		strbuf_release(&para);
		return;
	}

	strbuf_addstr(&para, "We noticed a ");
	add_change(&para, h->change, h->abs_change);
	strbuf_addf(&para, " %s of %s", kind_word(h->kind), h->metric);
	if (h->testcase) {
		strbuf_addstr(&para, " in test case");
		report_wrap(out, para.buf, WRAP_WIDTH, "");
		strbuf_addf(out, "\n        %s\n\n", h->testcase);
		strbuf_reset(&para);
	} else {
		strbuf_addch(&para, ' ');
	}
	if (h->where)
		strbuf_addstr(&para, h->where);
	else
		strbuf_addf(&para, "between %s and %s", h->base, h->new);
	for (int i = 0; !h->where && i < h->nr_more; i++) {
		strbuf_addstr(&para, i ? ", and " : ", and it is ");
		add_change(&para, h->more_changes[i], h->abs_change);
		strbuf_addf(&para, " as of %s", h->more_labels[i]);
	}
	strbuf_addstr(&para, ".");
	if (h->first_bad) {
		strbuf_addf(&para, " The bisect leads us to commit %s", h->first_bad);
		if (h->first_bad_subject)
			strbuf_addf(&para, " (\"%s\")", h->first_bad_subject);
		strbuf_addstr(&para, ".");
	}
	if (h->other_regressions || h->other_improvements) {
		strbuf_addstr(&para, " Of the other key metrics,");
		if (h->other_regressions)
			strbuf_addf(&para, " %d regressed", h->other_regressions);
		if (h->other_regressions && h->other_improvements)
			strbuf_addstr(&para, " and");
		if (h->other_improvements)
			strbuf_addf(&para, " %d improved", h->other_improvements);
		strbuf_addstr(&para, ".");
	}
	if (h->changed > 1)
		strbuf_addf(&para, " %d metrics changed in all.", h->changed);
	report_wrap(out, para.buf, WRAP_WIDTH, "");
	strbuf_addch(out, '\n');
	strbuf_release(&para);
}

/* --- perf-profile.txt ----------------------------------------------- */

int report_profile_excerpt(const char *text, int max_lines, struct strbuf *out)
{
	const char *p = text, *start = NULL;
	int taken = 0, left = 0;

	/* from "# Overhead ..." when there is one, else the first line of data */
	for (const char *q = text; *q; ) {
		const char *eol = strchrnul(q, '\n');
		if (!strncmp(q, "# Overhead", 10)) {
			start = q;
			break;
		}
		if (!start && *q != '#' && eol > q)
			start = q;
		q = *eol ? eol + 1 : eol;
	}
	if (!start)
		return 0;
	p = start;
	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t)(eol - p);
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (taken < max_lines) {
			strbuf_add(out, p, len);
			strbuf_addch(out, '\n');
			taken++;
		} else if (len && !(len == 1 && *p == '#')) {
			left++;
		}
		p = *eol ? eol + 1 : eol;
	}
	/* no trailing empty or bare '#' lines */
	while (out->len > 1 && out->buf[out->len - 1] == '\n' &&
	       (out->buf[out->len - 2] == '\n' ||
		(out->buf[out->len - 2] == '#' && (out->len == 2 || out->buf[out->len - 3] == '\n')))) {
		strbuf_setlen(out, out->len - (out->buf[out->len - 2] == '#' ? 2 : 1));
	}
	return left;
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
	const char *tc;
	size_t alloc = 0;

	if (job_load_opts(path, &(struct job_load_opts){ .no_check = true }, &job) < 0) {
		warning("the report goes on without the job's parameters");
		return;
	}
	job_axes(job, &r->axes, &r->nr_axes, &alloc);
	tc = job_get(job, "testcase");
	if (!tc)
		tc = job_get(job, "suite");
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

/* The test's primary metric among the rows of cmp (lkp's
 * etc/index-perf.yaml, the first listed wins), or NULL. */
static const char *primary_metric(const struct compare *cmp)
{
	const char *best = NULL;
	int best_rank = 0;

	for (int i = 0; i < cmp->nrows; i++) {
		int rank = cmp->row[i].failure ? 0 : lkp_primary_rank(cmp->row[i].stat);
		if (rank && (!best || rank < best_rank)) {
			best = cmp->row[i].stat;
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
		r->headline_base = display_name(r, &r->kpi_commits[0]);
		r->headline_new = display_name(r, &r->kpi_commits[nk - 1]);
	} else if (b->has_endpoints && isfinite(b->rel_shift)) {
		r->headline.change = 100 * b->rel_shift;
		r->headline_base = bisect_name(b, b->good ? b->good : b->parent);
		r->headline_new = bisect_name(b, b->bad ? b->bad : b->first_bad);
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

/* --- plots ------------------------------------------------------------ */

static bool verdict_good(enum report_verdict v)
{
	return v == VERDICT_GOOD || v == VERDICT_GOOD_ENDPOINT;
}

static bool verdict_bad(enum report_verdict v)
{
	return v == VERDICT_BAD || v == VERDICT_BAD_ENDPOINT;
}

void report_bisect_plot(const struct report *r, bool by_side, struct plot *p)
{
	const struct report_bisect *b = r->bisect;
	struct plot_series *good, *bad, *skip = NULL;
	int ng = 0, nb = 0, x = 0, nskip = 0;

	plot_init(p, b->metric);
	for (int i = 0; i < b->nr_steps; i++)
		if (b->steps[i].verdict == VERDICT_SKIP)
			nskip += b->steps[i].nr;
	if (by_side) {
		/* lkp's email plot: bad samples first, as points only */
		bad = plot_add_series(p, "bad", PLOT_BAD, false);
		good = plot_add_series(p, "good", PLOT_GOOD, true);
	} else {
		good = plot_add_series(p, "good", PLOT_GOOD, false);
		bad = plot_add_series(p, "bad", PLOT_BAD, false);
		if (nskip)
			skip = plot_add_series(p, "skip", PLOT_NEUTRAL, false);
	}
	for (int i = 0; i < b->nr_steps; i++) {
		const struct report_step *s = &b->steps[i];
		if (!by_side && s->nr) {
			char label[16];
			/* short ids while they fit under their samples */
			if (b->nr_steps <= 8)
				snprintf(label, sizeof(label), "%.7s", s->commit);
			else
				snprintf(label, sizeof(label), "%d", i + 1);
			plot_add_mark(p, x + 0.5, label);
		}
		for (int k = 0; k < s->nr; k++) {
			if (verdict_good(s->verdict))
				plot_series_add(good, by_side ? ++ng : ++x, s->samples[k]);
			else if (verdict_bad(s->verdict))
				plot_series_add(bad, by_side ? ++nb : ++x, s->samples[k]);
			else if (skip)
				plot_series_add(skip, ++x, s->samples[k]);
		}
	}
}

bool report_bisect_stable(const struct report *r)
{
	const struct report_bisect *b = r->bisect;
	double gmin = INFINITY, gmax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;

	for (int i = 0; i < b->nr_steps; i++) {
		const struct report_step *s = &b->steps[i];
		for (int k = 0; k < s->nr; k++) {
			double v = s->samples[k];
			if (verdict_good(s->verdict)) {
				gmin = fmin(gmin, v);
				gmax = fmax(gmax, v);
			} else if (verdict_bad(s->verdict)) {
				bmin = fmin(bmin, v);
				bmax = fmax(bmax, v);
			}
		}
	}
	if (!isfinite(gmin) || !isfinite(bmin))
		return false;
	return gmax < bmin || bmax < gmin;
}

void report_metric_plot(const struct compare *cmp, int row, struct plot *p)
{
	const struct compare_row *rw = &cmp->row[row];
	int x = 0, worse = 0;
	enum plot_marker *mk = xcalloc((size_t)cmp->ncols, sizeof(*mk));

	/* which columns are worse than BASE, for the row's direction */
	for (int i = 1; i < cmp->ncols; i++)
		if (rw->direction * (rw->avg[i] - rw->avg[0]) < 0)
			worse++;
	for (int i = 0; i < cmp->ncols; i++) {
		if (!rw->direction)
			mk[i] = PLOT_NEUTRAL;
		else if (i == 0)
			mk[i] = worse ? PLOT_GOOD : PLOT_BAD;
		else
			mk[i] = rw->direction * (rw->avg[i] - rw->avg[0]) < 0 ? PLOT_BAD : PLOT_GOOD;
	}
	plot_init(p, rw->stat);
	for (int i = 0; i < cmp->ncols; i++) {
		const struct compare_col *c = &cmp->col[i];
		double *s = xcalloc((size_t)c->runs + 1, sizeof(double));
		int n = report_samples(cmp, i, rw->stat, s);
		char label[16];
		snprintf(label, sizeof(label), "%.12s", c->label);
		struct plot_series *ser = plot_add_series(p, c->label, mk[i], false);
		plot_add_mark(p, x + 0.5, label);
		for (int k = 0; k < n; k++)
			plot_series_add(ser, ++x, s[k]);
		if (n)
			plot_add_band(p, x - n + 1, x, mean(s, n), n > 1 ? stddev_pop(s, n) : 0,
				      mk[i]);
		free(s);
	}
	free(mk);
}

/* --- sentences both renderers use ------------------------------------ */

bool report_machine_sentence(const struct report *r, struct strbuf *sb)
{
	const struct report_machine *m = &r->machine;

	if (!m->model && !m->nr_cpu && !m->memory_kb)
		return false;
	if (m->accel)
		strbuf_addf(sb, "The test machine is a QEMU guest (%s) that has",
			    !strcmp(m->accel, "tcg") ? "TCG" : !strcmp(m->accel, "kvm") ? "KVM" :
			    !strcmp(m->accel, "icount") ? "TCG with instruction counting" : m->accel);
	else
		strbuf_addstr(sb, "The test machine has");
	if (m->nr_cpu)
		strbuf_addf(sb, " %ld CPU%s", m->nr_cpu, m->nr_cpu == 1 ? "" : "s");
	if (m->model)
		strbuf_addf(sb, "%s%s", m->nr_cpu ? " (" : " a ", m->model);
	if (m->model && m->nr_cpu)
		strbuf_addch(sb, ')');
	if (m->memory_kb) {
		strbuf_addstr(sb, m->nr_cpu || m->model ? " and " : " ");
		report_memory_size(m->memory_kb, sb);
		strbuf_addstr(sb, " memory");
	}
	strbuf_addf(sb, " (from %s).", m->source);
	/* an emulated CPU's times are not a real machine's */
	if (m->accel && !strcmp(m->accel, "tcg"))
		strbuf_addstr(sb, " Its timings are emulated under TCG: compare them with each other, "
			      "not with a real machine.");
	else if (m->accel && !strcmp(m->accel, "icount"))
		strbuf_addstr(sb, " Its timings are emulated under TCG on a clock that counts "
			      "instructions: they measure how many each operation takes, not what "
			      "they cost on real hardware.");
	return true;
}

void report_reproduce(const struct report *r, struct strbuf *intro, struct strbuf *cmds,
		      struct strbuf *bisect)
{
	const struct compare *cmp = &r->main;
	const char *job = r->job_path ? r->job_path : "job.yaml";
	const struct report_bisect *b = r->bisect;

	strbuf_addstr(intro, "To reproduce, with each commit built and running in turn");
	if (r->job_path)
		strbuf_addf(intro, " (the job is %s):", r->job_path);
	else
		strbuf_addstr(intro, " (the results hold no job file: write the job as job.yaml):");
	for (int i = 0; i < cmp->ncols; i++) {
		strbuf_addf(cmds, "perfbot run %s --commit %s", job, r->main_commits[i].id);
		/* the bisect's result tree, where its runs of the commit are */
		if (b && b->result_base)
			strbuf_addf(cmds, " --result-root %s", b->result_base);
		strbuf_addch(cmds, '\n');
	}
	strbuf_addstr(cmds, "perfbot compare");
	for (int i = 0; i < cmp->ncols; i++)
		strbuf_addf(cmds, " %s", cmp->col[i].path);
	strbuf_addch(cmds, '\n');
	if (!b)
		return;
	if (b->command)
		strbuf_addf(bisect, "%s\n", b->command);
	else
		strbuf_addf(bisect, "perfbot bisect --repo %s --good %s --bad %s --job %s --metric %s\n",
			    b->repo ? b->repo : ".", b->good ? b->good : "GOOD",
			    b->bad ? b->bad : "BAD", job, b->metric);
}

void report_wrap_lines(struct strbuf *out, const char *lines, const char *indent)
{
	for (const char *p = lines; *p; ) {
		const char *eol = strchrnul(p, '\n');
		strbuf_addstr(out, indent);
		strbuf_add(out, p, (size_t)(eol - p));
		strbuf_addch(out, '\n');
		p = *eol ? eol + 1 : eol;
	}
}
