#ifndef PERFBOT_REDUCE_H
#define PERFBOT_REDUCE_H
/*
 * Reducing a run's time series to one number per metric: lkp-tests'
 * create_stats_matrix (lib/matrix.rb).
 *
 * Each <name>.json of a run dir maps metrics to their samples; a metric's
 * value in stats.json is
 *   - the sample itself when there is one,
 *   - the sum of the samples for an independent counter (time.user_time:
 *     each sample counts something separate),
 *   - last - first for an event counter (proc-vmstat.pgfree: a counter
 *     that only grows),
 *   - the mean otherwise (a gauge: meminfo.Memused, vmstat.system.cs),
 * and metrics lkp lists as latencies also get "<metric>.max", the largest
 * sample (time.elapsed_time.max).  Which metric is which is one declared
 * table in reduce.c, with where each entry comes from.
 */
#include <stdbool.h>
#include "result/matrix.h"

struct held_dir;  /* util/fileio.h */

enum reduce_kind {
	REDUCE_GAUGE,        /* mean of the samples */
	REDUCE_EVENT,        /* last - first */
	REDUCE_INDEPENDENT,  /* sum */
};

/* One reduced number; is_int as Ruby would type it (an integer stays an
 * integer through sums and differences, a mean is a float). */
struct reduced {
	double v;
	bool is_int;
};

/* How metric `name` is reduced (an independent counter wins over an event
 * counter, as in lkp). */
enum reduce_kind reduce_kind(const char *name);
/* Does lkp add "<name>.max"? */
bool reduce_add_max(const char *name);
/* Is name exempt from the stats_part_begin/end window (perf-stat's
 * per-run totals)? */
bool reduce_ignore_part(const char *name);

/*
 * Reduce the n > 0 samples v (is_int[i]: sample i was an integer in JSON;
 * NULL means all were) of metric name.  Sums are Ruby's Array#sum:
 * integers exactly, floats with Kahan-Babuska compensation.
 */
struct reduced reduce_series(const char *name, const double *v, const bool *is_int, int n);
/* The same, but a gauge's mean divides by len, not n: lkp divides by the
 * run's longest series, also for a metric with fewer samples. */
struct reduced reduce_series_len(const char *name, const double *v, const bool *is_int,
				 int n, int len);
/* The largest sample, keeping its type. */
struct reduced reduce_max(const double *v, const bool *is_int, int n);

/*
 * Reduce every <name>.json and <name>.json.gz of dir, a dir held open
 * (util/fileio.h: a run's, read through its fd, never by its name, which
 * another user may have pointed elsewhere mid-run), but stats, matrix,
 * avg and stddev, in name order, into stats, a one-column matrix (see
 * result/matrix.h; it is initialised by the caller and may already hold
 * metrics).  Files written by perfbot's sampler and lkp's own are both
 * read; a JSON object with no array in it (job.json) is not a time series
 * and is skipped.  "<name>.time" is used only for the window.  Returns 0,
 * or -1 after error() naming the file (unreadable, invalid JSON).  A
 * metric with a non-number sample is skipped with a warning.
 */
int monitors_to_stats(const struct held_dir *dir, struct matrix *stats);
/*
 * The same, keeping only the samples from begin to end seconds after each
 * series' first "<name>.time" (the job's stats_part_begin and
 * stats_part_end; 0 means from the start, to the end).
 */
int monitors_to_stats_part(const struct held_dir *dir, double begin, double end,
			   struct matrix *stats);

#endif
