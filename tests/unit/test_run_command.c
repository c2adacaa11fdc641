/* Unit tests of src/util/run_command: exit status, rusage, capture,
 * redirection, timeout killing the whole process group, interruption. */
#include "test_helpers.h"
#include "util/run_command.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static void test_exit_status_and_capture(void **state)
{
	struct strbuf out = STRBUF_INIT;
	char *const ok[] = { "sh", "-c", "echo hello; exit 3", NULL };
	char *const missing[] = { "/nonexistent/prog", NULL };
	(void)state;
	assert_int_equal(capture_command(ok, NULL, &out), 3);
	assert_string_equal(out.buf, "hello\n");
	strbuf_reset(&out);
	assert_int_equal(capture_command(missing, NULL, &out), 127);
	char *const pwd[] = { "pwd", NULL };
	strbuf_reset(&out);
	assert_int_equal(capture_command(pwd, "/tmp", &out), 0);
	assert_string_equal(out.buf, "/tmp\n");
	strbuf_release(&out);
}

static void test_env_and_redirect(void **state)
{
	struct child_process cp;
	struct strbuf got = STRBUF_INIT;
	char path[] = "/tmp/perfbot-rc-XXXXXX";
	char *env[] = { "PERFBOT_T=42", NULL };
	int fd = mkstemp(path);
	(void)state;
	assert_true(fd >= 0);
	close(fd);
	child_process_init(&cp);
	cp.shell_cmd = "echo $PERFBOT_T; echo err >&2";
	cp.env = env;
	cp.out_path = path;
	cp.err_path = "&1";
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 10, NULL), FINISH_EXITED);
	assert_true(WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 0);
	assert_int_equal(read_file(&got, path), 0);
	assert_string_equal(got.buf, "42\nerr\n");
	assert_true(cp.end >= cp.start);

	/* a variable given to the child replaces the one it would inherit:
	 * env(1) prints the environment as it came, duplicates included */
	char *home[] = { "HOME=/perfbot-test-home", NULL };
	char *const env_argv[] = { "env", NULL };
	assert_non_null(getenv("HOME"));
	child_process_init(&cp);
	cp.argv = env_argv;
	cp.env = home;
	cp.out_path = path;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 10, NULL), FINISH_EXITED);
	strbuf_reset(&got);
	assert_int_equal(read_file(&got, path), 0);
	char *first = strstr(got.buf, "\nHOME=") ? strstr(got.buf, "\nHOME=") + 1 :
		      !strncmp(got.buf, "HOME=", 5) ? got.buf : NULL;
	assert_non_null(first);
	assert_memory_equal(first, "HOME=/perfbot-test-home\n", 24);
	assert_null(strstr(first + 1, "\nHOME="));
	unlink(path);
	strbuf_release(&got);
}

/* out_fd and err_fd: the child's stdout and stderr to files the caller
 * opened (a run's, made through its held dir), each to its own; the fds
 * stay open in the caller.  An fd among 0-2 is not lost to the
 * redirection of another (perfbot started with stdout closed). */
static void test_out_and_err_fds(void **state)
{
	char out_path[] = "/tmp/perfbot-rc-out-XXXXXX", err_path[] = "/tmp/perfbot-rc-err-XXXXXX";
	struct strbuf got = STRBUF_INIT;
	struct child_process cp;
	int out = mkstemp(out_path), err = mkstemp(err_path);
	(void)state;

	assert_true(out >= 0 && err >= 0);
	child_process_init(&cp);
	assert_int_equal(cp.err_fd, -1);
	cp.shell_cmd = "echo out; echo err >&2";
	cp.out_fd = out;
	cp.err_fd = err;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 10, NULL), FINISH_EXITED);
	/* still the caller's */
	assert_true(fcntl(out, F_GETFD) >= 0 && fcntl(err, F_GETFD) >= 0);
	assert_int_equal(read_file(&got, out_path), 0);
	assert_string_equal(got.buf, "out\n");
	strbuf_reset(&got);
	assert_int_equal(read_file(&got, err_path), 0);
	assert_string_equal(got.buf, "err\n");

	/* err_fd is 1 and out_fd is not: stderr still goes to err_fd's file */
	int saved = dup(1);
	assert_true(saved >= 0);
	assert_int_equal(dup2(err, 1), 1);
	assert_int_equal(ftruncate(1, 0), 0);
	assert_int_equal(lseek(1, 0, SEEK_SET), 0);
	assert_int_equal(ftruncate(out, 0), 0);
	assert_int_equal(lseek(out, 0, SEEK_SET), 0);
	child_process_init(&cp);
	cp.shell_cmd = "echo out2; echo err2 >&2";
	cp.out_fd = out;
	cp.err_fd = 1;
	int started = start_command(&cp);
	int finished = started < 0 ? -1 : finish_command(&cp, 10, NULL);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	assert_int_equal(started, 0);
	assert_int_equal(finished, FINISH_EXITED);
	strbuf_reset(&got);
	assert_int_equal(read_file(&got, out_path), 0);
	assert_string_equal(got.buf, "out2\n");
	strbuf_reset(&got);
	assert_int_equal(read_file(&got, err_path), 0);
	assert_string_equal(got.buf, "err2\n");

	close(out);
	close(err);
	unlink(out_path);
	unlink(err_path);
	strbuf_release(&got);
}

