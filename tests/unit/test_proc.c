/*
 * Unit tests of util/proc.c: a process's children from the kernel's
 * children file, and from the scan of /proc that kernels without it (the
 * small guest config) need.
 */
#include "test_helpers.h"
#include "util/proc.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The pids of kids sorted, space-separated, for comparing two listings. */
static char *sorted(const char *kids)
{
	long v[64];
	int n = 0;
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = kids; *p && n < 64;) {
		char *end;
		v[n++] = strtol(p, &end, 10);
		p = end + strspn(end, " \n");
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			long t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%ld", i ? " " : "", v[i]);
	return strbuf_detach(&sb, NULL);
}

static int count(const char *kids)
{
	int n = 0;

	for (const char *p = kids; *p; p += strspn(p, " \n"))
		if (*p != ' ' && *p != '\n') {
			n++;
			p += strcspn(p, " \n");
		}
	return n;
}

/*
 * A shell with two children, one of them a program whose name holds
 * ") x (" as a comm may: the scan finds both, and the same as the
 * kernel's file.
 */
static void test_children(void **state)
{
	char *dir = test_tmpdir("proc");
	struct strbuf odd = STRBUF_INIT, script = STRBUF_INIT, kids = STRBUF_INIT,
		      file = STRBUF_INIT;
	struct child_process cp;
	(void)state;

	strbuf_addf(&odd, "%s/a) x (b", dir);
	assert_int_equal(symlink("/bin/sleep", odd.buf), 0);
	strbuf_addf(&script, "sleep 30 & '%s' 30 & wait", odd.buf);
	char *argv[] = { "sh", "-c", script.buf, NULL };
	child_process_init(&cp);
	cp.argv = argv;
	cp.no_stdin = true;
	cp.new_pgrp = true;
	assert_int_equal(start_command(&cp), 0);
	pid_t sh = cp.pid;
	/* until the shell has forked both (a minute at most: a scan that
	 * never sees them fails, not hangs) */
	for (int i = 0; i < 6000; i++) {
		strbuf_reset(&kids);
		assert_int_equal(proc_children(cp.pid, PROC_CHILDREN_SCAN, &kids), 0);
		if (count(kids.buf) == 2)
			break;
		usleep(10000);
	}
	assert_int_equal(count(kids.buf), 2);
	assert_int_equal(proc_children(cp.pid, PROC_CHILDREN_AUTO, &file), 0);
	char *a = sorted(kids.buf), *b = sorted(file.buf);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* no children: an empty list, not an error */
	pid_t kid = (pid_t)atol(kids.buf);
	strbuf_reset(&kids);
	assert_int_equal(proc_children(kid, PROC_CHILDREN_SCAN, &kids), 0);
	assert_int_equal(kids.len, 0);
	kill(-sh, SIGKILL);
	finish_command(&cp, 0, NULL);
	/* gone (reaped): -1 either way */
	strbuf_reset(&kids);
	assert_int_equal(proc_children(sh, PROC_CHILDREN_SCAN, &kids), -1);
	assert_int_equal(proc_children(sh, PROC_CHILDREN_AUTO, &kids), -1);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&odd);
	strbuf_release(&script);
	strbuf_release(&kids);
	strbuf_release(&file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_children),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
