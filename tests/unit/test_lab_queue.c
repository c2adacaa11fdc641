/*
 * The lab queue on a real PostgreSQL server: every state transition of a
 * queue entry (schema.c draws them), every refusal, and who may do what.
 *
 * Leases expire in the tests by the superuser moving lease_expires_at
 * into the past, not by sleeping: the claim's handling of an expired
 * lease is what is under test, not the clock.
 */
#include "lab_helpers.h"
#include "lab/queue.h"
#include "pg/migrations.h"
#include "store/backend.h"

#include <math.h>
#include <poll.h>

/* what migration 7 made, dropped, and the functions it renamed and the
 * grants it took back, as they were */
#define UNDO_7 "DROP FUNCTION perfbot.upload_begin(bigint, int, text, text[]); " \
	"ALTER FUNCTION perfbot.upload_begin_unchecked(bigint, int, text, text[]) " \
	"RENAME TO upload_begin; " \
	"DROP FUNCTION perfbot.upload_job(" LAB_UPLOAD_JOB_ARGS "); " \
	"ALTER FUNCTION perfbot.upload_job_unchecked(" LAB_UPLOAD_JOB_ARGS ") RENAME TO upload_job; " \
	"DROP FUNCTION perfbot.check_result_root(bigint, text); " \
	"DROP FUNCTION perfbot.heartbeat(bigint, int, double precision); " \
	"ALTER FUNCTION perfbot.heartbeat_unchecked(bigint, int, double precision) " \
	"RENAME TO heartbeat; " \
	"DROP FUNCTION perfbot.claim(text, text, double precision); " \
	"ALTER FUNCTION perfbot.claim_unchecked(text, text, double precision) RENAME TO claim; " \
	"DROP FUNCTION perfbot.cancel(bigint); DROP FUNCTION perfbot.retry(bigint); " \
	"ALTER FUNCTION perfbot.cancel_unchecked(bigint) RENAME TO cancel; " \
	"ALTER FUNCTION perfbot.retry_unchecked(bigint) RENAME TO retry; " \
	"DROP FUNCTION perfbot.check_owner(bigint, text); DROP FUNCTION perfbot.may_claim(text); " \
	"DROP TABLE perfbot.box_group; " \
	"GRANT EXECUTE ON FUNCTION perfbot.cancel(bigint), perfbot.retry(bigint) TO " \
	LAB_ROLE_SUBMITTER "; " \
	"GRANT EXECUTE ON FUNCTION perfbot.claim(text, text, double precision), " \
	"perfbot.heartbeat(bigint, int, double precision), perfbot.upload_job(" \
	LAB_UPLOAD_JOB_ARGS "), perfbot.upload_begin(bigint, int, text, text[]) TO " \
	LAB_ROLE_WORKER "; " \
	"GRANT INSERT ON perfbot.reported TO " LAB_ROLE_SUBMITTER "; " \
	"GRANT USAGE ON SEQUENCE perfbot.reported_id_seq TO " LAB_ROLE_SUBMITTER "; "

/* what migrations 7 and 6 made, dropped */
#define UNDO_6 UNDO_7 "DROP FUNCTION perfbot.submitted(text); " \
	"DROP FUNCTION perfbot.submit(" LAB_SUBMIT_ARGS "); " \
	"DROP TABLE perfbot.submit_ref; "

struct ctx {
	char *db;
	struct pg box1, box2, sub;
};

static int setup(void **state)
{
	struct ctx *c = xcalloc(1, sizeof(*c));
	struct pg init = PG_INIT;

	c->box1 = c->box2 = c->sub = init;
	*state = c;
	return 0;
}

/* Connect the three logins to a fresh database (skips without server). */
static struct ctx *start(void **state)
{
	struct ctx *c = *state;

	c->db = lab_test_db();
	lab_test_open(&c->box1, c->db, TEST_BOX1);
	lab_test_open(&c->box2, c->db, TEST_BOX2);
	lab_test_open(&c->sub, c->db, TEST_SUBMITTER);
	return c;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	pg_close(&c->box1);
	pg_close(&c->box2);
	pg_close(&c->sub);
	free(c->db);
	free(c);
	return 0;
}

static long long submit_full(struct ctx *c, const char *name, const char *group, int prio,
			     int attempts)
{
	struct queue_job j = { name, "testcase: mytest\n", "c0ffee", NULL, NULL, group, prio, 2,
			       attempts, NULL };
	long long id = 0;

	assert_int_equal(queue_submit(&c->sub, &j, &id), 0);
	assert_true(id > 0);
	return id;
}

static long long submit(struct ctx *c, const char *name)
{
	return submit_full(c, name, NULL, QUEUE_PRIORITY_DEFAULT, QUEUE_ATTEMPTS_DEFAULT);
}

/* A column of the job, as text, read by the superuser. */
static char *col(struct ctx *c, long long id, const char *column)
{
	struct strbuf sql = STRBUF_INIT;
	char *v;

	strbuf_addf(&sql, "SELECT (%s)::text FROM perfbot.queue WHERE id = %lld", column, id);
	v = lab_test_value(c->db, sql.buf);
	strbuf_release(&sql);
	return v;
}

static void assert_col(struct ctx *c, long long id, const char *column, const char *want)
{
	char *v = col(c, id, column);
	if (!want)
		assert_null(v);
	else
		assert_string_equal(v ? v : "(null)", want);
	free(v);
}

static void expire(struct ctx *c, long long id)
{
	struct strbuf sql = STRBUF_INIT;
	strbuf_addf(&sql, "UPDATE perfbot.queue SET lease_expires_at = now() - interval '1 second' "
		    "WHERE id = %lld", id);
	lab_test_sql(c->db, sql.buf);
	strbuf_release(&sql);
}

/* The next notification on db (waiting up to 5 s: it comes from another
 * connection's commit), or NULL. */
static PGnotify *next_notify(struct pg *db)
{
	PGnotify *n = NULL;

	for (int i = 0; i < 50 && !n; i++) {
		struct pollfd pfd = { PQsocket(db->conn), POLLIN, 0 };
		poll(&pfd, 1, 100);
		assert_int_equal(PQconsumeInput(db->conn), 1);
		n = PQnotifies(db->conn);
	}
	return n;
}

