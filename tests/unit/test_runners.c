/*
 * test_runners.c: the benchmark runners (src/runner/): the registry,
 * job options (lkp's names, units, defaults) to argv for every runner,
 * the error paths, availability, KPI directions and the output adapters.
 */
#include "test_helpers.h"

#include "job/bench_names.h"
#include "runner/runner.h"
#include "job/job.h"
#include "parse/parser.h"
#include "stats/lkp_tables.h"
#include "util/xalloc.h"

#include <sys/stat.h>

/* A context that does not depend on the machine. */
static void test_ctx(struct runner_ctx *ctx)
{
	strbuf_init(&ctx->own, 0);
	ctx->bin_dir = "/B";
	ctx->nr_cpu = 4;
	ctx->mem_avail = 8ULL << 30;
}

/* Keys are not checked: whether job.c knows the runners' names is not
 * what these tests are about (sysbench and perf-bench-sched-pipe have no
 * lkp parser). */
static struct job *load(const char *yaml)
{
	static const struct job_load_opts opts = { .no_check = true };
	struct job *job = NULL;

	assert_int_equal(job_load_string(yaml, strlen(yaml), "t.yaml", &opts, &job), 0);
	return job;
}

/* Build the job's command; return it shell-quoted (caller frees), or
 * the error message prefixed with "ERROR: ". */
static char *command_of(const char *yaml)
{
	struct job *job = load(yaml);
	struct runner_ctx ctx;
	struct argv_list argv = ARGV_LIST_INIT;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	const struct runner *r = runner_for_job(job);

	test_ctx(&ctx);
	assert_non_null(r);
	if (runner_command(r, job, &ctx, &argv, &why) < 0) {
		strbuf_addf(&out, "ERROR: %s", why.buf);
	} else {
		assert_non_null(argv.v);
		assert_null(argv.v[argv.nr]);
		argv_list_to_shell(&argv, &out);
	}
	argv_list_release(&argv);
	strbuf_release(&why);
	job_free(job);
	return strbuf_detach(&out, NULL);
}

struct case_ {
	const char *yaml;
	const char *expect;
};

/* lkp-style jobs and the command lines they must give (bench dir /B, 4 CPUs,
 * 8 GiB available). */
