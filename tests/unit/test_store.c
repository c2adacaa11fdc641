/* Unit tests of src/store: opening (targets, migrations, refusals, locks),
 * storing and replacing result roots, and the readers.
 *
 * The tests of storing and reading run against both backends: each
 * test_x also runs as test_x_pg on a fresh database of the throwaway
 * PostgreSQL server (lab_helpers.h), with dbpath holding its URL. */
#include "lab_helpers.h"
#include "store/backend.h"
#include "store/pg_migrations.h"
#include "store/sqlite_migrations.h"
#include "store/store.h"
#include "result/matrix.h"
#include "util/xalloc.h"

#include <math.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>

TEST_TMPDIR("store")
static char dbpath[256];

static int setup(void **state)
{
	tmpdir_setup(state);
	snprintf(dbpath, sizeof(dbpath), "%s/sub/dir/p.db", tmpdir);
	unsetenv("PERFBOT_DB_TIMEOUT");
	return 0;
}

/* A connection to the PostgreSQL store at url, its tables unqualified. */
static void raw_pg(struct pg *db, const char *url)
{
	static const char *const path[] = { "SET search_path = perfbot", NULL };
	db->on_connect = path;
	assert_int_equal(pg_open(db, url), 0);
}

/* Run SQL on the database directly, as another program would. */
static void raw_sql(const char *path, const char *sql)
{
	sqlite3 *db;
	if (pg_is_url(path)) {
		struct pg pdb = PG_INIT;
		raw_pg(&pdb, path);
		assert_int_equal(pg_exec_script(&pdb, sql), 0);
		pg_close(&pdb);
		return;
	}
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static int raw_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v;
	if (pg_is_url(path)) {
		struct pg pdb = PG_INIT;
		raw_pg(&pdb, path);
		PGresult *r = pg_query(&pdb, sql, 0, NULL);
		assert_non_null(r);
		assert_int_equal(PQntuples(r), 1);
		v = (int)pg_int(r, 0, 0);
		PQclear(r);
		pg_close(&pdb);
		return v;
	}
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* store_open expected to fail; returns what it printed (caller frees). */
static char *open_fails(const char *spec, unsigned flags)
{
	struct stderr_capture cap;
	struct store *s = (struct store *)1;
	capture_start(&cap);
	assert_int_equal(store_open(&s, spec, flags), -1);
	char *msg = capture_end(&cap);
	assert_null(s);
	/* one line */
	assert_non_null(strchr(msg, '\n'));
	assert_int_equal(strchr(msg, '\n') - msg, (long)strlen(msg) - 1);
	return msg;
}

static void test_default_target(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	setenv("PERFBOT_DB", "/x/y.db", 1);
	store_default_target(&sb);
	assert_string_equal(sb.buf, "/x/y.db");
	/* empty PERFBOT_DB means unset */
	setenv("PERFBOT_DB", "", 1);
	setenv("XDG_DATA_HOME", "/data", 1);
	strbuf_reset(&sb);
	store_default_target(&sb);
	assert_string_equal(sb.buf, "/data/perfbot/perfbot.db");
	/* a relative XDG_DATA_HOME is ignored, as the XDG spec says */
	setenv("XDG_DATA_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	strbuf_reset(&sb);
	store_default_target(&sb);
	assert_string_equal(sb.buf, "/home/u/.local/share/perfbot/perfbot.db");
	unsetenv("XDG_DATA_HOME");
	strbuf_reset(&sb);
	store_default_target(&sb);
	assert_string_equal(sb.buf, "/home/u/.local/share/perfbot/perfbot.db");
	unsetenv("PERFBOT_DB");
	strbuf_release(&sb);
}

static void test_busy_timeout_env(void **state)
{
	struct stderr_capture cap;
	(void)state;
	unsetenv("PERFBOT_DB_TIMEOUT");
	assert_int_equal(store_busy_timeout_ms(), 10000);
	assert_int_equal(STORE_BUSY_TIMEOUT_MS, 10000);
	setenv("PERFBOT_DB_TIMEOUT", "1.5", 1);
	assert_int_equal(store_busy_timeout_ms(), 1500);
	setenv("PERFBOT_DB_TIMEOUT", "0", 1);
	assert_int_equal(store_busy_timeout_ms(), 0);
	setenv("PERFBOT_DB_TIMEOUT", "86400", 1);
	assert_int_equal(store_busy_timeout_ms(), 86400000);
	const char *bad[] = { "abc", "-1", "86401", "1s", "nan" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("PERFBOT_DB_TIMEOUT", bad[i], 1);
		capture_start(&cap);
		assert_int_equal(store_busy_timeout_ms(), -1);
		char *msg = capture_end(&cap);
		assert_non_null(strstr(msg, "$PERFBOT_DB_TIMEOUT"));
		free(msg);
	}
	unsetenv("PERFBOT_DB_TIMEOUT");
}

static void test_open_create_and_migrate(void **state)
{
	struct store *s;
	(void)state;
	/* without STORE_CREATE a missing store says how to make one */
	char *msg = open_fails(dbpath, 0);
	assert_non_null(strstr(msg, "does not exist: 'perfbot index' builds it"));
	free(msg);
	assert_false(file_exists(dbpath));

	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	assert_string_equal(store_backend_name(s), "sqlite");
	assert_string_equal(store_target(s), dbpath);
	assert_int_equal(store_schema_version(s), store_sqlite_backend.nr_migrations);
	assert_int_equal(store_sqlite_backend.nr_migrations, STORE_SCHEMA_VERSION);
	assert_int_equal(STORE_SCHEMA_VERSION, 2);
	store_close(s);
	assert_int_equal(raw_int(dbpath, "PRAGMA user_version"), 2);
	assert_int_equal(raw_int(dbpath, "PRAGMA application_id"), 0x70666274);
	/* WAL is persistent in the file */
	struct strbuf q = STRBUF_INIT;
	sqlite3 *db;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	sqlite3_close(db);
	strbuf_release(&q);

	/* reopening an existing store needs no flag and keeps its tables */
	assert_int_equal(store_open(&s, dbpath, 0), 0);
	assert_int_equal(store_schema_version(s), 2);
	/* reads go through a memory map (the library caps its size) */
	struct store_stmt *mm = s->be->prepare(s, "PRAGMA mmap_size");
	assert_non_null(mm);
	assert_int_equal(s->be->step(mm), STORE_ROW);
	assert_true(s->be->column_int(mm, 0) >= 1 << 30);
	s->be->finalize(mm);
	store_close(s);
	/* a store of version 1 gets the migrations after it on open */
	raw_sql(dbpath, "DROP TABLE reported; PRAGMA user_version = 1;");
	assert_int_equal(store_open(&s, dbpath, 0), 0);
	assert_int_equal(store_schema_version(s), 2);
	store_close(s);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM reported"), 0);
	/* "sqlite:" names the same file */
	struct strbuf spec = STRBUF_INIT;
	strbuf_addf(&spec, "sqlite:%s", dbpath);
	assert_int_equal(store_open(&s, spec.buf, 0), 0);
	store_close(s);
	strbuf_release(&spec);
}

static void test_open_refusals(void **state)
{
	struct store *s;
	struct strbuf p = STRBUF_INIT;
	char *msg;
	(void)state;

	/* a newer schema is refused, and the file left alone */
	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	store_close(s);
	raw_sql(dbpath, "PRAGMA user_version = 3");
	msg = open_fails(dbpath, 0);
	assert_non_null(strstr(msg, "has schema version 3, newer than this perfbot's 2"));
	free(msg);
	assert_int_equal(raw_int(dbpath, "PRAGMA user_version"), 3);

	/* another program's SQLite file */
	strbuf_addf(&p, "%s/other.db", tmpdir);
	raw_sql(p.buf, "CREATE TABLE t (x); PRAGMA user_version = 1;");
	msg = open_fails(p.buf, 0);
	assert_non_null(strstr(msg, "SQLite database of another program"));
	free(msg);
	raw_sql(p.buf, "PRAGMA user_version = 0; PRAGMA application_id = 7;");
	msg = open_fails(p.buf, 0);
	assert_non_null(strstr(msg, "application_id 7"));
	free(msg);
	/* user_version 0 and no application_id, but tables in the way */
	raw_sql(p.buf, "PRAGMA application_id = 0; CREATE TABLE job (x);");
	msg = open_fails(p.buf, 0);
	assert_non_null(strstr(msg, "migration to schema version 1 failed"));
	free(msg);

	/* garbage: not a database, with the way out */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/garbage.db", tmpdir);
	char junk[8192];
	memset(junk, 'x', sizeof(junk));
	assert_int_equal(write_file_atomic(p.buf, junk, sizeof(junk)), 0);
	msg = open_fails(p.buf, 0);
	assert_non_null(strstr(msg, "file is not a database"));
	assert_non_null(strstr(msg, "'perfbot index' rebuilds"));
	free(msg);

	/* a URL no backend takes */
	msg = open_fails("foo://host/db", 0);
	assert_non_null(strstr(msg, "no backend for this URL"));
	free(msg);
	/* an empty path */
	msg = open_fails("sqlite:", STORE_CREATE);
	assert_non_null(strstr(msg, "empty path"));
	free(msg);
	/* a bad timeout fails the open */
	setenv("PERFBOT_DB_TIMEOUT", "x", 1);
	msg = open_fails(dbpath, 0);
	free(msg);
	unsetenv("PERFBOT_DB_TIMEOUT");
	strbuf_release(&p);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_locked(void **state)
{
	struct store *s;
	struct stderr_capture cap;
	sqlite3 *db;
	(void)state;
	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	store_close(s);

	/* another writer holds the lock: we wait the timeout, then say so */
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	setenv("PERFBOT_DB_TIMEOUT", "0.3", 1);
	assert_int_equal(store_open(&s, dbpath, 0), 0);    /* reading is fine */
	double t0 = now();
	capture_start(&cap);
	assert_int_equal(store_begin(s), -1);
	char *msg = capture_end(&cap);
	double waited = now() - t0;
	assert_true(waited >= 0.29);
	assert_non_null(strstr(msg, "database is locked"));
	assert_non_null(strstr(msg, "gave up after 0.3 s"));
	free(msg);
	/* once the other writer is done, the same store writes */
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_commit(s), 0);
	store_close(s);
	sqlite3_close(db);
	unsetenv("PERFBOT_DB_TIMEOUT");
}

/* A matrix of nm metrics "m<i>" x ncols runs, value 100 * i + k. */
static void make_matrix(struct matrix *mx, int nm, int ncols, const char *prefix)
{
	matrix_init(mx);
	for (int k = 0; k < ncols; k++) {
		struct matrix col;
		matrix_init(&col);
		col.ncols = 1;
		for (int i = 0; i < nm; i++) {
			char name[64];
			snprintf(name, sizeof(name), "%s%d", prefix, i);
			struct metric *m = matrix_get_or_add(&col, name);
			m->v[0] = 100.0 * i + k;
			m->is_int[0] = true;
		}
		matrix_add_column(mx, &col, NULL);
		matrix_release(&col);
	}
}

static const char *const job_a[SJ_NR] = { "mytest", "_tmp_3s", "vm", "deb", "x86_64", "gcc" };
static const char *const job_b[SJ_NR] = { "hackbench", "50%-process", "vm", "deb", "x86_64", "gcc" };

static void fill_root(struct store_root *r, const char *const *job, const char *rev, const char *path,
		      const struct store_run *runs, int nr_runs, const struct matrix *mx)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < SJ_NR; i++)
		r->job[i] = job[i];
	r->rev = rev;
	r->path = path;
	r->signature = "sig1";
	r->runs = runs;
	r->nr_runs = nr_runs;
	r->mx = mx;
}

