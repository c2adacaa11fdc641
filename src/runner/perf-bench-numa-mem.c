/*
 * perf-bench-numa-mem.c: `perf bench numa mem` from Debian's linux-perf:
 * processes and threads working on shared and private memory, with the
 * "main, <value>, <unit>, <metric>" lines lkp's parser reads.
 *
 *   perf bench numa mem -p <nr_process> -t <nr_threads> -P <process_mem_mb>
 *                       -s <runtime>
 *
 * Defaults: one process, a thread per CPU, 300 MB per process (lkp's
 * fixture), perf's 5 s when runtime is absent.  On a one-node machine perf
 * still runs it; the convergence metrics are then trivial.
 */
#include "runner/runner.h"

static const char *const programs[] = { "perf", NULL };
static const char *const options[] = { "nr_process", "nr_threads", "process_mem_mb", "runtime", NULL };

/* lkp_kpi_direction() knows the GB/s and convergence latency, not these
 * (times per thread and per byte: lower is better). */
static const struct runner_kpi kpis[] = {
	{ "perf-bench-numa-mem.secs_slowest", -1 },
	{ "perf-bench-numa-mem.secs_fastest", -1 },
	{ "perf-bench-numa-mem.secs_avg", -1 },
	{ "perf-bench-numa-mem.nsecs_byte_thread", -1 },
	{ NULL, 0 }
};

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	long long procs, threads, mb;
	double runtime;

	if (runner_opt_int(rj, "nr_process", 1, &procs, why) < 0 ||
	    runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, &threads, why) < 0 ||
	    runner_opt_int(rj, "process_mem_mb", 300, &mb, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 0, &runtime, why) < 0)
		return -1;
	if (procs < 1)
		return runner_bad_opt(rj, "nr_process", "at least 1", why);
	if (threads < 1)
		return runner_bad_opt(rj, "nr_threads", "at least 1", why);
	if (mb < 1)
		return runner_bad_opt(rj, "process_mem_mb", "at least 1", why);
	argv_list_push(argv, "perf");
	argv_list_push(argv, "bench");
	argv_list_push(argv, "numa");
	argv_list_push(argv, "mem");
	argv_list_push(argv, "-p");
	argv_list_pushf(argv, "%lld", procs);
	argv_list_push(argv, "-t");
	argv_list_pushf(argv, "%lld", threads);
	argv_list_push(argv, "-P");
	argv_list_pushf(argv, "%lld", mb);
	if (runtime >= 1) {
		argv_list_push(argv, "-s");
		argv_list_pushf(argv, "%.0f", runtime);
	}
	return 0;
}

const struct runner runner_perf_bench_numa_mem = {
	.name = "perf-bench-numa-mem",
	.summary = "perf bench numa mem: memory bandwidth and NUMA convergence",
	.packages = "linux-perf",
	.programs = programs,
	.options = options,
	.build = build,
	.kpis = kpis,
};
