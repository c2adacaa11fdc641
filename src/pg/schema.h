#ifndef PERFBOT_PG_SCHEMA_H
#define PERFBOT_PG_SCHEMA_H
/*
 * The lab's database schema: numbered migrations, the roles and their
 * grants, as `perfbot lab init` applies them.
 *
 * Everything lives in the schema "perfbot", owned by the role
 * perfbot_admin.  Three roles (NOLOGIN groups: people and boxes log in
 * with their own roles, made members of one of these):
 *
 *   perfbot_admin      owns every object; runs `perfbot lab init`
 *   perfbot_submitter  queues, lists, cancels and retries jobs and reads
 *                      results; cannot write results
 *   perfbot_worker     nothing but EXECUTE on the functions that claim a
 *                      job, renew its lease, fail it, and upload and
 *                      complete the results of a job it holds
 *   perfbot_reporter   writes perfbot watch's record of what it reported
 *
 * Submitters cancel and retry their own jobs only (admins any); a box
 * claims only the groups perfbot.box_group registers it for (schema 7).
 *
 * The worker's functions are SECURITY DEFINER (they run as the admin
 * role) and check that the caller's login (session_user) holds the
 * job's current attempt with a live lease.  A worker therefore cannot
 * select from any table: it can read neither another box's lease nor any
 * stored result, and it cannot change a stored result.  Row-level
 * security could express part of this, but a claim must see and take
 * another box's expired lease, which a per-box policy forbids; functions
 * say exactly what a worker may do, in one place.
 *
 * perfbot.schema_version holds one row per component ("lab", and
 * "store" for the store's tables, src/store/store_pg.c); versions only
 * grow.  A database at a newer version than this perfbot knows is
 * refused, never "fixed"; an older one is migrated only by lab init.
 *
 * This is the PostgreSQL layer's (src/pg/): lab and store both stand on
 * it, and it on util alone.
 */
#include "pg/pg.h"

#define LAB_ROLE_ADMIN "perfbot_admin"
#define LAB_ROLE_SUBMITTER "perfbot_submitter"
#define LAB_ROLE_WORKER "perfbot_worker"
#define LAB_ROLE_REPORTER "perfbot_reporter"

/* perfbot.upload_job's argument types (schema 3) */
#define LAB_UPLOAD_JOB_ARGS "bigint, int, text, text[], int[], int[], text[], " \
	"double precision[], int[], text[], bigint[], bytea[]"

/* The longest lease a claim or heartbeat gets, in seconds (schema 7):
 * `perfbot worker --lease` takes no more (migrations/007-authorization.sql
 * says why). */
#define LAB_LEASE_MAX_S 600

/* perfbot.upload_claim's argument types (schema 4), for grants and tests */
#define LAB_UPLOAD_CLAIM_ARGS "bigint, int, text, text[], int[], int[], text[], " \
	"double precision[], int[], text[], bigint[], bytea[], text, text, double precision"

/* perfbot.submit's argument types (schema 6: with the batch's reference) */
#define LAB_SUBMIT_ARGS "text, text, text, text, text, text, int, int, int, text"

/* The lab schema version this perfbot reads and writes. */
int lab_schema_version(void);

/*
 * The steps of `perfbot lab init` (lab_migrate, src/lab/init.h, runs
 * them with the store's migrations between the two), each one
 * transaction under an advisory lock, so that two inits at once
 * serialize (the second finds nothing to do) and a failure leaves each
 * component at a version it fully has.
 *
 * lab_bootstrap creates the roles (when missing), the schema and its
 * version table: the first init needs a superuser for it, later ones
 * any member of perfbot_admin.  lab_migrate_queue runs the lab's own
 * migrations (the queue and uploads), from the database's version
 * (*from) to this perfbot's (*to).  Each returns 0, or -1 after an
 * error.
 */
int lab_bootstrap(struct pg *db);
int lab_migrate_queue(struct pg *db, int *from, int *to);

/* The database's schema version of component ("lab", "store"): 0 when
 * it has none; -1 after an error (quiet when db->quiet). */
int lab_read_version(struct pg *db, const char *component);

/*
 * Check that the database holds the lab schema at this perfbot's version.
 * 0, or -1 after an error saying what to do: "no perfbot schema: run
 * 'perfbot lab init'", "schema N is older than this perfbot's M: run
 * ...", "schema N is newer than this perfbot's M: upgrade perfbot".
 */
int lab_check_schema(struct pg *db);

/*
 * A lab command's connection: the URL from opt or $PERFBOT_DB
 * (lab_db_url), connected, and its schema checked.  0, or -1 after an
 * error with db closed.
 */
int lab_open(struct pg *db, const char *opt);

#endif
