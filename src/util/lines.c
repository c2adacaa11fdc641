/* lines.c: lines and fields of a text buffer; see lines.h. */
#include "util/lines.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- lines ---------------------------------------------------------- */

void line_iter_init(struct line_iter *it, const char *buf, size_t len)
{
	it->p = buf;
	it->end = buf + len;
	it->no = 0;
}

bool line_next(struct line_iter *it, struct line *l)
{
	const char *nl;

	if (it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	l->s = it->p;
	l->no = ++it->no;
	if (nl) {
		l->len = (size_t)(nl - it->p);
		l->nl = true;
		it->p = nl + 1;
	} else {
		l->len = (size_t)(it->end - it->p);
		l->nl = false;
		it->p = it->end;
	}
	return true;
}

bool line_next_str(struct line_iter *it, struct line *l, struct strbuf *sb)
{
	if (!line_next(it, l))
		return false;
	strbuf_reset(sb);
	strbuf_add(sb, l->s, l->len);
	return true;
}

size_t line_count(const char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\n';
	if (len && buf[len - 1] != '\n')
		n++;
	return n ? n : 1;
}

/* ---- fields --------------------------------------------------------- */

/*
 * The end of the run of non-whitespace at p.  Eight bytes at a time where
 * we can: a long token (a perf call chain) is most of a perf-profile line.
 * The SWAR test flags bytes below 0x21; the lowest flagged byte is always
 * a true one, and is then checked exactly (a control byte such as 0x01 is
 * not whitespace in Ruby).
 */
static const char *token_end(const char *p, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;

	while (end - p >= 8) {
		uint64_t w, low;

		memcpy(&w, p, 8);
		low = (w - ones * 0x21) & ~w & highs;
		if (!low) {
			p += 8;
			continue;
		}
		p += __builtin_ctzll(low) / 8;
		if (is_rspace((unsigned char)*p))
			return p;
		p++;
	}
#endif
	while (p < end && !is_rspace((unsigned char)*p))
		p++;
	return p;
}

size_t split_ws(const char *s, size_t len, struct field *out, size_t max)
{
	const char *p = s, *end = s + len;
	size_t n = 0;

	for (;;) {
		while (p < end && is_rspace((unsigned char)*p))
			p++;
		if (p == end)
			return n;
		const char *b = p;
		p = token_end(p, end);
		if (n < max) {
			out[n].s = b;
			out[n].len = (size_t)(p - b);
		}
		n++;
	}
}

size_t split_char(const char *s, size_t len, char sep, unsigned flags,
		  struct field *out, size_t max)
{
	const char *p = s, *end = s + len;
	size_t n = 0, kept = 0;

	for (;;) {
		const char *e = memchr(p, sep, (size_t)(end - p));
		if (!e)
			e = end;
		if (n < max) {
			out[n].s = p;
			out[n].len = (size_t)(e - p);
		}
		n++;
		if (e > p)
			kept = n;       /* fields up to the last non-empty one */
		if (e == end)
			break;
		p = e + 1;
	}
	return (flags & SPLIT_KEEP_TRAILING_EMPTY) ? n : kept;
}

bool field_is(const struct field *f, const char *lit)
{
	size_t n = strlen(lit);
	return f->len == n && !memcmp(f->s, lit, n);
}

size_t split_ws_all(struct field_list *fl, const char *s, size_t len)
{
	size_t n = split_ws(s, len, fl->v, fl->alloc);

	if (n > fl->alloc) {
		fl->v = xgrow(fl->v, sizeof(*fl->v), n, &fl->alloc);
		split_ws(s, len, fl->v, fl->alloc);
	}
	fl->nr = n;
	return n;
}

/* NUL-terminated copies of fl->v[0..fl->nr) in fl->str. */
static size_t fill_str(struct field_list *fl)
{
	size_t off = 0;

	strbuf_reset(&fl->copy);
	for (size_t i = 0; i < fl->nr; i++) {
		strbuf_add(&fl->copy, fl->v[i].s, fl->v[i].len);
		strbuf_addch(&fl->copy, '\0');
	}
	/* str[] is set after the copy has stopped moving */
	ALLOC_GROW(fl->str, fl->nr, fl->str_alloc);
	for (size_t i = 0; i < fl->nr; i++) {
		fl->str[i] = fl->copy.buf + off;
		off += fl->v[i].len + 1;
	}
	return fl->nr;
}

size_t split_ws_str(struct field_list *fl, const char *s)
{
	split_ws_all(fl, s, strlen(s));
	return fill_str(fl);
}

size_t split_char_str(struct field_list *fl, const char *s, char sep)
{
	size_t len = strlen(s), n = split_char(s, len, sep, 0, fl->v, fl->alloc);

	if (n > fl->alloc) {
		fl->v = xgrow(fl->v, sizeof(*fl->v), n, &fl->alloc);
		split_char(s, len, sep, 0, fl->v, fl->alloc);
	}
	fl->nr = n;
	return fill_str(fl);
}

void field_list_release(struct field_list *fl)
{
	free(fl->v);
	free(fl->str);
	strbuf_release(&fl->copy);
	fl->v = NULL;
	fl->str = NULL;
	fl->nr = fl->alloc = fl->str_alloc = 0;
}

void last_nonempty_line(const char *text, struct strbuf *line)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	strbuf_reset(line);
	strbuf_add(line, start, (size_t)(end - start));
}
