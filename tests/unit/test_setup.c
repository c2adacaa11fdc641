/*
 * Unit tests of src/run/setup: lkp sizes, the fs/disk/cpufreq_governor
 * keys, the journal and its replay after a crash (on a fake cpufreq tree,
 * no root needed), missing tools, and as root real loop images: mkfs,
 * mount, write, undo, a busy unmount, kill -9 at each step then
 * run_setup_cleanup_stale, brd or its fallback.
 *
 * With arguments the binary is a small driver for tests/t/t0900-fs.sh,
 * standing in for `perfbot run` until run.c calls the setup:
 *   test_setup --apply JOB BASE [--hold] [--brd-fallback]
 *       apply, print "rc=N", the env and the log; with --hold print
 *       "ready", wait for SIGTERM/SIGINT, undo and exit; without, exit
 *       at once leaving everything set up (a crash)
 *   test_setup --cleanup BASE
 *       run_setup_cleanup_stale, print "cleaned=N" and the log
 */
#include "test_helpers.h"
#include "run/setup.h"
#include "setup_helpers.h"
#include "job/job.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* ------------------------------------------------------------------ */
/* helpers */

static struct job *load(const char *text)
{
	struct job *job = NULL;
	assert_int_equal(job_load_string(text, strlen(text), "jobs/t.yaml", NULL, &job), 0);
	return job;
}

static void write_text(const char *dir, const char *rel, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	char *slash;

	path_join(&path, dir, rel);
	slash = strrchr(path.buf, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(path.buf, 0755), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(path.buf, text, strlen(text)), 0);
	strbuf_release(&path);
}

static void read_text(const char *dir, const char *rel, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_reset(out);
	path_join(&path, dir, rel);
	assert_int_equal(read_file(out, path.buf), 0);
	strbuf_rtrim(out);
	strbuf_release(&path);
}

/* Number of "setup-*" entries (journals, setup dirs) in base. */
static int setup_entries(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "setup-", 6))
			n++;
	closedir(d);
	return n;
}

static const char *env_get(const struct run_setup *s, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; s->env && s->env[i]; i++)
		if (!strncmp(s->env[i], name, n) && s->env[i][n] == '=')
			return s->env[i] + n + 1;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* sizes */

static void test_parse_size(void **state)
{
	static const struct { const char *text; unsigned long long bytes; } ok[] = {
		{ "48G", 48ULL << 30 }, { "1G", 1ULL << 30 }, { "512M", 512ULL << 20 },
		{ "512m", 512ULL << 20 }, { "1GB", 1ULL << 30 }, { "2gb", 2ULL << 30 },
		{ "4096", 4096 }, { "100B", 100 }, { "1K", 1024 }, { "3T", 3ULL << 40 },
		{ "1P", 1ULL << 50 }, { "8192P", 1ULL << 63 },
	};
	static const char *const bad[] = {
		"", "G", "0", "0G", "1.5G", "-1G", "1X", "1GG", "1 G", "G1",
		"8193P", "99999999999999999999", "1BB", "1Gi",
	};
	unsigned long long b;
	(void)state;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		b = 0;
		assert_int_equal(run_setup_parse_size(ok[i].text, &b), 0);
		assert_true(b == ok[i].bytes);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b = 7;
		if (run_setup_parse_size(bad[i], &b) == 0)
			fail_msg("'%s' parsed as %llu", bad[i], b);
		assert_true(b == 7);
	}
	assert_int_equal(run_setup_parse_size(NULL, &b), -1);
}

/* ------------------------------------------------------------------ */
/* the job keys */

static void test_plan_forms(void **state)
{
	struct run_setup_plan p;
	struct strbuf why = STRBUF_INIT;
	struct job *job;
	(void)state;

	job = load("testcase: t\nfs: xfs\ndisk: 1BRD_48G\ncpufreq_governor: performance\n");
	assert_int_equal(run_setup_plan(job, &p, &why), 0);
	assert_string_equal(p.fs_name, "xfs");
	assert_string_equal(run_setup_fs_package(p.fs), "xfsprogs");
	assert_int_equal(p.disk, RUN_DISK_BRD);
	assert_int_equal(p.nr_disks, 1);
	assert_true(p.disk_bytes == 48ULL << 30);
	assert_string_equal(p.disk_desc, "1BRD_48G");
	assert_string_equal(p.governor, "performance");
	assert_false(p.default_disk);
	job_free(job);

	job = load("testcase: t\ndisk: loop_512M\n");
	assert_int_equal(run_setup_plan(job, &p, &why), 0);
	assert_null(p.fs);
	assert_int_equal(p.disk, RUN_DISK_LOOP);
	assert_true(p.disk_bytes == 512ULL << 20);
	job_free(job);

	/* fs without disk: the default loop image */
	job = load("testcase: t\nfs: btrfs\n");
	assert_int_equal(run_setup_plan(job, &p, &why), 0);
	assert_string_equal(run_setup_fs_package(p.fs), "btrfs-progs");
	assert_int_equal(p.disk, RUN_DISK_LOOP);
	assert_true(p.default_disk);
	assert_true(p.disk_bytes == 1ULL << 30);
	assert_string_equal(p.disk_desc, RUN_SETUP_DEFAULT_DISK);
	job_free(job);

	/* tmpfs needs no disk, and lkp ignores one */
	job = load("testcase: t\nfs: tmpfs\ndisk: loop_1G\n");
	assert_int_equal(run_setup_plan(job, &p, &why), 0);
	assert_int_equal(p.disk, RUN_DISK_NONE);
	assert_null(run_setup_fs_package(p.fs));
	job_free(job);

	/* <N>BRD alone: lkp's default ramdisk_size, 1G */
	job = load("testcase: t\ndisk: 2BRD\nfs: f2fs\n");
	assert_int_equal(run_setup_plan(job, &p, &why), 0);
	assert_int_equal(p.nr_disks, 2);
	assert_true(p.disk_bytes == 1ULL << 30);
	assert_string_equal(run_setup_fs_package(p.fs), "f2fs-tools");
	job_free(job);

	/* null values: nothing asked */
	job = load("testcase: t\nfs:\ndisk:\ncpufreq_governor:\n");
	assert_int_equal(run_setup_plan(job, &p, &why), 0);
	assert_null(p.fs);
	assert_int_equal(p.disk, RUN_DISK_NONE);
	assert_null(p.governor);
	job_free(job);
	for (const char *const *e = (const char *const[]){ "ext2", "ext3", "ext4", NULL }; *e; e++) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "testcase: t\nfs: %s\n", *e);
		job = load(t.buf);
		assert_int_equal(run_setup_plan(job, &p, &why), 0);
		assert_string_equal(p.fs_name, *e);
		assert_string_equal(run_setup_fs_package(p.fs), "e2fsprogs");
		job_free(job);
		strbuf_release(&t);
	}
	strbuf_release(&why);
}

