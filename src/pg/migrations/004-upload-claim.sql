-- the upload and the next claim in one call: upload_claim
--
-- The upload and the next claim in one call (bench/queue.sh: a worker's
-- job was two round trips and three transactions: the claim, the upload,
-- the announcement; under load, each round trip is two wake-ups of
-- processes waiting for a core).  upload_claim is upload_job followed
-- by claim, in the upload's transaction: one round trip and one commit
-- less a job, and the same answers, since it calls those two:
--
--   uploaded           upload_job's answer ('completed' or 'done')
--   id .. runs         claim's row, the next job; all NULL when none
--
-- A refused or malformed upload raises as upload_job does: nothing is
-- claimed then (the transaction rolls back), and the worker claims on
-- its own.  An upload retried after its COMMIT's answer was lost ('done')
-- had claimed a job in that commit, which the worker never heard of:
-- that job, still held by this worker (its name, host:pid, and login)
-- with a live lease, is given again rather than a new one claimed, or it
-- would sit until its lease expired and cost an attempt.

CREATE FUNCTION perfbot.upload_claim(p_id bigint, p_attempt int, p_result_root text,
    p_params text[], p_runs int[], p_nr_metrics int[], p_metrics text[],
    p_vals double precision[], p_file_runs int[], p_file_names text[],
    p_file_sizes bigint[], p_file_data bytea[], p_group text, p_worker text,
    p_lease_s double precision)
RETURNS TABLE (uploaded text, id bigint, attempt int, name text, job text, commit text,
    repo text, build text, runs int)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $f$
#variable_conflict use_column
DECLARE s text;
BEGIN
  s := perfbot.upload_job(p_id, p_attempt, p_result_root, p_params, p_runs, p_nr_metrics,
      p_metrics, p_vals, p_file_runs, p_file_names, p_file_sizes, p_file_data);
  IF s = 'done' THEN
    RETURN QUERY SELECT s, q.id, q.attempt, q.name, q.job, q.commit, q.repo, q.build, q.runs
    FROM perfbot.queue q
    WHERE q.state = 'running' AND q.lease_expires_at > now() AND q.box = session_user
      AND q.worker = p_worker AND q.id <> p_id
    ORDER BY q.started_at DESC, q.id DESC LIMIT 1;
    IF FOUND THEN RETURN; END IF;
  END IF;
  RETURN QUERY SELECT s, c.id, c.attempt, c.name, c.job, c.commit, c.repo, c.build, c.runs
  FROM perfbot.claim(p_group, p_worker, p_lease_s) c;
  IF NOT FOUND THEN
    RETURN QUERY SELECT s, NULL::bigint, NULL::int, NULL::text, NULL::text, NULL::text,
        NULL::text, NULL::text, NULL::int;
  END IF;
END $f$;
REVOKE ALL ON FUNCTION perfbot.upload_claim(bigint, int, text, text[], int[], int[], text[], double precision[], int[], text[], bigint[], bytea[], text, text, double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION perfbot.upload_claim(bigint, int, text, text[], int[], int[], text[], double precision[], int[], text[], bigint[], bytea[], text, text, double precision) TO perfbot_worker;