static const struct case_ commands[] = {
	/* built in */
	{ "testcase: vm-scalability\nruntime: 300s\nvm-scalability:\n  test: lru-file-readtwice\n",
	  "/B/vm-scalability --runtime=300 --nr-task=4 --size=2199023255552 lru-file-readtwice" },
	/* lkp's ROTATE_BYTES for the read cases only; the job's size wins */
	{ "testcase: vm-scalability\nvm-scalability:\n  test: lru-file-readonce\n",
	  "/B/vm-scalability --runtime=300 --nr-task=4 --size=2199023255552 lru-file-readonce" },
	{ "testcase: vm-scalability\nvm-scalability:\n  test: lru-file-readtwice\n  size: 2G\n",
	  "/B/vm-scalability --runtime=300 --nr-task=4 --size=2147483648 lru-file-readtwice" },
	{ "testcase: vm-scalability\nvm-scalability:\n  test: lru-file-mmap-read\n",
	  "/B/vm-scalability --runtime=300 --nr-task=4 lru-file-mmap-read" },
	{ "testcase: vm-scalability\nruntime: 5m\nnr_task: 50%\nvm-scalability:\n  test: anon-w-seq\n  size: 1G\n  bs: 64k\n  dir: /mnt/x\n",
	  "/B/vm-scalability --runtime=300 --nr-task=2 --size=1073741824 --bs=65536 --dir=/mnt/x anon-w-seq" },
	/* aim7: lkp's test and load (or nr_task), perfbot's runtime, jobs, file_size */
	{ "testcase: aim7\naim7:\n  test: disk_rr\n  load: 3000\n",
	  "/B/aim7 --load=3000 disk_rr" },
	{ "testcase: aim7\nnr_task: 200%\naim7:\n  test: creat-clo\n",
	  "/B/aim7 --load=8 creat-clo" },
	{ "testcase: aim7\nruntime: 1m\naim7:\n  test: sync_disk_rw\n  load: 10\n  nr_task: 3\n"
	  "  jobs: 5\n  file_size: 64k\n",
	  "/B/aim7 --load=10 --runtime=60 --jobs=5 --file-size=65536 sync_disk_rw" },
	{ "testcase: will-it-scale\nruntime: 300s\nwill-it-scale:\n  test: page_fault1\n  mode: process\n",
	  "/B/will-it-scale --duration=70 --warmup=5 --mode=process --tasks=1,2,3,4 page_fault1" },
	{ "testcase: will-it-scale\nruntime: 20\nnr_task: 2\nwill-it-scale:\n  test: lock1\n  no_affinity: yes\n",
	  "/B/will-it-scale --duration=8 --warmup=2 --mode=both --tasks=2 --no-affinity lock1" },
	/* ebizzy: lkp's nr_threads, iterations, duration, mmap, linear */
	{ "testcase: ebizzy\nnr_threads: 200%\niterations: 100x\nebizzy:\n  duration: 10s\n",
	  "/B/ebizzy -t8 -S10 -n100" },
	{ "testcase: ebizzy\nebizzy:\n  duration: 2\n  mmap: yes\n  linear: yes\n",
	  "/B/ebizzy -t4 -S2 -n1 -m -l" },
	/* Debian's */
	{ "testcase: hackbench\nnr_threads: 100%\niterations: 8\nhackbench:\n  mode: threads\n  ipc: pipe\n",
	  "/B/bench-harness --iterations=8 -- hackbench -g 4 -f 20 --threads --pipe -l 30000 -s 100" },
	{ "testcase: hackbench\nnr_threads: 8\nruntime: 60\nhackbench:\n  fds: 10\n  loops: 500\n  datasize: 512\n",
	  "/B/bench-harness --for=60 -- hackbench -g 8 -f 10 --process -l 500 -s 512" },
	{ "testcase: stress-ng\nnr_threads: 100%\nstress-ng:\n  test: pipe\n  testtime: 60\n",
	  "stress-ng --timeout 60 --times --verify --metrics-brief --no-rand-seed --stdout --pipe 4" },
	/* the first and the last stressor of the table, and a class */
	{ "testcase: stress-ng\nstress-ng:\n  test: access\n",
	  "stress-ng --timeout 1 --times --verify --metrics-brief --no-rand-seed --stdout --access 4" },
	{ "testcase: stress-ng\nstress-ng:\n  test: zombie\n",
	  "stress-ng --timeout 1 --times --verify --metrics-brief --no-rand-seed --stdout --zombie 4" },
	{ "testcase: stress-ng\nstress-ng:\n  class: vm\n",
	  "stress-ng --timeout 1 --times --verify --metrics-brief --no-rand-seed --stdout --sequential 4 "
	  "--class vm --exclude spawn,exec" },
	{ "testcase: stress-ng\nstress-ng:\n  class: memory\n",
	  "stress-ng --timeout 1 --times --verify --metrics-brief --no-rand-seed --stdout --sequential 4 "
	  "--class memory --minimize --exclude spawn,exec,stack" },
	{ "testcase: perf-bench-sched-messaging\nperf-bench-sched-messaging:\n  loops: 100\n  groups: 10\n  ipc: pipe\n  mode: thread\n",
	  "perf bench sched messaging --nr_loops 100 --group 10 --pipe --thread" },
	{ "testcase: perf-bench-sched-messaging\nperf-bench-sched-messaging:\n",
	  "perf bench sched messaging" },
	{ "testcase: perf-bench-mem\nperf-bench-mem:\n  op: memset\n  function: default\n  size: 1GB\n  nr_loops: 3\n",
	  "perf bench mem memset --function default --size 1GB --nr_loops 3" },
	{ "testcase: perf-bench-futex\nruntime: 300s\nnr_task: 100%\nperf-bench-futex:\n  test: hash\n  shared: shared\n",
	  "perf bench futex hash --threads 4 --shared --runtime 300" },
	{ "testcase: perf-bench-futex\nruntime: 300s\nperf-bench-futex:\n  test: wake\n",
	  "perf bench futex wake --threads 4" },
	{ "testcase: perf-bench-futex\nnr_task: 8\nperf-bench-futex:\n  test: wake-parallel\n  nwakers: 2\n  shared: shared\n",
	  "perf bench futex wake-parallel --threads 8 --shared --nwakers 2" },
	{ "testcase: perf-bench-futex\nperf-bench-futex:\n  test: wake\n  nwakers: 2\n",
	  "perf bench futex wake --threads 4" },
	{ "testcase: perf-bench-syscall\nperf-bench-syscall:\n  op: basic\n  loop: 1000\n",
	  "perf bench syscall basic --loop 1000" },
	{ "testcase: perf-bench-numa-mem\nruntime: 10s\nperf-bench-numa-mem:\n  nr_process: 2\n  process_mem_mb: 64\n",
	  "perf bench numa mem -p 2 -t 4 -P 64 -s 10" },
	{ "testcase: fio\nruntime: 300s\nnr_task: 2\nfio:\n  rw: randwrite\n  bs: 4k\n  test_size: 1G\n  time_based: true\n  direct: yes\n",
	  "/B/bench-harness -- fio --output-format=json --output={run_dir}/fio.output --name=task_0 "
	  "--directory=. --rw=randwrite --bs=4096 --ioengine=sync --iodepth=32 --direct=1 "
	  "--size=536870912 --numjobs=2 --runtime=300 --time_based --fallocate=posix --invalidate=1 "
	  "--group_reporting --unlink=1" },
	{ "testcase: iperf\nruntime: 30s\niperf:\n  protocol: udp\n",
	  "/B/bench-harness --port=auto --server iperf3 -s -B 127.0.0.1 -p {port} -- -- "
	  "iperf3 -c 127.0.0.1 -p {port} -t 30 -J -u" },
	{ "testcase: dbench\nnr_threads: 100%\ndbench:\n",
	  "dbench -c /usr/share/dbench/client.txt -D . -t 600 4" },
	{ "testcase: tbench\nnr_threads: 200%\nruntime: 20\ntbench:\n",
	  "/B/bench-harness --port=7003 --server tbench_srv -- -- tbench -t 20 8 127.0.0.1" },
	{ "testcase: sysbench\nruntime: 5s\nsysbench:\n  test: memory\n  memory_block_size: 1k\n",
	  "/B/bench-harness --adapt=sysbench -- sysbench memory --threads=4 --time=5 "
	  "--memory-block-size=1024 run" },
	{ "testcase: perf-bench-sched-pipe\nperf-bench-sched-pipe:\n  loops: 1000\n  mode: thread\n",
	  "/B/bench-harness --adapt=perf-bench-sched-pipe -- perf bench sched pipe --loop 1000 --threaded" },
	{ "testcase: redis\nredis:\n  key_len: 1000\n  requests_multiple: 3\n  data_size: 64\n  n_client: 10\n  n_pipeline: 4\n",
	  "/B/bench-harness --port=auto --adapt=redis --server redis-server --port {port} --bind 127.0.0.1 "
	  "--save '' --appendonly no --daemonize no -- -- redis-benchmark -h 127.0.0.1 -p {port} "
	  "-r 1000 -n 3000 -t set,get -d 64 -c 10 -P 4" },
	{ "testcase: openssl-speed\nruntime: 30s\nopenssl-speed:\n  algorithm: rsa4096\n",
	  "openssl speed -multi 4 -seconds 30 rsa4096" },
	/* the program key without testcase; options at the top level */
	{ "dbench:\nruntime: 10\nnr_threads: 3\n",
	  "dbench -c /usr/share/dbench/client.txt -D . -t 10 3" },
};

