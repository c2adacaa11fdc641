/* git.c: running git, and a repository's history through its plumbing
 * (see git.h). */
#include "git/git.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/lines.h"
#include "util/run_command.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file for git's stderr under $TMPDIR (or /tmp), so that its last line
 * can name the reason: 0 and path filled, or -1 after a message. */
static int err_file(struct strbuf *path)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	strbuf_addf(path, "%s/perfbot-git.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path->buf);
	if (fd < 0)
		return error("cannot create a temp file '%s': %s", path->buf, strerror(errno));
	close(fd);
	return 0;
}

static void trace(const char *const *argv, int rc)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "perfbot:");
	for (; *argv; argv++)
		strbuf_addf(&sb, " %s", *argv);
	strbuf_addf(&sb, " -> %d\n", rc);
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int git_run(const struct git_cmd *g, const char *const *args)
{
	struct strbuf tmp = STRBUF_INIT, errpath = STRBUF_INIT, err = STRBUF_INIT;
	const char **argv = NULL;
	size_t nr = 0, alloc = 0;
	const char *err_to = "/dev/null";
	bool capture = !g->err_path && (g->what || g->verbose > 1);
	int rc;

	ALLOC_GROW(argv, nr + 3, alloc);
	argv[nr++] = "git";
	if (g->dir) {
		argv[nr++] = "-C";
		argv[nr++] = g->dir;
	}
	for (; *args; args++) {
		ALLOC_GROW(argv, nr + 1, alloc);
		argv[nr++] = *args;
	}
	ALLOC_GROW(argv, nr + 1, alloc);
	argv[nr] = NULL;
	if (g->err_path)
		err_to = g->err_path;
	else if (capture && err_file(&errpath) < 0)
		capture = false;
	if (capture)
		err_to = errpath.buf;
	rc = capture_command_err((char *const *)argv, NULL, g->out ? g->out : &tmp, err_to);
	if (capture) {
		read_file(&err, errpath.buf);
		unlink(errpath.buf);
	}
	if (g->verbose > 1) {
		fputs(err.buf, stderr);
		trace(argv, rc);
	}
	if (rc > 0 && g->what) {
		struct strbuf line = STRBUF_INIT;
		last_nonempty_line(err.buf, &line);
		error("%s: %s", g->what, line.len ? line.buf : "git failed");
		strbuf_release(&line);
	}
	free(argv);
	strbuf_release(&tmp);
	strbuf_release(&errpath);
	strbuf_release(&err);
	if (g->what)
		return rc ? -1 : 0;
	return rc;
}

int git_runv(const struct git_cmd *g, va_list ap)
{
	const char **args = NULL;
	size_t nr = 0, alloc = 0;
	int rc;

	do {
		ALLOC_GROW(args, nr + 1, alloc);
		args[nr] = va_arg(ap, const char *);
	} while (args[nr++]);
	rc = git_run(g, args);
	free(args);
	return rc;
}

int git_runl(const struct git_cmd *g, ...)
{
	va_list ap;
	int rc;

	va_start(ap, g);
	rc = git_runv(g, ap);
	va_end(ap);
	return rc;
}

/* Run git -C repo ARGS..., stdout into out, stderr to /dev/null.  The
 * exit code, or -1 with a message when git could not run. */
static int git(const char *repo, struct strbuf *out, const char *const *args)
{
	struct git_cmd g = { .dir = repo, .out = out };

	return git_run(&g, args);
}

int git_check_repo(const char *repo)
{
	struct strbuf out = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--git-dir", NULL };
	int rc = git(repo, &out, args);

	strbuf_release(&out);
	if (rc < 0)
		return -1;
	return rc ? error("'%s' is not a git repository", repo) : 0;
}

int git_dir(const char *repo, char **dir)
{
	struct strbuf out = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--absolute-git-dir", NULL };
	int rc = git(repo, &out, args);

	*dir = NULL;
	strbuf_rtrim(&out);
	if (rc || !out.len) {
		strbuf_release(&out);
		return rc < 0 ? -1 : error("'%s' is not a git repository", repo);
	}
	*dir = strbuf_detach(&out, NULL);
	return 0;
}

