#ifndef PERFBOT_RUN_H
#define PERFBOT_RUN_H
/*
 * Running one atomic job N times on this machine: the benchmark, the
 * system monitors around it, and the stats of each run, in lkp-tests'
 * result layout.  `perfbot run` and `perfbot bisect` both call run_job().
 *
 * Phases of one run (each logged with -v, shown on the status line):
 *
 *   setup       the run dir is made as "<_result_root>/.run-K.<pid>" and
 *               job.yaml written there
 *   monitors    the sampler opens its files; perf stat starts
 *   benchmark   the benchmark starts in its own process group, in a
 *               cgroup of its own with a high CPU and IO weight
 *               (run/cgroup.h; without one where cgroups cannot be
 *               used, said once, and last_state's `isolation:` says why)
 *   activate    after the job's monitor_delay, monitors start sampling;
 *               perf record starts after perf-profile's delay
 *   wait        until the benchmark exits, or its timeout passes (then it
 *               and its whole process group are killed and the run is
 *               incomplete), or perfbot gets SIGINT/SIGTERM (the same)
 *   stop        what the benchmark left in its cgroup is killed and the
 *               cgroup removed; monitors stop; perf report and perf stat
 *               output parsed; what else the machine did meanwhile
 *               (run/meanwhile.h) goes into stats.json's machine.* and the
 *               machine file
 *   count       `measure: instructions` only: the benchmark runs once
 *               more, unmonitored, under valgrind's cachegrind; the
 *               instructions it executed become <testcase>.instructions
 *               (run_impl.h's run_count_instructions, run/icount.c)
 *   stats       every <monitor>.json and the benchmark's parsed output are
 *               reduced into stats.json, with last_state.*
 *   done        the dir is renamed to "<_result_root>/K" and united
 *               (res->united); indexing the result root into the store
 *               is the caller's (store/ingest.h), so that running a job
 *               does not depend on the store
 *
 * A run is complete or marked: stats.json has last_state.is_incomplete_run
 * = 1 when the benchmark failed to finish (timeout, interrupt, non-zero
 * exit).  A perfbot killed with -9 leaves only a ".run-K.<pid>" dir, which
 * no later stage reads and the next run_job on that result root removes
 * (run/leftovers.h); its children died with it (die_with_parent).
 *
 * run_job reads opts->job once, before anything is made: job_desc_decode
 * (run/desc.h) turns it into the typed description the phases use, and
 * reports the first bad value with its FILE:LINE:COL.
 *
 * The benchmark is, in this order: opts->command (argv after `--`), the
 * job's command (job_command: `mytest: {command: ...}` or the same under
 * the testcase's name, run by /bin/sh), or a benchmark the job
 * names whose runner is registered (runner/runner.h).  Its stdout goes to
 * "<run dir>/<testcase>" and is parsed by the testcase's parser, or by the
 * mytest convention ("name: number" lines become <testcase>.<name>).
 */
#include <signal.h>
#include <stdbool.h>
#include "job/job.h"

struct held_dir;

struct run_backend;
struct perf_caps;
struct job_desc;

struct run_opts {
	const struct job *job;       /* an atomic job (no arrays left) */
	int runs;                    /* <= 0: the job's nr_run, else 1 */
	const char *result_base;     /* NULL: run_default_result_base() */
	const char *commit;          /* NULL: the job's commit, else uname -r */
	const char *monitors;        /* "a,b,c" overrides the job's; "" none */
	char *const *command;        /* argv of the benchmark, or NULL */
	char *const *env;            /* extra "NAME=value" for the benchmark */
	const char *workdir;         /* the benchmark's cwd, or NULL */
	double interval;             /* monitor interval, <= 0: job's or 1 s */
	int verbose;                 /* -v: phase log lines on stderr */
	bool status_line;            /* a live status line on stderr */
	bool progress_lines;         /* no terminal: a line a run on stderr */
	volatile sig_atomic_t *stop; /* set by a signal handler, or NULL */
	const char *label;           /* prefix for the status line, or NULL */
	/* where the runs happen: NULL here, else e.g. a kernel under test
	 * in QEMU (kernel/vm.h), which runs the benchmark and monitors */
	const struct run_backend *backend;
	/* perf's capabilities probed already (a worker probes once for all
	 * its jobs: the probe, a perf stat -a, cost as much as a no-op
	 * job), or NULL: run_job probes */
	const struct perf_caps *perf_caps;
	/* the warnings said already, one a line: a bisect or a watch calls
	 * run_job for each commit, and a job's skipped monitors are the
	 * same each time (said once per invocation); NULL: each call says */
	struct strbuf *said;
	/* isolation (run/cgroup.h): no_cgroup runs the benchmark as before,
	 * in its process group only; cpuset ("0-1") pins it, over the job's
	 * `cpuset:` */
	bool no_cgroup;
	/* in perfbot's own QEMU guest ($PERFBOT_GUEST, set by its /init): the
	 * VM is the job's alone, and the CPU time outside the benchmark is its
	 * kernel threads working for it (kswapd reclaiming its page cache), no
	 * other work: machine.other_cpu_percent is not recorded there */
	bool in_guest;
	const char *cpuset;
};

/* What a backend's run_once gets. */
struct run_info {
	const struct run_opts *opts;
	const struct job *job;       /* opts->job with its result-path keys set */
	const char *result_root;
	int k, n;                    /* run k (1-based) of n */
	const struct job_desc *desc; /* opts->job decoded (run/desc.h) */
};

struct run_backend {
	/*
	 * One run: a dir from run_dir_hold, filled with the run's files
	 * through its fd (job.yaml, monitors, stats.json, last_state,
	 * perfbot.log), then run_dir_publish_held into *final_dir.  0
	 * complete, 1 incomplete (the dir is still published), -1 error
	 * (nothing published).
	 */
	int (*run_once)(void *ctx, const struct run_info *info, char **final_dir);
	void *ctx;
};

/* Make "<result_root>/.run-K.<pid>" for a new run (K the next free run
 * number), held open in hd (util/fileio.h: its files are written
 * through the fd).  0 or -1 after error(). */
int run_dir_hold(const char *result_root, struct held_dir *hd);
/* Rename the finished run dir hd to "<result_root>/K", K the next free
 * number, refusing one whose name no longer leads to it; *final_dir
 * gets the path (xstrdup'd).  0 or -1 after error(). */
int run_dir_publish_held(const char *result_root, struct held_dir *hd, char **final_dir);

struct run_result {
	char *result_root;           /* the _result_root (xstrdup'd) */
	char **run_dirs;             /* the run dirs made, xstrdup'd */
	int nr_runs;
	int nr_incomplete;
	bool interrupted;            /* stopped by *stop */
	bool united;                 /* runs were made and united into the
	                              * result root's matrix.json: what a
	                              * caller may index (store/ingest.h) */
};

/*
 * Run the job opts->runs times and unite the runs into
 * <_result_root>/matrix.json.  Returns 0 when every run completed, 1 when
 * some are marked incomplete (they are still written and united), or -1
 * after error() when nothing could be run (bad job, unwritable result
 * root).  res is filled in every case; free it with run_result_release.
 */
int run_job(const struct run_opts *opts, struct run_result *res);
void run_result_release(struct run_result *res);

/* $PERFBOT_RESULT_ROOT, else $XDG_DATA_HOME/perfbot/result, else
 * ~/.local/share/perfbot/result.  Appends to sb. */
void run_default_result_base(struct strbuf *sb);

#endif
