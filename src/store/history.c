/*
 * history.c: one metric along a branch's first-parent line (history.h).
 *
 * One pass over the metric's samples in the store (its key range of the
 * sample table, every job at once), bucketed by job and result root; the
 * roots' commit names are resolved against the line once each.  Then the
 * chosen job's complete samples become one point per commit.
 */
#include "store/history.h"
#include "git/git.h"
#include "store/job_filter.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Shortest abbreviated sha matched against the line; git's default. */
#define MIN_ABBREV 7

struct hsample {
	int job;                /* index in the job list */
	int rev;                /* index in the interned revs */
	int64_t root_id;
	int run;
	bool incomplete;
	double value;
};

/* A job's id and its index in the job list, for lookups by id. */
struct job_key {
	int64_t id;
	int index;
};

struct collect {
	const struct store_job_list *jobs;
	struct job_key *by_id;  /* sorted by id */
	bool *job_ok;           /* by index: passes the filter */
	struct strmap rev_index;
	char **revs;
	int nr_revs;
	size_t alloc_revs;
	struct hsample *s;
	size_t nr, alloc;
};

static int cmp_job_key(const void *a, const void *b)
{
	int64_t x = ((const struct job_key *)a)->id, y = ((const struct job_key *)b)->id;

	return x < y ? -1 : x > y;
}

static int job_index(const struct collect *c, int64_t id)
{
	struct job_key key = { id, -1 }, *k;

	if (!c->jobs->nr)
		return -1;
	k = bsearch(&key, c->by_id, (size_t)c->jobs->nr, sizeof(*c->by_id), cmp_job_key);
	return k ? k->index : -1;
}

static int on_sample(const struct store_sample *sm, void *data)
{
	struct collect *c = data;
	int job = job_index(c, sm->job_id), rev;
	struct hsample *h;

	if (job < 0 || !c->job_ok[job])
		return 0;
	rev = strmap_get(&c->rev_index, sm->rev);
	if (rev < 0) {
		ALLOC_GROW(c->revs, (size_t)c->nr_revs + 1, c->alloc_revs);
		c->revs[c->nr_revs] = xstrdup(sm->rev);
		strmap_put(&c->rev_index, c->revs[c->nr_revs], c->nr_revs);
		rev = c->nr_revs++;
	}
	ALLOC_GROW(c->s, c->nr + 1, c->alloc);
	h = &c->s[c->nr++];
	h->job = job;
	h->rev = rev;
	h->root_id = sm->root_id;
	h->run = sm->run_number;
	h->incomplete = sm->incomplete;
	h->value = sm->value;
	return 0;
}

/* The line and what names its commits. */
struct line {
	struct git_commit *c;
	int nr;
	struct strmap pos;              /* full sha -> pos */
	struct git_ref *tags, *heads;
	int nr_tags, nr_heads;
	char **sorted;                  /* shas sorted, for abbreviations */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_hex(const char *s)
{
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s) || isupper((unsigned char)*s))
			return false;
	return true;
}

/* Where a stored commit name sits on the line, or -1. */
static int rev_pos(const struct line *l, const char *rev)
{
	size_t len = strlen(rev);
	int p = strmap_get(&l->pos, rev);

	if (p >= 0)
		return p;
	for (int i = 0; i < l->nr_tags; i++)
		if (!strcmp(l->tags[i].name, rev))
			return strmap_get(&l->pos, l->tags[i].sha);
	for (int i = 0; i < l->nr_heads; i++)
		if (!strcmp(l->heads[i].name, rev))
			return strmap_get(&l->pos, l->heads[i].sha);
	if (len < MIN_ABBREV || !is_hex(rev) || !l->nr)
		return -1;
	/* the first sha >= rev; unique when the next one differs in the prefix */
	int lo = 0, hi = l->nr;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (strcmp(l->sorted[mid], rev) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == l->nr || strncmp(l->sorted[lo], rev, len))
		return -1;
	if (lo + 1 < l->nr && !strncmp(l->sorted[lo + 1], rev, len))
		return -1;      /* ambiguous on the line */
	return strmap_get(&l->pos, l->sorted[lo]);
}

static void line_release(struct line *l)
{
	strmap_release(&l->pos);
	git_commits_release(l->c, l->nr);
	git_refs_release(l->tags, l->nr_tags);
	git_refs_release(l->heads, l->nr_heads);
	free(l->sorted);
}

static int line_load(struct line *l, const struct history_query *q, struct history *h)
{
	int r = git_resolve_commit(q->repo, h->branch, &h->head);
	if (r > 0)
		return error("no branch or commit '%s' in '%s'", h->branch, q->repo);
	if (r < 0 || git_first_parent(q->repo, h->head, q->limit, &l->c, &l->nr) < 0 ||
	    git_refs(q->repo, "refs/tags", &l->tags, &l->nr_tags) < 0 ||
	    git_refs(q->repo, "refs/heads", &l->heads, &l->nr_heads) < 0)
		return -1;
	l->sorted = xcalloc((size_t)(l->nr ? l->nr : 1), sizeof(*l->sorted));
	for (int i = 0; i < l->nr; i++) {
		strmap_put(&l->pos, l->c[i].sha, i);
		l->sorted[i] = l->c[i].sha;
	}
	if (l->nr)
		qsort(l->sorted, (size_t)l->nr, sizeof(*l->sorted), cmp_str);
	return 0;
}

