/*
 * perf-bench-mem.c: `perf bench mem memcpy|memset` from Debian's
 * linux-perf, as lkp's programs/perf-bench-mem/run runs it:
 *
 *   perf bench mem <op> [--function <f>] [--size <size>] [--nr_loops <n>]
 *
 * op is required; function (default: perf's, which runs all), size ("1MB";
 * perf's units B, KB, MB, GB) and nr_loops are passed as written.  lkp's
 * `chunk` is not offered: Debian's perf (6.1) has no --chunk.
 */
#include "runner/runner.h"

static const char *const programs[] = { "perf", NULL };
static const char *const ops[] = { "memcpy", "memset", NULL };
static const char *const options[] = { "op", "function", "size", "nr_loops", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *op, *function = runner_opt(rj, "function"), *size = runner_opt(rj, "size");
	long long loops;

	if (runner_opt_choice(rj, "op", NULL, ops, &op, why) < 0 ||
	    runner_opt_int(rj, "nr_loops", 0, &loops, why) < 0)
		return -1;
	if (!op) {
		strbuf_addstr(why, "perf-bench-mem: the job names no 'op' (memcpy or memset)");
		return -1;
	}
	if (runner_opt(rj, "nr_loops") && loops < 1)
		return runner_bad_opt(rj, "nr_loops", "at least 1", why);
	argv_list_push(argv, "perf");
	argv_list_push(argv, "bench");
	argv_list_push(argv, "mem");
	argv_list_push(argv, op);
	if (function) {
		argv_list_push(argv, "--function");
		argv_list_push(argv, function);
	}
	if (size) {
		argv_list_push(argv, "--size");
		argv_list_push(argv, size);
	}
	if (loops) {
		argv_list_push(argv, "--nr_loops");
		argv_list_pushf(argv, "%lld", loops);
	}
	return 0;
}

const struct runner runner_perf_bench_mem = {
	.name = "perf-bench-mem",
	.summary = "perf bench mem: memcpy/memset bandwidth per implementation",
	.packages = "linux-perf",
	.programs = programs,
	.options = options,
	.build = build,
};
