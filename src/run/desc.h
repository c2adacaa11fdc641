#ifndef PERFBOT_RUN_DESC_H
#define PERFBOT_RUN_DESC_H
/*
 * desc.h: an atomic job decoded once, into the typed description the run
 * stages read.
 *
 * A job (job/job.h) is a bag of YAML values; every stage of a run used to
 * query it by key.  job_desc_decode() reads every key the run stages need,
 * once, at the boundary (as git's setup_revisions() fills a rev_info),
 * and reports the first bad value as "FILE:LINE:COL: 'key' expected ...".
 * After it, run.c, setup*.c, monitors.c and run_files.c read fields of
 * struct job_desc, never the job; the job itself is only copied into the
 * run's job.yaml (and handed to a run backend, which runs it elsewhere).
 *
 * Usage:
 *
 *     struct job_desc d = JOB_DESC_INIT;
 *     if (job_desc_decode(job, opts, &d) < 0)
 *             ... the message is out ...
 *     use(d.testcase, d.runtime, d.monitors[i], d.intervals[i], ...);
 *     job_desc_release(&d);
 *
 * Which keys, their defaults and their errors (in decoding order; a
 * duration is "300", "300s", "5m", "1h", "2d", see parse_duration):
 *
 *   testcase      `testcase`, else the name of the benchmark the job names
 *                 (runner_for_job), else "mytest" when there is a command
 *                 (after --, or `mytest:`); none: "FILE: the job has no
 *                 'testcase'"
 *   nr_run        `nr_run`, an integer; 1 when absent or below 1
 *   runtime       `runtime`, a duration; -1 when absent
 *   timeout       `timeout`, a duration; absent or 0: runtime * 2 + 60
 *                 when there is a runtime, else 0 (never)
 *   monitor_delay `monitor_delay`, a duration; 0
 *   interval      opts->interval when > 0, else `interval`, a duration
 *                 above 0; 1
 *   result_path   the result root below its base, as job_result_root
 *                 gives it: testcase/params/tbox_group/rootfs/kconfig/
 *                 compiler/commit (opts->commit overrides the commit)
 *   name          what names a mytest job (job_mytest_name), or empty
 *   setup         the fs:, disk:, cpufreq_governor:, eatmem: plan (run_setup_plan);
 *                 setup_cannot set with setup_why when perfbot cannot set
 *                 up what the job asks for (fs: nfsv4, fs2:), which the
 *                 run reports as "cannot work here"
 *   monitors      opts->monitors ("a,b", unknown names an error), else the
 *                 job's monitor keys, else for `category: benchmark` lkp's
 *                 default set; perf-stat and perf-profile are the flags
 *                 perf_stat and perf_profile.  Each monitor's interval is
 *                 `<name>: {interval: D}`, 0 when absent.  missing lists
 *                 the lkp monitors asked for that perfbot lacks ("a, b")
 *   perf_profile_delay, perf_profile_duration
 *                 `perf-profile: {delay: D, duration: D}`; 0
 *   cpuset        opts->cpuset, else `cpuset` ("0-1": digits, ',' and
 *                 '-'); NULL when neither
 *   measure_instructions
 *                 `measure: instructions` (`measure: time`, the default,
 *                 is the wall clock alone): each run also counts the
 *                 benchmark's instructions under valgrind's cachegrind
 *                 (run/run_impl.h's run_count_instructions).  Other
 *                 values are an error, and so are a backend (a kernel
 *                 under test counts with --accel icount) and no valgrind
 *                 in $PATH
 *   command       the benchmark: opts->command (argv), else
 *                 `mytest: {command: ...}` (shell), else the argv the
 *                 runner builds from the job's options (runner/runner.h;
 *                 its errors are the runner's); none: "FILE: the job
 *                 names no benchmark ...".  Not decoded with a backend
 *                 (it runs the job elsewhere, where the benchmark is).
 */