static int cmp_hsample(const void *a, const void *b)
{
	const struct hsample *x = a, *y = b;

	/* here rev holds the position on the line */
	if (x->rev != y->rev)
		return x->rev < y->rev ? -1 : 1;
	if (x->root_id != y->root_id)
		return x->root_id < y->root_id ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_tag(const void *a, const void *b)
{
	const struct history_tag *x = a, *y = b;

	return x->pos != y->pos ? (x->pos < y->pos ? -1 : 1) : strcmp(x->name, y->name);
}

/* The one job with complete samples on the line, or -1 after a message. */
static int choose_job(const struct collect *c, const int *pos_of_rev, const struct history_query *q,
		      const struct history *h)
{
	int *count = xcalloc((size_t)(c->jobs->nr ? c->jobs->nr : 1), sizeof(*count));
	int chosen = -1, nr = 0, any = 0;

	for (size_t i = 0; i < c->nr; i++) {
		any = 1;
		if (!c->s[i].incomplete && pos_of_rev[c->s[i].rev] >= 0)
			count[c->s[i].job]++;
	}
	for (int j = 0; j < c->jobs->nr; j++)
		if (count[j]) {
			chosen = j;
			nr++;
		}
	if (nr == 1)
		goto out;
	if (!any)
		error("no stored results of '%s' for %s", q->metric,
		      q->job || q->nr_params ? "the job given" : "any job");
	else if (!nr)
		error("none of the %d commits of '%s' in '%s' has a complete run of '%s' in the store",
		      h->nr_commits, h->branch, q->repo, q->metric);
	else {
		struct strbuf list = STRBUF_INIT;
		int shown = 0;
		for (int j = 0; j < c->jobs->nr; j++) {
			const struct store_job_info *ji = &c->jobs->jobs[j];
			if (!count[j])
				continue;
			if (shown++ == 3) {
				strbuf_addstr(&list, ", ...");
				break;
			}
			strbuf_addf(&list, "%s%s/%s/%s/%s/%s/%s", shown > 1 ? ", " : "",
				    ji->field[0], ji->field[1], ji->field[2], ji->field[3],
				    ji->field[4], ji->field[5]);
		}
		error("'%s' is stored for %d jobs on '%s' (%s): choose one with --job or --param",
		      q->metric, nr, h->branch, list.buf);
		strbuf_release(&list);
	}
	chosen = -1;
out:
	free(count);
	return chosen;
}

/* Points of job j: its complete samples on the line, grouped by commit. */
static void build_points(struct collect *c, const int *pos_of_rev, int j, const struct line *l,
			 struct history *h)
{
	struct hsample *s = c->s;
	size_t n = 0, nr_off = 0;
	int64_t *off = xcalloc(c->nr ? c->nr : 1, sizeof(*off));

	/* keep job j's samples on the line, positions in place of revs */
	for (size_t i = 0; i < c->nr; i++) {
		if (s[i].job != j)
			continue;
		int p = pos_of_rev[s[i].rev];
		if (p < 0) {
			off[nr_off++] = s[i].root_id;
			continue;
		}
		if (s[i].incomplete) {
			h->incomplete_runs++;
			continue;
		}
		s[n] = s[i];
		s[n++].rev = p;
	}
	if (nr_off)
		qsort(off, nr_off, sizeof(*off), cmp_int64);
	for (size_t i = 0; i < nr_off; i++)
		h->off_line_roots += !i || off[i] != off[i - 1];
	free(off);
	if (n)
		qsort(s, n, sizeof(*s), cmp_hsample);
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && s[k].rev == s[i].rev)
			k++;
		struct history_point *pt;
		h->points = xrealloc(h->points, sizeof(*h->points) * (size_t)(h->nr + 1));
		pt = &h->points[h->nr++];
		memset(pt, 0, sizeof(*pt));
		pt->pos = s[i].rev;
		pt->sha = xstrdup(l->c[pt->pos].sha);
		pt->subject = xstrdup(l->c[pt->pos].subject);
		pt->n = (int)(k - i);
		pt->samples = xcalloc((size_t)pt->n, sizeof(*pt->samples));
		for (int m = 0; m < pt->n; m++)
			pt->samples[m] = s[i + (size_t)m].value;
		pt->mean = mean(pt->samples, pt->n);
		pt->stddev = stddev_sample(pt->samples, pt->n);
		i = k;
	}
}

