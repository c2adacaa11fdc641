/*
 * Uploads and fetches of a job's results on a real PostgreSQL server:
 * what lands in the store and beside it, that a late or malformed upload
 * changes nothing, and that a fetch gives back the files byte for byte.
 */
#include "lab_helpers.h"
#include "lab/queue.h"
#include "lab/upload.h"
#include "result/matrix.h"
#include "util/fileio.h"

#include <math.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <zlib.h>

/* Entries of dir whose names start with prefix (0 when dir is missing). */
static int count_entries(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

#define REL "mytest/defaults/box/debian/x86_64-local/gcc/c0ffee"

struct ctx {
	char *db;
	char *tmp;
	struct strbuf base, root;
	struct pg box1, box2, sub;
};

static int setup(void **state)
{
	struct ctx *c = xcalloc(1, sizeof(*c));
	struct pg init = PG_INIT;

	c->box1 = c->box2 = c->sub = init;
	strbuf_init(&c->base, 0);
	strbuf_init(&c->root, 0);
	c->tmp = test_tmpdir("upload");
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	pg_close(&c->box1);
	pg_close(&c->box2);
	pg_close(&c->sub);
	test_rm_rf(c->tmp);
	free(c->tmp);
	free(c->db);
	strbuf_release(&c->base);
	strbuf_release(&c->root);
	free(c);
	return 0;
}

static void put(const char *dir, const char *name, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	path_join(&p, dir, name);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
}

/* A result root of two runs as run_job leaves it, with files that must
 * and must not travel. */
static void make_result(struct ctx *c)
{
	struct strbuf run = STRBUF_INIT;

	strbuf_addf(&c->base, "%s/result", c->tmp);
	strbuf_addf(&c->root, "%s/%s", c->base.buf, REL);
	for (int i = 0; i < 2; i++) {
		strbuf_reset(&run);
		strbuf_addf(&run, "%s/%d", c->root.buf, i);
		assert_int_equal(mkdir_p(run.buf, 0777), 0);
		put(run.buf, "stats.json", i ? "{\n  \"mytest.score\": 11,\n  \"odd\\\"name\": NaN,\n"
			"  \"last_state.is_incomplete_run\": 1\n}"
			: "{\n  \"mytest.score\": 10.5,\n  \"big\": 1e300,\n  \"inf\": Infinity,\n"
			"  \"last_state.is_incomplete_run\": 0\n}");
		put(run.buf, "vmstat", "time: 1\nprocs r b\n 1 0\n");
		put(run.buf, "job.yaml", "testcase: mytest\nruntime: 3s\ncommit: c0ffee\n"
		    "mytest:\n  nr_threads: 4\n");
		put(run.buf, "perf.data", "binary samples, left out");
		put(run.buf, ".hidden", "left out");
	}
	/* a run killed half-way: never uploaded */
	strbuf_reset(&run);
	strbuf_addf(&run, "%s/.run-2.123", c->root.buf);
	assert_int_equal(mkdir_p(run.buf, 0777), 0);
	put(run.buf, "stats.json", "{}");
	put(c->root.buf, "matrix.json", "{\n  \"mytest.score\": [10.5, 11]\n}");
	strbuf_release(&run);
}

/* A fresh database, a submitted job claimed by box1; returns its id. */
static long long start(void **state, struct queue_claim *q)
{
	struct ctx *c = *state;
	struct queue_job j = { "a.yaml", "testcase: mytest\n", "c0ffee", NULL, NULL, NULL, 5, 2, 3, NULL };
	long long id;

	c->db = lab_test_db();
	lab_test_open(&c->box1, c->db, TEST_BOX1);
	lab_test_open(&c->box2, c->db, TEST_BOX2);
	lab_test_open(&c->sub, c->db, TEST_SUBMITTER);
	make_result(c);
	assert_int_equal(queue_submit(&c->sub, &j, &id), 0);
	assert_int_equal(queue_claim(&c->box1, "g", "h:1", 60, q), 1);
	assert_int_equal(q->id, id);
	return id;
}

static int count(struct ctx *c, const char *sql)
{
	char *v = lab_test_value(c->db, sql);
	int n = atoi(v);
	free(v);
	return n;
}

static char *value(struct ctx *c, const char *sql)
{
	return lab_test_value(c->db, sql);
}

static void test_upload_completes_the_job(void **state)
{
	struct ctx *c;
	struct queue_claim q;
	long long id = start(state, &q);
	char *v;

	c = *state;
	assert_int_equal(pg_exec(&c->sub, "LISTEN perfbot_done", 0, NULL), 0);
	/* (the test server's default is off: a real server's, for the check below) */
	assert_int_equal(pg_exec(&c->box1, "SET synchronous_commit = on", 0, NULL), 0);
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	v = value(c, "SELECT state FROM perfbot.queue");
	assert_string_equal(v, "done");
	free(v);
	v = value(c, "SELECT lease_expires_at IS NULL AND finished_at IS NOT NULL FROM perfbot.queue");
	assert_string_equal(v, "t");
	free(v);
	/* the store: the job's identity from the result root's components */
	v = value(c, "SELECT concat_ws('|', testcase, path_params, tbox_group, rootfs, kconfig, compiler)"
		  " FROM perfbot.job");
	assert_string_equal(v, "mytest|defaults|box|debian|x86_64-local|gcc");
	free(v);
	v = value(c, "SELECT rev || ' ' || path FROM perfbot.result_root");
	assert_string_equal(v, "c0ffee lab:1/" REL);
	free(v);
	v = value(c, "SELECT string_agg(number || ':' || incomplete || ':' || path, ' ' ORDER BY number)"
		  " FROM perfbot.run");
	assert_string_equal(v, "0:0:lab:1/" REL "/0 1:1:lab:1/" REL "/1");
	free(v);
	/* every value, NaN as NULL, the quote in a name kept */
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.sample"), 7);
	v = value(c, "SELECT string_agg(m.name || '=' || coalesce(s.value::text, 'NULL'), ' ' "
		  "ORDER BY r.number, m.name) FROM perfbot.sample s JOIN perfbot.metric m ON "
		  "m.id = s.metric_id JOIN perfbot.run r ON r.id = s.run_id");
	assert_string_equal(v, "big=1e+300 inf=Infinity last_state.is_incomplete_run=0 "
			    "mytest.score=10.5 last_state.is_incomplete_run=1 mytest.score=11 "
			    "odd\"name=NULL");
	free(v);
	/* the files: each run's, and the root's; not perf.data, dot files,
	 * nor the half-made run */
	v = value(c, "SELECT string_agg(run || '/' || name || ':' || size, ' ' ORDER BY run, name) "
		  "FROM perfbot.upload_file");
	assert_string_equal(v, "-1/matrix.json:32 0/job.yaml:68 0/stats.json:98 0/vmstat:23 "
			    "1/job.yaml:68 1/stats.json:81 1/vmstat:23");
	free(v);
	/* compressed at zlib's fastest level: its header's FLEVEL bits 0
	 * (the default level's are 2) */
	v = value(c, "SELECT string_agg(DISTINCT (get_byte(data, 1) >> 6)::text, ',') "
		  "FROM perfbot.upload_file");
	assert_string_equal(v, "0");
	free(v);
	/* the job's parameters, as perfbot index keeps them */
	v = value(c, "SELECT string_agg(name || '=' || value, ' ' ORDER BY name) FROM perfbot.job_param");
	assert_string_equal(v, "nr_threads=4 runtime=3s");
	free(v);
	v = value(c, "SELECT box || ' ' || attempt FROM perfbot.upload");
	assert_string_equal(v, TEST_BOX1 " 1");
	free(v);
	/* the announcement's transaction need not reach the disk; the
	 * session's next ones (the next upload) still must */
	PGresult *r = pg_query(&c->box1, "SELECT current_setting('synchronous_commit')", 0, NULL);
	assert_non_null(r);
	assert_string_equal(PQgetvalue(r, 0, 0), "on");
	PQclear(r);
	/* and the submitter heard it */
	assert_int_equal(PQconsumeInput(c->sub.conn), 1);
	for (int i = 0; i < 50; i++) {
		PGnotify *n = PQnotifies(c->sub.conn);
		if (n) {
			assert_string_equal(n->relname, "perfbot_done");
			assert_string_equal(n->extra, "1");
			PQfreemem(n);
			break;
		}
		assert_true(i < 49);
		usleep(100000);
		PQconsumeInput(c->sub.conn);
	}
	queue_claim_release(&q);
}

static void test_upload_again_after_done_adds_nothing(void **state)
{
	struct queue_claim q;
	long long id = start(state, &q);
	struct ctx *c = *state;

	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	/* the COMMIT went through but its answer was lost: the retry is a no-op */
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.run"), 2);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.upload_file"), 7);
	/* another box, or another attempt, is refused */
	c->box2.quiet = true;
	assert_int_equal(lab_upload(&c->box2, id, 1, c->base.buf, c->root.buf), 1);
	c->box1.quiet = true;
	assert_int_equal(lab_upload(&c->box1, id, 2, c->base.buf, c->root.buf), 1);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.result_root"), 1);
	queue_claim_release(&q);
}

