/*
 * store_read.c: the store's readers (see store.h): jobs with their
 * parameters, a job's roots and runs, the metric names, and samples by
 * run or by metric.  Lists are small enough to hold whole (jobs, roots of
 * one job, metric names); samples stream through callbacks.
 */
#include "store/backend.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static int cmp_job(const void *a, const void *b)
{
	const struct store_job_info *x = a, *y = b;

	for (int i = 0; i < SJ_NR; i++) {
		int c = strcmp(x->field[i], y->field[i]);
		if (c)
			return c;
	}
	return 0;
}

static int cmp_job_id(const void *key, const void *elem)
{
	int64_t id = *(const int64_t *)key, e = ((const struct store_job_info *)elem)->id;

	return id < e ? -1 : id > e;
}

static int cmp_param(const void *a, const void *b)
{
	return strcmp(((const struct store_param *)a)->key, ((const struct store_param *)b)->key);
}

static int cmp_job_by_id(const void *a, const void *b)
{
	return cmp_job_id(&((const struct store_job_info *)a)->id, b);
}

int store_jobs_load(struct store *s, struct store_job_list *out)
{
	const struct store_backend *be = s->be;
	struct store_stmt *st;
	size_t alloc = 0;
	int r;

	memset(out, 0, sizeof(*out));
	if (!(st = store_stmt_get(s, Q_JOBS_ALL)))
		return -1;
	while ((r = be->step(st)) == STORE_ROW) {
		struct store_job_info *j;
		ALLOC_GROW(out->jobs, (size_t)out->nr + 1, alloc);
		j = &out->jobs[out->nr++];
		memset(j, 0, sizeof(*j));
		j->id = be->column_int(st, 0);
		for (int i = 0; i < SJ_NR; i++)
			j->field[i] = xstrdup(be->column_text(st, i + 1));
	}
	be->reset(st);
	if (r < 0 || !(st = store_stmt_get(s, Q_PARAMS_ALL)))
		goto fail;
	/* by id to attach the parameters, then by identity for the caller */
	sort_some(out->jobs, (size_t)out->nr, sizeof(*out->jobs), cmp_job_by_id);
	while ((r = be->step(st)) == STORE_ROW) {
		int64_t id = be->column_int(st, 0);
		struct store_job_info *j = search_some(&id, out->jobs, (size_t)out->nr, sizeof(*out->jobs),
						   cmp_job_id);
		if (!j)
			continue;       /* a parameter of no job: nothing to show it with */
		j->params = xrealloc(j->params, sizeof(*j->params) * (size_t)(j->nr_params + 1));
		j->params[j->nr_params].key = xstrdup(be->column_text(st, 1));
		j->params[j->nr_params].value = xstrdup(be->column_text(st, 2));
		j->nr_params++;
	}
	be->reset(st);
	if (r < 0)
		goto fail;
	for (int i = 0; i < out->nr; i++)
		sort_some(out->jobs[i].params, (size_t)out->jobs[i].nr_params, sizeof(struct store_param),
		      cmp_param);
	sort_some(out->jobs, (size_t)out->nr, sizeof(*out->jobs), cmp_job);
	return 0;
fail:
	store_job_list_release(out);
	return -1;
}

void store_job_list_release(struct store_job_list *l)
{
	for (int i = 0; i < l->nr; i++) {
		struct store_job_info *j = &l->jobs[i];
		for (int k = 0; k < SJ_NR; k++)
			free(j->field[k]);
		for (int k = 0; k < j->nr_params; k++) {
			free(j->params[k].key);
			free(j->params[k].value);
		}
		free(j->params);
	}
	free(l->jobs);
	memset(l, 0, sizeof(*l));
}

const char *store_job_get(const struct store_job_info *job, const char *key)
{
	for (int i = 0; i < SJ_NR; i++)
		if (!strcmp(store_job_field_names[i], key))
			return job->field[i];
	for (int i = 0; i < job->nr_params; i++)
		if (!strcmp(job->params[i].key, key))
			return job->params[i].value;
	return NULL;
}

