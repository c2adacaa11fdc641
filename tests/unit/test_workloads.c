/*
 * test_workloads.c: perfbot's built-in benchmarks (workloads/), run
 * briefly, their output fed to lkp's parsers through the parser API: every
 * vm-scalability case gives throughput, stddev, median and workload, every
 * will-it-scale test per_process_ops and per_thread_ops, every aim7 test
 * lkp's five aim7 stats.  Also: their case lists match what the runners
 * accept, and bad usage exits 2.
 *
 * The programs are found in the bench dir of this build, "<dir of this
 * test binary>/../bin" (make builds them before the tests).
 */
#include "test_helpers.h"

#include "runner/runner.h"
#include "parse/parser.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>

static void bin_path(struct strbuf *sb, const char *prog)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	strbuf_addf(sb, "%s/../bin/%s", exe, prog);
	if (access(sb->buf, X_OK))
		fail_msg("%s not built (make builds $(BUILD)/bin before the tests)", sb->buf);
}

/* Run prog with args; its stdout in out; returns the exit code. */
static int run(const char *prog, const char *const *args, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	const char *argv[16];
	int n = 0, r;

	bin_path(&path, prog);
	argv[n++] = path.buf;
	for (; *args; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	r = capture_command((char *const *)argv, NULL, out);
	strbuf_release(&path);
	return r;
}

/* Whether parser accepts raw; its stats appended to stats. */
static bool parses_as(const char *parser, const struct strbuf *raw, struct strbuf *stats)
{
	struct parse_input in = { raw->buf, raw->len, parser, NULL };

	return parser_find(parser)->parse(&in, stats) >= 0;
}

static void parse_as(const char *parser, const struct strbuf *raw, struct strbuf *stats)
{
	if (!parses_as(parser, raw, stats))
		fail_msg("%s parser rejected:\n%s", parser, raw->buf);
}

/* The value of "key: value" in stats, as a double; fails when absent. */
static double stat_value(const struct strbuf *stats, const char *key)
{
	struct strbuf k = STRBUF_INIT, all = STRBUF_INIT;
	const char *p;
	double v;

	strbuf_addf(&k, "\n%s: ", key);
	strbuf_addf(&all, "\n%s", stats->buf);
	p = strstr(all.buf, k.buf);
	if (!p)
		fail_msg("no '%s' in:\n%s", key, stats->buf);
	v = strtod(p + k.len, NULL);
	strbuf_release(&k);
	strbuf_release(&all);
	return v;
}

/* Whether stats has key with a value above 0 (a zero count may be left out). */
static bool positive(const struct strbuf *stats, const char *key)
{
	struct strbuf k = STRBUF_INIT, all = STRBUF_INIT;
	const char *p;
	bool yes;

	strbuf_addf(&k, "\n%s: ", key);
	strbuf_addf(&all, "\n%s", stats->buf);
	p = strstr(all.buf, k.buf);
	yes = p && strtod(p + k.len, NULL) > 0;
	strbuf_release(&k);
	strbuf_release(&all);
	return yes;
}

/* The names in the first column of `prog --list`, space-joined. */
static void list_of(const char *prog, struct strbuf *names)
{
	static const char *const args[] = { "--list", NULL };
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(run(prog, args, &out), 0);
	for (const char *l = out.buf; *l;) {
		const char *sp = strchr(l, ' '), *nl = strchr(l, '\n');
		strbuf_add(names, l, (size_t)(sp - l));
		strbuf_addch(names, ' ');
		l = nl + 1;
	}
	strbuf_release(&out);
}

/* Does the runner accept this test name (as its option 'test')? */
static bool runner_accepts(const char *runner, const char *test)
{
	struct strbuf yaml = STRBUF_INIT, why = STRBUF_INIT;
	struct job *job;
	struct runner_ctx ctx = { .bin_dir = "/B", .nr_cpu = 2, .own = STRBUF_INIT };
	struct argv_list argv = ARGV_LIST_INIT;
	bool ok;

	strbuf_addf(&yaml, "testcase: %s\n%s:\n  test: %s\n", runner, runner, test);
	/* aim7 needs the number of tasks, as lkp's does */
	if (!strcmp(runner, "aim7"))
		strbuf_addstr(&yaml, "  load: 1\n");
	assert_int_equal(job_load_string(yaml.buf, yaml.len, "t.yaml", NULL, &job), 0);
	ok = runner_command(runner_find(runner), job, &ctx, &argv, &why) == 0;
	job_free(job);
	argv_list_release(&argv);
	strbuf_release(&yaml);
	strbuf_release(&why);
	return ok;
}

static void check_list_matches_runner(const char *prog, int expect)
{
	struct strbuf names = STRBUF_INIT;
	int n = 0;

	list_of(prog, &names);
	for (char *p = names.buf, *sp; (sp = strchr(p, ' ')); p = sp + 1, n++) {
		*sp = '\0';
		if (!runner_accepts(prog, p))
			fail_msg("runner %s does not accept %s's case '%s'", prog, prog, p);
	}
	assert_int_equal(n, expect);
	assert_false(runner_accepts(prog, "no-such-case"));
	strbuf_release(&names);
}

static void test_vm_scalability_list(void **state)
{
	(void)state;
	check_list_matches_runner("vm-scalability", 10);
}

static void test_will_it_scale_list(void **state)
{
	(void)state;
	check_list_matches_runner("will-it-scale", 60);
}

static void test_aim7_list(void **state)
{
	(void)state;
	check_list_matches_runner("aim7", 8);
}

/* Every test, 3 tasks of 2 jobs: lkp's five stats, the count of jobs
 * right, and nothing left in the directory. */
static void test_aim7_tests(void **state)
{
	(void)state;
	char *dir = test_tmpdir("aim7");
	struct strbuf names = STRBUF_INIT, dir_opt = STRBUF_INIT;

	strbuf_addf(&dir_opt, "--dir=%s", dir);
	list_of("aim7", &names);
	for (char *p = names.buf, *sp; (sp = strchr(p, ' ')); p = sp + 1) {
		const char *args[] = { "--load=3", "--jobs=2", "--file-size=16k", dir_opt.buf, p,
				       NULL };
		struct strbuf out = STRBUF_INIT, stats = STRBUF_INIT;
		double jpm, real;

		*sp = '\0';
		assert_int_equal(run("aim7", args, &out), 0);
		assert_non_null(strstr(out.buf, p));
		parse_as("aim7", &out, &stats);
		jpm = stat_value(&stats, "jobs-per-min");
		real = stat_value(&stats, "real");
		if (jpm <= 0)
			fail_msg("%s: no jobs-per-min:\n%s", p, out.buf);
		/* 6 jobs in real seconds, both rounded as printed */
		if (real > 0 && fabs(jpm * real / 60 - 6) > 6 * 0.01 / real + 0.5)
			fail_msg("%s: %g jobs/min in %g s is not 6 jobs:\n%s", p, jpm, real, out.buf);
		assert_true(fabs(stat_value(&stats, "jobs-per-min-per-task") - jpm / 3) < 0.01);
		assert_true(stat_value(&stats, "jti") >= 0 && stat_value(&stats, "jti") <= 100);
		assert_true(stat_value(&stats, "cpu") >= 0);
		strbuf_release(&out);
		strbuf_release(&stats);
	}
	/* every file gone from its work directory */
	assert_int_equal(rmdir(dir), 0);
	free(dir);
	strbuf_release(&names);
	strbuf_release(&dir_opt);
}

static void test_vm_scalability_cases(void **state)
{
	(void)state;
	char *dir = test_tmpdir("vms");
	struct strbuf names = STRBUF_INIT, dir_opt = STRBUF_INIT, shm_opt = STRBUF_INIT;

	strbuf_addf(&dir_opt, "--dir=%s", dir);
	strbuf_addf(&shm_opt, "--shm-dir=%s", dir);
	list_of("vm-scalability", &names);
	for (char *p = names.buf, *sp; (sp = strchr(p, ' ')); p = sp + 1) {
		const char *args[] = { "--runtime=0.2", "--size=32m", "--nr-task=2", dir_opt.buf,
				       shm_opt.buf, p, NULL };
		struct strbuf out = STRBUF_INIT, stats = STRBUF_INIT;
		bool dd;

		*sp = '\0';
		assert_int_equal(run("vm-scalability", args, &out), 0);
		/* the case line, then one line per worker (two readers per file
		 * for readtwice), dd's style for the read cases */
		assert_non_null(strstr(out.buf, "  ./case-"));
		assert_non_null(strstr(out.buf, p));
		dd = !strcmp(p, "lru-file-readonce") || !strcmp(p, "lru-file-readtwice");
		assert_non_null(strstr(out.buf, dd ? " copied, " : " usecs = "));
		parse_as("vm-scalability", &out, &stats);
		if (stat_value(&stats, "throughput") <= 0)
			fail_msg("%s: no throughput:\n%s", p, out.buf);
		stat_value(&stats, "stddev%");
		assert_true(stat_value(&stats, "median") > 0);
		assert_true(stat_value(&stats, "workload") > 0);
		/* the files are gone: they were unlinked once open */
		strbuf_release(&out);
		strbuf_release(&stats);
	}
	assert_int_equal(rmdir(dir), 0);
	free(dir);
	strbuf_release(&names);
	strbuf_release(&dir_opt);
	strbuf_release(&shm_opt);
}

/* readtwice: two readers per file, so twice the workers of readonce. */
static void test_vm_scalability_readtwice_workers(void **state)
{
	(void)state;
	char *dir = test_tmpdir("vms");
	struct strbuf out = STRBUF_INIT, stats = STRBUF_INIT, dir_opt = STRBUF_INIT;
	int n = 0;

	strbuf_addf(&dir_opt, "--dir=%s", dir);
	const char *args[] = { "--runtime=0.2", "--size=8m", "--nr-task=3", dir_opt.buf,
			       "lru-file-readtwice", NULL };
	assert_int_equal(run("vm-scalability", args, &out), 0);
	for (const char *p = out.buf; (p = strstr(p, " copied, ")); p++)
		n++;
	assert_int_equal(n, 6);
	parse_as("vm-scalability", &out, &stats);
	assert_non_null(strstr(stats.buf, "# 6 "));
	/* each reader read its whole file: 8 MB / 3 files, whole pages */
	assert_non_null(strstr(out.buf, "2793472 bytes (2.8 MB, 2.7 MiB) copied, "));
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&out);
	strbuf_release(&stats);
	strbuf_release(&dir_opt);
}

