/*
 * test_workdir: the private work dir and what a setup journal may name
 * (src/run/workdir.h), the refusals of run_setup_cleanup_stale, and the
 * reaping of a killed perfbot's ".run-K.<pid>" dirs (src/run/leftovers.h).
 * The ownership cases need root (chown to nobody); they say so otherwise.
 */
#include "test_helpers.h"
#include "run/leftovers.h"
#include "run/setup.h"
#include "run/workdir.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

static char *join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	path_join(&sb, dir, name);
	return strbuf_detach(&sb, NULL);
}

static void put(const char *path, const char *text)
{
	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
}

/* ---- run_journal_check ---------------------------------------------- */

#define W "/run/perfbot"
#define J W "/setup-12-0.state"
#define D W "/setup-12-0"
#define HEAD "perfbot-setup 1\nowner 12 345\n"

static void test_journal_lines(void **state)
{
	static const struct { const char *text, *why; } cases[] = {
		/* what perfbot writes, every kind of line */
		{ HEAD "dir " D "\nimage " D "/disk0.img\nloop /dev/loop7 " D "/disk0.img\n"
		  "mountdir " D "/mnt0\nmount " D "/mnt0\n", NULL },
		{ HEAD "brd 2\nmountdir " D "/mnt1\nmount " D "/mnt1\n", NULL },
		{ HEAD "image /dev/shm/perfbot-setup-12-0-ram0.img\n"
		  "loop /dev/loop0 /dev/shm/perfbot-setup-12-0-ram0.img\n", NULL },
		{ HEAD "governor powersave /sys/devices/system/cpu/cpu15/cpufreq/scaling_governor\n",
		  NULL },
		/* a torn last line is never replayed, so never judged */
		{ HEAD "image /etc/pass", NULL },
		/* anything else */
		{ HEAD "image /etc/passwd\n",
		  "line 3: image /etc/passwd: not an image perfbot makes (<setup dir>/disk<N>.img)" },
		{ HEAD "image " D "/../../../etc/disk0.img\n",
		  "line 3: image " D "/../../../etc/disk0.img: not an image perfbot makes" },
		{ HEAD "image " D "/disk.img\n", "line 3: image " D "/disk.img: not an image" },
		{ HEAD "image " D "/disk0.img.x\n", "not an image perfbot makes" },
		{ HEAD "image /dev/shm/perfbot-setup-13-0-ram0.img\n", "not an image perfbot makes" },
		{ HEAD "dir /etc\n", "line 3: dir /etc: not this journal's own setup dir" },
		{ HEAD "dir " W "/setup-12-1\n", "not this journal's own setup dir" },
		{ HEAD "mount /home\n", "line 3: mount /home: not a mount point perfbot makes" },
		{ HEAD "mountdir " D "/mnt0/x\n", "not a mount point perfbot makes" },
		{ HEAD "mount " D "-evil/mnt0\n", "not a mount point perfbot makes" },
		{ HEAD "loop /dev/sda " D "/disk0.img\n", "not a loop device on an image perfbot makes" },
		{ HEAD "loop /dev/loop0 /etc/passwd\n", "not a loop device on an image" },
		{ HEAD "loop /dev/loop0\n", "not a loop device on an image" },
		{ HEAD "governor x /etc/shadow\n",
		  "line 3: governor x /etc/shadow: not a scaling_governor file of the cpu sysfs tree" },
		{ HEAD "governor x /sys/devices/system/cpu/cpu0/cpufreq/../../../../../etc/shadow\n",
		  "not a scaling_governor file" },
		{ HEAD "governor x /sys/devices/system/cpu/cpuX/cpufreq/scaling_governor\n",
		  "not a scaling_governor file" },
		{ HEAD "governor x /sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq\n",
		  "not a scaling_governor file" },
		{ HEAD "governor a/b /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor\n",
		  "not a cpufreq governor's name" },
		{ HEAD "brd many\n", "not a number of RAM disks" },
		{ HEAD "rm -rf /\n", "line 3: rm -rf /: not a step perfbot journals" },
		{ HEAD "dir " D "\nimage " D "/disk0.img\nmount /\n", "line 5: mount /:" },
	};
	struct strbuf why = STRBUF_INIT;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&why);
		int r = run_journal_check(cases[i].text, J, NULL, &why);
		if (!cases[i].why) {
			if (r != 0)
				fail_msg("case %zu refused: %s", i, why.buf);
			continue;
		}
		if (r != -1 || !strstr(why.buf, cases[i].why))
			fail_msg("case %zu: want '%s', got %d '%s'", i, cases[i].why, r, why.buf);
	}
	/* a test's cpu tree instead of /sys */
	strbuf_reset(&why);
	assert_int_equal(run_journal_check(HEAD "governor performance /fake/sys/devices/system/"
					   "cpu/cpu0/cpufreq/scaling_governor\n",
					   J, "/fake/sys/devices/system/cpu", &why), 0);
	assert_int_equal(run_journal_check(HEAD "governor performance /sys/devices/system/"
					   "cpu/cpu0/cpufreq/scaling_governor\n",
					   J, "/fake/sys/devices/system/cpu", &why), -1);
	/* the journal's own name decides its setup dir */
	strbuf_reset(&why);
	assert_int_equal(run_journal_check(HEAD, W "/evil.state", NULL, &why), -1);
	assert_string_equal(why.buf, "'evil.state' is not named setup-<pid>-<n>.state");
	strbuf_reset(&why);
	assert_int_equal(run_journal_check(HEAD, W "/setup-1-.state", NULL, &why), -1);
	strbuf_release(&why);
}

