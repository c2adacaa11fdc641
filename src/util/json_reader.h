#ifndef PERFBOT_JSON_READER_H
#define PERFBOT_JSON_READER_H
/*
 * json_reader: a pull reader of JSON text, for the hot path of loading
 * matrix.json and stats.json (result/matrix.c).
 *
 * Why not json-c, which the project uses for general JSON: json-c builds a
 * tree with one heap object per value.  Two matrix.json of 30,000 metrics
 * x 5 runs are ~300,000 values, and building and walking those trees took
 * ~110 ms of the ~170 ms that `perfbot compare` took.  This reader walks
 * the text once and allocates nothing per value: loading one such file
 * (3.3 MB) into a struct matrix takes 10.5 ms against json-c's 52 ms
 * (best of 20 loads in one process, on the project's 2-core machine).
 *
 * What it accepts: RFC 8259 JSON (any layout, pretty-printed or compact),
 * plus the bare NaN, Infinity and -Infinity that Ruby's JSON writes with
 * allow_nan (lkp-tests' matrix.json may hold them).  Strings may hold every
 * escape, \uXXXX included, surrogate pairs decoded to UTF-8 (an unpaired
 * surrogate becomes U+FFFD, as in json-c).  Nothing else: no comments, no
 * trailing commas, no single quotes, no leading zeros, no raw control
 * characters in strings; neither lkp-tests nor perfbot writes those.
 *
 *   struct json_reader jr;
 *   json_reader_init(&jr, text, len, "m.json");
 *   while ((t = json_next(&jr)) > JSON_END)
 *           ...;                 // t, and jr.str / jr.num for its value
 *   if (t == JSON_ERROR)
 *           error("%s", jr.err.buf);  // "m.json:3:1: unexpected end of file, ..."
 *   json_reader_release(&jr);
 *
 * The reader checks the grammar as it goes, so a caller sees tokens in a
 * valid order (a JSON_KEY is always followed by the member's value) and
 * JSON_END only after a complete document followed by nothing but
 * whitespace.  After JSON_ERROR every further call returns JSON_ERROR.
 */
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

enum json_token {
	JSON_ERROR = -1,        /* see jr->err */
	JSON_END = 0,           /* the document is complete */
	JSON_OBJECT_BEGIN,
	JSON_OBJECT_END,
	JSON_ARRAY_BEGIN,
	JSON_ARRAY_END,
	JSON_KEY,               /* a member's name (jr->str); its value follows */
	JSON_STRING,            /* jr->str */
	JSON_NUMBER,            /* jr->num, jr->is_int */
	JSON_TRUE,
	JSON_FALSE,
	JSON_NULL,
};

/* Deeper nesting is an error (the reader keeps one byte per level). */
#define JSON_READER_MAX_DEPTH 256

struct json_reader {
	const char *text, *p, *end;
	const char *name;       /* borrowed; names the text in messages */
	const char *tok;        /* where the last token began */
	enum json_token last;   /* the last token returned */

	/* The last token's value.  str is NUL-terminated (len excludes the
	 * NUL; a \u0000 escape leaves a NUL inside) and valid until the next
	 * call.  is_int: the number had no fraction and no exponent (a JSON
	 * integer); NaN and the infinities are not integers. */
	const char *str;
	size_t len;
	double num;
	bool is_int;

	int state;              /* what may come next (json_reader.c) */
	int depth;
	char stack[JSON_READER_MAX_DEPTH];      /* '{' or '[' per open level */
	struct strbuf buf;      /* decoded strings */
	struct strbuf err;      /* after JSON_ERROR: "name:line:col: what" */
	const char *lc_at, *lc_bol;     /* json_reader_linecol's memo */
	int lc_line;
};

/* Read len bytes of text (which need not be NUL-terminated and must
 * outlive the reader); name is borrowed for messages. */
void json_reader_init(struct json_reader *jr, const char *text, size_t len, const char *name);
/* Free the reader's buffers (not the text). */
void json_reader_release(struct json_reader *jr);

/* The next token, JSON_END once after the document, or JSON_ERROR with
 * jr->err set (messages are lowercase, without a final full stop, and say
 * what was expected). */
enum json_token json_next(struct json_reader *jr);

/*
 * Skip the rest of the value whose first token json_next just returned:
 * after JSON_OBJECT_BEGIN or JSON_ARRAY_BEGIN, read up to and including
 * the matching end; after a scalar, do nothing.  Returns 0, or -1 with
 * jr->err set.
 */
int json_skip(struct json_reader *jr);

/* Line and column (1-based, columns in bytes) of position at in the text.
 * Counting resumes from the previous call's position when at is past it. */
void json_reader_linecol(struct json_reader *jr, const char *at, int *line, int *col);

/*
 * Record an error found by the caller at position at (a jr->tok saved
 * earlier, say): jr->err becomes "name:line:col: <message>", and json_next
 * returns JSON_ERROR from now on.  Returns -1.
 */
__attribute__((format(printf, 3, 4)))
int json_reader_fail(struct json_reader *jr, const char *at, const char *fmt, ...);

#endif