static void test_late_upload_is_refused(void **state)
{
	struct queue_claim q, q2;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct stderr_capture cap;
	char *msg;

	lab_test_sql(c->db, "UPDATE perfbot.queue SET lease_expires_at = now() - interval '1s'");
	/* expired but not taken yet: refused all the same */
	capture_start(&cap);
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 1);
	msg = capture_end(&cap);
	assert_string_equal(msg, "perfbot: job 1 attempt 1 is not held by " TEST_BOX1 "\n");
	free(msg);
	assert_int_equal(queue_claim(&c->box2, "g", "h:2", 60, &q2), 1);
	c->box1.quiet = true;
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 1);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.upload"), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.result_root"), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.sample"), 0);
	/* the new holder's upload is the one */
	assert_int_equal(lab_upload(&c->box2, id, 2, c->base.buf, c->root.buf), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.upload WHERE attempt = 2"), 1);
	queue_claim_release(&q);
	queue_claim_release(&q2);
}

/* Boxes uploading results of the same job (one testcase and parameters,
 * other commits) at once: none waits for another's transaction, and a
 * parameter that changed is still updated. */
static void test_uploads_of_one_job_do_not_wait(void **state)
{
	struct queue_claim q, q2, q3;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct queue_job j = { "b.yaml", "testcase: mytest\n", "c0ffee", NULL, NULL, NULL, 5, 1, 3, NULL };
	struct strbuf p = STRBUF_INIT;
	long long second, third;
	char *v;

	/* the store's job and its parameters exist: an upload committed */
	assert_int_equal(queue_submit(&c->sub, &j, &second), 0);
	assert_int_equal(queue_submit(&c->sub, &j, &third), 0);
	assert_int_equal(queue_claim(&c->box2, "g", "h:2", 60, &q2), 1);
	assert_int_equal(lab_upload(&c->box2, second, 1, c->base.buf, c->root.buf), 0);
	/* box1's upload of the same job, left open */
	assert_int_equal(pg_exec(&c->box1, "BEGIN", 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_begin(1, 1, '" REL "', "
				 "'{nr_threads,4,runtime,3s}')", 0, NULL), 0);
	/* box2's goes through meanwhile (it would time out waiting for a
	 * lock box1 holds) */
	assert_int_equal(queue_claim(&c->box2, "g", "h:2", 60, &q3), 1);
	assert_int_equal(q3.id, third);
	assert_int_equal(pg_exec(&c->box2, "SET lock_timeout = '3s'", 0, NULL), 0);
	assert_int_equal(lab_upload(&c->box2, third, 1, c->base.buf, c->root.buf), 0);
	assert_int_equal(pg_exec(&c->box2, "RESET lock_timeout", 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, "ROLLBACK", 0, NULL), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.job"), 1);
	/* a changed parameter is updated, the other left */
	for (int i = 0; i < 2; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%d", c->root.buf, i);
		put(p.buf, "job.yaml", "testcase: mytest\nruntime: 5s\ncommit: c0ffee\n"
		    "mytest:\n  nr_threads: 4\n");
	}
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	v = value(c, "SELECT string_agg(name || '=' || value, ' ' ORDER BY name) FROM perfbot.job_param");
	assert_string_equal(v, "nr_threads=4 runtime=5s");
	free(v);
	strbuf_release(&p);
	queue_claim_release(&q);
	queue_claim_release(&q2);
	queue_claim_release(&q3);
}

/* A malformed call, as a buggy or hostile worker would make it, inside a
 * transaction rolled back afterwards as lab_upload does. */
static void assert_malformed(struct ctx *c, const char *sql, const char *msg)
{
	c->box1.quiet = true;
	assert_int_equal(pg_exec(&c->box1, "BEGIN", 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_begin(1, 1, '" REL "', '{}')", 0,
				 NULL), 0);
	assert_int_equal(pg_exec_script(&c->box1, sql), -1);
	if (!pg_failed_with(&c->box1, "PBU01") || !strstr(c->box1.err.buf, msg))
		fail_msg("'%s' gave %s: %s", sql, c->box1.sqlstate, c->box1.err.buf);
	assert_int_equal(pg_exec(&c->box1, "ROLLBACK", 0, NULL), 0);
	c->box1.quiet = false;
}

static void test_malformed_upload_changes_nothing(void **state)
{
	struct queue_claim q, q2;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct queue_job j = { "b.yaml", "testcase: mytest\n", "c0ffee", NULL, NULL, NULL, 5, 1, 3, NULL };
	long long other;
	char *before, *after;

	/* something stored already, which must stay as it is */
	assert_int_equal(queue_submit(&c->sub, &j, &other), 0);
	assert_int_equal(queue_claim(&c->box2, "g", "h:2", 60, &q2), 1);
	assert_int_equal(lab_upload(&c->box2, other, 1, c->base.buf, c->root.buf), 0);
	const char *snapshot = "SELECT md5(string_agg(x, ',' ORDER BY x)) FROM ("
		"SELECT s.metric_id || ':' || s.run_id || ':' || coalesce(s.value::text, '') x "
		"FROM perfbot.sample s UNION ALL SELECT name || md5(data) FROM perfbot.upload_file "
		"UNION ALL SELECT path FROM perfbot.run UNION ALL SELECT state || id FROM perfbot.queue) t";
	before = value(c, snapshot);

	assert_malformed(c, "SELECT perfbot.upload_run(1, 1, 0, '{a,b}', '{1}')",
			 "2 metric names for 1 values");
	assert_malformed(c, "SELECT perfbot.upload_run(1, 1, 0, '{}', '{}')",
			 "0 metric names for 0 values");
	assert_malformed(c, "SELECT perfbot.upload_run(1, 1, 0, '{a,a}', '{1,2}')",
			 "a metric is NULL, empty or twice");
	assert_malformed(c, "SELECT perfbot.upload_run(1, 1, 0, '{a,NULL}', '{1,2}')",
			 "a metric is NULL, empty or twice");
	assert_malformed(c, "SELECT perfbot.upload_run(1, 1, 0, '{a}', '{NULL}')",
			 "a metric is NULL, empty or twice");
	assert_malformed(c, "SELECT perfbot.upload_run(1, 1, -1, '{a}', '{1}')", "bad run number -1");
	assert_malformed(c, "SELECT perfbot.upload_file(1, 1, 0, 'x', 1, 'x')",
			 "file x of run 0, which was not uploaded");
	assert_malformed(c, "SELECT perfbot.upload_run(1, 1, 0, '{a}', '{1}');"
			 "SELECT perfbot.upload_file(1, 1, 0, '../x', 1, 'x')", "bad file name ../x");
	assert_malformed(c, "SELECT perfbot.upload_file(1, 1, -1, 'a/b', 1, 'x')", "bad file name a/b");
	assert_malformed(c, "SELECT perfbot.upload_file(1, 1, -1, '..', 1, 'x')", "bad file name ..");
	assert_malformed(c, "SELECT perfbot.upload_file(1, 1, -1, 'x', -1, 'x')", "without data");
	assert_malformed(c, "SELECT perfbot.complete(1, 1)", "no run uploaded");
	/* a bad result root fails at the first call */
	const char *roots[] = { "a/b", "/" REL, REL "/x", "a/../c/d/e/f/g", "a//c/d/e/f/g" };
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		const char *p[1] = { roots[i] };
		c->box1.quiet = true;
		assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_begin(1, 1, $1, '{}')", 1, p),
				 -1);
		assert_true(pg_failed_with(&c->box1, "PBU01"));
		assert_non_null(strstr(c->box1.err.buf, "bad result root"));
	}
	c->box1.quiet = true;
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_begin(1, 1, '" REL "', '{k}')", 0,
				 NULL), -1);
	assert_non_null(strstr(c->box1.err.buf, "not name, value pairs"));

	after = value(c, snapshot);
	assert_string_equal(before, after);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.upload"), 1);
	free(before);
	free(after);
	/* and the job is still box1's to upload properly */
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	queue_claim_release(&q);
	queue_claim_release(&q2);
}