/* ---- the work dir --------------------------------------------------- */

static void test_work_dir_default(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *saved = getenv("PERFBOT_WORK_DIR") ? xstrdup(getenv("PERFBOT_WORK_DIR")) : NULL;
	(void)state;

	setenv("PERFBOT_WORK_DIR", "/somewhere/w", 1);
	run_work_dir_default(&sb);
	assert_string_equal(sb.buf, "/somewhere/w");
	unsetenv("PERFBOT_WORK_DIR");
	strbuf_reset(&sb);
	run_work_dir_default(&sb);
	if (geteuid() == 0) {
		assert_string_equal(sb.buf, "/run/perfbot");
	} else {
		const char *xdg = getenv("XDG_RUNTIME_DIR");
		struct strbuf want = STRBUF_INIT;
		if (xdg && *xdg == '/')
			strbuf_addf(&want, "%s/perfbot", xdg);
		else
			strbuf_addf(&want, "/tmp/perfbot-%ld", (long)geteuid());
		assert_string_equal(sb.buf, want.buf);
		strbuf_release(&want);
	}
	if (saved) {
		setenv("PERFBOT_WORK_DIR", saved, 1);
		free(saved);
	}
	strbuf_release(&sb);
}

static void test_work_dir_checks(void **state)
{
	char *base = test_tmpdir("workdir");
	char *w = join(base, "w"), *link = join(base, "link"), *file = join(base, "file");
	struct strbuf real = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture c;
	struct stat st;
	(void)state;

	/* missing: nothing to check; made 0700 */
	assert_int_equal(run_work_dir_check(w), 1);
	assert_int_equal(run_work_dir_make(w, &real), 0);
	assert_int_equal(lstat(w, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(run_work_dir_check(w), 0);
	/* an existing 0755 dir of ours is fine: others cannot write it */
	assert_int_equal(chmod(w, 0755), 0);
	assert_int_equal(run_work_dir_check(w), 0);

	assert_int_equal(chmod(w, 0777), 0);
	capture_start(&c);
	assert_int_equal(run_work_dir_check(w), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "': writable by everyone (mode 0777); refusing to use it"));
	strbuf_reset(&err);
	assert_int_equal(chmod(w, 0770), 0);
	capture_start(&c);
	assert_int_equal(run_work_dir_check(w), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "writable by its group (mode 0770)"));
	/* make refuses it too, and leaves it as it was */
	strbuf_reset(&err);
	strbuf_reset(&real);
	capture_start(&c);
	assert_int_equal(run_work_dir_make(w, &real), -1);
	capture_end_sb(&c, &err);
	assert_int_equal(real.len, 0);
	assert_int_equal(chmod(w, 0700), 0);

	/* a symbolic link to a private dir is still refused */
	assert_int_equal(symlink(w, link), 0);
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(run_work_dir_check(link), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "': it is a symbolic link; refusing to use it"));

	put(file, "x");
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(run_work_dir_check(file), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "': not a directory; refusing"));

	if (geteuid() == 0) {
		/* someone else's dir */
		assert_int_equal(chown(w, NOBODY, NOBODY), 0);
		strbuf_reset(&err);
		capture_start(&c);
		assert_int_equal(run_work_dir_check(w), -1);
		capture_end_sb(&c, &err);
		assert_non_null(strstr(err.buf, "owned by uid 65534, not by this perfbot's uid 0"));
		assert_int_equal(chown(w, 0, 0), 0);
		/* ours, but in a folder someone else owns */
		char *theirs = join(base, "theirs"), *inner = join(theirs, "w");
		assert_int_equal(mkdir(theirs, 0755), 0);
		assert_int_equal(mkdir(inner, 0700), 0);
		assert_int_equal(chown(theirs, NOBODY, NOBODY), 0);
		strbuf_reset(&err);
		capture_start(&c);
		assert_int_equal(run_work_dir_check(inner), -1);
		capture_end_sb(&c, &err);
		assert_non_null(strstr(err.buf, "/theirs' is owned by uid 65534; refusing"));
		/* a world-writable ancestor must be sticky (as /tmp is) */
		assert_int_equal(chown(theirs, 0, 0), 0);
		assert_int_equal(chmod(theirs, 0777), 0);
		strbuf_reset(&err);
		capture_start(&c);
		assert_int_equal(run_work_dir_check(inner), -1);
		capture_end_sb(&c, &err);
		assert_non_null(strstr(err.buf, "is writable by others and not sticky (mode 0777)"));
		assert_int_equal(chmod(theirs, 01777), 0);
		assert_int_equal(run_work_dir_check(inner), 0);
		free(theirs);
		free(inner);
	} else {
		print_message("not root: the checks of others' dirs skipped\n");
	}
	strbuf_release(&real);
	strbuf_release(&err);
	test_rm_rf(base);
	free(base);
	free(w);
	free(link);
	free(file);
}

