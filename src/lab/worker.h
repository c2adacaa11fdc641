#ifndef PERFBOT_LAB_WORKER_H
#define PERFBOT_LAB_WORKER_H
/*
 * A test box: `perfbot worker` claims jobs from the lab's queue, runs
 * them, and uploads their results.
 *
 * One job, step by step:
 *
 *   claim      queue_claim: the most urgent job for this box's group,
 *              with a lease of lease_s seconds (after the first job, the
 *              upload of the one before claimed it already)
 *   fork       a child process does the work (below); the worker itself
 *              stays single-threaded and only talks to the database:
 *              every lease_s/3 it renews the lease (a heartbeat); when the
 *              job is no longer its own (cancelled, or the lease expired
 *              while the box was unreachable) it stops the child and drops
 *              what it made.  A crash of the job's code cannot take the
 *              worker down, and the worker's connection never crosses a
 *              fork (libpq connections must not).
 *   child      checks the commit out of the job's repo into a private
 *              clone and runs the build command there (checkout.h), then
 *              runs the job with monitors through run_job(), the code of
 *              `perfbot run`, in "<dir>/job-<id>.<attempt>.<pid>/";
 *              with a kernel tree, it builds the job's commit of the tree
 *              in the kernel cache instead (kernel/build.h: found there
 *              when built before) and each run boots it in QEMU with the
 *              job inside (kernel/vm.h), as bisect --kernel-tree does
 *   upload     lab_upload_next: runs, files and matrix in one transaction
 *              that marks the job done and claims the next one (not when
 *              --once, nor once told to stop); retried after a reconnect
 *
 * perf's capabilities are probed once, when the worker starts, for all
 * its jobs' runs.
 *   or fail    queue_fail with the child's last error line: back to the
 *              queue, or parked after the job's last attempt
 *
 * The child dies with the worker (PR_SET_PDEATHSIG); a worker killed
 * with -9 leaves its lease to expire, and another box runs the job
 * again.  A worker starting removes the job dirs of dead workers.
 *
 * The database going away (restart, network) is waited out: each call
 * that finds the connection broken reconnects with backoff and is
 * repeated; a job keeps running meanwhile, and its upload waits.  Only
 * the first connection must succeed: failing it is an error.
 */
#include <signal.h>
#include <stdbool.h>
#include "kernel/vm.h"

struct worker_opts {
	const char *url;             /* the lab's database */
	const char *group;           /* tbox_group; NULL: the host name's */
	double lease_s;              /* lease per claim and heartbeat */
	double poll_s;               /* look at the queue at least this often */
	bool once;                   /* one job (or none), then return */
	const char *dir;             /* work dir; NULL: ~/.cache/perfbot/worker */
	int verbose;
	volatile sig_atomic_t *stop; /* set by SIGTERM/SIGINT: finish up */
	/* for queues whose submitters the box does not trust
	 * (doc/manual/security.md): */
	const char *user;            /* run each job's child as this user */
	const char *allow;           /* testcases allowed, "a,b"; NULL: any */
	const char *const *allow_cmds; /* `mytest: {command: ...}` allowed */
	int nr_allow_cmds;
	bool allow_build;            /* run the queue's --build commands */
	/* a kernel test box: each job's commit is one of this tree's, built
	 * and booted (NULL: jobs run on the box itself) */
	const char *kernel_tree;
	const char *kconfig;         /* --config: tiny (NULL), small, defconfig, a file */
	struct kernel_vm_opts vm;    /* --accel, --boot-timeout, --cpus, --mem, --numa */
};

#define WORKER_LEASE_DEFAULT 60.0
#define WORKER_POLL_DEFAULT 10.0

/* Run until *stop (or after one job with once).  Returns an exit code:
 * 0, or EXIT_ERROR when it could not start. */
int worker_run(const struct worker_opts *o);

#endif
