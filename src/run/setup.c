/*
 * setup.c: the disks, file systems and cpufreq governor a job asks for,
 * made before a run and undone after, through a journal that survives
 * kill -9 (see setup.h for the keys, the caller's steps and the format).
 *
 * One mechanism does all undoing: a journal line is written before each
 * change, and undo replays the lines backwards with idempotent steps.
 * run_setup_undo replays the in-memory journal of this process,
 * run_setup_cleanup_stale the journal files of dead ones.
 */
#include "run/setup.h"
#include "run/setup_impl.h"
#include "run/workdir.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/statvfs.h>
#include <unistd.h>


/* ------------------------------------------------------------------ */
/* declared tables */

struct tool {
	const char *name;
	const char *package;
};
static const struct tool tool_losetup = { "losetup", "mount" };
static const struct tool tool_modprobe = { "modprobe", "kmod" };

/* ------------------------------------------------------------------ */
/* small helpers */

/* "1 GiB", "512 MiB", "1000 bytes": sizes in messages. */
void setup_add_size(struct strbuf *sb, unsigned long long b)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	int u = -1;

	if (b < 1024) {
		strbuf_addf(sb, "%llu bytes", b);
		return;
	}
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (v == (double)(unsigned long long)v)
		strbuf_addf(sb, "%llu %s", (unsigned long long)v, units[u]);
	else
		strbuf_addf(sb, "%.1f %s", v, units[u]);
}

/*
 * "cannot work here": print the reason like error() does, log it, and
 * return 1 so that the caller can `return setup_cannot(...)`.
 */
__attribute__((format(printf, 2, 3)))
int setup_cannot(struct strbuf *log, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s", msg.buf);
	strbuf_addf(log, "setup: cannot work here: %s\n", msg.buf);
	strbuf_release(&msg);
	return 1;
}

/* True when name is an executable in $PATH: what execvp will find. */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	struct strbuf full = STRBUF_INIT;
	bool found = false;

	if (!path)
		path = "/usr/bin:/bin";
	while (!found) {
		const char *end = strchrnul(path, ':');
		strbuf_reset(&full);
		if (end == path)
			strbuf_addstr(&full, ".");
		else
			strbuf_add(&full, path, (size_t)(end - path));
		strbuf_addf(&full, "/%s", name);
		found = access(full.buf, X_OK) == 0;
		if (!*end)
			break;
		path = end + 1;
	}
	strbuf_release(&full);
	return found;
}

static int need_tool(const struct tool *t, struct strbuf *log)
{
	if (in_path(t->name))
		return 0;
	return setup_cannot(log, "'%s' not found in PATH: install the Debian package %s",
		      t->name, t->package);
}

/* Read a small file (sysfs, /proc) into sb, trailing whitespace cut. */
int setup_read_small(const char *path, struct strbuf *sb)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	if (n < 0)
		return -1;
	strbuf_rtrim(sb);
	return 0;
}

int setup_write_small(const char *path, const char *text)
{
	/* O_TRUNC: sysfs ignores it, a plain file (tests) needs it */
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	size_t len = strlen(text);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	int saved = errno;
	if (close(fd) < 0 && n >= 0)
		return -1;
	errno = saved;
	return n == (ssize_t)len ? 0 : -1;
}

/* Run argv; its stdout goes to log.  Returns the exit code or -1. */
int setup_run_tool(char *const *argv, struct strbuf *log)
{
	struct strbuf out = STRBUF_INIT;
	int r = capture_command(argv, NULL, &out);

	if (out.len) {
		strbuf_rtrim(&out);
		strbuf_addf(log, "setup: %s: %s\n", argv[0], out.buf);
	}
	strbuf_release(&out);
	return r;
}