struct collect {
	int n;
	double sum;
	int nan;
	int incomplete;
	int64_t last_metric;
	bool ordered;
};

static int collect(const struct store_sample *sm, void *data)
{
	struct collect *c = data;
	if (sm->metric_id < c->last_metric)
		c->ordered = false;
	c->last_metric = sm->metric_id;
	c->n++;
	if (isnan(sm->value))
		c->nan++;
	else
		c->sum += sm->value;
	c->incomplete += sm->incomplete;
	return 0;
}

static int stop_at_two(const struct store_sample *sm, void *data)
{
	int *n = data;
	(void)sm;
	return ++*n == 2 ? 42 : 0;
}

/* store_metric_values: in run id order, only the run and value set */
struct values {
	int n;
	int64_t last_run;
	double sum;
	bool bare;
};

static int collect_value(const struct store_sample *sm, void *data)
{
	struct values *v = data;
	if (sm->run_id <= v->last_run)
		v->bare = false;
	if (sm->root_id || sm->job_id || sm->rev || sm->run_number != -1 || sm->incomplete)
		v->bare = false;
	v->last_run = sm->run_id;
	v->n++;
	v->sum += sm->value;
	return 0;
}

static void test_put_and_read(void **state)
{
	struct store *s;
	struct matrix mx, mx2;
	struct store_root r;
	struct store_run runs[3] = { { 0, false, "/t/a/c1/0" }, { 1, true, "/t/a/c1/1" }, { 2, false, "/t/a/c1/2" } };
	struct store_param params[2] = { { "runtime", "3s" }, { "nr_threads", "4" } };
	(void)state;

	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	make_matrix(&mx, 5, 3, "m");
	mx.m[4].v[2] = NAN;
	assert_int_equal(store_begin(s), 0);
	fill_root(&r, job_a, "c1", "/t/a/c1", runs, 3, &mx);
	r.params = params;
	r.nr_params = 2;
	assert_int_equal(store_put_root(s, &r), 0);
	fill_root(&r, job_a, "c2", "/t/a/c2", runs, 2, NULL);
	make_matrix(&mx2, 2, 2, "m");
	r.mx = &mx2;
	assert_int_equal(store_put_root(s, &r), 0);
	fill_root(&r, job_b, "c1", "/t/b/c1", runs, 1, NULL);
	struct matrix mx3;
	make_matrix(&mx3, 1, 1, "h");
	r.mx = &mx3;
	assert_int_equal(store_put_root(s, &r), 0);
	assert_int_equal(store_commit(s), 0);

	/* jobs, sorted by identity, with their parameters sorted by key */
	struct store_job_list jobs;
	assert_int_equal(store_jobs_load(s, &jobs), 0);
	assert_int_equal(jobs.nr, 2);
	assert_string_equal(jobs.jobs[0].field[SJ_TESTCASE], "hackbench");
	assert_string_equal(jobs.jobs[1].field[SJ_PATH_PARAMS], "_tmp_3s");
	assert_int_equal(jobs.jobs[1].nr_params, 2);
	assert_string_equal(jobs.jobs[1].params[0].key, "nr_threads");
	assert_string_equal(store_job_get(&jobs.jobs[1], "runtime"), "3s");
	assert_string_equal(store_job_get(&jobs.jobs[1], "compiler"), "gcc");
	assert_null(store_job_get(&jobs.jobs[1], "fs"));
	int64_t job_a_id = jobs.jobs[1].id;

	/* roots of job a, by rev; runs by number with flags and paths */
	struct store_root_list roots;
	assert_int_equal(store_job_roots(s, job_a_id, &roots), 0);
	assert_int_equal(roots.nr, 2);
	assert_string_equal(roots.roots[0].rev, "c1");
	assert_string_equal(roots.roots[1].path, "/t/a/c2");
	assert_int_equal(roots.roots[0].nr_runs, 3);
	assert_int_equal(roots.roots[0].runs[1].number, 1);
	assert_true(roots.roots[0].runs[1].incomplete);
	assert_false(roots.roots[0].runs[2].incomplete);
	assert_string_equal(roots.roots[0].runs[2].path, "/t/a/c1/2");

	/* one run's samples: 5 metrics in id order, NaN read back */
	struct collect c = { 0, 0, 0, 0, 0, true };
	assert_int_equal(store_run_samples(s, roots.roots[0].runs[2].id, collect, &c), 0);
	assert_int_equal(c.n, 5);
	assert_int_equal(c.nan, 1);
	assert_true(c.ordered);
	assert_true(c.sum == 2 + 102 + 202 + 302);
	/* a callback's non-zero return stops and is returned */
	int n = 0;
	assert_int_equal(store_run_samples(s, roots.roots[0].runs[0].id, stop_at_two, &n), 42);
	n = 0;
	assert_int_equal(store_metric_samples(s, 0, 0, stop_at_two, &n), 0);

	/* one metric across a job's roots, and across all jobs */
	int64_t m1, h0, none;
	assert_int_equal(store_metric_id(s, "m1", &m1), 1);
	assert_int_equal(store_metric_id(s, "h0", &h0), 1);
	assert_int_equal(store_metric_id(s, "nope", &none), 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_metric_samples(s, m1, job_a_id, collect, &c), 0);
	assert_int_equal(c.n, 5);        /* 3 runs of c1, 2 of c2 */
	assert_int_equal(c.incomplete, 2);  /* run 1 in both roots */
	assert_true(c.sum == 100 + 101 + 102 + 100 + 101);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_metric_samples(s, h0, 0, collect, &c), 0);
	assert_int_equal(c.n, 1);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_metric_samples(s, h0, job_a_id, collect, &c), 0);
	assert_int_equal(c.n, 0);

	/* one metric's values of every job, by run id, without the join */
	struct values v = { 0, 0, 0, true };
	assert_int_equal(store_metric_values(s, m1, collect_value, &v), 0);
	assert_int_equal(v.n, 5);        /* job a's runs; job b has no m1 */
	assert_true(v.sum == 100 + 101 + 102 + 100 + 101);
	assert_true(v.bare);
	memset(&v, 0, sizeof(v));
	v.bare = true;
	assert_int_equal(store_metric_values(s, h0, collect_value, &v), 0);
	assert_int_equal(v.n, 1);
	assert_true(v.bare);
	assert_true(v.last_run > roots.roots[1].runs[1].id);  /* job b's run, stored last */
	n = 0;
	assert_int_equal(store_metric_values(s, m1, stop_at_two, &n), 42);
	n = 0;
	assert_int_equal(store_metric_values(s, h0 + 1000, stop_at_two, &n), 0);
	assert_int_equal(n, 0);

	/* metric names, sorted */
	struct store_metric_list ml;
	assert_int_equal(store_metrics_load(s, &ml), 0);
	assert_int_equal(ml.nr, 6);
	assert_string_equal(ml.metrics[0].name, "h0");
	assert_string_equal(ml.metrics[5].name, "m4");
	store_metric_list_release(&ml);

	store_root_list_release(&roots);
	store_job_list_release(&jobs);
	matrix_release(&mx);
	matrix_release(&mx2);
	matrix_release(&mx3);
	store_close(s);
}

