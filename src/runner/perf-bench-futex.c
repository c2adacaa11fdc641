/*
 * perf-bench-futex.c: `perf bench futex` from Debian's linux-perf, with
 * lkp's job options (jobs/perf-bench-futex.yaml):
 *
 *   perf bench futex <test> --threads <nr_task> [--shared] [--runtime <s>]
 *                           [--nwakers <n>]
 *
 * test is hash, lock-pi, wake, requeue or wake-parallel; nr_task defaults
 * to every CPU; `shared: shared` (or yes) uses process-shared futexes;
 * runtime (hash and lock-pi only, which run for a time; default perf's
 * 10 s); nwakers (wake-parallel only: the waking threads, perf's default
 * one per CPU).  lkp's parser reads wake-parallel's summary only for
 * fewer than 10 threads (parse/perf-bench-futex.c).
 */
#include "runner/runner.h"

#include <string.h>

static const char *const programs[] = { "perf", NULL };
static const char *const tests[] = { "hash", "lock-pi", "wake", "requeue", "wake-parallel", NULL };
static const char *const options[] = { "test", "nr_task", "shared", "runtime", "nwakers", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test;
	long long nr, nwakers;
	bool shared;
	double runtime;

	if (runner_opt_choice(rj, "test", NULL, tests, &test, why) < 0 ||
	    runner_opt_int(rj, "nr_task", rj->ctx->nr_cpu, &nr, why) < 0 ||
	    runner_opt_bool(rj, "shared", false, &shared, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 0, &runtime, why) < 0 ||
	    runner_opt_int(rj, "nwakers", 0, &nwakers, why) < 0)
		return -1;
	if (!test) {
		strbuf_addstr(why, "perf-bench-futex: the job names no 'test' "
			      "(hash, lock-pi, wake, requeue, wake-parallel)");
		return -1;
	}
	if (nr < 1)
		return runner_bad_opt(rj, "nr_task", "at least 1 thread", why);
	argv_list_push(argv, "perf");
	argv_list_push(argv, "bench");
	argv_list_push(argv, "futex");
	argv_list_push(argv, test);
	argv_list_push(argv, "--threads");
	argv_list_pushf(argv, "%lld", nr);
	if (shared)
		argv_list_push(argv, "--shared");
	/* perf takes whole seconds, and only for the timed tests */
	if (runtime >= 1 && (!strcmp(test, "hash") || !strcmp(test, "lock-pi"))) {
		argv_list_push(argv, "--runtime");
		argv_list_pushf(argv, "%.0f", runtime);
	}
	/* as lkp: only wake-parallel has wakers; 0 leaves perf's default */
	if (nwakers > 0 && !strcmp(test, "wake-parallel")) {
		argv_list_push(argv, "--nwakers");
		argv_list_pushf(argv, "%lld", nwakers);
	}
	return 0;
}

const struct runner runner_perf_bench_futex = {
	.name = "perf-bench-futex",
	.summary = "perf bench futex: hash, lock-pi, wake, requeue, wake-parallel",
	.packages = "linux-perf",
	.programs = programs,
	.options = options,
	.build = build,
};