/* upload_job called by hand as box1 for job 1 with args (everything
 * after the job and attempt), in a transaction rolled back after. */
static void assert_job_malformed(struct ctx *c, const char *args, const char *state,
				 const char *msg)
{
	struct strbuf sql = STRBUF_INIT;

	strbuf_addf(&sql, "SELECT perfbot.upload_job(1, 1, %s)", args);
	c->box1.quiet = true;
	assert_int_equal(pg_exec(&c->box1, "BEGIN", 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, sql.buf, 0, NULL), -1);
	if (!pg_failed_with(&c->box1, state) || !strstr(c->box1.err.buf, msg))
		fail_msg("'%s' gave %s: %s", sql.buf, c->box1.sqlstate, c->box1.err.buf);
	assert_int_equal(pg_exec(&c->box1, "ROLLBACK", 0, NULL), 0);
	c->box1.quiet = false;
	strbuf_release(&sql);
}

#define ROOT "'" REL "', '{}', "
#define ONE_RUN ROOT "'{0}', '{1}', '{mytest.score}', '{1}', "
#define NO_FILE "'{}', '{}', '{}', '{}'"

/* upload_job (lab schema 3) refuses what upload_begin, upload_run,
 * upload_file and complete refuse, whole: nothing stored changes, and
 * the job is still the holder's to upload properly. */