/* keep_fd: the program inherits that fd under its number (a held dir it
 * is given as /proc/self/fd/<n>), no other of ours; 0-2 are refused. */
static void test_keep_fd(void **state)
{
	char *dir = test_tmpdir("rc-keep");
	struct strbuf cmd = STRBUF_INIT, p = STRBUF_INIT;
	struct stderr_capture cap;
	struct child_process cp;
	struct held_dir hd, other;
	(void)state;

	assert_int_equal(held_dir_open(&hd, dir), 0);
	assert_int_equal(held_dir_open(&other, "/tmp"), 0);
	strbuf_addf(&cmd, "echo x >/proc/self/fd/%d/made && ! test -e /proc/self/fd/%d",
		    hd.fd, other.fd);
	child_process_init(&cp);
	assert_int_equal(cp.keep_fd, -1);
	cp.shell_cmd = cmd.buf;
	cp.keep_fd = hd.fd;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 10, NULL), FINISH_EXITED);
	assert_true(WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 0);
	path_join(&p, dir, "made");
	assert_true(file_exists(p.buf));
	/* still close-on-exec here: only the child's copy is kept */
	assert_true(fcntl(hd.fd, F_GETFD) & FD_CLOEXEC);
	/* without keep_fd, the program has none of ours */
	child_process_init(&cp);
	cp.shell_cmd = cmd.buf;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 10, NULL), FINISH_EXITED);
	assert_true(WIFEXITED(cp.status) && WEXITSTATUS(cp.status) != 0);
	child_process_init(&cp);
	cp.shell_cmd = "true";
	cp.keep_fd = 2;
	capture_start(&cap);
	assert_int_equal(start_command(&cp), -1);
	free(capture_end(&cap));
	held_dir_close(&hd);
	held_dir_close(&other);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&cmd);
	strbuf_release(&p);
}

static void test_timeout_kills_group(void **state)
{
	struct child_process cp;
	char pidfile[] = "/tmp/perfbot-rc-XXXXXX";
	struct strbuf cmd = STRBUF_INIT, got = STRBUF_INIT;
	int fd = mkstemp(pidfile);
	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* a grandchild in the background must die with the group */
	strbuf_addf(&cmd, "sleep 30 & echo $! > %s; wait", pidfile);
	child_process_init(&cp);
	cp.shell_cmd = cmd.buf;
	cp.new_pgrp = true;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 0.5, NULL), FINISH_TIMEOUT);
	assert_int_equal(read_file(&got, pidfile), 0);
	pid_t grandchild = (pid_t)atol(got.buf);
	assert_true(grandchild > 0);
	/* gone, or a zombie waiting for init to reap it: not running.  A
	 * killed process on a loaded machine may show 'R' until it is
	 * scheduled to die, so wait for that (up to 20 s), never for a
	 * fixed time; a sleep 30 that was not killed stays 'S' and fails */
	struct strbuf stat = STRBUF_INIT, st = STRBUF_INIT;
	char ps = 0;
	strbuf_addf(&stat, "/proc/%ld/stat", (long)grandchild);
	for (int i = 0; i < 2000; i++) {
		strbuf_reset(&st);
		if (access(stat.buf, F_OK) != 0 || read_file(&st, stat.buf) < 0) {
			ps = 'X';
			break;
		}
		const char *close_paren = strrchr(st.buf, ')');
		assert_non_null(close_paren);
		ps = close_paren[2];
		if (ps == 'Z' || ps == 'X')
			break;
		usleep(10000);
	}
	if (ps != 'Z' && ps != 'X')
		fail_msg("the grandchild %ld is still there, state '%c'", (long)grandchild, ps);
	strbuf_release(&stat);
	strbuf_release(&st);
	unlink(pidfile);
	strbuf_release(&cmd);
	strbuf_release(&got);
}