/* Each bad value: -1 and a message with the job's file:line:col. */
static void test_plan_errors(void **state)
{
	static const struct { const char *yaml, *msg; } cases[] = {
		{ "testcase: t\nfs: zfs\n",
		  "jobs/t.yaml:2:5: 'fs' expected one of ext2 ext3 ext4 xfs btrfs f2fs tmpfs, got 'zfs'" },
		{ "testcase: t\ndisk: loop_1X\n",
		  "jobs/t.yaml:2:7: 'disk' expected loop_<size> or <N>BRD_<size> (sizes as 512M, 1G), got 'loop_1X'" },
		{ "testcase: t\ndisk: loop_\n", "jobs/t.yaml:2:7: 'disk' expected loop_<size>" },
		{ "testcase: t\ndisk: 0BRD_1G\n", "jobs/t.yaml:2:7: 'disk' expected" },
		{ "testcase: t\ndisk: 1BRD_\n", "jobs/t.yaml:2:7: 'disk' expected" },
		{ "testcase: t\ndisk: 65BRD_1G\n", "jobs/t.yaml:2:7: 'disk' expected" },
		{ "testcase: t\ndisk: ramdisk\n", "jobs/t.yaml:2:7: 'disk' expected" },
		{ "testcase: t\ndisk:\n  - loop_1G\n  - loop_2G\n",
		  "jobs/t.yaml:3:3: 'disk' expected one value (split the job into atomic jobs first)" },
		{ "testcase: t\ncpufreq_governor: 'perf ormance'\n",
		  "jobs/t.yaml:2:20: 'cpufreq_governor' expected a governor name as performance, got 'perf ormance'" },
		/* a bad key wins over one that cannot work here */
		{ "testcase: t\nfs: nfsv3\ndisk: loop_1Q\n", "jobs/t.yaml:3:7: 'disk' expected" },
	};
	struct run_setup_plan p;
	struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture c;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct job *job = load(cases[i].yaml);
		strbuf_reset(&err);
		capture_start(&c);
		int r = run_setup_plan(job, &p, &why);
		capture_end_sb(&c, &err);
		if (r != -1 || !strstr(err.buf, cases[i].msg))
			fail_msg("case %zu: r=%d, stderr '%s', expected '%s'", i, r, err.buf,
				 cases[i].msg);
		job_free(job);
	}
	/* cpufreq_governor has no options: a mapping (made by code, files
	 * cannot: the loader refuses it) is an error */
	struct job *job = job_new();
	job_set_value(job, "cpufreq_governor", job_value_new(JOB_MAP));
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(run_setup_plan(job, &p, &why), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "<job>: 'cpufreq_governor' expected a scalar"));
	job_free(job);
	strbuf_release(&why);
	strbuf_release(&err);
}