static void test_malformed_upload_job_changes_nothing(void **state)
{
	struct queue_claim q, q2;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct queue_job j = { "b.yaml", "testcase: mytest\n", "c0ffee", NULL, NULL, NULL, 5, 1, 3, NULL };
	long long other;
	char *before, *after;

	assert_int_equal(queue_submit(&c->sub, &j, &other), 0);
	assert_int_equal(queue_claim(&c->box2, "g", "h:2", 60, &q2), 1);
	assert_int_equal(lab_upload(&c->box2, other, 1, c->base.buf, c->root.buf), 0);
	const char *snapshot = "SELECT md5(string_agg(x, ',' ORDER BY x)) FROM ("
		"SELECT s.metric_id || ':' || s.run_id || ':' || coalesce(s.value::text, '') x "
		"FROM perfbot.sample s UNION ALL SELECT name || md5(data) FROM perfbot.upload_file "
		"UNION ALL SELECT name FROM perfbot.metric UNION ALL SELECT path FROM perfbot.run "
		"UNION ALL SELECT state || id FROM perfbot.queue) t";
	before = value(c, snapshot);

	/* the result root and parameters */
	assert_job_malformed(c, "'a/b', '{}', '{0}', '{1}', '{m}', '{1}', " NO_FILE, "PBU01",
			     "bad result root a/b (expected 7 path components");
	assert_job_malformed(c, "'a/../c/d/e/f/g', '{}', '{0}', '{1}', '{m}', '{1}', " NO_FILE,
			     "PBU01", "bad result root");
	assert_job_malformed(c, "'a//c/d/e/f/g', '{}', '{0}', '{1}', '{m}', '{1}', " NO_FILE,
			     "PBU01", "bad result root");
	assert_job_malformed(c, "'" REL "', '{k}', '{0}', '{1}', '{m}', '{1}', " NO_FILE, "PBU01",
			     "not name, value pairs");
	/* the runs and their stats */
	assert_job_malformed(c, ROOT "'{}', '{}', '{}', '{}', " NO_FILE, "PBU01", "no run uploaded");
	assert_job_malformed(c, ROOT "'{0}', '{1,1}', '{a,b}', '{1,2}', " NO_FILE, "PBU01",
			     "1 runs, 2 metric counts, 2 metric names, 2 values");
	assert_job_malformed(c, ROOT "'{0}', '{2}', '{a,b}', '{1}', " NO_FILE, "PBU01",
			     "1 runs, 1 metric counts, 2 metric names, 1 values");
	assert_job_malformed(c, ROOT "'{0}', '{1}', '{a,b}', '{1,2}', " NO_FILE, "PBU01",
			     "the runs have 1 metrics, 2 were sent");
	assert_job_malformed(c, ROOT "'{-1}', '{1}', '{a}', '{1}', " NO_FILE, "PBU01",
			     "bad run number -1");
	assert_job_malformed(c, ROOT "'{100001}', '{1}', '{a}', '{1}', " NO_FILE, "PBU01",
			     "bad run number 100001");
	assert_job_malformed(c, ROOT "'{0,0}', '{1,1}', '{a,b}', '{1,2}', " NO_FILE, "PBU01",
			     "bad run number 0 (or twice)");
	assert_job_malformed(c, ROOT "'{0,1}', '{2,0}', '{a,b}', '{1,2}', " NO_FILE, "PBU01",
			     "job 1 run 1: no metric");
	assert_job_malformed(c, ROOT "'{0}', '{2}', '{a,NULL}', '{1,2}', " NO_FILE, "PBU01",
			     "a metric is NULL, empty or twice");
	assert_job_malformed(c, ROOT "'{0}', '{2}', '{a,\"\"}', '{1,2}', " NO_FILE, "PBU01",
			     "a metric is NULL, empty or twice");
	assert_job_malformed(c, ROOT "'{0}', '{1}', '{a}', '{NULL}', " NO_FILE, "PBU01",
			     "a metric is NULL, empty or twice");
	/* twice: a known name (box2 stored it), a new one, in the second run */
	assert_job_malformed(c, ROOT "'{0}', '{2}', '{mytest.score,mytest.score}', '{1,2}', " NO_FILE,
			     "PBU01", "a metric is NULL, empty or twice");
	assert_job_malformed(c, ROOT "'{0,1}', '{1,2}', '{a,zz,zz}', '{1,2,3}', " NO_FILE, "PBU01",
			     "a metric is NULL, empty or twice");
	/* the files */
	assert_job_malformed(c, ONE_RUN "'{0}', '{../x}', '{1}', '{x}'", "PBU01",
			     "bad file name ../x");
	assert_job_malformed(c, ONE_RUN "'{-1}', '{a/b}', '{1}', '{x}'", "PBU01", "bad file name a/b");
	assert_job_malformed(c, ONE_RUN "'{-1}', '{..}', '{1}', '{x}'", "PBU01", "bad file name ..");
	assert_job_malformed(c, ONE_RUN "'{-1}', '{NULL}', '{1}', '{x}'", "PBU01",
			     "bad file name NULL");
	assert_job_malformed(c, ONE_RUN "'{5}', '{x}', '{1}', '{x}'", "PBU01",
			     "file x of run 5, which was not uploaded");
	assert_job_malformed(c, ONE_RUN "'{-1}', '{x}', '{-1}', '{x}'", "PBU01", "file x without data");
	assert_job_malformed(c, ONE_RUN "'{-1,0}', '{x,y}', '{1,1}', '{x,NULL}'", "PBU01",
			     "file y without data");
	assert_job_malformed(c, ONE_RUN "'{}', '{x}', '{1}', '{x}'", "PBU01",
			     "1 file names, 0 runs, 1 sizes, 1 data");
	assert_job_malformed(c, ONE_RUN "'{0,0}', '{x,x}', '{1,1}', '{x,y}'", "PBU01",
			     "a file is there twice");
	/* not the caller's: another box, another attempt, a job not there */
	assert_int_equal(pg_exec(&c->box2, "BEGIN", 0, NULL), 0);
	c->box2.quiet = true;
	assert_int_equal(pg_exec(&c->box2, "SELECT perfbot.upload_job(1, 1, " ONE_RUN NO_FILE ")",
				 0, NULL), -1);
	assert_true(pg_failed_with(&c->box2, "PBL01"));
	assert_string_equal(c->box2.err.buf, "job 1 attempt 1 is not held by " TEST_BOX2);
	assert_int_equal(pg_exec(&c->box2, "ROLLBACK", 0, NULL), 0);
	c->box2.quiet = false;
	after = value(c, snapshot);
	assert_string_equal(before, after);
	free(before);
	free(after);

	/* after all that, box1's upload is the one */
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.upload"), 2);
	queue_claim_release(&q);
	queue_claim_release(&q2);
}