static void add_tags(const struct line *l, struct history *h)
{
	for (int i = 0; i < l->nr_tags; i++) {
		int p = strmap_get(&l->pos, l->tags[i].sha);
		if (p < 0)
			continue;
		h->tags = xrealloc(h->tags, sizeof(*h->tags) * (size_t)(h->nr_tags + 1));
		h->tags[h->nr_tags].name = xstrdup(l->tags[i].name);
		h->tags[h->nr_tags].sha = xstrdup(l->tags[i].sha);
		h->tags[h->nr_tags].pos = p;
		h->nr_tags++;
	}
	if (h->nr_tags)
		qsort(h->tags, (size_t)h->nr_tags, sizeof(*h->tags), cmp_tag);
	/* each point's tags, in the same order */
	for (int t = 0, k = 0; t < h->nr_tags; t++) {
		while (k < h->nr && h->points[k].pos < h->tags[t].pos)
			k++;
		if (k == h->nr)
			break;
		struct history_point *pt = &h->points[k];
		if (pt->pos != h->tags[t].pos)
			continue;
		pt->tags = xrealloc(pt->tags, sizeof(*pt->tags) * (size_t)(pt->nr_tags + 1));
		pt->tags[pt->nr_tags++] = xstrdup(h->tags[t].name);
	}
}

int history_load(struct store *s, const struct history_query *q, struct history *h)
{
	struct store_job_filter f;
	struct store_job_list jobs = { NULL, 0 };
	struct collect c;
	struct line l;
	int64_t metric_id;
	int *pos_of_rev = NULL, ret = -1, j;

	memset(h, 0, sizeof(*h));
	memset(&c, 0, sizeof(c));
	memset(&l, 0, sizeof(l));
	strmap_init(&l.pos);
	strmap_init(&c.rev_index);
	h->repo = xstrdup(q->repo);
	h->branch = xstrdup(q->branch ? q->branch : "HEAD");
	h->metric = xstrdup(q->metric);
	if (store_job_filter_init(&f, NULL, q->job, q->params, q->nr_params) < 0)
		goto out_nofilter;
	if (line_load(&l, q, h) < 0)
		goto out;
	h->nr_commits = l.nr;
	int r = store_metric_id(s, q->metric, &metric_id);
	if (r <= 0) {
		if (!r)
			error("metric '%s' is not in the store '%s'", q->metric, store_target(s));
		goto out;
	}
	if (store_jobs_load(s, &jobs) < 0)
		goto out;
	c.jobs = &jobs;
	c.by_id = xcalloc((size_t)(jobs.nr ? jobs.nr : 1), sizeof(*c.by_id));
	c.job_ok = xcalloc((size_t)(jobs.nr ? jobs.nr : 1), sizeof(*c.job_ok));
	for (int i = 0; i < jobs.nr; i++) {
		c.by_id[i].id = jobs.jobs[i].id;
		c.by_id[i].index = i;
		c.job_ok[i] = store_job_filter_match(&f, &jobs.jobs[i]);
	}
	if (jobs.nr)
		qsort(c.by_id, (size_t)jobs.nr, sizeof(*c.by_id), cmp_job_key);
	if (store_metric_samples(s, metric_id, 0, on_sample, &c) < 0)
		goto out;
	pos_of_rev = xcalloc((size_t)(c.nr_revs ? c.nr_revs : 1), sizeof(*pos_of_rev));
	for (int i = 0; i < c.nr_revs; i++)
		pos_of_rev[i] = rev_pos(&l, c.revs[i]);
	j = choose_job(&c, pos_of_rev, q, h);
	if (j < 0)
		goto out;
	h->job = jobs.jobs[j];
	memset(&jobs.jobs[j], 0, sizeof(jobs.jobs[j]));  /* moved into h */
	build_points(&c, pos_of_rev, j, &l, h);
	add_tags(&l, h);
	ret = 0;
out:
	store_job_filter_release(&f);
out_nofilter:
	line_release(&l);
	store_job_list_release(&jobs);
	strmap_release(&c.rev_index);
	for (int i = 0; i < c.nr_revs; i++)
		free(c.revs[i]);
	free(c.revs);
	free(c.s);
	free(c.by_id);
	free(c.job_ok);
	free(pos_of_rev);
	if (ret < 0)
		history_release(h);
	return ret;
}

void history_release(struct history *h)
{
	free(h->repo);
	free(h->branch);
	free(h->head);
	free(h->metric);
	for (int k = 0; k < SJ_NR; k++)
		free(h->job.field[k]);
	for (int k = 0; k < h->job.nr_params; k++) {
		free(h->job.params[k].key);
		free(h->job.params[k].value);
	}
	free(h->job.params);
	for (int i = 0; i < h->nr; i++) {
		struct history_point *pt = &h->points[i];
		free(pt->sha);
		free(pt->subject);
		for (int t = 0; t < pt->nr_tags; t++)
			free(pt->tags[t]);
		free(pt->tags);
		free(pt->samples);
	}
	free(h->points);
	for (int t = 0; t < h->nr_tags; t++) {
		free(h->tags[t].name);
		free(h->tags[t].sha);
	}
	free(h->tags);
	memset(h, 0, sizeof(*h));
}
