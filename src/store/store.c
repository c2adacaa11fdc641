/*
 * store.c: the store's logic and SQL, shared by every backend (see
 * store.h for the interface, backend.h for what a backend provides and
 * the SQL dialect the queries below keep to).
 *
 * Text is sorted in C, not by ORDER BY: PostgreSQL sorts by the
 * database's collation, SQLite by bytes, and both backends must list
 * things in the same order.  Numeric ORDER BY is fine.
 */
#include "store/backend.h"
#include "result/matrix.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const store_job_field_names[SJ_NR] = {
	"testcase", "path_params", "tbox_group", "rootfs", "kconfig", "compiler",
};

static const struct store_backend *const backends[] = {
	&store_sqlite_backend,
#ifndef PERFBOT_NO_LAB          /* the static build has no libpq (Makefile) */
	&store_pg_backend,
#endif
};

static const char *const queries[Q_NR] = {
	[Q_JOB_UPSERT] =
		"INSERT INTO job (testcase, path_params, tbox_group, rootfs, kconfig, compiler)"
		" VALUES ($1, $2, $3, $4, $5, $6)"
		" ON CONFLICT (testcase, path_params, tbox_group, rootfs, kconfig, compiler)"
		" DO UPDATE SET testcase = excluded.testcase RETURNING id",
	[Q_PARAM_UPSERT] =
		"INSERT INTO job_param (job_id, name, value) VALUES ($1, $2, $3)"
		" ON CONFLICT (job_id, name) DO UPDATE SET value = excluded.value",
	[Q_ROOT_UPSERT] =
		"INSERT INTO result_root (job_id, rev, path, signature, indexed_at)"
		" VALUES ($1, $2, $3, $4, $5)"
		" ON CONFLICT (path) DO UPDATE SET job_id = excluded.job_id, rev = excluded.rev,"
		" signature = excluded.signature, indexed_at = excluded.indexed_at RETURNING id",
	[Q_ROOT_FIND] = "SELECT id, signature FROM result_root WHERE path = $1",
	[Q_ROOT_RUNS] = "SELECT id FROM run WHERE root_id = $1",
	[Q_ROOT_DELETE] = "DELETE FROM result_root WHERE id = $1",
	/*
	 * The sample key is (metric_id, run_id): naming every metric id turns
	 * the delete into one key lookup per metric instead of a table scan.
	 */
	[Q_RUN_SAMPLES_DELETE] =
		"DELETE FROM sample WHERE run_id = $1 AND metric_id IN (SELECT id FROM metric)",
	[Q_RUNS_DELETE] = "DELETE FROM run WHERE root_id = $1",
	[Q_RUN_INSERT] =
		"INSERT INTO run (root_id, number, incomplete, path) VALUES ($1, $2, $3, $4) RETURNING id",
	[Q_METRIC_UPSERT] =
		"INSERT INTO metric (name) VALUES ($1)"
		" ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id",
	[Q_METRIC_ALL] = "SELECT id, name FROM metric",
	[Q_SAMPLE_INSERT] = "INSERT INTO sample (metric_id, run_id, value) VALUES ($1, $2, $3)",
	[Q_ROOT_PATHS] = "SELECT path FROM result_root",
	[Q_JOBS_ALL] =
		"SELECT id, testcase, path_params, tbox_group, rootfs, kconfig, compiler FROM job",
	[Q_PARAMS_ALL] = "SELECT job_id, name, value FROM job_param",
	[Q_JOB_ROOTS] = "SELECT id, rev, path FROM result_root WHERE job_id = $1",
	[Q_JOB_RUNS] =
		"SELECT ru.id, ru.root_id, ru.number, ru.incomplete, ru.path FROM run ru"
		" JOIN result_root r ON r.id = ru.root_id WHERE r.job_id = $1",
	/* driven by the metric table so that each row is a key lookup */
	[Q_RUN_SAMPLES] =
		"SELECT s.metric_id, s.value FROM metric m"
		" JOIN sample s ON s.metric_id = m.id AND s.run_id = $1 ORDER BY s.metric_id",
	[Q_METRIC_SAMPLES] =
		"SELECT s.run_id, ru.root_id, r.job_id, r.rev, ru.number, ru.incomplete, s.value"
		" FROM sample s JOIN run ru ON ru.id = s.run_id"
		" JOIN result_root r ON r.id = ru.root_id WHERE s.metric_id = $1",
	[Q_METRIC_SAMPLES_JOB] =
		"SELECT s.run_id, ru.root_id, r.job_id, r.rev, ru.number, ru.incomplete, s.value"
		" FROM sample s JOIN run ru ON ru.id = s.run_id"
		" JOIN result_root r ON r.id = ru.root_id WHERE s.metric_id = $1 AND r.job_id = $2",
	[Q_METRIC_VALUES] = "SELECT run_id, value FROM sample WHERE metric_id = $1 ORDER BY run_id",
	/* perfbot watch: the regressions reported (store_reported.c) */
	[Q_REPORTED_BY_CULPRIT] =
		"SELECT report FROM reported WHERE job_id = $1 AND metric = $2 AND culprit = $3"
		" ORDER BY id LIMIT 1",
	[Q_REPORTED_BY_RANGE] =
		"SELECT report FROM reported"
		" WHERE job_id = $1 AND metric = $2 AND good = $3 AND bad = $4",
	[Q_REPORTED_ADD] =
		"INSERT INTO reported (job_id, metric, culprit, good, bad, report, reported_at)"
		" VALUES ($1, $2, $3, $4, $5, $6, $7)"
		" ON CONFLICT (job_id, metric, good, bad) DO NOTHING",
	[Q_RUN_COUNT] = "SELECT count(*) FROM run",
};

