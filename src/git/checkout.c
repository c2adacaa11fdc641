/*
 * checkout.c: private worktrees where commits are checked out and built
 * (see checkout.h).
 */
#include "git/checkout.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

/* git -C dir ARGS... (NULL-terminated); stdout into out.  Its stderr is
 * chatter ("HEAD is now at ...") unless -vv asks for it. */
__attribute__((sentinel))
static int git(const struct checkout *c, const char *dir, struct strbuf *out, ...)
{
	char *argv[16] = { "git", "-C", (char *)dir };
	struct strbuf tmp = STRBUF_INIT;
	va_list ap;
	int n = 3, rc;

	va_start(ap, out);
	while (n < 15 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	rc = capture_command_err(argv, NULL, out ? out : &tmp, c->verbose > 1 ? NULL : "/dev/null");
	if (c->verbose > 1)
		fprintf(stderr, "perfbot: git %s %s -> %d\n", argv[3], n > 4 ? argv[4] : "", rc);
	strbuf_release(&tmp);
	return rc;
}

/* Put the worktree at sha: create it, or check sha out unless HEAD is it. */
static int check_out(struct checkout *c, const char *sha)
{
	struct strbuf out = STRBUF_INIT, head = STRBUF_INIT;
	int ret = 0;

	if (!is_dir(c->path)) {
		/* a worktree dir removed by hand (an old bisect's state dir) is
		 * still registered, and git would refuse to add it again */
		git(c, c->repo, NULL, "worktree", "prune", NULL);
		if (git(c, c->repo, &out, "worktree", "add", "--detach", c->path, sha, NULL) != 0)
			ret = error("cannot create worktree '%s' at %.12s: %s", c->path, sha, out.buf);
	} else {
		git(c, c->path, &head, "rev-parse", "HEAD", NULL);
		strbuf_rtrim(&head);
		if (strcmp(head.buf, sha) &&
		    git(c, c->path, &out, "checkout", "-q", "--detach", sha, NULL) != 0)
			ret = error("cannot check out %s in '%s': %s", sha, c->path, out.buf);
	}
	strbuf_release(&out);
	strbuf_release(&head);
	return ret;
}

int checkout_remove(const char *repo, const char *path)
{
	struct checkout c = { .repo = (char *)repo, .path = (char *)path };
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	if (is_dir(path) &&
	    git(&c, repo, &out, "worktree", "remove", "--force", path, NULL) != 0)
		ret = error("cannot remove worktree '%s': %s", path, out.buf);
	git(&c, repo, NULL, "worktree", "prune", NULL);
	strbuf_release(&out);
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
