/*
 * perf-bench-sched-messaging.c: `perf bench sched messaging` from Debian's
 * linux-perf, as lkp's programs/perf-bench-sched-messaging/run runs it:
 *
 *   perf bench sched messaging [--nr_loops <loops>] [--group <groups>]
 *                              [--pipe] [--thread]
 *
 * Options (all optional; perf's defaults otherwise): loops, groups, ipc
 * (pipe or socket), mode (process or thread).  perf prints the
 * "Total time: S [sec]" line lkp's parser reads.
 */
#include "runner/runner.h"

#include <string.h>

static const char *const programs[] = { "perf", NULL };
static const char *const ipcs[] = { "pipe", "socket", NULL };
static const char *const modes[] = { "process", "thread", NULL };
static const char *const options[] = { "loops", "groups", "ipc", "mode", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	long long loops, groups;
	const char *ipc, *mode;

	if (runner_opt_int(rj, "loops", 0, &loops, why) < 0 ||
	    runner_opt_int(rj, "groups", 0, &groups, why) < 0 ||
	    runner_opt_choice(rj, "ipc", "socket", ipcs, &ipc, why) < 0 ||
	    runner_opt_choice(rj, "mode", "process", modes, &mode, why) < 0)
		return -1;
	if (runner_opt(rj, "loops") && loops < 1)
		return runner_bad_opt(rj, "loops", "at least 1", why);
	if (runner_opt(rj, "groups") && groups < 1)
		return runner_bad_opt(rj, "groups", "at least 1", why);
	argv_list_push(argv, "perf");
	argv_list_push(argv, "bench");
	argv_list_push(argv, "sched");
	argv_list_push(argv, "messaging");
	if (loops) {
		argv_list_push(argv, "--nr_loops");
		argv_list_pushf(argv, "%lld", loops);
	}
	if (groups) {
		argv_list_push(argv, "--group");
		argv_list_pushf(argv, "%lld", groups);
	}
	if (!strcmp(ipc, "pipe"))
		argv_list_push(argv, "--pipe");
	if (!strcmp(mode, "thread"))
		argv_list_push(argv, "--thread");
	return 0;
}

const struct runner runner_perf_bench_sched_messaging = {
	.name = "perf-bench-sched-messaging",
	.summary = "perf bench sched messaging: groups of senders and receivers",
	.packages = "linux-perf",
	.programs = programs,
	.options = options,
	.build = build,
};