static int count_paths(const char *path, void *data)
{
	struct strbuf *sb = data;
	strbuf_addf(sb, "%s;", path);
	return 0;
}

static void test_replace_delete_paths(void **state)
{
	struct store *s;
	struct matrix mx, small;
	struct store_root r;
	struct store_run runs[3] = { { 0, false, "p0" }, { 1, false, "p1" }, { 2, false, "p2" } };
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	make_matrix(&mx, 4, 3, "m");
	make_matrix(&small, 2, 1, "m");
	assert_int_equal(store_begin(s), 0);
	fill_root(&r, job_a, "c1", "/t/ab", runs, 3, &mx);
	assert_int_equal(store_put_root(s, &r), 0);
	fill_root(&r, job_a, "c1", "/t/ab/x", runs, 3, &mx);
	assert_int_equal(store_put_root(s, &r), 0);
	fill_root(&r, job_a, "c1", "/t/abc", runs, 3, &mx);
	assert_int_equal(store_put_root(s, &r), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM sample"), 36);

	/* storing a root again replaces its runs and samples */
	assert_int_equal(store_begin(s), 0);
	fill_root(&r, job_a, "c9", "/t/ab", runs, 1, &small);
	r.signature = "sig2";
	assert_int_equal(store_put_root(s, &r), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM sample"), 26);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM run"), 7);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM result_root"), 3);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM job"), 1);
	assert_int_equal(store_root_signature(s, "/t/ab", &sb), 1);
	assert_string_equal(sb.buf, "sig2");
	assert_int_equal(store_root_signature(s, "/t/none", &sb), 0);
	assert_string_equal(sb.buf, "");

	/* a mismatch of runs and columns is refused before anything is written */
	struct stderr_capture cap;
	fill_root(&r, job_a, "c1", "/t/bad", runs, 2, &mx);
	capture_start(&cap);
	assert_int_equal(store_put_root(s, &r), -1);
	free(capture_end(&cap));

	/* paths under a dir: the dir itself and below, not its namesakes */
	strbuf_reset(&sb);
	assert_int_equal(store_each_root_path(s, "/t/ab", count_paths, &sb), 0);
	assert_string_equal(sb.buf, "/t/ab;/t/ab/x;");
	strbuf_reset(&sb);
	assert_int_equal(store_each_root_path(s, "", count_paths, &sb), 0);
	assert_string_equal(sb.buf, "/t/ab;/t/ab/x;/t/abc;");

	/* deleting a root takes its runs and samples */
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_delete_root(s, "/t/ab/x"), 1);
	assert_int_equal(store_delete_root(s, "/t/ab/x"), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM sample"), 14);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM run"), 4);

	matrix_release(&mx);
	matrix_release(&small);
	strbuf_release(&sb);
	store_close(s);
}