static int cmp_root(const void *a, const void *b)
{
	const struct store_root_info *x = a, *y = b;
	int c = strcmp(x->rev, y->rev);

	return c ? c : strcmp(x->path, y->path);
}

static int cmp_root_id(const void *key, const void *elem)
{
	int64_t id = *(const int64_t *)key, e = ((const struct store_root_info *)elem)->id;

	return id < e ? -1 : id > e;
}

static int cmp_root_by_id(const void *a, const void *b)
{
	return cmp_root_id(&((const struct store_root_info *)a)->id, b);
}

static int cmp_run_number(const void *a, const void *b)
{
	int x = ((const struct store_run_info *)a)->number, y = ((const struct store_run_info *)b)->number;

	return x < y ? -1 : x > y;
}

int store_job_roots(struct store *s, int64_t job_id, struct store_root_list *out)
{
	const struct store_backend *be = s->be;
	struct store_stmt *st;
	size_t alloc = 0;
	int r;

	memset(out, 0, sizeof(*out));
	if (!(st = store_stmt_get(s, Q_JOB_ROOTS)))
		return -1;
	be->bind_int(st, 1, job_id);
	while ((r = be->step(st)) == STORE_ROW) {
		struct store_root_info *ri;
		ALLOC_GROW(out->roots, (size_t)out->nr + 1, alloc);
		ri = &out->roots[out->nr++];
		memset(ri, 0, sizeof(*ri));
		ri->id = be->column_int(st, 0);
		ri->job_id = job_id;
		ri->rev = xstrdup(be->column_text(st, 1));
		ri->path = xstrdup(be->column_text(st, 2));
	}
	be->reset(st);
	if (r < 0 || !(st = store_stmt_get(s, Q_JOB_RUNS)))
		goto fail;
	sort_some(out->roots, (size_t)out->nr, sizeof(*out->roots), cmp_root_by_id);
	be->bind_int(st, 1, job_id);
	while ((r = be->step(st)) == STORE_ROW) {
		int64_t root_id = be->column_int(st, 1);
		struct store_root_info *ri = search_some(&root_id, out->roots, (size_t)out->nr,
						     sizeof(*out->roots), cmp_root_id);
		struct store_run_info *ru;
		if (!ri)
			continue;       /* a root added since the first query */
		ri->runs = xrealloc(ri->runs, sizeof(*ri->runs) * (size_t)(ri->nr_runs + 1));
		ru = &ri->runs[ri->nr_runs++];
		ru->id = be->column_int(st, 0);
		ru->number = (int)be->column_int(st, 2);
		ru->incomplete = be->column_int(st, 3) != 0;
		ru->path = xstrdup(be->column_text(st, 4));
	}
	be->reset(st);
	if (r < 0)
		goto fail;
	/* by number in C: an ORDER BY costs SQLite a sort of every run */
	for (int i = 0; i < out->nr; i++)
		sort_some(out->roots[i].runs, (size_t)out->roots[i].nr_runs,
			  sizeof(*out->roots[i].runs), cmp_run_number);
	sort_some(out->roots, (size_t)out->nr, sizeof(*out->roots), cmp_root);
	return 0;
fail:
	store_root_list_release(out);
	return -1;
}

void store_root_list_release(struct store_root_list *l)
{
	for (int i = 0; i < l->nr; i++) {
		struct store_root_info *ri = &l->roots[i];
		for (int k = 0; k < ri->nr_runs; k++)
			free(ri->runs[k].path);
		free(ri->runs);
		free(ri->rev);
		free(ri->path);
	}
	free(l->roots);
	memset(l, 0, sizeof(*l));
}

static int cmp_metric(const void *a, const void *b)
{
	return strcmp(((const struct store_metric_info *)a)->name,
		      ((const struct store_metric_info *)b)->name);
}

