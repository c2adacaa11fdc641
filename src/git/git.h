#ifndef PERFBOT_GIT_H
#define PERFBOT_GIT_H
/*
 * git.h: reading a repository's history by running git, as the bisect
 * driver does (git is a dependency; its plumbing output is stable).
 * git's own stderr is kept off the terminal: each failure becomes one
 * "perfbot: ..." line that names the repository and what was asked.
 *
 * Ownership: the lists these fill are yours; free them with the matching
 * *_release().  Return contract: 0 on success, -1 after the message,
 * unless documented otherwise.
 */

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
