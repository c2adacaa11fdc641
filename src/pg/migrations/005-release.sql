-- a job handed back unstarted keeps its attempts: release
--
-- A job handed back unstarted: a worker told to stop while its upload
-- claimed the next job (upload_claim) gives that job back.  fail() would
-- spend one of the job's attempts on a run that never began, and a lab
-- whose workers are restarted often (a deploy, a box rebooted) would park
-- jobs that never failed.  release() puts it back in the queue with the
-- attempt refunded the way retry() grants attempts: attempt only grows,
-- so max_attempts goes one up.  last_error is left as it was: this is no
-- error.  NULL when the caller does not hold (p_id, p_attempt).

CREATE FUNCTION perfbot.release(p_id bigint, p_attempt int) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE g text;
BEGIN
  UPDATE perfbot.queue q SET state = 'queued', lease_expires_at = NULL,
      max_attempts = q.max_attempts + 1
  WHERE q.id = p_id AND q.attempt = p_attempt AND q.box = session_user
    AND q.state = 'running' AND q.lease_expires_at > now()  -- held, live
  RETURNING q.tbox_group INTO g;
  IF NOT FOUND THEN RETURN NULL; END IF;
  PERFORM pg_notify('perfbot_queue', g);
  RETURN 'queued';
END $f$;
REVOKE ALL ON FUNCTION perfbot.release(bigint, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION perfbot.release(bigint, int) TO perfbot_worker;