static void test_rollback(void **state)
{
	struct store *s;
	struct matrix mx;
	struct store_root r;
	struct store_run runs[1] = { { 0, false, "p0" } };
	int64_t id;
	(void)state;

	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	make_matrix(&mx, 3, 1, "rolled");
	assert_int_equal(store_begin(s), 0);
	fill_root(&r, job_a, "c1", "/t/r", runs, 1, &mx);
	assert_int_equal(store_put_root(s, &r), 0);
	assert_int_equal(store_metric_id(s, "rolled0", &id), 1);
	store_rollback(s);
	/* the interned names went with the transaction, also from the cache */
	assert_int_equal(store_metric_id(s, "rolled0", &id), 0);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM result_root"), 0);
	/* and storing them again works */
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_put_root(s, &r), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM sample s JOIN metric m ON m.id = s.metric_id"), 3);
	/* closing with an open transaction rolls it back */
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_delete_root(s, "/t/r"), 1);
	store_close(s);
	assert_int_equal(raw_int(dbpath, "SELECT count(*) FROM result_root"), 1);
	matrix_release(&mx);
}

/* $n parameters reach the right place whatever their order in the SQL. */
static void test_dollar_params(void **state)
{
	struct store *s;
	struct store_stmt *st;
	(void)state;
	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	st = s->be->prepare(s, "SELECT $2 || '-' || $1 || '-' || $2");
	assert_non_null(st);
	s->be->bind_text(st, 1, "one");
	s->be->bind_text(st, 2, "two");
	assert_int_equal(s->be->step(st), STORE_ROW);
	assert_string_equal(s->be->column_text(st, 0), "two-one-two");
	s->be->finalize(st);
	/* a bad query names the store */
	struct stderr_capture cap;
	capture_start(&cap);
	assert_null(s->be->prepare(s, "SELEC nothing"));
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, dbpath));
	free(msg);
	store_close(s);
}

