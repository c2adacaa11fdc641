#ifndef PERFBOT_RUN_IMPL_H
#define PERFBOT_RUN_IMPL_H
/*
 * Private to src/run/run*.c and monitors.c: the state of one run_job
 * call.  run.c runs, monitors.c checks the monitors, run_files.c writes
 * what a run leaves.
 */
#include <stdbool.h>
#include "run/desc.h"
#include "run/meanwhile.h"
#include "monitor/perf.h"
#include "run/run.h"
#include "util/strbuf.h"

struct run_ctx {
	const struct run_opts *opts;
	const struct job_desc *desc;  /* the job, decoded (desc.h) */
	const char *result_root;
	const struct held_dir *dir; /* the run's dir, while run_once fills it */
	struct strbuf skipped_monitors;  /* "name: reason\n": what
					   run_check_monitors dropped */
	struct perf_caps caps;
	double last_duration;    /* of the previous run, for the ETA */
	struct job *saved_job;   /* the job plus its result-path keys */
	const char *work_base;   /* where disks and mounts are made (setup.h) */
	const char *cpu_sysfs;   /* the cpufreq tree of cpufreq_governor: */
	const char *monitor_root; /* prefix of the /proc and /sys paths that the
				     monitors and the machine file read:
				     $PERFBOT_MONITOR_ROOT (tests), or "" */
	int k, n;                /* run k (1-based) of n */
	struct strbuf log;       /* this run's log, written to perfbot.log */
	/* the run's isolation (run/cgroup.h): "cgroup perfbot/<pid>-<n> (...)"
	 * or "none: <why>", for last_state and the machine file */
	struct strbuf isolation;
	int warned_isolation;    /* said why there is none, this run_job */
	struct meanwhile mw;     /* what else the machine did (meanwhile.h) */
	bool has_mw;
	/* `measure: instructions`: this run's count under cachegrind, which
	 * run_parse_benchmark adds as <testcase>.instructions */
	unsigned long long instructions;
	bool has_instructions;
};


struct outcome {
	bool incomplete, timeout, interrupted, failed_exit;
	int exit_status;
	const char *why;
};

/* A phase of the run: logged, and shown with -v. */
__attribute__((format(printf, 2, 3)))
void run_phase(struct run_ctx *rc, const char *fmt, ...);
/* monitors.c */
/* Drop from d's monitors (and perf flags) what cannot work here (root:
 * the prefix of /proc and /sys), each with a "name: reason\n" line
 * appended to skipped. */
void run_check_monitors(struct job_desc *d, const struct perf_caps *caps, const char *root,
			struct strbuf *skipped);

/* icount.c */
/*
 * `measure: instructions`: run the benchmark again, as run_once did (env,
 * PERFBOT_RUN_DIR padded with '/' to a length fixed by the result root,
 * since the count follows the environment's size; cwd), under valgrind's
 * cachegrind with --trace-children, its files kept in a new dir
 * "cachegrind/" of rc->dir, made through its fd (cachegrind.out.<pid>,
 * valgrind.log.<pid>, the benchmark's stdout and stderr), and set
 * rc->instructions to the sum of their Ir.  0 counted; 1 when the count
 * failed (valgrind or the benchmark under it failed, timed out, was
 * interrupted, or left no summary), said with error() and in the run's
 * log.
 */
int run_count_instructions(struct run_ctx *rc, char *const *env, const char *cwd);

/* run_files.c: each reads and writes in rc->dir through its fd
 * (util/fileio.h's held_dir) */
int run_parse_benchmark(struct run_ctx *rc);
void run_report_failed_exit(const struct run_ctx *rc, int status);
/* the machine, then the run's isolation and meanwhile lines */
int run_write_machine(const char *root, const struct run_ctx *rc);
int run_write_last_state(struct run_ctx *rc, const struct outcome *o);
int run_write_stats(struct run_ctx *rc, const struct outcome *o);

#endif
