/*
 * migrations.c: the lab schema's migrations, in order (see migrations.h).
 *
 * Migrations are append-only: once one is on main, a change is a new
 * migration, never an edit, since some lab's database already ran it.
 * schema.c runs them; the queue's life and perfbot's SQLSTATEs are
 * described at its top.
 */
#include "pg/migrations.h"
#include "pg/schema.h"

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
	/* --- what workers upload -------------------------------------- *
	 * The values go into the store's tables (store_pg.c): a job's upload
	 * is one result_root there, whose path "lab:<job id>/<result root>"
	 * no local tree can have.  The files, which the store only points at
	 * on disk, are kept here. */
	"CREATE TABLE perfbot.upload (\n"
	"  job_id bigint PRIMARY KEY REFERENCES perfbot.queue (id),\n"
	"  attempt int NOT NULL,\n"
	"  box text NOT NULL,\n"
	"  result_root text NOT NULL,     -- lkp's _result_root below the base\n"
	"  root_id bigint NOT NULL UNIQUE REFERENCES perfbot.result_root (id),\n"
	"  uploaded_at timestamptz NOT NULL DEFAULT now()\n"
	");\n"
	"CREATE TABLE perfbot.upload_file (\n"
	"  job_id bigint NOT NULL REFERENCES perfbot.upload (job_id),\n"
	"  run int NOT NULL CHECK (run >= -1),  -- -1: the _result_root's own\n"
	"  name text NOT NULL,\n"
	"  size bigint NOT NULL CHECK (size >= 0),  -- bytes before compression\n"
	"  data bytea NOT NULL,           -- a zlib stream\n"
	"  PRIMARY KEY (job_id, run, name)\n"
	");\n"
	/* already compressed: TOAST's own compression would only cost CPU */
	"ALTER TABLE perfbot.upload_file ALTER data SET STORAGE EXTERNAL;\n"

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

	/* The result root is lkp's seven components (testcase/path_params/
	 * tbox_group/rootfs/kconfig/compiler/commit), each one safe path
	 * component: they name the store's job and rev.  p_params are the
	 * job's axes as name, value pairs in one flat array. */
	"CREATE FUNCTION perfbot.upload_begin(p_id bigint, p_attempt int, p_result_root text,\n"
	"    p_params text[]) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE s text; part text[]; jid bigint; rid bigint;\n"
	"BEGIN\n"
	"  s := perfbot.hold(p_id, p_attempt);\n"
	"  IF s <> 'running' THEN\n"
	"    RETURN s;\n"
	"  END IF;\n"
	"  part := string_to_array(p_result_root, '/');\n"
	"  IF coalesce(cardinality(part), 0) <> 7 OR EXISTS (SELECT 1 FROM unnest(part) c\n"
	"      WHERE c IS NULL OR c IN ('', '.', '..')) THEN\n"
	"    RAISE EXCEPTION 'job %: bad result root % (expected 7 path components)', p_id,\n"
	"      coalesce(p_result_root, 'NULL') USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF coalesce(cardinality(p_params), 0) % 2 <> 0\n"
	"      OR array_position(p_params, NULL) IS NOT NULL THEN\n"
	"    RAISE EXCEPTION 'job %: job parameters are not name, value pairs', p_id\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  INSERT INTO perfbot.job (testcase, path_params, tbox_group, rootfs, kconfig, compiler)\n"
	"  VALUES (part[1], part[2], part[3], part[4], part[5], part[6])\n"
	"  ON CONFLICT (testcase, path_params, tbox_group, rootfs, kconfig, compiler)\n"
	"  DO UPDATE SET testcase = excluded.testcase RETURNING id INTO jid;\n"
	"  INSERT INTO perfbot.job_param (job_id, name, value)\n"
	"  SELECT jid, p_params[2 * i - 1], p_params[2 * i]\n"
	"  FROM generate_series(1, coalesce(cardinality(p_params), 0) / 2) i\n"
	"  ON CONFLICT (job_id, name) DO UPDATE SET value = excluded.value;\n"
	"  INSERT INTO perfbot.result_root (job_id, rev, path, signature, indexed_at)\n"
	"  VALUES (jid, part[7], format('lab:%s/%s', p_id, p_result_root),\n"
	"      format('lab job %s attempt %s', p_id, p_attempt), extract(epoch FROM now())::bigint)\n"
	"  RETURNING id INTO rid;\n"
	"  INSERT INTO perfbot.upload (job_id, attempt, box, result_root, root_id)\n"
	"  VALUES (p_id, p_attempt, session_user, p_result_root, rid);\n"
	"  RETURN s;\n"
	"END $f$;\n"

	/* The store's root of the upload in progress; raises unless the
	 * caller holds the job, running (a 'done' job takes no more). */
	"CREATE FUNCTION perfbot.upload_root(p_id bigint, p_attempt int) RETURNS bigint\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE rid bigint;\n"
	"BEGIN\n"
	"  IF perfbot.hold(p_id, p_attempt) <> 'running' THEN\n"
	"    RAISE EXCEPTION 'job % attempt % is done already', p_id, p_attempt\n"
	"      USING ERRCODE = 'PBL01';\n"
	"  END IF;\n"
	"  SELECT u.root_id INTO rid FROM perfbot.upload u WHERE u.job_id = p_id;\n"
	"  IF rid IS NULL THEN\n"
	"    RAISE EXCEPTION 'job %: upload_begin first', p_id USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  RETURN rid;\n"
	"END $f$;\n"

	/* One run's stats: a run row and its samples in the store (NaN as
	 * NULL, as the store keeps it).  New metric names are added in name
	 * order, so that two uploads adding overlapping names lock them in
	 * the same order and cannot deadlock. */
	"CREATE FUNCTION perfbot.upload_run(p_id bigint, p_attempt int, p_run int,\n"
	"    p_metrics text[], p_vals double precision[]) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE rid bigint; runid bigint; path text;\n"
	"BEGIN\n"
	"  rid := perfbot.upload_root(p_id, p_attempt);\n"
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
	"  SELECT r.path || '/' || p_run INTO path FROM perfbot.result_root r WHERE r.id = rid;\n"
	"  INSERT INTO perfbot.run (root_id, number, incomplete, path)\n"
	"  VALUES (rid, p_run, coalesce((SELECT (v <> 0)::int FROM unnest(p_metrics, p_vals) t(m, v)\n"
	"      WHERE m = 'last_state.is_incomplete_run'), 0), path)\n"
	"  RETURNING id INTO runid;\n"
	"  INSERT INTO perfbot.metric (name)\n"
	"  SELECT m FROM unnest(p_metrics) m ORDER BY m ON CONFLICT (name) DO NOTHING;\n"
	"  INSERT INTO perfbot.sample (metric_id, run_id, value)\n"
	"  SELECT k.id, runid, CASE WHEN t.v = 'NaN' THEN NULL ELSE t.v END\n"
	"  FROM unnest(p_metrics, p_vals) t(m, v) JOIN perfbot.metric k ON k.name = t.m;\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.upload_file(p_id bigint, p_attempt int, p_run int, p_name text,\n"
	"    p_size bigint, p_data bytea) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE rid bigint;\n"
	"BEGIN\n"
	"  rid := perfbot.upload_root(p_id, p_attempt);\n"
	"  IF p_name IS NULL OR p_name = '' OR p_name IN ('.', '..') OR strpos(p_name, '/') > 0\n"
	"      OR length(p_name) > 255 THEN\n"
	"    RAISE EXCEPTION 'job %: bad file name %', p_id, coalesce(p_name, 'NULL')\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF p_run IS NULL OR (p_run <> -1 AND NOT EXISTS (SELECT 1 FROM perfbot.run r\n"
	"      WHERE r.root_id = rid AND r.number = p_run)) THEN\n"
	"    RAISE EXCEPTION 'job %: file % of run %, which was not uploaded', p_id, p_name, p_run\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF p_size IS NULL OR p_size < 0 OR p_data IS NULL THEN\n"
	"    RAISE EXCEPTION 'job %: file % without data', p_id, p_name USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  INSERT INTO perfbot.upload_file (job_id, run, name, size, data)\n"
	"  VALUES (p_id, p_run, p_name, p_size, p_data);\n"
	"END $f$;\n"

	"CREATE FUNCTION perfbot.complete(p_id bigint, p_attempt int) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE rid bigint;\n"
	"BEGIN\n"
	"  rid := perfbot.upload_root(p_id, p_attempt);\n"
	"  IF NOT EXISTS (SELECT 1 FROM perfbot.run r WHERE r.root_id = rid) THEN\n"
	"    RAISE EXCEPTION 'job %: no run uploaded', p_id USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  UPDATE perfbot.queue q SET state = 'done', finished_at = now(), lease_expires_at = NULL\n"
	"  WHERE q.id = p_id;\n"
	"  PERFORM pg_notify('perfbot_done', p_id::text);\n"
	"END $f$;\n"

	/* --- who may do what ------------------------------------------- */
	"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA perfbot FROM PUBLIC;\n"
	"GRANT SELECT ON perfbot.queue, perfbot.upload, perfbot.upload_file TO "
	LAB_ROLE_SUBMITTER ";\n"
	"GRANT EXECUTE ON FUNCTION perfbot.submit(text, text, text, text, text, text, int, int, int),\n"
	"    perfbot.cancel(bigint), perfbot.retry(bigint) TO " LAB_ROLE_SUBMITTER ";\n"
	"GRANT EXECUTE ON FUNCTION perfbot.claim(text, text, double precision),\n"
	"    perfbot.heartbeat(bigint, int, double precision), perfbot.fail(bigint, int, text),\n"
	"    perfbot.upload_begin(bigint, int, text, text[]),\n"
	"    perfbot.upload_run(bigint, int, int, text[], double precision[]),\n"
	"    perfbot.upload_file(bigint, int, int, text, bigint, bytea),\n"
	"    perfbot.complete(bigint, int) TO " LAB_ROLE_WORKER ";\n";

