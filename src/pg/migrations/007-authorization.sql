-- who may do what: owners' cancel and retry, registered groups, bounded leases, checked result roots, reported by perfbot_reporter
--
-- Who may do what, checked by the functions (lab schema 7).  Before it,
-- any submitter cancelled or retried anyone's jobs and wrote `reported`,
-- a worker claimed any tbox_group with a lease of up to 24 h, and an
-- upload named any result root of seven components: another testcase,
-- group or commit, control characters, 5,000-byte names.
--
-- - cancel and retry: the job's submitter (queue.submitted_by), or a
--   member of perfbot_admin; anyone else gets 42501.
-- - `reported` (perfbot watch's record): written by perfbot_reporter
--   only; a submitter still reads it.
-- - a box claims only the groups it is registered for in box_group (an
--   admin's rows: login, tbox_group; '*' any group); 42501 otherwise.
--   Admins (superusers too) claim any: they own the queue anyway.
-- - leases: at most LAB_LEASE_MAX_S (600 s, src/pg/schema.h) a claim
--   or heartbeat.  A worker renews at a third of its lease (worker.c),
--   so a 600 s lease is renewed every 200 s and survives a box
--   unreachable for 6 min; a dead box holds a job 10 min at most, not
--   a day.  `perfbot worker --lease` takes no more, or its heartbeats
--   would come after the lease ended.
-- - the upload's result root: each of its 7 components one path
--   component of at most 255 bytes with no control character; the
--   testcase the job's `testcase:`, the group the job's tbox_group (or
--   one the box is registered for, for a job of any box), the commit the
--   queued commit (a 40- or 64-digit hash of it when the box checked it
--   out of a repo).  The parameters' component is the worker's and every
--   fetch's to check (upload.c: it is lkp's path_params of the job, which
--   SQL does not compute); rootfs, kconfig and compiler are the box's.
--
-- The old functions stay under *_unchecked names, for the new ones to
-- call; the worker role loses EXECUTE on them.  upload_claim calls
-- upload_job and claim by name, so it gets the checks too.

CREATE TABLE perfbot.box_group (
  box text NOT NULL,           -- a worker's login
  tbox_group text NOT NULL,    -- a group it may claim jobs of; '*' any
  PRIMARY KEY (box, tbox_group)
);
CREATE FUNCTION perfbot.may_claim(p_group text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
  SELECT EXISTS (SELECT 1 FROM perfbot.box_group b
    WHERE b.box = session_user AND b.tbox_group IN (p_group, '*'))
    OR pg_has_role(session_user, 'perfbot_admin', 'MEMBER')
$f$;
-- cancel and retry: the submitter's own, or an admin's
CREATE FUNCTION perfbot.check_owner(p_id bigint, p_what text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE who text;
BEGIN
  SELECT q.submitted_by INTO who FROM perfbot.queue q WHERE q.id = p_id;
  IF FOUND AND who <> session_user
      AND NOT pg_has_role(session_user, 'perfbot_admin', 'MEMBER') THEN
    RAISE EXCEPTION 'job % was submitted by %: only they or a perfbot_admin may % it',
      p_id, who, p_what USING ERRCODE = '42501';
  END IF;
END $f$;
ALTER FUNCTION perfbot.cancel(bigint) RENAME TO cancel_unchecked;
ALTER FUNCTION perfbot.retry(bigint) RENAME TO retry_unchecked;
CREATE FUNCTION perfbot.cancel(p_id bigint) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
  PERFORM perfbot.check_owner(p_id, 'cancel');
  RETURN perfbot.cancel_unchecked(p_id);
END $f$;
CREATE FUNCTION perfbot.retry(p_id bigint) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
  PERFORM perfbot.check_owner(p_id, 'retry');
  RETURN perfbot.retry_unchecked(p_id);
END $f$;
-- the claim: a registered group, a bounded lease
ALTER FUNCTION perfbot.claim(text, text, double precision) RENAME TO claim_unchecked;
ALTER FUNCTION perfbot.heartbeat(bigint, int, double precision)
  RENAME TO heartbeat_unchecked;
CREATE FUNCTION perfbot.claim(p_group text, p_worker text, p_lease_s double precision)
RETURNS TABLE (id bigint, attempt int, name text, job text, commit text, repo text,
    build text, runs int)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
  IF NOT perfbot.may_claim(p_group) THEN
    RAISE EXCEPTION 'box % is not registered for tbox_group %', session_user,
      coalesce(p_group, 'NULL') USING ERRCODE = '42501',
      HINT = 'an admin adds it: INSERT INTO perfbot.box_group VALUES (box, group)';
  END IF;
  RETURN QUERY SELECT * FROM perfbot.claim_unchecked(p_group, p_worker,
      least(p_lease_s, 600));
END $f$;
CREATE FUNCTION perfbot.heartbeat(p_id bigint, p_attempt int, p_lease_s double precision)
RETURNS timestamptz LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
  SELECT perfbot.heartbeat_unchecked(p_id, p_attempt, least(p_lease_s, 600))
$f$;
-- the upload's identity: the job it holds
CREATE FUNCTION perfbot.check_result_root(p_id bigint, p_root text) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE part text[]; q record; tc text; hash text := '^([0-9a-f]{40}|[0-9a-f]{64})$';
  shown text := left(regexp_replace(coalesce(p_root, 'NULL'), '[[:cntrl:]]', '?', 'g'), 300);
BEGIN
  part := string_to_array(p_root, '/');
  IF coalesce(cardinality(part), 0) <> 7 OR EXISTS (SELECT 1 FROM unnest(part) c
      WHERE c IS NULL OR c IN ('', '.', '..') OR octet_length(c) > 255
        OR c ~ '[[:cntrl:]]') THEN
    RAISE EXCEPTION 'job %: bad result root % (expected 7 path components of at most 255 '
      'bytes, no control character)', p_id, shown USING ERRCODE = 'PBU01';
  END IF;
  SELECT j.job, j.commit, j.repo, j.tbox_group INTO q FROM perfbot.queue j WHERE j.id = p_id;
  tc := substring(q.job FROM '(?n)^testcase:[ \t]*["'']?([^"''[:space:]#]+)');
  IF tc IS NOT NULL AND part[1] <> tc THEN
    RAISE EXCEPTION 'job %: result root % is not of the job''s testcase %', p_id, shown, tc
      USING ERRCODE = 'PBU01';
  END IF;
  IF (q.tbox_group <> '' AND part[3] <> q.tbox_group)
      OR (q.tbox_group = '' AND NOT perfbot.may_claim(part[3])) THEN
    RAISE EXCEPTION 'job %: result root % is not of the job''s tbox_group %', p_id, shown,
      CASE WHEN q.tbox_group = '' THEN '(one this box is registered for)'
        ELSE q.tbox_group END USING ERRCODE = 'PBU01';
  END IF;
  IF (q.repo IS NULL AND q.commit IS NOT NULL AND part[7] <> q.commit)
      OR (q.repo IS NOT NULL AND (part[7] !~ hash
          OR (q.commit ~ hash AND part[7] <> q.commit))) THEN
    RAISE EXCEPTION 'job %: result root % is not of the job''s commit %', p_id, shown,
      coalesce(q.commit, 'NULL') USING ERRCODE = 'PBU01';
  END IF;
END $f$;
ALTER FUNCTION perfbot.upload_job(bigint, int, text, text[], int[], int[], text[], double precision[], int[], text[], bigint[], bytea[]) RENAME TO upload_job_unchecked;
ALTER FUNCTION perfbot.upload_begin(bigint, int, text, text[])
  RENAME TO upload_begin_unchecked;
CREATE FUNCTION perfbot.upload_job(p_id bigint, p_attempt int, p_result_root text,
    p_params text[], p_runs int[], p_nr_metrics int[], p_metrics text[],
    p_vals double precision[], p_file_runs int[], p_file_names text[],
    p_file_sizes bigint[], p_file_data bytea[]) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
  -- the holder's check first: a late upload is PBL01, as before
  IF perfbot.hold(p_id, p_attempt) = 'running' THEN
    PERFORM perfbot.check_result_root(p_id, p_result_root);
  END IF;
  RETURN perfbot.upload_job_unchecked(p_id, p_attempt, p_result_root, p_params, p_runs,
      p_nr_metrics, p_metrics, p_vals, p_file_runs, p_file_names, p_file_sizes, p_file_data);
END $f$;
CREATE FUNCTION perfbot.upload_begin(p_id bigint, p_attempt int, p_result_root text,
    p_params text[]) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
  IF perfbot.hold(p_id, p_attempt) = 'running' THEN
    PERFORM perfbot.check_result_root(p_id, p_result_root);
  END IF;
  RETURN perfbot.upload_begin_unchecked(p_id, p_attempt, p_result_root, p_params);
END $f$;
-- grants
REVOKE ALL ON FUNCTION perfbot.cancel_unchecked(bigint), perfbot.retry_unchecked(bigint),
    perfbot.claim_unchecked(text, text, double precision),
    perfbot.heartbeat_unchecked(bigint, int, double precision),
    perfbot.upload_job_unchecked(bigint, int, text, text[], int[], int[], text[], double precision[], int[], text[], bigint[], bytea[]),
    perfbot.upload_begin_unchecked(bigint, int, text, text[]),
    perfbot.may_claim(text), perfbot.check_owner(bigint, text),
    perfbot.check_result_root(bigint, text),
    perfbot.cancel(bigint), perfbot.retry(bigint),
    perfbot.claim(text, text, double precision),
    perfbot.heartbeat(bigint, int, double precision),
    perfbot.upload_job(bigint, int, text, text[], int[], int[], text[], double precision[], int[], text[], bigint[], bytea[]),
    perfbot.upload_begin(bigint, int, text, text[])
  FROM PUBLIC, perfbot_submitter, perfbot_worker;
GRANT EXECUTE ON FUNCTION perfbot.cancel(bigint), perfbot.retry(bigint)
  TO perfbot_submitter;
GRANT EXECUTE ON FUNCTION perfbot.claim(text, text, double precision),
    perfbot.heartbeat(bigint, int, double precision),
    perfbot.upload_job(bigint, int, text, text[], int[], int[], text[], double precision[], int[], text[], bigint[], bytea[]),
    perfbot.upload_begin(bigint, int, text, text[]) TO perfbot_worker;
GRANT SELECT ON perfbot.box_group TO perfbot_submitter;
REVOKE INSERT, UPDATE, DELETE ON perfbot.reported FROM perfbot_submitter;
REVOKE USAGE ON SEQUENCE perfbot.reported_id_seq FROM perfbot_submitter;
GRANT SELECT, INSERT ON perfbot.reported TO perfbot_reporter;
GRANT USAGE ON SEQUENCE perfbot.reported_id_seq TO perfbot_reporter;