/* A notification on the queue's channel must come to db; with group,
 * its payload must be that group. */
static void expect_notify(struct pg *db, const char *group)
{
	PGnotify *n = next_notify(db);

	assert_non_null(n);
	assert_string_equal(n->relname, "perfbot_queue");
	if (group)
		assert_string_equal(n->extra, group);
	PQfreemem(n);
}

static int claim(struct pg *db, const char *group, struct queue_claim *q)
{
	return queue_claim(db, group, "host:1", 60, q);
}

/* --- submit and claim --------------------------------------------- */

static void test_submit_queues_with_fields(void **state)
{
	struct ctx *c = start(state);
	struct queue_job j = { "a.yaml", "testcase: t\n", "abc", "https://r", "make", "grp", 3, 4, 7, NULL };
	long long id;

	assert_int_equal(queue_submit(&c->sub, &j, &id), 0);
	assert_col(c, id, "state", "queued");
	assert_col(c, id, "name", "a.yaml");
	assert_col(c, id, "job", "testcase: t\n");
	assert_col(c, id, "commit", "abc");
	assert_col(c, id, "repo", "https://r");
	assert_col(c, id, "build", "make");
	assert_col(c, id, "tbox_group", "grp");
	assert_col(c, id, "priority", "3");
	assert_col(c, id, "runs", "4");
	assert_col(c, id, "max_attempts", "7");
	assert_col(c, id, "attempt", "0");
	assert_col(c, id, "submitted_by", TEST_SUBMITTER);
}

static void test_submit_refuses_out_of_range(void **state)
{
	struct ctx *c = start(state);
	struct queue_job j = { "a.yaml", "x", NULL, NULL, NULL, NULL, 10, 1, 3, NULL };
	long long id = 0;

	c->sub.quiet = true;
	assert_int_equal(queue_submit(&c->sub, &j, &id), -1);
	assert_true(pg_failed_with(&c->sub, "23514"));      /* check_violation */
	j.priority = 0;
	j.runs = 0;
	assert_int_equal(queue_submit(&c->sub, &j, &id), -1);
	j.runs = 1;
	j.attempts = 0;
	assert_int_equal(queue_submit(&c->sub, &j, &id), -1);
	j.attempts = 1;
	assert_int_equal(queue_submit(&c->sub, &j, &id), 0);
}

static void test_submit_notifies_workers(void **state)
{
	struct ctx *c = start(state);

	assert_int_equal(pg_exec(&c->box1, "LISTEN perfbot_queue", 0, NULL), 0);
	submit_full(c, "a", "grp", 5, 3);
	expect_notify(&c->box1, "grp");
}

static void test_claim_takes_queued_job(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit(c, "a.yaml");
	char *left;

	assert_int_equal(queue_claim(&c->box1, "g", "host:42", 30, &q), 1);
	assert_int_equal(q.id, id);
	assert_int_equal(q.attempt, 1);
	assert_int_equal(q.runs, 2);
	assert_string_equal(q.name, "a.yaml");
	assert_string_equal(q.job, "testcase: mytest\n");
	assert_string_equal(q.commit, "c0ffee");
	assert_null(q.repo);
	assert_null(q.build);
	assert_col(c, id, "state", "running");
	assert_col(c, id, "box", TEST_BOX1);
	assert_col(c, id, "worker", "host:42");
	assert_col(c, id, "attempt", "1");
	left = col(c, id, "round(extract(epoch FROM lease_expires_at - now()))");
	assert_true(atoi(left) >= 28 && atoi(left) <= 30);
	free(left);
	queue_claim_release(&q);
	/* nothing else to take */
	assert_int_equal(claim(&c->box2, "g", &q), 0);
}

static void test_claim_matches_tbox_group(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long mine = submit_full(c, "mine", "ivb44", 5, 3);
	long long any;

	assert_int_equal(claim(&c->box1, "brickland2", &q), 0);
	any = submit(c, "any");
	assert_int_equal(claim(&c->box1, "brickland2", &q), 1);
	assert_int_equal(q.id, any);
	queue_claim_release(&q);
	assert_int_equal(claim(&c->box2, "ivb44", &q), 1);
	assert_int_equal(q.id, mine);
	queue_claim_release(&q);
}

static void test_claim_order_priority_then_age(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long late = submit_full(c, "late", NULL, 6, 3);
	long long first = submit_full(c, "first", NULL, 4, 3);
	long long second = submit_full(c, "second", NULL, 4, 3);
	long long urgent = submit_full(c, "urgent", NULL, 0, 3);
	long long want[] = { urgent, first, second, late };

	for (int i = 0; i < 4; i++) {
		assert_int_equal(claim(&c->box1, "g", &q), 1);
		assert_int_equal(q.id, want[i]);
		queue_claim_release(&q);
	}
}

static void test_claim_skips_locked_rows(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	struct pg admin = PG_INIT;
	long long a = submit(c, "a"), b = submit(c, "b");
	char sql[128];

	/* another transaction holds a's row: the claim must take b at once
	 * rather than wait for it */
	lab_test_open(&admin, c->db, "postgres");
	snprintf(sql, sizeof(sql), "SELECT 1 FROM perfbot.queue WHERE id = %lld FOR UPDATE", a);
	assert_int_equal(pg_exec(&admin, "BEGIN", 0, NULL), 0);
	assert_int_equal(pg_exec(&admin, sql, 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, "SET statement_timeout = '5s'", 0, NULL), 0);
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	assert_int_equal(q.id, b);
	queue_claim_release(&q);
	assert_int_equal(claim(&c->box2, "g", &q), 0);
	assert_int_equal(pg_exec(&admin, "ROLLBACK", 0, NULL), 0);
	assert_int_equal(claim(&c->box2, "g", &q), 1);
	assert_int_equal(q.id, a);
	queue_claim_release(&q);
	pg_close(&admin);
}

/* --- leases --------------------------------------------------------- */