/* ---- what cleanup refuses ------------------------------------------- */

/* A dead owner's journal text for setup dir "<w>/<name>". */
static void dead_journal(struct strbuf *sb, const char *extra)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "perfbot-setup 1\nowner 999999999 1\n%s", extra);
}

static void test_cleanup_refuses(void **state)
{
	char *base = test_tmpdir("workdir");
	char *w = join(base, "w"), *victim = join(base, "victim");
	struct strbuf real = STRBUF_INIT, text = STRBUF_INIT, log = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf line = STRBUF_INIT;
	struct stderr_capture c;
	(void)state;

	assert_int_equal(run_work_dir_make(w, &real), 0);
	put(victim, "precious\n");
	char *j = join(real.buf, "setup-999999999-0.state");

	/* a journal that names a file perfbot never made: refused, kept,
	 * and the file untouched */
	strbuf_addf(&line, "image %s\n", victim);
	dead_journal(&text, line.buf);
	put(j, text.buf);
	capture_start(&c);
	assert_int_equal(run_setup_cleanup_stale(w, NULL, &log), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "setup-999999999-0.state: line 3: image "));
	assert_non_null(strstr(err.buf, "not an image perfbot makes (<setup dir>/disk<N>.img): "
				     "refusing to replay it"));
	assert_true(file_exists(victim));
	assert_true(file_exists(j));
	assert_null(strstr(log.buf, "cleaning up"));

	/* the same as a symbolic link to a journal elsewhere */
	assert_int_equal(unlink(j), 0);
	char *elsewhere = join(base, "elsewhere.state");
	dead_journal(&text, "");
	put(elsewhere, text.buf);
	assert_int_equal(symlink(elsewhere, j), 0);
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(run_setup_cleanup_stale(w, NULL, &log), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "a symbolic link, not a journal perfbot wrote"));
	assert_int_equal(unlink(j), 0);
	/* a hard link */
	assert_int_equal(link(elsewhere, j), 0);
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(run_setup_cleanup_stale(w, NULL, &log), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "hard-linked elsewhere"));
	assert_int_equal(unlink(j), 0);

	/* a good journal is replayed: the refusals above are not blanket */
	strbuf_reset(&line);
	strbuf_addf(&line, "dir %s/setup-999999999-0\n", real.buf);
	dead_journal(&text, line.buf);
	char *dir = join(real.buf, "setup-999999999-0");
	assert_int_equal(mkdir(dir, 0755), 0);
	put(j, text.buf);
	strbuf_reset(&log);
	assert_int_equal(run_setup_cleanup_stale(w, NULL, &log), 1);
	assert_non_null(strstr(log.buf, "undo: removed "));
	assert_false(file_exists(dir));
	assert_false(file_exists(j));

	if (geteuid() == 0) {
		/* planted by another user: refused, even naming our own dir */
		assert_int_equal(mkdir(dir, 0755), 0);
		put(j, text.buf);
		assert_int_equal(chown(j, NOBODY, NOBODY), 0);
		strbuf_reset(&err);
		capture_start(&c);
		assert_int_equal(run_setup_cleanup_stale(w, NULL, &log), -1);
		capture_end_sb(&c, &err);
		assert_non_null(strstr(err.buf, "setup-999999999-0.state: owned by another user "
					     "(uid 65534, 1 links), not a journal this perfbot wrote: "
					     "refusing to replay it"));
		assert_true(file_exists(dir));
		assert_true(file_exists(j));
		assert_int_equal(unlink(j), 0);
	}
	/* a work dir others may write: nothing in it is read */
	put(j, text.buf);
	assert_int_equal(chmod(real.buf, 0777), 0);
	strbuf_reset(&err);
	capture_start(&c);
	assert_int_equal(run_setup_cleanup_stale(w, NULL, &log), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "writable by everyone (mode 0777); refusing to use it"));
	assert_true(file_exists(j));

	strbuf_release(&real);
	strbuf_release(&text);
	strbuf_release(&log);
	strbuf_release(&err);
	strbuf_release(&line);
	test_rm_rf(base);
	free(base);
	free(w);
	free(victim);
	free(j);
	free(elsewhere);
	free(dir);
}

