#ifndef PERFBOT_CHECKOUT_H
#define PERFBOT_CHECKOUT_H
/*
 * A private git worktree where commits are checked out and built, so that
 * the user's checkout (its files, its HEAD, its bisect) is never touched.
 * `perfbot bisect` keeps three (good, bad, step), `perfbot watch` one.
 *
 *   struct checkout c;
 *   checkout_init(&c, repo, "/state/wt", build_cmd, "/state");
 *   switch (checkout_prepare(&c, sha)) { ... }   // 0, 1 build failed, -1
 *   ... run the job with its cwd and $PERFBOT_BUILD_DIR at c.path ...
 *   checkout_release(&c);
 *
 * The worktree is made with `git worktree add --detach` the first time,
 * and moved to each commit with `git checkout --detach` (nothing done when
 * it is there already: a `git bisect` in it may have put it there).  The
 * build runs in the worktree under /bin/sh, in its own process group, its
 * output into "<log_dir>/build-<sha12>.log"; a build is not repeated while
 * the same commit stays checked out and built.
 */
#include <signal.h>
#include <stdbool.h>

struct checkout {
	char *repo;                  /* the repository (owned) */
	char *path;                  /* the worktree (owned) */
	char *build;                 /* shell command, or NULL (owned) */
	char *log_dir;               /* where build logs go (owned) */
	char *built;                 /* the sha checked out and built, or NULL */
	int verbose;                 /* 1: say what is built; 2: also git */
	volatile sig_atomic_t *stop; /* set by a signal: the build is killed */
	double lock_wait;            /* seconds a git's index.lock in the
					worktree is waited for before it is taken
					as a killed git's and removed (0: 60) */
};

/* Everything is copied; build may be NULL. */
void checkout_init(struct checkout *c, const char *repo, const char *path,
		   const char *build, const char *log_dir);
void checkout_release(struct checkout *c);

/*
 * Check sha out in the worktree and build it, unless that is done.
 * Returns 0; 1 when the build failed (a warning names its log: the commit
 * cannot be measured, as exit 125 of `git bisect run` says); -1 after an
 * error (git failed) or when *stop was set during the build.
 */
int checkout_prepare(struct checkout *c, const char *sha);

/*
 * Unregister and delete the worktree at path of repo (`git worktree remove
 * --force`, then prune), when a bisect is over: otherwise every finished
 * bisect left its worktrees in the user's `git worktree list`.  Nothing to
 * do when path is not there.  0, or -1 with a message.
 */
int checkout_remove(const char *repo, const char *path);

/* Something else (git bisect) moved the worktree: build again next time. */
void checkout_forget(struct checkout *c);

#endif
