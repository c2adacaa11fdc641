#ifndef PERFBOT_KERNEL_BUILD_H
#define PERFBOT_KERNEL_BUILD_H
/*
 * Building a kernel commit: `perfbot kernel build` and each step of a
 * kernel bisect.
 *
 * Everything lives in the kernel cache (kernel_cache_dir()), never in the
 * user's checkout:
 *
 *   trees/<name>-<hash>/src         a git worktree of the tree (detached),
 *                                   checked out at the commit being built
 *   trees/<name>-<hash>/obj-<cfg>   the out-of-tree build (make O=) of one
 *                                   config, kept between builds: the next
 *                                   commit recompiles only what changed
 *   trees/<name>-<hash>/lock        flock: one build per tree at a time
 *   images/<sha>-<cfg>/             a finished build: bzImage, config (the
 *                                   final .config), info, build.log
 *
 * where <cfg> is kconfig_id() ("x86_64-tiny-1a2b3c4d").  A build of a
 * (commit, config) whose image dir exists returns at once; an image dir
 * is written under a temporary name and renamed into place, so kill -9
 * never leaves half an image.  make runs in its own process group and is
 * killed with perfbot (PR_SET_PDEATHSIG); ccache is used when installed.
 * KBUILD_BUILD_TIMESTAMP (the commit's date), _USER and _HOST are fixed,
 * so the same commit and config build the same kernel everywhere.
 *
 * The config of a fresh obj dir is made as kconfig.h says; after that
 * each build only runs `make olddefconfig`, for Kconfig changes between
 * commits.  Where the final .config lacks a symbol of the tiny or small
 * fragment (an old commit), a warning lists them.
 */
#include <signal.h>
#include <stdbool.h>
#include "util/strbuf.h"

struct kernel_build_opts {
	const char *tree;          /* git repository (or work tree) of the kernel */
	const char *commit;        /* any revision; NULL: HEAD */
	const char *config;        /* "tiny" (NULL), "small", "defconfig" or a .config file */
	const char *cache;         /* NULL: kernel_cache_dir() */
	int jobs;                  /* make -j; <= 0: the online CPUs */
	int verbose;               /* -v: each command on stderr */
	bool status_line;          /* a live line on stderr (a tty) */
	volatile sig_atomic_t *stop;  /* SIGINT/SIGTERM: stop the build */
};

/* A built kernel, as kernel_build and kernel_image_load describe it. */
struct kernel_image {
	char *dir;                 /* the image dir */
	char *bzimage;             /* <dir>/bzImage */
	char *commit;              /* full sha */
	char *kconfig;             /* the config's name: lkp's <kconfig> */
	char *release;             /* `uname -r` of the kernel */
	char *compiler;            /* lkp's <compiler> from the image's own
	                            * config (kconfig_compiler): "gcc-12";
	                            * NULL when it has none or names none */
	double build_seconds;      /* how long its build took */
	bool cached;               /* kernel_build found it built already */
};

/* Result of kernel_build besides 0 (built or cached) and -1 (error). */
#define KERNEL_BUILD_FAILED 1

/*
 * Build o->commit of o->tree with o->config (see the top of this file).
 * Returns 0 with *img filled; KERNEL_BUILD_FAILED when the commit does
 * not build (why gets one line: the first compiler error or the log's
 * last line; the log's tail is printed); -1 after error() for anything
 * else (not a git tree, unknown revision, interrupted).  Release img with
 * kernel_image_release in every case.
 */
int kernel_build(const struct kernel_build_opts *o, struct kernel_image *img, struct strbuf *why);

/*
 * Describe the kernel at path: an image dir of the cache or a bzImage in
 * one (its info file gives commit and kconfig), or any bzImage (commit is
 * then its release, read from the image's header, and kconfig NULL).
 * The compiler comes from the image's config: the cache dir's "config",
 * a distribution's "config-R" beside "vmlinuz-R", or the build tree's
 * ".config" of an ".../arch/x86/boot/bzImage".
 * 0, or -1 after error() (missing file, not a bzImage).
 */
int kernel_image_load(const char *path, struct kernel_image *img);
void kernel_image_release(struct kernel_image *img);

/*
 * The kernel cache: dir when given, else $PERFBOT_KERNEL_CACHE, else
 * /var/cache/perfbot/kernel for root, else $XDG_CACHE_HOME/perfbot/kernel
 * or ~/.cache/perfbot/kernel.  Appended to sb.
 */
void kernel_cache_dir(const char *dir, struct strbuf *sb);

/* The one line a failed build's log says why: its first "error:" line,
 * else its last non-empty line; appended to why. */
void kernel_build_log_reason(const char *log, struct strbuf *why);

#endif