/*
 * The claim and the upload at many jobs a second (bench/queue.sh: 8
 * workers on 5,000 queued jobs gave 112-150 jobs/s, most backends
 * waiting on a lock, and the claim grew with the queue):
 *
 * - the claim's "parked" looked for expired leases through queue_next,
 *   every queued row (or the whole table, done rows included, once
 *   analyzed): queue_lease holds the running rows alone;
 * - its "next" is one ordered scan of queue_next stopping at the first
 *   row it may take, but on a table filled since the last ANALYZE the
 *   planner expects a dozen rows and sorts all of them instead (5,000
 *   queued: 14 ms a claim): enable_sort off leaves it the index order
 *   (and plpgsql keeps the plan, see below);
 * - upload_begin upserted the store's job row and its parameters with ON
 *   CONFLICT DO UPDATE, which locks the row even when nothing changes, so
 *   every upload of the same job (one testcase and parameters, many
 *   commits, many boxes) waited for the one before it to commit: now an
 *   existing job row is only read, and a parameter row only updated (and
 *   locked) when its value differs;
 * - upload_root answers from the upload row (below);
 * - with fsync on, complete's NOTIFY made the commits one at a time
 *   (below).
 */
static const char migration_2[] =
	"CREATE INDEX queue_lease ON perfbot.queue (lease_expires_at) WHERE state = 'running';\n"
	/* migration 1's statement, in plpgsql: a LANGUAGE sql function that
	 * is not inlined (SECURITY DEFINER, SET) parses and plans its body
	 * at every call, 1 ms of the server's CPU a claim; plpgsql keeps the
	 * plan for the session */
	"CREATE OR REPLACE FUNCTION perfbot.claim(p_group text, p_worker text,\n"
	"    p_lease_s double precision)\n"
	"RETURNS TABLE (id bigint, attempt int, name text, job text, commit text, repo text,\n"
	"    build text, runs int)\n"
	"LANGUAGE plpgsql " DEFINER " SET enable_sort = off AS $f$\n"
	"#variable_conflict use_column\n"
	"BEGIN\n"
	"RETURN QUERY\n"
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
	"RETURNING q.id, q.attempt, q.name, q.job, q.commit, q.repo, q.build, q.runs;\n"
	"END $f$;\n"
	"CREATE OR REPLACE FUNCTION perfbot.upload_begin(p_id bigint, p_attempt int,\n"
	"    p_result_root text, p_params text[]) RETURNS text\n"
	/* the parameters' statements were planned anew at each call (their
	 * generic plan looked dearer than the custom ones), 150 us an upload */
	"LANGUAGE plpgsql " DEFINER " SET plan_cache_mode = force_generic_plan AS $f$\n"
	"DECLARE s text; part text[]; jid bigint; rid bigint;\n"
	"BEGIN\n"
	"  s := perfbot.hold(p_id, p_attempt);\n"
	"  IF s <> 'running' THEN\n"
	"    RETURN s;\n"
	"  END IF;\n"
	"  part := string_to_array(p_result_root, '/');\n"
	"  IF coalesce(cardinality(part), 0) <> 7 OR EXISTS (SELECT 1 FROM unnest(part) c\n"
	"      WHERE c IS NULL OR c IN ('', '.', '..')) THEN\n"
	"    RAISE EXCEPTION 'job %: bad result root % (expected 7 path components)', p_id,\n"
	"      coalesce(p_result_root, 'NULL') USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF coalesce(cardinality(p_params), 0) % 2 <> 0\n"
	"      OR array_position(p_params, NULL) IS NOT NULL THEN\n"
	"    RAISE EXCEPTION 'job %: job parameters are not name, value pairs', p_id\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	/* read, else insert; DO NOTHING when another upload inserted it
	 * meanwhile (after waiting for it to commit), then read that one */
	"  FOR k IN 1..2 LOOP\n"
	"    SELECT j.id INTO jid FROM perfbot.job j\n"
	"    WHERE j.testcase = part[1] AND j.path_params = part[2] AND j.tbox_group = part[3]\n"
	"      AND j.rootfs = part[4] AND j.kconfig = part[5] AND j.compiler = part[6];\n"
	"    EXIT WHEN jid IS NOT NULL;\n"
	"    INSERT INTO perfbot.job (testcase, path_params, tbox_group, rootfs, kconfig, compiler)\n"
	"    VALUES (part[1], part[2], part[3], part[4], part[5], part[6])\n"
	"    ON CONFLICT (testcase, path_params, tbox_group, rootfs, kconfig, compiler) DO NOTHING\n"
	"    RETURNING id INTO jid;\n"
	"    EXIT WHEN jid IS NOT NULL;\n"
	"  END LOOP;\n"
	"  IF coalesce(cardinality(p_params), 0) > 0 THEN\n"
	"    INSERT INTO perfbot.job_param (job_id, name, value)\n"
	"    SELECT jid, p_params[2 * i - 1], p_params[2 * i]\n"
	"    FROM generate_series(1, cardinality(p_params) / 2) i\n"
	"    ON CONFLICT (job_id, name) DO NOTHING;\n"
	"    UPDATE perfbot.job_param o SET value = p_params[2 * i]\n"
	"    FROM generate_series(1, cardinality(p_params) / 2) i\n"
	"    WHERE o.job_id = jid AND o.name = p_params[2 * i - 1]\n"
	"      AND o.value IS DISTINCT FROM p_params[2 * i];\n"
	"  END IF;\n"
	"  INSERT INTO perfbot.result_root (job_id, rev, path, signature, indexed_at)\n"
	"  VALUES (jid, part[7], format('lab:%s/%s', p_id, p_result_root),\n"
	"      format('lab job %s attempt %s', p_id, p_attempt), extract(epoch FROM now())::bigint)\n"
	"  RETURNING id INTO rid;\n"
	"  INSERT INTO perfbot.upload (job_id, attempt, box, result_root, root_id)\n"
	"  VALUES (p_id, p_attempt, session_user, p_result_root, rid);\n"
	"  RETURN s;\n"
	"END $f$;\n"
	/* upload_run, upload_file and complete each asked hold() again, one
	 * more call of a function a statement.  The upload row of a job still
	 * running exists only in the transaction whose upload_begin locked the
	 * job (it commits with complete's 'done'): finding it, for a live
	 * lease of this login and attempt, is the same answer in one look.
	 * Anything else goes the old way, to its error. */
	"CREATE OR REPLACE FUNCTION perfbot.upload_root(p_id bigint, p_attempt int) RETURNS bigint\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE rid bigint;\n"
	"BEGIN\n"
	"  SELECT u.root_id INTO rid FROM perfbot.upload u JOIN perfbot.queue j ON j.id = u.job_id\n"
	"  WHERE u.job_id = p_id AND u.attempt = p_attempt AND j.attempt = p_attempt\n"
	"    AND j.box = session_user AND j.state = 'running' AND j.lease_expires_at > now();\n"
	"  IF rid IS NOT NULL THEN\n"
	"    RETURN rid;\n"
	"  END IF;\n"
	"  IF perfbot.hold(p_id, p_attempt) <> 'running' THEN\n"
	"    RAISE EXCEPTION 'job % attempt % is done already', p_id, p_attempt\n"
	"      USING ERRCODE = 'PBL01';\n"
	"  END IF;\n"
	"  SELECT u.root_id INTO rid FROM perfbot.upload u WHERE u.job_id = p_id;\n"
	"  IF rid IS NULL THEN\n"
	"    RAISE EXCEPTION 'job %: upload_begin first', p_id USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  RETURN rid;\n"
	"END $f$;\n"
	/* complete's NOTIFY took the cluster-wide lock that orders
	 * notifications and held it until its transaction's commit record
	 * reached the disk: with fsync on, every upload's commit waited for
	 * the one before it to be flushed (8 workers: about 100 jobs/s, most
	 * of them waiting on that lock), no two flushed together.  The
	 * announcement is now a transaction of its own, right after
	 * (lab_upload sends both in one round trip), which need not wait for
	 * the disk: a lost wakeup costs a waiter one poll, not a result. */
	"CREATE OR REPLACE FUNCTION perfbot.complete(p_id bigint, p_attempt int) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE rid bigint;\n"
	"BEGIN\n"
	"  rid := perfbot.upload_root(p_id, p_attempt);\n"
	"  IF NOT EXISTS (SELECT 1 FROM perfbot.run r WHERE r.root_id = rid) THEN\n"
	"    RAISE EXCEPTION 'job %: no run uploaded', p_id USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  UPDATE perfbot.queue q SET state = 'done', finished_at = now(), lease_expires_at = NULL\n"
	"  WHERE q.id = p_id;\n"
	"END $f$;\n"
	"CREATE FUNCTION perfbot.announce_done(p_id bigint) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  PERFORM set_config('synchronous_commit', 'off', true);\n"
	"  IF EXISTS (SELECT 1 FROM perfbot.queue q WHERE q.id = p_id AND q.state = 'done') THEN\n"
	"    PERFORM pg_notify('perfbot_done', p_id::text);\n"
	"  END IF;\n"
	"END $f$;\n"
	"REVOKE ALL ON FUNCTION perfbot.announce_done(bigint) FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION perfbot.announce_done(bigint) TO " LAB_ROLE_WORKER ";\n";