/* Known to lkp, not done by perfbot: 1 with the reason. */
static void test_plan_cannot(void **state)
{
	static const struct { const char *yaml, *why; } cases[] = {
		{ "testcase: t\ndisk: 1HDD\n", "disk '1HDD' names the host's own HDD disks" },
		{ "testcase: t\ndisk: 2SSD\nfs: xfs\n", "disk '2SSD' names the host's own SSD disks" },
		{ "testcase: t\ndisk: 1PMEM\n", "host's own PMEM disks" },
		{ "testcase: t\ndisk: 1SRD_1G\n", "host's own SRD disks" },
		{ "testcase: t\nfs: nfsv3\n", "fs 'nfsv3' is an NFS export" },
		{ "testcase: t\nfs: smbv3\n", "fs 'smbv3' is a CIFS/SMB share" },
		{ "testcase: t\nfs: ocfs2\n", "fs 'ocfs2' is a cluster fs" },
		{ "testcase: t\nfs: xfs\nfs2: nfsv4\n", "fs2 'nfsv4' (lkp's export of the fs over NFS/CIFS)" },
		/* lkp's setup programs with options (fio-basic-local-disk.yaml):
		 * the first one is the reason, with its place */
		{ "testcase: t\nfs:\n  fs: ext4\n  format: n\ndisk:\n  nr_pmem: 4\n",
		  "jobs/t.yaml:3:3: 'fs' with options (lkp's programs/fs/setup) is not set up by perfbot" },
		{ "testcase: t\ndisk:\n  nr_pmem: 4\n",
		  "jobs/t.yaml:3:3: 'disk' with options (lkp's programs/disk/setup) is not set up by perfbot" },
	};
	struct run_setup_plan p;
	struct strbuf why = STRBUF_INIT;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct job *job = load(cases[i].yaml);
		strbuf_reset(&why);
		int r = run_setup_plan(job, &p, &why);
		if (r != 1 || !strstr(why.buf, cases[i].why))
			fail_msg("case %zu: r=%d, why '%s'", i, r, why.buf);
		/* one reason, not one per key */
		if (strstr(why.buf, "with options") &&
		    strstr(strstr(why.buf, "with options") + 1, "with options"))
			fail_msg("case %zu: two reasons: '%s'", i, why.buf);
		job_free(job);
	}
	strbuf_release(&why);
}

/* apply of a "cannot" plan: 1, message on stderr and in the log, no change */
static void test_apply_cannot_changes_nothing(void **state)
{
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf log = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture c;
	char *base = test_tmpdir("setup");
	struct strbuf wb = STRBUF_INIT;
	struct job *job = load("testcase: t\nfs: nfsv4\n");
	(void)state;

	path_join(&wb, base, "work");
	capture_start(&c);
	assert_int_equal(setup_apply_job(job, wb.buf, &s, &log), 1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "perfbot: fs 'nfsv4' is an NFS export"));
	assert_non_null(strstr(log.buf, "setup: cannot work here: fs 'nfsv4'"));
	assert_false(is_dir(wb.buf));
	assert_null(s.env);
	assert_int_equal(run_setup_undo(&s, &log), 0);
	job_free(job);

	/* nothing asked: 0, nothing made */
	job = load("testcase: t\n");
	assert_int_equal(setup_apply_job(job, wb.buf, &s, &log), 0);
	assert_null(s.mnt);
	assert_null(s.env);
	assert_false(is_dir(wb.buf));
	assert_int_equal(run_setup_undo(&s, &log), 0);
	assert_int_equal(run_setup_undo(&s, &log), 0);
	job_free(job);

	/* a zeroed struct undoes to nothing too */
	struct run_setup z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(run_setup_undo(&z, &log), 0);
	test_rm_rf(base);
	free(base);
	strbuf_release(&wb);
	strbuf_release(&log);
	strbuf_release(&err);
}

/* A missing mkfs or losetup: 1, naming the tool and its Debian package. */
static void test_missing_tools(void **state)
{
	static const struct { const char *yaml, *msg; bool with_losetup; } cases[] = {
		{ "testcase: t\nfs: ext4\ndisk: loop_64M\n",
		  "'losetup' not found in PATH: install the Debian package mount", false },
		{ "testcase: t\ndisk: loop_64M\n", "'losetup' not found", false },
		{ "testcase: t\nfs: ext4\ndisk: loop_64M\n",
		  "'mkfs.ext4' not found in PATH: install the Debian package e2fsprogs", true },
		{ "testcase: t\nfs: ext3\n", "'mkfs.ext3' not found in PATH: install the Debian package e2fsprogs", true },
		{ "testcase: t\nfs: xfs\n", "'mkfs.xfs' not found in PATH: install the Debian package xfsprogs", true },
		{ "testcase: t\nfs: btrfs\n", "'mkfs.btrfs' not found in PATH: install the Debian package btrfs-progs", true },
		{ "testcase: t\nfs: f2fs\n", "'mkfs.f2fs' not found in PATH: install the Debian package f2fs-tools", true },
		{ "testcase: t\ndisk: 1BRD_1G\n", "'modprobe' not found in PATH: install the Debian package kmod", false },
	};
	char *bin = test_tmpdir("setup"), *base = test_tmpdir("setup");
	struct strbuf link = STRBUF_INIT, log = STRBUF_INIT, err = STRBUF_INIT, wb = STRBUF_INIT;
	char *old_path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char *empty = test_tmpdir("setup");
	struct stderr_capture c;
	(void)state;

	/* a PATH with only a fake losetup in it */
	path_join(&link, bin, "losetup");
	write_text(bin, "losetup", "#!/bin/sh\nexit 1\n");
	assert_int_equal(chmod(link.buf, 0755), 0);
	path_join(&wb, base, "work");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_setup s = RUN_SETUP_INIT;
		struct job *job = load(cases[i].yaml);
		setenv("PATH", cases[i].with_losetup ? bin : empty, 1);
		strbuf_reset(&err);
		strbuf_reset(&log);
		capture_start(&c);
		int r = setup_apply_job(job, wb.buf, &s, &log);
		capture_end_sb(&c, &err);
		setenv("PATH", old_path, 1);
		if (r != 1 || !strstr(err.buf, cases[i].msg) || !strstr(log.buf, cases[i].msg))
			fail_msg("case %zu: r=%d, stderr '%s'", i, r, err.buf);
		assert_false(is_dir(wb.buf));
		job_free(job);
	}
	test_rm_rf(bin);
	test_rm_rf(base);
	test_rm_rf(empty);
	free(bin);
	free(base);
	free(empty);
	free(old_path);
	strbuf_release(&link);
	strbuf_release(&log);
	strbuf_release(&err);
	strbuf_release(&wb);
}

