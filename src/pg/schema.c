/*
 * schema.c: the lab's roles, and the running of its migrations (their SQL
 * is in migrations/NNN-*.sql; see schema.h).  `perfbot lab init` as a
 * whole, which opens the store between two of these steps, is
 * src/lab/init.c.
 *
 * The queue's life (each arrow is one SQL function of the migrations;
 * the tests in tests/unit/test_lab_queue.c take every one):
 *
 *   submit -> queued --claim--> running --complete--> done
 *                ^                 |  \--fail, attempts left--> queued
 *                |                 |  \--fail, none left------> failed
 *                |                 |  \--lease expired: the next claim
 *                |                 |     takes it again (attempt + 1), or
 *                |                 |     parks it (failed) when none left
 *                |   cancel (queued or running) --> cancelled
 *                \---retry (failed or cancelled)
 *
 * `attempt` only ever grows, so (job, attempt) names one holding of a
 * job for all time: a worker whose lease expired, or whose job was
 * cancelled and retried, still has an old attempt number and every call
 * it makes is refused.  A retry grants `budget` more attempts by raising
 * max_attempts, rather than resetting attempt, for that reason.
 *
 * Errors the functions raise carry perfbot's own SQLSTATEs, so that the
 * client can act on them without parsing text:
 *   PBL01  the caller does not hold this (job, attempt) with a live lease
 *   PBU01  a malformed upload (bad name, run, sizes; no run)
 *   PBN01  no such job
 *   PBS01  the job's state does not allow it (cancel a done job, ...)
 */
#include "pg/schema.h"
#include "pg/migrations.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Roles are cluster-wide: another database of the same cluster may have
 * made one between our check and our CREATE, hence the handler. */
static const char create_roles[] =
	"DO $$\n"
	"DECLARE r text;\n"
	"BEGIN\n"
	"  FOREACH r IN ARRAY ARRAY['" LAB_ROLE_ADMIN "', '" LAB_ROLE_SUBMITTER "', '"
	LAB_ROLE_WORKER "', '" LAB_ROLE_REPORTER "'] LOOP\n"
	"    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN\n"
	"      BEGIN\n"
	"        EXECUTE format('CREATE ROLE %I NOLOGIN', r);\n"
	"      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;\n"
	"      END;\n"
	"    END IF;\n"
	"  END LOOP;\n"
	"  IF NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'perfbot') THEN\n"
	"    CREATE SCHEMA perfbot AUTHORIZATION " LAB_ROLE_ADMIN ";\n"
	"  END IF;\n"
	"END $$";

/* Run as perfbot_admin, so that it owns what it makes, and a later
 * migration by any member of the role may change it. */
static const char bootstrap[] =
	"SET LOCAL ROLE " LAB_ROLE_ADMIN ";\n"
	"CREATE TABLE IF NOT EXISTS perfbot.schema_version (\n"
	"  component text PRIMARY KEY,\n"
	"  version int NOT NULL\n"
	");\n"
	"GRANT USAGE ON SCHEMA perfbot TO " LAB_ROLE_SUBMITTER ", " LAB_ROLE_WORKER ";\n"
	"GRANT SELECT ON perfbot.schema_version TO " LAB_ROLE_SUBMITTER ", " LAB_ROLE_WORKER ";\n";


int lab_schema_version(void)
{
	return lab_nr_migrations;
}

int lab_read_version(struct pg *db, const char *component)
{
	const char *p[1] = { component };
	PGresult *r = pg_query(db, "SELECT version FROM perfbot.schema_version "
			       "WHERE component = $1", 1, p);
	int v;

	if (!r)
		return -1;
	v = PQntuples(r) ? (int)pg_int(r, 0, 0) : 0;
	PQclear(r);
	return v;
}

