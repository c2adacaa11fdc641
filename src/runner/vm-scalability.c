/*
 * vm-scalability.c: the runner of perfbot's own vm-scalability
 * (workloads/vm-scalability/), whose output is the original's, so that
 * lkp's vm-scalability parser reads it.
 *
 *   vm-scalability: {test: lru-file-readtwice, size: 8G}
 *
 * Options as lkp's programs/vm-scalability/run: test (required), runtime
 * (default 300 s), nr_task (default: every CPU), size (the total working
 * set; default per case, see the program), plus perfbot's bs (read size of
 * the dd-style readers) and dir (where the sparse files go; default the
 * run's cwd, which is where the job's filesystem is mounted).
 */
#include "runner/runner.h"

/* The cases of workloads/vm-scalability (checked against its --list by
 * tests/unit/test_workloads.c). */
static const char *const cases[] = {
	"lru-file-readonce", "lru-file-readtwice", "lru-file-mmap-read",
	"lru-file-mmap-read-rand", "lru-file-mmap-write", "anon-w-seq", "anon-w-rand",
	"anon-r-seq", "anon-r-rand", "shm-pread-seq", NULL
};

static const char *const options[] = { "test", "runtime", "nr_task", "size", "bs", "dir", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test, *dir = runner_opt(rj, "dir");
	long long nr_task, size, bs;
	double runtime;

	if (runner_opt_choice(rj, "test", NULL, cases, &test, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 300, &runtime, why) < 0 ||
	    runner_opt_int(rj, "nr_task", rj->ctx->nr_cpu, &nr_task, why) < 0 ||
	    runner_opt_bytes(rj, "size", 0, &size, why) < 0 ||
	    runner_opt_bytes(rj, "bs", 0, &bs, why) < 0)
		return -1;
	if (!test) {
		strbuf_addstr(why, "vm-scalability: the job names no 'test' (e.g. lru-file-readtwice)");
		return -1;
	}
	if (nr_task < 1)
		return runner_bad_opt(rj, "nr_task", "at least 1 task", why);
	argv_list_pushf(argv, "%s/vm-scalability", rj->ctx->bin_dir);
	argv_list_pushf(argv, "--runtime=%g", runtime);
	argv_list_pushf(argv, "--nr-task=%lld", nr_task);
	if (size)
		argv_list_pushf(argv, "--size=%lld", size);
	if (bs)
		argv_list_pushf(argv, "--bs=%lld", bs);
	if (dir)
		argv_list_pushf(argv, "--dir=%s", dir);
	argv_list_push(argv, test);
	return 0;
}

const struct runner runner_vm_scalability = {
	.name = "vm-scalability",
	.summary = "page cache, anon and shm scalability (built in)",
	.builtin = "vm-scalability",
	.options = options,
	.build = build,
};
