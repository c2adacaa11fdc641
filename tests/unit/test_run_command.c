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

/*
 * The first line a child writes on the pipe fd (a pid, or pids apart by
 * blanks), read with no deadline: the child writes it once it is at the
 * point the test needs (a grandchild started, a trap set), so what comes
 * next happens there however busy the machine; a child that never gets
 * there ends by itself (a sleep 30) and fails the test, not hangs it.
 */
static void read_line(int fd, char *buf, size_t size)
{
	size_t got = 0;
	ssize_t n;

	buf[0] = '\0';
	while (got < size - 1 && !memchr(buf, '\n', got) &&
	       (n = read(fd, buf + got, size - 1 - got)) != 0) {
		if (n < 0) {
			assert_int_equal(errno, EINTR);
			continue;
		}
		got += (size_t)n;
		buf[got] = '\0';
	}
	assert_non_null(strchr(buf, '\n'));
}

static void test_timeout_kills_group(void **state)
{
	struct child_process cp;
	struct strbuf cmd = STRBUF_INIT;
	char line[32];
	int fds[2], st = 0;
	(void)state;
	/* the grandchild is this test's once the shell is gone */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	/* a grandchild in the background must die with the group; the
	 * timeout comes once it runs (its pid on the pipe) */
	strbuf_addf(&cmd, "sleep 30 & echo $! >&%d; wait", fds[1]);
	child_process_init(&cp);
	cp.shell_cmd = cmd.buf;
	cp.new_pgrp = true;
	assert_int_equal(start_command(&cp), 0);
	close(fds[1]);
	read_line(fds[0], line, sizeof(line));
	close(fds[0]);
	pid_t grandchild = (pid_t)atol(line);
	assert_true(grandchild > 0);
	assert_int_equal(finish_command(&cp, 0.5, NULL), FINISH_TIMEOUT);
	/* no deadline: a sleep the timeout spared exits by itself after its
	 * 30 s, and fails */
	assert_int_equal(waitpid(grandchild, &st, 0), grandchild);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	if (!WIFSIGNALED(st))
		fail_msg("the grandchild %ld was not killed: it exited with %d",
			 (long)grandchild, WEXITSTATUS(st));
	strbuf_release(&cmd);
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
	assert_int_equal(finish_command(&cp, 0, &stop), FINISH_INTERRUPTED);
	/* killed, not waited for: a sleep that ran its 30 s exits with 0 */
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
 * A helper process starts `sh -c 'echo $$ >&N; exec sleep 30'`
 * (die_with_parent as asked) and is killed with -9 once that child said
 * it runs; this test is the child's subreaper, so it can wait for it and
 * see how it ended.  The kernel sends a dying process's children their
 * parent-death signal before the process can be reaped, so once the
 * helper is, the child either has its SIGKILL already or lives on: it
 * then gets a SIGTERM from here, which a child killed already ignores.
 * Returns the child's wait status: no fixed wait anywhere.
 */
static int orphan_status(bool die_with_parent)
{
	int fds[2];
	pid_t helper, child;
	int st = 0;
	char cmd[64], line[32];

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	snprintf(cmd, sizeof(cmd), "echo $$ >&%d; exec sleep 30", fds[1]);
	helper = fork();
	assert_true(helper >= 0);
	if (helper == 0) {
		struct child_process cp;
		char *const argv[] = { "sh", "-c", cmd, NULL };
		close(fds[0]);
		child_process_init(&cp);
		cp.argv = argv;
		cp.no_stdin = true;
		cp.die_with_parent = die_with_parent;
		if (start_command(&cp) < 0)
			_exit(1);
		for (;;)
			pause();        /* killed with -9 below */
	}
	close(fds[1]);
	read_line(fds[0], line, sizeof(line));
	close(fds[0]);
	child = (pid_t)atol(line);
	assert_true(child > 0);
	kill(helper, SIGKILL);
	assert_int_equal(waitpid(helper, &st, 0), helper);
	kill(child, SIGTERM);
	assert_int_equal(waitpid(child, &st, 0), child);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return st;
}

/* QEMU and make must not outlive a perfbot killed with -9 */
static void test_die_with_parent(void **state)
{
	(void)state;
	int st = orphan_status(true);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
	/* without the flag the orphan lives on, until this test's SIGTERM */
	st = orphan_status(false);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
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

/* Reap pid, an orphan this test (a child subreaper) adopted, and say
 * whether it was killed; no deadline, as for read_line's sleeps.  Its
 * parent must be gone (reaped here) for it to be this test's. */
static bool killed(pid_t pid)
{
	int st = 0;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFSIGNALED(st);
}

/* make's compilers too: the whole group of a die_with_parent child */
static void test_group_dies_with_parent(void **state)
{
	int fds[2], st;
	pid_t helper, prog, bg, guard;
	char cmd[64], line[64];
	(void)state;
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	/* both sleeps running (in the group) once the line comes */
	snprintf(cmd, sizeof(cmd), "sleep 30 & echo $$ $! >&%d; exec sleep 30", fds[1]);
	helper = fork();
	assert_true(helper >= 0);
	if (helper == 0) {
		struct child_process cp;
		close(fds[0]);
		child_process_init(&cp);
		cp.shell_cmd = cmd;
		cp.no_stdin = true;
		cp.new_pgrp = true;
		cp.die_with_parent = true;
		if (start_command(&cp) < 0)
			_exit(1);
		for (;;)
			pause();        /* killed with -9 below */
	}
	close(fds[1]);
	read_line(fds[0], line, sizeof(line));
	close(fds[0]);
	assert_int_equal(sscanf(line, "%d %d", &prog, &bg), 2);
	/* the group is the guard's, the program's parent */
	guard = getpgid(prog);
	assert_true(guard > 1 && guard != getpgid(0) && bg > 0);
	kill(helper, SIGKILL);
	assert_int_equal(waitpid(helper, &st, 0), helper);
	/* parents first: each is this test's child once its parent is gone */
	assert_true(killed(guard));
	assert_true(killed(prog));
	assert_true(killed(bg));
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* a group's guard passes the program's exit status and SIGTERM through */
static void test_group_guard_status(void **state)
{
	struct child_process cp;
	char cmd[96], line[16];
	int fds[2];
	(void)state;
	child_process_init(&cp);
	cp.shell_cmd = "exit 7";
	cp.new_pgrp = true;
	cp.die_with_parent = true;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command(&cp, 10, NULL), FINISH_EXITED);
	assert_true(WIFEXITED(cp.status));
	assert_int_equal(WEXITSTATUS(cp.status), 7);
	/* SIGTERM reaches the program, which may clean up before it exits;
	 * the timeout comes once its trap is set (the line on the pipe) */
	assert_int_equal(pipe(fds), 0);
	snprintf(cmd, sizeof(cmd), "trap 'exit 5' TERM; echo trapped >&%d; sleep 30 & wait", fds[1]);
	child_process_init(&cp);
	cp.shell_cmd = cmd;
	cp.new_pgrp = true;
	cp.die_with_parent = true;
	assert_int_equal(start_command(&cp), 0);
	close(fds[1]);
	read_line(fds[0], line, sizeof(line));
	close(fds[0]);
	assert_int_equal(finish_command(&cp, 0.5, NULL), FINISH_TIMEOUT);
	assert_true(WIFEXITED(cp.status));
	assert_int_equal(WEXITSTATUS(cp.status), 5);
}

/* a program that exits leaving a child in its group: poll_command (and
 * so finish_command) kills the child, also without die_with_parent */
static void test_poll_kills_stragglers(void **state)
{
	struct child_process cp;
	siginfo_t info;
	char cmd[64], line[32];
	int fds[2];
	(void)state;
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	snprintf(cmd, sizeof(cmd), "sleep 30 & echo $! >&%d; exit 0", fds[1]);
	child_process_init(&cp);
	cp.shell_cmd = cmd;
	cp.no_stdin = true;
	cp.new_pgrp = true;
	assert_int_equal(start_command(&cp), 0);
	close(fds[1]);
	read_line(fds[0], line, sizeof(line));
	close(fds[0]);
	pid_t straggler = (pid_t)atol(line);
	assert_true(straggler > 0);
	/* until the shell has exited, left for poll_command to reap */
	memset(&info, 0, sizeof(info));
	assert_int_equal(waitid(P_PID, (id_t)cp.pid, &info, WEXITED | WNOWAIT), 0);
	assert_int_equal(poll_command(&cp), FINISH_EXITED);
	assert_true(WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 0);
	assert_true(killed(straggler));
	prctl(PR_SET_CHILD_SUBREAPER, 0);
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
