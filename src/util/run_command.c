/* run_command.c: fork/exec with redirections, timeouts and rusage. */
#include "util/error.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

bool program_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	struct strbuf p = STRBUF_INIT;
	bool found = false;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (const char *d = path && *path ? path : "/usr/bin:/bin"; !found;) {
		size_t len = strcspn(d, ":");
		strbuf_reset(&p);
		/* an empty entry is the current directory, as for execvp */
		if (len)
			strbuf_add(&p, d, len);
		else
			strbuf_addch(&p, '.');
		strbuf_addf(&p, "/%s", prog);
		found = access(p.buf, X_OK) == 0;
		if (!d[len])
			break;
		d += len + 1;
	}
	strbuf_release(&p);
	return found;
}

void child_process_init(struct child_process *cp)
{
	memset(cp, 0, sizeof(*cp));
	cp->out_fd = -1;
	cp->err_fd = -1;
	cp->keep_fd = -1;
	cp->pid = -1;
	cp->cgroup_kill_fd = -1;
}

/* In the child: only async-signal-safe calls until exec. */
static void child_redirect(const struct child_process *cp)
{
	int fd, out_fd = cp->out_fd, err_fd = cp->err_fd;

	/* an fd of ours among 0-2 (perfbot started with one closed) would
	 * be overwritten by the dup2s below before its own: move it up */
	if (out_fd >= 0 && out_fd <= 2)
		out_fd = fcntl(out_fd, F_DUPFD, 3);
	if (err_fd >= 0 && err_fd <= 2)
		err_fd = fcntl(err_fd, F_DUPFD, 3);

	if (cp->no_stdin) {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
	if (cp->out_path) {
		/* O_NOFOLLOW: never through a link planted at the name (the
		 * paths are /dev/null or new files of a new dir: not O_EXCL) */
		fd = open(cp->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		close(fd);
	} else if (out_fd >= 0) {
		dup2(out_fd, 1);
	}
	if (err_fd >= 0) {
		dup2(err_fd, 2);
	} else if (cp->err_path) {
		if (!strcmp(cp->err_path, "&1")) {
			dup2(1, 2);
		} else {
			fd = open(cp->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
			if (fd < 0)
				_exit(126);
			dup2(fd, 2);
			close(fd);
		}
	}
	/* the one fd of ours the program is given (its number unchanged) */
	if (cp->keep_fd > 2)
		fcntl(cp->keep_fd, F_SETFD, 0);
}

extern char **environ;

/*
 * The child's environment is built before fork: perfbot may have a sampler
 * thread running, and after fork in a threaded process only
 * async-signal-safe calls are allowed (putenv may allocate).
 */
static char **build_env(char *const *extra)
{
	size_t n = 0, k = 0, nx = 0;

	while (environ[n])
		n++;
	while (extra && extra[nx])
		nx++;
	char **env = xcalloc(n + nx + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t klen = eq ? (size_t)(eq - environ[i]) + 1 : strlen(environ[i]);
		bool overridden = false;
		for (size_t j = 0; j < nx; j++)
			if (!strncmp(extra[j], environ[i], klen))
				overridden = true;
		if (!overridden)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < nx; j++)
		env[k++] = extra[j];
	env[k] = NULL;
	return env;
}

/* the guard's cgroup.kill (see guard_group); set in the child only */
static int guard_cgroup_kill_fd = -1;

/* The guard's answer to perfbot's death (see guard_group): the cgroup
 * first, for what left the group (setsid), then the group. */
static void kill_own_group(int sig)
{
	(void)sig;
	if (guard_cgroup_kill_fd >= 0 && write(guard_cgroup_kill_fd, "1", 1) < 0)
		guard_cgroup_kill_fd = -1;
	kill(0, SIGKILL);
}

/*
 * In the child of start_command, for die_with_parent with new_pgrp: a
 * program killed with perfbot can leave its own children running (make
 * killed by SIGKILL cannot stop its compilers), so this process stays as
 * a guard that kills the whole group when perfbot dies, and the program
 * runs in a grandchild.  The guard ignores SIGTERM and SIGINT, so that
 * perfbot's kill_command (or perf's stop, a SIGINT) reaches the program
 * as a signal it can clean up after;
 * it exits with the program's status.  Async-signal-safe calls only.
 * Returns in the grandchild.
 */
static void guard_group(pid_t parent, int cgroup_kill_fd)
{
	struct sigaction sa;
	pid_t g;
	int st;

	guard_cgroup_kill_fd = cgroup_kill_fd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kill_own_group;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);        /* perf's stop is a SIGINT to the group */
	if (prctl(PR_SET_PDEATHSIG, SIGHUP) < 0 || getppid() != parent)
		kill(0, SIGKILL);
	g = fork();
	if (g < 0)
		_exit(126);
	if (g == 0) {
		if (cgroup_kill_fd >= 0)
			close(cgroup_kill_fd);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* and the program dies if its guard does */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		return;
	}
	while (waitpid(g, &st, 0) < 0)
		if (errno != EINTR)
			_exit(126);
	/* what the program left in the group: perfbot kills it once it sees
	 * the guard exit, but a perfbot killed right now never will; the
	 * guard ignores SIGTERM, the leftovers get it */
	kill(0, SIGTERM);
	if (WIFEXITED(st))
		_exit(WEXITSTATUS(st));
	signal(WTERMSIG(st), SIG_DFL);
	kill(getpid(), WTERMSIG(st));
	_exit(128 + WTERMSIG(st));
}

/* In the child: join the cgroups, say how it went on fd (0 or an errno). */
static void child_join_cgroups(const struct child_process *cp, int fd)
{
	int e = 0;

	for (int i = 0; i < cp->nr_cgroup_fds && !e; i++)
		if (write(cp->cgroup_fds[i], "0", 1) != 1)
			e = errno ? errno : EIO;
	for (int i = 0; i < cp->nr_cgroup_fds; i++)
		close(cp->cgroup_fds[i]);
	if (write(fd, &e, sizeof(e)) != (ssize_t)sizeof(e) || e)
		_exit(126);
	close(fd);
}

/* In the parent: what child_join_cgroups said; 0, or the child's errno
 * (it is reaped then). */
static int parent_joined(struct child_process *cp, int fd)
{
	int e = 0;
	ssize_t n;

	do
		n = read(fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n == (ssize_t)sizeof(e) && !e)
		return 0;
	if (n != (ssize_t)sizeof(e))
		e = EIO;
	while (waitpid(cp->pid, &cp->status, 0) < 0 && errno == EINTR)
		;
	cp->pid = -1;
	return e;
}

int start_command(struct child_process *cp)
{
	char *const sh_argv[] = { "/bin/sh", "-c", (char *)cp->shell_cmd, NULL };
	char *const *argv = cp->argv ? cp->argv : sh_argv;
	char **env;
	int joined[2] = { -1, -1 };

	cp->cgroup_errno = 0;
	if (!cp->argv && !cp->shell_cmd)
		return error("start_command: nothing to run");
	/* 0-2 are the program's stdin, stdout and stderr */
	if (cp->keep_fd >= 0 && cp->keep_fd <= 2)
		return error("start_command: cannot keep fd %d for the program", cp->keep_fd);
	if (cp->nr_cgroup_fds && pipe2(joined, O_CLOEXEC) < 0)
		return error("cannot create pipe: %s", strerror(errno));
	env = build_env(cp->env);
	cp->start = now_seconds();
	pid_t parent = getpid();
	cp->pid = fork();
	if (cp->pid < 0) {
		int e = errno;
		free(env);
		if (joined[0] >= 0) {
			close(joined[0]);
			close(joined[1]);
		}
		return error("cannot fork: %s", strerror(e));
	}
	if (cp->pid == 0) {
		/* first: all it starts is in the cgroups */
		if (cp->nr_cgroup_fds) {
			close(joined[0]);
			child_join_cgroups(cp, joined[1]);
		}
		if (cp->new_pgrp)
			setpgid(0, 0);
		/* the signal comes when the forking thread dies: that is
		 * perfbot's main thread; a parent already gone by now is
		 * caught by the getppid check */
		if (cp->die_with_parent && cp->new_pgrp)
			guard_group(parent, cp->cgroup_kill_fd);
		else if (cp->die_with_parent &&
			 (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent))
			_exit(126);
		/* perfbot ignores or handles some signals; a benchmark must
		 * start with the defaults */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (cp->dir && chdir(cp->dir) < 0)
			_exit(126);
		child_redirect(cp);
		if (cp->cgroup_kill_fd >= 0)
			close(cp->cgroup_kill_fd);
		execvpe(argv[0], argv, env);
		_exit(127);
	}
	free(env);
	if (cp->nr_cgroup_fds) {
		close(joined[1]);
		cp->cgroup_errno = parent_joined(cp, joined[0]);
		if (cp->cgroup_errno)
			return -1;
	}
	/* set it from the parent too, so a kill right after fork finds it */
	if (cp->new_pgrp)
		setpgid(cp->pid, cp->pid);
	return 0;
}

static int reap(struct child_process *cp, int options)
{
	pid_t r;

	do
		r = wait4(cp->pid, &cp->status, options, &cp->ru);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return error("cannot wait for process %ld: %s", (long)cp->pid, strerror(errno));
	if (r > 0)
		cp->end = now_seconds();
	return r > 0;
}

void kill_command(struct child_process *cp, double grace_s)
{
	pid_t target = cp->new_pgrp ? -cp->pid : cp->pid;
	double deadline;

	if (cp->pid <= 0)
		return;
	kill(target, SIGTERM);
	deadline = now_seconds() + grace_s;
	while (now_seconds() < deadline) {
		int r = reap(cp, WNOHANG);
		if (r != 0) {
			/* the leader is gone; make sure no straggler of its
			 * group keeps running */
			if (cp->new_pgrp)
				kill(target, SIGKILL);
			cp->pid = -1;
			return;
		}
		usleep(20000);
	}
	kill(target, SIGKILL);
	reap(cp, 0);
	cp->pid = -1;
}

int poll_command(struct child_process *cp)
{
	int r = reap(cp, WNOHANG);

	if (r < 0)
		return -1;
	if (r == 0)
		return 1;
	pid_t pid = cp->pid;
	cp->pid = -1;
	/* children the benchmark left behind in its group */
	if (cp->new_pgrp)
		kill(-pid, SIGKILL);
	return FINISH_EXITED;
}

int finish_command(struct child_process *cp, double timeout_s, volatile sig_atomic_t *stop)
{
	double deadline = timeout_s > 0 ? cp->start + timeout_s : 0;

	for (;;) {
		int r = poll_command(cp);
		if (r <= 0)
			return r;
		if (stop && *stop) {
			kill_command(cp, 2);
			return FINISH_INTERRUPTED;
		}
		if (deadline && now_seconds() >= deadline) {
			kill_command(cp, 2);
			return FINISH_TIMEOUT;
		}
		/* 10 ms polling keeps the timeout precise without a SIGCHLD
		 * handler (which would be global state) */
		poll(NULL, 0, 10);
	}
}

int capture_command(char *const *argv, const char *dir, struct strbuf *out)
{
	return capture_command_err(argv, dir, out, NULL);
}

int capture_command_err(char *const *argv, const char *dir, struct strbuf *out,
			const char *err_path)
{
	struct child_process cp;
	int fds[2];

	if (pipe(fds) < 0)
		return error("cannot create pipe: %s", strerror(errno));
	child_process_init(&cp);
	cp.argv = argv;
	cp.dir = dir;
	cp.out_fd = fds[1];
	cp.err_path = err_path;
	cp.no_stdin = true;
	/* git above all: a perfbot killed with -9 leaves none running (in
	 * perfbot's group still, so that Ctrl-C reaches it as before) */
	cp.die_with_parent = true;
	if (start_command(&cp) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	for (;;) {
		strbuf_grow(out, 8192);
		ssize_t n = read(fds[0], out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
	}
	close(fds[0]);
	if (finish_command(&cp, 0, NULL) < 0)
		return -1;
	if (WIFEXITED(cp.status))
		return WEXITSTATUS(cp.status);
	return 128 + (WIFSIGNALED(cp.status) ? WTERMSIG(cp.status) : 0);
}
