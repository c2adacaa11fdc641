#ifndef PERFBOT_DETECT_SERIES_H
#define PERFBOT_DETECT_SERIES_H
/*
 * A metric along a branch: one point per tested commit, oldest first (git
 * order, not time), as `perfbot history` gives it and change-point
 * detection reads it.
 *
 * The JSON form (`perfbot history --json`, `perfbot detect --input`):
 *
 *   {
 *     "metric": "mytest.throughput",
 *     "branch": "main",
 *     "points": [
 *       { "commit": "<sha>", "subject": "...", "tags": ["v1.0"],
 *         "mean": 1002.3, "stddev": 3.1, "runs": 3,
 *         "samples": [999.1, 1001.7, 1006.1] },
 *       ...
 *     ]
 *   }
 *
 * "commit" and either "samples" or "mean" are required; "runs" may be
 * spelled "n".  With samples, mean, stddev and runs are computed from them
 * (stddev: sample, n - 1) and the ones given are ignored; without, stddev
 * is taken as given (0 or absent: unknown) with runs (default 1).  Other
 * members are skipped, so that newer writers stay readable.  A bare array
 * of points is accepted too.
 */
#include <stddef.h>
#include "stats/changepoint.h"

struct series_point {
	char *commit;           /* full sha as given */
	char *subject;          /* NULL when not given */
	char **tags;            /* nr_tags names */
	int nr_tags;
	double *samples;        /* NULL when not given */
	int nr_samples;
	struct cp_point cp;     /* mean, stddev (n - 1), runs */
};

struct series {
	char *metric;           /* NULL when not given */
	char *branch;           /* NULL when not given */
	struct series_point *pt;
	int nr;
	size_t alloc;
};

void series_init(struct series *s);
void series_release(struct series *s);

/* Append a point with commit and no tags or samples; returns it (valid
 * until the next append).  commit is copied. */
struct series_point *series_add(struct series *s, const char *commit);
void series_point_add_tag(struct series_point *p, const char *tag);
/* Set p's samples (copied) and compute cp from them. */
void series_point_set_samples(struct series_point *p, const double *v, int n);

/*
 * Read the JSON form from text (len bytes); name (a path) is used in
 * messages.  0, or -1 after one error line "name:line:col: what, expected
 * ..." (s is then released).
 */
int series_parse_json(struct series *s, const char *text, size_t len, const char *name);
/* Read the JSON form from a file ("-": standard input). */
int series_load_json(struct series *s, const char *path);

struct history;
/* The series of a history loaded from the store (store/history.h):
 * metric, branch, and per tested commit its sha, subject, tags and
 * samples.  s is initialized first. */
void series_from_history(struct series *s, const struct history *h);

#endif