void store_default_target(struct strbuf *sb)
{
	const char *db = getenv("PERFBOT_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (db && *db)
		strbuf_addstr(sb, db);
	else if (xdg && *xdg == '/')     /* the XDG spec ignores relative paths */
		strbuf_addf(sb, "%s/perfbot/perfbot.db", xdg);
	else
		strbuf_addf(sb, "%s/.local/share/perfbot/perfbot.db", home && *home ? home : ".");
}

int store_busy_timeout_ms(void)
{
	const char *env = getenv("PERFBOT_DB_TIMEOUT");
	char *end;
	double sec;

	if (!env || !*env)
		return STORE_BUSY_TIMEOUT_MS;
	errno = 0;
	sec = strtod(env, &end);
	if (*end || errno || !(sec >= 0) || sec > 86400)
		return error("$PERFBOT_DB_TIMEOUT: expected seconds (0 to 86400), got '%s'", env);
	return (int)(sec * 1000 + 0.5);
}

/* Bring the schema to the backend's newest version, or refuse a newer one. */
static int migrate(struct store *s)
{
	const struct store_backend *be = s->be;
	int v;

	if (be->get_version(s, &v) < 0)
		return -1;
	if (v < be->nr_migrations) {
		/* re-read under the write lock: another process may have migrated */
		if (store_begin(s) < 0)
			return -1;
		if (be->get_version(s, &v) < 0)
			goto fail;
		for (; v < be->nr_migrations; v++) {
			char what[96];
			snprintf(what, sizeof(what), "migration to schema version %d failed"
				 " (the store stays at version %d)", v + 1, v);
			if (be->exec(s, be->migrations[v].sql, what) < 0)
				goto fail;
		}
		if (be->set_version(s, v) < 0 || store_commit(s) < 0)
			goto fail;
	}
	if (v > be->nr_migrations)
		return error("store '%s' has schema version %d, newer than this perfbot's %d:"
			     " use a newer perfbot, or move the store away and 'perfbot index'"
			     " rebuilds it", s->target, v, be->nr_migrations);
	s->version = v;
	return 0;
fail:
	store_rollback(s);
	return -1;
}

int store_open(struct store **out, const char *spec, unsigned flags)
{
	struct strbuf def = STRBUF_INIT;
	const struct store_backend *be = NULL;
	struct store *s;

	*out = NULL;
	if (!spec) {
		store_default_target(&def);
		spec = def.buf;
	}
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]) && !be; i++)
		if (backends[i]->accepts(spec))
			be = backends[i];
	if (!be) {
		error("store '%s': no backend for this URL in this perfbot (it knows sqlite:"
		      " a file path%s)", spec, sizeof(backends) / sizeof(backends[0]) > 1 ?
		      ", and postgresql://" : "");
		strbuf_release(&def);
		return -1;
	}
	s = xcalloc(1, sizeof(*s));
	s->be = be;
	s->target = xstrdup(spec);
	strbuf_release(&def);
	if (be->open(s, s->target, flags) < 0 || migrate(s) < 0) {
		store_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

static void metric_cache_release(struct store_metric_cache *c)
{
	for (int i = 0; i < c->nr; i++)
		free(c->names[i]);
	free(c->names);
	free(c->ids);
	if (c->loaded)
		strmap_release(&c->index);
	memset(c, 0, sizeof(*c));
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->in_txn)
		store_rollback(s);
	for (int i = 0; i < Q_NR; i++)
		if (s->stmt[i])
			s->be->finalize(s->stmt[i]);
	metric_cache_release(&s->metrics);
	s->be->close(s);
	free(s->target);
	free(s);
}

