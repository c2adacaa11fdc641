#ifndef PERFBOT_BISECT_KERNEL_H
#define PERFBOT_BISECT_KERNEL_H
/*
 * Kernel bisects (`perfbot bisect --kernel-tree DIR --config C`): each
 * commit is built in the kernel cache (kernel/build.h: incremental, one
 * out-of-tree dir per config, never in the user's checkout) and its runs
 * boot it in QEMU (kernel/vm.h).  The driver calls these three where a
 * user-space bisect runs --build in a worktree:
 *
 *   bisect_kernel_init     at the start (and on --resume): builds the bad
 *                          endpoint, so that the job gets its result-path
 *                          keys (kconfig, the VM's tbox_group) before any
 *                          result is looked up
 *   bisect_kernel_prepare  per commit to measure: build it, point the VM
 *                          backend at it; a commit that does not build is
 *                          a skip, why says so
 *   bisect_kernel_release
 *
 * perfbot watch --kernel-tree tests each commit the same way
 * (watch/watch.c: bisect_kernel_prepare, then run_job on k->vm.backend).
 *
 * Runs whose boot failed are incomplete (vm.h), so the driver sees no
 * sample and skips the commit; bisect_kernel_run_reason() finds the
 * reason a run recorded, for the skip's line in the log and the report.
 */
#include <signal.h>
#include <stdbool.h>
#include "job/job.h"
#include "kernel/build.h"
#include "kernel/vm.h"

struct bisect_kernel {
	const char *tree, *config;   /* --kernel-tree, --config (owned by the opts) */
	struct kernel_vm_opts vm_opts;  /* the VM's options (--accel ...); kernel,
	                              * commit, verbose, status_line and stop
	                              * are set per commit */
	int verbose;
	volatile sig_atomic_t *stop;
	char *const *command;        /* the guest's benchmark after --, or NULL */
	struct job *job;             /* the bisect's job: gets the path keys */
	struct kernel_image img;     /* the last commit built */
	struct kernel_vm vm;         /* its runs */
	bool vm_ready;
	char *config_id;             /* kconfig_id of config ("x86_64-small-a9451ce0"):
	                              * its builds' image dirs end in it; set by
	                              * bisect_kernel_init */
};

/* k's tree, config, VM options and command from m (borrowed: m outlives
 * k), verbose and stop; the rest of k as it was. */
struct bisect_measure;
void bisect_kernel_setup(struct bisect_kernel *k, const struct bisect_measure *m, int verbose,
			 volatile sig_atomic_t *stop);
/* Build bad and give job its keys: 0, or -1 after error() (the bad
 * endpoint does not build, an unreadable --config: the message says
 * why). */
int bisect_kernel_init(struct bisect_kernel *k, struct job *job, const char *bad, struct strbuf *why);
/* Build sha and set k->vm.backend up for its runs.  0; 1 when sha does
 * not build (why: the first error); -1 after error(). */
int bisect_kernel_prepare(struct bisect_kernel *k, const char *sha, struct strbuf *why);
void bisect_kernel_release(struct bisect_kernel *k);

/*
 * bisect.json's "kernel" (report.h), for the report's reproduce lines
 * (build the commit, boot it): o's tree and config ("tiny" for none),
 * accel (the one the runs had), and the VM options o gives (the rest
 * follows from the job and the accel, as it did in the bisect).
 */
struct bisect_opts;
struct json_writer;
void bisect_kernel_json(const struct bisect_opts *o, enum qemu_accel accel, struct json_writer *jw);

/*
 * Whether the run in run_dir (a run dir of sha's result root) booted the
 * kernel this bisect boots for sha: its job.yaml's `kernel:` is in an
 * image dir "<sha>-<k->config_id>" of a kernel cache (false before
 * bisect_kernel_init).  The result path
 * names the config only by its name ("x86_64-small"), so a run of an
 * earlier fragment, or of a --config file of the same name, files under
 * the same path; its kernel differs, and its runs measure that kernel.
 * The kernel the run had goes into other (the image dir's name, or "no
 * kernel") when it is not this one.
 */
bool bisect_kernel_run_is_ours(const struct bisect_kernel *k, const char *run_dir, const char *sha,
			       struct strbuf *other);

/* The "reason:" of the last incomplete run under result_root, appended
 * to why ("kernel panic: Fatal exception"); 0 when found, -1 when none. */
int bisect_kernel_run_reason(const char *result_root, struct strbuf *why);

#endif