int store_metrics_load(struct store *s, struct store_metric_list *out)
{
	const struct store_metric_cache *c = &s->metrics;

	memset(out, 0, sizeof(*out));
	if (store_metric_cache_load(s) < 0)
		return -1;
	out->metrics = xcalloc((size_t)(c->nr ? c->nr : 1), sizeof(*out->metrics));
	for (int i = 0; i < c->nr; i++) {
		out->metrics[i].id = c->ids[i];
		out->metrics[i].name = xstrdup(c->names[i]);
	}
	out->nr = c->nr;
	sort_some(out->metrics, (size_t)out->nr, sizeof(*out->metrics), cmp_metric);
	return 0;
}

void store_metric_list_release(struct store_metric_list *l)
{
	for (int i = 0; i < l->nr; i++)
		free(l->metrics[i].name);
	free(l->metrics);
	memset(l, 0, sizeof(*l));
}

int store_count_runs(struct store *s, int64_t *nr)
{
	struct store_stmt *st = store_stmt_get(s, Q_RUN_COUNT);

	return st ? store_step_id(s, st, nr) : -1;
}

/*
 * The two-column readers: query q bound to key yields (id, value) rows;
 * key is the run and the id a metric (Q_RUN_SAMPLES), or the reverse
 * (Q_METRIC_VALUES).  fn sees each row as a store_sample.
 */
static int scan_pairs(struct store *s, enum store_query q, int64_t key, bool key_is_run,
		      store_sample_fn fn, void *data)
{
	const struct store_backend *be = s->be;
	struct store_stmt *st = store_stmt_get(s, q);
	struct store_sample sm;
	int r = 0, ret = 0;

	if (!st)
		return -1;
	memset(&sm, 0, sizeof(sm));
	*(key_is_run ? &sm.run_id : &sm.metric_id) = key;
	sm.run_number = -1;
	be->bind_int(st, 1, key);
	while (!ret && (r = be->step(st)) == STORE_ROW) {
		*(key_is_run ? &sm.metric_id : &sm.run_id) = be->column_int(st, 0);
		sm.value = be->column_double(st, 1);
		ret = fn(&sm, data);
	}
	be->reset(st);
	return ret ? ret : r < 0 ? -1 : 0;
}

int store_run_samples(struct store *s, int64_t run_id, store_sample_fn fn, void *data)
{
	return scan_pairs(s, Q_RUN_SAMPLES, run_id, true, fn, data);
}

int store_metric_samples(struct store *s, int64_t metric_id, int64_t job_id,
			 store_sample_fn fn, void *data)
{
	const struct store_backend *be = s->be;
	struct store_stmt *st = store_stmt_get(s, job_id ? Q_METRIC_SAMPLES_JOB : Q_METRIC_SAMPLES);
	struct store_sample sm;
	int r = 0, ret = 0;

	if (!st)
		return -1;
	memset(&sm, 0, sizeof(sm));
	sm.metric_id = metric_id;
	be->bind_int(st, 1, metric_id);
	if (job_id)
		be->bind_int(st, 2, job_id);
	while (!ret && (r = be->step(st)) == STORE_ROW) {
		sm.run_id = be->column_int(st, 0);
		sm.root_id = be->column_int(st, 1);
		sm.job_id = be->column_int(st, 2);
		sm.rev = be->column_text(st, 3);
		sm.run_number = (int)be->column_int(st, 4);
		sm.incomplete = be->column_int(st, 5) != 0;
		sm.value = be->column_double(st, 6);
		ret = fn(&sm, data);
	}
	be->reset(st);
	return ret ? ret : r < 0 ? -1 : 0;
}

int store_metric_values(struct store *s, int64_t metric_id, store_sample_fn fn, void *data)
{
	return scan_pairs(s, Q_METRIC_VALUES, metric_id, false, fn, data);
}
