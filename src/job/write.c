/*
 * write.c: writing a job as lkp writes one: Psych's YAML.dump followed by
 * lkp's comment rewriting, so that a saved job is byte-compatible with
 * the atomic jobs lkp writes.
 */
#include "job/job.h"
#include "job/job_src.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libfyaml.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ */
/* writing, as Psych's YAML.dump writes it */

#define LINE_WIDTH 80

/* libyaml's analysis: may this string be written plain in block context? */
static bool plain_allowed(const char *s, bool simple_key)
{
	size_t len = strlen(s);
	bool prev_space = true, prev_break = false;

	if (!len)
		return false;
	if (!strncmp(s, "---", 3) || !strncmp(s, "...", 3))
		return false;
	if (s[0] == ' ' || s[len - 1] == ' ')
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool next_ws = i + 1 == len || s[i + 1] == ' ' || s[i + 1] == '\t' ||
			       s[i + 1] == '\n';
		if (i == 0) {
			if (strchr("#,[]{}&*!|>'\"%@`", c))
				return false;
			if ((c == '?' || c == ':' || c == '-') && next_ws)
				return false;
		} else {
			if (c == ':' && next_ws)
				return false;
			if (c == '#' && prev_space)
				return false;
		}
		if (c == '\n')
			return false;
		if (c < 0x20 || c == 0x7f)   /* libyaml: not printable, tab too */
			return false;
		if (c == 0x7f)
			return false;
		if (simple_key && c == '\n')
			return false;
		prev_space = c == ' ' || c == '\t';
		(void)prev_break;
	}
	return true;
}

static bool printable_ascii(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c < 0x20 && c != '\n') || c == 0x7f)
			return false;
	}
	return true;
}

static bool word_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

enum out_style { OUT_PLAIN, OUT_SINGLE, OUT_DOUBLE, OUT_LITERAL };

/* Psych's choice of style for a Ruby String, then libyaml's veto. */
static enum out_style string_style(const char *s, bool key)
{
	size_t len = strlen(s);
	const char *nl = strchr(s, '\n');
	enum out_style st = OUT_PLAIN;

	if (nl && nl[1] != '\0' && !key)
		st = OUT_LITERAL;
	else if (!strcmp(s, "<<"))
		st = OUT_SINGLE;
	else if (strstr(s, "<<"))
		/* a line with "<< :" is an include (lkp's text rule), also
		 * inside quotes: write_double spells the '<' as \x3C so that
		 * the job reads back (found by fuzzing) */
		return OUT_DOUBLE;
	else if (!strcmp(s, "y") || !strcmp(s, "Y") || !strcmp(s, "n") || !strcmp(s, "N"))
		st = OUT_DOUBLE;
	else if (len && !word_char((unsigned char)s[0]) && !strchr(s, '"'))
		st = OUT_DOUBLE;
	else if (job_scalar_type_of(s) != JOB_STR ||
		 (s[0] == '0' && strspn(s + 1, "01234567") < strlen(s + 1) &&
		  isdigit((unsigned char)s[1 + strspn(s + 1, "01234567")])))
		st = OUT_SINGLE;
	if (st == OUT_LITERAL) {
		if (!printable_ascii(s) || strstr(s, " \n") || s[0] == ' ')
			st = OUT_DOUBLE;
		return st;
	}
	if (st == OUT_PLAIN && !plain_allowed(s, key))
		st = OUT_SINGLE;
	/* libfyaml (0.8) reads 'a''''b' as "a'''": two quotes in a row go
	 * double-quoted (found by fuzzing) */
	if (st == OUT_SINGLE && (!printable_ascii(s) || strchr(s, '\n') || strstr(s, "''")))
		st = OUT_DOUBLE;
	return st;
}

/* Write words separated by single spaces, breaking lines past the width
 * as libyaml does for plain and quoted scalars. */
static void write_wrapped(struct strbuf *out, const char *s, size_t len,
			  int indent, size_t *col, bool allow_breaks)
{
	for (size_t i = 0; i < len; i++) {
		if (allow_breaks && s[i] == ' ' && i + 1 < len && s[i + 1] != ' ' &&
		    i > 0 && s[i - 1] != ' ' && *col > LINE_WIDTH) {
			strbuf_addch(out, '\n');
			strbuf_addchars(out, ' ', (size_t)indent);
			*col = (size_t)indent;
			continue;
		}
		strbuf_addch(out, s[i]);
		(*col)++;
	}
}

/*
 * wrap: fold at a single space past LINE_WIDTH as libyaml does; never in
 * a key, which must stay on one line, nor in a run of spaces, whose first
 * ones would end the line and be stripped on reading (both did not read
 * back: found by fuzzing).
 */
static void write_double(struct strbuf *out, const char *s, int indent, size_t *col,
			 bool wrap)
{
	const char *start = s;

	strbuf_addch(out, '"');
	(*col)++;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = NULL;
		char tmp[8];

		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\t': esc = "\\t"; break;
		case '\r': esc = "\\r"; break;
		case 0: esc = "\\0"; break;
		case 0x1b: esc = "\\e"; break;
		case '<':
			if (s[1] == '<')
				esc = "\\x3C";
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				snprintf(tmp, sizeof(tmp), "\\x%02X", c);
				esc = tmp;
			}
		}
		if (esc) {
			strbuf_addstr(out, esc);
			*col += strlen(esc);
		} else if (wrap && c == ' ' && s > start && s[-1] != ' ' && s[1] && s[1] != ' ' &&
			   *col > LINE_WIDTH) {
			/* libyaml breaks with a trailing backslash-free newline */
			strbuf_addch(out, '\n');
			strbuf_addchars(out, ' ', (size_t)indent);
			*col = (size_t)indent;
		} else {
			strbuf_addch(out, (char)c);
			(*col)++;
		}
	}
	strbuf_addch(out, '"');
	(*col)++;
}