static void add_argv(struct strbuf *sb, char *const *argv)
{
	for (size_t i = 0; argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
}

/* A kernel memory figure from /proc/meminfo in bytes, 0 when unknown. */
unsigned long long setup_meminfo_bytes(const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	long long b = -1;

	if (setup_read_small("/proc/meminfo", &sb) == 0)
		b = run_eatmem_meminfo(sb.buf, key);
	strbuf_release(&sb);
	return b < 0 ? 0 : (unsigned long long)b;
}

/* Start time of pid in clock ticks since boot (/proc/<pid>/stat field
 * 22), with its state letter; -1 when the process does not exist. */
long long setup_proc_start(pid_t pid, char *state)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	long long start = -1;

	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	if (setup_read_small(path.buf, &sb) == 0) {
		/* the command name may hold spaces and ')': skip to the last ')' */
		const char *p = strrchr(sb.buf, ')');
		if (p && p[1] == ' ' && p[2]) {
			if (state)
				*state = p[2];
			p += 2;
			/* field 3 is the state; the start time is field 22 */
			for (int field = 3; field < 22 && p; field++) {
				p = strchr(p, ' ');
				if (p)
					p++;
			}
			if (p)
				start = strtoll(p, NULL, 10);
		}
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	return start;
}

/* ------------------------------------------------------------------ */
/* checks before any change */

static bool kernel_has_fs(const char *fstype)
{
	struct strbuf sb = STRBUF_INIT;
	bool found = false;

	if (setup_read_small("/proc/filesystems", &sb) == 0) {
		size_t n = strlen(fstype);
		for (const char *p = sb.buf; *p; ) {
			const char *eol = strchrnul(p, '\n');
			const char *tab = memchr(p, '\t', (size_t)(eol - p));
			const char *name = tab ? tab + 1 : p;
			if ((size_t)(eol - name) == n && !strncmp(name, fstype, n))
				found = true;
			p = *eol ? eol + 1 : eol;
		}
	}
	strbuf_release(&sb);
	return found;
}

/* The governor files of online CPUs ("cpuN/cpufreq/scaling_governor"). */
static void governor_files(const char *root, char ***files, size_t *nr)
{
	DIR *d = opendir(root);
	struct dirent *de;
	size_t alloc = 0;
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT;

	*files = NULL;
	*nr = 0;
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *p = de->d_name;
		if (strncmp(p, "cpu", 3) || !isdigit((unsigned char)p[3]))
			continue;
		for (p += 3; isdigit((unsigned char)*p); p++)
			;
		if (*p)
			continue;
		/* lkp skips offline CPUs: their cpufreq files cannot be set */
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/online", root, de->d_name);
		strbuf_reset(&val);
		if (setup_read_small(path.buf, &val) == 0 && !strcmp(val.buf, "0"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/cpufreq/scaling_governor", root, de->d_name);
		if (access(path.buf, F_OK) < 0)
			continue;
		ALLOC_GROW(*files, *nr + 1, alloc);
		(*files)[(*nr)++] = xstrdup(path.buf);
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&val);
}

void setup_free_list(char **list, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(list[i]);
	free(list);
}

/* Is word one of the space-separated words of list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || isspace((unsigned char)p[-1])) &&
		    (!p[n] || isspace((unsigned char)p[n])))
			return true;
	return false;
}

static int check_governor(const char *governor, char **files, size_t nr, struct strbuf *log)
{
	struct strbuf avail = STRBUF_INIT, path = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		const char *slash = strrchr(files[i], '/');
		strbuf_reset(&path);
		strbuf_add(&path, files[i], (size_t)(slash - files[i]));
		strbuf_addstr(&path, "/scaling_available_governors");
		strbuf_reset(&avail);
		if (setup_read_small(path.buf, &avail) == 0 && !has_word(avail.buf, governor))
			ret = setup_cannot(log, "cpufreq governor '%s' is not available here "
				     "(%s has: %s)", governor, path.buf, avail.buf);
		else if (access(files[i], W_OK) < 0)
			ret = setup_cannot(log, "cannot write '%s' for cpufreq_governor: %s%s",
				     files[i], strerror(errno),
				     geteuid() ? " (needs root)" : "");
	}
	strbuf_release(&avail);
	strbuf_release(&path);
	return ret;
}

/* An unsigned number from the one-line file dir/name; -1 when unreadable. */
static long long read_param(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT;
	long long v = -1;
	char *end;

	strbuf_addf(&path, "%s/%s", dir, name);
	if (setup_read_small(path.buf, &val) == 0 && val.len) {
		errno = 0;
		v = strtoll(val.buf, &end, 10);
		if (errno || end == val.buf || v < 0)
			v = -1;
	}
	strbuf_release(&path);
	strbuf_release(&val);
	return v;
}

/*
 * brd built into the kernel (a module directory without initstate): its
 * RAM disks exist from boot, sized by the command line's brd.rd_nr= and
 * brd.rd_size= (perfbot's VM passes the job's), and cannot be resized.
 * Usable when there are enough of the job's exact size: 0 then; 1 with
 * the reason and the boot parameters that would do in why.
 */
static int brd_builtin_fits(const char *mod, const struct run_setup_plan *plan,
			    struct strbuf *why)
{
	struct strbuf params = STRBUF_INIT;
	unsigned long long kib = plan->disk_bytes >> 10;
	long long nr, size;

	strbuf_addf(&params, "%s/parameters", mod);
	nr = read_param(params.buf, "rd_nr");
	size = read_param(params.buf, "rd_size");
	strbuf_release(&params);
	if (nr >= plan->nr_disks && size >= 0 && (unsigned long long)size == kib)
		return 0;
	strbuf_addstr(why, "brd is built into this kernel");
	if (nr >= 0 && size >= 0)
		strbuf_addf(why, " with %lld RAM disks of %lld KiB", nr, size);
	strbuf_addf(why, ", and built-in RAM disks cannot be resized (boot with "
		    "brd.rd_nr=%d brd.rd_size=%llu)", plan->nr_disks, kib);
	return 1;
}

/* Is brd loadable?  0 yes (*builtin: it is built in, with the disks the
 * plan needs); 1 with the reason in why. */
static int brd_loadable(const struct run_setup *s, const struct run_setup_plan *plan,
			bool *builtin, struct strbuf *why, struct strbuf *log)
{
	char *const dry[] = { "modprobe", "-n", "-q", "brd", NULL };
	struct strbuf mod = STRBUF_INIT, init = STRBUF_INIT;
	int ret = -1;

	*builtin = false;
	strbuf_addf(&mod, "%s/brd", s->module_sysfs ? s->module_sysfs : RUN_SETUP_MODULE_SYSFS);
	strbuf_addf(&init, "%s/initstate", mod.buf);
	if (access(mod.buf, F_OK) == 0 && access(init.buf, F_OK) < 0) {
		ret = brd_builtin_fits(mod.buf, plan, why);
		*builtin = !ret;
	} else if (access(mod.buf, F_OK) == 0) {
		strbuf_addstr(why, "brd is already loaded, so its RAM disks may be in use "
			      "and cannot be resized (modprobe -r brd first)");
		ret = 1;
	}
	strbuf_release(&mod);
	strbuf_release(&init);
	if (ret >= 0)
		return ret;
	if (setup_run_tool(dry, log) != 0) {
		struct strbuf rel = STRBUF_INIT;
		setup_read_small("/proc/sys/kernel/osrelease", &rel);
		strbuf_addf(why, "this kernel (%s) has no brd module (CONFIG_BLK_DEV_RAM), "
			    "so it cannot make RAM disks", rel.len ? rel.buf : "?");
		strbuf_release(&rel);
		return 1;
	}
	return 0;
}

struct check_result {
	bool brd_fallback;          /* make loop images in RUN_SETUP_SHM_DIR instead */
	bool brd_builtin;           /* use the built-in brd's RAM disks as they are */
	char **gov_files;           /* governor files to set */
	size_t nr_gov;
};

static int check_plan(const struct run_setup_plan *plan, const char *base,
		      struct run_setup *s, struct check_result *cr, struct strbuf *log)
{
	unsigned long long n = (unsigned long long)plan->nr_disks;
	unsigned long long total = n && plan->disk_bytes > ULLONG_MAX / n ? ULLONG_MAX
				   : plan->disk_bytes * n;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int r = 0;

	/* tools first: they are what an admin can fix with one apt-get */
	if (plan->disk == RUN_DISK_LOOP)
		r = need_tool(&tool_losetup, log);
	if (!r && plan->disk == RUN_DISK_BRD) {
		r = need_tool(&tool_modprobe, log);
		if (!r && s->brd_fallback)
			r = need_tool(&tool_losetup, log);
	}
	if (!r && plan->fs && plan->fs->mkfs) {
		struct tool t = { plan->fs->mkfs, plan->fs->package };
		r = need_tool(&t, log);
	}
	if (!r && (plan->disk != RUN_DISK_NONE || plan->fs) && geteuid() != 0) {
		if (plan->disk == RUN_DISK_NONE)
			r = setup_cannot(log, "setting up fs '%s' needs root", plan->fs_name);
		else
			r = setup_cannot(log, "setting up disk '%s'%s%s needs root", plan->disk_desc,
				   plan->fs ? " with fs " : "", plan->fs ? plan->fs_name : "");
	}
	if (!r && plan->fs && !kernel_has_fs(plan->fs->fstype)) {
		char *const probe[] = { "modprobe", "-q", (char *)plan->fs->fstype, NULL };
		if (in_path("modprobe"))
			setup_run_tool(probe, log);
		if (!kernel_has_fs(plan->fs->fstype))
			r = setup_cannot(log, "this kernel does not support fs '%s' (not in "
				   "/proc/filesystems, and modprobe %s failed)",
				   plan->fs_name, plan->fs->fstype);
	}
	if (!r && plan->disk == RUN_DISK_BRD &&
	    brd_loadable(s, plan, &cr->brd_builtin, &why, log)) {
		if (s->brd_fallback) {
			cr->brd_fallback = true;
			strbuf_addf(log, "setup: brd: %s; falling back to loop images in %s "
				    "(RAM-backed, but through the loop driver)\n", why.buf, RUN_SETUP_SHM_DIR);
		} else {
			/* a loop image of the same size is what works anywhere */
			const char *size = strstr(plan->disk_desc, "BRD_");
			strbuf_reset(&sb);
			if (plan->disk_val)
				job_source_line(plan->disk_val, &sb);
			r = setup_cannot(log, "%s%sdisk '%s': %s; use disk: loop_%s instead",
				   sb.buf, sb.len ? ": " : "", plan->disk_desc, why.buf,
				   size ? size + 4 : "1G");
			strbuf_reset(&sb);
		}
		strbuf_reset(&why);
	}
	if (!r && plan->disk != RUN_DISK_NONE) {
		/* brd and the fallback's images live in RAM, loop images on disk */
		bool ram = plan->disk == RUN_DISK_BRD;
		unsigned long long avail = 0;
		struct statvfs vfs;
		if (ram)
			avail = setup_meminfo_bytes("MemAvailable");
		else if (statvfs(base, &vfs) == 0)
			avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
		else
			r = error("cannot stat the file system of '%s': %s", base, strerror(errno));
		if (!r && total > avail) {
			setup_add_size(&sb, total);
			setup_add_size(&why, avail);
			if (ram)
				r = setup_cannot(log, "disk '%s' needs %s of RAM but only %s is "
					   "available (MemAvailable)", plan->disk_desc, sb.buf, why.buf);
			else
				r = setup_cannot(log, "disk '%s' needs %s but only %s is free under '%s'",
					   plan->disk_desc, sb.buf, why.buf, base);
		}
	}
	/* last: the RAM disks' size counts against MemAvailable too */
	if (!r)
		r = setup_eatmem_check(plan, plan->disk == RUN_DISK_BRD ? total : 0, log);
	if (!r && plan->governor) {
		const char *root = s->cpu_sysfs ? s->cpu_sysfs : RUN_SETUP_CPU_SYSFS;
		governor_files(root, &cr->gov_files, &cr->nr_gov);
		if (!cr->nr_gov)
			strbuf_addf(log, "setup: cpufreq_governor: skipped: no cpufreq "
				    "(no %s/cpu*/cpufreq/scaling_governor)\n", root);
		else
			r = check_governor(plan->governor, cr->gov_files, cr->nr_gov, log);
	}
	strbuf_release(&sb);
	strbuf_release(&why);
	return r;
}

/* ------------------------------------------------------------------ */
/* the journal */

/* Append "word rest\n" and write the journal file before the change. */
__attribute__((format(printf, 3, 4)))
int setup_journal(struct run_setup *s, const char *word, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(&s->journal, "%s ", word);
	va_start(ap, fmt);
	strbuf_vaddf(&s->journal, fmt, ap);
	va_end(ap);
	strbuf_addch(&s->journal, '\n');
	if (write_file_atomic(s->state_path, s->journal.buf, s->journal.len) < 0)
		return -1;
	if (s->on_step)
		s->on_step(word, s->on_step_data);
	return 0;
}

/* Pick "<base>/setup-<pid>-<n>" free as state file and dir; start the
 * journal. */
static void journal_start(struct run_setup *s, const char *base, struct strbuf *dir)
{
	struct strbuf state = STRBUF_INIT;
	long pid = (long)getpid();

	for (int n = 0;; n++) {
		strbuf_reset(dir);
		strbuf_addf(dir, "%s/setup-%ld-%d", base, pid, n);
		strbuf_reset(&state);
		strbuf_addf(&state, "%s.state", dir->buf);
		if (!file_exists(state.buf) && !file_exists(dir->buf))
			break;
	}
	s->state_path = strbuf_detach(&state, NULL);
	strbuf_reset(&s->journal);
	strbuf_addf(&s->journal, "perfbot-setup %d\nowner %ld %lld\n", JOURNAL_VERSION,
		    pid, setup_proc_start(getpid(), NULL));
}

/* ------------------------------------------------------------------ */
/* apply */

__attribute__((format(printf, 4, 5)))
static void add_env(struct run_setup *s, size_t *nr, size_t *alloc, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(s->env, *nr + 2, *alloc);
	s->env[(*nr)++] = strbuf_detach(&sb, NULL);
	s->env[*nr] = NULL;
}

static void build_env(struct run_setup *s)
{
	struct strbuf list = STRBUF_INIT;
	size_t nr = 0, alloc = 0;

	if (s->mnt) {
		add_env(s, &nr, &alloc, "PERFBOT_FS_DIR=%s", s->mnt);
		for (size_t i = 0; i < s->nr_devs; i++)
			strbuf_addf(&list, "%s%s", list.len ? " " : "", s->devs[i].mnt);
		add_env(s, &nr, &alloc, "mount_points=%s", list.len ? list.buf : s->mnt);
	}
	strbuf_reset(&list);
	size_t nr_parts = 0;
	for (size_t i = 0; i < s->nr_devs; i++) {
		if (!s->devs[i].dev)
			continue;
		strbuf_addf(&list, "%s%s", nr_parts++ ? " " : "", s->devs[i].dev);
	}
	if (nr_parts) {
		add_env(s, &nr, &alloc, "partitions=%s", list.buf);
		add_env(s, &nr, &alloc, "nr_partitions=%zu", nr_parts);
	}
	if (s->eaten)
		add_env(s, &nr, &alloc, "PERFBOT_EATMEM_PID=%ld", s->eater);
	strbuf_release(&list);
}

static struct run_setup_dev *new_dev(struct run_setup *s)
{
	ALLOC_GROW(s->devs, s->nr_devs + 1, s->alloc_devs);
	struct run_setup_dev *d = &s->devs[s->nr_devs++];
	memset(d, 0, sizeof(*d));
	return d;
}

/* Whether the directory of path is on a tmpfs. */
static bool on_tmpfs(const char *path)
{
	struct strbuf dir = STRBUF_INIT;
	struct statfs st;
	const char *slash = strrchr(path, '/');
	bool r;

	strbuf_add(&dir, path, slash && slash != path ? (size_t)(slash - path) : 1);
	r = statfs(dir.buf, &st) == 0 && st.f_type == TMPFS_MAGIC;
	strbuf_release(&dir);
	return r;
}

static int make_loop(struct run_setup *s, const char *image, unsigned long long bytes,
		     struct strbuf *log)
{
	/* direct I/O keeps the image's pages out of the page cache, where
	 * they would be cached twice; tmpfs (a guest's /tmp) has none */
	char *const argv[] = { "losetup", "--find", "--show",
			       on_tmpfs(image) ? "--direct-io=off" : "--direct-io=on",
			       (char *)image, NULL };
	struct strbuf out = STRBUF_INIT, size = STRBUF_INIT;
	struct run_setup_dev *d;
	int fd, r;

	if (setup_journal(s, "image", "%s", image) < 0)
		return -1;
	fd = open(image, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return error("cannot create '%s': %s", image, strerror(errno));
	/* sparse: blocks are allocated as the fs writes them */
	if (ftruncate(fd, (off_t)bytes) < 0) {
		int e = errno;
		close(fd);
		return error("cannot size '%s' to %llu bytes: %s", image, bytes, strerror(e));
	}
	close(fd);
	r = capture_command(argv, NULL, &out);
	strbuf_rtrim(&out);
	if (r != 0 || strncmp(out.buf, "/dev/", 5)) {
		error("losetup failed for '%s' (exit %d)", image, r);
		strbuf_release(&out);
		return -1;
	}
	d = new_dev(s);
	d->dev = strbuf_detach(&out, NULL);
	d->image = xstrdup(image);
	if (setup_journal(s, "loop", "%s %s", d->dev, image) < 0)
		return -1;
	setup_add_size(&size, bytes);
	strbuf_addf(log, "setup: disk %s on %s (%s, sparse, direct-io)\n", d->dev, image, size.buf);
	strbuf_release(&size);
	return 0;
}

/* A built-in brd's disk that something holds (a mount, another run):
 * the exclusive open a mount also takes fails with EBUSY. */
static int brd_disk_free(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd < 0)
		return error("cannot use the built-in RAM disk '%s': %s", dev,
			     errno == EBUSY ? "it is in use (mounted?)" : strerror(errno));
	close(fd);
	return 0;
}

/* brd's RAM disks: modprobe'd (journaled, so undo unloads it), or the
 * built-in ones as they are (nothing to undo: they live as long as the
 * kernel, and mkfs overwrites what a run before left on them). */
static int make_brd(struct run_setup *s, const struct run_setup_plan *plan, bool builtin,
		    struct strbuf *log)
{
	struct strbuf nr = STRBUF_INIT, kb = STRBUF_INIT, dev = STRBUF_INIT;
	int ret = -1, r;

	strbuf_addf(&nr, "rd_nr=%d", plan->nr_disks);
	strbuf_addf(&kb, "rd_size=%llu", plan->disk_bytes >> 10);
	char *const argv[] = { "modprobe", "brd", nr.buf, kb.buf, NULL };
	if (builtin) {
		strbuf_addf(log, "setup: brd built in: %d RAM disks (%s %s)\n", plan->nr_disks,
			    nr.buf, kb.buf);
	} else {
		if (setup_journal(s, "brd", "%d", plan->nr_disks) < 0)
			goto out;
		r = setup_run_tool(argv, log);
		if (r != 0) {
			error("modprobe brd %s %s failed (exit %d)", nr.buf, kb.buf, r);
			goto out;
		}
		strbuf_addf(log, "setup: modprobe brd %s %s\n", nr.buf, kb.buf);
	}
	for (int i = 0; i < plan->nr_disks; i++) {
		strbuf_reset(&dev);
		strbuf_addf(&dev, "/dev/ram%d", i);
		/* devtmpfs makes the node at once; udev may lag: wait 5 s
		 * (built-in disks were made at boot) */
		for (int t = 0; t < 50 && !builtin && access(dev.buf, F_OK) < 0; t++)
			usleep(100000);
		if (access(dev.buf, F_OK) < 0) {
			error("'%s' %s", dev.buf, builtin ? "is missing, though brd is built in"
			      : "did not appear after modprobe brd");
			goto out;
		}
		if (builtin && brd_disk_free(dev.buf) < 0)
			goto out;
		new_dev(s)->dev = xstrdup(dev.buf);
	}
	ret = 0;
out:
	strbuf_release(&nr);
	strbuf_release(&kb);
	strbuf_release(&dev);
	return ret;
}

static int make_fs(const struct run_fs_type *fs, const char *dev, struct strbuf *log)
{
	const char *argv[8];
	size_t n = 0;
	int r;

	argv[n++] = fs->mkfs;
	for (size_t i = 0; i < 3 && fs->mkfs_args[i]; i++)
		argv[n++] = fs->mkfs_args[i];
	argv[n++] = dev;
	argv[n] = NULL;
	strbuf_addstr(log, "setup: ");
	add_argv(log, (char *const *)argv);
	strbuf_addch(log, '\n');
	r = setup_run_tool((char *const *)argv, log);
	if (r != 0)
		return error("%s failed on '%s' (exit %d)", fs->mkfs, dev, r);
	return 0;
}

static int mount_one(struct run_setup *s, const struct run_fs_type *fs, const char *src,
		     const char *mnt, struct strbuf *log)
{
	if (setup_journal(s, "mountdir", "%s", mnt) < 0)
		return -1;
	if (mkdir(mnt, 0755) < 0)
		return error("cannot create directory '%s': %s", mnt, strerror(errno));
	if (setup_journal(s, "mount", "%s", mnt) < 0)
		return -1;
	if (mount(src, mnt, fs->fstype, 0, fs->mount_data) < 0)
		return error("cannot mount '%s' on '%s' as %s%s%s: %s", src, mnt, fs->fstype,
			     fs->mount_data ? " -o " : "", fs->mount_data ? fs->mount_data : "",
			     strerror(errno));
	strbuf_addf(log, "setup: mounted %s on %s (%s%s%s)\n", src, mnt, fs->fstype,
		    fs->mount_data ? ", " : "", fs->mount_data ? fs->mount_data : "");
	return 0;
}

static int set_governors(struct run_setup *s, const char *governor, char **files,
			 size_t nr, struct strbuf *log)
{
	struct strbuf old = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		strbuf_reset(&old);
		if (setup_read_small(files[i], &old) < 0) {
			ret = error("cannot read '%s': %s", files[i], strerror(errno));
			break;
		}
		if (!strcmp(old.buf, governor))
			continue;
		if (setup_journal(s, "governor", "%s %s", old.buf, files[i]) < 0) {
			ret = -1;
			break;
		}
		if (setup_write_small(files[i], governor) < 0)
			ret = error("cannot set '%s' to '%s': %s", files[i], governor,
				    strerror(errno));
	}
	if (!ret)
		strbuf_addf(log, "setup: cpufreq_governor %s on %zu CPUs\n", governor, nr);
	strbuf_release(&old);
	return ret;
}

static int apply_plan(struct run_setup *s, const struct run_setup_plan *plan,
		      const struct check_result *cr, const char *base, struct strbuf *log)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	int ret = -1;

	journal_start(s, base, &dir);
	if (plan->disk != RUN_DISK_NONE || plan->fs) {
		if (setup_journal(s, "dir", "%s", dir.buf) < 0)
			goto out;
		if (mkdir(dir.buf, 0755) < 0) {
			error("cannot create directory '%s': %s", dir.buf, strerror(errno));
			goto out;
		}
	}
	if (plan->default_disk)
		strbuf_addf(log, "setup: fs %s without disk: using %s\n", plan->fs_name,
			    RUN_SETUP_DEFAULT_DISK);
	if (plan->disk == RUN_DISK_LOOP || cr->brd_fallback) {
		for (int i = 0; i < plan->nr_disks; i++) {
			strbuf_reset(&path);
			if (cr->brd_fallback)
				strbuf_addf(&path, "%s/perfbot-%s-ram%d.img", RUN_SETUP_SHM_DIR,
					    strrchr(dir.buf, '/') + 1, i);
			else
				strbuf_addf(&path, "%s/disk%d.img", dir.buf, i);
			if (make_loop(s, path.buf, plan->disk_bytes, log) < 0)
				goto out;
		}
	} else if (plan->disk == RUN_DISK_BRD) {
		if (make_brd(s, plan, cr->brd_builtin, log) < 0)
			goto out;
	}
	if (plan->fs && plan->fs->no_disk) {
		struct run_setup_dev *d = new_dev(s);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/mnt0", dir.buf);
		d->mnt = xstrdup(path.buf);
		/* a tmpfs has no device (d->dev stays NULL) */
		if (mount_one(s, plan->fs, plan->fs->fstype, d->mnt, log) < 0)
			goto out;
	} else if (plan->fs) {
		for (size_t i = 0; i < s->nr_devs; i++) {
			struct run_setup_dev *d = &s->devs[i];
			if (make_fs(plan->fs, d->dev, log) < 0)
				goto out;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/mnt%zu", dir.buf, i);
			d->mnt = xstrdup(path.buf);
			if (mount_one(s, plan->fs, d->dev, d->mnt, log) < 0)
				goto out;
		}
	}
	if (plan->fs) {
		s->fs = plan->fs_name;
		s->mnt = s->devs[0].mnt;
	}
	if (cr->nr_gov && set_governors(s, plan->governor, cr->gov_files, cr->nr_gov, log) < 0)
		goto out;
	/* last, so that mkfs and mount do not run short of memory; undo
	 * (backwards) releases it first */
	unsigned long long ram = plan->disk == RUN_DISK_BRD ?
		plan->disk_bytes * (unsigned long long)plan->nr_disks : 0;
	if (setup_eatmem_start(s, plan, ram, log) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&path);
	return ret;
}