const char *store_target(const struct store *s)
{
	return s->target;
}

const char *store_backend_name(const struct store *s)
{
	return s->be->name;
}

int store_schema_version(const struct store *s)
{
	return s->version;
}

int store_begin(struct store *s)
{
	if (s->be->begin(s) < 0)
		return -1;
	s->in_txn = true;
	return 0;
}

int store_commit(struct store *s)
{
	int r = s->be->commit(s);

	if (r < 0)
		s->be->rollback(s);
	s->in_txn = false;
	return r;
}

void store_rollback(struct store *s)
{
	s->be->rollback(s);
	s->in_txn = false;
	/* ids cached during the transaction may be gone with it */
	metric_cache_release(&s->metrics);
}

struct store_stmt *store_stmt_get(struct store *s, enum store_query q)
{
	if (!s->stmt[q]) {
		const char *sql = s->be->query_override && s->be->query_override[q] ?
			s->be->query_override[q] : queries[q];
		s->stmt[q] = s->be->prepare(s, sql);
	}
	return s->stmt[q];
}

int store_step_id(struct store *s, struct store_stmt *st, int64_t *id)
{
	int r = s->be->step(st);

	if (r == STORE_ROW)
		*id = s->be->column_int(st, 0);
	else if (r == STORE_DONE)
		r = error("store '%s': a query returned no id", s->target);
	s->be->reset(st);
	return r < 0 ? -1 : 0;
}

int store_step_done(struct store *s, struct store_stmt *st)
{
	int r = s->be->step(st);

	s->be->reset(st);
	return r < 0 ? -1 : 0;
}

/* --- metrics ------------------------------------------------------------- */

static void cache_add(struct store_metric_cache *c, const char *name, int64_t id)
{
	ALLOC_GROW(c->names, (size_t)c->nr + 1, c->alloc_names);
	ALLOC_GROW(c->ids, (size_t)c->nr + 1, c->alloc_ids);
	c->names[c->nr] = xstrdup(name);
	c->ids[c->nr] = id;
	strmap_put(&c->index, c->names[c->nr], c->nr);
	c->nr++;
}

int store_metric_cache_load(struct store *s)
{
	struct store_metric_cache *c = &s->metrics;
	struct store_stmt *st;
	int r;

	if (c->loaded)
		return 0;
	st = store_stmt_get(s, Q_METRIC_ALL);
	if (!st)
		return -1;
	strmap_init(&c->index);
	c->loaded = true;
	while ((r = s->be->step(st)) == STORE_ROW)
		cache_add(c, s->be->column_text(st, 1), s->be->column_int(st, 0));
	s->be->reset(st);
	if (r < 0) {
		metric_cache_release(c);
		return -1;
	}
	return 0;
}

/* The id of metric name, interned now if new. */
static int intern_metric(struct store *s, const char *name, int64_t *id)
{
	struct store_stmt *st;
	int pos;

	if (store_metric_cache_load(s) < 0)
		return -1;
	pos = strmap_get(&s->metrics.index, name);
	if (pos >= 0) {
		*id = s->metrics.ids[pos];
		return 0;
	}
	st = store_stmt_get(s, Q_METRIC_UPSERT);
	if (!st)
		return -1;
	s->be->bind_text(st, 1, name);
	if (store_step_id(s, st, id) < 0)
		return -1;
	cache_add(&s->metrics, name, *id);
	return 0;
}

