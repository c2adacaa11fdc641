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
#include "run/workdir.h"
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
#include <sys/statvfs.h>
#include <unistd.h>

#define JOURNAL_VERSION 1
#define MAX_DISKS 64

/* ------------------------------------------------------------------ */
/* declared tables */

struct run_fs_type {
	const char *name;           /* the job's `fs:` value */
	const char *fstype;         /* for mount(2) and /proc/filesystems */
	const char *mkfs;           /* NULL: nothing to make (tmpfs) */
	const char *mkfs_args[3];   /* before the device; force, quiet */
	const char *package;        /* Debian package of mkfs */
	const char *mount_data;     /* mount(2) options, or NULL */
	bool no_disk;               /* mounted without a device */
	const char *unsupported;    /* lkp knows it, perfbot does not: why */
};

static const struct run_fs_type fs_types[] = {
	{ "ext2", "ext2", "mkfs.ext2", { "-q", "-F" }, "e2fsprogs", NULL, false, NULL },
	{ "ext3", "ext3", "mkfs.ext3", { "-q", "-F" }, "e2fsprogs", NULL, false, NULL },
	{ "ext4", "ext4", "mkfs.ext4", { "-q", "-F" }, "e2fsprogs", NULL, false, NULL },
	/* lkp mounts xfs with inode64 (the default of newer kernels) */
	{ "xfs", "xfs", "mkfs.xfs", { "-f", "-q" }, "xfsprogs", "inode64", false, NULL },
	{ "btrfs", "btrfs", "mkfs.btrfs", { "-f", "-q" }, "btrfs-progs", NULL, false, NULL },
	{ "f2fs", "f2fs", "mkfs.f2fs", { "-f", "-q" }, "f2fs-tools", NULL, false, NULL },
	{ "tmpfs", "tmpfs", NULL, { NULL }, NULL, NULL, true, NULL },
	{ "nfsv3", .unsupported = "an NFS export of a local fs (lkp's nfsd setup)" },
	{ "nfsv4", .unsupported = "an NFS export of a local fs (lkp's nfsd setup)" },
	{ "cifs", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv2", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv2p1", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv3", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv3p02", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv3p11", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "udf", .unsupported = "udf, which perfbot does not set up" },
	{ "ocfs2", .unsupported = "a cluster fs (lkp's o2cb setup)" },
};

/* lkp's disk forms that name a host's real devices (hosts/<tbox_group>). */
static const char *const host_disk_kinds[] = { "HDD", "SSD", "PMEM", "SRD", NULL };

struct tool {
	const char *name;
	const char *package;
};
static const struct tool tool_losetup = { "losetup", "mount" };
static const struct tool tool_modprobe = { "modprobe", "kmod" };

/* ------------------------------------------------------------------ */
/* small helpers */

/* "1 GiB", "512 MiB", "1000 bytes": sizes in messages. */
static void add_size(struct strbuf *sb, unsigned long long b)
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
 * return 1 so that the caller can `return cannot(...)`.
 */
__attribute__((format(printf, 2, 3)))
static int cannot(struct strbuf *log, const char *fmt, ...)
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
	return cannot(log, "'%s' not found in PATH: install the Debian package %s",
		      t->name, t->package);
}

/* Read a small file (sysfs, /proc) into sb, trailing whitespace cut. */
static int read_small(const char *path, struct strbuf *sb)
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

static int write_small(const char *path, const char *text)
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
static int run_tool(char *const *argv, struct strbuf *log)
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
static unsigned long long meminfo_bytes(const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long kb = 0;
	size_t klen = strlen(key);

	if (read_small("/proc/meminfo", &sb) == 0) {
		for (const char *p = sb.buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
			if (!strncmp(p, key, klen) && p[klen] == ':') {
				kb = strtoull(p + klen + 1, NULL, 10);
				break;
			}
		}
	}
	strbuf_release(&sb);
	return kb * 1024;
}

