#ifndef PERFBOT_UTIL_PROC_H
#define PERFBOT_UTIL_PROC_H
/*
 * A process's children, from /proc.
 *
 * Linux lists them in /proc/<pid>/task/<pid>/children, but only with
 * CONFIG_PROC_CHILDREN, which perfbot's small guest config (tinyconfig
 * plus what lkp's jobs need) lacks.  Without it the children are found
 * the way ps finds them: the parent field of every /proc/<N>/stat.
 */
#include "util/strbuf.h"

#include <sys/types.h>

enum proc_children_how {
	PROC_CHILDREN_AUTO,     /* the children file, else the scan */
	PROC_CHILDREN_SCAN,     /* the scan alone (tests: this host has the file) */
};

/*
 * The pids of pid's children (of its main thread, as the children file
 * lists them), space-separated, appended to kids.  0, or -1 when pid is
 * gone or /proc cannot be read.
 */
int proc_children(pid_t pid, enum proc_children_how how, struct strbuf *kids);

#endif
