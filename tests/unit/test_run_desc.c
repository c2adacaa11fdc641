/*
 * test_run_desc.c: decoding an atomic job into struct job_desc
 * (src/run/desc.c): each field, its default, each error with its
 * FILE:LINE:COL.
 */
#include "test_helpers.h"
#include "job/job.h"
#include "monitor/monitor.h"
#include "run/desc.h"
#include "run/run_impl.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <sys/stat.h>

/* The command of most jobs below, so that they name a benchmark. */
#define CMD "mytest:\n  command: sleep 0\n"

/* Without the key check: nr_run, interval and monitor_delay are keys of
 * perfbot's runs, not in lkp's table of job keys (job/keys.c). */
static struct job *load(const char *yaml)
{
	static const struct job_load_opts lo = { .no_check = true };
	struct job *job = NULL;

	assert_int_equal(job_load_string(yaml, strlen(yaml), "j.yaml", &lo, &job), 0);
	return job;
}

/* Decode yaml with opts; *job is the loaded job (free it). */
static int decode(const char *yaml, const struct run_opts *opts, struct job **job,
		  struct job_desc *d)
{
	*job = load(yaml);
	return job_desc_decode(*job, opts, d);
}

static void test_defaults(void **state)
{
	(void)state;
	struct job_desc d = JOB_DESC_INIT;
	struct job *job;

	assert_int_equal(decode(CMD, NULL, &job, &d), 0);
	assert_ptr_equal(d.job, job);
	assert_string_equal(d.where, "j.yaml");
	assert_string_equal(d.testcase, "mytest");
	assert_null(d.runner);
	assert_null(d.command);
	assert_string_equal(d.shell_command, "sleep 0");
	assert_null(d.bench_argv.v);
	assert_int_equal(d.nr_run, 1);
	assert_true(d.runtime == -1);
	assert_true(d.timeout == 0);
	assert_true(d.monitor_delay == 0);
	assert_true(d.interval == 1);
	assert_int_equal(d.nr_monitors, 0);
	assert_false(d.perf_stat);
	assert_false(d.perf_profile);
	assert_true(d.perf_profile_delay == 0);
	assert_true(d.perf_profile_duration == 0);
	assert_int_equal(d.missing.len, 0);
	assert_null(d.setup.fs);
	assert_int_equal(d.setup.disk, RUN_DISK_NONE);
	assert_null(d.setup.governor);
	assert_false(d.setup_cannot);
	assert_true(!strncmp(d.result_path.buf, "mytest/", 7));
	/* the job file names a job of its own command */
	assert_string_equal(d.name.buf, "j");
	job_desc_release(&d);
	job_free(job);

	/* released, a desc decodes again */
	assert_int_equal(decode("testcase: x\n" CMD, NULL, &job, &d), 0);
	assert_string_equal(d.testcase, "x");
	job_desc_release(&d);
	job_free(job);
}

