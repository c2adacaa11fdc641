-- a batch of jobs found again after a crash: submit_ref, submitted
--
-- A batch of jobs found again after a crash.  A submitter that journals
-- the ids it was given (remote.c) cannot do it in the transaction that
-- queues them: killed between the COMMIT and its journal's fsync, its
-- jobs would run for nobody, and a resume would queue them again.  So it
-- journals a random reference first and queues the batch under it;
-- submitted() gives back the ids of a reference, its caller's own only.
--
-- The references live in a table of their own, not in a column of the
-- queue: ALTER TABLE queue would wait for every open transaction on it
-- (a worker's upload) and hold up every claim behind it, so a lab could
-- not migrate under running workers.  Nothing here locks the queue.

CREATE TABLE perfbot.submit_ref (
  job bigint PRIMARY KEY,  -- perfbot.queue's id; no foreign key: it would lock the queue
  ref text NOT NULL,
  submitted_by text NOT NULL DEFAULT session_user
);
CREATE INDEX submit_ref_ref ON perfbot.submit_ref (ref);
CREATE FUNCTION perfbot.submit(p_name text, p_job text, p_commit text, p_repo text,
    p_build text, p_group text, p_priority int, p_runs int, p_budget int, p_ref text)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE new_id bigint;
BEGIN
  new_id := perfbot.submit(p_name, p_job, p_commit, p_repo, p_build, p_group,
      p_priority, p_runs, p_budget);
  IF p_ref IS NOT NULL THEN
    INSERT INTO perfbot.submit_ref (job, ref) VALUES (new_id, p_ref);
  END IF;
  RETURN new_id;
END $f$;
CREATE FUNCTION perfbot.submitted(p_ref text) RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
  SELECT r.job FROM perfbot.submit_ref r
  WHERE r.ref = p_ref AND r.submitted_by = session_user ORDER BY r.job
$f$;
REVOKE ALL ON FUNCTION perfbot.submit(text, text, text, text, text, text, int, int, int, text), perfbot.submitted(text)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION perfbot.submit(text, text, text, text, text, text, int, int, int, text), perfbot.submitted(text)
    TO perfbot_submitter;