/* --- PostgreSQL ----------------------------------------------------------- */

static char pgdb[64];            /* the database use_pg made */

/* Point dbpath at a fresh lab database (skips the test without a server). */
static void use_pg(void)
{
	char *db = lab_test_db(), *url = lab_test_conninfo(db, "postgres");
	snprintf(dbpath, sizeof(dbpath), "%s", url);
	snprintf(pgdb, sizeof(pgdb), "%s", db);
	free(url);
	free(db);
}

/* The same tests on PostgreSQL. */
#define ON_PG(test) static void test##_pg(void **state) { use_pg(); test(state); }
ON_PG(test_put_and_read)
ON_PG(test_replace_delete_paths)
ON_PG(test_rollback)
ON_PG(test_dollar_params)

static void test_pg_open(void **state)
{
	struct store *s;
	char *msg, *db, *url;
	(void)state;

	/* a database without `lab init` says to run it */
	db = lab_test_empty_db();
	url = lab_test_conninfo(db, "postgres");
	msg = open_fails(url, STORE_CREATE);
	assert_non_null(strstr(msg, "no perfbot schema: run 'perfbot lab init --db URL'"));
	free(msg);
	free(url);
	free(db);

	/* one with it opens on the postgresql backend, at its version */
	use_pg();
	assert_int_equal(store_open(&s, dbpath, 0), 0);
	assert_string_equal(store_backend_name(s), "postgresql");
	assert_int_equal(store_schema_version(s), store_pg_backend.nr_migrations);
	store_close(s);
	/* a newer schema is refused, and left alone */
	assert_int_equal(store_pg_backend.nr_migrations, STORE_SCHEMA_VERSION);
	raw_sql(dbpath, "UPDATE schema_version SET version = 3 WHERE component = 'store'");
	msg = open_fails(dbpath, 0);
	assert_non_null(strstr(msg, "has schema version 3, newer than this perfbot's 2"));
	free(msg);
	assert_int_equal(raw_int(dbpath, "SELECT version FROM schema_version WHERE component = 'store'"), 3);
	/* an older one needs the admin: other logins may not migrate */
	raw_sql(dbpath, "UPDATE schema_version SET version = 0 WHERE component = 'store'");
	url = lab_test_conninfo(pgdb, TEST_SUBMITTER);
	msg = open_fails(url, 0);
	assert_non_null(strstr(msg, "this login's roles do not allow it"));
	free(msg);
	free(url);

	/* the password of a URL stays out of messages */
	msg = open_fails("postgresql://u:secret@127.0.0.1:1/x?connect_timeout=1", 0);
	assert_null(strstr(msg, "secret"));
	assert_non_null(strstr(msg, "postgresql://u:***@127.0.0.1:1/x"));
	free(msg);
	msg = open_fails("postgresql://127.0.0.1:1/x?password=secret&connect_timeout=1", 0);
	assert_null(strstr(msg, "secret"));
	free(msg);
}

