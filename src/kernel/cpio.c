/* cpio.c: newc archives, written and read (see cpio.h). */
#include "kernel/cpio.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CPIO_HEADER 110
#define CPIO_TRAILER "TRAILER!!!"

void cpio_init(struct cpio *c, struct strbuf *out)
{
	c->out = out;
	c->ino = 0;
}

static void pad4(struct strbuf *out)
{
	while (out->len % 4)
		strbuf_addch(out, '\0');
}

static void header(struct cpio *c, const char *name, unsigned mode, size_t size,
		   unsigned rmajor, unsigned rminor)
{
	size_t start = c->out->len;

	/* ino nlink mtime size major minor rmajor rminor namesize check */
	strbuf_addf(c->out, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		    ++c->ino, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)size, 0u, 0u,
		    rmajor, rminor, (unsigned)strlen(name) + 1, 0u);
	strbuf_add(c->out, name, strlen(name) + 1);
	/* the name is padded so that header + name end on 4 bytes */
	while ((c->out->len - start) % 4)
		strbuf_addch(c->out, '\0');
}

void cpio_add(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len)
{
	header(c, name, mode, len, 0, 0);
	strbuf_add(c->out, data, len);
	pad4(c->out);
}

void cpio_add_dev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor)
{
	header(c, name, mode, 0, major, minor);
}

void cpio_finish(struct cpio *c)
{
	header(c, CPIO_TRAILER, 0, 0, 0, 0);
}

static int hex8(const char *p, unsigned long *v)
{
	*v = 0;
	for (int i = 0; i < 8; i++) {
		int c = p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		*v = *v << 4 | (unsigned long)d;
	}
	return 0;
}

static size_t up4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int cpio_parse(const char *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *ctx),
	       void *ctx, struct strbuf *why)
{
	size_t pos = 0;

	while (pos < len) {
		unsigned long f[13];
		struct cpio_entry e;
		if (len - pos < CPIO_HEADER) {
			strbuf_addf(why, "truncated at byte %zu", pos);
			return -1;
		}
		if (memcmp(buf + pos, "070701", 6)) {
			strbuf_addf(why, "bad magic at byte %zu", pos);
			return -1;
		}
		for (int i = 0; i < 13; i++)
			if (hex8(buf + pos + 6 + 8 * i, &f[i]) < 0) {
				strbuf_addf(why, "bad header at byte %zu", pos);
				return -1;
			}
		size_t namesize = f[11], size = f[6];
		size_t name_at = pos + CPIO_HEADER, data_at = up4(name_at + namesize);
		if (namesize == 0 || namesize > len - name_at || buf[name_at + namesize - 1] != '\0' ||
		    data_at > len || size > len - data_at) {
			strbuf_addf(why, "truncated at byte %zu", pos);
			return -1;
		}
		e.name = buf + name_at;
		if (!strcmp(e.name, CPIO_TRAILER))
			return 0;
		e.mode = (unsigned)f[1];
		e.data = buf + data_at;
		e.size = size;
		int r = fn(&e, ctx);
		if (r)
			return r;
		pos = up4(data_at + size);
	}
	strbuf_addstr(why, "no trailer");
	return -1;
}

struct extract {
	const struct held_dir *hd;
	const char *what;
};

/* A relative name whose every component is a safe one (pathsafe.h). */
static int safe_name(const char *name)
{
	struct strbuf comp = STRBUF_INIT;
	int ok = *name && *name != '/';

	for (const char *p = name; ok && *p;) {
		size_t n = strcspn(p, "/");
		strbuf_reset(&comp);
		strbuf_add(&comp, p, n);
		ok = !path_component_problem(comp.buf);
		p += n;
		if (*p == '/' && !*++p)
			ok = 0;
	}
	strbuf_release(&comp);
	return ok;
}

static int extract_one(const struct cpio_entry *e, void *ctx)
{
	struct extract *x = ctx;
	struct strbuf path = STRBUF_INIT;
	const char *name = e->name;
	int r = 0;

	while (!strncmp(name, "./", 2))
		name += 2;
	if (!strcmp(name, ".") || !*name)
		return 0;
	if (!safe_name(name))
		return error("%s: refusing the archive member '%s'", x->what, e->name);
	/*
	 * Through the held dir's fd, never by its name (fileio.h).  A name
	 * with a '/' is walked by openat from there: its components are
	 * dirs this loop made (an archive makes no links, nor can anyone
	 * else write in the dir), so nothing below the fd leads out of it.
	 */
	if (S_ISDIR(e->mode)) {
		for (const char *p = name; !r && *p;) {
			struct stat st;
			p += strcspn(p, "/");
			strbuf_reset(&path);
			strbuf_add(&path, name, (size_t)(p - name));
			if (mkdirat(x->hd->fd, path.buf, 0755) < 0 &&
			    (errno != EEXIST || fstatat(x->hd->fd, path.buf, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			     !S_ISDIR(st.st_mode)))
				r = error("cannot create directory '%s/%s': %s", x->hd->path, path.buf,
					  errno == EEXIST ? "it exists and is not a directory" :
					  strerror(errno));
			if (*p)
				p++;
		}
	} else if (S_ISREG(e->mode)) {
		r = held_dir_write(x->hd, name, e->data, e->size);
	}
	strbuf_release(&path);
	return r;
}

static int count_one(const struct cpio_entry *e, void *ctx)
{
	(void)e;
	++*(size_t *)ctx;
	return 0;
}

int cpio_extract(const char *buf, size_t len, const struct held_dir *dir, const char *what)
{
	struct extract x = { dir, what };
	struct strbuf why = STRBUF_INIT;
	size_t nr = 0;
	/* counted before anything is written */
	int r = cpio_parse(buf, len, count_one, &nr, &why);

	if (!r && nr > CPIO_MAX_FILES)
		r = error("%s: more than %d files in the archive (the limit)", what, CPIO_MAX_FILES);
	else if (!r)
		r = cpio_parse(buf, len, extract_one, &x, &why);

	if (r < 0 && why.len)
		error("%s: damaged archive: %s", what, why.buf);
	strbuf_release(&why);
	return r ? -1 : 0;
}

int cpio_extract_file(const char *path, size_t max_bytes, const struct held_dir *dir,
		      const char *what)
{
	struct strbuf data = STRBUF_INIT;
	int r = read_file_limited(&data, path, max_bytes, 0);

	if (!r)
		r = cpio_extract(data.buf, data.len, dir, what);
	strbuf_release(&data);
	return r;
}