static void test_commands(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char *got = command_of(commands[i].yaml);
		if (strcmp(got, commands[i].expect))
			fail_msg("job:\n%s\nexpected: %s\n     got: %s", commands[i].yaml,
				 commands[i].expect, got);
		free(got);
	}
}

/* Every runner has at least one command case above. */
static void test_every_runner_covered(void **state)
{
	(void)state;
	for (const struct runner *const *r = runner_all(); *r; r++) {
		bool found = false;
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]) && !found; i++) {
			struct job *job = load(commands[i].yaml);
			found = runner_for_job(job) == *r;
			job_free(job);
		}
		if (!found)
			fail_msg("runner '%s' has no command test", (*r)->name);
	}
}

/* Bad options are errors naming the file, line and column and the fix. */
static const struct case_ errors[] = {
	{ "testcase: vm-scalability\nvm-scalability:\n  tset: anon-w-seq\n",
	  "ERROR: t.yaml:3:3: vm-scalability has no option 'tset' (expected one of: test runtime nr_task size bs dir)" },
	{ "testcase: vm-scalability\nvm-scalability:\n  test: anon-w-sequential\n",
	  "ERROR: t.yaml:3:9: vm-scalability: 'test' expected one of lru-file-readonce, lru-file-readtwice, "
	  "lru-file-mmap-read, lru-file-mmap-read-rand, lru-file-mmap-write, anon-w-seq, anon-w-rand, "
	  "anon-r-seq, anon-r-rand, shm-pread-seq, got 'anon-w-sequential'" },
	{ "testcase: vm-scalability\nvm-scalability:\n",
	  "ERROR: vm-scalability: the job names no 'test' (e.g. lru-file-readtwice)" },
	{ "testcase: vm-scalability\nvm-scalability:\n  test: anon-w-seq\n  size: 12x\n",
	  "ERROR: t.yaml:4:9: vm-scalability: 'size' expected a size (4k, 512m, 1G), got '12x'" },
	{ "testcase: vm-scalability\nruntime: soon\nvm-scalability:\n  test: anon-w-seq\n",
	  "ERROR: t.yaml:2:10: vm-scalability: 'runtime' expected a duration (300, 300s, 5m), got 'soon'" },
	{ "testcase: vm-scalability\nnr_task: 0\nvm-scalability:\n  test: anon-w-seq\n",
	  "ERROR: t.yaml:2:10: vm-scalability: 'nr_task' expected at least 1 task, got '0'" },
	{ "testcase: perf-bench-futex\nperf-bench-futex:\n  test: wake-parallel\n  nwakers: -1\n",
	  "ERROR: t.yaml:4:12: perf-bench-futex: 'nwakers' expected an integer or N%, got '-1'" },
	{ "testcase: will-it-scale\nwill-it-scale:\n  test:\n    - lock1\n    - pipe1\n",
	  "ERROR: t.yaml:3:3: will-it-scale: 'test' expected a scalar (split the job first: perfbot run does)" },
	{ "testcase: will-it-scale\nwill-it-scale:\n  test: lock1\n  no_affinity: maybe\n",
	  "ERROR: t.yaml:4:16: will-it-scale: 'no_affinity' expected a boolean (yes, no), got 'maybe'" },
	{ "testcase: ebizzy\niterations: 3y\nebizzy:\n",
	  "ERROR: t.yaml:2:13: ebizzy: 'iterations' expected a count such as 3 or 100x, got '3y'" },
	{ "testcase: ebizzy\nebizzy:\n  duration: 0\n",
	  "ERROR: t.yaml:3:13: ebizzy: 'duration' expected a duration above 0, got '0'" },
	/* runner_opt_clients: dbench's and tbench's nr_threads and runtime */
	{ "testcase: tbench\nnr_threads: 0\ntbench:\n",
	  "ERROR: t.yaml:2:13: tbench: 'nr_threads' expected at least 1 client, got '0'" },
	{ "testcase: dbench\nruntime: 0.5\ndbench:\n",
	  "ERROR: t.yaml:2:10: dbench: 'runtime' expected at least 1 s, got '0.5'" },
	{ "testcase: hackbench\nnr_threads: lots\nhackbench:\n",
	  "ERROR: t.yaml:2:13: hackbench: 'nr_threads' expected an integer or N%, got 'lots'" },
	{ "testcase: stress-ng\nstress-ng:\n  test: pipe\n  class: cpu\n",
	  "ERROR: stress-ng: the job needs either 'test' (a stressor) or 'class'" },
	/* test: becomes "--<test>": an option that is not a stressor never
	 * reaches stress-ng (--job reads a file, --log-file writes one) */
	{ "testcase: stress-ng\nstress-ng:\n  test: log-file\n",
	  "ERROR: t.yaml:3:9: stress-ng: 'test' expected a stressor of stress-ng --stressors, got 'log-file'" },
	{ "testcase: stress-ng\nstress-ng:\n  test: job\n",
	  "ERROR: t.yaml:3:9: stress-ng: 'test' expected a stressor of stress-ng --stressors, got 'job'" },
	{ "testcase: stress-ng\nstress-ng:\n  test: \"\"\n",
	  "ERROR: t.yaml:3:10: stress-ng: 'test' expected a stressor of stress-ng --stressors, got ''" },
	{ "testcase: stress-ng\nstress-ng:\n  class: --all\n",
	  "ERROR: t.yaml:3:10: stress-ng: 'class' expected a class of stress-ng (cpu, io, memory, os, ...), got '--all'" },
	{ "testcase: perf-bench-mem\nperf-bench-mem:\n",
	  "ERROR: perf-bench-mem: the job names no 'op' (memcpy or memset)" },
	{ "testcase: fio\nfio:\n  test_size: 1k\n",
	  "ERROR: t.yaml:3:14: fio: 'test_size' expected at least bs per task, got '1k'" },
	{ "testcase: openssl-speed\nopenssl-speed:\n  algorithm: md5\n",
	  "ERROR: t.yaml:3:14: openssl-speed: 'algorithm' expected one of rsa4096, sha256, got 'md5'" },
	{ "testcase: iperf\nruntime: 0.5\niperf:\n",
	  "ERROR: t.yaml:2:10: iperf: 'runtime' expected at least 1 s, got '0.5'" },
	{ "testcase: aim7\naim7:\n  test: fork_test\n  load: 10\n",
	  "ERROR: t.yaml:3:9: aim7: 'test' expected one of disk_rr, disk_rw, disk_wrt, disk_rd, "
	  "disk_cp, disk_src, creat-clo, sync_disk_rw, got 'fork_test'" },
	{ "testcase: aim7\naim7:\n  load: 10\n",
	  "ERROR: aim7: the job names no 'test' (e.g. disk_rr)" },
	{ "testcase: aim7\naim7:\n  test: disk_rr\n",
	  "ERROR: aim7: the job gives neither 'load' nor 'nr_task' (the number of tasks, e.g. load: 3000)" },
	{ "testcase: aim7\naim7:\n  test: disk_rr\n  load: 0\n",
	  "ERROR: t.yaml:4:9: aim7: 'load' expected 1 to 100000 tasks, got '0'" },
	{ "testcase: aim7\naim7:\n  test: disk_rr\n  load: 10\n  file_size: 5000\n",
	  "ERROR: t.yaml:5:14: aim7: 'file_size' expected 4k to 64m in whole 4k blocks, got '5000'" },
	{ "testcase: aim7\naim7:\n  test: disk_rr\n  load: 10\n  jobs: 0\n",
	  "ERROR: t.yaml:5:9: aim7: 'jobs' expected 1 or more jobs a task, got '0'" },
	{ "testcase: aim7\naim7:\n  test: disk_rr\n  load: 10\n  runtime: 0\n",
	  "ERROR: t.yaml:5:12: aim7: 'runtime' expected a duration above 0, got '0'" },
	{ "testcase: aim7\naim7:\n  test: disk_rr\n  lode: 10\n",
	  "ERROR: t.yaml:4:3: aim7 has no option 'lode' (expected one of: test load nr_task runtime jobs file_size)" },
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		char *got = command_of(errors[i].yaml);
		if (strcmp(got, errors[i].expect))
			fail_msg("job:\n%s\nexpected: %s\n     got: %s", errors[i].yaml,
				 errors[i].expect, got);
		free(got);
	}
}

