/*
 * json_reader.c: the pull reader of json_reader.h.
 *
 * One pass over the text, a small state machine for the grammar, a stack
 * of open containers, and a reusable buffer for decoded strings.  Numbers
 * are converted without strtod when that is exact (see number()); line and
 * column are only counted when a message needs them.
 */
#include "util/json_reader.h"
#include "util/json_scan.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What may come next. */
enum state {
	S_VALUE,                /* a value (top level, after ':' or ',' in an array) */
	S_FIRST_VALUE,          /* a value or ']' (after '[') */
	S_FIRST_KEY,            /* a key or '}' (after '{') */
	S_KEY,                  /* a key (after ',' in an object) */
	S_AFTER,                /* ',' or the end of the container, or the end of text */
	S_DONE,                 /* JSON_END was returned */
	S_FAILED,
};

void json_reader_init(struct json_reader *jr, const char *text, size_t len, const char *name)
{
	memset(jr, 0, sizeof(*jr));
	jr->text = jr->p = jr->tok = text;
	jr->end = text + len;
	jr->name = name;
	jr->last = JSON_END;
	jr->state = S_VALUE;
	strbuf_init(&jr->buf, 0);
	strbuf_init(&jr->err, 0);
	jr->str = jr->buf.buf;
}

void json_reader_release(struct json_reader *jr)
{
	strbuf_release(&jr->buf);
	strbuf_release(&jr->err);
}

void json_reader_linecol(struct json_reader *jr, const char *at, int *line, int *col)
{
	/* go on from the last position asked about when at is past it, so
	 * that messages in file order cost one pass over the text in all */
	if (!jr->lc_at || at < jr->lc_at) {
		jr->lc_at = jr->lc_bol = jr->text;
		jr->lc_line = 1;
	}
	for (const char *q = jr->lc_at; q < at; q++)
		if (*q == '\n') {
			jr->lc_line++;
			jr->lc_bol = q + 1;
		}
	jr->lc_at = at;
	*line = jr->lc_line;
	*col = (int)(at - jr->lc_bol) + 1;
}

static int vfail(struct json_reader *jr, const char *at, const char *fmt, va_list ap)
{
	int line, col;

	if (jr->state == S_FAILED)
		return -1;      /* keep the first message */
	json_reader_linecol(jr, at, &line, &col);
	strbuf_reset(&jr->err);
	strbuf_addf(&jr->err, "%s:%d:%d: ", jr->name, line, col);
	strbuf_vaddf(&jr->err, fmt, ap);
	jr->state = S_FAILED;
	jr->last = JSON_ERROR;
	return -1;
}

int json_reader_fail(struct json_reader *jr, const char *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(jr, at, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 3, 4)))
static enum json_token fail(struct json_reader *jr, const char *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(jr, at, fmt, ap);
	va_end(ap);
	return JSON_ERROR;
}

/* "'x'" for a printable byte, else "byte 0xNN", for "got ..." in messages. */
static const char *describe(char c, char *buf, size_t n)
{
	unsigned char u = (unsigned char)c;

	if (u >= 0x20 && u < 0x7f)
		snprintf(buf, n, "'%c'", c);
	else
		snprintf(buf, n, "byte 0x%02x", u);
	return buf;
}

/* An unexpected byte at p, or the end of the text, where `what` was expected. */
static enum json_token unexpected(struct json_reader *jr, const char *p, const char *what)
{
	char got[16];

	if (p >= jr->end)
		return fail(jr, p, "unexpected end of file, expected %s", what);
	return fail(jr, p, "expected %s, got %s", what, describe(*p, got, sizeof(got)));
}

static inline const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

static int hex4(const char *p, const char *end)
{
	int v = 0;

	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	strbuf_add(sb, u, n);
}

/*
 * A \u escape at p (pointing at the 'u'); returns the position after it,
 * or NULL after failing.  A high surrogate takes the low one of a
 * following \u escape along; an unpaired one becomes U+FFFD.
 */
static const char *unicode_escape(struct json_reader *jr, const char *p)
{
	int cp = hex4(p + 1, jr->end), lo;

	if (cp < 0) {
		fail(jr, p - 1, "invalid \\u escape in a string, expected 4 hex digits");
		return NULL;
	}
	p += 5;
	if (cp >= 0xd800 && cp <= 0xdbff && jr->end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
	    (lo = hex4(p + 2, jr->end)) >= 0xdc00 && lo <= 0xdfff) {
		add_utf8(&jr->buf, 0x10000 + (((unsigned)cp - 0xd800) << 10) + ((unsigned)lo - 0xdc00));
		return p + 6;
	}
	add_utf8(&jr->buf, cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : (unsigned)cp);
	return p;
}

/* The string whose '"' is at jr->p, decoded into jr->buf. */
static enum json_token string(struct json_reader *jr, enum json_token t)
{
	const char *p = jr->p + 1, *end = jr->end, *run = p;