/* ------------------------------------------------------------------ */
/* cpufreq_governor on a fake sysfs tree: the journal without root */

static char *fake_cpufreq(void)
{
	char *root = test_tmpdir("setup");
	for (int i = 0; i < 3; i++) {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "cpu%d/cpufreq/scaling_governor", i);
		write_text(root, rel.buf, "powersave\n");
		strbuf_reset(&rel);
		strbuf_addf(&rel, "cpu%d/cpufreq/scaling_available_governors", i);
		write_text(root, rel.buf, "performance powersave\n");
		strbuf_release(&rel);
	}
	write_text(root, "cpu2/online", "0\n");          /* offline: left alone */
	write_text(root, "cpufreq/boost", "1\n");        /* not a cpuN dir */
	write_text(root, "cpu1/online", "1\n");
	return root;
}

static void assert_governors(const char *root, const char *g0, const char *g1, const char *g2)
{
	struct strbuf v = STRBUF_INIT;
	read_text(root, "cpu0/cpufreq/scaling_governor", &v);
	assert_string_equal(v.buf, g0);
	read_text(root, "cpu1/cpufreq/scaling_governor", &v);
	assert_string_equal(v.buf, g1);
	read_text(root, "cpu2/cpufreq/scaling_governor", &v);
	assert_string_equal(v.buf, g2);
	strbuf_release(&v);
}

static void test_governor_apply_undo(void **state)
{
	char *root = fake_cpufreq(), *base = test_tmpdir("setup");
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf log = STRBUF_INIT, err = STRBUF_INIT;
	struct job *job = load("testcase: t\ncpufreq_governor: performance\n");
	struct stderr_capture c;
	(void)state;

	s.cpu_sysfs = root;
	assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
	assert_governors(root, "performance", "performance", "powersave");
	assert_non_null(strstr(log.buf, "setup: cpufreq_governor performance on 2 CPUs"));
	assert_null(s.mnt);
	assert_int_equal(setup_entries(base), 1);     /* the journal */
	/* applying again without undo is refused */
	capture_start(&c);
	assert_int_equal(setup_apply_job(job, base, &s, &log), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "already applied"));
	assert_int_equal(run_setup_undo(&s, &log), 0);
	assert_governors(root, "powersave", "powersave", "powersave");
	assert_int_equal(setup_entries(base), 0);
	assert_int_equal(run_setup_undo(&s, &log), 0);
	assert_ptr_equal(s.cpu_sysfs, root);             /* inputs kept */
	job_free(job);

	/* a governor the CPUs do not offer: 1, nothing changed */
	job = load("testcase: t\ncpufreq_governor: ondemand\n");
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(setup_apply_job(job, base, &s, &log), 1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "cpufreq governor 'ondemand' is not available here"));
	assert_governors(root, "powersave", "powersave", "powersave");
	assert_int_equal(setup_entries(base), 0);
	job_free(job);

	/* no cpufreq (a VM): logged as skipped, nothing made */
	char *none = test_tmpdir("setup");
	job = load("testcase: t\ncpufreq_governor: performance\n");
	s.cpu_sysfs = none;
	strbuf_reset(&log);
	assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
	assert_non_null(strstr(log.buf, "cpufreq_governor: skipped: no cpufreq"));
	assert_int_equal(setup_entries(base), 0);
	assert_int_equal(run_setup_undo(&s, &log), 0);
	job_free(job);

	test_rm_rf(root);
	test_rm_rf(base);
	test_rm_rf(none);
	free(root);
	free(base);
	free(none);
	strbuf_release(&log);
	strbuf_release(&err);
}