/* Start time of pid in clock ticks since boot (/proc/<pid>/stat field
 * 22), with its state letter; -1 when the process does not exist. */
static long long proc_start(pid_t pid, char *state)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	long long start = -1;

	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	if (read_small(path.buf, &sb) == 0) {
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

static bool owner_alive(pid_t pid, long long start)
{
	char state = '?';
	long long now = proc_start(pid, &state);

	/* a zombie has finished; a different start time is a reused pid */
	return now >= 0 && now == start && state != 'Z' && state != 'X';
}

/* ------------------------------------------------------------------ */
/* sizes and the plan */

int run_setup_parse_size(const char *text, unsigned long long *bytes)
{
	static const char units[] = "KMGTP";
	unsigned long long n = 0;
	const char *p = text;
	int shift = 0;

	if (!text || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > (ULLONG_MAX - 9) / 10)
			return -1;
		n = n * 10 + (unsigned long long)(*p - '0');
	}
	if (*p) {
		const char *u = strchr(units, toupper((unsigned char)*p));
		if (u) {
			shift = 10 * (int)(u - units + 1);
			p++;
		}
		if (*p == 'B' || *p == 'b')
			p++;
	}
	if (*p || n == 0)
		return -1;
	if (shift && n > (1ULL << 63) >> shift)
		return -1;
	n <<= shift;
	if (n > 1ULL << 63)
		return -1;
	*bytes = n;
	return 0;
}

const char *run_setup_fs_package(const struct run_fs_type *fs)
{
	return fs ? fs->package : NULL;
}

static int bad_value(const struct job_value *v, const char *key, const char *expected)
{
	struct strbuf where = STRBUF_INIT;
	const char *text = job_value_shown(v);

	job_source_line(v, &where);
	if (text)
		error("%s: '%s' expected %s, got '%s'", where.buf, key, expected, text);
	else
		error("%s: '%s' expected %s", where.buf, key, expected);
	strbuf_release(&where);
	return -1;
}

/* A scalar value of a top-level key, NULL when absent or null; -1 (via
 * *err) for lists and mappings. */
static const struct job_value *scalar_key(const struct job *job, const char *key, int *err)
{
	const struct job_value *v = job_lookup(job, key);

	if (!v || v->kind == JOB_NULL)
		return NULL;
	if (v->kind == JOB_SEQ) {
		*err = bad_value(v, key, "one value (split the job into atomic jobs first)");
		return NULL;
	}
	if (v->kind == JOB_MAP) {
		*err = bad_value(v, key, "a scalar");
		return NULL;
	}
	return v;
}

static int plan_fs(const struct job *job, struct run_setup_plan *plan, struct strbuf *why)
{
	int err = 0;
	const struct job_value *v = scalar_key(job, "fs", &err);
	struct strbuf names = STRBUF_INIT;
	const char *name;

	if (!v)
		return err;
	name = v->text;
	for (size_t i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++) {
		const struct run_fs_type *t = &fs_types[i];
		if (strcmp(t->name, name))
			continue;
		if (t->unsupported) {
			strbuf_addf(why, "fs '%s' is %s: perfbot does not set that up", name,
				    t->unsupported);
			return 1;
		}
		plan->fs = t;
		plan->fs_name = t->name;
		return 0;
	}
	strbuf_addstr(&names, "one of");
	for (size_t i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++)
		if (!fs_types[i].unsupported)
			strbuf_addf(&names, " %s", fs_types[i].name);
	bad_value(v, "fs", names.buf);
	strbuf_release(&names);
	return -1;
}

/* "<digits>" at the start of s: its value in *n and the rest, or NULL. */
static const char *leading_count(const char *s, int *n)
{
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > MAX_DISKS)
			return NULL;
	}
	*n = (int)v;
	return s;
}

#define DISK_EXPECTED "loop_<size> or <N>BRD_<size> (sizes as 512M, 1G)"