static void test_heartbeat_renews_only_the_holders_lease(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit(c, "a");
	char *left;

	assert_int_equal(queue_claim(&c->box1, "g", "h:1", 5, &q), 1);
	assert_int_equal(queue_heartbeat(&c->box1, id, 1, 100), 1);
	left = col(c, id, "round(extract(epoch FROM lease_expires_at - now()))");
	assert_true(atoi(left) >= 98 && atoi(left) <= 100);
	free(left);
	assert_int_equal(queue_heartbeat(&c->box1, id, 2, 100), 0);    /* wrong attempt */
	assert_int_equal(queue_heartbeat(&c->box2, id, 1, 100), 0);    /* another box */
	assert_int_equal(queue_heartbeat(&c->box1, id + 1, 1, 100), 0);
	expire(c, id);
	assert_int_equal(queue_heartbeat(&c->box1, id, 1, 100), 0);    /* too late */
	assert_col(c, id, "lease_expires_at < now()", "true");
	queue_claim_release(&q);
}

static void test_expired_lease_is_reclaimed(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit(c, "a");
	char *err;

	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	/* a live lease is not taken */
	assert_int_equal(claim(&c->box2, "g", &q), 0);
	expire(c, id);
	assert_int_equal(queue_claim(&c->box2, "g", "other:7", 60, &q), 1);
	assert_int_equal(q.id, id);
	assert_int_equal(q.attempt, 2);
	queue_claim_release(&q);
	assert_col(c, id, "state", "running");
	assert_col(c, id, "box", TEST_BOX2);
	assert_col(c, id, "worker", "other:7");
	err = col(c, id, "last_error");
	assert_non_null(strstr(err, "attempt 1: the lease of host:1 (" TEST_BOX1 ") expired"));
	free(err);
	/* the first holder has lost it: heartbeat and failure refused */
	assert_int_equal(queue_heartbeat(&c->box1, id, 1, 60), 0);
	assert_int_equal(queue_fail(&c->box1, id, 1, "late"), 2);
	assert_col(c, id, "attempt", "2");
}

static void test_expired_lease_without_attempts_is_parked(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit_full(c, "a", NULL, 5, 2);
	long long other;
	char *err;

	for (int i = 1; i <= 2; i++) {
		assert_int_equal(claim(&c->box1, "g", &q), 1);
		assert_int_equal(q.attempt, i);
		queue_claim_release(&q);
		expire(c, id);
	}
	other = submit(c, "b");
	/* the claim parks the exhausted job and takes the other one */
	assert_int_equal(claim(&c->box2, "g", &q), 1);
	assert_int_equal(q.id, other);
	queue_claim_release(&q);
	assert_col(c, id, "state", "failed");
	assert_col(c, id, "lease_expires_at", NULL);
	assert_col(c, id, "finished_at IS NOT NULL", "true");
	err = col(c, id, "last_error");
	assert_non_null(strstr(err, "attempt 2: the lease of host:1 (" TEST_BOX1 ") expired; "
			       "no attempt left"));
	free(err);
	assert_int_equal(claim(&c->box2, "g", &q), 0);
}

/* --- failure -------------------------------------------------------- */

static void test_fail_requeues_then_parks(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit_full(c, "a", NULL, 5, 2);

	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	assert_int_equal(pg_exec(&c->box2, "LISTEN perfbot_queue", 0, NULL), 0);
	assert_int_equal(queue_fail(&c->box1, id, 1, "build failed"), 0);
	/* back in the queue: the boxes hear of it */
	expect_notify(&c->box2, NULL);
	assert_col(c, id, "state", "queued");
	assert_col(c, id, "last_error", "attempt 1: build failed");
	assert_col(c, id, "lease_expires_at", NULL);
	assert_col(c, id, "finished_at", NULL);
	/* a failure reported twice changes nothing */
	assert_int_equal(queue_fail(&c->box1, id, 1, "again"), 2);
	assert_int_equal(claim(&c->box2, "g", &q), 1);
	assert_int_equal(q.attempt, 2);
	queue_claim_release(&q);
	assert_int_equal(queue_fail(&c->box1, id, 2, "not mine"), 2);
	assert_int_equal(queue_fail(&c->box2, id, 2, "bench crashed"), 1);
	assert_col(c, id, "state", "failed");
	assert_col(c, id, "last_error", "attempt 2: bench crashed");
	assert_col(c, id, "finished_at IS NOT NULL", "true");
	assert_int_equal(claim(&c->box1, "g", &q), 0);
}

static void test_fail_after_lease_expired_is_refused(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit(c, "a");

	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	expire(c, id);
	assert_int_equal(queue_fail(&c->box1, id, 1, "late"), 2);
	assert_col(c, id, "state", "running");
	assert_col(c, id, "last_error", NULL);
}

/* A job handed back unstarted (a worker stopping) is queued again and
 * its attempt not counted: with a budget of 2, one hand-back and one
 * failure leave it queued; the second failure parks it. */
static void test_release_keeps_the_attempts(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit_full(c, "a", NULL, 5, 2);

	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	assert_int_equal(pg_exec(&c->box2, "LISTEN perfbot_queue", 0, NULL), 0);
	assert_int_equal(queue_release(&c->box1, id, 1), 0);
	expect_notify(&c->box2, NULL);
	assert_col(c, id, "state", "queued");
	assert_col(c, id, "attempt || ' of ' || max_attempts", "1 of 3");
	assert_col(c, id, "lease_expires_at", NULL);
	assert_col(c, id, "last_error", NULL);
	/* twice, or by a box that does not hold it: nothing changes */
	assert_int_equal(queue_release(&c->box1, id, 1), 1);
	assert_int_equal(claim(&c->box2, "g", &q), 1);
	assert_int_equal(q.attempt, 2);
	queue_claim_release(&q);
	assert_int_equal(queue_release(&c->box1, id, 2), 1);
	assert_int_equal(queue_release(&c->box2, id, 1), 1);
	assert_col(c, id, "state || ' ' || box || ' ' || max_attempts", "running " TEST_BOX2 " 3");
	assert_int_equal(queue_fail(&c->box2, id, 2, "bench crashed"), 0);
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	assert_int_equal(q.attempt, 3);
	queue_claim_release(&q);
	assert_int_equal(queue_fail(&c->box1, id, 3, "again"), 1);
	assert_col(c, id, "state", "failed");
}

static void test_release_after_lease_expired_is_refused(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long id = submit(c, "a");

	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	expire(c, id);
	assert_int_equal(queue_release(&c->box1, id, 1), 1);
	assert_col(c, id, "state || ' ' || max_attempts", "running 3");
}

/* --- cancel and retry ----------------------------------------------- */

