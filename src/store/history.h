#ifndef PERFBOT_STORE_HISTORY_H
#define PERFBOT_STORE_HISTORY_H
/*
 * history: one metric along a branch, from the store, as `perfbot
 * history`, `perfbot detect` and `perfbot watch` read it.
 *
 * The series follows the branch's first-parent history in git order
 * (oldest first), not time: commits merged in from other branches, and
 * bisect steps inside them, are not on that line and not in the series.
 * There is one point per tested commit: a commit on the line with at
 * least one complete run of the job in the store.  Runs marked
 * incomplete are left out, as compare leaves them out.  A stored result
 * names its commit by the <commit> component of its result root, which is
 * matched against the line as a full sha, an abbreviated one (7 hex
 * digits or more, unique on the line), or a tag or branch name.
 *
 * One job: the filter (query.job, query.params) must leave exactly one
 * job identity among those holding the metric, or history_load() says
 * which ones there are.  Everything else is pure data: build the series
 * once, hand it to detect or a renderer.
 *
 * Ownership: history_load() fills *out, which is yours; history_release()
 * frees everything in it.  Return contract: 0, or -1 after one
 * "perfbot: ..." line (a missing branch, no such metric, no tested commit,
 * an ambiguous job, a store or git failure); *out is then empty.
 */
#include <stdbool.h>
#include "store/store.h"

struct history_query {
	const char *repo;            /* the git repository (work tree or git dir) */
	const char *branch;          /* NULL: HEAD */
	const char *metric;          /* exact name */
	/* a job file (its atomic jobs' testcase/path_params), or
	 * "testcase[/path_params]"; NULL: any */
	const char *job;
	const char *const *params;   /* "K=V": a job field or parameter */
	int nr_params;
	int limit;                   /* > 0: only the newest limit commits */
};

struct history_point {
	char *sha;                   /* the commit's full name */
	char *subject;
	char **tags;                 /* tags pointing at it, by name */
	int nr_tags;
	int pos;                     /* its index on the line, 0 the oldest */
	double mean;                 /* of the complete runs' samples */
	double stddev;               /* sample stddev (n - 1); 0 when n < 2 */
	int n;                       /* complete runs */
	double *samples;             /* n values, by result root then run number */
};

struct history_tag {
	char *name;
	char *sha;
	int pos;                     /* on the line */
};

struct history {
	char *repo;                  /* as given */
	char *branch;                /* as given, or "HEAD" */
	char *head;                  /* the sha the branch resolved to */
	char *metric;
	struct store_job_info job;   /* the job the series belongs to */
	int nr_commits;              /* commits on the line (after limit) */
	struct history_point *points;  /* tested commits, in line order */
	int nr;
	struct history_tag *tags;    /* tags on the line, by pos then name */
	int nr_tags;
	int incomplete_runs;         /* runs left out, on line commits */
	int off_line_roots;          /* stored roots of the job whose commit is
	                              * not among the line's (merged in, or
	                              * older than the limit) */
};

int history_load(struct store *s, const struct history_query *q, struct history *out);
void history_release(struct history *h);

#endif