/* A lease that expired, even not taken again, refuses upload_job, and
 * a job that is done takes nothing more, from its holder either. */
static void test_upload_job_needs_a_live_lease(void **state)
{
	struct queue_claim q;
	long long id = start(state, &q);
	struct ctx *c = *state;
	char *v;

	lab_test_sql(c->db, "UPDATE perfbot.queue SET lease_expires_at = now() - interval '1s'");
	assert_job_malformed(c, ONE_RUN NO_FILE, "PBL01", "job 1 attempt 1 is not held by " TEST_BOX1);
	assert_job_malformed(c, "'x', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL", "PBL01",
			     "is not held by");
	lab_test_sql(c->db, "UPDATE perfbot.queue SET lease_expires_at = now() + interval '60s'");
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_job(1, 1, " ONE_RUN NO_FILE ")",
				 0, NULL), 0);
	v = value(c, "SELECT state FROM perfbot.queue");
	assert_string_equal(v, "done");
	free(v);
	/* done: the same attempt's call again says so and adds nothing;
	 * anyone else's is refused */
	v = value(c, "SELECT count(*) FROM perfbot.sample");
	assert_string_equal(v, "1");
	free(v);
	PGresult *r = pg_query(&c->box1, "SELECT perfbot.upload_job(1, 1, " ONE_RUN NO_FILE ")", 0,
			       NULL);
	assert_non_null(r);
	assert_string_equal(PQgetvalue(r, 0, 0), "done");
	PQclear(r);
	c->box2.quiet = true;
	assert_int_equal(pg_exec(&c->box2, "SELECT perfbot.upload_job(1, 1, 'x', NULL, NULL, NULL, "
				 "NULL, NULL, NULL, NULL, NULL, NULL)", 0, NULL), -1);
	assert_true(pg_failed_with(&c->box2, "PBL01"));
	v = value(c, "SELECT count(*) FROM perfbot.sample");
	assert_string_equal(v, "1");
	free(v);
	(void)id;
	queue_claim_release(&q);
}

