/*
 * tbench.c: Debian's tbench, dbench's network load, against tbench_srv on
 * loopback:
 *
 *   bench-harness --port=7003 --server tbench_srv --
 *                 -- tbench -t <runtime> <nr_threads> 127.0.0.1
 *
 * tbench_srv always listens on port 7003, so the port is fixed: a second
 * tbench job on the same machine fails to start its server, and
 * bench-harness says so.  The server is stopped when the client ends.
 * nr_threads defaults to every CPU, runtime to 600 s.
 */
#include "runner/runner.h"

static const char *const programs[] = { "tbench", "tbench_srv", NULL };
static const char *const options[] = { "nr_threads", "runtime", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	long long nr;
	double runtime;

	if (runner_opt_clients(rj, &nr, &runtime, why) < 0)
		return -1;
	runner_harness(rj, argv);
	argv_list_push(argv, "--port=7003");
	argv_list_push(argv, "--server");
	argv_list_push(argv, "tbench_srv");
	argv_list_push(argv, "--");
	argv_list_push(argv, "--");
	argv_list_push(argv, "tbench");
	argv_list_push(argv, "-t");
	argv_list_pushf(argv, "%.0f", runtime);
	argv_list_pushf(argv, "%lld", nr);
	argv_list_push(argv, "127.0.0.1");
	return 0;
}

const struct runner runner_tbench = {
	.name = "tbench",
	.summary = "tbench: dbench's network load against tbench_srv on loopback",
	.packages = "dbench",
	.programs = programs,
	.harness = true,
	.options = options,
	.build = build,
};