/* The process that applied dies without undo; a later cleanup restores. */
static void test_governor_crash_cleanup(void **state)
{
	char *root = fake_cpufreq(), *base = test_tmpdir("setup");
	struct strbuf log = STRBUF_INIT;
	struct run_setup s = RUN_SETUP_INIT;
	int status;
	(void)state;

	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct run_setup cs = RUN_SETUP_INIT;
		struct strbuf clog = STRBUF_INIT;
		struct job *job = load("testcase: t\ncpufreq_governor: performance\n");
		cs.cpu_sysfs = root;
		int r = setup_apply_job(job, base, &cs, &clog);
		/* s freed and reset, nothing undone: the governors and the
		 * journal stay, as after kill -9 */
		run_setup_forget(&cs);
		_exit(r == 0 && !cs.journal.len && !cs.state_path && !cs.nr_devs &&
		      cs.cpu_sysfs == root ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_governors(root, "performance", "performance", "powersave");
	assert_int_equal(setup_entries(base), 1);

	/* a live owner's journal (on its own tree) is left alone */
	char *root2 = fake_cpufreq();
	struct job *job = load("testcase: t\ncpufreq_governor: performance\n");
	s.cpu_sysfs = root2;
	assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
	assert_int_equal(setup_entries(base), 2);

	strbuf_reset(&log);
	assert_int_equal(run_setup_cleanup_stale(base, root, &log), 1);
	assert_non_null(strstr(log.buf, "still runs, left alone"));
	assert_non_null(strstr(log.buf, "cleaning up after pid"));
	assert_int_equal(setup_entries(base), 1);
	assert_governors(root, "powersave", "powersave", "powersave");
	assert_governors(root2, "performance", "performance", "powersave");
	assert_int_equal(run_setup_undo(&s, &log), 0);
	assert_governors(root2, "powersave", "powersave", "powersave");
	assert_int_equal(run_setup_cleanup_stale(base, root, &log), 0);
	assert_int_equal(setup_entries(base), 0);
	job_free(job);
	test_rm_rf(root2);
	free(root2);

	/* a journal torn mid-line and write_file_atomic's leftovers */
	write_text(base, "setup-999999999-0.state",
		   "perfbot-setup 1\nowner 999999999 1\ngovernor powersave ");
	write_text(base, "setup-999999999-0.state.tmp.999999999", "x");
	assert_int_equal(run_setup_cleanup_stale(base, root, &log), 1);
	assert_int_equal(setup_entries(base), 0);

	/* a journal of an unknown version is refused and kept */
	struct strbuf err = STRBUF_INIT;
	struct stderr_capture c;
	write_text(base, "setup-999999999-1.state", "perfbot-setup 9\nowner 999999999 1\n");
	capture_start(&c);
	assert_int_equal(run_setup_cleanup_stale(base, root, &log), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "journal version 9, this perfbot reads 1"));
	assert_int_equal(setup_entries(base), 1);
	/* a missing work dir has nothing to clean */
	assert_int_equal(run_setup_cleanup_stale("/nonexistent/perfbot-setup", NULL, &log), 0);

	test_rm_rf(root);
	test_rm_rf(base);
	free(root);
	free(base);
	strbuf_release(&log);
	strbuf_release(&err);
}

/* ------------------------------------------------------------------ */
/* as root: real loop images, mkfs, mount */

static bool can_loop(void)
{
	if (geteuid() != 0) {
		print_message("skipped: needs root\n");
		return false;
	}
	if (access("/dev/loop-control", F_OK) < 0) {
		print_message("skipped: no /dev/loop-control\n");
		return false;
	}
	return true;
}

static bool fs_usable(const char *fs, const char *mkfs)
{
	struct strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	bool ok;

	strbuf_addf(&cmd, "command -v %s >/dev/null && grep -qw %s /proc/filesystems", mkfs, fs);
	char *const argv[] = { "sh", "-c", cmd.buf, NULL };
	ok = capture_command(argv, NULL, &sb) == 0;
	if (!ok)
		print_message("skipped %s: no %s or no kernel support\n", fs, mkfs);
	strbuf_release(&sb);
	strbuf_release(&cmd);
	return ok;
}

/* Nothing of base left mounted or attached, no journal or setup dir. */
static void assert_clean(const char *base)
{
	struct strbuf mounts = STRBUF_INIT, loops = STRBUF_INIT;
	char *const losetup[] = { "losetup", "-a", NULL };

	assert_int_equal(read_file(&mounts, "/proc/mounts"), 0);
	if (strstr(mounts.buf, base))
		fail_msg("still mounted under %s:\n%s", base, mounts.buf);
	assert_int_equal(capture_command(losetup, NULL, &loops), 0);
	if (strstr(loops.buf, base) || strstr(loops.buf, "/dev/shm/perfbot-setup-"))
		fail_msg("still attached:\n%s", loops.buf);
	assert_int_equal(setup_entries(base), 0);
	strbuf_release(&mounts);
	strbuf_release(&loops);
}

static void check_mounted(const struct run_setup *s, const char *fstype)
{
	struct strbuf mounts = STRBUF_INIT, line = STRBUF_INIT;

	assert_int_equal(read_file(&mounts, "/proc/mounts"), 0);
	strbuf_addf(&line, " %s %s ", s->mnt, fstype);
	if (!strstr(mounts.buf, line.buf))
		fail_msg("'%s' not in /proc/mounts:\n%s", line.buf, mounts.buf);
	strbuf_release(&mounts);
	strbuf_release(&line);
}

/* Write and read back a file on the mounted fs. */
static void write_on(const char *mnt)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT;

	path_join(&path, mnt, "hello");
	assert_int_equal(write_file_atomic(path.buf, "hello\n", 6), 0);
	assert_int_equal(read_file(&got, path.buf), 0);
	assert_string_equal(got.buf, "hello\n");
	strbuf_release(&path);
	strbuf_release(&got);
}

