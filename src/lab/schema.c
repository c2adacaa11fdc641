/*
 * schema.c: the lab's migrations, roles and grants (see schema.h).
 *
 * Migrations are append-only: once one is on main, a change is a new
 * migration, never an edit, since some lab's database already ran it.
 *
 * The queue's life (each arrow is one function below; the tests in
 * tests/unit/test_lab_queue.c take every one):
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
#include "lab/schema.h"
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
	LAB_ROLE_WORKER "'] LOOP\n"
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

/* Common heads of the SECURITY DEFINER functions: a fixed search_path,
 * or a caller could put its own perfbot.* or operators first. */
#define DEFINER "SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
#define LEASE "make_interval(secs => least(greatest(p_lease_s, 1), 86400))"

static const char migration_1[] =
	/* --- the queue ------------------------------------------------- */
	"CREATE TABLE perfbot.queue (\n"
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
	"  state text NOT NULL DEFAULT 'queued'\n"
	"    CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),\n"
	"  name text NOT NULL,            -- the atomic job's file name\n"
	"  job text NOT NULL,             -- the atomic job (lkp YAML)\n"
	"  commit text,                   -- what the runs are recorded under\n"
	"  repo text,                     -- git URL to check commit out of\n"
	"  build text,                    -- shell command run in the checkout\n"
	"  tbox_group text NOT NULL DEFAULT '',  -- '' any box\n"
	"  priority int NOT NULL DEFAULT 5 CHECK (priority BETWEEN 0 AND 9),\n"
	"  runs int NOT NULL DEFAULT 1 CHECK (runs BETWEEN 1 AND 1000),\n"
	"  attempt int NOT NULL DEFAULT 0,      -- only grows (see schema.c)\n"
	"  budget int NOT NULL DEFAULT 3 CHECK (budget BETWEEN 1 AND 100),\n"
	"  max_attempts int NOT NULL DEFAULT 3,\n"
	"  box text,                      -- login of the holder, or the last one\n"
	"  worker text,                   -- its own name (host:pid)\n"
	"  lease_expires_at timestamptz,\n"
	"  scheduled_at timestamptz NOT NULL DEFAULT now(),\n"
	"  submitted_by text NOT NULL DEFAULT session_user,\n"
	"  started_at timestamptz,\n"
	"  finished_at timestamptz,\n"
	"  last_error text\n"
	");\n"
	/* what a claim scans: done/failed/cancelled rows leave the index */
	"CREATE INDEX queue_next ON perfbot.queue (priority, scheduled_at, id)\n"
	"  WHERE state IN ('queued', 'running');\n"
	/* --- what workers upload -------------------------------------- */
	"CREATE TABLE perfbot.results (\n"
	"  job_id bigint PRIMARY KEY REFERENCES perfbot.queue (id),\n"
	"  attempt int NOT NULL,\n"
	"  box text NOT NULL,\n"
	"  result_root text NOT NULL,     -- lkp's _result_root below the base\n"
	"  uploaded_at timestamptz NOT NULL DEFAULT now()\n"
	");\n"
	"CREATE TABLE perfbot.result_runs (\n"
	"  job_id bigint NOT NULL REFERENCES perfbot.results (job_id),\n"
	"  run int NOT NULL CHECK (run >= 0),\n"
	"  incomplete boolean NOT NULL,\n"
	"  metrics text[] NOT NULL,       -- stats.json: names ...\n"
	"  vals double precision[] NOT NULL,  -- ... and values, in order\n"
	"  PRIMARY KEY (job_id, run)\n"
	");\n"
	"CREATE TABLE perfbot.result_files (\n"
	"  job_id bigint NOT NULL REFERENCES perfbot.results (job_id),\n"
	"  run int NOT NULL CHECK (run >= -1),  -- -1: the _result_root's own\n"
	"  name text NOT NULL,\n"
	"  size bigint NOT NULL CHECK (size >= 0),  -- bytes before compression\n"
	"  data bytea NOT NULL,           -- a zlib stream\n"
	"  PRIMARY KEY (job_id, run, name)\n"
	");\n"
	/* already compressed: TOAST's own compression would only cost CPU */
	"ALTER TABLE perfbot.result_files ALTER data SET STORAGE EXTERNAL;\n"

	/* --- submitter ------------------------------------------------- */
	"CREATE FUNCTION perfbot.submit(p_name text, p_job text, p_commit text, p_repo text,\n"
	"    p_build text, p_group text, p_priority int, p_runs int, p_budget int)\n"
	"RETURNS bigint LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE new_id bigint;\n"
	"BEGIN\n"
	"  INSERT INTO perfbot.queue (name, job, commit, repo, build, tbox_group, priority,\n"
	"      runs, budget, max_attempts)\n"
	"  VALUES (p_name, p_job, p_commit, p_repo, p_build, coalesce(p_group, ''), p_priority,\n"
	"      p_runs, p_budget, p_budget)\n"
	"  RETURNING id INTO new_id;\n"
	"  PERFORM pg_notify('perfbot_queue', coalesce(p_group, ''));\n"
	"  RETURN new_id;\n"
	"END $f$;\n"

	/* Raise PBN01 or PBS01 for a job that is missing or in a state the
	 * operation does not take. */
	"CREATE FUNCTION perfbot.state_error(p_id bigint, p_what text) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE s text;\n"
	"BEGIN\n"
	"  SELECT q.state INTO s FROM perfbot.queue q WHERE q.id = p_id;\n"
	"  IF NOT FOUND THEN\n"
	"    RAISE EXCEPTION 'no job %', p_id USING ERRCODE = 'PBN01';\n"
	"  END IF;\n"
	"  RAISE EXCEPTION 'job % is %: nothing to %', p_id, s, p_what USING ERRCODE = 'PBS01';\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.cancel(p_id bigint) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE s text;\n"
	"BEGIN\n"
	"  SELECT q.state INTO s FROM perfbot.queue q WHERE q.id = p_id FOR UPDATE;\n"
	"  IF s IS NULL OR s NOT IN ('queued', 'running') THEN\n"
	"    PERFORM perfbot.state_error(p_id, 'cancel');\n"
	"  END IF;\n"
	"  UPDATE perfbot.queue q SET state = 'cancelled', finished_at = now(),\n"
	"      lease_expires_at = NULL WHERE q.id = p_id;\n"
	"  RETURN s;\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.retry(p_id bigint) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE s text; g text;\n"
	"BEGIN\n"
	"  SELECT q.state, q.tbox_group INTO s, g FROM perfbot.queue q WHERE q.id = p_id FOR UPDATE;\n"
	"  IF s IS NULL OR s NOT IN ('failed', 'cancelled') THEN\n"
	"    PERFORM perfbot.state_error(p_id, 'retry');\n"
	"  END IF;\n"
	"  UPDATE perfbot.queue q SET state = 'queued', finished_at = NULL,\n"
	"      max_attempts = q.attempt + q.budget WHERE q.id = p_id;\n"
	"  PERFORM pg_notify('perfbot_queue', g);\n"
	"  RETURN s;\n"
	"END $f$;\n"

	/* --- worker ---------------------------------------------------- */
	/* The claim: one statement.  "parked" fails the expired leases that
	 * have no attempt left; "next" picks the most urgent job this box
	 * may run, queued or with an expired lease, skipping rows another
	 * claim has locked; the UPDATE takes it.  The two CTEs touch
	 * disjoint rows (attempt >= max_attempts or not). */
	"CREATE FUNCTION perfbot.claim(p_group text, p_worker text, p_lease_s double precision)\n"
	"RETURNS TABLE (id bigint, attempt int, name text, job text, commit text, repo text,\n"
	"    build text, runs int)\n"
	"LANGUAGE sql " DEFINER " AS $f$\n"
	"WITH parked AS (\n"
	"  UPDATE perfbot.queue q SET state = 'failed', finished_at = now(), lease_expires_at = NULL,\n"
	"      last_error = format('attempt %s: the lease of %s (%s) expired; no attempt left',\n"
	"          q.attempt, q.worker, q.box)\n"
	"  WHERE q.id IN (SELECT e.id FROM perfbot.queue e\n"
	"      WHERE e.state = 'running' AND e.lease_expires_at < now()\n"
	"        AND e.attempt >= e.max_attempts\n"
	"      FOR UPDATE SKIP LOCKED)\n"
	"  RETURNING q.id\n"
	"), next AS (\n"
	"  SELECT c.id FROM perfbot.queue c\n"
	"  WHERE (c.state = 'queued' OR (c.state = 'running' AND c.lease_expires_at < now()\n"
	"          AND c.attempt < c.max_attempts))\n"
	"    AND (c.tbox_group = '' OR c.tbox_group = p_group)\n"
	"  ORDER BY c.priority, c.scheduled_at, c.id\n"
	"  LIMIT 1\n"
	"  FOR UPDATE SKIP LOCKED\n"
	")\n"
	"UPDATE perfbot.queue q SET state = 'running', attempt = q.attempt + 1,\n"
	"    box = session_user, worker = p_worker, started_at = now(),\n"
	"    lease_expires_at = now() + " LEASE ",\n"
	"    last_error = CASE WHEN q.state = 'running'\n"
	"        THEN format('attempt %s: the lease of %s (%s) expired', q.attempt, q.worker, q.box)\n"
	"        ELSE q.last_error END\n"
	"FROM next WHERE q.id = next.id\n"
	"RETURNING q.id, q.attempt, q.name, q.job, q.commit, q.repo, q.build, q.runs\n"
	"$f$;\n"

	/* NULL when the caller does not hold (p_id, p_attempt) any more */
	"CREATE FUNCTION perfbot.heartbeat(p_id bigint, p_attempt int, p_lease_s double precision)\n"
	"RETURNS timestamptz LANGUAGE sql " DEFINER " AS $f$\n"
	"UPDATE perfbot.queue q SET lease_expires_at = now() + " LEASE "\n"
	"WHERE q.id = p_id AND q.attempt = p_attempt AND q.box = session_user\n"
	"  AND q.state = 'running' AND q.lease_expires_at > now()\n"
	"RETURNING q.lease_expires_at\n"
	"$f$;\n"

	/* Back to the queue while attempts are left, else parked; NULL when
	 * not held. */
	"CREATE FUNCTION perfbot.fail(p_id bigint, p_attempt int, p_error text) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE s text; g text;\n"
	"BEGIN\n"
	"  UPDATE perfbot.queue q\n"
	"  SET state = CASE WHEN q.attempt >= q.max_attempts THEN 'failed' ELSE 'queued' END,\n"
	"      finished_at = CASE WHEN q.attempt >= q.max_attempts THEN now() END,\n"
	"      lease_expires_at = NULL,\n"
	"      last_error = format('attempt %s: %s', q.attempt,\n"
	"          left(coalesce(p_error, 'unknown error'), 2000))\n"
	"  WHERE q.id = p_id AND q.attempt = p_attempt AND q.box = session_user\n"
	"    AND q.state = 'running' AND q.lease_expires_at > now()\n"
	"  RETURNING q.state, q.tbox_group INTO s, g;\n"
	"  IF s = 'queued' THEN\n"
	"    PERFORM pg_notify('perfbot_queue', g);\n"
	"  END IF;\n"
	"  RETURN s;\n"
	"END $f$;\n"

	/* 'running' (upload away) or 'done' (this attempt completed it
	 * already: an upload whose COMMIT's answer was lost); raises PBL01
	 * otherwise.  Locks the row until the transaction ends: no claim can
	 * take the job from under an upload in progress. */
	"CREATE FUNCTION perfbot.hold(p_id bigint, p_attempt int) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE q record;\n"
	"BEGIN\n"
	"  SELECT j.state, j.attempt, j.box, j.lease_expires_at > now() AS live INTO q\n"
	"  FROM perfbot.queue j WHERE j.id = p_id FOR NO KEY UPDATE;\n"
	"  IF FOUND AND q.attempt = p_attempt AND q.box = session_user THEN\n"
	"    IF q.state = 'running' AND q.live THEN RETURN 'running'; END IF;\n"
	"    IF q.state = 'done' THEN RETURN 'done'; END IF;\n"
	"  END IF;\n"
	"  RAISE EXCEPTION 'job % attempt % is not held by %', p_id, p_attempt, session_user\n"
	"    USING ERRCODE = 'PBL01',\n"
	"      HINT = 'its lease expired, or it was cancelled or taken by another worker';\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.upload_begin(p_id bigint, p_attempt int, p_result_root text)\n"
	"RETURNS text LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE s text;\n"
	"BEGIN\n"
	"  s := perfbot.hold(p_id, p_attempt);\n"
	"  IF s = 'running' THEN\n"
	"    IF p_result_root IS NULL OR p_result_root = '' OR p_result_root LIKE '/%'\n"
	"        OR p_result_root ~ '(^|/)\\.\\.?(/|$)' THEN\n"
	"      RAISE EXCEPTION 'job %: bad result root %', p_id, coalesce(p_result_root, 'NULL')\n"
	"        USING ERRCODE = 'PBU01';\n"
	"    END IF;\n"
	"    INSERT INTO perfbot.results (job_id, attempt, box, result_root)\n"
	"    VALUES (p_id, p_attempt, session_user, p_result_root);\n"
	"  END IF;\n"
	"  RETURN s;\n"
	"END $f$;\n"

	/* Only while running: a 'done' job takes no more uploads. */
	"CREATE FUNCTION perfbot.upload_check(p_id bigint, p_attempt int) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  IF perfbot.hold(p_id, p_attempt) <> 'running' THEN\n"
	"    RAISE EXCEPTION 'job % attempt % is done already', p_id, p_attempt\n"
	"      USING ERRCODE = 'PBL01';\n"
	"  END IF;\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.upload_run(p_id bigint, p_attempt int, p_run int,\n"
	"    p_metrics text[], p_vals double precision[]) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  PERFORM perfbot.upload_check(p_id, p_attempt);\n"
	"  IF p_run IS NULL OR p_run < 0 OR p_run > 100000 THEN\n"
	"    RAISE EXCEPTION 'job %: bad run number %', p_id, p_run USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF coalesce(cardinality(p_metrics), 0) = 0\n"
	"      OR cardinality(p_metrics) <> coalesce(cardinality(p_vals), -1)\n"
	"      OR array_ndims(p_metrics) <> 1 OR array_ndims(p_vals) <> 1 THEN\n"
	"    RAISE EXCEPTION 'job % run %: % metric names for % values', p_id, p_run,\n"
	"      coalesce(cardinality(p_metrics), 0), coalesce(cardinality(p_vals), 0)\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF array_position(p_metrics, NULL) IS NOT NULL OR array_position(p_vals, NULL) IS NOT NULL\n"
	"      OR array_position(p_metrics, '') IS NOT NULL\n"
	"      OR (SELECT count(DISTINCT m) FROM unnest(p_metrics) m) <> cardinality(p_metrics) THEN\n"
	"    RAISE EXCEPTION 'job % run %: a metric is NULL, empty or twice', p_id, p_run\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  INSERT INTO perfbot.result_runs (job_id, run, incomplete, metrics, vals)\n"
	"  VALUES (p_id, p_run, coalesce((SELECT v <> 0 FROM unnest(p_metrics, p_vals) t(m, v)\n"
	"      WHERE m = 'last_state.is_incomplete_run'), false), p_metrics, p_vals);\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.upload_file(p_id bigint, p_attempt int, p_run int, p_name text,\n"
	"    p_size bigint, p_data bytea) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  PERFORM perfbot.upload_check(p_id, p_attempt);\n"
	"  IF p_name IS NULL OR p_name = '' OR p_name IN ('.', '..') OR strpos(p_name, '/') > 0\n"
	"      OR length(p_name) > 255 THEN\n"
	"    RAISE EXCEPTION 'job %: bad file name %', p_id, coalesce(p_name, 'NULL')\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF p_run IS NULL OR (p_run <> -1 AND NOT EXISTS (SELECT 1 FROM perfbot.result_runs r\n"
	"      WHERE r.job_id = p_id AND r.run = p_run)) THEN\n"
	"    RAISE EXCEPTION 'job %: file % of run %, which was not uploaded', p_id, p_name, p_run\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF p_size IS NULL OR p_size < 0 OR p_data IS NULL THEN\n"
	"    RAISE EXCEPTION 'job %: file % without data', p_id, p_name USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  INSERT INTO perfbot.result_files (job_id, run, name, size, data)\n"
	"  VALUES (p_id, p_run, p_name, p_size, p_data);\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.complete(p_id bigint, p_attempt int) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  PERFORM perfbot.upload_check(p_id, p_attempt);\n"
	"  IF NOT EXISTS (SELECT 1 FROM perfbot.result_runs r WHERE r.job_id = p_id) THEN\n"
	"    RAISE EXCEPTION 'job %: no run uploaded', p_id USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  UPDATE perfbot.queue q SET state = 'done', finished_at = now(), lease_expires_at = NULL\n"
	"  WHERE q.id = p_id;\n"
	"  PERFORM pg_notify('perfbot_done', p_id::text);\n"
	"END $f$;\n"

	/* --- who may do what ------------------------------------------- */
	"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA perfbot FROM PUBLIC;\n"
	"GRANT SELECT ON perfbot.queue, perfbot.results, perfbot.result_runs,\n"
	"    perfbot.result_files TO " LAB_ROLE_SUBMITTER ";\n"
	"GRANT EXECUTE ON FUNCTION perfbot.submit(text, text, text, text, text, text, int, int, int),\n"
	"    perfbot.cancel(bigint), perfbot.retry(bigint) TO " LAB_ROLE_SUBMITTER ";\n"
	"GRANT EXECUTE ON FUNCTION perfbot.claim(text, text, double precision),\n"
	"    perfbot.heartbeat(bigint, int, double precision), perfbot.fail(bigint, int, text),\n"
	"    perfbot.upload_begin(bigint, int, text),\n"
	"    perfbot.upload_run(bigint, int, int, text[], double precision[]),\n"
	"    perfbot.upload_file(bigint, int, int, text, bigint, bytea),\n"
	"    perfbot.complete(bigint, int) TO " LAB_ROLE_WORKER ";\n";

