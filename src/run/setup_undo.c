/*
 * setup_undo.c: undoing a setup by replaying its journal backwards
 * (run_setup_undo for this process, run_setup_cleanup_stale for the
 * journals of dead ones); every step is idempotent.
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
#include <sys/statvfs.h>
#include <unistd.h>


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
	int r = setup_run_tool(argv, log);

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
		if (setup_read_small(path.buf, &back) < 0)
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
		if (setup_run_tool(argv, log) == 0) {
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
	if (setup_write_small(sp + 1, old) == 0)
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
	if (IS("eatmem"))
		return setup_eatmem_undo(rest, log);
#undef IS
	return error("unknown journal line '%s'", line);
}

/* Replay a journal's text backwards.  0, or -1 when a step failed (the
 * other steps are still tried: leave as little behind as possible). */
int setup_replay_undo(const char *text, struct strbuf *log)
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
/* stale journals */

static bool owner_alive(pid_t pid, long long start)
{
	char state = '?';
	long long now = setup_proc_start(pid, &state);

	/* a zombie has finished; a different start time is a reused pid */
	return now >= 0 && now == start && state != 'Z' && state != 'X';
}

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
	if (setup_replay_undo(text.buf, log) < 0) {
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
			if (writer > 0 && setup_proc_start((pid_t)writer, NULL) < 0)
				unlink(path.buf);
		}
	}
	setup_free_list(names, nr);
	strbuf_release(&path);
	free(work_base);
	return failed ? -1 : cleaned;
}
