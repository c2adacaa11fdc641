/*
 * hackbench.c: hackbench from Debian's rt-tests, run as lkp's
 * programs/hackbench/run runs it.
 *
 *   hackbench -g <nr_threads> -f <fds> --<mode> [--pipe] -l <loops> -s <datasize>
 *
 * repeated `iterations` times (bench-harness prints lkp's "Iterations: N"
 * before each), or else again and again until `runtime` (default 600 s)
 * has passed.  Defaults as lkp: nr_threads every CPU, fds 20, datasize
 * 100, loops 30000 * nr_cpu / nr_threads; mode process (lkp's jobs say
 * `process` or `threads`), ipc socket unless `pipe`.  rt-tests' hackbench
 * prints the "Running in ... mode", "Each sender will pass" and "Time:"
 * lines lkp's hackbench parser reads, unchanged.
 */
#include "runner/runner.h"

#include <string.h>

static const char *const programs[] = { "hackbench", NULL };
static const char *const modes[] = { "process", "threads", NULL };
static const char *const ipcs[] = { "pipe", "socket", NULL };
static const char *const options[] = {
	"nr_threads", "fds", "mode", "ipc", "iterations", "loops", "datasize", "runtime", NULL
};

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	long long groups, fds, iterations, loops, datasize;
	const char *mode, *ipc;
	double runtime;

	if (runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, &groups, why) < 0 ||
	    runner_opt_int(rj, "fds", 20, &fds, why) < 0 ||
	    runner_opt_choice(rj, "mode", "process", modes, &mode, why) < 0 ||
	    runner_opt_choice(rj, "ipc", "socket", ipcs, &ipc, why) < 0 ||
	    runner_opt_int(rj, "iterations", 0, &iterations, why) < 0 ||
	    runner_opt_int(rj, "datasize", 100, &datasize, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 600, &runtime, why) < 0)
		return -1;
	if (groups < 1)
		return runner_bad_opt(rj, "nr_threads", "at least 1 group", why);
	if (fds < 1)
		return runner_bad_opt(rj, "fds", "at least 1", why);
	if (runner_opt_int(rj, "loops", 30000 * rj->ctx->nr_cpu / groups, &loops, why) < 0)
		return -1;
	if (loops < 1)
		return runner_bad_opt(rj, "loops", "at least 1", why);

	runner_harness(rj, argv);
	if (iterations > 0)
		argv_list_pushf(argv, "--iterations=%lld", iterations);
	else
		argv_list_pushf(argv, "--for=%g", runtime);
	argv_list_push(argv, "--");
	argv_list_push(argv, "hackbench");
	argv_list_push(argv, "-g");
	argv_list_pushf(argv, "%lld", groups);
	argv_list_push(argv, "-f");
	argv_list_pushf(argv, "%lld", fds);
	argv_list_pushf(argv, "--%s", mode);
	if (!strcmp(ipc, "pipe"))
		argv_list_push(argv, "--pipe");
	argv_list_push(argv, "-l");
	argv_list_pushf(argv, "%lld", loops);
	argv_list_push(argv, "-s");
	argv_list_pushf(argv, "%lld", datasize);
	return 0;
}

const struct runner runner_hackbench = {
	.name = "hackbench",
	.summary = "scheduler and IPC throughput of groups of senders and receivers",
	.packages = "rt-tests",
	.programs = programs,
	.harness = true,
	.options = options,
	.build = build,
};