/* The submitter reads the store; only the admin (and the workers'
 * upload functions) write it. */
static void test_pg_roles(void **state)
{
	struct store *s;
	struct matrix mx;
	struct store_root r;
	struct store_run runs[1] = { { 0, false, "p0" } };
	struct store_job_list jobs;
	char *url;
	(void)state;

	use_pg();
	assert_int_equal(store_open(&s, dbpath, 0), 0);
	make_matrix(&mx, 2, 1, "m");
	fill_root(&r, job_a, "c1", "/t/r", runs, 1, &mx);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_put_root(s, &r), 0);
	assert_int_equal(store_commit(s), 0);
	store_close(s);

	url = lab_test_conninfo(pgdb, TEST_SUBMITTER);
	assert_int_equal(store_open(&s, url, 0), 0);
	assert_int_equal(store_jobs_load(s, &jobs), 0);
	assert_int_equal(jobs.nr, 1);
	store_job_list_release(&jobs);
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_put_root(s, &r), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "permission denied"));
	free(msg);
	store_rollback(s);
	store_close(s);

	free(url);
	url = lab_test_conninfo(pgdb, TEST_BOX1);
	assert_int_equal(store_open(&s, url, 0), 0);
	capture_start(&cap);
	assert_int_equal(store_jobs_load(s, &jobs), -1);
	free(capture_end(&cap));
	store_close(s);
	free(url);
	matrix_release(&mx);
}