/* BEGIN, then wait for any other `lab init` of this database. */
static int begin_locked(struct pg *db)
{
	if (pg_exec(db, "BEGIN", 0, NULL) < 0)
		return -1;
	if (pg_exec(db, "SELECT pg_advisory_xact_lock(hashtext('perfbot lab init'))", 0, NULL) < 0)
		return -1;
	return 0;
}

static void rollback(struct pg *db)
{
	bool q = db->quiet;

	db->quiet = true;
	pg_exec(db, "ROLLBACK", 0, NULL);
	db->quiet = q;
}

int lab_bootstrap(struct pg *db)
{
	if (begin_locked(db) < 0)
		goto fail;
	db->quiet = true;
	if (pg_exec_script(db, create_roles) < 0) {
		db->quiet = false;
		if (pg_failed_with(db, "42501"))
			error("cannot create the roles and schema (%s): run the first "
			      "'perfbot lab init' as a superuser", db->err.buf);
		else
			error("database: %s", db->err.buf);
		goto fail;
	}
	db->quiet = false;
	if (pg_exec_script(db, bootstrap) < 0 || pg_exec(db, "COMMIT", 0, NULL) < 0)
		goto fail;
	return 0;
fail:
	rollback(db);
	return -1;
}

int lab_migrate_queue(struct pg *db, int *from, int *to)
{
	char buf[16];
	const char *p[1] = { buf };
	int v;

	if (begin_locked(db) < 0 || (v = lab_read_version(db, "lab")) < 0)
		goto fail;
	*from = *to = v;
	if (v > lab_nr_migrations) {
		error("the database's lab schema is version %d, newer than this perfbot's %d: "
		      "upgrade perfbot", v, lab_nr_migrations);
		goto fail;
	}
	if (pg_exec(db, "SET LOCAL ROLE " LAB_ROLE_ADMIN, 0, NULL) < 0)
		goto fail;
	for (; v < lab_nr_migrations; v++) {
		if (pg_exec_script(db, lab_migrations[v].sql) < 0) {
			error("lab schema migration %d (%s) failed", v + 1, lab_migrations[v].what);
			goto fail;
		}
	}
	snprintf(buf, sizeof(buf), "%d", v);
	if (pg_exec(db, "INSERT INTO perfbot.schema_version (component, version) VALUES ('lab', $1) "
		    "ON CONFLICT (component) DO UPDATE SET version = excluded.version", 1, p) < 0 ||
	    pg_exec(db, "COMMIT", 0, NULL) < 0)
		goto fail;
	*to = v;
	return 0;
fail:
	rollback(db);
	return -1;
}

int lab_check_schema(struct pg *db)
{
	int v;

	db->quiet = true;
	v = lab_read_version(db, "lab");
	db->quiet = false;
	if (v < 0) {
		if (pg_failed_with(db, "42P01") || pg_failed_with(db, "3F000"))
			return error("the database has no perfbot schema: run 'perfbot lab init --db URL' "
				     "as its admin first");
		if (pg_failed_with(db, "42501"))
			return error("this login may not use the perfbot schema (%s): make it a member of "
				     LAB_ROLE_SUBMITTER " or " LAB_ROLE_WORKER, db->err.buf);
		return error("database: %s", db->err.buf);
	}
	if (v == 0)
		return error("the database has no perfbot schema: run 'perfbot lab init --db URL' "
			     "as its admin first");
	if (v > lab_nr_migrations)
		return error("the database's lab schema is version %d, newer than this perfbot's %d: "
			     "upgrade perfbot", v, lab_nr_migrations);
	if (v < lab_nr_migrations)
		return error("the database's lab schema is version %d, older than this perfbot's %d: "
			     "run 'perfbot lab init --db URL' as its admin", v, lab_nr_migrations);
	return 0;
}

int lab_open(struct pg *db, const char *opt)
{
	const char *url = lab_db_url(opt);

	if (!url)
		return -1;
	if (pg_open(db, url) < 0 || lab_check_schema(db) < 0) {
		pg_close(db);
		return -1;
	}
	return 0;
}