/*
 * Whether every task of a --tasks=1,2 --mode=both run got a slice: ops
 * in each mode, and in the 1-task row, whose processes make the 2-task
 * row's linear column (and so scalability) nonzero.
 */
static bool all_ran(const struct strbuf *stats)
{
	return positive(stats, "per_process_ops") && positive(stats, "per_thread_ops") &&
	       positive(stats, "1.processes") && positive(stats, "2.processes");
}

static void test_will_it_scale_tests(void **state)
{
	(void)state;
	struct strbuf names = STRBUF_INIT;

	list_of("will-it-scale", &names);
	for (char *p = names.buf, *sp; (sp = strchr(p, ' ')); p = sp + 1) {
		const char *args[] = { "--duration=0.08", "--warmup=0.02", "--mode=both",
				       "--tasks=1,2", p, NULL };
		struct strbuf out = STRBUF_INIT, stats = STRBUF_INIT;

		*sp = '\0';
		/*
		 * 80 ms a task: on a machine busy with other work a task may
		 * not get a slice that soon, and report no ops.  That says
		 * nothing about the test program: run it once more, longer,
		 * before judging.
		 */
		for (int attempt = 0; attempt < 2; attempt++) {
			if (attempt) {
				args[0] = "--duration=1";
				args[1] = "--warmup=0.2";
				strbuf_reset(&out);
				strbuf_reset(&stats);
			}
			assert_int_equal(run("will-it-scale", args, &out), 0);
			assert_non_null(strstr(out.buf, "tasks,processes,processes_idle,threads,"
						     "threads_idle,linear\n0,0,100,0,100,0\n1,"));
			/* rows all 0 (no slice at all) are no results: the
			 * parser rejects them, and the test program is judged
			 * below as when some ops are missing */
			if (parses_as("will-it-scale", &out, &stats) && all_ran(&stats))
				break;
		}
		if (all_ran(&stats)) {
			assert_true(stat_value(&stats, "scalability") > 0);
			assert_true(stat_value(&stats, "workload") > 0);
		} else {
			/* no slice in a second on this machine: the program is
			 * then judged by --check, one operation of each mode,
			 * which no load can starve */
			const char *check[] = { "--check", p, NULL };
			struct strbuf c = STRBUF_INIT;
			if (run("will-it-scale", check, &c) != 0)
				fail_msg("%s: no ops, and --check fails:\n%s\n%s", p, out.buf, c.buf);
			strbuf_release(&c);
		}
		strbuf_release(&out);
		strbuf_release(&stats);
	}
	strbuf_release(&names);
}

