-- an upload in one call: upload_job
--
-- One call an upload (bench/queue.sh: 330-390 jobs/s with fsync off
-- before it, the server's CPU the limit at about 2.4 ms a job): schema 2's
-- upload of a one-run result was upload_begin, upload_run, two
-- upload_file, complete, each asking hold() or upload_root() again, and
-- each statement in them planned afresh (custom plans), some 35
-- statements a job.  upload_job takes the whole result in arrays and does
-- the same checks and inserts, each once:
--
--   p_runs, p_nr_metrics     the run numbers, and how many of the metrics
--                            that follow are each one's, in that order
--   p_metrics, p_vals        every run's stats, one after the other
--   p_file_runs, _names,     the files (run -1: the result root's own),
--   _sizes, _data            each a zlib stream and its size before
--
-- It returns 'completed', or 'done' when this attempt completed the job
-- already (an upload whose COMMIT's answer was lost; nothing is checked
-- or added then), and raises PBL01 for a job the caller does not hold
-- with a live lease, PBU01 for a malformed upload, as the calls of
-- schema 2 do (they stay, with the same checks).
--
-- What it saves beyond the calls: the plans are kept (generic); the
-- samples of known metrics go in first, in one look-up of each name (the
-- metric table's ON CONFLICT and a join were two), and only when some
-- are missing are the new names added and their samples after them; the
-- samples go in in the primary key's order; and a metric
-- twice in a run is found by the samples' primary key (the one error
-- caught here, turned into PBU01) rather than by counting distinct
-- names; a result of 30,000 metrics spent 200 ms in the checks before.

CREATE FUNCTION perfbot.upload_job(p_id bigint, p_attempt int, p_result_root text,
    p_params text[], p_runs int[], p_nr_metrics int[], p_metrics text[],
    p_vals double precision[], p_file_runs int[], p_file_names text[],
    p_file_sizes bigint[], p_file_data bytea[]) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $f$
DECLARE q record; held boolean; part text[]; jid bigint; rid bigint; runid bigint;
  rpath text; nr int; nm int; nf int; lo int := 0; n int; k int; r int; got bigint;
  ms text[]; vs double precision[]; cname text;
BEGIN
  -- hold(), inline: the job's row locked until the end
  SELECT j.state, j.attempt, j.box, j.lease_expires_at > now() AS live INTO q
  FROM perfbot.queue j WHERE j.id = p_id FOR NO KEY UPDATE;
  IF FOUND AND q.attempt = p_attempt AND q.box = session_user THEN
    IF q.state = 'done' THEN RETURN 'done'; END IF;  -- by this attempt: a retry
    held := q.state = 'running' AND q.live;
  END IF;
  IF held IS NOT TRUE THEN
    RAISE EXCEPTION 'job % attempt % is not held by %', p_id, p_attempt, session_user
      USING ERRCODE = 'PBL01',
        HINT = 'its lease expired, or it was cancelled or taken by another worker';
  END IF;
  -- upload_begin's checks
  part := string_to_array(p_result_root, '/');
  IF coalesce(cardinality(part), 0) <> 7 OR array_position(part, '') IS NOT NULL
      OR array_position(part, '.') IS NOT NULL OR array_position(part, '..') IS NOT NULL THEN
    RAISE EXCEPTION 'job %: bad result root % (expected 7 path components)', p_id,
      coalesce(p_result_root, 'NULL') USING ERRCODE = 'PBU01';
  END IF;
  IF coalesce(cardinality(p_params), 0) % 2 <> 0
      OR array_position(p_params, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'job %: job parameters are not name, value pairs', p_id
      USING ERRCODE = 'PBU01';
  END IF;
  -- the runs and their stats
  nr := coalesce(cardinality(p_runs), 0);
  nm := coalesce(cardinality(p_metrics), 0);
  IF nr = 0 THEN
    RAISE EXCEPTION 'job %: no run uploaded', p_id USING ERRCODE = 'PBU01';
  END IF;
  IF array_ndims(p_runs) <> 1 OR coalesce(array_ndims(p_metrics), 1) <> 1
      OR coalesce(array_ndims(p_vals), 1) <> 1
      OR coalesce(cardinality(p_nr_metrics), -1) <> nr
      OR coalesce(cardinality(p_vals), 0) <> nm
      OR array_position(p_nr_metrics, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'job %: % runs, % metric counts, % metric names, % values', p_id, nr,
      coalesce(cardinality(p_nr_metrics), 0), nm, coalesce(cardinality(p_vals), 0)
      USING ERRCODE = 'PBU01';
  END IF;
  FOR i IN 1..nr LOOP
    r := p_runs[i];
    IF r IS NULL OR r < 0 OR r > 100000 OR array_position(p_runs, r) <> i THEN
      RAISE EXCEPTION 'job %: bad run number % (or twice)', p_id, coalesce(r::text, 'NULL')
        USING ERRCODE = 'PBU01';
    END IF;
    IF p_nr_metrics[i] < 1 THEN
      RAISE EXCEPTION 'job % run %: no metric', p_id, r USING ERRCODE = 'PBU01';
    END IF;
    lo := lo + p_nr_metrics[i];
  END LOOP;
  IF lo <> nm THEN
    RAISE EXCEPTION 'job %: the runs have % metrics, % were sent', p_id, lo, nm
      USING ERRCODE = 'PBU01';
  END IF;
  IF array_position(p_metrics, NULL) IS NOT NULL OR array_position(p_vals, NULL) IS NOT NULL
      OR array_position(p_metrics, '') IS NOT NULL THEN
    RAISE EXCEPTION 'job %: a metric is NULL, empty or twice', p_id USING ERRCODE = 'PBU01';
  END IF;
  -- the files
  nf := coalesce(cardinality(p_file_names), 0);
  IF coalesce(cardinality(p_file_runs), 0) <> nf OR coalesce(cardinality(p_file_sizes), 0) <> nf
      OR coalesce(cardinality(p_file_data), 0) <> nf
      OR coalesce(array_ndims(p_file_names), 1) <> 1 THEN
    RAISE EXCEPTION 'job %: % file names, % runs, % sizes, % data', p_id, nf,
      coalesce(cardinality(p_file_runs), 0), coalesce(cardinality(p_file_sizes), 0),
      coalesce(cardinality(p_file_data), 0) USING ERRCODE = 'PBU01';
  END IF;
  FOR i IN 1..nf LOOP
    IF p_file_names[i] IS NULL OR p_file_names[i] IN ('', '.', '..')
        OR strpos(p_file_names[i], '/') > 0 OR length(p_file_names[i]) > 255 THEN
      RAISE EXCEPTION 'job %: bad file name %', p_id, coalesce(p_file_names[i], 'NULL')
        USING ERRCODE = 'PBU01';
    END IF;
    r := p_file_runs[i];
    IF r IS NULL OR (r <> -1 AND array_position(p_runs, r) IS NULL) THEN
      RAISE EXCEPTION 'job %: file % of run %, which was not uploaded', p_id,
        p_file_names[i], coalesce(r::text, 'NULL') USING ERRCODE = 'PBU01';
    END IF;
    IF p_file_sizes[i] IS NULL OR p_file_sizes[i] < 0 THEN
      RAISE EXCEPTION 'job %: file % without data', p_id, p_file_names[i]
        USING ERRCODE = 'PBU01';
    END IF;
  END LOOP;
  k := array_position(p_file_data, NULL);
  IF k IS NOT NULL THEN
    RAISE EXCEPTION 'job %: file % without data', p_id, p_file_names[k]
      USING ERRCODE = 'PBU01';
  END IF;
  -- upload_begin's rows, as migration 2 makes them
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
  -- the parameters as they were: one look, no write
  IF cardinality(p_params) > 0 AND EXISTS (SELECT 1
      FROM generate_series(1, cardinality(p_params) / 2) i
      LEFT JOIN perfbot.job_param o ON o.job_id = jid AND o.name = p_params[2 * i - 1]
      WHERE o.value IS DISTINCT FROM p_params[2 * i]) THEN
    INSERT INTO perfbot.job_param (job_id, name, value)
    SELECT jid, p_params[2 * i - 1], p_params[2 * i]
    FROM generate_series(1, cardinality(p_params) / 2) i
    ON CONFLICT (job_id, name) DO NOTHING;
    UPDATE perfbot.job_param o SET value = p_params[2 * i]
    FROM generate_series(1, cardinality(p_params) / 2) i
    WHERE o.job_id = jid AND o.name = p_params[2 * i - 1] AND o.value <> p_params[2 * i];
  END IF;
  rpath := format('lab:%s/%s', p_id, p_result_root);
  BEGIN
    INSERT INTO perfbot.result_root (job_id, rev, path, signature, indexed_at)
    VALUES (jid, part[7], rpath, format('lab job %s attempt %s', p_id, p_attempt),
        extract(epoch FROM now())::bigint)
    RETURNING id INTO rid;
    INSERT INTO perfbot.upload (job_id, attempt, box, result_root, root_id)
    VALUES (p_id, p_attempt, session_user, p_result_root, rid);
    lo := 0;
    FOR i IN 1..nr LOOP
      n := p_nr_metrics[i];
      IF nr = 1 THEN
        ms := p_metrics;
        vs := p_vals;
      ELSE
        ms := p_metrics[lo + 1:lo + n];
        vs := p_vals[lo + 1:lo + n];
      END IF;
      lo := lo + n;
      k := array_position(ms, 'last_state.is_incomplete_run');
      INSERT INTO perfbot.run (root_id, number, incomplete, path)
      VALUES (rid, p_runs[i], CASE WHEN k IS NOT NULL AND vs[k] <> 0 THEN 1 ELSE 0 END,
          rpath || '/' || p_runs[i])
      RETURNING id INTO runid;
      -- the samples of the metrics known already: mostly all of them
      INSERT INTO perfbot.sample (metric_id, run_id, value)
      SELECT o.id, runid, CASE WHEN t.v = 'NaN' THEN NULL ELSE t.v END
      FROM unnest(ms, vs) t(m, v) JOIN perfbot.metric o ON o.name = t.m
      ORDER BY o.id;
      GET DIAGNOSTICS got = ROW_COUNT;
      -- then the new names, in name order (see upload_run), and theirs
      IF got < n THEN
        INSERT INTO perfbot.metric (name)
        SELECT m FROM unnest(ms) m
        WHERE NOT EXISTS (SELECT 1 FROM perfbot.metric o WHERE o.name = m)
        ORDER BY m ON CONFLICT (name) DO NOTHING;
        INSERT INTO perfbot.sample (metric_id, run_id, value)
        SELECT o.id, runid, CASE WHEN t.v = 'NaN' THEN NULL ELSE t.v END
        FROM unnest(ms, vs) t(m, v) JOIN perfbot.metric o ON o.name = t.m
        WHERE NOT EXISTS (SELECT 1 FROM perfbot.sample s
            WHERE s.metric_id = o.id AND s.run_id = runid)
        ORDER BY o.id;
      END IF;
    END LOOP;
    INSERT INTO perfbot.upload_file (job_id, run, name, size, data)
    SELECT p_id, t.f_run, t.f_name, t.f_size, t.f_data
    FROM unnest(p_file_runs, p_file_names, p_file_sizes, p_file_data)
      t(f_run, f_name, f_size, f_data);
  EXCEPTION WHEN unique_violation THEN
    GET STACKED DIAGNOSTICS cname = CONSTRAINT_NAME;
    IF cname = 'sample_pkey' THEN
      RAISE EXCEPTION 'job %: a metric is NULL, empty or twice', p_id
        USING ERRCODE = 'PBU01';
    ELSIF cname = 'upload_file_pkey' THEN
      RAISE EXCEPTION 'job %: a file is there twice', p_id USING ERRCODE = 'PBU01';
    END IF;
    RAISE;
  END;
  UPDATE perfbot.queue j SET state = 'done', finished_at = now(), lease_expires_at = NULL
  WHERE j.id = p_id;
  RETURN 'completed';
END $f$;
-- the claim's statement was planned at every call (its custom plans
-- looked cheaper than a generic one), 80 us a claim; enable_sort off
-- keeps the generic plan in queue_next's order all the same
ALTER FUNCTION perfbot.claim(text, text, double precision)
  SET plan_cache_mode = force_generic_plan;
REVOKE ALL ON FUNCTION perfbot.upload_job(bigint, int, text, text[], int[], int[], text[],
    double precision[], int[], text[], bigint[], bytea[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION perfbot.upload_job(bigint, int, text, text[], int[], int[], text[],
    double precision[], int[], text[], bigint[], bytea[]) TO perfbot_worker;