/*
 * One call an upload (bench/queue.sh: 330-390 jobs/s with fsync off
 * before it, the server's CPU the limit at about 2.4 ms a job): schema 2's
 * upload of a one-run result was upload_begin, upload_run, two
 * upload_file, complete, each asking hold() or upload_root() again, and
 * each statement in them planned afresh (custom plans), some 35
 * statements a job.  upload_job takes the whole result in arrays and does
 * the same checks and inserts, each once:
 *
 *   p_runs, p_nr_metrics     the run numbers, and how many of the metrics
 *                            that follow are each one's, in that order
 *   p_metrics, p_vals        every run's stats, one after the other
 *   p_file_runs, _names,     the files (run -1: the result root's own),
 *   _sizes, _data            each a zlib stream and its size before
 *
 * It returns 'completed', or 'done' when this attempt completed the job
 * already (an upload whose COMMIT's answer was lost; nothing is checked
 * or added then), and raises PBL01 for a job the caller does not hold
 * with a live lease, PBU01 for a malformed upload, as the calls of
 * schema 2 do (they stay, with the same checks).
 *
 * What it saves beyond the calls: the plans are kept (generic); the
 * samples of known metrics go in first, in one look-up of each name (the
 * metric table's ON CONFLICT and a join were two), and only when some
 * are missing are the new names added and their samples after them; the
 * samples go in in the primary key's order; and a metric
 * twice in a run is found by the samples' primary key (the one error
 * caught here, turned into PBU01) rather than by counting distinct
 * names; a result of 30,000 metrics spent 200 ms in the checks before.
 */
