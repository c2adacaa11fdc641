#ifndef PERFBOT_RUN_LEFTOVERS_H
#define PERFBOT_RUN_LEFTOVERS_H
/*
 * What a perfbot killed with -9 leaves behind, reaped when the next one
 * starts (`perfbot run`, `perfbot bisect`, `bisect --resume`): its setup
 * journals in the work dir (mounts, loop devices, images, governors:
 * run_setup_cleanup_stale) and its half-made run dirs,
 * "<result root>/.run-K.<pid>" of a pid that is no perfbot any more,
 * and its cgroups "perfbot/<pid>-<n>" (run/cgroup.h) with whatever still
 * ran in them.  Its process group died with it (run_command's
 * die_with_parent); with cgroup v2, its cgroup too (cgroup.kill).
 */
#include "util/strbuf.h"

/*
 * The work dir (run/workdir.h) and the cpufreq tree setup acts on:
 * /sys/devices/system/cpu, under $PERFBOT_MONITOR_ROOT when the tests
 * set one.  Appended to the strbufs.
 */
void run_setup_paths(struct strbuf *work_dir, struct strbuf *cpu_sysfs);

/*
 * Reap the leftovers of dead perfbots: the stale journals of the work dir
 * and, when result_root is not NULL, its ".run-K.<pid>" dirs owned by us
 * whose pid is not a running perfbot.  When anything was cleaned, one
 * line on stderr says what ("perfbot: cleaned up after a killed perfbot:
 * ...").  Returns 0, or -1 when the work dir is not private (refused,
 * printed: a caller must not use it); a journal refused or not undone
 * completely is printed and kept, and is not an error here.
 */
int run_reap_leftovers(const char *result_root);

/* The part for result roots: the number of run dirs removed. */
int run_reap_run_dirs(const char *result_root);

#endif