static const struct migration {
	const char *what;
	const char *sql;
} migrations[] = {
	{ "the queue, uploaded results, roles' grants", migration_1 },
};
#define NR_MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

int lab_schema_version(void)
{
	return NR_MIGRATIONS;
}

/* The database's lab version: 0 when unset; -1 after an error. */
static int read_version(struct pg *db)
{
	PGresult *r = pg_query(db, "SELECT version FROM perfbot.schema_version "
			       "WHERE component = 'lab'", 0, NULL);
	int v;

	if (!r)
		return -1;
	v = PQntuples(r) ? (int)pg_int(r, 0, 0) : 0;
	PQclear(r);
	return v;
}

int lab_migrate(struct pg *db, int *from, int *to)
{
	char buf[16];
	const char *p[1] = { buf };
	int v;

	*from = *to = 0;
	if (pg_exec(db, "BEGIN", 0, NULL) < 0)
		return -1;
	/* two inits at once: the second waits, then finds the work done */
	if (pg_exec(db, "SELECT pg_advisory_xact_lock(hashtext('perfbot lab init'))", 0, NULL) < 0)
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
	if (pg_exec_script(db, bootstrap) < 0 || (v = read_version(db)) < 0)
		goto fail;
	*from = *to = v;
	if (v > NR_MIGRATIONS) {
		error("the database's lab schema is version %d, newer than this perfbot's %d: "
		      "upgrade perfbot", v, NR_MIGRATIONS);
		goto fail;
	}
	for (; v < NR_MIGRATIONS; v++) {
		if (pg_exec_script(db, migrations[v].sql) < 0) {
			error("lab schema migration %d (%s) failed", v + 1, migrations[v].what);
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
	db->quiet = true;
	pg_exec(db, "ROLLBACK", 0, NULL);
	db->quiet = false;
	*to = *from;
	return -1;
}

int lab_check_schema(struct pg *db)
{
	int v;

	db->quiet = true;
	v = read_version(db);
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
	if (v > NR_MIGRATIONS)
		return error("the database's lab schema is version %d, newer than this perfbot's %d: "
			     "upgrade perfbot", v, NR_MIGRATIONS);
	if (v < NR_MIGRATIONS)
		return error("the database's lab schema is version %d, older than this perfbot's %d: "
			     "run 'perfbot lab init --db URL' as its admin", v, NR_MIGRATIONS);
	return 0;
}

int lab_open(struct pg *db, const char *opt)
{
	const char *url = lab_db_url(opt);

	if (!url || pg_open(db, url) < 0)
		return -1;
	if (lab_check_schema(db) < 0) {
		pg_close(db);
		return -1;
	}
	return 0;
}