int store_metric_id(struct store *s, const char *name, int64_t *id)
{
	int pos;

	if (store_metric_cache_load(s) < 0)
		return -1;
	pos = strmap_get(&s->metrics.index, name);
	if (pos < 0)
		return 0;
	*id = s->metrics.ids[pos];
	return 1;
}

/* --- writing ------------------------------------------------------------- */

/* Delete the runs and samples of root id (not the root row itself). */
static int delete_runs(struct store *s, int64_t root_id)
{
	struct store_stmt *st = store_stmt_get(s, Q_ROOT_RUNS);
	int64_t *ids = NULL;
	size_t nr = 0, alloc = 0;
	int r, ret = -1;

	if (!st)
		return -1;
	s->be->bind_int(st, 1, root_id);
	while ((r = s->be->step(st)) == STORE_ROW) {
		ALLOC_GROW(ids, nr + 1, alloc);
		ids[nr++] = s->be->column_int(st, 0);
	}
	s->be->reset(st);
	if (r < 0)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		st = store_stmt_get(s, Q_RUN_SAMPLES_DELETE);
		if (!st)
			goto out;
		s->be->bind_int(st, 1, ids[i]);
		if (store_step_done(s, st) < 0)
			goto out;
	}
	st = store_stmt_get(s, Q_RUNS_DELETE);
	if (!st)
		goto out;
	s->be->bind_int(st, 1, root_id);
	ret = store_step_done(s, st);
out:
	free(ids);
	return ret;
}

/* The id of the root stored at path: 1 found, 0 not, -1 error. */
static int find_root(struct store *s, const char *path, int64_t *id, struct strbuf *sig)
{
	struct store_stmt *st = store_stmt_get(s, Q_ROOT_FIND);
	int r;

	if (!st)
		return -1;
	s->be->bind_text(st, 1, path);
	r = s->be->step(st);
	if (r == STORE_ROW) {
		*id = s->be->column_int(st, 0);
		if (sig) {
			strbuf_reset(sig);
			strbuf_addstr(sig, s->be->column_text(st, 1));
		}
	}
	s->be->reset(st);
	return r < 0 ? -1 : r == STORE_ROW;
}

int store_root_signature(struct store *s, const char *path, struct strbuf *sig)
{
	int64_t id;

	strbuf_reset(sig);
	return find_root(s, path, &id, sig);
}

int store_delete_root(struct store *s, const char *path)
{
	struct store_stmt *st;
	int64_t id;
	int r = find_root(s, path, &id, NULL);

	if (r <= 0)
		return r;
	if (delete_runs(s, id) < 0 || !(st = store_stmt_get(s, Q_ROOT_DELETE)))
		return -1;
	s->be->bind_int(st, 1, id);
	return store_step_done(s, st) < 0 ? -1 : 1;
}

static int job_upsert(struct store *s, const char *const *job, int64_t *id)
{
	struct store_stmt *st = store_stmt_get(s, Q_JOB_UPSERT);

	if (!st)
		return -1;
	for (int i = 0; i < SJ_NR; i++)
		s->be->bind_text(st, i + 1, job[i] ? job[i] : "");
	return store_step_id(s, st, id);
}

/* Metric order for inserting: by id, so that the rows of a root go into
 * the (metric_id, run_id) key in ascending order. */
struct by_id {
	int64_t id;
	int m;                  /* index in the matrix */
};