static const char migration_3[] =
	"CREATE FUNCTION perfbot.upload_job(p_id bigint, p_attempt int, p_result_root text,\n"
	"    p_params text[], p_runs int[], p_nr_metrics int[], p_metrics text[],\n"
	"    p_vals double precision[], p_file_runs int[], p_file_names text[],\n"
	"    p_file_sizes bigint[], p_file_data bytea[]) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " SET plan_cache_mode = force_generic_plan AS $f$\n"
	"DECLARE q record; held boolean; part text[]; jid bigint; rid bigint; runid bigint;\n"
	"  rpath text; nr int; nm int; nf int; lo int := 0; n int; k int; r int; got bigint;\n"
	"  ms text[]; vs double precision[]; cname text;\n"
	"BEGIN\n"
	/* hold(), inline: the job's row locked until the end */
	"  SELECT j.state, j.attempt, j.box, j.lease_expires_at > now() AS live INTO q\n"
	"  FROM perfbot.queue j WHERE j.id = p_id FOR NO KEY UPDATE;\n"
	"  IF FOUND AND q.attempt = p_attempt AND q.box = session_user THEN\n"
	"    IF q.state = 'done' THEN RETURN 'done'; END IF;  -- by this attempt: a retry\n"
	"    held := q.state = 'running' AND q.live;\n"
	"  END IF;\n"
	"  IF held IS NOT TRUE THEN\n"
	"    RAISE EXCEPTION 'job % attempt % is not held by %', p_id, p_attempt, session_user\n"
	"      USING ERRCODE = 'PBL01',\n"
	"        HINT = 'its lease expired, or it was cancelled or taken by another worker';\n"
	"  END IF;\n"
	/* upload_begin's checks */
	"  part := string_to_array(p_result_root, '/');\n"
	"  IF coalesce(cardinality(part), 0) <> 7 OR array_position(part, '') IS NOT NULL\n"
	"      OR array_position(part, '.') IS NOT NULL OR array_position(part, '..') IS NOT NULL THEN\n"
	"    RAISE EXCEPTION 'job %: bad result root % (expected 7 path components)', p_id,\n"
	"      coalesce(p_result_root, 'NULL') USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF coalesce(cardinality(p_params), 0) % 2 <> 0\n"
	"      OR array_position(p_params, NULL) IS NOT NULL THEN\n"
	"    RAISE EXCEPTION 'job %: job parameters are not name, value pairs', p_id\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	/* the runs and their stats */
	"  nr := coalesce(cardinality(p_runs), 0);\n"
	"  nm := coalesce(cardinality(p_metrics), 0);\n"
	"  IF nr = 0 THEN\n"
	"    RAISE EXCEPTION 'job %: no run uploaded', p_id USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF array_ndims(p_runs) <> 1 OR coalesce(array_ndims(p_metrics), 1) <> 1\n"
	"      OR coalesce(array_ndims(p_vals), 1) <> 1\n"
	"      OR coalesce(cardinality(p_nr_metrics), -1) <> nr\n"
	"      OR coalesce(cardinality(p_vals), 0) <> nm\n"
	"      OR array_position(p_nr_metrics, NULL) IS NOT NULL THEN\n"
	"    RAISE EXCEPTION 'job %: % runs, % metric counts, % metric names, % values', p_id, nr,\n"
	"      coalesce(cardinality(p_nr_metrics), 0), nm, coalesce(cardinality(p_vals), 0)\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  FOR i IN 1..nr LOOP\n"
	"    r := p_runs[i];\n"
	"    IF r IS NULL OR r < 0 OR r > 100000 OR array_position(p_runs, r) <> i THEN\n"
	"      RAISE EXCEPTION 'job %: bad run number % (or twice)', p_id, coalesce(r::text, 'NULL')\n"
	"        USING ERRCODE = 'PBU01';\n"
	"    END IF;\n"
	"    IF p_nr_metrics[i] < 1 THEN\n"
	"      RAISE EXCEPTION 'job % run %: no metric', p_id, r USING ERRCODE = 'PBU01';\n"
	"    END IF;\n"
	"    lo := lo + p_nr_metrics[i];\n"
	"  END LOOP;\n"
	"  IF lo <> nm THEN\n"
	"    RAISE EXCEPTION 'job %: the runs have % metrics, % were sent', p_id, lo, nm\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF array_position(p_metrics, NULL) IS NOT NULL OR array_position(p_vals, NULL) IS NOT NULL\n"
	"      OR array_position(p_metrics, '') IS NOT NULL THEN\n"
	"    RAISE EXCEPTION 'job %: a metric is NULL, empty or twice', p_id USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	/* the files */
	"  nf := coalesce(cardinality(p_file_names), 0);\n"
	"  IF coalesce(cardinality(p_file_runs), 0) <> nf OR coalesce(cardinality(p_file_sizes), 0) <> nf\n"
	"      OR coalesce(cardinality(p_file_data), 0) <> nf\n"
	"      OR coalesce(array_ndims(p_file_names), 1) <> 1 THEN\n"
	"    RAISE EXCEPTION 'job %: % file names, % runs, % sizes, % data', p_id, nf,\n"
	"      coalesce(cardinality(p_file_runs), 0), coalesce(cardinality(p_file_sizes), 0),\n"
	"      coalesce(cardinality(p_file_data), 0) USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  FOR i IN 1..nf LOOP\n"
	"    IF p_file_names[i] IS NULL OR p_file_names[i] IN ('', '.', '..')\n"
	"        OR strpos(p_file_names[i], '/') > 0 OR length(p_file_names[i]) > 255 THEN\n"
	"      RAISE EXCEPTION 'job %: bad file name %', p_id, coalesce(p_file_names[i], 'NULL')\n"
	"        USING ERRCODE = 'PBU01';\n"
	"    END IF;\n"
	"    r := p_file_runs[i];\n"
	"    IF r IS NULL OR (r <> -1 AND array_position(p_runs, r) IS NULL) THEN\n"
	"      RAISE EXCEPTION 'job %: file % of run %, which was not uploaded', p_id,\n"
	"        p_file_names[i], coalesce(r::text, 'NULL') USING ERRCODE = 'PBU01';\n"
	"    END IF;\n"
	"    IF p_file_sizes[i] IS NULL OR p_file_sizes[i] < 0 THEN\n"
	"      RAISE EXCEPTION 'job %: file % without data', p_id, p_file_names[i]\n"
	"        USING ERRCODE = 'PBU01';\n"
	"    END IF;\n"
	"  END LOOP;\n"
	"  k := array_position(p_file_data, NULL);\n"
	"  IF k IS NOT NULL THEN\n"
	"    RAISE EXCEPTION 'job %: file % without data', p_id, p_file_names[k]\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	/* upload_begin's rows, as migration 2 makes them */
	"  FOR k IN 1..2 LOOP\n"
	"    SELECT j.id INTO jid FROM perfbot.job j\n"
	"    WHERE j.testcase = part[1] AND j.path_params = part[2] AND j.tbox_group = part[3]\n"
	"      AND j.rootfs = part[4] AND j.kconfig = part[5] AND j.compiler = part[6];\n"
	"    EXIT WHEN jid IS NOT NULL;\n"
	"    INSERT INTO perfbot.job (testcase, path_params, tbox_group, rootfs, kconfig, compiler)\n"
	"    VALUES (part[1], part[2], part[3], part[4], part[5], part[6])\n"
	"    ON CONFLICT (testcase, path_params, tbox_group, rootfs, kconfig, compiler) DO NOTHING\n"
	"    RETURNING id INTO jid;\n"
	"    EXIT WHEN jid IS NOT NULL;\n"
	"  END LOOP;\n"
	/* the parameters as they were: one look, no write */
	"  IF cardinality(p_params) > 0 AND EXISTS (SELECT 1\n"
	"      FROM generate_series(1, cardinality(p_params) / 2) i\n"
	"      LEFT JOIN perfbot.job_param o ON o.job_id = jid AND o.name = p_params[2 * i - 1]\n"
	"      WHERE o.value IS DISTINCT FROM p_params[2 * i]) THEN\n"
	"    INSERT INTO perfbot.job_param (job_id, name, value)\n"
	"    SELECT jid, p_params[2 * i - 1], p_params[2 * i]\n"
	"    FROM generate_series(1, cardinality(p_params) / 2) i\n"
	"    ON CONFLICT (job_id, name) DO NOTHING;\n"
	"    UPDATE perfbot.job_param o SET value = p_params[2 * i]\n"
	"    FROM generate_series(1, cardinality(p_params) / 2) i\n"
	"    WHERE o.job_id = jid AND o.name = p_params[2 * i - 1] AND o.value <> p_params[2 * i];\n"
	"  END IF;\n"
	"  rpath := format('lab:%s/%s', p_id, p_result_root);\n"
	"  BEGIN\n"
	"    INSERT INTO perfbot.result_root (job_id, rev, path, signature, indexed_at)\n"
	"    VALUES (jid, part[7], rpath, format('lab job %s attempt %s', p_id, p_attempt),\n"
	"        extract(epoch FROM now())::bigint)\n"
	"    RETURNING id INTO rid;\n"
	"    INSERT INTO perfbot.upload (job_id, attempt, box, result_root, root_id)\n"
	"    VALUES (p_id, p_attempt, session_user, p_result_root, rid);\n"
	"    lo := 0;\n"
	"    FOR i IN 1..nr LOOP\n"
	"      n := p_nr_metrics[i];\n"
	"      IF nr = 1 THEN\n"
	"        ms := p_metrics;\n"
	"        vs := p_vals;\n"
	"      ELSE\n"
	"        ms := p_metrics[lo + 1:lo + n];\n"
	"        vs := p_vals[lo + 1:lo + n];\n"
	"      END IF;\n"
	"      lo := lo + n;\n"
	"      k := array_position(ms, 'last_state.is_incomplete_run');\n"
	"      INSERT INTO perfbot.run (root_id, number, incomplete, path)\n"
	"      VALUES (rid, p_runs[i], CASE WHEN k IS NOT NULL AND vs[k] <> 0 THEN 1 ELSE 0 END,\n"
	"          rpath || '/' || p_runs[i])\n"
	"      RETURNING id INTO runid;\n"
	/* the samples of the metrics known already: mostly all of them */
	"      INSERT INTO perfbot.sample (metric_id, run_id, value)\n"
	"      SELECT o.id, runid, CASE WHEN t.v = 'NaN' THEN NULL ELSE t.v END\n"
	"      FROM unnest(ms, vs) t(m, v) JOIN perfbot.metric o ON o.name = t.m\n"
	"      ORDER BY o.id;\n"
	"      GET DIAGNOSTICS got = ROW_COUNT;\n"
	/* then the new names, in name order (see upload_run), and theirs */
	"      IF got < n THEN\n"
	"        INSERT INTO perfbot.metric (name)\n"
	"        SELECT m FROM unnest(ms) m\n"
	"        WHERE NOT EXISTS (SELECT 1 FROM perfbot.metric o WHERE o.name = m)\n"
	"        ORDER BY m ON CONFLICT (name) DO NOTHING;\n"
	"        INSERT INTO perfbot.sample (metric_id, run_id, value)\n"
	"        SELECT o.id, runid, CASE WHEN t.v = 'NaN' THEN NULL ELSE t.v END\n"
	"        FROM unnest(ms, vs) t(m, v) JOIN perfbot.metric o ON o.name = t.m\n"
	"        WHERE NOT EXISTS (SELECT 1 FROM perfbot.sample s\n"
	"            WHERE s.metric_id = o.id AND s.run_id = runid)\n"
	"        ORDER BY o.id;\n"
	"      END IF;\n"
	"    END LOOP;\n"
	"    INSERT INTO perfbot.upload_file (job_id, run, name, size, data)\n"
	"    SELECT p_id, t.f_run, t.f_name, t.f_size, t.f_data\n"
	"    FROM unnest(p_file_runs, p_file_names, p_file_sizes, p_file_data)\n"
	"      t(f_run, f_name, f_size, f_data);\n"
	"  EXCEPTION WHEN unique_violation THEN\n"
	"    GET STACKED DIAGNOSTICS cname = CONSTRAINT_NAME;\n"
	"    IF cname = 'sample_pkey' THEN\n"
	"      RAISE EXCEPTION 'job %: a metric is NULL, empty or twice', p_id\n"
	"        USING ERRCODE = 'PBU01';\n"
	"    ELSIF cname = 'upload_file_pkey' THEN\n"
	"      RAISE EXCEPTION 'job %: a file is there twice', p_id USING ERRCODE = 'PBU01';\n"
	"    END IF;\n"
	"    RAISE;\n"
	"  END;\n"
	"  UPDATE perfbot.queue j SET state = 'done', finished_at = now(), lease_expires_at = NULL\n"
	"  WHERE j.id = p_id;\n"
	"  RETURN 'completed';\n"
	"END $f$;\n"
	/* the claim's statement was planned at every call (its custom plans
	 * looked cheaper than a generic one), 80 us a claim; enable_sort off
	 * keeps the generic plan in queue_next's order all the same */
	"ALTER FUNCTION perfbot.claim(text, text, double precision)\n"
	"  SET plan_cache_mode = force_generic_plan;\n"
	"REVOKE ALL ON FUNCTION perfbot.upload_job(bigint, int, text, text[], int[], int[], text[],\n"
	"    double precision[], int[], text[], bigint[], bytea[]) FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION perfbot.upload_job(bigint, int, text, text[], int[], int[], text[],\n"
	"    double precision[], int[], text[], bigint[], bytea[]) TO " LAB_ROLE_WORKER ";\n";