static void test_loop_fs_roundtrip(void **state)
{
	static const struct { const char *fs, *mkfs; } fss[] = {
		{ "ext4", "mkfs.ext4" }, { "xfs", "mkfs.xfs" }, { "btrfs", "mkfs.btrfs" },
		{ "f2fs", "mkfs.f2fs" },
	};
	(void)state;

	if (!can_loop())
		skip();
	for (size_t i = 0; i < sizeof(fss) / sizeof(fss[0]); i++) {
		if (!fs_usable(fss[i].fs, fss[i].mkfs))
			continue;
		char *base = test_tmpdir("setup");
		struct strbuf yaml = STRBUF_INIT, log = STRBUF_INIT, want = STRBUF_INIT;
		struct run_setup s = RUN_SETUP_INIT;
		/* mkfs.xfs wants at least 300 MiB; the image is sparse */
		strbuf_addf(&yaml, "testcase: t\nfs: %s\ndisk: loop_512M\n", fss[i].fs);
		struct job *job = load(yaml.buf);
		assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
		assert_non_null(s.mnt);
		assert_string_equal(s.fs, fss[i].fs);
		assert_int_equal(s.nr_devs, 1);
		assert_non_null(strstr(s.devs[0].dev, "/dev/loop"));
		check_mounted(&s, fss[i].fs);
		write_on(s.mnt);
		assert_string_equal(env_get(&s, "PERFBOT_FS_DIR"), s.mnt);
		assert_string_equal(env_get(&s, "mount_points"), s.mnt);
		assert_string_equal(env_get(&s, "partitions"), s.devs[0].dev);
		assert_string_equal(env_get(&s, "nr_partitions"), "1");
		strbuf_addf(&want, "setup: mounted %s on %s (%s", s.devs[0].dev, s.mnt, fss[i].fs);
		assert_non_null(strstr(log.buf, want.buf));
		assert_int_equal(run_setup_undo(&s, &log), 0);
		assert_null(s.mnt);
		assert_null(s.env);
		assert_clean(base);
		assert_int_equal(run_setup_undo(&s, &log), 0);
		print_message("%s: ok\n", fss[i].fs);
		job_free(job);
		test_rm_rf(base);
		free(base);
		strbuf_release(&yaml);
		strbuf_release(&log);
		strbuf_release(&want);
	}
}

static void test_tmpfs_and_default_disk(void **state)
{
	char *base;
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf log = STRBUF_INIT;
	struct job *job;
	(void)state;

	if (!can_loop())
		skip();
	base = test_tmpdir("setup");
	job = load("testcase: t\nfs: tmpfs\n");
	assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
	check_mounted(&s, "tmpfs");
	write_on(s.mnt);
	assert_null(env_get(&s, "partitions"));
	assert_int_equal(run_setup_undo(&s, &log), 0);
	assert_clean(base);
	job_free(job);

	/* fs alone gets RUN_SETUP_DEFAULT_DISK */
	job = load("testcase: t\nfs: ext4\n");
	assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
	assert_non_null(strstr(log.buf, "fs ext4 without disk: using " RUN_SETUP_DEFAULT_DISK));
	check_mounted(&s, "ext4");
	assert_int_equal(run_setup_undo(&s, &log), 0);
	assert_clean(base);
	job_free(job);
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
}

/* Sizes past free space or RAM are refused before any change. */
static void test_too_large(void **state)
{
	char *base = test_tmpdir("setup");
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf log = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture c;
	struct job *job;
	(void)state;

	if (!can_loop()) {
		test_rm_rf(base);
		free(base);
		skip();
	}
	job = load("testcase: t\nfs: ext4\ndisk: loop_100P\n");
	capture_start(&c);
	assert_int_equal(setup_apply_job(job, base, &s, &log), 1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "disk 'loop_100P' needs 100 PiB but only "));
	assert_non_null(strstr(err.buf, "is free under"));
	assert_int_equal(setup_entries(base), 0);
	job_free(job);

	/* brd (or its fallback) is RAM: 100 TiB is more than any test box */
	job = load("testcase: t\nfs: ext4\ndisk: 1BRD_100T\n");
	s.brd_fallback = true;
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(setup_apply_job(job, base, &s, &log), 1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "disk '1BRD_100T' needs 100 TiB of RAM but only"));
	assert_clean(base);
	job_free(job);
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&err);
}

/* An open file keeps the fs busy: undo retries, then unmounts lazily. */
static void test_busy_unmount(void **state)
{
	char *base;
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf log = STRBUF_INIT, path = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture c;
	struct job *job;
	int fd;
	(void)state;

	if (!can_loop())
		skip();
	base = test_tmpdir("setup");
	job = load("testcase: t\nfs: ext4\ndisk: loop_64M\n");
	assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
	path_join(&path, s.mnt, "busy");
	fd = open(path.buf, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	capture_start(&c);
	assert_int_equal(run_setup_undo(&s, &log), 0);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(log.buf, "lazily (busy)"));
	assert_non_null(strstr(err.buf, "unmounted lazily"));
	close(fd);
	/* the detached mount goes with the last fd; then the loop auto-clears */
	for (int i = 0; i < 50; i++) {
		struct strbuf loops = STRBUF_INIT;
		char *const argv[] = { "losetup", "-a", NULL };
		capture_command(argv, NULL, &loops);
		bool gone = !strstr(loops.buf, base);
		strbuf_release(&loops);
		if (gone)
			break;
		usleep(100000);
	}
	assert_clean(base);
	job_free(job);
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&path);
	strbuf_release(&err);
}

static void kill_at(const char *step, void *data)
{
	if (!strcmp(step, (const char *)data))
		raise(SIGKILL);
}

/*
 * A perfbot-like child killed with SIGKILL at each journal step (before
 * the change that step announces), and one that finishes the setup and
 * exits without undo; each time run_setup_cleanup_stale must leave
 * nothing behind.
 */