#include <stdbool.h>
#include <stddef.h>
#include "runner/runner.h"
#include "job/job.h"
#include "run/run.h"
#include "run/setup.h"
#include "util/strbuf.h"

struct monitor;

/*
 * The job's plain keys, as its text gives them: what is read of a job
 * that does not run here, or not yet (a watch's state name, a lab job's
 * box, the VM's size, a report's title), and what job_desc_decode starts
 * from.  job_desc_keys() reads them all; it checks nothing and never
 * fails (a bad value is the run's error, job_desc_decode's).  The strings
 * are borrowed from the job, NULL when the key is absent or no scalar; a
 * key set on the job afterwards is not seen.
 */
struct job_desc_keys {
	const char *testcase;           /* `testcase` */
	const char *suite;              /* lkp's name of it in a result's job.yaml */
	/* where: the result path's keys (job.h) and lkp's host keys */
	const char *tbox_group, *rootfs, *kconfig, *compiler, *arch;
	const char *category;           /* "benchmark": lkp's default monitors */
	/* a kernel under test: its image (`kernel:`), its command line, and
	 * the VM's memory ("4G", kernel_vm_mem_mb) */
	const char *kernel, *kernel_cmdline, *memory;
	/* `nr_run` when it is an integer, else 0: job_desc's nr_run is what
	 * a run checks (an error for "x") and uses */
	long long nr_run;
};

/* Fill k from job's top-level keys (see struct job_desc_keys). */
void job_desc_keys(const struct job *job, struct job_desc_keys *k);

struct job_desc {
	const struct job *job;          /* decoded from (borrowed) */
	const char *where;              /* job->path, or "<job>" */
	struct job_desc_keys keys;      /* the job's plain keys */

	/* what runs */
	const char *testcase;           /* borrowed from the job or a table */
	const struct runner *runner;    /* the benchmark the job names, or NULL */
	char *const *command;           /* opts->command, or NULL */
	const char *shell_command;      /* mytest's command, or NULL */
	struct argv_list bench_argv;    /* the runner's argv, when it runs */
	int nr_run;                     /* >= 1 */

	/* times, in seconds */
	double runtime;                 /* -1: none */
	double timeout;                 /* 0: never */
	double monitor_delay;
	double interval;                /* > 0 */

	/* monitors: what the run samples, in order, in the shape the
	 * sampler takes (monitor/sampler.h); the run drops those that cannot
	 * work on its machine (run_check_monitors) */
	const struct monitor **monitors;    /* NULL-terminated, also when empty */
	double *intervals;                  /* per monitor: its own, 0: the run's */
	size_t nr_monitors, alloc_monitors;
	bool perf_stat, perf_profile;
	double perf_profile_delay, perf_profile_duration;
	struct strbuf missing;          /* "a, b": lkp's, not in perfbot */

	/* fs/disk/governor */
	struct run_setup_plan setup;
	bool setup_cannot;
	struct strbuf setup_why;

	/* result path */
	struct strbuf result_path;      /* below the result base */
	struct strbuf name;             /* a mytest job's name, or empty */
	const char *cpuset;             /* CPUs to pin the benchmark to, or NULL */
	bool measure_instructions;      /* `measure: instructions` */
};

#define JOB_DESC_INIT { .bench_argv = ARGV_LIST_INIT, .missing = STRBUF_INIT, \
			.setup_why = STRBUF_INIT, .result_path = STRBUF_INIT, \
			.name = STRBUF_INIT }

/*
 * Decode the atomic job for a run with opts (NULL: no command, no
 * overrides).  0, or -1 after printing the first error as error() does
 * (for fs:/disk:/cpufreq_governor: every bad one, as run_setup_plan
 * does).  d must be JOB_DESC_INIT or released; release it in both cases.
 */
int job_desc_decode(const struct job *job, const struct run_opts *opts,
		    struct job_desc *d);
void job_desc_release(struct job_desc *d);

#endif