static void test_upload_of_a_broken_tree(void **state)
{
	struct queue_claim q;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct stderr_capture cap;
	struct strbuf p = STRBUF_INIT;
	char *msg, *v;

	/* a run without stats.json: an error, nothing stored */
	strbuf_addf(&p, "%s/1/stats.json", c->root.buf);
	assert_int_equal(unlink(p.buf), 0);
	capture_start(&cap);
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "1/stats.json"));
	free(msg);
	assert_false(pg_broken(&c->box1));
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.upload"), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.run"), 0);
	v = value(c, "SELECT state FROM perfbot.queue");
	assert_string_equal(v, "running");
	free(v);
	/* a result root outside the base */
	capture_start(&cap);
	assert_int_equal(lab_upload(&c->box1, id, 1, "/elsewhere", c->root.buf), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "is not under '/elsewhere'"));
	free(msg);
	/* no runs at all */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/empty", c->base.buf);
	assert_int_equal(mkdir_p(p.buf, 0777), 0);
	capture_start(&cap);
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, p.buf), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "holds no run"));
	free(msg);
	strbuf_release(&p);
	queue_claim_release(&q);
}

static void test_upload_after_connection_loss(void **state)
{
	struct queue_claim q;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct strbuf sql = STRBUF_INIT;

	/* the server drops the connection (as a restart does) */
	strbuf_addf(&sql, "SELECT pg_terminate_backend(%d)", PQbackendPID(c->box1.conn));
	lab_test_sql(c->db, sql.buf);
	c->box1.quiet = true;
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), -1);
	assert_true(pg_broken(&c->box1));
	assert_int_equal(pg_reconnect(&c->box1, 10, NULL), 0);
	assert_false(pg_broken(&c->box1));
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.run"), 2);
	/* the claim, prepared on the lost connection, is prepared again on
	 * this one */
	struct queue_job j = { "b.yaml", "testcase: mytest\n", "c0ffee", NULL, NULL, NULL, 5, 1, 3, NULL };
	long long next;
	struct queue_claim q2;
	assert_int_equal(queue_submit(&c->sub, &j, &next), 0);
	c->box1.quiet = false;
	assert_int_equal(queue_claim(&c->box1, "g", "h:1", 60, &q2), 1);
	assert_int_equal(q2.id, next);
	assert_int_equal(queue_heartbeat(&c->box1, next, 1, 60), 1);
	strbuf_release(&sql);
	queue_claim_release(&q);
	queue_claim_release(&q2);
}

static bool same_file(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	bool same = read_file(&x, a) == 0 && read_file(&y, b) == 0 && x.len == y.len &&
		    !memcmp(x.buf, y.buf, x.len);
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

static void test_fetch_gives_the_files_back(void **state)
{
	struct queue_claim q;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct strbuf base = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	char *root;
	int n;

	strbuf_addf(&base, "%s/fetched", c->tmp);
	/* nothing to fetch before the job is done */
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), 1);
	assert_null(root);
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), 0);
	assert_int_equal(n, 2);
	strbuf_addf(&a, "%s/%s", base.buf, REL);
	assert_string_equal(root, a.buf);
	free(root);
	const char *files[] = { "0/stats.json", "0/vmstat", "0/job.yaml", "1/stats.json", "1/vmstat" };
	for (size_t i = 0; i < 5; i++) {
		strbuf_reset(&a);
		strbuf_reset(&b);
		strbuf_addf(&a, "%s/%s/%s", base.buf, REL, files[i]);
		strbuf_addf(&b, "%s/%s", c->root.buf, files[i]);
		assert_true(same_file(a.buf, b.buf));
	}
	strbuf_reset(&a);
	strbuf_addf(&a, "%s/%s/0/perf.data", base.buf, REL);
	assert_false(file_exists(a.buf));
	/* united again locally: both runs in matrix.json */
	struct matrix mx;
	strbuf_reset(&a);
	strbuf_addf(&a, "%s/%s", base.buf, REL);
	matrix_init(&mx);
	assert_int_equal(matrix_load(&mx, a.buf), 0);
	assert_int_equal(mx.ncols, 2);
	matrix_release(&mx);
	/* fetched again (an interrupted fetch repeated): nothing twice */
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), 0);
	assert_int_equal(n, 2);
	free(root);
	matrix_init(&mx);
	assert_int_equal(matrix_load(&mx, a.buf), 0);
	assert_int_equal(mx.ncols, 2);
	matrix_release(&mx);
	/* another job's runs of the same commit go to the next free numbers */
	struct queue_job j2 = { "b.yaml", "testcase: mytest\n", "c0ffee", NULL, NULL, NULL, 5, 2, 3, NULL };
	struct queue_claim q2;
	long long id2;
	assert_int_equal(queue_submit(&c->sub, &j2, &id2), 0);
	assert_int_equal(queue_claim(&c->box2, "g", "h:2", 60, &q2), 1);
	assert_int_equal(lab_upload(&c->box2, id2, 1, c->base.buf, c->root.buf), 0);
	queue_claim_release(&q2);
	assert_int_equal(lab_fetch(&c->sub, id2, base.buf, NULL, &root, &n), 0);
	free(root);
	matrix_init(&mx);
	assert_int_equal(matrix_load(&mx, a.buf), 0);
	assert_int_equal(mx.ncols, 4);
	matrix_release(&mx);
	strbuf_addstr(&a, "/3/.lab-job");
	strbuf_reset(&b);
	assert_true(read_file(&b, a.buf) == 0);
	assert_string_equal(b.buf, "job 2 run 1\n");

	/* a corrupt stream in the database is caught, not written */
	struct stderr_capture cap;
	lab_test_sql(c->db, "UPDATE perfbot.upload_file SET data = 'garbage' WHERE name = 'vmstat'");
	strbuf_addstr(&base, "-again");      /* not fetched there yet */
	capture_start(&cap);
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "file 'vmstat' does not decompress to its 23 bytes"));
	free(msg);
	strbuf_release(&base);
	strbuf_release(&a);
	strbuf_release(&b);
	queue_claim_release(&q);
}

