/*
 * icount.c: a job with `measure: instructions` counts its benchmark's
 * instructions under valgrind's cachegrind (run_impl.h).
 *
 * Why a second execution, not the timed one under valgrind: cachegrind
 * slows a program 5-50 times, and the wall-clock metrics (the
 * benchmark's own, time.*, the monitors') must stay those of the
 * program as it runs.  The count is exact where the clock is not: on a
 * loaded machine the same code gives the same count, run after run.
 *
 * Exact, not nearly: what cachegrind counts depends on the size of the
 * environment (the dynamic loader and a shell walk every byte of it; the
 * stack starts lower by as much), never on ASLR (valgrind lays out the
 * client's memory itself, the same every time: no `setarch -R` needed).
 * The one entry that changes from run to run of a commit is
 * PERFBOT_RUN_DIR, ".run-K.<pid>": run 10 counted 14 instructions more
 * than run 9 of a shell loop.  The count gets it padded with '/' to a
 * fixed length, the same directory by another spelling.
 */
#include "parse/cachegrind.h"
#include "run/run_impl.h"
#include "runner/runner.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A count takes this many times the job's timeout at most (none: none). */
#define ICOUNT_SLOWDOWN 50

/* The length of PERFBOT_RUN_DIR's last part, '/'s added: ".run-" and
 * two numbers of up to 20 digits fit. */
#define ICOUNT_RUN_NAME_WIDTH 48

/*
 * env with PERFBOT_RUN_DIR=dir padded (see above) in padded: a copy of
 * env's pointers (yours to free, the strings env's but the one).
 */
static char **pad_run_dir(char *const *env, const char *dir, struct strbuf *padded)
{
	const char *slash = strrchr(dir, '/');
	size_t n = 0, width = (slash ? (size_t)(slash - dir) : 0) + 1 + ICOUNT_RUN_NAME_WIDTH;
	char **out;

	while (env && env[n])
		n++;
	out = xcalloc(n + 1, sizeof(*out));
	strbuf_addf(padded, "PERFBOT_RUN_DIR=%s", dir);
	while (padded->len < strlen("PERFBOT_RUN_DIR=") + width)
		strbuf_addch(padded, '/');
	for (size_t i = 0; i < n; i++)
		out[i] = strncmp(env[i], "PERFBOT_RUN_DIR=", 16) ? env[i] : padded->buf;
	return out;
}

int run_count_instructions(struct run_ctx *rc, char *const *env, const char *cwd)
{
	const struct job_desc *d = rc->desc;
	struct held_dir sub = { -1, NULL };
	struct strbuf at = STRBUF_INIT;
	struct strbuf run_dir = STRBUF_INIT;
	char **cenv = pad_run_dir(env, rc->dir->path, &run_dir);
	struct argv_list av = ARGV_LIST_INIT;
	struct child_process cp;
	const char *why = NULL;
	unsigned long long total;
	int files, ret = 1;

	child_process_init(&cp);
	/* a new dir in the run's dir, held: its files are made through it */
	if (held_dir_make_in(&sub, rc->dir, "cachegrind", 0755) < 0) {
		why = "no directory for it";
		goto out;
	}
	/* valgrind opens its files itself, in every process it follows:
	 * each gets the dir as /proc/self/fd/<fd>, the fd inherited from
	 * here (keep_fd), which leads to the dir held whatever its name now
	 * (fileio.h's held_dir_proc_path), where a path by name could be
	 * pointed elsewhere mid-run.  (A process of the benchmark that
	 * closes every fd it inherited first cannot write its file.) */
	held_dir_proc_path(&sub, NULL, &at);
	argv_list_push(&av, "valgrind");
	argv_list_push(&av, "--tool=cachegrind");
	argv_list_push(&av, "--cache-sim=no");
	/* a shell's children, a make's compilers: each writes its own file */
	argv_list_push(&av, "--trace-children=yes");
	argv_list_pushf(&av, "--cachegrind-out-file=%s/cachegrind.out.%%p", at.buf);
	argv_list_pushf(&av, "--log-file=%s/valgrind.log.%%p", at.buf);
	if (d->command)
		for (char *const *a = d->command; *a; a++)
			argv_list_push(&av, *a);
	else if (d->shell_command) {
		argv_list_push(&av, "/bin/sh");
		argv_list_push(&av, "-c");
		argv_list_push(&av, d->shell_command);
	} else
		for (size_t i = 0; i < d->bench_argv.nr; i++)
			argv_list_push(&av, d->bench_argv.v[i]);
	cp.argv = av.v;
	cp.env = cenv;
	cp.dir = cwd;
	cp.out_fd = held_dir_create(&sub, "stdout");
	cp.err_fd = cp.out_fd < 0 ? -1 : held_dir_create(&sub, "stderr");
	if (cp.err_fd < 0) {
		why = "its output files could not be made";
		goto out;
	}
	cp.no_stdin = true;
	cp.new_pgrp = true;
	cp.die_with_parent = true;
	cp.keep_fd = sub.fd;
	run_phase(rc, "counting instructions under cachegrind");
	int started = start_command(&cp);
	close(cp.out_fd);
	close(cp.err_fd);
	cp.out_fd = cp.err_fd = -1;
	if (started < 0) {
		why = "valgrind did not start";
		goto out;
	}
	int r = finish_command(&cp, d->timeout > 0 ? d->timeout * ICOUNT_SLOWDOWN : 0,
			       rc->opts->stop);
	if (r == FINISH_INTERRUPTED)
		why = "interrupted";
	else if (r == FINISH_TIMEOUT)
		why = "timed out";
	else if (r < 0)
		why = "waiting for it failed";
	else if (!WIFEXITED(cp.status) || WEXITSTATUS(cp.status))
		why = "the benchmark under valgrind failed";
	else if (cachegrind_sum_dir(at.buf, "Ir", &total, &files) < 0)
		why = "no count in its files";
	if (why)
		goto out;
	rc->instructions = total;
	rc->has_instructions = true;
	run_phase(rc, "counted %llu instructions in %d process%s", total, files,
		  files == 1 ? "" : "es");
	ret = 0;
out:
	if (cp.out_fd >= 0)
		close(cp.out_fd);
	if (ret)
		error("%s: the count of instructions under cachegrind failed (run %d/%d): %s "
		      "(see %s/cachegrind)", d->testcase, rc->k, rc->n, why ? why : "see above",
		      rc->dir->path);
	if (ret && why)
		run_phase(rc, "count of instructions failed: %s", why);
	argv_list_release(&av);
	free(cenv);
	strbuf_release(&run_dir);
	strbuf_release(&at);
	held_dir_close(&sub);
	return ret;
}
