/* json_writer.c: Ruby pretty_generate-compatible JSON output. */
#include "util/error.h"
#include "util/json_writer.h"
#include "util/json_scan.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

void jw_init(struct json_writer *jw, struct strbuf *out)
{
	jw->out = out;
	jw->depth = 0;
	jw->first[0] = true;
	jw->after_key = false;
	jw->compact = false;
}

static void indent(struct json_writer *jw)
{
	if (jw->compact)
		return;
	strbuf_addch(jw->out, '\n');
	strbuf_addchars(jw->out, ' ', (size_t)jw->depth * 2);
}

/* Before any value or key: a comma and a new line unless right after a key. */
static void before_item(struct json_writer *jw)
{
	if (jw->after_key) {
		jw->after_key = false;
		return;
	}
	if (jw->depth == 0)
		return;
	if (!jw->first[jw->depth])
		strbuf_addch(jw->out, ',');
	jw->first[jw->depth] = false;
	indent(jw);
}

static void open_container(struct json_writer *jw, char c)
{
	before_item(jw);
	strbuf_addch(jw->out, c);
	if (++jw->depth >= JW_MAX_DEPTH)
		die("json writer: nesting too deep");
	jw->first[jw->depth] = true;
}

static void close_container(struct json_writer *jw, char c)
{
	bool empty = jw->first[jw->depth];

	jw->depth--;
	if (!empty)
		indent(jw);
	strbuf_addch(jw->out, c);
	if (jw->depth == 0 && !jw->compact)
		strbuf_addch(jw->out, '\n');
}

void jw_object_begin(struct json_writer *jw) { open_container(jw, '{'); }
void jw_object_end(struct json_writer *jw) { close_container(jw, '}'); }
void jw_array_begin(struct json_writer *jw) { open_container(jw, '['); }
void jw_array_end(struct json_writer *jw) { close_container(jw, ']'); }

void json_quote(struct strbuf *sb, const char *s)
{
	const char *end = s + strlen(s);

	strbuf_addch(sb, '"');
	while (s < end) {
		/* copy the run that needs no escape in one go: metric names
		 * are long and almost never hold one */
		const char *run = json_plain_end(s, end);

		strbuf_add(sb, s, (size_t)(run - s));
		s = run;
		if (s == end)
			break;
		unsigned char c = (unsigned char)*s++;
		switch (c) {
		case '"': strbuf_addstr(sb, "\\\""); break;
		case '\\': strbuf_addstr(sb, "\\\\"); break;
		case '\n': strbuf_addstr(sb, "\\n"); break;
		case '\r': strbuf_addstr(sb, "\\r"); break;
		case '\t': strbuf_addstr(sb, "\\t"); break;
		case '\b': strbuf_addstr(sb, "\\b"); break;
		case '\f': strbuf_addstr(sb, "\\f"); break;
		default: strbuf_addf(sb, "\\u%04x", c);
		}
	}
	strbuf_addch(sb, '"');
}

void jw_key(struct json_writer *jw, const char *key)
{
	before_item(jw);
	json_quote(jw->out, key);
	strbuf_addstr(jw->out, jw->compact ? ":" : ": ");
	jw->after_key = true;
}

void jw_string(struct json_writer *jw, const char *s)
{
	before_item(jw);
	json_quote(jw->out, s);
}

void jw_number(struct json_writer *jw, double v, bool is_int)
{
	before_item(jw);
	fmt_number(jw->out, v, is_int);
}

void jw_bool(struct json_writer *jw, bool b)
{
	before_item(jw);
	strbuf_addstr(jw->out, b ? "true" : "false");
}

void jw_null(struct json_writer *jw)
{
	before_item(jw);
	strbuf_addstr(jw->out, "null");
}