static void test_cancel_queued_and_running(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long a = submit(c, "a"), b = submit(c, "b");

	assert_int_equal(queue_cancel(&c->sub, a), 0);
	assert_col(c, a, "state", "cancelled");
	assert_col(c, a, "finished_at IS NOT NULL", "true");
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	assert_int_equal(q.id, b);
	queue_claim_release(&q);
	assert_int_equal(queue_cancel(&c->sub, b), 0);
	assert_col(c, b, "state", "cancelled");
	assert_col(c, b, "lease_expires_at", NULL);
	/* the worker learns it at its next heartbeat */
	assert_int_equal(queue_heartbeat(&c->box1, b, 1, 60), 0);
	assert_int_equal(queue_fail(&c->box1, b, 1, "x"), 2);
	assert_int_equal(claim(&c->box1, "g", &q), 0);
}

static void test_cancel_refuses_finished_and_unknown(void **state)
{
	struct ctx *c = start(state);
	struct stderr_capture cap;
	long long a = submit(c, "a");
	char *msg;

	assert_int_equal(queue_cancel(&c->sub, a), 0);
	capture_start(&cap);
	assert_int_equal(queue_cancel(&c->sub, a), -1);
	msg = capture_end(&cap);
	assert_true(pg_failed_with(&c->sub, "PBS01"));
	assert_string_equal(msg, "perfbot: job 1 is cancelled: nothing to cancel\n");
	free(msg);
	/* nor a done one */
	lab_test_sql(c->db, "UPDATE perfbot.queue SET state = 'done'");
	c->sub.quiet = true;
	assert_int_equal(queue_cancel(&c->sub, a), -1);
	assert_string_equal(c->sub.err.buf, "job 1 is done: nothing to cancel");
	assert_int_equal(queue_retry(&c->sub, a), -1);
	assert_string_equal(c->sub.err.buf, "job 1 is done: nothing to retry");
	assert_col(c, a, "state", "done");
	c->sub.quiet = false;
	capture_start(&cap);
	assert_int_equal(queue_cancel(&c->sub, 99), -1);
	msg = capture_end(&cap);
	assert_true(pg_failed_with(&c->sub, "PBN01"));
	assert_string_equal(msg, "perfbot: no job 99\n");
	free(msg);
}

static void test_retry_failed_and_cancelled(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long a = submit_full(c, "a", "g", 5, 1), b = submit_full(c, "b", "g", 5, 1);

	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	assert_int_equal(queue_fail(&c->box1, a, 1, "boom"), 1);
	assert_col(c, a, "state", "failed");
	assert_int_equal(queue_cancel(&c->sub, b), 0);

	assert_int_equal(pg_exec(&c->box2, "LISTEN perfbot_queue", 0, NULL), 0);
	assert_int_equal(queue_retry(&c->sub, a), 0);
	assert_col(c, a, "state", "queued");
	assert_col(c, a, "finished_at", NULL);
	assert_col(c, a, "attempt", "1");       /* never reset: see schema.c */
	assert_col(c, a, "max_attempts", "2");  /* one more, the job's budget */
	expect_notify(&c->box2, "g");
	assert_int_equal(queue_retry(&c->sub, b), 0);
	assert_col(c, b, "state", "queued");

	assert_int_equal(claim(&c->box2, "g", &q), 1);
	assert_int_equal(q.id, a);
	assert_int_equal(q.attempt, 2);
	queue_claim_release(&q);
	/* the holder of attempt 1 is still refused */
	assert_int_equal(queue_heartbeat(&c->box1, a, 1, 60), 0);
}

static void test_retry_refuses_live_jobs(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	long long a = submit(c, "a"), b = submit(c, "b");

	c->sub.quiet = true;
	assert_int_equal(queue_retry(&c->sub, a), -1);
	assert_true(pg_failed_with(&c->sub, "PBS01"));
	assert_string_equal(c->sub.err.buf, "job 1 is queued: nothing to retry");
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	assert_int_equal(queue_retry(&c->sub, a), -1);
	assert_string_equal(c->sub.err.buf, "job 1 is running: nothing to retry");
	assert_int_equal(queue_retry(&c->sub, 77), -1);
	assert_true(pg_failed_with(&c->sub, "PBN01"));
	assert_col(c, a, "state", "running");
	assert_col(c, b, "state", "queued");
}

/* --- listing ------------------------------------------------------- */

static void test_list_filters_by_state(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;
	struct stderr_capture cap;
	PGresult *r;
	char *msg;

	submit(c, "a");
	submit_full(c, "b", "ivb44", 5, 3);
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	r = queue_list(&c->sub, NULL);
	assert_non_null(r);
	assert_int_equal(PQntuples(r), 2);
	assert_int_equal(PQnfields(r), 12);
	assert_string_equal(PQgetvalue(r, 0, 1), "running");
	assert_string_equal(PQgetvalue(r, 0, 6), TEST_BOX1);
	assert_string_equal(PQgetvalue(r, 0, 10), "60s");
	assert_string_equal(PQgetvalue(r, 1, 5), "ivb44");
	assert_string_equal(PQgetvalue(r, 1, 10), "");
	PQclear(r);
	r = queue_list(&c->sub, "queued");
	assert_int_equal(PQntuples(r), 1);
	assert_string_equal(PQgetvalue(r, 0, 9), "b");
	PQclear(r);
	capture_start(&cap);
	assert_null(queue_list(&c->sub, "runing"));
	msg = capture_end(&cap);
	assert_string_equal(msg, "perfbot: unknown state 'runing' (queued, running, done, failed, "
			    "cancelled)\n");
	free(msg);
}

/* --- who may do what ------------------------------------------------ */

static void assert_denied(struct pg *db, const char *sql)
{
	db->quiet = true;
	assert_int_equal(pg_exec(db, sql, 0, NULL), -1);
	if (!pg_failed_with(db, "42501"))
		fail_msg("'%s' gave %s (%s), not permission denied", sql, db->sqlstate, db->err.buf);
	db->quiet = false;
}

