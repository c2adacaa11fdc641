/*
 * worker.c: a test box's loop (see worker.h for the steps and why the
 * job runs in a child process).
 *
 * Stopping: the first SIGTERM or SIGINT lets the job at hand finish and
 * upload, then the worker exits; a second one aborts the job (it goes
 * back to the queue as a failed attempt).  The child runs in its own
 * process group, so that a Ctrl-C at the terminal reaches the worker
 * alone and the worker decides.
 */
#include "lab/worker.h"
#include "job/job.h"
#include "kernel/build.h"
#include "lab/checkout.h"
#include "lab/queue.h"
#include "pg/schema.h"
#include "lab/upload.h"
#include "monitor/perf.h"
#include "run/desc.h"
#include "run/run.h"
#include "util/error.h"
#include "util/fileio.h"
#include "git/git.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Exit codes of the job's child process. */
enum {
	CHILD_COMPLETE = 0,      /* every run complete: upload */
	CHILD_INCOMPLETE = 1,    /* some runs incomplete: upload them all */
	CHILD_FAILED = 2,        /* nothing to upload; the reason on stderr */
};

#define TAIL_MAX 4096            /* bytes of the child's stderr kept */

struct worker {
	const struct worker_opts *o;
	struct pg db;
	const char *on_connect[2];
	char host[256];
	char name[320];          /* "host:pid", in queue listings */
	struct strbuf group, dir;
	struct strbuf repos;     /* the bare caches of checkouts */
	struct perf_caps perf;   /* probed once, for every job's run */
	uid_t uid;               /* --user's, when given */
	gid_t gid;
};

static bool aborting(const struct worker *w)
{
	return w->o->stop && *w->o->stop >= 2;
}

static bool stopping(const struct worker *w)
{
	return w->o->stop && *w->o->stop >= 1;
}