/* One mode: the other's columns are 0, and linear is 0 without 1 task. */
static void test_will_it_scale_one_mode(void **state)
{
	(void)state;
	static const char *const args[] = { "--duration=0.1", "--warmup=0", "--mode=process",
					    "--tasks=2", "--no-affinity", "getppid1", NULL };
	struct strbuf out = STRBUF_INIT, stats = STRBUF_INIT;
	long long ops;
	double idle;

	assert_int_equal(run("will-it-scale", args, &out), 0);
	assert_int_equal(sscanf(strstr(out.buf, "\n2,") + 3, "%lld,%lf,0,0.00,0\n", &ops, &idle), 2);
	assert_true(ops > 0);
	parse_as("will-it-scale", &out, &stats);
	assert_int_equal((long long)stat_value(&stats, "per_thread_ops"), 0);
	assert_null(strstr(stats.buf, "scalability"));
	strbuf_release(&out);
	strbuf_release(&stats);
}

static void test_bad_usage(void **state)
{
	(void)state;
	static const char *const bad[][4] = {
		{ "vm-scalability", "no-such-case", NULL },
		{ "vm-scalability", "--size=12x", "anon-w-seq" },
		{ "vm-scalability", "--runtime=0", "anon-w-seq" },
		{ "will-it-scale", "no_such_test", NULL },
		{ "will-it-scale", "--mode=sideways", "lock1" },
		{ "will-it-scale", "--tasks=1,,2", "lock1" },
		{ "aim7", "fork_test", NULL },
		{ "aim7", "--load=0", "disk_rr" },
		{ "aim7", "--file-size=5000", "disk_rr" },
		{ "aim7", "--runtime=0", "disk_rr" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf out = STRBUF_INIT;
		assert_int_equal(run(bad[i][0], bad[i] + 1, &out), 2);
		assert_string_equal(out.buf, "");
		strbuf_release(&out);
	}
	/* a dir it cannot write: exit 1 with a message, no result line */
	static const char *const ro[] = { "--dir=/proc", "--size=1m", "lru-file-readonce", NULL };
	struct strbuf out = STRBUF_INIT;
	assert_int_equal(run("vm-scalability", ro, &out), 1);
	assert_null(strstr(out.buf, "copied"));
	/* aim7 on a filesystem without room: exit 1, no table */
	static const char *const full[] = { "--dir=/proc", "--load=2", "disk_wrt", NULL };
	strbuf_reset(&out);
	assert_int_equal(run("aim7", full, &out), 1);
	assert_null(strstr(out.buf, "jobs/min"));
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_scalability_list),
		cmocka_unit_test(test_will_it_scale_list),
		cmocka_unit_test(test_aim7_list),
		cmocka_unit_test(test_aim7_tests),
		cmocka_unit_test(test_vm_scalability_cases),
		cmocka_unit_test(test_vm_scalability_readtwice_workers),
		cmocka_unit_test(test_will_it_scale_tests),
		cmocka_unit_test(test_will_it_scale_one_mode),
		cmocka_unit_test(test_bad_usage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
