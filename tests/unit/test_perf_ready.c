/*
 * Unit tests of monitor/perf.c's perf_workload_started: perfbot waits for
 * it before stopping perf, so that perf on a busy machine is never killed
 * before it has written anything.
 */
#include "test_helpers.h"
#include "monitor/perf.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first child of pid, polled for up to a minute; 0 if none came. */
static pid_t first_child(pid_t pid)
{
	struct strbuf kids = STRBUF_INIT, path = STRBUF_INIT;
	pid_t child = 0;

	strbuf_addf(&path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
	for (int i = 0; i < 6000 && !child; i++) {
		strbuf_reset(&kids);
		if (read_file_quiet(&kids, path.buf, 4096) == 0 && kids.len)
			child = (pid_t)atol(kids.buf);
		else
			usleep(10000);
	}
	strbuf_release(&kids);
	strbuf_release(&path);
	return child;
}

/*
 * As perf runs: under the guard that die_with_parent puts above a
 * process group.  The shell stands for perf: a child of its own that is
 * not sleep (perf has helpers) does not count; the sleep it then starts,
 * two levels below the guard, does.
 */
static void test_sleep_below_guard(void **state)
{
	char *dir = test_tmpdir("perf-ready");
	struct strbuf script = STRBUF_INIT, go = STRBUF_INIT;
	struct child_process cp;
	bool seen = false;
	pid_t sh, tail;

	(void)state;
	strbuf_addf(&go, "%s/go", dir);
	assert_int_equal(mkfifo(go.buf, 0600), 0);
	/* the shell waits on the fifo, without a CPU or a sleep */
	strbuf_addf(&script, "tail -f /dev/null & read x <'%s'; sleep 30 & wait", go.buf);
	char *argv[] = { "sh", "-c", script.buf, NULL };
	child_process_init(&cp);
	cp.argv = argv;
	cp.no_stdin = true;
	cp.new_pgrp = true;
	cp.die_with_parent = true;
	assert_int_equal(start_command(&cp), 0);
	sh = first_child(cp.pid);
	assert_true(sh > 0);
	tail = first_child(sh);
	assert_true(tail > 0);
	assert_false(perf_workload_started(cp.pid));
	int fd = open(go.buf, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "go\n", 3), 3);
	close(fd);
	/* polled until the shell has forked it (a minute at most, so that
	 * a perf_workload_started that never says yes fails, not hangs) */
	for (int i = 0; i < 6000 && !seen; i++) {
		seen = perf_workload_started(cp.pid);
		if (!seen)
			usleep(10000);
	}
	assert_true(seen);
	kill_command(&cp, 0);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&script);
	strbuf_release(&go);
}

/* a process that is itself sleep, with no children, has no workload */
static void test_no_child(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct child_process cp;

	(void)state;
	child_process_init(&cp);
	cp.argv = argv;
	cp.no_stdin = true;
	assert_int_equal(start_command(&cp), 0);
	pid_t pid = cp.pid;
	assert_false(perf_workload_started(pid));
	kill(pid, SIGKILL);
	finish_command(&cp, 0, NULL);
	/* gone: nothing to read, false */
	assert_false(perf_workload_started(pid));
}

/* A fake perf in dir: skips to "--", waits for a line on the fifo go,
 * then runs its workload as perf does (exit 1 instead when fail). */
static void fake_perf(const char *dir, const char *go, bool fail)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;

	strbuf_addf(&path, "%s/perf", dir);
	strbuf_addf(&text, "#!/bin/sh\nwhile [ \"$1\" != -- ]; do shift; done; shift\n"
		    "echo \"$@\" >'%s/args'\nread x <'%s'\n%s\n", dir, go,
		    fail ? "exit 1" : "\"$@\" & wait");
	assert_int_equal(write_file_atomic(path.buf, text.buf, text.len), 0);
	assert_int_equal(chmod(path.buf, 0755), 0);
	strbuf_release(&path);
	strbuf_release(&text);
}

/* What the fake perf was asked to run, once it has run (the fifo was
 * read, so the args file is written). */
static void assert_workload(const char *dir, const char *want)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT;

	strbuf_addf(&path, "%s/args", dir);
	assert_int_equal(read_file(&got, path.buf), 0);
	assert_string_equal(got.buf, want);
	strbuf_release(&path);
	strbuf_release(&got);
}

static void say_go(const char *go)
{
	int fd = open(go, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "go\n", 3), 3);
	close(fd);
}

/* perf_record_wait_ready: 0 while perf has not started its workload, 1
 * once it has, -1 for a perf that ended first (reaped: no pid left) */
