/* fileio.c: reading (plain or gzip) and atomic writing of whole files. */
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static int read_gz(struct strbuf *sb, const char *path)
{
	gzFile gz = gzopen(path, "rb");
	int n;

	if (!gz)
		return error("cannot read '%s': %s", path, strerror(errno ? errno : EIO));
	do {
		strbuf_grow(sb, 65536);
		n = gzread(gz, sb->buf + sb->len, 65536);
		if (n < 0) {
			int zerr;
			const char *msg = gzerror(gz, &zerr);
			error("cannot read '%s': %s", path, msg);
			gzclose(gz);
			return -1;
		}
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	} while (n > 0);
	gzclose(gz);
	return 0;
}

int read_file(struct strbuf *sb, const char *path)
{
	int fd;
	struct stat st;

	if (ends_with(path, ".gz"))
		return read_gz(sb, path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return error("cannot read '%s': Is a directory", path);
	}
	if (st.st_size > 0)
		strbuf_grow(sb, (size_t)st.st_size);
	for (;;) {
		strbuf_grow(sb, 8192);
		ssize_t n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			error("cannot read '%s': %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
	}
	sb->buf[sb->len] = '\0';
	close(fd);
	return 0;
}

int read_file_maybe_gz(struct strbuf *sb, const char *path, char **used)
{
	struct strbuf gz = STRBUF_INIT;
	int ret;

	if (file_exists(path) || ends_with(path, ".gz")) {
		if (used)
			*used = xstrdup(path);
		return read_file(sb, path);
	}
	strbuf_addf(&gz, "%s.gz", path);
	if (!file_exists(gz.buf)) {
		strbuf_release(&gz);
		if (used)
			*used = NULL;
		return error("cannot read '%s': %s", path, strerror(ENOENT));
	}
	ret = read_file(sb, gz.buf);
	if (used)
		*used = strbuf_detach(&gz, NULL);
	else
		strbuf_release(&gz);
	return ret;
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

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p = data;
	int fd;

	strbuf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		strbuf_release(&tmp);
		return -1;
	}
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp.buf, path) < 0)
		goto fail;
	fsync_dir_of(path);
	strbuf_release(&tmp);
	return 0;
fail:
	error("cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp.buf);
	strbuf_release(&tmp);
	return -1;
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
