/*
 * cachegrind.c: the totals of valgrind cachegrind's output files
 * (cachegrind.h).
 */
#include "parse/cachegrind.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The (0-based) column of event among the blank-separated names in
 * s[0..len), or -1. */
static int column_of(const char *s, size_t len, const char *event)
{
	size_t elen = strlen(event), i = 0;
	int col = 0;

	while (i < len) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= len)
			break;
		size_t j = i;
		while (j < len && s[j] != ' ' && s[j] != '\t')
			j++;
		if (j - i == elen && !memcmp(s + i, event, elen))
			return col;
		col++;
		i = j;
	}
	return -1;
}

/* The col-th number of s[0..len) into *v: 0, or -1 when there is none. */
static int number_at(const char *s, size_t len, int col, unsigned long long *v)
{
	size_t i = 0;

	for (int c = 0;; c++) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= len)
			return -1;
		size_t j = i;
		while (j < len && s[j] >= '0' && s[j] <= '9')
			j++;
		if (c == col) {
			if (j == i || (j < len && s[j] != ' ' && s[j] != '\t' && s[j] != '\r'))
				return -1;
			unsigned long long n = 0;
			for (size_t k = i; k < j; k++) {
				unsigned d = (unsigned)(s[k] - '0');
				if (n > (~0ULL - d) / 10)
					return -1;
				n = n * 10 + d;
			}
			*v = n;
			return 0;
		}
		while (j < len && s[j] != ' ' && s[j] != '\t')
			j++;
		i = j;
	}
}

int cachegrind_total(const char *buf, size_t len, const char *where, const char *event,
		     unsigned long long *count)
{
	const char *events = NULL, *summary = NULL;
	size_t events_len = 0, summary_len = 0;

	for (size_t i = 0; i < len;) {
		const char *l = buf + i, *nl = memchr(l, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - l) : len - i;

		if (ll >= 7 && !memcmp(l, "events:", 7) && !events) {
			events = l + 7;
			events_len = ll - 7;
		} else if (ll >= 8 && !memcmp(l, "summary:", 8)) {
			summary = l + 8;
			summary_len = ll - 8;
		}
		i += ll + 1;
	}
	if (!events)
		return error("%s: no 'events:' line: not a cachegrind output file", where);
	int col = column_of(events, events_len, event);
	if (col < 0)
		return error("%s: cachegrind counted no '%s' (events:%.*s)", where, event,
			     (int)(events_len > 200 ? 200 : events_len), events);
	/* valgrind writes it last: a file without one was cut short */
	if (!summary)
		return error("%s: no 'summary:' line (valgrind did not finish writing it)", where);
	if (number_at(summary, summary_len, col, count) < 0)
		return error("%s: the 'summary:' line has no count for '%s' in column %d", where,
			     event, col + 1);
	return 0;
}

/* Reading a file's head and tail: the events: line is its 5th or so, the
 * summary: its last; what lies between can be megabytes. */
#define CG_CHUNK ((size_t)64 << 10)

static int read_range(int fd, off_t at, size_t n, struct strbuf *sb, const char *path)
{
	strbuf_grow(sb, n);
	while (n > 0) {
		ssize_t r = pread(fd, sb->buf + sb->len, n, at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return error("cannot read '%s': %s", path, strerror(errno));
		if (r == 0)
			break;
		strbuf_setlen(sb, sb->len + (size_t)r);
		at += r;
		n -= (size_t)r;
	}
	return 0;
}

static int total_of_file(const char *path, const char *event, unsigned long long *count)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), ret = -1;

	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		error("'%s': not a regular file", path);
		goto out;
	}
	if ((size_t)st.st_size <= 2 * CG_CHUNK) {
		if (read_range(fd, 0, (size_t)st.st_size, &sb, path) < 0)
			goto out;
	} else {
		if (read_range(fd, 0, CG_CHUNK, &sb, path) < 0)
			goto out;
		/* the tail's cut first line stands alone, never a summary: */
		strbuf_addch(&sb, '\n');
		if (read_range(fd, st.st_size - (off_t)CG_CHUNK, CG_CHUNK, &sb, path) < 0)
			goto out;
	}
	ret = cachegrind_total(sb.buf, sb.len, path, event, count);
out:
	close(fd);
	strbuf_release(&sb);
	return ret;
}

int cachegrind_sum_dir(const char *dir, const char *event, unsigned long long *total,
		       int *nr_files)
{
	struct strbuf path = STRBUF_INIT;
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	*total = 0;
	*nr_files = 0;
	if (!d)
		return error("cannot open '%s': %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		unsigned long long n;

		if (strncmp(de->d_name, "cachegrind.out.", 15))
			continue;
		strbuf_reset(&path);
		path_join(&path, dir, de->d_name);
		if (total_of_file(path.buf, event, &n) < 0) {
			ret = -1;
			break;
		}
		*total += n;
		(*nr_files)++;
	}
	closedir(d);
	if (ret == 0 && !*nr_files)
		ret = error("%s: no cachegrind.out.* file (valgrind wrote none)", dir);
	strbuf_release(&path);
	return ret;
}