static int plan_disk(const struct job *job, struct run_setup_plan *plan, struct strbuf *why)
{
	int err = 0, n = 0;
	const struct job_value *v = scalar_key(job, "disk", &err);
	const char *text, *rest;

	if (!v)
		return err;
	text = v->text;
	plan->disk_val = v;
	snprintf(plan->disk_desc, sizeof(plan->disk_desc), "%s", text);
	if (!strncmp(text, "loop_", 5)) {
		if (run_setup_parse_size(text + 5, &plan->disk_bytes) < 0)
			return bad_value(v, "disk", DISK_EXPECTED);
		plan->disk = RUN_DISK_LOOP;
		plan->nr_disks = 1;
		return 0;
	}
	rest = leading_count(text, &n);
	if (rest && n > 0 && !strncmp(rest, "BRD", 3)) {
		const char *size = rest[3] == '_' ? rest + 4 : rest[3] ? NULL : "1G";
		if (!size || run_setup_parse_size(size, &plan->disk_bytes) < 0)
			return bad_value(v, "disk", DISK_EXPECTED);
		plan->disk = RUN_DISK_BRD;
		plan->nr_disks = n;
		return 0;
	}
	for (size_t i = 0; rest && host_disk_kinds[i]; i++) {
		size_t k = strlen(host_disk_kinds[i]);
		if (!strncmp(rest, host_disk_kinds[i], k) && (!rest[k] || rest[k] == '_')) {
			strbuf_addf(why, "disk '%s' names the host's own %s disks, which "
				    "perfbot does not manage (use disk: loop_<size>)", text,
				    host_disk_kinds[i]);
			return 1;
		}
	}
	return bad_value(v, "disk", DISK_EXPECTED);
}

