-- the queue, uploaded results, roles' grants
--
-- Every SECURITY DEFINER function below sets a fixed search_path
-- (pg_catalog, pg_temp), or a caller could put its own perfbot.* or
-- operators first.

-- --- the queue -------------------------------------------------
CREATE TABLE perfbot.queue (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  state text NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  name text NOT NULL,            -- the atomic job's file name
  job text NOT NULL,             -- the atomic job (lkp YAML)
  commit text,                   -- what the runs are recorded under
  repo text,                     -- git URL to check commit out of
  build text,                    -- shell command run in the checkout
  tbox_group text NOT NULL DEFAULT '',  -- '' any box
  priority int NOT NULL DEFAULT 5 CHECK (priority BETWEEN 0 AND 9),
  runs int NOT NULL DEFAULT 1 CHECK (runs BETWEEN 1 AND 1000),
  attempt int NOT NULL DEFAULT 0,      -- only grows (see schema.c)
  budget int NOT NULL DEFAULT 3 CHECK (budget BETWEEN 1 AND 100),
  max_attempts int NOT NULL DEFAULT 3,
  box text,                      -- login of the holder, or the last one
  worker text,                   -- its own name (host:pid)
  lease_expires_at timestamptz,
  scheduled_at timestamptz NOT NULL DEFAULT now(),
  submitted_by text NOT NULL DEFAULT session_user,
  started_at timestamptz,
  finished_at timestamptz,
  last_error text
);
-- what a claim scans: done/failed/cancelled rows leave the index
CREATE INDEX queue_next ON perfbot.queue (priority, scheduled_at, id)
  WHERE state IN ('queued', 'running');
-- --- what workers upload -------------------------------------- *
-- The values go into the store's tables (store_pg.c): a job's upload
-- is one result_root there, whose path "lab:<job id>/<result root>"
-- no local tree can have.  The files, which the store only points at
-- on disk, are kept here.
CREATE TABLE perfbot.upload (
  job_id bigint PRIMARY KEY REFERENCES perfbot.queue (id),
  attempt int NOT NULL,
  box text NOT NULL,
  result_root text NOT NULL,     -- lkp's _result_root below the base
  root_id bigint NOT NULL UNIQUE REFERENCES perfbot.result_root (id),
  uploaded_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE perfbot.upload_file (
  job_id bigint NOT NULL REFERENCES perfbot.upload (job_id),
  run int NOT NULL CHECK (run >= -1),  -- -1: the _result_root's own
  name text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),  -- bytes before compression
  data bytea NOT NULL,           -- a zlib stream
  PRIMARY KEY (job_id, run, name)
);
-- already compressed: TOAST's own compression would only cost CPU
ALTER TABLE perfbot.upload_file ALTER data SET STORAGE EXTERNAL;
-- --- submitter -------------------------------------------------
CREATE FUNCTION perfbot.submit(p_name text, p_job text, p_commit text, p_repo text,
    p_build text, p_group text, p_priority int, p_runs int, p_budget int)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE new_id bigint;
BEGIN
  INSERT INTO perfbot.queue (name, job, commit, repo, build, tbox_group, priority,
      runs, budget, max_attempts)
  VALUES (p_name, p_job, p_commit, p_repo, p_build, coalesce(p_group, ''), p_priority,
      p_runs, p_budget, p_budget)
  RETURNING id INTO new_id;
  PERFORM pg_notify('perfbot_queue', coalesce(p_group, ''));
  RETURN new_id;