static void test_times(void **state)
{
	(void)state;
	static const struct {
		const char *yaml;
		int nr_run;
		double runtime, timeout, monitor_delay, interval;
	} tab[] = {
		{ "nr_run: 3\n", 3, -1, 0, 0, 1 },
		{ "nr_run: 0\n", 1, -1, 0, 0, 1 },
		{ "nr_run: -2\n", 1, -1, 0, 0, 1 },
		{ "nr_run:\n", 1, -1, 0, 0, 1 },
		/* a runaway benchmark is killed after twice its runtime + 60 s */
		{ "runtime: 5m\n", 1, 300, 660, 0, 1 },
		{ "runtime: 300s\ntimeout: 0\n", 1, 300, 660, 0, 1 },
		{ "runtime: 300\ntimeout: 10\n", 1, 300, 10, 0, 1 },
		{ "runtime: 0\n", 1, 0, 0, 0, 1 },
		{ "timeout: 1h\n", 1, -1, 3600, 0, 1 },
		{ "monitor_delay: 2s\n", 1, -1, 0, 2, 1 },
		{ "interval: 0.5\n", 1, -1, 0, 0, 0.5 },
		{ "interval: 2m\n", 1, -1, 0, 0, 120 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct strbuf yaml = STRBUF_INIT;
		struct job_desc d = JOB_DESC_INIT;
		struct job *job;

		strbuf_addf(&yaml, CMD "%s", tab[i].yaml);
		if (decode(yaml.buf, NULL, &job, &d) < 0)
			fail_msg("%s: failed", tab[i].yaml);
		if (d.nr_run != tab[i].nr_run || d.runtime != tab[i].runtime ||
		    d.timeout != tab[i].timeout || d.monitor_delay != tab[i].monitor_delay ||
		    d.interval != tab[i].interval)
			fail_msg("%s: got nr_run %d runtime %g timeout %g monitor_delay %g interval %g",
				 tab[i].yaml, d.nr_run, d.runtime, d.timeout, d.monitor_delay,
				 d.interval);
		job_desc_release(&d);
		job_free(job);
		strbuf_release(&yaml);
	}
}

static void test_opts(void **state)
{
	(void)state;
	char *argv[] = { "true", NULL };
	struct run_opts opts = { .interval = 0.5, .command = argv };
	struct job_desc d = JOB_DESC_INIT;
	struct job *job;

	/* --interval wins over the job's, which is then not read at all;
	 * a command after -- wins over the job's and makes it a mytest */
	assert_int_equal(decode("interval: often\n" CMD, &opts, &job, &d), 0);
	assert_true(d.interval == 0.5);
	assert_ptr_equal(d.command, argv);
	assert_null(d.shell_command);
	assert_string_equal(d.testcase, "mytest");
	job_desc_release(&d);
	job_free(job);

	assert_int_equal(decode("testcase: x\nmytest:\n", &opts, &job, &d), 0);
	assert_string_equal(d.testcase, "x");
	/* no job file's own command: nothing names the job */
	assert_int_equal(d.name.len, 0);
	job_desc_release(&d);
	job_free(job);

	/* a command after -- is the benchmark of a job whose own perfbot
	 * has no runner for, but not the setup it lacks */
	assert_int_equal(decode("testcase: reaim\nreaim:\n  test: disk\nhttpd:\n", &opts,
				&job, &d), 0);
	job_desc_release(&d);
	job_free(job);
	{
		struct stderr_capture cap;
		struct strbuf err = STRBUF_INIT;
		capture_start(&cap);
		assert_int_equal(decode("testcase: reaim\nreaim:\nmd: RAID0\n", &opts, &job, &d), -1);
		capture_end_sb(&cap, &err);
		assert_non_null(strstr(err.buf, "j.yaml:3:1: no setup 'md' in perfbot"));
		strbuf_release(&err);
		job_desc_release(&d);
		job_free(job);
	}

	/* the benchmark the job names: its runner, and the testcase */
	assert_int_equal(decode("hackbench:\n  mode: threads\n", &opts, &job, &d), 0);
	assert_non_null(d.runner);
	assert_string_equal(d.runner->name, "hackbench");
	assert_string_equal(d.testcase, "hackbench");
	job_desc_release(&d);
	job_free(job);

	/* a backend runs the benchmark elsewhere: no command needed here */
	struct run_backend be = { NULL, NULL };
	struct run_opts bopts = { .backend = &be };
	assert_int_equal(decode("testcase: x\n", &bopts, &job, &d), 0);
	assert_null(d.command);
	assert_null(d.shell_command);
	assert_null(d.bench_argv.v);
	job_desc_release(&d);
	job_free(job);
}

static const char *monitor_name(const struct job_desc *d, size_t i)
{
	return d->monitors[i]->name;
}

static void test_monitors(void **state)
{
	(void)state;
	struct job_desc d = JOB_DESC_INIT;
	struct job *job;

	assert_int_equal(decode(CMD "vmstat:\n  interval: 3\nproc-stat:\ntime:\nperf-stat:\n"
				"perf-profile:\n  delay: 5\n  duration: 10s\nturbostat:\n",
				NULL, &job, &d), 0);
	/* in the job's order; time is written for every run, not sampled */
	assert_int_equal(d.nr_monitors, 2);
	assert_string_equal(monitor_name(&d, 0), "vmstat");
	assert_true(d.intervals[0] == 3);
	assert_string_equal(monitor_name(&d, 1), "proc-stat");
	assert_true(d.intervals[1] == 0);
	assert_true(d.perf_stat);
	assert_true(d.perf_profile);
	assert_true(d.perf_profile_delay == 5);
	assert_true(d.perf_profile_duration == 10);
	/* lkp has it, perfbot does not */
	assert_string_equal(d.missing.buf, "turbostat");
	job_desc_release(&d);
	job_free(job);

	/* lkp's monitors perfbot's table lacks are skipped and named too */
	assert_int_equal(decode(CMD "vmstat:\nftrace:\n  events: x\n", NULL, &job, &d), 0);
	assert_string_equal(d.missing.buf, "ftrace");
	job_desc_release(&d);
	job_free(job);

	/* category benchmark and no monitor: lkp's default set, and what of
	 * it perfbot lacks, each name once */
	assert_int_equal(decode(CMD "category: benchmark\n", NULL, &job, &d), 0);
	assert_true(d.nr_monitors > 5);
	assert_true(d.perf_stat);
	assert_true(d.perf_profile);
	bool kmsg = false;
	for (size_t i = 0; i < d.nr_monitors; i++) {
		assert_false(d.monitors[i]->flags & MONITOR_NOT_SAMPLED);
		kmsg |= !strcmp(monitor_name(&d, i), "kmsg");
	}
	assert_true(kmsg);              /* lkp's first default, perfbot has it */
	assert_true(!strncmp(d.missing.buf, "boot-time, uptime", 17));
	assert_null(strstr(d.missing.buf, "kmsg"));
	assert_null(strstr(d.missing.buf + 1, "boot-time"));
	job_desc_release(&d);
	job_free(job);

	/* category benchmark with a monitor of its own: that one only */
	assert_int_equal(decode(CMD "category: benchmark\nmeminfo:\n", NULL, &job, &d), 0);
	assert_int_equal(d.nr_monitors, 1);
	assert_string_equal(monitor_name(&d, 0), "meminfo");
	assert_false(d.perf_stat);
	assert_false(d.perf_profile);
	job_desc_release(&d);
	job_free(job);

	/* --monitors instead of the job's; their intervals still the job's */
	struct run_opts opts = { .monitors = "meminfo,perf-stat,meminfo" };
	assert_int_equal(decode(CMD "vmstat:\nmeminfo:\n  interval: 4\n", &opts, &job, &d), 0);
	assert_int_equal(d.nr_monitors, 1);
	assert_string_equal(monitor_name(&d, 0), "meminfo");
	assert_true(d.intervals[0] == 4);
	assert_true(d.perf_stat);
	assert_false(d.perf_profile);
	job_desc_release(&d);
	job_free(job);

	opts.monitors = "";
	assert_int_equal(decode(CMD "vmstat:\n", &opts, &job, &d), 0);
	assert_int_equal(d.nr_monitors, 0);
	/* the sampler's list, also when empty */
	assert_non_null(d.monitors);
	assert_null(d.monitors[0]);
	job_desc_release(&d);
	job_free(job);
}

static void test_setup_and_path(void **state)
{
	(void)state;
	struct run_opts opts = { .commit = "abc123" };
	struct job_desc d = JOB_DESC_INIT;
	struct job *job;

	assert_int_equal(decode(CMD "fs: ext4\n", NULL, &job, &d), 0);
	assert_string_equal(d.setup.fs_name, "ext4");
	assert_int_equal(d.setup.disk, RUN_DISK_LOOP);
	assert_true(d.setup.default_disk);
	assert_false(d.setup_cannot);
	job_desc_release(&d);
	job_free(job);

	/* what perfbot cannot set up is no error of the job: the run says so */
	assert_int_equal(decode(CMD "fs: nfsv4\n", NULL, &job, &d), 0);
	assert_true(d.setup_cannot);
	assert_non_null(strstr(d.setup_why.buf, "fs 'nfsv4' is an NFS export"));
	job_desc_release(&d);
	job_free(job);

	assert_int_equal(decode("testcase: x\ntbox_group: t\nrootfs: /a/r.cgz\nkconfig: k\n"
				"compiler: c\n" CMD, &opts, &job, &d), 0);
	/* the command is no path parameter (job_result_params) */
	assert_string_equal(d.result_path.buf, "x/defaults/t/r.cgz/k/c/abc123");
	job_desc_release(&d);
	job_free(job);
}

/* run_check_monitors drops what this machine lacks; the job's intervals stay
 * with their monitors (monitors.c). */
static void test_check_monitors(void **state)
{
	(void)state;
	char *root = test_tmpdir("run-desc");
	struct strbuf path = STRBUF_INIT;
	struct perf_caps caps = { .why = STRBUF_INIT, .stat_events = STRBUF_INIT,
				  .unsupported = STRBUF_INIT };
	struct strbuf skipped = STRBUF_INIT;
	struct job_desc d = JOB_DESC_INIT;
	struct job *job;

	strbuf_addf(&path, "%s/proc", root);
	assert_int_equal(mkdir_p(path.buf, 0755), 0);
	strbuf_addstr(&path, "/meminfo");
	assert_int_equal(write_file_atomic(path.buf, "MemTotal: 1 kB\n", 15), 0);
	assert_int_equal(decode(CMD "interrupts:\n  interval: 3\nmeminfo:\n  interval: 7\n",
				NULL, &job, &d), 0);
	assert_int_equal(d.nr_monitors, 2);
	const struct monitor *meminfo = d.monitors[1];
	run_check_monitors(&d, &caps, root, &skipped);
	assert_int_equal(d.nr_monitors, 1);
	assert_ptr_equal(d.monitors[0], meminfo);
	assert_null(d.monitors[1]);
	assert_true(d.intervals[0] == 7);
	assert_true(!strncmp(skipped.buf, "interrupts: ", 12));
	strbuf_release(&skipped);
	job_desc_release(&d);
	job_free(job);
	test_rm_rf(root);
	free(root);
	strbuf_release(&path);
}

/* The plain keys: each one as given, NULL when absent or no scalar;
 * nr_run only when an integer.  job_desc_decode fills d.keys. */
static void test_keys(void **state)
{
	(void)state;
	struct job_desc_keys k;
	struct job_desc d = JOB_DESC_INIT;
	struct job *job = load("testcase: t\nsuite: s\ntbox_group: g\nrootfs: r.cgz\n"
			       "kconfig: kc\ncompiler: gcc\narch: x86_64\ncategory: benchmark\n"
			       "kernel: /k/bzImage\nkernel_cmdline: quiet\nmemory: 4G\nnr_run: 7\n");

	job_desc_keys(job, &k);
	assert_string_equal(k.testcase, "t");
	assert_string_equal(k.suite, "s");
	assert_string_equal(k.tbox_group, "g");
	assert_string_equal(k.rootfs, "r.cgz");
	assert_string_equal(k.kconfig, "kc");
	assert_string_equal(k.compiler, "gcc");
	assert_string_equal(k.arch, "x86_64");
	assert_string_equal(k.category, "benchmark");
	assert_string_equal(k.kernel, "/k/bzImage");
	assert_string_equal(k.kernel_cmdline, "quiet");
	assert_string_equal(k.memory, "4G");
	assert_int_equal(k.nr_run, 7);
	job_free(job);

	job = load("tbox_group:\n  a: 1\nnr_run: x\n" CMD);
	job_desc_keys(job, &k);
	assert_null(k.testcase);
	assert_null(k.suite);
	assert_null(k.tbox_group);
	assert_null(k.rootfs);
	assert_null(k.kernel);
	assert_null(k.memory);
	assert_int_equal(k.nr_run, 0);
	job_free(job);

	for (int i = 0; i < 3; i++) {
		static const char *const bad[] = { "nr_run: 5x\n", "nr_run: ''\n",
						   "nr_run: 99999999999999999999\n" };
		job = load(bad[i]);
		job_desc_keys(job, &k);
		assert_int_equal(k.nr_run, 0);
		job_free(job);
	}

	assert_int_equal(decode("testcase: t\ntbox_group: g\n" CMD, NULL, &job, &d), 0);
	assert_string_equal(d.keys.testcase, "t");
	assert_string_equal(d.keys.tbox_group, "g");
	job_desc_release(&d);
	job_free(job);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *yaml;
		const char *monitors;
		const char *expect;
	} tab[] = {
		{ "runtime: 1\n", NULL, "perfbot: j.yaml: the job has no 'testcase'\n" },
		{ CMD "nr_run: x\n", NULL,
		  "perfbot: j.yaml:3:9: 'nr_run' expected an integer, got 'x'\n" },
		{ CMD "runtime: soon\n", NULL,
		  "perfbot: j.yaml:3:10: 'runtime' expected a duration (300, 300s, 5m), got 'soon'\n" },
		{ CMD "timeout: -5\n", NULL,
		  "perfbot: j.yaml:3:10: 'timeout' expected a duration (300, 300s, 5m), got '-5'\n" },
		{ CMD "monitor_delay: 5x\n", NULL,
		  "perfbot: j.yaml:3:16: 'monitor_delay' expected a duration (300, 300s, 5m), got '5x'\n" },
		{ CMD "interval: x\n", NULL,
		  "perfbot: j.yaml:3:11: 'interval' expected a duration (300, 300s, 5m), got 'x'\n" },
		{ CMD "interval: 0\n", NULL,
		  "perfbot: j.yaml:3:11: 'interval' expected a duration above 0, got '0'\n" },
		{ "testcase: x\ntbox_group: ..\n" CMD, NULL, "perfbot: j.yaml:2:13: 'tbox_group'" },
		{ CMD "fs: zfs\n", NULL, "perfbot: j.yaml:3:5: 'fs' expected one of ext2 " },
		{ CMD "vmstat:\n  interval: often\n", NULL,
		  "perfbot: j.yaml:4:13: 'vmstat.interval' expected a duration (300, 300s, 5m), got 'often'\n" },
		{ CMD "vmstat:\n  interval: often\n", "meminfo", NULL },
		{ CMD "perf-profile:\n  delay: x\n", NULL,
		  "perfbot: j.yaml:4:10: 'perf-profile.delay' expected a duration (300, 300s, 5m), got 'x'\n" },
		{ CMD "perf-profile:\n  duration: y\n", NULL,
		  "perfbot: j.yaml:4:13: 'perf-profile.duration' expected a duration (300, 300s, 5m), got 'y'\n" },
		{ CMD, "vmstat,nosuch", "perfbot: --monitors: unknown monitor 'nosuch'\n" },
		{ "testcase: x\n", NULL,
		  "perfbot: j.yaml: the job names no benchmark: add one (see `perfbot install --list`), "
		  "`mytest: {command: ...}`, or give a command after --\n" },
		/* a program perfbot has nothing for, named with its place,
		 * before any setup is looked at (fs: zfs is an error) */
		{ "testcase: reaim\nreaim:\n  test: disk\n", NULL,
		  "perfbot: j.yaml:2:1: no runner for benchmark 'reaim' (`perfbot install --list` "
		  "lists those perfbot has); give its command after -- or as "
		  "`mytest: {command: ...}`\n" },
		{ "testcase: x\nfs: zfs\nno-such-bench:\n  a: 1\n", NULL,
		  "perfbot: j.yaml:3:1: no runner for benchmark 'no-such-bench' (" },
		/* a null key no runner has, named by testcase */
		{ "testcase: foo\nfoo:\n", NULL, "perfbot: j.yaml: no runner for benchmark 'foo' (" },
		/* lkp's: a benchmark in a code key, then a daemon, then a setup */
		{ "testcase: x\nmd: 1\nhttpd:\nif role client:\n  apachebench:\n", NULL,
		  "perfbot: j.yaml:5:3: no runner for benchmark 'apachebench' (" },
		{ "testcase: x\nmd: 1\nif role server:\n  httpd:\n", NULL,
		  "perfbot: j.yaml:4:3: no runner for daemon 'httpd' (" },
		{ CMD "md: RAID0\n", NULL,
		  "perfbot: j.yaml:3:1: no setup 'md' in perfbot (lkp's programs/md/setup): "
		  "the job cannot run as it says\n" },
		{ CMD "fio-setup-basic:\n  rw: read\n", NULL,
		  "perfbot: j.yaml:3:1: no setup 'fio-setup-basic' in perfbot" },
		/* parameters are the benchmark's: none of these is refused */
		{ CMD "size: 1G\nbogus: 1\nforce_reboot: 1\npack-deps:\n", NULL, NULL },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct run_opts opts = { .monitors = tab[i].monitors };
		struct job_desc d = JOB_DESC_INIT;
		struct stderr_capture cap;
		struct strbuf err = STRBUF_INIT;
		struct job *job = load(tab[i].yaml);
		int r;

		capture_start(&cap);
		r = job_desc_decode(job, &opts, &d);
		capture_end_sb(&cap, &err);
		if (!tab[i].expect) {
			if (r != 0 || err.len)
				fail_msg("%s: expected no error, got %d: %s", tab[i].yaml, r, err.buf);
		} else if (r != -1 || strncmp(err.buf, tab[i].expect, strlen(tab[i].expect)) ||
			   strchr(err.buf, '\n') != err.buf + err.len - 1) {
			fail_msg("%s: expected one line starting\n%s\ngot %d:\n%s", tab[i].yaml,
				 tab[i].expect, r, err.buf);
		}
		job_desc_release(&d);
		job_free(job);
		strbuf_release(&err);
	}
}