void run_setup_forget(struct run_setup *s)
{
	for (size_t i = 0; i < s->nr_devs; i++) {
		free(s->devs[i].dev);
		free(s->devs[i].image);
		free(s->devs[i].mnt);
	}
	free(s->devs);
	for (size_t i = 0; s->env && s->env[i]; i++)
		free(s->env[i]);
	free(s->env);
	free(s->state_path);
	strbuf_release(&s->journal);
	s->devs = NULL;
	s->nr_devs = s->alloc_devs = 0;
	s->env = NULL;
	s->state_path = NULL;
	s->fs = NULL;
	s->mnt = NULL;
	s->eater = 0;
	s->eaten = s->eat_avail = 0;
}

/* Does the plan ask for nothing at all (no fs, disk, governor or eater)? */
static bool plan_is_empty(const struct run_setup_plan *plan)
{
	return !plan->fs && plan->disk == RUN_DISK_NONE && !plan->governor &&
	       plan->eatmem.kind == RUN_EATMEM_NONE;
}

/* path, or its nearest ancestor that exists (for statvfs before mkdir). */
static char *nearest_existing(const char *path)
{
	char *p = xstrdup(path);
	struct stat st;

	while (*p && stat(p, &st) < 0) {
		char *slash = strrchr(p, '/');
		if (!slash) {
			*p = '\0';
			break;
		}
		if (slash == p) {
			p[1] = '\0';
			break;
		}
		*slash = '\0';
	}
	if (!*p) {
		free(p);
		p = xstrdup(".");
	}
	return p;
}