static int plan_governor(const struct job *job, struct run_setup_plan *plan)
{
	int err = 0;
	const struct job_value *v = scalar_key(job, "cpufreq_governor", &err);

	if (!v)
		return err;
	for (const char *p = v->text; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return bad_value(v, "cpufreq_governor", "a governor name as performance");
	if (!*v->text)
		return bad_value(v, "cpufreq_governor", "a governor name as performance");
	plan->governor = v->text;
	return 0;
}

int run_setup_plan(const struct job *job, struct run_setup_plan *plan, struct strbuf *why)
{
	int r;

	memset(plan, 0, sizeof(*plan));
	/* errors first, so a bad key is reported even when another key
	 * could not work here */
	int rf = plan_fs(job, plan, why);
	int rd = plan_disk(job, plan, why);
	int rg = plan_governor(job, plan);
	if (rf < 0 || rd < 0 || rg < 0)
		return -1;
	r = rf ? rf : rd;
	if (r)
		return r;
	/* lkp's second layer (NFS or CIFS over the fs): not done, so refuse
	 * rather than measure something else than the job says */
	const char *fs2 = job_get(job, "fs2");
	if (fs2 && *fs2) {
		strbuf_addf(why, "fs2 '%s' (lkp's export of the fs over NFS/CIFS) is not "
			    "set up by perfbot", fs2);
		return 1;
	}
	if (plan->fs && plan->fs->no_disk) {
		plan->disk = RUN_DISK_NONE;
		plan->nr_disks = 0;
	} else if (plan->fs && plan->disk == RUN_DISK_NONE) {
		run_setup_parse_size(RUN_SETUP_DEFAULT_DISK + 5, &plan->disk_bytes);
		plan->disk = RUN_DISK_LOOP;
		plan->nr_disks = 1;
		plan->default_disk = true;
		snprintf(plan->disk_desc, sizeof(plan->disk_desc), "%s", RUN_SETUP_DEFAULT_DISK);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* checks before any change */

static bool kernel_has_fs(const char *fstype)
{
	struct strbuf sb = STRBUF_INIT;
	bool found = false;

	if (read_small("/proc/filesystems", &sb) == 0) {
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
		if (read_small(path.buf, &val) == 0 && !strcmp(val.buf, "0"))
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

static void free_list(char **list, size_t nr)
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
		if (read_small(path.buf, &avail) == 0 && !has_word(avail.buf, governor))
			ret = cannot(log, "cpufreq governor '%s' is not available here "
				     "(%s has: %s)", governor, path.buf, avail.buf);
		else if (access(files[i], W_OK) < 0)
			ret = cannot(log, "cannot write '%s' for cpufreq_governor: %s%s",
				     files[i], strerror(errno),
				     geteuid() ? " (needs root)" : "");
	}
	strbuf_release(&avail);
	strbuf_release(&path);
	return ret;
}

/* Is brd loadable?  0 yes; 1 with the reason in why. */
static int brd_loadable(struct strbuf *why, struct strbuf *log)
{
	char *const dry[] = { "modprobe", "-n", "-q", "brd", NULL };

	if (access("/sys/module/brd", F_OK) == 0) {
		strbuf_addstr(why, "brd is already loaded or built in, so its RAM disks "
			      "may be in use and cannot be resized (modprobe -r brd first)");
		return 1;
	}
	if (run_tool(dry, log) != 0) {
		struct strbuf rel = STRBUF_INIT;
		read_small("/proc/sys/kernel/osrelease", &rel);
		strbuf_addf(why, "this kernel (%s) has no brd module (CONFIG_BLK_DEV_RAM), "
			    "so it cannot make RAM disks", rel.len ? rel.buf : "?");
		strbuf_release(&rel);
		return 1;
	}
	return 0;
}

struct check_result {
	bool brd_fallback;          /* make loop images in RUN_SETUP_SHM_DIR instead */
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
			r = cannot(log, "setting up fs '%s' needs root", plan->fs_name);
		else
			r = cannot(log, "setting up disk '%s'%s%s needs root", plan->disk_desc,
				   plan->fs ? " with fs " : "", plan->fs ? plan->fs_name : "");
	}
	if (!r && plan->fs && !kernel_has_fs(plan->fs->fstype)) {
		char *const probe[] = { "modprobe", "-q", (char *)plan->fs->fstype, NULL };
		if (in_path("modprobe"))
			run_tool(probe, log);
		if (!kernel_has_fs(plan->fs->fstype))
			r = cannot(log, "this kernel does not support fs '%s' (not in "
				   "/proc/filesystems, and modprobe %s failed)",
				   plan->fs_name, plan->fs->fstype);
	}
	if (!r && plan->disk == RUN_DISK_BRD && brd_loadable(&why, log)) {
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
			r = cannot(log, "%s%sdisk '%s': %s; use disk: loop_%s instead",
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
			avail = meminfo_bytes("MemAvailable");
		else if (statvfs(base, &vfs) == 0)
			avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
		else
			r = error("cannot stat the file system of '%s': %s", base, strerror(errno));
		if (!r && total > avail) {
			add_size(&sb, total);
			add_size(&why, avail);
			if (ram)
				r = cannot(log, "disk '%s' needs %s of RAM but only %s is "
					   "available (MemAvailable)", plan->disk_desc, sb.buf, why.buf);
			else
				r = cannot(log, "disk '%s' needs %s but only %s is free under '%s'",
					   plan->disk_desc, sb.buf, why.buf, base);
		}
	}
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
static int journal(struct run_setup *s, const char *word, const char *fmt, ...)
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
		    pid, proc_start(getpid(), NULL));
}

/* ------------------------------------------------------------------ */
/* undo steps: each idempotent */

/* Strip a sysfs backing_file's " (deleted)" suffix (image already gone). */
static void backing_path(struct strbuf *sb)
{
	static const char deleted[] = " (deleted)";
	size_t n = sizeof(deleted) - 1;

	if (sb->len >= n && !strcmp(sb->buf + sb->len - n, deleted))
		strbuf_setlen(sb, sb->len - n);
}

static int detach_loop(const char *dev, struct strbuf *log)
{
	char *const argv[] = { "losetup", "-d", (char *)dev, NULL };
	int r = run_tool(argv, log);

	if (r != 0)
		return error("cannot detach loop device '%s' (losetup exit %d)", dev, r);
	strbuf_addf(log, "undo: detached %s\n", dev);
	return 0;
}

/*
 * Detach the loop devices backed by image; only dev when dev is set.
 * The scan also finds a device attached by a perfbot killed before it
 * could journal the device's name.
 */
static int detach_loops_of(const char *image, const char *dev, struct strbuf *log)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	struct strbuf path = STRBUF_INIT, back = STRBUF_INIT, name = STRBUF_INIT;
	int ret = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4))
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "/dev/%s", de->d_name);
		if (dev && strcmp(dev, name.buf))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "/sys/block/%s/loop/backing_file", de->d_name);
		strbuf_reset(&back);
		if (read_small(path.buf, &back) < 0)
			continue;       /* not attached */
		backing_path(&back);
		if (strcmp(back.buf, image))
			continue;
		if (detach_loop(name.buf, log) < 0)
			ret = -1;
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&back);
	strbuf_release(&name);
	return ret;
}

