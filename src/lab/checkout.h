#ifndef PERFBOT_LAB_CHECKOUT_H
#define PERFBOT_LAB_CHECKOUT_H
/*
 * A test box's private checkout of the commit a queued job names.
 *
 * Each repository is cloned once per box, bare, into
 * "<cache_dir>/<hash of the URL>.git", and fetched again only when the
 * commit is not there yet; the workers of one box share it, serialized
 * by an flock on "<that>.lock".  Each job then gets its own clone of the
 * cache (`git clone --shared`: objects borrowed, nothing copied) checked
 * out at the commit: a job can build in it and remove it with rm -rf,
 * and no two jobs ever share a work tree.
 *
 * Not src/git/checkout.h, which keeps a worktree of a repository on this
 * machine for bisect and watch: a box has no repository of its own, only
 * the URL, and a failed build's last line is the reason the queue keeps.
 */
#include <signal.h>

/*
 * Check commit (anything git rev-parse takes) of repo (a URL or a path)
 * out into dir, which must not exist.  Sets *sha (yours to free) to the
 * commit's full id.  0, or -1 after an error naming the repository, the
 * commit and git's own last line.
 */
int lab_checkout(const char *repo, const char *commit, const char *cache_dir,
		 const char *dir, char **sha);

/*
 * Run build with /bin/sh -c in dir, its output into log_path.  0, or -1
 * after "build failed (exit status N): <its last line of output>".  *stop
 * becoming non-zero kills it (an error too).
 */
int lab_build(const char *build, const char *dir, const char *log_path,
	      volatile sig_atomic_t *stop);

#endif