/*
 * The upload and the next claim in one call (bench/queue.sh: a worker's
 * job was two round trips and three transactions: the claim, the upload,
 * the announcement; under load, each round trip is two wake-ups of
 * processes waiting for a core).  upload_claim is upload_job followed
 * by claim, in the upload's transaction: one round trip and one commit
 * less a job, and the same answers, since it calls those two:
 *
 *   uploaded           upload_job's answer ('completed' or 'done')
 *   id .. runs         claim's row, the next job; all NULL when none
 *
 * A refused or malformed upload raises as upload_job does: nothing is
 * claimed then (the transaction rolls back), and the worker claims on
 * its own.  An upload retried after its COMMIT's answer was lost ('done')
 * had claimed a job in that commit, which the worker never heard of:
 * that job, still held by this worker (its name, host:pid, and login)
 * with a live lease, is given again rather than a new one claimed, or it
 * would sit until its lease expired and cost an attempt.
 */
static const char migration_4[] =
	"CREATE FUNCTION perfbot.upload_claim(p_id bigint, p_attempt int, p_result_root text,\n"
	"    p_params text[], p_runs int[], p_nr_metrics int[], p_metrics text[],\n"
	"    p_vals double precision[], p_file_runs int[], p_file_names text[],\n"
	"    p_file_sizes bigint[], p_file_data bytea[], p_group text, p_worker text,\n"
	"    p_lease_s double precision)\n"
	"RETURNS TABLE (uploaded text, id bigint, attempt int, name text, job text, commit text,\n"
	"    repo text, build text, runs int)\n"
	"LANGUAGE plpgsql " DEFINER " SET plan_cache_mode = force_generic_plan AS $f$\n"
	"#variable_conflict use_column\n"
	"DECLARE s text;\n"
	"BEGIN\n"
	"  s := perfbot.upload_job(p_id, p_attempt, p_result_root, p_params, p_runs, p_nr_metrics,\n"
	"      p_metrics, p_vals, p_file_runs, p_file_names, p_file_sizes, p_file_data);\n"
	"  IF s = 'done' THEN\n"
	"    RETURN QUERY SELECT s, q.id, q.attempt, q.name, q.job, q.commit, q.repo, q.build, q.runs\n"
	"    FROM perfbot.queue q\n"
	"    WHERE q.state = 'running' AND q.lease_expires_at > now() AND q.box = session_user\n"
	"      AND q.worker = p_worker AND q.id <> p_id\n"
	"    ORDER BY q.started_at DESC, q.id DESC LIMIT 1;\n"
	"    IF FOUND THEN RETURN; END IF;\n"
	"  END IF;\n"
	"  RETURN QUERY SELECT s, c.id, c.attempt, c.name, c.job, c.commit, c.repo, c.build, c.runs\n"
	"  FROM perfbot.claim(p_group, p_worker, p_lease_s) c;\n"
	"  IF NOT FOUND THEN\n"
	"    RETURN QUERY SELECT s, NULL::bigint, NULL::int, NULL::text, NULL::text, NULL::text,\n"
	"        NULL::text, NULL::text, NULL::int;\n"
	"  END IF;\n"
	"END $f$;\n"
	"REVOKE ALL ON FUNCTION perfbot.upload_claim(" LAB_UPLOAD_CLAIM_ARGS ") FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION perfbot.upload_claim(" LAB_UPLOAD_CLAIM_ARGS ") TO "
	LAB_ROLE_WORKER ";\n";

