/*
 * A process's children, from /proc: see proc.h.
 */
#include "util/proc.h"
#include "util/fileio.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The parent in a /proc/<N>/stat text: "N (comm) S PPID ...", where comm
 * may hold spaces and parentheses, so the last ')' ends it.  -1 when the
 * text is not that. */
static long stat_ppid(const char *stat)
{
	const char *p = strrchr(stat, ')');
	char state;
	long ppid;

	if (!p || sscanf(p + 1, " %c %ld", &state, &ppid) != 2)
		return -1;
	return ppid;
}

static int scan_children(pid_t pid, struct strbuf *kids)
{
	struct strbuf path = STRBUF_INIT, stat = STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	strbuf_addf(&path, "/proc/%ld", (long)pid);
	if (access(path.buf, F_OK) < 0 || !(d = opendir("/proc"))) {
		strbuf_release(&path);
		return -1;
	}
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		strbuf_reset(&path);
		strbuf_reset(&stat);
		strbuf_addf(&path, "/proc/%s/stat", de->d_name);
		/* a process may end meanwhile: then it is no child */
		if (read_file_quiet(&stat, path.buf, 4096) == 0 && stat_ppid(stat.buf) == (long)pid)
			strbuf_addf(kids, "%s%s", kids->len ? " " : "", de->d_name);
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&stat);
	return 0;
}

int proc_children(pid_t pid, enum proc_children_how how, struct strbuf *kids)
{
	struct strbuf path = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
	if (how == PROC_CHILDREN_AUTO && access(path.buf, F_OK) == 0) {
		r = read_file_quiet(kids, path.buf, 65536);
		strbuf_release(&path);
		return r < 0 ? -1 : 0;
	}
	strbuf_release(&path);
	return scan_children(pid, kids);
}
