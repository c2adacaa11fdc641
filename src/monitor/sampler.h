#ifndef PERFBOT_SAMPLER_H
#define PERFBOT_SAMPLER_H
/*
 * The sampler: one thread samples every monitor of a run.
 *
 * lkp-tests runs one shell loop per monitor (`cat /proc/vmstat; sleep 1`),
 * a fork and exec of cat, date and sleep per monitor and second.  Here one
 * thread wakes on a timerfd, preads each distinct file once (the files stay
 * open) into one log of raw text, which is written out into the monitors'
 * raw files every 256 KiB.  In the steady state a sample makes no
 * allocation and no fork.
 *
 * Lifecycle, for the caller (`perfbot run`):
 *
 *   s = sampler_start(monitors, 1.0, &run_dir);   // opens files, no sample yet
 *   ... start the benchmark, wait monitor_delay ...
 *   sampler_activate(s);                          // first sample now, then
 *                                                 // one per interval
 *   ... benchmark exits ...
 *   sampler_stop(s);                              // last sample, flush raw
 *                                                 // files, write <name>.json
 *
 * Samples are taken only between activate and stop, as lkp's monitors wait
 * for the benchmark's start.  Each monitor samples at its own pace, as
 * lkp's do: every tick (the run's interval) for most; every 10 s for
 * proc-stat and slabinfo; at the start and the end only for interrupts,
 * softirqs and cpuidle (monitor.h), unless the job names an interval for
 * it.  Every monitor samples at activation and at stop: stop takes one
 * more sample of all of them when at least half an interval has passed
 * since the last tick, else of those that tick did not sample, so that
 * event counters (last - first) cover the benchmark's end.
 *
 * Raw files are lkp's: for each sample "time: <epoch>" then the file's
 * text (see monitor.h); vmstat writes `vmstat --timestamp -n` output.
 */
#include "monitor/monitor.h"
#include "util/fileio.h"

struct sampler;

/*
 * Start sampling monitors (a NULL-terminated list) every interval seconds
 * (<= 0: 1 s) into raw files in dir, a dir held open (util/fileio.h's
 * held_dir: the files are made and renamed through its fd, never by its
 * name), which must stay open until sampler_stop.  Monitors not
 * available here and MONITOR_NOT_SAMPLED ones are skipped silently: ask
 * monitor_available() first to report them.  Returns the sampler (free it
 * with sampler_stop), or NULL after error() (a raw file or timer could not
 * be created).
 */
struct sampler *sampler_start(const struct monitor *const *monitors,
			      double interval, const struct held_dir *dir);

struct sampler_opts {
	double interval;          /* the tick, seconds (<= 0: 1) */
	/* NULL, or one per monitor of the list: seconds between its
	 * samples as the job gives them (`interrupts: {interval: 5}`); 0 for
	 * the monitor's default.  The thread ticks at the smallest of these
	 * and interval; other paces are rounded to whole ticks. */
	const double *intervals;
	const char *root;         /* prefix of /proc and /sys paths (tests);
				     NULL or "" for the live system */
	bool every_tick;          /* sample every monitor at each tick,
				     ignoring their defaults */
	bool reads_only;          /* benchmarks: read the files at the same
				     pace, write nothing (no raw file, no
				     JSON): what the reads alone cost */
};
/* sampler_start with options (o may be NULL). */
struct sampler *sampler_start_opts(const struct monitor *const *monitors,
				   const struct held_dir *dir, const struct sampler_opts *o);
/* Take the first sample now and one per interval from now on.  Calling it
 * again has no effect. */
void sampler_activate(struct sampler *s);
/*
 * Stop the thread, take the last sample (see above), flush and close the
 * raw files, write each sampled monitor's <name>.json, and free s.  Raw
 * files of monitors that never sampled are removed, as lkp removes empty
 * logs.  A source that failed to read (a CPU taken offline) only loses its
 * lines: one warning per monitor tells how many reads failed.  Returns 0,
 * or -1 after error() when a raw file or JSON could not be written (the
 * raw files are then removed) or a raw file could not be parsed.
 */
int sampler_stop(struct sampler *s);

/* Number of samples taken so far by the monitor called name (-1: not in
 * this sampler).  For tests and progress output. */
int sampler_samples(struct sampler *s, const char *name);
/* CPU time the sampling thread has used so far, in seconds (-1 if the
 * system cannot tell): what the monitors cost, start-up excluded. */
double sampler_cpu_seconds(struct sampler *s);
/* Number of distinct files the sampler reads (shared ones count once). */
int sampler_files(struct sampler *s);

/* NULL-terminated list of the registered monitors flagged MONITOR_DEFAULT;
 * the caller frees the array (not the monitors). */
const struct monitor **monitor_default_list(void);

#endif