/*
 * A job handed back unstarted: a worker told to stop while its upload
 * claimed the next job (upload_claim) gives that job back.  fail() would
 * spend one of the job's attempts on a run that never began, and a lab
 * whose workers are restarted often (a deploy, a box rebooted) would park
 * jobs that never failed.  release() puts it back in the queue with the
 * attempt refunded the way retry() grants attempts: attempt only grows,
 * so max_attempts goes one up.  last_error is left as it was: this is no
 * error.  NULL when the caller does not hold (p_id, p_attempt).
 */
static const char migration_5[] =
	"CREATE FUNCTION perfbot.release(p_id bigint, p_attempt int) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE g text;\n"
	"BEGIN\n"
	"  UPDATE perfbot.queue q SET state = 'queued', lease_expires_at = NULL,\n"
	"      max_attempts = q.max_attempts + 1\n"
	"  WHERE q.id = p_id AND q.attempt = p_attempt AND q.box = session_user\n"
	"    AND q.state = 'running' AND q.lease_expires_at > now()  -- held, live\n"
	"  RETURNING q.tbox_group INTO g;\n"
	"  IF NOT FOUND THEN RETURN NULL; END IF;\n"
	"  PERFORM pg_notify('perfbot_queue', g);\n"
	"  RETURN 'queued';\n"
	"END $f$;\n"
	"REVOKE ALL ON FUNCTION perfbot.release(bigint, int) FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION perfbot.release(bigint, int) TO " LAB_ROLE_WORKER ";\n";

/*
 * A batch of jobs found again after a crash.  A submitter that journals
 * the ids it was given (remote.c) cannot do it in the transaction that
 * queues them: killed between the COMMIT and its journal's fsync, its
 * jobs would run for nobody, and a resume would queue them again.  So it
 * journals a random reference first and queues the batch under it;
 * submitted() gives back the ids of a reference, its caller's own only.
 *
 * The references live in a table of their own, not in a column of the
 * queue: ALTER TABLE queue would wait for every open transaction on it
 * (a worker's upload) and hold up every claim behind it, so a lab could
 * not migrate under running workers.  Nothing here locks the queue.
 */
static const char migration_6[] =
	"CREATE TABLE perfbot.submit_ref (\n"
	"  job bigint PRIMARY KEY,  -- perfbot.queue's id; no foreign key: it would lock the queue\n"
	"  ref text NOT NULL,\n"
	"  submitted_by text NOT NULL DEFAULT session_user\n"
	");\n"
	"CREATE INDEX submit_ref_ref ON perfbot.submit_ref (ref);\n"
	"CREATE FUNCTION perfbot.submit(p_name text, p_job text, p_commit text, p_repo text,\n"
	"    p_build text, p_group text, p_priority int, p_runs int, p_budget int, p_ref text)\n"
	"RETURNS bigint LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE new_id bigint;\n"
	"BEGIN\n"
	"  new_id := perfbot.submit(p_name, p_job, p_commit, p_repo, p_build, p_group,\n"
	"      p_priority, p_runs, p_budget);\n"
	"  IF p_ref IS NOT NULL THEN\n"
	"    INSERT INTO perfbot.submit_ref (job, ref) VALUES (new_id, p_ref);\n"
	"  END IF;\n"
	"  RETURN new_id;\n"
	"END $f$;\n"
	"CREATE FUNCTION perfbot.submitted(p_ref text) RETURNS SETOF bigint\n"
	"LANGUAGE sql STABLE " DEFINER " AS $f$\n"
	"  SELECT r.job FROM perfbot.submit_ref r\n"
	"  WHERE r.ref = p_ref AND r.submitted_by = session_user ORDER BY r.job\n"
	"$f$;\n"
	"REVOKE ALL ON FUNCTION perfbot.submit(" LAB_SUBMIT_ARGS "), perfbot.submitted(text)\n"
	"    FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION perfbot.submit(" LAB_SUBMIT_ARGS "), perfbot.submitted(text)\n"
	"    TO " LAB_ROLE_SUBMITTER ";\n";

