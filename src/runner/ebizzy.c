/*
 * ebizzy.c: the runner of perfbot's own ebizzy (workloads/ebizzy/), which
 * prints the "records/s", "real", "user" and "sys" lines lkp's ebizzy
 * parser reads, after an "Iteration: N" line as lkp's run script.
 *
 *   ebizzy: {duration: 10s}      (nr_threads and iterations at the top, as lkp)
 *
 * Options as lkp's programs/ebizzy/run: nr_threads (default every CPU;
 * N% of the CPUs as lkp), duration (default 10 s), iterations (default
 * 1; lkp's jobs write "100x"), mmap (copies in mmap'ed memory), linear
 * (linear search).
 */
#include "runner/runner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const options[] = {
	"nr_threads", "duration", "iterations", "mmap", "linear", NULL
};

/* lkp's "<N>x" or a plain N, at least 1; def when absent. */
static int opt_iterations(const struct runner_job *rj, long long def, long long *out,
			  struct strbuf *why)
{
	const char *s = runner_opt(rj, "iterations");
	char *end;

	*out = def;
	if (!s)
		return 0;
	errno = 0;
	*out = strtoll(s, &end, 10);
	if (end == s || errno || (*end && strcmp(end, "x")) || *out < 1)
		return runner_bad_opt(rj, "iterations", "a count such as 3 or 100x", why);
	return 0;
}

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	long long threads, iterations;
	double duration;
	bool use_mmap, linear;

	if (runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, &threads, why) < 0 ||
	    runner_opt_seconds(rj, "duration", 10, &duration, why) < 0 ||
	    opt_iterations(rj, 1, &iterations, why) < 0 ||
	    runner_opt_bool(rj, "mmap", false, &use_mmap, why) < 0 ||
	    runner_opt_bool(rj, "linear", false, &linear, why) < 0)
		return -1;
	if (threads < 1 || threads > 65536)
		return runner_bad_opt(rj, "nr_threads", "1 to 65536 threads", why);
	if (!(duration > 0))
		return runner_bad_opt(rj, "duration", "a duration above 0", why);

	argv_list_pushf(argv, "%s/ebizzy", rj->ctx->bin_dir);
	argv_list_pushf(argv, "-t%lld", threads);
	argv_list_pushf(argv, "-S%g", duration);
	argv_list_pushf(argv, "-n%lld", iterations);
	if (use_mmap)
		argv_list_push(argv, "-m");
	if (linear)
		argv_list_push(argv, "-l");
	return 0;
}

const struct runner runner_ebizzy = {
	.name = "ebizzy",
	.summary = "records/s of threads copying and searching memory, a web server's pattern (built in)",
	.builtin = "ebizzy",
	.options = options,
	.build = build,
};
