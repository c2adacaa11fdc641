/*
 * will-it-scale.c: the runner of perfbot's own will-it-scale
 * (workloads/will-it-scale/), which prints runtest.py's CSV for lkp's
 * will-it-scale parser.
 *
 *   will-it-scale: {test: page_fault1, mode: process}
 *
 * Options as lkp's programs/will-it-scale/run: test (required), mode
 * (process, thread or both; default both), runtime (default 300 s), nr_task
 * (one task count; default lkp's iteration over 1, 25%, 50%, 75% and 100%
 * of the CPUs), no_affinity.  lkp splits the runtime over the measurements
 * with a fixed 5 s warm-up each; here each measurement gets an equal share
 * of the runtime, a fifth of it (at most 5 s) as warm-up, so that a short
 * job stays short.
 */
#include "runner/runner.h"

#include <string.h>

/* workloads/will-it-scale's tests (`will-it-scale --list`): every test lkp's jobs name */
static const char *const tests[] = {
	"brk1", "brk2", "context_switch1", "dup1", "eventfd1", "fallocate1", "fallocate2",
	"futex1", "futex2", "futex3", "futex4", "getppid1", "lock1", "lock2", "lseek1", "lseek2",
	"malloc1", "malloc2", "mmap1", "mmap2", "open1", "open2", "open3", "page_fault1",
	"page_fault2", "page_fault3", "pipe1", "poll1", "poll2", "posix_semaphore1", "pread1",
	"pread2", "pread3", "pthread_mutex1", "pthread_mutex2", "pthread_mutex3",
	"pthread_mutex4", "pthread_mutex5", "pwrite1", "pwrite2", "pwrite3", "read1", "read2",
	"read3", "read4", "readseek1", "readseek2", "readseek3", "sched_yield", "signal1",
	"tlb_flush1", "tlb_flush2", "tlb_flush3", "unix1", "unlink1", "unlink2", "write1",
	"writeseek1", "writeseek2", "writeseek3", NULL
};
static const char *const modes[] = { "process", "thread", "both", NULL };
static const char *const options[] = { "test", "mode", "runtime", "nr_task", "no_affinity", NULL };

/* lkp's task counts: 1 and quarters of the CPUs, without repeats. */
static void task_counts(long nr_cpu, struct strbuf *list, int *n)
{
	long last = 0;

	*n = 0;
	for (int q = 0; q <= 4; q++) {
		long t = q ? nr_cpu * q / 4 : 1;
		if (t <= last)
			continue;
		strbuf_addf(list, "%s%ld", *n ? "," : "", t);
		last = t;
		(*n)++;
	}
}

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test, *mode;
	long long nr_task;
	double runtime;
	bool no_affinity;
	struct strbuf list = STRBUF_INIT;
	int n;

	if (runner_opt_choice(rj, "test", NULL, tests, &test, why) < 0 ||
	    runner_opt_choice(rj, "mode", "both", modes, &mode, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 300, &runtime, why) < 0 ||
	    runner_opt_int(rj, "nr_task", 0, &nr_task, why) < 0 ||
	    runner_opt_bool(rj, "no_affinity", false, &no_affinity, why) < 0)
		return -1;
	if (!test) {
		strbuf_addstr(why, "will-it-scale: the job names no 'test' (e.g. page_fault1)");
		return -1;
	}
	if (runner_opt(rj, "nr_task")) {
		if (nr_task < 1)
			return runner_bad_opt(rj, "nr_task", "at least 1 task", why);
		strbuf_addf(&list, "%lld", nr_task);
		n = 1;
	} else {
		task_counts(rj->ctx->nr_cpu, &list, &n);
	}
	double share = runtime / n / (strcmp(mode, "both") ? 1 : 2);
	double warmup = share / 5 > 5 ? 5 : share / 5;

	argv_list_pushf(argv, "%s/will-it-scale", rj->ctx->bin_dir);
	argv_list_pushf(argv, "--duration=%g", share - warmup);
	argv_list_pushf(argv, "--warmup=%g", warmup);
	argv_list_pushf(argv, "--mode=%s", mode);
	argv_list_pushf(argv, "--tasks=%s", list.buf);
	if (no_affinity)
		argv_list_push(argv, "--no-affinity");
	argv_list_push(argv, test);
	strbuf_release(&list);
	return 0;
}

const struct runner runner_will_it_scale = {
	.name = "will-it-scale",
	.summary = "per-task ops of 60 system-call, memory and IPC tests over 1..N tasks (built in)",
	.builtin = "will-it-scale",
	.options = options,
	.build = build,
};