int git_resolve_commit(const char *repo, const char *rev, char **sha)
{
	struct strbuf out = STRBUF_INIT, spec = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", NULL, NULL };
	int rc;

	*sha = NULL;
	if (git_check_repo(repo) < 0)
		return -1;
	strbuf_addf(&spec, "%s^{commit}", rev);
	args[4] = spec.buf;
	rc = git(repo, &out, args);
	strbuf_release(&spec);
	if (rc < 0) {
		strbuf_release(&out);
		return -1;
	}
	strbuf_rtrim(&out);
	if (rc || !out.len) {
		strbuf_release(&out);
		return 1;
	}
	*sha = strbuf_detach(&out, NULL);
	return 0;
}

int git_first_parent(const char *repo, const char *rev, int limit,
		     struct git_commit **out, int *nr)
{
	struct strbuf text = STRBUF_INIT, max = STRBUF_INIT;
	const char *args[] = { "log", "--first-parent", "--format=%H %s", NULL, NULL, NULL, NULL };
	size_t alloc = 0;
	int n = 3, rc;

	*out = NULL;
	*nr = 0;
	if (limit > 0) {
		strbuf_addf(&max, "--max-count=%d", limit);
		args[n++] = max.buf;
	}
	args[n++] = rev;
	args[n++] = "--";
	rc = git(repo, &text, args);
	strbuf_release(&max);
	if (rc) {
		strbuf_release(&text);
		return rc < 0 ? -1 : error("git log of '%s' in '%s' failed (exit %d)", rev, repo, rc);
	}
	for (char *p = text.buf; *p;) {
		char *nl = strchrnul(p, '\n'), *sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp) {
			ALLOC_GROW(*out, (size_t)*nr + 1, alloc);
			(*out)[*nr].sha = xstrndup(p, (size_t)(sp - p));
			(*out)[*nr].subject = xstrndup(sp + 1, (size_t)(nl - sp - 1));
			(*nr)++;
		}
		p = *nl ? nl + 1 : nl;
	}
	/* git lists newest first; history reads left to right */
	for (int i = 0, j = *nr - 1; i < j; i++, j--) {
		struct git_commit t = (*out)[i];
		(*out)[i] = (*out)[j];
		(*out)[j] = t;
	}
	strbuf_release(&text);
	return 0;
}

void git_commits_release(struct git_commit *c, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(c[i].sha);
		free(c[i].subject);
	}
	free(c);
}

int git_refs(const char *repo, const char *prefix, struct git_ref **out, int *nr)
{
	struct strbuf text = STRBUF_INIT;
	const char *args[] = {
		"for-each-ref",
		"--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname:short)",
		prefix, NULL
	};
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	rc = git(repo, &text, args);
	if (rc) {
		strbuf_release(&text);
		return rc < 0 ? -1 : error("cannot list the refs of '%s' (git exit %d)", repo, rc);
	}
	for (char *p = text.buf; *p;) {
		char *nl = strchrnul(p, '\n');
		char *f[5];
		int k = 0;
		/* five fields; the peeled two are empty for a ref to a commit */
		for (char *q = p; k < 5 && q <= nl;) {
			char *sp = k < 4 ? memchr(q, ' ', (size_t)(nl - q)) : nl;
			if (!sp)
				break;
			f[k++] = q;
			*sp = '\0';
			q = sp + 1;
		}
		if (k == 5) {
			const char *sha = !strcmp(f[1], "commit") ? f[0] :
					  !strcmp(f[3], "commit") ? f[2] : NULL;
			if (sha) {
				ALLOC_GROW(*out, (size_t)*nr + 1, alloc);
				(*out)[*nr].name = xstrdup(f[4]);
				(*out)[*nr].sha = xstrdup(sha);
				(*nr)++;
			}
		}
		p = nl < text.buf + text.len ? nl + 1 : nl;
	}
	strbuf_release(&text);
	return 0;
}

void git_refs_release(struct git_ref *r, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(r[i].name);
		free(r[i].sha);
	}
	free(r);
}