static void say(const struct worker *w, const struct queue_claim *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(const struct worker *w, const struct queue_claim *c, const char *fmt, ...)
{
	va_list ap;

	(void)w;
	fprintf(stderr, "perfbot: worker: job %lld attempt %d (%s): ", c->id, c->attempt, c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* After a call failed: reconnect when the connection broke, until it is
 * back (true: try the call again) or the worker is told to stop (false):
 * with a job at hand (busy), only an abort stops the waiting, its results
 * are worth it; idle, the first SIGTERM does. */
static bool recover(struct worker *w, bool busy)
{
	if (!pg_broken(&w->db))
		return false;
	while (busy ? !aborting(w) : !stopping(w))
		if (pg_reconnect(&w->db, 1.0, NULL) == 0)
			return true;
	return false;
}

/* --- files ---------------------------------------------------------- */

/* Job dirs are "job-<id>.<attempt>.<pid>": remove those of workers that
 * are gone (killed with -9, the box rebooted). */
static void clean_dead(struct worker *w)
{
	DIR *d = opendir(w->dir.buf);
	struct dirent *e;
	struct strbuf path = STRBUF_INIT;

	if (!d)
		return;
	while ((e = readdir(d))) {
		long long id;
		int attempt;
		long pid;
		if (sscanf(e->d_name, "job-%lld.%d.%ld", &id, &attempt, &pid) != 3 || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		strbuf_reset(&path);
		path_join(&path, w->dir.buf, e->d_name);
		remove_tree(path.buf);
	}
	closedir(d);
	strbuf_release(&path);
}

/* --- the child: checkout, build, run_job ----------------------------- */

/* The "reason:" line of a run's last_state, into why. */
static void run_reason(const char *run_dir, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *r;

	path_join(&path, run_dir, "last_state");
	if (read_file(&text, path.buf) == 0 && (r = strstr(text.buf, "reason: "))) {
		r += 8;
		strbuf_add(why, r, strcspn(r, "\n"));
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

/* Is name one of the comma-separated list's? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* What this worker runs (--allow, --allow-command, --allow-build): 0, or
 * -1 after an error that becomes the job's last_error. */
static int check_allowed(const struct worker *w, const struct queue_claim *c,
			 const struct job *job)
{
	const struct worker_opts *o = w->o;
	const char *key, *tc = job_testcase(job, &key);
	const char *section, *cmd = job_command(job, &section);
	bool listed = !o->allow && !o->nr_allow_cmds;

	if (c->build && !o->allow_build)
		return error("job %lld: it builds its checkout (--build), and this worker runs no "
			     "build commands from the queue (start it with --allow-build)", c->id);
	if (listed)
		return 0;
	if (!tc || !(o->allow ? in_list(o->allow, tc) : !strcmp(tc, "mytest")))
		return error("job %lld: testcase '%s' is not allowed on this box (--allow)", c->id,
			     tc ? tc : "(none)");
	for (int i = 0; cmd && i < o->nr_allow_cmds; i++)
		if (!strcmp(cmd, o->allow_cmds[i]))
			cmd = NULL;
	if (cmd)
		return error("job %lld: command '%s' is not allowed on this box (--allow-command)",
			     c->id, cmd);
	return 0;
}

/* The job's child becomes --user: groups, gid, uid, for good; the parent
 * death signal again (a change of credentials clears it). */
static int drop_privileges(const struct worker *w, const char *jobdir, pid_t parent)
{
	if (!w->o->user)
		return 0;
	if (setgroups(1, &w->gid) < 0 || setgid(w->gid) < 0 || setuid(w->uid) < 0 ||
	    setuid(0) == 0)
		return error("cannot become user '%s': %s", w->o->user, strerror(errno));
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		return -1;
	setenv("HOME", jobdir, 1);
	setenv("USER", w->o->user, 1);
	setenv("LOGNAME", w->o->user, 1);
	return 0;
}

/*
 * --kernel-tree: the job's commit of the box's kernel tree, built in the
 * kernel cache (or found there), and vm set up to boot it for each run
 * with the job inside, as bisect --kernel-tree does.  The runs are
 * recorded under the commit as queued and the job's tbox_group (the
 * box's, when the job names none), which the upload checks.  0, or
 * -1 after an error that becomes the job's last error; release vm in
 * either case once called.
 */
static int prepare_kernel(const struct worker *w, const struct queue_claim *c, struct job *job,
			  struct kernel_image *img, struct kernel_vm *vm)
{
	const struct worker_opts *o = w->o;
	struct kernel_build_opts bo = {
		.tree = o->kernel_tree, .commit = c->commit, .config = o->kconfig,
		.verbose = o->verbose, .stop = o->stop,
	};
	struct kernel_vm_opts vo = o->vm;
	struct strbuf why = STRBUF_INIT;
	struct job_desc_keys keys;
	char *group;
	int r;

	memset(vm, 0, sizeof(*vm));
	if (c->repo)
		return error("job %lld: it names a repo to check out (--repo), and this worker "
			     "boots the commits of its kernel tree (--kernel-tree)", c->id);
	if (!c->commit)
		return error("job %lld: no commit: this worker boots the job's commit of its "
			     "kernel tree (queue it with --commit)", c->id);
	r = kernel_build(&bo, img, &why);
	if (r == KERNEL_BUILD_FAILED)
		error("the kernel does not build (%s)", why.buf);
	strbuf_release(&why);
	if (r)
		return -1;
	vo.kernel = img->dir;
	vo.commit = c->commit;
	/* a copy: prepare sets the job's key from it */
	job_desc_keys(job, &keys);
	group = keys.tbox_group ? xstrdup(keys.tbox_group) : NULL;
	vo.tbox_group = group;
	vo.verbose = o->verbose > 1;
	vo.stop = o->stop;
	r = kernel_vm_prepare(vm, &vo, job, NULL, NULL);
	vm->o.tbox_group = NULL;
	free(group);
	return r;
}

static int child_main(struct worker *w, const struct queue_claim *c, const char *jobdir)
{
	struct strbuf base = STRBUF_INIT, src = STRBUF_INIT, log = STRBUF_INIT;
	struct strbuf env = STRBUF_INIT, cache = STRBUF_INIT, path = STRBUF_INIT;
	struct job *job = NULL;
	struct run_opts ro;
	struct run_result res;
	struct kernel_image img;
	struct kernel_vm vm;
	bool vm_made = false;
	struct utsname u;
	char *sha = NULL;
	char *envv[2] = { NULL, NULL };
	int r, ret = CHILD_FAILED;

	memset(&res, 0, sizeof(res));
	memset(&img, 0, sizeof(img));
	path_join(&base, jobdir, "result");
	if (job_load_string(c->job, strlen(c->job), c->name,
			    &(struct job_load_opts){ .no_includes = true }, &job) < 0)
		goto out;
	/* this box is where it runs: testbox, and what the submitter left
	 * open (see src/cmd/queue.c) */
	job_set_value(job, "testbox", job_string_new(w->host));
	job_set_default(job, "tbox_group", job_string_new(w->group.buf));
	if (uname(&u) == 0)
		job_set_default(job, "arch", job_string_new(u.machine));
	if (check_allowed(w, c, job) < 0 || job_expand_percentages(job, 0) < 0)
		goto out;
	memset(&ro, 0, sizeof(ro));
	if (w->o->kernel_tree) {
		vm_made = true;
		if (prepare_kernel(w, c, job, &img, &vm) < 0)
			goto out;
		ro.backend = &vm.backend;
	} else if (c->repo) {
		path_join(&src, jobdir, "src");
		strbuf_addstr(&cache, w->repos.buf);
		if (lab_checkout(c->repo, c->commit, cache.buf, src.buf, &sha) < 0)
			goto out;
		if (c->build) {
			path_join(&log, jobdir, "build.log");
			if (lab_build(c->build, src.buf, log.buf, w->o->stop) < 0)
				goto out;
		}
		strbuf_addf(&env, "PERFBOT_BUILD_DIR=%s", src.buf);
		envv[0] = env.buf;
		ro.env = envv;
		ro.workdir = src.buf;
	}
	ro.job = job;
	ro.runs = c->runs;
	ro.result_base = base.buf;
	ro.commit = sha ? sha : c->commit;
	ro.verbose = w->o->verbose;
	ro.stop = w->o->stop;
	ro.perf_caps = &w->perf;
	r = run_job(&ro, &res);
	if (r < 0 || !res.result_root || !res.nr_runs)
		goto out;
	if (res.nr_incomplete == res.nr_runs) {
		struct strbuf why = STRBUF_INIT;
		run_reason(res.run_dirs[res.nr_runs - 1], &why);
		error("all %d run%s incomplete%s%s", res.nr_runs, res.nr_runs == 1 ? "" : "s",
		      why.len ? ": " : "", why.buf);
		strbuf_release(&why);
		goto out;
	}
	path_join(&path, jobdir, "result_root");
	if (write_file_atomic(path.buf, res.result_root, strlen(res.result_root)) < 0)
		goto out;
	ret = r == 0 ? CHILD_COMPLETE : CHILD_INCOMPLETE;
out:
	run_result_release(&res);
	if (vm_made)
		kernel_vm_release(&vm);
	kernel_image_release(&img);
	job_free(job);
	free(sha);
	strbuf_release(&base);
	strbuf_release(&src);
	strbuf_release(&log);
	strbuf_release(&env);
	strbuf_release(&cache);
	strbuf_release(&path);
	return ret;
}

/* --- the parent: heartbeats while the child works --------------------- */

struct outcome {
	int status;              /* the child's wait status */
	bool lost;               /* the job was not ours any more */
	bool aborted;            /* the worker was told to abort it */
	struct strbuf tail;      /* the end of the child's stderr */
};

static void keep_tail(struct strbuf *tail, const char *buf, size_t n)
{
	strbuf_add(tail, buf, n);
	if (tail->len > TAIL_MAX) {
		size_t cut = tail->len - TAIL_MAX / 2;
		memmove(tail->buf, tail->buf + cut, tail->len - cut);
		strbuf_setlen(tail, tail->len - cut);
	}
}

static void supervise(struct worker *w, const struct queue_claim *c, pid_t pid, int errfd,
		      struct outcome *out)
{
	double period = w->o->lease_s / 3, next_hb = now_seconds() + period, killed_at = 0;
	bool eof = false, reaped = false;
	char buf[4096];
	/* readable when the child has exited: its stderr's end comes a moment
	 * before it can be reaped, and a 100 ms nap after it was the most of
	 * a short job's time on the box.  Without pidfds (Linux < 5.3), the
	 * nap. */
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);

	while (!reaped) {
		struct pollfd pfd[2] = { { eof ? -1 : errfd, POLLIN, 0 }, { pidfd, POLLIN, 0 } };
		double wait = next_hb - now_seconds();
		int ms = (int)(wait < 0 ? 0 : wait > 0.2 ? 200 : wait * 1000);

		if (eof && pidfd < 0)
			ms = 100;
		if (poll(pfd, 2, ms) > 0 && !eof && pfd[0].revents) {
			ssize_t n = read(errfd, buf, sizeof(buf));
			if (n > 0) {
				fwrite(buf, 1, (size_t)n, stderr);
				keep_tail(&out->tail, buf, (size_t)n);
			} else if (n == 0 || errno != EINTR) {
				eof = true;
			}
		}
		if (waitpid(pid, &out->status, WNOHANG) == pid)
			reaped = true;
		if (!reaped && now_seconds() >= next_hb) {
			/* while the database is away, try to reconnect at each
			 * tick (briefly: the child's output must keep flowing) */
			int hb = pg_broken(&w->db) ? -1 :
				queue_heartbeat(&w->db, c->id, c->attempt, w->o->lease_s);
			if (hb < 0 && pg_broken(&w->db))
				pg_reconnect(&w->db, 0.5, NULL);
			if (hb == 0 && !out->lost) {
				say(w, c, "no longer ours (cancelled, or its lease expired): stopping it");
				out->lost = true;
			}
			next_hb = now_seconds() + (hb == 1 ? period : 1.0);
		}
		if (!reaped && !out->aborted && aborting(w)) {
			say(w, c, "aborting it");
			out->aborted = true;
		}
		if (!reaped && (out->lost || out->aborted)) {
			/* SIGTERM: run_job marks the run incomplete and returns;
			 * then SIGKILL if it takes more than 10 s */
			if (!killed_at) {
				kill(pid, SIGTERM);
				killed_at = now_seconds();
			} else if (now_seconds() - killed_at > 10) {
				kill(pid, SIGKILL);
			}
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	/* what the child wrote just before exiting */
	while (!eof) {
		ssize_t n = read(errfd, buf, sizeof(buf));
		if (n <= 0)
			break;
		fwrite(buf, 1, (size_t)n, stderr);
		keep_tail(&out->tail, buf, (size_t)n);
	}
}

/* The child's last error line ("perfbot: x" without the prefix). */
static void last_error(const struct outcome *out, struct strbuf *why)
{
	const char *t = out->tail.buf, *best = NULL;

	for (const char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "perfbot: ", 9) && strncmp(l, "perfbot: warning: ", 18))
			best = l + 9;
	if (best)
		strbuf_add(why, best, strcspn(best, "\n"));
	else if (WIFSIGNALED(out->status))
		strbuf_addf(why, "the job's process died of %s", strsignal(WTERMSIG(out->status)));
	else
		strbuf_addf(why, "the job's process exited with status %d", WEXITSTATUS(out->status));
}

/* --- one job, start to end ------------------------------------------ */

static void report_failure(struct worker *w, const struct queue_claim *c, const char *why)
{
	int r;

	while ((r = queue_fail(&w->db, c->id, c->attempt, why)) < 0 && recover(w, true))
		;
	if (r == 0)
		say(w, c, "failed: %s (back in the queue)", why);
	else if (r == 1)
		say(w, c, "failed: %s (no attempt left: parked)", why);
	else if (r == 2)
		say(w, c, "failed: %s (no longer ours)", why);
}

/* Give back c, claimed but never started. */
static void hand_back(struct worker *w, const struct queue_claim *c)
{
	int r;

	while ((r = queue_release(&w->db, c->id, c->attempt)) < 0 && recover(w, true))
		;
	if (r == 0)
		say(w, c, "handed back unstarted: the worker is stopping (back in the queue)");
	else if (r == 1)
		say(w, c, "handed back unstarted: no longer ours");
}

/* Upload c's results; with next, claim the next job in the same call
 * (none when stopping: the job at hand was the last). */
static void upload(struct worker *w, const struct queue_claim *c, const char *jobdir,
		   struct queue_claim *next)
{
	struct strbuf path = STRBUF_INIT, root = STRBUF_INIT, base = STRBUF_INIT;
	const struct lab_next nx = { w->group.buf, w->name, w->o->lease_s };
	int r = -1;

	const struct lab_job_identity q = { c->job, c->name, c->commit, c->repo };
	size_t bl;

	path_join(&path, jobdir, "result_root");
	path_join(&base, jobdir, "result");
	bl = base.len;
	/* the job's processes could write anything there (as --user, the
	 * result_root file too): upload only what is the job's */
	if (read_file(&root, path.buf) == 0 &&
	    (strncmp(root.buf, base.buf, bl) || root.buf[bl] != '/' ||
	     lab_check_root(c->id, &q, w->group.buf, root.buf + bl + 1) < 0)) {
		report_failure(w, c, "its result root is not the job's (see the worker's log)");
		goto out;
	}
	if (root.len) {
		while ((r = lab_upload_next(&w->db, c->id, c->attempt, base.buf, root.buf, &nx,
					    next && !stopping(w) ? next : NULL)) < 0 &&
		       recover(w, true))
			;
	}
	if (r == 0)
		say(w, c, "done, results uploaded");
	else if (r == 1)
		say(w, c, "results refused: no longer ours (its lease expired or it was cancelled)");
	else if (!pg_broken(&w->db))
		report_failure(w, c, w->db.sqlstate[0] ? w->db.err.buf
			       : "the upload failed on the box (see the worker's log)");
out:
	strbuf_release(&path);
	strbuf_release(&root);
	strbuf_release(&base);
}

/* Run and upload c; *next gets the job the upload claimed (id 0: none). */
static void work_on(struct worker *w, const struct queue_claim *c, struct queue_claim *next)
{
	struct strbuf jobdir = STRBUF_INIT;
	struct outcome out = { 0, false, false, STRBUF_INIT };
	int fds[2];
	pid_t pid;

	if (next)
		memset(next, 0, sizeof(*next));
	say(w, c, "claimed (%d run%s%s%s)", c->runs, c->runs == 1 ? "" : "s",
	    c->commit ? ", commit " : "", c->commit ? c->commit : "");
	strbuf_addf(&jobdir, "%s/job-%lld.%d.%ld", w->dir.buf, c->id, c->attempt, (long)getpid());
	remove_tree(jobdir.buf);
	if (mkdir_p(jobdir.buf, 0777) < 0 || (w->o->user && chown(jobdir.buf, w->uid, w->gid) < 0) ||
	    pipe2(fds, O_CLOEXEC) < 0) {
		report_failure(w, c, "cannot make the job's directory on the box");
		goto out;
	}
	fflush(NULL);    /* or the child would print our buffered output again */
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		report_failure(w, c, "cannot fork on the box");
		goto out;
	}
	if (pid == 0) {
		pid_t parent = getppid();
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(CHILD_FAILED);
		setpgid(0, 0);
		dup2(fds[1], 2);
		close(fds[0]);
		/* the connection is the parent's: never touch it here */
		if (w->db.conn)
			close(PQsocket(w->db.conn));
		int rc = drop_privileges(w, jobdir.buf, parent) < 0 ? CHILD_FAILED
			 : child_main(w, c, jobdir.buf);
		fflush(NULL);
		_exit(rc);
	}
	close(fds[1]);
	supervise(w, c, pid, fds[0], &out);
	close(fds[0]);
	if (out.lost) {
		say(w, c, "dropped what it made");
	} else if (out.aborted) {
		report_failure(w, c, "the worker was stopped");
	} else if (WIFEXITED(out.status) && (WEXITSTATUS(out.status) == CHILD_COMPLETE ||
					     WEXITSTATUS(out.status) == CHILD_INCOMPLETE)) {
		upload(w, c, jobdir.buf, next);
	} else {
		struct strbuf why = STRBUF_INIT;
		last_error(&out, &why);
		report_failure(w, c, why.buf);
		strbuf_release(&why);
	}
out:
	remove_tree(jobdir.buf);
	strbuf_release(&jobdir);
	strbuf_release(&out.tail);
}

/* --- the loop ------------------------------------------------------- */

/* Sleep until a notification of new work, poll_s seconds, or a signal. */
static void wait_for_work(struct worker *w)
{
	int fd = w->db.conn ? PQsocket(w->db.conn) : -1;
	struct pollfd pfd = { fd, POLLIN, 0 };
	PGnotify *n;

	if (fd < 0)
		return;
	if (poll(&pfd, 1, (int)(w->o->poll_s * 1000)) > 0 && !PQconsumeInput(w->db.conn))
		return;     /* broken: the next claim finds out and reconnects */
	while ((n = PQnotifies(w->db.conn)))
		PQfreemem(n);
}

static int setup(struct worker *w, const struct worker_opts *o)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	memset(w, 0, sizeof(*w));
	w->o = o;
	w->db = (struct pg)PG_INIT;
	if (gethostname(w->host, sizeof(w->host) - 1) < 0)
		strcpy(w->host, "localhost");
	snprintf(w->name, sizeof(w->name), "%s:%ld", w->host, (long)getpid());
	strbuf_init(&w->group, 0);
	strbuf_init(&w->dir, 0);
	strbuf_init(&w->repos, 0);
	if (o->group)
		strbuf_addstr(&w->group, o->group);
	else
		job_tbox_group(w->host, &w->group);
	if (o->dir) {
		/* absolute: run_job makes result roots absolute, and the job's
		 * child works in other directories */
		char *abs = abs_path(o->dir);
		strbuf_addstr(&w->dir, abs);
		free(abs);
	}
	else if (cache && *cache)
		strbuf_addf(&w->dir, "%s/perfbot/worker", cache);
	else if (home && *home)
		strbuf_addf(&w->dir, "%s/.cache/perfbot/worker", home);
	else
		return error("no work dir: set HOME, XDG_CACHE_HOME or --dir");
	if (mkdir_p(w->dir.buf, 0777) < 0)
		return -1;
	path_join(&w->repos, w->dir.buf, "repos");
	/* every job would fail on it: say so once, at the start */
	if (o->kernel_tree && git_check_repo(o->kernel_tree) < 0)
		return -1;
	if (o->kernel_tree && o->user)
		return error("--user with --kernel-tree: the kernel cache and the tree's "
			     "worktrees are the worker's own; run a kernel worker as its user");
	if (o->user) {
		struct passwd *pw = getpwnam(o->user);
		if (!pw)
			return error("--user: no user '%s'", o->user);
		if (pw->pw_uid == 0)
			return error("--user: '%s' is root: name an unprivileged user", o->user);
		if (geteuid() != 0)
			return error("--user needs the worker to run as root");
		w->uid = pw->pw_uid;
		w->gid = pw->pw_gid;
		/* the user's own cache: a checkout as root is not theirs to write */
		strbuf_addf(&w->repos, "-%s", o->user);
		if (mkdir_p(w->repos.buf, 0700) < 0 || chown(w->repos.buf, w->uid, w->gid) < 0)
			return error("cannot make '%s' %s's: %s", w->repos.buf, o->user,
				     strerror(errno));
	}
	clean_dead(w);
	perf_probe(&w->perf);
	/* new work is announced: a worker need not poll to start at once */
	w->on_connect[0] = "LISTEN perfbot_queue";
	w->db.on_connect = w->on_connect;
	return 0;
}

int worker_run(const struct worker_opts *o)
{
	struct worker w;
	struct queue_claim c, next = { 0 };
	int ret = EXIT_ERROR;

	if (setup(&w, o) < 0)
		goto out;
	/* a first connection that fails is an error (a wrong URL or
	 * password is no passing trouble; a service manager restarts a
	 * worker that started before the database); once connected, a lost
	 * connection is waited out */
	if (pg_open(&w.db, o->url) < 0 || lab_check_schema(&w.db) < 0)
		goto out;
	fprintf(stderr, "perfbot: worker %s: tbox_group %s, taking jobs\n", w.name, w.group.buf);
	ret = 0;
	while (!stopping(&w)) {
		/* the upload of the job before claimed this one, or we claim */
		int r = next.id ? 1 : queue_claim(&w.db, w.group.buf, w.name, o->lease_s, &c);
		if (next.id) {
			c = next;
			memset(&next, 0, sizeof(next));
		}
		if (r < 0) {
			/* not this box's group to claim (schema 7): no use waiting */
			if (pg_failed_with(&w.db, "42501")) {
				ret = EXIT_ERROR;
				break;
			}
			if (!recover(&w, false)) {
				if (pg_broken(&w.db))
					break;
				/* not the connection: an error worth a pause */
				poll(NULL, 0, 1000);
			}
			continue;
		}
		if (r == 0) {
			if (o->once)
				break;
			wait_for_work(&w);
			continue;
		}
		work_on(&w, &c, o->once ? NULL : &next);
		queue_claim_release(&c);
		if (o->once)
			break;
	}
	/* stopped while the upload claimed the next job: give it back,
	 * its attempt unspent (it never ran) */
	if (next.id) {
		hand_back(&w, &next);
		queue_claim_release(&next);
	}
	if (stopping(&w))
		fprintf(stderr, "perfbot: worker %s: stopped\n", w.name);
out:
	pg_close(&w.db);
	perf_caps_release(&w.perf);
	strbuf_release(&w.group);
	strbuf_release(&w.dir);
	strbuf_release(&w.repos);
	return ret;
}