/* Append a scalar's text as YAML, starting at column *col. */
static void write_scalar(struct strbuf *out, const struct job_value *v,
			 int indent, size_t *col, bool key)
{
	const char *s = v->text;

	if (v->kind == JOB_NULL)
		return;
	if (v->type != JOB_STR) {
		/* Ruby's own values print in their canonical form */
		size_t before = out->len;
		job_scalar_to_s(v, out);
		*col += out->len - before;
		return;
	}
	switch (string_style(s, key)) {
	case OUT_PLAIN:
		write_wrapped(out, s, strlen(s), indent, col, !key);
		break;
	case OUT_SINGLE:
		strbuf_addch(out, '\'');
		(*col)++;
		for (const char *p = s; *p; p++) {
			if (*p == '\'') {
				strbuf_addstr(out, "''");
				*col += 2;
			} else {
				write_wrapped(out, p, 1, indent, col, false);
			}
		}
		strbuf_addch(out, '\'');
		(*col)++;
		break;
	case OUT_DOUBLE:
		write_double(out, s, indent, col, !key);
		break;
	case OUT_LITERAL: {
		size_t len = strlen(s);
		const char *p = s;
		/* chomping: "|" keeps one final newline, "|-" none, "|+" more */
		if (len && s[len - 1] == '\n')
			strbuf_addstr(out, len > 1 && s[len - 2] == '\n' ? "|+" : "|");
		else
			strbuf_addstr(out, "|-");
		while (*p) {
			const char *nl = strchrnul(p, '\n');
			strbuf_addch(out, '\n');
			if (nl > p)
				strbuf_addchars(out, ' ', (size_t)indent);
			strbuf_add(out, p, (size_t)(nl - p));
			if (!*nl)
				break;
			p = nl + 1;
		}
		*col = 0;
		/* the caller adds the final newline */
		break;
	}
	}
}

static void write_value(struct strbuf *out, const struct job_value *v, int indent, size_t col);
static void write_item(struct strbuf *out, const struct job_value *v, int indent);

static bool is_empty_container(const struct job_value *v)
{
	if (v->kind == JOB_SEQ)
		return v->nr == 0;
	if (v->kind == JOB_MAP) {
		for (size_t i = 0; i < v->nr; i++)
			if (!v->ent[i].comment)
				return false;
		return true;
	}
	return false;
}

/* Write map entries at indent; the first one continues the current line
 * when first_inline (a map inside a list item). */
static void write_map(struct strbuf *out, const struct job_value *map, int indent,
		      bool first_inline, bool top)
{
	bool first = true;

	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		struct job_value key = { .kind = JOB_SCALAR, .text = e->key };
		size_t col = (size_t)indent;

		if (e->comment) {
			if (top) {
				strbuf_addf(out, "\n#%s\n", e->key);
				continue;
			}
			key.text = NULL;
			continue;
		}
		key.type = job_scalar_type_of(e->key) == JOB_STR ? JOB_STR : JOB_STR;
		if (!(first && first_inline))
			strbuf_addchars(out, ' ', (size_t)indent);
		first = false;
		write_scalar(out, &key, indent, &col, true);
		strbuf_addch(out, ':');
		write_value(out, e->val, indent, col + 1);
	}
}

/* Write v after "key:" (col is the column after the colon), including
 * the final newline. */
static void write_value(struct strbuf *out, const struct job_value *v, int indent,
			size_t col)
{
	switch (v->kind) {
	case JOB_NULL:
		strbuf_addch(out, '\n');
		return;
	case JOB_SCALAR:
		strbuf_addch(out, ' ');
		col++;
		write_scalar(out, v, indent + 2, &col, false);
		strbuf_addch(out, '\n');
		return;
	case JOB_SEQ:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " []\n");
			return;
		}
		strbuf_addch(out, '\n');
		/* libyaml writes a map's sequence without extra indentation */
		for (size_t i = 0; i < v->nr; i++) {
			strbuf_addchars(out, ' ', (size_t)indent);
			strbuf_addch(out, '-');
			write_item(out, v->item[i], indent);
		}
		return;
	case JOB_MAP:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " {}\n");
			return;
		}
		strbuf_addch(out, '\n');
		write_map(out, v, indent + 2, false, false);
		return;
	}
}

/* Write a list item after its "-". */
static void write_item(struct strbuf *out, const struct job_value *v, int indent)
{
	size_t col;

	switch (v->kind) {
	case JOB_NULL:
		/* not Psych's bare "-": libfyaml (0.8) refuses that in a list
		 * at its key's indentation ("k:\n-\n"), so the job would not
		 * read back (found by fuzzing) */
		strbuf_addstr(out, " ~\n");
		return;
	case JOB_SCALAR:
		strbuf_addch(out, ' ');
		col = (size_t)indent + 2;
		write_scalar(out, v, indent + 2, &col, false);
		strbuf_addch(out, '\n');
		return;
	case JOB_SEQ:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " []\n");
			return;
		}
		for (size_t i = 0; i < v->nr; i++) {
			if (i)
				strbuf_addchars(out, ' ', (size_t)indent + 2);
			else
				strbuf_addch(out, ' ');
			strbuf_addch(out, '-');
			write_item(out, v->item[i], indent + 2);
		}
		return;
	case JOB_MAP:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " {}\n");
			return;
		}
		strbuf_addch(out, ' ');
		write_map(out, v, indent + 2, true, false);
		return;
	}
}

void job_to_yaml(const struct job *job, struct strbuf *out)
{
	strbuf_addstr(out, "---\n");
	write_map(out, job->root, 0, false, true);
}

int job_save(const struct job *job, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	job_to_yaml(job, &sb);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