static void test_interrupt(void **state)
{
	struct child_process cp;
	volatile sig_atomic_t stop = 1;
	(void)state;
	child_process_init(&cp);
	cp.shell_cmd = "sleep 30";
	cp.new_pgrp = true;
	assert_int_equal(start_command(&cp), 0);
	double t0 = now_seconds();
	assert_int_equal(finish_command(&cp, 0, &stop), FINISH_INTERRUPTED);
	assert_true(now_seconds() - t0 < 5);
	assert_true(WIFSIGNALED(cp.status));
}

static void test_rusage(void **state)
{
	struct child_process cp;
	(void)state;
	child_process_init(&cp);
	cp.shell_cmd = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done";
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 60, NULL), FINISH_EXITED);
	double cpu = cp.ru.ru_utime.tv_sec + cp.ru.ru_utime.tv_usec / 1e6 +
		     cp.ru.ru_stime.tv_sec + cp.ru.ru_stime.tv_usec / 1e6;
	assert_true(cpu > 0.01);
	assert_true(cp.ru.ru_maxrss > 0);
}

/*
 * A helper process starts `sleep 30` (die_with_parent as asked) and exits
 * as if killed; this test is the sleep's subreaper, so it can wait for it
 * and see how it ended.  Returns the sleep's wait status, or -1 when it
 * was still alive a second later (then it is killed here).
 */
static int orphan_status(bool die_with_parent)
{
	int fds[2];
	pid_t helper, child = -1;
	int st = 0;

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	helper = fork();
	assert_true(helper >= 0);
	if (helper == 0) {
		struct child_process cp;
		char *const argv[] = { "sleep", "30", NULL };
		child_process_init(&cp);
		cp.argv = argv;
		cp.no_stdin = true;
		cp.die_with_parent = die_with_parent;
		if (start_command(&cp) < 0)
			_exit(1);
		if (write(fds[1], &cp.pid, sizeof(cp.pid)) != sizeof(cp.pid))
			_exit(1);
		/* let it exec sleep first: the usual case is a running child */
		usleep(100000);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &child, sizeof(child)), (ssize_t)sizeof(child));
	close(fds[0]);
	assert_int_equal(waitpid(helper, &st, 0), helper);
	for (int i = 0; i < 100; i++) {
		pid_t r = waitpid(child, &st, WNOHANG);
		if (r == child) {
			prctl(PR_SET_CHILD_SUBREAPER, 0);
			return st;
		}
		usleep(10000);
	}
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return -1;
}

/* QEMU and make must not outlive a perfbot killed with -9 */
static void test_die_with_parent(void **state)
{
	(void)state;
	int st = orphan_status(true);
	assert_true(st != -1);
	/* SIGKILL; or, had the helper died before the child looked, the
	 * child's own exit 126 */
	assert_true((WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) ||
		    (WIFEXITED(st) && WEXITSTATUS(st) == 126));
	/* without the flag the orphan lives on */
	assert_int_equal(orphan_status(false), -1);
}

/*
 * What capture_command runs (git, most of all) dies with perfbot too: a
 * helper captures `sh -c 'echo $$ >&N; exec sleep 30'` and is killed
 * with -9 while it waits; this test, the sleep's subreaper, sees how the
 * sleep ended.  The wait has no deadline: were the flag lost, the test
 * would fail after the sleep's 30 s, whatever the machine's load.
 */
