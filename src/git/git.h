#ifndef PERFBOT_GIT_H
#define PERFBOT_GIT_H
/*
 * git.h: the one way perfbot runs git (git is a dependency; its plumbing
 * output is stable), and reading a repository's history with it.  The
 * worktrees bisect and watch build in are git/checkout.h.
 *
 * git's own stderr is kept off the terminal: a failure becomes one
 * "perfbot: ..." line that names the repository and what was asked, with
 * git's own last line when the caller gives a `what`.
 *
 *   struct git_cmd g = { .dir = repo, .out = &sb, .what = "cannot fetch" };
 *   if (git_runl(&g, "fetch", "--quiet", "origin", NULL) < 0)
 *           ...   // "perfbot: cannot fetch: fatal: ..." was printed
 *
 * Ownership: the lists these fill are yours; free them with the matching
 * *_release().  Return contract: 0 on success, -1 after the message,
 * unless documented otherwise.
 */
#include <stdarg.h>

struct strbuf;

/* How to run one git command; zero-initialise what is not used. */
struct git_cmd {
	const char *dir;        /* `git -C dir`; NULL: perfbot's cwd (a clone
				   between absolute paths) */
	struct strbuf *out;     /* git's stdout is appended; NULL: dropped */
	/*
	 * NULL: a quiet probe, git's exit code is the answer.  Else a
	 * failure is an error: "perfbot: <what>: <git's last stderr line>".
	 */
	const char *what;
	const char *err_path;   /* git's stderr into this file (truncated),
				   a build log; else captured or dropped */
	int verbose;            /* > 1: each command and its exit code, and
				   git's stderr, on perfbot's stderr */
};

/*
 * Run git with args (NULL-terminated, after "git [-C dir]").  Without
 * g->what: git's exit code (0 success, 1..255 git said no, nothing
 * printed), or -1 after a message when git could not be run.  With
 * g->what: 0, or -1 after the message.
 */
int git_run(const struct git_cmd *g, const char *const *args);
/* The same with the arguments as a list ending with NULL. */
__attribute__((sentinel)) int git_runl(const struct git_cmd *g, ...);
/* The same with the list in ap, for wrappers that add their defaults. */
int git_runv(const struct git_cmd *g, va_list ap);

struct git_commit {
	char *sha;              /* full object name */
	char *subject;          /* the first line of the message */
};

/* Check that repo is a git repository (its work tree or git dir). */
int git_check_repo(const char *repo);
/* The absolute path of repo's git dir (a worktree's own, as git bisect
 * keeps its state there): 0 and *dir (yours to free), or -1. */
int git_dir(const char *repo, char **dir);
/*
 * Resolve rev to the full name of the commit it names: 0 and *sha (yours
 * to free), 1 when the repository has no such commit (nothing printed,
 * *sha NULL), -1 after a message when repo is no repository.
 */
int git_resolve_commit(const char *repo, const char *rev, char **sha);
/*
 * The first-parent history of rev in git order, oldest first: the line a
 * branch's own commits and merges make, without the commits merged in.
 * limit > 0 keeps only the newest limit commits.
 */
int git_first_parent(const char *repo, const char *rev, int limit,
		     struct git_commit **out, int *nr);
void git_commits_release(struct git_commit *c, int nr);

struct git_ref {
	char *name;             /* short name: "v1.0", "master" */
	char *sha;              /* the commit it points at (tags peeled) */
};

/* The refs under prefix ("refs/tags", "refs/heads"), by name.  Tags of
 * something other than a commit are left out. */
int git_refs(const char *repo, const char *prefix, struct git_ref **out, int *nr);
void git_refs_release(struct git_ref *r, int nr);

#endif