static int undo_mount(const char *path, struct strbuf *log)
{
	/* 10 x 200 ms: a benchmark's last writer may still be closing */
	for (int i = 0; i < 10; i++) {
		if (umount2(path, UMOUNT_NOFOLLOW) == 0) {
			strbuf_addf(log, "undo: unmounted %s\n", path);
			return 0;
		}
		if (errno == EINVAL || errno == ENOENT)
			return 0;       /* not (or no longer) mounted */
		if (errno != EBUSY)
			return error("cannot unmount '%s': %s", path, strerror(errno));
		sync();
		usleep(200000);
	}
	if (umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) == 0) {
		warning("'%s' was still busy after 2 s: unmounted lazily", path);
		strbuf_addf(log, "undo: unmounted %s lazily (busy)\n", path);
		return 0;
	}
	if (errno == EINVAL || errno == ENOENT)
		return 0;
	return error("cannot unmount '%s': %s", path, strerror(errno));
}

static int undo_brd(struct strbuf *log)
{
	char *const argv[] = { "modprobe", "-r", "brd", NULL };

	for (int i = 0; i < 10 && access("/sys/module/brd", F_OK) == 0; i++) {
		if (run_tool(argv, log) == 0) {
			strbuf_addstr(log, "undo: unloaded brd\n");
			return 0;
		}
		usleep(200000);
	}
	if (access("/sys/module/brd", F_OK) == 0)
		return error("cannot unload brd (modprobe -r brd failed)");
	return 0;
}

