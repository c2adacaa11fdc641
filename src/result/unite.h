#ifndef PERFBOT_UNITE_H
#define PERFBOT_UNITE_H
#include <pthread.h>
/*
 * Uniting runs: each run dir's stats.json becomes one column of the
 * matrix.json in the run's parent directory (lkp's _result_root), and
 * avg.json and stddev.json are rewritten from it.
 *
 * As lkp-tests: a metric first seen in a later run is zero-padded in
 * front; metrics whose samples are all integer zeros are dropped; the
 * column's stats_source is "<absolute run dir>/stats.json".  Unlike lkp,
 * re-uniting a run replaces its column in place (lkp deletes it and
 * appends at the end), so uniting twice leaves byte-identical files.
 *
 * Files are written with write_file_atomic, under an flock on
 * "<_result_root>/.unite.lock" so that two concurrent unites of one
 * _result_root cannot lose each other's column.
 */

/* Unite run dirs (any order; runs of several _result_roots may be mixed).
 * Returns 0, or -1 after a message naming the run dir or file. */
int unite_run_dirs(char *const *run_dirs, int n);

/* How unite_run_dirs_opts gets a second thread (avg.json and stddev.json
 * are rendered in it while matrix.json is): pthread_create's signature
 * without attributes, 0 or an error number.  NULL, or a failure, and the
 * three are rendered one after the other: the same files. */
struct unite_opts {
	int (*spawn)(pthread_t *thread, void *(*fn)(void *), void *arg);
};
/* unite_run_dirs with opts (unite_run_dirs: pthread_create). */
int unite_run_dirs_opts(char *const *run_dirs, int n, const struct unite_opts *opts);

#endif