/* One line of error starting with expect (NULL: no error) from decoding
 * yaml with opts. */
static void expect_decode(const char *yaml, const struct run_opts *opts, int want_r,
			  bool want_instructions, const char *expect)
{
	struct job_desc d = JOB_DESC_INIT;
	struct stderr_capture cap;
	struct strbuf err = STRBUF_INIT;
	struct job *job;

	capture_start(&cap);
	int r = decode(yaml, opts, &job, &d);
	capture_end_sb(&cap, &err);
	if (r != want_r || (expect ? strncmp(err.buf, expect, strlen(expect)) != 0 : err.len != 0))
		fail_msg("%s: expected %d and '%s', got %d: %s", yaml, want_r,
			 expect ? expect : "", r, err.buf);
	if (r == 0)
		assert_int_equal(d.measure_instructions, want_instructions);
	job_desc_release(&d);
	job_free(job);
	strbuf_release(&err);
}

/* measure: time (the default) or instructions, which needs valgrind in
 * $PATH (a stand-in here: the test must not depend on the machine) and
 * a benchmark on this machine. */
static void test_measure(void **state)
{
	struct run_opts none = { 0 };
	struct run_backend be = { NULL, NULL };
	struct run_opts bopts = { .backend = &be };
	char *dir = test_tmpdir("desc-measure");
	struct strbuf fake = STRBUF_INIT;
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");

	(void)state;
	path_join(&fake, dir, "valgrind");
	assert_int_equal(write_file_atomic(fake.buf, "#!/bin/sh\n", 10), 0);
	assert_int_equal(chmod(fake.buf, 0755), 0);
	setenv("PATH", dir, 1);
	expect_decode(CMD, &none, 0, false, NULL);
	expect_decode(CMD "measure: time\n", &none, 0, false, NULL);
	expect_decode(CMD "measure: instructions\n", &none, 0, true, NULL);
	expect_decode(CMD "measure: cycles\n", &none, -1, false,
		      "perfbot: j.yaml:3:10: 'measure' expected time or instructions, got 'cycles'\n");
	expect_decode(CMD "measure:\n  - instructions\n", &none, -1, false,
		      "perfbot: j.yaml:4:3: 'measure' expected time or instructions, got ");
	expect_decode(CMD "measure: instructions\n", &bopts, -1, false,
		      "perfbot: j.yaml:3:10: 'measure: instructions' counts a benchmark on this "
		      "machine; a kernel under test counts instructions with --accel icount\n");
	/* a backend measuring time is no concern of measure: */
	expect_decode(CMD "measure: time\n", &bopts, 0, false, NULL);
	setenv("PATH", "/nonexistent", 1);
	expect_decode(CMD "measure: instructions\n", &none, -1, false,
		      "perfbot: j.yaml:3:10: 'measure: instructions' needs valgrind (Debian package "
		      "valgrind), not found in $PATH\n");
	expect_decode(CMD "measure: time\n", &none, 0, false, NULL);
	setenv("PATH", path, 1);
	free(path);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&fake);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_monitors),
		cmocka_unit_test(test_setup_and_path),
		cmocka_unit_test(test_check_monitors),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
