/*
 * Unit tests of monitor/perf.c's perf_workload_started: perfbot waits for
 * it before stopping perf, so that perf on a busy machine is never killed
 * before it has written anything.
 */
#include "test_helpers.h"
#include "monitor/perf.h"

#include <signal.h>
#include <unistd.h>

/* true once a child of the process runs sleep; not before */
static void test_sleep_child(void **state)
{
	char *dir = test_tmpdir("perf-ready");
	struct strbuf script = STRBUF_INIT, go = STRBUF_INIT;
	struct child_process cp;
	bool seen = false;

	(void)state;
	strbuf_addf(&go, "%s/go", dir);
	/* the shell spins until go exists (no sleep of its own), then
	 * starts a sleep as perf starts its workload */
	strbuf_addf(&script, "tail -f /dev/null & until [ -e '%s' ]; do :; done; sleep 30 & wait", go.buf);
	char *argv[] = { "sh", "-c", script.buf, NULL };
	child_process_init(&cp);
	cp.argv = argv;
	cp.no_stdin = true;
	cp.new_pgrp = true;
	assert_int_equal(start_command(&cp), 0);
	assert_false(perf_workload_started(cp.pid));
	/* a child that is not sleep (perf's own helpers) does not count */
	struct strbuf kids = STRBUF_INIT, path = STRBUF_INIT;
	strbuf_addf(&path, "/proc/%ld/task/%ld/children", (long)cp.pid, (long)cp.pid);
	for (int i = 0; i < 6000 && !kids.len; i++) {
		strbuf_reset(&kids);
		if (read_file_quiet(&kids, path.buf, 4096) < 0 || !kids.len)
			usleep(10000);
	}
	assert_true(kids.len > 0);
	assert_false(perf_workload_started(cp.pid));
	strbuf_release(&kids);
	strbuf_release(&path);
	assert_int_equal(write_file_atomic(go.buf, "", 0), 0);
	/* polled until the shell has forked it (a minute at most, so that
	 * a perf_workload_started that never says yes fails, not hangs) */
	for (int i = 0; i < 6000 && !seen; i++) {
		seen = perf_workload_started(cp.pid);
		if (!seen)
			usleep(10000);
	}
	assert_true(seen);
	kill(-cp.pid, SIGKILL);
	finish_command(&cp, 0, NULL);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleep_child),
		cmocka_unit_test(test_no_child),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