static void test_worker_cannot_read_queue_or_change_results(void **state)
{
	struct ctx *c = start(state);
	struct queue_claim q;

	submit(c, "a");
	assert_int_equal(claim(&c->box2, "g", &q), 1);
	queue_claim_release(&q);
	/* box1 cannot see box2's lease in any way */
	assert_denied(&c->box1, "SELECT lease_expires_at FROM perfbot.queue");
	assert_denied(&c->box1, "SELECT perfbot.hold(1, 1)");
	assert_denied(&c->box1, "UPDATE perfbot.queue SET lease_expires_at = now()");
	assert_int_equal(queue_heartbeat(&c->box1, 1, 1, 60), 0);
	/* nor read, change or delete stored results */
	assert_denied(&c->box1, "SELECT * FROM perfbot.sample");
	assert_denied(&c->box1, "UPDATE perfbot.sample SET value = 0");
	assert_denied(&c->box1, "DELETE FROM perfbot.run");
	assert_denied(&c->box1, "INSERT INTO perfbot.metric (name) VALUES ('x')");
	assert_denied(&c->box1, "SELECT * FROM perfbot.upload_file");
	assert_denied(&c->box1, "DELETE FROM perfbot.upload_file");
	assert_denied(&c->box1, "UPDATE perfbot.upload SET box = 'x'");
	/* nor queue work */
	assert_denied(&c->box1, "SELECT perfbot.submit('n', 'j', NULL, NULL, NULL, NULL, 5, 1, 3)");
	assert_denied(&c->box1, "SELECT perfbot.cancel(1)");
}

static void test_submitter_cannot_work_or_write_results(void **state)
{
	struct ctx *c = start(state);
	PGresult *r;

	submit(c, "a");
	assert_denied(&c->sub, "SELECT * FROM perfbot.claim('g', 'w', 60)");
	assert_denied(&c->sub, "SELECT perfbot.heartbeat(1, 1, 60)");
	assert_denied(&c->sub, "SELECT perfbot.upload_begin(1, 1, 'x', '{}')");
	assert_denied(&c->sub, "SELECT perfbot.complete(1, 1)");
	assert_denied(&c->sub, "SELECT perfbot.upload_job(1, 1, 'x', '{}', '{0}', '{1}', '{m}', "
		      "'{1}', '{}', '{}', '{}', '{}')");
	assert_denied(&c->sub, "UPDATE perfbot.queue SET state = 'done'");
	assert_denied(&c->sub, "INSERT INTO perfbot.metric (name) VALUES ('x')");
	assert_denied(&c->sub, "UPDATE perfbot.sample SET value = 0");
	assert_denied(&c->sub, "DELETE FROM perfbot.upload");
	assert_denied(&c->sub, "DELETE FROM perfbot.result_root");
	/* reading is what it is for */
	r = pg_query(&c->sub, "SELECT count(*) FROM perfbot.sample JOIN perfbot.upload_file ON true",
		     0, NULL);
	assert_non_null(r);
	PQclear(r);
}

/* A batch found again by its reference: its ids in order, the
 * submitter's own only, and none for a reference never used. */
