#ifndef PERFBOT_RUN_EATMEM_H
#define PERFBOT_RUN_EATMEM_H
/*
 * eatmem: lkp-tests' memory eater (programs/eatmem/setup runs usemem
 * --mlock --prefault, detached), as a setup step of perfbot (setup.h):
 * a child of perfbot mlocks and prefaults anonymous memory before the
 * monitors start and holds it until the run ends, so that a benchmark
 * meets a machine with less free memory (the page cache reaches reclaim
 * sooner).  The job keys, lkp's first:
 *
 *   eatmem:
 *     eatmem_size: 16G      lock 16 GiB (lkp's sizes, setup.h)
 *     eatmem_size: 75%      perfbot: 75% of MemAvailable, read just
 *                           before locking (1-100, an integer)
 *     eatmem_leave: 4G      perfbot: lock all of MemAvailable but 4 GiB
 *                           (nothing when less is available already)
 *     eatmem_duration: 600  lkp's: release after 600 s (a duration),
 *                           else at the end of the run
 *     eatmem_nonuma: true   lkp's; accepted: perfbot's eater is one
 *                           process without NUMA binding anyway
 *
 * The options may also be top-level keys (lkp passes both to its setup
 * script); the `eatmem:` key is what asks for the eater.
 *
 * Never OOM the machine: the request is refused ("cannot work here",
 * naming the job file:line:col of its key) when it would leave less than
 * run_eatmem_margin() of MemAvailable; while locking, in 256 MiB steps,
 * the eater stops when MemAvailable falls below half the margin (someone
 * else is taking memory too), and its oom_score_adj is 1000, so that the
 * OOM killer would take it first.  Without root, RLIMIT_MEMLOCK's hard
 * limit must allow the size (run_eatmem_memlock).
 *
 * The eater dies with perfbot (PR_SET_PDEATHSIG, checked against a
 * race), has its own process group (a terminal's ^C goes to perfbot,
 * which then releases it) and is named "perfbot-eatmem".  It locks
 * nothing before the setup journal names it (setup.h, "eatmem <pid>
 * <starttime>"), so after a kill -9 the next start finds any survivor.
 */
#include <stdbool.h>
#include "job/job.h"
#include "util/strbuf.h"

enum run_eatmem_kind {
	RUN_EATMEM_NONE,
	RUN_EATMEM_BYTES,       /* eatmem_size: <size> */
	RUN_EATMEM_PERCENT,     /* eatmem_size: <N>% of MemAvailable */
	RUN_EATMEM_LEAVE,       /* eatmem_leave: <size> */
};

struct run_eatmem_plan {
	enum run_eatmem_kind kind;
	unsigned long long bytes;       /* BYTES: to lock; LEAVE: to leave */
	unsigned percent;               /* PERCENT: 1..100 */
	double duration;                /* eatmem_duration; 0: the run */
	const struct job_value *val;    /* the size's value (or the eatmem
					   key's), for FILE:LINE:COL */
	char desc[64];                  /* "eatmem_size '16G'" as written */
};

/* Below this much MemAvailable left the eater is refused: the larger of
 * 512 MiB and MemTotal / 32 (768 MiB on a 24 GiB machine). */
#define RUN_EATMEM_MIN_MARGIN (512ULL << 20)
unsigned long long run_eatmem_margin(unsigned long long mem_total);

/*
 * Read the job's eatmem key and options into e (kind NONE without
 * `eatmem:`).  0; 1 for what perfbot knows but does not do (NUMA
 * binding) with the reason in why; -1 after error("FILE:LINE:COL: ...")
 * for a bad value.
 */
int run_eatmem_plan(const struct job *job, struct run_eatmem_plan *e, struct strbuf *why);

/*
 * How much to lock on a machine with mem_total and mem_avail bytes
 * (MemTotal, MemAvailable): 0 with *bytes set (0: nothing to lock, for
 * eatmem_leave with less available already), or 1 with why set when
 * the request would leave less than run_eatmem_margin(mem_total).
 */
int run_eatmem_resolve(const struct run_eatmem_plan *e, unsigned long long mem_total,
		       unsigned long long mem_avail, unsigned long long *bytes,
		       struct strbuf *why);

/*
 * May bytes be locked under RLIMIT_MEMLOCK hard (RLIM_INFINITY: no
 * limit)?  A privileged process (root: CAP_IPC_LOCK) may always; others
 * up to hard (the eater raises its soft limit).  0, or 1 with why set.
 */
int run_eatmem_memlock(unsigned long long bytes, unsigned long long hard, bool privileged,
		       struct strbuf *why);

/* A /proc/meminfo figure ("MemAvailable") of text in bytes; -1 when
 * absent.  No allocation (the eater calls it). */
long long run_eatmem_meminfo(const char *text, const char *key);

#endif