	strbuf_reset(&jr->buf);
	for (;;) {
		/* the plain bytes up to the next quote, escape or control byte */
		p = json_plain_end(p, end);
		strbuf_add(&jr->buf, run, (size_t)(p - run));
		if (p >= end)
			return fail(jr, p, "unexpected end of file in a string, expected its closing '\"'");
		if (*p == '"')
			break;
		if (*p != '\\')
			return fail(jr, p, "control character 0x%02x in a string, expected it escaped "
				    "(or a missing closing '\"')", (unsigned char)*p);
		if (p + 1 >= end)
			return fail(jr, p + 1, "unexpected end of file in a string, expected its closing '\"'");
		switch (p[1]) {
		case '"': case '\\': case '/':
			strbuf_addch(&jr->buf, p[1]);
			break;
		case 'b': strbuf_addch(&jr->buf, '\b'); break;
		case 'f': strbuf_addch(&jr->buf, '\f'); break;
		case 'n': strbuf_addch(&jr->buf, '\n'); break;
		case 'r': strbuf_addch(&jr->buf, '\r'); break;
		case 't': strbuf_addch(&jr->buf, '\t'); break;
		case 'u':
			p = unicode_escape(jr, p + 1);
			if (!p)
				return JSON_ERROR;
			run = p;
			continue;
		default:
			if ((unsigned char)p[1] >= 0x20 && (unsigned char)p[1] < 0x7f)
				return fail(jr, p, "invalid escape '\\%c' in a string, expected one of "
					    "\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", p[1]);
			return fail(jr, p, "invalid escape: byte 0x%02x after '\\' in a string",
				    (unsigned char)p[1]);
		}
		p += 2;
		run = p;
	}
	jr->p = p + 1;
	jr->str = jr->buf.buf;
	jr->len = jr->buf.len;
	return t;
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Exact powers of ten: a double holds 10^k exactly up to k = 22. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * The number at jr->p (JSON syntax: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?).
 *
 * The value is exact without strtod in two cases, which are nearly all of
 * lkp's numbers: an integer of at most 19 digits (a uint64_t; one rounding
 * when converted), and a decimal whose digits make an integer m <= 2^53
 * scaled by 10^e with |e| <= 22 (m and 10^|e| are exact doubles, so one
 * IEEE multiplication or division rounds correctly: Clinger's fast path).
 * Anything else goes to strtod.
 */
static enum json_token number(struct json_reader *jr)
{
	const char *start = jr->p, *p = start, *end = jr->end;
	uint64_t m = 0;
	int digits = 0, scale = 0, exp = 0;
	bool neg = false, is_int = true;

	if (*p == '-') {
		neg = true;
		p++;
		if (p < end && *p == 'I') {
			if (end - p >= 8 && !memcmp(p, "Infinity", 8)) {
				jr->p = p + 8;
				jr->num = -INFINITY;
				jr->is_int = false;
				return JSON_NUMBER;
			}
			return unexpected(jr, p, "a digit or Infinity after '-'");
		}
	}
	if (p >= end || !is_digit(*p))
		return unexpected(jr, p, neg ? "a digit or Infinity after '-'" : "a digit");
	if (*p == '0') {
		p++;
		if (p < end && is_digit(*p))
			return fail(jr, p, "expected '.', 'e' or the end of the number after a leading 0 "
				    "(leading zeros are not allowed)");
	} else {
		for (; p < end && is_digit(*p); p++, digits++)
			m = m * 10 + (uint64_t)(*p - '0');
	}
	if (p < end && *p == '.') {
		is_int = false;
		p++;
		if (p >= end || !is_digit(*p))
			return unexpected(jr, p, "a digit after '.'");
		for (; p < end && is_digit(*p); p++) {
			if (m || *p != '0')
				digits++;       /* leading zeros of 0.00x are not significant */
			m = m * 10 + (uint64_t)(*p - '0');
			scale--;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		bool eneg = false;

		is_int = false;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p >= end || !is_digit(*p))
			return unexpected(jr, p, "a digit in the exponent");
		for (; p < end && is_digit(*p); p++)
			if (exp < 100000)
				exp = exp * 10 + (*p - '0');
		if (eneg)
			exp = -exp;
	}
	jr->p = p;
	jr->is_int = is_int;

	if (digits <= 19 && is_int) {
		/* -0 is the integer 0, not the float -0.0 */
		jr->num = m ? (neg ? -(double)m : (double)m) : 0;
		return JSON_NUMBER;
	}
	exp += scale;
	if (digits <= 19 && m <= (UINT64_C(1) << 53) && exp >= -22 && exp <= 22) {
		double v = (double)m;
		v = exp < 0 ? v / pow10_exact[-exp] : v * pow10_exact[exp];
		jr->num = neg ? -v : v;
		return JSON_NUMBER;
	}

	/* the text need not be NUL-terminated: strtod a copy */
	char small[64], *copy = small;
	size_t n = (size_t)(p - start);

	if (n >= sizeof(small))
		copy = xmalloc(n + 1);
	memcpy(copy, start, n);
	copy[n] = '\0';
	jr->num = strtod(copy, NULL);
	if (copy != small)
		free(copy);
	return JSON_NUMBER;
}

/* true, false, null, NaN, Infinity at jr->p; what: what may stand there. */
static enum json_token literal(struct json_reader *jr, const char *what)
{
	static const struct {
		const char *word;
		size_t len;
		enum json_token t;
	} words[] = {
		{ "true", 4, JSON_TRUE }, { "false", 5, JSON_FALSE }, { "null", 4, JSON_NULL },
		{ "NaN", 3, JSON_NUMBER }, { "Infinity", 8, JSON_NUMBER },
	};
	size_t left = (size_t)(jr->end - jr->p);

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (left < words[i].len || memcmp(jr->p, words[i].word, words[i].len))
			continue;
		jr->p += words[i].len;
		jr->num = words[i].t == JSON_NUMBER ? (*words[i].word == 'N' ? NAN : INFINITY) : 0;
		jr->is_int = false;
		return words[i].t;
	}
	if ((*jr->p >= 'a' && *jr->p <= 'z') || (*jr->p >= 'A' && *jr->p <= 'Z'))
		return fail(jr, jr->p, "invalid literal, expected true, false, null, NaN or Infinity");
	return unexpected(jr, jr->p, what);
}