static void test_submitted_finds_a_batch(void **state)
{
	struct ctx *c = start(state);
	struct queue_job j = { "a.yaml", "testcase: t\n", "abc", NULL, NULL, NULL, 5, 1, 3, "r1" };
	long long a, b, other, theirs, *ids;
	char *msg;
	int n;

	assert_int_equal(queue_submit(&c->sub, &j, &a), 0);
	j.ref = NULL;
	assert_int_equal(queue_submit(&c->sub, &j, &other), 0);
	j.ref = "r1";
	assert_int_equal(queue_submit(&c->sub, &j, &b), 0);
	msg = lab_test_value(c->db, "SELECT string_agg(job || ' ' || ref || ' ' || submitted_by, "
			     "', ' ORDER BY job) FROM perfbot.submit_ref");
	assert_string_equal(msg, "1 r1 " TEST_SUBMITTER ", 3 r1 " TEST_SUBMITTER);
	free(msg);
	assert_int_equal(queue_submitted(&c->sub, "r1", &ids, &n), 0);
	assert_int_equal(n, 2);
	assert_true(ids[0] == a && ids[1] == b);
	free(ids);
	assert_int_equal(queue_submitted(&c->sub, "r2", &ids, &n), 0);
	assert_int_equal(n, 0);
	assert_null(ids);
	/* another submitter's batch of the same reference is not this one's */
	lab_test_sql(c->db, "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE "
		     "rolname = 't_sub2') THEN CREATE ROLE t_sub2 LOGIN IN ROLE "
		     LAB_ROLE_SUBMITTER "; END IF; END $$");
	struct pg sub2 = PG_INIT;
	lab_test_open(&sub2, c->db, "t_sub2");
	assert_int_equal(queue_submitted(&sub2, "r1", &ids, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(queue_submit(&sub2, &j, &theirs), 0);
	assert_int_equal(queue_submitted(&sub2, "r1", &ids, &n), 0);
	assert_int_equal(n, 1);
	assert_true(ids[0] == theirs);
	free(ids);
	pg_close(&sub2);
	assert_int_equal(queue_submitted(&c->sub, "r1", &ids, &n), 0);
	assert_int_equal(n, 2);
	free(ids);
	/* a worker may not ask */
	c->box1.quiet = true;
	assert_int_equal(queue_submitted(&c->box1, "r1", &ids, &n), -1);
	assert_true(pg_failed_with(&c->box1, "42501"));
}

/* --- the schema ----------------------------------------------------- */

static void test_schema_check_and_versions(void **state)
{
	char *empty = lab_test_empty_db();
	struct pg db = PG_INIT;
	struct stderr_capture cap;
	struct lab_versions v;
	char *msg, want[160];

	(void)state;
	lab_test_open(&db, empty, "postgres");
	capture_start(&cap);
	assert_int_equal(lab_check_schema(&db), -1);
	msg = capture_end(&cap);
	assert_string_equal(msg, "perfbot: the database has no perfbot schema: run "
			    "'perfbot lab init --db URL' as its admin first\n");
	free(msg);
	assert_int_equal(lab_migrate(&db, &v), 0);
	assert_int_equal(v.lab_from, 0);
	assert_int_equal(v.lab_to, lab_schema_version());
	assert_int_equal(v.store_from, 0);
	assert_int_equal(v.store_to, store_pg_backend.nr_migrations);
	assert_int_equal(lab_check_schema(&db), 0);
	assert_int_equal(lab_migrate(&db, &v), 0);
	assert_int_equal(v.lab_from, v.lab_to);
	assert_int_equal(v.store_from, v.store_to);
	/* the admin role owns what the superuser made */
	msg = lab_test_value(empty, "SELECT string_agg(DISTINCT tableowner, ',') FROM pg_tables "
			     "WHERE schemaname = 'perfbot'");
	assert_string_equal(msg, LAB_ROLE_ADMIN);
	free(msg);

	/* a newer lab schema is refused by both, and left as it is */
	assert_int_equal(pg_exec(&db, "UPDATE perfbot.schema_version SET version = version + 1 "
				 "WHERE component = 'lab'", 0, NULL), 0);
	capture_start(&cap);
	assert_int_equal(lab_check_schema(&db), -1);
	assert_int_equal(lab_migrate(&db, &v), -1);
	msg = capture_end(&cap);
	snprintf(want, sizeof(want), "the database's lab schema is version %d, newer than this "
		 "perfbot's %d: upgrade perfbot\n", lab_schema_version() + 1, lab_schema_version());
	assert_non_null(strstr(msg, want));
	free(msg);
	msg = lab_test_value(empty, "SELECT version FROM perfbot.schema_version WHERE component = 'lab'");
	assert_int_equal(atoi(msg), lab_schema_version() + 1);
	free(msg);
	/* so is a newer store */
	assert_int_equal(pg_exec(&db, "UPDATE perfbot.schema_version SET version = version - 1 "
				 "WHERE component = 'lab'", 0, NULL), 0);
	assert_int_equal(pg_exec(&db, "UPDATE perfbot.schema_version SET version = version + 1 "
				 "WHERE component = 'store'", 0, NULL), 0);
	capture_start(&cap);
	assert_int_equal(lab_migrate(&db, &v), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "has schema version 3, newer than this perfbot's 2"));
	free(msg);
	/* a lab at version 1 (before uploads stopped locking the store's
	 * job row) is told to migrate, and lab init takes it to the last */
	assert_int_equal(pg_exec(&db, "UPDATE perfbot.schema_version SET version = version - 1 "
				 "WHERE component = 'store'", 0, NULL), 0);
	/* (migrations 6, 5, 4, 3 and 2 undone, as version 1 had it) */
	assert_int_equal(pg_exec_script(&db, UNDO_6 "DROP FUNCTION perfbot.release(bigint, int); "
					"DROP FUNCTION perfbot.upload_claim("
					LAB_UPLOAD_CLAIM_ARGS "); "
					"DROP FUNCTION perfbot.upload_job(bigint, int, text, "
					"text[], int[], int[], text[], double precision[], int[], "
					"text[], bigint[], bytea[]); "
					"DROP INDEX perfbot.queue_lease; "
					"DROP FUNCTION perfbot.announce_done(bigint); "
					"ALTER FUNCTION perfbot.claim(text, text, double precision) "
					"RESET enable_sort RESET plan_cache_mode; "
					"UPDATE perfbot.schema_version SET version = 1 "
					"WHERE component = 'lab'"), 0);
	capture_start(&cap);
	assert_int_equal(lab_check_schema(&db), -1);
	msg = capture_end(&cap);
	snprintf(want, sizeof(want), "lab schema is version 1, older than this perfbot's %d",
		 lab_schema_version());
	assert_non_null(strstr(msg, want));
	free(msg);
	assert_int_equal(lab_migrate(&db, &v), 0);
	assert_int_equal(v.lab_from, 1);
	assert_int_equal(v.lab_to, lab_schema_version());
	assert_int_equal(lab_check_schema(&db), 0);
	msg = lab_test_value(empty, "SELECT array_to_string(proconfig, ' ') || ' ' || "
			     "(to_regclass('perfbot.queue_lease') IS NOT NULL) || ' ' || "
			     "(to_regprocedure('perfbot.announce_done(bigint)') IS NOT NULL) FROM pg_proc "
			     "WHERE proname = 'claim_unchecked'");  /* schema 7's claim calls it */
	assert_string_equal(msg, "search_path=pg_catalog, pg_temp enable_sort=off "
			    "plan_cache_mode=force_generic_plan true true");
	free(msg);
	pg_close(&db);
	free(empty);
}

/* want is "true false false" when box1 may run fn, and the submitter and PUBLIC may not */
static void assert_rights(struct ctx *c, const char *fn, const char *want)
{
	struct strbuf sql = STRBUF_INIT;
	char *got;

	strbuf_addf(&sql, "SELECT has_function_privilege('" TEST_BOX1 "', '%s', 'EXECUTE') || ' ' || "
		    "has_function_privilege('" TEST_SUBMITTER "', '%s', 'EXECUTE') || ' ' || "
		    "has_function_privilege('public', '%s', 'EXECUTE')", fn, fn, fn);
	got = lab_test_value(c->db, sql.buf);
	assert_string_equal(got, want);
	free(got);
	strbuf_release(&sql);
}

/* Take db's lab from version `from` to this perfbot's, 7; `as` may use it
 * then, and the boxes are registered for any group again. */
static void migrate_from(struct pg *db, int from, struct pg *as)
{
	struct lab_versions v;

	assert_int_equal(lab_migrate(db, &v), 0);
	assert_int_equal(v.lab_from, from);
	assert_int_equal(v.lab_to, 7);
	assert_int_equal(lab_check_schema(as), 0);
	assert_int_equal(pg_exec(db, "INSERT INTO perfbot.box_group VALUES ('" TEST_BOX1 "', '*'), "
				 "('" TEST_BOX2 "', '*')", 0, NULL), 0);
}

#define UPLOAD_JOB_ARGS "bigint, int, text, text[], int[], int[], text[], double precision[], " \
	"int[], text[], bigint[], bytea[]"

/* Open *db as the superuser on c's database and take its lab schema back
 * to version (undo: what the later migrations made, dropped); a worker
 * is then told to migrate. */
static void downgrade(struct ctx *c, struct pg *db, int version, const char *undo)
{
	struct stderr_capture cap;
	char sql[4096], want[128];
	char *msg;

	lab_test_open(db, c->db, "postgres");
	snprintf(sql, sizeof(sql), "%s UPDATE perfbot.schema_version SET version = %d "
		 "WHERE component = 'lab'", undo, version);
	assert_int_equal(pg_exec_script(db, sql), 0);
	capture_start(&cap);
	assert_int_equal(lab_check_schema(&c->box1), -1);
	msg = capture_end(&cap);
	snprintf(want, sizeof(want), "lab schema is version %d, older than this perfbot's %d: run "
		 "'perfbot lab init --db URL' as its admin", version, lab_schema_version());
	assert_non_null(strstr(msg, want));
	free(msg);
}

/* A lab at version 2, with a job running and its result half-way through
 * schema 2's calls, is taken to 3: the old calls still work, and the
 * next job goes through upload_job, a worker's only. */
static void test_migrate_2_to_3(void **state)
{
	struct ctx *c = start(state);
	struct pg db = PG_INIT;
	struct queue_claim q;
	char *msg;

	/* (queued first: this perfbot's submit is schema 6's) */
	submit(c, "a");
	submit(c, "b");
	downgrade(c, &db, 2, UNDO_6 "DROP FUNCTION perfbot.release(bigint, int); "
		  "DROP FUNCTION perfbot.upload_claim(" LAB_UPLOAD_CLAIM_ARGS "); "
		  "DROP FUNCTION perfbot.upload_job(" UPLOAD_JOB_ARGS ");");
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);
	assert_int_equal(pg_exec(&c->box1, "BEGIN", 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_begin(1, 1, "
				 "'t/p/g/r/k/c/c0ffee', '{}')", 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_run(1, 1, 0, '{m}', '{1}')", 0,
				 NULL), 0);

	migrate_from(&db, 2, &db);
	/* the upload begun before completes as it began */
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.complete(1, 1)", 0, NULL), 0);
	assert_int_equal(pg_exec(&c->box1, "COMMIT", 0, NULL), 0);
	/* the next, in one call */
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	assert_int_equal(q.id, 2);
	queue_claim_release(&q);
	assert_rights(c, "perfbot.upload_job(" UPLOAD_JOB_ARGS ")", "true false false");
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_job(2, 1, 'mytest/p/g/r/k/c/c0ffee', "
				 "'{}', '{0}', '{1}', '{m}', '{2}', '{}', '{}', '{}', '{}')", 0, NULL), 0);
	msg = lab_test_value(c->db, "SELECT string_agg(q.id || ' ' || q.state || ' ' || s.value, ', ' "
			     "ORDER BY q.id) FROM perfbot.queue q JOIN perfbot.upload u ON u.job_id = q.id "
			     "JOIN perfbot.run r ON r.root_id = u.root_id "
			     "JOIN perfbot.sample s ON s.run_id = r.id");
	assert_string_equal(msg, "1 done 1, 2 done 2");
	free(msg);
	pg_close(&db);
}