END $f$;
-- Raise PBN01 or PBS01 for a job that is missing or in a state the
-- operation does not take.
CREATE FUNCTION perfbot.state_error(p_id bigint, p_what text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE s text;
BEGIN
  SELECT q.state INTO s FROM perfbot.queue q WHERE q.id = p_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no job %', p_id USING ERRCODE = 'PBN01';
  END IF;
  RAISE EXCEPTION 'job % is %: nothing to %', p_id, s, p_what USING ERRCODE = 'PBS01';
END $f$;
CREATE FUNCTION perfbot.cancel(p_id bigint) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE s text;
BEGIN
  SELECT q.state INTO s FROM perfbot.queue q WHERE q.id = p_id FOR UPDATE;
  IF s IS NULL OR s NOT IN ('queued', 'running') THEN
    PERFORM perfbot.state_error(p_id, 'cancel');
  END IF;
  UPDATE perfbot.queue q SET state = 'cancelled', finished_at = now(),
      lease_expires_at = NULL WHERE q.id = p_id;
  RETURN s;
END $f$;
CREATE FUNCTION perfbot.retry(p_id bigint) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE s text; g text;
BEGIN
  SELECT q.state, q.tbox_group INTO s, g FROM perfbot.queue q WHERE q.id = p_id FOR UPDATE;
  IF s IS NULL OR s NOT IN ('failed', 'cancelled') THEN
    PERFORM perfbot.state_error(p_id, 'retry');
  END IF;
  UPDATE perfbot.queue q SET state = 'queued', finished_at = NULL,
      max_attempts = q.attempt + q.budget WHERE q.id = p_id;
  PERFORM pg_notify('perfbot_queue', g);
  RETURN s;
END $f$;
-- --- worker ----------------------------------------------------
-- The claim: one statement.  "parked" fails the expired leases that
-- have no attempt left; "next" picks the most urgent job this box
-- may run, queued or with an expired lease, skipping rows another
-- claim has locked; the UPDATE takes it.  The two CTEs touch
-- disjoint rows (attempt >= max_attempts or not).
CREATE FUNCTION perfbot.claim(p_group text, p_worker text, p_lease_s double precision)
RETURNS TABLE (id bigint, attempt int, name text, job text, commit text, repo text,
    build text, runs int)
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
WITH parked AS (
  UPDATE perfbot.queue q SET state = 'failed', finished_at = now(), lease_expires_at = NULL,
      last_error = format('attempt %s: the lease of %s (%s) expired; no attempt left',
          q.attempt, q.worker, q.box)
  WHERE q.id IN (SELECT e.id FROM perfbot.queue e
      WHERE e.state = 'running' AND e.lease_expires_at < now()
        AND e.attempt >= e.max_attempts
      FOR UPDATE SKIP LOCKED)
  RETURNING q.id
), next AS (
  SELECT c.id FROM perfbot.queue c
  WHERE (c.state = 'queued' OR (c.state = 'running' AND c.lease_expires_at < now()
          AND c.attempt < c.max_attempts))
    AND (c.tbox_group = '' OR c.tbox_group = p_group)
  ORDER BY c.priority, c.scheduled_at, c.id
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
UPDATE perfbot.queue q SET state = 'running', attempt = q.attempt + 1,
    box = session_user, worker = p_worker, started_at = now(),
    lease_expires_at = now() + make_interval(secs => least(greatest(p_lease_s, 1), 86400)),
    last_error = CASE WHEN q.state = 'running'
        THEN format('attempt %s: the lease of %s (%s) expired', q.attempt, q.worker, q.box)
        ELSE q.last_error END
FROM next WHERE q.id = next.id
RETURNING q.id, q.attempt, q.name, q.job, q.commit, q.repo, q.build, q.runs
$f$;
-- NULL when the caller does not hold (p_id, p_attempt) any more
CREATE FUNCTION perfbot.heartbeat(p_id bigint, p_attempt int, p_lease_s double precision)
RETURNS timestamptz LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
UPDATE perfbot.queue q SET lease_expires_at = now() + make_interval(secs => least(greatest(p_lease_s, 1), 86400))
WHERE q.id = p_id AND q.attempt = p_attempt AND q.box = session_user
  AND q.state = 'running' AND q.lease_expires_at > now()
RETURNING q.lease_expires_at
$f$;
-- Back to the queue while attempts are left, else parked; NULL when
-- not held.
CREATE FUNCTION perfbot.fail(p_id bigint, p_attempt int, p_error text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE s text; g text;
BEGIN
  UPDATE perfbot.queue q
  SET state = CASE WHEN q.attempt >= q.max_attempts THEN 'failed' ELSE 'queued' END,
      finished_at = CASE WHEN q.attempt >= q.max_attempts THEN now() END,
      lease_expires_at = NULL,
      last_error = format('attempt %s: %s', q.attempt,
          left(coalesce(p_error, 'unknown error'), 2000))
  WHERE q.id = p_id AND q.attempt = p_attempt AND q.box = session_user
    AND q.state = 'running' AND q.lease_expires_at > now()
  RETURNING q.state, q.tbox_group INTO s, g;
  IF s = 'queued' THEN
    PERFORM pg_notify('perfbot_queue', g);
  END IF;
  RETURN s;
END $f$;
-- 'running' (upload away) or 'done' (this attempt completed it
-- already: an upload whose COMMIT's answer was lost); raises PBL01
-- otherwise.  Locks the row until the transaction ends: no claim can
-- take the job from under an upload in progress.
CREATE FUNCTION perfbot.hold(p_id bigint, p_attempt int) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE q record;
BEGIN
  SELECT j.state, j.attempt, j.box, j.lease_expires_at > now() AS live INTO q
  FROM perfbot.queue j WHERE j.id = p_id FOR NO KEY UPDATE;
  IF FOUND AND q.attempt = p_attempt AND q.box = session_user THEN
    IF q.state = 'running' AND q.live THEN RETURN 'running'; END IF;
    IF q.state = 'done' THEN RETURN 'done'; END IF;
  END IF;
  RAISE EXCEPTION 'job % attempt % is not held by %', p_id, p_attempt, session_user
    USING ERRCODE = 'PBL01',
      HINT = 'its lease expired, or it was cancelled or taken by another worker';
END $f$;
-- The result root is lkp's seven components (testcase/path_params/
-- tbox_group/rootfs/kconfig/compiler/commit), each one safe path
-- component: they name the store's job and rev.  p_params are the
-- job's axes as name, value pairs in one flat array.
CREATE FUNCTION perfbot.upload_begin(p_id bigint, p_attempt int, p_result_root text,
    p_params text[]) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE s text; part text[]; jid bigint; rid bigint;
BEGIN
  s := perfbot.hold(p_id, p_attempt);
  IF s <> 'running' THEN
    RETURN s;
  END IF;
  part := string_to_array(p_result_root, '/');
  IF coalesce(cardinality(part), 0) <> 7 OR EXISTS (SELECT 1 FROM unnest(part) c
      WHERE c IS NULL OR c IN ('', '.', '..')) THEN
    RAISE EXCEPTION 'job %: bad result root % (expected 7 path components)', p_id,
      coalesce(p_result_root, 'NULL') USING ERRCODE = 'PBU01';
  END IF;
  IF coalesce(cardinality(p_params), 0) % 2 <> 0
      OR array_position(p_params, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'job %: job parameters are not name, value pairs', p_id
      USING ERRCODE = 'PBU01';
  END IF;
  INSERT INTO perfbot.job (testcase, path_params, tbox_group, rootfs, kconfig, compiler)
  VALUES (part[1], part[2], part[3], part[4], part[5], part[6])
  ON CONFLICT (testcase, path_params, tbox_group, rootfs, kconfig, compiler)
  DO UPDATE SET testcase = excluded.testcase RETURNING id INTO jid;
  INSERT INTO perfbot.job_param (job_id, name, value)
  SELECT jid, p_params[2 * i - 1], p_params[2 * i]
  FROM generate_series(1, coalesce(cardinality(p_params), 0) / 2) i
  ON CONFLICT (job_id, name) DO UPDATE SET value = excluded.value;
  INSERT INTO perfbot.result_root (job_id, rev, path, signature, indexed_at)
  VALUES (jid, part[7], format('lab:%s/%s', p_id, p_result_root),
      format('lab job %s attempt %s', p_id, p_attempt), extract(epoch FROM now())::bigint)
  RETURNING id INTO rid;
  INSERT INTO perfbot.upload (job_id, attempt, box, result_root, root_id)
  VALUES (p_id, p_attempt, session_user, p_result_root, rid);
  RETURN s;
END $f$;
-- The store's root of the upload in progress; raises unless the
-- caller holds the job, running (a 'done' job takes no more).
CREATE FUNCTION perfbot.upload_root(p_id bigint, p_attempt int) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE rid bigint;
BEGIN
  IF perfbot.hold(p_id, p_attempt) <> 'running' THEN
    RAISE EXCEPTION 'job % attempt % is done already', p_id, p_attempt
      USING ERRCODE = 'PBL01';
  END IF;
  SELECT u.root_id INTO rid FROM perfbot.upload u WHERE u.job_id = p_id;
  IF rid IS NULL THEN
    RAISE EXCEPTION 'job %: upload_begin first', p_id USING ERRCODE = 'PBU01';
  END IF;
  RETURN rid;
END $f$;
-- One run's stats: a run row and its samples in the store (NaN as
-- NULL, as the store keeps it).  New metric names are added in name
-- order, so that two uploads adding overlapping names lock them in
-- the same order and cannot deadlock.
CREATE FUNCTION perfbot.upload_run(p_id bigint, p_attempt int, p_run int,
    p_metrics text[], p_vals double precision[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE rid bigint; runid bigint; path text;
BEGIN
  rid := perfbot.upload_root(p_id, p_attempt);
  IF p_run IS NULL OR p_run < 0 OR p_run > 100000 THEN
    RAISE EXCEPTION 'job %: bad run number %', p_id, p_run USING ERRCODE = 'PBU01';
  END IF;
  IF coalesce(cardinality(p_metrics), 0) = 0
      OR cardinality(p_metrics) <> coalesce(cardinality(p_vals), -1)
      OR array_ndims(p_metrics) <> 1 OR array_ndims(p_vals) <> 1 THEN
    RAISE EXCEPTION 'job % run %: % metric names for % values', p_id, p_run,
      coalesce(cardinality(p_metrics), 0), coalesce(cardinality(p_vals), 0)
      USING ERRCODE = 'PBU01';
  END IF;
  IF array_position(p_metrics, NULL) IS NOT NULL OR array_position(p_vals, NULL) IS NOT NULL
      OR array_position(p_metrics, '') IS NOT NULL
      OR (SELECT count(DISTINCT m) FROM unnest(p_metrics) m) <> cardinality(p_metrics) THEN
    RAISE EXCEPTION 'job % run %: a metric is NULL, empty or twice', p_id, p_run
      USING ERRCODE = 'PBU01';
  END IF;
  SELECT r.path || '/' || p_run INTO path FROM perfbot.result_root r WHERE r.id = rid;
  INSERT INTO perfbot.run (root_id, number, incomplete, path)
  VALUES (rid, p_run, coalesce((SELECT (v <> 0)::int FROM unnest(p_metrics, p_vals) t(m, v)
      WHERE m = 'last_state.is_incomplete_run'), 0), path)
  RETURNING id INTO runid;
  INSERT INTO perfbot.metric (name)
  SELECT m FROM unnest(p_metrics) m ORDER BY m ON CONFLICT (name) DO NOTHING;
  INSERT INTO perfbot.sample (metric_id, run_id, value)
  SELECT k.id, runid, CASE WHEN t.v = 'NaN' THEN NULL ELSE t.v END
  FROM unnest(p_metrics, p_vals) t(m, v) JOIN perfbot.metric k ON k.name = t.m;
END $f$;
CREATE FUNCTION perfbot.upload_file(p_id bigint, p_attempt int, p_run int, p_name text,
    p_size bigint, p_data bytea) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE rid bigint;
BEGIN
  rid := perfbot.upload_root(p_id, p_attempt);
  IF p_name IS NULL OR p_name = '' OR p_name IN ('.', '..') OR strpos(p_name, '/') > 0
      OR length(p_name) > 255 THEN
    RAISE EXCEPTION 'job %: bad file name %', p_id, coalesce(p_name, 'NULL')
      USING ERRCODE = 'PBU01';
  END IF;
  IF p_run IS NULL OR (p_run <> -1 AND NOT EXISTS (SELECT 1 FROM perfbot.run r
      WHERE r.root_id = rid AND r.number = p_run)) THEN
    RAISE EXCEPTION 'job %: file % of run %, which was not uploaded', p_id, p_name, p_run
      USING ERRCODE = 'PBU01';
  END IF;
  IF p_size IS NULL OR p_size < 0 OR p_data IS NULL THEN
    RAISE EXCEPTION 'job %: file % without data', p_id, p_name USING ERRCODE = 'PBU01';
  END IF;
  INSERT INTO perfbot.upload_file (job_id, run, name, size, data)
  VALUES (p_id, p_run, p_name, p_size, p_data);
END $f$;
CREATE FUNCTION perfbot.complete(p_id bigint, p_attempt int) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE rid bigint;
BEGIN
  rid := perfbot.upload_root(p_id, p_attempt);
  IF NOT EXISTS (SELECT 1 FROM perfbot.run r WHERE r.root_id = rid) THEN
    RAISE EXCEPTION 'job %: no run uploaded', p_id USING ERRCODE = 'PBU01';
  END IF;
  UPDATE perfbot.queue q SET state = 'done', finished_at = now(), lease_expires_at = NULL
  WHERE q.id = p_id;
  PERFORM pg_notify('perfbot_done', p_id::text);
END $f$;
-- --- who may do what -------------------------------------------
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA perfbot FROM PUBLIC;
GRANT SELECT ON perfbot.queue, perfbot.upload, perfbot.upload_file TO perfbot_submitter;
GRANT EXECUTE ON FUNCTION perfbot.submit(text, text, text, text, text, text, int, int, int),
    perfbot.cancel(bigint), perfbot.retry(bigint) TO perfbot_submitter;
GRANT EXECUTE ON FUNCTION perfbot.claim(text, text, double precision),
    perfbot.heartbeat(bigint, int, double precision), perfbot.fail(bigint, int, text),
    perfbot.upload_begin(bigint, int, text, text[]),
    perfbot.upload_run(bigint, int, int, text[], double precision[]),
    perfbot.upload_file(bigint, int, int, text, bigint, bytea),
    perfbot.complete(bigint, int) TO perfbot_worker;
