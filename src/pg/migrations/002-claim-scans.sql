-- claims without queue scans, uploads without waits on the job row or on each other's flush
--
-- The claim and the upload at many jobs a second (bench/queue.sh: 8
-- workers on 5,000 queued jobs gave 112-150 jobs/s, most backends
-- waiting on a lock, and the claim grew with the queue):
--
-- - the claim's "parked" looked for expired leases through queue_next,
--   every queued row (or the whole table, done rows included, once
--   analyzed): queue_lease holds the running rows alone;
-- - its "next" is one ordered scan of queue_next stopping at the first
--   row it may take, but on a table filled since the last ANALYZE the
--   planner expects a dozen rows and sorts all of them instead (5,000
--   queued: 14 ms a claim): enable_sort off leaves it the index order
--   (and plpgsql keeps the plan, see below);
-- - upload_begin upserted the store's job row and its parameters with ON
--   CONFLICT DO UPDATE, which locks the row even when nothing changes, so
--   every upload of the same job (one testcase and parameters, many
--   commits, many boxes) waited for the one before it to commit: now an
--   existing job row is only read, and a parameter row only updated (and
--   locked) when its value differs;
-- - upload_root answers from the upload row (below);
-- - with fsync on, complete's NOTIFY made the commits one at a time
--   (below).

CREATE INDEX queue_lease ON perfbot.queue (lease_expires_at) WHERE state = 'running';
-- migration 1's statement, in plpgsql: a LANGUAGE sql function that
-- is not inlined (SECURITY DEFINER, SET) parses and plans its body
-- at every call, 1 ms of the server's CPU a claim; plpgsql keeps the
-- plan for the session
CREATE OR REPLACE FUNCTION perfbot.claim(p_group text, p_worker text,
    p_lease_s double precision)
RETURNS TABLE (id bigint, attempt int, name text, job text, commit text, repo text,
    build text, runs int)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_sort = off AS $f$
#variable_conflict use_column
BEGIN
RETURN QUERY
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
RETURNING q.id, q.attempt, q.name, q.job, q.commit, q.repo, q.build, q.runs;
END $f$;
CREATE OR REPLACE FUNCTION perfbot.upload_begin(p_id bigint, p_attempt int,
    p_result_root text, p_params text[]) RETURNS text
-- the parameters' statements were planned anew at each call (their
-- generic plan looked dearer than the custom ones), 150 us an upload
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $f$
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
  -- read, else insert; DO NOTHING when another upload inserted it
  -- meanwhile (after waiting for it to commit), then read that one
  FOR k IN 1..2 LOOP
    SELECT j.id INTO jid FROM perfbot.job j
    WHERE j.testcase = part[1] AND j.path_params = part[2] AND j.tbox_group = part[3]
      AND j.rootfs = part[4] AND j.kconfig = part[5] AND j.compiler = part[6];
    EXIT WHEN jid IS NOT NULL;
    INSERT INTO perfbot.job (testcase, path_params, tbox_group, rootfs, kconfig, compiler)
    VALUES (part[1], part[2], part[3], part[4], part[5], part[6])
    ON CONFLICT (testcase, path_params, tbox_group, rootfs, kconfig, compiler) DO NOTHING
    RETURNING id INTO jid;
    EXIT WHEN jid IS NOT NULL;
  END LOOP;
  IF coalesce(cardinality(p_params), 0) > 0 THEN
    INSERT INTO perfbot.job_param (job_id, name, value)
    SELECT jid, p_params[2 * i - 1], p_params[2 * i]
    FROM generate_series(1, cardinality(p_params) / 2) i
    ON CONFLICT (job_id, name) DO NOTHING;
    UPDATE perfbot.job_param o SET value = p_params[2 * i]
    FROM generate_series(1, cardinality(p_params) / 2) i
    WHERE o.job_id = jid AND o.name = p_params[2 * i - 1]
      AND o.value IS DISTINCT FROM p_params[2 * i];
  END IF;
  INSERT INTO perfbot.result_root (job_id, rev, path, signature, indexed_at)
  VALUES (jid, part[7], format('lab:%s/%s', p_id, p_result_root),
      format('lab job %s attempt %s', p_id, p_attempt), extract(epoch FROM now())::bigint)
  RETURNING id INTO rid;
  INSERT INTO perfbot.upload (job_id, attempt, box, result_root, root_id)
  VALUES (p_id, p_attempt, session_user, p_result_root, rid);
  RETURN s;
END $f$;
-- upload_run, upload_file and complete each asked hold() again, one
-- more call of a function a statement.  The upload row of a job still
-- running exists only in the transaction whose upload_begin locked the
-- job (it commits with complete's 'done'): finding it, for a live
-- lease of this login and attempt, is the same answer in one look.
-- Anything else goes the old way, to its error.
CREATE OR REPLACE FUNCTION perfbot.upload_root(p_id bigint, p_attempt int) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE rid bigint;
BEGIN
  SELECT u.root_id INTO rid FROM perfbot.upload u JOIN perfbot.queue j ON j.id = u.job_id
  WHERE u.job_id = p_id AND u.attempt = p_attempt AND j.attempt = p_attempt
    AND j.box = session_user AND j.state = 'running' AND j.lease_expires_at > now();
  IF rid IS NOT NULL THEN
    RETURN rid;
  END IF;
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
-- complete's NOTIFY took the cluster-wide lock that orders
-- notifications and held it until its transaction's commit record
-- reached the disk: with fsync on, every upload's commit waited for
-- the one before it to be flushed (8 workers: about 100 jobs/s, most
-- of them waiting on that lock), no two flushed together.  The
-- announcement is now a transaction of its own, right after
-- (lab_upload sends both in one round trip), which need not wait for
-- the disk: a lost wakeup costs a waiter one poll, not a result.
CREATE OR REPLACE FUNCTION perfbot.complete(p_id bigint, p_attempt int) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE rid bigint;
BEGIN
  rid := perfbot.upload_root(p_id, p_attempt);
  IF NOT EXISTS (SELECT 1 FROM perfbot.run r WHERE r.root_id = rid) THEN
    RAISE EXCEPTION 'job %: no run uploaded', p_id USING ERRCODE = 'PBU01';
  END IF;
  UPDATE perfbot.queue q SET state = 'done', finished_at = now(), lease_expires_at = NULL
  WHERE q.id = p_id;
END $f$;
CREATE FUNCTION perfbot.announce_done(p_id bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  IF EXISTS (SELECT 1 FROM perfbot.queue q WHERE q.id = p_id AND q.state = 'done') THEN
    PERFORM pg_notify('perfbot_done', p_id::text);
  END IF;
END $f$;
REVOKE ALL ON FUNCTION perfbot.announce_done(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION perfbot.announce_done(bigint) TO perfbot_worker;