/*
 * Who may do what, checked by the functions (lab schema 7).  Before it,
 * any submitter cancelled or retried anyone's jobs and wrote `reported`,
 * a worker claimed any tbox_group with a lease of up to 24 h, and an
 * upload named any result root of seven components: another testcase,
 * group or commit, control characters, 5,000-byte names.
 *
 * - cancel and retry: the job's submitter (queue.submitted_by), or a
 *   member of perfbot_admin; anyone else gets 42501.
 * - `reported` (perfbot watch's record): written by perfbot_reporter
 *   only; a submitter still reads it.
 * - a box claims only the groups it is registered for in box_group (an
 *   admin's rows: login, tbox_group; '*' any group); 42501 otherwise.
 *   Admins (superusers too) claim any: they own the queue anyway.
 * - leases: at most LEASE_MAX_S (600 s) a claim or heartbeat.  A worker
 *   renews at a third of its lease (worker.c), so a 600 s lease is
 *   renewed every 200 s and survives a box unreachable for 6 min; a dead
 *   box holds a job 10 min at most, not a day.  `perfbot worker --lease`
 *   takes no more, or its heartbeats would come after the lease ended.
 * - the upload's result root: each of its 7 components one path
 *   component of at most 255 bytes with no control character; the
 *   testcase the job's `testcase:`, the group the job's tbox_group (or
 *   one the box is registered for, for a job of any box), the commit the
 *   queued commit (a 40- or 64-digit hash of it when the box checked it
 *   out of a repo).  The parameters' component is the worker's and every
 *   fetch's to check (upload.c: it is lkp's path_params of the job, which
 *   SQL does not compute); rootfs, kconfig and compiler are the box's.
 *
 * The old functions stay under *_unchecked names, for the new ones to
 * call; the worker role loses EXECUTE on them.  upload_claim calls
 * upload_job and claim by name, so it gets the checks too.
 */
