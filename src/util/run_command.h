#ifndef PERFBOT_RUN_COMMAND_H
#define PERFBOT_RUN_COMMAND_H
/*
 * Running other programs: benchmarks, git, perf.  Modelled on git's
 * run-command.h.  The caller's steps:
 *
 *   struct child_process cp;
 *   child_process_init(&cp);
 *   cp.argv = argv;                  // or cp.shell_cmd = "make -j2"
 *   cp.out_path = "output";          // optional redirections (or
 *                                    // out_fd, err_fd: files of ours)
 *   cp.new_pgrp = true;              // so a timeout kills its children too
 *   if (start_command(&cp) < 0) ... // error already printed
 *   int r = finish_command(&cp, timeout_s, stop_flag);
 *
 * finish_command waits with wait4, so cp.ru holds the child's rusage (what
 * the `time` monitor reports) and cp.start/cp.end the wall clock.  Return
 * contract of finish_command:
 *   FINISH_EXITED       the child exited or died of a signal by itself;
 *                       cp.status is the wait status
 *   FINISH_TIMEOUT      timeout_s passed: the whole process group got
 *                       SIGTERM, then SIGKILL 2 s later
 *   FINISH_INTERRUPTED  *stop became non-zero (SIGINT/SIGTERM to perfbot):
 *                       killed the same way
 *   -1                  waiting failed (message printed)
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "util/strbuf.h"

struct child_process {
	char *const *argv;      /* program and arguments, or NULL with shell_cmd */
	const char *shell_cmd;  /* run with /bin/sh -c when argv is NULL */
	const char *dir;        /* chdir here first, when set */
	char *const *env;       /* extra "NAME=value" entries, NULL-terminated */
	const char *out_path;   /* stdout to this file (created), when set */
	const char *err_path;   /* stderr to this file; "&1" joins stdout */
	int out_fd;             /* or stdout to this fd (>= 0) */
	int err_fd;             /* or stderr to this fd (>= 0): a file opened
				   by the caller, say through a held dir
				   (util/fileio.h), not by a path the child
				   opens.  out_fd and err_fd stay the
				   caller's to close */
	int keep_fd;            /* > 2: an fd of ours the program inherits
				   under its number (O_CLOEXEC cleared in
				   the child only): a held dir it is given
				   as /proc/self/fd/<n> (util/fileio.h) */
	bool no_stdin;          /* stdin from /dev/null */
	bool new_pgrp;          /* own process group, killed as a whole */
	bool die_with_parent;   /* SIGKILL when perfbot dies, even by kill -9
				   (PR_SET_PDEATHSIG); with new_pgrp, the
				   whole group: a guard process between
				   perfbot and the program kills it (for
				   make, whose compilers would live on) */
	const int *cgroup_fds;  /* cgroup.procs files open for writing: the
				   child joins each (writes "0") before it
				   does anything else, so that all it starts
				   is in them; start_command returns only
				   after it did */
	int nr_cgroup_fds;
	int cgroup_kill_fd;     /* >= 0: a v2 cgroup.kill the guard of
				   die_with_parent writes "1" to when perfbot
				   dies (the children that left the group) */
	int cgroup_errno;       /* set when start_command failed because the
				   child could not join a cgroup (nothing
				   runs then, and nothing is printed) */

	pid_t pid;
	int status;             /* wait status, valid after FINISH_EXITED */
	struct rusage ru;
	double start, end;      /* CLOCK_REALTIME seconds */
};

enum { FINISH_EXITED = 0, FINISH_TIMEOUT = 1, FINISH_INTERRUPTED = 2 };

void child_process_init(struct child_process *cp);
/* Fork and exec.  0, or -1 with a message (the exec failure of a missing
 * program is reported by the child as exit status 127, like a shell). */
int start_command(struct child_process *cp);
/* Wait; timeout_s <= 0 means no timeout; stop may be NULL. */
int finish_command(struct child_process *cp, double timeout_s, volatile sig_atomic_t *stop);
/* Non-blocking: FINISH_EXITED when the child has exited (reaped, status
 * and ru filled, its leftover group killed), 1 while it runs, -1 on error. */
int poll_command(struct child_process *cp);
/* Kill the child (its group when new_pgrp): SIGTERM, then SIGKILL after
 * grace_s.  Reaps it, filling status and ru. */
void kill_command(struct child_process *cp, double grace_s);

/* Run argv to completion capturing stdout into out (appended); stderr is
 * passed through.  The child dies with perfbot (die_with_parent, so call
 * it from the main thread: the signal comes when the calling thread
 * ends).  Returns the exit code (0..255), or -1 with a message. */
int capture_command(char *const *argv, const char *dir, struct strbuf *out);
/* The same with stderr sent to err_path ("/dev/null" to silence chatty
 * tools such as git's "HEAD is now at ..."), or passed through when NULL. */
int capture_command_err(char *const *argv, const char *dir, struct strbuf *out,
			const char *err_path);

/* Whether prog can be run: a path that is executable, or a name found
 * executable in $PATH (default "/usr/bin:/bin"). */
bool program_in_path(const char *prog);

double now_seconds(void);

#endif
