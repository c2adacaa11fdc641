/*
 * iperf.c: iperf3 from Debian on loopback, as lkp's programs/iperf/run with
 * its iperf-server daemon on the same host:
 *
 *   bench-harness --port=auto --server iperf3 -s -B 127.0.0.1 -p {port} --
 *                 -- iperf3 -c 127.0.0.1 -p {port} -t <runtime> -J [-u]
 *
 * bench-harness picks a free port, starts the server in the run's process
 * group, waits until the port listens, runs the client and then stops the
 * server (SIGTERM, SIGKILL after 5 s).  The client's JSON (-J) is what
 * lkp's iperf parser reads.  Options: runtime (default 300), protocol (tcp
 * or udp).
 */
#include "runner/runner.h"

#include <string.h>

static const char *const programs[] = { "iperf3", NULL };
static const char *const protocols[] = { "tcp", "udp", NULL };
static const char *const options[] = { "runtime", "protocol", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *protocol;
	double runtime;

	if (runner_opt_seconds(rj, "runtime", 300, &runtime, why) < 0 ||
	    runner_opt_choice(rj, "protocol", "tcp", protocols, &protocol, why) < 0)
		return -1;
	if (runtime < 1)
		return runner_bad_opt(rj, "runtime", "at least 1 s", why);
	runner_harness(rj, argv);
	argv_list_push(argv, "--port=auto");
	argv_list_push(argv, "--server");
	argv_list_push(argv, "iperf3");
	argv_list_push(argv, "-s");
	argv_list_push(argv, "-B");
	argv_list_push(argv, "127.0.0.1");
	argv_list_push(argv, "-p");
	argv_list_push(argv, "{port}");
	argv_list_push(argv, "--");
	argv_list_push(argv, "--");
	argv_list_push(argv, "iperf3");
	argv_list_push(argv, "-c");
	argv_list_push(argv, "127.0.0.1");
	argv_list_push(argv, "-p");
	argv_list_push(argv, "{port}");
	argv_list_push(argv, "-t");
	argv_list_pushf(argv, "%.0f", runtime);
	argv_list_push(argv, "-J");
	if (!strcmp(protocol, "udp"))
		argv_list_push(argv, "-u");
	return 0;
}

const struct runner runner_iperf = {
	.name = "iperf",
	.summary = "iperf3 TCP/UDP bandwidth over loopback",
	.packages = "iperf3",
	.programs = programs,
	.harness = true,
	.options = options,
	.build = build,
};
