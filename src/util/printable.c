/* printable.c: see printable.h. */
#include "util/printable.h"

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0.  The
 * ranges are RFC 3629's: no overlong forms, no surrogates, nothing past
 * U+10FFFF. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

void make_printable(char *buf, size_t len, bool keep_lines)
{
	unsigned char *p = (unsigned char *)buf, *end = p + len;

	while (p < end) {
		if (*p < 0x80) {
			if ((*p < 0x20 && *p != '\t' && !(keep_lines && *p == '\n')) || *p == 0x7f)
				*p = '?';
			p++;
			continue;
		}
		size_t n = utf8_len(p, (size_t)(end - p));
		if (n == 0) {
			*p++ = '?';
			continue;
		}
		if (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f)    /* C1 */
			p[0] = p[1] = '?';
		p += n;
	}
}