static void test_record_wait_ready(void **state)
{
	char *dir = test_tmpdir("perf-wait");
	struct strbuf go = STRBUF_INIT, path = STRBUF_INIT;
	struct perf_caps caps = { .usable = true, .record_event = "cpu-clock" };
	struct perf_proc p;
	struct held_dir hd;
	const char *old = getenv("PATH");

	(void)state;
	assert_int_equal(held_dir_open(&hd, dir), 0);
	strbuf_addf(&go, "%s/go", dir);
	assert_int_equal(mkfifo(go.buf, 0600), 0);
	strbuf_addf(&path, "%s:%s", dir, old ? old : "/usr/bin:/bin");
	char *saved = xstrdup(old ? old : "");
	assert_int_equal(setenv("PATH", path.buf, 1), 0);

	fake_perf(dir, go.buf, false);
	assert_int_equal(perf_record_start(&p, &caps, &hd, 0), 0);
	assert_int_equal(perf_record_wait_ready(&p, 0.05), 0);
	say_go(go.buf);
	assert_int_equal(perf_record_wait_ready(&p, 60), 1);
	kill_command(&p.cp, 0);
	free(p.data_path);
	/* until stopped: a number busybox's sleep reads too (no exponent) */
	assert_workload(dir, "sleep 2147483647\n");

	/* a duration: in seconds, fractions kept, never an exponent */
	fake_perf(dir, go.buf, true);
	assert_int_equal(perf_record_start(&p, &caps, &hd, 2.5), 0);
	say_go(go.buf);
	assert_int_equal(perf_record_wait_ready(&p, 60), -1);
	free(p.data_path);
	assert_workload(dir, "sleep 2.500\n");

	fake_perf(dir, go.buf, true);
	assert_int_equal(perf_record_start(&p, &caps, &hd, 0), 0);
	say_go(go.buf);
	assert_int_equal(perf_record_wait_ready(&p, 60), -1);
	assert_true(p.cp.pid <= 0);
	free(p.data_path);

	assert_int_equal(setenv("PATH", saved, 1), 0);
	free(saved);
	held_dir_close(&hd);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&go);
	strbuf_release(&path);
}

/*
 * perf's files go into the run dir held open, wherever its name leads:
 * the dir renamed away by another user of a shared result root and a
 * link planted at its name (test_dir_moved), perf record's data (a path
 * perf opens itself), perf report's outputs and perf stat's lines all
 * land in the moved dir, none in the link's target.  The fake perf
 * writes -o's path, prints -i's file as its report, and a line as stat.
 */
static void test_dir_moved_away(void **state)
{
	char *bin = test_tmpdir("perf-bin");
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct perf_caps caps = { .usable = true, .record_event = "cpu-clock",
				  .stat_events = STRBUF_INIT };
	struct perf_proc p;
	struct moved_dir m;
	struct stderr_capture cap;
	const char *old = getenv("PATH");
	char *saved = xstrdup(old ? old : "");

	(void)state;
	strbuf_addf(&path, "%s/perf", bin);
	strbuf_addstr(&text, "#!/bin/sh\ncase $1 in\n"
		      "record) while [ \"$1\" != -o ]; do shift; done; echo recorded >\"$2\" ;;\n"
		      "report) while [ \"$1\" != -i ]; do shift; done; cat \"$2\" ;;\n"
		      "stat) echo 1.0,7,,cpu-clock ;;\nesac\n");
	assert_int_equal(write_file_atomic(path.buf, text.buf, text.len), 0);
	assert_int_equal(chmod(path.buf, 0755), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s:%s", bin, old ? old : "/usr/bin:/bin");
	assert_int_equal(setenv("PATH", path.buf, 1), 0);
	strbuf_addstr(&caps.stat_events, "cpu-clock");

	test_dir_moved(&m, "perf-moved");
	assert_int_equal(perf_stat_start(&p, &caps, &m.hd, 1), 0);
	capture_start(&cap);      /* the parser's say on a fake perf */
	perf_stat_finish(&p, &m.hd);
	free(capture_end(&cap));
	assert_int_equal(perf_record_start(&p, &caps, &m.hd, 0.01), 0);
	capture_start(&cap);
	perf_record_finish(&p, &m.hd);
	free(capture_end(&cap));

	strbuf_reset(&path);
	path_join(&path, m.moved.buf, "perf-stat");
	strbuf_reset(&text);
	assert_int_equal(read_file(&text, path.buf), 0);
	assert_non_null(strstr(text.buf, "--log-fd 1 -- sleep"));
	assert_non_null(strstr(text.buf, "\n1.0,7,,cpu-clock\n"));
	const char *reports[] = { "perf-profile", "perf-profile.txt" };
	for (int i = 0; i < 2; i++) {
		strbuf_reset(&path);
		path_join(&path, m.moved.buf, reports[i]);
		strbuf_reset(&text);
		assert_int_equal(read_file(&text, path.buf), 0);
		assert_string_equal(text.buf, "recorded\n");
	}
	/* perf.data removed once reported, in the dir held too */
	strbuf_reset(&path);
	path_join(&path, m.moved.buf, "perf.data");
	assert_false(file_exists(path.buf));
	assert_int_equal(test_dir_size(m.victim.buf), 0);

	assert_int_equal(setenv("PATH", saved, 1), 0);
	free(saved);
	test_dir_moved_release(&m);
	test_rm_rf(bin);
	free(bin);
	strbuf_release(&caps.stat_events);
	strbuf_release(&path);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_wait_ready),
		cmocka_unit_test(test_dir_moved_away),
		cmocka_unit_test(test_sleep_below_guard),
		cmocka_unit_test(test_no_child),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
