/*
 * workdir.c: the private work dir of `fs:`/`disk:` setups and the checks
 * that keep a journal in it from making root touch what perfbot did not
 * make (see workdir.h).
 */
#include "run/workdir.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void run_work_dir_default(struct strbuf *sb)
{
	const char *env = getenv("PERFBOT_WORK_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (env && *env)
		strbuf_addstr(sb, env);
	else if (geteuid() == 0)
		strbuf_addstr(sb, "/run/perfbot");
	else if (xdg && xdg[0] == '/')
		strbuf_addf(sb, "%s/perfbot", xdg);
	else
		strbuf_addf(sb, "/tmp/perfbot-%ld", (long)geteuid());
}

/* Why st is not private to us, or NULL. */
static const char *not_private(const struct stat *st, struct strbuf *why)
{
	if (S_ISLNK(st->st_mode))
		return "it is a symbolic link";
	if (!S_ISDIR(st->st_mode))
		return "not a directory";
	if (st->st_uid != geteuid()) {
		strbuf_addf(why, "owned by uid %ld, not by this perfbot's uid %ld",
			    (long)st->st_uid, (long)geteuid());
		return why->buf;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		strbuf_addf(why, "writable by %s (mode %04o)",
			    st->st_mode & S_IWOTH ? "everyone" : "its group",
			    (unsigned)(st->st_mode & 07777));
		return why->buf;
	}
	return NULL;
}

/*
 * An ancestor someone else controls could be renamed away and replaced:
 * each must be root's or ours, and sticky when others may write it.
 */
static int check_ancestors(const char *path, const char *real)
{
	char *p = xstrdup(real);
	int ret = 0;

	for (char *slash = strrchr(p, '/'); slash; slash = strrchr(p, '/')) {
		struct stat st;
		*slash = '\0';
		const char *dir = *p ? p : "/";
		if (lstat(dir, &st) < 0) {
			ret = error("work dir '%s': cannot stat '%s': %s", path, dir, strerror(errno));
			break;
		}
		if (st.st_uid != 0 && st.st_uid != geteuid()) {
			ret = error("work dir '%s': '%s' is owned by uid %ld; refusing to use it",
				    path, dir, (long)st.st_uid);
			break;
		}
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
			ret = error("work dir '%s': '%s' is writable by others and not sticky "
				    "(mode %04o); refusing to use it", path, dir,
				    (unsigned)(st.st_mode & 07777));
			break;
		}
		if (!*p)
			break;
	}
	free(p);
	return ret;
}

int run_work_dir_check(const char *path)
{
	struct strbuf why = STRBUF_INIT;
	struct stat st;
	const char *problem;
	char *real;
	int ret = 0;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 1;
		return error("work dir '%s': %s", path, strerror(errno));
	}
	problem = not_private(&st, &why);
	if (problem) {
		ret = error("work dir '%s': %s; refusing to use it (remove it, or set "
			    "PERFBOT_WORK_DIR to a folder of your own, mode 0700)", path, problem);
		strbuf_release(&why);
		return ret;
	}
	strbuf_release(&why);
	real = realpath(path, NULL);
	if (!real)
		return error("work dir '%s': cannot resolve: %s", path, strerror(errno));
	ret = check_ancestors(path, real);
	free(real);
	return ret;
}

int run_work_dir_make(const char *path, struct strbuf *real)
{
	char *parent = xstrdup(path), *slash = strrchr(parent, '/');
	int r;

	if (slash && slash != parent) {
		*slash = '\0';
		if (mkdir_p(parent, 0755) < 0) {
			free(parent);
			return -1;
		}
	}
	free(parent);
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return error("cannot create directory '%s': %s", path, strerror(errno));
	r = run_work_dir_check(path);
	if (r > 0)
		return error("work dir '%s' vanished while being made", path);
	if (r < 0)
		return -1;
	char *rp = realpath(path, NULL);
	if (!rp)
		return error("cannot resolve '%s': %s", path, strerror(errno));
	strbuf_addstr(real, rp);
	free(rp);
	return 0;
}

int run_work_dir_open_journal(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		if (errno == ELOOP)
			return error("%s: a symbolic link, not a journal perfbot wrote: "
				     "refusing to replay it", path);
		return error("cannot open '%s': %s", path, strerror(errno));
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return error("cannot stat '%s': %s", path, strerror(e));
	}
	const char *why = NULL;
	if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_uid != geteuid())
		why = "owned by another user";
	else if (st.st_nlink != 1)
		why = "hard-linked elsewhere";
	if (why) {
		error("%s: %s (uid %ld, %ld links), not a journal this perfbot wrote: "
		      "refusing to replay it", path, why, (long)st.st_uid, (long)st.st_nlink);
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- what a journal may name --------------------------------------- */

/* s is prefix, then one or more digits, then suffix. */
static bool digits_between(const char *s, const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	s += n;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return !strcmp(s, suffix);
}

/* "<dir>/<name>" with name digits_between(prefix, suffix). */
static bool under(const char *path, const char *dir, const char *prefix, const char *suffix)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/' && digits_between(path + n + 1, prefix, suffix);
}