static void test_registry(void **state)
{
	(void)state;
	int n = 0;
	for (const struct runner *const *r = runner_all(); *r; r++, n++) {
		assert_non_null((*r)->name);
		assert_non_null((*r)->summary);
		assert_non_null((*r)->build);
		assert_non_null((*r)->options);
		assert_ptr_equal(runner_find((*r)->name), *r);
		/* the job layer's list of benchmark keys is this one */
		assert_non_null(bench_registered_names()[n]);
		assert_string_equal(bench_registered_names()[n], (*r)->name);
		assert_true(bench_registered((*r)->name));
		/* a Debian benchmark names its package and programs, a built-in none */
		if ((*r)->builtin) {
			assert_null((*r)->packages);
			assert_string_equal(runner_packages(*r), "");
		} else {
			assert_non_null((*r)->packages);
			assert_non_null((*r)->programs);
			assert_true(*runner_packages(*r));
		}
		/* output goes to the parser of the same name, or is adapted
		 * into the mytest convention */
		const struct parser *p = parser_find((*r)->name);
		if (!p && !(*r)->adapt)
			fail_msg("runner '%s' has neither a parser nor an adapter", (*r)->name);
		if ((*r)->adapt)
			assert_true((*r)->harness);
		for (const struct runner *const *q = runner_all(); *q != *r; q++)
			assert_string_not_equal((*q)->name, (*r)->name);
	}
	assert_int_equal(n, 19);
	assert_null(bench_registered_names()[n]);
	assert_false(bench_registered("no-such-benchmark"));
	assert_null(runner_find("no-such-benchmark"));
	assert_string_equal(runner_find("tbench")->packages, "dbench");
	assert_string_equal(runner_find("redis")->packages, "redis-tools redis-server");
}

