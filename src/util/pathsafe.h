#ifndef PERFBOT_PATHSAFE_H
#define PERFBOT_PATHSAFE_H
/*
 * One safe path component: the single check for every name that comes
 * from a job file or the command line and ends up in a path (testcase,
 * kconfig, compiler, commit, rootfs, tbox_group, split-job's file names,
 * ...).  perfbot often runs as root; a `commit: ../../etc` must not write
 * outside the result root.
 *
 * Safe means: not empty, not "." or "..", no '/', no control character
 * (a newline would also break perfbot's line-based state files and logs)
 * and at most NAME_MAX (255) bytes.  A NUL cannot reach here: C strings
 * end at it, and the job loader rejects scalars that contain one.
 */
#include "util/strbuf.h"

/* NULL when name is one safe component, else why not ("contains '/'"). */
const char *path_component_problem(const char *name);

/*
 * Check name; on failure print "perfbot: WHAT expected one path
 * component (the rules), got 'NAME': PROBLEM" (control characters shown
 * as '?') and return -1.  what names the source: "--commit", or
 * "job.yaml:3:9: 'commit'".  0 when safe.
 */
int check_path_component(const char *name, const char *what);

/* Append name with what a terminal acts on replaced by '?' (printable.h). */
void add_printable(struct strbuf *sb, const char *name);

#endif
