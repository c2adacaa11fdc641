#ifndef PERFBOT_MONITOR_PERF_H
#define PERFBOT_MONITOR_PERF_H
/*
 * The perf-stat and perf-profile monitors.  Unlike the sampled monitors
 * (monitor.h), they run Linux's perf as a child process:
 *
 *   perf-stat     perf stat -a --scale -I <ms> -x , -e <events> --log-fd 1
 *                 for the whole run, stopped with SIGINT; the raw file is
 *                 the command line then perf's lines, as lkp's monitor
 *                 writes it, and the perf-stat parser turns it into stats
 *   perf-profile  perf record -a -g -e <event> for `duration` seconds after
 *                 `delay`, then perf report --header --children with
 *                 folded callee chains (what lkp's parser reads) into the
 *                 raw file "perf-profile", plus a human-readable call
 *                 graph "perf-profile.txt" (as quoted in reports)
 *
 * Events are probed once: hardware counters may be "<not supported>" (as
 * in VMs), so perf-stat keeps the software events that count, and
 * perf-profile uses cycles:pp when it works, else cpu-clock.  What was
 * dropped is said in the run's log and last_state.
 */
#include <stdbool.h>
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/strbuf.h"

struct perf_caps {
	bool usable;                 /* perf runs and can count system-wide */
	struct strbuf why;           /* when not usable: the reason */
	struct strbuf stat_events;   /* comma list of supported events */
	struct strbuf unsupported;   /* comma list of events dropped */
	const char *record_event;    /* "cycles:pp" or "cpu-clock" */
};

/* Probe perf once.  Always fills caps (perf_caps_release frees it). */
void perf_probe(struct perf_caps *caps);
void perf_caps_release(struct perf_caps *caps);
/* dst (uninitialized) becomes a copy of src: what a worker probed once,
 * for each job's run (perf_caps_release frees it). */
void perf_caps_copy(struct perf_caps *dst, const struct perf_caps *src);

struct perf_proc {
	struct child_process cp;
	bool running;
	char *raw_path;              /* perf stat: where its lines go */
	char *data_path;             /* perf record: perf.data, as perf is
					given it (held_dir_proc_path) */
	double started;
};

/*
 * Whether the perf that perfbot started (pid: perf, or the guard process
 * of run_command's die_with_parent above it) has started its workload,
 * the sleep: perf does so once its events are open and its output begun.
 * From /proc/<pid>/task/<pid>/children; false when that cannot be read.
 */
bool perf_workload_started(pid_t perf);

/*
 * dir is the run's dir, held open (util/fileio.h): every file below is
 * made in it through its fd, or given to perf as /proc/self/fd/<fd>/...
 * (held_dir_proc_path; perf inherits the fd), never by the dir's name; it must stay open from
 * start to finish.
 */
/* Start perf stat writing "<dir>/perf-stat".  0 or -1 with a message. */
int perf_stat_start(struct perf_proc *p, const struct perf_caps *caps,
		    const struct held_dir *dir, double interval);
/* Stop it (SIGINT, so that perf prints its last lines), then parse the raw
 * file into "<dir>/perf-stat.json".  0 or -1 with a message. */
int perf_stat_finish(struct perf_proc *p, const struct held_dir *dir);

/* Start perf record for duration seconds (<= 0: until stopped) into
 * "<dir>/perf.data".  0 or -1 with a message. */
int perf_record_start(struct perf_proc *p, const struct perf_caps *caps,
		      const struct held_dir *dir, double duration);
/*
 * Wait until the perf p (record, or stat) is counting: its workload started (see
 * perf_workload_started), at most max_seconds.  1 ready; 0 not yet; -1
 * perf ended (reaped: p->cp.pid is then 0).  A run that profiles from its
 * start waits here before starting the benchmark, which would otherwise
 * take the CPUs perf needs to open its events (in a 1-CPU guest running
 * aim7's 100 tasks, perf's first sample came after the benchmark ended).
 */
int perf_record_wait_ready(struct perf_proc *p, double max_seconds);
/* Stop recording if still running, run perf report into "<dir>/perf-profile"
 * and "<dir>/perf-profile.txt", parse into "<dir>/perf-profile.json", and
 * delete perf.data (large; the reports keep what lkp keeps).  0 or -1. */
int perf_record_finish(struct perf_proc *p, const struct held_dir *dir);

#endif
