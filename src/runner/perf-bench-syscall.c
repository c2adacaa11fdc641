/*
 * perf-bench-syscall.c: `perf bench syscall` from Debian's linux-perf, as
 * lkp's programs/perf-bench-syscall/run runs it:
 *
 *   perf bench syscall <op> [--loop <loop>]
 *
 * op is required: basic (getppid) and all exist in every perf; getpgid,
 * fork and execve in newer ones (Debian 12's perf 6.1 has basic and all).
 */
#include "runner/runner.h"

static const char *const programs[] = { "perf", NULL };
static const char *const ops[] = { "basic", "getpgid", "fork", "execve", "all", NULL };
static const char *const options[] = { "op", "loop", NULL };

/* lkp_kpi_direction() knows ops_per_sec and total_time_sec, not these. */
static const struct runner_kpi kpis[] = {
	{ "perf-bench-syscall.getppid.usecs_per_op", -1 },
	{ "perf-bench-syscall.getpgid.usecs_per_op", -1 },
	{ "perf-bench-syscall.fork.usecs_per_op", -1 },
	{ "perf-bench-syscall.execve.usecs_per_op", -1 },
	{ NULL, 0 }
};

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *op;
	long long loop;

	if (runner_opt_choice(rj, "op", NULL, ops, &op, why) < 0 ||
	    runner_opt_int(rj, "loop", 0, &loop, why) < 0)
		return -1;
	if (!op) {
		strbuf_addstr(why, "perf-bench-syscall: the job names no 'op' (basic, all, ...)");
		return -1;
	}
	if (runner_opt(rj, "loop") && loop < 1)
		return runner_bad_opt(rj, "loop", "at least 1", why);
	argv_list_push(argv, "perf");
	argv_list_push(argv, "bench");
	argv_list_push(argv, "syscall");
	argv_list_push(argv, op);
	if (loop) {
		argv_list_push(argv, "--loop");
		argv_list_pushf(argv, "%lld", loop);
	}
	return 0;
}

const struct runner runner_perf_bench_syscall = {
	.name = "perf-bench-syscall",
	.summary = "perf bench syscall: cost of basic system calls",
	.packages = "linux-perf",
	.programs = programs,
	.options = options,
	.build = build,
	.kpis = kpis,
};