/* A zlib stream of n zero bytes, as a bytea literal ('\x...'). */
static void zeros_bytea(uint64_t n, struct strbuf *out)
{
	static unsigned char in[1 << 16];
	unsigned char buf[1 << 16];
	z_stream z;
	int flush;

	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit(&z, 9), Z_OK);
	strbuf_addstr(out, "'\\x");
	do {
		size_t k = n > sizeof(in) ? sizeof(in) : (size_t)n;
		n -= k;
		flush = n ? Z_NO_FLUSH : Z_FINISH;
		z.next_in = in;
		z.avail_in = (uInt)k;
		do {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			deflate(&z, flush);
			for (size_t i = 0; i < sizeof(buf) - z.avail_out; i++)
				strbuf_addf(out, "%02x", buf[i]);
		} while (z.avail_out == 0);
	} while (flush != Z_FINISH);
	deflateEnd(&z);
	strbuf_addch(out, '\'');
}

/* lab_fetch of hostile rows: the claimed size is never allocated, what
 * inflates past it or past LAB_FETCH_MAX_BYTES is refused, naming the
 * limit and the job, and no .fetch-* dir is left behind. */
static void test_fetch_refuses_bombs(void **state)
{
	struct queue_claim q;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct strbuf base = STRBUF_INIT, sql = STRBUF_INIT, bomb = STRBUF_INIT, dir = STRBUF_INIT;
	struct stderr_capture cap;
	struct rusage ru;
	long before;
	char *root, *msg;
	int n;

	strbuf_addf(&base, "%s/bombed", c->tmp);
	strbuf_addf(&dir, "%s/%s", base.buf, REL);
	assert_int_equal(lab_upload(&c->box1, id, 1, c->base.buf, c->root.buf), 0);
	/* 300 MB of zeros in 300 KB, claimed as such: refused before any byte */
	zeros_bytea(300ull << 20, &bomb);
	getrusage(RUSAGE_SELF, &ru);
	before = ru.ru_maxrss;
	strbuf_addf(&sql, "UPDATE perfbot.upload_file SET size = %llu, data = %s "
		    "WHERE run = 0 AND name = 'vmstat'", 300ull << 20, bomb.buf);
	lab_test_sql(c->db, sql.buf);
	capture_start(&cap);
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "job 1: file 'vmstat' would make the fetch more than 256 MiB, "
			       "the most a fetch writes (it claims 314572800 bytes)"));
	free(msg);
	assert_int_equal(count_entries(dir.buf, ".fetch-"), 0);
	/* claimed small: inflating stops past the claim */
	lab_test_sql(c->db, "UPDATE perfbot.upload_file SET size = 1000 "
		     "WHERE run = 0 AND name = 'vmstat'");
	capture_start(&cap);
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "job 1: file 'vmstat' does not decompress to its 1000 bytes"));
	free(msg);
	assert_int_equal(count_entries(dir.buf, ".fetch-"), 0);
	/* claimed 100 GB: no allocation of it */
	lab_test_sql(c->db, "UPDATE perfbot.upload_file SET size = 100000000000 "
		     "WHERE run = 0 AND name = 'vmstat'");
	capture_start(&cap);
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "more than 256 MiB"));
	free(msg);
	assert_int_equal(count_entries(dir.buf, ".fetch-"), 0);
	getrusage(RUSAGE_SELF, &ru);
	/* (the bomb's hex text and its result are a few MB) */
	assert_true(ru.ru_maxrss - before < 32 * 1024);
	/* each file within its claim, but all of them past the limit */
	lab_test_sql(c->db, "UPDATE perfbot.upload_file SET size = 200 * 1048576, data = "
		     "(SELECT data FROM perfbot.upload_file WHERE run = 0 AND name = 'vmstat') "
		     "WHERE name = 'vmstat'");
	strbuf_reset(&sql);
	strbuf_reset(&bomb);
	zeros_bytea(200ull << 20, &bomb);
	strbuf_addf(&sql, "UPDATE perfbot.upload_file SET data = %s WHERE name = 'vmstat'",
		    bomb.buf);
	lab_test_sql(c->db, sql.buf);
	capture_start(&cap);
	assert_int_equal(lab_fetch(&c->sub, id, base.buf, NULL, &root, &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "would make the fetch more than 256 MiB"));
	free(msg);
	assert_int_equal(count_entries(dir.buf, ".fetch-"), 0);
	/* (run 0, whole and within the limit, stays: a fetch again skips it) */
	assert_int_equal(count_entries(dir.buf, "1"), 0);
	queue_claim_release(&q);
	strbuf_release(&base);
	strbuf_release(&sql);
	strbuf_release(&bomb);
	strbuf_release(&dir);
}

