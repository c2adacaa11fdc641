/*
 * checkout.c: private worktrees where commits are checked out and built
 * (see checkout.h).
 */
#include "git/checkout.h"
#include "git/git.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void checkout_init(struct checkout *c, const char *repo, const char *path,
		   const char *build, const char *log_dir)
{
	memset(c, 0, sizeof(*c));
	c->repo = xstrdup(repo);
	c->path = xstrdup(path);
	c->build = build ? xstrdup(build) : NULL;
	c->log_dir = xstrdup(log_dir);
}

void checkout_release(struct checkout *c)
{
	free(c->repo);
	free(c->path);
	free(c->build);
	free(c->log_dir);
	free(c->built);
	memset(c, 0, sizeof(*c));
}

void checkout_forget(struct checkout *c)
{
	free(c->built);
	c->built = NULL;
}

/* git -C dir ARGS... (NULL-terminated); stdout into out; what names a
 * failure (with git's reason), NULL keeps it quiet. */
__attribute__((sentinel))
static int git(const struct checkout *c, const char *dir, struct strbuf *out, const char *what, ...)
{
	struct git_cmd g = { .dir = dir, .out = out, .what = what, .verbose = c->verbose };
	va_list ap;
	int rc;

	va_start(ap, what);
	rc = git_runv(&g, ap);
	va_end(ap);
	return rc;
}

/*
 * The index.lock a git left in the worktree when perfbot was killed mid-
 * checkout: every later git there refuses ("remove the file manually").
 * The worktree is private and its user holds the bisect's or watch's lock,
 * so a lock here is the killed run's git: given a minute to finish (it
 * outlives perfbot), then taken as a dead one's and removed.
 */
static void drop_stale_lock(const struct checkout *c)
{
	struct strbuf dir = STRBUF_INIT, lock = STRBUF_INIT;

	if (git(c, c->path, &dir, NULL, "rev-parse", "--absolute-git-dir", NULL) == 0) {
		strbuf_rtrim(&dir);
		strbuf_addf(&lock, "%s/index.lock", dir.buf);
		double wait = c->lock_wait > 0 ? c->lock_wait : 60;
		for (int i = 0; i < wait * 10 && file_exists(lock.buf); i++)
			usleep(100000);
		if (unlink(lock.buf) == 0)
			warning("removed '%s' that a killed git left", lock.buf);
	}
	strbuf_release(&dir);
	strbuf_release(&lock);
}

/* Put the worktree at sha: create it, or check sha out unless HEAD is it. */
static int check_out(struct checkout *c, const char *sha)
{
	struct strbuf head = STRBUF_INIT, what = STRBUF_INIT;
	int ret = 0;

	if (!is_dir(c->path)) {
		/* a worktree dir removed by hand (an old bisect's state dir) is
		 * still registered, and git would refuse to add it again */
		git(c, c->repo, NULL, NULL, "worktree", "prune", NULL);
		strbuf_addf(&what, "cannot create worktree '%s' at %.12s", c->path, sha);
		ret = git(c, c->repo, NULL, what.buf, "worktree", "add", "--detach", c->path, sha, NULL);
	} else {
		drop_stale_lock(c);
		git(c, c->path, &head, NULL, "rev-parse", "HEAD", NULL);
		strbuf_rtrim(&head);
		strbuf_addf(&what, "cannot check out %s in '%s'", sha, c->path);
		/* --force: a git killed mid-checkout leaves tracked files
		 * changed and the next commit's files untracked in the way,
		 * and a plain checkout aborts on them; the worktree is
		 * perfbot's own, nothing in it is anyone's work */
		if (strcmp(head.buf, sha))
			ret = git(c, c->path, NULL, what.buf, "checkout", "-q", "--force", "--detach", sha,
				  NULL);
	}
	strbuf_release(&head);
	strbuf_release(&what);
	return ret;
}

int checkout_remove(const char *repo, const char *path)
{
	struct checkout c = { .repo = (char *)repo, .path = (char *)path };
	struct strbuf what = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&what, "cannot remove worktree '%s'", path);
	if (is_dir(path))
		ret = git(&c, repo, NULL, what.buf, "worktree", "remove", "--force", path, NULL);
	git(&c, repo, NULL, NULL, "worktree", "prune", NULL);
	strbuf_release(&what);
	return ret;
}

int checkout_prepare(struct checkout *c, const char *sha)
{
	struct strbuf log = STRBUF_INIT;
	struct child_process cp;
	int ret = -1, r;

	if (c->built && !strcmp(c->built, sha))
		return 0;
	checkout_forget(c);
	if (check_out(c, sha) < 0)
		return -1;
	if (c->build) {
		strbuf_addf(&log, "%s/build-%.12s.log", c->log_dir, sha);
		if (c->verbose)
			fprintf(stderr, "perfbot: building %.12s: %s\n", sha, c->build);
		child_process_init(&cp);
		cp.shell_cmd = c->build;
		cp.dir = c->path;
		cp.out_path = log.buf;
		cp.err_path = "&1";
		cp.no_stdin = true;
		cp.new_pgrp = true;
		cp.die_with_parent = true;      /* make's compilers too */
		if (start_command(&cp) < 0)
			goto out;
		r = finish_command(&cp, 0, c->stop);
		if (r == FINISH_INTERRUPTED)
			goto out;
		if (r != FINISH_EXITED || !WIFEXITED(cp.status) || WEXITSTATUS(cp.status)) {
			warning("build of %.12s failed (see %s): skipping it", sha, log.buf);
			ret = 1;
			goto out;
		}
	}
	c->built = xstrdup(sha);
	ret = 0;
out:
	strbuf_release(&log);
	return ret;
}
