-- the results: jobs, their result roots and runs, metrics, samples
--
-- sample is the big table (runs x metrics rows).  It is WITHOUT ROWID and
-- keyed (metric_id, run_id): one metric's values across every run are
-- one contiguous key range, which is what history and detect read, and a
-- row costs its key and value only.  Deleting a run's samples walks the
-- metric ids with that run (see Q_RUN_SAMPLES_DELETE in store_sqlite.c)
-- instead of paying for a second index on every insert.
CREATE TABLE job (
  id INTEGER PRIMARY KEY,
  testcase TEXT NOT NULL,
  path_params TEXT NOT NULL,
  tbox_group TEXT NOT NULL,
  rootfs TEXT NOT NULL,
  kconfig TEXT NOT NULL,
  compiler TEXT NOT NULL,
  UNIQUE (testcase, path_params, tbox_group, rootfs, kconfig, compiler)
);
CREATE TABLE job_param (
  job_id BIGINT NOT NULL REFERENCES job (id),
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (job_id, name)
) WITHOUT ROWID;
CREATE TABLE result_root (
  id INTEGER PRIMARY KEY,
  job_id BIGINT NOT NULL REFERENCES job (id),
  rev TEXT NOT NULL,
  path TEXT NOT NULL UNIQUE,
  signature TEXT NOT NULL,
  indexed_at BIGINT NOT NULL
);
CREATE INDEX result_root_job ON result_root (job_id, rev);
CREATE TABLE run (
  id INTEGER PRIMARY KEY,
  root_id BIGINT NOT NULL REFERENCES result_root (id),
  number INTEGER NOT NULL,
  incomplete INTEGER NOT NULL,
  path TEXT NOT NULL,
  UNIQUE (root_id, number)
);
CREATE TABLE metric (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE sample (
  metric_id BIGINT NOT NULL,
  run_id BIGINT NOT NULL,
  value DOUBLE PRECISION,
  PRIMARY KEY (metric_id, run_id)
) WITHOUT ROWID;