/* A lab at version 3 with a job running is taken to 4: that job's
 * upload_job still completes it, and upload_claim, a worker's only,
 * completes the next and claims the one after in the same call. */
static void test_migrate_3_to_4(void **state)
{
	struct ctx *c = start(state);
	struct pg db = PG_INIT;
	struct queue_claim q;
	char *msg;

	submit(c, "a");
	submit(c, "b");
	submit(c, "c");
	downgrade(c, &db, 3, UNDO_6 "DROP FUNCTION perfbot.release(bigint, int); "
		  "DROP FUNCTION perfbot.upload_claim(" LAB_UPLOAD_CLAIM_ARGS ");");
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);

	migrate_from(&db, 3, &c->box1);
	assert_rights(c, "perfbot.upload_claim(" LAB_UPLOAD_CLAIM_ARGS ")", "true false false");
	assert_int_equal(pg_exec(&c->box1, "SELECT perfbot.upload_job(1, 1, 'mytest/p/g/r/k/c/c0ffee', "
				 "'{}', '{0}', '{1}', '{m}', '{1}', '{}', '{}', '{}', '{}')", 0, NULL), 0);
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	assert_int_equal(q.id, 2);
	queue_claim_release(&q);
	PGresult *r = pg_query(&c->box1, "SELECT uploaded, id, attempt FROM perfbot.upload_claim(2, 1, "
			       "'mytest/p/g/r/k/c/c0ffee', '{}', '{0}', '{1}', '{m}', '{2}', '{}', '{}', '{}', "
			       "'{}', 'g', 'host:1', 60)", 0, NULL);
	assert_non_null(r);
	assert_string_equal(PQgetvalue(r, 0, 0), "completed");
	assert_string_equal(PQgetvalue(r, 0, 1), "3");
	assert_string_equal(PQgetvalue(r, 0, 2), "1");
	PQclear(r);
	/* the submitter may not */
	c->sub.quiet = true;
	assert_null(pg_query(&c->sub, "SELECT * FROM perfbot.upload_claim(3, 1, 'mytest/p/g/r/k/c/c0ffee', "
			     "'{}', '{0}', '{1}', '{m}', '{3}', '{}', '{}', '{}', '{}', 'g', 'x:1', 60)",
			     0, NULL));
	assert_true(pg_failed_with(&c->sub, "42501"));
	msg = lab_test_value(c->db, "SELECT string_agg(q.id || ' ' || q.state || ' ' || "
			     "coalesce(s.value::text, '-'), ', ' ORDER BY q.id) FROM perfbot.queue q "
			     "LEFT JOIN perfbot.upload u ON u.job_id = q.id "
			     "LEFT JOIN perfbot.run r ON r.root_id = u.root_id "
			     "LEFT JOIN perfbot.sample s ON s.run_id = r.id");
	assert_string_equal(msg, "1 done 1, 2 done 2, 3 running -");
	free(msg);
	pg_close(&db);
}

/* A lab at version 4 with a job running is taken to 5: release, a
 * worker's only, hands that job back. */
static void test_migrate_4_to_5(void **state)
{
	struct ctx *c = start(state);
	struct pg db = PG_INIT;
	struct queue_claim q;

	long long id = submit(c, "a");
	downgrade(c, &db, 4, UNDO_6 "DROP FUNCTION perfbot.release(bigint, int);");
	assert_int_equal(claim(&c->box1, "g", &q), 1);
	queue_claim_release(&q);

	migrate_from(&db, 4, &c->box1);
	assert_rights(c, "perfbot.release(bigint, int)", "true false false");
	assert_int_equal(queue_release(&c->box1, id, 1), 0);
	assert_col(c, id, "state || ' ' || max_attempts", "queued 4");
	pg_close(&db);
}