static void test_capture_dies_with_parent(void **state)
{
	(void)state;
	int fds[2], st = 0;
	pid_t helper, child = 0;
	char cmd[64], buf[32] = "";
	ssize_t n, got = 0;

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	snprintf(cmd, sizeof(cmd), "echo $$ >&%d; exec sleep 30", fds[1]);
	helper = fork();
	assert_true(helper >= 0);
	if (helper == 0) {
		char *const argv[] = { "sh", "-c", cmd, NULL };
		struct strbuf out = STRBUF_INIT;
		close(fds[0]);
		capture_command(argv, NULL, &out);
		_exit(0);
	}
	close(fds[1]);
	while (got < (ssize_t)sizeof(buf) - 1 && !strchr(buf, '\n') &&
	       (n = read(fds[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(fds[0]);
	child = (pid_t)atoi(buf);
	assert_true(child > 0);
	kill(helper, SIGKILL);
	assert_int_equal(waitpid(helper, &st, 0), helper);
	assert_int_equal(waitpid(child, &st, 0), child);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
}

/*
 * Whether process group `group` empties within 2 s, reaping what this
 * test (a child subreaper) adopted; kills what is left so that a failing
 * test leaves nothing running, and ends the subreaper role.
 */
static bool group_gone(pid_t group)
{
	bool gone = false;
	int st;

	for (int i = 0; i < 200 && !gone; i++) {
		while (waitpid(-1, &st, WNOHANG) > 0)
			;
		gone = kill(-group, 0) < 0 && errno == ESRCH;
		if (!gone)
			usleep(10000);
	}
	if (!gone)
		kill(-group, SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return gone;
}

/* make's compilers too: the whole group of a die_with_parent child */
static void test_group_dies_with_parent(void **state)
{
	int fds[2], st;
	pid_t helper, group = -1;
	(void)state;
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	helper = fork();
	assert_true(helper >= 0);
	if (helper == 0) {
		struct child_process cp;
		child_process_init(&cp);
		cp.shell_cmd = "sleep 30 & sleep 30";
		cp.no_stdin = true;
		cp.new_pgrp = true;
		cp.die_with_parent = true;
		if (start_command(&cp) < 0)
			_exit(1);
		/* both sleeps running before the helper dies */
		usleep(300000);
		if (write(fds[1], &cp.pid, sizeof(cp.pid)) != sizeof(cp.pid))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &group, sizeof(group)), (ssize_t)sizeof(group));
	close(fds[0]);
	assert_int_equal(waitpid(helper, &st, 0), helper);
	assert_true(group_gone(group));
}

/* a group's guard passes the program's exit status and SIGTERM through */
static void test_group_guard_status(void **state)
{
	struct child_process cp;
	(void)state;
	child_process_init(&cp);
	cp.shell_cmd = "exit 7";
	cp.new_pgrp = true;
	cp.die_with_parent = true;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 10, NULL), FINISH_EXITED);
	assert_true(WIFEXITED(cp.status));
	assert_int_equal(WEXITSTATUS(cp.status), 7);
	/* SIGTERM reaches the program, which may clean up before it exits */
	child_process_init(&cp);
	cp.shell_cmd = "trap 'exit 5' TERM; sleep 30 & wait";
	cp.new_pgrp = true;
	cp.die_with_parent = true;
	assert_int_equal(start_command(&cp), 0);
	usleep(200000);
	assert_int_equal(finish_command(&cp, 0.5, NULL), FINISH_TIMEOUT);
	assert_true(WIFEXITED(cp.status));
	assert_int_equal(WEXITSTATUS(cp.status), 5);
}

/* a program that exits leaving a child in its group: poll_command (and
 * so finish_command) kills the child, also without die_with_parent */
static void test_poll_kills_stragglers(void **state)
{
	struct child_process cp;
	int r = 1;
	pid_t group;
	(void)state;
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	child_process_init(&cp);
	cp.shell_cmd = "sleep 30 & exit 0";
	cp.no_stdin = true;
	cp.new_pgrp = true;
	assert_int_equal(start_command(&cp), 0);
	group = cp.pid;
	for (int i = 0; i < 1000 && r == 1; i++) {
		r = poll_command(&cp);
		if (r == 1)
			usleep(10000);
	}
	assert_int_equal(r, FINISH_EXITED);
	assert_true(group_gone(group));
}

static void test_program_in_path(void **state)
{
	char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	(void)state;
	assert_true(program_in_path("sh"));
	assert_true(program_in_path("/bin/sh"));
	assert_false(program_in_path("/nonexistent/sh"));
	assert_false(program_in_path("perfbot-no-such-program"));
	/* a directory is searched only when it is in $PATH */
	setenv("PATH", "/nonexistent:/usr/bin", 1);
	assert_true(program_in_path("env"));
	setenv("PATH", "/nonexistent", 1);
	assert_false(program_in_path("env"));
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status_and_capture),
		cmocka_unit_test(test_env_and_redirect),
		cmocka_unit_test(test_out_and_err_fds),
		cmocka_unit_test(test_keep_fd),
		cmocka_unit_test(test_timeout_kills_group),
		cmocka_unit_test(test_interrupt),
		cmocka_unit_test(test_rusage),
		cmocka_unit_test(test_die_with_parent),
		cmocka_unit_test(test_capture_dies_with_parent),
		cmocka_unit_test(test_group_dies_with_parent),
		cmocka_unit_test(test_group_guard_status),
		cmocka_unit_test(test_poll_kills_stragglers),
		cmocka_unit_test(test_program_in_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