int run_setup_apply_plan(const struct run_setup_plan *plan, const char *work_base,
			 struct run_setup *s, struct strbuf *log)
{
	struct check_result cr = { 0 };
	char *base = NULL, *existing;
	int r;

	if (s->journal.len)
		return error("run_setup_apply_plan: already applied; call run_setup_undo first");
	run_setup_forget(s);
	if (plan_is_empty(plan))
		return 0;
	if (strchr(work_base, '\n'))
		return error("work dir '%s' contains a newline", work_base);
	/* check everything before changing anything, even work_base */
	existing = nearest_existing(work_base);
	r = check_plan(plan, existing, s, &cr, log);
	if (!r && (plan->fs || plan->disk != RUN_DISK_NONE || cr.nr_gov ||
		   plan->eatmem.kind != RUN_EATMEM_NONE)) {
		/* private (workdir.h); canonical, so that it matches the
		 * loop's sysfs backing_file */
		struct strbuf real = STRBUF_INIT;
		if (run_work_dir_make(work_base, &real) < 0) {
			r = -1;
		} else {
			base = strbuf_detach(&real, NULL);
			if (apply_plan(s, plan, &cr, base, log) < 0) {
				run_setup_undo(s, log);
				r = -1;
			} else {
				build_env(s);
			}
		}
		strbuf_release(&real);
	}
	setup_free_list(cr.gov_files, cr.nr_gov);
	free(base);
	free(existing);
	return r;
}

int run_setup_refuse(const char *why, struct strbuf *log)
{
	return setup_cannot(log, "%s", why);
}

int run_setup_check_plan(const struct run_setup_plan *plan, const char *work_base,
			 const char *cpu_sysfs, struct strbuf *log)
{
	struct run_setup s = RUN_SETUP_INIT;
	struct check_result cr = { 0 };
	char *existing;
	int r;

	if (plan_is_empty(plan))
		return 0;
	s.cpu_sysfs = cpu_sysfs;
	existing = nearest_existing(work_base);
	r = check_plan(plan, existing, &s, &cr, log);
	setup_free_list(cr.gov_files, cr.nr_gov);
	free(existing);
	return r;
}

int run_setup_undo(struct run_setup *s, struct strbuf *log)
{
	int ret = 0;

	if (s->journal.len) {
		ret = setup_replay_undo(s->journal.buf, log);
		if (ret == 0 && s->state_path && unlink(s->state_path) < 0 && errno != ENOENT)
			ret = error("cannot remove '%s': %s", s->state_path, strerror(errno));
		if (ret < 0)
			strbuf_addf(log, "undo: incomplete; journal kept in %s\n", s->state_path);
	}
	run_setup_forget(s);
	return ret;
}