static void test_runner_for_job(void **state)
{
	(void)state;
	struct job *job;

	/* testcase wins over the first runner key */
	job = load("testcase: tbench\ndbench:\ntbench:\n");
	assert_string_equal(runner_for_job(job)->name, "tbench");
	job_free(job);
	job = load("testcase: mytest\nmytest:\n  command: true\n");
	assert_null(runner_for_job(job));
	job_free(job);
	job = load("category: benchmark\nvmstat:\nhackbench:\n");
	assert_string_equal(runner_for_job(job)->name, "hackbench");
	job_free(job);
}

static void test_build_argv(void **state)
{
	(void)state;
	struct runner_ctx ctx;
	struct argv_list argv = ARGV_LIST_INIT;
	struct strbuf why = STRBUF_INIT;
	struct job *job;

	test_ctx(&ctx);
	/* no benchmark: 1, out untouched */
	job = load("testcase: mytest\nmytest:\n  command: true\n");
	assert_int_equal(runner_build_argv(job, &ctx, &argv, &why), 1);
	assert_int_equal(argv.nr, 0);
	job_free(job);

	/* a built-in benchmark missing from the bench dir: -1, why says make */
	job = load("testcase: will-it-scale\nwill-it-scale:\n  test: lock1\n");
	assert_int_equal(runner_build_argv(job, &ctx, &argv, &why), -1);
	assert_non_null(strstr(why.buf, "will-it-scale: '/B/will-it-scale' not found: build it with `make`"));
	assert_int_equal(argv.nr, 0);
	job_free(job);

	/* a Debian program missing from $PATH: -1, why says perfbot install */
	strbuf_reset(&why);
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", "/nonexistent", 1);
	job = load("testcase: hackbench\nhackbench:\n");
	assert_int_equal(runner_build_argv(job, &ctx, &argv, &why), -1);
	assert_string_equal(why.buf, "hackbench: 'hackbench' not found in $PATH (Debian package rt-tests): "
			    "run `perfbot install JOB`");
	assert_false(runner_available(runner_find("hackbench"), &ctx, NULL));
	job_free(job);

	/* the same with the program present (a fake one on a private PATH) */
	char *dir = test_tmpdir("runner");
	struct strbuf prog = STRBUF_INIT;
	strbuf_addf(&prog, "%s/hackbench", dir);
	assert_int_equal(write_file_atomic(prog.buf, "#!/bin/sh\n", 10), 0);
	assert_int_equal(chmod(prog.buf, 0755), 0);
	setenv("PATH", dir, 1);
	strbuf_reset(&why);
	/* harness-based runners need bench-harness in the bench dir too */
	ctx.bin_dir = dir;
	struct strbuf harness = STRBUF_INIT;
	strbuf_addf(&harness, "%s/bench-harness", dir);
	assert_int_equal(write_file_atomic(harness.buf, "#!/bin/sh\n", 10), 0);
	assert_int_equal(chmod(harness.buf, 0755), 0);
	job = load("testcase: hackbench\nnr_threads: 2\niterations: 1\nhackbench:\n  loops: 10\n");
	assert_int_equal(runner_build_argv(job, &ctx, &argv, &why), 0);
	assert_int_equal(argv.nr, 13);
	assert_string_equal(argv.v[0], harness.buf);
	assert_string_equal(argv.v[3], "hackbench");
	job_free(job);
	setenv("PATH", path, 1);
	test_rm_rf(dir);
	free(dir);
	free(path);
	strbuf_release(&prog);
	strbuf_release(&harness);
	argv_list_release(&argv);
	strbuf_release(&why);
}

