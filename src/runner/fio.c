/*
 * fio.c: Debian's fio with lkp's fio-setup-basic options, as one command
 * line instead of lkp's job file on stdin:
 *
 *   bench-harness -- fio --output-format=json --output={run_dir}/fio.output --name=task_0
 *       --directory=<dir> --rw=<rw> --bs=<bs> --ioengine=<ioengine>
 *       --iodepth=<iodepth> --direct=<direct> --size=<test_size / nr_task>
 *       --numjobs=<nr_task> --runtime=<runtime> [--time_based]
 *       --fallocate=<fallocate> --invalidate=<invalidate>
 *       --group_reporting --unlink=1
 *
 * Defaults as lkp: bs 4k, ioengine sync, rw write, iodepth 32, direct 0,
 * runtime 300, nr_task 1, fallocate posix, invalidate 1; test_size (lkp
 * requires it) defaults to 1G here.  dir (perfbot's; lkp uses the job's
 * mount point) defaults to the run's cwd.  lkp's parser reads the JSON
 * from <result root>/fio.output, which `perfbot run` passes as the run
 * dir, so the output goes there: bench-harness turns "{run_dir}" into
 * $PERFBOT_RUN_DIR ("." without it).  fio's stdout stays empty.
 * unlink=1 removes fio's data files afterwards.
 */
#include "runner/runner.h"

static const char *const programs[] = { "fio", NULL };
static const char *const rws[] = {
	"read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", "trim",
	"randtrim", "trimwrite", NULL
};
static const char *const options[] = {
	"rw", "bs", "ioengine", "iodepth", "direct", "test_size", "nr_task", "runtime",
	"time_based", "fallocate", "invalidate", "dir", NULL
};

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *rw, *ioengine = runner_opt(rj, "ioengine"), *fallocate = runner_opt(rj, "fallocate");
	const char *dir = runner_opt(rj, "dir");
	long long bs, iodepth, size, nr;
	bool direct, time_based, invalidate;
	double runtime;

	if (runner_opt_choice(rj, "rw", "write", rws, &rw, why) < 0 ||
	    runner_opt_bytes(rj, "bs", 4096, &bs, why) < 0 ||
	    runner_opt_int(rj, "iodepth", 32, &iodepth, why) < 0 ||
	    runner_opt_bool(rj, "direct", false, &direct, why) < 0 ||
	    runner_opt_bytes(rj, "test_size", 1LL << 30, &size, why) < 0 ||
	    runner_opt_int(rj, "nr_task", 1, &nr, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 300, &runtime, why) < 0 ||
	    runner_opt_bool(rj, "time_based", false, &time_based, why) < 0 ||
	    runner_opt_bool(rj, "invalidate", true, &invalidate, why) < 0)
		return -1;
	if (bs < 512)
		return runner_bad_opt(rj, "bs", "a block size of 512 bytes or more", why);
	if (iodepth < 1)
		return runner_bad_opt(rj, "iodepth", "at least 1", why);
	if (nr < 1)
		return runner_bad_opt(rj, "nr_task", "at least 1 task", why);
	if (size / nr < bs)
		return runner_bad_opt(rj, "test_size", "at least bs per task", why);

	runner_harness(rj, argv);
	argv_list_push(argv, "--");
	argv_list_push(argv, "fio");
	argv_list_push(argv, "--output-format=json");
	argv_list_push(argv, "--output={run_dir}/fio.output");
	argv_list_push(argv, "--name=task_0");
	argv_list_pushf(argv, "--directory=%s", dir ? dir : ".");
	argv_list_pushf(argv, "--rw=%s", rw);
	argv_list_pushf(argv, "--bs=%lld", bs);
	argv_list_pushf(argv, "--ioengine=%s", ioengine ? ioengine : "sync");
	argv_list_pushf(argv, "--iodepth=%lld", iodepth);
	argv_list_pushf(argv, "--direct=%d", direct);
	argv_list_pushf(argv, "--size=%lld", size / nr);
	argv_list_pushf(argv, "--numjobs=%lld", nr);
	argv_list_pushf(argv, "--runtime=%g", runtime);
	if (time_based)
		argv_list_push(argv, "--time_based");
	argv_list_pushf(argv, "--fallocate=%s", fallocate ? fallocate : "posix");
	argv_list_pushf(argv, "--invalidate=%d", invalidate);
	argv_list_push(argv, "--group_reporting");
	argv_list_push(argv, "--unlink=1");
	return 0;
}

const struct runner runner_fio = {
	.name = "fio",
	.summary = "flexible I/O tester: bandwidth, IOPS and latency of file I/O",
	.packages = "fio",
	.programs = programs,
	.harness = true,
	.options = options,
	.build = build,
};