/* lab_upload_next (schema 4's upload_claim): the upload and the next
 * claim in one call, with claim's choice and lease; nothing claimed when
 * the queue is empty, nor when the upload is refused. */
static void test_upload_next_claims_in_the_same_call(void **state)
{
	struct queue_claim q, n, n2;
	long long id = start(state, &q);
	struct ctx *c = *state;
	/* (of REL's testcase, group and commit: the uploads below send REL) */
	struct queue_job j = { "b.yaml", "testcase: mytest\n", "c0ffee", NULL, NULL, "box", 5, 1, 3,
			       NULL };
	struct queue_job lo = { "c.yaml", "testcase: mytest\n", NULL, NULL, NULL, NULL, 7, 1, 3,
				NULL };
	const struct lab_next next = { "box", "h:1", 30 };
	long long id2, id3;
	char *v;

	assert_int_equal(queue_submit(&c->sub, &lo, &id3), 0);
	assert_int_equal(queue_submit(&c->sub, &j, &id2), 0);
	assert_int_equal(lab_upload_next(&c->box1, id, 1, c->base.buf, c->root.buf, &next, &n), 0);
	/* the most urgent one (priority 5 before 7), all its fields */
	assert_int_equal(n.id, id2);
	assert_int_equal(n.attempt, 1);
	assert_string_equal(n.name, "b.yaml");
	assert_string_equal(n.job, "testcase: mytest\n");
	assert_string_equal(n.commit, "c0ffee");
	assert_null(n.repo);
	assert_int_equal(n.runs, 1);
	v = value(c, "SELECT string_agg(id || ' ' || state || ' ' || coalesce(worker, '-'), ', ' "
		  "ORDER BY id) FROM perfbot.queue");
	assert_string_equal(v, "1 done h:1, 2 queued -, 3 running h:1");
	free(v);
	/* the lease is the one asked for */
	v = value(c, "SELECT round(extract(epoch FROM lease_expires_at - started_at)) "
		  "FROM perfbot.queue WHERE id = 3");
	assert_string_equal(v, "30");
	free(v);
	/* the results are there as lab_upload puts them */
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.run"), 2);
	/* a refused upload claims nothing: job 2 stays queued */
	c->box2.quiet = true;
	assert_int_equal(lab_upload_next(&c->box2, id2, 1, c->base.buf, c->root.buf, &next, &n2),
			 1);
	assert_int_equal(n2.id, 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.queue WHERE state = 'queued'"), 1);
	/* the last two: the queue then is empty */
	queue_claim_release(&q);
	q = n;
	assert_int_equal(lab_upload_next(&c->box1, q.id, 1, c->base.buf, c->root.buf, &next, &n), 0);
	assert_int_equal(n.id, id3);
	queue_claim_release(&q);
	q = n;
	assert_int_equal(lab_upload_next(&c->box1, q.id, 1, c->base.buf, c->root.buf, &next, &n), 0);
	assert_int_equal(n.id, 0);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.queue WHERE state = 'done'"), 3);
	queue_claim_release(&q);
}

/* The COMMIT of an upload_claim went through but its answer was lost:
 * the retry adds nothing and gives the job that commit claimed, not
 * another one (which would wait for its lease to expire). */
static void test_upload_next_retried_gives_the_same_job(void **state)
{
	struct queue_claim q, n, again;
	long long id = start(state, &q);
	struct ctx *c = *state;
	struct queue_job j = { "b.yaml", "testcase: b\n", NULL, NULL, NULL, NULL, 5, 1, 3, NULL };
	const struct lab_next next = { "g", "h:1", 60 }, other = { "g", "h:2", 60 };
	long long id2, id3;

	assert_int_equal(queue_submit(&c->sub, &j, &id2), 0);
	assert_int_equal(queue_submit(&c->sub, &j, &id3), 0);
	assert_int_equal(lab_upload_next(&c->box1, id, 1, c->base.buf, c->root.buf, &next, &n), 0);
	assert_int_equal(n.id, id2);
	assert_int_equal(lab_upload_next(&c->box1, id, 1, c->base.buf, c->root.buf, &next, &again),
			 0);
	assert_int_equal(again.id, id2);
	assert_int_equal(again.attempt, 1);
	assert_string_equal(again.name, "b.yaml");
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.queue WHERE state = 'queued'"), 1);
	assert_int_equal(count(c, "SELECT count(*) FROM perfbot.run"), 2);
	queue_claim_release(&again);
	/* another worker of the same login retrying is given its own: a
	 * new one, not h:1's */
	assert_int_equal(lab_upload_next(&c->box1, id, 1, c->base.buf, c->root.buf, &other, &again),
			 0);
	assert_int_equal(again.id, id3);
	queue_claim_release(&again);
	queue_claim_release(&n);
	queue_claim_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_upload_completes_the_job),
		T(test_upload_again_after_done_adds_nothing),
		T(test_late_upload_is_refused),
		T(test_upload_next_claims_in_the_same_call),
		T(test_upload_next_retried_gives_the_same_job),
		T(test_uploads_of_one_job_do_not_wait),
		T(test_malformed_upload_changes_nothing),
		T(test_malformed_upload_job_changes_nothing),
		T(test_upload_job_needs_a_live_lease),
		T(test_upload_of_a_broken_tree),
		T(test_upload_after_connection_loss),
		T(test_fetch_gives_the_files_back),
		T(test_fetch_refuses_bombs),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
