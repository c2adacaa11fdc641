/*
 * perf-bench-sched-pipe.c: `perf bench sched pipe` from Debian's
 * linux-perf: two tasks pass a token through a pair of pipes.
 *
 *   perf bench sched pipe [--loop <loops>] [--threaded]
 *
 * lkp has no parser for it, so bench-harness adapts perf's summary to the
 * mytest convention `perfbot run` falls back to:
 *
 *   total_time_sec   "Total time: 0.023 [sec]"
 *   usecs_per_op     "2.360500 usecs/op"          (lower is better)
 *   ops_per_sec      "423639 ops/sec"             (higher is better)
 */
#include "runner/runner.h"

#include <string.h>

static const char *const programs[] = { "perf", NULL };
static const char *const modes[] = { "process", "thread", NULL };
static const char *const options[] = { "loops", "mode", NULL };

static const struct runner_metric metrics[] = {
	{ "Total time: *([0-9.]+) \\[sec\\]", "total_time_sec" },
	{ "^ *([0-9.]+) usecs/op", "usecs_per_op" },
	{ "^ *([0-9]+) ops/sec", "ops_per_sec" },
	{ NULL, NULL }
};

static const struct runner_kpi kpis[] = {
	{ "perf-bench-sched-pipe.usecs_per_op", -1 },
	{ NULL, 0 }
};

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	long long loops;
	const char *mode;

	if (runner_opt_int(rj, "loops", 0, &loops, why) < 0 ||
	    runner_opt_choice(rj, "mode", "process", modes, &mode, why) < 0)
		return -1;
	if (runner_opt(rj, "loops") && loops < 1)
		return runner_bad_opt(rj, "loops", "at least 1", why);
	runner_harness(rj, argv);
	argv_list_push(argv, "--adapt=perf-bench-sched-pipe");
	argv_list_push(argv, "--");
	argv_list_push(argv, "perf");
	argv_list_push(argv, "bench");
	argv_list_push(argv, "sched");
	argv_list_push(argv, "pipe");
	if (loops) {
		argv_list_push(argv, "--loop");
		argv_list_pushf(argv, "%lld", loops);
	}
	if (!strcmp(mode, "thread"))
		argv_list_push(argv, "--threaded");
	return 0;
}

static int adapt(const char *raw, size_t len, struct strbuf *out, struct strbuf *why)
{
	return runner_adapt_metrics(metrics, raw, len, out, why);
}

const struct runner runner_perf_bench_sched_pipe = {
	.name = "perf-bench-sched-pipe",
	.summary = "perf bench sched pipe: pipe ping-pong between two tasks",
	.packages = "linux-perf",
	.programs = programs,
	.harness = true,
	.options = options,
	.build = build,
	.adapt = adapt,
	.kpis = kpis,
};
