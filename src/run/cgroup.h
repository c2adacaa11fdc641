#ifndef PERFBOT_RUN_CGROUP_H
#define PERFBOT_RUN_CGROUP_H
/*
 * cgroup.h: each run's benchmark, and everything it starts, in a cgroup
 * of its own.
 *
 * The cgroup is "perfbot/<pid>-<run>" under every hierarchy that helps:
 * the cgroup v2 one when mounted (membership, cgroup.kill, cpu.stat; and
 * its cpu, io, cpuset controllers when it has them), and the v1 ones of
 * the controllers v2 lacks: cpu (cpu.shares), cpuacct (usage), cpuset
 * (cpuset.cpus/mems), blkio (blkio.weight) and freezer (to kill all).
 * Never memory, pids or the named ones: their limits are someone else's.
 *
 * The run's weight over the rest of the machine is high: cpu.shares
 * CGROUP_CPU_SHARES (v1 default 1024), cpu.weight CGROUP_CPU_WEIGHT (v2
 * default 100), blkio.weight / io.weight CGROUP_IO_WEIGHT (defaults 500
 * and 100), set on perfbot/ and on the run's cgroup; a file a kernel
 * lacks (blkio.weight without BFQ) is noted, not an error.  perfbot/ is
 * left in place (other perfbots may be creating theirs in it).
 *
 * The benchmark joins the cgroup in its child before exec (run_command's
 * cgroup_fds); at the run's end run_cgroup_destroy kills whatever is left
 * in it (a `setsid` child escapes the process group, not the cgroup) and
 * removes it.  A perfbot killed with -9 leaves its cgroups; the next one
 * reaps them (cgroup_reap, from run/leftovers.h).
 */
#include <stdbool.h>
#include "util/strbuf.h"

enum {
	CGROUP_CPU_SHARES = 10240,
	CGROUP_CPU_WEIGHT = 1000,
	CGROUP_IO_WEIGHT = 1000,
};

/* the controllers perfbot uses (bits) */
enum {
	CG_CPU = 1, CG_CPUACCT = 2, CG_CPUSET = 4, CG_BLKIO = 8, CG_FREEZER = 16, CG_IO = 32,
};

struct cgroup_mount {
	char *path;             /* the mount point */
	int version;            /* 1 or 2 */
	unsigned controllers;   /* CG_* of its superblock options (v1) */
};

/*
 * One line of /proc/self/mountinfo: 1 and *m filled (path malloc'ed,
 * octal escapes undone) for a cgroup or cgroup2 mount, 0 for another
 * mount, -1 for a line that is not mountinfo's.
 */
int cgroup_parse_mountinfo_line(const char *line, struct cgroup_mount *m);

/*
 * The hierarchies to use, from a mountinfo text: the first cgroup2 mount,
 * then a v1 mount for each controller of CG_CPU..CG_FREEZER (the first
 * mount that has it; a mount whose controllers are all taken is left
 * out).  Returns how many, *out malloc'ed (free with cgroup_mounts_free).
 */
int cgroup_pick_mounts(const char *mountinfo, struct cgroup_mount **out);
void cgroup_mounts_free(struct cgroup_mount *m, int n);

/* cpu.stat (v1 or v2) and cpuacct.usage, as numbers. */
struct cgroup_cpu_stat {
	unsigned long long usage_usec;      /* v2 usage_usec, v1 cpuacct.usage / 1000 */
	unsigned long long nr_throttled;
	unsigned long long throttled_usec;  /* v2 throttled_usec, v1 throttled_time / 1000 */
	bool has_usage, has_throttled;
};
/* Fold a cpu.stat's "key value" lines into st: 0, -1 for a malformed
 * line (st then has what came before it). */
int cgroup_parse_cpu_stat(const char *text, struct cgroup_cpu_stat *st);
/* cpuacct.usage: nanoseconds.  0, or -1 when text is not one number. */
int cgroup_parse_cpuacct_usage(const char *text, struct cgroup_cpu_stat *st);

/* A cgroup's name below perfbot/: "<pid>-<run>"; the pid, or -1. */
long cgroup_leaf_pid(const char *name);

struct cgroup_dir {
	char *path;             /* <mount>/perfbot/<leaf> */
	int version;
	unsigned controllers;   /* used in it */
	int procs_fd;           /* its cgroup.procs, open for writing */
};

struct run_cgroup {
	char *name;             /* "perfbot/<leaf>" */
	struct cgroup_dir *dir;
	int nr;
	int *fds;               /* the procs_fds, for run_command */
	int kill_fd;            /* the v2 cgroup.kill, open, or -1 */
	struct strbuf settings; /* "v2 /sys/fs/cgroup/unified; cpu.shares=10240, ..." */
};

/*
 * Make the run's cgroup "perfbot/<leaf>" in every hierarchy the mountinfo
 * file (NULL: /proc/self/mountinfo) lists, with the weights and, when
 * cpuset is not NULL, cpuset.cpus set to it.  0 made; 1 when cgroups
 * cannot be used here (not root, none mounted, read-only), with why in
 * *why and nothing left; -1 after error() when cpuset is refused by the
 * kernel.
 */
int run_cgroup_create(struct run_cgroup *cg, const char *mountinfo, const char *leaf,
		      const char *cpuset, struct strbuf *why);
/* The run's CPU use and throttling so far (the hierarchies that have them). */
void run_cgroup_cpu_stat(const struct run_cgroup *cg, struct cgroup_cpu_stat *st);
/*
 * Kill every process left in the cgroup (cgroup.kill, else the freezer
 * and SIGKILL, else SIGKILL until empty) and remove its dirs.  Returns
 * the number of processes that were left, or -1 after a message when a
 * dir could not be removed.  cg is released in both cases.
 */
int run_cgroup_destroy(struct run_cgroup *cg);
void run_cgroup_release(struct run_cgroup *cg);

/*
 * Reap the cgroups "perfbot/<pid>-<run>" whose pid alive() says is no
 * perfbot any more: their processes killed, their dirs removed.  Returns
 * the number of cgroups removed; *killed gets the processes killed.
 */
int cgroup_reap(const char *mountinfo, bool (*alive)(long pid), int *killed);

/*
 * The parent of every run's cgroup in each hierarchy: "perfbot", or
 * $PERFBOT_CGROUP_PARENT when it is one path component (at most 64
 * bytes).  A perfbot reaps the leftovers of dead perfbots under its own
 * parent only, so tests that plant or kill runs use a parent of their
 * own and no other perfbot on the machine reaps what they planted.
 */
const char *cgroup_parent_name(void);

#endif
