/*
 * checkout.c: a job's private checkout and build (checkout.h).
 */
#include "lab/checkout.h"
#include "git/git.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/lines.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run git with args in dir (NULL: perfbot's cwd); a failure is an
 * error naming what, with git's last stderr line.  0 or -1.  stdout is
 * appended to out when given. */
static int git(const char *dir, struct strbuf *out, const char *what, const char *const *args)
{
	struct git_cmd g = { .dir = dir, .out = out, .what = what };

	return git_run(&g, args);
}

/* FNV-1a: a stable file name for a URL, whatever characters it holds. */
static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* 40 hex digits: a commit id, which (unlike a branch or a tag) always
 * names the same commit, so a cache that has it need not fetch. */
static bool is_full_sha(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == 40 && !s[n];
}

/* Make sure the cache holds commit as the repository has it now; called
 * under the cache's lock. */
static int fill_cache(const char *repo, const char *commit, const char *cache)
{
	struct strbuf spec = STRBUF_INIT, what = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&spec, "%s^{commit}", commit);
	if (!is_dir(cache)) {
		const char *clone[] = { "clone", "--quiet", "--bare", repo, cache, NULL };
		strbuf_addf(&what, "cannot clone '%s'", repo);
		ret = git(NULL, NULL, what.buf, clone);
		strbuf_reset(&what);
	} else {
		const char *fetch[] = { "fetch", "--quiet", "--tags", "origin",
					"+refs/heads/*:refs/heads/*", NULL };
		/* a quiet probe: a commit not fetched yet is no error */
		struct git_cmd probe = { .dir = cache };
		if (!is_full_sha(commit) || git_runl(&probe, "cat-file", "-e", spec.buf, NULL) != 0) {
			strbuf_addf(&what, "cannot fetch '%s'", repo);
			ret = git(cache, NULL, what.buf, fetch);
		}
	}
	strbuf_release(&spec);
	strbuf_release(&what);
	return ret;
}

int lab_checkout(const char *repo, const char *commit, const char *cache_dir,
		 const char *dir, char **sha)
{
	struct strbuf cache = STRBUF_INIT, lock = STRBUF_INIT, what = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, spec = STRBUF_INIT;
	int fd = -1, ret = -1;

	*sha = NULL;
	if (commit[0] == '-')
		return error("'%s' is no commit", commit);
	if (mkdir_p(cache_dir, 0777) < 0)
		return -1;
	strbuf_addf(&cache, "%s/%016llx.git", cache_dir, (unsigned long long)fnv(repo));
	strbuf_addf(&lock, "%s.lock", cache.buf);
	/* the cache may be shared: a lock planted as a link is refused */
	fd = open_nofollow(lock.buf, O_RDWR | O_CREAT | O_CLOEXEC, "lock");
	if (fd < 0)
		goto out;
	if (flock(fd, LOCK_EX) < 0) {
		error("cannot lock '%s': %s", lock.buf, strerror(errno));
		goto out;
	}
	if (fill_cache(repo, commit, cache.buf) < 0)
		goto out;
	strbuf_addf(&spec, "%s^{commit}", commit);
	strbuf_addf(&what, "'%s' has no commit '%s'", repo, commit);
	const char *parse[] = { "rev-parse", "--verify", "--quiet", spec.buf, NULL };
	if (git(cache.buf, &out, what.buf, parse) < 0)
		goto out;
	strbuf_rtrim(&out);
	flock(fd, LOCK_UN);
	strbuf_reset(&what);
	strbuf_addf(&what, "cannot check %.12s out into '%s'", out.buf, dir);
	const char *clone[] = { "clone", "--quiet", "--shared", "--no-checkout", cache.buf, dir, NULL };
	const char *co[] = { "-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach",
			     out.buf, NULL };
	if (git(NULL, NULL, what.buf, clone) < 0 || git(dir, NULL, what.buf, co) < 0)
		goto out;
	*sha = strbuf_detach(&out, NULL);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&cache);
	strbuf_release(&lock);
	strbuf_release(&what);
	strbuf_release(&out);
	strbuf_release(&spec);
	return ret;
}

int lab_build(const char *build, const char *dir, const char *log_path,
	      volatile sig_atomic_t *stop)
{
	struct child_process cp;
	struct strbuf log = STRBUF_INIT, line = STRBUF_INIT;
	int r;

	child_process_init(&cp);
	cp.shell_cmd = build;
	cp.dir = dir;
	cp.out_path = log_path;
	cp.err_path = "&1";
	cp.no_stdin = true;
	cp.new_pgrp = true;
	if (start_command(&cp) < 0)
		return -1;
	r = finish_command(&cp, 0, stop);
	if (r == FINISH_EXITED && WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 0)
		return 0;
	if (r == FINISH_INTERRUPTED)
		return error("build interrupted");
	read_file(&log, log_path);
	last_nonempty_line(log.buf, &line);
	if (r == FINISH_EXITED && WIFEXITED(cp.status))
		error("build failed (exit status %d): %s", WEXITSTATUS(cp.status),
		      line.len ? line.buf : "no output");
	else
		error("build failed (%s): %s",
		      WIFSIGNALED(cp.status) ? strsignal(WTERMSIG(cp.status)) : "could not wait",
		      line.len ? line.buf : "no output");
	strbuf_release(&log);
	strbuf_release(&line);
	return -1;
}