static int undo_rmdir(const char *path, struct strbuf *log)
{
	if (rmdir(path) == 0) {
		strbuf_addf(log, "undo: removed %s\n", path);
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return error("cannot remove directory '%s': %s", path, strerror(errno));
}

static int undo_image(const char *path, struct strbuf *log)
{
	int ret = detach_loops_of(path, NULL, log);

	if (unlink(path) == 0)
		strbuf_addf(log, "undo: removed %s\n", path);
	else if (errno != ENOENT)
		ret = error("cannot remove '%s': %s", path, strerror(errno));
	return ret;
}

static int undo_governor(const char *rest, struct strbuf *log)
{
	const char *sp = strchr(rest, ' ');
	char *old;
	int ret = 0;

	if (!sp)
		return error("bad journal line 'governor %s'", rest);
	old = xstrndup(rest, (size_t)(sp - rest));
	if (write_small(sp + 1, old) == 0)
		strbuf_addf(log, "undo: %s = %s\n", sp + 1, old);
	else if (errno != ENOENT)
		ret = error("cannot restore '%s' to '%s': %s", sp + 1, old, strerror(errno));
	free(old);
	return ret;
}

/* Undo one journal line; the header and owner lines need nothing. */
static int undo_line(const char *line, struct strbuf *log)
{
	const char *sp = strchr(line, ' ');
	size_t wlen = sp ? (size_t)(sp - line) : strlen(line);
	const char *rest = sp ? sp + 1 : "";

#define IS(w) (wlen == strlen(w) && !strncmp(line, w, wlen))
	if (IS("perfbot-setup") || IS("owner"))
		return 0;
	if (IS("governor"))
		return undo_governor(rest, log);
	if (IS("mount"))
		return undo_mount(rest, log);
	if (IS("mountdir") || IS("dir"))
		return undo_rmdir(rest, log);
	if (IS("loop")) {
		const char *sp2 = strchr(rest, ' ');
		if (!sp2)
			return error("bad journal line '%s'", line);
		char *dev = xstrndup(rest, (size_t)(sp2 - rest));
		int r = detach_loops_of(sp2 + 1, dev, log);
		free(dev);
		return r;
	}
	if (IS("image"))
		return undo_image(rest, log);
	if (IS("brd"))
		return undo_brd(log);
#undef IS
	return error("unknown journal line '%s'", line);
}

/* Replay a journal's text backwards.  0, or -1 when a step failed (the
 * other steps are still tried: leave as little behind as possible). */
static int replay_undo(const char *text, struct strbuf *log)
{
	char *copy = xstrdup(text);
	char **lines = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	for (char *p = copy; *p; ) {
		char *eol = strchr(p, '\n');
		if (!eol)
			break;          /* a torn last line: never acted upon */
		*eol = '\0';
		ALLOC_GROW(lines, nr + 1, alloc);
		lines[nr++] = p;
		p = eol + 1;
	}
	while (nr--)
		if (*lines[nr] && undo_line(lines[nr], log) < 0)
			ret = -1;
	free(lines);
	free(copy);
	return ret;
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
	strbuf_release(&list);
}

static struct run_setup_dev *new_dev(struct run_setup *s)
{
	ALLOC_GROW(s->devs, s->nr_devs + 1, s->alloc_devs);
	struct run_setup_dev *d = &s->devs[s->nr_devs++];
	memset(d, 0, sizeof(*d));
	return d;
}

static int make_loop(struct run_setup *s, const char *image, unsigned long long bytes,
		     struct strbuf *log)
{
	char *const argv[] = { "losetup", "--find", "--show", "--direct-io=on",
			       (char *)image, NULL };
	struct strbuf out = STRBUF_INIT, size = STRBUF_INIT;
	struct run_setup_dev *d;
	int fd, r;

	if (journal(s, "image", "%s", image) < 0)
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
	if (journal(s, "loop", "%s %s", d->dev, image) < 0)
		return -1;
	add_size(&size, bytes);
	strbuf_addf(log, "setup: disk %s on %s (%s, sparse, direct-io)\n", d->dev, image, size.buf);
	strbuf_release(&size);
	return 0;
}

static int make_brd(struct run_setup *s, const struct run_setup_plan *plan, struct strbuf *log)
{
	struct strbuf nr = STRBUF_INIT, kb = STRBUF_INIT, dev = STRBUF_INIT;
	int ret = -1, r;

	strbuf_addf(&nr, "rd_nr=%d", plan->nr_disks);
	strbuf_addf(&kb, "rd_size=%llu", plan->disk_bytes >> 10);
	char *const argv[] = { "modprobe", "brd", nr.buf, kb.buf, NULL };
	if (journal(s, "brd", "%d", plan->nr_disks) < 0)
		goto out;
	r = run_tool(argv, log);
	if (r != 0) {
		error("modprobe brd %s %s failed (exit %d)", nr.buf, kb.buf, r);
		goto out;
	}
	strbuf_addf(log, "setup: modprobe brd %s %s\n", nr.buf, kb.buf);
	for (int i = 0; i < plan->nr_disks; i++) {
		strbuf_reset(&dev);
		strbuf_addf(&dev, "/dev/ram%d", i);
		/* devtmpfs makes the node at once; udev may lag: wait 5 s */
		for (int t = 0; t < 50 && access(dev.buf, F_OK) < 0; t++)
			usleep(100000);
		if (access(dev.buf, F_OK) < 0) {
			error("'%s' did not appear after modprobe brd", dev.buf);
			goto out;
		}
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
	r = run_tool((char *const *)argv, log);
	if (r != 0)
		return error("%s failed on '%s' (exit %d)", fs->mkfs, dev, r);
	return 0;
}

static int mount_one(struct run_setup *s, const struct run_fs_type *fs, const char *src,
		     const char *mnt, struct strbuf *log)
{
	if (journal(s, "mountdir", "%s", mnt) < 0)
		return -1;
	if (mkdir(mnt, 0755) < 0)
		return error("cannot create directory '%s': %s", mnt, strerror(errno));
	if (journal(s, "mount", "%s", mnt) < 0)
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
		if (read_small(files[i], &old) < 0) {
			ret = error("cannot read '%s': %s", files[i], strerror(errno));
			break;
		}
		if (!strcmp(old.buf, governor))
			continue;
		if (journal(s, "governor", "%s %s", old.buf, files[i]) < 0) {
			ret = -1;
			break;
		}
		if (write_small(files[i], governor) < 0)
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
		if (journal(s, "dir", "%s", dir.buf) < 0)
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
		if (make_brd(s, plan, log) < 0)
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
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&path);
	return ret;
}

static void release_outputs(struct run_setup *s)
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

int run_setup_apply(const struct job *job, const char *work_base, struct run_setup *s,
		    struct strbuf *log)
{
	struct run_setup_plan plan;
	struct check_result cr = { 0 };
	struct strbuf why = STRBUF_INIT;
	char *base = NULL, *existing;
	int r;

	if (s->journal.len)
		return error("run_setup_apply: already applied; call run_setup_undo first");
	release_outputs(s);
	r = run_setup_plan(job, &plan, &why);
	if (r > 0)
		r = cannot(log, "%s", why.buf);
	strbuf_release(&why);
	if (r)
		return r;
	if (!plan.fs && plan.disk == RUN_DISK_NONE && !plan.governor)
		return 0;
	if (strchr(work_base, '\n'))
		return error("work dir '%s' contains a newline", work_base);
	/* check everything before changing anything, even work_base */
	existing = nearest_existing(work_base);
	r = check_plan(&plan, existing, s, &cr, log);
	if (!r && (plan.fs || plan.disk != RUN_DISK_NONE || cr.nr_gov)) {
		/* private (workdir.h); canonical, so that it matches the
		 * loop's sysfs backing_file */
		struct strbuf real = STRBUF_INIT;
		if (run_work_dir_make(work_base, &real) < 0) {
			r = -1;
		} else {
			base = strbuf_detach(&real, NULL);
			if (apply_plan(s, &plan, &cr, base, log) < 0) {
				run_setup_undo(s, log);
				r = -1;
			} else {
				build_env(s);
			}
		}
		strbuf_release(&real);
	}
	free_list(cr.gov_files, cr.nr_gov);
	free(base);
	free(existing);
	return r;
}

int run_setup_check(const struct job *job, const char *work_base, const char *cpu_sysfs,
		    struct strbuf *log)
{
	struct run_setup_plan plan;
	struct run_setup s = RUN_SETUP_INIT;
	struct check_result cr = { 0 };
	struct strbuf why = STRBUF_INIT;
	char *existing;
	int r = run_setup_plan(job, &plan, &why);

	if (r > 0)
		r = cannot(log, "%s", why.buf);
	strbuf_release(&why);
	if (r || (!plan.fs && plan.disk == RUN_DISK_NONE && !plan.governor))
		return r;
	s.cpu_sysfs = cpu_sysfs;
	existing = nearest_existing(work_base);
	r = check_plan(&plan, existing, &s, &cr, log);
	free_list(cr.gov_files, cr.nr_gov);
	free(existing);
	return r;
}

int run_setup_undo(struct run_setup *s, struct strbuf *log)
{
	int ret = 0;

	if (s->journal.len) {
		ret = replay_undo(s->journal.buf, log);
		if (ret == 0 && s->state_path && unlink(s->state_path) < 0 && errno != ENOENT)
			ret = error("cannot remove '%s': %s", s->state_path, strerror(errno));
		if (ret < 0)
			strbuf_addf(log, "undo: incomplete; journal kept in %s\n", s->state_path);
	}
	release_outputs(s);
	return ret;
}

/* ------------------------------------------------------------------ */
/* stale journals */

/* "setup-<pid>-..." : the pid, or -1. */
static long name_pid(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "setup-", 6) || !isdigit((unsigned char)name[6]))
		return -1;
	pid = strtol(name + 6, &end, 10);
	return *end == '-' ? pid : -1;
}