/* Both backends' migrations as the Makefile embeds them from
 * src/store/{sqlite,pg}/: versions 1..N in order, comment and blank lines
 * left out, and the role names C grants by (pg/schema.h) spelled the same
 * in the SQL.  No server needed. */
static void check_embedded(const struct store_migration *m, int nr)
{
	assert_int_equal(nr, STORE_SCHEMA_VERSION);
	for (int i = 0; i < nr; i++) {
		const char *sql = m[i].sql;
		assert_int_equal(m[i].version, i + 1);
		assert_true(*sql && sql[strlen(sql) - 1] == '\n');
		for (const char *l = sql; *l; l = strchr(l, '\n') + 1) {
			const char *t = l + strspn(l, " \t");
			assert_true(*t != '\n' && strncmp(t, "--", 2));
		}
	}
}

static void test_migrations_embedded_as_written(void **state)
{
	(void)state;
	check_embedded(store_sqlite_migrations, STORE_SQLITE_NR_MIGRATIONS);
	check_embedded(store_pg_migrations, STORE_PG_NR_MIGRATIONS);
	assert_ptr_equal(store_pg_backend.migrations, store_pg_migrations);
	assert_int_equal(store_pg_backend.nr_migrations, STORE_PG_NR_MIGRATIONS);
	assert_true(!strncmp(store_sqlite_migrations[0].sql, "CREATE TABLE job (\n", 19));
	assert_true(!strncmp(store_pg_migrations[0].sql, "CREATE TABLE perfbot.job (\n", 27));
	assert_non_null(strstr(store_pg_migrations[0].sql,
			       "perfbot.metric, perfbot.sample TO " LAB_ROLE_SUBMITTER ";\n"));
	assert_non_null(strstr(store_pg_migrations[1].sql,
			       "GRANT USAGE ON SEQUENCE perfbot.reported_id_seq TO "
			       LAB_ROLE_SUBMITTER ";\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrations_embedded_as_written),
		cmocka_unit_test(test_default_target),
		cmocka_unit_test(test_busy_timeout_env),
		cmocka_unit_test_setup_teardown(test_open_create_and_migrate, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_open_refusals, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_locked, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_put_and_read, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_replace_delete_paths, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rollback, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dollar_params, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_put_and_read_pg, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_replace_delete_paths_pg, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rollback_pg, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dollar_params_pg, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_pg_open, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_pg_roles, setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