static void test_killed_mid_setup(void **state)
{
	static const char *const steps[] = { "dir", "image", "loop", "mountdir", "mount", NULL };
	(void)state;

	if (!can_loop())
		skip();
	for (size_t i = 0; i <= 5; i++) {
		const char *step = steps[i];
		char *base = test_tmpdir("setup");
		struct strbuf log = STRBUF_INIT;
		int status;
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct run_setup cs = RUN_SETUP_INIT;
			struct strbuf clog = STRBUF_INIT;
			struct job *job = load("testcase: t\nfs: ext4\ndisk: loop_64M\n");
			if (step) {
				cs.on_step = kill_at;
				cs.on_step_data = (void *)step;
			}
			_exit(setup_apply_job(job, base, &cs, &clog) == 0 ? 0 : 1);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (step)
			assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		else
			assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		assert_int_equal(setup_entries(base), step && !strcmp(step, "dir") ? 1 : 2);
		assert_int_equal(run_setup_cleanup_stale(base, NULL, &log), 1);
		assert_clean(base);
		print_message("killed at %s: cleaned\n", step ? step : "(end, no undo)");
		test_rm_rf(base);
		free(base);
		strbuf_release(&log);
	}
}

/* A fake /sys/module with brd built in (no initstate) or loaded. */
static char *fake_brd(const char *nr, const char *size, bool loaded)
{
	char *root = test_tmpdir("setup");

	write_text(root, "brd/parameters/rd_nr", nr);
	write_text(root, "brd/parameters/rd_size", size);
	if (loaded)
		write_text(root, "brd/initstate", "live\n");
	return root;
}

/* The apply of job with modules at root: its return; stderr in err. */
static int apply_with_modules(const char *job_text, const char *root, const char *base,
			      struct run_setup *s, struct strbuf *log, struct strbuf *err)
{
	struct job *job = load(job_text);
	struct stderr_capture c;
	int r;

	s->module_sysfs = root;
	capture_start(&c);
	r = setup_apply_job(job, base, s, log);
	capture_end_sb(&c, err);
	job_free(job);
	return r;
}

/* A built-in brd is used as it is when its disks are the job's (count
 * at least, size exactly); else refused naming the boot parameters; a
 * loaded brd is refused as before. */
static void test_brd_builtin(void **state)
{
	struct strbuf log = STRBUF_INIT, err = STRBUF_INIT;
	char *base = test_tmpdir("setup"), *root;
	struct run_setup s = RUN_SETUP_INIT;
	const char *job = "testcase: t\ndisk: 2BRD_64M\n";
	int r;
	(void)state;

	if (geteuid() != 0 || !program_in_path("modprobe"))
		skip();
	/* refused: the size differs (saying what to boot with), one disk
	 * too few, and brd loaded as a module as always */
	static const struct { const char *nr, *size; bool loaded; const char *want; } no[] = {
		{ "2\n", "1048576\n", false, "disk '2BRD_64M': brd is built into this kernel with "
		  "2 RAM disks of 1048576 KiB, and built-in RAM disks cannot be resized (boot "
		  "with brd.rd_nr=2 brd.rd_size=65536); use disk: loop_64M instead\n" },
		{ "1\n", "65536\n", false, "with 1 RAM disks of 65536 KiB" },
		{ "2\n", "65536\n", true, "brd is already loaded" },
	};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		strbuf_reset(&err);
		root = fake_brd(no[i].nr, no[i].size, no[i].loaded);
		assert_int_equal(apply_with_modules(job, root, base, &s, &log, &err), 1);
		if (!strstr(err.buf, no[i].want))
			fail_msg("case %zu: '%s' not in '%s'", i, no[i].want, err.buf);
		test_rm_rf(root);
		free(root);
	}
	assert_int_equal(setup_entries(base), 0);
	/* it fits (more disks than asked are fine): no modprobe, the
	 * disks as they are; whether this host has /dev/ram0 and /dev/ram1
	 * free decides the rest, each way named */
	strbuf_reset(&err);
	strbuf_reset(&log);
	root = fake_brd("4\n", "65536\n", false);
	r = apply_with_modules(job, root, base, &s, &log, &err);
	assert_non_null(strstr(log.buf, "setup: brd built in: 2 RAM disks (rd_nr=2 rd_size=65536)\n"));
	assert_null(strstr(log.buf, "modprobe brd"));
	if (r == 0) {
		assert_int_equal(s.nr_devs, 2);
		assert_string_equal(s.devs[1].dev, "/dev/ram1");
		assert_int_equal(run_setup_undo(&s, &log), 0);
	} else {
		assert_int_equal(r, -1);
		assert_true(strstr(err.buf, "'/dev/ram0' is missing, though brd is built in") ||
			    strstr(err.buf, "'/dev/ram1' is missing, though brd is built in") ||
			    strstr(err.buf, "cannot use the built-in RAM disk '/dev/ram"));
	}
	assert_clean(base);
	test_rm_rf(root);
	free(root);
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&err);
}

/* brd where the kernel has it; else 1 naming brd, and the opt-in
 * fallback to RAM-backed loop images in /dev/shm. */
