/*
 * sysbench.c: Debian's sysbench (cpu, memory, threads, mutex tests):
 *
 *   sysbench <test> --threads=<nr_threads> --time=<runtime>
 *            [--cpu-max-prime=N] [--memory-block-size=S] [--memory-total-size=S]
 *            run
 *
 * lkp has no sysbench parser, so bench-harness adapts sysbench's report
 * to the mytest convention `perfbot run` falls back to (table below):
 * "events per second:  5407.79" becomes "events_per_second: 5407.79",
 * the Latency (ms) section's rows latency_<row>_ms, and so on.  Options:
 * test (required), nr_threads (default every CPU), runtime (default 10 s,
 * sysbench's), cpu_max_prime, memory_block_size, memory_total_size.
 */
#include "runner/runner.h"

static const char *const programs[] = { "sysbench", NULL };
static const char *const tests[] = { "cpu", "memory", "threads", "mutex", NULL };
static const char *const options[] = {
	"test", "nr_threads", "runtime", "cpu_max_prime", "memory_block_size",
	"memory_total_size", NULL
};

static const struct runner_metric metrics[] = {
	{ "events per second: *([0-9.]+)", "events_per_second" },
	{ "Total operations: [0-9]+ \\(([0-9.]+) per second\\)", "operations_per_second" },
	{ "transferred \\(([0-9.]+) MiB/sec\\)", "MiB_per_sec" },
	{ "total time: *([0-9.]+)s", "total_time_sec" },
	{ "total number of events: *([0-9]+)", "events" },
	{ "^ +min: +([0-9.]+)$", "latency_min_ms" },
	{ "^ +avg: +([0-9.]+)$", "latency_avg_ms" },
	{ "^ +max: +([0-9.]+)$", "latency_max_ms" },
	{ "95th percentile: +([0-9.]+)", "latency_95th_percentile_ms" },
	{ NULL, NULL }
};

/* The ones lkp_kpi_direction() has no rule for. */
static const struct runner_kpi kpis[] = {
	{ "sysbench.events", 1 },
	{ NULL, 0 }
};

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test;
	long long nr, prime, block, total;
	double runtime;

	if (runner_opt_choice(rj, "test", NULL, tests, &test, why) < 0 ||
	    runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, &nr, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 10, &runtime, why) < 0 ||
	    runner_opt_int(rj, "cpu_max_prime", 0, &prime, why) < 0 ||
	    runner_opt_bytes(rj, "memory_block_size", 0, &block, why) < 0 ||
	    runner_opt_bytes(rj, "memory_total_size", 0, &total, why) < 0)
		return -1;
	if (!test) {
		strbuf_addstr(why, "sysbench: the job names no 'test' (cpu, memory, threads, mutex)");
		return -1;
	}
	if (nr < 1)
		return runner_bad_opt(rj, "nr_threads", "at least 1 thread", why);
	if (runtime < 1)
		return runner_bad_opt(rj, "runtime", "at least 1 s", why);
	runner_harness(rj, argv);
	argv_list_push(argv, "--adapt=sysbench");
	argv_list_push(argv, "--");
	argv_list_push(argv, "sysbench");
	argv_list_push(argv, test);
	argv_list_pushf(argv, "--threads=%lld", nr);
	argv_list_pushf(argv, "--time=%.0f", runtime);
	if (prime)
		argv_list_pushf(argv, "--cpu-max-prime=%lld", prime);
	if (block)
		argv_list_pushf(argv, "--memory-block-size=%lld", block);
	if (total)
		argv_list_pushf(argv, "--memory-total-size=%lld", total);
	argv_list_push(argv, "run");
	return 0;
}

static int adapt(const char *raw, size_t len, struct strbuf *out, struct strbuf *why)
{
	return runner_adapt_metrics(metrics, raw, len, out, why);
}

const struct runner runner_sysbench = {
	.name = "sysbench",
	.summary = "sysbench cpu, memory, threads and mutex tests",
	.packages = "sysbench",
	.programs = programs,
	.harness = true,
	.options = options,
	.build = build,
	.adapt = adapt,
	.kpis = kpis,
};
