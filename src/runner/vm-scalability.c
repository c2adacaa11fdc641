/*
 * vm-scalability.c: the runner of perfbot's own vm-scalability
 * (workloads/vm-scalability/), whose output is the original's, so that
 * lkp's vm-scalability parser reads it.
 *
 *   vm-scalability: {test: lru-file-readtwice, size: 8G}
 *
 * Options as lkp's programs/vm-scalability/run: test (required), runtime
 * (default 300 s), nr_task (default: every CPU), size (the total working
 * set; default per case, see the program, except lru-file-readonce and
 * lru-file-readtwice: lkp's ROTATE_BYTES, vm_scalability_rotate_bytes(),
 * files far larger than memory read until the runtime ends, so that the
 * page cache fills and reclaim runs), plus perfbot's bs (read size of
 * the dd-style readers) and dir (where the sparse files go; default the
 * run's cwd, which is where the job's filesystem is mounted).
 */
#include "runner/runner.h"

#include <string.h>

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
	/* lkp's mmap cases use ROTATE_BYTES too; here they keep the
	 * program's memory-sized default: pages touched across 4 TiB of
	 * mapping pin a page table page each, which no swap can reclaim */
	if (!size && (!strcmp(test, "lru-file-readonce") || !strcmp(test, "lru-file-readtwice")))
		size = (long long)vm_scalability_rotate_bytes(rj->ctx->mem_avail);
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

unsigned long long vm_scalability_rotate_bytes(unsigned long long mem_avail)
{
	unsigned long long pte_limit = mem_avail << 8;

	if (!mem_avail || mem_avail > (VM_SCALABILITY_ROTATE_BYTES >> 8))
		return VM_SCALABILITY_ROTATE_BYTES;
	return pte_limit;
}

const struct runner runner_vm_scalability = {
	.name = "vm-scalability",
	.summary = "page cache, anon and shm scalability (built in)",
	.builtin = "vm-scalability",
	.options = options,
	.build = build,
};
