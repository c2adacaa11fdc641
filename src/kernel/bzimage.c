/* bzimage.c: the version string of a bzImage (see bzimage.h). */
#include "kernel/bzimage.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int bzimage_version(const unsigned char *buf, size_t len, struct strbuf *out)
{
	size_t off, end;

	if (len < 0x210 || memcmp(buf + 0x202, "HdrS", 4))
		return -1;
	off = 0x200 + (size_t)(buf[0x20e] | buf[0x20f] << 8);
	if (off >= len)
		return -1;
	/* a printable string that ends within the buffer */
	for (end = off; end < len && buf[end]; end++)
		if (buf[end] < 0x20 || buf[end] > 0x7e)
			return -1;
	if (end == len || end == off)
		return -1;
	strbuf_add(out, buf + off, end - off);
	return 0;
}

int bzimage_read_version(const char *path, struct strbuf *out)
{
	/* the string sits in the setup sectors: the first 64 KiB hold it */
	unsigned char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return error("cannot read kernel '%s': %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return error("cannot read kernel '%s': %s", path, strerror(errno));
	if (bzimage_version(buf, (size_t)n, out) < 0)
		return error("'%s' is not a bzImage (no boot protocol header with a version string)", path);
	return 0;
}