/* ---- .run-K.<pid> --------------------------------------------------- */

static void test_reap_run_dirs(void **state)
{
	char *rr = test_tmpdir("workdir");
	struct strbuf self = STRBUF_INIT;
	int status;
	(void)state;

	/* a pid that is surely dead: a child we reaped */
	pid_t dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, &status, 0), dead);

	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/.run-3.%ld", rr, (long)dead);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addstr(&p, "/perf-stat");
	put(p.buf, "x");
	strbuf_reset(&p);
	/* a live pid that is not a perfbot: its number was reused */
	strbuf_addf(&p, "%s/.run-4.%ld", rr, (long)getppid());
	assert_int_equal(mkdir(p.buf, 0755), 0);
	/* ours, alive: kept */
	strbuf_addf(&self, "%s/.run-5.%ld", rr, (long)getpid());
	assert_int_equal(mkdir(self.buf, 0755), 0);
	/* not run dirs */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/0", rr);
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/.run-x.%ld", rr, (long)dead);
	assert_int_equal(mkdir(p.buf, 0755), 0);

	/* test_workdir's parent is a shell or make, not a perfbot */
	assert_int_equal(run_reap_run_dirs(rr), 2);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/.run-3.%ld", rr, (long)dead);
	assert_false(file_exists(p.buf));
	assert_true(file_exists(self.buf));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/0", rr);
	assert_true(file_exists(p.buf));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/.run-x.%ld", rr, (long)dead);
	assert_true(file_exists(p.buf));
	if (geteuid() == 0) {
		/* another user's: not ours to remove */
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/.run-6.%ld", rr, (long)dead);
		assert_int_equal(mkdir(p.buf, 0755), 0);
		assert_int_equal(chown(p.buf, NOBODY, NOBODY), 0);
		assert_int_equal(run_reap_run_dirs(rr), 0);
		assert_true(file_exists(p.buf));
	}
	assert_int_equal(run_reap_run_dirs("/nonexistent/rr"), 0);
	strbuf_release(&p);
	strbuf_release(&self);
	test_rm_rf(rr);
	free(rr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_lines),
		cmocka_unit_test(test_work_dir_default),
		cmocka_unit_test(test_work_dir_checks),
		cmocka_unit_test(test_cleanup_refuses),
		cmocka_unit_test(test_reap_run_dirs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
