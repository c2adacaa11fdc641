/*
 * leftovers.c: reap what a perfbot killed with -9 left (see leftovers.h).
 */
#include "run/leftovers.h"
#include "run/cgroup.h"
#include "run/setup.h"
#include "run/workdir.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void run_setup_paths(struct strbuf *work_dir, struct strbuf *cpu_sysfs)
{
	const char *root = getenv("PERFBOT_MONITOR_ROOT");

	run_work_dir_default(work_dir);
	strbuf_addf(cpu_sysfs, "%s%s", root ? root : "", RUN_SETUP_CPU_SYSFS);
}

/* ".run-K.<pid>": the pid, or -1. */
static long run_dir_pid(const char *name)
{
	const char *p = name;
	char *end;
	long pid;

	if (strncmp(p, ".run-", 5) || !isdigit((unsigned char)p[5]))
		return -1;
	for (p += 5; isdigit((unsigned char)*p); p++)
		;
	if (*p != '.' || !isdigit((unsigned char)p[1]))
		return -1;
	pid = strtol(p + 1, &end, 10);
	return *end || pid <= 0 ? -1 : pid;
}

/* Whether pid is a running perfbot: a dead one's pid may be reused. */
static bool perfbot_runs(long pid)
{
	struct strbuf path = STRBUF_INIT, comm = STRBUF_INIT;
	bool runs;

	if (pid == (long)getpid())
		return true;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return false;
	strbuf_addf(&path, "/proc/%ld/comm", pid);
	/* unreadable: assume it is one, and leave its dir alone */
	if (read_file_quiet(&comm, path.buf, 64) < 0)
		runs = errno != ENOENT;
	else {
		strbuf_rtrim(&comm);
		runs = !strcmp(comm.buf, "perfbot");
	}
	strbuf_release(&path);
	strbuf_release(&comm);
	return runs;
}

int run_reap_run_dirs(const char *result_root)
{
	DIR *d = opendir(result_root);
	struct dirent *de;
	struct strbuf path = STRBUF_INIT;
	int removed = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		long pid = run_dir_pid(de->d_name);
		struct stat st;

		if (pid < 0)
			continue;
		strbuf_reset(&path);
		path_join(&path, result_root, de->d_name);
		/* ours only: a shared result tree holds others' runs too */
		if (lstat(path.buf, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (perfbot_runs(pid))
			continue;
		if (remove_tree(path.buf) == 0)
			removed++;
	}
	closedir(d);
	strbuf_release(&path);
	return removed;
}

static int count_lines(const char *log, const char *prefix)
{
	size_t n = strlen(prefix);
	int c = 0;

	for (const char *l = log; *l;) {
		if (!strncmp(l, prefix, n))
			c++;
		l = strchrnul(l, '\n');
		if (*l)
			l++;
	}
	return c;
}

int run_reap_leftovers(const char *result_root)
{
	struct strbuf wd = STRBUF_INIT, cpu = STRBUF_INIT, log = STRBUF_INIT, msg = STRBUF_INIT;
	int setups, runs = 0, cgroups, killed, ret = 0;

	run_setup_paths(&wd, &cpu);
	if (run_work_dir_check(wd.buf) < 0) {
		ret = -1;
		goto out;
	}
	/* a journal refused or not undone is printed; the others still
	 * count (run_setup_cleanup_stale's -1 says only that one failed) */
	run_setup_cleanup_stale(wd.buf, cpu.buf, &log);
	setups = count_lines(log.buf, "setup: cleaned ");
	if (result_root)
		runs = run_reap_run_dirs(result_root);
	cgroups = cgroup_reap(getenv("PERFBOT_CGROUP_MOUNTINFO"), perfbot_runs, &killed);
	if (setups > 0) {
		int mounts = count_lines(log.buf, "undo: unmounted ");
		int loops = count_lines(log.buf, "undo: detached ");
		strbuf_addf(&msg, "%d setup%s in %s (%d unmounted, %d loop device%s detached)",
			    setups, setups == 1 ? "" : "s", wd.buf, mounts, loops, loops == 1 ? "" : "s");
	}
	if (runs > 0)
		strbuf_addf(&msg, "%s%d half-made run dir%s (.run-*) in %s", msg.len ? ", " : "",
			    runs, runs == 1 ? "" : "s", result_root);
	if (cgroups > 0)
		strbuf_addf(&msg, "%s%d cgroup%s (%s/<pid>-<n>, %d process%s killed)",
			    msg.len ? ", " : "", cgroups, cgroups == 1 ? "" : "s", cgroup_parent_name(),
			    killed, killed == 1 ? "" : "es");
	if (msg.len)
		fprintf(stderr, "perfbot: cleaned up after a killed perfbot: %s\n", msg.buf);
out:
	strbuf_release(&wd);
	strbuf_release(&cpu);
	strbuf_release(&log);
	strbuf_release(&msg);
	return ret;
}