#define LEASE_MAX_STR(x) #x
#define LEASE_MAX_XSTR(x) LEASE_MAX_STR(x)
#define LEASE_MAX LEASE_MAX_XSTR(LAB_LEASE_MAX_S)
static const char migration_7[] =
	"CREATE TABLE perfbot.box_group (\n"
	"  box text NOT NULL,           -- a worker's login\n"
	"  tbox_group text NOT NULL,    -- a group it may claim jobs of; '*' any\n"
	"  PRIMARY KEY (box, tbox_group)\n"
	");\n"
	"CREATE FUNCTION perfbot.may_claim(p_group text) RETURNS boolean\n"
	"LANGUAGE sql STABLE " DEFINER " AS $f$\n"
	"  SELECT EXISTS (SELECT 1 FROM perfbot.box_group b\n"
	"    WHERE b.box = session_user AND b.tbox_group IN (p_group, '*'))\n"
	"    OR pg_has_role(session_user, '" LAB_ROLE_ADMIN "', 'MEMBER')\n"
	"$f$;\n"
	/* cancel and retry: the submitter's own, or an admin's */
	"CREATE FUNCTION perfbot.check_owner(p_id bigint, p_what text) RETURNS void\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"DECLARE who text;\n"
	"BEGIN\n"
	"  SELECT q.submitted_by INTO who FROM perfbot.queue q WHERE q.id = p_id;\n"
	"  IF FOUND AND who <> session_user\n"
	"      AND NOT pg_has_role(session_user, '" LAB_ROLE_ADMIN "', 'MEMBER') THEN\n"
	"    RAISE EXCEPTION 'job % was submitted by %: only they or a " LAB_ROLE_ADMIN
	" may % it',\n"
	"      p_id, who, p_what USING ERRCODE = '42501';\n"
	"  END IF;\n"
	"END $f$;\n"
	"ALTER FUNCTION perfbot.cancel(bigint) RENAME TO cancel_unchecked;\n"
	"ALTER FUNCTION perfbot.retry(bigint) RENAME TO retry_unchecked;\n"
	"CREATE FUNCTION perfbot.cancel(p_id bigint) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  PERFORM perfbot.check_owner(p_id, 'cancel');\n"
	"  RETURN perfbot.cancel_unchecked(p_id);\n"
	"END $f$;\n"
	"CREATE FUNCTION perfbot.retry(p_id bigint) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  PERFORM perfbot.check_owner(p_id, 'retry');\n"
	"  RETURN perfbot.retry_unchecked(p_id);\n"
	"END $f$;\n"
	/* the claim: a registered group, a bounded lease */
	"ALTER FUNCTION perfbot.claim(text, text, double precision) RENAME TO claim_unchecked;\n"
	"ALTER FUNCTION perfbot.heartbeat(bigint, int, double precision)\n"
	"  RENAME TO heartbeat_unchecked;\n"
	"CREATE FUNCTION perfbot.claim(p_group text, p_worker text, p_lease_s double precision)\n"
	"RETURNS TABLE (id bigint, attempt int, name text, job text, commit text, repo text,\n"
	"    build text, runs int)\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  IF NOT perfbot.may_claim(p_group) THEN\n"
	"    RAISE EXCEPTION 'box % is not registered for tbox_group %', session_user,\n"
	"      coalesce(p_group, 'NULL') USING ERRCODE = '42501',\n"
	"      HINT = 'an admin adds it: INSERT INTO perfbot.box_group VALUES (box, group)';\n"
	"  END IF;\n"
	"  RETURN QUERY SELECT * FROM perfbot.claim_unchecked(p_group, p_worker,\n"
	"      least(p_lease_s, " LEASE_MAX "));\n"
	"END $f$;\n"
	"CREATE FUNCTION perfbot.heartbeat(p_id bigint, p_attempt int, p_lease_s double precision)\n"
	"RETURNS timestamptz LANGUAGE sql " DEFINER " AS $f$\n"
	"  SELECT perfbot.heartbeat_unchecked(p_id, p_attempt, least(p_lease_s, " LEASE_MAX "))\n"
	"$f$;\n"
	/* the upload's identity: the job it holds */
	"CREATE FUNCTION perfbot.check_result_root(p_id bigint, p_root text) RETURNS void\n"
	"LANGUAGE plpgsql STABLE " DEFINER " AS $f$\n"
	"DECLARE part text[]; q record; tc text; hash text := '^([0-9a-f]{40}|[0-9a-f]{64})$';\n"
	"  shown text := left(regexp_replace(coalesce(p_root, 'NULL'), '[[:cntrl:]]', '?', 'g'), 300);\n"
	"BEGIN\n"
	"  part := string_to_array(p_root, '/');\n"
	"  IF coalesce(cardinality(part), 0) <> 7 OR EXISTS (SELECT 1 FROM unnest(part) c\n"
	"      WHERE c IS NULL OR c IN ('', '.', '..') OR octet_length(c) > 255\n"
	"        OR c ~ '[[:cntrl:]]') THEN\n"
	"    RAISE EXCEPTION 'job %: bad result root % (expected 7 path components of at most 255 '\n"
	"      'bytes, no control character)', p_id, shown USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  SELECT j.job, j.commit, j.repo, j.tbox_group INTO q FROM perfbot.queue j WHERE j.id = p_id;\n"
	"  tc := substring(q.job FROM '(?n)^testcase:[ \\t]*[\"'']?([^\"''[:space:]#]+)');\n"
	"  IF tc IS NOT NULL AND part[1] <> tc THEN\n"
	"    RAISE EXCEPTION 'job %: result root % is not of the job''s testcase %', p_id, shown, tc\n"
	"      USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF (q.tbox_group <> '' AND part[3] <> q.tbox_group)\n"
	"      OR (q.tbox_group = '' AND NOT perfbot.may_claim(part[3])) THEN\n"
	"    RAISE EXCEPTION 'job %: result root % is not of the job''s tbox_group %', p_id, shown,\n"
	"      CASE WHEN q.tbox_group = '' THEN '(one this box is registered for)'\n"
	"        ELSE q.tbox_group END USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"  IF (q.repo IS NULL AND q.commit IS NOT NULL AND part[7] <> q.commit)\n"
	"      OR (q.repo IS NOT NULL AND (part[7] !~ hash\n"
	"          OR (q.commit ~ hash AND part[7] <> q.commit))) THEN\n"
	"    RAISE EXCEPTION 'job %: result root % is not of the job''s commit %', p_id, shown,\n"
	"      coalesce(q.commit, 'NULL') USING ERRCODE = 'PBU01';\n"
	"  END IF;\n"
	"END $f$;\n"
	"ALTER FUNCTION perfbot.upload_job(" LAB_UPLOAD_JOB_ARGS ") RENAME TO upload_job_unchecked;\n"
	"ALTER FUNCTION perfbot.upload_begin(bigint, int, text, text[])\n"
	"  RENAME TO upload_begin_unchecked;\n"
	"CREATE FUNCTION perfbot.upload_job(p_id bigint, p_attempt int, p_result_root text,\n"
	"    p_params text[], p_runs int[], p_nr_metrics int[], p_metrics text[],\n"
	"    p_vals double precision[], p_file_runs int[], p_file_names text[],\n"
	"    p_file_sizes bigint[], p_file_data bytea[]) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	/* the holder's check first: a late upload is PBL01, as before */
	"  IF perfbot.hold(p_id, p_attempt) = 'running' THEN\n"
	"    PERFORM perfbot.check_result_root(p_id, p_result_root);\n"
	"  END IF;\n"
	"  RETURN perfbot.upload_job_unchecked(p_id, p_attempt, p_result_root, p_params, p_runs,\n"
	"      p_nr_metrics, p_metrics, p_vals, p_file_runs, p_file_names, p_file_sizes, p_file_data);\n"
	"END $f$;\n"
	"CREATE FUNCTION perfbot.upload_begin(p_id bigint, p_attempt int, p_result_root text,\n"
	"    p_params text[]) RETURNS text\n"
	"LANGUAGE plpgsql " DEFINER " AS $f$\n"
	"BEGIN\n"
	"  IF perfbot.hold(p_id, p_attempt) = 'running' THEN\n"
	"    PERFORM perfbot.check_result_root(p_id, p_result_root);\n"
	"  END IF;\n"
	"  RETURN perfbot.upload_begin_unchecked(p_id, p_attempt, p_result_root, p_params);\n"
	"END $f$;\n"
	/* grants */
	"REVOKE ALL ON FUNCTION perfbot.cancel_unchecked(bigint), perfbot.retry_unchecked(bigint),\n"
	"    perfbot.claim_unchecked(text, text, double precision),\n"
	"    perfbot.heartbeat_unchecked(bigint, int, double precision),\n"
	"    perfbot.upload_job_unchecked(" LAB_UPLOAD_JOB_ARGS "),\n"
	"    perfbot.upload_begin_unchecked(bigint, int, text, text[]),\n"
	"    perfbot.may_claim(text), perfbot.check_owner(bigint, text),\n"
	"    perfbot.check_result_root(bigint, text),\n"
	"    perfbot.cancel(bigint), perfbot.retry(bigint),\n"
	"    perfbot.claim(text, text, double precision),\n"
	"    perfbot.heartbeat(bigint, int, double precision),\n"
	"    perfbot.upload_job(" LAB_UPLOAD_JOB_ARGS "),\n"
	"    perfbot.upload_begin(bigint, int, text, text[])\n"
	"  FROM PUBLIC, " LAB_ROLE_SUBMITTER ", " LAB_ROLE_WORKER ";\n"
	"GRANT EXECUTE ON FUNCTION perfbot.cancel(bigint), perfbot.retry(bigint)\n"
	"  TO " LAB_ROLE_SUBMITTER ";\n"
	"GRANT EXECUTE ON FUNCTION perfbot.claim(text, text, double precision),\n"
	"    perfbot.heartbeat(bigint, int, double precision),\n"
	"    perfbot.upload_job(" LAB_UPLOAD_JOB_ARGS "),\n"
	"    perfbot.upload_begin(bigint, int, text, text[]) TO " LAB_ROLE_WORKER ";\n"
	"GRANT SELECT ON perfbot.box_group TO " LAB_ROLE_SUBMITTER ";\n"
	"REVOKE INSERT, UPDATE, DELETE ON perfbot.reported FROM " LAB_ROLE_SUBMITTER ";\n"
	"REVOKE USAGE ON SEQUENCE perfbot.reported_id_seq FROM " LAB_ROLE_SUBMITTER ";\n"
	"GRANT SELECT, INSERT ON perfbot.reported TO " LAB_ROLE_REPORTER ";\n"
	"GRANT USAGE ON SEQUENCE perfbot.reported_id_seq TO " LAB_ROLE_REPORTER ";\n";

const struct lab_migration lab_migrations[] = {
	{ "the queue, uploaded results, roles' grants", migration_1 },
	{ "claims without queue scans, uploads without waits on the job row or on each other's flush", migration_2 },
	{ "an upload in one call: upload_job", migration_3 },
	{ "the upload and the next claim in one call: upload_claim", migration_4 },
	{ "a job handed back unstarted keeps its attempts: release", migration_5 },
	{ "a batch of jobs found again after a crash: submit_ref, submitted", migration_6 },
	{ "who may do what: owners' cancel and retry, registered groups, bounded leases, "
	  "checked result roots, reported by perfbot_reporter", migration_7 },
};

const int lab_nr_migrations = (int)(sizeof(lab_migrations) / sizeof(lab_migrations[0]));
