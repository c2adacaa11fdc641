#ifndef PERFBOT_JSON_WRITER_H
#define PERFBOT_JSON_WRITER_H
/*
 * A streaming JSON writer producing exactly the layout of Ruby's
 * JSON.pretty_generate, which lkp-tests uses for stats.json, matrix.json,
 * avg.json and stddev.json:
 *
 *   {
 *     "metric": [
 *       1,
 *       2.5
 *     ],
 *     "other": 3
 *   }
 *
 * Two-space indent, one array element per line, empty containers as "[]"
 * and "{}", numbers as numfmt.h prints them (NaN/Infinity bare, as Ruby
 * does with allow_nan).  The writer appends to a strbuf; nesting is tracked
 * so that commas and newlines come out right without the caller's help.
 *
 *   struct json_writer jw;
 *   jw_init(&jw, &sb);
 *   jw_object_begin(&jw);
 *   jw_key(&jw, "x"); jw_number(&jw, 1, true);
 *   jw_object_end(&jw);      // then sb holds the text, with a final newline
 */
#include <stdbool.h>
#include "util/strbuf.h"

#define JW_MAX_DEPTH 32

struct json_writer {
	struct strbuf *out;
	int depth;
	bool first[JW_MAX_DEPTH];   /* no element written yet at this depth */
	bool after_key;             /* a key was written; the value follows */
	bool compact;               /* one line, "a":1 style (for --json) */
};

void jw_init(struct json_writer *jw, struct strbuf *out);
void jw_object_begin(struct json_writer *jw);
void jw_object_end(struct json_writer *jw);
void jw_array_begin(struct json_writer *jw);
void jw_array_end(struct json_writer *jw);
void jw_key(struct json_writer *jw, const char *key);
void jw_string(struct json_writer *jw, const char *s);
void jw_number(struct json_writer *jw, double v, bool is_int);
void jw_bool(struct json_writer *jw, bool b);
void jw_null(struct json_writer *jw);
/* Append s to sb as a JSON string literal, with quotes. */
void json_quote(struct strbuf *sb, const char *s);

#endif