static void test_units(void **state)
{
	(void)state;
	assert_int_equal(runner_parse_bytes("4k"), 4096);
	assert_int_equal(runner_parse_bytes("512m"), 512LL << 20);
	assert_int_equal(runner_parse_bytes("1G"), 1LL << 30);
	assert_int_equal(runner_parse_bytes("2GiB"), 2LL << 30);
	assert_int_equal(runner_parse_bytes("3gb"), 3LL << 30);
	assert_int_equal(runner_parse_bytes("100"), 100);
	assert_int_equal(runner_parse_bytes("1x"), -1);
	assert_int_equal(runner_parse_bytes("1Gx"), -1);
	assert_int_equal(runner_parse_bytes(""), -1);
	assert_int_equal(runner_parse_bytes("-1"), -1);
	assert_int_equal(runner_parse_bytes("99999999999999T"), -1);
}

static void test_shell_quoting(void **state)
{
	(void)state;
	struct argv_list a = ARGV_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	argv_list_push(&a, "prog");
	argv_list_push(&a, "");
	argv_list_push(&a, "it's");
	argv_list_pushf(&a, "--n=%d", 3);
	argv_list_push(&a, "a b");
	argv_list_to_shell(&a, &sb);
	assert_string_equal(sb.buf, "prog '' 'it'\\''s' --n=3 'a b'");
	assert_int_equal(a.nr, 5);
	assert_null(a.v[5]);
	argv_list_release(&a);
	assert_null(a.v);
	strbuf_release(&sb);
}

/* Directions: the runners declare only what lkp does not know. */
static void test_kpi_directions(void **state)
{
	(void)state;
	static const struct { const char *stat; int dir; } main_kpis[] = {
		{ "vm-scalability.throughput", 1 }, { "will-it-scale.per_process_ops", 1 },
		{ "will-it-scale.per_thread_ops", 1 }, { "hackbench.throughput", 1 },
		{ "stress-ng.pipe.ops_per_sec", 1 },
		{ "perf-bench-sched-messaging.total_time_sec", -1 },
		{ "perf-bench-sched-pipe.ops_per_sec", 1 }, { "perf-bench-sched-pipe.usecs_per_op", -1 },
		{ "perf-bench-mem.memcpy.default.GB_per_sec", 1 }, { "perf-bench-futex.ops/s", 1 },
		{ "perf-bench-futex.wokeup_time_ms", -1 },
		{ "perf-bench-futex.avg_per_thread_latency_ms", -1 },
		{ "perf-bench-syscall.getppid.ops_per_sec", 1 },
		{ "perf-bench-syscall.getppid.usecs_per_op", -1 },
		{ "perf-bench-numa-mem.GB_sec_total", 1 }, { "perf-bench-numa-mem.secs_avg", -1 },
		{ "fio.write_bw_MBps", 1 }, { "fio.read_iops", 1 }, { "iperf.tcp.sender.bps", 1 },
		{ "dbench.throughput_MB/s", 1 }, { "tbench.throughput_MB/s", 1 },
		{ "sysbench.events_per_second", 1 }, { "sysbench.events", 1 },
		{ "sysbench.latency_avg_ms", -1 }, { "redis.set_avg_throughput_rps", 1 },
		{ "openssl-speed.sign_per_sec", 1 }, { "aim7.jobs-per-min", 1 },
	};
	for (size_t i = 0; i < sizeof(main_kpis) / sizeof(main_kpis[0]); i++)
		if (runner_kpi_direction(main_kpis[i].stat) != main_kpis[i].dir)
			fail_msg("%s: direction %d, expected %d", main_kpis[i].stat,
				 runner_kpi_direction(main_kpis[i].stat), main_kpis[i].dir);
	for (const struct runner *const *r = runner_all(); *r; r++)
		for (const struct runner_kpi *k = (*r)->kpis; k && k->stat; k++) {
			if (lkp_kpi_direction(k->stat))
				fail_msg("%s: declared by %s but lkp knows it", k->stat, (*r)->name);
			assert_true(k->direction == 1 || k->direction == -1);
			assert_int_equal(strncmp(k->stat, (*r)->name, strlen((*r)->name)), 0);
		}
	assert_int_equal(runner_kpi_direction("no-such.metric"), 0);
}