static int cmp_by_id(const void *a, const void *b)
{
	const struct by_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int put_samples(struct store *s, const struct store_root *root, const int64_t *run_ids)
{
	const struct matrix *mx = root->mx;
	struct by_id *order = xcalloc((size_t)(mx->nr ? mx->nr : 1), sizeof(*order));
	int ret = -1;

	for (int i = 0; i < mx->nr; i++) {
		order[i].m = i;
		if (intern_metric(s, mx->m[i].name, &order[i].id) < 0)
			goto out;
	}
	sort_some(order, (size_t)mx->nr, sizeof(*order), cmp_by_id);
	if (s->be->put_samples) {
		int64_t *ids = xcalloc((size_t)(mx->nr ? mx->nr : 1), sizeof(*ids));
		double *v = xcalloc((size_t)(mx->nr ? mx->nr : 1), sizeof(*v));
		ret = 0;
		for (int k = 0; k < root->nr_runs && !ret; k++) {
			for (int i = 0; i < mx->nr; i++) {
				ids[i] = order[i].id;
				v[i] = mx->m[order[i].m].v[k];
			}
			ret = s->be->put_samples(s, run_ids[k], ids, v, (size_t)mx->nr);
		}
		free(ids);
		free(v);
		goto out;
	}
	for (int i = 0; i < mx->nr; i++) {
		const double *v = mx->m[order[i].m].v;
		for (int k = 0; k < root->nr_runs; k++) {
			struct store_stmt *st = store_stmt_get(s, Q_SAMPLE_INSERT);
			if (!st)
				goto out;
			s->be->bind_int(st, 1, order[i].id);
			s->be->bind_int(st, 2, run_ids[k]);
			s->be->bind_double(st, 3, v[k]);
			if (store_step_done(s, st) < 0)
				goto out;
		}
	}
	ret = 0;
out:
	free(order);
	return ret;
}

int store_put_root(struct store *s, const struct store_root *root)
{
	struct store_stmt *st;
	int64_t job_id, root_id, *run_ids = NULL;
	int r, ret = -1;

	if (root->mx && root->mx->ncols != root->nr_runs)
		return error("store: '%s': %d runs but %d matrix columns", root->path,
			     root->nr_runs, root->mx->ncols);
	if (job_upsert(s, root->job, &job_id) < 0)
		return -1;
	for (int i = 0; i < root->nr_params; i++) {
		if (!(st = store_stmt_get(s, Q_PARAM_UPSERT)))
			return -1;
		s->be->bind_int(st, 1, job_id);
		s->be->bind_text(st, 2, root->params[i].key);
		s->be->bind_text(st, 3, root->params[i].value);
		if (store_step_done(s, st) < 0)
			return -1;
	}
	r = find_root(s, root->path, &root_id, NULL);
	if (r < 0 || (r == 1 && delete_runs(s, root_id) < 0))
		return -1;
	if (!(st = store_stmt_get(s, Q_ROOT_UPSERT)))
		return -1;
	s->be->bind_int(st, 1, job_id);
	s->be->bind_text(st, 2, root->rev);
	s->be->bind_text(st, 3, root->path);
	s->be->bind_text(st, 4, root->signature ? root->signature : "");
	s->be->bind_int(st, 5, (int64_t)time(NULL));
	if (store_step_id(s, st, &root_id) < 0)
		return -1;

	run_ids = xcalloc((size_t)(root->nr_runs ? root->nr_runs : 1), sizeof(*run_ids));
	for (int k = 0; k < root->nr_runs; k++) {
		if (!(st = store_stmt_get(s, Q_RUN_INSERT)))
			goto out;
		s->be->bind_int(st, 1, root_id);
		s->be->bind_int(st, 2, root->runs[k].number);
		s->be->bind_int(st, 3, root->runs[k].incomplete);
		s->be->bind_text(st, 4, root->runs[k].path ? root->runs[k].path : "");
		if (store_step_id(s, st, &run_ids[k]) < 0)
			goto out;
	}
	ret = root->mx ? put_samples(s, root, run_ids) : 0;
out:
	free(run_ids);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int store_each_root_path(struct store *s, const char *dir,
			 int (*fn)(const char *path, void *data), void *data)
{
	struct store_stmt *st = store_stmt_get(s, Q_ROOT_PATHS);
	size_t len = strlen(dir), nr = 0, alloc = 0;
	char **paths = NULL;
	int r, ret = 0;

	if (!st)
		return -1;
	while ((r = s->be->step(st)) == STORE_ROW) {
		const char *p = s->be->column_text(st, 0);
		if (len && (strncmp(p, dir, len) || (p[len] && p[len] != '/')))
			continue;
		ALLOC_GROW(paths, nr + 1, alloc);
		paths[nr++] = xstrdup(p);
	}
	s->be->reset(st);
	if (r < 0)
		ret = -1;
	sort_some(paths, nr, sizeof(*paths), cmp_str);
	for (size_t i = 0; i < nr && !ret; i++)
		ret = fn(paths[i], data);
	for (size_t i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	return ret;
}
