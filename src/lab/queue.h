#ifndef PERFBOT_LAB_QUEUE_H
#define PERFBOT_LAB_QUEUE_H
/*
 * The lab's job queue on PostgreSQL: each call is one statement calling
 * one of the SQL functions of src/pg/migrations/; the states and their
 * transitions are drawn and explained atop src/pg/schema.c.  This file
 * is the C side: typed arguments in, typed answers out, one-line errors.
 *
 * Who calls what: `perfbot queue` (a submitter's login) calls submit,
 * list, cancel, retry; `perfbot worker` (a box's login) calls claim,
 * heartbeat, fail, and lab_upload (upload.h) to complete.
 */
#include "pg/pg.h"

/* Defaults of `perfbot queue submit`. */
#define QUEUE_PRIORITY_DEFAULT 5      /* 0 runs first, 9 last */
#define QUEUE_ATTEMPTS_DEFAULT 3      /* failures before a job is parked */

struct queue_job {
	const char *name;          /* the atomic job's file name */
	const char *job;           /* its YAML text */
	const char *commit;        /* or NULL */
	const char *repo;          /* or NULL: no checkout */
	const char *build;         /* or NULL: nothing to build */
	const char *tbox_group;    /* or NULL: any box */
	int priority;              /* 0..9 */
	int runs;                  /* 1..1000 */
	int attempts;              /* 1..100 */
	const char *ref;           /* or NULL: the batch it belongs to, which
				    * queue_submitted finds again */
};

/* Queue j; sets *id.  0, or -1 after an error (a value out of range is
 * refused by the table's checks, with the constraint's name). */
int queue_submit(struct pg *db, const struct queue_job *j, long long *id);

/* The ids queued by this login under ref, in order, as an array of *nr
 * (NULL when none); 0, or -1 after an error. */
int queue_submitted(struct pg *db, const char *ref, long long **ids, int *nr);

/*
 * Cancel a queued or running job (a running one's worker notices at its
 * next heartbeat and stops), or put a failed or cancelled job back in the
 * queue with `attempts` more attempts.  0, or -1 after "no job 7" or
 * "job 7 is done: nothing to cancel".
 */
int queue_cancel(struct pg *db, long long id);
int queue_retry(struct pg *db, long long id);

/*
 * The queue, oldest first; state NULL for all.  Columns, in order: id,
 * state, priority, attempt, max_attempts, tbox_group, box, worker,
 * commit, name, lease ("12s" left, "expired", or empty), last_error.
 * NULL after an error (an unknown state is one); PQclear the result.
 */
PGresult *queue_list(struct pg *db, const char *state);

/* A job a worker holds (strings owned; queue_claim_release frees). */
struct queue_claim {
	long long id;
	int attempt;
	int runs;
	char *name, *job, *commit, *repo, *build;
};
void queue_claim_release(struct queue_claim *c);

/*
 * Take the most urgent job this box may run (tbox_group "" or group),
 * queued or with an expired lease, for lease_s seconds: one statement,
 * FOR UPDATE SKIP LOCKED, so concurrent claims never wait on each other
 * nor take the same job.  worker names this process ("host:pid") in
 * listings.  1 with *c filled, 0 when nothing is there, -1 after an error.
 */
int queue_claim(struct pg *db, const char *group, const char *worker, double lease_s,
		struct queue_claim *c);

/* A claim's row in r's first row from column col on (id, attempt, name,
 * job, commit, repo, build, runs: claim's columns) into *c: 1, or 0 when
 * there is no row or its id is NULL (nothing claimed; *c zeroed). */
int queue_claim_from(const PGresult *r, int col, struct queue_claim *c);

/* Renew the lease.  1 renewed, 0 the job is not ours any more (lease
 * expired, cancelled, taken again): stop working on it; -1 error. */
int queue_heartbeat(struct pg *db, long long id, int attempt, double lease_s);

/* Report a failure with its one-line reason.  0 back in the queue, 1
 * parked as failed (no attempt left), 2 not ours any more, -1 error. */
int queue_fail(struct pg *db, long long id, int attempt, const char *why);

/* Hand back a job claimed but not started (a worker stopping): queued
 * again, the attempt not counted against its budget, its last error
 * kept.  0 back in the queue, 1 not ours any more, -1 error. */
int queue_release(struct pg *db, long long id, int attempt);

#endif