/* ---- adapters ---------------------------------------------------------- */

static char *adapt(const char *name, const char *raw, int *ret)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;

	*ret = runner_find(name)->adapt(raw, strlen(raw), &out, &why);
	if (*ret < 0) {
		strbuf_reset(&out);
		strbuf_addstr(&out, why.buf);
	}
	strbuf_release(&why);
	return strbuf_detach(&out, NULL);
}

static void test_adapt_sysbench(void **state)
{
	(void)state;
	static const char raw[] =
		"sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n"
		"Running the test with following options:\nNumber of threads: 2\n\n"
		"CPU speed:\n    events per second:  5407.79\n\n"
		"General statistics:\n    total time:                          2.0005s\n"
		"    total number of events:              10825\n\n"
		"Latency (ms):\n         min:                                    0.28\n"
		"         avg:                                    0.37\n"
		"         max:                                   12.48\n"
		"         95th percentile:                        0.49\n"
		"         sum:                                 3992.92\n\n"
		"Threads fairness:\n    events (avg/stddev):           5412.5000/159.50\n"
		"    execution time (avg/stddev):   1.9965/0.00\n";
	static const char mem[] =
		"Total operations: 5325269 (5298094.28 per second)\n\n"
		"5200.46 MiB transferred (5173.92 MiB/sec)\n";
	int ret;
	char *out = adapt("sysbench", raw, &ret);

	assert_int_equal(ret, 0);
	assert_string_equal(out, "events_per_second: 5407.79\ntotal_time_sec: 2.0005\nevents: 10825\n"
			    "latency_min_ms: 0.28\nlatency_avg_ms: 0.37\nlatency_max_ms: 12.48\n"
			    "latency_95th_percentile_ms: 0.49\n");
	free(out);
	out = adapt("sysbench", mem, &ret);
	assert_string_equal(out, "operations_per_second: 5298094.28\nMiB_per_sec: 5173.92\n");
	free(out);
	out = adapt("sysbench", "FATAL: unknown test\n", &ret);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(out, "no known result line"));
	free(out);

	/* what the mytest parser makes of it */
	out = adapt("sysbench", raw, &ret);
	struct strbuf lines = STRBUF_INIT;
	struct parse_input in = { out, strlen(out), "sysbench", NULL };
	assert_int_equal(parser_find("mytest")->parse(&in, &lines), 0);
	assert_non_null(strstr(lines.buf, "events_per_second: 5407.79\n"));
	strbuf_release(&lines);
	free(out);
}

static void test_adapt_sched_pipe(void **state)
{
	(void)state;
	static const char raw[] =
		"# Running 'sched/pipe' benchmark:\n"
		"# Executed 10000 pipe operations between two processes\n\n"
		"     Total time: 0.023 [sec]\n\n"
		"       2.360500 usecs/op\n"
		"         423639 ops/sec\n";
	int ret;
	char *out = adapt("perf-bench-sched-pipe", raw, &ret);

	assert_int_equal(ret, 0);
	assert_string_equal(out, "total_time_sec: 0.023\nusecs_per_op: 2.360500\nops_per_sec: 423639\n");
	free(out);
}