/* Replay one stale journal; 1 cleaned, 0 left alone, -1 failed or
 * refused (workdir.h: only our own files, naming only what we make). */
static int cleanup_one(const char *path, const char *cpu_sysfs, struct strbuf *log)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	long pid = 0;
	long long start = 0;
	int version = 0, ret = 0;
	int fd = run_work_dir_open_journal(path);

	if (fd < 0)
		return -1;
	/* a journal is a few lines; 1 MiB is far more than any */
	ret = read_fd_max(&text, fd, path, 1 << 20);
	close(fd);
	if (ret < 0)
		goto out;
	if (sscanf(text.buf, "perfbot-setup %d\nowner %ld %lld", &version, &pid, &start) != 3) {
		ret = error("%s: not a perfbot setup journal", path);
		goto out;
	}
	if (version != JOURNAL_VERSION) {
		ret = error("%s: journal version %d, this perfbot reads %d", path, version,
			    JOURNAL_VERSION);
		goto out;
	}
	if (owner_alive((pid_t)pid, start)) {
		strbuf_addf(log, "setup: %s: owner %ld still runs, left alone\n", path, pid);
		goto out;
	}
	if (run_journal_check(text.buf, path, cpu_sysfs, &why) < 0) {
		ret = error("%s: %s: refusing to replay it", path, why.buf);
		goto out;
	}
	strbuf_addf(log, "setup: cleaning up after pid %ld (%s)\n", pid, path);
	if (replay_undo(text.buf, log) < 0) {
		ret = error("could not undo all of '%s'; it is kept for a later try", path);
		goto out;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		ret = error("cannot remove '%s': %s", path, strerror(errno));
		goto out;
	}
	strbuf_addf(log, "setup: cleaned %s\n", path);
	ret = 1;
