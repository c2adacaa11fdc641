/*
 * aim7.c: the runner of perfbot's own AIM7-like disk benchmark
 * (workloads/aim7/), whose result table is the one lkp's aim7 parser reads.
 *
 *   aim7: {test: disk_rr, load: 3000}
 *
 * Options as lkp's programs/aim7/run: test (required), load, the number
 * of tasks, or else nr_task ("200%" is twice the CPUs), one of which the
 * job must give, as lkp's run script exits without either.  perfbot's
 * own: runtime (no job started after it, so that a slow filesystem
 * cannot stretch a run without bound; by default none, as in AIM7, where
 * the jobs decide), jobs (per task, default the program's 20) and
 * file_size (per task file, default 128 KiB; disk space needed is about
 * load x file_size, see workloads/aim7/aim7.c).  The tasks work in the
 * run's directory, which is where `perfbot run` mounts the job's fs.
 */
#include "runner/runner.h"

#include <string.h>

/* The tests of workloads/aim7 (checked against its --list by
 * tests/unit/test_workloads.c). */
static const char *const tests[] = {
	"disk_rr", "disk_rw", "disk_wrt", "disk_rd", "disk_cp", "disk_src", "creat-clo",
	"sync_disk_rw", NULL
};

static const char *const options[] = {
	"test", "load", "nr_task", "runtime", "jobs", "file_size", NULL
};

/* The program's own bounds (workloads/aim7/aim7.c), checked here so that
 * a bad job fails at its line, not with the program's usage message. */
#define MAX_LOAD 100000
#define MAX_FILE_SIZE (64LL << 20)

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test;
	long long load, jobs, file_size;
	double runtime;

	if (runner_opt_choice(rj, "test", NULL, tests, &test, why) < 0)
		return -1;
	if (!test) {
		strbuf_addstr(why, "aim7: the job names no 'test' (e.g. disk_rr)");
		return -1;
	}
	if (runner_opt(rj, "load")) {
		if (runner_opt_int(rj, "load", 0, &load, why) < 0)
			return -1;
		if (load < 1 || load > MAX_LOAD)
			return runner_bad_opt(rj, "load", "1 to 100000 tasks", why);
	} else if (runner_opt(rj, "nr_task")) {
		if (runner_opt_int(rj, "nr_task", 0, &load, why) < 0)
			return -1;
		if (load < 1 || load > MAX_LOAD)
			return runner_bad_opt(rj, "nr_task", "1 to 100000 tasks", why);
	} else {
		strbuf_addstr(why, "aim7: the job gives neither 'load' nor 'nr_task' "
			      "(the number of tasks, e.g. load: 3000)");
		return -1;
	}
	if (runner_opt_seconds(rj, "runtime", 0, &runtime, why) < 0 ||
	    runner_opt_int(rj, "jobs", 0, &jobs, why) < 0 ||
	    runner_opt_bytes(rj, "file_size", 0, &file_size, why) < 0)
		return -1;
	if (runner_opt(rj, "runtime") && !(runtime > 0))
		return runner_bad_opt(rj, "runtime", "a duration above 0", why);
	if (runner_opt(rj, "jobs") && (jobs < 1 || jobs > (1LL << 30)))
		return runner_bad_opt(rj, "jobs", "1 or more jobs a task", why);
	if (runner_opt(rj, "file_size") &&
	    (file_size < 4096 || file_size > MAX_FILE_SIZE || file_size % 4096))
		return runner_bad_opt(rj, "file_size", "4k to 64m in whole 4k blocks", why);

	argv_list_pushf(argv, "%s/aim7", rj->ctx->bin_dir);
	argv_list_pushf(argv, "--load=%lld", load);
	if (runtime > 0)
		argv_list_pushf(argv, "--runtime=%g", runtime);
	if (jobs)
		argv_list_pushf(argv, "--jobs=%lld", jobs);
	if (file_size)
		argv_list_pushf(argv, "--file-size=%lld", file_size);
	argv_list_push(argv, test);
	return 0;
}

const struct runner runner_aim7 = {
	.name = "aim7",
	.summary = "AIM7-like multiuser disk-file jobs over the job's fs (built in)",
	.builtin = "aim7",
	.options = options,
	.build = build,
};
