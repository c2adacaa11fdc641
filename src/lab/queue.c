/*
 * queue.c: the queue's C side (see queue.h; the SQL is in src/pg/migrations/).
 */
#include "lab/queue.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int queue_submit(struct pg *db, const struct queue_job *j, long long *id)
{
	char prio[16], runs[16], att[16];
	const char *p[10] = { j->name, j->job, j->commit, j->repo, j->build, j->tbox_group,
			      prio, runs, att, j->ref };
	PGresult *r;

	snprintf(prio, sizeof(prio), "%d", j->priority);
	snprintf(runs, sizeof(runs), "%d", j->runs);
	snprintf(att, sizeof(att), "%d", j->attempts);
	r = pg_query(db, "SELECT perfbot.submit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", 10,
		     p);
	if (!r)
		return -1;
	*id = pg_int(r, 0, 0);
	PQclear(r);
	return 0;
}

int queue_submitted(struct pg *db, const char *ref, long long **ids, int *nr)
{
	const char *p[1] = { ref };
	PGresult *r = pg_query(db, "SELECT perfbot.submitted($1)", 1, p);

	*ids = NULL;
	*nr = 0;
	if (!r)
		return -1;
	if (PQntuples(r)) {
		*ids = xcalloc((size_t)PQntuples(r), sizeof(**ids));
		for (int i = 0; i < PQntuples(r); i++)
			(*ids)[i] = pg_int(r, i, 0);
	}
	*nr = PQntuples(r);
	PQclear(r);
	return 0;
}

/* cancel and retry: one call, errors (PBN01, PBS01) worded by the SQL */
static int change(struct pg *db, const char *sql, long long id)
{
	char buf[24];
	const char *p[1] = { buf };

	snprintf(buf, sizeof(buf), "%lld", id);
	return pg_exec(db, sql, 1, p);
}

int queue_cancel(struct pg *db, long long id)
{
	return change(db, "SELECT perfbot.cancel($1)", id);
}

int queue_retry(struct pg *db, long long id)
{
	return change(db, "SELECT perfbot.retry($1)", id);
}

PGresult *queue_list(struct pg *db, const char *state)
{
	static const char *const states[] = { "queued", "running", "done", "failed", "cancelled" };
	const char *p[1] = { state };
	bool known = !state;

	for (size_t i = 0; !known && i < sizeof(states) / sizeof(states[0]); i++)
		known = !strcmp(state, states[i]);
	if (!known) {
		error("unknown state '%s' (queued, running, done, failed, cancelled)", state);
		return NULL;
	}
	return pg_query(db,
		"SELECT id, state, priority, attempt, max_attempts, tbox_group,\n"
		"  coalesce(box, ''), coalesce(worker, ''), coalesce(commit, ''), name,\n"
		"  CASE WHEN state <> 'running' THEN ''\n"
		"       WHEN lease_expires_at <= now() THEN 'expired'\n"
		"       ELSE ceil(extract(epoch FROM lease_expires_at - now()))::int || 's' END,\n"
		"  coalesce(last_error, '')\n"
		"FROM perfbot.queue WHERE $1::text IS NULL OR state = $1 ORDER BY id", 1, p);
}

void queue_claim_release(struct queue_claim *c)
{
	free(c->name);
	free(c->job);
	free(c->commit);
	free(c->repo);
	free(c->build);
	memset(c, 0, sizeof(*c));
}

int queue_claim(struct pg *db, const char *group, const char *worker, double lease_s,
		struct queue_claim *c)
{
	char lease[32];
	const char *p[3] = { group, worker, lease };
	PGresult *r;

	memset(c, 0, sizeof(*c));
	snprintf(lease, sizeof(lease), "%.3f", lease_s);
	/* prepared: a worker claims again and again (bench/queue.sh) */
	r = pg_query_named(db, "perfbot_claim", "SELECT id, attempt, name, job, commit, repo, "
			   "build, runs FROM perfbot.claim($1, $2, $3)", 3, p, NULL, NULL);
	if (!r)
		return -1;
	int got = queue_claim_from(r, 0, c);
	PQclear(r);
	return got;
}

int queue_claim_from(const PGresult *r, int col, struct queue_claim *c)
{
	memset(c, 0, sizeof(*c));
	if (PQntuples(r) == 0 || PQgetisnull(r, 0, col))
		return 0;
	c->id = pg_int(r, 0, col);
	c->attempt = (int)pg_int(r, 0, col + 1);
	c->name = pg_strdup(r, 0, col + 2);
	c->job = pg_strdup(r, 0, col + 3);
	c->commit = pg_strdup(r, 0, col + 4);
	c->repo = pg_strdup(r, 0, col + 5);
	c->build = pg_strdup(r, 0, col + 6);
	c->runs = (int)pg_int(r, 0, col + 7);
	return 1;
}

/* One of the holder's calls, sql taking (id, attempt[, extra]): its
 * answer, "" for NULL (the caller does not hold the job), or -1. */
static int held_call(struct pg *db, const char *name, const char *sql, long long id,
		     int attempt, const char *extra, char *answer, size_t size)
{
	char sid[24], satt[16];
	const char *p[3] = { sid, satt, extra };
	PGresult *r;

	snprintf(sid, sizeof(sid), "%lld", id);
	snprintf(satt, sizeof(satt), "%d", attempt);
	r = name ? pg_query_named(db, name, sql, extra ? 3 : 2, p, NULL, NULL)
		 : pg_query(db, sql, extra ? 3 : 2, p);
	if (!r)
		return -1;
	snprintf(answer, size, "%s", PQgetisnull(r, 0, 0) ? "" : PQgetvalue(r, 0, 0));
	PQclear(r);
	return 0;
}

int queue_heartbeat(struct pg *db, long long id, int attempt, double lease_s)
{
	char lease[32], a[64];

	snprintf(lease, sizeof(lease), "%.3f", lease_s);
	if (held_call(db, "perfbot_heartbeat", "SELECT perfbot.heartbeat($1, $2, $3)", id, attempt,
		      lease, a, sizeof(a)) < 0)
		return -1;
	return a[0] != '\0';
}

int queue_fail(struct pg *db, long long id, int attempt, const char *why)
{
	char a[16];

	if (held_call(db, NULL, "SELECT perfbot.fail($1, $2, $3)", id, attempt, why, a,
		      sizeof(a)) < 0)
		return -1;
	if (!a[0])
		return 2;
	return strcmp(a, "queued") ? 1 : 0;
}

int queue_release(struct pg *db, long long id, int attempt)
{
	char a[16];

	if (held_call(db, NULL, "SELECT perfbot.release($1, $2)", id, attempt, NULL, a,
		      sizeof(a)) < 0)
		return -1;
	return a[0] ? 0 : 1;
}