/* A lab at version 5 with jobs queued by the old submit is taken to 6:
 * they have no reference, the new submit and submitted are the
 * submitter's only, and the old submit still queues. */
static void test_migrate_5_to_6(void **state)
{
	struct ctx *c = start(state);
	struct pg db = PG_INIT;
	long long *ids;
	int n;
	char *msg;

	downgrade(c, &db, 5, UNDO_6);
	assert_int_equal(pg_exec(&c->sub, "SELECT perfbot.submit('a', 'testcase: t', 'abc', NULL, "
				 "NULL, NULL, 5, 1, 3)", 0, NULL), 0);
	migrate_from(&db, 5, &c->sub);
	assert_rights(c, "perfbot.submit(" LAB_SUBMIT_ARGS ")", "false true false");
	assert_rights(c, "perfbot.submitted(text)", "false true false");
	msg = lab_test_value(c->db, "SELECT count(*) FROM perfbot.submit_ref");
	assert_string_equal(msg, "0");
	free(msg);
	assert_int_equal(pg_exec(&c->sub, "SELECT perfbot.submit('b', 'testcase: t', 'abc', NULL, "
				 "NULL, NULL, 5, 1, 3)", 0, NULL), 0);
	struct queue_job j = { "c.yaml", "testcase: t\n", "abc", NULL, NULL, NULL, 5, 1, 3, "r" };
	long long id;
	assert_int_equal(queue_submit(&c->sub, &j, &id), 0);
	assert_int_equal(id, 3);
	assert_int_equal(queue_submitted(&c->sub, "r", &ids, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 3);
	free(ids);
	pg_close(&db);
}

static void test_migrate_needs_a_superuser_first(void **state)
{
	char *empty = lab_test_empty_db();
	struct pg db = PG_INIT;
	struct stderr_capture cap;
	struct lab_versions v;
	char *msg, *n;

	(void)state;
	lab_test_sql(empty, "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE "
		     "rolname = 't_plain') THEN CREATE ROLE t_plain LOGIN; END IF; END $$");
	lab_test_open(&db, empty, "t_plain");
	capture_start(&cap);
	assert_int_equal(lab_migrate(&db, &v), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "run the first 'perfbot lab init' as a superuser"));
	free(msg);
	/* nothing was made */
	n = lab_test_value(empty, "SELECT count(*) FROM pg_namespace WHERE nspname = 'perfbot'");
	assert_string_equal(n, "0");
	free(n);
	pg_close(&db);
	free(empty);
}

/* The migrations as the Makefile embeds them from src/pg/migrations/:
 * comment and blank lines left out, and the names C calls the SQL by
 * (schema.h) spelled the same in the SQL.  No server needed. */
#define STR(x) #x
#define XSTR(x) STR(x)
static void test_migrations_embedded_as_written(void **state)
{
	(void)state;
	assert_int_equal(lab_nr_migrations, 7);
	assert_int_equal(lab_schema_version(), lab_nr_migrations);
	for (int i = 0; i < lab_nr_migrations; i++) {
		const char *what = lab_migrations[i].what, *sql = lab_migrations[i].sql;
		assert_true(*what && strncmp(what, "--", 2) && !strchr(what, '\n'));
		assert_true(*sql && sql[strlen(sql) - 1] == '\n');
		for (const char *l = sql; *l; l = strchr(l, '\n') + 1) {
			const char *t = l + strspn(l, " \t");
			assert_true(*t != '\n' && strncmp(t, "--", 2));
		}
	}
	assert_string_equal(lab_migrations[0].what, "the queue, uploaded results, roles' grants");
	assert_non_null(strstr(lab_migrations[0].sql, "CREATE TABLE perfbot.queue (\n"));
	assert_non_null(strstr(lab_migrations[0].sql, "-- the atomic job's file name\n"));
	assert_non_null(strstr(lab_migrations[3].sql,
			       "perfbot.upload_claim(" LAB_UPLOAD_CLAIM_ARGS ") TO " LAB_ROLE_WORKER));
	assert_non_null(strstr(lab_migrations[5].sql,
			       "perfbot.submit(" LAB_SUBMIT_ARGS ")"));
	assert_non_null(strstr(lab_migrations[6].sql,
			       "least(p_lease_s, " XSTR(LAB_LEASE_MAX_S) ")"));
	assert_non_null(strstr(lab_migrations[6].sql,
			       "perfbot.upload_job(" LAB_UPLOAD_JOB_ARGS ") RENAME"));
	assert_non_null(strstr(lab_migrations[6].sql, "'" LAB_ROLE_ADMIN "', 'MEMBER'"));
	assert_non_null(strstr(lab_migrations[6].sql, "TO " LAB_ROLE_REPORTER ";\n"));
	assert_non_null(strstr(lab_migrations[0].sql, "TO " LAB_ROLE_SUBMITTER ";\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrations_embedded_as_written),
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_submit_queues_with_fields),
		T(test_submit_refuses_out_of_range),
		T(test_submit_notifies_workers),
		T(test_claim_takes_queued_job),
		T(test_claim_matches_tbox_group),
		T(test_claim_order_priority_then_age),
		T(test_claim_skips_locked_rows),
		T(test_heartbeat_renews_only_the_holders_lease),
		T(test_expired_lease_is_reclaimed),
		T(test_expired_lease_without_attempts_is_parked),
		T(test_fail_requeues_then_parks),
		T(test_fail_after_lease_expired_is_refused),
		T(test_release_keeps_the_attempts),
		T(test_release_after_lease_expired_is_refused),
		T(test_cancel_queued_and_running),
		T(test_cancel_refuses_finished_and_unknown),
		T(test_retry_failed_and_cancelled),
		T(test_retry_refuses_live_jobs),
		T(test_list_filters_by_state),
		T(test_submitted_finds_a_batch),
		T(test_worker_cannot_read_queue_or_change_results),
		T(test_submitter_cannot_work_or_write_results),
		T(test_schema_check_and_versions),
		T(test_migrate_2_to_3),
		T(test_migrate_3_to_4),
		T(test_migrate_4_to_5),
		T(test_migrate_5_to_6),
		T(test_migrate_needs_a_superuser_first),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