/* redis 7's output, cut down, as Debian 12's redis-benchmark prints it. */
static const char redis7[] =
	"SET: rps=0.0 (overall: -nan) avg_msec=-nan (overall: -nan)\r====== SET ======\n"
	"  2000 requests completed in 0.02 seconds\n  50 parallel clients\n\n"
	"Latency by percentile distribution:\n"
	"0.000% <= 0.031 milliseconds (cumulative count 1)\n"
	"50.000% <= 0.215 milliseconds (cumulative count 1025)\n"
	"99.219% <= 1.655 milliseconds (cumulative count 1985)\n"
	"100.000% <= 3.791 milliseconds (cumulative count 2000)\n\n"
	"Cumulative distribution of latencies:\n"
	"47.550% <= 0.207 milliseconds (cumulative count 951)\n"
	"99.000% <= 1.007 milliseconds (cumulative count 1980)\n"
	"100.000% <= 3.807 milliseconds (cumulative count 2000)\n\n"
	"Summary:\n  throughput summary: 100000.00 requests per second\n"
	"  latency summary (msec):\n          avg       min       p50       p95       p99       max\n"
	"        0.229     0.024     0.215     0.399     0.615     3.791\n"
	"GET: rps=0.0 (overall: -nan) avg_msec=-nan (overall: -nan)\r====== GET ======\n"
	"  2000 requests completed in 0.01 seconds\n"
	"Cumulative distribution of latencies:\n"
	"100.000% <= 0.407 milliseconds (cumulative count 2000)\n\n"
	"Summary:\n  throughput summary: 200000.00 requests per second\n";

static void test_adapt_redis(void **state)
{
	(void)state;
	int ret;
	char *out = adapt("redis", redis7, &ret);
	struct strbuf lines = STRBUF_INIT;

	assert_int_equal(ret, 0);
	/* the share below 1 ms is the largest share at a point below 1 ms:
	 * 50% at 0.215; below 2 ms 99.219% (1.655); below 4 ms everything */
	assert_non_null(strstr(out, "Summary:\n  throughput summary: 100000.00 requests per second\n"));
	assert_non_null(strstr(out, "\n50.00% <= 0 milliseconds\n99.22% <= 1 milliseconds\n"
				    "100.00% <= 3 milliseconds\n====== GET ======\n"));
	assert_non_null(strstr(out, "\n100.00% <= 0 milliseconds\n"));
	assert_null(strstr(out, "cumulative count"));
	assert_null(strstr(out, "\r"));

	struct parse_input in = { out, strlen(out), "redis", NULL };
	assert_int_equal(parser_find("redis")->parse(&in, &lines), 0);
	assert_string_equal(lines.buf,
		"set_total_throughput_rps: 100000.0\nget_total_throughput_rps: 200000.0\n"
		"set_total_time_sec: 0.02\nget_total_time_sec: 0.01\n"
		"set_avg_throughput_rps: 100000.0\nget_avg_throughput_rps: 200000.0\n"
		"set_avg_time_sec: 0.02\nget_avg_time_sec: 0.01\n"
		"set_latency_0ms%: 50.0\nset_latency_1ms%: 99.22\nset_latency_90%_ms: 1\n"
		"set_latency_95%_ms: 1\nset_latency_99%_ms: 1\nset_latency_2ms%: 99.22\nset_latency_3ms%: 100.0\n"
		"set_latency_99.9%_ms: 3\n"
		"get_latency_0ms%: 100.0\nget_latency_90%_ms: 0\nget_latency_95%_ms: 0\n"
		"get_latency_99%_ms: 0\nget_latency_99.9%_ms: 0\n");
	strbuf_release(&lines);
	free(out);

	out = adapt("redis", "Could not connect to Redis at 127.0.0.1:6379\n", &ret);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(out, "no '====== TEST ======' section"));
	free(out);
}

/* lkp's hw_vars: ROTATE_BYTES = 1 << 42, at most MemAvailable << 8. */
static void test_vm_scalability_rotate_bytes(void **state)
{
	(void)state;
	struct runner_ctx ctx;

	assert_int_equal(vm_scalability_rotate_bytes(0), 1ULL << 42);          /* unknown */
	assert_int_equal(vm_scalability_rotate_bytes(1ULL << 30), 1ULL << 38);
	assert_int_equal(vm_scalability_rotate_bytes((16ULL << 30) - 4096), (1ULL << 42) - (4096 << 8));
	assert_int_equal(vm_scalability_rotate_bytes(16ULL << 30), 1ULL << 42);
	assert_int_equal(vm_scalability_rotate_bytes((16ULL << 30) + 4096), 1ULL << 42);
	assert_int_equal(vm_scalability_rotate_bytes(1ULL << 40), 1ULL << 42);
	/* runner_ctx_init reads this machine's MemAvailable */
	runner_ctx_init(&ctx);
	assert_true(ctx.mem_avail > 0);
	assert_int_equal(ctx.mem_avail % 1024, 0);
	runner_ctx_release(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_every_runner_covered),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_runner_for_job),
		cmocka_unit_test(test_build_argv),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_shell_quoting),
		cmocka_unit_test(test_kpi_directions),
		cmocka_unit_test(test_adapt_sysbench),
		cmocka_unit_test(test_adapt_sched_pipe),
		cmocka_unit_test(test_adapt_redis),
		cmocka_unit_test(test_vm_scalability_rotate_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