static void test_brd_or_fallback(void **state)
{
	char *base;
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf log = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture c;
	struct job *job;
	int r;
	(void)state;

	if (!can_loop() || !fs_usable("ext4", "mkfs.ext4"))
		skip();
	if (access("/sys/module/brd", F_OK) == 0) {
		print_message("skipped: brd is already loaded here\n");
		skip();
	}
	base = test_tmpdir("setup");
	job = load("testcase: t\nfs: ext4\ndisk: 1BRD_64M\n");
	capture_start(&c);
	r = setup_apply_job(job, base, &s, &log);
	capture_end_sb(&c, &err);
	if (r == 0) {
		print_message("brd works here\n");
		assert_string_equal(s.devs[0].dev, "/dev/ram0");
		check_mounted(&s, "ext4");
		assert_int_equal(run_setup_undo(&s, &log), 0);
		assert_true(access("/sys/module/brd", F_OK) < 0);
	} else {
		print_message("brd: %s", err.buf);
		assert_int_equal(r, 1);
		assert_non_null(strstr(err.buf, "no brd module (CONFIG_BLK_DEV_RAM)"));
		assert_non_null(strstr(log.buf, "setup: cannot work here: jobs/t.yaml:3:7: disk '1BRD_64M': this kernel"));
		assert_non_null(strstr(err.buf, "; use disk: loop_64M instead\n"));
		assert_int_equal(setup_entries(base), 0);
	}
	assert_clean(base);

	s.brd_fallback = true;
	assert_int_equal(setup_apply_job(job, base, &s, &log), 0);
	check_mounted(&s, "ext4");
	write_on(s.mnt);
	if (r != 0) {
		assert_non_null(strstr(log.buf, "falling back to loop images in /dev/shm"));
		assert_non_null(s.devs[0].image);
		assert_true(!strncmp(s.devs[0].image, "/dev/shm/perfbot-setup-", 23));
		assert_true(file_exists(s.devs[0].image));
	}
	char *image = s.devs[0].image ? xstrdup(s.devs[0].image) : NULL;
	assert_int_equal(run_setup_undo(&s, &log), 0);
	if (image)
		assert_false(file_exists(image));
	free(image);
	assert_clean(base);
	job_free(job);
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&err);
}

/* Not root: 1 naming root, checked in a child that drops to nobody. */
static void test_needs_root(void **state)
{
	char *base = test_tmpdir("setup");
	int status;
	(void)state;

	if (geteuid() == 0 && chmod(base, 0777) < 0)
		fail_msg("chmod: %s", strerror(errno));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct run_setup s = RUN_SETUP_INIT;
		struct strbuf log = STRBUF_INIT, wb = STRBUF_INIT;
		struct job *job = load("testcase: t\nfs: tmpfs\n");
		struct job *job2 = load("testcase: t\ndisk: loop_64M\n");
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);          /* the expected messages */
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(3);
		path_join(&wb, base, "work");
		if (setup_apply_job(job, wb.buf, &s, &log) != 1 ||
		    !strstr(log.buf, "setting up fs 'tmpfs' needs root"))
			_exit(4);
		/* without losetup in PATH the tool is named first */
		if (setup_apply_job(job2, wb.buf, &s, &log) != 1 ||
		    (!strstr(log.buf, "setting up disk 'loop_64M' needs root") &&
		     !strstr(log.buf, "'losetup' not found")))
			_exit(5);
		_exit(is_dir(wb.buf) ? 6 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	test_rm_rf(base);
	free(base);
}

/* ------------------------------------------------------------------ */
/* the driver for tests/t/t0900-fs.sh */

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int driver(int argc, char **argv)
{
	struct strbuf log = STRBUF_INIT;
	struct run_setup s = RUN_SETUP_INIT;
	bool hold = false;
	int r;

	if (argc >= 3 && !strcmp(argv[1], "--cleanup")) {
		r = run_setup_cleanup_stale(argv[2], argc > 3 ? argv[3] : NULL, &log);
		printf("cleaned=%d\n%s", r, log.buf);
		strbuf_release(&log);
		return r < 0 ? 2 : 0;
	}
	if (argc < 4 || strcmp(argv[1], "--apply")) {
		fprintf(stderr, "usage: test_setup --apply JOB BASE [--hold] [--brd-fallback]\n"
			"       test_setup --cleanup BASE [CPU_SYSFS]\n");
		return 2;
	}
	for (int i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "--hold"))
			hold = true;
		else if (!strcmp(argv[i], "--brd-fallback"))
			s.brd_fallback = true;
	}
	struct job *job;
	if (job_load(argv[2], &job) < 0)
		return 2;
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	r = setup_apply_job(job, argv[3], &s, &log);
	printf("rc=%d\n", r);
	if (s.mnt)
		printf("mnt=%s\n", s.mnt);
	for (size_t i = 0; s.env && s.env[i]; i++)
		printf("env %s\n", s.env[i]);
	printf("%s", log.buf);
	job_free(job);
	if (r || !hold) {
		/* !hold leaves it all set up: a crash */
		run_setup_forget(&s);
		strbuf_release(&log);
		return r < 0 ? 2 : r;
	}
	printf("ready\n");
	fflush(stdout);
	while (!stop_flag)
		pause();
	strbuf_reset(&log);
	r = run_setup_undo(&s, &log);
	printf("undo=%d\n%s", r, log.buf);
	strbuf_release(&log);
	return r < 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_plan_forms),
		cmocka_unit_test(test_plan_errors),
		cmocka_unit_test(test_plan_cannot),
		cmocka_unit_test(test_apply_cannot_changes_nothing),
		cmocka_unit_test(test_missing_tools),
		cmocka_unit_test(test_governor_apply_undo),
		cmocka_unit_test(test_governor_crash_cleanup),
		cmocka_unit_test(test_needs_root),
		cmocka_unit_test(test_loop_fs_roundtrip),
		cmocka_unit_test(test_tmpfs_and_default_disk),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_busy_unmount),
		cmocka_unit_test(test_killed_mid_setup),
		cmocka_unit_test(test_brd_or_fallback),
		cmocka_unit_test(test_brd_builtin),
	};
	if (argc > 1)
		return driver(argc, argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
