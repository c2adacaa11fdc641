/*
 * dbench.c: Debian's dbench, a file-server load on the job's filesystem:
 *
 *   dbench -c /usr/share/dbench/client.txt -D <dir> -t <runtime> <nr_threads>
 *
 * nr_threads (clients) defaults to every CPU, runtime to dbench's 600 s,
 * dir to the run's cwd (the job's mount point).  dbench ends with the
 * "Throughput ... max_latency=..." line lkp's dbench parser reads.
 */
#include "runner/runner.h"

static const char *const programs[] = { "dbench", NULL };
static const char *const options[] = { "nr_threads", "runtime", "dir", NULL };

#define DBENCH_LOADFILE "/usr/share/dbench/client.txt"

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *dir = runner_opt(rj, "dir");
	long long nr;
	double runtime;

	if (runner_opt_clients(rj, &nr, &runtime, why) < 0)
		return -1;
	argv_list_push(argv, "dbench");
	argv_list_push(argv, "-c");
	argv_list_push(argv, DBENCH_LOADFILE);
	argv_list_push(argv, "-D");
	argv_list_push(argv, dir ? dir : ".");
	argv_list_push(argv, "-t");
	argv_list_pushf(argv, "%.0f", runtime);
	argv_list_pushf(argv, "%lld", nr);
	return 0;
}

const struct runner runner_dbench = {
	.name = "dbench",
	.summary = "dbench: a file server's filesystem load from a recorded client",
	.packages = "dbench",
	.programs = programs,
	.options = options,
	.build = build,
};
