-- the regressions perfbot watch handled
--
-- Each regression's range once handled, so that it is reported once
-- (store_reported.c).  culprit is the first bad commit, or "" when the
-- bisect could not name one; report the text report's path ("" when none
-- was written).
CREATE TABLE reported (
  id INTEGER PRIMARY KEY,
  job_id BIGINT NOT NULL REFERENCES job (id),
  metric TEXT NOT NULL,
  culprit TEXT NOT NULL,
  good TEXT NOT NULL,
  bad TEXT NOT NULL,
  report TEXT NOT NULL,
  reported_at BIGINT NOT NULL,
  UNIQUE (job_id, metric, good, bad)
);
CREATE INDEX reported_culprit ON reported (job_id, metric, culprit);
