/* strbuf.c: growable strings; see strbuf.h for the invariants. */
#include "util/error.h"
#include "util/strbuf.h"
#include "util/compiler.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

HOT_PATH void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (want < sb->len)
		die("strbuf: size overflow");
	if (want <= sb->alloc)
		return;
	size_t alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < want)
		alloc = alloc * 3 / 2 + 16;
	if (!sb->alloc) {
		sb->buf = xmalloc(alloc);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, alloc);
	}
	sb->alloc = alloc;
}

HOT_PATH void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		/* only an empty slopbuf can be "set" without storage */
		if (len)
			die("strbuf_setlen beyond allocation");
		return;
	}
	if (len >= sb->alloc)
		die("strbuf_setlen beyond allocation");
	sb->len = len;
	sb->buf[len] = '\0';
}

HOT_PATH void strbuf_add_slow(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	/* memcpy's source must not be NULL even for 0 bytes (C11 7.24.1),
	 * and callers pass (NULL, 0) for an empty payload (cpio_add) */
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

HOT_PATH void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}


HOT_PATH void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

HOT_PATH void strbuf_addu(struct strbuf *sb, unsigned long long v, int width)
{
	char digits[20];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (width > n)
		strbuf_addchars(sb, ' ', (size_t)(width - n));
	strbuf_grow(sb, (size_t)n);
	while (n)
		sb->buf[sb->len++] = digits[--n];
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("strbuf_vaddf: formatting error");
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}