static enum json_token open_container(struct json_reader *jr, char c)
{
	if (jr->depth >= JSON_READER_MAX_DEPTH)
		return fail(jr, jr->p, "nesting deeper than %d levels", JSON_READER_MAX_DEPTH);
	jr->stack[jr->depth++] = c;
	jr->p++;
	jr->state = c == '{' ? S_FIRST_KEY : S_FIRST_VALUE;
	return c == '{' ? JSON_OBJECT_BEGIN : JSON_ARRAY_BEGIN;
}

static enum json_token close_container(struct json_reader *jr)
{
	char c = jr->stack[--jr->depth];

	jr->p++;
	jr->state = S_AFTER;
	return c == '{' ? JSON_OBJECT_END : JSON_ARRAY_END;
}

/* A value starting at jr->p (whitespace skipped). */
static enum json_token value(struct json_reader *jr, const char *what)
{
	const char *p = jr->p;

	if (p >= jr->end)
		return unexpected(jr, p, what);
	jr->state = S_AFTER;
	switch (*p) {
	case '{':
	case '[':
		return open_container(jr, *p);
	case '"':
		return string(jr, JSON_STRING);
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return number(jr);
	default:
		return literal(jr, what);
	}
}

/* A member's name and its ':' (whitespace before the name skipped). */
static enum json_token key(struct json_reader *jr, const char *what)
{
	enum json_token t;
	const char *p;

	if (jr->p >= jr->end || *jr->p != '"')
		return unexpected(jr, jr->p, what);
	t = string(jr, JSON_KEY);
	if (t == JSON_ERROR)
		return t;
	p = skip_ws(jr->p, jr->end);
	if (p >= jr->end || *p != ':')
		return unexpected(jr, p, "':' after the object key");
	jr->p = p + 1;
	jr->state = S_VALUE;
	return t;
}

static enum json_token next(struct json_reader *jr)
{
	const char *p = skip_ws(jr->p, jr->end);
	char c;

	jr->p = jr->tok = p;
	switch (jr->state) {
	case S_VALUE:
		return value(jr, "a JSON value");
	case S_FIRST_VALUE:
		if (p < jr->end && *p == ']')
			return close_container(jr);
		return value(jr, "a JSON value or ']'");
	case S_FIRST_KEY:
		if (p < jr->end && *p == '}')
			return close_container(jr);
		return key(jr, "a string key or '}'");
	case S_KEY:
		return key(jr, "a string key");
	case S_AFTER:
		if (!jr->depth) {
			if (p < jr->end)
				return fail(jr, p, "unexpected text after the JSON value, expected the end of the file");
			jr->state = S_DONE;
			return JSON_END;
		}
		c = jr->stack[jr->depth - 1];
		if (p < jr->end && *p == (c == '{' ? '}' : ']'))
			return close_container(jr);
		if (p >= jr->end || *p != ',')
			return unexpected(jr, p, c == '{' ? "',' or '}' after an object member"
							 : "',' or ']' after an array element");
		jr->p = p = skip_ws(p + 1, jr->end);
		jr->tok = p;
		if (c == '{')
			return key(jr, "a string key after ','");
		return value(jr, "a JSON value after ','");
	case S_DONE:
		return JSON_END;
	}
	return JSON_ERROR;
}

enum json_token json_next(struct json_reader *jr)
{
	if (jr->state == S_FAILED)
		return JSON_ERROR;
	jr->last = next(jr);
	return jr->last;
}

int json_skip(struct json_reader *jr)
{
	int depth;

	if (jr->last != JSON_OBJECT_BEGIN && jr->last != JSON_ARRAY_BEGIN)
		return jr->last == JSON_ERROR ? -1 : 0;
	depth = jr->depth - 1;
	while (jr->depth > depth)
		if (json_next(jr) == JSON_ERROR)
			return -1;
	return 0;
}
