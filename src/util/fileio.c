/* fileio.c: reading (plain or gzip) and atomic writing of whole files. */
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* "1 GiB", "16 MiB", "100 bytes" for the limits in messages. */
static void add_limit(struct strbuf *sb, size_t n)
{
	if (n >= (1u << 30) && n % (1u << 30) == 0)
		strbuf_addf(sb, "%zu GiB", n >> 30);
	else if (n >= (1u << 20) && n % (1u << 20) == 0)
		strbuf_addf(sb, "%zu MiB", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		strbuf_addf(sb, "%zu KiB", n >> 10);
	else
		strbuf_addf(sb, "%zu bytes", n);
}

struct limiter {
	const char *what;
	size_t max_bytes, max_line;
	size_t line_len;        /* bytes since the last newline */
	size_t lineno;          /* 1-based line of line_len */
	size_t checked;         /* bytes of sb already looked at */
	struct strbuf *err;     /* the message goes here, not to stderr
	                         * (file_text_open_quiet), or NULL */
	bool regular;           /* refuse what is not a regular file */
};

/* error(), or the message into l->err: -1 either way. */
__attribute__((format(printf, 2, 3)))
static int lim_error(const struct limiter *l, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (l->err) {
		strbuf_reset(l->err);
		strbuf_addstr(l->err, msg);
		return -1;
	}
	return error("%s", msg);
}

/* "'<what>' is larger than <max> ...": -1. */
static int too_large(const struct limiter *l)
{
	struct strbuf n = STRBUF_INIT;

	add_limit(&n, l->max_bytes);
	lim_error(l, "'%s' is larger than %s (perfbot reads at most that much of it)",
		  l->what, n.buf);
	strbuf_release(&n);
	return -1;
}

/* Check the bytes appended to sb since the last call. */
static int limit_check(struct limiter *l, const struct strbuf *sb, size_t start)
{
	struct strbuf n = STRBUF_INIT;

	if (sb->len - start > l->max_bytes)
		return too_large(l);
	if (!l->max_line) {
		l->checked = sb->len;
		return 0;
	}
	for (const char *p = sb->buf + l->checked, *end = sb->buf + sb->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t k = (size_t)((nl ? nl : end) - p);
		l->line_len += k;
		if (l->line_len > l->max_line) {
			add_limit(&n, l->max_line);
			lim_error(l, "%s:%zu: a line longer than %s (perfbot reads lines of at "
				  "most that length)", l->what, l->lineno, n.buf);
			strbuf_release(&n);
			return -1;
		}
		if (!nl)
			break;
		l->line_len = 0;
		l->lineno++;
		p = nl + 1;
	}
	l->checked = sb->len;
	return 0;
}

/* With l->regular: -1 and the message when fd is not a regular file
 * (/dev/zero, a FIFO: endless, or blocking, behind a stats.json link). */
static int check_regular(const struct limiter *l, int fd)
{
	struct stat st;

	if (!l->regular)
		return 0;
	if (fstat(fd, &st) < 0 || (st.st_mode & S_IFMT) != S_IFREG)
		return lim_error(l, "cannot read '%s': not a regular file (perfbot reads only "
				 "regular ones)", l->what);
	/* too large already: say so before reading a byte of it (a plain
	 * file; a .gz one is bounded as it is gunzipped) */
	if ((uintmax_t)st.st_size > l->max_bytes && !ends_with(l->what, ".gz"))
		return too_large(l);
	return 0;
}

/* Gunzip fd, named l->what, into sb; fd is closed. */
static int read_gz_fd(struct strbuf *sb, int fd, struct limiter *l)
{
	const char *path = l->what;
	gzFile gz;
	size_t start = sb->len;
	int n;

	if (check_regular(l, fd) < 0) {
		close(fd);
		return -1;
	}
	gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		return lim_error(l, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
	}
	do {
		strbuf_grow(sb, 65536);
		n = gzread(gz, sb->buf + sb->len, 65536);
		if (n < 0) {
			int zerr;
			const char *msg = gzerror(gz, &zerr);
			lim_error(l, "cannot read '%s': %s", path, msg);
			gzclose(gz);
			return -1;
		}
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		/* also bounds what a small .gz expands to (a gzip bomb) */
		if (limit_check(l, sb, start) < 0) {
			gzclose(gz);
			return -1;
		}
	} while (n > 0);
	gzclose(gz);
	return 0;
}

static int read_fd_lim(struct strbuf *sb, int fd, struct limiter *l)
{
	size_t start = sb->len;
	struct stat st = { 0 };

	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		return lim_error(l, "cannot read '%s': Is a directory", l->what);
	if (check_regular(l, fd) < 0)
		return -1;
	if (st.st_size > 0 && (size_t)st.st_size <= l->max_bytes)
		strbuf_grow(sb, (size_t)st.st_size);
	l->checked = sb->len;
	for (;;) {
		strbuf_grow(sb, 8192);
		size_t room = sb->alloc - sb->len - 1;
		/* one byte past a limit is enough to know it is exceeded */
		if (room > l->max_bytes - (sb->len - start) + 1)
			room = l->max_bytes - (sb->len - start) + 1;
		if (l->max_line && room > l->max_line + 1)
			room = l->max_line + 1;
		ssize_t n = read(fd, sb->buf + sb->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			sb->buf[sb->len] = '\0';
			return lim_error(l, "cannot read '%s': %s", l->what, strerror(errno));
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		if (limit_check(l, sb, start) < 0)
			return -1;
	}
	sb->buf[sb->len] = '\0';
	return 0;
}

int read_fd_limited(struct strbuf *sb, int fd, const char *what, size_t max_bytes,
		    size_t max_line)
{
	struct limiter l = { what, max_bytes, max_line, 0, 1, 0, NULL, false };
	return read_fd_lim(sb, fd, &l);
}

int read_fd_max(struct strbuf *sb, int fd, const char *what, size_t max_bytes)
{
	return read_fd_limited(sb, fd, what, max_bytes, 0);
}

/* Read name relative to dfd (opened with O_RDONLY | flags), named
 * l->what in messages, gunzipped when it ends in ".gz". */
static int read_at(struct strbuf *sb, int dfd, const char *name, int flags, struct limiter *l)
{
	bool gz = ends_with(name, ".gz");
	int fd, ret;

	/* O_NONBLOCK: a FIFO must not hang the open (l->regular refuses it) */
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | flags | (l->regular || gz ? O_NONBLOCK : 0));
	if (fd < 0)
		return lim_error(l, "cannot read '%s': %s", l->what,
				 errno == ELOOP && (flags & O_NOFOLLOW) ?
				 "it is a symbolic link (refusing to follow it)" : strerror(errno));
	if (gz)
		return read_gz_fd(sb, fd, l);
	ret = read_fd_lim(sb, fd, l);
	close(fd);
	return ret;
}

static int read_path(struct strbuf *sb, const char *path, struct limiter *l)
{
	return read_at(sb, AT_FDCWD, path, 0, l);
}

int read_file_limited(struct strbuf *sb, const char *path, size_t max_bytes,
		      size_t max_line)
{
	struct limiter l = { path, max_bytes, max_line, 0, 1, 0, NULL, false };

	return read_path(sb, path, &l);
}

int read_file(struct strbuf *sb, const char *path)
{
	return read_file_limited(sb, path, SIZE_MAX - 1, 0);
}

int read_file_quiet(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (sb->len < max) {
		strbuf_grow(sb, 4096);
		size_t room = sb->alloc - sb->len - 1;
		if (room > max - sb->len)
			room = max - sb->len;
		n = read(fd, sb->buf + sb->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
	int saved = errno;
	close(fd);
	errno = saved;
	return n < 0 ? -1 : 0;
}

/* read_file_maybe_gz, its message printed or (err) kept; text files
 * (regular) only regular ones of at most FILE_TEXT_MAX bytes. */
static int read_maybe_gz(struct strbuf *sb, const char *path, char **used, struct strbuf *err,
			 bool regular)
{
	struct limiter l = { path, regular ? FILE_TEXT_MAX : SIZE_MAX - 1, 0, 0, 1, 0, err, regular };
	struct strbuf gz = STRBUF_INIT;
	int ret;

	if (file_exists(path) || ends_with(path, ".gz")) {
		if (used)
			*used = xstrdup(path);
		return read_path(sb, path, &l);
	}
	strbuf_addf(&gz, "%s.gz", path);
	if (!file_exists(gz.buf)) {
		strbuf_release(&gz);
		if (used)
			*used = NULL;
		return lim_error(&l, "cannot read '%s': %s", path, strerror(ENOENT));
	}
	l.what = gz.buf;
	ret = read_path(sb, gz.buf, &l);
	if (used)
		*used = strbuf_detach(&gz, NULL);
	else
		strbuf_release(&gz);
	return ret;
}

int read_file_maybe_gz(struct strbuf *sb, const char *path, char **used)
{
	return read_maybe_gz(sb, path, used, NULL, false);
}

/* Map a plain, non-empty file: 1, or 0 when it should be read instead
 * (read_maybe_gz also says why it cannot be -- too large, not a regular
 * file -- and looks for path.gz). */
static int map_text(struct file_text *ft, const char *path)
{
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uintmax_t)st.st_size > FILE_TEXT_MAX) {
		close(fd);
		return 0;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	ft->map = map;
	ft->text = map;
	ft->len = (size_t)st.st_size;
	return 1;
}

static int text_open(struct file_text *ft, const char *path, char **used, struct strbuf *err)
{
	char *name = NULL;
	int ret;

	memset(ft, 0, sizeof(*ft));
	strbuf_init(&ft->sb, 0);
	ft->text = "";
	if (!ends_with(path, ".gz") && map_text(ft, path)) {
		if (used)
			*used = xstrdup(path);
		return 0;
	}
	ret = read_maybe_gz(&ft->sb, path, used ? used : &name, err, true);
	free(name);
	ft->text = ft->sb.buf;
	ft->len = ft->sb.len;
	return ret;
}

int file_text_open(struct file_text *ft, const char *path, char **used)
{
	return text_open(ft, path, used, NULL);
}

int file_text_open_quiet(struct file_text *ft, const char *path, char **used, struct strbuf *err)
{
	return text_open(ft, path, used, err);
}

void file_text_release(struct file_text *ft)
{
	if (ft->map)
		munmap(ft->map, ft->len);
	strbuf_release(&ft->sb);
	ft->map = NULL;
	ft->text = "";
	ft->len = 0;
}

static int fsync_dir_of(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return 0; /* best effort: the rename itself already happened */
	fsync(fd);
	close(fd);
	return 0;
}

/* Flags of a temp file: see temp_file_create. */
#define TEMP_FLAGS (O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)

/* 32 bits no other user can guess, for a temp name. */
static uint32_t temp_suffix(void)
{
	static unsigned counter;
	uint32_t r;
	struct timespec ts;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)(ts.tv_nsec * 2654435761u) ^ (uint32_t)++counter * 40503u;
}

/*
 * A temp file is created, never reused: O_EXCL makes the open fail on any
 * name that exists, a symbolic link included (it is not followed), so
 * root never writes through a link another user planted in a result tree
 * they can write, nor truncates a file that was there.  O_NOFOLLOW says
 * the same a second time (with O_EXCL it changes nothing on Linux).
 *
 * When "<path>.tmp.<pid>" is taken -- a temp a dead process of our pid
 * left, or a name planted by someone who can write the dir -- we do not
 * unlink it and retry: in a dir another user can write, what is at the
 * name is theirs to replace between our unlink and our open, as often as
 * they like, and it may be their own file, not ours to remove.  Instead
 * the name gets a random suffix, "<path>.tmp.<pid>.<8 hex>", that no one
 * can plant in advance.  Crash safety is the same: the final file is
 * only ever placed by rename(), which replaces a link at the final name
 * rather than writing through it.  The pid stays in the name, so unite's
 * cleanup of dead writers' temps (remove_dead_temps) still finds both
 * forms, and the first name is the one tried, so the usual case costs no
 * more than before: one open.
 */
static int temp_create_at(int dfd, struct strbuf *tmp, const char *path)
{
	size_t base;
	int fd;

	strbuf_reset(tmp);
	strbuf_addf(tmp, "%s.tmp.%ld", path, (long)getpid());
	base = tmp->len;
	fd = openat(dfd, tmp->buf, TEMP_FLAGS, 0644);
	for (int tries = 0; fd < 0 && errno == EEXIST && tries < 100; tries++) {
		strbuf_setlen(tmp, base);
		strbuf_addf(tmp, ".%08x", (unsigned)temp_suffix());
		fd = openat(dfd, tmp->buf, TEMP_FLAGS, 0644);
	}
	return fd;
}

int temp_file_create(struct strbuf *tmp, const char *path)
{
	return temp_create_at(AT_FDCWD, tmp, path);
}

/* open_nofollow of name relative to dfd; path names it in messages */
static int open_nofollow_at(int dfd, const char *path, const char *name, int flags,
			    const char *verb)
{
	/* O_NONBLOCK: a FIFO planted at the name must not hang the open */
	int fd = openat(dfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	struct stat st;

	if (fd < 0) {
		if (errno == ELOOP)
			return error("cannot %s '%s': it is a symbolic link (refusing to follow it)",
				     verb, path);
		if (errno == ENXIO)     /* a FIFO without a reader, a socket */
			return error("cannot %s '%s': not a regular file", verb, path);
		return error("cannot %s '%s': %s", verb, path, strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("cannot %s '%s': not a regular file", verb, path);
	}
	/* back to blocking writes (a full disk, NFS) */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int open_nofollow(const char *path, int flags, const char *verb)
{
	return open_nofollow_at(AT_FDCWD, path, path, flags, verb);
}

int held_dir_open_file(const struct held_dir *hd, const char *name, int flags, const char *verb)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	path_join(&path, hd->path, name);
	fd = open_nofollow_at(hd->fd, path.buf, name, flags, verb);
	strbuf_release(&path);
	return fd;
}

int held_dir_open(struct held_dir *hd, const char *path)
{
	hd->path = NULL;
	hd->fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (hd->fd < 0)
		return error("cannot open directory '%s': %s", path,
			     errno == ELOOP || errno == ENOTDIR ?
			     "it is a symbolic link or not a directory (refusing to follow it)" :
			     strerror(errno));
	hd->path = xstrdup(path);
	return 0;
}

/* Is path a dir of ours, checked through an fd opened without following
 * a link?  The fd (O_CLOEXEC), or -1 with why set. */
static int own_dir(const char *path, const char **why)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		*why = errno == ELOOP || errno == ENOTDIR ? "it is a symbolic link or not a directory" :
			strerror(errno);
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
		*why = "it is another user's";
		close(fd);
		return -1;
	}
	return fd;
}

int held_dir_make(struct held_dir *hd, const char *path, int mode)
{
	const char *why = NULL;
	int fd;

	hd->fd = -1;
	hd->path = NULL;
	if (mkdir(path, (mode_t)mode) < 0) {
		if (errno != EEXIST)
			return error("cannot create directory '%s': %s", path, strerror(errno));
		/* our pid's: a dead perfbot's leftover, or ours given up */
		fd = own_dir(path, &why);
		if (fd < 0)
			return 1;
		close(fd);
		if (remove_tree(path) < 0)
			return -1;
		if (mkdir(path, (mode_t)mode) < 0)
			return error("cannot create directory '%s': %s", path, strerror(errno));
	}
	/* replaced between the mkdir and now?  From here on the fd says
	 * where the dir is, not the name */
	fd = own_dir(path, &why);
	if (fd < 0)
		return error("directory '%s' was replaced while being made (%s); refusing to "
			     "use it", path, why);
	hd->fd = fd;
	hd->path = xstrdup(path);
	return 0;
}

int mkdir_fresh(const char *path, int mode)
{
	struct held_dir hd;
	int r = held_dir_make(&hd, path, mode);

	held_dir_close(&hd);
	return r;
}

void held_dir_close(struct held_dir *hd)
{
	if (hd->fd >= 0)
		close(hd->fd);
	hd->fd = -1;
	free(hd->path);
	hd->path = NULL;
}

int held_dir_create(const struct held_dir *hd, const char *name)
{
	int fd = openat(hd->fd, name, TEMP_FLAGS, 0644);

	if (fd < 0)
		return error("cannot create '%s/%s': %s", hd->path, name, strerror(errno));
	return fd;
}

int held_dir_open_read(const struct held_dir *hd, const char *name)
{
	/* O_NONBLOCK: a FIFO must not hang the open; reads block again */
	int fd = openat(hd->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int held_dir_make_in(struct held_dir *sub, const struct held_dir *hd, const char *name, int mode)
{
	struct strbuf path = STRBUF_INIT;

	sub->fd = -1;
	sub->path = NULL;
	path_join(&path, hd->path, name);
	if (mkdirat(hd->fd, name, (mode_t)mode) < 0 ||
	    (sub->fd = openat(hd->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		error("cannot create directory '%s': %s", path.buf, strerror(errno));
		strbuf_release(&path);
		return -1;
	}
	sub->path = strbuf_detach(&path, NULL);
	return 0;
}

int held_dir_read(const struct held_dir *hd, const char *name, struct strbuf *sb, size_t max)
{
	struct strbuf path = STRBUF_INIT;
	struct limiter l = { NULL, max, 0, 0, 1, 0, NULL, true };
	int ret;

	path_join(&path, hd->path, name);
	l.what = path.buf;
	ret = read_at(sb, hd->fd, name, O_NOFOLLOW, &l);
	strbuf_release(&path);
	return ret;
}

void held_dir_proc_path(const struct held_dir *hd, const char *name, struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "/proc/self/fd/%d", hd->fd);
	if (name)
		strbuf_addf(sb, "/%s", name);
}

/* Does path (not followed) name the dir held in fd? */
static bool leads_to(const char *path, int fd)
{
	struct stat a, b;

	return lstat(path, &a) == 0 && fstat(fd, &b) == 0 && S_ISDIR(a.st_mode) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int held_dir_publish(struct held_dir *hd, const char *to)
{
	/* a planted link renamed into place would be a run of theirs: the
	 * check before the rename keeps it where it is; the one after
	 * catches a swap between the two */
	if (!leads_to(hd->path, hd->fd))
		return error("directory '%s' was replaced while in use (its name no longer "
			     "leads to it); refusing to publish it", hd->path);
	if (rename(hd->path, to) < 0) {
		if (errno == EEXIST || errno == ENOTEMPTY)
			return 1;
		return error("cannot rename '%s' to '%s': %s", hd->path, to, strerror(errno));
	}
	if (!leads_to(to, hd->fd))
		return error("directory '%s' was replaced while being renamed to '%s'; "
			     "refusing to publish it", hd->path, to);
	free(hd->path);
	hd->path = xstrdup(to);
	fsync(hd->fd);
	return 0;
}

/* Open af for name relative to dfd; path names it in messages. */
static int af_open(struct atomic_file *af, int dfd, const char *path, const char *name)
{
	strbuf_init(&af->path, 0);
	strbuf_init(&af->tmp, 0);
	strbuf_addstr(&af->path, path);
	af->dfd = dfd;
	af->name_at = af->path.len - strlen(name);
	af->err = 0;
	af->synced = false;
	af->fd = temp_create_at(dfd, &af->tmp, name);
	if (af->fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		strbuf_release(&af->path);
		strbuf_release(&af->tmp);
		return -1;
	}
	return 0;
}

int atomic_file_open(struct atomic_file *af, const char *path)
{
	return af_open(af, AT_FDCWD, path, path);
}

int atomic_file_open_in(struct atomic_file *af, const struct held_dir *hd, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	path_join(&path, hd->path, name);
	ret = af_open(af, hd->fd, path.buf, name);
	strbuf_release(&path);
	return ret;
}

int held_dir_write(const struct held_dir *hd, const char *name, const void *data, size_t len)
{
	struct atomic_file af;

	if (atomic_file_open_in(&af, hd, name) < 0)
		return -1;
	atomic_file_write(&af, data, len);
	return atomic_file_commit(&af);
}

void atomic_file_write(struct atomic_file *af, const void *data, size_t len)
{
	const char *p = data;

	while (len && !af->err) {
		ssize_t n = write(af->fd, p, len);

		if (n < 0) {
			if (errno != EINTR)
				af->err = errno;
			continue;
		}
		p += n;
		len -= (size_t)n;
	}
}

static void atomic_file_end(struct atomic_file *af)
{
	if (af->fd >= 0)
		close(af->fd);
	unlinkat(af->dfd, af->tmp.buf, 0);
	strbuf_release(&af->path);
	strbuf_release(&af->tmp);
}

void atomic_file_sync(struct atomic_file *af)
{
	if (!af->err && !af->synced && fsync(af->fd) < 0)
		af->err = errno;
	af->synced = true;
}

/* Sync, close and rename af over its path: 0 (af->path still held, for
 * its directory's fsync), or -1 with the message and af ended. */
static int put_in_place(struct atomic_file *af)
{
	atomic_file_sync(af);
	if (!af->err) {
		int fd = af->fd;

		af->fd = -1;
		if (close(fd) < 0 ||
		    renameat(af->dfd, af->tmp.buf, af->dfd, af->path.buf + af->name_at) < 0)
			af->err = errno;
	}
	if (af->err) {
		error("cannot write '%s': %s", af->path.buf, strerror(af->err));
		atomic_file_end(af);
		return -1;
	}
	return 0;
}

/* Are a and b files of one directory? */
static bool same_dir(const struct atomic_file *a, const struct atomic_file *b)
{
	const char *sa = strrchr(a->path.buf, '/'), *sb = strrchr(b->path.buf, '/');
	size_t la = sa ? (size_t)(sa - a->path.buf) : 0, lb = sb ? (size_t)(sb - b->path.buf) : 0;

	if (a->dfd != AT_FDCWD || b->dfd != AT_FDCWD)
		return a->dfd == b->dfd;
	return la == lb && !memcmp(a->path.buf, b->path.buf, la);
}

int atomic_file_commit_all(struct atomic_file *af, size_t n)
{
	size_t done = 0;
	int ret = 0;

	while (done < n && put_in_place(&af[done]) == 0)
		done++;
	if (done < n) {
		ret = -1;
		for (size_t i = done + 1; i < n; i++)
			atomic_file_end(&af[i]);
	}
	/* the renames are durable once their directory is synced: once a
	 * directory, not once a file */
	for (size_t i = 0; i < done; i++) {
		if (i + 1 == done || !same_dir(&af[i], &af[i + 1])) {
			if (af[i].dfd != AT_FDCWD)
				fsync(af[i].dfd);
			else
				fsync_dir_of(af[i].path.buf);
		}
	}
	for (size_t i = 0; i < done; i++) {
		strbuf_release(&af[i].path);
		strbuf_release(&af[i].tmp);
	}
	return ret;
}

int atomic_file_commit(struct atomic_file *af)
{
	return atomic_file_commit_all(af, 1);
}

void atomic_file_abort(struct atomic_file *af)
{
	atomic_file_end(af);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct atomic_file af;

	if (atomic_file_open(&af, path) < 0)
		return -1;
	atomic_file_write(&af, data, len);
	return atomic_file_commit(&af);
}

int mkdir_p(const char *path, int mode)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
			error("cannot create directory '%s': %s", p, strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
		error("cannot create directory '%s': %s", p, strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

char *abs_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *cwd;

	if (path[0] == '/')
		return xstrdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		die("cannot get the current directory: %s", strerror(errno));
	path_join(&sb, cwd, path);
	free(cwd);
	return strbuf_detach(&sb, NULL);
}

void path_join(struct strbuf *sb, const char *a, const char *b)
{
	strbuf_addstr(sb, a);
	if (sb->len && sb->buf[sb->len - 1] != '/')
		strbuf_addch(sb, '/');
	strbuf_addstr(sb, b);
}

int finish_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		return error("write failure on standard output: %s", strerror(errno ? errno : EIO));
	return 0;
}

/* Remove what is inside the folder dfd (not dfd itself). */
static int remove_inside(int dfd, const char *path, int depth)
{
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (depth > 64)
		return error("cannot remove '%s': nested too deeply", path);
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return error("cannot read '%s': %s", path, strerror(errno));
	}
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (unlinkat(dirfd(d), n, 0) == 0 || errno == ENOENT)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			ret = error("cannot remove '%s/%s': %s", path, n, strerror(errno));
			continue;
		}
		/* a folder: O_NOFOLLOW, so a link is never walked through */
		int sub = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct strbuf p = STRBUF_INIT;
		path_join(&p, path, n);
		if (sub < 0) {
			ret = error("cannot open '%s': %s", p.buf, strerror(errno));
		} else {
			if (remove_inside(sub, p.buf, depth + 1) < 0)
				ret = -1;
			if (unlinkat(dirfd(d), n, AT_REMOVEDIR) < 0 && errno != ENOENT)
				ret = error("cannot remove '%s': %s", p.buf, strerror(errno));
		}
		strbuf_release(&p);
	}
	closedir(d);
	return ret;
}

int held_dir_remove(const struct held_dir *hd)
{
	/* a file of its own (a dup would share the read position of a
	 * walk before) */
	int fd = openat(hd->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return error("cannot remove '%s': %s", hd->path, strerror(errno));
	/* remove_inside closes fd */
	if (remove_inside(fd, hd->path, 0) < 0)
		return -1;
	if (leads_to(hd->path, hd->fd) && rmdir(hd->path) < 0 && errno != ENOENT)
		return error("cannot remove '%s': %s", hd->path, strerror(errno));
	return 0;
}

int remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno == ENOTDIR || errno == ELOOP) {
			if (unlink(path) == 0 || errno == ENOENT)
				return 0;
		}
		return error("cannot remove '%s': %s", path, strerror(errno));
	}
	if (remove_inside(fd, path, 0) < 0)
		return -1;
	if (rmdir(path) < 0 && errno != ENOENT)
		return error("cannot remove '%s': %s", path, strerror(errno));
	return 0;
}