out:
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

int run_setup_cleanup_stale(const char *work_dir, const char *cpu_sysfs, struct strbuf *log)
{
	DIR *d;
	struct dirent *de;
	struct strbuf path = STRBUF_INIT;
	int cleaned = 0, failed = 0;
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	int r = run_work_dir_check(work_dir);

	if (r)
		return r > 0 ? 0 : -1;
	/* canonical, as apply recorded the setup dirs */
	char *work_base = realpath(work_dir, NULL);
	if (!work_base)
		return error("cannot resolve '%s': %s", work_dir, strerror(errno));
	d = opendir(work_base);
	if (!d) {
		r = error("cannot open '%s': %s", work_base, strerror(errno));
		free(work_base);
		return r;
	}
	/* collect first: cleaning removes entries while we read */
	while ((de = readdir(d))) {
		if (name_pid(de->d_name) < 0)
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&path);
		path_join(&path, work_base, names[i]);
		if (ends_with(names[i], ".state")) {
			r = cleanup_one(path.buf, cpu_sysfs, log);
			if (r < 0)
				failed = 1;
			else
				cleaned += r;
		} else if (strstr(names[i], ".state.tmp.")) {
			/* write_file_atomic's temporary, left by a kill -9 */
			long writer = strtol(strrchr(names[i], '.') + 1, NULL, 10);
			if (writer > 0 && proc_start((pid_t)writer, NULL) < 0)
				unlink(path.buf);
		}
	}
	free_list(names, nr);
	strbuf_release(&path);
	free(work_base);
	return failed ? -1 : cleaned;
}
