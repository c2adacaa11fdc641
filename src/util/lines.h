#ifndef PERFBOT_LINES_H
#define PERFBOT_LINES_H
/*
 * lines: cutting a buffer into lines and a line into fields, the one
 * toolkit of every text reader (the parsers in src/parse/, the monitors in
 * src/monitor/).
 *
 * lkp's parsers are Ruby scripts whose output perfbot must reproduce byte
 * for byte, so the rules are Ruby's: which bytes are whitespace (\s is
 * " \t\n\v\f\r", a control byte such as 0x01 is not), what String#split
 * drops, what each_line yields.
 *
 * Ownership.  Lines and fields are (pointer, length) views into the
 * caller's buffer: nothing is copied and nothing needs freeing, and they
 * stay valid as long as the buffer does.  Where a NUL-terminated string is
 * wanted (rx_exec(), the C-string number readers), line_next_str() copies
 * the line into a caller-owned strbuf and split_ws_str()/split_char_str()
 * copy the fields into their field_list; those copies are replaced by the
 * next call and freed by strbuf_release()/field_list_release().  Storage
 * is kept across calls, so reading line after line allocates only when a
 * line is longer (or wider) than any before.
 *
 * Malformed input.  Nothing here fails or rejects: any byte string is cut
 * somehow (NUL bytes are ordinary bytes in views, but end a string given
 * to the _str functions, which take C strings), and deciding whether the
 * pieces make sense is the caller's job.
 *
 * CRLF.  A line keeps its '\r' (as Ruby's gets does) unless the caller
 * drops it with line_chomp().  split_ws() treats '\r' as whitespace, so
 * whitespace fields never hold it; split_char() keeps it in the last field.
 *
 * A typical reader:
 *
 *	struct line_iter it;
 *	struct line l;
 *	struct field f[8];
 *
 *	line_iter_init(&it, buf, len);
 *	while (line_next(&it, &l)) {
 *		size_t n = split_ws(l.s, l.len, f, 8);
 *		if (n != 2)
 *			return error("%s:%zu: expected 2 fields, found %zu",
 *				     name, l.no, n);
 *		...
 *	}
 *
 * and one that matches regular expressions on each line:
 *
 *	struct strbuf line = STRBUF_INIT;
 *	struct field_list w = FIELD_LIST_INIT;
 *
 *	line_iter_init(&it, buf, len);
 *	while (line_next_str(&it, &l, &line)) {
 *		if (rx_match(&re, line.buf, NULL, 0))
 *			split_ws_str(&w, line.buf);  // w.str[0..w.nr)
 *	}
 *	strbuf_release(&line);
 *	field_list_release(&w);
 */
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

/* ---- bytes ---------------------------------------------------------- */

/* Ruby's \s and the separators of a whitespace String#split: " \t\n\v\f\r". */
static inline bool is_rspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* ---- lines ---------------------------------------------------------- */

/* One line of the input: a view into the buffer, not NUL-terminated. */
struct line {
	const char *s;
	size_t len;     /* bytes, without the '\n' */
	size_t no;      /* 1-based line number, for messages */
	bool nl;        /* ended with '\n'; false only for a last unterminated
			   line (Ruby's each_line keeps the "\n", which a few
			   lkp rules see: perf-stat's last field, for one) */
};

struct line_iter {
	const char *p, *end;
	size_t no;      /* lines returned so far: the current line's number */
};

/* Iterate over buf[0..len) like Ruby's each_line: "" has no line, "a\n"
 * one, "a\nb" two, "a\n\n" two (the second empty). */
void line_iter_init(struct line_iter *it, const char *buf, size_t len);
/* Fill *l with the next line and return true, or return false at the end. */
bool line_next(struct line_iter *it, struct line *l);
/*
 * line_next, and the line also copied NUL-terminated into sb (replacing
 * its contents; sb->len is l->len).  A NUL byte in the line ends the C
 * string sb->buf early but not sb->len.
 */
bool line_next_str(struct line_iter *it, struct line *l, struct strbuf *sb);
/* Ruby's chomp after the '\n' is gone: drop one trailing '\r'. */
static inline void line_chomp(struct line *l)
{
	if (l->len && l->s[l->len - 1] == '\r')
		l->len--;
}

/* The line number to blame for "nothing found": the last line read, or 1
 * when none was (an empty input is blamed on line 1). */
static inline size_t line_iter_last(const struct line_iter *it)
{
	return it->no ? it->no : 1;
}

/* The number of lines line_next() yields for buf[0..len), at least 1 (the
 * line to blame for what is missing from a whole buffer). */
size_t line_count(const char *buf, size_t len);

/* ---- fields --------------------------------------------------------- */

/* A field of a split line: a view, not NUL-terminated. */
struct field {
	const char *s;
	size_t len;
};

/*
 * Ruby's str.split (awk style): fields are the runs of non-whitespace;
 * leading and trailing whitespace yields no empty field, so "" and "  "
 * have none.  Stores at most max fields in out and returns how many there
 * are in all (which may be more than max: compare the result with max
 * before using out[max - 1]).  out may be NULL when max is 0 (counting).
 */
size_t split_ws(const char *s, size_t len, struct field *out, size_t max);

/* Keep the empty fields at the end (Ruby's split(sep, -1)). */
#define SPLIT_KEEP_TRAILING_EMPTY 1u
/*
 * Ruby's str.split(sep) for a one-character separator: every sep cuts, so
 * "a,,b" has three fields, and trailing empty fields are dropped ("a,b,,"
 * has two; "" and ",," have none) unless flags has
 * SPLIT_KEEP_TRAILING_EMPTY.  Leading empty fields stay (",a" has two).
 * The return value and max work as for split_ws.
 */
size_t split_char(const char *s, size_t len, char sep, unsigned flags,
		  struct field *out, size_t max);

/* True when the field holds exactly the string lit. */
bool field_is(const struct field *f, const char *lit);

/*
 * All the fields of a line of any width (a column per CPU), in storage
 * kept across calls.  v[0..nr) are the views, into the string split.
 * After split_ws_str() or split_char_str(), str[0..nr) are also
 * NUL-terminated copies of them, owned by the list; after split_ws_all()
 * str is not up to date and must not be read.
 */
struct field_list {
	struct field *v;
	size_t nr, alloc;
	char **str;
	size_t str_alloc;
	struct strbuf copy;     /* the bytes str[] point into */
};
#define FIELD_LIST_INIT { NULL, 0, 0, NULL, 0, STRBUF_INIT }
/* split_ws s[0..len) into fl (its previous fields are dropped); returns fl->nr. */
size_t split_ws_all(struct field_list *fl, const char *s, size_t len);
/* split_ws the C string s into fl with NUL-terminated copies; returns fl->nr. */
size_t split_ws_str(struct field_list *fl, const char *s);
/* split_char (trailing empty fields dropped) the C string s into fl with
 * NUL-terminated copies; returns fl->nr. */
size_t split_char_str(struct field_list *fl, const char *s, char sep);
/* Free the storage; fl is then FIELD_LIST_INIT again. */
void field_list_release(struct field_list *fl);

/* The last line of text that holds more than blanks (its trailing ' ',
 * '\r' and '\n' dropped) into line, replacing what it held; empty when
 * there is none.  What a failed tool's output says last: its reason. */
void last_nonempty_line(const char *text, struct strbuf *line);

#endif