/* An image perfbot makes: "<dir>/disk<N>.img" or brd's fallback,
 * "/dev/shm/perfbot-<setup name>-ram<N>.img". */
static bool own_image(const char *path, const char *dir)
{
	struct strbuf shm = STRBUF_INIT;
	bool ok;

	strbuf_addf(&shm, "perfbot-%s-ram", strrchr(dir, '/') + 1);
	ok = under(path, dir, "disk", ".img") || under(path, RUN_SETUP_SHM_DIR, shm.buf, ".img");
	strbuf_release(&shm);
	return ok;
}

static bool governor_name(const char *s, size_t n)
{
	if (!n || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

/* Why line may not be replayed, or NULL. */
static const char *line_problem(const char *line, const char *dir, const char *cpu_root)
{
	const char *sp = strchr(line, ' ');
	size_t wlen = sp ? (size_t)(sp - line) : strlen(line);
	const char *rest = sp ? sp + 1 : "";

#define IS(w) (wlen == strlen(w) && !strncmp(line, w, wlen))
	if (IS("perfbot-setup") || IS("owner"))
		return NULL;
	if (IS("dir"))
		return strcmp(rest, dir) ? "not this journal's own setup dir" : NULL;
	if (IS("mountdir") || IS("mount"))
		return under(rest, dir, "mnt", "") ? NULL :
			"not a mount point perfbot makes (<setup dir>/mnt<N>)";
	if (IS("image"))
		return own_image(rest, dir) ? NULL :
			"not an image perfbot makes (<setup dir>/disk<N>.img)";
	if (IS("loop")) {
		const char *sp2 = strchr(rest, ' ');
		char *dev = sp2 ? xstrndup(rest, (size_t)(sp2 - rest)) : xstrdup(rest);
		bool ok = sp2 && digits_between(dev, "/dev/loop", "") && own_image(sp2 + 1, dir);
		free(dev);
		return ok ? NULL : "not a loop device on an image perfbot makes";
	}
	if (IS("governor")) {
		const char *sp2 = strchr(rest, ' ');
		if (!sp2 || !governor_name(rest, (size_t)(sp2 - rest)))
			return "not a cpufreq governor's name";
		size_t n = strlen(cpu_root);
		const char *file = sp2 + 1, *tail;
		if (strncmp(file, cpu_root, n) || file[n] != '/')
			return "not a scaling_governor file of the cpu sysfs tree";
		/* cpu<N>/cpufreq/scaling_governor */
		tail = strchr(file + n + 1, '/');
		if (!tail || strcmp(tail, "/cpufreq/scaling_governor"))
			return "not a scaling_governor file of the cpu sysfs tree";
		char *cpu = xstrndup(file + n + 1, (size_t)(tail - file - n - 1));
		bool ok = digits_between(cpu, "cpu", "");
		free(cpu);
		return ok ? NULL : "not a scaling_governor file of the cpu sysfs tree";
	}
	if (IS("brd"))
		return digits_between(line, "brd ", "") ? NULL : "not a number of RAM disks";
	if (IS("eatmem")) {
		/* "<pid> <starttime>"; undo kills only a perfbot-eatmem of that start */
		const char *sp2 = strchr(rest, ' ');
		char *pid = sp2 ? xstrndup(rest, (size_t)(sp2 - rest)) : xstrdup(rest);
		bool ok = sp2 && digits_between(pid, "", "") && digits_between(sp2 + 1, "", "");
		free(pid);
		return ok ? NULL : "not an eater's pid and start time";
	}
#undef IS
	return "not a step perfbot journals";
}

int run_journal_check(const char *text, const char *state_path, const char *cpu_sysfs,
		      struct strbuf *why)
{
	const char *base = strrchr(state_path, '/');
	const char *cpu_root = cpu_sysfs ? cpu_sysfs : RUN_SETUP_CPU_SYSFS;
	char *dir;
	int lineno = 0, ret = 0;

	base = base ? base + 1 : state_path;
	const char *q = base + 6;
	if (strncmp(base, "setup-", 6) || !isdigit((unsigned char)*q)) {
		strbuf_addf(why, "'%s' is not named setup-<pid>-<n>.state", base);
		return -1;
	}
	while (isdigit((unsigned char)*q))
		q++;
	if (!digits_between(q, "-", ".state")) {
		strbuf_addf(why, "'%s' is not named setup-<pid>-<n>.state", base);
		return -1;
	}
	dir = xstrndup(state_path, strlen(state_path) - 6);
	for (const char *p = text; *p && !ret; ) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			break;          /* torn: never replayed */
		lineno++;
		char *line = xstrndup(p, (size_t)(eol - p));
		const char *problem = *line ? line_problem(line, dir, cpu_root) : NULL;
		if (problem) {
			strbuf_addf(why, "line %d: ", lineno);
			add_printable(why, line);
			strbuf_addf(why, ": %s", problem);
			ret = -1;
		}
		free(line);
		p = eol + 1;
	}
	free(dir);
	return ret;
}
